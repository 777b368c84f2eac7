// One run of the program's main job: a level's static geometry, bodies
// spawned in its free space, N steps of the world, and an independent
// referee counting tunneling events.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sweep/io/tiled.hpp"
#include "sweep/render/render.hpp"
#include "sweep/result.hpp"
#include "sweep/world.hpp"

namespace sweep::app {

/// What to run. Speeds and sizes are in tiles (= metres = L).
struct RunOptions {
    int steps = 600;           ///< world steps
    int spawn = 200;           ///< dynamic bodies (half circles, half boxes)
    std::uint32_t seed = 1;    ///< seeds sizes, places and velocities
    real hz = 60;              ///< steps per second
    real min_speed_tiles = 1;  ///< slowest spawn, in tiles per step
    real max_speed_tiles = 2;  ///< fastest spawn, in tiles per step
    bool record_paths = false; ///< keep every body's centre per step (for pictures)
    std::string trace; ///< if set, a JSON-lines file: one line per step with every body's state
    bool grid = false; ///< static shapes in a UniformGrid instead of a DynamicTree
    /// Steps after which to record a render::Frame (0: before the first),
    /// ascending; steps beyond `steps` are never reached.
    std::vector<int> frame_steps;
    /// Called after every step with the steps done and the steps asked for
    /// (a progress bar); may be empty.
    std::function<void(int done, int total)> progress;
};

/// What a run did: the fields of `sweep run --json`.
struct RunReport {
    std::string level;
    int steps = 0;
    int bodies = 0;
    std::size_t shapes_static = 0;       ///< static shapes after merging
    std::size_t shapes_before_merge = 0; ///< solid cells and shapes before merging
    std::size_t static_boxes = 0;
    std::size_t static_polygons = 0;
    std::size_t static_circles = 0;
    std::size_t static_segments = 0;
    std::size_t solid_tiles = 0;
    int contacts_max = 0;
    int tunneling_events = 0;
    real max_penetration = 0; ///< world units L
    real linear_slop = 0;     ///< world units L
    int subdivision_cap_hits =
        0; ///< TOI iteration caps plus steps whose sweep rounds hit their cap
    int toi_events = 0;
    real length_units_per_meter = 1;
    double wall_seconds = 0;
    double steps_per_second = 0;
    render::Drawing drawing; ///< final poses, contacts, paths (if recorded), tunneling events
    std::vector<render::Frame> frames; ///< at RunOptions::frame_steps, in order
};

/// Puts the level's static shapes into `drawing` as pictures show them:
/// boxes, and polygons and circles (24-gons) as filled outlines; segments as
/// lines (world, L).
void draw_static_geometry(render::Drawing& drawing, const io::StaticGeometry& level);

/// Every manifold point touching at the end of the world's last step, with
/// its normal (world), for pictures.
std::vector<render::ContactDrawing> touching_points(const World& world);

/// Fills the report's static shape counts (before and after merging, by
/// kind, solid tiles) from a loaded level.
void set_static_counts(RunReport& report, const io::StaticGeometry& level);

/// Runs the level: its boxes, polygons, circles and segments become static
/// bodies; the bodies spawn at tile centres far enough from every static
/// shape and from each other, sized to fit. Errors: less free room than
/// bodies to spawn (invalid_input, saying how many fit), a world or checker
/// error (their messages), bad options (invalid_input).
Result<RunReport> run_level(const io::StaticGeometry& level, const RunOptions& options);

} // namespace sweep::app
