// World queries against hand-placed bodies: every expected fraction, point
// and membership below follows from the layout drawn in each comment.
#include <gtest/gtest.h>

#include <cmath>

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

} // namespace
} // namespace sweep
