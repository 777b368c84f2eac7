#include "sample.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <utility>

namespace sweep::testbed {
namespace {

constexpr int k_event_lifetime = 20;          ///< steps a hit or TOI marker stays on screen
constexpr std::size_t k_max_hit_markers = 40; ///< the newest only, so that a swarm stays readable
constexpr std::size_t k_max_toi_markers = 60;
constexpr real k_drag_stiffness = 12; ///< 1/s: how fast a dragged body closes on the mouse
constexpr real k_drag_max_speed = 60; ///< L/s

} // namespace

void Sample::fail(const std::string& message) {
    if (!failure_) {
        failure_ = "step " + std::to_string(steps_taken) + ": " + message;
    }
}

Polygon box(real hx, real hy) { return make_box(hx, hy).value(); }

WorldDef WorldSample::default_def() {
    WorldDef def;
    def.measure_penetration = true;
    return def;
}

WorldSample::WorldSample(const WorldDef& def)
    : world(World::make(def).value()), hits_(k_event_lifetime, k_max_hit_markers),
      tois_(k_event_lifetime, k_max_toi_markers) {}

BodyId WorldSample::add(BodyType type, const Shape& shape, Vec2 position, Vec2 velocity,
                        const Material& material, real angle) {
    BodyDef def;
    def.type = type;
    def.position = position;
    def.linear_velocity = velocity;
    def.angle = angle;
    const ShapeDef sd(shape, material);
    return add(def, std::span(&sd, 1));
}

BodyId WorldSample::add(const BodyDef& def, std::span<const ShapeDef> shapes) {
    const BodyId id = world.create_body(def, shapes).value();
    TrackedBody body;
    body.id = id;
    body.type = def.type;
    for (const ShapeDef& sd : shapes) {
        body.shapes.push_back(sd.shape);
    }
    const int moving =
        static_cast<int>(std::count_if(bodies.begin(), bodies.end(), [](const auto& b) {
            return b.type != BodyType::static_body;
        }));
    body.color = def.type == BodyType::static_body ? k_static_color : palette(moving);
    bodies.push_back(std::move(body));
    return id;
}

void WorldSample::add_room(Aabb inside, real t, const Material& material) {
    const Vec2 c = center(inside);
    const Vec2 e = extents(inside);
    add(BodyType::static_body, box(e.x + 2 * t, t), {c.x, inside.lower.y - t}, {}, material);
    add(BodyType::static_body, box(e.x + 2 * t, t), {c.x, inside.upper.y + t}, {}, material);
    add(BodyType::static_body, box(t, e.y + 2 * t), {inside.lower.x - t, c.y}, {}, material);
    add(BodyType::static_body, box(t, e.y + 2 * t), {inside.upper.x + t, c.y}, {}, material);
}

void WorldSample::remove(BodyId id) {
    const auto it =
        std::find_if(bodies.begin(), bodies.end(), [&](const auto& b) { return b.id == id; });
    if (it == bodies.end()) {
        return;
    }
    (void)world.destroy_body(id); // stale when the bounds removed it already
    bodies.erase(it);
}

TrackedBody* WorldSample::tracked(BodyId id) {
    const auto it =
        std::find_if(bodies.begin(), bodies.end(), [&](const auto& b) { return b.id == id; });
    return it == bodies.end() ? nullptr : &*it;
}

void WorldSample::step(real dt, const Input& input) {
    drag();
    const auto start = std::chrono::steady_clock::now();
    before_step(dt, input);
    const Result<void> stepped = world.step(dt);
    figures_.step_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ++steps_taken;
    if (!stepped) {
        fail("World::step failed: " + stepped.error().message);
        return;
    }
    track_after_step();
    const StepStats& stats = world.stats();
    figures_.broadphase_ms = 1000 * stats.broadphase_seconds;
    figures_.narrowphase_ms = 1000 * stats.narrowphase_seconds;
    figures_.toi_ms = 1000 * stats.toi_seconds;
    figures_.solver_ms = 1000 * stats.solver_seconds;
    figures_.bodies = world.body_count();
    figures_.awake_bodies = stats.awake_bodies;
    figures_.contacts = stats.contacts;
    figures_.contact_points = stats.contact_points;
    figures_.toi_events = stats.toi_events;
    figures_.toi_pair_events = stats.toi_pair_events;
    figures_.cap_hits += stats.sweep_round_cap_hits + stats.toi_failures + stats.toi_cap_hits;
    figures_.cap_hits += std::exchange(extra_cap_hits, 0);
    figures_.max_penetration = stats.max_penetration;
    if (!disturbed_) {
        check();
    }
}

void WorldSample::track_after_step() {
    for (const BodyId gone : world.events().removed) {
        remove(gone);
    }
    for (TrackedBody& body : bodies) {
        if (body.type == BodyType::static_body) {
            continue;
        }
        const BodyState s = state(body.id);
        body.trail.push_back(s.center);
        if (body.trail.size() > trail_points) {
            body.trail.pop_front();
        }
    }
    hits_.advance(world.events().contact_hit);
    tois_.advance(world.events().time_of_impact);
}

void WorldSample::mouse_down(Vec2 p) {
    mouse_ = p;
    const auto shapes = world.point_query(p);
    if (!shapes || shapes->empty()) {
        return;
    }
    const BodyId body = world.shape_info(shapes->front())->body;
    const BodyState s = state(body);
    if (s.type == BodyType::dynamic) {
        dragged_ = body;
        grab_offset_ = p - s.center;
        disturbed_ = true;
    }
}

// Sets the dragged body's velocity toward the mouse, a soft mouse joint
// that the solver and the TOI sweep still see as ordinary motion.
void WorldSample::drag() {
    if (!dragged_) {
        return;
    }
    const Result<BodyState> s = world.body_state(*dragged_);
    if (!s) {
        dragged_.reset();
        return;
    }
    Vec2 v = k_drag_stiffness * (mouse_ - (s->center + grab_offset_));
    const real speed = length(v);
    if (speed > k_drag_max_speed) {
        v = (k_drag_max_speed / speed) * v;
    }
    (void)world.set_velocity(*dragged_, v, s->angular_velocity * real(0.9));
}

void WorldSample::draw(const Draw& draw, const DrawOptions& options) const {
    if (options.trajectories) {
        for (const TrackedBody& body : bodies) {
            const std::vector<Vec2> trail(body.trail.begin(), body.trail.end());
            draw.polyline(trail, with_alpha(body.color, 140));
        }
    }
    const Camera& camera = draw.camera();
    const Vec2 corner_a = camera.to_world({0, 0});
    const Vec2 corner_b = camera.to_world({float(camera.width), float(camera.height)});
    const Aabb visible{min(corner_a, corner_b), max(corner_a, corner_b)};
    for (const TrackedBody& body : bodies) {
        const Transform xf = state(body.id).xf;
        const Color fill =
            body.type == BodyType::static_body ? k_static_color : with_alpha(body.color, 110);
        const Color line = body.type == BodyType::static_body ? Color{60, 60, 65} : body.color;
        for (const Shape& shape : body.shapes) {
            if (!overlaps(compute_aabb(shape, xf), visible)) {
                continue; // a large map draws only what is on screen
            }
            draw.shape(shape, xf, fill, line);
            if (options.aabbs) {
                draw.aabb(compute_aabb(shape, xf), k_aabb_color);
            }
        }
    }
    if (options.broadphase) {
        draw_trees(draw, visible);
    }
    if (options.contacts) {
        for (const ContactData& c : world.touching_contacts()) {
            for (int i = 0; i < c.manifold.count; ++i) {
                const Vec2 p = c.manifold.points[static_cast<std::size_t>(i)].point;
                draw.point(p, 5, k_contact_color);
                draw.arrow(p, p + (real(12) / draw.camera().pixels_per_unit) * c.manifold.normal,
                           k_normal_color);
            }
        }
    }
    if (options.events) {
        for (const auto& [hit, age] : hits_.items()) {
            const real r = real(7) / draw.camera().pixels_per_unit;
            draw.segment(hit.point - Vec2{r, r}, hit.point + Vec2{r, r}, k_event_color);
            draw.segment(hit.point - Vec2{r, -r}, hit.point + Vec2{r, -r}, k_event_color);
        }
    }
    if (options.toi_events) {
        draw_toi_events(draw);
    }
    draw_extra(draw);
}

// Both broadphase trees from World::broadphase_tree: leaves solid, inner
// nodes fainter the deeper they are, so the hierarchy reads at a glance.
void WorldSample::draw_trees(const Draw& draw, const Aabb& visible) const {
    for (const BroadphaseTree which : {BroadphaseTree::static_shapes, BroadphaseTree::moving}) {
        const auto nodes = world.broadphase_tree(which);
        if (!nodes) {
            continue; // static shapes in a grid: no tree to draw
        }
        for (const TreeNodeInfo& node : *nodes) {
            if (!overlaps(node.box, visible)) {
                continue;
            }
            const int fade = std::min(node.depth * 12, 150);
            draw.aabb(node.box, with_alpha(k_tree_color, node.leaf ? 230 : Uint8(220 - fade)));
        }
    }
}

// Where continuous collision acted in recent steps: a diamond where the
// sweep stopped a body at a wall, a ring where two moving bodies met, a
// cross where a cap clamped a body or sent it back to the step's start.
void WorldSample::draw_toi_events(const Draw& draw) const {
    const real r = real(6) / draw.camera().pixels_per_unit;
    for (const auto& [e, age] : tois_.items()) {
        const Vec2 p = e.point;
        switch (e.kind) {
        case TimeOfImpactKind::static_sweep: {
            const std::array<Vec2, 5> diamond{p + Vec2{r, 0}, p + Vec2{0, r}, p - Vec2{r, 0},
                                              p - Vec2{0, r}, p + Vec2{r, 0}};
            draw.polyline(diamond, k_toi_color);
            break;
        }
        case TimeOfImpactKind::pair:
            draw.circle(p, r, with_alpha(k_toi_color, 60), k_toi_color);
            break;
        case TimeOfImpactKind::clamped:
        case TimeOfImpactKind::returned:
            draw.segment(p - Vec2{r, r}, p + Vec2{r, r}, k_clamp_color);
            draw.segment(p - Vec2{r, -r}, p + Vec2{r, -r}, k_clamp_color);
            break;
        }
    }
}

} // namespace sweep::testbed
