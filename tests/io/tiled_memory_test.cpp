// load_tiled_map_from_memory: a map held in memory loads exactly as the same
// bytes in a file, and the name given stands for the file everywhere.
#include "tiled_support.hpp"

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using sweep::ErrorCode;
using sweep::io::load_tiled_map;
using sweep::io::load_tiled_map_from_memory;
using sweep::io::TiledLoadOptions;
using sweep::test::describe;
using sweep::test::map_file;
using sweep::test::read_text;
using sweep::test::tmx_map;

/// Loads `relative` (a shared map) from its file and from memory under the
/// same name, and expects the same geometry.
void expect_same_as_file(const std::string& relative, const TiledLoadOptions& options = {}) {
    const auto file = map_file(relative);
    const auto from_file = load_tiled_map(file, options);
    const auto from_memory = load_tiled_map_from_memory(read_text(file), file.string(), options);
    ASSERT_TRUE(from_file.has_value()) << describe(from_file);
    ASSERT_TRUE(from_memory.has_value()) << describe(from_memory);
    EXPECT_EQ(from_memory->source, from_file->source);
    EXPECT_EQ(from_memory->solid_tiles, from_file->solid_tiles);
    EXPECT_EQ(from_memory->boxes, from_file->boxes);
    EXPECT_EQ(from_memory->bounds, from_file->bounds);
    EXPECT_EQ(from_memory->grid.solid, from_file->grid.solid);
    EXPECT_EQ(from_memory->solid_layer_counts, from_file->solid_layer_counts);
}

TEST(TiledMemory, CsvTmxLoadsAsFromItsFile) {
    expect_same_as_file("tmw-ice-labyrinth/maps-csv-815e2a73/031-3.tmx");
}

TEST(TiledMemory, ZstdTmxLoadsAsFromItsFile) {
    expect_same_as_file("excalibur-tiled/example/formats/example-city-zstd.tmx");
}

TEST(TiledMemory, JsonMapWithNamedLayerLoadsAsFromItsFile) {
    TiledLoadOptions options;
    options.solid_layers = {"Front Layer"};
    expect_same_as_file("melonjs-platformer/map/map1.json", options);
}

TEST(TiledMemory, NameIsTheSourceAndNothingIsOpened) {
    // The map names an external tileset that does not exist; only the tile
    // layer is read, so it loads.
    const std::string text = tmx_map(2, 1, "Collision", "<data encoding=\"csv\">1,0</data>");
    const auto map = load_tiled_map_from_memory(text, "levels/one.tmx");
    ASSERT_TRUE(map.has_value()) << describe(map);
    EXPECT_EQ(map->source, "levels/one.tmx");
    EXPECT_EQ(map->solid_tiles, 1u);
}

TEST(TiledMemory, ErrorsNameTheGivenName) {
    const auto broken = load_tiled_map_from_memory("<map width=", "broken.tmx");
    ASSERT_FALSE(broken.has_value());
    EXPECT_EQ(broken.error().code, ErrorCode::parse_error);
    EXPECT_EQ(broken.error().message.rfind("broken.tmx: ", 0), 0u) << broken.error().message;

    const auto empty = load_tiled_map_from_memory(" \r\n", "empty.tmj");
    ASSERT_FALSE(empty.has_value());
    EXPECT_EQ(empty.error().code, ErrorCode::parse_error);
    EXPECT_EQ(empty.error().message, "empty.tmj: empty file");

    const auto neither = load_tiled_map_from_memory("map", "neither");
    ASSERT_FALSE(neither.has_value());
    EXPECT_EQ(neither.error().code, ErrorCode::parse_error);
    EXPECT_NE(neither.error().message.find("neither a TMX"), std::string::npos);
}

} // namespace
