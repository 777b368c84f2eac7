// Issue 7's headless check: every sample that `sweep-testbed --list` names
// runs for a few frames under SDL's offscreen video driver (xvfb-run only
// when that driver is missing), exits 0, which means its own invariant held
// (the bullet stopped at the wall, the particles stayed in their box...),
// and leaves a screenshot that shows a scene, not an empty window.
#include <cairo.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace {

constexpr int k_frames = 60;
constexpr int k_panel_px = 330;                  ///< the ImGui panel's column, left of the scene
constexpr std::uint32_t k_background = 0xf5f5f0; ///< the testbed's clear colour, RGB

struct Outcome {
    int exit_code = -1;
    std::string output; ///< stdout and stderr together
};

Outcome run(const std::string& command) {
    Outcome r;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) {
        return r;
    }
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
        r.output += buffer.data();
    }
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::vector<std::string> sample_names() {
    const Outcome listed = run(std::string("\"") + SWEEP_TESTBED + "\" --list");
    std::vector<std::string> names;
    std::string line;
    for (const char c : listed.output) {
        if (c == '\n') {
            names.push_back(line);
            line.clear();
        } else {
            line += c;
        }
    }
    return names;
}

// Runs a sample headless; retries under xvfb-run only when SDL could not
// open a window at all (no offscreen driver in this SDL build).
Outcome run_headless(const std::string& sample, const std::string& png) {
    const std::string args = std::string(" \"") + SWEEP_TESTBED + "\" --sample " + sample +
                             " --frames " + std::to_string(k_frames) + " --screenshot \"" + png +
                             "\"";
    Outcome r = run("SDL_VIDEODRIVER=offscreen" + args);
    const bool no_video = r.output.find("SDL_Init") != std::string::npos ||
                          r.output.find("SDL_CreateWindow") != std::string::npos;
    if (no_video && run("command -v xvfb-run").exit_code == 0) {
        r = run("xvfb-run -a env" + args);
    }
    return r;
}

/// What the scene part of a screenshot holds.
struct Picture {
    int width = 0;
    int height = 0;
    std::size_t scene_pixels = 0;  ///< right of the panel
    std::size_t drawn_pixels = 0;  ///< of those, not background
    std::size_t scene_colours = 0; ///< distinct colours there
};

Picture look_at(const std::string& png) {
    Picture p;
    const std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> image(
        cairo_image_surface_create_from_png(png.c_str()), cairo_surface_destroy);
    if (cairo_surface_status(image.get()) != CAIRO_STATUS_SUCCESS) {
        return p;
    }
    cairo_surface_flush(image.get());
    p.width = cairo_image_surface_get_width(image.get());
    p.height = cairo_image_surface_get_height(image.get());
    const int stride = cairo_image_surface_get_stride(image.get());
    const unsigned char* data = cairo_image_surface_get_data(image.get());
    std::set<std::uint32_t> colours;
    for (int y = 0; y < p.height; ++y) {
        const auto* row =
            reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
        for (int x = k_panel_px; x < p.width; ++x) {
            const std::uint32_t rgb = row[x] & 0xffffffu;
            ++p.scene_pixels;
            p.drawn_pixels += rgb != k_background ? 1 : 0;
            colours.insert(rgb);
        }
    }
    p.scene_colours = colours.size();
    return p;
}

class TestbedSample : public ::testing::TestWithParam<std::string> {};

TEST_P(TestbedSample, RunsHeadlessKeepsItsInvariantAndDrawsAScene) {
    const std::string png = std::string(SWEEP_TESTBED_OUT) + "/" + GetParam() + ".png";
    std::remove(png.c_str());
    const Outcome r = run_headless(GetParam(), png);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const Picture p = look_at(png);
    ASSERT_GT(p.width, k_panel_px) << png << " is missing or too small";
    EXPECT_GE(p.scene_colours, 3u) << png << ": the scene is blank";
    // Static geometry and bodies cover far more than this; an empty or
    // wrongly framed scene covers almost nothing.
    EXPECT_GT(p.drawn_pixels, p.scene_pixels / 200) << png << ": almost nothing drawn";
    EXPECT_LT(p.drawn_pixels, p.scene_pixels * 9 / 10) << png << ": the scene is flooded";
}

INSTANTIATE_TEST_SUITE_P(All, TestbedSample, ::testing::ValuesIn(sample_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             for (char& c : name) {
                                 c = c == '-' ? '_' : c;
                             }
                             return name;
                         });

TEST(Testbed, ListsItsSamplesOneALine) {
    const std::vector<std::string> names = sample_names();
    EXPECT_GE(names.size(), 10u);
    for (const std::string& name : names) {
        EXPECT_FALSE(name.empty());
        EXPECT_EQ(name.find(' '), std::string::npos) << name;
    }
}

TEST(Testbed, AnUnknownSampleIsBadInput) {
    EXPECT_EQ(
        run(std::string("\"") + SWEEP_TESTBED + "\" --sample no-such-sample --frames 1").exit_code,
        2);
}

} // namespace
