// The velocity solve of World::step: sequential impulses with warm
// starting, Coulomb friction, a block solver for two-point manifolds and
// restitution after the solve (Catto, "Iterative Dynamics with Temporal
// Coherence", GDC 2005; Box2D 2.4's b2ContactSolver; restitution as Box2D
// v3's b2ApplyRestitution).
//
// It runs on compact copies of what the sweeps read: one SolverBody per
// body (velocities and inverse masses, 20 bytes in float) and one
// SolverContact per contact (its normal, friction, effective masses and
// impulses, about 130 bytes). The world's records are several times that
// (a Contact holds two manifolds; a Body its sweep, transform and
// bookkeeping), and a 5050-box pyramid's 10,000 contacts then no longer fit
// the cache the solve sweeps up to 64 times a step.
#pragma once

#include <array>
#include <span>

#include "sweep/math.hpp"

namespace sweep {

/// Largest condition number for which the two normal points of a manifold
/// are solved together, in the velocity solve and the position correction
/// (Box2D's k_maxConditionNumber).
inline constexpr real k_max_condition_number = 1000;

/// What the velocity solve reads and writes of a body. Static and
/// kinematic bodies have zero inverse masses: impulses do not move them.
struct SolverBody {
    Vec2 v;                ///< L/s, of the centre of mass
    real w = 0;            ///< rad/s
    real inv_mass = 0;     ///< 1/kg
    real inv_inertia = 0;  ///< 1/(kg L^2), about the centre of mass
};

/// One manifold point of a contact, as the solve sees it.
struct SolverPoint {
    Vec2 ra; ///< the point relative to A's centre of mass, world, L
    Vec2 rb; ///< the point relative to B's centre of mass, world, L
    real normal_mass = 0;     ///< effective mass along the normal
    real tangent_mass = 0;    ///< effective mass along the tangent
    real normal_impulse = 0;  ///< accumulated, warm started from the last step
    real tangent_impulse = 0; ///< accumulated, warm started from the last step
    real target_speed = 0;    ///< normal speed aimed for: -gap/dt for a speculative point, else 0
    real approach_speed = 0;  ///< normal speed before the solve (negative approaches), for restitution
    real max_normal_impulse = 0; ///< the largest normal impulse of the solve: did it push?
};

/// One contact, as the solve sees it: bodies by index into the solver's
/// bodies, the manifold's normal (from A to B), its points.
struct SolverContact {
    int body_a = -1;
    int body_b = -1;
    Vec2 normal;
    real friction = 0;
    real restitution = 0;
    int count = 0; ///< points, 1 or 2
    /// Two points solved together (solve_block): false for one point or an
    /// ill-conditioned matrix.
    bool block = false;
    real k11 = 0; ///< the two-point effective mass matrix (block)
    real k12 = 0;
    real k22 = 0;
    std::array<SolverPoint, 2> points{};
};

/// Fills the contact's effective masses, block matrix and approach speeds
/// from its points' lever arms and the bodies' velocities; `dt` (s) sets
/// the speculative points' target speeds from `separations` (L).
void prepare_contact(SolverContact& c, std::span<const SolverBody> bodies,
                     const std::array<real, 2>& separations, real dt);

/// Applies every contact's accumulated impulses (last step's, carried over).
void warm_start(std::span<const SolverContact> contacts, std::span<SolverBody> bodies);

/// One sweep over the contacts, friction before the normal at each.
/// Returns the largest change it made to a point's relative speed (L/s):
/// how far from converged the sweep before it left them.
real solve_velocities(std::span<SolverContact> contacts, std::span<SolverBody> bodies);

/// Bounce after the solve, once the points that pushed are known: a point
/// that approached faster than `restitution_threshold` (L/s) and pushed
/// leaves at its contact's restitution times its approach speed.
void apply_restitution(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                       real restitution_threshold);

} // namespace sweep
