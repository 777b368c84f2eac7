// World::move's narrowphase: the general form on GJK and manifolds, and the
// closed form for two axis-aligned boxes (see move_narrowphase.hpp).
//
// The closed form mirrors each rule of the general one for boxes. With
// gaps along the axes (positive: apart), B starting within the cast's band
// of A (closer than 1.5 touch tolerances) meets it at t = 0 when it presses
// into the face between them, and otherwise not at all; B starting farther
// meets it when the gap along the axis it enters last reaches one touch
// tolerance, if the boxes then overlap along the other axis (a face, not a
// corner); a face separating them within the touch tolerance that the
// motion does not close is a graze at any time. Wherever a quantity lies
// within rounding of a threshold of these rules (the general form computes
// it in A's frame, through GJK), the answer is `undecided`.
#include "move_narrowphase.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core_separation.hpp"
#include "manifold_faces.hpp"
#include "move_round_box.hpp"
#include "sweep/manifold.hpp"

namespace sweep::detail {
namespace {

// A proxy's points placed in the world, with its count and radius: what
// gap_along reads, placed once for the many normals grazes tries (placed
// for each, gap_along was a tenth of an octagon character's instructions).
struct PlacedProxy {
    std::array<Vec2, k_max_polygon_vertices> points;
    int count = 0;
    real radius = 0;
};

PlacedProxy place(const ShapeProxy& p, const Transform& xf) {
    return {placed_points(p, xf), p.count, p.radius};
}

// A's farthest reach along n (its points only).
real farthest_along(const PlacedProxy& a, Vec2 n) {
    real most = -std::numeric_limits<real>::max();
    for (int i = 0; i < a.count; ++i) {
        most = std::max(most, dot(n, a.points[i]));
    }
    return most;
}

// Gap between two placed proxies along n (from A to B), radii included.
real gap_along(const PlacedProxy& a, const PlacedProxy& b, Vec2 n) {
    const real max_a = farthest_along(a, n);
    real min_b = std::numeric_limits<real>::max();
    for (int i = 0; i < b.count; ++i) {
        min_b = std::min(min_b, dot(n, b.points[i]));
    }
    return min_b - max_a - a.radius - b.radius;
}

real gap_along(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b, const Transform& xfb,
               Vec2 n) {
    return gap_along(place(a, xfa), place(b, xfb), n);
}

// gap_along(a, b, n) >= least, to the bit, stopping at the first point of
// B that brings the gap below `least`: each point's gap, computed as the
// gap is, is no less than the gap (rounding keeps the order of its terms).
// (A proxy has at least one point.)
bool gap_at_least(const PlacedProxy& a, const PlacedProxy& b, Vec2 n, real least) {
    const real max_a = farthest_along(a, n);
    for (int i = 0; i < b.count; ++i) {
        if (dot(n, b.points[i]) - max_a - a.radius - b.radius < least) {
            return false;
        }
    }
    return true;
}

// Whether an edge normal n of either shape (A's outward, B's inward: from
// A to B, rotated from the proxy's edge and normalized, in that order)
// separates A and B (placed) by at least `least_gap` while the motion closes
// along it by at most `most_closing` (dot(motion, n) >= -most_closing). An
// edge the motion clearly closes on faster, by over four times that for its
// length, is passed over before it is normalized: its normal would fail the
// test, rounding and all (for grazes(), whose `most_closing` is 1e-6 of the
// motion's length, about 8 float ulps, the two readings of the closing
// differ by at most about 10 ulps of it).
bool some_face_separates(const ShapeProxy& a, const Transform& xfa, const PlacedProxy& placed_a,
                         const ShapeProxy& b, const Transform& xfb, const PlacedProxy& placed_b,
                         Vec2 motion, real most_closing, real least_gap) {
    const auto separates = [&](const ShapeProxy& p, const Transform& xf, real sign) {
        for (int i = 0; p.count >= 2 && i < p.count; ++i) {
            const int next = i + 1 < p.count ? i + 1 : 0; // (not %: a division each edge)
            const Vec2 edge = right_perp(p.points[next] - p.points[i]);
            const real closing = sign * dot(motion, rotate(xf.q, edge));
            // (|edge| <= |edge.x| + |edge.y|: no root, no square to underflow.)
            if (closing < -4 * most_closing * (std::abs(edge.x) + std::abs(edge.y))) {
                continue;
            }
            const Vec2 n = sign * rotate(xf.q, normalize(edge));
            if (dot(motion, n) >= -most_closing && gap_at_least(placed_a, placed_b, n, least_gap)) {
                return true;
            }
        }
        return false;
    };
    return separates(a, xfa, 1) || separates(b, xfb, -1);
}

} // namespace

bool grazes(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b, const Transform& xfb,
            Vec2 motion, real tolerance) {
    return some_face_separates(a, xfa, place(a, xfa), b, xfb, place(b, xfb), motion,
                               k_along_cosine * length(motion), -tolerance);
}

bool grazes_all_along(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b,
                      const Transform& xfb, Vec2 motion, real tolerance) {
    const PlacedProxy placed_a = place(a, xfa);
    const PlacedProxy placed_b = place(b, xfb);
    real scale = std::abs(motion.x) + std::abs(motion.y);
    for (const PlacedProxy* p : {&placed_a, &placed_b}) {
        for (int i = 0; i < p->count; ++i) {
            scale = std::max({scale, std::abs(p->points[i].x), std::abs(p->points[i].y)});
        }
    }
    const real margin = 16 * std::numeric_limits<real>::epsilon() * (scale + 1);
    return some_face_separates(a, xfa, placed_a, b, xfb, placed_b, motion, 0, margin - tolerance);
}

namespace {

// Whether B, hit at pose `at_hit` a touch tolerance early along `hit`'s
// normal, only grazes A where that gap closes, farther along the motion
// (and within it): a shallow motion finds a corner's extended face within
// the tolerance while still overlapping the face beside it by the
// tolerance times the slope, so grazes() at the hit sees no separating
// face; where the gap closes, the corners meet exactly and part (a box
// falling past a ledge's corner at 14:1 was stopped on the ledge's top
// face extended, hovering 0.125 L over the gap).
bool grazes_where_it_closes(const PlacedShape& a, const PlacedShape& b, const Transform& at_hit,
                            Vec2 motion, const CastOutput& hit, const Tolerances& tol) {
    const real approach = -dot(motion, hit.normal);
    const real gap = gap_along(*a.proxy, a.xf, *b.proxy, at_hit, hit.normal);
    if (!(approach > 0) || !(gap > real(0.5) * tol.touch_tolerance) ||
        gap > approach * (1 - hit.fraction)) {
        return false; // (within half a tolerance: grazes() at the hit has seen it)
    }
    Transform closed = at_hit;
    closed.p += (gap / approach) * motion;
    return grazes(*a.proxy, a.xf, *b.proxy, closed, motion, tol.touch_tolerance);
}

// Whether `normal` is the cores' normal of polygon A and capsule B: it is
// the normal n of a face of A, and the end of B's core nearest that face's
// line lies beyond it and over the face, clear of its ends (by rounding's
// margin). Then the cores' closest points are that end and its foot on the
// face: A lies behind the line and the rest of the core no nearer it, so
// no pair of points is nearer than that end's height over the face, along
// n. (An upright capsule on a floor of tiles, or against a wall: GJK gave
// the same normal, rounded.)
bool face_holds_core(const PlacedShape& a, const PlacedShape& b, Vec2 normal) {
    if (a.shape->type != ShapeType::polygon || b.shape->type != ShapeType::capsule) {
        return false;
    }
    const Polygon& p = a.shape->polygon;
    for (int i = 0; i < p.count; ++i) {
        if (rotate(a.xf.q, p.normals[static_cast<std::size_t>(i)]) != normal) {
            continue;
        }
        const Vec2 v1 = transform_point(a.xf, p.vertices[static_cast<std::size_t>(i)]);
        const Vec2 v2 =
            transform_point(a.xf, p.vertices[static_cast<std::size_t>((i + 1) % p.count)]);
        const Vec2 e1 = transform_point(b.xf, b.shape->capsule.center1);
        const Vec2 e2 = transform_point(b.xf, b.shape->capsule.center2);
        const real h1 = dot(normal, e1 - v1);
        const real h2 = dot(normal, e2 - v1);
        const Vec2 end = h1 <= h2 ? e1 : e2;
        // (16 roundings of the largest coordinate, as box_rounding.)
        const auto largest = [](Vec2 v) { return std::max(std::abs(v.x), std::abs(v.y)); };
        const real margin = 16 * std::numeric_limits<real>::epsilon() *
                            (1 + std::max({largest(v1), largest(v2), largest(end)}));
        const Vec2 along = v2 - v1;
        const real reach = margin * length(along);
        return std::min(h1, h2) > margin && dot(along, end - v1) > reach &&
               dot(along, end - v2) < -reach;
    }
    return false;
}

// The cores' closest points (GJK) where a move takes their normal for a
// contact whose manifold's normal is `normal`: when the shapes are rounded
// and their cores lie apart (the exact contact normal then); none where it
// keeps the manifold's. collide() gives
// rounded shapes that are nearly parallel (within about 3 degrees) two
// points on a face's normal, though they touch where their cores are
// nearest: a capsule's side against the end of a segment tilted 2.5
// degrees from it got the segment's normal, and a slide along it took the
// capsule 0.076 L into the segment's end; and a slide along a face normal
// a hair off the cores' (a rounded box on a turned platform) drifts into
// it as far as it goes. A chain segment keeps its manifold's normal, which
// its ghosts smooth over the joints. A circle's manifold already has the
// cores' normal, its centre's to the other core's nearest point (a face's
// normal beside a face, from a corner or core point elsewhere), so it
// needs no GJK: that was a tenth of a disc character's move. Nor does a
// capsule over a polygon's face (face_holds_core).
std::optional<DistanceOutput> apart_cores(const PlacedShape& a, const PlacedShape& b, Vec2 normal) {
    if (a.shape->type == ShapeType::chain_segment ||
        (a.proxy->radius == 0 && b.proxy->radius == 0) || a.shape->type == ShapeType::circle ||
        b.shape->type == ShapeType::circle || face_holds_core(a, b, normal)) {
        return std::nullopt;
    }
    SimplexCache cache;
    const DistanceOutput cores = distance({*a.proxy, *b.proxy, a.xf, b.xf, false}, cache);
    return cores.state == DistanceState::separated ? std::optional(cores) : std::nullopt;
}

// The normal a move takes for a contact whose manifold's normal is
// `normal` (apart_cores).
Vec2 contact_normal(const PlacedShape& a, const PlacedShape& b, Vec2 normal) {
    const std::optional<DistanceOutput> cores = apart_cores(a, b, normal);
    return cores ? cores->normal : normal;
}

} // namespace

Vec2 on_surface_of(const PlacedShape& a, Vec2 p) {
    ShapeProxy point;
    point.points[0] = p;
    point.count = 1;
    SimplexCache cache;
    const DistanceOutput core = distance({*a.proxy, point, a.xf, Transform{}, false}, cache);
    if (core.state == DistanceState::cores_overlap) {
        return p;
    }
    const Vec2 out = normalize(p - core.point_a);
    return out == Vec2{} ? core.point_a : core.point_a + a.proxy->radius * out;
}

namespace {

// GJK's normal is unreliable at zero distance, so a cast that starts
// exactly touching (a box standing on a floor) and moves into the surface
// can come back a miss; then the box would sink by the whole move. The
// manifold's face normal decides whether the motion enters. So too for a
// start touching but overlapping by more than the cast's own band (half a
// touch tolerance), which the cast reports as overlapped: without a hit the
// mover would pass into the shape (a box beside a wall, its side 0.9 touch
// tolerances inside it, moving into the wall); and, when `deep_blocks`, for
// a start overlapping deeper still (a move's push-out comes first, so only
// what a move or carry could not resolve): going deeper is refused rather
// than let through. The manifold is left in `touching`.
std::optional<CastOutput> touching_hit(const PlacedShape& a, const PlacedShape& b, Vec2 motion,
                                       bool deep_blocks, const Tolerances& tol,
                                       TouchingManifold& touching) {
    const Manifold& m = touching.set(
        collide(*a.shape, a.xf, *b.shape, b.xf, {tol.touch_tolerance, tol.linear_slop}));
    if (m.count == 0) {
        return std::nullopt;
    }
    const Vec2 normal = contact_normal(a, b, m.normal);
    if (dot(motion, normal) >= -k_tangent_cosine * length(motion)) {
        return std::nullopt;
    }
    for (int i = 0; i < m.count && !deep_blocks; ++i) {
        if (m.points[i].separation < -tol.touch_tolerance) {
            return std::nullopt;
        }
    }
    CastOutput out;
    out.state = CastState::hit;
    out.fraction = 0;
    out.normal = normal;
    out.point = on_surface_of(a, m.points[0].point);
    return out;
}

// The cast of cast_to_contact: shape_cast stopping a touch tolerance short
// (GJK's normal is unreliable at zero distance; the move closes that gap
// along the motion), in closed form for a round mover against a known box.
// (`round`: round_on_box(a, b).)
CastOutput cast(const PlacedShape& a, const PlacedShape& b, const std::optional<RoundOnBox>& round,
                Vec2 motion, const Tolerances& tol) {
    const real target = tol.touch_tolerance;
    const real tolerance = real(0.5) * tol.touch_tolerance;
    if (round) {
        if (const std::optional<CastOutput> out = round->cast(motion, target, tolerance)) {
            return *out;
        }
    }
    ShapeCastInput input;
    input.proxy_a = *a.proxy;
    input.proxy_b = *b.proxy;
    input.xf_a = a.xf;
    input.xf_b = b.xf;
    input.translation_b = motion;
    input.target_separation = target;
    input.touch_tolerance = tolerance;
    return shape_cast(input);
}

// What a move reads of a manifold.
ContactMeasure measure_of(const Manifold& m) {
    ContactMeasure out;
    out.count = m.count;
    if (m.count > 0) {
        out.normal = m.normal;
        out.separation = std::min(m.points[0].separation, m.points[m.count - 1].separation);
    }
    if (m.count == 2) {
        out.surface_area = distance(m.points[0].point, m.points[1].point);
    }
    return out;
}

real coordinate(Vec2 v, int axis) { return axis == 0 ? v.x : v.y; }

// Whether the unit `n` (world) is within k_face_cosine of a face's outward
// normal of `shape` placed by `xf`: a polygon's, either side of a capsule's
// or segment's core; a circle has none.
bool is_face_normal(const Shape& shape, const Transform& xf, Vec2 n) {
    const Vec2 local = inv_rotate(xf.q, n);
    bool face = false;
    for_each_face_normal(shape, [&](Vec2 f) { face = face || dot(local, f) >= k_face_cosine; });
    return face;
}

// parallel_faces_overlap(ref, incident, linear_slop) for the facing faces
// of two boxes, running along `across`, from the same products: the faces
// are exactly anti-parallel (their ends' gaps differ by zero, within any
// positive slop), and each dot product with the reference face is its
// `across` term alone (the other term is a zero, which changes no
// comparison).
bool box_faces_overlap(const ReferenceFace& ref, const PlacedFace& incident, int across) {
    const real start = coordinate(ref.face.v1, across);
    const real tangent = coordinate(ref.face.v2, across) - start;
    const real p1 = tangent * (coordinate(incident.v1, across) - start);
    const real p2 = tangent * (coordinate(incident.v2, across) - start);
    const real lo = std::max(real(0), std::min(p1, p2));
    const real hi = std::min(tangent * tangent, std::max(p1, p2));
    return hi > lo;
}

// clip_segment_at on the ends alone (a measure reads no ids), in place:
// false when fewer than two are left. Two are left when both ends are kept
// or when d1 * d2 < 0, which makes one distance negative and the other
// positive, so that one end is kept and the cut follows it.
bool clip_ends_at(Vec2& e1, Vec2& e2, real d1, real d2) {
    if (d1 <= 0 && d2 <= 0) {
        return true;
    }
    if (!(d1 * d2 < 0)) {
        return false;
    }
    const Vec2 cut = lerp(e1, e2, d1 / (d1 - d2));
    e1 = d1 <= 0 ? e1 : e2;
    e2 = cut;
    return true;
}

// clip_to_reference_face(ref, 0, ends) for the facing faces of two boxes,
// running along `across`, on the incident face's ends `e1` and `e2`: the
// sides' planes are across the face, so each end's distance beyond a side
// is the difference of their `across` coordinates, signed by the face's
// tangent (the generic dot products add only zeros and multiply by one,
// and the clipping reads the distances' values alone). The clipped ends
// are clip_segment's.
bool clip_to_box_face(const ReferenceFace& ref, int across, Vec2& e1, Vec2& e2) {
    const real tangent = coordinate(left_perp(ref.normal), across); // +-1
    const real side1 = coordinate(ref.face.v1, across);
    const real side2 = coordinate(ref.face.v2, across);
    return clip_ends_at(e1, e2, tangent * (side1 - coordinate(e1, across)),
                        tangent * (side1 - coordinate(e2, across))) &&
           clip_ends_at(e1, e2, tangent * (coordinate(e1, across) - side2),
                        tangent * (coordinate(e2, across) - side2));
}

// measure_of(collide_faces(...)) for the facing faces of two boxes, running
// along `across`, that collide_faces clips (parallel and overlapping, or
// cores within a tenth of the slop), with A's face the reference, from the
// same arithmetic but for the manifold's anchors and ids, which a measure
// does not read. Both clipped ends lie on the incident face, at one gap
// from the reference face and one separation (the same values, computed
// alike), so the first decides whether both are kept and gives the
// separation (collide_faces' least of two equal ones: the first). The
// feature is the other's face: the normal is an axis exactly. None where
// collide_faces gives no points: the clip left nothing (corner to corner),
// where collide() then meets the cores at their closest points by GJK,
// whose rounding the closed form does not follow (the general path
// decides), or the ends lie beyond the speculative distance.
std::optional<ContactMeasure> measure_clipped(const ReferenceFace& ref, const PlacedFace& incident,
                                              int across, real speculative_distance) {
    Vec2 e1 = incident.v1;
    Vec2 e2 = incident.v2;
    if (!clip_to_box_face(ref, across, e1, e2)) {
        return std::nullopt;
    }
    const FacePoint first = face_point(ref, 0, 0, e1);
    if (first.gap > speculative_distance) {
        return std::nullopt;
    }
    const FacePoint second = face_point(ref, 0, 0, e2);
    // As make_point: the points midway, the separation along the normal.
    ContactMeasure out;
    out.count = 2;
    out.normal = ref.normal;
    out.separation = dot(first.on_inc - first.on_ref, ref.normal);
    out.surface_area = distance(real(0.5) * (first.on_ref + first.on_inc),
                                real(0.5) * (second.on_ref + second.on_inc));
    out.feature = ContactFeature::other_face;
    return out;
}

// --- The closed form for two axis-aligned boxes ---

constexpr real k_epsilon = std::numeric_limits<real>::epsilon();

// GJK's normal between shapes `distance` apart is off by about its closest
// points' rounding over the distance; this bounds that rounding (in units
// of the largest coordinate in A's frame) with room to spare.
constexpr real k_gjk_rounding_ulps = 64;

// signed_separation's switch from GJK to the separating axes: witness
// points closer than this many roundings of the largest body position.
constexpr real k_gjk_noise_ulps = 64;

Vec2 axis_normal(int axis, real sign) { return axis == 0 ? Vec2{sign, 0} : Vec2{0, sign}; }

// The largest coordinate of A and of B over its motion (`b.swept`),
// relative to `origin`. Rounding keeps the order of what it subtracts the
// origin from, so only the least lower and the greatest upper corner count,
// and of those -lower or upper along each axis (lower <= upper).
real extent(const Aabb& a, const MoverBox& b, Vec2 origin) {
    const Vec2 lower = min(a.lower, b.swept.lower) - origin;
    const Vec2 upper = max(a.upper, b.swept.upper) - origin;
    return std::max(std::max(upper.x, upper.y), -std::min(lower.x, lower.y));
}

real gap(AxisGaps g) { return std::max(g.below, g.above); }

// The gaps after B moved by `d` along the axis.
AxisGaps moved(AxisGaps g, real d) { return {g.below - d, g.above + d}; }

// The gap along an axis after B moved by `d` along it.
real gap_after(AxisGaps g, real d) { return gap(moved(g, d)); }

// True when grazes() clearly finds no face separating the boxes (gaps `g`
// where they meet) that the motion `d` does not close: along each axis
// direction, they overlap deeper than the touch tolerance or the motion
// clearly enters.
bool clear_of_grazes(const std::array<AxisGaps, 2>& g, const std::array<real, 2>& d,
                     real motion_length, real touch, real mu) {
    const real enters = -k_along_cosine * (1 + real(1e-3)) * motion_length;
    for (int axis = 0; axis < 2; ++axis) {
        if ((g[axis].above >= -touch - mu && d[axis] >= enters) ||
            (g[axis].below >= -touch - mu && -d[axis] >= enters)) {
            return false;
        }
    }
    return true;
}

// True when, from gaps `g` at a hit at fraction `t` across `axis`,
// grazes_where_it_closes (cast_to_contact's second graze test) clearly
// finds no graze: the gap along the axis is clearly within half a touch
// tolerance (no second test), clearly closes beyond the motion, or closes
// within it at a pose clear_of_grazes. (Inline: the casts' templates on
// the axis then read the gaps from registers.)
[[gnu::always_inline]] inline bool
clear_of_grazes_where_it_closes(const std::array<AxisGaps, 2>& g, const std::array<real, 2>& d,
                                int axis, real t, real motion_length, real touch, real mu) {
    const real approach = std::abs(d[axis]);
    const real now = gap(g[axis]);
    const real left = approach * (1 - t);
    if (now < real(0.5) * touch - mu) {
        return true;
    }
    if (now <= real(0.5) * touch + mu || std::abs(now - left) <= mu) {
        return false;
    }
    if (now > left) {
        return true;
    }
    const real f = now / approach;
    const std::array<AxisGaps, 2> closed{moved(g[0], f * d[0]), moved(g[1], f * d[1])};
    return clear_of_grazes(closed, d, motion_length, touch, mu);
}

// The times [enter, exit] (of a motion by `d` along the axis) during which
// B is within `r` of A along it; empty (enter > exit) when never.
struct Span {
    real enter = 0;
    real exit = 0;
};

Span within(AxisGaps g, real d, real r) {
    constexpr real inf = std::numeric_limits<real>::infinity();
    if (d > 0) {
        return {(g.below - r) / d, (r - g.above) / d};
    }
    if (d < 0) {
        return {(r - g.above) / d, (g.below - r) / d};
    }
    return g.below <= r && g.above <= r ? Span{-inf, inf} : Span{inf, -inf};
}

// The middle of the common stretch of A's face across `axis` (on its
// `sign` side) and B's facing one, B moved by `offset`: on A's surface.
// (Inline: a call from either contact's path spills the cast's state.)
[[gnu::always_inline]] inline Vec2 face_middle(const Aabb& a, const Aabb& b, Vec2 offset, int axis,
                                               real sign) {
    const int across = 1 - axis;
    const real from = std::max(coordinate(a.lower, across), coordinate(b.lower + offset, across));
    const real to = std::min(coordinate(a.upper, across), coordinate(b.upper + offset, across));
    const real face = sign > 0 ? coordinate(a.upper, axis) : coordinate(a.lower, axis);
    const real middle = real(0.5) * (from + to);
    return axis == 0 ? Vec2{face, middle} : Vec2{middle, face};
}

BoxCast contact_at(real t, Vec2 normal, Vec2 point) {
    return {BoxVerdict::contact, {t, normal, point}};
}

// The face of `box` across `axis` on its `sign` side, as a polygon of the
// box lists it: counter-clockwise, so the right face runs up, the top one
// left, the left one down and the bottom one right. (Vertex indices, for
// contact ids only, are not known here.)
PlacedFace box_face(const Aabb& box, int axis, real sign) {
    const Vec2 lo = box.lower;
    const Vec2 hi = box.upper;
    if (axis == 0) {
        return sign > 0 ? PlacedFace{{hi.x, lo.y}, hi} : PlacedFace{{lo.x, hi.y}, lo};
    }
    return sign > 0 ? PlacedFace{hi, {lo.x, hi.y}} : PlacedFace{lo, {hi.x, lo.y}};
}

// cast_boxes_past_grazes for boxes that start overlapping by more than
// half a touch tolerance (start, their gap, below -touch/2 beyond
// rounding): the general form's cast reports them overlapped and
// touching_hit decides (deep_blocks: the closed form is not used for
// one-way platforms), from collide()'s face (the axis they overlap least
// along, exactly) whether the motion enters: a contact at t = 0 then,
// unless a graze undoes it. (Out of line, as the other rare cases: they
// would crowd the common ones' registers.)
[[gnu::noinline]] BoxCast touching_boxes(const Aabb& a, const MoverBox& mover, Vec2 motion,
                                         const Tolerances& tol, const std::array<AxisGaps, 2>& g,
                                         real mu) {
    constexpr BoxCast none{BoxVerdict::none, {}};
    constexpr BoxCast undecided{BoxVerdict::undecided, {}};
    const real touch = tol.touch_tolerance;
    const real gx = gap(g[0]);
    const real gy = gap(g[1]);
    const int k = gx >= gy ? 0 : 1;
    // Near the touch tolerance's depth, near a tie of the two axes or of
    // the two sides, or with the other axis also within touching (where
    // the graze rules and the corner decide), rounding may choose.
    if (std::abs(gx - gy) <= mu || std::abs(g[k].above - g[k].below) <= mu ||
        gap(g[1 - k]) >= -touch - mu) {
        return undecided;
    }
    const real sign = g[k].above > g[k].below ? 1 : -1;
    const Vec2 n = axis_normal(k, sign);
    const real motion_length = length(motion);
    const real into = dot(motion, n) / motion_length;
    if (std::abs(into + k_tangent_cosine) <= k_along_cosine) {
        return undecided; // touching_hit's and cast_to_contact's tangent tests round apart
    }
    if (into > -k_tangent_cosine) {
        return none; // along the face or away
    }
    const std::array<real, 2> d{motion.x, motion.y};
    if (!clear_of_grazes(g, d, motion_length, touch, mu)) {
        return undecided;
    }
    return contact_at(0, n, face_middle(a, mover.box, {}, k, sign));
}

// Boxes whose corners meet exactly (gaps 0 along both axes), past the
// graze rule: B moves into both of A's faces there. No face separates
// them, and the general form's normal would be GJK's guess at zero
// distance, which rounding decides (three quarters of its calls in a
// character driver). So the closed form defines it: the face B closes on
// faster (ties: x), as swept_aabb picks, met at once at the corner; a
// motion closing on either face by no more than k_along_cosine of its
// length runs along it, a graze.
[[gnu::noinline]] BoxCast corner_touch(const Aabb& a, const std::array<AxisGaps, 2>& g,
                                       const std::array<real, 2>& d, real motion_length) {
    const real along = k_along_cosine * motion_length;
    const real sx = g[0].above >= g[0].below ? 1 : -1; // B's side of A along x
    const real sy = g[1].above >= g[1].below ? 1 : -1;
    const real close_x = -sx * d[0];
    const real close_y = -sy * d[1];
    if (close_x <= along || close_y <= along) {
        return {BoxVerdict::none, {}};
    }
    const int axis = close_x >= close_y ? 0 : 1;
    const Vec2 corner{sx > 0 ? a.upper.x : a.lower.x, sy > 0 ? a.upper.y : a.lower.y};
    return contact_at(0, axis_normal(axis, axis == 0 ? sx : sy), corner);
}

// measure_faces for faces that collide_faces does not clip (cores apart by
// more than a tenth of the slop, and the faces not overlapping): corners
// that may meet vertex to vertex, through collide_faces itself. (Anchors
// and the local normal come out in the world frame: not used here.) Out of
// line: rare, and its faces go through memory.
[[gnu::noinline]] ContactMeasure measure_vertex_pair(const Aabb& a, const Aabb& b, int axis,
                                                     real sign, real separation, real slop) {
    const Vec2 normal = axis_normal(axis, sign);
    const ReferenceFace ref{box_face(a, axis, sign), normal, normal, Rot{}};
    ContactMeasure m = measure_of(collide_faces(ref, box_face(b, axis, -sign), separation, false,
                                                Transform{}, Transform{}, {slop, slop}));
    m.feature = box_feature(m.normal);
    return m;
}

// The rest of measure_across: collide()'s own, on the faces' exact corners,
// with A's face across `Axis` on its `Side` (+-1) the reference and B's the
// incident face, their cores `separation` apart. A template on the face,
// flattened (every helper inlined), so that each of the four selects no
// corner at run time and folds the normal's coordinates into the
// arithmetic, which the compiler does only where IEEE arithmetic gives the
// same bits (x * 1, x - (+0), 0 * 0): the operations stay collide()'s.
template <int Axis, int Side>
[[gnu::flatten]] std::optional<ContactMeasure> measure_faces(const Aabb& a, const Aabb& b,
                                                             real separation, real slop) {
    constexpr real sign = Side;
    const Vec2 normal = axis_normal(Axis, sign);
    const ReferenceFace ref{box_face(a, Axis, sign), normal, normal, Rot{}};
    const PlacedFace incident = box_face(b, Axis, -sign);
    if (separation > real(0.1) * slop && !box_faces_overlap(ref, incident, 1 - Axis)) {
        return measure_vertex_pair(a, b, Axis, sign, separation, slop);
    }
    return measure_clipped(ref, incident, 1 - Axis, slop);
}

// The rest of measure_boxes for boxes whose gap across `Axis` (gaps `g`)
// is clearly the larger: the rounding checks of B's side and of the
// separation against the slop's two thresholds, then the faces on B's
// side. A template on the axis: no gap is selected at run time. (The
// checks are [[unlikely]]: GCC, guessing each an even chance, took the
// measure that follows them for cold code and called sqrtf rather than
// inline the instruction.)
template <int Axis>
std::optional<ContactMeasure> measure_across(const Aabb& a, const Aabb& b, AxisGaps g, real mu,
                                             real slop) {
    const real separation = gap(g);
    if (std::abs(g.above - g.below) <= mu || std::abs(separation - slop) <= mu ||
        std::abs(separation - real(0.1) * slop) <= mu) [[unlikely]] {
        return std::nullopt;
    }
    if (separation > slop) {
        return ContactMeasure{};
    }
    return g.above > g.below ? measure_faces<Axis, 1>(a, b, separation, slop)
                             : measure_faces<Axis, -1>(a, b, separation, slop);
}

// The rest of boxes_apart once B enters the touch tolerance of A along
// `axis` last, at `t` (of the motion), having entered the band at
// `band_enter`. (A template: with the axis known, the compiler keeps the
// gaps and the motion in registers rather than indexing them.)
template <int axis>
[[gnu::always_inline]] inline BoxCast
boxes_enter(const OtherBox& shape_a, const MoverBox& mover, Vec2 motion, const Tolerances& tol,
            const std::array<AxisGaps, 2>& g, real mu, real band_enter, real t) {
    constexpr BoxCast undecided{BoxVerdict::undecided, {}};
    constexpr int other = 1 - axis;
    const real touch = tol.touch_tolerance;
    const std::array<real, 2> d{motion.x, motion.y};
    // A face all the way from the band to the contact: the general form's
    // advancement then stops on it (anywhere in the band), as a face.
    if (gap_after(g[other], band_enter * d[other]) > -mu ||
        gap_after(g[other], t * d[other]) >= -touch - mu) {
        return undecided;
    }
    const real sign = d[axis] < 0 ? 1 : -1; // B comes from the positive side when moving down
    const Vec2 n = axis_normal(axis, sign);
    const real tilt =
        k_gjk_rounding_ulps * k_epsilon * (1 + extent(shape_a.box, mover, shape_a.origin)) / touch;
    const std::array<AxisGaps, 2> at_contact{moved(g[0], t * d[0]), moved(g[1], t * d[1])};
    const real motion_length = length(motion);
    if (-dot(motion, n) / motion_length <= 2 * k_along_cosine + tilt ||
        !clear_of_grazes(at_contact, d, motion_length, touch, mu) ||
        !clear_of_grazes_where_it_closes(at_contact, d, axis, t, motion_length, touch, mu)) {
        return undecided; // almost along a face: GJK's normal or a graze may undo it
    }
    return contact_at(t, n, face_middle(shape_a.box, mover.box, t * motion, axis, sign));
}

// cast_boxes_past_grazes for boxes starting apart beyond the band: the
// first time the gap reaches a touch tolerance along both axes, if that
// comes within the motion. (Inline: the common case, which a call and
// the other cases' registers would slow.)
[[gnu::always_inline]] inline BoxCast boxes_apart(const OtherBox& shape_a, const MoverBox& mover,
                                                  Vec2 motion, const Tolerances& tol,
                                                  const std::array<AxisGaps, 2>& g, real mu) {
    constexpr BoxCast none{BoxVerdict::none, {}};
    constexpr BoxCast undecided{BoxVerdict::undecided, {}};
    const real touch = tol.touch_tolerance;
    const real band = real(1.5) * touch; // cast_to_contact's: target plus half a tolerance
    // (Each axis's spans side by side: one test of the motion's direction.)
    const Span band_x = within(g[0], motion.x, band + mu);
    const Span touch_x = within(g[0], motion.x, touch);
    const Span band_y = within(g[1], motion.y, band + mu);
    const Span touch_y = within(g[1], motion.y, touch);
    const real band_enter = std::max({band_x.enter, band_y.enter, real(0)});
    if (band_enter > std::min({band_x.exit, band_y.exit, real(1)})) {
        return none; // never within the band
    }
    const real t = std::max(touch_x.enter, touch_y.enter);
    if (!(t <= std::min({touch_x.exit, touch_y.exit, real(1)}))) {
        return undecided; // comes within the band but not to the target: GJK may stop there
    }
    // The axis entered last.
    return touch_x.enter >= touch_y.enter
               ? boxes_enter<0>(shape_a, mover, motion, tol, g, mu, band_enter, t)
               : boxes_enter<1>(shape_a, mover, motion, tol, g, mu, band_enter, t);
}

// A corner apart beyond the band although its larger gap along the axes
// is within it (boxes_near): boxes apart, out of line for so rare a case.
[[gnu::noinline]] BoxCast corner_apart(const OtherBox& a, const MoverBox& b, Vec2 motion,
                                       const Tolerances& tol, const std::array<AxisGaps, 2>& g,
                                       real mu) {
    return boxes_apart(a, b, motion, tol, g, mu);
}

// The rest of boxes_near for boxes starting `start` apart, within the band
// (clearly), whose gap along `axis` is the larger: a contact at t = 0 when
// pressing into the face between them, if there is one (not a corner),
// clearly. (A template, as boxes_enter.)
template <int axis>
BoxCast boxes_press(const OtherBox& shape_a, const MoverBox& mover, Vec2 motion,
                    const Tolerances& tol, const std::array<AxisGaps, 2>& g, real mu, real start) {
    constexpr BoxCast none{BoxVerdict::none, {}};
    constexpr BoxCast undecided{BoxVerdict::undecided, {}};
    const Aabb& a = shape_a.box;
    const real touch = tol.touch_tolerance;
    if (gap(g[1 - axis]) >= -touch - mu) {
        return undecided;
    }
    // GJK gives the normal of shapes at least its noise apart, off by its
    // rounding over the distance; closer, the separating axes give it
    // exactly.
    const real noise = k_gjk_noise_ulps * k_epsilon *
                       (1 + std::max(max_abs(shape_a.origin), max_abs(mover.origin)));
    if (std::abs(start - noise) <= mu) {
        return undecided;
    }
    const real tilt = start < noise
                          ? k_along_cosine
                          : k_along_cosine + k_gjk_rounding_ulps * k_epsilon *
                                                 (1 + extent(a, mover, shape_a.origin)) / start;
    const real sign = g[axis].above >= g[axis].below ? 1 : -1;
    const Vec2 n = axis_normal(axis, sign);
    const real motion_length = length(motion);
    const real into = dot(motion, n) / motion_length;
    if (into > -k_tangent_cosine + tilt) {
        return none; // along the face or away
    }
    const std::array<real, 2> d{motion.x, motion.y};
    if (into > -k_tangent_cosine - tilt || !clear_of_grazes(g, d, motion_length, touch, mu) ||
        !clear_of_grazes_where_it_closes(g, d, axis, 0, motion_length, touch, mu)) {
        return undecided;
    }
    return contact_at(0, n, face_middle(a, mover.box, {}, axis, sign));
}

// cast_boxes_past_grazes for boxes whose larger gap along the axes is
// within the band (or below it beyond rounding): those touching or
// overlapping, corners meeting exactly, and boxes within the band; but a
// corner apart beyond it goes on as boxes apart.
[[gnu::noinline]] BoxCast boxes_near(const OtherBox& a, const MoverBox& b, Vec2 motion,
                                     const Tolerances& tol, const std::array<AxisGaps, 2>& g,
                                     real mu) {
    const real touch = tol.touch_tolerance;
    const real band = real(1.5) * touch;
    const real gx = gap(g[0]);
    const real gy = gap(g[1]);
    const bool corner = gx > 0 && gy > 0;
    const real start = corner ? std::hypot(gx, gy) : std::max(gx, gy);
    if (start < real(-0.5) * touch - mu) {
        return touching_boxes(a.box, b, motion, tol, g, mu);
    }
    if (!(start < band + mu)) {
        return corner_apart(a, b, motion, tol, g, mu);
    }
    if (gx == 0 && gy == 0) {
        return corner_touch(a.box, g, {motion.x, motion.y}, length(motion));
    }
    // Starting within the band: a face between them, clearly, or the
    // general form decides.
    if (start <= real(-0.5) * touch + mu || start > band - mu || corner) {
        return {BoxVerdict::undecided, {}};
    }
    return gx >= gy ? boxes_press<0>(a, b, motion, tol, g, mu, start)
                    : boxes_press<1>(a, b, motion, tol, g, mu, start);
}

} // namespace

std::optional<CastOutput> cast_to_contact(const PlacedShape& a, const PlacedShape& b, Vec2 motion,
                                          bool may_touch, bool deep_blocks, const Tolerances& tol,
                                          TouchingManifold* touching) {
    const std::optional<RoundOnBox> round = round_on_box(a, b);
    if (round && round->held_off(motion, tol.touch_tolerance)) {
        return std::nullopt; // (most of the tiles beside a round character)
    }
    if (!round && may_touch &&
        grazes_all_along(*a.proxy, a.xf, *b.proxy, b.xf, motion, tol.touch_tolerance)) {
        // (The grazes() test below would drop any hit: 57 % of an octagon
        // character's casts, each a shape_cast and often a manifold.)
        return std::nullopt;
    }
    CastOutput out = cast(a, b, round, motion, tol);
    if ((out.state == CastState::miss || out.state == CastState::overlapped) && may_touch) {
        TouchingManifold own_touching;
        out = touching_hit(a, b, motion, deep_blocks, tol, touching ? *touching : own_touching)
                  .value_or(out);
    }
    if (out.state != CastState::hit && out.state != CastState::failed) {
        return std::nullopt;
    }
    if (out.fraction == 0 && dot(normalize(motion), out.normal) > -k_tangent_cosine) {
        return std::nullopt; // sliding along what it touches
    }
    if (round) {
        return round->grazes(round->center + out.fraction * motion, motion, out, tol)
                   ? std::nullopt
                   : std::optional(out);
    }
    Transform at_hit = b.xf;
    at_hit.p += out.fraction * motion;
    if (grazes(*a.proxy, a.xf, *b.proxy, at_hit, motion, tol.touch_tolerance) ||
        grazes_where_it_closes(a, b, at_hit, motion, out, tol)) {
        return std::nullopt;
    }
    return out;
}

bool may_press_into(const PlacedShape& a, const PlacedShape& b, Vec2 motion,
                    const Tolerances& tol) {
    const std::optional<RoundOnBox> round = round_on_box(a, b);
    return !round || round->may_press_into(motion, tol);
}

ContactMeasure measure_contact(const PlacedShape& a, const PlacedShape& b, const Tolerances& tol) {
    if (const std::optional<RoundOnBox> round = round_on_box(a, b)) {
        if (const std::optional<ContactMeasure> m = round->measure(tol.linear_slop)) {
            return *m;
        }
    }
    const CollideSettings settings{tol.linear_slop, tol.linear_slop};
    ContactMeasure m = measure_of(collide(*a.shape, a.xf, *b.shape, b.xf, settings));
    // collide() keeps A's face unless B's separates them by a tenth of a
    // slop more. Apart, that reads the gap a little short and the closing
    // stops short of it; overlapping, it reads the depth a little deep, and
    // a slide along that face keeps the mover that deep: a triangle grazing
    // a segment 0.0196 L deep along its own face (within the touch
    // tolerance) slid on along the segment's at 0.0205, and ended that deep
    // once its own face no longer separated them. Overlapping, the face of
    // least penetration measures: collide() in the other order prefers B's
    // face, and the whole shapes' separation along each normal decides,
    // not the manifolds' points, which are clipped to the reference face
    // (a box over a convex corner, its own corner hanging past it, read as
    // deep on the corner's face as on its own, and slid along the corner's
    // face, 2.8 degrees off level, 0.0246 L into it), however nearly
    // parallel the faces (a box 0.00034 rad off level, 0.0200 L into a
    // tile's bottom at the tile's corner, slid along the tile's face and
    // took its higher corner 0.0214 L under it). (Two axis-aligned boxes'
    // faces are the same axes, so their measure is collide()'s:
    // measure_boxes agrees.)
    if (m.count > 0 && m.separation < 0) {
        ContactMeasure other = measure_of(collide(*b.shape, b.xf, *a.shape, a.xf, settings));
        other.normal = -other.normal;
        if (other.count > 0 && other.normal != m.normal &&
            gap_along(*a.proxy, a.xf, *b.proxy, b.xf, other.normal) >
                gap_along(*a.proxy, a.xf, *b.proxy, b.xf, m.normal)) {
            m = other;
        }
    }
    if (m.count > 0) {
        // Where the cores' normal replaces the manifold's, so does their
        // separation: the manifold's points, clipped to the reference face
        // widened by the radii, read along its normal past the face's end,
        // where the other's round end curves away (a rounded box against a
        // capsule's side read 0.0236 L deep where they were 0.0194).
        if (const std::optional<DistanceOutput> cores = apart_cores(a, b, m.normal)) {
            m.normal = cores->normal;
            m.separation = cores->distance - a.proxy->radius - b.proxy->radius;
        }
        m.feature = is_face_normal(*a.shape, a.xf, m.normal)    ? ContactFeature::other_face
                    : is_face_normal(*b.shape, b.xf, -m.normal) ? ContactFeature::own_face
                                                                : ContactFeature::corners;
    }
    return m;
}

real signed_distance(const PlacedShape& a, const PlacedShape& b) {
    if (const std::optional<RoundOnBox> round = round_on_box(a, b)) {
        if (const std::optional<real> d = round->distance()) {
            return *d;
        }
    }
    // (The casts' separation: exact while the cores are apart, the rounded
    // shapes overlapping or not; a manifold's clipped points are not: a
    // capsule over a chain segment's end read 0.0006 L apart, 0.0014 L deep.)
    SimplexCache cache;
    return signed_separation(*a.proxy, a.xf, *b.proxy, b.xf, inv_mul(a.xf, b.xf), cache).separation;
}

std::optional<Aabb> axis_aligned_box(const Shape& shape, const Transform& xf) {
    if (shape.type != ShapeType::polygon || shape.polygon.count != 4 || shape.polygon.radius != 0) {
        return std::nullopt;
    }
    std::array<Vec2, 4> w{};
    for (int i = 0; i < 4; ++i) {
        w[i] = transform_point(xf, shape.polygon.vertices[i]);
    }
    // Edges alternate between exactly horizontal and exactly vertical.
    const bool first_horizontal = w[0].y == w[1].y;
    for (int i = 0; i < 4; ++i) {
        const Vec2 p = w[i];
        const Vec2 q = w[(i + 1) % 4];
        const bool horizontal = p.y == q.y && p.x != q.x;
        const bool vertical = p.x == q.x && p.y != q.y;
        if (horizontal == vertical || horizontal != (first_horizontal == (i % 2 == 0))) {
            return std::nullopt;
        }
    }
    // And the normals collide() reads are the axes themselves.
    for (int i = 0; i < 4; ++i) {
        const Vec2 n = rotate(xf.q, shape.polygon.normals[i]);
        if (!((std::abs(n.x) == 1 && n.y == 0) || (n.x == 0 && std::abs(n.y) == 1))) {
            return std::nullopt;
        }
    }
    return Aabb{min(min(w[0], w[1]), min(w[2], w[3])), max(max(w[0], w[1]), max(w[2], w[3]))};
}

BoxCast cast_boxes_past_grazes(const OtherBox& a, const MoverBox& b, Vec2 motion,
                               const Tolerances& tol, const std::array<AxisGaps, 2>& g, real mu) {
    // The boxes' gap at the start (`start` of boxes_near) is at least the
    // larger of the axes' gaps: the very one, but for corners apart along
    // both axes, whose hypot is at least as large (rounded faithfully, it
    // is never below a representable lower bound). So where that larger
    // gap passes neither of boxes_near's thresholds, neither does the
    // start, and the common case, apart beyond the band, needs no hypot.
    const real touch = tol.touch_tolerance;
    const real larger = std::max(gap(g[0]), gap(g[1]));
    if (larger < real(1.5) * touch + mu) { // (below the band, so too below -touch / 2)
        return boxes_near(a, b, motion, tol, g, mu);
    }
    return boxes_apart(a, b, motion, tol, g, mu);
}

std::optional<ContactMeasure> measure_boxes(const OtherBox& shape_a, const MoverBox& mover,
                                            const Tolerances& tol, Vec2 cast_normal) {
    const Aabb& a = shape_a.box;
    const Aabb& b = mover.box;
    const real mu = box_rounding(shape_a, mover);
    const std::array<AxisGaps, 2> g = box_gaps(a, b);
    const real gx = gap(g[0]);
    const real gy = gap(g[1]);
    if (gx == 0 && gy == 0 && box_feature(cast_normal) == ContactFeature::other_face) {
        // Corners meeting exactly: the face the cast chose (corner_touch).
        ContactMeasure m;
        m.count = 1;
        m.normal = cast_normal;
        m.feature = ContactFeature::corners;
        return m;
    }
    // collide()'s separating-axis search picks A's face across the axis of
    // the larger gap on the side B is (its separation is the largest; B's
    // faces give the same, so A's stays the reference), drops pairs apart
    // beyond its speculative margin and looks for a vertex pair beyond a
    // tenth of the slop: decided (here and in measure_across) where
    // rounding cannot change any of it.
    if (std::abs(gx - gy) <= mu) [[unlikely]] {
        return std::nullopt;
    }
    return gx >= gy ? measure_across<0>(a, b, g[0], mu, tol.linear_slop)
                    : measure_across<1>(a, b, g[1], mu, tol.linear_slop);
}

} // namespace sweep::detail
