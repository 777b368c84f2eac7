// The tunneling referee: hand cases on small maps, then properties against
// brute force written here independently (a loop over every box, and a BFS on
// a finer raster).
#include "sweep/check/tunneling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "property.hpp"

namespace {

using sweep::Aabb;
using sweep::ErrorCode;
using sweep::real;
using sweep::Vec2;
using sweep::check::TunnelingChecker;
using Verdict = TunnelingChecker::Verdict;

Aabb box(real x0, real y0, real x1, real y1) { return {{x0, y0}, {x1, y1}}; }

const Aabb k_room_bounds = box(0, 0, 20, 10);

/// Two 8x8 rooms inside a one-unit border wall, split by a wall two units
/// thick at x in [9, 11]; with a door, the wall leaves y in [4, 6] open.
std::vector<Aabb> two_rooms(bool with_door) {
    std::vector<Aabb> boxes = {box(0, 0, 20, 1), box(0, 9, 20, 10), box(0, 1, 1, 9),
                               box(19, 1, 20, 9)};
    if (with_door) {
        boxes.push_back(box(9, 1, 11, 4));
        boxes.push_back(box(9, 6, 11, 9));
    } else {
        boxes.push_back(box(9, 1, 11, 9));
    }
    return boxes;
}

TEST(TunnelingChecker, WallSplitsRoomIntoTwoRegions) {
    const auto boxes = two_rooms(false);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->region_count(), 3); // outside, left room, right room
    const int left = checker->region_of({5, 5});
    const int right = checker->region_of({15, 5});
    EXPECT_GT(left, 0);
    EXPECT_GT(right, 0);
    EXPECT_NE(left, right);
}

TEST(TunnelingChecker, CrossingTheWallInOneStepChangesRegion) {
    const auto boxes = two_rooms(false);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->check_step({5, 5}, {15, 5}), Verdict::changed_region);
    EXPECT_EQ(checker->check_step({15, 5}, {8.9f, 2}), Verdict::changed_region);
}

TEST(TunnelingChecker, MovingWithinARoomIsOk) {
    const auto boxes = two_rooms(false);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->check_step({2, 2}, {8, 8}), Verdict::ok);
    EXPECT_EQ(checker->check_step({12, 8}, {18, 2}), Verdict::ok);
    EXPECT_EQ(checker->check_step({5, 5}, {5, 5}), Verdict::ok);
}

TEST(TunnelingChecker, EndingInsideTheWallIsEndedInSolid) {
    const auto boxes = two_rooms(false);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_TRUE(checker->inside_solid({10, 5}));
    EXPECT_EQ(checker->region_of({10, 5}), -1);
    EXPECT_EQ(checker->check_step({5, 5}, {10, 5}), Verdict::ended_in_solid);
    EXPECT_EQ(checker->check_step({5, 5}, {9.001f, 5}), Verdict::ended_in_solid);
    EXPECT_EQ(checker->check_step({5, 5}, {5, 0.5f}), Verdict::ended_in_solid);
}

TEST(TunnelingChecker, TouchingTheWallSurfaceIsNotInside) {
    const auto boxes = two_rooms(false);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_FALSE(checker->inside_solid({9, 5}));
    EXPECT_FALSE(checker->inside_solid({5, 1}));
    EXPECT_FALSE(checker->inside_solid({9, 9})); // concave corner of the room
    EXPECT_EQ(checker->region_of({9, 5}), checker->region_of({5, 5}));
    EXPECT_EQ(checker->region_of({11, 5}), checker->region_of({15, 5}));
    EXPECT_EQ(checker->check_step({5, 5}, {9, 5}), Verdict::ok);
    EXPECT_EQ(checker->check_step({5, 5}, {9, 1}), Verdict::ok);
}

TEST(TunnelingChecker, SeamBetweenAdjacentBoxesIsSolid) {
    const std::vector<Aabb> tiles = {box(0, 0, 1, 1), box(1, 0, 2, 1)};
    auto checker = TunnelingChecker::make(tiles, box(-1, -1, 3, 2), real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_TRUE(checker->inside_solid({1, 0.5f}));
    EXPECT_TRUE(checker->inside_solid({0.5f, 0.5f}));
    EXPECT_FALSE(checker->inside_solid({1, 1}));
    EXPECT_FALSE(checker->inside_solid({1, 0}));
    EXPECT_FALSE(checker->inside_solid({2, 0.5f}));
    EXPECT_FALSE(checker->inside_solid({0, 0}));
}

TEST(TunnelingChecker, CorridorJoinsTwoRoomsIntoOneRegion) {
    const auto boxes = two_rooms(true);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->region_count(), 2); // outside, and the joined rooms
    EXPECT_EQ(checker->region_of({5, 5}), checker->region_of({15, 5}));
    EXPECT_EQ(checker->region_of({10, 5}), checker->region_of({5, 5}));
    EXPECT_EQ(checker->check_step({5, 8}, {15, 2}), Verdict::ok);
}

TEST(TunnelingChecker, PointsOutsideBoundsAreTheOutsideRegion) {
    const auto boxes = two_rooms(false);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->region_of({-5, 5}), 0);
    EXPECT_EQ(checker->region_of({25, -3}), 0);
    EXPECT_EQ(checker->region_of({1e30f, -1e30f}), 0);
    EXPECT_EQ(checker->check_step({-5, 5}, {30, 40}), Verdict::ok);
    EXPECT_EQ(checker->check_step({-5, 5}, {5, 5}), Verdict::changed_region);
    EXPECT_EQ(checker->check_step({5, 5}, {-5, 5}), Verdict::changed_region);
}

TEST(TunnelingChecker, FreeBorderCellsJoinTheOutside) {
    // A wall across an open map: both halves reach the border, hence the outside.
    const std::vector<Aabb> wall = {box(4, 0, 6, 10)};
    auto checker = TunnelingChecker::make(wall, box(0, 0, 10, 10), real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->region_count(), 1);
    EXPECT_EQ(checker->region_of({2, 5}), 0);
    EXPECT_EQ(checker->region_of({8, 5}), 0);
    EXPECT_EQ(checker->check_step({-3, 5}, {2, 5}), Verdict::ok);
}

TEST(TunnelingChecker, BoxesBeyondBoundsAreStillSolid) {
    const std::vector<Aabb> floor = {box(-100, -5, 100, 0)};
    auto checker = TunnelingChecker::make(floor, box(0, -5, 10, 10), real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_TRUE(checker->inside_solid({-50, -1}));
    EXPECT_EQ(checker->region_of({-50, -1}), -1);
    EXPECT_EQ(checker->check_step({-50, 3}, {-50, -1}), Verdict::ended_in_solid);
}

TEST(TunnelingChecker, FreePointInSolidCellTakesTheNeighbouringRegion) {
    // The split wall's faces at x = 4.2 and 5.8 are not on cell edges, so the
    // cells [4, 4.5] and [5.5, 6] have solid centres but free slivers.
    const std::vector<Aabb> boxes = {box(0, 0, 10, 1), box(0, 4, 10, 5), box(0, 1, 1, 4),
                                     box(9, 1, 10, 4), box(4.2f, 1, 5.8f, 4)};
    auto checker = TunnelingChecker::make(boxes, box(0, 0, 10, 5), real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->region_count(), 3);
    EXPECT_FALSE(checker->inside_solid({4.1f, 2.5f}));
    EXPECT_EQ(checker->region_of({4.1f, 2.5f}), checker->region_of({2, 2.5f}));
    EXPECT_EQ(checker->region_of({5.9f, 2.5f}), checker->region_of({8, 2.5f}));
    EXPECT_EQ(checker->check_step({4.1f, 2.5f}, {5.9f, 2.5f}), Verdict::changed_region);
    EXPECT_EQ(checker->check_step({2, 2.5f}, {4.2f, 2.5f}), Verdict::ok);
}

TEST(TunnelingChecker, NonFiniteEndIsEndedInSolid) {
    const auto boxes = two_rooms(false);
    auto checker = TunnelingChecker::make(boxes, k_room_bounds, real(0.5));
    ASSERT_TRUE(checker) << checker.error().message;
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    EXPECT_FALSE(checker->inside_solid({nan, 5}));
    EXPECT_EQ(checker->region_of({5, nan}), -1);
    EXPECT_EQ(checker->check_step({5, 5}, {nan, 5}), Verdict::ended_in_solid);
    EXPECT_EQ(checker->check_step({5, 5}, {inf, 5}), Verdict::ended_in_solid);
}

TEST(TunnelingChecker, EmptyGeometryIsOneOutsideRegion) {
    auto checker = TunnelingChecker::make({}, box(0, 0, 4, 4), real(1));
    ASSERT_TRUE(checker) << checker.error().message;
    EXPECT_EQ(checker->region_count(), 1);
    EXPECT_FALSE(checker->inside_solid({2, 2}));
    EXPECT_EQ(checker->region_of({2, 2}), 0);
    EXPECT_EQ(checker->check_step({2, 2}, {-9, 9}), Verdict::ok);
}

TEST(TunnelingChecker, HugeCoordinatesFallBackToTestingEveryBox) {
    if constexpr (sizeof(real) < sizeof(double)) {
        GTEST_SKIP() << "only a double build has coordinates too large for a bucket grid";
    } else {
        // The boxes' extent overflows to infinity, so no bucket grid exists.
        const real huge = real(1e308);
        const std::vector<Aabb> boxes = {box(-huge, -huge, huge, 0), box(2, 2, 3, 3)};
        auto checker = TunnelingChecker::make(boxes, box(0, -1, 10, 10), real(0.5));
        ASSERT_TRUE(checker) << checker.error().message;
        EXPECT_TRUE(checker->inside_solid({real(-0.01) * huge, -5}));
        EXPECT_TRUE(checker->inside_solid({real(2.5), real(2.5)}));
        EXPECT_FALSE(checker->inside_solid({5, 5}));
        EXPECT_EQ(checker->check_step({5, 5}, {5, -0.5}), Verdict::ended_in_solid);
    }
}

TEST(TunnelingChecker, RejectsInvalidInput) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    const Aabb bounds = box(0, 0, 10, 10);
    auto code_of = [](const sweep::Result<TunnelingChecker>& r) {
        return r ? std::optional<ErrorCode>{} : std::optional<ErrorCode>{r.error().code};
    };
    const std::vector<Aabb> nan_box = {box(0, 0, nan, 1)};
    const std::vector<Aabb> inverted_box = {box(2, 0, 1, 1)};
    EXPECT_EQ(code_of(TunnelingChecker::make(nan_box, bounds, 1)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make(inverted_box, bounds, 1)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make({}, bounds, 0)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make({}, bounds, -1)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make({}, bounds, nan)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make({}, bounds, inf)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make({}, box(0, 0, 0, 10), 1)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make({}, box(0, 0, inf, 10), 1)), ErrorCode::invalid_input);
    EXPECT_EQ(code_of(TunnelingChecker::make({}, box(0, 0, 1e6f, 1e6f), real(0.01))),
              ErrorCode::limit_exceeded);
}

// ---- Properties against brute force -----------------------------------------

/// A uniform integer in [lo, hi] from mt19937's exactly specified stream.
int uniform(std::mt19937& rng, int lo, int hi) {
    return lo + int(rng() % std::uint32_t(hi - lo + 1));
}

bool strictly_inside_some_box(const std::vector<Aabb>& boxes, double x, double y) {
    for (const Aabb& b : boxes) {
        if (b.lower.x < x && x < b.upper.x && b.lower.y < y && y < b.upper.y) {
            return true;
        }
    }
    return false;
}

TEST(TunnelingCheckerProperty, InsideSolidMatchesBruteForceOverEveryBox) {
    // Boxes on the 1/4 lattice, points on the 1/8 lattice, so points often lie
    // on faces, corners and seams. With every box edge on the 1/4 lattice, p is
    // interior to the union exactly when the four points p + (+-1/16, +-1/16)
    // are each strictly inside some box.
    std::mt19937 rng(20240611);
    const int cases = sweep::test::property_cases(300);
    for (int c = 0; c < cases; ++c) {
        std::vector<Aabb> boxes;
        const int count = uniform(rng, 1, 40);
        for (int i = 0; i < count; ++i) {
            const bool huge = uniform(rng, 0, 9) == 0; // exercises the large-box list
            const real x0 = real(uniform(rng, -8, 72)) / 4;
            const real y0 = real(uniform(rng, -8, 72)) / 4;
            const real w = real(uniform(rng, huge ? 40 : 0, huge ? 80 : 16)) / 4;
            const real h = real(uniform(rng, huge ? 40 : 0, huge ? 80 : 16)) / 4;
            boxes.push_back(box(x0, y0, x0 + w, y0 + h));
        }
        auto checker = TunnelingChecker::make(boxes, box(0, 0, 16, 16), real(0.5));
        ASSERT_TRUE(checker) << checker.error().message;
        for (int k = 0; k < 300; ++k) {
            const real x = real(uniform(rng, -24, 200)) / 8;
            const real y = real(uniform(rng, -24, 200)) / 8;
            bool expected = true;
            for (const double dx : {-1.0 / 16, 1.0 / 16}) {
                for (const double dy : {-1.0 / 16, 1.0 / 16}) {
                    expected = expected && strictly_inside_some_box(boxes, x + dx, y + dy);
                }
            }
            ASSERT_EQ(checker->inside_solid({x, y}), expected)
                << "case " << c << " point (" << x << ", " << y << ")";
        }
    }
}

/// Labels 4-connected free cells of a raster of `n` x `n` cells of side
/// `cell` over [0, n * cell]^2 by breadth-first search; label 0 is the outside
/// and every free border cell belongs to it; solid cells are -1.
std::vector<int> brute_force_regions(const std::vector<Aabb>& boxes, int n, double cell) {
    std::vector<int> label(std::size_t(n * n), -2);
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            if (strictly_inside_some_box(boxes, (c + 0.5) * cell, (r + 0.5) * cell)) {
                label[std::size_t(r * n + c)] = -1;
            }
        }
    }
    std::vector<int> queue;
    auto bfs = [&](int start, int id) {
        queue.assign(1, start);
        label[std::size_t(start)] = id;
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const int c = queue[head] % n;
            const int r = queue[head] / n;
            const int next[4][2] = {{c - 1, r}, {c + 1, r}, {c, r - 1}, {c, r + 1}};
            for (const auto& [nc, nr] : next) {
                if (nc >= 0 && nr >= 0 && nc < n && nr < n &&
                    label[std::size_t(nr * n + nc)] == -2) {
                    label[std::size_t(nr * n + nc)] = id;
                    queue.push_back(nr * n + nc);
                }
            }
        }
    };
    for (int k = 0; k < n * n; ++k) {
        const int c = k % n;
        const int r = k / n;
        const bool border = c == 0 || r == 0 || c == n - 1 || r == n - 1;
        if (border && label[std::size_t(k)] == -2) {
            bfs(k, 0);
        }
    }
    int next_id = 1;
    for (int k = 0; k < n * n; ++k) {
        if (label[std::size_t(k)] == -2) {
            bfs(k, next_id++);
        }
    }
    return label;
}

TEST(TunnelingCheckerProperty, RegionsMatchBruteForceFloodOnAFinerGrid) {
    // Tile-aligned maps (tile 1 L, 16 x 16 tiles): the checker rasterises at
    // half a tile, the brute force at a quarter. Both must partition free
    // space the same way: equal labels exactly when the other's are equal.
    std::mt19937 rng(77);
    const int tiles = 16;
    const int fine = 4 * tiles;
    const int cases = sweep::test::property_cases(100);
    for (int c = 0; c < cases; ++c) {
        std::vector<Aabb> boxes;
        if (uniform(rng, 0, 1) == 0) { // a closed border wall
            boxes.push_back(box(0, 0, real(tiles), 1));
            boxes.push_back(box(0, real(tiles - 1), real(tiles), real(tiles)));
            boxes.push_back(box(0, 0, 1, real(tiles)));
            boxes.push_back(box(real(tiles - 1), 0, real(tiles), real(tiles)));
        }
        const int count = uniform(rng, 5, 60);
        for (int i = 0; i < count; ++i) {
            const int x0 = uniform(rng, -1, tiles - 1);
            const int y0 = uniform(rng, -1, tiles - 1);
            const int w = uniform(rng, 1, uniform(rng, 0, 3) == 0 ? 12 : 3);
            const int h = uniform(rng, 1, uniform(rng, 0, 3) == 0 ? 12 : 3);
            boxes.push_back(box(real(x0), real(y0), real(x0 + w), real(y0 + h)));
        }
        auto checker =
            TunnelingChecker::make(boxes, box(0, 0, real(tiles), real(tiles)), real(0.5));
        ASSERT_TRUE(checker) << checker.error().message;
        const std::vector<int> expected = brute_force_regions(boxes, fine, 0.25);

        std::map<int, int> to_expected;
        std::map<int, int> to_actual;
        int expected_count = 1;
        auto check_point = [&](Vec2 p, int want) {
            const int got = checker->region_of(p);
            ASSERT_EQ(got < 0, want < 0) << "case " << c << " at (" << p.x << ", " << p.y << ")";
            if (want < 0) {
                return;
            }
            expected_count = std::max(expected_count, want + 1);
            const auto [forward, new_forward] = to_expected.emplace(got, want);
            const auto [backward, new_backward] = to_actual.emplace(want, got);
            ASSERT_EQ(forward->second, want)
                << "case " << c << " at (" << p.x << ", " << p.y << ")";
            ASSERT_EQ(backward->second, got)
                << "case " << c << " at (" << p.x << ", " << p.y << ")";
        };
        for (int r = 0; r < fine; ++r) {
            for (int col = 0; col < fine; ++col) {
                // The fine cell's centre, jittered within the cell.
                const real jx = real(uniform(rng, 1, 15)) / 64;
                const real jy = real(uniform(rng, 1, 15)) / 64;
                check_point({real(col) / 4 + jx, real(r) / 4 + jy},
                            expected[std::size_t(r * fine + col)]);
            }
        }
        check_point({-3, 5}, 0);
        check_point({30, -5}, 0); // no box reaches below y = -1
        EXPECT_EQ(checker->region_count(), expected_count) << "case " << c;
    }
}

} // namespace
