// Private: the readers of Tiled's JSON files, after the JSON Map Format page
// of the Tiled documentation: maps (.tmj, .json), tilesets (.tsj, .json) and
// templates (.tj). Uses nlohmann::json.
#pragma once

#include "map_source.hpp"

#include <sweep/io/tiled.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace sweep::io::detail {

/// StaticGeometry of the JSON document `text` read from `file` (for
/// messages). Errors as load_tiled_map; may throw std::bad_alloc (the caller
/// catches).
Result<StaticGeometry> load_tmj(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options);

/// The tileset of a JSON tileset document.
Result<std::shared_ptr<const Tileset>> read_tsj(std::string_view text, const std::string& file);

/// The template of a JSON template document (.tj).
Result<std::shared_ptr<const TemplateSource>> read_tj(std::string_view text,
                                                      const std::string& file,
                                                      ExternalFiles& external,
                                                      std::vector<std::string>& warnings);

} // namespace sweep::io::detail
