// `sweep check`'s seams and gaps against brute force on random tile levels (fixed
// seeds): levels of 16 px cells only, so that every surface is a cell's
// exposed edge. By docs/check.md, two solid cells side by side whose edges
// on one side are both exposed (the cell beyond each is free) meet end to
// end at a seam, reported where the body, centred on the seam and resting
// on the surface, shrunk by the linear slop, lies within the map and
// overlaps (or touches) no solid cell. The brute force tries every such
// pair of cells in plain arithmetic on the grid.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "program.hpp"
#include "property.hpp"

namespace {

constexpr int k_tile = 16; // px
constexpr int k_columns = 12;
constexpr int k_rows = 9;
// The linear slop in map pixels: 0.005 m, one tile a metre.
constexpr double k_slop = 0.005 * k_tile;

struct Grid {
    std::vector<char> solid; // row-major, row 0 at the top (Tiled's y down)
    bool at(int x, int y) const {
        return x >= 0 && y >= 0 && x < k_columns && y < k_rows &&
               solid[static_cast<std::size_t>(y * k_columns + x)] != 0;
    }
};

using Found = std::tuple<double, double, std::string>; // at (Tiled px), surface

// Whether the body's box [x0, x1] x [y0, y1] (Tiled px), shrunk by the
// slop, fits: inside the map, meeting no solid cell.
bool fits(const Grid& g, double x0, double y0, double x1, double y1) {
    x0 += k_slop;
    y0 += k_slop;
    x1 -= k_slop;
    y1 -= k_slop;
    if (x0 < 0 || y0 < 0 || x1 > k_columns * k_tile || y1 > k_rows * k_tile) {
        return false;
    }
    for (int y = 0; y < k_rows; ++y) {
        for (int x = 0; x < k_columns; ++x) {
            if (g.at(x, y) && x0 <= (x + 1) * k_tile && x * k_tile <= x1 &&
                y0 <= (y + 1) * k_tile && y * k_tile <= y1) {
                return false;
            }
        }
    }
    return true;
}

std::set<Found> brute_force_seams(const Grid& g, double w, double h) {
    std::set<Found> out;
    for (int y = 0; y < k_rows; ++y) {
        for (int x = 0; x < k_columns; ++x) {
            // Horizontal neighbours (x - 1, y) and (x, y): their tops and
            // bottoms meet at x * tile.
            const double sx = x * k_tile;
            if (x > 0 && g.at(x - 1, y) && g.at(x, y)) {
                const double top = y * k_tile;
                const double bottom = (y + 1) * k_tile;
                if (!g.at(x - 1, y - 1) && !g.at(x, y - 1) && y > 0 &&
                    fits(g, sx - w / 2, top - h, sx + w / 2, top)) {
                    out.insert({sx, top, "floor"});
                }
                if (!g.at(x - 1, y + 1) && !g.at(x, y + 1) && y + 1 < k_rows &&
                    fits(g, sx - w / 2, bottom, sx + w / 2, bottom + h)) {
                    out.insert({sx, bottom, "ceiling"});
                }
            }
            // Vertical neighbours (x, y - 1) and (x, y): their sides meet at
            // y * tile.
            const double sy = y * k_tile;
            if (y > 0 && g.at(x, y - 1) && g.at(x, y)) {
                const double left = x * k_tile;
                const double right = (x + 1) * k_tile;
                if (!g.at(x - 1, y - 1) && !g.at(x - 1, y) && x > 0 &&
                    fits(g, left - w, sy - h / 2, left, sy + h / 2)) {
                    out.insert({left, sy, "wall facing left"});
                }
                if (!g.at(x + 1, y - 1) && !g.at(x + 1, y) && x + 1 < k_columns &&
                    fits(g, right, sy - h / 2, right + w, sy + h / 2)) {
                    out.insert({right, sy, "wall facing right"});
                }
            }
        }
    }
    return out;
}

using GapFound = std::tuple<double, double, double, double, double, std::string>;

// By docs/check.md, gaps across x: in each row of cells, every free run
// between two solid cells narrower than the body's width; the same run
// (the same ends) in consecutive rows is one region. Across y the same by
// columns and the body's height. As `from` (left, Tiled top) and `to`
// (right, bottom), the width and the axis.
std::set<GapFound> brute_force_gaps(const Grid& g, double w, double h) {
    std::set<GapFound> out;
    // Runs as (line, lo, hi) in cells: rows for x, columns for y.
    const auto runs = [&](bool rows) {
        std::vector<std::tuple<int, int, int>> found;
        const int lines = rows ? k_rows : k_columns;
        const int along = rows ? k_columns : k_rows;
        for (int line = 0; line < lines; ++line) {
            const auto solid = [&](int i) { return rows ? g.at(i, line) : g.at(line, i); };
            for (int i = 0; i < along; ++i) {
                if (!solid(i) || i + 1 >= along || solid(i + 1)) {
                    continue;
                }
                int j = i + 1;
                while (j < along && !solid(j)) {
                    ++j;
                }
                if (j < along && (j - i - 1) * k_tile < (rows ? w : h)) {
                    found.emplace_back(line, i + 1, j);
                }
            }
        }
        return found;
    };
    for (const bool rows : {true, false}) {
        std::vector<std::tuple<int, int, int>> found = runs(rows);
        std::set<std::tuple<int, int, int>> left(found.begin(), found.end());
        for (const auto& [line, lo, hi] : found) {
            if (left.count({line - 1, lo, hi}) != 0) {
                continue; // joined to the region that starts on an earlier line
            }
            int last = line;
            while (left.count({last + 1, lo, hi}) != 0) {
                ++last;
            }
            const double a0 = lo * k_tile, a1 = hi * k_tile;
            const double v0 = line * k_tile, v1 = (last + 1) * k_tile;
            if (rows) {
                out.insert({a0, v0, a1, v1, a1 - a0, "x"});
            } else {
                out.insert({v0, a0, v1, a1, a1 - a0, "y"});
            }
        }
    }
    return out;
}

std::string level_file(const Grid& g, int c) {
    std::string data;
    for (const char cell : g.solid) {
        if (!data.empty()) {
            data.push_back(',');
        }
        data.push_back(cell != 0 ? '1' : '0');
    }
    const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                       ("sweep_check_property_" + std::to_string(c) + ".tmj");
    std::ofstream(file) << R"({"type":"map","orientation":"orthogonal","width":)" << k_columns
                        << R"(,"height":)" << k_rows << R"(,"tilewidth":)" << k_tile
                        << R"(,"tileheight":)" << k_tile
                        << R"(,"tilesets":[{"firstgid":1,"name":"t","tilewidth":16,)"
                           R"("tileheight":16,"tilecount":1,"columns":1}],)"
                           R"("layers":[{"type":"tilelayer","name":"Collision","width":)"
                        << k_columns << R"(,"height":)" << k_rows << R"(,"data":[)" << data
                        << "]}]}";
    return file.string();
}

TEST(CheckProperty, SeamsAndGapsAreTheBruteForcesOnRandomTileLevels) {
    std::mt19937 rng(77);
    const int cases = sweep::test::property_cases(60);
    const std::vector<int> sizes{8, 12, 16, 24, 31, 40};
    int seams = 0;
    int gaps = 0;
    for (int c = 0; c < cases; ++c) {
        Grid g;
        const double fill = std::uniform_real_distribution<double>(0.2, 0.6)(rng);
        for (int i = 0; i < k_columns * k_rows; ++i) {
            g.solid.push_back(std::uniform_real_distribution<double>(0, 1)(rng) < fill ? 1 : 0);
        }
        const int w = sizes[std::uniform_int_distribution<std::size_t>(0, sizes.size() - 1)(rng)];
        const int h = sizes[std::uniform_int_distribution<std::size_t>(0, sizes.size() - 1)(rng)];
        const std::string file = level_file(g, c);
        const sweep::test::Output out = sweep::test::run_program(
            "check " + file + " --json --body " + std::to_string(w) + "x" + std::to_string(h),
            "2>/dev/null");
        std::filesystem::remove(file);
        ASSERT_EQ(out.status, 0) << out.text;
        const nlohmann::json r = nlohmann::json::parse(out.text, nullptr, false);
        ASSERT_FALSE(r.is_discarded()) << out.text;
        std::set<Found> reported;
        for (const nlohmann::json& s : r["seams"]) {
            reported.insert({s["at"][0].get<double>(), s["at"][1].get<double>(),
                             s["surface"].get<std::string>()});
        }
        const std::set<Found> expected = brute_force_seams(g, w, h);
        EXPECT_EQ(reported, expected) << "case " << c << ", body " << w << "x" << h;
        seams += static_cast<int>(expected.size());
        std::set<GapFound> reported_gaps;
        for (const nlohmann::json& gap : r["gaps"]) {
            reported_gaps.insert({gap["from"][0].get<double>(), gap["from"][1].get<double>(),
                                  gap["to"][0].get<double>(), gap["to"][1].get<double>(),
                                  gap["width"].get<double>(), gap["across"].get<std::string>()});
        }
        const std::set<GapFound> expected_gaps = brute_force_gaps(g, w, h);
        EXPECT_EQ(reported_gaps, expected_gaps) << "case " << c << ", body " << w << "x" << h;
        gaps += static_cast<int>(expected_gaps.size());
        if (testing::Test::HasFailure()) {
            return;
        }
    }
    EXPECT_GT(seams, cases); // the levels have seams and gaps to find
    EXPECT_GT(gaps, cases);
}

} // namespace
