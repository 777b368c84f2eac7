// Collide-and-slide movement for characters: World::move's inputs and
// outputs. The method is the seeds' timeslice subdivision (Sacred Software,
// "Collisions, Part 1": earliest collision first, the rest of the timeslice
// after it, a cap on subdivisions, ties broken by contact surface area) and
// the recursion of "Collision Handling" (slide along what was hit until the
// remaining motion is free), with bump.lua's named responses.
#pragma once

#include <functional>
#include <vector>

#include "sweep/body.hpp"

namespace sweep {

/// How a moving body reacts to another body it meets.
enum class MoveResponse {
    ignore, ///< no interaction, not reported
    slide,  ///< stop at contact, continue along the surface with what remains
    touch,  ///< stop at contact and end the move
    cross,  ///< pass through, reported
    bounce, ///< stop at contact, continue with the remaining motion reflected
};

/// Picks the response to `other`; an empty filter slides on everything.
using MoveFilter = std::function<MoveResponse(BodyId other)>;

/// One contact met during a move, in the order they happened.
struct MoveContact {
    BodyId other;
    real time = 0;       ///< fraction of the move's timeslice at contact, [0, 1]
    Vec2 point;          ///< world, on the other body's surface
    Vec2 normal;         ///< world unit vector from the other body to the mover
    real separation = 0; ///< L, at contact (about 0; negative only for an overlapping start)
    real surface_area =
        0; ///< L: overlap length of the touching features (0 for a corner or circle)
    MoveResponse response = MoveResponse::slide;
};

/// What a move did.
struct MoveResult {
    Vec2 position;                     ///< the body's final origin, world
    std::vector<MoveContact> contacts; ///< ordered by time, then by the tie rules
    int iterations = 0;                ///< timeslice subdivisions used
    bool iteration_cap_hit = false;    ///< k_max_move_iterations reached: motion may be incomplete
    bool started_overlapping = false;  ///< the body was pushed out before moving
    Vec2 pushout;                      ///< that push, world (zero when not overlapping)
};

/// The seed's MAX_TIMESLICE_SUBDIVISIONS: a move never takes more steps.
inline constexpr int k_max_move_iterations = 32;

} // namespace sweep
