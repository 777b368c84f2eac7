#include "sweep/manifold.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "sweep/distance.hpp"

namespace sweep {
namespace {

ManifoldPoint make_point(Vec2 on_a, Vec2 on_b, Vec2 normal, const Transform& xfa,
                         const Transform& xfb, std::uint32_t id) {
    ManifoldPoint mp;
    mp.point = real(0.5) * (on_a + on_b);
    mp.anchor_a = inv_transform_point(xfa, on_a);
    mp.anchor_b = inv_transform_point(xfb, on_b);
    mp.separation = dot(on_b - on_a, normal);
    mp.id = id;
    return mp;
}

// The edge of `p1` whose plane separates it most from `p2`, and by how much.
struct EdgeSeparation {
    int edge = 0;
    real separation = -std::numeric_limits<real>::max();
};

EdgeSeparation find_max_separation(const Polygon& p1, const Transform& xf1, const Polygon& p2,
                                   const Transform& xf2) {
    const Transform xf = inv_mul(xf2, xf1); // p1 in p2's frame
    EdgeSeparation best;
    for (int i = 0; i < p1.count; ++i) {
        const Vec2 n = rotate(xf.q, p1.normals[i]);
        const Vec2 v1 = transform_point(xf, p1.vertices[i]);
        real si = std::numeric_limits<real>::max();
        for (int j = 0; j < p2.count; ++j) {
            si = std::min(si, dot(n, p2.vertices[j] - v1));
        }
        if (si > best.separation) {
            best = {i, si};
        }
    }
    return best;
}

struct ClipVertex {
    Vec2 v;
    std::uint32_t id = 0;
};

// Keeps the part of segment `in` on the back side of the plane
// dot(normal, x) = offset (Sutherland-Hodgman for one plane).
int clip_segment(std::array<ClipVertex, 2>& out, const std::array<ClipVertex, 2>& in, Vec2 normal,
                 real offset) {
    int count = 0;
    const real d0 = dot(normal, in[0].v) - offset;
    const real d1 = dot(normal, in[1].v) - offset;
    if (d0 <= 0) {
        out[count++] = in[0];
    }
    if (d1 <= 0) {
        out[count++] = in[1];
    }
    if (d0 * d1 < 0 && count < 2) {
        const real t = d0 / (d0 - d1);
        out[count].v = lerp(in[0].v, in[1].v, t);
        out[count].id = in[d0 > 0 ? 0 : 1].id | 0x8000u; // a clipped point: new feature
        ++count;
    }
    return count;
}

// A segment as a degenerate polygon: two vertices, two opposite normals.
// The clipping and separating-axis code then handles it unchanged (as Box2D
// v3 does with a zero-radius capsule).
Polygon segment_polygon(const Segment& segment) {
    Polygon p;
    p.count = 2;
    p.vertices[0] = segment.p1;
    p.vertices[1] = segment.p2;
    p.normals[0] = normalize(right_perp(segment.p2 - segment.p1));
    p.normals[1] = -p.normals[0];
    p.centroid = lerp(segment.p1, segment.p2, real(0.5));
    return p;
}

Manifold flip_manifold(Manifold m) {
    m.normal = -m.normal;
    m.reference_is_b = !m.reference_is_b;
    for (int i = 0; i < m.count; ++i) {
        std::swap(m.points[i].anchor_a, m.points[i].anchor_b);
    }
    return m;
}

} // namespace

Manifold collide_circles(const Circle& a, const Transform& xfa, const Circle& b,
                         const Transform& xfb, const CollideSettings& settings) {
    Manifold m;
    const Vec2 ca = transform_point(xfa, a.center);
    const Vec2 cb = transform_point(xfb, b.center);
    const real dist = distance(ca, cb);
    if (dist - a.radius - b.radius > settings.speculative_distance) {
        return m;
    }
    m.normal = dist > real(1e-12) ? (real(1) / dist) * (cb - ca) : Vec2{0, 1};
    m.local_normal = inv_rotate(xfa.q, m.normal);
    m.points[0] =
        make_point(ca + a.radius * m.normal, cb - b.radius * m.normal, m.normal, xfa, xfb, 0);
    m.count = 1;
    return m;
}

Manifold collide_capsules(const Capsule& a, const Transform& xfa, const Capsule& b,
                          const Transform& xfb, const CollideSettings& settings) {
    Manifold m;
    const Vec2 p1 = transform_point(xfa, a.center1);
    const Vec2 q1 = transform_point(xfa, a.center2);
    const Vec2 p2 = transform_point(xfb, b.center1);
    const Vec2 q2 = transform_point(xfb, b.center2);
    const SegmentDistanceOutput closest = segment_distance(p1, q1, p2, q2);
    const real total_radius = a.radius + b.radius;
    const real max_distance = total_radius + settings.speculative_distance;
    if (closest.distance_squared > max_distance * max_distance) {
        return m;
    }
    const real dist = std::sqrt(closest.distance_squared);
    if (dist < real(0.1) * settings.linear_slop) {
        // The cores cross: the closest points give no direction. The
        // separating axes of the two cores (their side normals) do.
        return collide_polygons(capsule_polygon(a), xfa, capsule_polygon(b), xfb, settings);
    }
    const Vec2 u1 = normalize(q1 - p1);
    const Vec2 u2 = normalize(q2 - p2);
    // A's side normal facing B's midpoint: the normal of a parallel pair's two points.
    Vec2 side = left_perp(u1);
    if (dot(side, real(0.5) * (p2 + q2) - p1) < 0) {
        side = -side;
    }
    const real length1 = dot(q1 - p1, u1);
    const real fp2 = dot(p2 - p1, u1);
    const real fq2 = dot(q2 - p1, u1);
    const bool b_beside_a = std::max(fp2, fq2) > 0 && std::min(fp2, fq2) < length1;
    const bool nearly_parallel = std::abs(cross(u1, u2)) < real(0.05); // about 3 degrees
    const real s_p2 = dot(p2 - p1, side);
    const real s_q2 = dot(q2 - p1, side);
    if (nearly_parallel && b_beside_a && s_p2 > 0 && s_q2 > 0) {
        // Two points: B's core clipped to A's extent along A's axis, each on
        // B's surface along B's own side normal (B may lean by 3 degrees).
        const Vec2 side_b = dot(left_perp(u2), side) > 0 ? left_perp(u2) : -left_perp(u2);
        const real span = fq2 - fp2;
        const real t_lo = std::clamp((0 - fp2) / span, real(0), real(1));
        const real t_hi = std::clamp((length1 - fp2) / span, real(0), real(1));
        const std::array<real, 2> ts{std::min(t_lo, t_hi), std::max(t_lo, t_hi)};
        for (int i = 0; i < 2; ++i) {
            const Vec2 core_b = lerp(p2, q2, ts[i]);
            const real gap = dot(core_b - p1, side);
            if (gap - total_radius > settings.speculative_distance) {
                continue;
            }
            const Vec2 core_a = core_b - gap * side;
            m.points[m.count++] = make_point(core_a + a.radius * side, core_b - b.radius * side_b,
                                             side, xfa, xfb, static_cast<std::uint32_t>(i));
        }
        m.normal = side;
    } else {
        m.normal = (real(1) / dist) * (closest.closest2 - closest.closest1);
        m.points[0] = make_point(closest.closest1 + a.radius * m.normal,
                                 closest.closest2 - b.radius * m.normal, m.normal, xfa, xfb, 2);
        m.count = 1;
    }
    m.local_normal = inv_rotate(xfa.q, m.normal);
    return m;
}

Manifold collide_polygon_circle(const Polygon& a, const Transform& xfa, const Circle& b,
                                const Transform& xfb, const CollideSettings& settings) {
    Manifold m;
    const Vec2 c = inv_transform_point(xfa, transform_point(xfb, b.center)); // in A's frame
    const real total_radius = a.radius + b.radius;
    int edge = 0;
    real separation = -std::numeric_limits<real>::max();
    for (int i = 0; i < a.count; ++i) {
        const real s = dot(a.normals[i], c - a.vertices[i]);
        if (s > separation) {
            separation = s;
            edge = i;
        }
    }
    if (separation - total_radius > settings.speculative_distance) {
        return m;
    }
    const Vec2 v1 = a.vertices[edge];
    const Vec2 v2 = a.vertices[(edge + 1) % a.count];
    Vec2 local_normal = a.normals[edge];
    Vec2 closest = c - separation * local_normal; // on the face plane
    std::uint32_t id = static_cast<std::uint32_t>(edge);
    if (separation > 0) { // the centre is outside: it may face a vertex
        if (dot(c - v1, v2 - v1) <= 0) {
            closest = v1;
            id = 0x100u | static_cast<std::uint32_t>(edge);
        } else if (dot(c - v2, v1 - v2) <= 0) {
            closest = v2;
            id = 0x100u | static_cast<std::uint32_t>((edge + 1) % a.count);
        }
        if (closest == v1 || closest == v2) {
            const real dist = distance(c, closest);
            if (dist - total_radius > settings.speculative_distance) {
                return m;
            }
            if (dist > real(1e-12)) {
                local_normal = (real(1) / dist) * (c - closest);
            }
        }
    }
    m.local_normal = local_normal;
    m.normal = rotate(xfa.q, local_normal);
    const Vec2 on_a = transform_point(xfa, closest + a.radius * local_normal);
    const Vec2 on_b = transform_point(xfa, c) - b.radius * m.normal;
    m.points[0] = make_point(on_a, on_b, m.normal, xfa, xfb, id);
    m.count = 1;
    return m;
}

Manifold collide_polygons(const Polygon& a, const Transform& xfa, const Polygon& b,
                          const Transform& xfb, const CollideSettings& settings) {
    Manifold m;
    const real total_radius = a.radius + b.radius;
    const EdgeSeparation sep_a = find_max_separation(a, xfa, b, xfb);
    if (sep_a.separation - total_radius > settings.speculative_distance) {
        return m;
    }
    const EdgeSeparation sep_b = find_max_separation(b, xfb, a, xfa);
    if (sep_b.separation - total_radius > settings.speculative_distance) {
        return m;
    }
    // Prefer A's face unless B's is clearly better, so the reference face
    // does not flip between steps on nearly parallel faces.
    const bool flip = sep_b.separation > sep_a.separation + real(0.1) * settings.linear_slop;
    const Polygon& ref = flip ? b : a;
    const Polygon& inc = flip ? a : b;
    const Transform& xf_ref = flip ? xfb : xfa;
    const Transform& xf_inc = flip ? xfa : xfb;
    const int edge = flip ? sep_b.edge : sep_a.edge;

    // Incident edge: the edge of `inc` most anti-parallel to the reference normal.
    const Vec2 n_in_inc = inv_rotate(xf_inc.q, rotate(xf_ref.q, ref.normals[edge]));
    int inc_edge = 0;
    real min_dot = std::numeric_limits<real>::max();
    for (int i = 0; i < inc.count; ++i) {
        const real d = dot(n_in_inc, inc.normals[i]);
        if (d < min_dot) {
            min_dot = d;
            inc_edge = i;
        }
    }
    const int i1 = inc_edge;
    const int i2 = (inc_edge + 1) % inc.count;
    const std::array<ClipVertex, 2> incident{
        ClipVertex{transform_point(xf_inc, inc.vertices[i1]),
                   static_cast<std::uint32_t>(edge << 8 | i1)},
        ClipVertex{transform_point(xf_inc, inc.vertices[i2]),
                   static_cast<std::uint32_t>(edge << 8 | i2)}};

    const Vec2 v11 = transform_point(xf_ref, ref.vertices[edge]);
    const Vec2 v12 = transform_point(xf_ref, ref.vertices[(edge + 1) % ref.count]);
    const real core_separation = std::max(sep_a.separation, sep_b.separation);
    if (core_separation > real(0.1) * settings.linear_slop) {
        // Apart cores may meet vertex to vertex, where the face normals
        // understate the gap and clipping to the reference face can leave
        // nothing (two boxes flying corner to corner): one point on the line
        // through the two vertices (Box2D v3's b2CollidePolygons).
        const SegmentDistanceOutput closest =
            segment_distance(v11, v12, incident[0].v, incident[1].v);
        const bool vertex1 = closest.fraction1 == 0 || closest.fraction1 == 1;
        const bool vertex2 = closest.fraction2 == 0 || closest.fraction2 == 1;
        if (vertex1 && vertex2) {
            const real dist = std::sqrt(closest.distance_squared);
            if (dist - total_radius > settings.speculative_distance) {
                return m;
            }
            const Vec2 n_ref_inc = (real(1) / dist) * (closest.closest2 - closest.closest1);
            const real r_ref = flip ? b.radius : a.radius;
            const real r_inc = flip ? a.radius : b.radius;
            const Vec2 on_ref = closest.closest1 + r_ref * n_ref_inc;
            const Vec2 on_inc = closest.closest2 - r_inc * n_ref_inc;
            const std::uint32_t id = (closest.fraction1 == 0 ? incident[0].id : incident[1].id) |
                                     0x20000u | (flip ? 0x10000u : 0u);
            m.normal = flip ? -n_ref_inc : n_ref_inc;
            m.local_normal = inv_rotate(xf_ref.q, n_ref_inc);
            m.reference_is_b = flip;
            m.points[0] = flip ? make_point(on_inc, on_ref, m.normal, xfa, xfb, id)
                               : make_point(on_ref, on_inc, m.normal, xfa, xfb, id);
            m.count = 1;
            return m;
        }
    }
    const Vec2 tangent = normalize(v12 - v11);
    const Vec2 normal = right_perp(tangent);
    const real front = dot(normal, v11);

    std::array<ClipVertex, 2> clip1{};
    std::array<ClipVertex, 2> clip2{};
    if (clip_segment(clip1, incident, -tangent, -dot(tangent, v11) + total_radius) < 2 ||
        clip_segment(clip2, clip1, tangent, dot(tangent, v12) + total_radius) < 2) {
        return m;
    }
    const real r_ref = flip ? b.radius : a.radius;
    const real r_inc = flip ? a.radius : b.radius;
    const Vec2 normal_ab = flip ? -normal : normal;
    for (const ClipVertex& cv : clip2) {
        const real s = dot(normal, cv.v) - front - total_radius;
        if (s > settings.speculative_distance) {
            continue;
        }
        const Vec2 on_ref = cv.v - (dot(normal, cv.v) - front - r_ref) * normal;
        const Vec2 on_inc = cv.v - r_inc * normal;
        const Vec2 on_a = flip ? on_inc : on_ref;
        const Vec2 on_b = flip ? on_ref : on_inc;
        m.points[m.count++] =
            make_point(on_a, on_b, normal_ab, xfa, xfb, cv.id | (flip ? 0x10000u : 0u));
    }
    m.normal = normal_ab;
    m.local_normal = ref.normals[edge];
    m.reference_is_b = flip;
    return m;
}

namespace {

// A solid (circle or polygon) against a solid, with the polygon forms of
// segments and chain segments.
Manifold collide_solids(const Shape& a, const Polygon* poly_a, const Transform& xfa, const Shape& b,
                        const Polygon* poly_b, const Transform& xfb,
                        const CollideSettings& settings) {
    if (!poly_a && !poly_b) {
        return collide_circles(a.circle, xfa, b.circle, xfb, settings);
    }
    if (poly_a && !poly_b) {
        return collide_polygon_circle(*poly_a, xfa, b.circle, xfb, settings);
    }
    if (!poly_a) {
        return flip_manifold(collide_polygon_circle(*poly_b, xfb, a.circle, xfa, settings));
    }
    return collide_polygons(*poly_a, xfa, *poly_b, xfb, settings);
}

// The polygon form of a shape, or null for a circle.
const Polygon* as_polygon(const Shape& shape, Polygon& storage) {
    switch (shape.type) {
    case ShapeType::circle:
        return nullptr;
    case ShapeType::capsule:
        storage = capsule_polygon(shape.capsule);
        return &storage;
    case ShapeType::polygon:
        return &shape.polygon;
    case ShapeType::segment:
        storage = segment_polygon(shape.segment);
        return &storage;
    case ShapeType::chain_segment:
        storage = segment_polygon(shape.chain_segment.segment);
        return &storage;
    }
    return nullptr;
}

// A capsule, or an edge as a capsule of zero radius: pairs of these meet
// through their cores' closest points (separating axes on two segments miss
// the end-to-end axis).
std::optional<Capsule> as_capsule(const Shape& shape) {
    switch (shape.type) {
    case ShapeType::capsule:
        return shape.capsule;
    case ShapeType::segment:
        return Capsule{shape.segment.p1, shape.segment.p2, 0};
    case ShapeType::chain_segment:
        return Capsule{shape.chain_segment.segment.p1, shape.chain_segment.segment.p2, 0};
    default:
        return std::nullopt;
    }
}

// A chain segment collides only on its outer side: a contact whose normal
// points into the solid it bounds is dropped.
bool behind_chain(const Shape& chain, const Transform& xf, Vec2 normal_away_from_chain) {
    return chain.type == ShapeType::chain_segment &&
           dot(rotate(xf.q, outward_normal(chain.chain_segment)), normal_away_from_chain) <= 0;
}

} // namespace

Manifold collide(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
                 const CollideSettings& settings) {
    // The pairs of a body pile, first and directly: no polygon forms to build.
    if (a.type == ShapeType::circle && b.type == ShapeType::circle) {
        return collide_circles(a.circle, xfa, b.circle, xfb, settings);
    }
    if (a.type == ShapeType::polygon && b.type == ShapeType::polygon) {
        return collide_polygons(a.polygon, xfa, b.polygon, xfb, settings);
    }
    if (a.type == ShapeType::polygon && b.type == ShapeType::circle) {
        return collide_polygon_circle(a.polygon, xfa, b.circle, xfb, settings);
    }
    if (a.type == ShapeType::circle && b.type == ShapeType::polygon) {
        return flip_manifold(collide_polygon_circle(b.polygon, xfb, a.circle, xfa, settings));
    }
    const bool a_edge = a.type == ShapeType::segment || a.type == ShapeType::chain_segment;
    const bool b_edge = b.type == ShapeType::segment || b.type == ShapeType::chain_segment;
    if (a_edge && b_edge) {
        return {}; // edges are static geometry: they never meet each other
    }
    const std::optional<Capsule> capsule_a = as_capsule(a);
    const std::optional<Capsule> capsule_b = as_capsule(b);
    Polygon storage_a;
    Polygon storage_b;
    const Manifold m = capsule_a && capsule_b
                           ? collide_capsules(*capsule_a, xfa, *capsule_b, xfb, settings)
                           : collide_solids(a, as_polygon(a, storage_a), xfa, b,
                                            as_polygon(b, storage_b), xfb, settings);
    if (m.count > 0 && (behind_chain(a, xfa, m.normal) || behind_chain(b, xfb, -m.normal))) {
        return {};
    }
    return m;
}

} // namespace sweep
