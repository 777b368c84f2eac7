// The seed articles' classic continuous tests as fast paths: swept AABB vs
// AABB (Sacred Software, "Collisions, Part 1"), segment intersection by
// Cramer's rule and swept circles/spheres by a quadratic ("Predictive
// Collision Detection"), and a circle swept against a box (Ericson,
// "Real-Time Collision Detection" 5.5.7). Closed-form, no iteration, no
// allocation.
//
// Frame, units and the touching convention are those of docs/conventions.md:
// lengths in world units L, times as fractions of the motion in [0, 1], every
// normal from the first shape (A) to the second (B), and a start within the
// touch tolerance counts as touching (t = 0 when closing, no hit otherwise).
// The default tolerance is k_touch_tolerance, for L = 1 length unit per
// metre; pass Tolerances::for_units(L).touch_tolerance in other worlds.
#pragma once

#include <cmath>

#include "sweep/constants.hpp"
#include "sweep/math.hpp"
#include "sweep/shape_cast.hpp"

namespace sweep {

/// Result of swept_aabb(). `state` is hit, miss, overlapped or invalid_input
/// (never failed: the test is closed-form).
struct SweptAabbResult {
    CastState state = CastState::miss;
    real entry = 0; ///< first contact, fraction of the displacement in [0, 1] (hit); 0 (overlapped)
    real exit = 0;  ///< when the boxes stop overlapping along the infinite line of motion
                    ///< (> entry; may exceed 1; +infinity when they never part); valid for
                    ///< hit and overlapped
    int axis = -1;  ///< 0 = x, 1 = y: the axis entered last (the face hit); -1 unless hit
    Vec2 normal; ///< unit, from the moving box (A) to the target (B): +-x or +-y; zero unless hit
    real contact_length = 0; ///< L: length of the touching faces' overlap at `entry` (the
                             ///< article's "surface area", its crack tie-break); 0 unless hit
};

/// Swept AABB vs AABB (Sacred Software, "Collisions, Part 1"): `moving`
/// (world, L) translates by `displacement` (world, L) over t in [0, 1];
/// `target` stays still. Per axis the slab entry and exit times are
/// computed; the boxes meet at the latest entry if it comes before the
/// earliest exit and within [0, 1]. Unlike the article's union-rectangle
/// approximation this is an exact sweep (no false corner hits).
///
/// Touching (docs/conventions.md): per-face gaps within `touch_tolerance` (L,
/// >= 0) count as zero, so a start touching a face and moving into it hits at
/// t = 0, and one sliding along it or moving away is a miss. Boxes whose
/// least-penetrating axis overlaps deeper than the tolerance at t = 0 are
/// `overlapped` (entry 0, exit the time they part). Equal entry times on both
/// axes (a corner met exactly) pick the axis with the faster closing speed,
/// then x. Invalid boxes (lower > upper) or non-finite input: invalid_input.
SweptAabbResult swept_aabb(const Aabb& moving, Vec2 displacement, const Aabb& target,
                           real touch_tolerance = k_touch_tolerance);

/// How two segments meet (intersect_segments()).
enum class SegmentIntersectionState {
    disjoint,      ///< no common point (including collinear segments with a gap)
    parallel,      ///< parallel on distinct lines: no common point
    point,         ///< exactly one common point, at parameters t (on P) and s (on Q)
    collinear,     ///< collinear with a common interval [t, t_end] on P ([s, s_end] on Q)
    invalid_input, ///< a coordinate is NaN or infinite
};

/// Result of intersect_segments(). Parameters run from 0 at the first point
/// of a segment to 1 at its second.
struct SegmentIntersection {
    SegmentIntersectionState state = SegmentIntersectionState::disjoint;
    real t = 0;     ///< on P: the common point, or the start of the common interval (least t)
    real s = 0;     ///< on Q at the same point
    real t_end = 0; ///< on P: the end of the common interval (== t unless collinear)
    real s_end = 0; ///< on Q at the same point
    Vec2 point;     ///< world, L: p0 + t (p1 - p0), the first common point along P
};

/// Intersection of the segments P = p0 -> p1 and Q = q0 -> q1 (world, L) by
/// Cramer's rule ("Predictive Collision Detection": two particles' paths over a
/// step). With d = cross(p1 - p0, q1 - q0) and w = q0 - p0:
/// t = cross(w, q1 - q0) / d, s = cross(w, p1 - p0) / d (the article's
/// formula for s has its sign flipped), in a wider type than `real` (from
/// float coordinates the products are exact in double; long double in
/// double builds), since near parallel they cancel. When |d| is below a few ulps of
/// |P||Q| the segments are parallel: on distinct lines -> parallel; on one
/// line -> their common interval by projection (collinear, or disjoint if
/// none). Segments of zero length are points: they meet a segment through
/// them (state point). Parameters within a few ulps of [0, 1] are clamped,
/// so segments meeting end to end or in a T report their common point.
SegmentIntersection intersect_segments(Vec2 p0, Vec2 p1, Vec2 q0, Vec2 q1);

/// Result of swept_circles().
struct SweptCircleResult {
    CastState state = CastState::miss; ///< hit, miss, overlapped or invalid_input
    real t = 0;    ///< first time the circles touch, in [0, 1] (hit); 0 (overlapped)
    real exit = 0; ///< the later root: when they part again (hit, overlapped); may exceed
                   ///< 1; +infinity when their relative motion is zero
    Vec2 normal;   ///< unit, from A's centre to B's at t (hit; centres that coincide at t:
                   ///< from A's to B's at the start, else +y); zero otherwise
    Vec2 point;    ///< world, L: the contact point on A's surface at t (hit)
};

/// Swept circle vs circle ("Predictive Collision Detection"): A's centre moves
/// from c0a to c1a and B's from c0b to c1b (world, L) on straight lines over
/// t in [0, 1]; radii ra, rb (L, >= 0). The earliest root in [0, 1] of
/// |dp + t dv|^2 = (ra + rb)^2, dp = c0b - c0a, dv = (c1b - c0b) - (c1a - c0a),
/// by the cancellation-free quadratic formula: t = c / (-b' + sqrt(D)) with
/// b' = dp.dv, c = |dp|^2 - R^2 and D = b'^2 - ac computed as
/// |dv|^2 R^2 - |dp x dv|^2 (Lagrange's identity). Starting within `touch_tolerance` (L) of
/// touching: t = 0 when closing, miss when moving along or apart; starting overlapped beyond it
/// (concentric circles included): overlapped. Non-finite input or a negative radius: invalid_input.
SweptCircleResult swept_circles(Vec2 c0a, Vec2 c1a, real ra, Vec2 c0b, Vec2 c1b, real rb,
                                real touch_tolerance = k_touch_tolerance);

/// Result of swept_circle_aabb().
struct SweptCircleAabbResult {
    CastState state = CastState::miss; ///< hit, miss, overlapped or invalid_input
    real t = 0;  ///< first time the circle touches the box, in [0, 1] (hit); 0 otherwise
    Vec2 normal; ///< unit, from the box (A) to the circle (B) at t: a face's axis, or from the
                 ///< corner met to the centre (hit); zero otherwise
    Vec2 point;  ///< world, L: the point of the box nearest the centre at t, on its surface (hit)
    bool corner = false; ///< the circle meets a corner of the box, not a face (hit)
};

/// Swept circle vs AABB (Ericson, "Real-Time Collision Detection", 5.5.7,
/// in 2D): the circle of `radius` (L, >= 0) whose centre starts at `center`
/// moves by `displacement` over t in [0, 1] against the still `box` (world,
/// L). The centre's path is cut with the box grown by the radius; where it
/// enters that box beside a face, that face is met; where it enters at a
/// corner's square, the corner's circle of the radius decides by the
/// cancellation-free quadratic of swept_circles(). Exact up to rounding: no
/// iteration, and a path that only passes the grown box's corner misses.
///
/// The start's separation is the centre's distance to the box less the
/// radius (a centre on or inside the box: less its depth to the nearest
/// face as well). Within `touch_tolerance` (L, >= 0) of zero it is
/// touching (docs/conventions.md): t = 0 when the motion closes along the
/// normal there (from the nearest point of the box to the centre; for a
/// centre on or inside the box the axis of its nearest face, x before y),
/// a miss when it moves along or away. Deeper than the tolerance:
/// overlapped. Non-finite input, a negative radius or tolerance, or a box
/// whose lower corner exceeds its upper: invalid_input.
SweptCircleAabbResult swept_circle_aabb(const Aabb& box, Vec2 center, real radius,
                                        Vec2 displacement,
                                        real touch_tolerance = k_touch_tolerance);

/// A 3D vector, only for swept_spheres() (the article's 3D variant).
struct Vec3 {
    real x = 0;
    real y = 0;
    real z = 0;
    friend constexpr bool operator==(Vec3, Vec3) = default;
};

/// Result of swept_spheres(); as SweptCircleResult in 3D.
struct SweptSphereResult {
    CastState state = CastState::miss; ///< hit, miss, overlapped or invalid_input
    real t = 0;                        ///< first time the spheres touch, in [0, 1]
    real exit = 0;                     ///< the later root (may exceed 1, or be +infinity)
    Vec3 normal;                       ///< unit, from A's centre to B's at t (hit)
    Vec3 point;                        ///< contact point on A's surface at t (hit)
};

/// Swept sphere vs sphere: swept_circles() in 3D (same quadratic, same
/// touching and overlap rules, same units).
SweptSphereResult swept_spheres(Vec3 c0a, Vec3 c1a, real ra, Vec3 c0b, Vec3 c1b, real rb,
                                real touch_tolerance = k_touch_tolerance);

} // namespace sweep
