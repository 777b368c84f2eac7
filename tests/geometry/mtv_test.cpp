// Hand-derived minimum translation vectors (the seed "collision detection"
// article's cases). Every expected value is worked out in the comment above it.
#include "sweep/mtv.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "printers.hpp"

namespace sweep {
namespace {

constexpr real k_eps = real(1e-5);

Transform at(real x, real y, real angle = 0) { return {{x, y}, Rot::from_angle(angle)}; }

void expect_vec(Vec2 actual, Vec2 expected) {
    EXPECT_NEAR(actual.x, expected.x, k_eps);
    EXPECT_NEAR(actual.y, expected.y, k_eps);
}

TEST(Mtv, CirclesOverlapAlongTheirCentres) {
    // r 1 at (0,0) and r 1 at (1.5, 0): |d| = 1.5, separation 1.5 - 2 = -0.5,
    // normal +x; moving A by -0.5 along +x (to (-0.5, 0)) leaves them 2 apart.
    const Mtv m = mtv_circles({{0, 0}, 1}, k_identity, {{0, 0}, 1}, at(1.5f, 0));
    EXPECT_EQ(m.state, MtvState::overlapping);
    EXPECT_NEAR(m.separation, real(-0.5), k_eps);
    expect_vec(m.normal, {1, 0});
    expect_vec(m.translation, {-0.5f, 0});
}

TEST(Mtv, SeparatedCirclesReportTheirDistance) {
    // Centres (0,0) and (3,4): 5 apart, radii 1 + 1.5: distance 2.5, normal
    // (0.6, 0.8), no translation needed.
    const Mtv m = mtv_circles({{0, 0}, 1}, k_identity, {{0, 0}, 1.5f}, at(3, 4));
    EXPECT_EQ(m.state, MtvState::separated);
    EXPECT_NEAR(m.separation, real(2.5), k_eps);
    expect_vec(m.normal, {0.6f, 0.8f});
    expect_vec(m.translation, {0, 0});
}

TEST(Mtv, ConcentricCirclesPushUp) {
    // Same centre: the documented normal +y, depth ra + rb = 3.
    const Mtv m = mtv_circles({{1, 1}, 1}, k_identity, {{0, 0}, 2}, at(1, 1));
    EXPECT_EQ(m.state, MtvState::overlapping);
    EXPECT_NEAR(m.separation, -3, k_eps);
    expect_vec(m.normal, {0, 1});
    expect_vec(m.translation, {0, -3});
}

TEST(Mtv, CircleAgainstAabbFaceAndCorner) {
    const Aabb b{{0, 0}, {2, 2}};
    // Centre (-0.5, 1), r 1: clamps to (0, 1), 0.5 away, separation -0.5,
    // normal from the circle to the box +x.
    const Mtv face = mtv_circle_aabb({{-0.5f, 1}, 1}, k_identity, b);
    EXPECT_EQ(face.state, MtvState::overlapping);
    EXPECT_NEAR(face.separation, real(-0.5), k_eps);
    expect_vec(face.normal, {1, 0});
    // Centre (3, 3), r 1: clamps to the corner (2, 2), sqrt(2) away:
    // separation sqrt(2) - 1, normal (-1, -1) / sqrt(2).
    const Mtv corner = mtv_circle_aabb({{3, 3}, 1}, k_identity, b);
    EXPECT_EQ(corner.state, MtvState::separated);
    EXPECT_NEAR(corner.separation, std::sqrt(real(2)) - 1, k_eps);
    expect_vec(corner.normal, {-std::sqrt(real(0.5)), -std::sqrt(real(0.5))});
}

TEST(Mtv, CircleCentreInsideAabbLeavesThroughTheNearestFace) {
    const Aabb b{{0, 0}, {4, 2}};
    // Centre (3.5, 1.2), r 0.5: faces at 0.5 (+x), 3.5 (-x), 0.8 (+y),
    // 1.2 (-y). Out through +x: separation -(0.5 + 0.5) = -1, normal -x,
    // translation (+1, 0).
    const Mtv m = mtv_circle_aabb({{3.5f, 1.2f}, 0.5f}, k_identity, b);
    EXPECT_NEAR(m.separation, -1, k_eps);
    expect_vec(m.normal, {-1, 0});
    expect_vec(m.translation, {1, 0});
    // Centre at the centre of a square [0,2]^2: all faces at 1, the tie goes
    // to +x: separation -(1 + r), normal -x.
    const Mtv tie = mtv_circle_aabb({{1, 1}, 0.25f}, k_identity, {{0, 0}, {2, 2}});
    EXPECT_NEAR(tie.separation, real(-1.25), k_eps);
    expect_vec(tie.normal, {-1, 0});
}

TEST(Mtv, CircleAgainstRotatedBox) {
    // Box 1 x 0.5 (half extents) rotated 90 degrees at (5, 0): in the world
    // it spans x in [4.5, 5.5], y in [-1, 1]. Circle r 0.5 at (4.2, 0.3):
    // nearest point (4.5, 0.3), 0.3 away: separation -0.2, normal +x.
    const Polygon box = make_box(1, 0.5f).value();
    const Mtv m = mtv_circle_obb({{4.2f, 0.3f}, 0.5f}, k_identity, box, at(5, 0, k_pi / 2));
    EXPECT_EQ(m.state, MtvState::overlapping);
    EXPECT_NEAR(m.separation, real(-0.2), k_eps);
    expect_vec(m.normal, {1, 0});
    // Centre inside at (5, 0.8): faces (world) +y at 0.2, -y at 1.8, +-x at
    // 0.5: out through +y, separation -(0.2 + 0.5) = -0.7, normal -y.
    const Mtv in = mtv_circle_obb({{5, 0.8f}, 0.5f}, k_identity, box, at(5, 0, k_pi / 2));
    EXPECT_NEAR(in.separation, real(-0.7), k_eps);
    expect_vec(in.normal, {0, -1});
}

TEST(Mtv, AabbsOverlapAlongTheShallowerAxis) {
    // A = [0,2]^2, B = [1.5,3] x [1,4]: overlap 0.5 on x, 1 on y -> x:
    // separation -0.5, normal +x, translation (-0.5, 0).
    const Mtv m = mtv_aabbs({{0, 0}, {2, 2}}, {{1.5f, 1}, {3, 4}});
    EXPECT_EQ(m.state, MtvState::overlapping);
    EXPECT_NEAR(m.separation, real(-0.5), k_eps);
    expect_vec(m.normal, {1, 0});
    expect_vec(m.translation, {-0.5f, 0});
}

TEST(Mtv, SeparatedAabbsDiagonalDistance) {
    // A = [0,1]^2, B = [4,5] x [5,6]: gaps 3 and 4 -> distance 5, normal
    // (0.6, 0.8). Touching faces: state touching, separation 0.
    const Mtv m = mtv_aabbs({{0, 0}, {1, 1}}, {{4, 5}, {5, 6}});
    EXPECT_EQ(m.state, MtvState::separated);
    EXPECT_NEAR(m.separation, 5, k_eps);
    expect_vec(m.normal, {0.6f, 0.8f});
    const Mtv t = mtv_aabbs({{0, 0}, {1, 1}}, {{1, 0.5f}, {2, 3}});
    EXPECT_EQ(t.state, MtvState::touching);
    expect_vec(t.normal, {1, 0});
}

TEST(Mtv, PolygonsThroughTheMinkowskiDifference) {
    // Two unit boxes (half extents 0.5) A at (0,0), B at (0.8, 0.1): the
    // difference B - A is the box [-1,1]^2 about (0.8, 0.1); the origin is
    // 1 - 0.8 = 0.2 inside its -x face and 0.9 inside its -y face:
    // separation -0.2, normal +x.
    const Polygon box = make_box(0.5f, 0.5f).value();
    const Mtv m = mtv_polygons(box, k_identity, box, at(0.8f, 0.1f));
    EXPECT_EQ(m.state, MtvState::overlapping);
    EXPECT_NEAR(m.separation, real(-0.2), k_eps);
    expect_vec(m.normal, {1, 0});
    // B at (3, 2.5): the difference spans [2,4] x [1.5,3.5]; its nearest
    // point to the origin is the corner (2, 1.5), 2.5 away, normal (0.8, 0.6).
    const Mtv apart = mtv_polygons(box, k_identity, box, at(3, 2.5f));
    EXPECT_EQ(apart.state, MtvState::separated);
    EXPECT_NEAR(apart.separation, real(2.5), k_eps);
    expect_vec(apart.normal, {0.8f, 0.6f});
}

TEST(Mtv, RotatedPolygonVertexIntoFace) {
    // B: unit box rotated 45 degrees at (0, 1.2): its lowest vertex is at
    // y = 1.2 - sqrt(0.5) = 0.49289, below A's top face y = 0.5 by 0.00711.
    // The least penetration is along A's +y face: separation -0.0071068.
    const Polygon box = make_box(0.5f, 0.5f).value();
    const Mtv m = mtv_polygons(box, k_identity, box, at(0, 1.2f, k_pi / 4));
    EXPECT_NEAR(m.separation, real(1.2) - std::sqrt(real(0.5)) - real(0.5), k_eps);
    expect_vec(m.normal, {0, 1});
    // Parallel faces apart: A's top y = 0.5, B's bottom y = 1.5: distance 1.
    const Mtv par = mtv_polygons(box, k_identity, box, at(0.3f, 2));
    EXPECT_NEAR(par.separation, 1, k_eps);
    expect_vec(par.normal, {0, 1});
}

TEST(Mtv, RoundedPolygonsSubtractTheirRadii) {
    // Two boxes of half extent 0.5 rounded by 0.1, centres 1.1 apart on x:
    // cores 0.1 apart, separation 0.1 - 0.2 = -0.1.
    const Vec2 pts[4] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
    const Polygon rounded = make_polygon(pts, 0.1f).value();
    const Mtv m = mtv_polygons(rounded, k_identity, rounded, at(1.1f, 0));
    EXPECT_NEAR(m.separation, real(-0.1), k_eps);
    expect_vec(m.normal, {1, 0});
}

TEST(Mtv, ShapesApartByADistanceWhoseSquareIsSubnormalGetAUnitNormal) {
    // g = 0.003 sqrt(smallest normal): g * g is subnormal, with 6 bits left
    // in float. Dividing by the square root of such a square made a normal
    // 1.004 long (fuzz_geometry). Circles of radius 1 with centres (g, 0)
    // apart: separation g - 2, normal +x. Boxes with A's corner at the
    // origin and B's at (g, g): g * sqrt(2) apart along (1, 1) / sqrt(2).
    // Polygons so placed: the difference's vertices next to (g, g) are 1
    // away, and their rounding loses g, so only the normal's length, its
    // quadrant and a distance of at most 2 g are certain.
    // (In double such a g is below the 1e-30 L normalize resolves, so
    // there the case cannot arise: 1e-29 L checks the same answers.)
    const real g = std::max(std::sqrt(std::numeric_limits<real>::min()) * real(0.003), real(1e-29));
    const real tight = 8 * std::numeric_limits<real>::epsilon();
    const Mtv circles = mtv_circles({{0, 0}, 1}, k_identity, {{g, 0}, 1}, k_identity);
    EXPECT_EQ(circles.normal, (Vec2{1, 0}));
    EXPECT_NEAR(circles.separation, -2, tight);
    const Mtv boxes = mtv_aabbs({{-1, -1}, {0, 0}}, {{g, g}, {1, 1}});
    EXPECT_NEAR(boxes.normal.x, std::sqrt(real(0.5)), tight);
    EXPECT_NEAR(boxes.normal.y, std::sqrt(real(0.5)), tight);
    EXPECT_NEAR(boxes.separation / g, std::sqrt(real(2)), 1e-5);
    // A circle's centre 1e-32 L beyond a box's face, too little to
    // normalize (the square underflowed: a NaN normal): the face's normal.
    const Mtv face = mtv_circle_aabb({{real(1e-32), 0}, 1}, k_identity,
                                     {{real(-2e-31), -1}, {0, 1}});
    EXPECT_EQ(face.normal, (Vec2{-1, 0}));
    EXPECT_NEAR(face.separation, -1, tight);
    // Boxes 1e-31 L apart along x: touching along +x (it was NaN in float).
    const Mtv hair = mtv_aabbs({{-1, -1}, {0, 0}}, {{real(1e-31), -1}, {1, 0}});
    EXPECT_EQ(hair.state, MtvState::touching);
    EXPECT_EQ(hair.normal, (Vec2{1, 0}));
    EXPECT_NEAR(hair.separation, 0, tight);
    const Vec2 a_points[4] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
    const Vec2 b_points[4] = {{g, g}, {1, g}, {1, 1}, {g, 1}};
    const Mtv m = mtv_polygons(make_polygon(a_points).value(), k_identity,
                               make_polygon(b_points).value(), k_identity);
    EXPECT_EQ(m.state, MtvState::touching);
    EXPECT_NEAR(length(m.normal), 1, tight);
    EXPECT_GE(m.normal.x, 0);
    EXPECT_GE(m.normal.y, 0);
    EXPECT_GE(m.separation, 0);
    EXPECT_LE(m.separation, 2 * g);
}

// Two unit boxes 4.7e-8 L apart, corner to face (the exact distance, in
// double, 4.678e-8): they touch, and the normal separates them to within
// rounding. The closest point's direction, a vector 1e-8 long built from
// differences of world coordinates, was noise: along the normal returned,
// (1, -2) / sqrt 5, they overlapped by 1.19 L.
TEST(Mtv, PolygonsApartByARoundingErrorGetASeparatingNormal) {
    const Polygon box = make_box(0.5f, 0.5f).value();
    const Transform xa{{0, 0}, {real(0x1.c1528p-1), real(0x1.eaee88p-2)}};
    const Transform xb{{real(0x1.0005ecp+0), real(0x1.17bb7p-1)},
                       {real(0x1.f9da04p-1), real(0x1.3c6efap-3)}};
    const Mtv r = mtv_polygons(box, xa, box, xb);
    EXPECT_EQ(r.state, MtvState::touching);
    EXPECT_NEAR(r.separation, 4.678e-8, 1e-6);
    // The gap along the normal, in double: B's least projection less A's greatest.
    double a_max = -1e30;
    double b_min = 1e30;
    for (int i = 0; i < 4; ++i) {
        const Vec2 va = transform_point(xa, box.vertices[i]);
        const Vec2 vb = transform_point(xb, box.vertices[i]);
        a_max = std::max(a_max, double(r.normal.x) * va.x + double(r.normal.y) * va.y);
        b_min = std::min(b_min, double(r.normal.x) * vb.x + double(r.normal.y) * vb.y);
    }
    EXPECT_GE(b_min - a_max, -1e-6);
}

// Two unit boxes apart corner to corner along the diagonal (by hand:
// sqrt 2 (d - 1), along (1, 1) / sqrt 2), at the origin and 2^17 and 2^20 L
// from it (inputs exact). A noise bound of 64 ulps of the world coordinates
// (1 L at 2^17) measured them along an axis instead: 0.29 L short.
TEST(Mtv, PolygonsFarFromTheOriginAreMeasuredAsAtTheOrigin) {
    const Polygon box = make_box(0.5f, 0.5f).value();
    struct Case {
        real d, o; // o + d exact
    };
    for (const Case c : {Case{real(1.6875), 0}, Case{real(1.6875), real(131072)},
                         Case{real(6.5), 0}, Case{real(6.5), real(1048576)}}) {
        const Mtv r = mtv_polygons(box, {{c.o, c.o}, {}}, box, {{c.o + c.d, c.o + c.d}, {}});
        SCOPED_TRACE(testing::Message() << "d " << c.d << ", offset " << c.o);
        EXPECT_NEAR(r.separation, std::sqrt(2.0) * (c.d - 1), 1e-5);
        EXPECT_NEAR(r.normal.x, std::sqrt(0.5), 1e-6);
        EXPECT_NEAR(r.normal.y, std::sqrt(0.5), 1e-6);
    }
}

TEST(Mtv, NonFiniteInputIsInvalid) {
    const real nan = std::numeric_limits<real>::quiet_NaN();
    EXPECT_EQ(mtv_circles({{0, 0}, 1}, at(nan, 0), {{0, 0}, 1}, k_identity).state,
              MtvState::invalid_input);
    EXPECT_EQ(mtv_aabbs({{1, 0}, {0, 1}}, {{0, 0}, {1, 1}}).state, MtvState::invalid_input);
}

} // namespace
} // namespace sweep
