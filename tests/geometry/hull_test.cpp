// Convex hull by monotone chain, hand-derived cases (hull.hpp).
#include "sweep/hull.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
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

TEST(ComputeHull, RejectsCollinearAndTooFewPoints) {
    const std::vector<Vec2> collinear{{0, 1}, {1, 2}, {2, 3}, {-5, -4}};
    auto line = compute_hull(collinear);
    ASSERT_FALSE(line);
    EXPECT_EQ(line.error().code, ErrorCode::degenerate_shape);
    const std::vector<Vec2> two{{0, 0}, {1, 0}, {1, 0}};
    EXPECT_EQ(compute_hull(two).error().code, ErrorCode::degenerate_shape);
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
