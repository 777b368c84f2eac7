// Private: a tileset's header — tile size, margin and spacing, tile count,
// tile offset, object alignment, render size and properties — and the entry
// that names a tileset in a map or template — its first gid, and a file or
// the tileset itself — read the same way from TMX <tileset> elements and JSON
// tileset objects, by templates over the node type. Each reader defines the
// accessors below for its node type (tmx.cpp for pugi::xml_node, tmj.cpp for
// nlohmann::json): they differ in where a field lives (an attribute or a
// child element, a key), not in what it means.
#pragma once

#include "error.hpp"
#include "map_source.hpp"

#include <nlohmann/json_fwd.hpp>
// Complete, not declared: overload resolution in tmj.cpp asks whether a JSON
// value converts to an xml_node, which nlohmann's traits need the whole type for.
#include <pugixml.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sweep::io::detail {

/// The optional non-negative integer field `name` of a tileset or of its
/// entry in a map, `fallback` when absent. Errors: not an integer, or beyond k_max_coordinate
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

/// The tileset `node` with its contents, not a reference to a file: a
/// <tileset> element embedded in a map or template or a .tsx root, a JSON
/// tileset object embedded or a tileset document.
Result<std::shared_ptr<const Tileset>> read_tileset_contents(pugi::xml_node node,
                                                             const std::string& file);
Result<std::shared_ptr<const Tileset>> read_tileset_contents(const nlohmann::json& node,
                                                             const std::string& file);

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
        auto size = checked_tile_size(*value, false, where + ": " + name);
        if (!size) {
            return size.error();
        }
        *field = *size;
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

/// The tileset entry `node` of a map or template in `file` (`where` names
/// it): its first gid (1 when absent) and its tileset, read through
/// `external` from the file its source names, else from its contents.
/// Errors: the accessors' and readers' errors, a first gid outside 1..2^28-1
/// (parse_error), and the external file's errors with `where` in front.
template <class Node>
Result<TilesetRef> read_tileset_ref(const Node& node, const std::string& file,
                                    const std::string& where, ExternalFiles& external,
                                    std::vector<std::string>& warnings) {
    auto first = tileset_int(node, "firstgid", 1, where);
    if (!first) {
        return first.error();
    }
    // 0 is no tile, and a gid's top four bits are its flip and rotation flags.
    if (*first < 1 || *first > 0x0FFFFFFFll) {
        return make_error(ErrorCode::parse_error,
                          where + ": firstgid: out of range: " + std::to_string(*first));
    }
    TilesetRef ref;
    ref.first_gid = static_cast<std::uint32_t>(*first);
    if (has_field(node, "source")) {
        auto set = external.tileset(file, text_field(node, "source"), warnings);
        if (!set) {
            return in_context(set.error(), where);
        }
        ref.tileset = std::move(set).value();
    } else {
        auto set = read_tileset_contents(node, file);
        if (!set) {
            return set.error();
        }
        ref.tileset = std::move(set).value();
    }
    return ref;
}

} // namespace sweep::io::detail
