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
/// of them was destroyed: then its ids are stale). The shapes and bodies
/// are the pair's as its contact last met them (as its begin event named
/// them, unless the contact search has since met the pair from the other
/// side: then swapped); a pair that goes on touching has no end, whichever
/// side the search meets it from.
struct ContactEndEvent {
    ShapeId shape_a;
    ShapeId shape_b;
    BodyId body_a;
    BodyId body_b;
};

/// Two shapes hit each other this step faster than WorldDef's hit speed
/// threshold: one per contact, at its fastest approaching point that pushed
/// (at most one a pair a step, from the solve, from an impact event or from
/// a sweep that stopped a body at a wall, whichever comes first). A pair
/// already touching hits too when it closes that fast (a box at rest on the
/// ground thrown down onto it), as in Box2D v3; a resting pair closes only
/// by gravity's g dt a step. A body that WorldDef::bounds removed at the end
/// of the step keeps its hits, their ids stale (StepEvents::removed).
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
/// with it, GJK's distance 0, at the end of the step). A sensor's visitors
/// are the shapes of other bodies that are not sensors and whose filters
/// collide with the sensor's (should_collide); a static sensor's, those of
/// moving bodies only. A destroyed shape's visits end at the next step,
/// their ids stale.
struct SensorEvent {
    ShapeId sensor;
    ShapeId visitor;
    BodyId sensor_body;
    BodyId visitor_body;
};

/// How continuous collision cut a body's motion short.
enum class TimeOfImpactKind {
    /// A sweep against static geometry stopped the body at a wall: the
    /// final sweep of its pose, the sweep of its path up to an event with
    /// another body, or the sweep of the path such an event gave it (met in
    /// time order with the other events: it rests at the wall from then,
    /// and a body that runs into it there meets it braced by the wall,
    /// immovable towards it). It hit the wall there: the approach of their
    /// contact was solved as an impact against an immovable body, with the
    /// pair's restitution and friction. One per StepStats::toi_events.
    static_sweep,
    /// Two moving bodies met between poses of the step; the impact changed
    /// their velocities there and they went on from that time. One per
    /// StepStats::toi_pair_events.
    pair,
    /// The body was stopped at an impact the world did not resolve (a cap
    /// on events was hit, or the impact could not be computed); the rest of
    /// its step was lost (against a kinematic body it was carried with that
    /// body instead, as if fixed to it). Counted in StepStats::toi_cap_hits.
    clamped,
    /// The body was in a jam that position correction and the final sweep
    /// left deeper than 2 linear slops, though it was within 2 where the
    /// step began (and it and the other body of the pair were each within 2
    /// of everything there), when their rounds hit their cap
    /// (WorldDef::correction_rounds) or correction gave up on it (its
    /// sweeps rising too slowly to get out): it went back to its pose at
    /// the step's start, at rest, and lost its step (fraction 0;
    /// docs/conventions.md, "Penetration in the step"). Counted in
    /// StepStats::toi_cap_hits.
    returned,
};

/// Where continuous collision stopped or redirected a dynamic body during
/// the step, in the order the world resolved them (after Box2D 2.4's
/// SolveTOI; see world.hpp).
struct TimeOfImpactEvent {
    TimeOfImpactKind kind = TimeOfImpactKind::static_sweep;
    BodyId body;  ///< the body stopped, or (pair) the body of the first shape
    BodyId other; ///< pair: the body of the second shape; otherwise a null id (index -1)
    /// World, L. static_sweep, clamped and returned: the body's centre of
    /// mass where it stopped. pair: the first contact point at the time of
    /// impact.
    Vec2 point;
    real fraction = 0; ///< time of the impact as a fraction of the (sub-)step, [0, 1]
};

/// Everything one step reports; World::events() holds it until the next step.
struct StepEvents {
    std::vector<ContactBeginEvent> contact_begin;
    std::vector<ContactEndEvent> contact_end;
    std::vector<ContactHitEvent> contact_hit;
    std::vector<SensorEvent> sensor_begin;
    std::vector<SensorEvent> sensor_end;
    std::vector<BodyId> removed; ///< bodies that left WorldDef::bounds, now destroyed (stale)
    std::vector<TimeOfImpactEvent> time_of_impact; ///< continuous collision's stops and impacts
};

/// A touching pair at the end of the last step, for World::touching_contacts.
struct ContactData {
    ShapeId shape_a;
    ShapeId shape_b;
    BodyId body_a;
    BodyId body_b;
    Manifold manifold;                    ///< at the final poses, points closer than the slop
    std::array<real, 2> normal_impulse{}; ///< N s (mass L / s), per velocity-solver point
    /// N s, along right_perp(normal): friction. Within Coulomb's cone, at
    /// most the pair's friction times the point's normal impulse (each
    /// sweep of the solve takes friction after the normal), except at a
    /// point whose bounce (restitution) took back part of its push after
    /// the solve: the bounce is frictionless and leaves friction's impulse.
    std::array<real, 2> tangent_impulse{};
};

} // namespace sweep
