// load_tiled_map on the real-world maps of ../shared/data/maps. The expected
// numbers come from that folder's README (counted by its author with other
// tools) or from reading the file here with plain string search or
// nlohmann::json, never from the loader itself.
#include "tiled_support.hpp"

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using sweep::Aabb;
using sweep::ErrorCode;
using sweep::real;
using sweep::io::load_tiled_map;
using sweep::io::StaticGeometry;
using sweep::io::TiledLoadOptions;
using sweep::test::describe;
using sweep::test::map_file;

constexpr std::uint32_t k_flag_bits = 0xF0000000u;

/// The gids of the CSV <data> of the TMX layer named `layer`, found by string
/// search; <chunk> tags are skipped, so chunks come one after the other.
std::vector<std::uint32_t> csv_gids(const std::string& tmx, const std::string& layer) {
    const std::size_t named = tmx.find("name=\"" + layer + "\"");
    const std::size_t open = tmx.find('>', tmx.find("<data", named));
    const std::size_t close = tmx.find("</data>", open);
    std::vector<std::uint32_t> gids;
    std::string number;
    bool in_tag = false;
    for (std::size_t i = open + 1; i <= close; ++i) {
        const char c = tmx[i];
        in_tag = (c == '<') || (in_tag && c != '>');
        if (c >= '0' && c <= '9' && !in_tag) {
            number += c;
        } else if (!number.empty()) {
            gids.push_back(static_cast<std::uint32_t>(std::stoul(number)));
            number.clear();
        }
    }
    return gids;
}

std::size_t count_tiles(const std::vector<std::uint32_t>& gids) {
    std::size_t n = 0;
    for (std::uint32_t g : gids) {
        n += (g & ~k_flag_bits) != 0;
    }
    return n;
}

StaticGeometry load_ok(const std::string& relative, const TiledLoadOptions& options = {}) {
    auto result = load_tiled_map(map_file(relative), options);
    EXPECT_TRUE(result.has_value()) << relative << ": " << describe(result);
    return result ? std::move(result).value() : StaticGeometry{};
}

/// Absolute tile coordinates of the solid cells.
std::set<std::pair<int, int>> solid_cells(const sweep::io::TileGrid& grid) {
    std::set<std::pair<int, int>> cells;
    for (int y = 0; y < grid.height; ++y) {
        for (int x = 0; x < grid.width; ++x) {
            if (grid.is_solid(grid.min_x + x, grid.min_y + y)) {
                cells.insert({grid.min_x + x, grid.min_y + y});
            }
        }
    }
    return cells;
}

std::size_t count_of(const StaticGeometry& g, const std::string& layer) {
    for (const auto& [name, count] : g.solid_layer_counts) {
        if (name == layer) {
            return count;
        }
    }
    ADD_FAILURE() << "no solid layer " << layer << " in " << g.source;
    return 0;
}

real area(const Aabb& b) { return (b.upper.x - b.lower.x) * (b.upper.y - b.lower.y); }

// --- The Mana World, Ice Labyrinth: 320x320 tiles of 32 px, CSV and gzip twins.

constexpr const char* k_tmw_csv = "tmw-ice-labyrinth/maps-csv-815e2a73/031-3.tmx";
constexpr const char* k_tmw_gzip = "tmw-ice-labyrinth/maps-gzip-df429f12/031-3.tmx";

TEST(TiledTmw, CsvAndGzipTwinsGiveTheSameGeometry) {
    const StaticGeometry csv = load_ok(k_tmw_csv);
    const StaticGeometry gzip = load_ok(k_tmw_gzip);
    for (const StaticGeometry* g : {&csv, &gzip}) {
        EXPECT_EQ(g->solid_tiles, 82641u); // README: 82 641 of 102 400 cells
        EXPECT_EQ(g->length_units_per_meter, real(32));
        EXPECT_EQ(g->tile_width, 32);
        EXPECT_EQ(g->tile_height, 32);
        EXPECT_EQ(g->bounds, (Aabb{{0, -10240}, {10240, 0}}));
        EXPECT_EQ(g->solid_layer_names, std::vector<std::string>{"Collision"});
        EXPECT_EQ(g->grid.width, 320);
        EXPECT_EQ(g->grid.height, 320);
    }
    EXPECT_EQ(csv.grid.solid, gzip.grid.solid);
    EXPECT_EQ(csv.boxes, gzip.boxes);
}

TEST(TiledTmw, CollisionGridMatchesAnIndependentCsvRead) {
    const std::vector<std::uint32_t> gids =
        csv_gids(sweep::test::read_text(map_file(k_tmw_csv)), "Collision");
    ASSERT_EQ(gids.size(), 320u * 320u);
    EXPECT_EQ(count_tiles(gids), 82641u);
    const StaticGeometry g = load_ok(k_tmw_gzip);
    int mismatches = 0;
    for (int row = 0; row < 320; ++row) {
        for (int col = 0; col < 320; ++col) {
            const bool expected =
                (gids[std::size_t(row) * 320 + std::size_t(col)] & ~k_flag_bits) != 0;
            mismatches += g.grid.is_solid(col, row) != expected;
        }
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(TiledTmw, BoxesCoverTheWallsOnceWithYFlippedPixelCoordinates) {
    const StaticGeometry g = load_ok(k_tmw_csv);
    real total = 0;
    for (const Aabb& b : g.boxes) {
        EXPECT_TRUE(sweep::contains(g.bounds, b));
        total += area(b);
    }
    EXPECT_EQ(total, real(82641) * 32 * 32);
    EXPECT_LT(g.boxes.size(), g.solid_tiles / 4); // walls merge into long boxes
    // Tile (c, r) -> world [c*32, (c+1)*32] x [-(r+1)*32, -r*32], checked per box.
    const auto rects = sweep::io::merge_solid_cells(g.grid);
    ASSERT_EQ(rects.size(), g.boxes.size());
    for (std::size_t i = 0; i < rects.size(); ++i) {
        const auto& r = rects[i];
        const Aabb expected{{real(r.x * 32), real(-(r.y + r.h) * 32)},
                            {real((r.x + r.w) * 32), real(-r.y * 32)}};
        ASSERT_EQ(g.boxes[i], expected) << "box " << i;
    }
}

// --- Excalibur example city: 100x100 tiles of 16 px in four TMX encodings.

const std::vector<std::string> k_city_tmx = {
    "excalibur-tiled/example/formats/example-city-gzip.tmx",
    "excalibur-tiled/example/formats/example-city-zlib.tmx",
    "excalibur-tiled/example/formats/example-city-zstd.tmx",
    "excalibur-tiled/example/formats/example-city-infinite-base64-compressed.tmx",
};

TEST(TiledExcaliburCity, FourTmxEncodingsGiveTheSameSolidCellsAndBoxes) {
    const StaticGeometry reference = load_ok(k_city_tmx[0]);
    ASSERT_GT(reference.solid_tiles, 0u);
    for (const std::string& file : k_city_tmx) {
        SCOPED_TRACE(file);
        const StaticGeometry g = load_ok(file);
        EXPECT_EQ(g.length_units_per_meter, real(16));
        EXPECT_EQ(g.solid_layer_names, (std::vector<std::string>{"Solid", "Solid Level 2"}));
        EXPECT_EQ(solid_cells(g.grid), solid_cells(reference.grid));
        EXPECT_EQ(g.solid_tiles, reference.solid_tiles);
        EXPECT_EQ(g.boxes, reference.boxes);
        // The fixed maps are 1600 px square; the infinite one's 16-tile chunks
        // reach past that, so its bounds only contain the fixed ones.
        EXPECT_TRUE(sweep::contains(g.bounds, Aabb{{0, -1600}, {1600, 0}}));
    }
    EXPECT_EQ(reference.bounds, (Aabb{{0, -1600}, {1600, 0}}));
}

TEST(TiledExcaliburCity, PerLayerCountsMatchTheReadme) {
    for (const std::string& file : k_city_tmx) {
        SCOPED_TRACE(file);
        const StaticGeometry g = load_ok(file);
        EXPECT_EQ(count_of(g, "Solid"), 555u);
        EXPECT_EQ(count_of(g, "Solid Level 2"), 338u);
    }
}

TEST(TiledExcaliburCity, SolidTilesAreTheUnionOfBothLayers) {
    const std::string& file = k_city_tmx[2];
    const auto first = solid_cells(load_ok(file, {{"Solid"}}).grid);
    const auto second = solid_cells(load_ok(file, {{"Solid Level 2"}}).grid);
    ASSERT_EQ(first.size(), 555u);
    ASSERT_EQ(second.size(), 338u);
    std::size_t both = 0;
    for (const auto& cell : first) {
        both += second.count(cell);
    }
    EXPECT_EQ(load_ok(file).solid_tiles, 555u + 338u - both);
}

/// Non-empty cells of JSON tile layer `name` in a fixed-size map, as a set.
std::set<std::pair<int, int>> json_layer_cells(const nlohmann::json& map, const std::string& name) {
    std::set<std::pair<int, int>> cells;
    for (const auto& layer : map["layers"]) {
        if (layer["name"] != name) {
            continue;
        }
        const int width = layer["width"];
        const auto& data = layer["data"];
        for (std::size_t i = 0; i < data.size(); ++i) {
            if ((data[i].get<std::uint32_t>() & ~k_flag_bits) != 0) {
                cells.insert({int(i) % width, int(i) / width});
            }
        }
    }
    return cells;
}

TEST(TiledExcaliburCity, TmjSolidLayersMatchAnIndependentJsonRead) {
    const char* file = "excalibur-tiled/example/formats/example-city.tmj";
    const auto json = nlohmann::json::parse(sweep::test::read_text(map_file(file)));
    auto expected = json_layer_cells(json, "Solid");
    const std::size_t solid = expected.size();
    const auto level2 = json_layer_cells(json, "Solid Level 2");
    expected.insert(level2.begin(), level2.end());
    ASSERT_GT(solid, 0u);

    const StaticGeometry g = load_ok(file);
    EXPECT_EQ(g.solid_layer_names, (std::vector<std::string>{"Solid", "Solid Level 2"}));
    EXPECT_EQ(count_of(g, "Solid"), solid);
    EXPECT_EQ(count_of(g, "Solid Level 2"), level2.size());
    EXPECT_EQ(solid_cells(g.grid), expected);
    EXPECT_EQ(g.solid_tiles, expected.size());
    EXPECT_EQ(g.length_units_per_meter, real(16));
    EXPECT_EQ(g.bounds, (Aabb{{0, -1600}, {1600, 0}}));
}

TEST(TiledOrthogonalInfinite, JsonChunksWithNegativeOriginsGiveBoundsAndTheSolidLayer) {
    const StaticGeometry g =
        load_ok("excalibur-tiled/example/orthogonal-infinite/orthogonal-infinite.tmj");
    EXPECT_EQ(g.solid_layer_names, std::vector<std::string>{"Solid"});
    EXPECT_EQ(g.solid_tiles, 23u); // README
    EXPECT_EQ(count_of(g, "Solid"), 23u);
    // Layer "Ground" declares startx=-48, starty=-32, width=112, height=80
    // tiles of 16 px: x in [-768, 1024), Tiled y in [-512, 768).
    EXPECT_EQ(g.bounds, (Aabb{{-768, -768}, {1024, 512}}));
    real total = 0;
    for (const Aabb& b : g.boxes) {
        total += area(b);
    }
    EXPECT_EQ(total, real(23 * 16 * 16));
}

// --- Maps whose solid layer must be named in the options.

TEST(TiledArcade, JsonBase64ZlibPlatformsLayerHas127Tiles) {
    const char* file = "arcade/tiled_maps/map2_level_1.json";
    auto automatic = load_tiled_map(map_file(file));
    ASSERT_FALSE(automatic.has_value());
    EXPECT_EQ(automatic.error().code, ErrorCode::unsupported);
    const StaticGeometry g = load_ok(file, {{"Platforms"}});
    EXPECT_EQ(g.solid_tiles, 127u); // README
    EXPECT_EQ(g.length_units_per_meter, real(128));
    EXPECT_EQ(g.bounds, (Aabb{{0, -17 * 128}, {40 * 128, 0}}));
}

TEST(TiledArcade, JsonArrayPlatformsLayerHas50Tiles) {
    const StaticGeometry g = load_ok("arcade/tiled_maps/map_with_ladders.json", {{"Platforms"}});
    EXPECT_EQ(g.solid_tiles, 50u); // README
}

TEST(TiledMelon, TmxAndJsonTwinsAgreeOnUncompressedBase64Layers) {
    const TiledLoadOptions options{{"Front Layer", "Back Layer 1"}};
    const StaticGeometry tmx = load_ok("melonjs-platformer/map/map1.tmx", options);
    const StaticGeometry json = load_ok("melonjs-platformer/map/map1.json", options);
    EXPECT_GT(tmx.solid_tiles, 0u);
    EXPECT_EQ(tmx.grid.solid, json.grid.solid);
    EXPECT_EQ(tmx.boxes, json.boxes);
    EXPECT_EQ(tmx.solid_layer_counts, json.solid_layer_counts);
    EXPECT_EQ(tmx.length_units_per_meter, real(35));
}

TEST(TiledMelon, ObjectLayerNamedCollisionIsNotASolidTileLayer) {
    auto result = load_tiled_map(map_file("melonjs-platformer/map/map1.tmx"));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::unsupported);
    EXPECT_NE(result.error().message.find("map1.tmx"), std::string::npos);
    EXPECT_NE(result.error().message.find("no solid tile layer"), std::string::npos);
    EXPECT_NE(result.error().message.find("solid_layers"), std::string::npos);
}

TEST(TiledBevy, InfiniteCsvChunksWithNegativeOriginAndCrlf) {
    const char* file = "bevy-ecs-tiled/demo_platformer/demo.tmx";
    const auto gids = csv_gids(sweep::test::read_text(map_file(file)), "Terrain");
    ASSERT_EQ(gids.size(), 2u * 16u * 16u);
    const StaticGeometry g = load_ok(file, {{"Terrain"}});
    EXPECT_EQ(g.solid_tiles, count_tiles(gids));
    EXPECT_EQ(g.grid.min_x, -16);
    EXPECT_EQ(g.grid.min_y, 0);
    EXPECT_EQ(g.grid.width, 32);
    EXPECT_EQ(g.grid.height, 16);
    EXPECT_EQ(g.bounds, (Aabb{{-16 * 128, -16 * 128}, {16 * 128, 0}}));
}

TEST(TiledTmxlite, GroupNameSelectsItsTileLayers) {
    const StaticGeometry g = load_ok("tmxlite/ParseTest/maps/platform.tmx", {{"TestGroup"}});
    EXPECT_EQ(g.solid_layer_names, (std::vector<std::string>{"Far", "Middle", "Near"}));
    EXPECT_GT(g.solid_tiles, 0u);
    EXPECT_EQ(g.bounds, (Aabb{{0, -2560}, {12800, 0}})); // README: 12 800 x 2 560 px
}

TEST(TiledStickerKnight, MapWithoutTileLayersReportsNoSolidLayer) {
    auto result = load_tiled_map(map_file("tiled-sticker-knight/map/sandbox.tmx"));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::unsupported);
    EXPECT_NE(result.error().message.find("sandbox.tmx"), std::string::npos);
}

} // namespace
