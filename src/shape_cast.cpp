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
    Transform xf_b = input.xf_b;
    SimplexCache cache;
    real t = 0;
    for (int iteration = 0; iteration < k_toi_max_iterations; ++iteration) {
        xf_b.p = input.xf_b.p + t * input.translation_b;
        const detail::CoreSeparation s =
            detail::signed_separation(input.proxy_a, input.xf_a, input.proxy_b, xf_b, cache);
        out.iterations = iteration + 1;
        const real separation = s.separation;
        const Vec2 normal = s.normal;
        const Vec2 point = s.point_a;
        if (separation < -tolerance) {
            out.state = t == 0 ? CastState::overlapped : CastState::hit;
            out.fraction = t;
            out.normal = normal;
            out.point = point;
            return out;
        }
        const real approach = -dot(input.translation_b, normal);
        if (separation < target + tolerance) {
            if (t == 0 && approach <= 0) {
                out.state = CastState::miss; // touching, moving along or away
                return out;
            }
            out.state = CastState::hit;
            out.fraction = t;
            out.normal = normal;
            out.point = point;
            return out;
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
