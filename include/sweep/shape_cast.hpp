// Linear shape cast: when does B, translating, first come within a target
// separation of A? Conservative advancement on GJK distance (the seed
// "collision detection" article, continuous linear section; van den Bergen,
// "Ray casting against general convex objects", 2004).
#pragma once

#include "sweep/constants.hpp"
#include "sweep/distance.hpp"

namespace sweep {

/// Input of shape_cast(): B at xf_b moves by `translation_b` (world, L)
/// relative to A, which is fixed at xf_a.
struct ShapeCastInput {
    ShapeProxy proxy_a;
    ShapeProxy proxy_b;
    Transform xf_a;
    Transform xf_b;
    Vec2 translation_b;
    real max_fraction = 1;                    ///< only hits at t <= this count
    real target_separation = k_linear_slop;   ///< stop this far from contact, L (>= 0)
    real touch_tolerance = k_touch_tolerance; ///< touching band, L (see conventions)
};

/// How a cast or TOI query ended.
enum class CastState {
    hit,           ///< contact at `fraction`; normal and point valid
    miss,          ///< no contact within max_fraction
    overlapped,    ///< the shapes overlap at t = 0 beyond the touch tolerance
    failed,        ///< iteration cap reached; `fraction` is still a safe (conservative) time
    invalid_input, ///< NaN or infinite input
};

/// Result of shape_cast() and raycast() (raycast.hpp), in world coordinates.
/// For a ray cast the shape is A and the ray B: `normal` is the shape's
/// outward surface normal at the hit and `point` the hit on its surface.
struct CastOutput {
    Vec2 normal;       ///< unit, from A to B at the hit (the face normal B meets)
    Vec2 point;        ///< contact point on A's surface at the hit
    real fraction = 0; ///< time of impact in [0, max_fraction]
    int iterations = 0;
    CastState state = CastState::miss;
};

/// First time t in [0, max_fraction] at which B, moved by t * translation_b,
/// is within target_separation of A. Starting touching (closer than
/// target_separation + touch_tolerance but not overlapping): t = 0 with the
/// normal when moving inward, miss when moving along or away, that is when
/// any face normal of either core that holds them apart to within the touch
/// tolerance does not close along the motion (at a corner touching a
/// corner, either face's); starting overlapped: state overlapped. Never
/// reports a time after the first contact (each advancement is bounded by a
/// separating plane).
CastOutput shape_cast(const ShapeCastInput& input);

} // namespace sweep
