// render_png writes what it is asked to: the PNG is read back with cairo and
// probed pixel by pixel.
#include "sweep/render/render.hpp"

#include <cairo.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>

/// LeakSanitizer hook: fontconfig, which cairo uses to find the title's font,
/// keeps its parsed configuration for the life of the process and never frees
/// it. Unused outside sanitizer builds.
extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }

namespace {

using sweep::Aabb;
using sweep::ErrorCode;
using sweep::real;
using sweep::Vec2;
using sweep::render::BodyDrawing;
using sweep::render::Drawing;
using sweep::render::render_png;
using sweep::render::RenderOptions;

struct Colour {
    int r = 0, g = 0, b = 0;
};

/// A PNG read back with cairo; pixels addressed with y down, as in the file.
class Image {
  public:
    explicit Image(const std::filesystem::path& path)
        : surface_(cairo_image_surface_create_from_png(path.string().c_str()),
                   &cairo_surface_destroy) {}
    bool ok() const { return cairo_surface_status(surface_.get()) == CAIRO_STATUS_SUCCESS; }
    int width() const { return cairo_image_surface_get_width(surface_.get()); }
    int height() const { return cairo_image_surface_get_height(surface_.get()); }
    Colour at(int x, int y) const {
        // ARGB32 and RGB24 both store 0xAARRGGBB per pixel in native order;
        // the background is opaque, so premultiplication changes nothing.
        const unsigned char* row = cairo_image_surface_get_data(surface_.get()) +
                                   y * cairo_image_surface_get_stride(surface_.get());
        std::uint32_t pixel = 0;
        std::memcpy(&pixel, row + 4 * x, sizeof pixel);
        return {int(pixel >> 16 & 0xFF), int(pixel >> 8 & 0xFF), int(pixel & 0xFF)};
    }

  private:
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface_;
};

std::filesystem::path temp_png(const std::string& name) {
    return std::filesystem::path(::testing::TempDir()) / ("sweep_render_" + name + ".png");
}

sweep::Circle circle(real radius) {
    sweep::Circle c;
    c.radius = radius;
    return c;
}

/// A 100 x 50 L world drawn 200 x 100 px (2 px per L): one box low on the
/// left, one touching the top edge, a circle body with its path, a marker.
Drawing small_drawing() {
    Drawing d;
    d.view = {{0, 0}, {100, 50}};
    d.static_boxes = {{{10, 10}, {30, 30}}, {{70, 40}, {90, 50}}};
    d.static_polylines = {{{0, 2}, {100, 2}}};
    BodyDrawing body;
    body.shape = circle(5);
    body.xf.p = {50, 35};
    const real nan = std::numeric_limits<real>::quiet_NaN();
    body.trajectory = {{40, 35}, {45, 35},   {nan, 0},       {48, 35},
                       {50, 35}, {nan, nan}, {1e30f, -1e30f}};
    d.bodies.push_back(body);
    d.markers = {{60, 25}};
    d.title = "render test";
    return d;
}

/// Releases cairo's font caches at exit, so LeakSanitizer reports only real
/// leaks rather than the fonts cairo keeps for the life of the process.
class CairoCaches : public ::testing::Environment {
  public:
    void TearDown() override { cairo_debug_reset_static_data(); }
};
const auto* const k_cairo_caches = ::testing::AddGlobalTestEnvironment(new CairoCaches);

constexpr int k_background = 247; // 0.97 * 255

TEST(RenderPng, ImageKeepsTheViewAspectWithLongestSideMaxSize) {
    const auto path = temp_png("aspect");
    ASSERT_TRUE(render_png(small_drawing(), path, {.max_size_px = 200, .legend = false}));
    Image wide(path);
    ASSERT_TRUE(wide.ok());
    EXPECT_EQ(wide.width(), 200);
    EXPECT_EQ(wide.height(), 100);

    Drawing tall;
    tall.view = {{-5, 0}, {5, 40}};
    ASSERT_TRUE(render_png(tall, path, {.max_size_px = 100, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image.width(), 25);
    EXPECT_EQ(image.height(), 100);
}

TEST(RenderPng, StaticBoxesAreDarkAndEmptySpaceIsBackground) {
    const auto path = temp_png("boxes");
    ASSERT_TRUE(render_png(small_drawing(), path, {.max_size_px = 200, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    const Colour box = image.at(40, 60); // world (20, 20)
    EXPECT_LT(box.r, 100);
    EXPECT_LT(box.g, 100);
    EXPECT_LT(box.b, 100);
    const Colour empty = image.at(170, 80); // world (85, 10)
    EXPECT_NEAR(empty.r, k_background, 1);
    EXPECT_NEAR(empty.g, k_background, 1);
    EXPECT_NEAR(empty.b, k_background, 1);
}

TEST(RenderPng, WorldUpIsImageUp) {
    const auto path = temp_png("flip");
    ASSERT_TRUE(render_png(small_drawing(), path, {.max_size_px = 200, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_LT(image.at(160, 10).r, 100);               // the box at world y in [40, 50]
    EXPECT_NEAR(image.at(160, 90).r, k_background, 1); // world (80, 5) is empty
}

TEST(RenderPng, MarkersAreRedCrosses) {
    const auto path = temp_png("marker");
    ASSERT_TRUE(render_png(small_drawing(), path, {.max_size_px = 200, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    const Colour marker = image.at(120, 50); // world (60, 25)
    EXPECT_GT(marker.r, 180);
    EXPECT_LT(marker.g, 100);
    EXPECT_LT(marker.b, 100);
}

TEST(RenderPng, BodiesAreFilledInTheirColour) {
    const auto path = temp_png("body");
    ASSERT_TRUE(render_png(small_drawing(), path, {.max_size_px = 200, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    const Colour inside = image.at(95, 34); // world (47.5, 33): in the circle, off its radius line
    EXPECT_GT(inside.b, inside.r + 10);
}

TEST(RenderPng, ManyBoxesOnALargeMapRender) {
    Drawing d;
    d.view = {{0, 0}, {10240, 10240}};
    std::mt19937 rng(3);
    for (int i = 0; i < 5000; ++i) {
        const real x = real(rng() % 640) * 16;
        const real y = real(rng() % 640) * 16;
        d.static_boxes.push_back({{x, y}, {x + 16, y + 16}});
    }
    d.static_boxes.push_back({{0, 0}, {1000, 1000}});
    d.static_boxes.push_back({{-1e30f, -1e30f}, {1e30f, -100}}); // far below the view
    BodyDrawing body;
    body.shape = circle(8);
    body.xf.p = {5000, 5000};
    body.trajectory = {{100, 5000}, {5000, 5000}};
    d.bodies.push_back(body);
    d.title = "10240 x 10240";
    const auto path = temp_png("large");
    const auto result = render_png(d, path, {.legend = false});
    ASSERT_TRUE(result) << result.error().message;
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image.width(), 1600);
    EXPECT_EQ(image.height(), 1600);
    EXPECT_LT(image.at(80, 1520).r, 100); // world (512, 512), in the big box
}

TEST(RenderPng, InvalidViewIsAnError) {
    const auto path = temp_png("invalid");
    const real nan = std::numeric_limits<real>::quiet_NaN();
    for (const Aabb view : {Aabb{{0, 0}, {0, 10}}, Aabb{{0, 0}, {10, 0}}, Aabb{{5, 0}, {0, 10}},
                            Aabb{{0, 0}, {nan, 10}}, Aabb{}}) {
        Drawing d;
        d.view = view;
        const auto result = render_png(d, path, {.legend = false});
        ASSERT_FALSE(result);
        EXPECT_EQ(result.error().code, ErrorCode::invalid_input);
    }
    Drawing d = small_drawing();
    EXPECT_FALSE(render_png(d, path, {.max_size_px = 0}));
    EXPECT_FALSE(render_png(d, path, {.max_size_px = 100000}));
    EXPECT_FALSE(render_png(d, path, {.background_grey = 2}));
}

TEST(RenderPng, UnwritablePathIsAnErrorNamingThePath) {
    const std::filesystem::path path = "/nonexistent-sweep-dir/sub/out.png";
    const auto result = render_png(small_drawing(), path, {.max_size_px = 64});
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code, ErrorCode::io_error);
    EXPECT_NE(result.error().message.find(path.string()), std::string::npos);
}

TEST(RenderPng, InvalidUtf8TitleStillRenders) {
    Drawing d = small_drawing();
    d.title = "bad \xff\xfe utf-8 \xed\xa0\x80 and\ttab";
    const auto path = temp_png("title");
    const auto result = render_png(d, path, {.max_size_px = 200, .legend = false});
    ASSERT_TRUE(result) << result.error().message;
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_LT(image.at(40, 60).r, 100); // drawing was not abandoned
}

TEST(RenderPng, StaticPolygonsAreFilledLikeBoxes) {
    Drawing d;
    d.view = {{0, 0}, {100, 50}};
    d.static_polygons = {{{60, 10}, {90, 10}, {75, 40}}}; // a triangle, counter-clockwise
    const auto path = temp_png("polygon");
    ASSERT_TRUE(render_png(d, path, {.max_size_px = 200, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_LT(image.at(150, 60).r, 100);               // world (75, 20), inside
    EXPECT_NEAR(image.at(124, 30).r, k_background, 1); // world (62, 35), outside
}

TEST(RenderPng, LegendIsAWhiteBandBelowTheMap) {
    const auto path = temp_png("legend");
    ASSERT_TRUE(render_png(small_drawing(), path, {.max_size_px = 800}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image.width(), 800);
    ASSERT_GT(image.height(), 400); // the map is 800 x 400, the legend below
    EXPECT_LT(image.height(), 460); // one row at 800 px
    const Colour band = image.at(790, image.height() - 3);
    EXPECT_EQ(band.r, 255);
    EXPECT_EQ(band.g, 255);
    // The map is unchanged above it: the box at world (20, 20) is dark.
    EXPECT_LT(image.at(160, 240).r, 100);
}

TEST(RenderPng, NarrowImagesWrapTheLegendIntoMoreRows) {
    const auto wide = temp_png("legend_wide");
    const auto narrow = temp_png("legend_narrow");
    ASSERT_TRUE(render_png(small_drawing(), wide, {.max_size_px = 800}));
    ASSERT_TRUE(render_png(small_drawing(), narrow, {.max_size_px = 200}));
    Image a(wide);
    Image b(narrow);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_GT(b.height() - 100, a.height() - 400); // a taller band for the same entries
}

TEST(RenderPng, ExactSizeFitsAndCentresTheMap) {
    const auto path = temp_png("exact");
    // The 100 x 50 map in 300 x 300 without legend: 3 px per L, 150 px
    // tall, centred with 75 px above and below.
    ASSERT_TRUE(
        render_png(small_drawing(), path, {.width_px = 300, .height_px = 300, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image.width(), 300);
    EXPECT_EQ(image.height(), 300);
    EXPECT_LT(image.at(60, 75 + 90).r, 100);                 // world (20, 20) in the box
    EXPECT_NEAR(image.at(60, 40).r, k_background, 1);        // above the map: empty
    EXPECT_NEAR(image.at(255, 75 + 135).r, k_background, 1); // world (85, 5)
}

TEST(RenderPng, ExactSizeOutOfRangeIsAnError) {
    const auto path = temp_png("exact_bad");
    for (const auto& [w, h] :
         {std::pair{0, 100}, std::pair{100, 0}, std::pair{8, 100}, std::pair{100, 20000}}) {
        const auto result = render_png(small_drawing(), path, {.width_px = w, .height_px = h});
        ASSERT_FALSE(result);
        EXPECT_EQ(result.error().code, ErrorCode::invalid_input);
    }
}

TEST(RenderPng, ContactsAreDarkDotsWithANormal) {
    Drawing d = small_drawing();
    d.bodies.clear();
    d.markers.clear();
    d.contacts = {{{50, 20}, {1, 0}}};
    const auto path = temp_png("contact");
    ASSERT_TRUE(render_png(d, path, {.max_size_px = 200, .legend = false}));
    Image image(path);
    ASSERT_TRUE(image.ok());
    EXPECT_LT(image.at(100, 60).r, 120);              // the dot at world (50, 20)
    EXPECT_LT(image.at(107, 60).r, 160);              // the normal, 10 px to the right
    EXPECT_NEAR(image.at(93, 60).r, k_background, 1); // nothing to the left
}

TEST(AtFrame, PosesPathsContactsAndTitleFollowTheFrame) {
    Drawing d = small_drawing();
    d.bodies[0].trajectory = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    sweep::render::Frame frame;
    frame.step = 2;
    frame.poses = {sweep::Transform{{7, 8}, {}}};
    frame.contacts = {{{1, 1}, {0, 1}}};
    const Drawing at = sweep::render::at_frame(d, frame);
    ASSERT_EQ(at.bodies.size(), 1u);
    EXPECT_EQ(at.bodies[0].xf.p.x, 7);
    EXPECT_EQ(at.bodies[0].trajectory.size(), 3u);
    ASSERT_EQ(at.contacts.size(), 1u);
    EXPECT_EQ(at.contacts[0].normal.y, 1);
    EXPECT_EQ(at.title, "render test, step 2");
    EXPECT_EQ(at.static_boxes, d.static_boxes);
}

TEST(RenderSvg, WritesAnSvgOfTheImageSize) {
    const auto path = std::filesystem::path(::testing::TempDir()) / "sweep_render_plain.svg";
    ASSERT_TRUE(
        sweep::render::render_svg(small_drawing(), path, {.max_size_px = 200, .legend = false}));
    const std::string text = [&] {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    EXPECT_NE(text.find("<svg"), std::string::npos);
    EXPECT_NE(text.find("width=\"200"), std::string::npos);
    EXPECT_NE(text.find("height=\"100"), std::string::npos);
}

TEST(RenderSvg, UnwritablePathIsAnError) {
    const auto result = sweep::render::render_svg(small_drawing(), "/nonexistent-sweep-dir/a.svg");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code, ErrorCode::io_error);
}

} // namespace
