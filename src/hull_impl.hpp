// Private to hull.cpp and shapes.cpp: the convex hull into caller storage,
// so that make_polygon (a shape's few corners, often in a loop building
// shapes) can run it on the stack while compute_hull returns a vector.
#pragma once

#include <cstddef>
#include <span>

#include "sweep/hull.hpp"

namespace sweep::detail {

/// compute_hull() without allocating: `sorted` (at least 2 points.size()
/// points) is scratch, `hull` (at least 2 points.size()) receives the hull,
/// counter-clockwise. Returns the hull's vertex count, or compute_hull's error.
/// (The chain the hull is dropped from is copied into `sorted`: however the
/// products round, it holds fewer than 2 points.size() points.)
Result<std::size_t> hull_into(std::span<const Vec2> points, real weld_distance,
                              std::span<Vec2> sorted, std::span<Vec2> hull);

} // namespace sweep::detail
