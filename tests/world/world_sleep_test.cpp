// Sleeping (WorldDef::enable_sleep): islands at rest stop being simulated and
// keep their contacts; everything that can disturb them wakes them, and a
// woken island is solved whole, so nothing sinks into a sleeping body.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

#include "sweep/manifold.hpp"
#include "sweep/world.hpp"
#include "world_body.hpp"

namespace sweep {
namespace {

constexpr real k_dt = real(1) / 60;

World make_world(WorldDef def = {}) { return std::move(World::make(def).value()); }

using test::add_body;

BodyId add_ground(World& world) { // top face at y = 0
    return add_body(world, BodyType::static_body, make_box(10, 0.5f).value(), {0, -0.5f});
}

BodyId add_box(World& world, Vec2 position, BodyType type = BodyType::dynamic) {
    return add_body(world, type, make_box(0.5f, 0.5f).value(), position);
}

bool awake(const World& world, BodyId id) { return world.body_state(id).value().awake; }

// Steps until every dynamic body sleeps, at most `steps`; returns the steps taken.
int step_until_asleep(World& world, int steps) {
    for (int i = 1; i <= steps; ++i) {
        EXPECT_TRUE(world.step(k_dt));
        if (world.stats().awake_bodies == 0) {
            return i;
        }
    }
    return steps + 1;
}

TEST(WorldSleep, ABoxAtRestSleepsKeepsItsContactAndNeverMoves) {
    World world = make_world();
    const BodyId ground = add_ground(world);
    const BodyId box = add_box(world, {0, 1});
    int ends = 0;
    // It lands within half a second and must rest time_to_sleep (0.5 s) more.
    const int steps = step_until_asleep(world, 180);
    EXPECT_GE(steps, 30);
    EXPECT_LE(steps, 120);
    EXPECT_FALSE(awake(world, box));
    const BodyState rest = world.body_state(box).value();
    EXPECT_EQ(rest.linear_velocity, Vec2{});
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        ends += static_cast<int>(world.events().contact_end.size());
        EXPECT_EQ(world.stats().contacts, 0); // nothing is searched for a sleeping island
        ASSERT_EQ(world.touching_contacts().size(), 1u);
        EXPECT_EQ(world.touching_contacts()[0].body_b, ground);
    }
    EXPECT_EQ(ends, 0);
    EXPECT_EQ(world.body_state(box)->xf.p, rest.xf.p);
    EXPECT_EQ(world.body_state(box)->xf.q.angle(), rest.xf.q.angle());
}

TEST(WorldSleep, OffEverythingStaysAwake) {
    WorldDef def;
    def.enable_sleep = false;
    World world = make_world(def);
    add_ground(world);
    const BodyId box = add_box(world, {0, 1});
    EXPECT_EQ(step_until_asleep(world, 240), 241);
    EXPECT_TRUE(awake(world, box));
    EXPECT_EQ(world.stats().awake_bodies, 1);
}

TEST(WorldSleep, ABallDroppedOnASleepingStackWakesItAndNothingSinks) {
    World world = make_world();
    add_ground(world);
    std::vector<BodyId> stack;
    for (int i = 0; i < 3; ++i) {
        stack.push_back(add_box(world, {0, real(0.5) + real(i)}));
    }
    ASSERT_LE(step_until_asleep(world, 600), 600);
    const real top = world.body_state(stack[2])->xf.p.y + real(0.5);
    const BodyId ball = add_body(world, BodyType::dynamic, Circle{{}, 0.25f}, {0, top + 3});
    bool woke = false;
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        woke = woke || (awake(world, stack[0]) && awake(world, stack[2]));
        // The ball rests on the top box, never inside it (2 slops).
        const real gap = world.body_state(ball)->center.y - 0.25f -
                         (world.body_state(stack[2])->xf.p.y + real(0.5));
        ASSERT_GE(gap, -2 * world.tolerances().linear_slop) << "step " << i;
    }
    EXPECT_TRUE(woke) << "the whole island wakes, the bottom box too";
    EXPECT_LE(step_until_asleep(world, 600), 600) << "and sleeps again";
}

TEST(WorldSleep, SetVelocityAndSetAwakeWakeAndSleepABody) {
    World world = make_world();
    add_ground(world);
    const BodyId box = add_box(world, {0, 0.5f});
    ASSERT_LE(step_until_asleep(world, 300), 300);
    ASSERT_TRUE(world.set_velocity(box, {}, 0));
    EXPECT_FALSE(awake(world, box)) << "a zero velocity leaves it asleep";
    ASSERT_TRUE(world.set_velocity(box, {0, 5}, 0));
    EXPECT_TRUE(awake(world, box));
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_GT(world.body_state(box)->xf.p.y, 0.55f); // it jumped
    ASSERT_TRUE(world.set_awake(box, false));
    EXPECT_FALSE(awake(world, box));
    EXPECT_EQ(world.body_state(box)->linear_velocity, Vec2{});
    const Vec2 held = world.body_state(box)->xf.p;
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_EQ(world.body_state(box)->xf.p, held) << "asleep in mid-air until woken";
    ASSERT_TRUE(world.set_awake(box, true));
    ASSERT_TRUE(world.step(k_dt));
    EXPECT_LT(world.body_state(box)->xf.p.y, held.y);
    EXPECT_FALSE(world.set_awake(BodyId{99, 1}, true).has_value());
}

TEST(WorldSleep, DestroyingTheGroundWakesWhatRestsOnIt) {
    World world = make_world();
    const BodyId ground = add_ground(world);
    const BodyId box = add_box(world, {0, 0.5f});
    ASSERT_LE(step_until_asleep(world, 300), 300);
    ASSERT_TRUE(world.destroy_body(ground));
    EXPECT_TRUE(awake(world, box));
    for (int i = 0; i < 30; ++i) {
        ASSERT_TRUE(world.step(k_dt));
    }
    EXPECT_LT(world.body_state(box)->xf.p.y, -0.5f); // half a second of free fall: 1.25 m
}

TEST(WorldSleep, AKinematicBodyMovingIntoASleepingBoxPushesIt) {
    World world = make_world();
    add_ground(world);
    const BodyId box = add_box(world, {0, 0.5f});
    const BodyId pusher =
        add_body(world, BodyType::kinematic, make_box(0.5f, 0.5f).value(), {-3, 0.5f});
    ASSERT_LE(step_until_asleep(world, 300), 300);
    ASSERT_TRUE(world.set_velocity(pusher, {2, 0}, 0));
    for (int i = 0; i < 120; ++i) { // 4 m: it meets the box after 2
        ASSERT_TRUE(world.step(k_dt));
        ASSERT_GE(world.body_state(box)->xf.p.x - world.body_state(pusher)->xf.p.x,
                  1 - 2 * world.tolerances().linear_slop)
            << "step " << i;
    }
    EXPECT_GT(world.body_state(box)->xf.p.x, 1.5f);
}

// A body a moving kinematic body wakes seeks its pairs once: it was queued
// for the search when woken and again as an awake body, and sought its
// pairs twice, so each pair with a static or kinematic body was solved as
// two contacts, each with the pair's whole impulse.
TEST(WorldSleep, ABodyWokenByAKinematicBodyHasOneContactPerPair) {
    World world = make_world();
    add_ground(world);
    add_box(world, {0, 0.5f});
    const BodyId pusher =
        add_body(world, BodyType::kinematic, make_box(0.5f, 0.5f).value(), {-3, 0.5f});
    ASSERT_LE(step_until_asleep(world, 300), 300);
    ASSERT_TRUE(world.set_velocity(pusher, {2, 0}, 0));
    int woken = 0;
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        woken += world.stats().awake_bodies > 0;
        const std::vector<ContactData>& touching = world.touching_contacts();
        for (std::size_t j = 0; j < touching.size(); ++j) {
            for (std::size_t k = j + 1; k < touching.size(); ++k) {
                ASSERT_FALSE(touching[j].shape_a == touching[k].shape_a &&
                             touching[j].shape_b == touching[k].shape_b)
                    << "step " << i;
            }
        }
    }
    EXPECT_GT(woken, 0);
}

// A box drifting slowly stays within its fat box for steps on end: the
// contact search takes its pairs from the step before (StepStats), and must
// still find the sleeping box it drifts into (its search would wake it)
// rather than let it through.
TEST(WorldSleep, ABoxDriftingWithinItsFatBoxWakesTheSleepingBoxItMeets) {
    WorldDef def;
    def.gravity = {};
    World world = make_world(def);
    const BodyId drifter = add_box(world, {0, 0});
    const BodyId sleeper = add_box(world, {1.3f, 0});
    ASSERT_TRUE(world.set_velocity(drifter, {real(0.3), 0}, 0));
    int reused = 0;
    bool woke = false;
    for (int i = 0; i < 180; ++i) {
        const bool was_awake = awake(world, sleeper);
        ASSERT_TRUE(world.step(k_dt));
        reused += world.stats().pair_searches_reused;
        woke = woke || (!was_awake && awake(world, sleeper));
        ASSERT_GE(world.body_state(sleeper)->xf.p.x - world.body_state(drifter)->xf.p.x,
                  1 - 2 * world.tolerances().linear_slop)
            << "step " << i;
    }
    EXPECT_GT(reused, 10);
    EXPECT_TRUE(woke);
    EXPECT_GT(world.body_state(sleeper)->xf.p.x, real(1.35)); // pushed on
}

// Contact searches kept (pair_searches_reused), kept and brought up to date
// with the few proxies that moved (pair_searches_updated) or made whole give
// the same pairs in the same order: the same scenes end in the same states,
// bit for bit, step by step, whether nothing else moves, one fast body far
// away moves (its proxy every step: the kept search is updated, where more
// than four bodies search) or many do (more moved proxies than an update
// takes: every search is whole).
// The scenes: a drift into a sleeping box (a reuse that met it without
// waking it would solve it asleep), a stack at rest, a pile of boxes and
// circles falling into a container, where some proxies move every step, and
// the pile on a floor of tiles that are destroyed and made again under it
// (destructible terrain: the shapes near a static change seek their pairs
// again, the rest keep theirs).
struct SearchRun {
    std::vector<BodyState> states;
    int reused = 0;
    int updated = 0;
};

// `change(world, step)` before each step, if given.
template <class Build>
SearchRun run_with_runners(bool sleep, int runners, Build&& build, int steps,
                           const std::function<void(World&, int)>& change) {
    WorldDef def;
    def.enable_sleep = sleep;
    if (sleep) {
        def.gravity = {};
    }
    World world = make_world(def);
    const std::vector<BodyId> bodies = build(world);
    for (int i = 0; i < runners; ++i) {
        const BodyId far = add_box(world, {1000, 1000 + 10 * real(i)});
        EXPECT_TRUE(world.set_velocity(far, {50, 0}, 0));
    }
    SearchRun run;
    for (int i = 0; i < steps; ++i) {
        if (change) {
            change(world, i);
        }
        EXPECT_TRUE(world.step(k_dt));
        run.reused += world.stats().pair_searches_reused;
        run.updated += world.stats().pair_searches_updated;
        for (const BodyId id : bodies) {
            run.states.push_back(world.body_state(id).value());
        }
    }
    return run;
}

void expect_same_states(const SearchRun& a, const SearchRun& b, const char* scene) {
    ASSERT_EQ(a.states.size(), b.states.size());
    for (std::size_t i = 0; i < a.states.size(); ++i) {
        const BodyState& x = a.states[i];
        const BodyState& y = b.states[i];
        ASSERT_EQ(x.xf.p, y.xf.p) << scene << " at " << i;
        ASSERT_EQ(x.xf.q.s, y.xf.q.s) << scene << " at " << i;
        ASSERT_EQ(x.linear_velocity, y.linear_velocity) << scene << " at " << i;
        ASSERT_EQ(x.angular_velocity, y.angular_velocity) << scene << " at " << i;
        ASSERT_EQ(x.awake, y.awake) << scene << " at " << i;
    }
}

TEST(WorldSleep, KeptUpdatedAndWholeContactSearchesGiveTheSameStates) {
    const auto drift = [](World& world) {
        const BodyId drifter = add_box(world, {0, 0});
        EXPECT_TRUE(world.set_velocity(drifter, {real(0.3), 0}, 0));
        return std::vector<BodyId>{drifter, add_box(world, {1.3f, 0})};
    };
    const auto stack = [](World& world) {
        add_ground(world);
        std::vector<BodyId> boxes;
        for (int i = 0; i < 5; ++i) {
            boxes.push_back(add_box(world, {0, real(0.5) + real(i)}));
        }
        return boxes;
    };
    const auto walls_and_pieces = [](World& world) {
        add_body(world, BodyType::static_body, make_box(0.5f, 6).value(), {-5.5f, 6});
        add_body(world, BodyType::static_body, make_box(0.5f, 6).value(), {5.5f, 6});
        std::vector<BodyId> pieces;
        for (int i = 0; i < 60; ++i) {
            const Vec2 at{real(-4.5) + real(i % 10), real(0.5) + real(i / 10) * real(1.1)};
            const real size = real(0.2) + real(0.05) * real(i % 5);
            pieces.push_back(
                i % 2 == 0 ? add_body(world, BodyType::dynamic, Circle{{}, size}, at)
                           : add_body(world, BodyType::dynamic, make_box(size, size).value(), at));
        }
        return pieces;
    };
    const auto pile = [&](World& world) {
        add_ground(world);
        return walls_and_pieces(world);
    };
    // The pile on 12 tiles of 1 L (walls 6 L apart); from step 120, every
    // 10th step a tile under it is destroyed or made again where it was.
    const auto tiled_pile = [&](World& world) {
        for (int i = 0; i < 12; ++i) {
            add_box(world, {real(-5.5) + real(i), real(-0.5)}, BodyType::static_body);
        }
        return walls_and_pieces(world);
    };
    const auto dig = [](World& world, int step) {
        if (step < 120 || step % 10 != 0) {
            return;
        }
        const Vec2 cell{real(-4.5) + real((step / 10) % 10), real(-0.5)};
        const std::vector<ShapeId> found = world.point_query(cell).value();
        for (const ShapeId shape : found) {
            const BodyId tile = world.shape_info(shape)->body;
            if (world.body_state(tile)->type == BodyType::static_body) {
                EXPECT_TRUE(world.destroy_body(tile));
                return;
            }
        }
        add_box(world, cell, BodyType::static_body);
    };
    struct Case {
        const char* name;
        bool sleep;
        int steps;
        std::function<std::vector<BodyId>(World&)> build;
        int many;     // runners that make every search whole
        bool updates; // whether one runner's searches are updates
        std::function<void(World&, int)> change;
    };
    const std::vector<Case> cases{{"drift", true, 180, drift, 3, false, {}},
                                  {"stack", false, 240, stack, 3, true, {}},
                                  {"pile", false, 240, pile, 30, true, {}},
                                  {"tiled pile", false, 400, tiled_pile, 30, true, dig}};
    for (const Case& c : cases) {
        const SearchRun kept = run_with_runners(c.sleep, 0, c.build, c.steps, c.change);
        const SearchRun updated = run_with_runners(c.sleep, 1, c.build, c.steps, c.change);
        const SearchRun whole = run_with_runners(c.sleep, c.many, c.build, c.steps, c.change);
        EXPECT_GT(kept.reused + kept.updated, 10) << c.name;
        if (c.updates) {
            EXPECT_GT(updated.updated, 10) << c.name;
        } else {
            EXPECT_EQ(updated.updated, 0) << c.name; // too few bodies search
        }
        EXPECT_EQ(whole.reused + whole.updated, 0) << c.name;
        expect_same_states(kept, whole, c.name);
        expect_same_states(updated, whole, c.name);
    }
}

TEST(WorldSleep, APlatformMovedAwayFromUnderASleepingBoxLetsItFall) {
    World world = make_world();
    const BodyId platform =
        add_body(world, BodyType::kinematic, make_box(2, 0.25f).value(), {0, -0.25f});
    const BodyId box = add_box(world, {0, 0.5f});
    ASSERT_LE(step_until_asleep(world, 300), 300);
    ASSERT_TRUE(world.move(platform, {0, -3}));
    EXPECT_TRUE(awake(world, box));
    for (int i = 0; i < 30; ++i) {
        ASSERT_TRUE(world.step(k_dt));
    }
    EXPECT_LT(world.body_state(box)->xf.p.y, -0.5f);
}

TEST(WorldSleep, TimeToSleepMustBeFiniteAndNotNegative) {
    for (const real bad : {real(-1), std::numeric_limits<real>::infinity(),
                           std::numeric_limits<real>::quiet_NaN()}) {
        WorldDef def;
        def.time_to_sleep = bad;
        const auto world = World::make(def);
        ASSERT_FALSE(world.has_value());
        EXPECT_EQ(world.error().code, ErrorCode::invalid_input);
    }
}

// With sleep off, a body put to sleep by set_awake(false) still wakes as
// any sleeping body does when a kinematic body moves into it, and the pair
// begins touching: the kinematic bodies' wake was skipped whenever sleep was
// off, and the box passed through the kinematic one unmoved and unreported.
TEST(WorldSleep, OffABodyPutToSleepWakesWhenAKinematicBodyMovesIntoIt) {
    WorldDef def;
    def.gravity = {0, 0};
    def.enable_sleep = false;
    World world = make_world(def);
    BodyDef box_def;
    box_def.type = BodyType::dynamic;
    const ShapeDef box(make_box(0.3f, 0.3f).value());
    const BodyId sleeper = world.create_body(box_def, std::span(&box, 1)).value();
    BodyDef kinematic;
    kinematic.type = BodyType::kinematic;
    kinematic.position = {-2, 0};
    kinematic.linear_velocity = {2, 0};
    const ShapeDef pusher(make_box(0.5f, 0.5f).value());
    (void)world.create_body(kinematic, std::span(&pusher, 1)).value();
    ASSERT_TRUE(world.set_awake(sleeper, false));
    std::size_t begins = 0;
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        begins += world.events().contact_begin.size();
    }
    const BodyState s = world.body_state(sleeper).value();
    EXPECT_TRUE(s.awake);
    EXPECT_EQ(begins, 1u);
    EXPECT_GT(s.center.x, 0.5f); // pushed ahead: the pusher's face is at x = 0.5 after 1 s
}

// The deepest overlap of any two bodies among `ids` (shapes `shapes`) at
// their present poses, by the kernel's collide.
real deepest_overlap(const World& world, const std::vector<BodyId>& ids,
                     const std::vector<Shape>& shapes) {
    real deepest = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        for (std::size_t j = i + 1; j < ids.size(); ++j) {
            const Manifold m =
                collide(shapes[i], world.body_state(ids[i])->xf, shapes[j],
                        world.body_state(ids[j])->xf, {0, world.tolerances().linear_slop});
            for (int k = 0; k < m.count; ++k) {
                deepest = std::max(deepest, -m.points[k].separation);
            }
        }
    }
    return deepest;
}

// A kinematic disc created deep inside a sleeping box (from a random scene)
// wakes it as it moves; position correction pushes the box 0.84 L out of the
// disc in one step, into a sleeping pair of boxes 0.6 L away. Its contact
// with the first joined the step's contacts, but the box it met slept on:
// correction pushed it 0.2 L while it slept, into the box beside it, with no
// contact and no waking, and the pair ended 0.22 L inside each other.
// A contact made with a sleeping body wakes it, as the contact search does.
TEST(WorldSleep, ABoxPushedOutOfAKinematicDiscWakesTheSleepingBoxesItMeets) {
    World world = make_world();
    std::vector<BodyId> ids{add_ground(world)};
    std::vector<Shape> shapes{make_box(10, 0.5f).value()};
    const auto add = [&](BodyType type, const Shape& shape, Vec2 position, Vec2 velocity = {}) {
        ids.push_back(add_body(world, type, shape, position, velocity));
        shapes.push_back(shape);
    };
    add(BodyType::dynamic, make_box(0.5111f, 0.4429f).value(), {-2.619f, 0.4429f});
    add(BodyType::dynamic, make_box(0.2140f, 0.4648f).value(), {-1.894f, 0.4648f});
    add(BodyType::dynamic, make_box(0.5890f, 0.5034f).value(), {-0.466f, 0.5034f});
    ASSERT_LE(step_until_asleep(world, 300), 300);
    add(BodyType::kinematic, Circle{{}, 0.46f}, {-0.2513f, 0.4864f}, {-0.7629f, -0.018f});
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        // The disc is created inside the box: that pair starts deep.
        const std::vector<BodyId> boxes(ids.begin(), ids.end() - 1);
        const std::vector<Shape> box_shapes(shapes.begin(), shapes.end() - 1);
        EXPECT_LE(deepest_overlap(world, boxes, box_shapes), 2 * world.tolerances().linear_slop)
            << "step " << i;
    }
}

// Two boxes resting 5 cm apart (within each other's fat boxes, beyond the
// speculative distance: no contact) sleep for good, whichever comes to rest
// first: a search wakes a sleeping body only for a contact with it. Woken
// whenever a search met its fat box, each woke the other as it fell
// asleep, the left one 39 times in 20 s, and they never slept together.
TEST(WorldSleep, BoxesRestingApartWithinTheirFatBoxesSleepForGood) {
    World world = make_world();
    add_ground(world);
    const BodyId left = add_box(world, {0, 0.5f});
    const BodyId right = add_box(world, {1.05f, 0.8f}); // lands later: its rest begins later
    ASSERT_LE(step_until_asleep(world, 300), 300);
    for (int i = 0; i < 600; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        ASSERT_EQ(world.stats().awake_bodies, 0) << "step " << i;
    }
    EXPECT_NEAR(world.body_state(right)->xf.p.x - world.body_state(left)->xf.p.x, 1.05f, 1e-3f);
}

// A column of 20 boxes on the ground, asleep, and a few steps more: the
// contact search no longer finds its pairs (none of the last step's
// contacts is one of them).
struct SleepingStack {
    World world = make_world();
    std::vector<BodyId> boxes;
};

SleepingStack sleeping_stack() {
    SleepingStack stack;
    add_ground(stack.world);
    for (int i = 0; i < 20; ++i) {
        stack.boxes.push_back(add_box(stack.world, {0, real(0.5) + real(i)}));
    }
    EXPECT_LE(step_until_asleep(stack.world, 300), 300);
    for (int i = 0; i < 3; ++i) {
        EXPECT_TRUE(stack.world.step(k_dt));
    }
    return stack;
}

real fastest(const World& world, const std::vector<BodyId>& bodies) {
    real most = 0;
    for (const BodyId id : bodies) {
        most = std::max(most, length(world.body_state(id)->linear_velocity));
    }
    return most;
}

// Woken with nothing disturbing it, a sleeping stack stays as still as it
// slept (Box2D's does): its contacts' impulses, kept while it slept, warm
// start its solve. Started cold, its boxes sagged under the weight above
// them and jumped apart at up to 0.16 L/s (a settled pile of 1,000 boxes
// moved at 10 cm/s on average).
TEST(WorldSleep, ASleepingStackWokenWithNothingDisturbingItStaysStill) {
    SleepingStack stack = sleeping_stack();
    World& world = stack.world;
    ASSERT_TRUE(world.set_awake(stack.boxes[0], true));
    for (const BodyId id : stack.boxes) {
        ASSERT_TRUE(awake(world, id)) << "the island wakes whole";
    }
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        ASSERT_LE(fastest(world, stack.boxes), world.tolerances().linear_sleep_tolerance)
            << "step " << i;
    }
    EXPECT_LE(step_until_asleep(world, 60), 60) << "and sleeps again";
}

// A stack woken by the contact search in a step (a light box landing on it)
// stays as still: the bodies the search wakes get the step's gravity as
// the awake ones did (without it, the solve's sub-steps took back 7/8 of g
// dt that they never had, and the warm start threw them up at that speed),
// and their pairs come in the order they had when they slept, so that
// their kept impulses find them (searched after the awake bodies, in the
// order they woke in, they came the other way round and started cold).
TEST(WorldSleep, AStackWokenByTheContactSearchStaysStill) {
    SleepingStack stack = sleeping_stack();
    World& world = stack.world;
    const BodyId top = stack.boxes.back();
    // 1 L above the top box's face: made there, it wakes nothing.
    const Vec2 above = world.body_state(top)->center + Vec2{0, 1.5f};
    const Material light{0.01f, 0.6f, 0};
    const BodyId feather =
        add_body(world, BodyType::dynamic, make_box(0.05f, 0.05f).value(), above, {}, light);
    ASSERT_FALSE(awake(world, top));
    bool woke = false;
    for (int i = 0; i < 60; ++i) {
        ASSERT_TRUE(world.step(k_dt));
        woke = woke || awake(world, stack.boxes[0]);
        ASSERT_LE(fastest(world, stack.boxes), world.tolerances().linear_sleep_tolerance)
            << "step " << i;
    }
    EXPECT_TRUE(woke);
    EXPECT_LT(world.body_state(feather)->center.y, above.y - 0.9f) << "it landed";
    EXPECT_LE(step_until_asleep(world, 120), 120) << "and all sleep again";
}

TEST(WorldSleep, PilesOfRandomBoxesFallAsleep) {
    // Box2D 2.4.1 puts such piles to sleep in 13 to 43 s; ours never did
    // (they rocked: WorldSolverSubsteps.PilesOfRandomBoxesComeToRest). Now
    // each sleeps within 19 s.
    for (const unsigned seed : {13u, 14u, 16u, 17u}) {
        World world = make_world();
        test::add_random_box_pile(world, seed);
        EXPECT_LE(step_until_asleep(world, 1800), 1800) << "seed " << seed;
    }
}

// A body created where a box sleeps wakes it, as set_transform and
// create_shape wake what sleeps where they put a shape: a kinematic disc
// at rest, or a static block, made 0.05 L deep in a sleeping box pushes it
// out within a few steps. The box slept on inside it for good (134 of 400
// probe scenes with a kinematic disc).
TEST(WorldSleep, ABodyCreatedInsideASleepingBoxWakesIt) {
    for (const BodyType type : {BodyType::kinematic, BodyType::static_body}) {
        World world = make_world();
        (void)add_ground(world);
        const BodyId box = add_box(world, {0, 0.5f});
        ASSERT_LE(step_until_asleep(world, 300), 300);
        const Shape block = make_box(0.25f, 0.25f).value();
        const BodyId other = add_body(world, type, block, {0.7f, 0.5f}); // 0.05 L into the box
        ASSERT_TRUE(world.step(k_dt));
        EXPECT_TRUE(awake(world, box)) << static_cast<int>(type);
        for (int i = 0; i < 60; ++i) {
            ASSERT_TRUE(world.step(k_dt));
        }
        EXPECT_LE(deepest_overlap(world, {box, other}, {make_box(0.5f, 0.5f).value(), block}),
                  2 * world.tolerances().linear_slop)
            << static_cast<int>(type);
    }
}

} // namespace
} // namespace sweep
