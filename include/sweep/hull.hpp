// Convex hull of a point set (Andrew's monotone chain, "Another efficient
// algorithm for convex hulls in two dimensions", 1979).
#pragma once

#include <span>
#include <vector>

#include "sweep/math.hpp"
#include "sweep/result.hpp"

namespace sweep {

/// Points closer than this (L) are one point, and a vertex closer than this
/// to the edge that would replace it is no vertex, in compute_hull's default
/// and in make_polygon.
inline constexpr real k_hull_weld_distance = real(1e-5);

/// The convex hull of `points`, counter-clockwise, without repeated or
/// nearly collinear vertices: points closer than `weld_distance` L are one
/// point, and a run of hull vertices that all lie within `weld_distance` of
/// the edge from the vertex before them to the one after is dropped for that
/// edge (as Box2D v3's b2ComputeHull drops them: a vertex a hair off its
/// neighbours' line makes two faces whose normals tie to rounding). Every
/// input point is then inside the hull or within 2 `weld_distance` of it
/// (one for a merged point, one for a dropped vertex). Errors: NaN/inf
/// points, or a weld distance that is negative or not finite
/// (invalid_input); fewer than 3 distinct points, or all points within
/// `weld_distance` of one line (degenerate_shape). Allocates; not for hot
/// loops.
Result<std::vector<Vec2>> compute_hull(std::span<const Vec2> points,
                                       real weld_distance = k_hull_weld_distance);

} // namespace sweep
