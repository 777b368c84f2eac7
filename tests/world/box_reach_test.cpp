// World::move's box reach test (src/box_reach.hpp) against overlaps(): the
// same verdict for boxes apart, overlapping, touching at a face or a corner
// (coordinates drawn from a few values, so that they often coincide),
// signed zeros and NaN.
#include "box_reach.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <random>

namespace sweep::detail {
namespace {

// A box whose coordinates are drawn from a few values (so that boxes often
// share an edge), signed zeros among them.
Aabb random_box(std::mt19937& rng) {
    const std::array<real, 7> values{-2, -1, -0.0f, 0, 0.5f, 1, 2};
    std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
    const real x0 = values[pick(rng)];
    const real x1 = values[pick(rng)];
    const real y0 = values[pick(rng)];
    const real y1 = values[pick(rng)];
    return Aabb{{std::min(x0, x1), std::min(y0, y1)}, {std::max(x0, x1), std::max(y0, y1)}};
}

TEST(BoxReach, AgreesWithOverlapsOnBoxesThatOftenTouch) {
    std::mt19937 rng(11);
    const auto box = [&] { return random_box(rng); };
    int met = 0;
    int touching = 0;
    for (int i = 0; i < 20000; ++i) {
        const Aabb a = box();
        const Aabb b = box();
        const bool meets = BoxReach(a).meets(b);
        ASSERT_EQ(meets, overlaps(a, b)) << i;
        met += meets;
        touching += meets && (a.upper.x == b.lower.x || a.upper.y == b.lower.y ||
                              b.upper.x == a.lower.x || b.upper.y == a.lower.y);
    }
    EXPECT_GT(met, 2000);
    EXPECT_GT(touching, 1000);
}

// The push-out's depth test: every gap along the axes below the limit, the
// gaps subtracted as written out.
TEST(BoxReach, GapsBelowAgreesWithTheGapsWrittenOut) {
    std::mt19937 rng(12);
    const std::array<real, 5> limits{-1, -0.5f, 0, 0.25f, 1};
    std::uniform_int_distribution<std::size_t> pick_limit(0, limits.size() - 1);
    const auto box = [&] { return random_box(rng); };
    int below = 0;
    for (int i = 0; i < 20000; ++i) {
        const Aabb a = box();
        const Aabb b = box();
        const real limit = limits[pick_limit(rng)];
        const real deepest = std::max(std::max(b.lower.x - a.upper.x, a.lower.x - b.upper.x),
                                      std::max(b.lower.y - a.upper.y, a.lower.y - b.upper.y));
        const bool gaps_below = BoxReach(a).gaps_below(b, limit);
        ASSERT_EQ(gaps_below, deepest < limit) << i;
        below += gaps_below;
    }
    EXPECT_GT(below, 2000);
}

TEST(BoxReach, EachSideApartIsSeen) {
    const Aabb a{{0, 0}, {1, 1}};
    const BoxReach reach(a);
    EXPECT_FALSE(reach.meets({{1.5f, 0}, {2, 1}}));   // right
    EXPECT_FALSE(reach.meets({{0, 1.5f}, {1, 2}}));   // above
    EXPECT_FALSE(reach.meets({{-2, 0}, {-0.5f, 1}})); // left
    EXPECT_FALSE(reach.meets({{0, -2}, {1, -0.5f}})); // below
    EXPECT_TRUE(reach.meets({{1, 1}, {2, 2}}));       // a corner touching
    EXPECT_TRUE(reach.meets({{0.2f, 0.2f}, {0.4f, 0.4f}}));
}

TEST(BoxReach, NaNMeetsAsOverlapsSays) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const Aabb a{{0, 0}, {1, 1}};
    const Aabb b{{nan, 0}, {nan, 1}};
    EXPECT_EQ(BoxReach(a).meets(b), overlaps(a, b));
    EXPECT_EQ(BoxReach(b).meets(a), overlaps(b, a));
}

} // namespace
} // namespace sweep::detail
