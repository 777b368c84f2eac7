// Bodies: how they move (static, kinematic, dynamic), where they start, and
// the shapes and materials they carry.
#pragma once

#include <algorithm>
#include <cmath>
#include <compare>
#include <cstdint>

#include "sweep/filter.hpp"
#include "sweep/math.hpp"
#include "sweep/shapes.hpp"

namespace sweep {

/// How a body moves.
enum class BodyType {
    static_body, ///< never moves; infinite mass
    kinematic,   ///< moves by its velocity only; infinite mass; pushes dynamics
    dynamic,     ///< moved by gravity and contacts
};

/// A handle to a body: an index and a generation. A handle whose body was
/// destroyed is stale: every call taking it returns ErrorCode::stale_handle.
struct BodyId {
    std::int32_t index = -1;
    std::uint32_t generation = 0;
    friend constexpr bool operator==(BodyId, BodyId) = default;
};

/// Surface and bulk properties of a shape.
struct Material {
    real density = 1; ///< mass per L^2 (>= 0; 0 on a dynamic body makes it massless: rejected)
    real friction = real(0.6); ///< Coulomb coefficient (>= 0); pairs combine by WorldDef's rule
    real restitution = 0; ///< 0 (no bounce) to 1 (elastic), no more; pairs combine by WorldDef's rule
    /// Rolling resistance (dimensionless, >= 0): a contact resists the
    /// relative spin of its two bodies with a torque of at most this
    /// (the larger of the pair's) times the larger rounding radius of the
    /// two shapes (rounding_radius: a circle's radius) times the normal
    /// force, so a disc rolling on level ground slows at 2/3 of this times
    /// gravity and one on a slope steeper than atan of this rolls. A
    /// contact of two unrounded shapes (boxes) has none. Without it
    /// nothing but the solver takes energy from rolling without slipping:
    /// a disc rocking in a hollow of a pile rocks on. Box2D v3.1's rolling
    /// resistance.
    real rolling_resistance = 0;
};

/// How a contact combines the two shapes' friction or restitution.
enum class CombineRule {
    geometric_mean, ///< sqrt(a b): Box2D's friction rule (a frictionless side wins)
    average,        ///< (a + b) / 2
    minimum,        ///< min(a, b)
    maximum,        ///< max(a, b): Box2D's restitution rule (a bouncy side bounces)
    multiply,       ///< a b
};

/// `rule` applied to a and b.
inline real combine(CombineRule rule, real a, real b) {
    switch (rule) {
    case CombineRule::geometric_mean:
        return std::sqrt(a * b);
    case CombineRule::average:
        return (a + b) / 2;
    case CombineRule::minimum:
        return std::min(a, b);
    case CombineRule::maximum:
        return std::max(a, b);
    case CombineRule::multiply:
        return a * b;
    }
    return a;
}

/// A handle to a shape on a body: an index and a generation. Stale once its
/// body is destroyed (every call taking it returns ErrorCode::stale_handle).
struct ShapeId {
    std::int32_t index = -1;
    std::uint32_t generation = 0;
    friend constexpr bool operator==(ShapeId, ShapeId) = default;
    friend constexpr auto operator<=>(ShapeId, ShapeId) = default;
};

/// A shape attached to a body, in the body's frame.
struct ShapeDef {
    Shape shape;
    Material material;
    Filter filter;               ///< which other shapes it collides with
    bool sensor = false;         ///< detects overlaps (sensor events) but never collides
    std::uint64_t user_data = 0; ///< the caller's, returned by shape_info

    ShapeDef() = default;
    /// A colliding shape with `material`, the default filter, no user data.
    ShapeDef(const Shape& s, const Material& m = {}) : shape(s), material(m) {} // NOLINT
};

/// The initial state of a body. Units: L, L/s, radians, rad/s.
struct BodyDef {
    BodyType type = BodyType::static_body;
    Vec2 position;        ///< body origin, world
    real angle = 0;       ///< radians counter-clockwise
    Vec2 linear_velocity; ///< of the centre of mass
    real angular_velocity = 0;
    real gravity_scale = 1;
    real linear_damping = 0;  ///< 1/s, >= 0
    real angular_damping = 0; ///< 1/s, >= 0
    bool fixed_rotation = false;
    std::uint64_t user_data = 0; ///< the caller's, returned by body_state
};

} // namespace sweep
