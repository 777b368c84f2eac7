// DynamicTree against brute force on long random sequences of create, move
// and destroy (fixed seeds); the harness is in broadphase_harness.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
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

// World::move keeps a shape's static neighbourhood as the subset of a
// larger query, which holds only if every query reports in one order: that
// of the leaves in a depth-first walk, first child first (for_each_node's).
TEST(DynamicTreeProperty, QueriesReportLeavesInDepthFirstOrder) {
    for (unsigned seed = 1; seed <= static_cast<unsigned>(test::property_cases(10)); ++seed) {
        std::mt19937 rng(seed);
        DynamicTree tree;
        std::vector<ProxyId> live;
        for (int i = 0; i < 100 + static_cast<int>(seed) * 50; ++i) {
            live.push_back(tree.create_proxy(random_pair_box(rng), static_cast<std::uint64_t>(i)));
        }
        for (std::size_t i = 0; i < live.size(); i += 3) { // re-inserted or kept
            const Aabb b = random_pair_box(rng);
            tree.move_proxy(live[i], b, b.lower - tree.fat_aabb(live[i]).lower);
        }
        std::vector<ProxyId> leaves;
        tree.for_each_node([&](const Aabb&, int, ProxyId leaf) {
            if (leaf != k_null_proxy) {
                leaves.push_back(leaf);
            }
        });
        for (int q = 0; q < 200; ++q) {
            const Aabb box = random_pair_box(rng);
            std::vector<ProxyId> expected;
            for (const ProxyId id : leaves) {
                if (test::boxes_touch(tree.fat_aabb(id), box)) {
                    expected.push_back(id);
                }
            }
            std::vector<ProxyId> reported;
            tree.query(box, ~0ull, [&](ProxyId id, std::uint64_t) {
                reported.push_back(id);
                return true;
            });
            ASSERT_EQ(reported, expected) << "seed " << seed << " query " << q;
        }
    }
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

namespace sweep {
namespace {

/// The sum of the perimeters of the internal nodes, world units L: area_ratio
/// times the root's perimeter.
double internal_perimeter(const DynamicTree& tree, const Aabb& root_box) {
    return static_cast<double>(tree.area_ratio()) * static_cast<double>(perimeter(root_box));
}

// A long randomized run: 10k proxies, 1M moves mixed with creations and
// destructions (so the free list is exercised), every invariant checked by
// validate() every 10k operations, and the quality of the incrementally
// maintained tree compared with a full binned-SAH rebuild of the same fat
// boxes at the end.
//
// The factor, 1.5: a tree grown by insertion (greedy SAH descent, AVL and
// area-reducing rotations) measures about 1.3x the internal perimeter of
// the binned-SAH rebuild right after inserting 100k uniform proxies, and the
// rotations done by later moves bring it down (1.15 at the end of this run).
// 1.5 leaves room for other seeds and the scaled-down sanitizer run, and
// still catches an insertion that stopped choosing siblings by area or
// rotations that stopped shrinking it.
TEST(DynamicTreeProperty, MillionMovesKeepInvariantsAndSurfaceAreaNearARebuild) {
    constexpr double k_max_area_over_rebuild = 1.5;
    const int target = test::property_cases(10'000);
    const int moves = test::property_cases(1'000'000);
    const real side = 300;
    std::mt19937 rng(424242u);
    std::uniform_real_distribution<real> unit(0, 1);
    const auto random_box = [&] {
        const Vec2 c{side * unit(rng), side * unit(rng)};
        const real w = unit(rng) < real(0.05) ? real(20) * unit(rng) : real(2) * unit(rng);
        const real h = real(2) * unit(rng);
        return Aabb{{c.x - w / 2, c.y - h / 2}, {c.x + w / 2, c.y + h / 2}};
    };

    DynamicTree tree;
    std::vector<ProxyId> live;
    std::vector<Aabb> tight; // by proxy id
    const auto create = [&] {
        const Aabb box = random_box();
        const ProxyId id = tree.create_proxy(box, live.size());
        tight.resize(std::max(tight.size(), static_cast<std::size_t>(id) + 1));
        tight[static_cast<std::size_t>(id)] = box;
        live.push_back(id);
    };
    for (int i = 0; i < target; ++i) {
        create();
    }
    int done = 0;
    int operations = 0;
    int reinserted = 0;
    while (done < moves) {
        const real roll = unit(rng);
        const std::size_t slot =
            static_cast<std::size_t>(unit(rng) * real(live.size())) % live.size();
        if (roll < real(0.01) && live.size() > 1) {
            tree.destroy_proxy(live[slot]);
            live[slot] = live.back();
            live.pop_back();
        } else if (roll < real(0.02) || live.size() < 2) {
            create();
        } else {
            // Mostly steady motion, some jumps, a few teleports anywhere.
            const ProxyId id = live[slot];
            Aabb& box = tight[static_cast<std::size_t>(id)];
            const real kind = unit(rng);
            const real reach = kind < real(0.7) ? real(0.3) : real(5);
            Vec2 d{reach * (2 * unit(rng) - 1), reach * (2 * unit(rng) - 1)};
            if (kind > real(0.98)) {
                const Aabb jump = random_box();
                d = center(jump) - center(box);
            }
            box = {box.lower + d, box.upper + d};
            reinserted += tree.move_proxy(id, box, kind > real(0.98) ? Vec2{} : d) ? 1 : 0;
            ++done;
        }
        if (++operations % 10'000 == 0) {
            tree.validate(); // aborts with a message on the first broken invariant
            ASSERT_EQ(tree.proxy_count(), static_cast<int>(live.size()));
        }
    }
    tree.validate();
    ASSERT_EQ(tree.proxy_count(), static_cast<int>(live.size()));
    EXPECT_GT(reinserted, moves / 10);
    EXPECT_LE(tree.height(), static_cast<int>(2 * std::log2(live.size() + 2.0)) + 2);

    DynamicTree rebuilt = tree;
    rebuilt.rebuild();
    rebuilt.validate();
    ASSERT_FALSE(live.empty());
    Aabb root_box = tree.fat_aabb(live.front());
    for (const ProxyId id : live) {
        root_box = union_of(root_box, tree.fat_aabb(id));
    }
    const double incremental = internal_perimeter(tree, root_box);
    const double sah = internal_perimeter(rebuilt, root_box);
    ASSERT_GT(sah, 0.0);
    RecordProperty("internal_perimeter_over_rebuild", std::to_string(incremental / sah));
    std::printf("internal perimeter: incremental %.0f L, rebuilt %.0f L, ratio %.3f\n", incremental,
                sah, incremental / sah);
    EXPECT_LE(incremental / sah, k_max_area_over_rebuild);
}

// World::move keeps each moved shape's fat box by its own rule and hands it
// to set_fat_aabb, which refits in place a box that stays within its
// grandparent's. Characters wandering for a long while must leave the tree
// valid, every query exact, and its quality near a rebuild's (1.07 times
// its internal perimeter here; 1.45 when any box overlapping the old one
// stayed in place).
TEST(DynamicTreeProperty, WanderingFatBoxesSetInPlaceKeepQueriesExactAndTheTreeGood) {
    constexpr double k_max_area_over_rebuild = 1.2;
    const int count = test::property_cases(2'000);
    const int steps = test::property_cases(400'000);
    const real side = 400;
    std::mt19937 rng(777u);
    std::uniform_real_distribution<real> unit(0, 1);
    DynamicTree tree;
    std::vector<Aabb> tight;
    std::vector<ProxyId> ids;
    for (int i = 0; i < count; ++i) {
        const Vec2 c{side * unit(rng), side * unit(rng)};
        tight.push_back({c - Vec2{0.4f, 0.4f}, c + Vec2{0.4f, 0.4f}});
        ids.push_back(tree.create_proxy(tight.back(), static_cast<std::uint64_t>(i)));
    }
    int set = 0;
    for (int step = 0; step < steps; ++step) {
        const auto i = static_cast<std::size_t>(unit(rng) * real(count)) % tight.size();
        const Vec2 d{real(0.5) * (2 * unit(rng) - 1), real(0.5) * (2 * unit(rng) - 1)};
        tight[i] = {tight[i].lower + d, tight[i].upper + d};
        if (!contains(tree.fat_aabb(ids[i]), tight[i])) {
            tree.set_fat_aabb(ids[i], inflate(tight[i], k_aabb_margin + 2 * length(d)));
            ++set;
        }
        if (step % 20'000 == 0) {
            tree.validate();
            const Vec2 c{side * unit(rng), side * unit(rng)};
            const Aabb query{c - Vec2{5, 5}, c + Vec2{5, 5}};
            std::vector<std::uint64_t> found;
            tree.query(query, ~0ull, [&](ProxyId, std::uint64_t data) {
                found.push_back(data);
                return true;
            });
            std::vector<std::uint64_t> expected;
            for (std::size_t k = 0; k < ids.size(); ++k) {
                if (overlaps(query, tree.fat_aabb(ids[k]))) {
                    expected.push_back(k);
                }
            }
            std::sort(found.begin(), found.end());
            ASSERT_EQ(found, expected) << "step " << step;
        }
    }
    tree.validate();
    EXPECT_GT(set, steps / 10);
    EXPECT_LE(tree.height(), static_cast<int>(2 * std::log2(count + 2.0)) + 2);
    DynamicTree rebuilt = tree;
    rebuilt.rebuild();
    Aabb root_box = tree.fat_aabb(ids.front());
    for (const ProxyId id : ids) {
        root_box = union_of(root_box, tree.fat_aabb(id));
    }
    const double ratio =
        internal_perimeter(tree, root_box) / internal_perimeter(rebuilt, root_box);
    std::printf("internal perimeter over a rebuild's: %.3f\n", ratio);
    EXPECT_LE(ratio, k_max_area_over_rebuild);
}

} // namespace
} // namespace sweep
