// Ray casts, hand-derived cases (raycast.hpp): every expected value is worked
// out in the comment above it. Rays are in the world; normals are the
// shape's outward surface normals at the hit; shapes are closed sets; a ray
// starting inside a solid shape misses it (Box2D's convention).
#include "sweep/raycast.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "printers.hpp"

namespace sweep {
namespace {

constexpr double k_eps = std::is_same_v<real, float> ? 2e-6 : 1e-12;

void expect_vec_near(Vec2 actual, double x, double y, double eps = k_eps) {
    EXPECT_NEAR(actual.x, x, eps);
    EXPECT_NEAR(actual.y, y, eps);
}

Transform at(real x, real y, real angle = 0) { return {{x, y}, Rot::from_angle(angle)}; }

RayInput ray(Vec2 origin, Vec2 translation, real max_fraction = 1) {
    return {origin, translation, max_fraction};
}

const Circle k_unit_circle{{0, 0}, 1};

// ---------------------------------------------------------------- circles

TEST(Raycast, CircleHitFromTheLeft) {
    // (-5,0) + t (10,0) reaches x = -1 at t = 4 / 10 = 0.4; the outward
    // normal there is (-1, 0).
    const CastOutput out = raycast(ray({-5, 0}, {10, 0}), k_unit_circle, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.4, k_eps);
    expect_vec_near(out.point, -1, 0, 1e-5);
    expect_vec_near(out.normal, -1, 0);
    EXPECT_EQ(out.iterations, 0);
}

TEST(Raycast, ACircleTooSmallForTheRaysCoordinatesIsMetHeadOn) {
    // A disc of radius 3 eps / 16 at the origin, a ray from (3, 3) by
    // (-4, -4) through its centre: the entry point rounds to the centre
    // (|s| = 3 sqrt 2, so the radius is below half an ulp of the sums), so
    // the normal cannot come from it. The ray meets the disc head on:
    // normal -d / |d| = (1, 1) / sqrt 2, at t = 3 / 4 (where it reaches the
    // centre, within the radius).
    const real tiny = 3 * std::numeric_limits<real>::epsilon() / 16;
    const CastOutput out = raycast(ray({3, 3}, {-4, -4}), Circle{{0, 0}, tiny}, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.75, k_eps);
    expect_vec_near(out.normal, std::sqrt(0.5), std::sqrt(0.5));
    EXPECT_NEAR(length(out.normal), 1, k_eps);
}

TEST(Raycast, CircleOffCentreUnderATurnedTransform) {
    // Local centre (1, 0), radius 0.5; xf turns 90 degrees and moves to
    // (2, 3): world centre (2, 3) + (0, 1) = (2, 4). The ray up x = 2 from
    // (2, 0), length 8, meets the bottom at y = 3.5: t = 3.5 / 8 = 0.4375,
    // normal (0, -1).
    const Circle circle{{1, 0}, real(0.5)};
    const CastOutput out = raycast(ray({2, 0}, {0, 8}), circle, at(2, 3, real(0.5) * k_pi));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.4375, 1e-5);
    expect_vec_near(out.point, 2, 3.5, 1e-5);
    expect_vec_near(out.normal, 0, -1, 1e-5);
}

TEST(Raycast, CircleTangentRayHitsAtTheTangentPoint) {
    // The line y = 1 touches the unit circle at (0, 1): from (-5, 1) with
    // translation (10, 0) that is t = 0.5, normal (0, 1). Closest point of
    // the line to the centre: (0, 1), |c|^2 = 1 = r^2 exactly, half chord 0.
    const CastOutput out = raycast(ray({-5, 1}, {10, 0}), k_unit_circle, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.5, k_eps);
    expect_vec_near(out.normal, 0, 1);
    // A little higher, the line passes the circle by.
    EXPECT_EQ(raycast(ray({-5, real(1.001)}, {10, 0}), k_unit_circle, k_identity).state,
              CastState::miss);
}

TEST(Raycast, CircleRayStartingInsideMisses) {
    // Box2D's convention: a ray leaving a shape does not report it.
    EXPECT_EQ(raycast(ray({0, real(0.5)}, {10, 0}), k_unit_circle, k_identity).state,
              CastState::miss);
    EXPECT_EQ(raycast(ray({0, 0}, {0, -3}), k_unit_circle, k_identity).state, CastState::miss);
}

TEST(Raycast, CircleRayStartingOnTheSurface) {
    // On the circle at (-1, 0): moving inward hits at t = 0 with normal
    // (-1, 0); moving away or along the tangent misses (docs/conventions.md,
    // touching).
    const CastOutput in = raycast(ray({-1, 0}, {1, 0}), k_unit_circle, k_identity);
    ASSERT_EQ(in.state, CastState::hit);
    EXPECT_EQ(in.fraction, 0);
    EXPECT_FALSE(std::signbit(in.fraction));
    expect_vec_near(in.normal, -1, 0);
    EXPECT_EQ(raycast(ray({-1, 0}, {-1, 0}), k_unit_circle, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({-1, 0}, {0, 1}), k_unit_circle, k_identity).state, CastState::miss);
}

TEST(Raycast, MaxFractionCutsOffTheHit) {
    // The hit of CircleHitFromTheLeft is at t = 0.4.
    EXPECT_EQ(raycast(ray({-5, 0}, {10, 0}, real(0.3)), k_unit_circle, k_identity).state,
              CastState::miss);
    EXPECT_EQ(raycast(ray({-5, 0}, {10, 0}, real(0.41)), k_unit_circle, k_identity).state,
              CastState::hit);
    // max_fraction > 1 extends the ray: (-5, 0) + t (1, 0) reaches x = -1 at t = 4.
    const CastOutput long_ray = raycast(ray({-5, 0}, {1, 0}, 10), k_unit_circle, k_identity);
    ASSERT_EQ(long_ray.state, CastState::hit);
    EXPECT_NEAR(long_ray.fraction, 4, 1e-5);
    expect_vec_near(long_ray.point, -1, 0, 1e-5);
}

TEST(Raycast, RayMovingAwayMisses) {
    EXPECT_EQ(raycast(ray({-5, 0}, {-10, 0}), k_unit_circle, k_identity).state, CastState::miss);
}

// --------------------------------------------------------------- polygons

TEST(Raycast, BoxHitOnItsNearFace) {
    // Box half-extents (1, 0.5) at (4, 0): its left face is x = 3, reached
    // at t = 3 / 10 = 0.3 from the origin; normal (-1, 0).
    const Polygon box = make_box(1, real(0.5)).value();
    const CastOutput out = raycast(ray({0, 0}, {10, 0}), box, at(4, 0));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.3, k_eps);
    expect_vec_near(out.point, 3, 0, 1e-5);
    expect_vec_near(out.normal, -1, 0);
}

TEST(Raycast, TurnedBoxHitOnItsNearFace) {
    // The same box turned 90 degrees is 1 wide and 2 tall: its left face is
    // x = 3.5, t = 0.35; the world normal is still (-1, 0).
    const Polygon box = make_box(1, real(0.5)).value();
    const CastOutput out = raycast(ray({0, 0}, {10, 0}), box, at(4, 0, real(0.5) * k_pi));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.35, 1e-5);
    expect_vec_near(out.normal, -1, 0, 1e-5);
}

TEST(Raycast, BoxRayThroughACornerHitsAtTheCorner) {
    // (-3, -3) + t (4, 4) reaches the corner (-1, -1) of the unit box at
    // t = 0.5, entering the left and the bottom half-planes together; the
    // normal is one of theirs.
    const Polygon box = make_box(1, 1).value();
    const CastOutput out = raycast(ray({-3, -3}, {4, 4}), box, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.5, k_eps);
    const bool left = std::abs(out.normal.x + 1) < 1e-6 && std::abs(out.normal.y) < 1e-6;
    const bool bottom = std::abs(out.normal.y + 1) < 1e-6 && std::abs(out.normal.x) < 1e-6;
    EXPECT_TRUE(left || bottom) << out.normal.x << ", " << out.normal.y;
}

TEST(Raycast, BoxRaySlidingAlongAFaceLineTouchesTheCorner) {
    // The line y = 1 holds the top face: from (-5, 1) it first touches the
    // closed box at the corner (-1, 1), t = 0.4, entering the left face.
    const Polygon box = make_box(1, 1).value();
    const CastOutput out = raycast(ray({-5, 1}, {10, 0}), box, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.4, k_eps);
    expect_vec_near(out.normal, -1, 0);
}

TEST(Raycast, BoxRayStartingInsideMisses) {
    const Polygon box = make_box(1, 1).value();
    EXPECT_EQ(raycast(ray({0, 0}, {10, 0}), box, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({real(0.9), real(-0.9)}, {-3, 7}), box, k_identity).state,
              CastState::miss);
}

TEST(Raycast, BoxRayStartingOnAFace) {
    // On the left face at (-1, 0): inward hits at t = 0 with normal (-1, 0);
    // outward and along the face miss.
    const Polygon box = make_box(1, 1).value();
    const CastOutput in = raycast(ray({-1, 0}, {1, 0}), box, k_identity);
    ASSERT_EQ(in.state, CastState::hit);
    EXPECT_EQ(in.fraction, 0);
    EXPECT_FALSE(std::signbit(in.fraction));
    expect_vec_near(in.normal, -1, 0);
    EXPECT_EQ(raycast(ray({-1, 0}, {-1, 0}), box, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({-1, 0}, {0, 1}), box, k_identity).state, CastState::miss);
}

// On a corner, only a ray moving into both faces' planes enters the box:
// at (1, 1), (-1, -0.5) does (t = 0, either face's normal); leaving either
// plane, or running along either face, it touches the box at t = 0 alone and
// misses, as from the middle of a face. (Leaving rays hit at t = 0.) And a
// triangle's corners the same way.
TEST(Raycast, BoxRayStartingOnACornerHitsOnlyMovingIntoBothFaces) {
    const Polygon box = make_box(1, 1).value();
    const CastOutput in = raycast(ray({1, 1}, {-1, real(-0.5)}), box, k_identity);
    ASSERT_EQ(in.state, CastState::hit);
    EXPECT_EQ(in.fraction, 0);
    EXPECT_TRUE(in.normal == (Vec2{1, 0}) || in.normal == (Vec2{0, 1})); // either face's
    for (const Vec2 away : {Vec2{2, real(-0.5)}, Vec2{real(-0.5), 2}, Vec2{1, 1}, Vec2{1, 0},
                            Vec2{0, 1}, Vec2{-1, 0}, Vec2{0, -1}}) {
        SCOPED_TRACE(testing::Message()
                     << "from (1, 1) along (" << away.x << ", " << away.y << ")");
        EXPECT_EQ(raycast(ray({1, 1}, away), box, k_identity).state, CastState::miss);
    }
    const std::array<Vec2, 3> corners{{{3, 0}, {5, 0}, {3, 2}}};
    const Polygon triangle = make_polygon(corners).value();
    EXPECT_EQ(raycast(ray({5, 0}, {1, 1}), triangle, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({5, 0}, {-1, 1}), triangle, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({5, 0}, {-2, real(0.5)}), triangle, k_identity).state, CastState::hit);
    EXPECT_EQ(raycast(ray({3, 0}, {0, -1}), triangle, k_identity).state, CastState::miss);
}

TEST(Raycast, BoxMaxFractionCutsOffTheHit) {
    const Polygon box = make_box(1, real(0.5)).value();
    EXPECT_EQ(raycast(ray({0, 0}, {10, 0}, real(0.25)), box, at(4, 0)).state, CastState::miss);
    EXPECT_EQ(raycast(ray({0, 0}, {10, 0}, real(0.31)), box, at(4, 0)).state, CastState::hit);
}

TEST(Raycast, TriangleHitOnItsSlantedFace) {
    // Triangle (0,0), (2,0), (0,2): the slanted face x + y = 2 has normal
    // (1, 1) / sqrt 2. From (3, 3) towards the origin, translation (-3, -3):
    // 6 - 6t = 2 at t = 2/3, point (1, 1).
    const Vec2 points[] = {{0, 0}, {2, 0}, {0, 2}};
    const Polygon triangle = make_polygon(points).value();
    const CastOutput out = raycast(ray({3, 3}, {-3, -3}), triangle, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 2.0 / 3.0, k_eps);
    expect_vec_near(out.point, 1, 1, 1e-5);
    expect_vec_near(out.normal, std::sqrt(0.5), std::sqrt(0.5));
}

// -------------------------------------------------------- rounded polygons
// make_rounded_box(1, 1, 0.5): the core [-1, 1]^2 grown by 0.5. Its faces
// are x, y = +-1.5 over |other coordinate| <= 1, joined by quarter circles
// of radius 0.5 about the core's corners (+-1, +-1). The mitred box (what a
// ray against the offset half-planes alone would hit) is [-1.5, 1.5]^2.

TEST(Raycast, RoundedBoxHitOnAFlatFace) {
    // From (5, 0.5) leftwards by 10: x = 1.5 at t = 0.35, |y| = 0.5 <= 1 so
    // on the flat face; normal (1, 0).
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    const CastOutput out = raycast(ray({5, real(0.5)}, {-10, 0}), box, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.35, k_eps);
    expect_vec_near(out.point, 1.5, 0.5, 1e-5);
    expect_vec_near(out.normal, 1, 0);
}

TEST(Raycast, RoundedBoxCornerHitWorkedByHand) {
    // From (5, 1.3) leftwards by 10. The ray enters the mitred box at
    // (1.5, 1.3), past the right face's end y = 1, so it is in the corner
    // region of (1, 1). The arc: (x - 1)^2 + 0.3^2 = 0.5^2 gives x - 1 = 0.4
    // (a 3-4-5 triangle), x = 1.4: t = (5 - 1.4) / 10 = 0.36, and the normal
    // is (0.4, 0.3) / 0.5 = (0.8, 0.6), from the core corner to the point.
    // (The sharp mitred corner would have been hit at x = 1.5, t = 0.35.)
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    const CastOutput out = raycast(ray({5, real(1.3)}, {-10, 0}), box, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.36, 1e-6);
    expect_vec_near(out.point, 1.4, 1.3, 1e-5);
    expect_vec_near(out.normal, 0.8, 0.6, 1e-5);
}

TEST(Raycast, RoundedBoxDiagonalCornerHit) {
    // From (3, 3) towards the centre, translation (-3, -3): the arc point on
    // the diagonal is (1, 1) + 0.5 (1, 1) / sqrt 2 = 1.35355 each, so
    // t = (3 - 1.35355) / 3 = 0.548816; normal (1, 1) / sqrt 2.
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    const CastOutput out = raycast(ray({3, 3}, {-3, -3}), box, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    const double corner = 1 + 0.5 * std::sqrt(0.5);
    EXPECT_NEAR(out.fraction, (3 - corner) / 3, 1e-6);
    expect_vec_near(out.point, corner, corner, 1e-5);
    expect_vec_near(out.normal, std::sqrt(0.5), std::sqrt(0.5), 1e-5);
}

TEST(Raycast, RoundedBoxRayThroughTheMitreOnlyMisses) {
    // The line x + y = 2.9 cuts the mitred box's corner (x + y <= 3 there)
    // but passes the arc by: its distance from the core corner (1, 1) is
    // |2 - 2.9| / sqrt 2 = 0.636 > 0.5. It enters the mitred box at
    // (1.5, 1.4), in the corner region, and leaves it at (1.4, 1.5).
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    EXPECT_EQ(raycast(ray({real(3.9), -1}, {real(-4.9), real(4.9)}), box, k_identity).state,
              CastState::miss);
    // A sharp box of the mitred size is hit.
    const Polygon mitred = make_box(real(1.5), real(1.5)).value();
    EXPECT_EQ(raycast(ray({real(3.9), -1}, {real(-4.9), real(4.9)}), mitred, k_identity).state,
              CastState::hit);
}

TEST(Raycast, RoundedBoxTangentToACornerArc) {
    // The line y = 1.5 holds the top face: from (5, 1.5) leftwards by 10 it
    // first touches the shape where the corner arc about (1, 1) meets the
    // face, at (1, 1.5): t = 0.4, normal (0, 1).
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    const CastOutput out = raycast(ray({5, real(1.5)}, {-10, 0}), box, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.4, 1e-6);
    expect_vec_near(out.normal, 0, 1, 1e-5);
}

TEST(Raycast, RoundedBoxRayStartingInTheCornerRegion) {
    // (1.45, 1.45) is inside the mitred box but 0.636 from the core corner:
    // outside the shape. Towards the centre, translation (-1.45, -1.45), it
    // meets the arc at 1.35355 each: t = (1.45 - 1.35355) / 1.45. Moving
    // away it misses.
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    const real start = real(1.45);
    const CastOutput out = raycast(ray({start, start}, {-start, -start}), box, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    const double corner = 1 + 0.5 * std::sqrt(0.5);
    EXPECT_NEAR(out.fraction, (double(start) - corner) / double(start), 1e-6);
    expect_vec_near(out.normal, std::sqrt(0.5), std::sqrt(0.5), 1e-5);
    EXPECT_EQ(raycast(ray({start, start}, {1, 0}), box, k_identity).state, CastState::miss);
}

TEST(Raycast, RoundedBoxRayStartingInsideMisses) {
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    // Inside the core, within the radius of a face, and within a corner arc.
    EXPECT_EQ(raycast(ray({0, 0}, {10, 0}), box, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({real(1.2), 0}, {10, 3}), box, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({real(1.2), real(1.2)}, {5, 5}), box, k_identity).state, CastState::miss);
}

TEST(Raycast, RoundedBoxUnderATransform) {
    // The rounded box turned 45 degrees at (10, 0): the core corner (-1, 1)
    // turns to (-sqrt 2, 0), so the world core corner (10 - sqrt 2, 0) is
    // the leftmost, on the ray's line, and its arc is met at
    // x = 10 - sqrt 2 - 0.5 = 8.08579. From the origin by (20, 0):
    // t = 8.08579 / 20, normal (-1, 0).
    const Polygon box = make_rounded_box(1, 1, real(0.5)).value();
    const CastOutput out = raycast(ray({0, 0}, {20, 0}), box, at(10, 0, real(0.25) * k_pi));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, (10 - std::sqrt(2.0) - 0.5) / 20, 1e-6);
    expect_vec_near(out.normal, -1, 0, 1e-5);
}

// ---------------------------------------------------------------- capsules
// Capsule (-1, 0) -> (1, 0), radius 0.5: sides y = +-0.5 over |x| <= 1, caps
// about (+-1, 0).

const Capsule k_capsule{{-1, 0}, {1, 0}, real(0.5)};

TEST(Raycast, CapsuleHitOnASide) {
    // From (0, 5) down by 10: y = 0.5 at t = 0.45, normal (0, 1).
    const CastOutput out = raycast(ray({0, 5}, {0, -10}), k_capsule, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.45, k_eps);
    expect_vec_near(out.normal, 0, 1);
}

TEST(Raycast, CapsuleHitOnACapAlongItsAxis) {
    // From (-5, 0) right by 10 along the axis: the left cap's tip x = -1.5 at
    // t = 0.35, normal (-1, 0). (The ray is parallel to both sides.)
    const CastOutput out = raycast(ray({-5, 0}, {10, 0}), k_capsule, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.35, k_eps);
    expect_vec_near(out.point, -1.5, 0, 1e-5);
    expect_vec_near(out.normal, -1, 0);
}

TEST(Raycast, CapsuleHitOnACapOffAxis) {
    // From (-5, 0.3) right by 10: the cap (x + 1)^2 + 0.3^2 = 0.25 gives
    // x = -1.4, t = 0.36, normal (-0.4, 0.3) / 0.5 = (-0.8, 0.6).
    const CastOutput out = raycast(ray({-5, real(0.3)}, {10, 0}), k_capsule, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.36, 1e-6);
    expect_vec_near(out.normal, -0.8, 0.6, 1e-5);
}

TEST(Raycast, CapsuleRayAlongASideTouchesWhereTheCapMeetsIt) {
    // The line y = 0.5 holds the top side: from (-5, 0.5) it is tangent to
    // the left cap at (-1, 0.5), t = 0.4, normal (0, 1).
    const CastOutput out = raycast(ray({-5, real(0.5)}, {10, 0}), k_capsule, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.4, 1e-6);
    expect_vec_near(out.normal, 0, 1, 1e-5);
    EXPECT_EQ(raycast(ray({-5, real(0.51)}, {10, 0}), k_capsule, k_identity).state,
              CastState::miss);
}

TEST(Raycast, CapsuleUnderATransform) {
    // Core (0, 0) -> (2, 0), radius 0.25, turned 90 degrees at (1, 1): the
    // world core runs from (1, 1) to (1, 3). From (-4, 2) right by 10 the
    // side x = 0.75 is reached at t = 4.75 / 10, normal (-1, 0).
    const Capsule capsule{{0, 0}, {2, 0}, real(0.25)};
    const CastOutput out = raycast(ray({-4, 2}, {10, 0}), capsule, at(1, 1, real(0.5) * k_pi));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.475, 1e-6);
    expect_vec_near(out.normal, -1, 0, 1e-5);
}

TEST(Raycast, CapsuleRayStartingInsideMisses) {
    EXPECT_EQ(raycast(ray({real(0.5), real(0.1)}, {10, 0}), k_capsule, k_identity).state,
              CastState::miss);
    EXPECT_EQ(raycast(ray({real(-1.3), 0}, {-10, 0}), k_capsule, k_identity).state,
              CastState::miss); // inside a cap, along the axis
    EXPECT_EQ(raycast(ray({0, 0}, {10, 0}), k_capsule, k_identity).state, CastState::miss);
}

// ---------------------------------------------------------------- segments

const Segment k_upright{{0, -1}, {0, 1}};

TEST(Raycast, RaysBeyondTheRangeAreInvalidAndRaysWithinItFinite) {
    // k = k_max_coordinate. A disc of radius k / 2 at the origin. A ray
    // 3 k long is beyond the range in which the disc's discriminant stays
    // finite: invalid_input, never a NaN fraction (fuzz_world: a ray 1e18 L
    // long against a disc of radius 45,232 in float). From (-1.5 k, 0) by
    // (1.9 k, 0) it enters at x = -k / 2: t = k / 1.9 k, normal -x.
    const real k = k_max_coordinate;
    const Circle disc = make_circle({0, 0}, k / 2).value();
    EXPECT_EQ(raycast(ray({-k, 0}, {3 * k, 0}), disc, k_identity).state, CastState::invalid_input);
    const Segment bar = make_segment({0, -1}, {0, 1}).value();
    EXPECT_EQ(raycast(ray({-k, 0}, {3 * k, 0}), bar, k_identity).state, CastState::invalid_input);
    const CastOutput hit = raycast(ray({real(-1.5) * k, 0}, {real(1.9) * k, 0}), disc, k_identity);
    ASSERT_EQ(hit.state, CastState::hit);
    EXPECT_NEAR(hit.fraction, 1 / 1.9, 1e-5);
    expect_vec_near(hit.normal, -1, 0);
}

TEST(Raycast, SegmentHitFromEitherSide) {
    // The segment x = 2, |y| <= 1. From the origin by (4, 0): t = 0.5, normal
    // (-1, 0), facing the ray; from (4, 0) by (-4, 0): t = 0.5, normal (1, 0).
    const CastOutput left = raycast(ray({0, 0}, {4, 0}), k_upright, at(2, 0));
    ASSERT_EQ(left.state, CastState::hit);
    EXPECT_NEAR(left.fraction, 0.5, k_eps);
    expect_vec_near(left.point, 2, 0, 1e-5);
    expect_vec_near(left.normal, -1, 0);
    const CastOutput right = raycast(ray({4, 0}, {-4, 0}), k_upright, at(2, 0));
    ASSERT_EQ(right.state, CastState::hit);
    EXPECT_NEAR(right.fraction, 0.5, k_eps);
    expect_vec_near(right.normal, 1, 0);
}

TEST(Raycast, ASegmentShorterThanItsSquareCanHoldStillHasAUnitNormal) {
    // A horizontal segment 5e-27 L long at the origin (fuzz_geometry: its
    // normal's square underflowed in float and the hit had normal zero).
    // A ray up the y axis from (0, -1) by (0, 2) crosses it at t = 0.5,
    // facing it: normal (0, -1).
    const Segment tiny = make_segment({0, 0}, {real(5e-27), 0}).value();
    const CastOutput hit = raycast(ray({real(1e-27), -1}, {0, 2}), tiny, k_identity);
    ASSERT_EQ(hit.state, CastState::hit);
    EXPECT_NEAR(hit.fraction, 0.5, k_eps);
    expect_vec_near(hit.normal, 0, -1);
}

TEST(Raycast, ASegmentRoundedToAPointIsMissed) {
    // A segment 3.7e-20 L long, up the y axis, placed at (0, 0.03125):
    // there both ends round to the same y, and its x extent is 1e-40 L
    // (fuzz_geometry). A point has no side to enter: a miss, not a hit with
    // normal zero.
    const Segment tiny = make_segment({0, real(3.70577238e-20)}, {real(9.39878906e-41), 0}).value();
    const CastOutput out = raycast(ray({0, real(0.00390625)}, {0, real(3.375)}), tiny,
                                   at(real(-1.40129846e-45), real(0.03125)));
    EXPECT_EQ(out.state, CastState::miss);
}

TEST(Raycast, SegmentRayThroughAnEndpointHits) {
    // From (0, 1) by (4, 0): crosses x = 2 at (2, 1), the segment's end
    // (closed): t = 0.5. A little higher it misses.
    EXPECT_EQ(raycast(ray({0, 1}, {4, 0}), k_upright, at(2, 0)).state, CastState::hit);
    EXPECT_EQ(raycast(ray({0, real(1.01)}, {4, 0}), k_upright, at(2, 0)).state, CastState::miss);
}

TEST(Raycast, SegmentParallelRaysMiss) {
    // Collinear (up the segment's own line) and parallel beside it: a
    // segment has no area to enter, as in Box2D.
    EXPECT_EQ(raycast(ray({2, -5}, {0, 10}), k_upright, at(2, 0)).state, CastState::miss);
    EXPECT_EQ(raycast(ray({1, -5}, {0, 10}), k_upright, at(2, 0)).state, CastState::miss);
}

TEST(Raycast, SegmentRayStartingOnItHitsAtZeroAgainstTheMotion) {
    const CastOutput out = raycast(ray({2, 0}, {1, 0}), k_upright, at(2, 0));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_EQ(out.fraction, 0);
    expect_vec_near(out.normal, -1, 0);
}

// ----------------------------------------------------------- chain segments
// p1 = (1, 0) -> p2 = (-1, 0): solid on its left (below), colliding on its
// right: outward_normal = right_perp((-2, 0)) / 2 = (0, 1). A floor.

const ChainSegment k_floor{{2, 0}, {{1, 0}, {-1, 0}}, {-2, 0}};

TEST(Raycast, ChainSegmentHitFromItsOuterSide) {
    // From (0, 5) down by 10: y = 0 at t = 0.5, normal (0, 1).
    ASSERT_EQ(outward_normal(k_floor), (Vec2{0, 1}));
    const CastOutput out = raycast(ray({0, 5}, {0, -10}), k_floor, k_identity);
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.5, k_eps);
    expect_vec_near(out.point, 0, 0, 1e-5);
    expect_vec_near(out.normal, 0, 1);
}

TEST(Raycast, ChainSegmentFromBehindMisses) {
    // From below (the solid side) up through it: one-sided, no hit. Going
    // up from above and sideways along it miss too.
    EXPECT_EQ(raycast(ray({0, -5}, {0, 10}), k_floor, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({0, 5}, {0, 10}), k_floor, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(ray({-5, 0}, {10, 0}), k_floor, k_identity).state, CastState::miss);
}

TEST(Raycast, ChainSegmentOfACounterClockwiseLoopLetsRaysOut) {
    // The unit square as a counter-clockwise loop encloses solid ground;
    // a ray from its centre leaves through every edge without a hit, and a
    // ray from outside hits the first edge it meets with its outward normal.
    const Vec2 square[] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    const auto loop = make_chain_loop(square).value();
    for (const ChainSegment& chain : loop) {
        EXPECT_EQ(raycast(ray({0, 0}, {7, 3}), chain, k_identity).state, CastState::miss);
        EXPECT_EQ(raycast(ray({0, 0}, {-3, -7}), chain, k_identity).state, CastState::miss);
    }
    // From (5, 0) left by 10: the right edge x = 1 at t = 0.4, normal (1, 0).
    // The left edge, met later from inside, and the top and bottom edges,
    // parallel to the ray, do not count.
    int hits = 0;
    for (const ChainSegment& chain : loop) {
        const CastOutput out = raycast(ray({5, 0}, {-10, 0}), chain, k_identity);
        if (out.state == CastState::hit) {
            ++hits;
            EXPECT_NEAR(out.fraction, 0.4, k_eps);
            expect_vec_near(out.normal, 1, 0);
        }
    }
    EXPECT_EQ(hits, 1);
}

TEST(Raycast, ChainSegmentRayStartingOnIt) {
    // On the floor at (0, 0): downward (inward) hits at t = 0; upward misses.
    const CastOutput in = raycast(ray({0, 0}, {0, -1}), k_floor, k_identity);
    ASSERT_EQ(in.state, CastState::hit);
    EXPECT_EQ(in.fraction, 0);
    expect_vec_near(in.normal, 0, 1);
    EXPECT_EQ(raycast(ray({0, 0}, {0, 1}), k_floor, k_identity).state, CastState::miss);
}

TEST(Raycast, ChainSegmentNormalTurnsWithTheTransform) {
    // Turned 90 degrees at (3, 0), the floor becomes the wall x = 3,
    // |y| <= 1, with outward normal rotate((0, 1)) = (-1, 0): hit from the
    // left at t = 0.3, not from the right.
    const CastOutput out = raycast(ray({0, 0}, {10, 0}), k_floor, at(3, 0, real(0.5) * k_pi));
    ASSERT_EQ(out.state, CastState::hit);
    EXPECT_NEAR(out.fraction, 0.3, 1e-6);
    expect_vec_near(out.normal, -1, 0, 1e-5);
    EXPECT_EQ(raycast(ray({6, 0}, {-10, 0}), k_floor, at(3, 0, real(0.5) * k_pi)).state,
              CastState::miss);
}

// --------------------------------------------------------- shapes, dispatch

TEST(Raycast, ShapeDispatchMatchesEveryOverload) {
    // Every shape straddles the ray's line near the origin, so each is hit
    // (the chain segment (0, 1) -> (0, -1) faces -x, towards the ray).
    const RayInput in = ray({-5, real(0.2)}, {10, real(0.1)});
    const Transform xf = at(real(0.5), real(0.1), real(0.3));
    const Shape shapes[] = {Shape(k_unit_circle),
                            Shape(k_capsule),
                            Shape(make_box(1, 1).value()),
                            Shape(make_rounded_box(1, 1, real(0.25)).value()),
                            Shape(k_upright),
                            Shape(ChainSegment{{0, 2}, {{0, 1}, {0, -1}}, {0, -2}})};
    for (const Shape& shape : shapes) {
        CastOutput direct;
        switch (shape.type) {
        case ShapeType::circle:
            direct = raycast(in, shape.circle, xf);
            break;
        case ShapeType::capsule:
            direct = raycast(in, shape.capsule, xf);
            break;
        case ShapeType::polygon:
            direct = raycast(in, shape.polygon, xf);
            break;
        case ShapeType::segment:
            direct = raycast(in, shape.segment, xf);
            break;
        case ShapeType::chain_segment:
            direct = raycast(in, shape.chain_segment, xf);
            break;
        }
        const CastOutput dispatched = raycast(in, shape, xf);
        ASSERT_EQ(direct.state, CastState::hit) << static_cast<int>(shape.type);
        EXPECT_EQ(dispatched.state, direct.state);
        EXPECT_EQ(dispatched.fraction, direct.fraction);
        EXPECT_EQ(dispatched.point, direct.point);
        EXPECT_EQ(dispatched.normal, direct.normal);
    }
}

// ------------------------------------------------------- degenerate input

TEST(Raycast, NonFiniteInputIsInvalid) {
    // NaN, +inf and -inf in each of the nine input values (origin, translation,
    // max_fraction, the transform's translation and rotation), for every
    // shape, from a ray that would hit and one that would miss: always
    // invalid_input, whichever test of the cast would have decided.
    const real bad[] = {std::numeric_limits<real>::quiet_NaN(),
                        std::numeric_limits<real>::infinity(),
                        -std::numeric_limits<real>::infinity()};
    const Shape shapes[] = {Shape(k_unit_circle),
                            Shape(Circle{{real(0.5), 0}, 1}),
                            Shape(k_capsule),
                            Shape(make_box(1, 1).value()),
                            Shape(make_rounded_box(1, 1, real(0.25)).value()),
                            Shape(k_upright),
                            Shape(ChainSegment{{0, 2}, {{0, 1}, {0, -1}}, {0, -2}})};
    const RayInput rays[] = {ray({-5, real(0.1)}, {10, 0}), ray({-5, 3}, {-10, 0})};
    const Transform base = at(real(0.2), real(0.1), real(0.3));
    for (const Shape& shape : shapes) {
        for (const RayInput& good : rays) {
            ASSERT_NE(raycast(good, shape, base).state, CastState::invalid_input);
            for (int field = 0; field < 9; ++field) {
                for (const real value : bad) {
                    RayInput in = good;
                    Transform xf = base;
                    real* const slots[] = {&in.origin.x,      &in.origin.y,     &in.translation.x,
                                           &in.translation.y, &in.max_fraction, &xf.p.x,
                                           &xf.p.y,           &xf.q.c,          &xf.q.s};
                    *slots[field] = value;
                    EXPECT_EQ(raycast(in, shape, xf).state, CastState::invalid_input)
                        << "shape " << static_cast<int>(shape.type) << ", field " << field
                        << ", value " << value;
                }
            }
        }
    }
}

TEST(Raycast, NegativeMaxFractionIsInvalid) {
    EXPECT_EQ(raycast(ray({-5, 0}, {10, 0}, -1), k_unit_circle, k_identity).state,
              CastState::invalid_input);
}

TEST(Raycast, TranslationWhoseSquareOverflowsIsInvalid) {
    const real big = std::numeric_limits<real>::max() / 2;
    const Shape shapes[] = {Shape(k_unit_circle), Shape(k_capsule), Shape(make_box(1, 1).value()),
                            Shape(k_upright), Shape(k_floor)};
    for (const Shape& shape : shapes) {
        EXPECT_EQ(raycast(ray({-5, 0}, {big, 0}), shape, k_identity).state,
                  CastState::invalid_input);
    }
}

TEST(Raycast, ZeroTranslationMisses) {
    // From outside, from the surface and from inside: a ray that does not
    // move enters nothing.
    const Shape shapes[] = {Shape(k_unit_circle),
                            Shape(k_capsule),
                            Shape(make_box(1, 1).value()),
                            Shape(make_rounded_box(real(0.5), real(0.5), real(0.5)).value()),
                            Shape(k_upright),
                            Shape(k_floor)};
    for (const Shape& shape : shapes) {
        for (const Vec2 origin : {Vec2{-5, 0}, Vec2{-1, 0}, Vec2{0, 0}}) {
            const CastOutput out = raycast(ray(origin, {0, 0}), shape, k_identity);
            EXPECT_EQ(out.state, CastState::miss);
            EXPECT_EQ(out.fraction, 0);
        }
    }
}

TEST(Raycast, ZeroMaxFractionHitsOnlyFromTheSurface) {
    // max_fraction 0 keeps only t = 0: an origin on the surface moving in.
    EXPECT_EQ(raycast(ray({-1, 0}, {1, 0}, 0), k_unit_circle, k_identity).state, CastState::hit);
    EXPECT_EQ(raycast(ray({-2, 0}, {1, 0}, 0), k_unit_circle, k_identity).state, CastState::miss);
}

} // namespace
} // namespace sweep
