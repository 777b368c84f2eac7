// Minimum translation vectors (penetration depth and direction, or the
// distance when apart) for the seed "collision detection" article's shape
// pairs: circle/circle, circle/AABB, circle/OBB, AABB/AABB and convex
// polygon/polygon via the Minkowski difference and support points.
//
// Frame and units: world coordinates, lengths in L (docs/conventions.md). The
// normal points from A (the first shape) to B. Touching versus overlapping
// follows the conventions: |separation| within `touch_tolerance` is touching
// (default k_touch_tolerance, for L = 1; pass
// Tolerances::for_units(L).touch_tolerance in other worlds).
#pragma once

#include "sweep/constants.hpp"
#include "sweep/math.hpp"
#include "sweep/shapes.hpp"

namespace sweep {

/// How two shapes lie relative to each other (mtv_* functions).
enum class MtvState {
    overlapping,   ///< penetrating deeper than the touch tolerance
    touching,      ///< |separation| <= touch tolerance
    separated,     ///< apart by more than the touch tolerance
    invalid_input, ///< NaN or infinite input, or an invalid box
};

/// Result of the mtv_* functions.
struct Mtv {
    MtvState state = MtvState::separated;
    Vec2 normal; ///< unit, from A to B: the direction of least penetration when they overlap,
                 ///< of the closest points when apart
    real separation = 0; ///< L: negative = penetration depth, positive = distance between them
    Vec2 translation;    ///< the minimum translation of A that leaves them touching:
                         ///< separation * normal when separation < 0, zero otherwise
};

/// Circle vs circle (world, L): separation = |cb - ca| - (ra + rb), normal
/// along the centres. Concentric circles (centres within 1e-30 L on each axis,
/// below what normalize resolves) get the normal +y (up), as collide_circles
/// does, and separation -(ra + rb).
Mtv mtv_circles(const Circle& a, const Transform& xfa, const Circle& b, const Transform& xfb,
                real touch_tolerance = k_touch_tolerance);

/// Circle (A) vs axis-aligned box (B, world, L), by clamping the centre to the
/// box (the article's circle vs AABB). A centre inside the box leaves through
/// the nearest face (separation = -(distance to that face + radius)); ties go
/// to x before y and to the + face before the - face, so a centre exactly at
/// the box centre of a square is pushed out through +x (normal -x).
Mtv mtv_circle_aabb(const Circle& a, const Transform& xfa, const Aabb& b,
                    real touch_tolerance = k_touch_tolerance);

/// Circle (A) vs oriented box (B): a rectangle Polygon (make_box,
/// make_offset_box) placed by xfb; its rounding radius counts. The circle's
/// centre is taken into the box's frame and clamped there (the article's
/// circle vs OBB), with the same inside rule and ties as mtv_circle_aabb in
/// the box's own axes (normals[1] is its +x and left_perp of that, -normals[0]
/// for a rectangle, its +y; for make_box the local x and y). A polygon that is
/// not a rectangle is treated as its bounding rectangle in those axes.
Mtv mtv_circle_obb(const Circle& a, const Transform& xfa, const Polygon& b, const Transform& xfb,
                   real touch_tolerance = k_touch_tolerance);

/// AABB vs AABB (world, L). Overlapping: the axis of least overlap (ties: x),
/// normal toward B along it. Apart: the Euclidean distance between the boxes
/// with the normal between their closest points (diagonal past a corner).
Mtv mtv_aabbs(const Aabb& a, const Aabb& b, real touch_tolerance = k_touch_tolerance);

/// Convex polygon vs convex polygon (rounding radii included) via the
/// Minkowski difference B - A and support points (the article's method):
/// each face of A with B's support point against its normal, and each face of
/// B with A's, is a face of the difference. Overlapping cores: the face with
/// the least penetration (the separating-axis maximum), normal = that face's
/// normal oriented from A to B; apart: the exact distance from the origin to
/// the difference's faces that face it. Radii are then subtracted, which is
/// exact for rounded polygons. Ties between faces go to A's faces, lowest index.
Mtv mtv_polygons(const Polygon& a, const Transform& xfa, const Polygon& b, const Transform& xfb,
                 real touch_tolerance = k_touch_tolerance);

} // namespace sweep
