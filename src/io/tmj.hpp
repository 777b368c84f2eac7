// Private: the reader of Tiled JSON maps (.tmj, .json), after the JSON Map
// Format page of the Tiled documentation. Uses nlohmann::json.
#pragma once

#include <sweep/io/tiled.hpp>

#include <string>
#include <string_view>

namespace sweep::io::detail {

/// StaticGeometry of the JSON document `text` read from `file` (for
/// messages). Errors as load_tiled_map; may throw std::bad_alloc (the caller
/// catches).
Result<StaticGeometry> load_tmj(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options);

} // namespace sweep::io::detail
