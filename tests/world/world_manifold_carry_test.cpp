// The contact search carries a pair's manifold from the last step, its
// points moved with the bodies, while the pair has moved less than a tenth
// of the linear slop, one body relative to the other, since collide() made
// it (StepStats::manifolds_carried); it collides again beyond that, and
// after anything that could change the pair's shapes.
#include <gtest/gtest.h>

#include <vector>

#include "sweep/manifold.hpp"
#include "sweep/world.hpp"
#include "world_body.hpp"

namespace sweep {
namespace {

constexpr real k_dt = real(1) / 60;

using test::add_body;

// Sleeping off: a sleeping island is not searched at all.
World make_world() {
    WorldDef def;
    def.enable_sleep = false;
    return std::move(World::make(def).value());
}

BodyId add_ground(World& world, Material material = {}) { // top face at y = 0
    return add_body(world, BodyType::static_body, make_box(10, 0.5f).value(), {0, -0.5f}, {},
                    material);
}

// A box at rest on the ground, settled until its manifold is carried.
BodyId add_settled_box(World& world) {
    add_ground(world);
    const BodyId box = add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {0, 0.5f});
    for (int i = 0; i < 60; ++i) {
        EXPECT_TRUE(world.step(k_dt));
    }
    EXPECT_EQ(world.stats().manifolds_carried, 1);
    return box;
}

// A frictionless box sliding on frictionless ground at 0.03 slops a step:
// its manifold is made afresh at the first step whose pose lies more than
// a tenth of a slop from where the last one was made, and carried in
// between (three steps of four).
TEST(WorldManifoldCarry, ASlidingBoxCollidesAgainOnceItMovedATenthOfASlop) {
    World world = make_world();
    Material ice;
    ice.friction = 0;
    add_ground(world, ice);
    const real slop = world.tolerances().linear_slop;
    const real per_step = real(0.03) * slop;
    const BodyId box = add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {0, 0.5f},
                                {per_step / k_dt, 0}, ice);
    for (int i = 0; i < 30; ++i) { // settle onto the ground
        ASSERT_TRUE(world.step(k_dt));
    }
    std::vector<Vec2> made_at; // the poses fresh manifolds were made at
    int carried = 0;
    for (int i = 0; i < 120; ++i) {
        const Vec2 before = world.body_state(box)->center;
        ASSERT_TRUE(world.step(k_dt));
        ASSERT_EQ(world.stats().contacts, 1) << "step " << i;
        carried += world.stats().manifolds_carried;
        if (world.stats().manifolds_carried == 0) {
            made_at.push_back(before);
        }
    }
    ASSERT_GE(made_at.size(), 20u);
    for (std::size_t k = 1; k < made_at.size(); ++k) {
        const real moved = length(made_at[k] - made_at[k - 1]);
        EXPECT_GT(moved, real(0.1) * slop) << "fresh manifold " << k;
        EXPECT_LE(moved, real(0.1) * slop + real(1.01) * per_step) << "fresh manifold " << k;
    }
    EXPECT_NEAR(carried, 90, 3);
}

// Five boxes at rest on one another: once settled, nearly every pair
// carries its manifold, and the stack stands as without.
TEST(WorldManifoldCarry, ARestingStackCarriesItsManifolds) {
    World world = make_world();
    add_ground(world);
    std::vector<BodyId> boxes;
    for (int i = 0; i < 5; ++i) {
        boxes.push_back(add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(),
                                 {0, real(0.5) + real(i)}));
    }
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(world.step(k_dt));
    }
    const Vec2 top = world.body_state(boxes.back())->center;
    int contacts = 0;
    int carried = 0;
    for (int i = 0; i < 600; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        contacts += world.stats().contacts;
        carried += world.stats().manifolds_carried;
    }
    EXPECT_EQ(contacts, 5 * 600);
    EXPECT_GE(carried, contacts * 95 / 100);
    EXPECT_LT(length(world.body_state(boxes.back())->center - top), world.tolerances().linear_slop);
}

// A body destroyed and another made in its place, which takes its shape's
// slot, collides afresh: the old box's two-point manifold is not carried
// to the disc, whose one point is at its bottom.
TEST(WorldManifoldCarry, AShapeMadeInADestroyedOnesSlotCollidesAfresh) {
    World world = make_world();
    const BodyId box = add_settled_box(world);
    const BodyState at = world.body_state(box).value();
    const ShapeId old_shape = world.body_shapes(box).value()[0];
    ASSERT_TRUE(world.destroy_body(box));
    const BodyId disc = add_body(world, BodyType::dynamic, Circle{{}, 0.5f}, at.xf.p);
    ASSERT_EQ(world.body_shapes(disc).value()[0].index, old_shape.index); // (else it tests nothing)
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.stats().manifolds_carried, 0);
    ASSERT_EQ(world.touching_contacts().size(), 1u);
    const Manifold& m = world.touching_contacts()[0].manifold;
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.points[0].point.x, world.body_state(disc)->center.x,
                world.tolerances().linear_slop);
}

// A filter change may change which static neighbours cover a tile's
// faces: the next step collides every pair afresh.
TEST(WorldManifoldCarry, ASetFilterMakesTheNextStepCollideAfresh) {
    World world = make_world();
    const BodyId box = add_settled_box(world);
    Filter filter;
    filter.category_bits = 2;
    ASSERT_TRUE(world.set_filter(world.body_shapes(box).value()[0], filter));
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.stats().contacts, 1);
    EXPECT_EQ(world.stats().manifolds_carried, 0);
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.stats().manifolds_carried, 1);
}

// Destructible terrain: a static tile destroyed or made changes the seams
// of its neighbours alone. In a level of 16 tiles besides the ground, the
// settled box's manifold on the ground is still carried when tiles far away
// come and go, and made afresh once a tile made flush beside the ground
// changes the ground's seams (it covers the ground's side face).
TEST(WorldManifoldCarry, AStaticTileMadeOrDestroyedElsewhereLeavesTheManifoldCarried) {
    World world = make_world();
    const Polygon tile = make_box(0.5f, 0.5f).value();
    std::vector<BodyId> tiles;
    for (int i = 0; i < 16; ++i) {
        tiles.push_back(add_body(world, BodyType::static_body, tile, {real(50 + i), 0}));
    }
    add_settled_box(world);
    ASSERT_TRUE(world.destroy_body(tiles[3]));
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.stats().manifolds_carried, 1);
    add_body(world, BodyType::static_body, tile, {53, 0});
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.stats().manifolds_carried, 1);
    add_body(world, BodyType::static_body, tile, {10.5f, -0.5f});
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.stats().contacts, 1);
    EXPECT_EQ(world.stats().manifolds_carried, 0);
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.stats().manifolds_carried, 1);
}

} // namespace
} // namespace sweep
