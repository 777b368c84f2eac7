// Drawing world geometry with SDL_Renderer: a camera from world (L, y up)
// to window pixels (y down), and filled or outlined shapes built from
// SDL_RenderGeometry triangles so that the software renderer draws them.
#pragma once

#include <SDL.h>

#include <span>
#include <vector>

#include "sweep/math.hpp"
#include "sweep/shapes.hpp"

namespace sweep::testbed {

/// An RGBA colour, 0..255 per channel.
struct Color {
    Uint8 r = 0;
    Uint8 g = 0;
    Uint8 b = 0;
    Uint8 a = 255;
};

inline constexpr Color k_background{245, 245, 240};
inline constexpr Color k_static_color{90, 90, 95};
inline constexpr Color k_contact_color{220, 40, 40};
inline constexpr Color k_normal_color{40, 160, 60};
inline constexpr Color k_aabb_color{200, 120, 220};
inline constexpr Color k_tree_color{120, 170, 230};
inline constexpr Color k_event_color{250, 140, 0};
inline constexpr Color k_toi_color{130, 60, 210};  ///< a time-of-impact stop or meeting
inline constexpr Color k_clamp_color{210, 30, 30}; ///< a body clamped by a TOI cap

/// The colour `index` takes in the body palette.
Color palette(int index);
/// `c` with alpha `a`.
constexpr Color with_alpha(Color c, Uint8 a) { return {c.r, c.g, c.b, a}; }

/// The boundary of `shape` placed by `xf` as a counter-clockwise polygon
/// (circles and rounded corners as arcs); a segment gives its two ends.
std::vector<Vec2> shape_outline(const Shape& shape, const Transform& xf);

/// Maps world points to pixels: the world point `center` sits in the middle
/// of a `width` x `height` window, `pixels_per_unit` pixels per L, y flipped.
struct Camera {
    Vec2 center;
    real pixels_per_unit = 40;
    int width = 960;
    int height = 640;

    SDL_FPoint to_screen(Vec2 world) const;
    Vec2 to_world(SDL_FPoint screen) const;
    /// Centres and zooms on `view` with a small margin, in the part of the
    /// window right of `left_inset_px` (where the panel is not).
    void fit(const Aabb& view, int left_inset_px = 0);
    /// Zooms by `factor` keeping the world point under `screen` fixed.
    void zoom_at(SDL_FPoint screen, real factor);
};

/// Immediate-mode drawing in world coordinates through a camera.
class Draw {
  public:
    Draw(SDL_Renderer* renderer, const Camera& camera) : renderer_(renderer), camera_(camera) {}

    void segment(Vec2 a, Vec2 b, Color color) const;
    void polyline(std::span<const Vec2> points, Color color) const;
    /// A convex polygon, filled with `fill` and outlined with `line`.
    void convex(std::span<const Vec2> points, Color fill, Color line) const;
    void circle(Vec2 center, real radius, Color fill, Color line) const;
    void aabb(const Aabb& box, Color color) const;
    /// A dot `size_px` pixels across, whatever the zoom.
    void point(Vec2 p, real size_px, Color color) const;
    /// An arrow from `from` to `to` (world).
    void arrow(Vec2 from, Vec2 to, Color color) const;
    /// Any shape placed by `xf`: rounded shapes with their radius, circles
    /// with a radius line so that rotation shows.
    void shape(const Shape& shape, const Transform& xf, Color fill, Color line) const;

    const Camera& camera() const { return camera_; }

  private:
    SDL_Renderer* renderer_;
    const Camera& camera_;
};

} // namespace sweep::testbed
