// GJK after Catto, "Computing Distance" (GDC 2010), following the structure
// of Box2D's b2Distance: the simplex is solved with barycentric coordinates
// and the search direction points from the simplex towards the origin of the
// Minkowski difference B - A. B is expressed in A's frame so that results far
// from the world origin keep their precision.
#include "sweep/distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "gjk.hpp"
#include "sweep/constants.hpp"

namespace sweep {
namespace {

struct SimplexVertex {
    Vec2 wa;    // support point on A (A's frame)
    Vec2 wb;    // support point on B (A's frame)
    Vec2 w;     // wb - wa
    real a = 0; // barycentric coordinate of the closest point
    int index_a = 0;
    int index_b = 0;
};

struct Simplex {
    std::array<SimplexVertex, 3> v;
    int count = 0;
};

SimplexVertex make_vertex(const ShapeProxy& a, const ShapeProxy& b, const Transform& xf, int ia,
                          int ib) {
    SimplexVertex v;
    v.index_a = ia;
    v.index_b = ib;
    v.wa = a.points[ia];
    v.wb = transform_point(xf, b.points[ib]);
    v.w = v.wb - v.wa;
    v.a = 1;
    return v;
}

// The index of the proxy point furthest along `direction`. Here rather than
// a call to find_support: GJK runs it twice per iteration, and inlined it
// costs a third of the call. Selects rather than branches: which point wins
// is data a branch predictor cannot learn, and mispredicted it cost more
// than the dot products.
inline int support(const ShapeProxy& proxy, Vec2 direction) {
    int best = 0;
    real best_value = dot(proxy.points[0], direction);
    for (int i = 1; i < proxy.count; ++i) {
        const real value = dot(proxy.points[i], direction);
        best = value > best_value ? i : best;
        best_value = std::max(best_value, value);
    }
    return best;
}

Simplex read_cache(const SimplexCache& cache, const ShapeProxy& a, const ShapeProxy& b,
                   const Transform& xf) {
    Simplex s;
    for (int i = 0; i < cache.count; ++i) {
        const int ia = cache.index_a[i];
        const int ib = cache.index_b[i];
        if (ia >= a.count || ib >= b.count) {
            s.count = 0; // a cache from another pair: start cold
            break;
        }
        s.v[s.count++] = make_vertex(a, b, xf, ia, ib);
    }
    if (s.count == 0) {
        // Cold start from the points of A and B that face each other along
        // the line between their rough centres (the middle of their first and
        // middle points), not from their first points: GJK then starts near
        // the closest features and saves an iteration or two.
        const Vec2 center_a = real(0.5) * (a.points[0] + a.points[a.count / 2]);
        const Vec2 center_b =
            transform_point(xf, real(0.5) * (b.points[0] + b.points[b.count / 2]));
        const Vec2 d = center_b - center_a;
        s.v[0] = make_vertex(a, b, xf, support(a, d), support(b, inv_rotate(xf.q, -d)));
        s.count = 1;
    }
    return s;
}

void write_cache(SimplexCache& cache, const Simplex& s) {
    cache.count = static_cast<std::uint16_t>(s.count);
    for (int i = 0; i < s.count; ++i) {
        cache.index_a[i] = static_cast<std::uint8_t>(s.v[i].index_a);
        cache.index_b[i] = static_cast<std::uint8_t>(s.v[i].index_b);
    }
}

// Sets two simplex vertices' weights (edge_weights).
void set_edge_weights(SimplexVertex& v1, SimplexVertex& v2, real d1, real d2) {
    std::tie(v1.a, v2.a) = detail::edge_weights(d1, d2);
}

// Closest point of segment w1-w2 to the origin, by barycentric coordinates.
void solve2(Simplex& s) {
    const Vec2 w1 = s.v[0].w;
    const Vec2 w2 = s.v[1].w;
    const Vec2 e12 = w2 - w1;
    const real d12_2 = -dot(w1, e12);
    if (d12_2 <= 0) { // region of w1
        s.v[0].a = 1;
        s.count = 1;
        return;
    }
    const real d12_1 = dot(w2, e12);
    if (d12_1 <= 0) { // region of w2
        s.v[1].a = 1;
        s.v[0] = s.v[1];
        s.count = 1;
        return;
    }
    set_edge_weights(s.v[0], s.v[1], d12_1, d12_2);
    s.count = 2;
}

// Closest point of triangle w1-w2-w3 to the origin: vertex, edge or inside.
void solve3(Simplex& s) {
    const Vec2 w1 = s.v[0].w;
    const Vec2 w2 = s.v[1].w;
    const Vec2 w3 = s.v[2].w;

    const Vec2 e12 = w2 - w1;
    const real d12_1 = dot(w2, e12);
    const real d12_2 = -dot(w1, e12);
    const Vec2 e13 = w3 - w1;
    const real d13_1 = dot(w3, e13);
    const real d13_2 = -dot(w1, e13);
    const Vec2 e23 = w3 - w2;
    const real d23_1 = dot(w3, e23);
    const real d23_2 = -dot(w2, e23);

    // The triangle's areas opposite each vertex, signed by its orientation:
    // a select, not Box2D's product with n123, whose product of two tiny
    // areas underflowed to zero (a box 1e-23 L thick got NaN barycentric
    // coordinates, fuzz_geometry).
    const bool ccw = cross(e12, e13) > 0;
    const real d123_1 = ccw ? cross(w2, w3) : -cross(w2, w3);
    const real d123_2 = ccw ? cross(w3, w1) : -cross(w3, w1);
    const real d123_3 = ccw ? cross(w1, w2) : -cross(w1, w2);

    if (d12_2 <= 0 && d13_2 <= 0) {
        s.v[0].a = 1;
        s.count = 1;
        return;
    }
    if (d12_1 > 0 && d12_2 > 0 && d123_3 <= 0) {
        set_edge_weights(s.v[0], s.v[1], d12_1, d12_2);
        s.count = 2;
        return;
    }
    if (d13_1 > 0 && d13_2 > 0 && d123_2 <= 0) {
        set_edge_weights(s.v[0], s.v[2], d13_1, d13_2);
        s.count = 2;
        s.v[1] = s.v[2];
        return;
    }
    if (d12_1 <= 0 && d23_2 <= 0) {
        s.v[1].a = 1;
        s.count = 1;
        s.v[0] = s.v[1];
        return;
    }
    if (d13_1 <= 0 && d23_1 <= 0) {
        s.v[2].a = 1;
        s.count = 1;
        s.v[0] = s.v[2];
        return;
    }
    if (d23_1 > 0 && d23_2 > 0 && d123_1 <= 0) {
        set_edge_weights(s.v[1], s.v[2], d23_1, d23_2);
        s.count = 2;
        s.v[0] = s.v[2];
        return;
    }
    const real area = d123_1 + d123_2 + d123_3;
    if (!(area > 0)) {
        // Flat to rounding, where the regions above can leave a gap (a
        // polygon with three vertices on one line, one of them a subnormal
        // hair off it): the triangle is its longest edge, which holds the
        // third point. (Restarting from the first vertex, GJK cycled through
        // the same three supports to its iteration cap and reported cores
        // 50 L apart as 135 L apart, fuzz_geometry.)
        const real l12 = length_squared(e12);
        const real l13 = length_squared(e13);
        const real l23 = length_squared(e23);
        if (l13 >= l12 && l13 >= l23) {
            s.v[1] = s.v[2];
        } else if (l23 >= l12) {
            s.v[0] = s.v[2];
        }
        s.count = 2;
        solve2(s);
        return;
    }
    if (d123_1 < 0 || d123_2 < 0 || d123_3 < 0) {
        // Outside by an area, though the regions above missed it: rounding
        // in a thin triangle far from the origin, whose areas are
        // differences of products 1e5 times as large (a polygon with a
        // vertex a subnormal hair off the line of its neighbours made a
        // triangle 0.004 L thin, 96 L from the origin, with weights of
        // -1.3e7 and 1.3e7, and cores 96 L apart were called overlapping,
        // fuzz_geometry). The closest point is on the edge the origin lies
        // farthest beyond.
        if (d123_1 <= d123_2 && d123_1 <= d123_3) {
            s.v[0] = s.v[2]; // edge 23
        } else if (d123_2 <= d123_3) {
            s.v[1] = s.v[2]; // edge 13
        }
        s.count = 2;
        solve2(s);
        return;
    }
    // Divided one by one: the reciprocal of a subnormal area overflows (two
    // capsule cores on one line, 1e-38 L apart across it, got infinite
    // weights).
    s.v[0].a = d123_1 / area;
    s.v[1].a = d123_2 / area;
    s.v[2].a = d123_3 / area;
    s.count = 3;
}

Vec2 search_direction(const Simplex& s) {
    if (s.count == 1) {
        return -s.v[0].w;
    }
    const Vec2 e12 = s.v[1].w - s.v[0].w;
    // The side of the edge the origin lies on.
    return cross(e12, -s.v[0].w) > 0 ? left_perp(e12) : right_perp(e12);
}

void witness_points(const Simplex& s, Vec2& a, Vec2& b) {
    a = {};
    b = {};
    for (int i = 0; i < s.count; ++i) {
        a += s.v[i].a * s.v[i].wa;
        b += s.v[i].a * s.v[i].wb;
    }
}

// Whether the origin lies within 1e-12 L of the simplex (one vertex or an
// edge; `d` its search direction). For an edge that is the origin's
// distance from the edge's line, |cross(e12, w1)| / |e12|, compared
// squared; not d's length, which is the edge's: for shapes 1e-22 L across
// every edge is that short, and cores 0.078 L apart were called touching.
bool origin_on_simplex(const Simplex& s, Vec2 d) {
    constexpr real k_touch_squared = real(1e-24);
    if (s.count == 1) {
        return length_squared(d) < k_touch_squared;
    }
    const real off_line = cross(s.v[1].w - s.v[0].w, s.v[0].w);
    return off_line * off_line < k_touch_squared * length_squared(d);
}

// A support pair as one integer (indices are below k_max_polygon_vertices).
constexpr int pair_key(int index_a, int index_b) { return index_a << 8 | index_b; }

// Runs GJK on the cores; returns false when the origin is inside the simplex
// (the cores overlap). At the iteration cap the simplex is solved before it
// is returned, so its weights give a point of the Minkowski difference: an
// upper bound of the distance. (Returned with its last support unsolved,
// its stale weights summed past 1: two capsules overlapping on one line,
// whose flat Minkowski difference cycled GJK through three edges of the
// same line, were said to be 0.78 L apart.)
bool run_gjk(Simplex& s, const ShapeProxy& a, const ShapeProxy& b, const Transform& xf,
             int& iterations) {
    for (;;) {
        // The simplex before solving, to detect a repeated support pair: its
        // three slots, unused ones as -1 (no pair's key), in straight-line
        // code, where a loop over the count mispredicts its exit.
        const int saved_count = s.count;
        const auto saved_key = [&](int i) {
            return i < saved_count ? pair_key(s.v[i].index_a, s.v[i].index_b) : -1;
        };
        const std::array<int, 3> saved{saved_key(0), saved_key(1), saved_key(2)};
        if (s.count == 2) {
            solve2(s);
        } else if (s.count == 3) {
            solve3(s);
        }
        if (s.count == 3) {
            return false;
        }
        if (iterations >= k_gjk_max_iterations) {
            break;
        }
        const Vec2 d = search_direction(s);
        if (origin_on_simplex(s, d)) {
            // The cores touch. Treated as overlap since no separating
            // direction is defined.
            return false;
        }
        const int ia = support(a, -d);
        const int ib = support(b, inv_rotate(xf.q, d));
        ++iterations;
        // Counted, not short-circuit: whether a pair repeats is as
        // unpredictable as which support point wins.
        const int key = pair_key(ia, ib);
        const bool duplicate = (saved[0] == key) + (saved[1] == key) + (saved[2] == key) > 0;
        if (duplicate) {
            break; // no progress: converged
        }
        s.v[s.count++] = make_vertex(a, b, xf, ia, ib);
    }
    return true;
}

} // namespace

ShapeProxy make_proxy(std::span<const Vec2> points, real radius) {
    ShapeProxy proxy;
    proxy.count = static_cast<int>(std::min<std::size_t>(points.size(), k_max_polygon_vertices));
    std::copy_n(points.begin(), proxy.count, proxy.points.begin());
    proxy.radius = radius;
    return proxy;
}

ShapeProxy make_proxy(const Shape& shape) {
    switch (shape.type) {
    case ShapeType::circle:
        return make_proxy(std::span(&shape.circle.center, 1), shape.circle.radius);
    case ShapeType::capsule: {
        const std::array<Vec2, 2> p{shape.capsule.center1, shape.capsule.center2};
        return make_proxy(p, shape.capsule.radius);
    }
    case ShapeType::polygon:
        return make_proxy(std::span(shape.polygon.vertices.data(), shape.polygon.count),
                          shape.polygon.radius);
    case ShapeType::segment: {
        const std::array<Vec2, 2> p{shape.segment.p1, shape.segment.p2};
        return make_proxy(p, 0);
    }
    case ShapeType::chain_segment: {
        const std::array<Vec2, 2> p{shape.chain_segment.segment.p1, shape.chain_segment.segment.p2};
        return make_proxy(p, 0);
    }
    }
    return {};
}

int find_support(const ShapeProxy& proxy, Vec2 direction) { return support(proxy, direction); }

namespace detail {

CoreDistance core_distance(const ShapeProxy& a, const ShapeProxy& b, const Transform& b_in_a,
                           SimplexCache& cache) {
    CoreDistance out;
    if (a.count == 1 && b.count == 1) {
        // Two points (circles): the answer GJK reaches after one support
        // step, without the simplex machinery.
        out.point_a = a.points[0];
        out.point_b = transform_point(b_in_a, b.points[0]);
        out.separated = length_squared(out.point_a - out.point_b) >= real(1e-24);
        out.iterations = out.separated ? 1 : 0;
        out.simplex_count = 1;
        cache = {1, {}, {}};
        return out;
    }
    Simplex s = read_cache(cache, a, b, b_in_a);
    out.separated = run_gjk(s, a, b, b_in_a, out.iterations);
    write_cache(cache, s);
    out.simplex_count = s.count;
    witness_points(s, out.point_a, out.point_b);
    return out;
}

} // namespace detail

DistanceOutput distance(const DistanceInput& input, SimplexCache& cache) {
    DistanceOutput out;
    if (!is_finite(input.xf_a) || !is_finite(input.xf_b)) {
        out.state = DistanceState::invalid_input;
        return out;
    }
    // B in A's frame, so that results far from the world origin keep their precision.
    const Transform b_in_a = inv_mul(input.xf_a, input.xf_b);
    const detail::CoreDistance core =
        detail::core_distance(input.proxy_a, input.proxy_b, b_in_a, cache);
    out.iterations = core.iterations;
    out.simplex_count = core.simplex_count;
    const Vec2 pa = core.point_a;
    const Vec2 pb = core.point_b;
    const real core_distance = distance(pa, pb);
    out.point_a = transform_point(input.xf_a, pa);
    out.point_b = transform_point(input.xf_a, pb);
    // Closest points within a few ulps of the coordinates are touching, or
    // overlapping cores that GJK stopped beside by rounding (two copies of
    // one polygon, placed by different transforms, 1.2e-7 L "apart"): their
    // direction is noise.
    const real scale = detail::rounding_scale(b_in_a);
    if (!core.separated || core_distance < 4 * std::numeric_limits<real>::epsilon() * scale) {
        out.state = DistanceState::cores_overlap;
        out.point_b = out.point_a;
        return out;
    }
    const Vec2 normal = rotate(input.xf_a.q, (real(1) / core_distance) * (pb - pa));
    out.normal = normal;
    out.distance = core_distance;
    if (input.use_radii) {
        const real ra = input.proxy_a.radius;
        const real rb = input.proxy_b.radius;
        if (core_distance > ra + rb) {
            out.distance = core_distance - ra - rb;
            out.point_a += ra * normal;
            out.point_b -= rb * normal;
        } else {
            const Vec2 mid = real(0.5) * (out.point_a + ra * normal + out.point_b - rb * normal);
            out.point_a = mid;
            out.point_b = mid;
            out.distance = 0;
        }
    }
    return out;
}

SegmentDistanceOutput segment_distance(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
    const Vec2 d1 = q1 - p1;
    const Vec2 d2 = q2 - p2;
    const Vec2 r = p1 - p2;
    const real dd1 = dot(d1, d1);
    const real dd2 = dot(d2, d2);
    const real rd1 = dot(r, d1);
    const real rd2 = dot(r, d2);
    constexpr real eps = std::numeric_limits<real>::epsilon();
    real f1 = 0;
    real f2 = 0;
    if (dd1 < eps * eps && dd2 < eps * eps) {
        // two points
    } else if (dd1 < eps * eps) {
        f2 = std::clamp(rd2 / dd2, real(0), real(1));
    } else if (dd2 < eps * eps) {
        f1 = std::clamp(-rd1 / dd1, real(0), real(1));
    } else {
        const real d12 = dot(d1, d2);
        const real denom = dd1 * dd2 - d12 * d12;
        // Not parallel: the unconstrained minimum along segment 1, clamped;
        // parallel: any point does, take p1.
        f1 = denom > eps * dd1 * dd2 ? std::clamp((d12 * rd2 - rd1 * dd2) / denom, real(0), real(1))
                                     : real(0);
        f2 = (d12 * f1 + rd2) / dd2;
        // Clamping f2 moves the closest point on segment 2 to an end; then
        // segment 1's parameter is recomputed for that end.
        if (f2 < 0) {
            f2 = 0;
            f1 = std::clamp(-rd1 / dd1, real(0), real(1));
        } else if (f2 > 1) {
            f2 = 1;
            f1 = std::clamp((d12 - rd1) / dd1, real(0), real(1));
        }
    }
    SegmentDistanceOutput out;
    out.closest1 = p1 + f1 * d1;
    out.closest2 = p2 + f2 * d2;
    out.fraction1 = f1;
    out.fraction2 = f2;
    out.distance_squared = length_squared(out.closest2 - out.closest1);
    return out;
}

} // namespace sweep
