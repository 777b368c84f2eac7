// Convex hull by monotone chain, hand-derived cases (hull.hpp).
#include "sweep/hull.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "printers.hpp"

namespace sweep {
namespace {

/// The hull as a cyclic sequence starting at its lowest-leftmost vertex,
/// so that tests can compare it with a list written by hand.
std::vector<Vec2> from_lowest_left(std::vector<Vec2> hull) {
    const auto first = std::min_element(hull.begin(), hull.end(), [](Vec2 a, Vec2 b) {
        return a.y < b.y || (a.y == b.y && a.x < b.x);
    });
    std::rotate(hull.begin(), first, hull.end());
    return hull;
}

TEST(ComputeHull, SquareDropsInteriorEdgeAndRepeatedPoints) {
    // Corners of [0, 2]^2, the midpoints of its edges (collinear), its centre,
    // and a repeated corner: the hull is the 4 corners, counter-clockwise.
    const std::vector<Vec2> points{{1, 1}, {2, 2}, {0, 0}, {1, 0}, {2, 0},
                                   {2, 1}, {1, 2}, {0, 2}, {0, 1}, {2, 2}};
    auto hull = compute_hull(points);
    ASSERT_TRUE(hull);
    const std::vector<Vec2> expected{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    EXPECT_EQ(from_lowest_left(*hull), expected);
}

TEST(ComputeHull, PentagonWithInteriorPointsIsCounterClockwise) {
    // A "house": base (0,0)-(4,0), walls up to y = 3, roof apex (2, 5);
    // (2, 2) and (1, 1) are inside.
    const std::vector<Vec2> points{{2, 5}, {1, 1}, {4, 3}, {0, 0}, {2, 2}, {0, 3}, {4, 0}};
    auto hull = compute_hull(points);
    ASSERT_TRUE(hull);
    const std::vector<Vec2> expected{{0, 0}, {4, 0}, {4, 3}, {2, 5}, {0, 3}};
    EXPECT_EQ(from_lowest_left(*hull), expected);
}

TEST(ComputeHull, WeldDistanceMergesNearbyPoints) {
    // (0.05, -0.01) is a hull vertex of its own (it pokes below the edge
    // (0,0)-(1,0)), but it lies 0.051 from (0, 0): a weld distance of 0.1
    // merges the two and leaves a triangle; the default 1e-5 keeps 4 vertices.
    const std::vector<Vec2> points{{0, 0}, {real(0.05), real(-0.01)}, {1, 0}, {0, 1}};
    auto welded = compute_hull(points, real(0.1));
    ASSERT_TRUE(welded);
    EXPECT_EQ(welded->size(), 3u);
    auto unwelded = compute_hull(points);
    ASSERT_TRUE(unwelded);
    EXPECT_EQ(unwelded->size(), 4u);
}

TEST(ComputeHull, DropsAVertexAHairOffItsNeighboursLine) {
    // The square [0, 2]^2 with a fifth point under its bottom edge's middle:
    // 1e-6 below it, within the weld distance of the edge (0,0)-(2,0), it is
    // dropped for that edge; 1e-3 below, it is a corner of its own.
    const std::vector<Vec2> hair{{0, 0}, {1, real(-1e-6)}, {2, 0}, {2, 2}, {0, 2}};
    EXPECT_EQ(from_lowest_left(compute_hull(hair).value()),
              (std::vector<Vec2>{{0, 0}, {2, 0}, {2, 2}, {0, 2}}));
    const std::vector<Vec2> corner{{0, 0}, {1, real(-1e-3)}, {2, 0}, {2, 2}, {0, 2}};
    EXPECT_EQ(compute_hull(corner).value().size(), 5u);
    // Vertex 0 of the chain (the leftmost point) is judged too: (0, 1) is
    // 1e-6 left of the square's left edge.
    const std::vector<Vec2> left{{real(-1e-6), 1}, {0, 0}, {2, 0}, {2, 2}, {0, 2}};
    EXPECT_EQ(from_lowest_left(compute_hull(left).value()),
              (std::vector<Vec2>{{0, 0}, {2, 0}, {2, 2}, {0, 2}}));
}

TEST(ComputeHull, DropsNoPointFartherThanTheWeldDistanceAlongAGentleCurve) {
    // 2,000 points around the unit circle, d = 2 pi / 2000 apart: each is
    // 1 - cos d = 4.9e-6 off the chord of its two neighbours, so vertices
    // are dropped, but a run of them only while every one stays within the
    // weld distance of the edge that replaces it. An edge across 3 steps
    // leaves its two inner points cos(d/2) - cos(3d/2) = 9.9e-6 off it, one
    // across 4 its middle point 1 - cos 2d = 2e-5: about 2000 / 3 vertices
    // are left, and no point is more than the weld distance outside.
    std::vector<Vec2> points;
    for (int i = 0; i < 2000; ++i) {
        const double a = 2 * 3.141592653589793 * i / 2000;
        points.push_back({real(std::cos(a)), real(std::sin(a))});
    }
    const std::vector<Vec2> hull = compute_hull(points).value();
    EXPECT_GE(hull.size(), 600u);
    EXPECT_LE(hull.size(), 700u);
    for (std::size_t i = 0; i < hull.size(); ++i) {
        const Vec2 a = hull[i];
        const Vec2 edge = hull[(i + 1) % hull.size()] - a;
        for (const Vec2 p : points) {
            // (Float's rounding of the points, 6e-8, on top.)
            EXPECT_GE(cross(edge, p - a) / length(edge), real(-1e-5) - real(2e-7));
        }
    }
}

TEST(ComputeHull, RejectsPointsWithinTheWeldDistanceOfOneLine) {
    // A triangle 5e-6 high: its apex is within the weld distance of the base.
    const std::vector<Vec2> sliver{{0, 0}, {1, 0}, {real(0.5), real(5e-6)}};
    EXPECT_EQ(compute_hull(sliver).error().code, ErrorCode::degenerate_shape);
    EXPECT_TRUE(compute_hull(sliver, real(1e-6)));
}

TEST(ComputeHull, RejectsCollinearAndTooFewPoints) {
    const std::vector<Vec2> collinear{{0, 1}, {1, 2}, {2, 3}, {-5, -4}};
    auto line = compute_hull(collinear);
    ASSERT_FALSE(line);
    EXPECT_EQ(line.error().code, ErrorCode::degenerate_shape);
    const std::vector<Vec2> two{{0, 0}, {1, 0}, {1, 0}};
    EXPECT_EQ(compute_hull(two).error().code, ErrorCode::degenerate_shape);
}

TEST(ComputeHull, RejectsAWeldDistanceThatIsNegativeOrNotFinite) {
    const std::vector<Vec2> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (const real weld : {real(-1e-5), std::numeric_limits<real>::quiet_NaN(),
                            std::numeric_limits<real>::infinity()}) {
        EXPECT_EQ(compute_hull(square, weld).error().code, ErrorCode::invalid_input) << weld;
    }
    EXPECT_EQ(compute_hull(square, 0).value().size(), 4u);
}

TEST(ComputeHull, RejectsNonFinitePoints) {
    const std::vector<Vec2> points{
        {0, 0}, {1, 0}, {0, std::numeric_limits<real>::quiet_NaN()}, {0, 1}};
    auto hull = compute_hull(points);
    ASSERT_FALSE(hull);
    EXPECT_EQ(hull.error().code, ErrorCode::invalid_input);
}

} // namespace
} // namespace sweep
