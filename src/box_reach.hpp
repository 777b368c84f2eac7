// Private to World::move (mover.cpp): whether each of many boxes meets one,
// as overlaps() decides it, without a branch on each. A move's scans (its
// static neighbourhood against the box it can reach, its candidates against
// an iteration's swept box) find the boxes that meet in an order no
// predictor could learn, so a branch on each was mispredicted as often as
// not. Also whether they overlap deeper than a depth (the push-out's
// question of every box a move gathers, move_narrowphase.hpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

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

/// Up to k_capacity boxes kept coordinate by coordinate (four rows of
/// lanes), for the set of those that meet one box, as overlaps() decides
/// it, in one pass: four boxes a comparison with SSE. A move's static
/// neighbourhood (move_neighbourhood.hpp) holds a dozen tiles or so, of
/// which it asks which meet the box it can reach at every move; box by box
/// that scan was a twentieth of a move's instructions.
class BoxLanes {
  public:
    static constexpr std::size_t k_capacity = 32;

    std::size_t size() const { return count_; }
    void clear() { count_ = 0; }

    /// Appends `b`; false (and nothing kept) when k_capacity are held.
    bool push_back(const Aabb& b) {
        if (count_ == k_capacity) {
            return false;
        }
        if (rows_.empty()) {
            rows_.resize(4 * k_capacity); // (zeros: the lanes past the count are read, not used)
        }
        rows_[count_] = b.lower.x;
        rows_[k_capacity + count_] = b.lower.y;
        rows_[2 * k_capacity + count_] = b.upper.x;
        rows_[3 * k_capacity + count_] = b.upper.y;
        ++count_;
        return true;
    }

    /// Bit i set where box i meets `a` (touching counts, NaN as overlaps()
    /// takes it: no comparison with one is true, so it meets).
    std::uint32_t meeting(const Aabb& a) const {
        if (count_ == 0) {
            return 0; // (and the rows may never have been made)
        }
        const real* lower_x = rows_.data();
        const real* lower_y = lower_x + k_capacity;
        const real* upper_x = lower_y + k_capacity;
        const real* upper_y = upper_x + k_capacity;
        std::uint32_t met = 0;
#if SWEEP_SSE_BOX_REACH
        const __m128 a_upper_x = _mm_set1_ps(a.upper.x);
        const __m128 a_upper_y = _mm_set1_ps(a.upper.y);
        const __m128 a_lower_x = _mm_set1_ps(a.lower.x);
        const __m128 a_lower_y = _mm_set1_ps(a.lower.y);
        for (std::size_t i = 0; i < count_; i += 4) {
            const __m128 apart =
                _mm_or_ps(_mm_or_ps(_mm_cmpgt_ps(_mm_loadu_ps(lower_x + i), a_upper_x),
                                    _mm_cmpgt_ps(_mm_loadu_ps(lower_y + i), a_upper_y)),
                          _mm_or_ps(_mm_cmpgt_ps(a_lower_x, _mm_loadu_ps(upper_x + i)),
                                    _mm_cmpgt_ps(a_lower_y, _mm_loadu_ps(upper_y + i))));
            met |= static_cast<std::uint32_t>(_mm_movemask_ps(apart) ^ 0xF) << i;
        }
#else
        for (std::size_t i = 0; i < count_; ++i) {
            const bool apart = (lower_x[i] > a.upper.x) | (lower_y[i] > a.upper.y) |
                               (a.lower.x > upper_x[i]) | (a.lower.y > upper_y[i]);
            met |= static_cast<std::uint32_t>(!apart) << i;
        }
#endif
        return count_ == k_capacity ? met : met & ((std::uint32_t{1} << count_) - 1);
    }

  private:
    std::vector<real> rows_; // lower.x, lower.y, upper.x, upper.y: k_capacity lanes each
    std::size_t count_ = 0;
};

/// Calls visit(i) for each bit i set in `bits`, lowest first.
template <class Visit> void for_each_bit(std::uint32_t bits, Visit&& visit) {
    while (bits != 0) {
        visit(static_cast<std::size_t>(std::countr_zero(bits)));
        bits &= bits - 1;
    }
}

} // namespace sweep::detail
