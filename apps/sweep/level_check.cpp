#include "level_check.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "level_bodies.hpp"
#include "sweep/overlap.hpp"
#include "sweep/world.hpp"

namespace sweep::app {
namespace {

// One exposed edge of a shape before merging, on the line dot(n, p) = c,
// spanning s0 <= s1 along the tangent left_perp(n).
struct Edge {
    double nx, ny;
    double c;
    double s0, s1;
    std::int64_t owner; ///< which shape: edges of one shape never make a seam
};

Edge make_edge(Vec2 a, Vec2 b, Vec2 n, std::int64_t owner) {
    const double nx = n.x, ny = n.y;
    const double sa = -ny * a.x + nx * a.y, sb = -ny * b.x + nx * b.y;
    return {nx, ny, nx * a.x + ny * a.y, std::min(sa, sb), std::max(sa, sb), owner};
}

// Exposed faces of the solid cells (a face whose neighbour cell is solid is
// inside the solid), then every edge of the polygons and both sides of the
// segments.
std::vector<Edge> edges_before_merge(const io::StaticGeometry& level) {
    std::vector<Edge> edges;
    const io::TileGrid& g = level.grid;
    const double tw = level.tile_width, th = level.tile_height;
    for (int cy = 0; cy < g.height; ++cy) {
        for (int cx = 0; cx < g.width; ++cx) {
            const int x = g.min_x + cx, y = g.min_y + cy;
            if (!g.is_solid(x, y)) {
                continue;
            }
            const std::int64_t owner = std::int64_t(cy) * g.width + cx;
            const auto X = [&](int i) { return static_cast<real>(i * tw); };
            const auto Y = [&](int j) { return static_cast<real>(-j * th); };
            if (!g.is_solid(x, y - 1)) {
                edges.push_back(make_edge({X(x), Y(y)}, {X(x + 1), Y(y)}, {0, 1}, owner));
            }
            if (!g.is_solid(x, y + 1)) {
                edges.push_back(make_edge({X(x), Y(y + 1)}, {X(x + 1), Y(y + 1)}, {0, -1}, owner));
            }
            if (!g.is_solid(x - 1, y)) {
                edges.push_back(make_edge({X(x), Y(y)}, {X(x), Y(y + 1)}, {-1, 0}, owner));
            }
            if (!g.is_solid(x + 1, y)) {
                edges.push_back(make_edge({X(x + 1), Y(y)}, {X(x + 1), Y(y + 1)}, {1, 0}, owner));
            }
        }
    }
    std::int64_t owner = std::int64_t(g.width) * g.height;
    for (const Polygon& p : level.polygons) {
        for (int i = 0; i < p.count; ++i) {
            edges.push_back(make_edge(p.vertices[std::size_t(i)],
                                      p.vertices[std::size_t((i + 1) % p.count)],
                                      p.normals[std::size_t(i)], owner));
        }
        ++owner;
    }
    for (const Segment& s : level.segments) {
        const Vec2 n = normalize(right_perp(s.p2 - s.p1));
        edges.push_back(make_edge(s.p1, s.p2, n, owner));
        edges.push_back(make_edge(s.p1, s.p2, -n, owner));
        ++owner;
    }
    return edges;
}

// Does `box`, centred at `center`, fit: inside the level's bounds and
// overlapping (or touching) no static shape?
bool fits(const World& world, const Aabb& bounds, Vec2 center, const Polygon& box) {
    const Aabb b = compute_aabb(box, Transform{center, Rot{}});
    if (!contains(bounds, b)) {
        return false;
    }
    auto hits = world.overlap_shape(box, Transform{center, Rot{}});
    return hits && hits->empty();
}

std::vector<Seam> find_seams(const io::StaticGeometry& level, const World& world, Vec2 body) {
    std::vector<Edge> edges = edges_before_merge(level);
    const double eps = 1e-3 * std::max(level.tile_width, level.tile_height);
    const auto key = [](const Edge& e) {
        return std::pair{std::llround(e.nx * 1e4), std::llround(e.ny * 1e4)};
    };
    std::sort(edges.begin(), edges.end(), [&](const Edge& a, const Edge& b) {
        return key(a) != key(b) ? key(a) < key(b) : a.c < b.c;
    });
    const Vec2 half = real(0.5) * body;
    // The body resting on the surface may touch what is around it (a body
    // exactly as tall as the headroom fits): test it shrunk by the slop.
    const real slop = world.tolerances().linear_slop;
    const auto box = make_box(std::max(half.x - slop, slop), std::max(half.y - slop, slop)).value();
    std::vector<Seam> seams;
    std::size_t begin = 0;
    while (begin < edges.size()) {
        // One line: the same normal, offsets within eps of each other.
        std::size_t end = begin + 1;
        while (end < edges.size() && key(edges[end]) == key(edges[begin]) &&
               edges[end].c - edges[end - 1].c <= eps) {
            ++end;
        }
        std::vector<std::pair<double, std::int64_t>> ends;
        for (std::size_t i = begin; i < end; ++i) {
            ends.emplace_back(edges[i].s1, edges[i].owner);
        }
        std::sort(ends.begin(), ends.end());
        std::vector<double> found;
        for (std::size_t i = begin; i < end; ++i) {
            const Edge& e = edges[i];
            auto it = std::lower_bound(ends.begin(), ends.end(),
                                       std::pair{e.s0 - eps, std::int64_t(INT64_MIN)});
            bool meets = false;
            for (; it != ends.end() && it->first <= e.s0 + eps && !meets; ++it) {
                meets = it->second != e.owner;
            }
            const bool already = std::any_of(found.begin(), found.end(),
                                             [&](double s) { return std::abs(s - e.s0) <= eps; });
            if (!meets || already) {
                continue;
            }
            found.push_back(e.s0);
            const Vec2 n{real(e.nx), real(e.ny)};
            const Vec2 point{real(e.c * e.nx - e.s0 * e.ny), real(e.c * e.ny + e.s0 * e.nx)};
            const double reach = std::abs(e.nx) * half.x + std::abs(e.ny) * half.y;
            if (fits(world, level.bounds, point + real(reach) * n, box)) {
                seams.push_back({point, n});
            }
        }
        begin = end;
    }
    std::sort(seams.begin(), seams.end(), [](const Seam& a, const Seam& b) {
        return a.point.y != b.point.y ? a.point.y > b.point.y : a.point.x < b.point.x;
    });
    return seams;
}

// The interval a shape covers on the line where coordinate `across` (y for
// axis 0, x for axis 1) equals c, in the other coordinate; false if none.
struct Interval {
    double lo, hi;
};

bool on_line(const Aabb& b, int axis, double c, Interval& out) {
    const double v0 = axis == 0 ? b.lower.y : b.lower.x, v1 = axis == 0 ? b.upper.y : b.upper.x;
    if (!(v0 < c && c < v1)) {
        return false;
    }
    out = {axis == 0 ? b.lower.x : b.lower.y, axis == 0 ? b.upper.x : b.upper.y};
    return true;
}

bool on_line(const std::vector<Vec2>& loop, bool closed, int axis, double c, Interval& out) {
    const auto u = [&](Vec2 p) { return double(axis == 0 ? p.x : p.y); };
    const auto v = [&](Vec2 p) { return double(axis == 0 ? p.y : p.x); };
    bool any = false;
    const std::size_t n = loop.size();
    for (std::size_t i = 0; i + (closed ? 0 : 1) < n; ++i) {
        const Vec2 a = loop[i], b = loop[(i + 1) % n];
        const double da = v(a) - c, db = v(b) - c;
        if (da == 0 && db == 0) {
            out = any ? Interval{std::min({out.lo, u(a), u(b)}), std::max({out.hi, u(a), u(b)})}
                      : Interval{std::min(u(a), u(b)), std::max(u(a), u(b))};
            any = true;
        } else if ((da <= 0 && db >= 0) || (da >= 0 && db <= 0)) {
            const double x = u(a) + (u(b) - u(a)) * (da / (da - db));
            out = any ? Interval{std::min(out.lo, x), std::max(out.hi, x)} : Interval{x, x};
            any = true;
        }
    }
    return any;
}

struct Solid {
    Aabb box;
    std::vector<Vec2> loop; ///< empty for boxes
    bool closed = true;
    std::optional<Circle> circle;
};

bool on_line(const Solid& s, int axis, double c, Interval& out) {
    if (s.circle) {
        const double d = c - (axis == 0 ? s.circle->center.y : s.circle->center.x);
        const double r = s.circle->radius;
        if (std::abs(d) >= r) {
            return false;
        }
        const double h = std::sqrt(r * r - d * d),
                     m = axis == 0 ? s.circle->center.x : s.circle->center.y;
        out = {m - h, m + h};
        return true;
    }
    if (s.loop.empty()) {
        return on_line(s.box, axis, c, out);
    }
    return on_line(s.loop, s.closed, axis, c, out);
}

std::vector<Solid> solids_after_merge(const io::StaticGeometry& level) {
    std::vector<Solid> out;
    for (const Aabb& b : level.boxes) {
        out.push_back({b, {}, true, std::nullopt});
    }
    for (const Polygon& p : level.polygons) {
        out.push_back({compute_aabb(p, Transform{}),
                       {p.vertices.begin(), p.vertices.begin() + p.count},
                       true,
                       std::nullopt});
    }
    for (const Circle& c : level.circles) {
        out.push_back({compute_aabb(c, Transform{}), {}, true, c});
    }
    for (const Segment& s : level.segments) {
        out.push_back({compute_aabb(s, Transform{}), {s.p1, s.p2}, false, std::nullopt});
    }
    return out;
}

// Gaps whose narrow side lies along the lines of `axis` (0: lines of
// constant y, gaps across x, narrower than `limit`).
void find_gaps(const io::StaticGeometry& level, const std::vector<Solid>& solids, int axis,
               double limit, std::vector<Gap>& gaps) {
    const Aabb& b = level.bounds;
    const double lo = axis == 0 ? b.lower.y : b.lower.x, hi = axis == 0 ? b.upper.y : b.upper.x;
    const double step = 0.5 * (axis == 0 ? level.tile_height : level.tile_width);
    const double eps = 1e-3 * step;
    if (!(step > 0) || (hi - lo) / step > 4e6) {
        return;
    }
    const auto lines = static_cast<std::size_t>(std::ceil((hi - lo) / step));
    // Which solids each line meets: their across-range decides.
    std::vector<std::vector<std::uint32_t>> on(lines);
    for (std::size_t i = 0; i < solids.size(); ++i) {
        const Aabb& s = solids[i].box;
        const double v0 = axis == 0 ? s.lower.y : s.lower.x, v1 = axis == 0 ? s.upper.y : s.upper.x;
        const auto first = static_cast<std::ptrdiff_t>(std::floor((v0 - lo) / step - 0.5));
        const auto last = static_cast<std::ptrdiff_t>(std::ceil((v1 - lo) / step - 0.5));
        for (std::ptrdiff_t k = std::max<std::ptrdiff_t>(first, 0);
             k <= last && k < std::ptrdiff_t(lines); ++k) {
            on[std::size_t(k)].push_back(std::uint32_t(i));
        }
    }
    struct Open {
        std::size_t gap;  ///< index in gaps
        double lo, hi;    ///< the gap's ends along the line
        std::size_t line; ///< the last line it was seen on
    };
    std::vector<Open> open;
    for (std::size_t k = 0; k < lines; ++k) {
        const double c = lo + (double(k) + 0.5) * step;
        std::vector<Interval> runs;
        for (std::uint32_t i : on[k]) {
            Interval r{};
            if (on_line(solids[i], axis, c, r)) {
                runs.push_back(r);
            }
        }
        std::sort(runs.begin(), runs.end(),
                  [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
        double reached = runs.empty() ? 0 : runs.front().hi;
        for (std::size_t i = 1; i < runs.size(); ++i) {
            const double width = runs[i].lo - reached;
            if (width > eps && width < limit) {
                const double g0 = reached, g1 = runs[i].lo;
                auto it = std::find_if(open.begin(), open.end(), [&](const Open& o) {
                    return o.line + 1 == k && std::abs(o.lo - g0) <= eps &&
                           std::abs(o.hi - g1) <= eps;
                });
                const double v0 = c - step / 2, v1 = c + step / 2;
                if (it != open.end()) {
                    Aabb& r = gaps[it->gap].region;
                    (axis == 0 ? r.upper.y : r.upper.x) = real(v1);
                    it->line = k;
                } else {
                    const Aabb r = axis == 0 ? Aabb{{real(g0), real(v0)}, {real(g1), real(v1)}}
                                             : Aabb{{real(v0), real(g0)}, {real(v1), real(g1)}};
                    gaps.push_back({r, axis == 0, real(width)});
                    open.push_back({gaps.size() - 1, g0, g1, k});
                }
            }
            reached = std::max(reached, runs[i].hi);
        }
        std::erase_if(open, [&](const Open& o) { return o.line != k; });
    }
}

std::vector<ShapeOverlap> find_overlaps(const io::StaticGeometry& level, const World& world,
                                        const LevelBodies& bodies) {
    std::unordered_map<std::int32_t, std::string> names;
    const auto name_all = [&](const std::vector<BodyId>& ids, const char* kind) {
        for (std::size_t i = 0; i < ids.size(); ++i) {
            names[ids[i].index] = std::string(kind) + " " + std::to_string(i);
        }
    };
    name_all(bodies.boxes, "box");
    name_all(bodies.polygons, "polygon");
    name_all(bodies.circles, "circle");
    name_all(bodies.segments, "segment");
    std::vector<ShapeOverlap> out;
    const auto check = [&](const Shape& shape, BodyId self) {
        if (self.index < 0) {
            return;
        }
        auto hits = world.overlap_shape(shape, Transform{});
        if (!hits) {
            return;
        }
        const Aabb mine = compute_aabb(shape, Transform{});
        for (ShapeId id : *hits) {
            const ShapeInfo info = world.shape_info(id).value();
            const bool box = std::find(bodies.boxes.begin(), bodies.boxes.end(), info.body) !=
                             bodies.boxes.end();
            // Each pair once: boxes are only ever the other one.
            if (info.body == self || (!box && info.body.index < self.index)) {
                continue;
            }
            const Transform xf = world.body_state(info.body)->xf;
            if (!overlaps(shape, Transform{}, info.shape, xf)) {
                continue; // touching, not overlapping
            }
            const Aabb theirs = compute_aabb(info.shape, xf);
            const Aabb both{max(mine.lower, theirs.lower), min(mine.upper, theirs.upper)};
            out.push_back({names[self.index], names[info.body.index], center(both)});
        }
    };
    for (std::size_t i = 0; i < level.polygons.size(); ++i) {
        check(level.polygons[i], bodies.polygons[i]);
    }
    for (std::size_t i = 0; i < level.circles.size(); ++i) {
        check(level.circles[i], bodies.circles[i]);
    }
    for (std::size_t i = 0; i < level.segments.size(); ++i) {
        check(level.segments[i], bodies.segments[i]);
    }
    return out;
}

// Positions in Tiled's pixels (y down), as the level designer sees them.
nlohmann::json tiled_point(Vec2 p) { return {p.x, -p.y}; }

const char* surface_name(Vec2 n) {
    if (n.y > real(0.7)) {
        return "floor";
    }
    if (n.y < real(-0.7)) {
        return "ceiling";
    }
    if (n.x > real(0.7)) {
        return "wall facing right";
    }
    if (n.x < real(-0.7)) {
        return "wall facing left";
    }
    return "slope";
}

} // namespace

Result<LevelCheck> check_level(const io::StaticGeometry& level, Vec2 body) {
    if (!(is_finite(body) && body.x > 0 && body.y > 0)) {
        return Error{ErrorCode::invalid_input,
                     "check: the body's width and height must be finite and > 0"};
    }
    WorldDef def;
    def.length_units_per_meter = level.length_units_per_meter;
    auto world = World::make(def);
    if (!world) {
        return world.error();
    }
    auto bodies = add_level_bodies(*world, level);
    if (!bodies) {
        return bodies.error();
    }
    LevelCheck out;
    out.level = level.source;
    out.body = body;
    out.solid_cells = level.solid_tiles;
    out.before_merge = level.counts.before_merge;
    out.after_merge = level.counts.after_merge;
    out.seams = find_seams(level, *world, body);
    const std::vector<Solid> solids = solids_after_merge(level);
    find_gaps(level, solids, 0, body.x, out.gaps);
    find_gaps(level, solids, 1, body.y, out.gaps);
    out.overlaps = find_overlaps(level, *world, *bodies);
    return out;
}

std::optional<Vec2> parse_body_size(const std::string& text) {
    const std::size_t x = text.find('x');
    if (x == std::string::npos) {
        return std::nullopt;
    }
    try {
        std::size_t used_w = 0, used_h = 0;
        const double w = std::stod(text.substr(0, x), &used_w);
        const double h = std::stod(text.substr(x + 1), &used_h);
        if (used_w != x || used_h != text.size() - x - 1 || !std::isfinite(w) ||
            !std::isfinite(h) || !(w > 0) || !(h > 0) || w > 1e9 || h > 1e9) {
            return std::nullopt;
        }
        return Vec2{static_cast<real>(w), static_cast<real>(h)};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

nlohmann::json check_json(const app::LevelCheck& c) {
    nlohmann::json seams = nlohmann::json::array(), gaps = nlohmann::json::array(),
                   overlaps = nlohmann::json::array();
    for (const app::Seam& s : c.seams) {
        seams.push_back({{"at", tiled_point(s.point)}, {"surface", surface_name(s.normal)}});
    }
    for (const app::Gap& g : c.gaps) {
        gaps.push_back({{"from", tiled_point({g.region.lower.x, g.region.upper.y})},
                        {"to", tiled_point({g.region.upper.x, g.region.lower.y})},
                        {"width", g.width},
                        {"across", g.across_x ? "x" : "y"}});
    }
    for (const app::ShapeOverlap& o : c.overlaps) {
        overlaps.push_back({{"a", o.a}, {"b", o.b}, {"at", tiled_point(o.point)}});
    }
    return {{"level", c.level},
            {"body", {c.body.x, c.body.y}},
            {"solid_cells", c.solid_cells},
            {"shapes_before_merge", c.before_merge},
            {"shapes_after_merge", c.after_merge},
            {"seams", seams},
            {"gaps", gaps},
            {"overlaps", overlaps}};
}

void print_check(const app::LevelCheck& c) {
    constexpr std::size_t k_listed = 20; // --json lists them all
    const auto more = [&](std::size_t n) {
        if (n > k_listed) {
            fmt::print("  ... and {} more (--json lists all)\n", n - k_listed);
        }
    };
    fmt::print("level            {}\n", c.level);
    fmt::print("body             {} x {} px\n", c.body.x, c.body.y);
    fmt::print("static shapes    {} before merging ({} solid cells), {} after\n", c.before_merge,
               c.solid_cells, c.after_merge);
    fmt::print("seams            {} where the body sliding along a surface could catch\n",
               c.seams.size());
    for (std::size_t i = 0; i < std::min(k_listed, c.seams.size()); ++i) {
        fmt::print("  ({}, {}) {}\n", c.seams[i].point.x, -c.seams[i].point.y,
                   surface_name(c.seams[i].normal));
    }
    more(c.seams.size());
    fmt::print("gaps             {} narrower than the body\n", c.gaps.size());
    for (std::size_t i = 0; i < std::min(k_listed, c.gaps.size()); ++i) {
        const app::Gap& g = c.gaps[i];
        fmt::print("  ({}, {}) to ({}, {}): {} px across {}\n", g.region.lower.x, -g.region.upper.y,
                   g.region.upper.x, -g.region.lower.y, g.width, g.across_x ? "x" : "y");
    }
    more(c.gaps.size());
    fmt::print("overlaps         {} pairs of static shapes\n", c.overlaps.size());
    for (std::size_t i = 0; i < std::min(k_listed, c.overlaps.size()); ++i) {
        const app::ShapeOverlap& o = c.overlaps[i];
        fmt::print("  {} and {} at ({}, {})\n", o.a, o.b, o.point.x, -o.point.y);
    }
    more(c.overlaps.size());
}

} // namespace sweep::app
