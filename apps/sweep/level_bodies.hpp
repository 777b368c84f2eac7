// A level's static geometry as static bodies of a world.
#pragma once

#include <vector>

#include "sweep/io/tiled.hpp"
#include "sweep/world.hpp"

namespace sweep::app {

/// The bodies made for a level's shapes, in the order of its lists.
struct LevelBodies {
    std::vector<BodyId> boxes;
    std::vector<BodyId> polygons; ///< BodyId{} for a sliver the world cannot hold
    std::vector<BodyId> circles;
    std::vector<BodyId> segments; ///< BodyId{} for a zero-length segment
};

/// Adds one static body per shape of `level`, placed at the shape's centre
/// so that local coordinates stay small (float precision on large maps);
/// slivers the loader kept and the world rejects are skipped. Errors: a box
/// or circle the world rejects (its message, naming level.source).
Result<LevelBodies> add_level_bodies(World& world, const io::StaticGeometry& level);

} // namespace sweep::app
