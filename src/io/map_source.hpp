// Private: a Tiled map as the two readers (TMX, JSON) hand it over, in one
// format-neutral model: tile layers with their extents and a way to decode
// each piece of data on demand, object layers with their objects (templates
// already applied), and the tilesets with their per-tile collision shapes
// (external ones already read). build_geometry turns it into StaticGeometry
// independently of the file format (map_source.cpp, shapes.cpp).
#pragma once

#include <sweep/io/tiled.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sweep::io::detail {

/// Budgets of the loader (see load_tiled_map).
inline constexpr std::int64_t k_max_cells =
    64ll * 1024 * 1024;                                     ///< per layer, chunk, grid and in total
inline constexpr std::int64_t k_max_coordinate = 1ll << 28; ///< |tile coordinate|, tiles
inline constexpr std::int64_t k_max_tile_pixels = 65536;    ///< tile width/height, pixels
inline constexpr std::int64_t k_max_file_bytes = 1ll << 30; ///< map file size
inline constexpr std::size_t k_max_external_files = 1024;   ///< tilesets and templates opened
inline constexpr std::size_t k_max_points = 1024;           ///< points of one polygon or polyline
inline constexpr std::size_t k_max_objects = 1u << 20;      ///< objects in all object layers
inline constexpr std::size_t k_max_shapes = 4u << 20;       ///< static shapes after placing
/// |coordinate| of an object or shape point, pixels: beyond it float world
/// coordinates lose whole pixels (and with double, far more than any map).
inline constexpr double k_max_pixel_coordinate = 16777216.0;

/// A point in Tiled's pixel frame (x right, y down), in double precision.
struct PixelPoint {
    double x = 0;
    double y = 0;
};

/// Custom properties by name, values as text: booleans "true"/"false",
/// numbers as written, strings as they are; class and list values are kept
/// as "" (nothing in the collision rules reads them). Later entries win.
using Properties = std::vector<std::pair<std::string, std::string>>;

/// The value of property `name` (exact name), if present.
const std::string* find_property(const Properties& properties, std::string_view name);

/// What an object is.
enum class ObjectKind { rectangle, ellipse, point, polygon, polyline, text, tile };

/// An object as written in a map, a template or a tile's collision group;
/// every attribute optional so that a template instance can override only
/// what it sets (Tiled: "Object templates").
struct ObjectSource {
    std::int64_t id = 0;                 ///< 0 when absent (templates, old maps)
    std::string label;                   ///< how messages name it: `object id 12` or `object 3`
    std::optional<std::string> name;     ///< name attribute
    std::optional<std::string> type;     ///< type (class since Tiled 1.9)
    std::optional<double> x, y;          ///< position, pixels
    std::optional<double> width, height; ///< size, pixels
    std::optional<double> rotation;      ///< degrees clockwise about (x, y)
    std::optional<std::uint32_t> gid;    ///< tile objects: global id with flag bits
    std::optional<ObjectKind> kind;      ///< from <ellipse/>, <point/>, points, <text>
    std::vector<PixelPoint> points;      ///< polygon or polyline, relative to (x, y)
    Properties properties;               ///< its own (instance over template)
    std::string template_source;         ///< as written, "" for none
};

struct Tileset;

/// A tileset as seen from one gid scope (a map or a template file).
struct TilesetRef {
    std::uint32_t first_gid = 1;
    std::shared_ptr<const Tileset> tileset;
};

/// What a tileset says about one of its tiles.
struct TileInfo {
    Properties properties;
    std::vector<ObjectSource> shapes; ///< its <objectgroup>: collision shapes in tile pixels
    double image_width = 0;           ///< image collections: the tile's own image size
    double image_height = 0;
};

/// A tileset: embedded in a map or a template, or read from a .tsx/.tsj/.json.
struct Tileset {
    std::string file;  ///< where it is defined, for messages
    std::string label; ///< `tileset "name"` (for messages)
    int tile_width = 0;
    int tile_height = 0;
    std::int64_t tile_count = -1; ///< -1 when neither given nor derivable from the image
    double offset_x = 0;          ///< <tileoffset>, pixels
    double offset_y = 0;
    std::string object_alignment;  ///< "" = unspecified (bottom-left in orthogonal maps)
    bool render_grid_size = false; ///< tilerendersize="grid": tiles scaled to the map cell
    bool available = true;         ///< false: an external file that was not opened
    Properties properties;
    std::map<std::uint32_t, TileInfo> tiles; ///< by local id; tiles with nothing to say are absent

    /// The tile's drawn size in pixels: its own image in a collection, else
    /// the tileset's tile size.
    PixelPoint tile_size(std::uint32_t local_id) const;
};

/// Keeps `info` as tile `local_id` of `set` unless it says nothing (no
/// properties, shapes or image size): Tileset::tiles holds only tiles with
/// something to say. A later entry for the same id replaces an earlier one.
void add_tile(Tileset& set, std::uint32_t local_id, TileInfo info);

/// A gid resolved against a scope: the tileset and local id, or nothing.
struct TileRef {
    const Tileset* tileset = nullptr;
    std::uint32_t local_id = 0;
    std::uint32_t flags = 0; ///< the gid's bits 31..28 (H, V, D, hex rotation)
    const TileInfo* info() const;
};

/// The tile a gid names in `scope` (tilesets sorted by first gid), or none
/// when the gid is 0 or lies before the first tileset. `out_of_range` is set
/// when the gid is past the end of the tileset it falls in (known count).
TileRef resolve_gid(const std::vector<TilesetRef>& scope, std::uint32_t gid, bool* out_of_range);

/// Sorts a scope's tilesets by first gid, as resolve_gid expects; equal first
/// gids keep their file order.
void sort_by_first_gid(std::vector<TilesetRef>& tilesets);

/// A template file: its object and the tilesets its gid refers to.
struct TemplateSource {
    std::string file;
    ObjectSource object;
    std::vector<TilesetRef> tilesets;
};

/// An object ready to place: template applied, tile resolved.
struct PlacedObject {
    ObjectSource object;                            ///< merged; kind set
    std::vector<TilesetRef> const* scope = nullptr; ///< where its gid is resolved (map or template)
};

/// One step of the path from the map to a layer: a group or the layer itself.
struct LayerStep {
    std::string name;
    Properties properties;
};

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
    std::string name;            ///< the layer's name
    std::string label;           ///< how messages name it: `layer "Ground"` or `layer id 3`
    std::vector<LayerStep> path; ///< enclosing groups outermost first, then the layer
    double offset_x = 0;         ///< layer and group offsets summed, pixels
    double offset_y = 0;
    std::vector<ChunkSource> chunks; ///< its data
};

/// An object layer (possibly inside group layers).
struct ObjectLayerSource {
    std::string name;
    std::string label;
    std::vector<LayerStep> path;
    double offset_x = 0;
    double offset_y = 0;
    std::vector<PlacedObject> objects;
};

/// A map as read from the file, before any tile data is decoded.
struct MapSource {
    std::string file;        ///< the path, for messages and StaticGeometry::source
    int tile_width = 0;      ///< pixels, validated positive
    int tile_height = 0;     ///< pixels, validated positive
    std::int64_t width = 0;  ///< tiles, from the header (0 when absent)
    std::int64_t height = 0; ///< tiles, from the header
    bool infinite = false;
    std::vector<TilesetRef> tilesets;             ///< sorted by first gid
    std::vector<TileLayerSource> tile_layers;     ///< in file order, groups flattened
    std::vector<ObjectLayerSource> object_layers; ///< in file order, groups flattened
    std::vector<std::string> warnings;            ///< found while reading
    /// Keeps templates alive for PlacedObject::scope.
    std::vector<std::shared_ptr<const TemplateSource>> templates;
};

/// Reads the external files a map refers to (tilesets, templates), each once,
/// relative to the file that names them, within k_max_external_files.
class ExternalFiles {
  public:
    explicit ExternalFiles(FileReader reader) : reader_(std::move(reader)) {}

    /// The tileset in `source` (as written in `referrer`). Errors name the
    /// referrer and the file; a missing reader gives an unavailable tileset
    /// and a warning.
    Result<std::shared_ptr<const Tileset>> tileset(const std::string& referrer,
                                                   const std::string& source,
                                                   std::vector<std::string>& warnings);

    /// The template in `source`; errors are for the caller to turn into
    /// warnings (a missing template does not stop the map).
    Result<std::shared_ptr<const TemplateSource>> template_file(const std::string& referrer,
                                                                const std::string& source,
                                                                std::vector<std::string>& warnings);

  private:
    Result<std::string> read(const std::string& path);

    FileReader reader_;
    std::size_t opened_ = 0;
    std::map<std::string, std::shared_ptr<const Tileset>> tilesets_;
    std::map<std::string, std::shared_ptr<const TemplateSource>> templates_;
    std::vector<std::string> loading_; ///< files being read, to refuse reference cycles
};

/// `source` resolved against the directory of `referrer`, normalised.
std::string resolve_path(const std::string& referrer, const std::string& source);

/// The instance merged over its template: every field the instance sets
/// wins; properties merge by name.
ObjectSource merge_template(const ObjectSource& instance, const ObjectSource& base);

/// True for a layer name that means collision by convention: collision,
/// collisions, solid, solids, wall, walls, platform, platforms (ASCII
/// case-insensitive).
bool is_collision_name(std::string_view name);

/// True for ground or grounds (case-insensitive): solid for object layers.
bool is_ground_name(std::string_view name);

/// The truth of a custom property value written as text: true for "true",
/// "1", "yes", false for "false", "0", "no" (case-insensitive), nullopt else.
std::optional<bool> parse_truth(std::string_view text);

/// True for the names of the properties that mark something solid: solid,
/// collides, collision (case-insensitive).
bool is_solid_property_name(std::string_view name);

/// What `properties` say about collision under the automatic rule: the
/// solid/collides/collision properties (any true wins), else bodyType
/// (static: true; dynamic, kinematic: false); nullopt when silent.
std::optional<bool> solid_truth(const Properties& properties);

/// True when `properties` match one of the configured solid properties.
bool matches_solid_property(const Properties& properties, const std::vector<SolidProperty>& wanted);

/// ASCII case-insensitive equality.
bool equals_ignoring_case(std::string_view a, std::string_view b);

/// A tile coordinate or size read from the file, checked against the budgets
/// (limit_exceeded) and for sign (parse_error when `non_negative` fails).
Result<int> checked_tile_value(std::int64_t value, bool non_negative, std::string_view where);

/// A tile width or height in pixels read from the file, within
/// k_max_tile_pixels (limit_exceeded); `positive` refuses 0 and below
/// (parse_error), as a map's tile size must be. `where` names the field.
Result<int> checked_tile_size(std::int64_t value, bool positive, std::string_view where);

/// A width*height that must stay within k_max_cells (limit_exceeded).
Result<void> check_cell_count(std::int64_t width, std::int64_t height, std::string_view where);

/// A finite pixel coordinate or size within k_max_pixel_coordinate.
Result<double> checked_pixels(double value, std::string_view where);

/// Checks a map's orientation as read: only orthogonal maps are read
/// (isometric, staggered and hexagonal maps place their tiles on other
/// grids). Errors: any other (unsupported, naming `where`).
Result<void> check_orientation(std::string_view orientation, std::string_view where);

/// The StaticGeometry of the map: selects what collides (options or the
/// automatic rule), decodes the tile layers that matter, places per-tile and
/// object shapes, merges solid cells into boxes.
Result<StaticGeometry> build_geometry(MapSource& map, const TiledLoadOptions& options);

} // namespace sweep::io::detail
