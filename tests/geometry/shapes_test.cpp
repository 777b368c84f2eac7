// Shape factories and mass properties, hand-derived (shapes.hpp).
#include "sweep/shapes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "printers.hpp"

namespace sweep {
namespace {

constexpr double k_eps = std::is_same_v<real, float> ? 1e-5 : 1e-12;

void expect_vec_near(Vec2 actual, double x, double y, double eps = k_eps) {
    EXPECT_NEAR(actual.x, x, eps);
    EXPECT_NEAR(actual.y, y, eps);
}

/// Every normal is unit, perpendicular to its edge, and every vertex lies
/// behind every face (the polygon is convex with outward normals).
void expect_outward_unit_normals(const Polygon& p) {
    for (int i = 0; i < p.count; ++i) {
        const Vec2 edge = p.vertices[(i + 1) % p.count] - p.vertices[i];
        EXPECT_NEAR(length(p.normals[i]), 1, k_eps);
        EXPECT_NEAR(dot(edge, p.normals[i]), 0, 10 * k_eps);
        for (int j = 0; j < p.count; ++j) {
            EXPECT_LE(dot(p.normals[i], p.vertices[j] - p.vertices[i]), 10 * k_eps);
        }
    }
}

TEST(MakeBox, VerticesCounterClockwiseFromLowerLeftWithFaceNormals) {
    // [-2, 2] x [-1, 1]: corners from (-hx, -hy) counter-clockwise; normal i
    // belongs to the edge from vertex i to vertex i + 1 (bottom, right, top, left).
    auto box = make_box(2, 1);
    ASSERT_TRUE(box);
    ASSERT_EQ(box->count, 4);
    expect_vec_near(box->vertices[0], -2, -1);
    expect_vec_near(box->vertices[1], 2, -1);
    expect_vec_near(box->vertices[2], 2, 1);
    expect_vec_near(box->vertices[3], -2, 1);
    expect_vec_near(box->normals[0], 0, -1);
    expect_vec_near(box->normals[1], 1, 0);
    expect_vec_near(box->normals[2], 0, 1);
    expect_vec_near(box->normals[3], -1, 0);
    expect_vec_near(box->centroid, 0, 0);
    EXPECT_EQ(box->radius, 0);
    expect_outward_unit_normals(*box);
}

TEST(MakeOffsetBox, QuarterTurnMapsEveryCornerAndNormal) {
    // Rotating by +90 degrees maps (x, y) to (-y, x); then add the centre (3, 4).
    // (-2,-1) -> (1,-2) -> (4,2); (2,-1) -> (1,2) -> (4,6);
    // (2,1) -> (-1,2) -> (2,6);   (-2,1) -> (-1,-2) -> (2,2).
    auto box = make_offset_box(2, 1, {3, 4}, k_pi / 2);
    ASSERT_TRUE(box);
    ASSERT_EQ(box->count, 4);
    expect_vec_near(box->vertices[0], 4, 2);
    expect_vec_near(box->vertices[1], 4, 6);
    expect_vec_near(box->vertices[2], 2, 6);
    expect_vec_near(box->vertices[3], 2, 2);
    expect_vec_near(box->normals[0], 1, 0);
    expect_vec_near(box->normals[1], 0, 1);
    expect_vec_near(box->normals[2], -1, 0);
    expect_vec_near(box->normals[3], 0, -1);
    expect_vec_near(box->centroid, 3, 4);
    expect_outward_unit_normals(*box);
}

TEST(MakeOffsetBox, ThirtyDegreesKeepsEdgeLengthsAndCentroid) {
    // Corner (hx, hy) = (1.5, 0.5) rotated by 30 degrees (c = sqrt(3)/2, s = 1/2):
    // (1.5c - 0.5s, 1.5s + 0.5c) = (1.049038, 1.183013), plus the centre (-1, 2).
    auto box = make_offset_box(real(1.5), real(0.5), {-1, 2}, k_pi / 6);
    ASSERT_TRUE(box);
    const double c = std::sqrt(3.0) / 2;
    expect_vec_near(box->vertices[2], -1 + 1.5 * c - 0.25, 2 + 0.75 + 0.5 * c);
    EXPECT_NEAR(length(box->vertices[1] - box->vertices[0]), 3, k_eps);
    EXPECT_NEAR(length(box->vertices[2] - box->vertices[1]), 1, k_eps);
    expect_vec_near(box->normals[1], c, 0.5);
    expect_vec_near(box->centroid, -1, 2);
    expect_outward_unit_normals(*box);
}

TEST(MakeBox, RejectsZeroExtentAsDegenerate) {
    // result.hpp: degenerate_shape is "zero area or radius".
    auto box = make_box(0, 1);
    ASSERT_FALSE(box);
    EXPECT_EQ(box.error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_box(1, 0).error().code, ErrorCode::degenerate_shape);
}

TEST(MakeBox, RejectsNegativeExtentAsInvalidInput) {
    // result.hpp: invalid_input covers "negative size".
    EXPECT_EQ(make_box(-1, 1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_box(1, -1).error().code, ErrorCode::invalid_input);
}

TEST(MakeBox, RejectsNanAndInfinity) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    EXPECT_EQ(make_box(nan, 1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_box(1, inf).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_offset_box(1, 1, {nan, 0}, 0).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_offset_box(1, 1, {0, 0}, inf).error().code, ErrorCode::invalid_input);
}

// A box whose short side is below the resolution of its turned corners'
// coordinates has coincident corners: no area in `real`. Unturned, the same
// box keeps its area (4 hx hy is tiny, but positive).
TEST(MakeBox, RejectsABoxTooThinForItsTurnedCornersAsDegenerate) {
    const real hx = 28;
    const real hy = hx * std::numeric_limits<real>::epsilon() / 8;
    const auto turned = make_offset_box(hx, hy, {0, 0}, 1);
    ASSERT_FALSE(turned);
    EXPECT_EQ(turned.error().code, ErrorCode::degenerate_shape);
    EXPECT_TRUE(make_offset_box(hx, hy, {0, 0}, 0));
}

// Sizes at the ends of `real`: a radius whose square is 0 and centres too
// close to give a capsule or segment a direction are degenerate; coordinates
// and sizes beyond k_max_coordinate (whose quartic forms would overflow, 1e9
// in float) are invalid input.
TEST(MakeShapes, RejectSizesWhoseAreaIsNotFiniteAndPositiveOrBeyondTheRange) {
    const real underflows = std::sqrt(std::numeric_limits<real>::denorm_min()) / 2;
    EXPECT_EQ(make_circle({0, 0}, underflows).error().code, ErrorCode::degenerate_shape);
    const Vec2 apart{std::numeric_limits<real>::denorm_min(), 0};
    EXPECT_EQ(make_capsule({0, 0}, apart, 1).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_segment({0, 0}, apart).error().code, ErrorCode::degenerate_shape);
    const real beyond = 2 * k_max_coordinate;
    EXPECT_EQ(make_circle({0, 0}, beyond).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_circle({beyond, 0}, 1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_capsule({0, 0}, {1, 0}, beyond).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_box(beyond, 1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_offset_box(1, 1, {0, beyond}, 0).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_segment({-beyond, 0}, {beyond, 0}).error().code, ErrorCode::invalid_input);
    // A far point among near ones (fuzz_geometry: the hull's orientation
    // tests overflowed and kept a vertex twice, with a zero normal between).
    const std::array<Vec2, 4> far{Vec2{0, 0}, Vec2{1, 0}, Vec2{0, 1}, Vec2{beyond, beyond / 4}};
    EXPECT_EQ(make_polygon(far).error().code, ErrorCode::invalid_input);
    // Small but representable sizes, and the range's edge, stay.
    EXPECT_TRUE(make_circle({0, 0}, real(1e-15)));
    EXPECT_TRUE(make_box(real(1e-9), real(1e-9)));
    EXPECT_TRUE(make_box(k_max_coordinate, 1));
}

// A vector whose square is subnormal (a capsule core 1.4e-22 L long, as
// fuzz_geometry found): its length from the square carries a few bits only,
// and the "unit" normal came out 0.987 long. Scaled first, it is unit. Only
// float has such vectors above normalize's 1e-30 floor.
TEST(Normalize, AVectorWhoseSquareIsSubnormalGivesAUnitVector) {
    if (!std::is_same_v<real, float>) {
        GTEST_SKIP() << "double's subnormal squares are below normalize's floor";
    }
    const real unit = std::sqrt(std::numeric_limits<real>::min()) / 1000;
    const Vec2 n = normalize(Vec2{3 * unit, 4 * unit});
    EXPECT_NEAR(n.x, 0.6, 1e-6);
    EXPECT_NEAR(n.y, 0.8, 1e-6);
    EXPECT_EQ(normalize(Vec2{real(1e-31), 0}), Vec2{}); // below the floor: no direction
}

// A vector whose square underflows to zero in float, though its length
// (5e-27 L) is above normalize's 1e-30 floor: a segment that short had the
// zero vector for its ray-cast normal (fuzz_geometry). It has a direction.
// NaN stays NaN.
TEST(Normalize, AVectorWhoseSquareUnderflowsStillHasADirection) {
    const Vec2 n = normalize(Vec2{real(3e-27), real(-4e-27)});
    EXPECT_NEAR(n.x, 0.6, 1e-6);
    EXPECT_NEAR(n.y, -0.8, 1e-6);
    EXPECT_TRUE(std::isnan(normalize(Vec2{std::numeric_limits<real>::quiet_NaN(), 1}).x));
}

TEST(MakeCircle, KeepsCenterAndRadiusAndRejectsBadRadius) {
    auto circle = make_circle({1, 2}, real(0.5));
    ASSERT_TRUE(circle);
    expect_vec_near(circle->center, 1, 2);
    EXPECT_EQ(circle->radius, real(0.5));
    EXPECT_EQ(make_circle({0, 0}, 0).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_circle({0, 0}, -1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_circle({0, std::numeric_limits<real>::infinity()}, 1).error().code,
              ErrorCode::invalid_input);
}

TEST(MakePolygon, PointCloudKeepsOnlyTheHullCornersCounterClockwise) {
    // The square [1, 3] x [2, 4] given clockwise, with interior points and
    // points on its edges (collinear with two corners): only the 4 corners stay.
    const std::vector<Vec2> points{{1, 4}, {2, 3}, {3, 4}, {2, 4},
                                   {3, 2}, {3, 3}, {1, 2}, {real(1.5), real(2.5)},
                                   {2, 2}, {1, 3}};
    auto polygon = make_polygon(points);
    ASSERT_TRUE(polygon);
    ASSERT_EQ(polygon->count, 4);
    // Counter-clockwise: positive signed area (twice the area is 2 * 4 = 8).
    double twice_area = 0;
    for (int i = 0; i < 4; ++i) {
        twice_area += cross(polygon->vertices[i], polygon->vertices[(i + 1) % 4]);
    }
    EXPECT_NEAR(twice_area, 8, k_eps);
    for (int i = 0; i < 4; ++i) {
        const Vec2 v = polygon->vertices[i];
        EXPECT_TRUE((v.x == 1 || v.x == 3) && (v.y == 2 || v.y == 4)) << v.x << ", " << v.y;
    }
    expect_vec_near(polygon->centroid, 2, 3);
    expect_outward_unit_normals(*polygon);
}

TEST(MakePolygon, TriangleCentroidIsTheMeanOfItsVertices) {
    // (0,0), (3,0), (0,3): centroid (1, 1).
    const std::array<Vec2, 3> points{Vec2{0, 3}, Vec2{0, 0}, Vec2{3, 0}};
    auto polygon = make_polygon(points);
    ASSERT_TRUE(polygon);
    EXPECT_EQ(polygon->count, 3);
    expect_vec_near(polygon->centroid, 1, 1);
}

TEST(MakePolygon, KeepsItsRoundingRadius) {
    const std::array<Vec2, 3> points{Vec2{0, 0}, Vec2{1, 0}, Vec2{0, 1}};
    auto polygon = make_polygon(points, real(0.25));
    ASSERT_TRUE(polygon);
    EXPECT_EQ(polygon->radius, real(0.25));
}

TEST(MakePolygon, WeldsPointsCloserThanTheWeldDistance) {
    // (1e-7, 0) is within the default weld distance 1e-5 of (0, 0): a triangle.
    const std::array<Vec2, 4> points{Vec2{0, 0}, Vec2{real(1e-7), 0}, Vec2{1, 0}, Vec2{0, 1}};
    auto polygon = make_polygon(points);
    ASSERT_TRUE(polygon);
    EXPECT_EQ(polygon->count, 3);
}

TEST(MakePolygon, ReducesTwelveHullPointsToEightInputPoints) {
    // 12 points on the unit circle are all hull points; the polygon keeps 8
    // of them (k_max_polygon_vertices), still convex and counter-clockwise.
    std::vector<Vec2> points;
    for (int i = 0; i < 12; ++i) {
        const real a = real(i) * k_pi / 6;
        points.push_back({std::cos(a), std::sin(a)});
    }
    auto polygon = make_polygon(points);
    ASSERT_TRUE(polygon);
    ASSERT_EQ(polygon->count, k_max_polygon_vertices);
    for (int i = 0; i < polygon->count; ++i) {
        EXPECT_NE(std::find(points.begin(), points.end(), polygon->vertices[i]), points.end());
        const Vec2 a = polygon->vertices[i];
        const Vec2 b = polygon->vertices[(i + 1) % polygon->count];
        const Vec2 c = polygon->vertices[(i + 2) % polygon->count];
        EXPECT_GT(cross(b - a, c - b), 0);
    }
    expect_outward_unit_normals(*polygon);
}

TEST(MakePolygon, RejectsFewerThanThreeDistinctPoints) {
    const std::array<Vec2, 4> two{Vec2{0, 0}, Vec2{1, 1}, Vec2{0, 0}, Vec2{1, 1}};
    EXPECT_EQ(make_polygon(two).error().code, ErrorCode::degenerate_shape);
    const std::array<Vec2, 2> pair{Vec2{0, 0}, Vec2{1, 0}};
    EXPECT_EQ(make_polygon(pair).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_polygon(std::span<const Vec2>{}).error().code, ErrorCode::degenerate_shape);
}

TEST(MakePolygon, RejectsCollinearPoints) {
    const std::array<Vec2, 5> line{Vec2{0, 0}, Vec2{3, 3}, Vec2{1, 1}, Vec2{2, 2}, Vec2{-1, -1}};
    auto polygon = make_polygon(line);
    ASSERT_FALSE(polygon);
    EXPECT_EQ(polygon.error().code, ErrorCode::degenerate_shape);
}

TEST(MakePolygon, RejectsAHullThinnerThanTheWeldDistanceRoundedOrNot) {
    // A 10 L triangle 1e-6 L tall, a rotated 2 L sliver 1e-30 L thick (the
    // fuzzer's: its every face normal is its line's) and a far-off box one
    // float rounding thick. Hand-derived widths: 1e-6, ~1e-30, ~1e-3 at 1e4.
    const std::array<Vec2, 3> flat{Vec2{0, 0}, Vec2{10, 0}, Vec2{5, real(1e-6)}};
    const std::array<Vec2, 3> sliver{Vec2{-1, -1}, Vec2{1, 1}, Vec2{0, real(1e-30)}};
    const std::array<Vec2, 4> far_thin{Vec2{10000, 0}, Vec2{10001, 0}, Vec2{10001, real(1e-3)},
                                       Vec2{10000, real(1e-3)}};
    EXPECT_EQ(make_polygon(flat).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_polygon(flat, 1).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_polygon(sliver, real(1.2)).error().code, ErrorCode::degenerate_shape);
    // 8 float epsilons of 10,001 L are 0.0095 L; 8 double ones 2e-11 L.
    const auto far = make_polygon(far_thin);
    if constexpr (sizeof(real) == 4) {
        EXPECT_EQ(far.error().code, ErrorCode::degenerate_shape);
    } else {
        EXPECT_TRUE(far);
    }
    // Twice the weld distance tall is a polygon.
    const std::array<Vec2, 3> thin{Vec2{0, 0}, Vec2{10, 0}, Vec2{5, real(2e-5)}};
    EXPECT_TRUE(make_polygon(thin));
}

TEST(MakePolygon, RejectsNanAndInfinity) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    const std::array<Vec2, 4> with_nan{Vec2{0, 0}, Vec2{1, 0}, Vec2{0, 1}, Vec2{nan, 0}};
    const std::array<Vec2, 4> with_inf{Vec2{0, 0}, Vec2{1, 0}, Vec2{0, 1}, Vec2{1, -inf}};
    EXPECT_EQ(make_polygon(with_nan).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_polygon(with_inf).error().code, ErrorCode::invalid_input);
}

TEST(MakePolygon, RejectsNegativeOrNonFiniteRadius) {
    const std::array<Vec2, 3> points{Vec2{0, 0}, Vec2{1, 0}, Vec2{0, 1}};
    EXPECT_EQ(make_polygon(points, -1).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(make_polygon(points, std::numeric_limits<real>::quiet_NaN()).error().code,
              ErrorCode::invalid_input);
}

TEST(MakeSegment, RejectsCoincidentAndNonFinitePoints) {
    EXPECT_TRUE(make_segment({0, 0}, {1, 0}));
    EXPECT_EQ(make_segment({1, 1}, {1, 1}).error().code, ErrorCode::degenerate_shape);
    EXPECT_EQ(make_segment({0, 0}, {std::numeric_limits<real>::infinity(), 0}).error().code,
              ErrorCode::invalid_input);
}

TEST(ComputeMass, BoxIsFourHxHyRhoWithInertiaMassTimesWidthSquaredPlusHeightSquaredOverTwelve) {
    // hx = 2, hy = 0.5, rho = 3: m = 4 * 2 * 0.5 * 3 = 12; w = 4, h = 1:
    // I = 12 * (16 + 1) / 12 = 17 about the centre.
    auto box = make_box(2, real(0.5));
    ASSERT_TRUE(box);
    const MassData mass = compute_mass(*box, 3);
    EXPECT_NEAR(mass.mass, 12, 1e-4);
    EXPECT_NEAR(mass.rotational_inertia, 17, 1e-4);
    expect_vec_near(mass.center, 0, 0);
}

TEST(ComputeMass, OffsetRotatedBoxHasTheSameInertiaAboutItsOwnCentroid) {
    // Inertia is about the centroid, so moving and turning the box changes
    // only the centre: still m = 12 and I = 17.
    auto box = make_offset_box(2, real(0.5), {5, 7}, real(0.3));
    ASSERT_TRUE(box);
    const MassData mass = compute_mass(*box, 3);
    EXPECT_NEAR(mass.mass, 12, 1e-4);
    EXPECT_NEAR(mass.rotational_inertia, 17, 1e-3);
    expect_vec_near(mass.center, 5, 7, 1e-5);
}

TEST(ComputeMass, CircleInertiaIsHalfMassTimesRadiusSquared) {
    // r = 2, rho = 0.5: m = 0.5 * pi * 4 = 2 pi; I = m r^2 / 2 = 4 pi.
    auto circle = make_circle({1, -1}, 2);
    ASSERT_TRUE(circle);
    const MassData mass = compute_mass(*circle, real(0.5));
    EXPECT_NEAR(mass.mass, 2 * 3.14159265358979, 1e-5);
    EXPECT_NEAR(mass.rotational_inertia, 4 * 3.14159265358979, 1e-5);
    expect_vec_near(mass.center, 1, -1);
}

TEST(ComputeMass, RightTriangleInertiaAboutItsCentroid) {
    // Legs a = b = 3, rho = 1: m = 4.5; about the centroid Ix = Iy = b h^3 / 36
    // = 3 * 27 / 36 = 2.25 per unit density, so I = Ix + Iy = 4.5.
    const std::array<Vec2, 3> points{Vec2{0, 0}, Vec2{3, 0}, Vec2{0, 3}};
    auto triangle = make_polygon(points);
    ASSERT_TRUE(triangle);
    const MassData mass = compute_mass(*triangle, 1);
    EXPECT_NEAR(mass.mass, 4.5, 1e-5);
    EXPECT_NEAR(mass.rotational_inertia, 4.5, 1e-4);
    expect_vec_near(mass.center, 1, 1);
}

TEST(ComputeMass, SegmentsHaveNoMass) {
    const Shape segment = Segment{{0, 0}, {1, 0}};
    const MassData mass = compute_mass(segment, 1);
    EXPECT_EQ(mass.mass, 0);
    EXPECT_EQ(mass.rotational_inertia, 0);
}

TEST(ComputeAabb, RotatedBoxBoundsItsRotatedCorners) {
    // A 2 x 2 box turned 45 degrees has corners at distance sqrt(2) on the
    // axes; moved to (1, 0): [1 - sqrt 2, 1 + sqrt 2] x [-sqrt 2, sqrt 2].
    auto box = make_box(1, 1);
    ASSERT_TRUE(box);
    const Aabb aabb = compute_aabb(Shape(*box), Transform{{1, 0}, Rot::from_angle(k_pi / 4)});
    const double r2 = std::sqrt(2.0);
    expect_vec_near(aabb.lower, 1 - r2, -r2);
    expect_vec_near(aabb.upper, 1 + r2, r2);
}

TEST(ComputeAabb, CircleIsItsWorldCentrePlusMinusRadius) {
    // Local centre (1, 0) turned 90 degrees is (0, 1); plus (2, 2) is (2, 3).
    const Aabb aabb = compute_aabb(Shape(Circle{{1, 0}, real(0.5)}),
                                   Transform{{2, 2}, Rot::from_angle(k_pi / 2)});
    expect_vec_near(aabb.lower, 1.5, 2.5);
    expect_vec_near(aabb.upper, 2.5, 3.5);
}

TEST(MaxExtent, IsTheFarthestCornerPlusRoundingRadius) {
    // From (1, 0), the farthest corner of [-1,1]^2 is (-1, +-1): sqrt(4 + 1).
    auto box = make_box(1, 1);
    ASSERT_TRUE(box);
    EXPECT_NEAR(max_extent(Shape(*box), {1, 0}), std::sqrt(5.0), k_eps);
    EXPECT_NEAR(max_extent(Shape(Circle{{0, 0}, 2}), {1, 0}), 3, k_eps);
}

TEST(LeastSupport, IsTheInnerRadiusLessTheInnerCentresDistance) {
    // [-1,1] x [-2,2] about its centre: its half width, whatever the
    // direction; about (0.5, 0), 0.5 less.
    const Shape box(make_box(1, 2).value());
    EXPECT_NEAR(least_support(box, {0, 0}), 1, k_eps);
    EXPECT_NEAR(least_support(box, {0.5f, 0}), 0.5, k_eps);
    // A disc about a point 3 from its centre lies beyond it: -1.
    EXPECT_NEAR(least_support(Shape(Circle{{3, 0}, 2}), {0, 0}), -1, k_eps);
    // A capsule's inner disc is its radius about the core's midpoint.
    EXPECT_NEAR(least_support(Shape(Capsule{{-1, 0}, {3, 0}, real(0.5)}), {1, 0}), 0.5, k_eps);
    // A segment has no inside: the distance from its first point, negated.
    EXPECT_NEAR(least_support(Shape(Segment{{0, 4}, {1, 4}}), {0, 0}), -4, k_eps);
}

// The nearest point of a box: a point inside is itself; outside, each
// coordinate is held to the box's range (beside a face: its foot on the
// face; off a corner: the corner).
TEST(Aabb, ClosestPointClampsEachCoordinateToTheBox) {
    const Aabb box{{0, 0}, {2, 1}};
    EXPECT_EQ(closest_point(box, {1, 0.5f}), (Vec2{1, 0.5f}));
    EXPECT_EQ(closest_point(box, {1, 3}), (Vec2{1, 1}));
    EXPECT_EQ(closest_point(box, {-4, 0.25f}), (Vec2{0, 0.25f}));
    EXPECT_EQ(closest_point(box, {5, -2}), (Vec2{2, 0}));
    EXPECT_EQ(closest_point(box, {-1, 7}), (Vec2{0, 1}));
}

} // namespace
} // namespace sweep
