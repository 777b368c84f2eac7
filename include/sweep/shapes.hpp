// The shapes of the geometry kernel, in their own local frame; a Transform
// places them in the world. Factories validate and return Result; queries
// trust shapes made by a factory.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "sweep/constants.hpp"
#include "sweep/math.hpp"
#include "sweep/result.hpp"

namespace sweep {

/// Most vertices of a Polygon (Box2D's b2_maxPolygonVertices).
inline constexpr int k_max_polygon_vertices = 8;

/// A solid disc: centre (local frame, L) and radius (L, > 0).
struct Circle {
    Vec2 center;
    real radius = 0;
};

/// A solid capsule: the segment center1 -> center2 (local frame, L) grown by
/// `radius` (L, > 0), i.e. a rectangle with two half-discs. Make one with
/// make_capsule.
struct Capsule {
    Vec2 center1;
    Vec2 center2;
    real radius = 0;
};

/// A solid convex polygon with counter-clockwise vertices, outward unit
/// normals (normals[i] is the normal of the edge vertices[i] -> vertices[i+1]),
/// its centroid, and an optional rounding radius (the polygon grown by
/// `radius` on every side). Make one with make_box or make_polygon.
struct Polygon {
    std::array<Vec2, k_max_polygon_vertices> vertices{};
    std::array<Vec2, k_max_polygon_vertices> normals{};
    Vec2 centroid;
    real radius = 0;
    int count = 0;
};

/// A two-sided line segment from p1 to p2 (L); solid on both sides.
struct Segment {
    Vec2 p1;
    Vec2 p2;
};

/// One edge of a chain: collides only on its outer side, the right of
/// p1 -> p2 (for a counter-clockwise loop that is away from the enclosed solid).
/// ghost1 precedes p1 and ghost2 follows p2 along the chain; they let the
/// narrowphase ignore contacts against the inner vertices (no seams; see
/// collide() in manifold.hpp). A ghost equal to its vertex marks an open end.
struct ChainSegment {
    Vec2 ghost1;
    Segment segment;
    Vec2 ghost2;
};

/// A circle of radius > 0 about `center`. Errors: NaN/inf or a negative
/// radius (invalid_input); a zero radius, or one so small (under about 1e-19
/// L in float) or so large (over about 1e19 L) that the disc's area is not
/// finite and positive in `real` (degenerate_shape); a centre or radius
/// beyond k_max_coordinate (invalid_input).
Result<Circle> make_circle(Vec2 center, real radius);

/// A capsule between two distinct finite centres with radius > 0. Errors:
/// NaN/inf (invalid_input), negative radius (invalid_input), zero radius or
/// coincident centres (degenerate_shape: use a circle), centres too close for
/// their direction to be normalized, or an area that is not finite and
/// positive in `real` (degenerate_shape); a centre or radius beyond
/// k_max_coordinate (invalid_input).
Result<Capsule> make_capsule(Vec2 center1, Vec2 center2, real radius);

/// The box [-hx, hx] x [-hy, hy] about the origin. Errors: hx or hy not
/// finite or not > 0 (degenerate_shape / invalid_input); a box so thin,
/// small or large that its area is not finite and positive in `real` (a
/// side below the resolution of the other's coordinates: degenerate_shape);
/// a half-extent (or make_offset_box's centre) beyond k_max_coordinate
/// (invalid_input).
Result<Polygon> make_box(real hx, real hy);

/// A box of half-extents hx, hy centred at `center` and rotated by `angle`
/// radians counter-clockwise (an OBB in the shape's local frame). Errors as
/// make_box, plus non-finite center or angle.
Result<Polygon> make_offset_box(real hx, real hy, Vec2 center, real angle);

/// The box [-hx, hx] x [-hy, hy] about the origin with its corners rounded
/// by `radius` > 0: the outer extent is hx + radius by hy + radius. Errors
/// as make_box, plus a radius that is not finite and > 0.
Result<Polygon> make_rounded_box(real hx, real hy, real radius);

/// The convex hull of `points` (at most k_max_polygon_vertices hull vertices;
/// more are reduced by dropping the vertex that loses least area) rounded
/// by `radius` >= 0; the hull drops repeated and nearly collinear vertices
/// as compute_hull does with k_hull_weld_distance. Errors: NaN/inf, negative
/// radius, a point or radius beyond k_max_coordinate (invalid_input); fewer
/// than 3 distinct points (points closer than k_hull_weld_distance are one),
/// points all within k_hull_weld_distance of one line (degenerate_shape); a
/// hull thinner than k_hull_weld_distance or than 8 epsilons of its largest
/// coordinate, whose faces all have one line's normal (a sliver: use a
/// capsule or a segment; degenerate_shape); a hull whose area or centroid
/// is not finite in `real` (degenerate_shape).
Result<Polygon> make_polygon(std::span<const Vec2> points, real radius = 0);

/// A segment between two distinct finite points. Errors: NaN/inf, or a
/// point beyond k_max_coordinate (invalid_input); coincident points, or
/// points so close (within normalize's 1e-30 L on each axis) that the
/// direction cannot be normalized (degenerate_shape).
Result<Segment> make_segment(Vec2 p1, Vec2 p2);

/// The chain segments of a closed loop through `points` (at least 3, every
/// consecutive pair a valid make_segment, all finite), each with its neighbours as ghost
/// vertices. A counter-clockwise loop encloses solid ground: every segment
/// collides on its right, away from the enclosed area (docs/conventions.md).
/// Allocates; for level loading, not hot loops.
Result<std::vector<ChainSegment>> make_chain_loop(std::span<const Vec2> points);

/// The unit normal of the side a chain segment collides on: right_perp of
/// p1 -> p2.
Vec2 outward_normal(const ChainSegment& chain);

/// Area, centroid (local frame) and rotational inertia about the centroid of
/// a shape of uniform `density` (mass per L^2).
struct MassData {
    real mass = 0;
    Vec2 center;
    real rotational_inertia = 0; ///< about `center`, mass * L^2
};

/// Exact mass properties of a disc.
MassData compute_mass(const Circle& circle, real density);
/// Exact mass properties of a polygon, rounded ones included: the core
/// polygon, a rectangle of depth `radius` on every edge and a circular sector
/// at every vertex, each integrated in closed form.
MassData compute_mass(const Polygon& polygon, real density);
/// Exact mass properties of a capsule (a rectangle and two half-discs).
MassData compute_mass(const Capsule& capsule, real density);

/// The shape's bounding box under transform xf.
Aabb compute_aabb(const Circle& circle, const Transform& xf);
Aabb compute_aabb(const Capsule& capsule, const Transform& xf);
Aabb compute_aabb(const Polygon& polygon, const Transform& xf);
Aabb compute_aabb(const Segment& segment, const Transform& xf);

/// The shape types, as a tag for table dispatch.
enum class ShapeType { circle, capsule, polygon, segment, chain_segment };

/// Any one shape, tagged. Trivially copyable so bodies store them inline.
struct Shape {
    ShapeType type = ShapeType::circle;
    union {
        Circle circle;
        Capsule capsule;
        Polygon polygon;
        Segment segment;
        ChainSegment chain_segment;
    };
    Shape() : circle{} {}
    Shape(const Circle& c) : type(ShapeType::circle), circle(c) {}                     // NOLINT
    Shape(const Capsule& c) : type(ShapeType::capsule), capsule(c) {}                  // NOLINT
    Shape(const Polygon& p) : type(ShapeType::polygon), polygon(p) {}                  // NOLINT
    Shape(const Segment& s) : type(ShapeType::segment), segment(s) {}                  // NOLINT
    Shape(const ChainSegment& c) : type(ShapeType::chain_segment), chain_segment(c) {} // NOLINT
};

/// Bounding box of any shape under xf.
Aabb compute_aabb(const Shape& shape, const Transform& xf);
/// The polygon form of a capsule: two vertices, two opposite normals and the
/// capsule's radius, so polygon code (clipping, separating axes) handles it.
Polygon capsule_polygon(const Capsule& capsule);

/// Mass of any shape; segments and chains have none.
MassData compute_mass(const Shape& shape, real density);
/// Largest distance from `local_point` to the shape (L): bounds how fast any
/// point of the shape moves when it turns about `local_point`.
real max_extent(const Shape& shape, Vec2 local_point);
/// Radius of the largest disc about the shape's centroid that lies inside
/// it (L): half its smallest width for the shapes a moving body can have. A
/// body that moves farther than this in a step may pass through another of
/// its size (world.hpp's "fast" bodies). 0 for segments and chain segments.
real inner_radius(const Shape& shape);

/// A lower bound on the shape's support about `local_point` (L): in every
/// direction the shape reaches at least this far from it (its inner disc's
/// radius less the disc centre's distance from the point; negative when the
/// point may lie outside the shape). Turning about `local_point` brings no
/// point of the shape nearer anything outside it than max_extent less this.
real least_support(const Shape& shape, Vec2 local_point);

/// The radius the shape's core is rounded by (L): a circle's or capsule's
/// radius, a rounded polygon's; 0 for sharp polygons, segments and chain
/// segments. Rolling resistance acts at it (Material::rolling_resistance).
real rounding_radius(const Shape& shape);

} // namespace sweep
