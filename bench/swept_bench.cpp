// The seeds' closed-form sweeps next to Box2D 2.4.1's general shape cast on
// the same inputs: a moving box against a still box (swept_aabb vs
// b2ShapeCast of two polygons), two moving circles (swept_circles vs
// b2ShapeCast of two circles, in the frame of A) and a moving circle against
// a still box (swept_circle_aabb vs b2ShapeCast of a circle and a box). Each
// runs over a fixed array of 1024 random cases, about half of them hits.
#include <benchmark/benchmark.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_distance.h>
#include <box2d/b2_polygon_shape.h>

#include <random>
#include <vector>

#include "sweep/swept.hpp"

namespace {

// Box2D's shape cast over every input, per benchmark iteration.
void run_b2_shape_casts(benchmark::State& state, const std::vector<b2ShapeCastInput>& inputs) {
    for (auto _ : state) {
        for (const b2ShapeCastInput& input : inputs) {
            b2ShapeCastOutput output;
            benchmark::DoNotOptimize(b2ShapeCast(&output, &input));
            benchmark::DoNotOptimize(output);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(inputs.size()));
}

struct BoxCase {
    sweep::Vec2 center_a, half_a; // the moving box
    sweep::Vec2 center_b, half_b; // the still box
    sweep::Vec2 d;                // A's displacement
};

const std::vector<BoxCase>& box_cases() {
    static const std::vector<BoxCase> cases = [] {
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> pos(-5, 5);
        std::uniform_real_distribution<float> near(-1.5f, 1.5f);
        std::uniform_real_distribution<float> half(0.1f, 1.0f);
        std::vector<BoxCase> out;
        for (int i = 0; i < 1024; ++i) {
            BoxCase c;
            c.center_a = {pos(rng), pos(rng)};
            c.half_a = {half(rng), half(rng)};
            c.center_b = {near(rng), near(rng)};
            c.half_b = {half(rng), half(rng)};
            c.d = 1.5f * (sweep::Vec2{near(rng), near(rng)} - c.center_a);
            out.push_back(c);
        }
        return out;
    }();
    return cases;
}

struct CircleCase {
    sweep::Vec2 c0a, c1a, c0b, c1b;
    float ra, rb;
};

const std::vector<CircleCase>& circle_cases() {
    static const std::vector<CircleCase> cases = [] {
        std::mt19937 rng(12);
        std::uniform_real_distribution<float> pos(-5, 5);
        std::uniform_real_distribution<float> near(-1.5f, 1.5f);
        std::uniform_real_distribution<float> radius(0.1f, 1.0f);
        std::vector<CircleCase> out;
        for (int i = 0; i < 1024; ++i) {
            CircleCase c;
            c.c0a = {pos(rng), pos(rng)};
            c.c0b = {near(rng), near(rng)};
            c.c1a = c.c0a + 1.5f * (sweep::Vec2{near(rng), near(rng)} - c.c0a);
            c.c1b = c.c0b + sweep::Vec2{near(rng), near(rng)};
            c.ra = radius(rng);
            c.rb = radius(rng);
            out.push_back(c);
        }
        return out;
    }();
    return cases;
}

struct CircleBoxCase {
    sweep::Vec2 center_b, half_b; // the still box
    sweep::Vec2 c;                // the circle's centre at the start
    float r;                      // its radius
    sweep::Vec2 d;                // its displacement
};

const std::vector<CircleBoxCase>& circle_box_cases() {
    static const std::vector<CircleBoxCase> cases = [] {
        std::mt19937 rng(13);
        std::uniform_real_distribution<float> pos(-5, 5);
        std::uniform_real_distribution<float> near(-1.5f, 1.5f);
        std::uniform_real_distribution<float> half(0.1f, 1.0f);
        std::uniform_real_distribution<float> radius(0.1f, 1.0f);
        std::uniform_real_distribution<float> aim(-2.5f, 2.5f); // 474 of 1024 hit
        std::vector<CircleBoxCase> out;
        for (int i = 0; i < 1024; ++i) {
            CircleBoxCase c;
            c.c = {pos(rng), pos(rng)};
            c.center_b = {near(rng), near(rng)};
            c.half_b = {half(rng), half(rng)};
            c.r = radius(rng);
            c.d = 1.5f * (sweep::Vec2{aim(rng), aim(rng)} - c.c);
            out.push_back(c);
        }
        return out;
    }();
    return cases;
}

void ShapeCast_AabbAabb_sweep(benchmark::State& state) {
    std::vector<sweep::Aabb> moving;
    std::vector<sweep::Aabb> still;
    for (const BoxCase& c : box_cases()) {
        moving.push_back({c.center_a - c.half_a, c.center_a + c.half_a});
        still.push_back({c.center_b - c.half_b, c.center_b + c.half_b});
    }
    for (auto _ : state) {
        for (std::size_t i = 0; i < moving.size(); ++i) {
            benchmark::DoNotOptimize(sweep::swept_aabb(moving[i], box_cases()[i].d, still[i]));
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(moving.size()));
}

void ShapeCast_AabbAabb_box2d(benchmark::State& state) {
    // b2ShapeCast moves proxy B: the still box is A, the moving box B.
    std::vector<b2PolygonShape> moving(box_cases().size());
    std::vector<b2PolygonShape> still(box_cases().size());
    std::vector<b2ShapeCastInput> inputs(box_cases().size());
    for (std::size_t i = 0; i < box_cases().size(); ++i) {
        const BoxCase& c = box_cases()[i];
        still[i].SetAsBox(c.half_b.x, c.half_b.y);
        moving[i].SetAsBox(c.half_a.x, c.half_a.y);
        inputs[i].proxyA.Set(&still[i], 0);
        inputs[i].proxyB.Set(&moving[i], 0);
        inputs[i].transformA = b2Transform(b2Vec2(c.center_b.x, c.center_b.y), b2Rot(0));
        inputs[i].transformB = b2Transform(b2Vec2(c.center_a.x, c.center_a.y), b2Rot(0));
        inputs[i].translationB = b2Vec2(c.d.x, c.d.y);
    }
    run_b2_shape_casts(state, inputs);
}

void ShapeCast_CircleCircle_sweep(benchmark::State& state) {
    for (auto _ : state) {
        for (const CircleCase& c : circle_cases()) {
            benchmark::DoNotOptimize(sweep::swept_circles(c.c0a, c.c1a, c.ra, c.c0b, c.c1b, c.rb));
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(circle_cases().size()));
}

void ShapeCast_CircleCircle_box2d(benchmark::State& state) {
    // Both move: Box2D casts B by the relative translation with A still.
    std::vector<b2CircleShape> a(circle_cases().size());
    std::vector<b2CircleShape> b(circle_cases().size());
    std::vector<b2ShapeCastInput> inputs(circle_cases().size());
    for (std::size_t i = 0; i < circle_cases().size(); ++i) {
        const CircleCase& c = circle_cases()[i];
        a[i].m_radius = c.ra;
        b[i].m_radius = c.rb;
        inputs[i].proxyA.Set(&a[i], 0);
        inputs[i].proxyB.Set(&b[i], 0);
        inputs[i].transformA = b2Transform(b2Vec2(c.c0a.x, c.c0a.y), b2Rot(0));
        inputs[i].transformB = b2Transform(b2Vec2(c.c0b.x, c.c0b.y), b2Rot(0));
        const sweep::Vec2 rel = (c.c1b - c.c0b) - (c.c1a - c.c0a);
        inputs[i].translationB = b2Vec2(rel.x, rel.y);
    }
    run_b2_shape_casts(state, inputs);
}

void ShapeCast_CircleAabb_sweep(benchmark::State& state) {
    std::vector<sweep::Aabb> boxes;
    for (const CircleBoxCase& c : circle_box_cases()) {
        boxes.push_back({c.center_b - c.half_b, c.center_b + c.half_b});
    }
    for (auto _ : state) {
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            const CircleBoxCase& c = circle_box_cases()[i];
            benchmark::DoNotOptimize(sweep::swept_circle_aabb(boxes[i], c.c, c.r, c.d));
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(boxes.size()));
}

void ShapeCast_CircleAabb_box2d(benchmark::State& state) {
    // b2ShapeCast moves proxy B: the still box is A, the moving circle B.
    std::vector<b2PolygonShape> boxes(circle_box_cases().size());
    std::vector<b2CircleShape> circles(circle_box_cases().size());
    std::vector<b2ShapeCastInput> inputs(circle_box_cases().size());
    for (std::size_t i = 0; i < circle_box_cases().size(); ++i) {
        const CircleBoxCase& c = circle_box_cases()[i];
        boxes[i].SetAsBox(c.half_b.x, c.half_b.y);
        circles[i].m_radius = c.r;
        inputs[i].proxyA.Set(&boxes[i], 0);
        inputs[i].proxyB.Set(&circles[i], 0);
        inputs[i].transformA = b2Transform(b2Vec2(c.center_b.x, c.center_b.y), b2Rot(0));
        inputs[i].transformB = b2Transform(b2Vec2(c.c.x, c.c.y), b2Rot(0));
        inputs[i].translationB = b2Vec2(c.d.x, c.d.y);
    }
    run_b2_shape_casts(state, inputs);
}

} // namespace

BENCHMARK(ShapeCast_AabbAabb_sweep)->Name("ShapeCast/aabb_aabb/sweep");
BENCHMARK(ShapeCast_AabbAabb_box2d)->Name("ShapeCast/aabb_aabb/box2d");
BENCHMARK(ShapeCast_CircleCircle_sweep)->Name("ShapeCast/circle_circle/sweep");
BENCHMARK(ShapeCast_CircleCircle_box2d)->Name("ShapeCast/circle_circle/box2d");
BENCHMARK(ShapeCast_CircleAabb_sweep)->Name("ShapeCast/circle_aabb/sweep");
BENCHMARK(ShapeCast_CircleAabb_box2d)->Name("ShapeCast/circle_aabb/box2d");
