// The step's sort of mostly repeating inputs (src/repeated_sort.hpp) against
// std::sort: the same output for a repeated input (copied), for a changed
// one (sorted again), and after a change back.
#include "repeated_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace sweep::detail {
namespace {

std::vector<std::uint64_t> sorted(std::vector<std::uint64_t> v) {
    std::sort(v.begin(), v.end());
    return v;
}

TEST(RepeatedSort, GivesWhatStdSortGivesForRepeatedAndChangedInputs) {
    std::mt19937_64 rng(3);
    RepeatedSort<std::uint64_t> sorter;
    std::vector<std::uint64_t> input(500);
    for (int round = 0; round < 200; ++round) {
        // Mostly the last input again; now and then a changed one, a
        // shorter or longer one, or one with a single element swapped.
        const int change = round % 7;
        if (round == 0 || change == 1) {
            for (std::uint64_t& x : input) {
                x = rng() % 1000;
            }
        } else if (change == 2) {
            input.resize(input.size() + 1, rng() % 1000);
        } else if (change == 3) {
            input.pop_back();
        } else if (change == 4) {
            std::swap(input[rng() % input.size()], input[rng() % input.size()]);
        }
        std::vector<std::uint64_t> v = input;
        sorter.sort(v);
        ASSERT_EQ(v, sorted(input)) << "round " << round;
    }
}

TEST(RepeatedSort, TakesTheOrderGiven) {
    RepeatedSort<int> sorter;
    for (int round = 0; round < 3; ++round) {
        std::vector<int> v{3, 1, 2};
        sorter.sort(v, std::greater<>{});
        EXPECT_EQ(v, (std::vector<int>{3, 2, 1})) << "round " << round;
    }
}

} // namespace
} // namespace sweep::detail
