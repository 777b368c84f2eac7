// Helpers for the Tiled loader tests: paths of the shared real-world maps,
// a temporary directory for hand-written bad maps, and an encoder for tile
// data that shares no code with the loader's decoder.
#pragma once

#include <sweep/io/tiled.hpp>

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::test {

/// A map of the shared corpus (see ../shared/data/maps/README.md).
inline std::filesystem::path map_file(std::string_view relative) {
    return std::filesystem::path(SWEEP_SHARED_DIR) / "data" / "maps" / relative;
}

/// The whole file as text.
inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
  public:
    TempDir() {
        static std::atomic<int> counter{0};
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path_ = std::filesystem::temp_directory_path() /
                ("sweep-io-test-" + std::to_string(stamp) + "-" + std::to_string(counter++));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    /// Writes `text` to `name` inside the directory and returns its path.
    std::filesystem::path write(const std::string& name, std::string_view text) const {
        const auto file = path_ / name;
        std::ofstream out(file, std::ios::binary);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return file;
    }

  private:
    std::filesystem::path path_;
};

/// RFC 4648 base64 with padding, written out bit by bit.
inline std::string base64_encode(std::string_view bytes) {
    static constexpr char k_digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t group = 0;
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        for (std::size_t k = 0; k < 3; ++k) {
            group = (group << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        }
        for (std::size_t k = 0; k < 4; ++k) {
            out += k <= n ? k_digits[(group >> (18 - 6 * k)) & 63] : '=';
        }
    }
    return out;
}

/// Gids as little-endian 32-bit bytes (the layout of base64 tile data).
inline std::string gid_bytes(const std::vector<std::uint32_t>& gids) {
    std::string out;
    for (std::uint32_t g : gids) {
        for (int k = 0; k < 4; ++k) {
            out += static_cast<char>((g >> (8 * k)) & 0xff);
        }
    }
    return out;
}

/// `bytes` compressed as a zlib (window 15) or, with `gzip`, a gzip stream.
inline std::string deflate_bytes(std::string_view bytes, bool gzip) {
    z_stream zs{};
    deflateInit2(&zs, 9, Z_DEFLATED, gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = static_cast<uInt>(bytes.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

/// `bytes` as one zstd frame.
inline std::string zstd_bytes(std::string_view bytes) {
    std::string out(ZSTD_compressBound(bytes.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3));
    return out;
}

/// A one-layer orthogonal TMX map of `width`x`height` tiles of 16x8 pixels
/// whose layer has the given name, extra attributes, properties and <data>.
inline std::string tmx_map(int width, int height, const std::string& layer_name,
                           const std::string& data_element, const std::string& layer_extra = "",
                           const std::string& properties = "") {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<map version=\"1.10\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"" +
           std::to_string(width) + "\" height=\"" + std::to_string(height) +
           "\" tilewidth=\"16\" tileheight=\"8\" infinite=\"0\">\n"
           " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"8\"/>\n"
           " <layer id=\"1\" name=\"" +
           layer_name + "\" width=\"" + std::to_string(width) + "\" height=\"" +
           std::to_string(height) + "\"" + layer_extra + ">\n" +
           (properties.empty() ? "" : "  <properties>" + properties + "</properties>\n") + "  " +
           data_element + "\n </layer>\n</map>\n";
}

/// Options that name the solid layers (and so turn the automatic rule off).
inline io::TiledLoadOptions solid_layers(std::vector<std::string> names) {
    io::TiledLoadOptions options;
    options.solid_layers = std::move(names);
    return options;
}

/// gtest failure text for a Result that holds an error.
template <class T> std::string describe(const Result<T>& result) {
    return result ? std::string("ok") : result.error().message;
}

} // namespace sweep::test
