// Private: a tileset's header — tile size, margin and spacing, tile count,
// tile offset, object alignment, render size and properties — read the same
// way from a TMX <tileset> element and a JSON tileset object, by one template
// over the node type. Each reader defines the accessors below for its node
// type (tmx.cpp for pugi::xml_node, tmj.cpp for nlohmann::json): they differ
// in where a field lives (an attribute or a child element, a key), not in
// what it means.
#pragma once

#include "error.hpp"
#include "map_source.hpp"

#include <nlohmann/json_fwd.hpp>
// Complete, not declared: overload resolution in tmj.cpp asks whether a JSON
// value converts to an xml_node, which nlohmann's traits need the whole type for.
#include <pugixml.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace sweep::io::detail {

/// The optional non-negative integer field `name` of a tileset, `fallback`
/// when absent. Errors: not an integer, or beyond k_max_coordinate
/// (parse_error, naming `where` and the field).
Result<std::int64_t> tileset_int(pugi::xml_node node, const char* name, std::int64_t fallback,
                                 const std::string& where);
Result<std::int64_t> tileset_int(const nlohmann::json& node, const char* name,
                                 std::int64_t fallback, const std::string& where);

/// Whether the tileset has the field `name`.
bool has_field(pugi::xml_node node, const char* name);
bool has_field(const nlohmann::json& node, const char* name);

/// The text of field `name`; "" when absent (or, in JSON, not a string).
std::string text_field(pugi::xml_node node, const char* name);
std::string text_field(const nlohmann::json& node, const char* name);

/// The tileset image's size in pixels (<image width height> in TMX,
/// imagewidth/imageheight in JSON), when both are integers.
std::optional<std::pair<std::int64_t, std::int64_t>> tileset_image_size(pugi::xml_node node);
std::optional<std::pair<std::int64_t, std::int64_t>> tileset_image_size(const nlohmann::json& node);

/// The tileset's tileoffset in pixels, (0, 0) when absent. Errors: a bad
/// number (parse_error, naming `where`).
Result<PixelPoint> tile_offset(pugi::xml_node node, const std::string& where);
Result<PixelPoint> tile_offset(const nlohmann::json& node, const std::string& where);

/// The custom properties of a map element (its <properties> child, its
/// "properties" array).
Properties read_properties(pugi::xml_node element);
Properties read_properties(const nlohmann::json& holder);

/// Reads the header of the tileset `node` into `set`; `where` names the
/// tileset in messages. Legacy tilesets without a tile count get it from
/// their image size, margin and spacing. Errors: the accessors' errors, and
/// tiles wider or taller than k_max_tile_pixels (limit_exceeded).
template <class Node>
Result<void> read_tileset_header(const Node& node, Tileset& set, const std::string& where) {
    for (auto [name, field] :
         {std::pair{"tilewidth", &set.tile_width}, std::pair{"tileheight", &set.tile_height}}) {
        auto value = tileset_int(node, name, 0, where);
        if (!value) {
            return value.error();
        }
        if (*value > k_max_tile_pixels) {
            return make_error(ErrorCode::limit_exceeded, where + ": " + name + ": " +
                                                             std::to_string(*value) +
                                                             " pixels is over 65536");
        }
        *field = static_cast<int>(*value);
    }
    auto margin = tileset_int(node, "margin", 0, where);
    auto spacing = tileset_int(node, "spacing", 0, where);
    if (!margin || !spacing) {
        return !margin ? margin.error() : spacing.error();
    }
    if (has_field(node, "tilecount")) {
        auto count = tileset_int(node, "tilecount", 0, where);
        if (!count) {
            return count.error();
        }
        set.tile_count = *count;
    } else if (const auto image = tileset_image_size(node);
               image && set.tile_width > 0 && set.tile_height > 0) {
        // Legacy tilesets: the count follows from the image size.
        const auto [w, h] = *image;
        if (w > 0 && h > 0 && w <= k_max_coordinate && h <= k_max_coordinate) {
            const std::int64_t columns = (w - 2 * *margin + *spacing) / (set.tile_width + *spacing);
            const std::int64_t rows = (h - 2 * *margin + *spacing) / (set.tile_height + *spacing);
            set.tile_count = std::max<std::int64_t>(0, columns) * std::max<std::int64_t>(0, rows);
        }
    }
    auto offset = tile_offset(node, where + ": tileoffset");
    if (!offset) {
        return offset.error();
    }
    set.offset_x = offset->x;
    set.offset_y = offset->y;
    set.object_alignment = text_field(node, "objectalignment");
    set.render_grid_size = text_field(node, "tilerendersize") == "grid";
    set.properties = read_properties(node);
    return {};
}

} // namespace sweep::io::detail
