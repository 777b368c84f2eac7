// Ray casts in closed form. Polygons and capsules move the ray into the
// shape's local frame (a rigid map, so fractions are unchanged), solve there
// and turn the normal back; circles and segments place the shape in the world
// instead, which is cheaper. The rules (closed shapes, no hit from inside,
// zero translation misses) are in include/sweep/raycast.hpp.
//
// Speed: a ray cast is a few dozen flops, so branches the predictor cannot
// learn (hit or miss) and long dependency chains before them cost as much as
// the arithmetic. The circle and segment kernels test misses with products
// only (no division or square root before the branch) and join those tests
// and the input's validity with `|` into one branch. Polygons keep Box2D's
// clipping loop with its early exits: a branch-free loop, with a division
// or two products per edge, measured 1.6 times slower.
#include "sweep/raycast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace sweep {
namespace {

/// A ray in one frame: origin p, translation d, as RayInput.
struct Ray {
    Vec2 p;
    Vec2 d;
    real max_fraction;
};

/// True when every value is finite: v - v is 0 for finite v and NaN for NaN
/// and inf, so one comparison checks them all (a branch per value would
/// cost a tenth of a ray cast).
template <class... Reals> bool all_finite(Reals... values) {
    return ((values - values) + ...) == 0;
}

/// A miss: state miss, every other field at its default.
constexpr CastOutput k_miss{};

/// A miss when the input is valid (a kernel's miss test said so), else
/// invalid_input.
CastOutput rejected(bool valid) {
    CastOutput out;
    out.state = valid ? CastState::miss : CastState::invalid_input;
    return out;
}

/// A hit at `fraction` with `normal` (the kernel's frame); with_point fills
/// in the point.
CastOutput hit_at(real fraction, Vec2 normal) {
    CastOutput out;
    out.state = CastState::hit;
    out.fraction = fraction;
    out.normal = normal;
    return out;
}

/// The world point of a hit: origin + fraction * translation. + 0 turns a
/// -0 fraction (a numerator of 0 over a negative denominator) into +0.
CastOutput with_point(CastOutput out, const RayInput& input) {
    if (out.state == CastState::hit) {
        out.fraction = out.fraction + real(0);
        out.point = input.origin + out.fraction * input.translation;
    }
    return out;
}

/// The ray in the local frame of xf (a rigid map: fractions are unchanged).
Ray to_local(const RayInput& input, const Transform& xf) {
    return {inv_transform_point(xf, input.origin), inv_rotate(xf.q, input.translation),
            input.max_fraction};
}

/// The longest translation and the farthest origin (from a circle's centre,
/// or in a solid shape's frame) a ray may have, L: within them, with radii
/// within k_max_coordinate, the products of squared lengths (a disc's
/// discriminant) stay finite. A ray 1e18 L long against a disc of radius
/// 45,232 got a NaN fraction (fuzz_world).
constexpr real k_longest_squared = (2 * k_max_coordinate) * (2 * k_max_coordinate);
constexpr real k_farthest_squared = (4 * k_max_coordinate) * (4 * k_max_coordinate);

/// Validity of a ray moved into a shape's frame, from |p|^2 (p its origin
/// there, or relative to a circle's centre), |d|^2 and max_fraction. Every
/// input (origin, translation, max_fraction, transform) reaches p, d or
/// max_fraction, and a NaN or inf among them makes |p|^2 or |d|^2 NaN or inf
/// (inf * 0 is NaN, so a zero operand does not hide one), which fails the
/// range comparisons: checking three values checks all nine inputs.
/// Negative max_fraction: invalid.
bool is_valid(real pp, real dd, real max_fraction) {
    return (pp <= k_farthest_squared) & (dd <= k_longest_squared) & all_finite(max_fraction) &
           (max_fraction >= 0);
}

/// Runs `cast` on the ray in the local frame of xf when the input is valid
/// and maps its hit to the world. For polygons and capsules.
template <class Cast>
[[gnu::always_inline]] inline CastOutput cast_in_local_frame(const RayInput& input,
                                                             const Transform& xf, Cast cast) {
    const Ray ray = to_local(input, xf);
    const real dd = length_squared(ray.d);
    const bool valid = is_valid(length_squared(ray.p), dd, ray.max_fraction);
    if (!valid) {
        return rejected(valid);
    }
    // A zero translation needs no test of its own: every denominator is 0,
    // so the clip either finds the origin outside a plane or enters none.
    CastOutput out = cast(ray);
    if (out.state == CastState::hit) {
        out.normal = rotate(xf.q, out.normal); // back to the world
    }
    return with_point(out, input);
}

/// The ray against the disc of `radius` about `center` (same frame).
/// |s + t d|^2 = r^2 with s = p - c (Ericson 5.3.2), made precise as in
/// Haines et al., "Precision Improvements for Ray/Sphere Intersection"
/// (Ray Tracing Gems, 2019, ch. 7): the discriminant r^2 |d|^2 - (s x d)^2
/// comes from the cross product, the distance of the centre from the line,
/// instead of (s.d)^2 - |d|^2 (|s|^2 - r^2), which cancels for long rays
/// (Box2D 2.4.1's b2CircleShape::RayCast loses ~1e-3 L there); and the
/// entry root is taken as (|s|^2 - r^2) / (-s.d + sqrt(disc)), which does
/// not cancel (Vieta). Origin inside: miss; moving away or along: miss.
/// A disc too small for the ray's coordinates to resolve (its entry point
/// rounds to the centre) is met head on: the normal is -d / |d|.
///
/// With `validate` (a circle cast on its own), the input's validity joins
/// the miss test in one branch: s carries the origin and the transform.
template <bool validate = false>
[[gnu::always_inline]] inline CastOutput ray_circle(const Ray& ray, Vec2 center, real radius) {
    const Vec2 s = ray.p - center;
    const real rr = radius * radius;
    const real ss = length_squared(s);
    const real dd = length_squared(ray.d);
    const real sd = dot(s, ray.d);
    const real k = cross(s, ray.d);
    const real discriminant = rr * dd - k * k;
    const bool valid = !validate || is_valid(ss, dd, ray.max_fraction);
    // Starts inside; moves away, along or not at all (d = 0 gives sd = 0);
    // passes the disc by.
    if (!valid | (ss < rr) | (sd >= 0) | (discriminant < 0)) {
        return rejected(valid);
    }
    const real t = (ss - rr) / (std::sqrt(discriminant) - sd); // >= 0: the origin is outside
    if (t > ray.max_fraction) {
        return k_miss;
    }
    // A disc below the resolution of the ray's coordinates (the entry point
    // rounds to the centre): the ray meets it head on, normal against it.
    Vec2 normal = normalize(s + t * ray.d);
    if (normal == Vec2{}) {
        // (d scaled to a largest coordinate of 1 first: |d| may be tiny.)
        const real largest = std::max(std::abs(ray.d.x), std::abs(ray.d.y));
        normal = -normalize(Vec2{ray.d.x / largest, ray.d.y / largest});
    }
    CastOutput out = hit_at(t, normal);
    out.point = ray.p + t * ray.d; // t >= 0, never -0
    return out;
}

/// Sharp convex polygon: clip [0, max_fraction] by each edge's half-plane
/// (Cyrus-Beck; Ericson 5.3.8; Box2D's b2PolygonShape::RayCast). `numerator`
/// is how far the origin is behind edge i's plane, `denominator` the speed
/// along its normal. An edge whose plane the origin is on (numerator 0) and
/// which the ray moves into counts as entered, so an origin on the surface
/// moving inward hits at t = 0; an origin strictly inside enters no plane.
/// An origin on a corner is inward only when it moves into both planes
/// there: leaving the other plane at t = 0 (upper 0), or running along it,
/// it touches the polygon at t = 0 alone and misses (a ray leaving a tile's
/// corner hit it at t = 0).
CastOutput ray_sharp_polygon(const Ray& ray, const Polygon& polygon) {
    real lower = 0;
    real upper = ray.max_fraction;
    int index = -1;
    bool along_a_face = false; // on a face's plane, moving along it
    for (int i = 0; i < polygon.count; ++i) {
        // Component by component: GCC loads a whole Vec2 as one 64-bit
        // integer and splits it, which costs ~10% here.
        const real nx = polygon.normals[i].x;
        const real ny = polygon.normals[i].y;
        const real numerator =
            nx * (polygon.vertices[i].x - ray.p.x) + ny * (polygon.vertices[i].y - ray.p.y);
        const real denominator = nx * ray.d.x + ny * ray.d.y;
        if (denominator == 0) {
            if (numerator < 0) {
                return k_miss; // parallel to the plane and outside it
            }
            along_a_face = along_a_face || numerator == 0;
        } else if (denominator < 0 && numerator <= lower * denominator) {
            lower = numerator / denominator; // enters this half-plane later
            index = i;
        } else if (denominator > 0 && numerator < upper * denominator) {
            upper = numerator / denominator; // leaves this half-plane earlier
        }
        if (upper < lower) {
            return k_miss;
        }
    }
    if (index < 0 || (lower == 0 && (upper == 0 || along_a_face))) {
        return k_miss; // never entered a plane (started inside), or only touched at t = 0
    }
    return hit_at(lower, polygon.normals[index]);
}

/// The ray against the Minkowski sum of the convex core (`vertices`,
/// counter-clockwise, `normals[i]` the outward unit normal of edge i -> i+1;
/// two vertices for a capsule) and a disc of `radius`, exactly.
///
/// The rounded shape lies inside the mitred polygon, the intersection of
/// the edges' half-planes each pushed out by `radius`; the two differ only
/// in the corner regions, each bounded by one vertex's arc and the two
/// offset faces meeting at the mitre point (offsetting a convex polygon
/// keeps every face). So:
/// 1. Clip the ray by the offset half-planes (as the sharp case): empty
///    means a miss. Else the ray is in the mitred polygon on [lower, upper],
///    having entered through face `index` (or started inside, index -1).
/// 2. Project the entry point on that face's core edge. Within the edge, the
///    entry point is on the rounded surface: the answer.
/// 3. Past an end, the entry point is in that vertex's corner region. The
///    ray leaves the region either through the arc, entering the shape, or
///    through an offset face, leaving the mitred polygon for good: the
///    answer is the ray against that vertex circle, or a miss.
/// An origin already inside the mitred polygon is placed by its most
/// separating core face, whose projection finds its region the same way
/// (for a point outside a convex polygon, the most separating face is
/// adjacent to the closest feature).
CastOutput ray_rounded_polygon(const Ray& ray, std::span<const Vec2> vertices,
                               std::span<const Vec2> normals, real radius) {
    const int count = static_cast<int>(vertices.size());
    real lower = 0;
    real upper = ray.max_fraction;
    int index = -1;
    real best_separation = -std::numeric_limits<real>::infinity();
    int best_face = 0;
    for (int i = 0; i < count; ++i) {
        const real nx = normals[i].x; // component by component, as ray_sharp_polygon
        const real ny = normals[i].y;
        // The origin's separation from the core edge.
        const real separation = nx * (ray.p.x - vertices[i].x) + ny * (ray.p.y - vertices[i].y);
        if (separation > best_separation) {
            best_separation = separation;
            best_face = i;
        }
        const real numerator = radius - separation; // behind the offset plane
        const real denominator = nx * ray.d.x + ny * ray.d.y;
        if (denominator == 0) {
            if (numerator < 0) {
                return k_miss;
            }
        } else if (denominator < 0 && numerator <= lower * denominator) {
            lower = numerator / denominator;
            index = i;
        } else if (denominator > 0 && numerator < upper * denominator) {
            upper = numerator / denominator;
        }
        if (upper < lower) {
            return k_miss;
        }
    }
    // A polygon's core contains the origin when no face separates it. (A
    // capsule's two faces are opposite; its core is a segment, which the
    // projection below handles.)
    if (index < 0 && count >= 3 && best_separation <= 0) {
        return k_miss;
    }
    const int face = index >= 0 ? index : best_face;
    const Vec2 v1 = vertices[face];
    const Vec2 v2 = vertices[face + 1 < count ? face + 1 : 0];
    const Vec2 e = v2 - v1;
    const Vec2 q = ray.p + lower * ray.d; // entry into the mitred polygon (or the origin)
    const real s = dot(q - v1, e);
    if (0 <= s && s <= length_squared(e)) {
        if (index < 0) {
            return k_miss; // origin within `radius` of the edge: inside
        }
        return hit_at(lower, normals[face]);
    }
    return ray_circle(ray, s < 0 ? v1 : v2, radius);
}

/// Sine of the angle between a ray and a segment below which ray_segment
/// also checks its hit's point: the crossing's parameters are then
/// quotients of values near their own rounding.
constexpr real k_nearly_parallel = real(1e-3);

/// Whether the ray's point at `t` lies over the segment p1-p2, to the
/// rounding of the coordinates. A ray along the segment's line, to within
/// rounding, crosses it where rounding says: a hit 0.049 L short of the
/// segment, or at t = 1, 5.3 L beyond it when moving away.
[[gnu::noinline, gnu::cold]] bool on_segment(const Ray& ray, real t, Vec2 p1, Vec2 p2) {
    const Vec2 e = p2 - p1;
    const real scale = 1 + std::max({std::abs(p1.x), std::abs(p1.y), std::abs(p2.x), std::abs(p2.y),
                                     std::abs(ray.p.x), std::abs(ray.p.y)});
    const real slack = 64 * std::numeric_limits<real>::epsilon() * scale * length(e);
    const real u = dot(ray.p + t * ray.d - p1, e); // |e|^2 times the place along it
    return u >= -slack && u <= dot(e, e) + slack;
}

/// The ray against the segment p1 -> p2 (same frame), two-sided, or for a
/// chain segment (`one_sided`) crossed from its outer side (the right of
/// p1 -> p2) only. As Box2D's b2EdgeShape::RayCast, solving
/// p + t d = p1 + u e with w = p1 - p: t = (n.w) / (n.d) and
/// u = (w x d) / (n.d), n = right_perp(e), but without normalizing n first
/// (both are ratios) and with the range tests t in [0, max_fraction],
/// u in [0, 1] made on the numerators, scaled so the denominator is
/// positive: one division, on a hit. The normal faces the ray's origin.
/// The input's validity joins the miss test: every input reaches the
/// numerator, the denominator or the place along the segment (the transform
/// through p1 and p2), so they are checked instead of the nine inputs.
template <bool one_sided> CastOutput ray_segment(const Ray& ray, Vec2 p1, Vec2 p2) {
    const Vec2 n = right_perp(p2 - p1); // outward for a chain segment
    const Vec2 w = p1 - ray.p;
    const real denominator = dot(n, ray.d);
    const real sign = denominator < 0 ? real(-1) : real(1);
    const real den = sign * denominator;       // |n.d|
    const real num = sign * dot(n, w);         // t = num / den
    const real along = sign * cross(w, ray.d); // u = along / den
    const real m = ray.max_fraction;
    const real d2 = length_squared(ray.d);
    const bool valid = all_finite(num, den, along, m) & (d2 <= k_longest_squared) & (m >= 0);
    const bool wrong_side = one_sided ? denominator >= 0 : denominator == 0;
    // Parallel, not moving or (one-sided) leaving; behind; too far; off the segment.
    if (!valid | wrong_side | (num < 0) | (num > m * den) | (along < 0) | (along > den) |
        (d2 == 0)) {
        return rejected(valid);
    }
    // A segment the transform's rounding shrank under normalize's floor is a
    // point, with no side to enter (a 3.7e-20 L one placed at y = 0.03125
    // was hit with normal zero).
    const Vec2 facing = -sign * n;
    const real n2 = length_squared(facing); // (normalize's own square)
    const Vec2 normal = normalize(facing);
    if (normal == Vec2{}) {
        return rejected(valid);
    }
    const real t = num / den;
    // (Squared: no root on every hit. An overflowing product only checks more.)
    if (den * den < k_nearly_parallel * k_nearly_parallel * n2 * d2) [[unlikely]] {
        if (!on_segment(ray, t, p1, p2)) {
            return rejected(valid);
        }
    }
    return hit_at(t, normal);
}

} // namespace

CastOutput raycast(const RayInput& input, const Circle& circle, const Transform& xf) {
    // In the world frame: placing the centre costs less than moving the ray.
    // ray_circle fills in the point: the world's here.
    const Ray ray{input.origin, input.translation, input.max_fraction};
    return ray_circle<true>(ray, transform_point(xf, circle.center), circle.radius);
}

CastOutput raycast(const RayInput& input, const Capsule& capsule, const Transform& xf) {
    return cast_in_local_frame(input, xf, [&](const Ray& ray) {
        const Vec2 n = normalize(right_perp(capsule.center2 - capsule.center1));
        const Vec2 vertices[2] = {capsule.center1, capsule.center2};
        const Vec2 normals[2] = {n, -n};
        return ray_rounded_polygon(ray, vertices, normals, capsule.radius);
    });
}

CastOutput raycast(const RayInput& input, const Polygon& polygon, const Transform& xf) {
    return cast_in_local_frame(input, xf, [&](const Ray& ray) {
        if (polygon.radius == 0 && polygon.count >= 3) {
            return ray_sharp_polygon(ray, polygon);
        }
        const auto n = static_cast<std::size_t>(polygon.count);
        return ray_rounded_polygon(ray, std::span(polygon.vertices.data(), n),
                                   std::span(polygon.normals.data(), n), polygon.radius);
    });
}

// Segments are cast in the world frame: placing two points costs less than
// moving the ray in and the normal out.

CastOutput raycast(const RayInput& input, const Segment& segment, const Transform& xf) {
    const Ray ray{input.origin, input.translation, input.max_fraction};
    return with_point(
        ray_segment<false>(ray, transform_point(xf, segment.p1), transform_point(xf, segment.p2)),
        input);
}

CastOutput raycast(const RayInput& input, const ChainSegment& chain, const Transform& xf) {
    const Ray ray{input.origin, input.translation, input.max_fraction};
    return with_point(ray_segment<true>(ray, transform_point(xf, chain.segment.p1),
                                        transform_point(xf, chain.segment.p2)),
                      input);
}

CastOutput raycast(const RayInput& input, const Shape& shape, const Transform& xf) {
    switch (shape.type) {
    case ShapeType::circle:
        return raycast(input, shape.circle, xf);
    case ShapeType::capsule:
        return raycast(input, shape.capsule, xf);
    case ShapeType::polygon:
        return raycast(input, shape.polygon, xf);
    case ShapeType::segment:
        return raycast(input, shape.segment, xf);
    case ShapeType::chain_segment:
        return raycast(input, shape.chain_segment, xf);
    }
    CastOutput out;
    out.state = CastState::invalid_input; // not a ShapeType: corrupt input
    return out;
}

} // namespace sweep
