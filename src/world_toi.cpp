// Continuous collision between moving bodies: time-of-impact events in time
// order, each body on its own clock.
//
// After the velocity solve every body has moved to the end of the step. A
// fast body (dynamic or kinematic, one that moved farther than its inner
// radius, rotation included) may have passed through another moving body it
// had no speculative contact with: its speculative margin against moving
// bodies is bounded so that a fast crowd does not make every pair a contact. For
// those pairs the first time of impact along both bodies' sweeps becomes an
// event in a min-heap. Resolving the earliest event moves both bodies to
// their poses at that time, applies the collision impulse there
// (restitution and Coulomb friction, with mass and lever arms) and lets
// them travel the rest of the step with their new velocities; their clocks
// stand at that time and their new paths are searched for further events
// (Box2D 2.4's b2World::SolveTOI and Mirtich's time-warp idea of bodies on
// their own clocks; unlike Box2D, bullets are swept against bullets).
//
// Each event must make progress: a pair touching at its start only counts
// when it approaches, and events are capped per body and per step. A pair
// that only grazes at its event (touching, but parting) may still meet
// later in the step if a body turns: it joins the contacts, and a fast
// turner's next meeting is searched for nearer than the graze, or where
// the graze leaves the pair touching, the first time its overlap grows by
// a linear slop (search_deepening). An
// event with a body over its cap clamps both bodies at the time of impact
// (the rest of their step is lost, and counted; a body clamped against a
// kinematic body is carried with it instead). Before a body is moved to an event's time, its
// path up to then is swept against static geometry: a wall met first stops it there, and it hits
// the wall (hit_wall). The final sweep of every pose against static geometry (at the end of this
// file) still runs after this phase, from the pose at each body's clock, and a body it stops
// hits the wall it met too.
#include "world_impl.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <tuple>

namespace sweep {
namespace {

// How far a body's path this step takes it (L): its centre's travel plus
// its turn times its extent, a bound on any point's.
real path_length(const Body& b) {
    return distance(b.sweep.c1, b.sweep.c2) + std::abs(b.sweep.a2 - b.sweep.a1) * b.extent;
}

// How far a manifold's deepest point overlaps (L): 0 when none does.
real overlap_of(const Manifold& m) {
    real overlap = 0;
    for (int i = 0; i < m.count; ++i) {
        overlap = std::max(overlap, -m.points[i].separation);
    }
    return overlap;
}

// The heap's order: earliest first, ties by shape ids (deterministic).
bool later(const ToiEvent& x, const ToiEvent& y) {
    if (x.t != y.t) {
        return x.t > y.t;
    }
    if (x.shape_a != y.shape_a) {
        return x.shape_a > y.shape_a;
    }
    return x.shape_b > y.shape_b;
}

// Adds event e to the min-heap `queue`.
void push_event(std::vector<ToiEvent>& queue, const ToiEvent& e) {
    queue.push_back(e);
    std::push_heap(queue.begin(), queue.end(), later);
}

// Moves the start of a sweep that begins at step fraction `from` forward to
// step fraction `to` (Box2D's b2Sweep::Advance), keeping its end.
Sweep advanced(const Sweep& sweep, real from, real to) {
    if (to <= from || from >= 1) {
        return sweep;
    }
    const real beta = (to - from) / (1 - from);
    Sweep s = sweep;
    s.c1 = lerp(sweep.c1, sweep.c2, beta);
    s.a1 = sweep.a1 + beta * (sweep.a2 - sweep.a1);
    return s;
}

// Whether the circles of radius extent about the two centres of mass, each
// centre moving linearly along its sweep, stay more than `slop` apart: then
// the bodies cannot meet whatever they turn. Long swept boxes overlap far
// more often than their bodies come near each other; this exact test of the
// closest approach costs less than one GJK iteration.
bool bounding_circles_miss(const Sweep& a, real extent_a, const Sweep& b, real extent_b,
                           real slop) {
    const Vec2 d0 = b.c1 - a.c1;
    const Vec2 dv = (b.c2 - b.c1) - (a.c2 - a.c1);
    const real vv = dot(dv, dv);
    const real s = vv > 0 ? std::clamp(-dot(d0, dv) / vv, real(0), real(1)) : real(0);
    const real reach = extent_a + extent_b + slop;
    return length_squared(d0 + s * dv) > reach * reach;
}

} // namespace

// The body's sweep from step fraction t (>= its clock) to the end.
Sweep World::Impl::sweep_from(const Body& b, real t) const {
    return advanced(b.sweep, b.toi_clock, t);
}

void World::Impl::begin_toi_phase() {
    toi_queue.clear();
    contact_keys.clear();
    // (A static body's stay as it was made, or as change_type left it:
    // no event changes them.)
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        b.toi_clock = 0;
        b.toi_count = 0;
        b.toi_clamped = false;
        b.toi_carried = false;
        b.into_wall = {};
        ++b.toi_stamp;
        const real motion = path_length(b);
        // A kinematic body too: its path is fixed, but a resting body in
        // front of it has no motion of its own to make the pair's event, and
        // a paddle at 100 L/s ended a step 0.7 L inside a box, or passed
        // through it (Box2D 2.4's SolveTOI sweeps every kinematic-dynamic
        // pair). Only its candidate pairs and contacts make events: the
        // solve never changes its path, so no search of its own is needed.
        b.fast = b.alive && b.type != BodyType::static_body && motion > b.inner_radius;
    }
    toi_searches.clear();
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (b.alive && b.type == BodyType::dynamic && left_contact_box(bi) && b.fast) {
            toi_searches.push_back(bi);
        }
    }
    for (const Contact& c : contacts) {
        contact_keys.push_back(ordered_key(c.shape_a, c.shape_b));
    }
    contact_key_sort.sort(contact_keys);
    solved_contacts = contacts.size();
    contacts_linked = false;
}

void World::Impl::solve_toi_events(real dt) {
    begin_toi_phase();
    // The first events: pairs the contact search found beyond the bounded
    // speculative margin, where one body turned out fast. A slow pair with
    // a speculative contact was kept apart by the solver and never makes an
    // event (so piles cannot freeze). A fast body's contacts are checked
    // too: restitution, applied after the solve, may have sent it back
    // through the gap of another speculative contact at full speed.
    for (const auto& [shape_a, shape_b] : toi_candidates) {
        if (bodies[shapes[shape_a].body].fast || bodies[shapes[shape_b].body].fast) {
            push_toi_event(shape_a, shape_b);
        }
    }
    for (const Contact& c : contacts) {
        const Body& b = bodies[c.body_b];
        if (b.type != BodyType::static_body && (bodies[c.body_a].fast || b.fast)) {
            push_toi_event(c.shape_a, c.shape_b);
        }
    }
    for (int bi : toi_searches) {
        find_toi_events(bi);
    }
    int dynamic_bodies = 0;
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        dynamic_bodies += b.alive && b.type == BodyType::dynamic;
    }
    const int step_cap =
        k_toi_events_per_body_per_step * dynamic_bodies + k_min_toi_events_per_step;
    int resolved = 0;
    while (!toi_queue.empty()) {
        std::pop_heap(toi_queue.begin(), toi_queue.end(), later);
        const ToiEvent e = toi_queue.back();
        toi_queue.pop_back();
        const Body& a = bodies[shapes[e.shape_a].body];
        if (e.shape_b < 0) {
            if (a.toi_stamp == e.stamp_a) {
                resolve_wall_event(e, dt); // (no cap: it ends the body's path)
            }
            continue;
        }
        const Body& b = bodies[shapes[e.shape_b].body];
        if (a.toi_stamp != e.stamp_a || b.toi_stamp != e.stamp_b) {
            continue; // a body's path changed since: its new path was searched again
        }
        if (resolved == step_cap) {
            clamp_pair_at(e, dt);
            continue;
        }
        ++resolved;
        resolve_toi_event(e, dt);
    }
}

// Whether the body's path, as the solve left it, strays outside the boxes
// its contact search looked in (the solver turned it, or restitution sent
// it back): then it may meet bodies that search never saw. Its broadphase
// proxies are grown to the path so that other searches find it.
bool World::Impl::left_contact_box(int bi) {
    Body& b = bodies[bi];
    const real turn = std::abs(b.sweep.a2 - b.sweep.a1) * b.extent;
    bool left = false;
    bool inside = true;
    for (int si : b.shapes) {
        const ShapeRecord& s = shapes[si];
        const Aabb now = shape_box(s, b.xf);
        const Aabb path = inflate(union_of(shape_box(s, get_transform(b.sweep, 0)), now), turn);
        if (!contains(moving_of(s).contact_box, path)) {
            move_moving_proxy(s.tree_proxy, path, Vec2{});
            left = true;
        }
        inside = inside && contains(moving_tree.fat_aabb(s.tree_proxy), now);
    }
    // (Where the solve left it: refit_strays need not look again while it stays.)
    b.seen_inside = inside ? std::optional<Transform>{b.xf} : std::nullopt;
    return left;
}

// Pushes the events of one body's shapes, on their new path after an
// event, against the moving shapes near it. Every pair counts, those with a
// speculative contact too: the body's velocity changed after that solve.
void World::Impl::find_toi_events(int bi) {
    const Body& b = bodies[bi];
    const Sweep path = b.sweep;
    const real turn = std::abs(path.a2 - path.a1) * b.extent;
    for (int si : b.shapes) {
        const ShapeRecord& s = shapes[si];
        if (s.sensor) {
            continue;
        }
        const Aabb box = inflate(
            union_of(shape_box(s, get_transform(path, 0)), shape_box(s, get_transform(path, 1))),
            turn);
        moving_tree.query(box, ~0ull, [&](ProxyId, std::uint64_t data) {
            const int oi = static_cast<int>(data);
            const int ob = shapes[oi].body;
            if (ob != bi && may_collide(s, shapes[oi]) && !is_disabled(si, oi)) {
                push_toi_event(si, oi);
            }
            return true;
        });
    }
}

// The first wall on the new path an event gave a dynamic body, as an
// event at its time: until then other events may change the path; then
// the body stops at the wall (resolve_wall_event). Left to the final
// sweep, a disc that its column's impact sent into the ground stopped
// there only after every event, and the box above it, going on at the
// disc's speed, passed through it. A path that meets a wall only within
// the touch tolerance of its end goes on (sweep_against_static's rule).
void World::Impl::push_wall_event(int bi) {
    const Body& b = bodies[bi];
    const StaticHit hit = first_static_impact(b, b.sweep);
    if (hit.t >= 1 || (1 - hit.t) * path_length(b) <= tol.touch_tolerance) {
        return;
    }
    ToiEvent e;
    e.t = b.toi_clock + hit.t * (1 - b.toi_clock);
    e.shape_a = hit.shape;
    e.wall = hit.wall;
    e.stamp_a = b.toi_stamp;
    push_event(toi_queue, e);
}

// A body meets the wall of its wall event: it rests there for the rest of
// the step, with the velocity the wall's impact leaves for the next (as
// the final sweep and divert_at_toi stop a body), braced against the wall
// for the impacts of the bodies that run into it there.
void World::Impl::resolve_wall_event(const ToiEvent& e, real dt) {
    const int bi = shapes[e.shape_a].body;
    Body& b = bodies[bi];
    const Sweep rest = sweep_from(b, e.t);
    place_after_toi(bi, e.t, dt, rest.c1, rest.a1, Vec2{}, 0);
    b.into_wall = hit_wall(bi, {e.t, e.shape_a, e.wall});
    b.stopped = true;
    ++stats.toi_events;
    report_stop(TimeOfImpactKind::static_sweep, bi, e.t);
    find_toi_events(bi);
}

void World::Impl::push_toi_event(int shape_a, int shape_b) {
    const Body& a = bodies[shapes[shape_a].body];
    const Body& b = bodies[shapes[shape_b].body];
    push_toi_event(shape_a, shape_b, std::max(a.toi_clock, b.toi_clock), tol.linear_slop,
                   tol.touch_tolerance, true);
}

// The pair's first time of impact from step fraction t0 (no earlier than
// either body's clock), within `target` (L) of contact, give or take
// `tolerance`, as an event; a failed search (the last safe time) is one
// only with `keep_failure`.
void World::Impl::push_toi_event(int shape_a, int shape_b, real t0, real target, real tolerance,
                                 bool keep_failure) {
    const Body& a = bodies[shapes[shape_a].body];
    const Body& b = bodies[shapes[shape_b].body];
    const Sweep sweep_a = sweep_from(a, t0);
    const Sweep sweep_b = sweep_from(b, t0);
    if (bounding_circles_miss(sweep_a, a.extent, sweep_b, b.extent, tol.linear_slop)) {
        return;
    }
    ToiInput input;
    input.proxy_a = shapes[shape_a].proxy;
    input.proxy_b = shapes[shape_b].proxy;
    input.sweep_a = sweep_a;
    input.sweep_b = sweep_b;
    input.target_separation = target;
    input.touch_tolerance = tolerance;
    const ToiOutput out = time_of_impact(input);
    if (out.state == CastState::miss || out.state == CastState::invalid_input ||
        (out.state == CastState::failed && !keep_failure)) {
        return;
    }
    ToiEvent e;
    // Overlapping at t0 (a resting neighbour after an event): resolved at
    // t0 if the pair approaches there, dropped otherwise.
    e.t = out.state == CastState::overlapped ? t0 : t0 + out.fraction * (1 - t0);
    e.shape_a = shape_a;
    e.shape_b = shape_b;
    e.stamp_a = a.toi_stamp;
    e.stamp_b = b.toi_stamp;
    e.failed = out.state == CastState::failed;
    if (e.failed) {
        ++stats.toi_failures;
    }
    push_event(toi_queue, e);
}

// Sweeps a dynamic body's path from its clock to step fraction t against
// static geometry; a wall met first stops the body there, where it hits the
// wall (its events are then searched again from the shortened path).
// Returns whether it was.
bool World::Impl::blocked_by_static(int bi, real t) {
    Body& b = bodies[bi];
    if (b.type != BodyType::dynamic || t <= b.toi_clock) {
        return false;
    }
    Sweep part = b.sweep;
    const real beta = (t - b.toi_clock) / (1 - b.toi_clock);
    part.c2 = lerp(b.sweep.c1, b.sweep.c2, beta);
    part.a2 = b.sweep.a1 + beta * (b.sweep.a2 - b.sweep.a1);
    const StaticHit hit = first_static_impact(b, part);
    const real s = hit.t;
    if (s >= 1) {
        return false;
    }
    // Its sweep now ends at the wall: the path up to there is safe.
    b.sweep.c2 = lerp(part.c1, part.c2, s);
    b.sweep.a2 = part.a1 + s * (part.a2 - part.a1);
    sync_transform(b);
    hit_wall(bi, hit);
    b.stopped = true;
    ++b.toi_stamp;
    ++stats.toi_events;
    report_stop(TimeOfImpactKind::static_sweep, bi, b.toi_clock + s * (t - b.toi_clock));
    find_toi_events(bi);
    return true;
}

// Ends a body's motion at step fraction t (or at a wall its path meets
// before then): the rest of its step is lost. It stays there, and the
// bodies whose paths reach it there meet it: the events they had with its
// old path are stale. (Its path then starts there, so the final sweep
// against static geometry starts there too: the path to there is swept
// here.)
void World::Impl::clamp_at(int bi, real t, real dt, int carrier) {
    Body& b = bodies[bi];
    if (b.type != BodyType::dynamic) {
        return;
    }
    if (b.toi_clamped) {
        // Clamped where it stands (by a clamped body it met), and now met by
        // a kinematic body: carried with it from here.
        if (carrier >= 0 && !b.toi_carried && t >= b.toi_clock) {
            restart_path(bi, t, b.sweep.c2, b.sweep.a2);
            carry_on(bi, carrier, t, dt);
            find_toi_events(bi);
        }
        return;
    }
    const bool blocked = blocked_by_static(bi, t); // (then its path ends at the wall)
    if (!blocked) {
        const Sweep rest = sweep_from(b, t);
        b.sweep.c2 = rest.c1;
        b.sweep.a2 = rest.a1;
    }
    b.path_v = {};
    b.path_w = 0;
    b.toi_clamped = true;
    ++stats.toi_cap_hits;
    stats.toi_time_lost += (1 - t) * dt;
    report_stop(TimeOfImpactKind::clamped, bi, t);
    restart_path(bi, t, b.sweep.c2, b.sweep.a2);
    if (!blocked && carrier >= 0) {
        carry_on(bi, carrier, t, dt);
    }
    find_toi_events(bi);
}

// A body clamped against a kinematic body and left where it stops lies in
// that body's way, which no event changes: a box in the corner of a room of
// four boxes turning at 5.8 rad/s (30 Hz), its time of impact with the room
// failed, stayed at its last safe time, the turning floor passed into it,
// and position correction pushed it out through the floor.
void World::Impl::clamp_pair_at(const ToiEvent& e, real dt) {
    const int ia = shapes[e.shape_a].body;
    const int ib = shapes[e.shape_b].body;
    const auto carrier = [&](int other) {
        return bodies[other].type == BodyType::kinematic ? other : -1;
    };
    clamp_at(ia, e.t, dt, carrier(ib));
    clamp_at(ib, e.t, dt, carrier(ia));
}

void World::Impl::carry_on(int bi, int carrier, real t, real dt) {
    Body& b = bodies[bi];
    b.toi_carried = true;
    const Sweep& k = bodies[carrier].sweep; // (a kinematic body's path spans the step)
    const Transform there = get_transform(k, t);
    const real turn = (1 - t) * (k.a2 - k.a1);
    b.sweep.c2 = transform_point(get_transform(k, 1), inv_transform_point(there, b.sweep.c1));
    b.sweep.a2 = b.sweep.a1 + turn;
    const real remaining = (1 - t) * dt;
    if (remaining > 0) {
        b.path_v = (real(1) / remaining) * (b.sweep.c2 - b.sweep.c1);
        b.path_w = turn / remaining;
    }
    sync_transform(b);
    fit_moving_proxies(b);
    push_wall_event(bi);
}

// Puts a body at its pose at step fraction t, with its clock there, moving
// on at (v, w) for the rest of the step.
void World::Impl::advance_after_toi(int bi, real t, real dt, Vec2 v, real w) {
    const Sweep rest = sweep_from(bodies[bi], t);
    place_after_toi(bi, t, dt, rest.c1, rest.a1, v, w);
}

void World::Impl::place_after_toi(int bi, real t, real dt, Vec2 c, real angle, Vec2 v, real w) {
    Body& b = bodies[bi];
    b.sweep.c2 = c + ((1 - t) * dt) * v;
    b.sweep.a2 = angle + (1 - t) * dt * w;
    b.path_v = v;
    b.path_w = w;
    ++b.toi_count;
    restart_path(bi, t, c, angle);
}

// The body's path now starts at step fraction t from centre c and angle
// `angle` (its end kept): its clock is there, its events are stale, it has
// left its sub-step path, and its transform and proxies follow.
void World::Impl::restart_path(int bi, real t, Vec2 c, real angle) {
    Body& b = bodies[bi];
    b.sweep.c1 = c;
    b.sweep.a1 = angle;
    b.toi_clock = t;
    ++b.toi_stamp;
    if (!substep_path_of.empty()) {
        substep_path_of[static_cast<std::size_t>(bi)] = -1; // the sub-steps' path is left
    }
    sync_transform(b);
    fit_moving_proxies(b);
}

// The moving proxies of a body whose path changed, around its path from its
// clock to the step's end.
void World::Impl::fit_moving_proxies(const Body& b) {
    const real turn = std::abs(b.sweep.a2 - b.sweep.a1) * b.extent;
    for (int si : b.shapes) {
        const ShapeRecord& s = shapes[si];
        const Aabb box =
            inflate(union_of(shape_box(s, get_transform(b.sweep, 0)), shape_box(s, b.xf)), turn);
        move_moving_proxy(s.tree_proxy, box, Vec2{});
    }
}

namespace {

// The impulse solve of one event at the poses of its time of impact: a few
// sequential-impulse sweeps over the manifold points, each point's normal
// aiming for -e times its approach speed (0 below the restitution
// threshold), then friction clamped by Coulomb's law within it.
// inv_mass/inv_inertia 0 make a side immovable.
struct ImpactSide {
    Body* body;
    Vec2 center;
    real inv_mass;
    real inv_inertia;
};

// Whether a body has had all the events it may have this step.
bool toi_capped(const Body& x) {
    return x.type == BodyType::dynamic &&
           (x.toi_clamped || x.toi_count >= k_max_toi_events_per_body);
}

Vec2 point_velocity(const ImpactSide& s, Vec2 r) { return s.body->v + cross(s.body->w, r); }

void apply(ImpactSide& a, ImpactSide& b, Vec2 ra, Vec2 rb, Vec2 impulse) {
    a.body->v -= a.inv_mass * impulse;
    a.body->w -= a.inv_inertia * cross(ra, impulse);
    b.body->v += b.inv_mass * impulse;
    b.body->w += b.inv_inertia * cross(rb, impulse);
}

// How much deeper than touching, or than now where they already overlap,
// the bodies' paths (Body::path_v) take the manifold's points over
// `remaining` seconds: the most of any point, 0 when none approaches.
real path_deepening(const ImpactSide& a, const ImpactSide& b, const Manifold& m, real remaining) {
    real deepening = 0;
    for (int i = 0; i < m.count; ++i) {
        const Vec2 ra = m.points[i].point - a.center;
        const Vec2 rb = m.points[i].point - b.center;
        const Vec2 va = a.body->path_v + cross(a.body->path_w, ra);
        const Vec2 vb = b.body->path_v + cross(b.body->path_w, rb);
        const real closing = -dot(vb - va, m.normal) * remaining;
        deepening = std::max(deepening, closing - std::max(m.points[i].separation, real(0)));
    }
    return deepening;
}

constexpr int k_impact_iterations = 4;

// Returns the fastest approach speed; 0 when no point approaches. An
// approach no faster than `min_approach` is returned but not solved. Only
// the points that approach take impulses: a point already separating that
// the other's impulse turned in was held at speed 0, and ΔKE = Σ Pᵢ
// (vᵢ,before + vᵢ,after) / 2 then grew by its impulse times the speed it
// left at (a capsule spun at 22 rad/s struck a box with 5 % more energy).
// It may leave approaching: the step's later events and contacts meet it.
// Two points whose block matrix is ill-conditioned (nearly the same
// constraint) are one: the faster-approaching takes the impulse, as Box2D
// 2.4 keeps one point of such a manifold. Four rounds point by point left
// the pair far from both targets with impulses on both (5 % more energy).
real solve_impact(ImpactSide a, ImpactSide b, const Manifold& m, real friction, real restitution,
                  real restitution_threshold, real min_approach) {
    const Vec2 n = m.normal;
    const Vec2 t = right_perp(n);
    std::array<Vec2, 2> ra{}, rb{};
    std::array<real, 2> speed{}, target{}, normal_mass{}, tangent_mass{}, pn{}, pt{};
    std::array<bool, 2> approaching{};
    real approach = 0;
    const PairMass w{a.inv_mass, a.inv_inertia, b.inv_mass, b.inv_inertia};
    for (int i = 0; i < m.count; ++i) {
        ra[i] = m.points[i].point - a.center;
        rb[i] = m.points[i].point - b.center;
        const real vn = dot(point_velocity(b, rb[i]) - point_velocity(a, ra[i]), n);
        approach = std::max(approach, -vn);
        speed[i] = vn;
        approaching[i] = vn < 0;
        target[i] = vn < -restitution_threshold ? -restitution * vn : 0;
        normal_mass[i] = effective_mass(w, ra[i], rb[i], n);
        tangent_mass[i] = effective_mass(w, ra[i], rb[i], t);
    }
    if (approach <= min_approach) {
        return std::max(approach, real(0));
    }
    const BlockMatrix k = m.count == 2 && approaching[0] && approaching[1]
                              ? block_matrix(w, ra[0], rb[0], ra[1], rb[1], n)
                              : BlockMatrix{};
    if (m.count == 2 && approaching[0] && approaching[1] && !k.well_conditioned) {
        approaching[speed[0] <= speed[1] ? 1 : 0] = false;
    }
    const auto normal_speed = [&](int i) {
        return dot(point_velocity(b, rb[i]) - point_velocity(a, ra[i]), n);
    };
    // The normal first, then friction within it (as the step's solve:
    // docs/conventions.md, "Friction").
    const auto solve_normal = [&] {
        if (k.well_conditioned) {
            // Both points at once: one after the other, four rounds left a
            // face hit off its centre far from its targets (an elastic
            // pair of boxes left 3 % more energy than they came with).
            const real b1 = normal_speed(0) - target[0] - (k.k11 * pn[0] + k.k12 * pn[1]);
            const real b2 = normal_speed(1) - target[1] - (k.k12 * pn[0] + k.k22 * pn[1]);
            if (const std::optional<std::array<real, 2>> x = solve_block_lcp(k, b1, b2)) {
                for (int i = 0; i < 2; ++i) {
                    apply(a, b, ra[i], rb[i], ((*x)[i] - pn[i]) * n);
                    pn[i] = (*x)[i];
                }
                return;
            }
        }
        for (int i = 0; i < m.count; ++i) {
            if (!approaching[i]) {
                continue;
            }
            const real next =
                std::max(pn[i] - normal_mass[i] * (normal_speed(i) - target[i]), real(0));
            apply(a, b, ra[i], rb[i], (next - pn[i]) * n);
            pn[i] = next;
        }
    };
    for (int it = 0; it < k_impact_iterations; ++it) {
        solve_normal();
        for (int i = 0; i < m.count; ++i) {
            const real vt = dot(point_velocity(b, rb[i]) - point_velocity(a, ra[i]), t);
            const real limit = friction * pn[i];
            const real next = std::clamp(pt[i] - tangent_mass[i] * vt, -limit, limit);
            apply(a, b, ra[i], rb[i], (next - pt[i]) * t);
            pt[i] = next;
        }
    }
    return approach;
}

} // namespace

void World::Impl::resolve_toi_event(const ToiEvent& e, real dt) {
    const int ia = shapes[e.shape_a].body;
    const int ib = shapes[e.shape_b].body;
    if (e.failed) {
        clamp_pair_at(e, dt); // stay at the last safe time
        return;
    }
    const bool wall_a = blocked_by_static(ia, e.t);
    const bool wall_b = blocked_by_static(ib, e.t);
    if (wall_a || wall_b) {
        return;
    }
    // A sleeping body met by a fast one (its contact search missed it)
    // wakes; the rest of its island follows at the next contact search.
    wake_island(ia, false);
    wake_island(ib, false);
    Body& a = bodies[ia];
    Body& b = bodies[ib];
    const Sweep sa = sweep_from(a, e.t);
    const Sweep sb = sweep_from(b, e.t);
    const CollideSettings settings{tol.speculative_distance, tol.linear_slop};
    // collide_pair: a kinematic platform's seams and buried vertices count
    // at an impact as in its contacts.
    const Manifold m =
        collide_pair(e.shape_a, e.shape_b, get_transform(sa, 0), get_transform(sb, 0), settings);
    if (m.count == 0) {
        clamp_pair_at(e, dt); // the TOI and the manifold disagree: stop where it is safe
        return;
    }
    if (pre_solve && !pre_solve(shape_id(e.shape_a), shape_id(e.shape_b), m)) {
        const ShapePair pair{shape_id(e.shape_a), shape_id(e.shape_b)};
        disabled_pairs.insert(std::upper_bound(disabled_pairs.begin(), disabled_pairs.end(), pair),
                              pair);
        return;
    }
    // Past its cap a body is clamped here, and so is its partner: treating
    // the capped one as immovable instead would hand the partner energy
    // from nowhere (a heavy box kicked away by a pinned grain). Unless the
    // partner's path takes it no deeper than the correction's slop: a
    // resting neighbour of a clamped body (whose path stops) goes on.
    if (toi_capped(a) || toi_capped(b)) {
        if (path_deepening({&a, sa.c1, 0, 0}, {&b, sb.c1, 0, 0}, m, (1 - e.t) * dt) >
            tol.linear_slop) {
            clamp_pair_at(e, dt);
        }
        return;
    }
    // A body a wall event rested against a wall, pushed towards it, is
    // braced by it: immovable in this impact (a box landing on a disc that
    // rests on the ground stops; solved as a pair, the disc went into the
    // ground, stopped at it again, and so on until the caps).
    const bool braced_a = dot(-m.normal, a.into_wall) > 0;
    const bool braced_b = dot(m.normal, b.into_wall) > 0;
    const ImpactSide side_a{&a, sa.c1, braced_a ? 0 : a.inv_mass, braced_a ? 0 : a.inv_inertia};
    const ImpactSide side_b{&b, sb.c1, braced_b ? 0 : b.inv_mass, braced_b ? 0 : b.inv_inertia};
    const ShapeRecord& shape_a = shapes[e.shape_a];
    const ShapeRecord& shape_b = shapes[e.shape_b];
    // A pair closing so slowly that the rest of the step takes it less than
    // the touch tolerance deeper is no impact: it joins the contacts (the
    // correction keeps it apart) and the bodies go on. Solving it would
    // leave a rounding residue of its approach, an event of the same pair
    // at the same time again, until the bodies' event caps clamped them
    // (a box resting on a platform, after hitting a wall at 300 L/s).
    const real remaining = (1 - e.t) * dt;
    const real min_approach =
        remaining > 0 ? tol.touch_tolerance / remaining : std::numeric_limits<real>::max();
    // The pair meets at the velocities the sub-steps moved the bodies at
    // there: a wall behind the struck body that the fast one's speculative
    // contact reached had stopped it by the step's end (a disc fired at a
    // disc in front of a wall stopped dead, the other never moved).
    const std::array<std::pair<Vec2, real>, 2> end{{{a.v, a.w}, {b.v, b.w}}};
    const auto restore_end_velocities = [&] {
        std::tie(a.v, a.w) = end[0];
        std::tie(b.v, b.w) = end[1];
    };
    const bool held = std::binary_search(contact_keys.begin(), contact_keys.end(),
                                         ordered_key(e.shape_a, e.shape_b));
    // A pair the solve held whose bodies' sub-step paths do not run into
    // each other meets only on the straight paths from their start to their
    // end, which spread over the whole step a turn or a slide the solve gave
    // them when they landed: nothing happens here. (A disc with a box on it
    // landing at 250 L/s met so a quarter of the way down, and the impact,
    // with the velocities they had after landing, left them there.) One
    // whose paths do meets where they do, where resolve_on_substep_paths
    // applies; elsewhere as below, but then, not now (a disc with
    // restitution sliding along a spinning bar, met where the step began,
    // where nothing approached, ended the step through the bar's far half,
    // which the turn swept into it).
    if (held && has_substep_path(ia, ib) && !e.known) {
        const std::optional<real> met = substep_path_meeting(e, dt);
        if (!met || resolve_on_substep_paths(e, *met, dt)) {
            return;
        }
        if (*met > e.t) {
            push_known_event(e, *met);
            return;
        }
    }
    const bool met_in_substeps = take_substep_velocities(ia, ib, e.t, held);
    // A pair the solve held bounced by its restitution, which the
    // sub-steps' velocities have not had: they only tell whether the pair
    // still met here. (A column that landed in the sub-steps met again at
    // the step's start with its end velocities, and went back there.)
    const bool parted_in_substeps =
        met_in_substeps && held &&
        solve_impact(side_a, side_b, m, 0, 0, 0, std::numeric_limits<real>::max()) <= min_approach;
    if (met_in_substeps && held) {
        restore_end_velocities();
    }
    const real approach =
        parted_in_substeps
            ? real(0)
            : solve_impact(side_a, side_b, m, combine_friction(shape_a.material, shape_b.material),
                           combine_restitution(shape_a.material, shape_b.material),
                           tol.restitution_threshold, min_approach);
    if (approach <= min_approach) {
        if (met_in_substeps && !held) {
            restore_end_velocities();
        }
        if (path_deepening(side_a, side_b, m, remaining) > tol.linear_slop) {
            // The path of a sub-stepped solve runs on into the pair, though
            // the velocity parts them (a contact turned a body within the
            // step): the path ends here. A path that only closes the gap
            // the pair has here, or overlaps it by no more than the linear
            // slop the correction leaves a resting pair, goes on: two discs
            // pushed together at 150 L/s into a wall, touching where they
            // started, lost their whole step so (the solve had stopped them
            // at the wall), and a column that landed in the sub-steps,
            // 0.26 slop deeper between two of its bodies, hung in the air.
            divert_at_toi(e, m, dt);
            return;
        }
        if (approach > 0) {
            record_toi_contact(e.shape_a, e.shape_b, m);
        }
        search_after_graze(e, m);
        return; // touching but parting, or as good as: nothing happens now
    }
    ++stats.toi_pair_events;
    events.time_of_impact.push_back(
        {TimeOfImpactKind::pair, body_id(ia), body_id(ib), m.points[0].point, e.t});
    for (const int bi : {ia, ib}) {
        if (bodies[bi].type == BodyType::dynamic) {
            advance_after_toi(bi, e.t, dt, bodies[bi].v, bodies[bi].w);
        }
    }
    record_toi_contact(e.shape_a, e.shape_b, m);
    report_impact_hit(e.shape_a, e.shape_b, m, approach);
    for (const int bi : {ia, ib}) {
        if (bodies[bi].type == BodyType::dynamic && !bodies[bi].toi_clamped) {
            find_toi_events(bi);
            push_wall_event(bi);
        }
    }
}

bool World::Impl::take_substep_velocities(int ia, int ib, real t, bool shared_contact) {
    const std::array<int, 2> ids{ia, ib};
    std::array<Vec2, 2> v{};
    std::array<real, 2> w{};
    std::array<int, 2> sub{};
    std::array<bool, 2> met{};
    for (std::size_t k = 0; k < 2; ++k) {
        sub[k] = substep_velocity_at(ids[k], t, v[k], w[k]);
        met[k] = sub[k] >= 0;
    }
    if (!met[0] && !met[1]) {
        return false;
    }
    if (shared_contact) {
        for (std::size_t k = 0; k < 2; ++k) {
            if (!met[k] && bodies[ids[k]].type == BodyType::dynamic) {
                return false;
            }
        }
        if (met[0] && met[1] && sub[0] != sub[1]) {
            return false;
        }
    }
    for (std::size_t k = 0; k < 2; ++k) {
        if (met[k]) {
            bodies[ids[k]].v = v[k];
            bodies[ids[k]].w = w[k];
        }
    }
    return true;
}

// A pair the solve held whose sub-step paths run into each other meets
// where those paths take it half a linear slop deep, not where the
// straight paths do: the straight paths spread over the whole step a turn
// or a slide the solve gave the bodies when they landed. (A disc with a
// spinning capsule on it, landing at 341 L/s, met so 0.6 L above the ground
// at the velocities it had after landing, and hung there for steps.) Both
// bodies go there at the velocities the sub-steps moved them at, take the
// impact, and go on from there in a straight line; so do the bodies the
// solve's contacts link them to, each at its own pose then on its sub-step
// path, so that the column they stand in stays whole (rebase_on_substep_paths).
bool World::Impl::resolve_on_substep_paths(const ToiEvent& e, real t_met, real dt) {
    const int ia = shapes[e.shape_a].body;
    const int ib = shapes[e.shape_b].body;
    const ShapeRecord& shape_a = shapes[e.shape_a];
    const ShapeRecord& shape_b = shapes[e.shape_b];
    const real restitution = combine_restitution(shape_a.material, shape_b.material);
    if (!on_substep_path(ia) || !on_substep_path(ib) || restitution > 0) {
        return false;
    }
    const real t = substep_path_contact_time(e, t_met);
    const PathState pa = substep_state_at(ia, t);
    const PathState pb = substep_state_at(ib, t);
    const Manifold m = collide_pair(e.shape_a, e.shape_b, pa.xf, pb.xf,
                                    {tol.speculative_distance, tol.linear_slop});
    if (m.count == 0 || !reaches_past_static(ia, pa) || !reaches_past_static(ib, pb)) {
        return false;
    }
    // (resolve_toi_event has clamped a pair with a body past its cap.)
    Body& a = bodies[ia];
    Body& b = bodies[ib];
    std::tie(a.v, a.w) = std::pair(pa.v, pa.w);
    std::tie(b.v, b.w) = std::pair(pb.v, pb.w);
    const real approach = solve_impact(
        {&a, pa.c, a.inv_mass, a.inv_inertia}, {&b, pb.c, b.inv_mass, b.inv_inertia}, m,
        combine_friction(shape_a.material, shape_b.material), 0, tol.restitution_threshold, 0);
    ++stats.toi_pair_events;
    events.time_of_impact.push_back(
        {TimeOfImpactKind::pair, body_id(ia), body_id(ib), m.points[0].point, t});
    std::vector<int>& placed = substep_rebased;
    placed.clear();
    for (const auto& [bi, p] : {std::pair(ia, pa), std::pair(ib, pb)}) {
        if (bodies[bi].type == BodyType::dynamic) {
            place_after_toi(bi, t, dt, p.c, p.angle, bodies[bi].v, bodies[bi].w);
            placed.push_back(bi);
        }
    }
    record_toi_contact(e.shape_a, e.shape_b, m);
    report_impact_hit(e.shape_a, e.shape_b, m, approach);
    rebase_on_substep_paths(placed, t, dt);
    for (const int bi : placed) {
        if (!bodies[bi].toi_clamped) {
            find_toi_events(bi);
            push_wall_event(bi);
        }
    }
    return true;
}

bool World::Impl::on_substep_path(int bi) const {
    return bodies[bi].type != BodyType::dynamic ||
           substep_path_of[static_cast<std::size_t>(bi)] >= 0;
}

real World::Impl::substep_path_contact_time(const ToiEvent& e, real t_met) const {
    const real sample = (1 - e.t) / static_cast<real>(2 * def.solver_substeps);
    real before = std::max(e.t, t_met - sample);
    real after = t_met;
    const real most_depth = k_substep_contact_depth * tol.linear_slop;
    for (int i = 0; i < k_substep_contact_bisections; ++i) {
        const real mid = real(0.5) * (before + after);
        const Manifold m = substep_pair_at(e, mid).m;
        const bool deep =
            std::any_of(m.points.begin(), m.points.begin() + m.count,
                        [&](const ManifoldPoint& p) { return -p.separation > most_depth; });
        (deep ? after : before) = mid;
    }
    return before;
}

bool World::Impl::reaches_past_static(int bi, const PathState& p) {
    const Body& b = bodies[bi];
    if (b.type != BodyType::dynamic) {
        return true;
    }
    Sweep part = b.sweep;
    part.c2 = p.c;
    part.a2 = p.angle;
    const real s = first_static_impact(b, part).t;
    const real travel = length(part.c2 - part.c1) + std::abs(part.a2 - part.a1) * b.extent;
    return s >= 1 || (1 - s) * travel <= 2 * tol.linear_slop;
}

void World::Impl::rebase_on_substep_paths(std::vector<int>& placed, real t, real dt) {
    link_contacts();
    for (std::size_t k = 0; k < placed.size(); ++k) {
        const auto x = static_cast<std::size_t>(placed[k]);
        for (int l = contact_link_start[x]; l < contact_link_start[x + 1]; ++l) {
            const int y = contact_links[static_cast<std::size_t>(l)];
            Body& by = bodies[y];
            if (by.type != BodyType::dynamic || substep_path_of[static_cast<std::size_t>(y)] < 0 ||
                by.toi_clock >= t) {
                continue;
            }
            const PathState p = substep_state_at(y, t);
            if (!reaches_past_static(y, p)) {
                continue;
            }
            const real rest = (1 - t) * dt;
            if (rest > 0) {
                by.path_v = (1 / rest) * (by.sweep.c2 - p.c);
                by.path_w = (by.sweep.a2 - p.angle) / rest;
            }
            restart_path(y, t, p.c, p.angle);
            placed.push_back(y);
        }
    }
}

void World::Impl::link_contacts() {
    if (contacts_linked) {
        return;
    }
    contacts_linked = true;
    const std::span<const Contact> solved(contacts.data(), solved_contacts);
    contact_link_start.assign(bodies.size() + 1, 0);
    for (const Contact& c : solved) {
        ++contact_link_start[static_cast<std::size_t>(c.body_a)];
        ++contact_link_start[static_cast<std::size_t>(c.body_b)];
    }
    // (Each body's count turns into the end of its links, and filling them
    // from the back turns it into their start.)
    std::partial_sum(contact_link_start.begin(), contact_link_start.end(),
                     contact_link_start.begin());
    contact_links.resize(static_cast<std::size_t>(contact_link_start.back()));
    for (const Contact& c : solved) {
        const auto a = static_cast<std::size_t>(c.body_a);
        const auto b = static_cast<std::size_t>(c.body_b);
        contact_links[static_cast<std::size_t>(--contact_link_start[a])] = c.body_b;
        contact_links[static_cast<std::size_t>(--contact_link_start[b])] = c.body_a;
    }
}

// A graze: the pair of event `e` (manifold `m` at its time) touches but
// parts. Bodies that only translate part for good then (the distance
// between two convex shapes moving linearly is convex in time), but turning
// ones may meet again within the step: two polygons spinning at 184 and 102
// rad/s grazed at 0.54 of a step, then met corner to face at 0.72 and
// ended it 12 slops deep, the pair dropped (random scene 70145). A turning
// pair joins the contacts, so that position correction holds it apart at
// the step's end whatever happens before; where a body turns farther than
// its inner radius in the rest of the step (fast, as begin_toi_phase counts
// motion), the pair's next meeting is also searched for from here, within
// half the graze's distance, so that the search starts clear of its target
// and every graze brings the pair nearer (none below k_min_graze_distance).
// A search that fails leaves the pair to the correction: clamping the
// bodies there would lose the rest of their step for a safety net.
void World::Impl::search_after_graze(const ToiEvent& e, const Manifold& m) {
    const Body& a = bodies[shapes[e.shape_a].body];
    const Body& b = bodies[shapes[e.shape_b].body];
    const Sweep sa = sweep_from(a, e.t);
    const Sweep sb = sweep_from(b, e.t);
    const real turn_a = std::abs(sa.a2 - sa.a1) * a.extent;
    const real turn_b = std::abs(sb.a2 - sb.a1) * b.extent;
    if (turn_a == 0 && turn_b == 0) {
        return;
    }
    record_toi_contact(e.shape_a, e.shape_b, m);
    if (turn_a <= a.inner_radius && turn_b <= b.inner_radius) {
        return;
    }
    SimplexCache cache;
    const DistanceOutput d = distance({shapes[e.shape_a].proxy, shapes[e.shape_b].proxy,
                                       get_transform(sa, 0), get_transform(sb, 0), true},
                                      cache);
    if (d.state != DistanceState::separated ||
        d.distance < k_min_graze_distance * tol.linear_slop) {
        search_deepening(e, m);
        return;
    }
    const real target = real(0.5) * std::min(d.distance, tol.linear_slop);
    push_toi_event(e.shape_a, e.shape_b, e.t, target, real(0.25) * target, false);
}

void World::Impl::push_known_event(const ToiEvent& e, real t) {
    ToiEvent known = e;
    known.t = t;
    known.stamp_a = bodies[shapes[e.shape_a].body].toi_stamp;
    known.stamp_b = bodies[shapes[e.shape_b].body].toi_stamp;
    known.failed = false;
    known.known = true;
    push_event(toi_queue, known);
}

real World::Impl::pair_overlap_at(const ToiEvent& e, real t) const {
    const real beta = (t - e.t) / (1 - e.t);
    const Sweep sa = sweep_from(bodies[shapes[e.shape_a].body], e.t);
    const Sweep sb = sweep_from(bodies[shapes[e.shape_b].body], e.t);
    return overlap_of(collide_pair(e.shape_a, e.shape_b, get_transform(sa, beta),
                                   get_transform(sb, beta), {0, tol.linear_slop}));
}

void World::Impl::search_deepening(const ToiEvent& e, const Manifold& m) {
    if (e.t >= 1) {
        return;
    }
    const Body& a = bodies[shapes[e.shape_a].body];
    const Body& b = bodies[shapes[e.shape_b].body];
    const Sweep sa = sweep_from(a, e.t);
    const Sweep sb = sweep_from(b, e.t);
    const real motion = distance(sb.c2 - sb.c1, sa.c2 - sa.c1) +
                        std::abs(sa.a2 - sa.a1) * a.extent + std::abs(sb.a2 - sb.a1) * b.extent;
    const real reach = k_deepening_sample_reach * std::min(a.inner_radius, b.inner_radius);
    // (Clamped as a real: a tiny body's ratio may exceed an int.)
    const int samples = static_cast<int>(
        std::clamp(std::ceil(motion / reach), real(1), real(k_max_deepening_samples)));
    const real deeper = overlap_of(m) + tol.linear_slop;
    real shallow = e.t;
    for (int k = 1; k <= samples; ++k) {
        const real t = e.t + (1 - e.t) * static_cast<real>(k) / static_cast<real>(samples);
        if (pair_overlap_at(e, t) <= deeper) {
            shallow = t;
            continue;
        }
        real deep = t;
        for (int i = 0; i < k_deepening_bisections; ++i) {
            const real mid = real(0.5) * (shallow + deep);
            (pair_overlap_at(e, mid) <= deeper ? shallow : deep) = mid;
        }
        if (shallow > e.t) { // (else deeper at once, where the velocities part the pair)
            push_known_event(e, shallow);
        }
        return;
    }
}

// Ends the paths of an event's dynamic bodies at its time: they rest there
// for the rest of the step, their velocities kept for the next (Box2D v3
// stops a body at its time of impact so), and their events are searched
// again from there. Against a kinematic body, whose path no event changes,
// resting would leave the body in its way: it goes on at its velocity,
// which the impact found parting the pair. (A box pushed along a floor at
// 100 L/s by a kinematic disc, its sub-stepped path a hair slower than the
// disc, rested at the same time again and again until its event cap
// clamped it there, and the disc passed through it.)
void World::Impl::divert_at_toi(const ToiEvent& e, const Manifold& m, real dt) {
    const int ia = shapes[e.shape_a].body;
    const int ib = shapes[e.shape_b].body;
    const bool kinematic =
        bodies[ia].type == BodyType::kinematic || bodies[ib].type == BodyType::kinematic;
    for (const int bi : {ia, ib}) {
        Body& b = bodies[bi];
        if (b.type == BodyType::dynamic) {
            advance_after_toi(bi, e.t, dt, kinematic ? b.v : Vec2{}, kinematic ? b.w : 0);
        }
    }
    record_toi_contact(e.shape_a, e.shape_b, m);
    for (const int bi : {ia, ib}) {
        if (bodies[bi].type == BodyType::dynamic && !bodies[bi].toi_clamped) {
            find_toi_events(bi);
        }
    }
}

// A hit event for a pair that has none yet this step (one a contact: an
// impact after the solve's hit, or a second impact, reported a box fired at
// a disc twice).
void World::Impl::report_impact_hit(int shape_a, int shape_b, const Manifold& m, real approach) {
    const ShapeId a = shape_id(shape_a);
    const ShapeId b = shape_id(shape_b);
    const ShapePair pair = unordered_pair(a, b);
    const bool reported = std::any_of(
        events.contact_hit.begin(), events.contact_hit.end(),
        [&](const ContactHitEvent& h) { return unordered_pair(h.shape_a, h.shape_b) == pair; });
    if (reported || approach <= def.hit_speed_threshold * def.length_units_per_meter) {
        return;
    }
    events.contact_hit.push_back(
        {a, b, owner_of(a), owner_of(b), m.points[0].point, m.normal, approach});
}

// Contacts for every pair near each awake dynamic body `flagged(body)`
// says may have met ones it has none with (add_contacts_near). Returns how
// many joined.
template <class Flagged> int World::Impl::add_contacts_of_bodies(Flagged&& flagged) {
    const auto is_flagged = [&](int bi) {
        const Body& b = bodies[bi];
        return b.alive && b.type == BodyType::dynamic && b.awake && flagged(b, bi);
    };
    const auto flagged_end = step_bodies.end();
    const auto first = std::find_if(step_bodies.begin(), flagged_end, is_flagged);
    if (first == flagged_end) {
        return 0; // (most calls: no strays to find)
    }
    find_strays();
    int added = 0;
    for (auto it = first; it != flagged_end; ++it) {
        if (it == first || is_flagged(*it)) {
            added += add_contacts_near(*it);
        }
    }
    return added;
}

// A body the final sweep stopped is pulled back along its path, where
// other moving bodies may have gone meanwhile: pairs the step's contact
// search never made (two fast bodies, each stopped short by a wall, end
// inside each other) join the contacts, so that the next round's
// correction keeps them apart.
int World::Impl::add_contacts_of_stopped_bodies() {
    return add_contacts_of_bodies([](const Body& b, int) { return b.stopped; });
}

// The final sweep lets a shape that begins its sweep touching a wall sweep
// its core instead (static_impact), trusting position correction to hold
// the shape within the slop there: it may then end up to 2 slops and a
// touch tolerance inside. A wall it began touching that is no contact (its
// sweep began where an impact event left it, by a wall the step's search
// had found beyond its margin) gets none of that correction: a box spun
// off a polygon onto a chain loop's vertex ended 2.24 slops inside (seed
// 62715 of the random scenes). Such pairs join the contacts at the
// current poses, so that the next round corrects them. Returns how many
// joined.
int World::Impl::add_contacts_of_touched_walls() {
    int added = 0;
    const CollideSettings settings{tol.speculative_distance, tol.linear_slop};
    // (In shape order: the static broadphase reported them in its own, and
    // a tree's and a grid's differ.)
    std::sort(touched_walls.begin(), touched_walls.end());
    for (const auto& [si, wall] : touched_walls) {
        const Manifold m = collide_pair(si, wall, bodies[shapes[si].body].xf,
                                        bodies[shapes[wall].body].xf, settings);
        if (m.count > 0 && record_toi_contact(si, wall, m)) {
            ++added;
        }
    }
    return added;
}

void World::Impl::keep_poses_before_correction() {
    keep_poses(corrected_centers, corrected_angles);
}

// Position correction pushes a body up to k_max_linear_correction per
// sweep, for dozens of sweeps, and only along the pairs it has contacts
// for: a body pushed out of a crowd may end inside a neighbour it had
// none with (0.08 L, seed 60021 of the random scenes). A body the round's
// correction moved more than half the speculative distance gets contacts
// for the pairs it now meets.
int World::Impl::add_contacts_of_corrected_bodies() {
    const real limit = real(0.5) * tol.speculative_distance;
    return add_contacts_of_bodies([&](const Body& b, int bi) {
        return distance(b.sweep.c2, corrected_centers[bi]) +
                   std::abs(b.sweep.a2 - corrected_angles[bi]) * b.extent >
               limit;
    });
}

// The contact search gave each pair a margin for how far its bodies close
// at their velocities then; the solve may send a body faster toward a
// neighbour it found no contact with (a body squeezed out of a crowd closed
// 0.47 L in a step on a pair with a 0.07 L margin and ended 0.29 L inside
// it), and an impact event may stop it short (a body clamped at its event
// cap, run into by the crowd behind it). A body that ends the impact phase
// farther than half the speculative distance from where the search
// assumed, and any clamped body (a fast disc ran 0.4 px into a slow box
// clamped in its way in the Excalibur city map: the box's clamp left their
// event stale), gets contacts for the pairs it now meets. Searching a
// clamped body's events again instead cascaded clamps through the 500-body
// pile and left it flying.
void World::Impl::add_contacts_of_deflected_bodies() {
    const real limit = real(0.5) * tol.speculative_distance;
    add_contacts_of_bodies([&](const Body& b, int) {
        return b.toi_clamped || distance(b.sweep.c2, b.searched_center) +
                                        std::abs(b.sweep.a2 - b.searched_angle) * b.extent >
                                    limit;
    });
}

// Every pair of one of the body's shapes with a static or moving shape
// within the speculative distance of it, at the current poses, that is not
// a contact yet becomes one (record_toi_contact). Returns how many did.
// The moving tree finds other moving shapes by their fat boxes, which a
// stray has left (find_strays): those are looked at where they are. (Seed
// 1008219 of the random scenes, one-step solve at 30 Hz: a box falling at
// 145 L/s bounced back up through impact events, 2.7 L from the path its
// box was made for, and a disc the final sweep pulled back along its path
// ended 0.15 L inside it, with no contact to push them apart.)
int World::Impl::add_contacts_near(int bi) {
    int added = 0;
    const Body& b = bodies[bi];
    const CollideSettings settings{tol.speculative_distance, tol.linear_slop};
    for (const int si : b.shapes) {
        const Aabb box = inflate(shape_box(shapes[si], b.xf), tol.speculative_distance);
        // The partners in shape order: the contacts join in it, whatever
        // order the static broadphase (a tree's and a grid's differ) found
        // them in, so that the correction's sweeps are the same.
        near_partners.clear();
        for_each_partner_near(si, box, [&](int oi) { near_partners.push_back(oi); });
        if (!shapes[si].sensor) {
            for (const int stray : strays) {
                for (const int oi : bodies[stray].shapes) {
                    if (is_partner(si, oi) &&
                        overlaps(box, shape_box(shapes[oi], bodies[stray].xf))) {
                        near_partners.push_back(oi);
                    }
                }
            }
        }
        std::sort(near_partners.begin(), near_partners.end());
        for (const int oi : near_partners) {
            if (std::binary_search(contact_keys.begin(), contact_keys.end(), ordered_key(si, oi))) {
                continue; // a contact already (or just made): no manifold needed
            }
            const Manifold m = collide_pair(si, oi, b.xf, bodies[shapes[oi].body].xf, settings);
            if (m.count > 0 && record_toi_contact(si, oi, m)) {
                ++added;
            }
        }
    }
    return added;
}

// The awake dynamic bodies with a shape outside its fat box in the moving
// tree: moved by the solve, impacts, corrections or sweeps off the path the
// box was made for. (Most are seen not to be from the circle about the
// centre of mass that holds the body's shapes.)
void World::Impl::find_strays() {
    strays.clear();
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::dynamic || !b.awake) {
            continue;
        }
        const Vec2 reach{b.extent, b.extent};
        const Aabb disc{b.sweep.c2 - reach, b.sweep.c2 + reach};
        for (const int si : b.shapes) {
            const Aabb& fat = moving_tree.fat_aabb(shapes[si].tree_proxy);
            if (!contains(fat, disc) && !contains(fat, shape_box(shapes[si], b.xf))) {
                strays.push_back(bi);
                break;
            }
        }
    }
}

// A body still at the pose seen_inside holds, with the boxes it was seen in
// (a change of one clears it), is still inside them: most bodies (all but
// those an impact, a correction or a sweep moved) cost a comparison.
void World::Impl::refit_strays() {
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::dynamic || !b.awake || b.seen_inside == b.xf) {
            continue;
        }
        for (const int si : b.shapes) {
            ShapeRecord& s = shapes[si];
            const Aabb box = shape_box(s, b.xf);
            if (!contains(moving_tree.fat_aabb(s.tree_proxy), box)) {
                set_moving_fat_aabb(s.tree_proxy, inflate(box, tol.aabb_margin));
                moving_of(s).refitted = true;
            }
        }
    }
}

// The pair joins the step's contacts, so position correction keeps it apart
// and the touching events see it. Returns false if it was one already. A
// sleeping body met so wakes with its island, as the contact search wakes
// what it meets: correction would otherwise push it while it sleeps, into
// neighbours nothing searches it against (a box pushed out of a kinematic
// disc created inside it pushed a sleeping one 0.2 L, 0.22 L into the box
// beside it, with no contact).
bool World::Impl::record_toi_contact(int shape_a, int shape_b, const Manifold& m) {
    const std::uint64_t key = ordered_key(shape_a, shape_b);
    const auto at = std::lower_bound(contact_keys.begin(), contact_keys.end(), key);
    if (at != contact_keys.end() && *at == key) {
        return false;
    }
    contact_keys.insert(at, key);
    for (const int bi : {shapes[shape_a].body, shapes[shape_b].body}) {
        if (bodies[bi].type == BodyType::dynamic) {
            wake_island(bi, false);
        }
    }
    Contact c;
    c.shape_a = shape_a;
    c.shape_b = shape_b;
    c.generation_a = shapes[shape_a].generation;
    c.generation_b = shapes[shape_b].generation;
    c.body_a = shapes[shape_a].body;
    c.body_b = shapes[shape_b].body;
    c.round_a = shapes[shape_a].shape.type == ShapeType::circle;
    c.round_b = shapes[shape_b].shape.type == ShapeType::circle;
    c.manifold = m;
    c.friction = combine_friction(shapes[shape_a].material, shapes[shape_b].material);
    c.restitution = combine_restitution(shapes[shape_a].material, shapes[shape_b].material);
    c.rolling_resistance = combine_rolling_resistance(shapes[shape_a], shapes[shape_b]);
    contacts.push_back(c);
    return true;
}

// The final sweep: after each round of position correction (single_step),
// every dynamic body's path is swept against static geometry and stopped at
// its first time of impact. blocked_by_static above sweeps a path to an
// event's time with the same first_static_impact.
int World::Impl::sweep_against_static(bool keep_landings) {
    touched_walls.clear();
    int stopped = 0;
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::dynamic || !b.awake) {
            continue;
        }
        const StaticHit hit = first_static_impact(b, b.sweep, keep_landings);
        const real t = hit.t;
        // A body already resting where its sweep stops (a re-sweep of a
        // stopped body ends within the touch band, a hair before t = 1)
        // need not move: only a real pull-back counts.
        if ((1 - t) * path_length(b) > tol.touch_tolerance) {
            b.sweep.c2 = lerp(b.sweep.c1, b.sweep.c2, t);
            b.sweep.a2 = b.sweep.a1 + t * (b.sweep.a2 - b.sweep.a1);
            sync_transform(b);
            b.stopped = true;
            ++stats.toi_events;
            // The sweep starts at the body's TOI clock (its last event).
            b.toi_clock += t * (1 - b.toi_clock);
            report_stop(TimeOfImpactKind::static_sweep, bi, b.toi_clock);
            // The next round sweeps the body on from here, as a TOI
            // event does: the path to here is swept, and a sweep from
            // the step's start again would retrace it. (A box spinning
            // under a ceiling stopped near its start, where its turn
            // first reached the ceiling, in every round, so position
            // correction never freed it of the box beside it.)
            b.sweep.c1 = b.sweep.c2;
            b.sweep.a1 = b.sweep.a2;
            hit_wall(bi, hit);
            ++stopped;
        }
    }
    return stopped;
}

Vec2 World::Impl::hit_wall(int bi, const StaticHit& hit) {
    Body& b = bodies[bi];
    const ShapeRecord& shape = shapes[hit.shape];
    const ShapeRecord& wall = shapes[hit.wall];
    Body& fixed = bodies[wall.body];
    const Manifold m = collide_pair(hit.shape, hit.wall, b.xf, fixed.xf,
                                    {tol.speculative_distance, tol.linear_slop});
    if (m.count == 0) {
        return {};
    }
    const real approach = solve_impact(
        {&b, b.sweep.c2, b.inv_mass, b.inv_inertia}, {&fixed, fixed.sweep.c2, 0, 0}, m,
        combine_friction(shape.material, wall.material),
        combine_restitution(shape.material, wall.material), tol.restitution_threshold, 0);
    report_impact_hit(hit.shape, hit.wall, m, approach);
    return m.normal;
}

real World::Impl::depth_between(int si, const Transform& xf_s, int oi,
                                const Transform& xf_o) const {
    const Manifold m = collide(shapes[si].shape, xf_s, shapes[oi].shape, xf_o,
                               CollideSettings{0, tol.linear_slop});
    real deepest = 0;
    for (int i = 0; i < m.count; ++i) {
        deepest = std::max(deepest, -m.points[i].separation);
    }
    return deepest;
}

void World::Impl::return_jams_to_step_start(real dt) {
    const real limit = 2 * tol.linear_slop;
    const auto returns = [&](int bi) {
        const Body& b = bodies[bi];
        return b.type == BodyType::dynamic && b.awake;
    };
    // Where body bi stands, or for one that returns where the step began.
    const auto start_of = [&](int bi) {
        const Body& b = bodies[bi];
        if (!returns(bi)) {
            return b.xf;
        }
        const Rot q = Rot::from_angle(b.step_angle);
        return Transform{b.step_center - rotate(q, b.sweep.local_center), q};
    };
    std::vector<int> jam;
    std::vector<bool> in_jam(bodies.size(), false);
    const auto join = [&](int bi) {
        if (returns(bi) && !in_jam[static_cast<std::size_t>(bi)]) {
            in_jam[static_cast<std::size_t>(bi)] = true;
            jam.push_back(bi);
        }
    };
    // The bodies already deeper than the limit in something where the step
    // began, by the solve's contacts (made there): their start is no safe
    // pose, so they never go back, and a pair of theirs is no jam. Two
    // bodies of several shapes that began deep in each other (or welded
    // so, moving as one), a correction turning them out of one pair of
    // shapes into another or into a third body, went back every step and
    // hung in mid-air; a disc a kinematic body crushed against another
    // disc on a shelf went back into the kinematic body's path, deeper
    // each step (seeds 1217, 1223 and 20019 of the touching pairs'
    // property test).
    std::vector<bool> deep_at_start(bodies.size(), false);
    for (const Contact& c : std::span(contacts.data(), solved_contacts)) {
        for (int i = 0; i < c.manifold.count; ++i) {
            if (c.manifold.points[i].separation < -limit) {
                deep_at_start[static_cast<std::size_t>(c.body_a)] = true;
                deep_at_start[static_cast<std::size_t>(c.body_b)] = true;
            }
        }
    }
    const auto clear_at_start = [&](int bi) {
        return !deep_at_start[static_cast<std::size_t>(bi)];
    };
    // Every pair of a moving body, whether or not it has a contact: the
    // last correction and sweep may have driven it into one the rounds'
    // contact searches never saw (in the moving tree once every shape lies
    // in its box).
    refit_strays();
    for (int a = 0; a < static_cast<int>(bodies.size()); ++a) {
        if (!bodies[a].alive || !returns(a) || !clear_at_start(a)) {
            continue;
        }
        for (const int si : bodies[a].shapes) {
            for_each_partner_near(si, shape_box(shapes[si], bodies[a].xf), [&](int oi) {
                const int b = shapes[oi].body;
                if (clear_at_start(b) &&
                    depth_between(si, bodies[a].xf, oi, bodies[b].xf) > limit &&
                    depth_between(si, start_of(a), oi, start_of(b)) <= limit) {
                    join(a);
                    join(b);
                }
            });
        }
    }
    // (Indexed: joining grows the list.)
    for (std::size_t k = 0; k < jam.size(); ++k) {
        const int bi = jam[k];
        Body& b = bodies[bi];
        b.sweep.c2 = b.step_center;
        b.sweep.a2 = b.step_angle;
        put_at_rest(b);
        sync_transform(b);
        ++stats.toi_cap_hits;
        stats.toi_time_lost += dt;
        report_stop(TimeOfImpactKind::returned, bi, 0);
        for (const int si : b.shapes) {
            for_each_partner_near(si, shape_box(shapes[si], b.xf), [&](int oi) {
                const int other = shapes[oi].body;
                if (returns(other) && !in_jam[static_cast<std::size_t>(other)] &&
                    clear_at_start(other) &&
                    depth_between(si, b.xf, oi, bodies[other].xf) > limit) {
                    join(other);
                }
            });
        }
    }
    // Where they went back to they may meet shapes they had no contact with
    // (a kinematic body, which goes on, has moved into that pose: seed
    // 1254 of the touching pairs' property test, 0.019 L): those pairs
    // become contacts, so that the step reports them touching and the next
    // step pushes them apart.
    for (const int bi : jam) {
        add_contacts_near(bi);
    }
}

void World::Impl::hold_stopped_at_sweep_start() {
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        if (b.alive && b.stopped) {
            b.sweep.c2 = b.sweep.c1;
            b.sweep.a2 = b.sweep.a1;
            sync_transform(b);
        }
    }
}

bool World::Impl::static_in_reach(const Body& b, const Sweep& sweep) const {
    // (The boxes' rounding grows with the coordinates, the body's origin's
    // and its shapes' too, which lie about the centre of mass: 16
    // epsilons of them beyond the slop.)
    const Vec2 center = sweep.local_center;
    const real scale = std::max({std::abs(sweep.c1.x), std::abs(sweep.c1.y), std::abs(sweep.c2.x),
                                 std::abs(sweep.c2.y)}) +
                       2 * (std::abs(center.x) + std::abs(center.y)) + b.extent;
    const real rounding = 16 * std::numeric_limits<real>::epsilon() * scale + tol.linear_slop;
    const real reach = b.extent + std::abs(sweep.a2 - sweep.a1) * b.extent + rounding;
    const Aabb box = inflate(union_of({sweep.c1, sweep.c1}, {sweep.c2, sweep.c2}), reach);
    bool any = false;
    query_static(box, [&any](ProxyId, std::uint64_t) {
        any = true;
        return false;
    });
    return any;
}

World::Impl::StaticHit World::Impl::first_static_impact(const Body& b, const Sweep& sweep,
                                                        bool keep_landings) {
    if (!static_in_reach(b, sweep)) {
        return {};
    }
    const Transform start = get_transform(sweep, 0);
    const Transform end = get_transform(sweep, 1);
    const real turn = std::abs(sweep.a2 - sweep.a1) * b.extent;
    StaticHit first;
    for (int si : b.shapes) {
        const ShapeRecord& s = shapes[si];
        if (s.sensor) {
            continue;
        }
        const Aabb box = inflate(union_of(shape_box(s, start), shape_box(s, end)), turn);
        query_static(box, [&](ProxyId, std::uint64_t other) {
            const int wall = static_cast<int>(other);
            if (may_collide(s, shapes[wall]) && !is_disabled(si, wall)) {
                bool touching = false;
                const real t = static_impact(sweep, s, shapes[wall], keep_landings, touching);
                // Ties (a box landing across two tiles) go to the lowest
                // wall, whatever order the static broadphase reports them
                // in (a tree's and a grid's differ).
                if (t < first.t || (t == first.t && t < 1 && wall < first.wall)) {
                    first = {t, si, wall};
                }
                if (touching && !std::binary_search(contact_keys.begin(), contact_keys.end(),
                                                    ordered_key(si, wall))) {
                    touched_walls.emplace_back(si, wall);
                }
            }
            return true;
        });
    }
    return first;
}

bool World::Impl::core_gap_kept(const ToiInput& input) const {
    const auto gap = [&](real t) {
        DistanceInput d{input.proxy_a, input.proxy_b, get_transform(input.sweep_a, t),
                        get_transform(input.sweep_b, t), true};
        SimplexCache cache;
        return distance(d, cache);
    };
    const DistanceOutput start = gap(0), end = gap(1);
    const bool both_apart =
        start.state == DistanceState::separated && end.state == DistanceState::separated;
    const bool same_side = !both_apart || dot(start.normal, end.normal) > 0;
    return end.distance >= start.distance - tol.touch_tolerance && same_side;
}

bool World::Impl::meets_seam(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                             const ShapeRecord& wall) const {
    if (covered_of(wall).empty()) {
        return false;
    }
    // Within 2 slops: the hit stands a slop (the target separation) off.
    const CollideSettings settings{2 * tol.linear_slop, tol.linear_slop};
    const Transform xf = get_transform(sweep, fraction);
    const Transform& xf_wall = bodies[wall.body].xf;
    const Manifold m = collide(shape.shape, xf, wall.shape, xf_wall, settings);
    return flat_seam_face_of(m, shape, xf, wall, xf_wall) >= 0;
}

bool World::Impl::sinks_into(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                             const ShapeRecord& wall) const {
    return depth_into(sweep, fraction, shape, wall) > real(1.5) * tol.linear_slop;
}

bool World::Impl::lands_within_target(ToiInput input, const Sweep& sweep, const ShapeRecord& shape,
                                      const ShapeRecord& wall) {
    input.proxy_b = moving_of(shape).core_proxy;
    return time_of_impact(input).state == CastState::miss && !sinks_into(sweep, 1, shape, wall);
}

real World::Impl::depth_into(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                             const ShapeRecord& wall) const {
    const Manifold m = collide(shape.shape, get_transform(sweep, fraction), wall.shape,
                               bodies[wall.body].xf, {0, tol.linear_slop});
    real deepest = 0;
    for (int i = 0; i < m.count; ++i) {
        deepest = std::max(deepest, -m.points[i].separation);
    }
    return deepest;
}

real World::Impl::limit_sinking(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                                const ShapeRecord& wall) const {
    const real depth = depth_into(sweep, fraction, shape, wall);
    const real promised = (k_core_shrink - 1) * tol.linear_slop;
    if (fraction == 0 || depth <= promised) {
        return fraction; // (nearly always: one collide)
    }
    const real allowed = std::max(promised, depth_into(sweep, 0, shape, wall));
    if (depth <= allowed) {
        return fraction;
    }
    // Depth is continuous along the sweep, within `allowed` at its start and
    // beyond it at `fraction`: bisect for a time within it.
    real within = 0;
    real beyond = fraction;
    for (int i = 0; i < k_sinking_bisections; ++i) {
        const real mid = real(0.5) * (within + beyond);
        (depth_into(sweep, mid, shape, wall) <= allowed ? within : beyond) = mid;
    }
    return within;
}

real World::Impl::static_impact(const Sweep& sweep, const ShapeRecord& shape,
                                const ShapeRecord& wall, bool keep_landings, bool& touching) {
    const Body& w = bodies[wall.body];
    ToiInput input;
    input.proxy_a = wall.proxy;
    input.proxy_b = shape.proxy;
    input.sweep_a = w.sweep;
    input.sweep_b = sweep;
    input.target_separation = tol.linear_slop;
    input.touch_tolerance = tol.touch_tolerance;
    ToiOutput out = time_of_impact(input);
    const bool at_start =
        (out.state == CastState::hit && out.fraction == 0) || out.state == CastState::overlapped;
    touching = at_start;
    const bool on_seam =
        !at_start && out.state == CastState::hit && meets_seam(sweep, out.fraction, shape, wall);
    if (at_start || on_seam) {
        // Touching or overlapping at the start: sweep the shape's core
        // instead, so a body sliding along a wall keeps moving while it
        // still cannot sink more than a couple of slops (after Box2D v3's
        // continuous fallback, with a core just inside the surface
        // rather than a small circle). If even the core touches, the
        // body stays put unless it ends no deeper than it started. A
        // body sliding onto the next tile of a floor meets it first on a
        // seam, where it may not stop: its core goes on, as for a wall,
        // unless that would sink it deeper than the solver's target.
        const real full_hit = out.fraction;
        input.proxy_b = moving_of(shape).core_proxy;
        out = time_of_impact(input);
        if ((out.state == CastState::hit && out.fraction == 0) ||
            out.state == CastState::overlapped) {
            return core_gap_kept(input) ? 1 : 0;
        }
        const real core_hit = out.state == CastState::miss ? 1 : out.fraction;
        if (on_seam && sinks_into(sweep, core_hit, shape, wall)) {
            return full_hit;
        }
        // A core shrunk by moving a polygon's faces in lies farther inside
        // its corners than the promised depth: a sharp corner turning into
        // the wall sank 5.5 slops before the core touched it (a 33 degree
        // tip is 3.6 shrinks inside; seed 350557 of the random scenes).
        // Rounded shapes shrink evenly.
        if (at_start && shape.proxy.radius < k_core_shrink * tol.linear_slop &&
            out.state != CastState::failed) {
            return limit_sinking(sweep, core_hit, shape, wall);
        }
    }
    if (out.state == CastState::failed) {
        ++stats.toi_failures;
        return out.fraction;
    }
    if (out.state == CastState::hit && !at_start && !on_seam && keep_landings &&
        lands_within_target(input, sweep, shape, wall)) {
        return 1;
    }
    return out.state == CastState::hit ? out.fraction : 1;
}

} // namespace sweep
