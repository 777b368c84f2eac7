// raycast against Box2D 2.4.1 (b2CircleShape::RayCast, b2PolygonShape::RayCast,
// b2EdgeShape::RayCast two-sided and one-sided via SetOneSided) on the same
// random inputs (fixed seeds). Built only for float builds with Box2D
// installed (Debian libbox2d-dev).
//
// Where the two agree on hit or miss they must agree on the fraction and the
// normal. The differences, each explained and tested:
// - Ambiguous inputs, within 1e-3 L of changing the answer: a ray grazing a
//   circle or passing a polygon's or segment's corner, an origin or an end
//   point on the surface, a ray nearly parallel to a segment. Both libraries
//   round differently there (Box2D's circle solves c^2 - |d|^2 b, which
//   cancels for long rays; ours goes through the line's closest point), so
//   either answer is right; the count of such cases is bounded.
// - An origin exactly on a polygon's face moving inward: ours hits at t = 0
//   (the touching rule of docs/conventions.md), Box2D's strict comparison
//   misses. Measure zero in random input: a hand case below.
// - An origin exactly on a chain segment moving outward: Box2D hits at t = 0
//   (its one-sided test only rejects origins strictly behind), ours misses.
// - Box2D's b2PolygonShape::RayCast ignores the polygon's radius (its skin,
//   b2_polygonRadius): it casts against the core. Ours casts against the
//   rounded shape, which is entered no later: a separate test checks that.
// - Box2D 2.4.1 has no capsule; capsules are not compared.
// Both treat a ray starting inside a solid shape as a miss.
#include <box2d/box2d.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/raycast.hpp"

namespace sweep {
namespace {

using test::D2;

static_assert(std::is_same_v<real, float>, "the Box2D oracle compares single-precision builds");

b2Vec2 to_b2(Vec2 v) { return {v.x, v.y}; }

b2Transform to_b2(const Transform& xf) {
    b2Transform out;
    out.p = to_b2(xf.p);
    out.q.c = xf.q.c;
    out.q.s = xf.q.s;
    return out;
}

/// The ray as Box2D takes it: p1, p2 = p1 + translation, maxFraction.
b2RayCastInput to_b2(const RayInput& in) {
    b2RayCastInput out;
    out.p1 = to_b2(in.origin);
    out.p2 = to_b2(in.origin + in.translation);
    out.maxFraction = in.max_fraction;
    return out;
}

/// Box2D's answer: hit or not, fraction, normal.
struct B2Hit {
    bool hit = false;
    float fraction = 0;
    Vec2 normal;
};

B2Hit box2d_cast(const b2Shape& shape, const RayInput& in, const Transform& xf) {
    b2RayCastOutput output{};
    B2Hit out;
    out.hit = shape.RayCast(&output, to_b2(in), to_b2(xf), 0);
    if (out.hit) {
        out.fraction = output.fraction;
        out.normal = {output.normal.x, output.normal.y};
    }
    return out;
}

/// Within this distance (L) of changing, a ray's answer is ambiguous in float.
constexpr double k_ambiguous = 1e-3;

/// The world features of a shape that make a ray ambiguous near them: the
/// boundary (for the origin and the end point) and the corners (for the
/// ray's path), in double.
struct Features {
    std::vector<D2> points; ///< the core: 1 (circle), 2 (segment) or a polygon
    double radius = 0;      ///< a circle's
    bool segment = false;
};

/// Distance from p to the boundary of the shape.
double boundary_distance(const Features& f, D2 p) {
    if (f.points.size() == 1) {
        return std::abs(test::norm(p - f.points[0]) - f.radius);
    }
    const std::size_t edges = f.segment ? 1 : f.points.size();
    double best = 1e300;
    for (std::size_t i = 0; i < edges; ++i) {
        best = std::min(best, test::point_segment_distance(p, f.points[i],
                                                           f.points[(i + 1) % f.points.size()]));
    }
    return best;
}

/// True when the ray's answer could change under a perturbation of
/// k_ambiguous: it starts or ends on the boundary, grazes a circle, passes a
/// corner, or runs nearly parallel to a segment.
bool ambiguous(const Features& f, const RayInput& in) {
    const D2 o = test::to_d2(in.origin);
    const D2 d = test::to_d2(in.translation);
    const D2 end = o + double(in.max_fraction) * d;
    if (boundary_distance(f, o) < k_ambiguous || boundary_distance(f, end) < k_ambiguous) {
        return true;
    }
    if (f.points.size() == 1) {
        const double line = test::point_segment_distance(f.points[0], o, end);
        return std::abs(line - f.radius) < k_ambiguous;
    }
    for (const D2 v : f.points) {
        if (test::point_segment_distance(v, o, end) < k_ambiguous) {
            return true;
        }
    }
    if (f.segment) {
        const D2 e = f.points[1] - f.points[0];
        const double sine = std::abs(test::cross(d, e)) / (test::norm(d) * test::norm(e));
        return sine < 1e-3;
    }
    return false;
}

Features features(const Shape& shape, const Transform& xf) {
    Features f;
    const auto place = [&](Vec2 v) { f.points.push_back(test::apply(xf, test::to_d2(v))); };
    switch (shape.type) {
    case ShapeType::circle:
        place(shape.circle.center);
        f.radius = shape.circle.radius;
        break;
    case ShapeType::polygon:
        for (int i = 0; i < shape.polygon.count; ++i) {
            place(shape.polygon.vertices[i]);
        }
        break;
    case ShapeType::segment:
        place(shape.segment.p1);
        place(shape.segment.p2);
        f.segment = true;
        break;
    case ShapeType::chain_segment:
        place(shape.chain_segment.segment.p1);
        place(shape.chain_segment.segment.p2);
        f.segment = true;
        break;
    case ShapeType::capsule:
        break;
    }
    return f;
}

/// A random ray near a shape placed within 0.5 of the origin (the property
/// test's mix: aimed from afar, or starting near or inside, sometimes cut).
RayInput random_ray(std::mt19937& rng) {
    RayInput in;
    const Vec2 aim{real(test::uniform(rng, -1, 1)), real(test::uniform(rng, -1, 1))};
    if (test::uniform_int(rng, 0, 9) < 6) {
        in.origin = {real(test::uniform(rng, -6, 6)), real(test::uniform(rng, -6, 6))};
        in.translation = real(test::uniform(rng, 0.6, 2.0)) * (aim - in.origin);
    } else {
        in.origin = {real(test::uniform(rng, -1.5, 1.5)), real(test::uniform(rng, -1.5, 1.5))};
        const double a = test::uniform(rng, -3.14159, 3.14159);
        const double len = test::uniform(rng, 0.1, 4);
        in.translation = {real(len * std::cos(a)), real(len * std::sin(a))};
    }
    in.max_fraction = test::uniform_int(rng, 0, 9) < 7 ? real(1) : real(test::uniform(rng, 0, 1.5));
    return in;
}

/// Outcome counts of one comparison.
struct Agreement {
    int both_hit = 0;
    int both_miss = 0;
    int ambiguous_disagreements = 0;
    double worst_fraction_error = 0; ///< |ours - Box2D's| * |translation|, L
};

/// Compares one cast: same answer, or an ambiguous input.
void compare(const Shape& shape, const b2Shape& b2shape, const RayInput& in, const Transform& xf,
             Agreement& tally) {
    const CastOutput ours = raycast(in, shape, xf);
    const B2Hit theirs = box2d_cast(b2shape, in, xf);
    ASSERT_NE(ours.state, CastState::invalid_input);
    const bool ours_hit = ours.state == CastState::hit;
    if (ours_hit != theirs.hit) {
        EXPECT_TRUE(ambiguous(features(shape, xf), in))
            << "ours " << (ours_hit ? "hits" : "misses") << ", Box2D's "
            << (theirs.hit ? "hits" : "misses") << " at " << theirs.fraction << " / ours "
            << ours.fraction << "; origin (" << in.origin.x << ", " << in.origin.y
            << ") translation (" << in.translation.x << ", " << in.translation.y << ")";
        ++tally.ambiguous_disagreements;
        return;
    }
    if (!ours_hit) {
        ++tally.both_miss;
        return;
    }
    ++tally.both_hit;
    const double len = double(length(in.translation));
    const double error = std::abs(double(ours.fraction) - double(theirs.fraction)) * len;
    tally.worst_fraction_error = std::max(tally.worst_fraction_error, error);
    // Box2D's circle formula c^2 - |d|^2 b cancels for long rays: against a
    // double reference its fractions err by up to ~7e-4 L on these inputs,
    // ours by ~1e-5 L. Polygons and segments agree to ~3e-5 L.
    EXPECT_LT(error, 5e-4) << "fractions " << ours.fraction << " vs " << theirs.fraction;
    // At a polygon's corner either face's normal is right; elsewhere they agree.
    if (!ambiguous(features(shape, xf), in)) {
        EXPECT_NEAR(ours.normal.x, theirs.normal.x, 1e-3);
        EXPECT_NEAR(ours.normal.y, theirs.normal.y, 1e-3);
    }
}

void expect_mostly_agreed(const Agreement& tally, int cases, const char* what,
                          int min_hit_percent = 10) {
    SCOPED_TRACE(what);
    EXPECT_GT(tally.both_hit, cases / 100 * min_hit_percent);
    EXPECT_GT(tally.both_miss, cases / 10);
    EXPECT_LT(tally.ambiguous_disagreements, std::max(5, cases / 200));
    std::printf(
        "%s: %d both hit, %d both miss, %d ambiguous disagreements, worst |dt|*|d| %.2g L\n", what,
        tally.both_hit, tally.both_miss, tally.ambiguous_disagreements, tally.worst_fraction_error);
}

TEST(RaycastOracle, CirclesMatchB2CircleShape) {
    std::mt19937 rng(241);
    const int cases = test::property_cases(20000);
    Agreement tally;
    for (int c = 0; c < cases; ++c) {
        const Circle circle = test::random_shape(rng, 2).circle;
        const Transform xf = test::to_transform(test::random_pose(rng, 0.5));
        const RayInput in = random_ray(rng);
        b2CircleShape b2circle;
        b2circle.m_p = to_b2(circle.center);
        b2circle.m_radius = circle.radius;
        SCOPED_TRACE("case " + std::to_string(c));
        compare(circle, b2circle, in, xf, tally);
        if (HasFailure()) {
            return;
        }
    }
    expect_mostly_agreed(tally, cases, "circles");
}

/// Box2D's polygon for ours (false when its hull welds points ours keeps).
bool to_b2(const Polygon& polygon, b2PolygonShape& out) {
    std::array<b2Vec2, k_max_polygon_vertices> v{};
    for (int i = 0; i < polygon.count; ++i) {
        v[i] = to_b2(polygon.vertices[i]);
    }
    out.Set(v.data(), polygon.count);
    return out.m_count == polygon.count;
}

TEST(RaycastOracle, SharpPolygonsMatchB2PolygonShape) {
    std::mt19937 rng(242);
    const int cases = test::property_cases(20000);
    Agreement tally;
    for (int c = 0; c < cases; ++c) {
        const Polygon polygon = test::random_shape(rng, 0).polygon;
        const Transform xf = test::to_transform(test::random_pose(rng, 0.5));
        const RayInput in = random_ray(rng);
        b2PolygonShape b2polygon;
        if (!to_b2(polygon, b2polygon)) {
            continue;
        }
        SCOPED_TRACE("case " + std::to_string(c));
        compare(polygon, b2polygon, in, xf, tally);
        if (HasFailure()) {
            return;
        }
    }
    expect_mostly_agreed(tally, cases, "polygons");
}

TEST(RaycastOracle, RoundedPolygonsAreEnteredNoLaterThanB2sCore) {
    // b2PolygonShape::RayCast ignores m_radius: it casts against the core.
    // Ours casts against the core grown by the radius, which contains it, so
    // whenever Box2D hits the core from outside our rounded shape, ours hits
    // no later; and where ours hits a flat face, the fraction is the core's
    // minus radius / (speed along the normal).
    std::mt19937 rng(243);
    const int cases = test::property_cases(20000);
    int compared = 0;
    int earlier = 0;
    for (int c = 0; c < cases; ++c) {
        const Polygon polygon = test::random_shape(rng, 1).polygon;
        const Transform xf = test::to_transform(test::random_pose(rng, 0.5));
        const RayInput in = random_ray(rng);
        b2PolygonShape core;
        if (!to_b2(polygon, core)) {
            continue;
        }
        core.m_radius = polygon.radius; // ignored by RayCast, as documented
        const B2Hit theirs = box2d_cast(core, in, xf);
        const CastOutput ours = raycast(in, polygon, xf);
        if (!theirs.hit || ours.state == CastState::hit) {
            if (theirs.hit) {
                ++compared;
                EXPECT_LE(ours.fraction, theirs.fraction + 1e-5) << "case " << c;
                earlier += ours.fraction < theirs.fraction ? 1 : 0;
            }
            continue;
        }
        // Box2D hits the core, ours misses: only when the ray starts inside
        // the rounded shape (within the radius of the core, outside it).
        const D2 o = test::to_d2(in.origin);
        std::vector<D2> world;
        for (int i = 0; i < polygon.count; ++i) {
            world.push_back(test::apply(xf, test::to_d2(polygon.vertices[i])));
        }
        const double core_distance = test::convex_distance(world, std::span(&o, 1));
        EXPECT_LT(core_distance, double(polygon.radius) + 1e-4)
            << "case " << c << ": Box2D hits the core, ours misses the rounded shape";
    }
    EXPECT_GT(compared, cases / 10);
    EXPECT_EQ(earlier, compared) << "a radius > 0 enters strictly earlier";
}

TEST(RaycastOracle, SegmentsMatchB2EdgeShapeTwoSided) {
    std::mt19937 rng(244);
    const int cases = test::property_cases(20000);
    Agreement tally;
    for (int c = 0; c < cases; ++c) {
        const Segment segment = test::random_shape(rng, 3).segment;
        const Transform xf = test::to_transform(test::random_pose(rng, 0.5));
        const RayInput in = random_ray(rng);
        b2EdgeShape edge;
        edge.SetTwoSided(to_b2(segment.p1), to_b2(segment.p2));
        SCOPED_TRACE("case " + std::to_string(c));
        compare(segment, edge, in, xf, tally);
        if (HasFailure()) {
            return;
        }
    }
    expect_mostly_agreed(tally, cases, "segments");
}

TEST(RaycastOracle, ChainSegmentsMatchB2EdgeShapeOneSided) {
    std::mt19937 rng(245);
    const int cases = test::property_cases(20000);
    Agreement tally;
    for (int c = 0; c < cases; ++c) {
        const Segment segment = test::random_shape(rng, 3).segment;
        const Vec2 e = segment.p2 - segment.p1;
        const ChainSegment chain{segment.p1 - e, segment, segment.p2 + e};
        const Transform xf = test::to_transform(test::random_pose(rng, 0.5));
        const RayInput in = random_ray(rng);
        b2EdgeShape edge;
        edge.SetOneSided(to_b2(chain.ghost1), to_b2(segment.p1), to_b2(segment.p2),
                         to_b2(chain.ghost2));
        SCOPED_TRACE("case " + std::to_string(c));
        compare(chain, edge, in, xf, tally);
        if (HasFailure()) {
            return;
        }
    }
    // One-sided: about half the crossings come from behind and miss in both.
    expect_mostly_agreed(tally, cases, "chain segments", 5);
}

TEST(RaycastOracle, OriginOnAPolygonFaceIsTheDeliberateDifference) {
    // The unit box; the origin (-1, 0) on its left face, moving inward.
    // Ours: t = 0, normal (-1, 0) (touching, docs/conventions.md). Box2D's
    // clip needs numerator < lower * denominator strictly, so the face never
    // counts as entered: no hit. Moving outward, both miss.
    const Polygon box = make_box(1, 1).value();
    b2PolygonShape b2box;
    b2box.SetAsBox(1, 1);
    const RayInput inward{{-1, 0}, {1, 0}, 1};
    EXPECT_EQ(raycast(inward, box, k_identity).state, CastState::hit);
    EXPECT_FALSE(box2d_cast(b2box, inward, k_identity).hit);
    const RayInput outward{{-1, 0}, {-1, 0}, 1};
    EXPECT_EQ(raycast(outward, box, k_identity).state, CastState::miss);
    EXPECT_FALSE(box2d_cast(b2box, outward, k_identity).hit);
}

TEST(RaycastOracle, OriginOnAChainSegmentMovingOutIsTheOtherDifference) {
    // The floor (1, 0) -> (-1, 0), outward normal (0, 1); origin on it.
    // Moving up (out): Box2D's one-sided test rejects only origins strictly
    // behind, so it hits at t = 0; ours misses (moving away from the surface).
    // Moving down (in): both hit at t = 0 with normal (0, 1).
    const ChainSegment floor{{2, 0}, {{1, 0}, {-1, 0}}, {-2, 0}};
    b2EdgeShape edge;
    edge.SetOneSided({2, 0}, {1, 0}, {-1, 0}, {-2, 0});
    const RayInput up{{0, 0}, {0, 1}, 1};
    EXPECT_EQ(raycast(up, floor, k_identity).state, CastState::miss);
    EXPECT_TRUE(box2d_cast(edge, up, k_identity).hit);
    const RayInput down{{0, 0}, {0, -1}, 1};
    const CastOutput ours = raycast(down, floor, k_identity);
    const B2Hit theirs = box2d_cast(edge, down, k_identity);
    ASSERT_EQ(ours.state, CastState::hit);
    ASSERT_TRUE(theirs.hit);
    EXPECT_EQ(ours.fraction, theirs.fraction);
    EXPECT_EQ(ours.normal, theirs.normal);
}

TEST(RaycastOracle, BothMissFromInside) {
    // A ray starting inside a solid shape hits nothing in either library.
    b2CircleShape b2circle;
    b2circle.m_radius = 1;
    b2PolygonShape b2box;
    b2box.SetAsBox(1, 1);
    const RayInput in{{real(0.2), real(0.1)}, {5, 3}, 1};
    EXPECT_FALSE(box2d_cast(b2circle, in, k_identity).hit);
    EXPECT_FALSE(box2d_cast(b2box, in, k_identity).hit);
    EXPECT_EQ(raycast(in, Circle{{}, 1}, k_identity).state, CastState::miss);
    EXPECT_EQ(raycast(in, make_box(1, 1).value(), k_identity).state, CastState::miss);
}

} // namespace
} // namespace sweep
