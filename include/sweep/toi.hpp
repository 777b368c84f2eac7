// Time of impact with rotation by conservative advancement (Mirtich's thesis
// 1996; Coumans, "Continuous collision detection and physics", 2005; the
// seed "collision detection" article, continuous angular+linear section).
#pragma once

#include "sweep/shape_cast.hpp"

namespace sweep {

/// The motion of a body over one step: its centre of mass moves on a line
/// from c1 to c2 (world, L) while it turns from a1 to a2 (radians, any
/// amount: several turns per step are allowed).
struct Sweep {
    Vec2 local_center; ///< centre of mass in the body frame
    Vec2 c1;           ///< centre of mass at t = 0
    Vec2 c2;           ///< centre of mass at t = 1
    real a1 = 0;       ///< angle at t = 0
    real a2 = 0;       ///< angle at t = 1
};

/// The body transform at time t in [0, 1].
Transform get_transform(const Sweep& sweep, real t);

/// Input of time_of_impact(). Proxies are in their body frames.
struct ToiInput {
    ShapeProxy proxy_a;
    ShapeProxy proxy_b;
    Sweep sweep_a;
    Sweep sweep_b;
    real max_fraction = 1;
    real target_separation = k_linear_slop;   ///< stop this far from contact, L
    real touch_tolerance = k_touch_tolerance; ///< accepted error around the target, L
};

/// Result of time_of_impact().
struct ToiOutput {
    CastState state =
        CastState::miss; ///< hit, miss ("separated"), overlapped, failed, invalid_input
    real fraction = 0;   ///< time of the hit; for failed, the last safe time
    Vec2 normal;         ///< from A to B at the hit (world)
    int iterations = 0;  ///< separations computed by GJK (axis steps between them not counted)
};

/// First time t in [0, max_fraction] at which the two moving shapes come
/// within target_separation of each other. Each step advances by the current
/// separation over a bound on the closing speed (linear closing speed along
/// the normal plus |angle change| times the largest core extent about the
/// centre of mass), so t never passes the first contact, whatever the
/// rotation per step. Starting within target + tolerance: hit at t = 0 when the
/// bound says the shapes approach, miss when it does not, along the
/// separation's normal or along any face normal of either core that holds
/// them apart to within the touch tolerance (at a corner touching a corner,
/// either face's). Overlapping beyond the touch tolerance at t = 0:
/// overlapped. At most k_toi_max_iterations GJK calls; then failed with the
/// safe time. Where one body turns and the other does not, up to
/// k_toi_axis_steps steps between two GJK calls advance on the last normal's
/// axis alone, by the same bound on the gap of the cores along it (never more
/// than their separation): the same guarantee, at the cost of a rotation and
/// a support point of each core a step rather than a GJK call.
ToiOutput time_of_impact(const ToiInput& input);

} // namespace sweep
