// Contact manifolds: the contact points, normal and separations between two
// shapes, for the solver. Polygon clipping after Box2D's b2CollidePolygons
// (Catto, "Contact Manifolds", GDC 2007); circle cases from the seed
// "collision detection" article (circle vs circle, circle vs OBB).
#pragma once

#include <array>
#include <cstdint>

#include "sweep/constants.hpp"
#include "sweep/shapes.hpp"

namespace sweep {

/// One contact point. Where rounded polygons (radius > 0) meet face to
/// face, the incident face is clipped to the reference face's sides moved
/// out by the pair's total radius (Box2D 2.4's b2CollidePolygons): a point
/// of an incident face reaching past the reference face's end lies on the
/// reference face's line up to that far past its end, off its surface.
struct ManifoldPoint {
    Vec2 point;           ///< world, midway between the two surfaces
    Vec2 anchor_a;        ///< the contact point on A's surface, in A's local frame
    Vec2 anchor_b;        ///< the contact point on B's surface, in B's local frame
    real separation = 0;  ///< L; negative = penetration, positive = speculative gap
    std::uint32_t id = 0; ///< feature pair, stable while the same features touch (warm starting)
};

/// Up to two contact points sharing one normal.
struct Manifold {
    Vec2 normal;       ///< world unit vector from A to B
    Vec2 local_normal; ///< normal in the reference shape's frame, pointing away from it
    bool reference_is_b =
        false; ///< the face the normal belongs to is on B (normal = -rotate(q_b, local_normal))
    std::array<ManifoldPoint, 2> points{};
    int count = 0; ///< 0 when the shapes are further apart than the speculative distance
};

/// Settings shared by every collide function.
struct CollideSettings {
    real speculative_distance =
        k_speculative_distance;       ///< keep points with separation below this, L
    real linear_slop = k_linear_slop; ///< L; picks the reference face stably
    /// Two polygons whose faces separate them equally well (within a tenth
    /// of linear_slop) take A's face as the reference, or B's when this is
    /// set: the face of a static shape, whose normal is exact, where A's may
    /// be tilted by the solver's rounding (a frictionless box sliding on a
    /// floor, tilted 4e-5 rad, slid down its own face and gained speed).
    bool prefer_reference_b = false;
};

/// Circle vs circle. Concentric circles get the normal +y (up).
Manifold collide_circles(const Circle& a, const Transform& xfa, const Circle& b,
                         const Transform& xfb, const CollideSettings& settings = {});
/// Capsule vs capsule from the closest points of their cores: two points
/// when the cores are nearly parallel (within about 3 degrees) and side by
/// side, otherwise one. Cores that cross (closer than 0.1 linear slop, so
/// no direction between them) are clipped as two-vertex rounded polygons on
/// their side normals. Also serves segments and chain segments as capsules
/// of radius 0.
Manifold collide_capsules(const Capsule& a, const Transform& xfa, const Capsule& b,
                          const Transform& xfb, const CollideSettings& settings = {});
/// Capsule (A) vs circle (B) from the closest point of the capsule's core
/// to the circle's centre: the same manifold as collide_polygon_circle on
/// the capsule's polygon form (capsule_polygon: ids, normals, reference),
/// without building it (the closest point on a segment: Ericson, Real-Time
/// Collision Detection, 5.1.2; Box2D's b2CollideEdgeAndCircle). A
/// zero-length capsule collides as its disc (collide_circles). Like the other
/// pair functions it trusts its transforms to be finite; collide() checks.
Manifold collide_capsule_circle(const Capsule& a, const Transform& xfa, const Circle& b,
                                const Transform& xfb, const CollideSettings& settings = {});
/// Polygon (A) vs circle (B); a circle centre inside the polygon takes the
/// normal of the face of least penetration.
Manifold collide_polygon_circle(const Polygon& a, const Transform& xfa, const Circle& b,
                                const Transform& xfb, const CollideSettings& settings = {});
/// Polygon vs polygon by the separating axis and clipping of the incident
/// edge against the reference face: one or two points. Polygons whose cores
/// are apart (by more than 0.1 slop) and meet vertex to vertex get one point
/// with the normal through the two vertices (the face normals would
/// understate the gap, and clipping could drop the contact). Apart polygons
/// whose faces' points are missing or claim more room than the separating
/// axis allows (their nearest parts lie beyond the reference face's end)
/// get one point at their cores' closest points (GJK) where that is nearer:
/// a point's separation never exceeds the true gap by more than 0.1 slop.
Manifold collide_polygons(const Polygon& a, const Transform& xfa, const Polygon& b,
                          const Transform& xfb, const CollideSettings& settings = {});
/// Any shape pair. Capsules act as two-vertex rounded polygons, except
/// against capsules and edges (collide_capsules). Segments collide on both
/// sides. Two edges (segments or chain segments) never collide: they are
/// static geometry.
///
/// Chain segments collide on their outer side only (outward_normal) and
/// without seams, using their ghost vertices (Catto, "Ghost Collisions",
/// 2020; Box2D v3's b2CollideChainSegmentAndPolygon):
/// - a shape whose centroid is behind the segment's line (and behind the
///   lines of its convex neighbours) is inside the solid: no contact;
/// - where two segments meet flat (turning by less than about 0.6 degrees)
///   or concave, the surface has no vertex: every contact normal is a face
///   normal, and each segment only reports the part of the shape over its
///   own extent (a box sliding across a seam gets the face normal from both
///   segments, never a sideways one). The one exception: a joint convex by
///   less than the tolerance leaves a sliver between the two extents, where
///   a circle's centre meets the vertex along a normal between the faces';
/// - where they meet convex (a ledge), vertex normals are allowed within the
///   cone between the two faces' normals; each segment reports the half of
///   the cone nearer its own face, the neighbour the other half;
/// - a shape sunk so deep that its contact direction leaves this map gets
///   the face contact of the chain face (this one or a convex neighbour's
///   within reach) that separates it most;
/// - a ghost equal to its vertex marks an open end: a rounded corner on the
///   outer side, normals up to the segment's direction;
/// - a zero-length chain segment has no face and gets no contact.
///
/// Degenerate input: a zero-length segment or capsule collides as its point
/// (a circle of radius 0, or of the capsule's radius). A NaN or infinite
/// transform gives no contact (count 0).
Manifold collide(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
                 const CollideSettings& settings = {});

/// A shape (A: circle, capsule or polygon) against one face of a polygon (B)
/// alone, as if the face were a one-sided wall over its extent and flush
/// with its neighbours at both ends: normal = minus the face's outward
/// normal (from A to B), points from the part of A over the face's extent
/// (the circle's centre, or A's edge facing the face clipped to the extent;
/// when that edge lies beyond the ends, A's deepest vertex over it), those
/// within settings.speculative_distance. What lies beyond the ends gets no
/// point. For faces whose neighbours continue them (internal edges between
/// flush tiles: the world's covered faces, docs/conventions.md), as chain
/// segments do with ghost vertices (Catto, "Ghost Collisions", 2020). B's
/// radius is ignored; a segment or chain segment as A gets no contact.
/// Degenerate input: `face_b` outside [0, b.count) or a zero-length face
/// gives no contact (count 0).
Manifold collide_face(const Shape& a, const Transform& xfa, const Polygon& b, const Transform& xfb,
                      int face_b, const CollideSettings& settings = {});

} // namespace sweep
