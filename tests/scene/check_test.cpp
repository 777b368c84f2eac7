// `sweep check`: on a small level whose seams, gaps and overlaps were
// worked out by hand, and on every shared map (it runs, and its counts agree
// with `sweep run`'s and between the encodings of one map).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "program.hpp"

namespace {

const std::string k_maps = std::string(SWEEP_SHARED_DIR) + "/data/maps/";

using sweep::test::Output;

Output run_program(const std::string& args) {
    return sweep::test::run_program(args, "2>/dev/null");
}

nlohmann::json run_json(const std::string& args) {
    const Output out = run_program(args + " --json");
    EXPECT_EQ(out.status, 0) << args << "\n" << out.text;
    nlohmann::json j = nlohmann::json::parse(out.text, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << out.text;
    return j;
}

// 8 x 5 tiles of 16 px ('#' solid), plus a 4 x 4 px rectangle at (120, 66)
// in an object layer "walls", inside the floor:
//   row 0  ........
//   row 1  ........
//   row 2  ....###.     the shelf, Tiled y 32..48, x 64..112
//   row 3  #.#.....     two posts, y 48..64, x 0..16 and 32..48
//   row 4  ########     the floor, y 64..80
const char* const k_level = R"(<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="8" height="5" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="1" columns="1"/>
 <layer id="1" name="Collision" width="8" height="5">
  <data encoding="csv">
0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,
0,0,0,0,1,1,1,0,
1,0,1,0,0,0,0,0,
1,1,1,1,1,1,1,1
</data>
 </layer>
 <objectgroup id="2" name="walls">
  <object id="1" x="120" y="66" width="4" height="4"/>
 </objectgroup>
</map>
)";

// The level, in a file of this test's own: ctest runs the tests side by
// side, and one file shared by three tests was rewritten by one while
// another's `sweep check` read it (exit code 2, bad input).
std::string write_level() {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("sweep_check_level_" + test + ".tmx");
    std::ofstream(file) << k_level;
    return file.string();
}

TEST(Check, HandDerivedSeamsGapsAndOverlapsForA24PixelBody) {
    const nlohmann::json r = run_json("check " + write_level() + " --body 24x24");
    EXPECT_EQ(r["solid_cells"], 13);
    EXPECT_EQ(r["shapes_before_merge"], 14); // 13 cells and the rectangle
    // Greedy merging: the shelf, two posts down to the floor, the floor cell
    // between them, the rest of the floor; and the rectangle.
    EXPECT_EQ(r["shapes_after_merge"], 6);
    // Seams: the shelf's top, between its cells at x = 80 and 96. The floor's
    // seams under the shelf have 16 px of headroom (no room for 24), its
    // bottom and the map's sides face outside the map, and the shelf's
    // underside is 16 px above the floor.
    ASSERT_EQ(r["seams"].size(), 2u) << r["seams"].dump();
    EXPECT_EQ(r["seams"][0]["at"], nlohmann::json({80, 32}));
    EXPECT_EQ(r["seams"][1]["at"], nlohmann::json({96, 32}));
    EXPECT_EQ(r["seams"][0]["surface"], "floor");
    // Gaps: between the posts (16 px across x, y 48..64), and under the
    // shelf (16 px across y, x 64..112).
    ASSERT_EQ(r["gaps"].size(), 2u) << r["gaps"].dump();
    EXPECT_EQ(r["gaps"][0]["from"], nlohmann::json({16, 48}));
    EXPECT_EQ(r["gaps"][0]["to"], nlohmann::json({32, 64}));
    EXPECT_EQ(r["gaps"][0]["across"], "x");
    EXPECT_EQ(r["gaps"][0]["width"], 16);
    EXPECT_EQ(r["gaps"][1]["from"], nlohmann::json({64, 48}));
    EXPECT_EQ(r["gaps"][1]["to"], nlohmann::json({112, 64}));
    EXPECT_EQ(r["gaps"][1]["across"], "y");
    // The rectangle lies inside the floor box (the fifth box, x 48..128).
    ASSERT_EQ(r["overlaps"].size(), 1u) << r["overlaps"].dump();
    EXPECT_EQ(r["overlaps"][0]["a"], "polygon 0");
    EXPECT_EQ(r["overlaps"][0]["b"], "box 4");
    EXPECT_EQ(r["overlaps"][0]["at"], nlohmann::json({122, 68}));
}

TEST(Check, ABodyOfOneTileFitsUnderTheShelfAndBetweenThePosts) {
    // 16 x 16 (the default, one tile): the 16 px gaps are not narrower, and
    // the floor's seams under the shelf now have room: x = 64, 80, 96, 112
    // on the floor (y 64) join the shelf's two, and the shelf's underside
    // (y 48) has two more; the floor at x = 48 lies beside a post.
    const nlohmann::json r = run_json("check " + write_level());
    EXPECT_EQ(r["body"], nlohmann::json({16, 16}));
    EXPECT_EQ(r["gaps"].size(), 0u) << r["gaps"].dump();
    ASSERT_EQ(r["seams"].size(), 8u) << r["seams"].dump();
    const std::array<std::array<int, 2>, 8> at{
        {{80, 32}, {96, 32}, {80, 48}, {96, 48}, {64, 64}, {80, 64}, {96, 64}, {112, 64}}};
    for (std::size_t i = 0; i < at.size(); ++i) {
        EXPECT_EQ(r["seams"][i]["at"], nlohmann::json(at[i])) << i;
        EXPECT_EQ(r["seams"][i]["surface"], at[i][1] == 48 ? "ceiling" : "floor") << i;
    }
}

TEST(Check, BadInputIsExitCode2AndFindingsAreNot) {
    EXPECT_EQ(run_program("check " + write_level() + " --body 0x4").status, 2);
    EXPECT_EQ(run_program("check " + write_level() + " --body wide").status, 2);
    EXPECT_EQ(run_program("check " + write_level() + " --body 4x4x").status, 2);
    EXPECT_EQ(run_program("check /nonexistent/map.tmx").status, 2);
    EXPECT_EQ(run_program("check").status, 2);
    const Output text = run_program("check " + write_level() + " --body 24x24");
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.text.find("seams            2"), std::string::npos) << text.text;
}

class EveryMap : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryMap, RunsWithCountsAsSweepRunHasThem) {
    const std::string map = k_maps + GetParam();
    const nlohmann::json c = run_json("check " + map);
    const nlohmann::json r = run_json("run " + map + " --spawn 0 --steps 0");
    EXPECT_EQ(c["shapes_before_merge"], r["shapes_before_merge"]);
    EXPECT_EQ(c["shapes_after_merge"], r["shapes_static"]);
    EXPECT_EQ(c["solid_cells"], r["solid_tiles"]);
    EXPECT_LE(c["shapes_after_merge"].get<int>(), c["shapes_before_merge"].get<int>());
    // A seam joins two shapes, so there are fewer seams than shapes before merging.
    EXPECT_LT(c["seams"].size(), c["shapes_before_merge"].get<std::size_t>());
}

INSTANTIATE_TEST_SUITE_P(
    SharedMaps, EveryMap,
    ::testing::Values("tiled-sticker-knight/map/sandbox.tmx", "melonjs-platformer/map/map1.tmx",
                      "melonjs-platformer/map/map1.json", "arcade/tiled_maps/map2_level_1.json",
                      "arcade/tiled_maps/map_with_ladders.json",
                      "bevy-ecs-tiled/demo_platformer/demo.tmx",
                      "tmxlite/ParseTest/maps/platform.tmx",
                      "tmw-ice-labyrinth/maps-gzip-df429f12/031-3.tmx",
                      "excalibur-tiled/example/formats/example-city-gzip.tmx",
                      "excalibur-tiled/example/formats/example-city.tmj",
                      "excalibur-tiled/example/orthogonal-infinite/orthogonal-infinite.tmj"));

TEST(Check, TwinEncodingsOfAMapGiveTheSameFindings) {
    const auto findings = [](const std::string& map) {
        nlohmann::json j = run_json("check " + k_maps + map);
        j.erase("level");
        return j;
    };
    EXPECT_EQ(findings("tmw-ice-labyrinth/maps-gzip-df429f12/031-3.tmx"),
              findings("tmw-ice-labyrinth/maps-csv-815e2a73/031-3.tmx"));
    EXPECT_EQ(findings("melonjs-platformer/map/map1.tmx"),
              findings("melonjs-platformer/map/map1.json"));
    const nlohmann::json gzip = findings("excalibur-tiled/example/formats/example-city-gzip.tmx");
    for (const char* v : {"zlib", "zstd", "infinite-base64-compressed"}) {
        EXPECT_EQ(
            findings(std::string("excalibur-tiled/example/formats/example-city-") + v + ".tmx"),
            gzip)
            << v;
    }
}

} // namespace
