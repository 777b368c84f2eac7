// Narrowphase hot paths, ours next to Box2D 2.4.1 on the same inputs:
// GJK distance between boxes, polygon manifolds, and time of impact.
#include <benchmark/benchmark.h>
#include <box2d/b2_collision.h>
#include <box2d/b2_distance.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_time_of_impact.h>

#include <random>
#include <vector>

#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/toi.hpp"

namespace {

struct Pose {
    float x, y, angle;
};

// Pairs of box poses near each other: a mix of separated and overlapping.
std::vector<std::pair<Pose, Pose>> make_pairs(int count) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> offset(-1.5f, 1.5f);
    std::uniform_real_distribution<float> angle(-3.14159f, 3.14159f);
    std::vector<std::pair<Pose, Pose>> pairs;
    for (int i = 0; i < count; ++i) {
        pairs.push_back({{0, 0, angle(rng)}, {offset(rng), offset(rng), angle(rng)}});
    }
    return pairs;
}

const std::vector<std::pair<Pose, Pose>>& pairs() {
    static const auto p = make_pairs(1024);
    return p;
}

sweep::Transform to_sweep(const Pose& p) { return {{p.x, p.y}, sweep::Rot::from_angle(p.angle)}; }
b2Transform to_box2d(const Pose& p) { return b2Transform(b2Vec2(p.x, p.y), b2Rot(p.angle)); }

void Distance_BoxBox_sweep(benchmark::State& state) {
    const sweep::Shape box = sweep::make_box(0.5f, 0.5f).value();
    sweep::DistanceInput input{sweep::make_proxy(box), sweep::make_proxy(box), {}, {}, true};
    for (auto _ : state) {
        for (const auto& [a, b] : pairs()) {
            input.xf_a = to_sweep(a);
            input.xf_b = to_sweep(b);
            sweep::SimplexCache cache;
            benchmark::DoNotOptimize(sweep::distance(input, cache));
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pairs().size()));
}

void Distance_BoxBox_box2d(benchmark::State& state) {
    b2PolygonShape box;
    box.SetAsBox(0.5f, 0.5f);
    b2DistanceInput input;
    input.proxyA.Set(&box, 0);
    input.proxyB.Set(&box, 0);
    input.useRadii = true;
    for (auto _ : state) {
        for (const auto& [a, b] : pairs()) {
            input.transformA = to_box2d(a);
            input.transformB = to_box2d(b);
            b2SimplexCache cache;
            cache.count = 0;
            b2DistanceOutput output;
            b2Distance(&output, &cache, &input);
            benchmark::DoNotOptimize(output);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pairs().size()));
}

void Manifold_BoxBox_sweep(benchmark::State& state) {
    const sweep::Polygon box = sweep::make_box(0.5f, 0.5f).value();
    for (auto _ : state) {
        for (const auto& [a, b] : pairs()) {
            benchmark::DoNotOptimize(sweep::collide_polygons(box, to_sweep(a), box, to_sweep(b)));
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pairs().size()));
}

void Manifold_BoxBox_box2d(benchmark::State& state) {
    b2PolygonShape box;
    box.SetAsBox(0.5f, 0.5f);
    for (auto _ : state) {
        for (const auto& [a, b] : pairs()) {
            b2Manifold manifold;
            b2CollidePolygons(&manifold, &box, to_box2d(a), &box, to_box2d(b));
            benchmark::DoNotOptimize(manifold);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pairs().size()));
}

// Box2D's manifold with its world points, normal and separations made, as
// its solver makes them for a touching contact (b2WorldManifold): what
// ours holds (see bench/manifold_bench.cpp).
void Manifold_BoxBoxWorld_box2d(benchmark::State& state) {
    b2PolygonShape box;
    box.SetAsBox(0.5f, 0.5f);
    for (auto _ : state) {
        for (const auto& [a, b] : pairs()) {
            b2Manifold manifold;
            const b2Transform xf_a = to_box2d(a);
            const b2Transform xf_b = to_box2d(b);
            b2CollidePolygons(&manifold, &box, xf_a, &box, xf_b);
            if (manifold.pointCount > 0) {
                b2WorldManifold world;
                world.Initialize(&manifold, xf_a, box.m_radius, xf_b, box.m_radius);
                benchmark::DoNotOptimize(world);
            }
            benchmark::DoNotOptimize(manifold);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pairs().size()));
}

// A box spinning and flying at a wall: half the cases hit.
void TimeOfImpact_SpinningBar_sweep(benchmark::State& state) {
    const sweep::Shape wall = sweep::make_box(0.1f, 4).value();
    const sweep::Shape bar = sweep::make_box(1, 0.1f).value();
    sweep::ToiInput input;
    input.proxy_a = sweep::make_proxy(wall);
    input.proxy_b = sweep::make_proxy(bar);
    input.sweep_a = {{}, {5, 0}, {5, 0}, 0, 0};
    for (auto _ : state) {
        for (const auto& [a, b] : pairs()) {
            input.sweep_b = {{}, {0, b.y}, {6 + 2 * b.x, b.y}, a.angle, a.angle + b.angle};
            benchmark::DoNotOptimize(sweep::time_of_impact(input));
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pairs().size()));
}

void TimeOfImpact_SpinningBar_box2d(benchmark::State& state) {
    b2PolygonShape wall;
    wall.SetAsBox(0.1f, 4);
    b2PolygonShape bar;
    bar.SetAsBox(1, 0.1f);
    b2TOIInput input;
    input.proxyA.Set(&wall, 0);
    input.proxyB.Set(&bar, 0);
    input.sweepA = {b2Vec2(0, 0), b2Vec2(5, 0), b2Vec2(5, 0), 0, 0, 0};
    input.tMax = 1;
    for (auto _ : state) {
        for (const auto& [a, b] : pairs()) {
            input.sweepB = {b2Vec2(0, 0), b2Vec2(0, b.y),    b2Vec2(6 + 2 * b.x, b.y),
                            a.angle,      a.angle + b.angle, 0};
            b2TOIOutput output;
            b2TimeOfImpact(&output, &input);
            benchmark::DoNotOptimize(output);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pairs().size()));
}

} // namespace

BENCHMARK(Distance_BoxBox_sweep)->Name("Distance/box_box/sweep");
BENCHMARK(Distance_BoxBox_box2d)->Name("Distance/box_box/box2d");
BENCHMARK(Manifold_BoxBox_sweep)->Name("Manifold/box_box/sweep");
BENCHMARK(Manifold_BoxBox_box2d)->Name("Manifold/box_box/box2d");
BENCHMARK(Manifold_BoxBox_sweep)->Name("Manifold/box_box_world/sweep");
BENCHMARK(Manifold_BoxBoxWorld_box2d)->Name("Manifold/box_box_world/box2d");
BENCHMARK(TimeOfImpact_SpinningBar_sweep)->Name("TimeOfImpact/spinning_bar_wall/sweep");
BENCHMARK(TimeOfImpact_SpinningBar_box2d)->Name("TimeOfImpact/spinning_bar_wall/box2d");
