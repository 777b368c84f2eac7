// Minimum translation vectors after the seed "collision detection" article:
// circles along their centres, circles against boxes by clamping the centre
// into the box's frame, and convex polygons through the faces of their
// Minkowski difference found with support points.
#include "sweep/mtv.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace sweep {
namespace {

bool finite(real v) { return std::isfinite(v); }

// A vector's direction (unit, or zero when `d` is shorter than normalize
// resolves) and its length. Both come from normalize, which keeps every bit
// of a direction whose square is subnormal: 1 / sqrt(d . d) there made a
// "unit" normal 1.004 long (fuzz_geometry, polygons 1e-38 L apart).
struct Direction {
    Vec2 unit;
    real length = 0;
};

Direction direction_of(Vec2 d) {
    const Vec2 unit = normalize(d);
    return {unit, dot(unit, d)};
}

/// The scale of the rounding in differences of the placed vertices
/// (`count_a` of `va`, `count_b` of `vb`): 1 plus their largest coordinate
/// relative to A's first, as the differences are, plus 4 ulps of A's first
/// in the world (each vertex's own rounding). A bound of 64 ulps of the
/// world coordinates (1 L at 2^17) took boxes 0.97 L apart there for noise,
/// measured along an axis 0.29 L short.
real coordinate_scale(const std::array<Vec2, k_max_polygon_vertices>& va, int count_a,
                      const std::array<Vec2, k_max_polygon_vertices>& vb, int count_b) {
    real largest = 0;
    const auto widen = [&](Vec2 p) {
        largest = std::max({largest, std::abs(p.x - va[0].x), std::abs(p.y - va[0].y)});
    };
    for (int i = 0; i < count_a; ++i) {
        widen(va[i]);
    }
    for (int i = 0; i < count_b; ++i) {
        widen(vb[i]);
    }
    return 1 + largest + std::max(std::abs(va[0].x), std::abs(va[0].y)) / 16;
}

/// Fills state and translation from normal and separation.
Mtv finish(Vec2 normal, real separation, real touch_tolerance) {
    Mtv out;
    out.normal = normal;
    out.separation = separation;
    out.translation = separation < 0 ? separation * normal : Vec2{};
    if (separation < -touch_tolerance) {
        out.state = MtvState::overlapping;
    } else if (separation <= touch_tolerance) {
        out.state = MtvState::touching;
    } else {
        out.state = MtvState::separated;
    }
    return out;
}

Mtv invalid() {
    Mtv out;
    out.state = MtvState::invalid_input;
    return out;
}

/// Circle of radius r centred at c (box frame) vs the box [-h, h] grown by
/// `box_radius`. Returns the normal (box frame, from the circle to the box)
/// and the separation.
struct LocalMtv {
    Vec2 normal;
    real separation = 0;
};

LocalMtv circle_box_local(Vec2 c, Vec2 h, real r, real box_radius) {
    LocalMtv out;
    if (std::abs(c.x) <= h.x && std::abs(c.y) <= h.y) {
        // Centre inside: leave through the nearest face (ties: +x, -x, +y, -y).
        const real faces[4] = {h.x - c.x, h.x + c.x, h.y - c.y, h.y + c.y};
        const Vec2 outward[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        int best = 0;
        for (int i = 1; i < 4; ++i) {
            if (faces[i] < faces[best]) {
                best = i;
            }
        }
        out.normal = -outward[best];
        out.separation = -(faces[best] + r + box_radius);
        return out;
    }
    const Vec2 clamped{std::clamp(c.x, -h.x, h.x), std::clamp(c.y, -h.y, h.y)};
    // From the circle's centre to the box; a centre on the box's boundary
    // by less than normalize resolves counts as inside the face it is on.
    const Direction d = direction_of(clamped - c);
    if (d.unit == Vec2{}) {
        const Vec2 beyond{std::abs(c.x) - h.x, std::abs(c.y) - h.y};
        out.normal = beyond.x >= beyond.y ? Vec2{c.x > 0 ? real(-1) : real(1), 0}
                                          : Vec2{0, c.y > 0 ? real(-1) : real(1)};
        out.separation = -(r + box_radius);
        return out;
    }
    out.normal = d.unit;
    out.separation = d.length - r - box_radius;
    return out;
}

/// Distance from the origin to the segment m0-m1 and the closest point.
Vec2 closest_to_origin(Vec2 m0, Vec2 m1) {
    const Vec2 e = m1 - m0;
    const real ee = dot(e, e);
    const real t = ee > 0 ? std::clamp(-dot(m0, e) / ee, real(0), real(1)) : real(0);
    return m0 + t * e;
}

} // namespace

Mtv mtv_circles(const Circle& a, const Transform& xfa, const Circle& b, const Transform& xfb,
                real touch_tolerance) {
    if (!is_finite(xfa) || !is_finite(xfb) || !finite(touch_tolerance)) {
        return invalid();
    }
    const Vec2 ca = transform_point(xfa, a.center);
    const Vec2 cb = transform_point(xfb, b.center);
    const Direction d = direction_of(cb - ca);
    const real radius = a.radius + b.radius;
    if (d.unit == Vec2{}) {
        return finish({0, 1}, -radius, touch_tolerance); // concentric: +y, as collide_circles
    }
    return finish(d.unit, d.length - radius, touch_tolerance);
}

Mtv mtv_circle_aabb(const Circle& a, const Transform& xfa, const Aabb& b, real touch_tolerance) {
    if (!is_finite(xfa) || !is_valid(b) || !finite(touch_tolerance)) {
        return invalid();
    }
    const Vec2 c = transform_point(xfa, a.center) - center(b);
    const LocalMtv local = circle_box_local(c, extents(b), a.radius, 0);
    return finish(local.normal, local.separation, touch_tolerance);
}

Mtv mtv_circle_obb(const Circle& a, const Transform& xfa, const Polygon& b, const Transform& xfb,
                   real touch_tolerance) {
    if (!is_finite(xfa) || !is_finite(xfb) || !finite(touch_tolerance) || b.count < 3) {
        return invalid();
    }
    // The box's frame: its centre and the axis of its second face, with the
    // perpendicular to it (for make_box, normals[1] = +x and normals[0] = -y;
    // perpendicular by construction, so that any polygon gets a true frame).
    const Vec2 axis_x = b.normals[1];
    const Vec2 axis_y = left_perp(axis_x);
    Vec2 lo{std::numeric_limits<real>::max(), std::numeric_limits<real>::max()};
    Vec2 hi = -lo;
    for (int i = 0; i < b.count; ++i) {
        const Vec2 p{dot(b.vertices[i], axis_x), dot(b.vertices[i], axis_y)};
        lo = min(lo, p);
        hi = max(hi, p);
    }
    const Vec2 mid = real(0.5) * (lo + hi);
    const Vec2 half = real(0.5) * (hi - lo);
    // The circle's centre in the box's frame (the article: "transform circle
    // into OBB space"), then the circle vs AABB case there.
    const Vec2 local = inv_transform_point(xfb, transform_point(xfa, a.center));
    const Vec2 c = Vec2{dot(local, axis_x), dot(local, axis_y)} - mid;
    const LocalMtv m = circle_box_local(c, half, a.radius, b.radius);
    const Vec2 n = rotate(xfb.q, m.normal.x * axis_x + m.normal.y * axis_y);
    return finish(n, m.separation, touch_tolerance);
}

Mtv mtv_aabbs(const Aabb& a, const Aabb& b, real touch_tolerance) {
    if (!is_valid(a) || !is_valid(b) || !finite(touch_tolerance)) {
        return invalid();
    }
    // Face gaps per axis: B beyond A on the + side, and on the - side.
    const real right = b.lower.x - a.upper.x;
    const real left = a.lower.x - b.upper.x;
    const real up = b.lower.y - a.upper.y;
    const real down = a.lower.y - b.upper.y;
    const real gap_x = std::max(right, left);
    const real gap_y = std::max(up, down);
    const real sx = right >= left ? real(1) : real(-1);
    const real sy = up >= down ? real(1) : real(-1);
    if (gap_x <= 0 && gap_y <= 0) {
        // Overlapping (or touching): least overlap wins, ties to x.
        if (gap_x >= gap_y) {
            return finish({sx, 0}, gap_x, touch_tolerance);
        }
        return finish({0, sy}, gap_y, touch_tolerance);
    }
    const Direction d =
        direction_of({sx * std::max(gap_x, real(0)), sy * std::max(gap_y, real(0))});
    if (d.unit == Vec2{}) { // apart by less than normalize resolves: touching faces
        return gap_x >= gap_y ? finish({sx, 0}, 0, touch_tolerance)
                              : finish({0, sy}, 0, touch_tolerance);
    }
    return finish(d.unit, d.length, touch_tolerance);
}

Mtv mtv_polygons(const Polygon& a, const Transform& xfa, const Polygon& b, const Transform& xfb,
                 real touch_tolerance) {
    if (!is_finite(xfa) || !is_finite(xfb) || !finite(touch_tolerance) || a.count < 1 ||
        b.count < 1) {
        return invalid();
    }
    std::array<Vec2, k_max_polygon_vertices> va;
    std::array<Vec2, k_max_polygon_vertices> vb;
    std::array<Vec2, k_max_polygon_vertices> na;
    std::array<Vec2, k_max_polygon_vertices> nb;
    for (int i = 0; i < a.count; ++i) {
        va[i] = transform_point(xfa, a.vertices[i]);
        na[i] = rotate(xfa.q, a.normals[i]);
    }
    for (int i = 0; i < b.count; ++i) {
        vb[i] = transform_point(xfb, b.vertices[i]);
        nb[i] = rotate(xfb.q, b.normals[i]);
    }
    const auto support = [](const std::array<Vec2, k_max_polygon_vertices>& v, int count, Vec2 d) {
        int best = 0;
        real best_value = dot(v[0], d);
        for (int i = 1; i < count; ++i) {
            const real value = dot(v[i], d);
            if (value > best_value) {
                best = i;
                best_value = value;
            }
        }
        return best;
    };

    // Faces of the Minkowski difference B - A: A's face i with B's support
    // against n_i, and B's face j with A's support against -m_j. The signed
    // distance of the origin in front of such a face is the gap between A and
    // B along its axis (oriented from A to B).
    real best_separation = -std::numeric_limits<real>::max();
    Vec2 best_normal{0, 1};
    std::array<int, k_max_polygon_vertices> support_a_face{};
    std::array<int, k_max_polygon_vertices> support_b_face{};
    for (int i = 0; i < a.count; ++i) {
        const int j = support(vb, b.count, -na[i]);
        support_a_face[i] = j;
        const real s = dot(vb[j] - va[i], na[i]);
        if (s > best_separation) {
            best_separation = s;
            best_normal = na[i];
        }
    }
    for (int j = 0; j < b.count; ++j) {
        const int i = support(va, a.count, -nb[j]);
        support_b_face[j] = i;
        const real s = dot(va[i] - vb[j], nb[j]);
        if (s > best_separation) {
            best_separation = s;
            best_normal = -nb[j];
        }
    }
    const real radius = a.radius + b.radius;
    if (best_separation <= 0) {
        return finish(best_normal, best_separation - radius, touch_tolerance);
    }

    // Apart: the distance from the origin to the difference's faces. Every
    // b - a lies in the difference, so no candidate is too close; each face
    // takes its support point's neighbours too, which covers parallel edges
    // (two support points).
    real best_d2 = std::numeric_limits<real>::max();
    Vec2 best_p{0, 1};
    const auto consider = [&](Vec2 m0, Vec2 m1) {
        const Vec2 p = closest_to_origin(m0, m1);
        const real d2 = dot(p, p);
        if (d2 < best_d2) {
            best_d2 = d2;
            best_p = p;
        }
    };
    for (int i = 0; i < a.count; ++i) {
        const int i2 = i + 1 < a.count ? i + 1 : 0;
        const int j = support_a_face[i];
        for (int k : {j, j > 0 ? j - 1 : b.count - 1, j + 1 < b.count ? j + 1 : 0}) {
            consider(vb[k] - va[i], vb[k] - va[i2]);
        }
    }
    for (int j = 0; j < b.count; ++j) {
        const int j2 = j + 1 < b.count ? j + 1 : 0;
        const int i = support_b_face[j];
        for (int k : {i, i > 0 ? i - 1 : a.count - 1, i + 1 < a.count ? i + 1 : 0}) {
            consider(vb[j] - va[k], vb[j2] - va[k]);
        }
    }
    const Direction d = direction_of(best_p);
    if (d.length <
        64 * std::numeric_limits<real>::epsilon() * coordinate_scale(va, a.count, vb, b.count)) {
        // Apart by a few dozen ulps of the vertices' coordinates, where the
        // closest point's direction is noise (boxes 4.7e-8 L apart got a
        // normal along which they overlap by 1.2 L): the separating axis is
        // the direction.
        return finish(best_normal, best_separation - radius, touch_tolerance);
    }
    return finish(d.unit, d.length - radius, touch_tolerance);
}

} // namespace sweep
