// Private to World::move's narrowphase (move_narrowphase.cpp): its closed
// forms for a round mover against an axis-aligned box. A disc, or a
// capsule whose core lies along an axis (a character with fixed rotation,
// upright or lying), is nearer a box by its core's distance to it less the
// radius; and a segment along an axis is as far from a box as its midpoint
// is from the box grown by the half segment along that axis (their
// Minkowski sum). So each is a point against a box with a radius: the cast
// is swept_circle_aabb (Ericson, "Real-Time Collision Detection" 5.5.7),
// the gaps along the box's faces are coordinates' differences, and the
// normal runs from the grown box's nearest point to the centre. These
// replace the general form's GJK casts and manifolds (they agree up to
// rounding and the advancement's band; move_narrowphase_test compares
// them).
//
// Frame and units: world, L. The box is A, the mover B; normals point
// from A to B (docs/conventions.md).
#pragma once

#include <cmath>
#include <optional>

#include "move_narrowphase.hpp"
#include "sweep/shape_cast.hpp"

namespace sweep::detail {

/// A round mover B against the axis-aligned box A, as a point (`center`)
/// against A's box grown by B's core (`box`), with B's `radius`.
struct RoundOnBox {
    Aabb box;    ///< A's box grown by half B's core along its axis (a disc's: A's box)
    Aabb a_box;  ///< A's own box
    Vec2 center; ///< B's centre: its disc's, or its core's midpoint
    Vec2 half;   ///< half B's core along each axis (one is zero; both for a disc)
    real radius = 0;
    bool disc = false; ///< B is a disc (a capsule otherwise)

    /// cast_to_contact's cast (shape_cast with a touch tolerance as target
    /// separation and half of one as touching band) of B moved by `motion`:
    /// overlapped below -band; touching below target + band, a hit at
    /// t = 0 then if the motion closes along the normal, else a miss;
    /// farther, the first time the gap comes down to the target exactly.
    /// None for a centre on or inside the grown box (the general form
    /// decides: the cores meet).
    std::optional<CastOutput> cast(Vec2 motion, real target, real band) const;

    /// cast_to_contact's graze tests for B moved to `at` (its centre there):
    /// grazes() (a face of either shape holding them apart within
    /// `tolerance` along the whole motion; B's faces are A's axes) or
    /// grazes_where_it_closes() for the cast's `hit`.
    bool grazes(Vec2 at, Vec2 motion, const CastOutput& hit, const Tolerances& tol) const;

    /// Whether a face of A holds B off it to within `tolerance` (their gap
    /// along its axis less the radius) at the start, and `motion` never
    /// closes that gap (its share along the axis is zero or away): then it
    /// does so at every pose along the motion, so grazes() holds at any hit
    /// the cast could find (the same sums, on a centre moved away from the
    /// face or not at all, round no nearer), and cast_to_contact has no
    /// contact to give.
    bool held_off(Vec2 motion, real tolerance) const {
        return (motion.x >= 0 && (center.x - box.upper.x) - radius >= -tolerance) ||
               (motion.x <= 0 && (box.lower.x - center.x) - radius >= -tolerance) ||
               (motion.y >= 0 && (center.y - box.upper.y) - radius >= -tolerance) ||
               (motion.y <= 0 && (box.lower.y - center.y) - radius >= -tolerance);
    }

    /// may_press_into: false where the manifold of a start touching (collide()
    /// with a touch tolerance's margin) clearly has no point or a normal the
    /// motion does not enter within 1e-4 of tangent.
    bool may_press_into(Vec2 motion, const Tolerances& tol) const;

    /// measure_contact within a linear slop `slop`: one point (a disc, or a
    /// capsule's end or a corner), or two where a capsule's side lies along
    /// a face of the box (their surface area, as collide()'s, the stretch
    /// of the core over the face grown by the radius). None where the cores
    /// meet, or for a capsule sunk deeper than the slop or whose core is no
    /// longer than it (collide() may keep both its ends): the general
    /// measure decides.
    std::optional<ContactMeasure> measure(real slop) const;

    /// The signed distance of A and B (L), exactly: the centre's distance
    /// from the grown box less the radius (negative: the depth of their
    /// overlap); none for a centre on or inside the grown box (the cores
    /// meet).
    std::optional<real> distance() const {
        const Vec2 offset = center - closest_point(box, center);
        if (offset == Vec2{}) {
            return std::nullopt;
        }
        return length(offset) - radius;
    }
};

/// B as a round shape against A's known box (`a.box`), when it is a disc
/// or a capsule whose placed core lies exactly along an axis; else none.
/// (Inline: a move asks it of every pair, three times.)
inline std::optional<RoundOnBox> round_on_box(const PlacedShape& a, const PlacedShape& b) {
    if (a.box == nullptr) {
        return std::nullopt;
    }
    if (b.shape->type == ShapeType::circle) {
        return RoundOnBox{*a.box,
                          *a.box,
                          transform_point(b.xf, b.shape->circle.center),
                          {},
                          b.shape->circle.radius,
                          true};
    }
    if (b.shape->type != ShapeType::capsule) {
        return std::nullopt;
    }
    const Vec2 e1 = transform_point(b.xf, b.shape->capsule.center1);
    const Vec2 e2 = transform_point(b.xf, b.shape->capsule.center2);
    if (e1.x != e2.x && e1.y != e2.y) {
        return std::nullopt; // a tilted core: the general form
    }
    const Vec2 half = real(0.5) * Vec2{std::abs(e2.x - e1.x), std::abs(e2.y - e1.y)};
    const Aabb grown{a.box->lower - half, a.box->upper + half};
    return RoundOnBox{grown, *a.box, real(0.5) * (e1 + e2), half, b.shape->capsule.radius, false};
}

} // namespace sweep::detail
