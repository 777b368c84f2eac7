// The chain convention of docs/conventions.md: a counter-clockwise loop
// encloses solid ground and its segments collide only on the outside.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "sweep/manifold.hpp"
#include "sweep/shapes.hpp"

namespace sweep {
namespace {

// A 4 x 1 block of ground, counter-clockwise: bottom, right, top, left.
const std::array<Vec2, 4> k_ground{{{0, 0}, {4, 0}, {4, 1}, {0, 1}}};

TEST(Chain, CounterClockwiseLoopNormalsPointAwayFromTheSolid) {
    const auto chain = make_chain_loop(k_ground).value();
    ASSERT_EQ(chain.size(), 4u);
    const Vec2 inside{2, 0.5f};
    // Hand values: right_perp of each edge direction.
    const std::array<Vec2, 4> expected{{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}};
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const Vec2 n = outward_normal(chain[i]);
        EXPECT_NEAR(n.x, expected[i].x, 1e-6f);
        EXPECT_NEAR(n.y, expected[i].y, 1e-6f);
        const Vec2 mid = lerp(chain[i].segment.p1, chain[i].segment.p2, 0.5f);
        EXPECT_GT(dot(n, mid - inside), 0) << "segment " << i;
    }
}

TEST(Chain, GhostVerticesAreTheNeighbouringPoints) {
    const auto chain = make_chain_loop(k_ground).value();
    // Segment 2 runs (4,1) -> (0,1); before it comes (4,0), after it (0,0).
    EXPECT_EQ(chain[2].ghost1, (Vec2{4, 0}));
    EXPECT_EQ(chain[2].ghost2, (Vec2{0, 0}));
    EXPECT_EQ(chain[0].ghost1, (Vec2{0, 1}));
}

TEST(Chain, RejectsDegenerateLoops) {
    const std::array<Vec2, 2> two{{{0, 0}, {1, 0}}};
    EXPECT_EQ(make_chain_loop(two).error().code, ErrorCode::degenerate_shape);
    const std::array<Vec2, 3> repeated{{{0, 0}, {0, 0}, {1, 1}}};
    EXPECT_EQ(make_chain_loop(repeated).error().code, ErrorCode::degenerate_shape);
    const std::array<Vec2, 3> nan{{{0, 0}, {std::nanf(""), 0}, {1, 1}}};
    EXPECT_EQ(make_chain_loop(nan).error().code, ErrorCode::invalid_input);
}

TEST(Chain, CircleOnTopOfGroundTouchesTheTopSegment) {
    const auto chain = make_chain_loop(k_ground).value();
    // Circle of radius 0.5 centred at (2, 1.4): 0.1 below contact -> -0.1.
    const Manifold m =
        collide(Shape(chain[2]), k_identity, Shape(Circle{{2, 1.4f}, 0.5f}), k_identity);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.normal.y, 1, 1e-6f);
    EXPECT_NEAR(m.points[0].separation, -0.1f, 1e-5f);
}

TEST(Chain, ShapesInsideTheSolidGetNoContactFromTheOneSidedSegment) {
    const auto chain = make_chain_loop(k_ground).value();
    // The circle's centre is inside the ground, below the top segment: the
    // top segment's contact would push it down into the solid, so none.
    const Manifold m =
        collide(Shape(chain[2]), k_identity, Shape(Circle{{2, 0.7f}, 0.5f}), k_identity);
    EXPECT_EQ(m.count, 0);
    // Argument order does not matter.
    EXPECT_EQ(
        collide(Shape(Circle{{2, 0.7f}, 0.5f}), k_identity, Shape(chain[2]), k_identity).count, 0);
}

TEST(Chain, TwoSidedSegmentCollidesFromBothSides) {
    const Segment wall = make_segment({0, 0}, {4, 0}).value();
    const Manifold above =
        collide(Shape(wall), k_identity, Shape(Circle{{2, 0.4f}, 0.5f}), k_identity);
    const Manifold below =
        collide(Shape(wall), k_identity, Shape(Circle{{2, -0.4f}, 0.5f}), k_identity);
    ASSERT_EQ(above.count, 1);
    ASSERT_EQ(below.count, 1);
    EXPECT_NEAR(above.normal.y, 1, 1e-6f);
    EXPECT_NEAR(below.normal.y, -1, 1e-6f);
    EXPECT_NEAR(below.points[0].separation, -0.1f, 1e-5f);
}

TEST(Chain, BoxRestingOnTopSegmentHasTwoPoints) {
    const auto chain = make_chain_loop(k_ground).value();
    const Polygon box = make_box(0.5f, 0.5f).value();
    // Box bottom at y = 1 - 0.002: both bottom corners 0.002 deep.
    const Transform xf{{2, 1.498f}, {}};
    const Manifold m = collide(Shape(chain[2]), k_identity, Shape(box), xf);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(m.normal.y, 1, 1e-6f);
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(m.points[i].separation, -0.002f, 1e-5f);
        EXPECT_NEAR(std::abs(m.points[i].point.x - 2), 0.5f, 1e-5f);
    }
}

} // namespace
} // namespace sweep
