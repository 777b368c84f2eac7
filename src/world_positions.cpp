// Position correction: nonlinear Gauss-Seidel on the separations of the
// position manifolds, made again at the current poses every few sweeps,
// until the deepest penetration is within 1.5 linear slops (Box2D's
// SolvePositionConstraints, with a block step for two-point manifolds).
// Pairs found quiet are skipped until a push moves one of their bodies. A
// jam still deep after position_iterations gets more sweeps while it rises
// fast enough: under-relaxed, from the ground up (shock propagation), with
// fixed geometry backing the bodies it holds, undone if they make it worse.
// What a sweep does for one pair (position_point, pair_mass, push_apart and
// the rest) stays inline in world_impl.hpp: it runs for every pair.
#include "world_impl.hpp"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace sweep {

void World::Impl::refresh_position_manifolds(bool all) {
    const CollideSettings settings{tol.linear_slop, tol.linear_slop};
    if (all) {
        position_checks.resize(contacts.size());
        position_manifolds.resize(contacts.size());
    }
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        Contact& c = contacts[k];
        PositionCheck& check = position_checks[k];
        if (!all && unmoved_since(check, check.refreshed)) {
            continue;
        }
        PositionManifold& p = position_manifolds[k];
        const Body& a = bodies[c.body_a];
        const Body& b = bodies[c.body_b];
        // A manifold made at these very poses stands.
        const bool made_here = c.position_made && p.xf_a == a.xf && p.xf_b == b.xf;
        if (!made_here) {
            if (!c.position_made && c.manifold_at_made_xf &&
                hardly_moved(c.made_xf_a, c.made_xf_b, a, b)) {
                move_manifold(c.manifold, a.xf, b.xf, settings, p.manifold);
            } else {
                p.manifold = collide_pair(c.shape_a, c.shape_b, a.xf, b.xf, settings);
            }
        }
        p.xf_a = a.xf;
        p.xf_b = b.xf;
        c.position_made = true;
        check = {c.body_a, c.body_b, position_clock, 0, 0, false};
    }
}

void World::Impl::forget_position_checks() {
    for (PositionCheck& check : position_checks) {
        check.quiet = false;
    }
}

real World::Impl::solve_positions(bool pin_stopped) {
    ++stats.position_sweeps;
    real deepest = 0;
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const std::size_t ci = shock ? static_cast<std::size_t>(contact_order[k]) : k;
        PositionCheck& check = position_checks[ci];
        if (check.quiet && unmoved_since(check, check.checked)) {
            deepest = std::min(deepest, check.separation);
            continue;
        }
        Contact& c = contacts[ci];
        Body& a = bodies[c.body_a];
        Body& b = bodies[c.body_b];
        const Manifold& m = position_manifolds[ci].manifold;
        if (m.count == 0) {
            note_quiet(check, 0); // adds nothing to the deepest until refreshed
            continue;
        }
        const Vec2 n = position_normal(c, m);
        const PairMass w = pair_mass(c, n, pin_stopped);
        const PositionPoint p1 = position_point(a, b, m, 0, n);
        deepest = std::min(deepest, p1.separation);
        if (m.count == 1) {
            if (p1.correction == 0) {
                note_quiet(check, p1.separation);
                continue;
            }
            push_apart_one(a, b, w, p1, n);
            mark_moved(c, w);
            continue;
        }
        const PositionPoint p2 = position_point(a, b, m, 1, n);
        deepest = std::min(deepest, p2.separation);
        if (p1.correction == 0 && p2.correction == 0) {
            note_quiet(check, std::min(p1.separation, p2.separation));
            continue;
        }
        mark_moved(c, w);
        if (!push_apart_both(a, b, w, p1, p2, n)) {
            // Later points see the poses moved by earlier ones.
            push_apart_one(a, b, w, p1, n);
            push_apart_one(a, b, w, position_point(a, b, m, 1, n), n);
        }
    }
    return -deepest;
}

template <class T, class Of>
void World::Impl::group_by_body(Of&& of, std::vector<int>& start, std::vector<T>& values) {
    const int n = static_cast<int>(bodies.size());
    start.assign(n + 1, 0);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (const int body = of(k).first; body >= 0) {
            ++start[body + 1];
        }
    }
    for (int i = 0; i < n; ++i) {
        start[i + 1] += start[i];
    }
    values.resize(static_cast<std::size_t>(start[n]));
    std::vector<int>& cursor = group_cursor;
    cursor.assign(start.begin(), start.end() - 1);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (const auto [body, value] = of(k); body >= 0) {
            values[static_cast<std::size_t>(cursor[body]++)] = value;
        }
    }
}

void World::Impl::order_by_support() {
    const int n = static_cast<int>(bodies.size());
    support_level.assign(n, std::numeric_limits<int>::max());
    // The bearing contact's lower and upper body, or {-1, -1}.
    const auto bearing = [&](std::size_t k) -> std::pair<int, int> {
        const Contact& c = contacts[k];
        const Manifold& m = position_manifolds[k].manifold;
        if (m.count == 0 || gravity_direction == Vec2{}) {
            return {-1, -1};
        }
        const real up = -dot(position_normal(c, m), gravity_direction);
        if (up >= k_bearing_cosine) {
            return {c.body_a, c.body_b};
        }
        if (up <= -k_bearing_cosine) {
            return {c.body_b, c.body_a};
        }
        return {-1, -1};
    };
    group_by_body(bearing, support_start, support_links);
    std::vector<int>& queue = search_queue; // free until the next contact search
    queue.clear();
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const int lower = bearing(k).first;
        if (lower >= 0 && bodies[lower].type != BodyType::dynamic && support_level[lower] != 0) {
            support_level[lower] = 0;
            queue.push_back(lower);
        }
    }
    for (std::size_t next = 0; next < queue.size(); ++next) {
        const int bi = queue[next];
        for (int k = support_start[bi]; k < support_start[bi + 1]; ++k) {
            const int upper = support_links[static_cast<std::size_t>(k)];
            if (bodies[upper].type == BodyType::dynamic &&
                support_level[upper] == std::numeric_limits<int>::max()) {
                support_level[upper] = support_level[bi] + 1;
                queue.push_back(upper);
            }
        }
    }
    contact_order.resize(contacts.size());
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        contact_order[k] = static_cast<int>(k);
    }
    const auto level = [&](int k) {
        const Contact& c = contacts[static_cast<std::size_t>(k)];
        return std::min(support_level[c.body_a], support_level[c.body_b]);
    };
    std::stable_sort(contact_order.begin(), contact_order.end(),
                     [&](int x, int y) { return level(x) < level(y); });
    shock = true;
}

void World::Impl::find_backing() {
    // The dynamic body and its direction to the fixed one, or {-1, {}}.
    const auto backing = [&](std::size_t k) -> std::pair<int, Vec2> {
        const Contact& c = contacts[k];
        const bool dynamic_a = bodies[c.body_a].type == BodyType::dynamic;
        const bool dynamic_b = bodies[c.body_b].type == BodyType::dynamic;
        if (dynamic_a == dynamic_b || !touches(k)) {
            return {-1, {}};
        }
        const Vec2 normal = position_normal(c, position_manifolds[k].manifold); // A to B
        return dynamic_a ? std::pair{c.body_a, normal} : std::pair{c.body_b, -normal};
    };
    group_by_body(backing, backing_start, backing_directions);
}

bool World::Impl::touches(std::size_t k) const {
    const Contact& c = contacts[k];
    const Manifold& m = position_manifolds[k].manifold;
    const Vec2 n = position_normal(c, m);
    for (int i = 0; i < m.count; ++i) {
        if (position_point(bodies[c.body_a], bodies[c.body_b], m, i, n).separation <= 0) {
            return true;
        }
    }
    return false;
}

real World::Impl::deepest_position_penetration() const {
    real deepest = 0;
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Contact& c = contacts[k];
        const Manifold& m = position_manifolds[k].manifold;
        const Vec2 n = position_normal(c, m);
        for (int i = 0; i < m.count; ++i) {
            deepest = std::min(
                deepest, position_point(bodies[c.body_a], bodies[c.body_b], m, i, n).separation);
        }
    }
    return -deepest;
}

bool World::Impl::solve_positions_until_within_slop(bool pin_stopped) {
    position_factor = k_baumgarte;
    shock = false;
    position_clock = 0;
    position_moved.assign(bodies.size(), 0);
    const real target = real(1.5) * tol.linear_slop;
    const int cap = def.position_iterations;
    const int jam_cap = pin_stopped ? cap : k_jam_iteration_factor * cap;
    const real jam_exit = real(1.9) * tol.linear_slop;
    real entry_deepest = 0;
    int jam_start = -1; // the sweep the jam's extra sweeps began at
    for (int i = 0; i < jam_cap; ++i) {
        const bool fresh = i % k_position_refresh_interval == 0;
        if (fresh) {
            refresh_position_manifolds(i == 0); // poses moved since the last call
        }
        if (fresh && i >= cap) {
            // A jam gets more sweeps only while it is deep and the rate
            // it rises at would bring it out within the budget: a tall
            // stack whose bottom rows sink a little every step (Box2D's
            // pyramid) would take them all and gain a fraction of a slop.
            // Sweeps that left it deeper than they found it are undone.
            const real deepest = deepest_position_penetration();
            if (jam_start < 0) {
                begin_jam_sweeps();
                jam_start = i;
                entry_deepest = deepest;
            }
            // The mean rate since the extra sweeps began, judged after
            // k_jam_trial_sweeps: single checks are noisy (a shock sweep
            // may first push a pair deeper; a squeezed pebble's jam went
            // from 2.4 to 3.3 slops in four sweeps, then to 1.8 in four
            // more).
            const bool judged = i - jam_start >= k_jam_trial_sweeps;
            const real rate = judged ? (entry_deepest - deepest) / real(i - jam_start) : 0;
            if (deepest <= jam_exit || (judged && rate * real(jam_cap - i) < deepest - jam_exit)) {
                leave_jam(deepest, entry_deepest);
                return false;
            }
        }
        const std::uint32_t clock_before = position_clock;
        const bool within = solve_positions(pin_stopped) <= target;
        // A sweep that pushed nothing measured every pair where it stays:
        // its deepest is the deepest (in a resting pile, most sweeps).
        if (within && fresh &&
            (position_clock == clock_before || deepest_position_penetration() <= target)) {
            return true;
        }
    }
    if (jam_start >= 0) {
        refresh_position_manifolds(false);
        leave_jam(deepest_position_penetration(), entry_deepest);
    }
    return false;
}

void World::Impl::leave_jam(real deepest, real entry_deepest) {
    if (deepest > entry_deepest) {
        restore_jam_entry();
    }
    jam_left_deep = std::min(deepest, entry_deepest) > 2 * tol.linear_slop;
}

void World::Impl::begin_jam_sweeps() {
    position_factor = k_jam_baumgarte;
    order_by_support();
    find_backing();
    forget_position_checks(); // the pairs' masses change (pair_mass)
    keep_poses(jam_centers, jam_angles);
}

void World::Impl::keep_poses(std::vector<Vec2>& centers, std::vector<real>& angles) const {
    centers.resize(bodies.size());
    angles.resize(bodies.size());
    for (const int index : step_bodies) { // (only dynamic bodies' are read)
        const auto bi = static_cast<std::size_t>(index);
        centers[bi] = bodies[bi].sweep.c2;
        angles[bi] = bodies[bi].sweep.a2;
    }
}

void World::Impl::restore_jam_entry() {
    for (const int index : step_bodies) {
        const auto bi = static_cast<std::size_t>(index);
        Body& b = bodies[bi];
        if (b.alive && b.type == BodyType::dynamic && b.awake) {
            b.sweep.c2 = jam_centers[bi];
            b.sweep.a2 = jam_angles[bi];
            sync_transform(b);
        }
    }
    refresh_position_manifolds(true); // poses moved without a push
}

void World::Impl::correct_positions() {
    jam_left_deep = false;
    if (solve_positions_until_within_slop(true)) {
        return;
    }
    for (const int bi : step_bodies) { // (a static body is never stopped)
        bodies[static_cast<std::size_t>(bi)].stopped = false;
    }
    solve_positions_until_within_slop(false);
}

} // namespace sweep
