// Contact manifolds on random pairs of circles and polygons (fixed seeds),
// checked against the reference geometry: anchors on the surfaces, point
// separations consistent with their anchors, no contact missed within the
// speculative distance, no point deeper than the penetration depth, and
// normals that resolve the overlap.
#include "sweep/manifold.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/distance.hpp"
#include "sweep/overlap.hpp"

namespace sweep {
namespace {

using test::k_length_eps;

/// Distance from a world point to a shape's core (0 inside).
double distance_to_core(Vec2 point, const Shape& shape, const Transform& xf) {
    const std::vector<test::D2> one{test::to_d2(point)};
    return test::convex_distance(one, test::world_points(make_proxy(shape), xf));
}

/// The least separation of a manifold's points (count > 0).
double least_separation(const Manifold& m) {
    double least = m.points[0].separation;
    for (int i = 1; i < m.count; ++i) {
        least = std::min(least, double(m.points[i].separation));
    }
    return least;
}

double radius_of(const Shape& s) {
    switch (s.type) {
    case ShapeType::circle:
        return s.circle.radius;
    case ShapeType::capsule:
        return s.capsule.radius;
    case ShapeType::polygon:
        return s.polygon.radius;
    default:
        return 0;
    }
}

/// Brute force separating-axis value of two sharp polygons: the largest, over
/// every face normal of either, of the gap between them along it (negative:
/// the penetration depth).
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
            const test::D2 n = (1 / test::norm(e)) * test::D2{e.y, -e.x};
            double s = std::numeric_limits<double>::infinity();
            for (test::D2 v : other) {
                s = std::min(s, test::dot(n, v - ref[i]));
            }
            best = std::max(best, s);
        }
    };
    faces(va, vb);
    faces(vb, va);
    return best;
}

// Polygons, rounded polygons, circles and capsules.
Shape random_solid(std::mt19937& rng, int kind) {
    const int k = kind % 4;
    return test::random_shape(rng, k == 3 ? 4 : k);
}

TEST(CollideProperty, PointsSitBetweenTheSurfacesAndMatchTheirAnchors) {
    std::mt19937 rng(314);
    const int cases = test::property_cases(100000);
    int contacts = 0;
    for (int c = 0; c < cases; ++c) {
        const Shape a = random_solid(rng, c);
        const Shape b = random_solid(rng, c / 3);
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        const Transform xfb = test::to_transform(test::random_pose(rng, 2));
        const CollideSettings settings;
        const Manifold m = collide(a, xfa, b, xfb, settings);
        const double core = test::core_distance(make_proxy(a), xfa, make_proxy(b), xfb);
        const double gap = core - radius_of(a) - radius_of(b);
        SCOPED_TRACE("case " + std::to_string(c) + " types " + std::to_string(int(a.type)) + "," +
                     std::to_string(int(b.type)) + ", reference gap " + std::to_string(gap));
        ASSERT_GE(m.count, 0);
        ASSERT_LE(m.count, 2);
        // No contact missed: shapes within the speculative distance get points.
        if (gap < double(settings.speculative_distance) - 1e-3) {
            EXPECT_GE(m.count, 1);
        }
        if (m.count == 0) {
            continue;
        }
        ++contacts;
        EXPECT_NEAR(length(m.normal), 1, 1e-5);
        for (int i = 0; i < m.count; ++i) {
            const ManifoldPoint& p = m.points[i];
            const Vec2 wa = transform_point(xfa, p.anchor_a);
            const Vec2 wb = transform_point(xfb, p.anchor_b);
            EXPECT_NEAR(p.separation, dot(wb - wa, m.normal), k_length_eps);
            EXPECT_NEAR(p.point.x, 0.5 * (wa.x + wb.x), k_length_eps);
            EXPECT_NEAR(p.point.y, 0.5 * (wa.y + wb.y), k_length_eps);
            EXPECT_LE(p.separation, settings.speculative_distance + k_length_eps);
            // On the surfaces. (Not checked with a rounded polygon in the pair:
            // like Box2D, the clipping side planes are then pushed out by the
            // total radius, so a point may lie on the face's plane beyond the
            // face, where the rounded corner is.)
            // Capsules against polygons clip as two-vertex rounded polygons.
            const auto rounded = [](const Shape& s) {
                return (s.type == ShapeType::polygon && radius_of(s) > 0) ||
                       s.type == ShapeType::capsule;
            };
            const bool rounded_polygon = (rounded(a) && b.type == ShapeType::polygon) ||
                                         (rounded(b) && a.type == ShapeType::polygon) ||
                                         (rounded(a) && rounded(b) && a.type != b.type) ||
                                         (rounded(a) && rounded(b) && core < 1e-3);
            if (!rounded_polygon) {
                EXPECT_NEAR(distance_to_core(wa, a, xfa), radius_of(a), k_length_eps);
                EXPECT_NEAR(distance_to_core(wb, b, xfb), radius_of(b), k_length_eps);
            }
        }
        if (m.count == 2) {
            EXPECT_NE(m.points[0].id, m.points[1].id);
        }
    }
    EXPECT_GT(contacts, cases / 10); // the generator makes enough contacts
}

/// B's pose with its gap to A, placed along a random direction from A at a
/// gap of about `gap` (bisection on the distance along the line, which is
/// convex in the position, so that B meets A with any of its features).
struct NearPose {
    Transform xf;
    double gap = 0; ///< the reference geometry's, of the pose found
};

NearPose place_at_gap(std::mt19937& rng, const Shape& a, const Transform& xfa, const Shape& b,
                      double gap) {
    const double angle = test::uniform(rng, -3.14159, 3.14159);
    const Vec2 dir{real(std::cos(angle)), real(std::sin(angle))};
    Transform xfb{xfa.p, Rot::from_angle(real(test::uniform(rng, -3.14159, 3.14159)))};
    const double radii = radius_of(a) + radius_of(b);
    const auto gap_at = [&](double t) {
        xfb.p = xfa.p + real(t) * dir;
        return test::core_distance(make_proxy(a), xfa, make_proxy(b), xfb) - radii;
    };
    double near = 0; // overlapping: B's origin on A's
    double far = 8;  // apart: the shapes are about 1 across
    for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (near + far);
        (gap_at(mid) < gap ? near : far) = mid;
    }
    return {xfb, gap_at(far)};
}

TEST(CollideProperty, SpeculativePointsNeverClaimMoreRoomThanTheGap) {
    // The world collides pairs with the speculative distance plus the
    // distance they may close in a step (a tenth of a metre and more for
    // fast bodies), and the solver lets each point close by its separation:
    // a pair within the speculative distance gets a point, and its nearest
    // point is no farther than the true gap (a tenth of a slop of rounding
    // allowed), whatever features are nearest. B is placed at a random gap
    // below the speculative distance, in a random direction from A.
    // (Overlapping pairs: the penetration depth's test below.)
    std::mt19937 rng(316);
    const int cases = test::property_cases(20000);
    for (int c = 0; c < cases; ++c) {
        const Shape a = random_solid(rng, c);
        const Shape b = random_solid(rng, c / 4);
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        const CollideSettings settings{real(test::uniform(rng, 0.02, 0.4)), k_linear_slop};
        const NearPose placed =
            place_at_gap(rng, a, xfa, b, test::uniform(rng, 0, settings.speculative_distance));
        if (placed.gap < 0 || placed.gap > double(settings.speculative_distance) - 1e-3) {
            continue; // the bisection's last step crossed the bounds
        }
        const Manifold m = collide(a, xfa, b, placed.xf, settings);
        SCOPED_TRACE("case " + std::to_string(c) + " types " + std::to_string(int(a.type)) + "," +
                     std::to_string(int(b.type)) + ", gap " + std::to_string(placed.gap) +
                     ", speculative " + std::to_string(settings.speculative_distance));
        ASSERT_GE(m.count, 1);
        const double least = least_separation(m);
        // Nearly parallel capsules (cores within 0.05 rad) get two points
        // on B's core clipped to A's extent, each on B's surface along B's
        // own side normal (collide_capsules): up to (1 - cos 0.05) of B's
        // radius and of the cores' distance more than the gap (B's surface
        // leans from A's normal; the cores' closest points may lie just past
        // A's end).
        const double leaning =
            a.type == ShapeType::capsule && b.type == ShapeType::capsule
                ? (1 - std::cos(0.05)) * (placed.gap + radius_of(a) + 2 * radius_of(b))
                : 0;
        EXPECT_LE(least, placed.gap + 0.1 * double(k_linear_slop) + leaning + k_length_eps);
    }
}

TEST(CollideProperty, PolygonPointsAreNeverDeeperThanThePenetrationDepth) {
    // Every point's separation is at least the best separating-axis value
    // (minus the reference-face hysteresis 0.1 * slop); overlapping polygons
    // always get a point at least that deep plus nothing.
    std::mt19937 rng(315);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const Polygon a =
            test::random_polygon(rng, test::uniform_int(rng, 3, 8), test::uniform(rng, 0.2, 1.5));
        const Polygon b =
            test::random_polygon(rng, test::uniform_int(rng, 3, 8), test::uniform(rng, 0.2, 1.5));
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        const Transform xfb = test::to_transform(test::random_pose(rng, 2));
        const Manifold m = collide_polygons(a, xfa, b, xfb);
        const double sat = max_face_separation(a, xfa, b, xfb);
        SCOPED_TRACE("case " + std::to_string(c) + ", separating-axis value " +
                     std::to_string(sat));
        for (int i = 0; i < m.count; ++i) {
            EXPECT_GE(m.points[i].separation, sat - 0.1 * double(k_linear_slop) - k_length_eps);
        }
        if (sat < -1e-3) {
            ASSERT_GE(m.count, 1);
        }
    }
}

TEST(CollideProperty, CirclePairsMoveApartAlongTheNormalByTheSeparation) {
    // For a circle against a circle or a polygon the manifold is exact:
    // moving B by -separation along the normal leaves the shapes just touching.
    std::mt19937 rng(316);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const Shape a = random_solid(rng, c); // polygon, rounded polygon or circle
        const Shape b = test::random_shape(rng, 2);
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        Transform xfb = test::to_transform(test::random_pose(rng, 2));
        const Manifold m = collide(a, xfa, b, xfb);
        if (m.count == 0) {
            continue;
        }
        ASSERT_EQ(m.count, 1);
        SCOPED_TRACE("case " + std::to_string(c));
        xfb.p -= m.points[0].separation * m.normal;
        const double gap = test::core_distance(make_proxy(a), xfa, make_proxy(b), xfb) -
                           radius_of(a) - radius_of(b);
        // Also with the centre inside the polygon: moved out along the face
        // of least penetration it stays behind every other face.
        EXPECT_NEAR(gap, 0, k_length_eps);
    }
}

TEST(CollideProperty, SwappingCircleAndPolygonFlipsTheNormalOnly) {
    std::mt19937 rng(317);
    const int cases = test::property_cases(100000);
    for (int c = 0; c < cases; ++c) {
        const Shape polygon = random_solid(rng, c % 2);
        const Shape circle = test::random_shape(rng, 2);
        const Transform xf_polygon = test::to_transform(test::random_pose(rng, 0.5));
        const Transform xf_circle = test::to_transform(test::random_pose(rng, 2));
        const Manifold pc = collide(polygon, xf_polygon, circle, xf_circle);
        const Manifold cp = collide(circle, xf_circle, polygon, xf_polygon);
        SCOPED_TRACE("case " + std::to_string(c));
        ASSERT_EQ(pc.count, cp.count);
        if (pc.count == 0) {
            continue;
        }
        EXPECT_NEAR(cp.normal.x, -pc.normal.x, 1e-6);
        EXPECT_NEAR(cp.normal.y, -pc.normal.y, 1e-6);
        EXPECT_NEAR(cp.points[0].separation, pc.points[0].separation, 1e-6);
        EXPECT_NEAR(cp.points[0].point.x, pc.points[0].point.x, 1e-6);
        EXPECT_NEAR(cp.points[0].point.y, pc.points[0].point.y, 1e-6);
        EXPECT_EQ(cp.points[0].id, pc.points[0].id);
    }
}

// The direct capsule-circle manifold is the polygon form's, bit for bit:
// collide_polygon_circle on capsule_polygon is the oracle (and the disc
// for a zero-length capsule), over capsules short and long, thin and fat,
// with centres off the line, over the ends and on the core.
TEST(CollideProperty, CapsuleCircleMatchesThePolygonForm) {
    std::mt19937 rng(318);
    const int cases = test::property_cases(100000);
    int contacts = 0;
    for (int c = 0; c < cases; ++c) {
        const Capsule capsule = c % 50 == 0 ? Capsule{{0.3f, -0.2f}, {0.3f, -0.2f}, 0.4f}
                                            : test::random_shape(rng, 4).capsule;
        const Circle circle = test::random_shape(rng, 2).circle;
        const Transform xfa = test::to_transform(test::random_pose(rng, 0.5));
        const Transform xfb = test::to_transform(test::random_pose(rng, 2));
        const Manifold direct = collide_capsule_circle(capsule, xfa, circle, xfb);
        const Manifold oracle =
            c % 50 == 0 ? collide_circles({capsule.center1, capsule.radius}, xfa, circle, xfb)
                        : collide_polygon_circle(capsule_polygon(capsule), xfa, circle, xfb);
        SCOPED_TRACE("case " + std::to_string(c));
        ASSERT_EQ(direct.count, oracle.count);
        contacts += direct.count;
        if (direct.count == 0) {
            continue;
        }
        EXPECT_EQ(direct.normal, oracle.normal);
        EXPECT_EQ(direct.local_normal, oracle.local_normal);
        EXPECT_EQ(direct.reference_is_b, oracle.reference_is_b);
        EXPECT_EQ(direct.points[0].id, oracle.points[0].id);
        EXPECT_EQ(direct.points[0].point, oracle.points[0].point);
        EXPECT_EQ(direct.points[0].anchor_a, oracle.points[0].anchor_a);
        EXPECT_EQ(direct.points[0].anchor_b, oracle.points[0].anchor_b);
        EXPECT_EQ(direct.points[0].separation, oracle.points[0].separation);
    }
    EXPECT_GT(contacts, cases / 10);
}

// A circle whose centre lies on the line of a segment's or capsule's core,
// beyond an end or over the core, is measured from the core (its nearest
// point, by double arithmetic): the centre lies behind both faces of the
// two-vertex form as often as in front, by rounding, and was once taken as
// inside, a whole radius deep 4.9 L beyond the end (seed 1075589 of the
// random scenes); overlaps() said such a disc overlapped. Both argument
// orders, world poses, both kinds.
TEST(CollideProperty, CircleOnTheLineOfASegmentIsMeasuredFromItsCore) {
    std::mt19937 rng(319);
    const int cases = test::property_cases(40000);
    int contacts = 0;
    int apart = 0;
    for (int c = 0; c < cases; ++c) {
        const Shape edge = test::random_shape(rng, 3 + c % 2); // segment or capsule
        const Vec2 p1 = edge.type == ShapeType::segment ? edge.segment.p1 : edge.capsule.center1;
        const Vec2 p2 = edge.type == ShapeType::segment ? edge.segment.p2 : edge.capsule.center2;
        const double t = c % 4 == 0 ? test::uniform(rng, 0, 1)
                                    : (c % 4 == 1 ? -1 : 1) * test::uniform(rng, 0, 6) +
                                          (c % 4 == 3 ? 1 : 0);
        const Transform xf = test::to_transform(test::random_pose(rng, 3));
        const test::D2 local = test::to_d2(p1) + t * (test::to_d2(p2) - test::to_d2(p1));
        const test::D2 world = test::apply(xf, local);
        const Circle circle{{0, 0}, real(test::uniform(rng, 0.05, 1))};
        const Transform xf_circle{{real(world.x), real(world.y)},
                                  Rot::from_angle(real(test::uniform(rng, -3, 3)))};
        const double gap = test::core_distance(make_proxy(edge), xf, make_proxy(Shape(circle)),
                                               xf_circle) -
                           radius_of(edge) - circle.radius;
        const Manifold m = collide(edge, xf, circle, xf_circle);
        const Manifold flipped = collide(circle, xf_circle, edge, xf);
        SCOPED_TRACE("case " + std::to_string(c) + " t " + std::to_string(t));
        if (std::abs(gap + k_touch_tolerance) > 1e-4) {
            const bool overlapping = gap < -k_touch_tolerance;
            EXPECT_EQ(overlaps(edge, xf, circle, xf_circle), overlapping) << "gap " << gap;
            EXPECT_EQ(overlaps(circle, xf_circle, edge, xf), overlapping) << "gap " << gap;
        }
        ASSERT_EQ(m.count, flipped.count);
        if (gap > k_speculative_distance + 1e-4) {
            ++apart;
            EXPECT_EQ(m.count, 0) << "gap " << gap << ", separation " << m.points[0].separation;
            continue;
        }
        if (gap > k_speculative_distance - 1e-4 && m.count == 0) {
            continue; // on the speculative distance: either answer
        }
        ASSERT_EQ(m.count, 1) << "gap " << gap;
        ++contacts;
        EXPECT_NEAR(m.points[0].separation, gap, 1e-4);
        EXPECT_NEAR(flipped.points[0].separation, gap, 1e-4);
    }
    EXPECT_GT(contacts, cases / 10);
    EXPECT_GT(apart, cases / 2);
}

// A needle (a triangle 1 to 3 L long, 1e-3 to 1e-2 L wide at its base)
// whose tip lies on the line of a segment's or capsule's core, beyond its
// end, pointing away: along the needle's long faces' normals the tip lies
// within a tenth of a slop of the line however far it is, so the faces'
// axes call the pair touching. A capsule 0.3 L from such a tip got a
// contact a whole radius deep; GJK's distance decides (closest_cores).
TEST(CollideProperty, ANeedlesTipOnAnEdgesLineIsMeasuredFromTheEdge) {
    std::mt19937 rng(320);
    const int cases = test::property_cases(20000);
    int near = 0;
    for (int c = 0; c < cases; ++c) {
        const Shape edge = test::random_shape(rng, 3 + c % 2); // segment or capsule
        const Vec2 p1 = edge.type == ShapeType::segment ? edge.segment.p1 : edge.capsule.center1;
        const Vec2 p2 = edge.type == ShapeType::segment ? edge.segment.p2 : edge.capsule.center2;
        const Transform xf = test::to_transform(test::random_pose(rng, 3));
        // The tip beyond p2 (or p1), the needle running on along the line.
        const bool at_p2 = c % 4 < 2;
        const test::D2 end = test::to_d2(at_p2 ? p2 : p1);
        const test::D2 along = test::to_d2(at_p2 ? p2 - p1 : p1 - p2);
        const test::D2 u = (1 / test::norm(along)) * along;
        const double gap_along = radius_of(edge) + std::pow(10.0, test::uniform(rng, -3.5, 0.3));
        const test::D2 tip = end + gap_along * u;
        const test::D2 base = tip + test::uniform(rng, 1, 3) * u;
        const double width = test::uniform(rng, 1e-3, 1e-2) * (c % 8 < 4 ? 1 : -1);
        const std::array<test::D2, 3> local{tip, base, base + width * test::D2{-u.y, u.x}};
        std::vector<Vec2> points;
        for (const test::D2& q : local) {
            const test::D2 w = test::apply(xf, q);
            points.push_back({real(w.x), real(w.y)});
        }
        const Result<Polygon> needle = make_polygon(points);
        if (!needle) {
            continue;
        }
        const double gap = test::core_distance(make_proxy(edge), xf, make_proxy(Shape(*needle)),
                                               Transform{}) -
                           radius_of(edge);
        SCOPED_TRACE("case " + std::to_string(c) + " gap " + std::to_string(gap));
        for (const bool swapped : {false, true}) {
            const Manifold m = swapped ? collide(Shape(*needle), Transform{}, edge, xf)
                                       : collide(edge, xf, Shape(*needle), Transform{});
            if (gap > k_speculative_distance + 1e-4) {
                EXPECT_EQ(m.count, 0) << "separation " << m.points[0].separation;
            } else if (gap < k_speculative_distance - 1e-4) {
                near += !swapped;
                ASSERT_GT(m.count, 0);
                EXPECT_NEAR(least_separation(m), gap, 1e-4 + 0.1 * k_linear_slop);
            }
        }
    }
    EXPECT_GT(near, cases / 20);
}

/// Two chain segments meeting at a vertex with a given turn, placed by a
/// random transform: seg0 runs from (-3, 0) to the vertex (0, 0), seg1 from
/// there 3 long in the turned direction. Their far ends continue straight
/// (flat ghosts), out of reach of the shapes near the vertex.
struct Corner {
    std::array<ChainSegment, 2> segments;
    Transform xf;
    double turn = 0; ///< radians, counter-clockwise: > 0 convex, < 0 concave
};

Corner random_corner(std::mt19937& rng, int kind) {
    Corner k;
    switch (kind % 4) {
    case 0:
        k.turn = 0; // a flat seam
        break;
    case 1:
        k.turn = test::uniform(rng, -0.005, 0.005); // within Box2D's flatness tolerance
        break;
    case 2:
        k.turn = test::uniform(rng, 0.05, 2.5); // convex
        break;
    default:
        k.turn = -test::uniform(rng, 0.05, 2.5); // concave
    }
    const Vec2 e1{real(std::cos(k.turn)), real(std::sin(k.turn))};
    const Vec2 start{-3, 0};
    const Vec2 vertex{0, 0};
    const Vec2 end = real(3) * e1;
    k.segments[0] = ChainSegment{start - Vec2{1, 0}, Segment{start, vertex}, end};
    k.segments[1] = ChainSegment{start, Segment{vertex, end}, end + e1};
    k.xf = test::to_transform(test::random_pose(rng, 3));
    return k;
}

TEST(CollideProperty, ChainContactsKeepToTheNormalsOfTheChainsSurface) {
    // Random solids near the shared vertex of two chain segments: at a flat
    // or concave vertex every contact normal is one of the two faces'
    // normals; within the flatness tolerance (0.6 degrees) it is within that
    // of them; at a convex vertex it lies in the cone between them. Shapes
    // outside the solid that sink into the chain by 0.002 to 0.05 get a
    // contact from at least one segment.
    std::mt19937 rng(318);
    const int cases = test::property_cases(100000);
    int contacts = 0;
    for (int c = 0; c < cases; ++c) {
        const Corner k = random_corner(rng, c);
        const Shape shape = random_solid(rng, c / 4);
        const double r = test::uniform(rng, 0, 1.5);
        const double a = test::uniform(rng, 0, 6.283185307179586);
        const Transform local{{real(r * std::cos(a)), real(r * std::sin(a))},
                              Rot::from_angle(real(test::uniform(rng, -3.14159, 3.14159)))};
        const Transform xf = mul(k.xf, local);
        const Vec2 n0 = rotate(k.xf.q, outward_normal(k.segments[0]));
        const Vec2 n1 = rotate(k.xf.q, outward_normal(k.segments[1]));
        const bool convex = k.turn >= 0.01;
        SCOPED_TRACE("case " + std::to_string(c) + ", turn " + std::to_string(k.turn) +
                     ", shape type " + std::to_string(int(shape.type)));
        int count = 0;
        for (int i = 0; i < 2; ++i) {
            const Shape chain(k.segments[i]);
            const Manifold m = collide(chain, k.xf, shape, xf);
            const Manifold swapped = collide(shape, xf, chain, k.xf);
            ASSERT_EQ(m.count, swapped.count) << "segment " << i;
            if (m.count == 0) {
                continue;
            }
            ++count;
            const Vec2 n = m.normal;
            EXPECT_NEAR(length(n), 1, 1e-5);
            EXPECT_NEAR(swapped.normal.x, -n.x, 1e-6);
            EXPECT_NEAR(swapped.normal.y, -n.y, 1e-6);
            if (convex) {
                // Counter-clockwise from n0 to n1 (the turn is below pi).
                EXPECT_GE(cross(n0, n), -1e-4)
                    << "segment " << i << " normal " << n.x << ", " << n.y;
                EXPECT_GE(cross(n, n1), -1e-4)
                    << "segment " << i << " normal " << n.x << ", " << n.y;
            } else if (k.turn != 0 && std::abs(k.turn) < 0.01) {
                // A joint within the flatness tolerance: a seam, but a convex
                // one has a sliver of vertex normals between its faces'.
                const bool near_face = dot(n, n0) > std::cos(0.011) || dot(n, n1) > std::cos(0.011);
                EXPECT_TRUE(near_face) << "segment " << i << " normal " << n.x << ", " << n.y;
            } else {
                const bool face = length(n - n0) < 1e-4 || length(n - n1) < 1e-4;
                EXPECT_TRUE(face) << "segment " << i << " normal " << n.x << ", " << n.y;
            }
        }
        contacts += count;
        // Outside the solid: on the outer side of one line at a convex vertex,
        // of both at a concave one (chains are solid to their left).
        const Vec2 center = inv_transform_point(
            k.xf, transform_point(
                      xf, shape.type == ShapeType::polygon ? shape.polygon.centroid
                          : shape.type == ShapeType::circle
                              ? shape.circle.center
                              : lerp(shape.capsule.center1, shape.capsule.center2, real(0.5))));
        const bool out0 = dot(outward_normal(k.segments[0]), center - k.segments[0].segment.p1) > 0;
        const bool out1 = dot(outward_normal(k.segments[1]), center - k.segments[1].segment.p1) > 0;
        const bool outside = convex ? (out0 || out1) : (out0 && out1);
        double gap = std::numeric_limits<double>::infinity();
        for (const ChainSegment& segment : k.segments) {
            gap = std::min(
                gap, test::core_distance(make_proxy(Shape(segment)), k.xf, make_proxy(shape), xf) -
                         radius_of(shape));
        }
        if (outside && gap < -0.002 && gap > -0.05) {
            EXPECT_GE(count, 1) << "no contact for a shape sunk " << -gap << " into the chain";
        }
    }
    EXPECT_GT(contacts, cases / 10);
}

} // namespace
} // namespace sweep
