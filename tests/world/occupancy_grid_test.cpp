// The moving shapes' occupancy (src/occupancy_grid.hpp): `others` may say
// several where there are fewer, or name boxes that lie apart, never fewer
// than overlap the query.
#include "occupancy_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace sweep::detail {
namespace {

Aabb box_at(Vec2 lower, real width, real height) { return {lower, lower + Vec2{width, height}}; }

using Kind = OccupancyGrid::Others::Kind;

// Whether no box but `own` (id 0) can overlap `query`.
bool alone(const OccupancyGrid& grid, const Aabb& query, const Aabb& own) {
    return grid.others(query, own, 0).kind == Kind::none;
}

TEST(OccupancyGrid, ABoxAloneIsAloneUntilAnotherComesNear) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({10.2f, 10.2f}, 2, 2);
    const Aabb query = box_at({10.5f, 10.5f}, 1.5f, 1.5f);
    grid.add(own, 0);
    EXPECT_TRUE(alone(grid, query, own));
    // Touching the query box's corner (touching counts, as in overlaps()).
    const Aabb other = box_at({12, 12}, 1, 1);
    grid.add(other, 1);
    EXPECT_FALSE(alone(grid, query, own));
    grid.remove(other, 1);
    EXPECT_TRUE(alone(grid, query, own));
    // Two cells away: apart from every cell the query meets.
    grid.add(box_at({14.5f, 10.5f}, 1, 1), 2);
    EXPECT_TRUE(alone(grid, query, own));
}

TEST(OccupancyGrid, NegativeCoordinatesFloorToTheirCells) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({-1.8f, -1.8f}, 0.5f, 0.5f); // cell (-2, -2)
    const Aabb query = box_at({-1.9f, -1.9f}, 0.8f, 0.8f);
    grid.add(own, 0);
    EXPECT_TRUE(alone(grid, query, own));
    const Aabb beside = box_at({-0.9f, -1.5f}, 0.5f, 0.5f); // cell (-1, -2): apart
    grid.add(beside, 1);
    EXPECT_TRUE(alone(grid, query, own));
    const Aabb touching = box_at({-1.1f, -1.5f}, 0.5f, 0.5f); // reaches into cell (-2, -2)
    grid.add(touching, 2);
    EXPECT_FALSE(alone(grid, query, own));
}

TEST(OccupancyGrid, CellsATableSideApartShareASlotAndSayNotAlone) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({0.25f, 0.25f}, 0.5f, 0.5f);
    grid.add(own, 0);
    const real side = OccupancyGrid::k_side;
    const Aabb far = box_at({side + 0.25f, 0.25f}, 0.5f, 0.5f);
    grid.add(far, 1);
    EXPECT_FALSE(alone(grid, box_at({0.1f, 0.1f}, 0.8f, 0.8f), own)); // conservative
    grid.remove(far, 1);
    EXPECT_TRUE(alone(grid, box_at({0.1f, 0.1f}, 0.8f, 0.8f), own));
    // A box wider than the table counts once in every slot, and its removal
    // takes that back.
    const Aabb huge = box_at({-3 * side, 0.5f}, 7 * side, 0.2f);
    grid.add(huge, 2);
    EXPECT_FALSE(alone(grid, box_at({0.1f, 0.1f}, 0.8f, 0.8f), own));
    grid.remove(huge, 2);
    EXPECT_TRUE(alone(grid, box_at({0.1f, 0.1f}, 0.8f, 0.8f), own));
    // A query wider than the table meets its own cells again.
    EXPECT_FALSE(alone(grid, box_at({-side, 0}, 2 * side, 1), own));
}

// The ids `others` names, sorted; none unless it names some.
std::vector<std::int32_t> named(const OccupancyGrid::Others& others) {
    std::vector<std::int32_t> ids;
    if (others.kind == Kind::named) {
        ids.assign(others.ids.begin(), others.ids.begin() + others.count);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

TEST(OccupancyGrid, NamesOneOrTwoOthersACellAndSaysSeveralForThree) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({10.2f, 10.2f}, 2, 2);
    const Aabb query = box_at({10.5f, 10.5f}, 3, 1.5f);
    grid.add(own, 7);
    grid.add(box_at({12.8f, 10.8f}, 1, 1), 41); // shares cells with `own`
    EXPECT_EQ(named(grid.others(query, own, 7)), (std::vector<std::int32_t>{41}));
    // A second box in another cell of the query, then in the same one.
    const Aabb second = box_at({10.3f, 11.9f}, 0.5f, 0.5f);
    grid.add(second, 3);
    EXPECT_EQ(named(grid.others(query, own, 7)), (std::vector<std::int32_t>{3, 41}));
    grid.remove(second, 3);
    EXPECT_EQ(named(grid.others(query, own, 7)), (std::vector<std::int32_t>{41}));
    const Aabb beside = box_at({12.9f, 10.9f}, 0.5f, 0.5f);
    grid.add(beside, 3);
    EXPECT_EQ(named(grid.others(query, own, 7)), (std::vector<std::int32_t>{3, 41}));
    // A third in that cell: its sums no longer tell which.
    grid.add(box_at({12.7f, 10.7f}, 0.5f, 0.5f), 5);
    EXPECT_EQ(grid.others(query, own, 7).kind, Kind::several);
}

// Two boxes a cell holds are named by its sums to the id, for ids from 0
// to the largest an int32 holds (where the sums wrap).
TEST(OccupancyGrid, NamesTwoBoxesOfACellWhateverTheirIds) {
    const std::int32_t top = std::numeric_limits<std::int32_t>::max();
    const std::vector<std::pair<std::int32_t, std::int32_t>> pairs{
        {0, 1}, {0, top}, {top - 1, top}, {1, 2}, {123456789, 987654321}, {65536, 65537}};
    for (const auto& [a, b] : pairs) {
        OccupancyGrid grid(1);
        const Aabb own = box_at({0.1f, 0.1f}, 0.2f, 0.2f);
        grid.add(own, 5);
        grid.add(box_at({0.4f, 0.4f}, 0.2f, 0.2f), a);
        grid.add(box_at({0.5f, 0.6f}, 0.2f, 0.2f), b);
        const std::vector<std::int32_t> expected{std::min(a, b), std::max(a, b)};
        EXPECT_EQ(named(grid.others(box_at({0, 0}, 0.9f, 0.9f), own, 5)), expected)
            << a << ", " << b;
    }
}

// A slot whose sums no two ids give (a box taken away under another id
// than it was counted with, against remove's precondition) says several
// rather than naming ids nothing was counted with.
TEST(OccupancyGrid, SumsNoTwoIdsGiveSaySeveral) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({0.1f, 0.1f}, 0.2f, 0.2f);
    grid.add(own, 0);
    const Aabb third = box_at({0.6f, 0.1f}, 0.2f, 0.2f);
    grid.add(box_at({0.4f, 0.4f}, 0.2f, 0.2f), 1);
    grid.add(box_at({0.5f, 0.6f}, 0.2f, 0.2f), 2);
    grid.add(third, 3);
    grid.remove(third, 2000000000);
    EXPECT_EQ(grid.others(box_at({0, 0}, 0.9f, 0.9f), own, 0).kind, Kind::several);
}

// More than k_max_named others, one or two a cell: several.
TEST(OccupancyGrid, SaysSeveralForMoreOthersThanItNames) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({0.5f, 0.5f}, 5, 0.2f);
    grid.add(own, 0);
    const Aabb query = box_at({0.2f, 0.2f}, 5.6f, 0.6f);
    for (int i = 1; i <= OccupancyGrid::k_max_named; ++i) {
        grid.add(box_at({static_cast<real>(i) + 0.3f, 0.3f}, 0.2f, 0.2f), i);
    }
    EXPECT_EQ(named(grid.others(query, own, 0)).size(),
              static_cast<std::size_t>(OccupancyGrid::k_max_named));
    grid.add(box_at({0.6f, 0.6f}, 0.2f, 0.2f), 99);
    EXPECT_EQ(grid.others(query, own, 0).kind, Kind::several);
}

// Random boxes against brute force: `others` never says fewer than overlap
// the query, and names every one that does; with cells of half a box or so
// it says none for most queries that are alone.
TEST(OccupancyGrid, NeverFewerOthersThanOverlap) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<real> where(-60, 60);
    std::uniform_real_distribution<real> size(0.1f, 4);
    OccupancyGrid grid(2);
    std::vector<Aabb> boxes;
    for (int i = 0; i < 200; ++i) {
        boxes.push_back(box_at({where(rng), where(rng)}, size(rng), size(rng)));
        grid.add(boxes.back(), i);
    }
    // Some come and go, as moving shapes' fat boxes do.
    for (int i = 0; i < 100; ++i) {
        grid.remove(boxes[static_cast<std::size_t>(i)], i);
        boxes[static_cast<std::size_t>(i)] = box_at({where(rng), where(rng)}, size(rng), size(rng));
        grid.add(boxes[static_cast<std::size_t>(i)], i);
    }
    int said_alone = 0;
    int truly_alone = 0;
    int named_some = 0;
    const auto check = [&](const Aabb& query, std::size_t own) {
        std::vector<int> met;
        for (std::size_t other = 0; other < boxes.size(); ++other) {
            if (other != own && overlaps(query, boxes[other])) {
                met.push_back(static_cast<int>(other));
            }
        }
        const OccupancyGrid::Others said =
            grid.others(query, boxes[own], static_cast<std::int32_t>(own));
        if (said.kind == Kind::none) {
            EXPECT_TRUE(met.empty()) << "box " << own;
        } else if (said.kind == Kind::named) {
            const std::vector<std::int32_t> ids = sweep::detail::named(said);
            for (const int m : met) {
                EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), m))
                    << "box " << own << " meets " << m;
            }
            named_some += !met.empty();
        }
        said_alone += said.kind == Kind::none;
        truly_alone += met.empty();
    };
    std::uniform_real_distribution<real> share(0, 1);
    for (std::size_t own = 0; own < boxes.size(); ++own) {
        // A query around the own box, and one within it (a mover's query
        // within its fat box).
        check(inflate(boxes[own], size(rng)), own);
        const Aabb& b = boxes[own];
        const Vec2 corner{b.lower.x + share(rng) * (b.upper.x - b.lower.x),
                          b.lower.y + share(rng) * (b.upper.y - b.lower.y)};
        check({min(b.lower, corner), max(b.lower, corner)}, own);
    }
    EXPECT_GT(truly_alone, 100);
    EXPECT_GT(said_alone, truly_alone / 3);
    EXPECT_GT(named_some, 10);
}

} // namespace
} // namespace sweep::detail
