// The TMX reader walks <map>, <group>, <layer> and <objectgroup> elements
// into a MapSource; tile data is decoded later, and only for the layers that
// matter. Tilesets and templates are read here too, embedded or from their
// own files (.tsx, .tx, or their JSON forms through ExternalFiles).
#include "tmx.hpp"

#include "decode.hpp"
#include "error.hpp"
#include "layer_scope.hpp"
#include "map_source.hpp"
#include "tileset_header.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace sweep::io::detail {
namespace {

/// Group layers nested deeper than this are refused, so that a hostile file
/// cannot exhaust the stack through recursion.
constexpr int k_max_group_depth = 64;

/// A decimal number of type T (an integer, or floating point with optional
/// exponent) with optional sign and surrounding whitespace.
template <class T> std::optional<T> parse_decimal(std::string_view text) {
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
    T value{};
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (error != std::errc() || stop != end) {
        return std::nullopt;
    }
    return value;
}

/// A decimal integer with optional sign and surrounding whitespace.
std::optional<std::int64_t> parse_integer(std::string_view text) {
    return parse_decimal<std::int64_t>(text);
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

/// A finite decimal number (integer or floating point, optional sign and
/// exponent).
std::optional<double> parse_number(std::string_view text) {
    const auto value = parse_decimal<double>(text);
    if (value && !std::isfinite(*value)) {
        return std::nullopt;
    }
    return value;
}

/// The optional pixel attribute `name` of `node`: finite and within budget.
Result<std::optional<double>> pixel_attribute(pugi::xml_node node, const char* name,
                                              const std::string& where) {
    const pugi::xml_attribute attribute = node.attribute(name);
    if (!attribute) {
        return std::optional<double>();
    }
    const auto value = parse_number(attribute.value());
    if (!value) {
        return make_error(ErrorCode::parse_error, where + ": " + name + ": not a finite number: " +
                                                      in_quotes(attribute.value()));
    }
    auto checked = checked_pixels(*value, where + ": " + name);
    if (!checked) {
        return checked.error();
    }
    return std::optional<double>(*checked);
}

/// The points of a polygon or polyline: "x,y x,y ...".
Result<std::vector<PixelPoint>> read_points(pugi::xml_node node, const std::string& where) {
    const std::string_view text = node.attribute("points").value();
    std::vector<PixelPoint> points;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t begin = text.find_first_not_of(" \t\r\n", at);
        if (begin == std::string_view::npos) {
            break;
        }
        std::size_t end = text.find_first_of(" \t\r\n", begin);
        end = end == std::string_view::npos ? text.size() : end;
        const std::string_view pair = text.substr(begin, end - begin);
        const std::size_t comma = pair.find(',');
        const auto x =
            comma == std::string_view::npos ? std::nullopt : parse_number(pair.substr(0, comma));
        const auto y =
            comma == std::string_view::npos ? std::nullopt : parse_number(pair.substr(comma + 1));
        if (!x || !y) {
            return make_error(ErrorCode::parse_error,
                              where + ": points: point " + std::to_string(points.size() + 1) +
                                  " is not x,y with finite numbers: " + in_quotes(pair));
        }
        for (double v : {*x, *y}) {
            if (auto ok = checked_pixels(v, where + ": points"); !ok) {
                return ok.error();
            }
        }
        if (points.size() == k_max_points) {
            return make_error(ErrorCode::limit_exceeded,
                              where + ": points: more than " + std::to_string(k_max_points));
        }
        points.push_back({*x, *y});
        at = end;
    }
    return points;
}

/// An <object> of a map, a template or a tile's collision group.
Result<ObjectSource> read_object(pugi::xml_node node, const std::string& context,
                                 std::size_t ordinal) {
    ObjectSource o;
    const pugi::xml_attribute id = node.attribute("id");
    if (id) {
        const auto value = parse_integer(id.value());
        if (!value) {
            return make_error(ErrorCode::parse_error,
                              context + ": object " + std::to_string(ordinal) +
                                  ": id: not an integer: " + in_quotes(id.value()));
        }
        o.id = *value;
        o.label = "object id " + std::to_string(*value);
    } else {
        o.label = "object " + std::to_string(ordinal);
    }
    if (node.attribute("name")) {
        o.name = node.attribute("name").value();
        if (!o.name->empty()) {
            o.label += ' ';
            o.label += in_quotes(*o.name);
        }
    }
    const std::string where = context + ": " + o.label;
    if (node.attribute("type")) {
        o.type = node.attribute("type").value();
    } else if (node.attribute("class")) {
        o.type = node.attribute("class").value();
    }
    struct Field {
        const char* name;
        std::optional<double>* out;
    };
    for (const Field f : {Field{"x", &o.x}, Field{"y", &o.y}, Field{"width", &o.width},
                          Field{"height", &o.height}, Field{"rotation", &o.rotation}}) {
        auto value = pixel_attribute(node, f.name, where);
        if (!value) {
            return value.error();
        }
        *f.out = *value;
    }
    if (const pugi::xml_attribute gid = node.attribute("gid")) {
        const auto value = parse_integer(gid.value());
        if (!value || *value < 0 || *value > 0xFFFFFFFFll) {
            return make_error(ErrorCode::parse_error,
                              where + ": gid: not a tile id: " + in_quotes(gid.value()));
        }
        o.gid = static_cast<std::uint32_t>(*value);
    }
    o.template_source = node.attribute("template").value();
    if (node.child("ellipse")) {
        o.kind = ObjectKind::ellipse;
    } else if (node.child("point")) {
        o.kind = ObjectKind::point;
    } else if (node.child("text")) {
        o.kind = ObjectKind::text;
    } else if (pugi::xml_node shape =
                   node.child("polygon") ? node.child("polygon") : node.child("polyline")) {
        o.kind = std::string_view(shape.name()) == "polygon" ? ObjectKind::polygon
                                                             : ObjectKind::polyline;
        auto points = read_points(shape, where);
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

/// The <tileset> children of `parent` (a map or a template): embedded ones
/// and references to files, sorted by first gid.
Result<std::vector<TilesetRef>> read_tilesets(pugi::xml_node parent, const std::string& file,
                                              ExternalFiles& external,
                                              std::vector<std::string>& warnings) {
    std::vector<TilesetRef> out;
    for (pugi::xml_node node : parent.children("tileset")) {
        const std::string where = file + ": tileset " + std::to_string(out.size() + 1);
        auto ref = read_tileset_ref(node, file, where, external, warnings);
        if (!ref) {
            return ref.error();
        }
        out.push_back(std::move(ref).value());
    }
    sort_by_first_gid(out);
    return out;
}

/// How messages name a layer: by name, else id, else position.
std::string layer_label(pugi::xml_node layer, std::size_t ordinal) {
    const std::string name = layer.attribute("name").value();
    if (!name.empty()) {
        return "layer " + in_quotes(name);
    }
    if (layer.attribute("id")) {
        return std::string("layer id ") + layer.attribute("id").value();
    }
    return "layer " + std::to_string(ordinal);
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

Result<ObjectLayerSource> read_object_layer(pugi::xml_node node, LayerScope& scope,
                                            std::size_t ordinal) {
    ObjectLayerSource layer;
    layer.name = node.attribute("name").value();
    layer.label = layer_label(node, ordinal);
    const std::string where = scope.file + ": " + layer.label;
    std::size_t count = 0;
    for (pugi::xml_node child : node.children("object")) {
        auto ok =
            add_object(scope, layer, where, [&] { return read_object(child, where, ++count); });
        if (!ok) {
            return ok.error();
        }
    }
    return layer;
}

/// Appends the layers under `parent` (the map or a group) to the map.
Result<void> read_layers(pugi::xml_node parent, LayerScope& scope,
                         const std::vector<LayerStep>& path, double offset_x, double offset_y,
                         int depth) {
    if (depth > k_max_group_depth) {
        return make_error(ErrorCode::limit_exceeded,
                          scope.file + ": group layers nested deeper than 64");
    }
    for (pugi::xml_node child : parent.children()) {
        const std::string_view kind = child.name();
        if (kind != "layer" && kind != "group" && kind != "objectgroup") {
            continue;
        }
        std::vector<LayerStep> inner = path;
        inner.push_back({child.attribute("name").value(), read_properties(child)});
        const std::string label =
            layer_label(child, scope.map.tile_layers.size() + scope.map.object_layers.size() + 1);
        auto dx = pixel_attribute(child, "offsetx", scope.file + ": " + label);
        auto dy = pixel_attribute(child, "offsety", scope.file + ": " + label);
        if (!dx || !dy) {
            return !dx ? dx.error() : dy.error();
        }
        const double ox = offset_x + dx->value_or(0);
        const double oy = offset_y + dy->value_or(0);
        if (kind == "layer") {
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

Result<void> read_map(pugi::xml_node node, const std::string& file, ExternalFiles& external,
                      MapSource& map) {
    const std::string where = file + ": <map>";
    const std::string orientation = node.attribute("orientation").as_string("orthogonal");
    if (auto ok = check_orientation(orientation, where); !ok) {
        return ok;
    }
    map.file = file;
    for (auto [name, field] :
         {std::pair{"tilewidth", &map.tile_width}, std::pair{"tileheight", &map.tile_height}}) {
        auto value = int_attribute(node, name, std::nullopt, where);
        if (!value) {
            return value.error();
        }
        auto size = checked_tile_size(*value, true, where + ": " + name);
        if (!size) {
            return size.error();
        }
        *field = *size;
    }
    auto w = tile_attribute(node, "width", 0, true, where);
    auto h = tile_attribute(node, "height", 0, true, where);
    if (!w || !h) {
        return !w ? w.error() : h.error();
    }
    map.width = *w;
    map.height = *h;
    map.infinite = node.attribute("infinite").as_int() != 0;
    auto tilesets = read_tilesets(node, file, external, map.warnings);
    if (!tilesets) {
        return tilesets.error();
    }
    map.tilesets = std::move(tilesets).value();
    LayerScope scope{file, *w, *h, map.infinite, external, map};
    return read_layers(node, scope, {}, 0, 0, 0);
}

/// The parsed document, or the error naming line and column.
Result<pugi::xml_node> parse_document(pugi::xml_document& document, std::string_view text,
                                      const std::string& file) {
    const pugi::xml_parse_result parsed = document.load_buffer(text.data(), text.size());
    if (!parsed) {
        const ErrorCode code = parsed.status == pugi::status_out_of_memory
                                   ? ErrorCode::limit_exceeded
                                   : ErrorCode::parse_error;
        return make_error(code, file + ": " +
                                    line_and_column(text, static_cast<std::size_t>(parsed.offset)) +
                                    ": XML: " + parsed.description());
    }
    return document.document_element();
}

/// The parsed document's root element, which must be <`expected`> (.tsx and
/// .tx files).
Result<pugi::xml_node> parse_root(pugi::xml_document& document, std::string_view text,
                                  const std::string& file, std::string_view expected) {
    auto root = parse_document(document, text, file);
    if (root && std::string_view(root->name()) != expected) {
        return make_error(ErrorCode::parse_error, file + ": root element is <" +
                                                      std::string(root->name()) + ">, expected <" +
                                                      std::string(expected) + ">");
    }
    return root;
}

} // namespace

// The accessors of tileset_header.hpp for TMX elements.

Result<std::int64_t> tileset_int(pugi::xml_node node, const char* name, std::int64_t fallback,
                                 const std::string& where) {
    auto value = int_attribute(node, name, fallback, where);
    if (!value) {
        return value.error();
    }
    if (*value < 0 || *value > k_max_coordinate) {
        return make_error(ErrorCode::parse_error,
                          where + ": " + name + ": out of range: " + std::to_string(*value));
    }
    return *value;
}

bool has_field(pugi::xml_node node, const char* name) { return bool(node.attribute(name)); }

std::string text_field(pugi::xml_node node, const char* name) {
    return node.attribute(name).value();
}

std::optional<std::pair<std::int64_t, std::int64_t>> tileset_image_size(pugi::xml_node node) {
    const pugi::xml_node image = node.child("image");
    if (!image) {
        return std::nullopt;
    }
    return std::pair{std::int64_t(image.attribute("width").as_llong(0)),
                     std::int64_t(image.attribute("height").as_llong(0))};
}

Result<PixelPoint> tile_offset(pugi::xml_node node, const std::string& where) {
    const pugi::xml_node offset = node.child("tileoffset");
    auto x = pixel_attribute(offset, "x", where);
    auto y = pixel_attribute(offset, "y", where);
    if (!x || !y) {
        return !x ? x.error() : y.error();
    }
    return PixelPoint{x->value_or(0), y->value_or(0)};
}

Properties read_properties(pugi::xml_node element) {
    Properties out;
    for (pugi::xml_node p : element.child("properties").children("property")) {
        const std::string type = p.attribute("type").value();
        std::string value;
        if (type != "class" && type != "list") {
            // Multi-line string properties keep their value in the element text.
            const pugi::xml_attribute v = p.attribute("value");
            value = v ? v.value() : p.text().get();
        }
        out.emplace_back(p.attribute("name").value(), std::move(value));
    }
    return out;
}

Result<std::shared_ptr<const Tileset>> read_tileset_contents(pugi::xml_node node,
                                                             const std::string& file) {
    auto set = std::make_shared<Tileset>();
    set->file = file;
    set->label = "tileset " + in_quotes(node.attribute("name").value());
    const std::string where = file + ": " + set->label;
    if (auto header = read_tileset_header(node, *set, where); !header) {
        return header.error();
    }
    for (pugi::xml_node tile : node.children("tile")) {
        const auto id = parse_integer(tile.attribute("id").value());
        if (!id || *id < 0 || *id > 0x0FFFFFFFll) {
            return make_error(ErrorCode::parse_error, where + ": <tile>: id: not a tile id: " +
                                                          in_quotes(tile.attribute("id").value()));
        }
        const std::string tile_where = where + ": tile " + std::to_string(*id);
        TileInfo info;
        info.properties = read_properties(tile);
        if (pugi::xml_node image = tile.child("image")) {
            info.image_width = std::max(0.0, image.attribute("width").as_double(0));
            info.image_height = std::max(0.0, image.attribute("height").as_double(0));
            if (!std::isfinite(info.image_width) || !std::isfinite(info.image_height) ||
                info.image_width > double(k_max_tile_pixels) ||
                info.image_height > double(k_max_tile_pixels)) {
                return make_error(ErrorCode::limit_exceeded,
                                  tile_where + ": image size over 65536 pixels");
            }
        }
        std::size_t ordinal = 0;
        for (pugi::xml_node object : tile.child("objectgroup").children("object")) {
            auto shape = read_object(object, tile_where, ++ordinal);
            if (!shape) {
                return shape.error();
            }
            info.shapes.push_back(std::move(shape).value());
        }
        add_tile(*set, static_cast<std::uint32_t>(*id), std::move(info));
    }
    return std::shared_ptr<const Tileset>(std::move(set));
}

Result<StaticGeometry> load_tmx(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options) {
    pugi::xml_document document;
    auto root = parse_document(document, text, file);
    if (!root) {
        return root.error();
    }
    const std::string_view name = root->name();
    if (name == "tileset" || name == "template") {
        return make_error(ErrorCode::invalid_input,
                          file + ": this is a Tiled " + std::string(name) + " (<" +
                              std::string(name) +
                              ">), not a map: run the map (.tmx, .tmj) that uses it");
    }
    if (name != "map") {
        return make_error(ErrorCode::parse_error,
                          file + ": root element is <" + std::string(name) + ">, expected <map>");
    }
    ExternalFiles external(options.read_file);
    MapSource map;
    if (auto ok = read_map(*root, file, external, map); !ok) {
        return ok.error();
    }
    return build_geometry(map, options);
}

Result<std::shared_ptr<const Tileset>> read_tsx(std::string_view text, const std::string& file) {
    pugi::xml_document document;
    auto root = parse_root(document, text, file, "tileset");
    if (!root) {
        return root.error();
    }
    return read_tileset_contents(*root, file);
}

Result<std::shared_ptr<const TemplateSource>> read_tx(std::string_view text,
                                                      const std::string& file,
                                                      ExternalFiles& external,
                                                      std::vector<std::string>& warnings) {
    pugi::xml_document document;
    auto root = parse_root(document, text, file, "template");
    if (!root) {
        return root.error();
    }
    auto out = std::make_shared<TemplateSource>();
    out->file = file;
    auto tilesets = read_tilesets(*root, file, external, warnings);
    if (!tilesets) {
        return tilesets.error();
    }
    out->tilesets = std::move(tilesets).value();
    const pugi::xml_node object = root->child("object");
    if (!object) {
        return make_error(ErrorCode::parse_error, file + ": <template> has no <object>");
    }
    auto parsed = read_object(object, file, 1);
    if (!parsed) {
        return parsed.error();
    }
    out->object = std::move(parsed).value();
    return std::shared_ptr<const TemplateSource>(std::move(out));
}

} // namespace sweep::io::detail
