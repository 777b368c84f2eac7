// The crack problem under World::step: floors and walls built from separate
// static tiles behave as one surface wherever the tiles lie flush (the
// covered-face rule of src/seams.hpp), and still block wherever a face is
// bare. Checked against motion computed without the solver: a frictionless
// slide keeps its speed exactly, a rolling disc keeps v = w r, a resting box
// stays where it was put.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "sweep/world.hpp"
#include "world_body.hpp"

namespace sweep {
namespace {

constexpr real k_dt = real(1) / 60;
constexpr int k_tiles = 24;
const Material k_ice{1, 0, 0};

World make_world(int solver_substeps = WorldDef{}.solver_substeps) {
    WorldDef def;
    def.measure_penetration = true;
    def.solver_substeps = solver_substeps;
    return std::move(World::make(def).value());
}

BodyId add(World& world, BodyType type, const Shape& shape, Vec2 position, Vec2 velocity = {},
           Material material = k_ice, real angular_velocity = 0) {
    return test::add_body(world, type, shape, position, velocity, material, angular_velocity);
}

// A floor of separate 1 L tiles over x in [0, k_tiles]: tile i's top at
// top(i), its bottom at -1.
template <class Top> void add_floor(World& world, Top&& top, Material material = k_ice) {
    for (int i = 0; i < k_tiles; ++i) {
        const real height = top(i) + 1;
        add(world, BodyType::static_body, make_box(0.5f, 0.5f * height).value(),
            {real(i) + 0.5f, top(i) - 0.5f * height}, {}, material);
    }
}

void add_flat_floor(World& world, Material material = k_ice) {
    add_floor(
        world, [](int) { return real(0); }, material);
}

real slop(const World& world) { return world.tolerances().linear_slop; }

// `speed` (L/s) and `angle` (rad): how far the box may stray from 8 L/s and
// level.
void expect_box_slides_over_flush_tiles(int solver_substeps, real speed, real angle) {
    for (const real direction : {real(1), real(-1)}) {
        World world = make_world(solver_substeps);
        add_flat_floor(world);
        const real start = direction > 0 ? 2 : k_tiles - 2;
        const BodyId box = add(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(),
                               {start, 0.5f}, {8 * direction, 0});
        // 2.5 s: 20 L, over 20 seams, with no seam exactly under an edge at a step's end.
        for (int i = 1; i <= 150; ++i) {
            ASSERT_TRUE(world.step(k_dt));
            const BodyState s = *world.body_state(box);
            ASSERT_NEAR(s.linear_velocity.x, 8 * direction, speed)
                << "direction " << direction << " step " << i;
            ASSERT_NEAR(s.xf.p.y, 0.5f, slop(world)) << "direction " << direction << " step " << i;
            ASSERT_NEAR(s.xf.q.angle(), 0, angle) << "direction " << direction << " step " << i;
        }
        EXPECT_NEAR(world.body_state(box)->xf.p.x, start + 20 * direction, 0.01f);
        EXPECT_EQ(world.stats().toi_events, 0) << "the final sweep stopped it at a seam";
    }
}

TEST(TileSeams, FrictionlessBoxSlidesOverFlushTilesAtConstantSpeedBothWays) {
    // The one-step solve keeps the box level within 2e-7 rad.
    expect_box_slides_over_flush_tiles(1, 1e-3f, 1e-4f);
    // Sub-steps, one sweep each, leave a little of each seam's new contact
    // unsolved: the box settles toward the slop a corner first (1.3e-4 rad
    // after 20 seams going left with 8 sub-steps, none going right; 6e-5
    // with 12), and the tilted face's normal changes its speed by up to
    // 1.0e-3 L/s (3e-4 with 12). Level within a twentieth of a slop from
    // corner to corner, its speed within 0.03 %.
    const real slop = k_linear_slop;
    expect_box_slides_over_flush_tiles(WorldDef{}.solver_substeps, 2.5e-3f, 0.05f * slop);
}

TEST(TileSeams, BoxSlidesDownAStepOfAFifthOfTheSlopWithoutStopping) {
    World world = make_world();
    const real drop = real(0.2) * slop(world);
    add_floor(world, [&](int i) { return i < k_tiles / 2 ? real(0) : -drop; });
    const BodyId box =
        add(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {4, 0.5f}, {8, 0});
    for (int i = 1; i <= 150; ++i) { // 20 L: across the step at x = 12 and on
        ASSERT_TRUE(world.step(k_dt));
        const BodyState s = *world.body_state(box);
        ASSERT_NEAR(s.linear_velocity.x, 8, 1e-2) << "step " << i;
        // Lying across the step's corner tilts it by drop / 0.5 at most.
        ASSERT_NEAR(s.xf.q.angle(), 0, 2 * drop / 0.5f) << "step " << i;
        ASSERT_LE(s.xf.p.y, 0.5f + slop(world)) << "it hopped at step " << i;
    }
    const BodyState end = *world.body_state(box);
    EXPECT_NEAR(end.xf.p.x, 24, 0.02f);
    EXPECT_NEAR(end.xf.p.y, 0.5f - drop, slop(world)); // down on the lower tiles
}

TEST(TileSeams, DiscRollsOverFlushTilesWithoutHoppingOrSlowing) {
    for (const real direction : {real(1), real(-1)}) {
        World world = make_world();
        const Material rubber{1, real(0.6), 0};
        add_flat_floor(world, rubber);
        const real start = direction > 0 ? 2 : k_tiles - 2;
        const real v = 6 * direction;
        const BodyId disc = add(world, BodyType::dynamic, make_circle({}, 0.5f).value(),
                                {start, 0.5f}, {v, 0}, rubber, -v / 0.5f); // rolling: w = -v / r
        for (int i = 1; i <= 150; ++i) {                                   // 15 L
            ASSERT_TRUE(world.step(k_dt));
            const BodyState s = *world.body_state(disc);
            ASSERT_NEAR(s.linear_velocity.x, v, 1e-2) << "direction " << direction << " step " << i;
            ASSERT_NEAR(s.angular_velocity, -v / 0.5f, 2e-2) << "step " << i;
            ASSERT_NEAR(s.center.y, 0.5f, slop(world))
                << "direction " << direction << " step " << i;
        }
        EXPECT_NEAR(world.body_state(disc)->center.x, start + 15 * direction, 0.02f);
    }
}

TEST(TileSeams, BoxDroppedOntoASeamRestsThereWithoutSinkingOrDrifting) {
    // Centred on the seam at x = 10, with an edge exactly on the seam at
    // x = 14, and thrown down fast onto the seam at x = 18.
    struct Drop {
        real x;
        real height;
        real speed;
    };
    const std::vector<Drop> drops{{10, 2, 0}, {14.5f, 2, 0}, {18, 1, -60}};
    World world = make_world();
    add_flat_floor(world);
    std::vector<BodyId> boxes;
    for (const Drop& d : drops) {
        boxes.push_back(add(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {d.x, d.height},
                            {0, d.speed}));
    }
    for (int i = 0; i < 180; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        EXPECT_LE(world.stats().max_penetration, 2 * slop(world)) << "step " << i;
    }
    for (std::size_t k = 0; k < drops.size(); ++k) {
        const BodyState s = *world.body_state(boxes[k]);
        EXPECT_NEAR(s.xf.p.x, drops[k].x, 1e-4) << "box " << k;
        EXPECT_GE(s.xf.p.y, 0.5f - slop(world)) << "box " << k;
        EXPECT_LE(s.xf.p.y, 0.5f + slop(world)) << "box " << k;
        EXPECT_NEAR(s.xf.q.angle(), 0, 1e-4) << "box " << k;
        EXPECT_LT(length(s.linear_velocity), 1e-2f) << "box " << k;
    }
}

TEST(TileSeams, ACornerPokingIntoTheCrackBetweenTwoTilesIsHeldUp) {
    // A diamond (a box turned 45 degrees, its rotation fixed) standing on its
    // bottom vertex a hair past the seam at x = 12. Each tile alone sees the
    // vertex nearer its side face than its top; merely dropping contacts on
    // covered faces left nothing holding it up, and it sank into the crack.
    for (const real offset : {real(-1e-3), real(0), real(1e-3)}) {
        World world = make_world();
        add_flat_floor(world);
        const real half = 0.5f;
        const real lift = half * std::sqrt(real(2)); // centre above the bottom vertex
        BodyDef def;
        def.type = BodyType::dynamic;
        def.position = {12 + offset, lift};
        def.angle = real(0.25) * real(3.14159265358979);
        def.fixed_rotation = true;
        const ShapeDef sd(make_box(half, half).value(), k_ice);
        const BodyId diamond = world.create_body(def, std::span(&sd, 1)).value();
        for (int i = 0; i < 180; ++i) {
            ASSERT_TRUE(world.step(k_dt));
            EXPECT_LE(world.stats().max_penetration, 2 * slop(world))
                << "offset " << offset << ", step " << i;
        }
        EXPECT_GE(world.body_state(diamond)->xf.p.y, lift - 2 * slop(world)) << offset;
    }
}

TEST(TileSeams, WallsOfTilesStillBlockWhereTheirFacesAreBare) {
    // A wall two tiles high standing on the floor tiles at x = 12 stops a box
    // sliding into it, slow or fast (how it ends up there is
    // BoxSlidingIntoTheFootOfAWallStaysOnTheFloor's business); a
    // tall tile at x = 12 whose left face a floor tile covers below y = 0
    // only stops it square to the face and keeps it on the floor (the
    // contact keeps its bare extent, so the box does not tip). The box is
    // 0.8 L high, so that its top is level with no tile's edge.
    struct Case {
        const char* name;
        bool tall_tile;
        real speed;
    };
    for (const Case& c :
         {Case{"wall of tiles, 8 L/s", false, 8}, Case{"wall of tiles, 300 L/s", false, 300},
          Case{"tall tile, 8 L/s", true, 8}}) {
        World world = make_world();
        add_floor(world, [&](int i) { return c.tall_tile && i == 12 ? real(2) : real(0); });
        if (!c.tall_tile) {
            for (int j = 0; j < 2; ++j) {
                add(world, BodyType::static_body, make_box(0.5f, 0.5f).value(),
                    {12.5f, real(j) + 0.5f});
            }
        }
        const BodyId box =
            add(world, BodyType::dynamic, make_box(0.5f, 0.4f).value(), {2, 0.4f}, {c.speed, 0});
        for (int i = 0; i < 120; ++i) {
            ASSERT_TRUE(world.step(k_dt));
            const BodyState s = *world.body_state(box);
            ASSERT_LE(s.xf.p.x, 12 - 0.5f + slop(world)) << c.name << ", step " << i;
            if (c.tall_tile) {
                ASSERT_NEAR(s.xf.q.angle(), 0, 1e-3) << c.name << ", step " << i;
                ASSERT_NEAR(s.xf.p.y, 0.4f, slop(world)) << c.name << ", step " << i;
            }
        }
        if (c.tall_tile) { // frictionless and inelastic: it ends against the face
            EXPECT_NEAR(world.body_state(box)->xf.p.x, 12 - 0.5f, 2 * slop(world));
        }
    }
}

// A box sliding along a floor into a wall standing on that floor meets the
// wall's foot with its own bottom corner level with the wall's bottom
// corner. Apart by more than 0.1 slop, collide_polygons takes the two
// corners for the closest features (the faces are parallel, and the closest
// points of parallel segments come out at their ends) and makes one
// speculative point there, at the box's bottom edge, instead of two across
// the face: the stopping impulse turned the box, which tipped and hopped
// (0.2 L at 8 L/s) or, at 300 L/s, climbed the wall and landed on top of it.
// The wall's bottom corner lies on the floor (a buried vertex), so the world
// makes the contact on the wall's face, across the box's whole side.
TEST(TileSeams, BoxSlidingIntoTheFootOfAWallStaysOnTheFloor) {
    for (const real speed : {real(8), real(300)}) {
        World world = make_world();
        add(world, BodyType::static_body, make_box(12, 0.5f).value(), {12, -0.5f});
        add(world, BodyType::static_body, make_box(0.5f, 1).value(), {12.5f, 1});
        const BodyId box =
            add(world, BodyType::dynamic, make_box(0.5f, 0.4f).value(), {2, 0.4f}, {speed, 0});
        for (int i = 0; i < 120; ++i) {
            ASSERT_TRUE(world.step(k_dt));
            const BodyState s = *world.body_state(box);
            ASSERT_NEAR(s.xf.p.y, 0.4f, slop(world)) << speed << " L/s, step " << i;
            ASSERT_NEAR(s.xf.q.angle(), 0, 1e-3) << speed << " L/s, step " << i;
        }
        EXPECT_NEAR(world.body_state(box)->xf.p.x, 12 - 0.5f, 2 * slop(world)) << speed;
    }
}

// T-junctions: a static segment standing on a floor (its end in or on the
// floor's surface) has no corner there. A wedge in the corner, its bottom
// half a slop into the floor and its acute bottom-right corner 2.5 slops
// into the partition, has the segment's end inside it: the raw manifold
// takes the wedge's sloping face (2.1 slops deep, less than 2.5), whose
// normal pushes the wedge down into the floor as much as off the partition.
// The world makes the contact on the partition's face instead.
World make_weightless_world() {
    WorldDef def;
    def.gravity = {0, 0};
    return std::move(World::make(def).value());
}

// The touching manifold between `body` and `wall` after one step.
Manifold contact_after_a_step(World& world, BodyId body, BodyId wall) {
    EXPECT_TRUE(world.step(k_dt));
    for (const ContactData& c : world.touching_contacts()) {
        if ((c.body_a == body && c.body_b == wall) || (c.body_a == wall && c.body_b == body)) {
            return c.manifold;
        }
    }
    ADD_FAILURE() << "no contact";
    return {};
}

TEST(TJunctions, WedgeInTheCornerOfAPartitionStandingOnAFloorIsPushedOffItsFace) {
    // The floor: a box, a two-sided segment (the partition's end on its
    // middle), and a chain (one-sided, solid below).
    const std::vector<Vec2> chain_points{{-5, -1}, {5, -1}, {5, 0}, {-5, 0}}; // counter-clockwise
    const std::vector<Shape> floors{make_offset_box(5, 0.5f, {0, -0.5f}, 0).value(),
                                    make_segment({-5, 0}, {5, 0}).value(),
                                    make_chain_loop(chain_points).value()[2]};
    for (std::size_t f = 0; f < floors.size(); ++f) {
        World world = make_weightless_world();
        const real s = slop(world);
        add(world, BodyType::static_body, floors[f], {});
        const BodyId partition =
            add(world, BodyType::static_body, make_segment({0, 0}, {0, 3}).value(), {});
        const std::vector<Vec2> wedge{{-1, 0}, {0, 0}, {-0.39f, 0.92f}, {-1, 0.92f}};
        const Vec2 start{2.5f * s, -0.5f * s};
        const BodyId body = add(world, BodyType::dynamic, make_polygon(wedge).value(), start);
        const Manifold m = contact_after_a_step(world, body, partition);
        ASSERT_GT(m.count, 0) << "floor " << f;
        EXPECT_NEAR(std::abs(m.normal.x), 1, 1e-5) << "floor " << f;
        const BodyState after = *world.body_state(body);
        EXPECT_LT(after.xf.p.x, start.x - 0.5f * s) << "floor " << f << ": pushed off the face";
        real lowest = 0;
        for (const Vec2 v : wedge) {
            lowest = std::min(lowest, transform_point(after.xf, v).y);
        }
        EXPECT_GE(lowest, -1.5f * s) << "floor " << f << ": pushed into the floor";
    }
}

// A small triangle straddling a thin partition, its centre just above it
// but its top nearer the far surface than its bottom is to the near one:
// the least translation pushes it down through the partition, which the
// final sweep never allows, so it stayed 8 slops deep for good (seed 60714
// of the random scenes). It goes back up, to the side its centre is on.
TEST(TJunctions, ShapeStraddlingAThinPartitionGoesBackToTheSideOfItsCentre) {
    World world = make_weightless_world();
    const real s = slop(world);
    add(world, BodyType::static_body, make_segment({-5, 0}, {5, 0}).value(), {});
    const std::vector<Vec2> triangle{{0, 0.0398f}, {-0.0635f, -0.0498f}, {0.0627f, 0.0326f}};
    const BodyId body = add(world, BodyType::dynamic, make_polygon(triangle).value(), {});
    ASSERT_TRUE(world.step(k_dt));
    const BodyState after = *world.body_state(body);
    for (const Vec2 v : triangle) {
        EXPECT_GE(transform_point(after.xf, v).y, -1.5f * s) << "pushed through, or left inside";
    }
}

// The same wedge at the foot of a wall box standing on a floor box: the
// wall's bottom corner lies on the floor, so it is no corner either.
TEST(TJunctions, WedgeAtTheFootOfAWallIsPushedOffItsFace) {
    World world = make_weightless_world();
    const real s = slop(world);
    add(world, BodyType::static_body, make_offset_box(5, 0.5f, {0, -0.5f}, 0).value(), {});
    const BodyId wall =
        add(world, BodyType::static_body, make_offset_box(0.5f, 1.5f, {0.5f, 1.5f}, 0).value(), {});
    const std::vector<Vec2> wedge{{-1, 0}, {0, 0}, {-0.39f, 0.92f}, {-1, 0.92f}};
    const Vec2 start{2.5f * s, -0.5f * s};
    const BodyId body = add(world, BodyType::dynamic, make_polygon(wedge).value(), start);
    const Manifold m = contact_after_a_step(world, body, wall);
    ASSERT_GT(m.count, 0);
    EXPECT_NEAR(std::abs(m.normal.x), 1, 1e-5);
    EXPECT_LT(world.body_state(body)->xf.p.x, start.x - 0.5f * s) << "pushed off the face";
}

// Ends that meet at a vertex (a polyline's corner, a ring of segments) are
// a real corner: a disc on the tip of a V of two segments keeps its contact
// on the rounded tip, normal from the tip to its centre.
TEST(TJunctions, SegmentsMeetingAtTheirEndsKeepTheirCorner) {
    World world = make_weightless_world();
    const BodyId upper =
        add(world, BodyType::static_body, make_segment({0, 0}, {2, 1}).value(), {});
    add(world, BodyType::static_body, make_segment({0, 0}, {2, -1}).value(), {});
    const real r = 0.5f;
    const Vec2 direction = normalize(Vec2{-1, 0.2f});
    const BodyId disc = add(world, BodyType::dynamic, Circle{{}, r},
                            (r - 0.5f * slop(world)) * direction);
    const Manifold m = contact_after_a_step(world, disc, upper);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(std::abs(dot(m.normal, direction)), 1, 1e-4);
}

// Moving platforms built of tiles: the shapes of one kinematic body lie
// flush as the static tiles above do, and the same rule makes them one
// surface. Checked in the platform's frame: the platform moves at a
// constant velocity, so a frictionless box sliding on it keeps its
// velocity, and its height above the tops stays put.
struct Platform {
    BodyId body;
    Vec2 velocity;
};

// k_tiles tiles of 1 L in one kinematic body, tops at y = 0 in its frame
// (origin at the left end of the tops), moving at `velocity`; tile
// `tall_tile` (if any) stands 2 L high.
Platform add_platform(World& world, Vec2 velocity, int tall_tile = -1) {
    std::vector<ShapeDef> tiles;
    for (int i = 0; i < k_tiles; ++i) {
        const real height = i == tall_tile ? 3 : 1;
        tiles.emplace_back(make_offset_box(0.5f, 0.5f * height,
                                           {real(i) + 0.5f, 0.5f * height - 1}, 0).value(),
                           k_ice);
    }
    BodyDef def;
    def.type = BodyType::kinematic;
    def.linear_velocity = velocity;
    return {world.create_body(def, tiles).value(), velocity};
}

TEST(KinematicTileSeams, FrictionlessBoxSlidesOverAMovingPlatformsTilesAtConstantSpeed) {
    // Along the platform's motion, against it, and on a rising platform.
    for (const Vec2 platform_velocity : {Vec2{3, 0}, Vec2{-3, 0}, Vec2{0, 1}}) {
        World world = make_world();
        const Platform platform = add_platform(world, platform_velocity);
        const Vec2 relative{8, 0};
        const BodyId box = add(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {2, 0.5f},
                               platform_velocity + relative);
        const std::string name = "platform at (" + std::to_string(platform_velocity.x) + ", " +
                                 std::to_string(platform_velocity.y) + ")";
        // 2.5 s: 20 L over the tiles, 20 seams.
        for (int i = 1; i <= 150; ++i) {
            ASSERT_TRUE(world.step(k_dt));
            const BodyState s = *world.body_state(box);
            const Vec2 top = world.body_state(platform.body)->xf.p;
            ASSERT_NEAR(s.linear_velocity.x, platform_velocity.x + relative.x, 1e-3)
                << name << ", step " << i;
            ASSERT_NEAR(s.xf.p.y - top.y, 0.5f, slop(world)) << name << ", step " << i;
            ASSERT_NEAR(s.xf.q.angle(), 0, 1e-4) << name << ", step " << i;
        }
        EXPECT_EQ(world.stats().toi_events, 0) << name;
    }
}

TEST(KinematicTileSeams, AMovingPlatformsTallTileStillStopsABoxSlidingIntoIt) {
    World world = make_world();
    const Platform platform = add_platform(world, {3, 0}, 12);
    const BodyId box =
        add(world, BodyType::dynamic, make_box(0.5f, 0.4f).value(), {2, 0.4f}, {11, 0});
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        const BodyState s = *world.body_state(box);
        const Vec2 origin = world.body_state(platform.body)->xf.p;
        ASSERT_LE(s.xf.p.x - origin.x, 12 - 0.5f + slop(world)) << "step " << i;
        ASSERT_NEAR(s.xf.p.y - origin.y, 0.4f, slop(world)) << "step " << i;
        ASSERT_NEAR(s.xf.q.angle(), 0, 1e-3) << "step " << i;
    }
    // Frictionless and inelastic: it ends against the tile's face, carried.
    const BodyState s = *world.body_state(box);
    EXPECT_NEAR(s.xf.p.x - world.body_state(platform.body)->xf.p.x, 12 - 0.5f, 2 * slop(world));
    EXPECT_NEAR(s.linear_velocity.x, 3, 1e-3);
}

// TileSeams.BoxSlidingIntoTheFootOfAWallStaysOnTheFloor on a moving
// platform: the wall's bottom corner lies on the floor of the same kinematic
// body (a buried vertex), so the box meets the wall with its whole side.
TEST(KinematicTileSeams, BoxSlidingIntoTheFootOfAWallOnAMovingPlatformStaysOnItsFloor) {
    for (const real speed : {real(8), real(300)}) {
        World world = make_world();
        const std::vector<ShapeDef> parts{
            {make_offset_box(12, 0.5f, {12, -0.5f}, 0).value(), k_ice},
            {make_offset_box(0.5f, 1, {12.5f, 1}, 0).value(), k_ice}};
        BodyDef def;
        def.type = BodyType::kinematic;
        def.linear_velocity = {3, 0};
        const BodyId platform = world.create_body(def, parts).value();
        const BodyId box =
            add(world, BodyType::dynamic, make_box(0.5f, 0.4f).value(), {2, 0.4f}, {3 + speed, 0});
        for (int i = 0; i < 120; ++i) {
            ASSERT_TRUE(world.step(k_dt));
            const BodyState s = *world.body_state(box);
            ASSERT_NEAR(s.xf.p.y, 0.4f, slop(world)) << speed << " L/s, step " << i;
            ASSERT_NEAR(s.xf.q.angle(), 0, 1e-3) << speed << " L/s, step " << i;
        }
        // Frictionless and inelastic: it ends against the wall, carried.
        const BodyState s = *world.body_state(box);
        const real x = s.xf.p.x - world.body_state(platform)->xf.p.x;
        EXPECT_NEAR(x, 12 - 0.5f, 2 * slop(world)) << speed;
        EXPECT_NEAR(s.linear_velocity.x, 3, 1e-3) << speed;
    }
}

// The same with the floor and the wall two kinematic bodies (no buried
// vertex between them), at 300 L/s: the box meets the wall in one
// time-of-impact event, with its whole side (the wall's foot is flush with
// its bottom: collide() once made a single point there, whose impulse spun
// the box without stopping it), and its resting contact with the floor
// makes no events (it once made one after another at the same time, each
// solving a rounding residue, until the event cap clamped the box every
// step, still moving into the wall).
TEST(KinematicTileSeams, FastBoxStopsAtAWallThatIsAnotherKinematicBody) {
    World world = make_world();
    const ShapeDef floor{make_offset_box(12, 0.5f, {12, -0.5f}, 0).value(), k_ice};
    const ShapeDef wall{make_offset_box(0.5f, 1, {12.5f, 1}, 0).value(), k_ice};
    BodyDef def;
    def.type = BodyType::kinematic;
    def.linear_velocity = {3, 0};
    const BodyId platform = world.create_body(def, std::span(&floor, 1)).value();
    (void)world.create_body(def, std::span(&wall, 1)).value();
    const BodyId box =
        add(world, BodyType::dynamic, make_box(0.5f, 0.4f).value(), {2, 0.4f}, {303, 0});
    int cap_hits = 0;
    int pair_events = 0;
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        cap_hits += world.stats().toi_cap_hits;
        pair_events += world.stats().toi_pair_events;
        const BodyState s = *world.body_state(box);
        ASSERT_NEAR(s.xf.p.y, 0.4f, slop(world)) << "step " << i;
        ASSERT_NEAR(s.xf.q.angle(), 0, 1e-3) << "step " << i;
    }
    const BodyState s = *world.body_state(box);
    EXPECT_NEAR(s.xf.p.x - world.body_state(platform)->xf.p.x, 12 - 0.5f, 2 * slop(world));
    EXPECT_NEAR(s.linear_velocity.x, 3, 1e-3);
    EXPECT_EQ(cap_hits, 0);
    EXPECT_EQ(pair_events, 1);
}

} // namespace
} // namespace sweep
