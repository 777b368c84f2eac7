#include "sweep/hull.hpp"

#include <algorithm>
#include <cmath>

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

// How `a`, `b`, `c` turn: positive counter-clockwise, negative clockwise,
// zero on one line. In double: for float points of like magnitudes the
// differences and their products are exact, so the sign is (and for double
// points it rounds far finer than a float's). With float products, points
// nearly on one line at 6,000 L turned left as three and right as another
// three, and the chain came back to a vertex it had: compute_hull's hull
// repeated it, and before hull_into's scratch was doubled, the copy of the
// chain overran it.
double turn_of(Vec2 a, Vec2 b, Vec2 c) {
    const double abx = double(b.x) - double(a.x);
    const double aby = double(b.y) - double(a.y);
    const double acx = double(c.x) - double(a.x);
    const double acy = double(c.y) - double(a.y);
    return abx * acy - aby * acx;
}

// The index after `i` in a cycle of `n`.
std::size_t next_in_cycle(std::size_t i, std::size_t n) { return i + 1 == n ? 0 : i + 1; }

// Whether every point of the cyclic `ring` strictly between indices `from`
// and `to` (counter-clockwise) lies within `tolerance` of the line through
// ring[from] and ring[to].
bool within_of_chord(std::span<const Vec2> ring, std::size_t from, std::size_t to,
                     real tolerance) {
    const Vec2 a = ring[from];
    const Vec2 chord = ring[to] - a;
    const real most = tolerance * length(chord);
    for (std::size_t i = next_in_cycle(from, ring.size()); i != to;
         i = next_in_cycle(i, ring.size())) {
        // (Beyond a counter-clockwise hull's chord, the cross is negative.)
        if (-cross(chord, ring[i] - a) > most) {
            return false;
        }
    }
    return true;
}

// Whether some vertex of the counter-clockwise `ring` lies within
// `tolerance` of the line through its two neighbours: where none does,
// drop_flat_vertices drops none (it drops a run only where its first
// vertex is that near its neighbours' line). Squared, without a root: the
// common case, a hull of real corners, costs one pass of products.
bool any_flat_vertex(std::span<const Vec2> ring, real tolerance) {
    const std::size_t n = ring.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = ring[i == 0 ? n - 1 : i - 1];
        const Vec2 chord = ring[next_in_cycle(i, n)] - a;
        const real beyond = -cross(chord, ring[i] - a);
        if (beyond <= 0 || beyond * beyond <= tolerance * tolerance * length_squared(chord)) {
            return true;
        }
    }
    return false;
}

// Copies the counter-clockwise `ring` into `hull` without the vertices that
// lie within `tolerance` of the edge that replaces them: a vertex a hair off
// its neighbours' line is no corner, and the faces either side of it would
// tie on one normal to rounding in the narrowphase. A greedy walk from
// vertex 0 drops a vertex when it and every vertex dropped since the last
// one kept lie within `tolerance` of the edge from that one to the next, so
// the drops do not add up along a gentle curve; vertex 0 is judged last,
// between the vertices kept either side of it. Returns how many are left.
std::size_t drop_flat_vertices(std::span<const Vec2> ring, real tolerance, std::span<Vec2> hull) {
    const std::size_t n = ring.size();
    std::size_t kept = 0;
    std::size_t last = 0; // the index in `ring` of the last vertex kept
    hull[kept++] = ring[0];
    std::size_t second = 0; // ... and of the first kept after vertex 0
    for (std::size_t j = 1; j < n; ++j) {
        if (!within_of_chord(ring, last, next_in_cycle(j, n), tolerance)) {
            second = kept == 1 ? j : second;
            hull[kept++] = ring[j];
            last = j;
        }
    }
    if (kept >= 3 && within_of_chord(ring, last, second, tolerance)) {
        std::copy(hull.begin() + 1, hull.begin() + static_cast<std::ptrdiff_t>(kept), hull.begin());
        --kept;
    }
    return kept;
}

} // namespace

namespace detail {

Result<std::size_t> hull_into(std::span<const Vec2> points, real weld_distance,
                              std::span<Vec2> sorted, std::span<Vec2> hull) {
    if (!all_finite(points)) {
        return Error{ErrorCode::invalid_input, "hull: a point is NaN or infinite"};
    }
    if (!std::isfinite(weld_distance) || weld_distance < 0) {
        return Error{ErrorCode::invalid_input, "hull: the weld distance must be finite and >= 0"};
    }
    const std::size_t n = sorted_unique(points, weld_distance, sorted);
    if (n < 3) {
        return Error{ErrorCode::degenerate_shape, "hull: fewer than 3 distinct points"};
    }
    const std::span<const Vec2> p = sorted.first(n);
    // Andrew's monotone chain: lower hull left to right, upper hull right to
    // left, popping every turn that is not strictly counter-clockwise (this
    // also drops collinear points). The chain never holds more than 2n points.
    // Each turn is judged by turn_of from the least of its three points
    // (sorted: the first in the lower chain, the last in the upper), so both
    // chains judge three points alike.
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
        while (k >= 2 && turn_of(hull[k - 2], hull[k - 1], p[i]) <= 0) {
            --k;
        }
        hull[k++] = p[i];
    }
    for (std::size_t i = n - 1, lower = k + 1; i-- > 0;) {
        // (hull[k - 2], hull[k - 1], p[i]) turns as (p[i], hull[k - 1],
        // hull[k - 2]) does not: left where that one turns right.
        while (k >= lower && turn_of(p[i], hull[k - 1], hull[k - 2]) >= 0) {
            --k;
        }
        hull[k++] = p[i];
    }
    // The last point repeats the first. Where a vertex may be flat, the
    // chain is copied out so that the drop reads it whole while it fills
    // `hull`.
    std::size_t count = k - 1;
    if (count >= 3 && any_flat_vertex(hull.first(count), weld_distance)) {
        const std::span<Vec2> chain = sorted.first(count);
        std::copy_n(hull.begin(), count, chain.begin());
        count = drop_flat_vertices(chain, weld_distance, hull);
    }
    if (count < 3) {
        return Error{ErrorCode::degenerate_shape,
                     "hull: all points lie within the weld distance of one line"};
    }
    return count;
}

} // namespace detail

Result<std::vector<Vec2>> compute_hull(std::span<const Vec2> points, real weld_distance) {
    std::vector<Vec2> sorted(2 * points.size());
    std::vector<Vec2> hull(2 * points.size());
    auto count = detail::hull_into(points, weld_distance, sorted, hull);
    if (!count) {
        return count.error();
    }
    hull.resize(*count);
    return hull;
}

} // namespace sweep
