// External files (tilesets, templates), gid resolution and template merging:
// the parts of the model shared by the TMX and JSON readers.
#include "decode.hpp"
#include "error.hpp"
#include "map_source.hpp"
#include "tmj.hpp"
#include "tmx.hpp"

#include <algorithm>
#include <filesystem>

namespace sweep::io::detail {
namespace {

/// '<' for XML, '{' for JSON: the first significant character.
char first_significant(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        text.remove_prefix(3);
    }
    const std::size_t at = text.find_first_not_of(" \t\r\n");
    return at == std::string_view::npos ? '\0' : text[at];
}

} // namespace

const std::string* find_property(const Properties& properties, std::string_view name) {
    for (auto it = properties.rbegin(); it != properties.rend(); ++it) {
        if (it->first == name) {
            return &it->second;
        }
    }
    return nullptr;
}

PixelPoint Tileset::tile_size(std::uint32_t local_id) const {
    const auto it = tiles.find(local_id);
    if (it != tiles.end() && it->second.image_width > 0 && it->second.image_height > 0) {
        return {it->second.image_width, it->second.image_height};
    }
    return {static_cast<double>(tile_width), static_cast<double>(tile_height)};
}

const TileInfo* TileRef::info() const {
    if (!tileset) {
        return nullptr;
    }
    const auto it = tileset->tiles.find(local_id);
    return it == tileset->tiles.end() ? nullptr : &it->second;
}

TileRef resolve_gid(const std::vector<TilesetRef>& scope, std::uint32_t gid, bool* out_of_range) {
    TileRef ref;
    ref.flags = gid & k_gid_flag_bits;
    const std::uint32_t id = tile_id(gid);
    if (out_of_range) {
        *out_of_range = false;
    }
    if (id == 0) {
        return ref;
    }
    // The last tileset whose first gid is at most id.
    auto it =
        std::upper_bound(scope.begin(), scope.end(), id,
                         [](std::uint32_t v, const TilesetRef& t) { return v < t.first_gid; });
    if (it == scope.begin()) {
        if (out_of_range) {
            *out_of_range = !scope.empty();
        }
        return ref;
    }
    --it;
    ref.tileset = it->tileset.get();
    ref.local_id = id - it->first_gid;
    // Image collections may have gaps in their ids: a listed tile is in range.
    if (ref.tileset->available && ref.tileset->tile_count >= 0 &&
        ref.local_id >= ref.tileset->tile_count && !ref.tileset->tiles.count(ref.local_id)) {
        if (out_of_range) {
            *out_of_range = true;
        }
        ref.tileset = nullptr;
    }
    return ref;
}

void add_tile(Tileset& set, std::uint32_t local_id, TileInfo info) {
    if (!info.properties.empty() || !info.shapes.empty() || info.image_width > 0 ||
        info.image_height > 0) {
        set.tiles[local_id] = std::move(info);
    }
}

void sort_by_first_gid(std::vector<TilesetRef>& tilesets) {
    std::stable_sort(
        tilesets.begin(), tilesets.end(),
        [](const TilesetRef& a, const TilesetRef& b) { return a.first_gid < b.first_gid; });
}

std::string resolve_path(const std::string& referrer, const std::string& source) {
    const std::filesystem::path base = std::filesystem::path(referrer).parent_path();
    return (base / std::filesystem::path(source)).lexically_normal().generic_string();
}

ObjectSource merge_template(const ObjectSource& instance, const ObjectSource& base) {
    ObjectSource out = base;
    out.id = instance.id;
    out.label = instance.label;
    out.template_source = instance.template_source;
    if (instance.name) {
        out.name = instance.name;
    }
    if (instance.type) {
        out.type = instance.type;
    }
    for (auto field : {&ObjectSource::x, &ObjectSource::y, &ObjectSource::width,
                       &ObjectSource::height, &ObjectSource::rotation}) {
        if (instance.*field) {
            out.*field = instance.*field;
        }
    }
    if (instance.gid) {
        out.gid = instance.gid;
    }
    if (instance.kind) {
        out.kind = instance.kind;
        out.points = instance.points;
    }
    // Properties merge by name; find_property reads the last, so the
    // instance's come after the template's.
    out.properties.insert(out.properties.end(), instance.properties.begin(),
                          instance.properties.end());
    if (!out.name && base.name && !base.name->empty()) {
        out.label += ' ';
        out.label += in_quotes(*base.name);
    }
    return out;
}

Result<std::string> ExternalFiles::read(const std::string& path) {
    if (++opened_ > k_max_external_files) {
        return make_error(ErrorCode::limit_exceeded,
                          "more than " + std::to_string(k_max_external_files) + " external files");
    }
    auto text = reader_(std::filesystem::path(path));
    if (!text) {
        return text.error();
    }
    return text;
}

Result<std::shared_ptr<const Tileset>> ExternalFiles::tileset(const std::string& referrer,
                                                              const std::string& source,
                                                              std::vector<std::string>& warnings) {
    const std::string path = resolve_path(referrer, source);
    if (const auto it = tilesets_.find(path); it != tilesets_.end()) {
        return it->second;
    }
    if (!reader_) {
        auto missing = std::make_shared<Tileset>();
        missing->file = path;
        missing->label = "tileset " + in_quotes(source);
        missing->available = false;
        warnings.push_back(referrer + ": tileset " + in_quotes(source) +
                           ": not opened (map read from memory); its tiles have no collision "
                           "shapes or properties");
        tilesets_[path] = missing;
        return std::shared_ptr<const Tileset>(missing);
    }
    auto text = read(path);
    if (!text) {
        return make_error(text.error().code,
                          "source " + in_quotes(source) + ": " + text.error().message);
    }
    auto set = first_significant(*text) == '<' ? read_tsx(*text, path) : read_tsj(*text, path);
    if (!set) {
        return set.error();
    }
    tilesets_[path] = *set;
    return set;
}

Result<std::shared_ptr<const TemplateSource>>
ExternalFiles::template_file(const std::string& referrer, const std::string& source,
                             std::vector<std::string>& warnings) {
    const std::string path = resolve_path(referrer, source);
    if (const auto it = templates_.find(path); it != templates_.end()) {
        return it->second;
    }
    if (!reader_) {
        return make_error(ErrorCode::io_error, "not opened (map read from memory)");
    }
    if (std::find(loading_.begin(), loading_.end(), path) != loading_.end()) {
        return make_error(ErrorCode::parse_error, "refers to itself");
    }
    auto text = read(path);
    if (!text) {
        return text.error();
    }
    loading_.push_back(path);
    auto tx = first_significant(*text) == '<' ? read_tx(*text, path, *this, warnings)
                                              : read_tj(*text, path, *this, warnings);
    loading_.pop_back();
    if (!tx) {
        return tx.error();
    }
    templates_[path] = *tx;
    return tx;
}

} // namespace sweep::io::detail
