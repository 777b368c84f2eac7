// World::move's closed forms for axis-aligned boxes and for discs against
// them (src/move_narrowphase.hpp) against its general form on the same
// inputs: many random fixed-seed pairs of boxes (or a disc and a box),
// placed apart, touching a face exactly, a touch tolerance off it, flush at
// a corner or slightly sunk, moved in any direction, into, along and away
// from faces. Wherever the closed form decides, it must agree with
// the general form: the same contact or none, the same normal, a time
// within the general cast's band, and the same pose once the gap is closed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "move_narrowphase.hpp"
#include "move_round_box.hpp"
#include "property.hpp"
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/shape_cast.hpp"
#include "sweep/world.hpp"

namespace sweep::detail {
namespace {

// A box shape whose corners are exactly `box` in the world (identity
// transform): make_box's polygon, its exact axis normals kept, given those
// corners in its vertex order.
struct WorldBox {
    Shape shape;
    ShapeProxy proxy;
    Aabb box;
};

WorldBox world_box(const Aabb& box) {
    Polygon p = make_box(1, 1).value();
    p.vertices[0] = box.lower;
    p.vertices[1] = {box.upper.x, box.lower.y};
    p.vertices[2] = box.upper;
    p.vertices[3] = {box.lower.x, box.upper.y};
    p.centroid = real(0.5) * (box.lower + box.upper);
    WorldBox out;
    out.shape = p;
    out.proxy = make_proxy(out.shape);
    out.box = box;
    return out;
}

// The box `box` as a body would place it: make_box of its half extents
// at the origin, moved to its centre. Its world box is whatever the
// rounding of the corners gives (axis_aligned_box says which).
struct PlacedBox {
    Shape shape;
    ShapeProxy proxy;
    Transform xf;
};

PlacedBox placed_box(const Aabb& box) {
    const Vec2 h = real(0.5) * (box.upper - box.lower);
    PlacedBox out;
    out.shape = make_box(h.x, h.y).value();
    out.proxy = make_proxy(out.shape);
    out.xf = {real(0.5) * (box.lower + box.upper), {}};
    return out;
}

// Random cases: A, B, a motion and the world's tolerances.
class Cases {
  public:
    explicit Cases(unsigned seed) : rng_(seed) {}

    real uniform(real lo, real hi) { return std::uniform_real_distribution<real>(lo, hi)(rng_); }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

    Tolerances tolerances() {
        constexpr std::array<real, 3> units{1, 16, 32};
        return Tolerances::for_units(units[static_cast<std::size_t>(pick(3))]);
    }

    // One case's tolerances (for 1, 16 or 32 units per metre), its unit,
    // A's box (near the origin, or with `sometimes_far` half the time
    // anywhere within 200 units) and B's box beside it.
    struct BoxPair {
        Tolerances tol;
        real unit = 1;
        Aabb a, b;
    };
    BoxPair box_pair(bool sometimes_far) {
        BoxPair p;
        p.tol = tolerances();
        p.unit = p.tol.linear_slop / k_linear_slop;
        p.a = a_box(p.unit, sometimes_far && pick(2) == 0);
        p.b = b_box(p.a, p.unit, p.tol.touch_tolerance);
        return p;
    }

    // A's box: small or tile-like, near the origin or (`far`) anywhere
    // within 200 units of it.
    Aabb a_box(real unit, bool far) {
        const real reach = far ? 200 * unit : 2 * unit;
        const Vec2 c{uniform(-reach, reach), uniform(-reach, reach)};
        const Vec2 h = pick(2) == 0 ? Vec2{unit / 2, unit / 2}
                                    : Vec2{uniform(0.1f, 2) * unit, uniform(0.1f, 2) * unit};
        return {c - h, c + h};
    }

    // B's box beside A: against a face at a gap chosen near the rules'
    // thresholds (exactly touching most often), sliding along it, or near a
    // corner, or anywhere about.
    Aabb b_box(const Aabb& a, real unit, real touch) {
        const Vec2 h{uniform(0.1f, 1) * unit, uniform(0.1f, 1) * unit};
        // In touch tolerances: on either side of each threshold of the rules
        // (a push-out beyond 1, the cast's overlap at 1/2 and band at 3/2,
        // the manifold's vertex pairs beyond 0.4 and margin at 4).
        constexpr std::array<real, 20> gaps{0,     0,     0,      0,    -1.1f, -0.9f, -0.75f,
                                            -0.6f, -0.4f, -0.25f, 0.3f, 0.5f,  1,     1.25f,
                                            1.45f, 1.55f, 3,      3.9f, 4.1f,  8};
        const real gap = gaps[static_cast<std::size_t>(pick(20))] * touch;
        const int axis = pick(2);
        const real side = pick(2) == 0 ? -1 : 1;
        if (pick(4) == 0) { // anywhere about
            const Vec2 c{uniform(a.lower.x - 3 * unit, a.upper.x + 3 * unit),
                         uniform(a.lower.y - 3 * unit, a.upper.y + 3 * unit)};
            return {c - h, c + h};
        }
        // Across the face: flush with A's corner, or anywhere along it.
        const real a_lo = axis == 0 ? a.lower.y : a.lower.x;
        const real a_hi = axis == 0 ? a.upper.y : a.upper.x;
        const real h_across = axis == 0 ? h.y : h.x;
        // Overlaps at a corner near the graze rule's touch tolerance.
        constexpr std::array<real, 4> corner_overlaps{0.5f, 0.9f, 1.1f, 2};
        const real overlap = corner_overlaps[static_cast<std::size_t>(pick(4))] * touch;
        real lo_across = 0;
        switch (pick(6)) {
        case 0:
            lo_across = a_lo;
            break; // flush with one end
        case 1:
            lo_across = a_hi - 2 * h_across;
            break; // flush with the other
        case 2:
            lo_across = a_hi;
            break; // corner to corner
        case 3:
            lo_across = a_hi - overlap;
            break;
        case 4:
            lo_across = a_lo - 2 * h_across + overlap;
            break;
        default:
            lo_across = uniform(a_lo - 2 * h_across, a_hi);
            break;
        }
        const real h_along = axis == 0 ? h.x : h.y;
        const real face = side > 0 ? (axis == 0 ? a.upper.x : a.upper.y) + gap
                                   : (axis == 0 ? a.lower.x : a.lower.y) - gap - 2 * h_along;
        const Vec2 lower = axis == 0 ? Vec2{face, lo_across} : Vec2{lo_across, face};
        return {lower, lower + 2 * h};
    }

    // Any direction, or along an axis, or almost along one: off it by a
    // share of the length on either side of the rules' thresholds for
    // sliding along a face (1e-4 at the start, 1e-6 after).
    Vec2 motion(real unit) {
        const real length = uniform(0.01f, 2) * unit;
        const real sign = pick(2) == 0 ? -1 : 1;
        constexpr std::array<real, 8> offs{3e-7f, 3e-6f, 3e-5f, 7e-5f, 1.5e-4f, 1e-3f, 1e-2f, 0.1f};
        const real off = (pick(2) == 0 ? -1 : 1) * offs[static_cast<std::size_t>(pick(8))] * length;
        switch (pick(6)) {
        case 0:
            return {sign * length, 0};
        case 1:
            return {0, sign * length};
        case 2:
            return {sign * length, off};
        case 3:
            return {off, sign * length};
        default: {
            const real angle = uniform(-k_pi, k_pi);
            return {length * std::cos(angle), length * std::sin(angle)};
        }
        }
    }

  private:
    std::mt19937 rng_;
};

// Whether the boxes' corners meet exactly (gaps 0 along both axes), where
// the closed form defines the contact rather than follows GJK's guess.
bool corners_meet(const Aabb& a, const Aabb& b) {
    const std::array<AxisGaps, 2> g = box_gaps(a, b);
    return std::max(g[0].below, g[0].above) == 0 && std::max(g[1].below, g[1].above) == 0;
}

// Where the mover ends against one contact: at the cast's time, then on
// along the motion by the measured gap (World::move's close_gap).
Vec2 closed_pose(const WorldBox& a, const WorldBox& b, Vec2 motion, real t, const Tolerances& tol) {
    const Transform at{t * motion, {}};
    const ContactMeasure m =
        measure_contact({&a.shape, &a.proxy, {}}, {&b.shape, &b.proxy, at}, tol);
    const Vec2 left = (1 - t) * motion;
    const real approach = -dot(left, m.normal);
    if (m.count == 0 || approach <= 0) {
        return at.p;
    }
    return at.p + std::min(real(1), std::max(m.separation, real(0)) / approach) * left;
}

TEST(MoveNarrowphase, BoxCastAgreesWithTheGeneralCast) {
    Cases cases(20261124);
    const int n = test::property_cases(40000);
    int decided = 0;
    int contacts = 0;
    for (int i = 0; i < n; ++i) {
        const auto [tol, unit, a_box, b_box] = cases.box_pair(false);
        const WorldBox a = world_box(a_box);
        const WorldBox b = world_box(b_box);
        ASSERT_EQ(axis_aligned_box(a.shape, {}), a.box);
        ASSERT_EQ(axis_aligned_box(b.shape, {}), b.box);
        const Vec2 motion = cases.motion(unit);
        const bool may_touch = overlaps(inflate(b.box, tol.touch_tolerance), a.box);
        const std::optional<CastOutput> general = cast_to_contact(
            {&a.shape, &a.proxy, {}}, {&b.shape, &b.proxy, {}}, motion, may_touch, true, tol);
        const BoxCast fast =
            cast_boxes(other_box(a.box, {}), mover_box(b.box, {}, motion), motion, tol);
        if (fast.verdict == BoxVerdict::undecided || corners_meet(a.box, b.box)) {
            continue; // (corners meeting exactly: the closed form's own rule)
        }
        ++decided;
        ASSERT_EQ(fast.verdict == BoxVerdict::contact, general.has_value())
            << "case " << i << ": A " << a.box.lower.x << "," << a.box.lower.y << " "
            << a.box.upper.x << "," << a.box.upper.y << " B " << b.box.lower.x << ","
            << b.box.lower.y << " " << b.box.upper.x << "," << b.box.upper.y << " motion "
            << motion.x << "," << motion.y;
        if (!general) {
            continue;
        }
        ++contacts;
        const BoxHit& hit = fast.hit;
        // The face's axis; GJK's normal is within its rounding of it.
        EXPECT_NEAR(hit.normal.x, general->normal.x, 1e-3f) << "case " << i;
        EXPECT_NEAR(hit.normal.y, general->normal.y, 1e-3f) << "case " << i;
        // The general cast stops anywhere from 1.5 touch tolerances to one
        // short of the face (its advancement may end a hair inside the
        // target: 0.35 % of a touch tolerance, seen at 20x the cases); the
        // closed form at one.
        const real approach = -dot(motion, hit.normal);
        const real slack = 1e-2f * tol.touch_tolerance + 1e-5f * length(motion);
        EXPECT_GE(hit.fraction * approach, general->fraction * approach - slack) << "case " << i;
        EXPECT_LE(hit.fraction * approach,
                  general->fraction * approach + real(0.5) * tol.touch_tolerance + slack)
            << "case " << i;
        // Both points on A's face; the closed form's in the middle of the
        // stretch the faces share. (The general one lies in that stretch
        // but at t = 0, where the separating axes give B's corner put back
        // on the face's line.)
        const bool x_face = hit.normal.x != 0;
        const real face = x_face ? (hit.normal.x > 0 ? a.box.upper.x : a.box.lower.x)
                                 : (hit.normal.y > 0 ? a.box.upper.y : a.box.lower.y);
        EXPECT_NEAR(x_face ? hit.point.x : hit.point.y, face, 1e-3f * unit) << "case " << i;
        // (A start overlapping deeper puts the manifold's point, B's
        // corner, as deep inside A.)
        const real depth = std::max(
            real(0),
            -std::max(std::max(a.box.lower.x - b.box.upper.x, b.box.lower.x - a.box.upper.x),
                      std::max(a.box.lower.y - b.box.upper.y, b.box.lower.y - a.box.upper.y)));
        EXPECT_NEAR(x_face ? general->point.x : general->point.y, face, 1e-3f * unit + depth)
            << "case " << i;
        const Vec2 lower = b.box.lower + hit.fraction * motion;
        const Vec2 upper = b.box.upper + hit.fraction * motion;
        const real from =
            x_face ? std::max(a.box.lower.y, lower.y) : std::max(a.box.lower.x, lower.x);
        const real to =
            x_face ? std::min(a.box.upper.y, upper.y) : std::min(a.box.upper.x, upper.x);
        EXPECT_NEAR(x_face ? hit.point.y : hit.point.x, real(0.5) * (from + to), 1e-3f * unit)
            << "case " << i;
        if (general->fraction > 0) {
            const Vec2 g_lower = b.box.lower + general->fraction * motion;
            const Vec2 g_upper = b.box.upper + general->fraction * motion;
            const real along = x_face ? general->point.y : general->point.x;
            EXPECT_GE(along, (x_face ? std::max(a.box.lower.y, g_lower.y)
                                     : std::max(a.box.lower.x, g_lower.x)) -
                                 1e-3f * unit)
                << "case " << i;
            EXPECT_LE(along, (x_face ? std::min(a.box.upper.y, g_upper.y)
                                     : std::min(a.box.upper.x, g_upper.x)) +
                                 1e-3f * unit)
                << "case " << i;
        }
        // And the mover ends in the same place once it closes the gap.
        const Vec2 fast_end = closed_pose(a, b, motion, hit.fraction, tol);
        const Vec2 general_end = closed_pose(a, b, motion, general->fraction, tol);
        // (Rounding of the gap moves the end along the face by the
        // motion's slope over it.)
        const real ulps = 16 * std::numeric_limits<real>::epsilon() *
                          (1 + std::max({std::abs(a.box.lower.x), std::abs(a.box.lower.y),
                                         std::abs(a.box.upper.x), std::abs(a.box.upper.y),
                                         std::abs(motion.x), std::abs(motion.y)})) *
                          length(motion) / approach;
        EXPECT_NEAR(fast_end.x, general_end.x, ulps) << "case " << i;
        EXPECT_NEAR(fast_end.y, general_end.y, ulps) << "case " << i;
    }
    // The closed form decides nearly everything, contacts and misses alike.
    RecordProperty("decided", decided);
    RecordProperty("contacts", contacts);
    EXPECT_GT(decided, n * 8 / 10) << decided << " of " << n;
    EXPECT_GT(contacts, decided / 10) << contacts << " of " << decided;
    EXPECT_GT(decided - contacts, decided / 10) << decided - contacts << " of " << decided;
}

TEST(MoveNarrowphase, BoxCastAgreesWithTheGeneralCastOnPlacedBodies) {
    // Boxes as bodies place them (make_box moved by a transform), near the
    // origin or far from it: the general form's GJK works in A's frame,
    // around A's origin. (Boxes given in world coordinates far from the
    // origin leave GJK's normal off by more than its rounding over a touch
    // tolerance, so the first test keeps them near it.)
    Cases cases(7);
    const int n = test::property_cases(20000);
    int decided = 0;
    for (int i = 0; i < n; ++i) {
        const auto [tol, unit, a_box, b_box] = cases.box_pair(true);
        const PlacedBox a = placed_box(a_box);
        const PlacedBox b = placed_box(b_box);
        const std::optional<Aabb> a_exact = axis_aligned_box(a.shape, a.xf);
        const std::optional<Aabb> b_exact = axis_aligned_box(b.shape, b.xf);
        ASSERT_TRUE(a_exact && b_exact);
        const Vec2 motion = cases.motion(unit);
        const bool may_touch = overlaps(inflate(*b_exact, tol.touch_tolerance), *a_exact);
        const std::optional<CastOutput> general = cast_to_contact(
            {&a.shape, &a.proxy, a.xf}, {&b.shape, &b.proxy, b.xf}, motion, may_touch, true, tol);
        const BoxCast fast = cast_boxes(other_box(*a_exact, a.xf.p),
                                        mover_box(*b_exact, b.xf.p, motion), motion, tol);
        if (fast.verdict == BoxVerdict::undecided || corners_meet(*a_exact, *b_exact)) {
            continue;
        }
        ++decided;
        ASSERT_EQ(fast.verdict == BoxVerdict::contact, general.has_value()) << "case " << i;
        if (general) {
            EXPECT_NEAR(fast.hit.normal.x, general->normal.x, 1e-3f) << "case " << i;
            EXPECT_NEAR(fast.hit.normal.y, general->normal.y, 1e-3f) << "case " << i;
            const real approach = -dot(motion, fast.hit.normal);
            EXPECT_LE(std::abs(fast.hit.fraction - general->fraction) * approach,
                      real(0.5) * tol.touch_tolerance + 1e-5f * length(motion))
                << "case " << i;
        }
    }
    RecordProperty("decided", decided);
    EXPECT_GT(decided, n * 8 / 10) << decided << " of " << n;
}

// A round mover beside a box, for the closed forms of a disc or an
// axis-aligned capsule against a known box: A the box (placed as a body
// places it, near the origin or far), B a disc, an upright or a lying
// capsule, at gaps about the rules' thresholds from a face or a corner.
struct RoundCase {
    Tolerances tol;
    real unit = 1;
    PlacedBox a;
    Aabb a_box;
    Shape shape;
    ShapeProxy proxy;
    Transform xf;
    Vec2 end1, end2; // B's core in the world (a disc's: its centre twice)
    real radius = 0;
    Vec2 motion;
};

RoundCase round_case(Cases& cases) {
    RoundCase c;
    c.tol = cases.tolerances();
    c.unit = c.tol.linear_slop / k_linear_slop;
    c.a = placed_box(cases.a_box(c.unit, cases.pick(2) == 0));
    c.a_box = axis_aligned_box(c.a.shape, c.a.xf).value();
    c.radius = cases.uniform(0.05f, 1) * c.unit;
    const int kind = cases.pick(3); // a disc, an upright capsule, a lying one
    const real h = kind == 0 ? 0 : cases.uniform(0.05f, 1) * c.unit;
    const Vec2 half = kind == 1 ? Vec2{0, h} : Vec2{h, 0};
    c.shape = kind == 0 ? Shape(Circle{{}, c.radius}) : make_capsule(-half, half, c.radius).value();
    c.proxy = make_proxy(c.shape);
    // In touch tolerances, about the thresholds: the cast's overlap at
    // -1/2, its target at 1 and band at 3/2, the manifold's margin at 1.
    constexpr std::array<real, 14> gaps{0,    0,     -0.6f, -0.4f, 0.3f, 0.5f, 0.9f,
                                        1.1f, 1.45f, 1.55f, 2,     4,    8,    -2};
    const real gap = gaps[static_cast<std::size_t>(cases.pick(14))] * c.tol.touch_tolerance;
    const Aabb& box = c.a_box;
    const Vec2 mid = real(0.5) * (box.lower + box.upper);
    Vec2 center;
    if (cases.pick(3) == 0) { // anywhere about
        center = {cases.uniform(box.lower.x - 3 * c.unit, box.upper.x + 3 * c.unit),
                  cases.uniform(box.lower.y - 3 * c.unit, box.upper.y + 3 * c.unit)};
    } else if (cases.pick(2) == 0) { // off a face, anywhere along it or at its end
        const int axis = cases.pick(2);
        const real side = cases.pick(2) == 0 ? -1 : 1;
        const real face = side > 0 ? (axis == 0 ? box.upper.x : box.upper.y)
                                   : (axis == 0 ? box.lower.x : box.lower.y);
        const real reach = axis == 0 ? half.y : half.x; // the core's reach along the face
        const real lo = (axis == 0 ? box.lower.y : box.lower.x) - reach;
        const real hi = (axis == 0 ? box.upper.y : box.upper.x) + reach;
        const real along =
            cases.pick(3) == 0 ? (cases.pick(2) == 0 ? lo : hi) : cases.uniform(lo, hi);
        const real out = face + side * ((axis == 0 ? half.x : half.y) + c.radius + gap);
        center = axis == 0 ? Vec2{out, along} : Vec2{along, out};
    } else { // off a corner, in any direction from it
        const Vec2 corner{cases.pick(2) == 0 ? box.lower.x : box.upper.x,
                          cases.pick(2) == 0 ? box.lower.y : box.upper.y};
        const Vec2 away = corner - mid;
        const real angle = std::atan2(away.y, away.x) + cases.uniform(-1, 1);
        const Vec2 dir{std::cos(angle), std::sin(angle)};
        // (The core's end nearest the corner the radius and gap from it.)
        const Vec2 end{dir.x * half.x >= 0 ? -half.x : half.x,
                       dir.y * half.y >= 0 ? -half.y : half.y};
        center = corner + (c.radius + gap) * dir - end;
    }
    c.xf = {center, {}};
    c.end1 = transform_point(c.xf, kind == 0 ? Vec2{} : c.shape.capsule.center1);
    c.end2 = transform_point(c.xf, kind == 0 ? Vec2{} : c.shape.capsule.center2);
    c.motion = cases.motion(c.unit);
    return c;
}

// A case's shapes placed: the box as the general form takes it and as the
// closed forms do (its box known), and the round mover.
struct RoundPair {
    PlacedShape general_a;
    PlacedShape closed_a;
    PlacedShape b;
};

RoundPair placed(const RoundCase& c) {
    RoundPair p{{&c.a.shape, &c.a.proxy, c.a.xf},
                {&c.a.shape, &c.a.proxy, c.a.xf},
                {&c.shape, &c.proxy, c.xf}};
    p.closed_a.box = &c.a_box;
    return p;
}

// The distance in double from `box` to the segment p -> q, and the unit
// direction between their nearest points (box to segment): zero where
// they meet. Apart, a segment and a convex polygon are nearest at an end
// of the segment or a corner of the polygon.
struct SegmentGap {
    double distance = 0;
    Vec2 normal;
};

SegmentGap segment_gap(const Aabb& box, Vec2 p, Vec2 q) {
    const auto clamp_box = [&](double x, double y) {
        return std::array<double, 2>{std::clamp(x, double(box.lower.x), double(box.upper.x)),
                                     std::clamp(y, double(box.lower.y), double(box.upper.y))};
    };
    // Liang-Barsky: does the segment cross the box?
    double t0 = 0;
    double t1 = 1;
    const std::array<double, 4> den{-(double(q.x) - p.x), double(q.x) - p.x, -(double(q.y) - p.y),
                                    double(q.y) - p.y};
    const std::array<double, 4> num{double(p.x) - box.lower.x, double(box.upper.x) - p.x,
                                    double(p.y) - box.lower.y, double(box.upper.y) - p.y};
    bool crosses = true;
    for (int k = 0; k < 4 && crosses; ++k) {
        if (den[k] == 0) {
            crosses = num[k] >= 0;
        } else if (den[k] < 0) {
            t0 = std::max(t0, num[k] / den[k]);
        } else {
            t1 = std::min(t1, num[k] / den[k]);
        }
    }
    if (crosses && t0 <= t1) {
        return {};
    }
    SegmentGap best{std::numeric_limits<double>::max(), {}};
    const auto consider = [&](double fx, double fy, double tx, double ty) {
        const double d = std::hypot(tx - fx, ty - fy);
        if (d < best.distance) {
            best.distance = d;
            best.normal = {real((tx - fx) / d), real((ty - fy) / d)};
        }
    };
    for (const Vec2 e : {p, q}) {
        const auto n = clamp_box(e.x, e.y);
        consider(n[0], n[1], e.x, e.y);
    }
    const double dx = double(q.x) - p.x;
    const double dy = double(q.y) - p.y;
    const double len2 = dx * dx + dy * dy;
    for (const Vec2 v :
         {box.lower, box.upper, Vec2{box.lower.x, box.upper.y}, Vec2{box.upper.x, box.lower.y}}) {
        const double s =
            len2 > 0
                ? std::clamp(((v.x - double(p.x)) * dx + (v.y - double(p.y)) * dy) / len2, 0.0, 1.0)
                : 0.0;
        consider(v.x, v.y, p.x + s * dx, p.y + s * dy);
    }
    return best;
}

// B's separation from the box along its path, in double: at the start, and
// its least (the distance between convex shapes is convex along a line).
struct RoundPath {
    double start = 0;
    double least = 0;
    Vec2 normal; // at the start, from the box to the core (zero where they meet)
};

RoundPath round_path(const RoundCase& c, Vec2 offset, Vec2 motion) {
    const auto separation = [&](double t) {
        const Vec2 d = offset + real(t) * motion;
        return segment_gap(c.a_box, c.end1 + d, c.end2 + d).distance - c.radius;
    };
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 100; ++i) {
        const double m1 = lo + (hi - lo) / 3;
        const double m2 = hi - (hi - lo) / 3;
        if (separation(m1) < separation(m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    RoundPath p;
    p.start = separation(0);
    p.least = std::min({separation(lo), p.start, separation(1)});
    p.normal = segment_gap(c.a_box, c.end1 + offset, c.end2 + offset).normal;
    return p;
}

// The closed form of a round mover's cast against a known box against
// GJK's (cast_to_contact without the box): the same contact or none
// wherever the rules' thresholds are clearly on one side, and then the
// normal at each one's time and a time within the general cast's band.
// The closed form stops where the gap is the target exactly; the
// advancement anywhere in the band of half a touch tolerance beyond it, so
// a mover passing within that band but never reaching the target may be
// met by GJK alone.
TEST(MoveNarrowphase, RoundCastAgreesWithTheGeneralCast) {
    Cases cases(20261203);
    const int n = test::property_cases(40000);
    int compared = 0;
    int contacts = 0;
    int ambiguous = 0;
    for (int i = 0; i < n; ++i) {
        const RoundCase c = round_case(cases);
        const auto [general_a, closed_a, b] = placed(c);
        ASSERT_TRUE(round_on_box(closed_a, b).has_value());
        const Aabb b_box = compute_aabb(c.shape, c.xf);
        const bool may_touch = overlaps(inflate(b_box, c.tol.touch_tolerance), c.a_box);
        const std::optional<CastOutput> general =
            cast_to_contact(general_a, b, c.motion, may_touch, true, c.tol);
        const std::optional<CastOutput> closed =
            cast_to_contact(closed_a, b, c.motion, may_touch, true, c.tol);
        const double touch = c.tol.touch_tolerance;
        const RoundPath path = round_path(c, {}, c.motion);
        const double m = 0.05 * touch;
        const double cosine = dot(normalize(c.motion), path.normal);
        const auto near = [&](double v, double at) { return std::abs(v - at) < m; };
        // Where rounding or the advancement may decide: the start at the
        // cast's thresholds, a path least within the band beyond the
        // target, a touching start moving nearly along its normal or
        // beside a face at the graze rule's threshold, cores that meet.
        const Aabb& box = c.a_box;
        const double r = c.radius;
        const Vec2 lo = min(c.end1, c.end2);
        const Vec2 hi = max(c.end1, c.end2);
        const std::array<double, 4> face_gaps{lo.x - r - box.upper.x, box.lower.x - hi.x - r,
                                              lo.y - r - box.upper.y, box.lower.y - hi.y - r};
        const bool touching_start = path.start < 2 * touch;
        const bool unclear =
            near(path.start, -0.5 * touch) || near(path.start, 0.5 * touch) ||
            near(path.start, 1.5 * touch) || near(path.start, touch) ||
            (path.least > touch - m && path.least < 1.5 * touch + m) || path.normal == Vec2{} ||
            (touching_start &&
             (std::abs(cosine) < 1e-3 || std::any_of(face_gaps.begin(), face_gaps.end(),
                                                     [&](double g) { return near(g, -touch); })));
        if (general.has_value() != closed.has_value()) {
            ASSERT_TRUE(unclear) << "case " << i << ": core " << c.end1.x << "," << c.end1.y << " "
                                 << c.end2.x << "," << c.end2.y << " r " << r << " box "
                                 << box.lower.x << "," << box.lower.y << " " << box.upper.x << ","
                                 << box.upper.y << " motion " << c.motion.x << "," << c.motion.y
                                 << " start " << path.start << " least " << path.least
                                 << " general " << general.has_value();
            ++ambiguous;
            continue;
        }
        ++compared;
        if (!general) {
            continue;
        }
        ++contacts;
        // Normals from the box to the core, each at its own time: GJK's
        // within its rounding. (At a corner they differ by the turn between
        // their times.) A start overlapping beyond the cast's band is met
        // by the start's manifold, the same one.
        if (path.start > -0.5 * touch + m) {
            const Vec2 exact = round_path(c, closed->fraction * c.motion, {}).normal;
            EXPECT_NEAR(closed->normal.x, exact.x, 1e-4f) << "case " << i;
            EXPECT_NEAR(closed->normal.y, exact.y, 1e-4f) << "case " << i;
            const Vec2 general_exact = round_path(c, general->fraction * c.motion, {}).normal;
            EXPECT_NEAR(general->normal.x, general_exact.x, 2e-3f) << "case " << i;
            EXPECT_NEAR(general->normal.y, general_exact.y, 2e-3f) << "case " << i;
        } else {
            EXPECT_NEAR(closed->normal.x, general->normal.x, 2e-3f) << "case " << i;
            EXPECT_NEAR(closed->normal.y, general->normal.y, 2e-3f) << "case " << i;
        }
        // The closed form at the target, the advancement within the band
        // beyond it (never after the closed form's time).
        const real approach = -dot(c.motion, closed->normal);
        const real slack = 1e-2f * c.tol.touch_tolerance + 1e-5f * length(c.motion);
        EXPECT_GE(closed->fraction * approach, general->fraction * approach - slack)
            << "case " << i;
        EXPECT_LE(closed->fraction * approach,
                  general->fraction * approach + real(0.5) * c.tol.touch_tolerance + slack)
            << "case " << i;
        if (closed->fraction > 0) {
            const RoundPath at = round_path(c, closed->fraction * c.motion, {});
            EXPECT_NEAR(at.start, touch, 1e-2 * touch + 1e-6 * c.unit) << "case " << i;
        }
        // Its point lies on the box's surface, across from the core.
        if (path.start > -0.5 * touch + m) {
            const Aabb& a = c.a_box;
            const Vec2 p = closed->point;
            const double tiny = 1e-6 * c.unit;
            EXPECT_TRUE(p.x >= a.lower.x - tiny && p.x <= a.upper.x + tiny &&
                        p.y >= a.lower.y - tiny && p.y <= a.upper.y + tiny &&
                        (std::abs(p.x - a.lower.x) <= tiny || std::abs(p.x - a.upper.x) <= tiny ||
                         std::abs(p.y - a.lower.y) <= tiny || std::abs(p.y - a.upper.y) <= tiny))
                << "case " << i;
            // (As far from the core as the gap and the radius.)
            const Vec2 d = closed->fraction * c.motion;
            const double gap = closed->fraction > 0 ? touch : path.start;
            EXPECT_NEAR(segment_gap(Aabb{p, p}, c.end1 + d, c.end2 + d).distance, r + gap,
                        1e-2 * touch + 1e-6 * c.unit)
                << "case " << i;
        }
    }
    RecordProperty("compared", compared);
    RecordProperty("contacts", contacts);
    RecordProperty("ambiguous", ambiguous);
    EXPECT_GT(contacts, compared / 10) << contacts << " of " << compared;
    EXPECT_GT(compared - contacts, compared / 10) << compared - contacts << " of " << compared;
    EXPECT_LT(ambiguous, n / 100) << ambiguous << " of " << n;
}

// The closed measure of a round mover against a known box is collide()'s:
// the same points or none, normal, separation, surface area and feature,
// within rounding.
TEST(MoveNarrowphase, RoundMeasureIsTheManifolds) {
    Cases cases(31);
    const int n = test::property_cases(40000);
    int measured = 0;
    int faces = 0;
    for (int i = 0; i < n; ++i) {
        const RoundCase c = round_case(cases);
        const auto [general_a, closed_a, b] = placed(c);
        const ContactMeasure general = measure_contact(general_a, b, c.tol);
        const ContactMeasure closed = measure_contact(closed_a, b, c.tol);
        const RoundPath path = round_path(c, {}, {});
        // collide() measures in A's frame: rounding of the coordinates.
        const double mu = 64 * std::numeric_limits<real>::epsilon() *
                          (1 + std::max({std::abs(c.xf.p.x), std::abs(c.xf.p.y),
                                         std::abs(c.a_box.lower.x), std::abs(c.a_box.lower.y),
                                         std::abs(c.a_box.upper.x), std::abs(c.a_box.upper.y)}));
        if (std::abs(path.start - c.tol.linear_slop) < mu || path.normal == Vec2{}) {
            continue; // at the manifold's margin, or cores that meet
        }
        ASSERT_EQ(closed.count > 0, general.count > 0)
            << "case " << i << " separation " << path.start;
        if (closed.count == 0) {
            continue;
        }
        ++measured;
        // (A corner's direction rounds in A's frame by mu over the distance.)
        const double turn = 1e-5 + 4 * mu / std::max(1e-3 * c.unit, path.start + c.radius);
        EXPECT_NEAR(closed.normal.x, general.normal.x, turn) << "case " << i;
        EXPECT_NEAR(closed.normal.y, general.normal.y, turn) << "case " << i;
        EXPECT_NEAR(closed.separation, general.separation, mu) << "case " << i;
        EXPECT_NEAR(closed.separation, path.start, mu) << "case " << i;
        // Two points where a capsule's side lies along a face, over a
        // stretch clearly longer than rounding; but where its core meets
        // the face end to end (within rounding), collide()'s choice of a
        // corner or the faces turns on its rounding.
        const Vec2 lo = min(c.end1, c.end2);
        const Vec2 hi = max(c.end1, c.end2);
        const Aabb& a = c.a_box;
        const double end_to_end =
            std::min({std::abs(lo.x - a.upper.x), std::abs(hi.x - a.lower.x),
                      std::abs(lo.y - a.upper.y), std::abs(hi.y - a.lower.y)});
        if (end_to_end >= mu &&
            (closed.surface_area > 1e-3 * c.unit || general.surface_area > 1e-3 * c.unit)) {
            ++faces;
            EXPECT_EQ(closed.count, general.count) << "case " << i;
            EXPECT_NEAR(closed.surface_area, general.surface_area, 1e-3 * c.unit) << "case " << i;
        }
        if (std::abs(std::max(std::abs(closed.normal.x), std::abs(closed.normal.y)) - (1 - 1e-5)) >
            1e-6) {
            EXPECT_EQ(closed.feature, general.feature) << "case " << i;
        }
    }
    RecordProperty("measured", measured);
    RecordProperty("faces", faces);
    EXPECT_GT(measured, n / 4) << measured << " of " << n;
    EXPECT_GT(faces, n / 50) << faces << " of " << n;
}

// may_press_into says no only where the manifold of a touching start could
// give no contact: then the general cast is the same with or without it.
TEST(MoveNarrowphase, ARoundMoverThatDoesNotPressIntoABoxNeedsNoTouchingManifold) {
    Cases cases(37);
    const int n = test::property_cases(40000);
    int skipped = 0;
    int touching = 0;
    for (int i = 0; i < n; ++i) {
        const RoundCase c = round_case(cases);
        const auto [general_a, closed_a, b] = placed(c);
        EXPECT_TRUE(may_press_into(general_a, b, c.motion, c.tol)) << "case " << i;
        if (may_press_into(closed_a, b, c.motion, c.tol)) {
            continue;
        }
        ++skipped;
        const Manifold m =
            collide(c.a.shape, c.a.xf, c.shape, c.xf, {c.tol.touch_tolerance, c.tol.linear_slop});
        touching += m.count > 0;
        EXPECT_TRUE(m.count == 0 || dot(c.motion, m.normal) >= -k_tangent_cosine * length(c.motion))
            << "case " << i;
        const std::optional<CastOutput> with =
            cast_to_contact(general_a, b, c.motion, true, true, c.tol);
        const std::optional<CastOutput> without =
            cast_to_contact(general_a, b, c.motion, false, true, c.tol);
        ASSERT_EQ(with.has_value(), without.has_value()) << "case " << i;
    }
    RecordProperty("skipped", skipped);
    RecordProperty("touching", touching);
    EXPECT_GT(skipped, n / 4) << skipped << " of " << n;
    EXPECT_GT(touching, skipped / 10) << touching << " of " << skipped;
}

// The gap between proxies a (placed by xfa) and b (by xfb) along n, radii
// included: B's least extent along n less A's greatest.
real gap_along_for_test(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b,
                        const Transform& xfb, Vec2 n) {
    real a_most = -std::numeric_limits<real>::max();
    real b_least = std::numeric_limits<real>::max();
    for (int i = 0; i < a.count; ++i) {
        a_most = std::max(a_most, dot(n, transform_point(xfa, a.points[i])));
    }
    for (int i = 0; i < b.count; ++i) {
        b_least = std::min(b_least, dot(n, transform_point(xfb, b.points[i])));
    }
    return b_least - a_most - a.radius - b.radius;
}

// A random convex shape for the graze tests, `unit` long or so: a box, a
// triangle, an octagon or a capsule, as a proxy.
ShapeProxy random_convex(Cases& cases, real unit) {
    switch (cases.pick(4)) {
    case 0:
        return make_proxy(
            make_box(cases.uniform(0.2f, 1) * unit, cases.uniform(0.2f, 1) * unit).value());
    case 1: {
        const std::array<Vec2, 3> corners{Vec2{-unit, -0.5f * unit},
                                          Vec2{unit, cases.uniform(-0.5f, 0.5f) * unit},
                                          Vec2{cases.uniform(-0.5f, 0.5f) * unit, unit}};
        return make_proxy(make_polygon(corners).value());
    }
    case 2: {
        std::array<Vec2, 8> corners;
        for (std::size_t k = 0; k < corners.size(); ++k) {
            const real angle = (static_cast<real>(k) + real(0.5)) * real(0.785398163);
            corners[k] = {unit * std::cos(angle), unit * std::sin(angle)};
        }
        return make_proxy(make_polygon(corners).value());
    }
    default:
        return make_proxy(make_capsule({0, -0.5f * unit}, {0, 0.5f * unit}, 0.3f * unit).value());
    }
}

// Wherever grazes_all_along shows that B grazes A all along a motion (for
// which cast_to_contact casts nothing where B may touch A), grazes() holds at B's start, at its
// end, at a random pose between and at the shape cast's hit, if it has one:
// every pose cast_to_contact could have tested. Random convex shapes at
// random angles, near the origin or 200 units off, B beside a face of A at
// a gap near the touch tolerance, moving along that face, a hair into or
// away from it, or anywhere.
TEST(MoveNarrowphase, AShapeThatGrazesAllAlongGrazesAtEveryPose) {
    Cases cases(43);
    const int n = test::property_cases(40000);
    int held = 0;
    int hits = 0;
    for (int i = 0; i < n; ++i) {
        const Tolerances tol = cases.tolerances();
        const real unit = tol.linear_slop / k_linear_slop;
        const real touch = tol.touch_tolerance;
        const ShapeProxy a = random_convex(cases, unit);
        const ShapeProxy b = random_convex(cases, unit);
        const real reach = cases.pick(2) == 0 ? 2 * unit : 200 * unit;
        const Transform xfa{{cases.uniform(-reach, reach), cases.uniform(-reach, reach)},
                            cases.pick(3) == 0 ? Rot{} : Rot::from_angle(cases.uniform(-3, 3))};
        Transform xfb{xfa.p, cases.pick(3) == 0 ? Rot{} : Rot::from_angle(cases.uniform(-3, 3))};
        // Beside A's face `face`, `gap` along its normal, anywhere along it.
        const int face = cases.pick(a.count);
        const Vec2 edge = a.points[face + 1 < a.count ? face + 1 : 0] - a.points[face];
        const Vec2 normal = rotate(xfa.q, normalize(right_perp(edge)));
        const Vec2 tangent = left_perp(normal);
        xfb.p += cases.uniform(-1.5f, 1.5f) * unit * tangent + 3 * unit * normal;
        // (-1: at the threshold, where only the margin keeps it sound.)
        constexpr std::array<real, 11> gaps{0, 0, 0, -1, -1, -1.1f, -0.9f, -0.5f, 0.5f, 1, 3};
        const real gap = gaps[static_cast<std::size_t>(cases.pick(11))] * touch;
        xfb.p += (gap - gap_along_for_test(a, xfa, b, xfb, normal)) * normal;
        const real length = cases.uniform(0, 2) * unit;
        constexpr std::array<real, 7> leans{0, 0, 1e-7f, -1e-7f, 1e-3f, -1e-3f, 0.3f};
        const real lean = leans[static_cast<std::size_t>(cases.pick(7))];
        const Vec2 motion =
            cases.pick(5) == 0
                ? Vec2{cases.uniform(-length, length), cases.uniform(-length, length)}
                : length * ((cases.pick(2) == 0 ? 1 : -1) * tangent + lean * normal);
        if (!grazes_all_along(a, xfa, b, xfb, motion, touch)) {
            continue;
        }
        ++held;
        std::vector<real> fractions{0, cases.uniform(0, 1), 1};
        ShapeCastInput input;
        input.proxy_a = a;
        input.proxy_b = b;
        input.xf_a = xfa;
        input.xf_b = xfb;
        input.translation_b = motion;
        input.target_separation = touch;
        input.touch_tolerance = real(0.5) * touch;
        if (const CastOutput cast = shape_cast(input); cast.state == CastState::hit) {
            ++hits;
            fractions.push_back(cast.fraction);
        }
        for (const real f : fractions) {
            Transform at = xfb;
            at.p += f * motion;
            EXPECT_TRUE(grazes(a, xfa, b, at, motion, touch)) << "case " << i << " at " << f;
        }
    }
    RecordProperty("held", held);
    RecordProperty("hits", hits);
    EXPECT_GT(held, n / 10) << held << " of " << n;
    EXPECT_GT(hits, held / 100) << hits << " of " << held;
}

// grazes() as its definition reads, every face tested in full: each edge
// normal of A (outward) and of B (inward), the motion closing along it by
// at most k_along_cosine of its length and the gap at least -tolerance.
bool grazes_in_full(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b,
                    const Transform& xfb, Vec2 motion, real tolerance) {
    const real along = k_along_cosine * length(motion);
    for (const bool of_a : {true, false}) {
        const ShapeProxy& p = of_a ? a : b;
        const Rot q = of_a ? xfa.q : xfb.q;
        for (int i = 0; p.count >= 2 && i < p.count; ++i) {
            const Vec2 edge = p.points[i + 1 < p.count ? i + 1 : 0] - p.points[i];
            const Vec2 outward = rotate(q, normalize(right_perp(edge)));
            const Vec2 n = of_a ? outward : -outward;
            if (dot(motion, n) >= -along && gap_along_for_test(a, xfa, b, xfb, n) >= -tolerance) {
                return true;
            }
        }
    }
    return false;
}

// grazes() passes over the faces the motion clearly closes on before
// normalizing them; its answers are those of every face tested in full, on
// motions leaning into a face by about k_along_cosine (either side of the
// threshold) as well as anywhere.
TEST(MoveNarrowphase, GrazesAnswersAsEveryFaceTestedInFull) {
    Cases cases(44);
    const int n = test::property_cases(40000);
    int grazing = 0;
    for (int i = 0; i < n; ++i) {
        const Tolerances tol = cases.tolerances();
        const real unit = tol.linear_slop / k_linear_slop;
        const ShapeProxy a = random_convex(cases, unit);
        const ShapeProxy b = random_convex(cases, unit);
        const Transform xfa{{cases.uniform(-200, 200) * unit, cases.uniform(-200, 200) * unit},
                            Rot::from_angle(cases.uniform(-3, 3))};
        const int face = cases.pick(a.count);
        const Vec2 edge = a.points[face + 1 < a.count ? face + 1 : 0] - a.points[face];
        const Vec2 normal = rotate(xfa.q, normalize(right_perp(edge)));
        Transform xfb{xfa.p + cases.uniform(-1, 1) * unit * left_perp(normal) + 3 * unit * normal,
                      Rot::from_angle(cases.uniform(-3, 3))};
        xfb.p += (cases.uniform(-1.5f, 1) * tol.touch_tolerance -
                  gap_along_for_test(a, xfa, b, xfb, normal)) *
                 normal;
        constexpr std::array<real, 6> leans{0, 1, 2, 4, 5, 8}; // (in k_along_cosine)
        const real lean = leans[static_cast<std::size_t>(cases.pick(6))] * k_along_cosine *
                          cases.uniform(0.9f, 1.1f);
        const real length = cases.uniform(0.01f, 2) * unit;
        const Vec2 motion = cases.pick(4) == 0 ? Vec2{cases.uniform(-length, length),
                                                      cases.uniform(-length, length)}
                                               : length * (left_perp(normal) - lean * normal);
        const bool full = grazes_in_full(a, xfa, b, xfb, motion, tol.touch_tolerance);
        grazing += full;
        EXPECT_EQ(grazes(a, xfa, b, xfb, motion, tol.touch_tolerance), full) << "case " << i;
    }
    RecordProperty("grazing", grazing);
    EXPECT_GT(grazing, n / 10) << grazing << " of " << n;
    EXPECT_LT(grazing, n - n / 10) << grazing << " of " << n;
}

// A round mover that a face of the box holds off within the touch
// tolerance, on a motion that never closes that face (held_off, which
// cast_to_contact takes for no contact at once), grazes at every pose
// along the motion: wherever a cast could meet the box, the graze test
// drops it. (Were held_off to take motions closing within k_along_cosine,
// as the graze test itself does, some of those poses would fail it.)
TEST(MoveNarrowphase, ARoundMoverHeldOffByAFaceItDoesNotCloseGrazesAllAlong) {
    Cases cases(41);
    const int n = test::property_cases(40000);
    int held = 0;
    int hits = 0;
    for (int i = 0; i < n; ++i) {
        const RoundCase c = round_case(cases);
        const auto [general_a, closed_a, b] = placed(c);
        const std::optional<RoundOnBox> round = round_on_box(closed_a, b);
        ASSERT_TRUE(round.has_value());
        if (!round->held_off(c.motion, c.tol.touch_tolerance)) {
            continue;
        }
        ++held;
        CastOutput hit;
        hit.state = CastState::hit;
        hit.normal = normalize(-c.motion);
        // The cast's own hit, if it finds one, and poses all along.
        if (const std::optional<CastOutput> cast =
                round->cast(c.motion, c.tol.touch_tolerance, real(0.5) * c.tol.touch_tolerance);
            cast && cast->state == CastState::hit) {
            ++hits;
            EXPECT_TRUE(
                round->grazes(round->center + cast->fraction * c.motion, c.motion, *cast, c.tol))
                << "case " << i;
        }
        for (const real f : {real(0), cases.uniform(0, 1), real(1)}) {
            hit.fraction = f;
            EXPECT_TRUE(round->grazes(round->center + f * c.motion, c.motion, hit, c.tol))
                << "case " << i << " at " << f;
        }
    }
    RecordProperty("held", held);
    RecordProperty("hits", hits);
    EXPECT_GT(held, n / 10) << held << " of " << n;

    // At the threshold, where random cases seldom fall: a disc whose gap
    // beyond the box's right face is the tolerance's exactly, moving up
    // along the face and closing on it by 0.9 of k_along_cosine, ends past
    // the threshold, where the face no longer holds it off.
    const Tolerances tol;
    const real touch = tol.touch_tolerance;
    RoundOnBox disc{{{0, 0}, {1, 1}}, {{0, 0}, {1, 1}}, {1 + 0.25f - touch, 0.5f}, {}, 0.25f, true};
    while ((disc.center.x - 1) - disc.radius < -touch) {
        disc.center.x = std::nextafter(disc.center.x, 2.0f); // the least centre it holds off
    }
    const Vec2 closing{-0.2f * 0.9f * k_along_cosine, 0.2f}; // (ending beside the face still)
    CastOutput end;
    end.state = CastState::hit;
    end.normal = normalize(-closing);
    end.fraction = 1;
    EXPECT_TRUE(!disc.held_off(closing, touch) ||
                disc.grazes(disc.center + closing, closing, end, tol));
}

// Pairs of boxes placed on the thresholds of the closed form's rules and a
// few roundings either side of them (the cast's band and target, half and
// minus a touch tolerance, GJK's noise, each with the rounding margin),
// moved so that a gap reaches one of them at a simple fraction of the
// motion, or almost along a face. From mt19937_64's bits on a fixed seed
// (no distributions, whose algorithms the standard leaves open) and IEEE
// arithmetic alone, so the same cases on every platform.
class ThresholdCases {
  public:
    explicit ThresholdCases(std::uint64_t seed) : rng_(seed) {}

    struct Case {
        Tolerances tol;
        OtherBox a;
        MoverBox b;
        Vec2 motion;
    };

    Case next() {
        Case c;
        c.tol.touch_tolerance = std::ldexp(real(1), -3 - pick(6));
        const real touch = c.tol.touch_tolerance;
        const real far = std::array<real, 5>{0, 64, 1000, 65536, 100000}[pick(5)];
        const Vec2 origin_a{pick(2) ? far : -far, pick(2) ? real(0) : far};
        const Vec2 origin_b{pick(4) == 0 ? real(0.5) * far : real(0), 0};
        constexpr real q = real(0.0625);
        Aabb a;
        a.lower = {q * real(pick(64) - 32), q * real(pick(64) - 32)};
        a.upper = a.lower + Vec2{q * real(1 + pick(128)), q * real(1 + pick(128))};
        // The rounding margin and GJK's noise as the closed form finds
        // them (the far origin, where there is one, sets both).
        constexpr real eps = std::numeric_limits<real>::epsilon();
        const real mu = 16 * eps * (1 + std::max(far, real(32)));
        const real noise = 64 * eps * (1 + far);
        const std::array<real, 20> thresholds{0,
                                              touch,
                                              real(1.5) * touch + mu,
                                              real(1.5) * touch - mu,
                                              real(-0.5) * touch - mu,
                                              real(-0.5) * touch + mu,
                                              -touch - mu,
                                              real(0.5) * touch - mu,
                                              real(0.5) * touch + mu,
                                              -mu,
                                              noise - mu,
                                              noise + mu,
                                              noise,
                                              2 * touch,
                                              -touch + mu,
                                              q * real(pick(64) - 16),
                                              touch * real(pick(72) - 24) / 8,
                                              -q * real(1 + pick(32)),
                                              -q * real(1 + pick(32)),
                                              -q * real(1 + pick(32))};
        const auto threshold = [&] { return thresholds[static_cast<std::size_t>(pick(20))]; };
        std::array<real, 2> lower{};
        std::array<real, 2> upper{};
        std::array<real, 2> gaps{};
        std::array<bool, 2> above{};
        for (int axis = 0; axis < 2; ++axis) {
            const real a_lower = axis == 0 ? a.lower.x : a.lower.y;
            const real a_upper = axis == 0 ? a.upper.x : a.upper.y;
            const real width = q * real(1 + pick(128));
            gaps[axis] = nudge(threshold(), 3);
            above[axis] = pick(2) == 1;
            if (above[axis]) {
                lower[axis] = nudge(a_upper + gaps[axis], 1);
                upper[axis] = lower[axis] + width;
            } else {
                upper[axis] = nudge(a_lower - gaps[axis], 1);
                lower[axis] = upper[axis] - width;
            }
        }
        const real at = std::array<real, 6>{
            1, real(0.5), real(0.25), real(0.75), real(0.125), real(1 + pick(19)) / 16}[pick(6)];
        std::array<real, 2> d{};
        for (int axis = 0; axis < 2; ++axis) {
            switch (pick(8)) {
            case 0:
                d[axis] = 0;
                break;
            case 1:
                d[axis] = q * real(pick(257) - 128);
                break;
            case 2:
                d[axis] = real(8e-6) * (1 + real(pick(21) - 10) / 1000);
                d[axis] = pick(2) ? d[axis] : -d[axis];
                break;
            default: // the gap reaching a threshold at `at`
                d[axis] = (above[axis] ? -1 : 1) * (gaps[axis] - threshold()) / at;
                break;
            }
            d[axis] = nudge(d[axis], 2);
        }
        Vec2 motion{d[0], d[1]};
        if (pick(8) == 0) { // almost along an axis: near k_along_cosine or k_tangent_cosine
            const real size = real(8 + pick(120)) / 16;
            const real length = pick(2) ? size : -size;
            const real cosine = std::array<real, 5>{real(1e-6), real(2e-6), real(1.001e-6),
                                                    real(1e-4), real(0.9999e-4)}[pick(5)];
            const real across = nudge(cosine * length * (pick(2) ? 1 : -1), 4);
            motion = pick(2) ? Vec2{across, length} : Vec2{length, across};
        }
        c.a = other_box(a, origin_a);
        c.b = mover_box({{lower[0], lower[1]}, {upper[0], upper[1]}}, origin_b, motion);
        c.motion = motion;
        return c;
    }

  private:
    int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }

    // `v` moved by up to `spread` roundings either way (most often none).
    real nudge(real v, int spread) {
        const int k = pick(4 * spread + 1) - 2 * spread;
        const real toward =
            k > 0 ? std::numeric_limits<real>::infinity() : -std::numeric_limits<real>::infinity();
        for (int i = 0; i < std::min(std::abs(k), spread); ++i) {
            v = std::nextafter(v, toward);
        }
        return v;
    }

    std::mt19937_64 rng_;
};

// FNV-1a over the verdicts of cast_boxes and the bits of its hits on the
// first `n` threshold cases.
std::uint64_t box_cast_hash(int n) {
    ThresholdCases cases(20261203);
    std::uint64_t h = 1469598103934665603ull;
    const auto add = [&](const void* p, std::size_t size) {
        const auto* bytes = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < size; ++i) {
            h = (h ^ bytes[i]) * 1099511628211ull;
        }
    };
    for (int i = 0; i < n; ++i) {
        const ThresholdCases::Case c = cases.next();
        const BoxCast out = cast_boxes(c.a, c.b, c.motion, c.tol);
        const auto verdict = static_cast<std::int32_t>(out.verdict);
        add(&verdict, sizeof(verdict));
        add(&out.hit, sizeof(out.hit));
    }
    return h;
}

// The closed form's verdicts and the bits of its hits around every
// threshold of its rules, pinned: a change meant to give the same answers
// (making it cheaper, say) must keep this hash; one that moves an answer
// changes it, and then the other tests here say whether the new answers
// still agree with the general form. The hashes are of the closed form at
// 6887847, which its rewrite for speed kept; they assume IEEE arithmetic
// without fused multiply-adds (x86-64's). (300,000 cases: 100,000 missed
// a `<` written for the `<=` of the target's exit.)
TEST(MoveNarrowphase, BoxCastIsPinnedToTheBitAroundItsThresholds) {
#if defined(SWEEP_DOUBLE)
    constexpr std::uint64_t pinned = 0x5886f96e029f2c72ull;
#else
    constexpr std::uint64_t pinned = 0xa1df24b8ca299d35ull;
#endif
    const std::uint64_t h = box_cast_hash(300000);
    EXPECT_EQ(h, pinned) << std::hex << h;
}

// Corners meeting exactly: the mover B (unit box) touches A's top-right
// corner with its bottom-left one. Moving into both of A's faces there it
// meets the one it closes on faster, at once, at the corner (ties: x);
// moving along or away from either face, nothing. Its measure is that
// face's, at separation 0, a corner's contact.
TEST(MoveNarrowphase, CornersMeetingExactlyMeetTheFaceClosedOnFaster) {
    const Tolerances tol;
    const OtherBox a = other_box({{-1, -1}, {0, 0}}, {});
    const Aabb b_box{{0, 0}, {1, 1}};
    const auto cast = [&](Vec2 d) { return cast_boxes(a, mover_box(b_box, {}, d), d, tol); };
    const BoxCast down = cast({-0.25f, -1}); // down faster than left: A's top face
    ASSERT_EQ(down.verdict, BoxVerdict::contact);
    EXPECT_EQ(down.hit.fraction, 0);
    EXPECT_EQ(down.hit.normal, (Vec2{0, 1}));
    EXPECT_EQ(down.hit.point, (Vec2{0, 0}));
    const BoxCast left = cast({-1, -0.25f}); // left faster: A's right face
    ASSERT_EQ(left.verdict, BoxVerdict::contact);
    EXPECT_EQ(left.hit.normal, (Vec2{1, 0}));
    EXPECT_EQ(cast({-1, -1}).hit.normal, (Vec2{1, 0}));      // a tie: x
    EXPECT_EQ(cast({-1, 0}).verdict, BoxVerdict::none);      // along A's top face
    EXPECT_EQ(cast({-1, 0.5f}).verdict, BoxVerdict::none);   // up, away from it
    EXPECT_EQ(cast({-1, -1e-7f}).verdict, BoxVerdict::none); // within k_along_cosine of along
    EXPECT_EQ(cast({0.5f, -1}).verdict, BoxVerdict::none);   // right, away from the side
    const std::optional<ContactMeasure> m =
        measure_boxes(a, mover_box(b_box, {}, {}), tol, down.hit.normal);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->count, 1);
    EXPECT_EQ(m->normal, (Vec2{0, 1}));
    EXPECT_EQ(m->separation, 0);
    EXPECT_EQ(m->surface_area, 0);
    EXPECT_EQ(m->feature, ContactFeature::corners);
}

TEST(MoveNarrowphase, BoxMeasureIsTheManifoldExactly) {
    Cases cases(99);
    const int n = test::property_cases(40000);
    int decided = 0;
    int faces = 0;
    int corners = 0;
    for (int i = 0; i < n; ++i) {
        const auto [tol, unit, a_box, b_box] = cases.box_pair(false);
        const WorldBox a = world_box(a_box);
        const WorldBox b = world_box(b_box);
        ASSERT_EQ(axis_aligned_box(a.shape, {}), a.box);
        ASSERT_EQ(axis_aligned_box(b.shape, {}), b.box);
        const std::optional<ContactMeasure> fast =
            measure_boxes(other_box(a.box, {}), mover_box(b.box, {}, {}), tol, {});
        if (!fast) {
            continue;
        }
        ++decided;
        const ContactMeasure general =
            measure_contact({&a.shape, &a.proxy, {}}, {&b.shape, &b.proxy, {}}, tol);
        // collide()'s own arithmetic on the same corners: to the last bit.
        ASSERT_EQ(fast->count, general.count) << "case " << i;
        faces += general.count == 2;
        corners += general.count == 1;
        if (general.count > 0) {
            EXPECT_EQ(fast->normal, general.normal) << "case " << i;
            EXPECT_EQ(fast->separation, general.separation) << "case " << i;
            EXPECT_EQ(fast->surface_area, general.surface_area) << "case " << i;
            EXPECT_EQ(fast->feature, general.feature) << "case " << i;
        }
    }
    RecordProperty("decided", decided);
    RecordProperty("faces", faces);
    RecordProperty("corners", corners);
    EXPECT_GT(decided, n * 7 / 10) << decided << " of " << n;
    // Flush corners meet vertex to vertex in collide() (one point): those too.
    EXPECT_GT(faces, decided / 10);
    EXPECT_GT(corners, decided / 100);
}

// The overlap of mover_shapes_property_test's seed 71 (a triangle sliding
// past a segment's end): collide() keeps the segment's face, whose reading
// is a tenth of a slop within the triangle's, and reads the overlap deeper
// than it is along the triangle's face. A move's measure reads it on the
// face of least penetration: the triangle's, with the depth of the
// segment's deeper end below that face, derived here from the vertices.
TEST(MoveNarrowphase, AnOverlapIsMeasuredOnTheFaceOfLeastPenetration) {
    const Tolerances tol = Tolerances::for_units(16);
    const Shape segment = Segment{{191.182388f, 359.496796f}, {186.698074f, 366.675354f}};
    const Shape triangle = make_polygon(std::array<Vec2, 3>{Vec2{-4.5496316f, 1.23034656f},
                                                            Vec2{-0.135173604f, -4.71111727f},
                                                            Vec2{3.8972652f, 2.65032482f}})
                               .value();
    const Transform at{{190.304199f, 369.675262f}, {-0.995093048f, -0.0989437625f}};
    const ShapeProxy proxy_a = make_proxy(segment);
    const ShapeProxy proxy_b = make_proxy(triangle);

    const Manifold kept = collide(segment, {}, triangle, at, {tol.linear_slop, tol.linear_slop});
    ASSERT_EQ(kept.count, 2);
    const Vec2 segment_normal = normalize(left_perp(segment.segment.p2 - segment.segment.p1));
    ASSERT_GT(std::abs(dot(kept.normal, segment_normal)), 1 - real(1e-6));

    // The triangle's face whose outward normal points most against the
    // segment's normal, and the depth of the segment's ends below it.
    real least = -std::numeric_limits<real>::max();
    Vec2 face_normal;
    for (int i = 0; i < triangle.polygon.count; ++i) {
        const Vec2 n = rotate(at.q, triangle.polygon.normals[i]);
        const Vec2 on_face = transform_point(at, triangle.polygon.vertices[i]);
        const real depth =
            std::min(dot(segment.segment.p1 - on_face, n), dot(segment.segment.p2 - on_face, n));
        if (depth > least) {
            least = depth;
            face_normal = -n; // from the segment to the triangle
        }
    }
    const real kept_separation = std::min(kept.points[0].separation, kept.points[1].separation);
    ASSERT_LT(least, 0);
    ASSERT_GT(least, kept_separation + real(5e-4)); // 0.0196 against 0.0205

    const ContactMeasure m =
        measure_contact({&segment, &proxy_a, {}}, {&triangle, &proxy_b, at}, tol);
    ASSERT_GT(m.count, 0);
    EXPECT_GT(dot(m.normal, face_normal), 1 - real(1e-6));
    EXPECT_NEAR(m.separation, least, real(1e-4));
}

TEST(MoveNarrowphase, BoxesSaidNotToOverlapGiveNoPushOut) {
    Cases cases(5);
    const int n = test::property_cases(40000);
    int cleared = 0;
    for (int i = 0; i < n; ++i) {
        const auto [tol, unit, a_box, b_box] = cases.box_pair(false);
        const WorldBox a = world_box(a_box);
        const WorldBox b = world_box(b_box);
        const Manifold m = collide(a.shape, {}, b.shape, {}, {0, tol.linear_slop});
        real deepest = 0;
        for (int p = 0; p < m.count; ++p) {
            deepest = std::max(deepest, -m.points[p].separation);
        }
        const MoverBox mover = mover_box(b.box, {}, {});
        if (!may_overlap_boxes(other_box(a.box, {}), mover, BoxReach(b.box), tol)) {
            ++cleared;
            EXPECT_LE(deepest, tol.touch_tolerance) << "case " << i;
        } else if (overlaps(a.box, b.box)) {
            // Said to maybe overlap: then it is at least close to the push's depth.
            const real gx = std::max(a.box.lower.x - b.box.upper.x, b.box.lower.x - a.box.upper.x);
            const real gy = std::max(a.box.lower.y - b.box.upper.y, b.box.lower.y - a.box.upper.y);
            EXPECT_LT(std::max(gx, gy), -real(0.9) * tol.touch_tolerance) << "case " << i;
        }
    }
    RecordProperty("cleared", cleared);
    EXPECT_GT(cleared, n / 2);
}

// A round shape placed beside box `a` (world, L): a disc, or a capsule
// (`capsule`) of any length and direction, rounder than bounded_by_boxes
// asks (`least_radius`). Its box against a face of `a` at a gap about the
// push-out's depth and the manifold's thresholds (in touch tolerances),
// along the face, round its corner or anywhere about; its body at its
// centre, or off it and turned.
struct PlacedRound {
    Shape shape;
    Transform xf;
};

PlacedRound round_beside(Cases& cases, const Aabb& a, real unit, real touch, bool capsule,
                         real least_radius) {
    const real r = std::max(cases.uniform(0.1f, 1) * unit, least_radius * cases.uniform(1, 1.5f));
    const real turn = cases.pick(3) == 0 ? 0 : cases.uniform(-k_pi, k_pi);
    const Vec2 half_core =
        capsule ? cases.uniform(0, 1) * unit * Vec2{std::cos(turn), std::sin(turn)} : Vec2{};
    constexpr std::array<real, 12> gaps{0,     0,     0,    -1.2f, -1.05f, -0.95f,
                                        -0.8f, -0.4f, 0.3f, 1,     4,      8};
    const real gap = gaps[static_cast<std::size_t>(cases.pick(12))] * touch;
    const int axis = cases.pick(2);
    const real side = cases.pick(2) == 0 ? -1 : 1;
    const real lo = axis == 0 ? a.lower.y : a.lower.x;
    const real hi = axis == 0 ? a.upper.y : a.upper.x;
    const real reach_across = r + std::abs(axis == 0 ? half_core.y : half_core.x);
    real across = 0;
    switch (cases.pick(4)) {
    case 0: // round the corner, a share of its reach past it
        across = hi + cases.uniform(-1, 1) * reach_across;
        break;
    case 1:
        across = lo + cases.uniform(-1, 1) * reach_across;
        break;
    default:
        across = cases.uniform(lo, hi);
        break;
    }
    const real reach_along = r + std::abs(axis == 0 ? half_core.x : half_core.y);
    const real face = side > 0 ? (axis == 0 ? a.upper.x : a.upper.y) + gap + reach_along
                               : (axis == 0 ? a.lower.x : a.lower.y) - gap - reach_along;
    Vec2 centre = axis == 0 ? Vec2{face, across} : Vec2{across, face};
    if (cases.pick(4) == 0) { // anywhere about
        centre = {cases.uniform(a.lower.x - 2 * unit, a.upper.x + 2 * unit),
                  cases.uniform(a.lower.y - 2 * unit, a.upper.y + 2 * unit)};
    }
    const bool off = cases.pick(2) == 0;
    const Vec2 offset = off ? Vec2{cases.uniform(-r, r), cases.uniform(-r, r)} : Vec2{};
    const Rot q = off ? Rot::from_angle(cases.uniform(-k_pi, k_pi)) : Rot{};
    // The shape in its body's frame: its core's ends about `offset`, turned
    // back by the body's rotation, so that the world core is as chosen.
    const Vec2 local_half = inv_rotate(q, half_core);
    const Shape shape = capsule ? make_capsule(offset - local_half, offset + local_half, r).value()
                                : Shape(Circle{offset, r});
    return {shape, {centre - rotate(q, offset), q}};
}

// The push-out's bound for a disc or capsule beside an axis-aligned box (a
// round character beside a tile; bounded_by_boxes): where their boxes say
// they do not overlap deeper than the touch tolerance, collide() finds
// them no deeper, near the origin and far from it.
void expect_round_shapes_bounded_by_boxes(bool capsule, unsigned seed) {
    Cases cases(seed);
    const int n = test::property_cases(40000);
    int cleared = 0;
    int near_the_depth = 0;
    for (int i = 0; i < n; ++i) {
        const Tolerances tol = cases.tolerances();
        const real unit = tol.linear_slop / k_linear_slop;
        const PlacedBox tile = placed_box(cases.a_box(unit, cases.pick(2) == 0));
        const std::optional<Aabb> tile_box = axis_aligned_box(tile.shape, tile.xf);
        ASSERT_TRUE(tile_box.has_value()) << "case " << i;
        const real least_radius = tol.touch_tolerance + real(0.1) * tol.linear_slop;
        const PlacedRound round =
            round_beside(cases, *tile_box, unit, tol.touch_tolerance, capsule, least_radius);
        ASSERT_TRUE(bounded_by_boxes(round.shape, tol)) << "case " << i;
        const Manifold m =
            collide(tile.shape, tile.xf, round.shape, round.xf, {0, tol.linear_slop});
        real deepest = 0;
        for (int p = 0; p < m.count; ++p) {
            deepest = std::max(deepest, -m.points[p].separation);
        }
        const Aabb round_box = compute_aabb(round.shape, round.xf);
        const MoverBox mover = mover_box(round_box, round.xf.p, {});
        if (!may_overlap_boxes(other_box(*tile_box, tile.xf.p), mover, BoxReach(round_box), tol)) {
            ++cleared;
            near_the_depth += deepest > real(0.5) * tol.touch_tolerance;
            EXPECT_LE(deepest, tol.touch_tolerance) << "case " << i;
        }
    }
    ::testing::Test::RecordProperty("cleared", cleared);
    ::testing::Test::RecordProperty("near_the_depth", near_the_depth);
    EXPECT_GT(cleared, n / 2);
    EXPECT_GT(near_the_depth, n / 100); // the bound is tested near the push's depth
}

TEST(MoveNarrowphase, DiscsSaidNotToOverlapABoxGiveNoPushOut) {
    expect_round_shapes_bounded_by_boxes(false, 11);
}

TEST(MoveNarrowphase, CapsulesSaidNotToOverlapABoxGiveNoPushOut) {
    expect_round_shapes_bounded_by_boxes(true, 13);
}

// Where bounded_by_boxes draws its line: discs of any radius, capsules
// rounder than the touch tolerance and a tenth of the linear slop (the
// bound's argument needs the core that far clear of the box), no polygon.
TEST(MoveNarrowphase, ThinCapsulesAreNotBoundedByTheirBoxes) {
    const Tolerances tol;
    const real least = tol.touch_tolerance + real(0.1) * tol.linear_slop;
    // (Not at `least` itself: whether a compiler fuses the sum's product
    // into it may round the two sides apart.)
    EXPECT_FALSE(bounded_by_boxes(make_capsule({0, 0}, {1, 0}, real(0.9) * least).value(), tol));
    EXPECT_TRUE(bounded_by_boxes(make_capsule({0, 0}, {1, 0}, 2 * least).value(), tol));
    EXPECT_TRUE(bounded_by_boxes(Shape(Circle{{}, least / 2}), tol));
    EXPECT_FALSE(bounded_by_boxes(make_box(1, 1).value(), tol));
}

// The nearest points of a convex polygon (its world vertices) and a
// segment, by brute force over the segment's ends against the polygon's
// edges and the polygon's vertices against the segment: their distance,
// the unit normal from the polygon to the segment, and the least distance
// of a pair whose normal differs from it by more than 1e-3 (where the
// nearest pair is not clear, a normal may rightly be either).
struct NearestPair {
    real distance = std::numeric_limits<real>::max();
    Vec2 normal;
    real rival = std::numeric_limits<real>::max();
    bool end_over_face = false; // the nearest pair is a segment end and its foot inside an edge
};

Vec2 nearest_on(Vec2 p, Vec2 a, Vec2 b, bool* inside = nullptr) {
    const Vec2 ab = b - a;
    const real t = std::clamp(dot(p - a, ab) / dot(ab, ab), real(0), real(1));
    if (inside) {
        *inside = t > 0 && t < 1;
    }
    return a + t * ab;
}

NearestPair nearest_pair(const std::vector<Vec2>& polygon, Vec2 s1, Vec2 s2) {
    struct Pair {
        real distance;
        Vec2 normal;
        bool end_over_face;
    };
    std::vector<Pair> pairs;
    const std::size_t n = polygon.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = polygon[i];
        const Vec2 b = polygon[(i + 1) % n];
        for (const Vec2 end : {s1, s2}) {
            bool inside = false;
            const Vec2 q = nearest_on(end, a, b, &inside);
            pairs.push_back({length(end - q), normalize(end - q), inside});
        }
        const Vec2 q = nearest_on(a, s1, s2);
        pairs.push_back({length(q - a), normalize(q - a), false});
    }
    NearestPair out;
    for (const Pair& p : pairs) {
        if (p.distance < out.distance) {
            out.distance = p.distance;
            out.normal = p.normal;
            out.end_over_face = p.end_over_face;
        }
    }
    for (const Pair& p : pairs) {
        if (dot(p.normal, out.normal) < std::cos(real(1e-3))) {
            out.rival = std::min(out.rival, p.distance);
        }
    }
    return out;
}

// A move's measure of a capsule against a polygon it touches or nearly
// touches gives the cores' normal (contact_normal: GJK's, or the face's
// where the core's nearest end stands over it), against the brute-force
// nearest points: boxes upright or turned and hulls of random points, with
// capsules over their faces, past their ends and at their corners, near
// the origin and far from it.
TEST(MoveNarrowphase, ACapsuleIsMeasuredOnItsCoresNearestPoints) {
    Cases cases(17);
    const int n = test::property_cases(20000);
    int over_faces = 0;
    int checked = 0;
    for (int i = 0; i < n; ++i) {
        const Tolerances tol = cases.tolerances();
        const real unit = tol.linear_slop / k_linear_slop;
        const bool far = cases.pick(2) == 0;
        const Vec2 centre{cases.uniform(-200, 200) * unit * far,
                          cases.uniform(-200, 200) * unit * far};
        Shape polygon_shape;
        if (cases.pick(2) == 0) {
            polygon_shape =
                make_box(cases.uniform(0.2f, 2) * unit, cases.uniform(0.2f, 2) * unit).value();
        } else {
            std::vector<Vec2> points;
            for (int k = 0; k < 8; ++k) {
                points.push_back({cases.uniform(-2, 2) * unit, cases.uniform(-2, 2) * unit});
            }
            const Result<Polygon> hull = make_polygon(points);
            if (!hull) {
                continue;
            }
            polygon_shape = *hull;
        }
        const Rot q = cases.pick(3) == 0 ? Rot{} : Rot::from_angle(cases.uniform(-k_pi, k_pi));
        const Transform xf_a{centre, q};
        const Polygon& poly = polygon_shape.polygon;
        std::vector<Vec2> world;
        for (int k = 0; k < poly.count; ++k) {
            world.push_back(transform_point(xf_a, poly.vertices[static_cast<std::size_t>(k)]));
        }
        // The capsule: its core's nearer end at a gap from a point of an
        // edge (inside it, or past an end), leaning any way or upright.
        const std::size_t edge = static_cast<std::size_t>(cases.pick(poly.count));
        const Vec2 v1 = world[edge];
        const Vec2 v2 = world[(edge + 1) % world.size()];
        const Vec2 out = rotate(q, poly.normals[edge]);
        const real r = cases.uniform(0.05f, 0.5f) * unit;
        const real gap = (cases.pick(2) == 0 ? cases.uniform(0, 0.05f) : cases.uniform(-0.5f, 1)) *
                         tol.linear_slop;
        // Along the edge, or within a few slops of an end, over it or past it.
        constexpr std::array<real, 8> by_end{-2, -0.5f, -0.1f, -0.02f, 0.02f, 0.1f, 0.5f, 2};
        const Vec2 dir = normalize(v2 - v1);
        const real off = by_end[static_cast<std::size_t>(cases.pick(8))] * tol.linear_slop;
        Vec2 foot = v1 + cases.uniform(-0.2f, 1.2f) * (v2 - v1);
        switch (cases.pick(3)) {
        case 0:
            foot = v1 + off * dir;
            break;
        case 1:
            foot = v2 - off * dir;
            break;
        default:
            break;
        }
        const Vec2 end = foot + (r + gap) * out;
        const real lean = cases.pick(3) == 0 ? 0 : cases.uniform(-1.4f, 1.4f);
        const Vec2 along = rotate(Rot::from_angle(lean), out);
        const Vec2 other_end = end + cases.uniform(0.1f, 2) * unit * along;
        const Shape capsule = make_capsule(end - centre, other_end - centre, r).value();
        const Transform xf_b{centre, {}};
        const ShapeProxy proxy_a = make_proxy(polygon_shape);
        const ShapeProxy proxy_b = make_proxy(capsule);
        const ContactMeasure m =
            measure_contact({&polygon_shape, &proxy_a, xf_a}, {&capsule, &proxy_b, xf_b}, tol);
        const NearestPair truth = nearest_pair(world, end, other_end);
        if (m.count == 0 || truth.distance < r ||
            truth.rival - truth.distance < real(1e-3) * unit) {
            continue; // no contact, cores crossing, or no one nearest pair
        }
        ++checked;
        over_faces += truth.end_over_face;
        EXPECT_GT(dot(m.normal, truth.normal), std::cos(real(2e-3))) << "case " << i;
    }
    RecordProperty("checked", checked);
    RecordProperty("over_faces", over_faces);
    EXPECT_GT(checked, n / 4);
    EXPECT_GT(over_faces, checked / 4);
}

// B's part of the rounding scale: the largest magnitude among the
// coordinates of its box, of the box moved by the motion and of its origin.
TEST(MoveNarrowphase, MoverBoxExtentIsItsLargestCoordinateInMagnitude) {
    const Aabb box{{-3, 1}, {2, 5}};
    EXPECT_EQ(mover_box(box, {4, -1}, {}).extent, 5);          // the box's top
    EXPECT_EQ(mover_box(box, {4, -7}, {}).extent, 7);          // the origin
    EXPECT_EQ(mover_box(box, {4, -7}, {-6, 0}).extent, 9);     // the moved box's left side
    EXPECT_EQ(mover_box(box, {0, 0}, {1, 0.5f}).extent, 5.5f); // the moved box's top
    const MoverBox mover = mover_box(box, {4, -7}, {-6, 0});
    EXPECT_EQ(mover.box, box);
    EXPECT_EQ(mover.origin, (Vec2{4, -7}));
    EXPECT_EQ(mover.swept, (Aabb{{-9, 1}, {2, 5}})); // the box over the motion
}

// A's part of the rounding scale: the largest magnitude among the
// coordinates of its box and of its origin.
TEST(MoveNarrowphase, OtherBoxExtentIsItsLargestCoordinateInMagnitude) {
    const Aabb box{{-3, 1}, {2, 5}};
    EXPECT_EQ(other_box(box, {4, -1}).extent, 5);          // the box's top
    EXPECT_EQ(other_box(box, {4, -7}).extent, 7);          // the origin
    EXPECT_EQ(other_box({{-9, 1}, {2, 5}}, {}).extent, 9); // the box's left side
    const OtherBox other = other_box(box, {4, -7});
    EXPECT_EQ(other.box, box);
    EXPECT_EQ(other.origin, (Vec2{4, -7}));
}

// The cast's first rule: a face between the boxes within the touch
// tolerance that the motion does not close makes a graze (no contact).
TEST(MoveNarrowphase, BoxesBesideAFaceTheMotionDoesNotCloseOnlyGraze) {
    const Tolerances tol = Tolerances::for_units(16);
    const Aabb floor{{0, 0}, {16, 16}};
    const MoverBox standing = mover_box({{2, 16}, {14, 28}}, {8, 22}, {});
    const std::array<AxisGaps, 2> g = box_gaps(floor, standing.box);
    EXPECT_EQ(g[1].above, 0); // standing on the floor's top
    const real mu = box_rounding(other_box(floor, {8, 8}), standing);
    EXPECT_GT(mu, 0);
    EXPECT_LT(mu, tol.touch_tolerance);
    EXPECT_FALSE(graze_free(g, {3, 0}, tol.touch_tolerance, mu)); // sliding along it
    EXPECT_FALSE(graze_free(g, {0, 3}, tol.touch_tolerance, mu)); // leaving it
    EXPECT_TRUE(graze_free(g, {1, -3}, tol.touch_tolerance, mu)); // pressing into it
    EXPECT_EQ(
        cast_boxes(other_box(floor, {8, 8}), mover_box(standing.box, {8, 22}, {3, 0}), {3, 0}, tol)
            .verdict,
        BoxVerdict::none);
}

TEST(MoveNarrowphase, AxisAlignedBoxIsTheBoxOnlyWhenTheEdgesAreExactlyAxisAligned) {
    const Shape box = make_box(2, 1).value();
    const std::optional<Aabb> at = axis_aligned_box(box, {{10, 20}, {}});
    ASSERT_TRUE(at);
    EXPECT_EQ(at->lower, (Vec2{8, 19}));
    EXPECT_EQ(at->upper, (Vec2{12, 21}));
    // A quarter turn given exactly keeps the edges on the axes (sides swap).
    const std::optional<Aabb> turned = axis_aligned_box(box, {{0, 0}, {0, 1}});
    ASSERT_TRUE(turned);
    EXPECT_EQ(turned->lower, (Vec2{-1, -2}));
    EXPECT_EQ(turned->upper, (Vec2{1, 2}));
    // Rot::from_angle(pi / 2) is a hair off the axes; any other angle too.
    EXPECT_FALSE(axis_aligned_box(box, {{0, 0}, Rot::from_angle(k_pi / 2)}));
    EXPECT_FALSE(axis_aligned_box(box, {{0, 0}, Rot::from_angle(0.1f)}));
    EXPECT_FALSE(axis_aligned_box(make_rounded_box(2, 1, 0.1f).value(), {}));
    EXPECT_FALSE(axis_aligned_box(Circle{{}, 1}, {}));
    const std::array<Vec2, 4> kite{Vec2{0, -1}, Vec2{1, 0}, Vec2{0, 1}, Vec2{-1, 0}};
    EXPECT_FALSE(axis_aligned_box(make_polygon(kite).value(), {}));
}

// The shortcut for an unrotated body (its box in its own frame moved by
// the translation) against the full check of the placed vertices and
// normals: boxes of every size, offset and turned a quarter or a hair,
// rounded boxes and other polygons, at positions from 0 to where the
// rounding of the translation flattens a box; the same answer, bit for bit
// but for the sign of a zero.
TEST(MoveNarrowphase, AxisAlignedBoxFromTheLocalBoxAgreesWithTheFullCheck) {
    std::mt19937 rng(20261125);
    std::uniform_real_distribution<real> unit(0, 1);
    std::uniform_int_distribution<int> pick(0, 7);
    const auto size = [&] { return std::pow(real(10), real(-6) + 9 * unit(rng)); };
    // Up to where the rounding of the position is about 10 L, in float or double.
    const real top = 1 - std::log10(std::numeric_limits<real>::epsilon());
    const auto position = [&] {
        const real magnitude = std::pow(real(10), real(-3) + (top + 3) * unit(rng));
        return (unit(rng) < real(0.5) ? -1 : 1) * magnitude * unit(rng);
    };
    const int n = test::property_cases(200000);
    int boxes = 0;
    int flattened = 0;
    for (int i = 0; i < n; ++i) {
        const real hx = size();
        const real hy = unit(rng) < real(0.2) ? hx : size();
        const Vec2 offset{position(), position()};
        const std::array<Vec2, 3> tri{Vec2{0, 0}, Vec2{hx, 0}, Vec2{0, hy}};
        const int kind = pick(rng);
        const Result<Polygon> polygon =
            kind < 3    ? make_box(hx, hy)
            : kind == 3 ? make_offset_box(hx, hy, offset, 0)
            : kind == 4 ? make_offset_box(hx, hy, offset, k_pi / 2 * real(pick(rng) % 4))
            : kind == 5 ? make_offset_box(hx, hy, offset, real(1e-6) * unit(rng))
            : kind == 6 ? make_rounded_box(hx, hy, hx * unit(rng) + real(1e-6))
                        : make_polygon(tri);
        if (!polygon) {
            continue; // a box far off its frame's origin rounded flat
        }
        const Shape shape = polygon.value();
        const std::optional<Aabb> local = axis_aligned_box(shape, Transform{});
        Transform xf;
        xf.p = {position(), position()};
        const int turn = pick(rng);
        xf.q = turn < 5 ? Rot{} : turn == 5 ? Rot{0, 1} : Rot::from_angle(unit(rng));
        const std::optional<Aabb> full = axis_aligned_box(shape, xf);
        const std::optional<Aabb> fast = axis_aligned_box(shape, local, xf);
        ASSERT_EQ(fast.has_value(), full.has_value()) << "case " << i;
        if (full) {
            ASSERT_EQ(fast->lower, full->lower) << "case " << i;
            ASSERT_EQ(fast->upper, full->upper) << "case " << i;
            ++boxes;
        } else if (local && xf.q.c == 1) {
            ++flattened;
        }
    }
    // Both answers, and boxes flattened by the rounding, came up often.
    EXPECT_GT(boxes, n / 5);
    EXPECT_LT(boxes, n - n / 5);
    EXPECT_GT(flattened, n / 100);
}

} // namespace
} // namespace sweep::detail

namespace sweep {
namespace {

// A box under a ceiling, 1.2 touch tolerances from a wall, moving up and
// right: the ceiling stops the closing of the gaps at once (both are ties),
// and the wall, still apart, must not hold the box there: it slides on
// until it touches the wall. The wall's top flush with the box's (with the
// ceiling running on over it), or above it, so that the box's side faces
// the wall's over its whole height.
TEST(MoveBoxes, BoxUnderACeilingSlidesOnToTheWall) {
    for (const real wall_top : {real(1), real(1.5f)}) {
        World world = std::move(World::make({}).value());
        const real touch = world.tolerances().touch_tolerance;
        std::vector<ShapeDef> tiles{
            {make_offset_box(0.5f, 0.5f, {0.5f, 1.5f}, 0).value(), {}},
            {make_offset_box(0.5f, wall_top / 2, {1.5f, wall_top / 2}, 0).value(), {}}};
        if (wall_top == 1) {
            tiles.push_back({make_offset_box(0.5f, 0.5f, {1.5f, 1.5f}, 0).value(), {}});
        }
        ASSERT_TRUE(world.create_body({}, tiles));
        BodyDef def;
        def.type = BodyType::kinematic;
        // Top at y = 1 exactly (binary fractions), on the ceiling.
        def.position = {1 - 0.375f - real(1.2) * touch, 0.625f};
        const ShapeDef box{make_box(0.375f, 0.375f).value(), {}};
        const BodyId c = world.create_body(def, std::span(&box, 1)).value();
        const MoveResult r = world.move(c, {0.3f, 0.2f}).value();
        EXPECT_NEAR(r.position.x, 0.625f, 1e-6f) << wall_top;
        EXPECT_EQ(r.position.y, 0.625f) << wall_top;
    }
}

} // namespace
} // namespace sweep
