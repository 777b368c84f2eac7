// load_tiled_map on small hand-written maps with object layers, tilesets,
// per-tile collision shapes and templates: how each kind of object becomes
// world shapes (docs/tiled.md), and which problems are warnings and which
// are errors. Expected coordinates are worked out by hand in the comments.
#include "tiled_support.hpp"

#include <sweep/io/tiled.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace {

using sweep::ErrorCode;
using sweep::real;
using sweep::Vec2;
using sweep::io::load_tiled_map;
using sweep::io::StaticGeometry;
using sweep::io::TiledLoadOptions;
using sweep::test::describe;
using sweep::test::TempDir;

using Points = std::vector<std::pair<real, real>>;

/// A polygon's vertices, sorted (order and start do not matter here).
Points sorted(const sweep::Polygon& p) {
    Points v;
    for (int i = 0; i < p.count; ++i) {
        v.push_back({p.vertices[std::size_t(i)].x, p.vertices[std::size_t(i)].y});
    }
    std::sort(v.begin(), v.end());
    return v;
}

bool has_polygon(const StaticGeometry& g, Points expected) {
    std::sort(expected.begin(), expected.end());
    return std::any_of(g.polygons.begin(), g.polygons.end(), [&](const sweep::Polygon& p) {
        const Points v = sorted(p);
        if (v.size() != expected.size()) {
            return false;
        }
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (std::fabs(v[i].first - expected[i].first) > 1e-3 ||
                std::fabs(v[i].second - expected[i].second) > 1e-3) {
                return false;
            }
        }
        return true;
    });
}

real area(const sweep::Polygon& p) {
    real sum = 0;
    for (int i = 0; i < p.count; ++i) {
        const Vec2 a = p.vertices[std::size_t(i)], b = p.vertices[std::size_t((i + 1) % p.count)];
        sum += a.x * b.y - b.x * a.y;
    }
    return sum / 2;
}

/// A JSON map of 16x16-pixel tiles, 4x4, with the given tilesets and layers.
std::string json_map(const std::string& tilesets, const std::string& layers) {
    return R"({"type":"map","orientation":"orthogonal","width":4,"height":4,"tilewidth":16,)"
           R"("tileheight":16,"tilesets":[)" +
           tilesets + R"(],"layers":[)" + layers + "]}";
}

std::string object_layer(const std::string& name, const std::string& objects,
                         const std::string& extra = "") {
    return R"({"type":"objectgroup","name":")" + name + R"(","objects":[)" + objects + "]" + extra +
           "}";
}

StaticGeometry load_ok(const std::filesystem::path& file, const TiledLoadOptions& options = {}) {
    auto result = load_tiled_map(file, options);
    EXPECT_TRUE(result.has_value()) << describe(result);
    return result ? std::move(result).value() : StaticGeometry{};
}

bool has_warning(const StaticGeometry& g, const std::string& a, const std::string& b) {
    return std::any_of(g.warnings.begin(), g.warnings.end(), [&](const std::string& w) {
        return w.find(a) != std::string::npos && w.find(b) != std::string::npos;
    });
}

TEST(TiledObjects, RectangleRotatesClockwiseAboutItsOriginAndFlipsY) {
    TempDir dir;
    // 30x40 at (10, 20), 90 degrees clockwise on screen (y down): the corner
    // (30, 0) goes to (0, 30); corners (10,20) (10,50) (-30,50) (-30,20) px.
    const auto g = load_ok(dir.write(
        "m.json", json_map("", object_layer("Collision", R"({"id":1,"x":10,"y":20,"width":30,)"
                                                         R"("height":40,"rotation":90})"))));
    ASSERT_EQ(g.polygons.size(), 1u);
    EXPECT_TRUE(has_polygon(g, {{10, -20}, {10, -50}, {-30, -50}, {-30, -20}}));
    EXPECT_EQ(g.counts.objects, 1u);
    EXPECT_EQ(g.object_layer_counts.size(), 1u);
}

TEST(TiledObjects, RoundEllipseIsACircleAndAnOvalIsConvexPieces) {
    TempDir dir;
    const auto g = load_ok(dir.write(
        "m.json",
        json_map("",
                 object_layer("Collision",
                              R"({"id":1,"ellipse":true,"x":0,"y":0,"width":20,"height":20},)"
                              R"({"id":2,"ellipse":true,"x":100,"y":0,"width":40,"height":20})"))));
    ASSERT_EQ(g.circles.size(), 1u);
    EXPECT_EQ(g.circles[0].center, (Vec2{10, -10}));
    EXPECT_EQ(g.circles[0].radius, real(10));
    // A 16-gon on the ellipse, cut into fans of at most 8 vertices.
    ASSERT_EQ(g.polygons.size(), 3u);
    for (const sweep::Polygon& p : g.polygons) {
        for (int i = 0; i < p.count; ++i) {
            const Vec2 v = p.vertices[std::size_t(i)];
            const real u = (v.x - 120) / 20, w = (v.y + 10) / 10;
            EXPECT_NEAR(u * u + w * w, 1, 1e-4) << "vertices lie on the ellipse";
        }
    }
}

TEST(TiledObjects, ConcavePolygonIsCutIntoConvexPiecesOfTheSameArea) {
    TempDir dir;
    // An L: 30x10 bar plus a 10x20 leg, area 500.
    const auto g = load_ok(dir.write(
        "m.json",
        json_map("", object_layer("Collision", R"({"id":1,"x":0,"y":0,"polygon":[{"x":0,"y":0},)"
                                               R"({"x":30,"y":0},{"x":30,"y":10},{"x":10,"y":10},)"
                                               R"({"x":10,"y":30},{"x":0,"y":30}]})"))));
    ASSERT_GE(g.polygons.size(), 2u);
    real total = 0;
    for (const sweep::Polygon& p : g.polygons) {
        EXPECT_GT(area(p), 0) << "counter-clockwise";
        total += area(p);
    }
    EXPECT_NEAR(total, 500, 1e-3);
}

TEST(TiledObjects, OpenPolylinesAreTwoSidedSegmentsAndClosedOnesSolid) {
    TempDir dir;
    const auto g = load_ok(dir.write(
        "m.json",
        json_map(
            "",
            object_layer(
                "Collision",
                // An L-shaped line, a straight line through a middle point,
                // and a closed square.
                R"({"id":1,"x":0,"y":0,"polyline":[{"x":0,"y":0},{"x":10,"y":0},{"x":10,"y":10}]},)"
                R"({"id":2,"x":0,"y":50,"polyline":[{"x":0,"y":0},{"x":5,"y":0},{"x":10,"y":0}]},)"
                R"({"id":3,"x":100,"y":0,"polyline":[{"x":0,"y":0},{"x":8,"y":0},{"x":8,"y":8},)"
                R"({"x":0,"y":8},{"x":0,"y":0}]})"))));
    EXPECT_EQ(g.segments.size(), 3u); // 2 + 1 (the middle point is on the line)
    EXPECT_TRUE(has_polygon(g, {{100, 0}, {108, 0}, {108, -8}, {100, -8}}));
}

TEST(TiledObjects, DegenerateObjectsAreWarningsNamingThemAndTheMapLoads) {
    TempDir dir;
    const auto g = load_ok(dir.write(
        "m.json",
        json_map(
            "", object_layer(
                    "Collision",
                    R"({"id":7,"x":5,"y":5,"width":0,"height":0},)"
                    R"({"id":8,"ellipse":true,"x":5,"y":5,"width":0,"height":0},)"
                    R"({"id":9,"x":0,"y":0,"polygon":[{"x":0,"y":0},{"x":4,"y":4},{"x":0,"y":0}]},)"
                    R"({"id":10,"x":0,"y":0,"width":8,"height":8})"))));
    EXPECT_TRUE(has_warning(g, "object id 7", "rectangle of zero size"));
    EXPECT_TRUE(has_warning(g, "object id 8", "ellipse of zero size"));
    EXPECT_TRUE(has_warning(g, "object id 9", "fewer than 3 distinct points"));
    EXPECT_EQ(g.polygons.size(), 1u);
}

// An object with area to the loader whose piece the library refuses: a
// triangle 1e-6 px high, its apex within k_hull_weld_distance of its base.
// It is ignored with a warning naming it, as the degenerate objects above
// (it was ignored without one).
TEST(TiledObjects, PiecesTheLibraryRefusesAreWarningsNamingThem) {
    TempDir dir;
    const auto g = load_ok(dir.write(
        "m.json",
        json_map("", object_layer("Collision", R"({"id":3,"x":10,"y":40,"polygon":[{"x":0,"y":0},)"
                                               R"({"x":30,"y":0},{"x":15,"y":0.000001}]},)"
                                               R"({"id":5,"x":0,"y":0,"width":8,"height":8})"))));
    EXPECT_TRUE(has_warning(g, "object id 3", "thinner than k_hull_weld_distance"));
    EXPECT_EQ(g.polygons.size(), 1u);
}

TEST(TiledObjects, LayerOffsetsOfNestedGroupsAddUp) {
    TempDir dir;
    const std::string inner = object_layer("Walls", R"({"id":1,"x":0,"y":0,"width":4,"height":4})",
                                           R"(,"offsetx":5,"offsety":1)");
    const std::string layers =
        R"({"type":"group","name":"a","offsetx":10,"layers":[{"type":"group","name":"b","offsety":2,"layers":[)" +
        inner + "]}]}";
    const auto g = load_ok(dir.write("m.json", json_map("", layers)));
    EXPECT_TRUE(has_polygon(g, {{15, -3}, {19, -3}, {19, -7}, {15, -7}}));
}

/// A tileset of 16x16 tiles whose tile 0 has a 4x16 strip on its left.
const char* k_strip_tileset =
    R"({"firstgid":1,"name":"s","tilewidth":16,"tileheight":16,"tilecount":4,"columns":2,)"
    R"("tiles":[{"id":0,"objectgroup":{"objects":[{"id":1,"x":0,"y":0,"width":4,"height":16}]}},)"
    R"({"id":1,"objectgroup":{"objects":[{"id":1,"x":0,"y":0,"width":16,"height":16}]}}]})";

TEST(TiledTileShapes, FlipBitsTransformTheTilesShapesInTheirCell) {
    TempDir dir;
    // Row 0: plain, H-flipped, diagonal-flipped, V-flipped; row 1: tile 1
    // (a whole-cell rectangle) in column 0.
    const std::string layer =
        R"({"type":"tilelayer","name":"Deco","width":4,"height":4,"data":[1,2147483649,536870913,1073741825,2,0,0,0,0,0,0,0,0,0,0,0]})";
    const auto g = load_ok(dir.write("m.json", json_map(k_strip_tileset, layer)));
    // Plain: x 0..4; H: the strip moves to the right edge, 28..32; D swaps
    // x and y: a 16x4 strip on top of cell 2; V keeps a full-height strip.
    EXPECT_TRUE(has_polygon(g, {{0, 0}, {4, 0}, {4, -16}, {0, -16}}));
    EXPECT_TRUE(has_polygon(g, {{28, 0}, {32, 0}, {32, -16}, {28, -16}}));
    EXPECT_TRUE(has_polygon(g, {{32, 0}, {48, 0}, {48, -4}, {32, -4}}));
    EXPECT_TRUE(has_polygon(g, {{48, 0}, {52, 0}, {52, -16}, {48, -16}}));
    EXPECT_EQ(g.polygons.size(), 4u);
    // The whole-cell rectangle fills its cell of the merged grid.
    EXPECT_TRUE(g.grid.is_solid(0, 1));
    EXPECT_EQ(g.solid_tiles, 1u);
    EXPECT_EQ(g.solid_layer_counts,
              (std::vector<std::pair<std::string, std::size_t>>{{"Deco", 5}}));
}

TEST(TiledTileShapes, TilesLargerThanTheGridAreAnchoredBottomLeft) {
    TempDir dir;
    const char* big =
        R"({"firstgid":1,"name":"b","tilewidth":32,"tileheight":32,"tilecount":1,)"
        R"("columns":1,"tiles":[{"id":0,"properties":[{"name":"solid","type":"bool","value":true}],)"
        R"("objectgroup":{"objects":[{"id":1,"x":0,"y":0,"width":32,"height":32}]}}]})";
    // The 32x32 tile in cell (1, 1) covers cells (1..2, 0..1).
    const std::string layer =
        R"({"type":"tilelayer","name":"Deco","width":4,"height":4,"data":[0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0]})";
    const auto g = load_ok(dir.write("m.json", json_map(big, layer)));
    EXPECT_TRUE(g.grid.is_solid(1, 0));
    EXPECT_TRUE(g.grid.is_solid(2, 0));
    EXPECT_TRUE(g.grid.is_solid(1, 1));
    EXPECT_TRUE(g.grid.is_solid(2, 1));
    EXPECT_EQ(g.solid_tiles, 4u);
}

TEST(TiledTemplates, XmlTemplateWithItsOwnXmlTilesetFromAJsonMap) {
    TempDir dir;
    dir.write("ts.tsx", R"(<?xml version="1.0" encoding="UTF-8"?>
<tileset name="ts" tilewidth="16" tileheight="16" tilecount="1" columns="1">
 <tile id="0"><objectgroup><object id="1" x="0" y="0" width="8" height="16"/></objectgroup></tile>
</tileset>
)");
    dir.write("t.tx", R"(<?xml version="1.0" encoding="UTF-8"?>
<template>
 <tileset firstgid="1" source="ts.tsx"/>
 <object name="half" gid="1" width="32" height="32"/>
</template>
)");
    // The 32x32 tile object stands on (100, 200): it spans x 100..132, y
    // 168..200; the left half of its tile is x 100..116.
    const auto g = load_ok(dir.write(
        "m.json",
        json_map("", object_layer("Collision", R"({"id":5,"template":"t.tx","x":100,"y":200},)"
                                               R"({"id":6,"template":"gone.tx","x":0,"y":0})"))));
    EXPECT_TRUE(has_polygon(g, {{100, -200}, {116, -200}, {116, -168}, {100, -168}}));
    EXPECT_EQ(g.polygons.size(), 1u);
    EXPECT_TRUE(has_warning(g, "object id 6", "gone.tx"));
}

TEST(TiledTemplates, JsonTemplateAndFlippedRotatedTileObjectInATmxMap) {
    TempDir dir;
    dir.write("ts.json", k_strip_tileset);
    dir.write("t.tj", R"({"type":"template","tileset":{"firstgid":1,"source":"ts.json"},)"
                      R"("object":{"gid":1,"width":16,"height":16}})");
    // Instance: H-flipped gid of the map's own tileset (firstgid 1), at
    // (0, 16), so the strip is x 12..16, y 0..16 px.
    const auto g = load_ok(dir.write("m.tmx", R"(<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="4" tilewidth="16" tileheight="16">
 <tileset firstgid="1" source="ts.json"/>
 <objectgroup name="Collision">
  <object id="1" template="t.tj" gid="2147483649" x="0" y="16"/>
 </objectgroup>
</map>
)"));
    EXPECT_TRUE(has_polygon(g, {{12, 0}, {16, 0}, {16, -16}, {12, -16}}));
}

TEST(TiledSelection, SolidPropertyOptionPicksObjectsAndReplacesTheAutomaticRule) {
    TempDir dir;
    const auto file = dir.write(
        "m.json",
        json_map(
            "",
            object_layer(
                "Collision",
                R"({"id":1,"x":0,"y":0,"width":4,"height":4,"properties":[{"name":"kind","type":"string","value":"wall"}]},)"
                R"({"id":2,"x":10,"y":0,"width":4,"height":4})")));
    EXPECT_EQ(load_ok(file).polygons.size(), 2u); // the layer's name
    TiledLoadOptions options;
    options.solid_properties.push_back(sweep::io::parse_solid_property("kind=WALL").value());
    const auto g = load_ok(file, options);
    ASSERT_EQ(g.polygons.size(), 1u);
    EXPECT_TRUE(has_polygon(g, {{0, 0}, {4, 0}, {4, -4}, {0, -4}}));
    options.solid_properties = {sweep::io::parse_solid_property("nothing").value()};
    auto none = load_tiled_map(file, options);
    ASSERT_FALSE(none.has_value());
    EXPECT_EQ(none.error().code, ErrorCode::invalid_input);
    EXPECT_FALSE(sweep::io::parse_solid_property("=x").has_value());
}

TEST(TiledSelection, FalsySolidPropertyOverridesTheNameAndBodyTypeDynamicIsNotStatic) {
    TempDir dir;
    const auto g = load_ok(dir.write(
        "m.json",
        json_map(
            "",
            object_layer(
                "Objects",
                R"({"id":1,"x":0,"y":0,"width":4,"height":4,"properties":[{"name":"bodyType","value":"static"}]},)"
                R"({"id":2,"x":10,"y":0,"width":4,"height":4,"properties":[{"name":"bodyType","value":"dynamic"}]})") +
                "," +
                object_layer("Walls", R"({"id":3,"x":20,"y":0,"width":4,"height":4})",
                             R"(,"properties":[{"name":"solid","type":"bool","value":false}])"))));
    ASSERT_EQ(g.polygons.size(), 1u);
    EXPECT_TRUE(has_polygon(g, {{0, 0}, {4, 0}, {4, -4}, {0, -4}}));
}

TEST(TiledErrors, MissingTilesetIsAnIoErrorNamingBothFiles) {
    TempDir dir;
    auto result = load_tiled_map(dir.write(
        "m.json",
        json_map(R"({"firstgid":1,"source":"nope.tsx"})",
                 object_layer("Collision", R"({"id":1,"x":0,"y":0,"width":4,"height":4})"))));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::io_error);
    EXPECT_NE(result.error().message.find("m.json"), std::string::npos) << result.error().message;
    EXPECT_NE(result.error().message.find("nope.tsx"), std::string::npos) << result.error().message;
}

TEST(TiledErrors, GidBeyondEveryTilesetNamesTheLayerAndCell) {
    TempDir dir;
    const std::string layer =
        R"({"type":"tilelayer","name":"Solid","width":4,"height":4,"data":[0,0,0,0,0,0,9,0,0,0,0,0,0,0,0,0]})";
    auto result = load_tiled_map(dir.write("m.json", json_map(k_strip_tileset, layer)));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::parse_error);
    EXPECT_NE(result.error().message.find("layer \"Solid\": cell (2, 1): gid 9"), std::string::npos)
        << result.error().message;
}

TEST(TiledErrors, BadObjectFieldsNameTheObject) {
    TempDir dir;
    auto result = load_tiled_map(dir.write(
        "m.json", json_map("", object_layer("Collision", R"({"id":4,"x":"left","y":0})"))));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::parse_error);
    EXPECT_NE(result.error().message.find("object id 4: x: not a number"), std::string::npos)
        << result.error().message;
    auto points = load_tiled_map(dir.write(
        "p.tmx", R"(<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8">
 <objectgroup name="Collision"><object id="3" x="0" y="0"><polygon points="0,0 4,nan 1,1"/></object></objectgroup>
</map>)"));
    ASSERT_FALSE(points.has_value());
    EXPECT_NE(points.error().message.find("object id 3: points: point 2"), std::string::npos)
        << points.error().message;
}

TEST(TiledErrors, NothingThatCollidesSaysHowToMarkIt) {
    TempDir dir;
    auto result = load_tiled_map(dir.write(
        "m.json", json_map("", object_layer("Markers", R"({"id":1,"point":true,"x":0,"y":0})"))));
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ErrorCode::unsupported);
    EXPECT_NE(result.error().message.find("no collision geometry"), std::string::npos);
    EXPECT_NE(result.error().message.find("--solid-property"), std::string::npos);
}

} // namespace
