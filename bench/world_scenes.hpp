// The World benchmarks' scenes (issue 5): circles and boxes falling into a
// container, and Box2D's large pyramid. Shared by world_bench.cpp (which
// builds them in Box2D too) and the in-process A/B module (ab_module.cpp),
// so that both time the same steps. Metres, seconds.
#pragma once

#include <cmath>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "sweep/world.hpp"

namespace bench::world {

constexpr float k_dt = 1.0f / 60;

struct Spawn {
    float x, y;
    float size; // radius or half extent, metres
    bool circle;
};

// A spawned box's shape and motion beyond Spawn's: its other half extent,
// its angle and its velocities.
struct Thrown {
    float half_height; // metres
    float angle;       // radians
    sweep::Vec2 velocity;
    float spin; // rad/s
};

struct Wall {
    sweep::Vec2 center, half;
};

// n circles and boxes (0.2 to 0.5 m) on a grid 1 m apart above a container
// twice as wide as the pile is high, so each case is the same drop, wider.
struct FallScene {
    std::vector<Spawn> spawns;
    std::vector<Wall> walls;    // floor, left, right
    std::vector<Thrown> thrown; // one a spawn, or none: square, level and at rest
};

inline FallScene fall_scene(int count) {
    const int columns = 2 * static_cast<int>(std::ceil(std::sqrt(static_cast<float>(count))));
    const int rows = (count + columns - 1) / columns;
    const float half_width = static_cast<float>(columns) / 2 + 0.5f;
    const float height = static_cast<float>(rows) + 4;
    FallScene scene;
    scene.walls = {{{0, -0.5f}, {half_width + 1, 0.5f}},
                   {{-half_width - 0.5f, height / 2}, {0.5f, height / 2}},
                   {{half_width + 0.5f, height / 2}, {0.5f, height / 2}}};
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> size(0.2f, 0.5f);
    for (int i = 0; i < count; ++i) {
        scene.spawns.push_back({-half_width + 1 + static_cast<float>(i % columns),
                                1.5f + static_cast<float>(i / columns), size(rng), i % 2 == 0});
    }
    return scene;
}

// Box2D's "large pyramid" (v3 samples/benchmarks): 100 boxes of 1 m at the
// base, 5050 in all, resting on a ground box.
inline FallScene pyramid_scene() {
    constexpr int k_base = 100;
    constexpr float k_half = 0.5f;
    FallScene scene;
    scene.walls = {{{0, -1}, {100, 1}}};
    for (int row = 0; row < k_base; ++row) {
        const int in_row = k_base - row;
        for (int i = 0; i < in_row; ++i) {
            const float x =
                (static_cast<float>(i) - static_cast<float>(in_row - 1) / 2) * 2 * k_half;
            const float y = k_half + static_cast<float>(row) * 2 * k_half;
            scene.spawns.push_back({x, y, k_half, false});
        }
    }
    return scene;
}

// n thin bars (1 m by 0.1 m) thrown and spinning in a closed box: each
// starts on a grid 2 m apart at a random angle, flying at 20 to 40 m/s in a
// random direction and turning at up to 30 rad/s, so that every step moves
// each bar 3 to 7 times its thickness: the continuous phase against the
// walls (one body turning) and between bars (both turning) from the first
// step on.
inline FallScene spinners_scene(int count) {
    const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(count))));
    const float half = static_cast<float>(columns) + 1; // the box's inner half width
    FallScene scene;
    scene.walls = {{{0, -half - 0.5f}, {half + 1, 0.5f}},
                   {{0, half + 0.5f}, {half + 1, 0.5f}},
                   {{-half - 0.5f, 0}, {0.5f, half}},
                   {{half + 0.5f, 0}, {0.5f, half}}};
    std::mt19937 rng(12);
    std::uniform_real_distribution<float> unit(0, 1);
    constexpr float k_two_pi = 6.2831853f;
    for (int i = 0; i < count; ++i) {
        const float direction = k_two_pi * unit(rng);
        const float speed = 20 + 20 * unit(rng);
        scene.spawns.push_back({-half + 2 + 2 * static_cast<float>(i % columns),
                                -half + 2 + 2 * static_cast<float>(i / columns), 0.5f, false});
        const float angle = k_two_pi * unit(rng);
        scene.thrown.push_back(
            {0.05f, angle, sweep::Vec2{speed * std::cos(direction), speed * std::sin(direction)},
             60 * unit(rng) - 30});
    }
    return scene;
}

// Spawn i's Thrown: the scene's, or a square box's at rest.
inline Thrown thrown_of(const FallScene& scene, std::size_t i) {
    return scene.thrown.empty() ? Thrown{scene.spawns[i].size, 0, {}, 0} : scene.thrown[i];
}

// Sleeping off, as on Box2D's side (SetAllowSleeping(false)).
inline sweep::WorldDef no_sleep(int solver_substeps = sweep::WorldDef{}.solver_substeps) {
    sweep::WorldDef def;
    def.enable_sleep = false;
    def.solver_substeps = solver_substeps;
    return def;
}

// The scene in a world of ours; the dynamic bodies' ids, in the spawns'
// order, into `dynamic` if given.
inline std::unique_ptr<sweep::World>
make_sweep_world(const FallScene& scene, int solver_substeps = sweep::WorldDef{}.solver_substeps,
                 std::vector<sweep::BodyId>* dynamic = nullptr) {
    auto world =
        std::make_unique<sweep::World>(sweep::World::make(no_sleep(solver_substeps)).value());
    for (const Wall& w : scene.walls) {
        const sweep::ShapeDef sd{sweep::make_box(w.half.x, w.half.y).value(), {}};
        sweep::BodyDef def;
        def.position = w.center;
        (void)world->create_body(def, std::span(&sd, 1));
    }
    for (std::size_t i = 0; i < scene.spawns.size(); ++i) {
        const Spawn& s = scene.spawns[i];
        const Thrown t = thrown_of(scene, i);
        const sweep::Shape shape =
            s.circle ? sweep::Shape(sweep::Circle{{}, s.size})
                     : sweep::Shape(sweep::make_box(s.size, t.half_height).value());
        const sweep::ShapeDef sd{shape, {}};
        sweep::BodyDef def;
        def.type = sweep::BodyType::dynamic;
        def.position = {s.x, s.y};
        def.angle = t.angle;
        def.linear_velocity = t.velocity;
        def.angular_velocity = t.spin;
        const sweep::BodyId id = world->create_body(def, std::span(&sd, 1)).value();
        if (dynamic) {
            dynamic->push_back(id);
        }
    }
    return world;
}

} // namespace bench::world
