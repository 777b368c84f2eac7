// World::move's least push out of several overlaps (src/push_out.hpp)
// against brute force: the mover (every character shape) placed among
// random obstacles (tiles, turned polygons, discs, capsules, segments) that
// it overlaps, and the translations of a fine grid tried nearest first with
// the referee of mover_referee.hpp (independent of the library's geometry).
// The push must leave the mover clear of every obstacle (no deeper than the
// touch tolerance), and be no longer than the nearest clear grid point but
// for the grid's spacing (and, for rounded shapes, the 2 % of the radius
// the method may overshoot by); when there is none within the limit, no
// grid point may be clear. (A way out narrower than the grid, found by the
// push but by no grid point, is counted: rare.)
#include "push_out.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "mover_referee.hpp"
#include "property.hpp"

namespace sweep::detail {
namespace {

using referee::Convex;

constexpr real k_touch = real(0.02);

struct Obstacle {
    Shape shape;
    Transform xf;
};

// A random obstacle near the origin, within `size` of it: a 16 x 16 tile
// on the grid, a turned polygon, a disc, a capsule or a segment.
Obstacle random_obstacle(std::mt19937& rng, real size) {
    std::uniform_real_distribution<real> unit(0, 1);
    const auto near = [&](real spread) {
        return Vec2{(2 * unit(rng) - 1) * spread, (2 * unit(rng) - 1) * spread};
    };
    const Rot turned = Rot::from_angle(2 * k_pi * unit(rng));
    switch (static_cast<int>(unit(rng) * 5)) {
    case 0: { // a tile, on a 16-unit grid through the origin's cell corner
        const Vec2 cell{std::floor(near(size + 8).x / 16) * 16 + 8,
                        std::floor(near(size + 8).y / 16) * 16 + 8};
        return {make_box(8, 8).value(), {cell, {}}};
    }
    case 1:
        return {referee::make_character(3 + static_cast<int>(unit(rng) * 2), size, rng).first,
                {near(size), turned}};
    case 2:
        return {make_circle({0, 0}, size * (real(0.3) + unit(rng))).value(), {near(size), {}}};
    case 3:
        return {
            make_capsule({-size, 0}, {size, 0}, size * real(0.3) * (real(0.3) + unit(rng))).value(),
            {near(size), turned}};
    default:
        return {Segment{{-2 * size, 0}, {2 * size, 0}}, {near(size), turned}};
    }
}

Convex placed_convex(const Shape& shape, const Transform& xf) {
    return referee::placed(shape, xf.q.c, xf.q.s, xf.p);
}

// The translations of a unit grid within radius `n`, nearest first.
std::vector<Vec2> grid_nearest_first(int n) {
    std::vector<Vec2> out;
    for (int i = -n; i <= n; ++i) {
        for (int j = -n; j <= n; ++j) {
            if (i * i + j * j <= n * n) {
                out.push_back({real(i), real(j)});
            }
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](Vec2 a, Vec2 b) { return length_squared(a) < length_squared(b); });
    return out;
}

TEST(LeastPush, IsClearAndNoLongerThanTheNearestClearTranslationOfAFineGrid) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<real> unit(0, 1);
    constexpr int k_grid = 120; // grid points along the limit's radius
    const std::vector<Vec2> grid = grid_nearest_first(k_grid);
    PushScratch scratch; // (kept across cases, as a world keeps it)
    int pushed = 0;
    int several = 0;
    int none = 0;
    int thin = 0;
    for (int n = 0; n < test::property_cases(400); ++n) {
        const real size = 3 + 4 * unit(rng);
        const auto [own, angle] = referee::make_character(n % 7, size, rng);
        const Transform own_xf{{}, Rot::from_angle(angle)};
        const Convex mover = placed_convex(own, own_xf);
        const Aabb box = referee::bounds(mover);
        const real max_push = std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
        std::vector<Obstacle> obstacles;
        const int count = 1 + static_cast<int>(unit(rng) * 5);
        for (int k = 0; k < count; ++k) {
            obstacles.push_back(random_obstacle(rng, size));
        }
        std::vector<PushObstacle> input;
        std::vector<Convex> judged;
        real radius = mover.radius;
        int overlapped = 0;
        for (const Obstacle& o : obstacles) {
            input.push_back(
                {placed_proxy(make_proxy(o.shape), o.xf), placed_proxy(make_proxy(own), own_xf)});
            judged.push_back(placed_convex(o.shape, o.xf));
            radius = std::max(radius, mover.radius + judged.back().radius);
            overlapped += referee::depth(mover, judged.back()) > k_touch ? 1 : 0;
        }
        const auto deepest_at = [&](Vec2 t) {
            Convex moved = mover;
            for (int i = 0; i < moved.count; ++i) {
                moved.points[static_cast<std::size_t>(i)] += t;
            }
            real deepest = 0;
            for (const Convex& o : judged) {
                deepest = std::max(deepest, referee::depth(moved, o));
            }
            return deepest;
        };
        const real spacing = max_push / k_grid;
        std::optional<real> nearest;
        for (Vec2 g : grid) {
            if (deepest_at(spacing * g) <= k_touch) {
                nearest = spacing * length(g);
                break;
            }
        }
        const std::optional<Vec2> push = least_push(input, max_push, k_touch, scratch);
        const std::string what = "case " + std::to_string(n) + " mover " + referee::describe(own) +
                                 " angle " + std::to_string(angle);
        if (overlapped == 0) {
            ASSERT_TRUE(push && *push == Vec2{}) << what << ": pushed out of nothing";
            continue;
        }
        if (!push) {
            // Nothing clear within the limit, but for the grid's last ring.
            ASSERT_TRUE(!nearest || *nearest > max_push - 2 * spacing)
                << what << ": no push, but " << *nearest << " L frees it";
            ++none;
            continue;
        }
        ++pushed;
        several += overlapped > 1 ? 1 : 0;
        // Clear, but for the rounding of coordinates a few units large.
        EXPECT_LE(deepest_at(*push), k_touch + real(1e-4))
            << what << " pushed by " << referee::describe(*push);
        EXPECT_LE(length(*push), max_push * (1 + real(1e-5))) << what;
        if (!nearest) {
            ++thin; // a way out narrower than the grid's spacing (just clear, checked above)
            continue;
        }
        EXPECT_LE(length(*push), *nearest + spacing * real(1.5) + real(0.02) * radius)
            << what << " pushed by " << referee::describe(*push) << ", but " << *nearest
            << " L frees it";
    }
    EXPECT_GT(pushed, test::property_cases(400) / 2);
    EXPECT_GT(several, test::property_cases(400) / 8);
    EXPECT_LE(thin, pushed / 100);
    RecordProperty("pushed", pushed);
    RecordProperty("several", several);
    RecordProperty("none", none);
    RecordProperty("thin", thin);
}

// By hand: a box in the inner corner of a floor of two tiles and a wall
// on the right one, 4.3 into the floor and 0.8 into the wall: out by
// (-0.8, 4.3), touching both, not through the left floor tile's covered
// side (3.2 right, into the next tile) nor up alone (still in the wall).
TEST(LeastPush, ABoxInAnInnerCornerLeavesByTheCornerTouchingBoth) {
    const Shape tile = make_box(8, 8).value();
    const Shape box = make_box(2, 3).value();
    const ShapeProxy own = placed_proxy(make_proxy(box), {{158.8f, 238.7f}, {}});
    std::vector<PushObstacle> obstacles;
    for (Vec2 cell : {Vec2{152, 232}, Vec2{168, 232}, Vec2{168, 248}}) {
        obstacles.push_back({placed_proxy(make_proxy(tile), {cell, {}}), own});
    }
    PushScratch scratch;
    const std::optional<Vec2> push = least_push(obstacles, 6, k_touch, scratch);
    ASSERT_TRUE(push);
    // Box x in [156.8, 160.8], y in [235.7, 241.7]: left by 0.8 out of the
    // wall (x = 160), up by 4.3 out of the floor (y = 240).
    EXPECT_NEAR(push->x, -0.8f, 1e-4f);
    EXPECT_NEAR(push->y, 4.3f, 1e-4f);
}

TEST(LeastPush, NoneWhenBuriedBeyondTheLimitAndZeroWhenClear) {
    const Shape tile = make_box(8, 8).value();
    const ShapeProxy own = placed_proxy(make_proxy(make_circle({0, 0}, 1).value()), {{8, 8}, {}});
    const PushObstacle buried{placed_proxy(make_proxy(tile), {{8, 8}, {}}), own};
    PushScratch scratch;
    EXPECT_FALSE(least_push(std::span(&buried, 1), 2, k_touch, scratch));
    ASSERT_TRUE(least_push(std::span(&buried, 1), 10, k_touch, scratch));
    EXPECT_NEAR(length(*least_push(std::span(&buried, 1), 10, k_touch, scratch)), 9, 1e-4f);
    const PushObstacle apart{placed_proxy(make_proxy(tile), {{30, 8}, {}}), own};
    EXPECT_EQ(least_push(std::span(&apart, 1), 2, k_touch, scratch), Vec2{});
}

} // namespace
} // namespace sweep::detail
