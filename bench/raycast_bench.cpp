// Ray casts against single shapes, ours (sweep::raycast) next to Box2D 2.4.1's
// b2Shape::RayCast on the same inputs: a circle, a box, a regular octagon, a
// two-sided segment and a one-sided chain segment (b2EdgeShape::SetOneSided).
// Rounded boxes and capsules have no Box2D 2.4.1 counterpart (its polygon
// ray cast ignores the radius) and run alone. Each benchmark runs over a
// fixed array of 1024 cases (seeded): the shape at a random pose within 0.5
// of the origin, the ray from up to 6 away aimed near it or starting near it
// in a random direction; about a third hit.
#include <benchmark/benchmark.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_edge_shape.h>
#include <box2d/b2_polygon_shape.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "sweep/raycast.hpp"

namespace {

struct RayCase {
    float x, y, angle;  // the shape's pose
    sweep::Vec2 origin; // the ray, world frame
    sweep::Vec2 translation;
};

const std::vector<RayCase>& ray_cases() {
    static const std::vector<RayCase> cases = [] {
        std::mt19937 rng(13);
        std::uniform_real_distribution<float> pose(-0.5f, 0.5f);
        std::uniform_real_distribution<float> angle(-3.14159f, 3.14159f);
        std::uniform_real_distribution<float> far(-6, 6);
        std::uniform_real_distribution<float> near(-1.5f, 1.5f);
        std::uniform_real_distribution<float> scale(0.6f, 2.0f);
        std::uniform_real_distribution<float> length(0.1f, 4);
        std::vector<RayCase> out;
        for (int i = 0; i < 1024; ++i) {
            RayCase c{pose(rng), pose(rng), angle(rng), {}, {}};
            if (i % 3 != 0) {
                c.origin = {far(rng), far(rng)};
                const sweep::Vec2 aim{near(rng), near(rng)};
                c.translation = scale(rng) * (aim - c.origin);
            } else {
                c.origin = {near(rng), near(rng)};
                const float a = angle(rng);
                const float len = length(rng);
                c.translation = {len * std::cos(a), len * std::sin(a)};
            }
            out.push_back(c);
        }
        return out;
    }();
    return cases;
}

sweep::Transform to_sweep(const RayCase& c) {
    return {{c.x, c.y}, sweep::Rot::from_angle(c.angle)};
}
b2Transform to_box2d(const RayCase& c) { return b2Transform(b2Vec2(c.x, c.y), b2Rot(c.angle)); }

template <class Shape> void bench_sweep(benchmark::State& state, const Shape& shape) {
    const auto& cases = ray_cases();
    std::vector<sweep::Transform> xfs;
    for (const RayCase& c : cases) {
        xfs.push_back(to_sweep(c));
    }
    int hits = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const sweep::RayInput input{cases[i].origin, cases[i].translation, 1};
            const sweep::CastOutput out = sweep::raycast(input, shape, xfs[i]);
            hits += out.state == sweep::CastState::hit;
            benchmark::DoNotOptimize(out);
        }
    }
    state.counters["hit_fraction"] =
        double(hits) / double(state.iterations() * static_cast<int64_t>(cases.size()));
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(cases.size()));
}

void bench_box2d(benchmark::State& state, const b2Shape& shape) {
    const auto& cases = ray_cases();
    std::vector<b2Transform> xfs;
    for (const RayCase& c : cases) {
        xfs.push_back(to_box2d(c));
    }
    int hits = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            b2RayCastInput input;
            input.p1.Set(cases[i].origin.x, cases[i].origin.y);
            input.p2.Set(cases[i].origin.x + cases[i].translation.x,
                         cases[i].origin.y + cases[i].translation.y);
            input.maxFraction = 1;
            b2RayCastOutput output;
            hits += shape.RayCast(&output, input, xfs[i], 0);
            benchmark::DoNotOptimize(output);
        }
    }
    state.counters["hit_fraction"] =
        double(hits) / double(state.iterations() * static_cast<int64_t>(cases.size()));
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(cases.size()));
}

// The shapes, the same in both libraries.
constexpr float k_radius = 0.75f;
constexpr float k_half = 0.6f;

std::array<sweep::Vec2, 8> octagon() {
    std::array<sweep::Vec2, 8> v{};
    for (int i = 0; i < 8; ++i) {
        const float a = 2 * 3.14159265f * float(i) / 8;
        v[i] = {0.8f * std::cos(a), 0.8f * std::sin(a)};
    }
    return v;
}

void RayCast_Circle_sweep(benchmark::State& state) {
    bench_sweep(state, sweep::Circle{{0.1f, 0}, k_radius});
}
void RayCast_Circle_box2d(benchmark::State& state) {
    b2CircleShape circle;
    circle.m_p.Set(0.1f, 0);
    circle.m_radius = k_radius;
    bench_box2d(state, circle);
}

void RayCast_Box_sweep(benchmark::State& state) {
    bench_sweep(state, sweep::make_box(k_half, 0.4f).value());
}
void RayCast_Box_box2d(benchmark::State& state) {
    b2PolygonShape box;
    box.SetAsBox(k_half, 0.4f);
    bench_box2d(state, box);
}

void RayCast_Poly8_sweep(benchmark::State& state) {
    const auto v = octagon();
    bench_sweep(state, sweep::make_polygon(v).value());
}
void RayCast_Poly8_box2d(benchmark::State& state) {
    const auto v = octagon();
    std::array<b2Vec2, 8> b{};
    for (int i = 0; i < 8; ++i) {
        b[i].Set(v[i].x, v[i].y);
    }
    b2PolygonShape polygon;
    polygon.Set(b.data(), 8);
    bench_box2d(state, polygon);
}

void RayCast_Segment_sweep(benchmark::State& state) {
    bench_sweep(state, sweep::Segment{{-1, -0.5f}, {1, 0.5f}});
}
void RayCast_Segment_box2d(benchmark::State& state) {
    b2EdgeShape edge;
    edge.SetTwoSided(b2Vec2(-1, -0.5f), b2Vec2(1, 0.5f));
    bench_box2d(state, edge);
}

void RayCast_Chain_sweep(benchmark::State& state) {
    bench_sweep(state, sweep::ChainSegment{{-3, -1.5f}, {{-1, -0.5f}, {1, 0.5f}}, {3, 1.5f}});
}
void RayCast_Chain_box2d(benchmark::State& state) {
    b2EdgeShape edge;
    edge.SetOneSided(b2Vec2(-3, -1.5f), b2Vec2(-1, -0.5f), b2Vec2(1, 0.5f), b2Vec2(3, 1.5f));
    bench_box2d(state, edge);
}

void RayCast_RoundedBox_sweep(benchmark::State& state) {
    bench_sweep(state, sweep::make_rounded_box(0.45f, 0.25f, 0.15f).value());
}

void RayCast_Capsule_sweep(benchmark::State& state) {
    bench_sweep(state, sweep::Capsule{{-0.5f, 0}, {0.5f, 0}, 0.3f});
}

} // namespace

BENCHMARK(RayCast_Circle_sweep)->Name("RayCast/circle/sweep");
BENCHMARK(RayCast_Circle_box2d)->Name("RayCast/circle/box2d");
BENCHMARK(RayCast_Box_sweep)->Name("RayCast/box/sweep");
BENCHMARK(RayCast_Box_box2d)->Name("RayCast/box/box2d");
BENCHMARK(RayCast_Poly8_sweep)->Name("RayCast/poly8/sweep");
BENCHMARK(RayCast_Poly8_box2d)->Name("RayCast/poly8/box2d");
BENCHMARK(RayCast_Segment_sweep)->Name("RayCast/segment/sweep");
BENCHMARK(RayCast_Segment_box2d)->Name("RayCast/segment/box2d");
BENCHMARK(RayCast_Chain_sweep)->Name("RayCast/chain_segment/sweep");
BENCHMARK(RayCast_Chain_box2d)->Name("RayCast/chain_segment/box2d");
BENCHMARK(RayCast_RoundedBox_sweep)->Name("RayCast/rounded_box/sweep");
BENCHMARK(RayCast_Capsule_sweep)->Name("RayCast/capsule/sweep");
