// UniformGrid: unit cases, then the randomized comparison against brute force
// that DynamicTree passes (broadphase_harness.hpp), so the two structures are
// held to one contract.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "broadphase_harness.hpp"
#include "property.hpp"
#include "sweep/broadphase.hpp"

namespace sweep {
namespace {

using test::Harness;

Aabb box(real x0, real y0, real x1, real y1) { return {{x0, y0}, {x1, y1}}; }

std::vector<ProxyId> query_all(const UniformGrid& grid, const Aabb& aabb) {
    std::vector<ProxyId> found;
    grid.query(aabb, ~0ull, [&](ProxyId id, std::uint64_t) { found.push_back(id); });
    std::sort(found.begin(), found.end());
    return found;
}

/// The proxies a cast reports, in the order reported.
std::vector<ProxyId> cast_in_order(const UniformGrid& grid, const Aabb& from, Vec2 translation) {
    std::vector<ProxyId> found;
    grid.box_cast(from, translation, ~0ull,
                  [&](ProxyId id, std::uint64_t) { found.push_back(id); });
    return found;
}

TEST(UniformGrid, EmptyGridReportsNothingAndSizesItselfFromTheFirstProxy) {
    UniformGrid grid;
    EXPECT_EQ(grid.proxy_count(), 0);
    EXPECT_EQ(grid.cell_size(), real(0));
    EXPECT_TRUE(query_all(grid, box(-10, -10, 10, 10)).empty());
    EXPECT_TRUE(cast_in_order(grid, box(0, 0, 0, 0), {5, 5}).empty());
    grid.create_proxy(box(0, 0, 1, 0.5f), 7);
    // Twice the larger side of the fat box: 2 * (1 + 2 * margin).
    EXPECT_NEAR(grid.cell_size(), 2 * (1 + 2 * k_aabb_margin), 1e-5);
    grid.validate();
}

TEST(UniformGrid, ProxySpanningManyCellsIsReportedOnce) {
    UniformGrid grid(real(1));
    const ProxyId wide = grid.create_proxy(box(0.5f, 0.5f, 6.5f, 3.5f), 1);
    const ProxyId small = grid.create_proxy(box(2.2f, 2.2f, 2.4f, 2.4f), 2);
    grid.validate();
    EXPECT_EQ(query_all(grid, box(0, 0, 10, 10)), (std::vector<ProxyId>{wide, small}));
    EXPECT_EQ(query_all(grid, box(5, 3, 5.5f, 3.2f)), (std::vector<ProxyId>{wide}));
    EXPECT_EQ(cast_in_order(grid, box(-1, 2.3f, -1, 2.3f), {10, 0}).size(), 2u);
}

TEST(UniformGrid, RayReportsProxiesInWalkOrder) {
    UniformGrid grid(real(1), real(0));
    std::vector<ProxyId> ids;
    for (int i = 0; i < 8; ++i) {
        const real x = real(10 - i) * real(2);
        ids.push_back(
            grid.create_proxy(box(x, -0.2f, x + 0.5f, 0.2f), static_cast<std::uint64_t>(i)));
    }
    // Left to right meets the proxies created last first.
    const std::vector<ProxyId> forward = cast_in_order(grid, box(0, 0, 0, 0), {30, 0});
    EXPECT_EQ(forward, std::vector<ProxyId>(ids.rbegin(), ids.rend()));
    const std::vector<ProxyId> backward = cast_in_order(grid, box(25, 0, 25, 0), {-30, 0});
    EXPECT_EQ(backward, ids);
}

TEST(UniformGrid, ClippedRayStopsWalkingAtTheClip) {
    UniformGrid grid(real(1), real(0));
    for (int i = 0; i < 20; ++i) {
        grid.create_proxy(box(real(i), -0.2f, real(i) + 0.5f, 0.2f), static_cast<std::uint64_t>(i));
    }
    int calls = 0;
    grid.box_cast_clipped(box(-0.5f, 0, -0.5f, 0), {40, 0}, ~0ull,
                          [&](ProxyId, std::uint64_t data, real max_fraction) {
                              ++calls;
                              // Clip at this proxy's near side: nothing beyond is reported.
                              const real entry = (real(data) + real(0.5)) / real(40);
                              EXPECT_LE(entry, max_fraction + real(1e-6));
                              return entry;
                          });
    EXPECT_EQ(calls, 1);
}

TEST(UniformGrid, RayThroughACellCornerFindsTheBoxTouchingIt) {
    UniformGrid grid(real(1), real(0));
    // The ray y = 4 - x passes exactly through the cell corner (2, 2), which
    // is all it shares with this box.
    const ProxyId corner = grid.create_proxy(box(2, 2, 3, 3), 1);
    EXPECT_EQ(cast_in_order(grid, box(0.5f, 3.5f, 0.5f, 3.5f), {3, -3}),
              (std::vector<ProxyId>{corner}));
}

TEST(UniformGrid, HugeProxiesAreTestedDirectly) {
    UniformGrid grid(real(1));
    const ProxyId huge = grid.create_proxy(box(-500, -500, 500, 500), 1);
    const ProxyId small = grid.create_proxy(box(0, 0, 1, 1), 2);
    grid.validate();
    EXPECT_EQ(query_all(grid, box(0.2f, 0.2f, 0.3f, 0.3f)), (std::vector<ProxyId>{huge, small}));
    EXPECT_EQ(query_all(grid, box(400, 400, 401, 401)), (std::vector<ProxyId>{huge}));
    grid.move_proxy(huge, box(-0.5f, -0.5f, 0.5f, 0.5f), {0, 0}); // shrinks into a few cells
    grid.validate();
    EXPECT_EQ(query_all(grid, box(400, 400, 401, 401)), std::vector<ProxyId>{});
    grid.destroy_proxy(huge);
    grid.validate();
}

TEST(UniformGrid, RebuildKeepsIdsBoxesAndResults) {
    UniformGrid grid;
    std::vector<ProxyId> ids;
    for (int i = 0; i < 200; ++i) {
        const real x = real(i % 20) * real(1.5);
        const real y = real(i / 20) * real(1.5);
        ids.push_back(grid.create_proxy(box(x, y, x + real(1 + i % 3), y + 1),
                                        static_cast<std::uint64_t>(i)));
    }
    const auto before = query_all(grid, box(3, 3, 12, 9));
    grid.rebuild();
    grid.validate();
    EXPECT_EQ(query_all(grid, box(3, 3, 12, 9)), before);
    grid.rebuild(real(0.25));
    grid.validate();
    EXPECT_EQ(grid.cell_size(), real(0.25));
    EXPECT_EQ(query_all(grid, box(3, 3, 12, 9)), before);
}

// Cells a subnormal width wide: cells per unit (1 / width) overflowed to
// inf, and a coordinate of 0 times inf is NaN, whose conversion to a cell is
// undefined behaviour (the asan preset traps it). The grid sized by its
// first proxy, a point, with no margin; and one given the width.
TEST(UniformGrid, SubnormalCellsStayDefinedAndExact) {
    const real d = std::numeric_limits<real>::denorm_min();
    ASSERT_TRUE(std::isinf(real(1) / (2 * d)));
    UniformGrid sized(0, 0);
    const ProxyId a = sized.create_proxy(box(0, 0, d, 0), 1);
    const ProxyId b = sized.create_proxy(box(1, 1, 2, 2), 2);
    EXPECT_EQ(sized.cell_size(), 2 * d);
    sized.validate();
    EXPECT_EQ(query_all(sized, box(0, 0, 0, 0)), std::vector<ProxyId>{a});
    EXPECT_EQ(query_all(sized, box(0, 0, 1, 1)), (std::vector<ProxyId>{a, b}));
    UniformGrid given(d, 0);
    const ProxyId c = given.create_proxy(box(0, 0, 0, 0), 3);
    given.validate();
    EXPECT_EQ(query_all(given, box(-1, -1, 1, 1)), std::vector<ProxyId>{c});
    given.rebuild(d);
    given.validate();
    EXPECT_EQ(query_all(given, box(0, 0, 0, 0)), std::vector<ProxyId>{c});
}

TEST(UniformGridProperty, RandomOperationsMatchBruteForceUpTo10kProxies) {
    Harness<UniformGrid> harness(UniformGrid(real(4)), k_aabb_margin, 20240601u);
    harness.run(test::property_cases(10000), test::property_cases(40000));
    ASSERT_FALSE(HasFailure());
    EXPECT_GT(harness.reinsertions(), 0);
    EXPECT_GT(harness.kept(), 0);
    harness.drain();
}

TEST(UniformGridProperty, SelfSizedGridMatchesBruteForce) {
    Harness<UniformGrid> harness(UniformGrid(), k_aabb_margin, 5u);
    harness.run(test::property_cases(2000), test::property_cases(8000), 3000);
}

TEST(UniformGridProperty, ZeroMarginAndCoarseCellsMatchBruteForce) {
    Harness<UniformGrid> harness(UniformGrid(real(50), real(0)), real(0), 11u);
    harness.run(test::property_cases(1000), test::property_cases(5000));
}

TEST(UniformGridProperty, SmallGridsEmptiedAndRefilledMatchBruteForce) {
    for (unsigned seed = 1; seed <= static_cast<unsigned>(test::property_cases(40)); ++seed) {
        Harness<UniformGrid> harness(UniformGrid(real(2)), k_aabb_margin, seed);
        harness.run(1 + static_cast<int>(seed % 8), 600);
        harness.drain();
        harness.run(4, 600);
        ASSERT_FALSE(HasFailure()) << "seed " << seed;
    }
}

} // namespace
} // namespace sweep
