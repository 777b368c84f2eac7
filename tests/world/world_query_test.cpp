// World queries against hand-placed bodies: every expected fraction, point
// and membership below follows from the layout drawn in each comment.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "sweep/world.hpp"

namespace sweep {
namespace {

struct Scene {
    World world;
    BodyId near_box;
    BodyId far_box;
    BodyId disc;
    BodyId sensor;
};

BodyId add(World& world, BodyType type, ShapeDef shape, Vec2 position) {
    BodyDef def;
    def.type = type;
    def.position = position;
    return world.create_body(def, std::span(&shape, 1)).value();
}

// Along the x axis: a unit box at x = 3 (faces at 2.5 and 3.5), a dynamic
// unit box at x = 6 (faces 5.5, 6.5) in category 2, a disc of radius 0.5 at
// (0, 3), and a sensor box at x = 9 (faces 8.5, 9.5).
Scene make_scene(StaticBroadphase broadphase = StaticBroadphase::tree) {
    WorldDef def;
    def.static_broadphase = broadphase;
    Scene s{std::move(World::make(def).value()), {}, {}, {}, {}};
    s.near_box =
        add(s.world, BodyType::static_body, ShapeDef(make_box(0.5f, 0.5f).value()), {3, 0});
    ShapeDef far(make_box(0.5f, 0.5f).value());
    far.filter.category_bits = 2;
    s.far_box = add(s.world, BodyType::dynamic, far, {6, 0});
    s.disc = add(s.world, BodyType::static_body, ShapeDef(Circle{{}, 0.5f}), {0, 3});
    ShapeDef zone(make_box(0.5f, 0.5f).value());
    zone.sensor = true;
    s.sensor = add(s.world, BodyType::static_body, zone, {9, 0});
    return s;
}

TEST(WorldQuery, RayHitsTheNearestFaceFirstAndAllInOrder) {
    Scene s = make_scene();
    // From the origin along +x for 10: enters the near box at x = 2.5
    // (fraction 0.25), the far box at 5.5 (0.55); the sensor is not seen.
    const auto closest = s.world.raycast_closest({0, 0}, {10, 0}).value();
    ASSERT_TRUE(closest);
    EXPECT_EQ(closest->body, s.near_box);
    EXPECT_NEAR(closest->fraction, 0.25, 1e-6);
    EXPECT_NEAR(closest->point.x, 2.5, 1e-5);
    EXPECT_NEAR(closest->normal.x, -1, 1e-6);
    const auto all = s.world.raycast_all({0, 0}, {10, 0}).value();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[1].body, s.far_box);
    EXPECT_NEAR(all[1].fraction, 0.55, 1e-6);
    // With sensors: the sensor's face at 8.5 (0.85) too.
    QueryFilter with_sensors;
    with_sensors.include_sensors = true;
    const auto three = s.world.raycast_all({0, 0}, {10, 0}, with_sensors).value();
    ASSERT_EQ(three.size(), 3u);
    EXPECT_EQ(three[2].body, s.sensor);
    EXPECT_NEAR(three[2].fraction, 0.85, 1e-6);
    // A mask of category 2 sees only the far box.
    const auto masked = s.world.raycast_closest({0, 0}, {10, 0}, QueryFilter{2, false}).value();
    ASSERT_TRUE(masked);
    EXPECT_EQ(masked->body, s.far_box);
}

TEST(WorldQuery, RayMissesWhatItStartsInsideAndWhatIsBeyondItsEnd) {
    Scene s = make_scene();
    // Starting inside the near box: it is skipped, the far box is next.
    const auto from_inside = s.world.raycast_closest({3, 0}, {10, 0}).value();
    ASSERT_TRUE(from_inside);
    EXPECT_EQ(from_inside->body, s.far_box);
    EXPECT_FALSE(s.world.raycast_closest({0, 0}, {2, 0}).value()); // stops at x = 2
    EXPECT_EQ(s.world.raycast_all({NAN, 0}, {1, 0}).error().code, ErrorCode::invalid_input);
}

TEST(WorldQuery, AQueryIntoAVectorReplacesWhatItHeldAndLeavesItOnAnError) {
    Scene s = make_scene();
    const QueryHit stale{};
    std::vector<QueryHit> hits(5, stale);
    ASSERT_TRUE(s.world.raycast_all({0, 0}, {10, 0}, {}, hits));
    ASSERT_EQ(hits.size(), 2u); // the near and far boxes, nothing of before
    EXPECT_EQ(hits[0].body, s.near_box);
    EXPECT_EQ(hits[1].body, s.far_box);
    EXPECT_EQ(s.world.raycast_all({NAN, 0}, {1, 0}, {}, hits).error().code,
              ErrorCode::invalid_input);
    EXPECT_EQ(hits.size(), 2u); // as it was
    EXPECT_EQ(hits[0].body, s.near_box);
    const ShapeId near_shape = s.world.body_shapes(s.near_box).value().front();
    std::vector<ShapeId> ids(3, ShapeId{});
    ASSERT_TRUE(s.world.overlap_aabb({{2, -1}, {4, 1}}, {}, ids));
    EXPECT_EQ(ids, std::vector<ShapeId>{near_shape});
    EXPECT_EQ(s.world.overlap_aabb({{4, -1}, {2, 1}}, {}, ids).error().code,
              ErrorCode::invalid_input); // inverted
    EXPECT_EQ(ids, std::vector<ShapeId>{near_shape});
    ids.assign(3, ShapeId{});
    ASSERT_TRUE(s.world.overlap_shape(Circle{{}, 0.25f}, {{3, 0}, Rot{}}, {}, ids));
    EXPECT_EQ(ids, std::vector<ShapeId>{near_shape});
    EXPECT_EQ(s.world.overlap_shape(Circle{{}, 0.25f}, {{NAN, 0}, Rot{}}, {}, ids).error().code,
              ErrorCode::invalid_input);
    EXPECT_EQ(ids, std::vector<ShapeId>{near_shape});
    ids.assign(3, ShapeId{});
    ASSERT_TRUE(s.world.point_query({3, 0}, {}, ids));
    EXPECT_EQ(ids, std::vector<ShapeId>{near_shape});
    EXPECT_EQ(s.world.point_query({0, NAN}, {}, ids).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(ids, std::vector<ShapeId>{near_shape});
    ASSERT_TRUE(s.world.point_query({20, 20}, {}, ids));
    EXPECT_TRUE(ids.empty());
}

TEST(WorldQuery, CastsBeyondTheWorldsCoordinatesAreRejectedWhole) {
    // A ray or cast that starts, moves or ends beyond k_max_coordinate:
    // invalid_input, as for bodies there. (fuzz_world: a ray 1e18 L long
    // against a large disc got a NaN fraction.) Just within, it still hits.
    Scene s = make_scene();
    const real far = 3 * k_max_coordinate;
    EXPECT_EQ(s.world.raycast_closest({0, 0}, {far, 0}).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(s.world.raycast_all({far, 0}, {-far, 0}).error().code, ErrorCode::invalid_input);
    EXPECT_EQ(s.world.raycast_all({0, 0}, {k_max_coordinate, 0}).value().size(), 2u);
    EXPECT_EQ(s.world.shape_cast(Circle{{}, 0.5f}, k_identity, {far, 0}).error().code,
              ErrorCode::invalid_input);
    EXPECT_EQ(s.world.shape_cast(Circle{{}, 0.5f}, {{far, 0}, Rot{}}, {-far, 0}).error().code,
              ErrorCode::invalid_input);
}

TEST(WorldQuery, ShapeCastStopsTheSlopBeforeTheFace) {
    Scene s = make_scene();
    // A disc of radius 0.5 from the origin along +x by 4: its front reaches
    // the near box's face at x = 2.5 after moving 2, minus the slop 0.005:
    // fraction (2 - 0.005) / 4.
    const auto hit = s.world.shape_cast(Circle{{}, 0.5f}, k_identity, {4, 0}).value();
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, s.near_box);
    EXPECT_NEAR(hit->fraction, (2 - 0.005) / 4, 1e-4);
    EXPECT_NEAR(hit->normal.x, -1, 1e-4); // the near box's face normal
    EXPECT_NEAR(hit->point.x, 2.5, 1e-3);
    // Upward instead, toward the disc at (0, 3): centres 3 apart, radii 1.
    const auto up = s.world.shape_cast(Circle{{}, 0.5f}, k_identity, {0, 4}).value();
    ASSERT_TRUE(up);
    EXPECT_EQ(up->body, s.disc);
    EXPECT_NEAR(up->fraction, (2 - 0.005) / 4, 1e-4);
}

TEST(WorldQuery, OverlapsUseTheShapesOwnBoundsAndGeometry) {
    Scene s = make_scene();
    // [2.4, 2.45] x [0, 1] misses the near box's AABB [2.5, 3.5]: the fat
    // broadphase box would have reached it.
    EXPECT_TRUE(s.world.overlap_aabb({{2.4f, 0}, {2.45f, 1}}).value().empty());
    const auto touching = s.world.overlap_aabb({{2.4f, 0}, {2.5f, 1}}).value();
    ASSERT_EQ(touching.size(), 1u);
    EXPECT_EQ(s.world.shape_info(touching[0])->body, s.near_box);
    // A disc at (2, 0.9) of radius 0.6 reaches the box's corner (2.5, 0.5)?
    // Its distance to the corner is sqrt(0.25 + 0.16) = 0.64 > 0.6: no. It
    // does reach its AABB, so only geometry decides.
    EXPECT_TRUE(s.world.overlap_shape(Circle{{}, 0.6f}, {{2, 0.9f}, Rot{}}).value().empty());
    EXPECT_EQ(s.world.overlap_shape(Circle{{}, 0.7f}, {{2, 0.9f}, Rot{}}).value().size(), 1u);
    // Points: inside the disc, on the near box's face, in empty space.
    EXPECT_EQ(s.world.point_query({0.2f, 3.2f}).value().size(), 1u);
    EXPECT_EQ(s.world.point_query({2.5f, 0}).value().size(), 1u);
    EXPECT_TRUE(s.world.point_query({1, 1}).value().empty());
    EXPECT_EQ(s.world.overlap_aabb({{1, 1}, {0, 0}}).error().code, ErrorCode::invalid_input);
}

// Far from the origin a point is as precise as the coordinates: one 0.0625
// L (8 ulps) beyond a box's face at (1e5, -3e5) is outside it, one as far
// inside is in, and one on the face counts. Taken as a disc's centre in
// world coordinates, the point came into the box's frame rounded to 4 ulps
// of 3e5 (0.125 L), and a point within that of the box (and within its
// fat broadphase box) was said to be in it (found by the far-from-origin
// property test at 10 times its worlds).
TEST(WorldQuery, APointFarFromTheOriginIsInAShapeOnlyWithinItsOwnPrecision) {
    World world = World::make().value();
    BodyDef def;
    def.type = BodyType::kinematic;
    def.position = {real(1e5), real(-3e5)};
    const ShapeDef box(make_box(1, 1).value());
    (void)world.create_body(def, std::span(&box, 1)).value();
    const real face = real(1e5) + 1;
    EXPECT_TRUE(world.point_query({face + real(0.0625), real(-3e5)}).value().empty());
    EXPECT_EQ(world.point_query({face - real(0.0625), real(-3e5)}).value().size(), 1u);
    EXPECT_EQ(world.point_query({face, real(-3e5) + real(0.5)}).value().size(), 1u);
}

TEST(WorldQuery, AGridOfStaticShapesAnswersAsTheTreeDoes) {
    // The same scene with its static shapes in a UniformGrid: every query
    // above gives the same shapes, and a ball still lands on the near box.
    Scene tree = make_scene();
    Scene grid = make_scene(StaticBroadphase::grid);
    const auto ids = [](const std::vector<QueryHit>& hits) {
        std::vector<BodyId> bodies;
        for (const QueryHit& h : hits) {
            bodies.push_back(h.body);
        }
        return bodies;
    };
    for (const Vec2 origin : {Vec2{0, 0}, Vec2{-1, 3}, Vec2{3, -2}}) {
        for (const Vec2 translation : {Vec2{10, 0}, Vec2{0, 5}, Vec2{4, 4}}) {
            EXPECT_EQ(ids(tree.world.raycast_all(origin, translation).value()),
                      ids(grid.world.raycast_all(origin, translation).value()));
        }
    }
    EXPECT_EQ(tree.world.overlap_aabb({{-1, -1}, {7, 4}}).value().size(),
              grid.world.overlap_aabb({{-1, -1}, {7, 4}}).value().size());
    BodyDef def;
    def.type = BodyType::dynamic;
    def.position = {3, 2};
    const ShapeDef ball(Circle{{}, 0.25f});
    const BodyId id = grid.world.create_body(def, std::span(&ball, 1)).value();
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(grid.world.step(1.0f / 60));
    }
    // On the near box's top face (y = 0.5): centre at 0.75.
    EXPECT_NEAR(grid.world.body_state(id)->center.y, 0.75, 2 * grid.world.tolerances().linear_slop);
}

// Every scene query, against a disc of radius r centred at c (where the step
// left it) whose side along the unit direction u is clear of every other
// shape, each probing only beyond 0.7 r out along u: a point 0.9 r out is in
// the disc; a ray from 3 r out moving 2.25 r back enters it at fraction
// (3r - r) / 2.25r = 8/9, at c + r u with normal u; a disc of radius 0.05 r
// cast the same way stops the slop before meeting it, its centre 1.05 r
// out: fraction (1.95r - slop) / 2.25r. A box and a disc of 0.05 r about
// the point meet the disc alone. And every leaf of the moving tree holds
// its shape, as broadphase_tree promises between steps.
void expect_queries_see_disc(const World& world, BodyId disc, real r, Vec2 u) {
    const Vec2 c = world.body_state(disc)->center;
    const std::vector<ShapeId> shape = world.body_shapes(disc).value();
    const Vec2 p = c + real(0.9) * r * u;
    EXPECT_EQ(world.point_query(p).value(), shape);
    const Vec2 small{real(0.05) * r, real(0.05) * r};
    EXPECT_EQ(world.overlap_aabb({p - small, p + small}).value(), shape);
    EXPECT_EQ(world.overlap_shape(Circle{{}, real(0.05) * r}, {p, Rot{}}).value(), shape);
    const Vec2 origin = c + 3 * r * u;
    const Vec2 back = real(-2.25) * r * u;
    const auto expect_entry = [&](const QueryHit& hit) {
        EXPECT_EQ(hit.shape, shape.front());
        EXPECT_NEAR(hit.fraction, 8.0 / 9, 1e-5);
        EXPECT_NEAR(hit.point.x, c.x + r * u.x, 1e-5);
        EXPECT_NEAR(hit.point.y, c.y + r * u.y, 1e-5);
        EXPECT_NEAR(dot(hit.normal, u), 1, 1e-5);
    };
    const std::optional<QueryHit> closest = world.raycast_closest(origin, back).value();
    EXPECT_TRUE(closest) << "raycast_closest";
    if (closest) {
        expect_entry(*closest);
    }
    const std::vector<QueryHit> all = world.raycast_all(origin, back).value();
    EXPECT_EQ(all.size(), 1u) << "raycast_all";
    if (!all.empty()) {
        expect_entry(all.front());
    }
    const real slop = world.tolerances().linear_slop;
    const std::optional<QueryHit> cast =
        world.shape_cast(Circle{{}, real(0.05) * r}, {origin, Rot{}}, back).value();
    EXPECT_TRUE(cast) << "shape_cast";
    if (cast) {
        EXPECT_EQ(cast->shape, shape.front());
        EXPECT_NEAR(cast->fraction, (real(1.95) * r - slop) / (real(2.25) * r), 1e-4);
        EXPECT_NEAR(dot(cast->normal, u), 1, 1e-4);
    }
    const std::vector<TreeNodeInfo> nodes = world.broadphase_tree(BroadphaseTree::moving).value();
    for (const TreeNodeInfo& node : nodes) {
        if (node.leaf) {
            const ShapeInfo info = world.shape_info(node.shape).value();
            EXPECT_TRUE(
                contains(node.box, compute_aabb(info.shape, world.body_state(info.body)->xf)))
                << "leaf of shape " << node.shape.index;
        }
    }
}

TEST(WorldQuery, QueriesSeeDiscsTheStepPushedApart) {
    // Two dynamic discs of radius 1, made with centres 0.5 apart on the x
    // axis: the first step pushes them apart, the left one to the left, out
    // of the box its proxy was made with (its left side then reached -1.1).
    World world = World::make({}).value();
    BodyDef def;
    def.type = BodyType::dynamic;
    const ShapeDef disc(Circle{{}, 1});
    const BodyId left = world.create_body(def, std::span(&disc, 1)).value();
    def.position = {0.5f, 0};
    const BodyId right = world.create_body(def, std::span(&disc, 1)).value();
    ASSERT_TRUE(world.step(1.0f / 60));
    const Vec2 c = world.body_state(left)->center;
    // What the step did, which the queries below are about: the discs are
    // more than 0.9 apart (so the right one is clear of the left's left
    // side), and the left one's side beyond 0.7 out, which the queries
    // probe, lies beyond its proxy's box's left side, -1.1, by the margin.
    ASSERT_GT(world.body_state(right)->center.x - c.x, 0.9);
    ASSERT_LT(c.x - 0.7, -1.1);
    expect_queries_see_disc(world, left, 1, {-1, 0});
}

TEST(WorldQuery, QueriesSeeADiscTheStepPushedOutOfAFloor) {
    // A dynamic disc of radius 0.5 made 0.3 into a static floor (top y = 0):
    // centre (0, 0.2), top 0.7, its proxy's box to 0.8. The step lifts it out,
    // to within two slops of resting on the floor (centre 0.5), so the
    // queries probe above 0.49 + 0.35 = 0.84.
    World world = World::make({}).value();
    BodyDef floor_def;
    floor_def.position = {0, -0.5f};
    const ShapeDef floor(make_box(5, 0.5f).value());
    ASSERT_TRUE(world.create_body(floor_def, std::span(&floor, 1)));
    BodyDef def;
    def.type = BodyType::dynamic;
    def.position = {0, 0.2f};
    const ShapeDef disc(Circle{{}, 0.5f});
    const BodyId id = world.create_body(def, std::span(&disc, 1)).value();
    ASSERT_TRUE(world.step(1.0f / 60));
    const real slop = world.tolerances().linear_slop;
    EXPECT_NEAR(world.body_state(id)->center.y, 0.5, 2 * slop);
    expect_queries_see_disc(world, id, 0.5f, {0, 1});
}

// A level of unit tiles made before any step, which the static tree places
// only when first read (World::Impl::place_static_proxies): const box
// queries that come first, from four threads at once, find exactly the
// tiles whose boxes a brute force over the layout finds; so do queries
// after more tiles are made and some destroyed, and after a step.
TEST(WorldQuery, TilesMadeBeforeAnyStepAreFoundByTheFirstQueriesFromSeveralThreads) {
    World world = std::move(World::make().value());
    struct Tile {
        ShapeId shape;
        Aabb box;
        BodyId body;
    };
    std::vector<Tile> tiles;
    const auto make_tile = [&](int x, int y) {
        const BodyId body = add(world, BodyType::static_body,
                                ShapeDef(make_box(0.5f, 0.5f).value()), {real(x), real(y)});
        const Aabb b{{real(x) - 0.5f, real(y) - 0.5f}, {real(x) + 0.5f, real(y) + 0.5f}};
        tiles.push_back({world.body_shapes(body).value().front(), b, body});
    };
    for (int y = 0; y < 40; ++y) {
        for (int x = 0; x < 40; ++x) {
            if ((x * 7 + y * 3) % 5 != 0) {
                make_tile(x, y);
            }
        }
    }
    std::mt19937 rng(17);
    std::uniform_real_distribution<real> at(-3, 43);
    std::uniform_real_distribution<real> size(0, 4);
    std::vector<Aabb> queries;
    for (int i = 0; i < 300; ++i) {
        const Vec2 lower{at(rng), at(rng)};
        queries.push_back({lower, lower + Vec2{size(rng), size(rng)}});
    }
    // What each query must find: the tiles whose boxes meet it (the
    // queries test shapes, not only their broadphase boxes).
    const auto brute = [&] {
        std::vector<std::vector<ShapeId>> out;
        for (const Aabb& q : queries) {
            std::vector<ShapeId> found;
            for (const Tile& t : tiles) {
                if (overlaps(t.box, q)) {
                    found.push_back(t.shape);
                }
            }
            std::sort(found.begin(), found.end());
            out.push_back(found);
        }
        return out;
    };
    const World& reader = world;
    const auto answers = [&] {
        std::vector<std::vector<ShapeId>> out;
        for (const Aabb& q : queries) {
            std::vector<ShapeId> found = reader.overlap_aabb(q).value();
            std::sort(found.begin(), found.end());
            out.push_back(found);
        }
        return out;
    };
    const std::vector<std::vector<ShapeId>> expected = brute();
    std::size_t met = 0;
    for (const std::vector<ShapeId>& e : expected) {
        met += e.size();
    }
    ASSERT_GT(met, 1000u);
    std::vector<std::vector<std::vector<ShapeId>>> by_thread(4);
    std::vector<std::thread> threads;
    for (auto& answer : by_thread) {
        threads.emplace_back([&answer, &answers] { answer = answers(); });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    for (const auto& answer : by_thread) {
        EXPECT_EQ(answer, expected);
    }
    // More tiles, and fewer: before any step still.
    for (int x = 0; x < 40; ++x) {
        make_tile(x, 41);
    }
    for (std::size_t i = 0; i < tiles.size(); i += 9) {
        ASSERT_TRUE(world.destroy_body(tiles[i].body));
        tiles[i].box = {{-100, -100}, {-99, -99}}; // (met by no query)
    }
    EXPECT_EQ(answers(), brute());
    ASSERT_TRUE(world.step(real(1) / 60));
    EXPECT_EQ(answers(), brute());
}

} // namespace
} // namespace sweep
