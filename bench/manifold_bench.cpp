// Contact manifolds, ours next to Box2D 2.4.1's on the same shapes and poses:
// circles, random convex octagons, boxes against circles, and capsules
// (Manifold/box_box is in narrowphase_bench.cpp).
//
// The same problem on both sides. Box2D keeps a contact point while the
// shapes' skins overlap: its polygons carry a 0.01 skin each, so it keeps
// points up to 0.02 between the cores, which is our default speculative
// distance for sharp polygons. Its circles and edges keep points only when
// touching: ours run with speculative_distance 0 there.
//
// Box2D's manifold holds less than ours: local points and one normal,
// where ours also holds world points, both anchors and each point's
// separation. Its solver gets those from b2WorldManifold::Initialize, called
// for every touching contact as each step begins. The `_world` rows time
// that same information on both sides: Box2D's collide plus
// b2WorldManifold::Initialize where it found points, ours unchanged.
//
// Manifold/chain_box pairs ours with b2CollideEdgeAndPolygon on a one-sided
// edge with ghost vertices (Box2D 2.4's chain segment).
//
// Box2D 2.4.1 has no capsule: Manifold/capsule_capsule is ours alone, and
// Manifold/capsule_circle pairs ours with b2CollideEdgeAndCircle on an edge
// whose m_radius is the capsule's radius (a capsule, for that function).
#include <benchmark/benchmark.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_collision.h>
#include <box2d/b2_edge_shape.h>
#include <box2d/b2_polygon_shape.h>

#include <cmath>
#include <vector>

#include "inputs.hpp"
#include "sweep/manifold.hpp"

namespace {

using bench::k_cases;

constexpr sweep::CollideSettings k_touching_only{0, sweep::k_linear_slop};

// Two shapes and their poses.
template <class A, class B> struct PairCase {
    A a;
    B b;
    sweep::Transform xf_a, xf_b;
};

// k_cases pairs, B's origin `min_distance` to `max_distance` from A's in a
// random direction.
template <class A, class B, class MakeA, class MakeB>
std::vector<PairCase<A, B>> make_cases(unsigned seed, float min_distance, float max_distance,
                                       MakeA make_a, MakeB make_b) {
    bench::Rng rng(seed);
    std::vector<PairCase<A, B>> cases;
    for (int i = 0; i < k_cases; ++i) {
        PairCase<A, B> c{make_a(rng), make_b(rng), bench::random_transform(rng, 5),
                         bench::random_transform(rng, 0)};
        c.xf_b.p = c.xf_a.p +
                   bench::uniform(rng, min_distance, max_distance) * bench::random_direction(rng);
        cases.push_back(c);
    }
    return cases;
}

sweep::Circle random_circle(bench::Rng& rng) {
    return {bench::random_point(rng, 0.2f), bench::uniform(rng, 0.1f, 1.0f)};
}

sweep::Polygon random_poly8(bench::Rng& rng) { return bench::random_polygon(rng, 8); }

sweep::Capsule random_capsule(bench::Rng& rng) {
    const sweep::Vec2 center = bench::random_point(rng, 0.2f);
    const sweep::Vec2 half = bench::uniform(rng, 0.2f, 1.0f) * bench::random_direction(rng);
    return {center - half, center + half, bench::uniform(rng, 0.05f, 0.5f)};
}

using bench::to_b2;

b2CircleShape to_b2(const sweep::Circle& circle) {
    b2CircleShape out;
    out.m_p = bench::to_b2(circle.center);
    out.m_radius = circle.radius;
    return out;
}

b2EdgeShape to_b2(const sweep::Capsule& capsule) {
    b2EdgeShape out;
    out.SetTwoSided(bench::to_b2(capsule.center1), bench::to_b2(capsule.center2));
    out.m_radius = capsule.radius;
    return out;
}

// Runs `collide` over every case; counts the manifolds with points.
template <class Case, class Collide>
void run(benchmark::State& state, const std::vector<Case>& cases, Collide collide) {
    int touching = 0;
    for (const Case& c : cases) {
        touching += collide(c) > 0;
    }
    for (auto _ : state) {
        for (const Case& c : cases) {
            benchmark::DoNotOptimize(collide(c));
        }
    }
    state.counters["touching"] = touching;
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(cases.size()));
}

// Box2D's manifold `m` of shapes a and b at poses xf_a, xf_b, with its
// world points, normal and separations made, as its solver makes them.
template <class A, class B>
int with_world_points(const b2Manifold& m, const A& a, const b2Transform& xf_a, const B& b,
                      const b2Transform& xf_b) {
    if (m.pointCount > 0) {
        b2WorldManifold world;
        world.Initialize(&m, xf_a, a.m_radius, xf_b, b.m_radius);
        benchmark::DoNotOptimize(world);
    }
    return m.pointCount;
}

// Box2D's `collide` (a b2Collide* function) over `cases` (Box2D's shapes):
// its manifold alone, local points and one normal.
template <class Case, class Collide>
void run_box2d(benchmark::State& state, const std::vector<Case>& cases, Collide collide) {
    run(state, cases, [collide](const auto& c) {
        b2Manifold m;
        collide(&m, &c.a, bench::to_b2(c.xf_a), &c.b, bench::to_b2(c.xf_b));
        return m.pointCount;
    });
}

// Box2D's `collide` (a b2Collide* function) over `cases` (Box2D's shapes),
// with the world points, normal and separations of every manifold it fills.
template <class Case, class Collide>
void run_box2d_world(benchmark::State& state, const std::vector<Case>& cases, Collide collide) {
    run(state, cases, [collide](const auto& c) {
        b2Manifold m;
        const b2Transform xf_a = bench::to_b2(c.xf_a);
        const b2Transform xf_b = bench::to_b2(c.xf_b);
        collide(&m, &c.a, xf_a, &c.b, xf_b);
        return with_world_points(m, c.a, xf_a, c.b, xf_b);
    });
}

// The same cases with Box2D's shapes.
template <class A, class B> auto to_b2_cases(const std::vector<PairCase<A, B>>& cases) {
    std::vector<PairCase<decltype(to_b2(cases[0].a)), decltype(to_b2(cases[0].b))>> out;
    for (const auto& c : cases) {
        out.push_back({to_b2(c.a), to_b2(c.b), c.xf_a, c.xf_b});
    }
    return out;
}

// ---- circle vs circle: about 40 % touch

const auto& circle_cases() {
    static const auto cases =
        make_cases<sweep::Circle, sweep::Circle>(61, 0.2f, 2.5f, random_circle, random_circle);
    return cases;
}

void Manifold_Circles_sweep(benchmark::State& state) {
    run(state, circle_cases(), [](const auto& c) {
        return sweep::collide_circles(c.a, c.xf_a, c.b, c.xf_b, k_touching_only).count;
    });
}

void Manifold_Circles_box2d(benchmark::State& state) {
    run_box2d(state, to_b2_cases(circle_cases()), b2CollideCircles);
}

void Manifold_CirclesWorld_box2d(benchmark::State& state) {
    run_box2d_world(state, to_b2_cases(circle_cases()), b2CollideCircles);
}

// ---- octagon vs octagon: about half touch

const auto& poly8_cases() {
    static const auto cases =
        make_cases<sweep::Polygon, sweep::Polygon>(62, 0.3f, 2.2f, random_poly8, random_poly8);
    return cases;
}

void Manifold_Poly8_sweep(benchmark::State& state) {
    run(state, poly8_cases(),
        [](const auto& c) { return sweep::collide_polygons(c.a, c.xf_a, c.b, c.xf_b).count; });
}

void Manifold_Poly8_box2d(benchmark::State& state) {
    run_box2d(state, to_b2_cases(poly8_cases()), b2CollidePolygons);
}

void Manifold_Poly8World_box2d(benchmark::State& state) {
    run_box2d_world(state, to_b2_cases(poly8_cases()), b2CollidePolygons);
}

// ---- box vs circle: a mixed pile's commonest pair. Box2D keeps points
// while the circle is within its polygon skin (b2_polygonRadius): ours the
// same with that speculative distance.

constexpr sweep::CollideSettings k_polygon_skin{b2_polygonRadius, sweep::k_linear_slop};

const auto& box_circle_cases() {
    static const auto cases =
        make_cases<sweep::Polygon, sweep::Circle>(65, 0.1f, 2.0f, bench::random_box, random_circle);
    return cases;
}

void Manifold_BoxCircle_sweep(benchmark::State& state) {
    run(state, box_circle_cases(), [](const auto& c) {
        return sweep::collide_polygon_circle(c.a, c.xf_a, c.b, c.xf_b, k_polygon_skin).count;
    });
}

void Manifold_BoxCircle_box2d(benchmark::State& state) {
    run_box2d(state, to_b2_cases(box_circle_cases()), b2CollidePolygonAndCircle);
}

void Manifold_BoxCircleWorld_box2d(benchmark::State& state) {
    run_box2d_world(state, to_b2_cases(box_circle_cases()), b2CollidePolygonAndCircle);
}

// ---- capsule vs capsule (ours only) and capsule vs circle

const auto& capsule_cases() {
    static const auto cases =
        make_cases<sweep::Capsule, sweep::Capsule>(63, 0.1f, 2.0f, random_capsule, random_capsule);
    return cases;
}

void Manifold_Capsules_sweep(benchmark::State& state) {
    run(state, capsule_cases(),
        [](const auto& c) { return sweep::collide_capsules(c.a, c.xf_a, c.b, c.xf_b).count; });
}

const auto& capsule_circle_cases() {
    static const auto cases =
        make_cases<sweep::Capsule, sweep::Circle>(64, 0.1f, 2.0f, random_capsule, random_circle);
    return cases;
}

void Manifold_CapsuleCircle_sweep(benchmark::State& state) {
    run(state, capsule_circle_cases(), [](const auto& c) {
        return sweep::collide_capsule_circle(c.a, c.xf_a, c.b, c.xf_b, k_touching_only).count;
    });
}

void Manifold_CapsuleCircle_box2d(benchmark::State& state) {
    run_box2d(state, to_b2_cases(capsule_circle_cases()), b2CollideEdgeAndCircle);
}

void Manifold_CapsuleCircleWorld_box2d(benchmark::State& state) {
    run_box2d_world(state, to_b2_cases(capsule_circle_cases()), b2CollideEdgeAndCircle);
}

// ---- chain segment vs box: a box on a level's one-sided polyline. Each
// segment 2 L long, its neighbours turned by up to 60 degrees either way
// (convex and concave joints), the box in front of it near its face or an
// end. Box2D 2.4's one-sided edge with ghost vertices is the same surface
// (b2EdgeShape::SetOneSided; normal to the right of v1 -> v2, as ours).

struct ChainBoxCase {
    sweep::ChainSegment a;
    sweep::Polygon b;
    sweep::Transform xf_a, xf_b;
};

const std::vector<ChainBoxCase>& chain_box_cases() {
    static const auto cases = [] {
        bench::Rng rng(66);
        std::vector<ChainBoxCase> out;
        for (int i = 0; i < k_cases; ++i) {
            const float turn0 = bench::uniform(rng, -1.05f, 1.05f);
            const float turn2 = bench::uniform(rng, -1.05f, 1.05f);
            const sweep::Vec2 p1{-1, 0};
            const sweep::Vec2 p2{1, 0};
            const sweep::ChainSegment chain{p1 - sweep::Vec2{std::cos(turn0), std::sin(turn0)},
                                            {p1, p2},
                                            p2 + sweep::Vec2{std::cos(turn2), -std::sin(turn2)}};
            const sweep::Polygon box = bench::random_box(rng);
            // Along the segment and a little past its ends, up to 1.2 L above it
            // (the face's normal is -y: right of p1 -> p2).
            const sweep::Vec2 at{bench::uniform(rng, -1.5f, 1.5f), -bench::uniform(rng, 0, 1.2f)};
            const sweep::Transform xf_a = bench::random_transform(rng, 5);
            const sweep::Transform local{
                at, sweep::Rot::from_angle(bench::uniform(rng, -3.14f, 3.14f))};
            out.push_back({chain, box, xf_a, sweep::mul(xf_a, local)});
        }
        return out;
    }();
    return cases;
}

void Manifold_ChainBox_sweep(benchmark::State& state) {
    run(state, chain_box_cases(), [](const ChainBoxCase& c) {
        // (The default settings keep points within 0.02 L: Box2D's two skins.)
        return sweep::collide(sweep::Shape(c.a), c.xf_a, sweep::Shape(c.b), c.xf_b).count;
    });
}

// Box2D's one-sided edge and polygon for the same cases; `world` adds the
// world points its solver makes from the manifold.
template <bool world> void chain_box_box2d(benchmark::State& state) {
    struct Case {
        b2EdgeShape a;
        b2PolygonShape b;
        sweep::Transform xf_a, xf_b;
    };
    std::vector<Case> cases;
    for (const ChainBoxCase& c : chain_box_cases()) {
        Case out{{}, to_b2(c.b), c.xf_a, c.xf_b};
        out.a.SetOneSided(bench::to_b2(c.a.ghost1), bench::to_b2(c.a.segment.p1),
                          bench::to_b2(c.a.segment.p2), bench::to_b2(c.a.ghost2));
        cases.push_back(out);
    }
    if constexpr (world) {
        run_box2d_world(state, cases, b2CollideEdgeAndPolygon);
    } else {
        run_box2d(state, cases, b2CollideEdgeAndPolygon);
    }
}

void Manifold_ChainBox_box2d(benchmark::State& state) { chain_box_box2d<false>(state); }

void Manifold_ChainBoxWorld_box2d(benchmark::State& state) { chain_box_box2d<true>(state); }

} // namespace

BENCHMARK(Manifold_Circles_sweep)->Name("Manifold/circle_circle/sweep");
BENCHMARK(Manifold_Circles_box2d)->Name("Manifold/circle_circle/box2d");
BENCHMARK(Manifold_Poly8_sweep)->Name("Manifold/poly8_poly8/sweep");
BENCHMARK(Manifold_Poly8_box2d)->Name("Manifold/poly8_poly8/box2d");
BENCHMARK(Manifold_BoxCircle_sweep)->Name("Manifold/box_circle/sweep");
BENCHMARK(Manifold_BoxCircle_box2d)->Name("Manifold/box_circle/box2d");
BENCHMARK(Manifold_Capsules_sweep)->Name("Manifold/capsule_capsule/sweep");
BENCHMARK(Manifold_CapsuleCircle_sweep)->Name("Manifold/capsule_circle/sweep");
BENCHMARK(Manifold_CapsuleCircle_box2d)->Name("Manifold/capsule_circle/box2d");
BENCHMARK(Manifold_ChainBox_sweep)->Name("Manifold/chain_box/sweep");
BENCHMARK(Manifold_ChainBox_box2d)->Name("Manifold/chain_box/box2d");
// Ours holds the world information already: the same function, paired with
// Box2D's collide plus b2WorldManifold::Initialize.
BENCHMARK(Manifold_Circles_sweep)->Name("Manifold/circle_circle_world/sweep");
BENCHMARK(Manifold_CirclesWorld_box2d)->Name("Manifold/circle_circle_world/box2d");
BENCHMARK(Manifold_Poly8_sweep)->Name("Manifold/poly8_poly8_world/sweep");
BENCHMARK(Manifold_Poly8World_box2d)->Name("Manifold/poly8_poly8_world/box2d");
BENCHMARK(Manifold_BoxCircle_sweep)->Name("Manifold/box_circle_world/sweep");
BENCHMARK(Manifold_BoxCircleWorld_box2d)->Name("Manifold/box_circle_world/box2d");
BENCHMARK(Manifold_CapsuleCircle_sweep)->Name("Manifold/capsule_circle_world/sweep");
BENCHMARK(Manifold_CapsuleCircleWorld_box2d)->Name("Manifold/capsule_circle_world/box2d");
BENCHMARK(Manifold_ChainBox_sweep)->Name("Manifold/chain_box_world/sweep");
BENCHMARK(Manifold_ChainBoxWorld_box2d)->Name("Manifold/chain_box_world/box2d");
