// One build's half of the in-process A/B of World::move (move_ab.cpp,
// scripts/move_ab): the Move benchmark's scene (move_scene.hpp), built in a
// shared module linked with one build's library. The loader opens two such
// modules, each with its own copy of the library, and times them in
// alternating chunks, so that this machine's changes of speed (single runs
// of the Move benchmark range over 20 %) fall on both alike. The module
// exports C functions only: its library's symbols stay inside it.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "move_scene.hpp"

namespace {

struct Run {
    bench::move::Scene scene;
    bench::move::Goals goals;
    std::vector<sweep::MoveResult> results;
};

std::unique_ptr<Run> run;

} // namespace

// Builds the scene of 1000 characters of kind `character` (0 box, 1 disc,
// 2 capsule: bench::move::Character) among tiles in a tree; again if called
// again.
extern "C" __attribute__((visibility("default"))) void sweep_move_ab_build(int character) {
    run = std::make_unique<Run>(
        Run{bench::move::make_scene(1000, sweep::StaticBroadphase::tree,
                                    static_cast<bench::move::Character>(character)),
            {},
            {}});
    run->results.resize(run->scene.characters.size());
}

// Moves every character `frames` times (as Move/characters_1000_on_200x200_tiles
// does, each through a MoveResult of its own); returns the seconds taken.
extern "C" __attribute__((visibility("default"))) double sweep_move_ab_frames(int frames) {
    const sweep::MoveFilter filter;
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) {
        for (std::size_t i = 0; i < run->scene.characters.size(); ++i) {
            (void)run->scene.world.move(run->scene.characters[i], run->goals.next(), filter,
                                        run->results[i]);
        }
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// FNV-1a of the characters' positions: two builds that move alike agree.
extern "C" __attribute__((visibility("default"))) std::uint64_t sweep_move_ab_hash() {
    std::uint64_t h = 1469598103934665603ull;
    for (const sweep::BodyId id : run->scene.characters) {
        const sweep::Vec2 p = run->scene.world.body_state(id).value().xf.p;
        unsigned char bytes[sizeof p];
        std::memcpy(bytes, &p, sizeof p);
        for (const unsigned char c : bytes) {
            h = (h ^ c) * 1099511628211ull;
        }
    }
    return h;
}
