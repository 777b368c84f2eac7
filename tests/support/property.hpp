// Case counts for property tests: full in release and double builds, scaled
// by SWEEP_PROPERTY_CASES_SCALE (0.1 under the sanitizers) so that
// scripts/test stays within its time budget.
#pragma once

#include <algorithm>
#include <cstdlib>

namespace sweep::test {

inline int property_cases(int full) {
    const char* scale = std::getenv("SWEEP_PROPERTY_CASES_SCALE");
    const double s = scale ? std::atof(scale) : 1.0;
    return std::max(1, static_cast<int>(full * (s > 0 ? s : 1.0)));
}

} // namespace sweep::test
