#include "polygon.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>

namespace sweep::io::detail {
namespace {

double cross(PixelPoint o, PixelPoint a, PixelPoint b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

double distance_squared(PixelPoint a, PixelPoint b) {
    const double dx = a.x - b.x;
    const double dy = a.y - b.y;
    return dx * dx + dy * dy;
}

/// A length scale for tolerances: the larger side of the points' bounding box.
double extent_of(std::span<const PixelPoint> points) {
    if (points.empty()) {
        return 0;
    }
    double x0 = points[0].x, x1 = x0, y0 = points[0].y, y1 = y0;
    for (const PixelPoint& p : points) {
        x0 = std::min(x0, p.x);
        x1 = std::max(x1, p.x);
        y0 = std::min(y0, p.y);
        y1 = std::max(y1, p.y);
    }
    return std::max(x1 - x0, y1 - y0);
}

/// True when p lies inside triangle abc (counter-clockwise) or on its edges.
bool in_triangle(PixelPoint p, PixelPoint a, PixelPoint b, PixelPoint c, double eps) {
    return cross(a, b, p) >= -eps && cross(b, c, p) >= -eps && cross(c, a, p) >= -eps;
}

/// Ear clipping on the counter-clockwise outline `pts`: triangles as index
/// triples, or false when no ear is left (a self-intersecting outline).
bool triangulate(const std::vector<PixelPoint>& pts, double eps,
                 std::vector<std::array<std::size_t, 3>>& triangles) {
    const std::size_t n = pts.size();
    std::vector<std::size_t> prev(n), next(n);
    for (std::size_t i = 0; i < n; ++i) {
        prev[i] = (i + n - 1) % n;
        next[i] = (i + 1) % n;
    }
    const auto is_convex = [&](std::size_t i) {
        return cross(pts[prev[i]], pts[i], pts[next[i]]) > eps;
    };
    const auto is_ear = [&](std::size_t i) {
        if (!is_convex(i)) {
            return false;
        }
        const std::size_t a = prev[i], c = next[i];
        // Only reflex (or flat) vertices can lie inside a convex corner's triangle.
        for (std::size_t j = next[c]; j != a; j = next[j]) {
            if (is_convex(j)) {
                continue;
            }
            const PixelPoint p = pts[j];
            if (distance_squared(p, pts[a]) == 0 || distance_squared(p, pts[i]) == 0 ||
                distance_squared(p, pts[c]) == 0) {
                continue;
            }
            if (in_triangle(p, pts[a], pts[i], pts[c], eps)) {
                return false;
            }
        }
        return true;
    };
    std::size_t remaining = n;
    std::size_t i = 0;
    std::size_t since_ear = 0;
    while (remaining > 3) {
        if (is_ear(i)) {
            triangles.push_back({prev[i], i, next[i]});
            next[prev[i]] = next[i];
            prev[next[i]] = prev[i];
            --remaining;
            since_ear = 0;
            i = prev[i];
            continue;
        }
        i = next[i];
        if (++since_ear > remaining) {
            return false;
        }
    }
    // The last triangle, unless it is flat (collinear leftovers).
    if (cross(pts[prev[i]], pts[i], pts[next[i]]) > eps) {
        triangles.push_back({prev[i], i, next[i]});
    }
    return true;
}

/// Hertel-Mehlhorn: merges pieces across shared diagonals while convex.
std::vector<std::vector<std::size_t>> merge_pieces(const std::vector<PixelPoint>& pts,
                                                   std::vector<std::vector<std::size_t>> pieces,
                                                   std::size_t max_vertices, double eps) {
    bool merged = true;
    while (merged) {
        merged = false;
        // Directed edge -> piece holding it.
        std::map<std::pair<std::size_t, std::size_t>, std::size_t> owner;
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            const auto& p = pieces[k];
            for (std::size_t e = 0; e < p.size(); ++e) {
                owner[{p[e], p[(e + 1) % p.size()]}] = k;
            }
        }
        for (std::size_t k = 0; k < pieces.size() && !merged; ++k) {
            const auto& a = pieces[k];
            if (a.empty()) {
                continue;
            }
            for (std::size_t e = 0; e < a.size() && !merged; ++e) {
                const std::size_t u = a[e], v = a[(e + 1) % a.size()];
                const auto it = owner.find({v, u});
                if (it == owner.end() || it->second == k || pieces[it->second].empty()) {
                    continue;
                }
                const auto& b = pieces[it->second];
                if (a.size() + b.size() - 2 > max_vertices) {
                    continue;
                }
                // a: ... u v ...; b: ... v u ... -> a from v round to u, then b
                // from u round to v, without repeating u and v.
                std::vector<std::size_t> joined;
                for (std::size_t s = 0; s < a.size(); ++s) {
                    joined.push_back(a[(e + 1 + s) % a.size()]); // v ... u
                }
                const std::size_t bu =
                    static_cast<std::size_t>(std::find(b.begin(), b.end(), u) - b.begin());
                for (std::size_t s = 1; s + 1 < b.size(); ++s) {
                    joined.push_back(b[(bu + s) % b.size()]); // after u, before v
                }
                bool convex = true;
                for (std::size_t s = 0; s < joined.size() && convex; ++s) {
                    const PixelPoint p0 = pts[joined[(s + joined.size() - 1) % joined.size()]];
                    const PixelPoint p1 = pts[joined[s]];
                    const PixelPoint p2 = pts[joined[(s + 1) % joined.size()]];
                    convex = cross(p0, p1, p2) >= -eps;
                }
                if (!convex) {
                    continue;
                }
                pieces[k] = std::move(joined);
                pieces[it->second].clear();
                merged = true;
            }
        }
        pieces.erase(
            std::remove_if(pieces.begin(), pieces.end(), [](const auto& p) { return p.empty(); }),
            pieces.end());
    }
    return pieces;
}

} // namespace

Affine Affine::after(const Affine& f) const {
    return {a * f.a + b * f.c, a * f.b + b * f.d,        c * f.a + d * f.c,
            c * f.b + d * f.d, a * f.tx + b * f.ty + tx, c * f.tx + d * f.ty + ty};
}

Affine Affine::rotation_degrees(double degrees) {
    // Exact for multiples of 90 degrees, which maps use most.
    const double turns = degrees / 90.0;
    if (turns == std::trunc(turns) && std::fabs(turns) < 1e9) {
        static constexpr double k_cos[4] = {1, 0, -1, 0};
        static constexpr double k_sin[4] = {0, 1, 0, -1};
        const auto q = static_cast<std::size_t>(((static_cast<long long>(turns) % 4) + 4) % 4);
        return {k_cos[q], -k_sin[q], k_sin[q], k_cos[q], 0, 0};
    }
    const double r = degrees * std::numbers::pi / 180.0;
    const double c = std::cos(r), s = std::sin(r);
    return {c, -s, s, c, 0, 0};
}

double twice_signed_area(std::span<const PixelPoint> polygon) {
    double sum = 0;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
        const PixelPoint p = polygon[i];
        const PixelPoint q = polygon[(i + 1) % polygon.size()];
        sum += p.x * q.y - q.x * p.y;
    }
    return sum;
}

std::vector<PixelPoint> distinct_points(std::span<const PixelPoint> points, bool closed,
                                        double eps) {
    std::vector<PixelPoint> out;
    const double eps2 = eps * eps;
    for (const PixelPoint& p : points) {
        if (out.empty() || distance_squared(out.back(), p) > eps2) {
            out.push_back(p);
        }
    }
    if (closed) {
        while (out.size() > 1 && distance_squared(out.front(), out.back()) <= eps2) {
            out.pop_back();
        }
    }
    return out;
}

std::vector<PixelPoint> drop_collinear(std::span<const PixelPoint> points, bool closed,
                                       double eps) {
    std::vector<PixelPoint> out(points.begin(), points.end());
    bool changed = true;
    while (changed && out.size() > (closed ? 3u : 2u)) {
        changed = false;
        const std::size_t n = out.size();
        for (std::size_t i = closed ? 0 : 1; i < (closed ? n : n - 1); ++i) {
            const PixelPoint a = out[(i + n - 1) % n], p = out[i], b = out[(i + 1) % n];
            const double len = std::sqrt(distance_squared(a, b));
            const bool on_line = std::fabs(cross(a, p, b)) <= eps * std::max(len, eps);
            const bool onward = (p.x - a.x) * (b.x - p.x) + (p.y - a.y) * (b.y - p.y) > 0;
            if (on_line && onward) {
                out.erase(out.begin() + static_cast<std::ptrdiff_t>(i));
                changed = true;
                break;
            }
        }
    }
    return out;
}

std::vector<PixelPoint> ellipse_points(PixelPoint center, PixelPoint u, PixelPoint v, int count) {
    std::vector<PixelPoint> out;
    for (int k = 0; k < count; ++k) {
        const double t = 2 * std::numbers::pi * k / count;
        const double c = std::cos(t), s = std::sin(t);
        out.push_back({center.x + c * u.x + s * v.x, center.y + c * u.y + s * v.y});
    }
    return out;
}

std::vector<PixelPoint> convex_hull(std::span<const PixelPoint> points) {
    std::vector<PixelPoint> p(points.begin(), points.end());
    std::sort(p.begin(), p.end(),
              [](PixelPoint a, PixelPoint b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    p.erase(std::unique(p.begin(), p.end(),
                        [](PixelPoint a, PixelPoint b) { return a.x == b.x && a.y == b.y; }),
            p.end());
    if (p.size() < 3) {
        return p;
    }
    std::vector<PixelPoint> hull(2 * p.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], p[i]) <= 0) {
            --k;
        }
        hull[k++] = p[i];
    }
    for (std::size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
        while (k >= t && cross(hull[k - 2], hull[k - 1], p[i - 1]) <= 0) {
            --k;
        }
        hull[k++] = p[i - 1];
    }
    hull.resize(k - 1);
    return hull;
}

std::vector<std::vector<PixelPoint>> split_convex(std::span<const PixelPoint> polygon,
                                                  std::size_t max_vertices) {
    std::vector<std::vector<PixelPoint>> out;
    std::vector<PixelPoint> rest(polygon.begin(), polygon.end());
    while (rest.size() > max_vertices) {
        // rest[0], rest[1] .. rest[max-1] is one piece; rest[0], rest[max-1] .. remain.
        out.emplace_back(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(max_vertices));
        std::vector<PixelPoint> remainder{rest[0]};
        remainder.insert(remainder.end(),
                         rest.begin() + static_cast<std::ptrdiff_t>(max_vertices - 1), rest.end());
        rest = std::move(remainder);
    }
    if (rest.size() >= 3) {
        out.push_back(std::move(rest));
    }
    return out;
}

Decomposition decompose_convex(std::span<const PixelPoint> polygon, std::size_t max_vertices) {
    Decomposition result;
    const double size = extent_of(polygon);
    if (!(size > 0) || !std::isfinite(size)) {
        return result;
    }
    const double eps_length = size * 1e-9;
    std::vector<PixelPoint> pts = distinct_points(polygon, true, eps_length);
    pts = drop_collinear(pts, true, eps_length);
    if (pts.size() < 3) {
        return result;
    }
    const double area = twice_signed_area(pts);
    const double eps_cross = size * size * 1e-12;
    if (std::fabs(area) <= eps_cross) {
        return result;
    }
    if (area < 0) {
        std::reverse(pts.begin(), pts.end());
    }
    std::vector<std::array<std::size_t, 3>> triangles;
    if (!triangulate(pts, eps_cross, triangles)) {
        result.used_hull = true;
        for (auto& piece : split_convex(convex_hull(pts), max_vertices)) {
            result.pieces.push_back(std::move(piece));
        }
        return result;
    }
    std::vector<std::vector<std::size_t>> pieces;
    for (const auto& t : triangles) {
        pieces.push_back({t[0], t[1], t[2]});
    }
    // Merge into pieces of any size first, then cut the big convex ones: this
    // keeps the count low for round outlines (coins, ellipses).
    pieces = merge_pieces(pts, std::move(pieces), std::max<std::size_t>(max_vertices, pts.size()),
                          eps_cross);
    for (const auto& piece : pieces) {
        std::vector<PixelPoint> outline;
        for (std::size_t index : piece) {
            outline.push_back(pts[index]);
        }
        outline = drop_collinear(outline, true, eps_length);
        if (outline.size() < 3) {
            continue;
        }
        for (auto& part : split_convex(outline, max_vertices)) {
            result.pieces.push_back(std::move(part));
        }
    }
    return result;
}

} // namespace sweep::io::detail
