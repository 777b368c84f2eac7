// Private: the half of walking a map's layers that does not depend on the
// syntax, shared by the TMX and JSON readers (tmx.cpp, tmj.cpp): the scope
// every layer reader needs, objects counted against their budget and merged
// over their templates, and a layer read from the file joining the map at its
// place among the groups. Reading nodes stays in each reader.
#pragma once

#include "error.hpp"
#include "map_source.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sweep::io::detail {

/// What every layer reader needs.
struct LayerScope {
    const std::string& file;
    std::int64_t map_width = 0;
    std::int64_t map_height = 0;
    bool infinite = false;
    ExternalFiles& external;
    MapSource& map;
    std::size_t objects = 0; ///< read so far, against k_max_objects
};

/// Counts one more object of the map. Errors: more than k_max_objects
/// (limit_exceeded, naming the file).
Result<void> count_object(LayerScope& scope);

/// The object merged over its template, or a warning and nothing when the
/// template cannot be read. `where` names the layer in the warning.
std::optional<PlacedObject> place_object(ObjectSource object, LayerScope& scope,
                                         const std::string& where);

/// Adds the next object of `layer` (named by `where`): counts it, reads it
/// with `read` (the syntax's reader of that one object, returning a
/// Result<ObjectSource>) and keeps it unless its template is missing. It is
/// counted before it is read, so that past the budget nothing more is read.
template <class ReadObject>
Result<void> add_object(LayerScope& scope, ObjectLayerSource& layer, const std::string& where,
                        ReadObject&& read) {
    if (auto ok = count_object(scope); !ok) {
        return ok;
    }
    auto object = std::forward<ReadObject>(read)();
    if (!object) {
        return object.error();
    }
    if (auto placed = place_object(std::move(object).value(), scope, where)) {
        layer.objects.push_back(std::move(*placed));
    }
    return {};
}

/// Appends `layer` (a TileLayerSource or an ObjectLayerSource) to `layers`
/// with its place in the map: `path`, the groups that enclose it and then the
/// layer itself, and its offset summed along that path, pixels.
template <class Layer>
void add_layer(Layer layer, std::vector<LayerStep> path, double offset_x, double offset_y,
               std::vector<Layer>& layers) {
    layer.path = std::move(path);
    layer.offset_x = offset_x;
    layer.offset_y = offset_y;
    layers.push_back(std::move(layer));
}

} // namespace sweep::io::detail
