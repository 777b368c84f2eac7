// The sweep program: runs levels (Tiled maps or the built-in room), reports
// what happened, and draws it.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "builtin_level.hpp"
#include "level_check.hpp"
#include "picture.hpp"
#include "progress.hpp"
#include "run.hpp"
#include "scene_run.hpp"

namespace {

using namespace sweep;

// Exit codes (docs/conventions.md): 2 for bad input, 1 for anything else.
int exit_code(const Error& error) {
    switch (error.code) {
    case ErrorCode::invalid_input:
    case ErrorCode::parse_error:
    case ErrorCode::io_error:
    case ErrorCode::unsupported:
    case ErrorCode::limit_exceeded:
    case ErrorCode::degenerate_shape:
        return 2;
    case ErrorCode::stale_handle:
        break;
    }
    return 1;
}

int fail(const Error& error) {
    std::fprintf(stderr, "sweep: %s\n", error.message.c_str());
    return exit_code(error);
}

Result<io::StaticGeometry> load_level(const std::string& file,
                                      const std::vector<std::string>& solid_layers,
                                      const std::vector<std::string>& solid_properties) {
    if (file.empty()) {
        return app::builtin_level();
    }
    io::TiledLoadOptions options;
    options.solid_layers = solid_layers;
    for (const std::string& text : solid_properties) {
        auto property = io::parse_solid_property(text);
        if (!property) {
            return Error{property.error().code, "--solid-property: " + property.error().message};
        }
        options.solid_properties.push_back(*property);
    }
    auto level = io::load_tiled_map(file, options);
    if (level) {
        // Problems that did not stop the load, one line each.
        for (const std::string& warning : level->warnings) {
            std::fprintf(stderr, "sweep: warning: %s\n", warning.c_str());
        }
    }
    return level;
}

nlohmann::json to_json(const app::RunReport& r) {
    return {{"level", r.level},
            {"steps", r.steps},
            {"bodies", r.bodies},
            {"shapes_static", r.shapes_static},
            {"shapes_before_merge", r.shapes_before_merge},
            {"static_boxes", r.static_boxes},
            {"static_polygons", r.static_polygons},
            {"static_circles", r.static_circles},
            {"static_segments", r.static_segments},
            {"solid_tiles", r.solid_tiles},
            {"contacts_max", r.contacts_max},
            {"tunneling_events", r.tunneling_events},
            {"max_penetration", r.max_penetration},
            {"linear_slop", r.linear_slop},
            {"length_units_per_meter", r.length_units_per_meter},
            {"subdivision_cap_hits", r.subdivision_cap_hits},
            {"toi_events", r.toi_events},
            {"wall_seconds", r.wall_seconds},
            {"steps_per_second", r.steps_per_second}};
}

void print_summary(const app::RunReport& r) {
    fmt::print("level            {}\n", r.level);
    fmt::print("static shapes    {} after merging, {} before ({} solid tiles)\n", r.shapes_static,
               r.shapes_before_merge, r.solid_tiles);
    fmt::print("                 {} boxes, {} polygons, {} circles, {} segments\n", r.static_boxes,
               r.static_polygons, r.static_circles, r.static_segments);
    fmt::print("bodies           {}\n", r.bodies);
    fmt::print("steps            {} in {:.2f} s ({:.0f} steps/s)\n", r.steps, r.wall_seconds,
               r.steps_per_second);
    fmt::print("contacts (max)   {}\n", r.contacts_max);
    fmt::print("TOI events       {} ({} hit the iteration cap)\n", r.toi_events,
               r.subdivision_cap_hits);
    fmt::print("max penetration  {:.4f} L = {:.2f} x linear slop\n", r.max_penetration,
               r.linear_slop > 0 ? r.max_penetration / r.linear_slop : 0.0);
    fmt::print("tunneling events {}\n", r.tunneling_events);
}

struct Args {
    std::string file;
    std::vector<std::string> solid_layers;
    std::vector<std::string> solid_properties;
    app::RunOptions run;
    bool json = false;
    std::string out; ///< run --png or render --out; empty: no picture
    std::optional<int> frame;
    double fps = 0;
    std::string size;
    double dt = 1.0 / 60;
};

void add_run_flags(CLI::App& cmd, Args& args) {
    cmd.add_option("file", args.file,
                   "Tiled map (.tmx, .tmj, .json), or a scene file (.json, docs/scenes.md: it sets "
                   "its own world, bodies, steps and dt, so --steps, --dt, --spawn, --seed and the "
                   "solid options do not apply); the built-in level when omitted")
        ->type_name("MAP|SCENE");
    cmd.add_option("--steps", args.run.steps, "world steps to run")
        ->check(CLI::NonNegativeNumber.description(""))
        ->type_name("N");
    cmd.add_option("--spawn", args.run.spawn, "dynamic bodies to spawn in free space")
        ->check(CLI::NonNegativeNumber.description(""))
        ->type_name("N");
    cmd.add_option("--seed", args.run.seed, "random seed for sizes, places and velocities")
        ->type_name("S");
    cmd.add_option("--dt", args.dt, "seconds per step, 1e-6 to 1 (default 1/60)")
        ->check(CLI::Range(1e-6, 1.0).description(""))
        ->type_name("S");
    cmd.add_option("--trace", args.run.trace,
                   "write one JSON line per step with every body's state")
        ->type_name("OUT.jsonl");
    cmd.add_option("--solid-layer", args.solid_layers,
                   "layer (tile or object) or group whose tiles and shapes collide (repeatable); "
                   "replaces the automatic rule of docs/tiled.md")
        ->type_name("NAME");
    cmd.add_option("--broadphase", args.run.grid,
                   "where static shapes live: tree (default, any level) or grid (same-sized "
                   "tiles)")
        ->transform(
            CLI::CheckedTransformer(std::map<std::string, bool>{{"tree", false}, {"grid", true}})
                .description(""))
        ->type_name("tree|grid");
    cmd.add_option("--solid-property", args.solid_properties,
                   "KEY or KEY=VALUE: layers, objects and tiles with this custom property collide "
                   "(KEY alone: any true value or bodyType static; repeatable); replaces the "
                   "automatic rule")
        ->type_name("KEY[=VALUE]");
}

/// The picture `args` asks for, checked before the run so that a bad
/// option costs nothing. `render` adds --frame, --fps and --size to --png's
/// plain PNG.
Result<app::PictureOptions> picture_options(const Args& args, bool render) {
    app::PictureOptions picture;
    picture.out = args.out;
    if (!render) {
        picture.max_size_px = 1600;
        return picture;
    }
    auto format = app::picture_format(picture.out);
    if (!format) {
        return format.error();
    }
    picture.format = *format;
    if (args.fps > 0 && picture.format != app::PictureFormat::gif) {
        return Error{ErrorCode::invalid_input, "--fps: only a .gif has frames per second"};
    }
    picture.fps = args.fps;
    if (args.frame) {
        if (picture.format == app::PictureFormat::gif) {
            return Error{ErrorCode::invalid_input,
                         "--frame: a GIF shows every frame; --frame is for .png and .svg"};
        }
        if (*args.frame < 0 || *args.frame > args.run.steps) {
            return Error{ErrorCode::invalid_input,
                         fmt::format("--frame {}: out of range, the run has steps 0 to {}",
                                     *args.frame, args.run.steps)};
        }
        picture.frame = args.frame;
    }
    if (!args.size.empty()) {
        auto size = app::parse_image_size(args.size);
        if (!size) {
            return size.error();
        }
        picture.size = *size;
    }
    return picture;
}

/// Draws `report` as `picture` asks, titled with the level's file name and
/// the run's verdict, with a progress bar over the frames on a terminal.
Result<void> draw_report(app::RunReport& report, const app::PictureOptions& picture, double hz) {
    // The file's name alone: a long path would push the counts off the picture.
    report.drawing.title = fmt::format("{}: {} bodies, {} steps, {} tunneling events",
                                       std::filesystem::path(report.level).filename().string(),
                                       report.bodies, report.steps, report.tunneling_events);
    app::ProgressBar bar("drawing", "frames", app::ProgressBar::stderr_is_terminal());
    const auto progress = [&bar](int done, int total) { bar.update(done, total); };
    return app::write_picture(report, picture, hz, progress);
}

int run_command(Args& args, bool draw, bool render) {
    std::optional<app::PictureOptions> picture;
    if (draw) {
        auto checked = picture_options(args, render);
        if (!checked) {
            return fail(checked.error());
        }
        picture = std::move(checked).value();
        args.run.frame_steps = app::picture_frame_steps(*picture, args.run.steps);
    }
    auto level = load_level(args.file, args.solid_layers, args.solid_properties);
    if (!level) {
        return fail(level.error());
    }
    args.run.record_paths = draw;
    args.run.hz = static_cast<real>(1 / args.dt);
    auto report = [&] {
        // The bar is erased when it goes out of scope, before anything is printed.
        app::ProgressBar bar(render ? "render" : "run", "steps",
                             app::ProgressBar::stderr_is_terminal());
        args.run.progress = [&bar](int done, int total) { bar.update(done, total); };
        auto result = app::run_level(*level, args.run);
        args.run.progress = nullptr; // it refers to the bar
        return result;
    }();
    if (!report) {
        return fail(report.error());
    }
    if (draw) {
        if (auto ok = draw_report(*report, *picture, 1 / args.dt); !ok) {
            return fail(ok.error());
        }
    }
    if (args.json) {
        fmt::print("{}\n", to_json(*report).dump(2));
    } else {
        print_summary(*report);
        if (draw) {
            fmt::print("picture          {}\n", args.out);
        }
    }
    return 0;
}

/// `sweep help [COMMAND]`: the program's help, or one command's.
int help_command(CLI::App& cli, const std::string& name) {
    if (name.empty()) {
        // Not cli.help(): that describes the command parsed, which is `help`.
        fmt::print(
            "{}", cli.get_formatter()->make_help(&cli, cli.get_name(), CLI::AppFormatMode::Normal));
        return 0;
    }
    for (const CLI::App* command : cli.get_subcommands({})) {
        if (command->get_name() == name) {
            fmt::print("{}", command->help(cli.get_name()));
            return 0;
        }
    }
    std::vector<std::string> names;
    for (const CLI::App* command : cli.get_subcommands({})) {
        names.push_back(command->get_name());
    }
    std::fprintf(stderr, "sweep: help: unknown command '%s' (commands: %s)\n", name.c_str(),
                 fmt::format("{}", fmt::join(names, ", ")).c_str());
    return 2;
}

/// A parse error as one line on stderr, exit 2; --help and --version print
/// what they print and exit 0.
int parse_failure(CLI::App& cli, const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
        return cli.exit(e);
    }
    std::string message = e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::fprintf(stderr, "sweep: %s\n", message.c_str());
    return 2;
}

// True when `file` is a scene file (docs/scenes.md) rather than a Tiled map:
// a .json whose "format" is "sweep-scene". Unreadable files are left to the
// map loader, whose message names them.
bool names_scene(const std::string& file) {
    if (file.size() < 5 || file.substr(file.size() - 5) != ".json") {
        return false;
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return in && io::is_scene_text(text.str());
}

// `sweep run SCENE.json` and `sweep render SCENE.json`: the scene's own
// world, bodies and characters, for its own steps; the report has the map
// run's fields plus the scene's (scene_run.hpp), the picture what a map's
// has.
int run_scene_command(Args& args, bool draw, bool render) {
    auto scene = io::load_scene(args.file);
    if (!scene) {
        return fail(scene.error());
    }
    if (scene->map) {
        for (const std::string& warning : scene->map->geometry.warnings) {
            std::fprintf(stderr, "sweep: warning: %s\n", warning.c_str());
        }
    }
    app::SceneRunOptions options;
    options.trace = args.run.trace;
    std::optional<app::PictureOptions> picture;
    if (draw) {
        args.run.steps = scene->steps; // --frame counts the scene's steps
        auto checked = picture_options(args, render);
        if (!checked) {
            return fail(checked.error());
        }
        picture = std::move(checked).value();
        options.record_paths = true;
        options.frame_steps = app::picture_frame_steps(*picture, scene->steps);
    }
    auto report = [&] {
        app::ProgressBar bar(render ? "render" : "run", "steps",
                             app::ProgressBar::stderr_is_terminal());
        options.progress = [&bar](int done, int total) { bar.update(done, total); };
        auto result = app::run_scene(*scene, options);
        options.progress = nullptr; // it refers to the bar
        return result;
    }();
    if (!report) {
        return fail(report.error());
    }
    if (draw) {
        if (auto ok = draw_report(report->run, *picture, 1 / double(scene->dt)); !ok) {
            return fail(ok.error());
        }
    }
    if (args.json) {
        nlohmann::json out = to_json(report->run);
        out.update(app::scene_json(*report));
        fmt::print("{}\n", out.dump(2));
    } else {
        print_summary(report->run);
        app::print_scene(*report);
        if (draw) {
            fmt::print("picture          {}\n", args.out);
        }
    }
    return 0;
}

// `sweep check`'s options.
struct CheckArgs {
    std::string file;
    std::string body; ///< WxH in map pixels; empty: one tile
    std::vector<std::string> solid_layers;
    std::vector<std::string> solid_properties;
    bool json = false;
};

// `sweep check MAP [--body WxH]`: the level linter (docs/check.md). Findings
// are its output, not a failure: exit 0 whenever it ran.
int check_command(const CheckArgs& args) {
    std::optional<Vec2> body;
    if (!args.body.empty()) {
        body = app::parse_body_size(args.body);
        if (!body) {
            std::fprintf(stderr, "sweep: --body %s: expected WxH, two numbers > 0 (map pixels)\n",
                         args.body.c_str());
            return 2;
        }
    }
    auto level = load_level(args.file, args.solid_layers, args.solid_properties);
    if (!level) {
        return fail(level.error());
    }
    const Vec2 size = body.value_or(Vec2{real(level->tile_width), real(level->tile_height)});
    auto report = app::check_level(*level, size);
    if (!report) {
        return fail(report.error());
    }
    if (args.json) {
        fmt::print("{}\n", app::check_json(*report).dump(2));
    } else {
        app::print_check(*report);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App cli{"sweep: 2D continuous collision detection and response", "sweep"};
    cli.footer("Run 'sweep help COMMAND' for the options of a command.");
    cli.require_subcommand(1);
    cli.set_version_flag("--version", std::string("sweep ") + SWEEP_VERSION,
                         "print the program's version and exit");
    cli.set_help_flag("-h,--help", "print this help and exit");

    Args run_args;
    CLI::App* run =
        cli.add_subcommand("run", "run a level with spawned bodies and report what happened");
    add_run_flags(*run, run_args);
    run->add_flag("--json", run_args.json, "print one JSON object instead of the summary");
    run->add_option("--png", run_args.out, "also draw the run to this PNG (1600 px)")
        ->type_name("OUT.png");

    Args render_args;
    CLI::App* render_cmd = cli.add_subcommand(
        "render", "run a level and draw it: static shapes, bodies, contacts and paths");
    add_run_flags(*render_cmd, render_args);
    render_cmd
        ->add_option("--out", render_args.out,
                     "the picture: .png or .svg (the whole run's paths, or --frame) or .gif "
                     "(the animation, at most 200 frames)")
        ->required()
        ->type_name("OUT");
    render_cmd
        ->add_option("--frame", render_args.frame,
                     "PNG/SVG: draw the bodies after this many steps, 0 to --steps")
        ->type_name("K");
    render_cmd
        ->add_option("--fps", render_args.fps,
                     "GIF frames per second, 0.5 to 50 (default: real time at 1/dt steps/s)")
        ->check(CLI::Range(0.5, 50.0).description(""))
        ->type_name("F");
    render_cmd
        ->add_option("--size", render_args.size,
                     "image size in pixels, 16 to 16384 each, the map fitted inside (default: "
                     "longest side 800 plus the legend)")
        ->type_name("WxH");
    render_args.run.steps = 240;
    render_args.run.spawn = 60;

    std::string help_topic;
    CLI::App* help = cli.add_subcommand("help", "print the help of a command: sweep help COMMAND");
    help->add_option("command", help_topic, "the command (run, render, ...); none: the program's")
        ->type_name("COMMAND");
    CheckArgs check_args;
    CLI::App* check = cli.add_subcommand(
        "check", "lint a level: tile seams a body could catch on, gaps narrower than it, "
                 "overlapping shapes (docs/check.md)");
    check->add_option("file", check_args.file, "Tiled map (.tmx, .tmj, .json)")->required();
    check->add_option("--body", check_args.body,
                      "WxH: the body's width and height in map pixels (default: one tile)");
    check->add_option("--solid-layer", check_args.solid_layers,
                      "layer or group whose tiles and shapes collide (repeatable)");
    check->add_option("--solid-property", check_args.solid_properties,
                      "KEY or KEY=VALUE: things with this custom property collide (repeatable)");
    check->add_flag("--json", check_args.json, "print one JSON object instead of the summary");

    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return parse_failure(cli, e);
    }
    if (help->parsed()) {
        return help_command(cli, help_topic);
    }
    if (check->parsed()) {
        return check_command(check_args);
    }
    if (run->parsed() && names_scene(run_args.file)) {
        return run_scene_command(run_args, !run_args.out.empty(), false);
    }
    if (run->parsed()) {
        return run_command(run_args, !run_args.out.empty(), false);
    }
    if (names_scene(render_args.file)) {
        return run_scene_command(render_args, true, true);
    }
    return run_command(render_args, true, true);
}
