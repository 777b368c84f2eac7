// Private: the readers of Tiled's XML files, after the TMX Map Format page of
// the Tiled documentation: maps (.tmx), tilesets (.tsx) and templates (.tx).
// Uses pugixml.
#pragma once

#include "map_source.hpp"

#include <sweep/io/tiled.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace sweep::io::detail {

/// StaticGeometry of the TMX document `text` read from `file` (for messages).
/// Errors as load_tiled_map; may throw std::bad_alloc (the caller catches).
Result<StaticGeometry> load_tmx(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options);

/// The tileset of a .tsx document.
Result<std::shared_ptr<const Tileset>> read_tsx(std::string_view text, const std::string& file);

/// The template of a .tx document; its tileset reference is read through
/// `external`.
Result<std::shared_ptr<const TemplateSource>> read_tx(std::string_view text,
                                                      const std::string& file,
                                                      ExternalFiles& external,
                                                      std::vector<std::string>& warnings);

} // namespace sweep::io::detail
