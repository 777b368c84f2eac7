#include "builtin_level.hpp"

#include <array>
#include <string_view>

namespace sweep::app {
namespace {

// '#' is solid. A closed room with two inner walls, ledges and a narrow
// chimney: enough corners, thin walls and corridors to catch a tunneling bug.
constexpr std::array<std::string_view, 24> k_rows{
    "################################################",
    "#..............#...............................#",
    "#..............#...............................#",
    "#....######....#.......####..........#.........#",
    "#..............#.....................#.........#",
    "#..............#.......#.............#####.....#",
    "#.......#......#.......#.......................#",
    "#.......#..............#.......................#",
    "#.......#..............#...........#...........#",
    "#.......########.......#..######...#...........#",
    "#..................................#...####....#",
    "#..............................................#",
    "#####.....#######.........######...............#",
    "#.........#.....#..........................#...#",
    "#.........#.....#.......##.................#...#",
    "#..........................######..........#...#",
    "#..........................#...............#...#",
    "#.......######.............#.........#######...#",
    "#..........................#...................#",
    "#....#...........#.............................#",
    "#....#...........#.........########............#",
    "#....#...........#.............................#",
    "#..............................................#",
    "################################################",
};

constexpr bool rows_have_equal_length() {
    for (std::string_view row : k_rows) {
        if (row.size() != k_rows[0].size()) {
            return false;
        }
    }
    return true;
}
static_assert(rows_have_equal_length(), "every row of the built-in level has the same width");

} // namespace

io::StaticGeometry geometry_from_grid(const io::TileGrid& grid, int tile_width, int tile_height) {
    io::StaticGeometry g;
    g.source = "built-in";
    g.tile_width = tile_width;
    g.tile_height = tile_height;
    g.length_units_per_meter = static_cast<real>(tile_height);
    g.grid = grid;
    const real tw = static_cast<real>(tile_width);
    const real th = static_cast<real>(tile_height);
    auto world_box = [&](int x, int y, int w, int h) {
        return Aabb{{x * tw, -(y + h) * th}, {(x + w) * tw, -y * th}};
    };
    g.bounds = world_box(grid.min_x, grid.min_y, grid.width, grid.height);
    for (std::uint8_t cell : grid.solid) {
        g.solid_tiles += cell != 0;
    }
    for (const io::TileRect& r : io::merge_solid_cells(grid)) {
        g.boxes.push_back(world_box(r.x, r.y, r.w, r.h));
    }
    g.counts.solid_cells = g.solid_tiles;
    g.counts.before_merge = g.solid_tiles;
    g.counts.after_merge = g.boxes.size();
    return g;
}

io::StaticGeometry builtin_level() {
    io::TileGrid grid;
    grid.width = static_cast<int>(k_rows[0].size());
    grid.height = static_cast<int>(k_rows.size());
    for (std::string_view row : k_rows) {
        for (char c : row) {
            grid.solid.push_back(c == '#' ? 1 : 0);
        }
    }
    return geometry_from_grid(grid, 16, 16);
}

} // namespace sweep::app
