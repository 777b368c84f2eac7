// The shapes of a world as the brute-force checks of world tests see them.
#pragma once

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

} // namespace sweep::test
