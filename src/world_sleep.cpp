// Sleep and waking: the dynamic bodies joined by the step's contacts are an
// island, and an island whose every body has rested (below the sleep
// tolerances) for time_to_sleep falls asleep whole, its bodies linked in a
// ring so that waking one wakes them all. An island wakes when the contact
// search or a moving kinematic body meets one of its bodies, when a move
// passes by, and when a body beside it is destroyed or refiltered
// (world.cpp). island_root stays inline in world_impl.hpp: update_sleep
// calls it for every body and contact.
#include "world_impl.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

namespace sweep {

void World::Impl::wake_where_kinematic_bodies_go(real dt) {
    // (With sleep off, bodies sleep only by set_awake(false): they wake as
    // any sleeping body does, but most worlds then have none to wake.)
    if (sleeping_bodies == 0) {
        return;
    }
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::kinematic || (b.v == Vec2{} && b.w == 0)) {
            continue;
        }
        for (int si : b.shapes) {
            wake_near(inflate(swept_aabb(b, shapes[si], dt), tol.speculative_distance), false);
        }
    }
}

void World::Impl::wake_sleeping_island(int body, bool queue) {
    for (int bi = body; bi >= 0 && !bodies[bi].awake;) {
        Body& b = bodies[bi];
        b.awake = true;
        b.sleep_time = 0;
        // (It has not moved since it fell asleep: woken during a step, it
        // stands where the step began.)
        b.step_center = b.sweep.c2;
        b.step_angle = b.sweep.a2;
        // Woken after the step gave the awake bodies their gravity, before
        // its solve: the solve takes the step's gravity back a sub-step's
        // share at a time, and the warm start holds the pile up, so that a
        // body without it rose (at 7/8 of g dt: a woken pile jumped).
        if (velocities_dt > 0) {
            integrate_velocity(b, velocities_dt);
        }
        --sleeping_bodies;
        const int next = b.sleep_next;
        b.sleep_next = -1;
        if (queue) {
            search_queue.push_back(bi);
        }
        bi = next;
    }
}

void World::Impl::wake_near(const Aabb& box, bool queue) {
    if (sleeping_bodies == 0) {
        return;
    }
    moving_tree.query(box, ~0ull, [&](ProxyId, std::uint64_t other) {
        wake_island(shapes[other].body, queue);
        return true;
    });
}

void World::Impl::keep_sleeping_contacts() {
    if (sleeping_contacts.empty() && sleeping_bodies == 0) {
        return; // (most worlds' steps)
    }
    const auto awake_dynamic = [&](int bi) {
        return bodies[bi].type == BodyType::dynamic && bodies[bi].awake;
    };
    const auto changed_since = [&](int si, std::uint64_t at) {
        return shapes[si].changed_at > at || all_shapes_changed_at > at;
    };
    std::erase_if(sleeping_contacts, [&](SleepingContact& s) {
        if (!bodies[s.body_a].alive || !bodies[s.body_b].alive ||
            changed_since(s.shape_a, s.kept_at) || changed_since(s.shape_b, s.kept_at)) {
            return true;
        }
        // Woken: searched in the step that begins now (or the one before,
        // where the search woke them), whose contacts then hold the pair.
        return (awake_dynamic(s.body_a) || awake_dynamic(s.body_b)) && ++s.awake_steps > 1;
    });
    if (sleeping_bodies == 0) {
        return;
    }
    // The stored contacts whose bodies slept since they were made.
    const std::size_t kept = sleeping_contacts.size();
    const std::size_t stored = std::min(stored_contacts, contacts.size());
    for (std::size_t ci = 0; ci < stored; ++ci) {
        const Contact& c = contacts[ci];
        const Body& a = bodies[c.body_a];
        const Body& b = bodies[c.body_b];
        const bool asleep =
            (a.type == BodyType::dynamic && !a.awake) || (b.type == BodyType::dynamic && !b.awake);
        if (!asleep || awake_dynamic(c.body_a) || awake_dynamic(c.body_b) || !a.alive || !b.alive ||
            changed_since(c.shape_a, stored_at) || changed_since(c.shape_b, stored_at)) {
            continue;
        }
        sleeping_contacts.push_back(
            {cached_impulse(c, -1), c.body_a, c.body_b, c.shape_a, c.shape_b, stored_at, 0});
    }
    if (sleeping_contacts.size() > kept) {
        keep_newest_of_each_pair();
    }
}

void World::Impl::keep_newest_of_each_pair() {
    // (A pair kept before may have woken and slept again within a step,
    // with time_to_sleep 0: its new contact replaces it. The entries kept
    // last come last among equal keys.)
    std::vector<SleepingContact>& kept = sleeping_contacts;
    std::stable_sort(kept.begin(), kept.end(),
                     [](const SleepingContact& x, const SleepingContact& y) {
                         return x.impulse.key < y.impulse.key;
                     });
    std::size_t out = 0;
    for (std::size_t i = 0; i < kept.size(); ++i) {
        if (i + 1 == kept.size() || kept[i + 1].impulse.key != kept[i].impulse.key) {
            kept[out++] = kept[i];
        }
    }
    kept.resize(out);
}

void World::Impl::update_sleep(real dt) {
    if (!def.enable_sleep) {
        return;
    }
    const int n = static_cast<int>(bodies.size());
    island_parent.resize(n);
    std::iota(island_parent.begin(), island_parent.end(), 0);
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::dynamic || !b.awake) {
            continue;
        }
        const bool resting =
            length_squared(b.v) <= tol.linear_sleep_tolerance * tol.linear_sleep_tolerance &&
            b.w * b.w <= k_angular_sleep_tolerance * k_angular_sleep_tolerance;
        b.sleep_time = resting ? b.sleep_time + dt : 0;
    }
    for (const Contact& c : contacts) {
        Body& a = bodies[c.body_a];
        Body& b = bodies[c.body_b];
        if (b.type == BodyType::dynamic) {
            island_parent[island_root(c.body_a)] = island_root(c.body_b);
        } else if (b.type == BodyType::kinematic && (b.v != Vec2{} || b.w != 0)) {
            a.sleep_time = 0;
        }
    }
    island_rest.assign(n, std::numeric_limits<real>::max());
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (b.alive && b.type == BodyType::dynamic && b.awake) {
            real& rest = island_rest[island_root(bi)];
            rest = std::min(rest, b.sleep_time);
        }
    }
    // Each island's ring: a body links to the previous member found.
    std::vector<int>& last = island_last;
    last.assign(n, -1);
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::dynamic || !b.awake) {
            continue;
        }
        const int root = island_root(bi);
        if (island_rest[root] < def.time_to_sleep) {
            continue;
        }
        put_at_rest(b);
        b.sleep_next = last[root];
        last[root] = bi;
    }
    // (An island's root is one of its dynamic bodies.)
    for (const int root : step_bodies) {
        if (last[root] < 0) {
            continue;
        }
        int tail = last[root];
        while (bodies[tail].sleep_next >= 0) {
            tail = bodies[tail].sleep_next;
        }
        bodies[tail].sleep_next = last[root]; // close the ring
        for (int bi = last[root];;) {
            bodies[bi].awake = false;
            ++sleeping_bodies;
            bi = bodies[bi].sleep_next;
            if (bi == last[root]) {
                break;
            }
        }
    }
}

} // namespace sweep
