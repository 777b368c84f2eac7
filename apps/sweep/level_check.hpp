// `sweep check MAP`: a linter for level designers (docs/check.md). It finds
// where a box-shaped body of a given size would have trouble in a level:
// seams between separate collinear surfaces it could catch on (before the
// loader merges tiles), gaps narrower than the body it could wedge into, and
// static shapes that overlap each other.
// Frame: world, y up, map pixels (docs/tiled.md); the program prints
// positions back in Tiled's pixels (y down).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "sweep/io/tiled.hpp"

namespace sweep::app {

/// Where two separate shapes' collinear edges meet end to end on a surface
/// the body fits against.
struct Seam {
    Vec2 point;  ///< world, the shared end point
    Vec2 normal; ///< world unit outward normal of the surface (up: a floor)
};

/// A free run between two solid shapes narrower than the body.
struct Gap {
    Aabb region;    ///< world: the free space, across the gap and along it
    bool across_x;  ///< the gap's narrow side is along x (shapes side by side)
    real width = 0; ///< L: across the gap
};

/// Two static shapes overlapping beyond the touch tolerance.
struct ShapeOverlap {
    std::string a; ///< "box 3", "polygon 0", "circle 1", "segment 2": StaticGeometry lists
    std::string b;
    Vec2 point; ///< world: centre of the overlap of their bounding boxes
};

/// What `sweep check` found.
struct LevelCheck {
    std::string level;
    Vec2 body; ///< L: width and height of the body checked
    std::size_t solid_cells = 0;
    std::size_t before_merge = 0; ///< StaticGeometry::counts
    std::size_t after_merge = 0;
    std::vector<Seam> seams;
    std::vector<Gap> gaps;
    std::vector<ShapeOverlap> overlaps;
};

/// Lints `level` for a box body of `body` = (width, height) world units.
///
/// - Seams: the level before merging is its solid cells (each a box) and its
///   polygons and segments. Two of them whose exposed edges lie on one line,
///   with the same outward normal, and meet end to end make a seam, reported
///   when the body, centred on it and just off the surface, fits there inside
///   the level's bounds without overlapping anything.
/// - Gaps: along lines every half tile, the free runs between two solid
///   shapes (after merging) shorter than the body's width (runs along x) or
///   height (along y); runs on consecutive lines with the same ends join
///   into one region.
/// - Overlaps: polygons, circles and segments that overlap another static
///   shape beyond the touch tolerance (docs/conventions.md).
/// Errors: a body size not finite and > 0 (invalid_input); a world error.
Result<LevelCheck> check_level(const io::StaticGeometry& level, Vec2 body);

/// Parses `--body WxH`: two numbers, each finite, > 0 and at most 1e9
/// (map pixels). Empty when the text is anything else.
std::optional<Vec2> parse_body_size(const std::string& text);

/// `sweep check --json`: the counts and every finding, positions in Tiled's
/// pixels (y down): `seams` [{at, surface}], `gaps` [{from, to, width,
/// across}], `overlaps` [{a, b, at}].
nlohmann::json check_json(const LevelCheck& check);

/// The text summary: the counts and the first 20 findings of each kind.
void print_check(const LevelCheck& check);

} // namespace sweep::app
