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
#include <vector>

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

// BoxLanes: for every count up to its capacity (whole and partial groups
// of four lanes), the set of boxes meeting a box is overlaps()'s, box by
// box, NaN included, and nothing beyond the count is set.
TEST(BoxLanes, MeetingAgreesWithOverlapsForEveryCount) {
    std::mt19937 rng(13);
    const real nan = std::numeric_limits<real>::quiet_NaN();
    int met = 0;
    for (int round = 0; round < 400; ++round) {
        const std::size_t count = static_cast<std::size_t>(round) % (BoxLanes::k_capacity + 1);
        std::vector<Aabb> boxes;
        BoxLanes lanes;
        for (std::size_t i = 0; i < count; ++i) {
            Aabb b = random_box(rng);
            if (round % 50 == 7 && i == 0) {
                b.lower.x = nan;
            }
            boxes.push_back(b);
            ASSERT_TRUE(lanes.push_back(b));
        }
        ASSERT_EQ(lanes.size(), count);
        const Aabb a = random_box(rng);
        const std::uint32_t bits = lanes.meeting(a);
        for (std::size_t i = 0; i < BoxLanes::k_capacity; ++i) {
            const bool set = (bits >> i & 1) != 0;
            ASSERT_EQ(set, i < count && overlaps(boxes[i], a)) << round << " " << i;
            met += set;
        }
    }
    EXPECT_GT(met, 1000);
}

TEST(BoxLanes, HoldsNoMoreThanItsCapacityAndEmptiesOnClear) {
    BoxLanes lanes;
    EXPECT_EQ(lanes.meeting({{0, 0}, {1, 1}}), 0u); // never filled: no rows made
    const Aabb box{{0, 0}, {1, 1}};
    for (std::size_t i = 0; i < BoxLanes::k_capacity; ++i) {
        ASSERT_TRUE(lanes.push_back(box));
    }
    EXPECT_FALSE(lanes.push_back(box));
    EXPECT_EQ(lanes.size(), BoxLanes::k_capacity);
    EXPECT_EQ(lanes.meeting(box), ~std::uint32_t{0});
    lanes.clear();
    EXPECT_EQ(lanes.size(), 0u);
    EXPECT_EQ(lanes.meeting(box), 0u);
}

TEST(BoxLanes, ForEachBitVisitsTheSetBitsLowestFirst) {
    std::vector<std::size_t> seen;
    for_each_bit(0x80000005u, [&](std::size_t i) { seen.push_back(i); });
    EXPECT_EQ(seen, (std::vector<std::size_t>{0, 2, 31}));
}

} // namespace
} // namespace sweep::detail
