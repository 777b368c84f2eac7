// Hand-derived cases for the seed articles' closed-form sweeps: swept AABB,
// Cramer's-rule segment intersection, swept circles and spheres, and a circle
// swept against a box. Every expected value is worked out in the comment
// above it.
#include "sweep/swept.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "printers.hpp"

namespace sweep {
namespace {

constexpr real k_eps = real(1e-5);
using State = SegmentIntersectionState;

Aabb box(real x0, real y0, real x1, real y1) { return {{x0, y0}, {x1, y1}}; }

// --- swept AABB (Sacred Software, "Collisions, Part 1") ---------------------

TEST(SweptAabb, UnitBoxMovingRightEntersAtTwoThirds) {
    // A = [0,1]^2 moves (3, 0); B = [3,4] x [0,1] is 2 units away. x slab:
    // entry (3 - 1) / 3 = 2/3, exit (4 - 0) / 3 = 4/3. y: no motion, the
    // projections overlap on [0, 1]. Normal from A to B: +x. The touching
    // faces overlap over the whole height 1.
    const SweptAabbResult r = swept_aabb(box(0, 0, 1, 1), {3, 0}, box(3, 0, 4, 1));
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.entry, real(2) / 3, k_eps);
    EXPECT_NEAR(r.exit, real(4) / 3, k_eps);
    EXPECT_EQ(r.axis, 0);
    EXPECT_EQ(r.normal, (Vec2{1, 0}));
    EXPECT_NEAR(r.contact_length, 1, k_eps);
}

TEST(SweptAabb, FallingBoxLandsOnTopFaceWithDownwardNormal) {
    // A = [0,1] x [5,6] moves (0.5, -8) onto B = [-2,2] x [0,1]: y entry
    // (1 - 5) / -8 = 0.5 (A's bottom meets B's top), exit (6 - 0) / 8 = 0.75;
    // x: entry (-2 - 1) / 0.5 = -6, exit (2 - 0) / 0.5 = 4. Latest entry 0.5
    // on y; normal from A (above) to B (below): -y. At t = 0.5 A spans x in
    // [0.25, 1.25], all over B: contact length 1.
    const SweptAabbResult r = swept_aabb(box(0, 5, 1, 6), {0.5, -8}, box(-2, 0, 2, 1));
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.entry, real(0.5), k_eps);
    EXPECT_NEAR(r.exit, real(0.75), k_eps);
    EXPECT_EQ(r.axis, 1);
    EXPECT_EQ(r.normal, (Vec2{0, -1}));
    EXPECT_NEAR(r.contact_length, 1, k_eps);
}

TEST(SweptAabb, DiagonalPastACornerMissesWhereTheUnionRectangleWouldHit) {
    // A = [0,1]^2 moves (4, 4) past B = [3,4] x [0,1]: x slab [2/4, 5/4],
    // y slab [(0 - 1) / 4, (1 - 0) / 4] = [-1/4, 1/4]. Latest entry 1/2 is
    // after the earliest exit 1/4: miss (the article's union rectangle of
    // the start and end boxes would cover B).
    EXPECT_EQ(swept_aabb(box(0, 0, 1, 1), {4, 4}, box(3, 0, 4, 1)).state, CastState::miss);
}

TEST(SweptAabb, StopsShortIsAMiss) {
    // Entry at 2 / 1.5 = 4/3 > 1.
    EXPECT_EQ(swept_aabb(box(0, 0, 1, 1), {1.5, 0}, box(3, 0, 4, 1)).state, CastState::miss);
}

TEST(SweptAabb, TouchingStartMovingInwardHitsAtZero) {
    // A's right face x = 1 touches B's left face: gap 0, moving +x closes it.
    const SweptAabbResult r = swept_aabb(box(0, 0, 1, 1), {1, 0.2f}, box(1, -1, 2, 2));
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_EQ(r.entry, 0);
    EXPECT_EQ(r.normal, (Vec2{1, 0}));
}

TEST(SweptAabb, TouchingStartSlidingAlongOrAwayIsAMiss) {
    // A rests on B (A's bottom y = 1 = B's top). Sliding along +x keeps the
    // gap 0; moving up opens it; a gap within the touch tolerance counts as 0.
    const Aabb floor = box(-5, 0, 5, 1);
    EXPECT_EQ(swept_aabb(box(0, 1, 1, 2), {3, 0}, floor).state, CastState::miss);
    EXPECT_EQ(swept_aabb(box(0, 1, 1, 2), {3, 1}, floor).state, CastState::miss);
    const real inside = k_touch_tolerance / 2; // sunk, but within the band
    EXPECT_EQ(swept_aabb(box(0, 1 - inside, 1, 2 - inside), {3, 0}, floor).state, CastState::miss);
    EXPECT_EQ(swept_aabb(box(0, 1 + inside, 1, 2 + inside), {3, 0}, floor).state, CastState::miss);
    // Moving down into it from within the band: t = 0, normal -y.
    const SweptAabbResult r = swept_aabb(box(0, 1 + inside, 1, 2 + inside), {0, -1}, floor);
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_EQ(r.entry, 0);
    EXPECT_EQ(r.normal, (Vec2{0, -1}));
}

TEST(SweptAabb, CornerTouchingAndSlidingPastTheCornerIsAMiss) {
    // A's top-right corner (1, 1) touches B's bottom-left corner; moving +x
    // slides A's top face along B's bottom face (gap 0 on y): no penetration.
    EXPECT_EQ(swept_aabb(box(0, 0, 1, 1), {2, 0}, box(1, 1, 2, 2)).state, CastState::miss);
}

TEST(SweptAabb, ExactCornerHitPicksTheFasterAxisThenX) {
    // A = [0,1]^2 moving (2, 1) at B = [2,3] x [1.5,2.5]: x entry 1/2, y entry
    // 0.5 / 1 = 1/2: a tie; x closes faster (2 > 1), so x with normal +x.
    const SweptAabbResult r = swept_aabb(box(0, 0, 1, 1), {2, 1}, box(2, 1.5f, 3, 2.5f));
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.entry, real(0.5), k_eps);
    EXPECT_EQ(r.axis, 0);
    // Equal speeds: x.
    const SweptAabbResult s = swept_aabb(box(0, 0, 1, 1), {2, 2}, box(2, 2, 3, 3));
    ASSERT_EQ(s.state, CastState::hit);
    EXPECT_EQ(s.axis, 0);
    EXPECT_NEAR(s.contact_length, 0, k_eps); // corner to corner: the crack case
}

TEST(SweptAabb, OverlappedStartReportsWhenTheyPart) {
    // A = [0,1]^2 overlaps B = [0.5,1.5] x [0,1] by 0.5 on x; moving -x by 1,
    // A's right face passes B's left face x = 0.5 at (1 - 0.5) / 1 = 0.5.
    const SweptAabbResult r = swept_aabb(box(0, 0, 1, 1), {-1, 0}, box(0.5f, 0, 1.5f, 1));
    ASSERT_EQ(r.state, CastState::overlapped);
    EXPECT_NEAR(r.exit, real(0.5), k_eps);
    // Standing still: they never part.
    EXPECT_EQ(swept_aabb(box(0, 0, 1, 1), {0, 0}, box(0.5f, 0, 1.5f, 1)).exit,
              std::numeric_limits<real>::infinity());
}

TEST(SweptAabb, NonFiniteOrInvertedInputIsInvalid) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    EXPECT_EQ(swept_aabb(box(0, 0, 1, 1), {nan, 0}, box(3, 0, 4, 1)).state,
              CastState::invalid_input);
    EXPECT_EQ(swept_aabb(box(1, 0, 0, 1), {1, 0}, box(3, 0, 4, 1)).state, CastState::invalid_input);
}

// --- segment intersection (Cramer's rule) ----------------------------------

TEST(IntersectSegments, CrossingSegmentsMeetAtCramersParameters) {
    // P = (0,0) -> (2,0), Q = (1,-1) -> (1,1): dp = (2,0), dq = (0,2),
    // d = cross(dp, dq) = 4, w = q0 - p0 = (1,-1); t = cross(w, dq) / d =
    // (1*2 - (-1)*0) / 4 = 1/2, s = cross(w, dp) / d = (1*0 - (-1)*2) / 4 =
    // 1/2. Point (1, 0).
    const SegmentIntersection r = intersect_segments({0, 0}, {2, 0}, {1, -1}, {1, 1});
    ASSERT_EQ(r.state, State::point);
    EXPECT_NEAR(r.t, real(0.5), k_eps);
    EXPECT_NEAR(r.s, real(0.5), k_eps);
    EXPECT_NEAR(r.point.x, 1, k_eps);
    EXPECT_NEAR(r.point.y, 0, k_eps);
}

TEST(IntersectSegments, UnequalParametersAndOutOfRangeMisses) {
    // P = (0,0) -> (4,4), Q = (0,3) -> (3,0): the lines meet at (1.5, 1.5),
    // t = 1.5 / 4 = 0.375 on P and s = 1.5 / 3 = 0.5 on Q.
    const SegmentIntersection r = intersect_segments({0, 0}, {4, 4}, {0, 3}, {3, 0});
    ASSERT_EQ(r.state, State::point);
    EXPECT_NEAR(r.t, real(0.375), k_eps);
    EXPECT_NEAR(r.s, real(0.5), k_eps);
    // Shorten P to (0,0) -> (1,1): the lines still meet at (1.5, 1.5), t = 1.5.
    EXPECT_EQ(intersect_segments({0, 0}, {1, 1}, {0, 3}, {3, 0}).state, State::disjoint);
}

TEST(IntersectSegments, TJunctionAndSharedEndpointCount) {
    // Q = (1,0) -> (1,1) starts on P = (0,0) -> (2,0): t = 1/2, s = 0.
    const SegmentIntersection t = intersect_segments({0, 0}, {2, 0}, {1, 0}, {1, 1});
    ASSERT_EQ(t.state, State::point);
    EXPECT_NEAR(t.t, real(0.5), k_eps);
    EXPECT_NEAR(t.s, 0, k_eps);
    // P ends where Q starts, at an angle: t = 1, s = 0.
    const SegmentIntersection e = intersect_segments({0, 0}, {1, 0}, {1, 0}, {2, 3});
    ASSERT_EQ(e.state, State::point);
    EXPECT_NEAR(e.t, 1, k_eps);
    EXPECT_NEAR(e.s, 0, k_eps);
}

TEST(IntersectSegments, ParallelOnDistinctLinesNeverMeet) {
    // d = cross((2,0), (2,0)) = 0 and Q lies 1 above P's line.
    EXPECT_EQ(intersect_segments({0, 0}, {2, 0}, {0, 1}, {2, 1}).state, State::parallel);
}

TEST(IntersectSegments, CollinearOverlapReportsTheInterval) {
    // P = (0,0) -> (4,0), Q = (3,0) -> (1,0): common part x in [1, 3], i.e.
    // t in [1/4, 3/4] on P; Q passes x = 1 at s = 1 and x = 3 at s = 0. The
    // first common point along P is (1, 0).
    const SegmentIntersection r = intersect_segments({0, 0}, {4, 0}, {3, 0}, {1, 0});
    ASSERT_EQ(r.state, State::collinear);
    EXPECT_NEAR(r.t, real(0.25), k_eps);
    EXPECT_NEAR(r.t_end, real(0.75), k_eps);
    EXPECT_NEAR(r.s, 1, k_eps);
    EXPECT_NEAR(r.s_end, 0, k_eps);
    EXPECT_NEAR(r.point.x, 1, k_eps);
    // P reversed, (4,0) -> (0,0): x = 3 comes first, at t = 1/4, s = 0.
    const SegmentIntersection b = intersect_segments({4, 0}, {0, 0}, {3, 0}, {1, 0});
    ASSERT_EQ(b.state, State::collinear);
    EXPECT_NEAR(b.t, real(0.25), k_eps);
    EXPECT_NEAR(b.s, 0, k_eps);
    EXPECT_NEAR(b.point.x, 3, k_eps);
}

TEST(IntersectSegments, CollinearEndToEndTouchIsAPointAndAGapIsDisjoint) {
    // (0,0)->(1,1) and (1,1)->(3,3) share only (1,1): t = 1, s = 0.
    const SegmentIntersection r = intersect_segments({0, 0}, {1, 1}, {1, 1}, {3, 3});
    ASSERT_EQ(r.state, State::point);
    EXPECT_NEAR(r.t, 1, k_eps);
    EXPECT_NEAR(r.s, 0, k_eps);
    EXPECT_EQ(intersect_segments({0, 0}, {1, 1}, {2, 2}, {3, 3}).state, State::disjoint);
}

TEST(IntersectSegments, ZeroLengthSegmentsArePoints) {
    // P is the point (1, 0), on Q = (0,0) -> (4,0) at s = 1/4.
    const SegmentIntersection r = intersect_segments({1, 0}, {1, 0}, {0, 0}, {4, 0});
    ASSERT_EQ(r.state, State::point);
    EXPECT_NEAR(r.s, real(0.25), k_eps);
    EXPECT_EQ(intersect_segments({1, 1}, {1, 1}, {0, 0}, {4, 0}).state, State::parallel);
    EXPECT_EQ(intersect_segments({1, 1}, {1, 1}, {1, 1}, {1, 1}).state, State::point);
    EXPECT_EQ(intersect_segments({1, 1}, {1, 1}, {2, 1}, {2, 1}).state, State::disjoint);
}

TEST(IntersectSegments, NonFiniteInputIsInvalid) {
    const real inf = std::numeric_limits<real>::infinity();
    EXPECT_EQ(intersect_segments({0, 0}, {inf, 0}, {1, -1}, {1, 1}).state, State::invalid_input);
}

// --- swept circles and spheres ("Predictive Collision Detection") ----------

TEST(SweptCircles, HeadOnCirclesMeetWhenTheGapCloses) {
    // A (r = 1) at (0,0) moves to (4,0); B (r = 1) at (10,0) moves to (6,0).
    // dp = (10,0), dv = (-4,0) - (4,0) = (-8,0): |10 - 8t| = 2 at t = 1
    // (the smaller root; the larger, 12 / 8 = 1.5, is when they part).
    // Normal +x; contact point on A at (4,0) + (1,0) = (5,0).
    const SweptCircleResult r = swept_circles({0, 0}, {4, 0}, 1, {10, 0}, {6, 0}, 1);
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.t, 1, k_eps);
    EXPECT_NEAR(r.exit, real(1.5), k_eps);
    EXPECT_NEAR(r.normal.x, 1, k_eps);
    EXPECT_NEAR(r.point.x, 5, k_eps);
}

TEST(SweptCircles, GlancingPassAndClosestApproach) {
    // B (r = 1) still at (5, 1.5); A (r = 1) moves (0,0) -> (10,0): dp =
    // (5, 1.5), dv = (-10, 0). |dp + t dv|^2 = (5 - 10t)^2 + 2.25 = 4 gives
    // (5 - 10t)^2 = 1.75, t = (5 - sqrt(1.75)) / 10 = 0.367712...
    const SweptCircleResult r = swept_circles({0, 0}, {10, 0}, 1, {5, 1.5f}, {5, 1.5f}, 1);
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.t, (5 - std::sqrt(real(1.75))) / 10, k_eps);
    // Offset 2.5 > 2: the closest approach (2.5) never reaches 2.
    EXPECT_EQ(swept_circles({0, 0}, {10, 0}, 1, {5, 2.5f}, {5, 2.5f}, 1).state, CastState::miss);
    // Moving apart, or short of contact.
    EXPECT_EQ(swept_circles({0, 0}, {-10, 0}, 1, {5, 0}, {5, 0}, 1).state, CastState::miss);
    EXPECT_EQ(swept_circles({0, 0}, {2, 0}, 1, {5, 0}, {5, 0}, 1).state, CastState::miss);
}

TEST(SweptCircles, TouchingStartHitsOnlyWhenClosing) {
    // Centres 2 apart, radii 1 + 1: touching. dp.dv < 0 closing -> t = 0.
    const SweptCircleResult in = swept_circles({0, 0}, {1, 0}, 1, {2, 0}, {2, 0}, 1);
    ASSERT_EQ(in.state, CastState::hit);
    EXPECT_EQ(in.t, 0);
    EXPECT_NEAR(in.normal.x, 1, k_eps);
    // Tangential (dp.dv = 0) and away: miss.
    EXPECT_EQ(swept_circles({0, 0}, {0, 1}, 1, {2, 0}, {2, 0}, 1).state, CastState::miss);
    EXPECT_EQ(swept_circles({0, 0}, {-1, 0}, 1, {2, 0}, {2, 0}, 1).state, CastState::miss);
}

TEST(SweptCircles, OverlappedAndConcentricStartsAreReported) {
    // Centres 1 apart, radii sum 2: overlapped; moving A by -x 3 they part
    // when 1 + 3t = 2, t = 1/3.
    const SweptCircleResult r = swept_circles({0, 0}, {-3, 0}, 1, {1, 0}, {1, 0}, 1);
    ASSERT_EQ(r.state, CastState::overlapped);
    EXPECT_NEAR(r.exit, real(1) / 3, k_eps);
    EXPECT_EQ(swept_circles({0, 0}, {1, 0}, 1, {0, 0}, {1, 0}, 1).state, CastState::overlapped);
    EXPECT_EQ(swept_circles({0, 0}, {1, 0}, -1, {3, 0}, {3, 0}, 1).state, CastState::invalid_input);
}

TEST(SweptCircles, FastThinApproachIsNotTunnelled) {
    // A point (r = 0) crossing 2000 units in one step through B (r = 0.01)
    // at (1000, 0): |1000 - 2000 t| = 0.01 at t = 0.499995.
    const SweptCircleResult r = swept_circles({0, 0}, {2000, 0}, 0, {1000, 0}, {1000, 0}, 0.01f);
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.t, real(0.499995), real(1e-6));
}

TEST(SweptSpheres, ThreeDimensionalQuadratic) {
    // A (r = 1) moves (0,0,0) -> (0,0,10); B (r = 2) still at (0, 1.5, 6):
    // (6 - 10t)^2 + 2.25 = 9, 6 - 10t = sqrt(6.75), t = (6 - 2.598076) / 10.
    const SweptSphereResult r =
        swept_spheres({0, 0, 0}, {0, 0, 10}, 1, {0, 1.5f, 6}, {0, 1.5f, 6}, 2);
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.t, (6 - std::sqrt(real(6.75))) / 10, k_eps);
    // Normal from A's centre (0, 0, 3.40192) to B's: (0, 1.5, 2.59808) / 3.
    EXPECT_NEAR(r.normal.y, real(0.5), k_eps);
    EXPECT_NEAR(r.normal.z, std::sqrt(real(6.75)) / 3, k_eps);
    // Offset in z keeps a 2D-projection hit from counting: B at (0, 0, -5)
    // is behind A's motion: miss.
    EXPECT_EQ(swept_spheres({0, 0, 0}, {0, 0, 10}, 1, {0, 0, -5}, {0, 0, -5}, 2).state,
              CastState::miss);
}

// --- swept circle vs AABB (Ericson, "Real-Time Collision Detection" 5.5.7) --
//
// The box B = [0,2] x [0,1] throughout. The circle's centre c + t d; its
// separation from B is the centre's distance to B less the radius.

const Aabb k_b = box(0, 0, 2, 1);

TEST(SweptCircleAabb, FaceHitAtTheGrownFaceWithTheAxisNormal) {
    // r = 0.5 from (-2, 0.5) by (4, 0.4): the left face x = 0 is met when the
    // centre reaches x = -0.5: -2 + 4t = -0.5, t = 0.375. The centre's y is
    // then 0.5 + 0.375 * 0.4 = 0.65, within [0, 1]: a face, normal -x (from
    // B to the circle), the nearest point (0, 0.65).
    const SweptCircleAabbResult r = swept_circle_aabb(k_b, {-2, 0.5f}, 0.5f, {4, 0.4f});
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.t, real(0.375), k_eps);
    EXPECT_EQ(r.normal, (Vec2{-1, 0}));
    EXPECT_NEAR(r.point.x, 0, k_eps);
    EXPECT_NEAR(r.point.y, real(0.65), k_eps);
    EXPECT_FALSE(r.corner);
    // Falling onto the top face: r = 0.25 from (1.2, 3) by (0.4, -4): y = 1.25
    // at 3 - 4t = 1.25, t = 0.4375; x = 1.2 + 0.175 = 1.375. Normal +y.
    const SweptCircleAabbResult f = swept_circle_aabb(k_b, {1.2f, 3}, 0.25f, {0.4f, -4});
    ASSERT_EQ(f.state, CastState::hit);
    EXPECT_NEAR(f.t, real(0.4375), k_eps);
    EXPECT_EQ(f.normal, (Vec2{0, 1}));
    EXPECT_NEAR(f.point.x, real(1.375), k_eps);
    EXPECT_NEAR(f.point.y, 1, k_eps);
    EXPECT_FALSE(f.corner);
}

TEST(SweptCircleAabb, CornerHitByTheCornersCircle) {
    // r = 1 from (-3, 1.6) by (4, 0): the centre's line y = 1.6 is 0.6 above
    // the top face, so it enters the grown box (x >= -1) at the top-left
    // corner's square (y > 1). The corner (0, 1) is met when
    // x^2 + 0.6^2 = 1, x = -0.8: -3 + 4t = -0.8, t = 0.55. Normal from the
    // corner to the centre (-0.8, 1.6): (-0.8, 0.6).
    const SweptCircleAabbResult r = swept_circle_aabb(k_b, {-3, 1.6f}, 1, {4, 0});
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_NEAR(r.t, real(0.55), k_eps);
    EXPECT_NEAR(r.normal.x, real(-0.8), k_eps);
    EXPECT_NEAR(r.normal.y, real(0.6), k_eps);
    EXPECT_NEAR(r.point.x, 0, k_eps);
    EXPECT_NEAR(r.point.y, 1, k_eps);
    EXPECT_TRUE(r.corner);
}

TEST(SweptCircleAabb, PathThroughACornersSquareMissingTheRoundedCornerMisses) {
    // r = 1 from (-1.8, 1) by (2, 2): the centre enters the grown box
    // [-1, 3] x [-1, 2] at x = -1 (t = 0.4, y = 1.8 > 1: the top-left
    // corner's square) and leaves it at y = 2 (t = 0.5) without entering
    // the box beside a face. Its line passes the corner (0, 1) at
    // |cross((-1.8, 0), (2, 2))| / |(2, 2)| = 3.6 / 2.828 = 1.273 > 1: a miss,
    // where the grown (square-cornered) box alone would report a hit.
    EXPECT_EQ(swept_circle_aabb(k_b, {-1.8f, 1}, 1, {2, 2}).state, CastState::miss);
    // A parallel line nearer the corner, from (-1.3, 1.3) (entering the
    // corner's square at (-1, 1.6)): distance |cross((-1.3, 0.3), (2, 2))| /
    // 2.828 = 3.2 / 2.828 = 1.131 > 1, still a miss. From (-1.5, 0.8)
    // (entering at (-1, 1.3)): |(-1.5)(2) - (-0.2)(2)| / 2.828 = 2.6 / 2.828
    // = 0.919 < 1, a hit at the corner.
    EXPECT_EQ(swept_circle_aabb(k_b, {-1.3f, 1.3f}, 1, {2, 2}).state, CastState::miss);
    const SweptCircleAabbResult h = swept_circle_aabb(k_b, {-1.5f, 0.8f}, 1, {2, 2});
    ASSERT_EQ(h.state, CastState::hit);
    EXPECT_TRUE(h.corner);
    // m = (-1.5, -0.2), d = (2, 2): 8 t^2 - 6.8 t + 1.29 = 0 (|m|^2 - 1 =
    // 2.29 - 1), t = (6.8 - sqrt(46.24 - 41.28)) / 16 = (6.8 - 2.22711) / 16
    // = 0.285806.
    EXPECT_NEAR(h.t, real(0.285806), k_eps);
}

TEST(SweptCircleAabb, TouchingStartHitsAtZeroOnlyWhenClosing) {
    // r = 0.5 resting on the top face: centre (1, 1.5), separation 0.
    const Vec2 rest{1, 1.5f};
    const SweptCircleAabbResult down = swept_circle_aabb(k_b, rest, 0.5f, {0.3f, -1});
    ASSERT_EQ(down.state, CastState::hit);
    EXPECT_EQ(down.t, 0);
    EXPECT_EQ(down.normal, (Vec2{0, 1}));
    EXPECT_NEAR(down.point.x, 1, k_eps);
    EXPECT_NEAR(down.point.y, 1, k_eps);
    EXPECT_FALSE(down.corner);
    // Sliding along the face, or lifting off: no hit.
    EXPECT_EQ(swept_circle_aabb(k_b, rest, 0.5f, {1, 0}).state, CastState::miss);
    EXPECT_EQ(swept_circle_aabb(k_b, rest, 0.5f, {-3, 0}).state, CastState::miss);
    EXPECT_EQ(swept_circle_aabb(k_b, rest, 0.5f, {0.2f, 1}).state, CastState::miss);
    // Within the band, above or sunk: the same answers.
    const real half = k_touch_tolerance / 2;
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 1.5f + half}, 0.5f, {0, -1}).t, 0);
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 1.5f + half}, 0.5f, {0, -1}).state, CastState::hit);
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 1.5f - half}, 0.5f, {1, 0}).state, CastState::miss);
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 1.5f - half}, 0.5f, {0, 1}).state, CastState::miss);
    // Touching the corner (2, 1): r = 0.625, centre (2, 1) + 0.625 (0.6, 0.8)
    // = (2.375, 1.5) (all exact in binary). Moving -x closes (d . n = -0.6 <
    // 0): t = 0 with the corner's normal; just off the tangent (0.8, -0.6)
    // to the outside, (0.8, -0.59) with d . n = 0.008 > 0, or away: miss.
    // (Exactly along the tangent is decided by the rounding of 0.6 and 0.8.)
    const SweptCircleAabbResult c = swept_circle_aabb(k_b, {2.375f, 1.5f}, 0.625f, {-1, 0});
    ASSERT_EQ(c.state, CastState::hit);
    EXPECT_EQ(c.t, 0);
    EXPECT_NEAR(c.normal.x, real(0.6), k_eps);
    EXPECT_NEAR(c.normal.y, real(0.8), k_eps);
    EXPECT_NEAR(c.point.x, 2, k_eps);
    EXPECT_NEAR(c.point.y, 1, k_eps);
    EXPECT_TRUE(c.corner);
    EXPECT_EQ(swept_circle_aabb(k_b, {2.375f, 1.5f}, 0.625f, {0.8f, -0.59f}).state,
              CastState::miss);
    EXPECT_EQ(swept_circle_aabb(k_b, {2.375f, 1.5f}, 0.625f, {1, 1}).state, CastState::miss);
}

TEST(SweptCircleAabb, OverlappedStartsAreReported) {
    // Centre inside the box: depth 0.5 to the nearest face, plus the radius.
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 0.5f}, 0.1f, {5, 0}).state, CastState::overlapped);
    // A point (r = 0) inside deeper than the band overlaps too.
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 0.5f}, 0, {0, 0}).state, CastState::overlapped);
    // Centre outside, 0.4 above the top face, r = 0.5: separation -0.1.
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 1.4f}, 0.5f, {0, 1}).state, CastState::overlapped);
    // Just past the band: separation -2 tolerances, moving away still overlapped.
    const real deep = 2 * k_touch_tolerance;
    const SweptCircleAabbResult r = swept_circle_aabb(k_b, {1, 1.5f - deep}, 0.5f, {0, 1});
    EXPECT_EQ(r.state, CastState::overlapped);
    EXPECT_EQ(r.t, 0);
    EXPECT_EQ(r.normal, (Vec2{}));
    // Near a corner: centre (2.375, 1.5) is 0.625 from (2, 1); r = 0.725
    // overlaps by 0.1.
    EXPECT_EQ(swept_circle_aabb(k_b, {2.375f, 1.5f}, 0.725f, {1, 1}).state, CastState::overlapped);
}

TEST(SweptCircleAabb, PointHitsAFaceAndPassesExactlyThroughACorner) {
    // r = 0 from (-1, 0.25) by (2, 0.5): x = 0 at t = 0.5, y = 0.5: the left
    // face at (0, 0.5), normal -x.
    const SweptCircleAabbResult f = swept_circle_aabb(k_b, {-1, 0.25f}, 0, {2, 0.5f});
    ASSERT_EQ(f.state, CastState::hit);
    EXPECT_NEAR(f.t, real(0.5), k_eps);
    EXPECT_EQ(f.normal, (Vec2{-1, 0}));
    EXPECT_NEAR(f.point.x, 0, k_eps);
    EXPECT_NEAR(f.point.y, real(0.5), k_eps);
    EXPECT_FALSE(f.corner);
    // From (-1, 2) by (2, -2): through the top-left corner (0, 1) at t = 0.5
    // and on into the box. The first touch is the corner itself; its normal
    // is one of the two faces' there, against the motion.
    const SweptCircleAabbResult in = swept_circle_aabb(k_b, {-1, 2}, 0, {2, -2});
    ASSERT_EQ(in.state, CastState::hit);
    EXPECT_NEAR(in.t, real(0.5), k_eps);
    EXPECT_NEAR(in.point.x, 0, k_eps);
    EXPECT_NEAR(in.point.y, 1, k_eps);
    EXPECT_TRUE(in.normal == (Vec2{-1, 0}) || in.normal == (Vec2{0, 1}));
    EXPECT_LT(dot(in.normal, Vec2{2, -2}), 0);
    // From (-1, 0) by (2, 2): the line y = x + 1 touches the box only at the
    // corner (0, 1), at t = 0.5, and passes above it: the closed sets meet,
    // a touch (as swept_circles counts a tangent path).
    const SweptCircleAabbResult graze = swept_circle_aabb(k_b, {-1, 0}, 0, {2, 2});
    ASSERT_EQ(graze.state, CastState::hit);
    EXPECT_NEAR(graze.t, real(0.5), k_eps);
    EXPECT_NEAR(graze.point.x, 0, k_eps);
    EXPECT_NEAR(graze.point.y, 1, k_eps);
    // Passing beside the corner, 0.1 to its left: (-1.1, 0) by (2, 2) crosses
    // y = 1 at x = -0.1: a miss.
    EXPECT_EQ(swept_circle_aabb(k_b, {-1.1f, 0}, 0, {2, 2}).state, CastState::miss);
}

TEST(SweptCircleAabb, PointSunkWithinTheBandReportsAPointOnTheSurface) {
    // r = 0 at (1, 0.9995): inside the top face by 0.0005, within the band
    // (0.00125): touching. Moving down closes: t = 0, normal +y, and the
    // point is on the box's surface, (1, 1), not the centre inside it.
    const SweptCircleAabbResult r = swept_circle_aabb(k_b, {1, 0.9995f}, 0, {0, -1});
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_EQ(r.t, 0);
    EXPECT_EQ(r.normal, (Vec2{0, 1}));
    EXPECT_NEAR(r.point.x, 1, k_eps);
    EXPECT_NEAR(r.point.y, 1, k_eps);
}

TEST(SweptCircleAabb, TouchingAFaceGivesItsAxisExactly) {
    // r = 0.21 touching the left face: centre (-0.21, 0.5), offset (-0.21,
    // 0) from the nearest point (0, 0.5). offset / |offset| rounds to
    // -0.99999994 in float; the face's normal is the axis, -x exactly (as a
    // hit along the motion reports it).
    const SweptCircleAabbResult r = swept_circle_aabb(k_b, {-0.21f, 0.5f}, 0.21f, {1, 0});
    ASSERT_EQ(r.state, CastState::hit);
    EXPECT_EQ(r.t, 0);
    EXPECT_EQ(r.normal, (Vec2{-1, 0}));
    EXPECT_FALSE(r.corner);
}

TEST(SweptCircleAabb, NoToleranceStartAnUlpFromAFaceMovingAwayMisses) {
    // With a touch tolerance of 0: the box's left face x = -0.560880423 and
    // r = 0.44039163 put the grown face at -1.00127205 rounded, while the
    // centre at x = -1.00127208 is separated by 3e-8 (|offset| - r). The
    // centre lies inside the rounded grown box, beside the face: moving
    // away (-x) it was reported as a hit at t = 0 with the normal +x (into
    // the box). Away: a miss; closing (+x): t = 0 with the normal -x.
    const Aabb b = box(-0.560880423f, -0.186358452f, -0.0842601284f, 1.4025861f);
    const Vec2 c{-1.00127208f, 0.608113825f};
    const real r = 0.44039163f;
    EXPECT_EQ(swept_circle_aabb(b, c, r, {-1, 0.3f}, 0).state, CastState::miss);
    EXPECT_EQ(swept_circle_aabb(b, c, r, {0, 0.3f}, 0).state, CastState::miss);
    const SweptCircleAabbResult in = swept_circle_aabb(b, c, r, {1, 0.3f}, 0);
    ASSERT_EQ(in.state, CastState::hit);
    EXPECT_NEAR(in.t, 0, k_eps);
    EXPECT_EQ(in.normal, (Vec2{-1, 0}));
    EXPECT_NEAR(in.point.x, b.lower.x, k_eps);
    EXPECT_NEAR(in.point.y, c.y, k_eps);
}

TEST(SweptCircleAabb, ZeroDisplacementNeverHits) {
    // Separated, touching, overlapped: miss, miss (no closing), overlapped.
    EXPECT_EQ(swept_circle_aabb(k_b, {-2, 0.5f}, 0.5f, {0, 0}).state, CastState::miss);
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 1.5f}, 0.5f, {0, 0}).state, CastState::miss);
    EXPECT_EQ(swept_circle_aabb(k_b, {2.375f, 1.5f}, 0.625f, {0, 0}).state, CastState::miss);
    EXPECT_EQ(swept_circle_aabb(k_b, {1, 0.5f}, 0.5f, {0, 0}).state, CastState::overlapped);
    // In the top-left corner's square of the grown box but outside the
    // rounded corner: (-0.9, 1.9) is 1.273 from (0, 1), r = 1.
    EXPECT_EQ(swept_circle_aabb(k_b, {-0.9f, 1.9f}, 1, {0, 0}).state, CastState::miss);
}

TEST(SweptCircleAabb, NonFiniteNegativeOrInvertedInputIsInvalid) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    const Vec2 c{-2, 0.5f};
    const Vec2 d{4, 0};
    const auto state = [](const SweptCircleAabbResult& r) { return r.state; };
    // The valid call hits, so each invalid_input below is the input's doing.
    ASSERT_EQ(state(swept_circle_aabb(k_b, c, 0.5f, d)), CastState::hit);
    EXPECT_EQ(state(swept_circle_aabb(k_b, {nan, 0.5f}, 0.5f, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, {-2, inf}, 0.5f, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, 0.5f, {inf, 0})), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, 0.5f, {4, nan})), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, nan, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, inf, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, -0.5f, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, 0.5f, d, -k_touch_tolerance)),
              CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, 0.5f, d, nan)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(k_b, c, 0.5f, d, inf)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(box(2, 0, 0, 1), c, 0.5f, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(box(0, 1, 2, 0), c, 0.5f, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(box(0, 0, inf, 1), c, 0.5f, d)), CastState::invalid_input);
    EXPECT_EQ(state(swept_circle_aabb(box(nan, 0, 2, 1), c, 0.5f, d)), CastState::invalid_input);
    // A box of zero width (lower == upper) is valid: a segment.
    EXPECT_EQ(state(swept_circle_aabb(box(0, 0, 0, 1), c, 0.5f, d)), CastState::hit);
}

} // namespace
} // namespace sweep
