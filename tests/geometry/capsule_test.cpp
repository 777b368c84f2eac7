// Capsules and rounded boxes: factories, exact mass properties worked out by
// hand, and capsule manifolds whose expected values follow from the picture.
#include <gtest/gtest.h>

#include <cmath>

#include "printers.hpp"
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/shapes.hpp"

namespace sweep {
namespace {

constexpr double k_eps = 1e-5;

TEST(MakeCapsule, KeepsItsCentresAndRadius) {
    auto capsule = make_capsule({-1, 0}, {1, 0}, 0.5f);
    ASSERT_TRUE(capsule);
    EXPECT_EQ(capsule->center1, (Vec2{-1, 0}));
    EXPECT_EQ(capsule->center2, (Vec2{1, 0}));
    EXPECT_EQ(capsule->radius, real(0.5));
}

TEST(MakeCapsule, RejectsCoincidentCentresZeroNegativeAndNonFiniteRadius) {
    EXPECT_EQ(make_capsule({1, 1}, {1, 1}, 0.5f).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_capsule({0, 0}, {1, 0}, 0).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_capsule({0, 0}, {1, 0}, -1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_capsule({0, 0}, {1, 0}, NAN).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_capsule({0, INFINITY}, {1, 0}, 1).error().code, ErrorCode::invalid_input);
}

TEST(MakeRoundedBox, IsABoxCoreWithItsRadiusAndRejectsBadRadius) {
    auto box = make_rounded_box(1, 0.5f, 0.25f);
    ASSERT_TRUE(box);
    EXPECT_EQ(box->count, 4);
    EXPECT_EQ(box->radius, real(0.25));
    EXPECT_EQ(box->vertices[2], (Vec2{1, 0.5f}));
    EXPECT_EQ(compute_aabb(*box, k_identity).upper, (Vec2{1.25f, 0.75f}));
    EXPECT_EQ(make_rounded_box(1, 1, 0).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_rounded_box(1, 1, -1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_rounded_box(1, 1, NAN).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_rounded_box(0, 1, 0.1f).error().code, ErrorCode::degenerate_shape);
}

TEST(ComputeMass, CapsuleIsARectangleAndTwoHalfDiscs) {
    // Centres (-1, 0) and (1, 0), r = 0.5, density 2; length L = 2.
    // Rectangle 2 x 1: mass 4, I = 4 (2^2 + 1^2) / 12 = 5/3.
    // Half-discs = one disc: mass 2 pi 0.25 = pi/2. Each half's centroid lies
    // 4r / (3 pi) beyond its end, so about the capsule's centre
    // I = m (r^2 / 2 + L^2 / 4 + L 4r / (3 pi)) = (pi/2)(0.125 + 1) + 2/3.
    // Total: mass 4 + pi/2, I = 7/3 + 0.5625 pi.
    const Capsule capsule{{-1, 0}, {1, 0}, 0.5f};
    const MassData mass = compute_mass(capsule, 2);
    EXPECT_NEAR(mass.mass, 4 + k_pi / 2, k_eps);
    EXPECT_NEAR(mass.center.x, 0, k_eps);
    EXPECT_NEAR(mass.center.y, 0, k_eps);
    EXPECT_NEAR(mass.rotational_inertia, 7.0 / 3 + 0.5625 * k_pi, 1e-4);
}

TEST(ComputeMass, TiltedOffsetCapsuleKeepsItsInertiaAboutItsMidpoint) {
    // The same capsule turned by 30 degrees and moved to (3, -2).
    const Rot q = Rot::from_angle(real(k_pi / 6));
    const Vec2 c{3, -2};
    const Capsule capsule{c + rotate(q, {-1, 0}), c + rotate(q, {1, 0}), 0.5f};
    const MassData mass = compute_mass(capsule, 2);
    EXPECT_NEAR(mass.mass, 4 + k_pi / 2, k_eps);
    EXPECT_NEAR(mass.center.x, 3, 1e-5);
    EXPECT_NEAR(mass.center.y, -2, 1e-5);
    EXPECT_NEAR(mass.rotational_inertia, 7.0 / 3 + 0.5625 * k_pi, 2e-4);
}

TEST(ComputeMass, RoundedBoxIsExactNotApproximated) {
    // Core 2 x 1 (hx 1, hy 0.5), r = 0.25, density 1.
    // Area: core 2 + perimeter 6 x 0.25 + disc pi/16 = 3.5 + pi/16.
    // Inertia about the centre, piece by piece:
    //   core: 2 (4 + 1) / 12 = 0.8333333
    //   top and bottom strips 2 x 0.25 at y = +-0.625:
    //     2 [0.5 (4 + 0.0625) / 12 + 0.5 0.625^2] = 0.7291667
    //   side strips 0.25 x 1 at x = +-1.125:
    //     2 [0.25 (0.0625 + 1) / 12 + 0.25 1.125^2] = 0.6770833
    //   quarter discs at (+-1, +-0.5): about the apex A r^2 / 2 with
    //     A = pi r^2 / 4; moved by v = (1, 0.5): + 2 v.S + A |v|^2 where
    //     S = (r^3 / 3)(1, 1), so each 0.0015340 + 0.015625 + 0.0613592
    //     = 0.0785182, four: 0.3140728
    //   total 2.5536561.
    const Polygon box = make_rounded_box(1, 0.5f, 0.25f).value();
    const MassData mass = compute_mass(box, 1);
    EXPECT_NEAR(mass.mass, 3.5 + k_pi / 16, k_eps);
    EXPECT_NEAR(mass.center.x, 0, k_eps);
    EXPECT_NEAR(mass.center.y, 0, k_eps);
    EXPECT_NEAR(mass.rotational_inertia, 2.5536561, 1e-5);
}

TEST(ComputeAabb, CapsuleIsItsCentresBoundsGrownByTheRadius) {
    const Capsule capsule{{-1, 0}, {1, 0}, 0.5f};
    // A quarter turn about the origin, then up by 1: centres (0, 0) and (0, 2).
    const Aabb box = compute_aabb(capsule, {{0, 1}, Rot::from_angle(real(k_pi / 2))});
    EXPECT_NEAR(box.lower.x, -0.5, k_eps);
    EXPECT_NEAR(box.lower.y, -0.5, k_eps);
    EXPECT_NEAR(box.upper.x, 0.5, k_eps);
    EXPECT_NEAR(box.upper.y, 2.5, k_eps);
    EXPECT_NEAR(max_extent(Shape(capsule), {0, 0}), 1.5, k_eps);
}

TEST(SegmentDistance, CrossingParallelAndEndToEnd) {
    // Crossing at the origin: distance 0 at the middle of both.
    SegmentDistanceOutput d = segment_distance({-1, 0}, {1, 0}, {0, -1}, {0, 1});
    EXPECT_NEAR(d.distance_squared, 0, k_eps);
    EXPECT_NEAR(d.fraction1, 0.5, k_eps);
    EXPECT_NEAR(d.fraction2, 0.5, k_eps);
    // Parallel, one above the other: distance 1.
    d = segment_distance({0, 0}, {2, 0}, {1, 1}, {3, 1});
    EXPECT_NEAR(d.distance_squared, 1, k_eps);
    EXPECT_NEAR(d.closest2.y - d.closest1.y, 1, k_eps);
    // End to end on one line: the gap between (1, 0) and (3, 0).
    d = segment_distance({-1, 0}, {1, 0}, {3, 0}, {5, 0});
    EXPECT_NEAR(d.distance_squared, 4, k_eps);
    EXPECT_NEAR(d.fraction1, 1, k_eps);
    EXPECT_NEAR(d.fraction2, 0, k_eps);
    // A point (zero-length segment) against a segment: its foot.
    d = segment_distance({0.5f, 2}, {0.5f, 2}, {0, 0}, {2, 0});
    EXPECT_NEAR(d.distance_squared, 4, k_eps);
    EXPECT_NEAR(d.fraction2, 0.25, k_eps);
}

TEST(CollideCapsules, EndToEndOnOneLineMeetAtTheTips) {
    // Cores (-1,0)-(1,0) and (2,0)-(4,0), radii 0.5 and 0.4: the tips are
    // at x = 1.5 and x = 1.6, a gap of 0.1 along +x. Separating axes on the
    // two segments alone would call this a 0.9 overlap.
    const CollideSettings settings{real(0.2), k_linear_slop};
    const Manifold m = collide_capsules({{-1, 0}, {1, 0}, 0.5f}, k_identity, {{2, 0}, {4, 0}, 0.4f},
                                        k_identity, settings);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.normal.x, 1, k_eps);
    EXPECT_NEAR(m.normal.y, 0, k_eps);
    EXPECT_NEAR(m.points[0].separation, 0.1, k_eps);
    EXPECT_NEAR(m.points[0].point.x, 1.55, k_eps);
    // Beyond the speculative distance: nothing.
    EXPECT_EQ(
        collide_capsules({{-1, 0}, {1, 0}, 0.5f}, k_identity, {{2, 0}, {4, 0}, 0.4f}, k_identity)
            .count,
        0);
}

TEST(CollideCapsules, ParallelSideBySideHaveTwoPointsClippedToTheOverlap) {
    // A lies on y = 0 from x = -1 to 1 (r 0.5); B on y = 0.9 from 0 to 3
    // (r 0.5): cores 0.9 apart, radii sum 1, so 0.1 deep where x is in
    // [0, 1]; points midway between the surfaces at y = 0.45.
    const Manifold m = collide_capsules({{-1, 0}, {1, 0}, 0.5f}, k_identity,
                                        {{0, 0.9f}, {3, 0.9f}, 0.5f}, k_identity);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(m.normal.x, 0, k_eps);
    EXPECT_NEAR(m.normal.y, 1, k_eps);
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(m.points[i].separation, -0.1, k_eps);
        EXPECT_NEAR(m.points[i].point.y, 0.45, k_eps);
    }
    EXPECT_NEAR(std::min(m.points[0].point.x, m.points[1].point.x), 0, k_eps);
    EXPECT_NEAR(std::max(m.points[0].point.x, m.points[1].point.x), 1, k_eps);
    EXPECT_NE(m.points[0].id, m.points[1].id);
}

// B leaning by up to 3 degrees beside A (the two-point case), by hand:
// B's lower end is nearest A on its cap, at the distance from A's core line
// to B's core end less the radii; its higher end on its flat side, B's
// radius times cos(lean) below its core. Measured on the flat side, the
// lower end's separation was B's radius times 1 - cos(lean) too large
// (1e-4 L for radius 0.2 at 1.8 degrees, 4e-3 L for radius 3 at 3
// degrees, nearly a slop).
TEST(CollideCapsules, ALeaningCapsuleBesideAnotherGetsEachPointsTrueSeparation) {
    for (const real rb : {real(0.2), real(3)}) {
        for (const double lean : {0.5, 1.0, 1.8, 2.8}) {
            // A on y = 0 from x = 0 to 4, radius 0.1; B from (1, h1) to
            // (1.5, h2), 0.01 deep at its lower end.
            const double rad = lean * 3.141592653589793 / 180;
            const double h1 = 0.1 + rb - 0.01;
            const double h2 = h1 + 0.5 * std::tan(rad);
            const Manifold m = collide_capsules({{0, 0}, {4, 0}, 0.1f}, k_identity,
                                                {{1, real(h1)}, {1.5f, real(h2)}, rb}, k_identity);
            SCOPED_TRACE("radius " + std::to_string(rb) + ", lean " + std::to_string(lean));
            ASSERT_EQ(m.count, 2);
            EXPECT_NEAR(m.normal.y, 1, k_eps);
            const double lo = std::min(m.points[0].separation, m.points[1].separation);
            const double hi = std::max(m.points[0].separation, m.points[1].separation);
            EXPECT_NEAR(lo, real(h1) - 0.1 - rb, 1e-6);
            EXPECT_NEAR(hi, real(h2) - 0.1 - rb * std::cos(rad), 1e-6); // B's flat side
        }
    }
}

TEST(CollideCapsules, PerpendicularTouchAtOnePoint) {
    // B stands on A: B's core from (0, 1) up to (0, 3), r 0.25; A's core on
    // y = 0, r 0.5. Gap 1 - 0.75 = 0.25, within a speculative 0.3.
    const CollideSettings settings{real(0.3), k_linear_slop};
    const Manifold m = collide_capsules({{-1, 0}, {1, 0}, 0.5f}, k_identity,
                                        {{0, 1}, {0, 3}, 0.25f}, k_identity, settings);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.normal.y, 1, k_eps);
    EXPECT_NEAR(m.points[0].separation, 0.25, k_eps);
    EXPECT_NEAR(m.points[0].point.y, 0.625, k_eps); // midway between 0.5 and 0.75
}

TEST(CollideCapsules, CrossingCoresPushOutAlongASideNormal) {
    // An X: A horizontal, B vertical, both r 0.1, crossing at the origin.
    // Along A's side normal B's core reaches 1 beyond A's line on either
    // side, so the least push is along the normals: penetration 1 + 0.2.
    const Manifold m =
        collide_capsules({{-2, 0}, {2, 0}, 0.1f}, k_identity, {{0, -1}, {0, 1}, 0.1f}, k_identity);
    ASSERT_GE(m.count, 1);
    EXPECT_NEAR(length(m.normal), 1, k_eps);
    EXPECT_NEAR(m.points[0].separation, -1.2, 1e-4);
}

// The same X with no linear slop (a world so small in its units that the
// slop rounds to 0): the cores' zero distance gives no normal, and the side
// normals still do; it divided by that distance and gave NaN (fuzz_world).
TEST(CollideCapsules, CrossingCoresWithNoSlopStillPushOutAlongASideNormal) {
    const Manifold m = collide_capsules({{-2, 0}, {2, 0}, 0.1f}, k_identity,
                                        {{0, -1}, {0, 1}, 0.1f}, k_identity, {0, 0});
    ASSERT_GE(m.count, 1);
    EXPECT_NEAR(length(m.normal), 1, k_eps);
    EXPECT_NEAR(m.points[0].separation, -1.2, 1e-4);
}

TEST(Collide, CapsuleOnABoxRestsOnTwoPoints) {
    // A capsule lying on the ground box's top face (y = 0), core at y = 0.5
    // with r 0.5: touching along the face from x = -1 to x = 1.
    const Polygon ground = make_offset_box(5, 1, {0, -1}, 0).value();
    const Manifold m =
        collide(Shape(ground), k_identity, Shape(Capsule{{-1, 0.5f}, {1, 0.5f}, 0.5f}), k_identity);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(m.normal.y, 1, k_eps);
    EXPECT_NEAR(m.points[0].separation, 0, k_eps);
    EXPECT_NEAR(m.points[1].separation, 0, k_eps);
}

TEST(Collide, CapsuleAgainstACircleIsTheDistanceToItsCore) {
    // Capsule core on y = 0 from x = -1 to 1, r 0.5. A circle of r 0.5 at
    // (0, 1.5): gap 1.5 - 1 = 0.5, beyond the speculative distance (0.02):
    // no contact. At (0.5, 1.01), above the core: gap 0.01, normal +y.
    const Shape capsule(Capsule{{-1, 0}, {1, 0}, 0.5f});
    EXPECT_EQ(collide(capsule, k_identity, Shape(Circle{{0, 1.5f}, 0.5f}), k_identity).count, 0);
    const Manifold m = collide(capsule, k_identity, Shape(Circle{{0.5f, 1.01f}, 0.5f}), k_identity);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.normal.y, 1, k_eps);
    EXPECT_NEAR(m.points[0].separation, 0.01, k_eps);
}

TEST(Collide, CapsuleAgainstASegmentEndMeetsTheEnd) {
    // A vertical segment at x = 2 and a horizontal capsule whose core ends
    // at (1.49, 0) with r 0.5: its tip is at x = 1.99, a gap of 0.01 to the
    // segment's interior point (2, 0), normal +x.
    const Shape capsule(Capsule{{-1, 0}, {1.49f, 0}, 0.5f});
    const Manifold m = collide(capsule, k_identity, Shape(Segment{{2, -1}, {2, 1}}), k_identity);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.normal.x, 1, k_eps);
    EXPECT_NEAR(m.points[0].separation, 0.01, k_eps);
}

TEST(Collide, ACapsuleCoreShorterThanItsRoundingIsTheDiscItBecomes) {
    // A capsule of r 2 whose core (1e-14 L) is below the rounding of
    // coordinates near x = 1000, so in the world both its centres are
    // (1000, 1.5): the disc of r 2 there, 1.5 above the segment's line
    // y = 0. Separation 1.5 - 2 = -0.5 along +y. (Found by fuzz_geometry:
    // the collapsed core was taken for one parallel to the segment, and its
    // zero side normal dropped the radius, giving separation +1.5.)
    const Shape segment(make_segment({999, 0}, {1001, 0}).value());
    const Shape capsule(make_capsule({0, 0}, {real(1e-14), 0}, 2).value());
    const Manifold m = collide(segment, k_identity, capsule, {{1000, real(1.5)}, Rot{}});
    ASSERT_GE(m.count, 1);
    EXPECT_NEAR(m.normal.x, 0, k_eps);
    EXPECT_NEAR(m.normal.y, 1, k_eps);
    for (int i = 0; i < m.count; ++i) {
        EXPECT_NEAR(m.points[i].separation, -0.5, 1e-4);
    }
}

} // namespace
} // namespace sweep
