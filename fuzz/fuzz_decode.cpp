// libFuzzer target: the tile data decoders of sweep::io (src/io/decode.hpp,
// private to the library, so this target alone sees src/io). The first byte
// picks a mode:
// - arbitrary: decode_tile_data or decompress on the remaining bytes with a
//   fuzzed encoding, compression and cell count; a success has exactly the
//   cells (bytes) asked for;
// - round trip: gids from the fuzz input are written as CSV, as base64 and as
//   base64 of zlib, gzip and zstd streams by encoders that share no code with
//   the decoders (zlib's and libzstd's own compressors), and must decode to
//   the same gids.
#include "decode.hpp"

#include <fuzzer/FuzzedDataProvider.h>
#include <zlib.h>
#include <zstd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace detail = sweep::io::detail;

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "invariant violated: %s\n", what);
        std::abort();
    }
}

/// Cells per input: enough for real chunks, small enough to stay fast.
constexpr std::size_t k_max_count = 1 << 12;

constexpr std::array<std::string_view, 4> k_encodings = {"csv", "base64", "", "xml"};
constexpr std::array<std::string_view, 6> k_compressions = {"",     "zlib", "gzip",
                                                            "zstd", "lzma", "ZLIB"};

std::string little_endian(const std::vector<std::uint32_t>& gids) {
    std::string bytes;
    for (std::uint32_t g : gids) {
        for (int shift = 0; shift < 32; shift += 8) {
            bytes.push_back(static_cast<char>((g >> shift) & 0xff));
        }
    }
    return bytes;
}

/// RFC 4648 base64 with padding, optionally broken into lines as some
/// writers do.
std::string base64(std::string_view bytes, std::size_t line) {
    static constexpr char k_digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t group = std::uint32_t(static_cast<unsigned char>(bytes[i])) << 16;
        if (i + 1 < bytes.size()) {
            group |= std::uint32_t(static_cast<unsigned char>(bytes[i + 1])) << 8;
        }
        if (i + 2 < bytes.size()) {
            group |= std::uint32_t(static_cast<unsigned char>(bytes[i + 2]));
        }
        out.push_back(k_digits[(group >> 18) & 63]);
        out.push_back(k_digits[(group >> 12) & 63]);
        out.push_back(i + 1 < bytes.size() ? k_digits[(group >> 6) & 63] : '=');
        out.push_back(i + 2 < bytes.size() ? k_digits[group & 63] : '=');
        if (line > 0 && (i / 3 + 1) % line == 0) {
            out += "\r\n";
        }
    }
    return out;
}

/// zlib (window bits 15) or gzip (15 + 16) by deflate.
std::string deflate_bytes(std::string_view bytes, int window_bits) {
    z_stream zs{};
    require(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, 8,
                         Z_DEFAULT_STRATEGY) == Z_OK,
            "deflateInit2");
    std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = static_cast<uInt>(bytes.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    require(deflate(&zs, Z_FINISH) == Z_STREAM_END, "deflate");
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

std::string zstd_bytes(std::string_view bytes) {
    // One context for the whole run: creating one per call dominated the run time.
    static ZSTD_CCtx* const context = ZSTD_createCCtx();
    std::string out(ZSTD_compressBound(bytes.size()), '\0');
    const std::size_t size =
        ZSTD_compressCCtx(context, out.data(), out.size(), bytes.data(), bytes.size(), 1);
    require(!ZSTD_isError(size), "ZSTD_compress");
    out.resize(size);
    return out;
}

void check_round_trip(FuzzedDataProvider& in) {
    const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(0, k_max_count);
    const std::size_t per_line = in.ConsumeIntegralInRange<std::size_t>(0, 40);
    std::vector<std::uint32_t> gids;
    gids.reserve(count);
    for (std::size_t k = 0; k < count; ++k) {
        gids.push_back(in.ConsumeIntegral<std::uint32_t>());
    }

    std::string csv;
    for (std::size_t k = 0; k < count; ++k) {
        csv += std::to_string(gids[k]);
        if (k + 1 < count) {
            csv += ',';
            if (per_line > 0 && (k + 1) % per_line == 0) {
                csv += "\r\n";
            }
        }
    }
    if (count > 0) {
        auto parsed = detail::decode_tile_data("csv", "", csv, count);
        require(parsed && *parsed == gids, "csv round trip");
    }

    const std::string raw = little_endian(gids);
    auto bytes = detail::decode_base64(base64(raw, per_line));
    require(bytes && *bytes == raw, "base64 round trip");
    const std::array<std::pair<std::string_view, std::string>, 4> streams = {{
        {"", raw},
        {"zlib", deflate_bytes(raw, 15)},
        {"gzip", deflate_bytes(raw, 15 + 16)},
        {"zstd", zstd_bytes(raw)},
    }};
    for (const auto& [compression, stream] : streams) {
        auto decoded = detail::decode_tile_data("base64", compression, base64(stream, 0), count);
        require(decoded && *decoded == gids, "base64+compression round trip");
    }
}

void check_arbitrary(FuzzedDataProvider& in) {
    const std::string_view encoding = in.PickValueInArray(k_encodings);
    const std::string_view compression = in.PickValueInArray(k_compressions);
    const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(0, k_max_count);
    const bool raw = in.ConsumeBool();
    const std::string text = in.ConsumeRemainingBytesAsString();
    if (raw) {
        auto bytes = detail::decompress(compression, text, count * 4);
        require(!bytes || bytes->size() == count * 4, "decompress gives the expected size");
        return;
    }
    auto gids = detail::decode_tile_data(encoding, compression, text, count);
    require(!gids || gids->size() == count, "decode_tile_data gives the expected count");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    if (in.ConsumeBool()) {
        check_round_trip(in);
    } else {
        check_arbitrary(in);
    }
    return 0;
}
