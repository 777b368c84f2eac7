// World::move, collide-and-slide, against hand-derived positions and the
// seeds' scenarios (the crack problem, inner corners, the four responses).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "sweep/world.hpp"

namespace sweep {
namespace {

World make_world() { return std::move(World::make({}).value()); }

BodyId add_static_box(World& world, Vec2 center, real hx, real hy) {
    BodyDef def;
    def.position = center;
    const ShapeDef shape{make_box(hx, hy).value(), {}};
    return world.create_body(def, std::span(&shape, 1)).value();
}

BodyId add_character(World& world, Vec2 position, const Shape& shape) {
    BodyDef def;
    def.type = BodyType::kinematic;
    def.position = position;
    const ShapeDef sd{shape, {}};
    return world.create_body(def, std::span(&sd, 1)).value();
}

const Shape k_box = make_box(0.4f, 0.4f).value();

TEST(Move, FreeMotionGoesAllTheWay) {
    World world = make_world();
    const BodyId c = add_character(world, {0, 0}, k_box);
    const MoveResult r = world.move(c, {3, 4}).value();
    EXPECT_EQ(r.position, (Vec2{3, 4}));
    EXPECT_TRUE(r.contacts.empty());
    EXPECT_EQ(world.body_state(c).value().xf.p, (Vec2{3, 4}));
}

TEST(Move, BoxDroppedOnFloorTouchesItAndThenSlidesWithoutOverlap) {
    World world = make_world();
    const BodyId floor = add_static_box(world, {0, -0.5f}, 20, 0.5f); // top at y = 0
    const BodyId c = add_character(world, {0, 3}, k_box);
    const MoveResult drop = world.move(c, {0, -10}).value();
    // Bottom edge (y - 0.4) on the floor's top edge (y = 0).
    // Exactly: the box's half height above the floor's top, not a slop off.
    EXPECT_EQ(drop.position.y, real(0.4f));
    ASSERT_EQ(drop.contacts.size(), 1u);
    EXPECT_EQ(drop.contacts[0].other, floor);
    EXPECT_NEAR(drop.contacts[0].normal.y, 1, 1e-5f);
    EXPECT_NEAR(drop.contacts[0].time, 2.6f / 10, 1e-3f);    // 2.6 of the 10 units fallen
    EXPECT_NEAR(drop.contacts[0].surface_area, 0.8f, 1e-4f); // the whole bottom edge
    const MoveResult walk = world.move(c, {5, 0}).value();
    // Starts touching, not overlapping: no push-out, no contact, full motion.
    EXPECT_FALSE(walk.started_overlapping);
    EXPECT_TRUE(walk.contacts.empty());
    EXPECT_NEAR(walk.position.x, 5, 1e-5f);
    EXPECT_EQ(walk.position.y, drop.position.y);
}

TEST(Move, DiagonalSlideAlongAFloorOfSeparateTilesNeverCatchesOnASeam) {
    // The crack problem: 50 unmerged 1 x 1 tiles, their seams at integer x.
    World world = make_world();
    for (int i = 0; i < 50; ++i) {
        add_static_box(world, {i + 0.5f, -0.5f}, 0.5f, 0.5f);
    }
    const BodyId c = add_character(world, {1, 0.4f}, k_box); // resting on the tiles
    // Down and to the right: the floor takes the downward part, so the box
    // must travel the full 40 units in x, as it would on one long floor.
    const MoveResult r = world.move(c, {40, -3}).value();
    EXPECT_NEAR(r.position.x, 41, 1e-4f);
    EXPECT_NEAR(r.position.y, 0.4f, world.tolerances().touch_tolerance);
    EXPECT_FALSE(r.iteration_cap_hit);
}

TEST(Move, DiagonalSlideAlongAWallOfSeparateTilesNeverCatchesOnASeam) {
    World world = make_world();
    for (int i = 0; i < 50; ++i) {
        add_static_box(world, {-0.5f, i + 0.5f}, 0.5f, 0.5f); // wall face at x = 0
    }
    const BodyId c = add_character(world, {0.4f, 1}, k_box);
    const MoveResult r = world.move(c, {-2, 30}).value();
    EXPECT_NEAR(r.position.y, 31, 1e-4f);
    EXPECT_NEAR(r.position.x, 0.4f, world.tolerances().touch_tolerance);
}

// The box's position after `moves` moves of `step` up a wall of separate
// 1 x 1 tiles (face x = 0, seams at integer y), in a world with the
// surface-area rule on or off; every move's upward progress in `progress`.
// The box (half size 0.375) starts pressed against the wall, and every
// value is exact in binary, so its top lands exactly level with a seam.
Vec2 slide_up_tiled_wall(bool surface_area_rule, Vec2 step, int moves,
                         std::vector<real>& progress) {
    WorldDef def;
    def.move_ties_by_surface_area = surface_area_rule;
    World world = std::move(World::make(def).value());
    for (int i = 0; i < 50; ++i) {
        add_static_box(world, {-0.5f, i + 0.5f}, 0.5f, 0.5f);
    }
    const BodyId c = add_character(world, {0.375f, 1}, make_box(0.375f, 0.375f).value());
    Vec2 p = world.body_state(c)->xf.p;
    for (int k = 0; k < moves; ++k) {
        const Vec2 next = world.move(c, step).value().position;
        progress.push_back(next.y - p.y);
        p = next;
    }
    return p;
}

TEST(Move, WithoutTheSurfaceAreaRuleASlideUpAWallOfTilesCatchesOnASeam) {
    // Pressed into the wall and moving up (faster than into it), the box's
    // top edge comes level with the seam y = 2 after five moves: its top
    // corner then touches the next tile's bottom corner exactly, tied with
    // the wall's face, and meets that tile's bottom face, the one it closes
    // on faster. The rule puts the wall's face first and the box slides on;
    // ordered by normal alone the corner leads, its normal (0, -1) blocks
    // the upward motion, and the box stays caught. (A top edge that passes
    // a seam within a move meets no such corner: the catch needs the exact
    // tie.)
    const Vec2 step{-0.0625f, 0.125f};
    std::vector<real> with_rule;
    const Vec2 on = slide_up_tiled_wall(true, step, 100, with_rule);
    EXPECT_EQ(on.y, 1 + 100 * step.y);
    for (std::size_t k = 0; k < with_rule.size(); ++k) {
        ASSERT_EQ(with_rule[k], step.y) << "move " << k;
    }
    std::vector<real> without_rule;
    const Vec2 off = slide_up_tiled_wall(false, step, 100, without_rule);
    EXPECT_EQ(off.y, 2 - 0.375f);
    EXPECT_EQ(std::count(without_rule.begin(), without_rule.end(), real(0)), 95);
    EXPECT_EQ(off.x, 0.375f); // still against the wall, not pushed off it
}

// A round or pointed mover standing on a floor of two tiles just short of
// their seam (x = 0), pressed straight down: the floor holds it at once,
// and the next tile's corner, a hair below its side, is tied with the
// floor. The floor's face must lead (a contact on the other shape's face
// before one on the mover's face, before one on neither): led by the
// corner, whose normal leans away from the seam, the body was slid off
// sideways (a circle 0.04 L for a press of 1 L), against a motion with no
// sideways part at all.
TEST(Move, PressingDownBesideASeamLeadsWithTheFloorNotTheNextTilesCorner) {
    const real r = 0.3f;
    const real diamond = 0.25f;
    struct Case {
        Shape shape;
        Vec2 at; // the lowest point 0.03 L (circle) or 0.004 L (vertex) left of the seam
    };
    const Case cases[] = {
        {make_circle({0, 0}, r).value(), {-0.03f, r}},
        {make_polygon(std::array<Vec2, 4>{Vec2{0, -diamond}, Vec2{diamond, 0}, Vec2{0, diamond},
                                          Vec2{-diamond, 0}})
             .value(),
         {-0.004f, diamond}},
    };
    for (const Case& k : cases) {
        World world = make_world();
        add_static_box(world, {-0.5f, -0.5f}, 0.5f, 0.5f);
        add_static_box(world, {0.5f, -0.5f}, 0.5f, 0.5f);
        const BodyId c = add_character(world, k.at, k.shape);
        const MoveResult m = world.move(c, {0, -1}).value();
        EXPECT_FALSE(m.started_overlapping);
        EXPECT_EQ(m.position.x, k.at.x);
        EXPECT_NEAR(m.position.y, k.at.y, world.tolerances().touch_tolerance);
        ASSERT_FALSE(m.contacts.empty());
        EXPECT_EQ(m.contacts.front().normal, (Vec2{0, 1}));
    }
}

// Found in the Move benchmark's scene (16 L a metre, boxes of 12 L among
// tiles of 16): a box landing on a floor block a hair above a tile's top,
// its corner a hair beside the tile's corner at the same time, slides on
// over the tile. The tile's contact met corner to corner on a diagonal
// normal; its separation is the gap where the move recorded it: the box's
// bottom above the tile's top (the corner's reckoning along its normal
// read 4.1 L into the tile).
TEST(Move, ACornerContactTheSlideCarriesOverAFaceReportsTheGapThere) {
    WorldDef def;
    def.length_units_per_meter = 16;
    World world = World::make(def).value();
    const BodyId tile = add_static_box(world, {280, 184}, 8, 8); // top y = 192, right x = 288
    const BodyId floor = add_static_box(world, {298, 186.003433f}, 6, 6);
    const BodyId c = add_character(world, {297.020538f, 198.45726f}, make_box(6, 6).value());
    const MoveResult r = world.move(c, {-7.53187704f, -1.1013999f}).value();
    ASSERT_EQ(r.contacts.size(), 2u);
    const real floor_top = 186.003433f + 6;
    EXPECT_EQ(r.position.y, floor_top + 6); // landed on the floor block
    EXPECT_LT(r.position.x - 6, 288);       // over the tile's top at the end
    const auto contact_with = [&](BodyId other) {
        return *std::find_if(r.contacts.begin(), r.contacts.end(),
                             [&](const MoveContact& k) { return k.other == other; });
    };
    EXPECT_EQ(contact_with(floor).separation, 0);
    const MoveContact at_tile = contact_with(tile);
    EXPECT_EQ(at_tile.surface_area, 0); // a corner
    EXPECT_EQ(at_tile.time, 1);         // recorded where the move ended
    EXPECT_NEAR(at_tile.separation, (r.position.y - 6) - 192, 1e-5f);
}

TEST(Move, InnerCornerStopsTouchingBothWalls) {
    World world = make_world();
    add_static_box(world, {0, -0.5f}, 10, 0.5f); // floor, top y = 0
    add_static_box(world, {5.5f, 5}, 0.5f, 5);   // wall, face x = 5
    const BodyId c = add_character(world, {0, 2}, k_box);
    const MoveResult r = world.move(c, {20, -20}).value();
    EXPECT_NEAR(r.position.x, 5 - 0.4f, world.tolerances().touch_tolerance);
    EXPECT_NEAR(r.position.y, 0.4f, world.tolerances().touch_tolerance);
    EXPECT_FALSE(r.iteration_cap_hit);
    EXPECT_LE(r.iterations, 4);
}

TEST(Move, FastMoveStopsAtAThinWall) {
    World world = make_world();
    add_static_box(world, {50, 0}, 0.05f, 5); // face at x = 49.95
    const BodyId c = add_character(world, {0, 0}, Circle{{}, 0.25f});
    const MoveResult r = world.move(c, {10000, 0}).value();
    EXPECT_NEAR(r.position.x, 49.95f - 0.25f, 1e-3f);
}

TEST(Move, ResponsesComeFromTheFilter) {
    // A fresh world per response: the box starts at the origin, the wall's
    // face is at x = 5, the move is (8, 1).
    const auto with = [](MoveResponse response) {
        World world = make_world();
        const BodyId wall = add_static_box(world, {5.5f, 0}, 0.5f, 5);
        const BodyId c = add_character(world, {0, 0}, k_box);
        return world
            .move(c, {8, 1},
                  [&](BodyId other) { return other == wall ? response : MoveResponse::slide; })
            .value();
    };
    // touch: stops at contact (x = 4.6), at t = 4.6 / 8 of the way: y = 0.575.
    const MoveResult touch = with(MoveResponse::touch);
    EXPECT_NEAR(touch.position.x, 4.6f, 1e-3f);
    EXPECT_NEAR(touch.position.y, 0.575f, 1e-3f);
    // slide: x stops, y goes on to 1.
    const MoveResult slide = with(MoveResponse::slide);
    EXPECT_NEAR(slide.position.x, 4.6f, 1e-3f);
    EXPECT_NEAR(slide.position.y, 1, 1e-3f);
    // bounce: the 3.4 left in x comes back: x = 4.6 - 3.4 = 1.2.
    const MoveResult bounce = with(MoveResponse::bounce);
    EXPECT_NEAR(bounce.position.x, 1.2f, 1e-3f);
    EXPECT_NEAR(bounce.position.y, 1, 1e-3f);
    // cross: passes through, reported.
    const MoveResult cross = with(MoveResponse::cross);
    EXPECT_NEAR(cross.position.x, 8, 1e-5f);
    ASSERT_EQ(cross.contacts.size(), 1u);
    EXPECT_EQ(cross.contacts[0].response, MoveResponse::cross);
    // ignore: passes through, not reported.
    const MoveResult ignore = with(MoveResponse::ignore);
    EXPECT_NEAR(ignore.position.x, 8, 1e-5f);
    EXPECT_TRUE(ignore.contacts.empty());
}

TEST(Move, CrossedBodiesAreReportedOnceEachInTimeOrder) {
    // Three zones, [1, 3], [4, 6] and [7, 9] along x, 2 tall about y = 0,
    // made right to left (the casts meet them in that order), over a floor
    // whose top is y = -1.45. The box (half 0.4) moves from (-2, 0.5) by
    // (10, -2.5): its bottom lands on the floor at t = 1.55 / 2.5 = 0.62,
    // at x = 4.2, inside the middle zone, and the move slides on from
    // there, inside it, to x = 8, inside the far one.
    World world = make_world();
    const BodyId far = add_static_box(world, {8, 0}, 1, 1);
    const BodyId mid = add_static_box(world, {5, 0}, 1, 1);
    const BodyId near = add_static_box(world, {2, 0}, 1, 1);
    const BodyId floor = add_static_box(world, {3, -1.5f}, 6, real(0.05));
    const BodyId c = add_character(world, {-2, 0.5f}, k_box);
    const MoveResult r =
        world
            .move(c, {10, -2.5f},
                  [&](BodyId other) {
                      return other == floor ? MoveResponse::slide : MoveResponse::cross;
                  })
            .value();
    EXPECT_NEAR(r.position.x, 8, 1e-3f);
    EXPECT_NEAR(r.position.y, -1.05f, 1e-3f);
    std::vector<BodyId> crossed;
    for (std::size_t i = 0; i < r.contacts.size(); ++i) {
        const MoveContact& k = r.contacts[i];
        if (i > 0) {
            EXPECT_GE(k.time, r.contacts[i - 1].time);
        }
        if (k.response == MoveResponse::cross) {
            crossed.push_back(k.other);
        }
    }
    // In the order the box met them, each once, though the landing's
    // subdivision began inside the middle zone (its cast met it again).
    EXPECT_EQ(crossed, (std::vector<BodyId>{near, mid, far}));
}

TEST(Move, ASensorOnTheMoverCrossesWhatItMeetsAndItsSolidShapeStops) {
    // A box (half 0.4) with a sensor disc of radius 2 about it, at the
    // origin, moves right by 8 toward a wall whose face is at x = 5: the
    // disc meets the wall at x = 3 and crosses it (reported), the box stops
    // touching it at x = 4.6, and nothing is reported twice.
    World world = make_world();
    const BodyId wall = add_static_box(world, {5.5f, 0}, 0.5f, 5);
    BodyDef def;
    def.type = BodyType::kinematic;
    std::array<ShapeDef, 2> shapes{ShapeDef(k_box), ShapeDef(Circle{{}, 2})};
    shapes[1].sensor = true;
    const BodyId c = world.create_body(def, shapes).value();
    const MoveResult r = world.move(c, {8, 0}).value();
    EXPECT_NEAR(r.position.x, 4.6f, 1e-3f);
    EXPECT_NEAR(r.position.y, 0, 1e-5f);
    ASSERT_EQ(r.contacts.size(), 2u);
    EXPECT_EQ(r.contacts[0].response, MoveResponse::cross);
    EXPECT_EQ(r.contacts[0].other, wall);
    EXPECT_NEAR(r.contacts[0].time, 3.0f / 8, 1e-3f);
    EXPECT_EQ(r.contacts[1].response, MoveResponse::slide);
    EXPECT_EQ(r.contacts[1].other, wall);
    EXPECT_NEAR(r.contacts[1].time, 4.6f / 8, 1e-3f);
}

TEST(Move, OverlappingStartIsPushedOutAlongTheMinimumTranslationNotBackwards) {
    World world = make_world();
    add_static_box(world, {0, -0.5f}, 20, 0.5f);
    const BodyId c = add_character(world, {0, 0.2f}, k_box); // 0.2 deep in the floor
    const MoveResult r = world.move(c, {3, 0}).value();
    EXPECT_TRUE(r.started_overlapping);
    EXPECT_NEAR(r.pushout.x, 0, 1e-5f);
    EXPECT_NEAR(r.pushout.y, 0.2f, 1e-4f);
    EXPECT_NEAR(r.position.x, 3, 1e-4f); // never thrown back along -x
    EXPECT_NEAR(r.position.y, 0.4f, 1e-4f);
}

// A body of two boxes side by side (half size 0.4, at x - 0.5 and x + 0.5)
// created with both 0.1 into the floor and the right one 0.2 into a wall
// (face x = 2): one push frees both shapes of everything at once, (-0.2,
// 0.1) by hand, and the move then slides on along the floor.
TEST(Move, ABodyOfSeveralShapesIsPushedOutOfEverythingByOneTranslation) {
    World world = make_world();
    add_static_box(world, {0, -0.5f}, 10, 0.5f); // floor, top y = 0
    add_static_box(world, {2.5f, 5}, 0.5f, 5);   // wall, face x = 2
    BodyDef def;
    def.type = BodyType::kinematic;
    def.position = {1.3f, 0.3f};
    const std::array<ShapeDef, 2> shapes{
        ShapeDef{make_offset_box(0.4f, 0.4f, {-0.5f, 0}, 0).value()},
        ShapeDef{make_offset_box(0.4f, 0.4f, {0.5f, 0}, 0).value()}};
    const BodyId c = world.create_body(def, shapes).value();
    const MoveResult r = world.move(c, {-1, 0}).value();
    EXPECT_TRUE(r.started_overlapping);
    EXPECT_NEAR(r.pushout.x, -0.2f, 1e-5f);
    EXPECT_NEAR(r.pushout.y, 0.1f, 1e-5f);
    EXPECT_NEAR(r.position.x, 1.3f - 0.2f - 1, 1e-4f);
    EXPECT_NEAR(r.position.y, 0.4f, 1e-5f);
}

TEST(Move, BouncingBetweenCloseWallsHitsTheCapAndSaysSo) {
    World world = make_world();
    add_static_box(world, {-1, 0}, 0.5f, 5); // face at x = -0.5
    add_static_box(world, {1, 0}, 0.5f, 5);  // face at x = 0.5
    const BodyId c = add_character(world, {0, 0}, Circle{{}, 0.25f});
    // 0.5 of free play between faces: 1000 units of bouncing need ~2000 hits.
    const MoveResult r =
        world.move(c, {1000, 0}, [](BodyId) { return MoveResponse::bounce; }).value();
    EXPECT_TRUE(r.iteration_cap_hit);
    EXPECT_EQ(r.iterations, k_max_move_iterations);
    EXPECT_LE(std::abs(r.position.x), 0.25f + 1e-3f); // still between the walls
}

TEST(Move, ChangesNoOtherBody) {
    World world = make_world();
    BodyDef def;
    def.type = BodyType::dynamic;
    def.position = {3, 0};
    const ShapeDef crate{make_box(0.5f, 0.5f).value(), {}};
    const BodyId other = world.create_body(def, std::span(&crate, 1)).value();
    const BodyId c = add_character(world, {0, 0}, k_box);
    const MoveResult r = world.move(c, {5, 0}).value();
    EXPECT_NEAR(r.position.x, 3 - 0.5f - 0.4f, 1e-3f);
    EXPECT_EQ(world.body_state(other).value().xf.p, (Vec2{3, 0}));
    ASSERT_EQ(r.contacts.size(), 1u);
    EXPECT_EQ(r.contacts[0].other, other);
}

TEST(Move, RejectsBadCallsAndChangesNothing) {
    World world = make_world();
    const BodyId wall = add_static_box(world, {0, 0}, 1, 1);
    const BodyId c = add_character(world, {5, 0}, k_box);
    EXPECT_EQ(world.move(wall, {1, 0}).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.move(c, {std::nanf(""), 0}).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.body_state(c).value().xf.p, (Vec2{5, 0}));
    ASSERT_TRUE(world.destroy_body(c).has_value());
    EXPECT_EQ(world.move(c, {1, 0}).error().code, ErrorCode::stale_handle);
}

// A move may not take a body beyond the coordinates bodies are made in: a
// move by -1.7e38 L, finite, went there, and the next overflowed to
// infinity (fuzz_world).
TEST(Move, MovesBeyondTheCoordinateRangeAreRejectedAndChangeNothing) {
    World world = make_world();
    const BodyId c = add_character(world, {5, 0}, k_box);
    const Vec2 far{k_max_coordinate / 4, 0};
    const BodyId far_out = add_character(world, far, k_box);
    EXPECT_EQ(world.move(c, {0, -2 * k_max_coordinate}).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.move(far_out, {k_max_coordinate, 0}).error().code,
              ErrorCode::invalid_input); // within range itself, but not its end
    EXPECT_EQ(world.body_state(c).value().xf.p, (Vec2{5, 0}));
    EXPECT_EQ(world.body_state(far_out).value().xf.p, far);
    const MoveResult r = world.move(c, {1, 0}).value();
    EXPECT_EQ(r.position, (Vec2{6, 0}));
}

// The reusing move's errors leave the caller's result as it was.
TEST(Move, RejectsBadCallsIntoAResultAndLeavesItAsItWas) {
    World world = make_world();
    const BodyId wall = add_static_box(world, {0, 0}, 1, 1);
    const BodyId c = add_character(world, {5, 0}, k_box);
    MoveResult kept;
    ASSERT_TRUE(world.move(c, {-5, 0}, {}, kept)); // against the wall
    ASSERT_EQ(kept.contacts.size(), 1u);
    const Vec2 position = kept.position;
    EXPECT_EQ(world.move(wall, {1, 0}, {}, kept).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.move(c, {0, std::nanf("")}, {}, kept).error().code, ErrorCode::invalid_input);
    ASSERT_TRUE(world.destroy_body(c).has_value());
    EXPECT_EQ(world.move(c, {1, 0}, {}, kept).error().code, ErrorCode::stale_handle);
    EXPECT_EQ(kept.position, position);
    ASSERT_EQ(kept.contacts.size(), 1u);
    EXPECT_EQ(kept.contacts[0].other, wall);
}

} // namespace
} // namespace sweep

namespace sweep {
namespace {

// A box standing exactly on a surface starts each move touching it, where
// GJK's normal is unreliable: a move mostly along the floor and a little
// into it (gravity's share of a frame) must still stop on the surface, on a
// box floor and on a segment, at any length unit.
TEST(MoveTouching, RunningWhilePressedDownNeverSinksIntoTheFloor) {
    for (const real l : {1.0f, 35.0f, 128.0f}) {
        WorldDef def;
        def.length_units_per_meter = l;
        World world = std::move(World::make(def).value());
        const ShapeDef box_floor{make_offset_box(10 * l, 0.5f * l, {0, -0.5f * l}, 0).value(), {}};
        const ShapeDef segment_floor{Segment{{10 * l, 0}, {20 * l, 0}}, {}};
        (void)world.create_body(BodyDef{}, std::span(&box_floor, 1)).value();
        (void)world.create_body(BodyDef{}, std::span(&segment_floor, 1)).value();
        const real half_height = 0.45f * l;
        const BodyId c = add_character(world, {0, 3 * l}, make_box(0.3f * l, half_height).value());
        ASSERT_TRUE(world.move(c, {0, -5 * l}));
        const real slop = world.tolerances().linear_slop;
        for (int i = 0; i < 120; ++i) {
            const MoveResult r =
                world.move(c, {0.1333f * l, -0.00833f * l * real(1 + i % 4)}).value();
            SCOPED_TRACE(testing::Message() << "L " << l << " move " << i);
            ASSERT_FALSE(r.started_overlapping);
            ASSERT_GE(r.position.y - half_height, -slop);
            ASSERT_LE(r.position.y - half_height, slop);
            ASSERT_FALSE(r.contacts.empty());
        }
    }
}

} // namespace
} // namespace sweep

namespace sweep {
namespace {

// One-way platforms: a 4 x 0.2 plank centred at (0, 2), top y = 2.1 and
// bottom y = 1.9, and the 0.8 x 0.8 box character k_box.
constexpr real k_plank_top = 2.1f;

MoveResponse one_way_for(BodyId platform, BodyId other) {
    return other == platform ? MoveResponse::one_way : MoveResponse::slide;
}

TEST(MoveOneWay, RisingThroughThePlatformPasses) {
    World world = make_world();
    const BodyId plank = add_static_box(world, {0, 2}, 2, 0.1f);
    const BodyId c = add_character(world, {0, 0}, k_box);
    const MoveResult r =
        world.move(c, {0, 5}, [&](BodyId other) { return one_way_for(plank, other); }).value();
    EXPECT_NEAR(r.position.y, 5, 1e-5f);
    EXPECT_TRUE(r.contacts.empty());
    EXPECT_EQ(r.ground, BodyId{});
}

TEST(MoveOneWay, FallingOntoThePlatformLandsAndStandsOnIt) {
    World world = make_world();
    const BodyId plank = add_static_box(world, {0, 2}, 2, 0.1f);
    const BodyId c = add_character(world, {0, 4}, k_box);
    const auto filter = [&](BodyId other) { return one_way_for(plank, other); };
    const MoveResult drop = world.move(c, {0, -5}, filter).value();
    EXPECT_NEAR(drop.position.y, k_plank_top + 0.4f, 1e-5f); // bottom edge on the top edge
    ASSERT_EQ(drop.contacts.size(), 1u);
    EXPECT_EQ(drop.contacts[0].response, MoveResponse::one_way);
    EXPECT_NEAR(drop.contacts[0].normal.y, 1, 1e-5f);
    EXPECT_EQ(drop.ground, plank);
    // Walking while pressed down (gravity's share): it stays on the top.
    for (int i = 0; i < 20; ++i) {
        const MoveResult walk = world.move(c, {0.05f, -0.02f}, filter).value();
        ASSERT_FALSE(walk.started_overlapping);
        ASSERT_NEAR(walk.position.y, k_plank_top + 0.4f, world.tolerances().touch_tolerance);
        ASSERT_EQ(walk.ground, plank);
    }
    EXPECT_NEAR(world.body_state(c)->xf.p.x, 1, 1e-4f);
}

TEST(MoveOneWay, MovingSidewaysWithFeetBelowTheTopPasses) {
    World world = make_world();
    const BodyId plank = add_static_box(world, {0, 2}, 2, 0.1f);
    // Its bottom at 1.98, just below the top: it meets the plank's side.
    const BodyId c = add_character(world, {-4, 2.38f}, k_box);
    const MoveResult r =
        world.move(c, {8, -0.1f}, [&](BodyId other) { return one_way_for(plank, other); }).value();
    EXPECT_NEAR(r.position.x, 4, 1e-5f);
    EXPECT_NEAR(r.position.y, 2.28f, 1e-5f);
    EXPECT_TRUE(r.contacts.empty());
}

TEST(MoveOneWay, ARoundedMoverLandsOnTheEndOnlyWithinHalfItsRadiusOfTheTop) {
    // A circle of radius 0.4 walking right and a little down, 20 frames of
    // (0.1, -0.02) from x = -2.45, meets the plank's top-left corner
    // (-2, 2.1) with its centre h above the corner: a ground contact when
    // h / 0.4 >= cos 60 degrees, that is its bottom at most 0.2 below the top.
    struct Walk {
        Vec2 end;
        bool met_ground = false;
    };
    const auto walk = [](real bottom_below_top) {
        World world = make_world();
        const BodyId plank = add_static_box(world, {0, 2}, 2, 0.1f);
        const BodyId c =
            add_character(world, {-2.45f, k_plank_top + 0.4f - bottom_below_top}, Circle{{}, 0.4f});
        Walk w;
        for (int i = 0; i < 20; ++i) {
            const MoveResult r = world
                                     .move(c, {0.1f, -0.02f},
                                           [&](BodyId other) { return one_way_for(plank, other); })
                                     .value();
            w.met_ground = w.met_ground || r.ground == plank;
            w.end = r.position;
        }
        return w;
    };
    // Bottom 0.3 below the top: h is at most 0.1 and falling; it walks
    // through, 2 right and 0.4 down.
    const Walk through = walk(0.3f);
    EXPECT_FALSE(through.met_ground);
    EXPECT_NEAR(through.end.x, -0.45f, 1e-4f);
    EXPECT_NEAR(through.end.y, 2.2f - 0.4f, 1e-4f);
    // Bottom 0.1 below the top: h is about 0.3; it climbs over the corner
    // and walks on along the top.
    const Walk onto = walk(0.1f);
    EXPECT_TRUE(onto.met_ground);
    EXPECT_NEAR(onto.end.y, k_plank_top + 0.4f, make_world().tolerances().touch_tolerance);
    EXPECT_GT(onto.end.x, -2);
}

TEST(MoveOneWay, StartingInsideThePlatformIsNotPushedOutAndFallsThrough) {
    World world = make_world();
    const BodyId plank = add_static_box(world, {0, 2}, 2, 0.1f);
    const BodyId c = add_character(world, {0, 2}, k_box); // the plank through its middle
    const auto filter = [&](BodyId other) { return one_way_for(plank, other); };
    const MoveResult along = world.move(c, {0.5f, 0}, filter).value();
    EXPECT_FALSE(along.started_overlapping);
    EXPECT_EQ(along.position, (Vec2{0.5f, 2}));
    const MoveResult down = world.move(c, {0, -3}, filter).value();
    EXPECT_NEAR(down.position.y, -1, 1e-5f);
    EXPECT_TRUE(down.contacts.empty());
}

// A polyline platform from (-2, 2) to (2, 2) as a chain segment, its points
// run either way: chains collide on one side only, one-way platforms on
// their up side whatever the winding.
TEST(MoveOneWay, APolylineWorksWhicheverWayItIsWound) {
    for (const bool left_to_right : {true, false}) {
        SCOPED_TRACE(left_to_right ? "left to right" : "right to left");
        World world = make_world();
        const Vec2 a{-2, 2}, b{2, 2};
        const ChainSegment chain = left_to_right ? ChainSegment{{-3, 2}, {a, b}, {3, 2}}
                                                 : ChainSegment{{3, 2}, {b, a}, {-3, 2}};
        const ShapeDef line{chain, {}};
        const BodyId platform = world.create_body(BodyDef{}, std::span(&line, 1)).value();
        const auto filter = [&](BodyId other) { return one_way_for(platform, other); };
        const BodyId rising = add_character(world, {-1, 0}, k_box);
        EXPECT_NEAR(world.move(rising, {0, 5}, filter)->position.y, 5, 1e-5f);
        const BodyId c = add_character(world, {0, 4}, k_box);
        const MoveResult drop = world.move(c, {0, -5}, filter).value();
        EXPECT_NEAR(drop.position.y, 2.4f, 1e-5f);
        EXPECT_EQ(drop.ground, platform);
        for (int i = 0; i < 20; ++i) {
            const MoveResult walk = world.move(c, {0.05f, -0.02f}, filter).value();
            ASSERT_NEAR(walk.position.y, 2.4f, world.tolerances().touch_tolerance);
        }
    }
}

TEST(MoveOneWay, UpIsThePlatformsLocalYAxis) {
    // Turned upside down, the plank's up is world -y: it stops a character
    // rising into its underside (now its top, y = 1.9) and lets one fall
    // through.
    World world = make_world();
    BodyDef def;
    def.position = {0, 2};
    def.angle = k_pi;
    const ShapeDef plank_shape{make_box(2, 0.1f).value(), {}};
    const BodyId plank = world.create_body(def, std::span(&plank_shape, 1)).value();
    const auto filter = [&](BodyId other) { return one_way_for(plank, other); };
    const BodyId rising = add_character(world, {0, 0}, k_box);
    EXPECT_NEAR(world.move(rising, {0, 5}, filter)->position.y, 1.9f - 0.4f, 1e-5f);
    const BodyId falling = add_character(world, {1, 4}, k_box);
    EXPECT_NEAR(world.move(falling, {0, -5}, filter)->position.y, -1, 1e-5f);
}

// A box whose corner passes exactly through a tile's corner halfway through
// its move never overlaps the tile: it goes all the way. The cast meets the
// tile's face a touch tolerance early, where at a shallow slope the box
// still overlaps the face beside it by the tolerance times the slope, so
// no face separated them there, and the box was stopped on the face
// extended: hovering 0.125 L over the gap past a ledge, or 0.5 L short of
// rising past it (802 of these 1,536 moves). Boxes of four sizes, 24 slopes,
// both ways along the path, at each of the tile's corners (mirrored), the
// tile its own body or one of a body of two.
TEST(Move, ABoxPassingExactlyByATilesCornerGoesAllTheWay) {
    int moves = 0;
    for (const real hx : {real(0.25), real(0.5)}) {
        for (const real hy : {real(0.125), real(0.5)}) {
            for (const real a : {real(0.25), real(0.5), real(1), real(2), real(3.5), real(8)}) {
                for (const real b : {real(0.25), real(0.5), real(1), real(2)}) {
                    for (int k = 0; k < 16; ++k) {
                        const bool back = k & 1;
                        const bool mirror_x = k & 2;
                        const bool mirror_y = k & 4;
                        const bool two_boxes = k & 8;
                        // The box's lower left corner passes the tile's upper
                        // right corner (1, 1) at t = 0.5, moving (a, -b) or back.
                        Vec2 d = back ? Vec2{-a, b} : Vec2{a, -b};
                        Vec2 start{1 - real(0.5) * d.x + hx, 1 - real(0.5) * d.y + hy};
                        if (mirror_x) {
                            start.x = 1 - start.x;
                            d.x = -d.x;
                        }
                        if (mirror_y) {
                            start.y = 1 - start.y;
                            d.y = -d.y;
                        }
                        World world = make_world();
                        BodyDef def;
                        def.position = {real(0.5), real(0.5)};
                        std::vector<ShapeDef> tiles{{make_box(0.5f, 0.5f).value(), {}}};
                        if (two_boxes) {
                            tiles.push_back({make_offset_box(0.5f, 0.5f, {-3, -3}, 0).value(), {}});
                        }
                        (void)world.create_body(def, tiles).value();
                        const BodyId c = add_character(world, start, make_box(hx, hy).value());
                        const MoveResult r = world.move(c, d).value();
                        SCOPED_TRACE("half (" + std::to_string(hx) + ", " + std::to_string(hy) +
                                     "), d (" + std::to_string(d.x) + ", " + std::to_string(d.y) +
                                     "), case " + std::to_string(k));
                        EXPECT_NEAR(r.position.x, start.x + d.x, 1e-5);
                        EXPECT_NEAR(r.position.y, start.y + d.y, 1e-5);
                        ++moves;
                    }
                }
            }
        }
    }
    EXPECT_EQ(moves, 1536);
}

// A unit box moving down and right into the inner corner of a floor of
// tiles and a wall of tiles, reaching the wall a little before or after the
// floor (within the tie window), ends touching both exactly. The wall's
// bottom tile meets the box corner to corner, and the closing stopped at
// that tie's measure along one normal, or where the box's corner would
// touch the next wall tile's: up to 0.003 L short of the wall or above the
// floor (76 of 144 boxes in an earlier count).
TEST(Move, ABoxIntoAnInnerCornerOfTilesTouchesBothFacesExactly) {
    int moves = 0;
    for (const bool one_body : {false, true}) {
        for (const double early : {0.0, 0.0005, 0.001, 0.002, 0.003, 0.004, 0.0049, 0.006, 0.01,
                                   -0.001, -0.002, -0.004}) {
            for (const double slope : {0.5, 1.0, 2.0}) {
                for (const double length : {1.0, 4.0}) {
                    World world = make_world();
                    std::vector<ShapeDef> tiles;
                    for (int i = 0; i < 12; ++i) { // the floor, y in [-1, 0]
                        tiles.push_back(
                            {make_offset_box(0.5f, 0.5f, {real(i + 0.5), -0.5f}, 0).value(), {}});
                    }
                    for (int j = 0; j < 6; ++j) { // the wall, x in [10, 11]
                        tiles.push_back(
                            {make_offset_box(0.5f, 0.5f, {10.5f, real(j + 0.5)}, 0).value(), {}});
                    }
                    if (one_body) {
                        (void)world.create_body(BodyDef{}, tiles).value();
                    } else {
                        for (const ShapeDef& tile : tiles) {
                            (void)world.create_body(BodyDef{}, std::span(&tile, 1)).value();
                        }
                    }
                    // Where the box meets the floor, its right face is `early` short of the wall.
                    const double dx = length;
                    const double dy = -length * slope;
                    const Vec2 start{real(10 - early - 0.5 - 0.75 * dx), real(0.5 - 0.75 * dy)};
                    const BodyId c = add_character(world, start, make_box(0.5f, 0.5f).value());
                    const MoveResult r = world.move(c, {real(dx), real(dy)}).value();
                    SCOPED_TRACE("early " + std::to_string(early) + ", slope " +
                                 std::to_string(slope) + ", length " + std::to_string(length) +
                                 (one_body ? ", one body" : ", a body a tile"));
                    EXPECT_EQ(r.position.x, real(9.5));
                    EXPECT_EQ(r.position.y, real(0.5));
                    ++moves;
                }
            }
        }
    }
    EXPECT_EQ(moves, 144);
}

// A slide keeps its plane for the rest of the iteration (the seeds' sliding
// plane, docs/conventions.md): a box pressing down as it walks off a ledge
// goes on level, above the lower floor by the drop, and the next move down
// lands it exactly on the lower floor.
TEST(Move, AfterWalkingOffALedgeTheNextMoveDownLandsExactly) {
    for (const real drop : {real(0.00390625), real(0.0625), real(0.125)}) {
        World world = make_world();
        (void)add_static_box(world, {-10, -0.5f}, 10, 0.5f);       // top y = 0, x <= 0
        (void)add_static_box(world, {10, -drop - 0.5f}, 10, 0.5f); // top y = -drop
        const BodyId c = add_character(world, {-0.5f, 0.4f}, k_box);
        SCOPED_TRACE("drop " + std::to_string(drop));
        const MoveResult off = world.move(c, {2, -0.25f}).value();
        EXPECT_NEAR(off.position.x, 1.5f, 1e-5f);
        EXPECT_EQ(off.position.y, 0.4f); // level past the ledge
        const MoveResult down = world.move(c, {1, -0.25f}).value();
        EXPECT_NEAR(down.position.x, 2.5f, 1e-5f);
        EXPECT_EQ(down.position.y, 0.4f - drop); // exactly on the lower floor
        ASSERT_FALSE(down.contacts.empty());
        EXPECT_NEAR(down.contacts.back().normal.y, 1, 1e-6f);
    }
}

// A round shape pressing over a small step up meets the step's corner at
// theta = acos((r - h) / (r + slop)) off vertical or less (step height h,
// radius r; the cast stops within a slop of the corner); the
// slide along that tangent lifts it at most its motion's length times
// sin(theta) above the terrain (docs/conventions.md), never into it, and
// the next move down (by more than that) lands it touching. Heights are
// those of the sole's centre (a disc's centre, a capsule's lower core end):
// `support(x)` is the lowest it may stand at x, on the lower floor, the
// step's corner, or the upper floor.
TEST(Move, ARoundShapeLiftedOverASmallStepLandsOnTheNextMoveDown) {
    const real r = 6;
    const std::array<Shape, 2> shapes{Shape(make_circle({0, 0}, r).value()),
                                      Shape(make_capsule({0, -3}, {0, 3}, r).value())};
    const real world_slop = make_world().tolerances().linear_slop;
    int lifted = 0;
    for (const Shape& shape : shapes) {
        const real sole = shape.type == ShapeType::circle ? 0 : 3; // below the origin
        for (const real h : {real(0.002), real(0.01), real(0.05)}) {
            const auto support = [&](real x) {
                return x >= 0 ? h + r
                              : std::max(r, h + std::sqrt(std::max(r * r - x * x, real(0))));
            };
            const real theta = std::acos((r - h) / (r + world_slop));
            const real meet = -r * std::sin(theta); // the sole's x where it meets the corner
            for (const Vec2 m : {Vec2{8, -1}, Vec2{8, -0.1f}, Vec2{5, -2}}) {
                for (const real f : {real(0.1), real(0.5), real(0.8)}) {
                    World world = make_world();
                    (void)add_static_box(world, {-20, -0.5f}, 20, 0.5f);   // top y = 0, x <= 0
                    (void)add_static_box(world, {40, h - 0.5f}, 40, 0.5f); // top y = h
                    // Standing on the lower floor, meeting the corner after f of the move.
                    const BodyId c = add_character(world, {meet - f * m.x, r + sole}, shape);
                    SCOPED_TRACE(testing::Message()
                                 << "h " << h << " m (" << m.x << ", " << m.y << ") f " << f
                                 << " shape " << static_cast<int>(shape.type));
                    const real tolerance = world.tolerances().touch_tolerance;
                    const real slop = world.tolerances().linear_slop;
                    const MoveResult over = world.move(c, m).value();
                    const real above = over.position.y - sole - support(over.position.x);
                    EXPECT_GE(above, -tolerance);
                    EXPECT_LE(above, length(m) * std::sin(theta) + slop);
                    lifted += above > slop;
                    const MoveResult down = world.move(c, {1, -3}).value();
                    const real landed = down.position.y - sole - support(down.position.x);
                    EXPECT_GE(landed, -tolerance);
                    EXPECT_LE(landed, slop);
                    EXPECT_FALSE(down.contacts.empty());
                }
            }
        }
    }
    EXPECT_GT(lifted, 0); // the case the test is about
}

TEST(Move, ReportsTheGroundItStandsOnAndNotAWall) {
    World world = make_world();
    const BodyId floor = add_static_box(world, {0, -0.5f}, 20, 0.5f); // top at y = 0
    const BodyId wall = add_static_box(world, {5.5f, 5}, 0.5f, 5);    // face at x = 5
    const BodyId c = add_character(world, {0, 3}, k_box);
    EXPECT_EQ(world.move(c, {0, -5})->ground, floor);
    EXPECT_EQ(world.move(c, {10, 0})->ground, BodyId{}); // met only the wall
    const MoveResult both = world.move(c, {-1, -1}).value();
    EXPECT_EQ(both.ground, floor);
    (void)wall;
}

TEST(Move, AFilterThatMovesIsRefusedAndTheOuterMoveCompletes) {
    World world = make_world();
    const BodyId wall = add_static_box(world, {5.5f, 0}, 0.5f, 5);
    const BodyId other = add_character(world, {0, 3}, k_box);
    const BodyId c = add_character(world, {0, 0}, k_box);
    std::optional<ErrorCode> inner;
    const MoveResult r = world
                             .move(c, {8, 0},
                                   [&](BodyId) {
                                       inner = world.move(other, {1, 0}).error().code;
                                       return MoveResponse::slide;
                                   })
                             .value();
    EXPECT_EQ(inner, ErrorCode::unsupported);
    EXPECT_NEAR(r.position.x, 4.6f, 1e-5f);
    EXPECT_EQ(world.body_state(other)->xf.p, (Vec2{0, 3}));
    (void)wall;
}

// Kinematic platforms carry what stands on them: a 4 x 0.5 platform centred
// at the origin (top y = 0.25) and the box k_box dropped on it (origin
// y = 0.65), at 60 Hz.
constexpr real k_dt = 1.0f / 60;
constexpr real k_rider_y = 0.65f;

struct Riding {
    World world = make_world();
    BodyId platform = add_character(world, {0, 0}, make_box(2, 0.25f).value());
    BodyId rider = add_character(world, {0, 3}, k_box);
};

// The rider, dropped onto the platform, stands on it.
void drop(Riding& s) {
    const MoveResult landed = s.world.move(s.rider, {0, -5}).value();
    ASSERT_EQ(landed.ground, s.platform);
    ASSERT_NEAR(landed.position.y, k_rider_y, 1e-5f);
}

// The rider's bottom minus the platform's top: 0 when touching.
real gap(const Riding& s) {
    return s.world.body_state(s.rider)->xf.p.y - 0.4f -
           (s.world.body_state(s.platform)->xf.p.y + 0.25f);
}

// A move keeps the static shapes around a moving shape between moves (its
// static neighbourhood); whatever changes among them must hold from the
// next move on, with either static broadphase.
class MoveStaticChange : public ::testing::TestWithParam<StaticBroadphase> {
  protected:
    World world = std::move(World::make([] {
                                WorldDef def;
                                def.static_broadphase = GetParam();
                                return def;
                            }())
                                .value());
};

TEST_P(MoveStaticChange, AWallAddedAfterAMoveBlocksTheNext) {
    add_static_box(world, {2.5f, 1}, 0.5f, 1); // face at x = 2
    const BodyId c = add_character(world, {1.6f, 0.4f}, k_box);
    // Pressing into the wall: a long reach and no motion, so the next,
    // shorter move needs no shape the first did not find.
    ASSERT_EQ(world.move(c, {2, 0})->position.x, 1.6f);
    add_static_box(world, {0.5f, 1}, 0.5f, 1); // face at x = 1
    const MoveResult r = world.move(c, {-1, 0}).value();
    EXPECT_NEAR(r.position.x, 1 + 0.4f, world.tolerances().touch_tolerance);
    ASSERT_EQ(r.contacts.size(), 1u);
    EXPECT_NEAR(r.contacts[0].normal.x, 1, 1e-5f);
}

// Tiles made and destroyed far away leave a character's neighbourhood as
// it was (the changes since it was found are looked through for any in its
// box); a wall made or destroyed in its way among them, a few or more than
// the world remembers (World::Impl::k_static_log), still counts.
TEST_P(MoveStaticChange, AWallMadeOrDestroyedAmongChangesFarAwayCounts) {
    for (const int far_changes : {4, 40}) {
        SCOPED_TRACE(far_changes);
        const BodyId c = add_character(world, {0, 0.4f}, k_box);
        ASSERT_NEAR(world.move(c, {1, 0})->position.x, 1, 1e-6f);
        const auto far_away = [&] {
            for (int i = 0; i < far_changes; ++i) {
                ASSERT_TRUE(world.destroy_body(add_static_box(world, {100, real(i)}, 0.5f, 0.5f)));
            }
        };
        far_away();
        const BodyId wall = add_static_box(world, {3, 1}, 0.5f, 1); // face at x = 2.5
        far_away();
        EXPECT_NEAR(world.move(c, {4, 0})->position.x, 2.5f - 0.4f, 1e-6f);
        far_away();
        ASSERT_TRUE(world.destroy_body(wall));
        far_away();
        EXPECT_NEAR(world.move(c, {2, 0})->position.x, 4.1f, 1e-5f);
        ASSERT_TRUE(world.destroy_body(c));
    }
}

TEST_P(MoveStaticChange, AWallRemovedAfterAMoveNoLongerBlocks) {
    const BodyId wall = add_static_box(world, {2.5f, 1}, 0.5f, 1); // face at x = 2
    const BodyId c = add_character(world, {0, 0.4f}, k_box);
    ASSERT_NEAR(world.move(c, {2, 0})->position.x, 2 - 0.4f, world.tolerances().touch_tolerance);
    ASSERT_TRUE(world.destroy_body(wall));
    const MoveResult r = world.move(c, {2, 0}).value();
    EXPECT_NEAR(r.position.x, 3.6f, 1e-4f);
    EXPECT_TRUE(r.contacts.empty());
}

TEST_P(MoveStaticChange, AWallsNewFilterHoldsFromTheNextMove) {
    const BodyId wall = add_static_box(world, {2.5f, 1}, 0.5f, 1); // face at x = 2
    const BodyId c = add_character(world, {0, 0.4f}, k_box);
    ASSERT_NEAR(world.move(c, {2, 0})->position.x, 2 - 0.4f, world.tolerances().touch_tolerance);
    Filter none;
    none.mask_bits = 0;
    ASSERT_TRUE(world.set_filter(world.body_shapes(wall)->front(), none));
    const MoveResult r = world.move(c, {2, 0}).value();
    EXPECT_NEAR(r.position.x, 3.6f, 1e-4f);
    EXPECT_TRUE(r.contacts.empty());
}

TEST_P(MoveStaticChange, ACharactersNewFilterHoldsFromTheNextMove) {
    add_static_box(world, {2.5f, 1}, 0.5f, 1); // face at x = 2
    const BodyId c = add_character(world, {0, 0.4f}, k_box);
    const ShapeId shape = world.body_shapes(c)->front();
    ASSERT_NEAR(world.move(c, {2, 0})->position.x, 2 - 0.4f, world.tolerances().touch_tolerance);
    Filter none;
    none.mask_bits = 0;
    ASSERT_TRUE(world.set_filter(shape, none));
    EXPECT_NEAR(world.move(c, {2, 0})->position.x, 3.6f, 1e-4f);
    ASSERT_TRUE(world.set_filter(shape, Filter{}));
    const MoveResult back = world.move(c, {-2, 0}).value();
    EXPECT_NEAR(back.position.x, 3 + 0.4f, world.tolerances().touch_tolerance);
    EXPECT_EQ(back.contacts.size(), 1u);
}

TEST_P(MoveStaticChange, AWallTeleportedAfterAMoveBlocksWhereItLandsAndNoLongerWhereItWas) {
    const BodyId wall = add_static_box(world, {50, 1}, 0.5f, 1);
    const BodyId c = add_character(world, {0, 0.4f}, k_box);
    ASSERT_EQ(world.move(c, {1, 0})->position.x, 1);
    ASSERT_TRUE(world.set_transform(wall, {3, 1}, 0)); // face at x = 2.5
    const MoveResult blocked = world.move(c, {4, 0}).value();
    EXPECT_NEAR(blocked.position.x, 2.5f - 0.4f, 1e-6f); // boxes stop exactly touching
    ASSERT_EQ(blocked.contacts.size(), 1u);
    EXPECT_EQ(blocked.contacts[0].other, wall);
    ASSERT_TRUE(world.set_transform(wall, {-20, 1}, 0));
    const MoveResult free = world.move(c, {4, 0}).value();
    EXPECT_NEAR(free.position.x, 6.1f, 1e-5f);
    EXPECT_TRUE(free.contacts.empty());
}

// A new character may take a destroyed one's shape record: it meets what its
// own filter lets it meet, not what the old one's did (here within the
// neighbourhood the old one found).
TEST_P(MoveStaticChange, ACharacterInAReusedRecordMeetsWhatItsFilterLets) {
    add_static_box(world, {2.5f, 1}, 0.5f, 1); // face at x = 2
    const BodyId ghost = add_character(world, {0.7f, 0.4f}, k_box);
    Filter none;
    none.mask_bits = 0;
    ASSERT_TRUE(world.set_filter(world.body_shapes(ghost)->front(), none));
    ASSERT_TRUE(world.move(ghost, {0.5f, 0}));
    ASSERT_TRUE(world.destroy_body(ghost));
    const BodyId c = add_character(world, {1, 0.4f}, k_box);
    const MoveResult r = world.move(c, {0.9f, 0}).value();
    EXPECT_NEAR(r.position.x, 2 - 0.4f, world.tolerances().touch_tolerance);
    EXPECT_EQ(r.contacts.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Broadphases, MoveStaticChange,
                         ::testing::Values(StaticBroadphase::tree, StaticBroadphase::grid));

TEST(Carry, AHorizontallyMovingPlatformCarriesTheBoxOverManyStepsTouching) {
    Riding s;
    drop(s);
    ASSERT_TRUE(s.world.set_velocity(s.platform, {1.5f, 0}, 0));
    const real touch = s.world.tolerances().touch_tolerance;
    for (int i = 1; i <= 120; ++i) {
        ASSERT_TRUE(s.world.step(k_dt));
        ASSERT_NEAR(s.world.body_state(s.rider)->xf.p.x, 1.5f * k_dt * real(i), 1e-4f);
        ASSERT_NEAR(gap(s), 0, touch);
    }
    EXPECT_NEAR(s.world.body_state(s.rider)->xf.p.x, 3, 1e-4f); // 1.5 L/s for 2 s
    // Still standing on it: the next move starts touching, not overlapping.
    const MoveResult next = s.world.move(s.rider, {0, -0.1f}).value();
    EXPECT_FALSE(next.started_overlapping);
    EXPECT_EQ(next.ground, s.platform);
}

// A platform teleported away (World::set_transform) carries its rider no
// more, though the rider's last move stood on it.
TEST(Carry, APlatformTeleportedAwayCarriesItsRiderNoMore) {
    Riding s;
    drop(s);
    ASSERT_TRUE(s.world.set_velocity(s.platform, {1.5f, 0}, 0));
    ASSERT_TRUE(s.world.step(k_dt));
    const Vec2 rider = s.world.body_state(s.rider)->xf.p;
    ASSERT_NEAR(rider.x, 1.5f * k_dt, 1e-5f);
    ASSERT_TRUE(s.world.set_transform(s.platform, {0, -40}, 0));
    ASSERT_TRUE(s.world.step(k_dt));
    EXPECT_EQ(s.world.body_state(s.rider)->xf.p, rider);
}

// The teleport finds the platform's riders from its count of them: a
// second rider that stood on it and moved on to another platform, and a
// third destroyed while riding, leave the count at the one rider still on
// it, whose carry the teleport ends as above; the other platform still
// carries the second.
TEST(Carry, APlatformTeleportedAwayCarriesNoneOfItsRidersWhoeverCameAndWent) {
    Riding s;
    drop(s);
    const BodyId other = add_character(s.world, {10, 0}, make_box(2, 0.25f).value());
    const BodyId second = add_character(s.world, {1.5f, 3}, k_box);
    const BodyId third = add_character(s.world, {-1.5f, 3}, k_box);
    ASSERT_EQ(s.world.move(second, {0, -5})->ground, s.platform);
    ASSERT_EQ(s.world.move(third, {0, -5})->ground, s.platform);
    ASSERT_TRUE(s.world.set_transform(second, {10, 3}, 0));
    ASSERT_EQ(s.world.move(second, {0, -5})->ground, other);
    ASSERT_TRUE(s.world.destroy_body(third));
    ASSERT_TRUE(s.world.set_transform(s.platform, {0, -40}, 0));
    ASSERT_TRUE(s.world.set_velocity(s.platform, {1.5f, 0}, 0));
    ASSERT_TRUE(s.world.set_velocity(other, {1.5f, 0}, 0));
    const Vec2 rider = s.world.body_state(s.rider)->xf.p;
    const Vec2 carried = s.world.body_state(second)->xf.p;
    ASSERT_TRUE(s.world.step(k_dt));
    EXPECT_EQ(s.world.body_state(s.rider)->xf.p, rider);
    EXPECT_NEAR(s.world.body_state(second)->xf.p.x, carried.x + 1.5f * k_dt, 1e-5f);
}

// A ground destroyed under its rider leaves the rider's ground stale; a
// platform made next takes the destroyed one's slot. The rider's move onto
// it counts it as the new platform's rider and takes nothing from it for
// the stale ground, so the new platform's teleport still finds the rider
// and ends its carry.
TEST(Carry, AGroundDestroyedUnderItsRiderLeavesTheNextBodyInItsSlotUncounted) {
    Riding s;
    drop(s);
    ASSERT_TRUE(s.world.destroy_body(s.platform));
    const BodyId next = add_character(s.world, {0, -1}, make_box(2, 0.25f).value());
    ASSERT_EQ(next.index, s.platform.index); // the slot reused, a new generation
    ASSERT_NE(next, s.platform);
    ASSERT_EQ(s.world.move(s.rider, {0, -5})->ground, next);
    ASSERT_TRUE(s.world.set_transform(next, {0, -40}, 0));
    ASSERT_TRUE(s.world.set_velocity(next, {1.5f, 0}, 0));
    const Vec2 rider = s.world.body_state(s.rider)->xf.p;
    ASSERT_TRUE(s.world.step(k_dt));
    EXPECT_EQ(s.world.body_state(s.rider)->xf.p, rider);
}

TEST(Carry, ARisingPlatformLiftsTheBox) {
    Riding s;
    drop(s);
    ASSERT_TRUE(s.world.set_velocity(s.platform, {0, 2}, 0));
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(s.world.step(k_dt));
        ASSERT_NEAR(gap(s), 0, s.world.tolerances().touch_tolerance);
    }
    EXPECT_NEAR(s.world.body_state(s.rider)->xf.p.y, k_rider_y + 2, 1e-4f); // 2 L/s for 1 s
}

TEST(Carry, APlatformCarryingTheBoxIntoAWallLeavesItStoppedTouchingTheWall) {
    Riding s;
    add_static_box(s.world, {3.5f, 5}, 0.5f, 5); // face at x = 3; the platform passes under it
    drop(s);
    ASSERT_TRUE(s.world.set_velocity(s.platform, {2, 0}, 0));
    const real touch = s.world.tolerances().touch_tolerance;
    for (int i = 0; i < 90; ++i) { // the platform moves 3
        ASSERT_TRUE(s.world.step(k_dt));
        ASSERT_LE(s.world.body_state(s.rider)->xf.p.x, 3 - 0.4f + touch); // never inside
        // Each frame the character presses down, as gravity would.
        const MoveResult r = s.world.move(s.rider, {0, -0.01f}).value();
        ASSERT_FALSE(r.started_overlapping);
    }
    EXPECT_NEAR(s.world.body_state(s.rider)->xf.p.x, 3 - 0.4f, touch); // right face on the wall
    EXPECT_NEAR(gap(s), 0, touch);                                     // still on the platform
}

TEST(Carry, ATurningPlatformCarriesTheRiderAboutItsCentre) {
    Riding s;
    ASSERT_TRUE(s.world.move(s.rider, {1, 0})); // to (1, 3), over the platform
    drop(s);
    const real w = 0.6f; // rad/s
    ASSERT_TRUE(s.world.set_velocity(s.platform, {}, w));
    for (int i = 0; i < 10; ++i) {
        ASSERT_TRUE(s.world.step(k_dt));
    }
    // (1, 0.65) turned by 10 w dt = 0.1 rad about the origin; its own rotation kept.
    const real a = 10 * w * k_dt;
    const BodyState rider = s.world.body_state(s.rider).value();
    EXPECT_NEAR(rider.xf.p.x, std::cos(a) * 1 - std::sin(a) * k_rider_y, 1e-5f);
    EXPECT_NEAR(rider.xf.p.y, std::sin(a) * 1 + std::cos(a) * k_rider_y, 1e-5f);
    EXPECT_EQ(rider.xf.q, Rot{});
}

TEST(Carry, OnlyWhatStandsOnThePlatformIsCarriedAndNothingElseChanges) {
    Riding s;
    drop(s);
    const BodyId hovering = add_character(s.world, {0, 5}, k_box); // never moved: no ground
    const BodyId floor = add_static_box(s.world, {10, -0.5f}, 2, 0.5f);
    const BodyId walker = add_character(s.world, {10, 3}, k_box);
    ASSERT_EQ(s.world.move(walker, {0, -5})->ground, floor); // static ground: not carried
    ASSERT_TRUE(s.world.set_velocity(s.platform, {1, 0}, 0));
    for (int i = 0; i < 30; ++i) {
        ASSERT_TRUE(s.world.step(k_dt));
    }
    EXPECT_NEAR(s.world.body_state(s.rider)->xf.p.x, 0.5f, 1e-4f);
    EXPECT_EQ(s.world.body_state(hovering)->xf.p, (Vec2{0, 5}));
    EXPECT_EQ(s.world.body_state(walker)->xf.p, (Vec2{10, 0.4f}));
    // A jump (a move that meets no ground) ends the ride.
    EXPECT_EQ(s.world.move(s.rider, {0, 1})->ground, BodyId{});
    const Vec2 jumped = s.world.body_state(s.rider)->xf.p;
    for (int i = 0; i < 30; ++i) {
        ASSERT_TRUE(s.world.step(k_dt));
    }
    EXPECT_EQ(s.world.body_state(s.rider)->xf.p, jumped);
}

// Found by a crowd of characters on a tile map (frame 2 of the Move
// benchmark's scene): moving down and a little left, the box reaches the
// band of the character on its left (t 0.590) a little before the floor's
// (t 0.605), beyond the tie tolerance. Closing the gap to the character
// along the motion then carried it 0.04 px into the floor, and the next
// iteration, starting inside the floor, passed through it (2.6 px deep).
// What the closing reaches is met with it: the box ends on the floor,
// touching the character.
TEST(Move, ClosingTheGapToOneContactDoesNotCarryTheBodyIntoAnother) {
    WorldDef def;
    def.length_units_per_meter = 16;
    World world = std::move(World::make(def).value());
    const real touch = world.tolerances().touch_tolerance;
    add_static_box(world, {2392, 2184}, 8, 8); // top at 2192
    const Shape character = make_box(6, 6).value();
    const BodyId other = add_character(world, {2379.9978f, 2198}, character); // right at 2385.9978
    const BodyId c = add_character(world, {2392.52734f, 2202}, character);
    const MoveResult r = world.move(c, {-0.863002777f, -6.58165741f}).value();
    EXPECT_GE(r.position.y - 6, 2192 - touch); // on the floor, not in it
    EXPECT_NEAR(r.position.y - 6, 2192, touch);
    EXPECT_GE(r.position.x - 6, 2385.9978f - touch); // against the character
    EXPECT_NEAR(r.position.x - 6, 2385.9978f, touch);
    ASSERT_FALSE(r.contacts.empty());
    EXPECT_TRUE(std::any_of(r.contacts.begin(), r.contacts.end(),
                            [&](const MoveContact& k) { return k.other == other; }));
    EXPECT_TRUE(std::any_of(r.contacts.begin(), r.contacts.end(), [&](const MoveContact& k) {
        return k.normal == Vec2{0, 1};
    }));
}

} // namespace
} // namespace sweep
