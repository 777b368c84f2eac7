// World queries against brute force (fixed seeds): random worlds of every
// shape kind on static, kinematic and dynamic bodies, in either static
// broadphase, after steps, moves, teleports, removals and additions have
// moved and remade their proxies; then random rays, boxes, shapes and points
// through random query filters. The brute force asks the kernel (raycast,
// shape_cast, distance, compute_aabb) of every live shape the filter sees,
// with no broadphase, as World's queries document their answers: the
// world's must be the same, to the bit and in the same order. A proxy the
// broadphase lost or left behind, or a filter misread, shows as a
// difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../support/property.hpp"
#include "sweep/distance.hpp"
#include "sweep/raycast.hpp"
#include "sweep/shape_cast.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

real uniform(std::mt19937& rng, double lo, double hi) {
    return static_cast<real>(std::uniform_real_distribution<double>(lo, hi)(rng));
}

int pick(std::mt19937& rng, int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

Vec2 random_point(std::mt19937& rng, double range) {
    return {uniform(rng, -range, range), uniform(rng, -range, range)};
}

// A convex shape about 0.2 to 3 L across about its local origin: a box, an
// offset box, a polygon, a disc (off its origin), a capsule, or (with
// `segments`: static bodies and queries) a segment.
Shape random_shape(std::mt19937& rng, bool segments = true) {
    switch (pick(rng, 0, segments ? 5 : 4)) {
    case 0:
        return make_box(uniform(rng, 0.1, 1.5), uniform(rng, 0.1, 1.5)).value();
    case 1:
        return make_offset_box(uniform(rng, 0.1, 1), uniform(rng, 0.1, 1), random_point(rng, 1),
                               uniform(rng, -3, 3))
            .value();
    case 2: {
        for (;;) {
            std::vector<Vec2> points(static_cast<std::size_t>(pick(rng, 3, 8)));
            for (Vec2& p : points) {
                p = random_point(rng, 1.5);
            }
            if (auto polygon =
                    make_polygon(points, pick(rng, 0, 2) == 0 ? uniform(rng, 0, 0.3) : real(0))) {
                return *polygon;
            }
        }
    }
    case 3:
        return make_circle(random_point(rng, 0.5), uniform(rng, 0.1, 1.5)).value();
    case 4:
        return make_capsule(random_point(rng, 1), random_point(rng, 1), uniform(rng, 0.05, 0.8))
            .value();
    default:
        return make_segment(random_point(rng, 1.5), random_point(rng, 1.5)).value();
    }
}

// One of four categories, a sensor now and then.
ShapeDef random_def(std::mt19937& rng, const Shape& shape) {
    ShapeDef def(shape);
    def.filter.category_bits = 1ull << pick(rng, 0, 3);
    def.sensor = pick(rng, 0, 9) == 0;
    return def;
}

BodyId add_body(World& world, std::mt19937& rng, BodyType type, Vec2 centre) {
    BodyDef def;
    def.type = type;
    def.position = centre + random_point(rng, 20);
    def.angle = uniform(rng, -3.14, 3.14);
    if (type != BodyType::static_body) {
        def.linear_velocity = random_point(rng, type == BodyType::kinematic ? 5 : 30);
        def.angular_velocity = uniform(rng, -5, 5);
    }
    std::vector<ShapeDef> shapes;
    if (type == BodyType::static_body && pick(rng, 0, 5) == 0) {
        // A closed chain loop about the body's origin.
        std::vector<Vec2> loop;
        const int n = pick(rng, 3, 7);
        const real r = uniform(rng, 1, 4);
        for (int i = 0; i < n; ++i) {
            const double a = 6.283185307179586 * (i + uniform(rng, -0.3, 0.3)) / n;
            loop.push_back({r * real(std::cos(a)), r * real(std::sin(a))});
        }
        const std::vector<ChainSegment> chain = make_chain_loop(loop).value();
        for (const ChainSegment& c : chain) {
            shapes.push_back(random_def(rng, Shape(c)));
        }
    } else {
        const int count = pick(rng, 1, 3) == 1 ? 2 : 1;
        for (int i = 0; i < count; ++i) {
            shapes.push_back(random_def(rng, random_shape(rng, type == BodyType::static_body)));
        }
    }
    return world.create_body(def, shapes).value();
}

QueryFilter random_filter(std::mt19937& rng) {
    QueryFilter filter;
    filter.mask_bits = pick(rng, 0, 2) == 0 ? ~0ull : static_cast<std::uint64_t>(pick(rng, 1, 15));
    filter.include_sensors = pick(rng, 0, 1) == 1;
    return filter;
}

// A live shape as the brute force sees it: placed by its body's transform.
struct Placed {
    ShapeId id;
    BodyId body;
    ShapeInfo info;
    Transform xf;
};

std::vector<Placed> every_shape(const World& world, const QueryFilter& filter) {
    std::vector<Placed> out;
    for (const BodyId body : world.body_ids()) {
        const Transform xf = world.body_state(body).value().xf;
        const std::vector<ShapeId> ids = world.body_shapes(body).value();
        for (const ShapeId id : ids) {
            const ShapeInfo info = world.shape_info(id).value();
            if ((info.filter.category_bits & filter.mask_bits) != 0 &&
                (filter.include_sensors || !info.sensor)) {
                out.push_back({id, body, info, xf});
            }
        }
    }
    return out;
}

bool same_hit(const QueryHit& a, const QueryHit& b) {
    return a.shape == b.shape && a.body == b.body && a.point == b.point && a.normal == b.normal &&
           a.fraction == b.fraction;
}

std::string describe(const QueryHit& h) {
    return "shape " + std::to_string(h.shape.index) + " at fraction " + std::to_string(h.fraction);
}

void expect_ray_as_brute_force(const World& world, Vec2 origin, Vec2 translation,
                               const QueryFilter& filter) {
    std::vector<QueryHit> expected;
    for (const Placed& s : every_shape(world, filter)) {
        const CastOutput out = raycast(RayInput{origin, translation, 1}, s.info.shape, s.xf);
        if (out.state == CastState::hit) {
            expected.push_back({s.id, s.body, out.point, out.normal, out.fraction});
        }
    }
    std::sort(expected.begin(), expected.end(), [](const QueryHit& a, const QueryHit& b) {
        return a.fraction != b.fraction ? a.fraction < b.fraction : a.shape < b.shape;
    });
    const std::vector<QueryHit> all = world.raycast_all(origin, translation, filter).value();
    ASSERT_EQ(all.size(), expected.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_TRUE(same_hit(all[i], expected[i]))
            << describe(all[i]) << " against " << describe(expected[i]);
    }
    const std::optional<QueryHit> closest =
        world.raycast_closest(origin, translation, filter).value();
    ASSERT_EQ(closest.has_value(), !expected.empty());
    if (closest) {
        EXPECT_TRUE(same_hit(*closest, expected.front()));
    }
}

void check_ray(const World& world, std::mt19937& rng, Vec2 centre) {
    const Vec2 origin = centre + random_point(rng, 25);
    const Vec2 translation = random_point(rng, 30);
    expect_ray_as_brute_force(world, origin, translation, random_filter(rng));
}

void expect_shape_cast_as_brute_force(const World& world, const Shape& shape, const Transform& xf,
                                      Vec2 translation, const QueryFilter& filter) {
    ShapeCastInput input;
    input.proxy_b = make_proxy(shape);
    input.xf_b = xf;
    input.translation_b = translation;
    input.target_separation = world.tolerances().linear_slop;
    input.touch_tolerance = world.tolerances().touch_tolerance;
    std::optional<QueryHit> expected;
    for (const Placed& s : every_shape(world, filter)) {
        input.proxy_a = make_proxy(s.info.shape);
        input.xf_a = s.xf;
        const CastOutput out = shape_cast(input);
        if (out.state == CastState::hit &&
            (!expected || out.fraction < expected->fraction ||
             (out.fraction == expected->fraction && s.id < expected->shape))) {
            expected = QueryHit{s.id, s.body, out.point, out.normal, out.fraction};
        }
    }
    const std::optional<QueryHit> hit = world.shape_cast(shape, xf, translation, filter).value();
    ASSERT_EQ(hit.has_value(), expected.has_value());
    if (hit) {
        EXPECT_TRUE(same_hit(*hit, *expected))
            << describe(*hit) << " against " << describe(*expected);
    }
}

void check_shape_cast(const World& world, std::mt19937& rng, Vec2 centre) {
    const Shape shape = random_shape(rng);
    const Transform xf{centre + random_point(rng, 25), Rot::from_angle(uniform(rng, -3.14, 3.14))};
    const Vec2 translation = random_point(rng, 20);
    expect_shape_cast_as_brute_force(world, shape, xf, translation, random_filter(rng));
}

void check_overlaps(const World& world, std::mt19937& rng, Vec2 centre) {
    const QueryFilter filter = random_filter(rng);
    const std::vector<Placed> shapes = every_shape(world, filter);
    // A box, touching counted.
    const Vec2 lower = centre + random_point(rng, 25);
    const Aabb box{lower, lower + Vec2{uniform(rng, 0, 10), uniform(rng, 0, 10)}};
    std::vector<ShapeId> in_box;
    for (const Placed& s : shapes) {
        if (overlaps(compute_aabb(s.info.shape, s.xf), box)) {
            in_box.push_back(s.id);
        }
    }
    std::sort(in_box.begin(), in_box.end());
    EXPECT_EQ(world.overlap_aabb(box, filter).value(), in_box);
    // A shape, and a point (a disc of radius 0): GJK's distance 0 or less.
    const auto touching = [&](const Shape& shape, const Transform& xf) {
        std::vector<ShapeId> ids;
        DistanceInput input;
        input.proxy_b = make_proxy(shape);
        input.xf_b = xf;
        for (const Placed& s : shapes) {
            input.proxy_a = make_proxy(s.info.shape);
            input.xf_a = s.xf;
            SimplexCache cache;
            const DistanceOutput d = distance(input, cache);
            if (d.state == DistanceState::cores_overlap || d.distance <= 0) {
                ids.push_back(s.id);
            }
        }
        std::sort(ids.begin(), ids.end());
        return ids;
    };
    const Shape shape = random_shape(rng);
    const Transform xf{centre + random_point(rng, 25), Rot::from_angle(uniform(rng, -3.14, 3.14))};
    EXPECT_EQ(world.overlap_shape(shape, xf, filter).value(), touching(shape, xf));
    // A point anywhere, or a body's origin (often inside its shapes).
    const std::vector<BodyId> bodies = world.body_ids();
    const Vec2 point =
        pick(rng, 0, 1) == 0
            ? centre + random_point(rng, 25)
            : world
                  .body_state(
                      bodies[static_cast<std::size_t>(pick(rng, 0, int(bodies.size()) - 1))])
                  .value()
                  .xf.p;
    EXPECT_EQ(world.point_query(point, filter).value(),
              touching(Circle{{}, 0}, Transform{point, Rot{}}));
}

// Changes the world between queries: steps, moves of kinematic bodies,
// teleports, a body removed and one added.
void evolve(World& world, std::mt19937& rng, std::vector<BodyId>& kinematic, Vec2 centre) {
    for (int i = pick(rng, 1, 5); i > 0; --i) {
        ASSERT_TRUE(world.step(real(1) / 60));
    }
    for (const BodyId id : kinematic) {
        if (world.body_state(id)) {
            ASSERT_TRUE(world.move(id, random_point(rng, 3)));
        }
    }
    const std::vector<BodyId> bodies = world.body_ids();
    const BodyId some = bodies[static_cast<std::size_t>(pick(rng, 0, int(bodies.size()) - 1))];
    if (world.body_state(some)->type != BodyType::static_body) {
        ASSERT_TRUE(world.set_transform(some, centre + random_point(rng, 20), uniform(rng, -3, 3)));
    }
    if (pick(rng, 0, 2) == 0) {
        ASSERT_TRUE(world.destroy_body(some));
    }
    const auto type = static_cast<BodyType>(pick(rng, 0, 2));
    const BodyId added = add_body(world, rng, type, centre);
    if (type == BodyType::kinematic) {
        kinematic.push_back(added);
    }
}

// The worlds about `centre` (L): far from the origin, float rounds their
// coordinates to 0.008 L at 1e5, and the broadphase's boxes round too.
void run_world(std::uint32_t seed, Vec2 centre) {
    std::mt19937 rng(seed);
    WorldDef def;
    def.static_broadphase = pick(rng, 0, 1) == 0 ? StaticBroadphase::tree : StaticBroadphase::grid;
    def.enable_sleep = pick(rng, 0, 1) == 1;
    def.bounds = Aabb{centre - Vec2{200, 200}, centre + Vec2{200, 200}};
    World world = World::make(def).value();
    std::vector<BodyId> kinematic;
    for (int i = 0; i < 40; ++i) {
        add_body(world, rng, BodyType::static_body, centre);
    }
    for (int i = 0; i < 25; ++i) {
        add_body(world, rng, BodyType::dynamic, centre);
    }
    for (int i = 0; i < 5; ++i) {
        kinematic.push_back(add_body(world, rng, BodyType::kinematic, centre));
    }
    for (int round = 0; round < 8; ++round) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", round " + std::to_string(round));
        evolve(world, rng, kinematic, centre);
        for (int q = 0; q < 10; ++q) {
            check_ray(world, rng, centre);
            check_shape_cast(world, rng, centre);
            check_overlaps(world, rng, centre);
        }
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

// A level of unit tiles about `centre` (L), three in five cells of a 30 x
// 30 grid filled, and rays and box casts from the points of a half-tile
// lattice to others, and rays from anywhere through a tile's corner: they
// run along the tiles' faces and through their corners exactly, where hits
// tie (a ray from a corner meets up to four tiles at 0, and the closest
// is the lowest id) and, far out, the broadphase's tests of the tiles'
// boxes round by more than its margin (an ulp is 0.5 L at 4e6 L).
void run_lattice(std::uint32_t seed, Vec2 centre, StaticBroadphase broadphase) {
    std::mt19937 rng(seed);
    WorldDef def;
    def.static_broadphase = broadphase;
    World world = World::make(def).value();
    const ShapeDef tile{make_box(0.5, 0.5).value(), {}};
    for (int y = 0; y < 30; ++y) {
        for (int x = 0; x < 30; ++x) {
            if (pick(rng, 0, 4) < 3) {
                BodyDef body;
                body.position = centre + Vec2{real(x) + real(0.5), real(y) + real(0.5)};
                world.create_body(body, std::span(&tile, 1)).value();
            }
        }
    }
    const auto lattice = [&](int lo, int hi) {
        return Vec2{real(pick(rng, lo, hi)) / 2, real(pick(rng, lo, hi)) / 2};
    };
    const Shape box = make_box(0.5, 0.5).value();
    for (int q = 0; q < 200; ++q) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", query " + std::to_string(q));
        const Vec2 from = centre + lattice(0, 60);
        const Vec2 translation = lattice(-30, 30);
        expect_ray_as_brute_force(world, from, translation, {});
        // From anywhere at a tile's corner, and on past it.
        const Vec2 start = centre + random_point(rng, 40) + Vec2{15, 15};
        const Vec2 corner = centre + Vec2{real(pick(rng, 0, 30)), real(pick(rng, 0, 30))};
        expect_ray_as_brute_force(world, start, uniform(rng, 1, 3) * (corner - start), {});
        expect_shape_cast_as_brute_force(world, box, {from, Rot{}}, translation, {});
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

TEST(WorldQueryProperty, RaysAndCastsAlongATileGridsFacesAndCornersAnswerAsBruteForce) {
    const int levels = test::property_cases(20);
    for (int i = 0; i < levels; ++i) {
        const auto seed = 9000 + static_cast<std::uint32_t>(i);
        const StaticBroadphase broadphase =
            i % 2 == 0 ? StaticBroadphase::tree : StaticBroadphase::grid;
        run_lattice(seed, {}, broadphase);
        run_lattice(seed, {real(1e5), real(-3e5)}, broadphase);
        run_lattice(seed, {real(4e6), real(-4e6)}, broadphase);
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

TEST(WorldQueryProperty, EveryQueryAnswersAsBruteForceOverEveryShape) {
    const int worlds = test::property_cases(150);
    for (int i = 0; i < worlds; ++i) {
        run_world(1000 + static_cast<std::uint32_t>(i), {});
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

TEST(WorldQueryProperty, FarFromTheOriginEveryQueryAnswersAsBruteForce) {
    const int worlds = test::property_cases(50);
    for (int i = 0; i < worlds; ++i) {
        run_world(5000 + static_cast<std::uint32_t>(i), {real(1e5), real(-3e5)});
        if (testing::Test::HasFailure()) {
            return;
        }
    }
}

} // namespace
} // namespace sweep
