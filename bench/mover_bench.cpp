// World::move throughput on issue 5's character scene: 1000 12x12 characters
// moving toward random goals within +-8 px every frame on a 200x200 map of
// 16x16 tiles, 70% of them solid (each tile its own static box, as bump.lua
// keeps them). Reported as moves per second; Box2D has no equivalent, so
// there is no pair. bump.lua runs the same scene in bench/bump/characters.lua
// (under LuaJIT, in its own process; BENCHMARKS.md has both side by side:
// the 35,000 moves a second for bump.lua came from another machine,
// and on ours it does about 100,000 at its best cell size).
#include <benchmark/benchmark.h>

#include <vector>

#include "move_scene.hpp"
#include "sweep/world.hpp"

namespace {

using bench::move::Character;
using bench::move::Goals;
using bench::move::make_scene;
using bench::move::Scene;

// Each character moves through a MoveResult of its own, reused frame after
// frame (World::move's overload that writes into one), as a game loop
// would: no allocation per move.
// With `pass_through`, through a filter (as most games move) that lets the
// characters pass through one another and slides on the tiles. With
// `destroying`, a tile destroyed before each frame (one in every 997 of the
// map's list in turn), as in a game with destructible terrain.
void Move_Characters(benchmark::State& state, sweep::StaticBroadphase static_broadphase,
                     Character character = Character::box, bool pass_through = false,
                     bool destroying = false) {
    Scene scene = make_scene(1000, static_broadphase, character);
    std::vector<sweep::BodyId> tiles = scene.world.body_ids();
    std::erase_if(tiles, [&](sweep::BodyId b) {
        return scene.world.body_state(b)->type != sweep::BodyType::static_body;
    });
    const std::int32_t first_character = scene.characters.front().index;
    sweep::MoveFilter filter;
    if (pass_through) {
        filter = [first_character](sweep::BodyId other) {
            return other.index >= first_character ? sweep::MoveResponse::ignore
                                                  : sweep::MoveResponse::slide;
        };
    }
    Goals goals;
    std::vector<sweep::MoveResult> results(scene.characters.size());
    std::int64_t moves = 0;
    std::int64_t frames = 0;
    for (auto _ : state) {
        if (destroying) {
            const auto next = static_cast<std::size_t>(frames++ * 997) % tiles.size();
            benchmark::DoNotOptimize(scene.world.destroy_body(tiles[next]));
        }
        for (std::size_t i = 0; i < scene.characters.size(); ++i) {
            benchmark::DoNotOptimize(
                scene.world.move(scene.characters[i], goals.next(), filter, results[i]));
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
    Goals goals;
    std::int64_t moves = 0;
    for (auto _ : state) {
        for (sweep::BodyId id : scene.characters) {
            benchmark::DoNotOptimize(scene.world.move(id, goals.next()));
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
// A tile destroyed before every frame.
BENCHMARK_CAPTURE(Move_Characters, destroying, sweep::StaticBroadphase::tree, Character::box, false,
                  true)
    ->Name("Move/characters_1000_on_200x200_tiles_destroy_one_a_frame/sweep")
    ->Unit(benchmark::kMillisecond);
// Round characters (discs, capsules) among the same tiles.
BENCHMARK_CAPTURE(Move_Characters, circle, sweep::StaticBroadphase::tree, Character::circle)
    ->Name("Move/circles_1000_on_200x200_tiles/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Move_Characters, capsule, sweep::StaticBroadphase::tree, Character::capsule)
    ->Name("Move/capsules_1000_on_200x200_tiles/sweep")
    ->Unit(benchmark::kMillisecond);
// Octagons among the same tiles: the general mover.
BENCHMARK_CAPTURE(Move_Characters, octagon, sweep::StaticBroadphase::tree, Character::octagon)
    ->Name("Move/octagons_1000_on_200x200_tiles/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(Move_Characters_fresh_result)
    ->Name("Move/characters_1000_on_200x200_tiles_fresh_result/sweep")
    ->Unit(benchmark::kMillisecond);
