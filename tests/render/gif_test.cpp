// The GIF writer and render_gif, read back with giflib's decoder (DGif*),
// which shares nothing with the encoder but the format.
#include "sweep/render/gif.hpp"
#include "sweep/render/render.hpp"

#include <gif_lib.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace {

using sweep::render::GifWriter;
using sweep::render::Palette;
using sweep::render::Rgb8;

std::filesystem::path temp_gif(const std::string& name) {
    return std::filesystem::path(::testing::TempDir()) / ("sweep_gif_" + name + ".gif");
}

/// A whole GIF decoded by giflib.
struct Decoded {
    explicit Decoded(const std::filesystem::path& path) {
        int error = 0;
        gif = DGifOpenFileName(path.string().c_str(), &error);
        ok = gif && DGifSlurp(gif) == GIF_OK;
    }
    ~Decoded() {
        if (gif) {
            int error = 0;
            DGifCloseFile(gif, &error);
        }
    }
    Decoded(const Decoded&) = delete;
    Decoded& operator=(const Decoded&) = delete;

    int delay_cs(int frame) const {
        GraphicsControlBlock control{};
        DGifSavedExtensionToGCB(gif, frame, &control);
        return control.DelayTime;
    }
    int transparent(int frame) const {
        GraphicsControlBlock control{};
        DGifSavedExtensionToGCB(gif, frame, &control);
        return control.TransparentColor;
    }
    /// The colour at (x, y) after frames 0..frame are drawn, as a viewer
    /// shows it (transparent pixels keep what was there).
    Rgb8 composite(int frame, int x, int y) const {
        int index = -1;
        for (int k = 0; k <= frame; ++k) {
            const SavedImage& image = gif->SavedImages[k];
            const GifImageDesc& d = image.ImageDesc;
            if (x < d.Left || y < d.Top || x >= d.Left + d.Width || y >= d.Top + d.Height) {
                continue;
            }
            const int value = image.RasterBits[(y - d.Top) * d.Width + (x - d.Left)];
            if (value != transparent(k)) {
                index = value;
            }
        }
        const GifColorType c = gif->SColorMap->Colors[index < 0 ? 0 : index];
        return {c.Red, c.Green, c.Blue};
    }

    GifFileType* gif = nullptr;
    bool ok = false;
};

std::vector<std::uint32_t> solid_frame(int w, int h, std::uint32_t argb) {
    return std::vector<std::uint32_t>(std::size_t(w * h), argb);
}

TEST(Palette, ExactColoursMapToThemselvesAndOthersToTheNearest) {
    auto palette = Palette::make({{0, 0, 0}, {255, 255, 255}, {247, 247, 247}, {31, 119, 180}});
    ASSERT_TRUE(palette);
    EXPECT_EQ(palette->nearest(247, 247, 247), 2);
    EXPECT_EQ(palette->nearest(255, 255, 255), 1);
    EXPECT_EQ(palette->nearest(31, 119, 180), 3);
    EXPECT_EQ(palette->nearest(20, 20, 20), 0);
    EXPECT_EQ(palette->nearest(40, 110, 190), 3);
}

TEST(Palette, EmptyOrOverfullIsAnError) {
    EXPECT_FALSE(Palette::make({}));
    EXPECT_FALSE(Palette::make(std::vector<Rgb8>(256)));
    EXPECT_TRUE(Palette::make(std::vector<Rgb8>(255)));
}

TEST(GifWriter, FramesDelaysAndColoursReadBack) {
    const auto path = temp_gif("frames");
    auto palette = Palette::make({{0, 0, 0}, {255, 0, 0}, {0, 0, 255}});
    ASSERT_TRUE(palette);
    auto writer = GifWriter::open(path, 4, 3, std::move(palette).value());
    ASSERT_TRUE(writer);
    auto first = solid_frame(4, 3, 0xFF000000u);
    auto second = first;
    second[1 * 4 + 2] = 0xFFFF0000u; // (2, 1) turns red
    ASSERT_TRUE(writer->add_frame(first, 4, 7));
    ASSERT_TRUE(writer->add_frame(second, 4, 9));
    ASSERT_TRUE(writer->add_frame(second, 4, 11)); // nothing changes
    ASSERT_TRUE(writer->close());

    Decoded gif(path);
    ASSERT_TRUE(gif.ok);
    EXPECT_EQ(gif.gif->SWidth, 4);
    EXPECT_EQ(gif.gif->SHeight, 3);
    ASSERT_EQ(gif.gif->ImageCount, 3);
    EXPECT_EQ(gif.delay_cs(0), 7);
    EXPECT_EQ(gif.delay_cs(1), 9);
    EXPECT_EQ(gif.delay_cs(2), 11);
    // The second frame stores only the pixel that changed.
    EXPECT_EQ(gif.gif->SavedImages[1].ImageDesc.Width, 1);
    EXPECT_EQ(gif.gif->SavedImages[1].ImageDesc.Height, 1);
    EXPECT_EQ(gif.composite(0, 2, 1), (Rgb8{0, 0, 0}));
    EXPECT_EQ(gif.composite(1, 2, 1), (Rgb8{255, 0, 0}));
    EXPECT_EQ(gif.composite(2, 2, 1), (Rgb8{255, 0, 0}));
    EXPECT_EQ(gif.composite(2, 0, 0), (Rgb8{0, 0, 0}));
}

TEST(GifWriter, BadSizesFramesAndPathsAreErrors) {
    auto palette = Palette::make({{0, 0, 0}});
    ASSERT_TRUE(palette);
    EXPECT_FALSE(GifWriter::open(temp_gif("zero"), 0, 3, *palette));
    const auto missing = GifWriter::open("/nonexistent-sweep-dir/a.gif", 4, 4, *palette);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, sweep::ErrorCode::io_error);
    auto writer = GifWriter::open(temp_gif("short"), 4, 4, *palette);
    ASSERT_TRUE(writer);
    const auto too_few = solid_frame(4, 3, 0);
    EXPECT_FALSE(writer->add_frame(too_few, 4, 5));
    EXPECT_FALSE(writer->close()); // no frame yet
}

sweep::render::Drawing two_balls() {
    sweep::render::Drawing d;
    d.view = {{0, 0}, {100, 50}};
    d.static_boxes = {{{0, 0}, {100, 5}}};
    for (int i = 0; i < 2; ++i) {
        sweep::render::BodyDrawing body;
        sweep::Circle c;
        c.radius = 4;
        body.shape = c;
        body.trajectory = {{20.0f + 40 * i, 30}, {25.0f + 40 * i, 25}, {30.0f + 40 * i, 20}};
        d.bodies.push_back(body);
    }
    d.title = "two balls";
    return d;
}

TEST(RenderGif, OneFramePerFrameWithTheDelayAndTheMapSize) {
    const sweep::render::Drawing d = two_balls();
    std::vector<sweep::render::Frame> frames;
    for (int step = 0; step <= 2; ++step) {
        sweep::render::Frame f;
        f.step = step;
        for (const auto& body : d.bodies) {
            f.poses.push_back({body.trajectory[std::size_t(step)], {}});
        }
        frames.push_back(f);
    }
    const auto path = temp_gif("render");
    const auto result =
        sweep::render::render_gif(d, frames, 4, path, {.max_size_px = 200, .legend = false});
    ASSERT_TRUE(result) << result.error().message;
    Decoded gif(path);
    ASSERT_TRUE(gif.ok);
    EXPECT_EQ(gif.gif->SWidth, 200);
    EXPECT_EQ(gif.gif->SHeight, 100);
    ASSERT_EQ(gif.gif->ImageCount, 3);
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(gif.delay_cs(k), 4);
    }
    // Exact colours survive quantization: the background (0.97 grey) and
    // the static fill.
    EXPECT_EQ(gif.composite(2, 190, 10), (Rgb8{247, 247, 247}));
    const Rgb8 floor = gif.composite(2, 100, 96);
    EXPECT_LT(floor.r, 100);
    // The first ball sits at world (20, 30) in frame 0 and has left by frame 2.
    const Rgb8 ball0 = gif.composite(0, 40, 44);
    const Rgb8 ball2 = gif.composite(2, 40, 44);
    EXPECT_GT(ball0.b, ball0.r + 10);
    EXPECT_EQ(ball2, (Rgb8{247, 247, 247}));
}

TEST(RenderGif, LegendBandIsWhiteInEveryFrame) {
    const sweep::render::Drawing d = two_balls();
    std::vector<sweep::render::Frame> frames(3);
    for (int step = 0; step < 3; ++step) {
        frames[std::size_t(step)].step = step;
    }
    const auto path = temp_gif("legend");
    ASSERT_TRUE(sweep::render::render_gif(d, frames, 4, path, {.max_size_px = 400}));
    Decoded gif(path);
    ASSERT_TRUE(gif.ok);
    EXPECT_EQ(gif.gif->SWidth, 400);
    ASSERT_GT(gif.gif->SHeight, 200); // the map, then the legend
    const int bottom = gif.gif->SHeight - 2;
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(gif.composite(k, 398, bottom), (Rgb8{255, 255, 255})) << k;
    }
}

TEST(RenderGif, NoFramesOrBadDelayIsAnError) {
    const sweep::render::Drawing d = two_balls();
    std::vector<sweep::render::Frame> frames(1);
    EXPECT_FALSE(sweep::render::render_gif(d, {}, 4, temp_gif("none")));
    EXPECT_FALSE(sweep::render::render_gif(d, frames, 0, temp_gif("delay")));
}

} // namespace
