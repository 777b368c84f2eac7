// What `sweep render` and `sweep run --png` write: the output format chosen
// by the file's extension, the image size, the frames an animation shows and
// how long each is shown.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run.hpp"
#include "sweep/render/render.hpp"
#include "sweep/result.hpp"

namespace sweep::app {

/// The picture formats, by file extension.
enum class PictureFormat { png, svg, gif };

/// The format of `out` from its extension (.png, .svg, .gif, any case).
/// Errors: any other extension (invalid_input, naming it).
Result<PictureFormat> picture_format(const std::filesystem::path& out);

/// An image size in pixels.
struct ImageSize {
    int width = 0;
    int height = 0;
};

/// "WxH" (W and H decimal, 16 to 16384, 'x' or 'X'). Errors: anything else
/// (invalid_input, quoting the text).
Result<ImageSize> parse_image_size(const std::string& text);

/// Most frames an animation of a run shows; longer runs skip steps.
inline constexpr int k_max_gif_frames = 200;

/// The steps an animation of `steps` steps shows: 0, s, 2s, ... up to
/// `steps`, with the stride s the smallest that keeps at most
/// k_max_gif_frames frames.
std::vector<int> animation_steps(int steps);

/// Hundredths of a second per frame: 100 / fps, at least 2 (browsers slow
/// shorter delays down to 10). With fps 0, real time: the steps a frame
/// skips at `hz` steps per second.
int frame_delay_cs(double fps, int stride, double hz);

/// What to draw and where.
struct PictureOptions {
    std::filesystem::path out;
    PictureFormat format = PictureFormat::png;
    std::optional<int> frame;      ///< PNG/SVG: this step instead of the whole run
    double fps = 0;                ///< GIF frames per second; 0: real time
    std::optional<ImageSize> size; ///< exact size, the map fitted in it
    int max_size_px = 800;         ///< longest side of the map without `size`
};

/// Draws `report` (a run made with `frame_steps` from picture_frame_steps)
/// as `options` asks, reporting each GIF frame to `progress` (may be empty).
/// Errors: render's errors (bad size, unwritable file).
Result<void> write_picture(const RunReport& report, const PictureOptions& options, double hz,
                           const std::function<void(int done, int total)>& progress);

/// The steps to record as frames for `options` in a run of `steps` steps:
/// the animation's for a GIF, the one frame asked for, else none.
std::vector<int> picture_frame_steps(const PictureOptions& options, int steps);

} // namespace sweep::app
