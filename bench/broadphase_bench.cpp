// Broadphase benchmarks: sweep::DynamicTree, and sweep::UniformGrid in the
// grid_* cases, next to Box2D 2.4.1's b2DynamicTree on the same inputs, in
// one process.
//
// Every case is registered twice, Broadphase/<case>/sweep and
// Broadphase/<case>/box2d. Inputs come from one fixed-seed generator, so both
// trees see the same boxes, motions, queries and rays; both use the same fat
// margin (0.1 L, Box2D's b2_aabbExtension) and the same motion prediction
// (4 displacements, b2_aabbMultiplier), so their queries report the same
// proxies (the hits_per_query counter shows it).
#include <benchmark/benchmark.h>
#include <box2d/box2d.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "sweep/broadphase.hpp"

namespace {

/// A box in the neutral form both adapters convert from.
struct Box {
    float lower_x, lower_y, upper_x, upper_y;
};

/// `count` proxies of 0.5 to 1.5 units a side, uniform in a square sized so
/// that a 2 x 2 query overlaps about 10 of their fat boxes: the expected
/// overlap count is count / side^2 * (2 + 1 + 2 * 0.1)^2.
struct Scene {
    float side = 0;
    std::vector<Box> proxies;
    std::vector<float> velocity_x, velocity_y; ///< units per second, for the move case
    std::vector<Box> queries;                  ///< 2 x 2 boxes
    std::vector<Box> rays;                     ///< segments of 20 units: (lower) to (upper)
};

constexpr int k_queries_per_iteration = 1000;
constexpr float k_frame_seconds = 1.0f / 60.0f;

Scene make_scene(int count) {
    Scene scene;
    scene.side = std::sqrt(static_cast<float>(count) * 3.2f * 3.2f / 10.0f);
    std::mt19937 rng(12345u);
    std::uniform_real_distribution<float> position(0.0f, scene.side);
    std::uniform_real_distribution<float> size(0.5f, 1.5f);
    std::uniform_real_distribution<float> speed(-10.0f, 10.0f);
    std::uniform_real_distribution<float> angle(0.0f, 6.2831853f);
    for (int i = 0; i < count; ++i) {
        const float x = position(rng);
        const float y = position(rng);
        const float w = size(rng);
        const float h = size(rng);
        scene.proxies.push_back({x, y, x + w, y + h});
        scene.velocity_x.push_back(speed(rng));
        scene.velocity_y.push_back(speed(rng));
    }
    for (int i = 0; i < k_queries_per_iteration; ++i) {
        const float x = position(rng);
        const float y = position(rng);
        scene.queries.push_back({x - 1, y - 1, x + 1, y + 1});
        const float a = angle(rng);
        scene.rays.push_back({x, y, x + 20 * std::cos(a), y + 20 * std::sin(a)});
    }
    return scene;
}

const Scene& scene_of(int count) {
    static const Scene small = make_scene(10'000);
    static const Scene large = make_scene(100'000);
    return count <= 10'000 ? small : large;
}

sweep::Aabb to_aabb(const Box& b) {
    return {{sweep::real(b.lower_x), sweep::real(b.lower_y)},
            {sweep::real(b.upper_x), sweep::real(b.upper_y)}};
}

b2AABB to_b2(const Box& b) {
    b2AABB aabb;
    aabb.lowerBound.Set(b.lower_x, b.lower_y);
    aabb.upperBound.Set(b.upper_x, b.upper_y);
    return aabb;
}

struct SweepTree {
    static constexpr const char* k_name = "sweep";
    sweep::DynamicTree tree;

    int create(const Box& b, int index) {
        return tree.create_proxy(to_aabb(b), static_cast<std::uint64_t>(index));
    }
    bool move(int id, const Box& b, float dx, float dy) {
        return tree.move_proxy(id, to_aabb(b), {sweep::real(dx), sweep::real(dy)});
    }
    int query(const Box& b) const {
        int hits = 0;
        tree.query(to_aabb(b), ~0ull, [&](sweep::ProxyId, std::uint64_t) {
            ++hits;
            return true;
        });
        return hits;
    }
    int ray_cast(const Box& ray) const {
        const sweep::Vec2 from{sweep::real(ray.lower_x), sweep::real(ray.lower_y)};
        const sweep::Vec2 to{sweep::real(ray.upper_x), sweep::real(ray.upper_y)};
        int hits = 0;
        tree.box_cast({from, from}, to - from, ~0ull, [&](sweep::ProxyId, std::uint64_t) {
            ++hits;
            return true;
        });
        return hits;
    }
};

/// sweep::UniformGrid behind the same adapter, registered as "sweep" in the
/// grid_* cases (whose "box2d" entries are b2DynamicTree on the same inputs).
/// The grid sizes its cells from the first proxy (twice its fat extent).
struct SweepGrid {
    static constexpr const char* k_name = "sweep";
    sweep::UniformGrid grid;

    int create(const Box& b, int index) {
        return grid.create_proxy(to_aabb(b), static_cast<std::uint64_t>(index));
    }
    bool move(int id, const Box& b, float dx, float dy) {
        return grid.move_proxy(id, to_aabb(b), {sweep::real(dx), sweep::real(dy)});
    }
    int query(const Box& b) const {
        int hits = 0;
        grid.query(to_aabb(b), ~0ull, [&](sweep::ProxyId, std::uint64_t) {
            ++hits;
            return true;
        });
        return hits;
    }
    int ray_cast(const Box& ray) const {
        const sweep::Vec2 from{sweep::real(ray.lower_x), sweep::real(ray.lower_y)};
        const sweep::Vec2 to{sweep::real(ray.upper_x), sweep::real(ray.upper_y)};
        int hits = 0;
        grid.box_cast({from, from}, to - from, ~0ull, [&](sweep::ProxyId, std::uint64_t) {
            ++hits;
            return true;
        });
        return hits;
    }
};

struct Box2dTree {
    static constexpr const char* k_name = "box2d";
    b2DynamicTree tree;

    struct Counter {
        int hits = 0;
        bool QueryCallback(int32) {
            ++hits;
            return true;
        }
        float RayCastCallback(const b2RayCastInput& input, int32) {
            ++hits;
            return input.maxFraction; // keep going, unclipped: visit every hit
        }
    };

    int create(const Box& b, int index) {
        return tree.CreateProxy(to_b2(b),
                                reinterpret_cast<void*>(static_cast<std::intptr_t>(index)));
    }
    bool move(int id, const Box& b, float dx, float dy) {
        return tree.MoveProxy(id, to_b2(b), b2Vec2(dx, dy));
    }
    int query(const Box& b) const {
        Counter counter;
        tree.Query(&counter, to_b2(b));
        return counter.hits;
    }
    int ray_cast(const Box& ray) const {
        Counter counter;
        b2RayCastInput input;
        input.p1.Set(ray.lower_x, ray.lower_y);
        input.p2.Set(ray.upper_x, ray.upper_y);
        input.maxFraction = 1.0f;
        tree.RayCast(&counter, input);
        return counter.hits;
    }
};

template <class Tree> void fill(Tree& tree, const Scene& scene, std::vector<int>* ids = nullptr) {
    for (std::size_t i = 0; i < scene.proxies.size(); ++i) {
        const int id = tree.create(scene.proxies[i], static_cast<int>(i));
        if (ids != nullptr) {
            ids->push_back(id);
        }
    }
}

template <class Tree> void bench_build(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    for (auto _ : state) {
        Tree tree;
        fill(tree, scene);
        benchmark::DoNotOptimize(tree);
    }
    state.SetItemsProcessed(state.iterations() * count);
}

// A tenth of the proxies (the first tenth: random places and velocities)
// move every frame by velocity * dt, bouncing off the walls of the square;
// the rest sleep. A few untimed frames first, so that the fat boxes carry
// their motion prediction as they would in a running world.
template <class Tree> void bench_move(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    Tree tree;
    std::vector<int> ids;
    fill(tree, scene, &ids);
    const std::size_t moving = scene.proxies.size() / 10;
    std::vector<Box> boxes(scene.proxies.begin(), scene.proxies.begin() + moving);
    std::vector<float> vx(scene.velocity_x.begin(), scene.velocity_x.begin() + moving);
    std::vector<float> vy(scene.velocity_y.begin(), scene.velocity_y.begin() + moving);
    const auto frame = [&] {
        int reinserted = 0;
        for (std::size_t i = 0; i < moving; ++i) {
            Box& b = boxes[i];
            if ((b.lower_x < 0 && vx[i] < 0) || (b.upper_x > scene.side && vx[i] > 0)) {
                vx[i] = -vx[i];
            }
            if ((b.lower_y < 0 && vy[i] < 0) || (b.upper_y > scene.side && vy[i] > 0)) {
                vy[i] = -vy[i];
            }
            const float dx = vx[i] * k_frame_seconds;
            const float dy = vy[i] * k_frame_seconds;
            b = {b.lower_x + dx, b.lower_y + dy, b.upper_x + dx, b.upper_y + dy};
            reinserted += tree.move(ids[i], b, dx, dy) ? 1 : 0;
        }
        return reinserted;
    };
    for (int warm_up = 0; warm_up < 10; ++warm_up) {
        frame();
    }
    std::int64_t reinserted = 0;
    for (auto _ : state) {
        reinserted += frame();
    }
    const auto moves = state.iterations() * static_cast<std::int64_t>(moving);
    state.SetItemsProcessed(moves);
    state.counters["reinserted"] =
        benchmark::Counter(static_cast<double>(reinserted) / static_cast<double>(moves));
}

template <class Tree> void bench_query(benchmark::State& state, int count, bool rebuilt) {
    const Scene& scene = scene_of(count);
    Tree tree;
    fill(tree, scene);
    if constexpr (std::is_same_v<Tree, SweepTree>) {
        if (rebuilt) {
            tree.tree.rebuild();
        }
    }
    std::int64_t hits = 0;
    for (auto _ : state) {
        for (const Box& query : scene.queries) {
            hits += tree.query(query);
        }
    }
    const auto queries = state.iterations() * static_cast<std::int64_t>(scene.queries.size());
    state.SetItemsProcessed(queries);
    state.counters["hits_per_query"] =
        benchmark::Counter(static_cast<double>(hits) / static_cast<double>(queries));
}

template <class Tree> void bench_ray_cast(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    Tree tree;
    fill(tree, scene);
    std::int64_t hits = 0;
    for (auto _ : state) {
        for (const Box& ray : scene.rays) {
            hits += tree.ray_cast(ray);
        }
    }
    const auto rays = state.iterations() * static_cast<std::int64_t>(scene.rays.size());
    state.SetItemsProcessed(rays);
    state.counters["hits_per_ray"] =
        benchmark::Counter(static_cast<double>(hits) / static_cast<double>(rays));
}

/// Registers Broadphase/<name>/sweep (`Ours`: the tree or the grid) and
/// Broadphase/<name>/box2d; `run` is called as run(std::type_identity<Tree>{}, state).
template <class Ours = SweepTree, class Run> void add_case(const std::string& name, Run run) {
    const auto add = [&](auto tree_type) {
        using Tree = typename decltype(tree_type)::type;
        const std::string full = "Broadphase/" + name + "/" + Tree::k_name;
        benchmark::RegisterBenchmark(full.c_str(), [run](benchmark::State& state) {
            run(std::type_identity<Tree>{}, state);
        })->Unit(benchmark::kMicrosecond);
    };
    add(std::type_identity<Ours>{});
    add(std::type_identity<Box2dTree>{});
}

template <class T> using TreeOf = typename T::type;

bool register_cases() {
    add_case("build_10k",
             [](auto t, benchmark::State& s) { bench_build<TreeOf<decltype(t)>>(s, 10'000); });
    add_case("build_100k",
             [](auto t, benchmark::State& s) { bench_build<TreeOf<decltype(t)>>(s, 100'000); });
    add_case("move_10pct_of_10k",
             [](auto t, benchmark::State& s) { bench_move<TreeOf<decltype(t)>>(s, 10'000); });
    add_case("move_10pct_of_100k",
             [](auto t, benchmark::State& s) { bench_move<TreeOf<decltype(t)>>(s, 100'000); });
    add_case("query_1000x2x2_in_100k", [](auto t, benchmark::State& s) {
        bench_query<TreeOf<decltype(t)>>(s, 100'000, false);
    });
    add_case("ray_cast_1000x20_in_100k",
             [](auto t, benchmark::State& s) { bench_ray_cast<TreeOf<decltype(t)>>(s, 100'000); });
    // The uniform grid against Box2D's tree on the same inputs.
    add_case<SweepGrid>("grid_build_100k", [](auto t, benchmark::State& s) {
        bench_build<TreeOf<decltype(t)>>(s, 100'000);
    });
    add_case<SweepGrid>("grid_move_10pct_of_100k", [](auto t, benchmark::State& s) {
        bench_move<TreeOf<decltype(t)>>(s, 100'000);
    });
    add_case<SweepGrid>("grid_query_1000x2x2_in_100k", [](auto t, benchmark::State& s) {
        bench_query<TreeOf<decltype(t)>>(s, 100'000, false);
    });
    add_case<SweepGrid>("grid_ray_cast_1000x20_in_100k", [](auto t, benchmark::State& s) {
        bench_ray_cast<TreeOf<decltype(t)>>(s, 100'000);
    });
    // Ours only: the same queries after DynamicTree::rebuild (binned SAH).
    benchmark::RegisterBenchmark(
        "Broadphase/query_1000x2x2_in_100k_rebuilt/sweep",
        [](benchmark::State& s) { bench_query<SweepTree>(s, 100'000, true); })
        ->Unit(benchmark::kMicrosecond);
    return true;
}

[[maybe_unused]] const bool k_registered = register_cases();

} // namespace
