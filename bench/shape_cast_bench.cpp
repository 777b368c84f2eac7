// Linear shape casts of convex polygons, ours (sweep::shape_cast, conservative
// advancement on GJK) next to Box2D 2.4.1's b2ShapeCast (GJK ray cast) on the
// same inputs: random octagons and random boxes. The seeds' closed-form casts
// (ShapeCast/aabb_aabb, ShapeCast/circle_circle) are in swept_bench.cpp.
//
// The same problem on both sides: b2ShapeCast moves proxy B by translationB
// with A still, as ours does, and stops when the cores are within
// sigma = max(b2_polygonRadius, rA + rB - b2_polygonRadius) of each other,
// +- 0.5 b2_linearSlop, where each radius is at least b2_polygonRadius. With
// Box2D's polygon skins (0.01 each) that is cores 0.01 apart, +- 0.0025: ours
// casts the same sharp polygons with target_separation 0.01 and touch
// tolerance 0.0025. The `hits` counter shows that both find the same contacts.
#include <benchmark/benchmark.h>
#include <box2d/b2_distance.h>

#include <vector>

#include "inputs.hpp"
#include "sweep/shape_cast.hpp"

namespace {

using bench::k_cases;

constexpr float k_box2d_sigma = b2_polygonRadius;         // both skins minus one skin
constexpr float k_box2d_tolerance = 0.5f * b2_linearSlop; // b2ShapeCast's

// A still at a random pose; B starts 2.5 to 4 away and moves past a random
// point near A, by 0.5 to 1.5 times the distance to it: about half hit.
std::vector<sweep::ShapeCastInput> make_cases(unsigned seed, bool boxes) {
    bench::Rng rng(seed);
    std::vector<sweep::ShapeCastInput> cases;
    for (int i = 0; i < k_cases; ++i) {
        sweep::ShapeCastInput c;
        c.proxy_a =
            sweep::make_proxy(boxes ? bench::random_box(rng) : bench::random_polygon(rng, 8));
        c.proxy_b =
            sweep::make_proxy(boxes ? bench::random_box(rng) : bench::random_polygon(rng, 8));
        c.xf_a = bench::random_transform(rng, 0.5f);
        c.xf_b = bench::random_transform(rng, 0);
        c.xf_b.p = c.xf_a.p + bench::uniform(rng, 2.5f, 4.0f) * bench::random_direction(rng);
        const sweep::Vec2 aim = c.xf_a.p + bench::random_point(rng, 1.5f);
        c.translation_b = bench::uniform(rng, 0.5f, 1.5f) * (aim - c.xf_b.p);
        c.target_separation = k_box2d_sigma;
        c.touch_tolerance = k_box2d_tolerance;
        cases.push_back(c);
    }
    return cases;
}

const std::vector<sweep::ShapeCastInput>& poly8_cases() {
    static const std::vector<sweep::ShapeCastInput> cases = make_cases(41, false);
    return cases;
}

const std::vector<sweep::ShapeCastInput>& box_cases() {
    static const std::vector<sweep::ShapeCastInput> cases = make_cases(42, true);
    return cases;
}

void run_sweep(benchmark::State& state, const std::vector<sweep::ShapeCastInput>& cases) {
    int hits = 0;
    for (const sweep::ShapeCastInput& c : cases) {
        hits += sweep::shape_cast(c).state == sweep::CastState::hit;
    }
    for (auto _ : state) {
        for (const sweep::ShapeCastInput& c : cases) {
            benchmark::DoNotOptimize(sweep::shape_cast(c));
        }
    }
    state.counters["hits"] = hits;
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(cases.size()));
}

void run_box2d(benchmark::State& state, const std::vector<sweep::ShapeCastInput>& cases) {
    // Box2D's proxies point into `points`; each polygon carries Box2D's skin.
    std::vector<std::array<b2Vec2, sweep::k_max_polygon_vertices>> points_a(cases.size());
    std::vector<std::array<b2Vec2, sweep::k_max_polygon_vertices>> points_b(cases.size());
    std::vector<b2ShapeCastInput> inputs(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const sweep::ShapeCastInput& c = cases[i];
        for (int k = 0; k < c.proxy_a.count; ++k) {
            points_a[i][k] = bench::to_b2(c.proxy_a.points[k]);
        }
        for (int k = 0; k < c.proxy_b.count; ++k) {
            points_b[i][k] = bench::to_b2(c.proxy_b.points[k]);
        }
        inputs[i].proxyA.Set(points_a[i].data(), c.proxy_a.count, b2_polygonRadius);
        inputs[i].proxyB.Set(points_b[i].data(), c.proxy_b.count, b2_polygonRadius);
        inputs[i].transformA = bench::to_b2(c.xf_a);
        inputs[i].transformB = bench::to_b2(c.xf_b);
        inputs[i].translationB = bench::to_b2(c.translation_b);
    }
    int hits = 0;
    for (const b2ShapeCastInput& input : inputs) {
        b2ShapeCastOutput output;
        hits += b2ShapeCast(&output, &input);
    }
    for (auto _ : state) {
        for (const b2ShapeCastInput& input : inputs) {
            b2ShapeCastOutput output;
            benchmark::DoNotOptimize(b2ShapeCast(&output, &input));
            benchmark::DoNotOptimize(output);
        }
    }
    state.counters["hits"] = hits;
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(inputs.size()));
}

void ShapeCast_Poly8_sweep(benchmark::State& state) { run_sweep(state, poly8_cases()); }
void ShapeCast_Poly8_box2d(benchmark::State& state) { run_box2d(state, poly8_cases()); }
void ShapeCast_Box_sweep(benchmark::State& state) { run_sweep(state, box_cases()); }
void ShapeCast_Box_box2d(benchmark::State& state) { run_box2d(state, box_cases()); }

} // namespace

BENCHMARK(ShapeCast_Poly8_sweep)->Name("ShapeCast/poly8_poly8/sweep");
BENCHMARK(ShapeCast_Poly8_box2d)->Name("ShapeCast/poly8_poly8/box2d");
BENCHMARK(ShapeCast_Box_sweep)->Name("ShapeCast/box_box/sweep");
BENCHMARK(ShapeCast_Box_box2d)->Name("ShapeCast/box_box/box2d");
