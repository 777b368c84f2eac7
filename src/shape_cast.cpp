// Conservative advancement along a translation. The distance from the origin
// to the Minkowski difference moving on a line is convex in t, so the tangent
// at the current t (separation minus approach speed times dt) never crosses
// zero later than the true distance does: every advance is safe.
#include "sweep/shape_cast.hpp"

#include "core_separation.hpp"

namespace sweep {

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
    // only shifts it; the normal and point go to the world once, for the result.
    const Transform start = inv_mul(input.xf_a, input.xf_b);
    const Vec2 translation = inv_rotate(input.xf_a.q, input.translation_b);
    const auto contact = [&](CastState state, real t, const detail::CoreSeparation& s) {
        out.state = state;
        out.fraction = t;
        out.normal = rotate(input.xf_a.q, s.normal);
        out.point = transform_point(input.xf_a, s.point_a);
        return out;
    };
    Transform b_in_a = start;
    SimplexCache cache;
    real t = 0;
    for (int iteration = 0; iteration < k_toi_max_iterations; ++iteration) {
        b_in_a.p = start.p + t * translation;
        const detail::CoreSeparation s =
            detail::signed_separation(input.proxy_a, input.proxy_b, b_in_a, cache);
        out.iterations = iteration + 1;
        const real separation = s.separation;
        if (separation < -tolerance) {
            return contact(t == 0 ? CastState::overlapped : CastState::hit, t, s);
        }
        const real approach = -dot(translation, s.normal);
        if (separation < target + tolerance) {
            if (t == 0 && approach <= 0) {
                out.state = CastState::miss; // touching, moving along or away
                return out;
            }
            return contact(CastState::hit, t, s);
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
    }
    out.state = CastState::failed;
    out.fraction = t;
    return out;
}

} // namespace sweep
