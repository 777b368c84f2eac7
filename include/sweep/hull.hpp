// Convex hull of a point set (Andrew's monotone chain, "Another efficient
// algorithm for convex hulls in two dimensions", 1979).
#pragma once

#include <span>
#include <vector>

#include "sweep/math.hpp"
#include "sweep/result.hpp"

namespace sweep {

/// Points closer than this (L) are one point in compute_hull's default and
/// in make_polygon.
inline constexpr real k_hull_weld_distance = real(1e-5);

/// The convex hull of `points`, counter-clockwise, without collinear or
/// repeated points (points closer than `weld_distance` L are one point).
/// Errors: NaN/inf (invalid_input); fewer than 3 distinct points or all
/// points collinear (degenerate_shape). Allocates; not for hot loops.
Result<std::vector<Vec2>> compute_hull(std::span<const Vec2> points,
                                       real weld_distance = k_hull_weld_distance);

} // namespace sweep
