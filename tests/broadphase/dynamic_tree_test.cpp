// DynamicTree on small hand-made cases: each test states one rule of the
// contract in broadphase.hpp. The randomized comparison against brute force
// is in dynamic_tree_property_test.cpp.
#include "sweep/broadphase.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sweep {
namespace {

Aabb box(real x0, real y0, real x1, real y1) { return {{x0, y0}, {x1, y1}}; }

/// The user data of every proxy a query reports, sorted.
std::vector<std::uint64_t> query_all(const DynamicTree& tree, const Aabb& aabb,
                                     std::uint64_t mask = ~0ull) {
    std::vector<std::uint64_t> found;
    tree.query(aabb, mask, [&](ProxyId, std::uint64_t data) {
        found.push_back(data);
        return true;
    });
    std::sort(found.begin(), found.end());
    return found;
}

std::vector<std::uint64_t> cast_all(const DynamicTree& tree, const Aabb& aabb, Vec2 translation,
                                    std::uint64_t mask = ~0ull) {
    std::vector<std::uint64_t> found;
    tree.box_cast(aabb, translation, mask, [&](ProxyId, std::uint64_t data) {
        found.push_back(data);
        return true;
    });
    std::sort(found.begin(), found.end());
    return found;
}

using Data = std::vector<std::uint64_t>;

TEST(DynamicTree, EmptyTreeReportsNothing) {
    const DynamicTree tree;
    EXPECT_EQ(tree.proxy_count(), 0);
    EXPECT_EQ(tree.height(), 0);
    EXPECT_EQ(tree.area_ratio(), real(0));
    EXPECT_TRUE(query_all(tree, box(-1e6f, -1e6f, 1e6f, 1e6f)).empty());
    EXPECT_TRUE(cast_all(tree, box(0, 0, 1, 1), {100, 0}).empty());
    tree.validate();
}

TEST(DynamicTree, CreateStoresBoxInflatedByMargin) {
    DynamicTree tree(real(0.5));
    const ProxyId id = tree.create_proxy(box(1, 2, 3, 4), 42, 0b101);
    EXPECT_EQ(tree.fat_aabb(id), box(0.5f, 1.5f, 3.5f, 4.5f));
    EXPECT_EQ(tree.user_data(id), 42u);
    EXPECT_EQ(tree.category_bits(id), 0b101u);
    EXPECT_EQ(tree.proxy_count(), 1);
    EXPECT_EQ(tree.height(), 0);
    tree.validate();
}

TEST(DynamicTree, QueryFindsTouchingFatBoxesOnly) {
    DynamicTree tree(real(0));
    tree.create_proxy(box(0, 0, 1, 1), 1);
    tree.create_proxy(box(2, 0, 3, 1), 2);
    tree.create_proxy(box(0, 2, 1, 3), 3);
    EXPECT_EQ(query_all(tree, box(1, 1, 2, 2)), (Data{1, 2, 3})); // corners touch
    EXPECT_EQ(query_all(tree, box(1.1f, 1.1f, 1.9f, 1.9f)), Data{});
    EXPECT_EQ(query_all(tree, box(2.5f, 0.5f, 2.5f, 0.5f)), Data{2}); // a point
}

TEST(DynamicTree, QueryRespectsCategoryMask) {
    DynamicTree tree;
    tree.create_proxy(box(0, 0, 1, 1), 1, 0b001);
    tree.create_proxy(box(0, 0, 1, 1), 2, 0b010);
    tree.create_proxy(box(0, 0, 1, 1), 3, 0b110);
    const Aabb all = box(-5, -5, 5, 5);
    EXPECT_EQ(query_all(tree, all, 0b001), Data{1});
    EXPECT_EQ(query_all(tree, all, 0b010), (Data{2, 3}));
    EXPECT_EQ(query_all(tree, all, 0b100), Data{3});
    EXPECT_EQ(query_all(tree, all, 0), Data{});
    EXPECT_EQ(cast_all(tree, box(-9, 0, -8, 1), {20, 0}, 0b011), (Data{1, 2, 3}));
    EXPECT_EQ(cast_all(tree, box(-9, 0, -8, 1), {20, 0}, 0b001), Data{1});
}

TEST(DynamicTree, QueryStopsWhenCallbackReturnsFalse) {
    DynamicTree tree;
    for (int i = 0; i < 100; ++i) {
        tree.create_proxy(box(real(i), 0, real(i) + 1, 1), static_cast<std::uint64_t>(i));
    }
    int calls = 0;
    tree.query(box(-1, -1, 200, 2), ~0ull, [&](ProxyId, std::uint64_t) { return ++calls < 3; });
    EXPECT_EQ(calls, 3);
    calls = 0;
    tree.box_cast(box(-10, 0, -9, 1), {300, 0}, ~0ull,
                  [&](ProxyId, std::uint64_t) { return ++calls < 5; });
    EXPECT_EQ(calls, 5);
}

TEST(DynamicTree, VoidCallbackVisitsEverything) {
    DynamicTree tree;
    for (int i = 0; i < 10; ++i) {
        tree.create_proxy(box(real(i), 0, real(i) + 1, 1), static_cast<std::uint64_t>(i));
    }
    int calls = 0;
    tree.query(box(-1, -1, 20, 2), ~0ull, [&](ProxyId, std::uint64_t) { ++calls; });
    EXPECT_EQ(calls, 10);
}

TEST(DynamicTree, DestroyedIdIsReusedAndForgotten) {
    DynamicTree tree;
    const ProxyId a = tree.create_proxy(box(0, 0, 1, 1), 1);
    const ProxyId b = tree.create_proxy(box(5, 0, 6, 1), 2);
    const ProxyId c = tree.create_proxy(box(10, 0, 11, 1), 3);
    tree.destroy_proxy(b);
    tree.validate();
    EXPECT_EQ(tree.proxy_count(), 2);
    EXPECT_EQ(query_all(tree, box(4, 0, 7, 1)), Data{});

    const ProxyId d = tree.create_proxy(box(20, 0, 21, 1), 4);
    tree.validate();
    EXPECT_TRUE(d == b || (d != a && d != c)); // a reused slot or a fresh one, never a live id
    EXPECT_EQ(tree.user_data(d), 4u);
    EXPECT_EQ(query_all(tree, box(4, 0, 7, 1)), Data{});
    EXPECT_EQ(query_all(tree, box(19, 0, 22, 1)), Data{4});
    EXPECT_EQ(query_all(tree, box(-100, -100, 100, 100)), (Data{1, 3, 4}));
}

TEST(DynamicTree, DestroyingEverythingLeavesAnEmptyReusableTree) {
    DynamicTree tree;
    std::vector<ProxyId> ids;
    for (int i = 0; i < 50; ++i) {
        ids.push_back(tree.create_proxy(box(real(i), real(i), real(i) + 1, real(i) + 1), 0));
    }
    for (const ProxyId id : ids) {
        tree.destroy_proxy(id);
        tree.validate();
    }
    EXPECT_EQ(tree.proxy_count(), 0);
    EXPECT_EQ(tree.height(), 0);
    EXPECT_TRUE(query_all(tree, box(-1e3f, -1e3f, 1e3f, 1e3f)).empty());
    std::vector<ProxyId> again;
    for (int i = 0; i < 50; ++i) {
        again.push_back(tree.create_proxy(box(0, 0, 1, 1), 7));
    }
    tree.validate();
    std::sort(ids.begin(), ids.end());
    std::sort(again.begin(), again.end());
    // The node array did not grow: 50 leaves and 49 parents fit in the 99 freed slots.
    EXPECT_LT(again.back(), 2 * 50 - 1);
    EXPECT_EQ(query_all(tree, box(0, 0, 1, 1)).size(), 50u);
}

TEST(DynamicTree, SmallMoveInsideFatBoxDoesNotChangeTree) {
    DynamicTree tree(real(0.5));
    const ProxyId id = tree.create_proxy(box(0, 0, 1, 1), 1);
    tree.create_proxy(box(3, 3, 4, 4), 2);
    const Aabb before = tree.fat_aabb(id);
    EXPECT_FALSE(tree.move_proxy(id, box(0.3f, -0.2f, 1.3f, 0.8f), {0.3f, -0.2f}));
    EXPECT_EQ(tree.fat_aabb(id), before);
    EXPECT_FALSE(tree.move_proxy(id, box(0.5f, 0.5f, 1.5f, 1.5f), {0, 0})); // on the boundary
    tree.validate();
}

TEST(DynamicTree, MoveLeavingFatBoxReinsertsWithPredictedExtent) {
    DynamicTree tree(real(0.5));
    const ProxyId id = tree.create_proxy(box(0, 0, 1, 1), 1);
    tree.create_proxy(box(3, 3, 4, 4), 2);
    EXPECT_TRUE(tree.move_proxy(id, box(2, -1, 3, 0), {2, -1}));
    // Grown by the margin, then stretched 4 displacements towards +x and -y.
    EXPECT_EQ(tree.fat_aabb(id), box(1.5f, -1.5f - 4, 3.5f + 8, 0.5f));
    EXPECT_EQ(query_all(tree, box(10, -5, 11, -4)), Data{1});
    tree.validate();
}

TEST(DynamicTree, StoppedProxyShrinksItsStretchedBox) {
    DynamicTree tree(real(0.5));
    const ProxyId id = tree.create_proxy(box(0, 0, 1, 1), 1);
    EXPECT_TRUE(tree.move_proxy(id, box(10, 0, 11, 1), {10, 0}));
    EXPECT_EQ(tree.fat_aabb(id).upper.x, real(11.5 + 40));
    // Still inside the stretched box, but it is now much larger than needed.
    EXPECT_TRUE(tree.move_proxy(id, box(10, 0, 11, 1), {0, 0}));
    EXPECT_EQ(tree.fat_aabb(id), box(9.5f, -0.5f, 11.5f, 1.5f));
}

TEST(DynamicTree, SetFatBoxStoresItAndReinserts) {
    DynamicTree tree(real(0.5));
    const ProxyId id = tree.create_proxy(box(0, 0, 1, 1), 1);
    tree.create_proxy(box(3, 3, 4, 4), 2);
    tree.set_fat_aabb(id, box(5, -2, 9, 2));
    EXPECT_EQ(tree.fat_aabb(id), box(5, -2, 9, 2));
    EXPECT_EQ(query_all(tree, box(8, 1, 10, 10)), Data{1});
    EXPECT_TRUE(query_all(tree, box(0, 0, 1, 1)).empty());
    tree.validate();
}

TEST(DynamicTree, BoxCastFindsProxiesAlongThePathOnly) {
    DynamicTree tree(real(0));
    tree.create_proxy(box(3, 0, 4, 1), 1);       // on the path
    tree.create_proxy(box(3, 3, 4, 4), 2);       // above the path
    tree.create_proxy(box(-5, 0, -4, 1), 3);     // behind the start
    tree.create_proxy(box(10, 0, 11, 1), 4);     // beyond the end of a short cast
    tree.create_proxy(box(5, 1.5f, 5.5f, 3), 5); // grazed by the moving box's top
    const Aabb mover = box(0, 0, 2, 2);
    EXPECT_EQ(cast_all(tree, mover, {4, 0}), (Data{1, 5}));
    EXPECT_EQ(cast_all(tree, mover, {0, 0}), Data{});
    EXPECT_EQ(cast_all(tree, mover, {8, 0}), (Data{1, 4, 5})); // the end touches proxy 4
    EXPECT_EQ(cast_all(tree, mover, {-8, 0}), Data{3});
}

TEST(DynamicTree, BoxCastOnADiagonalMissesTheCornerItPasses) {
    DynamicTree tree(real(0));
    // The swept box's bounding box covers this proxy, but the diagonal path
    // stays below-right of it: only the exact Minkowski test rejects it.
    tree.create_proxy(box(0, 8, 2, 10), 1);
    tree.create_proxy(box(8, 8, 10, 10), 2);
    EXPECT_EQ(cast_all(tree, box(0, 0, 1, 1), {10, 10}), Data{2});
}

TEST(DynamicTree, ZeroSizeBoxCastIsARayCast) {
    DynamicTree tree(real(0));
    tree.create_proxy(box(1, -1, 2, 1), 1);
    tree.create_proxy(box(1, 2, 2, 3), 2);
    const Aabb point = box(0, 0, 0, 0);
    EXPECT_EQ(cast_all(tree, point, {5, 0}), Data{1});
    EXPECT_EQ(cast_all(tree, point, {3, 6}), Data{2}); // enters at (1, 2): a corner
    EXPECT_EQ(cast_all(tree, point, {0, 5}), Data{});  // vertical, x = 0 outside both
    EXPECT_EQ(cast_all(tree, box(1.5f, 5, 1.5f, 5), {0, -10}), (Data{1, 2}));
}

TEST(DynamicTree, ClippedCastSkipsProxiesBeyondTheClip) {
    DynamicTree tree(real(0));
    for (int i = 0; i < 64; ++i) {
        tree.create_proxy(box(real(2 * i + 10), 0, real(2 * i + 11), 1),
                          static_cast<std::uint64_t>(i));
    }
    const Aabb mover = box(0, 0, 1, 1);
    const Vec2 translation{200, 0};
    std::uint64_t nearest = ~0ull;
    tree.box_cast_clipped(mover, translation, ~0ull,
                          [&](ProxyId, std::uint64_t data, real max_fraction) {
                              // Entry fraction of the leading edge into proxy `data`.
                              const real entry = real(2 * data + 10 - 1) / translation.x;
                              EXPECT_LE(entry, max_fraction + real(1e-6));
                              if (entry < max_fraction) {
                                  nearest = data;
                                  return entry;
                              }
                              return max_fraction;
                          });
    EXPECT_EQ(nearest, 0u);
    int calls = 0;
    tree.box_cast_clipped(mover, translation, ~0ull, [&](ProxyId, std::uint64_t, real) {
        ++calls;
        return real(0);
    });
    EXPECT_EQ(calls, 1);
}

TEST(DynamicTree, SortedInsertionStaysBalanced) {
    DynamicTree tree;
    const int n = 4096;
    for (int i = 0; i < n; ++i) {
        tree.create_proxy(box(real(i), 0, real(i) + 1, 1), static_cast<std::uint64_t>(i));
    }
    tree.validate();
    // AVL trees have height below 1.44 log2(n + 2).
    EXPECT_LE(tree.height(), static_cast<int>(1.44 * std::log2(n + 2.0)) + 1);
    EXPECT_GT(tree.area_ratio(), real(1));
}

TEST(DynamicTree, IdenticalBoxesAreAllFound) {
    DynamicTree tree;
    for (int i = 0; i < 300; ++i) {
        tree.create_proxy(box(0, 0, 0, 0), static_cast<std::uint64_t>(i));
    }
    tree.validate();
    EXPECT_EQ(query_all(tree, box(0, 0, 0, 0)).size(), 300u);
    EXPECT_EQ(cast_all(tree, box(-5, -5, -4, -4), {10, 10}).size(), 300u);
    tree.rebuild();
    tree.validate();
    EXPECT_LE(tree.height(), 10);
    EXPECT_EQ(query_all(tree, box(0, 0, 0, 0)).size(), 300u);
}

TEST(DynamicTree, RebuildKeepsIdsBoxesAndResults) {
    DynamicTree tree;
    std::vector<ProxyId> ids;
    for (int i = 0; i < 500; ++i) {
        const real x = real((i * 37) % 101);
        const real y = real((i * 53) % 97);
        ids.push_back(tree.create_proxy(box(x, y, x + 1, y + 2), static_cast<std::uint64_t>(i)));
    }
    for (int i = 0; i < 500; i += 3) {
        tree.destroy_proxy(ids[static_cast<std::size_t>(i)]);
    }
    std::vector<Aabb> before;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        before.push_back(i % 3 == 0 ? Aabb{} : tree.fat_aabb(ids[i]));
    }
    const Data expected = query_all(tree, box(20, 20, 60, 50));
    tree.rebuild();
    tree.validate();
    EXPECT_EQ(tree.proxy_count(), 500 - 167);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i % 3 != 0) {
            EXPECT_EQ(tree.fat_aabb(ids[i]), before[i]);
            EXPECT_EQ(tree.user_data(ids[i]), i);
        }
    }
    EXPECT_EQ(query_all(tree, box(20, 20, 60, 50)), expected);
    // The tree stays usable after a rebuild.
    tree.create_proxy(box(30, 30, 31, 31), 1000);
    tree.destroy_proxy(ids[1]);
    tree.validate();
}

TEST(DynamicTree, RebuildOfEmptyAndSingleTrees) {
    DynamicTree tree;
    tree.rebuild();
    tree.validate();
    const ProxyId id = tree.create_proxy(box(0, 0, 1, 1), 9);
    tree.rebuild();
    tree.validate();
    EXPECT_EQ(query_all(tree, box(0, 0, 1, 1)), Data{9});
    tree.destroy_proxy(id);
    tree.validate();
}

// Every node of the tree as for_each_node lists it: (box, depth, leaf).
struct NodeListing {
    Aabb box;
    int depth;
    ProxyId leaf;
    friend bool operator==(const NodeListing&, const NodeListing&) = default;
};
std::vector<NodeListing> nodes_of(const DynamicTree& tree) {
    std::vector<NodeListing> out;
    tree.for_each_node([&](const Aabb& b, int depth, ProxyId leaf) {
        out.push_back({b, depth, leaf});
    });
    return out;
}

// Unplaced proxies take ids and boxes as created ones do, are found by
// nothing until a rebuild, and a rebuild then gives the tree that inserting
// them and rebuilding gives, node for node.
TEST(DynamicTree, UnplacedProxiesAreFoundOnlyAfterARebuildThatPlacesThemAsInserted) {
    DynamicTree inserted;
    DynamicTree unplaced;
    for (int i = 0; i < 300; ++i) {
        const real x = real((i * 37) % 101);
        const real y = real((i * 53) % 97);
        const Aabb b = box(x, y, x + 1, y + 2);
        const auto data = static_cast<std::uint64_t>(i);
        const ProxyId a = inserted.create_proxy(b, data);
        // A few placed before the rest arrive unplaced.
        const ProxyId u =
            i < 20 ? unplaced.create_proxy(b, data) : unplaced.create_unplaced_proxy(b, data);
        ASSERT_EQ(a, u);
        EXPECT_EQ(unplaced.fat_aabb(u), inserted.fat_aabb(a));
    }
    for (int i = 0; i < 300; i += 7) { // destroyed, placed or not
        inserted.destroy_proxy(i);
        unplaced.destroy_proxy(i);
    }
    unplaced.move_proxy(40, box(5, 5, 6, 6), {1, 0});
    inserted.move_proxy(40, box(5, 5, 6, 6), {1, 0});
    EXPECT_EQ(unplaced.fat_aabb(40), inserted.fat_aabb(40));
    unplaced.validate();
    EXPECT_EQ(unplaced.proxy_count(), inserted.proxy_count());
    EXPECT_EQ(unplaced.unplaced_count(), 280 - 40); // 20..299, less the 40 of them destroyed
    const Aabb everywhere = box(-10, -10, 200, 200);
    const std::size_t placed_found = query_all(unplaced, everywhere).size();
    EXPECT_EQ(placed_found, 20u - 3u); // 0, 7, 14 destroyed
    int pairs = 0;
    unplaced.find_pairs({41, 42}, [&](ProxyId, ProxyId) { ++pairs; });
    EXPECT_EQ(pairs, 0);
    inserted.rebuild();
    unplaced.rebuild();
    unplaced.validate();
    EXPECT_EQ(unplaced.unplaced_count(), 0);
    EXPECT_EQ(nodes_of(unplaced), nodes_of(inserted));
    EXPECT_EQ(query_all(unplaced, everywhere), query_all(inserted, everywhere));
    EXPECT_EQ(query_all(unplaced, everywhere).size(),
              static_cast<std::size_t>(inserted.proxy_count()));
}

// place_unplaced: a few unplaced proxies among many placed are inserted one
// by one (the placed ones keep their places), an unplaced proxy destroyed,
// or destroyed and its id made again, is placed once or not at all; many
// are placed by a rebuild, to the tree rebuild() gives.
TEST(DynamicTree, PlaceUnplacedInsertsAFewAndRebuildsForMany) {
    DynamicTree tree;
    for (int i = 0; i < 100; ++i) {
        tree.create_proxy(box(real(i), 0, real(i) + 1, 1), static_cast<std::uint64_t>(i));
    }
    tree.rebuild();
    const std::vector<NodeListing> before = nodes_of(tree);
    const ProxyId a = tree.create_unplaced_proxy(box(0, 5, 1, 6), 100);
    const ProxyId b = tree.create_unplaced_proxy(box(2, 5, 3, 6), 101);
    tree.destroy_proxy(b);
    const ProxyId c = tree.create_unplaced_proxy(box(4, 5, 5, 6), 102); // b's id again
    EXPECT_EQ(c, b);
    EXPECT_EQ(tree.unplaced_count(), 2);
    EXPECT_EQ(query_all(tree, box(0, 5, 10, 6)), Data{});
    tree.place_unplaced();
    tree.validate();
    EXPECT_EQ(tree.unplaced_count(), 0);
    EXPECT_EQ(query_all(tree, box(0, 5, 10, 6)), (Data{100, 102}));
    EXPECT_EQ(nodes_of(tree).size(), before.size() + 4); // two leaves, two parents
    tree.destroy_proxy(a);
    tree.place_unplaced(); // (nothing to place)
    tree.validate();

    DynamicTree many;
    DynamicTree rebuilt;
    for (int i = 0; i < 40; ++i) {
        const Aabb b_i = box(real(i % 7), real(i / 7), real(i % 7) + 1, real(i / 7) + 1);
        many.create_proxy(b_i, static_cast<std::uint64_t>(i));
        rebuilt.create_proxy(b_i, static_cast<std::uint64_t>(i));
    }
    for (int i = 40; i < 50; ++i) { // a quarter of the 40 placed
        const Aabb b_i = box(real(i % 7), real(i / 7), real(i % 7) + 1, real(i / 7) + 1);
        many.create_unplaced_proxy(b_i, static_cast<std::uint64_t>(i));
        rebuilt.create_proxy(b_i, static_cast<std::uint64_t>(i));
    }
    many.place_unplaced();
    rebuilt.rebuild();
    many.validate();
    EXPECT_EQ(nodes_of(many), nodes_of(rebuilt));
}

// Centres the smallest subnormal apart: the binned split's scale (bins over
// the centres' spread) is infinite. Its bins were converted to int from inf
// (undefined behaviour; the asan preset traps it), a fuzz finding.
TEST(DynamicTree, RebuildOfCentresASubnormalApart) {
    DynamicTree tree(0);
    const real d = std::numeric_limits<real>::denorm_min();
    ASSERT_TRUE(std::isinf(real(16) / d));
    std::vector<ProxyId> ids;
    for (int i = 0; i < 8; ++i) {
        const real x = i % 2 == 0 ? 0 : d;
        ids.push_back(tree.create_proxy(box(x, 0, x, 0), static_cast<std::uint64_t>(i)));
    }
    tree.rebuild();
    tree.validate();
    EXPECT_EQ(query_all(tree, box(0, 0, 0, 0)), (Data{0, 2, 4, 6}));
    EXPECT_EQ(query_all(tree, box(d, 0, d, 0)), (Data{1, 3, 5, 7}));
    EXPECT_EQ(query_all(tree, box(0, 0, d, 0)), (Data{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(NodeStack, SpillsBeyondItsArrayAndStaysLastInFirstOut) {
    detail::NodeStack<4> stack;
    for (int i = 0; i < 100; ++i) {
        stack.push(i);
    }
    for (int i = 99; i >= 0; --i) {
        ASSERT_FALSE(stack.empty());
        EXPECT_EQ(stack.pop(), i);
    }
    EXPECT_TRUE(stack.empty());
    EXPECT_TRUE(detail::node_stack_spill().empty());
}

TEST(NodeStack, NestedStacksShareTheSpillSafely) {
    detail::NodeStack<2> outer;
    for (int i = 0; i < 10; ++i) {
        outer.push(i);
    }
    {
        // A callback's own traversal, abandoned half way (an early stop).
        detail::NodeStack<2> inner;
        for (int i = 100; i < 120; ++i) {
            inner.push(i);
        }
        EXPECT_EQ(inner.pop(), 119);
    }
    for (int i = 9; i >= 0; --i) {
        EXPECT_EQ(outer.pop(), i);
    }
    EXPECT_TRUE(outer.empty());
    EXPECT_TRUE(detail::node_stack_spill().empty());
}

} // namespace
} // namespace sweep
