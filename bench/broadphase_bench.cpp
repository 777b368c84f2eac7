// Broadphase benchmarks: sweep::DynamicTree next to Box2D 2.4.1's
// b2DynamicTree and Chipmunk 7's cpBBTree, and sweep::UniformGrid (the grid_*
// cases) next to Chipmunk's cpSpaceHash and, as the tree to beat, Box2D's
// b2DynamicTree; all on the same inputs, in one process.
//
// Names are Broadphase/<case>/<impl>, impl = sweep | box2d | chipmunk.
// Inputs come from one fixed-seed generator, so every structure sees the same
// boxes, motions, queries and rays. sweep and Box2D use the same fat margin
// (0.1 L, b2_aabbExtension) and motion prediction (4 displacements,
// b2_aabbMultiplier), so they report the same proxies (hits_per_query shows
// it). Chipmunk keeps its own rule: cpBBTree grows a leaf by 10 % of its size
// per side (0.1 L for the mean 1 L box here) or, if larger, by 0.1 s of the
// velocity its callback returns, which we set to 4 displacements; cpSpaceHash
// stores no fat box and re-hashes every moved object, so its callbacks test
// the boxes themselves, as cpSpace does, against the tight box grown by 0.1 L.
//
// Build cases carry bytes_per_proxy: the growth of the heap (glibc's
// mallinfo2, small and mmapped blocks) while the structure is made and
// filled, over the proxy count; Chipmunk's objects (our boxes, which a space
// would hold in its shapes) are not counted.
#include <benchmark/benchmark.h>
#include <box2d/box2d.h>
#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "sweep/broadphase.hpp"

#if SWEEP_BENCH_CHIPMUNK
#include <chipmunk/chipmunk.h>
#endif

namespace {

/// A box in the neutral form every adapter converts from.
struct Box {
    float lower_x, lower_y, upper_x, upper_y;
};

/// `count` proxies of 0.5 to 1.5 units a side, uniform in a square sized so
/// that a 2 x 2 query overlaps about 10 of their fat boxes: the expected
/// overlap count is count / side^2 * (2 + 1 + 2 * 0.1)^2. The density is the
/// same at every count, so query cost against count shows the depth cost.
struct Scene {
    float side = 0;
    std::vector<Box> proxies;
    std::vector<float> velocity_x, velocity_y; ///< units per second, for the move cases
    std::vector<Box> queries;                  ///< 2 x 2 boxes
    std::vector<Box> rays;                     ///< segments of 20 units: (lower) to (upper)
};

constexpr int k_queries_per_iteration = 1000;
constexpr float k_frame_seconds = 1.0f / 60.0f;
constexpr float k_margin = 0.1f; // sweep::k_aabb_margin and b2_aabbExtension

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
    static std::map<int, std::unique_ptr<Scene>> scenes;
    std::unique_ptr<Scene>& scene = scenes[count];
    if (!scene) {
        scene = std::make_unique<Scene>(make_scene(count));
    }
    return *scene;
}

/// Bytes the heap has handed out, small blocks and mmapped ones.
std::size_t heap_bytes() {
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
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

/// sweep::DynamicTree or sweep::UniformGrid: the same interface.
template <class Structure> struct Sweep {
    static constexpr const char* k_name = "sweep";
    Structure index;
    std::vector<sweep::ProxyId> moved; ///< re-inserted since the last pairs()

    explicit Sweep(const Scene&) {}
    void reserve(int) {}
    std::size_t user_bytes() const { return 0; }
    int create(const Box& b, int i) {
        return index.create_proxy(to_aabb(b), static_cast<std::uint64_t>(i));
    }
    bool move(int id, const Box& b, float dx, float dy) {
        const bool changed = index.move_proxy(id, to_aabb(b), {sweep::real(dx), sweep::real(dy)});
        if (changed) {
            moved.push_back(id);
        }
        return changed;
    }
    int query(const Box& b) {
        int hits = 0;
        index.query(to_aabb(b), ~0ull, [&](sweep::ProxyId, std::uint64_t) {
            ++hits;
            return true;
        });
        return hits;
    }
    int ray_cast(const Box& ray) {
        const sweep::Vec2 from{sweep::real(ray.lower_x), sweep::real(ray.lower_y)};
        const sweep::Vec2 to{sweep::real(ray.upper_x), sweep::real(ray.upper_y)};
        int hits = 0;
        index.box_cast({from, from}, to - from, ~0ull, [&](sweep::ProxyId, std::uint64_t) {
            ++hits;
            return true;
        });
        return hits;
    }
    /// The pairs of this frame: those of the re-inserted proxies.
    int pairs() {
        int count = 0;
        index.find_pairs(moved, [&](sweep::ProxyId, sweep::ProxyId) { ++count; });
        moved.clear();
        return count;
    }
    void rebuild() { index.rebuild(); }
};

using SweepTree = Sweep<sweep::DynamicTree>;
using SweepGrid = Sweep<sweep::UniformGrid>;

/// b2BroadPhase: b2DynamicTree plus the move buffer and pair search of a world.
struct Box2d {
    static constexpr const char* k_name = "box2d";
    b2BroadPhase broadphase;
    int pair_count = 0;

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

    explicit Box2d(const Scene&) {}
    void reserve(int) {}
    std::size_t user_bytes() const { return 0; }
    int create(const Box& b, int i) {
        return broadphase.CreateProxy(to_b2(b),
                                      reinterpret_cast<void*>(static_cast<std::intptr_t>(i)));
    }
    bool move(int id, const Box& b, float dx, float dy) {
        broadphase.MoveProxy(id, to_b2(b), b2Vec2(dx, dy));
        return false; // b2BroadPhase does not say; b2DynamicTree's count is in move_*/box2d
    }
    int query(const Box& b) {
        Counter counter;
        broadphase.Query(&counter, to_b2(b));
        return counter.hits;
    }
    int ray_cast(const Box& ray) {
        Counter counter;
        b2RayCastInput input;
        input.p1.Set(ray.lower_x, ray.lower_y);
        input.p2.Set(ray.upper_x, ray.upper_y);
        input.maxFraction = 1.0f;
        broadphase.RayCast(&counter, input);
        return counter.hits;
    }
    void AddPair(void*, void*) { ++pair_count; }
    /// b2BroadPhase::UpdatePairs: the pairs of the proxies whose MoveProxy
    /// re-inserted them (and those created since the last call).
    int pairs() {
        pair_count = 0;
        broadphase.UpdatePairs(this);
        return pair_count;
    }
};

/// Box2D's bare b2DynamicTree, for the cases that need its MoveProxy result.
struct Box2dTree {
    static constexpr const char* k_name = "box2d";
    b2DynamicTree tree;

    explicit Box2dTree(const Scene&) {}
    void reserve(int) {}
    std::size_t user_bytes() const { return 0; }
    int create(const Box& b, int i) {
        return tree.CreateProxy(to_b2(b), reinterpret_cast<void*>(static_cast<std::intptr_t>(i)));
    }
    bool move(int id, const Box& b, float dx, float dy) {
        return tree.MoveProxy(id, to_b2(b), b2Vec2(dx, dy));
    }
};

#if SWEEP_BENCH_CHIPMUNK
/// What Chipmunk indexes: our box, the fat box the hash's callbacks test,
/// and the velocity cpBBTree reads to stretch the leaf.
struct ChipmunkObject {
    cpBB tight;
    cpBB fat;
    cpVect velocity;
};

cpBB to_cp(const Box& b) { return cpBBNew(b.lower_x, b.lower_y, b.upper_x, b.upper_y); }

cpBB grown(const cpBB& bb) {
    return cpBBNew(bb.l - k_margin, bb.b - k_margin, bb.r + k_margin, bb.t + k_margin);
}

cpBB tight_bb(void* object) { return static_cast<ChipmunkObject*>(object)->tight; }
cpBB fat_bb(void* object) { return static_cast<ChipmunkObject*>(object)->fat; }
cpVect velocity_of(void* object) { return static_cast<ChipmunkObject*>(object)->velocity; }

/// cpBBTree (Tree = true) or cpSpaceHash behind the adapter interface.
template <bool Tree> struct Chipmunk {
    static constexpr const char* k_name = "chipmunk";
    cpSpatialIndex* index;
    std::vector<ChipmunkObject> objects; ///< stable: reserve() before create()
    bool defer_reindex = false;          ///< pairs() re-indexes: the case of a space's step
    int count = 0;

    explicit Chipmunk(const Scene& scene) {
        if constexpr (Tree) {
            index = cpBBTreeNew(tight_bb, nullptr);
            cpBBTreeSetVelocityFunc(index, velocity_of);
        } else {
            // The cell size sweep::UniformGrid picks (twice the first proxy's
            // fat extent) and ten cells per object, as Chipmunk advises.
            const Box& first = scene.proxies.front();
            const float extent =
                std::max(first.upper_x - first.lower_x, first.upper_y - first.lower_y) +
                2 * k_margin;
            index = cpSpaceHashNew(2 * extent, static_cast<int>(10 * scene.proxies.size()), fat_bb,
                                   nullptr);
        }
    }
    Chipmunk(const Chipmunk&) = delete;
    Chipmunk& operator=(const Chipmunk&) = delete;
    ~Chipmunk() { cpSpatialIndexFree(index); }

    void reserve(int n) { objects.reserve(static_cast<std::size_t>(n)); }
    /// Our boxes, which a space would keep in its shapes: not Chipmunk's cost.
    std::size_t user_bytes() const { return objects.capacity() * sizeof(ChipmunkObject); }
    int create(const Box& b, int i) {
        const cpBB bb = to_cp(b);
        objects.push_back({bb, grown(bb), cpvzero});
        cpSpatialIndexInsert(index, &objects.back(), static_cast<cpHashValue>(i));
        ++count;
        return i;
    }
    bool move(int id, const Box& b, float dx, float dy) {
        ChipmunkObject& o = objects[static_cast<std::size_t>(id)];
        o.tight = to_cp(b);
        o.fat = grown(o.tight);
        // cpBBTree reaches 0.1 s of velocity ahead: 40 displacements per
        // second make that 4 displacements, as sweep and Box2D.
        o.velocity = cpv(40.0 * dx, 40.0 * dy);
        if (!defer_reindex) {
            cpSpatialIndexReindexObject(index, &o, static_cast<cpHashValue>(id));
        }
        return false; // Chipmunk does not say
    }

    struct Hits {
        int hits = 0;
        cpBB box;
        cpVect a, b;
    };
    static cpCollisionID count_query(void*, void* object, cpCollisionID id, void* data) {
        Hits& h = *static_cast<Hits*>(data);
        // The hash reports everything in the cells it visits: test the box.
        if (Tree || cpBBIntersects(static_cast<ChipmunkObject*>(object)->fat, h.box)) {
            ++h.hits;
        }
        return id;
    }
    static cpFloat count_ray(void*, void* object, void* data) {
        Hits& h = *static_cast<Hits*>(data);
        if (Tree || cpBBIntersectsSegment(static_cast<ChipmunkObject*>(object)->fat, h.a, h.b)) {
            ++h.hits;
        }
        return 1.0; // keep going, unclipped: visit every hit
    }
    static cpCollisionID count_pair(void* a, void* b, cpCollisionID id, void* data) {
        Hits& h = *static_cast<Hits*>(data);
        if (Tree || cpBBIntersects(static_cast<ChipmunkObject*>(a)->fat,
                                   static_cast<ChipmunkObject*>(b)->fat)) {
            ++h.hits;
        }
        return id;
    }

    int query(const Box& b) {
        Hits h;
        h.box = to_cp(b);
        cpSpatialIndexQuery(index, nullptr, h.box, count_query, &h);
        return h.hits;
    }
    int ray_cast(const Box& ray) {
        Hits h;
        h.a = cpv(ray.lower_x, ray.lower_y);
        h.b = cpv(ray.upper_x, ray.upper_y);
        cpSpatialIndexSegmentQuery(index, nullptr, h.a, h.b, 1.0, count_ray, &h);
        return h.hits;
    }
    /// cpSpatialIndexReindexQuery, what cpSpace does each step: re-index every
    /// object, then report pairs. cpBBTree reports every cached pair of
    /// overlapping leaves (those of unmoved leaves too); cpSpaceHash re-hashes
    /// and queries every object.
    int pairs() {
        Hits h;
        cpSpatialIndexReindexQuery(index, count_pair, &h);
        return h.hits;
    }
    void rebuild() {
        if constexpr (Tree) {
            cpBBTreeOptimize(index);
        }
    }
};

using ChipmunkTree = Chipmunk<true>;
using ChipmunkHash = Chipmunk<false>;
#endif

template <class Index>
void fill(Index& index, const Scene& scene, std::vector<int>* ids = nullptr) {
    for (std::size_t i = 0; i < scene.proxies.size(); ++i) {
        const int id = index.create(scene.proxies[i], static_cast<int>(i));
        if (ids != nullptr) {
            ids->push_back(id);
        }
    }
}

template <class Index> void bench_build(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::size_t before = heap_bytes();
        Index index(scene);
        index.reserve(count);
        fill(index, scene);
        state.PauseTiming();
        bytes = heap_bytes() - before - index.user_bytes();
        benchmark::DoNotOptimize(index);
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * count);
    state.counters["bytes_per_proxy"] =
        benchmark::Counter(static_cast<double>(bytes) / static_cast<double>(count));
}

/// Build by rebuild: the structure is filled once, then each iteration
/// rebuilds it from all its proxies (DynamicTree::rebuild, binned SAH;
/// cpBBTreeOptimize, median splits). Box2D 2.4.1's RebuildBottomUp is
/// quadratic or worse, so it has no entry.
template <class Index> void bench_rebuild(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    Index index(scene);
    index.reserve(count);
    fill(index, scene);
    for (auto _ : state) {
        index.rebuild();
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * count);
}

/// Moves the first tenth of the proxies (random places and velocities) by
/// velocity * dt, bouncing off the walls of the square; the rest sleep.
/// Returns how many move() calls re-inserted.
struct Mover {
    const Scene& scene;
    std::vector<int> ids;
    std::vector<Box> boxes;
    std::vector<float> vx, vy;

    Mover(const Scene& s, std::vector<int> proxy_ids)
        : scene(s), ids(std::move(proxy_ids)),
          boxes(s.proxies.begin(), s.proxies.begin() + static_cast<std::ptrdiff_t>(moving())),
          vx(s.velocity_x.begin(), s.velocity_x.begin() + static_cast<std::ptrdiff_t>(moving())),
          vy(s.velocity_y.begin(), s.velocity_y.begin() + static_cast<std::ptrdiff_t>(moving())) {}

    std::size_t moving() const { return scene.proxies.size() / 10; }

    template <class Index> int frame(Index& index) {
        int reinserted = 0;
        for (std::size_t i = 0; i < boxes.size(); ++i) {
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
            reinserted += index.move(ids[i], b, dx, dy) ? 1 : 0;
        }
        return reinserted;
    }
};

/// A tenth of the proxies move every frame. A few untimed frames first, so
/// that the fat boxes carry their motion prediction as in a running world.
template <class Index> void bench_move(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    Index index(scene);
    index.reserve(count);
    std::vector<int> ids;
    fill(index, scene, &ids);
    Mover mover(scene, std::move(ids));
    for (int warm_up = 0; warm_up < 10; ++warm_up) {
        mover.frame(index);
    }
    std::int64_t reinserted = 0;
    for (auto _ : state) {
        reinserted += mover.frame(index);
    }
    const auto moves = state.iterations() * static_cast<std::int64_t>(mover.moving());
    state.SetItemsProcessed(moves);
    state.counters["reinserted"] =
        benchmark::Counter(static_cast<double>(reinserted) / static_cast<double>(moves));
}

/// One broadphase step of a world: a tenth of the proxies move, then the
/// pairs are found (sweep: find_pairs over the re-inserted proxies; Box2D:
/// b2BroadPhase::UpdatePairs; Chipmunk: cpSpatialIndexReindexQuery).
template <class Index> void bench_update_pairs(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    Index index(scene);
    index.reserve(count);
    std::vector<int> ids;
    fill(index, scene, &ids);
    if constexpr (requires { index.defer_reindex; }) {
        index.defer_reindex = true;
    }
    Mover mover(scene, std::move(ids));
    index.pairs(); // the pairs of the creations
    for (int warm_up = 0; warm_up < 10; ++warm_up) {
        mover.frame(index);
        index.pairs();
    }
    std::int64_t pairs = 0;
    for (auto _ : state) {
        mover.frame(index);
        pairs += index.pairs();
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["pairs_per_frame"] =
        benchmark::Counter(static_cast<double>(pairs) / static_cast<double>(state.iterations()));
}

/// The structure of `count` scene proxies (rebuilt if asked) that the
/// query and ray cases share: Google Benchmark calls a case several times
/// while it settles on an iteration count, and filling a million proxies
/// each time would cost more than the queries. One is kept at a time.
template <class Index> Index& filled(int count, bool rebuilt) {
    static std::shared_ptr<void> kept;
    static const void* kept_kind = nullptr;
    static int kept_count = 0;
    static bool kept_rebuilt = false;
    static const char kind = 0; // one address per Index type
    if (kept_kind != &kind || kept_count != count || kept_rebuilt != rebuilt) {
        kept.reset(); // free the previous one first
        const Scene& scene = scene_of(count);
        auto index = std::make_shared<Index>(scene);
        index->reserve(count);
        fill(*index, scene);
        if constexpr (requires { index->rebuild(); }) {
            if (rebuilt) {
                index->rebuild();
            }
        }
        kept = index;
        kept_kind = &kind;
        kept_count = count;
        kept_rebuilt = rebuilt;
    }
    return *static_cast<Index*>(kept.get());
}

template <class Index> void bench_query(benchmark::State& state, int count, bool rebuilt) {
    const Scene& scene = scene_of(count);
    Index& index = filled<Index>(count, rebuilt);
    std::int64_t hits = 0;
    for (auto _ : state) {
        for (const Box& query : scene.queries) {
            hits += index.query(query);
        }
    }
    const auto queries = state.iterations() * static_cast<std::int64_t>(scene.queries.size());
    state.SetItemsProcessed(queries);
    state.counters["hits_per_query"] =
        benchmark::Counter(static_cast<double>(hits) / static_cast<double>(queries));
}

template <class Index> void bench_ray_cast(benchmark::State& state, int count) {
    const Scene& scene = scene_of(count);
    Index& index = filled<Index>(count, false);
    std::int64_t hits = 0;
    for (auto _ : state) {
        for (const Box& ray : scene.rays) {
            hits += index.ray_cast(ray);
        }
    }
    const auto rays = state.iterations() * static_cast<std::int64_t>(scene.rays.size());
    state.SetItemsProcessed(rays);
    state.counters["hits_per_ray"] =
        benchmark::Counter(static_cast<double>(hits) / static_cast<double>(rays));
}

/// Registers Broadphase/<name>/<impl> for each of `Impls`; `run` is called as
/// run(std::type_identity<Impl>{}, state).
template <class... Impls, class Run> void add_case(const std::string& name, Run run) {
    const auto add = [&](auto type) {
        using Impl = typename decltype(type)::type;
        const std::string full = "Broadphase/" + name + "/" + Impl::k_name;
        auto* b = benchmark::RegisterBenchmark(full.c_str(), [run](benchmark::State& state) {
            run(std::type_identity<Impl>{}, state);
        });
        b->Unit(benchmark::kMicrosecond);
    };
    (add(std::type_identity<Impls>{}), ...);
}

template <class T> using ImplOf = typename T::type;

#if SWEEP_BENCH_CHIPMUNK
#define SWEEP_CHIPMUNK_TREE , ChipmunkTree
#define SWEEP_CHIPMUNK_HASH , ChipmunkHash
#else
#define SWEEP_CHIPMUNK_TREE
#define SWEEP_CHIPMUNK_HASH
#endif

struct Size {
    const char* name;
    int count;
};

bool register_cases() {
    constexpr Size k_sizes[] = {
        {"1k", 1'000}, {"10k", 10'000}, {"100k", 100'000}, {"1m", 1'000'000}};
    // Build by insertion and by rebuild: 10k, 100k, 1M.
    for (const Size& size : k_sizes) {
        if (size.count < 10'000) {
            continue;
        }
        const int n = size.count;
        add_case<SweepTree, Box2dTree SWEEP_CHIPMUNK_TREE>(
            std::string("build_") + size.name,
            [n](auto t, benchmark::State& s) { bench_build<ImplOf<decltype(t)>>(s, n); });
        add_case<SweepTree SWEEP_CHIPMUNK_TREE>(
            std::string("rebuild_") + size.name,
            [n](auto t, benchmark::State& s) { bench_rebuild<ImplOf<decltype(t)>>(s, n); });
    }
    add_case<SweepTree, Box2dTree SWEEP_CHIPMUNK_TREE>(
        "move_10pct_of_10k",
        [](auto t, benchmark::State& s) { bench_move<ImplOf<decltype(t)>>(s, 10'000); });
    add_case<SweepTree, Box2dTree SWEEP_CHIPMUNK_TREE>(
        "move_10pct_of_100k",
        [](auto t, benchmark::State& s) { bench_move<ImplOf<decltype(t)>>(s, 100'000); });
    // Query cost against the proxy count at a fixed density (about 10 hits).
    for (const Size& size : k_sizes) {
        const int n = size.count;
        add_case<SweepTree, Box2d SWEEP_CHIPMUNK_TREE>(
            std::string("query_1000x2x2_in_") + size.name,
            [n](auto t, benchmark::State& s) { bench_query<ImplOf<decltype(t)>>(s, n, false); });
    }
    add_case<SweepTree SWEEP_CHIPMUNK_TREE>(
        "query_1000x2x2_in_100k_rebuilt",
        [](auto t, benchmark::State& s) { bench_query<ImplOf<decltype(t)>>(s, 100'000, true); });
    add_case<SweepTree, Box2d SWEEP_CHIPMUNK_TREE>(
        "ray_cast_1000x20_in_100k",
        [](auto t, benchmark::State& s) { bench_ray_cast<ImplOf<decltype(t)>>(s, 100'000); });
    add_case<SweepTree, Box2d SWEEP_CHIPMUNK_TREE>(
        "update_pairs_10pct_of_100k",
        [](auto t, benchmark::State& s) { bench_update_pairs<ImplOf<decltype(t)>>(s, 100'000); });

    // The uniform grid against Chipmunk's spatial hash, and Box2D's tree on
    // the same inputs; compare with the tree cases above for grid against tree.
    add_case<SweepGrid, Box2dTree SWEEP_CHIPMUNK_HASH>(
        "grid_build_100k",
        [](auto t, benchmark::State& s) { bench_build<ImplOf<decltype(t)>>(s, 100'000); });
    add_case<SweepGrid, Box2dTree SWEEP_CHIPMUNK_HASH>(
        "grid_move_10pct_of_100k",
        [](auto t, benchmark::State& s) { bench_move<ImplOf<decltype(t)>>(s, 100'000); });
    add_case<SweepGrid, Box2d SWEEP_CHIPMUNK_HASH>(
        "grid_query_1000x2x2_in_100k",
        [](auto t, benchmark::State& s) { bench_query<ImplOf<decltype(t)>>(s, 100'000, false); });
    add_case<SweepGrid, Box2d SWEEP_CHIPMUNK_HASH>(
        "grid_ray_cast_1000x20_in_100k",
        [](auto t, benchmark::State& s) { bench_ray_cast<ImplOf<decltype(t)>>(s, 100'000); });
    add_case<SweepGrid, Box2d SWEEP_CHIPMUNK_HASH>(
        "grid_update_pairs_10pct_of_100k",
        [](auto t, benchmark::State& s) { bench_update_pairs<ImplOf<decltype(t)>>(s, 100'000); });
    return true;
}

[[maybe_unused]] const bool k_registered = register_cases();

} // namespace
