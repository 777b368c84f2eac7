// What a game does to bodies between steps (src/world_bodies.cpp): teleports,
// forces, torques and impulses against Newton's laws and hand-derived
// values, their errors, and calls refused from inside a step or a move.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "sweep/world.hpp"

namespace sweep {
namespace {

constexpr real k_dt = real(1) / 60;

World make_world(Vec2 gravity = {0, -10}, bool sleep = false, int solver_substeps = 8) {
    WorldDef def;
    def.gravity = gravity;
    def.enable_sleep = sleep;
    def.solver_substeps = solver_substeps;
    return std::move(World::make(def).value());
}

BodyId add_body(World& world, BodyType type, const Shape& shape, Vec2 position, real angle = 0,
                Material material = {}) {
    BodyDef def;
    def.type = type;
    def.position = position;
    def.angle = angle;
    const ShapeDef sd{shape, material};
    return world.create_body(def, std::span(&sd, 1)).value();
}

void run(World& world, int steps) {
    for (int i = 0; i < steps; ++i) {
        ASSERT_TRUE(world.step(k_dt));
    }
}

// Every field of two states equal to the bit (NaN never occurs here).
void expect_same_state(const BodyState& a, const BodyState& b) {
    EXPECT_EQ(a.xf.p, b.xf.p);
    EXPECT_EQ(a.xf.q.c, b.xf.q.c);
    EXPECT_EQ(a.xf.q.s, b.xf.q.s);
    EXPECT_EQ(a.center, b.center);
    EXPECT_EQ(a.linear_velocity, b.linear_velocity);
    EXPECT_EQ(a.angular_velocity, b.angular_velocity);
    EXPECT_EQ(a.awake, b.awake);
}

// A floor of tiles, a tilted box and a disc falling on it, and a static
// ledge: each body either made at its place, or made elsewhere and
// teleported there before the first step.
struct Pile {
    World world = make_world();
    BodyId box, disc, ledge;
};

Pile make_pile(bool teleported) {
    Pile p;
    for (int i = 0; i < 8; ++i) {
        add_body(p.world, BodyType::static_body, make_box(0.5f, 0.5f).value(),
                 {static_cast<real>(i) - 4, -0.5f});
    }
    const Vec2 far{40, 40};
    const Shape box = make_box(0.4f, 0.3f).value();
    const Shape disc = Circle{{}, 0.35f};
    const Shape ledge = make_box(1, 0.1f).value();
    p.box = add_body(p.world, BodyType::dynamic, box, teleported ? far : Vec2{-1, 2},
                     teleported ? 0 : real(0.3));
    p.disc = add_body(p.world, BodyType::dynamic, disc,
                      teleported ? far + Vec2{3, 0} : Vec2{-0.8f, 3.5f});
    p.ledge = add_body(p.world, BodyType::static_body, ledge, teleported ? -far : Vec2{2, 1});
    if (teleported) {
        EXPECT_TRUE(p.world.set_transform(p.box, {-1, 2}, real(0.3)));
        EXPECT_TRUE(p.world.set_transform(p.disc, {-0.8f, 3.5f}, 0));
        EXPECT_TRUE(p.world.set_transform(p.ledge, {2, 1}, 0));
    }
    return p;
}

// Steps two piles, and expects body `a` of one and body `b` of the other,
// and the piles' discs, to end in the same states to the bit, `a` having
// fallen into its pile.
void expect_same_piles(Pile& one, BodyId a, Pile& other, BodyId b) {
    for (int i = 0; i < 150; ++i) {
        ASSERT_TRUE(one.world.step(k_dt));
        ASSERT_TRUE(other.world.step(k_dt));
    }
    expect_same_state(one.world.body_state(a).value(), other.world.body_state(b).value());
    expect_same_state(one.world.body_state(one.disc).value(),
                      other.world.body_state(other.disc).value());
    EXPECT_LT(one.world.body_state(a)->center.y, 2);
}

// A teleport leaves nothing behind: the bodies, the proxies and the static
// broadphase are as if made there, so the step gives the same states to
// the bit (every contact search orders its pairs by shape, not by the
// trees' layout).
TEST(WorldBodies, BodiesTeleportedBeforeTheFirstStepMoveAsIfMadeThere) {
    Pile made = make_pile(false);
    Pile teleported = make_pile(true);
    expect_same_piles(made, made.box, teleported, teleported.box);
    // The pile came to rest on the floor (so the check above saw contacts).
    EXPECT_LT(made.world.body_state(made.box)->center.y, 1);
    EXPECT_GT(made.world.stats().contacts, 1);
}

TEST(WorldBodies, ABoxOnATeleportedPlatformWakesAndFallsThenLandsWhereItIsTeleported) {
    World world = make_world({0, -10}, true);
    const BodyId platform =
        add_body(world, BodyType::static_body, make_box(2, 0.25f).value(), {0, 0});
    const BodyId box = add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {0, 1});
    run(world, 120);
    ASSERT_FALSE(world.body_state(box)->awake); // asleep on the platform
    const real slop = world.tolerances().linear_slop;
    EXPECT_NEAR(world.body_state(box)->center.y, 0.75f, slop);

    ASSERT_TRUE(world.set_transform(platform, {10, -5}, 0));
    EXPECT_TRUE(world.body_state(box)->awake);
    EXPECT_EQ(world.body_state(platform)->xf.p, (Vec2{10, -5}));
    run(world, 30); // half a second of free fall: 1.25 m
    EXPECT_LT(world.body_state(box)->center.y, 0.75f - 1);

    // Teleported above the platform, turned a quarter, it lands on it.
    ASSERT_TRUE(world.set_transform(box, {10, -3}, real(1.5707964)));
    EXPECT_EQ(world.body_state(box)->center, (Vec2{10, -3}));
    run(world, 120);
    const BodyState s = world.body_state(box).value();
    EXPECT_NEAR(s.center.y, -5 + 0.25f + 0.5f, 2 * slop);
    EXPECT_NEAR(s.center.x, 10, 1e-3f);
}

TEST(WorldBodies, SetTransformRejectsBadInputAndChangesNothing) {
    World world = make_world();
    const BodyId box =
        add_body(world, BodyType::dynamic, make_box(1, 1).value(), {1, 2}, real(0.5));
    const BodyState before = world.body_state(box).value();
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    EXPECT_EQ(world.set_transform(box, {nan, 0}, 0).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.set_transform(box, {0, inf}, 0).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.set_transform(box, {0, 0}, nan).error().code, ErrorCode::invalid_input);
    // The box beyond k_max_coordinate.
    EXPECT_EQ(world.set_transform(box, {2 * k_max_coordinate, 0}, 0).error().code,
              ErrorCode::invalid_input);
    expect_same_state(world.body_state(box).value(), before);
    ASSERT_TRUE(world.destroy_body(box));
    EXPECT_EQ(world.set_transform(box, {0, 0}, 0).error().code, ErrorCode::stale_handle);
    EXPECT_EQ(world.set_transform(BodyId{}, {0, 0}, 0).error().code, ErrorCode::stale_handle);
}

// A body made static and turned dynamic before the first step moves as one
// made dynamic there, to the bit: the same mass, centre and inertia, the
// same proxies (a body made kinematic and turned dynamic too).
// reserve only makes room: a pile made after it, or reserved for when half
// made (its records moved), steps as one made without it, to the bit, and
// its handles stay good.
TEST(WorldBodies, ReserveChangesNoHandleAndNoStep) {
    Pile plain = make_pile(false);
    Pile reserved;
    ASSERT_TRUE(reserved.world.reserve(64, 64));
    const BodyId early = add_body(reserved.world, BodyType::dynamic, Circle{{}, 0.2f}, {3, 3});
    ASSERT_TRUE(reserved.world.reserve(4096, 8192)); // its records move
    ASSERT_TRUE(reserved.world.body_state(early));
    ASSERT_TRUE(reserved.world.destroy_body(early)); // its record is made again below
    for (int i = 0; i < 8; ++i) {
        add_body(reserved.world, BodyType::static_body, make_box(0.5f, 0.5f).value(),
                 {static_cast<real>(i) - 4, -0.5f});
    }
    reserved.box = add_body(reserved.world, BodyType::dynamic, make_box(0.4f, 0.3f).value(),
                            {-1, 2}, real(0.3));
    reserved.disc = add_body(reserved.world, BodyType::dynamic, Circle{{}, 0.35f}, {-0.8f, 3.5f});
    reserved.ledge =
        add_body(reserved.world, BodyType::static_body, make_box(1, 0.1f).value(), {2, 1});
    ASSERT_FALSE(reserved.world.body_state(early)); // stale, as always
    expect_same_piles(plain, plain.box, reserved, reserved.box);
    expect_same_state(plain.world.body_state(plain.ledge).value(),
                      reserved.world.body_state(reserved.ledge).value());
}

TEST(WorldBodies, ReserveRejectsANegativeCountAndChangesNothing) {
    Pile p = make_pile(false);
    Pile same = make_pile(false);
    for (const auto& [bodies, shapes] : {std::pair{-1, 10}, std::pair{10, -1}}) {
        const Result<void> r = p.world.reserve(bodies, shapes);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, ErrorCode::invalid_input);
    }
    expect_same_piles(p, p.box, same, same.box);
}

TEST(WorldBodies, ABodyTurnedDynamicBeforeTheFirstStepMovesAsOneMadeDynamic) {
    for (const BodyType first : {BodyType::static_body, BodyType::kinematic}) {
        SCOPED_TRACE(static_cast<int>(first));
        Pile made = make_pile(false);
        Pile turned = make_pile(false);
        const Shape shape = make_box(0.3f, 0.2f).value();
        const BodyId a = add_body(made.world, BodyType::dynamic, shape, {0.2f, 3}, real(0.4));
        const BodyId b = add_body(turned.world, first, shape, {0.2f, 3}, real(0.4));
        ASSERT_TRUE(turned.world.set_body_type(b, BodyType::dynamic));
        EXPECT_EQ(turned.world.body_state(b)->mass, made.world.body_state(a)->mass);
        EXPECT_EQ(turned.world.body_state(b)->inertia, made.world.body_state(a)->inertia);
        expect_same_piles(made, a, turned, b);
    }
}

// A box resting on a ledge: the ledge made dynamic falls with it, made
// static again it stops dead and holds the box; made kinematic it keeps
// its velocity and gravity no longer changes it. Box of half sides
// 1 x 0.25, density 3: mass 3 x 2 x 0.5 = 3, inertia m (2^2 + 0.5^2) / 12.
TEST(WorldBodies, ALedgeTurnedDynamicFallsTurnedStaticStopsAndTurnedKinematicKeepsItsSpeed) {
    World world = make_world({0, -10}, true);
    const BodyId ledge = add_body(world, BodyType::static_body, make_box(1, 0.25f).value(), {0, 10},
                                  0, {3, 0.6f, 0});
    const BodyId box =
        add_body(world, BodyType::dynamic, make_box(0.25f, 0.25f).value(), {0, 10.5f});
    run(world, 90);
    ASSERT_FALSE(world.body_state(box)->awake);
    EXPECT_EQ(world.body_state(ledge)->mass, 0);
    EXPECT_EQ(world.body_state(ledge)->inertia, 0);

    ASSERT_TRUE(world.set_body_type(ledge, BodyType::dynamic));
    BodyState s = world.body_state(ledge).value();
    EXPECT_EQ(s.type, BodyType::dynamic);
    EXPECT_FLOAT_EQ(s.mass, 3);
    EXPECT_FLOAT_EQ(s.inertia, 3 * (4 + real(0.25)) / 12);
    EXPECT_TRUE(world.body_state(box)->awake);
    run(world, 30); // half a second of free fall together: 1.25 m
    s = world.body_state(ledge).value();
    EXPECT_NEAR(s.center.y, 10 - 1.29f, 0.05f);
    EXPECT_NEAR(world.body_state(box)->center.y - s.center.y, 0.5f, 0.01f);

    ASSERT_TRUE(world.set_body_type(ledge, BodyType::static_body));
    s = world.body_state(ledge).value();
    EXPECT_EQ(s.linear_velocity, (Vec2{}));
    const real stopped_at = s.center.y;
    run(world, 60);
    EXPECT_EQ(world.body_state(ledge)->center.y, stopped_at);
    EXPECT_NEAR(world.body_state(box)->center.y, stopped_at + 0.5f,
                2 * world.tolerances().linear_slop);

    ASSERT_TRUE(world.set_body_type(ledge, BodyType::dynamic));
    ASSERT_TRUE(world.set_velocity(ledge, {0, -2}, 0));
    ASSERT_TRUE(world.set_body_type(ledge, BodyType::kinematic));
    EXPECT_EQ(world.body_state(ledge)->mass, 0);
    run(world, 30);
    EXPECT_EQ(world.body_state(ledge)->linear_velocity, (Vec2{0, -2}));
    EXPECT_NEAR(world.body_state(ledge)->center.y, stopped_at - 1, 1e-4f);
}

// A step passes static bodies by: one made static in flight, with a force
// and a torque pending, stays where it stopped to the bit, and the loads it
// had are dropped with its velocities (made dynamic again before a step,
// only gravity moves it).
TEST(WorldBodies, ABodyTurnedStaticStaysPutAndDropsTheLoadsItHad) {
    World world = make_world();
    const BodyId box =
        add_body(world, BodyType::dynamic, make_box(0.25f, 0.25f).value(), {0, 5}, real(0.3));
    run(world, 10);
    ASSERT_TRUE(world.apply_force(box, {100, 0}, world.body_state(box)->center + Vec2{0, 0.1f}));
    ASSERT_TRUE(world.apply_torque(box, 5));
    ASSERT_TRUE(world.set_body_type(box, BodyType::static_body));
    const BodyState made = world.body_state(box).value();
    run(world, 60);
    expect_same_state(made, world.body_state(box).value());

    ASSERT_TRUE(world.set_body_type(box, BodyType::dynamic));
    ASSERT_TRUE(world.apply_force(box, {100, 0}, world.body_state(box)->center));
    ASSERT_TRUE(world.set_body_type(box, BodyType::static_body));
    ASSERT_TRUE(world.set_body_type(box, BodyType::dynamic));
    run(world, 1);
    const BodyState s = world.body_state(box).value();
    EXPECT_EQ(s.linear_velocity.x, 0);
    EXPECT_NEAR(s.linear_velocity.y, -10 * k_dt, 1e-5f);
    EXPECT_EQ(s.angular_velocity, 0);
}

TEST(WorldBodies, SetBodyTypeRejectsWhatCannotMoveAndChangesNothing) {
    World world = make_world();
    BodyDef def;
    def.position = {1, 1};
    const std::array<Vec2, 3> points{Vec2{0, 0}, Vec2{1, 0}, Vec2{2, 1}};
    const ShapeDef line{Segment{points[0], points[1]}, {}};
    const BodyId ground = world.create_body(def, std::span(&line, 1)).value();
    const BodyId massless =
        add_body(world, BodyType::kinematic, make_box(1, 1).value(), {5, 5}, 0, {0, 0.6f, 0});
    EXPECT_EQ(world.set_body_type(ground, BodyType::dynamic).error().code,
              ErrorCode::invalid_input);
    EXPECT_EQ(world.set_body_type(ground, BodyType::kinematic).error().code,
              ErrorCode::invalid_input);
    EXPECT_EQ(world.set_body_type(massless, BodyType::dynamic).error().code,
              ErrorCode::invalid_input);
    EXPECT_EQ(world.body_state(ground)->type, BodyType::static_body);
    EXPECT_EQ(world.body_state(massless)->type, BodyType::kinematic);
    EXPECT_TRUE(world.set_body_type(massless, BodyType::static_body)); // no mass needed
    EXPECT_TRUE(world.set_body_type(ground, BodyType::static_body));   // as it is
    ASSERT_TRUE(world.destroy_body(ground));
    EXPECT_EQ(world.set_body_type(ground, BodyType::dynamic).error().code, ErrorCode::stale_handle);
}

// A shape added to a body before the first step makes the body one made
// with it, to the bit.
TEST(WorldBodies, AShapeAddedBeforeTheFirstStepMakesTheBodyOneMadeWithIt) {
    Pile made = make_pile(false);
    Pile added = make_pile(false);
    const std::array<ShapeDef, 2> shapes{ShapeDef{make_box(0.3f, 0.2f).value(), {}},
                                         ShapeDef{Circle{{0.4f, 0.3f}, 0.2f}, {2, 0.3f, 0}}};
    BodyDef def;
    def.type = BodyType::dynamic;
    def.position = {0.2f, 3};
    def.angle = 0.4f;
    const BodyId a = made.world.create_body(def, shapes).value();
    const BodyId b = added.world.create_body(def, std::span(shapes).first(1)).value();
    ASSERT_TRUE(added.world.create_shape(b, shapes[1]));
    EXPECT_EQ(added.world.body_state(b)->center, made.world.body_state(a)->center);
    EXPECT_EQ(added.world.body_state(b)->inertia, made.world.body_state(a)->inertia);
    expect_same_piles(made, a, added, b);
}

// Two unit boxes of density 1, centres 2 apart: mass 2, centre midway,
// inertia 2 (1/6) + 2 (1^2) about it. Adding the second to a body spinning
// at 1 rad/s about the first moves its centre, whose velocity becomes that
// point's, w x r = (0, 1): the motion is unchanged. Removing it again
// restores the first box's mass, centre and inertia.
TEST(WorldBodies, AddingAndRemovingAShapeMovesTheCentreOfMassAndKeepsTheMotion) {
    World world = make_world({0, 0});
    BodyDef def;
    def.type = BodyType::dynamic;
    def.angular_velocity = 1;
    const ShapeDef first{make_box(0.5f, 0.5f).value(), {}};
    const BodyId body = world.create_body(def, std::span(&first, 1)).value();
    const ShapeId second =
        world.create_shape(body, {make_offset_box(0.5f, 0.5f, {2, 0}, 0).value(), {}}).value();
    BodyState s = world.body_state(body).value();
    EXPECT_FLOAT_EQ(s.mass, 2);
    EXPECT_NEAR(s.center.x, 1, 1e-6f);
    EXPECT_NEAR(s.center.y, 0, 1e-6f);
    EXPECT_FLOAT_EQ(s.inertia, 2 * (real(1) / 6) + 2);
    EXPECT_NEAR(s.linear_velocity.x, 0, 1e-6f);
    EXPECT_NEAR(s.linear_velocity.y, 1, 1e-6f);
    EXPECT_EQ(s.angular_velocity, 1);
    EXPECT_EQ(world.shape_info(second)->body, body);
    ASSERT_TRUE(world.destroy_shape(second));
    s = world.body_state(body).value();
    EXPECT_FLOAT_EQ(s.mass, 1);
    EXPECT_NEAR(length(s.center), 0, 1e-6f);
    EXPECT_FLOAT_EQ(s.inertia, real(1) / 6);
    EXPECT_NEAR(length(s.linear_velocity), 0, 1e-6f);
    EXPECT_EQ(world.body_shapes(body)->size(), 1u);
    EXPECT_EQ(world.shape_info(second).error().code, ErrorCode::stale_handle);
}

// A move meets walls with the shapes its body has now: a body of two boxes
// 3 L apart stops where the leading one touches the right wall; with that
// one taken away, where the other does; given a third, 3 L behind, it
// stops where that one touches the left wall.
TEST(WorldBodies, AMoveMeetsTheWallWithTheShapesItsBodyHasNow) {
    World world = make_world({0, 0});
    add_body(world, BodyType::static_body, make_offset_box(0.5f, 2, {5.5f, 0}, 0).value(), {});
    add_body(world, BodyType::static_body, make_offset_box(0.5f, 2, {-2.5f, 0}, 0).value(), {});
    BodyDef def;
    def.type = BodyType::kinematic;
    const std::array<ShapeDef, 2> boxes{
        ShapeDef{make_box(0.5f, 0.5f).value(), {}},
        ShapeDef{make_offset_box(0.5f, 0.5f, {3, 0}, 0).value(), {}}};
    const BodyId body = world.create_body(def, boxes).value();
    ASSERT_TRUE(world.move(body, {10, 0}));
    EXPECT_NEAR(world.body_state(body)->xf.p.x, 1.5f, 1e-5f); // 1.5 + 3 + 0.5 = 5
    ASSERT_TRUE(world.destroy_shape(world.body_shapes(body)->at(1)));
    const MoveResult alone = world.move(body, {10, 0}).value();
    EXPECT_EQ(alone.position, (Vec2{4.5f, 0}));
    EXPECT_EQ(alone.contacts.size(), 1u);
    ASSERT_TRUE(world.create_shape(body, {make_offset_box(0.5f, 0.5f, {-3, 0}, 0).value(), {}}));
    ASSERT_TRUE(world.move(body, {10, 0}));
    EXPECT_NEAR(world.body_state(body)->xf.p.x, 4.5f, 1e-5f);
    ASSERT_TRUE(world.move(body, {-10, 0}));
    EXPECT_NEAR(world.body_state(body)->xf.p.x, 1.5f, 1e-5f); // 1.5 - 3 - 0.5 = -2
}

// A box asleep on the left tile of a static floor of two: the right tile's
// removal leaves it asleep and standing; the left's wakes it and it falls.
TEST(WorldBodies, RemovingTheShapeABoxRestsOnWakesItAndItFalls) {
    World world = make_world({0, -10}, true);
    BodyDef def;
    const std::array<ShapeDef, 2> tiles{
        ShapeDef{make_offset_box(0.5f, 0.5f, {-0.5f, -0.5f}, 0).value(), {}},
        ShapeDef{make_offset_box(0.5f, 0.5f, {3.5f, -0.5f}, 0).value(), {}}};
    const BodyId floor = world.create_body(def, tiles).value();
    const BodyId box =
        add_body(world, BodyType::dynamic, make_box(0.25f, 0.25f).value(), {-0.5f, 0.25f});
    run(world, 90);
    ASSERT_FALSE(world.body_state(box)->awake);
    const std::vector<ShapeId> shapes = world.body_shapes(floor).value();
    ASSERT_TRUE(world.destroy_shape(shapes[1]));
    EXPECT_FALSE(world.body_state(box)->awake);
    ASSERT_TRUE(world.destroy_shape(shapes[0]).error().code == ErrorCode::invalid_input);
    ASSERT_TRUE(world.create_shape(floor, {make_offset_box(0.5f, 0.5f, {8, 8}, 0).value(), {}}));
    ASSERT_TRUE(world.destroy_shape(shapes[0])); // no longer its last
    EXPECT_TRUE(world.body_state(box)->awake);
    run(world, 30);
    EXPECT_LT(world.body_state(box)->center.y, 0.25f - 1);
}

// A shape taken away ends its contacts at the next step (the event names
// its stale handle), and a shape added under a body begins one.
TEST(WorldBodies, AShapeTakenAwayEndsItsContactsAndOneAddedBeginsThem) {
    World world = make_world({0, -10});
    BodyDef def;
    const std::array<ShapeDef, 2> tiles{
        ShapeDef{make_offset_box(0.5f, 0.5f, {0, -0.5f}, 0).value(), {}},
        ShapeDef{make_offset_box(0.5f, 0.5f, {6, -0.5f}, 0).value(), {}}};
    const BodyId floor = world.create_body(def, tiles).value();
    const BodyId box =
        add_body(world, BodyType::dynamic, make_box(0.25f, 0.25f).value(), {0, 0.25f});
    run(world, 10);
    const ShapeId under = world.body_shapes(floor)->at(0);
    ASSERT_EQ(world.touching_contacts().size(), 1u);
    ASSERT_TRUE(world.destroy_shape(under));
    ASSERT_TRUE(world.step(k_dt));
    const auto ends = world.events().contact_end;
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_TRUE(ends[0].shape_a == under || ends[0].shape_b == under);
    EXPECT_TRUE(world.touching_contacts().empty());
    const ShapeId catcher =
        world.create_shape(floor, {make_offset_box(2, 0.5f, {0, -1.5f}, 0).value(), {}}).value();
    bool began = false;
    for (int i = 0; i < 60 && !began; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        for (const ContactBeginEvent& e : world.events().contact_begin) {
            began = began || ((e.shape_a == catcher || e.shape_b == catcher) &&
                              (e.body_a == box || e.body_b == box));
        }
    }
    EXPECT_TRUE(began);
}

// A shape made in place of one taken away (the world reuses its record)
// at a pose the body kept, to the bit, is met as it is: a step remembers a
// shape's boxes at the poses it asked for, and forgets them when the next
// step begins.
TEST(WorldBodies, AShapeMadeWhereOneWasTakenAwayIsMetAsItIs) {
    World world = make_world({0, 0});
    add_body(world, BodyType::static_body, make_box(0.5f, 0.5f).value(), {2, 0});
    BodyDef def;
    def.type = BodyType::dynamic;
    const std::array<ShapeDef, 2> parts{
        ShapeDef{make_box(0.5f, 0.5f).value(), {}},
        ShapeDef{make_offset_box(0.25f, 0.25f, {-3, 0}, 0).value(), {}}};
    const BodyId body = world.create_body(def, parts).value();
    run(world, 2); // apart by 1 L: no contact
    ASSERT_TRUE(world.touching_contacts().empty());
    const Transform before = world.body_state(body).value().xf;
    ASSERT_TRUE(world.destroy_shape(world.body_shapes(body)->at(0)));
    // Reaching 0.1 L into the wall's box.
    const ShapeId wide = world.create_shape(body, {make_box(1.6f, 0.5f).value(), {}}).value();
    ASSERT_TRUE(world.step(k_dt));
    bool met = false;
    for (const ContactData& c : world.touching_contacts()) {
        met = met || c.shape_a == wide || c.shape_b == wide;
    }
    EXPECT_TRUE(met);
    EXPECT_LT(world.body_state(body).value().xf.p.x, before.p.x); // pushed off the wall
}

TEST(WorldBodies, CreateAndDestroyShapeRejectBadInputAndChangeNothing) {
    World world = make_world();
    const BodyId body = add_body(world, BodyType::dynamic, make_box(1, 1).value(), {0, 0});
    const BodyState before = world.body_state(body).value();
    const ShapeDef segment{Segment{{0, 0}, {1, 0}}, {}};
    const ShapeDef far{Circle{{2 * k_max_coordinate, 0}, 1}, {}};
    const ShapeDef slippery{Circle{{}, 1}, {1, -1, 0}};
    for (const ShapeDef& bad : {segment, far, slippery}) {
        EXPECT_EQ(world.create_shape(body, bad).error().code, ErrorCode::invalid_input);
    }
    // The massless shape may join, but the massive one may not leave it alone.
    const ShapeId massless = world.create_shape(body, {Circle{{}, 1}, {0, 0.6f, 0}}).value();
    const ShapeId massive = world.body_shapes(body)->front();
    EXPECT_EQ(world.destroy_shape(massive).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.body_shapes(body)->size(), 2u);
    ASSERT_TRUE(world.destroy_shape(massless));
    expect_same_state(world.body_state(body).value(), before);
    EXPECT_EQ(world.destroy_shape(massless).error().code, ErrorCode::stale_handle);
    EXPECT_EQ(world.create_shape(BodyId{}, segment).error().code, ErrorCode::stale_handle);
}

// A box resting on a 20 degree slope (friction 0.6 > tan 20 degrees) slides
// down it at g sin 20 degrees once the slope's friction is set to 0 (the
// pair's is the geometric mean: 0).
TEST(WorldBodies, ABoxRestingOnASlopeSlidesWhenTheSlopeTurnsToIce) {
    World world = make_world({0, -10}, true);
    const real angle = real(20) * real(3.14159265) / 180;
    const BodyId slope =
        add_body(world, BodyType::static_body, make_box(20, 0.5f).value(), {0, 0}, angle);
    const Vec2 along{std::cos(angle), std::sin(angle)};
    const Vec2 up{-along.y, along.x};
    const BodyId box =
        add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), real(1.0) * up, angle);
    run(world, 120);
    ASSERT_FALSE(world.body_state(box)->awake);
    const Vec2 resting = world.body_state(box)->center;
    Material ice;
    ice.friction = 0;
    ASSERT_TRUE(world.set_material(world.body_shapes(slope)->front(), ice));
    EXPECT_TRUE(world.body_state(box)->awake);
    run(world, 30);
    const real slid = -dot(world.body_state(box)->center - resting, along);
    const real expected = real(0.5) * 10 * std::sin(angle) * real(0.25); // 0.43 m in 0.5 s
    EXPECT_NEAR(slid, expected, 0.05f * expected);
}

// Two unit boxes of a body, centres 2 apart: the second's density from 1 to
// 3 makes the mass 4 and moves the centre to 3 x 2 / 4 = 1.5 from the first.
TEST(WorldBodies, ANewDensityMovesTheMassAndCentreOfItsBody) {
    World world = make_world({0, 0});
    BodyDef def;
    def.type = BodyType::dynamic;
    const std::array<ShapeDef, 2> boxes{
        ShapeDef{make_box(0.5f, 0.5f).value(), {}},
        ShapeDef{make_offset_box(0.5f, 0.5f, {2, 0}, 0).value(), {}}};
    const BodyId body = world.create_body(def, boxes).value();
    ASSERT_TRUE(world.set_material(world.body_shapes(body)->at(1), {3, 0.6f, 0}));
    const BodyState s = world.body_state(body).value();
    EXPECT_FLOAT_EQ(s.mass, 4);
    EXPECT_FLOAT_EQ(s.center.x, 1.5f);
    EXPECT_EQ(world.shape_info(world.body_shapes(body)->at(1))->material.density, 3);
    // A massless body, a restitution above 1, a stale shape: refused.
    const ShapeId first = world.body_shapes(body)->at(0);
    ASSERT_TRUE(world.set_material(first, {0, 0.6f, 0})); // the other keeps the mass
    EXPECT_EQ(world.set_material(world.body_shapes(body)->at(1), {0, 0.6f, 0}).error().code,
              ErrorCode::invalid_input);
    EXPECT_EQ(world.set_material(first, {1, 0.6f, 2}).error().code, ErrorCode::invalid_input);
    EXPECT_FLOAT_EQ(world.body_state(body)->mass, 3);
    ASSERT_TRUE(world.destroy_body(body));
    EXPECT_EQ(world.set_material(first, {}).error().code, ErrorCode::stale_handle);
}

// Gravity scaled by 0 leaves a body at its speed, by -1 pulls it up at g; a
// body asleep on a floor wakes and rises when its scale turns negative.
TEST(WorldBodies, AGravityScaleOfZeroFloatsAndOfMinusOneFallsUp) {
    World world = make_world({0, -10}, true);
    add_body(world, BodyType::static_body, make_box(20, 0.5f).value(), {0, -0.5f});
    const BodyId floating = add_body(world, BodyType::dynamic, Circle{{}, 0.5f}, {-5, 5});
    const BodyId rising = add_body(world, BodyType::dynamic, Circle{{}, 0.5f}, {5, 5});
    const BodyId resting =
        add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {0, 0.5f});
    ASSERT_TRUE(world.set_gravity_scale(floating, 0));
    ASSERT_TRUE(world.set_gravity_scale(rising, -1));
    ASSERT_TRUE(world.set_velocity(floating, {1, 0}, 0));
    run(world, 60);
    EXPECT_EQ(world.body_state(floating)->linear_velocity, (Vec2{1, 0}));
    EXPECT_NEAR(world.body_state(floating)->center.y, 5, 1e-6f);
    EXPECT_EQ(world.body_state(floating)->gravity_scale, 0);
    EXPECT_NEAR(world.body_state(rising)->linear_velocity.y, 10, 1e-4f); // g for 1 s
    ASSERT_FALSE(world.body_state(resting)->awake);
    ASSERT_TRUE(world.set_gravity_scale(resting, -1));
    EXPECT_TRUE(world.body_state(resting)->awake);
    run(world, 30);
    EXPECT_GT(world.body_state(resting)->center.y, 0.5f + 1);
    EXPECT_EQ(world.set_gravity_scale(resting, NAN).error().code, ErrorCode::invalid_input);
}

// Damping c divides the velocity by 1 + dt c every step: after n steps
// v0 / (1 + dt c)^n, spin alike.
TEST(WorldBodies, DampingSetLaterSlowsAsTheStepsDivide) {
    World world = make_world({0, 0});
    const BodyId body = add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {0, 0});
    ASSERT_TRUE(world.set_velocity(body, {10, 0}, 4));
    ASSERT_TRUE(world.set_damping(body, 2, 0.5f));
    constexpr int n = 45;
    run(world, n);
    const BodyState s = world.body_state(body).value();
    const double linear = 10 / std::pow(1 + double(k_dt) * 2, n);
    const double angular = 4 / std::pow(1 + double(k_dt) * 0.5, n);
    EXPECT_NEAR(s.linear_velocity.x, linear, 1e-5 * linear);
    EXPECT_NEAR(s.angular_velocity, angular, 1e-5 * angular);
    EXPECT_EQ(s.linear_damping, 2);
    EXPECT_EQ(s.angular_damping, 0.5f);
    EXPECT_EQ(world.set_damping(body, -1, 0).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.set_damping(body, 0, INFINITY).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(world.body_state(body)->linear_damping, 2);
}

// A spinning box whose rotation is fixed stops turning, and an impulse off
// its centre no longer turns it; freed, the same impulse turns it by r x P
// over the inertia it had (half sides 0.5 x 0.25, mass 0.5: 0.5 x 1.25 / 12).
TEST(WorldBodies, AFixedRotationStopsTheSpinAndFreedTheBodyTurnsAgain) {
    World world = make_world({0, 0});
    const BodyId body = add_body(world, BodyType::dynamic, make_box(0.5f, 0.25f).value(), {0, 0});
    const real inertia = world.body_state(body)->inertia;
    EXPECT_FLOAT_EQ(inertia, real(0.5) * real(1.25) / 12);
    ASSERT_TRUE(world.set_velocity(body, {}, 3));
    ASSERT_TRUE(world.set_fixed_rotation(body, true));
    BodyState s = world.body_state(body).value();
    EXPECT_EQ(s.angular_velocity, 0);
    EXPECT_EQ(s.inertia, 0);
    EXPECT_TRUE(s.fixed_rotation);
    ASSERT_TRUE(world.apply_linear_impulse(body, {0, 1}, {0.5f, 0}));
    EXPECT_EQ(world.body_state(body)->angular_velocity, 0);
    run(world, 10);
    EXPECT_EQ(world.body_state(body)->xf.q.angle(), 0);
    ASSERT_TRUE(world.set_fixed_rotation(body, false));
    EXPECT_EQ(world.body_state(body)->inertia, inertia);
    ASSERT_TRUE(
        world.apply_linear_impulse(body, {0, 1}, world.body_state(body)->center + Vec2{0.5f, 0}));
    EXPECT_FLOAT_EQ(world.body_state(body)->angular_velocity, real(0.5) / inertia);
}

// A body of mass m pushed by a force F in a world without gravity moves
// as one pulled by gravity F / m in a world without the force: the force
// is applied as gravity is, over every part of the step. Its velocity after
// n steps is n dt F / m.
TEST(WorldBodies, AForceAcceleratesAsGravityOfForceOverMassDoes) {
    for (const int substeps : {1, 8}) {
        SCOPED_TRACE(substeps);
        const Vec2 acceleration{3, -2};
        World pushed = make_world({0, 0}, false, substeps);
        World pulled = make_world(acceleration, false, substeps);
        const Shape box = make_box(0.5f, 0.25f).value();
        const Material dense{4, 0.6f, 0};
        const BodyId a = add_body(pushed, BodyType::dynamic, box, {0, 0}, 0, dense);
        const BodyId b = add_body(pulled, BodyType::dynamic, box, {0, 0}, 0, dense);
        const real mass = pushed.body_state(a)->mass;
        EXPECT_FLOAT_EQ(mass, 4 * 1 * 0.5f);
        constexpr int n = 40;
        for (int i = 0; i < n; ++i) {
            const Vec2 centre = pushed.body_state(a)->center;
            ASSERT_TRUE(pushed.apply_force(a, mass * acceleration, centre));
            ASSERT_TRUE(pushed.step(k_dt));
            ASSERT_TRUE(pulled.step(k_dt));
        }
        const BodyState s = pushed.body_state(a).value();
        const BodyState g = pulled.body_state(b).value();
        EXPECT_NEAR(s.linear_velocity.x, n * k_dt * acceleration.x, 1e-4f);
        EXPECT_NEAR(s.linear_velocity.y, n * k_dt * acceleration.y, 1e-4f);
        EXPECT_NEAR(s.center.x, g.center.x, 1e-5f);
        EXPECT_NEAR(s.center.y, g.center.y, 1e-5f);
        EXPECT_EQ(s.angular_velocity, 0); // applied at the centre: no turn
    }
}

// A force off the centre turns the body by the torque r x F over its
// inertia; a torque alone turns it without moving it; a body with fixed
// rotation only moves. Box of half sides 0.5 x 0.25, density 2: mass 1,
// inertia m (w^2 + h^2) / 12 = (1 + 0.25) / 12.
TEST(WorldBodies, AForceOffTheCentreAndATorqueTurnTheBodyByTorqueOverInertia) {
    World world = make_world({0, 0});
    const Shape box = make_box(0.5f, 0.25f).value();
    const Material material{2, 0.6f, 0};
    const BodyId pushed = add_body(world, BodyType::dynamic, box, {0, 0}, 0, material);
    const BodyId twisted = add_body(world, BodyType::dynamic, box, {5, 0}, 0, material);
    BodyDef fixed_def;
    fixed_def.type = BodyType::dynamic;
    fixed_def.position = {-5, 0};
    fixed_def.fixed_rotation = true;
    const ShapeDef sd{box, material};
    const BodyId fixed = world.create_body(fixed_def, std::span(&sd, 1)).value();
    const real inertia = (1 + real(0.25)) / 12;
    const Vec2 force{0, 6};
    // At the box's right end: r = (0.5, 0), torque 0.5 * 6 = 3.
    ASSERT_TRUE(world.apply_force(pushed, force, {0.5f, 0}));
    ASSERT_TRUE(world.apply_torque(twisted, 3));
    ASSERT_TRUE(world.apply_force(fixed, force, {-4.5f, 0}));
    ASSERT_TRUE(world.apply_torque(fixed, 3));
    ASSERT_TRUE(world.step(k_dt));
    const BodyState p = world.body_state(pushed).value();
    EXPECT_NEAR(p.linear_velocity.y, k_dt * 6, 1e-6f);
    EXPECT_NEAR(p.angular_velocity, k_dt * 3 / inertia, 1e-5f);
    const BodyState t = world.body_state(twisted).value();
    EXPECT_EQ(t.linear_velocity, (Vec2{}));
    EXPECT_NEAR(t.angular_velocity, k_dt * 3 / inertia, 1e-5f);
    const BodyState f = world.body_state(fixed).value();
    EXPECT_NEAR(f.linear_velocity.y, k_dt * 6, 1e-6f);
    EXPECT_EQ(f.angular_velocity, 0);
    // The step cleared them: the next one changes nothing.
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.body_state(pushed)->linear_velocity, p.linear_velocity);
    EXPECT_EQ(world.body_state(pushed)->angular_velocity, p.angular_velocity);
    EXPECT_EQ(world.body_state(twisted)->angular_velocity, t.angular_velocity);
}

// An impulse P at point x changes the velocity by P / m and the spin by
// (x - c) x P / I at once (the same box: mass 1, inertia 1.25 / 12); static
// and kinematic bodies ignore impulses and forces.
TEST(WorldBodies, AnImpulseChangesTheVelocitiesByImpulseOverMassAndInertia) {
    World world = make_world();
    const Shape box = make_box(0.5f, 0.25f).value();
    const BodyId body = add_body(world, BodyType::dynamic, box, {1, 1}, 0, {2, 0.6f, 0});
    const real inertia = (1 + real(0.25)) / 12;
    ASSERT_TRUE(world.apply_linear_impulse(body, {2, 0}, {1, 1.25f})); // r = (0, 0.25)
    BodyState s = world.body_state(body).value();
    EXPECT_EQ(s.linear_velocity, (Vec2{2, 0}));
    EXPECT_FLOAT_EQ(s.angular_velocity, -0.5f / inertia); // (0, 0.25) x (2, 0) = -0.5
    ASSERT_TRUE(world.apply_angular_impulse(body, 0.5f));
    EXPECT_NEAR(world.body_state(body)->angular_velocity, 0, 1e-5f);

    const BodyId platform = add_body(world, BodyType::kinematic, box, {5, 5});
    const BodyId ground = add_body(world, BodyType::static_body, box, {-5, -5});
    for (const BodyId other : {platform, ground}) {
        ASSERT_TRUE(world.apply_linear_impulse(other, {5, 5}, {0, 0}));
        ASSERT_TRUE(world.apply_angular_impulse(other, 5));
        ASSERT_TRUE(world.apply_force(other, {5, 5}, {0, 0}));
        ASSERT_TRUE(world.apply_torque(other, 5));
    }
    ASSERT_TRUE(world.step(k_dt));
    for (const BodyId other : {platform, ground}) {
        EXPECT_EQ(world.body_state(other)->linear_velocity, (Vec2{}));
        EXPECT_EQ(world.body_state(other)->angular_velocity, 0);
    }
    EXPECT_EQ(world.body_state(ground)->xf.p, (Vec2{-5, -5}));
}

// Two equal discs, one struck by an impulse into the other: the pair's
// momentum after they meet is the impulse (Newton's third law in the
// contact; no gravity, no friction).
TEST(WorldBodies, AnImpulseStrikingAPairGivesThePairThatMomentum) {
    World world = make_world({0, 0});
    const Material smooth{1, 0, 0};
    const BodyId a = add_body(world, BodyType::dynamic, Circle{{}, 0.5f}, {0, 0}, 0, smooth);
    const BodyId b = add_body(world, BodyType::dynamic, Circle{{}, 0.5f}, {3, 0}, 0, smooth);
    const real mass = world.body_state(a)->mass;
    ASSERT_TRUE(world.apply_linear_impulse(a, {4, 0}, {0, 0}));
    run(world, 90);
    const Vec2 momentum =
        mass * (world.body_state(a)->linear_velocity + world.body_state(b)->linear_velocity);
    EXPECT_GT(world.body_state(b)->linear_velocity.x, 0); // they met
    EXPECT_NEAR(momentum.x, 4, 4e-5f);
    EXPECT_NEAR(momentum.y, 0, 4e-5f);
}

TEST(WorldBodies, ForcesAndImpulsesRejectBadInputAndChangeNothing) {
    World world = make_world();
    const BodyId body = add_body(world, BodyType::dynamic, Circle{{}, 0.5f}, {0, 0});
    const real nan = std::numeric_limits<real>::quiet_NaN();
    const real inf = std::numeric_limits<real>::infinity();
    const real most = std::numeric_limits<real>::max();
    const auto code = [](const Result<void>& r) { return r.error().code; };
    EXPECT_EQ(code(world.apply_force(body, {nan, 0}, {})), ErrorCode::invalid_input);
    EXPECT_EQ(code(world.apply_force(body, {1, 0}, {inf, 0})), ErrorCode::invalid_input);
    EXPECT_EQ(code(world.apply_force(body, {1, 0}, {2 * k_max_coordinate, 0})),
              ErrorCode::invalid_input);
    EXPECT_EQ(code(world.apply_torque(body, inf)), ErrorCode::invalid_input);
    EXPECT_EQ(code(world.apply_linear_impulse(body, {0, nan}, {})), ErrorCode::invalid_input);
    EXPECT_EQ(code(world.apply_angular_impulse(body, nan)), ErrorCode::invalid_input);
    // Velocities beyond the range (k_max_coordinate per second).
    const real mass = world.body_state(body)->mass;
    EXPECT_EQ(code(world.apply_linear_impulse(body, {2 * k_max_coordinate * mass, 0}, {})),
              ErrorCode::invalid_input);
    // A total force that overflows: the first is kept, the second refused.
    ASSERT_TRUE(world.apply_force(body, {most, 0}, world.body_state(body)->center));
    EXPECT_EQ(code(world.apply_force(body, {most, 0}, world.body_state(body)->center)),
              ErrorCode::invalid_input);
    EXPECT_EQ(world.body_state(body)->linear_velocity, (Vec2{}));
    EXPECT_EQ(world.body_state(body)->angular_velocity, 0);
    // The greatest force on a light disc leaves at the speed limit, finite.
    ASSERT_TRUE(world.apply_torque(body, most));
    ASSERT_TRUE(world.step(k_dt));
    const BodyState s = world.body_state(body).value();
    EXPECT_TRUE(std::isfinite(s.linear_velocity.x) && std::isfinite(s.angular_velocity));
    EXPECT_NEAR(length(s.linear_velocity), world.tolerances().max_translation_speed, 1e-2f);
    EXPECT_EQ(code(world.apply_force(BodyId{}, {1, 0}, {})), ErrorCode::stale_handle);
    EXPECT_EQ(code(world.apply_linear_impulse(BodyId{}, {1, 0}, {})), ErrorCode::stale_handle);
    EXPECT_EQ(code(world.set_gravity({nan, 0})), ErrorCode::invalid_input);
    EXPECT_EQ(world.gravity(), (Vec2{0, -10}));
}

TEST(WorldBodies, ForcesImpulsesAndANewGravityWakeSleepingBodies) {
    World world = make_world({0, -10}, true);
    add_body(world, BodyType::static_body, make_box(10, 0.5f).value(), {0, -0.5f});
    const auto resting_box = [&](real x) {
        return add_body(world, BodyType::dynamic, make_box(0.5f, 0.5f).value(), {x, 0.5f});
    };
    const BodyId pushed = resting_box(-6);
    const BodyId struck = resting_box(-2);
    const BodyId lifted = resting_box(2);
    run(world, 90);
    for (const BodyId b : {pushed, struck, lifted}) {
        ASSERT_FALSE(world.body_state(b)->awake);
    }
    ASSERT_TRUE(world.apply_force(pushed, {30, 0}, world.body_state(pushed)->center));
    ASSERT_TRUE(world.apply_linear_impulse(struck, {0, 5}, world.body_state(struck)->center));
    EXPECT_TRUE(world.body_state(pushed)->awake);
    EXPECT_TRUE(world.body_state(struck)->awake);
    EXPECT_FALSE(world.body_state(lifted)->awake);
    ASSERT_TRUE(world.set_gravity({0, 10})); // up
    EXPECT_EQ(world.gravity(), (Vec2{0, 10}));
    EXPECT_TRUE(world.body_state(lifted)->awake);
    run(world, 30);
    EXPECT_GT(world.body_state(pushed)->center.x, -6 + 0.01f);
    EXPECT_GT(world.body_state(lifted)->center.y, 0.5f + 1); // 1.25 m in half a second
}

// Calls that change the world, from a pre-solve hook (inside a step) or a
// move filter (inside a move), would change what the running call walks: a
// body destroyed under the contact search, the hook replaced while it
// runs. They are refused, and the step or move goes on unharmed.
TEST(WorldBodies, CallsThatChangeTheWorldFromInsideAStepOrAMoveAreRefused) {
    World world = make_world();
    const std::array<ShapeDef, 2> halves{
        ShapeDef{make_offset_box(2.5f, 0.5f, {-2.5f, -0.5f}, 0).value(), {}},
        ShapeDef{make_offset_box(2.5f, 0.5f, {2.5f, -0.5f}, 0).value(), {}}};
    const BodyId floor = world.create_body(BodyDef{}, halves).value();
    const BodyId ball = add_body(world, BodyType::dynamic, Circle{{}, 0.5f}, {0, 0.5f});
    const BodyId walker =
        add_body(world, BodyType::kinematic, make_box(0.5f, 0.5f).value(), {3, 0.5f});
    std::vector<ErrorCode> refusals;
    const auto try_all = [&] {
        const ShapeDef sd{Circle{{}, 1}, {}};
        const auto note = [&](const Result<void>& r) {
            refusals.push_back(r ? ErrorCode::invalid_input : r.error().code);
        };
        const Result<BodyId> made = world.create_body(BodyDef{}, std::span(&sd, 1));
        refusals.push_back(made ? ErrorCode::invalid_input : made.error().code);
        note(world.destroy_body(ball));
        note(world.set_transform(ball, {0, 5}, 0));
        note(world.set_body_type(ball, BodyType::kinematic));
        note(world.set_gravity_scale(ball, 0));
        note(world.set_damping(ball, 1, 1));
        note(world.set_fixed_rotation(ball, true));
        const Result<ShapeId> shape = world.create_shape(ball, sd);
        refusals.push_back(shape ? ErrorCode::invalid_input : shape.error().code);
        note(world.destroy_shape(world.body_shapes(floor)->at(1)));
        note(world.set_material(world.body_shapes(floor)->at(1), Material{}));
        note(world.set_velocity(ball, {1, 0}, 0));
        note(world.set_awake(ball, false));
        note(world.set_filter(world.body_shapes(ball)->at(0), Filter{}));
        note(world.apply_force(ball, {1, 0}, {}));
        note(world.apply_torque(ball, 1));
        note(world.apply_linear_impulse(ball, {1, 0}, {}));
        note(world.apply_angular_impulse(ball, 1));
        note(world.set_gravity({0, 1}));
        note(world.set_pre_solve({}));
        note(world.reserve(100, 100));
        note(world.step(k_dt));
        MoveResult scratch;
        note(world.move(walker, {1, 0}, {}, scratch));
    };
    bool called = false;
    ASSERT_TRUE(world.set_pre_solve([&](ShapeId, ShapeId, const Manifold&) {
        if (!called) {
            called = true;
            try_all();
        }
        return true;
    }));
    ASSERT_TRUE(world.step(k_dt));
    ASSERT_TRUE(called);
    const std::size_t calls = refusals.size();
    const MoveResult moved = world
                                 .move(walker, {-1, 0},
                                       [&](BodyId) {
                                           try_all();
                                           return MoveResponse::slide;
                                       })
                                 .value();
    ASSERT_GT(refusals.size(), calls); // the filter was called
    for (const ErrorCode c : refusals) {
        EXPECT_EQ(c, ErrorCode::unsupported);
    }
    EXPECT_EQ(world.body_count(), 3);
    EXPECT_EQ(world.gravity(), (Vec2{0, -10}));
    EXPECT_NEAR(world.body_state(ball)->center.y, 0.5f, world.tolerances().linear_slop);
    EXPECT_EQ(moved.position, (Vec2{2, 0.5f}));
    // Outside them, the same calls work.
    EXPECT_TRUE(world.set_transform(ball, {0, 5}, 0));
    EXPECT_TRUE(world.step(k_dt));
}

} // namespace
} // namespace sweep
