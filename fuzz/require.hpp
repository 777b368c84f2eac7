// The fuzz targets' check: a violated invariant prints what failed and
// aborts, and libFuzzer saves the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace sweep::fuzz {

/// Aborts with `what` unless `ok`.
inline void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "invariant violated: %s\n", what);
        std::abort();
    }
}

} // namespace sweep::fuzz
