// Random inputs shared by the geometry kernel's benchmarks, and the
// conversions to Box2D 2.4.1's types, so both libraries see the same numbers.
//
// Every generator takes a seed and returns a fixed array: a benchmark
// iteration runs over all of it (k_cases inputs), so times are per k_cases
// calls.
#pragma once

#include <box2d/b2_math.h>
#include <box2d/b2_polygon_shape.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "sweep/shapes.hpp"

namespace bench {

/// Inputs per benchmark iteration.
inline constexpr int k_cases = 1024;

using Rng = std::mt19937;

inline float uniform(Rng& rng, float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
}

inline sweep::Vec2 random_point(Rng& rng, float half_width) {
    return {uniform(rng, -half_width, half_width), uniform(rng, -half_width, half_width)};
}

inline sweep::Transform random_transform(Rng& rng, float half_width) {
    return {random_point(rng, half_width),
            sweep::Rot::from_angle(uniform(rng, -3.14159f, 3.14159f))};
}

/// A unit vector at a random angle.
inline sweep::Vec2 random_direction(Rng& rng) {
    const float angle = uniform(rng, -3.14159f, 3.14159f);
    return {std::cos(angle), std::sin(angle)};
}

/// A sharp convex polygon of exactly `count` vertices: points at jittered
/// angles on an ellipse (semi-axes 0.3 to 1, turned and slightly off centre),
/// so every point is a hull vertex.
inline sweep::Polygon random_polygon(Rng& rng, int count) {
    for (;;) {
        const float ax = uniform(rng, 0.3f, 1.0f);
        const float ay = uniform(rng, 0.3f, 1.0f);
        const sweep::Transform frame = random_transform(rng, 0.2f);
        std::array<sweep::Vec2, sweep::k_max_polygon_vertices> points{};
        for (int i = 0; i < count; ++i) {
            const float angle = 2 * 3.14159265f * (static_cast<float>(i) + uniform(rng, 0, 0.6f)) /
                                static_cast<float>(count);
            points[i] = transform_point(frame, {ax * std::cos(angle), ay * std::sin(angle)});
        }
        auto polygon = sweep::make_polygon(std::span(points.data(), count));
        if (polygon && polygon->count == count) {
            return *polygon;
        }
    }
}

/// A box of half-extents 0.1 to 1.
inline sweep::Polygon random_box(Rng& rng) {
    return sweep::make_box(uniform(rng, 0.1f, 1.0f), uniform(rng, 0.1f, 1.0f)).value();
}

inline b2Vec2 to_b2(sweep::Vec2 v) { return {v.x, v.y}; }

inline b2Transform to_b2(const sweep::Transform& xf) {
    b2Transform out;
    out.p = to_b2(xf.p);
    out.q.c = xf.q.c;
    out.q.s = xf.q.s;
    return out;
}

/// Box2D's polygon with our vertices, normals and centroid in our order (so
/// that both start GJK from the same vertex) and Box2D's default skin,
/// m_radius = b2_polygonRadius.
inline b2PolygonShape to_b2(const sweep::Polygon& polygon) {
    b2PolygonShape out;
    out.m_count = polygon.count;
    for (int i = 0; i < polygon.count; ++i) {
        out.m_vertices[i] = to_b2(polygon.vertices[i]);
        out.m_normals[i] = to_b2(polygon.normals[i]);
    }
    out.m_centroid = to_b2(polygon.centroid);
    return out;
}

} // namespace bench
