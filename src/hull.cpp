#include "sweep/hull.hpp"

#include <algorithm>

namespace sweep {
namespace {

bool all_finite(std::span<const Vec2> points) {
    return std::all_of(points.begin(), points.end(), [](Vec2 p) { return is_finite(p); });
}

// Sorted, with points closer than weld_distance merged: the hull must not
// contain near-duplicate vertices (their edge normals would be garbage).
std::vector<Vec2> sorted_unique(std::span<const Vec2> points, real weld_distance) {
    std::vector<Vec2> sorted(points.begin(), points.end());
    std::sort(sorted.begin(), sorted.end(),
              [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    std::vector<Vec2> unique;
    const real weld_sq = weld_distance * weld_distance;
    for (Vec2 p : sorted) {
        const bool near = std::any_of(unique.begin(), unique.end(),
                                      [&](Vec2 q) { return length_squared(p - q) <= weld_sq; });
        if (!near) {
            unique.push_back(p);
        }
    }
    return unique;
}

} // namespace

Result<std::vector<Vec2>> compute_hull(std::span<const Vec2> points, real weld_distance) {
    if (!all_finite(points)) {
        return Error{ErrorCode::invalid_input, "hull: a point is NaN or infinite"};
    }
    const std::vector<Vec2> p = sorted_unique(points, weld_distance);
    if (p.size() < 3) {
        return Error{ErrorCode::degenerate_shape, "hull: fewer than 3 distinct points"};
    }
    // Andrew's monotone chain: lower hull left to right, upper hull right to
    // left, popping every turn that is not strictly counter-clockwise (this
    // also drops collinear points).
    std::vector<Vec2> hull(2 * p.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(hull[k - 1] - hull[k - 2], p[i] - hull[k - 2]) <= 0) {
            --k;
        }
        hull[k++] = p[i];
    }
    for (std::size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && cross(hull[k - 1] - hull[k - 2], p[i] - hull[k - 2]) <= 0) {
            --k;
        }
        hull[k++] = p[i];
    }
    hull.resize(k - 1); // the last point repeats the first
    if (hull.size() < 3) {
        return Error{ErrorCode::degenerate_shape, "hull: all points are collinear"};
    }
    return hull;
}

} // namespace sweep
