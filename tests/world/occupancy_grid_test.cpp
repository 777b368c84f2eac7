// The moving shapes' occupancy (src/occupancy_grid.hpp): `alone` may say no
// when a box is alone, never yes when another box overlaps it.
#include "occupancy_grid.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace sweep::detail {
namespace {

Aabb box_at(Vec2 lower, real width, real height) { return {lower, lower + Vec2{width, height}}; }

TEST(OccupancyGrid, ABoxAloneIsAloneUntilAnotherComesNear) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({10.2f, 10.2f}, 2, 2);
    const Aabb query = box_at({10.5f, 10.5f}, 1.5f, 1.5f);
    grid.add(own);
    EXPECT_TRUE(grid.alone(query, own));
    // Touching the query box's corner (touching counts, as in overlaps()).
    const Aabb other = box_at({12, 12}, 1, 1);
    grid.add(other);
    EXPECT_FALSE(grid.alone(query, own));
    grid.remove(other);
    EXPECT_TRUE(grid.alone(query, own));
    // Two cells away: apart from every cell the query meets.
    grid.add(box_at({14.5f, 10.5f}, 1, 1));
    EXPECT_TRUE(grid.alone(query, own));
}

TEST(OccupancyGrid, NegativeCoordinatesFloorToTheirCells) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({-1.8f, -1.8f}, 0.5f, 0.5f); // cell (-2, -2)
    const Aabb query = box_at({-1.9f, -1.9f}, 0.8f, 0.8f);
    grid.add(own);
    EXPECT_TRUE(grid.alone(query, own));
    const Aabb beside = box_at({-0.9f, -1.5f}, 0.5f, 0.5f); // cell (-1, -2): apart
    grid.add(beside);
    EXPECT_TRUE(grid.alone(query, own));
    const Aabb touching = box_at({-1.1f, -1.5f}, 0.5f, 0.5f); // reaches into cell (-2, -2)
    grid.add(touching);
    EXPECT_FALSE(grid.alone(query, own));
}

TEST(OccupancyGrid, CellsATableSideApartShareASlotAndSayNotAlone) {
    OccupancyGrid grid(1);
    const Aabb own = box_at({0.25f, 0.25f}, 0.5f, 0.5f);
    grid.add(own);
    const real side = OccupancyGrid::k_side;
    const Aabb far = box_at({side + 0.25f, 0.25f}, 0.5f, 0.5f);
    grid.add(far);
    EXPECT_FALSE(grid.alone(box_at({0.1f, 0.1f}, 0.8f, 0.8f), own)); // conservative
    grid.remove(far);
    EXPECT_TRUE(grid.alone(box_at({0.1f, 0.1f}, 0.8f, 0.8f), own));
    // A box wider than the table counts once in every slot, and its removal
    // takes that back.
    const Aabb huge = box_at({-3 * side, 0.5f}, 7 * side, 0.2f);
    grid.add(huge);
    EXPECT_FALSE(grid.alone(box_at({0.1f, 0.1f}, 0.8f, 0.8f), own));
    grid.remove(huge);
    EXPECT_TRUE(grid.alone(box_at({0.1f, 0.1f}, 0.8f, 0.8f), own));
    // A query wider than the table meets its own cells again.
    EXPECT_FALSE(grid.alone(box_at({-side, 0}, 2 * side, 1), own));
}

// Random boxes against brute force: whenever a box other than `own`
// overlaps the query, `alone` says no; with cells of half a box or so it
// says yes for most queries that are alone.
TEST(OccupancyGrid, NeverAloneWhenAnotherBoxOverlaps) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<real> where(-60, 60);
    std::uniform_real_distribution<real> size(0.1f, 4);
    OccupancyGrid grid(2);
    std::vector<Aabb> boxes;
    for (int i = 0; i < 200; ++i) {
        boxes.push_back(box_at({where(rng), where(rng)}, size(rng), size(rng)));
        grid.add(boxes.back());
    }
    // Some come and go, as moving shapes' fat boxes do.
    for (int i = 0; i < 100; ++i) {
        grid.remove(boxes[static_cast<std::size_t>(i)]);
        boxes[static_cast<std::size_t>(i)] = box_at({where(rng), where(rng)}, size(rng), size(rng));
        grid.add(boxes[static_cast<std::size_t>(i)]);
    }
    int alone = 0;
    int truly_alone = 0;
    for (std::size_t own = 0; own < boxes.size(); ++own) {
        const Aabb query = inflate(boxes[own], size(rng));
        bool met = false;
        for (std::size_t other = 0; other < boxes.size(); ++other) {
            met = met || (other != own && overlaps(query, boxes[other]));
        }
        const bool said = grid.alone(query, boxes[own]);
        EXPECT_FALSE(said && met) << "box " << own;
        alone += said;
        truly_alone += !met;
    }
    EXPECT_GT(truly_alone, 50);
    EXPECT_GT(alone, truly_alone / 3);
}

} // namespace
} // namespace sweep::detail
