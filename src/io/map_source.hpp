// Private: a Tiled map as the two readers (TMX, JSON) hand it over: tile
// layers with their extents and a way to decode each piece of data on
// demand, so that only the solid layers are ever decoded. build_geometry
// turns it into StaticGeometry independently of the file format.
#pragma once

#include <sweep/io/tiled.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::io::detail {

/// Budgets of the loader (see load_tiled_map).
inline constexpr std::int64_t k_max_cells =
    64ll * 1024 * 1024;                                     ///< per layer, chunk, grid and in total
inline constexpr std::int64_t k_max_coordinate = 1ll << 28; ///< |tile coordinate|, tiles
inline constexpr std::int64_t k_max_tile_pixels = 65536;    ///< tile width/height, pixels
inline constexpr std::int64_t k_max_file_bytes = 1ll << 30; ///< map file size

/// A rectangle of cells with its data: the whole layer of a fixed-size map,
/// or one <chunk> of an infinite map. Coordinates in tiles, row down.
struct ChunkSource {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
    /// The width*height gids, row-major; errors carry the full context.
    std::function<Result<std::vector<std::uint32_t>>()> decode;
};

/// A tile layer (possibly inside group layers).
struct TileLayerSource {
    std::string name;                ///< the layer's name
    std::string label;               ///< how messages name it: `layer "Ground"` or `layer id 3`
    std::vector<std::string> groups; ///< names of the enclosing group layers, outermost first
    bool auto_solid = false;         ///< solid by the automatic rule (see is_auto_solid)
    std::vector<ChunkSource> chunks; ///< its data
};

/// A map as read from the file, before any tile data is decoded.
struct MapSource {
    std::string file;                         ///< the path, for messages and StaticGeometry::source
    int tile_width = 0;                       ///< pixels, validated positive
    int tile_height = 0;                      ///< pixels, validated positive
    std::vector<TileLayerSource> tile_layers; ///< in file order, groups flattened
};

/// True for a layer name that means collision by convention: collision,
/// collisions, solid, solids, wall, walls (ASCII case-insensitive).
bool is_collision_name(std::string_view name);

/// The truth of a custom property value written as text: true for "true",
/// "1", "yes", false for "false", "0", "no" (case-insensitive), nullopt else.
std::optional<bool> parse_truth(std::string_view text);

/// True for the names of the properties that mark a layer solid: solid,
/// collides, collision (case-insensitive).
bool is_solid_property_name(std::string_view name);

/// The automatic rule for a layer or a group: its own solid property if it
/// has one, else solid when an enclosing group is, else by its name.
bool is_auto_solid(std::string_view name, std::optional<bool> solid_property, bool inherited);

/// Combines two solid properties found on one layer: any true wins.
std::optional<bool> combine_truth(std::optional<bool> a, std::optional<bool> b);

/// A tile coordinate or size read from the file, checked against the budgets
/// (limit_exceeded) and for sign (parse_error when `non_negative` fails).
Result<int> checked_tile_value(std::int64_t value, bool non_negative, std::string_view where);

/// A width*height that must stay within k_max_cells (limit_exceeded).
Result<void> check_cell_count(std::int64_t width, std::int64_t height, std::string_view where);

/// The StaticGeometry of the map: selects the solid layers (options or the
/// automatic rule), decodes them, merges their cells into boxes.
Result<StaticGeometry> build_geometry(const MapSource& map, const TiledLoadOptions& options);

} // namespace sweep::io::detail
