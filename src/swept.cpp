// Closed-form continuous tests from the seed articles: swept AABB (Sacred
// Software, "Collisions, Part 1"), Cramer's-rule segment intersection and
// swept spheres by a quadratic ("Predictive Collision Detection"), and a
// circle swept against a box (Ericson, "Real-Time Collision Detection").
#include "sweep/swept.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>

namespace sweep {
namespace {

constexpr real k_inf = std::numeric_limits<real>::infinity();

bool is_finite(real v) { return std::isfinite(v); }

/// Snaps a face gap within the touching band to exactly zero.
real snap(real gap, real tolerance) { return std::abs(gap) <= tolerance ? real(0) : gap; }

/// One axis of the swept AABB: the moving interval [a0, a1] translates by v
/// against the still interval [b0, b1]. Gaps within the touch band count as
/// zero (docs/conventions.md). Returns false when this axis alone rules out
/// any overlap (no motion and no interior overlap).
struct Slab {
    real entry = -k_inf;
    real exit = k_inf;
    real speed = 0; ///< closing speed |v|
};

bool slab(real a0, real a1, real v, real b0, real b1, real tolerance, Slab& out) {
    const real gap_right = snap(b0 - a1, tolerance); // B beyond A on the + side
    const real gap_left = snap(a0 - b1, tolerance);  // B beyond A on the - side
    out.speed = std::abs(v);
    if (v > 0) {
        out.entry = gap_right / v;
        out.exit = -gap_left / v;
    } else if (v < 0) {
        out.entry = gap_left / -v;
        out.exit = -gap_right / -v;
    } else {
        // No motion on this axis: the projections must overlap with positive
        // length (touching faces only slide along each other).
        return gap_right < 0 && gap_left < 0;
    }
    return true;
}

template <class V> struct SphereSweep {
    CastState state = CastState::miss;
    real t = 0;
    real exit = 0;
    V normal{};
    V point{};
};

real dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 add(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 sub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 scale(real s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
bool finite3(Vec3 v) { return is_finite(v.x) && is_finite(v.y) && is_finite(v.z); }
real dot2(Vec2 a, Vec2 b) { return dot(a, b); }
real cross_squared2(Vec2 a, Vec2 b) {
    const real c = cross(a, b);
    return c * c;
}
real cross_squared3(Vec3 a, Vec3 b) {
    const real x = a.y * b.z - a.z * b.y;
    const real y = a.z * b.x - a.x * b.z;
    const real z = a.x * b.y - a.y * b.x;
    return x * x + y * y + z * z;
}
Vec2 add(Vec2 a, Vec2 b) { return a + b; }
Vec2 sub(Vec2 a, Vec2 b) { return a - b; }
Vec2 scale(real s, Vec2 a) { return s * a; }

/// The quadratic of "Predictive Collision Detection" for points moving on
/// lines: |dp + t dv|^2 = R^2, earliest root in [0, 1]. `Dot` is the inner
/// product of V.
template <class V, class Dot, class Cross2>
SphereSweep<V> sweep_spheres(V c0a, V c1a, real ra, V c0b, V c1b, real rb, real tolerance,
                             Dot dot_v, Cross2 cross_squared) {
    SphereSweep<V> out;
    const V dp = sub(c0b, c0a);
    const V dv = sub(sub(c1b, c0b), sub(c1a, c0a));
    const real radius = ra + rb;
    const real a = dot_v(dv, dv);
    const real half_b = dot_v(dp, dv);
    const real dd = dot_v(dp, dp);
    // c = |dp|^2 - R^2. Its rounding near contact is about eps R^2, a length
    // error of eps R / 2: harmless, and it spares a square root.
    const real c = dd - radius * radius;
    // The discriminant b'^2 - ac by Lagrange's identity, |dp|^2 |dv|^2 -
    // (dp.dv)^2 = |dp x dv|^2: a R^2 - |dp x dv|^2, with no cancellation
    // for a fast head-on approach (where b'^2 and ac nearly agree).
    const real disc = radius * radius * a - cross_squared(dp, dv);

    // The later root (when they part): with q = -(b' + sign(b') sqrt(D)) the
    // roots are q / a and c / q.
    const auto later_root = [&](real root) -> real {
        if (a <= 0) {
            return k_inf;
        }
        const real q = half_b >= 0 ? -(half_b + root) : -half_b + root;
        const real r1 = q / a;
        const real r2 = q != 0 ? c / q : r1;
        return std::max(r1, r2);
    };
    const auto hit_at = [&](real t, real root) {
        out.state = CastState::hit;
        out.t = t;
        out.exit = later_root(root);
        const V ca = add(c0a, scale(t, sub(c1a, c0a)));
        const V cb = add(c0b, scale(t, sub(c1b, c0b)));
        const V d = sub(cb, ca);
        const real len = std::sqrt(dot_v(d, d));
        // Centres that meet (within rounding) have no direction between them:
        // the start's, else +y as for concentric circles in collide_circles.
        const real len0 = std::sqrt(dd);
        V up{};
        up.y = 1;
        out.normal = len > 0 ? scale(real(1) / len, d) : len0 > 0 ? scale(real(1) / len0, dp) : up;
        out.point = add(ca, scale(ra, out.normal));
    };

    // The touching band |(|dp| - R)| <= tolerance, compared in squares.
    const real inner = std::max(real(0), radius - tolerance);
    const real outer = radius + tolerance;
    if (dd < inner * inner) {
        out.state = CastState::overlapped;
        out.exit = later_root(std::sqrt(std::max(real(0), disc)));
        return out;
    }
    if (dd <= outer * outer) {
        // Touching: the distance closes iff d|dp + t dv|/dt = dp.dv / |dp| < 0.
        if (half_b < 0) {
            hit_at(0, std::sqrt(std::max(real(0), disc)));
        }
        return out;
    }
    // Separated (c > 0): a hit needs approach (b' < 0) and real roots.
    if (a <= 0 || half_b >= 0 || disc < 0) {
        return out;
    }
    const real root = std::sqrt(disc);
    const real q = -half_b + root; // > 0
    const real t = c / q;          // the smaller root, without cancellation
    if (t > 1) {
        return out;
    }
    hit_at(std::max(real(0), t), root);
    return out;
}

// A type wider than `real`, for cross products that cancel.
using Wide = std::conditional_t<std::is_same_v<real, float>, double, long double>;

// cross(a1 - a0, b1 - b0) in Wide.
Wide wide_cross(Vec2 a0, Vec2 a1, Vec2 b0, Vec2 b1) {
    return (Wide(a1.x) - Wide(a0.x)) * (Wide(b1.y) - Wide(b0.y)) -
           (Wide(a1.y) - Wide(a0.y)) * (Wide(b1.x) - Wide(b0.x));
}

} // namespace

SweptAabbResult swept_aabb(const Aabb& moving, Vec2 displacement, const Aabb& target,
                           real touch_tolerance) {
    SweptAabbResult out;
    if (!is_valid(moving) || !is_valid(target) || !sweep::is_finite(displacement) ||
        !is_finite(touch_tolerance) || touch_tolerance < 0) {
        out.state = CastState::invalid_input;
        return out;
    }
    const Aabb& a = moving;
    const Aabb& b = target;
    // Overlapped at t = 0: the least-penetrating axis is deeper than the band.
    const real gap_x = std::max(b.lower.x - a.upper.x, a.lower.x - b.upper.x);
    const real gap_y = std::max(b.lower.y - a.upper.y, a.lower.y - b.upper.y);
    Slab sx;
    Slab sy;
    const bool can_x =
        slab(a.lower.x, a.upper.x, displacement.x, b.lower.x, b.upper.x, touch_tolerance, sx);
    const bool can_y =
        slab(a.lower.y, a.upper.y, displacement.y, b.lower.y, b.upper.y, touch_tolerance, sy);
    if (std::max(gap_x, gap_y) < -touch_tolerance) {
        out.state = CastState::overlapped;
        out.exit = std::min(sx.exit, sy.exit);
        return out;
    }
    if (!can_x || !can_y) {
        return out;
    }
    const real entry = std::max(sx.entry, sy.entry);
    const real exit = std::min(sx.exit, sy.exit);
    // The article's test: the latest entry before the earliest exit, in [0, 1].
    // Not overlapped means one snapped gap is >= 0, so entry >= 0 on a hit;
    // exit > 0 rejects motion away from a touching face.
    if (!(entry < exit) || entry > 1 || exit <= 0) {
        return out;
    }
    int axis = 0;
    if (sy.entry > sx.entry || (sy.entry == sx.entry && sy.speed > sx.speed)) {
        axis = 1;
    }
    out.state = CastState::hit;
    out.entry = std::max(real(0), entry);
    out.exit = exit;
    out.axis = axis;
    const real v = axis == 0 ? displacement.x : displacement.y;
    const real sign = v > 0 ? real(1) : real(-1);
    out.normal = axis == 0 ? Vec2{sign, 0} : Vec2{0, sign};
    // Sacred Software's "surface area": overlap of the other axis' extents.
    const Vec2 d = out.entry * displacement;
    if (axis == 0) {
        out.contact_length = std::max(real(0), std::min(a.upper.y + d.y, b.upper.y) -
                                                   std::max(a.lower.y + d.y, b.lower.y));
    } else {
        out.contact_length = std::max(real(0), std::min(a.upper.x + d.x, b.upper.x) -
                                                   std::max(a.lower.x + d.x, b.lower.x));
    }
    return out;
}

SegmentIntersection intersect_segments(Vec2 p0, Vec2 p1, Vec2 q0, Vec2 q1) {
    using State = SegmentIntersectionState;
    SegmentIntersection out;
    if (!sweep::is_finite(p0) || !sweep::is_finite(p1) || !sweep::is_finite(q0) ||
        !sweep::is_finite(q1)) {
        out.state = State::invalid_input;
        return out;
    }
    constexpr real eps = real(8) * std::numeric_limits<real>::epsilon();
    const Vec2 dp = p1 - p0;
    const Vec2 dq = q1 - q0;
    const Vec2 w = q0 - p0;
    const real d = cross(dp, dq);
    const real lp = length(dp);
    const real lq = length(dq);

    const auto set_point = [&](real t, real s) {
        out.state = State::point;
        out.t = out.t_end = t;
        out.s = out.s_end = s;
        out.point = p0 + t * dp;
    };

    if (std::abs(d) > eps * lp * lq) {
        // Cramer's rule on t dp - s dq = w, in a wider type: near the
        // parallel threshold the cross products cancel to their rounding
        // in `real` (a crossing at 1e-6 rad got s = 0 for 0.70, and a point
        // 0.006 L off Q). From float coordinates the differences and
        // products are exact in double.
        const Wide wd = wide_cross(p0, p1, q0, q1);
        const real t = real(wide_cross(p0, q0, q0, q1) / wd);
        const real s = real(wide_cross(p0, q0, p0, p1) / wd);
        if (t < -eps || t > 1 + eps || s < -eps || s > 1 + eps) {
            out.state = State::disjoint;
            return out;
        }
        set_point(std::clamp(t, real(0), real(1)), std::clamp(s, real(0), real(1)));
        return out;
    }

    // Parallel (or a segment of zero length). Measure along the longer one.
    const real scale =
        std::max({std::abs(p0.x), std::abs(p0.y), std::abs(p1.x), std::abs(p1.y), std::abs(q0.x),
                  std::abs(q0.y), std::abs(q1.x), std::abs(q1.y), real(1)});
    const real line_tolerance = eps * (std::max(lp, lq) + scale);
    if (lp == 0 && lq == 0) {
        if (length(w) <= line_tolerance) {
            set_point(0, 0);
        }
        return out;
    }
    const bool along_p = lp >= lq;
    const Vec2 base = along_p ? p0 : q0;
    const Vec2 u = (real(1) / (along_p ? lp : lq)) * (along_p ? dp : dq);
    const Vec2 other = along_p ? q0 : p0;
    const Vec2 other_end = along_p ? q1 : p1;
    if (std::abs(cross(u, other - base)) > line_tolerance ||
        std::abs(cross(u, other_end - base)) > line_tolerance) {
        out.state = State::parallel;
        return out;
    }
    // Collinear: intersect the projections on u, expressed as parameters of P.
    const real pa = dot(p0 - base, u);
    const real pb = dot(p1 - base, u);
    const real qa = dot(q0 - base, u);
    const real qb = dot(q1 - base, u);
    const real lo = std::max(std::min(pa, pb), std::min(qa, qb));
    const real hi = std::min(std::max(pa, pb), std::max(qa, qb));
    if (lo > hi + line_tolerance) {
        out.state = State::disjoint;
        return out;
    }
    const auto param = [](real x, real from, real to) {
        return to != from ? std::clamp((x - from) / (to - from), real(0), real(1)) : real(0);
    };
    const real mid_hi = std::max(lo, hi);
    real t0 = param(lo, pa, pb);
    real t1 = param(mid_hi, pa, pb);
    real s0 = param(lo, qa, qb);
    real s1 = param(mid_hi, qa, qb);
    if (t1 < t0 || (t0 == t1 && pa == pb && s1 < s0)) {
        std::swap(t0, t1);
        std::swap(s0, s1);
    }
    if (lp == 0 || lq == 0 || mid_hi - lo <= line_tolerance) {
        set_point(t0, s0);
        return out;
    }
    out.state = State::collinear;
    out.t = t0;
    out.t_end = t1;
    out.s = s0;
    out.s_end = s1;
    out.point = p0 + t0 * dp;
    return out;
}

SweptCircleResult swept_circles(Vec2 c0a, Vec2 c1a, real ra, Vec2 c0b, Vec2 c1b, real rb,
                                real touch_tolerance) {
    SweptCircleResult out;
    if (!sweep::is_finite(c0a) || !sweep::is_finite(c1a) || !sweep::is_finite(c0b) ||
        !sweep::is_finite(c1b) || !is_finite(ra) || !is_finite(rb) || ra < 0 || rb < 0 ||
        !is_finite(touch_tolerance) || touch_tolerance < 0) {
        out.state = CastState::invalid_input;
        return out;
    }
    const auto r =
        sweep_spheres<Vec2>(c0a, c1a, ra, c0b, c1b, rb, touch_tolerance, dot2, cross_squared2);
    out.state = r.state;
    out.t = r.t;
    out.exit = r.exit;
    out.normal = r.normal;
    out.point = r.point;
    return out;
}

namespace {

real coordinate(Vec2 v, int axis) { return axis == 0 ? v.x : v.y; }

Vec2 on_axis(int axis, real value) { return axis == 0 ? Vec2{value, 0} : Vec2{0, value}; }

// The first time in [0, 1] the point c + t d comes within `radius` of
// `box`, given that it starts farther: the entry into the box grown by the
// radius, then, if that is at a corner's square, into the corner's circle.
SweptCircleAabbResult first_touch(const Aabb& box, Vec2 c, real radius, Vec2 d) {
    SweptCircleAabbResult out;
    real enter = -k_inf;
    real exit = k_inf;
    int axis = 0;
    for (int k = 0; k < 2; ++k) {
        const real lo = coordinate(box.lower, k) - radius;
        const real hi = coordinate(box.upper, k) + radius;
        const real p = coordinate(c, k);
        const real v = coordinate(d, k);
        if (v == 0) {
            if (p < lo || p > hi) {
                return out;
            }
            continue;
        }
        const real t_lo = (lo - p) / v;
        const real t_hi = (hi - p) / v;
        if (std::min(t_lo, t_hi) > enter) {
            enter = std::min(t_lo, t_hi);
            axis = k;
        }
        exit = std::min(exit, std::max(t_lo, t_hi));
    }
    if (enter > exit || enter > 1 || exit < 0) {
        return out;
    }
    if (enter < 0) {
        // The centre starts inside the grown box though separated: in a
        // corner's square outside the rounded corner (below), or beside a
        // face only by the rounding of the grown bounds (box +- radius) when
        // the tolerance is below an ulp of the coordinates (0, or far from
        // the origin). There it touches that face, on the centre's side: a
        // hit at t = 0 when closing on it, a miss when moving along or away
        // (not the face met along the motion, whose normal is the reverse).
        for (int k = 0; k < 2; ++k) {
            const int other = 1 - k;
            const real q = coordinate(c, other);
            if (q < coordinate(box.lower, other) || q > coordinate(box.upper, other)) {
                continue;
            }
            const real side = coordinate(c, k) < coordinate(box.lower, k) ? -1 : 1;
            if (coordinate(d, k) * side >= 0) {
                return out;
            }
            out.state = CastState::hit;
            out.t = 0;
            out.normal = on_axis(k, side);
            const real face = side > 0 ? coordinate(box.upper, k) : coordinate(box.lower, k);
            out.point = k == 0 ? Vec2{face, q} : Vec2{q, face};
            return out;
        }
    }
    const real t_enter = std::max(real(0), enter);
    const Vec2 p = c + t_enter * d;
    const int across = 1 - axis;
    const real along = coordinate(p, across);
    if (along >= coordinate(box.lower, across) && along <= coordinate(box.upper, across)) {
        // Beside a face: the grown box's face is the circle's touch.
        const real side = coordinate(d, axis) < 0 ? 1 : -1;
        out.state = CastState::hit;
        out.t = t_enter;
        out.normal = on_axis(axis, side);
        const real face = side > 0 ? coordinate(box.upper, axis) : coordinate(box.lower, axis);
        out.point = axis == 0 ? Vec2{face, along} : Vec2{along, face};
        return out;
    }
    // At a corner's square: the path meets the grown box's rounded corner
    // there or nowhere (past it, it is already inside the grown box).
    // (The corner on the side the centre is, or, with no radius, comes from.)
    const real at = coordinate(p, axis);
    const real from = at < coordinate(box.lower, axis)   ? coordinate(box.lower, axis)
                      : at > coordinate(box.upper, axis) ? coordinate(box.upper, axis)
                      : coordinate(d, axis) > 0          ? coordinate(box.lower, axis)
                                                         : coordinate(box.upper, axis);
    const real beside = along < coordinate(box.lower, across) ? coordinate(box.lower, across)
                                                               : coordinate(box.upper, across);
    const Vec2 corner = axis == 0 ? Vec2{from, beside} : Vec2{beside, from};
    const Vec2 m = c - corner;
    const real half_b = dot(m, d);
    const real disc = radius * radius * dot(d, d) - cross(m, d) * cross(m, d);
    if (half_b >= 0 || disc < 0) {
        return out;
    }
    const real t = (dot(m, m) - radius * radius) / (-half_b + std::sqrt(disc));
    if (t > 1) {
        return out;
    }
    out.state = CastState::hit;
    out.t = std::max(real(0), t);
    out.corner = true;
    const Vec2 to_center = m + out.t * d;
    const real len = length(to_center);
    out.normal = len > 0 ? (real(1) / len) * to_center : on_axis(axis, coordinate(d, axis) < 0 ? 1 : -1);
    out.point = corner;
    return out;
}

} // namespace

SweptCircleAabbResult swept_circle_aabb(const Aabb& box, Vec2 center, real radius,
                                        Vec2 displacement, real touch_tolerance) {
    SweptCircleAabbResult out;
    if (!sweep::is_finite(box.lower) || !sweep::is_finite(box.upper) ||
        !sweep::is_finite(center) || !sweep::is_finite(displacement) || !is_finite(radius) ||
        radius < 0 || !is_finite(touch_tolerance) || touch_tolerance < 0 ||
        box.lower.x > box.upper.x || box.lower.y > box.upper.y) {
        out.state = CastState::invalid_input;
        return out;
    }
    const Vec2 nearest = closest_point(box, center);
    const Vec2 offset = center - nearest;
    real separation = length(offset) - radius;
    Vec2 normal;
    Vec2 surface = nearest; // the box's nearest surface point to the centre
    if (offset == Vec2{}) {
        // On or inside the box: out through the nearest face (x before y),
        // whose point beside the centre is the surface's nearest (the
        // centre itself is not on the surface unless it lies on a face).
        const real left = center.x - box.lower.x;
        const real right = box.upper.x - center.x;
        const real below = center.y - box.lower.y;
        const real above = box.upper.y - center.y;
        const real depth_x = std::min(left, right);
        const real depth_y = std::min(below, above);
        if (depth_x <= depth_y) {
            normal = Vec2{right <= left ? real(1) : real(-1), 0};
            surface.x = right <= left ? box.upper.x : box.lower.x;
        } else {
            normal = Vec2{0, above <= below ? real(1) : real(-1)};
            surface.y = above <= below ? box.upper.y : box.lower.y;
        }
        separation = -std::min(depth_x, depth_y) - radius;
    } else if (offset.x == 0 || offset.y == 0) {
        // Beside a face: its axis exactly (offset / |offset| can round to
        // just below 1, 0.99999994 in float for an offset of 0.21).
        normal = offset.x == 0 ? Vec2{0, offset.y > 0 ? real(1) : real(-1)}
                               : Vec2{offset.x > 0 ? real(1) : real(-1), 0};
    } else {
        normal = (real(1) / length(offset)) * offset;
    }
    if (separation < -touch_tolerance) {
        out.state = CastState::overlapped;
        return out;
    }
    if (separation <= touch_tolerance) {
        if (dot(displacement, normal) < 0) {
            out.state = CastState::hit;
            out.normal = normal;
            out.corner = offset.x != 0 && offset.y != 0;
            out.point = surface;
        }
        return out;
    }
    return first_touch(box, center, radius, displacement);
}

SweptSphereResult swept_spheres(Vec3 c0a, Vec3 c1a, real ra, Vec3 c0b, Vec3 c1b, real rb,
                                real touch_tolerance) {
    SweptSphereResult out;
    if (!finite3(c0a) || !finite3(c1a) || !finite3(c0b) || !finite3(c1b) || !is_finite(ra) ||
        !is_finite(rb) || ra < 0 || rb < 0 || !is_finite(touch_tolerance) || touch_tolerance < 0) {
        out.state = CastState::invalid_input;
        return out;
    }
    const auto r =
        sweep_spheres<Vec3>(c0a, c1a, ra, c0b, c1b, rb, touch_tolerance, dot3, cross_squared3);
    out.state = r.state;
    out.t = r.t;
    out.exit = r.exit;
    out.normal = r.normal;
    out.point = r.point;
    return out;
}

} // namespace sweep
