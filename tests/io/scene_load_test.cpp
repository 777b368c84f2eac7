// io::load_scene: every scene file of scenes/ and every example of
// docs/scenes.md loads, uses only keys the JSON Schema (docs/scene.schema.json)
// documents, and broken files fail with the file, the JSON path and the
// problem.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sweep/io/scene.hpp"

namespace sweep::io {
namespace {

const std::filesystem::path k_source(SWEEP_SOURCE_DIR);

std::string read(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The ```json blocks of docs/scenes.md.
std::vector<std::string> doc_examples() {
    std::istringstream doc(read(k_source / "docs/scenes.md"));
    std::vector<std::string> blocks;
    std::string line;
    bool inside = false;
    while (std::getline(doc, line)) {
        if (line == "```json") {
            inside = true;
            blocks.emplace_back();
        } else if (inside && line == "```") {
            inside = false;
        } else if (inside) {
            blocks.back() += line + "\n";
        }
    }
    return blocks;
}

// Every property name the schema defines, anywhere.
void schema_keys(const nlohmann::json& j, std::set<std::string>& keys) {
    if (j.is_object()) {
        if (j.contains("properties") && j["properties"].is_object()) {
            for (const auto& item : j["properties"].items()) {
                keys.insert(item.key());
            }
        }
        for (const auto& item : j.items()) {
            schema_keys(item.value(), keys);
        }
    } else if (j.is_array()) {
        for (const auto& item : j) {
            schema_keys(item, keys);
        }
    }
}

// Every object key used in a scene document.
void used_keys(const nlohmann::json& j, std::set<std::string>& keys) {
    if (j.is_object()) {
        for (const auto& item : j.items()) {
            keys.insert(item.key());
            used_keys(item.value(), keys);
        }
    } else if (j.is_array()) {
        for (const auto& item : j) {
            used_keys(item, keys);
        }
    }
}

TEST(SceneLoad, EverySceneFileLoadsAndUsesOnlySchemaKeys) {
    std::set<std::string> schema;
    schema_keys(nlohmann::json::parse(read(k_source / "docs/scene.schema.json")), schema);
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(k_source / "scenes")) {
        SCOPED_TRACE(entry.path().string());
        const auto scene = load_scene(entry.path());
        ASSERT_TRUE(scene) << scene.error().message;
        EXPECT_FALSE(scene->bodies.empty() && scene->characters.empty());
        std::set<std::string> used;
        used_keys(nlohmann::json::parse(read(entry.path())), used);
        for (const std::string& key : used) {
            EXPECT_TRUE(schema.count(key)) << key;
        }
        ++files;
    }
    EXPECT_GE(files, 15);
}

TEST(SceneLoad, EveryDocumentedExampleLoadsAndUsesOnlySchemaKeys) {
    std::set<std::string> schema;
    schema_keys(nlohmann::json::parse(read(k_source / "docs/scene.schema.json")), schema);
    const std::vector<std::string> examples = doc_examples();
    EXPECT_GE(examples.size(), 7u);
    std::set<std::string> used;
    for (std::size_t i = 0; i < examples.size(); ++i) {
        SCOPED_TRACE("example " + std::to_string(i));
        const auto scene =
            load_scene_from_memory(examples[i], (k_source / "docs/scenes.md").string());
        ASSERT_TRUE(scene) << scene.error().message;
        used_keys(nlohmann::json::parse(examples[i]), used);
    }
    for (const std::string& key : used) {
        EXPECT_TRUE(schema.count(key)) << key;
    }
    // And the examples together show every key the schema has.
    for (const std::string& key : schema) {
        EXPECT_TRUE(used.count(key)) << "no example uses " << key;
    }
}

TEST(SceneLoad, ExamplesReadAsWritten) {
    const auto scene = load_scene_from_memory(R"({"format": "sweep-scene", "version": 1,
        "world": {"gravity": [0, -9.81], "substeps": 4, "solver_substeps": 8, "sleep": false,
                  "time_to_sleep": 2, "correction_rounds": 3},
        "run": {"steps": 12, "dt": 0.5},
        "bodies": [{"name": "b", "type": "static", "position": [1, 2], "angle": 0.5,
                    "copies": {"count": [3, 2], "step": [1, 0]},
                    "shapes": [{"type": "chain", "points": [[0, 0], [1, 0], [2, 1]]},
                               {"type": "circle", "radius": 2,
                                "material": {"friction": 0.1, "rolling_resistance": 0.05},
                                "filter": {"category": 4, "mask": 3, "group": -2}, "sensor": true}]}],
        "characters": [{"name": "c", "jump_speed": 3, "gravity": false,
                        "shapes": [{"type": "box", "half_width": 1, "half_height": 2}],
                        "inputs": [{"step": 2, "move": [0.5, 0]}, {"step": 3, "jump": true}]}]})",
                                              "x.json");
    ASSERT_TRUE(scene) << scene.error().message;
    EXPECT_FLOAT_EQ(scene->world.gravity.y, -9.81f);
    EXPECT_EQ(scene->substeps, 4);
    EXPECT_EQ(scene->world.solver_substeps, 8);
    EXPECT_EQ(scene->world.correction_rounds, 3);
    EXPECT_FALSE(scene->world.enable_sleep);
    EXPECT_FLOAT_EQ(scene->world.time_to_sleep, 2);
    EXPECT_EQ(scene->steps, 12);
    EXPECT_FLOAT_EQ(scene->dt, 0.5f);
    const SceneBody& b = scene->bodies.at(0);
    EXPECT_EQ(b.def.type, BodyType::static_body);
    EXPECT_FLOAT_EQ(b.def.position.y, 2);
    EXPECT_EQ(b.copies_x * b.copies_y, 6);
    ASSERT_EQ(b.shapes.size(), 3u); // two chain segments and the circle
    const ChainSegment& first = b.shapes[0].shape.chain_segment;
    EXPECT_EQ(first.ghost1, first.segment.p1); // an open end
    EXPECT_EQ(first.ghost2, (Vec2{2, 1}));
    EXPECT_EQ(b.shapes[2].filter.category_bits, 4u);
    EXPECT_EQ(b.shapes[2].filter.group_index, -2);
    EXPECT_TRUE(b.shapes[2].sensor);
    EXPECT_FLOAT_EQ(b.shapes[2].material.friction, 0.1f);
    EXPECT_FLOAT_EQ(b.shapes[2].material.rolling_resistance, 0.05f);
    const SceneCharacter& c = scene->characters.at(0);
    EXPECT_FALSE(c.gravity);
    ASSERT_EQ(c.inputs.size(), 2u);
    EXPECT_EQ(c.inputs[0].move, (Vec2{0.5f, 0}));
    EXPECT_TRUE(c.inputs[1].jump);
}

// A scene with one dynamic body whose first shape is `shape`.
std::string with_shape(const std::string& shape) {
    return R"({"format": "sweep-scene", "version": 1, "bodies": [{"shapes": [)" + shape + "]}]}";
}

struct Broken {
    std::string text;
    ErrorCode code;
    std::string message; ///< the whole message after "bad.json: "
};

TEST(SceneLoad, BrokenFilesNameTheFileThePathAndTheProblem) {
    const std::vector<Broken> cases{
        {with_shape(R"({"type": "circle", "radius": -1})"), ErrorCode::invalid_input,
         "/bodies/0/shapes/0/radius: negative radius"},
        {with_shape(R"({"type": "circle", "radius": 0})"), ErrorCode::degenerate_shape,
         "/bodies/0/shapes/0/radius: zero radius"},
        {with_shape(R"({"type": "circle", "radus": 1})"), ErrorCode::parse_error,
         "/bodies/0/shapes/0: unknown key \"radus\""},
        {with_shape(R"({"type": "circle", "radius": 1e999})"), ErrorCode::invalid_input,
         "/bodies/0/shapes/0/radius: number is not finite (NaN, infinite or too large)"},
        {with_shape(R"({"type": "circle", "radius": "NaN"})"), ErrorCode::parse_error,
         "/bodies/0/shapes/0/radius: expected a number, got the string \"NaN\""},
        {with_shape(R"({"type": "box", "half_width": 1, "half_height": 1, "radius": 1})"),
         ErrorCode::parse_error, "/bodies/0/shapes/0: key \"radius\" does not belong to a box"},
        {with_shape(R"({"type": "hexagon"})"), ErrorCode::parse_error,
         "/bodies/0/shapes/0/type: unknown shape type \"hexagon\" (circle, capsule, box, "
         "polygon, segment, chain)"},
        {with_shape(R"({"type": "circle", "radius": 1, "material": {"density": -2}})"),
         ErrorCode::invalid_input, "/bodies/0/shapes/0/material/density: must be >= 0, got -2"},
        {with_shape(R"({"type": "circle", "radius": 1, "material": {"rolling_resistance": -1}})"),
         ErrorCode::invalid_input,
         "/bodies/0/shapes/0/material/rolling_resistance: must be >= 0, got -1"},
        {R"({"format": "sweep-scene", "version": 1, "world": {"gravity": [0, 1e400]}})",
         ErrorCode::invalid_input,
         "/world/gravity/1: number is not finite (NaN, infinite or too large)"},
        {R"({"format": "sweep-scene", "version": 1, "world": {"time_to_sleep": -1}})",
         ErrorCode::invalid_input, "/world/time_to_sleep: must be >= 0, got -1"},
        {R"({"format": "sweep-scene", "version": 1, "world": {"sleep": 1}})",
         ErrorCode::parse_error, "/world/sleep: expected true or false, got a number"},
        {R"({"format": "sweep-scene", "version": 1, "bodies": [{"position": "here", "shapes": []}]})",
         ErrorCode::parse_error, "/bodies/0/position: expected [x, y], got the string \"here\""},
        {R"({"format": "sweep-scene", "version": 1, "bodies": [{"shapes": []}]})",
         ErrorCode::invalid_input, "/bodies/0/shapes: a body needs at least one shape"},
        {R"({"format": "sweep-scene", "version": 2})", ErrorCode::invalid_input,
         "/version: must be from 1 to 1"},
        {R"({"format": "tiled", "version": 1})", ErrorCode::parse_error,
         "/format: expected \"sweep-scene\""},
        {R"({"version": 1})", ErrorCode::parse_error, "/: missing key \"format\""},
        {R"({"format": "sweep-scene", "version": 1, "run": {"steps": -1}})",
         ErrorCode::invalid_input, "/run/steps: must be from 0 to 100000000"},
        {R"({"format": "sweep-scene", "version": 1, "run": {"steps": 1.5}})",
         ErrorCode::parse_error, "/run/steps: expected an integer, got a number"},
        {R"({"format": "sweep-scene", "version": 1, "bodies": [{"type": "dynamic",
             "shapes": [{"type": "segment", "p1": [0, 0], "p2": [1, 0]}]}]})",
         ErrorCode::invalid_input,
         "/bodies/0/shapes: segments and chains have no mass: only static bodies may have them"},
        {R"({"format": "sweep-scene", "version": 1, "characters": [{"shapes": [{"type":
             "circle", "radius": 1}], "inputs": [{"step": 5}, {"step": 2}]}]})",
         ErrorCode::invalid_input, "/characters/0/inputs/1/step: inputs must be in order of step"},
        {"{\"format\": \"sweep-scene\",\n  \"version\": 1,\n  \"bodies\": [}",
         ErrorCode::parse_error, "line 3 column 14: malformed JSON"}, // the stray "}"
    };
    for (const Broken& c : cases) {
        SCOPED_TRACE(c.text);
        const auto scene = load_scene_from_memory(c.text, "bad.json");
        ASSERT_FALSE(scene);
        EXPECT_EQ(scene.error().code, c.code) << scene.error().message;
        EXPECT_EQ(scene.error().message, "bad.json: " + c.message);
    }
}

TEST(SceneLoad, DegeneratePolygonsAndSegmentsAreDegenerateShapes) {
    for (const std::string& shape :
         {std::string(R"({"type": "polygon", "points": [[0, 0], [1, 1], [2, 2]]})"),
          std::string(R"({"type": "polygon", "points": [[0, 0], [0, 0], [1, 0]]})"),
          std::string(
              R"({"type": "capsule", "center1": [1, 1], "center2": [1, 1], "radius": 1})")}) {
        SCOPED_TRACE(shape);
        const auto scene = load_scene_from_memory(with_shape(shape), "bad.json");
        ASSERT_FALSE(scene);
        EXPECT_EQ(scene.error().code, ErrorCode::degenerate_shape) << scene.error().message;
        EXPECT_EQ(scene.error().message.rfind("bad.json: /bodies/0/shapes/0", 0), 0u)
            << scene.error().message;
    }
    const auto segment = load_scene_from_memory(
        R"({"format": "sweep-scene", "version": 1, "bodies": [{"type": "static", "shapes":
            [{"type": "segment", "p1": [1, 1], "p2": [1, 1]}]}]})",
        "bad.json");
    ASSERT_FALSE(segment);
    EXPECT_EQ(segment.error().message.rfind("bad.json: /bodies/0/shapes/0", 0), 0u)
        << segment.error().message;
}

TEST(SceneLoad, MissingMapIsNamedAfterTheScenePath) {
    const auto scene = load_scene_from_memory(
        R"({"format": "sweep-scene", "version": 1, "map": {"path": "no/such/map.tmx"}})",
        "dir/bad.json");
    ASSERT_FALSE(scene);
    EXPECT_EQ(scene.error().code, ErrorCode::io_error);
    EXPECT_NE(scene.error().message.find("dir/bad.json: /map/path: "), std::string::npos)
        << scene.error().message;
    EXPECT_NE(scene.error().message.find("dir/no/such/map.tmx"), std::string::npos)
        << scene.error().message;
}

TEST(SceneLoad, MapSetsTheLengthUnitUnlessTheWorldGivesOne) {
    const std::string map =
        R"("map": {"path": "../../shared/data/maps/melonjs-platformer/map/map1.tmx"})";
    const std::string name = (k_source / "scenes/x.json").string();
    const auto by_map =
        load_scene_from_memory(R"({"format": "sweep-scene", "version": 1, )" + map + "}", name);
    ASSERT_TRUE(by_map) << by_map.error().message;
    EXPECT_FLOAT_EQ(by_map->world.length_units_per_meter, 35); // the map's tile height
    const auto given = load_scene_from_memory(
        R"({"format": "sweep-scene", "version": 1, "world": {"length_units_per_meter": 2}, )" +
            map + "}",
        name);
    ASSERT_TRUE(given) << given.error().message;
    EXPECT_FLOAT_EQ(given->world.length_units_per_meter, 2);
}

TEST(SceneLoad, SceneTextIsToldFromTiledJson) {
    EXPECT_TRUE(is_scene_text(R"({"format": "sweep-scene", "version": 1})"));
    EXPECT_FALSE(is_scene_text(R"({"type": "map", "layers": []})"));
    EXPECT_FALSE(is_scene_text("{not json"));
    EXPECT_FALSE(is_scene_text(R"(["format", "sweep-scene"])"));
    EXPECT_FALSE(is_scene_text(R"({"layers": [{"format": "sweep-scene"}]})"));
    // Broken after the format: still a scene, so the scene loader explains.
    EXPECT_TRUE(is_scene_text(R"({"format": "sweep-scene", "version": 1e999})"));
    EXPECT_TRUE(is_scene_text(R"({"format": "sweep-scene", "version": )"));
}

} // namespace
} // namespace sweep::io
