// raycast against brute force in double precision (fixed seeds). Random
// shapes of every kind (reference_geometry.hpp, plus chain segments) at random
// poses, random rays: many aimed at the shape, some starting inside it or
// near it, some cut short by max_fraction.
//
// The reference for solid shapes is the signed distance to the shape, sd(p):
// the distance to the core minus the radius outside the core, minus the
// radius and the depth inside it. It is convex for a convex shape, so along
// the ray it has one minimum, found by golden-section search, and the ray
// enters the shape iff that minimum is <= 0; the entry is the first zero.
// For segments the reference is the line-line crossing in double.
//
// Tolerances suit float builds: k_length_eps (2e-4 in float, 1e-7 in double)
// on lengths. Where the answer is within tolerance of changing (a ray that
// only grazes, an origin on the surface) either answer is accepted.
#include "sweep/raycast.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"

namespace sweep {
namespace {

using test::D2;
using test::k_length_eps;

/// A shape placed in the world, in double: its core (1 point, 2 for a
/// segment or capsule, or a counter-clockwise convex polygon) and radius.
struct RefShape {
    std::vector<D2> core;
    double radius = 0;
    bool solid = true;      ///< false for segments and chain segments
    bool one_sided = false; ///< a chain segment: hit from the right of core[0] -> core[1] only
};

RefShape reference_of(const Shape& shape, const Transform& xf) {
    RefShape out;
    const auto place = [&](Vec2 v) { out.core.push_back(test::apply(xf, test::to_d2(v))); };
    switch (shape.type) {
    case ShapeType::circle:
        place(shape.circle.center);
        out.radius = shape.circle.radius;
        break;
    case ShapeType::capsule:
        place(shape.capsule.center1);
        place(shape.capsule.center2);
        out.radius = shape.capsule.radius;
        break;
    case ShapeType::polygon:
        for (int i = 0; i < shape.polygon.count; ++i) {
            place(shape.polygon.vertices[i]);
        }
        out.radius = shape.polygon.radius;
        break;
    case ShapeType::segment:
        place(shape.segment.p1);
        place(shape.segment.p2);
        out.solid = false;
        break;
    case ShapeType::chain_segment:
        place(shape.chain_segment.segment.p1);
        place(shape.chain_segment.segment.p2);
        out.solid = false;
        out.one_sided = true;
        break;
    }
    return out;
}

/// The closest point of segment a-b to p.
D2 closest_on_segment(D2 p, D2 a, D2 b) {
    const D2 e = b - a;
    const double ee = test::dot(e, e);
    const double t = ee > 0 ? std::clamp(test::dot(p - a, e) / ee, 0.0, 1.0) : 0.0;
    return a + t * e;
}

/// The closest point of the core to p, for p outside the core (or on it).
D2 closest_on_core(const RefShape& s, D2 p) {
    if (s.core.size() == 1) {
        return s.core[0];
    }
    const std::size_t n = s.core.size() == 2 ? 1 : s.core.size();
    D2 best = s.core[0];
    double best_d = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        const D2 c = closest_on_segment(p, s.core[i], s.core[(i + 1) % s.core.size()]);
        const double d = test::norm(p - c);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

/// Signed distance from p to the solid shape: negative inside.
double signed_distance(const RefShape& s, D2 p) {
    if (s.core.size() >= 3 && test::inside_convex(s.core, p)) {
        double depth = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < s.core.size(); ++i) {
            const D2 a = s.core[i];
            const D2 e = s.core[(i + 1) % s.core.size()] - a;
            depth = std::min(depth, test::cross(e, p - a) / test::norm(e));
        }
        return -depth - s.radius;
    }
    return test::norm(p - closest_on_core(s, p)) - s.radius;
}

/// The ray in double: origin + t * translation.
struct RefRay {
    D2 origin;
    D2 translation;
    double max_fraction = 1;
    D2 at(double t) const { return origin + t * translation; }
};

/// The minimum of the convex f on [lo, hi] by golden-section search:
/// (argmin, min).
template <class F> std::pair<double, double> convex_minimum(F f, double lo, double hi) {
    const double g = 0.5 * (std::sqrt(5.0) - 1);
    double a = lo;
    double b = hi;
    double c = b - g * (b - a);
    double d = a + g * (b - a);
    double fc = f(c);
    double fd = f(d);
    for (int i = 0; i < 80 && b - a > 1e-13; ++i) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    // The ends too: the minimum of a convex function on an interval may be there.
    std::pair<double, double> best{0.5 * (a + b), f(0.5 * (a + b))};
    for (const double t : {lo, hi}) {
        const double v = f(t);
        if (v < best.second) {
            best = {t, v};
        }
    }
    return best;
}

/// A random ray for a shape placed near the origin: aimed at a point near
/// it from up to ~6 away, or starting near or inside it; max_fraction
/// mostly 1, sometimes shorter or longer.
RayInput random_ray(std::mt19937& rng) {
    RayInput in;
    const int style = test::uniform_int(rng, 0, 9);
    const Vec2 aim{real(test::uniform(rng, -1, 1)), real(test::uniform(rng, -1, 1))};
    if (style < 6) {
        in.origin = {real(test::uniform(rng, -6, 6)), real(test::uniform(rng, -6, 6))};
        in.translation = real(test::uniform(rng, 0.6, 2.0)) * (aim - in.origin);
    } else {
        in.origin = {real(test::uniform(rng, -1.5, 1.5)), real(test::uniform(rng, -1.5, 1.5))};
        const double a = test::uniform(rng, -3.14159, 3.14159);
        const double len = test::uniform(rng, 0.1, 4);
        in.translation = {real(len * std::cos(a)), real(len * std::sin(a))};
    }
    const int cut = test::uniform_int(rng, 0, 9);
    in.max_fraction = cut < 7 ? real(1) : real(test::uniform(rng, 0, 1.5));
    return in;
}

/// A random shape of kind % 6: the five of test::random_shape, then a chain
/// segment with ghosts along its line.
Shape random_shape(std::mt19937& rng, int kind) {
    if (kind % 6 == 5) {
        const Segment s = test::random_shape(rng, 3).segment;
        const Vec2 e = s.p2 - s.p1;
        return ChainSegment{s.p1 - e, s, s.p2 + e};
    }
    return test::random_shape(rng, kind % 6);
}

const char* kind_name(const Shape& shape) {
    switch (shape.type) {
    case ShapeType::circle:
        return "circle";
    case ShapeType::capsule:
        return "capsule";
    case ShapeType::polygon:
        return shape.polygon.radius > 0 ? "rounded polygon" : "polygon";
    case ShapeType::segment:
        return "segment";
    case ShapeType::chain_segment:
        return "chain segment";
    }
    return "?";
}

/// The counts of each outcome, so that the test can show it covered both.
struct Tally {
    int hits = 0;
    int misses = 0;
    int inside_starts = 0;
    int corner_hits = 0; ///< rounded polygons hit on a corner arc
};

/// Checks one cast of a solid shape against the signed distance.
void check_solid(const RefShape& s, const RefRay& r, const CastOutput& out, Tally& tally) {
    const double eps = k_length_eps;
    const auto sd = [&](double t) { return signed_distance(s, r.at(t)); };
    const double sd0 = sd(0);
    const auto [t_min, sd_min] = convex_minimum(sd, 0, r.max_fraction);
    if (sd0 < -eps) {
        ++tally.inside_starts;
        EXPECT_EQ(out.state, CastState::miss) << "the ray starts inside, sd " << sd0;
        return;
    }
    if (out.state == CastState::miss) {
        ++tally.misses;
        // A miss: no point of the ray is inside the shape, unless the origin
        // was on the surface (then a grazing or outward ray may miss).
        if (sd0 > eps) {
            EXPECT_GE(sd_min, -eps) << "missed, but the ray enters at t ~ " << t_min;
        }
        return;
    }
    ASSERT_EQ(out.state, CastState::hit);
    ++tally.hits;
    EXPECT_EQ(out.iterations, 0);
    EXPECT_GE(out.fraction, 0);
    EXPECT_LE(out.fraction, r.max_fraction);
    const double t = out.fraction;
    // The point is the ray's point at the fraction, and on the surface.
    const D2 expected_point = r.at(t);
    EXPECT_NEAR(out.point.x, expected_point.x, eps);
    EXPECT_NEAR(out.point.y, expected_point.y, eps);
    const D2 p = test::to_d2(out.point);
    EXPECT_NEAR(signed_distance(s, p), 0, eps) << "hit point off the surface";
    // No point of the ray before the hit is inside: sd is convex in t, so
    // its least value on [0, t] is at min(t_min, t).
    EXPECT_GE(sd(std::min(t_min, t)), -eps) << "the ray was inside before t = " << t;
    // The normal is unit and is the surface normal.
    EXPECT_NEAR(test::norm(test::to_d2(out.normal)), 1, 1e-5);
    const D2 n = test::to_d2(out.normal);
    if (s.radius > 0) {
        const D2 c = closest_on_core(s, p);
        const D2 expected = (1 / test::norm(p - c)) * (p - c);
        EXPECT_NEAR(n.x, expected.x, 1e-3);
        EXPECT_NEAR(n.y, expected.y, 1e-3);
        // On a corner arc of a rounded polygon: the closest core point is a vertex.
        if (s.core.size() >= 3 && std::any_of(s.core.begin(), s.core.end(),
                                              [&](D2 v) { return test::norm(c - v) < 1e-9; })) {
            ++tally.corner_hits;
        }
    } else {
        // Sharp polygon: the outward normal of a face whose line holds the point
        // (at a corner, either face's).
        bool found = false;
        for (std::size_t i = 0; i < s.core.size(); ++i) {
            const D2 a = s.core[i];
            const D2 e = s.core[(i + 1) % s.core.size()] - a;
            const D2 face_normal = (1 / test::norm(e)) * D2{e.y, -e.x};
            const bool on_line = std::abs(test::dot(face_normal, p - a)) < eps;
            found = found || (on_line && test::norm(n - face_normal) < 1e-3);
        }
        EXPECT_TRUE(found) << "normal (" << n.x << ", " << n.y << ") is no face's at the point";
    }
    // The ray moves into the surface (or along it, grazing).
    EXPECT_LE(test::dot(n, r.translation), 1e-3 * test::norm(r.translation));
}

/// Checks one cast of a segment or chain segment against the line-line
/// crossing in double.
void check_segment(const RefShape& s, const RefRay& r, const CastOutput& out, Tally& tally) {
    const double eps = k_length_eps;
    const D2 a = s.core[0];
    const D2 e = s.core[1] - a;
    const D2 d = r.translation;
    const double len_e = test::norm(e);
    const double len_d = test::norm(d);
    const D2 outward = (1 / len_e) * D2{e.y, -e.x};
    // Crossing: origin + t d = a + u e.
    const double denom = test::cross(d, e);
    const double side = test::dot(outward, r.origin - a); // > 0 on the outer (right) side
    // A clear crossing: not nearly parallel, away from both segments' ends
    // by more than the tolerance, and the origin clearly off the line.
    bool clear_hit = false;
    bool clear_miss = false;
    double t_ref = 0;
    const double sin_angle = std::abs(denom) / (len_d * len_e);
    if (sin_angle > 1e-3) {
        t_ref = test::cross(a - r.origin, e) / denom;
        const double u = test::cross(a - r.origin, d) / denom;
        const double margin_t = 10 * eps / (len_d * sin_angle);
        const double margin_u = 10 * eps / (len_e * sin_angle);
        const bool inside_t = t_ref > margin_t && t_ref < r.max_fraction - margin_t;
        const bool inside_u = u > margin_u && u < 1 - margin_u;
        const bool outside = t_ref < -margin_t || t_ref > r.max_fraction + margin_t ||
                             u < -margin_u || u > 1 + margin_u;
        const bool from_outer_side = side > eps;
        const bool from_solid_side = side < -eps;
        clear_hit = inside_t && inside_u && (!s.one_sided || from_outer_side);
        clear_miss = outside || (s.one_sided && from_solid_side);
    } else {
        // Nearly parallel: no crossing when the lines are apart.
        clear_miss = std::abs(side) > eps &&
                     std::abs(test::dot(outward, r.at(r.max_fraction) - a)) > eps &&
                     (test::dot(outward, r.origin - a) > 0) ==
                         (test::dot(outward, r.at(r.max_fraction) - a) > 0);
    }
    if (out.state == CastState::miss) {
        ++tally.misses;
        EXPECT_FALSE(clear_hit) << "missed a crossing at t = " << t_ref;
        return;
    }
    ASSERT_EQ(out.state, CastState::hit);
    ++tally.hits;
    EXPECT_FALSE(clear_miss) << "hit at t = " << out.fraction << " where nothing crosses";
    EXPECT_GE(out.fraction, 0);
    EXPECT_LE(out.fraction, r.max_fraction);
    if (clear_hit) {
        EXPECT_NEAR(out.fraction * len_d, t_ref * len_d, eps / sin_angle);
    }
    const D2 p = test::to_d2(out.point);
    EXPECT_LT(test::point_segment_distance(p, s.core[0], s.core[1]), eps);
    // The normal is the unit normal facing the ray's origin (for a chain
    // segment always the outward one).
    const D2 n = test::to_d2(out.normal);
    const D2 expected = s.one_sided || test::dot(outward, d) < 0 ? outward : -1.0 * outward;
    EXPECT_NEAR(n.x, expected.x, 1e-4);
    EXPECT_NEAR(n.y, expected.y, 1e-4);
}

TEST(RaycastProperty, AgreesWithBruteForceOnEveryShape) {
    std::mt19937 rng(31337);
    const int cases = test::property_cases(100000);
    std::array<Tally, 6> tallies{};
    for (int c = 0; c < cases; ++c) {
        const Shape shape = random_shape(rng, c);
        const Transform xf = test::to_transform(test::random_pose(rng, 0.5));
        const RayInput in = random_ray(rng);
        const RefShape ref = reference_of(shape, xf);
        const RefRay r{test::to_d2(in.origin), test::to_d2(in.translation),
                       double(in.max_fraction)};
        const CastOutput out = raycast(in, shape, xf);
        SCOPED_TRACE("case " + std::to_string(c) + ", " + kind_name(shape));
        Tally& tally = tallies[c % 6];
        if (ref.solid) {
            check_solid(ref, r, out, tally);
        } else {
            check_segment(ref, r, out, tally);
        }
        if (HasFatalFailure() || HasNonfatalFailure()) {
            return; // one reported case is enough to debug
        }
    }
    // Every kind was hit and missed many times; solid ones started inside too.
    for (int k = 0; k < 6; ++k) {
        std::printf("kind %d: %d hits (%d on corner arcs), %d misses, %d starts inside\n", k,
                    tallies[k].hits, tallies[k].corner_hits, tallies[k].misses,
                    tallies[k].inside_starts);
        SCOPED_TRACE("kind " + std::to_string(k));
        // Thin segments are hit less, chain segments (one-sided) least.
        EXPECT_GT(tallies[k].hits, cases / (k == 5 ? 200 : 60));
        EXPECT_GT(tallies[k].misses, cases / 60);
        if (k != 3 && k != 5) {
            EXPECT_GT(tallies[k].inside_starts, cases / 600);
        }
    }
    EXPECT_GT(tallies[1].corner_hits, cases / 600); // rounded polygons, on their arcs
}

// Rays along a segment's line, to within the rounding of their float
// coordinates (origin and end placed on the line in double): before,
// toward, over and beyond the segment, moving either way, two-sided and as
// a chain segment either way round. The crossing's parameters are then
// quotients of rounding errors; a hit must still lie on the segment (one
// was reported 0.049 L short of it, another 5.3 L beyond it moving away).
TEST(RaycastProperty, RaysAlongASegmentsLineHitOnlyOnIt) {
    std::mt19937 rng(31338);
    const int cases = test::property_cases(40000);
    int misses = 0;
    for (int c = 0; c < cases; ++c) {
        const Segment segment = test::random_shape(rng, 3).segment;
        const Shape shape = c % 3 == 0   ? Shape(segment)
                            : c % 3 == 1 ? Shape(ChainSegment{segment.p1, segment, segment.p2})
                                         : Shape(ChainSegment{segment.p2, {segment.p2, segment.p1},
                                                              segment.p1});
        const Transform xf = test::to_transform(test::random_pose(rng, 3));
        const RefShape ref = reference_of(shape, xf);
        const D2 e = ref.core[1] - ref.core[0];
        const double t0 = test::uniform(rng, -3, 4);
        const double t1 = t0 + test::uniform(rng, -4, 4);
        const D2 from = ref.core[0] + t0 * e;
        const D2 to = ref.core[0] + t1 * e;
        const RayInput in{{real(from.x), real(from.y)},
                          {real(to.x - from.x), real(to.y - from.y)},
                          1};
        const CastOutput out = raycast(in, shape, xf);
        SCOPED_TRACE("case " + std::to_string(c) + ", " + kind_name(shape) + ", from " +
                     std::to_string(t0) + " to " + std::to_string(t1));
        if (out.state == CastState::miss) {
            ++misses;
            continue;
        }
        // A hit lies on the segment, no earlier than where the ray reaches
        // it (the side it comes from is rounding's to say: not checked).
        ASSERT_EQ(out.state, CastState::hit);
        const RefRay r{test::to_d2(in.origin), test::to_d2(in.translation), 1};
        const double length = test::norm(r.translation);
        EXPECT_LT(test::point_segment_distance(r.at(out.fraction), ref.core[0], ref.core[1]),
                  k_length_eps);
        const double reach = std::min(t0 > 1 ? t0 - 1 : t0 < 0 ? -t0 : 0, std::abs(t0 - t1)) *
                             test::norm(e) / length;
        EXPECT_GE(out.fraction, reach - k_length_eps / length);
        EXPECT_LE(out.fraction, 1);
    }
    EXPECT_GT(misses, cases / 2);
}

} // namespace
} // namespace sweep
