// Ray casts against every shape: where does the segment origin ->
// origin + translation first enter a shape? Closed-form per shape, no
// iteration: a quadratic for discs (Ericson, "Real-Time Collision Detection",
// 5.3.2, with the precise discriminant and root of Haines et al., Ray Tracing
// Gems ch. 7), slab clipping for polygons (Ericson 5.3.8; Box2D's
// b2PolygonShape::RayCast), line-line for segments (Box2D's
// b2EdgeShape::RayCast), and for rounded shapes the exact Minkowski sum of
// the core and a disc: offset edges and vertex circles.
//
// The rules shared by every overload:
// - The ray lives in the world frame (y up, L). The shape is placed by `xf`.
// - Shapes are closed sets. The reported fraction is the first t in
//   [0, max_fraction] at which origin + t * translation enters the shape from
//   outside; a ray that only grazes the boundary (tangent to a disc, through a
//   corner) hits there.
// - Starting inside: a ray whose origin is inside a solid shape (circle,
//   capsule, polygon) does not hit it (Box2D's convention: a ray leaving a
//   shape never reports that shape). An origin on the surface counts as
//   outside: moving inward it hits at t = 0 with the surface normal; moving
//   along or away it misses (the "touching" rule of docs/conventions.md).
//   Whether an origin within rounding of the surface is on it, inside or
//   outside is decided by the arithmetic in `real`.
// - A zero translation is a miss: a ray that does not move enters nothing,
//   even from the surface. Use distance() for point queries.
// - NaN or infinite input (origin, translation, max_fraction, transform) and
//   a negative max_fraction report CastState::invalid_input. So does finite
//   input beyond the range products of squares stay finite in: a
//   translation longer than 2 k_max_coordinate for every shape, an origin
//   farther than 4 k_max_coordinate (from a circle's centre, or in a
//   polygon's or capsule's frame) for solid shapes.
// - No allocation and no virtual dispatch; the Shape overload switches on the
//   type tag.
#pragma once

#include "sweep/math.hpp"
#include "sweep/shape_cast.hpp"
#include "sweep/shapes.hpp"

namespace sweep {

/// A ray in the world frame: the segment from `origin` to
/// `origin + max_fraction * translation`, in world units L.
struct RayInput {
    Vec2 origin;           ///< start point, world frame, L
    Vec2 translation;      ///< the ray's direction and length, world frame, L (not unit)
    real max_fraction = 1; ///< only hits at t <= this count; finite and >= 0
};

/// The first point where the ray enters a solid disc placed by `xf`.
/// Result (world frame): state hit or miss (invalid_input as in the header
/// comment); on a hit, `fraction` in [0, max_fraction], `point` =
/// origin + fraction * translation on the circle, `normal` the outward unit
/// normal there, `iterations` = 0. Otherwise the fields keep their defaults.
/// Degenerate cases: origin inside the disc: miss; on the circle: t = 0 when
/// moving inward, else miss; a tangent ray hits at the tangent point.
/// Method: the quadratic |s + t d|^2 = r^2 (Ericson 5.3.2) with the
/// discriminant r^2 |d|^2 - (s x d)^2 from the centre's distance to the line
/// and the entry root (|s|^2 - r^2) / (-s.d + sqrt(disc)), neither of which
/// cancels for long rays (Haines, Guenther, Akenine-Moeller, "Precision
/// Improvements for Ray/Sphere Intersection", Ray Tracing Gems, 2019).
CastOutput raycast(const RayInput& input, const Circle& circle, const Transform& xf);

/// The first point where the ray enters a capsule (the segment center1 ->
/// center2 grown by `radius`) placed by `xf`. Result and degenerate cases as
/// for a circle: origin inside: miss; tangent to a cap or along a side:
/// hits at the touching point. Exact: the ray against the two sides offset
/// by the radius and the two end circles, as for a rounded polygon (a
/// capsule is the two-vertex rounded polygon of capsule_polygon()).
CastOutput raycast(const RayInput& input, const Capsule& capsule, const Transform& xf);

/// The first point where the ray enters a convex polygon placed by `xf`,
/// rounded ones (`polygon.radius > 0`) included. Result as for a circle;
/// `normal` is the outward face normal, or for a rounded polygon hit on a
/// corner arc, the direction from that core vertex to the point.
/// Degenerate cases: origin inside (or, rounded, within `radius` of the
/// core): miss; on the surface: t = 0 when moving inward, else miss; a ray
/// through a sharp corner, or sliding along a face's line from outside, hits
/// at the corner with the normal of a face it enters through.
/// Method, sharp: clipping the ray by the edges' half-planes (Cyrus-Beck;
/// Ericson 5.3.8; Box2D's b2PolygonShape::RayCast). Rounded, exactly the
/// Minkowski sum of the core and a disc: the clip against the half-planes
/// pushed out by `radius` (the mitred polygon, a superset) gives the entry
/// face; an entry point within that face's edge is the answer; one past an
/// end lies in that vertex's corner region, bounded by the corner arc and
/// two offset faces, so the answer is the ray against that vertex circle or
/// a miss. Not a shape cast: no iteration.
CastOutput raycast(const RayInput& input, const Polygon& polygon, const Transform& xf);

/// The first point where the ray crosses a two-sided segment placed by `xf`.
/// Result as for a circle; `normal` is the segment's unit normal on the side
/// the ray comes from. Degenerate cases: a ray parallel to the segment
/// (collinear included) misses, as in Box2D: a segment has no area to enter;
/// a ray within about 0.06 degrees of the segment's line hits only where its
/// point lies over the segment, to the rounding of the coordinates (there
/// the crossing's parameters are ratios of values near their rounding);
/// an origin on the segment hits at t = 0 with the normal against the
/// motion; a ray through an endpoint hits. Method: Box2D's
/// b2EdgeShape::RayCast (the line-line intersection, then the segment's
/// parameter checked in [0, 1]).
CastOutput raycast(const RayInput& input, const Segment& segment, const Transform& xf);

/// The first point where the ray crosses a chain segment from its outer side
/// (the right of p1 -> p2, outward_normal(), docs/conventions.md), placed by
/// `xf`. Rays from the solid side (the left) or moving along or away from
/// the outer side miss, so a ray cast from inside a counter-clockwise chain
/// loop leaves it freely. `normal` is always outward_normal() in the world.
/// Ghost vertices play no part. An origin on the segment moving inward hits
/// at t = 0. Method: as for a Segment, one-sided as Box2D 2.4.1's
/// b2EdgeShape::RayCast with m_oneSided.
CastOutput raycast(const RayInput& input, const ChainSegment& chain, const Transform& xf);

/// The ray against any shape: dispatches on `shape.type` (a switch, no
/// virtual call) to the overloads above, whose rules apply.
CastOutput raycast(const RayInput& input, const Shape& shape, const Transform& xf);

} // namespace sweep
