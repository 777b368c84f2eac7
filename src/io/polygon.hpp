// Private: plane geometry for the loader, in double precision: affine maps
// of Tiled objects, ellipse outlines, cleaning of point lists and the
// decomposition of simple polygons into convex pieces.
#pragma once

#include "map_source.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace sweep::io::detail {

/// The affine map p -> (a x + b y + tx, c x + d y + ty).
struct Affine {
    double a = 1, b = 0, c = 0, d = 1, tx = 0, ty = 0;

    PixelPoint apply(PixelPoint p) const {
        return {a * p.x + b * p.y + tx, c * p.x + d * p.y + ty};
    }
    /// The linear part applied to a vector (no translation).
    PixelPoint apply_linear(PixelPoint v) const { return {a * v.x + b * v.y, c * v.x + d * v.y}; }
    /// This map after `first`: p -> this(first(p)).
    Affine after(const Affine& first) const;
    double determinant() const { return a * d - b * c; }

    static Affine translation(double x, double y) { return {1, 0, 0, 1, x, y}; }
    static Affine scale(double sx, double sy) { return {sx, 0, 0, sy, 0, 0}; }
    /// Rotation by `degrees`, clockwise on screen in Tiled's y-down frame
    /// (the standard rotation matrix, as y points down).
    static Affine rotation_degrees(double degrees);
};

/// Twice the signed area (positive: counter-clockwise in a y-up frame).
double twice_signed_area(std::span<const PixelPoint> polygon);

/// The points without consecutive repeats closer than `eps` (and, for a
/// closed outline, without a last point repeating the first).
std::vector<PixelPoint> distinct_points(std::span<const PixelPoint> points, bool closed,
                                        double eps);

/// The outline without vertices that lie on the line through their
/// neighbours (within `eps` of it) and point onward (no spikes are
/// removed: a vertex where the outline turns back stays).
std::vector<PixelPoint> drop_collinear(std::span<const PixelPoint> points, bool closed, double eps);

/// `count` points on the ellipse centre + cos(t) u + sin(t) v, t = 2 pi k / count.
std::vector<PixelPoint> ellipse_points(PixelPoint center, PixelPoint u, PixelPoint v, int count);

/// The convex pieces of a simple polygon.
struct Decomposition {
    std::vector<std::vector<PixelPoint>> pieces; ///< counter-clockwise, each <= max_vertices
    bool used_hull = false; ///< the outline was not simple: its convex hull was used instead
};

/// Decomposes a simple polygon (either orientation, y up) into convex pieces
/// of at most `max_vertices` (>= 3) vertices.
///
/// Method: ear clipping (Meisters 1975; each ear tested against the reflex
/// vertices only) gives triangles; Hertel and Mehlhorn's rule (1983) then
/// removes every diagonal whose removal leaves both neighbours convex and
/// the merged piece within `max_vertices`, which yields at most four times
/// the minimum number of convex pieces; a convex piece still too large is
/// cut into fans of `max_vertices`. A self-intersecting outline that has no
/// ear left falls back to the hull of its points (used_hull). Degenerate
/// input (under 3 points, zero area) gives no pieces. O(n^2) for n points
/// in practice, O(n^3) at worst.
Decomposition decompose_convex(std::span<const PixelPoint> polygon, std::size_t max_vertices);

/// The convex hull (counter-clockwise, no collinear points) of `points`
/// (Andrew's monotone chain, 1979).
std::vector<PixelPoint> convex_hull(std::span<const PixelPoint> points);

/// Cuts a convex counter-clockwise polygon into fans of at most
/// `max_vertices` vertices sharing its first vertex.
std::vector<std::vector<PixelPoint>> split_convex(std::span<const PixelPoint> polygon,
                                                  std::size_t max_vertices);

} // namespace sweep::io::detail
