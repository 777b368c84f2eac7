// Pictures with cairo: PNG and SVG surfaces, and image surfaces quantized into
// GIF frames (gif.hpp). Everything is converted to image pixels here, in
// double precision, and clipped before it reaches cairo: cairo stores path
// coordinates in 24.8 fixed point, so a far-away point (a body that flew off,
// a floor a million units wide) would otherwise wrap around.
#include "sweep/render/render.hpp"

#include <cairo-svg.h>
#include <cairo.h>

#include "sweep/render/gif.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
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
constexpr Rgb k_contact{0.0, 0.0, 0.0};
constexpr Rgb k_white{1.0, 1.0, 1.0};
/// Smallest image side accepted with an exact size (room for the legend).
constexpr int k_min_exact_px = 16;
/// Length of a drawn contact normal, pixels (times the line unit).
constexpr double k_normal_px = 10;

/// A point in image pixels, y down.
struct Pixel {
    double x = 0;
    double y = 0;
};

/// An axis-aligned rectangle in image pixels.
struct PixelRect {
    double x0, y0, x1, y1;
};

/// The world-to-image map: uniform scale, y flipped. `width` x `height` is
/// the map area at the top of the image; the legend, if any, lies below it.
struct Viewport {
    double left = 0;  ///< world x at the image's left edge
    double top = 0;   ///< world y at the image's top edge
    double scale = 1; ///< pixels per L
    int width = 1;
    int height = 1;
    double unit = 1; ///< line and text scale: 1 up to 1600 px, larger for bigger images

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
    const bool exact = options.width_px != 0 || options.height_px != 0;
    const auto in_range = [](int px) { return px >= k_min_exact_px && px <= k_max_image_px; };
    if (exact && !(in_range(options.width_px) && in_range(options.height_px))) {
        return Error{ErrorCode::invalid_input,
                     "render: width_px and height_px must both be 0 or both in [16, 16384]"};
    }
    if (!(options.background_grey >= 0 && options.background_grey <= 1)) {
        return Error{ErrorCode::invalid_input, "render: background_grey must be in [0, 1]"};
    }
    return {};
}

/// What the legend names, in its order.
enum class LegendItem { static_box, static_segment, body, path, contact, marker };
constexpr LegendItem k_legend_items[] = {LegendItem::static_box, LegendItem::static_segment,
                                         LegendItem::body,       LegendItem::path,
                                         LegendItem::contact,    LegendItem::marker};

const char* legend_label(LegendItem item) {
    switch (item) {
    case LegendItem::static_box:
        return "static (merged)";
    case LegendItem::static_segment:
        return "static segment";
    case LegendItem::body:
        return "body";
    case LegendItem::path:
        return "path";
    case LegendItem::contact:
        return "contact, normal";
    case LegendItem::marker:
        return "tunneling";
    }
    return "";
}

/// Where each legend entry goes: its swatch's top-left corner, in pixels
/// relative to the legend band.
struct LegendPlace {
    LegendItem item;
    double x = 0;
    double y = 0;
};

/// The legend laid out in rows that fit `width` pixels.
struct LegendLayout {
    std::vector<LegendPlace> places;
    double height = 0; ///< of the band, pixels
    double unit = 1;
};

constexpr double k_legend_font_px = 12;
constexpr double k_swatch_px = 16;
constexpr double k_legend_row_px = 20;
constexpr double k_legend_pad_px = 6;

void select_legend_font(cairo_t* cr, double unit) {
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, k_legend_font_px * unit);
}

/// Flows the entries left to right, wrapping to a new row when one would
/// cross the right edge. Text is measured on a scratch surface.
LegendLayout layout_legend(int width, double unit) {
    SurfacePtr scratch(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1),
                       &cairo_surface_destroy);
    CairoPtr cr(cairo_create(scratch.get()), &cairo_destroy);
    select_legend_font(cr.get(), unit);
    LegendLayout legend;
    legend.unit = unit;
    const double pad = k_legend_pad_px * unit;
    double x = pad;
    double y = pad;
    for (const LegendItem item : k_legend_items) {
        cairo_text_extents_t extents;
        cairo_text_extents(cr.get(), legend_label(item), &extents);
        const double entry = (k_swatch_px + 5) * unit + extents.x_advance;
        if (x > pad && x + entry > width - pad) {
            x = pad;
            y += k_legend_row_px * unit;
        }
        legend.places.push_back({item, x, y});
        x += entry + 14 * unit;
    }
    legend.height = y + k_legend_row_px * unit + pad - 4 * unit;
    return legend;
}

/// The image: the map area (viewport) and the legend band below it.
struct Layout {
    Viewport vp;
    int width = 1;  ///< of the image, pixels
    int height = 1; ///< of the image, pixels
    std::optional<LegendLayout> legend;
};

/// The map fitted to the image: its longest side max_size_px with the legend
/// added below, or centred in the exact size above the legend (no legend
/// when it would take more than half the image).
Layout make_layout(const Aabb& view, const RenderOptions& options) {
    const double width = double(view.upper.x) - view.lower.x;
    const double height = double(view.upper.y) - view.lower.y;
    Layout layout;
    Viewport& vp = layout.vp;
    vp.left = view.lower.x;
    vp.top = view.upper.y;
    if (options.width_px > 0) {
        layout.width = options.width_px;
        layout.height = options.height_px;
        vp.unit = std::max(1.0, std::max(layout.width, layout.height) / 1600.0);
        double map_height = layout.height;
        if (options.legend) {
            LegendLayout legend = layout_legend(layout.width, vp.unit);
            if (legend.height <= 0.5 * layout.height) {
                map_height = std::floor(layout.height - legend.height);
                layout.legend = std::move(legend);
            }
        }
        vp.scale = std::min(layout.width / width, map_height / height);
        vp.left -= 0.5 * (layout.width / vp.scale - width);
        vp.top += 0.5 * (map_height / vp.scale - height);
        vp.width = layout.width;
        vp.height = std::max(1, int(map_height));
        return layout;
    }
    vp.scale = options.max_size_px / std::max(width, height);
    vp.width = std::max(1, int(std::lround(width * vp.scale)));
    vp.height = std::max(1, int(std::lround(height * vp.scale)));
    vp.unit = std::max(1.0, options.max_size_px / 1600.0);
    layout.width = vp.width;
    layout.height = vp.height;
    if (options.legend) {
        layout.legend = layout_legend(vp.width, vp.unit);
        layout.height = std::min(k_max_image_px, vp.height + int(std::ceil(layout.legend->height)));
    }
    return layout;
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

/// Solid static polygons, filled as one path so that the convex pieces of
/// one shape merge; the outline stroked too, which hides the hairline seams
/// anti-aliasing leaves between pieces. Polygons reaching further than
/// cairo's fixed point allows, or not finite, are culled.
void draw_static_polygons(cairo_t* cr, const Viewport& vp,
                          const std::vector<std::vector<Vec2>>& polygons) {
    const PixelRect clip = vp.clip_rect();
    std::vector<Pixel> pixels;
    for (const auto& polygon : polygons) {
        pixels.clear();
        for (const Vec2& p : polygon) {
            pixels.push_back(vp.to_image(p));
        }
        const auto visible = [&] {
            PixelRect b{k_max_shape_px, k_max_shape_px, -k_max_shape_px, -k_max_shape_px};
            for (const Pixel& p : pixels) {
                if (!is_finite(p) || std::abs(p.x) > k_max_shape_px ||
                    std::abs(p.y) > k_max_shape_px) {
                    return false;
                }
                b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x),
                     std::max(b.y1, p.y)};
            }
            return !pixels.empty() && b.x1 >= clip.x0 && b.x0 <= clip.x1 && b.y1 >= clip.y0 &&
                   b.y0 <= clip.y1;
        };
        if (visible()) {
            add_pixel_path(cr, pixels, true);
        }
    }
    set_colour(cr, k_static_fill);
    cairo_fill_preserve(cr);
    cairo_set_line_width(cr, vp.unit);
    cairo_stroke(cr);
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

Rgb body_colour(const std::vector<BodyDrawing>& bodies, std::size_t i) {
    return bodies[i].dynamic ? k_palette[i % std::size(k_palette)] : k_static_body;
}

/// Draws the part of each body's path from point `first` to point `last`
/// (clamped to the path).
void draw_paths(cairo_t* cr, const Viewport& vp, const std::vector<BodyDrawing>& bodies,
                std::size_t first, std::size_t last) {
    cairo_set_line_width(cr, vp.unit);
    std::vector<Vec2> path;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::vector<Vec2>& trajectory = bodies[i].trajectory;
        if (first >= trajectory.size()) {
            continue;
        }
        const std::size_t end = std::min(trajectory.size() - 1, last) + 1;
        path.assign(trajectory.begin() + std::ptrdiff_t(first),
                    trajectory.begin() + std::ptrdiff_t(std::max(end, first)));
        add_polyline(cr, vp, path);
        set_colour(cr, body_colour(bodies, i), 0.85);
        cairo_stroke(cr);
    }
}

/// Draws the bodies, each at `poses[i]` when given (else its own pose).
void draw_shapes(cairo_t* cr, const Viewport& vp, const std::vector<BodyDrawing>& bodies,
                 std::span<const Transform> poses) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        BodyDrawing body = bodies[i];
        if (i < poses.size()) {
            body.xf = poses[i];
        }
        draw_body(cr, vp, body, body_colour(bodies, i));
    }
}

/// Contacts: a dot at the point and a short line along the normal, the
/// same length at any scale so that it reads on large maps.
void draw_contacts(cairo_t* cr, const Viewport& vp, const std::vector<ContactDrawing>& contacts) {
    const PixelRect clip = vp.clip_rect();
    const double length = k_normal_px * vp.unit;
    std::vector<Pixel> dots;
    for (const ContactDrawing& contact : contacts) {
        const Pixel p = vp.to_image(contact.point);
        const Pixel n{double(contact.normal.x), -double(contact.normal.y)}; // y down
        if (!is_finite(p) || !is_finite(n) || p.x < clip.x0 || p.x > clip.x1 || p.y < clip.y0 ||
            p.y > clip.y1) {
            continue;
        }
        cairo_move_to(cr, p.x, p.y);
        cairo_line_to(cr, p.x + length * n.x, p.y + length * n.y);
        dots.push_back(p);
    }
    set_colour(cr, k_contact);
    cairo_set_line_width(cr, vp.unit);
    cairo_stroke(cr);
    for (const Pixel& p : dots) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, p.x, p.y, 2 * vp.unit, 0, 2 * k_pi);
    }
    cairo_fill(cr);
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

/// One legend swatch, `size` pixels square with its top-left at (x, y).
void draw_swatch(cairo_t* cr, LegendItem item, double x, double y, double size, double unit) {
    const double mid = y + 0.5 * size;
    cairo_set_line_width(cr, 1.5 * unit);
    switch (item) {
    case LegendItem::static_box:
        cairo_rectangle(cr, x, y + 0.2 * size, size, 0.6 * size);
        set_colour(cr, k_static_fill);
        cairo_fill(cr);
        break;
    case LegendItem::static_segment:
        cairo_move_to(cr, x, mid + 0.25 * size);
        cairo_line_to(cr, x + size, mid - 0.25 * size);
        set_colour(cr, k_static_fill);
        cairo_stroke(cr);
        break;
    case LegendItem::body:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x + 0.5 * size, mid, 0.4 * size, 0, 2 * k_pi);
        fill_and_outline(cr, k_palette[0]);
        break;
    case LegendItem::path:
        cairo_set_line_width(cr, unit);
        cairo_move_to(cr, x, mid + 0.3 * size);
        cairo_curve_to(cr, x + 0.4 * size, mid - 0.6 * size, x + 0.6 * size, mid + 0.6 * size,
                       x + size, mid - 0.3 * size);
        set_colour(cr, k_palette[1], 0.85);
        cairo_stroke(cr);
        break;
    case LegendItem::contact:
        cairo_set_line_width(cr, unit);
        cairo_move_to(cr, x + 0.3 * size, y + size - 2 * unit);
        cairo_line_to(cr, x + 0.3 * size, y);
        set_colour(cr, k_contact);
        cairo_stroke(cr);
        cairo_arc(cr, x + 0.3 * size, y + size - 2 * unit, 2 * unit, 0, 2 * k_pi);
        cairo_fill(cr);
        break;
    case LegendItem::marker:
        cairo_set_line_width(cr, 2.5 * unit);
        cairo_move_to(cr, x + 0.15 * size, y + 0.15 * size);
        cairo_line_to(cr, x + 0.85 * size, y + 0.85 * size);
        cairo_move_to(cr, x + 0.15 * size, y + 0.85 * size);
        cairo_line_to(cr, x + 0.85 * size, y + 0.15 * size);
        set_colour(cr, k_marker);
        cairo_stroke(cr);
        break;
    }
}

/// The legend band below the map: white, with a rule on top, then each
/// entry's swatch and name.
void draw_legend(cairo_t* cr, const Layout& layout) {
    const LegendLayout& legend = *layout.legend;
    const double top = layout.vp.height;
    const double unit = legend.unit;
    cairo_rectangle(cr, 0, top, layout.width, layout.height - top);
    set_colour(cr, k_white);
    cairo_fill(cr);
    cairo_move_to(cr, 0, top + 0.5 * unit);
    cairo_line_to(cr, layout.width, top + 0.5 * unit);
    set_colour(cr, k_static_fill);
    cairo_set_line_width(cr, unit);
    cairo_stroke(cr);
    select_legend_font(cr, unit);
    const double size = k_swatch_px * unit;
    for (const LegendPlace& place : legend.places) {
        draw_swatch(cr, place.item, place.x, top + place.y, size, unit);
        cairo_font_extents_t font;
        cairo_font_extents(cr, &font);
        cairo_move_to(cr, place.x + size + 5 * unit,
                      top + place.y + 0.5 * size + 0.5 * (font.ascent - font.descent));
        set_colour(cr, k_text);
        cairo_show_text(cr, legend_label(place.item));
    }
}

/// Limits drawing to the map area, so that nothing spills onto the legend.
void clip_to_map(cairo_t* cr, const Viewport& vp) {
    cairo_rectangle(cr, 0, 0, vp.width, vp.height);
    cairo_clip(cr);
}

/// The background, the static geometry and the legend: what every frame
/// of an animation shares.
void draw_static(cairo_t* cr, const Layout& layout, const Drawing& drawing,
                 const RenderOptions& options) {
    const double grey = options.background_grey;
    cairo_set_source_rgb(cr, grey, grey, grey);
    cairo_paint(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_save(cr);
    clip_to_map(cr, layout.vp);
    draw_static_boxes(cr, layout.vp, drawing.static_boxes);
    draw_static_polygons(cr, layout.vp, drawing.static_polygons);
    draw_static_polylines(cr, layout.vp, drawing.static_polylines);
    cairo_restore(cr);
    if (layout.legend) {
        draw_legend(cr, layout);
    }
}

std::string frame_title(const std::string& title, int step) {
    const std::string at = "step " + std::to_string(step);
    return title.empty() ? at : title + ", " + at;
}

/// Whether draw_moving draws the bodies' paths (an animation draws them
/// step by step onto a layer of their own instead).
enum class Paths { draw, skip };

/// Bodies, paths, contacts, markers and the title: as they are in
/// `drawing`, or as at `frame` when one is given. Every path is drawn
/// before every shape, so that no path hides a body.
void draw_moving(cairo_t* cr, const Layout& layout, const Drawing& drawing, const Frame* frame,
                 Paths paths) {
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_save(cr);
    clip_to_map(cr, layout.vp);
    const std::size_t last =
        frame ? std::size_t(std::max(0, frame->step)) : std::numeric_limits<std::size_t>::max();
    if (paths == Paths::draw) {
        draw_paths(cr, layout.vp, drawing.bodies, 0, last);
    }
    draw_shapes(cr, layout.vp, drawing.bodies,
                frame ? std::span<const Transform>(frame->poses) : std::span<const Transform>());
    draw_contacts(cr, layout.vp, frame ? frame->contacts : drawing.contacts);
    draw_markers(cr, layout.vp, drawing.markers);
    draw_title(cr, layout.vp, frame ? frame_title(drawing.title, frame->step) : drawing.title);
    cairo_restore(cr);
}

Error cairo_error(ErrorCode code, const std::string& what, cairo_status_t status) {
    return Error{code, "render: " + what + ": " + cairo_status_to_string(status)};
}

/// An image surface of the layout's size, or the error naming the size.
Result<SurfacePtr> make_image(const Layout& layout) {
    SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, layout.width, layout.height),
                       &cairo_surface_destroy);
    if (const cairo_status_t status = cairo_surface_status(surface.get());
        status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::limit_exceeded,
                           "cannot create a " + std::to_string(layout.width) + "x" +
                               std::to_string(layout.height) + " image",
                           status);
    }
    return surface;
}

Result<void> check_drawn(cairo_t* cr) {
    if (const cairo_status_t status = cairo_status(cr); status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::limit_exceeded, "drawing failed", status);
    }
    return {};
}

Result<void> write_png(const Drawing& drawing, const std::filesystem::path& out,
                       const RenderOptions& options) {
    const Layout layout = make_layout(drawing.view, options);
    auto surface = make_image(layout);
    if (!surface) {
        return surface.error();
    }
    CairoPtr cr(cairo_create(surface->get()), &cairo_destroy);
    draw_static(cr.get(), layout, drawing, options);
    draw_moving(cr.get(), layout, drawing, nullptr, Paths::draw);
    if (auto ok = check_drawn(cr.get()); !ok) {
        return ok;
    }
    cairo_surface_flush(surface->get());
    const std::string path = out.string();
    if (const cairo_status_t status = cairo_surface_write_to_png(surface->get(), path.c_str());
        status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::io_error, "cannot write '" + path + "'", status);
    }
    return {};
}

Result<void> write_svg(const Drawing& drawing, const std::filesystem::path& out,
                       const RenderOptions& options) {
    const Layout layout = make_layout(drawing.view, options);
    const std::string path = out.string();
    SurfacePtr surface(cairo_svg_surface_create(path.c_str(), layout.width, layout.height),
                       &cairo_surface_destroy);
    if (const cairo_status_t status = cairo_surface_status(surface.get());
        status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::io_error, "cannot write '" + path + "'", status);
    }
    cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
    {
        CairoPtr cr(cairo_create(surface.get()), &cairo_destroy);
        draw_static(cr.get(), layout, drawing, options);
        draw_moving(cr.get(), layout, drawing, nullptr, Paths::draw);
        if (auto ok = check_drawn(cr.get()); !ok) {
            return ok;
        }
    }
    cairo_surface_finish(surface.get());
    if (const cairo_status_t status = cairo_surface_status(surface.get());
        status != CAIRO_STATUS_SUCCESS) {
        return cairo_error(ErrorCode::io_error, "cannot write '" + path + "'", status);
    }
    return {};
}

std::uint8_t to_byte(double channel) {
    return std::uint8_t(std::lround(std::clamp(channel, 0.0, 1.0) * 255));
}

Rgb8 to_rgb8(Rgb c) { return {to_byte(c.r), to_byte(c.g), to_byte(c.b)}; }

Rgb mix(Rgb a, Rgb b, double t) {
    return {a.r + t * (b.r - a.r), a.g + t * (b.g - a.g), a.b + t * (b.b - a.b)};
}

/// The colours this renderer draws with and their blends: a grey ramp
/// (background, static geometry, text and their anti-aliasing), then each
/// drawing colour over the background in eighths (light fills, edges), over
/// the static fill in quarters, and half over the title's white plate.
std::vector<Rgb8> render_palette(double background_grey) {
    const Rgb background{background_grey, background_grey, background_grey};
    std::vector<Rgb> colours{background, k_static_fill, k_static_body, k_text, k_white};
    for (int level = 0; level < 32; ++level) {
        const double g = level / 31.0;
        colours.push_back({g, g, g});
    }
    std::vector<Rgb> inks(std::begin(k_palette), std::end(k_palette));
    inks.insert(inks.end(), {k_marker, k_static_body, k_contact});
    for (const Rgb ink : inks) {
        for (int eighth = 1; eighth <= 8; ++eighth) {
            colours.push_back(mix(background, ink, eighth / 8.0));
        }
        for (int quarter = 1; quarter <= 3; ++quarter) {
            colours.push_back(mix(k_static_fill, ink, quarter / 4.0));
        }
        colours.push_back(mix(k_white, ink, 0.5));
    }
    std::vector<Rgb8> out;
    for (const Rgb c : colours) {
        const Rgb8 c8 = to_rgb8(c);
        if (std::find(out.begin(), out.end(), c8) == out.end()) {
            out.push_back(c8);
        }
    }
    return out;
}

Result<void> write_gif(const Drawing& drawing, std::span<const Frame> frames, int delay_cs,
                       const std::filesystem::path& out, const RenderOptions& options) {
    const Layout layout = make_layout(drawing.view, options);
    // Three layers: the static drawing, the static drawing with the paths so
    // far (each frame adds its new stretch: stroking whole paths every frame
    // costs most of an animation), and the frame itself.
    auto background = make_image(layout);
    auto trails = background ? make_image(layout) : Result<SurfacePtr>(background.error());
    auto image = trails ? make_image(layout) : Result<SurfacePtr>(trails.error());
    if (!image) {
        return image.error();
    }
    {
        CairoPtr cr(cairo_create(background->get()), &cairo_destroy);
        draw_static(cr.get(), layout, drawing, options);
        if (auto ok = check_drawn(cr.get()); !ok) {
            return ok;
        }
    }
    auto palette = Palette::make(render_palette(options.background_grey));
    if (!palette) {
        return palette.error();
    }
    auto writer = GifWriter::open(out, layout.width, layout.height, std::move(palette).value());
    if (!writer) {
        return writer.error();
    }
    CairoPtr trail(cairo_create(trails->get()), &cairo_destroy);
    CairoPtr cr(cairo_create(image->get()), &cairo_destroy);
    cairo_set_line_cap(trail.get(), CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(trail.get(), CAIRO_LINE_JOIN_ROUND);
    std::optional<std::size_t> drawn_to; // the paths' last point on the trails layer
    for (const Frame& frame : frames) {
        const auto step = std::size_t(std::max(0, frame.step));
        if (!drawn_to || step < *drawn_to) {
            cairo_set_source_surface(trail.get(), background->get(), 0, 0);
            cairo_paint(trail.get());
            drawn_to = 0;
        }
        cairo_save(trail.get());
        clip_to_map(trail.get(), layout.vp); // not over the legend
        draw_paths(trail.get(), layout.vp, drawing.bodies, *drawn_to, step);
        cairo_restore(trail.get());
        drawn_to = step;
        cairo_set_source_surface(cr.get(), trails->get(), 0, 0);
        cairo_paint(cr.get());
        draw_moving(cr.get(), layout, drawing, &frame, Paths::skip);
        if (auto ok = check_drawn(cr.get()); !ok) {
            return ok;
        }
        cairo_surface_flush(image->get());
        const auto stride = std::size_t(cairo_image_surface_get_stride(image->get())) / 4;
        const auto* pixels =
            reinterpret_cast<const std::uint32_t*>(cairo_image_surface_get_data(image->get()));
        const std::span<const std::uint32_t> argb(pixels, stride * std::size_t(layout.height));
        if (auto ok = writer->add_frame(argb, stride, delay_cs); !ok) {
            return ok;
        }
        if (options.progress) {
            options.progress(int(&frame - frames.data()) + 1, int(frames.size()));
        }
    }
    return writer->close();
}

/// Runs `write`, turning an allocation failure into an error.
template <class Write>
Result<void> guarded(const Drawing& drawing, const RenderOptions& options, Write write) {
    if (auto valid = validate(drawing, options); !valid) {
        return valid;
    }
    try {
        return write();
    } catch (const std::bad_alloc&) {
        return Error{ErrorCode::limit_exceeded, "render: out of memory"};
    }
}

} // namespace

Drawing at_frame(const Drawing& drawing, const Frame& frame) {
    Drawing out = drawing;
    for (std::size_t i = 0; i < out.bodies.size(); ++i) {
        BodyDrawing& body = out.bodies[i];
        if (i < frame.poses.size()) {
            body.xf = frame.poses[i];
        }
        const std::size_t n = std::size_t(std::max(0, frame.step)) + 1;
        if (body.trajectory.size() > n) {
            body.trajectory.resize(n);
        }
    }
    out.contacts = frame.contacts;
    out.title = frame_title(drawing.title, frame.step);
    return out;
}

Result<void> render_png(const Drawing& drawing, const std::filesystem::path& out,
                        const RenderOptions& options) {
    return guarded(drawing, options, [&] { return write_png(drawing, out, options); });
}

Result<void> render_svg(const Drawing& drawing, const std::filesystem::path& out,
                        const RenderOptions& options) {
    return guarded(drawing, options, [&] { return write_svg(drawing, out, options); });
}

Result<void> render_gif(const Drawing& drawing, std::span<const Frame> frames, int delay_cs,
                        const std::filesystem::path& out, const RenderOptions& options) {
    if (frames.empty()) {
        return Error{ErrorCode::invalid_input, "render: a GIF needs at least one frame"};
    }
    if (delay_cs < 1 || delay_cs > 65535) {
        return Error{ErrorCode::invalid_input, "render: delay_cs must be in [1, 65535]"};
    }
    return guarded(drawing, options,
                   [&] { return write_gif(drawing, frames, delay_cs, out, options); });
}

} // namespace sweep::render
