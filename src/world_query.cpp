// World queries: rays, shape casts, overlaps and points against every body's
// shapes, through both broadphase trees, honouring query filters.
#include "world_impl.hpp"

#include <cmath>

#include "sweep/raycast.hpp"

namespace sweep {
namespace {

bool seen(const ShapeRecord& s, const QueryFilter& filter) {
    return s.body >= 0 && (s.filter.category_bits & filter.mask_bits) != 0 &&
           (filter.include_sensors || !s.sensor);
}

Error bad_query(const char* what) {
    return Error{ErrorCode::invalid_input,
                 std::string(what) + ": NaN or infinite input, or beyond k_max_coordinate"};
}

} // namespace

// Visits the shapes of both trees whose fat AABB meets `box`.
template <class Visit> void visit_shapes(const World::Impl& w, const Aabb& box, Visit&& visit) {
    const auto take = [&](ProxyId, std::uint64_t data) {
        visit(static_cast<int>(data));
        return true;
    };
    w.query_static(box, take);
    w.moving_tree.query(box, ~0ull, take);
}

Result<std::vector<QueryHit>> World::raycast_all(Vec2 origin, Vec2 translation,
                                                 const QueryFilter& filter) const {
    // A cast's start and end must lie within the coordinates bodies may
    // reach: beyond them the kernel's products of squared lengths overflow
    // (a ray 1e18 L long got a NaN hit, fuzz_world).
    if (!in_coordinate_range(origin) || !in_coordinate_range(translation) ||
        !in_coordinate_range(origin + translation)) {
        return bad_query("raycast_all");
    }
    const Impl& w = *impl_;
    std::vector<QueryHit> hits;
    const RayInput ray{origin, translation, 1};
    const Aabb box{min(origin, origin + translation), max(origin, origin + translation)};
    visit_shapes(w, box, [&](int si) {
        const ShapeRecord& s = w.shapes[si];
        if (!seen(s, filter)) {
            return;
        }
        const CastOutput out = raycast(ray, s.shape, w.bodies[s.body].xf);
        if (out.state == CastState::hit) {
            hits.push_back(
                {w.shape_id(si), w.body_id(s.body), out.point, out.normal, out.fraction});
        }
    });
    std::sort(hits.begin(), hits.end(), [](const QueryHit& a, const QueryHit& b) {
        return a.fraction != b.fraction ? a.fraction < b.fraction : a.shape < b.shape;
    });
    return hits;
}

Result<std::optional<QueryHit>> World::raycast_closest(Vec2 origin, Vec2 translation,
                                                       const QueryFilter& filter) const {
    auto hits = raycast_all(origin, translation, filter);
    if (!hits) {
        return bad_query("raycast_closest");
    }
    return hits->empty() ? std::optional<QueryHit>{} : std::optional<QueryHit>{hits->front()};
}

Result<std::optional<QueryHit>> World::shape_cast(const Shape& shape, const Transform& xf,
                                                  Vec2 translation,
                                                  const QueryFilter& filter) const {
    if (!is_finite(xf) || !in_coordinate_range(xf.p) || !in_coordinate_range(translation) ||
        !in_coordinate_range(xf.p + translation)) {
        return bad_query("shape_cast");
    }
    const Impl& w = *impl_;
    const Aabb start = compute_aabb(shape, xf);
    const Aabb box = union_of(start, {start.lower + translation, start.upper + translation});
    std::optional<QueryHit> best;
    ShapeCastInput input;
    input.proxy_b = make_proxy(shape);
    input.xf_b = xf;
    input.translation_b = translation;
    input.target_separation = w.tol.linear_slop;
    input.touch_tolerance = w.tol.touch_tolerance;
    visit_shapes(w, inflate(box, w.tol.linear_slop), [&](int si) {
        const ShapeRecord& s = w.shapes[si];
        if (!seen(s, filter)) {
            return;
        }
        input.proxy_a = s.proxy;
        input.xf_a = w.bodies[s.body].xf;
        const CastOutput out = sweep::shape_cast(input);
        // The cast's normal points from the hit shape (A) to the cast one.
        const QueryHit hit{w.shape_id(si), w.body_id(s.body), out.point, out.normal, out.fraction};
        if (out.state == CastState::hit &&
            (!best || hit.fraction < best->fraction ||
             (hit.fraction == best->fraction && hit.shape < best->shape))) {
            best = hit;
        }
    });
    return best;
}

Result<std::vector<ShapeId>> World::overlap_aabb(const Aabb& aabb,
                                                 const QueryFilter& filter) const {
    if (!is_valid(aabb)) {
        return Error{ErrorCode::invalid_input, "overlap_aabb: AABB not finite or inverted"};
    }
    const Impl& w = *impl_;
    std::vector<ShapeId> ids;
    visit_shapes(w, aabb, [&](int si) {
        const ShapeRecord& s = w.shapes[si];
        if (seen(s, filter) && overlaps(compute_aabb(s.shape, w.bodies[s.body].xf), aabb)) {
            ids.push_back(w.shape_id(si));
        }
    });
    std::sort(ids.begin(), ids.end());
    return ids;
}

Result<std::vector<ShapeId>> World::overlap_shape(const Shape& shape, const Transform& xf,
                                                  const QueryFilter& filter) const {
    if (!is_finite(xf)) {
        return bad_query("overlap_shape");
    }
    const Impl& w = *impl_;
    std::vector<ShapeId> ids;
    DistanceInput input;
    input.proxy_b = make_proxy(shape);
    input.xf_b = xf;
    visit_shapes(w, compute_aabb(shape, xf), [&](int si) {
        const ShapeRecord& s = w.shapes[si];
        if (!seen(s, filter)) {
            return;
        }
        input.proxy_a = s.proxy;
        input.xf_a = w.bodies[s.body].xf;
        SimplexCache cache;
        const DistanceOutput d = distance(input, cache);
        if (d.state == DistanceState::cores_overlap || d.distance <= 0) {
            ids.push_back(w.shape_id(si));
        }
    });
    std::sort(ids.begin(), ids.end());
    return ids;
}

Result<std::vector<ShapeId>> World::point_query(Vec2 point, const QueryFilter& filter) const {
    if (!is_finite(point)) {
        return bad_query("point_query");
    }
    // The point placed by a transform, not as a disc's centre: GJK runs in
    // each shape's frame, and only the pair's relative placement then
    // carries the point's large coordinates. A centre 3e5 L from the origin
    // came into that frame rounded, and a shape 0.13 L from the point was
    // taken as touching it (within 4 ulps of that coordinate).
    return overlap_shape(Circle{{}, 0}, Transform{point, Rot{}}, filter);
}

} // namespace sweep
