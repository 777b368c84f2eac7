// Vectors, rotations, rigid transforms and axis-aligned boxes in the plane.
//
// Frame: y up, angles in radians counter-clockwise (docs/conventions.md).
// Lengths are world units L; see constants.hpp for how tolerances scale with L.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace sweep {

#if defined(SWEEP_DOUBLE)
/// The scalar type of every coordinate, time and angle: double when the
/// library is built with SWEEP_DOUBLE=ON (a PUBLIC definition), float otherwise.
using real = double;
#else
/// The scalar type of every coordinate, time and angle: double when the
/// library is built with SWEEP_DOUBLE=ON (a PUBLIC definition), float otherwise.
using real = float;
#endif

/// pi in the library's precision.
inline constexpr real k_pi = real(3.14159265358979323846);

/// A 2D vector or point in world units L.
struct Vec2 {
    real x = 0; ///< x coordinate (right)
    real y = 0; ///< y coordinate (up)

    constexpr Vec2& operator+=(Vec2 v) {
        x += v.x;
        y += v.y;
        return *this;
    }
    constexpr Vec2& operator-=(Vec2 v) {
        x -= v.x;
        y -= v.y;
        return *this;
    }
    constexpr Vec2& operator*=(real s) {
        x *= s;
        y *= s;
        return *this;
    }
    friend constexpr bool operator==(Vec2, Vec2) = default;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(real s, Vec2 v) { return {s * v.x, s * v.y}; }
constexpr Vec2 operator*(Vec2 v, real s) { return {s * v.x, s * v.y}; }

/// Dot product.
constexpr real dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
/// 2D cross product (the z component of the 3D cross product).
constexpr real cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
/// cross(v, s): v rotated clockwise by 90 degrees and scaled by s.
constexpr Vec2 cross(Vec2 v, real s) { return {s * v.y, -s * v.x}; }
/// cross(s, v): v rotated counter-clockwise by 90 degrees and scaled by s
/// (the velocity of a point at offset v under angular velocity s).
constexpr Vec2 cross(real s, Vec2 v) { return {-s * v.y, s * v.x}; }
/// v rotated counter-clockwise by 90 degrees.
constexpr Vec2 left_perp(Vec2 v) { return {-v.y, v.x}; }
/// v rotated clockwise by 90 degrees.
constexpr Vec2 right_perp(Vec2 v) { return {v.y, -v.x}; }
constexpr Vec2 min(Vec2 a, Vec2 b) { return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y}; }
constexpr Vec2 max(Vec2 a, Vec2 b) { return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y}; }
constexpr Vec2 lerp(Vec2 a, Vec2 b, real t) {
    return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
}
constexpr real length_squared(Vec2 v) { return v.x * v.x + v.y * v.y; }
inline real length(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }
inline real distance(Vec2 a, Vec2 b) { return length(b - a); }
/// True when both coordinates are finite (no NaN, no infinity).
inline bool is_finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

/// v scaled to unit length, to full precision even when its square is
/// subnormal or underflows; a vector whose largest coordinate is below
/// 1e-30 (the zero vector among them) gives zero (callers that need a
/// direction must check for it). NaN or infinite coordinates give NaN.
inline Vec2 normalize(Vec2 v) {
    const real len = length(v);
    if (len >= real(1e-30) && len * len >= std::numeric_limits<real>::min()) {
        return (real(1) / len) * v;
    }
    if (!std::isfinite(len)) {
        return (real(1) / len) * v; // NaN coordinates: NaN out
    }
    // The square was subnormal or underflowed: the length carries few bits,
    // or none (a segment 6e-27 L long had no normal in float). Scaled to a
    // largest coordinate of 1 first, the direction keeps them all.
    const real largest = std::max(std::abs(v.x), std::abs(v.y));
    if (largest < real(1e-30)) {
        return {};
    }
    const Vec2 scaled{v.x / largest, v.y / largest};
    return (real(1) / length(scaled)) * scaled;
}

/// A rotation stored as cosine and sine (counter-clockwise, radians).
struct Rot {
    real c = 1; ///< cosine of the angle
    real s = 0; ///< sine of the angle

    /// The rotation by `angle` radians counter-clockwise.
    static Rot from_angle(real angle) { return {std::cos(angle), std::sin(angle)}; }
    /// The angle in (-pi, pi].
    real angle() const { return std::atan2(s, c); }
    friend constexpr bool operator==(Rot, Rot) = default;
};

/// Rotates v by q.
constexpr Vec2 rotate(Rot q, Vec2 v) { return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y}; }
/// Rotates v by the inverse of q.
constexpr Vec2 inv_rotate(Rot q, Vec2 v) { return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y}; }
/// The rotation q then r, i.e. r * q.
constexpr Rot mul(Rot r, Rot q) { return {r.c * q.c - r.s * q.s, r.s * q.c + r.c * q.s}; }
/// inverse(r) * q.
constexpr Rot inv_mul(Rot r, Rot q) { return {r.c * q.c + r.s * q.s, r.c * q.s - r.s * q.c}; }

/// A rigid transform: rotate by q, then translate by p. Maps a shape's local
/// frame to the world frame.
struct Transform {
    Vec2 p; ///< translation in world units L
    Rot q;  ///< rotation
    friend constexpr bool operator==(Transform, Transform) = default;
};

/// The identity transform.
inline constexpr Transform k_identity{};

/// Maps a local point to the world.
constexpr Vec2 transform_point(const Transform& xf, Vec2 v) { return rotate(xf.q, v) + xf.p; }
/// Maps a world point to the local frame of xf.
constexpr Vec2 inv_transform_point(const Transform& xf, Vec2 v) {
    return inv_rotate(xf.q, v - xf.p);
}
/// The transform b then a: a * b.
constexpr Transform mul(const Transform& a, const Transform& b) {
    return {rotate(a.q, b.p) + a.p, mul(a.q, b.q)};
}
/// inverse(a) * b: the frame of b seen from the frame of a.
constexpr Transform inv_mul(const Transform& a, const Transform& b) {
    return {inv_rotate(a.q, b.p - a.p), inv_mul(a.q, b.q)};
}
/// True when the translation and the rotation are finite.
inline bool is_finite(const Transform& xf) {
    return is_finite(xf.p) && std::isfinite(xf.q.c) && std::isfinite(xf.q.s);
}

/// An axis-aligned bounding box in world units; valid when lower <= upper.
struct Aabb {
    Vec2 lower; ///< minimum corner
    Vec2 upper; ///< maximum corner
    friend constexpr bool operator==(const Aabb&, const Aabb&) = default;
};

/// True when a and b share at least a boundary point (touching counts).
constexpr bool overlaps(const Aabb& a, const Aabb& b) {
    return !(b.lower.x > a.upper.x || b.lower.y > a.upper.y || a.lower.x > b.upper.x ||
             a.lower.y > b.upper.y);
}
/// True when b lies inside a (boundaries included).
constexpr bool contains(const Aabb& a, const Aabb& b) {
    return a.lower.x <= b.lower.x && a.lower.y <= b.lower.y && b.upper.x <= a.upper.x &&
           b.upper.y <= a.upper.y;
}
/// The smallest box holding a and b.
constexpr Aabb union_of(const Aabb& a, const Aabb& b) {
    return {min(a.lower, b.lower), max(a.upper, b.upper)};
}
/// The box grown by `margin` on every side.
constexpr Aabb inflate(const Aabb& a, real margin) {
    return {{a.lower.x - margin, a.lower.y - margin}, {a.upper.x + margin, a.upper.y + margin}};
}
constexpr Vec2 center(const Aabb& a) { return real(0.5) * (a.lower + a.upper); }
constexpr Vec2 extents(const Aabb& a) { return real(0.5) * (a.upper - a.lower); }
/// The point of `a` (a valid box, L) nearest `p`: `p` clamped to it, itself when inside.
constexpr Vec2 closest_point(const Aabb& a, Vec2 p) { return max(a.lower, min(p, a.upper)); }
/// Perimeter: the surface-area measure of a 2D box used by tree heuristics.
constexpr real perimeter(const Aabb& a) {
    return real(2) * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y));
}
/// True when finite and lower <= upper.
inline bool is_valid(const Aabb& a) {
    return is_finite(a.lower) && is_finite(a.upper) && a.lower.x <= a.upper.x &&
           a.lower.y <= a.upper.y;
}

} // namespace sweep
