// sweep-testbed: the interactive testbed (issue 7).
//
//   sweep-testbed [--sample NAME] [--map FILE.tmx]
//   sweep-testbed --list
//   sweep-testbed --sample NAME --frames N [--screenshot OUT.png]   (headless)
#include <CLI/CLI.hpp>

#include <iostream>

#include "app.hpp"
#include "samples/registry.hpp"

int main(int argc, char** argv) {
    using namespace sweep::testbed;
    CLI::App cli{"sweep-testbed: every seed scenario as a sample to watch, drag and step through"};
    AppOptions options;
    options.map = SWEEP_DEFAULT_MAP;
    bool list = false;
    int frames = 0;
    std::string screenshot;
    cli.add_flag("--list", list, "print the sample names, one a line");
    cli.add_option("--sample", options.sample, "the sample to start with");
    cli.add_option("--map", options.map, "the Tiled map of the platformer sample");
    cli.add_option("--frames", frames, "run headless for N frames (one step each), then exit")
        ->check(CLI::PositiveNumber);
    cli.add_option("--screenshot", screenshot, "with --frames: save the last frame as a PNG");
    cli.add_option("--width", options.width, "window width, pixels")->check(CLI::Range(320, 4096));
    cli.add_option("--height", options.height, "window height, pixels")
        ->check(CLI::Range(240, 4096));
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e) == 0 ? 0 : 2;
    }
    if (list) {
        for (const SampleInfo& s : all_samples()) {
            std::cout << s.name << '\n';
        }
        return 0;
    }
    if (frames > 0) {
        options.frames = frames;
    }
    if (!screenshot.empty()) {
        if (!options.frames) {
            std::cerr << "sweep-testbed: --screenshot needs --frames\n";
            return 2;
        }
        options.screenshot = screenshot;
    }
    return run_app(options);
}
