#include "sweep/hull.hpp"

#include <algorithm>

#include "hull_impl.hpp"

namespace sweep {
namespace {

bool all_finite(std::span<const Vec2> points) {
    return std::all_of(points.begin(), points.end(), [](Vec2 p) { return is_finite(p); });
}

// Sorts `points` into `sorted` and merges points closer than weld_distance:
// the hull must not contain near-duplicate vertices (their edge normals would
// be garbage). Returns how many points are left.
std::size_t sorted_unique(std::span<const Vec2> points, real weld_distance,
                          std::span<Vec2> sorted) {
    std::copy(points.begin(), points.end(), sorted.begin());
    const auto end = sorted.begin() + static_cast<std::ptrdiff_t>(points.size());
    std::sort(sorted.begin(), end,
              [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    const real weld_sq = weld_distance * weld_distance;
    std::size_t unique = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Vec2 p = sorted[i];
        bool near = false;
        // The points kept so far are sorted by x: scan back from the last
        // until one is too far along x alone, as are all before it.
        for (std::size_t j = unique; j-- > 0;) {
            const real dx = p.x - sorted[j].x;
            if (dx * dx > weld_sq) {
                break;
            }
            if (length_squared(p - sorted[j]) <= weld_sq) {
                near = true;
                break;
            }
        }
        if (!near) {
            sorted[unique++] = p;
        }
    }
    return unique;
}

} // namespace

namespace detail {

Result<std::size_t> hull_into(std::span<const Vec2> points, real weld_distance,
                              std::span<Vec2> sorted, std::span<Vec2> hull) {
    if (!all_finite(points)) {
        return Error{ErrorCode::invalid_input, "hull: a point is NaN or infinite"};
    }
    const std::size_t n = sorted_unique(points, weld_distance, sorted);
    if (n < 3) {
        return Error{ErrorCode::degenerate_shape, "hull: fewer than 3 distinct points"};
    }
    const std::span<const Vec2> p = sorted.first(n);
    // Andrew's monotone chain: lower hull left to right, upper hull right to
    // left, popping every turn that is not strictly counter-clockwise (this
    // also drops collinear points). The chain never holds more than 2n points.
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
        while (k >= 2 && cross(hull[k - 1] - hull[k - 2], p[i] - hull[k - 2]) <= 0) {
            --k;
        }
        hull[k++] = p[i];
    }
    for (std::size_t i = n - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && cross(hull[k - 1] - hull[k - 2], p[i] - hull[k - 2]) <= 0) {
            --k;
        }
        hull[k++] = p[i];
    }
    const std::size_t count = k - 1; // the last point repeats the first
    if (count < 3) {
        return Error{ErrorCode::degenerate_shape, "hull: all points are collinear"};
    }
    return count;
}

} // namespace detail

Result<std::vector<Vec2>> compute_hull(std::span<const Vec2> points, real weld_distance) {
    std::vector<Vec2> sorted(points.size());
    std::vector<Vec2> hull(2 * points.size());
    auto count = detail::hull_into(points, weld_distance, sorted, hull);
    if (!count) {
        return count.error();
    }
    hull.resize(*count);
    return hull;
}

} // namespace sweep
