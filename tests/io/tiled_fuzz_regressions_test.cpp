// Inputs that broke an invariant of load_tiled_map checked by the libFuzzer
// targets (fuzz/check_geometry.hpp), kept as regression tests. Each names
// the invariant; the inputs are also seeds in fuzz/corpus/.
#include "tiled_support.hpp"

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

namespace {

using sweep::ErrorCode;
using sweep::real;
using sweep::io::load_tiled_map_from_memory;
using sweep::test::describe;

/// A one-tile-solid infinite map of 1x1-pixel tiles: one chunk of two cells
/// at tile column `x`, the first solid.
std::string far_chunk_map(long long x) {
    return "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"1\" "
           "tileheight=\"1\" infinite=\"1\">\n<layer name=\"collision\" width=\"2\" "
           "height=\"1\"><data encoding=\"csv\"><chunk x=\"" +
           std::to_string(x) +
           "\" y=\"0\" width=\"2\" height=\"1\">1,0</chunk></data></layer>\n"
           "</map>\n";
}

// "boxes are not empty": at x = 10^8 pixels the two x edges
// of the box rounded to the same float.
TEST(TiledFuzzRegressions, FarChunkGivesAnExactBoxOrIsRefused) {
    const auto map = load_tiled_map_from_memory(far_chunk_map(100000000), "far.tmx");
    if constexpr (std::numeric_limits<real>::digits < 28) {
        ASSERT_FALSE(map.has_value());
        EXPECT_EQ(map.error().code, ErrorCode::limit_exceeded);
        EXPECT_NE(map.error().message.find("pixel coordinate 100000002"), std::string::npos)
            << map.error().message;
    } else {
        ASSERT_TRUE(map.has_value()) << describe(map);
        ASSERT_EQ(map->boxes.size(), 1u);
        EXPECT_EQ(map->boxes[0].lower.x, real(100000000));
        EXPECT_EQ(map->boxes[0].upper.x, real(100000001));
    }
}

TEST(TiledFuzzRegressions, ChunkEndingAtTheExactLimitLoads) {
    // The exactness limit (2^24 for float), or the 2^28-tile budget for double.
    const long long limit = std::min(1ll << std::numeric_limits<real>::digits, 1ll << 28);
    const auto map = load_tiled_map_from_memory(far_chunk_map(limit - 2), "edge.tmx");
    ASSERT_TRUE(map.has_value()) << describe(map);
    ASSERT_EQ(map->boxes.size(), 1u);
    EXPECT_EQ(map->boxes[0].lower.x, real(limit - 2));
    EXPECT_EQ(map->boxes[0].upper.x, real(limit - 1));
}

// "a layer paints at most the grid": a cell repeated by overlapping chunks
// of one layer was counted once per chunk.
TEST(TiledFuzzRegressions, OverlappingChunksCountACellOnce) {
    std::string chunks;
    for (int i = 0; i < 3; ++i) {
        chunks += "<chunk x=\"0\" y=\"0\" width=\"2\" height=\"1\">1,0</chunk>";
    }
    const std::string text = "<map orientation=\"orthogonal\" tilewidth=\"8\" tileheight=\"8\" "
                             "infinite=\"1\"><layer name=\"collision\"><data encoding=\"csv\">" +
                             chunks + "</data></layer></map>";
    const auto map = load_tiled_map_from_memory(text, "dup.tmx");
    ASSERT_TRUE(map.has_value()) << describe(map);
    EXPECT_EQ(map->solid_tiles, 1u);
    ASSERT_EQ(map->solid_layer_counts.size(), 1u);
    EXPECT_EQ(map->solid_layer_counts[0].second, 1u);
}

TEST(TiledFuzzRegressions, SameCellInTwoLayersCountsInEach) {
    const std::string layer = "<data encoding=\"csv\"><chunk x=\"-1\" y=\"0\" width=\"1\" "
                              "height=\"1\">7</chunk></data>";
    const std::string text = "<map orientation=\"orthogonal\" tilewidth=\"8\" tileheight=\"8\" "
                             "infinite=\"1\"><layer name=\"solid\">" +
                             layer + "</layer><layer name=\"walls\">" + layer + "</layer></map>";
    const auto map = load_tiled_map_from_memory(text, "two.tmx");
    ASSERT_TRUE(map.has_value()) << describe(map);
    EXPECT_EQ(map->solid_tiles, 1u);
    ASSERT_EQ(map->solid_layer_counts.size(), 2u);
    EXPECT_EQ(map->solid_layer_counts[0].second, 1u);
    EXPECT_EQ(map->solid_layer_counts[1].second, 1u);
}

} // namespace
