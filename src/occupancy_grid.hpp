// Private to the world: how many boxes (the moving shapes' fat boxes) overlap
// each cell of a uniform grid, and the sums of their ids and of their ids'
// squares, so that a box can be shown to meet none of them but one, its
// own, or but a few others, named, without a walk of the tree that holds
// them. World::move asks it before looking for other movers: in a crowd
// spread over a map most moves are alone or near one or two others, and the
// moving tree's walk (a chain of dependent loads and unpredictable branches
// per level) was a quarter of a move's time. A cell with one other box
// names it by the sum of ids; with two, by the sums of ids and of squares,
// which two ids alone give (their difference is the root of twice the sum
// of squares less the square of the sum).
//
// The grid is a torus: cell (x, y) is counted in slot (x mod side, y mod
// side) of a fixed table, so it needs no bounds, and cells a side apart
// share a slot. Shared slots and the cells' coarseness only make a slot hold
// more than the boxes overlapping one cell: `others` may then name a box
// that lies apart, or say several where there are fewer (the caller walks
// the tree), never fewer than overlap.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sweep/math.hpp"

#if defined(__SSE2__) && !defined(SWEEP_DOUBLE)
#include <emmintrin.h>
#define SWEEP_SSE_OCCUPANCY 1
#else
#define SWEEP_SSE_OCCUPANCY 0
#endif

namespace sweep::detail {

class OccupancyGrid {
  public:
    /// Cells `cell_size` wide (world, L; > 0), in a table of k_side² slots
    /// allocated at the first add.
    explicit OccupancyGrid(real cell_size) : inv_cell_(1 / cell_size) {}

    /// Counts `box` (world, L; valid, finite), with id `id` (>= 0), in
    /// every cell it overlaps (touching counts).
    void add(const Aabb& box, std::int32_t id) { count(box, id, 1); }

    /// Removes a box that was added with this id (the same box, to the bit).
    void remove(const Aabb& box, std::int32_t id) { count(box, id, -1); }

    /// The most boxes Others names.
    static constexpr int k_max_named = 4;

    /// The boxes counted besides one's own that a query may meet.
    struct Others {
        enum class Kind {
            none,    ///< no box but the own one can overlap the query
            named,   ///< only the boxes ids[0, count) can (some may still lie apart)
            several, ///< more may, or the query wraps onto itself
        };
        Kind kind = Kind::none;
        int count = 0; ///< for `named`: 1 to k_max_named, each id once
        std::array<std::int32_t, k_max_named> ids{};
    };

    /// What, besides `own` (counted with id `own_id`), may overlap `query`
    /// (touching counts): read from the slots of the cells `query`
    /// overlaps. A slot holding one or two boxes besides `own` names them
    /// (by its sums); one holding more says several, as do more than
    /// k_max_named named in all. Never names fewer boxes than overlap
    /// `query`.
    Others others(const Aabb& query, const Aabb& own, std::int32_t own_id) const {
        const Cells q = cells(query);
        const Cells o = cells(own);
        if (q.x1 - q.x0 >= k_side || q.y1 - q.y0 >= k_side) {
            return {Others::Kind::several, -1};
        }
        // A mover's query usually lies within its own fat box's cells: then
        // every slot counts the own box once.
        if (q.x0 >= o.x0 && q.x1 <= o.x1 && q.y0 >= o.y0 && q.y1 <= o.y1) {
            return others_in(
                q, [](std::int32_t, std::int32_t) { return true; }, own_id);
        }
        return others_in(
            q,
            [&o](std::int32_t x, std::int32_t y) {
                return y >= o.y0 && y <= o.y1 && x >= o.x0 && x <= o.x1;
            },
            own_id);
    }

    /// Slots along a side of the table: a power of two.
    static constexpr std::int32_t k_side = 256;

  private:
    /// Cells [x0, x1] x [y0, y1], inclusive, in cell units.
    struct Cells {
        std::int32_t x0, y0, x1, y1;
    };

    // others() over the slots of cells `q`, where `own_here(x, y)` says
    // whether the own box (id `own_id`) is counted in cell (x, y).
    template <class OwnHere>
    Others others_in(const Cells& q, OwnHere own_here, std::int32_t own_id) const {
        Others found;
        const auto own_square = square(own_id);
        for (std::int32_t y = q.y0; y <= q.y1; ++y) {
            for (std::int32_t x = q.x0; x <= q.x1; ++x) {
                const bool own = own_here(x, y);
                const std::size_t at = slot(x, y);
                const Slot& s = slots_[at];
                const std::uint32_t count = s.count - (own ? 1 : 0);
                if (count == 0) {
                    continue;
                }
                const std::uint32_t id_sum =
                    s.id_sum - (own ? static_cast<std::uint32_t>(own_id) : 0);
                if (count == 1) {
                    if (!name(found, static_cast<std::int32_t>(id_sum))) {
                        return {Others::Kind::several};
                    }
                    continue;
                }
                const std::uint64_t square_sum = square_sums_[at] - (own ? own_square : 0);
                if (count > 2 || !name_two(found, id_sum, square_sum)) {
                    return {Others::Kind::several};
                }
            }
        }
        return found;
    }

    static std::uint64_t square(std::int32_t id) {
        const auto u = static_cast<std::uint64_t>(static_cast<std::uint32_t>(id));
        return u * u;
    }

    // Adds `id` to the boxes `found` names, once; false if that makes more
    // than k_max_named.
    static bool name(Others& found, std::int32_t id) {
        const auto named = found.ids.begin() + found.count;
        if (std::find(found.ids.begin(), named, id) != named) {
            return true;
        }
        if (found.count == k_max_named) {
            return false;
        }
        found.ids[static_cast<std::size_t>(found.count++)] = id;
        found.kind = Others::Kind::named;
        return true;
    }

    // Names the two boxes a slot holds, a + b = `id_sum` and a^2 + b^2 =
    // `square_sum`: exact in these widths for ids below 2^31, since
    // (a - b)^2 = 2 (a^2 + b^2) - (a + b)^2. False where that gives no two
    // ids (a slot's sums are exact, so only past k_max_named in practice).
    static bool name_two(Others& found, std::uint32_t id_sum, std::uint64_t square_sum) {
        const std::uint64_t sum = id_sum;
        const std::uint64_t difference_squared = 2 * square_sum - sum * sum;
        if (difference_squared >= std::uint64_t{1} << 62) {
            return false; // (no two ids below 2^31 differ so much: the root below cannot overflow)
        }
        auto difference =
            static_cast<std::uint64_t>(std::sqrt(static_cast<double>(difference_squared)));
        // (The root of a double within one of the integer's: corrected.)
        while (difference > 0 && difference * difference > difference_squared) {
            --difference;
        }
        while ((difference + 1) * (difference + 1) <= difference_squared) {
            ++difference;
        }
        if (difference * difference != difference_squared || (sum + difference) % 2 != 0 ||
            difference > sum) {
            return false;
        }
        return name(found, static_cast<std::int32_t>((sum + difference) / 2)) &&
               name(found, static_cast<std::int32_t>((sum - difference) / 2));
    }

    // The cell holding coordinate `v`, clamped far beyond any world so that
    // the conversion is defined; a box's cells are the lower and upper
    // corners' and those between, so two boxes that touch share a cell.
    // (The floor by truncation: std::floor is a library call without
    // SSE4.1.)
    std::int32_t cell(real v) const {
        constexpr real limit = real(1 << 29);
        const real c = std::clamp(v * inv_cell_, -limit, limit);
        const auto truncated = static_cast<std::int32_t>(c);
        return truncated - (c < static_cast<real>(truncated) ? 1 : 0);
    }

    // With SSE the four corners' cells at once, by cell()'s arithmetic lane
    // by lane (a query's eight conversions were a tenth of a move's look at
    // the grid).
    Cells cells(const Aabb& box) const {
#if SWEEP_SSE_OCCUPANCY
        static_assert(sizeof(Aabb) == 4 * sizeof(float) && sizeof(Cells) == 16);
        constexpr real limit = real(1 << 29);
        const __m128 scaled =
            _mm_mul_ps(_mm_loadu_ps(reinterpret_cast<const float*>(&box)), _mm_set1_ps(inv_cell_));
        const __m128 c = _mm_min_ps(_mm_max_ps(scaled, _mm_set1_ps(-limit)), _mm_set1_ps(limit));
        const __m128i truncated = _mm_cvttps_epi32(c);
        const __m128 below = _mm_cmplt_ps(c, _mm_cvtepi32_ps(truncated)); // all ones: -1
        Cells out;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(&out),
                         _mm_add_epi32(truncated, _mm_castps_si128(below)));
        return out;
#else
        return {cell(box.lower.x), cell(box.lower.y), cell(box.upper.x), cell(box.upper.y)};
#endif
    }

    static std::size_t slot(std::int32_t x, std::int32_t y) {
        return static_cast<std::size_t>((x & (k_side - 1)) + (y & (k_side - 1)) * k_side);
    }

    // A slot's boxes: how many, and the sum of their ids (modulo 2^32),
    // which is the id of the box when there is one. (The sums of their ids'
    // squares, read only for a slot of two, are in a table of their own:
    // square_sums_.)
    struct Slot {
        std::uint32_t count = 0;
        std::uint32_t id_sum = 0;
    };

    // Adds `delta` boxes of id `id` to the slots of the box's cells: each
    // slot once however many of the box's cells wrap onto it (a box wider
    // than the table).
    void count(const Aabb& box, std::int32_t id, int delta) {
        if (slots_.empty()) {
            slots_.resize(static_cast<std::size_t>(k_side * k_side));
            square_sums_.resize(slots_.size());
        }
        const Cells c = cells(box);
        const std::int32_t x1 = std::min(c.x1, c.x0 + k_side - 1);
        const std::int32_t y1 = std::min(c.y1, c.y0 + k_side - 1);
        for (std::int32_t y = c.y0; y <= y1; ++y) {
            for (std::int32_t x = c.x0; x <= x1; ++x) {
                const std::size_t at = slot(x, y);
                Slot& s = slots_[at];
                s.count += static_cast<std::uint32_t>(delta);
                s.id_sum += static_cast<std::uint32_t>(delta) * static_cast<std::uint32_t>(id);
                square_sums_[at] += static_cast<std::uint64_t>(delta) * square(id);
            }
        }
    }

    real inv_cell_;
    std::vector<Slot> slots_;
    std::vector<std::uint64_t> square_sums_; // by slot, modulo 2^64
};

} // namespace sweep::detail
