// Private: the reader of TMX (XML) maps, after the TMX Map Format page of the
// Tiled documentation. Uses pugixml.
#pragma once

#include <sweep/io/tiled.hpp>

#include <string>
#include <string_view>

namespace sweep::io::detail {

/// StaticGeometry of the TMX document `text` read from `file` (for messages).
/// Errors as load_tiled_map; may throw std::bad_alloc (the caller catches).
Result<StaticGeometry> load_tmx(std::string_view text, const std::string& file,
                                const TiledLoadOptions& options);

} // namespace sweep::io::detail
