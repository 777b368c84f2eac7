// The covered-stretch search of src/seams.hpp: two boxes whose placed
// normals are exactly the axes pair each face with the opposite one alone
// (PlacedPolygon::face_toward), which must give the stretches the search of
// every pair of faces gives, to the bit. Boxes of a few sizes at
// coordinates drawn so that faces often lie flush, overlap, or meet at a
// corner, near the origin and far from it, at no rotation and at exact
// quarter and half turns.
#include "seams.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <vector>

namespace sweep::detail {
namespace {

// The same polygon with its axis faces forgotten: searched pair by pair.
PlacedPolygon searched_pair_by_pair(PlacedPolygon p) {
    p.face_toward = {-1, -1, -1, -1};
    return p;
}

std::vector<CoveredStretch> covered(const PlacedPolygon& a, const PlacedPolygon& b, real tol) {
    std::vector<CoveredStretch> out;
    find_covered_stretches(a, b, 7, tol, out);
    return out;
}

bool same_bits(real x, real y) { return std::memcmp(&x, &y, sizeof x) == 0; }

TEST(Seams, AxisBoxesPairOppositeFacesAloneWithTheSameStretches) {
    std::mt19937 rng(21);
    const std::array<real, 4> halves{0.5f, 1, 1.5f, 8};
    const std::array<real, 5> origins{0, 3, -40, 1.0e5f, -3.0e7f};
    const std::array<Rot, 4> turns{Rot{1, 0}, Rot{0, 1}, Rot{-1, 0}, Rot{0, -1}};
    std::uniform_int_distribution<int> step(-8, 8);
    std::uniform_int_distribution<std::size_t> pick(0, 3);
    std::uniform_int_distribution<std::size_t> pick_origin(0, origins.size() - 1);
    int boxes = 0;
    int found = 0;
    for (int i = 0; i < 20000; ++i) {
        const real origin = origins[pick_origin(rng)];
        const auto placed = [&] {
            const Polygon box = make_box(halves[pick(rng)], halves[pick(rng)]).value();
            // Centres on a half-unit lattice, a hair off it now and then.
            const real jitter = i % 5 == 0 ? real(0.01) : real(0);
            const Vec2 p{origin + real(0.5) * static_cast<real>(step(rng)) + jitter,
                         origin + real(0.5) * static_cast<real>(step(rng))};
            return place(box, Transform{p, turns[pick(rng)]});
        };
        const PlacedPolygon a = placed();
        const PlacedPolygon b = placed();
        ASSERT_GE(a.face_toward[0], 0);
        ASSERT_GE(b.face_toward[0], 0);
        ++boxes;
        for (const real tol : {real(0.005), real(0.02)}) {
            const std::vector<CoveredStretch> fast = covered(a, b, tol);
            const std::vector<CoveredStretch> all =
                covered(searched_pair_by_pair(a), searched_pair_by_pair(b), tol);
            ASSERT_EQ(fast.size(), all.size()) << i;
            for (std::size_t k = 0; k < fast.size(); ++k) {
                EXPECT_EQ(fast[k].face, all[k].face) << i;
                EXPECT_EQ(fast[k].neighbour, 7);
                EXPECT_TRUE(same_bits(fast[k].lo, all[k].lo)) << i;
                EXPECT_TRUE(same_bits(fast[k].hi, all[k].hi)) << i;
            }
            found += static_cast<int>(fast.size());
        }
    }
    EXPECT_EQ(boxes, 20000);
    EXPECT_GT(found, 2000); // faces often lie flush (about 2,600 in double, more in float)
}

// A turned box's normals are not exactly the axes: it keeps the search of
// every pair, and still finds the faces it covers.
TEST(Seams, ATurnedBoxIsSearchedPairByPair) {
    const Polygon box = make_box(1, 1).value();
    const PlacedPolygon turned = place(box, Transform{{0, 0}, Rot::from_angle(real(0.3))});
    EXPECT_EQ(turned.face_toward[0], -1);
    const PlacedPolygon nearly = place(box, Transform{{0, 0}, Rot::from_angle(real(1e-3))});
    EXPECT_EQ(nearly.face_toward[0], -1);
    // Two unit boxes side by side, one a thousandth of a radian off: still
    // back to back within k_seam_sine.
    const PlacedPolygon beside = place(box, Transform{{2, 0}, Rot{}});
    EXPECT_EQ(covered(nearly, beside, real(0.02)).size(), 1u);
}

TEST(Seams, AxisDirectionNamesExactAxesOnly) {
    EXPECT_EQ(axis_direction({1, 0}), 0);
    EXPECT_EQ(axis_direction({0, 1}), 1);
    EXPECT_EQ(axis_direction({-1, -0.0f}), 2);
    EXPECT_EQ(axis_direction({-0.0f, -1}), 3);
    EXPECT_EQ(axis_direction({1, 1e-7f}), -1);
    EXPECT_EQ(axis_direction({0.6f, 0.8f}), -1);
}

} // namespace
} // namespace sweep::detail
