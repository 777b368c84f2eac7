// Making polygons and their mass, ours next to Box2D 2.4.1's on the same
// points:
// - Hull/: sweep::make_polygon (convex hull, normals, centroid) against
//   b2PolygonShape::Set (the same three) on random point clouds. Box2D 2.4.1's
//   Set reads at most b2_maxPolygonVertices (8) points, so Hull/32_points is
//   ours alone (its hull is reduced to 8 vertices).
// - Mass/: sweep::compute_mass against b2PolygonShape::ComputeMass on random
//   sharp octagons (Box2D's ignores its polygons' skin).
#include <benchmark/benchmark.h>
#include <box2d/b2_polygon_shape.h>

#include <vector>

#include "inputs.hpp"
#include "sweep/shapes.hpp"

namespace {

using bench::k_cases;

// k_cases clouds of `count` points, uniform in [-1, 1]^2.
std::vector<std::vector<sweep::Vec2>> make_clouds(unsigned seed, int count) {
    bench::Rng rng(seed);
    std::vector<std::vector<sweep::Vec2>> clouds(k_cases);
    for (auto& cloud : clouds) {
        for (int i = 0; i < count; ++i) {
            cloud.push_back(bench::random_point(rng, 1));
        }
    }
    return clouds;
}

const std::vector<std::vector<sweep::Vec2>>& clouds(int count) {
    static const auto clouds8 = make_clouds(71, 8);
    static const auto clouds32 = make_clouds(72, 32);
    return count == 8 ? clouds8 : clouds32;
}

void run_make_polygon(benchmark::State& state, int count) {
    int vertices = 0;
    for (const auto& cloud : clouds(count)) {
        vertices += sweep::make_polygon(cloud)->count;
    }
    for (auto _ : state) {
        for (const auto& cloud : clouds(count)) {
            benchmark::DoNotOptimize(sweep::make_polygon(cloud));
        }
    }
    state.counters["vertices"] = vertices;
    state.SetItemsProcessed(state.iterations() * k_cases);
}

void Hull_8_sweep(benchmark::State& state) { run_make_polygon(state, 8); }
void Hull_32_sweep(benchmark::State& state) { run_make_polygon(state, 32); }

void Hull_8_box2d(benchmark::State& state) {
    std::vector<std::vector<b2Vec2>> b2_clouds;
    for (const auto& cloud : clouds(8)) {
        b2_clouds.emplace_back();
        for (const sweep::Vec2 p : cloud) {
            b2_clouds.back().push_back(bench::to_b2(p));
        }
    }
    int vertices = 0;
    for (const auto& cloud : b2_clouds) {
        b2PolygonShape polygon;
        polygon.Set(cloud.data(), static_cast<int32>(cloud.size()));
        vertices += polygon.m_count;
    }
    for (auto _ : state) {
        for (const auto& cloud : b2_clouds) {
            b2PolygonShape polygon;
            polygon.Set(cloud.data(), static_cast<int32>(cloud.size()));
            benchmark::DoNotOptimize(polygon);
        }
    }
    state.counters["vertices"] = vertices;
    state.SetItemsProcessed(state.iterations() * k_cases);
}

const std::vector<sweep::Polygon>& octagons() {
    static const std::vector<sweep::Polygon> polygons = [] {
        bench::Rng rng(73);
        std::vector<sweep::Polygon> out;
        for (int i = 0; i < k_cases; ++i) {
            out.push_back(bench::random_polygon(rng, 8));
        }
        return out;
    }();
    return polygons;
}

void Mass_Poly8_sweep(benchmark::State& state) {
    for (auto _ : state) {
        for (const sweep::Polygon& polygon : octagons()) {
            benchmark::DoNotOptimize(sweep::compute_mass(polygon, 1));
        }
    }
    state.SetItemsProcessed(state.iterations() * k_cases);
}

void Mass_Poly8_box2d(benchmark::State& state) {
    std::vector<b2PolygonShape> polygons;
    for (const sweep::Polygon& polygon : octagons()) {
        polygons.push_back(bench::to_b2(polygon));
    }
    for (auto _ : state) {
        for (const b2PolygonShape& polygon : polygons) {
            b2MassData mass;
            polygon.ComputeMass(&mass, 1);
            benchmark::DoNotOptimize(mass);
        }
    }
    state.SetItemsProcessed(state.iterations() * k_cases);
}

} // namespace

BENCHMARK(Hull_8_sweep)->Name("Hull/8_points/sweep");
BENCHMARK(Hull_8_box2d)->Name("Hull/8_points/box2d");
BENCHMARK(Hull_32_sweep)->Name("Hull/32_points/sweep");
BENCHMARK(Mass_Poly8_sweep)->Name("Mass/poly8/sweep");
BENCHMARK(Mass_Poly8_box2d)->Name("Mass/poly8/box2d");
