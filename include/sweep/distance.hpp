// GJK distance between convex shapes (after Catto, "Computing Distance",
// GDC 2010, and Box2D's b2Distance), and the shape proxies it works on.
#pragma once

#include <array>
#include <cstdint>

#include "sweep/math.hpp"
#include "sweep/shapes.hpp"

namespace sweep {

/// A convex shape for GJK: the convex hull of `points` (local frame, L)
/// grown by `radius` (L). A circle is one point; a segment two.
struct ShapeProxy {
    std::array<Vec2, k_max_polygon_vertices> points{};
    int count = 0;
    real radius = 0;
};

/// The proxy of a circle, polygon, segment or chain segment (its segment).
ShapeProxy make_proxy(const Shape& shape);
/// A proxy from up to k_max_polygon_vertices points (more are ignored) and a radius.
ShapeProxy make_proxy(std::span<const Vec2> points, real radius);

/// Index of the proxy point furthest along `direction` (local frame).
int find_support(const ShapeProxy& proxy, Vec2 direction);

/// Warm start for GJK: the simplex vertices (by support index) of the last
/// call on the same pair. Zero-initialise for a cold start.
struct SimplexCache {
    std::uint16_t count = 0;
    std::array<std::uint8_t, 3> index_a{};
    std::array<std::uint8_t, 3> index_b{};
};

/// Input of distance(): two proxies placed by their world transforms.
struct DistanceInput {
    ShapeProxy proxy_a;
    ShapeProxy proxy_b;
    Transform xf_a;
    Transform xf_b;
    bool use_radii = true; ///< measure to the rounded surfaces, not the cores
};

/// How distance() ended.
enum class DistanceState {
    separated,     ///< the cores are apart: normal and witness points are valid
    cores_overlap, ///< the cores overlap (distance 0); no normal is defined
    invalid_input, ///< a transform is NaN or infinite; nothing else is valid
};

/// Result of distance(), in world coordinates.
struct DistanceOutput {
    Vec2 point_a;      ///< closest point on A (on its rounded surface with use_radii)
    Vec2 point_b;      ///< closest point on B
    Vec2 normal;       ///< unit vector from A to B; zero unless state == separated
    real distance = 0; ///< >= 0, L; 0 when touching or overlapping
    int iterations = 0;
    int simplex_count = 0;
    DistanceState state = DistanceState::separated;
};

/// Closest points and distance between two convex proxies (GJK). With
/// use_radii, when the cores are apart but the rounded shapes overlap the
/// distance is 0 and the witness points coincide at the midpoint; the
/// normal stays the cores' normal. Concentric or overlapping cores report
/// cores_overlap rather than a zero normal, as do cores whose closest points
/// lie within 4 ulps of 1 plus the largest coordinate of B's position in
/// A's frame (touching to rounding: their direction is noise). GJK runs in
/// A's frame, so shapes far from the world origin keep the precision they
/// have near it. `cache` is read as a warm start and updated. Never loops
/// more than k_gjk_max_iterations.
DistanceOutput distance(const DistanceInput& input, SimplexCache& cache);

/// Closest points of two segments, as parameters along each.
struct SegmentDistanceOutput {
    Vec2 closest1;             ///< on p1 -> q1
    Vec2 closest2;             ///< on p2 -> q2
    real fraction1 = 0;        ///< closest1 = p1 + fraction1 (q1 - p1), in [0, 1]
    real fraction2 = 0;        ///< closest2 = p2 + fraction2 (q2 - p2), in [0, 1]
    real distance_squared = 0; ///< L^2
};

/// Closest points between segments p1 -> q1 and p2 -> q2 (any frame, L), by
/// minimising the squared distance over both parameters and clamping
/// (Ericson, "Real-Time Collision Detection", 5.1.9). Zero-length segments
/// are points; parallel segments take the closest pair with fraction1 = 0
/// where the choice is free. Inputs must be finite.
SegmentDistanceOutput segment_distance(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2);

} // namespace sweep
