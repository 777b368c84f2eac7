// Private to World::move (mover.cpp): what a move asks of one shape it may
// meet. The cast along the motion (where the mover first meets it), and the
// measure of a contact at the mover's current pose (normal, depth, surface
// area), each in two forms: the general one on any shapes (GJK casts and
// manifolds), and an exact closed form for two axis-aligned boxes (the
// swept AABB test of Sacred Software, "Collisions, Part 1") that gives the
// general one's answer wherever it can tell it apart from rounding, and
// says `undecided` elsewhere (near a corner, a threshold of the general
// rules, or a motion almost along a face), where the general form decides;
// but for corners that meet exactly, where only GJK's rounding would
// decide, it defines the answer (the face closed on faster). A tile map of
// boxes moved through by box characters is almost all closed form.
//
// Frame and units: world, L. The other shape is A, the mover B; normals
// point from A to B (docs/conventions.md).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "box_reach.hpp"
#include "sweep/constants.hpp"
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/shape_cast.hpp"
#include "sweep/shapes.hpp"

namespace sweep::detail {

/// A cast hit at t = 0 whose normal is (numerically) perpendicular to the
/// motion (cosine within this) is a shape sliding along a surface it
/// touches: not a block.
inline constexpr real k_tangent_cosine = real(1e-4);

/// A motion into a face by less than this share of its length runs along
/// it: the face still separates the shapes at the end (the graze tests).
inline constexpr real k_along_cosine = real(1e-6);

/// Normals within about a quarter of a degree are the same face's: a
/// manifold's normal is a face's, rotated into the world, or not one at all.
inline constexpr real k_face_cosine = 1 - real(1e-5);

/// A shape where it is: its geometry, its GJK proxy (the shape's, or for a
/// one-way chain its segment's) and its body's transform.
struct PlacedShape {
    const Shape* shape = nullptr;
    const ShapeProxy* proxy = nullptr;
    Transform xf;
    /// The shape placed, when the caller knows it is exactly that box
    /// (axis_aligned_box, world): a disc's cast against it takes the closed
    /// form. Null otherwise.
    const Aabb* box = nullptr;
};

/// The manifold of a touching start that cast_to_contact made, for a caller
/// that needs it too (into_exposed_face); none until set. Not a
/// std::optional<Manifold>: GCC 12 clears all of a disengaged one's bytes
/// where it is declared, and a move declares one for every cast it makes.
class TouchingManifold {
  public:
    TouchingManifold() {} // (leaves the manifold unset: see the class comment)

    bool made() const { return made_; }
    /// The manifold (made()).
    const Manifold& get() const { return manifold_; }
    const Manifold& set(const Manifold& m) {
        manifold_ = m;
        made_ = true;
        return manifold_;
    }

  private:
    union {
        Manifold manifold_;
    };
    bool made_ = false;
};

/// The contact the mover B meets on A when moved by `motion` (world, L),
/// or none: shape_cast stopping a touch tolerance short of contact (GJK's
/// normal is unreliable at zero distance), with the manifold's face normal
/// deciding a start that touches (`may_touch`: their boxes are within a
/// touch tolerance; a box standing on a floor and moving into it hits at
/// t = 0), whether exactly or overlapping by up to the touch tolerance
/// (which the cast itself reports as overlapped beyond half of it), or,
/// with `deep_blocks`, overlapping deeper: a body inside a shape never goes
/// deeper (one-way platforms pass false, so that a body halfway through one
/// can leave it downwards; deeper starts are then no contact). Not a
/// contact: a start touching and moving along the surface or away (within
/// 1e-4 of tangent), and a graze: a face of either shape
/// separating them within the touch tolerance along the whole motion (a box
/// sliding on a row of tiles and the corner at each seam, the seeds' crack
/// problem), at the hit or where the gap along its normal closes, if that
/// is within the motion and over half a tolerance on (a box passing a
/// tile's corner exactly, met a tolerance early while still over the face
/// beside it by the tolerance times the slope). `fraction` is of `motion`,
/// `point` on A's surface. Where the
/// start's manifold decided (collide() with the touch tolerance as its
/// speculative margin and the linear slop), it is left in `touching`, if
/// given, for a caller that needs that manifold too. A disc B against a
/// box A whose `box` is given is cast in closed form (swept_circle_aabb):
/// the first time its gap reaches the target exactly, not where the
/// advancement stops within the band beyond it.
std::optional<CastOutput> cast_to_contact(const PlacedShape& a, const PlacedShape& b, Vec2 motion,
                                          bool may_touch, bool deep_blocks, const Tolerances& tol,
                                          TouchingManifold* touching = nullptr);

/// Whether B (proxy `b` placed by `xfb`) only grazes A (`a` by `xfa`) on
/// `motion` (world, L): some edge normal n of either shape (from A to B)
/// has their gap along n, radii included, at least -`tolerance` (L), and
/// the motion does not close it by more than k_along_cosine of its length.
/// A contact found there is not a block: a box sliding on a row of tiles
/// grazes the corner at each seam (the seeds' crack problem). False for
/// two points (no edges). cast_to_contact asks it at its hit.
bool grazes(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b, const Transform& xfb,
            Vec2 motion, real tolerance);

/// Whether grazes() holds at every pose of B along `motion` from `xfb`
/// (xfb translated by any fraction of it in [0, 1]), shown where B starts:
/// an edge normal n of either shape along which the motion does not
/// approach at all (dot(motion, n) >= 0) and their gap is at least
/// -`tolerance` plus a margin for the rounding of poses farther along (16
/// ulps of the largest coordinate of the placed shapes and the motion).
/// Then the gap along n only grows and B's normals do not turn, so
/// cast_to_contact, asked of a start that may touch, answers none without
/// casting. False where it cannot show it (then grazes() may still hold).
/// Inputs finite.
bool grazes_all_along(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b,
                      const Transform& xfb, Vec2 motion, real tolerance);

/// Whether B, where it is, may press into A when moved by `motion` (world,
/// L): false only where it clearly does not, so that the manifold of a
/// touching start (cast_to_contact's `may_touch`, into_exposed_face) need
/// not be made. That is, for a disc against a known box (`a.box`), when
/// they are apart by more than a touch tolerance beyond rounding
/// (collide() with that margin finds no point), or when the motion runs
/// along or away from the face or corner between them (within 1e-4 of
/// tangent, as those two read the manifold's normal; at a corner, beyond
/// the rounding of collide()'s normal in A's frame). True for any other
/// pair.
bool may_press_into(const PlacedShape& a, const PlacedShape& b, Vec2 motion, const Tolerances& tol);

/// What a contact's normal is a face normal of, in the order a move's ties
/// rank them: a face of the other shape (A: a floor under a round or
/// pointed mover), else a face of the mover (B: a corner of A poking it),
/// else neither (a corner or round against a corner or round). At a flat
/// seam of tiles the floor is the face of A; the next tile's corner is
/// not, and leading with it would slide the mover off sideways.
enum class ContactFeature : std::uint8_t { corners, own_face, other_face };

/// The feature of a contact between two axis-aligned boxes (or a shape and
/// a box, whose faces are the axes) with the unit normal `n`: the other's
/// face when `n` is within k_face_cosine of an axis, else corners. Inline:
/// without a call in it, measure_boxes saves no registers.
inline ContactFeature box_feature(Vec2 n) {
    return std::abs(n.x) >= k_face_cosine || std::abs(n.y) >= k_face_cosine
               ? ContactFeature::other_face
               : ContactFeature::corners;
}

/// `visit(n)` for every outward face normal of `shape` in its own frame: a
/// polygon's, both sides of a capsule's, segment's or chain segment's core;
/// a circle has none.
template <class Visit> void for_each_face_normal(const Shape& shape, Visit&& visit) {
    const auto sides = [&](Vec2 p1, Vec2 p2) {
        const Vec2 n = normalize(left_perp(p2 - p1));
        visit(n);
        visit(-n);
    };
    switch (shape.type) {
    case ShapeType::polygon:
        for (int i = 0; i < shape.polygon.count; ++i) {
            visit(shape.polygon.normals[static_cast<std::size_t>(i)]);
        }
        break;
    case ShapeType::capsule:
        sides(shape.capsule.center1, shape.capsule.center2);
        break;
    case ShapeType::segment:
        sides(shape.segment.p1, shape.segment.p2);
        break;
    case ShapeType::chain_segment:
        sides(shape.chain_segment.segment.p1, shape.chain_segment.segment.p2);
        break;
    case ShapeType::circle:
        break;
    }
}

/// The contact between A and the mover B where they are, as a move ranks
/// and responds to it: collide() with a linear slop of speculative margin.
struct ContactMeasure {
    int count = 0;         ///< manifold points: 2 for faces meeting, 1 at a corner, 0 apart
    Vec2 normal;           ///< unit, from A to B (count > 0)
    real separation = 0;   ///< L, the least of the points', or the cores' (count > 0)
    real surface_area = 0; ///< L, the distance between the two points (count 2), else 0
    ContactFeature feature = ContactFeature::corners; ///< of the normal (count > 0)
};

/// The point of `a`'s surface nearest `p` (world, L), or `p` where it is
/// inside a's core. A contact's point on the other shape, as a cast gives
/// it, where a manifold gives the point midway between the surfaces (and
/// for rounded shapes up to their radii past the reference face's end, as
/// Box2D 2.4's clip: a rounded box's bottom over a tile's corner had its
/// point 0.34 L past the tile).
Vec2 on_surface_of(const PlacedShape& a, Vec2 p);

/// The general measure, on any shapes: collide()'s manifold, but for
/// shapes that overlap, read on the face of least penetration (the other
/// shape's, where the whole shapes' separation along its normal is greater
/// than along the normal of the face collide() keeps). Rounded shapes
/// whose cores lie apart take the cores' normal and separation (GJK), but
/// for a chain segment, a circle, or a capsule's core over a face.
/// A disc B whose centre lies outside a known box A (`a.box`) is measured
/// in closed form, as collide() would: one point within a linear slop, the
/// normal from the box's nearest point to the centre, the separation the
/// centre's distance less the radius.
ContactMeasure measure_contact(const PlacedShape& a, const PlacedShape& b, const Tolerances& tol);

/// The signed distance of axis-aligned boxes `a` and `b` (world, L): where
/// they are apart along both axes, the distance between their nearest
/// corners; else their gap along the axis that separates them more
/// (negative: the depth of their overlap along the axis of least overlap).
inline real box_distance(const Aabb& a, const Aabb& b) {
    const real gx = std::max(a.lower.x - b.upper.x, b.lower.x - a.upper.x);
    const real gy = std::max(a.lower.y - b.upper.y, b.lower.y - a.upper.y);
    return gx > 0 && gy > 0 ? std::sqrt(gx * gx + gy * gy) : std::max(gx, gy);
}

/// The signed distance of A and B (world, L) as a move reports a contact
/// whose separation the closing's reckoning along its normal cannot give
/// (MoveContact::separation; negative: the depth of their overlap): for a
/// round B on a known box A in closed form (move_round_box.hpp) where B's
/// core is outside the box; else the casts' signed_separation
/// (core_separation.hpp): GJK's distance between the cores less the radii
/// while they are apart, the separating axes where they meet.
real signed_distance(const PlacedShape& a, const PlacedShape& b);

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
/// boxes a move meets at one pose, as is `swept`, the box over that motion.
struct MoverBox {
    Aabb box;
    Vec2 origin;
    real extent = 0;
    Aabb swept;
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
    return {b, origin_b, std::max(box, origin), {lower, upper}};
}

/// The largest magnitude of `v`'s coordinates (L): the scale of its rounding.
inline real max_abs(Vec2 v) { return std::max(std::abs(v.x), std::abs(v.y)); }

/// The other shape A as the closed form takes it: its box (world, L), its
/// body's origin, and A's part of the rounding scale: the largest magnitude
/// among the coordinates of the box and of the origin (L), found once (a
/// static shape's when a mover's neighbourhood takes it in, not at every
/// cast and measure).
struct OtherBox {
    Aabb box;
    Vec2 origin;
    real extent = 0;
};

/// A with box `a` and origin `origin_a`.
inline OtherBox other_box(const Aabb& a, Vec2 origin_a) {
    const real box = std::max(std::max(a.upper.x, a.upper.y), -std::min(a.lower.x, a.lower.y));
    const real origin = std::max(std::abs(origin_a.x), std::abs(origin_a.y));
    return {a, origin_a, std::max(box, origin)};
}

/// What the closed form concluded.
enum class BoxVerdict {
    none,      ///< no contact
    contact,   ///< a contact, given
    undecided, ///< too close to a rule's threshold to tell from rounding: use the general form
};

/// A contact the closed form found: what cast_to_contact's CastOutput
/// gives a move.
struct BoxHit {
    real fraction = 0; ///< of the motion
    Vec2 normal;       ///< unit, from A to B: the face's axis exactly
    Vec2 point;        ///< on A's surface: the middle of the faces' common stretch (or the
                       ///< corner, for corners that meet exactly)
};

/// cast_to_contact (deep_blocks) for two axis-aligned boxes: A (`a`) and
/// the mover B (`b`, made for `motion`) moving by `motion`. Their bodies'
/// origins set only the rounding scale the general form works at (GJK's
/// noise). A contact gives the exact time the gap reaches the touch
/// tolerance, where the general form's conservative advancement stops up
/// to half a touch tolerance (of approach) earlier; its normal is the
/// face's axis exactly (GJK's is within rounding of it); its point is the
/// middle of the faces' common stretch (the general form gives some point
/// of it).
struct BoxCast {
    BoxVerdict verdict = BoxVerdict::undecided;
    BoxHit hit; ///< for `contact`
};

/// The gaps between boxes A and B along one axis (L; positive: apart along
/// it): `below` with B on A's negative side (A.lower - B.upper), `above` on
/// its positive side (B.lower - A.upper). They are grazes()' gaps along the
/// negative and the positive axis.
struct AxisGaps {
    real below = 0;
    real above = 0;
};

/// The gaps along x and y.
inline std::array<AxisGaps, 2> box_gaps(const Aabb& a, const Aabb& b) {
    return {AxisGaps{a.lower.x - b.upper.x, b.lower.x - a.upper.x},
            AxisGaps{a.lower.y - b.upper.y, b.lower.y - a.upper.y}};
}

/// How far the general form's gaps may stray from the closed form's (L):
/// 16 roundings of the largest coordinate, of the boxes (B also moved by
/// the motion it was made for) or of their bodies' origins (the general
/// form works in a body's frame). Both start from the same corners, the
/// general form subtracting A's position first, so a few roundings each,
/// with room to spare.
inline real box_rounding(const OtherBox& a, const MoverBox& b) {
    constexpr real k_rounding = 16 * std::numeric_limits<real>::epsilon();
    return k_rounding * (1 + std::max(a.extent, b.extent));
}

/// Whether no face separates boxes with gaps `g` within the touch tolerance
/// (clearly: beyond rounding `mu`) that the motion `d` does not close:
/// otherwise B only grazes A (cast_to_contact's graze), or may, and there
/// is no contact.
inline bool graze_free(const std::array<AxisGaps, 2>& g, Vec2 d, real touch, real mu) {
    const real side = -touch + mu;
    // (Bitwise, on ints: one branch on the verdict, which no predictor
    // learns, rather than one on each comparison.)
    const auto open = [side](real gap, real motion_along) {
        return static_cast<int>(gap >= side) & static_cast<int>(motion_along >= 0);
    };
    return (open(g[0].above, d.x) | open(g[0].below, -d.x) | open(g[1].above, d.y) |
            open(g[1].below, -d.y)) == 0;
}

/// The rest of cast_boxes, for boxes with gaps `g` and rounding `mu`
/// (box_gaps, box_rounding) that are graze_free.
BoxCast cast_boxes_past_grazes(const OtherBox& a, const MoverBox& b, Vec2 motion,
                               const Tolerances& tol, const std::array<AxisGaps, 2>& g, real mu);

/// The closed form of the cast (see BoxCast). Inline up to the graze rule,
/// which alone decides most boxes a move meets (those beside it that it
/// does not move into): they cost no call.
inline BoxCast cast_boxes(const OtherBox& a, const MoverBox& b, Vec2 motion,
                          const Tolerances& tol) {
    const real mu = box_rounding(a, b);
    const std::array<AxisGaps, 2> g = box_gaps(a.box, b.box);
    if (!graze_free(g, motion, tol.touch_tolerance, mu)) {
        return {BoxVerdict::none, {}};
    }
    return cast_boxes_past_grazes(a, b, motion, tol, g, mu);
}

/// measure_contact for two axis-aligned boxes (as for cast_boxes, `b` made
/// for a zero motion):
/// collide()'s own, to the last bit, where rounding cannot change which
/// face it picks, whether it keeps the pair or looks for a vertex pair;
/// none (undecided) elsewhere. Corners that meet exactly (gaps 0 along
/// both axes), where collide()'s normal is GJK's guess at zero distance,
/// are measured as the cast met them: one point at separation 0 on
/// `cast_normal`, the axis of the face the cast chose (a corner's feature).
std::optional<ContactMeasure> measure_boxes(const OtherBox& a, const MoverBox& b,
                                            const Tolerances& tol, Vec2 cast_normal);

/// Whether collide() of an axis-aligned box A and `shape` B never finds
/// them deeper than their boxes overlap along either axis (beyond
/// rounding), so that may_overlap_boxes answers for B by its box. A disc:
/// collide() measures it beside a face by its centre's distance beyond the
/// face less its radius, beside a corner by its distance from the corner
/// less its radius. A capsule whose radius exceeds the touch tolerance and
/// a tenth of the linear slop: wherever their boxes overlap by less than
/// the touch tolerance, its core lies farther than a tenth of a slop from
/// A, so collide() reads it on a face at least as separating as A's faces
/// (the boxes' gaps plus the radius), or at the cores' closest points
/// (GJK), never on the faces it falls back to for cores that nearly touch.
/// (That GJK's closest points are within box_rounding of exact is checked
/// on 2 M random capsules beside boxes, not proved.)
inline bool bounded_by_boxes(const Shape& shape, const Tolerances& tol) {
    return shape.type == ShapeType::circle ||
           (shape.type == ShapeType::capsule &&
            shape.capsule.radius > tol.touch_tolerance + real(0.1) * tol.linear_slop);
}

/// Whether two axis-aligned boxes (as for measure_boxes) may overlap
/// deeper than the touch tolerance (the push-out's question): false when
/// they clearly do not, true when collide() must tell. `reach_b`: B's box
/// as BoxReach takes it. Inline: a move asks it of every box it gathers.
/// Also for a disc or capsule B that bounded_by_boxes, given by its box
/// (mover_box of its AABB and its body's origin, for a zero motion).
inline bool may_overlap_boxes(const OtherBox& a, const MoverBox& b, const BoxReach& reach_b,
                              const Tolerances& tol) {
    // All four of box_gaps(a.box, b.box) below the limit.
    return reach_b.gaps_below(a.box, -tol.touch_tolerance + box_rounding(a, b));
}

} // namespace sweep::detail
