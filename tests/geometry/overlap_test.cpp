// overlaps(): hand-derived cases. Overlapping means penetrating deeper than
// the touch tolerance (k_touch_tolerance = 0.00125 L); shapes within it only
// touch (docs/conventions.md, "Touching versus overlapping").
#include "sweep/overlap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "printers.hpp"
#include "sweep/mtv.hpp"
#include "sweep/shape_cast.hpp"

namespace sweep {
namespace {

Transform at(real x, real y, real angle = 0) { return {{x, y}, Rot::from_angle(angle)}; }
Polygon box(real hx, real hy) { return make_box(hx, hy).value(); }

/// overlaps() both ways round, which must agree.
bool overlap_both(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb) {
    const bool ab = overlaps(a, xfa, b, xfb);
    EXPECT_EQ(ab, overlaps(b, xfb, a, xfa)) << "not symmetric";
    return ab;
}

TEST(Overlaps, CirclesOverlapOnlyDeeperThanTheTouchTolerance) {
    const Circle unit{{0, 0}, real(0.5)};
    // Centres 0.9 apart, radii 0.5 + 0.5: 0.1 deep.
    EXPECT_TRUE(overlap_both(unit, k_identity, unit, at(real(0.9), 0)));
    // 0.001 deep (< 0.00125): touching, not overlapping.
    EXPECT_FALSE(overlap_both(unit, k_identity, unit, at(real(0.999), 0)));
    // 0.002 deep: overlapping.
    EXPECT_TRUE(overlap_both(unit, k_identity, unit, at(0, real(0.998))));
    // Apart by 0.1.
    EXPECT_FALSE(overlap_both(unit, k_identity, unit, at(real(1.1), 0)));
    // Concentric: 1 deep.
    EXPECT_TRUE(overlap_both(unit, k_identity, unit, k_identity));
    EXPECT_TRUE(overlaps_circles(unit, k_identity, unit, at(real(0.9), 0)));
}

TEST(Overlaps, CirclesSmallerThanTheToleranceOnlyTouch) {
    // Radii 0.0005 + 0.0005 = 0.001 < 0.00125: even concentric they touch.
    const Circle dot{{0, 0}, real(0.0005)};
    EXPECT_FALSE(overlap_both(dot, k_identity, dot, k_identity));
    // With a tolerance of zero any penetration counts.
    EXPECT_TRUE(overlaps(dot, k_identity, dot, k_identity, 0));
}

TEST(Overlaps, ToleranceScalesWithTheWorld) {
    // A world of L = 32 has a touch tolerance of 0.04: 0.03 deep only touches.
    const real tolerance = Tolerances::for_units(32).touch_tolerance;
    const Circle c{{0, 0}, 16};
    EXPECT_FALSE(overlaps(c, k_identity, c, at(real(31.97), 0), tolerance));
    EXPECT_TRUE(overlaps(c, k_identity, c, at(real(31.9), 0), tolerance));
}

TEST(Overlaps, BoxRestingOnBoxTouchesAndSunkDeeperOverlaps) {
    const Polygon ground = box(2, real(0.5)); // top face y = 0.5
    const Polygon unit = box(real(0.5), real(0.5));
    // Bottom at 0.499: 0.001 deep, touching.
    EXPECT_FALSE(overlap_both(ground, k_identity, unit, at(real(0.3), real(0.999))));
    // Bottom at 0.49: 0.01 deep.
    EXPECT_TRUE(overlap_both(ground, k_identity, unit, at(real(0.3), real(0.99))));
    // Side by side, 0.001 deep along x, however deep the other axis.
    EXPECT_FALSE(overlap_both(ground, k_identity, unit, at(real(2.499), 0)));
    // A box turned 45 degrees standing on its corner 0.1 deep.
    const real half_diagonal = std::sqrt(real(0.5));
    EXPECT_TRUE(overlap_both(ground, k_identity, unit,
                             at(0, real(0.4) + half_diagonal, real(0.7853981633974483))));
    EXPECT_TRUE(overlaps_polygons(ground, k_identity, unit, at(real(0.3), real(0.99))));
}

TEST(Overlaps, CircleNearABoxCornerMeasuresToTheCorner) {
    // Box [-1, 1]^2, circle r = 0.5 off the corner (1, 1) along the diagonal.
    // At (1.3, 1.3): corner distance 0.3 sqrt 2 = 0.424 < 0.5, 0.076 deep.
    // At (1.4, 1.4): 0.566 > 0.5, apart, although both face gaps (0.4) are
    // below the radius: the face test alone would call it overlapping.
    const Polygon b = box(1, 1);
    const Circle c{{0, 0}, real(0.5)};
    EXPECT_TRUE(overlap_both(b, k_identity, c, at(real(1.3), real(1.3))));
    EXPECT_FALSE(overlap_both(b, k_identity, c, at(real(1.4), real(1.4))));
    EXPECT_FALSE(overlaps_polygon_circle(b, k_identity, c, at(real(1.4), real(1.4))));
    // Centre inside: 0.5 from the nearest face plus the radius, deep.
    EXPECT_TRUE(overlap_both(b, k_identity, c, at(real(0.5), 0)));
}

TEST(Overlaps, RoundedBoxesWithApartCoresCountTheirRadii) {
    // Cores [-0.5, 0.5]^2 rounded by 0.1. B at (1.1, 1.1): the core corners
    // (0.5, 0.5) and (0.6, 0.6) are 0.141 apart, radii 0.2: 0.059 deep.
    // At (1.2, 1.2): 0.283 apart, separated.
    const Polygon r = make_rounded_box(real(0.5), real(0.5), real(0.1)).value();
    EXPECT_TRUE(overlap_both(r, k_identity, r, at(real(1.1), real(1.1))));
    EXPECT_FALSE(overlap_both(r, k_identity, r, at(real(1.2), real(1.2))));
}

TEST(Overlaps, CapsulesEndToEndOnOneLineAreApart) {
    // Both cores on the x axis: the side normals see no gap; the direction
    // of the cores does (0.5 between the ends, radii 0.2).
    const Capsule c = make_capsule({0, 0}, {1, 0}, real(0.1)).value();
    EXPECT_FALSE(overlap_both(c, k_identity, c, at(real(1.5), 0)));
    // Ends 0.15 apart: 0.05 deep.
    EXPECT_TRUE(overlap_both(c, k_identity, c, at(real(1.15), 0)));
    // Side by side 0.15 apart: 0.05 deep; 0.199 apart: 0.001, touching.
    EXPECT_TRUE(overlap_both(c, k_identity, c, at(real(0.3), real(0.15))));
    EXPECT_FALSE(overlap_both(c, k_identity, c, at(real(0.3), real(0.199))));
    // Crossing cores.
    EXPECT_TRUE(overlap_both(c, k_identity, c, at(real(0.5), real(-0.5), real(1.5707963))));
}

TEST(Overlaps, SegmentAgainstSolidsAndEdges) {
    const Segment s = make_segment({-1, 0}, {1, 0}).value();
    const Polygon unit = box(real(0.5), real(0.5));
    // Through the box: overlapping (0.5 to leave either way).
    EXPECT_TRUE(overlap_both(s, k_identity, unit, at(real(0.2), 0)));
    // Lying on the box's bottom face: touching.
    EXPECT_FALSE(overlap_both(s, k_identity, unit, at(0, real(0.5))));
    // Circle centred on the segment's end line 0.2 beyond the end, r = 0.3: 0.1 deep.
    EXPECT_TRUE(overlap_both(s, k_identity, Circle{{0, 0}, real(0.3)}, at(real(1.2), 0)));
    EXPECT_FALSE(overlap_both(s, k_identity, Circle{{0, 0}, real(0.3)}, at(real(1.35), 0)));
    // Two edges crossing in an X overlap; meeting in a T they touch.
    EXPECT_TRUE(overlap_both(s, k_identity, Segment{{0, -1}, {0, 1}}, k_identity));
    EXPECT_FALSE(overlap_both(s, k_identity, Segment{{0, 0}, {0, 1}}, k_identity));
    // A zero-length segment is its point: inside the box it overlaps.
    EXPECT_TRUE(overlap_both(Segment{{0, 0}, {0, 0}}, k_identity, unit, at(real(0.1), 0)));
    EXPECT_FALSE(overlap_both(Segment{{0, 0}, {0, 0}}, k_identity, unit, at(real(0.6), 0)));
}

TEST(Overlaps, ChainSegmentsAreTheSegmentNotTheSolidBehindIt) {
    // The top of a counter-clockwise loop around ground below y = 0.
    const ChainSegment top{{2, -1}, Segment{{2, 0}, {-2, 0}}, {-2, -1}};
    const Polygon unit = box(real(0.5), real(0.5));
    // A box sunk 0.01 from above crosses the segment.
    EXPECT_TRUE(overlap_both(top, k_identity, unit, at(0, real(0.49))));
    // One that crosses it from inside the solid too (chains are lines here).
    EXPECT_TRUE(overlap_both(top, k_identity, unit, at(0, real(-0.49))));
    // A box wholly inside the solid does not cross the segment: no overlap.
    EXPECT_FALSE(overlap_both(top, k_identity, unit, at(0, real(-0.7))));
    // Resting on it: touching.
    EXPECT_FALSE(overlap_both(top, k_identity, unit, at(0, real(0.5))));
}

TEST(Overlaps, NonFiniteTransformsAreNeverOverlapping) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    const Polygon unit = box(real(0.5), real(0.5));
    const Circle c{{0, 0}, 1};
    EXPECT_FALSE(overlaps(unit, at(nan, 0), unit, k_identity));
    EXPECT_FALSE(overlaps(c, k_identity, c, at(0, inf)));
    EXPECT_FALSE(overlaps(unit, k_identity, c, Transform{{0, 0}, {nan, 0}}));
    EXPECT_FALSE(overlaps_circles(c, at(inf, 0), c, k_identity));
    EXPECT_FALSE(overlaps_polygons(unit, k_identity, unit, at(0, nan)));
    EXPECT_FALSE(overlaps_polygon_circle(unit, at(nan, nan), c, k_identity));
}

TEST(Overlaps, AgreesWithShapeCastAndMtvOnTheSamePair) {
    // shape_cast reports `overlapped` at t = 0 and mtv_polygons `overlapping`
    // exactly when overlaps() is true: a box sunk 0.001 (touching), 0.002 and
    // 0.01 (overlapping) into the ground.
    const Polygon ground = box(2, real(0.5));
    const Polygon unit = box(real(0.5), real(0.5));
    for (const real depth : {real(0.001), real(0.002), real(0.01)}) {
        const Transform xf = at(real(0.3), real(1) - depth);
        ShapeCastInput in;
        in.proxy_a = make_proxy(ground);
        in.proxy_b = make_proxy(unit);
        in.xf_a = k_identity;
        in.xf_b = xf;
        in.translation_b = {0, -1};
        const bool overlapped = shape_cast(in).state == CastState::overlapped;
        const bool mtv = mtv_polygons(ground, k_identity, unit, xf).state == MtvState::overlapping;
        SCOPED_TRACE(depth);
        EXPECT_EQ(overlaps(ground, k_identity, unit, xf), overlapped);
        EXPECT_EQ(overlaps(ground, k_identity, unit, xf), mtv);
        EXPECT_EQ(overlapped, depth > k_touch_tolerance);
    }
}

} // namespace
} // namespace sweep
