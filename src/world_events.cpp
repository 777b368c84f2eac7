// The step's events, made once its bodies are where they end: hits (the
// velocity solve's contacts whose fastest approaching point pushed), contact
// begin and end (the pairs touching at the final poses against the last
// step's, in one merge of the two sorted lists), sensor overlaps, the bodies
// stopped at a time of impact, and the bodies that left the world's bounds,
// which are destroyed. still_resting stays inline in world_impl.hpp:
// update_touching asks it of every pair that touched.
#include "world_impl.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace sweep {
namespace {

// `to` made `from` with only the points closer than `slop`, in order (the
// rest of `to.points` as `from` has them); `to` may be `from`. collide()
// keeps a point whose separation, measured before its last roundings, is
// within its speculative distance: the separation it reports may exceed
// that by a rounding (a capsule on a polygon, 0.00500011 L against a slop
// of 0.005), and touching is "closer than the slop" to the bit. (Into
// another manifold, it reads `from` alone: a copy filtered in place read
// the points back just after their stores, which the processor cannot
// forward.)
void copy_points_closer_than(const Manifold& from, real slop, Manifold& to) {
    to.normal = from.normal;
    to.local_normal = from.local_normal;
    to.reference_is_b = from.reference_is_b;
    int kept = 0;
    for (int i = 0; i < from.count; ++i) {
        if (from.points[i].separation < slop) {
            to.points[kept++] = from.points[i];
        }
    }
    for (int i = kept; i < static_cast<int>(to.points.size()); ++i) {
        to.points[i] = from.points[i];
    }
    to.count = kept;
}

void keep_points_closer_than(Manifold& m, real slop) { copy_points_closer_than(m, slop, m); }

} // namespace

void World::Impl::report_hits() {
    const real threshold = def.hit_speed_threshold * def.length_units_per_meter;
    const std::size_t earlier = events.contact_hit.size(); // reported by earlier sub-steps
    for (const Contact& c : contacts) {
        int fastest = -1;
        for (int i = 0; i < c.manifold.count; ++i) {
            const PointImpulse& p = c.impulses[i];
            if (p.max_normal > 0 && -p.approach_speed > threshold &&
                (fastest < 0 || p.approach_speed < c.impulses[fastest].approach_speed)) {
                fastest = i;
            }
        }
        if (fastest < 0) {
            continue; // most contacts: resting ones need no search below
        }
        const ShapePair pair = unordered_pair(c.id_a(), c.id_b());
        const bool reported = std::any_of(
            events.contact_hit.begin(),
            events.contact_hit.begin() + static_cast<std::ptrdiff_t>(earlier),
            [&](const ContactHitEvent& e) { return unordered_pair(e.shape_a, e.shape_b) == pair; });
        if (!reported) {
            events.contact_hit.push_back({c.id_a(), c.id_b(), body_id(c.body_a), body_id(c.body_b),
                                          c.manifold.points[fastest].point, c.manifold.normal,
                                          -c.impulses[fastest].approach_speed});
        }
    }
}

void World::Impl::remove_out_of_bounds() {
    if (!def.bounds) {
        return;
    }
    for (int bi = 0; bi < static_cast<int>(bodies.size()); ++bi) {
        const Body& b = bodies[bi];
        if (!b.alive || b.type == BodyType::static_body) {
            continue;
        }
        bool inside = false;
        for (int si : b.shapes) {
            inside = inside || overlaps(compute_aabb(shapes[si].shape, b.xf), *def.bounds);
        }
        if (!inside) {
            events.removed.push_back(body_id(bi));
            destroy_body(bi);
        }
    }
}

bool World::Impl::measure_woken(ContactData& d, const CollideSettings& settings) const {
    const ShapeRecord* a = find(d.shape_a);
    const ShapeRecord* b = find(d.shape_b);
    if (!a || !b) {
        return false;
    }
    d.manifold = collide_pair(d.shape_a.index, d.shape_b.index, bodies[a->body].xf,
                              bodies[b->body].xf, settings);
    keep_points_closer_than(d.manifold, tol.linear_slop);
    d.normal_impulse = {};
    d.tangent_impulse = {};
    return d.manifold.count > 0;
}

void World::Impl::touch_chain_handover(const Contact& c, const CollideSettings& settings,
                                       std::vector<ContactData>& out) const {
    const bool a_chain = shapes[c.shape_a].shape.type == ShapeType::chain_segment;
    const int chain = a_chain ? c.shape_a : c.shape_b;
    const int other = a_chain ? c.shape_b : c.shape_a;
    if (shapes[chain].shape.type != ShapeType::chain_segment ||
        shapes[other].shape.type == ShapeType::chain_segment) {
        return;
    }
    const Body& ob = bodies[shapes[other].body];
    const Aabb box = inflate(shape_box(shapes[other], ob.xf), tol.linear_slop);
    for_each_partner_near(other, box, [&](int n) {
        if (n == chain || shapes[n].body != shapes[chain].body ||
            shapes[n].shape.type != ShapeType::chain_segment) {
            return;
        }
        const int sa = a_chain ? n : other; // (the chain on the side it was)
        const int sb = a_chain ? other : n;
        ContactData d;
        d.manifold =
            collide_pair(sa, sb, bodies[shapes[sa].body].xf, bodies[shapes[sb].body].xf, settings);
        keep_points_closer_than(d.manifold, tol.linear_slop);
        if (d.manifold.count > 0) {
            d.shape_a = shape_id(sa);
            d.shape_b = shape_id(sb);
            d.body_a = body_id(shapes[sa].body);
            d.body_b = body_id(shapes[sb].body);
            out.push_back(d);
        }
    });
}

void World::Impl::collect_resting() {
    std::vector<ContactData>& resting = touching_scratch.resting;
    resting.clear();
    // (A resting pair has a sleeping body, which sleeping_bodies counts:
    // with none, most worlds' steps, the pass would keep none.)
    if (sleeping_bodies == 0) {
        return;
    }
    for (const ContactData& d : touching_data) {
        if (still_resting(d)) {
            resting.push_back(d);
        }
    }
}

void World::Impl::update_touching() {
    // Those resting when the step began: kept while they rest (a body that
    // fell asleep in this step had its contacts searched: a box moved away
    // from a wall by set_transform, asleep at the end of the step, kept the
    // wall's pair for ever, with no end event). A pair whose sleeping body
    // woke after the contact search (a fast body's time-of-impact contact
    // wakes the island it meets) is measured where its bodies ended, as
    // the search would have measured it: dropped, a capsule resting on the
    // floor ended and began touching it again (seed 1213 of the touching
    // pairs' property test).
    const CollideSettings settings{tol.linear_slop, tol.linear_slop};
    std::vector<ContactData>& resting = touching_scratch.resting;
    std::erase_if(resting,
                  [&](ContactData& d) { return !still_resting(d) && !measure_woken(d, settings); });
    std::vector<ContactData>& handed = touching_scratch.handed;
    handed.clear();
    touching_data.clear();
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Contact& c = contacts[k];
        const Body& a = bodies[c.body_a];
        const Body& b = bodies[c.body_b];
        if (!a.alive || !b.alive) {
            continue;
        }
        // Position correction's manifold, when made where the bodies
        // ended (with the same settings): most pairs of a resting pile.
        const PositionManifold* p = c.position_made ? &position_manifolds[k] : nullptr;
        const bool made_here = p && p->xf_a == a.xf && p->xf_b == b.xf;
        // (Filled in place: a ContactData made field by field and then
        // copied in is read back in wide loads that the processor cannot
        // forward from the stores.)
        ContactData& d = touching_data.emplace_back();
        if (made_here) {
            copy_points_closer_than(p->manifold, tol.linear_slop, d.manifold);
        } else {
            copy_points_closer_than(collide_pair(c.shape_a, c.shape_b, a.xf, b.xf, settings),
                                    tol.linear_slop, d.manifold);
        }
        if (d.manifold.count == 0) {
            touching_data.pop_back();
            touch_chain_handover(c, settings, handed);
            continue;
        }
        d.shape_a = c.id_a();
        d.shape_b = c.id_b();
        d.body_a = body_id(c.body_a);
        d.body_b = body_id(c.body_b);
        for (int i = 0; i < c.manifold.count; ++i) {
            d.normal_impulse[i] = c.impulses[i].normal;
            d.tangent_impulse[i] = c.impulses[i].tangent;
        }
    }
    std::vector<IndexedPair>& now = touching_scratch.now;
    now.clear();
    for (std::size_t i = 0; i < touching_data.size(); ++i) {
        now.push_back({unordered_pair(touching_data[i].shape_a, touching_data[i].shape_b), i});
    }
    touching_scratch.sort_now.sort(now);
    const auto searched_pairs = static_cast<std::ptrdiff_t>(now.size());
    // The pairs the contacts missed: resting, or handed over by a chain
    // (to a segment two contacts may hand it to: it joins once; a pair
    // handed over has an awake body that the search met, so no pair is
    // both).
    const auto join = [&](const ContactData& d) {
        const ShapePair pair = unordered_pair(d.shape_a, d.shape_b);
        if (!std::binary_search(now.begin(), now.begin() + searched_pairs, IndexedPair{pair, 0},
                                IndexedPair::by_pair)) {
            now.push_back({pair, touching_data.size()});
            touching_data.push_back(d);
        }
    };
    for (const ContactData& d : resting) {
        join(d);
    }
    const auto pair_of = [](const ContactData& d) { return unordered_pair(d.shape_a, d.shape_b); };
    std::sort(handed.begin(), handed.end(),
              [&](const ContactData& x, const ContactData& y) { return pair_of(x) < pair_of(y); });
    for (std::size_t i = 0; i < handed.size(); ++i) {
        if (i == 0 || pair_of(handed[i - 1]) != pair_of(handed[i])) {
            join(handed[i]);
        }
    }
    std::sort(now.begin() + searched_pairs, now.end());
    std::inplace_merge(now.begin(), now.begin() + searched_pairs, now.end());
    report_touching_changes(now);
    touching_as_met.clear();
    for (const ContactData& d : touching_data) {
        touching_as_met.push_back({d.shape_a, d.shape_b, d.body_a, d.body_b});
    }
    std::swap(touching, now); // (now is scratch: cleared before its next use)
}

void World::Impl::report_touching_changes(const std::vector<IndexedPair>& now) {
    std::vector<char>& began = touching_scratch.began;
    began.assign(touching_data.size(), 0);
    std::size_t k = 0;
    for (std::size_t j = 0; j < touching.size(); ++j) {
        const ShapePair& before = touching[j].pair;
        while (k < now.size() && now[k].pair < before) {
            began[now[k++].index] = 1;
        }
        if (k < now.size() && now[k].pair == before) {
            ++k;
        } else {
            // (As its begin reported it.)
            events.contact_end.push_back(touching_as_met[touching[j].index]);
        }
    }
    for (; k < now.size(); ++k) {
        began[now[k].index] = 1;
    }
    for (std::size_t i = 0; i < touching_data.size(); ++i) {
        if (began[i]) {
            const ContactData& d = touching_data[i];
            events.contact_begin.push_back({d.shape_a, d.shape_b, d.body_a, d.body_b,
                                            d.manifold.points[0].point, d.manifold.normal});
        }
    }
}

void World::Impl::update_sensors() {
    if (sensor_shapes == 0 && sensor_overlaps.empty()) {
        return; // (a scan of every shape would find nothing to report)
    }
    std::vector<ShapePair> now;
    for (int si = 0; si < static_cast<int>(shapes.size()); ++si) {
        const ShapeRecord& sensor = shapes[si];
        if (!sensor.sensor || sensor.body < 0) {
            continue;
        }
        const Body& sb = bodies[sensor.body];
        const Aabb box = compute_aabb(sensor.shape, sb.xf);
        const auto visit = [&](ProxyId, std::uint64_t data) {
            const int vi = static_cast<int>(data);
            const ShapeRecord& v = shapes[vi];
            if (v.sensor || v.body == sensor.body || !should_collide(sensor.filter, v.filter)) {
                return true;
            }
            DistanceInput input{sensor.proxy, v.proxy, sb.xf, bodies[v.body].xf, true};
            SimplexCache cache;
            const DistanceOutput d = distance(input, cache);
            if (d.state == DistanceState::cores_overlap || d.distance <= 0) {
                now.push_back({shape_id(si), shape_id(vi)});
            }
            return true;
        };
        moving_tree.query(box, ~0ull, visit);
        if (sb.type != BodyType::static_body) {
            query_static(box, visit);
        }
    }
    std::sort(now.begin(), now.end());
    for (const ShapePair& p : now) {
        if (!std::binary_search(sensor_overlaps.begin(), sensor_overlaps.end(), p)) {
            events.sensor_begin.push_back({p.a, p.b, owner_of(p.a), owner_of(p.b)});
        }
    }
    for (const ShapePair& p : sensor_overlaps) {
        if (!std::binary_search(now.begin(), now.end(), p)) {
            events.sensor_end.push_back({p.a, p.b, owner_of(p.a), owner_of(p.b)});
        }
    }
    sensor_overlaps.swap(now);
}

void World::Impl::report_stop(TimeOfImpactKind kind, int body, real t) {
    events.time_of_impact.push_back({kind, body_id(body), BodyId{}, bodies[body].sweep.c2, t});
}

} // namespace sweep
