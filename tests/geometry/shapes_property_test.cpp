// Mass properties of random convex polygons against a fine numerical
// integration (fixed seeds): the polygon is cut into thin horizontal strips;
// on each strip the x-extent is exact (intersection with every edge) and the
// moments in x are integrated in closed form, in y by the midpoint rule.
#include "sweep/shapes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"

namespace sweep {
namespace {

struct Moments {
    double area = 0;
    test::D2 centroid;
    double polar_about_centroid = 0; ///< integral of |x - c|^2 dA
};

/// Sums of a strip integration: a horizontal strip [x_lo, x_hi] at height y
/// of thickness h adds its area and moments (exact in x, midpoint in y).
struct StripSums {
    double area = 0, mx = 0, my = 0, ixx = 0, iyy = 0;

    void add(double y, double x_lo, double x_hi, double h) {
        if (!(x_hi > x_lo)) {
            return;
        }
        const double w = x_hi - x_lo;
        area += w * h;
        mx += 0.5 * (x_hi * x_hi - x_lo * x_lo) * h;
        my += y * w * h;
        ixx += (x_hi * x_hi * x_hi - x_lo * x_lo * x_lo) / 3 * h;
        iyy += y * y * w * h;
    }

    Moments moments() const {
        Moments m;
        m.area = area;
        m.centroid = {mx / area, my / area};
        // Parallel axis theorem: about the centroid.
        m.polar_about_centroid = ixx + iyy - area * test::dot(m.centroid, m.centroid);
        return m;
    }
};

Moments integrate(const Polygon& polygon, int strips) {
    double y_min = std::numeric_limits<double>::infinity();
    double y_max = -y_min;
    for (int i = 0; i < polygon.count; ++i) {
        y_min = std::min(y_min, double(polygon.vertices[i].y));
        y_max = std::max(y_max, double(polygon.vertices[i].y));
    }
    const double h = (y_max - y_min) / strips;
    StripSums sums;
    for (int k = 0; k < strips; ++k) {
        const double y = y_min + (k + 0.5) * h;
        double x_lo = std::numeric_limits<double>::infinity();
        double x_hi = -x_lo;
        for (int i = 0; i < polygon.count; ++i) {
            const test::D2 a = test::to_d2(polygon.vertices[i]);
            const test::D2 b = test::to_d2(polygon.vertices[(i + 1) % polygon.count]);
            if ((a.y - y) * (b.y - y) > 0 || a.y == b.y) {
                continue; // the edge does not cross this line
            }
            const double x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x);
            x_lo = std::min(x_lo, x);
            x_hi = std::max(x_hi, x);
        }
        sums.add(y, x_lo, x_hi, h);
    }
    return sums.moments();
}

/// The x-interval where the line at height y crosses the convex polygon
/// `points` (counter-clockwise or not), widened into [lo, hi]; untouched
/// when the line misses it.
void widen_by_polygon(const std::vector<test::D2>& points, double y, double& lo, double& hi) {
    for (std::size_t i = 0; i < points.size(); ++i) {
        const test::D2 a = points[i];
        const test::D2 b = points[(i + 1) % points.size()];
        if ((a.y - y) * (b.y - y) > 0 || a.y == b.y) {
            continue;
        }
        const double x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
}

/// The rounded polygon as the union of its core, a rectangle of depth r on
/// each edge and a disc at each vertex: a convex set, so each horizontal
/// line meets it in one interval, the hull of the pieces' intervals.
Moments integrate_rounded(const Polygon& polygon, int strips) {
    const double r = polygon.radius;
    std::vector<test::D2> core;
    for (int i = 0; i < polygon.count; ++i) {
        core.push_back(test::to_d2(polygon.vertices[i]));
    }
    std::vector<std::vector<test::D2>> rectangles;
    for (std::size_t i = 0; i < core.size(); ++i) {
        const test::D2 a = core[i];
        const test::D2 b = core[(i + 1) % core.size()];
        const test::D2 e = (1 / test::norm(b - a)) * (b - a);
        const test::D2 n{r * e.y, -r * e.x};
        rectangles.push_back({a, b, b + n, a + n});
    }
    double y_min = std::numeric_limits<double>::infinity();
    double y_max = -y_min;
    for (const test::D2 v : core) {
        y_min = std::min(y_min, v.y - r);
        y_max = std::max(y_max, v.y + r);
    }
    const double h = (y_max - y_min) / strips;
    StripSums sums;
    for (int k = 0; k < strips; ++k) {
        const double y = y_min + (k + 0.5) * h;
        double x_lo = std::numeric_limits<double>::infinity();
        double x_hi = -x_lo;
        widen_by_polygon(core, y, x_lo, x_hi);
        for (const auto& rectangle : rectangles) {
            widen_by_polygon(rectangle, y, x_lo, x_hi);
        }
        for (const test::D2 v : core) {
            const double dy = y - v.y;
            if (std::abs(dy) < r) {
                const double half = std::sqrt(r * r - dy * dy);
                x_lo = std::min(x_lo, v.x - half);
                x_hi = std::max(x_hi, v.x + half);
            }
        }
        sums.add(y, x_lo, x_hi, h);
    }
    return sums.moments();
}

TEST(ComputeMassProperty, RoundedPolygonsAndCapsulesMatchNumericalIntegration) {
    // The exact pieces (core, edge rectangles, vertex sectors) against a
    // strip integration of the same set computed independently.
    std::mt19937 rng(4321);
    const int cases = test::property_cases(2000);
    for (int c = 0; c < cases; ++c) {
        Polygon polygon;
        if (c % 3 == 0) {
            const Vec2 p1{real(test::uniform(rng, -1, 1)), real(test::uniform(rng, -1, 1))};
            const Vec2 p2 =
                p1 + Vec2{real(test::uniform(rng, 0.1, 2)), real(test::uniform(rng, -2, 2))};
            polygon = capsule_polygon({p1, p2, real(test::uniform(rng, 0.02, 1))});
        } else {
            polygon =
                test::random_polygon(rng, test::uniform_int(rng, 3, 8), test::uniform(rng, 0.2, 3),
                                     0.05, test::uniform(rng, 0.01, 1));
        }
        const double density = test::uniform(rng, 0.1, 10);
        const MassData mass = compute_mass(polygon, real(density));
        const Moments ref = integrate_rounded(polygon, 20000);
        SCOPED_TRACE("case " + std::to_string(c) + " radius " + std::to_string(polygon.radius));
        EXPECT_NEAR(mass.mass, density * ref.area, 2e-4 * density * ref.area);
        EXPECT_NEAR(mass.center.x, ref.centroid.x, 2e-4);
        EXPECT_NEAR(mass.center.y, ref.centroid.y, 2e-4);
        EXPECT_NEAR(mass.rotational_inertia, density * ref.polar_about_centroid,
                    4e-4 * density * ref.polar_about_centroid);
    }
}

TEST(ComputeMassProperty, RandomConvexPolygonMatchesNumericalIntegration) {
    std::mt19937 rng(1234);
    const int cases = test::property_cases(10000);
    for (int c = 0; c < cases; ++c) {
        const Polygon polygon =
            test::random_polygon(rng, test::uniform_int(rng, 3, 12), test::uniform(rng, 0.2, 3));
        const double density = test::uniform(rng, 0.1, 10);
        const MassData mass = compute_mass(polygon, real(density));
        const Moments ref = integrate(polygon, 20000);
        SCOPED_TRACE("case " + std::to_string(c));
        EXPECT_NEAR(mass.mass, density * ref.area, 1e-4 * density * ref.area);
        EXPECT_NEAR(mass.center.x, ref.centroid.x, 1e-4);
        EXPECT_NEAR(mass.center.y, ref.centroid.y, 1e-4);
        EXPECT_NEAR(mass.rotational_inertia, density * ref.polar_about_centroid,
                    2e-4 * density * ref.polar_about_centroid);
        // The centroid of make_polygon is the centre of mass.
        EXPECT_NEAR(polygon.centroid.x, ref.centroid.x, 1e-4);
        EXPECT_NEAR(polygon.centroid.y, ref.centroid.y, 1e-4);
    }
}

TEST(ComputeMassProperty, RotatedOffsetBoxesMatchTheClosedForm) {
    // m = 4 hx hy rho and I = m (w^2 + h^2) / 12 wherever the box is.
    std::mt19937 rng(99);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const double hx = test::uniform(rng, 0.05, 4);
        const double hy = test::uniform(rng, 0.05, 4);
        const double rho = test::uniform(rng, 0.1, 5);
        const test::D2 center{test::uniform(rng, -10, 10), test::uniform(rng, -10, 10)};
        auto box = make_offset_box(real(hx), real(hy), {real(center.x), real(center.y)},
                                   real(test::uniform(rng, -7, 7)));
        ASSERT_TRUE(box);
        const MassData mass = compute_mass(*box, real(rho));
        const double m = 4 * hx * hy * rho;
        EXPECT_NEAR(mass.mass, m, 1e-4 * m);
        EXPECT_NEAR(mass.rotational_inertia, m * (4 * hx * hx + 4 * hy * hy) / 12,
                    2e-4 * m * (hx * hx + hy * hy));
        EXPECT_NEAR(mass.center.x, center.x, 1e-4);
        EXPECT_NEAR(mass.center.y, center.y, 1e-4);
    }
}

} // namespace
} // namespace sweep
