// The level `sweep run` uses when given no file: a small room with walls,
// ledges and a pit, drawn as text so a reader sees it at a glance.
#pragma once

#include "sweep/io/tiled.hpp"

namespace sweep::app {

/// The built-in level as static geometry (16-pixel tiles, so L = 16), built
/// through the same greedy merge as a loaded map.
io::StaticGeometry builtin_level();

/// Static geometry from a grid of solid cells, as the Tiled loader lays it
/// out: tile (c, r) covers world x in [c*tw, (c+1)*tw], y in [-(r+1)*th, -r*th].
io::StaticGeometry geometry_from_grid(const io::TileGrid& grid, int tile_width, int tile_height);

} // namespace sweep::app
