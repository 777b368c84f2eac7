// The velocity solve's driving: gravity and damping, the solve of the
// step's contacts in one step (sweeps until converged) or in sub-steps
// (contact_solver.hpp holds the sweeps themselves), and the bodies moved to
// where the velocities it leaves take them. move_along and capped_spin stay
// inline in world_impl.hpp: they run for every body, every sub-step.
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>

namespace sweep {

namespace {

// `v` cut to `most` (L/s) along its direction. A velocity whose square
// overflows `real`, or that overflowed itself (great gravity), is cut along
// the direction of its largest components: the cut never makes NaN.
Vec2 capped_velocity(Vec2 v, real most) {
    const real speed = length(v);
    if (!(speed > most)) {
        return v;
    }
    if (std::isfinite(speed)) {
        return (most / speed) * v;
    }
    const real largest = std::max(std::abs(v.x), std::abs(v.y));
    const Vec2 along = std::isfinite(largest)
                           ? Vec2{v.x / largest, v.y / largest}
                           : Vec2{std::isinf(v.x) ? std::copysign(real(1), v.x) : real(0),
                                  std::isinf(v.y) ? std::copysign(real(1), v.y) : real(0)};
    return most * normalize(along);
}

} // namespace

Vec2 World::Impl::gravity_change(const Body& b, real dt) const {
    const Vec2 change = dt * b.gravity_scale * gravity;
    const real most = 2 * tol.max_translation_speed;
    return length(change) <= most ? change : capped_velocity(change, most);
}

Vec2 World::Impl::velocity_change(const Body& b, real dt) const {
    if (b.force == Vec2{}) {
        return gravity_change(b, dt);
    }
    // (Each term finite; their sum may overflow, or a force on a light body
    // may: capped_velocity cuts an infinite change without NaN.)
    const Vec2 change = dt * b.gravity_scale * gravity + (dt * b.inv_mass) * b.force;
    const real most = 2 * tol.max_translation_speed;
    return length(change) <= most ? change : capped_velocity(change, most);
}

real World::Impl::spin_change(const Body& b, real dt) {
    return std::clamp(dt * b.inv_inertia * b.torque, -k_max_coordinate, k_max_coordinate);
}

void World::Impl::integrate_velocities(real dt) {
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        if (moves(b)) {
            integrate_velocity(b, dt);
        }
    }
    velocities_dt = dt;
}

void World::Impl::integrate_velocity(Body& b, real dt) {
    const real h = dt / static_cast<real>(def.solver_substeps);
    if (b.type == BodyType::dynamic) {
        b.v = capped_velocity(b.v + velocity_change(b, dt), tol.max_translation_speed);
        if (b.torque != 0) {
            b.w += spin_change(b, dt);
        }
        b.v *= real(1) / (real(1) + dt * b.linear_damping);
        b.w *= real(1) / (real(1) + dt * b.angular_damping);
    }
    // Kinematic too. The spin the pose will turn by, so that the solve's
    // impulses follow the turn it makes (as Box2D v3 cuts it before its
    // solve), and within k_max_coordinate L/s at the extent: the impulses
    // are a mass times a point's speed (k_max_mass).
    b.w = capped_spin(b.w, h);
    if (std::abs(b.w) * b.extent > k_max_coordinate) {
        b.w = std::copysign(k_max_coordinate / b.extent, b.w);
    }
}

void World::Impl::integrate_positions(real dt) {
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        if (moves(b)) {
            b.w = capped_spin(b.w, dt);
            move_along(b, dt * b.v, dt * b.w, b.v, b.w);
        }
    }
}

void World::Impl::move_to_substep_poses(real dt) {
    for (const int bi : step_bodies) {
        const auto i = static_cast<std::size_t>(bi);
        if (moves(bodies[i])) {
            move_along(bodies[i], motions[i].dp, substep_angles[i], (real(1) / dt) * motions[i].dp,
                       substep_angles[i] / dt);
        }
    }
}

void World::Impl::solve_substepped(real dt) {
    const int n = def.solver_substeps;
    const real h = dt / static_cast<real>(n);
    motions.assign(solver_bodies.size(), BodyMotion{});
    substep_angles.assign(solver_bodies.size(), 0);
    choose_substep_paths(dt);
    // integrate_velocities gave a step's gravity, which the contact
    // search predicts with; the sub-steps take it a share at a time.
    find_substep_loads(-(dt - h), dt);
    add_substep_loads();
    find_substep_loads(h, dt); // (the same for every later sub-step)
    scale_impulses(contact_batches, solver_contacts, real(1) / static_cast<real>(n));
    // The sweeps go on while the last changed a point's speed by more than
    // this. The relax sweeps: a sub-step's warm start re-applies the
    // impulses of the one before, and after an impact those hold the
    // impact's; two sweeps left a column of three bodies that landed at
    // 47 L/s (inelastic) flying back up at 16 L/s.
    const real sweep_tolerance = k_substep_sweep_tolerance * tol.linear_slop / dt;
    // The sweeps that go on solve only where the sweep before changed
    // something (SubstepTargets::focus).
    substep_disturbed.assign(solver_bodies.size(), std::numeric_limits<int>::min());
    SubstepTargets targets;
    targets.motions = motions;
    targets.inv_h = real(1) / h;
    targets.slop = k_substep_push_slop * tol.linear_slop;
    targets.push_rate = k_substep_push_rate;
    targets.max_push = k_substep_max_push * tol.linear_slop;
    targets.disturbed = substep_disturbed;
    targets.mark = sweep_tolerance / k_substep_disturbance_fraction;
    targets.touch_speed = sweep_tolerance;
    int sweeps = 0;
    for (int sub = 0; sub < n; ++sub) {
        if (sub > 0) {
            add_substep_loads();
        }
        warm_start(contact_batches, solver_contacts, solver_bodies);
        ++targets.sweep;
        targets.push = true;
        targets.measure = true;
        targets.focus = false;
        real change = solve_substep(contact_batches, solver_contacts, solver_bodies, targets);
        // An impact within the sub-step (a fast column landing) passes up a
        // chain of bodies one body a sweep: the sweeps go on before the
        // bodies move, so that they do not move deep into each other.
        targets.aim = false;
        targets.focus = true;
        for (int extra = 0; extra < k_max_extra_push_sweeps && change > sweep_tolerance; ++extra) {
            ++targets.sweep;
            targets.over_relaxation =
                extra < k_push_sweeps_before_over_relaxation ? 1 : k_push_over_relaxation;
            change = solve_substep(contact_batches, solver_contacts, solver_bodies, targets);
            ++sweeps;
        }
        targets.over_relaxation = 1;
        move_substep(h);
        record_substep_path(sub);
        targets.push = false;
        change = 0;
        for (int relax = 0; relax < k_relax_sweeps + k_max_extra_relax_sweeps; ++relax) {
            if (relax >= k_relax_sweeps && change <= sweep_tolerance) {
                break;
            }
            targets.aim = relax == 0; // (the motions stand until the next sub-step)
            targets.measure = relax + 1 >= k_relax_sweeps;
            targets.focus = relax >= k_relax_sweeps;
            ++targets.sweep;
            change = solve_substep(contact_batches, solver_contacts, solver_bodies, targets);
            sweeps += 1 + (relax == 0);
        }
        targets.aim = true;
        if (any_restitution) {
            add_substep_impulses(contact_batches, solver_contacts);
        }
    }
    stats.velocity_sweeps += sweeps;
    scale_impulses(contact_batches, solver_contacts, static_cast<real>(n));
}

SubstepLoad World::Impl::load_of(int bi, real t, real dt) const {
    const Body& b = bodies[static_cast<std::size_t>(bi)];
    SubstepLoad load{bi, {}, 0, b.torque != 0};
    if (b.force != Vec2{}) {
        load.dv = (t / dt) * velocity_change(b, dt);
    } else {
        // The square compare keeps the common, uncut case free of a
        // square root.
        const Vec2 full = dt * b.gravity_scale * gravity;
        const real most = 2 * tol.max_translation_speed;
        load.dv = length_squared(full) <= most * most
                      ? t * b.gravity_scale * gravity
                      : (t / dt) * gravity_change(b, dt); // the change was cut
    }
    if (load.spin) {
        load.dw = (t / dt) * spin_change(b, dt);
    }
    return load;
}

void World::Impl::add_substep_loads() {
    for (const SubstepLoad& load : substep_loads) {
        SolverBody& s = solver_bodies[static_cast<std::size_t>(load.body)];
        s.v += load.dv;
        if (load.spin) {
            s.w += load.dw;
        }
    }
}

void World::Impl::find_substep_loads(real t, real dt) {
    substep_loads.clear();
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::dynamic || !b.awake) {
            continue;
        }
        substep_loads.push_back(load_of(bi, t, dt));
    }
}

void World::Impl::move_substep(real h) {
    for (const int bi : step_bodies) { // (a static body neither moves nor turns)
        const auto i = static_cast<std::size_t>(bi);
        SolverBody& b = solver_bodies[i];
        BodyMotion& m = motions[i];
        b.w = capped_spin(b.w, h);
        m.dp += h * b.v;
        if (b.w != 0) {
            substep_angles[i] += h * b.w;
            m.c = std::cos(substep_angles[i]);
            m.s = std::sin(substep_angles[i]);
        }
    }
}

void World::Impl::choose_substep_paths(real dt) {
    substep_path_of.assign(bodies.size(), -1);
    path_bodies.clear();
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (b.type == BodyType::dynamic && moves(b) &&
            dt * (length(b.v) + std::abs(b.w) * b.extent) > b.inner_radius) {
            substep_path_of[static_cast<std::size_t>(bi)] =
                static_cast<int>(path_bodies.size()) * def.solver_substeps;
            path_bodies.push_back(bi);
        }
    }
    substep_paths.resize(path_bodies.size() * static_cast<std::size_t>(def.solver_substeps));
}

void World::Impl::record_substep_path(int sub) {
    for (const int bi : path_bodies) {
        const auto i = static_cast<std::size_t>(bi);
        substep_paths[static_cast<std::size_t>(substep_path_of[i] + sub)] = {
            motions[i].dp, substep_angles[i], solver_bodies[i].v, solver_bodies[i].w};
    }
}

int World::Impl::substep_velocity_at(int bi, real t, Vec2& v, real& w) const {
    if (def.solver_substeps < 2 || substep_path_of[static_cast<std::size_t>(bi)] < 0) {
        return -1;
    }
    const Body& b = bodies[static_cast<std::size_t>(bi)];
    const Vec2 at = sweep_from(b, t).c1 - b.sweep.c1;
    const real tolerance_squared = tol.linear_slop * tol.linear_slop;
    const auto first = substep_paths.begin() + substep_path_of[static_cast<std::size_t>(bi)];
    Vec2 from{};
    for (auto p = first; p != first + def.solver_substeps; ++p) {
        const Vec2 along = p->dp - from;
        const real reach = length_squared(along);
        const real u = reach > 0 ? std::clamp(dot(at - from, along) / reach, real(0), real(1)) : 0;
        if (length_squared(at - (from + u * along)) <= tolerance_squared) {
            v = p->v;
            w = p->w;
            return static_cast<int>(p - first);
        }
        from = p->dp;
    }
    return -1;
}

World::Impl::PathState World::Impl::substep_state_at(int bi, real t) const {
    const Body& b = bodies[static_cast<std::size_t>(bi)];
    const int path = def.solver_substeps < 2 ? -1 : substep_path_of[static_cast<std::size_t>(bi)];
    if (path < 0) {
        const Sweep s = sweep_from(b, t);
        return {get_transform(s, 0), s.c1, s.a1, b.v, b.w};
    }
    const real n = static_cast<real>(def.solver_substeps);
    const int sub = std::clamp(static_cast<int>(t * n), 0, def.solver_substeps - 1);
    const real u = std::clamp(t * n - static_cast<real>(sub), real(0), real(1));
    const auto at = static_cast<std::size_t>(path + sub);
    const SubstepPathPoint& end = substep_paths[at];
    const SubstepPathPoint start = sub > 0 ? substep_paths[at - 1] : SubstepPathPoint{};
    Sweep pose = b.sweep;
    pose.c1 = b.sweep.c1 + start.dp + u * (end.dp - start.dp);
    pose.a1 = b.sweep.a1 + start.turn + u * (end.turn - start.turn);
    return {get_transform(pose, 0), pose.c1, pose.a1, end.v, end.w};
}

std::optional<real> World::Impl::substep_path_meeting(const ToiEvent& e, real dt) const {
    const real most_approach = k_substep_path_approach * tol.linear_slop / dt;
    const int samples = 2 * def.solver_substeps;
    for (int i = 0; i <= samples; ++i) {
        const real t = e.t + (1 - e.t) * static_cast<real>(i) / static_cast<real>(samples);
        const SubstepPair pair = substep_pair_at(e, t);
        for (int k = 0; k < pair.m.count; ++k) {
            const ManifoldPoint& p = pair.m.points[static_cast<std::size_t>(k)];
            const Vec2 relative = (pair.b.v + cross(pair.b.w, p.point - pair.b.c)) -
                                  (pair.a.v + cross(pair.a.w, p.point - pair.a.c));
            if (p.separation < -tol.linear_slop && -dot(relative, pair.m.normal) > most_approach) {
                return t;
            }
        }
    }
    return std::nullopt;
}

World::Impl::SubstepPair World::Impl::substep_pair_at(const ToiEvent& e, real t) const {
    const PathState a = substep_state_at(shapes[e.shape_a].body, t);
    const PathState b = substep_state_at(shapes[e.shape_b].body, t);
    return {a, b, collide_pair(e.shape_a, e.shape_b, a.xf, b.xf, {0, tol.linear_slop})};
}

void World::Impl::solve_velocities_until_converged(real dt) {
    const real tolerance = k_velocity_tolerance * tol.linear_slop / dt;
    const int cap = k_velocity_iteration_factor * def.velocity_iterations;
    real change = 0;
    for (int i = 0; i < cap; ++i) {
        ++stats.velocity_sweeps;
        change = solve_velocities(contact_batches, solver_contacts, solver_bodies);
        if (i + 1 >= def.velocity_iterations && change <= tolerance) {
            break;
        }
    }
}

} // namespace sweep
