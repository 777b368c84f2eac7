// load_tiled_map: reads the file, picks the reader by the first character
// and keeps every exception inside the library (docs/conventions.md,
// "Errors").
#include <sweep/io/tiled.hpp>

#include "error.hpp"
#include "map_source.hpp"
#include "tmj.hpp"
#include "tmx.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <string_view>
#include <system_error>

namespace sweep::io {
namespace {

using detail::make_error;

/// The whole file, refusing directories and files over the size budget.
Result<std::string> read_file(const std::filesystem::path& path, const std::string& name) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        return make_error(ErrorCode::io_error, name + ": is a directory");
    }
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > static_cast<std::uintmax_t>(detail::k_max_file_bytes)) {
        return make_error(ErrorCode::limit_exceeded,
                          name + ": " + std::to_string(size) + " bytes, over the 1 GiB budget");
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return make_error(ErrorCode::io_error,
                          name +
                              ": cannot open: " + (errno ? std::strerror(errno) : "unknown error"));
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        return make_error(ErrorCode::io_error, name + ": read failed");
    }
    return text;
}

/// The first significant character: after a UTF-8 byte order mark and
/// whitespace; '\0' for an empty document.
char first_significant(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        text.remove_prefix(3);
    }
    const std::size_t at = text.find_first_not_of(" \t\r\n");
    return at == std::string_view::npos ? '\0' : text[at];
}

/// Dispatches `text` to the TMX or the JSON reader; `name` names it in messages.
Result<StaticGeometry> parse(std::string_view text, const std::string& name,
                             const TiledLoadOptions& options) {
    if (text.size() > static_cast<std::size_t>(detail::k_max_file_bytes)) {
        return make_error(ErrorCode::limit_exceeded, name + ": " + std::to_string(text.size()) +
                                                         " bytes, over the 1 GiB budget");
    }
    switch (first_significant(text)) {
    case '<':
        return detail::load_tmx(text, name, options);
    case '{':
        return detail::load_tmj(text, name, options);
    case '\0':
        return make_error(ErrorCode::parse_error, name + ": empty file");
    default:
        return make_error(ErrorCode::parse_error,
                          name + ": neither a TMX (XML) nor a Tiled JSON map");
    }
}

Result<StaticGeometry> load(const std::filesystem::path& path, const std::string& name,
                            const TiledLoadOptions& options) {
    auto text = read_file(path, name);
    if (!text) {
        return text.error();
    }
    if (options.read_file) {
        return parse(*text, name, options);
    }
    // Tilesets and templates come from the file system, next to the map.
    TiledLoadOptions with_files = options;
    with_files.read_file = [](const std::filesystem::path& file) -> Result<std::string> {
        return read_file(file, file.generic_string());
    };
    return parse(*text, name, with_files);
}

} // namespace

Result<SolidProperty> parse_solid_property(std::string_view text) {
    const std::size_t equals = text.find('=');
    SolidProperty out;
    out.key = std::string(text.substr(0, equals));
    if (equals != std::string_view::npos) {
        out.value = std::string(text.substr(equals + 1));
    }
    if (out.key.empty()) {
        return make_error(ErrorCode::invalid_input,
                          "solid property " + detail::in_quotes(text) +
                              ": expected KEY or KEY=VALUE with a non-empty KEY");
    }
    return out;
}

Result<StaticGeometry> load_tiled_map(const std::filesystem::path& file,
                                      const TiledLoadOptions& options) {
    std::string name;
    try {
        name = file.string();
        return load(file, name, options);
    } catch (const std::bad_alloc&) {
        return make_error(ErrorCode::limit_exceeded, name + ": out of memory");
    } catch (const std::exception& e) {
        return make_error(ErrorCode::parse_error, name + ": " + e.what());
    } catch (...) {
        return make_error(ErrorCode::parse_error, name + ": unknown error");
    }
}

Result<StaticGeometry> load_tiled_map_from_memory(std::string_view text, std::string_view name,
                                                  const TiledLoadOptions& options) {
    std::string file;
    try {
        file = std::string(name);
        return parse(text, file, options);
    } catch (const std::bad_alloc&) {
        return make_error(ErrorCode::limit_exceeded, file + ": out of memory");
    } catch (const std::exception& e) {
        return make_error(ErrorCode::parse_error, file + ": " + e.what());
    } catch (...) {
        return make_error(ErrorCode::parse_error, file + ": unknown error");
    }
}

} // namespace sweep::io
