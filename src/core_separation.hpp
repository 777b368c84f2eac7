// Private to shape_cast.cpp, toi.cpp and move_narrowphase.cpp: how deep two
// overlapping cores are.
//
// GJK (distance.cpp) reports only that two cores overlap, not by how much.
// The casts need the depth to tell touching from overlapping
// (docs/conventions.md): unrounded shapes sunk within the touch tolerance,
// such as a box resting on a floor after the solver's last step, must count
// as touching so that they can slide, not as overlapping.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "gjk.hpp"
#include "sweep/constants.hpp"

namespace sweep::detail {

/// The separating-axis value of two cores: the largest gap between them along
/// an edge normal of either (negative: the penetration depth of convex
/// cores), that axis from A to B, and a point of A's core where they meet
/// along it (world frame): A's deepest vertex, or B's deepest moved back
/// onto A's face within the face's ends.
struct CoreSeparation {
    real separation = 0;
    Vec2 normal{0, 1};
    Vec2 point_a;
    /// GJK converged on an edge of the Minkowski difference B - A (the cache
    /// holds its two vertices): that edge lies on the boundary, facing the
    /// origin along `normal`.
    bool on_edge = false;
};

/// A proxy's points placed by `xf` (the rest zero).
inline std::array<Vec2, k_max_polygon_vertices> placed_points(const ShapeProxy& proxy,
                                                              const Transform& xf) {
    std::array<Vec2, k_max_polygon_vertices> w{};
    for (int i = 0; i < proxy.count; ++i) {
        w[i] = transform_point(xf, proxy.points[i]);
    }
    return w;
}

/// The point of the segment p1-p2 nearest `p`, a point of its line.
inline Vec2 onto_edge(Vec2 p, Vec2 p1, Vec2 p2) {
    const Vec2 e = p2 - p1;
    const real along = dot(p - p1, e);
    if (along <= 0) {
        return p1;
    }
    return along >= dot(e, e) ? p2 : p;
}

/// Separating axis test on the edge normals of both proxies (a proxy of two
/// points has both normals of its segment; of one point, none). For two
/// single points (concentric circles) the depth is 0 and the normal +y, as
/// in collide_circles.
inline CoreSeparation core_separation(const ShapeProxy& a, const Transform& xf_a,
                                      const ShapeProxy& b, const Transform& xf_b) {
    const std::array<Vec2, k_max_polygon_vertices> wa = placed_points(a, xf_a);
    const std::array<Vec2, k_max_polygon_vertices> wb = placed_points(b, xf_b);
    CoreSeparation best;
    best.separation = -std::numeric_limits<real>::max();
    bool found = false;
    // Axes from the edges of `ref`; `sign` = +1 when ref is A, -1 when it is B
    // (the axis from A to B is then the opposite of ref's outward normal).
    const auto test_edges = [&](const std::array<Vec2, k_max_polygon_vertices>& ref, int ref_count,
                                const std::array<Vec2, k_max_polygon_vertices>& other,
                                int other_count, real sign) {
        if (ref_count < 2) {
            return;
        }
        for (int i = 0; i < ref_count; ++i) {
            const int next = i + 1 < ref_count ? i + 1 : 0; // (not %: a division each edge)
            const Vec2 n = normalize(right_perp(ref[next] - ref[i]));
            if (n == Vec2{}) {
                continue;
            }
            real ref_max = -std::numeric_limits<real>::max();
            for (int j = 0; j < ref_count; ++j) {
                ref_max = std::max(ref_max, dot(n, ref[j]));
            }
            real other_min = std::numeric_limits<real>::max();
            int deepest = 0;
            for (int j = 0; j < other_count; ++j) {
                const real d = dot(n, other[j]);
                if (d < other_min) {
                    other_min = d;
                    deepest = j;
                }
            }
            const real gap = other_min - ref_max;
            if (!found || gap > best.separation) {
                found = true;
                best.separation = gap;
                best.normal = sign * n;
                // On A: A's deepest point, or B's deepest point moved back
                // onto A's face, within the face's ends (a box beside a
                // wall tile, its corner past the tile's, had its point on
                // the line of the tile's face, off the tile).
                best.point_a = sign > 0 ? onto_edge(other[deepest] - gap * n, ref[i], ref[next])
                                        : other[deepest];
            }
        }
    };
    test_edges(wa, a.count, wb, b.count, real(1));
    test_edges(wb, b.count, wa, a.count, real(-1));
    if (!found) {
        best = {0, {0, 1}, a.count > 0 ? wa[0] : Vec2{}};
    }
    return best;
}

/// Whether some edge normal n of either core (from A to B) separates the
/// shapes to within `tolerance` (their gap along n, less the radii, is at
/// least -tolerance) while `closing(n)`, a bound on how fast any point of B
/// nears A along n, is at most 0: then that plane holds for the whole motion
/// and the shapes never overlap deeper than the tolerance. The casts ask it
/// of a touching start whose own normal says they close: at a corner
/// touching a corner that normal is one face's, and a motion leaving along
/// the other face's normal (a box moving up and a little left off a box's
/// top right corner) separates them at once.
template <class Closing>
bool touching_plane_holds(const ShapeProxy& a, const Transform& xf_a, const ShapeProxy& b,
                          const Transform& xf_b, real tolerance, Closing&& closing) {
    const std::array<Vec2, k_max_polygon_vertices> wa = placed_points(a, xf_a);
    const std::array<Vec2, k_max_polygon_vertices> wb = placed_points(b, xf_b);
    const real least_gap = a.radius + b.radius - tolerance;
    const auto holds_on_edges =
        [&](const std::array<Vec2, k_max_polygon_vertices>& ref, int ref_count,
            const std::array<Vec2, k_max_polygon_vertices>& other, int other_count, real sign) {
            for (int i = 0; ref_count >= 2 && i < ref_count; ++i) {
                const int next = i + 1 < ref_count ? i + 1 : 0;
                const Vec2 n = normalize(right_perp(ref[next] - ref[i]));
                if (n == Vec2{} || closing(sign * n) > 0) {
                    continue;
                }
                real ref_max = -std::numeric_limits<real>::max();
                for (int j = 0; j < ref_count; ++j) {
                    ref_max = std::max(ref_max, dot(n, ref[j]));
                }
                real other_min = std::numeric_limits<real>::max();
                for (int j = 0; j < other_count; ++j) {
                    other_min = std::min(other_min, dot(n, other[j]));
                }
                if (other_min - ref_max >= least_gap) {
                    return true;
                }
            }
            return false;
        };
    return holds_on_edges(wa, a.count, wb, b.count, real(1)) ||
           holds_on_edges(wb, b.count, wa, a.count, real(-1));
}

/// The signed separation of two rounded proxies (L; negative = penetration),
/// its normal from A to B and the point of A's surface on it (world frame):
/// GJK while the cores are apart, the separating axes when they meet. GJK only
/// says that cores meet; whether that is touching or overlapping depends on
/// the depth (docs/conventions.md): without it, unrounded shapes sunk by less
/// than the touch tolerance (a box resting on a floor) would count as
/// overlapped and could not slide. GJK runs in A's frame, with B placed there
/// by `b_in_a` (inv_mul(xf_a, xf_b), or the caller's cheaper equal); the axes
/// are tested in the world frame, so that a face normal along a world axis
/// stays exact and a touching shape moving along it is not taken as pressing
/// in. The transforms must be finite (the casts validate their input).
inline CoreSeparation signed_separation(const ShapeProxy& a, const Transform& xf_a,
                                        const ShapeProxy& b, const Transform& xf_b,
                                        const Transform& b_in_a, SimplexCache& cache) {
    const CoreDistance d = core_distance(a, b, b_in_a, cache);
    const real dist = distance(d.point_a, d.point_b);
    // Witness points closer than the rounding of their coordinates give a
    // direction that is noise (a box resting on a floor a few ulps away could
    // get a sideways normal and count as moving along it): the separating
    // axes give the face normal exactly there.
    // (Plus 4 ulps of the world positions, which round the pair's relative
    // placement that much: boxes far from the origin a hair apart got GJK's
    // direction off the face's axis by 0.2 degrees.)
    const real noise = 64 * std::numeric_limits<real>::epsilon() * rounding_scale(b_in_a) +
                       4 * std::numeric_limits<real>::epsilon() * world_scale(xf_a, xf_b);
    CoreSeparation s =
        !d.separated || dist < noise
            ? core_separation(a, xf_a, b, xf_b)
            : CoreSeparation{dist, rotate(xf_a.q, (real(1) / dist) * (d.point_b - d.point_a)),
                             transform_point(xf_a, d.point_a),
                             d.simplex_count == 2 && d.iterations < k_gjk_max_iterations};
    s.separation -= a.radius + b.radius;
    s.point_a += a.radius * s.normal;
    return s;
}

} // namespace sweep::detail
