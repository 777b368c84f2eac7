// Running a scene file (docs/scenes.md): its map and bodies become a world,
// its characters move by World::move from their scripts, and the same
// independent referee as `sweep run MAP` counts tunneling events.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "run.hpp"
#include "sweep/io/scene.hpp"

namespace sweep::app {

/// How one named body moved during a scene run (world, L, L/s, radians).
struct BodyTrack {
    std::string name;
    BodyState final_state; ///< at the end (the last state seen if it was removed)
    Vec2 min_center;       ///< least centre x and y over the run, the start included
    Vec2 max_center;       ///< greatest centre x and y over the run, the start included
    bool removed = false;  ///< left WorldDef::bounds and was removed
};

/// How a character did.
struct CharacterTrack {
    std::string name;
    Vec2 position;               ///< final body origin
    Vec2 min_position;           ///< least origin x and y over the run
    Vec2 max_position;           ///< greatest origin x and y over the run
    int jumps = 0;               ///< jump inputs taken (standing on something)
    int jumps_refused = 0;       ///< jump inputs while airborne (ignored)
    int grounded_steps = 0;      ///< steps ending on something below it
    int move_cap_hits = 0;       ///< moves that hit k_max_move_iterations
    int started_overlapping = 0; ///< moves that began by pushing out
    bool removed = false;        ///< left WorldDef::bounds and was removed
};

/// What a scene run did: the fields of `sweep run MAP` plus the scene's own.
struct SceneReport {
    RunReport run;                ///< steps, bodies, static shapes, referee verdicts
    std::vector<BodyTrack> named; ///< every named body (copies as name#k)
    std::vector<CharacterTrack> characters;
    real mean_speed = 0;        ///< of the dynamic bodies at the end, L/s
    real max_speed = 0;         ///< of the dynamic bodies at the end, L/s
    real final_penetration = 0; ///< deepest overlap after the last step, L
    int unsupported = 0;        ///< dynamic bodies touching nothing at the end
};

/// What a scene run writes and records besides its report.
struct SceneRunOptions {
    /// If set, a JSON-lines file written as by `sweep run --trace`: one line
    /// per step with every dynamic body's and character's id, centre, angle
    /// and velocities.
    std::string trace;
    /// Fill report.run.drawing for pictures: the static shapes (the map's
    /// and the scene's static bodies'), every moving body (dynamic,
    /// kinematic, characters) with its centre's path, one point per step,
    /// the contacts and tunneling events.
    bool record_paths = false;
    /// Steps after which to record a render::Frame (0: before the first),
    /// ascending; steps beyond scene.steps are never reached.
    std::vector<int> frame_steps;
    /// Called after every step with the steps done and scene.steps (a
    /// progress bar); may be empty.
    std::function<void(int done, int total)> progress;
};

/// Runs `scene` for scene.steps steps of scene.dt. Errors: a body or world
/// the world rejects (its message, with the body's index), a trace file
/// that cannot be opened (io_error), a referee raster too large
/// (limit_exceeded).
Result<SceneReport> run_scene(const io::Scene& scene, const SceneRunOptions& options);

/// The scene-only part of `sweep run --json`: "named", "characters",
/// "mean_speed", "max_speed", "final_penetration", "unsupported_bodies".
nlohmann::json scene_json(const SceneReport& report);

/// The scene-only lines of the text summary.
void print_scene(const SceneReport& report);

} // namespace sweep::app
