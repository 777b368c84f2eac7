// World::move's hot loop reuses the world's scratch: a move allocates
// nothing but its result's contacts, and a step's carry nothing at all; the
// scene queries into the caller's vectors allocate nothing once those have
// grown. Counted by replacing the global operator new, so this is its own
// program.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "sweep/world.hpp"

namespace {
std::atomic<long> g_allocations{0};
} // namespace

void* operator new(std::size_t size) {
    ++g_allocations;
    void* p = std::malloc(size == 0 ? 1 : size);
    if (p == nullptr) {
        std::abort(); // a test program out of memory
    }
    return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace sweep {
namespace {

BodyId add_box(World& world, BodyType type, Vec2 center, real hx, real hy) {
    BodyDef def;
    def.type = type;
    def.position = center;
    const ShapeDef shape{make_box(hx, hy).value(), {}};
    return world.create_body(def, std::span(&shape, 1)).value();
}

// Allocations made by `f`.
template <class F> long allocations_of(F&& f) {
    const long before = g_allocations;
    f();
    return g_allocations - before;
}

// A floor of ten 1 x 1 tiles (top y = 0, seams at integer x) and a wall
// standing on it (face x = 8).
void add_floor_and_wall(World& world) {
    for (int i = 0; i < 10; ++i) {
        add_box(world, BodyType::static_body, {i + 0.5f, -0.5f}, 0.5f, 0.5f);
    }
    add_box(world, BodyType::static_body, {8.5f, 5}, 0.5f, 5);
}

TEST(MoveAllocation, AMoveAllocatesOnlyItsContactsOnce) {
    World world = std::move(World::make({}).value());
    add_floor_and_wall(world);
    const BodyId c = add_box(world, BodyType::kinematic, {1, 2}, 0.4f, 0.4f);
    ASSERT_TRUE(world.move(c, {0, -5}));
    const long free_move = allocations_of([&] { ASSERT_TRUE(world.move(c, {1, 0})); });
    EXPECT_EQ(free_move, 0);
    MoveResult corner;
    // Down and right into the inner corner of the tiles and the wall, over
    // the tiles' seams: several contacts, one reservation.
    const long into_corner = allocations_of([&] { corner = world.move(c, {20, -1}).value(); });
    EXPECT_GE(corner.contacts.size(), 2u) << corner.contacts.size();
    EXPECT_EQ(into_corner, 1);
    EXPECT_NEAR(corner.position.x, 8 - 0.4f, world.tolerances().touch_tolerance);
}

// A result reused from move to move keeps its contacts' room: the corner
// move that reserved it above allocates nothing the second time, and finds
// what a fresh result finds.
TEST(MoveAllocation, AReusedResultAllocatesNothingOnceItsRoomHasGrown) {
    World world = std::move(World::make({}).value());
    add_floor_and_wall(world);
    const BodyId c = add_box(world, BodyType::kinematic, {1, 0.4f}, 0.4f, 0.4f);
    MoveResult reused;
    ASSERT_TRUE(world.move(c, {20, -1}, {}, reused)); // into the corner: the room grows
    ASSERT_GE(reused.contacts.size(), 2u);
    ASSERT_TRUE(world.move(c, {-6, 0}, {}, reused)); // back out along the floor
    const MoveResult fresh = world.move(c, {20, -1}).value();
    ASSERT_TRUE(world.move(c, {-6, 0}));
    const long again = allocations_of([&] { ASSERT_TRUE(world.move(c, {20, -1}, {}, reused)); });
    EXPECT_EQ(again, 0);
    EXPECT_EQ(reused.position, fresh.position);
    ASSERT_EQ(reused.contacts.size(), fresh.contacts.size());
    for (std::size_t i = 0; i < fresh.contacts.size(); ++i) {
        EXPECT_EQ(reused.contacts[i].other, fresh.contacts[i].other) << i;
        EXPECT_EQ(reused.contacts[i].time, fresh.contacts[i].time) << i;
        EXPECT_EQ(reused.contacts[i].normal, fresh.contacts[i].normal) << i;
    }
    EXPECT_EQ(reused.iterations, fresh.iterations);
    EXPECT_EQ(reused.ground, fresh.ground);
}

TEST(MoveAllocation, APushOutOfSeveralShapesAllocatesNothing) {
    World world = std::move(World::make({}).value());
    add_floor_and_wall(world);
    // 0.3 into the wall and 0.1 into the floor: out by (-0.3, 0.1).
    const BodyId c = add_box(world, BodyType::kinematic, {7.9f, 0.3f}, 0.4f, 0.4f);
    const MoveResult first = world.move(c, {0, 0}).value();
    ASSERT_TRUE(first.started_overlapping);
    EXPECT_NEAR(first.pushout.x, -0.3f, 1e-5f);
    EXPECT_NEAR(first.pushout.y, 0.1f, 1e-5f);
    // A block 0.2 into its left side, and another body's move to take in
    // the new static shape: then the push out of the block, the wall and
    // the floor allocates nothing.
    add_box(world, BodyType::static_body, {7.0f, 0.2f}, 0.4f, 0.2f);
    const BodyId other = add_box(world, BodyType::kinematic, {3, 5}, 0.4f, 0.4f);
    ASSERT_TRUE(world.move(other, {0, 1}));
    MoveResult again;
    const long pushed = allocations_of([&] { again = world.move(c, {0, 0}).value(); });
    ASSERT_TRUE(again.started_overlapping);
    EXPECT_EQ(pushed, 0);
    EXPECT_NEAR(again.position.x, 7.6f, 1e-5f); // onto the block: 0.4 up, the shortest
    EXPECT_NEAR(again.position.y, 0.8f, 1e-5f);
}

TEST(MoveAllocation, CarryingARiderIntoAWallAllocatesNothing) {
    World world = std::move(World::make({}).value());
    const BodyId platform = add_box(world, BodyType::kinematic, {0, 0}, 2, 0.25f);
    add_box(world, BodyType::static_body, {1.5f, 5}, 0.5f, 5); // face at x = 1
    const BodyId rider = add_box(world, BodyType::kinematic, {0, 3}, 0.4f, 0.4f);
    ASSERT_EQ(world.move(rider, {0, -5})->ground, platform);
    ASSERT_TRUE(world.set_velocity(platform, {1, 0}, 0));
    for (int i = 0; i < 20; ++i) { // the rider meets the wall at step 36, while counted
        ASSERT_TRUE(world.step(1.0f / 60));
    }
    const long steps = allocations_of([&] {
        for (int i = 0; i < 40; ++i) {
            ASSERT_TRUE(world.step(1.0f / 60));
        }
    });
    EXPECT_EQ(steps, 0);
    EXPECT_NEAR(world.body_state(rider)->xf.p.x, 1 - 0.4f, world.tolerances().touch_tolerance);
}

TEST(QueryAllocation, QueriesIntoGrownVectorsAllocateNothing) {
    World world = std::move(World::make({}).value());
    add_floor_and_wall(world);
    add_box(world, BodyType::dynamic, {3, 3}, 0.5f, 0.5f);
    std::vector<QueryHit> hits;
    std::vector<ShapeId> ids;
    const Shape probe = make_box(2, 2).value();
    const auto queries = [&] {
        ASSERT_TRUE(world.raycast_all({0, 0.5f}, {20, -1}, {}, hits));
        ASSERT_TRUE(world.raycast_closest({0, 0.5f}, {20, -1}));
        ASSERT_TRUE(world.shape_cast(probe, {{2, 6}, Rot{}}, {0, -10}));
        ASSERT_TRUE(world.overlap_aabb({{0, -1}, {9, 4}}, {}, ids));
        ASSERT_TRUE(world.overlap_shape(probe, {{3, 1}, Rot{}}, {}, ids));
        ASSERT_TRUE(world.point_query({3, 3}, {}, ids));
    };
    queries();                  // (the vectors grow)
    EXPECT_GE(hits.size(), 2u); // the tiles the ray crosses
    EXPECT_EQ(allocations_of(queries), 0);
}

} // namespace
} // namespace sweep
