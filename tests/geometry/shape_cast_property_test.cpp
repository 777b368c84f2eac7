// shape_cast against brute force (fixed seeds): B's translation is sampled
// finely, the separation at each sample measured with the reference distance
// (reference_geometry.hpp), and the first sample within the target refined by
// bisection (along a line the distance is convex in t, so it crosses the
// target once on the way in).
#include "sweep/shape_cast.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>
#include <string>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"

namespace sweep {
namespace {

using test::k_length_eps;

struct Reference {
    const ShapeCastInput& in;

    /// Separation of the rounded shapes with B moved by t * translation.
    double separation(double t) const {
        return test::separation(in.proxy_a, as_pose(in.xf_a), in.proxy_b, pose_b(t));
    }
    test::Pose pose_b(double t) const {
        const test::Pose start = as_pose(in.xf_b);
        return {{start.p.x + t * double(in.translation_b.x),
                 start.p.y + t * double(in.translation_b.y)},
                start.angle};
    }
    static test::Pose as_pose(const Transform& xf) {
        return {test::to_d2(xf.p), std::atan2(double(xf.q.s), double(xf.q.c))};
    }

    /// The first time the separation reaches `target`, if it does in [0, 1].
    std::optional<double> first_contact(double target, int samples, double* min_separation) const {
        double previous_t = 0;
        *min_separation = separation(0);
        for (int k = 1; k <= samples; ++k) {
            const double t = double(k) / samples;
            const double s = separation(t);
            *min_separation = std::min(*min_separation, s);
            if (s <= target) {
                double lo = previous_t;
                double hi = t;
                for (int i = 0; i < 50; ++i) {
                    const double mid = 0.5 * (lo + hi);
                    (separation(mid) <= target ? hi : lo) = mid;
                }
                return hi;
            }
            previous_t = t;
        }
        return std::nullopt;
    }
};

TEST(ShapeCastProperty, HitTimeIsTheFirstContactOfAFineSampling) {
    std::mt19937 rng(2024);
    const int cases = test::property_cases(1500);
    int hits = 0;
    int misses = 0;
    for (int c = 0; c < cases; ++c) {
        ShapeCastInput in;
        in.proxy_a = make_proxy(test::random_shape(rng, c));
        in.proxy_b = make_proxy(test::random_shape(rng, c / 4));
        in.xf_a = test::to_transform(test::random_pose(rng, 0.5));
        in.xf_b = test::to_transform(test::random_pose(rng, 6));
        // Aim near A, with a spread that makes about half of the casts miss,
        // and sometimes stop short.
        const Vec2 aim{real(test::uniform(rng, -2, 2)), real(test::uniform(rng, -2, 2))};
        in.translation_b = real(test::uniform(rng, 0.3, 2.0)) * (aim - in.xf_b.p);
        const Reference ref{in};
        const double target = in.target_separation;
        const double band = target + double(in.touch_tolerance);
        if (ref.separation(0) <= band + 1e-3) {
            continue; // starting touching or overlapped: the unit tests cover it
        }
        double min_separation = 0;
        const std::optional<double> first = ref.first_contact(target, 1000, &min_separation);
        const CastOutput out = shape_cast(in);
        SCOPED_TRACE("case " + std::to_string(c));
        ASSERT_LE(out.iterations, k_toi_max_iterations);
        switch (out.state) {
        case CastState::hit: {
            ++hits;
            const double s = ref.separation(out.fraction);
            EXPECT_GE(s, target - k_length_eps) << "past the first contact";
            EXPECT_LE(s, band + k_length_eps) << "stopped before the touching band";
            if (first) {
                EXPECT_LE(out.fraction, *first + 1e-5);
            }
            EXPECT_NEAR(length(out.normal), 1, 1e-4);
            break;
        }
        case CastState::miss:
            ++misses;
            EXPECT_GT(min_separation, target - k_length_eps)
                << "missed a contact at t = " << first.value_or(-1);
            break;
        default:
            ADD_FAILURE() << "state " << testing::PrintToString(out.state);
        }
    }
    EXPECT_GT(hits, cases / 5);
    EXPECT_GT(misses, cases / 5);
}

TEST(ShapeCastProperty, HitNormalIsTheSeparatingDirectionAtTheHit) {
    // At the hit, moving B a little further along the normal separates the
    // shapes and moving it back against the normal brings them closer.
    std::mt19937 rng(2025);
    const int cases = test::property_cases(1000);
    for (int c = 0; c < cases; ++c) {
        ShapeCastInput in;
        in.proxy_a = make_proxy(test::random_shape(rng, c));
        in.proxy_b = make_proxy(test::random_shape(rng, c / 4));
        in.xf_a = test::to_transform(test::random_pose(rng, 0.5));
        in.xf_b = test::to_transform(test::random_pose(rng, 6));
        in.translation_b = real(1.5) * (Vec2{} - in.xf_b.p);
        const Reference ref{in};
        if (ref.separation(0) <= 0.1) {
            continue;
        }
        const CastOutput out = shape_cast(in);
        if (out.state != CastState::hit) {
            continue;
        }
        SCOPED_TRACE("case " + std::to_string(c));
        const test::Pose at_hit = ref.pose_b(out.fraction);
        const double step = 0.01;
        test::Pose away = at_hit;
        away.p = away.p + step * test::to_d2(out.normal);
        test::Pose closer = at_hit;
        closer.p = closer.p - step * test::to_d2(out.normal);
        const test::Pose a = Reference::as_pose(in.xf_a);
        const double s = test::separation(in.proxy_a, a, in.proxy_b, at_hit);
        EXPECT_GT(test::separation(in.proxy_a, a, in.proxy_b, away), s + 0.5 * step);
        EXPECT_LT(test::separation(in.proxy_a, a, in.proxy_b, closer), s);
    }
}

} // namespace
} // namespace sweep
