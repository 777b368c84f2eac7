// load_tiled_map on the real-world maps of ../shared/data/maps. The expected
// numbers come from that folder's README (counted by its author with other
// tools) or from reading the file here with plain string search or
// nlohmann::json, never from the loader itself.
#include "tiled_support.hpp"

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
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
    if (named == std::string::npos || close == std::string::npos) {
        return gids; // no such layer (or no file): the caller's size check fails
    }
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
    const auto first = solid_cells(load_ok(file, sweep::test::solid_layers({"Solid"})).grid);
    const auto second =
        solid_cells(load_ok(file, sweep::test::solid_layers({"Solid Level 2"})).grid);
    ASSERT_EQ(first.size(), 555u);
    ASSERT_EQ(second.size(), 338u);
    std::size_t both = 0;
    for (const auto& cell : first) {
        both += second.count(cell);
    }
    EXPECT_EQ(load_ok(file).solid_tiles, 555u + 338u - both);
}

/// Local ids of the tiles of the first (embedded) tileset that have collision shapes.
std::set<std::uint32_t> tiles_with_shapes(const nlohmann::json& map) {
    std::set<std::uint32_t> ids;
    for (const auto& tile : map["tilesets"][0].value("tiles", nlohmann::json::array())) {
        if (tile.contains("objectgroup") && !tile["objectgroup"]["objects"].empty()) {
            ids.insert(tile["id"].get<std::uint32_t>());
        }
    }
    return ids;
}

TEST(TiledExcaliburCity, TmjSolidLayersMatchAnIndependentJsonRead) {
    const char* file = "excalibur-tiled/example/formats/example-city.tmj";
    const auto json = nlohmann::json::parse(sweep::test::read_text(map_file(file)));
    const auto shaped = tiles_with_shapes(json);
    EXPECT_EQ(shaped.size(), 40u); // README: 40 tiles with collision shapes
    // Cells of the solid layers whose tile has no shapes of its own fill
    // their cell; the others collide by their shapes.
    std::set<std::pair<int, int>> expected;
    std::size_t solid = 0, level2 = 0;
    for (const auto& layer : json["layers"]) {
        const std::string name = layer["name"];
        if (name != "Solid" && name != "Solid Level 2") {
            continue;
        }
        const int width = layer["width"];
        for (std::size_t i = 0; i < layer["data"].size(); ++i) {
            const std::uint32_t gid = layer["data"][i].get<std::uint32_t>() & ~k_flag_bits;
            if (gid == 0) {
                continue;
            }
            ++(name == "Solid" ? solid : level2);
            if (gid <= 486 && !shaped.count(gid - 1)) {
                expected.insert({int(i) % width, int(i) / width});
            }
        }
    }
    ASSERT_GT(solid, 0u);

    const StaticGeometry g = load_ok(file);
    ASSERT_GE(g.solid_layer_names.size(), 2u);
    EXPECT_EQ(g.solid_layer_names[0], "Solid");
    EXPECT_EQ(g.solid_layer_names[1], "Solid Level 2");
    EXPECT_EQ(count_of(g, "Solid"), solid);
    EXPECT_EQ(count_of(g, "Solid Level 2"), level2);
    EXPECT_EQ(solid_cells(g.grid), expected);
    EXPECT_EQ(g.solid_tiles, expected.size());
    EXPECT_GT(g.polygons.size(), 0u); // the per-tile shapes
    EXPECT_EQ(g.length_units_per_meter, real(16));
    EXPECT_EQ(g.bounds, (Aabb{{0, -1600}, {1600, 0}}));
    // README: cone.tx and collectable.tx are dangling; each is one warning
    // naming the object, and the map still loads.
    std::size_t dangling = 0;
    for (const std::string& w : g.warnings) {
        dangling +=
            w.find("cone.tx") != std::string::npos && w.find("object id 44") != std::string::npos;
        dangling += w.find("collectable.tx") != std::string::npos &&
                    w.find("object id 48") != std::string::npos;
    }
    EXPECT_EQ(dangling, 2u);
}

TEST(TiledOrthogonalInfinite, JsonChunksWithNegativeOriginsGiveBoundsAndTheSolidLayer) {
    const StaticGeometry g =
        load_ok("excalibur-tiled/example/orthogonal-infinite/orthogonal-infinite.tmj");
    ASSERT_FALSE(g.solid_layer_names.empty());
    EXPECT_EQ(g.solid_layer_names[0], "Solid");
    EXPECT_EQ(count_of(g, "Solid"), 23u); // README
    EXPECT_LE(g.solid_tiles, 23u);
    // Layer "Ground" declares startx=-48, starty=-32, width=112, height=80
    // tiles of 16 px: x in [-768, 1024), Tiled y in [-512, 768).
    EXPECT_EQ(g.bounds, (Aabb{{-768, -768}, {1024, 512}}));
    // The coin template (XML, from a JSON map) has its own tileset, whose
    // tile 93 has a polygon: it is a tile with a collision shape.
    EXPECT_GE(g.polygons.size(), 1u);
    EXPECT_TRUE(g.warnings.empty()) << g.warnings.front();
}

// --- Maps whose collision is in tile layers named Platforms or per-tile shapes.

TEST(TiledArcade, JsonBase64ZlibPlatformsLayerHas127Tiles) {
    const char* file = "arcade/tiled_maps/map2_level_1.json";
    const StaticGeometry automatic = load_ok(file);
    EXPECT_EQ(count_of(automatic, "Platforms"), 127u); // README
    const StaticGeometry g = load_ok(file, sweep::test::solid_layers({"Platforms"}));
    EXPECT_EQ(count_of(g, "Platforms"), 127u);
    EXPECT_EQ(g.solid_layer_names, std::vector<std::string>{"Platforms"});
    // Tiles with hit boxes (slopes, half blocks, closed polylines) are
    // polygons; the other 128-px tiles fill their cells.
    EXPECT_LT(g.solid_tiles, 127u);
    EXPECT_GT(g.polygons.size(), 0u);
    EXPECT_TRUE(g.segments.empty()); // the closed polylines are solid outlines
    EXPECT_EQ(g.length_units_per_meter, real(128));
    EXPECT_EQ(g.bounds, (Aabb{{0, -17 * 128}, {40 * 128, 0}}));
}

TEST(TiledArcade, JsonArrayPlatformsLayerHas50TilesFromExternalJsonTilesets) {
    const StaticGeometry g = load_ok("arcade/tiled_maps/map_with_ladders.json");
    EXPECT_EQ(count_of(g, "Platforms"), 50u); // README
    // items.json gives three coins a round ellipse: circles.
    EXPECT_GT(g.circles.size(), 0u);
    for (const sweep::Circle& c : g.circles) {
        EXPECT_EQ(c.radius, real(32));
    }
}

TEST(TiledArcade, TilesetsGivenAsTheMapAreRefusedAsBadInput) {
    for (const char* name : {"dirt.json", "grass.json", "items.json", "more_tiles.json"}) {
        SCOPED_TRACE(name);
        auto result = load_tiled_map(map_file(std::string("arcade/tiled_maps/") + name));
        ASSERT_FALSE(result.has_value());
        EXPECT_EQ(result.error().code, ErrorCode::invalid_input);
        EXPECT_NE(result.error().message.find("tileset"), std::string::npos);
        EXPECT_NE(result.error().message.find("not a map"), std::string::npos);
        EXPECT_NE(result.error().message.find(name), std::string::npos);
    }
}

/// Polygons as sorted vertex lists, for comparing twins.
std::vector<std::vector<std::pair<real, real>>> polygon_set(const StaticGeometry& g) {
    std::vector<std::vector<std::pair<real, real>>> out;
    for (const sweep::Polygon& p : g.polygons) {
        std::vector<std::pair<real, real>> v;
        for (int i = 0; i < p.count; ++i) {
            v.push_back({p.vertices[std::size_t(i)].x, p.vertices[std::size_t(i)].y});
        }
        std::sort(v.begin(), v.end());
        out.push_back(v);
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(TiledMelon, TmxAndJsonTwinsAgreeOnUncompressedBase64Layers) {
    const TiledLoadOptions options = sweep::test::solid_layers({"Front Layer", "Back Layer 1"});
    const StaticGeometry tmx = load_ok("melonjs-platformer/map/map1.tmx", options);
    const StaticGeometry json = load_ok("melonjs-platformer/map/map1.json", options);
    EXPECT_GT(tmx.solid_tiles, 0u);
    EXPECT_EQ(tmx.grid.solid, json.grid.solid);
    EXPECT_EQ(tmx.boxes, json.boxes);
    EXPECT_EQ(tmx.solid_layer_counts, json.solid_layer_counts);
    EXPECT_EQ(tmx.length_units_per_meter, real(35));
}

TEST(TiledMelon, CollisionObjectLayerGivesRectanglesASlopeAndTwoSidedSegmentsInBothTwins) {
    const StaticGeometry tmx = load_ok("melonjs-platformer/map/map1.tmx");
    const StaticGeometry json = load_ok("melonjs-platformer/map/map1.json");
    // README: 10 rectangles, 1 polygon, 8 polylines (single segments).
    using Counts = std::vector<std::pair<std::string, std::size_t>>;
    EXPECT_EQ(tmx.object_layer_counts, (Counts{{"Collision", 19}}));
    EXPECT_EQ(tmx.polygons.size(), 11u);
    EXPECT_EQ(tmx.segments.size(), 8u);
    EXPECT_TRUE(tmx.solid_layer_names.empty());
    EXPECT_EQ(polygon_set(tmx), polygon_set(json));
    ASSERT_EQ(tmx.segments.size(), json.segments.size());
    for (std::size_t i = 0; i < tmx.segments.size(); ++i) {
        EXPECT_EQ(tmx.segments[i].p1, json.segments[i].p1);
        EXPECT_EQ(tmx.segments[i].p2, json.segments[i].p2);
    }
    // Object 15: a vertical wall at x = 0 from Tiled y 981 up to 351.
    bool found = false;
    for (const sweep::Segment& s : tmx.segments) {
        found = found || (s.p1 == sweep::Vec2{0, -981} && s.p2 == sweep::Vec2{0, -351});
    }
    EXPECT_TRUE(found);
}

TEST(TiledBevy, InfiniteCsvChunksWithNegativeOriginAndCrlf) {
    const char* file = "bevy-ecs-tiled/demo_platformer/demo.tmx";
    const auto gids = csv_gids(sweep::test::read_text(map_file(file)), "Terrain");
    ASSERT_EQ(gids.size(), 2u * 16u * 16u);
    const StaticGeometry g = load_ok(file, sweep::test::solid_layers({"Terrain"}));
    EXPECT_EQ(count_of(g, "Terrain"), count_tiles(gids));
    EXPECT_EQ(g.grid.min_x, -16);
    EXPECT_EQ(g.grid.min_y, 0);
    EXPECT_EQ(g.grid.width, 32);
    EXPECT_EQ(g.grid.height, 16);
    EXPECT_EQ(g.bounds, (Aabb{{-16 * 128, -16 * 128}, {16 * 128, 0}}));
}

TEST(TiledBevy, TilesetCollisionShapesMakeTerrainSolidWithoutConfiguration) {
    const StaticGeometry g = load_ok("bevy-ecs-tiled/demo_platformer/demo.tmx");
    EXPECT_EQ(g.solid_layer_names, std::vector<std::string>{"Terrain"});
    EXPECT_GT(g.solid_tiles, 0u);               // full 128x128 blocks
    EXPECT_GT(g.polygons.size(), 0u);           // half blocks and slopes
    EXPECT_TRUE(g.object_layer_counts.empty()); // points, a patrol route and triggers
}

TEST(TiledTmxlite, GroupNameSelectsItsTileLayers) {
    const StaticGeometry g =
        load_ok("tmxlite/ParseTest/maps/platform.tmx", sweep::test::solid_layers({"TestGroup"}));
    EXPECT_EQ(g.solid_layer_names, (std::vector<std::string>{"Far", "Middle", "Near"}));
    EXPECT_GT(g.solid_tiles, 0u);
    EXPECT_EQ(g.bounds, (Aabb{{0, -2560}, {12800, 0}})); // README: 12 800 x 2 560 px
}

TEST(TiledTmxlite, DrawnObjectsCollideWhenNothingIsMarked) {
    const StaticGeometry g = load_ok("tmxlite/ParseTest/maps/platform.tmx");
    // README: 20 rectangles, 7 polylines, 2 polygons, 1 ellipse.
    using Counts = std::vector<std::pair<std::string, std::size_t>>;
    EXPECT_EQ(g.object_layer_counts, (Counts{{"Objects", 30}}));
    EXPECT_EQ(g.solid_tiles, 0u);
    EXPECT_TRUE(g.circles.empty()); // the 128x64 ellipse is not round
    // The layer offset (1, -2) moves object 1 (x 128, y 2496, 2240 x 64).
    const std::vector<std::pair<real, real>> moved = {
        {129, -2558}, {129, -2494}, {2369, -2558}, {2369, -2494}};
    const auto all = polygon_set(g);
    EXPECT_NE(std::find(all.begin(), all.end(), moved), all.end());
}

TEST(TiledStickerKnight, StaticBodiesOfAnObjectOnlyMap) {
    const StaticGeometry g = load_ok("tiled-sticker-knight/map/sandbox.tmx");
    // README: 16 tile objects with bodyType static in layer ground, 2
    // rectangles in the hidden layer bounds; the template blocks are dynamic.
    using Counts = std::vector<std::pair<std::string, std::size_t>>;
    EXPECT_EQ(g.object_layer_counts, (Counts{{"ground", 16}, {"bounds", 2}}));
    EXPECT_GE(g.polygons.size(), 18u); // rotated tile rectangles, one each
    EXPECT_EQ(g.solid_tiles, 0u);
    EXPECT_TRUE(g.warnings.empty()) << g.warnings.front();
}

TEST(TiledTwins, EveryEncodingOfAMapGivesTheSameShapes) {
    const std::vector<std::vector<std::string>> twins = {
        {"melonjs-platformer/map/map1.tmx", "melonjs-platformer/map/map1.json"},
        {k_tmw_csv, k_tmw_gzip},
        {k_city_tmx[0], k_city_tmx[1], k_city_tmx[2]}};
    for (const auto& group : twins) {
        const StaticGeometry first = load_ok(group[0]);
        for (const std::string& other : group) {
            SCOPED_TRACE(other);
            const StaticGeometry g = load_ok(other);
            EXPECT_EQ(g.boxes, first.boxes);
            EXPECT_EQ(polygon_set(g), polygon_set(first));
            EXPECT_EQ(g.circles.size(), first.circles.size());
            EXPECT_EQ(g.segments.size(), first.segments.size());
            EXPECT_EQ(g.counts.before_merge, first.counts.before_merge);
            EXPECT_EQ(g.counts.after_merge, first.counts.after_merge);
        }
    }
}

TEST(TiledAllMaps, EveryMapOfTheSharedFolderLoadsWithShapes) {
    const std::vector<std::string> maps = {
        "tiled-sticker-knight/map/sandbox.tmx",
        "melonjs-platformer/map/map1.tmx",
        "melonjs-platformer/map/map1.json",
        "arcade/tiled_maps/map2_level_1.json",
        "arcade/tiled_maps/map_with_ladders.json",
        "bevy-ecs-tiled/demo_platformer/demo.tmx",
        "tmxlite/ParseTest/maps/platform.tmx",
        k_tmw_csv,
        k_tmw_gzip,
        "excalibur-tiled/example/formats/example-city.tmj",
        "excalibur-tiled/example/orthogonal-infinite/orthogonal-infinite.tmj"};
    std::vector<std::string> all = maps;
    all.insert(all.end(), k_city_tmx.begin(), k_city_tmx.end());
    for (const std::string& file : all) {
        SCOPED_TRACE(file);
        const StaticGeometry g = load_ok(file);
        EXPECT_GT(g.counts.after_merge, 0u);
        EXPECT_LE(g.counts.after_merge, g.counts.before_merge);
        EXPECT_EQ(g.counts.after_merge,
                  g.boxes.size() + g.polygons.size() + g.circles.size() + g.segments.size());
        for (const sweep::Polygon& p : g.polygons) {
            ASSERT_GE(p.count, 3);
            ASSERT_LE(p.count, sweep::k_max_polygon_vertices);
            for (int i = 0; i < p.count; ++i) {
                const sweep::Vec2 a = p.vertices[std::size_t(i)];
                const sweep::Vec2 b = p.vertices[std::size_t((i + 1) % p.count)];
                const sweep::Vec2 c = p.vertices[std::size_t((i + 2) % p.count)];
                EXPECT_GT((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x), 0)
                    << "convex, counter-clockwise";
            }
            EXPECT_TRUE(sweep::contains(g.bounds, Aabb{p.centroid, p.centroid}));
        }
    }
}

} // namespace
