// PNG pictures with cairo. Everything is converted to image pixels here, in
// double precision, and clipped before it reaches cairo: cairo stores path
// coordinates in 24.8 fixed point, so a far-away point (a body that flew off,
// a floor a million units wide) would otherwise wrap around.
#include "sweep/render/render.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace sweep::render {
namespace {

/// Largest image side accepted: a 16384^2 ARGB image is already 1 GiB.
constexpr int k_max_image_px = 16384;
/// Geometry is clipped to the image grown by this many pixels, so that line
/// caps and outlines of things just outside the view still show at the edge.
constexpr double k_clip_margin_px = 16;
/// Shapes smaller than this on screen, pixels, also get a dot so they stay
/// visible on a large map.
constexpr double k_min_visible_px = 4;
/// Shapes reaching further from the image than this, pixels, are not drawn:
/// cairo's 24.8 fixed-point coordinates end near 8e6.
constexpr double k_max_shape_px = 1e6;

struct Rgb {
    double r, g, b;
};

/// Eight colours that stay distinct from one another and from the grey
/// background: Tableau 10 without its grey and its red, which mean static
/// geometry and markers here.
constexpr Rgb k_palette[] = {
    {0.122, 0.467, 0.706}, {1.000, 0.498, 0.055}, {0.173, 0.627, 0.173}, {0.580, 0.404, 0.741},
    {0.549, 0.337, 0.294}, {0.890, 0.467, 0.761}, {0.737, 0.741, 0.133}, {0.090, 0.745, 0.812},
};
constexpr Rgb k_static_fill{0.25, 0.25, 0.27};
constexpr Rgb k_static_body{0.45, 0.45, 0.47};
constexpr Rgb k_marker{0.90, 0.05, 0.05};
constexpr Rgb k_text{0.08, 0.08, 0.08};

/// A point in image pixels, y down.
struct Pixel {
    double x = 0;
    double y = 0;
};

/// An axis-aligned rectangle in image pixels.
struct PixelRect {
    double x0, y0, x1, y1;
};

/// The world-to-image map: uniform scale, y flipped.
struct Viewport {
    double left = 0;  ///< world x at the image's left edge
    double top = 0;   ///< world y at the image's top edge
    double scale = 1; ///< pixels per L
    int width = 1;
    int height = 1;
    double unit = 1; ///< line and text scale: 1 at 1600 px, larger for bigger images

    Pixel to_image(Vec2 p) const { return {(p.x - left) * scale, (top - p.y) * scale}; }
    PixelRect clip_rect() const {
        return {-k_clip_margin_px, -k_clip_margin_px, width + k_clip_margin_px,
                height + k_clip_margin_px};
    }
};

using CairoPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;
using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

Result<void> validate(const Drawing& drawing, const RenderOptions& options) {
    const Aabb& view = drawing.view;
    if (!is_valid(view) || !(view.lower.x < view.upper.x) || !(view.lower.y < view.upper.y)) {
        return Error{ErrorCode::invalid_input,
                     "render: the view must be finite with positive width and height"};
    }
    if (options.max_size_px < 1 || options.max_size_px > k_max_image_px) {
        return Error{ErrorCode::invalid_input, "render: max_size_px must be in [1, 16384]"};
    }
    if (!(options.background_grey >= 0 && options.background_grey <= 1)) {
        return Error{ErrorCode::invalid_input, "render: background_grey must be in [0, 1]"};
    }
    return {};
}

Viewport make_viewport(const Aabb& view, int max_size_px) {
    const double width = double(view.upper.x) - view.lower.x;
    const double height = double(view.upper.y) - view.lower.y;
    Viewport vp;
    vp.scale = max_size_px / std::max(width, height);
    vp.left = view.lower.x;
    vp.top = view.upper.y;
    vp.width = std::max(1, int(std::lround(width * vp.scale)));
    vp.height = std::max(1, int(std::lround(height * vp.scale)));
    vp.unit = std::max(1.0, max_size_px / 1600.0);
    return vp;
}

void set_colour(cairo_t* cr, Rgb c, double alpha = 1) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

bool is_finite(Pixel p) { return std::isfinite(p.x) && std::isfinite(p.y); }

/// A segment in image pixels.
struct PixelSegment {
    Pixel a, b;
};

/// The part of the segment a-b inside `rect` (Liang-Barsky); nothing when the
/// segment misses it.
std::optional<PixelSegment> clip_segment(Pixel a, Pixel b, const PixelRect& rect) {
    double t0 = 0;
    double t1 = 1;
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x - rect.x0, rect.x1 - a.x, a.y - rect.y0, rect.y1 - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) {
                return std::nullopt; // parallel to this edge and outside it
            }
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0) {
            t0 = std::max(t0, t);
        } else {
            t1 = std::min(t1, t);
        }
    }
    if (t0 > t1) {
        return std::nullopt;
    }
    return PixelSegment{{a.x + t0 * dx, a.y + t0 * dy}, {a.x + t1 * dx, a.y + t1 * dy}};
}

/// Adds the polyline through `points` (world) to the current path, clipped to
/// the image; non-finite points break it.
void add_polyline(cairo_t* cr, const Viewport& vp, const std::vector<Vec2>& points) {
    const std::size_t n = points.size();
    const std::size_t segments = n > 0 ? n - 1 : 0;
    bool pen_down = false; // whether the path currently ends at the segment's start
    for (std::size_t i = 0; i < segments; ++i) {
        const Pixel a = vp.to_image(points[i]);
        const Pixel b = vp.to_image(points[i + 1]);
        const std::optional<PixelSegment> visible =
            is_finite(a) && is_finite(b) ? clip_segment(a, b, vp.clip_rect()) : std::nullopt;
        if (!visible) {
            pen_down = false;
            continue;
        }
        if (!pen_down) {
            cairo_move_to(cr, visible->a.x, visible->a.y);
        }
        cairo_line_to(cr, visible->b.x, visible->b.y);
        pen_down = visible->b.x == b.x && visible->b.y == b.y; // not clipped at the far end
    }
}

void draw_static_boxes(cairo_t* cr, const Viewport& vp, const std::vector<Aabb>& boxes) {
    // One path for every box, filled once: fast even for thousands of tiles.
    const PixelRect clip = vp.clip_rect();
    for (const Aabb& box : boxes) {
        if (!is_valid(box)) {
            continue;
        }
        const Pixel a = vp.to_image({box.lower.x, box.upper.y}); // top-left on screen
        const Pixel b = vp.to_image({box.upper.x, box.lower.y});
        const double x0 = std::max(a.x, clip.x0);
        const double y0 = std::max(a.y, clip.y0);
        const double x1 = std::min(b.x, clip.x1);
        const double y1 = std::min(b.y, clip.y1);
        if (x0 < x1 && y0 < y1) {
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
        }
    }
    set_colour(cr, k_static_fill);
    cairo_fill(cr);
}

void draw_static_polylines(cairo_t* cr, const Viewport& vp,
                           const std::vector<std::vector<Vec2>>& polylines) {
    for (const auto& polyline : polylines) {
        add_polyline(cr, vp, polyline);
    }
    set_colour(cr, k_static_fill);
    cairo_set_line_width(cr, 1.5 * vp.unit);
    cairo_stroke(cr);
}

std::vector<Vec2> capsule_outline(const Capsule& capsule, const Transform& xf) {
    constexpr int k_chords = 8;
    const Vec2 axis = normalize(capsule.center2 - capsule.center1);
    const real base = std::atan2(axis.y, axis.x) - k_pi / 2;
    std::vector<Vec2> points;
    for (int end = 0; end < 2; ++end) {
        const Vec2 c = end == 0 ? capsule.center2 : capsule.center1;
        for (int i = 0; i <= k_chords; ++i) {
            const real a = base + real(end) * k_pi + k_pi * real(i) / k_chords;
            points.push_back(
                transform_point(xf, c + capsule.radius * Vec2{std::cos(a), std::sin(a)}));
        }
    }
    return points;
}

/// The shape's points in world coordinates: a circle's centre and a point on
/// its rim along the body's x axis, a polygon's vertices, a capsule's outline
/// (two half-discs of 8 chords each), a segment's ends.
std::vector<Vec2> world_points(const Shape& shape, const Transform& xf) {
    std::vector<Vec2> points;
    switch (shape.type) {
    case ShapeType::circle:
        points.push_back(transform_point(xf, shape.circle.center));
        points.push_back(transform_point(xf, shape.circle.center + Vec2{shape.circle.radius, 0}));
        break;
    case ShapeType::capsule:
        points = capsule_outline(shape.capsule, xf);
        break;
    case ShapeType::polygon: {
        const int count = std::clamp(shape.polygon.count, 0, k_max_polygon_vertices);
        for (int i = 0; i < count; ++i) {
            points.push_back(transform_point(xf, shape.polygon.vertices[std::size_t(i)]));
        }
        break;
    }
    case ShapeType::segment:
        points = {transform_point(xf, shape.segment.p1), transform_point(xf, shape.segment.p2)};
        break;
    case ShapeType::chain_segment:
        points = {transform_point(xf, shape.chain_segment.segment.p1),
                  transform_point(xf, shape.chain_segment.segment.p2)};
        break;
    }
    return points;
}

/// The shape's extent in image pixels; nothing when a point is not finite.
std::optional<PixelRect> image_bounds(const Shape& shape, const std::vector<Pixel>& pixels,
                                      const Viewport& vp) {
    if (pixels.empty() ||
        !std::all_of(pixels.begin(), pixels.end(), [](Pixel p) { return is_finite(p); })) {
        return std::nullopt;
    }
    PixelRect bounds{pixels[0].x, pixels[0].y, pixels[0].x, pixels[0].y};
    for (const Pixel& p : pixels) {
        bounds = {std::min(bounds.x0, p.x), std::min(bounds.y0, p.y), std::max(bounds.x1, p.x),
                  std::max(bounds.y1, p.y)};
    }
    if (shape.type == ShapeType::circle) {
        const double r = std::abs(double(shape.circle.radius)) * vp.scale;
        bounds = {pixels[0].x - r, pixels[0].y - r, pixels[0].x + r, pixels[0].y + r};
    }
    return bounds;
}

/// Adds the closed or open path through `pixels` to the current path.
void add_pixel_path(cairo_t* cr, const std::vector<Pixel>& pixels, bool closed) {
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        if (i == 0) {
            cairo_move_to(cr, pixels[i].x, pixels[i].y);
        } else {
            cairo_line_to(cr, pixels[i].x, pixels[i].y);
        }
    }
    if (closed) {
        cairo_close_path(cr);
    }
}

/// Fills the current path lightly in `colour`, then outlines it.
void fill_and_outline(cairo_t* cr, Rgb colour) {
    set_colour(cr, colour, 0.25);
    cairo_fill_preserve(cr);
    set_colour(cr, colour);
    cairo_stroke(cr);
}

void draw_body(cairo_t* cr, const Viewport& vp, const BodyDrawing& body, Rgb colour) {
    std::vector<Pixel> pixels;
    for (const Vec2& p : world_points(body.shape, body.xf)) {
        pixels.push_back(vp.to_image(p));
    }
    const std::optional<PixelRect> bounds = image_bounds(body.shape, pixels, vp);
    const PixelRect clip = vp.clip_rect();
    if (!bounds || bounds->x1 < clip.x0 || bounds->x0 > clip.x1 || bounds->y1 < clip.y0 ||
        bounds->y0 > clip.y1) {
        return; // culled
    }
    // Shapes are drawn unclipped, which cairo's 24.8 fixed point allows up to
    // about 8e6 pixels; a shape larger than that covers the view anyway.
    if (std::max({-bounds->x0, -bounds->y0, bounds->x1, bounds->y1}) > k_max_shape_px) {
        return;
    }
    cairo_set_line_width(cr, 1.5 * vp.unit);
    switch (body.shape.type) {
    case ShapeType::circle:
        cairo_new_sub_path(cr);
        cairo_arc(cr, pixels[0].x, pixels[0].y, 0.5 * (bounds->x1 - bounds->x0), 0, 2 * k_pi);
        fill_and_outline(cr, colour);
        // The radius line turns with the body, so rotation is visible.
        add_pixel_path(cr, pixels, false);
        cairo_stroke(cr);
        break;
    case ShapeType::capsule:
    case ShapeType::polygon:
        add_pixel_path(cr, pixels, true);
        fill_and_outline(cr, colour);
        break;
    case ShapeType::segment:
    case ShapeType::chain_segment:
        cairo_set_line_width(cr, 2 * vp.unit);
        add_pixel_path(cr, pixels, false);
        set_colour(cr, colour);
        cairo_stroke(cr);
        break;
    }
    if (std::max(bounds->x1 - bounds->x0, bounds->y1 - bounds->y0) < k_min_visible_px * vp.unit) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, 0.5 * (bounds->x0 + bounds->x1), 0.5 * (bounds->y0 + bounds->y1), 2 * vp.unit,
                  0, 2 * k_pi);
        set_colour(cr, colour);
        cairo_fill(cr);
    }
}

void draw_bodies(cairo_t* cr, const Viewport& vp, const std::vector<BodyDrawing>& bodies) {
    auto colour_of = [&](std::size_t i) {
        return bodies[i].dynamic ? k_palette[i % std::size(k_palette)] : k_static_body;
    };
    // Every path first, then every shape, so no path hides a body.
    cairo_set_line_width(cr, vp.unit);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        add_polyline(cr, vp, bodies[i].trajectory);
        set_colour(cr, colour_of(i), 0.85);
        cairo_stroke(cr);
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        draw_body(cr, vp, bodies[i], colour_of(i));
    }
}

void draw_markers(cairo_t* cr, const Viewport& vp, const std::vector<Vec2>& markers) {
    const double arm = 6 * vp.unit;
    const PixelRect clip = vp.clip_rect();
    for (const Vec2& marker : markers) {
        const Pixel p = vp.to_image(marker);
        if (!is_finite(p) || p.x < clip.x0 || p.x > clip.x1 || p.y < clip.y0 || p.y > clip.y1) {
            continue;
        }
        cairo_move_to(cr, p.x - arm, p.y - arm);
        cairo_line_to(cr, p.x + arm, p.y + arm);
        cairo_move_to(cr, p.x - arm, p.y + arm);
        cairo_line_to(cr, p.x + arm, p.y - arm);
    }
    set_colour(cr, k_marker);
    cairo_set_line_width(cr, 2.5 * vp.unit);
    cairo_stroke(cr);
}

/// Decodes one UTF-8 sequence starting at s[i]; returns its length, or 0 when
/// it is not a sequence cairo accepts (overlong, surrogate, non-character).
std::size_t utf8_sequence_length(const std::string& s, std::size_t i) {
    const auto lead = static_cast<unsigned char>(s[i]);
    const std::size_t length = lead < 0x80         ? 1
                               : lead >> 5 == 0x6  ? 2
                               : lead >> 4 == 0xE  ? 3
                               : lead >> 3 == 0x1E ? 4
                                                   : 0;
    if (length <= 1 || i + length > s.size()) {
        return length == 1 ? 1 : 0;
    }
    std::uint32_t code = lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
        const auto byte = static_cast<unsigned char>(s[i + k]);
        if (byte >> 6 != 0x2) {
            return 0;
        }
        code = (code << 6) | (byte & 0x3F);
    }
    const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    const bool valid = code >= smallest[length] && code < 0x110000 &&
                       (code & 0xFFFFF800) != 0xD800 && (code < 0xFDD0 || code > 0xFDEF) &&
                       (code & 0xFFFE) != 0xFFFE;
    return valid ? length : 0;
}

/// `text` with control characters and invalid UTF-8 replaced, so that cairo,
/// which rejects invalid strings by failing the whole context, accepts it.
std::string printable(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8_sequence_length(text, i);
        if (length == 0) {
            out += '?';
            ++i;
        } else if (length == 1 && static_cast<unsigned char>(text[i]) < 0x20) {
            out += ' ';
            ++i;
        } else {
            out.append(text, i, length);
            i += length;
        }
    }
    return out;
}

void draw_title(cairo_t* cr, const Viewport& vp, const std::string& title) {
    if (title.empty()) {
        return;
    }
    const std::string text = printable(title);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 16 * vp.unit);
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text.c_str(), &extents);
    const double pad = 6 * vp.unit;
    // A translucent plate keeps the title readable over dark geometry.
    cairo_rectangle(cr, 0, 0, extents.x_advance + 2 * pad, extents.height + 2 * pad);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_fill(cr);
    cairo_move_to(cr, pad - extents.x_bearing, pad - extents.y_bearing);
    set_colour(cr, k_text);
    cairo_show_text(cr, text.c_str());
}

Error cairo_error(ErrorCode code, const std::string& what, cairo_status_t status) {
    return Error{code, "render: " + what + ": " + cairo_status_to_string(status)};
}

Result<void> draw_and_write(const Drawing& drawing, const std::filesystem::path& out,
                            const RenderOptions& options) {
    const Viewport vp = make_viewport(drawing.view, options.max_size_px);
    SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, vp.width, vp.height),
                       &cairo_surface_destroy);
    if (const cairo_status_t status = cairo_surface_status(surface.get());
        status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::limit_exceeded,
                           "cannot create a " + std::to_string(vp.width) + "x" +
                               std::to_string(vp.height) + " image",
                           status);
    }
    CairoPtr cr(cairo_create(surface.get()), &cairo_destroy);
    const double grey = options.background_grey;
    cairo_set_source_rgb(cr.get(), grey, grey, grey);
    cairo_paint(cr.get());
    cairo_set_line_cap(cr.get(), CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr.get(), CAIRO_LINE_JOIN_ROUND);

    draw_static_boxes(cr.get(), vp, drawing.static_boxes);
    draw_static_polylines(cr.get(), vp, drawing.static_polylines);
    draw_bodies(cr.get(), vp, drawing.bodies);
    draw_markers(cr.get(), vp, drawing.markers);
    draw_title(cr.get(), vp, drawing.title);

    if (const cairo_status_t status = cairo_status(cr.get()); status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::limit_exceeded, "drawing failed", status);
    }
    cairo_surface_flush(surface.get());
    const std::string path = out.string();
    if (const cairo_status_t status = cairo_surface_write_to_png(surface.get(), path.c_str());
        status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::io_error, "cannot write '" + path + "'", status);
    }
    return {};
}

} // namespace

Result<void> render_png(const Drawing& drawing, const std::filesystem::path& out,
                        const RenderOptions& options) {
    if (auto valid = validate(drawing, options); !valid) {
        return valid;
    }
    try {
        return draw_and_write(drawing, out, options);
    } catch (const std::bad_alloc&) {
        return Error{ErrorCode::limit_exceeded, "render: out of memory"};
    }
}

} // namespace sweep::render
