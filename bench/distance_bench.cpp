// GJK distance, ours (sweep::distance) next to Box2D 2.4.1's b2Distance on the
// same proxies and poses: random convex octagons with a cold simplex cache and
// with each library's own cache from the previous frame, and circles.
// (Distance/box_box is in narrowphase_bench.cpp.)
#include <benchmark/benchmark.h>
#include <box2d/b2_distance.h>

#include <vector>

#include "inputs.hpp"
#include "sweep/distance.hpp"

namespace {

using bench::k_cases;

// Two shapes, B's origin 0.3 to 3 from A's in a random direction (a third of
// the octagons and 28 % of the circles overlap). `previous_b` is B one frame
// earlier (a small move and turn), for the warm-started cases.
struct PairCase {
    sweep::ShapeProxy a, b;
    sweep::Transform xf_a, xf_b, previous_b;
};

std::vector<PairCase> make_cases(unsigned seed, bool circles) {
    bench::Rng rng(seed);
    std::vector<PairCase> cases;
    for (int i = 0; i < k_cases; ++i) {
        PairCase c;
        if (circles) {
            const sweep::Shape ca =
                sweep::Circle{bench::random_point(rng, 0.2f), bench::uniform(rng, 0.1f, 1.0f)};
            const sweep::Shape cb =
                sweep::Circle{bench::random_point(rng, 0.2f), bench::uniform(rng, 0.1f, 1.0f)};
            c.a = sweep::make_proxy(ca);
            c.b = sweep::make_proxy(cb);
        } else {
            c.a = sweep::make_proxy(bench::random_polygon(rng, 8));
            c.b = sweep::make_proxy(bench::random_polygon(rng, 8));
        }
        c.xf_a = bench::random_transform(rng, 5);
        c.xf_b = bench::random_transform(rng, 0);
        c.xf_b.p = c.xf_a.p + bench::uniform(rng, 0.3f, 3.0f) * bench::random_direction(rng);
        c.previous_b = {
            c.xf_b.p + bench::random_point(rng, 0.05f),
            sweep::mul(c.xf_b.q, sweep::Rot::from_angle(bench::uniform(rng, -0.05f, 0.05f)))};
        cases.push_back(c);
    }
    return cases;
}

const std::vector<PairCase>& poly8_cases() {
    static const std::vector<PairCase> cases = make_cases(31, false);
    return cases;
}

const std::vector<PairCase>& circle_cases() {
    static const std::vector<PairCase> cases = make_cases(32, true);
    return cases;
}

// Box2D's inputs for the same cases: proxies of the same points and radii
// (the polygons are sharp), pointing into `points_a` and `points_b`.
struct B2Cases {
    std::vector<std::array<b2Vec2, sweep::k_max_polygon_vertices>> points_a, points_b;
    std::vector<b2DistanceInput> inputs;
    std::vector<b2DistanceInput> previous;

    explicit B2Cases(const std::vector<PairCase>& cases)
        : points_a(cases.size()), points_b(cases.size()) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const PairCase& c = cases[i];
            for (int k = 0; k < c.a.count; ++k) {
                points_a[i][k] = bench::to_b2(c.a.points[k]);
            }
            for (int k = 0; k < c.b.count; ++k) {
                points_b[i][k] = bench::to_b2(c.b.points[k]);
            }
            b2DistanceInput in;
            in.proxyA.Set(points_a[i].data(), c.a.count, c.a.radius);
            in.proxyB.Set(points_b[i].data(), c.b.count, c.b.radius);
            in.transformA = bench::to_b2(c.xf_a);
            in.transformB = bench::to_b2(c.xf_b);
            in.useRadii = true;
            inputs.push_back(in);
            in.transformB = bench::to_b2(c.previous_b);
            previous.push_back(in);
        }
    }
};

std::vector<sweep::DistanceInput> sweep_inputs(const std::vector<PairCase>& cases) {
    std::vector<sweep::DistanceInput> inputs;
    for (const PairCase& c : cases) {
        inputs.push_back({c.a, c.b, c.xf_a, c.xf_b, true});
    }
    return inputs;
}

void run_sweep(benchmark::State& state, const std::vector<PairCase>& cases, bool warm) {
    const std::vector<sweep::DistanceInput> inputs = sweep_inputs(cases);
    std::vector<sweep::SimplexCache> caches(inputs.size());
    if (warm) {
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            sweep::DistanceInput previous = inputs[i];
            previous.xf_b = cases[i].previous_b;
            (void)sweep::distance(previous, caches[i]);
        }
    }
    for (auto _ : state) {
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            sweep::SimplexCache cache = caches[i]; // the same start every iteration
            benchmark::DoNotOptimize(sweep::distance(inputs[i], cache));
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(inputs.size()));
}

void run_box2d(benchmark::State& state, const std::vector<PairCase>& cases, bool warm) {
    const B2Cases b2(cases);
    std::vector<b2SimplexCache> caches(b2.inputs.size());
    for (std::size_t i = 0; i < b2.inputs.size(); ++i) {
        caches[i].count = 0;
        if (warm) {
            b2DistanceOutput output;
            b2Distance(&output, &caches[i], &b2.previous[i]);
        }
    }
    for (auto _ : state) {
        for (std::size_t i = 0; i < b2.inputs.size(); ++i) {
            b2SimplexCache cache = caches[i];
            b2DistanceOutput output;
            b2Distance(&output, &cache, &b2.inputs[i]);
            benchmark::DoNotOptimize(output);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(b2.inputs.size()));
}

void Distance_Poly8_sweep(benchmark::State& state) { run_sweep(state, poly8_cases(), false); }
void Distance_Poly8_box2d(benchmark::State& state) { run_box2d(state, poly8_cases(), false); }
void Distance_Poly8Warm_sweep(benchmark::State& state) { run_sweep(state, poly8_cases(), true); }
void Distance_Poly8Warm_box2d(benchmark::State& state) { run_box2d(state, poly8_cases(), true); }
void Distance_Circle_sweep(benchmark::State& state) { run_sweep(state, circle_cases(), false); }
void Distance_Circle_box2d(benchmark::State& state) { run_box2d(state, circle_cases(), false); }

} // namespace

BENCHMARK(Distance_Poly8_sweep)->Name("Distance/poly8_poly8/sweep");
BENCHMARK(Distance_Poly8_box2d)->Name("Distance/poly8_poly8/box2d");
BENCHMARK(Distance_Poly8Warm_sweep)->Name("Distance/poly8_poly8_warm/sweep");
BENCHMARK(Distance_Poly8Warm_box2d)->Name("Distance/poly8_poly8_warm/box2d");
BENCHMARK(Distance_Circle_sweep)->Name("Distance/circle_circle/sweep");
BENCHMARK(Distance_Circle_box2d)->Name("Distance/circle_circle/box2d");
