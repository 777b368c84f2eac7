// Scene files: a world, its bodies and scripted characters in one JSON file
// (docs/scenes.md is the format, docs/scene.schema.json its JSON Schema).
//
// A scene gives the world settings (gravity, L, caps, sub-steps, bounds),
// bodies with shapes, materials, filters and initial velocities,
// characters moved by World::move from a script, and optionally a Tiled map
// as static geometry. load_scene reads and validates the file; running it is
// the program's job (`sweep run scene.json`).
// Frame and units: docs/conventions.md (y up, radians counter-clockwise,
// lengths in L, times in seconds, gravity in metres per s^2).
#pragma once

#include <sweep/body.hpp>
#include <sweep/io/tiled.hpp>
#include <sweep/result.hpp>
#include <sweep/world.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::io {

/// The value of a scene file's "format" key.
inline constexpr std::string_view k_scene_format = "sweep-scene";

/// A body of the scene, possibly repeated on a grid.
struct SceneBody {
    std::string name; ///< "" when unnamed; named bodies are reported by the run
    BodyDef def;      ///< type, pose, velocities, gravity scale, damping, fixed rotation
    std::vector<ShapeDef> shapes; ///< body frame; a chain gives one shape per segment
    bool one_way = false;         ///< a one-way platform: blocks only from above (+y)
    int copies_x = 1;             ///< copies along x (>= 1)
    int copies_y = 1;             ///< copies along y (>= 1)
    Vec2 copy_step;               ///< L: offset between neighbouring copies
    /// When set, every copy gets a random heading and a speed uniform in
    /// [min, max] L/s (std::mt19937 seeded with random_seed), replacing
    /// def.linear_velocity.
    std::optional<std::pair<real, real>> random_speed;
    std::uint32_t random_seed = 1;
};

/// One scripted input of a character.
struct CharacterInput {
    int step = 0;             ///< from this step on (0-based)
    std::optional<Vec2> move; ///< L per step, replaces the previous walk
    bool jump = false;        ///< at this step, jump if standing on something
};

/// A character: a kinematic body moved each step, before the world steps,
/// by World::move with its walk plus, when it has gravity, its vertical
/// speed (gravity, jumps, landing) times dt.
struct SceneCharacter {
    std::string name;
    Vec2 position;                      ///< body origin, world, L
    std::vector<ShapeDef> shapes;       ///< body frame
    bool gravity = true;                ///< falls under the world's gravity
    real jump_speed = 0;                ///< L/s upward given by a jump
    std::vector<CharacterInput> inputs; ///< ordered by step
};

/// The Tiled map a scene stands on: its static geometry, loaded.
struct SceneMap {
    std::filesystem::path path;     ///< as resolved (relative to the scene file)
    StaticGeometry geometry;        ///< world units are map pixels (tile height = 1 m)
    bool one_way_platforms = false; ///< the map's horizontal segments block only from above
};

/// A scene file, read and validated.
struct Scene {
    std::string source;      ///< the file as given
    std::string description; ///< free text
    WorldDef world;          ///< L, gravity, caps, bounds, broadphase
    int substeps = 1;        ///< World::step sub-steps (>= 1)
    real dt = real(1) / 60;  ///< seconds per step (> 0)
    int steps = 600;         ///< steps to run (>= 0)
    std::optional<SceneMap> map;
    std::vector<SceneBody> bodies;
    std::vector<SceneCharacter> characters;
};

/// True when `text` is a JSON object whose "format" is "sweep-scene": how
/// `sweep run` tells scene files from Tiled JSON maps (both end in .json).
bool is_scene_text(std::string_view text);

/// Reads and validates a scene file. A map it names is loaded with
/// load_tiled_map relative to the scene file's directory.
///
/// Errors (never exceptions): one message naming the file, the JSON path
/// (RFC 6901, e.g. `/bodies/3/shapes/0/radius`) and the problem:
/// - io_error: the file cannot be read (a map's own errors keep their code);
/// - parse_error: malformed JSON (with line and column), a wrong type, a
///   missing key, an unknown key (named), a wrong "format" or "version";
/// - invalid_input: NaN or infinite numbers (1e999, or beyond the range of
///   `real`), negative radius or density, values outside their domain;
/// - degenerate_shape: polygons with fewer than 3 distinct or collinear
///   points, zero radius, zero-length segments and capsules;
/// - limit_exceeded: more than 1 Mi bodies after copies, files over 64 MiB.
Result<Scene> load_scene(const std::filesystem::path& file);

/// load_scene on text held in memory; `name` stands for the file in
/// messages and a map path is resolved relative to it.
Result<Scene> load_scene_from_memory(std::string_view text, std::string_view name);

} // namespace sweep::io
