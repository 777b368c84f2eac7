// The world's filters, sensors, events, pre-solve hook, bounds and handles,
// each against what the scene's physics says must happen.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sweep/world.hpp"

namespace sweep {
namespace {

constexpr real k_dt = real(1) / 60;

World make_world(WorldDef def = {}) { return std::move(World::make(def).value()); }

BodyId add_body(World& world, BodyType type, const ShapeDef& shape, Vec2 position,
                Vec2 velocity = {}) {
    BodyDef def;
    def.type = type;
    def.position = position;
    def.linear_velocity = velocity;
    return world.create_body(def, std::span(&shape, 1)).value();
}

BodyId add_ground(World& world, Filter filter = {}) {
    ShapeDef ground(make_box(10, 0.5f).value());
    ground.filter = filter;
    return add_body(world, BodyType::static_body, ground, {0, -0.5f}); // top face at y = 0
}

void step(World& world, int steps = 1) {
    for (int i = 0; i < steps; ++i) {
        ASSERT_TRUE(world.step(k_dt).has_value());
    }
}

TEST(WorldFilter, MaskThatExcludesTheGroundLetsABallFallThrough) {
    World world = make_world();
    add_ground(world, Filter{0x2, ~0ull, 0});
    ShapeDef ball(Circle{{}, 0.25f});
    ball.filter.mask_bits = ~0x2ull; // everything but the ground's category
    const BodyId id = add_body(world, BodyType::dynamic, ball, {0, 1});
    step(world, 60);
    // Free fall for 1 s: far below the ground's top, untouched.
    EXPECT_LT(world.body_state(id)->center.y, -2);
    EXPECT_TRUE(world.touching_contacts().empty());
}

TEST(WorldFilter, NegativeGroupNeverCollidesAndSetFilterRestoresIt) {
    World world = make_world();
    const BodyId ground = add_ground(world, Filter{1, ~0ull, -7});
    ShapeDef ball(Circle{{}, 0.25f});
    ball.filter.group_index = -7;
    const BodyId id = add_body(world, BodyType::dynamic, ball, {0, 0.3f});
    step(world, 6);
    EXPECT_LT(world.body_state(id)->center.y, 0.25f); // sank into the ground
    // Back in a collision group of its own, the ground stops the next ball.
    ASSERT_TRUE(world.set_filter(world.body_shapes(ground)->at(0), Filter{}));
    const BodyId second = add_body(world, BodyType::dynamic, ShapeDef(Circle{{}, 0.25f}), {3, 1});
    step(world, 120);
    EXPECT_NEAR(world.body_state(second)->center.y, 0.25f, 2 * world.tolerances().linear_slop);
}

TEST(WorldSensor, BallFallsThroughASensorUnslowedAndIsReportedInAndOut) {
    World world = make_world();
    ShapeDef zone(make_box(2, 0.5f).value());
    zone.sensor = true;
    zone.user_data = 42;
    const BodyId sensor = add_body(world, BodyType::static_body, zone, {0, 0});
    const BodyId ball = add_body(world, BodyType::dynamic, ShapeDef(Circle{{}, 0.1f}), {0, 2});
    int begins = 0;
    int ends = 0;
    for (int i = 0; i < 60; ++i) {
        step(world);
        for (const SensorEvent& e : world.events().sensor_begin) {
            EXPECT_EQ(e.sensor_body, sensor);
            EXPECT_EQ(e.visitor_body, ball);
            EXPECT_EQ(world.shape_info(e.sensor)->user_data, 42u);
            ++begins;
        }
        ends += static_cast<int>(world.events().sensor_end.size());
    }
    EXPECT_EQ(begins, 1);
    EXPECT_EQ(ends, 1);
    // Semi-implicit Euler free fall over 60 steps: v = -10 m/s exactly as if
    // the sensor were not there.
    EXPECT_NEAR(world.body_state(ball)->linear_velocity.y, -10, 1e-4);
}

// A world whose last sensor is gone looks for no visits (the step skips its
// scan of the shapes), yet still ends the ones that were on.
TEST(WorldSensor, DestroyingTheLastSensorEndsTheVisitsItHad) {
    World world = make_world();
    ShapeDef zone(make_box(2, 2).value());
    zone.sensor = true;
    const BodyId sensor = add_body(world, BodyType::static_body, zone, {0, 0});
    const BodyId ball = add_body(world, BodyType::kinematic, ShapeDef(Circle{{}, 0.1f}), {0, 0});
    step(world);
    ASSERT_EQ(world.events().sensor_begin.size(), 1u);
    ASSERT_TRUE(world.destroy_body(sensor));
    step(world);
    ASSERT_EQ(world.events().sensor_end.size(), 1u);
    EXPECT_EQ(world.events().sensor_end[0].visitor_body, ball);
    step(world);
    EXPECT_TRUE(world.events().sensor_end.empty());
    EXPECT_TRUE(world.events().sensor_begin.empty());
}

TEST(WorldEvents, LandingBeginsOneContactAndLiftingOffEndsIt) {
    World world = make_world();
    const BodyId ground = add_ground(world);
    const BodyId ball = add_body(world, BodyType::dynamic, ShapeDef(Circle{{}, 0.25f}), {0, 1});
    int begins = 0;
    for (int i = 0; i < 120; ++i) {
        step(world);
        for (const ContactBeginEvent& e : world.events().contact_begin) {
            EXPECT_EQ(e.body_a, ball);
            EXPECT_EQ(e.body_b, ground);
            EXPECT_NEAR(e.normal.y, -1, 1e-5); // from the ball (A) down to the ground (B)
            ++begins;
        }
        EXPECT_TRUE(world.events().contact_end.empty());
    }
    EXPECT_EQ(begins, 1);
    ASSERT_EQ(world.touching_contacts().size(), 1u);
    // Resting: the normal impulse per step carries its weight, m g dt.
    const ContactData& c = world.touching_contacts()[0];
    const real weight_impulse = world.body_state(ball)->mass * 10 * k_dt;
    EXPECT_NEAR(c.normal_impulse[0] + c.normal_impulse[1], weight_impulse, 0.02 * weight_impulse);
    ASSERT_TRUE(world.set_velocity(ball, {0, 5}, 0));
    step(world);
    EXPECT_EQ(world.events().contact_end.size(), 1u);
    EXPECT_TRUE(world.touching_contacts().empty());
}

// The touching data is the narrowphase at the poses where the step left
// the bodies, whichever manifolds the step reuses: for a pile of boxes and
// circles settling on the ground (position correction pushes bodies after
// it last made some pairs' manifolds), every touching pair's manifold is
// collide() with the linear slop as speculative distance at the final
// poses: the same points, where they are there within a tenth of a slop.
// (A pair resting on two nearly parallel faces may keep the manifold made
// on the face collide() preferred then, while collide() now takes the
// other: the same points, the other face's normal.)
TEST(WorldEvents, TouchingContactsAreTheManifoldsAtTheFinalPoses) {
    World world = make_world();
    add_ground(world);
    std::vector<std::pair<BodyId, Shape>> pieces;
    for (int i = 0; i < 40; ++i) {
        const real x = real(i % 8) * real(0.9f) - 3 + real(0.1f) * real(i / 8);
        const Shape shape = i % 3 == 0 ? Shape(Circle{{}, real(0.3f)})
                                       : Shape(make_box(real(0.35f), real(0.25f)).value());
        const BodyId id =
            add_body(world, BodyType::dynamic, ShapeDef(shape), {x, real(0.5f) + real(i / 8)});
        pieces.push_back({id, shape});
    }
    const Shape ground = make_box(10, 0.5f).value();
    const auto shape_of = [&](BodyId id) {
        for (const auto& [body, shape] : pieces) {
            if (body == id) {
                return shape;
            }
        }
        return ground;
    };
    const real slop = world.tolerances().linear_slop;
    int checked = 0;
    int other_face = 0;
    for (int s = 0; s < 120; ++s) {
        step(world);
        for (const ContactData& d : world.touching_contacts()) {
            const Manifold m =
                collide(shape_of(d.body_a), world.body_state(d.body_a)->xf, shape_of(d.body_b),
                        world.body_state(d.body_b)->xf, {slop, slop});
            // A pair that hardly moved, one body relative to the other
            // (under a tenth of a slop), since its manifold was made (in
            // this step or an earlier one) keeps it, its points carried by
            // the bodies: a fresh one clips the
            // incident face as much further along, and a circle's normal
            // turns as much over its radius (0.25 L or more here).
            const real moved = slop / 10;
            ASSERT_EQ(d.manifold.count, m.count) << "step " << s;
            if (d.manifold.reference_is_b != m.reference_is_b) {
                // Two nearly parallel faces, the kept manifold made on the
                // one collide() then preferred (the carry's documented
                // difference): the same points, the other face's normal,
                // turned from it by the faces' angle (here under 0.01 rad).
                ++other_face;
                EXPECT_LE(length(d.manifold.normal - m.normal), real(0.01)) << "step " << s;
                for (int i = 0; i < d.manifold.count; ++i) {
                    const ManifoldPoint& p = d.manifold.points[i];
                    const auto same = [&](const ManifoldPoint& q) {
                        return length(p.point - q.point) <= moved &&
                               std::abs(p.separation - q.separation) <= moved;
                    };
                    EXPECT_TRUE(same(m.points[0]) || (m.count == 2 && same(m.points[1])))
                        << "step " << s;
                }
                continue;
            }
            EXPECT_LE(length(d.manifold.normal - m.normal), moved / real(0.25)) << "step " << s;
            for (int i = 0; i < m.count; ++i) {
                EXPECT_NEAR(d.manifold.points[i].separation, m.points[i].separation, moved)
                    << "step " << s;
                EXPECT_LE(length(d.manifold.points[i].point - m.points[i].point), moved)
                    << "step " << s;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 2000);
    EXPECT_LT(other_face, checked / 10); // (two resting pairs here, not the rule)
}

TEST(WorldEvents, HitEventReportsTheImpactSpeed) {
    // Dropped from rest 5 m above contact: it arrives at about sqrt(2 g h)
    // = 10 m/s (semi-implicit Euler at 60 Hz lands within a step's g dt).
    World world = make_world();
    add_ground(world);
    add_body(world, BodyType::dynamic, ShapeDef(Circle{{}, 0.25f}), {0, 5.25f});
    real speed = 0;
    int hits = 0;
    for (int i = 0; i < 120; ++i) {
        step(world);
        for (const ContactHitEvent& e : world.events().contact_hit) {
            speed = hits == 0 ? e.approach_speed : speed; // the impact itself
            ++hits;
        }
    }
    // Known: in double builds the speculative stop can end a hair beyond
    // the slop, so the next step reports the rest of the stop as a second,
    // slower hit (issue 5's note).
    EXPECT_GE(hits, 1);
    EXPECT_LE(hits, 2);
    EXPECT_NEAR(speed, 10, 10 * k_dt + 0.1);
}

TEST(WorldEvents, AHitInsideSubStepsIsReportedOnce) {
    // The same drop with 8 sub-steps: the speculative contact stops the
    // ball over two or more sub-steps of one step, each of which sees a pair
    // that was not touching at the end of the last step.
    World world = make_world();
    add_ground(world);
    add_body(world, BodyType::dynamic, ShapeDef(Circle{{}, 0.25f}), {0, 5.25f});
    int hits = 0;
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(world.step(k_dt, 8));
        hits += static_cast<int>(world.events().contact_hit.size());
        EXPECT_LE(world.events().contact_hit.size(), 1u) << "step " << i;
    }
    EXPECT_GE(hits, 1);
}

TEST(WorldPreSolve, OneWayPlatformLetsABallUpAndHoldsItComingDown) {
    World world = make_world();
    ShapeDef platform(make_box(2, 0.1f).value());
    const BodyId plank = add_body(world, BodyType::static_body, platform, {0, 2}); // top y = 2.1
    const ShapeId plank_shape = world.body_shapes(plank)->at(0);
    // Collide only when the ball comes from above: the normal from the ball
    // (A) to the platform (B) points down.
    ASSERT_TRUE(world.set_pre_solve([&](ShapeId, ShapeId b, const Manifold& m) {
        return b != plank_shape || m.normal.y < -0.5f;
    }));
    // Launched up at 10 m/s from y = 0: rises 5 m, through the platform.
    const BodyId ball =
        add_body(world, BodyType::dynamic, ShapeDef(Circle{{}, 0.2f}), {0, 0}, {0, 10});
    real highest = 0;
    for (int i = 0; i < 240; ++i) {
        step(world);
        highest = std::max(highest, world.body_state(ball)->center.y);
    }
    EXPECT_GT(highest, 4.5f);
    EXPECT_NEAR(world.body_state(ball)->center.y, 2.3f, 2 * world.tolerances().linear_slop);
}

TEST(WorldBounds, ABodyLeavingTheBoundsIsRemovedAndReported) {
    WorldDef def;
    def.bounds = Aabb{{-10, -10}, {10, 10}};
    World world = make_world(def);
    const BodyId ball = add_body(world, BodyType::dynamic, ShapeDef(Circle{{}, 0.25f}), {0, 0});
    // Falls 10.25 m (to leave entirely) in t = sqrt(2 h / g) ~ 1.43 s.
    int removed_at = -1;
    for (int i = 0; i < 120 && removed_at < 0; ++i) {
        step(world);
        if (!world.events().removed.empty()) {
            EXPECT_EQ(world.events().removed[0], ball);
            removed_at = i;
        }
    }
    EXPECT_NEAR(removed_at * k_dt, 1.43, 0.05);
    EXPECT_EQ(world.body_state(ball).error().code, ErrorCode::stale_handle);
    EXPECT_EQ(world.body_count(), 0);
}

TEST(WorldHandles, ShapesAndUserDataRoundTripAndGoStale) {
    World world = make_world();
    BodyDef def;
    def.type = BodyType::dynamic;
    def.user_data = 7;
    ShapeDef a(Circle{{}, 0.5f});
    a.user_data = 11;
    ShapeDef b(Capsule{{-1, 0}, {1, 0}, 0.25f});
    b.sensor = true;
    const std::array<ShapeDef, 2> shapes{a, b};
    const BodyId id = world.create_body(def, shapes).value();
    EXPECT_EQ(world.body_state(id)->user_data, 7u);
    const std::vector<ShapeId> ids = world.body_shapes(id).value();
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_EQ(world.shape_info(ids[0])->user_data, 11u);
    EXPECT_EQ(world.shape_info(ids[1])->shape.type, ShapeType::capsule);
    EXPECT_TRUE(world.shape_info(ids[1])->sensor);
    EXPECT_EQ(world.shape_info(ids[0])->body, id);
    ASSERT_TRUE(world.destroy_body(id));
    EXPECT_EQ(world.shape_info(ids[0]).error().code, ErrorCode::stale_handle);
    EXPECT_EQ(world.set_filter(ids[1], {}).error().code, ErrorCode::stale_handle);
    // A new body may reuse the slots, never the handles.
    const BodyId again = world.create_body(def, shapes).value();
    EXPECT_NE(world.body_shapes(again)->at(0), ids[0]);
}

TEST(WorldSpeed, MaximumSpeedIsASettingInMetresPerSecond) {
    WorldDef def;
    def.gravity = {};
    World clamped = make_world(def);
    const BodyId a =
        add_body(clamped, BodyType::dynamic, ShapeDef(Circle{{}, 0.5f}), {0, 0}, {10000, 0});
    step(clamped);
    EXPECT_NEAR(clamped.body_state(a)->linear_velocity.x, k_max_translation_speed, 1e-2);
    def.max_translation_speed = 20000;
    World fast = make_world(def);
    const BodyId b =
        add_body(fast, BodyType::dynamic, ShapeDef(Circle{{}, 0.5f}), {0, 0}, {10000, 0});
    step(fast);
    EXPECT_EQ(fast.body_state(b)->linear_velocity.x, 10000);
}

// A spin is cut to k_max_rotation per solve step (a sub-step when the
// solve has them): a box set spinning at 1,000 rad/s turns a quarter turn
// in a 60 Hz step of the one-step solve and keeps 30 quarter turns a
// second; in 8 sub-steps it keeps 240 (754 rad/s). A spin under the cap
// is left alone.
TEST(WorldSpeed, SpinIsCutToAQuarterTurnPerSolveStep) {
    const ShapeDef box(make_box(0.5f, 0.5f).value());
    const auto spun = [&](int solver_substeps, real w) {
        WorldDef def;
        def.gravity = {};
        def.solver_substeps = solver_substeps;
        World world = make_world(def);
        const BodyId id = add_body(world, BodyType::dynamic, box, {0, 0}, {});
        EXPECT_TRUE(world.set_velocity(id, {}, w));
        step(world);
        return world.body_state(id).value();
    };
    const BodyState one_step = spun(1, 1000);
    EXPECT_NEAR(one_step.angular_velocity, k_max_rotation * 60, 1e-2);
    EXPECT_NEAR(one_step.xf.q.c, 0, 1e-5); // turned a quarter turn: cos 90 degrees
    EXPECT_NEAR(one_step.xf.q.s, 1, 1e-5);
    const BodyState substeps = spun(8, 1000);
    EXPECT_NEAR(substeps.angular_velocity, k_max_rotation * 480, 1e-1);
    EXPECT_NEAR(substeps.xf.q.c, 1, 1e-4); // 8 quarter turns: a whole turn twice
    EXPECT_NEAR(spun(8, 500).angular_velocity, 500, 1e-3);
    EXPECT_NEAR(spun(1, 90).angular_velocity, 90, 1e-4);
}

// FNV-1a over the bytes of every body's state.
std::uint64_t hash_states(const World& world, const std::vector<BodyId>& ids) {
    std::uint64_t h = 1469598103934665603ull;
    for (BodyId id : ids) {
        const BodyState s = world.body_state(id).value();
        const real values[] = {s.xf.p.x,
                               s.xf.p.y,
                               s.xf.q.c,
                               s.xf.q.s,
                               s.linear_velocity.x,
                               s.linear_velocity.y,
                               s.angular_velocity};
        unsigned char bytes[sizeof(values)];
        std::memcpy(bytes, values, sizeof(values));
        for (unsigned char byte : bytes) {
            h = (h ^ byte) * 1099511628211ull;
        }
    }
    return h;
}

// Body i's shape in the mixed scenes: a circle, a box and a capsule in turn,
// `scale` times the busy scene's sizes.
Shape mixed_shape(int i, real scale) {
    const real r = real(0.1) * scale;
    return i % 3 == 0   ? Shape(Circle{{}, 3 * r})
           : i % 3 == 1 ? Shape(make_box(3 * r, 2 * r).value())
                        : Shape(Capsule{{-2 * r, 0}, {2 * r, 0}, real(1.5) * r});
}

std::uint64_t busy_scene_hash() {
    World world = make_world();
    // A closed room with 200 mixed bodies thrown about.
    const std::array<std::pair<Vec2, Vec2>, 4> walls{{{{0, -0.5f}, {10, 0.5f}},
                                                      {{0, 20.5f}, {10, 0.5f}},
                                                      {{-10.5f, 10}, {0.5f, 11}},
                                                      {{10.5f, 10}, {0.5f, 11}}}};
    for (const auto& [center, half] : walls) {
        add_body(world, BodyType::static_body, ShapeDef(make_box(half.x, half.y).value()), center);
    }
    std::vector<BodyId> ids;
    for (int i = 0; i < 200; ++i) {
        const Vec2 p{-9 + real(i % 20) * 0.9f, 1 + real(i / 20) * 1.5f};
        const Vec2 v{real((i * 7) % 11) - 5, real((i * 5) % 13) - 6};
        ids.push_back(
            add_body(world, BodyType::dynamic, ShapeDef(mixed_shape(i, 1), {1, 0.5f, 0.3f}), p, v));
    }
    for (int i = 0; i < 1000; ++i) {
        if (!world.step(k_dt)) {
            return 0;
        }
    }
    return hash_states(world, ids);
}

TEST(WorldDeterminism, TheSameBusySceneEndsBitIdenticalRunToRun) {
    const std::uint64_t first = busy_scene_hash();
    EXPECT_NE(first, 0u);
    EXPECT_EQ(busy_scene_hash(), first);
}

// 120 mixed bodies dropped on a floor of 40 tiles between two
// walls, 300 steps, in a world whose static shapes are in `static_broadphase`.
std::uint64_t tile_pile_hash(StaticBroadphase static_broadphase) {
    WorldDef def;
    def.static_broadphase = static_broadphase;
    World world = World::make(def).value();
    for (int i = 0; i < 40; ++i) {
        add_body(world, BodyType::static_body, ShapeDef(make_box(0.5f, 0.5f).value()),
                 {real(i) - 19.5f, -0.5f});
    }
    for (const real x : {-20.5f, 20.5f}) {
        add_body(world, BodyType::static_body, ShapeDef(make_box(0.5f, 10).value()), {x, 10});
    }
    std::vector<BodyId> ids;
    for (int i = 0; i < 120; ++i) {
        const Vec2 p{-19 + real(i % 30) * 1.3f, 1 + real(i / 30) * 1.2f};
        ids.push_back(add_body(world, BodyType::dynamic,
                               ShapeDef(mixed_shape(i, real(4) / 3), {1, 0.5f, 0.2f}), p,
                               {real(i % 7) - 3, 0}));
    }
    for (int i = 0; i < 300; ++i) {
        if (!world.step(k_dt)) {
            return 0;
        }
    }
    return hash_states(world, ids);
}

// The step orders its contacts by shape, not in the order the broadphase
// reports pairs (a tree's and a grid's differ), so the static shapes'
// broadphase does not change the states.
TEST(WorldDeterminism, APileOnTilesEndsBitIdenticalInATreeOrAGridWorld) {
    const std::uint64_t tree = tile_pile_hash(StaticBroadphase::tree);
    EXPECT_NE(tree, 0u);
    EXPECT_EQ(tile_pile_hash(StaticBroadphase::grid), tree);
}

// Event bookkeeping found by a probe against brute-force contacts.

// A box fired at 30 L/s at a disc at rest hits it once: the solve's hit and
// the impact event's were both reported (speeds 30 and 18), one sub-step or
// eight.
TEST(WorldEvents, ABoxFiredAtARestingDiscReportsOneHit) {
    for (const int substeps : {1, 8}) {
        WorldDef def;
        def.gravity = {0, 0};
        def.solver_substeps = substeps;
        World world = make_world(def);
        (void)add_body(world, BodyType::dynamic, ShapeDef(Circle{{0, 0}, 0.5f}), {0, 0});
        (void)add_body(world, BodyType::dynamic, ShapeDef(make_box(0.2f, 0.2f).value()), {-1, 0},
                       {30, 0});
        step(world);
        SCOPED_TRACE("substeps " + std::to_string(substeps));
        ASSERT_EQ(world.events().contact_hit.size(), 1u);
        EXPECT_NEAR(world.events().contact_hit[0].approach_speed, 30, 1e-3);
    }
}

// A body already touching something, then sent into it at 10 L/s, hits
// it: a disc resting 0.0007 L from a wall in zero gravity (touching, never
// pushed), and a box resting on the ground (pushed every step by gravity).
// Hits skipped every pair touching at the end of the last step, so neither
// impact was reported (nor, in a probe's scenes, 3.5 % of head-on
// collisions of discs that ended a step within the slop).
TEST(WorldEvents, AnImpactOfAPairAlreadyTouchingIsAHit) {
    WorldDef zero_g;
    zero_g.gravity = {0, 0};
    World space = make_world(zero_g);
    (void)add_body(space, BodyType::static_body, ShapeDef(make_box(0.5f, 5).value()), {-0.5f, 0});
    const BodyId disc =
        add_body(space, BodyType::dynamic, ShapeDef(Circle{{}, 0.5f}), {0.5007f, 0});
    World ground = make_world();
    (void)add_ground(ground);
    const BodyId box =
        add_body(ground, BodyType::dynamic, ShapeDef(make_box(0.5f, 0.5f).value()), {0, 0.5f});
    for (auto [world, body, velocity] :
         {std::tuple{&space, disc, Vec2{-10, 0}}, std::tuple{&ground, box, Vec2{0, -10}}}) {
        for (int i = 0; i < 30; ++i) {
            step(*world);
            ASSERT_TRUE(world->events().contact_hit.empty()) << "step " << i;
        }
        ASSERT_EQ(world->touching_contacts().size(), 1u);
        ASSERT_TRUE(world->set_velocity(body, velocity, 0));
        step(*world);
        ASSERT_EQ(world->events().contact_hit.size(), 1u);
        EXPECT_NEAR(world->events().contact_hit[0].approach_speed, 10, 0.2);
    }
}

// A box dropped on a box asleep on the ground touches it from the step it
// lands on: one begin, and no end while they touch. The contact search met
// the pair from the other side once both were awake, and the events compared
// ordered pairs: an end and a begin again the step after it landed.
TEST(WorldEvents, APairTouchingThroughoutBeginsOnceAndNeverEnds) {
    World world = make_world();
    (void)add_ground(world);
    const ShapeDef box(make_box(0.5f, 0.5f).value());
    const BodyId low = add_body(world, BodyType::dynamic, box, {0, 0.5f});
    step(world, 120);
    ASSERT_FALSE(world.body_state(low)->awake);
    const BodyId high = add_body(world, BodyType::dynamic, box, {0, 2}, {0, -20});
    const ShapeId a = world.body_shapes(low)->at(0);
    const ShapeId b = world.body_shapes(high)->at(0);
    const auto is_pair = [&](ShapeId x, ShapeId y) {
        return (x == a && y == b) || (x == b && y == a);
    };
    int begins = 0;
    for (int i = 0; i < 60; ++i) {
        step(world);
        for (const ContactBeginEvent& e : world.events().contact_begin) {
            begins += is_pair(e.shape_a, e.shape_b);
        }
        for (const ContactEndEvent& e : world.events().contact_end) {
            EXPECT_FALSE(is_pair(e.shape_a, e.shape_b)) << "step " << i;
        }
    }
    EXPECT_EQ(begins, 1);
}

// A chain hands a contact at a convex vertex to the next segment as the
// normal turns past it. A disc rolling off the flat top of a hill of chain
// segments over its corner, 0.0006 L into it, turns from the top's side of
// the corner to the slope's within its first step: the slope, which had no
// contact where the step began (the corner was the top's then), touches
// it at the end (it touched neither: seed 20995 of the touching pairs'
// property test, step 198, the disc's state there).
TEST(WorldEvents, ADiscRollingOverAChainsCornerTouchesTheSlopeItTurnsTo) {
    World world = make_world();
    // Counter-clockwise: the top runs from (1, 1.5) to (-1, 1.5) (segment
    // 2), the slope from there down to (-3, 0) (segment 3).
    const std::array<Vec2, 4> hill{Vec2{-3, 0}, Vec2{3, 0}, Vec2{1, 1.5f}, Vec2{-1, 1.5f}};
    const std::vector<ChainSegment> loop = make_chain_loop(hill).value();
    const std::vector<ShapeDef> segments(loop.begin(), loop.end());
    const BodyId ground = world.create_body(BodyDef{}, segments).value();
    const std::vector<ShapeId> ids = world.body_shapes(ground).value();
    BodyDef def;
    def.type = BodyType::dynamic;
    def.position = {-1.01697206f, 1.46802413f};
    def.angle = 0.301488042f;
    def.linear_velocity = {-0.29693535f, -0.104920134f};
    def.angular_velocity = 0.766547084f;
    const real radius = 0.369358301f;
    ShapeDef disc(Circle{{0.0202776678f, 0.394103289f}, radius});
    disc.material.rolling_resistance = 0.3f;
    const BodyId body = world.create_body(def, std::span(&disc, 1)).value();
    step(world);
    // In the hill by a rounding's worth beyond the touch, past the corner
    // on the slope's side of its bisector, where the slope's normal is the
    // corner's.
    const Vec2 corner{-1, 1.5f};
    const Vec2 c = world.body_state(body).value().center;
    ASSERT_LT(distance(c, corner), radius - real(1e-4));
    ASSERT_LT(c.x, corner.x);
    std::vector<ShapeId> touched;
    for (const ContactData& d : world.touching_contacts()) {
        touched.push_back(d.shape_a == ids[3] || d.shape_b == ids[3] ? ids[3] : ShapeId{});
    }
    EXPECT_EQ(touched, std::vector<ShapeId>{ids[3]});
}

// The end events of a destroyed shape, and of a destroyed body's, name the
// bodies they belonged to (stale ids for the destroyed body), as their begin
// events did, and the shapes in the begin's order; they were null.
TEST(WorldEvents, EndEventsOfDestroyedShapesNameTheirBodies) {
    World world = make_world();
    (void)add_ground(world);
    BodyDef def;
    def.type = BodyType::dynamic;
    def.position = {-3, 0.5f};
    const std::array<ShapeDef, 2> parts{
        ShapeDef(make_box(0.5f, 0.5f).value()),
        ShapeDef(make_offset_box(0.2f, 0.2f, {0, 0.7f}, 0).value())};
    const BodyId a = world.create_body(def, parts).value();
    const BodyId b = add_body(world, BodyType::dynamic, parts[0], {3, 0.5f});
    std::vector<ContactBeginEvent> begins;
    for (int i = 0; i < 10; ++i) {
        step(world);
        begins.insert(begins.end(), world.events().contact_begin.begin(),
                      world.events().contact_begin.end());
    }
    const ShapeId a_bottom = world.body_shapes(a)->at(0);
    const ShapeId b_box = world.body_shapes(b)->at(0);
    ASSERT_TRUE(world.destroy_shape(a_bottom));
    ASSERT_TRUE(world.destroy_body(b));
    step(world);
    const std::vector<ContactEndEvent>& ends = world.events().contact_end;
    ASSERT_EQ(ends.size(), 2u);
    for (const ContactEndEvent& e : ends) {
        const auto begin =
            std::find_if(begins.begin(), begins.end(), [&](const ContactBeginEvent& x) {
                return x.shape_a == e.shape_a && x.shape_b == e.shape_b;
            });
        ASSERT_NE(begin, begins.end());
        EXPECT_EQ(e.body_a, begin->body_a);
        EXPECT_EQ(e.body_b, begin->body_b);
        const bool of_a = e.shape_a == a_bottom || e.shape_b == a_bottom;
        const bool of_b = e.shape_a == b_box || e.shape_b == b_box;
        EXPECT_TRUE(of_a || of_b);
        EXPECT_TRUE(e.body_a == a || e.body_b == a || e.body_a == b || e.body_b == b);
    }
}

// A box at rest against a wall, moved 2.5 L away by set_transform just
// before the step in which it falls asleep: the pair ends at that step and
// is no longer touching. Resting pairs were judged after the step, when the
// box slept, so the wall's pair was kept for ever with no end event.
TEST(WorldEvents, ABodyMovedAwayInTheStepItFallsAsleepEndsItsContact) {
    WorldDef def;
    def.gravity = {0, 0};
    World world = make_world(def);
    (void)add_body(world, BodyType::static_body, ShapeDef(make_box(0.5f, 5).value()), {-0.5f, 0});
    const BodyId box =
        add_body(world, BodyType::dynamic, ShapeDef(make_box(0.5f, 0.5f).value()), {0.5f, 0});
    int asleep_at = -1;
    for (int i = 0; i < 120 && asleep_at < 0; ++i) {
        step(world);
        asleep_at = world.body_state(box)->awake ? -1 : i;
    }
    ASSERT_GT(asleep_at, 0); // the step it falls asleep in, untouched
    World again = make_world(def);
    (void)add_body(again, BodyType::static_body, ShapeDef(make_box(0.5f, 5).value()), {-0.5f, 0});
    const BodyId moved =
        add_body(again, BodyType::dynamic, ShapeDef(make_box(0.5f, 0.5f).value()), {0.5f, 0});
    step(again, asleep_at);
    ASSERT_EQ(again.touching_contacts().size(), 1u);
    ASSERT_TRUE(again.set_transform(moved, {3, 0}, 0));
    step(again);
    ASSERT_FALSE(again.body_state(moved)->awake);
    EXPECT_TRUE(again.touching_contacts().empty());
    EXPECT_EQ(again.events().contact_end.size(), 1u);
}

} // namespace
} // namespace sweep
