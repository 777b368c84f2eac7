// Pictures of a scene: static geometry, bodies, their paths, contact points
// and normals, highlighted points and a legend, written with cairo as PNG or
// SVG, or as an animated GIF of recorded frames (giflib, see gif.hpp).
//
// Frame: world, y up, lengths in world units L (docs/conventions.md); the
// picture flips y so that up is up on screen.
#pragma once

#include <filesystem>
#include <functional>
#include <span>
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

/// A contact point and the normal there, world coordinates.
struct ContactDrawing {
    Vec2 point;  ///< L
    Vec2 normal; ///< unit vector (from shape A to shape B)
};

/// Everything one picture shows, in world coordinates (L, y up).
struct Drawing {
    Aabb view;                                       ///< world region to draw (y up)
    std::vector<Aabb> static_boxes;                  ///< solid geometry
    std::vector<std::vector<Vec2>> static_polygons;  ///< solid outlines, filled (pieces merge)
    std::vector<std::vector<Vec2>> static_polylines; ///< static lines (segments), stroked
    std::vector<BodyDrawing> bodies;                 ///< final poses and their paths
    std::vector<ContactDrawing> contacts;            ///< drawn as dots with a short normal
    std::vector<Vec2>
        markers;       ///< points to highlight (e.g. tunneling events), drawn as red crosses
    std::string title; ///< drawn in the top-left corner
};

/// The bodies after some steps of a run: what one animation frame shows on
/// top of a Drawing's static geometry.
struct Frame {
    int step = 0;                         ///< steps taken; bodies' paths are cut after this point
    std::vector<Transform> poses;         ///< one per Drawing::bodies, in the same order
    std::vector<ContactDrawing> contacts; ///< touching at this step
};

/// How to draw.
struct RenderOptions {
    /// Longest side of the map area, pixels, in [1, 16384]; used when
    /// width_px and height_px are 0. The legend adds a band below it.
    int max_size_px = 1600;
    int width_px = 0;            ///< with height_px: the exact image size, in [16, 16384]
    int height_px = 0;           ///< the map is fitted and centred above the legend
    real background_grey = 0.97; ///< grey level of empty space, 0 black .. 1 white
    bool legend = true;          ///< a band below the map naming what each mark means
    /// render_gif: called after each frame with the frames done and the
    /// frames in all (a progress bar); may be empty.
    std::function<void(int done, int total)> progress = nullptr;
};

/// `drawing` as at `frame`: bodies at the frame's poses (bodies without a
/// pose keep theirs), paths cut after point `frame.step` (the first point is
/// the state before step 1), the frame's contacts, and the title followed by
/// the step.
Drawing at_frame(const Drawing& drawing, const Frame& frame);

/// Draws `drawing` and writes it as a PNG to `out`. The map keeps the view's
/// aspect ratio with its longest side `options.max_size_px` pixels, or is
/// fitted and centred in `options.width_px` x `options.height_px`.
/// Static boxes and polygons are filled dark grey, static polylines are dark
/// grey lines; each body's trajectory is a thin line
/// in its palette colour (by index in `bodies`) and its shape is drawn at its
/// final pose (circles with a radius line showing rotation, polygons as
/// outlines with a light fill); a body smaller than a few pixels also gets a
/// dot so it stays visible on a large map. Contacts are black dots with a
/// short line along the normal; markers are red crosses; the title is
/// written top-left and the legend below the map. Geometry outside the view
/// is culled or clipped.
///
/// Errors, never exceptions: a view that is not finite or has zero width or
/// height, max_size_px outside [1, 16384], width_px/height_px not both 0 or
/// both in [16, 16384], or a background outside [0, 1] ->
/// ErrorCode::invalid_input; an image cairo cannot allocate ->
/// ErrorCode::limit_exceeded; a file that cannot be written ->
/// ErrorCode::io_error with the path and cairo's reason.
Result<void> render_png(const Drawing& drawing, const std::filesystem::path& out,
                        const RenderOptions& options = {});

/// As render_png, written as SVG through cairo's SVG surface (vector paths,
/// pixel units; text as glyph outlines). Errors as render_png.
Result<void> render_svg(const Drawing& drawing, const std::filesystem::path& out,
                        const RenderOptions& options = {});

/// Writes an animated GIF of `frames` (at_frame of each, in order), each
/// shown for `delay_cs` hundredths of a second, looping. The static geometry
/// and legend are drawn once, and paths grow frame by frame (frames in
/// ascending step order cost least; a frame earlier than the one before
/// redraws the paths from the start); every frame is quantized to a fixed
/// palette of the colours this renderer uses. Errors as render_png, plus no frames or
/// delay_cs outside [1, 65535] (invalid_input) and giflib's write errors
/// (io_error).
Result<void> render_gif(const Drawing& drawing, std::span<const Frame> frames, int delay_cs,
                        const std::filesystem::path& out, const RenderOptions& options = {});

} // namespace sweep::render
