// The JSON reader walks the map's "layers" (and groups' "layers") into a
// MapSource; tile data is decoded later, and only for the layers that
// matter. Tilesets and templates are read here too, embedded or from their
// own files (.tsj/.json, .tj, or their XML forms through ExternalFiles).
// Fields are read with explicit type checks so that a wrong type becomes a
// message naming the field rather than a nlohmann exception.
#include "tmj.hpp"

#include "decode.hpp"
#include "error.hpp"
#include "layer_scope.hpp"
#include "map_source.hpp"
#include "tileset_header.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace sweep::io::detail {
namespace {

using Json = nlohmann::json;

/// Group layers nested deeper than this are refused, so that a hostile file
/// cannot exhaust the stack through recursion.
constexpr int k_max_group_depth = 64;

/// A JSON value for a message, cut short.
std::string shown(const Json& value) { return in_quotes(value.dump()); }

/// An integral JSON number (integral floats such as 16.0 included).
std::optional<std::int64_t> as_integer(const Json& value) {
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return std::nullopt;
        }
        return static_cast<std::int64_t>(u);
    }
    if (value.is_number_integer()) {
        return value.get<std::int64_t>();
    }
    if (value.is_number_float()) {
        const double d = value.get<double>();
        // 2^53: beyond it a double no longer holds every integer.
        if (!std::isfinite(d) || d != std::trunc(d) || std::fabs(d) > 9007199254740992.0) {
            return std::nullopt;
        }
        return static_cast<std::int64_t>(d);
    }
    return std::nullopt;
}

/// The integer field `key` of `object`, `fallback` when absent.
Result<std::int64_t> integer_field(const Json& object, const char* key,
                                   std::optional<std::int64_t> fallback, const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end()) {
        if (fallback) {
            return *fallback;
        }
        return make_error(ErrorCode::parse_error, where + ": missing field \"" + key + "\"");
    }
    const auto value = as_integer(*it);
    if (!value) {
        return make_error(ErrorCode::parse_error,
                          where + ": " + key + ": not an integer: " + shown(*it));
    }
    return *value;
}

/// An integer field that is a tile coordinate (any sign) or a size.
Result<int> tile_field(const Json& object, const char* key, std::optional<std::int64_t> fallback,
                       bool is_size, const std::string& where) {
    auto value = integer_field(object, key, fallback, where);
    if (!value) {
        return value.error();
    }
    return checked_tile_value(*value, is_size, where + ": " + key);
}

/// The string field `key` of `object`; "" when absent or not a string.
std::string string_field(const Json& object, const char* key) {
    const auto it = object.find(key);
    return (it != object.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

std::optional<bool> truth_of(const Json& value) {
    if (value.is_boolean()) {
        return value.get<bool>();
    }
    if (value.is_number()) {
        return value.get<double>() != 0;
    }
    if (value.is_string()) {
        return parse_truth(value.get<std::string>());
    }
    return std::nullopt;
}

/// Gids from a JSON integer array.
Result<std::vector<std::uint32_t>> array_gids(const Json& data, std::size_t count) {
    if (data.size() != count) {
        return make_error(ErrorCode::parse_error, std::to_string(data.size()) +
                                                      " values, expected " + std::to_string(count) +
                                                      " (width*height)");
    }
    std::vector<std::uint32_t> gids;
    gids.reserve(count);
    for (const Json& value : data) {
        const auto gid = as_integer(value);
        if (!gid || *gid < 0 || *gid > 0xFFFFFFFFll) {
            return make_error(ErrorCode::parse_error, "value " + std::to_string(gids.size() + 1) +
                                                          " is not a tile id: " + shown(value));
        }
        gids.push_back(static_cast<std::uint32_t>(*gid));
    }
    return gids;
}

/// A ChunkSource reading `holder`["data"] (the layer or a chunk) with the
/// layer's encoding and compression.
ChunkSource make_chunk(int x, int y, int width, int height, const Json& holder, const Json& layer,
                       std::string where) {
    const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    auto decode = [&holder, &layer, count,
                   where = std::move(where)]() -> Result<std::vector<std::uint32_t>> {
        const auto it = holder.find("data");
        Result<std::vector<std::uint32_t>> gids =
            make_error(ErrorCode::parse_error, "neither an integer array nor a string");
        if (it == holder.end()) {
            gids = make_error(ErrorCode::parse_error, "missing");
        } else if (it->is_array()) {
            gids = array_gids(*it, count);
        } else if (it->is_string()) {
            const std::string encoding = string_field(layer, "encoding");
            gids = decode_tile_data(encoding.empty() ? "base64" : encoding,
                                    string_field(layer, "compression"),
                                    it->get_ref<const std::string&>(), count);
        }
        if (!gids) {
            return in_context(gids.error(), where);
        }
        return gids;
    };
    return ChunkSource{x, y, width, height, std::move(decode)};
}

Result<std::vector<ChunkSource>> read_chunks(const Json& layer, const std::string& where) {
    const Json& chunks = layer["chunks"];
    if (!chunks.is_array()) {
        return make_error(ErrorCode::parse_error, where + ": chunks: not an array");
    }
    std::vector<ChunkSource> out;
    for (const Json& chunk : chunks) {
        const std::string at = where + ": chunks[" + std::to_string(out.size()) + "]";
        if (!chunk.is_object()) {
            return make_error(ErrorCode::parse_error, at + ": not an object");
        }
        auto x = tile_field(chunk, "x", std::nullopt, false, at);
        auto y = tile_field(chunk, "y", std::nullopt, false, at);
        auto w = tile_field(chunk, "width", std::nullopt, true, at);
        auto h = tile_field(chunk, "height", std::nullopt, true, at);
        for (const Result<int>* r : {&x, &y, &w, &h}) {
            if (!*r) {
                return r->error();
            }
        }
        if (auto ok = check_cell_count(*w, *h, at); !ok) {
            return ok.error();
        }
        const std::string place =
            where + ": chunk (x=" + std::to_string(*x) + ", y=" + std::to_string(*y) + "): data";
        out.push_back(make_chunk(*x, *y, *w, *h, chunk, layer, place));
    }
    return out;
}

/// The optional pixel field `key` of `object`: a finite number within budget.
Result<std::optional<double>> pixel_field(const Json& object, const char* key,
                                          const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return std::optional<double>();
    }
    if (!it->is_number()) {
        return make_error(ErrorCode::parse_error,
                          where + ": " + key + ": not a number: " + shown(*it));
    }
    auto checked = checked_pixels(it->get<double>(), where + ": " + key);
    if (!checked) {
        return checked.error();
    }
    return std::optional<double>(*checked);
}

/// A property value as text (see Properties).
std::string property_text(const Json& value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_boolean()) {
        return value.get<bool>() ? "true" : "false";
    }
    if (value.is_number()) {
        return value.dump();
    }
    return "";
}

/// The points of a "polygon" or "polyline" array of {"x","y"}.
Result<std::vector<PixelPoint>> read_points(const Json& array, const std::string& where) {
    if (!array.is_array()) {
        return make_error(ErrorCode::parse_error, where + ": not an array of points");
    }
    if (array.size() > k_max_points) {
        return make_error(ErrorCode::limit_exceeded,
                          where + ": more than " + std::to_string(k_max_points) + " points");
    }
    std::vector<PixelPoint> points;
    for (const Json& p : array) {
        const std::string at = where + "[" + std::to_string(points.size()) + "]";
        if (!p.is_object()) {
            return make_error(ErrorCode::parse_error, at + ": not an object");
        }
        auto x = pixel_field(p, "x", at);
        auto y = pixel_field(p, "y", at);
        if (!x || !y) {
            return !x ? x.error() : y.error();
        }
        if (!*x || !*y) {
            return make_error(ErrorCode::parse_error, at + ": missing x or y");
        }
        points.push_back({**x, **y});
    }
    return points;
}

/// An object of a map, a template or a tile's collision group.
Result<ObjectSource> read_object(const Json& node, const std::string& context,
                                 std::size_t ordinal) {
    ObjectSource o;
    if (!node.is_object()) {
        return make_error(ErrorCode::parse_error,
                          context + ": object " + std::to_string(ordinal) + ": not an object");
    }
    if (node.contains("id")) {
        auto id = integer_field(node, "id", std::nullopt,
                                context + ": object " + std::to_string(ordinal));
        if (!id) {
            return id.error();
        }
        o.id = *id;
        o.label = "object id " + std::to_string(*id);
    } else {
        o.label = "object " + std::to_string(ordinal);
    }
    if (node.contains("name")) {
        o.name = string_field(node, "name");
        if (!o.name->empty()) {
            o.label += ' ';
            o.label += in_quotes(*o.name);
        }
    }
    const std::string where = context + ": " + o.label;
    if (node.contains("type")) {
        o.type = string_field(node, "type");
    } else if (node.contains("class")) {
        o.type = string_field(node, "class");
    }
    struct Field {
        const char* name;
        std::optional<double>* out;
    };
    for (const Field f : {Field{"x", &o.x}, Field{"y", &o.y}, Field{"width", &o.width},
                          Field{"height", &o.height}, Field{"rotation", &o.rotation}}) {
        auto value = pixel_field(node, f.name, where);
        if (!value) {
            return value.error();
        }
        *f.out = *value;
    }
    if (node.contains("gid")) {
        auto gid = integer_field(node, "gid", std::nullopt, where);
        if (!gid) {
            return gid.error();
        }
        if (*gid < 0 || *gid > 0xFFFFFFFFll) {
            return make_error(ErrorCode::parse_error,
                              where + ": gid: not a tile id: " + std::to_string(*gid));
        }
        o.gid = static_cast<std::uint32_t>(*gid);
    }
    o.template_source = string_field(node, "template");
    const auto flag = [&](const char* key) {
        const auto it = node.find(key);
        return it != node.end() && it->is_boolean() && it->get<bool>();
    };
    if (flag("ellipse")) {
        o.kind = ObjectKind::ellipse;
    } else if (flag("point")) {
        o.kind = ObjectKind::point;
    } else if (node.contains("text")) {
        o.kind = ObjectKind::text;
    } else if (node.contains("polygon") || node.contains("polyline")) {
        const bool polygon = node.contains("polygon");
        o.kind = polygon ? ObjectKind::polygon : ObjectKind::polyline;
        auto points = read_points(node[polygon ? "polygon" : "polyline"],
                                  where + ": " + (polygon ? "polygon" : "polyline"));
        if (!points) {
            return points.error();
        }
        o.points = std::move(points).value();
    }
    if (o.gid && !o.kind) {
        o.kind = ObjectKind::tile;
    }
    o.properties = read_properties(node);
    return o;
}

/// One tile entry of a tileset's "tiles".
Result<void> read_tile(const Json& tile, std::optional<std::int64_t> key_id, Tileset& set,
                       const std::string& where) {
    if (!tile.is_object()) {
        return make_error(ErrorCode::parse_error, where + ": tiles: an entry is not an object");
    }
    std::int64_t id = 0;
    if (key_id) {
        id = *key_id;
    } else {
        auto value = integer_field(tile, "id", std::nullopt, where + ": tiles");
        if (!value) {
            return value.error();
        }
        id = *value;
    }
    if (id < 0 || id > 0x0FFFFFFFll) {
        return make_error(ErrorCode::parse_error,
                          where + ": tiles: id: not a tile id: " + std::to_string(id));
    }
    const std::string tile_where = where + ": tile " + std::to_string(id);
    TileInfo info;
    info.properties = read_properties(tile);
    for (auto [key, field] : {std::pair{"imagewidth", &info.image_width},
                              std::pair{"imageheight", &info.image_height}}) {
        auto value = pixel_field(tile, key, tile_where);
        if (!value) {
            return value.error();
        }
        *field = std::max(0.0, value->value_or(0));
        if (*field > double(k_max_tile_pixels)) {
            return make_error(ErrorCode::limit_exceeded,
                              tile_where + ": " + key + ": over 65536 pixels");
        }
    }
    const auto group = tile.find("objectgroup");
    if (group != tile.end() && group->is_object()) {
        const auto objects = group->find("objects");
        if (objects != group->end() && objects->is_array()) {
            std::size_t ordinal = 0;
            for (const Json& object : *objects) {
                auto shape = read_object(object, tile_where, ++ordinal);
                if (!shape) {
                    return shape.error();
                }
                info.shapes.push_back(std::move(shape).value());
            }
        }
    }
    add_tile(set, static_cast<std::uint32_t>(id), std::move(info));
    return {};
}

/// The tileset entries of `array` (a map's "tilesets" or a template's one
/// "tileset"), embedded or references to files, sorted by first gid.
Result<std::vector<TilesetRef>> read_tilesets(const Json& array, const std::string& file,
                                              ExternalFiles& external,
                                              std::vector<std::string>& warnings) {
    std::vector<TilesetRef> out;
    for (const Json& node : array) {
        const std::string where = file + ": tilesets[" + std::to_string(out.size()) + "]";
        if (!node.is_object()) {
            return make_error(ErrorCode::parse_error, where + ": not an object");
        }
        auto ref = read_tileset_ref(node, file, where, external, warnings);
        if (!ref) {
            return ref.error();
        }
        out.push_back(std::move(ref).value());
    }
    sort_by_first_gid(out);
    return out;
}

std::string layer_label(const Json& layer, std::size_t ordinal) {
    const std::string name = string_field(layer, "name");
    if (!name.empty()) {
        return "layer " + in_quotes(name);
    }
    const auto id = layer.find("id");
    if (id != layer.end() && id->is_number()) {
        return "layer id " + id->dump();
    }
    return "layer " + std::to_string(ordinal);
}

Result<TileLayerSource> read_tile_layer(const Json& node, const LayerScope& scope,
                                        std::size_t ordinal) {
    TileLayerSource layer;
    layer.name = string_field(node, "name");
    layer.label = layer_label(node, ordinal);
    const std::string where = scope.file + ": " + layer.label;
    if (node.contains("chunks") || (scope.infinite && !node.contains("data"))) {
        if (!node.contains("chunks")) {
            return layer; // an empty infinite layer
        }
        auto chunks = read_chunks(node, where);
        if (!chunks) {
            return chunks.error();
        }
        layer.chunks = std::move(chunks).value();
        return layer;
    }
    auto w = tile_field(node, "width", scope.map_width, true, where);
    auto h = tile_field(node, "height", scope.map_height, true, where);
    if (!w || !h) {
        return !w ? w.error() : h.error();
    }
    if (auto ok = check_cell_count(*w, *h, where); !ok) {
        return ok.error();
    }
    layer.chunks.push_back(make_chunk(0, 0, *w, *h, node, node, where + ": data"));
    return layer;
}

Result<ObjectLayerSource> read_object_layer(const Json& node, LayerScope& scope,
                                            std::size_t ordinal) {
    ObjectLayerSource layer;
    layer.name = string_field(node, "name");
    layer.label = layer_label(node, ordinal);
    const std::string where = scope.file + ": " + layer.label;
    const auto objects = node.find("objects");
    if (objects == node.end()) {
        return layer;
    }
    if (!objects->is_array()) {
        return make_error(ErrorCode::parse_error, where + ": objects: not an array");
    }
    std::size_t count = 0;
    for (const Json& child : *objects) {
        auto ok =
            add_object(scope, layer, where, [&] { return read_object(child, where, ++count); });
        if (!ok) {
            return ok.error();
        }
    }
    return layer;
}

/// Appends the layers of `parent`["layers"] (the map or a group) to the map.
Result<void> read_layers(const Json& parent, LayerScope& scope, const std::vector<LayerStep>& path,
                         double offset_x, double offset_y, int depth) {
    const auto layers = parent.find("layers");
    if (layers == parent.end() || !layers->is_array()) {
        return make_error(
            ErrorCode::parse_error,
            scope.file + ": " +
                (path.empty() ? std::string("map") : "group " + in_quotes(path.back().name)) +
                ": missing \"layers\" array");
    }
    if (depth > k_max_group_depth) {
        return make_error(ErrorCode::limit_exceeded,
                          scope.file + ": group layers nested deeper than 64");
    }
    for (const Json& child : *layers) {
        if (!child.is_object()) {
            continue;
        }
        const std::string kind = string_field(child, "type");
        if (kind != "tilelayer" && kind != "objectgroup" && kind != "group") {
            continue;
        }
        std::vector<LayerStep> inner = path;
        inner.push_back({string_field(child, "name"), read_properties(child)});
        const std::string label = scope.file + ": " + layer_label(child, 0);
        auto dx = pixel_field(child, "offsetx", label);
        auto dy = pixel_field(child, "offsety", label);
        if (!dx || !dy) {
            return !dx ? dx.error() : dy.error();
        }
        const double ox = offset_x + dx->value_or(0);
        const double oy = offset_y + dy->value_or(0);
        if (kind == "tilelayer") {
            auto layer = read_tile_layer(child, scope, scope.map.tile_layers.size() + 1);
            if (!layer) {
                return layer.error();
            }
            add_layer(std::move(layer).value(), std::move(inner), ox, oy, scope.map.tile_layers);
        } else if (kind == "objectgroup") {
            auto layer = read_object_layer(child, scope, scope.map.object_layers.size() + 1);
            if (!layer) {
                return layer.error();
            }
            add_layer(std::move(layer).value(), std::move(inner), ox, oy, scope.map.object_layers);
        } else if (auto ok = read_layers(child, scope, inner, ox, oy, depth + 1); !ok) {
            return ok;
        }
    }
    return {};
}

/// A positive tile size in pixels.
Result<int> tile_size(const Json& map, const char* key, const std::string& where) {
    auto value = integer_field(map, key, std::nullopt, where);
    if (!value) {
        return value.error();
    }
    return checked_tile_size(*value, true, where + ": " + key);
}

Result<void> read_map(const Json& node, const std::string& file, ExternalFiles& external,
                      MapSource& map) {
    const std::string where = file + ": map";
    const std::string orientation = node.contains("orientation") ? string_field(node, "orientation")
                                                                 : std::string("orthogonal");
    if (auto ok = check_orientation(orientation, where); !ok) {
        return ok;
    }
    map.file = file;
    auto tw = tile_size(node, "tilewidth", where);
    auto th = tile_size(node, "tileheight", where);
    auto w = tile_field(node, "width", 0, true, where);
    auto h = tile_field(node, "height", 0, true, where);
    for (const Result<int>* r : {&tw, &th, &w, &h}) {
        if (!*r) {
            return r->error();
        }
    }
    map.tile_width = *tw;
    map.tile_height = *th;
    map.width = *w;
    map.height = *h;
    const auto infinite = node.find("infinite");
    map.infinite = infinite != node.end() && truth_of(*infinite).value_or(false);
    const auto tilesets = node.find("tilesets");
    if (tilesets != node.end()) {
        if (!tilesets->is_array()) {
            return make_error(ErrorCode::parse_error, where + ": tilesets: not an array");
        }
        auto read = read_tilesets(*tilesets, file, external, map.warnings);
        if (!read) {
            return read.error();
        }
        map.tilesets = std::move(read).value();
    }
    LayerScope scope{file, *w, *h, map.infinite, external, map};
    return read_layers(node, scope, {}, 0, 0, 0);
}

/// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string without_tag(const char* what) {
    const std::string text = what;
    const std::size_t end = text.find("] ");
    return (text.rfind('[', 0) == 0 && end != std::string::npos) ? text.substr(end + 2) : text;
}

/// The document, or the error (with nlohmann's position).
Result<Json> parse_document(std::string_view text, const std::string& file) {
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) { // parse_error, or out_of_range for 1e400
        return make_error(ErrorCode::parse_error, file + ": JSON: " + without_tag(e.what()));
    }
}

/// What kind of Tiled document a JSON object is: "map", "tileset",
/// "template", from "type" or, for old files without it, the fields.
std::string document_kind(const Json& document) {
    if (!document.is_object()) {
        return "";
    }
    const std::string type = string_field(document, "type");
    if (!type.empty()) {
        return type;
    }
    if (document.contains("layers")) {
        return "map";
    }
    if (document.contains("object") && !document.contains("tilewidth")) {
        return "template";
    }
    if (document.contains("tilecount") || document.contains("tiles") ||
        document.contains("imagewidth")) {
        return "tileset";
    }
    return "";
}

} // namespace

// The accessors of tileset_header.hpp for JSON objects.

Result<std::int64_t> tileset_int(const Json& node, const char* key, std::int64_t fallback,
                                 const std::string& where) {
    auto value = integer_field(node, key, fallback, where);
    if (!value) {
        return value.error();
    }
    if (*value < 0 || *value > k_max_coordinate) {
        return make_error(ErrorCode::parse_error,
                          where + ": " + key + ": out of range: " + std::to_string(*value));
    }
    return *value;
}

bool has_field(const Json& node, const char* name) { return node.contains(name); }

std::string text_field(const Json& node, const char* name) { return string_field(node, name); }

std::optional<std::pair<std::int64_t, std::int64_t>> tileset_image_size(const Json& node) {
    const auto w = as_integer(node.value("imagewidth", Json()));
    const auto h = as_integer(node.value("imageheight", Json()));
    if (!w || !h) {
        return std::nullopt;
    }
    return std::pair{*w, *h};
}

Result<PixelPoint> tile_offset(const Json& node, const std::string& where) {
    const auto offset = node.find("tileoffset");
    if (offset == node.end() || !offset->is_object()) {
        return PixelPoint{};
    }
    auto x = pixel_field(*offset, "x", where);
    auto y = pixel_field(*offset, "y", where);
    if (!x || !y) {
        return !x ? x.error() : y.error();
    }
    return PixelPoint{x->value_or(0), y->value_or(0)};
}

/// The custom properties of `holder`: the array form of Tiled >= 1.2 or the
/// older {"name": value} object form.
Properties read_properties(const Json& holder) {
    Properties out;
    const auto it = holder.find("properties");
    if (it == holder.end()) {
        return out;
    }
    if (it->is_object()) {
        for (const auto& [name, value] : it->items()) {
            out.emplace_back(name, property_text(value));
        }
    } else if (it->is_array()) {
        for (const Json& property : *it) {
            if (!property.is_object()) {
                continue;
            }
            const auto value = property.find("value");
            out.emplace_back(string_field(property, "name"),
                             value == property.end() ? std::string() : property_text(*value));
        }
    }
    return out;
}

Result<std::shared_ptr<const Tileset>> read_tileset_contents(const Json& node,
                                                             const std::string& file) {
    auto set = std::make_shared<Tileset>();
    set->file = file;
    set->label = "tileset " + in_quotes(string_field(node, "name"));
    const std::string where = file + ": " + set->label;
    if (auto header = read_tileset_header(node, *set, where); !header) {
        return header.error();
    }
    const auto tiles = node.find("tiles");
    if (tiles != node.end() && tiles->is_array()) {
        for (const Json& tile : *tiles) {
            if (auto ok = read_tile(tile, std::nullopt, *set, where); !ok) {
                return ok.error();
            }
        }
    } else if (tiles != node.end() && tiles->is_object()) {
        // Tiled before 1.2 keyed "tiles" by id.
        for (const auto& [key, tile] : tiles->items()) {
            std::int64_t id = -1;
            try {
                id = std::stoll(key);
            } catch (const std::exception&) {
                return make_error(ErrorCode::parse_error,
                                  where + ": tiles: key is not a tile id: " + in_quotes(key));
            }
            if (auto ok = read_tile(tile, id, *set, where); !ok) {
                return ok.error();
            }
        }
    }
    return std::shared_ptr<const Tileset>(std::move(set));
}

Result<StaticGeometry> load_tmj(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options) {
    auto document = parse_document(text, file);
    if (!document) {
        return document.error();
    }
    const std::string kind = document_kind(*document);
    if (kind == "tileset" || kind == "template") {
        return make_error(ErrorCode::invalid_input,
                          file + ": this is a Tiled " + kind + " (\"type\": \"" + kind +
                              "\"), not a map: run the map (.tmx, .tmj) that uses it");
    }
    if (!document->is_object()) {
        return make_error(ErrorCode::parse_error,
                          file + ": map: the document is not a JSON object");
    }
    ExternalFiles external(options.read_file);
    MapSource map;
    if (auto ok = read_map(*document, file, external, map); !ok) {
        return ok.error();
    }
    return build_geometry(map, options);
}

Result<std::shared_ptr<const Tileset>> read_tsj(std::string_view text, const std::string& file) {
    auto document = parse_document(text, file);
    if (!document) {
        return document.error();
    }
    if (!document->is_object()) {
        return make_error(ErrorCode::parse_error, file + ": tileset: not a JSON object");
    }
    return read_tileset_contents(*document, file);
}

Result<std::shared_ptr<const TemplateSource>> read_tj(std::string_view text,
                                                      const std::string& file,
                                                      ExternalFiles& external,
                                                      std::vector<std::string>& warnings) {
    auto document = parse_document(text, file);
    if (!document) {
        return document.error();
    }
    if (!document->is_object() || !document->contains("object")) {
        return make_error(ErrorCode::parse_error, file + ": template: no \"object\"");
    }
    auto out = std::make_shared<TemplateSource>();
    out->file = file;
    const auto tileset = document->find("tileset");
    if (tileset != document->end()) {
        auto read = read_tilesets(Json::array({*tileset}), file, external, warnings);
        if (!read) {
            return read.error();
        }
        out->tilesets = std::move(read).value();
    }
    auto object = read_object((*document)["object"], file, 1);
    if (!object) {
        return object.error();
    }
    out->object = std::move(object).value();
    return std::shared_ptr<const TemplateSource>(std::move(out));
}

} // namespace sweep::io::detail
