// GJK distance against brute force on random convex shapes (fixed seeds):
// the reference distance is the least segment-segment distance between the
// placed cores (zero when one holds a point of the other), minus the radii.
#include "sweep/distance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/constants.hpp"

namespace sweep {
namespace {

using test::k_length_eps;

struct Pair {
    ShapeProxy a;
    ShapeProxy b;
    Transform xf_a;
    Transform xf_b;
};

/// Two random shapes; A near the origin, B within 2.5 of it, so that some
/// pairs overlap.
Pair random_pair(std::mt19937& rng, int c) {
    Pair p;
    p.a = make_proxy(test::random_shape(rng, c));
    p.b = make_proxy(test::random_shape(rng, c / 4));
    p.xf_a = test::to_transform(test::random_pose(rng, 0.5));
    p.xf_b = test::to_transform(test::random_pose(rng, 2.5));
    return p;
}

DistanceOutput run(const Pair& p, bool use_radii = true) {
    SimplexCache cache;
    return distance({p.a, p.b, p.xf_a, p.xf_b, use_radii}, cache);
}

/// Distance from a world point to a placed proxy's core (0 inside).
double distance_to_core(Vec2 point, const ShapeProxy& proxy, const Transform& xf) {
    const std::vector<test::D2> one{test::to_d2(point)};
    return test::convex_distance(one, test::world_points(proxy, xf));
}

TEST(DistanceProperty, MatchesTheBruteForceSegmentDistance) {
    std::mt19937 rng(42);
    const int cases = test::property_cases(100000);
    int separated = 0;
    int overlapping = 0;
    for (int c = 0; c < cases; ++c) {
        const Pair p = random_pair(rng, c);
        const double core = test::core_distance(p.a, p.xf_a, p.b, p.xf_b);
        const double radii = double(p.a.radius) + double(p.b.radius);
        const DistanceOutput out = run(p);
        const DistanceOutput cores = run(p, /*use_radii=*/false);
        SCOPED_TRACE("case " + std::to_string(c) + ", reference core distance " +
                     std::to_string(core));
        ASSERT_LE(out.iterations, k_gjk_max_iterations);
        if (out.state == DistanceState::cores_overlap) {
            EXPECT_LE(core, k_length_eps); // only when the cores really meet
            EXPECT_EQ(out.distance, 0);
        }
        if (core > 1e-3) {
            ++separated;
            ASSERT_EQ(out.state, DistanceState::separated);
            EXPECT_NEAR(cores.distance, core, k_length_eps);
            EXPECT_NEAR(out.distance, std::max(0.0, core - radii), k_length_eps);
            EXPECT_NEAR(length(out.normal), 1, 1e-5);
            // The core witness points lie on the cores, `core` apart along the normal.
            EXPECT_NEAR(distance_to_core(cores.point_a, p.a, p.xf_a), 0, k_length_eps);
            EXPECT_NEAR(distance_to_core(cores.point_b, p.b, p.xf_b), 0, k_length_eps);
            const Vec2 gap = cores.point_b - cores.point_a;
            EXPECT_NEAR(dot(gap, out.normal), core, k_length_eps);
            EXPECT_NEAR(cross(gap, out.normal), 0, k_length_eps);
            if (core > radii) {
                // Rounded witness points lie on the rounded surfaces.
                EXPECT_NEAR(distance_to_core(out.point_a, p.a, p.xf_a), p.a.radius, k_length_eps);
                EXPECT_NEAR(distance_to_core(out.point_b, p.b, p.xf_b), p.b.radius, k_length_eps);
                EXPECT_NEAR(length(out.point_b - out.point_a), out.distance, k_length_eps);
            } else {
                EXPECT_NEAR(length(out.point_b - out.point_a), 0, k_length_eps);
            }
        } else if (core == 0) {
            ++overlapping;
            EXPECT_EQ(out.distance, 0);
            EXPECT_LE(cores.distance, k_length_eps);
        }
    }
    EXPECT_GT(separated, cases / 2);
    EXPECT_GT(overlapping, cases / 50);
}

// Two segment cores on one line (B's ends placed on A's line by double
// arithmetic, then rounded): end to end, overlapping, one inside the other.
// Their Minkowski difference is flat to rounding, and GJK cycled through
// three of its edges to the iteration cap; its last support's weight was
// then never solved, and cores overlapping by 0.7 L were said to be 0.78 L
// apart (run_gjk in distance.cpp).
TEST(DistanceProperty, CoresOnOneLineGetTheirDistance) {
    std::mt19937 rng(45);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const Shape a = test::random_shape(rng, 3);
        const Transform xf = test::to_transform(test::random_pose(rng, 3));
        const test::D2 p1 = test::apply(xf, test::to_d2(a.segment.p1));
        const test::D2 e = test::apply(xf, test::to_d2(a.segment.p2)) - p1;
        const double t0 = test::uniform(rng, -4, 5);
        const double t1 = t0 + test::uniform(rng, -3, 3);
        const auto on_line = [&](double t) {
            const test::D2 q = p1 + t * e;
            return Vec2{real(q.x), real(q.y)};
        };
        const std::array<Vec2, 2> b{on_line(t0), on_line(t1)};
        const Pair p{make_proxy(a), make_proxy(b, 0), xf, k_identity};
        const double core = test::core_distance(p.a, p.xf_a, p.b, p.xf_b);
        const DistanceOutput out = run(p);
        SCOPED_TRACE("case " + std::to_string(c) + ", t " + std::to_string(t0) + " to " +
                     std::to_string(t1) + ", reference core distance " + std::to_string(core));
        EXPECT_NEAR(out.distance, core, k_length_eps);
    }
}

// One world polygon as two: the same world vertices carried into another
// body's frame (rounded there), the bodies placed apart. The cores overlap
// wholly; GJK could stop beside the origin by rounding, and the pair was
// reported separated, 1.2e-7 L apart, with a normal.
TEST(DistanceProperty, TwoCopiesOfOnePolygonOverlap) {
    std::mt19937 rng(47);
    const int cases = test::property_cases(20000);
    for (int c = 0; c < cases; ++c) {
        const Polygon a = test::random_polygon(rng, test::uniform_int(rng, 3, 8), 1);
        const Transform xfa = test::to_transform(test::random_pose(rng, 5));
        const Transform xfb = test::to_transform(test::random_pose(rng, 5));
        std::vector<Vec2> copy;
        for (int i = 0; i < a.count; ++i) {
            copy.push_back(inv_transform_point(xfb, transform_point(xfa, a.vertices[i])));
        }
        const Result<Polygon> b = make_polygon(copy);
        ASSERT_TRUE(b.has_value());
        SCOPED_TRACE("case " + std::to_string(c));
        SimplexCache ab_cache;
        SimplexCache ba_cache;
        const ShapeProxy pa = make_proxy(Shape(a));
        const ShapeProxy pb = make_proxy(Shape(*b));
        EXPECT_EQ(distance({pa, pb, xfa, xfb}, ab_cache).state, DistanceState::cores_overlap);
        EXPECT_EQ(distance({pb, pa, xfb, xfa}, ba_cache).state, DistanceState::cores_overlap);
    }
}

TEST(DistanceProperty, SwappingTheShapesFlipsOnlyTheNormal) {
    std::mt19937 rng(43);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const Pair p = random_pair(rng, c);
        const DistanceOutput ab = run(p);
        const DistanceOutput ba = run({p.b, p.a, p.xf_b, p.xf_a});
        SCOPED_TRACE("case " + std::to_string(c));
        if (ab.state != ba.state) {
            // Only a contact on the edge of overlapping may be seen both ways.
            EXPECT_LE(test::core_distance(p.a, p.xf_a, p.b, p.xf_b), k_length_eps);
            continue;
        }
        EXPECT_NEAR(ab.distance, ba.distance, k_length_eps);
        if (ab.state == DistanceState::separated && ab.distance > 1e-3) {
            EXPECT_NEAR(ab.normal.x, -ba.normal.x, 1e-3);
            EXPECT_NEAR(ab.normal.y, -ba.normal.y, 1e-3);
        }
    }
}

TEST(DistanceProperty, WarmStartGivesTheSameResult) {
    // A cache from the same pair a small step earlier (frame coherence) and
    // from the same input again must not change the answer, only the work.
    std::mt19937 rng(44);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        Pair p = random_pair(rng, c);
        SimplexCache cache;
        const DistanceOutput first = distance({p.a, p.b, p.xf_a, p.xf_b}, cache);
        SimplexCache again = cache;
        const DistanceOutput same = distance({p.a, p.b, p.xf_a, p.xf_b}, again);
        EXPECT_NEAR(same.distance, first.distance, k_length_eps);
        EXPECT_EQ(same.state, first.state);

        const Vec2 step{real(test::uniform(rng, -0.05, 0.05)),
                        real(test::uniform(rng, -0.05, 0.05))};
        p.xf_b = {p.xf_b.p + step,
                  mul(Rot::from_angle(real(test::uniform(rng, -0.05, 0.05))), p.xf_b.q)};
        SimplexCache cold;
        const DistanceOutput from_cold = distance({p.a, p.b, p.xf_a, p.xf_b}, cold);
        const DistanceOutput from_warm = distance({p.a, p.b, p.xf_a, p.xf_b}, cache);
        SCOPED_TRACE("case " + std::to_string(c));
        const double core = test::core_distance(p.a, p.xf_a, p.b, p.xf_b);
        if (core > 1e-3) {
            EXPECT_EQ(from_warm.state, DistanceState::separated);
            EXPECT_EQ(from_cold.state, DistanceState::separated);
        }
        EXPECT_NEAR(from_warm.distance, from_cold.distance, k_length_eps);
        EXPECT_LE(from_warm.iterations, k_gjk_max_iterations);
    }
}

} // namespace
} // namespace sweep
