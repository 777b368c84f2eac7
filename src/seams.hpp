// Seams between static polygons: the faces that a neighbouring static
// polygon covers, back to back, and the contact points that lie on them.
// Private to the world (world_impl.hpp).
//
// A floor of separate tiles is one flat surface to anything sliding on it,
// yet each tile is a closed box: a box crossing from one tile to the next
// meets the next tile's side face (or its corner) edge-on, and a contact on
// that face pushes it backwards: the "crack problem" of the seeds (Sacred
// Software, "Collisions, Part 1"), called "ghost collisions" or "internal
// edges" in physics engines (Catto, "Ghost Collisions", box2d.org 2020). Box2D
// avoids it with chains and their ghost vertices, which sweep has too (see
// collide() in manifold.cpp); Bullet's btInternalEdgeUtility and Jolt's
// InternalEdgeRemovingCollector instead correct contacts against edges that
// neighbouring geometry hides. We do the latter for static polygons: where a
// face of one lies flush against a face of another, the stretch they share
// is inside the level's solid; a contact that would push a shape off it next
// to a flat seam is made again on the surface running on from the seam
// (world_seams.cpp, collide_pair).
#pragma once

#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "sweep/manifold.hpp"
#include "sweep/shapes.hpp"

namespace sweep::detail {

/// Sine of the largest angle between two faces that still lie back to back,
/// and the smallest lean of a contact normal towards a covered face that
/// counts as pushing off it (about 0.6 degrees, as for chain vertices).
inline constexpr real k_seam_sine = real(0.01);

/// How far from a seam, in linear slops along the covered face, a contact
/// point can be and still come from a shape crossing the seam: a box sliding
/// across sinks about a slop below the tops, a corner pointing into the crack
/// a few. Farther along, the point is under whatever covers the face (a
/// shape wedged under the foot of a wall), not at a seam.
inline constexpr real k_seam_reach = 4;

/// A stretch of one face of a static polygon that a face of a neighbouring
/// static polygon covers, back to back.
struct CoveredStretch {
    int face = 0;       ///< the face vertices[face] -> vertices[face + 1] of the covered polygon
    int neighbour = -1; ///< the covering shape's index in the world
    real lo = 0;        ///< start of the stretch: distance from vertices[face] along the face, L
    real hi = 0;        ///< its end, L; hi - lo > the tolerance it was found with
};

/// The direction of `n` if it is exactly an axis's (a signed zero counts
/// as zero): 0 for +x, 1 for +y, 2 for -x, 3 for -y; else -1.
inline int axis_direction(Vec2 n) {
    if (n.y == 0) {
        return n.x == 1 ? 0 : (n.x == -1 ? 2 : -1);
    }
    if (n.x == 0) {
        return n.y == 1 ? 1 : (n.y == -1 ? 3 : -1);
    }
    return -1;
}

/// A polygon placed in the world: its vertices and outward normals at a pose.
struct PlacedPolygon {
    int count = 0;
    std::array<Vec2, k_max_polygon_vertices> vertices;
    std::array<Vec2, k_max_polygon_vertices> normals;
    /// For a box whose placed normals are exactly the four axis directions
    /// (a tile at a pose without rotation), the face whose normal is each
    /// direction (axis_direction's numbering); else all -1.
    std::array<int, 4> face_toward{-1, -1, -1, -1};
};

/// `polygon` at pose `xf`.
inline PlacedPolygon place(const Polygon& polygon, const Transform& xf) {
    PlacedPolygon placed;
    placed.count = polygon.count;
    for (int i = 0; i < polygon.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        placed.vertices[k] = transform_point(xf, polygon.vertices[i]);
        placed.normals[k] = rotate(xf.q, polygon.normals[i]);
    }
    if (polygon.count == 4) {
        std::array<int, 4> toward{-1, -1, -1, -1};
        for (int i = 0; i < 4; ++i) {
            const int direction = axis_direction(placed.normals[static_cast<std::size_t>(i)]);
            if (direction < 0 || toward[static_cast<std::size_t>(direction)] >= 0) {
                return placed;
            }
            toward[static_cast<std::size_t>(direction)] = i;
        }
        placed.face_toward = toward;
    }
    return placed;
}

/// Appends to `out` every stretch of `polygon`'s faces (placed in the world)
/// that a face of `neighbour` (placed, shape index `neighbour_index`)
/// covers: the faces are anti-parallel within k_seam_sine, the neighbour's
/// face lies within `tolerance` (L) of the polygon's face line at both ends,
/// and they overlap along it by more than `tolerance`. Meant for polygons of
/// radius 0 (a rounded polygon's face is offset from its vertices; its
/// corners leave a groove, not a flush seam). Two boxes with axis normals
/// (PlacedPolygon::face_toward) pair each face with the opposite one
/// alone: of exact axis normals, only those are anti-parallel within
/// k_seam_sine, so the stretches are the same, to the bit, as the search of
/// every pair of faces gives, at a quarter of the tests (a tile level's
/// neighbours are most of its load).
void find_covered_stretches(const PlacedPolygon& polygon, const PlacedPolygon& neighbour,
                            int neighbour_index, real tolerance, std::vector<CoveredStretch>& out);

/// The covered stretch a contact point lies on, or null: `point` is on the
/// wall's surface in the wall's frame, `normal` (wall's frame, unit) points
/// from the wall to the other shape. The point is on a stretch when it is
/// within `tolerance` (L) of the stretch's face line and on its extent (a
/// seam vertex belongs to the stretch that ends there; an end inside the
/// face must be passed by `tolerance`), and the normal leans
/// towards the covered face's outward normal by more than k_seam_sine (a
/// normal along the face, such as the floor's up at the foot of a wall
/// standing on it, does not push off it). `counts(stretch)` says whether the
/// stretch's neighbour collides with the other shape at all.
template <class Counts>
const CoveredStretch* seam_stretch(const Polygon& wall, std::span<const CoveredStretch> covered,
                                   Vec2 point, Vec2 normal, real tolerance, Counts&& counts) {
    for (const CoveredStretch& c : covered) {
        const Vec2 origin = wall.vertices[c.face];
        const Vec2 face_normal = wall.normals[c.face];
        const real length = distance(origin, wall.vertices[(c.face + 1) % wall.count]);
        const real along = dot(point - origin, left_perp(face_normal));
        // A stretch ending at the face's vertex takes the vertex; one ending
        // inside the face (a wall standing on a floor) does not take the
        // bare face's points next to it, such as the floor's at the wall's foot.
        const real lo = c.lo <= tolerance ? -tolerance : c.lo + tolerance;
        const real hi = c.hi >= length - tolerance ? length + tolerance : c.hi - tolerance;
        const bool on_stretch =
            std::abs(dot(point - origin, face_normal)) <= tolerance && along >= lo && along <= hi;
        if (on_stretch && dot(normal, face_normal) > k_seam_sine && counts(c)) {
            return &c;
        }
    }
    return nullptr;
}

/// The face of `wall` that continues flat across the seam where `point`
/// lies on stretch `c`, or -1. `point` is in the wall's frame; `neighbour`
/// is the stretch's covering polygon. The seam is the covered face's
/// endpoint nearer the point, if the stretch reaches it; the face of the wall
/// meeting the covered face there continues flat when a face of the
/// neighbour lies on the same line with the same outward normal (within
/// k_seam_sine) and reaches the seam: two tiles' tops side by side. At a
/// convex or concave joint (a slope meeting a flat top, a floor meeting a
/// wall), at a stretch ending inside a face, or for a point farther than
/// `reach` (L) from the seam along the covered face, there is none.
int flat_seam_face(const Polygon& wall, const Transform& xf_wall, const CoveredStretch& c,
                   Vec2 point, const Polygon& neighbour, const Transform& xf_neighbour,
                   real tolerance, real reach);

/// The end of segment `s` (0: p1, 1: p2) a contact is made on, or -1 for a
/// contact on its face: `normal` (the segment's frame, unit, either sense)
/// leans along the segment by more than k_seam_sine, as only a normal from
/// a rounded end does, and `point` (the segment's frame) is nearer that end.
inline int contacted_end(const Segment& s, Vec2 normal, Vec2 point) {
    const Vec2 axis = normalize(s.p2 - s.p1);
    if (std::abs(dot(normal, axis)) <= k_seam_sine) {
        return -1;
    }
    return length_squared(point - s.p1) <= length_squared(point - s.p2) ? 0 : 1;
}

/// Whether `point` (the polygon's frame) is inside `polygon` deeper than
/// `tolerance` (L) behind every face.
inline bool inside(const Polygon& polygon, Vec2 point, real tolerance) {
    for (int i = 0; i < polygon.count; ++i) {
        if (dot(polygon.normals[i], point - polygon.vertices[i]) > -tolerance) {
            return false;
        }
    }
    return true;
}

} // namespace sweep::detail
