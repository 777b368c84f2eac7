// Private to manifold.cpp and move_narrowphase.cpp: the second half of
// collide_polygons, from a chosen reference face and incident face to the
// manifold, so that two axis-aligned boxes, whose faces are known without a
// separating-axis search, get exactly the manifold collide() gives them.
#pragma once

#include <array>
#include <cstdint>

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

/// A vertex being clipped, with the feature id of the contact point it becomes.
struct ClipVertex {
    Vec2 v;
    std::uint32_t id = 0;
};

/// Whether the incident face runs parallel to the reference face `ref`
/// (its ends' gaps differ by under a tenth of `linear_slop`) and overlaps
/// it over a length: then collide_faces clips, whatever the separation.
bool parallel_faces_overlap(const ReferenceFace& ref, const PlacedFace& incident, real linear_slop);

/// Keeps the part of segment `in` on the back side of a plane, given its
/// ends' distances `d0` and `d1` beyond it (Sutherland-Hodgman for one
/// plane); returns its vertices' count. Inline, as the functions below, so
/// that a caller with radius 0 and axis-aligned faces (World::move's boxes)
/// compiles to little.
inline int clip_segment_at(std::array<ClipVertex, 2>& out, const std::array<ClipVertex, 2>& in,
                           real d0, real d1) {
    // Every index a constant, so that the compiler keeps both arrays in
    // registers: in memory, a copy of an end read its fields, stored one by
    // one, back in wide loads, which the processor cannot forward from its
    // stores (with collide_faces' ends made afresh, not copied, 8 % of a
    // chain collide's time).
    const ClipVertex a = in[0];
    const ClipVertex b = in[1];
    if (d0 <= 0 && d1 <= 0) {
        out[0] = a;
        out[1] = b;
        return 2;
    }
    int count = 0;
    if (d0 <= 0) {
        out[0] = a;
        count = 1;
    } else if (d1 <= 0) {
        out[0] = b;
        count = 1;
    }
    // Ends on opposite sides (the product is negative only then): one was
    // kept above, and the crossing follows it.
    if (d0 * d1 < 0) {
        const real t = d0 / (d0 - d1);
        // The clipped point keeps the id of the vertex it replaces: ids name
        // the end of the overlap, so they survive a neighbour's corner
        // rising a hair above or below the face (warm starting holds).
        out[1] = {lerp(a.v, b.v, t), d0 > 0 ? a.id : b.id};
        count = 2;
    }
    return count;
}

/// clip_segment_at for the plane dot(normal, x) = offset.
inline int clip_segment(std::array<ClipVertex, 2>& out, const std::array<ClipVertex, 2>& in,
                        Vec2 normal, real offset) {
    return clip_segment_at(out, in, dot(normal, in[0].v) - offset, dot(normal, in[1].v) - offset);
}

/// The clipping of collide_faces: the incident face's ends `ends` (world,
/// L) clipped to the sides of `ref` grown by `total_radius` (the two
/// polygons' radii). False when less than a length of it is left; then
/// collide_faces gives no points. The sides are taken across the face's
/// stored unit normal, not one rebuilt from the world vertices: far from
/// the origin a tiny face may round to a point there.
inline bool clip_to_reference_face(const ReferenceFace& ref, real total_radius,
                                   std::array<ClipVertex, 2>& ends) {
    const Vec2 tangent = left_perp(ref.normal);
    std::array<ClipVertex, 2> clip1{};
    return clip_segment(clip1, ends, -tangent, -dot(tangent, ref.face.v1) + total_radius) == 2 &&
           clip_segment(ends, clip1, tangent, dot(tangent, ref.face.v2) + total_radius) == 2;
}

/// A clipped end `v` as collide_faces makes it a contact point, before its
/// anchors and id: where it lies on the reference and on the incident
/// surface (world, L; `r_ref` and `r_inc` their polygons' radii) and its gap
/// beyond the reference face, radii excluded (L; a point farther than the
/// speculative distance is dropped).
struct FacePoint {
    Vec2 on_ref;
    Vec2 on_inc;
    real gap = 0;
};
inline FacePoint face_point(const ReferenceFace& ref, real r_ref, real r_inc, Vec2 v) {
    const Vec2 normal = ref.normal;
    const real front = dot(normal, ref.face.v1);
    return {v - (dot(normal, v) - front - r_ref) * normal, v - r_inc * normal,
            dot(normal, v) - front - (r_ref + r_inc)};
}

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
