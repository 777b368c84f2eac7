// Which shapes may collide: category and mask bits and groups (the scheme
// of Box2D's b2Filter), shared by the world's step, its move and its queries.
#pragma once

#include <cstdint>

namespace sweep {

/// Collision filtering data of a shape.
struct Filter {
    std::uint64_t category_bits = 1; ///< what this shape is (usually one bit)
    std::uint64_t mask_bits = ~0ull; ///< the categories it collides with
    std::int32_t group_index = 0;    ///< same non-zero group: > 0 always, < 0 never collide
};

/// Whether shapes with filters `a` and `b` collide: a shared non-zero group
/// decides alone (positive: yes, negative: no); otherwise each one's category
/// must be in the other's mask. Symmetric in a and b.
constexpr bool should_collide(const Filter& a, const Filter& b) {
    if (a.group_index == b.group_index && a.group_index != 0) {
        return a.group_index > 0;
    }
    return (a.category_bits & b.mask_bits) != 0 && (b.category_bits & a.mask_bits) != 0;
}

/// A filter for world queries: a shape is seen when its category_bits &
/// mask_bits != 0, and sensors only with include_sensors.
struct QueryFilter {
    std::uint64_t mask_bits = ~0ull;
    bool include_sensors = false;
};

} // namespace sweep
