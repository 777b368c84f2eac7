// The chain convention of docs/conventions.md: a counter-clockwise loop
// encloses solid ground and its segments collide only on the outside.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/mtv.hpp"
#include "sweep/shapes.hpp"

namespace sweep {
namespace {

// A 4 x 1 block of ground, counter-clockwise: bottom, right, top, left.
const std::array<Vec2, 4> k_ground{{{0, 0}, {4, 0}, {4, 1}, {0, 1}}};

TEST(Chain, CounterClockwiseLoopNormalsPointAwayFromTheSolid) {
    const auto chain = make_chain_loop(k_ground).value();
    ASSERT_EQ(chain.size(), 4u);
    const Vec2 inside{2, 0.5f};
    // Hand values: right_perp of each edge direction.
    const std::array<Vec2, 4> expected{{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}};
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const Vec2 n = outward_normal(chain[i]);
        EXPECT_NEAR(n.x, expected[i].x, 1e-6f);
        EXPECT_NEAR(n.y, expected[i].y, 1e-6f);
        const Vec2 mid = lerp(chain[i].segment.p1, chain[i].segment.p2, 0.5f);
        EXPECT_GT(dot(n, mid - inside), 0) << "segment " << i;
    }
}

TEST(Chain, GhostVerticesAreTheNeighbouringPoints) {
    const auto chain = make_chain_loop(k_ground).value();
    // Segment 2 runs (4,1) -> (0,1); before it comes (4,0), after it (0,0).
    EXPECT_EQ(chain[2].ghost1, (Vec2{4, 0}));
    EXPECT_EQ(chain[2].ghost2, (Vec2{0, 0}));
    EXPECT_EQ(chain[0].ghost1, (Vec2{0, 1}));
}

TEST(Chain, RejectsDegenerateLoops) {
    const std::array<Vec2, 2> two{{{0, 0}, {1, 0}}};
    EXPECT_EQ(make_chain_loop(two).error().code, ErrorCode::degenerate_shape);
    const std::array<Vec2, 3> repeated{{{0, 0}, {0, 0}, {1, 1}}};
    EXPECT_EQ(make_chain_loop(repeated).error().code, ErrorCode::degenerate_shape);
    const std::array<Vec2, 3> nan{{{0, 0}, {std::nanf(""), 0}, {1, 1}}};
    EXPECT_EQ(make_chain_loop(nan).error().code, ErrorCode::invalid_input);
}

TEST(Chain, CircleOnTopOfGroundTouchesTheTopSegment) {
    const auto chain = make_chain_loop(k_ground).value();
    // Circle of radius 0.5 centred at (2, 1.4): 0.1 below contact -> -0.1.
    const Manifold m =
        collide(Shape(chain[2]), k_identity, Shape(Circle{{2, 1.4f}, 0.5f}), k_identity);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.normal.y, 1, 1e-6f);
    EXPECT_NEAR(m.points[0].separation, -0.1f, 1e-5f);
}

TEST(Chain, ShapesInsideTheSolidGetNoContactFromTheOneSidedSegment) {
    const auto chain = make_chain_loop(k_ground).value();
    // The circle's centre is inside the ground, below the top segment: the
    // top segment's contact would push it down into the solid, so none.
    const Manifold m =
        collide(Shape(chain[2]), k_identity, Shape(Circle{{2, 0.7f}, 0.5f}), k_identity);
    EXPECT_EQ(m.count, 0);
    // Argument order does not matter.
    EXPECT_EQ(
        collide(Shape(Circle{{2, 0.7f}, 0.5f}), k_identity, Shape(chain[2]), k_identity).count, 0);
}

TEST(Chain, TwoSidedSegmentCollidesFromBothSides) {
    const Segment wall = make_segment({0, 0}, {4, 0}).value();
    const Manifold above =
        collide(Shape(wall), k_identity, Shape(Circle{{2, 0.4f}, 0.5f}), k_identity);
    const Manifold below =
        collide(Shape(wall), k_identity, Shape(Circle{{2, -0.4f}, 0.5f}), k_identity);
    ASSERT_EQ(above.count, 1);
    ASSERT_EQ(below.count, 1);
    EXPECT_NEAR(above.normal.y, 1, 1e-6f);
    EXPECT_NEAR(below.normal.y, -1, 1e-6f);
    EXPECT_NEAR(below.points[0].separation, -0.1f, 1e-5f);
}

TEST(Chain, BoxRestingOnTopSegmentHasTwoPoints) {
    const auto chain = make_chain_loop(k_ground).value();
    const Polygon box = make_box(0.5f, 0.5f).value();
    // Box bottom at y = 1 - 0.002: both bottom corners 0.002 deep.
    const Transform xf{{2, 1.498f}, {}};
    const Manifold m = collide(Shape(chain[2]), k_identity, Shape(box), xf);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(m.normal.y, 1, 1e-6f);
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(m.points[i].separation, -0.002f, 1e-5f);
        EXPECT_NEAR(std::abs(m.points[i].point.x - 2), 0.5f, 1e-5f);
    }
}

// A box above the top segment (its neighbours both convex corners) gets a
// point for each bottom corner within the speculative distance (0.02 L) of
// the face, with that gap as its separation, and none for a corner beyond:
// level 0.015 L above, both corners; 0.025 L above, nothing; tilted by
// 0.02 rad with its lower corner 0.005 L above, that corner alone (the
// other is 0.005 + sin(0.02) = 0.025 L above).
TEST(Chain, ABoxAboveTheTopSegmentGetsPointsOnlyWithinTheSpeculativeDistance) {
    const auto chain = make_chain_loop(k_ground).value();
    const Polygon box = make_box(0.5f, 0.5f).value();
    const Manifold near = collide(Shape(chain[2]), k_identity, Shape(box), {{2, 1.515f}, {}});
    ASSERT_EQ(near.count, 2);
    EXPECT_NEAR(near.normal.y, 1, 1e-6f);
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(near.points[i].separation, 0.015f, 1e-5f);
        EXPECT_NEAR(std::abs(near.points[i].point.x - 2), 0.5f, 1e-5f);
    }
    EXPECT_EQ(collide(Shape(chain[2]), k_identity, Shape(box), {{2, 1.525f}, {}}).count, 0);

    const real angle = 0.02f;
    const real c = std::cos(angle);
    const real s = std::sin(angle);
    const Transform tilted{{2, 1.005f + 0.5f * (c + s)}, Rot::from_angle(angle)};
    const Manifold one = collide(Shape(chain[2]), k_identity, Shape(box), tilted);
    ASSERT_EQ(one.count, 1);
    EXPECT_NEAR(one.normal.y, 1, 1e-6f);
    EXPECT_NEAR(one.points[0].separation, 0.005f, 1e-5f);
    // The lower corner, the box's (-0.5, -0.5) turned counter-clockwise.
    EXPECT_NEAR(one.points[0].point.x, 2 - 0.5f * c + 0.5f * s, 1e-5f);
}

// Seam-free chains: the ghost vertices keep contact normals on the faces.

// A block whose top is two collinear segments meeting at (2, 1), the seam:
// chain[2] = (4, 1) -> (2, 1) and chain[3] = (2, 1) -> (0, 1), both facing +y.
const std::array<Vec2, 5> k_seamed{{{0, 0}, {4, 0}, {4, 1}, {2, 1}, {0, 1}}};

/// The shapes that slide across seams and around corners: a box, a circle,
/// and a capsule lying flat, each with its half height.
struct Slider {
    const char* name;
    Shape shape;
    real half_height;
};

std::array<Slider, 3> sliders() {
    return {{{"box", make_box(0.5f, 0.5f).value(), 0.5f},
             {"circle", Circle{{0, 0}, 0.5f}, 0.5f},
             {"capsule", make_capsule({-0.5f, 0}, {0.5f, 0}, 0.25f).value(), 0.25f}}};
}

/// Calls f(normal, manifold) for every contact of `shape` at xf with the
/// chain segments (chain first, then swapped, whose normal is negated back).
template <class F>
int for_each_contact(std::span<const ChainSegment> segments, const Shape& shape,
                     const Transform& xf, F f) {
    int contacts = 0;
    for (const ChainSegment& segment : segments) {
        const Manifold m = collide(Shape(segment), k_identity, shape, xf);
        const Manifold swapped = collide(shape, xf, Shape(segment), k_identity);
        EXPECT_EQ(m.count, swapped.count);
        if (m.count > 0) {
            ++contacts;
            f(m.normal, m);
            EXPECT_NEAR(swapped.normal.x, -m.normal.x, 1e-6f);
            EXPECT_NEAR(swapped.normal.y, -m.normal.y, 1e-6f);
        }
    }
    return contacts;
}

TEST(Chain, ShapesSlidingAcrossAFlatSeamGetOnlyTheFaceNormal) {
    const auto chain = make_chain_loop(k_seamed).value();
    const std::array<ChainSegment, 2> top{chain[2], chain[3]};
    for (const Slider& slider : sliders()) {
        // Level and tilted by 0.02 rad either way; the lowest point 0.002
        // below the top, the centre from x = 1 to 3 across the seam.
        for (const real angle : {0.0f, 0.02f, -0.02f}) {
            const Transform turned{{0, 0}, Rot::from_angle(angle)};
            const real low = compute_aabb(slider.shape, turned).lower.y;
            for (int i = 0; i <= 400; ++i) {
                const real x = 1 + 0.005f * real(i);
                const Transform xf{{x, 1 - 0.002f - low}, turned.q};
                SCOPED_TRACE(std::string(slider.name) + " at x = " + std::to_string(x) +
                             ", angle " + std::to_string(angle));
                real deepest = 0;
                const int contacts =
                    for_each_contact(top, slider.shape, xf, [&](Vec2 n, const Manifold& m) {
                        EXPECT_NEAR(n.x, 0, 1e-6f) << "a sideways normal at the seam";
                        EXPECT_NEAR(n.y, 1, 1e-6f);
                        for (int k = 0; k < m.count; ++k) {
                            deepest = std::min(deepest, m.points[k].separation);
                        }
                    });
                EXPECT_GE(contacts, 1) << "nothing holds it up";
                // (A tilted capsule's two-point manifold puts B's points along
                // B's own side normal: r (1 - cos 0.02) = 5e-5 shallower.)
                EXPECT_NEAR(deepest, -0.002f, 1e-4f);
            }
        }
    }
}

TEST(Chain, AtAConvexCornerVertexNormalsStayInTheCornersCone) {
    // The ground block's top-left corner (0, 1): the top (4, 1) -> (0, 1)
    // faces +y, the left side (0, 1) -> (0, 0) faces -x; the ghost of the top
    // turns down there, so the corner is convex and its normals fill the
    // quarter from +y to -x.
    const auto chain = make_chain_loop(k_ground).value();
    const std::array<ChainSegment, 2> corner{chain[2], chain[3]};
    const Vec2 vertex{0, 1};
    // A circle rolling around the corner, 0.001 deep: its normal is the
    // direction from the corner to its centre, +y to -x and beyond.
    const Circle circle{{0, 0}, 0.5f};
    for (int i = 0; i <= 36; ++i) {
        const real phi = 1.5707963f + 0.0436332f * real(i); // 90 to 180 degrees
        const Vec2 dir{std::cos(phi), std::sin(phi)};
        const Transform xf{vertex + 0.499f * dir, {}};
        SCOPED_TRACE("circle at " + std::to_string(phi) + " rad");
        bool vertex_normal = false;
        const int contacts = for_each_contact(corner, circle, xf, [&](Vec2 n, const Manifold&) {
            EXPECT_LE(n.x, 1e-6f);
            EXPECT_GE(n.y, -1e-6f);
            vertex_normal = vertex_normal || length(n - dir) < 1e-4f;
        });
        EXPECT_GE(contacts, 1);
        EXPECT_TRUE(vertex_normal);
    }
    // Shapes sliding off the ledge to the left, 0.002 deep: every normal in the cone.
    for (const Slider& slider : sliders()) {
        for (int i = 0; i <= 200; ++i) {
            const real x = 1 - 0.0075f * real(i); // to x = -0.5, hanging over
            const Transform xf{{x, 1 - 0.002f + slider.half_height}, {}};
            SCOPED_TRACE(std::string(slider.name) + " at x = " + std::to_string(x));
            for_each_contact(corner, slider.shape, xf, [&](Vec2 n, const Manifold&) {
                EXPECT_LE(n.x, 1e-6f);
                EXPECT_GE(n.y, -1e-6f);
            });
        }
    }
}

// A thin box standing beside a sharp convex ledge (a counter-clockwise
// quadrilateral's bottom-left vertex), its side a few thousandths into the
// tip: the block's solid overlaps it by the MTV of the box and the block
// as polygons (found by polygon SAT, not by the chain code). No segment's
// contact may be deeper than that, the far segment's least of all: its
// two-sided axis (the box's side normal) lies in the near segment's half of
// the vertex cone, and its line runs 0.18 L into the box. Seed 60333 of
// the random scenes got that 0.18 L contact and popped the box down.
TEST(Chain, ABoxBesideTheTipOfASharpLedgeGetsNoDeeperContactThanItsOverlap) {
    const std::vector<Vec2> block{{-3.4292f, -1.9566f}, {-3.7696f, -2.7956f},
                                  {-2.0738f, -2.5827f}, {-2.2690f, -2.1024f}};
    const auto chain = make_chain_loop(block).value();
    const Polygon box = make_box(0.4404f, 0.0845f).value();
    const Polygon solid = make_polygon(block).value();
    const Transform xf{{-3.86715f, -3.04934f}, Rot::from_angle(1.50865f)};
    const Mtv overlap = mtv_polygons(box, xf, solid, k_identity);
    ASSERT_LT(overlap.separation, 0); // the tip is inside the box
    const int contacts = for_each_contact(chain, Shape(box), xf, [&](Vec2, const Manifold& m) {
        for (int i = 0; i < m.count; ++i) {
            EXPECT_GE(m.points[i].separation, overlap.separation - 1e-4f);
        }
    });
    EXPECT_GE(contacts, 1);
}

// A box lying on a chain face, a hair above it (1.5e-5 L), hangs past the
// convex corner where the next segment turns down. That segment's two-sided
// contact takes the face it hangs over (its end vertex against the box's
// bottom, separation 0 after rounding) and the box's centroid is behind the
// segment's line, so the segment asks whether its own face separates the
// box most. The neighbour's face does, and lies 1.5e-5 L from the box: it
// counted as out of reach at a speculative distance of 0, and the segment
// answered with its own face 0.63 L deep. Found by seed 417601 of the random
// scenes (30 Hz), whose referee collides with no speculative distance;
// the exact values matter, not their rounded forms.
TEST(Chain, ABoxAHairAboveAFaceAndPastItsConvexCornerIsNotDeepInTheNextSegment) {
    ChainSegment next;
    next.ghost1 = {real(0.661160767), real(-3.41842365)};
    next.segment = make_segment({real(-0.267774463), real(-3.67895722)},
                                {real(0.0441041589), real(-4.45704317)})
                       .value();
    next.ghost2 = {real(0.466356695), real(-4.85676241)};
    const Shape box = make_box(real(0.351011246), real(0.104404174)).value();
    const Transform xf{{real(-0.0263428427), real(-3.50281143)},
                       {real(-0.962847769), real(-0.270044804)}};
    const Manifold m = collide(box, xf, Shape(next), k_identity, {0, k_linear_slop});
    for (int i = 0; i < m.count; ++i) {
        EXPECT_GE(m.points[i].separation, -k_linear_slop);
    }
}

// A small triangle lies a hair (about 1e-4 L) above a ledge's side face,
// one corner reaching round the ledge's convex corner behind the top
// face's line. The top segment's two-sided contact takes the side face's
// normal (the triangle's edge lies along it), past it by rounding, and the
// side segment is out of reach at no speculative distance: the top segment
// answered with its own face 0.041 L deep, how far the triangle reaches
// behind its line. Seed 445841 of the random scenes (one-step solve).
TEST(Chain, ASmallTriangleAHairAboveALedgesSideIsNotDeepInItsTop) {
    ChainSegment top;
    top.ghost1 = {real(-2.50791287), real(3.54496145)};
    top.segment =
        make_segment({real(-3.75607276), real(1.69901681)}, {real(-2.36722994), real(1.21747172)})
            .value();
    top.ghost2 = {real(-1.92021251), real(2.19522381)};
    const std::array<Vec2, 3> corners{{{real(-0.0648080632), real(0.0137245907)},
                                       {real(-0.021696182), real(-0.0452547073)},
                                       {real(0.0475329049), real(0.0049402928)}}};
    const Shape triangle = make_polygon(corners).value();
    const Transform xf{{real(-3.77616978), real(1.68470299)},
                       {real(-0.493852109), real(-0.869545937)}};
    const Manifold m = collide(Shape(top), k_identity, triangle, xf, {0, k_linear_slop});
    for (int i = 0; i < m.count; ++i) {
        EXPECT_GE(m.points[i].separation, -k_linear_slop);
    }
}

TEST(Chain, AtAConcaveCornerNormalsStayBetweenTheTwoFaces) {
    // An L of ground, counter-clockwise: the step (8, 1) -> (2, 1) faces +y
    // and the wall (2, 1) -> (2, 5) faces +x; they meet concave at (2, 1).
    // Their other ends are convex corners, out of the shapes' reach here.
    const std::array<Vec2, 6> l_shape{{{0, 0}, {8, 0}, {8, 1}, {2, 1}, {2, 5}, {0, 5}}};
    const auto chain = make_chain_loop(l_shape).value();
    const std::array<ChainSegment, 2> corner{chain[2], chain[3]};
    EXPECT_EQ(outward_normal(corner[0]), (Vec2{0, 1}));
    EXPECT_EQ(outward_normal(corner[1]), (Vec2{1, 0}));
    // Shapes pushed into the corner at many poses: centres on a grid
    // near it, turned every way. Only the two faces' normals may appear.
    for (const Slider& slider : sliders()) {
        for (int i = 0; i <= 10; ++i) {
            for (int j = 0; j <= 10; ++j) {
                for (int k = 0; k < 8; ++k) {
                    const Transform xf{{2.3f + 0.05f * real(i), 1.3f + 0.05f * real(j)},
                                       Rot::from_angle(0.39f * real(k))};
                    SCOPED_TRACE(std::string(slider.name) + " at " + std::to_string(i) + "," +
                                 std::to_string(j) + "," + std::to_string(k));
                    for_each_contact(corner, slider.shape, xf, [&](Vec2 n, const Manifold&) {
                        // (To rounding: a capsule's normal from its closest points.)
                        const bool face =
                            length(n - Vec2{0, 1}) < 2e-5f || length(n - Vec2{1, 0}) < 2e-5f;
                        EXPECT_TRUE(face) << "normal (" << n.x << ", " << n.y << ")";
                    });
                }
            }
        }
    }
}

TEST(Chain, AnOpenEndIsRoundedOnTheOuterSide) {
    // Ghosts on their vertices: no neighbours. A circle past the end p2 =
    // (-2, 0), level with the segment, touches the end with normal -x.
    const ChainSegment open{{2, 0}, Segment{{2, 0}, {-2, 0}}, {-2, 0}};
    const Manifold m = collide(Shape(open), k_identity, Circle{{-2.499f, 0.0f}, 0.5f}, k_identity);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.normal.x, -1, 1e-6f);
    // Below the line (behind): nothing.
    EXPECT_EQ(collide(Shape(open), k_identity, Circle{{-2.3f, -0.2f}, 0.5f}, k_identity).count, 0);
}

// Below a platform's open end (behind the line), its centroid past the end
// and the rest under the segment, a shape is on the side that does not
// collide: a box 0.0136 L below got a contact through the platform, 0.21 L
// deep, from its bottom face. Boxes, discs and capsules at centroids from
// over the segment to 0.19 L past the end.
TEST(Chain, AShapeBelowAPlatformsOpenEndGetsNoContactThroughIt) {
    const ChainSegment open{{0, 0}, Segment{{0, 0}, {-2, 0}}, {-2, 0}}; // outward +y
    const real gap = real(0.0136);
    const std::array<Shape, 3> shapes{Shape(make_box(0.2f, 0.1f).value()),
                                      Shape(Circle{{0, 0}, 0.1f}),
                                      Shape(make_capsule({-0.2f, 0}, {0.2f, 0}, 0.1f).value())};
    for (const Shape& shape : shapes) {
        for (const real x : {real(-0.1), real(-1e-7), real(0), real(1e-7), real(0.05), real(0.1),
                             real(0.19)}) {
            SCOPED_TRACE("type " + std::to_string(int(shape.type)) + " at x " + std::to_string(x));
            const Transform xf{{x, -gap - real(0.1)}, Rot{}};
            EXPECT_EQ(collide(Shape(open), k_identity, shape, xf).count, 0);
            EXPECT_EQ(collide(shape, xf, Shape(open), k_identity).count, 0);
        }
    }
}

// A box flush with both faces of a ledge (a loop's convex corner whose top
// segment ends at a flat seam), its corner a gap g above the ledge's corner
// and a hair h past it, at 200 rotations of the loop: its contact is the
// corner's, at its distance. The top segment's two-sided normal is its face
// normal turned a little by rounding; turned towards the seam, the contact
// was snapped to the face, where the clip to the segment left nothing, and
// the ledge's side left it to the top (at_convex_end in manifold.cpp): 30
// of 200 boxes had no contact at g = 1e-4. Closer still (g and h from 0 to
// 1e-5), the faces' clips leave nothing and GJK's direction is noise: the
// top's two-sided contact was its deepest vertex by rounding, the seam's end
// half a metre away, which the chain dropped (1 to 4 of 200 boxes had no
// contact; deepest_vertex_point).
TEST(Chain, ABoxAHairBeyondALedgeBesideAFlatSeamGetsTheCornersContact) {
    const std::array<Vec2, 5> ledge{{{0, 0}, {1, 0}, {1, 1}, {real(0.5), 1}, {0, 1}}};
    const std::vector<ChainSegment> chain = make_chain_loop(ledge).value();
    const Polygon box = make_box(0.2f, 0.1f).value();
    for (const double h : {0.0, 1e-7, 1e-6, 1e-5, 1e-3}) {
        for (const double g : {0.0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 5e-3, 1e-2, 1.5e-2}) {
            for (int r = 0; r < 200; ++r) {
                const Transform xfa{{real(0.37 * (r % 7)), real(-1.3 + 0.2 * (r % 5))},
                                    Rot::from_angle(real(0.1 + r * 0.0315))};
                const double lx = 1 + h + 0.2;
                const double ly = 1 + g + 0.1; // the box's centre, the loop's frame
                const Transform xfb{{real(xfa.q.c * lx - xfa.q.s * ly + xfa.p.x),
                                     real(xfa.q.s * lx + xfa.q.c * ly + xfa.p.y)},
                                    xfa.q};
                SCOPED_TRACE("h " + std::to_string(h) + ", g " + std::to_string(g) +
                             ", rotation " + std::to_string(r));
                double least = 1;
                for (const ChainSegment& segment : chain) {
                    const Manifold m = collide(Shape(segment), xfa, Shape(box), xfb);
                    for (int i = 0; i < m.count; ++i) {
                        least = std::min(least, double(m.points[i].separation));
                    }
                }
                EXPECT_NEAR(least, std::hypot(g, h), 1e-4);
            }
        }
    }
}

// A shape whose nearest point lies a gap g off a ledge's convex corner, in
// the corner's cone (the ground block's top-right corner (4, 1)), at 19
// directions and 200 rotations: it gets a contact, its normal in the cone,
// at about its distance (a face's contact clipped to the face's extent is
// measured where the clip put it, as Box2D's below a tenth of the slop). Beyond both faces'
// extents, the two-sided axes are the shape's own faces, and at g = 1e-6 a triangle's tip had sides
// leaning out of the cone by rounding: neither segment gave a contact (9 of 3,800; vertex_contact
// in manifold.cpp).
TEST(Chain, AShapeAHairOffALedgesCornerInItsConeGetsAContact) {
    const auto chain = make_chain_loop(k_ground).value();
    const std::array<ChainSegment, 2> corner{chain[1], chain[2]}; // right side, top
    const Vec2 vertex{4, 1};
    const std::array<Vec2, 3> tip{{{0, 0}, {1, 0.1f}, {0.2f, 0.7f}}};
    const std::array<Shape, 3> shapes{Shape(make_box(0.5f, 0.25f).value()),
                                      Shape(make_polygon(tip).value()),
                                      Shape(make_capsule({-0.5f, 0}, {0.5f, 0}, 0.2f).value())};
    int placements = 0;
    for (const Shape& shape : shapes) {
        const ShapeProxy proxy = make_proxy(shape);
        for (const double g : {0.0, 1e-7, 1e-6, 1e-5, 1e-4}) {
            for (int d = 0; d <= 18; ++d) {
                const double angle = 1.5707963267948966 * d / 18;
                const Vec2 u{real(std::cos(angle)), real(std::sin(angle))};
                for (int r = 0; r < 200; ++r) {
                    // Turned by r, then placed with its support point along -u at vertex + g u.
                    Transform xf{{}, Rot::from_angle(real(6.283185307179586 * r / 200))};
                    Vec2 nearest = transform_point(xf, proxy.points[0]) - proxy.radius * u;
                    for (int i = 1; i < proxy.count; ++i) {
                        const Vec2 p = transform_point(xf, proxy.points[i]) - proxy.radius * u;
                        nearest = dot(u, p) < dot(u, nearest) ? p : nearest;
                    }
                    xf.p = vertex + real(g) * u - nearest;
                    SCOPED_TRACE(testing::Message()
                                 << "shape " << static_cast<int>(shape.type) << ", g " << g
                                 << ", direction " << d << ", rotation " << r);
                    double least = 1;
                    const int contacts =
                        for_each_contact(corner, shape, xf, [&](Vec2 n, const Manifold& m) {
                            EXPECT_GE(n.x, -1e-6f);
                            EXPECT_GE(n.y, -1e-6f);
                            for (int i = 0; i < m.count; ++i) {
                                least = std::min(least, double(m.points[i].separation));
                            }
                        });
                    EXPECT_GE(contacts, 1);
                    // Never overlapping; above the gap by less than the
                    // slop (6.6e-4 L seen) where a face's clip takes its
                    // point down the other's edge past the corner.
                    EXPECT_GE(least, -1e-6);
                    EXPECT_LE(least, g + k_linear_slop);
                    ++placements;
                }
            }
        }
    }
    EXPECT_EQ(placements, 3 * 5 * 19 * 200);
}

// A rounded box lying on a slope that runs from a ledge (p1, convex) down
// to a valley (p2, concave), its core reaching up to 0.1 L past the
// valley's joint (within its radius), resting or sunk up to 0.02 L, placed
// anywhere in the world: its contact with the slope is clipped at the joint
// (beyond it lies the valley floor's), whatever the rounding. The face
// normal leaned towards the ledge or the valley by rounding, and 5,593 of
// 20,000 placements got a point up to a radius past the joint: the point
// jumped as the box rested.
TEST(Chain, ABoxLyingOnASlopeAcrossAValleysJointGetsTheSameContactWhereverItIs) {
    const std::array<Vec2, 6> ground{
        {{-10, -5}, {10, -5}, {10, 0.3f}, {1, 0.3f}, {-1, 0}, {-10, 0}}};
    const auto chain = make_chain_loop(ground).value();
    const ChainSegment& slope = chain[3];
    const Vec2 p2 = slope.segment.p2; // the valley's joint
    const Vec2 up = normalize(slope.segment.p1 - p2);
    const Vec2 n = outward_normal(slope);
    const Polygon box = make_rounded_box(0.4f, 0.2f, 0.1f).value();
    const Rot along = Rot::from_angle(std::atan2(up.y, up.x));
    std::uint32_t state = 5;
    const auto uniform = [&state](real lo, real hi) {
        state = state * 1664525u + 1013904223u;
        return lo + (hi - lo) * static_cast<real>(state >> 8) / static_cast<real>(1u << 24);
    };
    int contacts = 0;
    for (int i = 0; i < 20000; ++i) {
        const real depth = uniform(-0.005f, 0.02f);
        const real reach_past = uniform(0, 0.1f); // of the core's end, past the joint
        const Vec2 offset{uniform(-4, 4), uniform(-4, 4)};
        const Vec2 center = p2 + (0.4f - reach_past) * up + (0.3f - depth) * n;
        const Manifold m = collide(Shape(slope), Transform{offset, Rot{}}, Shape(box),
                                   Transform{center + offset, along});
        ASSERT_GT(m.count, 0) << "placement " << i;
        ++contacts;
        EXPECT_NEAR(m.normal.x, n.x, 1e-5f);
        EXPECT_NEAR(m.normal.y, n.y, 1e-5f);
        for (int k = 0; k < m.count; ++k) {
            ASSERT_GE(dot(m.points[k].point - offset - p2, up), -1e-4f)
                << "placement " << i << ": a point past the joint";
        }
    }
    EXPECT_EQ(contacts, 20000);
}

// A capsule lying along a ledge's top, 0.2 to 0.25 L below its line (its
// skin clear of the top face), poking out through the ledge's steep side:
// it is 0.38 L or more inside the solid, and the side holds it, wherever
// the scene is. The side's two-sided contact has the top's normal, past the
// corner's cone or within it by the sign of a rounding error; past it, the
// contact was dropped as if the capsule lay against the top face, which
// does not reach it: 1,008 of 20,000 placements had no contact at all.
TEST(Chain, ACapsuleSunkUnderALedgesTopAndOutThroughItsSideIsHeldWhereverItIs) {
    const std::array<Vec2, 5> ledge{{{-4, -5}, {0.3f, -5}, {0.3f, -2.5f}, {0, 0}, {-4, 0}}};
    const auto chain = make_chain_loop(ledge).value();
    const Capsule capsule{{-0.5f, 0}, {0.5f, 0}, 0.18f};
    std::uint32_t state = 1;
    const auto uniform = [&state](real lo, real hi) {
        state = state * 1664525u + 1013904223u;
        return lo + (hi - lo) * static_cast<real>(state >> 8) / static_cast<real>(1u << 24);
    };
    for (int i = 0; i < 20000; ++i) {
        const Vec2 center{uniform(0.05f, 0.15f), uniform(-0.25f, -0.2f)};
        const Vec2 offset{uniform(-10, 10), uniform(-10, 10)};
        const Transform xf{center + offset, Rot::from_angle(uniform(-5e-7f, 5e-7f))};
        real deepest = std::numeric_limits<real>::max();
        for (const ChainSegment& segment : chain) {
            const Manifold m =
                collide(Shape(segment), Transform{offset, Rot{}}, Shape(capsule), xf);
            for (int k = 0; k < m.count; ++k) {
                deepest = std::min(deepest, m.points[k].separation);
            }
        }
        // At least as deep as the core lies below the top, plus the radius.
        ASSERT_LT(deepest, center.y - capsule.radius + 0.01f) << "placement " << i;
    }
}

TEST(Chain, AZeroLengthChainSegmentHasNoContact) {
    const ChainSegment point{{-1, 0}, Segment{{0, 0}, {0, 0}}, {1, 0}};
    EXPECT_EQ(collide(Shape(point), k_identity, Circle{{0, 0.3f}, 0.5f}, k_identity).count, 0);
    EXPECT_EQ(collide(make_box(0.5f, 0.5f).value(), k_identity, Shape(point), k_identity).count, 0);
}

// A circle whose centre is 2.6e-23 L beyond a chain segment's end, so that
// the segment's vertex faces it (fuzz_geometry's case, with its odd ghosts):
// the square of that distance is subnormal in float, and 1 / distance made
// a normal 0.707 long. The centre is that close to the vertex, so the
// separation is minus the radius.
TEST(Chain, ACircleCentreAHairFromAVertexGetsAUnitNormal) {
    const ChainSegment chain{{real(-1e-30), 0},
                             {{real(109.851562), real(0.49609375)}, {real(2.64699816e-23), 0}},
                             {real(4.13259733e-40), -39132}};
    const Manifold m = collide(Shape(Circle{{0, real(1.8881378e-37)}, real(3.5234375)}),
                               k_identity, Shape(chain), k_identity);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(length(m.normal), 1, 1e-6);
    EXPECT_NEAR(m.points[0].separation, -3.5234375, 1e-4);
}

} // namespace
} // namespace sweep
