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
// is inside the level's solid, and no contact may push off it.
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

/// Contact points deeper than this many linear slops are kept even on a
/// covered face: a shape sunk that far into the level (spawned inside, or
/// squeezed) must still be pushed out the shortest way. A shape crossing a
/// seam overlaps the next tile's side by less than it sinks into the floor
/// (about a slop). At 4 slops, bodies on the shared maps sank that deep
/// through seams of merged rectangles (tests/scene's 2-slop verdicts).
inline constexpr real k_max_seam_depth = 1;

/// A stretch of one face of a static polygon that a face of a neighbouring
/// static polygon covers, back to back.
struct CoveredStretch {
    int face = 0;       ///< the face vertices[face] -> vertices[face + 1] of the covered polygon
    int neighbour = -1; ///< the covering shape's index in the world
    real lo = 0;        ///< start of the stretch: distance from vertices[face] along the face, L
    real hi = 0;        ///< its end, L; hi - lo > the tolerance it was found with
};

/// Appends to `out` every stretch of `polygon`'s faces (in the world at `xf`)
/// that a face of `neighbour` (at `xf_neighbour`, shape index
/// `neighbour_index`) covers: the faces are anti-parallel within k_seam_sine,
/// the neighbour's face lies within `tolerance` (L) of the polygon's face
/// line at both ends, and they overlap along it by more than `tolerance`.
/// Meant for polygons of radius 0 (a rounded polygon's face is offset from
/// its vertices; its corners leave a groove, not a flush seam).
void find_covered_stretches(const Polygon& polygon, const Transform& xf, const Polygon& neighbour,
                            const Transform& xf_neighbour, int neighbour_index, real tolerance,
                            std::vector<CoveredStretch>& out);

/// The covered stretch a contact point lies on, or null: `point` is on the
/// wall's surface in the wall's frame, `normal` (wall's frame, unit) points
/// from the wall to the other shape. The point is on a stretch when it is
/// within `tolerance` (L) of the stretch's face line and of its extent (a
/// seam vertex belongs to the stretch that ends there), and the normal leans
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
        const real along = dot(point - origin, left_perp(face_normal));
        const bool on_stretch = std::abs(dot(point - origin, face_normal)) <= tolerance &&
                                along >= c.lo - tolerance && along <= c.hi + tolerance;
        if (on_stretch && dot(normal, face_normal) > k_seam_sine && counts(c)) {
            return &c;
        }
    }
    return nullptr;
}

/// `m` (a manifold of a shape A against a static polygon B, `wall`) without
/// its points on covered stretches: `seams[i]` is point i's stretch, or null
/// for a point that stays. Of a two-point manifold with one point on a
/// stretch and the other beyond it (a box pressed against a tall tile whose
/// lower part a short neighbour covers), the first moves along the line
/// between them to the stretch's end: the contact keeps its exposed extent.
/// Otherwise the points on stretches are dropped; a manifold left with none
/// has count 0. Returns the manifold; normal and reference are unchanged.
Manifold without_seam_points(Manifold m, const std::array<const CoveredStretch*, 2>& seams,
                             const Polygon& wall, real tolerance);

} // namespace sweep::detail
