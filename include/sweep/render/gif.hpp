// Animated GIFs with giflib: a fixed palette that cairo's pixels are
// quantized to, and a writer that adds frames one by one.
//
// Pictures of a run use few colours (a background, greys, eight body colours
// and their blends), so a palette built once from them replaces per-frame
// colour quantization: each frame costs one table look-up per pixel. Frames
// after the first store only the rectangle that changed, with unchanged
// pixels transparent, which keeps files small (GIF89a, "Graphic Control
// Extension" and "Image Descriptor" of the specification).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "sweep/result.hpp"

namespace sweep::render {

/// A colour with 8 bits per channel.
struct Rgb8 {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;
    friend constexpr bool operator==(const Rgb8&, const Rgb8&) = default;
};

/// A fixed GIF palette of at most 255 colours (index 255 is kept for
/// transparency) and the nearest-colour look-up that quantizes pixels to it.
class Palette {
  public:
    /// Largest number of colours: 256 GIF entries minus the transparent one.
    static constexpr std::size_t k_max_colours = 255;

    /// The palette of `colours`, in that order. Errors: no colours or more
    /// than k_max_colours (invalid_input).
    static Result<Palette> make(std::vector<Rgb8> colours);

    /// The index of the colour nearest to (r, g, b) (squared RGB distance),
    /// looked up in a table of 6 bits per channel filled on first use: exact
    /// palette colours map to themselves.
    std::uint8_t nearest(std::uint8_t r, std::uint8_t g, std::uint8_t b);

    /// The colours, in index order.
    const std::vector<Rgb8>& colours() const { return colours_; }

  private:
    explicit Palette(std::vector<Rgb8> colours);

    std::vector<Rgb8> colours_;
    std::vector<std::uint16_t> table_; ///< 2^18 entries, k_unset until looked up
};

/// Writes an animated GIF (GIF89a, looping forever) frame by frame.
class GifWriter {
  public:
    /// Opens `path` for a `width` x `height` animation with `palette`.
    /// Errors: sizes outside [1, 65535] (invalid_input); a file giflib cannot
    /// create (io_error, naming the path and giflib's reason).
    static Result<GifWriter> open(const std::filesystem::path& path, int width, int height,
                                  Palette palette);

    GifWriter(GifWriter&&) noexcept;
    GifWriter& operator=(GifWriter&&) noexcept;
    ~GifWriter(); ///< closes the file if close() was not called; errors are lost then

    /// Adds one frame shown for `delay_cs` hundredths of a second (clamped to
    /// [1, 65535]). `argb` holds height rows of `stride_px` pixels 0xAARRGGBB
    /// (cairo's ARGB32/RGB24 layout in native byte order; alpha ignored).
    /// Errors: too few pixels for the size and stride (invalid_input); a
    /// write error (io_error); calling after close() (invalid_input).
    Result<void> add_frame(std::span<const std::uint32_t> argb, std::size_t stride_px,
                           int delay_cs);

    /// Finishes the file. Errors: a write error (io_error); no frame was
    /// added (invalid_input: a GIF needs one).
    Result<void> close();

  private:
    struct State;
    explicit GifWriter(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

} // namespace sweep::render
