// What happened during a step, buffered until the step ends (so callbacks
// never run while the world is half updated, as in Box2D v3's event arrays).
#pragma once

#include <array>
#include <vector>

#include "sweep/body.hpp"
#include "sweep/manifold.hpp"

namespace sweep {

/// Two shapes started touching this step: at the end of the step their
/// manifold has a point closer than the linear slop. Normal from A to B.
struct ContactBeginEvent {
    ShapeId shape_a;
    ShapeId shape_b;
    BodyId body_a;
    BodyId body_b;
    Vec2 point;  ///< world, the first manifold point
    Vec2 normal; ///< world unit vector from A to B
};

/// Two shapes that touched at the end of the last step no longer do (or one
/// of them was destroyed: then its ids are stale).
struct ContactEndEvent {
    ShapeId shape_a;
    ShapeId shape_b;
    BodyId body_a;
    BodyId body_b;
};

/// Two shapes hit each other this step faster than WorldDef's hit speed
/// threshold: one per contact, at its fastest approaching point that pushed.
struct ContactHitEvent {
    ShapeId shape_a;
    ShapeId shape_b;
    BodyId body_a;
    BodyId body_b;
    Vec2 point;              ///< world
    Vec2 normal;             ///< world unit vector from A to B
    real approach_speed = 0; ///< L/s, > 0: normal speed at which they closed
};

/// A shape began or stopped overlapping a sensor (sharing at least a point
/// with it, at the end of the step).
struct SensorEvent {
    ShapeId sensor;
    ShapeId visitor;
    BodyId sensor_body;
    BodyId visitor_body;
};

/// Everything one step reports; World::events() holds it until the next step.
struct StepEvents {
    std::vector<ContactBeginEvent> contact_begin;
    std::vector<ContactEndEvent> contact_end;
    std::vector<ContactHitEvent> contact_hit;
    std::vector<SensorEvent> sensor_begin;
    std::vector<SensorEvent> sensor_end;
    std::vector<BodyId> removed; ///< bodies that left WorldDef::bounds, now destroyed (stale)
};

/// A touching pair at the end of the last step, for World::touching_contacts.
struct ContactData {
    ShapeId shape_a;
    ShapeId shape_b;
    BodyId body_a;
    BodyId body_b;
    Manifold manifold;                    ///< at the final poses, points closer than the slop
    std::array<real, 2> normal_impulse{}; ///< N s (mass L / s), per velocity-solver point
    std::array<real, 2> tangent_impulse{};
};

} // namespace sweep
