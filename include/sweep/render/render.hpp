// Pictures of a scene: static geometry, bodies at their final pose, their
// paths and highlighted points, written as PNG with cairo.
//
// Frame: world, y up, lengths in world units L (docs/conventions.md); the
// picture flips y so that up is up on screen.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sweep/math.hpp"
#include "sweep/result.hpp"
#include "sweep/shapes.hpp"

namespace sweep::render {

/// One body: its shape placed by `xf`, and the path its origin followed.
struct BodyDrawing {
    Shape shape;                  ///< in the body's local frame
    Transform xf;                 ///< final pose, local to world
    std::vector<Vec2> trajectory; ///< world points, oldest first; non-finite points break the line
    bool dynamic = true;          ///< dynamic bodies take a palette colour, static ones grey
};

/// Everything one picture shows, in world coordinates (L, y up).
struct Drawing {
    Aabb view;                                       ///< world region to draw (y up)
    std::vector<Aabb> static_boxes;                  ///< solid geometry
    std::vector<std::vector<Vec2>> static_polylines; ///< optional extra static outlines
    std::vector<BodyDrawing> bodies;                 ///< final poses and their paths
    std::vector<Vec2>
        markers;       ///< points to highlight (e.g. tunneling events), drawn as red crosses
    std::string title; ///< drawn in the top-left corner
};

/// How to draw.
struct RenderOptions {
    int max_size_px = 1600;      ///< longest side of the image, pixels, in [1, 16384]
    real background_grey = 0.97; ///< grey level of empty space, 0 black .. 1 white
};

/// Draws `drawing` and writes it as a PNG to `out`. The image keeps the
/// view's aspect ratio with its longest side `options.max_size_px` pixels.
/// Static boxes are filled dark grey; each body's trajectory is a thin line
/// in its palette colour (by index in `bodies`) and its shape is drawn at its
/// final pose (circles with a radius line showing rotation, polygons as
/// outlines with a light fill); a body smaller than a few pixels also gets a
/// dot so it stays visible on a large map. Markers are red crosses; the title
/// is written top-left. Geometry outside the view is culled or clipped.
///
/// Errors, never exceptions: a view that is not finite or has zero width or
/// height, max_size_px outside [1, 16384], or a background outside [0, 1]
/// -> ErrorCode::invalid_input; an image cairo cannot allocate ->
/// ErrorCode::limit_exceeded; a PNG that cannot be written ->
/// ErrorCode::io_error with the path and cairo's reason.
Result<void> render_png(const Drawing& drawing, const std::filesystem::path& out,
                        const RenderOptions& options = {});

} // namespace sweep::render
