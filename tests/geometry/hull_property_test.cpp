// compute_hull and make_polygon against brute force on random point clouds
// (fixed seeds): the hull is right when every input point is inside it and
// every hull vertex is an input point (then it is the convex hull: it holds
// the hull and is held by it).
#include "sweep/hull.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/shapes.hpp"

namespace sweep {
namespace {

using test::uniform;
using test::uniform_int;

/// One of four kinds of cloud: uniform in a square; on a circle (every point
/// a hull vertex); on a small integer lattice (many exactly collinear and
/// repeated points); a few clusters with exact duplicates.
std::vector<Vec2> random_cloud(std::mt19937& rng, int kind) {
    const int n = uniform_int(rng, 1, 40);
    std::vector<Vec2> points;
    for (int i = 0; i < n; ++i) {
        switch (kind) {
        case 0:
            points.push_back({real(uniform(rng, -5, 5)), real(uniform(rng, -5, 5))});
            break;
        case 1: {
            const double a = uniform(rng, 0, 6.283185307179586);
            points.push_back({real(3 * std::cos(a)), real(3 * std::sin(a))});
            break;
        }
        case 2:
            points.push_back({real(uniform_int(rng, -2, 2)), real(uniform_int(rng, -2, 2))});
            break;
        default:
            if (!points.empty() && uniform_int(rng, 0, 2) == 0) {
                points.push_back(points[uniform_int(rng, 0, int(points.size()) - 1)]);
            } else {
                points.push_back({real(uniform(rng, -1, 1)), real(uniform(rng, -1, 1))});
            }
        }
    }
    return points;
}

/// Brute force: true when three of the points make a triangle whose least
/// altitude (twice its area over its longest side) exceeds `width`: then no
/// strip that wide holds the points, as a triangle in a strip has an
/// altitude no longer than the strip's width (exact for the lattice; in
/// double otherwise, far above rounding).
bool spans_a_triangle_wider_than(const std::vector<Vec2>& p, double width) {
    for (std::size_t i = 0; i < p.size(); ++i) {
        for (std::size_t j = i + 1; j < p.size(); ++j) {
            for (std::size_t k = j + 1; k < p.size(); ++k) {
                const test::D2 a = test::to_d2(p[i]);
                const test::D2 b = test::to_d2(p[j]);
                const test::D2 c = test::to_d2(p[k]);
                const double longest =
                    std::max({test::norm(b - a), test::norm(c - b), test::norm(a - c)});
                if (std::abs(test::cross(b - a, c - a)) > width * longest) {
                    return true;
                }
            }
        }
    }
    return false;
}

/// The hull checks shared by compute_hull and make_polygon (<= 8 vertices).
void expect_is_hull_of(const std::vector<Vec2>& hull, const std::vector<Vec2>& points,
                       bool all_inside) {
    const std::size_t n = hull.size();
    ASSERT_GE(n, 3u);
    for (std::size_t i = 0; i < n; ++i) {
        // Every vertex is one of the input points, exactly.
        EXPECT_NE(std::find(points.begin(), points.end(), hull[i]), points.end());
        // Strictly convex and counter-clockwise: no collinear or repeated vertex.
        const test::D2 a = test::to_d2(hull[i]);
        const test::D2 b = test::to_d2(hull[(i + 1) % n]);
        const test::D2 c = test::to_d2(hull[(i + 2) % n]);
        EXPECT_GT(test::cross(b - a, c - b), 0);
        if (!all_inside) {
            continue;
        }
        // Every input point is on the inner side of edge a-b (up to the weld
        // distance 1e-5, by which a merged point may stick out).
        const double len = test::norm(b - a);
        for (Vec2 p : points) {
            EXPECT_GE(test::cross(b - a, test::to_d2(p) - a) / len, -2e-5);
        }
    }
}

TEST(ComputeHullProperty, EveryInputPointInsideAndEveryVertexAnInputPoint) {
    std::mt19937 rng(20240601);
    const int cases = test::property_cases(100000);
    int hulls = 0;
    for (int c = 0; c < cases; ++c) {
        const int kind = c % 4;
        const std::vector<Vec2> points = random_cloud(rng, kind);
        auto hull = compute_hull(points);
        if (!hull) {
            // Only degenerate clouds may be refused, and with the right
            // code: points within the weld distance of one line, or merged
            // within it of such a point, a strip 4 weld distances wide (a
            // triangle 9.5e-6 L high, at 20 times the cases, is one).
            EXPECT_EQ(hull.error().code, ErrorCode::degenerate_shape);
            EXPECT_FALSE(spans_a_triangle_wider_than(points, 4 * double(k_hull_weld_distance)))
                << "case " << c;
            continue;
        }
        ++hulls;
        SCOPED_TRACE("case " + std::to_string(c));
        expect_is_hull_of(*hull, points, true);
    }
    EXPECT_GT(hulls, cases / 2); // the generator mostly makes proper clouds
}

TEST(MakePolygonProperty, IsTheHullCappedAtEightVerticesWithOutwardNormals) {
    std::mt19937 rng(7);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const std::vector<Vec2> points = random_cloud(rng, c % 4);
        auto hull = compute_hull(points);
        auto polygon = make_polygon(points);
        ASSERT_EQ(bool(hull), bool(polygon));
        if (!polygon) {
            continue;
        }
        SCOPED_TRACE("case " + std::to_string(c));
        const std::vector<Vec2> vertices(polygon->vertices.begin(),
                                         polygon->vertices.begin() + polygon->count);
        const bool fits = hull->size() <= std::size_t(k_max_polygon_vertices);
        EXPECT_EQ(polygon->count, fits ? int(hull->size()) : k_max_polygon_vertices);
        // Capped polygons drop hull points, which then lie outside.
        expect_is_hull_of(vertices, points, fits);
        double area2 = 0;
        test::D2 centroid_sum{};
        for (int i = 0; i < polygon->count; ++i) {
            const Vec2 a = polygon->vertices[i];
            const Vec2 b = polygon->vertices[(i + 1) % polygon->count];
            const Vec2 n = polygon->normals[i];
            EXPECT_NEAR(length(n), 1, 1e-5);
            EXPECT_NEAR(dot(n, b - a) / length(b - a), 0, 1e-5);
            // Outward: every vertex lies behind the face (convex polygon).
            for (int j = 0; j < polygon->count; ++j) {
                EXPECT_LE(dot(n, polygon->vertices[j] - a), 1e-5)
                    << "normal " << i << " points inward";
            }
            const double w = test::cross(test::to_d2(a), test::to_d2(b));
            area2 += w;
            centroid_sum = centroid_sum + (w / 3) * (test::to_d2(a) + test::to_d2(b));
        }
        // Centroid by the shoelace formula in double.
        EXPECT_NEAR(polygon->centroid.x, centroid_sum.x / area2, 1e-4);
        EXPECT_NEAR(polygon->centroid.y, centroid_sum.y / area2, 1e-4);
    }
}

// Whether every vertex of `polygon` lies farther than `clearance` (L) from
// the line through the points `fraction` of the way along its two edges:
// then no chord between points farther along those edges passes nearer.
bool corners_stand_out(const Polygon& polygon, double fraction, double clearance) {
    for (int i = 0; i < polygon.count; ++i) {
        const test::D2 v = test::to_d2(polygon.vertices[std::size_t(i)]);
        const test::D2 u =
            test::to_d2(polygon.vertices[std::size_t((i + polygon.count - 1) % polygon.count)]);
        const test::D2 w = test::to_d2(polygon.vertices[std::size_t((i + 1) % polygon.count)]);
        const test::D2 a = v + fraction * (u - v);
        const test::D2 b = v + fraction * (w - v);
        if (std::abs(test::cross(b - a, v - a)) <= clearance * test::norm(b - a)) {
            return false;
        }
    }
    return true;
}

// Random convex polygons (their vertices kept as they are by make_polygon),
// with up to three points added a hair outside edges: 1e-9 to 1e-6 L beyond
// a random point of the edge, where each is a vertex of the exact hull that
// the narrowphase cannot use (its two faces' normals tie to rounding).
// make_polygon drops every one and keeps the polygon's own vertices, in
// their order. (Where a corner is itself nearly flat, within the weld
// distance of the edge from a hair to the next vertex, either may go: a
// corner turning 2e-4 rad gave way to a hair 0.047 L along its edge, at 20
// times the cases. The polygons here have corners 10 weld distances clear
// of any such edge.)
// The width of the convex polygon `hull` (counter-clockwise), in double:
// the least over its edges of its farthest vertex's distance from the
// edge's line (a convex polygon's width is attained against an edge).
double brute_width(const std::vector<Vec2>& hull) {
    double width = std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < hull.size(); ++i) {
        const Vec2 a = hull[i];
        const Vec2 b = hull[(i + 1) % hull.size()];
        const double ex = double(b.x) - a.x;
        const double ey = double(b.y) - a.y;
        double farthest = 0;
        for (const Vec2 v : hull) {
            farthest = std::max(farthest, ex * (double(v.y) - a.y) - ey * (double(v.x) - a.x));
        }
        width = std::min(width, farthest / std::hypot(ex, ey));
    }
    return width;
}

// Whether no point appears twice in `hull`.
bool all_distinct(std::vector<Vec2> hull) {
    std::sort(hull.begin(), hull.end(),
              [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    return std::adjacent_find(hull.begin(), hull.end()) == hull.end();
}

TEST(MakePolygonProperty, RefusesTheHullsThinnerThanTheWeldDistanceAndNoOthers) {
    // Clouds of 3 to 8 points in a strip 3e-6 to 0.1 L wide, 0.2 to 2e5 L
    // long, at any angle, half far from the origin: make_polygon refuses a
    // hull whose width is under k_hull_weld_distance or 8 float epsilons of
    // its largest coordinate, and takes the others. The width in double
    // decides, away from that threshold by more than the width's rounding
    // in `real` (its products of lengths, which cancel to the width, round
    // by a few epsilons of the largest coordinate: 6 of them) and 1 %.
    std::mt19937 rng(41);
    const int cases = test::property_cases(100000);
    int thin = 0;
    int wide = 0;
    for (int c = 0; c < cases; ++c) {
        const double length = std::pow(10.0, uniform(rng, -1, 5));
        const double strip = std::pow(10.0, uniform(rng, -5.5, -1));
        const double angle = uniform(rng, -3.2, 3.2);
        const double far = c % 2 == 0 ? std::pow(10.0, uniform(rng, 0, 5)) : 0;
        std::vector<Vec2> points;
        for (int i = uniform_int(rng, 3, 8); i > 0; --i) {
            const double along = uniform(rng, -length, length);
            const double across = uniform(rng, -strip, strip);
            points.push_back({real(far + along * std::cos(angle) - across * std::sin(angle)),
                              real(-far + along * std::sin(angle) + across * std::cos(angle))});
        }
        const auto hull = compute_hull(points);
        if (!hull) { // welded to a line, or fewer than 3 points
            ASSERT_FALSE(make_polygon(points));
            continue;
        }
        SCOPED_TRACE("case " + std::to_string(c));
        // (The upper chain once judged three nearly collinear points
        // otherwise than the lower one, and kept the middle one in both.)
        ASSERT_TRUE(all_distinct(*hull))
            << ::testing::PrintToString(points) << " -> " << ::testing::PrintToString(*hull);
        double extent = 0;
        for (const Vec2 v : *hull) {
            extent = std::max({extent, double(std::abs(v.x)), double(std::abs(v.y))});
        }
        const double least = std::max(double(k_hull_weld_distance),
                                      8 * double(std::numeric_limits<real>::epsilon()) * extent);
        const double width = brute_width(*hull);
        const double band =
            0.01 * least + 6 * double(std::numeric_limits<real>::epsilon()) * extent;
        const auto polygon = make_polygon(points);
        SCOPED_TRACE("width " + std::to_string(width));
        if (width < least - band) {
            ++thin;
            ASSERT_FALSE(polygon);
            EXPECT_EQ(polygon.error().code, ErrorCode::degenerate_shape);
        } else if (width > least + band) {
            ++wide;
            ASSERT_TRUE(polygon) << polygon.error().message;
        }
    }
    // Both sides of the threshold are met often. (In double the rounding's
    // share is far below the weld distance, and a hull thinner than that
    // has a vertex the hull drops: few thin ones are left to refuse.)
    EXPECT_GT(thin, cases / (sizeof(real) == 4 ? 10 : 1000));
    EXPECT_GT(wide, cases / 10);
}

TEST(MakePolygonProperty, DropsPointsAHairOutsideAnEdgeAndKeepsTheCorners) {
    std::mt19937 rng(31);
    const int cases = test::property_cases(20000);
    int skipped = 0;
    for (int c = 0; c < cases; ++c) {
        const Polygon polygon = test::random_polygon(rng, uniform_int(rng, 3, 8), 2.0, 0.05);
        if (!corners_stand_out(polygon, 0.2, 10 * double(k_hull_weld_distance))) {
            ++skipped;
            continue;
        }
        std::vector<Vec2> points(polygon.vertices.begin(),
                                 polygon.vertices.begin() + polygon.count);
        const int hairs = uniform_int(rng, 1, 3);
        for (int h = 0; h < hairs; ++h) {
            const int i = uniform_int(rng, 0, polygon.count - 1);
            const test::D2 a = test::to_d2(polygon.vertices[std::size_t(i)]);
            const test::D2 b = test::to_d2(polygon.vertices[std::size_t((i + 1) % polygon.count)]);
            const test::D2 along = a + uniform(rng, 0.2, 0.8) * (b - a);
            const test::D2 out = (1 / test::norm(b - a)) * test::D2{b.y - a.y, a.x - b.x};
            const Vec2 hair{real(along.x + std::pow(10.0, uniform(rng, -9, -6)) * out.x),
                            real(along.y + std::pow(10.0, uniform(rng, -9, -6)) * out.y)};
            points.insert(points.begin() + uniform_int(rng, 0, int(points.size())), hair);
        }
        const Polygon made = make_polygon(points).value();
        SCOPED_TRACE("case " + std::to_string(c));
        ASSERT_EQ(made.count, polygon.count);
        // The same cycle of vertices, from wherever the hull starts it.
        const auto first = std::find(polygon.vertices.begin(),
                                     polygon.vertices.begin() + polygon.count, made.vertices[0]);
        ASSERT_NE(first, polygon.vertices.begin() + polygon.count);
        const auto offset = static_cast<int>(first - polygon.vertices.begin());
        for (int i = 0; i < made.count; ++i) {
            EXPECT_EQ(made.vertices[std::size_t(i)],
                      polygon.vertices[std::size_t((i + offset) % polygon.count)]);
        }
    }
    EXPECT_LT(skipped, cases / 100); // (nearly flat corners are rare)
}

} // namespace
} // namespace sweep
