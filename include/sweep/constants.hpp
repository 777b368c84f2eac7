// Every tolerance of sweep in one place, each with its unit and why.
//
// Lengths are given in metres and scale with the world's length units per
// metre L (docs/conventions.md, "Units"): a world whose L is 32 (one 32-pixel
// tile per metre) uses a linear slop of 0.005 * 32 = 0.16 pixels. Use
// Tolerances::for_units(L) to get them in world units.
#pragma once

#include <cmath>

#include "sweep/math.hpp"

namespace sweep {

/// Collision and constraint tolerance, metres. Contacts within this distance
/// are considered resting; the solver lets shapes sink up to this deep so that
/// contacts persist from step to step (Box2D's b2_linearSlop).
inline constexpr real k_linear_slop = real(0.005);

/// Penetration up to this depth, metres, counts as touching, not overlapping.
/// A cast that starts within it moving inward reports t = 0 with the face
/// normal; moving along or away reports no hit. Small against the slop so a
/// resting box is "touching" whatever the solver's residual sinking.
inline constexpr real k_touch_tolerance = real(0.25) * k_linear_slop;

/// Contacts are created this far before shapes touch, metres, so that the
/// solver sees them one step ahead (speculative contacts, Catto GDC 2013).
inline constexpr real k_speculative_distance = real(4) * k_linear_slop;

/// Fat AABB margin in the broadphase, metres: a proxy moving less than this
/// does not change the tree.
inline constexpr real k_aabb_margin = real(0.1);

/// Relative normal speeds below this, metres per second, do not bounce
/// (restitution is ignored), so resting contacts do not jitter.
inline constexpr real k_restitution_threshold = real(1);

/// The most a position iteration corrects at once, metres, so deep
/// penetrations resolve over a few steps instead of exploding.
inline constexpr real k_max_linear_correction = real(0.2);

/// Fraction of the remaining penetration removed per position iteration.
inline constexpr real k_baumgarte = real(0.75);

/// A dynamic body slower than this (metres per second) and turning slower
/// than k_angular_sleep_tolerance is at rest, for sleeping (Box2D 2.4's
/// b2_linearSleepTolerance).
inline constexpr real k_linear_sleep_tolerance = real(0.01);

/// Radians per second: 2 degrees a second (Box2D 2.4's b2_angularSleepTolerance).
inline constexpr real k_angular_sleep_tolerance = real(2) * real(3.14159265358979) / real(180);

/// Maximum speed of a body, metres per second (the seed's maxVelocity):
/// keeps a broken scene from producing infinities.
inline constexpr real k_max_translation_speed = real(400);

/// The largest coordinate or size the shape factories take, and the
/// farthest from the origin a body's shapes may reach when it is created,
/// world units L (not scaled by L: a limit of the number type, 1e9 in float,
/// 1e75 in double): far enough below the fourth root of `real`'s largest
/// value that the products of squared lengths (segment distances, hull
/// orientation tests) stay finite. Float resolves a unit only below 1.7e7.
inline constexpr real k_max_coordinate = sizeof(real) == sizeof(float) ? real(1e9) : real(1e75);

/// The largest mass a dynamic body may have (kg; 1e18 in float, 1e150 in
/// double): the velocity solve's impulses are a mass times a relative
/// speed, which with speeds and lever arms within k_max_coordinate (per
/// second) stay finite in `real` below it; World::step cuts a body's speed,
/// and its spin times its extent, to k_max_coordinate L/s to keep them so.
/// (A capsule of density 1e30 at 45,232 rad/s met a kinematic disc with an
/// impulse of 4.8e38, beyond float: its velocity, and every body's it
/// touched, became NaN; fuzz_world. Two 2e8 L boxes of density 1, one
/// spinning at 1e9 rad/s, overflowed the same way before the spin cut.)
inline constexpr real k_max_mass = sizeof(real) == sizeof(float) ? real(1e18) : real(1e150);

/// Whether `x` lies within k_max_coordinate of zero, and so is finite (NaN
/// is not within it).
inline bool in_coordinate_range(real x) { return std::abs(x) <= k_max_coordinate; }

/// Whether both coordinates of `v` lie within k_max_coordinate of zero.
inline bool in_coordinate_range(Vec2 v) {
    return in_coordinate_range(v.x) && in_coordinate_range(v.y);
}

/// The longest step World::step takes, seconds: a longer one would carry
/// bodies beyond what `real` holds at any speed worth simulating (take several
/// steps instead). Scene files have the same limit.
inline constexpr real k_max_step_seconds = real(1);

/// The shortest solve step World::step takes (dt divided by its substeps and
/// WorldDef::solver_substeps), seconds: its inverse and square stay well
/// within `real` (a step of 1e-40 s made every velocity NaN).
inline constexpr real k_min_step_seconds = real(1e-9);

/// Most a dynamic body turns in one step of the solve (a sub-step when
/// the solve has them), radians: its angular speed is cut to this over the
/// step before the solve (as Box2D v3 does) and again before its pose
/// moves (Box2D 2.4's b2_maxRotation). A quarter
/// turn keeps a step's rotation within what the speculative contacts and
/// the time-of-impact phase can follow; without it a light spinning body
/// struck by impacts every step could spin faster without bound.
inline constexpr real k_max_rotation = real(0.5) * real(3.14159265358979);

/// A contact is ground, something a mover stands on, when its normal (from
/// the surface to the mover) is within 60 degrees of up: its component along
/// up is at least this, cos 60 degrees (dimensionless). One-way platforms
/// block only ground contacts, and MoveResult::ground is the body of one, so
/// a slope a character can stand on is one it can land on.
inline constexpr real k_ground_cosine = real(0.5);

/// Iteration cap of GJK. GJK on polygons of at most 8 vertices converges in
/// far fewer; the cap only guards against cycling in degenerate input.
inline constexpr int k_gjk_max_iterations = 20;

/// Iteration cap of conservative advancement in time_of_impact and of the
/// GJK ray cast in shape_cast.
inline constexpr int k_toi_max_iterations = 64;
/// Cap of time_of_impact's advancement steps along one GJK normal's axis
/// between two GJK calls, where one body turns.
inline constexpr int k_toi_axis_steps = 32;

/// The tolerances in world units for a world of L length units per metre.
struct Tolerances {
    real linear_slop = k_linear_slop;                     ///< L
    real touch_tolerance = k_touch_tolerance;             ///< L
    real speculative_distance = k_speculative_distance;   ///< L
    real aabb_margin = k_aabb_margin;                     ///< L
    real restitution_threshold = k_restitution_threshold; ///< L / s
    real max_linear_correction = k_max_linear_correction; ///< L
    real max_translation_speed = k_max_translation_speed; ///< L / s
    real linear_sleep_tolerance = k_linear_sleep_tolerance; ///< L / s

    /// Every length tolerance scaled by `length_units_per_meter` (> 0).
    static constexpr Tolerances for_units(real length_units_per_meter) {
        const real l = length_units_per_meter;
        return {k_linear_slop * l,           k_touch_tolerance * l,
                k_speculative_distance * l,  k_aabb_margin * l,
                k_restitution_threshold * l, k_max_linear_correction * l,
                k_max_translation_speed * l, k_linear_sleep_tolerance * l};
    }
};

} // namespace sweep
