// Greedy merging of solid cells into rectangles: the row-scan "greedy
// meshing" used for voxel and tile collision (e.g. Mikola Lysenko, "Meshing
// in a Minecraft game", 2012, restricted to one cell type).
#include <sweep/io/tiled.hpp>

#include <algorithm>
#include <cstddef>

namespace sweep::io {

std::vector<TileRect> merge_solid_cells(const TileGrid& grid) {
    std::vector<TileRect> rects;
    if (grid.width <= 0 || grid.height <= 0) {
        return rects;
    }
    const std::size_t w = static_cast<std::size_t>(grid.width);
    const std::size_t h = static_cast<std::size_t>(grid.height);
    if (grid.solid.size() < w * h) {
        return rects; // a malformed grid; nothing trustworthy to merge
    }
    // Cells still to be covered: solid and not yet inside a rectangle.
    std::vector<std::uint8_t> open(grid.solid.begin(), grid.solid.begin() + std::ptrdiff_t(w * h));
    const auto is_open = [&](std::size_t x, std::size_t y) { return open[y * w + x] != 0; };
    for (std::size_t y = 0; y < h; ++y) {
        for (std::size_t x = 0; x < w; ++x) {
            if (!is_open(x, y)) {
                continue;
            }
            std::size_t run = 1;
            while (x + run < w && is_open(x + run, y)) {
                ++run;
            }
            std::size_t rows = 1;
            for (; y + rows < h; ++rows) {
                bool full = true;
                for (std::size_t i = 0; i < run && full; ++i) {
                    full = is_open(x + i, y + rows);
                }
                if (!full) {
                    break;
                }
            }
            for (std::size_t j = 0; j < rows; ++j) {
                std::fill_n(open.begin() + std::ptrdiff_t((y + j) * w + x), run, std::uint8_t{0});
            }
            rects.push_back({grid.min_x + static_cast<int>(x), grid.min_y + static_cast<int>(y),
                             static_cast<int>(run), static_cast<int>(rows)});
            x += run - 1; // the run's cells are covered now
        }
    }
    return rects;
}

} // namespace sweep::io
