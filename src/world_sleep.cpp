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
