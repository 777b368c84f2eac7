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
///
/// `one_way` makes the other body a one-way platform whose up direction is
/// its local +y axis (world +y for an unrotated body, turning with it). It
/// blocks, as `slide` does, only motion against up that meets it at a ground
/// contact: one whose normal is within 60 degrees of up (k_ground_cosine),
/// so the mover lands on it from above. Motion along or with up, a contact
/// on its side or underside, and a mover that starts overlapping it pass
/// through unreported, and it never pushes an overlapping mover out. Chain
/// segments of a platform collide from both sides, so a polyline works
/// whichever way its points are wound. The rule is the contact normal's
/// (as Godot's one-way shapes): a box meeting the platform's end from the
/// side passes, but a rounded mover whose bottom is less than half its
/// radius below the top meets the end within 60 degrees of up and lands.
enum class MoveResponse {
    ignore,  ///< no interaction, not reported
    slide,   ///< stop at contact, continue along the surface with what remains
    touch,   ///< stop at contact and end the move
    cross,   ///< pass through, reported once a move, in time order with the rest
    bounce,  ///< stop at contact, continue with the remaining motion reflected
    one_way, ///< a one-way platform: slide when landing on it from its up side, else ignore
};

/// Picks the response to `other`; an empty filter slides on everything.
using MoveFilter = std::function<MoveResponse(BodyId other)>;

/// One contact met during a move, in the order they happened.
struct MoveContact {
    BodyId other;
    real time = 0; ///< fraction of the move's timeslice at contact, [0, 1]
    /// World, on the other body's surface (between two axis-aligned boxes
    /// meeting face to face, the middle of the faces' common stretch); for
    /// a body crossed from inside (the mover in it as a subdivision began),
    /// where the cast met it, inside it.
    Vec2 point;
    Vec2 normal; ///< world unit vector from the other body to the mover
    /// L, the shapes' separation where the move recorded the contact (the
    /// pose at `time`): about 0 (within the touch tolerance), negative
    /// only for an overlapping start. Faces: the gap along the normal.
    /// Where the contact met at corners and the move went on along the
    /// surfaces before recording it (a box landing on a floor, its corner
    /// by a tile's corner, then sliding over the tile's top), or the pair
    /// measured apart: their signed distance at that pose, which may then
    /// exceed the touch tolerance (and the normal stays the one met).
    real separation = 0;
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
    /// The body started overlapping something that blocks it, beyond the
    /// touch tolerance, and was pushed out before moving (World::move).
    bool started_overlapping = false;
    /// That push, world, L: zero when the body did not start overlapping,
    /// or was wedged where no push within its size frees it of the level
    /// and of the moving bodies both and it already stood clear of the level.
    Vec2 pushout;
    /// What the body stands on: the other body of the last ground contact
    /// (a blocking response, normal within 60 degrees of world +y:
    /// k_ground_cosine), the leading one among ties; a null id (index -1)
    /// when the move met no ground. The world keeps it: World::step carries
    /// a kinematic body whose ground is kinematic (see World::step).
    BodyId ground;
};

/// The seed's MAX_TIMESLICE_SUBDIVISIONS: a move never takes more steps.
inline constexpr int k_max_move_iterations = 32;

} // namespace sweep
