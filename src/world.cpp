#include "move_narrowphase.hpp"
#include "world_impl.hpp"

#include <new>
#include <stdexcept>

namespace sweep {

World::World(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;
World::~World() = default;

ProxyId World::Impl::create_static_proxy(int shape, const Aabb& aabb) {
    const auto data = static_cast<std::uint64_t>(shape);
    ProxyId id = k_null_proxy;
    if (uses_grid()) {
        id = static_grid.create_proxy(aabb, data);
    } else if (static_rebuild_due(static_changes + 1)) {
        // The tree is rebuilt before its next use (rebuild_static_tree_if_dirty
        // counts this change): an insertion now would be undone.
        id = static_tree.create_unplaced_proxy(aabb, data);
        static_tree_unplaced.store(true, std::memory_order_release);
    } else {
        id = static_tree.create_proxy(aabb, data);
    }
    const auto slot = static_cast<std::size_t>(id);
    if (slot >= static_proxies.size()) {
        static_boxes.resize(slot + 1);
        static_proxies.resize(slot + 1);
    }
    const ShapeRecord& s = shapes[shape];
    const Transform& xf = bodies[s.body].xf;
    static_boxes[slot] = aabb;
    static_proxies[slot] = {xf.p,
                            s.filter,
                            body_id(s.body),
                            shape,
                            s.sensor,
                            axis_aligned_box(s.shape, s.local_box, xf).has_value(),
                            is_unrotated(xf)};
    note_static_proxy_change(id);
    return id;
}

namespace {

// Whether every tolerance is a normal number: none rounded to zero or into
// the subnormals, none overflowed (a world of 4e-45 L per metre had no
// slop, and crossing capsule cores divided by their zero distance).
bool tolerances_are_normal(const Tolerances& t) {
    for (const real x : {t.linear_slop, t.touch_tolerance, t.speculative_distance, t.aabb_margin,
                         t.restitution_threshold, t.max_linear_correction, t.max_translation_speed,
                         t.linear_sleep_tolerance}) {
        if (!std::isnormal(x)) {
            return false;
        }
    }
    return true;
}

} // namespace

Result<World> World::make(const WorldDef& def) {
    if (!is_finite(def.gravity) || !std::isfinite(def.length_units_per_meter) ||
        !(def.length_units_per_meter > 0) ||
        !is_finite(def.length_units_per_meter * def.gravity) ||
        !std::isfinite(length(def.length_units_per_meter * def.gravity))) {
        return Error{ErrorCode::invalid_input,
                     "World: gravity must be finite (in L/s^2 too, with its length) and "
                     "length_units_per_meter > 0"};
    }
    if (!tolerances_are_normal(Tolerances::for_units(def.length_units_per_meter))) {
        return Error{ErrorCode::invalid_input,
                     "World: length_units_per_meter so small or large that a tolerance in L "
                     "(from the touch tolerance, 0.00125 m, to the speed limit, 400 m/s) is "
                     "zero, subnormal or infinite in `real`"};
    }
    if (def.velocity_iterations < 1 || def.position_iterations < 1 || def.solver_substeps < 1 ||
        def.correction_rounds < 1) {
        return Error{ErrorCode::invalid_input,
                     "World: iteration, solver sub-step and correction round counts must be >= 1"};
    }
    if (!std::isfinite(def.max_translation_speed) || !(def.max_translation_speed > 0) ||
        !std::isfinite(def.length_units_per_meter * def.max_translation_speed) ||
        !std::isfinite(def.hit_speed_threshold) || def.hit_speed_threshold < 0) {
        return Error{ErrorCode::invalid_input,
                     "World: max_translation_speed must be > 0 and hit_speed_threshold >= 0"};
    }
    if (!std::isfinite(def.grid_cell_size) || def.grid_cell_size < 0) {
        return Error{ErrorCode::invalid_input, "World: grid_cell_size must be finite and >= 0"};
    }
    if (!std::isfinite(def.time_to_sleep) || def.time_to_sleep < 0) {
        return Error{ErrorCode::invalid_input, "World: time_to_sleep must be finite and >= 0"};
    }
    if (def.bounds && !is_valid(*def.bounds)) {
        return Error{ErrorCode::invalid_input, "World: bounds must be finite with lower <= upper"};
    }
    return World(std::make_unique<Impl>(def));
}

Result<BodyMass> detail::body_mass(BodyType type, std::span<const ShapeDef> shape_defs,
                                   const char* call) {
    BodyMass out;
    if (type != BodyType::dynamic) {
        return out;
    }
    Vec2 weighted_center;
    for (const ShapeDef& sd : shape_defs) {
        const MassData md = compute_mass(sd.shape, sd.material.density);
        out.mass += md.mass;
        weighted_center += md.mass * md.center;
    }
    if (!(out.mass > 0)) {
        return Error{ErrorCode::invalid_input,
                     std::string(call) + ": a dynamic body needs positive mass"};
    }
    out.local_center = (real(1) / out.mass) * weighted_center;
    for (const ShapeDef& sd : shape_defs) {
        const MassData md = compute_mass(sd.shape, sd.material.density);
        out.inertia += md.rotational_inertia +
                       md.mass * length_squared(md.center - out.local_center); // parallel axis
    }
    if (!(out.mass <= k_max_mass) || !std::isfinite(1 / out.mass) ||
        !is_finite(out.local_center) || !std::isfinite(out.inertia) ||
        (out.inertia > 0 && !std::isfinite(1 / out.inertia))) {
        return Error{ErrorCode::invalid_input,
                     std::string(call) +
                         ": the densities give a mass beyond k_max_mass, or a mass or "
                         "inertia whose inverse is not finite in `real`"};
    }
    return out;
}

namespace {

// Whether a kinematic or dynamic body may have `shape`: circles, capsules
// and polygons (segments and chains have no inside to push out of).
bool moving_bodies_take(const Shape& shape) {
    return shape.type == ShapeType::circle || shape.type == ShapeType::capsule ||
           shape.type == ShapeType::polygon;
}

} // namespace

std::optional<Error> detail::shape_def_error(const ShapeDef& sd, BodyType type,
                                             const Transform& pose, const char* call) {
    const Aabb box = compute_aabb(sd.shape, pose);
    if (!in_coordinate_range(box.lower) || !in_coordinate_range(box.upper)) {
        return Error{ErrorCode::invalid_input,
                     std::string(call) + ": a shape reaches beyond k_max_coordinate of the origin"};
    }
    if (type != BodyType::static_body && !moving_bodies_take(sd.shape)) {
        return Error{ErrorCode::invalid_input,
                     std::string(call) +
                         ": moving bodies take circles, capsules and polygons only"};
    }
    const Material& m = sd.material;
    if (!std::isfinite(m.density) || m.density < 0 || !std::isfinite(m.friction) ||
        m.friction < 0 || !(m.restitution >= 0 && m.restitution <= 1) ||
        !std::isfinite(m.rolling_resistance) || m.rolling_resistance < 0) {
        return Error{ErrorCode::invalid_input,
                     std::string(call) +
                         ": density, friction and rolling_resistance must be finite and >= 0, "
                         "restitution within [0, 1]"};
    }
    return std::nullopt;
}

int World::Impl::add_shape(int body, const ShapeDef& sd) {
    Body& b = bodies[body];
    const int si = allocate_shape();
    ShapeRecord& s = shapes[si];
    s.shape = sd.shape;
    s.local_box = axis_aligned_box(sd.shape, Transform{});
    s.material = sd.material;
    s.proxy = make_proxy(sd.shape);
    s.body = body;
    s.filter = sd.filter;
    note_shape_changed(si);
    s.sensor = sd.sensor;
    sensor_shapes += s.sensor ? 1 : 0;
    s.user_data = sd.user_data;
    const Aabb box = compute_aabb(sd.shape, b.xf);
    s.tree_proxy = b.type == BodyType::static_body ? create_static_proxy(si, box)
                                                   : create_moving_proxy(box, si);
    b.add_shape_index(si);
    return si;
}

ProxyId World::Impl::create_moving_proxy(const Aabb& box, int shape) {
    const ProxyId id = moving_tree.create_proxy(box, static_cast<std::uint64_t>(shape));
    moving_occupancy.add(moving_tree.fat_aabb(id), id);
    ++moving_version;
    moved_proxies.complete = false;
    const auto slot = static_cast<std::size_t>(id);
    if (slot >= moving_shapes.size()) {
        moving_shapes.resize(slot + 1);
    }
    ShapeRecord& s = shapes[shape];
    s.moving = true;
    MovingShape& m = moving_shapes[slot];
    m.core_proxy = shrink_proxy(s.proxy, k_core_shrink * tol.linear_slop);
    m.refitted = false;
    m.near_version = 0; // a reused slot's neighbourhood was another shape's
    m.boxes = {};
    return id;
}

void World::Impl::remove_shape(int si) {
    ShapeRecord& s = shapes[si];
    if (bodies[s.body].type == BodyType::static_body) {
        destroy_static_proxy(s.tree_proxy);
    } else {
        destroy_moving_proxy(s.tree_proxy);
    }
    s.tree_proxy = k_null_proxy;
    s.body = -1;
    sensor_shapes -= s.sensor ? 1 : 0;
    ++s.generation; // its ShapeIds go stale
    note_shape_changed(si);
    free_shapes.push_back(si);
}

void World::Impl::set_mass(Body& b, const BodyMass& mass) {
    b.mass = mass.mass;
    b.inv_mass = mass.mass > 0 ? 1 / mass.mass : 0;
    b.inv_inertia = b.fixed_rotation || !(mass.inertia > 0) ? 0 : 1 / mass.inertia;
    b.sweep.local_center = mass.local_center;
    b.sweep.c1 = b.sweep.c2 = transform_point(b.xf, mass.local_center);
    b.extent = 0;
    real support = 0; // the shapes' least support about the centre of mass
    for (std::size_t i = 0; i < b.shapes.size(); ++i) {
        const Shape& shape = shapes[b.shapes[i]].shape;
        b.extent = std::max(b.extent, max_extent(shape, mass.local_center));
        b.inner_radius =
            i == 0 ? inner_radius(shape) : std::min(b.inner_radius, inner_radius(shape));
        const real least = least_support(shape, mass.local_center);
        support = i == 0 ? least : std::min(support, least);
    }
    b.turn_reach = std::max(b.extent - support, real(0));
}

Result<BodyId> World::create_body(const BodyDef& def, std::span<const ShapeDef> shape_defs) {
    Impl& w = *impl_;
    if (std::optional<Error> refused = w.refusal_inside("create_body")) {
        return *refused;
    }
    if (!is_finite(def) || shape_defs.empty()) {
        return Error{ErrorCode::invalid_input,
                     "create_body: NaN/inf in the body definition or no shapes"};
    }
    if (def.linear_damping < 0 || def.angular_damping < 0) {
        return Error{ErrorCode::invalid_input, "create_body: damping must be >= 0"};
    }
    if (!within_velocity_range(def.linear_velocity, def.angular_velocity)) {
        return Error{ErrorCode::invalid_input,
                     "create_body: a velocity beyond k_max_coordinate per second"};
    }
    const Transform pose{def.position, Rot::from_angle(def.angle)};
    for (const ShapeDef& sd : shape_defs) {
        if (std::optional<Error> error = shape_def_error(sd, def.type, pose, "create_body")) {
            return *error;
        }
    }
    const Result<BodyMass> mass = body_mass(def.type, shape_defs, "create_body");
    if (!mass) {
        return mass.error();
    }

    int index;
    if (!w.free_bodies.empty()) {
        index = w.free_bodies.back();
        w.free_bodies.pop_back();
    } else {
        index = static_cast<int>(w.bodies.size());
        w.bodies.emplace_back();
    }
    Body& b = w.bodies[index];
    const std::uint32_t generation = b.generation + 1;
    b = Body{};
    b.generation = generation;
    b.alive = true;
    b.type = def.type;
    b.xf = {def.position, Rot::from_angle(def.angle)};
    b.v = def.type == BodyType::static_body ? Vec2{} : def.linear_velocity;
    b.w = def.type == BodyType::static_body || def.fixed_rotation ? 0 : def.angular_velocity;
    b.gravity_scale = def.gravity_scale;
    b.linear_damping = def.linear_damping;
    b.angular_damping = def.angular_damping;
    b.user_data = def.user_data;
    b.fixed_rotation = def.fixed_rotation;
    b.sweep.a1 = b.sweep.a2 = def.angle;
    if (static_cast<std::size_t>(index) >= w.rider_counts.size()) {
        w.rider_counts.resize(w.bodies.size());
    }
    w.rider_counts[index] = {generation, 0};

    for (const ShapeDef& sd : shape_defs) {
        w.add_shape(index, sd);
    }
    w.set_mass(b, *mass);
    w.note_seams_of(b);
    // What sleeps where it is made wakes, as for create_shape (a body made
    // inside a sleeping box left it asleep inside it for good).
    for (int si : b.shapes) {
        w.wake_near_shape(w.shapes[si].shape, b.xf);
    }
    ++w.live_bodies;
    return BodyId{index, generation};
}

Result<void> World::reserve(int bodies, int shapes) {
    Impl& w = *impl_;
    if (bodies < 0 || shapes < 0) {
        return Error{ErrorCode::invalid_input, "reserve: a negative count"};
    }
    if (std::optional<Error> refused = w.refusal_inside("reserve")) {
        return *refused; // (a step's references into the records would dangle)
    }
    try {
        w.bodies.reserve(static_cast<std::size_t>(bodies));
        w.rider_counts.reserve(static_cast<std::size_t>(bodies));
        w.shapes.reserve(static_cast<std::size_t>(shapes));
    } catch (const std::bad_alloc&) {
        return Error{ErrorCode::limit_exceeded, "reserve: more records than memory holds"};
    } catch (const std::length_error&) {
        return Error{ErrorCode::limit_exceeded, "reserve: more records than an array holds"};
    }
    return {};
}

Result<void> World::destroy_body(BodyId id) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    if (std::optional<Error> refused = w.refusal_inside("destroy_body")) {
        return *refused;
    }
    w.destroy_body(id.index);
    return {};
}

void World::Impl::destroy_body(int index) {
    Body& b = bodies[index];
    // What rested on it, and its own island if it slept, wake.
    for (int si : b.shapes) {
        wake_near_shape(shapes[si].shape, b.xf);
    }
    wake_island(index, false);
    note_seams_of(b);
    set_ground(index, {});
    for (int si : b.shapes) {
        remove_shape(si);
    }
    b.alive = false;
    rider_counts[index] = {};
    b.clear_shape_indices();
    free_bodies.push_back(index);
    --live_bodies;
}

Result<BodyState> World::body_state(BodyId id) const {
    const Body* b = impl_->find(id);
    if (!b) {
        return stale();
    }
    const bool awake = b->type == BodyType::kinematic || (b->type == BodyType::dynamic && b->awake);
    const real inertia = b->inv_inertia > 0 ? 1 / b->inv_inertia : 0;
    return BodyState{.type = b->type,
                     .xf = b->xf,
                     .center = b->sweep.c2,
                     .linear_velocity = b->v,
                     .angular_velocity = b->w,
                     .mass = b->mass,
                     .inertia = inertia,
                     .user_data = b->user_data,
                     .awake = awake,
                     .gravity_scale = b->gravity_scale,
                     .linear_damping = b->linear_damping,
                     .angular_damping = b->angular_damping,
                     .fixed_rotation = b->fixed_rotation};
}

std::vector<BodyId> World::body_ids() const {
    std::vector<BodyId> ids;
    ids.reserve(static_cast<std::size_t>(impl_->live_bodies));
    for (int bi = 0; bi < static_cast<int>(impl_->bodies.size()); ++bi) {
        if (impl_->bodies[bi].alive) {
            ids.push_back(impl_->body_id(bi));
        }
    }
    return ids;
}

Result<std::vector<ShapeId>> World::body_shapes(BodyId id) const {
    const Body* b = impl_->find(id);
    if (!b) {
        return stale();
    }
    std::vector<ShapeId> ids;
    for (int si : b->shapes) {
        ids.push_back(impl_->shape_id(si));
    }
    return ids;
}

Result<ShapeInfo> World::shape_info(ShapeId id) const {
    const ShapeRecord* s = impl_->find(id);
    if (!s) {
        return stale();
    }
    return ShapeInfo{
        impl_->body_id(s->body), s->shape, s->material, s->filter, s->sensor, s->user_data};
}

Result<void> World::set_filter(ShapeId id, const Filter& filter) {
    if (!impl_->find(id)) {
        return stale();
    }
    if (std::optional<Error> refused = impl_->refusal_inside("set_filter")) {
        return *refused;
    }
    Impl& w = *impl_;
    ShapeRecord& s = w.shapes[id.index];
    s.filter = filter;
    w.note_all_shapes_changed(); // (the seam rules read filters)
    if (w.bodies[s.body].type == BodyType::static_body) {
        w.static_proxies[static_cast<std::size_t>(s.tree_proxy)].filter = filter;
        // The moving shapes' neighbourhoods were chosen by filter.
        w.note_static_version(w.static_boxes[static_cast<std::size_t>(s.tree_proxy)]);
    } else {
        w.moving_of(s).near_version = 0; // so was this shape's neighbourhood
    }
    // Bodies resting on it may now fall through, or be pushed by it.
    w.wake_island(s.body, false);
    w.wake_near_shape(s.shape, w.bodies[s.body].xf);
    return {};
}

Result<void> World::set_awake(BodyId id, bool awake) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    if (std::optional<Error> refused = w.refusal_inside("set_awake")) {
        return *refused;
    }
    Body& b = w.bodies[id.index];
    if (b.type != BodyType::dynamic || b.awake == awake) {
        return {};
    }
    if (awake) {
        w.wake_island(id.index, false);
        return {};
    }
    Impl::put_at_rest(b);
    b.awake = false;
    ++w.sleeping_bodies;
    b.sleep_next = id.index; // an island of one
    return {};
}

Result<void> World::set_pre_solve(PreSolveFn pre_solve) {
    if (std::optional<Error> refused = impl_->refusal_inside("set_pre_solve")) {
        return *refused;
    }
    impl_->pre_solve = std::move(pre_solve);
    return {};
}

Result<void> World::set_velocity(BodyId id, Vec2 linear, real angular) {
    if (!impl_->find(id)) {
        return stale();
    }
    if (!is_finite(linear) || !std::isfinite(angular)) {
        return Error{ErrorCode::invalid_input, "set_velocity: NaN or infinite velocity"};
    }
    if (!within_velocity_range(linear, angular)) {
        return Error{ErrorCode::invalid_input,
                     "set_velocity: a velocity beyond k_max_coordinate per second"};
    }
    if (std::optional<Error> refused = impl_->refusal_inside("set_velocity")) {
        return *refused;
    }
    Body& b = impl_->bodies[id.index];
    if (linear != Vec2{} || angular != 0) {
        impl_->wake_island(id.index, false);
    }
    if (b.type != BodyType::static_body) {
        b.v = linear;
        b.w = b.inv_inertia > 0 || b.type == BodyType::kinematic ? angular : 0;
    }
    return {};
}

Error World::Impl::refusal(const char* call) {
    return Error{ErrorCode::unsupported,
                 std::string(call) + ": called from inside a step (a pre-solve hook) or a "
                                     "move (a move filter), which it would change under them"};
}

Result<void> World::step(real dt, int substeps) {
    if (!std::isfinite(dt) || dt < 0 || dt > k_max_step_seconds || substeps < 1) {
        return Error{ErrorCode::invalid_input,
                     "step: dt must be finite, >= 0 and at most k_max_step_seconds (1 s); "
                     "substeps >= 1"};
    }
    Impl& w = *impl_;
    if (dt > 0 && !(dt / (static_cast<real>(substeps) * static_cast<real>(w.def.solver_substeps)) >=
                    k_min_step_seconds)) {
        return Error{ErrorCode::invalid_input,
                     "step: dt divided by the sub-steps is shorter than k_min_step_seconds (1e-9 s)"};
    }
    if (std::optional<Error> refused = w.refusal_inside("step")) {
        return *refused;
    }
    w.stats = {};
    if (dt == 0) {
        return {};
    }
    w.events = {};
    w.stepping = true;
    ++w.box_stamp;
    PhaseClock clock;
    w.rebuild_static_tree_if_dirty();
    w.find_seams_if_dirty();
    w.list_step_bodies();
    w.find_riders();
    w.collect_resting();
    clock.lap(w.stats.broadphase_seconds);
    const real h = dt / static_cast<real>(substeps);
    for (int i = 0; i < substeps; ++i) {
        w.single_step(h);
    }
    clock = {}; // single_step timed itself
    w.carry_riders();
    w.remove_out_of_bounds();
    clock.lap(w.stats.broadphase_seconds);
    w.update_touching();
    w.update_sensors();
    clock.lap(w.stats.narrowphase_seconds);
    for (const int bi : w.step_bodies) {
        Body& b = w.bodies[static_cast<std::size_t>(bi)];
        w.stats.awake_bodies += b.alive && b.type == BodyType::dynamic && b.awake;
        b.force = {}; // (applied over the whole step: see World::apply_force)
        b.torque = 0;
    }
    w.stepping = false;
    return {};
}

real World::Impl::measure_penetration() const {
    real deepest = 0;
    for (const Body& b : bodies) {
        if (!b.alive || b.type != BodyType::dynamic) {
            continue;
        }
        for (const int si : b.shapes) {
            for_each_partner_near(si, compute_aabb(shapes[si].shape, b.xf), [&](int oi) {
                deepest =
                    std::max(deepest, depth_between(si, b.xf, oi, bodies[shapes[oi].body].xf));
            });
        }
    }
    return deepest;
}

void World::Impl::single_step(real dt) {
    PhaseClock clock;
    keep_sleeping_contacts();
    integrate_velocities(dt);
    clock.lap(stats.solver_seconds);
    update_moving_proxies(dt);
    find_candidate_pairs(dt);
    clock.lap(stats.broadphase_seconds);
    collide_candidates(dt);
    clock.lap(stats.narrowphase_seconds);
    prepare_contacts(dt);
    if (def.solver_substeps > 1) {
        solve_substepped(dt);
    } else {
        warm_start(solver_contacts, solver_bodies);
        solve_velocities_until_converged(dt);
        if (any_restitution) {
            add_substep_impulses(contact_batches, solver_contacts);
        }
    }
    if (any_restitution) {
        unpack_contacts(contact_batches, solver_contacts);
        apply_restitution(solver_contacts, solver_bodies, tol.restitution_threshold);
    }
    keep_solve_results();
    velocities_dt = 0; // (a body woken later stays put this step)
    report_hits();
    store_impulses();
    if (def.solver_substeps > 1) {
        move_to_substep_poses(dt);
    } else {
        integrate_positions(dt);
    }
    clock.lap(stats.solver_seconds);
    solve_toi_events(dt);
    add_contacts_of_deflected_bodies();
    clock.lap(stats.toi_seconds);
    // A body stopped by its sweep lands back on its path, where another
    // body may have moved meanwhile: correct positions again and re-sweep
    // (from the pose at the start of the step, or for a body a sweep
    // stopped from where it stopped, so every move the corrections make
    // is swept).
    // Bodies corrected or stopped far from where the contacts were made
    // may meet pairs that have none: those become contacts, and the
    // next round corrects them too.
    for (int round = 0;; ++round) {
        keep_poses_before_correction();
        correct_positions();
        clock.lap(stats.solver_seconds);
        const int added = add_contacts_of_corrected_bodies();
        const int stopped = sweep_against_static(false);
        const int touched = add_contacts_of_touched_walls();
        clock.lap(stats.toi_seconds);
        if (stopped == 0 && added == 0 && touched == 0) {
            // Correction gives up on a jam rising too slowly to get out
            // within its sweeps' budget (a body wedged between two fixed
            // faces a few degrees apart moves out only slowly): one it
            // left deeper than 2 slops goes back as at the rounds' cap.
            if (jam_left_deep) {
                return_jams_to_step_start(dt);
            }
            break;
        }
        add_contacts_of_stopped_bodies();
        if (round + 1 == def.correction_rounds) {
            ++stats.sweep_round_cap_hits;
            hold_stopped_at_sweep_start();
            correct_positions();
            sweep_against_static(true); // the sweep has the last word; overlap may remain
            return_jams_to_step_start(dt);
            break;
        }
    }
    // Nothing moves the bodies after this: every shape goes into its proxy's
    // box, so that what reads the broadphase before the next step finds it.
    refit_strays();
    clock.lap(stats.broadphase_seconds);
    for (const Contact& c : contacts) {
        stats.contact_points += c.manifold.count;
    }
    stats.contacts += static_cast<int>(contacts.size());
    update_sleep(dt);
    if (def.measure_penetration) {
        stats.max_penetration = std::max(stats.max_penetration, measure_penetration());
        clock.lap(stats.narrowphase_seconds);
    }
}

Result<std::vector<TreeNodeInfo>> World::broadphase_tree(BroadphaseTree which) const {
    const Impl& w = *impl_;
    if (which == BroadphaseTree::static_shapes && w.uses_grid()) {
        return Error{ErrorCode::unsupported,
                     "broadphase_tree: this world keeps its static shapes in a grid, not a tree"};
    }
    w.place_static_proxies();
    const DynamicTree& tree = which == BroadphaseTree::moving ? w.moving_tree : w.static_tree;
    std::vector<TreeNodeInfo> nodes;
    tree.for_each_node([&](const Aabb& box, int depth, ProxyId leaf) {
        const bool is_leaf = leaf != k_null_proxy;
        const ShapeId shape =
            is_leaf ? w.shape_id(static_cast<int>(tree.user_data(leaf))) : ShapeId{};
        nodes.push_back({box, depth, is_leaf, shape});
    });
    return nodes;
}

const StepEvents& World::events() const { return impl_->events; }
const std::vector<ContactData>& World::touching_contacts() const { return impl_->touching_data; }

const StepStats& World::stats() const { return impl_->stats; }
const Tolerances& World::tolerances() const { return impl_->tol; }
int World::body_count() const { return impl_->live_bodies; }

} // namespace sweep
