// DynamicTree against brute force on long random sequences of create, move
// and destroy (fixed seeds); the harness is in broadphase_harness.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "broadphase_harness.hpp"
#include "property.hpp"
#include "sweep/broadphase.hpp"

namespace sweep {
namespace {

using test::Harness;

TEST(DynamicTreeProperty, RandomOperationsMatchBruteForceUpTo10kProxies) {
    Harness<DynamicTree> harness(DynamicTree(k_aabb_margin), k_aabb_margin, 20240601u);
    harness.run(test::property_cases(10000), test::property_cases(40000));
    ASSERT_FALSE(HasFailure());
    // Both outcomes of move_proxy were exercised, and the tree stayed shallow.
    EXPECT_GT(harness.reinsertions(), 0);
    EXPECT_GT(harness.kept(), 0);
    EXPECT_LE(harness.tree().height(), static_cast<int>(2 * std::log2(harness.count() + 2.0)) + 2);
    harness.drain();
}

TEST(DynamicTreeProperty, LargeMarginMatchesBruteForce) {
    Harness<DynamicTree> harness(DynamicTree(real(3)), real(3), 7u);
    harness.run(test::property_cases(2000), test::property_cases(10000));
    ASSERT_FALSE(HasFailure());
    EXPECT_GT(harness.kept(), 0);
}

TEST(DynamicTreeProperty, ZeroMarginMatchesBruteForce) {
    Harness<DynamicTree> harness(DynamicTree(real(0)), real(0), 11u);
    harness.run(test::property_cases(1000), test::property_cases(5000));
}

TEST(DynamicTreeProperty, RebuildsBetweenOperationsMatchBruteForce) {
    Harness<DynamicTree> harness(DynamicTree(k_aabb_margin), k_aabb_margin, 99u);
    harness.run(test::property_cases(3000), test::property_cases(12000), 2500);
}

TEST(DynamicTreeProperty, SmallTreesEmptiedAndRefilledMatchBruteForce) {
    // Trees of a handful of proxies go through empty often: id reuse, a
    // single root leaf, and queries on an empty tree.
    for (unsigned seed = 1; seed <= static_cast<unsigned>(test::property_cases(40)); ++seed) {
        Harness<DynamicTree> harness(DynamicTree(k_aabb_margin), k_aabb_margin, seed);
        harness.run(1 + static_cast<int>(seed % 8), 600);
        harness.drain();
        harness.run(4, 600);
        ASSERT_FALSE(HasFailure()) << "seed " << seed;
    }
}

} // namespace
} // namespace sweep

namespace sweep {
namespace {

/// Random boxes of many sizes (points and huge ones included) over a field.
Aabb random_pair_box(std::mt19937& rng) {
    std::uniform_real_distribution<real> where(-100, 100);
    std::uniform_real_distribution<real> unit(0, 1);
    const Vec2 c{where(rng), where(rng)};
    const real roll = unit(rng);
    const real size = roll < real(0.1)    ? real(0)
                      : roll < real(0.95) ? real(6) * unit(rng)
                                          : real(80);
    return {{c.x - size / 2, c.y - size / 2}, {c.x + size / 2, c.y + size * unit(rng) / 2}};
}

/// The pairs of find_pairs by brute force: every overlapping pair with a
/// moved member, as (lower id, higher id), sorted.
std::vector<std::pair<ProxyId, ProxyId>> brute_force_pairs(const DynamicTree& tree,
                                                           const std::vector<ProxyId>& live,
                                                           const std::vector<ProxyId>& moved) {
    std::vector<std::pair<ProxyId, ProxyId>> pairs;
    for (const ProxyId a : live) {
        for (const ProxyId b : live) {
            const bool a_moved = std::find(moved.begin(), moved.end(), a) != moved.end();
            const bool b_moved = std::find(moved.begin(), moved.end(), b) != moved.end();
            if (a < b && (a_moved || b_moved) &&
                test::boxes_touch(tree.fat_aabb(a), tree.fat_aabb(b))) {
                pairs.emplace_back(a, b);
            }
        }
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

TEST(DynamicTreeProperty, FindPairsReportsEachOverlappingPairOnceInADeterministicOrder) {
    for (unsigned seed = 1; seed <= static_cast<unsigned>(test::property_cases(10)); ++seed) {
        std::mt19937 rng(seed);
        DynamicTree tree;
        DynamicTree twin; // the same operations: the same pairs in the same order
        std::vector<ProxyId> live;
        const int count = 50 + static_cast<int>(seed) * 40;
        for (int i = 0; i < count; ++i) {
            const Aabb b = random_pair_box(rng);
            live.push_back(tree.create_proxy(b, static_cast<std::uint64_t>(i)));
            twin.create_proxy(b, static_cast<std::uint64_t>(i));
        }
        for (int frame = 0; frame < 5; ++frame) {
            // Move a random subset; the list of moved ids has repeats and
            // includes proxies that moved without leaving their fat box.
            std::vector<ProxyId> moved;
            std::uniform_int_distribution<std::size_t> pick(0, live.size() - 1);
            for (int m = 0; m < count / 5; ++m) {
                const ProxyId id = live[pick(rng)];
                const Aabb b = random_pair_box(rng);
                tree.move_proxy(id, b, {1, 0});
                twin.move_proxy(id, b, {1, 0});
                moved.push_back(id);
            }
            std::vector<std::pair<ProxyId, ProxyId>> found;
            tree.find_pairs(moved, [&](ProxyId a, ProxyId b) {
                EXPECT_LT(a, b);
                found.emplace_back(a, b);
            });
            std::vector<std::pair<ProxyId, ProxyId>> twin_found;
            twin.find_pairs(moved, [&](ProxyId a, ProxyId b) { twin_found.emplace_back(a, b); });
            ASSERT_EQ(found, twin_found) << "seed " << seed << ": order not deterministic";
            std::sort(found.begin(), found.end());
            ASSERT_TRUE(std::adjacent_find(found.begin(), found.end()) == found.end())
                << "seed " << seed << ": a pair was reported twice";
            ASSERT_EQ(found, brute_force_pairs(tree, live, moved)) << "seed " << seed;
        }
        // Stopping early: exactly as many pairs as the callback asked for.
        int calls = 0;
        tree.find_pairs(live, [&](ProxyId, ProxyId) { return ++calls < 3; });
        EXPECT_EQ(calls,
                  std::min<int>(3, static_cast<int>(brute_force_pairs(tree, live, live).size())));
        // No moved proxies: no pairs.
        tree.find_pairs({},
                        [&](ProxyId, ProxyId) { ADD_FAILURE() << "pair without a moved proxy"; });
    }
}

} // namespace
} // namespace sweep
