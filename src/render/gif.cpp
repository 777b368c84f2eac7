// GIF encoding with giflib (EGif*): a screen descriptor with the global
// palette, the NETSCAPE2.0 looping extension, then per frame a graphic
// control extension (delay, transparency, "do not dispose") and the image
// rectangle that changed since the previous frame.
#include "sweep/render/gif.hpp"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace sweep::render {
namespace {

/// Palette index of pixels that keep the previous frame's colour.
constexpr std::uint8_t k_transparent = 255;
/// Table entry not looked up yet.
constexpr std::uint16_t k_unset = 0xFFFF;
/// Bits per channel of the look-up table.
constexpr int k_table_bits = 6;
/// Largest GIF dimension (16-bit fields).
constexpr int k_max_gif_px = 65535;

Error gif_error(ErrorCode code, const std::string& what, int giflib_error) {
    const char* reason = GifErrorString(giflib_error);
    return Error{code, "gif: " + what + (reason ? std::string(": ") + reason : std::string())};
}

/// The changed pixels' bounding rectangle, in pixels.
struct Rect {
    int left = 0, top = 0, width = 0, height = 0;
};

} // namespace

Palette::Palette(std::vector<Rgb8> colours)
    : colours_(std::move(colours)), table_(std::size_t(1) << (3 * k_table_bits), k_unset) {}

Result<Palette> Palette::make(std::vector<Rgb8> colours) {
    if (colours.empty() || colours.size() > k_max_colours) {
        return Error{ErrorCode::invalid_input, "gif: a palette has 1 to 255 colours"};
    }
    return Palette(std::move(colours));
}

std::uint8_t Palette::nearest(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    constexpr int shift = 8 - k_table_bits;
    const std::size_t key = (std::size_t(r >> shift) << (2 * k_table_bits)) |
                            (std::size_t(g >> shift) << k_table_bits) | std::size_t(b >> shift);
    std::uint16_t& entry = table_[key];
    if (entry == k_unset) {
        // The first pixel of each table cell decides for the whole cell; the
        // cell is 4 levels wide, so exact palette colours find themselves.
        int best = 0;
        int best_distance = 1 << 30;
        for (std::size_t i = 0; i < colours_.size(); ++i) {
            const int dr = int(colours_[i].r) - r;
            const int dg = int(colours_[i].g) - g;
            const int db = int(colours_[i].b) - b;
            const int distance = dr * dr + dg * dg + db * db;
            if (distance < best_distance) {
                best_distance = distance;
                best = int(i);
            }
        }
        entry = std::uint16_t(best);
    }
    return std::uint8_t(entry);
}

struct GifWriter::State {
    State(GifFileType* file_, Palette palette_, int width_, int height_)
        : file(file_), palette(std::move(palette_)), width(width_), height(height_) {}
    State(const State&) = delete; // owns the file
    State& operator=(const State&) = delete;

    GifFileType* file = nullptr;
    Palette palette;
    int width = 0;
    int height = 0;
    int frames = 0;
    std::vector<std::uint8_t> previous; ///< the indices shown after the last frame
    std::vector<std::uint8_t> current;
    std::vector<std::uint8_t> row;

    ~State() {
        if (file) {
            int error = 0;
            EGifCloseFile(file, &error);
        }
    }
};

GifWriter::GifWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
GifWriter::GifWriter(GifWriter&&) noexcept = default;
GifWriter& GifWriter::operator=(GifWriter&&) noexcept = default;
GifWriter::~GifWriter() = default;

Result<GifWriter> GifWriter::open(const std::filesystem::path& path, int width, int height,
                                  Palette palette) {
    if (width < 1 || height < 1 || width > k_max_gif_px || height > k_max_gif_px) {
        return Error{ErrorCode::invalid_input, "gif: width and height must be in [1, 65535]"};
    }
    const std::string name = path.string();
    // Opened here rather than by EGifOpenFileName, which makes the file
    // readable by its owner only.
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        return Error{ErrorCode::io_error,
                     "gif: cannot write '" + name + "': " + std::strerror(errno)};
    }
    int error = 0;
    GifFileType* file = EGifOpenFileHandle(fd, &error); // owns fd once it succeeds
    if (!file) {
        ::close(fd);
        return gif_error(ErrorCode::io_error, "cannot write '" + name + "'", error);
    }
    auto state = std::make_unique<State>(file, std::move(palette), width, height);
    // 256 entries: GIF palettes have a power-of-two size; the unused ones and
    // the transparent one stay black.
    std::vector<GifColorType> colours(256, GifColorType{0, 0, 0});
    for (std::size_t i = 0; i < state->palette.colours().size(); ++i) {
        const Rgb8 c = state->palette.colours()[i];
        colours[i] = GifColorType{c.r, c.g, c.b};
    }
    ColorMapObject* map = GifMakeMapObject(256, colours.data());
    if (!map) {
        return Error{ErrorCode::limit_exceeded, "gif: out of memory"};
    }
    EGifSetGifVersion(file, true);
    // EGifPutScreenDesc copies the map.
    const bool ok = EGifPutScreenDesc(file, width, height, 8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    static const GifByteType k_loop_name[] = "NETSCAPE2.0";
    static const GifByteType k_loop_forever[] = {1, 0, 0};
    if (!ok || EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(file, 11, k_loop_name) != GIF_OK ||
        EGifPutExtensionBlock(file, 3, k_loop_forever) != GIF_OK ||
        EGifPutExtensionTrailer(file) != GIF_OK) {
        return gif_error(ErrorCode::io_error, "cannot write '" + name + "'", file->Error);
    }
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    state->previous.assign(pixels, 0);
    state->current.assign(pixels, 0);
    state->row.assign(std::size_t(width), 0);
    return GifWriter(std::move(state));
}

Result<void> GifWriter::add_frame(std::span<const std::uint32_t> argb, std::size_t stride_px,
                                  int delay_cs) {
    if (!state_ || !state_->file) {
        return Error{ErrorCode::invalid_input, "gif: add_frame after close"};
    }
    State& s = *state_;
    const auto w = std::size_t(s.width);
    const auto h = std::size_t(s.height);
    if (stride_px < w || argb.size() < (h - 1) * stride_px + w) {
        return Error{ErrorCode::invalid_input, "gif: frame smaller than the image"};
    }
    // Quantize, and find the rectangle that differs from the last frame.
    Rect changed{s.width, s.height, 0, 0};
    int right = -1;
    int bottom = -1;
    for (std::size_t y = 0; y < h; ++y) {
        for (std::size_t x = 0; x < w; ++x) {
            const std::uint32_t p = argb[y * stride_px + x];
            const std::uint8_t index =
                s.palette.nearest(std::uint8_t(p >> 16), std::uint8_t(p >> 8), std::uint8_t(p));
            s.current[y * w + x] = index;
            if (s.frames == 0 || index != s.previous[y * w + x]) {
                changed.left = std::min(changed.left, int(x));
                changed.top = std::min(changed.top, int(y));
                right = std::max(right, int(x));
                bottom = std::max(bottom, int(y));
            }
        }
    }
    if (right < 0) {
        changed = {0, 0, 1, 1}; // nothing changed: one transparent pixel keeps the delay
    } else {
        changed.width = right - changed.left + 1;
        changed.height = bottom - changed.top + 1;
    }
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.UserInputFlag = false;
    control.DelayTime = std::clamp(delay_cs, 1, 65535);
    control.TransparentColor = s.frames == 0 ? NO_TRANSPARENT_COLOR : k_transparent;
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(s.file, GRAPHICS_EXT_FUNC_CODE, int(length), extension) != GIF_OK ||
        EGifPutImageDesc(s.file, changed.left, changed.top, changed.width, changed.height, false,
                         nullptr) != GIF_OK) {
        return gif_error(ErrorCode::io_error, "cannot write a frame", s.file->Error);
    }
    for (int y = changed.top; y < changed.top + changed.height; ++y) {
        for (int x = 0; x < changed.width; ++x) {
            const std::size_t at = std::size_t(y) * w + std::size_t(changed.left + x);
            const bool same = s.frames > 0 && s.current[at] == s.previous[at];
            s.row[std::size_t(x)] = same ? k_transparent : s.current[at];
        }
        if (EGifPutLine(s.file, s.row.data(), changed.width) != GIF_OK) {
            return gif_error(ErrorCode::io_error, "cannot write a frame", s.file->Error);
        }
    }
    std::swap(s.previous, s.current);
    ++s.frames;
    return {};
}

Result<void> GifWriter::close() {
    if (!state_ || !state_->file) {
        return Error{ErrorCode::invalid_input, "gif: closed twice"};
    }
    if (state_->frames == 0) {
        return Error{ErrorCode::invalid_input, "gif: no frame was added"};
    }
    int error = 0;
    const int result = EGifCloseFile(std::exchange(state_->file, nullptr), &error);
    if (result != GIF_OK) {
        return gif_error(ErrorCode::io_error, "cannot finish the file", error);
    }
    return {};
}

} // namespace sweep::render
