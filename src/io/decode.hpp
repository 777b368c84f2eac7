// Private: decoding of Tiled tile data (CSV, base64, zlib, gzip, zstd) into
// global tile ids. Messages carry no context; callers prefix the place.
#pragma once

#include <sweep/result.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::io::detail {

/// The bits of a global tile id that are flags (H, V, diagonal flip and
/// hexagonal 120-degree rotation), not part of the id (Tiled TMX format,
/// "Tile flipping").
inline constexpr std::uint32_t k_gid_flag_bits = 0xF0000000u;

/// The global tile id with its flag bits cleared; 0 means an empty cell.
constexpr std::uint32_t tile_id(std::uint32_t gid) { return gid & ~k_gid_flag_bits; }

/// Standard base64 (RFC 4648, section 4) to bytes. Whitespace is skipped;
/// padding may be left out. parse_error names the offending offset.
Result<std::string> decode_base64(std::string_view text);

/// Decompresses `bytes` compressed with "zlib", "gzip" or "zstd" ("" = as
/// is), refusing to produce more than `expected` bytes (limit_exceeded) and
/// failing with parse_error when the stream is corrupt, truncated or shorter
/// than `expected`; unsupported for another compression name.
Result<std::string> decompress(std::string_view compression, std::string bytes,
                               std::size_t expected);

/// `count` comma-separated decimal gids; whitespace (CR, LF) ignored, one
/// trailing comma tolerated. parse_error on a wrong count or a non-numeric
/// or out-of-range value.
Result<std::vector<std::uint32_t>> parse_csv(std::string_view text, std::size_t count);

/// `count` little-endian 32-bit gids from exactly count*4 bytes.
Result<std::vector<std::uint32_t>> gids_from_bytes(std::string_view bytes, std::size_t count);

/// The gids of `count` cells stored as `text` with a TMX/JSON encoding
/// ("csv" or "base64") and compression ("", "zlib", "gzip", "zstd").
Result<std::vector<std::uint32_t>> decode_tile_data(std::string_view encoding,
                                                    std::string_view compression,
                                                    std::string_view text, std::size_t count);

} // namespace sweep::io::detail
