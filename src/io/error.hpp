// Private helpers for the loaders' error messages, which name the file, the
// place and the field: `maps/x.tmx: layer "Ground": data: unknown compression "lzma"`.
#pragma once

#include <sweep/result.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace sweep::io::detail {

/// An Error with the given code and message.
inline Error make_error(ErrorCode code, std::string message) {
    return Error{code, std::move(message)};
}

/// The error with `where` and ": " put in front of its message.
inline Error in_context(Error error, std::string_view where) {
    error.message = std::string(where) + ": " + error.message;
    return error;
}

/// `text` in double quotes, cut to 40 bytes so that a garbage field cannot
/// flood a message.
inline std::string in_quotes(std::string_view text) {
    constexpr std::size_t k_max = 40;
    std::string out = "\"";
    out += text.substr(0, k_max);
    if (text.size() > k_max) {
        out += "...";
    }
    out += "\"";
    return out;
}

} // namespace sweep::io::detail
