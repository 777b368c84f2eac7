// The contact search and the step's contacts: the moving proxies' swept
// boxes, the broadphase's candidate pairs (every awake dynamic body seeks
// its own, waking the sleeping bodies it meets; the last wide search is
// kept while no proxy moves), the narrowphase of those pairs with a
// speculative distance (a pair that hardly moved carries the last step's
// manifold instead), the velocity solver's copies of the contacts and the
// impulses kept to warm start the next step. carried_from, previous_contact
// and find_cached stay inline in world_impl.hpp: they run for every pair.
#include "world_impl.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace sweep {

void World::Impl::list_step_bodies() {
    step_bodies.clear();
    for (int bi = 0; bi < static_cast<int>(bodies.size()); ++bi) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (b.alive && b.type != BodyType::static_body) {
            step_bodies.push_back(bi);
        }
    }
    // A static body's solver body, and the empty one of the batches' empty
    // lanes after the last: at rest, of infinite mass (prepare_contacts
    // copies the listed bodies' over theirs).
    solver_bodies.assign(bodies.size() + 1, SolverBody{});
}

void World::Impl::update_moving_proxies(real dt) {
    for (const int bi : step_bodies) {
        Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || !b.awake) {
            continue;
        }
        // The proxies hold swept boxes already. Predicting further ahead
        // only pays for bodies slow enough that the fat box still fits
        // next step (fat_aabb_still_fits rejects a box 4 margins too
        // large); a fast body is re-inserted every step anyway, and a
        // box five motions long would meet everything in its way.
        const Vec2 d = dt * b.v;
        const Vec2 predict = length(d) < 4 * tol.aabb_margin ? d : Vec2{};
        for (int si : b.shapes) {
            ShapeRecord& s = shapes[si];
            const Aabb path = swept_aabb(b, s, dt);
            if (moving_of(s).refitted) {
                // The box the last step ended with holds the shape, not its
                // path: made anew, as a stray's is (the path leaves the
                // stray's old box), so that the contact search meets the
                // boxes it would have met without the refit, and the step's
                // results do not depend on it.
                set_moving_fat_aabb(s.tree_proxy,
                                    predicted_fat_aabb(path, predict, tol.aabb_margin));
            } else {
                move_moving_proxy(s.tree_proxy, path, predict);
            }
        }
    }
}

void World::Impl::find_candidate_pairs(real dt) {
    start_contact_search(dt);
    const bool unmoved = pair_search.valid && pair_search.moving_version == moving_version &&
                         moved_proxies.static_boxes.empty();
    const bool updated = update_pair_search();
    moved_proxies.clear();
    if (updated && reuse_pair_search(dt)) {
        ++(unmoved ? stats.pair_searches_reused : stats.pair_searches_updated);
        return;
    }
    candidate_pairs.clear(); // (what a reuse that failed found)
    searched.assign(bodies.size(), 0);
    const bool wide = !uses_grid(); // (the kept pairs hold the static tree's fat boxes)
    pair_search.valid = false;
    pair_search.pairs.clear();
    for (std::size_t next = 0; next < search_queue.size(); ++next) {
        seek_pairs(search_queue[next], dt, wide);
    }
    // In pair_rank's order, whatever the broadphase's: a tree reports its
    // leaves in an order its insertions and rotations decide, so the
    // contacts, and the states the solve reaches, would depend on how the
    // pairs were found.
    if (!wide) {
        std::sort(candidate_pairs.begin(), candidate_pairs.end(), [](const auto& a, const auto& b) {
            return pair_rank(a.first, a.second) < pair_rank(b.first, b.second);
        });
        return;
    }
    std::sort(pair_search.pairs.begin(), pair_search.pairs.end(), pair_order);
    pair_search.valid = true;
    pair_search.moving_version = moving_version;
    pair_search.queue = search_queue;
    candidates_from_kept_pairs(std::nullopt); // (the search woke every body it wakes)
}

void World::Impl::start_contact_search(real dt) {
    candidate_pairs.clear();
    search_queue.clear();
    searched.assign(bodies.size(), 0);
    wake_where_kinematic_bodies_go(dt);
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (b.alive && b.type == BodyType::dynamic && b.awake) {
            search_queue.push_back(bi);
        }
    }
}

bool World::Impl::update_pair_search() {
    if (!pair_search.valid || pair_search.queue != search_queue || !moved_proxies.complete) {
        return false;
    }
    list_shapes_near_static_changes();
    if (pair_search.moving_version == moving_version && moved_proxies.shapes.empty()) {
        return true;
    }
    // Each moved shape walks the trees as a searching shape does, and the
    // kept pairs are filtered and merged: beyond a quarter of the searching
    // bodies, a whole search costs about as much.
    if (4 * moved_proxies.shapes.size() > search_queue.size()) {
        return false;
    }
    std::erase_if(pair_search.pairs, [&](const WidePair& p) {
        return moved_proxies.has(p.shape) || (p.other_body >= 0 && moved_proxies.has(p.other));
    });
    std::vector<WidePair>& fresh = pair_scratch;
    fresh.clear();
    for (const int m : moved_proxies.shapes) {
        seek_pairs_of_moved(m, fresh);
    }
    // Merged in order: the pairs, in order, of a whole search.
    std::sort(fresh.begin(), fresh.end(), pair_order);
    std::vector<WidePair>& merged = merge_scratch;
    merged.resize(pair_search.pairs.size() + fresh.size());
    std::merge(pair_search.pairs.begin(), pair_search.pairs.end(), fresh.begin(), fresh.end(),
               merged.begin(), pair_order);
    std::swap(pair_search.pairs, merged);
    pair_search.moving_version = moving_version;
    return true;
}

void World::Impl::list_shapes_near_static_changes() {
    for (const Aabb& box : moved_proxies.static_boxes) {
        // (Grown twice: a search box is a fat box grown by the speculative
        // distance, and the tests may round either way.)
        moving_tree.query(inflate(box, 2 * tol.speculative_distance), ~0ull,
                          [&](ProxyId, std::uint64_t shape) {
                              moved_proxies.add(static_cast<int>(shape));
                              return true;
                          });
    }
}

void World::Impl::seek_pairs_of_moved(int m, std::vector<WidePair>& found) {
    const ShapeRecord& sm = shapes[m];
    const int bm = sm.body;
    const bool m_seeks = seeks_pairs(sm);
    const Aabb fat_m = moving_tree.fat_aabb(sm.tree_proxy);
    const Aabb query = inflate(fat_m, tol.speculative_distance);
    if (m_seeks) {
        query_static(query, [&](ProxyId id, std::uint64_t other) {
            found.push_back({m, static_cast<int>(other), -1, static_tree.fat_aabb(id)});
            return true;
        });
    }
    // Grown twice as far, to hold the boxes of the shapes that seek it,
    // each tested as its own search would test it.
    moving_tree.query(inflate(query, tol.speculative_distance), ~0ull,
                      [&](ProxyId id, std::uint64_t other) {
                          const int o = static_cast<int>(other);
                          const ShapeRecord& so = shapes[o];
                          const int bo = so.body;
                          if (bo == bm) {
                              return true;
                          }
                          const Aabb& fat_o = moving_tree.fat_aabb(id);
                          if (m_seeks && seeks(bm, bo)) {
                              if (overlaps(query, fat_o)) {
                                  found.push_back({m, o, bo, fat_o});
                              }
                              return true;
                          }
                          // (A moved seeker finds the pair itself.)
                          if (seeks_pairs(so) && !moved_proxies.has(o) && seeks(bo, bm) &&
                              overlaps(inflate(fat_o, tol.speculative_distance), fat_m)) {
                              found.push_back({o, m, bm, fat_m});
                          }
                          return true;
                      });
}

bool World::Impl::reuse_pair_search(real dt) {
    for (const int bi : search_queue) {
        note_search(bi, dt);
    }
    return candidates_from_kept_pairs(dt);
}

bool World::Impl::candidates_from_kept_pairs(std::optional<real> reuse_dt) {
    for (const WidePair& p : pair_search.pairs) {
        if (!overlaps(moving_of(shapes[p.shape]).contact_box, p.box)) {
            continue;
        }
        if (reuse_dt && p.other_body >= 0 && !bodies[p.other_body].awake &&
            !shapes[p.other].sensor && search_wakes(p.shape, p.other, p.other_body, *reuse_dt)) {
            return false; // (the search wakes it, and seeks its pairs)
        }
        candidate_pairs.push_back(search_pair(p.shape, p.other, p.other_body));
    }
    return true;
}

bool World::Impl::search_wakes(int shape, int other, int other_body, real dt) const {
    const auto [shape_a, shape_b] = search_pair(shape, other, other_body);
    const ShapeRecord& sa = shapes[shape_a];
    const ShapeRecord& sb = shapes[shape_b];
    if (!may_collide(sa, sb)) {
        return false;
    }
    const Body& a = bodies[sa.body];
    const Body& b = bodies[sb.body];
    return collide_pair(shape_a, shape_b, a.xf, b.xf, contact_reach(a, b, dt).settings).count > 0;
}

void World::Impl::note_search(int bi, real dt) {
    searched[bi] = 1;
    Body& b = bodies[bi];
    b.searched_center = b.sweep.c2 + dt * b.v;
    b.searched_angle = b.sweep.a2 + dt * b.w;
    for (int si : b.shapes) {
        moving_of(shapes[si]).contact_box =
            inflate(swept_aabb(b, shapes[si], dt), tol.speculative_distance);
    }
}

void World::Impl::seek_pairs(int bi, real dt, bool wide) {
    note_search(bi, dt);
    const Body& b = bodies[bi];
    for (int si : b.shapes) {
        if (shapes[si].sensor) {
            continue;
        }
        const Aabb& box = moving_of(shapes[si]).contact_box;
        const Aabb query =
            wide ? inflate(moving_tree.fat_aabb(shapes[si].tree_proxy), tol.speculative_distance)
                 : box;
        // Wide, the pairs are kept, and the candidates taken from them in
        // order once the search is done (candidates_from_kept_pairs).
        query_static(query, [&](ProxyId id, std::uint64_t other) {
            if (wide) {
                pair_search.pairs.push_back(
                    {si, static_cast<int>(other), -1, static_tree.fat_aabb(id)});
            } else {
                candidate_pairs.push_back({si, static_cast<int>(other)});
            }
            return true;
        });
        moving_tree.query(query, ~0ull, [&](ProxyId id, std::uint64_t other) {
            const int ob = shapes[other].body;
            const Body& o = bodies[ob];
            if (ob == bi || (o.type == BodyType::dynamic && searched[ob])) {
                return true;
            }
            const Aabb& fat = moving_tree.fat_aabb(id);
            if (wide) {
                pair_search.pairs.push_back({si, static_cast<int>(other), ob, fat});
            } else {
                candidate_pairs.push_back(search_pair(si, static_cast<int>(other), ob));
            }
            if (!o.awake && !shapes[other].sensor && overlaps(box, fat) &&
                search_wakes(si, static_cast<int>(other), ob, dt)) {
                wake_island(ob, true);
            }
            return true;
        });
    }
}

void World::Impl::collide_candidates(real dt) {
    std::swap(contacts, previous_contacts);
    previous_cursor = 0;
    contacts.clear();
    disabled_pairs.clear();
    toi_candidates.clear();
    for (const auto& [shape_a, shape_b] : candidate_pairs) {
        add_contact(shape_a, shape_b, dt);
    }
    std::sort(disabled_pairs.begin(), disabled_pairs.end());
}

void World::Impl::add_contact(int shape_a, int shape_b, real dt) {
    const ShapeRecord& sa = shapes[shape_a];
    const ShapeRecord& sb = shapes[shape_b];
    if (!may_collide(sa, sb)) {
        return;
    }
    const Body& a = bodies[sa.body];
    const Body& b = bodies[sb.body];
    const auto [settings, bounded] = contact_reach(a, b, dt);
    // (Filled in place: a whole Contact copied in cost more than its collide.)
    Contact& c = contacts.emplace_back();
    const Contact* before = carried_from(shape_a, shape_b, a, b, settings, c.manifold, c.previous);
    if (before) {
        c.made_xf_a = before->made_xf_a;
        c.made_xf_b = before->made_xf_b;
        c.made_distance = before->made_distance;
    } else {
        c.manifold = collide_pair(shape_a, shape_b, a.xf, b.xf, settings);
        c.made_xf_a = a.xf;
        c.made_xf_b = b.xf;
        c.made_distance = settings.speculative_distance;
    }
    if (c.manifold.count == 0) {
        contacts.pop_back();
        if (bounded) {
            toi_candidates.push_back({shape_a, shape_b});
        }
        return;
    }
    if (pre_solve && !pre_solve(shape_id(shape_a), shape_id(shape_b), c.manifold)) {
        contacts.pop_back();
        disabled_pairs.push_back({shape_id(shape_a), shape_id(shape_b)});
        return;
    }
    stats.manifolds_carried += before ? 1 : 0;
    c.manifold_at_made_xf = true;
    c.body_a = sa.body;
    c.body_b = sb.body;
    c.shape_a = shape_a;
    c.shape_b = shape_b;
    c.generation_a = sa.generation;
    c.generation_b = sb.generation;
    c.round_a = sa.shape.type == ShapeType::circle;
    c.round_b = sb.shape.type == ShapeType::circle;
    c.friction = combine_friction(sa.material, sb.material);
    c.restitution = combine_restitution(sa.material, sb.material);
    c.rolling_resistance = combine_rolling_resistance(sa, sb);
}

void World::Impl::prepare_contacts(real dt) {
    for (const int bi : step_bodies) { // (the rest stay as list_step_bodies made them)
        const auto i = static_cast<std::size_t>(bi);
        const Body& b = bodies[i];
        solver_bodies[i] = {b.v, b.w, b.inv_mass, b.inv_inertia};
    }
    solver_contacts.resize(contacts.size());
    any_restitution = false;
    for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
        Contact& c = contacts[ci];
        const Body& a = bodies[c.body_a];
        const Body& b = bodies[c.body_b];
        SolverContact& s = solver_contacts[ci];
        s = {};
        s.body_a = c.body_a;
        s.body_b = c.body_b;
        s.normal = c.manifold.normal;
        s.friction = c.friction;
        s.restitution = c.restitution;
        any_restitution = any_restitution || c.restitution > 0;
        s.rolling_resistance = c.rolling_resistance;
        s.count = c.manifold.count;
        s.round_a = c.round_a;
        s.round_b = c.round_b;
        const CachedImpulse cached = warm_impulses(c);
        std::array<real, 2> separations{};
        for (int i = 0; i < c.manifold.count; ++i) {
            const ManifoldPoint& mp = c.manifold.points[i];
            SolverPoint& p = s.points[static_cast<std::size_t>(i)];
            p.ra = mp.point - a.sweep.c2;
            p.rb = mp.point - b.sweep.c2;
            separations[static_cast<std::size_t>(i)] = mp.separation;
            for (int k = 0; k < cached.count; ++k) {
                if (cached.ids[k] == mp.id) {
                    p.normal_impulse = cached.normal[k];
                    p.tangent_impulse = cached.tangent[k];
                    p.mean_normal_impulse = cached.mean_normal[k];
                }
            }
        }
        prepare_contact(s, solver_bodies, separations, dt);
        // (Here, in the contacts' order, rather than where the solve's
        // impulses are kept, in the batches' order: a cache miss a contact
        // in a large pile.)
        for (int i = 0; i < c.manifold.count; ++i) {
            const auto k = static_cast<std::size_t>(i);
            c.impulses[k].approach_speed = s.points[k].approach_speed;
        }
    }
    pack_contacts(solver_contacts, solver_bodies, static_cast<int>(bodies.size()), contact_batches);
}

void World::Impl::keep_solve_results() {
    for (const int bi : step_bodies) { // (a static body's are zero on both sides)
        const auto i = static_cast<std::size_t>(bi);
        bodies[i].v = solver_bodies[i].v;
        bodies[i].w = solver_bodies[i].w;
    }
    if (!any_restitution) { // (then nothing unpacked them: read where the solve left them)
        visit_solved_impulses(
            contact_batches, solver_contacts, [&](int ci, int i, const SolvedImpulse& solved) {
                PointImpulse& p =
                    contacts[static_cast<std::size_t>(ci)].impulses[static_cast<std::size_t>(i)];
                p.normal = solved.normal;
                p.tangent = solved.tangent;
                p.max_normal = solved.max_normal; // (approach_speed: prepare_contacts)
                p.mean_normal = solved.mean_normal;
            });
        return;
    }
    for (std::size_t ci = 0; ci < solver_contacts.size(); ++ci) {
        const SolverContact& s = solver_contacts[ci];
        for (int i = 0; i < s.count; ++i) {
            const SolverPoint& p = s.points[static_cast<std::size_t>(i)];
            contacts[ci].impulses[static_cast<std::size_t>(i)] = {
                p.normal_impulse, p.tangent_impulse, p.max_normal_impulse, p.approach_speed,
                p.mean_normal_impulse};
        }
    }
}

void World::Impl::store_impulses() {
    stored_contacts = contacts.size();
    impulse_cache_made = false;
    stored_at = shape_clock;
}

namespace {

// Contact `c`'s points' feature ids and impulses into `e`, in place.
void copy_impulses(const Contact& c, CachedImpulse& e) {
    e.count = c.manifold.count;
    for (int i = 0; i < c.manifold.count; ++i) {
        e.ids[i] = c.manifold.points[i].id;
        e.normal[i] = c.impulses[i].normal;
        e.tangent[i] = c.impulses[i].tangent;
        e.mean_normal[i] = c.impulses[i].mean_normal;
    }
}

} // namespace

CachedImpulse detail::cached_impulse(const Contact& c, int contact) {
    CachedImpulse e;
    e.key = pair_key(c.shape_a, c.shape_b);
    e.contact = contact;
    copy_impulses(c, e);
    return e;
}

void World::Impl::make_impulse_cache() {
    impulse_cache.clear();
    // (The search swapped the stored contacts in, and more after them: the
    // min only guards the read.)
    const std::size_t stored = std::min(stored_contacts, previous_contacts.size());
    for (std::size_t ci = 0; ci < stored; ++ci) {
        impulse_cache.push_back(cached_impulse(previous_contacts[ci], static_cast<int>(ci)));
    }
    const auto by_key = [](const CachedImpulse& x, const CachedImpulse& y) {
        return x.key < y.key;
    };
    std::sort(impulse_cache.begin(), impulse_cache.end(), by_key);
    // And the sleeping pairs', but for a pair with a contact among the last
    // step's (it slept and woke within a step or two: its contact's
    // impulses are as fresh or fresher), so that the keys stay unique.
    const auto searched = static_cast<std::ptrdiff_t>(impulse_cache.size());
    for (const SleepingContact& s : sleeping_contacts) {
        if (!std::binary_search(impulse_cache.begin(), impulse_cache.begin() + searched, s.impulse,
                                by_key)) {
            impulse_cache.push_back(s.impulse);
        }
    }
    if (impulse_cache.size() > static_cast<std::size_t>(searched)) {
        std::sort(impulse_cache.begin(), impulse_cache.end(), by_key);
    }
    impulse_cache_made = true;
}

CachedImpulse World::Impl::warm_impulses(const Contact& c) {
    // (One object returned by every path, so that it is made in the
    // caller's: a copy of it, written a field at a time, read back in wide
    // loads, stalled on the stores, 2 % of the pyramid's step.)
    CachedImpulse e;
    if (c.previous == k_previous_unknown) {
        if (const CachedImpulse* cached = find_cached(pair_key(c.shape_a, c.shape_b))) {
            e = *cached;
        }
        return e;
    }
    if (c.previous == k_no_previous) {
        return e;
    }
    // What store_impulses kept of it. (A contact added after that in its
    // step was not kept, and holds no impulses: the same zeros.)
    copy_impulses(previous_contacts[static_cast<std::size_t>(c.previous)], e);
    return e;
}

} // namespace sweep
