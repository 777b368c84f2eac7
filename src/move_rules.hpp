// Private to World::move (mover.cpp, box_mover.cpp): the rules of a move's
// iteration that the general mover and the box mover share: the response
// to another shape, the order of
// the contacts tied with the earliest (the seeds' crack rule: larger
// contact surface area first, "Collision Handling"), the clip of a slide
// against their planes, the exact closing of two axis-aligned boxes, the
// contact of a start pressing into an exposed face of a tile, and the
// record of a contact in the result.
//
// Frame and units: world, L. Normals point from the other shape to the
// mover (docs/conventions.md).
#pragma once

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "sweep/mover.hpp"
#include "world_impl.hpp"

namespace sweep::detail {

// The response to another shape that the collision filters let meet one
// of the mover's shapes, given the move filter's `answer` for its body
// (slide without a filter): a sensor on either side (`own_sensor`,
// `sensor`) never blocks: what would stop at it crosses it instead.
inline MoveResponse response_of(MoveResponse answer, bool own_sensor, bool sensor) {
    return (own_sensor || sensor) && answer != MoveResponse::ignore ? MoveResponse::cross : answer;
}

// The filter's answer for the other shape `shape` that the fast path
// (box_mover.hpp) asked in this move, kept in `asked` (MoveScratch::asked),
// if it did: the general mover that runs the move after the fast path gave
// up does not ask again in its first gather, which meets the same shapes.
std::optional<MoveResponse> answered(std::span<const std::pair<int, MoveResponse>> asked,
                                     int shape);

// Ties are ordered by larger surface area, faces before corners (two faces
// meeting, then a face of the other shape, then one of the mover's: see
// ContactFeature), the normal, then the other shape's id: deterministic
// whatever the broadphase order. A surface no longer than `slop` is a
// corner's: faces meeting over a sliver (a triangle's tip beside a tile's
// corner, the two points 0.024 L apart) must not lead the wall the tip
// stands against. Without `by_area` (WorldDef::move_ties_by_surface_area
// off) only the normal and the id decide.
inline bool leads(const MoveHit& a, const MoveHit& b, bool by_area, real slop) {
    const real area_a = a.surface_area > slop ? a.surface_area : 0;
    const real area_b = b.surface_area > slop ? b.surface_area : 0;
    if (by_area && area_a != area_b) {
        return area_a > area_b;
    }
    if (by_area && a.face != b.face) {
        return a.face;
    }
    if (by_area && a.feature != b.feature) {
        return a.feature > b.feature;
    }
    if (a.normal.x != b.normal.x) {
        return a.normal.x < b.normal.x;
    }
    if (a.normal.y != b.normal.y) {
        return a.normal.y < b.normal.y;
    }
    return a.other_shape < b.other_shape;
}

// clip_to_planes for one plane (normal n): most slides. (Passes, as for
// several planes: one subtraction may leave a rounding's worth into it.)
inline Vec2 clip_to_plane(Vec2 v, Vec2 n) {
    for (int pass = 0; pass < 3; ++pass) {
        const real d = dot(v, n);
        if (!(d < 0)) {
            return v;
        }
        v -= d * n;
    }
    return dot(v, n) < -real(1e-6) * length(v) ? Vec2{} : v;
}

// Removes from v its components into each plane (normals n), so the motion
// stays on or leaves every plane; at an inner corner of two planes only the
// motion along their crease (if any) remains.
Vec2 clip_to_planes(Vec2 v, std::span<const Vec2> normals);

// Whether tie i (ties sorted, the lead first) is a plane a slide is
// clipped against: the lead and the faces (a corner among the ties, the
// end of a tile at a seam, would catch the body).
inline bool holds_slide(std::span<const MoveHit> ties, std::size_t i) {
    return i == 0 || (ties[i].face && ties[i].response != MoveResponse::bounce);
}

// For a tie just measured (its normal the measure's), whose cast's normal
// was `cast_normal`: when the motion runs along the measured normal
// (within k_tangent_cosine) though it pressed into the cast's, the tie
// keeps the cast's. Two faces nearly parallel tie on their separating
// axes to rounding, and the cast and the measure may take different ones;
// a slide along the measured plane would leave the motion as it was, to
// meet the same hit in every iteration up to the cap (a rounded box tilted
// 0.2 degrees, its face over a tile's corner, stalled there moving off
// it).
inline void keep_pressing_normal(MoveHit& tie, Vec2 cast_normal, Vec2 motion) {
    const real along = k_tangent_cosine * length(motion);
    if (dot(motion, tie.normal) > -along && dot(motion, cast_normal) <= -along) {
        tie.normal = cast_normal;
    }
}

// Whether tie `tie` reports its signed distance at the pose it is
// recorded at (reported_separation) rather than its measure: where the
// measure found no manifold (its separation then 0, what the closing takes
// it for), or the closing moved the body (`closed` > 0, of the motion
// left). The closing's reckoning along the normal follows a face only
// while the body stays over it, and a corner not at all: a box sliding
// left over a tile's top, tied with the tile's corner on a diagonal normal
// as it landed, read 4.1 L into the tile 0.003 L above it, and a turned
// box tied with a tile's top among chain segments read 0.01 L from it
// where it ended 0.043 L apart.
inline bool needs_distance(const MoveHit& tie, real closed) { return !tie.measured || closed > 0; }

// A contact the mover can stand on (see k_ground_cosine); y is up.
inline bool is_ground(Vec2 normal) { return normal.y >= k_ground_cosine; }

// Sorts `ties` into lead order (leads); most moves meet one thing at a
// time, and a single tie is left alone.
inline void order_ties(std::vector<MoveHit>& ties, bool by_area, real slop) {
    if (ties.size() > 1) {
        std::sort(ties.begin(), ties.end(),
                  [&](const MoveHit& a, const MoveHit& b) { return leads(a, b, by_area, slop); });
    }
}

// Of the time left after the earliest hit (at `t_min`), how far the first
// closing may go: to where the earliest blocking hit that is not a tie
// (all of them after `t_min` plus the tie tolerance `tie`) comes within its
// band; 1 when there is none.
inline real closing_cap(std::span<const MoveHit> hits, real t_min, real tie) {
    real t_next = 1;
    for (const MoveHit& h : hits) {
        if (h.response != MoveResponse::cross && h.t - t_min > tie) {
            t_next = std::min(t_next, h.t);
        }
    }
    return t_next >= 1 ? 1 : (t_next - t_min) / (1 - t_min);
}

// The slide left of `left` among `ties` (in lead order): clipped against
// the lead's plane and every other face's (corners with no surface area
// do not clip: a box must not catch on the crack between tiles), and
// against `held` (hold_faces), the planes gathered in `planes`.
Vec2 slide_along_planes(Vec2 left, std::span<const MoveHit> ties, std::span<const Vec2> held,
                        std::vector<Vec2>& planes);
// (Inline for most slides, one tie and nothing held: its plane alone.)
inline Vec2 slide_along(Vec2 left, std::span<const MoveHit> ties, std::span<const Vec2> held,
                        std::vector<Vec2>& planes) {
    if (ties.size() == 1 && held.empty()) {
        return clip_to_plane(left, ties.front().normal); // (the lead holds: holds_slide)
    }
    return slide_along_planes(left, ties, held, planes);
}

// The faces met since the body last moved, which a slide holds to
// (slide_along): called as an iteration's ties replace the last one's
// (`ties`), whose faces join `held` when the body has not moved since
// (`stood`: the iteration's earliest hit is at its start), and which
// empties otherwise (a closing that moves the body empties it too). A body
// between two planes that meet at an angle, hitting one at its start and
// the other after sliding along the first (a rounded box between a chain's
// vertex and a capsule's side, 0.16 degrees from parallel), went back and
// forth between them without moving, each slide clipped against one, up
// to the iteration cap. Where the body stands still the faces it met still
// block it; a corner may not (a graze, for another motion), so only faces
// are held. (Here rather than in every slide, and inline but for the
// faces' copy: most iterations move.)
void add_faces(std::span<const MoveHit> ties, std::vector<Vec2>& held);
inline void hold_faces(bool stood, std::span<const MoveHit> ties, std::vector<Vec2>& held) {
    if (stood) {
        add_faces(ties, held);
    } else {
        held.clear();
    }
}

// The push-out's manifold of the mover's shape `own`, placed by `own_xf`,
// with shape `other` where it stands: its points at their separations, none
// kept beyond touching. Both movers ask it where their boxes say the pair
// may overlap deeper than the touch tolerance (Mover::deepest_push, the
// fast path's lies_deep_in), so that they push out, or decline to, alike.
Manifold push_out_manifold(const World::Impl& w, int other, const Shape& own,
                           const Transform& own_xf);

// Room for a few contacts in a result that has none (record).
void reserve_contacts(MoveResult& result);

// Adds `contact` to the result, reserving room for a few at the first.
// (Inline: every tie of a move's iteration is recorded.)
inline void record(MoveResult& result, const MoveContact& contact) {
    if (result.contacts.capacity() == 0) [[unlikely]] {
        reserve_contacts(result);
    }
    result.contacts.push_back(contact);
}

// For axis-aligned boxes `other` and `own` (a tie's shapes), the fraction
// of a motion of `own` by `dir` at which they would begin to overlap: when
// the later of the two axes' gaps closes (infinite when one never does).
// Exact, where a corner tie's measure along one normal is not: boxes
// closing into an inner corner of tiles, the tile under the wall meeting
// the box corner to corner, were held where the closing began, up to
// 0.003 L short of the wall.
inline real boxes_meet(const Aabb& other, const Aabb& own, Vec2 dir) {
    const std::array<AxisGaps, 2> g = box_gaps(other, own);
    real meet = 0;
    for (int axis = 0; axis < 2; ++axis) {
        const real d = axis == 0 ? dir.x : dir.y;
        const real gap = std::max(g[axis].below, g[axis].above);
        const real closing = g[axis].above >= g[axis].below ? -d : d;
        if (gap > 0) {
            meet =
                std::max(meet, closing > 0 ? gap / closing : std::numeric_limits<real>::infinity());
        }
    }
    return meet;
}

// Whether box `own`, moved by `d`, overlaps box `other` deeper than half
// the touch tolerance `touch` along both axes at some point of the motion:
// for two axis-aligned boxes the closing of a later pass may bring them to
// touch, exactly, where their boxes' reach would stop it (a box closing on
// a wall in an inner corner of tiles, its corner meeting the corner of the
// tile above the wall's, was held 0.002 L short of the wall).
bool boxes_sink(const Aabb& other, const Aabb& own, Vec2 d, real touch);

// A start touching a face of a tile that no flush neighbour covers (an
// exposed face: the top of a floor), moving into it, is a contact even
// where the cast calls it a graze: a face of the mover running along
// the motion keeps the tile within the touch tolerance, but only because
// the motion leaves the tile for the crack of the seam beside it, where
// the next tile meets the mover with its covered side or corner. (A
// triangle's tip standing on a floor of tiles beside a seam, moving
// along its own side, grazed its tile; the next tile's corner was its
// only tie, and the slide along that corner turned it down into the
// floor.) Only for tiles with covered faces: a lone shape grazed is
// grazed. None unless the manifold's face is the tile's (not the
// mover's, against a tile's corner) and exposed where it touches.
// `touching`: that manifold, if the cast already made it.
std::optional<CastOutput> into_exposed_face(const World::Impl& w, int tile_shape, int own_shape,
                                            const PlacedShape& other, const PlacedShape& own,
                                            Vec2 motion, const TouchingManifold& touching);

} // namespace sweep::detail
