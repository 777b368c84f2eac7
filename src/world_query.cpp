// World queries: rays, shape casts, overlaps and points against every body's
// shapes, through both broadphase trees, honouring query filters.
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

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

// How far a cast from `from` by `translation` grows its box so that the
// broadphase's slab tests, which round, never miss a shape the kernel's
// cast meets: 16 ulps of its largest coordinate and length, where that
// passes half the `margin` the broadphase grows its boxes by; else none,
// the margin covering the rounding, and a ray stays a ray (which a grid
// walks cell by cell along its path). Far out, an ulp passes the margin:
// without the growth, a ray along a row of tiles 4e6 L out missed one it met.
real cast_rounding(const Aabb& from, Vec2 translation, real margin) {
    const real scale = std::max({std::abs(from.lower.x), std::abs(from.lower.y),
                                 std::abs(from.upper.x), std::abs(from.upper.y)}) +
                       std::max(std::abs(translation.x), std::abs(translation.y));
    const real rounding = 16 * std::numeric_limits<real>::epsilon() * scale;
    return rounding < real(0.5) * margin ? real(0) : rounding;
}

// How far a closest-hit search still looks once `best` is found: up to its
// fraction, so that a shape as near with a lower id is still met, and for
// a hit at 0 just past it (0 would stop the walk).
real search_up_to(const std::optional<QueryHit>& best, real max_fraction) {
    if (!best) {
        return max_fraction;
    }
    return std::max(best->fraction, std::numeric_limits<real>::min());
}

// Whether `hit` comes before `best`: nearer, or as near with a lower id.
bool before(const QueryHit& hit, const std::optional<QueryHit>& best) {
    return !best || hit.fraction < best->fraction ||
           (hit.fraction == best->fraction && hit.shape < best->shape);
}

// A cast's start and end must lie within the coordinates bodies may reach:
// beyond them the kernel's products of squared lengths overflow (a ray
// 1e18 L long got a NaN hit, fuzz_world).
bool valid_ray(Vec2 origin, Vec2 translation) {
    return in_coordinate_range(origin) && in_coordinate_range(translation) &&
           in_coordinate_range(origin + translation);
}

// What a listing query `into(std::vector<T>&) -> Result<void>` finds, in a
// vector of its own.
template <class T, class Into> Result<std::vector<T>> listed(Into&& into) {
    std::vector<T> found;
    if (Result<void> done = into(found); !done) {
        return done.error();
    }
    return found;
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

// `visit(shape index, max_fraction) -> real` for the shapes of both trees
// whose broadphase box `box` meets as it moves by `translation`, up to the
// fraction of it the last visit returned (box_cast_clipped: a shape whose
// box it meets only farther is skipped). Rays and casts walk the
// broadphase along their path, as b2DynamicTree::RayCast does, rather
// than testing everything in the box around it (a ray 40 L long at 45
// degrees has a box of 800 L^2).
template <class Visit>
void cast_shapes(const World::Impl& w, const Aabb& box, Vec2 translation, Visit&& visit) {
    const auto take = [&](ProxyId, std::uint64_t data, real max_fraction) {
        return visit(static_cast<int>(data), max_fraction);
    };
    if (w.uses_grid()) {
        w.static_grid.box_cast_clipped(box, translation, ~0ull, take);
    } else {
        w.place_static_proxies();
        w.static_tree.box_cast_clipped(box, translation, ~0ull, take);
    }
    w.moving_tree.box_cast_clipped(box, translation, ~0ull, take);
}

// raycast() of every shape `filter` sees that the ray may enter: each hit
// to `on_hit(QueryHit)`, up to the fraction `search(max_fraction)` leaves.
template <class OnHit, class Search>
void raycast_shapes(const World::Impl& w, Vec2 origin, Vec2 translation, const QueryFilter& filter,
                    OnHit&& on_hit, Search&& search) {
    const RayInput ray{origin, translation, 1};
    const Aabb from{origin, origin};
    cast_shapes(w, inflate(from, cast_rounding(from, translation, w.tol.aabb_margin)), translation,
                [&](int si, real max_fraction) {
                    const ShapeRecord& s = w.shapes[si];
                    if (seen(s, filter)) {
                        const CastOutput out = raycast(ray, s.shape, w.bodies[s.body].xf);
                        if (out.state == CastState::hit) {
                            on_hit(QueryHit{w.shape_id(si), w.body_id(s.body), out.point,
                                            out.normal, out.fraction});
                        }
                    }
                    return search(max_fraction);
                });
}

Result<void> World::raycast_all(Vec2 origin, Vec2 translation, const QueryFilter& filter,
                                std::vector<QueryHit>& hits) const {
    if (!valid_ray(origin, translation)) {
        return bad_query("raycast_all");
    }
    hits.clear();
    raycast_shapes(
        *impl_, origin, translation, filter, [&](const QueryHit& hit) { hits.push_back(hit); },
        [](real max_fraction) { return max_fraction; });
    std::sort(hits.begin(), hits.end(), [](const QueryHit& a, const QueryHit& b) {
        return a.fraction != b.fraction ? a.fraction < b.fraction : a.shape < b.shape;
    });
    return {};
}

Result<std::vector<QueryHit>> World::raycast_all(Vec2 origin, Vec2 translation,
                                                 const QueryFilter& filter) const {
    return listed<QueryHit>([&](std::vector<QueryHit>& hits) {
        return raycast_all(origin, translation, filter, hits);
    });
}

Result<std::optional<QueryHit>> World::raycast_closest(Vec2 origin, Vec2 translation,
                                                       const QueryFilter& filter) const {
    if (!valid_ray(origin, translation)) {
        return bad_query("raycast_closest");
    }
    std::optional<QueryHit> best;
    raycast_shapes(
        *impl_, origin, translation, filter,
        [&](const QueryHit& hit) {
            if (before(hit, best)) {
                best = hit;
            }
        },
        [&](real max_fraction) { return search_up_to(best, max_fraction); });
    return best;
}

Result<std::optional<QueryHit>> World::shape_cast(const Shape& shape, const Transform& xf,
                                                  Vec2 translation,
                                                  const QueryFilter& filter) const {
    if (!is_finite(xf) || !valid_ray(xf.p, translation)) {
        return bad_query("shape_cast");
    }
    const Impl& w = *impl_;
    std::optional<QueryHit> best;
    ShapeCastInput input;
    input.proxy_b = make_proxy(shape);
    input.xf_b = xf;
    input.translation_b = translation;
    input.target_separation = w.tol.linear_slop;
    input.touch_tolerance = w.tol.touch_tolerance;
    // A cast stops where the shapes are less than the slop and the touch
    // tolerance apart (shape_cast), so their boxes grown by that much meet
    // there; another touch tolerance and the slab tests' rounding keep
    // GJK's rounding inside.
    const Aabb start = compute_aabb(shape, xf);
    const real reach = w.tol.linear_slop + 2 * w.tol.touch_tolerance;
    cast_shapes(w, inflate(start, reach + cast_rounding(start, translation, w.tol.aabb_margin)),
                translation, [&](int si, real max_fraction) {
                    const ShapeRecord& s = w.shapes[si];
                    if (!seen(s, filter)) {
                        return search_up_to(best, max_fraction);
                    }
                    input.proxy_a = s.proxy;
                    input.xf_a = w.bodies[s.body].xf;
                    const CastOutput out = sweep::shape_cast(input);
                    // The cast's normal points from the hit shape (A) to the cast one.
                    const QueryHit hit{w.shape_id(si), w.body_id(s.body), out.point, out.normal,
                                       out.fraction};
                    if (out.state == CastState::hit && before(hit, best)) {
                        best = hit;
                    }
                    return search_up_to(best, max_fraction);
                });
    return best;
}

Result<void> World::overlap_aabb(const Aabb& aabb, const QueryFilter& filter,
                                 std::vector<ShapeId>& ids) const {
    if (!is_valid(aabb)) {
        return Error{ErrorCode::invalid_input, "overlap_aabb: AABB not finite or inverted"};
    }
    const Impl& w = *impl_;
    ids.clear();
    visit_shapes(w, aabb, [&](int si) {
        const ShapeRecord& s = w.shapes[si];
        if (seen(s, filter) && overlaps(compute_aabb(s.shape, w.bodies[s.body].xf), aabb)) {
            ids.push_back(w.shape_id(si));
        }
    });
    std::sort(ids.begin(), ids.end());
    return {};
}

Result<std::vector<ShapeId>> World::overlap_aabb(const Aabb& aabb,
                                                 const QueryFilter& filter) const {
    return listed<ShapeId>(
        [&](std::vector<ShapeId>& ids) { return overlap_aabb(aabb, filter, ids); });
}

Result<void> World::overlap_shape(const Shape& shape, const Transform& xf,
                                  const QueryFilter& filter, std::vector<ShapeId>& ids) const {
    if (!is_finite(xf)) {
        return bad_query("overlap_shape");
    }
    const Impl& w = *impl_;
    ids.clear();
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
    return {};
}

Result<std::vector<ShapeId>> World::overlap_shape(const Shape& shape, const Transform& xf,
                                                  const QueryFilter& filter) const {
    return listed<ShapeId>(
        [&](std::vector<ShapeId>& ids) { return overlap_shape(shape, xf, filter, ids); });
}

Result<void> World::point_query(Vec2 point, const QueryFilter& filter,
                                std::vector<ShapeId>& ids) const {
    if (!is_finite(point)) {
        return bad_query("point_query");
    }
    // The point placed by a transform, not as a disc's centre: GJK runs in
    // each shape's frame, and only the pair's relative placement then
    // carries the point's large coordinates. A centre 3e5 L from the origin
    // came into that frame rounded, and a shape 0.13 L from the point was
    // taken as touching it (within 4 ulps of that coordinate).
    return overlap_shape(Circle{{}, 0}, Transform{point, Rot{}}, filter, ids);
}

Result<std::vector<ShapeId>> World::point_query(Vec2 point, const QueryFilter& filter) const {
    return listed<ShapeId>(
        [&](std::vector<ShapeId>& ids) { return point_query(point, filter, ids); });
}

} // namespace sweep
