// Time of impact with rotation, hand-derived cases (toi.hpp).
#include "sweep/toi.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <type_traits>

#include "printers.hpp"

namespace sweep {
namespace {

constexpr double k_eps = std::is_same_v<real, float> ? 2e-5 : 1e-9;
constexpr double k_pi_d = 3.14159265358979323846;

Sweep still(Vec2 c, real angle = 0) { return {{0, 0}, c, c, angle, angle}; }

ToiInput toi(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb) {
    ToiInput input;
    input.proxy_a = make_proxy(a);
    input.proxy_b = make_proxy(b);
    input.sweep_a = sa;
    input.sweep_b = sb;
    return input;
}

TEST(GetTransform, InterpolatesTheCentreAndTheAngleLinearly) {
    // Centre of mass at local (1, 0); from c1 = (0,0), angle 0 to c2 = (4,2),
    // angle pi: at t = 0.5 the centre is (2, 1) and the angle pi/2, so the
    // origin is (2,1) - rotate(pi/2, (1,0)) = (2,1) - (0,1) = (2, 0).
    const Sweep s{{1, 0}, {0, 0}, {4, 2}, 0, k_pi};
    const Transform xf = get_transform(s, real(0.5));
    EXPECT_NEAR(xf.p.x, 2, k_eps);
    EXPECT_NEAR(xf.p.y, 0, k_eps);
    EXPECT_NEAR(xf.q.c, 0, k_eps);
    EXPECT_NEAR(xf.q.s, 1, k_eps);
}

TEST(GetTransform, AnglesNearPlusMinusPiTurnTheLongWayAsGiven) {
    // From 3.1 to -3.1 is a turn of -6.2 rad, not the short +0.083 across pi:
    // halfway the angle is 0.
    const Sweep s{{0, 0}, {0, 0}, {0, 0}, real(3.1), real(-3.1)};
    const Transform xf = get_transform(s, real(0.5));
    EXPECT_NEAR(xf.q.c, 1, k_eps);
    EXPECT_NEAR(xf.q.s, 0, k_eps);
}

// The ball and wall of the shape cast tests: the wall (half 0.05 x 2) at
// x = 10, a ball of radius 0.5 moving from 0 to 20.
const Shape k_wall = make_box(real(0.05), 2).value();
const Shape k_ball = Circle{{0, 0}, real(0.5)};

TEST(TimeOfImpact, PureTranslationEqualsTheShapeCast) {
    // Both stop the target (0.005) before the wall: t = (9.45 - 0.005) / 20.
    const ToiOutput out =
        time_of_impact(toi(k_wall, still({10, 0}), k_ball, {{0, 0}, {0, 0}, {20, 0}, 0, 0}));
    ASSERT_EQ(out.state, CastState::hit);
    const double expected = (9.45 - double(k_linear_slop)) / 20;
    EXPECT_NEAR(out.fraction, expected, k_eps);
    EXPECT_NEAR(out.normal.x, -1, k_eps);
    EXPECT_NEAR(out.normal.y, 0, k_eps);

    ShapeCastInput cast;
    cast.proxy_a = make_proxy(k_wall);
    cast.proxy_b = make_proxy(k_ball);
    cast.xf_a = {{10, 0}, {}};
    cast.translation_b = {20, 0};
    EXPECT_NEAR(shape_cast(cast).fraction, out.fraction, k_eps);
}

TEST(TimeOfImpact, BothBodiesMovingUseTheRelativeMotion) {
    // The wall moves -10 while the ball moves +10: the relative motion is the
    // same +20, so the same t.
    const ToiOutput out = time_of_impact(
        toi(k_wall, {{0, 0}, {10, 0}, {0, 0}, 0, 0}, k_ball, {{0, 0}, {0, 0}, {10, 0}, 0, 0}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, (9.45 - double(k_linear_slop)) / 20, k_eps);
}

// A thin bar (half 1 x 0.01) turning about its centre at the origin, and a
// box [-1, 0.5] x [0.5, 2] whose corner (0.5, 0.5) sits at 45 degrees,
// sqrt(0.5) from the pivot. Turning counter-clockwise from angle 0, the bar's
// upper face first comes near that corner (every other point of the box is
// further from the bar's line, and the bar's tip passes right of x = 0.5).
// The gap is sqrt(0.5) sin(pi/4 - theta) - 0.01; it equals the target
// separation s at theta(s) = pi/4 - asin((0.01 + s) / sqrt(0.5)).
const Shape k_bar = make_box(1, real(0.01)).value();
const Shape k_block = make_offset_box(real(0.75), real(0.75), {real(-0.25), real(1.25)}, 0).value();

double contact_angle(double separation) {
    return k_pi_d / 4 - std::asin((0.01 + separation) / std::sqrt(0.5));
}

/// Expects a hit between the time the gap enters the touching band
/// (target + tolerance) and the time it reaches the target.
template <class AngleAt>
void expect_corner_contact(const ToiOutput& out, AngleAt angle_at, double turn) {
    ASSERT_EQ(out.state, CastState::hit);
    const double t_target = angle_at(double(k_linear_slop)) / turn;
    const double t_band = angle_at(double(k_linear_slop + k_touch_tolerance)) / turn;
    EXPECT_LE(out.fraction, t_target + k_eps);
    EXPECT_GE(out.fraction, t_band - k_eps);
    EXPECT_LE(out.iterations, k_toi_max_iterations);
}

TEST(TimeOfImpact, RotatingBarMeetsTheBoxCornerAtTheHandDerivedAngle) {
    // A quarter turn per step: t = theta / (pi/2); theta(0.005) = 0.764183,
    // t = 0.486494.
    const ToiOutput out = time_of_impact(toi(k_block, still({0, 0}), k_bar, still({0, 0}, 0)));
    EXPECT_EQ(out.state, CastState::miss); // not turning: never closer
    ToiInput input =
        toi(k_block, still({0, 0}), k_bar, {{0, 0}, {0, 0}, {0, 0}, 0, real(k_pi_d / 2)});
    expect_corner_contact(time_of_impact(input), &contact_angle, k_pi_d / 2);
}

TEST(TimeOfImpact, BarTurningMoreThanAFullTurnPerStepStopsAtTheFirstContact) {
    // 2.5 turns per step: the first time the angle reaches theta(0.005) is
    // t = 0.764183 / (5 pi) = 0.048650, long before the end of the step.
    const double turn = 5 * k_pi_d;
    ToiInput input = toi(k_block, still({0, 0}), k_bar, {{0, 0}, {0, 0}, {0, 0}, 0, real(turn)});
    expect_corner_contact(time_of_impact(input), &contact_angle, turn);
}

TEST(TimeOfImpact, StartAnglesNearPlusMinusPiGiveTheSameContact) {
    // The bar is symmetric under a half turn: starting at pi (or -pi) and
    // turning a quarter is the same motion as from 0.
    ToiInput from_pi = toi(k_block, still({0, 0}), k_bar,
                           {{0, 0}, {0, 0}, {0, 0}, real(k_pi_d), real(1.5 * k_pi_d)});
    expect_corner_contact(time_of_impact(from_pi), &contact_angle, k_pi_d / 2);
    ToiInput from_minus_pi = toi(k_block, still({0, 0}), k_bar,
                                 {{0, 0}, {0, 0}, {0, 0}, real(-k_pi_d), real(-0.5 * k_pi_d)});
    expect_corner_contact(time_of_impact(from_minus_pi), &contact_angle, k_pi_d / 2);
}

TEST(TimeOfImpact, BarTurningAboutAnOffsetCentreOfMass) {
    // Centre of mass at bar-local (0.3, 0), held at world (0.3, 0): the bar now
    // turns about P = (0.3, 0). The corner is at (0.2, 0.5) from P: distance
    // sqrt(0.29), angle atan2(0.5, 0.2) = 1.190290; it lies 0.54 along the bar
    // from P, inside the 0.7 that the bar reaches on that side, so the upper
    // face meets it when sqrt(0.29) sin(1.190290 - theta) - 0.01 = target.
    ToiInput input = toi(k_block, still({0, 0}), k_bar,
                         {{real(0.3), 0}, {real(0.3), 0}, {real(0.3), 0}, 0, real(k_pi_d / 2)});
    const auto angle_at = [](double separation) {
        return std::atan2(0.5, 0.2) - std::asin((0.01 + separation) / std::sqrt(0.29));
    };
    expect_corner_contact(time_of_impact(input), angle_at, k_pi_d / 2);
}

TEST(TimeOfImpact, OverlappedAtTheStart) {
    // The bar at 45 degrees crosses the block's corner.
    const ToiOutput out =
        time_of_impact(toi(k_block, still({0, 0}), k_bar,
                           {{0, 0}, {0, 0}, {0, 0}, real(k_pi_d / 4), real(k_pi_d / 2)}));
    EXPECT_EQ(out.state, CastState::overlapped);
    EXPECT_EQ(out.fraction, 0);
}

// A unit box resting on a floor whose top is y = 0, sunk by `sink`.
ToiInput resting(real sink, Vec2 motion, real turn = 0) {
    const Shape floor = make_box(5, real(0.5)).value();
    const Shape box = make_box(real(0.5), real(0.5)).value();
    const Vec2 c{0, real(0.5) - sink};
    return toi(floor, still({0, real(-0.5)}), box, {{0, 0}, c, c + motion, 0, turn});
}

TEST(TimeOfImpact, SunkWithinTheTouchToleranceAndSlidingIsNotAnImpact) {
    // docs/conventions.md: penetration up to the touch tolerance (0.00125) is
    // touching; sliding along (or lifting off) reports no hit.
    EXPECT_EQ(time_of_impact(resting(real(0.001), {2, 0})).state, CastState::miss);
    EXPECT_EQ(time_of_impact(resting(real(0.001), {0, 1})).state, CastState::miss);
    EXPECT_EQ(time_of_impact(resting(0, {2, 0})).state, CastState::miss);
}

TEST(TimeOfImpact, SunkWithinTheTouchToleranceAndPressingInHitsAtTimeZero) {
    const ToiOutput out = time_of_impact(resting(real(0.001), {0, -1}));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_EQ(out.fraction, 0);
    EXPECT_NEAR(out.normal.x, 0, k_eps);
    EXPECT_NEAR(out.normal.y, 1, k_eps);
}

TEST(TimeOfImpact, TouchingAndTurningHitsAtTimeZero) {
    // At the target gap (0.005), turning half a radian swings a corner down
    // into the floor: the bound says approach.
    const ToiOutput out = time_of_impact(resting(-k_linear_slop, {0, 0}, real(0.5)));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_EQ(out.fraction, 0);
}

TEST(TimeOfImpact, TouchingNormalMayComeFromTheFaceOfB) {
    // A unit box turned 45 degrees under a flat box (half 1 x 0.25) lying on
    // its top corner, sunk 0.001: the least penetrating face is B's bottom, so
    // the normal is +y (from A to B); pressing down hits at t = 0, sliding
    // sideways does not.
    const Shape diamond = make_box(real(0.5), real(0.5)).value();
    const Shape plank = make_box(1, real(0.25)).value();
    const Vec2 c{0, real(std::sqrt(0.5) + 0.25 - 0.001)};
    const Sweep a = still({0, 0}, real(k_pi_d / 4));
    const ToiOutput down =
        time_of_impact(toi(diamond, a, plank, {{0, 0}, c, c - Vec2{0, 1}, 0, 0}));
    ASSERT_EQ(down.state, CastState::hit);
    EXPECT_EQ(down.fraction, 0);
    EXPECT_NEAR(down.normal.x, 0, k_eps);
    EXPECT_NEAR(down.normal.y, 1, k_eps);
    EXPECT_EQ(time_of_impact(toi(diamond, a, plank, {{0, 0}, c, c + Vec2{1, 0}, 0, 0})).state,
              CastState::miss);
}

TEST(TimeOfImpact, SunkBeyondTheTouchToleranceIsOverlapped) {
    EXPECT_EQ(time_of_impact(resting(real(0.002), {2, 0})).state, CastState::overlapped);
}

TEST(TimeOfImpact, HitAfterMaxFractionIsAMiss) {
    ToiInput input = toi(k_wall, still({10, 0}), k_ball, {{0, 0}, {0, 0}, {20, 0}, 0, 0});
    input.max_fraction = real(0.4);
    EXPECT_EQ(time_of_impact(input).state, CastState::miss);
}

TEST(TimeOfImpact, NonFiniteSweepIsInvalidInput) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    EXPECT_EQ(time_of_impact(toi(k_wall, still({10, 0}), k_ball, {{0, 0}, {0, 0}, {20, 0}, 0, nan}))
                  .state,
              CastState::invalid_input);
    EXPECT_EQ(time_of_impact(toi(k_wall, still({nan, 0}), k_ball, still({0, 0}))).state,
              CastState::invalid_input);
}

// A box resting on a floor far from the origin, a few ulps above it (found by
// WorldRandomScenes, seed 30565): the witness points' difference is rounding
// noise there, and its direction once turned sideways, so the box pushed
// into the floor was taken as sliding along it (a miss) and passed through.
TEST(TimeOfImpact, BoxAFewUlpsAboveAFloorPressedIntoItHitsAtOnce) {
    ToiInput input;
    input.proxy_a =
        make_proxy(make_offset_box(real(6.99414), real(0.05), {0, real(-3.96425)}, 0).value());
    input.proxy_b = make_proxy(make_box(real(0.0812111), real(0.0642644)).value());
    input.sweep_b = {{}, {real(-4.00391), real(-3.833035)}, {real(-4.002155), real(-4.090404)},
                     real(26.70354), real(26.70353)};
    input.sweep_b.c1.y = real(-3.914251) + real(0.0812111) + real(4e-7);
    const ToiOutput out = time_of_impact(input);
    EXPECT_EQ(out.state, CastState::hit);
    EXPECT_EQ(out.fraction, 0);
}

} // namespace
} // namespace sweep
