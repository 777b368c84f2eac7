// A level's load, ours next to Box2D 2.4.1's on the same map: the Move
// benchmark's 200x200 map of 16x16 tiles, 70% of them solid (27,850 static
// boxes, each its own body, as a Tiled loader without merging makes them),
// made into a world and stepped once at 60 Hz, as a game does before its
// first frame. The step is where each side finishes the load: ours builds
// the static tree again by SAH and finds the seams between tiles (the flush
// faces that keep a box sliding over them from catching, world_seams.cpp);
// Box2D's first step pairs every new proxy in its move buffer. Tearing the
// world down is not timed. Counter `bodies`: the static bodies made.
#include <benchmark/benchmark.h>
#include <box2d/b2_body.h>
#include <box2d/b2_fixture.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_world.h>

#include <memory>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "move_scene.hpp"
#include "sweep/world.hpp"

namespace {

using bench::move::k_map;
using bench::move::k_tile;

// The solid tiles' centres: the cells move_scene.hpp's make_scene fills
// (the same seed and draws).
std::vector<sweep::Vec2> solid_cells() {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0, 1);
    std::vector<sweep::Vec2> cells;
    for (int y = 0; y < k_map; ++y) {
        for (int x = 0; x < k_map; ++x) {
            if (unit(rng) < 0.7f) {
                cells.push_back({(x + 0.5f) * k_tile, (y + 0.5f) * k_tile});
            }
        }
    }
    return cells;
}

void World_Load_sweep(benchmark::State& state) {
    const std::vector<sweep::Vec2> cells = solid_cells();
    const sweep::ShapeDef tile{sweep::make_box(k_tile / 2, k_tile / 2).value(), {}};
    for (auto _ : state) {
        std::optional<sweep::World> world =
            sweep::World::make(bench::move::world_def(sweep::StaticBroadphase::tree)).value();
        for (const sweep::Vec2 c : cells) {
            sweep::BodyDef def;
            def.position = c;
            benchmark::DoNotOptimize(world->create_body(def, std::span(&tile, 1)));
        }
        benchmark::DoNotOptimize(world->step(1.0f / 60));
        state.PauseTiming();
        world.reset();
        state.ResumeTiming();
    }
    state.counters["bodies"] = static_cast<double>(cells.size());
}

void World_Load_box2d(benchmark::State& state) {
    const std::vector<sweep::Vec2> cells = solid_cells();
    for (auto _ : state) {
        auto world = std::make_unique<b2World>(b2Vec2(0, -10));
        for (const sweep::Vec2 c : cells) {
            b2BodyDef def;
            def.position.Set(c.x, c.y);
            b2PolygonShape box;
            box.SetAsBox(k_tile / 2, k_tile / 2);
            world->CreateBody(&def)->CreateFixture(&box, 0);
        }
        world->Step(1.0f / 60, 8, 3);
        state.PauseTiming();
        world.reset();
        state.ResumeTiming();
    }
    state.counters["bodies"] = static_cast<double>(cells.size());
}

} // namespace

BENCHMARK(World_Load_sweep)->Name("World/load_200x200_tiles/sweep")->Unit(benchmark::kMillisecond);
BENCHMARK(World_Load_box2d)->Name("World/load_200x200_tiles/box2d")->Unit(benchmark::kMillisecond);
