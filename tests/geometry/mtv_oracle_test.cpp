// mtv_polygons against Box2D 2.4.1 (fixed seeds): the penetration depth of
// two overlapping convex polygons equals the deepest point of
// b2CollidePolygons. Float builds with Box2D only (like box2d_oracle_test).
//
// Box2D's polygons carry a skin (m_radius = b2_polygonRadius); ours are made
// with the same rounding radius, and b2WorldManifold's separations are
// measured between the skins, as ours. Box2D prefers A's reference face unless
// B's separates more by 0.1 * b2_linearSlop, so its deepest point may be up to
// that much deeper than the separating-axis maximum we report.
#include <box2d/box2d.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <random>
#include <string>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/mtv.hpp"

namespace sweep {
namespace {

static_assert(std::is_same_v<real, float>, "the Box2D oracle compares single-precision builds");

b2Transform to_box2d(const Transform& xf) {
    b2Transform out;
    out.p.Set(xf.p.x, xf.p.y);
    out.q.c = xf.q.c;
    out.q.s = xf.q.s;
    return out;
}

/// Box2D's polygon for ours with the given skin; false when Box2D's hull
/// (which welds close points) differs from ours.
bool to_box2d(const Polygon& polygon, float skin, b2PolygonShape& out) {
    std::array<b2Vec2, k_max_polygon_vertices> v{};
    for (int i = 0; i < polygon.count; ++i) {
        v[i].Set(polygon.vertices[i].x, polygon.vertices[i].y);
    }
    out.Set(v.data(), polygon.count);
    out.m_radius = skin;
    return out.m_count == polygon.count;
}

TEST(Box2DOracle, MtvPolygonDepthMatchesB2CollidePolygonsDeepestPoint) {
    std::mt19937 rng(2501);
    const int cases = test::property_cases(10000);
    const float skin = b2_polygonRadius;
    int compared = 0;
    for (int c = 0; c < cases; ++c) {
        const Polygon a = test::random_polygon(rng, test::uniform_int(rng, 3, 8),
                                               test::uniform(rng, 0.2, 1.5), 0.05, skin);
        const Polygon b = test::random_polygon(rng, test::uniform_int(rng, 3, 8),
                                               test::uniform(rng, 0.2, 1.5), 0.05, skin);
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        const Transform xfb = test::to_transform(test::random_pose(rng, 1.5));
        b2PolygonShape ba;
        b2PolygonShape bb;
        if (!to_box2d(a, skin, ba) || !to_box2d(b, skin, bb)) {
            continue;
        }
        const Mtv ours = mtv_polygons(a, xfa, b, xfb);
        // Only cores that overlap (Box2D's polygon manifold then always has
        // points), away from the start of contact.
        if (ours.separation > -2 * skin - 1e-3f) {
            continue;
        }
        b2Manifold m;
        b2CollidePolygons(&m, &ba, to_box2d(xfa), &bb, to_box2d(xfb));
        SCOPED_TRACE("case " + std::to_string(c));
        ASSERT_GT(m.pointCount, 0);
        b2WorldManifold wm;
        wm.Initialize(&m, to_box2d(xfa), skin, to_box2d(xfb), skin);
        float deepest = std::numeric_limits<float>::infinity();
        for (int i = 0; i < m.pointCount; ++i) {
            deepest = std::min(deepest, wm.separations[i]);
        }
        ++compared;
        // Box2D keeps A's face unless B's separates more by 0.1 * slop, so
        // its deepest point may be that much deeper than the separating-axis
        // maximum, never shallower.
        EXPECT_GE(deepest, ours.separation - 0.1f * b2_linearSlop - 2e-4f);
        EXPECT_LE(deepest, ours.separation + 2e-4f);
        // Box2D's normal points from A to B too; on a clear face choice
        // (the same face up to the hysteresis) it is ours.
        if (std::abs(deepest - ours.separation) < 1e-5f) {
            EXPECT_GT(wm.normal.x * ours.normal.x + wm.normal.y * ours.normal.y, 0.999f);
        }
    }
    EXPECT_GT(compared, cases / 10);
}

} // namespace
} // namespace sweep
