// Contact and sensor events against the state they report (fixed seeds):
// random piles of every moving shape in a box of static walls, with
// sensor zones (static, and carried by moving bodies), filters, kinematic
// bodies, and bodies destroyed and added between steps. After every step:
// - the touching pairs are the last step's with this step's begins added
//   and its ends taken away; a begin is a pair that did not touch, an end
//   one that did, and every touching pair's manifold points are closer than
//   the linear slop (collide()'s could exceed it by a rounding: seed 502,
//   a capsule on a polygon at 0.00500011 L);
// - the sensor overlaps the events add up to are those a brute force over
//   every pair of shapes finds by GJK (SensorEvent's rules);
// - a hit is faster than the threshold, at most one a pair, between live
//   shapes of the bodies it names (or of a body the bounds removed);
// - a body the bounds removed is reported and stale, and every moving body
//   left has a shape within the bounds;
// - a dynamic body asleep before and after the step did not move, and
//   every one asleep touches something;
// - the touching pairs' normal impulses push, their friction impulses keep
//   within Coulomb's cone, continuous collision's stops are within the step
//   and about dynamic bodies, and the count of awake bodies is theirs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../support/property.hpp"
#include "sweep/distance.hpp"
#include "sweep/world.hpp"
#include "world_shapes.hpp"

namespace sweep {
namespace {

using Pair = std::pair<ShapeId, ShapeId>;

real uniform(std::mt19937& rng, double lo, double hi) {
    return static_cast<real>(std::uniform_real_distribution<double>(lo, hi)(rng));
}

int pick(std::mt19937& rng, int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

Pair unordered(ShapeId a, ShapeId b) { return a < b ? Pair{a, b} : Pair{b, a}; }

Shape moving_shape(std::mt19937& rng) {
    switch (pick(rng, 0, 3)) {
    case 0:
        return make_box(uniform(rng, 0.2, 1), uniform(rng, 0.2, 1)).value();
    case 1:
        return make_circle({}, uniform(rng, 0.2, 0.8)).value();
    case 2:
        return make_capsule({0, uniform(rng, -0.6, -0.1)}, {0, uniform(rng, 0.1, 0.6)},
                            uniform(rng, 0.1, 0.4))
            .value();
    default: {
        const int n = pick(rng, 3, 7);
        std::vector<Vec2> points;
        const real r = uniform(rng, 0.3, 1);
        for (int i = 0; i < n; ++i) {
            const double a = 6.283185307179586 * (i + uniform(rng, -0.3, 0.3)) / n;
            points.push_back({r * real(std::cos(a)), r * real(std::sin(a))});
        }
        return make_polygon(points).value();
    }
    }
}

// One of two categories, masks that sometimes leave one out.
// The kill plane: a little beyond the box of walls make_world builds.
const Aabb k_bounds{{-12, -2}, {12, 18}};

Filter random_filter(std::mt19937& rng) {
    Filter f;
    f.category_bits = 1ull << pick(rng, 0, 1);
    f.mask_bits = pick(rng, 0, 3) == 0 ? ~f.category_bits : ~0ull;
    return f;
}

BodyId add_mover(World& world, std::mt19937& rng, BodyType type) {
    BodyDef def;
    def.type = type;
    def.position = {uniform(rng, -8, 8), uniform(rng, 1, 14)};
    def.angle = uniform(rng, -3, 3);
    // One in five fast enough for continuous collision (up to a body's
    // size a step).
    const real speed = pick(rng, 0, 4) == 0 ? 60 : 15;
    def.linear_velocity = {uniform(rng, -speed, speed), uniform(rng, -speed, speed)};
    def.angular_velocity = uniform(rng, -4, 4);
    std::vector<ShapeDef> shapes(1, ShapeDef(moving_shape(rng)));
    // (Rolling resistance, so that discs and capsules come to rest and sleep.)
    shapes[0].material.rolling_resistance = real(0.3);
    shapes[0].filter = random_filter(rng);
    if (pick(rng, 0, 4) == 0) {
        // A sensor it carries, larger than it: a pickup's reach.
        ShapeDef reach(make_circle({}, uniform(rng, 0.8, 1.6)).value());
        reach.sensor = true;
        reach.filter = random_filter(rng);
        shapes.push_back(reach);
    }
    return world.create_body(def, shapes).value();
}

World make_world(std::mt19937& rng, bool sleep) {
    WorldDef def;
    def.static_broadphase = pick(rng, 0, 1) == 0 ? StaticBroadphase::tree : StaticBroadphase::grid;
    def.enable_sleep = sleep;
    def.bounds = k_bounds;
    World world = World::make(def).value();
    // A box 20 L wide and 16 tall, its walls 1 L thick.
    const auto wall = [&](Vec2 at, real hx, real hy) {
        BodyDef b;
        b.position = at;
        const ShapeDef s(make_box(hx, hy).value());
        (void)world.create_body(b, std::span(&s, 1)).value();
    };
    wall({0, -0.5f}, 11, 0.5f);
    wall({0, 16.5f}, 11, 0.5f);
    wall({-10.5f, 8}, 0.5f, 8);
    wall({10.5f, 8}, 0.5f, 8);
    // Static sensor zones.
    for (int i = 0; i < 3; ++i) {
        BodyDef b;
        b.position = {uniform(rng, -7, 7), uniform(rng, 2, 13)};
        ShapeDef zone(make_box(uniform(rng, 0.5, 3), uniform(rng, 0.5, 3)).value());
        zone.sensor = true;
        zone.filter = random_filter(rng);
        (void)world.create_body(b, std::span(&zone, 1)).value();
    }
    for (int i = 0; i < 30; ++i) {
        add_mover(world, rng, BodyType::dynamic);
    }
    for (int i = 0; i < 2; ++i) {
        add_mover(world, rng, BodyType::kinematic);
    }
    return world;
}

using Live = test::LiveShape;
using test::live_shapes;

// SensorEvent's rules: a sensor is visited by every shape of another body
// that is not a sensor, whose filter and the sensor's collide, that shares
// a point with it (GJK's distance 0 or less); a static sensor by moving
// bodies' shapes only.
std::set<Pair> sensor_overlaps(const World& world) {
    const std::vector<Live> shapes = live_shapes(world);
    std::set<Pair> out;
    for (const Live& s : shapes) {
        if (!s.info.sensor) {
            continue;
        }
        for (const Live& v : shapes) {
            if (v.info.sensor || v.info.body == s.info.body ||
                !should_collide(s.info.filter, v.info.filter) ||
                (s.type == BodyType::static_body && v.type == BodyType::static_body)) {
                continue;
            }
            DistanceInput input{make_proxy(s.info.shape), make_proxy(v.info.shape), s.xf, v.xf,
                                true};
            SimplexCache cache;
            const DistanceOutput d = distance(input, cache);
            if (d.state == DistanceState::cores_overlap || d.distance <= 0) {
                out.insert({s.id, v.id});
            }
        }
    }
    return out;
}

void check_contacts(const World& world, std::set<Pair>& touching) {
    const StepEvents& events = world.events();
    for (const ContactEndEvent& e : events.contact_end) {
        EXPECT_EQ(touching.erase(unordered(e.shape_a, e.shape_b)), 1u)
            << "an end of a pair that did not touch: shapes " << e.shape_a.index << ", "
            << e.shape_b.index;
    }
    for (const ContactBeginEvent& b : events.contact_begin) {
        EXPECT_TRUE(touching.insert(unordered(b.shape_a, b.shape_b)).second)
            << "a begin of a pair that touched: shapes " << b.shape_a.index << ", "
            << b.shape_b.index;
    }
    std::set<Pair> now;
    const real slop = world.tolerances().linear_slop;
    for (const ContactData& c : world.touching_contacts()) {
        now.insert(unordered(c.shape_a, c.shape_b));
        // A begin names the pair as its touching contact does, with its
        // normal and first point.
        for (const ContactBeginEvent& b : events.contact_begin) {
            if (unordered(b.shape_a, b.shape_b) == unordered(c.shape_a, c.shape_b)) {
                const bool same_way = b.shape_a == c.shape_a;
                EXPECT_EQ(b.point, c.manifold.points[0].point);
                EXPECT_EQ(b.normal, same_way ? c.manifold.normal : -c.manifold.normal);
                EXPECT_EQ(same_way ? b.body_a : b.body_b, c.body_a);
                EXPECT_NEAR(length(b.normal), 1, 1e-5);
            }
        }
        ASSERT_GT(c.manifold.count, 0);
        for (int i = 0; i < c.manifold.count; ++i) {
            EXPECT_LT(c.manifold.points[static_cast<std::size_t>(i)].separation, slop);
        }
        const ShapeInfo a = world.shape_info(c.shape_a).value();
        const ShapeInfo b = world.shape_info(c.shape_b).value();
        EXPECT_EQ(a.body, c.body_a);
        EXPECT_EQ(b.body, c.body_b);
        // The solver's impulses push, never pull, and friction's keep to
        // Coulomb's cone (no shape here bounces, which may lower a normal
        // impulse after friction's solve). Friction solved before the
        // normal, as Box2D 2.4 does, left a fifth of a pile's points beyond it.
        EXPECT_TRUE(test::within_coulombs_cone(c, a, b))
            << "impulses " << c.normal_impulse[0] << ", " << c.normal_impulse[1] << " normal, "
            << c.tangent_impulse[0] << ", " << c.tangent_impulse[1] << " friction";
    }
    EXPECT_EQ(now, touching);
}

void check_sensors(const World& world, std::set<Pair>& overlapping) {
    const StepEvents& events = world.events();
    for (const SensorEvent& e : events.sensor_end) {
        EXPECT_EQ(overlapping.erase({e.sensor, e.visitor}), 1u)
            << "an end of a visit that was not on: sensor " << e.sensor.index << ", visitor "
            << e.visitor.index;
    }
    for (const SensorEvent& e : events.sensor_begin) {
        EXPECT_TRUE(overlapping.insert({e.sensor, e.visitor}).second)
            << "a begin of a visit that was on: sensor " << e.sensor.index << ", visitor "
            << e.visitor.index;
    }
    EXPECT_EQ(sensor_overlaps(world), overlapping);
}

// Continuous collision's reports: fractions within the step, each about a
// dynamic body (a pair's other one too); the step's count of awake
// dynamic bodies.
void check_stops_and_stats(const World& world) {
    for (const TimeOfImpactEvent& e : world.events().time_of_impact) {
        EXPECT_GE(e.fraction, 0);
        EXPECT_LE(e.fraction, 1);
        const auto body = world.body_state(e.body);
        const bool removed = std::find(world.events().removed.begin(), world.events().removed.end(),
                                       e.body) != world.events().removed.end();
        EXPECT_TRUE(removed || (body && body->type == BodyType::dynamic))
            << "a stop of body " << e.body.index << ", not a dynamic body";
        EXPECT_EQ(e.other.index >= 0, e.kind == TimeOfImpactKind::pair);
    }
    int awake = 0;
    for (const BodyId id : world.body_ids()) {
        const BodyState state = world.body_state(id).value();
        awake += state.type == BodyType::dynamic && state.awake ? 1 : 0;
    }
    EXPECT_EQ(world.stats().awake_bodies, awake);
}

void check_hits(const World& world) {
    std::set<Pair> hit;
    for (const ContactHitEvent& h : world.events().contact_hit) {
        EXPECT_GT(h.approach_speed, WorldDef{}.hit_speed_threshold);
        EXPECT_NEAR(length(h.normal), 1, 1e-5);
        EXPECT_TRUE(is_finite(h.point));
        EXPECT_TRUE(hit.insert(unordered(h.shape_a, h.shape_b)).second)
            << "two hits of shapes " << h.shape_a.index << ", " << h.shape_b.index;
        // Live shapes of the bodies named, or of a body the bounds removed
        // at the end of the step (stale then).
        for (const auto& [shape, body] : {std::pair{h.shape_a, h.body_a}, {h.shape_b, h.body_b}}) {
            const auto info = world.shape_info(shape);
            const std::vector<BodyId>& removed = world.events().removed;
            EXPECT_TRUE(info ? info->body == body
                             : std::find(removed.begin(), removed.end(), body) != removed.end())
                << "a hit of shape " << shape.index << ", gone, of body " << body.index;
        }
    }
}

// `inside`: the moving bodies before the step whose shapes were all within
// the bounds' interior, by a margin no step's motion in this scene crosses.
void check_bounds(const World& world, const std::vector<BodyId>& inside) {
    const std::vector<BodyId>& removed = world.events().removed;
    for (const BodyId id : removed) {
        EXPECT_FALSE(world.body_state(id)) << "body " << id.index << " removed but alive";
        EXPECT_EQ(std::find(inside.begin(), inside.end(), id), inside.end())
            << "body " << id.index << " removed from well inside the bounds";
    }
    for (const BodyId id : world.body_ids()) {
        const BodyState state = world.body_state(id).value();
        if (state.type == BodyType::static_body) {
            continue;
        }
        bool within = false;
        const std::vector<ShapeId> ids = world.body_shapes(id).value();
        for (const ShapeId sid : ids) {
            within = within || overlaps(compute_aabb(world.shape_info(sid).value().shape, state.xf),
                                        k_bounds);
        }
        EXPECT_TRUE(within) << "body " << id.index << " outside the bounds, not removed";
    }
}

// The moving bodies whose shapes are all 3 L or more inside the bounds.
std::vector<BodyId> well_inside(const World& world) {
    const Aabb interior{k_bounds.lower + Vec2{3, 3}, k_bounds.upper - Vec2{3, 3}};
    std::vector<BodyId> out;
    for (const Live& s : live_shapes(world)) {
        if (s.type != BodyType::static_body &&
            contains(interior, compute_aabb(s.info.shape, s.xf)) &&
            (out.empty() || out.back() != s.info.body)) {
            out.push_back(s.info.body);
        }
    }
    return out;
}

// The dynamic bodies asleep now, with their poses.
std::vector<std::pair<BodyId, Transform>> asleep(const World& world) {
    std::vector<std::pair<BodyId, Transform>> out;
    for (const BodyId id : world.body_ids()) {
        const BodyState state = world.body_state(id).value();
        if (state.type == BodyType::dynamic && !state.awake) {
            out.emplace_back(id, state.xf);
        }
    }
    return out;
}

void check_sleepers(const World& world, const std::vector<std::pair<BodyId, Transform>>& before) {
    // None asleep in mid-air: under gravity a body comes to rest only on
    // something, and what wakes it (a body under it destroyed or moved, a
    // filter changed) must, or it would hang there.
    std::set<std::int32_t> touching; // body indices
    for (const ContactData& c : world.touching_contacts()) {
        touching.insert(c.body_a.index);
        touching.insert(c.body_b.index);
    }
    for (const auto& [id, xf] : asleep(world)) {
        EXPECT_TRUE(touching.contains(id.index))
            << "body " << id.index << " asleep touching nothing";
    }
    for (const auto& [id, xf] : before) {
        const auto state = world.body_state(id);
        if (state && !state->awake) {
            EXPECT_EQ(state->xf.p, xf.p) << "body " << id.index << " moved asleep";
            EXPECT_EQ(state->xf.q.s, xf.q.s) << "body " << id.index << " turned asleep";
        }
    }
}

// Between steps, one time in `rarity`: a body destroyed, one added, one
// teleported (now and then beyond the bounds), a shape refiltered to pass
// through the walls and floor (category 1 or 2, so some), a shape
// destroyed, or a body made kinematic or dynamic.
void disturb(World& world, std::mt19937& rng, int rarity) {
    if (pick(rng, 1, rarity) > 1) {
        return;
    }
    // Half the time one asleep, or one touching one asleep: what a
    // sleeping pile rests on or holds.
    std::vector<BodyId> bodies;
    if (pick(rng, 0, 1) == 0) {
        std::set<std::int32_t> sleeping;
        for (const auto& [id, xf] : asleep(world)) {
            sleeping.insert(id.index);
            bodies.push_back(id);
        }
        for (const ContactData& c : world.touching_contacts()) {
            if (sleeping.contains(c.body_a.index) || sleeping.contains(c.body_b.index)) {
                bodies.push_back(sleeping.contains(c.body_a.index) ? c.body_b : c.body_a);
            }
        }
    }
    if (bodies.empty()) {
        bodies = world.body_ids();
    }
    const BodyId some = bodies[static_cast<std::size_t>(pick(rng, 0, int(bodies.size()) - 1))];
    const BodyState state = world.body_state(some).value();
    const bool moving = state.type != BodyType::static_body;
    const std::vector<ShapeId> shapes = world.body_shapes(some).value();
    switch (pick(rng, 0, 6)) {
    case 0:
        if (moving) {
            ASSERT_TRUE(world.destroy_body(some));
        }
        break;
    case 1:
        add_mover(world, rng, BodyType::dynamic);
        break;
    case 2:
        if (moving) {
            ASSERT_TRUE(world.set_transform(some, {uniform(rng, -8, 8), uniform(rng, 1, 14)},
                                            uniform(rng, -3, 3)));
        }
        break;
    case 3:
        if (moving) {
            ASSERT_TRUE(world.set_transform(some, {uniform(rng, -30, 30), uniform(rng, 20, 30)},
                                            uniform(rng, -3, 3)));
        }
        break;
    case 4:
        if (moving) {
            Filter f = random_filter(rng);
            f.mask_bits &= ~1ull; // the walls' default category
            ASSERT_TRUE(world.set_filter(shapes.front(), f));
        }
        break;
    case 5:
        if (moving && shapes.size() > 1) {
            ASSERT_TRUE(world.destroy_shape(shapes.back()));
        }
        break;
    default:
        if (moving) {
            ASSERT_TRUE(world.set_body_type(
                some, state.type == BodyType::dynamic ? BodyType::kinematic : BodyType::dynamic));
        }
        break;
    }
}

// `steps` steps of a scene, disturbed one step in `rarity` (none in the
// first `settle`), checking everything above after each.
void run_scene(std::uint32_t seed, int steps, int settle, int rarity, bool sleep) {
    std::mt19937 rng(seed);
    World world = make_world(rng, sleep);
    std::set<Pair> touching;
    std::set<Pair> overlapping;
    for (int step = 0; step < steps; ++step) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", step " + std::to_string(step));
        if (step >= settle) {
            disturb(world, rng, rarity);
        }
        const std::vector<BodyId> inside = well_inside(world);
        const std::vector<std::pair<BodyId, Transform>> sleepers = asleep(world);
        ASSERT_TRUE(world.step(real(1) / 60));
        check_contacts(world, touching);
        check_sensors(world, overlapping);
        check_hits(world);
        check_stops_and_stats(world);
        check_bounds(world, inside);
        check_sleepers(world, sleepers);
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

TEST(WorldEventsProperty, EventsAddUpToTheTouchingPairsAndTheSensorOverlaps) {
    const int scenes = test::property_cases(40);
    for (int i = 0; i < scenes; ++i) {
        const auto seed = 500 + static_cast<std::uint32_t>(i);
        run_scene(seed, 200, 0, 1, seed % 2 == 0);
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

// Piles left to settle and fall asleep (8 s), then disturbed now and then
// for 4 s: every change under or in a sleeping pile must wake what it
// touches, or the pile hangs in mid-air (check_sleepers), and the events
// must still add up.
TEST(WorldEventsProperty, SleepingPilesWakeWhenWhatHoldsThemChanges) {
    const int scenes = test::property_cases(30);
    for (int i = 0; i < scenes; ++i) {
        run_scene(900 + static_cast<std::uint32_t>(i), 720, 480, 20, true);
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

} // namespace
} // namespace sweep
