// Private to World::move (mover.cpp): its fast path for the usual case, a
// character of one shape (an axis-aligned box, a disc, or a capsule whose
// core lies along an axis) among tiles that are axis-aligned boxes, moved
// without a filter or with one that answers slide or ignore for what it
// meets. It runs the general mover's method (the seeds' timeslice
// subdivision, "Collisions, Part 1" and "Collision Handling") with slide
// responses only, in the same arithmetic in the same order, so to the same
// result to the bit, without the general mover's questions of each shape
// pair (which shape of the body, which response, which form, whether the
// pair may need the push-out) and with the body's pose in locals. A box
// meets the tiles through the closed forms of two boxes; a round shape
// through the general forms (cast_to_contact, measure_contact), which take
// their own closed forms for it (move_round_box.hpp).
//
// Frame and units: world, L.
#pragma once

#include "sweep/mover.hpp"
#include "world_impl.hpp"

namespace sweep::detail {

/// Moves body `body` (index into World::Impl::bodies) by `translation`
/// (world, L) into `result`, which the caller made fresh or emptied, as
/// the general mover (World::move with `filter`) would, bit for bit: when
/// the body has one shape that is not a sensor, an axis-aligned box, a
/// disc, or a capsule whose placed core lies along an axis and whose
/// radius lets its box bound its overlaps (bounded_by_boxes), and every
/// shape the move may meet that `filter` (if any) does not ignore is one it
/// slides on, not a sensor, and an axis-aligned box (for a round body also
/// any shape but a chain segment whose box does not meet the body's), and
/// the body starts overlapping none of them beyond the touch tolerance. (A
/// move without a filter looks first only within the box its translation
/// sweeps, which its slides along faces never leave, and at the rest of
/// the general mover's box when a corner turns it out.) Returns
/// whether it moved the body. False (it does not apply, or it met what the
/// general mover must handle) leaves the body and the world as they were,
/// but for its shape's cached static neighbourhood, the filter's answers
/// in MoveScratch::asked (for the general mover, which asks no more) and
/// `result` partly filled: the caller empties it and runs the general
/// mover.
bool move_fast(World::Impl& w, int body, Vec2 translation, const MoveFilter& filter,
               MoveResult& result);

} // namespace sweep::detail
