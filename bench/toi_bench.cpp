// Time of impact with rotation, ours (sweep::time_of_impact, conservative
// advancement) next to Box2D 2.4.1's b2TimeOfImpact (root finder on separating
// axes) on the same sweeps: two boxes, both turning and moving.
// (TimeOfImpact/spinning_bar_wall is in narrowphase_bench.cpp.)
//
// The same problem on both sides: b2TimeOfImpact targets cores
// max(b2_linearSlop, rA + rB - 3 b2_linearSlop) apart, +- 0.25 b2_linearSlop;
// with Box2D's polygon skins (0.01 each) that is 0.005 +- 0.00125, which is
// our default target_separation and touch tolerance for sharp polygons. The
// `hits` counter shows how often each finds a contact (Box2D's root finder
// misses some contacts of fast-turning shapes; ours never does).
#include <benchmark/benchmark.h>
#include <box2d/b2_time_of_impact.h>

#include <vector>

#include "inputs.hpp"
#include "sweep/toi.hpp"

namespace {

using bench::k_cases;

// A turns by up to 1 radian and drifts; B, with its centre of mass off its
// box centre, flies at A from 2 to 5 away, past a random point near it, while
// turning by up to 4 radians: about half hit.
const std::vector<sweep::ToiInput>& rotating_cases() {
    static const std::vector<sweep::ToiInput> cases = [] {
        bench::Rng rng(51);
        std::vector<sweep::ToiInput> out;
        for (int i = 0; i < k_cases; ++i) {
            sweep::ToiInput c;
            c.proxy_a = sweep::make_proxy(bench::random_box(rng));
            c.proxy_b = sweep::make_proxy(bench::random_box(rng));
            const sweep::Vec2 ca = bench::random_point(rng, 0.5f);
            const float angle_a = bench::uniform(rng, -3.14159f, 3.14159f);
            c.sweep_a = {{},
                         ca,
                         ca + bench::random_point(rng, 0.3f),
                         angle_a,
                         angle_a + bench::uniform(rng, -1, 1)};
            const sweep::Vec2 cb = ca + bench::uniform(rng, 2, 5) * bench::random_direction(rng);
            const sweep::Vec2 aim = ca + bench::random_point(rng, 1.5f);
            const float angle_b = bench::uniform(rng, -3.14159f, 3.14159f);
            c.sweep_b = {bench::random_point(rng, 0.1f), cb,
                         cb + bench::uniform(rng, 0.5f, 1.5f) * (aim - cb), angle_b,
                         angle_b + bench::uniform(rng, -4, 4)};
            out.push_back(c);
        }
        return out;
    }();
    return cases;
}

b2Sweep to_b2(const sweep::Sweep& s) {
    b2Sweep out;
    out.localCenter = bench::to_b2(s.local_center);
    out.c0 = bench::to_b2(s.c1);
    out.c = bench::to_b2(s.c2);
    out.a0 = s.a1;
    out.a = s.a2;
    out.alpha0 = 0;
    return out;
}

void TimeOfImpact_RotatingBoxes_sweep(benchmark::State& state) {
    const std::vector<sweep::ToiInput>& cases = rotating_cases();
    int hits = 0;
    for (const sweep::ToiInput& c : cases) {
        hits += sweep::time_of_impact(c).state == sweep::CastState::hit;
    }
    for (auto _ : state) {
        for (const sweep::ToiInput& c : cases) {
            benchmark::DoNotOptimize(sweep::time_of_impact(c));
        }
    }
    state.counters["hits"] = hits;
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(cases.size()));
}

void TimeOfImpact_RotatingBoxes_box2d(benchmark::State& state) {
    const std::vector<sweep::ToiInput>& cases = rotating_cases();
    // Box2D's proxies point into `points`; each box carries Box2D's skin.
    std::vector<std::array<b2Vec2, 4>> points_a(cases.size());
    std::vector<std::array<b2Vec2, 4>> points_b(cases.size());
    std::vector<b2TOIInput> inputs(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const sweep::ToiInput& c = cases[i];
        for (int k = 0; k < 4; ++k) {
            points_a[i][k] = bench::to_b2(c.proxy_a.points[k]);
            points_b[i][k] = bench::to_b2(c.proxy_b.points[k]);
        }
        inputs[i].proxyA.Set(points_a[i].data(), 4, b2_polygonRadius);
        inputs[i].proxyB.Set(points_b[i].data(), 4, b2_polygonRadius);
        inputs[i].sweepA = to_b2(c.sweep_a);
        inputs[i].sweepB = to_b2(c.sweep_b);
        inputs[i].tMax = 1;
    }
    int hits = 0;
    for (const b2TOIInput& input : inputs) {
        b2TOIOutput output;
        b2TimeOfImpact(&output, &input);
        hits += output.state == b2TOIOutput::e_touching;
    }
    for (auto _ : state) {
        for (const b2TOIInput& input : inputs) {
            b2TOIOutput output;
            b2TimeOfImpact(&output, &input);
            benchmark::DoNotOptimize(output);
        }
    }
    state.counters["hits"] = hits;
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(inputs.size()));
}

} // namespace

BENCHMARK(TimeOfImpact_RotatingBoxes_sweep)->Name("TimeOfImpact/rotating_boxes/sweep");
BENCHMARK(TimeOfImpact_RotatingBoxes_box2d)->Name("TimeOfImpact/rotating_boxes/box2d");
