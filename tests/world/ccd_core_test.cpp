// The core the final sweep of a touching body casts (shrink_proxy in
// src/world_impl.hpp): the shape moved inward by the core depth. Checked by
// support functions, h(d) = max over the proxy's points of dot(p, d) plus
// its radius: the core of a shape thicker than the depth lies within the
// shape eroded by the depth in every direction, and reaches it exactly
// along the polygon's face normals when the shape is thicker than twice the
// depth (otherwise a body touching a floor could sink through it as far as
// the core allows). Thinner shapes shrink to their centroid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "sweep/distance.hpp"
#include "sweep/shapes.hpp"
#include "world_impl.hpp"

namespace sweep {
namespace {

real support(const ShapeProxy& p, Vec2 d) {
    real h = -std::numeric_limits<real>::max();
    for (int i = 0; i < p.count; ++i) {
        h = std::max(h, dot(p.points[i], d));
    }
    return h + p.radius;
}

TEST(CcdCore, ShrinkProxyErodesThePolygonByTheDepth) {
    std::mt19937 rng(23);
    std::uniform_real_distribution<real> unit(0, 1);
    const real depth = k_core_shrink * k_linear_slop;
    int exact = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        // A random convex polygon 0.1 to 1 L across, rounded by 0 to 3 depths.
        const int n = 3 + trial % 6;
        const real size = real(0.05) + real(0.45) * unit(rng);
        std::vector<Vec2> points;
        for (int i = 0; i < n; ++i) {
            const real angle = (real(i) + real(0.8) * unit(rng)) * 2 * real(3.14159265) / real(n);
            points.push_back({size * std::cos(angle), size * std::sin(angle)});
        }
        const real radius = trial % 4 == 0 ? 0 : 3 * depth * unit(rng);
        const Result<Polygon> polygon = make_polygon(points, radius);
        if (!polygon) {
            continue;
        }
        const ShapeProxy proxy = make_proxy(Shape(*polygon));
        const ShapeProxy core = shrink_proxy(proxy, depth);
        // The polygon's inner radius about its centroid.
        real inner = std::numeric_limits<real>::max();
        for (int i = 0; i < polygon->count; ++i) {
            inner = std::min(inner, dot(polygon->vertices[i] - polygon->centroid,
                                        polygon->normals[i]) + polygon->radius);
        }
        if (inner <= depth) {
            continue; // no erosion by the depth exists: the centroid fallback's business
        }
        for (int k = 0; k < 64; ++k) {
            const real angle = real(k) * 2 * real(3.14159265) / 64;
            const Vec2 d{std::cos(angle), std::sin(angle)};
            ASSERT_LE(support(core, d), support(proxy, d) - depth + real(1e-5))
                << "trial " << trial << ", direction " << k;
        }
        if (inner > 2 * depth) {
            ++exact;
            for (int i = 0; i < polygon->count; ++i) {
                const Vec2 normal = polygon->normals[i];
                ASSERT_NEAR(support(core, normal), support(proxy, normal) - depth, 1e-5f)
                    << "trial " << trial << ", face " << i << ", radius " << radius;
            }
        }
    }
    EXPECT_GT(exact, 1000);
}

} // namespace
} // namespace sweep
