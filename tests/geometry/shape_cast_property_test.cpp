// shape_cast against brute force (fixed seeds): the separation along B's
// translation is measured with the reference distance (reference_geometry.hpp);
// along a line it is convex in t, so its minimum is found by golden-section
// search and the first time it reaches the target by bisection (it crosses the
// target once on the way in).
#include "sweep/shape_cast.hpp"
#include "sweep/toi.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
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

    /// The first time the separation reaches `target`, if it does in [0, 1],
    /// and the least separation over [0, 1]. Along a line the core distance
    /// is convex in t (the distance from a point moving on a line to a fixed
    /// convex set, the Minkowski difference), so a golden-section search finds
    /// its minimum and the way down to it crosses the target once, where
    /// bisection finds it: exact to 1e-12, in about 130 evaluations instead
    /// of a fine sampling's thousand.
    std::optional<double> first_contact(double target, double* min_separation) const {
        constexpr double g = 0.6180339887498949; // (sqrt 5 - 1) / 2
        double lo = 0;
        double hi = 1;
        double x1 = hi - g * (hi - lo);
        double x2 = lo + g * (hi - lo);
        double f1 = separation(x1);
        double f2 = separation(x2);
        double best_t = 0;
        double best = separation(0);
        const auto keep = [&](double t, double s) {
            if (s < best) {
                best = s;
                best_t = t;
            }
        };
        keep(1, separation(1));
        for (int i = 0; i < 80; ++i) {
            keep(x1, f1);
            keep(x2, f2);
            if (f1 <= f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - g * (hi - lo);
                f1 = separation(x1);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + g * (hi - lo);
                f2 = separation(x2);
            }
        }
        keep(x1, f1);
        keep(x2, f2);
        *min_separation = best;
        if (best > target) {
            return std::nullopt;
        }
        // separation(0) > target (the cases start apart) and the separation
        // does not increase on [0, best_t].
        double before = 0;
        double reached = best_t;
        for (int i = 0; i < 60; ++i) {
            const double mid = 0.5 * (before + reached);
            (separation(mid) <= target ? reached : before) = mid;
        }
        return reached;
    }
};

TEST(ShapeCastProperty, HitTimeIsTheFirstContactOfTheBruteForceDistance) {
    std::mt19937 rng(2024);
    const int cases = test::property_cases(100000);
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
        const std::optional<double> first = ref.first_contact(target, &min_separation);
        const CastOutput out = shape_cast(in);
        SCOPED_TRACE("case " + std::to_string(c));
        ASSERT_LE(out.iterations, k_toi_max_iterations);
        switch (out.state) {
        case CastState::hit: {
            ++hits;
            const double s = ref.separation(out.fraction);
            EXPECT_GE(s, target - k_length_eps) << "past the first contact";
            EXPECT_LE(s, band + k_length_eps) << "stopped before the touching band";
            if (first && out.fraction > *first + 1e-5) {
                // Later than the reference's first contact: only by rounding
                // (at a grazing approach a length error of k_length_eps is a
                // long time), never past it. The separation is convex in t, so
                // passing through would dip below the target in between.
                double lowest = std::numeric_limits<double>::infinity();
                for (int k = 0; k <= 20; ++k) {
                    lowest =
                        std::min(lowest, ref.separation(*first + (out.fraction - *first) * k / 20));
                }
                EXPECT_GE(lowest, target - k_length_eps)
                    << "past the first contact at t = " << *first << " (reported " << out.fraction
                    << ")";
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

// Two polygons touching at one point, each at its vertex that is extreme
// along a random direction n (A's along n, B's along -n): the line through
// the point across n separates them, and a motion of B with a component
// along n of at least a twentieth of its length leaves at once, so the casts
// miss. The directions that separate them form the cone between the
// vertices' normal cones' nearer bounds; a motion against all of them (the
// cone's bisector turned back) enters at once, so the casts hit at t = 0.
// The casts' own normal at a touching start is one face's, which a motion
// leaving along the other corner's face could close on (a box leaving a
// box's corner up and a little to the left was stopped at t = 0); every
// face normal that holds them apart decides (touching_plane_holds).
TEST(ShapeCastProperty, CornersTouchingAtAPointMissWhenMovingApart) {
    std::mt19937 rng(46);
    const int cases = test::property_cases(20000);
    int entering = 0;
    for (int c = 0; c < cases; ++c) {
        const Polygon a = test::random_polygon(rng, test::uniform_int(rng, 3, 8), 1);
        const Polygon b = test::random_polygon(rng, test::uniform_int(rng, 3, 8), 1);
        const Transform xfa = test::to_transform(test::random_pose(rng, 3));
        const real angle_b = real(test::uniform(rng, -3.14, 3.14));
        const Rot qb = Rot::from_angle(angle_b);
        const real angle = real(test::uniform(rng, -3.14, 3.14));
        const Vec2 n{std::cos(angle), std::sin(angle)};
        const ShapeProxy pa = make_proxy(Shape(a));
        const ShapeProxy pb = make_proxy(Shape(b));
        const int ia = find_support(pa, inv_rotate(xfa.q, n));
        const int ib = find_support(pb, inv_rotate(qb, -n));
        const Transform xfb{transform_point(xfa, a.vertices[ia]) - rotate(qb, b.vertices[ib]), qb};
        // The separating cone, as angles from n: A's vertex normal cone
        // meets B's, turned back.
        const auto from_n = [&](Vec2 v) { return std::atan2(cross(n, v), dot(n, v)); };
        const auto before = [](const Polygon& p, int i) { return i > 0 ? i - 1 : p.count - 1; };
        const real low = std::max(from_n(rotate(xfa.q, a.normals[before(a, ia)])),
                                  from_n(-rotate(qb, b.normals[before(b, ib)])));
        const real high =
            std::min(from_n(rotate(xfa.q, a.normals[ia])), from_n(-rotate(qb, b.normals[ib])));
        // Leaving: n turned by up to acos(0.05) either way, 0.1 to 2 L long.
        const real turn = real(test::uniform(rng, -1, 1)) * std::acos(real(0.05));
        const Vec2 leave = real(test::uniform(rng, 0.1, 2)) * rotate(Rot::from_angle(turn), n);
        const Vec2 enter = -real(0.5) * rotate(Rot::from_angle(real(0.5) * (low + high)), n);
        const bool can_enter = high - low < real(2.6); // against all of the cone by cos 75 degrees
        entering += can_enter;
        for (const Vec2 motion : {leave, enter}) {
            const bool leaving = motion == leave;
            if (!leaving && !can_enter) {
                continue;
            }
            SCOPED_TRACE("case " + std::to_string(c) + (leaving ? ", leaving" : ", entering"));
            const CastOutput cast = shape_cast({pa, pb, xfa, xfb, motion});
            const real angle_a = std::atan2(xfa.q.s, xfa.q.c);
            const ToiOutput toi = time_of_impact({pa,
                                                  pb,
                                                  {{}, xfa.p, xfa.p, angle_a, angle_a},
                                                  {{}, xfb.p, xfb.p + motion, angle_b, angle_b}});
            if (leaving) {
                EXPECT_EQ(cast.state, CastState::miss) << "t " << cast.fraction;
                EXPECT_EQ(toi.state, CastState::miss) << "t " << toi.fraction;
            } else {
                EXPECT_EQ(cast.state, CastState::hit);
                EXPECT_EQ(cast.fraction, 0);
                EXPECT_EQ(toi.state, CastState::hit);
                EXPECT_EQ(toi.fraction, 0);
            }
        }
    }
    EXPECT_GT(entering, cases / 2);
}

TEST(ShapeCastProperty, HitNormalIsTheSeparatingDirectionAtTheHit) {
    // At the hit, moving B a little further along the normal separates the
    // shapes and moving it back against the normal brings them closer.
    std::mt19937 rng(2025);
    const int cases = test::property_cases(100000);
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
