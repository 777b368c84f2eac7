// The invariants of a StaticGeometry that the Tiled loader returned. The fuzz
// targets check them on every successful load, so that the fuzzer finds
// logic bugs (overlapping or stray boxes, a wrong count) and not only
// crashes. A violation prints what failed and aborts; libFuzzer then saves
// the input as a crash.
#pragma once

#include <sweep/io/tiled.hpp>

#include "require.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <vector>

namespace sweep::fuzz {

inline bool is_finite(const Aabb& box) {
    return std::isfinite(box.lower.x) && std::isfinite(box.lower.y) && std::isfinite(box.upper.x) &&
           std::isfinite(box.upper.y);
}

/// True when the interiors of a and b overlap (sharing an edge is fine).
inline bool interiors_overlap(const Aabb& a, const Aabb& b) {
    return a.lower.x < b.upper.x && b.lower.x < a.upper.x && a.lower.y < b.upper.y &&
           b.lower.y < a.upper.y;
}

/// The grid's solid cells, the greedy rectangles and the world boxes agree:
/// - the grid holds width*height cells of 0 or 1, and solid_tiles of them are 1;
/// - there is one count per solid layer name, and something collides;
/// - polygons have 3 to 8 finite vertices, circles a positive radius;
/// - merge_solid_cells covers every solid cell exactly once and nothing else,
///   with one world box per rectangle;
/// - every box is finite, non-empty, inside `bounds`, and no two overlap.
inline void check_geometry(const io::StaticGeometry& g) {
    require(g.tile_width > 0 && g.tile_height > 0, "tile size is positive");
    require(g.length_units_per_meter == static_cast<real>(g.tile_height),
            "length_units_per_meter is the tile height");

    const io::TileGrid& grid = g.grid;
    require(grid.width >= 0 && grid.height >= 0, "grid size is not negative");
    const std::size_t cells = static_cast<std::size_t>(grid.width) * std::size_t(grid.height);
    require(grid.solid.size() == cells, "grid.solid holds width*height cells");
    require(
        std::all_of(grid.solid.begin(), grid.solid.end(), [](std::uint8_t c) { return c <= 1; }),
        "grid cells are 0 or 1");
    const auto solid =
        static_cast<std::size_t>(std::count(grid.solid.begin(), grid.solid.end(), std::uint8_t{1}));
    require(solid == g.solid_tiles, "solid_tiles equals the grid count");

    require(g.counts.after_merge > 0, "a successful load has something that collides");
    require(g.counts.after_merge ==
                g.boxes.size() + g.polygons.size() + g.circles.size() + g.segments.size(),
            "after_merge counts every shape");
    require(g.counts.after_merge <= g.counts.before_merge, "merging never adds shapes");
    for (const Polygon& p : g.polygons) {
        require(p.count >= 3 && p.count <= k_max_polygon_vertices, "polygons have 3..8 vertices");
        for (int i = 0; i < p.count; ++i) {
            const Vec2 v = p.vertices[std::size_t(i)];
            require(std::isfinite(v.x) && std::isfinite(v.y), "polygon vertices are finite");
        }
    }
    for (const Circle& c : g.circles) {
        require(std::isfinite(c.center.x) && std::isfinite(c.center.y) && c.radius > 0,
                "circles are finite with a positive radius");
    }
    require(g.solid_layer_names.size() == g.solid_layer_counts.size(), "one count per solid layer");
    std::size_t painted = 0;
    for (std::size_t i = 0; i < g.solid_layer_names.size(); ++i) {
        require(g.solid_layer_counts[i].first == g.solid_layer_names[i],
                "counts are in the order of the names");
        painted += g.solid_layer_counts[i].second;
    }
    (void)painted; // object rectangles aligned to whole cells fill cells too

    const std::vector<io::TileRect> rects = io::merge_solid_cells(grid);
    require(rects.size() == g.boxes.size(), "one box per merged rectangle");
    std::vector<std::uint8_t> covered(cells, 0);
    std::size_t covered_count = 0;
    for (const io::TileRect& r : rects) {
        require(r.w >= 1 && r.h >= 1, "a rectangle has at least one cell");
        const long long x0 = static_cast<long long>(r.x) - grid.min_x;
        const long long y0 = static_cast<long long>(r.y) - grid.min_y;
        require(x0 >= 0 && y0 >= 0 && x0 + r.w <= grid.width && y0 + r.h <= grid.height,
                "a rectangle lies inside the grid");
        for (long long y = y0; y < y0 + r.h; ++y) {
            for (long long x = x0; x < x0 + r.w; ++x) {
                const auto k = static_cast<std::size_t>(y * grid.width + x);
                require(grid.solid[k] == 1, "a rectangle covers solid cells only");
                require(covered[k] == 0, "rectangles are disjoint");
                covered[k] = 1;
                ++covered_count;
            }
        }
    }
    require(covered_count == g.solid_tiles, "rectangles cover every solid cell");

    std::vector<std::size_t> order(g.boxes.size());
    for (const Aabb& box : g.boxes) {
        require(is_finite(box), "boxes are finite");
        require(box.lower.x < box.upper.x && box.lower.y < box.upper.y, "boxes are not empty");
        require(is_finite(g.bounds), "bounds are finite");
        require(g.bounds.lower.x <= box.lower.x && g.bounds.lower.y <= box.lower.y &&
                    box.upper.x <= g.bounds.upper.x && box.upper.y <= g.bounds.upper.y,
                "boxes lie inside bounds");
    }
    // Sweep and prune along x: only boxes whose x ranges overlap are compared.
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return g.boxes[a].lower.x < g.boxes[b].lower.x;
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Aabb& a = g.boxes[order[i]];
        for (std::size_t j = i + 1; j < order.size(); ++j) {
            const Aabb& b = g.boxes[order[j]];
            if (b.lower.x >= a.upper.x) {
                break;
            }
            require(!interiors_overlap(a, b), "boxes are disjoint");
        }
    }
}

/// The first significant character of a map, as the loader sniffs it: after
/// a UTF-8 byte order mark and whitespace; '\0' when there is none.
inline char first_significant(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        text.remove_prefix(3);
    }
    const std::size_t at = text.find_first_not_of(" \t\r\n");
    return at == std::string_view::npos ? '\0' : text[at];
}

} // namespace sweep::fuzz
