// The Move benchmark's scene (issue 5): 1000 12x12 characters among the
// tiles of a 200x200 map of 16x16 tiles, 70% of them solid (each tile its
// own static box, as bump.lua keeps them), the characters at free cells,
// and the goals they move toward each frame, within +-8 px. Shared by
// mover_bench.cpp and the in-process A/B module (ab_module.cpp), so
// that both time the same moves.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <span>
#include <vector>

#include "sweep/world.hpp"

namespace bench::move {

constexpr int k_map = 200;
constexpr float k_tile = 16;

// One tile per metre, as the Tiled loader sets it (docs/conventions.md);
// the static tiles in `static_broadphase` (a grid derives its cell size from
// them).
inline sweep::WorldDef world_def(sweep::StaticBroadphase static_broadphase) {
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
// tall and 6 wide, radius 3 about a 6-long upright core), which the fast
// path moves through its closed forms for round shapes among boxes; or a
// regular octagon as tall and as wide (flat sides 6 from its centre), which
// only the general mover takes (mover.cpp: GJK casts and manifolds).
enum class Character { box, circle, capsule, octagon };

inline sweep::Shape character_shape(Character character) {
    switch (character) {
    case Character::circle:
        return sweep::Shape(sweep::Circle{{0, 0}, 6});
    case Character::capsule:
        return sweep::make_capsule({0, -3}, {0, 3}, 3).value();
    case Character::octagon: {
        const float pi = 3.14159265f;
        const float radius = 6 / std::cos(pi / 8); // its corners' distance
        std::array<sweep::Vec2, 8> corners;
        for (std::size_t k = 0; k < corners.size(); ++k) {
            const float angle = (static_cast<float>(k) + 0.5f) * pi / 4;
            corners[k] = {radius * std::cos(angle), radius * std::sin(angle)};
        }
        return sweep::make_polygon(corners).value();
    }
    case Character::box:
        break;
    }
    return sweep::make_box(6, 6).value();
}

// The map (a fixed seed: the same tiles every time) and `characters`
// kinematic characters of kind `character` at free cells, shuffled by it.
inline Scene make_scene(int characters,
                        sweep::StaticBroadphase static_broadphase = sweep::StaticBroadphase::tree,
                        Character character = Character::box) {
    Scene scene{sweep::World::make(world_def(static_broadphase)).value(), {}};
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0, 1);
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

// The goals' offsets, drawn in the order the characters move: a frame's
// `characters` moves draw 2 * characters of them.
struct Goals {
    std::mt19937 rng{9};
    std::uniform_real_distribution<float> offset{-8, 8};
    sweep::Vec2 next() { return {offset(rng), offset(rng)}; }
};

} // namespace bench::move
