// World step, ours next to Box2D 2.4.1's b2World on the same scene: bodies
// dropped into a closed box of static walls, stepped at 60 Hz. Both use 8
// velocity iterations; Box2D's 3 position iterations against our early-out
// position loop.
#include <benchmark/benchmark.h>
#include <box2d/b2_body.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_fixture.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_world.h>

#include <random>
#include <vector>

#include "sweep/world.hpp"

namespace {

struct Spawn {
    float x, y, size;
    bool circle;
};

constexpr float k_room = 20; // half width of the room, metres
constexpr int k_steps = 60;  // steps per benchmark iteration

std::vector<Spawn> make_spawns(int count) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> x(-k_room + 1, k_room - 1);
    std::uniform_real_distribution<float> size(0.2f, 0.5f);
    std::vector<Spawn> spawns;
    const int columns = static_cast<int>(2 * (k_room - 1));
    for (int i = 0; i < count; ++i) {
        // On a grid so nothing starts overlapping; sizes vary.
        spawns.push_back({-k_room + 1.5f + static_cast<float>(i % columns),
                          1.5f + static_cast<float>(i / columns), size(rng), i % 2 == 0});
    }
    return spawns;
}

const std::vector<std::pair<b2Vec2, b2Vec2>>& walls() {
    // centre, half extents: floor, left, right
    static const std::vector<std::pair<b2Vec2, b2Vec2>> w{
        {b2Vec2(0, -0.5f), b2Vec2(k_room, 0.5f)},
        {b2Vec2(-k_room - 0.5f, 20), b2Vec2(0.5f, 20)},
        {b2Vec2(k_room + 0.5f, 20), b2Vec2(0.5f, 20)}};
    return w;
}

sweep::World make_sweep_world(const std::vector<Spawn>& spawns) {
    auto world = sweep::World::make().value();
    for (const auto& [c, h] : walls()) {
        const sweep::ShapeDef sd{sweep::make_box(h.x, h.y).value(), {}};
        sweep::BodyDef def;
        def.position = {c.x, c.y};
        (void)world.create_body(def, std::span(&sd, 1));
    }
    for (const Spawn& s : spawns) {
        const sweep::Shape shape = s.circle ? sweep::Shape(sweep::Circle{{}, s.size})
                                            : sweep::Shape(sweep::make_box(s.size, s.size).value());
        const sweep::ShapeDef sd{shape, {}};
        sweep::BodyDef def;
        def.type = sweep::BodyType::dynamic;
        def.position = {s.x, s.y};
        (void)world.create_body(def, std::span(&sd, 1));
    }
    return world;
}

void fill_box2d_world(b2World& world, const std::vector<Spawn>& spawns) {
    for (const auto& [c, h] : walls()) {
        b2BodyDef def;
        def.position = c;
        b2PolygonShape box;
        box.SetAsBox(h.x, h.y);
        world.CreateBody(&def)->CreateFixture(&box, 0);
    }
    for (const Spawn& s : spawns) {
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.position.Set(s.x, s.y);
        b2Body* body = world.CreateBody(&def);
        b2FixtureDef fd;
        fd.density = 1;
        fd.friction = 0.6f;
        b2CircleShape circle;
        circle.m_radius = s.size;
        b2PolygonShape box;
        box.SetAsBox(s.size, s.size);
        fd.shape = s.circle ? static_cast<b2Shape*>(&circle) : static_cast<b2Shape*>(&box);
        body->CreateFixture(&fd);
    }
}

template <int Count> void World_Pile_sweep(benchmark::State& state) {
    const auto spawns = make_spawns(Count);
    for (auto _ : state) {
        state.PauseTiming();
        sweep::World world = make_sweep_world(spawns);
        state.ResumeTiming();
        for (int i = 0; i < k_steps; ++i) {
            (void)world.step(1.0f / 60);
        }
    }
    state.SetItemsProcessed(state.iterations() * k_steps);
}

template <int Count> void World_Pile_box2d(benchmark::State& state) {
    const auto spawns = make_spawns(Count);
    for (auto _ : state) {
        state.PauseTiming();
        b2World world(b2Vec2(0, -10));
        fill_box2d_world(world, spawns);
        state.ResumeTiming();
        for (int i = 0; i < k_steps; ++i) {
            world.Step(1.0f / 60, 8, 3);
        }
    }
    state.SetItemsProcessed(state.iterations() * k_steps);
}

} // namespace

BENCHMARK(World_Pile_sweep<100>)->Name("World/pile_100/sweep")->Unit(benchmark::kMillisecond);
BENCHMARK(World_Pile_box2d<100>)->Name("World/pile_100/box2d")->Unit(benchmark::kMillisecond);
BENCHMARK(World_Pile_sweep<1000>)->Name("World/pile_1000/sweep")->Unit(benchmark::kMillisecond);
BENCHMARK(World_Pile_box2d<1000>)->Name("World/pile_1000/box2d")->Unit(benchmark::kMillisecond);
