// World::move's closed forms for a disc or an axis-aligned capsule against
// an axis-aligned box (see move_round_box.hpp).
#include "move_round_box.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sweep/swept.hpp"

namespace sweep::detail {
namespace {

// collide()'s rounding of a separation or of a normal's share in A's frame,
// in units of the largest coordinate, with room to spare.
constexpr real k_collide_rounding_ulps = 64;

// The unit `offset` (of length `dist` > 0): beside a face, its axis
// exactly (offset / dist may round to 0.99999994), as collide()'s normal.
Vec2 direction(Vec2 offset, real dist) {
    if (offset.x == 0) {
        return {0, offset.y > 0 ? real(1) : real(-1)};
    }
    if (offset.y == 0) {
        return {offset.x > 0 ? real(1) : real(-1), 0};
    }
    return (real(1) / dist) * offset;
}

// Whether a face of `box` holds the disc about `center` off it to within
// `tolerance` (their gap along its axis less the radius) while `motion`
// does not close it (runs along the face within k_along_cosine, or away).
bool a_face_holds(const Aabb& box, Vec2 center, real radius, Vec2 motion, real tolerance) {
    const real along = -k_along_cosine * length(motion);
    return (motion.x >= along && (center.x - box.upper.x) - radius >= -tolerance) ||
           (-motion.x >= along && (box.lower.x - center.x) - radius >= -tolerance) ||
           (motion.y >= along && (center.y - box.upper.y) - radius >= -tolerance) ||
           (-motion.y >= along && (box.lower.y - center.y) - radius >= -tolerance);
}

} // namespace

std::optional<CastOutput> RoundOnBox::cast(Vec2 motion, real target, real band) const {
    const Vec2 nearest = closest_point(box, center);
    const Vec2 offset = center - nearest;
    if (offset == Vec2{}) {
        return std::nullopt;
    }
    const real dist = length(offset);
    const real separation = dist - radius;
    CastOutput out;
    if (separation < -band) {
        out.state = CastState::overlapped;
        return out;
    }
    if (separation < target + band) {
        // (shape_cast's touching_plane_holds needs no copy: a face that
        // holds them apart to within the band without closing is a graze,
        // which cast_to_contact tests next, with a wider tolerance.)
        const Vec2 normal = direction(offset, dist);
        if (dot(motion, normal) >= 0) {
            return out; // touching, moving along or away
        }
        out.state = CastState::hit;
        out.normal = normal;
        out.point = closest_point(a_box, nearest);
        return out;
    }
    const SweptCircleAabbResult hit = swept_circle_aabb(box, center, radius + target, motion, 0);
    if (hit.state == CastState::hit) {
        out.state = CastState::hit;
        out.fraction = hit.t;
        out.normal = hit.normal;
        out.point = closest_point(a_box, hit.point);
    }
    return out;
}

bool RoundOnBox::grazes(Vec2 at, Vec2 motion, const CastOutput& hit, const Tolerances& tol) const {
    if (a_face_holds(box, at, radius, motion, tol.touch_tolerance)) {
        return true;
    }
    // grazes_where_it_closes: the gap along the hit's normal, from the
    // grown box's farthest corner, closed along the motion.
    const Vec2 n = hit.normal;
    const real approach = -dot(motion, n);
    const real farthest = std::max(
        std::max(dot(n, box.lower), dot(n, box.upper)),
        std::max(dot(n, Vec2{box.lower.x, box.upper.y}), dot(n, Vec2{box.upper.x, box.lower.y})));
    const real gap = dot(n, at) - farthest - radius;
    if (!(approach > 0) || !(gap > real(0.5) * tol.touch_tolerance) ||
        gap > approach * (1 - hit.fraction)) {
        return false;
    }
    return a_face_holds(box, at + (gap / approach) * motion, radius, motion, tol.touch_tolerance);
}

bool RoundOnBox::may_press_into(Vec2 motion, const Tolerances& tol) const {
    const Vec2 nearest = closest_point(box, center);
    const Vec2 offset = center - nearest;
    if (offset == Vec2{}) {
        return true;
    }
    // collide() measures in A's frame, rounding by about this.
    const real mu = k_collide_rounding_ulps * std::numeric_limits<real>::epsilon() *
                    (1 + std::max({max_abs(box.lower), max_abs(box.upper), max_abs(center)}));
    const real dist = length(offset);
    if (dist - radius > tol.touch_tolerance + mu) {
        return false;
    }
    // Beside a face, with the core over it clear of its ends, the manifold
    // gets the face's axis exactly as its normal (for a capsule too:
    // contact_normal's face_holds_core); elsewhere (a corner, or a capsule
    // hanging past the face's end, whose normal may be GJK's between the
    // cores) it is within mu / dist of this one.
    const bool face = (offset.x == 0 && center.x - half.x > a_box.lower.x + mu &&
                       center.x + half.x < a_box.upper.x - mu) ||
                      (offset.y == 0 && center.y - half.y > a_box.lower.y + mu &&
                       center.y + half.y < a_box.upper.y - mu);
    const real slack = face ? 0 : 4 * mu / dist;
    return dot(motion, direction(offset, dist)) < (slack - k_tangent_cosine) * length(motion);
}

std::optional<ContactMeasure> RoundOnBox::measure(real slop) const {
    const Vec2 offset = center - closest_point(box, center);
    if (offset == Vec2{} || (!disc && 2 * std::max(half.x, half.y) <= slop)) {
        return std::nullopt;
    }
    const real dist = length(offset);
    ContactMeasure m;
    if (dist - radius > slop) {
        return m;
    }
    if (!disc && dist - radius < -slop) {
        return std::nullopt; // deep: the face of least penetration may be the capsule's
    }
    m.count = 1;
    m.normal = direction(offset, dist);
    m.separation = dist - radius;
    m.feature = box_feature(m.normal);
    // Beside a face the core runs along (offset across it alone), collide()
    // keeps the stretch of the core over the face grown by the radius (the
    // clip of collide_faces: the box's face the reference, the capsule's
    // side, as far from it all along, the incident face); where the core
    // only meets the face's end, end to end, one point: a corner's.
    // (collide()'s choice there turns on its rounding.)
    const bool along_y = half.y > 0 && offset.y == 0;
    const bool along_x = half.x > 0 && offset.x == 0;
    if (along_x || along_y) {
        const int k = along_x ? 0 : 1;
        const real c = k == 0 ? center.x : center.y;
        const real h = k == 0 ? half.x : half.y;
        const real lo = k == 0 ? a_box.lower.x : a_box.lower.y;
        const real hi = k == 0 ? a_box.upper.x : a_box.upper.y;
        const real over = std::min(hi, c + h) - std::max(lo, c - h);
        const real stretch = std::min(hi + radius, c + h) - std::max(lo - radius, c - h);
        if (over > 0) {
            m.count = 2;
            m.surface_area = stretch;
        }
    }
    return m;
}

} // namespace sweep::detail
