// Independent reference geometry for the geometry tests: brute force in
// double precision, sharing no code with src/. Distances between convex
// shapes are the minimum over pairs of segment-segment distances (zero when
// one contains a point of the other); first-contact times come from fine
// sampling of those distances. Also the random shape generators of the
// property and oracle tests (fixed seeds, std::mt19937).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

#include "sweep/distance.hpp"
#include "sweep/math.hpp"
#include "sweep/shapes.hpp"

namespace sweep::test {

/// True in the default single-precision build.
inline constexpr bool k_float = std::is_same_v<real, float>;

/// Absolute length error allowed between the library (in `real`) and the
/// double-precision reference for shapes of size ~1 placed within ~10 units
/// of the origin: a few float ulps at 10 (1e-6) times the GJK and
/// transform round-offs, with margin.
inline constexpr double k_length_eps = k_float ? 2e-4 : 1e-7;

/// A point in double precision (the reference's own vector type).
struct D2 {
    double x = 0;
    double y = 0;
};

inline D2 operator+(D2 a, D2 b) { return {a.x + b.x, a.y + b.y}; }
inline D2 operator-(D2 a, D2 b) { return {a.x - b.x, a.y - b.y}; }
inline D2 operator*(double s, D2 v) { return {s * v.x, s * v.y}; }
inline double dot(D2 a, D2 b) { return a.x * b.x + a.y * b.y; }
inline double cross(D2 a, D2 b) { return a.x * b.y - a.y * b.x; }
inline double norm(D2 v) { return std::hypot(v.x, v.y); }
inline D2 to_d2(Vec2 v) { return {double(v.x), double(v.y)}; }

/// A rigid placement in double precision: rotate by `angle`, then move by p.
struct Pose {
    D2 p;
    double angle = 0;
};

inline D2 apply(const Pose& pose, D2 v) {
    const double c = std::cos(pose.angle);
    const double s = std::sin(pose.angle);
    return {c * v.x - s * v.y + pose.p.x, s * v.x + c * v.y + pose.p.y};
}

/// A library transform read in double precision (its cosine and sine as stored).
inline D2 apply(const Transform& xf, D2 v) {
    const double c = xf.q.c;
    const double s = xf.q.s;
    return {c * v.x - s * v.y + double(xf.p.x), s * v.x + c * v.y + double(xf.p.y)};
}

inline Transform to_transform(const Pose& pose) {
    return {{real(pose.p.x), real(pose.p.y)}, Rot::from_angle(real(pose.angle))};
}

/// Distance from p to the segment a-b (a == b allowed).
inline double point_segment_distance(D2 p, D2 a, D2 b) {
    const D2 e = b - a;
    const double ee = dot(e, e);
    double t = ee > 0 ? dot(p - a, e) / ee : 0;
    t = std::clamp(t, 0.0, 1.0);
    return norm(p - (a + t * e));
}

/// True when the closed segments a-b and c-d cross properly, each end
/// clearly (beyond 1e-12 of the lengths' product) on its side of the other's
/// line; touching at an end, and collinear segments, are caught by the
/// point-segment distances. (Signs of products that cancel to rounding
/// made collinear segments 3 L apart, in double builds, "cross".)
inline bool segments_cross(D2 a, D2 b, D2 c, D2 d) {
    const double zero = 1e-12 * norm(b - a) * norm(d - c);
    const double d1 = cross(b - a, c - a);
    const double d2 = cross(b - a, d - a);
    const double d3 = cross(d - c, a - c);
    const double d4 = cross(d - c, b - c);
    return ((d1 > zero && d2 < -zero) || (d1 < -zero && d2 > zero)) &&
           ((d3 > zero && d4 < -zero) || (d3 < -zero && d4 > zero));
}

/// Distance between the segments a-b and c-d: zero when they cross, else the
/// least of the four endpoint-to-segment distances.
inline double segment_segment_distance(D2 a, D2 b, D2 c, D2 d) {
    if (segments_cross(a, b, c, d)) {
        return 0;
    }
    return std::min({point_segment_distance(a, c, d), point_segment_distance(b, c, d),
                     point_segment_distance(c, a, b), point_segment_distance(d, a, b)});
}

/// True when p is inside or on the convex polygon `ccw` (counter-clockwise,
/// at least 3 vertices).
inline bool inside_convex(std::span<const D2> ccw, D2 p) {
    const std::size_t n = ccw.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (cross(ccw[(i + 1) % n] - ccw[i], p - ccw[i]) < 0) {
            return false;
        }
    }
    return true;
}

/// Distance between the convex hulls of two counter-clockwise point lists of
/// 1 (a point), 2 (a segment) or more (a convex polygon) points: zero when
/// they overlap, else the least distance over pairs of edges.
inline double convex_distance(std::span<const D2> a, std::span<const D2> b) {
    if (a.size() >= 3) {
        for (D2 p : b) {
            if (inside_convex(a, p)) {
                return 0;
            }
        }
    }
    if (b.size() >= 3) {
        for (D2 p : a) {
            if (inside_convex(b, p)) {
                return 0;
            }
        }
    }
    double best = std::numeric_limits<double>::infinity();
    const std::size_t na = a.size() >= 3 ? a.size() : 1;
    const std::size_t nb = b.size() >= 3 ? b.size() : 1;
    for (std::size_t i = 0; i < na; ++i) {
        const D2 a1 = a[i];
        const D2 a2 = a[(i + 1) % a.size()];
        for (std::size_t j = 0; j < nb; ++j) {
            best = std::min(best, segment_segment_distance(a1, a2, b[j], b[(j + 1) % b.size()]));
        }
    }
    return best;
}

/// A placement with its rotation evaluated once (the reference's hot loops
/// place every point of a shape at many times): apply() gives the same
/// result as apply(pose, v) or apply(xf, v) point by point.
struct Placed {
    double c = 1;
    double s = 0;
    D2 p;
};

inline Placed placed(const Pose& pose) {
    return {std::cos(pose.angle), std::sin(pose.angle), pose.p};
}
inline Placed placed(const Transform& xf) { return {xf.q.c, xf.q.s, to_d2(xf.p)}; }
inline D2 apply(const Placed& r, D2 v) {
    return {r.c * v.x - r.s * v.y + r.p.x, r.s * v.x + r.c * v.y + r.p.y};
}

/// The points of a proxy placed in the world, in double precision.
template <class Place> std::vector<D2> world_points(const ShapeProxy& proxy, const Place& place) {
    const Placed r = placed(place);
    std::vector<D2> out;
    for (int i = 0; i < proxy.count; ++i) {
        out.push_back(apply(r, to_d2(proxy.points[i])));
    }
    return out;
}

/// Distance between the cores of two placed proxies (radii ignored).
template <class Place>
double core_distance(const ShapeProxy& a, const Place& pa, const ShapeProxy& b, const Place& pb) {
    // On the stack: this runs thousands of times per case in the sweeps' samplings.
    std::array<D2, k_max_polygon_vertices> wa{};
    std::array<D2, k_max_polygon_vertices> wb{};
    const Placed ra = placed(pa);
    const Placed rb = placed(pb);
    for (int i = 0; i < a.count; ++i) {
        wa[std::size_t(i)] = apply(ra, to_d2(a.points[std::size_t(i)]));
    }
    for (int i = 0; i < b.count; ++i) {
        wb[std::size_t(i)] = apply(rb, to_d2(b.points[std::size_t(i)]));
    }
    return convex_distance(std::span<const D2>(wa.data(), std::size_t(a.count)),
                           std::span<const D2>(wb.data(), std::size_t(b.count)));
}

/// Separation of the rounded shapes: core distance minus both radii. When the
/// cores overlap this is -(ra + rb), an upper bound on the (negative)
/// separation, enough to compare against a target >= 0.
template <class Place>
double separation(const ShapeProxy& a, const Place& pa, const ShapeProxy& b, const Place& pb) {
    return core_distance(a, pa, b, pb) - double(a.radius) - double(b.radius);
}

/// The motion of the reference's sweeps: centre of mass on a line, angle
/// linear in t (any number of turns), like sweep::Sweep but in double.
inline Pose pose_at(D2 local_center, D2 c1, D2 c2, double a1, double a2, double t) {
    const double angle = a1 + t * (a2 - a1);
    const D2 c = c1 + t * (c2 - c1);
    const double co = std::cos(angle);
    const double si = std::sin(angle);
    return {{c.x - (co * local_center.x - si * local_center.y),
             c.y - (si * local_center.x + co * local_center.y)},
            angle};
}

/// A uniform number in [lo, hi].
inline double uniform(std::mt19937& rng, double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
}

inline int uniform_int(std::mt19937& rng, int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

/// A random convex polygon from `n` points on a jittered ellipse of size
/// ~`scale` about a random offset, whose edges are all longer than
/// `min_edge` (resampled until so). With radius > 0 it is rounded.
inline Polygon random_polygon(std::mt19937& rng, int n, double scale, double min_edge = 0.05,
                              double radius = 0) {
    for (;;) {
        const double rx = scale * uniform(rng, 0.3, 1.0);
        const double ry = scale * uniform(rng, 0.3, 1.0);
        const D2 offset{uniform(rng, -0.3, 0.3) * scale, uniform(rng, -0.3, 0.3) * scale};
        std::vector<Vec2> points;
        for (int i = 0; i < n; ++i) {
            const double a = uniform(rng, 0, 2 * 3.14159265358979323846);
            const double r = uniform(rng, 0.8, 1.0);
            points.push_back(
                {real(offset.x + r * rx * std::cos(a)), real(offset.y + r * ry * std::sin(a))});
        }
        auto polygon = make_polygon(points, real(radius));
        if (!polygon) {
            continue;
        }
        bool long_edges = true;
        for (int i = 0; i < polygon->count; ++i) {
            const Vec2 e = polygon->vertices[(i + 1) % polygon->count] - polygon->vertices[i];
            long_edges = long_edges && double(length(e)) > min_edge;
        }
        if (long_edges) {
            return *polygon;
        }
    }
}

/// A random pose with its position in [-range, range]^2 and any angle.
inline Pose random_pose(std::mt19937& rng, double range) {
    return {{uniform(rng, -range, range), uniform(rng, -range, range)},
            uniform(rng, -3.14159, 3.14159)};
}

/// A random convex shape of size ~1 in its local frame: a polygon, a rounded
/// polygon, a circle (off its local origin) or a segment, by `kind` % 4.
inline Shape random_shape(std::mt19937& rng, int kind) {
    switch (kind % 5) {
    case 0:
        return random_polygon(rng, uniform_int(rng, 3, 8), uniform(rng, 0.2, 1.5));
    case 1:
        return random_polygon(rng, uniform_int(rng, 3, 8), uniform(rng, 0.2, 1.0), 0.05,
                              uniform(rng, 0.02, 0.3));
    case 2:
        return Circle{{real(uniform(rng, -0.5, 0.5)), real(uniform(rng, -0.5, 0.5))},
                      real(uniform(rng, 0.1, 1.0))};
    case 3: {
        const Vec2 p1{real(uniform(rng, -1, 1)), real(uniform(rng, -1, 1))};
        const Vec2 p2{real(uniform(rng, -1, 1)), real(uniform(rng, -1, 1))};
        return Segment{p1, length(p2 - p1) > real(0.1) ? p2 : p1 + Vec2{1, 0}};
    }
    default: {
        const Vec2 p1{real(uniform(rng, -0.8, 0.8)), real(uniform(rng, -0.8, 0.8))};
        const Vec2 p2{real(uniform(rng, -0.8, 0.8)), real(uniform(rng, -0.8, 0.8))};
        return Capsule{p1, length(p2 - p1) > real(0.05) ? p2 : p1 + Vec2{0.5, 0},
                       real(uniform(rng, 0.05, 0.5))};
    }
    }
}

} // namespace sweep::test
