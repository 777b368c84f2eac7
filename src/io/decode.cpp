// Decoding of Tiled tile data. Decompression goes through zlib and libzstd;
// every decoder writes into a buffer one byte larger than the expected
// output, so a decompression bomb is caught after one extra byte instead of
// being allocated.
#include "decode.hpp"

#include "error.hpp"

#include <zlib.h>
#include <zstd.h>

#include <array>
#include <climits>
#include <cstdio>
#include <memory>

namespace sweep::io::detail {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/// A byte for a message: itself when printable, else its hex code.
std::string describe_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7f) {
        return std::string("'") + c + "'";
    }
    std::array<char, 8> hex{};
    std::snprintf(hex.data(), hex.size(), "0x%02x", u);
    return hex.data();
}

/// The 6-bit value of a base64 digit, or -1.
int base64_value(char c) {
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    if (c == '+') {
        return 62;
    }
    if (c == '/') {
        return 63;
    }
    return -1;
}

Error size_mismatch(std::size_t got, std::size_t expected, std::string_view what) {
    if (got > expected) {
        return make_error(ErrorCode::limit_exceeded, std::string(what) + " gives more than " +
                                                         std::to_string(expected) +
                                                         " bytes (width*height*4)");
    }
    return make_error(ErrorCode::parse_error, std::string(what) + " gives " + std::to_string(got) +
                                                  " bytes, expected " + std::to_string(expected) +
                                                  " (width*height*4)");
}

/// zlib or gzip (the header is detected: window bits 15 + 32), because
/// some writers label one as the other.
Result<std::string> inflate_bytes(const std::string& bytes, std::size_t expected,
                                  std::string_view name) {
    if (bytes.size() > UINT_MAX || expected >= UINT_MAX) {
        return make_error(ErrorCode::limit_exceeded, std::string(name) + ": stream too large");
    }
    std::string out(expected + 1, '\0');
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) {
        return make_error(ErrorCode::limit_exceeded, std::string(name) + ": cannot start inflate");
    }
    // zlib's API takes non-const input pointers but does not write through them.
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = static_cast<uInt>(bytes.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&zs, Z_FINISH);
    const std::string message = zs.msg ? zs.msg : "";
    const std::size_t produced = zs.total_out;
    inflateEnd(&zs);
    if (status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > expected)) {
        if (produced != expected) {
            return size_mismatch(produced, expected, name);
        }
        out.resize(expected);
        return out;
    }
    if (status == Z_BUF_ERROR) {
        return make_error(ErrorCode::parse_error, std::string(name) + ": stream is truncated");
    }
    if (status == Z_MEM_ERROR) {
        return make_error(ErrorCode::limit_exceeded, std::string(name) + ": out of memory");
    }
    return make_error(ErrorCode::parse_error,
                      std::string(name) + ": corrupt stream" +
                          (message.empty() ? std::string() : " (" + message + ")"));
}

struct ZstdFree {
    void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};

/// Streaming zstd so that the frame's declared size is never trusted.
Result<std::string> unzstd_bytes(const std::string& bytes, std::size_t expected) {
    const std::unique_ptr<ZSTD_DCtx, ZstdFree> context(ZSTD_createDCtx());
    if (!context) {
        return make_error(ErrorCode::limit_exceeded, "zstd: out of memory");
    }
    std::string out(expected + 1, '\0');
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    ZSTD_outBuffer sink{out.data(), out.size(), 0};
    std::size_t remaining = 1;
    while (true) {
        const std::size_t in_before = in.pos;
        const std::size_t out_before = sink.pos;
        remaining = ZSTD_decompressStream(context.get(), &sink, &in);
        if (ZSTD_isError(remaining)) {
            return make_error(ErrorCode::parse_error, std::string("zstd: corrupt stream (") +
                                                          ZSTD_getErrorName(remaining) + ")");
        }
        if (sink.pos > expected) {
            return size_mismatch(sink.pos, expected, "zstd");
        }
        if (in.pos == in.size && remaining == 0) {
            break;
        }
        if (in.pos == in_before && sink.pos == out_before) {
            return make_error(ErrorCode::parse_error, "zstd: stream is truncated");
        }
    }
    if (sink.pos != expected) {
        return size_mismatch(sink.pos, expected, "zstd");
    }
    out.resize(expected);
    return out;
}

} // namespace

Result<std::string> decode_base64(std::string_view text) {
    std::string out;
    out.reserve(text.size() / 4 * 3 + 3);
    std::uint32_t bits = 0;
    int digits = 0;
    int padding = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (is_space(c)) {
            continue;
        }
        if (c == '=') {
            ++padding;
            continue;
        }
        const int value = base64_value(c);
        if (value < 0 || padding > 0) {
            return make_error(ErrorCode::parse_error,
                              "base64: " +
                                  (value < 0 ? "invalid character " + describe_char(c)
                                             : std::string("data after padding")) +
                                  " at offset " + std::to_string(i));
        }
        bits = (bits << 6) | static_cast<std::uint32_t>(value);
        if (++digits == 4) {
            out.push_back(static_cast<char>((bits >> 16) & 0xff));
            out.push_back(static_cast<char>((bits >> 8) & 0xff));
            out.push_back(static_cast<char>(bits & 0xff));
            bits = 0;
            digits = 0;
        }
    }
    // A final group of 2 or 3 digits carries 1 or 2 bytes; 1 digit carries none.
    if (digits == 1 || padding > 2 || (digits == 0 && padding > 0) ||
        (padding > 0 && digits + padding != 4)) {
        return make_error(ErrorCode::parse_error, "base64: truncated or badly padded (" +
                                                      std::to_string(digits) + " digits left)");
    }
    if (digits == 2) {
        out.push_back(static_cast<char>((bits >> 4) & 0xff));
    } else if (digits == 3) {
        out.push_back(static_cast<char>((bits >> 10) & 0xff));
        out.push_back(static_cast<char>((bits >> 2) & 0xff));
    }
    return out;
}

Result<std::string> decompress(std::string_view compression, std::string bytes,
                               std::size_t expected) {
    if (compression.empty()) {
        if (bytes.size() != expected) {
            return size_mismatch(bytes.size(), expected, "base64");
        }
        return bytes;
    }
    if (compression == "zlib" || compression == "gzip") {
        return inflate_bytes(bytes, expected, compression);
    }
    if (compression == "zstd") {
        return unzstd_bytes(bytes, expected);
    }
    return make_error(ErrorCode::unsupported, "unknown compression " + in_quotes(compression));
}

Result<std::vector<std::uint32_t>> parse_csv(std::string_view text, std::size_t count) {
    std::vector<std::uint32_t> gids;
    gids.reserve(count);
    std::size_t i = 0;
    while (true) {
        while (i < text.size() && is_space(text[i])) {
            ++i;
        }
        const std::size_t start = i;
        std::uint64_t value = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
            if (value > 0xFFFFFFFFu) {
                return make_error(ErrorCode::parse_error, "csv: value " +
                                                              std::to_string(gids.size() + 1) +
                                                              " is out of range (over 2^32-1)");
            }
            ++i;
        }
        const bool has_digits = i > start;
        while (i < text.size() && is_space(text[i])) {
            ++i;
        }
        const bool at_end = i == text.size();
        if (!has_digits) {
            // "a,b," ends with one empty value after the last comma; tolerated.
            if (at_end && !gids.empty()) {
                break;
            }
            const std::size_t stop = text.find(',', i);
            return make_error(
                ErrorCode::parse_error,
                "csv: value " + std::to_string(gids.size() + 1) + " at offset " +
                    std::to_string(start) +
                    (at_end || text[i] == ','
                         ? std::string(" is empty")
                         : " is not a tile id: " + in_quotes(text.substr(i, stop - i))));
        }
        if (!at_end && text[i] != ',') {
            return make_error(ErrorCode::parse_error,
                              "csv: value " + std::to_string(gids.size() + 1) + " at offset " +
                                  std::to_string(start) + " is not a tile id: unexpected " +
                                  describe_char(text[i]));
        }
        if (gids.size() == count) {
            return make_error(ErrorCode::parse_error,
                              "csv: more than " + std::to_string(count) + " values (width*height)");
        }
        gids.push_back(static_cast<std::uint32_t>(value));
        if (at_end) {
            break;
        }
        ++i; // the comma
    }
    if (gids.size() != count) {
        return make_error(ErrorCode::parse_error, "csv: " + std::to_string(gids.size()) +
                                                      " values, expected " + std::to_string(count) +
                                                      " (width*height)");
    }
    return gids;
}

Result<std::vector<std::uint32_t>> gids_from_bytes(std::string_view bytes, std::size_t count) {
    if (bytes.size() != count * 4) {
        return size_mismatch(bytes.size(), count * 4, "data");
    }
    std::vector<std::uint32_t> gids(count);
    for (std::size_t k = 0; k < count; ++k) {
        const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + 4 * k);
        gids[k] = std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
                  (std::uint32_t(p[3]) << 24);
    }
    return gids;
}

Result<std::vector<std::uint32_t>> decode_tile_data(std::string_view encoding,
                                                    std::string_view compression,
                                                    std::string_view text, std::size_t count) {
    if (encoding == "csv") {
        if (!compression.empty()) {
            return make_error(ErrorCode::unsupported,
                              "compression " + in_quotes(compression) + " with csv encoding");
        }
        return parse_csv(text, count);
    }
    if (encoding != "base64") {
        return make_error(ErrorCode::unsupported, "unknown encoding " + in_quotes(encoding));
    }
    // Refuse an unknown compression before decoding the base64, so the
    // message names the real problem.
    if (!compression.empty() && compression != "zlib" && compression != "gzip" &&
        compression != "zstd") {
        return make_error(ErrorCode::unsupported, "unknown compression " + in_quotes(compression));
    }
    auto bytes = decode_base64(text);
    if (!bytes) {
        return bytes.error();
    }
    auto raw = decompress(compression, std::move(bytes).value(), count * 4);
    if (!raw) {
        return raw.error();
    }
    return gids_from_bytes(raw.value(), count);
}

} // namespace sweep::io::detail
