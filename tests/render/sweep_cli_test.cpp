// The program's pictures and help, run as a user would: `sweep render` in
// each format on the built-in level, on a real map and on a scene file, checked with each
// format's own reader (cairo for PNG, giflib for GIF, pugixml for SVG);
// `sweep help COMMAND`, `--version`, and one line on stderr with exit code 2
// for each bad option.
#include <cairo.h>
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "program.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string k_map =
    std::string(SWEEP_SHARED_DIR) + "/data/maps/melonjs-platformer/map/map1.tmx";

using sweep::test::Output;

/// Runs `sweep args`; `text` is stdout, or stderr alone with `stderr_only`.
Output sweep(const std::string& args, bool stderr_only = false) {
    return sweep::test::run_program(args, stderr_only ? "2>&1 >/dev/null" : "2>/dev/null");
}

std::string temp_file(const std::string& name) {
    return (std::filesystem::path(::testing::TempDir()) / ("sweep_cli_" + name)).string();
}

std::string first_bytes(const std::string& path, std::size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes(n, '\0');
    in.read(bytes.data(), std::streamsize(n));
    bytes.resize(std::size_t(in.gcount()));
    return bytes;
}

int count_lines(const std::string& text) {
    int lines = 0;
    for (const char c : text) {
        lines += c == '\n';
    }
    return lines;
}

/// A PNG's size, read by cairo; {0, 0} when it is not a PNG.
std::pair<int, int> png_size(const std::string& path) {
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> image(
        cairo_image_surface_create_from_png(path.c_str()), &cairo_surface_destroy);
    if (cairo_surface_status(image.get()) != CAIRO_STATUS_SUCCESS) {
        return {0, 0};
    }
    return {cairo_image_surface_get_width(image.get()),
            cairo_image_surface_get_height(image.get())};
}

/// What giflib's decoder reads from a GIF.
struct GifInfo {
    bool ok = false;
    int width = 0;
    int height = 0;
    int frames = 0;
    std::vector<int> delays_cs;
};

GifInfo read_gif(const std::string& path) {
    GifInfo info;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    if (!gif) {
        return info;
    }
    if (DGifSlurp(gif) == GIF_OK) {
        info.ok = true;
        info.width = gif->SWidth;
        info.height = gif->SHeight;
        info.frames = gif->ImageCount;
        for (int i = 0; i < gif->ImageCount; ++i) {
            GraphicsControlBlock control{};
            DGifSavedExtensionToGCB(gif, i, &control);
            info.delays_cs.push_back(control.DelayTime);
        }
    }
    DGifCloseFile(gif, &error);
    return info;
}

TEST(SweepRender, PngOfTheBuiltInLevelIs800PixelsWide) {
    const std::string out = temp_file("builtin.png");
    const Output run = sweep("render --out " + out);
    ASSERT_EQ(run.status, 0);
    EXPECT_NE(run.text.find("picture"), std::string::npos);
    EXPECT_EQ(first_bytes(out, 8), "\x89PNG\r\n\x1a\n");
    const auto [w, h] = png_size(out);
    EXPECT_EQ(w, 800);
    EXPECT_GT(h, 300);
}

TEST(SweepRender, FrameAndSizeChooseWhatAndHowBig) {
    const std::string out = temp_file("frame.png");
    ASSERT_EQ(sweep("render --steps 20 --frame 10 --size 640x480 --out " + out).status, 0);
    EXPECT_EQ(png_size(out), (std::pair{640, 480}));
    // Upper-case extensions are PNGs too.
    const std::string upper = temp_file("UPPER.PNG");
    ASSERT_EQ(sweep("render --steps 5 --out " + upper).status, 0);
    EXPECT_EQ(png_size(upper).first, 800);
}

TEST(SweepRender, SvgParsesWithPathsGlyphsAndTheImageSize) {
    const std::string out = temp_file("builtin.svg");
    ASSERT_EQ(sweep("render --steps 60 --size 800x500 --out " + out).status, 0);
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_file(out.c_str()));
    const pugi::xml_node svg = doc.child("svg");
    ASSERT_TRUE(svg);
    EXPECT_STREQ(svg.attribute("width").value(), "800px");
    EXPECT_STREQ(svg.attribute("height").value(), "500px");
    EXPECT_STREQ(svg.attribute("viewBox").value(), "0 0 800 500");
    const auto paths = doc.select_nodes("//path");
    EXPECT_GT(paths.size(), 60u); // static boxes, bodies, paths, the legend's swatches
    EXPECT_GT(doc.select_nodes("//symbol").size(), 10u); // the title's and legend's glyphs
    EXPECT_GT(doc.select_nodes("//use").size(), 40u);
}

TEST(SweepRender, GifHasAtMost200FramesWithTheirDelay) {
    const std::string out = temp_file("builtin.gif");
    // 240 steps at 60 Hz: every second step, 121 frames of 2/60 s (3 cs).
    ASSERT_EQ(sweep("render --out " + out).status, 0);
    EXPECT_EQ(first_bytes(out, 6), "GIF89a");
    const GifInfo gif = read_gif(out);
    ASSERT_TRUE(gif.ok);
    EXPECT_EQ(gif.width, 800);
    EXPECT_EQ(gif.frames, 121);
    ASSERT_FALSE(gif.delays_cs.empty());
    EXPECT_EQ(gif.delays_cs.front(), 3);
    EXPECT_EQ(gif.delays_cs.back(), 3);
    EXPECT_LT(std::filesystem::file_size(out), 3u << 20);

    // 1000 steps: a stride of 5, 201 states -> 200 frames; --fps sets the delay.
    const std::string slow = temp_file("slow.gif");
    ASSERT_EQ(sweep("render --spawn 10 --steps 999 --fps 10 --size 320x240 --out " + slow).status,
              0);
    const GifInfo long_run = read_gif(slow);
    ASSERT_TRUE(long_run.ok);
    EXPECT_EQ(long_run.frames, 200);
    EXPECT_EQ(long_run.width, 320);
    EXPECT_EQ(long_run.height, 240);
    EXPECT_EQ(long_run.delays_cs.front(), 10);
}

TEST(SweepRender, RealMapInEveryFormat) {
    const std::string png = temp_file("map1.png");
    const std::string svg = temp_file("map1.svg");
    const std::string gif = temp_file("map1.gif");
    for (const std::string& out : {png, svg, gif}) {
        const Output run = sweep("render " + k_map + " --spawn 20 --steps 60 --out " + out);
        ASSERT_EQ(run.status, 0) << out;
    }
    // 54 x 30 tiles: 800 x 444 px plus the legend.
    const auto [w, h] = png_size(png);
    EXPECT_EQ(w, 800);
    EXPECT_GT(h, 444);
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_file(svg.c_str()));
    EXPECT_STREQ(doc.child("svg").attribute("width").value(), "800px");
    const GifInfo info = read_gif(gif);
    ASSERT_TRUE(info.ok);
    EXPECT_EQ(info.frames, 61);
    EXPECT_EQ(info.width, w);
    EXPECT_EQ(info.height, h);
}

/// One line on stderr naming `needle`, exit 2, and no picture.
void expect_bad_option(const std::string& args, const std::string& needle) {
    const Output run = sweep(args, true);
    EXPECT_EQ(run.status, 2) << args;
    EXPECT_EQ(count_lines(run.text), 1) << run.text;
    EXPECT_NE(run.text.find(needle), std::string::npos) << run.text;
    EXPECT_EQ(run.text.rfind("sweep: ", 0), 0u) << run.text;
}

TEST(SweepRender, BadOptionsGiveOneLineAndExitCode2) {
    expect_bad_option("render --out " + temp_file("a.jpg"), "unknown extension '.jpg'");
    expect_bad_option("render --out " + temp_file("noext"), "unknown extension");
    expect_bad_option("render --size 800 --out " + temp_file("a.png"), "--size");
    expect_bad_option("render --size 0x600 --out " + temp_file("a.png"), "--size");
    expect_bad_option("render --size 800x600x2 --out " + temp_file("a.png"), "--size");
    expect_bad_option("render --steps 10 --frame 11 --out " + temp_file("a.png"), "--frame 11");
    expect_bad_option("render --frame -1 --out " + temp_file("a.png"), "--frame");
    expect_bad_option("render --frame 3 --out " + temp_file("a.gif"), "--frame");
    expect_bad_option("render --fps 0 --out " + temp_file("a.gif"), "--fps");
    expect_bad_option("render --fps 10 --out " + temp_file("a.svg"), "--fps");
    expect_bad_option("render", "--out");
    expect_bad_option("render --out " + temp_file("a.png") + " --no-such-flag", "--no-such-flag");
    expect_bad_option("render --out /nonexistent-sweep-dir/a.png", "/nonexistent-sweep-dir/a.png");
    expect_bad_option("render /nonexistent-sweep-map.tmx --out " + temp_file("a.png"),
                      "nonexistent-sweep-map.tmx");
    EXPECT_FALSE(std::filesystem::exists(temp_file("a.jpg")));
}

TEST(SweepRender, SceneFileInEveryFormat) {
    // bullet.json: 20 steps of 1/60 s, a box stopped at a wall 50 L away.
    const std::string scene = std::string(SWEEP_SOURCE_DIR) + "/scenes/bullet.json";
    const std::string png = temp_file("scene_bullet.png");
    const std::string svg = temp_file("scene_bullet.svg");
    const std::string gif = temp_file("scene_bullet.gif");
    for (const std::string& out : {png, svg, gif}) {
        const Output run = sweep("render " + scene + " --out " + out);
        ASSERT_EQ(run.status, 0) << out;
        EXPECT_NE(run.text.find("body bullet"), std::string::npos) << run.text; // the scene's lines
        EXPECT_NE(run.text.find("picture          " + out), std::string::npos) << run.text;
    }
    EXPECT_EQ(first_bytes(png, 8), "\x89PNG\r\n\x1a\n");
    const auto [w, h] = png_size(png);
    EXPECT_EQ(w, 800);
    EXPECT_GT(h, 40); // a long, flat scene, and the legend
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_file(svg.c_str()));
    EXPECT_STREQ(doc.child("svg").attribute("width").value(), "800px");
    EXPECT_GT(doc.select_nodes("//path").size(), 3u); // the wall, the box, its path, the legend
    // Every state of the scene's 20 steps, at its own rate: 1/60 s is 2 cs.
    const GifInfo info = read_gif(gif);
    ASSERT_TRUE(info.ok);
    EXPECT_EQ(info.frames, 21);
    EXPECT_EQ(info.width, w);
    EXPECT_EQ(info.height, h);
    EXPECT_EQ(info.delays_cs.front(), 2);
    // --frame counts the scene's steps, whatever --steps says.
    const std::string frame = temp_file("scene_bullet_frame.png");
    EXPECT_EQ(sweep("render " + scene + " --frame 20 --size 320x200 --out " + frame).status, 0);
    EXPECT_EQ(png_size(frame), (std::pair{320, 200}));
    expect_bad_option("render " + scene + " --frame 21 --out " + frame, "--frame 21");
}

TEST(SweepRender, BadSceneFileNamesTheFileAndTheField) {
    const std::string scene = temp_file("bad_radius_scene.json");
    std::ofstream(scene) << R"({"format": "sweep-scene", "version": 1,
        "bodies": [{"shapes": [{"type": "circle", "radius": -1}]}]})";
    const std::string out = temp_file("bad_radius_scene.png");
    const Output run = sweep("render " + scene + " --out " + out, true);
    EXPECT_EQ(run.status, 2);
    EXPECT_EQ(count_lines(run.text), 1) << run.text;
    EXPECT_NE(run.text.find(scene), std::string::npos) << run.text;
    EXPECT_NE(run.text.find("/bodies/0/shapes/0/radius"), std::string::npos) << run.text;
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SweepRun, PngStillWorks) {
    const std::string out = temp_file("run.png");
    ASSERT_EQ(sweep("run --spawn 10 --steps 30 --png " + out).status, 0);
    EXPECT_EQ(png_size(out).first, 1600);
}

TEST(SweepRun, NoProgressBarWhenStderrIsNotATerminal) {
    // A run as long as the README's (a second or so): stderr is a pipe here,
    // so the bar stays off and stderr stays empty (the map has no warnings).
    const std::string ice =
        std::string(SWEEP_SHARED_DIR) + "/data/maps/tmw-ice-labyrinth/maps-gzip-df429f12/031-3.tmx";
    const Output run = sweep("run " + ice + " --spawn 200 --steps 600", true);
    EXPECT_EQ(run.status, 0);
    EXPECT_EQ(run.text, "");
}

/// Every option line of a help text has a description after it, or on the
/// next line when the option's name is long (CLI11 wraps it there).
void expect_every_option_described(const std::string& help) {
    std::vector<std::string> lines;
    std::istringstream in(help);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    // "  --steps N                   world steps to run"
    const std::regex option(R"(^  -{1,2}[a-zA-Z].*$)");
    const std::regex described(R"(^  \S+( \S+)*\s{2,}\S.*$)");
    const std::regex continued(R"(^\s{20,}\S.*$)");
    int options = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!std::regex_match(lines[i], option)) {
            continue;
        }
        ++options;
        const bool ok = std::regex_match(lines[i], described) ||
                        (i + 1 < lines.size() && std::regex_match(lines[i + 1], continued));
        EXPECT_TRUE(ok) << "no description: " << lines[i];
    }
    EXPECT_GT(options, 0);
}

TEST(SweepHelp, EachCommandPrintsItsOptionsWithDescriptions) {
    const Output run = sweep("help run");
    ASSERT_EQ(run.status, 0);
    for (const char* option : {"--steps", "--spawn", "--seed", "--dt", "--json", "--png", "--trace",
                               "--solid-layer", "--solid-property", "--broadphase"}) {
        EXPECT_NE(run.text.find(option), std::string::npos) << option;
    }
    expect_every_option_described(run.text);

    const Output render = sweep("help render");
    ASSERT_EQ(render.status, 0);
    for (const char* option :
         {"--out", "--frame", "--fps", "--size", "--steps", "--spawn", "--seed"}) {
        EXPECT_NE(render.text.find(option), std::string::npos) << option;
    }
    EXPECT_EQ(render.text.find("--json"), std::string::npos); // run's, not render's
    expect_every_option_described(render.text);

    const Output help = sweep("help help");
    ASSERT_EQ(help.status, 0);
    EXPECT_NE(help.text.find("Usage: sweep help"), std::string::npos);
    EXPECT_NE(help.text.find("COMMAND"), std::string::npos);

    const Output all = sweep("help");
    ASSERT_EQ(all.status, 0);
    for (const char* command : {"run", "render", "help", "--version"}) {
        EXPECT_NE(all.text.find(command), std::string::npos) << command;
    }
    expect_every_option_described(all.text);
    EXPECT_EQ(sweep("--help").text, all.text);
}

TEST(SweepHelp, UnknownCommandIsOneLineAndExitCode2) {
    expect_bad_option("help nope", "unknown command 'nope'");
}

TEST(SweepVersion, PrintsTheVersion) {
    const Output run = sweep("--version");
    EXPECT_EQ(run.status, 0);
    EXPECT_TRUE(std::regex_match(run.text, std::regex("sweep [0-9]+\\.[0-9]+\\.[0-9]+\n")))
        << run.text;
}

} // namespace
