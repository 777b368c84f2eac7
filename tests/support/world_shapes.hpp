// The shapes of a world as the brute-force checks of world tests see them.
#pragma once

#include <cmath>
#include <vector>

#include "sweep/world.hpp"

namespace sweep::test {

/// A live shape (body frame, in `info`) placed by its body's transform.
struct LiveShape {
    ShapeId id;
    ShapeInfo info;
    Transform xf;
    BodyType type;
};

/// Every live shape of `world`, body by body in World::body_ids' order.
inline std::vector<LiveShape> live_shapes(const World& world) {
    std::vector<LiveShape> out;
    for (const BodyId body : world.body_ids()) {
        const BodyState state = world.body_state(body).value();
        const std::vector<ShapeId> ids = world.body_shapes(body).value();
        for (const ShapeId id : ids) {
            out.push_back({id, world.shape_info(id).value(), state.xf, state.type});
        }
    }
    return out;
}

/// Whether each point of touching pair `c` (shapes `a` and `b`, of a world
/// made with WorldDef `def`, neither of which bounces) keeps to Coulomb's
/// cone: a normal impulse that pushes and a friction impulse within the
/// pair's friction times it (ContactData::tangent_impulse), to a rounding.
inline bool within_coulombs_cone(const ContactData& c, const ShapeInfo& a, const ShapeInfo& b,
                                 const WorldDef& def = {}) {
    const real friction = combine(def.friction_combine, a.material.friction, b.material.friction);
    for (std::size_t i = 0; i < 2; ++i) {
        if (!(c.normal_impulse[i] >= 0) ||
            std::abs(c.tangent_impulse[i]) > friction * c.normal_impulse[i] * (1 + 1e-5) + 1e-9) {
            return false;
        }
    }
    return true;
}

} // namespace sweep::test
