// Private to the geometry kernel: GJK on the cores of two proxies, in A's
// frame. distance() wraps it for the public API; shape_cast() and
// time_of_impact() call it once per advancement step through
// core_separation.hpp, without copying the proxies into a DistanceInput and
// without the world-frame outputs they do not use.
#pragma once

#include "sweep/distance.hpp"

namespace sweep::detail {

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
