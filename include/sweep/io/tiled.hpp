// Static collision geometry from Tiled maps (.tmx XML, .tmj/.json JSON).
//
// The loader finds what collides (docs/tiled.md: the automatic rule, or the
// layers and properties named in TiledLoadOptions), reads tile layers,
// object layers, tilesets (embedded or external, with per-tile collision
// shapes) and object templates, and turns them into world geometry: solid
// cells merged greedily into boxes, plus convex polygons, circles and
// two-sided segments for everything that is not a whole cell.
// Frames and units (docs/conventions.md): map pixels are world units and y is
// flipped, so the Tiled pixel point (px, py) becomes the world point (px, -py)
// and a clockwise Tiled rotation becomes a counter-clockwise one; one tile
// height is one metre. Images are never opened.
//
// Format reference: the TMX Map Format and JSON Map Format pages of the Tiled
// documentation (doc.mapeditor.org).
#pragma once

#include <sweep/math.hpp>
#include <sweep/result.hpp>
#include <sweep/shapes.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sweep::io {

/// Reads an external file a map refers to (a tileset or a template) and
/// returns its contents; errors name the file.
using FileReader = std::function<Result<std::string>(const std::filesystem::path&)>;

/// A custom property that marks things solid: `key` is truthy (true, 1, yes,
/// or bodyType static) when `value` is empty, else equals `value`
/// (case-insensitive). Written KEY or KEY=VALUE on the command line.
struct SolidProperty {
    std::string key;                  ///< property name, exact
    std::optional<std::string> value; ///< wanted value; none = any truthy value
    friend bool operator==(const SolidProperty&, const SolidProperty&) = default;
};

/// Parses `KEY` or `KEY=VALUE`. Errors (invalid_input): an empty key.
Result<SolidProperty> parse_solid_property(std::string_view text);

/// How load_tiled_map decides what collides.
struct TiledLoadOptions {
    /// Layers (tile or object) whose every tile or shape object collides, by
    /// exact name; a name also selects every layer inside a group layer of
    /// that name. Empty together with solid_properties = the automatic rule
    /// of docs/tiled.md.
    std::vector<std::string> solid_layers;
    /// Layers, groups, objects and tileset tiles that collide because of one
    /// of these properties. Giving solid_layers or solid_properties replaces
    /// the automatic rule.
    std::vector<SolidProperty> solid_properties;
    /// Reads tilesets and templates. Empty: load_tiled_map reads the file
    /// system; load_tiled_map_from_memory opens nothing, and external
    /// tilesets and templates are then skipped with a warning.
    FileReader read_file;
};

/// The solid cells of all solid layers combined, in tile coordinates
/// (column right, row down, as in Tiled). Covers the union of the extents of
/// the tile layers that were read (the layer size, or its chunks in infinite
/// maps).
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

/// How many static shapes the map gave, before and after merging.
struct ShapeCounts {
    std::size_t solid_cells = 0;   ///< whole solid cells (each one box before merging)
    std::size_t tile_shapes = 0;   ///< shapes from per-tile collision shapes (not whole cells)
    std::size_t object_shapes = 0; ///< shapes from objects (after decomposition)
    std::size_t objects = 0;       ///< collision objects taken (tile objects included)
    std::size_t before_merge = 0;  ///< solid_cells + tile_shapes + object_shapes
    std::size_t after_merge = 0;   ///< boxes + polygons + circles + segments
};

/// What the world needs from a map, in world units (map pixels, y up).
/// Every shape is in world coordinates: a static body at the origin with the
/// identity transform holds it as it is.
struct StaticGeometry {
    std::string source;              ///< the file path as given to load_tiled_map
    real length_units_per_meter = 1; ///< the map's tile height in pixels (one tile = one metre)
    int tile_width = 0;              ///< map tile width, pixels
    int tile_height = 0;             ///< map tile height, pixels
    /// Extent of the map: its tile layers (infinite chunks included), its
    /// header size, and every static shape, world units.
    Aabb bounds;
    TileGrid grid; ///< the raw solid cells
    std::size_t solid_tiles =
        0; ///< solid cells before merging (cells solid in several layers count once)
    std::vector<Aabb> boxes;       ///< solid cells merged greedily into disjoint rectangles
    std::vector<Polygon> polygons; ///< convex pieces (at most 8 vertices), counter-clockwise
    std::vector<Circle> circles;   ///< round ellipses
    std::vector<Segment> segments; ///< open polylines, solid on both sides
    std::vector<std::string>
        solid_layer_names; ///< the tile layers with colliding cells, in file order
    /// Colliding non-empty cells of each such layer, in the order of solid_layer_names.
    std::vector<std::pair<std::string, std::size_t>> solid_layer_counts;
    /// Object layers with colliding objects, and how many each gave.
    std::vector<std::pair<std::string, std::size_t>> object_layer_counts;
    ShapeCounts counts; ///< shapes before and after merging
    /// Problems that did not stop the load, one line each naming the file and
    /// the object: degenerate collision objects, missing templates, files
    /// not opened.
    std::vector<std::string> warnings;
};

/// Loads the static collision geometry of an orthogonal Tiled map.
///
/// The format is sniffed from the first character ('<' TMX, '{' JSON), not
/// from the extension. Tile data may be CSV, base64 (uncompressed, zlib,
/// gzip or zstd), JSON arrays or legacy XML <tile> elements, in fixed-size
/// layers or infinite-map chunks; group layers are searched; hidden layers
/// count. Global tile ids have their flag bits 31..28 split off: H, V and
/// diagonal flips transform per-tile collision shapes. External tilesets
/// (.tsx, .tsj, .json) and templates (.tx, .tj) are read in either format,
/// relative to the file that names them. What collides, and how objects
/// become shapes, is documented in docs/tiled.md.
///
/// Errors (never exceptions); each message names the file, the place
/// (layer, object id, line) and the field, e.g.
/// `x.tmx: layer "Ground": data: unknown compression "lzma"`:
/// - io_error: the map or a tileset it needs cannot be opened or read;
/// - parse_error: malformed XML/JSON (with line), bad base64 or compressed
///   stream, a wrong cell count, a non-numeric id or coordinate, a missing,
///   negative, non-integer or zero size, a gid beyond every tileset;
/// - unsupported: a non-orthogonal map, an unknown encoding or compression,
///   or nothing that collides (the message says how to mark it);
/// - invalid_input: a tileset or template given instead of a map, a name in
///   options.solid_layers that is not in the map, solid_properties that
///   match nothing;
/// - limit_exceeded: a file over 1 GiB, a layer, chunk or grid over 64M
///   cells, tile coordinates beyond +-2^28, tiles over 65536 pixels, data
///   that decodes to more than width*height*4 bytes, tile layers or shapes
///   reaching beyond +-2^24 pixels (float `real`; 2^53 with SWEEP_DOUBLE),
///   more than 1024 external files, 2^20 objects, 4096 points in one
///   polygon or 4M shapes.
/// Degenerate collision objects (zero-size rectangles or ellipses, polygons
/// with fewer than 3 distinct points) and missing templates are warnings
/// (StaticGeometry::warnings); the map still loads.
Result<StaticGeometry> load_tiled_map(const std::filesystem::path& file,
                                      const TiledLoadOptions& options = {});

/// Loads the static collision geometry of a Tiled map held in memory: the
/// same as load_tiled_map on a file whose contents are `text`, for maps that
/// come from an archive, a network or a fuzzer instead of a file.
///
/// `name` stands for the file in every message and becomes
/// StaticGeometry::source; it is never opened. External tilesets and
/// templates are read with options.read_file, relative to `name`; without
/// one nothing is opened and they are skipped with a warning (their tiles
/// then have no collision shapes or properties). `text` is read, not kept.
///
/// Errors as load_tiled_map, without io_error for the map itself:
/// limit_exceeded for text over 1 GiB, parse_error for empty text or text
/// that is neither TMX nor JSON.
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
