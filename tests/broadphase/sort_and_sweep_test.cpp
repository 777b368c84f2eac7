// DynamicTree and UniformGrid against an independent sort-and-sweep on 100k
// proxies: the same proxies for every AABB query, the same pairs from
// find_pairs (each exactly once, a < b), in an order that depends only on
// the calls made.
//
// The reference shares no code with the structures: it sorts the boxes by
// their lower x and sweeps along x keeping the boxes whose x interval is
// still open (Baraff, "Dynamic simulation of non-penetrating rigid bodies",
// 1992, ch. 6), and tests y for each candidate. Queries take part in the same
// sweep as extra boxes, so one pass yields every proxy-proxy pair and every
// query-proxy hit. It is given the fat boxes that the contract of
// broadphase.hpp predicts, computed here from the tight boxes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "property.hpp"
#include "sweep/broadphase.hpp"

namespace sweep {
namespace {

using Pair = std::pair<std::int32_t, std::int32_t>;

/// Every pair (i, j), i < j, of `boxes` that overlap or touch, sorted.
std::vector<Pair> sort_and_sweep(const std::vector<Aabb>& boxes) {
    std::vector<std::int32_t> order(boxes.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
        return boxes[static_cast<std::size_t>(a)].lower.x <
               boxes[static_cast<std::size_t>(b)].lower.x;
    });
    std::vector<Pair> pairs;
    std::vector<std::int32_t> open; // boxes whose x interval may still meet the next one
    for (const std::int32_t i : order) {
        const Aabb& a = boxes[static_cast<std::size_t>(i)];
        for (std::size_t k = 0; k < open.size();) {
            const Aabb& b = boxes[static_cast<std::size_t>(open[k])];
            if (b.upper.x < a.lower.x) {
                open[k] = open.back(); // closed for good: boxes come in lower-x order
                open.pop_back();
                continue;
            }
            if (b.lower.y <= a.upper.y && a.lower.y <= b.upper.y) {
                pairs.emplace_back(std::min(i, open[k]), std::max(i, open[k]));
            }
            ++k;
        }
        open.push_back(i);
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

/// The fat box the contract stores: `tight` grown by `margin`, stretched by
/// 4 displacements on the side it moves towards.
Aabb expected_fat(const Aabb& tight, Vec2 d, real margin) {
    Aabb fat{{tight.lower.x - margin, tight.lower.y - margin},
             {tight.upper.x + margin, tight.upper.y + margin}};
    (d.x < 0 ? fat.lower.x : fat.upper.x) += 4 * d.x;
    (d.y < 0 ? fat.lower.y : fat.upper.y) += 4 * d.y;
    return fat;
}

/// Proxies over a square of side `side`: points, segments, boxes of 0 to 2 L
/// (most), 2 to 10 L, and a few of 30 to 150 L.
Aabb random_box(std::mt19937& rng, real side) {
    std::uniform_real_distribution<real> unit(0, 1);
    const Vec2 c{side * unit(rng), side * unit(rng)};
    const real roll = unit(rng);
    real w = 0;
    real h = 0;
    if (roll < real(0.05)) {
        // a point
    } else if (roll < real(0.1)) {
        w = 3 * unit(rng); // a horizontal segment
    } else if (roll < real(0.9)) {
        w = 2 * unit(rng);
        h = 2 * unit(rng);
    } else if (roll < real(0.9998)) {
        w = 2 + 8 * unit(rng);
        h = 2 + 8 * unit(rng);
    } else {
        w = 30 + 120 * unit(rng);
        h = 30 + 120 * unit(rng);
    }
    return {{c.x - w / 2, c.y - h / 2}, {c.x + w / 2, c.y + h / 2}};
}

/// Builds `count` proxies in `structure` and a twin (the same calls), moves a
/// tenth of them, and compares queries and pairs with the sort-and-sweep.
template <class Broadphase>
void check_against_sort_and_sweep(Broadphase structure, Broadphase twin, unsigned seed) {
    const int count = test::property_cases(100'000);
    const int query_count = test::property_cases(2'000);
    const real margin = structure.margin();
    // About 10 proxies per 2 x 2 query, as in the benchmarks.
    const real side = std::sqrt(real(count) * real(3.2) * real(3.2) / real(10));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> step(-1, 1);

    std::vector<ProxyId> ids;  // by reference index
    std::vector<Aabb> fat;     // by reference index
    std::vector<int> index_of; // by proxy id
    for (int i = 0; i < count; ++i) {
        const Aabb tight = random_box(rng, side);
        const ProxyId id = structure.create_proxy(tight, static_cast<std::uint64_t>(i));
        ASSERT_EQ(twin.create_proxy(tight, static_cast<std::uint64_t>(i)), id);
        ids.push_back(id);
        index_of.resize(std::max(index_of.size(), static_cast<std::size_t>(id) + 1), -1);
        index_of[static_cast<std::size_t>(id)] = i;
        fat.push_back(expected_fat(tight, {}, margin));
    }
    // A tenth moves, some far enough to be re-inserted; listed with repeats.
    std::vector<ProxyId> moved;
    std::uniform_int_distribution<int> pick(0, count - 1);
    for (int m = 0; m < count / 10; ++m) {
        const int i = pick(rng);
        const ProxyId id = ids[static_cast<std::size_t>(i)];
        const Aabb& old = structure.fat_aabb(id);
        const Vec2 d{step(rng), step(rng)};
        const Aabb tight{old.lower + Vec2{margin, margin} + d,
                         old.upper - Vec2{margin, margin} + d};
        const bool changed = structure.move_proxy(id, tight, d);
        ASSERT_EQ(twin.move_proxy(id, tight, d), changed);
        if (changed) {
            fat[static_cast<std::size_t>(i)] = expected_fat(tight, d, margin);
        }
        ASSERT_EQ(structure.fat_aabb(id), fat[static_cast<std::size_t>(i)]) << "proxy " << id;
        moved.push_back(id);
    }
    structure.validate();

    // One sweep over the proxies and the queries (indices count + q);
    // results are translated to proxy ids.
    std::vector<Aabb> boxes = fat;
    std::uniform_real_distribution<real> where(0, side);
    for (int q = 0; q < query_count; ++q) {
        const Vec2 c{where(rng), where(rng)};
        boxes.push_back({c - Vec2{1, 1}, c + Vec2{1, 1}});
    }
    const std::vector<Pair> swept = sort_and_sweep(boxes);
    std::vector<Pair> all_pairs;
    std::vector<std::vector<ProxyId>> hits(static_cast<std::size_t>(query_count));
    for (const auto& [a, b] : swept) {
        if (b < count) {
            const ProxyId x = ids[static_cast<std::size_t>(a)];
            const ProxyId y = ids[static_cast<std::size_t>(b)];
            all_pairs.emplace_back(std::min(x, y), std::max(x, y));
        } else if (a < count) {
            hits[static_cast<std::size_t>(b - count)].push_back(ids[static_cast<std::size_t>(a)]);
        }
    }
    std::sort(all_pairs.begin(), all_pairs.end());

    // AABB queries: the same proxies, each once.
    std::int64_t total_hits = 0;
    for (int q = 0; q < query_count; ++q) {
        std::vector<ProxyId> found;
        structure.query(
            boxes[static_cast<std::size_t>(count + q)], ~0ull, [&](ProxyId id, std::uint64_t data) {
                EXPECT_EQ(data, static_cast<std::uint64_t>(index_of[static_cast<std::size_t>(id)]));
                found.push_back(id);
            });
        std::sort(found.begin(), found.end());
        std::vector<ProxyId>& expected = hits[static_cast<std::size_t>(q)];
        std::sort(expected.begin(), expected.end());
        ASSERT_EQ(found, expected) << "query " << q;
        total_hits += static_cast<std::int64_t>(found.size());
    }
    EXPECT_GT(total_hits, 5 * query_count) << "queries should meet about 10 proxies each";

    const auto find_pairs = [](Broadphase& b, const std::vector<ProxyId>& list) {
        std::vector<Pair> pairs;
        b.find_pairs(list, [&](ProxyId x, ProxyId y) {
            EXPECT_LT(x, y);
            pairs.emplace_back(x, y);
        });
        return pairs;
    };
    // Pairs with a moved member, then every pair (every proxy listed).
    std::vector<bool> is_moved(index_of.size(), false);
    for (const ProxyId id : moved) {
        is_moved[static_cast<std::size_t>(id)] = true;
    }
    std::vector<Pair> moved_pairs;
    for (const Pair& p : all_pairs) {
        if (is_moved[static_cast<std::size_t>(p.first)] ||
            is_moved[static_cast<std::size_t>(p.second)]) {
            moved_pairs.push_back(p);
        }
    }
    const std::vector<ProxyId>& everyone = ids;
    using Case = std::pair<const std::vector<ProxyId>*, const std::vector<Pair>*>;
    for (const auto& [list, expected] : {Case{&moved, &moved_pairs}, Case{&everyone, &all_pairs}}) {
        std::vector<Pair> found = find_pairs(structure, *list);
        ASSERT_EQ(find_pairs(twin, *list), found) << "order differs between twins";
        ASSERT_EQ(find_pairs(structure, *list), found) << "order differs between calls";
        std::sort(found.begin(), found.end());
        ASSERT_TRUE(std::adjacent_find(found.begin(), found.end()) == found.end())
            << "a pair was reported twice";
        ASSERT_EQ(found.size(), expected->size());
        ASSERT_EQ(found, *expected);
    }
    EXPECT_GT(moved_pairs.size(), 0u);
}

TEST(BroadphaseSortAndSweep, ReferenceFindsTouchingPairsOnce) {
    const std::vector<Aabb> boxes{{{0, 0}, {1, 1}}, {{1, 1}, {2, 2}},  {{0.5f, 3}, {0.5f, 3}},
                                  {{0, 0}, {1, 1}}, {{-5, 2}, {5, 3}}, {{3, 0}, {4, 0.5f}}};
    const std::vector<Pair> expected{{0, 1}, {0, 3}, {1, 3}, {1, 4}, {2, 4}};
    EXPECT_EQ(sort_and_sweep(boxes), expected);
}

TEST(DynamicTreeProperty, MatchesSortAndSweepOn100kProxies) {
    check_against_sort_and_sweep(DynamicTree(), DynamicTree(), 314u);
}

TEST(DynamicTreeProperty, RebuiltMatchesSortAndSweepOn100kProxies) {
    // The same comparison on a tree that rebuild() reorganised first.
    struct Rebuilt : DynamicTree {
        ProxyId create_proxy(const Aabb& aabb, std::uint64_t user_data) {
            const ProxyId id = DynamicTree::create_proxy(aabb, user_data);
            if (proxy_count() == test::property_cases(100'000)) {
                rebuild();
            }
            return id;
        }
    };
    check_against_sort_and_sweep(Rebuilt(), Rebuilt(), 2718u);
}

TEST(UniformGridProperty, MatchesSortAndSweepOn100kProxies) {
    check_against_sort_and_sweep(UniformGrid(real(4)), UniformGrid(real(4)), 314u);
}

TEST(UniformGridProperty, SelfSizedGridMatchesSortAndSweepOn100kProxies) {
    // Cells sized by the first proxy (possibly a point: then 2 margins).
    check_against_sort_and_sweep(UniformGrid(), UniformGrid(), 1618u);
}

} // namespace
} // namespace sweep
