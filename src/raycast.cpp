// Ray casts in closed form. Every overload moves the ray into the shape's
// local frame (a rigid map, so fractions are unchanged), solves there and
// maps the normal back. The rules (closed shapes, no hit from inside, zero
// translation misses) are in include/sweep/raycast.hpp.
#include "sweep/raycast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace sweep {
namespace {

/// The ray in a shape's local frame.
struct LocalRay {
    Vec2 p;            ///< origin
    Vec2 d;            ///< translation
    real max_fraction; ///< as RayInput
};

/// A hit in the local frame, or none (hit == false).
struct LocalHit {
    real fraction = 0;
    Vec2 normal; ///< unit, local frame
    bool hit = false;
};

/// False for input no overload can cast: NaN/inf, a negative max_fraction,
/// or a translation whose squared length overflows.
bool is_valid(const RayInput& input, const Transform& xf) {
    return is_finite(input.origin) && is_finite(input.translation) &&
           std::isfinite(input.max_fraction) && input.max_fraction >= 0 && is_finite(xf) &&
           std::isfinite(length_squared(input.translation));
}

/// Validates, moves the ray into the frame of xf, runs `cast` there and maps
/// its hit back to the world.
template <class Cast>
CastOutput cast_in_local_frame(const RayInput& input, const Transform& xf, Cast cast) {
    CastOutput out;
    if (!is_valid(input, xf)) {
        out.state = CastState::invalid_input;
        return out;
    }
    if (length_squared(input.translation) == 0) {
        return out; // a ray that does not move enters nothing: miss
    }
    const LocalRay ray{inv_transform_point(xf, input.origin), inv_rotate(xf.q, input.translation),
                       input.max_fraction};
    const LocalHit hit = cast(ray);
    if (!hit.hit) {
        return out;
    }
    out.state = CastState::hit;
    // + 0 turns a -0 (a numerator of 0 over a negative denominator) into +0.
    out.fraction = hit.fraction + real(0);
    out.point = input.origin + out.fraction * input.translation;
    out.normal = rotate(xf.q, hit.normal);
    out.iterations = 0;
    return out;
}

/// The ray against the disc of `radius` about `center` (local frame).
/// Ericson 5.3.2 solves |s + t d|^2 = r^2 with s = p - c; subtracting
/// b^2 - ac cancels badly for long rays, so, as Box2D v3's b2RayCastCircle,
/// take the closest point of the line to the centre, c = s + t_c d (exact
/// up to rounding whatever the ray's length), and step back by the half
/// chord sqrt((r^2 - |c|^2) / |d|^2).
LocalHit ray_circle(const LocalRay& ray, Vec2 center, real radius) {
    LocalHit out;
    const Vec2 s = ray.p - center;
    const real rr = radius * radius;
    if (length_squared(s) < rr) {
        return out; // starts inside: no hit (the header's convention)
    }
    const real sd = dot(s, ray.d);
    if (sd >= 0) {
        return out; // outside or on the circle, moving along or away
    }
    const real dd = length_squared(ray.d);
    const real t_closest = -sd / dd;
    const Vec2 c = s + t_closest * ray.d;
    const real cc = length_squared(c);
    if (cc > rr) {
        return out; // the line passes the disc by
    }
    // The origin is outside, so the entry is at t >= 0; the max only removes
    // rounding from an origin on the circle.
    const real t = std::max(t_closest - std::sqrt((rr - cc) / dd), real(0));
    if (t > ray.max_fraction) {
        return out;
    }
    out.hit = true;
    out.fraction = t;
    out.normal = normalize(s + t * ray.d);
    return out;
}

/// Sharp convex polygon: clip [0, max_fraction] by each edge's half-plane
/// (Cyrus-Beck; Ericson 5.3.8; Box2D's b2PolygonShape::RayCast). `numerator`
/// is how far the origin is behind edge i's plane, `denominator` the speed
/// along its normal. An edge whose plane the origin is on (numerator 0) and
/// which the ray moves into counts as entered, so an origin on the surface
/// moving inward hits at t = 0; an origin strictly inside enters no plane.
LocalHit ray_sharp_polygon(const LocalRay& ray, const Polygon& polygon) {
    LocalHit out;
    real lower = 0;
    real upper = ray.max_fraction;
    int index = -1;
    for (int i = 0; i < polygon.count; ++i) {
        const Vec2 n = polygon.normals[i];
        const real numerator = dot(n, polygon.vertices[i] - ray.p);
        const real denominator = dot(n, ray.d);
        if (denominator == 0) {
            if (numerator < 0) {
                return out; // parallel to the plane and outside it
            }
        } else if (denominator < 0 && numerator <= lower * denominator) {
            lower = numerator / denominator; // enters this half-plane later
            index = i;
        } else if (denominator > 0 && numerator < upper * denominator) {
            upper = numerator / denominator; // leaves this half-plane earlier
        }
        if (upper < lower) {
            return out;
        }
    }
    if (index < 0) {
        return out; // never entered a plane: started inside (or on, moving out)
    }
    out.hit = true;
    out.fraction = lower;
    out.normal = polygon.normals[index];
    return out;
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
LocalHit ray_rounded_polygon(const LocalRay& ray, std::span<const Vec2> vertices,
                             std::span<const Vec2> normals, real radius) {
    LocalHit out;
    const int count = static_cast<int>(vertices.size());
    real lower = 0;
    real upper = ray.max_fraction;
    int index = -1;
    real best_separation = -std::numeric_limits<real>::infinity();
    int best_face = 0;
    for (int i = 0; i < count; ++i) {
        const Vec2 n = normals[i];
        const real separation = dot(n, ray.p - vertices[i]); // of the origin from the core edge
        if (separation > best_separation) {
            best_separation = separation;
            best_face = i;
        }
        const real numerator = radius - separation; // behind the offset plane
        const real denominator = dot(n, ray.d);
        if (denominator == 0) {
            if (numerator < 0) {
                return out;
            }
        } else if (denominator < 0 && numerator <= lower * denominator) {
            lower = numerator / denominator;
            index = i;
        } else if (denominator > 0 && numerator < upper * denominator) {
            upper = numerator / denominator;
        }
        if (upper < lower) {
            return out;
        }
    }
    // A polygon's core contains the origin when no face separates it. (A
    // capsule's two faces are opposite; its core is a segment, which the
    // projection below handles.)
    if (index < 0 && count >= 3 && best_separation <= 0) {
        return out;
    }
    const int face = index >= 0 ? index : best_face;
    const Vec2 v1 = vertices[face];
    const Vec2 v2 = vertices[face + 1 < count ? face + 1 : 0];
    const Vec2 e = v2 - v1;
    const Vec2 q = ray.p + lower * ray.d; // entry into the mitred polygon (or the origin)
    const real s = dot(q - v1, e);
    if (0 <= s && s <= length_squared(e)) {
        if (index < 0) {
            return out; // origin within `radius` of the edge: inside
        }
        out.hit = true;
        out.fraction = lower;
        out.normal = normals[face];
        return out;
    }
    return ray_circle(ray, s < 0 ? v1 : v2, radius);
}

/// The line-line step shared by segments and chain segments (Box2D's
/// b2EdgeShape::RayCast, without normalizing the edge normal: the fraction
/// is a ratio, so `n` need not be unit). Returns the fraction, or a negative
/// number for none. `denominator` is dot(right_perp(p2 - p1), d).
real ray_segment_fraction(const LocalRay& ray, const Segment& segment, real denominator) {
    const Vec2 e = segment.p2 - segment.p1;
    const real numerator = dot(right_perp(e), segment.p1 - ray.p);
    const real t = numerator / denominator;
    if (!(t >= 0 && t <= ray.max_fraction)) {
        return -1;
    }
    const real s = dot(ray.p + t * ray.d - segment.p1, e);
    if (s < 0 || s > length_squared(e)) {
        return -1; // the line crossing lies off the segment
    }
    return t;
}

} // namespace

CastOutput raycast(const RayInput& input, const Circle& circle, const Transform& xf) {
    return cast_in_local_frame(input, xf, [&](const LocalRay& ray) {
        return ray_circle(ray, circle.center, circle.radius);
    });
}

CastOutput raycast(const RayInput& input, const Capsule& capsule, const Transform& xf) {
    return cast_in_local_frame(input, xf, [&](const LocalRay& ray) {
        const Vec2 n = normalize(right_perp(capsule.center2 - capsule.center1));
        const Vec2 vertices[2] = {capsule.center1, capsule.center2};
        const Vec2 normals[2] = {n, -n};
        return ray_rounded_polygon(ray, vertices, normals, capsule.radius);
    });
}

CastOutput raycast(const RayInput& input, const Polygon& polygon, const Transform& xf) {
    return cast_in_local_frame(input, xf, [&](const LocalRay& ray) {
        if (polygon.radius == 0 && polygon.count >= 3) {
            return ray_sharp_polygon(ray, polygon);
        }
        const auto n = static_cast<std::size_t>(polygon.count);
        return ray_rounded_polygon(ray, std::span(polygon.vertices.data(), n),
                                   std::span(polygon.normals.data(), n), polygon.radius);
    });
}

CastOutput raycast(const RayInput& input, const Segment& segment, const Transform& xf) {
    return cast_in_local_frame(input, xf, [&](const LocalRay& ray) {
        LocalHit out;
        const Vec2 n = right_perp(segment.p2 - segment.p1);
        const real denominator = dot(n, ray.d);
        if (denominator == 0) {
            return out; // parallel, collinear included: nothing to enter
        }
        const real t = ray_segment_fraction(ray, segment, denominator);
        if (t < 0) {
            return out;
        }
        out.hit = true;
        out.fraction = t;
        out.normal = normalize(denominator > 0 ? -n : n); // against the motion
        return out;
    });
}

CastOutput raycast(const RayInput& input, const ChainSegment& chain, const Transform& xf) {
    return cast_in_local_frame(input, xf, [&](const LocalRay& ray) {
        LocalHit out;
        const Vec2 n = right_perp(chain.segment.p2 - chain.segment.p1); // outward
        const real denominator = dot(n, ray.d);
        if (denominator >= 0) {
            return out; // moving along or out of the outer side: one-sided
        }
        // t >= 0 with denominator < 0 puts the origin on the outer side or on
        // the segment's line; from the solid side t < 0: a miss.
        const real t = ray_segment_fraction(ray, chain.segment, denominator);
        if (t < 0) {
            return out;
        }
        out.hit = true;
        out.fraction = t;
        out.normal = normalize(n);
        return out;
    });
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
