// GJK distance, hand-derived cases (distance.hpp).
#include "sweep/distance.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "printers.hpp"
#include "sweep/constants.hpp"

namespace sweep {
namespace {

constexpr double k_eps = std::is_same_v<real, float> ? 2e-5 : 1e-9;

void expect_vec_near(Vec2 actual, double x, double y, double eps = k_eps) {
    EXPECT_NEAR(actual.x, x, eps);
    EXPECT_NEAR(actual.y, y, eps);
}

Polygon box(real hx, real hy) { return make_box(hx, hy).value(); }

Transform at(real x, real y, real angle = 0) { return {{x, y}, Rot::from_angle(angle)}; }

DistanceOutput run(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
                   bool use_radii = true) {
    SimplexCache cache;
    return distance({make_proxy(a), make_proxy(b), xfa, xfb, use_radii}, cache);
}

TEST(Distance, CirclesAreCentreDistanceMinusRadii) {
    // Centres 5 apart on x, radii 1 and 2: distance 2; the witness points are
    // the surface points (1, 0) and (3, 0).
    const DistanceOutput out = run(Circle{{0, 0}, 1}, k_identity, Circle{{0, 0}, 2}, at(5, 0));
    EXPECT_EQ(out.state, DistanceState::separated);
    EXPECT_NEAR(out.distance, 2, k_eps);
    expect_vec_near(out.normal, 1, 0);
    expect_vec_near(out.point_a, 1, 0);
    expect_vec_near(out.point_b, 3, 0);
}

// Two unit boxes 0.25 L apart face to face, at the origin and up to 2^20 L
// from it (every input exact): separated by 0.25 along +x. GJK runs in A's
// frame, but its noise bound was scaled by the world coordinates (4 ulps of
// 1e6 is 0.48 L): the boxes were reported overlapping at 2^20.
TEST(Distance, FarFromTheOriginShapesApartAreApart) {
    for (const real o : {real(0), real(1024), real(65536), real(1048576)}) {
        SCOPED_TRACE(testing::Message() << "offset " << o);
        const DistanceOutput out = run(box(1, 1), at(o, o), box(1, 1), at(o + real(2.25), o));
        EXPECT_EQ(out.state, DistanceState::separated);
        EXPECT_NEAR(out.distance, 0.25, 1e-6);
        expect_vec_near(out.normal, 1, 0);
    }
}

TEST(Distance, CircleCentresAreMappedByTheirTransforms) {
    // A's local centre (1, 0) turned 90 degrees lands at (0, 1); B's centre is
    // (3, 5): the centres differ by (3, 4), length 5, so the distance is
    // 5 - 1 - 0.5 = 3.5 along (0.6, 0.8). Surface points: (0,1) + (0.6,0.8) and
    // (3,5) - 0.5 (0.6,0.8).
    const DistanceOutput out =
        run(Circle{{1, 0}, 1}, at(0, 0, k_pi / 2), Circle{{0, 0}, real(0.5)}, at(3, 5));
    EXPECT_EQ(out.state, DistanceState::separated);
    EXPECT_NEAR(out.distance, 3.5, k_eps);
    expect_vec_near(out.normal, 0.6, 0.8);
    expect_vec_near(out.point_a, 0.6, 1.8);
    expect_vec_near(out.point_b, 2.7, 4.6);
}

TEST(Distance, SeparatedBoxesFaceToFace) {
    // [-1,1]^2 and the same box centred at (4, 0.5): faces x = 1 and x = 3 face
    // each other over y in [-0.5, 1]; distance 2 along +x.
    const DistanceOutput out = run(box(1, 1), k_identity, box(1, 1), at(4, real(0.5)));
    EXPECT_EQ(out.state, DistanceState::separated);
    EXPECT_NEAR(out.distance, 2, k_eps);
    expect_vec_near(out.normal, 1, 0);
    EXPECT_NEAR(out.point_a.x, 1, k_eps);
    EXPECT_NEAR(out.point_b.x, 3, k_eps);
    EXPECT_NEAR(out.point_a.y, out.point_b.y, k_eps);
    EXPECT_GE(out.point_a.y, -0.5 - k_eps);
    EXPECT_LE(out.point_a.y, 1 + k_eps);
}

TEST(Distance, SeparatedBoxesCornerToCorner) {
    // B centred at (3, 3): its corner (2, 2) faces A's corner (1, 1); distance
    // sqrt(2) along (1, 1) / sqrt(2).
    const DistanceOutput out = run(box(1, 1), k_identity, box(1, 1), at(3, 3));
    const double h = std::sqrt(0.5);
    EXPECT_NEAR(out.distance, std::sqrt(2.0), k_eps);
    expect_vec_near(out.normal, h, h);
    expect_vec_near(out.point_a, 1, 1);
    expect_vec_near(out.point_b, 2, 2);
}

TEST(Distance, RotatedBoxCornerToFace) {
    // B = [-1,1]^2 turned 45 degrees at (3, 0): its left corner is at
    // 3 - sqrt(2); A's right face is x = 1, so the distance is 2 - sqrt(2).
    const DistanceOutput out = run(box(1, 1), k_identity, box(1, 1), at(3, 0, k_pi / 4));
    EXPECT_NEAR(out.distance, 2 - std::sqrt(2.0), k_eps);
    expect_vec_near(out.normal, 1, 0);
    expect_vec_near(out.point_b, 3 - std::sqrt(2.0), 0);
}

TEST(Distance, PointInTheVertexRegionOfABoxMeetsTheCorner) {
    // The point (2, 3) is beyond both x = 1 and y = 1 of [-1,1]^2: its closest
    // point is the corner (1, 1), at sqrt(1 + 4) = sqrt(5) along (1, 2)/sqrt(5).
    const std::array<Vec2, 1> point{Vec2{2, 3}};
    SimplexCache cache;
    const DistanceOutput out = distance(
        {make_proxy(Shape(box(1, 1))), make_proxy(point, 0), k_identity, k_identity}, cache);
    EXPECT_NEAR(out.distance, std::sqrt(5.0), k_eps);
    expect_vec_near(out.point_a, 1, 1);
    expect_vec_near(out.point_b, 2, 3);
    expect_vec_near(out.normal, 1 / std::sqrt(5.0), 2 / std::sqrt(5.0));
}

TEST(Distance, PointInTheFaceRegionOfABoxMeetsTheFace) {
    // (0.5, 3) is above the top face y = 1 and within its x range: distance 2
    // to (0.5, 1).
    const std::array<Vec2, 1> point{Vec2{real(0.5), 3}};
    SimplexCache cache;
    const DistanceOutput out = distance(
        {make_proxy(Shape(box(1, 1))), make_proxy(point, 0), k_identity, k_identity}, cache);
    EXPECT_NEAR(out.distance, 2, k_eps);
    expect_vec_near(out.point_a, 0.5, 1);
    expect_vec_near(out.normal, 0, 1);
}

TEST(Distance, SegmentEndpointAboveABoxFace) {
    // The segment (-1, 3)-(1, 2) comes closest to [-1,1]^2 at its end (1, 2),
    // 1 above the top face.
    const DistanceOutput out = run(box(1, 1), k_identity, Segment{{-1, 3}, {1, 2}}, k_identity);
    EXPECT_NEAR(out.distance, 1, k_eps);
    expect_vec_near(out.point_b, 1, 2);
    expect_vec_near(out.normal, 0, 1);
}

TEST(Distance, OverlappingCoresReportCoresOverlapWithoutNormal) {
    // Boxes [-1,1]^2 at 0 and at (1.5, 0) overlap by 0.5.
    const DistanceOutput out = run(box(1, 1), k_identity, box(1, 1), at(real(1.5), 0));
    EXPECT_EQ(out.state, DistanceState::cores_overlap);
    EXPECT_EQ(out.distance, 0);
    EXPECT_EQ(out.normal, (Vec2{0, 0}));
}

TEST(Distance, ABoxTooThinForItsTriangleAreasStillHasFiniteWitnessPoints) {
    // A box 0.0078 L wide and 1.3e-23 L thick across the corner of a
    // triangle: the cores overlap. GJK's triangle has areas near 1e-26;
    // Box2D's barycentric weights multiply two such areas, which underflowed
    // to 0 / 0 (fuzz_geometry). The witness points must be finite, on the
    // box (|x| <= 0.0039) and together (the origin of B - A).
    const Vec2 corner[3] = {{0, 0}, {6, 0}, {0, 6}};
    const DistanceOutput out = run(box(real(0.00390625), real(6.61865659e-24)), k_identity,
                                   make_polygon(corner).value(), k_identity);
    EXPECT_EQ(out.state, DistanceState::cores_overlap);
    ASSERT_TRUE(is_finite(out.point_a) && is_finite(out.point_b));
    EXPECT_LE(std::abs(out.point_a.x), 0.00390625);
    expect_vec_near(out.point_a - out.point_b, 0, 0);
}

TEST(Distance, CoresOnOneLineBySubnormalOffsetsStillHaveFiniteWitnessPoints) {
    // Two capsule cores along the y axis, their ends off it by the smallest
    // normal number or less (fuzz_geometry): B's core lies on A's, so the
    // cores overlap. GJK's triangle has a subnormal area, whose reciprocal
    // overflowed to infinite weights. The witness points must be finite and
    // on B's core (x = 0 to rounding, y within its ends).
    const real tiny = std::numeric_limits<real>::min();
    const Capsule a = make_capsule({0, 0}, {2 * tiny, real(2.3125)}, 1024).value();
    const Capsule b =
        make_capsule({tiny / 50, real(0.00146484375)}, {0, real(0.0234375)}, real(3.1875)).value();
    const DistanceOutput out = run(a, k_identity, b, k_identity);
    EXPECT_EQ(out.state, DistanceState::cores_overlap);
    ASSERT_TRUE(is_finite(out.point_a) && is_finite(out.point_b));
    EXPECT_NEAR(out.point_a.x, 0, k_eps);
    EXPECT_GE(out.point_a.y, real(0.00146484375));
    EXPECT_LE(out.point_a.y, real(0.0234375));
}

TEST(Distance, TinySegmentsFarApartAreApartNotTouching) {
    // Two segments some 1e-22 L long, 0.078125 L apart along x
    // (fuzz_geometry). GJK's edge has a search direction as short as the
    // edge, which the absolute "origin on the simplex" test took for
    // touching; and the edge's barycentric sum was subnormal, whose
    // reciprocal overflowed to NaN witness points. Distance 0.078125 along
    // -x (from A at x = 0.078125 to B at x = 0, to within 1e-26 L).
    const std::array<Vec2, 2> a{{{0, 0}, {0, real(4.8995e-22)}}};
    const std::array<Vec2, 2> b{{{0, real(1.11616084e-26)}, {real(7.47209049e-27), real(7.47605021e-27)}}};
    SimplexCache cache;
    const DistanceOutput out =
        distance({make_proxy(a, 0), make_proxy(b, 0), {{real(0.078125), 0}, Rot{1, real(4.89694709e-22)}},
                  k_identity, true},
                 cache);
    EXPECT_EQ(out.state, DistanceState::separated);
    EXPECT_NEAR(out.distance, 0.078125, k_eps);
    expect_vec_near(out.normal, -1, 0);
    ASSERT_TRUE(is_finite(out.point_a) && is_finite(out.point_b));
}

// A triangle fuzz_geometry made, for the next two tests: its vertex 0 is
// the origin to 1e-35 L.
const std::array<Vec2, 3> k_fuzzed_triangle{
    {{real(2.48264407e-35), 0}, {real(36.0039062), real(5.64284013e-37)}, {23, real(0.5)}}};

// The distance of the cores `a` and `b` (points, no radius) at their poses.
template <std::size_t count_b>
DistanceOutput core_distance_of(const std::array<Vec2, 3>& a, const Transform& xfa,
                                const std::array<Vec2, count_b>& b, const Transform& xfb) {
    SimplexCache cache;
    return distance({make_proxy(a, 0), make_proxy(b, 0), xfa, xfb, false}, cache);
}

TEST(Distance, APolygonWithThreeVerticesOnOneLineIsMeasuredToThatLine) {
    // B's vertices 0, 1 and 3 lie on the line x = 0, vertex 1 a subnormal
    // hair off it (fuzz_geometry). GJK's triangle of three supports on that
    // line is flat to rounding; its fallback restarted from the first
    // vertex, and GJK cycled through the same supports to its iteration
    // cap, reporting 135 L. A's nearest core point is its vertex 0, at
    // x = 46.1796875, and B's line is at x = 96.2265625: 50.046875 L apart
    // along +x.
    const std::array<Vec2, 4> b{{{0, real(0.00390625)},
                                 {real(9.39878906e-41), real(2.40743998e-35)},
                                 {real(96.2265625), real(-0.0625)},
                                 {0, 1020}}};
    const Transform xfa{{real(46.1796875), real(0.00100000005)},
                        Rot{real(-0.979491949), real(0.201483205)}};
    const Transform xfb{{real(96.2265625), 0}, Rot{}};
    const DistanceOutput out = core_distance_of(k_fuzzed_triangle, xfa, b, xfb);
    EXPECT_EQ(out.state, DistanceState::separated);
    EXPECT_NEAR(out.distance, 50.046875, 1e-4);
    expect_vec_near(out.normal, 1, 0, 1e-4);
    EXPECT_LT(out.iterations, k_gjk_max_iterations);
}

TEST(Distance, AThinTriangleFarFromTheOriginIsNotTakenToHoldIt) {
    // The same shapes' kin (fuzz_geometry): B's vertices 5, 0 and 1 lie on
    // the line x = 0, vertex 1 a subnormal hair off it, and A's core is 96
    // L away. GJK's third support made a triangle 0.004 L thin, 96 L from
    // the origin, whose areas, differences of products about 1e5, said the
    // origin was inside with weights -1.3e7 and 1.3e7: the cores were
    // called overlapping. A's nearest core point is its vertex 0, at
    // (0.001, 0.001); B's edge from vertex 0 to vertex 1 runs along
    // x = 96.2265625 through y = 0.001: 96.2255625 L apart along +x.
    const std::array<Vec2, 6> b{{{0, real(0.00390625)},
                                 {real(9.39878906e-41), real(2.40743998e-35)},
                                 {4, real(-5.75)},
                                 {real(47.0898438), real(-6.8125)},
                                 {real(96.2265625), real(-0.0625)},
                                 {0, 1020}}};
    const Transform xfa{{real(0.00100000005), real(0.00100000005)},
                        Rot{real(-0.979491949), real(0.201483205)}};
    const Transform xfb{{real(96.2265625), 0}, Rot{}};
    const DistanceOutput out = core_distance_of(k_fuzzed_triangle, xfa, b, xfb);
    EXPECT_EQ(out.state, DistanceState::separated);
    EXPECT_NEAR(out.distance, 96.2255625, 1e-4);
    expect_vec_near(out.normal, 1, 0, 1e-4);
}

TEST(Distance, ConcentricCirclesReportCoresOverlap) {
    const DistanceOutput out =
        run(Circle{{0, 0}, 1}, at(2, 2), Circle{{0, 0}, real(0.5)}, at(2, 2));
    EXPECT_EQ(out.state, DistanceState::cores_overlap);
    EXPECT_EQ(out.distance, 0);
}

TEST(Distance, OverlappingRoundedShapesWithSeparateCoresMeetAtTheMidpoint) {
    // Radii 1 and 1, centres 1.5 apart: the cores are apart (separated, normal
    // +x) but the discs overlap, so the distance is 0 and both witness points
    // sit midway between the surface points (1, 0) and (0.5, 0).
    const DistanceOutput out =
        run(Circle{{0, 0}, 1}, k_identity, Circle{{0, 0}, 1}, at(real(1.5), 0));
    EXPECT_EQ(out.state, DistanceState::separated);
    EXPECT_EQ(out.distance, 0);
    expect_vec_near(out.normal, 1, 0);
    expect_vec_near(out.point_a, 0.75, 0);
    expect_vec_near(out.point_b, 0.75, 0);
}

TEST(Distance, WithoutRadiiMeasuresTheCores) {
    // Same circles as above: the core points are the centres, 1.5 apart.
    const DistanceOutput out = run(Circle{{0, 0}, 1}, k_identity, Circle{{0, 0}, 1},
                                   at(real(1.5), 0), /*use_radii=*/false);
    EXPECT_NEAR(out.distance, 1.5, k_eps);
    expect_vec_near(out.point_a, 0, 0);
    expect_vec_near(out.point_b, 1.5, 0);
}

TEST(Distance, FarFromTheOriginKeepsPrecision) {
    // The same face-to-face pair as above moved by (1000, -1000): B is solved
    // in A's frame, so the gap of 2 survives float round-off at 1000 (ulp 6e-5).
    const DistanceOutput out = run(box(1, 1), at(1000, -1000), box(1, 1), at(1004, real(-999.5)));
    EXPECT_NEAR(out.distance, 2, 1e-4);
    expect_vec_near(out.normal, 1, 0, 1e-5);
}

TEST(Distance, NonFiniteTransformIsInvalidInput) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    EXPECT_EQ(run(box(1, 1), k_identity, box(1, 1), at(nan, 0)).state,
              DistanceState::invalid_input);
    EXPECT_EQ(run(box(1, 1), Transform{{0, 0}, {inf, 0}}, box(1, 1), at(3, 0)).state,
              DistanceState::invalid_input);
}

TEST(Distance, WarmStartFromTheLastCallGivesTheSameAnswer) {
    // The cache written by one call, read by the next on the same pair.
    const DistanceInput input{make_proxy(Shape(box(1, real(0.5)))),
                              make_proxy(Shape(box(real(0.3), 2))), at(0, 0, real(0.2)),
                              at(3, 1, real(-0.7))};
    SimplexCache cache;
    const DistanceOutput cold = distance(input, cache);
    EXPECT_GT(cache.count, 0);
    const DistanceOutput warm = distance(input, cache);
    EXPECT_NEAR(warm.distance, cold.distance, k_eps);
    expect_vec_near(warm.point_a, cold.point_a.x, cold.point_a.y);
    expect_vec_near(warm.point_b, cold.point_b.x, cold.point_b.y);
    EXPECT_LE(warm.iterations, cold.iterations);
    EXPECT_LE(cold.iterations, k_gjk_max_iterations);
}

TEST(Distance, ACacheWithIndicesBeyondTheProxiesStartsCold) {
    // Indices 7 do not exist on a 4-gon and a circle: the cache is ignored.
    SimplexCache cache;
    cache.count = 2;
    cache.index_a = {7, 7, 0};
    cache.index_b = {7, 0, 0};
    const DistanceOutput out = distance(
        {make_proxy(Shape(box(1, 1))), make_proxy(Shape(Circle{{0, 0}, 1})), k_identity, at(0, 4)},
        cache);
    EXPECT_NEAR(out.distance, 2, k_eps);
}

TEST(FindSupport, ReturnsTheVertexFurthestAlongTheDirection) {
    const ShapeProxy proxy = make_proxy(Shape(box(2, 1)));
    // Vertices (-2,-1), (2,-1), (2,1), (-2,1).
    EXPECT_EQ(find_support(proxy, {1, real(0.1)}), 2);
    EXPECT_EQ(find_support(proxy, {-1, real(-0.1)}), 0);
    EXPECT_EQ(find_support(proxy, {real(0.1), -1}), 1);
}

} // namespace
} // namespace sweep
