// n dynamic bodies falling through one real level, ours next to Box2D
// 2.4.1 on the same static geometry: the tmxlite side-scroller
// (../shared/data/maps/tmxlite/ParseTest/maps/platform.tmx, 200 x 40 tiles of
// 64 px: merged boxes, polygons, an ellipse and two-sided polylines), loaded
// by sweep::io. Our world runs in map pixels (L = 64); Box2D in metres (one
// tile), since its tolerances are fixed for metres. Every Box2D dynamic
// body is a bullet. 60 steps at 60 Hz per iteration; building the world is
// not timed.
#include <benchmark/benchmark.h>
#include <box2d/b2_body.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_edge_shape.h>
#include <box2d/b2_fixture.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_world.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "level_bodies.hpp"
#include "static_shapes.hpp"
#include "sweep/io/tiled.hpp"
#include "sweep/world.hpp"

namespace {

constexpr int k_steps = 60;

const sweep::io::StaticGeometry& level() {
    static const sweep::io::StaticGeometry geometry = [] {
        auto loaded = sweep::io::load_tiled_map(std::string(SWEEP_SHARED_DIR) +
                                                "/data/maps/tmxlite/ParseTest/maps/platform.tmx");
        if (!loaded) {
            std::fprintf(stderr, "tilemap bench: %s\n", loaded.error().message.c_str());
            std::exit(1);
        }
        return std::move(loaded).value();
    }();
    return geometry;
}

struct Spawn {
    sweep::Vec2 position; ///< map pixels, world frame
    bool circle;
};

// Tile centres at least one tile from every static shape, spread evenly over
// the level: the first `count` of every k-th such centre.
std::vector<Spawn> spawns(int count) {
    const sweep::io::StaticGeometry& g = level();
    const sweep::app::StaticShapes shapes(g);
    const double tile = g.tile_height;
    std::vector<sweep::Vec2> free;
    for (double y = g.bounds.lower.y + tile / 2; y < g.bounds.upper.y; y += tile) {
        for (double x = g.bounds.lower.x + tile / 2; x < g.bounds.upper.x; x += tile) {
            const sweep::Vec2 p{static_cast<sweep::real>(x), static_cast<sweep::real>(y)};
            if (shapes.clearance(p, tile) >= tile) {
                free.push_back(p);
            }
        }
    }
    const std::size_t every = std::max<std::size_t>(1, free.size() / std::size_t(count));
    std::vector<Spawn> out;
    for (std::size_t i = 0; i < free.size() && int(out.size()) < count; i += every) {
        out.push_back({free[i], out.size() % 2 == 0});
    }
    return out;
}

sweep::World make_sweep_world(const std::vector<Spawn>& spawns) {
    const sweep::io::StaticGeometry& g = level();
    sweep::WorldDef def;
    def.length_units_per_meter = g.length_units_per_meter;
    def.enable_sleep = false; // sleeping off on both sides
    auto world = sweep::World::make(def).value();
    (void)sweep::app::add_level_bodies(world, g).value();
    const sweep::real r = sweep::real(0.25) * g.length_units_per_meter;
    const sweep::Shape circle = sweep::Circle{{}, r};
    const sweep::Shape box = sweep::make_box(r, r).value();
    for (const Spawn& s : spawns) {
        const sweep::ShapeDef sd(s.circle ? circle : box, {1 / (r * r), 0.6f, 0});
        sweep::BodyDef body;
        body.type = sweep::BodyType::dynamic;
        body.position = s.position;
        (void)world.create_body(body, std::span(&sd, 1));
    }
    return world;
}

b2Vec2 metres(sweep::Vec2 p, float l) { return {p.x / l, p.y / l}; }

void fill_box2d_world(b2World& world, const std::vector<Spawn>& spawns) {
    const sweep::io::StaticGeometry& g = level();
    const float l = g.length_units_per_meter;
    b2BodyDef ground_def;
    b2Body* ground = world.CreateBody(&ground_def);
    for (const sweep::Aabb& b : g.boxes) {
        b2PolygonShape box;
        const sweep::Vec2 c = sweep::center(b), e = sweep::extents(b);
        box.SetAsBox(e.x / l, e.y / l, metres(c, l), 0);
        ground->CreateFixture(&box, 0);
    }
    for (const sweep::Polygon& p : g.polygons) {
        std::vector<b2Vec2> points;
        for (int i = 0; i < p.count; ++i) {
            points.push_back(metres(p.vertices[std::size_t(i)], l));
        }
        b2PolygonShape polygon;
        polygon.Set(points.data(), p.count);
        ground->CreateFixture(&polygon, 0);
    }
    for (const sweep::Circle& c : g.circles) {
        b2CircleShape circle;
        circle.m_p = metres(c.center, l);
        circle.m_radius = c.radius / l;
        ground->CreateFixture(&circle, 0);
    }
    for (const sweep::Segment& s : g.segments) {
        // The loader's segments are two-sided; Box2D 2.4's chains are one-sided.
        b2EdgeShape edge;
        edge.SetTwoSided(metres(s.p1, l), metres(s.p2, l));
        ground->CreateFixture(&edge, 0);
    }
    for (const Spawn& s : spawns) {
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.bullet = true;
        def.position = metres(s.position, l);
        b2Body* body = world.CreateBody(&def);
        b2CircleShape circle;
        circle.m_radius = 0.25f;
        b2PolygonShape box;
        box.SetAsBox(0.25f, 0.25f);
        b2FixtureDef fd;
        fd.density = 1;
        fd.friction = 0.6f;
        fd.shape = s.circle ? static_cast<b2Shape*>(&circle) : static_cast<b2Shape*>(&box);
        body->CreateFixture(&fd);
    }
}

template <int Count> void World_Tilemap_sweep(benchmark::State& state) {
    const auto where = spawns(Count);
    for (auto _ : state) {
        state.PauseTiming();
        sweep::World world = make_sweep_world(where);
        state.ResumeTiming();
        for (int i = 0; i < k_steps; ++i) {
            (void)world.step(1.0f / 60);
        }
    }
    state.counters["bodies"] = double(where.size());
    state.SetItemsProcessed(state.iterations() * k_steps);
}

template <int Count> void World_Tilemap_box2d(benchmark::State& state) {
    const auto where = spawns(Count);
    for (auto _ : state) {
        state.PauseTiming();
        b2World world(b2Vec2(0, -10));
        world.SetAllowSleeping(false); // sleeping off on both sides
        fill_box2d_world(world, where);
        state.ResumeTiming();
        for (int i = 0; i < k_steps; ++i) {
            world.Step(1.0f / 60, 8, 3);
        }
    }
    state.counters["bodies"] = double(where.size());
    state.SetItemsProcessed(state.iterations() * k_steps);
}

} // namespace

BENCHMARK(World_Tilemap_sweep<100>)->Name("World/tilemap_100/sweep")->Unit(benchmark::kMillisecond);
BENCHMARK(World_Tilemap_box2d<100>)->Name("World/tilemap_100/box2d")->Unit(benchmark::kMillisecond);
BENCHMARK(World_Tilemap_sweep<1000>)
    ->Name("World/tilemap_1000/sweep")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(World_Tilemap_box2d<1000>)
    ->Name("World/tilemap_1000/box2d")
    ->Unit(benchmark::kMillisecond);
