// Seams of static and kinematic geometry (seams.hpp): the stretches of a
// polygon's faces that a flush neighbour covers and the vertices that a
// neighbour buries, found again whenever that geometry changes; and
// collide_pair, the step's collide(), which makes a contact on a flat seam
// or at a buried vertex again on the face that continues the surface there,
// so that flush tiles act as one solid.
#include "world_impl.hpp"

#include <algorithm>
#include <array>
#include <span>

namespace sweep {

bool World::Impl::keeps_seams(const ShapeRecord& s) const {
    return s.body >= 0 && !s.sensor && bodies[s.body].type != BodyType::dynamic;
}

bool World::Impl::can_cover(const ShapeRecord& s) const {
    return keeps_seams(s) && s.shape.type == ShapeType::polygon && s.shape.polygon.radius == 0;
}

bool World::Impl::is_fixed_segment(const ShapeRecord& s) const {
    return keeps_seams(s) && s.shape.type == ShapeType::segment;
}

void World::Impl::note_seams_of(const Body& b) {
    if (b.type == BodyType::kinematic && b.shapes.size() > 1) {
        seam_shapes.insert(seam_shapes.end(), b.shapes.begin(), b.shapes.end());
    }
}

void World::Impl::note_static_proxy_change(ProxyId id) {
    const auto slot = static_cast<std::size_t>(id);
    const Aabb& box = static_boxes[slot];
    note_static_version(box);
    moved_proxies.add_static_box(uses_grid() ? static_grid.fat_aabb(id) : static_tree.fat_aabb(id));
    ++static_changes;
    seam_shapes.push_back(static_proxies[slot].shape);
    seam_boxes.push_back(box);
}

void World::Impl::find_seams() {
    SeamPlacement& placed = seam_placement;
    placed.slots.resize(shapes.size(), -1);
    // A changed static shape's search meets its neighbours (a tile's
    // eight) and theirs: past an eighth of the shapes, one pass over all
    // costs less.
    if (8 * seam_shapes.size() >= shapes.size()) {
        covered_stretches.clear();
        seam_holes = 0;
        // (One pass: a shape's search reads no other shape's seams.)
        for (int si = 0; si < static_cast<int>(shapes.size()); ++si) {
            ShapeRecord& s = shapes[static_cast<std::size_t>(si)];
            s.seams_begin = s.seams_end = 0;
            renew_seams_of(si, placed);
        }
    } else {
        for (const int si : changed_seam_shapes()) {
            renew_seams_of(si, placed);
        }
        if (2 * seam_holes > covered_stretches.size()) {
            compact_seams();
        }
    }
    forget_placements(placed);
    seam_shapes.clear();
    seam_boxes.clear();
}

void World::Impl::forget_placements(SeamPlacement& placed) {
    for (const int si : placed.placed) {
        placed.slots[static_cast<std::size_t>(si)] = -1;
    }
    placed.placed.clear();
    placed.boxes.clear();
    placed.polygons.clear();
}

void World::Impl::renew_seams_of(int si, SeamPlacement& placed) {
    ShapeRecord& s = shapes[si];
    note_shape_changed(si);
    seam_holes += static_cast<std::size_t>(s.seams_end - s.seams_begin);
    const bool fixed = s.body >= 0 && bodies[s.body].type == BodyType::static_body;
    if (fixed && (can_cover(s) || is_fixed_segment(s))) {
        s.seams_begin = s.seams_end = 0;
        s.buried_by = no_buriers();
        s.seams_known = false;
        return;
    }
    find_seams_of(si, placed);
}

void World::Impl::find_seams_now(const ShapeRecord& s) const {
    const int si = static_cast<int>(&s - shapes.data());
    seam_placement.slots.resize(shapes.size(), -1);
    find_seams_of(si, seam_placement);
    forget_placements(seam_placement);
}

void World::Impl::compact_seams() {
    std::vector<CoveredStretch> kept;
    kept.reserve(covered_stretches.size() - seam_holes);
    for (ShapeRecord& s : shapes) {
        const auto first = covered_stretches.begin() + s.seams_begin;
        const auto last = covered_stretches.begin() + s.seams_end;
        s.seams_begin = static_cast<int>(kept.size());
        kept.insert(kept.end(), first, last);
        s.seams_end = static_cast<int>(kept.size());
    }
    covered_stretches = std::move(kept);
    seam_holes = 0;
}

std::vector<int> World::Impl::changed_seam_shapes() const {
    std::vector<int> changed = seam_shapes;
    for (const Aabb& box : seam_boxes) {
        // (Twice the tolerance: the shapes whose own grown boxes meet this
        // one's broadphase box, whatever the rounding.)
        query_static(inflate(box, 2 * tol.touch_tolerance), [&](ProxyId, std::uint64_t other) {
            changed.push_back(static_cast<int>(other));
            return true;
        });
    }
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    return changed;
}

void World::Impl::find_seams_of(int si, SeamPlacement& placed) const {
    const ShapeRecord& s = shapes[si];
    s.seams_known = true;
    s.seams_begin = static_cast<int>(covered_stretches.size());
    s.buried_by = no_buriers();
    if (can_cover(s) || is_fixed_segment(s)) {
        std::array<Vec2, k_max_polygon_vertices> points;
        const Transform& xf = bodies[s.body].xf;
        for (int v = 0; v < s.proxy.count; ++v) {
            points[static_cast<std::size_t>(v)] = transform_point(xf, s.proxy.points[v]);
        }
        const std::span<const Vec2> own(points.data(), static_cast<std::size_t>(s.proxy.count));
        const int slot = place_seam_keeper(si, placed);
        const Aabb box = placed.boxes[static_cast<std::size_t>(slot)];
        for_each_seam_neighbour(si, box,
                                [&](int other) { find_seams_with(si, slot, own, other, placed); });
    }
    s.seams_end = static_cast<int>(covered_stretches.size());
}

int World::Impl::place_seam_keeper(int si, SeamPlacement& placed) const {
    int& slot = placed.slots[static_cast<std::size_t>(si)];
    if (slot < 0) {
        const ShapeRecord& s = shapes[si];
        const Transform& xf = bodies[s.body].xf;
        slot = static_cast<int>(placed.boxes.size());
        placed.placed.push_back(si);
        placed.boxes.push_back(inflate(compute_aabb(s.shape, xf), tol.touch_tolerance));
        placed.polygons.push_back(can_cover(s) ? place(s.shape.polygon, xf) : PlacedPolygon{});
    }
    return slot;
}

template <class Visit>
void World::Impl::for_each_seam_neighbour(int si, const Aabb& box, Visit&& visit) const {
    const ShapeRecord& s = shapes[si];
    const Body& b = bodies[s.body];
    const auto consider = [&](int other) {
        if (other != si && !shapes[other].sensor) {
            visit(other);
        }
    };
    if (b.type == BodyType::kinematic) {
        for (const int other : b.shapes) {
            consider(other);
        }
        return;
    }
    // In index order, not the static broadphase's (a tree's and a grid's
    // differ): a vertex two tiles bury is buried by the first, and the
    // worlds must agree on it.
    seam_neighbours.clear();
    query_static(box, [&](ProxyId, std::uint64_t other) {
        seam_neighbours.push_back(static_cast<int>(other));
        return true;
    });
    std::sort(seam_neighbours.begin(), seam_neighbours.end());
    for (const int other : seam_neighbours) {
        consider(other);
    }
}

void World::Impl::find_seams_with(int si, int own, std::span<const Vec2> points, int other,
                                  SeamPlacement& placed) const {
    const ShapeRecord& s = shapes[si];
    const ShapeRecord& o = shapes[other];
    const auto its = static_cast<std::size_t>(place_seam_keeper(other, placed));
    if (can_cover(s) && can_cover(o)) {
        find_covered_stretches(placed.polygons[static_cast<std::size_t>(own)], placed.polygons[its],
                               other, tol.touch_tolerance, covered_stretches);
    }
    mark_buried_vertices(s, points, o, placed.boxes[its], other);
}

void World::Impl::mark_buried_vertices(const ShapeRecord& s, std::span<const Vec2> points,
                                       const ShapeRecord& o, const Aabb& near_o, int other) const {
    for (std::size_t v = 0; v < points.size(); ++v) {
        int& by = s.buried_by[v];
        const Vec2 point = points[v];
        if (by < 0 && contains(near_o, Aabb{point, point}) && !near_a_vertex(o, point) &&
            touches_point(o, point)) {
            by = other;
        }
    }
}

bool World::Impl::touches_point(const ShapeRecord& o, Vec2 point) const {
    const ShapeProxy dot_proxy = make_proxy(std::span(&point, 1), 0);
    SimplexCache cache;
    const DistanceInput in{o.proxy, dot_proxy, bodies[o.body].xf, Transform{}, true};
    return distance(in, cache).distance <= tol.touch_tolerance;
}

bool World::Impl::near_a_vertex(const ShapeRecord& s, Vec2 point) const {
    for (int i = 0; i < s.proxy.count; ++i) {
        if (distance(transform_point(bodies[s.body].xf, s.proxy.points[i]), point) <=
            tol.touch_tolerance) {
            return true;
        }
    }
    return false;
}

Vec2 World::Impl::mean_point(const ShapeProxy& p) {
    Vec2 sum{};
    for (int i = 0; i < p.count; ++i) {
        sum += p.points[i];
    }
    return (real(1) / real(p.count)) * sum;
}

int World::Impl::flat_seam_face_of(const Manifold& m, const ShapeRecord& mover,
                                   const Transform& xf_mover, const ShapeRecord& wall,
                                   const Transform& xf_wall) const {
    if (m.count == 0 || covered_of(wall).empty()) {
        return -1;
    }
    const auto counts = [&](const CoveredStretch& c) {
        return may_collide(mover, shapes[c.neighbour]);
    };
    const Vec2 normal = inv_rotate(xf_wall.q, -m.normal); // wall to mover
    for (int i = 0; i < m.count; ++i) {
        const Vec2 point = m.points[i].anchor_b;
        const CoveredStretch* c = seam_stretch(wall.shape.polygon, covered_of(wall), point, normal,
                                               tol.touch_tolerance, counts);
        if (!c) {
            continue;
        }
        // The mover's own point inside the neighbour as well (a corner
        // wedged at the foot of a wall standing on a floor) is no seam
        // crossing: both keep their ordinary contacts.
        const ShapeRecord& n = shapes[c->neighbour];
        const Transform& xf_n = n.body == wall.body ? xf_wall : bodies[n.body].xf;
        const Vec2 own = transform_point(xf_mover, m.points[i].anchor_a);
        if (inside(n.shape.polygon, inv_transform_point(xf_n, own), tol.touch_tolerance)) {
            return -1;
        }
        return flat_seam_face(wall.shape.polygon, xf_wall, *c, point, n.shape.polygon, xf_n,
                              tol.touch_tolerance, k_seam_reach * tol.linear_slop);
    }
    return -1;
}

Manifold World::Impl::collide_pair(int shape_a, int shape_b, const Transform& xfa,
                                   const Transform& xfb, const CollideSettings& settings) const {
    const ShapeRecord& sa = shapes[shape_a];
    const ShapeRecord& sb = shapes[shape_b];
    CollideSettings fixed_face = settings;
    fixed_face.prefer_reference_b = bodies[sb.body].type == BodyType::static_body;
    const Manifold m = collide(sa.shape, xfa, sb.shape, xfb, fixed_face);
    if (sb.shape.type == ShapeType::segment) {
        return segment_contact(m, sa, xfa, sb, xfb, settings);
    }
    const int face = flat_seam_face_of(m, sa, xfa, sb, xfb);
    if (face >= 0) {
        return collide_face(sa.shape, xfa, sb.shape.polygon, xfb, face, settings);
    }
    return sb.shape.type == ShapeType::polygon
               ? face_contact_at_buried_vertex(m, sa, xfa, sb, xfb, settings)
               : m;
}

Manifold World::Impl::face_contact_at_buried_vertex(const Manifold& m, const ShapeRecord& mover,
                                                    const Transform& xfa, const ShapeRecord& wall,
                                                    const Transform& xfb,
                                                    const CollideSettings& settings) const {
    const Polygon& p = wall.shape.polygon;
    for (int i = 0; i < m.count; ++i) {
        for (int v = 0; v < p.count; ++v) {
            const int by = buried_by_of(wall)[static_cast<std::size_t>(v)];
            if (by >= 0 && distance(m.points[i].anchor_b, p.vertices[v]) <= tol.linear_slop &&
                may_collide(mover, shapes[by])) {
                return collide_face(mover.shape, xfa, p, xfb, face_toward(p, v, mover, xfa, xfb),
                                    settings);
            }
        }
    }
    return m;
}

int World::Impl::face_toward(const Polygon& p, int v, const ShapeRecord& mover,
                             const Transform& xfa, const Transform& xfb) const {
    const Vec2 side = inv_transform_point(xfb, transform_point(xfa, mean_point(mover.proxy)));
    const int before = (v + p.count - 1) % p.count; // the face ending at v
    const Vec2 out = side - p.vertices[v];
    return dot(p.normals[before], out) > dot(p.normals[v], out) ? before : v;
}

Manifold World::Impl::segment_contact(const Manifold& m, const ShapeRecord& mover,
                                      const Transform& xfa, const ShapeRecord& wall,
                                      const Transform& xfb, const CollideSettings& settings) const {
    if (m.count == 0) {
        return m;
    }
    const Segment& seg = wall.shape.segment;
    const Polygon faces = capsule_polygon(Capsule{seg.p1, seg.p2, 0});
    const Vec2 side = inv_transform_point(xfb, transform_point(xfa, mean_point(mover.proxy)));
    const int face = dot(faces.normals[0], side - seg.p1) >= 0 ? 0 : 1;
    const Vec2 normal = inv_rotate(xfb.q, m.normal); // A to B, the segment's frame
    const int end = contacted_end(seg, normal, m.points[0].anchor_b);
    const int by = end < 0 ? -1 : buried_by_of(wall)[static_cast<std::size_t>(end)];
    const bool buried_end = by >= 0 && may_collide(mover, shapes[by]);
    const bool across = end < 0 && dot(normal, faces.normals[face]) > 0;
    if (buried_end || across) {
        return collide_face(mover.shape, xfa, faces, xfb, face, settings);
    }
    return m;
}

Result<ShapeSeams> World::shape_seams(ShapeId id) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return Error{ErrorCode::stale_handle, "shape_seams: stale or null shape handle"};
    }
    w.rebuild_static_tree_if_dirty();
    w.find_seams_if_dirty();
    const ShapeRecord& s = w.shapes[id.index];
    ShapeSeams seams;
    for (const CoveredStretch& c : w.covered_of(s)) {
        seams.covered.push_back({c.face, w.shape_id(c.neighbour), c.lo, c.hi});
    }
    if (w.can_cover(s) || w.is_fixed_segment(s)) {
        for (int v = 0; v < s.proxy.count; ++v) {
            const int by = w.buried_by_of(s)[static_cast<std::size_t>(v)];
            seams.buried_by.push_back(by >= 0 ? w.shape_id(by) : ShapeId{});
        }
    }
    return seams;
}

} // namespace sweep
