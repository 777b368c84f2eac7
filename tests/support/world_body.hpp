// One-shape bodies for world tests.
#pragma once

#include <random>
#include <span>
#include <vector>

#include "sweep/world.hpp"

namespace sweep::test {

/// Adds a body of `type` with the one shape `shape` (body frame) of
/// `material`, its origin at `position` (world, L), moving at `velocity`
/// (L/s) and `angular_velocity` (rad/s). For valid bodies only: reading
/// the value of a rejected one is a programming error (Result::value).
inline BodyId add_body(World& world, BodyType type, const Shape& shape, Vec2 position,
                       Vec2 velocity = {}, Material material = {}, real angular_velocity = 0) {
    BodyDef def;
    def.type = type;
    def.position = position;
    def.linear_velocity = velocity;
    def.angular_velocity = angular_velocity;
    const ShapeDef sd(shape, material);
    return world.create_body(def, std::span(&sd, 1)).value();
}

/// A pile of 100 boxes of random sizes (half extents 0.2 to 0.5 L, from a
/// std::mt19937 seeded with `seed`), dropped from rest in 17 rows of 6
/// into a container 7 L wide (a ground box's top at y = 0, walls 30 L
/// high); returns the boxes. Such piles of ours rocked for ever, never
/// asleep, where Box2D 2.4's fell asleep (warm_start of batches).
inline std::vector<BodyId> add_random_box_pile(World& world, unsigned seed) {
    add_body(world, BodyType::static_body, make_box(4.5f, 0.5f).value(), {0, -0.5f});
    for (const real x : {real(-4), real(4)}) {
        add_body(world, BodyType::static_body, make_box(0.5f, 15).value(), {x, 14.5f});
    }
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> half(real(0.2f), real(0.5f));
    std::vector<BodyId> boxes;
    for (int i = 0; i < 100; ++i) {
        const real hx = half(rng);
        const real hy = half(rng);
        boxes.push_back(add_body(world, BodyType::dynamic, make_box(hx, hy).value(),
                                 {real(-2.5f) + real(i % 6), real(1) + real(i / 6)}));
    }
    return boxes;
}

} // namespace sweep::test
