// Static collision geometry from Tiled maps (.tmx XML, .tmj/.json JSON).
//
// The loader reads the tile layers that are marked solid, combines their
// non-empty cells into one grid and merges the cells greedily into boxes.
// Frames and units (docs/conventions.md): map pixels are world units and y is
// flipped, so the Tiled pixel point (px, py) becomes the world point (px, -py);
// one tile height is one metre. Tilesets, images and templates are never
// opened: collision comes from solid tile layers only.
//
// Format reference: the TMX Map Format and JSON Map Format pages of the Tiled
// documentation (doc.mapeditor.org), which this loader follows for tile layers.
#pragma once

#include <sweep/math.hpp>
#include <sweep/result.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sweep::io {

/// How load_tiled_map decides which tile layers are solid.
struct TiledLoadOptions {
    /// Tile layers whose every non-empty cell is solid, by exact name. A name
    /// also selects every tile layer inside a group layer of that name.
    /// Empty = automatic: a tile layer (or an enclosing group) named
    /// collision, collisions, solid, solids, wall or walls (any case), or one
    /// with a truthy custom property solid, collides or collision
    /// (true, 1, "true", "1", "yes"). A falsy property overrides the name.
    std::vector<std::string> solid_layers;
};

/// The solid cells of all solid layers combined, in tile coordinates
/// (column right, row down, as in Tiled). Covers the union of the solid
/// layers' extents (the layer size, or its chunks in infinite maps).
struct TileGrid {
    int min_x = 0;  ///< tile column of cell (0,0) of `solid` (negative in some infinite maps)
    int min_y = 0;  ///< tile row of cell (0,0) of `solid` (negative in some infinite maps)
    int width = 0;  ///< columns in `solid`
    int height = 0; ///< rows in `solid`
    std::vector<std::uint8_t> solid; ///< width*height, row-major, row 0 = top row; 1 = solid

    /// True when the cell at tile column `x`, row `y` (absolute tile
    /// coordinates, min_x/min_y included) is solid; false outside the grid.
    bool is_solid(int x, int y) const {
        const long long cx = static_cast<long long>(x) - min_x;
        const long long cy = static_cast<long long>(y) - min_y;
        if (cx < 0 || cy < 0 || cx >= width || cy >= height) {
            return false;
        }
        return solid[static_cast<std::size_t>(cy * width + cx)] != 0;
    }
};

/// A rectangle of whole cells in absolute tile coordinates (row down).
struct TileRect {
    int x = 0; ///< leftmost column
    int y = 0; ///< top row
    int w = 0; ///< columns, >= 1
    int h = 0; ///< rows, >= 1
    friend constexpr bool operator==(const TileRect&, const TileRect&) = default;
};

/// What the world needs from a map, in world units (map pixels, y up).
struct StaticGeometry {
    std::string source;              ///< the file path as given to load_tiled_map
    real length_units_per_meter = 1; ///< the map's tile height in pixels (one tile = one metre)
    int tile_width = 0;              ///< map tile width, pixels
    int tile_height = 0;             ///< map tile height, pixels
    Aabb bounds;   ///< extent of all tile layers (infinite chunks included), world units
    TileGrid grid; ///< the raw solid cells
    std::size_t solid_tiles =
        0; ///< solid cells before merging (cells solid in several layers count once)
    std::vector<Aabb> boxes; ///< solid cells merged greedily into disjoint rectangles, world units
    std::vector<std::string> solid_layer_names; ///< the tile layers taken as solid, in file order
    /// Non-empty cells of each solid layer, in the order of solid_layer_names.
    std::vector<std::pair<std::string, std::size_t>> solid_layer_counts;
};

/// Loads the static collision geometry of an orthogonal Tiled map.
///
/// The format is sniffed from the first character ('<' TMX, '{' JSON), not
/// from the extension. Tile data may be CSV, base64 (uncompressed, zlib,
/// gzip or zstd), JSON arrays or legacy XML <tile> elements, in fixed-size
/// layers or infinite-map chunks; group layers are searched; hidden layers
/// count. Global tile ids have their flip/rotation bits 31..28 masked off;
/// any non-zero id is a tile.
///
/// Errors (never exceptions); each message names the file, the layer and the
/// field, e.g. `x.tmx: layer "Ground": data: unknown compression "lzma"`:
/// - io_error: the file cannot be opened or read;
/// - parse_error: malformed XML/JSON (with line), bad base64 or compressed
///   stream, a wrong cell count, a non-numeric id, a missing, negative,
///   non-integer or zero size;
/// - unsupported: a non-orthogonal map, an unknown encoding or compression,
///   or no solid layer found (the message says how to name one);
/// - invalid_input: a name in options.solid_layers that is not in the map;
/// - limit_exceeded: a file over 1 GiB, a layer, chunk or grid over 64M
///   cells, tile coordinates beyond +-2^28, tiles over 65536 pixels, data
///   that decodes to more than width*height*4 bytes, or tile layers reaching
///   beyond +-2^24 pixels (float `real`; 2^53 with SWEEP_DOUBLE), where world
///   coordinates would no longer be exact.
Result<StaticGeometry> load_tiled_map(const std::filesystem::path& file,
                                      const TiledLoadOptions& options = {});

/// Loads the static collision geometry of a Tiled map held in memory: the
/// same as load_tiled_map on a file whose contents are `text`, for maps that
/// come from an archive, a network or a fuzzer instead of a file.
///
/// `name` stands for the file in every message and becomes
/// StaticGeometry::source; it is never opened (nor is anything else: the
/// loader opens no tilesets or templates). `text` is read, not kept.
///
/// Errors as load_tiled_map, without io_error: limit_exceeded for text over
/// 1 GiB, parse_error for empty text or text that is neither TMX nor JSON.
Result<StaticGeometry> load_tiled_map_from_memory(std::string_view text, std::string_view name,
                                                  const TiledLoadOptions& options = {});

/// Merges the solid cells of `grid` greedily into disjoint rectangles that
/// cover every solid cell exactly once, in absolute tile coordinates.
///
/// Method: scan rows top to bottom and each row left to right; at each solid
/// cell not yet covered, extend a run right while cells are solid and
/// uncovered, then extend the run down while the whole span of the next row
/// is solid and uncovered. Rectangles come out in scan order of their top-left
/// cell. O(width*height) time plus the covered area.
std::vector<TileRect> merge_solid_cells(const TileGrid& grid);

} // namespace sweep::io
