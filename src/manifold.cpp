#include "sweep/manifold.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "gjk.hpp"
#include "manifold_faces.hpp"
#include "sweep/distance.hpp"

#if defined(__SSE2__) && !defined(SWEEP_DOUBLE)
#include <emmintrin.h>
#define SWEEP_SSE_EDGE_LANES 1
#else
#define SWEEP_SSE_EDGE_LANES 0
#endif

namespace sweep {

using detail::clip_segment;
using detail::ClipVertex;

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

// How far `p2` lies beyond each edge's line of `p1` (polygon forms: a
// Polygon, or a segment's SegmentFaces; p1 placed in p2's frame by `xf`):
// for edge i, the least of dot(n_i, v - v_i) over p2's vertices v
// (negative: how deep p2 reaches behind it), into separations[i].
using EdgeSeparations = std::array<real, k_max_polygon_vertices>;

#if SWEEP_SSE_EDGE_LANES
// The x and y coordinates of four points, one a lane.
struct PointLanes {
    __m128 x;
    __m128 y;
};

// Points 4g to 4g + 3 of `points` as lanes (a segment's two points, N = 2:
// lanes 0 and 1, and again 2 and 3). A group at a time, as it is used: both
// groups in one struct, indexed by group, lived in memory, zeroed, stored
// and loaded again (7 % of a box pair's collide).
template <std::size_t N> PointLanes point_lanes(const std::array<Vec2, N>& points, int g) {
    static_assert(sizeof(Vec2) == 2 * sizeof(float) && (N == 2 || N == 8));
    if constexpr (N == 2) {
        // From the coordinates, not a wide load: a segment's faces are made
        // just before, a field at a time, and a wide load of fields just
        // stored one by one misses the processor's store forwarding (3 % of
        // a chain collide's time).
        return {_mm_setr_ps(points[0].x, points[1].x, points[0].x, points[1].x),
                _mm_setr_ps(points[0].y, points[1].y, points[0].y, points[1].y)};
    }
    const float* v = &points[0].x;
    const __m128 lo = _mm_loadu_ps(v + 8 * g);                  // x0 y0 x1 y1
    const __m128 hi = N > 2 ? _mm_loadu_ps(v + 8 * g + 4) : lo; // x2 y2 x3 y3
    return {_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)),
            _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1))};
}

// The edges are lanes, four at a time: each lane does the scalar form's
// products, sums and minimum in its order (the build contracts nothing
// into FMAs, and _mm_min_ps(d, least) is std::min(least, d)), so every
// separation is the scalar one to the bit. Lanes past p1's count hold
// what its zeroed (a segment's: repeated) vertices give; nobody reads them.
template <class P1, class P2>
void edge_separations(const P1& p1, const Transform& xf, const P2& p2,
                      EdgeSeparations& separations) {
    const int groups = p1.count > 4 ? 2 : 1;
    const __m128 c = _mm_set1_ps(xf.q.c);
    const __m128 s = _mm_set1_ps(xf.q.s);
    for (int g = 0; g < groups; ++g) {
        const PointLanes normals = point_lanes(p1.normals, g);
        const PointLanes vertices = point_lanes(p1.vertices, g);
        // rotate(xf.q, normal) and transform_point(xf, vertex), lane by lane.
        const __m128 nx = _mm_sub_ps(_mm_mul_ps(c, normals.x), _mm_mul_ps(s, normals.y));
        const __m128 ny = _mm_add_ps(_mm_mul_ps(s, normals.x), _mm_mul_ps(c, normals.y));
        const __m128 ox = _mm_add_ps(
            _mm_sub_ps(_mm_mul_ps(c, vertices.x), _mm_mul_ps(s, vertices.y)), _mm_set1_ps(xf.p.x));
        const __m128 oy = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(s, vertices.x), _mm_mul_ps(c, vertices.y)), _mm_set1_ps(xf.p.y));
        __m128 least = _mm_set1_ps(std::numeric_limits<float>::max());
        for (int j = 0; j < p2.count; ++j) {
            const __m128 dx = _mm_sub_ps(_mm_set1_ps(p2.vertices[j].x), ox);
            const __m128 dy = _mm_sub_ps(_mm_set1_ps(p2.vertices[j].y), oy);
            least = _mm_min_ps(_mm_add_ps(_mm_mul_ps(nx, dx), _mm_mul_ps(ny, dy)), least);
        }
        _mm_storeu_ps(&separations[4 * static_cast<std::size_t>(g)], least);
    }
}
#else
template <class P1, class P2>
void edge_separations(const P1& p1, const Transform& xf, const P2& p2,
                      EdgeSeparations& separations) {
    for (int i = 0; i < p1.count; ++i) {
        const Vec2 n = rotate(xf.q, p1.normals[i]);
        const Vec2 v1 = transform_point(xf, p1.vertices[i]);
        real si = std::numeric_limits<real>::max();
        for (int j = 0; j < p2.count; ++j) {
            si = std::min(si, dot(n, p2.vertices[j] - v1));
        }
        separations[static_cast<std::size_t>(i)] = si;
    }
}
#endif

// The edge of `p1` that separates it most from `p2`; or, as soon as one
// separates their skins (`total_radius`) by more than `speculative`, that
// one, by the caller's own test (the pair is apart: it needs no more; most
// apart pairs skip the other polygon's search).
template <class P1, class P2>
EdgeSeparation find_max_separation(const P1& p1, const Transform& xf1, const P2& p2,
                                   const Transform& xf2, real total_radius, real speculative) {
    EdgeSeparations separations;
    edge_separations(p1, inv_mul(xf2, xf1), p2, separations); // p1 in p2's frame
    EdgeSeparation best;
    for (int i = 0; i < p1.count; ++i) {
        const real si = separations[static_cast<std::size_t>(i)];
        if (si > best.separation) {
            best = {i, si};
            if (si - total_radius > speculative) {
                break;
            }
        }
    }
    return best;
}

} // namespace

namespace detail {

// Parallel faces overlapping over a length face each other, and the face
// normal measures their gap exactly, so clipping gives the contact. The
// closest points of parallel faces are not unique: for two boxes side by
// side with their bottoms flush, segment_distance names the two bottom
// corners, and the vertex-to-vertex rule made one point there, whose
// impulse spun a box hitting a wall at its foot instead of stopping it. (Edges at an angle
// keep the rule: a capsule's core past a polygon's corner meets it there.)
bool parallel_faces_overlap(const ReferenceFace& ref, const PlacedFace& inc, real linear_slop) {
    if (std::abs(dot(ref.normal, inc.v2 - inc.v1)) > real(0.1) * linear_slop) {
        return false;
    }
    const Vec2 tangent = ref.face.v2 - ref.face.v1;
    const real lo = std::max(
        real(0), std::min(dot(tangent, inc.v1 - ref.face.v1), dot(tangent, inc.v2 - ref.face.v1)));
    const real hi = std::min(dot(tangent, tangent), std::max(dot(tangent, inc.v1 - ref.face.v1),
                                                             dot(tangent, inc.v2 - ref.face.v1)));
    return hi > lo;
}

// Apart cores may meet vertex to vertex, where the face normals understate
// the gap and clipping to the reference face can leave nothing (two boxes
// flying corner to corner): one point on the line through the faces'
// closest points (Box2D v3's b2CollidePolygons). Empty when they are
// farther apart than the speculative distance; nullopt when they coincide,
// or, with `vertices_only`, when they are not both vertices.
std::optional<Manifold>
closest_points_manifold(const ReferenceFace& ref, const std::array<ClipVertex, 2>& incident,
                        real total_radius, real r_inc, bool flip, const Transform& xfa,
                        const Transform& xfb, const CollideSettings& settings, bool vertices_only) {
    const SegmentDistanceOutput closest =
        segment_distance(ref.face.v1, ref.face.v2, incident[0].v, incident[1].v);
    const bool vertex1 = closest.fraction1 == 0 || closest.fraction1 == 1;
    const bool vertex2 = closest.fraction2 == 0 || closest.fraction2 == 1;
    const real dist = std::sqrt(closest.distance_squared);
    // (normalize, not 1 / dist: a subnormal square leaves dist few bits.)
    const Vec2 n_ref_inc = normalize(closest.closest2 - closest.closest1);
    if ((vertices_only && (!vertex1 || !vertex2)) || n_ref_inc == Vec2{}) { // rounding merged them
        return std::nullopt;
    }
    Manifold m;
    if (dist - total_radius > settings.speculative_distance) {
        return m;
    }
    const Vec2 on_ref = closest.closest1 + ref.face.radius * n_ref_inc;
    const Vec2 on_inc = closest.closest2 - r_inc * n_ref_inc;
    const std::uint32_t id = (closest.fraction1 == 0 ? incident[0].id : incident[1].id) | 0x20000u |
                             (flip ? 0x10000u : 0u);
    m.normal = flip ? -n_ref_inc : n_ref_inc;
    m.local_normal = inv_rotate(ref.q, n_ref_inc);
    m.reference_is_b = flip;
    m.points[0] = flip ? make_point(on_inc, on_ref, m.normal, xfa, xfb, id)
                       : make_point(on_ref, on_inc, m.normal, xfa, xfb, id);
    m.count = 1;
    return m;
}

namespace {

// collide_faces, inlined into this file's polygon pairs: as a call, its
// faces went through memory and its `flip` was not known (2 % of a chain
// collide, 3 % of a box pair's).
[[gnu::always_inline]] inline Manifold
faces_contact(const ReferenceFace& ref, const PlacedFace& inc, real core_separation, bool flip,
              const Transform& xfa, const Transform& xfb, const CollideSettings& settings) {
    Manifold m;
    const real total_radius = ref.face.radius + inc.radius;
    // The incident edge runs against the reference edge, so its first vertex
    // faces the reference edge's second and vice versa. Each end's id pairs
    // the two vertices there, A's first (Box2D v3's B2_MAKE_ID), so it is the
    // same whichever face is the reference: stacked boxes that swap reference
    // faces between steps keep their warm starts.
    const auto pair_id = [flip](int ref_vertex, int inc_vertex) {
        return static_cast<std::uint32_t>(flip ? inc_vertex << 8 | ref_vertex
                                               : ref_vertex << 8 | inc_vertex);
    };
    const ClipVertex end1{inc.v1, pair_id(ref.face.index2, inc.index1)};
    const ClipVertex end2{inc.v2, pair_id(ref.face.index1, inc.index2)};
    const std::array<ClipVertex, 2> incident{end1, end2};
    const real r_ref = ref.face.radius;
    const real r_inc = inc.radius;
    const bool apart = core_separation > real(0.1) * settings.linear_slop;
    if (apart && !parallel_faces_overlap(ref, inc, settings.linear_slop)) {
        if (const auto corner = closest_points_manifold(ref, incident, total_radius, r_inc, flip,
                                                        xfa, xfb, settings, true)) {
            m = *corner;
            return m;
        }
    }
    // (Made afresh, not copied from `incident`: the copy's wide loads of its
    // fields, just stored one by one, missed store forwarding.)
    std::array<ClipVertex, 2> clipped{end1, end2};
    if (!clip_to_reference_face(ref, total_radius, clipped)) {
        // Faces side by side whose overlap is a rounding error (a box's
        // corner a hair above a tile's, 0.005 L beside it; the closest point
        // then lies a rounding error off a vertex): the clip leaves nothing
        // where the faces still meet, at their closest points. (Cores
        // closer than that: collide_polygons tries the other face first.)
        if (apart) {
            m = closest_points_manifold(ref, incident, total_radius, r_inc, flip, xfa, xfb,
                                        settings, false)
                    .value_or(m);
        }
        return m;
    }
    const Vec2 normal_ab = flip ? -ref.normal : ref.normal;
    for (const ClipVertex& cv : clipped) {
        const FacePoint p = face_point(ref, r_ref, r_inc, cv.v);
        if (p.gap > settings.speculative_distance) {
            continue;
        }
        const Vec2 on_a = flip ? p.on_inc : p.on_ref;
        const Vec2 on_b = flip ? p.on_ref : p.on_inc;
        m.points[m.count++] = make_point(on_a, on_b, normal_ab, xfa, xfb, cv.id);
    }
    m.normal = normal_ab;
    m.local_normal = ref.local_normal;
    m.reference_is_b = flip;
    return m;
}

} // namespace

Manifold collide_faces(const ReferenceFace& ref, const PlacedFace& inc, real core_separation,
                       bool flip, const Transform& xfa, const Transform& xfb,
                       const CollideSettings& settings) {
    return faces_contact(ref, inc, core_separation, flip, xfa, xfb, settings);
}

} // namespace detail

namespace {

// A segment as a degenerate polygon: two vertices, two opposite normals.
// The clipping and separating-axis code then handles it unchanged (as Box2D
// v3 does with a zero-radius capsule).
Polygon segment_polygon(const Segment& segment) {
    return capsule_polygon({segment.p1, segment.p2, 0});
}

// B's manifold against A made A's against B, in place.
void flip(Manifold& m) {
    m.normal = -m.normal;
    m.reference_is_b = !m.reference_is_b;
    for (int i = 0; i < m.count; ++i) {
        std::swap(m.points[i].anchor_a, m.points[i].anchor_b);
    }
}

// The manifold `collide_ba()` makes of B against A, flipped. Made in the
// one object returned, so in the caller's: a flip taking and returning
// it by value copied all 88 bytes out of the parameter, the loads reading
// back fields just stored one by one (which the processor cannot forward).
template <class CollideBA> Manifold flipped(CollideBA&& collide_ba) {
    Manifold m = collide_ba();
    flip(m);
    return m;
}

// A manifold of one point, made where it is returned: a returned
// prvalue is built in the caller's manifold, where a named one with an
// early return of another was built on the stack, zeroed and copied.
Manifold one_point(Vec2 normal, Vec2 local_normal, const ManifoldPoint& mp) {
    return {normal, local_normal, false, {mp, ManifoldPoint{}}, 1};
}

} // namespace

Manifold collide_circles(const Circle& a, const Transform& xfa, const Circle& b,
                         const Transform& xfb, const CollideSettings& settings) {
    const Vec2 ca = transform_point(xfa, a.center);
    const Vec2 cb = transform_point(xfb, b.center);
    // Most pairs are apart: compare squares before taking the root, and
    // before the manifold exists (made first, it was zeroed for every pair).
    const real total_radius = a.radius + b.radius;
    const real reach = total_radius + settings.speculative_distance;
    const Vec2 d = cb - ca;
    const real dist_squared = length_squared(d);
    if (dist_squared > reach * reach) {
        return {};
    }
    const real dist = std::sqrt(dist_squared);
    const Vec2 normal = dist > real(1e-12) ? (real(1) / dist) * d : Vec2{0, 1};
    const Vec2 local_normal = inv_rotate(xfa.q, normal);
    // Each anchor from its own centre and the normal in its own frame (a
    // world point carried back by an inverse transform costs more and rounds
    // at the world's scale), the separation from the distance.
    return one_point(normal, local_normal,
                     {ca + (real(0.5) * (dist + a.radius - b.radius)) * normal,
                      a.center + a.radius * local_normal,
                      b.center - b.radius * inv_rotate(xfb.q, normal), dist - total_radius, 0});
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
    if (dist < real(0.1) * settings.linear_slop || dist == 0) {
        // The cores cross: the closest points give no direction. The
        // separating axes of the two cores (their side normals) do. (Also
        // with no slop, where crossing cores divided by their zero distance:
        // a world of 4e-45 L per metre, its slop 0 in float, went NaN.)
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
    // A core shorter than its coordinates' rounding collapses to a point in
    // the world (u = 0), and has no direction to be parallel along: it is
    // the disc the closest points measure. (cross(u1, 0) = 0 took it for
    // parallel, and its side normal, zero, dropped its radius: a 384 L disc
    // 1.7 L from a segment's line got separation +1.7.)
    const bool nearly_parallel = u1 != Vec2{} && u2 != Vec2{} &&
                                 std::abs(cross(u1, u2)) < real(0.05); // about 3 degrees
    const real s_p2 = dot(p2 - p1, side);
    const real s_q2 = dot(q2 - p1, side);
    if (nearly_parallel && b_beside_a && s_p2 > 0 && s_q2 > 0) {
        // Two points: B's core clipped to A's extent along A's axis, each on
        // B's surface where it is nearest A's line: on B's flat side (along
        // B's own side normal: B may lean by 3 degrees), or at one of B's
        // ends that leans towards A, on its cap, along the normal. (There
        // the flat side's point stood B's radius times 1 - cos(lean) too
        // high: 1e-4 L for a capsule of radius 0.2 leaning 1.8 degrees
        // beside a wall.)
        const Vec2 side_b = dot(left_perp(u2), side) > 0 ? left_perp(u2) : -left_perp(u2);
        const real lean = dot(side, u2); // > 0: B rises away from A towards q2
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
            const bool on_cap = (ts[i] == 0 && lean >= 0) || (ts[i] == 1 && lean <= 0);
            m.points[m.count++] =
                make_point(core_a + a.radius * side, core_b - b.radius * (on_cap ? side : side_b),
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

namespace {

// The face of a polygon form (A) that separates a circle's centre most.
struct CircleFace {
    Vec2 v1, v2;            // the face, A's frame (counter-clockwise)
    int edge = 0, next = 0; // the indices of v1 and v2
    Vec2 normal;            // outward, A's frame
    real separation = 0;    // of the centre from the face's line
    // A's polygon, when a neighbouring face collinear to rounding may hold
    // the centre (circle_against_face); null for a capsule's faces.
    const Polygon* polygon = nullptr;
    // A two-vertex form (a segment's or capsule's): it has no inside, and
    // its two faces lie on one line, so a centre on that line may lie
    // behind both by rounding (circle_against_face).
    bool flat = false;
};

Manifold polygon_circle_over_centre(const Polygon& a, int edge, Vec2 c, Vec2 c_world,
                                    const Circle& b, const Transform& xfa, const Transform& xfb,
                                    const CollideSettings& settings);

// Whether point `c` (A's frame) lies in front of the extent of the face from
// `polygon`'s vertex `at` towards its vertex `toward`.
bool over_face_from(const Polygon& polygon, int at, int toward, Vec2 c) {
    const Vec2 v = polygon.vertices[at];
    return dot(c - v, polygon.vertices[toward] - v) > 0;
}

// Direction `d` (A's frame) turned into the cone of outward normals at
// `polygon`'s vertex `v`, between the normals of the edges that meet there:
// to the nearer of them when it lies outside. A centre a few ulps beyond a
// face's end has a direction that is noise, and one past the face's normal
// does not separate the shapes.
Vec2 into_vertex_cone(const Polygon& polygon, int v, Vec2 d) {
    const Vec2 before = polygon.normals[v > 0 ? v - 1 : polygon.count - 1];
    const Vec2 after = polygon.normals[v];
    if (cross(before, d) < 0) {
        return before;
    }
    return cross(d, after) < 0 ? after : d;
}

// The manifold of circle B (centre `c_world` in the world) against A's
// surface (radius `radius_a`) over `closest` (A's frame, on A's core):
// `local_normal` from there towards the centre, which lies `gap` along it.
// Each anchor is made in its own body's frame (A's from `closest`, B's from
// its centre and the normal turned into B's frame), not carried there back
// from the world, and the point and separation from the gap.
inline Manifold circle_contact(Vec2 closest, Vec2 local_normal, real gap, std::uint32_t id,
                               Vec2 c_world, real radius_a, const Circle& b, const Transform& xfa,
                               const Transform& xfb) {
    const Vec2 normal = rotate(xfa.q, local_normal);
    const real separation = gap - (radius_a + b.radius);
    return one_point(normal, local_normal,
                     {c_world - (b.radius + real(0.5) * separation) * normal,
                      closest + radius_a * local_normal,
                      b.center - b.radius * inv_rotate(xfb.q, normal), separation, id});
}

// The manifold of circle B (centre `c` in A's frame, `c_world` in the
// world's) against `face` of A, whose radius rounds it: the centre over the
// face, or (outside, beyond an end) facing that vertex. Ids: the face, or
// 0x100 | the vertex. (Inlined: as a call, its face went through memory,
// 4 % of a capsule-circle call.)
[[gnu::always_inline]] inline Manifold
circle_against_face(const CircleFace& face, Vec2 c, Vec2 c_world, real radius_a, const Circle& b,
                    const Transform& xfa, const Transform& xfb, const CollideSettings& settings) {
    const real total_radius = radius_a + b.radius;
    if (face.separation - total_radius > settings.speculative_distance) {
        return {};
    }
    const Vec2 v1 = face.v1;
    const Vec2 v2 = face.v2;
    Vec2 closest = c - face.separation * face.normal; // on the face plane
    Vec2 local_normal = face.normal;
    real gap = face.separation;
    std::uint32_t id = static_cast<std::uint32_t>(face.edge);
    // Outside, or anywhere about a two-vertex form: the centre may face a
    // vertex. A centre on a segment's line far beyond its end is behind
    // both faces by rounding as often as in front; taken as inside, it was
    // measured through the line, a whole radius deep (seed 1075589 of the
    // random scenes: a disc 4.9 L from a chain segment).
    // (Whether it does is the dot products' word, not whether `closest`
    // rounds onto a vertex: a centre 2.7e-6 L over a face's end got the
    // vertex's direction, 0.5 degrees past the face's normal, where the
    // shapes overlap more than it said.)
    if (face.separation >= 0 || face.flat) {
        const bool at_v1 = dot(c - v1, v2 - v1) <= 0;
        if (at_v1 || dot(c - v2, v1 - v2) <= 0) {
            // A neighbour collinear to rounding tied with this face, and its
            // extent holds the centre: the contact is with that face.
            const Polygon* p = face.polygon;
            const int vertex = at_v1 ? face.edge : face.next;
            if (p != nullptr &&
                over_face_from(*p, vertex,
                               at_v1 ? (face.edge > 0 ? face.edge - 1 : p->count - 1)
                                     : (face.next + 1 < p->count ? face.next + 1 : 0),
                               c)) {
                return polygon_circle_over_centre(*p, face.edge, c, c_world, b, xfa, xfb,
                                                  settings);
            }
            closest = at_v1 ? v1 : v2;
            const Vec2 d = c - closest;
            const real dist = length(d);
            if (dist - total_radius > settings.speculative_distance) {
                return {};
            }
            if (dist > real(1e-12)) {
                local_normal = (real(1) / dist) * d;
                if (p != nullptr) {
                    local_normal = into_vertex_cone(*p, vertex, local_normal);
                }
            }
            gap = dot(d, local_normal);
            id = 0x100u | static_cast<std::uint32_t>(vertex);
        }
    }
    return circle_contact(closest, local_normal, gap, id, c_world, radius_a, b, xfa, xfb);
}

// The face of `a` whose extent holds point `c` (A's frame, outside `edge`,
// its most separating face), walking from `edge` to a neighbour while `c`
// lies beyond their shared vertex and in front of the neighbour's extent.
// In exact arithmetic that never happens (the neighbour would separate
// more); with collinear neighbours the separations tie within rounding and
// the first face wins. A circle beside a 0.33 L face collinear with a
// 96 L one was measured from the short face's end, and had no contact.
int face_over_centre(const Polygon& a, Vec2 c, int edge) {
    for (int step = 1; step < a.count; ++step) {
        const int next = edge + 1 < a.count ? edge + 1 : 0;
        const int after = next + 1 < a.count ? next + 1 : 0;
        const int before = edge > 0 ? edge - 1 : a.count - 1;
        const Vec2 v1 = a.vertices[edge];
        const Vec2 v2 = a.vertices[next];
        if (dot(c - v2, v1 - v2) <= 0 && over_face_from(a, next, after, c)) {
            edge = next;
        } else if (dot(c - v1, v2 - v1) <= 0 && over_face_from(a, edge, before, c)) {
            edge = before;
        } else {
            break;
        }
    }
    return edge;
}

// circle_against_face on the face over the centre (face_over_centre from
// `edge`), out of the hot path, which only tests for the case.
[[gnu::noinline, gnu::cold]] Manifold
polygon_circle_over_centre(const Polygon& a, int edge, Vec2 c, Vec2 c_world, const Circle& b,
                           const Transform& xfa, const Transform& xfb,
                           const CollideSettings& settings) {
    const int over = face_over_centre(a, c, edge);
    const int next = over + 1 < a.count ? over + 1 : 0;
    const real separation = dot(a.normals[over], c - a.vertices[over]);
    const CircleFace face{a.vertices[over], a.vertices[next], over,    next,
                          a.normals[over],  separation,       nullptr, a.count == 2};
    return circle_against_face(face, c, c_world, a.radius, b, xfa, xfb, settings);
}

} // namespace

Manifold collide_polygon_circle(const Polygon& a, const Transform& xfa, const Circle& b,
                                const Transform& xfb, const CollideSettings& settings) {
    const Vec2 c_world = transform_point(xfb, b.center);
    const Vec2 c = inv_transform_point(xfa, c_world); // in A's frame
    // A face that puts the centre beyond reach ends the search (as in
    // Box2D's b2CollidePolygonAndCircle): the most separating face would too.
    int edge = 0;
    real separation = -std::numeric_limits<real>::max();
    for (int i = 0; i < a.count; ++i) {
        const real s = dot(a.normals[i], c - a.vertices[i]);
        if (s > separation) {
            if (s - (a.radius + b.radius) > settings.speculative_distance) {
                return {};
            }
            separation = s;
            edge = i;
        }
    }
    const int next = edge + 1 < a.count ? edge + 1 : 0; // no division on the way to the face
    const CircleFace face{a.vertices[edge], a.vertices[next], edge, next,
                          a.normals[edge],  separation,       &a,   a.count == 2};
    return circle_against_face(face, c, c_world, a.radius, b, xfa, xfb, settings);
}

namespace {

// collide_polygon_circle's steps on the two faces of a capsule's polygon
// form (circle_against_face's tests, the same rounding), which both lie on
// the core's line, given their normal `normal0` (face 0's: right of center1
// -> center2; unit): the face the centre is in front of separates it most
// (face 0 on a tie), and the centre may face an end wherever it lies. In
// another order: most apart pairs have the centre beyond one end, and are
// measured from it first.
[[gnu::always_inline]] inline Manifold
capsule_circle_on_faces(const Capsule& a, Vec2 normal0, const Transform& xfa, const Circle& b,
                        const Transform& xfb, const CollideSettings& settings) {
    const Vec2 axis = a.center2 - a.center1;
    const Vec2 c_world = transform_point(xfb, b.center);
    const Vec2 c = inv_transform_point(xfa, c_world); // in A's frame
    const real total_radius = a.radius + b.radius;
    // Beyond the end at center1, beyond the end at center2. (Both faces'
    // dot(c - center2, center1 - center2), negated twice: the same rounding.)
    const Vec2 from1 = c - a.center1;
    const Vec2 to2 = a.center2 - c;
    const bool at1 = dot(from1, axis) <= 0;
    const bool at2 = dot(to2, axis) <= 0;
    Vec2 d;
    real dist = 0;
    if (at1 != at2) {
        d = c - (at1 ? a.center1 : a.center2);
        dist = length(d);
        // (Also for a short core's normal: the end's test below, on the
        // same distance, would return the same.)
        if (dist - total_radius > settings.speculative_distance) {
            return {};
        }
    }
    const real s0 = dot(normal0, from1);
    const real s1 = dot(normal0, to2); // dot(-normal0, c - center2), the same rounding
    const bool face1 = s1 > s0;        // face 1 runs from center2 to center1
    const Vec2 face_normal = face1 ? -normal0 : normal0;
    const real separation = face1 ? s1 : s0;
    if (separation - total_radius > settings.speculative_distance) {
        return {};
    }
    if (!at1 && !at2) {
        return circle_contact(c - separation * face_normal, face_normal, separation,
                              face1 ? 1u : 0u, c_world, a.radius, b, xfa, xfb);
    }
    // The face's first vertex first: they differ only for a centre beyond
    // both ends, about a core shorter than its coordinates' rounding.
    const bool at_center1 = face1 ? !at2 : at1;
    if (at1 == at2) {
        d = c - (at_center1 ? a.center1 : a.center2);
        dist = length(d);
    }
    if (dist - total_radius > settings.speculative_distance) {
        return {};
    }
    const Vec2 local_normal = dist > real(1e-12) ? (real(1) / dist) * d : face_normal;
    return circle_contact(at_center1 ? a.center1 : a.center2, local_normal, dot(d, local_normal),
                          at_center1 ? 0x100u : 0x101u, c_world, a.radius, b, xfa, xfb);
}

// collide_capsule_circle for a core shorter than 1e-15: normalize itself
// gives the faces' normal, and a zero-length capsule collides as its disc.
// Out of line, with its calls: in the hot path, what they clobber made
// every pair save registers and spill values (2 % of a call).
[[gnu::noinline, gnu::cold]] Manifold
collide_short_capsule_circle(const Capsule& a, const Transform& xfa, const Circle& b,
                             const Transform& xfb, const CollideSettings& settings) {
    const Vec2 normal0 = normalize(right_perp(a.center2 - a.center1));
    if (normal0 == Vec2{}) {
        return collide_circles({a.center1, a.radius}, xfa, b, xfb, settings);
    }
    return capsule_circle_on_faces(a, normal0, xfa, b, xfb, settings);
}

} // namespace

Manifold collide_capsule_circle(const Capsule& a, const Transform& xfa, const Circle& b,
                                const Transform& xfb, const CollideSettings& settings) {
    const Vec2 axis = a.center2 - a.center1;
    const real axis_squared = length_squared(axis);
    if (!(axis_squared >= real(1e-30))) { // normalize's test fails
        return collide_short_capsule_circle(a, xfa, b, xfb, settings);
    }
    // normalize's own steps where it takes them, without its tests.
    return capsule_circle_on_faces(a, (real(1) / std::sqrt(axis_squared)) * right_perp(axis), xfa,
                                   b, xfb, settings);
}

namespace {

// Normals within this (a sine) of each other are one line's to rounding.
constexpr real k_tied_normals = real(1e-6);

// Of incident edge `edge` of `inc` (its normal's dot with `n`, the
// reference normal in inc's frame, `least`) and a neighbour on one line
// with it to rounding, the one that reaches deeper against `n`. Such edges
// tie on their normals, and the first of them may end short of the
// polygon's deepest vertex: a hexagon with a vertex 1e-24 L off the line of
// its neighbours, 2 L into another polygon, got its clip from the far edge
// only, and no contact (fuzz_geometry). (A segment's two faces tie only
// across the reference normal, with the same ends: it keeps `edge`. Out of
// line: a box pair's contact paid 37 instructions for it inlined.)
template <class Inc>
[[gnu::noinline]] int deeper_of_tied_edges(const Inc& inc, Vec2 n, int edge, real least) {
    const int next = edge + 1 < inc.count ? edge + 1 : 0;
    const int after_next = next + 1 < inc.count ? next + 1 : 0;
    const int before = edge > 0 ? edge - 1 : inc.count - 1;
    const auto at = [&](int i) { return inc.vertices[static_cast<std::size_t>(i)]; };
    const auto tied = [&](int i) {
        return dot(n, inc.normals[static_cast<std::size_t>(i)]) <= least + k_tied_normals;
    };
    if (tied(next) && dot(n, at(after_next)) < dot(n, at(edge))) {
        return next;
    }
    if (tied(before) && dot(n, at(before)) < dot(n, at(next))) {
        return before;
    }
    return edge;
}

// The manifold of two polygon forms on reference face `edge` of `ref` (B
// when `flip`, else A), with the incident edge of `inc` clipped to it. (A
// template so that a segment's two faces, read where they are, take the
// same steps as a polygon's.)
template <class Ref, class Inc>
Manifold contact_on_reference_face(const Ref& ref, const Transform& xf_ref, const Inc& inc,
                                   const Transform& xf_inc, bool flip, int edge,
                                   real core_separation, const CollideSettings& settings) {
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
    // (The next vertices without a division, on every pair's way to the clip.)
    int i1 = inc_edge;
    int i2 = inc_edge + 1 < inc.count ? inc_edge + 1 : 0;
    const int i0 = inc_edge > 0 ? inc_edge - 1 : inc.count - 1;
    if (dot(n_in_inc, inc.normals[i2]) <= min_dot + k_tied_normals ||
        dot(n_in_inc, inc.normals[i0]) <= min_dot + k_tied_normals) [[unlikely]] {
        i1 = deeper_of_tied_edges(inc, n_in_inc, inc_edge, min_dot);
        i2 = i1 + 1 < inc.count ? i1 + 1 : 0;
    }
    const int r1 = edge;
    const int r2 = edge + 1 < ref.count ? edge + 1 : 0;
    const detail::ReferenceFace reference{{transform_point(xf_ref, ref.vertices[r1]),
                                           transform_point(xf_ref, ref.vertices[r2]), r1, r2,
                                           ref.radius},
                                          rotate(xf_ref.q, ref.normals[edge]),
                                          ref.normals[edge],
                                          xf_ref.q};
    const detail::PlacedFace incident{transform_point(xf_inc, inc.vertices[i1]),
                                      transform_point(xf_inc, inc.vertices[i2]), i1, i2,
                                      inc.radius};
    return detail::faces_contact(reference, incident, core_separation, flip, flip ? xf_inc : xf_ref,
                                 flip ? xf_ref : xf_inc, settings);
}

// contact_on_reference_face on face `edge` of B (flip) or of A.
Manifold collide_on_face(const Polygon& a, const Transform& xfa, const Polygon& b,
                         const Transform& xfb, bool flip, int edge, real core_separation,
                         const CollideSettings& settings) {
    return flip ? contact_on_reference_face(b, xfb, a, xfa, true, edge, core_separation, settings)
                : contact_on_reference_face(a, xfa, b, xfb, false, edge, core_separation, settings);
}

// The least separation of the manifold's points (L); m.count > 0.
real least_separation(const Manifold& m) {
    real least = m.points[0].separation;
    for (int i = 1; i < m.count; ++i) {
        least = std::min(least, m.points[i].separation);
    }
    return least;
}

// Whether manifold `m` of apart shapes is empty or claims more room than
// `gap` (L, the separating axis's: never more than the true gap) by over
// `margin` (doubt_margin). A face contact's nearest point lies exactly the
// separating axis's gap away; a speculative point that claims more lets
// the solver close the pair into each other.
bool overstates_gap(const Manifold& m, real gap, real margin) {
    return m.count == 0 || least_separation(m) > gap + margin;
}

// Polygons whose cores are apart by less than the vertex rule's tenth of a
// slop, where clipping left nothing on either face (corner to corner): one
// point at the cores' closest points (GJK), or none when they are farther
// apart than the speculative distance. Nullopt when the cores overlap, or
// when their closest points lie within the rounding of their coordinates,
// where the direction between them is noise (corner to corner touching, 6e-8
// L apart: a normal 73 degrees off the separating axis).
// A box's corner 1.4e-4 L from a spinning polygon's had no manifold, and
// the polygon went 6 slops into the box within the step.
std::optional<Manifold> closest_cores(const Polygon& a, const Transform& xfa, const Polygon& b,
                                      const Transform& xfb, const CollideSettings& settings) {
    const DistanceInput input{
        make_proxy(std::span(a.vertices.data(), static_cast<std::size_t>(a.count)), 0),
        make_proxy(std::span(b.vertices.data(), static_cast<std::size_t>(b.count)), 0), xfa, xfb,
        false};
    SimplexCache cache;
    const DistanceOutput d = distance(input, cache);
    const real scale = detail::rounding_scale(inv_mul(xfa, xfb));
    if (d.state != DistanceState::separated ||
        d.distance < 64 * std::numeric_limits<real>::epsilon() * scale) {
        return std::nullopt;
    }
    Manifold m;
    if (d.distance - (a.radius + b.radius) > settings.speculative_distance) {
        return m;
    }
    m.normal = d.normal;
    m.local_normal = inv_rotate(xfa.q, d.normal);
    m.points[0] = make_point(d.point_a + a.radius * d.normal, d.point_b - b.radius * d.normal,
                             d.normal, xfa, xfb, 0x40000u);
    m.count = 1;
    return m;
}

// How far a manifold's world-frame measures may stray from GJK's, run in
// A's frame, before the touching polygons' contact is doubted: a tenth of
// the slop, plus 8 ulps of the world positions, whose rounding the
// manifold's world vertices carry (at 2^14 L from the origin it passed a
// tenth of the slop, and a two-point manifold lost a point at random).
real doubt_margin(const Transform& xfa, const Transform& xfb, const CollideSettings& settings) {
    return real(0.1) * settings.linear_slop +
           8 * std::numeric_limits<real>::epsilon() * detail::world_scale(xfa, xfb);
}

// Whether a point of `m`, the contact on reference face `edge` of B (flip)
// or A, lies beyond the face's ends by more than `margin`: kept by the
// clip's sides grown by the polygons' radii, over a rounded corner of the
// reference, where the face's axis is not the contact's.
template <class Ref>
bool beyond_reference_face(const Manifold& m, const Ref& ref, const Transform& xf_ref, int edge,
                           real margin) {
    const Vec2 v1 = transform_point(xf_ref, ref.vertices[edge]);
    const Vec2 v2 = transform_point(xf_ref, ref.vertices[(edge + 1) % ref.count]);
    const Vec2 tangent = left_perp(rotate(xf_ref.q, ref.normals[edge]));
    const real lo = dot(tangent, v1) - margin;
    const real hi = dot(tangent, v2) + margin;
    for (int i = 0; i < m.count; ++i) {
        const real s = dot(tangent, m.points[i].point);
        if (s < lo || s > hi) {
            return true;
        }
    }
    return false;
}

// Contact `m` of polygons whose faces' axes call touching, checked against
// the cores' closest points (GJK) where the faces' axis may not be the
// contact's: when the cores are apart (beyond their coordinates' rounding)
// and `m`'s least separation differs from theirs by more than
// doubt_margin, the closest points' contact (or none, beyond the speculative
// distance) replaces it. A needle's long faces pass within a tenth of a slop
// of any point on its axis: a capsule's end 0.29 L beyond the tip (0.01 L
// deep) got its cap measured flat, 0.3 L deep. A segment leaning over a
// box's corner, the box's face clipping it past its nearest point, got
// 0.0185 L for a gap of 1e-5 (the box's face, clipping it at the box's
// side, dropped its nearest point).
Manifold checked_by_cores(const Manifold& m, const Polygon& a, const Transform& xfa,
                          const Polygon& b, const Transform& xfb, const CollideSettings& settings) {
    const std::optional<Manifold> nearest = closest_cores(a, xfa, b, xfb, settings);
    if (!nearest) {
        return m;
    }
    if (nearest->count == 0 || m.count == 0 ||
        std::abs(least_separation(m) - nearest->points[0].separation) >
            doubt_margin(xfa, xfb, settings)) {
        return *nearest;
    }
    return m;
}

// One point where no face's clip left any (two polygons touching exactly
// vertex to vertex, where every clip ends on a point): the other polygon's
// deepest vertex against reference face `edge` of B (flip) or A, measured
// along its normal, beyond the face's extent if it lies there. A vertex
// beyond the extent counts as deeper by how far beyond: of a segment's two
// ends level with a box's face, the one at the box's corner, not the one
// half a metre off by rounding (a box a hair beyond a ledge's corner, flush
// with its top, got its contact at the top's far end, which the chain then
// dropped). Empty beyond the speculative distance. Id 0x80000 | the vertex.
Manifold deepest_vertex_point(const Polygon& a, const Transform& xfa, const Polygon& b,
                              const Transform& xfb, bool flip, int edge,
                              const CollideSettings& settings) {
    const Polygon& ref = flip ? b : a;
    const Polygon& inc = flip ? a : b;
    const Transform& xf_ref = flip ? xfb : xfa;
    const Transform& xf_inc = flip ? xfa : xfb;
    const Vec2 n = rotate(xf_ref.q, ref.normals[edge]);
    const Vec2 on_face = transform_point(xf_ref, ref.vertices[edge]);
    const Vec2 tangent = left_perp(n);
    const real face_length =
        dot(tangent, transform_point(xf_ref, ref.vertices[(edge + 1) % ref.count]) - on_face);
    int deepest = 0;
    real gap = std::numeric_limits<real>::max();
    real key = std::numeric_limits<real>::max();
    for (int i = 0; i < inc.count; ++i) {
        const Vec2 v = transform_point(xf_inc, inc.vertices[i]);
        const real g = dot(n, v - on_face);
        const real along = dot(tangent, v - on_face);
        const real k = g + std::max({-along, along - face_length, real(0)});
        if (k < key) {
            key = k;
            gap = g;
            deepest = i;
        }
    }
    Manifold m;
    if (gap - (ref.radius + inc.radius) > settings.speculative_distance) {
        return m;
    }
    const Vec2 p = transform_point(xf_inc, inc.vertices[deepest]);
    const Vec2 on_ref = p - gap * n + ref.radius * n;
    const Vec2 on_inc = p - inc.radius * n;
    m.normal = flip ? -n : n;
    m.local_normal = ref.normals[edge];
    m.reference_is_b = flip;
    const auto id = 0x80000u | static_cast<std::uint32_t>(deepest);
    m.points[0] = flip ? make_point(on_inc, on_ref, m.normal, xfa, xfb, id)
                       : make_point(on_ref, on_inc, m.normal, xfa, xfb, id);
    m.count = 1;
    return m;
}

// Overlapping (or exactly touching) polygons that neither best face gave a
// contact, nor GJK (whose closest points coincide): a face whose
// extent misses the other polygon's facing edge, beside a neighbour that
// separates them as well to within a slop (nearly collinear edges: a hull
// vertex a hair off its neighbours' line, 2.5e-12 L off over 360 L in what
// the fuzzer found). The faces of both that separate them to within a
// linear slop of the best are tried, the most separating first (A's before
// B's on a tie), until one gives points; if none does, the most separating
// face's deepest vertex point.
Manifold collide_on_nearly_separating_face(const Polygon& a, const Transform& xfa,
                                           const Polygon& b, const Transform& xfb,
                                           real core_separation,
                                           const CollideSettings& settings) {
    struct Candidate {
        real separation;
        bool flip;
        int edge;
    };
    std::array<Candidate, 2 * k_max_polygon_vertices> candidates;
    std::size_t count = 0;
    for (const bool flip : {false, true}) {
        const Polygon& ref = flip ? b : a;
        EdgeSeparations separations;
        edge_separations(ref, inv_mul(flip ? xfa : xfb, flip ? xfb : xfa), flip ? a : b,
                         separations);
        for (int edge = 0; edge < ref.count; ++edge) {
            const real separation = separations[static_cast<std::size_t>(edge)];
            if (separation >= core_separation - settings.linear_slop) {
                candidates[count++] = {separation, flip, edge};
            }
        }
    }
    // Most separating first, ties in their order: an insertion sort of at
    // most 16, which allocates nothing (std::stable_sort's buffer would, in
    // the middle of a move).
    for (std::size_t i = 1; i < count; ++i) {
        const Candidate c = candidates[i];
        std::size_t j = i;
        for (; j > 0 && candidates[j - 1].separation < c.separation; --j) {
            candidates[j] = candidates[j - 1];
        }
        candidates[j] = c;
    }
    for (std::size_t i = 0; i < count; ++i) {
        const Manifold m = collide_on_face(a, xfa, b, xfb, candidates[i].flip, candidates[i].edge,
                                           core_separation, settings);
        if (m.count > 0) {
            return m;
        }
    }
    return count > 0 ? deepest_vertex_point(a, xfa, b, xfb, candidates[0].flip,
                                            candidates[0].edge, settings)
                     : Manifold{};
}

} // namespace

namespace {

// What collide_polygons' separating-axis search found: each polygon's most
// separating edge and the reference face chosen of the two. `reach` is
// false when an axis holds the polygons apart by more than the speculative
// distance (no contact).
struct AxisSearch {
    bool reach = false;
    EdgeSeparation sep_a;
    EdgeSeparation sep_b;
    bool flip = false;
    real core_separation = 0;
};

// The separating-axis search of polygon forms A and B (Box2D v3's
// b2CollidePolygons).
template <class A>
AxisSearch search_axes(const A& a, const Transform& xfa, const Polygon& b, const Transform& xfb,
                       const CollideSettings& settings) {
    AxisSearch s;
    const real total_radius = a.radius + b.radius;
    const real spec = settings.speculative_distance;
    s.sep_a = find_max_separation(a, xfa, b, xfb, total_radius, spec);
    if (s.sep_a.separation - total_radius > spec) {
        return s;
    }
    s.sep_b = find_max_separation(b, xfb, a, xfa, total_radius, spec);
    if (s.sep_b.separation - total_radius > spec) {
        return s;
    }
    s.reach = true;
    // Prefer A's face (or B's, prefer_reference_b) unless the other is
    // clearly better, so the reference face does not flip between steps on
    // nearly parallel faces.
    const real hysteresis = real(0.1) * settings.linear_slop;
    s.flip = settings.prefer_reference_b ? !(s.sep_a.separation > s.sep_b.separation + hysteresis)
                                         : s.sep_b.separation > s.sep_a.separation + hysteresis;
    s.core_separation = std::max(s.sep_a.separation, s.sep_b.separation);
    return s;
}

// The contact on the reference face that search `s` chose; none when it
// found no reach.
template <class A>
Manifold chosen_face_contact(const AxisSearch& s, const A& a, const Transform& xfa,
                             const Polygon& b, const Transform& xfb,
                             const CollideSettings& settings) {
    if (!s.reach) {
        return {};
    }
    return s.flip ? contact_on_reference_face(b, xfb, a, xfa, true, s.sep_b.edge, s.core_separation,
                                              settings)
                  : contact_on_reference_face(a, xfa, b, xfb, false, s.sep_a.edge,
                                              s.core_separation, settings);
}

// Whether the reference face's contact `m` is the manifold as it stands:
// it claims no more room than the separating axis allows, and (between
// polygons with radii, cores within a tenth of a slop) no point lies past
// the reference face's ends. Otherwise settle_face_contact decides.
template <class A>
bool face_contact_stands(const AxisSearch& s, const Manifold& m, const A& a, const Transform& xfa,
                         const Polygon& b, const Transform& xfb, const CollideSettings& settings) {
    const real total_radius = a.radius + b.radius;
    if (!(s.core_separation > real(0.1) * settings.linear_slop) && m.count == 0) {
        return false;
    }
    const real margin = doubt_margin(xfa, xfb, settings);
    if (overstates_gap(m, s.core_separation - total_radius, margin)) {
        return false;
    }
    if (s.core_separation > real(0.1) * settings.linear_slop || !(total_radius > 0)) {
        return true;
    }
    // (A point past a rounded reference's face end, or the incident edge's
    // deepest point clipped away: the face's axis may not be the contact's.)
    return s.flip ? !beyond_reference_face(m, b, xfb, s.sep_b.edge, margin)
                  : !beyond_reference_face(m, a, xfa, s.sep_a.edge, margin);
}

// The manifold of polygons A and B when the reference face's contact
// `face` does not stand (face_contact_stands).
Manifold settle_face_contact(const AxisSearch& s, const Manifold& face, const Polygon& a,
                             const Transform& xfa, const Polygon& b, const Transform& xfb,
                             const CollideSettings& settings) {
    const real core_separation = s.core_separation;
    Manifold m = face;
    if (core_separation > real(0.1) * settings.linear_slop) {
        // Apart, with the faces' contact missing or farther than the
        // separating axis says: the nearest parts may lie beyond the
        // reference face's end, on another edge than the incident one. (A
        // capsule's side face, kept as the reference over the heptagon's by
        // search_axes' hysteresis, with the heptagon's corner past its end
        // cap, 0.026 L away: no point within 0.11 L, and one 0.17 L away at
        // 0.2 L. Seed 60357 of the random scenes closed 7 slops into it.)
        // The cores' closest points (GJK) decide where they are nearer.
        const real margin = doubt_margin(xfa, xfb, settings);
        const std::optional<Manifold> nearest = closest_cores(a, xfa, b, xfb, settings);
        if (nearest && nearest->count > 0 &&
            (m.count == 0 || nearest->points[0].separation < least_separation(m) - margin)) {
            m = *nearest;
        }
        return m;
    }
    if (m.count > 0) {
        return checked_by_cores(m, a, xfa, b, xfb, settings);
    }
    // Where the faces are clipped (cores overlapping or closer than the
    // vertex-pair rule's tenth of a slop), the preferred reference face may
    // end before the other polygon's facing edge reaches it: a small box's
    // face, with B's nearest or deepest part past its end (B at the box's
    // corner). Clipped to the face, that edge leaves nothing, so the pair
    // got no contact in this order and some in the other: overlapping
    // (seed 61564 of the random scenes: a body ran 0.1 L into another with
    // no contact to stop it) or a hair apart (seed 30599: a triangle's
    // corner 0.00025 L over the end of a thin wall got no speculative
    // contact and sank 2.4 slops into it). The other polygon's face then
    // decides, if it separates them nearly as well (within a linear slop);
    // a worse face (a deep overlap's) would push them along a wrong axis,
    // through a thin wall.
    const real other_separation = s.flip ? s.sep_a.separation : s.sep_b.separation;
    if (other_separation >= core_separation - settings.linear_slop) {
        m = collide_on_face(a, xfa, b, xfb, !s.flip, s.flip ? s.sep_a.edge : s.sep_b.edge,
                            core_separation, settings);
    }
    if (m.count > 0) {
        return checked_by_cores(m, a, xfa, b, xfb, settings); // (a face that separates less)
    }
    // The faces' axes say touching, but apart cores are as far apart as GJK
    // says: a needle's tip on the line of an edge, beyond its end, lies
    // within a tenth of a slop of the line along the needle's long faces'
    // normals, however far from the edge (a capsule 0.3 L from such a tip
    // got a contact a whole radius deep).
    if (const std::optional<Manifold> nearest = closest_cores(a, xfa, b, xfb, settings)) {
        return *nearest;
    }
    return collide_on_nearly_separating_face(a, xfa, b, xfb, core_separation, settings);
}

// A segment's polygon form (capsule_polygon's, radius 0) as the
// separating-axis search and the clip read it, without the rest of a Polygon
// (its spare vertices, zeroed and copied, cost a chain collide 6 %).
struct SegmentFaces {
    static constexpr int count = 2;
    static constexpr real radius = 0;
    std::array<Vec2, 2> vertices;
    std::array<Vec2, 2> normals;
};

SegmentFaces segment_faces(const Segment& segment) {
    const Vec2 n = normalize(right_perp(segment.p2 - segment.p1));
    return {{segment.p1, segment.p2}, {n, -n}};
}

// collide_segment_polygon's contact once search `s` found reach. (Not
// inlined: the pairs the search finds apart, about half of a chain's, return
// without this frame's spills: 366 -> 316 instructions a call.)
[[gnu::noinline]] Manifold segment_polygon_contact(const AxisSearch& s, const SegmentFaces& a,
                                                   const Segment& segment, const Transform& xfa,
                                                   const Polygon& b, const Transform& xfb,
                                                   const CollideSettings& settings) {
    Manifold m = chosen_face_contact(s, a, xfa, b, xfb, settings);
    if (!face_contact_stands(s, m, a, xfa, b, xfb, settings)) {
        m = settle_face_contact(s, m, segment_polygon(segment), xfa, b, xfb, settings);
    }
    return m;
}

// collide_polygons of a segment (A) as its polygon form and polygon B, to
// the bit: the same search and clip on the segment's faces, and the
// polygon form made only for a contact that needs settling.
Manifold collide_segment_polygon(const Segment& segment, const Transform& xfa, const Polygon& b,
                                 const Transform& xfb, const CollideSettings& settings) {
    const SegmentFaces a = segment_faces(segment);
    const AxisSearch s = search_axes(a, xfa, b, xfb, settings);
    if (!s.reach) {
        return {};
    }
    return segment_polygon_contact(s, a, segment, xfa, b, xfb, settings);
}

} // namespace

Manifold collide_polygons(const Polygon& a, const Transform& xfa, const Polygon& b,
                          const Transform& xfb, const CollideSettings& settings) {
    const AxisSearch s = search_axes(a, xfa, b, xfb, settings);
    Manifold m = chosen_face_contact(s, a, xfa, b, xfb, settings);
    if (s.reach && !face_contact_stands(s, m, a, xfa, b, xfb, settings)) {
        m = settle_face_contact(s, m, a, xfa, b, xfb, settings);
    }
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
        return flipped(
            [&] { return collide_polygon_circle(*poly_b, xfb, a.circle, xfa, settings); });
    }
    return collide_polygons(*poly_a, xfa, *poly_b, xfb, settings);
}

// The polygon form of a capsule or segment.
Polygon core_polygon(const Shape& shape) {
    return shape.type == ShapeType::capsule ? capsule_polygon(shape.capsule)
                                            : segment_polygon(shape.segment);
}

// A polygon's own form, or null for a circle.
const Polygon* solid_polygon(const Shape& shape) {
    return shape.type == ShapeType::polygon ? &shape.polygon : nullptr;
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

// Seam-free chain segments ("ghost collisions": Catto, "Ghost Collisions",
// box2d.org 2020, and Box2D v3's b2CollideChainSegmentAndPolygon), in our
// own terms. A chain's surface is smooth where two segments meet flat or
// concave: the only normals it has there are its faces' normals. Where they
// meet convex (a ledge), the surface has a vertex, whose normals fill the
// cone between the two faces' normals. Each segment answers for its own face
// and for the half of each convex vertex's cone nearer its face (split at the
// bisector, with a thin overlap so that no normal falls between the two
// halves); the neighbour answers for the rest. So a shape resting across a
// flat seam gets the face normal from both segments, never a sideways vertex
// normal, and nothing catches on the seam.
//
// The contact is computed as for a two-sided segment, and its normal is then
// classified on that map:
//   - admit: within the segment's part of a convex vertex cone (or its face
//     normal on a segment whose ends are both convex): kept as computed;
//   - snap: leaning towards a flat or concave end, or within the convexity
//     tolerance of the face normal on a segment with such an end: replaced
//     by a contact on the segment's face normal, clipped to the segment's
//     extent (what lies beyond the end is the neighbour's); if B's centroid
//     is behind the segment, B is deep: as for skip;
//   - neighbour: in the neighbour's half of a convex vertex cone: no
//     contact; the neighbour admits the same normal (a shape hanging on the
//     tip of a ledge has its one contact there, however far it reaches
//     below this segment's line); if the neighbour has no such contact,
//     kept when strictly within the cone, else (past the neighbour's face
//     normal by rounding) as for skip;
//   - skip: outside the segment's map (past the neighbour's face normal, or
//     pointing into the solid): no contact, unless B sinks so deep that the
//     segment's own face is the chain face that separates it most; then the
//     face contact, as for snap.

/// Sine of the smallest turn at a chain vertex that counts as convex: flatter
/// joints (within about 0.6 degrees, Box2D's tolerance) are seams.
constexpr real k_convex_sine = real(0.01);
/// Overlap of the two halves of a convex vertex cone, as a difference of
/// cosines (about 0.06 degrees at a right angle): rounding of the two
/// segments' separately computed normals never leaves a gap between them.
constexpr real k_cone_split_overlap = real(1e-3);
/// Sine of the angle by which a normal computed in `real` may miss a face's
/// normal it equals (two unit vectors' cross product is good to a few ulps).
constexpr real k_normal_rounding = real(1e-5);

// A chain segment in the world with what its ghosts say about its ends.
struct ChainEnds {
    Vec2 ghost1;
    Vec2 p1;
    Vec2 p2;
    Vec2 ghost2;
    Vec2 tangent; // unit, p1 -> p2
    Vec2 normal;  // outward: right_perp(tangent)
    Vec2 normal0; // outward normal of ghost1 -> p1 (an open end: -tangent)
    Vec2 normal2; // outward normal of p2 -> ghost2 (an open end: +tangent)
    real length = 0;
    bool convex1 = false; // p1 is a convex vertex (or an open end)
    bool convex2 = false;
    bool open1 = false; // ghost1 == p1: no neighbour, the whole cone is ours
    bool open2 = false;
};

// The segment's own part of ChainEnds: its ends, length, tangent and normal.
ChainEnds segment_ends(const ChainSegment& chain, const Transform& xf) {
    ChainEnds e;
    e.p1 = transform_point(xf, chain.segment.p1);
    e.p2 = transform_point(xf, chain.segment.p2);
    e.length = distance(e.p1, e.p2);
    e.tangent = normalize(e.p2 - e.p1);
    e.normal = right_perp(e.tangent);
    return e;
}

// The rest of ChainEnds, from the ghosts: needed only to judge a contact.
void add_ghosts(ChainEnds& e, const ChainSegment& chain, const Transform& xf) {
    e.ghost1 = transform_point(xf, chain.ghost1);
    e.ghost2 = transform_point(xf, chain.ghost2);
    const Vec2 edge0 = normalize(e.p1 - e.ghost1);
    const Vec2 edge2 = normalize(e.ghost2 - e.p2);
    // A ghost on its vertex is an open end: modelled as a right-angle convex
    // vertex with no neighbour, so the end is rounded on the outer side only.
    e.open1 = edge0 == Vec2{};
    e.open2 = edge2 == Vec2{};
    e.normal0 = e.open1 ? -e.tangent : right_perp(edge0);
    e.normal2 = e.open2 ? e.tangent : right_perp(edge2);
    e.convex1 = e.open1 || cross(edge0, e.tangent) >= k_convex_sine;
    e.convex2 = e.open2 || cross(e.tangent, edge2) >= k_convex_sine;
}

enum class ChainNormal { admit, snap, neighbour, skip };

// Where a normal (world, from the chain to the other shape) falls on the
// segment's part of the chain's normal map, by the end it leans towards.
ChainNormal classify_by_cone(const ChainEnds& e, Vec2 normal) {
    const bool towards_p1 = dot(normal, e.tangent) <= 0;
    const bool convex = towards_p1 ? e.convex1 : e.convex2;
    if (!convex) {
        return ChainNormal::snap;
    }
    const Vec2 neighbour = towards_p1 ? e.normal0 : e.normal2;
    // Turned past the neighbour's face normal: outside the vertex cone. The
    // cone runs counter-clockwise from normal0 to normal and from normal to normal2.
    const real beyond = towards_p1 ? cross(normal, neighbour) : cross(neighbour, normal);
    if (beyond > k_convex_sine) {
        return ChainNormal::skip;
    }
    const bool open = towards_p1 ? e.open1 : e.open2;
    if (!open && dot(normal, neighbour) > dot(normal, e.normal) + k_cone_split_overlap) {
        return ChainNormal::neighbour; // nearer the neighbour's face: its contact
    }
    return ChainNormal::admit;
}

// classify_by_cone for a contact's normal, except that the face normal
// snaps on a segment with a flat or concave end. A face normal leans either
// way by rounding: on a slope from a ledge down to a valley, a rounded box
// lying on it across the valley's joint was admitted, its point reaching up
// to a radius past the joint, or snapped, clipped at the joint, by the sign
// of a rounding error (28 % of placements admitted): its contact point
// jumped as it rested.
ChainNormal classify_chain_normal(const ChainEnds& e, Vec2 normal) {
    if (std::abs(dot(normal, e.tangent)) <= k_convex_sine && !(e.convex1 && e.convex2)) {
        return ChainNormal::snap;
    }
    return classify_by_cone(e, normal);
}

// The world point of a shape that decides which side of a chain it is on.
Vec2 world_centroid(const Shape& shape, const Transform& xf) {
    switch (shape.type) {
    case ShapeType::circle:
        return transform_point(xf, shape.circle.center);
    case ShapeType::capsule:
        return transform_point(xf, lerp(shape.capsule.center1, shape.capsule.center2, real(0.5)));
    case ShapeType::polygon:
        return transform_point(xf, shape.polygon.centroid);
    default:
        return xf.p;
    }
}

// A point of B's core (world) with its gap beyond the chain's face, added
// to face contact `m` unless farther than the speculative distance.
// Inlined: GCC kept it a call, and a face contact's two calls cost a
// chain collide 1 % in passing their arguments.
[[gnu::always_inline]] inline void add_face_point(Manifold& m, const ChainEnds& e, Vec2 core_b,
                                                  real radius_b, std::uint32_t id,
                                                  const Transform& xfa, const Transform& xfb,
                                                  const CollideSettings& settings) {
    const Vec2 n = e.normal;
    const real gap = dot(n, core_b - e.p1);
    if (gap - radius_b > settings.speculative_distance) {
        return;
    }
    m.points[m.count++] = make_point(core_b - gap * n, core_b - radius_b * n, n, xfa, xfb, id);
}

// `m` made an empty contact on the chain's face normal, for its points to
// be added.
void start_face_manifold(Manifold& m, const ChainEnds& e, const Transform& xfa) {
    m = {};
    m.normal = e.normal;
    m.local_normal = inv_rotate(xfa.q, e.normal);
}

// chain_face_points for a circle: its centre over the segment's extent. A
// centre beyond an end and beyond the neighbour's end too faces the vertex
// itself, in the sliver a joint flatter than the convexity tolerance leaves
// between the two faces' extents: it meets the vertex, along a normal
// within that sliver's cone.
void chain_face_circle_points(Manifold& m, const ChainEnds& e, const Transform& xfa,
                              const Circle& circle, const Transform& xfb,
                              const CollideSettings& settings) {
    start_face_manifold(m, e, xfa);
    const Vec2 n = e.normal;
    const Vec2 c = transform_point(xfb, circle.center);
    const real r = circle.radius;
    const real along = dot(c - e.p1, e.tangent);
    if (along >= 0 && along <= e.length) {
        add_face_point(m, e, c, r, 0, xfa, xfb, settings);
        return;
    }
    const bool at_p1 = along < 0;
    const Vec2 vertex = at_p1 ? e.p1 : e.p2;
    const Vec2 beyond_neighbour = at_p1 ? e.p1 - e.ghost1 : e.p2 - e.ghost2;
    if (dot(c - vertex, beyond_neighbour) <= 0) {
        m = {}; // over the neighbour's extent: its contact
        return;
    }
    const real dist = distance(c, vertex);
    // (normalize, not 1 / dist: a centre 1e-23 L from the vertex has a
    // subnormal square, and 1 / dist made a normal 0.7 long.)
    const Vec2 towards = normalize(c - vertex);
    const Vec2 normal = towards == Vec2{} ? n : towards;
    // Only within the vertex's cone, counter-clockwise from normal0 to
    // normal to normal2 (to the convexity tolerance): a concave joint has
    // no such normals, and there the centre is inside the solid.
    const real turn = at_p1 ? cross(e.normal0, n) : cross(n, e.normal2); // sine, > 0: convex
    const real outside_cone = at_p1 ? std::max(-cross(e.normal0, normal), -cross(normal, n))
                                    : std::max(-cross(n, normal), -cross(normal, e.normal2));
    if (turn < -k_convex_sine || outside_cone > k_convex_sine ||
        dist - r > settings.speculative_distance) {
        m = {};
        return;
    }
    m.normal = normal;
    m.local_normal = inv_rotate(xfa.q, normal);
    m.points[0] = make_point(vertex, c - r * normal, normal, xfa, xfb, 0x100u);
    m.count = 1;
}

// chain_face_points for a polygon form (a capsule's, or a polygon itself,
// read in place, not copied): its edge facing the chain clipped to [p1, p2]
// (when that edge lies beyond the ends, as for a deep shape centred near a
// vertex, the deepest point of its core over the extent).
void chain_face_polygon_points(Manifold& m, const ChainEnds& e, const Transform& xfa,
                               const Polygon& poly, const Transform& xfb,
                               const CollideSettings& settings) {
    start_face_manifold(m, e, xfa);
    const Vec2 n = e.normal;
    // B's edge clipped to the slab over the segment: [p1, p2] along the tangent.
    const auto clip_to_extent = [&](int edge, std::array<ClipVertex, 2>& out) {
        const int next = edge + 1 < poly.count ? edge + 1 : 0;
        const std::array<ClipVertex, 2> in{
            ClipVertex{transform_point(xfb, poly.vertices[edge]), static_cast<std::uint32_t>(edge)},
            ClipVertex{transform_point(xfb, poly.vertices[next]),
                       static_cast<std::uint32_t>(next)}};
        std::array<ClipVertex, 2> clip1{};
        const int count1 = clip_segment(clip1, in, -e.tangent, -dot(e.tangent, e.p1));
        if (count1 < 2) {
            out = clip1;
            return count1;
        }
        return clip_segment(out, clip1, e.tangent, dot(e.tangent, e.p2));
    };
    // B's edge most anti-parallel to the chain's normal.
    const Vec2 n_in_b = inv_rotate(xfb.q, n);
    int edge = 0;
    real least = dot(n_in_b, poly.normals[0]);
    for (int i = 1; i < poly.count; ++i) {
        if (const real d = dot(n_in_b, poly.normals[i]); d < least) {
            least = d;
            edge = i;
        }
    }
    std::array<ClipVertex, 2> clipped{};
    if (clip_to_extent(edge, clipped) == 2) {
        for (const ClipVertex& cv : clipped) {
            add_face_point(m, e, cv.v, poly.radius, cv.id | 0x40000u, xfa, xfb, settings);
        }
        return;
    }
    // That edge lies beyond the ends: the deepest point of B's core over the extent.
    real deepest = std::numeric_limits<real>::max();
    ClipVertex best;
    for (int i = 0; i < poly.count; ++i) {
        const int count = clip_to_extent(i, clipped);
        for (int k = 0; k < count; ++k) {
            const real gap = dot(n, clipped[k].v - e.p1);
            if (gap < deepest) {
                deepest = gap;
                best = clipped[k];
            }
        }
    }
    if (deepest < std::numeric_limits<real>::max()) {
        add_face_point(m, e, best.v, poly.radius, best.id | 0x80000u, xfa, xfb, settings);
    }
}

// The contact of a shape (B) with the chain's face alone (normal = the
// outward normal), from the part of B over the segment's extent, made in
// `m`: written field by field where the caller keeps it, not returned and
// copied (a copy reads back, in wide loads, fields just stored one by one,
// which the processor cannot forward from its stores).
void chain_face_points(Manifold& m, const ChainEnds& e, const Transform& xfa, const Shape& b,
                       const Transform& xfb, const CollideSettings& settings) {
    switch (b.type) {
    case ShapeType::circle:
        chain_face_circle_points(m, e, xfa, b.circle, xfb, settings);
        return;
    case ShapeType::capsule:
        chain_face_polygon_points(m, e, xfa, capsule_polygon(b.capsule), xfb, settings);
        return;
    default:
        chain_face_polygon_points(m, e, xfa, b.polygon, xfb, settings);
        return;
    }
}

// chain_face_points, with no normal when it has no points.
void chain_face_contact(Manifold& m, const ChainEnds& e, const Transform& xfa, const Shape& b,
                        const Transform& xfb, const CollideSettings& settings) {
    chain_face_points(m, e, xfa, b, xfb, settings);
    if (m.count == 0) {
        m = {};
    }
}

// True when, of the chain's faces around the segment (its own and those of
// convex neighbours), its own separates B's core most, within 0.1 linear slop
// (Box2D's "edge separation"). A flat or concave neighbour's face bounds no
// solid near the vertex, so it does not count; nor does a neighbour further
// from B than the speculative distance and a linear slop (its face's line
// may still cut B where B is nowhere near it). The slop: a neighbour a hair
// beyond the speculative distance still bounds the solid B is near, and
// this segment's two-sided contact, which sent the question here, may have
// found B within the distance at their shared vertex by rounding (a box a
// hair above a face, past its convex corner, got the next segment's face
// 0.63 L deep). Not inlined, nor neighbour_takes and vertex_contact: the
// rarer rules, inlined, cost every chain collide about 10 instructions of
// spills and frame.
[[gnu::noinline]] bool own_face_separates_most(const ChainEnds& e, const Shape& b,
                                               const Transform& xfb,
                                               const CollideSettings& settings) {
    const ShapeProxy proxy = make_proxy(b);
    std::array<Vec2, k_max_polygon_vertices> core_b; // B's core in the world, placed once
    for (int i = 0; i < proxy.count; ++i) {
        core_b[static_cast<std::size_t>(i)] = transform_point(xfb, proxy.points[i]);
    }
    const auto separation = [&](Vec2 n, Vec2 origin) {
        real s = std::numeric_limits<real>::max();
        for (int i = 0; i < proxy.count; ++i) {
            s = std::min(s, dot(n, core_b[static_cast<std::size_t>(i)] - origin));
        }
        return s;
    };
    const auto in_reach = [&](Vec2 q1, Vec2 q2) {
        const std::array<Vec2, 2> points{q1, q2};
        SimplexCache cache;
        return distance({make_proxy(points, 0), proxy, k_identity, xfb, true}, cache).distance <=
               settings.speculative_distance + settings.linear_slop;
    };
    const real own = separation(e.normal, e.p1) + real(0.1) * settings.linear_slop;
    return !(e.convex1 && !e.open1 && separation(e.normal0, e.p1) > own &&
             in_reach(e.ghost1, e.p1)) &&
           !(e.convex2 && !e.open2 && separation(e.normal2, e.p2) > own &&
             in_reach(e.p2, e.ghost2));
}

// A segment (A) as a two-sided solid against a circle, capsule or polygon (B).
Manifold collide_two_sided(const Segment& segment, const Transform& xfa, const Shape& b,
                           const Transform& xfb, const CollideSettings& settings) {
    switch (b.type) {
    case ShapeType::capsule:
        return collide_capsules(Capsule{segment.p1, segment.p2, 0}, xfa, b.capsule, xfb, settings);
    case ShapeType::circle:
        return collide_polygon_circle(segment_polygon(segment), xfa, b.circle, xfb, settings);
    default: // a polygon (collide() never pairs two edges)
        return collide_segment_polygon(segment, xfa, b.polygon, xfb, settings);
    }
}

// Whether contact `m`, snapped, leans by no more than a flat joint's
// tolerance (the face normal: classify_chain_normal) and lies nearer a
// convex end than the other end. There the lean's sign is rounding's: a
// shape a hair beyond a ledge's corner, flush with the faces, gets the face
// normal turned a little either way (by GJK, 7e-5 rad at 0.001 L), and the
// clip to the segment's extent leaves nothing of it, while the ledge's
// other face leaves it to this segment (neighbour_takes): a box 0.01 L
// above the corner had no contact. The contact is then kept as computed.
bool at_convex_end(const ChainEnds& e, const Manifold& m) {
    if (std::abs(dot(m.normal, e.tangent)) > k_convex_sine) {
        return false;
    }
    const real along = dot(m.points[0].point - e.p1, e.tangent);
    return along <= real(0.5) * e.length ? e.convex1 : e.convex2;
}

// Whether the neighbour across the convex vertex at p1 (at_p1) or p2 takes
// the contact whose normal fell in its half of the vertex's cone: its own
// two-sided contact with B leans nearer its face normal than this segment's
// too. If B lies so that the neighbour's contact leans our way (a sharp
// ledge, each segment's axis in the other's half), this segment keeps its
// contact, so that B has one. (Not inlined: own_face_separates_most.)
[[gnu::noinline]] bool neighbour_takes(const ChainSegment& chain, const ChainEnds& e, bool at_p1,
                                       const Transform& xfa, const Shape& b, const Transform& xfb,
                                       const CollideSettings& settings) {
    const Segment neighbour =
        at_p1 ? Segment{chain.ghost1, chain.segment.p1} : Segment{chain.segment.p2, chain.ghost2};
    const Manifold theirs = collide_two_sided(neighbour, xfa, b, xfb, settings);
    const Vec2 their_face = at_p1 ? e.normal0 : e.normal2;
    return theirs.count > 0 &&
           dot(theirs.normal, their_face) > dot(theirs.normal, e.normal) + k_cone_split_overlap;
}

// Whether `normal` lies in the convex vertex's cone at p1 (at_p1) or p2,
// strictly: not past the neighbour's face normal by more than `rounding`
// (a sine).
bool within_cone(const ChainEnds& e, bool at_p1, Vec2 normal, real rounding = 0) {
    return at_p1 ? cross(normal, e.normal0) <= rounding : cross(e.normal2, normal) <= rounding;
}

// The contact of B with the segment's convex vertex alone (a point against
// B: B's face normal, or the direction from the vertex to B's nearest
// vertex), when B does not overlap the vertex and the normal falls in this
// segment's half of the vertex's cone; else none. For B beyond both faces'
// extents near a ledge's corner, where the two-sided axes are B's own faces:
// a triangle's tip 1e-6 L off a ledge's corner, its sides leaning out of the
// cone by rounding of a separation that small, got no contact from either
// segment (9 of 3,800 placements about a right-angled corner). (Not
// inlined: own_face_separates_most.)
[[gnu::noinline]] Manifold vertex_contact(const ChainSegment& chain, const ChainEnds& e,
                                          const Transform& xfa, const Shape& b,
                                          const Transform& xfb, const CollideSettings& settings) {
    for (const bool at_p1 : {true, false}) {
        if (!(at_p1 ? e.convex1 : e.convex2)) {
            continue;
        }
        const Circle vertex{at_p1 ? chain.segment.p1 : chain.segment.p2, 0};
        const Manifold m = collide(Shape(vertex), xfa, b, xfb, settings);
        if (m.count > 0 && m.points[0].separation > real(-0.1) * settings.linear_slop &&
            (dot(m.normal, e.tangent) <= 0) == at_p1 &&
            classify_by_cone(e, m.normal) == ChainNormal::admit) {
            return m;
        }
    }
    return {};
}

// Contact `m` of B with the chain segment as a two-sided segment (A), not
// empty, judged by the chain's rules (seam-free chain segments, above): in
// place, as the chain's answer. (Not inlined: the apart pairs, about half of
// them, return without this frame's spills.)
[[gnu::noinline]] void judge_chain_contact(Manifold& m, const ChainSegment& chain,
                                           const Transform& xfa, const Shape& b,
                                           const Transform& xfb, const CollideSettings& settings) {
    ChainEnds e = segment_ends(chain, xfa);
    if (e.tangent == Vec2{}) {
        m = {}; // a zero-length chain segment has no face
        return;
    }
    add_ghosts(e, chain, xfa);
    // One-sided: a shape whose centroid is behind the segment's line, and
    // behind its convex neighbours' lines, is inside the solid.
    const Vec2 centroid = world_centroid(b, xfb);
    const bool behind = dot(e.normal, centroid - e.p1) < 0;
    // An open end is rounded on the outer side only: behind the line, a
    // centroid beyond it is behind too (a box under a platform's open end,
    // its centroid past the end, got a contact through the platform, 0.21
    // L deep, from its bottom face). (Bitwise: each test is the data's
    // coin toss, and all of them are cheap.)
    const bool behind0 = !e.convex1 | e.open1 | (dot(e.normal0, centroid - e.p1) < 0);
    const bool behind2 = !e.convex2 | e.open2 | (dot(e.normal2, centroid - e.p2) < 0);
    if (behind & behind0 & behind2) {
        m = {};
        return;
    }
    switch (classify_chain_normal(e, m.normal)) {
    case ChainNormal::admit:
        return;
    case ChainNormal::snap:
        if (!behind) {
            if (at_convex_end(e, m)) {
                // The face contact, or the two-sided one if that is empty:
                // made again, where that is rare, rather than kept aside for
                // a copy that would read back fields just stored.
                chain_face_contact(m, e, xfa, b, xfb, settings);
                if (m.count == 0) {
                    m = collide_two_sided(chain.segment, xfa, b, xfb, settings);
                }
                return;
            }
            chain_face_contact(m, e, xfa, b, xfb, settings);
            return;
        }
        break; // a normal into the solid: B is deep, as for skip below
    case ChainNormal::neighbour: {
        const bool at_p1 = dot(m.normal, e.tangent) <= 0;
        if (neighbour_takes(chain, e, at_p1, xfa, b, xfb, settings)) {
            m = {};
            return;
        }
        // (Or past it by rounding, B deep: B lies behind the neighbour's
        // line, where its face does not reach it, and only this contact
        // holds it. A capsule 0.38 L into the solid under a ledge's corner,
        // its core along the ledge's top, got this contact or none, by the
        // sign of a cross product 6e-8 from zero.)
        if (within_cone(e, at_p1, m.normal) ||
            (least_separation(m) < -settings.linear_slop &&
             within_cone(e, at_p1, m.normal, k_normal_rounding))) {
            return;
        }
        // Past the neighbour's face normal, if only by rounding: B lies
        // against the neighbour's face, which did not take it (B is a hair
        // beyond its reach), so as for skip below, not as for snap: this
        // segment's face contact would measure how far B reaches past its
        // line round the corner (a triangle 1e-4 L above a ledge's side got
        // the top face 0.041 L deep: seed 445841 of the random scenes).
        break;
    }
    case ChainNormal::skip:
        break;
    }
    // The neighbour's, unless B is so deep that the two-sided axes chose a
    // direction outside the chain's map: then the chain face that separates
    // B most takes it, so that deep shapes still get pushed out (B's
    // centroid is in front of this face or a convex neighbour's).
    if (own_face_separates_most(e, b, xfb, settings)) {
        chain_face_contact(m, e, xfa, b, xfb, settings); // (vertex_contact reads no m)
        if (m.count > 0) {
            return;
        }
    }
    m = vertex_contact(chain, e, xfa, b, xfb, settings);
}

// A chain segment (A) against a circle, capsule or polygon (B). Its
// answer is built in `m`, the one object every path returns, so that the
// two-sided contact is made where the caller wants it and the common paths
// copy no Manifold: a copy reads back, in wide loads, fields just written
// one by one, which the processor cannot forward from its stores (with
// the chain's ends made only for a contact, 9 % of a chain collide's time).
Manifold collide_chain(const ChainSegment& chain, const Transform& xfa, const Shape& b,
                       const Transform& xfb, const CollideSettings& settings) {
    // Most pairs are apart: the two-sided contact first, and the chain's
    // ends and ghosts only for a contact to judge. (Without one, a shape
    // behind the segment has no contact either.)
    Manifold m = collide_two_sided(chain.segment, xfa, b, xfb, settings);
    if (m.count > 0) {
        judge_chain_contact(m, chain, xfa, b, xfb, settings);
    }
    return m;
}

// One face of a polygon as a chain segment whose ghosts continue it
// straight on at both ends: a flat joint, so nothing beyond the ends.
ChainEnds flush_face_ends(const Polygon& polygon, const Transform& xf, int face) {
    ChainEnds e;
    e.p1 = transform_point(xf, polygon.vertices[face]);
    e.p2 = transform_point(xf, polygon.vertices[face + 1 < polygon.count ? face + 1 : 0]);
    e.length = distance(e.p1, e.p2);
    e.tangent = normalize(e.p2 - e.p1);
    e.normal = right_perp(e.tangent);
    e.ghost1 = e.p1 - e.tangent;
    e.ghost2 = e.p2 + e.tangent;
    e.normal0 = e.normal;
    e.normal2 = e.normal;
    return e;
}

// A zero-length segment or capsule (not made by a factory) as the circle it
// is: its point, or its disc. Its polygon form would have no normals.
bool is_point_like(const Shape& shape) {
    switch (shape.type) {
    case ShapeType::capsule:
        return normalize(shape.capsule.center2 - shape.capsule.center1) == Vec2{};
    case ShapeType::segment:
        return normalize(shape.segment.p2 - shape.segment.p1) == Vec2{};
    default:
        return false;
    }
}

Circle point_like_circle(const Shape& shape) {
    return shape.type == ShapeType::capsule ? Circle{shape.capsule.center1, shape.capsule.radius}
                                            : Circle{shape.segment.p1, 0};
}

// collide() for the rest: edges, point-like shapes, capsules and segments.
// Not inlined: its shape and polygon-form copies made collide() save and
// reserve more for every pair (10 instructions of a chain collide).
[[gnu::noinline]] Manifold collide_edges_and_cores(const Shape& a, const Transform& xfa,
                                                   const Shape& b, const Transform& xfb,
                                                   const CollideSettings& settings) {
    const bool a_edge = a.type == ShapeType::segment || a.type == ShapeType::chain_segment;
    const bool b_edge = b.type == ShapeType::segment || b.type == ShapeType::chain_segment;
    if (a_edge && b_edge) {
        return {}; // edges are static geometry: they never meet each other
    }
    const bool point_a = is_point_like(a);
    const bool point_b = is_point_like(b);
    if (point_a || point_b) {
        const Shape pa = point_a ? Shape(point_like_circle(a)) : a;
        const Shape pb = point_b ? Shape(point_like_circle(b)) : b;
        return collide(pa, xfa, pb, xfb, settings);
    }
    if (a.type == ShapeType::chain_segment) {
        return collide_chain(a.chain_segment, xfa, b, xfb, settings);
    }
    if (b.type == ShapeType::chain_segment) {
        return flipped([&] { return collide_chain(b.chain_segment, xfb, a, xfa, settings); });
    }
    // Left: a capsule or segment against a capsule, segment, polygon or
    // circle, or the reverse. Two of them meet through their cores' closest
    // points; one meets a solid through its polygon form, made once, where
    // it stays (a capsule character on a tile: its zeroed spare forms and
    // their copies were a fifth of the call).
    const bool core_a = a.type == ShapeType::capsule || a.type == ShapeType::segment;
    const bool core_b = b.type == ShapeType::capsule || b.type == ShapeType::segment;
    if (core_a && core_b) {
        return collide_capsules(*as_capsule(a), xfa, *as_capsule(b), xfb, settings);
    }
    if (core_b) {
        const Polygon form_b = core_polygon(b);
        return collide_solids(a, solid_polygon(a), xfa, b, &form_b, xfb, settings);
    }
    const Polygon form_a = core_polygon(a);
    return collide_solids(a, &form_a, xfa, b, solid_polygon(b), xfb, settings);
}

} // namespace

Manifold collide(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
                 const CollideSettings& settings) {
    if (!is_finite(xfa) || !is_finite(xfb)) {
        return {}; // nothing is known about where the shapes are
    }
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
        return flipped(
            [&] { return collide_polygon_circle(b.polygon, xfb, a.circle, xfa, settings); });
    }
    if (a.type == ShapeType::capsule && b.type == ShapeType::circle) {
        return collide_capsule_circle(a.capsule, xfa, b.circle, xfb, settings);
    }
    if (a.type == ShapeType::circle && b.type == ShapeType::capsule) {
        return flipped(
            [&] { return collide_capsule_circle(b.capsule, xfb, a.circle, xfa, settings); });
    }
    // A level's ground against a body, directly: a polygon or circle is
    // neither an edge nor point-like.
    const bool b_solid = b.type == ShapeType::polygon || b.type == ShapeType::circle;
    if (a.type == ShapeType::chain_segment && b_solid) {
        return collide_chain(a.chain_segment, xfa, b, xfb, settings);
    }
    const bool a_solid = a.type == ShapeType::polygon || a.type == ShapeType::circle;
    if (b.type == ShapeType::chain_segment && a_solid) {
        return flipped([&] { return collide_chain(b.chain_segment, xfb, a, xfa, settings); });
    }
    return collide_edges_and_cores(a, xfa, b, xfb, settings);
}

Manifold collide_face(const Shape& a, const Transform& xfa, const Polygon& b, const Transform& xfb,
                      int face_b, const CollideSettings& settings) {
    if (face_b < 0 || face_b >= b.count || a.type == ShapeType::segment ||
        a.type == ShapeType::chain_segment) {
        return {};
    }
    const ChainEnds e = flush_face_ends(b, xfb, face_b);
    if (e.tangent == Vec2{}) {
        return {};
    }
    Manifold m;
    chain_face_points(m, e, xfb, a, xfa, settings);
    flip(m);
    return m;
}

} // namespace sweep
