#include "map_source.hpp"

#include "decode.hpp"
#include "error.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

namespace sweep::io::detail {
namespace {

char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return to_lower(x) == to_lower(y);
           });
}

template <std::size_t N>
bool is_one_of(std::string_view text, const std::array<std::string_view, N>& words) {
    return std::any_of(words.begin(), words.end(),
                       [&](std::string_view w) { return equals_ignoring_case(text, w); });
}

/// A half-open rectangle of tiles, [x0, x1) x [y0, y1); empty when x0 >= x1.
struct TileExtent {
    std::int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool empty() const { return x0 >= x1 || y0 >= y1; }
    std::int64_t cells() const { return empty() ? 0 : (x1 - x0) * (y1 - y0); }
};

TileExtent union_of(const TileExtent& a, const TileExtent& b) {
    if (a.empty()) {
        return b;
    }
    if (b.empty()) {
        return a;
    }
    return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

TileExtent extent_of(const ChunkSource& chunk) {
    return {chunk.x, chunk.y, std::int64_t(chunk.x) + chunk.width,
            std::int64_t(chunk.y) + chunk.height};
}

TileExtent extent_of(const TileLayerSource& layer) {
    TileExtent extent;
    for (const ChunkSource& chunk : layer.chunks) {
        extent = union_of(extent, extent_of(chunk));
    }
    return extent;
}

/// The world box of tile rectangle [x0,x1) x [y0,y1): pixels with y flipped.
Aabb world_box(const TileExtent& e, int tile_width, int tile_height) {
    const auto px = [&](std::int64_t x) { return static_cast<real>(x * tile_width); };
    const auto py = [&](std::int64_t y) { return static_cast<real>(-y * tile_height); };
    return {{px(e.x0), py(e.y1)}, {px(e.x1), py(e.y0)}};
}

bool is_selected_by_name(const TileLayerSource& layer, const std::string& name) {
    return layer.name == name ||
           std::find(layer.groups.begin(), layer.groups.end(), name) != layer.groups.end();
}

Result<std::vector<const TileLayerSource*>> select_solid_layers(const MapSource& map,
                                                                const TiledLoadOptions& options) {
    std::vector<const TileLayerSource*> chosen;
    for (const std::string& name : options.solid_layers) {
        const bool found = std::any_of(map.tile_layers.begin(), map.tile_layers.end(),
                                       [&](const auto& l) { return is_selected_by_name(l, name); });
        if (!found) {
            return make_error(ErrorCode::invalid_input,
                              map.file + ": solid_layers: no tile layer or group named " +
                                  in_quotes(name));
        }
    }
    for (const TileLayerSource& layer : map.tile_layers) {
        const bool wanted =
            options.solid_layers.empty()
                ? layer.auto_solid
                : std::any_of(options.solid_layers.begin(), options.solid_layers.end(),
                              [&](const std::string& n) { return is_selected_by_name(layer, n); });
        if (wanted) {
            chosen.push_back(&layer);
        }
    }
    if (chosen.empty()) {
        return make_error(
            ErrorCode::unsupported,
            map.file + ": no solid tile layer found: name a tile layer \"Collision\" (or "
                       "\"Solid\", \"Walls\"), give it the custom property solid=true, or list "
                       "its name in TiledLoadOptions::solid_layers");
    }
    return chosen;
}

/// Decodes every chunk of `layer` into `grid`; returns its non-empty cells.
///
/// While the layer paints, its cells are marked 2 so that a cell repeated by
/// overlapping chunks counts once; they become 1 at the end. (Found with the
/// invariants of the fuzz targets, fuzz/check_geometry.hpp: three chunks at
/// the same place counted one cell three times, more than the grid holds.)
Result<std::size_t> paint_layer(const TileLayerSource& layer, TileGrid& grid) {
    constexpr std::uint8_t k_this_layer = 2;
    std::size_t count = 0;
    for (const ChunkSource& chunk : layer.chunks) {
        auto gids = chunk.decode();
        if (!gids) {
            return gids.error();
        }
        const std::size_t w = static_cast<std::size_t>(chunk.width);
        if (gids->size() != w * static_cast<std::size_t>(chunk.height)) {
            return make_error(ErrorCode::parse_error, layer.label + ": wrong cell count");
        }
        for (std::size_t k = 0; k < gids->size(); ++k) {
            if (tile_id((*gids)[k]) == 0) {
                continue;
            }
            const std::size_t gx = static_cast<std::size_t>(chunk.x - grid.min_x) + k % w;
            const std::size_t gy = static_cast<std::size_t>(chunk.y - grid.min_y) + k / w;
            std::uint8_t& cell = grid.solid[gy * static_cast<std::size_t>(grid.width) + gx];
            if (cell != k_this_layer) {
                cell = k_this_layer;
                ++count;
            }
        }
    }
    for (const ChunkSource& chunk : layer.chunks) {
        for (std::size_t y = 0; y < static_cast<std::size_t>(chunk.height); ++y) {
            const std::size_t row = static_cast<std::size_t>(chunk.y - grid.min_y) + y;
            const std::size_t first = row * static_cast<std::size_t>(grid.width) +
                                      static_cast<std::size_t>(chunk.x - grid.min_x);
            for (std::size_t x = 0; x < static_cast<std::size_t>(chunk.width); ++x) {
                std::uint8_t& cell = grid.solid[first + x];
                cell = cell == k_this_layer ? std::uint8_t{1} : cell;
            }
        }
    }
    return count;
}

Result<TileGrid> empty_grid(const MapSource& map,
                            const std::vector<const TileLayerSource*>& layers) {
    TileExtent extent;
    std::int64_t decoded = 0;
    for (const TileLayerSource* layer : layers) {
        extent = union_of(extent, extent_of(*layer));
        for (const ChunkSource& chunk : layer->chunks) {
            decoded += extent_of(chunk).cells();
        }
    }
    if (decoded > k_max_cells || extent.cells() > k_max_cells) {
        return make_error(ErrorCode::limit_exceeded,
                          map.file + ": the solid layers span " +
                              std::to_string(std::max(decoded, extent.cells())) +
                              " cells, over the budget of " + std::to_string(k_max_cells));
    }
    TileGrid grid;
    if (!extent.empty()) {
        grid.min_x = static_cast<int>(extent.x0);
        grid.min_y = static_cast<int>(extent.y0);
        grid.width = static_cast<int>(extent.x1 - extent.x0);
        grid.height = static_cast<int>(extent.y1 - extent.y0);
        grid.solid.assign(static_cast<std::size_t>(extent.cells()), 0);
    }
    return grid;
}

/// The largest pixel coordinate up to which `real` holds every whole number:
/// 2^24 for float, 2^53 for double.
constexpr std::int64_t k_max_exact_pixels = std::int64_t{1} << std::numeric_limits<real>::digits;

/// Refuses tile layers that reach beyond k_max_exact_pixels from the origin.
/// Found with the invariants of the fuzz targets (fuzz/check_geometry.hpp):
/// with float, a chunk at x = 10^8 of 1-pixel tiles gave a box whose two x
/// edges rounded to the same value (an empty box). The coordinate budgets
/// (2^28 tiles, 65536-pixel tiles) allow pixel coordinates up to 2^44, far
/// beyond what a float holds exactly.
Result<void> check_exact_extent(const MapSource& map, const TileExtent& all) {
    if (all.empty()) {
        return {};
    }
    const std::int64_t reach =
        std::max({std::abs(all.x0 * map.tile_width), std::abs(all.x1 * map.tile_width),
                  std::abs(all.y0 * map.tile_height), std::abs(all.y1 * map.tile_height)});
    if (reach > k_max_exact_pixels) {
        return make_error(ErrorCode::limit_exceeded,
                          map.file + ": the tile layers reach pixel coordinate " +
                              std::to_string(reach) + ", beyond the " +
                              std::to_string(k_max_exact_pixels) +
                              " that world coordinates hold exactly (SWEEP_DOUBLE allows more)");
    }
    return {};
}

} // namespace

bool is_collision_name(std::string_view name) {
    static constexpr std::array<std::string_view, 6> k_names = {"collision", "collisions", "solid",
                                                                "solids",    "wall",       "walls"};
    return is_one_of(name, k_names);
}

std::optional<bool> parse_truth(std::string_view text) {
    static constexpr std::array<std::string_view, 3> k_true = {"true", "1", "yes"};
    static constexpr std::array<std::string_view, 3> k_false = {"false", "0", "no"};
    if (is_one_of(text, k_true)) {
        return true;
    }
    if (is_one_of(text, k_false)) {
        return false;
    }
    return std::nullopt;
}

bool is_solid_property_name(std::string_view name) {
    static constexpr std::array<std::string_view, 3> k_names = {"solid", "collides", "collision"};
    return is_one_of(name, k_names);
}

bool is_auto_solid(std::string_view name, std::optional<bool> solid_property, bool inherited) {
    if (solid_property) {
        return *solid_property;
    }
    return inherited || is_collision_name(name);
}

std::optional<bool> combine_truth(std::optional<bool> a, std::optional<bool> b) {
    if (!a) {
        return b;
    }
    if (!b) {
        return a;
    }
    return *a || *b;
}

Result<int> checked_tile_value(std::int64_t value, bool non_negative, std::string_view where) {
    if (non_negative && value < 0) {
        return make_error(ErrorCode::parse_error,
                          std::string(where) + ": negative value " + std::to_string(value));
    }
    if (value > k_max_coordinate || value < -k_max_coordinate) {
        return make_error(ErrorCode::limit_exceeded, std::string(where) + ": " +
                                                         std::to_string(value) +
                                                         " is beyond the limit of 2^28 tiles");
    }
    return static_cast<int>(value);
}

Result<void> check_cell_count(std::int64_t width, std::int64_t height, std::string_view where) {
    // Divides instead of multiplying, so that no product can overflow.
    if (width > 0 && height > 0 && width > k_max_cells / height) {
        return make_error(ErrorCode::limit_exceeded,
                          std::string(where) + ": " + std::to_string(width) + "x" +
                              std::to_string(height) + " cells, over the budget of " +
                              std::to_string(k_max_cells));
    }
    return {};
}

Result<StaticGeometry> build_geometry(const MapSource& map, const TiledLoadOptions& options) {
    auto layers = select_solid_layers(map, options);
    if (!layers) {
        return layers.error();
    }
    auto grid = empty_grid(map, *layers);
    if (!grid) {
        return grid.error();
    }
    TileExtent all;
    for (const TileLayerSource& layer : map.tile_layers) {
        all = union_of(all, extent_of(layer));
    }
    if (auto exact = check_exact_extent(map, all); !exact) {
        return exact.error();
    }
    StaticGeometry geometry;
    geometry.source = map.file;
    geometry.tile_width = map.tile_width;
    geometry.tile_height = map.tile_height;
    geometry.length_units_per_meter = static_cast<real>(map.tile_height);
    geometry.grid = std::move(grid).value();
    for (const TileLayerSource* layer : *layers) {
        auto count = paint_layer(*layer, geometry.grid);
        if (!count) {
            return count.error();
        }
        geometry.solid_layer_names.push_back(layer->name);
        geometry.solid_layer_counts.emplace_back(layer->name, *count);
    }
    if (!all.empty()) {
        geometry.bounds = world_box(all, map.tile_width, map.tile_height);
    }
    geometry.solid_tiles = static_cast<std::size_t>(
        std::count(geometry.grid.solid.begin(), geometry.grid.solid.end(), std::uint8_t{1}));
    for (const TileRect& r : merge_solid_cells(geometry.grid)) {
        const TileExtent e{r.x, r.y, std::int64_t(r.x) + r.w, std::int64_t(r.y) + r.h};
        geometry.boxes.push_back(world_box(e, map.tile_width, map.tile_height));
    }
    return geometry;
}

} // namespace sweep::io::detail
