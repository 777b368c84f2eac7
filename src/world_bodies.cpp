// What a game does to bodies between steps, beyond their velocities
// (world.cpp): teleports, new types, shapes added and taken away, new
// materials, forces and torques for the next step, impulses, gravity
// scales, damping, fixed rotation and the world's gravity. The forces are
// applied by the step with gravity (world_solve.cpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "world_impl.hpp"

namespace sweep {

namespace {

// The definitions of body `b`'s shapes (shape and material, all the mass
// needs), in its order, with `instead` for shape `except` (or without it).
std::vector<ShapeDef> shape_defs_of(const World::Impl& w, const Body& b, int except,
                                    const ShapeDef* instead) {
    std::vector<ShapeDef> defs;
    for (int si : b.shapes) {
        if (si != except) {
            defs.push_back({w.shapes[si].shape, w.shapes[si].material});
        } else if (instead) {
            defs.push_back(*instead);
        }
    }
    return defs;
}

// Why body `b`'s shapes could not be those of a body of `type` at `xf`
// (shape_def_error on each), if they could not.
std::optional<Error> shapes_error(const World::Impl& w, const Body& b, BodyType type,
                                  const Transform& xf, const char* call) {
    for (int si : b.shapes) {
        const ShapeRecord& s = w.shapes[si];
        if (std::optional<Error> error = shape_def_error({s.shape, s.material}, type, xf, call)) {
            return error;
        }
    }
    return std::nullopt;
}

} // namespace

Result<void> World::set_transform(BodyId id, Vec2 position, real angle) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    if (!is_finite(position) || !std::isfinite(angle)) {
        return Error{ErrorCode::invalid_input, "set_transform: NaN or infinite pose"};
    }
    const Transform xf{position, Rot::from_angle(angle)};
    const Body& b = w.bodies[id.index];
    if (std::optional<Error> error = shapes_error(w, b, b.type, xf, "set_transform")) {
        return *error;
    }
    if (std::optional<Error> refused = w.refusal_inside("set_transform")) {
        return *refused;
    }
    w.teleport(id.index, xf, angle);
    return {};
}

void World::Impl::teleport(int index, const Transform& xf, real angle) {
    Body& b = bodies[index];
    // What slept on it or against it, and its own island, wake where it
    // was; what sleeps where it lands wakes below.
    wake_island(index, false);
    for (int si : b.shapes) {
        wake_near_shape(shapes[si].shape, b.xf);
    }
    b.xf = xf;
    b.sweep.c1 = b.sweep.c2 = transform_point(xf, b.sweep.local_center);
    b.sweep.a1 = b.sweep.a2 = angle;
    set_ground(index, {}); // it stands on nothing until a move finds a ground
    const BodyId id = body_id(index);
    for (std::size_t ri = 0; rider_counts[index].riders > 0 && ri < bodies.size(); ++ri) {
        if (bodies[ri].alive && bodies[ri].ground == id) {
            set_ground(static_cast<int>(ri), {}); // nor does anything stand on it
        }
    }
    for (int si : b.shapes) {
        ShapeRecord& s = shapes[si];
        const Aabb box = compute_aabb(s.shape, xf);
        if (b.type == BodyType::static_body) {
            // (The static broadphase and the seams are found again, as for
            // a static body created or destroyed.)
            destroy_static_proxy(s.tree_proxy);
            s.tree_proxy = create_static_proxy(si, box);
        } else {
            // A fresh fat box, listed as moved for the next contact search.
            set_moving_fat_aabb(s.tree_proxy, inflate(box, tol.aabb_margin));
        }
        wake_near(inflate(box, tol.speculative_distance), false);
    }
}

Result<ShapeId> World::create_shape(BodyId id, const ShapeDef& shape) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    const Body& b = w.bodies[id.index];
    if (std::optional<Error> error = shape_def_error(shape, b.type, b.xf, "create_shape")) {
        return *error;
    }
    std::vector<ShapeDef> defs = shape_defs_of(w, b, -1, nullptr);
    defs.push_back(shape);
    const Result<BodyMass> mass = body_mass(b.type, defs, "create_shape");
    if (!mass) {
        return mass.error();
    }
    if (std::optional<Error> refused = w.refusal_inside("create_shape")) {
        return *refused;
    }
    w.wake_island(id.index, false);
    const int si = w.add_shape(id.index, shape);
    w.reset_mass(id.index, *mass);
    w.note_seams_of(b); // (a kinematic body of several shapes has seams of its own)
    w.wake_near_shape(shape.shape, b.xf);
    return w.shape_id(si);
}

Result<void> World::destroy_shape(ShapeId id) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return Error{ErrorCode::stale_handle, "destroy_shape: stale or null shape handle"};
    }
    const int index = w.shapes[id.index].body;
    Body& b = w.bodies[index];
    if (b.shapes.size() == 1) {
        return Error{ErrorCode::invalid_input,
                     "destroy_shape: a body keeps at least one shape (destroy the body instead)"};
    }
    const Result<BodyMass> mass =
        body_mass(b.type, shape_defs_of(w, b, id.index, nullptr), "destroy_shape");
    if (!mass) {
        return mass.error();
    }
    if (std::optional<Error> refused = w.refusal_inside("destroy_shape")) {
        return *refused;
    }
    // What rested on it, and its own island, wake.
    w.wake_island(index, false);
    w.wake_near_shape(w.shapes[id.index].shape, b.xf);
    w.note_seams_of(b);
    w.remove_shape(id.index);
    b.remove_shape_index(id.index);
    w.reset_mass(index, *mass);
    return {};
}

Result<void> World::set_material(ShapeId id, const Material& material) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return Error{ErrorCode::stale_handle, "set_material: stale or null shape handle"};
    }
    ShapeRecord& s = w.shapes[id.index];
    const int index = s.body;
    const Body& b = w.bodies[index];
    const ShapeDef changed(s.shape, material);
    if (std::optional<Error> error = shape_def_error(changed, b.type, b.xf, "set_material")) {
        return *error;
    }
    const Result<BodyMass> mass =
        body_mass(b.type, shape_defs_of(w, b, id.index, &changed), "set_material");
    if (!mass) {
        return mass.error();
    }
    if (std::optional<Error> refused = w.refusal_inside("set_material")) {
        return *refused;
    }
    const bool new_density = material.density != s.material.density;
    s.material = material;
    // What rests on it may now slide (ice), and the body itself.
    w.wake_island(index, false);
    w.wake_near_shape(s.shape, b.xf);
    if (new_density) {
        w.reset_mass(index, *mass);
    }
    return {};
}

void World::Impl::reset_mass(int index, const BodyMass& mass) {
    Body& b = bodies[index];
    const Vec2 old_center = b.sweep.c2;
    set_mass(b, mass);
    // The new centre moves as the point of the body it is (Box2D's
    // ResetMassData): the body's motion is unchanged.
    b.v += cross(b.w, b.sweep.c2 - old_center);
    b.sweep.a1 = b.sweep.a2;
}

Result<void> World::set_body_type(BodyId id, BodyType type) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    const Body& b = w.bodies[id.index];
    if (std::optional<Error> error = shapes_error(w, b, type, b.xf, "set_body_type")) {
        return *error;
    }
    const Result<BodyMass> mass =
        body_mass(type, shape_defs_of(w, b, -1, nullptr), "set_body_type");
    if (!mass) {
        return mass.error();
    }
    if (std::optional<Error> refused = w.refusal_inside("set_body_type")) {
        return *refused;
    }
    if (type != b.type) {
        w.change_type(id.index, type, *mass);
    }
    return {};
}

void World::Impl::change_type(int index, BodyType type, const BodyMass& mass) {
    Body& b = bodies[index];
    wake_island(index, false);
    note_seams_of(b); // (a kinematic body of several shapes had seams of its own)
    const bool was_static = b.type == BodyType::static_body;
    b.type = type;
    if (type == BodyType::static_body) {
        // What a step keeps of moving bodies, as a body made static has it:
        // the steps pass static bodies by (step_bodies).
        b.v = {};
        b.w = 0;
        b.force = {};
        b.torque = 0;
        b.stopped = false;
        b.fast = false;
        b.toi_clamped = false;
        b.toi_carried = false;
        b.into_wall = {};
    }
    set_mass(b, mass);
    if (b.inv_inertia == 0 && type == BodyType::dynamic) {
        b.w = 0; // it cannot turn
    }
    b.sweep.a1 = b.sweep.a2;
    for (int si : b.shapes) {
        ShapeRecord& s = shapes[si];
        const Aabb box = compute_aabb(s.shape, b.xf);
        if (was_static != (type == BodyType::static_body)) {
            if (was_static) {
                destroy_static_proxy(s.tree_proxy);
                s.tree_proxy = create_moving_proxy(box, si);
            } else {
                destroy_moving_proxy(s.tree_proxy);
                s.tree_proxy = create_static_proxy(si, box);
            }
        }
        if (s.moving) {
            moving_of(s).near_version = 0; // (its static neighbourhood, found again)
        }
        wake_near(inflate(box, tol.speculative_distance), false);
    }
    note_seams_of(b);
    note_all_shapes_changed(); // no manifold made for the old type is carried
}

Result<void> World::apply_force(BodyId id, Vec2 force, Vec2 point) {
    if (!is_finite(force) || !in_coordinate_range(point)) {
        return Error{ErrorCode::invalid_input,
                     "apply_force: NaN or infinite force, or a point beyond k_max_coordinate"};
    }
    return impl_->add_load(id, force, point, 0, "apply_force");
}

Result<void> World::apply_torque(BodyId id, real torque) {
    if (!std::isfinite(torque)) {
        return Error{ErrorCode::invalid_input, "apply_torque: NaN or infinite torque"};
    }
    return impl_->add_load(id, {}, std::nullopt, torque, "apply_torque");
}

Result<Body*> World::Impl::dynamic_body_to_push(BodyId id, const char* call) {
    if (!find(id)) {
        return stale();
    }
    if (std::optional<Error> refused = refusal_inside(call)) {
        return *refused;
    }
    Body& b = bodies[id.index];
    return b.type == BodyType::dynamic ? &b : nullptr;
}

Result<void> World::Impl::add_load(BodyId id, Vec2 force, std::optional<Vec2> point, real torque,
                                   const char* call) {
    const Result<Body*> found = dynamic_body_to_push(id, call);
    if (!found || !*found) {
        return found ? Result<void>() : Result<void>(found.error());
    }
    Body& b = **found;
    const Vec2 total = b.force + force;
    const real total_torque =
        b.torque + (point ? torque + cross(*point - b.sweep.c2, force) : torque);
    if (!is_finite(total) || !std::isfinite(total_torque)) {
        return Error{ErrorCode::invalid_input,
                     std::string(call) + ": the body's total force or torque would not be finite"};
    }
    if (force != Vec2{} || torque != 0) {
        wake_island(id.index, false);
    }
    b.force = total;
    b.torque = total_torque;
    return {};
}

Result<void> World::apply_linear_impulse(BodyId id, Vec2 impulse, Vec2 point) {
    if (!is_finite(impulse) || !in_coordinate_range(point)) {
        return Error{ErrorCode::invalid_input, "apply_linear_impulse: NaN or infinite impulse, "
                                               "or a point beyond k_max_coordinate"};
    }
    return impl_->add_impulse(id, impulse, point, 0, "apply_linear_impulse");
}

Result<void> World::apply_angular_impulse(BodyId id, real impulse) {
    if (!std::isfinite(impulse)) {
        return Error{ErrorCode::invalid_input, "apply_angular_impulse: NaN or infinite impulse"};
    }
    return impl_->add_impulse(id, {}, std::nullopt, impulse, "apply_angular_impulse");
}

Result<void> World::Impl::add_impulse(BodyId id, Vec2 impulse, std::optional<Vec2> point,
                                      real angular, const char* call) {
    const Result<Body*> found = dynamic_body_to_push(id, call);
    if (!found || !*found) {
        return found ? Result<void>() : Result<void>(found.error());
    }
    Body& b = **found;
    const Vec2 v = b.v + b.inv_mass * impulse;
    const real turn = point ? angular + cross(*point - b.sweep.c2, impulse) : angular;
    const real spin = b.w + b.inv_inertia * turn;
    if (!within_velocity_range(v, spin)) {
        return Error{ErrorCode::invalid_input,
                     std::string(call) + ": a velocity beyond k_max_coordinate per second"};
    }
    if (impulse != Vec2{} || angular != 0) {
        wake_island(id.index, false);
    }
    b.v = v;
    b.w = spin;
    return {};
}

Result<void> World::set_gravity_scale(BodyId id, real scale) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    if (!std::isfinite(scale)) {
        return Error{ErrorCode::invalid_input, "set_gravity_scale: NaN or infinite scale"};
    }
    if (std::optional<Error> refused = w.refusal_inside("set_gravity_scale")) {
        return *refused;
    }
    Body& b = w.bodies[id.index];
    if (b.gravity_scale != scale) {
        b.gravity_scale = scale;
        w.wake_island(id.index, false); // (a body asleep feels the new pull)
    }
    return {};
}

Result<void> World::set_damping(BodyId id, real linear, real angular) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    if (!std::isfinite(linear) || !std::isfinite(angular) || linear < 0 || angular < 0) {
        return Error{ErrorCode::invalid_input,
                     "set_damping: damping must be finite and >= 0 (less would grow the speed)"};
    }
    if (std::optional<Error> refused = w.refusal_inside("set_damping")) {
        return *refused;
    }
    Body& b = w.bodies[id.index];
    b.linear_damping = linear;
    b.angular_damping = angular;
    return {};
}

Result<void> World::set_fixed_rotation(BodyId id, bool fixed) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    if (std::optional<Error> refused = w.refusal_inside("set_fixed_rotation")) {
        return *refused;
    }
    Body& b = w.bodies[id.index];
    if (b.fixed_rotation == fixed) {
        return {};
    }
    b.fixed_rotation = fixed;
    if (b.type == BodyType::dynamic) {
        // (Its shapes gave it a mass when it was made: they give it again.)
        const real inertia =
            body_mass(b.type, shape_defs_of(w, b, -1, nullptr), "set_fixed_rotation")
                .value()
                .inertia;
        b.inv_inertia = fixed || !(inertia > 0) ? 0 : 1 / inertia;
        b.w = fixed ? 0 : b.w;
        w.wake_island(id.index, false);
    }
    return {};
}

Result<void> World::set_gravity(Vec2 gravity) {
    Impl& w = *impl_;
    const real units = w.def.length_units_per_meter;
    if (!is_finite(gravity) || !is_finite(units * gravity) ||
        !std::isfinite(length(units * gravity))) {
        return Error{ErrorCode::invalid_input,
                     "set_gravity: gravity must be finite (in L/s^2 too, with its length)"};
    }
    if (std::optional<Error> refused = w.refusal_inside("set_gravity")) {
        return *refused;
    }
    if (gravity == w.def.gravity) {
        return {};
    }
    w.def.gravity = gravity;
    w.gravity = units * gravity;
    w.gravity_direction = length(w.gravity) > 0 ? normalize(w.gravity) : Vec2{};
    for (int bi = 0; bi < static_cast<int>(w.bodies.size()); ++bi) {
        const Body& b = w.bodies[bi];
        if (b.alive && b.type == BodyType::dynamic && !b.awake) {
            w.wake_island(bi, false); // a pile at rest feels the new gravity
        }
    }
    return {};
}

Vec2 World::gravity() const { return impl_->def.gravity; }

} // namespace sweep
