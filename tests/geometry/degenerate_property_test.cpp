// Every query on degenerate input (fixed seeds): zero-length segments and
// capsules, coincident points and placements, nearly parallel edges,
// coordinates near 1e4 (float build) or 1e6 (double build), tiny shapes
// (1e-4 L) and huge ones. Each query must return finite values or a
// documented state: never NaN, never an iteration count past its cap (so
// never a hang). Whether the answer is accurate there is the other property
// tests' business; here it only has to be a well-formed answer.
//
// Documented non-finite values: SweptAabbResult::exit, SweptCircleResult::exit
// and SweptSphereResult::exit may be +infinity ("they never part"); nothing
// else may be infinite, and nothing may be NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/mtv.hpp"
#include "sweep/overlap.hpp"
#include "sweep/shape_cast.hpp"
#include "sweep/swept.hpp"
#include "sweep/toi.hpp"

namespace sweep {
namespace {

using test::uniform;
using test::uniform_int;

#ifdef SWEEP_DOUBLE
constexpr double k_far = 1e6;  ///< "far from the origin" for the double build, L
constexpr double k_huge = 1e5; ///< half-size of a huge shape, L
#else
constexpr double k_far = 1e4;  ///< "far from the origin" for the float build, L
constexpr double k_huge = 1e3; ///< half-size of a huge shape, L
#endif
constexpr double k_tiny = 1e-4; ///< size of a tiny shape, L

bool finite(real v) { return std::isfinite(v); }
bool finite(Vec2 v) { return finite(v.x) && finite(v.y); }
bool finite_or_plus_infinity(real v) {
    return finite(v) || v == std::numeric_limits<real>::infinity();
}
/// A unit vector, within the rounding of normalising in `real`.
bool unit(Vec2 v) { return finite(v) && std::abs(length(v) - 1) < 1e-3; }

std::string to_string(Vec2 v) {
    std::ostringstream s;
    s.precision(9);
    s << "(" << v.x << ", " << v.y << ")";
    return s.str();
}

std::string describe(const Shape& s) {
    std::ostringstream o;
    o.precision(9);
    switch (s.type) {
    case ShapeType::circle:
        o << "circle " << to_string(s.circle.center) << " r " << s.circle.radius;
        break;
    case ShapeType::capsule:
        o << "capsule " << to_string(s.capsule.center1) << " " << to_string(s.capsule.center2)
          << " r " << s.capsule.radius;
        break;
    case ShapeType::polygon:
        o << "polygon of " << s.polygon.count << " r " << s.polygon.radius << ":";
        for (int i = 0; i < s.polygon.count; ++i) {
            o << " " << to_string(s.polygon.vertices[i]);
        }
        break;
    case ShapeType::segment:
        o << "segment " << to_string(s.segment.p1) << " " << to_string(s.segment.p2);
        break;
    case ShapeType::chain_segment:
        o << "chain " << to_string(s.chain_segment.ghost1) << " "
          << to_string(s.chain_segment.segment.p1) << " " << to_string(s.chain_segment.segment.p2)
          << " " << to_string(s.chain_segment.ghost2);
        break;
    }
    return o.str();
}

std::string describe(const Transform& xf) {
    std::ostringstream o;
    o.precision(9);
    o << "p " << to_string(xf.p) << " q (" << xf.q.c << ", " << xf.q.s << ")";
    return o.str();
}

Vec2 random_point(std::mt19937& rng, double range) {
    return {real(uniform(rng, -range, range)), real(uniform(rng, -range, range))};
}

/// A shape of size `size` (L) that is degenerate in the way `kind` says.
Shape degenerate_shape(std::mt19937& rng, int kind, double size) {
    const real s = real(size);
    switch (kind % 12) {
    case 0: { // a zero-length segment: a point
        const Vec2 p = random_point(rng, size);
        return Segment{p, p};
    }
    case 1: { // a capsule with coincident centres: a disc
        const Vec2 p = random_point(rng, size);
        return Capsule{p, p, real(size * uniform(rng, 0.1, 1))};
    }
    case 2: // a box of this size (tiny, ordinary or huge by `size`)
        return make_box(real(size * uniform(rng, 0.2, 1)), real(size * uniform(rng, 0.2, 1)))
            .value();
    case 3:
        return Circle{random_point(rng, 0.5 * size), real(size * uniform(rng, 0.1, 1))};
    case 4: { // a segment of this size
        const Vec2 p = random_point(rng, size);
        return Segment{p, p + Vec2{s, real(size * uniform(rng, -1, 1))}};
    }
    case 5: { // a capsule of this size
        const Vec2 p = random_point(rng, size);
        return Capsule{p, p + Vec2{s, 0}, real(size * uniform(rng, 0.05, 0.5))};
    }
    case 6: { // a sliver: a triangle 1e-5 of its length high, nearly a segment
        const std::vector<Vec2> points{
            {-s, 0}, {s, 0}, {real(size * uniform(rng, -0.9, 0.9)), real(2e-5 * size)}};
        auto sliver = make_polygon(points);
        return sliver ? Shape(*sliver) : Shape(make_box(s, real(1e-5 * size)).value());
    }
    case 7: // a rounded box
        return make_rounded_box(real(size * uniform(rng, 0.1, 1)),
                                real(size * uniform(rng, 0.1, 1)), real(size * 0.1))
            .value();
    case 8: { // a chain segment whose ghosts sit on its vertices (open ends)
        const Vec2 p = random_point(rng, size);
        const Segment seg{p, p + Vec2{s, real(size * uniform(rng, -0.5, 0.5))}};
        return ChainSegment{seg.p1, seg, seg.p2};
    }
    case 9: { // a zero-length chain segment with coincident ghosts
        const Vec2 p = random_point(rng, size);
        return ChainSegment{p, Segment{p, p}, p};
    }
    case 10: { // a chain segment with nearly collinear (and nearly reversed) ghosts
        const Vec2 p = random_point(rng, size);
        const Vec2 q = p + Vec2{s, 0};
        return ChainSegment{p - Vec2{s, real(1e-7 * size)}, Segment{p, q},
                            q + Vec2{real(-1e-3 * size), real(size * uniform(rng, -1e-6, 1e-6))}};
    }
    default: // a circle of zero radius (allowed: radius >= 0 in the sweeps)
        return Circle{random_point(rng, size), 0};
    }
}

double random_size(std::mt19937& rng, int kind) {
    switch (kind % 3) {
    case 0:
        return k_tiny * uniform(rng, 0.5, 2);
    case 1:
        return uniform(rng, 0.2, 2);
    default:
        return k_huge * uniform(rng, 0.1, 1);
    }
}

struct Case {
    Shape a;
    Shape b;
    Transform xfa;
    Transform xfb;
    std::string text;
};

/// A pair and its placement: coincident, nearly parallel (same angle to a
/// few ulps, B beside A at about their combined size), far from the origin,
/// or ordinary.
Case random_case(std::mt19937& rng, int c) {
    Case k;
    const double size_a = random_size(rng, c);
    const double size_b = random_size(rng, c / 3);
    k.a = degenerate_shape(rng, uniform_int(rng, 0, 11), size_a);
    k.b = uniform_int(rng, 0, 3) == 0 ? test::random_shape(rng, uniform_int(rng, 0, 4))
                                      : degenerate_shape(rng, uniform_int(rng, 0, 11), size_b);
    const double reach = std::max(size_a, size_b) + 1;
    const double far = uniform_int(rng, 0, 2) == 0 ? k_far : 0;
    const test::D2 base{far + uniform(rng, -1, 1), -far + uniform(rng, -1, 1)};
    const double angle = uniform(rng, -3.14159, 3.14159);
    k.xfa = test::to_transform({base, angle});
    switch (uniform_int(rng, 0, 3)) {
    case 0: // coincident placements
        k.xfb = k.xfa;
        break;
    case 1: { // nearly parallel, beside A
        const double d = angle + uniform(rng, -1e-6, 1e-6);
        const double off = reach * uniform(rng, 0, 1.2);
        k.xfb = test::to_transform(
            {{base.x - off * std::sin(angle), base.y + off * std::cos(angle)}, d});
        break;
    }
    case 2: // within reach, any angle
        k.xfb = test::to_transform(
            {{base.x + reach * uniform(rng, -1.5, 1.5), base.y + reach * uniform(rng, -1.5, 1.5)},
             uniform(rng, -3.14159, 3.14159)});
        break;
    default: // exactly the same angle, B shifted along A's x by a fraction of the reach
        k.xfb = k.xfa;
        k.xfb.p.x += real(reach * uniform(rng, -1, 1));
        break;
    }
    k.text = "case " + std::to_string(c) + ": A " + describe(k.a) + " at " + describe(k.xfa) +
             "; B " + describe(k.b) + " at " + describe(k.xfb);
    return k;
}

void check_distance(const Case& k) {
    for (const bool use_radii : {true, false}) {
        SimplexCache cache;
        const DistanceOutput d =
            distance({make_proxy(k.a), make_proxy(k.b), k.xfa, k.xfb, use_radii}, cache);
        ASSERT_TRUE(d.state == DistanceState::separated || d.state == DistanceState::cores_overlap)
            << k.text;
        ASSERT_LE(d.iterations, k_gjk_max_iterations) << k.text;
        ASSERT_TRUE(finite(d.distance) && d.distance >= 0) << k.text << ": distance " << d.distance;
        ASSERT_TRUE(finite(d.point_a) && finite(d.point_b) && finite(d.normal))
            << k.text << ": points " << to_string(d.point_a) << to_string(d.point_b);
        if (d.state == DistanceState::separated) {
            ASSERT_TRUE(unit(d.normal)) << k.text << ": normal " << to_string(d.normal);
        }
    }
}

void check_cast(std::mt19937& rng, const Case& k) {
    ShapeCastInput in;
    in.proxy_a = make_proxy(k.a);
    in.proxy_b = make_proxy(k.b);
    in.xf_a = k.xfa;
    in.xf_b = k.xfb;
    switch (uniform_int(rng, 0, 2)) {
    case 0:
        in.translation_b = {}; // no motion
        break;
    case 1:
        in.translation_b = k.xfa.p - k.xfb.p + random_point(rng, 1); // towards A
        break;
    default:
        in.translation_b = real(uniform(rng, 0.5, 2) * k_huge) * Vec2{1, real(uniform(rng, -1, 1))};
    }
    const CastOutput out = shape_cast(in);
    ASSERT_NE(out.state, CastState::invalid_input) << k.text;
    ASSERT_LE(out.iterations, k_toi_max_iterations) << k.text;
    ASSERT_TRUE(finite(out.fraction) && out.fraction >= 0 && out.fraction <= in.max_fraction)
        << k.text << ": fraction " << out.fraction;
    ASSERT_TRUE(finite(out.normal) && finite(out.point)) << k.text;
    if (out.state == CastState::hit || out.state == CastState::overlapped) {
        ASSERT_TRUE(unit(out.normal)) << k.text << ": normal " << to_string(out.normal);
    }
}

void check_toi(std::mt19937& rng, const Case& k) {
    ToiInput in;
    in.proxy_a = make_proxy(k.a);
    in.proxy_b = make_proxy(k.b);
    const real angle_a = k.xfa.q.angle();
    const real angle_b = k.xfb.q.angle();
    const bool still = uniform_int(rng, 0, 3) == 0;
    const Vec2 lc_a = random_point(rng, 0.3);
    const Vec2 lc_b = random_point(rng, 0.3);
    const Vec2 ca = transform_point(k.xfa, lc_a);
    const Vec2 cb = transform_point(k.xfb, lc_b);
    in.sweep_a = {lc_a, ca, ca, angle_a, angle_a};
    in.sweep_b = {lc_b, cb, still ? cb : ca + random_point(rng, 1), angle_b,
                  still ? angle_b : angle_b + real(uniform(rng, -20, 20))};
    const ToiOutput out = time_of_impact(in);
    ASSERT_NE(out.state, CastState::invalid_input) << k.text;
    ASSERT_LE(out.iterations, k_toi_max_iterations) << k.text;
    ASSERT_TRUE(finite(out.fraction) && out.fraction >= 0 && out.fraction <= in.max_fraction)
        << k.text << ": fraction " << out.fraction;
    ASSERT_TRUE(finite(out.normal)) << k.text;
    if (out.state == CastState::hit || out.state == CastState::overlapped) {
        ASSERT_TRUE(unit(out.normal)) << k.text << ": normal " << to_string(out.normal);
    }
}

void check_collide(const Case& k) {
    for (const bool swapped : {false, true}) {
        const Manifold m =
            swapped ? collide(k.b, k.xfb, k.a, k.xfa) : collide(k.a, k.xfa, k.b, k.xfb);
        ASSERT_GE(m.count, 0) << k.text;
        ASSERT_LE(m.count, 2) << k.text;
        ASSERT_TRUE(finite(m.normal) && finite(m.local_normal)) << k.text;
        if (m.count > 0) {
            ASSERT_TRUE(unit(m.normal))
                << k.text << (swapped ? " (swapped)" : "") << ": normal " << to_string(m.normal);
        }
        for (int i = 0; i < m.count; ++i) {
            const ManifoldPoint& p = m.points[i];
            ASSERT_TRUE(finite(p.point) && finite(p.anchor_a) && finite(p.anchor_b) &&
                        finite(p.separation))
                << k.text << (swapped ? " (swapped)" : "") << ": point " << i << " "
                << to_string(p.point) << " separation " << p.separation;
        }
    }
}

void check_overlaps(const Case& k) {
    // A bool cannot be NaN; it must not depend on the argument order, and
    // must not crash or loop.
    ASSERT_EQ(overlaps(k.a, k.xfa, k.b, k.xfb), overlaps(k.b, k.xfb, k.a, k.xfa)) << k.text;
}

void check_mtv_result(const Mtv& m, const std::string& text) {
    if (m.state == MtvState::invalid_input) {
        return;
    }
    ASSERT_TRUE(finite(m.separation) && finite(m.normal) && finite(m.translation))
        << text << ": separation " << m.separation << " normal " << to_string(m.normal);
    ASSERT_TRUE(unit(m.normal)) << text << ": normal " << to_string(m.normal);
}

void check_mtv(const Case& k) {
    const Aabb box_a = compute_aabb(k.a, k.xfa);
    const Aabb box_b = compute_aabb(k.b, k.xfb);
    check_mtv_result(mtv_aabbs(box_a, box_b), k.text + " (mtv_aabbs)");
    if (k.a.type == ShapeType::circle) {
        check_mtv_result(mtv_circle_aabb(k.a.circle, k.xfa, box_b), k.text + " (mtv_circle_aabb)");
        if (k.b.type == ShapeType::circle) {
            check_mtv_result(mtv_circles(k.a.circle, k.xfa, k.b.circle, k.xfb),
                             k.text + " (mtv_circles)");
        }
        if (k.b.type == ShapeType::polygon) {
            check_mtv_result(mtv_circle_obb(k.a.circle, k.xfa, k.b.polygon, k.xfb),
                             k.text + " (mtv_circle_obb)");
        }
    }
    if (k.a.type == ShapeType::polygon && k.b.type == ShapeType::polygon) {
        check_mtv_result(mtv_polygons(k.a.polygon, k.xfa, k.b.polygon, k.xfb),
                         k.text + " (mtv_polygons)");
    }
}

void check_swept(std::mt19937& rng, const Case& k) {
    // Boxes from the shapes (zero-size for points), moving by nothing, a
    // little, or a huge amount.
    const Aabb box_a = compute_aabb(k.a, k.xfa);
    const Aabb box_b = compute_aabb(k.b, k.xfb);
    const Vec2 motions[3] = {{},
                             k.xfb.p - k.xfa.p + random_point(rng, 0.1),
                             real(k_huge) * Vec2{1, real(uniform(rng, -1, 1))}};
    for (const Vec2 d : motions) {
        const SweptAabbResult r = swept_aabb(box_a, d, box_b);
        ASSERT_TRUE(finite(r.entry) && finite_or_plus_infinity(r.exit) && finite(r.normal) &&
                    finite(r.contact_length))
            << k.text << " (swept_aabb, d " << to_string(d) << "): entry " << r.entry << " exit "
            << r.exit;
        if (r.state == CastState::hit) {
            ASSERT_TRUE(unit(r.normal)) << k.text << " (swept_aabb)";
            ASSERT_TRUE(r.entry >= 0 && r.entry <= 1) << k.text << " (swept_aabb)";
        }
    }
    // Circles at the shapes' reference points, with their radii (0 for edges).
    const auto disc = [](const Shape& s, const Transform& xf) {
        switch (s.type) {
        case ShapeType::circle:
            return Circle{transform_point(xf, s.circle.center), s.circle.radius};
        case ShapeType::capsule:
            return Circle{transform_point(xf, s.capsule.center1), s.capsule.radius};
        case ShapeType::polygon:
            return Circle{transform_point(xf, s.polygon.centroid), s.polygon.radius};
        case ShapeType::segment:
            return Circle{transform_point(xf, s.segment.p1), 0};
        case ShapeType::chain_segment:
            return Circle{transform_point(xf, s.chain_segment.segment.p1), 0};
        }
        return Circle{};
    };
    const Circle ca = disc(k.a, k.xfa);
    const Circle cb = disc(k.b, k.xfb);
    for (const Vec2 d : motions) {
        const SweptCircleResult r =
            swept_circles(ca.center, ca.center + d, ca.radius, cb.center, cb.center, cb.radius);
        ASSERT_NE(r.state, CastState::invalid_input) << k.text << " (swept_circles)";
        ASSERT_TRUE(finite(r.t) && finite_or_plus_infinity(r.exit) && finite(r.normal) &&
                    finite(r.point))
            << k.text << " (swept_circles, d " << to_string(d) << "): t " << r.t << " exit "
            << r.exit;
        if (r.state == CastState::hit) {
            ASSERT_TRUE(unit(r.normal) && r.t >= 0 && r.t <= 1) << k.text << " (swept_circles)";
        }
        const real z = real(uniform(rng, -1, 1));
        const SweptSphereResult s3 = swept_spheres(
            {ca.center.x, ca.center.y, 0}, {ca.center.x + d.x, ca.center.y + d.y, z}, ca.radius,
            {cb.center.x, cb.center.y, 0}, {cb.center.x, cb.center.y, 0}, cb.radius);
        ASSERT_NE(s3.state, CastState::invalid_input) << k.text << " (swept_spheres)";
        ASSERT_TRUE(finite(s3.t) && finite_or_plus_infinity(s3.exit) && finite(s3.normal.x) &&
                    finite(s3.normal.y) && finite(s3.normal.z) && finite(s3.point.x) &&
                    finite(s3.point.y) && finite(s3.point.z))
            << k.text << " (swept_spheres): t " << s3.t << " exit " << s3.exit;
    }
}

/// The two end points of a shape's core as a segment (a point for circles).
std::pair<Vec2, Vec2> as_segment(const Shape& s, const Transform& xf) {
    switch (s.type) {
    case ShapeType::circle:
        return {transform_point(xf, s.circle.center), transform_point(xf, s.circle.center)};
    case ShapeType::capsule:
        return {transform_point(xf, s.capsule.center1), transform_point(xf, s.capsule.center2)};
    case ShapeType::polygon:
        return {transform_point(xf, s.polygon.vertices[0]),
                transform_point(xf, s.polygon.vertices[1])};
    case ShapeType::segment:
        return {transform_point(xf, s.segment.p1), transform_point(xf, s.segment.p2)};
    case ShapeType::chain_segment:
        return {transform_point(xf, s.chain_segment.segment.p1),
                transform_point(xf, s.chain_segment.segment.p2)};
    }
    return {};
}

void check_intersect_segments(const Case& k) {
    const auto [p0, p1] = as_segment(k.a, k.xfa);
    const auto [q0, q1] = as_segment(k.b, k.xfb);
    for (const bool same : {false, true}) {
        // Also each segment against itself: coincident, collinear, or a point on a point.
        const SegmentIntersection r =
            same ? intersect_segments(p0, p1, p0, p1) : intersect_segments(p0, p1, q0, q1);
        ASSERT_NE(r.state, SegmentIntersectionState::invalid_input) << k.text;
        ASSERT_TRUE(finite(r.t) && finite(r.s) && finite(r.t_end) && finite(r.s_end) &&
                    finite(r.point))
            << k.text << " (intersect_segments" << (same ? ", itself" : "") << "): t " << r.t
            << " s " << r.s << " point " << to_string(r.point);
    }
}

TEST(DegenerateProperty, EveryQueryReturnsFiniteValuesOrADocumentedState) {
    std::mt19937 rng(9001);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const Case k = random_case(rng, c);
        ASSERT_NO_FATAL_FAILURE(check_distance(k));
        ASSERT_NO_FATAL_FAILURE(check_cast(rng, k));
        ASSERT_NO_FATAL_FAILURE(check_toi(rng, k));
        ASSERT_NO_FATAL_FAILURE(check_collide(k));
        ASSERT_NO_FATAL_FAILURE(check_overlaps(k));
        ASSERT_NO_FATAL_FAILURE(check_mtv(k));
        ASSERT_NO_FATAL_FAILURE(check_swept(rng, k));
        ASSERT_NO_FATAL_FAILURE(check_intersect_segments(k));
    }
}

TEST(DegenerateProperty, NonFiniteTransformsGiveTheInvalidInputStates) {
    // The documented state for NaN and infinite placements.
    std::mt19937 rng(9002);
    const real bad[3] = {std::numeric_limits<real>::quiet_NaN(),
                         std::numeric_limits<real>::infinity(),
                         -std::numeric_limits<real>::infinity()};
    const int cases = test::property_cases(1000);
    for (int c = 0; c < cases; ++c) {
        Case k = random_case(rng, c);
        Transform& broken = c % 2 ? k.xfa : k.xfb;
        switch (c % 3) {
        case 0:
            broken.p.x = bad[c % 3];
            break;
        case 1:
            broken.p.y = bad[c % 3];
            break;
        default:
            broken.q.s = bad[c % 3];
        }
        SimplexCache cache;
        EXPECT_EQ(distance({make_proxy(k.a), make_proxy(k.b), k.xfa, k.xfb, true}, cache).state,
                  DistanceState::invalid_input);
        ShapeCastInput in;
        in.proxy_a = make_proxy(k.a);
        in.proxy_b = make_proxy(k.b);
        in.xf_a = k.xfa;
        in.xf_b = k.xfb;
        in.translation_b = {1, 0};
        EXPECT_EQ(shape_cast(in).state, CastState::invalid_input);
        ToiInput toi;
        toi.proxy_a = in.proxy_a;
        toi.proxy_b = in.proxy_b;
        toi.sweep_a = {{}, k.xfa.p, k.xfa.p, 0, 0};
        toi.sweep_b = {{}, k.xfb.p, k.xfb.p + Vec2{1, 0}, 0, bad[c % 3]};
        EXPECT_EQ(time_of_impact(toi).state, CastState::invalid_input);
        EXPECT_FALSE(overlaps(k.a, k.xfa, k.b, k.xfb));
        const Manifold m = collide(k.a, k.xfa, k.b, k.xfb);
        EXPECT_EQ(m.count, 0) << k.text;
    }
}

} // namespace
} // namespace sweep
