// Conservative advancement along a translation. The distance from the origin
// to the Minkowski difference moving on a line is convex in t, so the tangent
// at the current t (separation minus approach speed times dt) never crosses
// zero later than the true distance does: every advance is safe.
#include "sweep/shape_cast.hpp"

#include <optional>

#include "core_separation.hpp"

namespace sweep {
namespace {

// Under translation alone the Minkowski difference B - A only shifts, so an
// edge of it that GJK converged on (on its boundary, facing the origin) stays
// on the boundary with the same normal. If the origin still projects inside
// that edge once B has moved, the closest points are on it and the distance
// is the gap along its normal, which the advancement has just brought to the
// target: the step lands on the contact, without running GJK to confirm it
// (the last GJK of most hits). Returns the closest point of A's core (A's
// frame) then, nothing when the projection has left the edge.
std::optional<Vec2> lands_on_edge(const ShapeProxy& a, const ShapeProxy& b, const Transform& b_in_a,
                                  const SimplexCache& cache) {
    const Vec2 a1 = a.points[cache.index_a[0]];
    const Vec2 a2 = a.points[cache.index_a[1]];
    const Vec2 w1 = transform_point(b_in_a, b.points[cache.index_b[0]]) - a1;
    const Vec2 w2 = transform_point(b_in_a, b.points[cache.index_b[1]]) - a2;
    const Vec2 e = w2 - w1;
    const real weight1 = dot(w2, e); // barycentric weights of the projection, as in GJK
    const real weight2 = -dot(w1, e);
    if (weight1 < 0 || weight2 < 0 || !(weight1 + weight2 > 0)) {
        return std::nullopt;
    }
    const auto [share1, share2] = detail::edge_weights(weight1, weight2);
    return share1 * a1 + share2 * a2;
}

} // namespace

CastOutput shape_cast(const ShapeCastInput& input) {
    CastOutput out;
    if (!is_finite(input.xf_a) || !is_finite(input.xf_b) || !is_finite(input.translation_b) ||
        !std::isfinite(input.max_fraction) || !std::isfinite(input.target_separation)) {
        out.state = CastState::invalid_input;
        return out;
    }
    const real target = input.target_separation;
    const real tolerance = input.touch_tolerance;
    // In A's frame B keeps its rotation and moves on a line, so each step
    // only shifts it there for GJK.
    const Transform start = inv_mul(input.xf_a, input.xf_b);
    const Vec2 translation = inv_rotate(input.xf_a.q, input.translation_b);
    const auto contact = [&](CastState state, real t, Vec2 normal, Vec2 point) {
        out.state = state;
        out.fraction = t;
        out.normal = normal;
        out.point = point;
        return out;
    };
    Transform xf_b = input.xf_b;
    Transform b_in_a = start;
    SimplexCache cache;
    real t = 0;
    for (int iteration = 0; iteration < k_toi_max_iterations; ++iteration) {
        xf_b.p = input.xf_b.p + t * input.translation_b;
        b_in_a.p = start.p + t * translation;
        const detail::CoreSeparation s = detail::signed_separation(
            input.proxy_a, input.xf_a, input.proxy_b, xf_b, b_in_a, cache);
        out.iterations = iteration + 1;
        const real separation = s.separation;
        if (separation < -tolerance) {
            return contact(t == 0 ? CastState::overlapped : CastState::hit, t, s.normal, s.point_a);
        }
        const real approach = -dot(input.translation_b, s.normal);
        if (separation < target + tolerance) {
            const auto closing = [&](Vec2 n) { return -dot(input.translation_b, n); };
            if (t == 0 && (approach <= 0 ||
                           detail::touching_plane_holds(input.proxy_a, input.xf_a, input.proxy_b,
                                                        xf_b, tolerance, closing))) {
                out.state = CastState::miss; // touching, moving along or away
                return out;
            }
            return contact(CastState::hit, t, s.normal, s.point_a);
        }
        if (approach <= 0) {
            out.state = CastState::miss; // the current separating plane holds forever
            return out;
        }
        t += (separation - target) / approach;
        if (t > input.max_fraction) {
            out.state = CastState::miss;
            out.fraction = input.max_fraction;
            return out;
        }
        if (s.on_edge) {
            b_in_a.p = start.p + t * translation;
            if (const auto on_a = lands_on_edge(input.proxy_a, input.proxy_b, b_in_a, cache)) {
                return contact(CastState::hit, t, s.normal,
                               transform_point(input.xf_a, *on_a) +
                                   input.proxy_a.radius * s.normal);
            }
        }
    }
    out.state = CastState::failed;
    out.fraction = t;
    return out;
}

} // namespace sweep
