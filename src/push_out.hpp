// Private to World::move (mover.cpp): the least translation that takes a
// mover's shapes out of every shape they may not overlap at once. Pushing
// out of the deepest overlap alone, along its minimum translation vector,
// and repeating, fails among several: a push out of one tile enters its
// neighbour (through the covered side of a floor tile at a seam, into a
// diagonal neighbour, into the wall of an inner corner), and the passes
// alternate without end.
//
// The method: the translations p at which the mover's shape B overlaps a
// shape A form a convex region of the plane, C = A - B (the Minkowski
// difference, rounded by both radii), whose support function is
// h(n) = max_a n.a + max_b (-n).b + radius; B + p is clear of A along n
// when n.p >= h(n) (the separating axis). The least push is the point
// nearest the origin outside the union of the regions. That point lies on
// a face of one region, at the origin's projection onto the face's line,
// or where faces of two regions cross; the faces of the Minkowski
// difference of two convex polygons are the faces of both (Ericson, "Real-Time
// Collision Detection", 2005, 3.8 and 5.2.1; the seed "collision detection"
// article's minimum translation vector). So the candidates are those
// projections and crossings, tried nearest first against every region:
// exact for polygons; a rounded region's arcs are covered by a ring of
// further directions, so there the push may overshoot by at most 2 % of
// the radius, never fall short. Regions enter as the candidates meet them,
// starting with those the mover overlaps.
//
// Frame and units: world, L.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sweep/distance.hpp"

namespace sweep::detail {

/// One of the mover's shapes (`own`) and a shape it may not overlap
/// (`other`): proxies in world coordinates (points placed, radius kept). A
/// segment or chain segment is a two-sided line (a chain's back is solid,
/// so a push never needs to end behind one).
struct PushObstacle {
    ShapeProxy other;
    ShapeProxy own;
};

/// `proxy` (local to `xf`) in world coordinates.
inline ShapeProxy placed_proxy(const ShapeProxy& proxy, const Transform& xf) {
    ShapeProxy placed = proxy;
    for (int i = 0; i < proxy.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        placed.points[k] = transform_point(xf, proxy.points[k]);
    }
    return placed;
}

/// A face of the translations at which an obstacle's `own` overlaps its
/// `other`: n.p >= h leaves it clear along the unit n.
struct PushPlane {
    Vec2 n;
    real h = 0;
};

/// least_push's working memory, kept by the caller so that a push
/// allocates nothing once it has grown.
struct PushScratch {
    std::vector<PushPlane> planes;  ///< every obstacle's faces, obstacle by obstacle
    std::vector<std::size_t> first; ///< obstacle i's: planes[first[i], first[i + 1])
    std::vector<std::uint8_t> active;
    std::vector<Vec2> candidates;

    /// Room for `obstacles` of four faces each (tiles around a box) and the
    /// crossings of a few of them.
    void reserve(std::size_t obstacles) {
        planes.reserve(4 * obstacles);
        first.reserve(obstacles + 1);
        active.reserve(obstacles);
        candidates.reserve(16 * obstacles);
    }
};

/// The shortest translation p, |p| <= max_push (L), at which every `own`
/// lies no deeper than `touch_tolerance` (L) in its `other`: a push that
/// leaves the mover touching what it was inside. Zero when the mover is in
/// none deeper than that already; none when no such p lies within
/// max_push (a mover buried in solid). Of ways out equally near, the one
/// of least x, then least y: the answer is deterministic.
std::optional<Vec2> least_push(std::span<const PushObstacle> obstacles, real max_push,
                               real touch_tolerance, PushScratch& scratch);

/// Whether every `own` moved by p (L) lies no deeper than
/// `touch_tolerance` (L) in its `other`, as least_push judges a push.
bool clear_of_all(std::span<const PushObstacle> obstacles, Vec2 p, real touch_tolerance,
                  PushScratch& scratch);

} // namespace sweep::detail
