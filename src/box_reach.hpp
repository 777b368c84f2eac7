// Private to World::move (mover.cpp): whether each of many boxes meets one,
// as overlaps() decides it, without a branch on each. A move's scans (its
// static neighbourhood against the box it can reach, its candidates against
// an iteration's swept box) find the boxes that meet in an order no
// predictor could learn, so a branch on each was mispredicted as often as
// not. Also whether they overlap deeper than a depth (the push-out's
// question of every box a move gathers, move_narrowphase.hpp).
#pragma once

#include <cstddef>

#include "sweep/math.hpp"

#if defined(__SSE2__) && !defined(SWEEP_DOUBLE)
#include <emmintrin.h>
#define SWEEP_SSE_BOX_REACH 1
#else
#define SWEEP_SSE_BOX_REACH 0
#endif

namespace sweep::detail {

/// overlaps(a, b) (touching counts) for one box `a` and any b. With SSE its
/// four comparisons are one: b.lower > a.upper and a.lower > b.upper are
/// (b.lower, -b.upper) > (a.upper, -a.lower), lane by lane. Negation is
/// exact, so the verdict is overlaps()'s to the bit, NaN included (no lane
/// holding one compares true, as no comparison with one does).
class BoxReach {
  public:
#if SWEEP_SSE_BOX_REACH
    /// The box the others are tested against (world, L).
    explicit BoxReach(const Aabb& a)
        : bound_(_mm_setr_ps(a.upper.x, a.upper.y, -a.lower.x, -a.lower.y)) {}

    /// overlaps(a, b).
    bool meets(const Aabb& b) const {
        static_assert(sizeof(Aabb) == 4 * sizeof(float) && offsetof(Aabb, upper) == 8);
        const __m128 negate_upper = _mm_setr_ps(0.0f, 0.0f, -0.0f, -0.0f);
        const __m128 corners =
            _mm_xor_ps(_mm_loadu_ps(reinterpret_cast<const float*>(&b)), negate_upper);
        return _mm_movemask_ps(_mm_cmpgt_ps(corners, bound_)) == 0;
    }

    /// Whether each of the four gaps between a and b along the axes
    /// (b.lower - a.upper and a.lower - b.upper, per axis; negative where
    /// they overlap) is below `limit`: the same subtractions, to the bit, as
    /// the gaps written out (-b.upper + a.lower is a.lower - b.upper).
    bool gaps_below(const Aabb& b, real limit) const {
        const __m128 negate_upper = _mm_setr_ps(0.0f, 0.0f, -0.0f, -0.0f);
        const __m128 corners =
            _mm_xor_ps(_mm_loadu_ps(reinterpret_cast<const float*>(&b)), negate_upper);
        const __m128 gaps = _mm_sub_ps(corners, bound_);
        return _mm_movemask_ps(_mm_cmplt_ps(gaps, _mm_set1_ps(limit))) == 0xF;
    }

  private:
    __m128 bound_; // a.upper, then -a.lower
#else
    /// The box the others are tested against (world, L).
    explicit BoxReach(const Aabb& a) : a_(a) {}

    /// overlaps(a, b).
    bool meets(const Aabb& b) const {
        return !((b.lower.x > a_.upper.x) | (b.lower.y > a_.upper.y) | (a_.lower.x > b.upper.x) |
                 (a_.lower.y > b.upper.y));
    }

    /// Whether each of the four gaps between a and b along the axes
    /// (b.lower - a.upper and a.lower - b.upper, per axis; negative where
    /// they overlap) is below `limit`.
    bool gaps_below(const Aabb& b, real limit) const {
        return (b.lower.x - a_.upper.x < limit) & (b.lower.y - a_.upper.y < limit) &
               (a_.lower.x - b.upper.x < limit) & (a_.lower.y - b.upper.y < limit);
    }

  private:
    Aabb a_;
#endif
};

} // namespace sweep::detail
