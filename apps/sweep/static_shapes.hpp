// The level's static shapes seen from the program: a bucket grid over them
// that answers "how far is this point from solid?" (for spawning) and "did
// this body's centre enter a shape or cross a thin wall?" (a referee for the
// shapes that are not boxes; sweep::check::TunnelingChecker judges the boxes).
//
// Everything here is plain double-precision point arithmetic written for the
// program; it shares no code with the solver's collision path.
// Frame: world, y up; lengths in world units L (docs/conventions.md).
#pragma once

#include <cstdint>
#include <vector>

#include "sweep/io/tiled.hpp"
#include "sweep/math.hpp"

namespace sweep::app {

/// The static geometry of a level with a uniform bucket grid over it.
class StaticShapes {
  public:
    /// Indexes the boxes, polygons, circles and segments of `level` with
    /// buckets of about one tile (more when the level is vast).
    explicit StaticShapes(const io::StaticGeometry& level);

    /// Distance from `p` to the nearest solid shape or thin wall, 0 inside
    /// a solid shape, at most `cap` (shapes farther than that are not looked at).
    double clearance(Vec2 p, double cap) const;

    /// True when `p` lies strictly inside a polygon or a circle (boxes are
    /// the TunnelingChecker's).
    bool inside_shape(Vec2 p) const;

    /// True when the straight path a -> b crosses a segment: its ends lie
    /// strictly on opposite sides and the crossing lies strictly within it.
    bool crosses_segment(Vec2 a, Vec2 b) const;

  private:
    enum class Kind : std::uint8_t { box, polygon, circle, segment };
    struct Ref {
        Kind kind;
        std::uint32_t index;
    };
    template <class Visit> void for_each_near(Aabb region, Visit&& visit) const;
    double distance(const Ref& ref, Vec2 p) const; ///< 0 inside
    Aabb box_of(const Ref& ref) const;

    const io::StaticGeometry& level_;
    Vec2 origin_;
    double cell_ = 1;
    int columns_ = 0;
    int rows_ = 0;
    std::vector<std::uint32_t> starts_; ///< CSR offsets, columns*rows + 1
    std::vector<Ref> refs_;
};

} // namespace sweep::app
