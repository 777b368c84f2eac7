// load_tiled_map on small hand-written maps: every tile-data encoding gives
// the same cells, flag bits are masked, and the solid-layer rules (names,
// properties, groups, options) pick the layers the documentation promises.
#include "tiled_support.hpp"

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using sweep::Aabb;
using sweep::ErrorCode;
using sweep::real;
using sweep::io::load_tiled_map;
using sweep::io::StaticGeometry;
using sweep::io::TiledLoadOptions;
using sweep::test::base64_encode;
using sweep::test::describe;
using sweep::test::gid_bytes;
using sweep::test::TempDir;
using sweep::test::tmx_map;

// A 3x2 layer. Row 0: a tile, empty, an H-flipped tile. Row 1: empty, flag
// bits with no tile (empty), a tile with the hexagonal-rotation bit.
const std::vector<std::uint32_t> k_gids = {1, 0, 0x80000001u, 0, 0x80000000u, 0x10000001u};
const char* k_csv = "\r\n1, 0,2147483649,\r\n0,2147483648 ,268435457\r\n";

/// The expected geometry of k_gids with 16x8-pixel tiles.
void expect_k_gids_geometry(const sweep::Result<StaticGeometry>& result) {
    ASSERT_TRUE(result.has_value()) << describe(result);
    const StaticGeometry& g = result.value();
    EXPECT_EQ(g.solid_tiles, 3u);
    EXPECT_TRUE(g.grid.is_solid(0, 0));
    EXPECT_FALSE(g.grid.is_solid(1, 0));
    EXPECT_TRUE(g.grid.is_solid(2, 0));
    EXPECT_FALSE(g.grid.is_solid(1, 1));
    EXPECT_TRUE(g.grid.is_solid(2, 1));
    EXPECT_EQ(g.length_units_per_meter, real(8));
    EXPECT_EQ(g.bounds, (Aabb{{0, -16}, {48, 0}}));
    // Column 0 row 0; then column 2, rows 0-1 merged (x right, y flipped).
    EXPECT_EQ(g.boxes, (std::vector<Aabb>{{{0, -8}, {16, 0}}, {{32, -16}, {48, 0}}}));
}

TEST(TiledEncodings, CsvWithCrlfSpacesAndTrailingCommaMasksFlagBits) {
    TempDir dir;
    const auto file =
        dir.write("csv.tmx", tmx_map(3, 2, "Collision",
                                     std::string("<data encoding=\"csv\">") + k_csv + ",</data>"));
    expect_k_gids_geometry(load_tiled_map(file));
}

TEST(TiledEncodings, EveryBase64CompressionGivesTheSameCells) {
    TempDir dir;
    const std::string raw = gid_bytes(k_gids);
    const std::vector<std::pair<std::string, std::string>> variants = {
        {"", raw},
        {"zlib", sweep::test::deflate_bytes(raw, false)},
        {"gzip", sweep::test::deflate_bytes(raw, true)},
        {"zstd", sweep::test::zstd_bytes(raw)},
    };
    for (const auto& [compression, bytes] : variants) {
        SCOPED_TRACE("compression " + compression);
        const std::string attribute =
            compression.empty() ? "" : " compression=\"" + compression + "\"";
        const auto file = dir.write("b64" + compression + ".tmx",
                                    tmx_map(3, 2, "Collision",
                                            "<data encoding=\"base64\"" + attribute + ">\n   " +
                                                base64_encode(bytes) + "\n  </data>"));
        expect_k_gids_geometry(load_tiled_map(file));
    }
}

TEST(TiledEncodings, EachFlagBitAloneIsAnEmptyCellAndWithAnIdATile) {
    TempDir dir;
    // Row 0: bits 31, 30, 29, 28 alone. Row 1: the same bits on gid 1.
    const auto file = dir.write(
        "flags.tmx", tmx_map(4, 2, "Collision",
                             "<data encoding=\"csv\">2147483648,1073741824,536870912,268435456,\n"
                             "2147483649,1073741825,536870913,268435457</data>"));
    auto result = load_tiled_map(file);
    ASSERT_TRUE(result.has_value()) << describe(result);
    EXPECT_EQ(result->solid_tiles, 4u);
    EXPECT_EQ(result->boxes, (std::vector<Aabb>{{{0, -16}, {64, -8}}}));
}

TEST(TiledEncodings, LegacyXmlTileElements) {
    TempDir dir;
    std::string data = "<data>";
    for (std::uint32_t g : k_gids) {
        data += g == 0 ? "<tile/>" : "<tile gid=\"" + std::to_string(g) + "\"/>";
    }
    data += "</data>";
    expect_k_gids_geometry(load_tiled_map(dir.write("xml.tmx", tmx_map(3, 2, "Collision", data))));
}

std::string json_map(const std::string& layer_fields, bool infinite = false) {
    return std::string(
               R"({"type":"map","orientation":"orthogonal","tilewidth":16,"tileheight":8,)") +
           R"("width":3,"height":2,"infinite":)" + (infinite ? "true" : "false") +
           R"(,"tilesets":[{"firstgid":1,"name":"t","tilewidth":16,"tileheight":8}],"layers":[{"type":"tilelayer","name":"Collision",)" +
           layer_fields + "}]}";
}

TEST(TiledEncodings, JsonArrayAndBase64StringsGiveTheSameCells) {
    TempDir dir;
    const std::string raw = gid_bytes(k_gids);
    const std::vector<std::string> layers = {
        R"("width":3,"height":2,"data":[1,0,2147483649,0,2147483648,268435457])",
        R"("width":3,"height":2,"encoding":"base64","compression":"","data":")" +
            base64_encode(raw) + "\"",
        R"("width":3,"height":2,"encoding":"base64","compression":"zlib","data":")" +
            base64_encode(sweep::test::deflate_bytes(raw, false)) + "\"",
        R"("width":3,"height":2,"encoding":"base64","compression":"gzip","data":")" +
            base64_encode(sweep::test::deflate_bytes(raw, true)) + "\"",
        R"("width":3,"height":2,"encoding":"base64","compression":"zstd","data":")" +
            base64_encode(sweep::test::zstd_bytes(raw)) + "\"",
    };
    for (std::size_t i = 0; i < layers.size(); ++i) {
        SCOPED_TRACE(layers[i]);
        expect_k_gids_geometry(
            load_tiled_map(dir.write(std::to_string(i) + ".tmj", json_map(layers[i]))));
    }
}

TEST(TiledInfinite, JsonChunksAtNegativeOriginsPlaceCellsAbsolutely) {
    TempDir dir;
    const auto file = dir.write(
        "inf.json", json_map(R"("chunks":[{"x":-2,"y":-1,"width":2,"height":1,"data":[0,5]},)"
                             R"({"x":0,"y":3,"width":1,"height":1,"data":[7]}],)"
                             R"("startx":-2,"starty":-1,"width":4,"height":5)",
                             true));
    auto result = load_tiled_map(file);
    ASSERT_TRUE(result.has_value()) << describe(result);
    const auto& g = result.value();
    EXPECT_EQ(g.grid.min_x, -2);
    EXPECT_EQ(g.grid.min_y, -1);
    EXPECT_EQ(g.grid.width, 3);
    EXPECT_EQ(g.grid.height, 5);
    EXPECT_TRUE(g.grid.is_solid(-1, -1));
    EXPECT_TRUE(g.grid.is_solid(0, 3));
    EXPECT_EQ(g.solid_tiles, 2u);
    // Tile (-1,-1) is pixels [-16,0] x [-8,0] in Tiled, so world y in [0, 8].
    EXPECT_EQ(g.boxes, (std::vector<Aabb>{{{-16, 0}, {0, 8}}, {{0, -32}, {16, -24}}}));
    EXPECT_EQ(g.bounds, (Aabb{{-32, -32}, {16, 8}}));
}

TEST(TiledInfinite, TmxCsvChunksAndEmptyChunkList) {
    TempDir dir;
    const std::string text =
        "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"4\" tileheight=\"4\" "
        "infinite=\"1\">"
        "<layer name=\"Solid\"><data encoding=\"csv\">"
        "<chunk x=\"-3\" y=\"2\" width=\"2\" height=\"1\">3,0</chunk></data></layer>"
        "<layer name=\"Empty\"><data encoding=\"csv\"/></layer></map>";
    auto result = load_tiled_map(dir.write("inf.tmx", text));
    ASSERT_TRUE(result.has_value()) << describe(result);
    EXPECT_EQ(result->solid_tiles, 1u);
    EXPECT_TRUE(result->grid.is_solid(-3, 2));
    EXPECT_EQ(result->boxes, (std::vector<Aabb>{{{-12, -12}, {-8, -8}}}));
}

// --- Which layers are solid.

/// A TMX map of 1x1-tile layers, each with one tile; `layers` is the XML
/// between <map> and </map>.
std::string one_cell_layers(const std::string& layers) {
    return "<?xml version=\"1.0\"?><map version=\"1.0\" orientation=\"orthogonal\" width=\"1\" "
           "height=\"1\" tilewidth=\"32\" tileheight=\"32\">" +
           layers + "</map>";
}

std::string layer(const std::string& name, const std::string& extra = "",
                  const std::string& properties = "") {
    return "<layer name=\"" + name + "\" width=\"1\" height=\"1\"" + extra + ">" +
           (properties.empty() ? "" : "<properties>" + properties + "</properties>") +
           "<data encoding=\"csv\">1</data></layer>";
}

std::string property(const std::string& name, const std::string& value,
                     const std::string& type = "bool") {
    return "<property name=\"" + name + "\" type=\"" + type + "\" value=\"" + value + "\"/>";
}

std::vector<std::string> solid_names(const std::string& layers,
                                     const TiledLoadOptions& options = {}) {
    TempDir dir;
    auto result = load_tiled_map(dir.write("rules.tmx", one_cell_layers(layers)), options);
    EXPECT_TRUE(result.has_value()) << describe(result);
    return result ? result->solid_layer_names : std::vector<std::string>{};
}

TEST(TiledSolidLayers, NamesPropertiesGroupsAndHiddenLayersFollowTheAutomaticRule) {
    const std::string layers =
        layer("Decor") + layer("WALLS") + layer("collision", " visible=\"0\"") +
        layer("Collision", "", property("solid", "false")) +
        layer("Bricks", "", property("collides", "1", "int")) +
        layer("Rocks", "", property("Collision", "true", "string")) +
        layer("Water", "", property("solid", "maybe", "string")) +
        "<group name=\"Walls\"><layer name=\"Inner\" width=\"1\" height=\"1\"><data "
        "encoding=\"csv\">1</data></layer></group>"
        "<group name=\"Deco\"><properties>" +
        property("solid", "true") + "</properties><group name=\"Deeper\">" + layer("Nested") +
        layer("Opt out", "", property("solid", "false")) +
        "</group></group>"
        "<objectgroup name=\"Solid\"/>";
    EXPECT_EQ(solid_names(layers), (std::vector<std::string>{"WALLS", "collision", "Bricks",
                                                             "Rocks", "Inner", "Nested"}));
}

TEST(TiledSolidLayers, OptionsOverrideTheAutomaticRuleByLayerOrGroupName) {
    const std::string layers = layer("Collision") + layer("Ground") + "<group name=\"Props\">" +
                               layer("Crates") + layer("Barrels") + "</group>";
    EXPECT_EQ(solid_names(layers, sweep::test::solid_layers({"Ground"})),
              std::vector<std::string>{"Ground"});
    EXPECT_EQ(solid_names(layers, sweep::test::solid_layers({"Props", "Ground"})),
              (std::vector<std::string>{"Ground", "Crates", "Barrels"}));
}

TEST(TiledSolidLayers, UnknownOptionNameIsInvalidInput) {
    TempDir dir;
    auto result = load_tiled_map(dir.write("m.tmx", one_cell_layers(layer("Collision"))),
                                 sweep::test::solid_layers({"Nope"}));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::invalid_input);
    EXPECT_NE(result.error().message.find("\"Nope\""), std::string::npos);
    EXPECT_NE(result.error().message.find("m.tmx"), std::string::npos);
}

TEST(TiledSolidLayers, NoSolidLayerIsUnsupportedAndSaysHowToNameOne) {
    TempDir dir;
    auto result = load_tiled_map(dir.write("m.tmx", one_cell_layers(layer("Ground"))));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::unsupported);
    EXPECT_NE(result.error().message.find("\"Collision\""), std::string::npos);
    EXPECT_NE(result.error().message.find("solid=true"), std::string::npos);
}

TEST(TiledSolidLayers, OverlappingSolidLayersCountCellsOnce) {
    TempDir dir;
    auto result =
        load_tiled_map(dir.write("m.tmx", one_cell_layers(layer("Collision") + layer("Walls"))));
    ASSERT_TRUE(result.has_value()) << describe(result);
    EXPECT_EQ(result->solid_tiles, 1u);
    EXPECT_EQ(result->solid_layer_counts,
              (std::vector<std::pair<std::string, std::size_t>>{{"Collision", 1}, {"Walls", 1}}));
    EXPECT_EQ(result->boxes, (std::vector<Aabb>{{{0, -32}, {32, 0}}}));
}

TEST(TiledFormat, SniffsTheContentNotTheExtension) {
    TempDir dir;
    auto xml_named_json = load_tiled_map(dir.write("map.json", one_cell_layers(layer("Solid"))));
    EXPECT_TRUE(xml_named_json.has_value()) << describe(xml_named_json);
    auto json_named_tmx = load_tiled_map(
        dir.write("map.tmx", "\xEF\xBB\xBF\n " + json_map(R"("width":1,"height":1,"data":[4])")));
    EXPECT_TRUE(json_named_tmx.has_value()) << describe(json_named_tmx);
}

TEST(TiledFormat, JsonLegacyObjectPropertiesAndGroups) {
    TempDir dir;
    const std::string text =
        R"({"tilewidth":10,"tileheight":10,"width":1,"height":1,"layers":[)"
        R"({"type":"group","name":"G","properties":{"collides":"true"},"layers":[)"
        R"({"type":"tilelayer","name":"A","width":1,"height":1,"data":[1]}]},)"
        R"({"type":"tilelayer","name":"B","width":1,"height":1,"data":[1],)"
        R"("properties":[{"name":"solid","type":"int","value":1}]},)"
        R"({"type":"tilelayer","name":"C","width":1,"height":1,"data":[1],)"
        R"("properties":[{"name":"other","type":"list","value":[1,2]}]}]})";
    auto result = load_tiled_map(dir.write("m.json", text));
    ASSERT_TRUE(result.has_value()) << describe(result);
    EXPECT_EQ(result->solid_layer_names, (std::vector<std::string>{"A", "B"}));
}

TEST(TiledFormat, NonOrthogonalMapsAreUnsupported) {
    TempDir dir;
    std::string text = one_cell_layers(layer("Collision"));
    text.replace(text.find("orthogonal"), 10, "isometric");
    auto result = load_tiled_map(dir.write("iso.tmx", text));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::unsupported);
    EXPECT_NE(result.error().message.find("isometric"), std::string::npos);
}

} // namespace
