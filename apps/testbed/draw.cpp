#include "draw.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace sweep::testbed {
namespace {

constexpr int k_circle_segments = 32;

SDL_Color to_sdl(Color c) { return {c.r, c.g, c.b, c.a}; }

void set_color(SDL_Renderer* renderer, Color c) {
    SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a);
}

// The outline of a polygon grown by `radius`: each vertex becomes an arc
// between the normals of its two edges (a capsule is a rounded two-gon).
std::vector<Vec2> rounded_outline(std::span<const Vec2> vertices, real radius) {
    std::vector<Vec2> out;
    const int n = static_cast<int>(vertices.size());
    if (radius <= 0) {
        out.assign(vertices.begin(), vertices.end());
        return out;
    }
    constexpr int k_arc_segments = 6;
    for (int i = 0; i < n; ++i) {
        const Vec2 prev = vertices[static_cast<std::size_t>((i + n - 1) % n)];
        const Vec2 v = vertices[static_cast<std::size_t>(i)];
        const Vec2 next = vertices[static_cast<std::size_t>((i + 1) % n)];
        const Vec2 n0 = normalize(right_perp(v - prev));
        const Vec2 n1 = normalize(right_perp(next - v));
        real a0 = std::atan2(n0.y, n0.x);
        real a1 = std::atan2(n1.y, n1.x);
        if (a1 < a0) {
            a1 += 2 * k_pi;
        }
        for (int k = 0; k <= k_arc_segments; ++k) {
            const real a = a0 + (a1 - a0) * real(k) / k_arc_segments;
            out.push_back(v + radius * Vec2{std::cos(a), std::sin(a)});
        }
    }
    return out;
}

} // namespace

Color palette(int index) {
    static constexpr std::array<Color, 8> k_palette{{{66, 133, 244},
                                                     {234, 67, 53},
                                                     {251, 188, 5},
                                                     {52, 168, 83},
                                                     {171, 71, 188},
                                                     {0, 172, 193},
                                                     {255, 112, 67},
                                                     {121, 134, 203}}};
    return k_palette[static_cast<std::size_t>(index) % k_palette.size()];
}

SDL_FPoint Camera::to_screen(Vec2 world) const {
    return {static_cast<float>(width / 2.0 + (world.x - center.x) * pixels_per_unit),
            static_cast<float>(height / 2.0 - (world.y - center.y) * pixels_per_unit)};
}

Vec2 Camera::to_world(SDL_FPoint screen) const {
    return {center.x + (real(screen.x) - real(width) / 2) / pixels_per_unit,
            center.y - (real(screen.y) - real(height) / 2) / pixels_per_unit};
}

void Camera::fit(const Aabb& view, int left_inset_px) {
    const Vec2 size = view.upper - view.lower;
    const real usable = real(std::max(width - left_inset_px, width / 2));
    const real sx = usable / std::max(size.x, real(1e-3));
    const real sy = real(height) / std::max(size.y, real(1e-3));
    pixels_per_unit = real(0.92) * std::min(sx, sy);
    center = sweep::center(view) - Vec2{(real(width) - usable) / 2 / pixels_per_unit, 0};
}

void Camera::zoom_at(SDL_FPoint screen, real factor) {
    const Vec2 before = to_world(screen);
    pixels_per_unit = std::clamp(pixels_per_unit * factor, real(0.01), real(1e5));
    center = center + (before - to_world(screen));
}

void Draw::segment(Vec2 a, Vec2 b, Color color) const {
    const SDL_FPoint p = camera_.to_screen(a);
    const SDL_FPoint q = camera_.to_screen(b);
    set_color(renderer_, color);
    SDL_RenderDrawLineF(renderer_, p.x, p.y, q.x, q.y);
}

void Draw::polyline(std::span<const Vec2> points, Color color) const {
    if (points.size() < 2) {
        return;
    }
    std::vector<SDL_FPoint> screen;
    screen.reserve(points.size());
    for (const Vec2 p : points) {
        screen.push_back(camera_.to_screen(p));
    }
    set_color(renderer_, color);
    SDL_RenderDrawLinesF(renderer_, screen.data(), static_cast<int>(screen.size()));
}

void Draw::convex(std::span<const Vec2> points, Color fill, Color line) const {
    if (points.size() < 2) {
        return;
    }
    if (fill.a > 0 && points.size() >= 3) {
        std::vector<SDL_Vertex> vertices;
        vertices.reserve(points.size());
        for (const Vec2 p : points) {
            vertices.push_back({camera_.to_screen(p), to_sdl(fill), {0, 0}});
        }
        // A fan around the first vertex covers a convex polygon.
        std::vector<int> indices;
        for (int i = 1; i + 1 < static_cast<int>(points.size()); ++i) {
            indices.insert(indices.end(), {0, i, i + 1});
        }
        SDL_RenderGeometry(renderer_, nullptr, vertices.data(), static_cast<int>(vertices.size()),
                           indices.data(), static_cast<int>(indices.size()));
    }
    std::vector<Vec2> closed(points.begin(), points.end());
    closed.push_back(points.front());
    polyline(closed, line);
}

void Draw::circle(Vec2 center, real radius, Color fill, Color line) const {
    convex(shape_outline(Circle{center, radius}, {}), fill, line);
}

void Draw::aabb(const Aabb& box, Color color) const {
    const std::array<Vec2, 4> corners{box.lower, Vec2{box.upper.x, box.lower.y}, box.upper,
                                      Vec2{box.lower.x, box.upper.y}};
    convex(corners, {0, 0, 0, 0}, color);
}

void Draw::point(Vec2 p, real size_px, Color color) const {
    const SDL_FPoint s = camera_.to_screen(p);
    const float h = static_cast<float>(size_px) / 2;
    const SDL_FRect rect{s.x - h, s.y - h, 2 * h, 2 * h};
    set_color(renderer_, color);
    SDL_RenderFillRectF(renderer_, &rect);
}

void Draw::arrow(Vec2 from, Vec2 to, Color color) const {
    segment(from, to, color);
    const Vec2 d = to - from;
    const real len = length(d);
    if (len <= 0) {
        return;
    }
    // Head a fixed number of pixels long, whatever the zoom.
    const real head = std::min(len * real(0.4), real(8) / camera_.pixels_per_unit);
    const Vec2 u = (1 / len) * d;
    segment(to, to - head * u + real(0.5) * head * left_perp(u), color);
    segment(to, to - head * u - real(0.5) * head * left_perp(u), color);
}

std::vector<Vec2> shape_outline(const Shape& shape, const Transform& xf) {
    switch (shape.type) {
    case ShapeType::circle: {
        std::vector<Vec2> out;
        const Vec2 c = transform_point(xf, shape.circle.center);
        for (int i = 0; i < k_circle_segments; ++i) {
            const real a = 2 * k_pi * real(i) / k_circle_segments;
            out.push_back(c + shape.circle.radius * Vec2{std::cos(a), std::sin(a)});
        }
        return out;
    }
    case ShapeType::capsule: {
        const std::array<Vec2, 2> core{transform_point(xf, shape.capsule.center1),
                                       transform_point(xf, shape.capsule.center2)};
        return rounded_outline(core, shape.capsule.radius);
    }
    case ShapeType::polygon: {
        std::vector<Vec2> vertices;
        for (int i = 0; i < shape.polygon.count; ++i) {
            vertices.push_back(
                transform_point(xf, shape.polygon.vertices[static_cast<std::size_t>(i)]));
        }
        return rounded_outline(vertices, shape.polygon.radius);
    }
    case ShapeType::segment:
        return {transform_point(xf, shape.segment.p1), transform_point(xf, shape.segment.p2)};
    case ShapeType::chain_segment:
        return {transform_point(xf, shape.chain_segment.segment.p1),
                transform_point(xf, shape.chain_segment.segment.p2)};
    }
    return {};
}

void Draw::shape(const Shape& shape, const Transform& xf, Color fill, Color line) const {
    const std::vector<Vec2> outline = shape_outline(shape, xf);
    if (outline.size() == 2) {
        segment(outline[0], outline[1], line);
        return;
    }
    convex(outline, fill, line);
    if (shape.type == ShapeType::circle) {
        const Vec2 c = transform_point(xf, shape.circle.center);
        segment(c, c + shape.circle.radius * Vec2{xf.q.c, xf.q.s}, line);
    }
}

} // namespace sweep::testbed
