// Private to manifold.cpp and move_narrowphase.cpp: the second half of
// collide_polygons, from a chosen reference face and incident face to the
// manifold, so that two axis-aligned boxes, whose faces are known without a
// separating-axis search, get exactly the manifold collide() gives them.
#pragma once

#include "sweep/manifold.hpp"

namespace sweep::detail {

/// A polygon's face placed in the world (L): its ends in the polygon's
/// counter-clockwise order, their vertex indices (for the points' ids) and
/// the polygon's radius.
struct PlacedFace {
    Vec2 v1;
    Vec2 v2;
    int index1 = 0;
    int index2 = 0;
    real radius = 0;
};

/// The reference face with its outward unit normal, in the world and in
/// its polygon's frame, and that polygon's rotation.
struct ReferenceFace {
    PlacedFace face;
    Vec2 normal;
    Vec2 local_normal;
    Rot q;
};

/// The manifold of two polygons whose separating-axis search chose `ref`
/// (on B when `reference_is_b`) and the face of the other most
/// anti-parallel to it, `incident`; `core_separation` (L) is the larger of
/// the two polygons' separations, radii excluded. Cores apart by more than
/// a tenth of the slop meeting vertex to vertex give one point on the line
/// through the vertices; otherwise the incident face is clipped to the
/// reference face's sides (collide_polygons, after Box2D v3).
Manifold collide_faces(const ReferenceFace& ref, const PlacedFace& incident, real core_separation,
                       bool reference_is_b, const Transform& xfa, const Transform& xfb,
                       const CollideSettings& settings);

} // namespace sweep::detail
