// Private to World::move (mover.cpp, box_mover.cpp): what a moving shape
// may meet. Static shapes come from the shape's static neighbourhood
// (MovingShape::near_static: copies of the static proxies around it, found
// again only when a move leaves it, so a move reads them in one sweep
// through memory rather than walking the static broadphase); other moving
// shapes from the moving tree, after the occupancy grid's cheaper answer.
//
// Frame and units: world, L.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "box_reach.hpp"
#include "world_impl.hpp"

namespace sweep::detail {

// A moving shape's static neighbourhood reaches this many times the move's
// reach (and the broadphase margin) beyond what the move needs, so that
// the next few moves find it still holds them. (Three rather than two: on
// the Move benchmark's scene it is found again on 1.5 % of moves rather
// than 3 %, each a cold walk of the static tree, for 18 boxes a scan
// rather than 12: boxes 0.97 of the time, discs 0.96, capsules 0.95.)
inline constexpr real k_near_slack = 3;
// Room for a neighbourhood's static proxies, reserved at a shape's first
// move; a larger neighbourhood is not kept.
inline constexpr std::size_t k_near_capacity = 32;

// Static proxy `slot` as moving shape `s` keeps it in its
// neighbourhood; none when their filters keep them apart.
std::optional<NearStatic> near_static(const World::Impl& w, const ShapeRecord& s, std::size_t slot);

// The static proxies whose own boxes meet `near` and that `s` may meet,
// into the shape's neighbourhood; none (near_version 0) when they
// outnumber its room.
void find_static_near(World::Impl& w, const ShapeRecord& s, const Aabb& near);

// Whether a moving shape's static neighbourhood m was found after the static
// shapes in its box last changed: at World::Impl::static_version, or at one
// of the k_static_log versions before it with none of the changes since
// meeting its box, when it is brought up to the current version. Not when
// it has none (near_version 0).
bool renew_neighbourhood(const World::Impl& w, MovingShape& m);
inline bool neighbourhood_holds(const World::Impl& w, MovingShape& m) {
    return m.near_version == w.static_version || renew_neighbourhood(w, m);
}

// `visit(NearStatic)` for every static shape whose own box meets `box`
// and whose filter collides with `own`'s: from the shape's static
// neighbourhood, found again when `box` leaves it, in the order the
// static broadphase reported the neighbourhood. (A tree reports its
// leaves depth first whatever the box, so that is the order of a query
// of `box`; a grid's order depends on the box. A move's result does not
// depend on the order: ties go by measure, normal, then id.)
template <class Visit>
void query_static_near(World::Impl& w, int own, const Aabb& box, real reach, Visit&& visit) {
    const ShapeRecord& s = w.shapes[own];
    MovingShape& m = w.moving_of(s);
    const auto direct = [&] {
        w.query_static(box, [&](ProxyId id, std::uint64_t) {
            const auto slot = static_cast<std::size_t>(id);
            if (overlaps(box, w.static_boxes[slot])) { // else only its fat box is in reach
                if (const std::optional<NearStatic> n = near_static(w, s, slot)) {
                    visit(*n);
                }
            }
            return true;
        });
    };
    if (!neighbourhood_holds(w, m) || !contains(m.near_box, box)) {
        find_static_near(w, s, inflate(box, k_near_slack * reach + w.tol.aabb_margin));
    }
    if (m.near_version != w.static_version) {
        direct(); // more than the neighbourhood holds
        return;
    }
    // Those whose boxes meet `box`, found first without a branch on
    // each (whether a tile is in reach follows no pattern a predictor
    // could learn, and a miss cost more than the scan), then visited in
    // order.
    // (The bounds are read once: the byte stores may alias anything.)
    std::array<std::uint8_t, k_near_capacity> in_reach{};
    std::size_t count = 0;
    const BoxReach reach_of_box(box);
    const NearStatic* near = m.near_static.data();
    const std::size_t near_count = m.near_static.size();
    for (std::size_t i = 0; i < near_count; ++i) {
        in_reach[count] = static_cast<std::uint8_t>(i);
        count += reach_of_box.meets(near[i].other.box);
    }
    for (std::size_t k = 0; k < count; ++k) {
        visit(near[in_reach[k]]);
    }
}

// `visit(shape index, ShapeRecord, Body)` for every shape of another
// moving body whose fat box meets `box` and whose filter collides with
// `own`'s, as the moving tree reports them (in its order where it walks).
// The occupancy shows most moves, among characters spread over a map, that
// there are none, or only a few to look at, without the tree's walk.
template <class Visit>
void query_movers_near(const World::Impl& w, int own, const Aabb& box, Visit&& visit) {
    const ShapeRecord& s = w.shapes[own];
    const auto visit_mover = [&](ProxyId, std::uint64_t data) {
        const int other = static_cast<int>(data);
        const ShapeRecord& o = w.shapes[other];
        if (o.body != s.body && should_collide(s.filter, o.filter)) {
            visit(other, o, w.bodies[o.body]);
        }
        return true;
    };
    const OccupancyGrid::Others others =
        w.moving_occupancy.others(box, w.moving_tree.fat_aabb(s.tree_proxy), s.tree_proxy);
    switch (others.kind) {
    case OccupancyGrid::Others::Kind::none:
        break;
    case OccupancyGrid::Others::Kind::named:
        // What the walk would report: those whose fat boxes meet `box`
        // (every proxy's categories meet the walk's mask), here in another
        // order, which a move's result does not depend on.
        for (int i = 0; i < others.count; ++i) {
            const ProxyId id = others.ids[static_cast<std::size_t>(i)];
            if (overlaps(box, w.moving_tree.fat_aabb(id))) {
                visit_mover(id, w.moving_tree.user_data(id));
            }
        }
        break;
    case OccupancyGrid::Others::Kind::several:
        w.moving_tree.query(box, ~0ull, visit_mover);
        break;
    }
}

} // namespace sweep::detail
