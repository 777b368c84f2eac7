// What the two map targets do with an input: load it as a map, with the
// automatic solid-layer rule and then with each layer name found in the
// text, and check the result. The names matter because most real maps mark
// no layer solid by name or property; without them the fuzzer would rarely
// get past layer selection into decoding and merging.
#pragma once

#include "check_geometry.hpp"

#include <sweep/io/tiled.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sweep::fuzz {

/// Up to `max` distinct values of name attributes (TMX `name="..."`) or
/// name members (JSON `"name": "..."`) in `text`, in order of appearance.
inline std::vector<std::string> layer_name_candidates(std::string_view text, std::size_t max) {
    std::vector<std::string> names;
    for (std::size_t at = text.find("name"); at != std::string_view::npos && names.size() < max;
         at = text.find("name", at + 1)) {
        std::size_t i = at + 4;
        if (i < text.size() && text[i] == '"') {
            ++i; // the closing quote of a JSON key
        }
        while (i < text.size() && (text[i] == ' ' || text[i] == ':' || text[i] == '=')) {
            ++i;
        }
        if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) {
            continue;
        }
        const char quote = text[i];
        const std::size_t end = text.find(quote, i + 1);
        if (end == std::string_view::npos) {
            break;
        }
        std::string name(text.substr(i + 1, end - i - 1));
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(std::move(name));
        }
    }
    return names;
}

/// Loads `text` as `file` with `options`: on success checks the geometry,
/// on failure checks that the message names the file.
inline void load_and_check(std::string_view text, std::string_view file,
                           const io::TiledLoadOptions& options) {
    const Result<io::StaticGeometry> map = io::load_tiled_map_from_memory(text, file, options);
    if (map) {
        require(map->source == file, "source is the name given");
        check_geometry(*map);
    } else {
        require(map.error().message.rfind(std::string(file) + ": ", 0) == 0,
                "an error message starts with the file name");
        require(map.error().code != ErrorCode::io_error, "nothing is opened");
    }
}

/// The whole check of one input: automatic rule, then up to four names.
inline void fuzz_map(std::string_view text, std::string_view file) {
    load_and_check(text, file, {});
    for (std::string& name : layer_name_candidates(text, 4)) {
        io::TiledLoadOptions options;
        options.solid_layers.push_back(std::move(name));
        load_and_check(text, file, options);
    }
}

} // namespace sweep::fuzz
