// World queries, ours next to what a Box2D 2.4.1 user writes for the same
// answer on the same world: 10,000 static shapes (boxes, discs and sharp
// hexagons, 0.1 to 1 m, at random poses over a 400 m square) and 1,000
// kinematic ones at rest among them, stepped once as a game's level is
// before it queries (our static tree is then rebuilt by SAH; nothing
// moves on either side).
// - raycast_closest: World::raycast_closest against b2World::RayCast with a
//   callback that keeps the nearest hit (returns its fraction, which clips
//   the ray);
// - raycast_all: World::raycast_all against b2World::RayCast with a callback
//   that keeps every hit (returns 1), then sorted by fraction, as ours are;
// - shape_cast: World::shape_cast of a box against b2World::QueryAABB over
//   the swept box and b2ShapeCast with each fixture found, keeping the
//   nearest (Box2D 2.4.1 has no world shape cast);
// - overlap_aabb: World::overlap_aabb against b2World::QueryAABB keeping the
//   fixtures whose own box (b2Shape::ComputeAABB, not the fat one) meets the
//   query's, sorted, as ours are;
// - overlap_shape: World::overlap_shape of a box against QueryAABB and
//   b2TestOverlap with each fixture found, sorted;
// - point_query: World::point_query against QueryAABB of the point and
//   b2Fixture::TestPoint, sorted.
// Rays and casts are 40 m long from random points, in random directions.
// The queries that list what they find write into one vector on each side,
// kept from query to query, as a game keeps its buffers (ours through the
// overloads that take it; the Box2D callbacks' own). Each iteration runs
// k_cases queries; the counter `found` is the hits or shapes found over
// them, on each side (Box2D's polygons carry their 0.01 m skin in
// overlaps, so the counts may differ by a few).
#include <benchmark/benchmark.h>
#include <box2d/b2_body.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_collision.h>
#include <box2d/b2_distance.h>
#include <box2d/b2_fixture.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_world.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "inputs.hpp"
#include "sweep/world.hpp"

namespace {

using bench::k_cases;
using bench::to_b2;

constexpr int k_static = 10'000;
constexpr int k_kinematic = 1'000;
constexpr float k_half_width = 200;
constexpr float k_reach = 40;

struct Placed {
    sweep::Shape shape;
    sweep::Transform xf;
    bool moving = false; // kinematic, at rest
};

struct Query {
    sweep::Vec2 origin;
    sweep::Vec2 translation;
    sweep::Polygon box; // the cast and overlap shape, about its own origin
    sweep::Transform xf;
};

struct Scene {
    std::vector<Placed> shapes;
    std::vector<Query> queries;
};

const Scene& scene() {
    static const Scene s = [] {
        bench::Rng rng(91);
        Scene out;
        for (int i = 0; i < k_static + k_kinematic; ++i) {
            const int kind = i % 3;
            sweep::Shape shape = kind == 0   ? sweep::Shape(bench::random_box(rng))
                                 : kind == 1 ? sweep::Shape(sweep::Circle{
                                                   {}, bench::uniform(rng, 0.1f, 1.0f)})
                                             : sweep::Shape(bench::random_polygon(rng, 6));
            out.shapes.push_back({shape, bench::random_transform(rng, k_half_width),
                                  i >= k_static});
        }
        for (int i = 0; i < k_cases; ++i) {
            const sweep::Transform xf = bench::random_transform(rng, k_half_width);
            out.queries.push_back({xf.p, k_reach * bench::random_direction(rng),
                                   sweep::make_box(bench::uniform(rng, 0.2f, 1.0f),
                                                   bench::uniform(rng, 0.2f, 1.0f))
                                       .value(),
                                   xf});
        }
        return out;
    }();
    return s;
}

sweep::World make_sweep_world() {
    auto world = sweep::World::make().value();
    for (const Placed& p : scene().shapes) {
        sweep::BodyDef def;
        def.type = p.moving ? sweep::BodyType::kinematic : sweep::BodyType::static_body;
        def.position = p.xf.p;
        def.angle = p.xf.q.angle();
        const sweep::ShapeDef shape{p.shape, {}};
        (void)world.create_body(def, std::span(&shape, 1)).value();
    }
    if (!world.step(1.0f / 60)) {
        std::abort();
    }
    return world;
}

std::unique_ptr<b2World> make_box2d_world() {
    auto world = std::make_unique<b2World>(b2Vec2(0, -10));
    for (const Placed& p : scene().shapes) {
        b2BodyDef def;
        def.type = p.moving ? b2_kinematicBody : b2_staticBody;
        def.position = to_b2(p.xf.p);
        def.angle = p.xf.q.angle();
        b2Body* body = world->CreateBody(&def);
        if (p.shape.type == sweep::ShapeType::circle) {
            b2CircleShape circle;
            circle.m_radius = p.shape.circle.radius;
            body->CreateFixture(&circle, 1);
        } else {
            const b2PolygonShape polygon = bench::to_b2(p.shape.polygon);
            body->CreateFixture(&polygon, 1);
        }
    }
    world->Step(1.0f / 60, 8, 3);
    return world;
}

void count(benchmark::State& state, std::size_t found) {
    state.counters["found"] = static_cast<double>(found);
    state.SetItemsProcessed(state.iterations() * k_cases);
}

// Runs `query(const Query&) -> std::size_t found` over every query per
// iteration.
template <class World, class Run>
void run(benchmark::State& state, const World& world, Run query) {
    std::size_t found = 0;
    for (const Query& q : scene().queries) {
        found += query(world, q);
    }
    for (auto _ : state) {
        for (const Query& q : scene().queries) {
            benchmark::DoNotOptimize(query(world, q));
        }
    }
    count(state, found);
}

// ---- Box2D: the callbacks a user writes.

struct ClosestRay : b2RayCastCallback {
    std::optional<float> fraction;
    float ReportFixture(b2Fixture*, const b2Vec2&, const b2Vec2&, float f) override {
        fraction = f;
        return f;
    }
};

struct Hit {
    b2Fixture* fixture;
    b2Vec2 point;
    b2Vec2 normal;
    float fraction;
};

struct AllRays : b2RayCastCallback {
    explicit AllRays(std::vector<Hit>& h) : hits(h) { hits.clear(); }
    std::vector<Hit>& hits;
    float ReportFixture(b2Fixture* fixture, const b2Vec2& point, const b2Vec2& normal,
                        float f) override {
        hits.push_back({fixture, point, normal, f});
        return 1;
    }
};

// The fixtures QueryAABB reports that `keep(fixture)`, into `found`, sorted
// (ours come in shape id order).
template <class Keep> struct Collect : b2QueryCallback {
    Collect(Keep k, std::vector<b2Fixture*>& f) : keep(k), found(f) { found.clear(); }
    Keep keep;
    std::vector<b2Fixture*>& found;
    bool ReportFixture(b2Fixture* fixture) override {
        if (keep(fixture)) {
            found.push_back(fixture);
        }
        return true;
    }
};

template <class Keep>
std::size_t collect(const b2World& world, const b2AABB& box, Keep keep) {
    static std::vector<b2Fixture*> found; // (kept from query to query)
    Collect<Keep> c(keep, found);
    world.QueryAABB(&c, box);
    std::sort(found.begin(), found.end());
    return found.size();
}

b2AABB to_b2(const sweep::Aabb& box) {
    b2AABB out;
    out.lowerBound = bench::to_b2(box.lower);
    out.upperBound = bench::to_b2(box.upper);
    return out;
}

// ---- the rows

void World_RaycastClosest_sweep(benchmark::State& state) {
    const sweep::World world = make_sweep_world();
    run(state, world, [](const sweep::World& w, const Query& q) -> std::size_t {
        return w.raycast_closest(q.origin, q.translation)->has_value() ? 1 : 0;
    });
}

void World_RaycastClosest_box2d(benchmark::State& state) {
    const auto world = make_box2d_world();
    run(state, *world, [](const b2World& w, const Query& q) -> std::size_t {
        ClosestRay closest;
        w.RayCast(&closest, to_b2(q.origin), to_b2(q.origin + q.translation));
        return closest.fraction ? 1 : 0;
    });
}

void World_RaycastAll_sweep(benchmark::State& state) {
    const sweep::World world = make_sweep_world();
    std::vector<sweep::QueryHit> hits;
    run(state, world, [&](const sweep::World& w, const Query& q) {
        (void)w.raycast_all(q.origin, q.translation, {}, hits);
        return hits.size();
    });
}

void World_RaycastAll_box2d(benchmark::State& state) {
    const auto world = make_box2d_world();
    std::vector<Hit> hits;
    run(state, *world, [&](const b2World& w, const Query& q) {
        AllRays all(hits);
        w.RayCast(&all, to_b2(q.origin), to_b2(q.origin + q.translation));
        std::sort(all.hits.begin(), all.hits.end(),
                  [](const Hit& a, const Hit& b) { return a.fraction < b.fraction; });
        return all.hits.size();
    });
}

void World_ShapeCast_sweep(benchmark::State& state) {
    const sweep::World world = make_sweep_world();
    run(state, world, [](const sweep::World& w, const Query& q) -> std::size_t {
        return w.shape_cast(sweep::Shape(q.box), q.xf, q.translation)->has_value() ? 1 : 0;
    });
}

void World_ShapeCast_box2d(benchmark::State& state) {
    const auto world = make_box2d_world();
    run(state, *world, [](const b2World& w, const Query& q) -> std::size_t {
        const b2PolygonShape box = bench::to_b2(q.box);
        const b2Transform xf = bench::to_b2(q.xf);
        b2AABB start;
        box.ComputeAABB(&start, xf, 0);
        b2AABB swept = start;
        swept.lowerBound += b2Min(b2Vec2_zero, to_b2(q.translation));
        swept.upperBound += b2Max(b2Vec2_zero, to_b2(q.translation));
        std::optional<float> nearest;
        const auto cast = [&](b2Fixture* fixture) {
            b2ShapeCastInput input;
            input.proxyA.Set(fixture->GetShape(), 0);
            input.proxyB.Set(&box, 0);
            input.transformA = fixture->GetBody()->GetTransform();
            input.transformB = xf;
            input.translationB = to_b2(q.translation);
            b2ShapeCastOutput output;
            if (b2ShapeCast(&output, &input) && (!nearest || output.lambda < *nearest)) {
                nearest = output.lambda;
            }
            return false;
        };
        collect(w, swept, cast);
        return nearest ? 1 : 0;
    });
}

void World_OverlapAabb_sweep(benchmark::State& state) {
    const sweep::World world = make_sweep_world();
    std::vector<sweep::ShapeId> ids;
    run(state, world, [&](const sweep::World& w, const Query& q) {
        (void)w.overlap_aabb(sweep::compute_aabb(sweep::Shape(q.box), q.xf), {}, ids);
        return ids.size();
    });
}

void World_OverlapAabb_box2d(benchmark::State& state) {
    const auto world = make_box2d_world();
    run(state, *world, [](const b2World& w, const Query& q) {
        const b2AABB box = to_b2(sweep::compute_aabb(sweep::Shape(q.box), q.xf));
        return collect(w, box, [&](b2Fixture* fixture) {
            b2AABB own;
            fixture->GetShape()->ComputeAABB(&own, fixture->GetBody()->GetTransform(), 0);
            return b2TestOverlap(own, box);
        });
    });
}

void World_OverlapShape_sweep(benchmark::State& state) {
    const sweep::World world = make_sweep_world();
    std::vector<sweep::ShapeId> ids;
    run(state, world, [&](const sweep::World& w, const Query& q) {
        (void)w.overlap_shape(sweep::Shape(q.box), q.xf, {}, ids);
        return ids.size();
    });
}

void World_OverlapShape_box2d(benchmark::State& state) {
    const auto world = make_box2d_world();
    run(state, *world, [](const b2World& w, const Query& q) {
        const b2PolygonShape box = bench::to_b2(q.box);
        const b2Transform xf = bench::to_b2(q.xf);
        b2AABB aabb;
        box.ComputeAABB(&aabb, xf, 0);
        return collect(w, aabb, [&](b2Fixture* fixture) {
            return b2TestOverlap(fixture->GetShape(), 0, &box, 0,
                                 fixture->GetBody()->GetTransform(), xf);
        });
    });
}

void World_PointQuery_sweep(benchmark::State& state) {
    const sweep::World world = make_sweep_world();
    std::vector<sweep::ShapeId> ids;
    run(state, world, [&](const sweep::World& w, const Query& q) {
        (void)w.point_query(q.xf.p, {}, ids);
        return ids.size();
    });
}

void World_PointQuery_box2d(benchmark::State& state) {
    const auto world = make_box2d_world();
    run(state, *world, [](const b2World& w, const Query& q) {
        const b2Vec2 p = to_b2(q.xf.p);
        b2AABB box;
        box.lowerBound = p;
        box.upperBound = p;
        return collect(w, box, [&](b2Fixture* fixture) { return fixture->TestPoint(p); });
    });
}

} // namespace

BENCHMARK(World_RaycastClosest_sweep)->Name("WorldQuery/raycast_closest/sweep");
BENCHMARK(World_RaycastClosest_box2d)->Name("WorldQuery/raycast_closest/box2d");
BENCHMARK(World_RaycastAll_sweep)->Name("WorldQuery/raycast_all/sweep");
BENCHMARK(World_RaycastAll_box2d)->Name("WorldQuery/raycast_all/box2d");
BENCHMARK(World_ShapeCast_sweep)->Name("WorldQuery/shape_cast/sweep");
BENCHMARK(World_ShapeCast_box2d)->Name("WorldQuery/shape_cast/box2d");
BENCHMARK(World_OverlapAabb_sweep)->Name("WorldQuery/overlap_aabb/sweep");
BENCHMARK(World_OverlapAabb_box2d)->Name("WorldQuery/overlap_aabb/box2d");
BENCHMARK(World_OverlapShape_sweep)->Name("WorldQuery/overlap_shape/sweep");
BENCHMARK(World_OverlapShape_box2d)->Name("WorldQuery/overlap_shape/box2d");
BENCHMARK(World_PointQuery_sweep)->Name("WorldQuery/point_query/sweep");
BENCHMARK(World_PointQuery_box2d)->Name("WorldQuery/point_query/box2d");
