// Minimum translation vectors on random pairs (fixed seeds), checked with the
// reference geometry: moving A by the MTV (and a hair further) leaves the
// shapes exactly touching; no shorter move along any other direction
// separates them; separated pairs report the reference distance; polygon
// depths equal the brute-force separating-axis value and collide_polygons'
// deepest point.
#include "sweep/mtv.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"

namespace sweep {
namespace {

using test::k_length_eps;
using test::uniform;

/// One side of a pair as the reference sees it: a proxy and its placement.
struct Side {
    ShapeProxy proxy;
    Transform xf;
};

double separation(const Side& a, Vec2 move_a, const Side& b) {
    Transform xfa = a.xf;
    xfa.p += move_a;
    return test::separation(a.proxy, xfa, b.proxy, b.xf);
}

Aabb random_aabb(std::mt19937& rng, double range) {
    const double cx = uniform(rng, -range, range);
    const double cy = uniform(rng, -range, range);
    const double hx = uniform(rng, 0.1, 1.2);
    const double hy = uniform(rng, 0.1, 1.2);
    return {{real(cx - hx), real(cy - hy)}, {real(cx + hx), real(cy + hy)}};
}

Side aabb_side(const Aabb& box) {
    const Vec2 pts[4] = {
        box.lower, {box.upper.x, box.lower.y}, box.upper, {box.lower.x, box.upper.y}};
    return {make_proxy(pts, 0), k_identity};
}

Circle random_circle(std::mt19937& rng) {
    return {{real(uniform(rng, -0.3, 0.3)), real(uniform(rng, -0.3, 0.3))},
            real(uniform(rng, 0.1, 1.0))};
}

/// A random pair of kind 0..4 (circles, circle/AABB, circle/OBB, AABBs,
/// polygons) with its MTV and the reference's view of both sides.
struct Pair {
    Side a;
    Side b;
    Mtv mtv;
    int kind = 0;
};

Pair random_pair(std::mt19937& rng, int kind) {
    Pair p;
    p.kind = kind;
    const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
    const Transform xfb = test::to_transform(test::random_pose(rng, 1.8));
    switch (kind) {
    case 0: {
        const Circle a = random_circle(rng);
        const Circle b = random_circle(rng);
        p.mtv = mtv_circles(a, xfa, b, xfb);
        p.a = {make_proxy(Shape{a}), xfa};
        p.b = {make_proxy(Shape{b}), xfb};
        break;
    }
    case 1: {
        const Circle a = random_circle(rng);
        const Aabb b = random_aabb(rng, 1.8);
        p.mtv = mtv_circle_aabb(a, xfa, b);
        p.a = {make_proxy(Shape{a}), xfa};
        p.b = aabb_side(b);
        break;
    }
    case 2: {
        const Circle a = random_circle(rng);
        const Polygon b =
            make_offset_box(real(uniform(rng, 0.1, 1.2)), real(uniform(rng, 0.1, 1.2)),
                            {real(uniform(rng, -0.3, 0.3)), real(uniform(rng, -0.3, 0.3))},
                            real(uniform(rng, -3, 3)))
                .value();
        p.mtv = mtv_circle_obb(a, xfa, b, xfb);
        p.a = {make_proxy(Shape{a}), xfa};
        p.b = {make_proxy(Shape{b}), xfb};
        break;
    }
    case 3: {
        const Aabb a = random_aabb(rng, 0.5);
        const Aabb b = random_aabb(rng, 1.8);
        p.mtv = mtv_aabbs(a, b);
        p.a = aabb_side(a);
        p.b = aabb_side(b);
        break;
    }
    default: {
        const Shape a = test::random_shape(rng, test::uniform_int(rng, 0, 1));
        const Shape b = test::random_shape(rng, test::uniform_int(rng, 0, 1));
        p.mtv = mtv_polygons(a.polygon, xfa, b.polygon, xfb);
        p.a = {make_proxy(a), xfa};
        p.b = {make_proxy(b), xfb};
        break;
    }
    }
    return p;
}

TEST(MtvProperty, MovingAByTheMtvLeavesThemTouching) {
    std::mt19937 rng(5001);
    const int cases = test::property_cases(100000);
    const double nudge = 1e-2;
    int overlapping = 0;
    int separated = 0;
    for (int n = 0; n < cases; ++n) {
        const Pair p = random_pair(rng, n % 5);
        const Mtv& m = p.mtv;
        SCOPED_TRACE("case " + std::to_string(n) + " kind " + std::to_string(p.kind) +
                     " separation " + std::to_string(m.separation));
        ASSERT_NE(m.state, MtvState::invalid_input);
        ASSERT_NEAR(length(m.normal), 1, 1e-5);
        const double before = separation(p.a, {}, p.b);
        if (m.separation < 0) {
            ++overlapping;
            // A hair beyond the MTV, the gap is exactly that hair (the
            // closest features face each other along the normal).
            const Vec2 out = m.translation - real(nudge) * m.normal;
            EXPECT_NEAR(separation(p.a, out, p.b), nudge, 10 * k_length_eps);
            EXPECT_LE(before, 1e-9); // the reference agrees they overlap
        } else {
            ++separated;
            EXPECT_NEAR(before, m.separation, 10 * k_length_eps);
            // Moving A toward B along the normal by all but a hair of the gap
            // leaves that hair: the normal joins the closest points.
            const Vec2 in = (m.separation - real(nudge)) * m.normal;
            if (m.separation > nudge) {
                EXPECT_NEAR(separation(p.a, in, p.b), nudge, 10 * k_length_eps);
            }
        }
    }
    EXPECT_GT(overlapping, cases / 10);
    EXPECT_GT(separated, cases / 10);
}

TEST(MtvProperty, NoShorterTranslationInAnyDirectionSeparates) {
    // The set of overlapping translations of A is convex and holds 0, so A
    // moved by just under the depth along any direction still overlaps B.
    std::mt19937 rng(5002);
    const int cases = test::property_cases(100000);
    const double margin = 2e-3;
    int checked = 0;
    for (int n = 0; n < cases; ++n) {
        const Pair p = random_pair(rng, n % 5);
        const double depth = -double(p.mtv.separation);
        if (depth < 2 * margin) {
            continue;
        }
        ++checked;
        for (int k = 0; k < 8; ++k) {
            const double angle = uniform(rng, -3.14159, 3.14159);
            const Vec2 u{real(std::cos(angle)), real(std::sin(angle))};
            const double s = separation(p.a, real(depth - margin) * u, p.b);
            ASSERT_LE(s, 1e-9) << "case " << n << " kind " << p.kind << " depth " << depth
                               << " separates along " << angle;
        }
    }
    EXPECT_GT(checked, cases / 10);
}

/// Brute-force separating-axis value of two sharp polygons (double).
double max_face_separation(const Polygon& a, const Transform& xfa, const Polygon& b,
                           const Transform& xfb) {
    const auto world = [](const Polygon& p, const Transform& xf) {
        std::vector<test::D2> v;
        for (int i = 0; i < p.count; ++i) {
            v.push_back(test::apply(xf, test::to_d2(p.vertices[i])));
        }
        return v;
    };
    const std::vector<test::D2> va = world(a, xfa);
    const std::vector<test::D2> vb = world(b, xfb);
    double best = -std::numeric_limits<double>::infinity();
    const auto faces = [&best](const std::vector<test::D2>& ref,
                               const std::vector<test::D2>& other) {
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const test::D2 e = ref[(i + 1) % ref.size()] - ref[i];
            const test::D2 nrm = (1 / test::norm(e)) * test::D2{e.y, -e.x};
            double s = std::numeric_limits<double>::infinity();
            for (test::D2 v : other) {
                s = std::min(s, test::dot(nrm, v - ref[i]));
            }
            best = std::max(best, s);
        }
    };
    faces(va, vb);
    faces(vb, va);
    return best;
}

TEST(MtvProperty, PolygonDepthIsTheSeparatingAxisValueAndCollidesDeepestPoint) {
    std::mt19937 rng(5003);
    const int cases = test::property_cases(100000);
    int compared = 0;
    for (int n = 0; n < cases; ++n) {
        const Polygon a =
            test::random_polygon(rng, test::uniform_int(rng, 3, 8), uniform(rng, 0.2, 1.5));
        const Polygon b =
            test::random_polygon(rng, test::uniform_int(rng, 3, 8), uniform(rng, 0.2, 1.5));
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        const Transform xfb = test::to_transform(test::random_pose(rng, 2));
        const Mtv m = mtv_polygons(a, xfa, b, xfb);
        const double sat = max_face_separation(a, xfa, b, xfb);
        SCOPED_TRACE("case " + std::to_string(n) + " sat " + std::to_string(sat));
        if (sat > 0) {
            EXPECT_GE(m.separation, sat - k_length_eps); // the distance is at least the gap
            continue;
        }
        EXPECT_NEAR(m.separation, sat, k_length_eps);
        // collide_polygons picks its reference face with a hysteresis of
        // 0.1 * slop; its deepest point is the same depth within that.
        const Manifold manifold = collide_polygons(a, xfa, b, xfb);
        ASSERT_GE(manifold.count, 1);
        double deepest = std::numeric_limits<double>::infinity();
        for (int i = 0; i < manifold.count; ++i) {
            deepest = std::min(deepest, double(manifold.points[i].separation));
        }
        ++compared;
        EXPECT_NEAR(deepest, double(m.separation), 0.1 * double(k_linear_slop) + k_length_eps);
    }
    EXPECT_GT(compared, cases / 10);
}

TEST(MtvProperty, SwappingAAndBFlipsTheNormal) {
    std::mt19937 rng(5004);
    const int cases = test::property_cases(100000);
    for (int n = 0; n < cases; ++n) {
        const Circle c = random_circle(rng);
        const Shape s = test::random_shape(rng, 0);
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        const Transform xfb = test::to_transform(test::random_pose(rng, 2));
        const Mtv ab = mtv_circles(c, xfa, c, xfb);
        const Mtv ba = mtv_circles(c, xfb, c, xfa);
        EXPECT_NEAR(ab.separation, ba.separation, 1e-5);
        EXPECT_NEAR(ab.normal.x, -ba.normal.x, 1e-5);
        const Mtv pab = mtv_polygons(s.polygon, xfa, s.polygon, xfb);
        const Mtv pba = mtv_polygons(s.polygon, xfb, s.polygon, xfa);
        EXPECT_NEAR(pab.separation, pba.separation, k_length_eps) << "case " << n;
    }
}

} // namespace
} // namespace sweep
