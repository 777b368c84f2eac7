// The testbed's window: SDL events, the fixed-rate stepping loop, drawing
// and the ImGui panel; or, headless, N frames and a screenshot.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace sweep::testbed {

struct AppOptions {
    std::string sample = "crack";
    std::filesystem::path map; ///< for the platformer
    std::optional<int> frames; ///< set: headless, this many frames, one step each
    std::optional<std::filesystem::path> screenshot; ///< PNG of the last frame
    int width = 1120;
    int height = 700;
};

/// Runs the testbed. Exit codes: 0 ok; 1 a sample's invariant failed (a
/// platformer map that does not load counts), SDL failed or the screenshot
/// could not be written; 2 an unknown sample.
int run_app(const AppOptions& options);

} // namespace sweep::testbed
