// The JSON reader walks the map's "layers" (and groups' "layers") into a
// MapSource; tile data is decoded later, and only for the solid layers.
// Fields are read with explicit type checks so that a wrong type becomes a
// message naming the field rather than a nlohmann exception.
#include "tmj.hpp"

#include "decode.hpp"
#include "error.hpp"
#include "map_source.hpp"

#include <nlohmann/json.hpp>

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

/// The truth of the solid/collides/collision properties of a layer, in the
/// array form of Tiled >= 1.2 or the older {"name": value} object form.
std::optional<bool> solid_property(const Json& layer) {
    const auto it = layer.find("properties");
    std::optional<bool> truth;
    if (it == layer.end()) {
        return truth;
    }
    if (it->is_object()) {
        for (const auto& [name, value] : it->items()) {
            if (is_solid_property_name(name)) {
                truth = combine_truth(truth, truth_of(value));
            }
        }
    } else if (it->is_array()) {
        for (const Json& property : *it) {
            if (property.is_object() && is_solid_property_name(string_field(property, "name")) &&
                property.contains("value")) {
                truth = combine_truth(truth, truth_of(property["value"]));
            }
        }
    }
    return truth;
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

/// What a tile layer inherits from the map.
struct LayerScope {
    const std::string& file;
    std::int64_t map_width = 0;
    std::int64_t map_height = 0;
    bool infinite = false;
};

std::string layer_label(const Json& layer, std::size_t ordinal) {
    const std::string name = string_field(layer, "name");
    if (!name.empty()) {
        return "layer " + in_quotes(name);
    }
    const auto id = layer.find("id");
    if (id != layer.end() && id->is_number()) {
        return "layer id " + id->dump();
    }
    return "tile layer " + std::to_string(ordinal);
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

/// Appends the tile layers of `parent`["layers"] (the map or a group) to `out`.
Result<void> read_layers(const Json& parent, const LayerScope& scope,
                         const std::vector<std::string>& groups, bool inherited_solid, int depth,
                         std::vector<TileLayerSource>& out) {
    const auto layers = parent.find("layers");
    if (layers == parent.end() || !layers->is_array()) {
        return make_error(
            ErrorCode::parse_error,
            scope.file + ": " +
                (groups.empty() ? std::string("map") : "group " + in_quotes(groups.back())) +
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
        const std::string name = string_field(child, "name");
        const bool solid = is_auto_solid(name, solid_property(child), inherited_solid);
        if (kind == "tilelayer") {
            auto layer = read_tile_layer(child, scope, out.size() + 1);
            if (!layer) {
                return layer.error();
            }
            layer->groups = groups;
            layer->auto_solid = solid;
            out.push_back(std::move(layer).value());
        } else if (kind == "group") {
            std::vector<std::string> inner = groups;
            inner.push_back(name);
            if (auto ok = read_layers(child, scope, inner, solid, depth + 1, out); !ok) {
                return ok;
            }
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
    if (*value <= 0) {
        return make_error(ErrorCode::parse_error,
                          where + ": " + key + ": must be positive, not " + std::to_string(*value));
    }
    if (*value > k_max_tile_pixels) {
        return make_error(ErrorCode::limit_exceeded, where + ": " + key + ": " +
                                                         std::to_string(*value) +
                                                         " pixels is over 65536");
    }
    return static_cast<int>(*value);
}

Result<MapSource> read_map(const Json& map, const std::string& file) {
    const std::string where = file + ": map";
    if (!map.is_object()) {
        return make_error(ErrorCode::parse_error, where + ": the document is not a JSON object");
    }
    const std::string orientation =
        map.contains("orientation") ? string_field(map, "orientation") : std::string("orthogonal");
    if (orientation != "orthogonal") {
        return make_error(ErrorCode::unsupported, where + ": orientation " +
                                                      in_quotes(orientation) +
                                                      " is not supported (orthogonal only)");
    }
    MapSource source;
    source.file = file;
    auto tw = tile_size(map, "tilewidth", where);
    auto th = tile_size(map, "tileheight", where);
    auto w = tile_field(map, "width", 0, true, where);
    auto h = tile_field(map, "height", 0, true, where);
    for (const Result<int>* r : {&tw, &th, &w, &h}) {
        if (!*r) {
            return r->error();
        }
    }
    source.tile_width = *tw;
    source.tile_height = *th;
    const auto infinite = map.find("infinite");
    const bool is_infinite = infinite != map.end() && truth_of(*infinite).value_or(false);
    const LayerScope scope{file, *w, *h, is_infinite};
    if (auto ok = read_layers(map, scope, {}, false, 0, source.tile_layers); !ok) {
        return ok.error();
    }
    return source;
}

/// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string without_tag(const char* what) {
    const std::string text = what;
    const std::size_t end = text.find("] ");
    return (text.rfind('[', 0) == 0 && end != std::string::npos) ? text.substr(end + 2) : text;
}

} // namespace

Result<StaticGeometry> load_tmj(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options) {
    Json document;
    try {
        document = Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) { // parse_error, or out_of_range for 1e400
        return make_error(ErrorCode::parse_error, file + ": JSON: " + without_tag(e.what()));
    }
    auto map = read_map(document, file);
    if (!map) {
        return map.error();
    }
    return build_geometry(*map, options);
}

} // namespace sweep::io::detail
