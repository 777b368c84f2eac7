// World::move throughput on issue 5's character scene: 1000 12x12 characters
// moving toward random goals within +-8 px every frame on a 200x200 map of
// 16x16 tiles, 70% of them solid (each tile its own static box, as bump.lua
// keeps them). Reported as moves per second; Box2D has no equivalent, so
// there is no pair. bump.lua runs the same scene in bench/bump/characters.lua
// (under LuaJIT, in its own process; BENCHMARKS.md has both side by side:
// the 35,000 moves a second for bump.lua came from another machine,
// and on ours it does about 100,000 at its best cell size).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "sweep/world.hpp"

namespace {

constexpr int k_map = 200;
constexpr float k_tile = 16;

// One tile per metre, as the Tiled loader sets it (docs/conventions.md);
// the static tiles in `static_broadphase` (a grid derives its cell size from
// them).
sweep::WorldDef world_def(sweep::StaticBroadphase static_broadphase) {
    sweep::WorldDef def;
    def.length_units_per_meter = k_tile;
    def.static_broadphase = static_broadphase;
    return def;
}

struct Scene {
    sweep::World world;
    std::vector<sweep::BodyId> characters;
};

// The characters' shape: the 12x12 box (World::move's fast path for
// box characters), or a round one as tall (a disc of radius 6; a capsule 12
// tall and 6 wide, radius 3 about a 6-long upright core), which the general
// mover moves, meeting the tiles through its closed forms for round shapes.
enum class Character { box, circle, capsule };

sweep::Shape character_shape(Character character) {
    switch (character) {
    case Character::circle:
        return sweep::Shape(sweep::Circle{{0, 0}, 6});
    case Character::capsule:
        return sweep::make_capsule({0, -3}, {0, 3}, 3).value();
    case Character::box:
        break;
    }
    return sweep::make_box(6, 6).value();
}

Scene make_scene(int characters,
                 sweep::StaticBroadphase static_broadphase = sweep::StaticBroadphase::tree,
                 Character character = Character::box) {
    Scene scene{sweep::World::make(world_def(static_broadphase)).value(), {}};
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0, 1);
    std::vector<bool> solid(k_map * k_map);
    const sweep::ShapeDef tile{sweep::make_box(k_tile / 2, k_tile / 2).value(), {}};
    std::vector<sweep::Vec2> free_cells;
    for (int y = 0; y < k_map; ++y) {
        for (int x = 0; x < k_map; ++x) {
            const sweep::Vec2 center{(x + 0.5f) * k_tile, (y + 0.5f) * k_tile};
            if (unit(rng) < 0.7f) {
                sweep::BodyDef def;
                def.position = center;
                (void)scene.world.create_body(def, std::span(&tile, 1));
            } else {
                free_cells.push_back(center);
            }
        }
    }
    std::shuffle(free_cells.begin(), free_cells.end(), rng);
    const sweep::ShapeDef body{character_shape(character), {}};
    for (int i = 0; i < characters; ++i) {
        sweep::BodyDef def;
        def.type = sweep::BodyType::kinematic;
        def.position = free_cells[static_cast<std::size_t>(i)];
        scene.characters.push_back(scene.world.create_body(def, std::span(&body, 1)).value());
    }
    return scene;
}

// Each character moves through a MoveResult of its own, reused frame after
// frame (World::move's overload that writes into one), as a game loop
// would: no allocation per move.
// With `pass_through`, through a filter (as most games move) that lets the
// characters pass through one another and slides on the tiles.
void Move_Characters(benchmark::State& state, sweep::StaticBroadphase static_broadphase,
                     Character character = Character::box, bool pass_through = false) {
    Scene scene = make_scene(1000, static_broadphase, character);
    const std::int32_t first_character = scene.characters.front().index;
    sweep::MoveFilter filter;
    if (pass_through) {
        filter = [first_character](sweep::BodyId other) {
            return other.index >= first_character ? sweep::MoveResponse::ignore
                                                  : sweep::MoveResponse::slide;
        };
    }
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> goal(-8, 8);
    std::vector<sweep::MoveResult> results(scene.characters.size());
    std::int64_t moves = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < scene.characters.size(); ++i) {
            benchmark::DoNotOptimize(
                scene.world.move(scene.characters[i], {goal(rng), goal(rng)}, filter, results[i]));
        }
        moves += static_cast<std::int64_t>(scene.characters.size());
    }
    state.counters["moves_per_second"] =
        benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

// The same with a fresh MoveResult returned by every move (its contacts
// allocated whenever it met something).
void Move_Characters_fresh_result(benchmark::State& state) {
    Scene scene = make_scene(1000);
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> goal(-8, 8);
    std::int64_t moves = 0;
    for (auto _ : state) {
        for (sweep::BodyId id : scene.characters) {
            benchmark::DoNotOptimize(scene.world.move(id, {goal(rng), goal(rng)}));
        }
        moves += static_cast<std::int64_t>(scene.characters.size());
    }
    state.counters["moves_per_second"] =
        benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK_CAPTURE(Move_Characters, tree, sweep::StaticBroadphase::tree)
    ->Name("Move/characters_1000_on_200x200_tiles/sweep")
    ->Unit(benchmark::kMillisecond);
// The tiles in a uniform grid (StaticBroadphase::grid) rather than a tree.
BENCHMARK_CAPTURE(Move_Characters, grid, sweep::StaticBroadphase::grid)
    ->Name("Move/characters_1000_on_200x200_tiles_grid/sweep")
    ->Unit(benchmark::kMillisecond);
// Through a filter: the characters pass through one another.
BENCHMARK_CAPTURE(Move_Characters, filtered, sweep::StaticBroadphase::tree, Character::box, true)
    ->Name("Move/characters_1000_on_200x200_tiles_filtered/sweep")
    ->Unit(benchmark::kMillisecond);
// Round characters (discs, capsules) among the same tiles.
BENCHMARK_CAPTURE(Move_Characters, circle, sweep::StaticBroadphase::tree, Character::circle)
    ->Name("Move/circles_1000_on_200x200_tiles/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Move_Characters, capsule, sweep::StaticBroadphase::tree, Character::capsule)
    ->Name("Move/capsules_1000_on_200x200_tiles/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(Move_Characters_fresh_result)
    ->Name("Move/characters_1000_on_200x200_tiles_fresh_result/sweep")
    ->Unit(benchmark::kMillisecond);
