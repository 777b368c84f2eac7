// One build's half of the in-process A/B (ab.cpp, scripts/ab): a scene of
// the benchmarks, built in a shared module linked with one build's library.
// The loader opens two such modules, each with its own copy of the library,
// and times them in alternating chunks, so that this machine's changes of
// speed (single runs of the Move benchmark range over 20 %, of the pyramid's
// steps over 50 %) fall on both alike. The module exports C functions only:
// its library's symbols stay inside it.
//
// Scenes: 0, 1, 2, 5: the Move benchmark's (move_scene.hpp), 1000
// characters of boxes, discs, capsules or octagons, a frame a move of each;
// 3: Box2D's pyramid
// of World/pyramid_5050, 4: the 1,000 falling bodies of World/fall_1k, 6:
// the 1,000 thrown, spinning bars of World/spinners_1k (world_scenes.hpp),
// a frame a step of 1/60 s.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "move_scene.hpp"
#include "world_scenes.hpp"

namespace {

constexpr int k_pyramid = 3;
constexpr int k_fall_1k = 4;
constexpr int k_octagons = 5;
constexpr int k_spinners = 6;

struct Run {
    std::unique_ptr<sweep::World> world;
    std::vector<sweep::BodyId> bodies; // the characters, or the dynamic bodies
    bool moves = true;                 // a frame moves every character, else steps
    bench::move::Goals goals;
    std::vector<sweep::MoveResult> results;
};

std::unique_ptr<Run> run;

// The World benchmark's scene of step scene `scene`.
bench::world::FallScene step_scene(int scene) {
    switch (scene) {
    case k_pyramid:
        return bench::world::pyramid_scene();
    case k_fall_1k:
        return bench::world::fall_scene(1000);
    default:
        return bench::world::spinners_scene(1000);
    }
}

} // namespace

// Builds scene `scene` (see above); again if called again.
extern "C" __attribute__((visibility("default"))) void sweep_ab_build(int scene) {
    run = std::make_unique<Run>();
    if (scene == k_pyramid || scene == k_fall_1k || scene == k_spinners) {
        run->moves = false;
        run->world = bench::world::make_sweep_world(
            step_scene(scene), sweep::WorldDef{}.solver_substeps, &run->bodies);
        return;
    }
    const auto character = scene == k_octagons ? bench::move::Character::octagon
                                               : static_cast<bench::move::Character>(scene);
    bench::move::Scene characters =
        bench::move::make_scene(1000, sweep::StaticBroadphase::tree, character);
    run->world = std::make_unique<sweep::World>(std::move(characters.world));
    run->bodies = std::move(characters.characters);
    run->results.resize(run->bodies.size());
}

// Runs `frames` frames (as the scene's benchmark does: each character moved
// through a MoveResult of its own, or a step); returns the seconds taken.
extern "C" __attribute__((visibility("default"))) double sweep_ab_frames(int frames) {
    const sweep::MoveFilter filter;
    sweep::World& world = *run->world;
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) {
        if (!run->moves) {
            (void)world.step(bench::world::k_dt);
            continue;
        }
        for (std::size_t i = 0; i < run->bodies.size(); ++i) {
            (void)world.move(run->bodies[i], run->goals.next(), filter, run->results[i]);
        }
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// FNV-1a of the bodies' poses: two builds that move alike agree.
extern "C" __attribute__((visibility("default"))) std::uint64_t sweep_ab_hash() {
    std::uint64_t h = 1469598103934665603ull;
    for (const sweep::BodyId id : run->bodies) {
        const sweep::Transform xf = run->world->body_state(id).value().xf;
        unsigned char bytes[sizeof xf];
        std::memcpy(bytes, &xf, sizeof xf);
        for (const unsigned char c : bytes) {
            h = (h ^ c) * 1099511628211ull;
        }
    }
    return h;
}
