#include "contact_solver.hpp"

#include <algorithm>
#include <cmath>

namespace sweep {
namespace {

Vec2 relative_velocity(const SolverBody& a, const SolverBody& b, const SolverPoint& p) {
    return (b.v + cross(b.w, p.rb)) - (a.v + cross(a.w, p.ra));
}

void apply_impulse(SolverBody& a, SolverBody& b, const SolverPoint& p, Vec2 impulse) {
    a.v -= a.inv_mass * impulse;
    a.w -= a.inv_inertia * cross(p.ra, impulse);
    b.v += b.inv_mass * impulse;
    b.w += b.inv_inertia * cross(p.rb, impulse);
}

real effective_mass(const SolverBody& a, const SolverBody& b, const SolverPoint& p, Vec2 dir) {
    const real ra = cross(p.ra, dir);
    const real rb = cross(p.rb, dir);
    const real k = a.inv_mass + b.inv_mass + a.inv_inertia * ra * ra + b.inv_inertia * rb * rb;
    return k > 0 ? 1 / k : 0;
}

void prepare_block(SolverContact& c, const SolverBody& a, const SolverBody& b) {
    c.block = false;
    if (c.count != 2) {
        return;
    }
    const Vec2 n = c.normal;
    const SolverPoint& p1 = c.points[0];
    const SolverPoint& p2 = c.points[1];
    const real rn1a = cross(p1.ra, n);
    const real rn1b = cross(p1.rb, n);
    const real rn2a = cross(p2.ra, n);
    const real rn2b = cross(p2.rb, n);
    const real m = a.inv_mass + b.inv_mass;
    c.k11 = m + a.inv_inertia * rn1a * rn1a + b.inv_inertia * rn1b * rn1b;
    c.k22 = m + a.inv_inertia * rn2a * rn2a + b.inv_inertia * rn2b * rn2b;
    c.k12 = m + a.inv_inertia * rn1a * rn2a + b.inv_inertia * rn1b * rn2b;
    const real det = c.k11 * c.k22 - c.k12 * c.k12;
    c.block = c.k11 * c.k11 < k_max_condition_number * det;
}

// Both normal impulses of a two-point manifold at once: the 2x2 linear
// complementarity problem solved by enumerating its four cases (Box2D
// 2.4's block solver). Solving the points one after the other makes a
// resting box rock, and a stack drift. Returns the change of the points'
// normal speeds.
real solve_block(SolverContact& c, SolverBody& a, SolverBody& b) {
    const Vec2 n = c.normal;
    SolverPoint& p1 = c.points[0];
    SolverPoint& p2 = c.points[1];
    const real a1 = p1.normal_impulse;
    const real a2 = p2.normal_impulse;
    // b = vn - target - K a: the speeds to cancel with the old impulses removed.
    const real b1 =
        dot(relative_velocity(a, b, p1), n) - p1.target_speed - (c.k11 * a1 + c.k12 * a2);
    const real b2 =
        dot(relative_velocity(a, b, p2), n) - p2.target_speed - (c.k12 * a1 + c.k22 * a2);
    const real det = c.k11 * c.k22 - c.k12 * c.k12;
    real x1 = -(c.k22 * b1 - c.k12 * b2) / det; // both points push
    real x2 = -(c.k11 * b2 - c.k12 * b1) / det;
    if (x1 < 0 || x2 < 0) {
        x1 = -b1 / c.k11; // only point 1 pushes; point 2 must be separating
        x2 = 0;
        if (x1 < 0 || c.k12 * x1 + b2 < 0) {
            x1 = 0; // only point 2 pushes
            x2 = -b2 / c.k22;
            if (x2 < 0 || c.k12 * x2 + b1 < 0) {
                x2 = 0; // neither pushes: both must be separating
                if (b1 < 0 || b2 < 0) {
                    return 0; // no case holds (numerical trouble): keep the impulses
                }
            }
        }
    }
    p1.normal_impulse = x1;
    p2.normal_impulse = x2;
    p1.max_normal_impulse = std::max(p1.max_normal_impulse, x1);
    p2.max_normal_impulse = std::max(p2.max_normal_impulse, x2);
    apply_impulse(a, b, p1, (x1 - a1) * n);
    apply_impulse(a, b, p2, (x2 - a2) * n);
    // The change of the two points' normal speeds: K times the impulses'.
    const real d1 = x1 - a1;
    const real d2 = x2 - a2;
    return std::max(std::abs(c.k11 * d1 + c.k12 * d2), std::abs(c.k12 * d1 + c.k22 * d2));
}

// The change of a point's speed along a direction that an impulse
// `lambda` along it makes, given the point's effective mass there.
real speed_change(real lambda, real mass) { return mass > 0 ? std::abs(lambda) / mass : 0; }

} // namespace

void prepare_contact(SolverContact& c, std::span<const SolverBody> bodies,
                     const std::array<real, 2>& separations, real dt) {
    const SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
    const SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
    const Vec2 n = c.normal;
    const Vec2 t = right_perp(n);
    for (int i = 0; i < c.count; ++i) {
        SolverPoint& p = c.points[static_cast<std::size_t>(i)];
        p.normal_mass = effective_mass(a, b, p, n);
        p.tangent_mass = effective_mass(a, b, p, t);
        p.approach_speed = dot(relative_velocity(a, b, p), n);
        // A speculative point may close its gap this step, no further.
        const real separation = separations[static_cast<std::size_t>(i)];
        p.target_speed = separation > 0 ? -separation / dt : 0;
    }
    prepare_block(c, a, b);
}

void warm_start(std::span<const SolverContact> contacts, std::span<SolverBody> bodies) {
    for (const SolverContact& c : contacts) {
        SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
        SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
        const Vec2 n = c.normal;
        const Vec2 t = right_perp(n);
        for (int i = 0; i < c.count; ++i) {
            const SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            apply_impulse(a, b, p, p.normal_impulse * n + p.tangent_impulse * t);
        }
    }
}

real solve_velocities(std::span<SolverContact> contacts, std::span<SolverBody> bodies) {
    real change = 0;
    for (SolverContact& c : contacts) {
        SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
        SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
        const Vec2 n = c.normal;
        const Vec2 t = right_perp(n);
        // Friction first: the normal constraint matters more, so it goes last.
        for (int i = 0; i < c.count; ++i) {
            SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            if (p.normal_impulse == 0 && p.tangent_impulse == 0) {
                continue; // Coulomb's cone is a point there: no friction impulse
            }
            const real vt = dot(relative_velocity(a, b, p), t);
            const real max_friction = c.friction * p.normal_impulse; // Coulomb's law
            const real new_impulse = std::clamp(p.tangent_impulse - p.tangent_mass * vt,
                                                -max_friction, max_friction);
            const real lambda = new_impulse - p.tangent_impulse;
            p.tangent_impulse = new_impulse;
            apply_impulse(a, b, p, lambda * t);
            change = std::max(change, speed_change(lambda, p.tangent_mass));
        }
        if (c.block) {
            change = std::max(change, solve_block(c, a, b));
            continue;
        }
        for (int i = 0; i < c.count; ++i) {
            SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            const real vn = dot(relative_velocity(a, b, p), n);
            const real new_impulse =
                std::max(p.normal_impulse - p.normal_mass * (vn - p.target_speed), real(0));
            const real lambda = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse = std::max(p.max_normal_impulse, new_impulse);
            apply_impulse(a, b, p, lambda * n);
            change = std::max(change, speed_change(lambda, p.normal_mass));
        }
    }
    return change;
}

void apply_restitution(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                       real restitution_threshold) {
    for (SolverContact& c : contacts) {
        if (c.restitution == 0) {
            continue;
        }
        SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
        SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
        const Vec2 n = c.normal;
        for (int i = 0; i < c.count; ++i) {
            SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            if (p.approach_speed > -restitution_threshold || p.max_normal_impulse == 0) {
                continue;
            }
            const real vn = dot(relative_velocity(a, b, p), n);
            const real new_impulse = std::max(
                p.normal_impulse - p.normal_mass * (vn + c.restitution * p.approach_speed),
                real(0));
            const real lambda = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            apply_impulse(a, b, p, lambda * n);
        }
    }
}

} // namespace sweep
