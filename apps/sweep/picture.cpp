#include "picture.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace sweep::app {
namespace {

/// Image sides accepted by --size, pixels (render's limits).
constexpr int k_min_side_px = 16;
constexpr int k_max_side_px = 16384;
/// GIF players treat delays below 2 cs as 10 cs; never ask for less.
constexpr int k_min_delay_cs = 2;

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

std::optional<int> parse_side(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < k_min_side_px ||
        value > k_max_side_px) {
        return std::nullopt;
    }
    return value;
}

} // namespace

Result<PictureFormat> picture_format(const std::filesystem::path& out) {
    const std::string extension = lowercase(out.extension().string());
    if (extension == ".png") {
        return PictureFormat::png;
    }
    if (extension == ".svg") {
        return PictureFormat::svg;
    }
    if (extension == ".gif") {
        return PictureFormat::gif;
    }
    return Error{ErrorCode::invalid_input, "--out " + out.string() + ": unknown extension '" +
                                               out.extension().string() +
                                               "' (use .png, .svg or .gif)"};
}

Result<ImageSize> parse_image_size(const std::string& text) {
    const std::size_t x = text.find_first_of("xX");
    if (x != std::string::npos) {
        const auto width = parse_side(std::string_view(text).substr(0, x));
        const auto height = parse_side(std::string_view(text).substr(x + 1));
        if (width && height) {
            return ImageSize{*width, *height};
        }
    }
    return Error{ErrorCode::invalid_input,
                 "--size '" + text + "': expected WxH, each 16 to 16384 pixels (e.g. 800x600)"};
}

std::vector<int> animation_steps(int steps) {
    const int states = std::max(0, steps) + 1;
    const int stride = (states + k_max_gif_frames - 1) / k_max_gif_frames;
    std::vector<int> out;
    for (int step = 0; step <= steps; step += stride) {
        out.push_back(step);
    }
    return out;
}

int frame_delay_cs(double fps, int stride, double hz) {
    const double seconds = fps > 0 ? 1 / fps : stride / hz;
    return std::clamp(int(std::lround(100 * seconds)), k_min_delay_cs, 65535);
}

std::vector<int> picture_frame_steps(const PictureOptions& options, int steps) {
    if (options.format == PictureFormat::gif) {
        return animation_steps(steps);
    }
    if (options.frame) {
        return {*options.frame};
    }
    return {};
}

Result<void> write_picture(const RunReport& report, const PictureOptions& options, double hz,
                           const std::function<void(int done, int total)>& progress) {
    render::RenderOptions render_options;
    render_options.progress = progress;
    render_options.max_size_px = options.max_size_px;
    if (options.size) {
        render_options.width_px = options.size->width;
        render_options.height_px = options.size->height;
    }
    switch (options.format) {
    case PictureFormat::gif: {
        const int stride =
            report.frames.size() > 1 ? report.frames[1].step - report.frames[0].step : 1;
        return render::render_gif(report.drawing, report.frames,
                                  frame_delay_cs(options.fps, stride, hz), options.out,
                                  render_options);
    }
    case PictureFormat::png:
    case PictureFormat::svg: {
        const render::Drawing drawing = options.frame && !report.frames.empty()
                                            ? render::at_frame(report.drawing, report.frames[0])
                                            : report.drawing;
        return options.format == PictureFormat::png
                   ? render::render_png(drawing, options.out, render_options)
                   : render::render_svg(drawing, options.out, render_options);
    }
    }
    return {};
}

} // namespace sweep::app
