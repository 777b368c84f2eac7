// Private to the geometry kernel: GJK on the cores of two proxies, in A's
// frame. distance() wraps it for the public API; shape_cast() and
// time_of_impact() call it once per advancement step through
// core_separation.hpp, without copying the proxies into a DistanceInput and
// without the world-frame outputs they do not use.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>

#include "sweep/distance.hpp"

namespace sweep::detail {

/// The barycentric weights d1 / (d1 + d2) and d2 / (d1 + d2) of an edge's
/// ends (d1, d2 >= 0, their sum > 0): by one reciprocal, as Box2D, unless
/// the sum is so small that its reciprocal overflows, then by division. (The
/// d are products of coordinates: for segments 1e-22 L long the sum was
/// subnormal, and the infinite weights made NaN points, fuzz_geometry.)
inline std::pair<real, real> edge_weights(real d1, real d2) {
    const real sum = d1 + d2;
    const real inv = real(1) / sum;
    if (std::isfinite(inv)) {
        return {d1 * inv, d2 * inv};
    }
    return {d1 / sum, d2 / sum};
}

/// The scale of the rounding in closest points that GJK found in A's frame,
/// B placed there by `b_in_a`: 1 plus the largest coordinate of B's
/// position (witness points closer than a few dozen ulps of it have a
/// direction that is noise). The frame's, not the world's: GJK runs in A's
/// frame, where shapes far from the world origin keep their precision, and
/// a bound of 64 ulps of 1e6 (7.6 L) took discs 3 L apart there for
/// touching.
inline real rounding_scale(const Transform& b_in_a) {
    return 1 + std::max(std::abs(b_in_a.p.x), std::abs(b_in_a.p.y));
}

/// The largest coordinate of two transforms' world positions: the scale of
/// the rounding of the pair's relative placement, and of anything measured
/// from world-placed points.
inline real world_scale(const Transform& a, const Transform& b) {
    return std::max({std::abs(a.p.x), std::abs(a.p.y), std::abs(b.p.x), std::abs(b.p.y)});
}

/// The closest points of two cores, both in A's frame.
struct CoreDistance {
    Vec2 point_a;           ///< on A's core
    Vec2 point_b;           ///< on B's core
    int iterations = 0;     ///< support point pairs computed
    int simplex_count = 0;  ///< 1, 2 or 3 (3: the origin is inside, the cores overlap)
    bool separated = false; ///< false when the cores overlap or touch (no direction)
};

/// GJK (distance.cpp) on the cores of `a` and `b`, B placed in A's frame by
/// `b_in_a` (finite: callers validate). `cache` is read as a warm start and
/// updated.
CoreDistance core_distance(const ShapeProxy& a, const ShapeProxy& b, const Transform& b_in_a,
                           SimplexCache& cache);

} // namespace sweep::detail
