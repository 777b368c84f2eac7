// Linear shape casts, hand-derived cases (shape_cast.hpp). A is fixed, B
// translates; normals point from A to B; "touching" means within
// target_separation + touch_tolerance.
#include "sweep/shape_cast.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "printers.hpp"

namespace sweep {
namespace {

constexpr double k_eps = std::is_same_v<real, float> ? 2e-5 : 1e-9;

void expect_vec_near(Vec2 actual, double x, double y, double eps = k_eps) {
    EXPECT_NEAR(actual.x, x, eps);
    EXPECT_NEAR(actual.y, y, eps);
}

Transform at(real x, real y, real angle = 0) { return {{x, y}, Rot::from_angle(angle)}; }

ShapeCastInput cast(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
                    Vec2 translation) {
    ShapeCastInput input;
    input.proxy_a = make_proxy(a);
    input.proxy_b = make_proxy(b);
    input.xf_a = xfa;
    input.xf_b = xfb;
    input.translation_b = translation;
    return input;
}

// A wall 0.1 thick and 4 tall at x = 10 (faces x = 9.95 and 10.05), and a
// circle of radius 0.5 at the origin moving 20 to the right in one step: at
// t = 1 it would be far beyond the wall.
const Shape k_wall = make_box(real(0.05), 2).value();
const Shape k_ball = Circle{{0, 0}, real(0.5)};

TEST(ShapeCast, FastCircleHitsThinWallAtEntryTime) {
    // Contact when the circle's front reaches x = 9.95: centre at 9.45, so
    // t = 9.45 / 20 = 0.4725 with target separation 0.
    ShapeCastInput input = cast(k_wall, at(10, 0), k_ball, k_identity, {20, 0});
    input.target_separation = 0;
    const CastOutput out = shape_cast(input);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.4725, k_eps);
    expect_vec_near(out.normal, -1, 0); // from the wall (A) towards the ball (B)
    expect_vec_near(out.point, 9.95, 0, 1e-4);
    EXPECT_LE(out.iterations, k_toi_max_iterations);
}

// Two discs of radius 0.25, the moving one passing the other 3.08 L away at
// its closest (centre path from (8, -8) by (-8, 16): 3.58 from the other's
// centre), then, moving (-16, 0) from (8, 0), meeting it at t = (8 - 0.5 -
// slop) / 16: at the origin and 2^10, 2^16 and 2^20 L from it, where every
// input is still exact. GJK runs in A's frame, but its noise bound was 64
// ulps of the world coordinates (7.6 L at 1e6): a disc 3 L away counted as
// touching at 2^20. (It is now 64 ulps of A's frame and 4 of the world's,
// the positions' own rounding: 0.5 L at 2^20.)
TEST(ShapeCast, FarFromTheOriginAMissIsAMissAndAHitIsWhereItIsAtTheOrigin) {
    const Shape disc = Circle{{0, 0}, real(0.25)};
    for (const real o : {real(0), real(1024), real(65536), real(1048576)}) {
        SCOPED_TRACE(testing::Message() << "offset " << o);
        const CastOutput by = shape_cast(cast(disc, at(o, o), disc, at(o + 8, o - 8), {-8, 16}));
        EXPECT_EQ(by.state, CastState::miss);
        const CastOutput into = shape_cast(cast(disc, at(o, o), disc, at(o + 8, o), {-16, 0}));
        ASSERT_EQ(into.state, CastState::hit);
        EXPECT_NEAR(into.fraction, (8 - 0.5 - k_linear_slop) / 16, 1e-4);
        EXPECT_NEAR(into.normal.x, 1, 1e-4);
    }
}

TEST(ShapeCast, TinySegmentsLandOnAFinitePoint) {
    // Two segments some 1e-22 L long, B 0.578125 L left of A, moving 112 L
    // right (fuzz_geometry): the hit lands on GJK's edge, whose barycentric
    // sum was subnormal and its reciprocal infinite (a NaN point). Target
    // k_linear_slop: t = (0.578125 - 0.005) / 112, at A's point
    // (0.578125, 0), normal -x.
    const std::array<Vec2, 2> a{{{0, 0}, {0, real(4.89950426e-22)}}};
    const std::array<Vec2, 2> b{
        {{0, real(1.11616084e-26)}, {real(7.47209049e-27), real(7.47605021e-27)}}};
    ShapeCastInput input;
    input.proxy_a = make_proxy(a, 0);
    input.proxy_b = make_proxy(b, 0);
    input.xf_a = {{real(0.578125), 0}, Rot{1, real(7.01452946e-22)}};
    input.xf_b = {{real(7.87994699e-27), real(6.46234854e-27)}, Rot{1, real(7.47605021e-27)}};
    input.translation_b = {112, 0};
    const CastOutput out = shape_cast(input);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, (0.578125 - double(k_linear_slop)) / 112, k_eps);
    expect_vec_near(out.normal, -1, 0);
    expect_vec_near(out.point, 0.578125, 0);
}

TEST(ShapeCast, DefaultTargetStopsOneLinearSlopShort) {
    // Target k_linear_slop = 0.005: t = (9.45 - 0.005) / 20 = 0.47225.
    const CastOutput out = shape_cast(cast(k_wall, at(10, 0), k_ball, k_identity, {20, 0}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, (9.45 - double(k_linear_slop)) / 20, k_eps);
    expect_vec_near(out.normal, -1, 0);
}

TEST(ShapeCast, DiagonalMotionHitsTheFaceWhenItsXComponentArrives) {
    // Moving (20, 2): the face is met when x reaches 9.45 - 0.005 (y = 0.94 is
    // within the wall's height), at the same t as the straight cast.
    const CastOutput out = shape_cast(cast(k_wall, at(10, 0), k_ball, k_identity, {20, 2}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, (9.45 - double(k_linear_slop)) / 20, k_eps);
    expect_vec_near(out.normal, -1, 0);
}

TEST(ShapeCast, CircleGrazingABoxCornerHitsAtTheCornerContactTime) {
    // The ball at (-5, 1.3) moves (10, 0) past the corner (-1, 1) of [-1,1]^2.
    // It touches when the corner is 0.5 from the centre: 0.3 below, so
    // sqrt(0.25 - 0.09) = 0.4 to the left, centre x = -1.4, t = 3.6 / 10 = 0.36.
    // With target 0 the cast stops within the touch band: separation in
    // [0, 0.00125), i.e. x offset sqrt(0.50125^2 - 0.09) = 0.401562, t >= 0.359844.
    ShapeCastInput input =
        cast(make_box(1, 1).value(), k_identity, k_ball, at(-5, real(1.3)), {10, 0});
    input.target_separation = 0;
    const CastOutput out = shape_cast(input);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_LE(out.fraction, 0.36 + k_eps);
    EXPECT_GE(out.fraction, 0.359844 - k_eps);
    // Normal from the corner to the centre (-1.4, 1.3): (-0.4, 0.3) / 0.5.
    expect_vec_near(out.normal, -0.8, 0.6, 2e-3);
    expect_vec_near(out.point, -1, 1, 1e-3);
}

TEST(ShapeCast, TiltedBoxFallsOntoItsLowestCorner) {
    // A unit box (half 0.5) turned 45 degrees at (0, 3) has its lowest corner
    // at 3 - sqrt(0.5) = 2.292893; the floor's top is y = 0; falling 5:
    // t = (2.292893 - 0.005) / 5.
    const Shape floor = make_box(5, real(0.5)).value();
    const Shape box = make_box(real(0.5), real(0.5)).value();
    const CastOutput out =
        shape_cast(cast(floor, at(0, real(-0.5)), box, at(0, 3, k_pi / 4), {0, -5}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, (3 - std::sqrt(0.5) - double(k_linear_slop)) / 5, k_eps);
    expect_vec_near(out.normal, 0, 1);
    expect_vec_near(out.point, 0, 0, 1e-4);
}

TEST(ShapeCast, MovingAwayIsAMiss) {
    const CastOutput out = shape_cast(cast(k_wall, at(10, 0), k_ball, k_identity, {-20, 0}));
    EXPECT_EQ(out.state, CastState::miss);
}

TEST(ShapeCast, PassingBesideTheWallIsAMiss) {
    // The ball at height 5 moves right: its bottom (4.5) stays above the wall
    // top (2).
    const CastOutput out = shape_cast(cast(k_wall, at(10, 0), k_ball, at(0, 5), {20, 0}));
    EXPECT_EQ(out.state, CastState::miss);
    EXPECT_LE(out.iterations, k_toi_max_iterations);
}

TEST(ShapeCast, HitAfterMaxFractionIsAMiss) {
    // The hit is at t = 0.47225; only t <= 0.4 counts.
    ShapeCastInput input = cast(k_wall, at(10, 0), k_ball, k_identity, {20, 0});
    input.max_fraction = real(0.4);
    EXPECT_EQ(shape_cast(input).state, CastState::miss);
}

// A box of half 0.5 resting on a floor whose top is y = 0, at a given gap.
ShapeCastInput resting(real gap, Vec2 translation) {
    return cast(make_box(5, real(0.5)).value(), at(0, real(-0.5)),
                make_box(real(0.5), real(0.5)).value(), at(0, real(0.5) + gap), translation);
}

TEST(ShapeCast, StartingTouchingMovingInwardHitsAtTimeZero) {
    // Gap = target (0.005): touching. Moving down and right: t = 0, normal up.
    const CastOutput out = shape_cast(resting(k_linear_slop, {3, real(-0.1)}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_EQ(out.fraction, 0);
    expect_vec_near(out.normal, 0, 1);
}

TEST(ShapeCast, StartingTouchingMovingAlongIsAMiss) {
    // Sliding along the floor at the target gap, at zero gap, and sunk within
    // the touch tolerance (0.001 < 0.00125): no hit, so a slide can proceed.
    EXPECT_EQ(shape_cast(resting(k_linear_slop, {3, 0})).state, CastState::miss);
    EXPECT_EQ(shape_cast(resting(0, {3, 0})).state, CastState::miss);
    EXPECT_EQ(shape_cast(resting(real(-0.001), {-3, 0})).state, CastState::miss);
}

TEST(ShapeCast, StartingTouchingMovingAwayIsAMiss) {
    EXPECT_EQ(shape_cast(resting(k_linear_slop, {1, 2})).state, CastState::miss);
    EXPECT_EQ(shape_cast(resting(real(-0.001), {0, 2})).state, CastState::miss);
}

TEST(ShapeCast, SunkWithinTheTouchToleranceMovingInwardHitsAtTimeZero) {
    const CastOutput out = shape_cast(resting(real(-0.001), {0, -1}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_EQ(out.fraction, 0);
    expect_vec_near(out.normal, 0, 1);
}

TEST(ShapeCast, TouchingNormalMayComeFromTheFaceOfB) {
    // A is a unit box turned 45 degrees (its top corner at y = sqrt(0.5));
    // B is a flat box (half 1 x 0.25) lying on that corner, sunk 0.001. The
    // least penetrating face is B's bottom, so the touching normal is its
    // normal reversed: +y, from A to B.
    const Shape diamond = make_box(real(0.5), real(0.5)).value();
    const Shape plank = make_box(1, real(0.25)).value();
    const real y = real(std::sqrt(0.5) + 0.25 - 0.001);
    ShapeCastInput input = cast(diamond, at(0, 0, k_pi / 4), plank, at(0, y), {0, -1});
    const CastOutput down = shape_cast(input);
    ASSERT_EQ(down.state, CastState::hit);
    EXPECT_EQ(down.fraction, 0);
    expect_vec_near(down.normal, 0, 1);
    input.translation_b = {1, 0};
    EXPECT_EQ(shape_cast(input).state, CastState::miss);
    input.translation_b = {0, 1};
    EXPECT_EQ(shape_cast(input).state, CastState::miss);
}

TEST(ShapeCast, ATouchingHitsPointIsOnAEvenWhereBReachesPastItsFace) {
    // A is the tile [-1, 1]^2; B, a box 1 wide and 2 tall, stands against
    // its right face (x = 1), sunk 0.001, reaching from y = -1.5 to 0.5:
    // past the face's lower end. Moving left, it hits at once on the face;
    // the point is on A, within the face's y from -1 to 1 (it was B's
    // lower-left corner moved onto the face's line, (1, -1.5), off A).
    const Shape tile = make_box(1, 1).value();
    const Shape post = make_box(real(0.5), 1).value();
    const CastOutput out =
        shape_cast(cast(tile, at(0, 0), post, at(real(1.499), real(-0.5)), {-1, 0}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_EQ(out.fraction, 0);
    expect_vec_near(out.normal, 1, 0);
    EXPECT_NEAR(out.point.x, 1, k_eps);
    EXPECT_GE(out.point.y, -1);
    EXPECT_LE(out.point.y, 1);
}

TEST(ShapeCast, JustOutsideTheTouchingBandMovingAlongIsAMissAndInwardHitsLater) {
    // Gap 0.01 > 0.005 + 0.00125: not touching. Straight down by 1: the gap
    // closes to the target at t = (0.01 - 0.005) / 1 = 0.005.
    EXPECT_EQ(shape_cast(resting(real(0.01), {3, 0})).state, CastState::miss);
    const CastOutput out = shape_cast(resting(real(0.01), {0, -1}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.005, k_eps);
}

TEST(ShapeCast, OverlappedBeyondTheTouchToleranceAtStart) {
    // Ball centre at 9.6: its front is at 10.1, 0.15 into the wall.
    EXPECT_EQ(shape_cast(cast(k_wall, at(10, 0), k_ball, at(real(9.6), 0), {20, 0})).state,
              CastState::overlapped);
    // Sunk 0.002 > 0.00125 into the floor: overlapped, whatever the motion.
    EXPECT_EQ(shape_cast(resting(real(-0.002), {3, 0})).state, CastState::overlapped);
}

TEST(ShapeCast, NonFiniteInputIsInvalid) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    EXPECT_EQ(shape_cast(cast(k_wall, at(10, 0), k_ball, k_identity, {nan, 0})).state,
              CastState::invalid_input);
    EXPECT_EQ(shape_cast(cast(k_wall, at(nan, 0), k_ball, k_identity, {20, 0})).state,
              CastState::invalid_input);
    ShapeCastInput input = cast(k_wall, at(10, 0), k_ball, k_identity, {20, 0});
    input.max_fraction = std::numeric_limits<real>::infinity();
    EXPECT_EQ(shape_cast(input).state, CastState::invalid_input);
}

} // namespace
} // namespace sweep
