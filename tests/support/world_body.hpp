// One-shape bodies for world tests.
#pragma once

#include <span>

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

} // namespace sweep::test
