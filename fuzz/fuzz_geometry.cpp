// libFuzzer target: the geometry kernel's hot queries on two shapes from the
// factories, placed by fuzzed poses (fuzz_input.hpp): collide, distance,
// overlaps, ray casts, shape casts, time of impact and the polygons' minimum
// translation vector. None may crash, hang or touch memory it should not
// (AddressSanitizer, UBSan, libFuzzer's timeout), whatever the numbers.
//
// What docs/conventions.md ("Errors") and the headers promise is checked:
// - a NaN or infinite pose gives collide no contact, distance and the casts
//   their invalid_input state, overlaps false;
// - on finite poses within 1e4 L (shapes within 1e4 L of their origins), the
//   answers are finite and well formed: at most two contact points, unit
//   normals, separations below the speculative distance, fractions within
//   [0, max_fraction], GJK's witness points as far apart as its distance;
// - collide agrees with GJK: solid shapes whose distance is below the
//   speculative distance get a contact (chain segments, one-sided, excepted),
//   unless a solid is thinner than a ten-thousandth of the coordinates (its
//   faces then lie within the rounding of one another once turned into the
//   other shape's frame).
// Tolerances grow with the coordinates (float carries about 7 digits).
#include "fuzz_input.hpp"

#include <sweep/distance.hpp>
#include <sweep/manifold.hpp>
#include <sweep/mtv.hpp>
#include <sweep/overlap.hpp>
#include <sweep/raycast.hpp>
#include <sweep/shape_cast.hpp>
#include <sweep/toi.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace {

using namespace sweep;
using fuzz::is_finite;
using fuzz::require;

constexpr real k_moderate = 1e4;

bool is_unit(Vec2 v) { return std::abs(length(v) - 1) < real(1e-3); }

// How far answers may stray at coordinates of `scale`, L.
real tolerance_at(real scale, real speculative) {
    return real(1e-3) * std::max(real(1), scale + speculative);
}

// The largest coordinate either shape reaches in its own frame, or either
// pose places it at.
real scale_of(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb) {
    real scale = 1;
    for (const Aabb& box : {compute_aabb(a, Transform{}), compute_aabb(b, Transform{})}) {
        scale = std::max({scale, std::abs(box.lower.x), std::abs(box.lower.y),
                          std::abs(box.upper.x), std::abs(box.upper.y)});
    }
    return std::max(
        {scale, std::abs(xfa.p.x), std::abs(xfa.p.y), std::abs(xfb.p.x), std::abs(xfb.p.y)});
}

bool is_edge(const Shape& s) {
    return s.type == ShapeType::segment || s.type == ShapeType::chain_segment;
}

// Thick enough for its faces to stay apart in `real` at coordinates of
// `scale` (edges have no thickness to lose).
bool is_conditioned(const Shape& s, real scale) {
    return is_edge(s) || inner_radius(s) >= real(1e-4) * scale;
}

void check_collide(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
                   real speculative, bool moderate, real scale, const DistanceOutput& d) {
    const real tolerance = tolerance_at(scale, speculative);
    const Manifold m = collide(a, xfa, b, xfb, {speculative, k_linear_slop});
    require(m.count >= 0 && m.count <= 2, "collide: more than two points");
    if (!is_finite(xfa) || !is_finite(xfb)) {
        require(m.count == 0, "collide: a contact from a non-finite pose");
        return;
    }
    if (!moderate) {
        return;
    }
    if (m.count > 0) {
        require(is_unit(m.normal), "collide: normal not a unit vector");
    }
    for (int i = 0; i < m.count; ++i) {
        const ManifoldPoint& p = m.points[static_cast<std::size_t>(i)];
        require(is_finite(p.point) && is_finite(p.anchor_a) && is_finite(p.anchor_b) &&
                    is_finite(p.separation),
                "collide: a point not finite");
        require(p.separation <= speculative + tolerance,
                "collide: a point beyond the speculative distance");
    }
    // Two edges never collide, and a chain segment is one-sided.
    const bool solid = !(is_edge(a) && is_edge(b)) && a.type != ShapeType::chain_segment &&
                       b.type != ShapeType::chain_segment && is_conditioned(a, scale) &&
                       is_conditioned(b, scale);
    if (solid && d.state != DistanceState::invalid_input && d.distance + tolerance < speculative) {
        require(m.count > 0, "collide: no contact within the speculative distance of GJK");
    }
}

DistanceOutput check_distance(const Shape& a, const Transform& xfa, const Shape& b,
                              const Transform& xfb, bool moderate, real tolerance) {
    SimplexCache cache;
    const DistanceOutput d = distance({make_proxy(a), make_proxy(b), xfa, xfb, true}, cache);
    if (!is_finite(xfa) || !is_finite(xfb)) {
        require(d.state == DistanceState::invalid_input, "distance: a non-finite pose accepted");
        return d;
    }
    if (!moderate) {
        return d;
    }
    require(d.state != DistanceState::invalid_input, "distance: a finite pose rejected");
    require(is_finite(d.distance) && d.distance >= 0, "distance: negative or not finite");
    require(is_finite(d.point_a) && is_finite(d.point_b), "distance: witness not finite");
    if (d.state == DistanceState::separated && d.distance > 0) {
        require(is_unit(d.normal), "distance: normal not a unit vector");
        require(std::abs(length(d.point_b - d.point_a) - d.distance) <= tolerance,
                "distance: witness points not its distance apart");
    }
    return d;
}

// A ray from the input against `b`.
void check_raycast(fuzz::FuzzInput& in, const Shape& b, const Transform& xfb, bool moderate) {
    RayInput ray;
    ray.origin = in.point();
    ray.translation = in.point();
    ray.max_fraction = in.byte() % 2 == 0 ? real(1) : in.number();
    const CastOutput out = raycast(ray, b, xfb);
    const bool finite = is_finite(ray.origin) && is_finite(ray.translation) &&
                        is_finite(ray.max_fraction) && ray.max_fraction >= 0 && is_finite(xfb);
    if (!finite) {
        require(out.state == CastState::invalid_input, "raycast: non-finite input accepted");
        return;
    }
    const bool near =
        std::max({std::abs(ray.origin.x), std::abs(ray.origin.y), std::abs(ray.translation.x),
                  std::abs(ray.translation.y), ray.max_fraction}) <= k_moderate;
    if (!moderate || !near) {
        return;
    }
    require(out.state == CastState::hit || out.state == CastState::miss,
            "raycast: moderate input neither hit nor missed");
    if (out.state == CastState::hit) {
        require(out.fraction >= 0 && out.fraction <= ray.max_fraction,
                "raycast: fraction outside [0, max_fraction]");
        require(is_unit(out.normal) && is_finite(out.point), "raycast: hit not well formed");
    }
}

// B cast along a translation from the input, against A.
void check_shape_cast(fuzz::FuzzInput& in, const Shape& a, const Transform& xfa, const Shape& b,
                      const Transform& xfb, bool moderate) {
    ShapeCastInput cast;
    cast.proxy_a = make_proxy(a);
    cast.proxy_b = make_proxy(b);
    cast.xf_a = xfa;
    cast.xf_b = xfb;
    cast.translation_b = in.point();
    cast.max_fraction = in.byte() % 2 == 0 ? real(1) : std::abs(in.finite_number(1));
    const CastOutput out = shape_cast(cast);
    const bool finite = is_finite(xfa) && is_finite(xfb) && is_finite(cast.translation_b);
    if (!finite) {
        require(out.state == CastState::invalid_input, "shape_cast: non-finite input accepted");
        return;
    }
    const bool near =
        std::max(std::abs(cast.translation_b.x), std::abs(cast.translation_b.y)) <= k_moderate &&
        cast.max_fraction <= k_moderate;
    if (moderate && near && out.state == CastState::hit) {
        require(out.fraction >= 0 && out.fraction <= cast.max_fraction,
                "shape_cast: fraction outside [0, max_fraction]");
        require(is_finite(out.normal) && is_finite(out.point), "shape_cast: hit not finite");
    }
}

// Both shapes moving and turning from the poses to poses read from the input.
void check_time_of_impact(fuzz::FuzzInput& in, const Shape& a, const Transform& xfa, const Shape& b,
                          const Transform& xfb, bool moderate) {
    const auto sweep_from = [&](const Transform& xf) {
        Sweep s;
        s.c1 = xf.p;
        s.a1 = xf.q.angle();
        s.c2 = s.c1 + in.point();
        s.a2 = s.a1 + in.number();
        return s;
    };
    ToiInput toi;
    toi.proxy_a = make_proxy(a);
    toi.proxy_b = make_proxy(b);
    toi.sweep_a = sweep_from(xfa);
    toi.sweep_b = sweep_from(xfb);
    const ToiOutput out = time_of_impact(toi);
    const auto finite_sweep = [](const Sweep& s) {
        return is_finite(s.c1) && is_finite(s.c2) && is_finite(s.a1) && is_finite(s.a2);
    };
    if (!finite_sweep(toi.sweep_a) || !finite_sweep(toi.sweep_b)) {
        require(out.state == CastState::invalid_input, "time_of_impact: non-finite sweep accepted");
        return;
    }
    const auto near = [](const Sweep& s) {
        return std::max({std::abs(s.c2.x), std::abs(s.c2.y), std::abs(s.a2)}) <= k_moderate;
    };
    if (moderate && near(toi.sweep_a) && near(toi.sweep_b)) {
        require(out.state != CastState::invalid_input, "time_of_impact: finite sweep rejected");
        require(out.fraction >= 0 && out.fraction <= toi.max_fraction,
                "time_of_impact: fraction outside [0, max_fraction]");
    }
}

void check_overlap_and_mtv(const Shape& a, const Transform& xfa, const Shape& b,
                           const Transform& xfb, bool moderate, real scale) {
    const bool overlap = overlaps(a, xfa, b, xfb);
    if (!is_finite(xfa) || !is_finite(xfb)) {
        require(!overlap, "overlaps: true for a non-finite pose");
        return;
    }
    if (a.type != ShapeType::polygon || b.type != ShapeType::polygon) {
        return;
    }
    const Mtv mtv = mtv_polygons(a.polygon, xfa, b.polygon, xfb);
    if (moderate) {
        require(mtv.state != MtvState::invalid_input, "mtv_polygons: finite input rejected");
        require(is_finite(mtv.separation) && is_finite(mtv.translation) && is_unit(mtv.normal),
                "mtv_polygons: not finite or no unit normal");
        // They measure the depth by different arithmetic, so within rounding
        // of the coordinates (a box against a bar 5,500 L out, 0.0012 L
        // deep against a 0.00125 L tolerance) either may call it touching.
        // And, as collide's check above, only for conditioned polygons:
        // mtv_polygons separates along face normals, which a sliver's faces
        // all share (two rounded slivers 1,176 L apart end to end along one
        // line, 1e-30 L thick, got a 1.2 L overlap: the radius).
        const real rounding = 16 * std::numeric_limits<real>::epsilon() * scale;
        if (std::abs(mtv.separation + k_touch_tolerance) > rounding && is_conditioned(a, scale) &&
            is_conditioned(b, scale)) {
            require((mtv.state == MtvState::overlapping) == overlap,
                    "mtv_polygons and overlaps disagree");
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzInput in(data, size);
    const std::optional<Shape> a = in.shape();
    const std::optional<Shape> b = in.shape();
    if (!a || !b) {
        return 0;
    }
    const Transform xfa = in.pose();
    const Transform xfb = in.pose();
    const real speculative = std::abs(in.finite_number()) / 64;
    const bool finite = is_finite(xfa) && is_finite(xfb);
    const real scale = finite ? scale_of(*a, xfa, *b, xfb) : 0;
    const bool moderate = finite && scale <= k_moderate && speculative <= k_moderate;
    const DistanceOutput d =
        check_distance(*a, xfa, *b, xfb, moderate, tolerance_at(scale, speculative));
    check_collide(*a, xfa, *b, xfb, speculative, moderate, scale, d);
    check_overlap_and_mtv(*a, xfa, *b, xfb, moderate, scale);
    check_raycast(in, *b, xfb, moderate);
    check_shape_cast(in, *a, xfa, *b, xfb, moderate);
    check_time_of_impact(in, *a, xfa, *b, xfb, moderate);
    return 0;
}
