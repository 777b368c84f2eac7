// Boolean overlap tests: do two placed shapes overlap, in the sense of
// docs/conventions.md ("Touching versus overlapping")? Cheaper than a
// distance, a manifold or a cast when only the yes/no matters (triggers,
// spawn checks, queries of the world's contents).
//
// Overlap means penetration deeper than the touch tolerance: shapes whose
// signed separation s (L; negative = penetration depth, the length of the
// shortest translation that leaves them touching) satisfies
// s < -touch_tolerance overlap; shapes within the tolerance only touch and do
// NOT overlap. This is the test shape_cast and time_of_impact make at t = 0 to
// report CastState::overlapped, and the one the mtv_* functions make for
// MtvState::overlapping, so all of them agree on the same pair.
//
// Methods: circle/circle by the centre distance; polygon/circle by the face of
// greatest separation and its end vertices (the circle case of Box2D's
// b2CollidePolygonAndCircle); polygon/polygon by separating axes on the face
// normals of both (Gottschalk's separating-axis theorem as in Ericson,
// "Real-Time Collision Detection" 4.4), exact for convex polygons, with GJK
// (distance.hpp) for rounded polygons whose cores are apart; every other pair
// by GJK while the cores are apart and separating axes when they meet (the
// signed separation shared with shape_cast and time_of_impact).
//
// Frames and units: shapes in their local frames, placed by world transforms;
// lengths in world units L. No allocation, no iteration beyond GJK's cap.
#pragma once

#include "sweep/constants.hpp"
#include "sweep/math.hpp"
#include "sweep/shapes.hpp"

namespace sweep {

/// True when the two shapes, placed by xfa and xfb, penetrate deeper than
/// `touch_tolerance` (L, >= 0; default k_touch_tolerance for L = 1, pass
/// Tolerances::for_units(L).touch_tolerance in other worlds). Symmetric in
/// a and b.
///
/// - Rounded shapes (circles, capsules, rounded polygons) count their radius.
/// - Segments and chain segments are the segment itself, solid on neither
///   side: a shape overlaps one only where it crosses the segment deeper than
///   the tolerance (from either side). A shape lying wholly inside the solid
///   a chain loop bounds does not overlap the chain, since chains are
///   boundaries, not areas; test the solid itself (a polygon) for that.
///   Two edges overlap when they cross with each end further than the
///   tolerance from the other's line (collide() never makes contacts
///   between edges; this query is geometric).
/// - Degenerate shapes: concentric circles overlap when ra + rb >
///   touch_tolerance; a zero-length segment or capsule is its point (or disc).
/// - Shapes smaller than the tolerance (ra + rb <= touch_tolerance for two
///   circles) never overlap: they can only touch.
/// - A NaN or infinite transform: false (nothing is known to overlap).
bool overlaps(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
              real touch_tolerance = k_touch_tolerance);

/// overlaps() for two circles: |cb - ca| < ra + rb - touch_tolerance
/// (compared squared). Non-finite transforms: false.
bool overlaps_circles(const Circle& a, const Transform& xfa, const Circle& b, const Transform& xfb,
                      real touch_tolerance = k_touch_tolerance);

/// overlaps() for a (possibly rounded) polygon and a circle: the signed
/// distance from the circle's centre to the polygon's core, from the face of
/// greatest separation (exact inside the core) or, outside, from the closest
/// point of that face's edge, minus both radii. Non-finite transforms: false.
bool overlaps_polygon_circle(const Polygon& a, const Transform& xfa, const Circle& b,
                             const Transform& xfb, real touch_tolerance = k_touch_tolerance);

/// overlaps() for two (possibly rounded) polygons by separating axes: the
/// largest gap between the cores along any face normal of either, which is
/// minus the penetration depth of overlapping cores and a lower bound of the
/// core distance otherwise; minus both radii. A positive gap smaller than the
/// radii is refined by GJK (the exact core distance). Non-finite transforms:
/// false.
bool overlaps_polygons(const Polygon& a, const Transform& xfa, const Polygon& b,
                       const Transform& xfb, real touch_tolerance = k_touch_tolerance);

} // namespace sweep
