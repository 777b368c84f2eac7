// The TMX reader walks <map>, <group> and <layer> elements into a MapSource;
// tile data is decoded later, and only for the solid layers. Tilesets,
// object layers and image layers are skipped: nothing here opens another file.
#include "tmx.hpp"

#include "decode.hpp"
#include "error.hpp"
#include "map_source.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <optional>

namespace sweep::io::detail {
namespace {

/// Group layers nested deeper than this are refused, so that a hostile file
/// cannot exhaust the stack through recursion.
constexpr int k_max_group_depth = 64;

/// A decimal integer with optional sign and surrounding whitespace.
std::optional<std::int64_t> parse_integer(std::string_view text) {
    const auto not_space = [](char c) { return c != ' ' && c != '\t' && c != '\r' && c != '\n'; };
    const auto first = std::find_if(text.begin(), text.end(), not_space);
    const auto last = std::find_if(text.rbegin(), text.rend(), not_space).base();
    if (first >= last) {
        return std::nullopt;
    }
    const char* begin = &*first;
    const char* end = begin + (last - first);
    if (*begin == '+') {
        ++begin; // from_chars refuses a plus sign, XML writers may emit one
    }
    std::int64_t value = 0;
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (error != std::errc() || stop != end) {
        return std::nullopt;
    }
    return value;
}

/// The integer attribute `name` of `node`, `fallback` when absent.
Result<std::int64_t> int_attribute(pugi::xml_node node, const char* name,
                                   std::optional<std::int64_t> fallback, const std::string& where) {
    const pugi::xml_attribute attribute = node.attribute(name);
    if (!attribute) {
        if (fallback) {
            return *fallback;
        }
        return make_error(ErrorCode::parse_error, where + ": missing attribute " + name);
    }
    const auto value = parse_integer(attribute.value());
    if (!value) {
        return make_error(ErrorCode::parse_error, where + ": " + name + ": not an integer: " +
                                                      in_quotes(attribute.value()));
    }
    return *value;
}

/// An integer attribute that is a tile coordinate (any sign) or a size.
Result<int> tile_attribute(pugi::xml_node node, const char* name,
                           std::optional<std::int64_t> fallback, bool is_size,
                           const std::string& where) {
    auto value = int_attribute(node, name, fallback, where);
    if (!value) {
        return value.error();
    }
    return checked_tile_value(*value, is_size, where + ": " + name);
}

/// The truth of the solid/collides/collision properties of `element`.
std::optional<bool> solid_property(pugi::xml_node element) {
    std::optional<bool> truth;
    for (pugi::xml_node p : element.child("properties").children("property")) {
        if (!is_solid_property_name(p.attribute("name").value())) {
            continue;
        }
        // Multi-line string properties keep their value in the element text.
        const pugi::xml_attribute value = p.attribute("value");
        truth = combine_truth(truth, parse_truth(value ? value.value() : p.text().get()));
    }
    return truth;
}

/// All character data of `node` (pugixml may split it around comments).
std::string text_of(pugi::xml_node node) {
    std::string text;
    for (pugi::xml_node child : node.children()) {
        if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
            text += child.value();
        }
    }
    return text;
}

/// The gids of legacy <tile gid="..."/> children (TMX without encoding).
Result<std::vector<std::uint32_t>> xml_tile_gids(pugi::xml_node holder, std::size_t count) {
    std::vector<std::uint32_t> gids;
    gids.reserve(count);
    for (pugi::xml_node tile : holder.children("tile")) {
        if (gids.size() == count) {
            return make_error(ErrorCode::parse_error,
                              "more than " + std::to_string(count) + " <tile> elements");
        }
        const pugi::xml_attribute gid = tile.attribute("gid");
        const auto value = gid ? parse_integer(gid.value()) : std::optional<std::int64_t>(0);
        if (!value || *value < 0 || *value > 0xFFFFFFFFll) {
            return make_error(ErrorCode::parse_error,
                              "<tile> " + std::to_string(gids.size() + 1) +
                                  ": gid is not a tile id: " + in_quotes(gid.value()));
        }
        gids.push_back(static_cast<std::uint32_t>(*value));
    }
    if (gids.size() != count) {
        return make_error(ErrorCode::parse_error, std::to_string(gids.size()) +
                                                      " <tile> elements, expected " +
                                                      std::to_string(count));
    }
    return gids;
}

/// A ChunkSource whose data is the text or <tile> children of `holder`
/// (a <data> or a <chunk>), decoded with the <data> element's encoding.
ChunkSource make_chunk(int x, int y, int width, int height, pugi::xml_node holder,
                       pugi::xml_node data, std::string where) {
    const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    auto decode = [holder, data, count,
                   where = std::move(where)]() -> Result<std::vector<std::uint32_t>> {
        const std::string encoding = data.attribute("encoding").value();
        auto gids = encoding.empty()
                        ? xml_tile_gids(holder, count)
                        : decode_tile_data(encoding, data.attribute("compression").value(),
                                           text_of(holder), count);
        if (!gids) {
            return in_context(gids.error(), where);
        }
        return gids;
    };
    return ChunkSource{x, y, width, height, std::move(decode)};
}

Result<std::vector<ChunkSource>> read_chunks(pugi::xml_node data, const std::string& where) {
    std::vector<ChunkSource> chunks;
    for (pugi::xml_node chunk : data.children("chunk")) {
        const std::string at = where + ": chunk " + std::to_string(chunks.size() + 1);
        auto x = tile_attribute(chunk, "x", std::nullopt, false, at);
        auto y = tile_attribute(chunk, "y", std::nullopt, false, at);
        auto w = tile_attribute(chunk, "width", std::nullopt, true, at);
        auto h = tile_attribute(chunk, "height", std::nullopt, true, at);
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
        chunks.push_back(make_chunk(*x, *y, *w, *h, chunk, data, place));
    }
    return chunks;
}

/// What a tile layer inherits from the map and its groups.
struct LayerScope {
    const std::string& file;
    std::int64_t map_width = 0;
    std::int64_t map_height = 0;
    bool infinite = false;
};

/// How messages name a layer: by name, else id, else position.
std::string layer_label(pugi::xml_node layer, std::size_t ordinal) {
    const std::string name = layer.attribute("name").value();
    if (!name.empty()) {
        return "layer " + in_quotes(name);
    }
    if (layer.attribute("id")) {
        return std::string("layer id ") + layer.attribute("id").value();
    }
    return "tile layer " + std::to_string(ordinal);
}

Result<TileLayerSource> read_tile_layer(pugi::xml_node node, const LayerScope& scope,
                                        std::size_t ordinal) {
    TileLayerSource layer;
    layer.name = node.attribute("name").value();
    layer.label = layer_label(node, ordinal);
    const std::string where = scope.file + ": " + layer.label;
    const pugi::xml_node data = node.child("data");
    // Infinite maps keep their cells in chunks; the layer size is then only
    // the editor's view and not the extent.
    if (scope.infinite || data.child("chunk")) {
        auto chunks = read_chunks(data, where);
        if (!chunks) {
            return chunks.error();
        }
        layer.chunks = std::move(chunks).value();
        return layer;
    }
    auto w = tile_attribute(node, "width", scope.map_width, true, where);
    auto h = tile_attribute(node, "height", scope.map_height, true, where);
    if (!w || !h) {
        return !w ? w.error() : h.error();
    }
    if (auto ok = check_cell_count(*w, *h, where); !ok) {
        return ok.error();
    }
    if (!data) {
        return make_error(ErrorCode::parse_error, where + ": missing <data>");
    }
    layer.chunks.push_back(make_chunk(0, 0, *w, *h, data, data, where + ": data"));
    return layer;
}

/// Appends the tile layers under `parent` (the map or a group) to `out`.
Result<void> read_layers(pugi::xml_node parent, const LayerScope& scope,
                         const std::vector<std::string>& groups, bool inherited_solid, int depth,
                         std::vector<TileLayerSource>& out) {
    if (depth > k_max_group_depth) {
        return make_error(ErrorCode::limit_exceeded,
                          scope.file + ": group layers nested deeper than 64");
    }
    for (pugi::xml_node child : parent.children()) {
        const std::string_view kind = child.name();
        const std::string name = child.attribute("name").value();
        const bool solid = is_auto_solid(name, solid_property(child), inherited_solid);
        if (kind == "layer") {
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

/// Line and column (1-based) of byte `offset` in `text`.
std::string line_and_column(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const std::string_view before = text.substr(0, offset);
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t line_start = before.rfind('\n');
    const std::size_t column =
        offset - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

Result<MapSource> read_map(pugi::xml_node map, const std::string& file) {
    const std::string where = file + ": <map>";
    const std::string orientation = map.attribute("orientation").as_string("orthogonal");
    if (orientation != "orthogonal") {
        return make_error(ErrorCode::unsupported, where + ": orientation " +
                                                      in_quotes(orientation) +
                                                      " is not supported (orthogonal only)");
    }
    MapSource source;
    source.file = file;
    for (auto [name, field] : {std::pair{"tilewidth", &source.tile_width},
                               std::pair{"tileheight", &source.tile_height}}) {
        auto value = int_attribute(map, name, std::nullopt, where);
        if (!value) {
            return value.error();
        }
        if (*value <= 0) {
            return make_error(ErrorCode::parse_error, where + ": " + name +
                                                          ": must be positive, not " +
                                                          std::to_string(*value));
        }
        if (*value > k_max_tile_pixels) {
            return make_error(ErrorCode::limit_exceeded, where + ": " + name + ": " +
                                                             std::to_string(*value) +
                                                             " pixels is over 65536");
        }
        *field = static_cast<int>(*value);
    }
    auto w = tile_attribute(map, "width", 0, true, where);
    auto h = tile_attribute(map, "height", 0, true, where);
    if (!w || !h) {
        return !w ? w.error() : h.error();
    }
    const LayerScope scope{file, *w, *h, map.attribute("infinite").as_int() != 0};
    if (auto ok = read_layers(map, scope, {}, false, 0, source.tile_layers); !ok) {
        return ok.error();
    }
    return source;
}

} // namespace

Result<StaticGeometry> load_tmx(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options) {
    pugi::xml_document document;
    const pugi::xml_parse_result parsed = document.load_buffer(text.data(), text.size());
    if (!parsed) {
        const ErrorCode code = parsed.status == pugi::status_out_of_memory
                                   ? ErrorCode::limit_exceeded
                                   : ErrorCode::parse_error;
        return make_error(code, file + ": " +
                                    line_and_column(text, static_cast<std::size_t>(parsed.offset)) +
                                    ": XML: " + parsed.description());
    }
    const pugi::xml_node root = document.document_element();
    if (std::string_view(root.name()) != "map") {
        return make_error(ErrorCode::parse_error,
                          file + ": root element is <" + root.name() + ">, expected <map>");
    }
    auto map = read_map(root, file);
    if (!map) {
        return map.error();
    }
    return build_geometry(*map, options);
}

} // namespace sweep::io::detail
