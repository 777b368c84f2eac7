// Private to World::move (mover.cpp): what a move asks of one shape it may
// meet. The cast along the motion (where the mover first meets it), and the
// measure of a contact at the mover's current pose (normal, depth, surface
// area), each in two forms: the general one on any shapes (GJK casts and
// manifolds), and an exact closed form for two axis-aligned boxes (the
// swept AABB test of Sacred Software, "Collisions, Part 1") that gives the
// general one's answer wherever it can tell it apart from rounding, and
// says `undecided` elsewhere (near a corner, a threshold of the general
// rules, or a motion almost along a face), where the general form decides.
// A tile map of boxes moved through by box characters is almost all
// closed form.
//
// Frame and units: world, L. The other shape is A, the mover B; normals
// point from A to B (docs/conventions.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>

#include "sweep/constants.hpp"
#include "sweep/distance.hpp"
#include "sweep/shape_cast.hpp"
#include "sweep/shapes.hpp"

namespace sweep::detail {

/// A shape where it is: its geometry, its GJK proxy (the shape's, or for a
/// one-way chain its segment's) and its body's transform.
struct PlacedShape {
    const Shape* shape = nullptr;
    const ShapeProxy* proxy = nullptr;
    Transform xf;
};

/// The contact the mover B meets on A when moved by `motion` (world, L),
/// or none: shape_cast stopping a touch tolerance short of contact (GJK's
/// normal is unreliable at zero distance), with the manifold's face normal
/// deciding a start that touches exactly (`may_touch`: their boxes are
/// within a touch tolerance; a box standing on a floor and moving into it
/// hits at t = 0). Not a contact: a start touching and moving along the
/// surface or away (within 1e-4 of tangent), a start overlapping deeper
/// than half a touch tolerance, and a graze: a face of either shape
/// separating them within the touch tolerance along the whole motion (a box
/// sliding on a row of tiles and the corner at each seam, the seeds' crack
/// problem). `fraction` is of `motion`, `point` on A's surface.
std::optional<CastOutput> cast_to_contact(const PlacedShape& a, const PlacedShape& b, Vec2 motion,
                                          bool may_touch, const Tolerances& tol);

/// The contact between A and the mover B where they are, as a move ranks
/// and responds to it: collide() with a linear slop of speculative margin.
struct ContactMeasure {
    int count = 0;         ///< manifold points: 2 for faces meeting, 1 at a corner, 0 apart
    Vec2 normal;           ///< unit, from A to B (count > 0)
    real separation = 0;   ///< L, the least of the points' (count > 0)
    real surface_area = 0; ///< L, the distance between the two points (count 2), else 0
};

/// The general measure, on any shapes.
ContactMeasure measure_contact(const PlacedShape& a, const PlacedShape& b, const Tolerances& tol);

/// The box of `shape` placed by `xf` (world, L) when the shape is exactly
/// that box: a polygon of four vertices, radius 0, whose placed edges and
/// normals are axis-aligned to the last bit (make_box, at the identity
/// rotation or an exact multiple of 90 degrees). Otherwise none.
std::optional<Aabb> axis_aligned_box(const Shape& shape, const Transform& xf);

/// The same, given `local`: the shape's box in its body's frame,
/// axis_aligned_box(shape, Transform{}), found once. For an unrotated `xf`
/// (the usual case) the answer is `local` moved by the translation, unless
/// that rounds it flat: the checks of the vertices and normals hold in
/// every frame that only translates. Inline: a move asks it for its own
/// shapes at every pose.
inline std::optional<Aabb> axis_aligned_box(const Shape& shape, const std::optional<Aabb>& local,
                                            const Transform& xf) {
    // rotate() by the identity gives every coordinate back exactly (but for
    // the sign of a zero), so the placed vertices are the local ones plus
    // the translation: a rectangle still, unless two of its coordinates
    // round to one.
    if (!local || xf.q.c != 1 || xf.q.s != 0) {
        return axis_aligned_box(shape, xf);
    }
    const Aabb placed{local->lower + xf.p, local->upper + xf.p};
    if (placed.lower.x == placed.upper.x || placed.lower.y == placed.upper.y) {
        return std::nullopt;
    }
    return placed;
}

/// The mover B as the closed form takes it: its box (world, L), its body's
/// origin, and B's part of the rounding scale the general form works at:
/// the largest magnitude among the coordinates of the box, of the box moved
/// by the motion a cast makes and of the origin (L), found once for all the
/// boxes a move meets at one pose.
struct MoverBox {
    Aabb box;
    Vec2 origin;
    real extent = 0;
};

/// The mover B with box `b` and origin `origin_b`, for a cast by `motion`
/// (zero for a measure or the push-out's question). Inline: a move makes
/// one for every pose. (A box's largest magnitude along an axis is -lower
/// or upper, since lower <= upper.)
inline MoverBox mover_box(const Aabb& b, Vec2 origin_b, Vec2 motion) {
    const Vec2 lower = min(b.lower, b.lower + motion);
    const Vec2 upper = max(b.upper, b.upper + motion);
    const real box = std::max(std::max(upper.x, upper.y), -std::min(lower.x, lower.y));
    const real origin = std::max(std::abs(origin_b.x), std::abs(origin_b.y));
    return {b, origin_b, std::max(box, origin)};
}

/// What the closed form concluded.
enum class BoxVerdict {
    none,      ///< no contact
    contact,   ///< a contact, given
    undecided, ///< too close to a rule's threshold to tell from rounding: use the general form
};

/// cast_to_contact for two axis-aligned boxes: A (`a`) and the mover B
/// (`b`, made for `motion`) moving by `motion`. `origin_a` and B's origin,
/// their bodies' origins, set only the rounding scale the general form
/// works at (GJK's noise). A contact gives the exact time the gap reaches the touch
/// tolerance, where the general form's conservative advancement stops up
/// to half a touch tolerance (of approach) earlier; its normal is the
/// face's axis exactly (GJK's is within rounding of it); its point is the
/// middle of the faces' common stretch (the general form gives some point
/// of it).
struct BoxCast {
    BoxVerdict verdict = BoxVerdict::undecided;
    CastOutput hit; ///< for `contact`: state hit, fraction, normal and point
};
BoxCast cast_boxes(const Aabb& a, Vec2 origin_a, const MoverBox& b, Vec2 motion,
                   const Tolerances& tol);

/// measure_contact for two axis-aligned boxes (as for cast_boxes, `b` made
/// for a zero motion):
/// collide()'s own, to the last bit, where rounding cannot change which
/// face it picks, whether it keeps the pair or looks for a vertex pair;
/// none (undecided) elsewhere.
std::optional<ContactMeasure> measure_boxes(const Aabb& a, Vec2 origin_a, const MoverBox& b,
                                            const Tolerances& tol);

/// Whether two axis-aligned boxes (as for measure_boxes) may overlap
/// deeper than the touch tolerance (the push-out's question): false when
/// they clearly do not, true when collide() must tell.
bool may_overlap_boxes(const Aabb& a, Vec2 origin_a, const MoverBox& b, const Tolerances& tol);

} // namespace sweep::detail
