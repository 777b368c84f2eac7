// GoogleTest printers for the kernel's value types and state enums, so that a
// failed expectation reads "overlapped" or "(0.5, 1)", not raw bytes. Found by
// argument-dependent lookup; include in every geometry test.
#pragma once

#include <ostream>

#include "sweep/distance.hpp"
#include "sweep/math.hpp"
#include "sweep/result.hpp"
#include "sweep/shape_cast.hpp"

namespace sweep {

inline void PrintTo(Vec2 v, std::ostream* os) { *os << "(" << v.x << ", " << v.y << ")"; }

inline void PrintTo(ErrorCode code, std::ostream* os) { *os << to_string(code); }

inline void PrintTo(CastState state, std::ostream* os) {
    switch (state) {
    case CastState::hit:
        *os << "hit";
        return;
    case CastState::miss:
        *os << "miss";
        return;
    case CastState::overlapped:
        *os << "overlapped";
        return;
    case CastState::failed:
        *os << "failed";
        return;
    case CastState::invalid_input:
        *os << "invalid_input";
        return;
    }
    *os << "CastState(" << static_cast<int>(state) << ")";
}

inline void PrintTo(DistanceState state, std::ostream* os) {
    switch (state) {
    case DistanceState::separated:
        *os << "separated";
        return;
    case DistanceState::cores_overlap:
        *os << "cores_overlap";
        return;
    case DistanceState::invalid_input:
        *os << "invalid_input";
        return;
    }
    *os << "DistanceState(" << static_cast<int>(state) << ")";
}

} // namespace sweep
