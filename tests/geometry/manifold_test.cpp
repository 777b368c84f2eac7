// Contact manifolds, hand-derived cases (manifold.hpp). Normals point from A
// to B; separations are negative when penetrating; a point's position is
// midway between the two surfaces.
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/mtv.hpp"

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

constexpr double k_eps = std::is_same_v<real, float> ? 2e-5 : 1e-9;

void expect_vec_near(Vec2 actual, double x, double y, double eps = k_eps) {
    EXPECT_NEAR(actual.x, x, eps);
    EXPECT_NEAR(actual.y, y, eps);
}

Transform at(real x, real y, real angle = 0) { return {{x, y}, Rot::from_angle(angle)}; }
Polygon box(real hx, real hy) { return make_box(hx, hy).value(); }

/// A polygon with exactly the counter-clockwise vertices `ccw`, its normals
/// and centroid made as make_polygon makes them, but none of its vertices
/// dropped: for the kernel's cases of a vertex a hair off its neighbours'
/// line, which make_polygon drops (k_hull_weld_distance) and a Polygon
/// filled by hand may still have.
Polygon polygon_as_given(std::span<const Vec2> ccw) {
    Polygon p;
    p.count = static_cast<int>(ccw.size());
    std::copy(ccw.begin(), ccw.end(), p.vertices.begin());
    Vec2 area_sum{};
    real area = 0;
    const Vec2 origin = p.vertices[0];
    for (int i = 0; i < p.count; ++i) {
        const Vec2 a = p.vertices[i];
        const Vec2 b = p.vertices[i + 1 < p.count ? i + 1 : 0];
        p.normals[i] = normalize(right_perp(b - a));
        const real tri = real(0.5) * cross(a - origin, b - origin);
        area += tri;
        area_sum += tri * (real(1) / 3) * ((a - origin) + (b - origin));
    }
    p.centroid = origin + (real(1) / area) * area_sum;
    return p;
}

/// The two points sorted by x, so tests need not depend on clipping order.
std::array<ManifoldPoint, 2> by_x(const Manifold& m) {
    std::array<ManifoldPoint, 2> p = m.points;
    if (p[1].point.x < p[0].point.x) {
        std::swap(p[0], p[1]);
    }
    return p;
}

// The ground: [-2, 2] x [-0.5, 0.5] at the origin; its top face is y = 0.5.
const Polygon k_ground = box(2, real(0.5));

TEST(CollidePolygons, BoxRestingOnBoxHasTwoPointsWithTheGroundNormal) {
    // A unit box (half 0.5) centred at (0.3, 0.99): its bottom y = 0.49 is
    // 0.01 below the ground's top. The ground's top face is the reference;
    // the incident bottom edge spans x in [-0.2, 0.8], inside the face, so
    // both ends stay: separation -0.01, midway y = (0.5 + 0.49) / 2 = 0.495.
    const Manifold m = collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)),
                                        at(real(0.3), real(0.99)));
    ASSERT_EQ(m.count, 2);
    expect_vec_near(m.normal, 0, 1);
    EXPECT_FALSE(m.reference_is_b);
    expect_vec_near(m.local_normal, 0, 1);
    const auto p = by_x(m);
    expect_vec_near(p[0].point, -0.2, 0.495);
    expect_vec_near(p[1].point, 0.8, 0.495);
    EXPECT_NEAR(p[0].separation, -0.01, k_eps);
    EXPECT_NEAR(p[1].separation, -0.01, k_eps);
    // Anchors: on the ground's top face in its frame, on B's bottom corners in B's.
    expect_vec_near(p[0].anchor_a, -0.2, 0.5);
    expect_vec_near(p[0].anchor_b, -0.5, -0.5);
    expect_vec_near(p[1].anchor_b, 0.5, -0.5);
    EXPECT_NE(p[0].id, p[1].id);
}

// A unit tile [-0.5, 0.5]^2 at the origin; make_box's faces are bottom (0),
// right (1), top (2), left (3).
const Polygon k_tile = box(real(0.5), real(0.5));
constexpr int k_top = 2;

TEST(CollideFace, ABoxAHairPastTheTilesSideGetsTheTopFaceAndItsDepthBelowIt) {
    // A unit box at (0.995, 0.99): its left side x = 0.495 is 0.005 inside
    // the tile's right face, its bottom y = 0.49 is 0.01 below the top.
    // collide() pushes it out sideways (the least overlap); against the top
    // face alone the normal is down (A to B), the bottom edge clipped to the
    // face's extent is x in [0.495, 0.5], 0.01 deep: midway y = 0.495.
    const Shape mover = box(real(0.5), real(0.5));
    const Transform xf = at(real(0.995), real(0.99));
    const Manifold sideways = collide(mover, xf, k_tile, k_identity);
    ASSERT_GT(sideways.count, 0);
    EXPECT_NEAR(sideways.normal.x, -1, k_eps);
    const Manifold m = collide_face(mover, xf, k_tile, k_identity, k_top);
    ASSERT_EQ(m.count, 2);
    expect_vec_near(m.normal, 0, -1);
    EXPECT_TRUE(m.reference_is_b);
    const auto p = by_x(m);
    expect_vec_near(p[0].point, 0.495, 0.495);
    expect_vec_near(p[1].point, 0.5, 0.495);
    EXPECT_NEAR(p[0].separation, -0.01, k_eps);
    EXPECT_NEAR(p[1].separation, -0.01, k_eps);
    expect_vec_near(p[1].anchor_b, 0.5, 0.5); // on the top face, in the tile's frame
}

TEST(CollideFace, ACircleCountsOnlyOverTheFacesExtent) {
    const Shape disc = Circle{{}, real(0.25)};
    // Over the face: 0.01 deep, one point below the centre.
    const Manifold over = collide_face(disc, at(real(0.4), real(0.74)), k_tile, k_identity, k_top);
    ASSERT_EQ(over.count, 1);
    expect_vec_near(over.normal, 0, -1);
    EXPECT_NEAR(over.points[0].separation, -0.01, k_eps);
    expect_vec_near(over.points[0].point, 0.4, 0.495);
    // Beyond the face's end (x > 0.5) the face has nothing to say, even
    // though the disc overlaps the tile's corner.
    const Shape near_corner = Circle{{}, real(0.25)};
    EXPECT_GT(collide(near_corner, at(real(0.6), real(0.7)), k_tile, k_identity).count, 0);
    EXPECT_EQ(collide_face(near_corner, at(real(0.6), real(0.7)), k_tile, k_identity, k_top).count,
              0);
}

TEST(CollideFace, AFaceIndexOutsideThePolygonOrAnEdgeAsTheShapeGivesNoContact) {
    const Shape mover = box(real(0.5), real(0.5));
    EXPECT_EQ(collide_face(mover, at(0, real(0.99)), k_tile, k_identity, -1).count, 0);
    EXPECT_EQ(collide_face(mover, at(0, real(0.99)), k_tile, k_identity, 4).count, 0);
    const Shape edge = Segment{{-1, real(0.5)}, {1, real(0.5)}};
    EXPECT_EQ(collide_face(edge, k_identity, k_tile, k_identity, k_top).count, 0);
}

TEST(CollidePolygons, CornersAHairApartAcrossParallelFacesStillMeet) {
    // A box sliding along a floor of tiles, a slop short of the next tile:
    // its bottom a hair above that tile's top, its right face parallel to
    // the tile's left. The faces' overlap is a rounding error and the
    // closest point a rounding error off a corner: the clip to the tile's
    // face left nothing and the pair had no contact, so the world's final
    // sweep stopped the box a slop short of the seam. Over a grid of such
    // poses the faces meet across the gap, in either order.
    const Polygon mover = box(real(0.4), real(0.4));
    const Polygon tile = box(real(0.5), real(0.5));
    const Transform xf_tile = at(real(4.5), real(-6.5));
    const CollideSettings settings{real(0.01), real(0.005)};
    int poses = 0;
    for (int i = -40; i <= 40; ++i) {
        for (int j = -20; j <= 20; ++j) {
            for (const real angle : {real(0), real(-4.61e-8), real(4e-8)}) {
                // (float: the corner lands on y = -6 or a few ulps away)
                const Transform xf_mover = at(real(3.595) + real(j) * real(1e-6),
                                              real(-5.6) + real(i) * real(1e-8), angle);
                for (const bool swap : {false, true}) {
                    const Manifold m = swap ? collide(tile, xf_tile, mover, xf_mover, settings)
                                            : collide(mover, xf_mover, tile, xf_tile, settings);
                    ASSERT_GE(m.count, 1) << "pose " << i << ", " << j << " swap " << swap;
                    EXPECT_NEAR(m.points[0].separation, 0.005, 5e-5);
                    EXPECT_NEAR(std::abs(m.normal.x), 1, 1e-3);
                }
                ++poses;
            }
        }
    }
    EXPECT_EQ(poses, 81 * 41 * 3);
}

TEST(CollidePolygons, CornersWithinATenthOfASlopMeetAtTheirClosestPoints) {
    // A random scene's box and spinning star polygon, corner to corner
    // 1.4e-4 L apart (GJK): too close for the vertex-to-vertex rule, and the
    // clip of the box's edge to the polygon's short face left nothing. With
    // no manifold at the step's start, the polygon went 6 slops into the
    // box within the step.
    const Polygon a = box(real(0.441397369), real(0.295392603));
    const std::vector<Vec2> star{
        {real(-0.312976062), real(-0.0852975771)}, {real(-0.259614229), real(-0.179684505)},
        {real(0.0798051059), real(-0.300564498)},  {real(0.247060508), real(-0.272905171)},
        {real(0.214890853), real(-0.00620324956)}, {real(0.16138725), real(0.119679362)},
        {real(-0.0577390417), real(0.207139015)},  {real(-0.179817259), real(0.19495821)}};
    const Polygon b = make_polygon(star, 0).value();
    const Transform xa{{real(2.68165874), real(-3.37573862)},
                       {real(-0.987749815), real(0.15604578)}};
    const Transform xb{{real(2.1158998), real(-2.75270176)},
                       {real(0.0149621908), real(0.999888062)}};
    DistanceInput in{make_proxy(a), make_proxy(b), xa, xb, true};
    SimplexCache cache;
    const real gap = distance(in, cache).distance;
    ASSERT_GT(gap, 0);
    ASSERT_LT(gap, real(0.0005));
    const CollideSettings settings{real(0.1369), real(0.005)};
    for (const bool swap : {false, true}) {
        const Manifold m = swap ? collide(b, xb, a, xa, settings) : collide(a, xa, b, xb, settings);
        ASSERT_EQ(m.count, 1) << "swap " << swap;
        EXPECT_NEAR(m.points[0].separation, gap, 1e-5) << "swap " << swap;
    }
}

// A needle (a triangle 2 L long, 0.001 wide) whose tip lies on the axis of
// a capsule of radius 0.3, 0.29 L beyond its core's end: 0.01 L deep along
// the axis, by hand. The needle's long faces pass within a tenth of a slop
// of the core's end, so their axes called the cores touching, and the clip
// (grown by the radius) measured the cap as if flat: 0.3 L deep along the
// needle's face normal. In either order, at rotations of the pair.
TEST(CollidePolygons, ACapsulesCapOverANeedlesTipIsAsDeepAsTheGapAlongTheAxis) {
    const Capsule capsule{{-1, 0}, {0, 0}, real(0.3)};
    const std::array<Vec2, 3> needle_points{{{0, 0}, {2, real(-0.0005)}, {2, real(0.0005)}}};
    const Shape needle(make_polygon(needle_points).value());
    for (int r = 0; r < 16; ++r) {
        const Rot q = Rot::from_angle(real(0.3927 * r));
        const Transform xa{{real(1.5), real(-2)}, q};
        const Transform xb{transform_point(xa, {real(0.29), 0}), q};
        for (const bool swap : {false, true}) {
            const Manifold m = swap ? collide(needle, xb, Shape(capsule), xa)
                                    : collide(Shape(capsule), xa, needle, xb);
            SCOPED_TRACE(testing::Message() << "rotation " << r << ", swap " << swap);
            ASSERT_GE(m.count, 1);
            for (int i = 0; i < m.count; ++i) {
                EXPECT_NEAR(m.points[i].separation, -0.01, 1e-4);
            }
            const Vec2 axis = rotate(q, Vec2{swap ? -1.0f : 1.0f, 0});
            EXPECT_NEAR(dot(m.normal, axis), 1, 1e-3);
        }
    }
}

// A segment leaning over a box's corner, its end 1e-5 L from it (the exact
// distance, by hand in double: 1.00647168e-5): the segment's face leaves
// nothing (the box lies beyond its end), and the box's top face, taking
// over, clipped the segment at the box's side, 0.01 L up, past its nearest
// point: 0.0185 L claimed where the gap is 1e-5.
TEST(CollidePolygons, ASegmentEndAHairFromABoxsCornerGetsItsTrueGapInEitherOrder) {
    const Shape box(make_box(0.5f, 0.5f).value());
    const Shape segment(Segment{{real(0.50001), real(0.500001)}, {real(0.49901), real(1.5)}});
    for (const bool swap : {false, true}) {
        const Manifold m = swap ? collide(box, k_identity, segment, k_identity)
                                : collide(segment, k_identity, box, k_identity);
        ASSERT_EQ(m.count, 1) << "swap " << swap;
        EXPECT_NEAR(m.points[0].separation, 1.00647168e-5, 1e-6) << "swap " << swap;
    }
}

// Circles whose centres lie a hair (1e-7 to 1e-5 L) outside a hexagon near
// a vertex, in every direction of the vertex's outer cone and a little over
// each face beside it: the normal separates the pair by the separation
// collide() reports (the gap along it, in double, is no less). A centre
// 2.7e-6 L over face 0's end had its closest point round onto the vertex,
// and got the vertex's direction, 0.5 degrees past the face's normal, along
// which they overlapped 0.0095 L more than said.
TEST(CollidePolygonCircle, ACentreAHairFromAVertexGetsANormalThatSeparates) {
    const std::array<Vec2, 6> hexagon{{{real(-0x1.af945cp-1), real(0x1.133d9ap-1)},
                                       {real(-0x1.1d4806p-2), real(-0x1.7ea72ap-2)},
                                       {real(0x1.cb91e6p-7), real(-0x1.76c238p-2)},
                                       {real(0x1.b1fb32p-2), real(-0x1.2f3a8p-2)},
                                       {real(0x1.a9da6cp-1), real(0x1.8e342p-4)},
                                       {real(0x1.d63eaep-2), real(0x1.6f85fep-1)}}};
    const Polygon poly = make_polygon(hexagon).value();
    const Transform xa{{0, 0}, {real(0x1.e2867ap-1), real(0x1.566c38p-2)}};
    const Circle circle{{0, 0}, real(0x1.21320ap-4)};
    const auto gap_along = [&](Vec2 n, Vec2 centre) {
        double a_max = -1e30;
        for (int i = 0; i < poly.count; ++i) {
            const Vec2 v = transform_point(xa, poly.vertices[i]);
            a_max = std::max(a_max, double(n.x) * v.x + double(n.y) * v.y);
        }
        return double(n.x) * centre.x + double(n.y) * centre.y - circle.radius - a_max;
    };
    // The repro: the centre 2.7e-6 L from vertex 0.
    const Transform repro{{real(-0x1.f2c668p-1), real(0x1.cc4d66p-3)},
                          {real(0x1.b1e692p-2), real(-0x1.cfc372p-1)}};
    const Manifold m = collide(Shape(poly), xa, Shape(circle), repro);
    ASSERT_EQ(m.count, 1);
    EXPECT_GE(gap_along(m.normal, repro.p), m.points[0].separation - 1e-6);
    int cases = 0;
    for (int vertex = 0; vertex < poly.count; ++vertex) {
        const Vec2 v = transform_point(xa, poly.vertices[vertex]);
        const Vec2 n_before = rotate(xa.q, poly.normals[vertex > 0 ? vertex - 1 : poly.count - 1]);
        const Vec2 n_after = rotate(xa.q, poly.normals[vertex]);
        const double from = std::atan2(n_before.y, n_before.x);
        const double span =
            std::remainder(std::atan2(n_after.y, n_after.x) - from, 6.283185307179586);
        for (const double d : {1e-7, 1e-6, 3e-6, 1e-5}) {
            for (int k = -2; k <= 42; ++k) { // a little over each face's end too
                const double angle = from + span * k / 40;
                const Vec2 centre{real(v.x + d * std::cos(angle)), real(v.y + d * std::sin(angle))};
                const Manifold c = collide(Shape(poly), xa, Shape(circle), {centre, {}});
                SCOPED_TRACE(testing::Message()
                             << "vertex " << vertex << ", d " << d << ", k " << k);
                ASSERT_EQ(c.count, 1);
                EXPECT_GE(gap_along(c.normal, centre), c.points[0].separation - 1e-6);
                ++cases;
            }
        }
    }
    EXPECT_EQ(cases, 6 * 4 * 45);
}

// A capsule lying along a rounded box's face, their cores apart: two points
// (separations -0.456 and -0.092 at the origin), at offsets up to 2^20 L
// (inputs exact). The check of the faces' contact against GJK's closest
// cores allowed a tenth of a slop between a world-frame measure and one in
// A's frame; past 2^13 L the world's rounding exceeds that, and the
// contact lost its second point at random (at 2^14 here).
TEST(CollidePolygons, FarFromTheOriginATwoPointContactKeepsBothPoints) {
    const Shape capsule = make_capsule({real(-1.70156944), 0},
                                       {real(1.75742865), real(-0.0267285239)}, real(0.319261789))
                              .value();
    const Shape box =
        make_rounded_box(real(1.54637134), real(1.01123321), real(0.195405498)).value();
    const Rot q = Rot::from_angle(real(0.576260984));
    for (int k = 0; k <= 20; k += 2) {
        const real o = k == 0 ? real(0) : std::ldexp(real(1), k);
        const Manifold m = collide(capsule, {{real(-2.48046875) + o, real(0.1875) + o}, {}}, box,
                                   {{real(-6.03125) + o, real(0.26171875) + o}, q});
        SCOPED_TRACE(testing::Message() << "offset 2^" << k);
        ASSERT_EQ(m.count, 2);
        EXPECT_NEAR(m.normal.x, -0.544893, 1e-5);
        EXPECT_NEAR(m.normal.y, 0.838506, 1e-5);
        const real ulp = o * std::numeric_limits<real>::epsilon();
        const real lo = std::min(m.points[0].separation, m.points[1].separation);
        const real hi = std::max(m.points[0].separation, m.points[1].separation);
        EXPECT_NEAR(lo, -0.456046, 1e-4 + 8 * ulp);
        EXPECT_NEAR(hi, -0.091962, 1e-4 + 8 * ulp);
    }
}

TEST(CollidePolygons, ACapsuleEndNearAPolygonGetsItsTrueGapInEitherOrder) {
    // A random scene's capsule and heptagon, apart by 0.0256 L (GJK) between
    // the capsule's end cap and the heptagon's corner (seed 60357). With the
    // capsule as A its side face was the reference and the heptagon's edge
    // most anti-parallel to it the incident edge, but the heptagon's
    // nearest part lies beyond the capsule's end, on another edge: within
    // speculative distances of 0.05 to 0.11 L no point came (the pair, a
    // contact's speculative margin apart, closed 7 slops into each other
    // within a step), and at 0.2 L one point claimed a gap of 0.169 L.
    const Capsule capsule{{real(-0.141764), 0}, {real(0.141764), 0}, real(0.068121)};
    const std::vector<Vec2> heptagon{
        {real(-0.154483), real(-0.068875)}, {real(-0.053618), real(-0.146554)},
        {real(0.006093), real(-0.136256)},  {real(0.164708), real(-0.108803)},
        {real(0.086515), real(0.173026)},   {real(-0.045142), real(0.159412)},
        {real(-0.138669), real(0.052098)}};
    const Polygon b = make_polygon(heptagon, 0).value();
    const Transform xa{{real(1.0628903), real(-4.3941259)}, {real(0.9372848), real(0.3485645)}};
    const Transform xb{{real(0.6626382), real(-4.3285689)}, {real(0.9826574), real(0.1854301)}};
    DistanceInput in{make_proxy(Shape(capsule)), make_proxy(Shape(b)), xa, xb, true};
    SimplexCache cache;
    const real gap = distance(in, cache).distance;
    ASSERT_GT(gap, real(0.02));
    ASSERT_LT(gap, real(0.03));
    for (const real speculative : {real(0.05), real(0.1145), real(0.2)}) {
        const CollideSettings settings{speculative, real(0.005)};
        for (const bool swap : {false, true}) {
            const Manifold m = swap ? collide(Shape(b), xb, Shape(capsule), xa, settings)
                                    : collide(Shape(capsule), xa, Shape(b), xb, settings);
            ASSERT_GE(m.count, 1) << "speculative " << speculative << " swap " << swap;
            real least = m.points[0].separation;
            for (int i = 1; i < m.count; ++i) {
                least = std::min(least, m.points[i].separation);
            }
            EXPECT_NEAR(least, gap, 1e-4) << "speculative " << speculative << " swap " << swap;
        }
    }
}

TEST(CollidePolygons, ASmallBoxOverlappedAtItsCornerGetsTheContactInEitherOrder) {
    // A 0.107 L box and a heptagon 0.7 L across overlap by 0.005 L at the
    // box's corner (seed 61564 of the random scenes). The box's face is the
    // preferred reference, but the heptagon's facing edge lies past that
    // face's end: clipped to it, nothing was left, and the pair got no
    // contact with the box as A (two points with the heptagon as A).
    const Polygon box = make_box(0.0532778732f, 0.0513601899f).value();
    const std::vector<Vec2> heptagon{
        {-0.267170707f, 0.16835249f},   {-0.254164758f, -0.0316916859f},
        {-0.152177226f, -0.345256287f}, {0.146232514f, -0.387869062f},
        {0.325069144f, -0.10903922f},   {0.176337385f, 0.152915676f},
        {0.052953502f, 0.272113954f}};
    const Polygon other = make_polygon(heptagon).value();
    const Transform xf_box{{3.56256017f, 3.25499384f}, Rot::from_angle(-1.65424178f)};
    const Transform xf_other{{3.60646238f, 2.96937883f}, Rot::from_angle(0.837556162f)};
    // The overlap by the separating-axis test over both polygons' normals.
    const real overlap = mtv_polygons(box, xf_box, other, xf_other).separation;
    ASSERT_LT(overlap, 0);
    const Manifold ab = collide(Shape(box), xf_box, Shape(other), xf_other);
    const Manifold ba = collide(Shape(other), xf_other, Shape(box), xf_box);
    ASSERT_GE(ab.count, 1);
    ASSERT_EQ(ab.count, ba.count);
    EXPECT_NEAR(ab.normal.x, -ba.normal.x, 1e-5f);
    EXPECT_NEAR(ab.normal.y, -ba.normal.y, 1e-5f);
    real deepest = 0;
    for (int i = 0; i < ab.count; ++i) {
        deepest = std::min(deepest, ab.points[i].separation);
    }
    EXPECT_NEAR(deepest, overlap, 1e-4f);
}

TEST(CollidePolygons, ACornerAHairOverTheEndOfAFaceGetsTheContactInEitherOrder) {
    // A triangle's corner 0.00025 L above a thin wall's top face, 0.0001 L
    // in from the face's end (seed 30599 of the random scenes). The
    // triangle's face was the preferred reference and the wall's top edge,
    // clipped to it, left nothing: no speculative contact in that order,
    // and the triangle sank 2.4 slops into the wall in the next step.
    const std::vector<Vec2> corners{
        {-0.15515937f, 0.0423542f}, {0.00609085f, -0.145038558f}, {-0.00177952f, 0.156600087f}};
    const Polygon triangle = make_polygon(corners).value();
    const Polygon wall = box(real(5.0558244), real(0.05));
    const Transform xf_triangle{{real(-4.9555786), real(-0.2730302)},
                                {real(0.6944203), real(-0.7195696)}};
    const Transform xf_wall = at(0, real(-0.4283790));
    DistanceInput input;
    input.proxy_a = make_proxy(Shape(triangle));
    input.proxy_b = make_proxy(Shape(wall));
    input.xf_a = xf_triangle;
    input.xf_b = xf_wall;
    SimplexCache cache;
    const DistanceOutput gap = distance(input, cache);
    ASSERT_EQ(gap.state, DistanceState::separated);
    ASSERT_LT(gap.distance, real(0.1) * k_linear_slop);
    const CollideSettings settings{4 * k_linear_slop, k_linear_slop};
    const Manifold ab = collide_polygons(triangle, xf_triangle, wall, xf_wall, settings);
    const Manifold ba = collide_polygons(wall, xf_wall, triangle, xf_triangle, settings);
    ASSERT_EQ(ab.count, 1);
    ASSERT_EQ(ba.count, 1);
    EXPECT_NEAR(ab.normal.y, -1, 1e-5f);
    EXPECT_NEAR(ba.normal.y, 1, 1e-5f);
    EXPECT_NEAR(ab.points[0].separation, gap.distance, 1e-5f);
    EXPECT_NEAR(ba.points[0].separation, gap.distance, 1e-5f);
}

TEST(CollidePolygons, ParallelFacesWithFlushEndsMeetOverTheirWholeOverlap) {
    // A 1 x 0.8 box a slop left of a 1 x 2 wall, their bottoms flush at
    // y = 0: the box's right side faces the wall over its whole height, so
    // the contact is two points, (x, 0) and (x, 0.8), each a slop apart
    // along x, in either order. The closest points of the two parallel
    // edges are not unique; taking the two bottom corners as a vertex pair
    // gave one point at the bottom in one order.
    const real slop = k_linear_slop;
    const Polygon small = box(real(0.5), real(0.4));
    const Polygon wall = box(real(0.5), real(1));
    const Transform xf_small = at(0, real(0.4));
    const Transform xf_wall = at(1 + slop, 1);
    for (const bool small_first : {true, false}) {
        const Manifold m = small_first ? collide_polygons(small, xf_small, wall, xf_wall)
                                       : collide_polygons(wall, xf_wall, small, xf_small);
        ASSERT_EQ(m.count, 2) << small_first;
        EXPECT_NEAR(std::abs(m.normal.x), 1, 1e-6f);
        std::array<real, 2> ys{};
        for (int i = 0; i < 2; ++i) {
            EXPECT_NEAR(m.points[i].separation, slop, 1e-6f) << small_first;
            EXPECT_NEAR(m.points[i].point.x, real(0.5) + real(0.5) * slop, 1e-6f) << small_first;
            ys[static_cast<std::size_t>(i)] = m.points[i].point.y;
        }
        std::sort(ys.begin(), ys.end());
        EXPECT_NEAR(ys[0], 0, 1e-6f) << small_first;
        EXPECT_NEAR(ys[1], real(0.8), 1e-6f) << small_first;
    }
}

TEST(CollidePolygons, PointIdsDoNotDependOnWhichFaceIsTheReference) {
    // A unit box straddling two below it (offset by half a box), tilted a
    // little one way and then the other: the reference face swaps between
    // A's top and B's bottom, and each end of the overlap keeps its id, so
    // a pyramid's warm starts survive the swap (Box2D v3's vertex-pair ids).
    const Polygon unit = box(real(0.5), real(0.5));
    const Manifold left =
        collide_polygons(unit, at(0, 0, real(0.004)), unit, at(real(0.5), real(0.998)));
    const Manifold right =
        collide_polygons(unit, at(0, 0), unit, at(real(0.5), real(0.998), real(0.004)));
    ASSERT_EQ(left.count, 2);
    ASSERT_EQ(right.count, 2);
    ASSERT_NE(left.reference_is_b, right.reference_is_b);
    const auto l = by_x(left);
    const auto r = by_x(right);
    EXPECT_EQ(l[0].id, r[0].id);
    EXPECT_EQ(l[1].id, r[1].id);
    EXPECT_NE(l[0].id, l[1].id);
}

TEST(CollidePolygons, PointIdsSurviveANeighboursCornerCrossingTheFace) {
    // Two boxes side by side; B a hair higher, then a hair lower than A. Its
    // top corner is clipped in the first case, its bottom one in the second:
    // the ends of the overlap are the same features, with the same ids.
    const Polygon unit = box(real(0.5), real(0.5));
    const Manifold up = collide_polygons(unit, at(0, 0), unit, at(real(0.999), real(0.001)));
    const Manifold down = collide_polygons(unit, at(0, 0), unit, at(real(0.999), real(-0.001)));
    ASSERT_EQ(up.count, 2);
    ASSERT_EQ(down.count, 2);
    std::array<std::uint32_t, 2> a{up.points[0].id, up.points[1].id};
    std::array<std::uint32_t, 2> b{down.points[0].id, down.points[1].id};
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b);
    EXPECT_NE(a[0], a[1]);
}

TEST(CollidePolygons, BoxHangingOverTheEdgeIsClippedToTheFace) {
    // Centred at (1.8, 0.99): the bottom edge spans x in [1.3, 2.3]; the side
    // plane x = 2 of the ground's top face clips it at x = 2.
    const Manifold m = collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)),
                                        at(real(1.8), real(0.99)));
    ASSERT_EQ(m.count, 2);
    const auto p = by_x(m);
    expect_vec_near(p[0].point, 1.3, 0.495);
    expect_vec_near(p[1].point, 2.0, 0.495);
    EXPECT_NEAR(p[1].separation, -0.01, k_eps);
}

TEST(CollidePolygons, BoxCornerOnBoxHasOnePoint) {
    // The unit box turned 45 degrees has its lowest corner sqrt(0.5) below its
    // centre; centred at y = 0.5 + sqrt(0.5) - 0.01 that corner is 0.01 deep at
    // x = 0. The other end of the incident edge is sqrt(0.5) higher: far
    // beyond the speculative distance, so it is dropped.
    const real y = real(0.5 + std::sqrt(0.5) - 0.01);
    const Manifold m =
        collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)), at(0, y, k_pi / 4));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 0, 1);
    EXPECT_NEAR(m.points[0].separation, -0.01, k_eps);
    expect_vec_near(m.points[0].point, 0, 0.495);
}

TEST(CollidePolygons, ReferenceFaceOnBKeepsTheNormalFromAToB) {
    // The same tilted box as A above a ground B: the ground's face is the
    // reference (reference_is_b), its local normal is +y in B's frame, and
    // the normal from A (above) to B (below) is -y.
    const real y = real(0.5 + std::sqrt(0.5) - 0.01);
    const Manifold m =
        collide_polygons(box(real(0.5), real(0.5)), at(0, y, k_pi / 4), k_ground, k_identity);
    ASSERT_EQ(m.count, 1);
    EXPECT_TRUE(m.reference_is_b);
    expect_vec_near(m.normal, 0, -1);
    expect_vec_near(m.local_normal, 0, 1);
    EXPECT_NEAR(m.points[0].separation, -0.01, k_eps);
}

TEST(CollidePolygons, OnANearTieTheReferenceIsAsFaceUnlessBsIsPreferred) {
    // A unit box tilted 4e-5 rad resting 1e-4 deep on the ground: both
    // faces separate them equally well to far within a tenth of a slop
    // (the box's face by 2e-5 L more). By default the box's (A's) face is
    // the reference, its normal tilted with it: (sin, -cos) of 4e-5. With
    // prefer_reference_b the ground's face is, and the normal is exactly
    // -y, so the contact pushes the box straight up.
    const real tilt = real(-4e-5);
    const Transform pose = at(0, real(0.5 - 1e-4), tilt);
    CollideSettings settings;
    const Manifold own =
        collide_polygons(box(real(0.5), real(0.5)), pose, k_ground, k_identity, settings);
    ASSERT_EQ(own.count, 2);
    EXPECT_FALSE(own.reference_is_b);
    EXPECT_NEAR(own.normal.x, std::sin(tilt), 1e-7);
    EXPECT_NE(own.normal.x, 0);
    settings.prefer_reference_b = true;
    const Manifold ground =
        collide_polygons(box(real(0.5), real(0.5)), pose, k_ground, k_identity, settings);
    ASSERT_EQ(ground.count, 2);
    EXPECT_TRUE(ground.reference_is_b);
    EXPECT_EQ(ground.normal, (Vec2{0, -1}));
    // A's face clearly better (by more than a tenth of a slop) still wins:
    // the ground as A under a box turned 45 degrees, its corner 0.01 deep.
    const Manifold corner =
        collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)),
                         at(0, real(std::sqrt(0.5) - 0.01), k_pi / 4), settings);
    ASSERT_EQ(corner.count, 1);
    EXPECT_FALSE(corner.reference_is_b);
    expect_vec_near(corner.normal, 0, 1);
    settings.prefer_reference_b = false;
    const Manifold ground_first =
        collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)), pose, settings);
    EXPECT_FALSE(ground_first.reference_is_b);
    EXPECT_EQ(ground_first.normal, (Vec2{0, 1}));
}

TEST(CollidePolygons, RestingOnATiltedGroundUsesItsFaceNormal) {
    // Ground turned 30 degrees about the origin: its top normal is
    // (-sin 30, cos 30) = (-0.5, 0.866). A unit box centred 0.5 + 0.5 - 0.01
    // along that normal (same angle) rests 0.01 deep over its whole face.
    const double c = std::sqrt(3.0) / 2;
    const real d = real(0.99);
    const Manifold m = collide_polygons(k_ground, at(0, 0, k_pi / 6), box(real(0.5), real(0.5)),
                                        at(real(-0.5 * d), real(c * d), k_pi / 6));
    ASSERT_EQ(m.count, 2);
    expect_vec_near(m.normal, -0.5, c);
    EXPECT_NEAR(m.points[0].separation, -0.01, 1e-4);
    EXPECT_NEAR(m.points[1].separation, -0.01, 1e-4);
}

TEST(CollidePolygons, SpeculativePointsUpToTheSpeculativeDistance) {
    // Gap 0.9 x and 1.1 x the speculative distance (0.02) above the ground.
    const real spec = k_speculative_distance;
    const Manifold near = collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)),
                                           at(0, real(1) + real(0.9) * spec));
    ASSERT_EQ(near.count, 2);
    EXPECT_NEAR(near.points[0].separation, 0.9 * spec, k_eps);
    EXPECT_NEAR(near.points[1].separation, 0.9 * spec, k_eps);
    const Manifold far = collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)),
                                          at(0, real(1) + real(1.1) * spec));
    EXPECT_EQ(far.count, 0);
}

TEST(CollidePolygons, TiltedBoxKeepsOnlyThePointWithinTheSpeculativeDistance) {
    // Turned by 0.02 rad, the bottom edge (length 1) has one end
    // sin(0.02) = 0.02 higher than the other. With the low corner 0.01 above
    // the ground, the high end is ~0.03 above: beyond 0.02, dropped.
    const real a = real(0.02);
    const real low = real(0.01);
    // Lowest corner: centre y - (0.5 cos a + 0.5 sin a).
    const real y = real(0.5) + low + real(0.5) * (std::cos(a) + std::sin(a));
    const Manifold m =
        collide_polygons(k_ground, k_identity, box(real(0.5), real(0.5)), at(0, y, a));
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.points[0].separation, 0.01, 1e-4);
}

// What fuzz_geometry found: a heptagon whose bottom is three nearly
// collinear edges (turns of 5e-5 and 1e-13 rad), a long thin box sunk 8.66 L
// into it from below. The edge that separates them most by rounding (the
// third) ends before the box's facing edge begins, so clipping left nothing
// on it, and on the box's own best face; the cores overlap, so GJK's
// closest points had nothing either: overlapping polygons without a
// contact. A neighbour that separates them as well (within a slop) gives
// it. Expected, by the separating axes: the normal is the bottom's (up
// from the box into the heptagon) and the deepest point is the box's top
// corner under it, 8.66 L deep. (make_polygon now drops the vertex at
// (23.98, 0), 1e-11 L off its neighbours' line; the heptagon is built as
// the fuzzer's make_polygon made it.)
TEST(CollidePolygons, OverlappingPolygonsWithNearlyCollinearEdgesGetAContact) {
    const std::array<Vec2, 7> heptagon{
        Vec2{real(-25.9179688), real(0.00122070312)}, Vec2{real(-0.00100000005), 0},
        Vec2{real(23.9765625), 0},                    Vec2{384, real(3.96040353e-11)},
        Vec2{384, real(2.88623047)},                  Vec2{real(46.3632812), real(46.1796875)},
        Vec2{real(46.1796875), real(46.1796875)}};
    const Polygon b = polygon_as_given(heptagon);
    ASSERT_EQ(make_polygon(heptagon).value().count, 6);
    const Transform xfb{{real(46.1796875), real(-5.8203125)},
                        Rot{real(0.999999285), real(0.00122070278)}};
    const Transform xfa{{real(17.2539062), 0}, Rot{real(0.0513493903), real(-0.99868077)}};
    const Manifold m = collide_polygons(box(real(0.5), 46), xfa, b, xfb);
    ASSERT_GT(m.count, 0);
    EXPECT_NEAR(m.normal.x, -0.0012, 1e-3);
    EXPECT_NEAR(m.normal.y, 1, 1e-5);
    real deepest = 0;
    for (int i = 0; i < m.count; ++i) {
        deepest = std::min(deepest, m.points[static_cast<std::size_t>(i)].separation);
    }
    EXPECT_NEAR(deepest, -8.661, 0.002);
}

// Also from fuzz_geometry: A's edges 4 and 5 lie on x = 0 to rounding (its
// vertex 5 is 7e-24 L off their line), and B's bottom face, turned to
// normal (0.734553, 0.678551), is 2 L into A's lower corner. The two edges'
// normals tie to the bit against B's, and the first, from (0, 53.43) to
// (0, 34.32) in the world, was clipped: both points 9.6 L and more in
// front of the face, so no contact within the speculative distance of
// 0.09375 L. Expected: B's face is the reference (the separating axes give
// -1.9846 along it against -2.875 along A's), and A's deepest point is its
// vertex 0 at (0, 17.2539062): against B's vertex 0 at (2.875, 17.0664062),
// (-2.875)(0.734553) + (0.1875)(0.678551) = -1.984612 L. (make_polygon now
// drops A's vertex 5 and B's vertices 1 and 6, each within 1e-10 L of its
// neighbours' line; the two are built as the fuzzer's make_polygon made
// them.)
TEST(CollidePolygons, TiedIncidentEdgesOnOneLineTakeTheOneReachingDeeper) {
    const std::array<Vec2, 6> a_points{{{real(1.43773222e-42), real(7.10844192e-36)},
                                        {real(38.0664062), real(1.0625)},
                                        {73, real(46.1796875)},
                                        {64, real(46.1796875)},
                                        {real(3.95630403e-11), real(36.1796875)},
                                        {real(6.61845938e-24), real(17.0664062)}}};
    const std::array<Vec2, 7> b_points{{{0, real(2.93320923e-11)},
                                        {real(17.0664062), 0},
                                        {real(62.4179688), 0},
                                        {real(46.1796875), real(21.1796875)},
                                        {real(2.35937619), 73},
                                        {real(7.10843474e-36), 64},
                                        {real(2.3693558e-38), real(5.08984375)}}};
    const Polygon a = polygon_as_given(a_points);
    const Polygon b = polygon_as_given(b_points);
    ASSERT_EQ(make_polygon(a_points).value().count, 5);
    ASSERT_EQ(make_polygon(b_points).value().count, 5);
    const Transform xfa{{real(1.14437421e-28), real(17.2539062)}, Rot{}};
    const Transform xfb{{real(2.875), real(17.0664062)},
                        Rot{real(-0.678550899), real(0.734553337)}};
    const Manifold m = collide_polygons(a, xfa, b, xfb, {real(0.09375), k_linear_slop});
    ASSERT_GT(m.count, 0);
    expect_vec_near(m.normal, -0.734553, -0.678551, 1e-5);
    real deepest = 0;
    for (int i = 0; i < m.count; ++i) {
        deepest = std::min(deepest, m.points[static_cast<std::size_t>(i)].separation);
    }
    EXPECT_NEAR(deepest, -1.984612, 1e-4);
}

// A triangle (and a segment) whose corner touches a box's corner exactly,
// leaning away diagonally: every face's clip ends on that one point, and
// GJK's closest points coincide, so the pair had no contact at all (in a
// tile world such exact touches are common; fuzz_geometry found one). It
// gets one point there, at separation 0, along one of the box's faces.
TEST(CollidePolygons, CornersTouchingExactlyGetAContact) {
    const Polygon box = make_box(1, 1).value();
    const std::array<Vec2, 3> corner{Vec2{1, 1}, Vec2{2, 3}, Vec2{3, 3}};
    const Shape shapes[] = {Shape(make_polygon(corner).value()),
                            Shape(make_segment({1, 1}, {2, 3}).value())};
    for (const Shape& shape : shapes) {
        const Manifold m = collide(shape, k_identity, Shape(box), k_identity);
        ASSERT_EQ(m.count, 1);
        EXPECT_NEAR(m.points[0].separation, 0, k_eps);
        expect_vec_near(m.points[0].point, 1, 1);
        EXPECT_TRUE((m.normal == Vec2{-1, 0}) || (m.normal == Vec2{0, -1}))
            << m.normal.x << ", " << m.normal.y;
    }
}

// A rotated pentagon and triangle touching corner to corner (2.5e-8 L deep
// in double): GJK's closest points lie a few ulps apart, and the direction
// between them is noise. The contact's normal must still separate them: it
// was 73 degrees off the best axis, along which B reached 0.59 L behind A.
TEST(CollidePolygons, CornersTouchingAtRotatedPosesGetASeparatingNormal) {
    const std::array<Vec2, 5> pa{Vec2{0x1.2cec3cp-1f, -0x1.040d64p+4f},
                                 Vec2{0x1.7c2132p-1f, -0x1.05826ap+4f},
                                 Vec2{0x1.1e7254p+0f, -0x1.059428p+4f},
                                 Vec2{0x1.0be74ep+0f, -0x1.033b2p+4f},
                                 Vec2{0x1.cb063cp-1f, -0x1.02815cp+4f}};
    const std::array<Vec2, 3> pb{Vec2{0x1.51265cp+0f, 0x1.c532b6p+2f},
                                 Vec2{0x1.8654e8p+0f, 0x1.dc8a14p+2f},
                                 Vec2{0x1.5c0576p+0f, 0x1.d8cdaep+2f}};
    const Polygon a = make_polygon(pa).value();
    const Polygon b = make_polygon(pb).value();
    const Transform xfa{{0x1.6ea49cp+2f, 0x1.2884e2p+3f}, {0x1.ee5fc4p-1f, -0x1.0a5ecap-2f}};
    const Transform xfb{{0x1.3a5838p+3f, -0x1.5e533cp+2f}, {-0x1.49f698p-2f, 0x1.e4b0dp-1f}};
    const Manifold m = collide(Shape(a), xfa, Shape(b), xfb);
    ASSERT_GE(m.count, 1);
    // The gap between them along the normal (double): B's least extent
    // minus A's greatest.
    const auto extent = [&](const Polygon& p, const Transform& xf, bool least) {
        double e = least ? 1e30 : -1e30;
        for (int i = 0; i < p.count; ++i) {
            const Vec2 v = transform_point(xf, p.vertices[i]);
            const double along = double(m.normal.x) * v.x + double(m.normal.y) * v.y;
            e = least ? std::min(e, along) : std::max(e, along);
        }
        return e;
    };
    EXPECT_NEAR(extent(b, xfb, true) - extent(a, xfa, false), 0, 1e-5);
    for (int i = 0; i < m.count; ++i) {
        EXPECT_NEAR(m.points[i].separation, 0, 1e-5);
    }
}

TEST(CollidePolygonCircle, CircleOnTheFace) {
    // Box [-1,1]^2, circle r = 0.5 at (0.3, 1.4): 0.1 into the top face.
    // Surface points (0.3, 1) and (0.3, 0.9); midway (0.3, 0.95).
    const Manifold m = collide_polygon_circle(box(1, 1), k_identity, Circle{{0, 0}, real(0.5)},
                                              at(real(0.3), real(1.4)));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 0, 1);
    EXPECT_NEAR(m.points[0].separation, -0.1, k_eps);
    expect_vec_near(m.points[0].point, 0.3, 0.95);
    expect_vec_near(m.points[0].anchor_a, 0.3, 1);
    expect_vec_near(m.points[0].anchor_b, 0, -0.5);
}

TEST(CollidePolygonCircle, CircleInTheVertexRegion) {
    // Circle r = 0.6 at (1.3, 1.4), beyond the corner (1, 1): the centre is
    // (0.3, 0.4) from it, length 0.5, so separation 0.5 - 0.6 = -0.1 along
    // (0.6, 0.8). Surface points (1, 1) and (1.3, 1.4) - 0.6 (0.6, 0.8) =
    // (0.94, 0.92); midway (0.97, 0.96).
    const Manifold m = collide_polygon_circle(box(1, 1), k_identity, Circle{{0, 0}, real(0.6)},
                                              at(real(1.3), real(1.4)));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 0.6, 0.8);
    EXPECT_NEAR(m.points[0].separation, -0.1, k_eps);
    expect_vec_near(m.points[0].point, 0.97, 0.96);
    expect_vec_near(m.points[0].anchor_a, 1, 1);
}

TEST(CollidePolygonCircle, VertexRegionUsesTheDistanceToTheCornerForTheSpeculativeTest) {
    // Centre (1.3, 1.4) again, radius 0.5 - 0.9 * 0.02 (gap 0.018: kept) and
    // 0.5 - 1.1 * 0.02 (gap 0.022: dropped), although the face separation
    // 0.4 - r would pass both times.
    const real spec = k_speculative_distance;
    const Manifold near =
        collide_polygon_circle(box(1, 1), k_identity, Circle{{0, 0}, real(0.5) - real(0.9) * spec},
                               at(real(1.3), real(1.4)));
    ASSERT_EQ(near.count, 1);
    EXPECT_NEAR(near.points[0].separation, 0.9 * spec, k_eps);
    const Manifold far =
        collide_polygon_circle(box(1, 1), k_identity, Circle{{0, 0}, real(0.5) - real(1.1) * spec},
                               at(real(1.3), real(1.4)));
    EXPECT_EQ(far.count, 0);
}

TEST(CollidePolygonCircle, CentreInsideTakesTheFaceOfLeastPenetration) {
    // Box [-2,2] x [-1,1], circle r = 0.25 at (1.5, 0.2): the centre is 0.5
    // inside the right face, 0.8 inside the top, 1.2 the bottom, 3.5 the left.
    // Normal +x; separation -0.5 - 0.25 = -0.75; surface points (2, 0.2) and
    // (1.25, 0.2), midway (1.625, 0.2).
    const Manifold m = collide_polygon_circle(box(2, 1), k_identity, Circle{{0, 0}, real(0.25)},
                                              at(real(1.5), real(0.2)));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 1, 0);
    EXPECT_NEAR(m.points[0].separation, -0.75, k_eps);
    expect_vec_near(m.points[0].point, 1.625, 0.2);
}

TEST(CollidePolygonCircle, SpeculativeGapOverTheFace) {
    const real spec = k_speculative_distance;
    const Manifold near = collide_polygon_circle(box(1, 1), k_identity, Circle{{0, 0}, real(0.5)},
                                                 at(0, real(1.5) + real(0.9) * spec));
    ASSERT_EQ(near.count, 1);
    EXPECT_NEAR(near.points[0].separation, 0.9 * spec, k_eps);
    EXPECT_EQ(collide_polygon_circle(box(1, 1), k_identity, Circle{{0, 0}, real(0.5)},
                                     at(0, real(1.5) + real(1.1) * spec))
                  .count,
              0);
}

TEST(CollidePolygonCircle, CollinearFacesMeasureTheCircleFromTheFaceOverIt) {
    // A fuzzed pentagon (fuzz_geometry) whose bottom is two faces on y = 0
    // within rounding: 0.33 L long, then 95.9 L. The circle's centre
    // (89.8, -3.25) lies under the long face, so its separation is
    // 3.25 - r = -42.9296875 along (0, -1). The two faces tie on the
    // centre's separation, and the short face, first, used to win: the
    // centre lay beyond its end, 89 L from that corner, and there was no
    // contact at all. (make_polygon now drops the vertex between the two
    // faces, 1e-27 L off their line; the pentagon is built as the fuzzer's
    // make_polygon made it.)
    const std::vector<Vec2> points{{real(-5.8203125), real(3.6262207)},
                                   {real(0.0463924482), real(6.46397556e-27)},
                                   {real(0.375488281), 0},
                                   {real(96.2265625), real(2.40741243e-35)},
                                   {real(46.1796875), real(46.1796875)}};
    const Polygon pentagon = polygon_as_given(points);
    ASSERT_EQ(make_polygon(points).value().count, 4);
    const Manifold m = collide_polygon_circle(pentagon, k_identity,
                                              Circle{{0, 0}, real(46.1796875)},
                                              at(real(89.8), real(-3.25)));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 0, -1);
    EXPECT_NEAR(m.points[0].separation, -42.9296875, 1e-4);
    // Midway between (89.8, 0) on the face and (89.8, -3.25 + r) on the circle.
    expect_vec_near(m.points[0].point, 89.8, 0.5 * (46.1796875 - 3.25), 1e-4);
}

TEST(CollideCircles, OverlapAlongTheCentreLine) {
    // r = 1 at the origin and r = 0.5 at (0.84, 1.12): centres 1.4 apart
    // along (0.6, 0.8), separation 1.4 - 1.5 = -0.1. Surface points
    // (0.6, 0.8) and (0.84, 1.12) - 0.5 (0.6, 0.8) = (0.54, 0.72).
    const Manifold m = collide_circles(Circle{{0, 0}, 1}, k_identity, Circle{{0, 0}, real(0.5)},
                                       at(real(0.84), real(1.12)));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 0.6, 0.8);
    EXPECT_NEAR(m.points[0].separation, -0.1, k_eps);
    expect_vec_near(m.points[0].point, 0.57, 0.76);
}

TEST(CollideCircles, ConcentricCirclesGetTheUpNormal) {
    // No centre line: the normal is +y by convention; separation -(1 + 0.5).
    const Manifold m =
        collide_circles(Circle{{0, 0}, 1}, at(3, 4), Circle{{0, 0}, real(0.5)}, at(3, 4));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 0, 1);
    EXPECT_NEAR(m.points[0].separation, -1.5, k_eps);
}

TEST(CollideCircles, SpeculativeDistanceBoundary) {
    const real spec = k_speculative_distance;
    EXPECT_EQ(collide_circles(Circle{{0, 0}, 1}, k_identity, Circle{{0, 0}, 1},
                              at(2 + real(0.9) * spec, 0))
                  .count,
              1);
    EXPECT_EQ(collide_circles(Circle{{0, 0}, 1}, k_identity, Circle{{0, 0}, 1},
                              at(2 + real(1.1) * spec, 0))
                  .count,
              0);
}

TEST(CollideCircles, AnchorsLieOnTheSurfacesFarFromTheOrigin) {
    // 1e6 L out, where world coordinates round to 0.0625 L: each anchor lies
    // on its circle, along the normal seen from its own body, to the
    // circle's own precision (a world point carried back into the body's
    // frame was 0.016 L off its surface), and the separation is the
    // distance between the centres where the world has them, less the radii.
    const Circle a{{real(0.25), real(-0.5)}, 1};
    const Circle b{{real(-0.125), real(0.375)}, real(0.5)};
    const Transform xfa = at(real(1e6), real(-1e6), real(0.3));
    const Rot qb = Rot::from_angle(real(-1.1));
    const Vec2 cb = transform_point(xfa, a.center) + Vec2{real(0.84), real(1.12)};
    const Transform xfb{cb - rotate(qb, b.center), qb};
    const Manifold m = collide_circles(a, xfa, b, xfb);
    ASSERT_EQ(m.count, 1);
    const ManifoldPoint& p = m.points[0];
    const Vec2 out_a = rotate(xfa.q, p.anchor_a - a.center);
    const Vec2 in_b = rotate(xfb.q, b.center - p.anchor_b);
    expect_vec_near(out_a, a.radius * m.normal.x, a.radius * m.normal.y);
    expect_vec_near(in_b, b.radius * m.normal.x, b.radius * m.normal.y);
    const real centres = distance(transform_point(xfa, a.center), transform_point(xfb, b.center));
    EXPECT_NEAR(p.separation, centres - a.radius - b.radius, k_eps);
}

TEST(Collide, SwappingCircleAndBoxFlipsTheNormalOnly) {
    // collide(box, circle) has normal +y (box to circle); collide(circle, box)
    // must give -y, the same separation and point, and swapped anchors.
    const Shape b = box(1, 1);
    const Shape c = Circle{{0, 0}, real(0.5)};
    const Transform xf_box = at(real(0.2), real(-0.1), real(0.1));
    const Transform xf_circle = at(real(0.4), real(1.3));
    const Manifold ab = collide(b, xf_box, c, xf_circle);
    const Manifold ba = collide(c, xf_circle, b, xf_box);
    ASSERT_EQ(ab.count, 1);
    ASSERT_EQ(ba.count, 1);
    expect_vec_near(ba.normal, -ab.normal.x, -ab.normal.y);
    EXPECT_NEAR(ba.points[0].separation, ab.points[0].separation, k_eps);
    expect_vec_near(ba.points[0].point, ab.points[0].point.x, ab.points[0].point.y);
    expect_vec_near(ba.points[0].anchor_a, ab.points[0].anchor_b.x, ab.points[0].anchor_b.y);
    expect_vec_near(ba.points[0].anchor_b, ab.points[0].anchor_a.x, ab.points[0].anchor_a.y);
    EXPECT_TRUE(ba.reference_is_b);
    // The box's face normal +y turned by 0.1 rad: (-sin 0.1, cos 0.1).
    expect_vec_near(ab.normal, -std::sin(0.1), std::cos(0.1));
}

TEST(Collide, DispatchesEachPairLikeTheTypedFunctions) {
    const Shape b = box(1, 1);
    const Shape c = Circle{{0, 0}, real(0.5)};
    EXPECT_EQ(collide(c, k_identity, c, at(real(0.9), 0)).count, 1);
    EXPECT_NEAR(collide(c, k_identity, c, at(real(0.9), 0)).points[0].separation, -0.1, k_eps);
    EXPECT_EQ(collide(b, k_identity, b, at(real(1.99), 0)).count, 2);
    EXPECT_NEAR(collide(b, k_identity, b, at(real(1.99), 0)).points[0].separation, -0.01, k_eps);
}

// The ground as a segment from (-2, 0) to (2, 0), and a unit box 0.01 into it
// from above (centre y = 0.49) or from below (centre y = -0.49).
const Shape k_segment = Segment{{-2, 0}, {2, 0}};

TEST(Collide, SegmentCollidesOnBothSides) {
    // From above: the segment's upward face is the reference (the box's bottom
    // face ties, and A's face is preferred); its bottom edge x in [-0.2, 0.8]
    // gives two points 0.01 deep, midway at y = -0.005.
    const Manifold above =
        collide(k_segment, k_identity, box(real(0.5), real(0.5)), at(real(0.3), real(0.49)));
    ASSERT_EQ(above.count, 2);
    expect_vec_near(above.normal, 0, 1);
    const auto p = by_x(above);
    expect_vec_near(p[0].point, -0.2, -0.005);
    expect_vec_near(p[1].point, 0.8, -0.005);
    EXPECT_NEAR(p[0].separation, -0.01, k_eps);
    EXPECT_NEAR(p[1].separation, -0.01, k_eps);
    // From below: the same contact mirrored.
    const Manifold below =
        collide(k_segment, k_identity, box(real(0.5), real(0.5)), at(real(0.3), real(-0.49)));
    ASSERT_EQ(below.count, 2);
    expect_vec_near(below.normal, 0, -1);
    EXPECT_NEAR(below.points[0].separation, -0.01, k_eps);
}

TEST(Collide, CircleAgainstASegmentEndMeetsTheEndPoint) {
    // Circle r = 0.5 at (2.3, 0.4): beyond the end (2, 0) by (0.3, 0.4),
    // length 0.5: just touching, along (0.6, 0.8).
    const Manifold m =
        collide(k_segment, k_identity, Circle{{0, 0}, real(0.5)}, at(real(2.3), real(0.4)));
    ASSERT_EQ(m.count, 1);
    expect_vec_near(m.normal, 0.6, 0.8);
    EXPECT_NEAR(m.points[0].separation, 0, k_eps);
}

TEST(Collide, ChainSegmentCollidesOnlyOnItsOuterSide) {
    // p1 = (2, 0) -> p2 = (-2, 0): outward normal right_perp((-4, 0)) = +y, the
    // top of a counter-clockwise loop around solid ground below it.
    const Shape chain = ChainSegment{{2, -1}, Segment{{2, 0}, {-2, 0}}, {-2, -1}};
    const Manifold outside =
        collide(chain, k_identity, box(real(0.5), real(0.5)), at(real(0.3), real(0.49)));
    ASSERT_EQ(outside.count, 2);
    expect_vec_near(outside.normal, 0, 1);
    // Inside the solid the chain bounds: no contact.
    EXPECT_EQ(
        collide(chain, k_identity, box(real(0.5), real(0.5)), at(real(0.3), real(-0.49))).count, 0);
    // The same with the chain as B: the normal from the box (above) is -y.
    const Manifold swapped =
        collide(box(real(0.5), real(0.5)), at(real(0.3), real(0.49)), chain, k_identity);
    ASSERT_EQ(swapped.count, 2);
    expect_vec_near(swapped.normal, 0, -1);
    EXPECT_EQ(
        collide(box(real(0.5), real(0.5)), at(real(0.3), real(-0.49)), chain, k_identity).count, 0);
    // A circle too.
    EXPECT_EQ(collide(chain, k_identity, Circle{{0, 0}, real(0.5)}, at(0, real(0.49))).count, 1);
    EXPECT_EQ(collide(chain, k_identity, Circle{{0, 0}, real(0.5)}, at(0, real(-0.49))).count, 0);
}

TEST(Collide, TwoEdgesNeverCollide) {
    // Edges are static geometry.
    const Shape crossing = Segment{{0, -1}, {0, 1}};
    EXPECT_EQ(collide(k_segment, k_identity, crossing, k_identity).count, 0);
    const Shape chain = ChainSegment{{2, -1}, Segment{{2, 0}, {-2, 0}}, {-2, -1}};
    EXPECT_EQ(collide(chain, k_identity, crossing, k_identity).count, 0);
}

} // namespace
} // namespace sweep
