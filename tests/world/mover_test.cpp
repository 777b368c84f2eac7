// World::move, collide-and-slide, against hand-derived positions and the
// seeds' scenarios (the crack problem, inner corners, the four responses).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
    // Pressed into the wall and moving up, the box's top edge comes level
    // with the seam y = 2 after five moves: its top corner then touches the
    // next tile's bottom corner, tied with the wall's face. The rule puts
    // the face first and the box slides on; ordered by normal alone the
    // corner leads, its normal (0, -1) blocks the upward motion, and the box
    // stays caught. (A top edge that passes a seam within a move meets no
    // such corner: the catch needs the exact tie.)
    const Vec2 step{-0.125f, 0.125f};
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
