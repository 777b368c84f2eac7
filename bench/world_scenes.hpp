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

struct Wall {
    sweep::Vec2 center, half;
};

// n circles and boxes (0.2 to 0.5 m) on a grid 1 m apart above a container
// twice as wide as the pile is high, so each case is the same drop, wider.
struct FallScene {
    std::vector<Spawn> spawns;
    std::vector<Wall> walls; // floor, left, right
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
    for (const Spawn& s : scene.spawns) {
        const sweep::Shape shape = s.circle ? sweep::Shape(sweep::Circle{{}, s.size})
                                            : sweep::Shape(sweep::make_box(s.size, s.size).value());
        const sweep::ShapeDef sd{shape, {}};
        sweep::BodyDef def;
        def.type = sweep::BodyType::dynamic;
        def.position = {s.x, s.y};
        const sweep::BodyId id = world->create_body(def, std::span(&sd, 1)).value();
        if (dynamic) {
            dynamic->push_back(id);
        }
    }
    return world;
}

} // namespace bench::world
