// merge_solid_cells: the rectangles must cover exactly the solid cells, never
// overlap, and be what the greedy row scan produces. The checks below state
// the greedy rule from the outside (scan order of the top-left corners, and
// why each rectangle could not grow) instead of re-running the algorithm.
#include <property.hpp>

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using sweep::io::merge_solid_cells;
using sweep::io::TileGrid;
using sweep::io::TileRect;

TileGrid grid_from_rows(const std::vector<std::string>& rows, int min_x = 0, int min_y = 0) {
    TileGrid grid;
    grid.min_x = min_x;
    grid.min_y = min_y;
    grid.height = static_cast<int>(rows.size());
    grid.width = rows.empty() ? 0 : static_cast<int>(rows[0].size());
    for (const std::string& row : rows) {
        for (char c : row) {
            grid.solid.push_back(c == '#' ? 1 : 0);
        }
    }
    return grid;
}

/// For each cell, the index of the rectangle that covers it, or -1; counts
/// overlaps and rectangles that reach outside the grid.
struct Ownership {
    std::vector<int> owner;
    int overlaps = 0;
    int outside = 0;
};

Ownership ownership(const TileGrid& grid, const std::vector<TileRect>& rects) {
    Ownership o{std::vector<int>(grid.solid.size(), -1), 0, 0};
    for (std::size_t i = 0; i < rects.size(); ++i) {
        const TileRect& r = rects[i];
        for (int y = r.y; y < r.y + r.h; ++y) {
            for (int x = r.x; x < r.x + r.w; ++x) {
                const int lx = x - grid.min_x;
                const int ly = y - grid.min_y;
                if (lx < 0 || ly < 0 || lx >= grid.width || ly >= grid.height) {
                    ++o.outside;
                    continue;
                }
                int& cell = o.owner[std::size_t(ly * grid.width + lx)];
                o.overlaps += cell != -1;
                cell = static_cast<int>(i);
            }
        }
    }
    return o;
}

/// Checks every property of a greedy merge of `grid` into `rects`.
void expect_greedy_cover(const TileGrid& grid, const std::vector<TileRect>& rects) {
    const Ownership o = ownership(grid, rects);
    EXPECT_EQ(o.overlaps, 0);
    EXPECT_EQ(o.outside, 0);
    const auto owner_at = [&](int lx, int ly) {
        if (lx < 0 || ly < 0 || lx >= grid.width || ly >= grid.height) {
            return -2; // outside
        }
        return o.owner[std::size_t(ly * grid.width + lx)];
    };
    for (int ly = 0; ly < grid.height; ++ly) {
        for (int lx = 0; lx < grid.width; ++lx) {
            const bool solid = grid.solid[std::size_t(ly * grid.width + lx)] != 0;
            ASSERT_EQ(solid, owner_at(lx, ly) >= 0) << "cell " << lx << "," << ly;
        }
    }
    // "Blocked" for rectangle i: empty, outside, or taken by an earlier one.
    const auto blocked = [&](int lx, int ly, int i) {
        const int owner = owner_at(lx, ly);
        return owner < 0 || owner < i;
    };
    for (std::size_t k = 0; k < rects.size(); ++k) {
        const int i = static_cast<int>(k);
        const TileRect& r = rects[k];
        const int lx = r.x - grid.min_x;
        const int ly = r.y - grid.min_y;
        ASSERT_GE(r.w, 1);
        ASSERT_GE(r.h, 1);
        if (k > 0) { // top-left corners in row-major scan order
            const TileRect& p = rects[k - 1];
            EXPECT_TRUE(p.y < r.y || (p.y == r.y && p.x < r.x)) << "rect " << k;
        }
        // The run could not go further right at its first row...
        EXPECT_TRUE(blocked(lx + r.w, ly, i)) << "rect " << k << " not maximal to the right";
        // ...nor could it start further left...
        EXPECT_TRUE(blocked(lx - 1, ly, i)) << "rect " << k << " not maximal to the left";
        // ...and the row below its span was not entirely free.
        bool below_blocked = false;
        for (int x = lx; x < lx + r.w; ++x) {
            below_blocked = below_blocked || blocked(x, ly + r.h, i);
        }
        EXPECT_TRUE(below_blocked) << "rect " << k << " not maximal downwards";
    }
}

TEST(MergeSolidCells, LShapeGivesTwoRectangles) {
    const TileGrid grid = grid_from_rows({
        "#..",
        "#..",
        "###",
    });
    const auto rects = merge_solid_cells(grid);
    EXPECT_EQ(rects, (std::vector<TileRect>{{0, 0, 1, 3}, {1, 2, 2, 1}}));
    expect_greedy_cover(grid, rects);
}

TEST(MergeSolidCells, FullBlockIsOneRectangleInAbsoluteTileCoordinates) {
    const TileGrid grid = grid_from_rows({"####", "####"}, -16, 5);
    EXPECT_EQ(merge_solid_cells(grid), (std::vector<TileRect>{{-16, 5, 4, 2}}));
}

TEST(MergeSolidCells, WallWithADoorLeavesNoSeamAboveTheDoor) {
    const TileGrid grid = grid_from_rows({
        "#####",
        "##.##",
    });
    const auto rects = merge_solid_cells(grid);
    EXPECT_EQ(rects, (std::vector<TileRect>{{0, 0, 5, 1}, {0, 1, 2, 1}, {3, 1, 2, 1}}));
    expect_greedy_cover(grid, rects);
}

TEST(MergeSolidCells, EmptyAndDegenerateGridsGiveNothing) {
    EXPECT_TRUE(merge_solid_cells(TileGrid{}).empty());
    EXPECT_TRUE(merge_solid_cells(grid_from_rows({"...", "..."})).empty());
    TileGrid short_data = grid_from_rows({"##", "##"});
    short_data.solid.pop_back(); // inconsistent sizes must not read out of bounds
    EXPECT_TRUE(merge_solid_cells(short_data).empty());
}

TEST(MergeSolidCells, RandomGridsAreCoveredExactlyOnceByGreedyRectangles) {
    std::mt19937 rng(20240611u);
    const int cases = sweep::test::property_cases(500);
    for (int c = 0; c < cases; ++c) {
        std::uniform_int_distribution<int> size(1, 24);
        std::uniform_int_distribution<int> origin(-40, 40);
        // Densities from sparse to nearly full, where merging matters most.
        const double density = std::uniform_real_distribution<double>(0.05, 0.95)(rng);
        std::bernoulli_distribution solid(density);
        TileGrid grid;
        grid.min_x = origin(rng);
        grid.min_y = origin(rng);
        grid.width = size(rng);
        grid.height = size(rng);
        for (int k = 0; k < grid.width * grid.height; ++k) {
            grid.solid.push_back(solid(rng) ? 1 : 0);
        }
        SCOPED_TRACE("case " + std::to_string(c));
        expect_greedy_cover(grid, merge_solid_cells(grid));
        if (testing::Test::HasFatalFailure()) {
            return;
        }
    }
}

} // namespace
