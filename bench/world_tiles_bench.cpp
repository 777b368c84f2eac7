// A level of tiles, each its own static body (as a Tiled loader without
// merging makes them), ours next to Box2D 2.4.1 on the same map: the Move
// benchmark's 200x200 map of 16x16 tiles, 70% of them solid (27,850 static
// boxes).
// - World/load_200x200_tiles: the map made into a world and stepped once at
//   60 Hz, as a game does before its first frame. The step is where each
//   side finishes the load: ours builds the static tree by SAH (the tiles
//   wait outside it until then) and leaves the seams between tiles (the
//   flush faces that keep a box sliding over them from catching,
//   world_seams.cpp) to be found when something first touches them; Box2D's
//   first step pairs every new proxy in its move buffer. Tearing the world
//   down is not timed. Counter `bodies`: the static bodies made.
// - World/load_200x200_tiles_reserved: the same, ours told the number of
//   bodies and shapes first (World::reserve), as a loader that knows the
//   level's size; Box2D 2.4 has no such call (its block allocator never
//   moves a body), so its side is its plain load again.
// - World/tiles_200x200_1519_bodies: every eighth free cell given a dynamic
//   body (boxes 10x8 and discs of radius 5, turning at 0.5 rad/s), which
//   fall into the pockets of the map and settle there; 60 steps at 60 Hz,
//   gravity 10 m/s², sleeping off, every Box2D body a bullet (the issue's
//   setting). Our world runs in map pixels (16 L a metre, as the Tiled
//   loader sets it); Box2D in metres, since its tolerances are fixed for
//   metres. Building the world is not timed; each iteration steps a new one
//   from the start. Every step walks past the 27,850 static bodies.
// - World/tiles_200x200_1519_bodies_destroy_one_a_step: the same, with a
//   tile destroyed before each step, as a game with destructible terrain
//   does (some bodies fall through the holes).
// - World/tiles_200x200_destroy_one_a_step: the loaded map (no dynamic
//   bodies), one tile destroyed and the world stepped, per iteration. Ours
//   leaves the seams of the tile's neighbours to be found again, and
//   rebuilds the static tree only once changes pile up; Box2D removes one
//   proxy.
#include <benchmark/benchmark.h>
#include <box2d/b2_body.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_fixture.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_world.h>

#include <memory>
#include <random>
#include <span>
#include <vector>

#include "move_scene.hpp"
#include "sweep/world.hpp"

namespace {

using bench::move::k_map;
using bench::move::k_tile;

constexpr float k_dt = 1.0f / 60;
constexpr int k_steps = 60;

// The map: the cells move_scene.hpp's make_scene fills (the same seed and
// draws), and a dynamic body at every eighth free cell, a disc every other
// time.
struct TileLevel {
    std::vector<sweep::Vec2> tiles;
    std::vector<sweep::Vec2> bodies;
};

TileLevel tile_level() {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0, 1);
    TileLevel level;
    int free_cells = 0;
    for (int y = 0; y < k_map; ++y) {
        for (int x = 0; x < k_map; ++x) {
            const sweep::Vec2 centre{(x + 0.5f) * k_tile, (y + 0.5f) * k_tile};
            if (unit(rng) < 0.7f) {
                level.tiles.push_back(centre);
            } else if (free_cells++ % 8 == 0) {
                level.bodies.push_back(centre);
            }
        }
    }
    return level;
}

bool is_disc(std::size_t body) { return body % 2 == 1; }

// `reserved`: told the level's size first (World::reserve), as a loader
// that knows it can.
std::unique_ptr<sweep::World> make_level_world(const TileLevel& level, bool with_bodies,
                                               bool reserved) {
    sweep::WorldDef def = bench::move::world_def(sweep::StaticBroadphase::tree);
    def.gravity = {0, -10 * k_tile};
    def.enable_sleep = false;
    auto world = std::make_unique<sweep::World>(sweep::World::make(def).value());
    if (reserved) {
        const auto count = static_cast<int>(level.tiles.size() + level.bodies.size());
        (void)world->reserve(count, count);
    }
    const sweep::ShapeDef tile{sweep::make_box(k_tile / 2, k_tile / 2).value(), {}};
    for (const sweep::Vec2 c : level.tiles) {
        sweep::BodyDef body;
        body.position = c;
        benchmark::DoNotOptimize(world->create_body(body, std::span(&tile, 1)));
    }
    if (!with_bodies) {
        return world;
    }
    const sweep::ShapeDef box{sweep::make_box(5, 4).value(), {}};
    const sweep::ShapeDef disc{sweep::Circle{{}, 5}, {}};
    for (std::size_t i = 0; i < level.bodies.size(); ++i) {
        sweep::BodyDef body;
        body.type = sweep::BodyType::dynamic;
        body.position = level.bodies[i];
        body.angular_velocity = 0.5f;
        (void)world->create_body(body, std::span(is_disc(i) ? &disc : &box, 1));
    }
    return world;
}

std::unique_ptr<sweep::World> make_sweep_world(const TileLevel& level, bool with_bodies) {
    return make_level_world(level, with_bodies, false);
}
std::unique_ptr<sweep::World> make_reserved_sweep_world(const TileLevel& level, bool with_bodies) {
    return make_level_world(level, with_bodies, true);
}

std::unique_ptr<b2World> make_box2d_world(const TileLevel& level, bool with_bodies) {
    auto world = std::make_unique<b2World>(b2Vec2(0, -10));
    world->SetAllowSleeping(false);
    const float m = 1 / k_tile; // metres a map pixel
    for (const sweep::Vec2 c : level.tiles) {
        b2BodyDef def;
        def.position.Set(c.x * m, c.y * m);
        b2PolygonShape box;
        box.SetAsBox(0.5f, 0.5f);
        world->CreateBody(&def)->CreateFixture(&box, 0);
    }
    if (!with_bodies) {
        return world;
    }
    for (std::size_t i = 0; i < level.bodies.size(); ++i) {
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.bullet = true;
        def.position.Set(level.bodies[i].x * m, level.bodies[i].y * m);
        def.angularVelocity = 0.5f;
        b2Body* body = world->CreateBody(&def);
        b2FixtureDef fd;
        fd.density = 1;
        fd.friction = 0.6f;
        b2CircleShape circle;
        circle.m_radius = 5 * m;
        b2PolygonShape box;
        box.SetAsBox(5 * m, 4 * m);
        fd.shape = is_disc(i) ? static_cast<b2Shape*>(&circle) : static_cast<b2Shape*>(&box);
        body->CreateFixture(&fd);
    }
    return world;
}

// One step of each side's world, and each side's tiles and their destruction.
void step(sweep::World& world) { benchmark::DoNotOptimize(world.step(k_dt)); }
void step(b2World& world) { world.Step(k_dt, 8, 3); }

std::vector<sweep::BodyId> tiles_of(const sweep::World& world) {
    std::vector<sweep::BodyId> tiles = world.body_ids();
    std::erase_if(tiles, [&](sweep::BodyId b) {
        return world.body_state(b)->type != sweep::BodyType::static_body;
    });
    return tiles;
}
std::vector<b2Body*> tiles_of(b2World& world) {
    std::vector<b2Body*> tiles;
    for (b2Body* b = world.GetBodyList(); b != nullptr; b = b->GetNext()) {
        if (b->GetType() == b2_staticBody) {
            tiles.push_back(b);
        }
    }
    return tiles;
}

void destroy(sweep::World& world, sweep::BodyId tile) {
    benchmark::DoNotOptimize(world.destroy_body(tile));
}
void destroy(b2World& world, b2Body* tile) { world.DestroyBody(tile); }

// A world `make` makes of the map, and its first step, per iteration;
// tearing it down is not timed.
template <class Make> void time_load(benchmark::State& state, Make make) {
    const TileLevel level = tile_level();
    for (auto _ : state) {
        auto world = make(level, false);
        step(*world);
        state.PauseTiming();
        world.reset();
        state.ResumeTiming();
    }
    state.counters["bodies"] = static_cast<double>(level.tiles.size());
}

// k_steps steps of a world `make` makes of the map with its bodies, per
// iteration, each after destroying a tile if `destroying` (one in every 997
// of the map's list in turn); making it, its first step (the load) and
// tearing it down are not timed.
template <class Make> void time_steps(benchmark::State& state, Make make, bool destroying) {
    const TileLevel level = tile_level();
    for (auto _ : state) {
        state.PauseTiming();
        auto world = make(level, true);
        const auto tiles = tiles_of(*world);
        step(*world);
        state.ResumeTiming();
        for (int i = 0; i < k_steps; ++i) {
            if (destroying) {
                destroy(*world, tiles[static_cast<std::size_t>(i * 997) % tiles.size()]);
            }
            step(*world);
        }
        state.PauseTiming();
        world.reset();
        state.ResumeTiming();
    }
    state.counters["bodies"] = static_cast<double>(level.bodies.size());
}

// One tile destroyed and a step, per iteration, on one loaded world: one
// tile in every 997 of the map's list in turn, spread over the map.
template <class Make> void time_destroying(benchmark::State& state, Make make) {
    const auto world = make(tile_level(), false);
    const auto tiles = tiles_of(*world);
    step(*world);
    std::int64_t n = 0;
    for (auto _ : state) {
        destroy(*world, tiles[static_cast<std::size_t>(n++ * 997) % tiles.size()]);
        step(*world);
    }
}

void World_Load_sweep(benchmark::State& state) { time_load(state, make_sweep_world); }
void World_LoadReserved_sweep(benchmark::State& state) {
    time_load(state, make_reserved_sweep_world);
}
void World_Load_box2d(benchmark::State& state) { time_load(state, make_box2d_world); }
void World_Tiles_sweep(benchmark::State& state) { time_steps(state, make_sweep_world, false); }
void World_Tiles_box2d(benchmark::State& state) { time_steps(state, make_box2d_world, false); }
void World_TilesDestroyed_sweep(benchmark::State& state) {
    time_steps(state, make_sweep_world, true);
}
void World_TilesDestroyed_box2d(benchmark::State& state) {
    time_steps(state, make_box2d_world, true);
}
void World_DestroyTile_sweep(benchmark::State& state) { time_destroying(state, make_sweep_world); }
void World_DestroyTile_box2d(benchmark::State& state) { time_destroying(state, make_box2d_world); }

} // namespace

BENCHMARK(World_Load_sweep)->Name("World/load_200x200_tiles/sweep")->Unit(benchmark::kMillisecond);
BENCHMARK(World_Load_box2d)->Name("World/load_200x200_tiles/box2d")->Unit(benchmark::kMillisecond);
BENCHMARK(World_LoadReserved_sweep)
    ->Name("World/load_200x200_tiles_reserved/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_Load_box2d)
    ->Name("World/load_200x200_tiles_reserved/box2d")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_Tiles_sweep)
    ->Name("World/tiles_200x200_1519_bodies/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_Tiles_box2d)
    ->Name("World/tiles_200x200_1519_bodies/box2d")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_TilesDestroyed_sweep)
    ->Name("World/tiles_200x200_1519_bodies_destroy_one_a_step/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_TilesDestroyed_box2d)
    ->Name("World/tiles_200x200_1519_bodies_destroy_one_a_step/box2d")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_DestroyTile_sweep)
    ->Name("World/tiles_200x200_destroy_one_a_step/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_DestroyTile_box2d)
    ->Name("World/tiles_200x200_destroy_one_a_step/box2d")
    ->Unit(benchmark::kMillisecond);
