// The program's main job on real maps made by other people: `sweep run
// --spawn 200 --steps 600 --json` must report no tunneling and penetration
// within twice the linear slop, and every encoding of a map must give the
// same static geometry.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "program.hpp"

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace {

const std::string k_maps = std::string(SWEEP_SHARED_DIR) + "/data/maps/";

using sweep::test::Output;

Output run_program(const std::string& args, bool with_stderr = true) {
    // Without stderr, warnings stay out of the JSON that stdout carries.
    return sweep::test::run_program(args, with_stderr ? "2>&1" : "2>/dev/null");
}

nlohmann::json run_json_args(const std::string& map, const std::string& extra) {
    const Output out =
        run_program("run " + k_maps + map + " --spawn 200 --steps 600 --json " + extra, false);
    EXPECT_EQ(out.status, 0) << out.text;
    return nlohmann::json::parse(out.text, nullptr, false);
}

nlohmann::json run_json(const std::string& map) { return run_json_args(map, ""); }

void expect_no_tunneling(const nlohmann::json& r) {
    ASSERT_FALSE(r.is_discarded());
    EXPECT_EQ(r["steps"], 600);
    EXPECT_EQ(r["bodies"], 200);
    EXPECT_EQ(r["tunneling_events"], 0);
    EXPECT_LE(r["max_penetration"].get<double>(), 2 * r["linear_slop"].get<double>());
    EXPECT_GT(r["contacts_max"].get<int>(), 0); // the bodies did meet the walls
}

TEST(Scene, IceLabyrinthGzipAndCsvRunWithoutTunneling) {
    const nlohmann::json gzip = run_json("tmw-ice-labyrinth/maps-gzip-df429f12/031-3.tmx");
    const nlohmann::json csv = run_json("tmw-ice-labyrinth/maps-csv-815e2a73/031-3.tmx");
    expect_no_tunneling(gzip);
    expect_no_tunneling(csv);
    EXPECT_EQ(gzip["shapes_static"], csv["shapes_static"]);
    EXPECT_EQ(gzip["solid_tiles"], 82641);
    EXPECT_NEAR(gzip["linear_slop"].get<double>(), 0.005 * 32, 1e-6); // L = tile height = 32 px
}

TEST(Scene, IceLabyrinthOnAUniformGridRunsWithoutTunneling) {
    // The static tiles in the grid instead of the tree: the same verdict.
    const nlohmann::json r =
        run_json_args("tmw-ice-labyrinth/maps-gzip-df429f12/031-3.tmx", "--broadphase grid");
    expect_no_tunneling(r);
}

TEST(Scene, ExcaliburCityInFourEncodingsRunsWithoutTunneling) {
    const std::array<std::string, 4> variants{"gzip", "zlib", "zstd", "infinite-base64-compressed"};
    nlohmann::json first;
    for (const std::string& v : variants) {
        SCOPED_TRACE(v);
        const nlohmann::json r =
            run_json("excalibur-tiled/example/formats/example-city-" + v + ".tmx");
        expect_no_tunneling(r);
        if (first.is_null()) {
            first = r;
        }
        EXPECT_EQ(r["shapes_static"], first["shapes_static"]);
        EXPECT_EQ(r["solid_tiles"], first["solid_tiles"]);
    }
}

// Every map of the shared folder (its README says which files are maps).
class EveryMap : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryMap, RunsWithoutTunnelingOrDeepPenetration) {
    const nlohmann::json r = run_json(GetParam());
    ASSERT_FALSE(r.is_discarded());
    expect_no_tunneling(r);
    EXPECT_GT(r["shapes_static"].get<int>(), 0);
    EXPECT_LE(r["shapes_static"].get<int>(), r["shapes_before_merge"].get<int>());
}

INSTANTIATE_TEST_SUITE_P(
    SharedMaps, EveryMap,
    ::testing::Values("tiled-sticker-knight/map/sandbox.tmx", "melonjs-platformer/map/map1.tmx",
                      "melonjs-platformer/map/map1.json", "arcade/tiled_maps/map2_level_1.json",
                      "arcade/tiled_maps/map_with_ladders.json",
                      "bevy-ecs-tiled/demo_platformer/demo.tmx",
                      "tmxlite/ParseTest/maps/platform.tmx",
                      "excalibur-tiled/example/formats/example-city.tmj",
                      "excalibur-tiled/example/orthogonal-infinite/orthogonal-infinite.tmj"),
    [](const ::testing::TestParamInfo<const char*>& info) {
        std::string name = info.param;
        name = name.substr(name.rfind('/') + 1);
        for (char& c : name) {
            c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        }
        return name + "_" + std::to_string(info.index);
    });

TEST(Scene, TilesetGivenAsTheMapIsBadInputWithExitCode2) {
    for (const char* name : {"dirt.json", "grass.json", "items.json", "more_tiles.json"}) {
        const Output out = run_program("run " + k_maps + "arcade/tiled_maps/" + name + " --json");
        EXPECT_EQ(out.status, 2) << out.text;
        EXPECT_NE(out.text.find("tileset"), std::string::npos) << out.text;
        EXPECT_NE(out.text.find(name), std::string::npos) << out.text;
    }
}

TEST(Scene, MissingTemplatesAreWarningsAndTheMapRuns) {
    const Output out = run_program("run " + k_maps +
                                   "excalibur-tiled/example/formats/example-city.tmj --spawn 10 "
                                   "--steps 5 --json");
    EXPECT_EQ(out.status, 0) << out.text;
    EXPECT_NE(out.text.find("warning"), std::string::npos);
    EXPECT_NE(out.text.find("cone.tx"), std::string::npos);
}

TEST(Scene, SolidPropertySelectsObjectsByTheirProperty) {
    const Output out = run_program("run " + k_maps +
                                   "tiled-sticker-knight/map/sandbox.tmx --solid-property "
                                   "bodyType=static --spawn 10 --steps 5 --json");
    ASSERT_EQ(out.status, 0) << out.text;
    const nlohmann::json r = nlohmann::json::parse(out.text, nullptr, false);
    ASSERT_FALSE(r.is_discarded()) << out.text;
    EXPECT_EQ(r["static_polygons"], 18); // 16 tile objects and 2 rectangles
    EXPECT_EQ(
        run_program("run " + k_maps + "tiled-sticker-knight/map/sandbox.tmx --solid-property =x")
            .status,
        2);
}

TEST(Scene, TooManyBodiesForTheRoomIsBadInputSayingHowManyFit) {
    const Output out = run_program("run " + k_maps +
                                   "excalibur-tiled/example/orthogonal-infinite/"
                                   "orthogonal-infinite.tmj --spawn 100000 --steps 1");
    EXPECT_EQ(out.status, 2) << out.text;
    EXPECT_NE(out.text.find("room for only"), std::string::npos) << out.text;
}

TEST(Scene, BuiltInLevelRunsWithoutTunneling) {
    const Output out = run_program("run --spawn 100 --steps 600 --json");
    ASSERT_EQ(out.status, 0) << out.text;
    const nlohmann::json r = nlohmann::json::parse(out.text, nullptr, false);
    ASSERT_FALSE(r.is_discarded());
    EXPECT_EQ(r["tunneling_events"], 0);
    EXPECT_LE(r["max_penetration"].get<double>(), 2 * r["linear_slop"].get<double>());
}

TEST(Scene, TraceHasOneLinePerStepWithEveryBody) {
    const std::filesystem::path trace =
        std::filesystem::temp_directory_path() / "sweep_scene_trace.jsonl";
    const Output out = run_program("run --spawn 7 --steps 25 --trace " + trace.string());
    ASSERT_EQ(out.status, 0) << out.text;
    std::ifstream in(trace);
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << line;
        EXPECT_EQ(j["step"], lines + 1);
        EXPECT_EQ(j["bodies"].size(), 7u);
        ++lines;
    }
    EXPECT_EQ(lines, 25);
    std::filesystem::remove(trace);
}

TEST(Scene, VersionIsPrinted) {
    const Output out = run_program("--version");
    EXPECT_EQ(out.status, 0);
    EXPECT_EQ(out.text.rfind("sweep 0.", 0), 0u) << out.text;
}

TEST(Scene, MissingFileIsBadInputWithExitCode2) {
    const Output out = run_program("run /nonexistent/map.tmx --json");
    EXPECT_EQ(out.status, 2);
    EXPECT_NE(out.text.find("/nonexistent/map.tmx"), std::string::npos) << out.text;
}

TEST(Scene, UnknownFlagIsBadInputWithExitCode2) {
    EXPECT_EQ(run_program("run --no-such-flag").status, 2);
}

} // namespace
