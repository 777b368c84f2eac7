// build_geometry: what collides (docs/tiled.md), and how tiles and objects
// become world shapes. Everything is computed in Tiled's pixel frame (y
// down) in double precision and converted to world units (y up) last.
#include "map_source.hpp"

#include "decode.hpp"
#include "error.hpp"
#include "polygon.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace sweep::io::detail {
namespace {

char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

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

/// The layer's offset in whole tiles, when it is one.
std::optional<std::pair<std::int64_t, std::int64_t>> whole_tile_offset(const TileLayerSource& l,
                                                                       const MapSource& map) {
    const double tx = l.offset_x / map.tile_width;
    const double ty = l.offset_y / map.tile_height;
    if (tx != std::trunc(tx) || ty != std::trunc(ty) || std::fabs(tx) > k_max_coordinate ||
        std::fabs(ty) > k_max_coordinate) {
        return std::nullopt;
    }
    return std::pair{static_cast<std::int64_t>(tx), static_cast<std::int64_t>(ty)};
}

/// The world box of tile rectangle [x0,x1) x [y0,y1): pixels with y flipped.
Aabb world_box(const TileExtent& e, int tile_width, int tile_height) {
    const auto px = [&](std::int64_t x) { return static_cast<real>(x * tile_width); };
    const auto py = [&](std::int64_t y) { return static_cast<real>(-y * tile_height); };
    return {{px(e.x0), py(e.y1)}, {px(e.x1), py(e.y0)}};
}

Aabb union_box(const std::optional<Aabb>& a, const Aabb& b) {
    if (!a) {
        return b;
    }
    return {{std::min(a->lower.x, b.lower.x), std::min(a->lower.y, b.lower.y)},
            {std::max(a->upper.x, b.upper.x), std::max(a->upper.y, b.upper.y)}};
}

/// The largest pixel coordinate up to which `real` holds every whole number:
/// 2^24 for float, 2^53 for double.
constexpr std::int64_t k_max_exact_pixels = std::int64_t{1} << std::numeric_limits<real>::digits;

/// Refuses tile layers that reach beyond k_max_exact_pixels from the origin.
/// Found with the invariants of the fuzz targets (fuzz/check_geometry.hpp):
/// with float, a chunk at x = 10^8 of 1-pixel tiles gave a box whose two x
/// edges rounded to the same value (an empty box).
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

// ---------------------------------------------------------------- selection

enum class Solidity { unset, yes, no };

/// The rules in force: the automatic default or the configured options.
struct Rules {
    const TiledLoadOptions& options;
    bool automatic = true;

    /// `objects`: an object layer. "Ground" names a solid object layer (the
    /// platforms of a side view), but in a tile layer it is the floor of a
    /// top-down map (TMW, the Excalibur city), so it counts for object layers only.
    Solidity layer(const std::vector<LayerStep>& path, bool objects, bool by_name = true) const {
        if (!automatic) {
            for (const LayerStep& step : path) {
                const bool named =
                    std::find(options.solid_layers.begin(), options.solid_layers.end(),
                              step.name) != options.solid_layers.end();
                if (named || matches_solid_property(step.properties, options.solid_properties)) {
                    return Solidity::yes;
                }
            }
            return Solidity::unset;
        }
        Solidity state = Solidity::unset;
        for (const LayerStep& step : path) {
            if (const auto own = solid_truth(step.properties)) {
                state = *own ? Solidity::yes : Solidity::no;
            } else if (state == Solidity::yes ||
                       (by_name &&
                        (is_collision_name(step.name) || (objects && is_ground_name(step.name))))) {
                state = Solidity::yes;
            }
        }
        return state;
    }

    /// Whether a tile placed in a layer of solidity `layer` collides.
    bool tile(Solidity layer, const TileRef& ref) const {
        const TileInfo* info = ref.info();
        if (!automatic) {
            if (layer == Solidity::yes) {
                return true;
            }
            return (info && matches_solid_property(info->properties, options.solid_properties)) ||
                   (ref.tileset &&
                    matches_solid_property(ref.tileset->properties, options.solid_properties));
        }
        std::optional<bool> own = info ? solid_truth(info->properties) : std::nullopt;
        if (!own && ref.tileset) {
            own = solid_truth(ref.tileset->properties);
        }
        if (own == false) {
            return false;
        }
        if (layer != Solidity::unset) {
            return layer == Solidity::yes;
        }
        return own == true || (info && !info->shapes.empty());
    }

    /// Whether the tiles of `set` can collide outside solid layers.
    bool any_tile(const Tileset& set) const {
        const auto says = [&](const Properties& p) {
            return automatic ? solid_truth(p) == true
                             : matches_solid_property(p, options.solid_properties);
        };
        if (says(set.properties)) {
            return true;
        }
        return std::any_of(set.tiles.begin(), set.tiles.end(), [&](const auto& entry) {
            return says(entry.second.properties) || (automatic && !entry.second.shapes.empty());
        });
    }

    /// Whether an object collides; `fallback` treats every shape object of
    /// a layer not marked otherwise as solid.
    bool object(Solidity layer, const PlacedObject& placed, const MapSource& map,
                bool fallback) const {
        const ObjectSource& o = placed.object;
        const ObjectKind kind = o.kind.value_or(ObjectKind::rectangle);
        if (kind == ObjectKind::point || kind == ObjectKind::text) {
            return false;
        }
        if (!automatic) {
            if (layer == Solidity::yes ||
                matches_solid_property(o.properties, options.solid_properties)) {
                return true;
            }
            if (kind == ObjectKind::tile && o.gid) {
                return tile(
                    Solidity::unset,
                    resolve_gid(placed.scope ? *placed.scope : map.tilesets, *o.gid, nullptr));
            }
            return false;
        }
        if (const auto own = solid_truth(o.properties)) {
            return *own;
        }
        if (layer != Solidity::unset) {
            return layer == Solidity::yes;
        }
        if (kind == ObjectKind::tile && o.gid) {
            return tile(Solidity::unset,
                        resolve_gid(placed.scope ? *placed.scope : map.tilesets, *o.gid, nullptr));
        }
        return fallback;
    }
};

// ---------------------------------------------------------------- shapes

/// Shapes in Tiled's pixel frame, before conversion to world units.
struct Primitives {
    std::vector<std::vector<PixelPoint>> pieces; ///< convex, at most 8 vertices
    std::vector<std::pair<PixelPoint, double>> circles;
    std::vector<std::pair<PixelPoint, PixelPoint>> segments;
};

constexpr int k_ellipse_points = 16;

/// The primitives of a shape object (rectangle, ellipse, polygon,
/// polyline) under `frame`, which maps the coordinates its x and y are given
/// in to map pixels. Degenerate objects add a warning and nothing else.
void object_primitives(const ObjectSource& o, const Affine& frame, Primitives& out,
                       std::vector<std::string>& warnings, const std::string& where) {
    const ObjectKind kind = o.kind.value_or(ObjectKind::rectangle);
    const Affine local = frame.after(Affine::translation(o.x.value_or(0), o.y.value_or(0)))
                             .after(Affine::rotation_degrees(o.rotation.value_or(0)));
    const double w = o.width.value_or(0);
    const double h = o.height.value_or(0);
    const auto polygon = [&](const std::vector<PixelPoint>& points, const char* what) {
        std::vector<PixelPoint> mapped;
        for (const PixelPoint& p : points) {
            mapped.push_back(local.apply(p));
        }
        const Decomposition d = decompose_convex(mapped, k_max_polygon_vertices);
        if (d.pieces.empty()) {
            warnings.push_back(where + ": " + what +
                               " with fewer than 3 distinct points or no area; ignored");
            return;
        }
        if (d.used_hull) {
            warnings.push_back(where + ": " + what + " crosses itself; its convex hull is used");
        }
        out.pieces.insert(out.pieces.end(), d.pieces.begin(), d.pieces.end());
    };
    switch (kind) {
    case ObjectKind::rectangle:
        if (!(w > 0) || !(h > 0)) {
            warnings.push_back(where + ": rectangle of zero size (" + std::to_string(w) + " x " +
                               std::to_string(h) + "); ignored");
            return;
        }
        polygon({{0, 0}, {w, 0}, {w, h}, {0, h}}, "rectangle");
        return;
    case ObjectKind::ellipse: {
        if (!(w > 0) || !(h > 0)) {
            warnings.push_back(where + ": ellipse of zero size (" + std::to_string(w) + " x " +
                               std::to_string(h) + "); ignored");
            return;
        }
        const PixelPoint c = local.apply({w / 2, h / 2});
        const PixelPoint u = local.apply_linear({w / 2, 0});
        const PixelPoint v = local.apply_linear({0, h / 2});
        const double lu = std::hypot(u.x, u.y), lv = std::hypot(v.x, v.y);
        const double tolerance = 1e-9 * std::max(lu, lv);
        if (std::fabs(lu - lv) <= tolerance && std::fabs(u.x * v.x + u.y * v.y) <= tolerance * lu) {
            out.circles.push_back({c, lu});
            return;
        }
        const Decomposition d =
            decompose_convex(ellipse_points(c, u, v, k_ellipse_points), k_max_polygon_vertices);
        out.pieces.insert(out.pieces.end(), d.pieces.begin(), d.pieces.end());
        return;
    }
    case ObjectKind::polygon:
        polygon(o.points, "polygon");
        return;
    case ObjectKind::polyline: {
        std::vector<PixelPoint> mapped;
        for (const PixelPoint& p : o.points) {
            mapped.push_back(local.apply(p));
        }
        double size = 0;
        for (const PixelPoint& p : mapped) {
            size = std::max({size, std::fabs(p.x - mapped[0].x), std::fabs(p.y - mapped[0].y)});
        }
        const double eps = std::max(size, 1.0) * 1e-9;
        const std::vector<PixelPoint> open = distinct_points(mapped, false, eps);
        // A polyline that returns to its start outlines a solid (Arcade's
        // closed hit boxes); an open one is a thin wall solid on both sides.
        if (open.size() >= 4 &&
            std::hypot(open.front().x - open.back().x, open.front().y - open.back().y) <= eps) {
            polygon(o.points, "closed polyline");
            return;
        }
        const std::vector<PixelPoint> line = drop_collinear(open, false, eps);
        if (line.size() < 2) {
            warnings.push_back(where + ": polyline with fewer than 2 distinct points; ignored");
            return;
        }
        for (std::size_t i = 0; i + 1 < line.size(); ++i) {
            out.segments.push_back({line[i], line[i + 1]});
        }
        return;
    }
    case ObjectKind::point:
    case ObjectKind::text:
    case ObjectKind::tile:
        return;
    }
}

/// The anchor of a tile object in its own rectangle, as fractions of its
/// size: (0, 1) = bottom-left, the default of orthogonal maps.
PixelPoint alignment_anchor(std::string_view alignment) {
    static const std::map<std::string_view, PixelPoint> k_anchors = {
        {"topleft", {0, 0}},    {"top", {0.5, 0}},      {"topright", {1, 0}},
        {"left", {0, 0.5}},     {"center", {0.5, 0.5}}, {"right", {1, 0.5}},
        {"bottomleft", {0, 1}}, {"bottom", {0.5, 1}},   {"bottomright", {1, 1}}};
    const auto it = k_anchors.find(alignment);
    return it == k_anchors.end() ? PixelPoint{0, 1} : it->second;
}

/// The map from a tile's image pixels to a box of `size` whose top-left is
/// the origin: the flips of `flags` (diagonal first, then horizontal and
/// vertical; Tiled, "Tile flipping"), then a scale to `size`.
Affine tile_frame(PixelPoint image, std::uint32_t flags, PixelPoint size) {
    const bool h = (flags & 0x80000000u) != 0;
    const bool v = (flags & 0x40000000u) != 0;
    const bool d = (flags & 0x20000000u) != 0;
    Affine m;
    PixelPoint box = image;
    if (d) {
        m = Affine{0, 1, 1, 0, 0, 0}; // swap x and y
        box = {image.y, image.x};
    }
    if (h) {
        m = Affine{-1, 0, 0, 1, box.x, 0}.after(m);
    }
    if (v) {
        m = Affine{1, 0, 0, -1, 0, box.y}.after(m);
    }
    return Affine::scale(box.x > 0 ? size.x / box.x : 1, box.y > 0 ? size.y / box.y : 1).after(m);
}

/// Tile-local primitives, computed once per (tileset, tile, flags, size).
struct TileGeometry {
    PixelPoint size; ///< drawn size, pixels
    bool has_shapes = false;
    Primitives primitives; ///< relative to the drawn tile's top-left
};

/// Places tiles and objects into the geometry being built.
class Builder {
  public:
    Builder(MapSource& map, StaticGeometry& out) : map_(map), out_(out) {}

    /// Paints the grid cells of a pixel rectangle [x0,x1) x [y0,y1) when it is
    /// aligned to whole cells inside the grid; false otherwise.
    bool paint_rect(double x0, double y0, double x1, double y1) {
        const TileGrid& g = out_.grid;
        const double tw = map_.tile_width, th = map_.tile_height;
        const double cx0 = x0 / tw, cx1 = x1 / tw, cy0 = y0 / th, cy1 = y1 / th;
        for (double c : {cx0, cx1, cy0, cy1}) {
            if (c != std::trunc(c) || std::fabs(c) > double(k_max_coordinate)) {
                return false;
            }
        }
        if (!(cx0 < cx1) || !(cy0 < cy1) || cx0 < g.min_x || cy0 < g.min_y ||
            cx1 > double(g.min_x) + g.width || cy1 > double(g.min_y) + g.height) {
            return false;
        }
        for (auto y = static_cast<std::int64_t>(cy0); y < static_cast<std::int64_t>(cy1); ++y) {
            for (auto x = static_cast<std::int64_t>(cx0); x < static_cast<std::int64_t>(cx1); ++x) {
                out_.grid.solid[static_cast<std::size_t>((y - g.min_y) * g.width + (x - g.min_x))] =
                    1;
            }
        }
        return true;
    }

    /// Adds `p` shifted by `shift` (pixels) as world shapes; `count` counts them.
    Result<void> emit(const Primitives& p, PixelPoint shift, std::size_t& count,
                      const std::string& where) {
        const auto world = [&](PixelPoint q) {
            return Vec2{static_cast<real>(q.x + shift.x), static_cast<real>(-(q.y + shift.y))};
        };
        const auto check = [&](PixelPoint q) -> Result<void> {
            const double x = q.x + shift.x, y = q.y + shift.y;
            if (!std::isfinite(x) || !std::isfinite(y) ||
                std::fabs(x) > 2 * k_max_pixel_coordinate ||
                std::fabs(y) > 2 * k_max_pixel_coordinate) {
                return make_error(ErrorCode::limit_exceeded,
                                  where + ": a shape reaches beyond +-2^25 pixels");
            }
            return {};
        };
        if (out_.polygons.size() + out_.circles.size() + out_.segments.size() + p.pieces.size() +
                p.circles.size() + p.segments.size() >
            k_max_shapes) {
            return make_error(ErrorCode::limit_exceeded, map_.file + ": more than " +
                                                             std::to_string(k_max_shapes) +
                                                             " static shapes");
        }
        for (const auto& piece : p.pieces) {
            for (const PixelPoint& q : piece) {
                if (auto ok = check(q); !ok) {
                    return ok;
                }
            }
            if (piece.size() == 4 && is_axis_aligned_rect(piece, shift)) {
                continue;
            }
            std::array<Vec2, k_max_polygon_vertices> points{};
            for (std::size_t i = 0; i < piece.size(); ++i) {
                points[i] = world(piece[i]);
            }
            auto polygon = make_polygon(std::span(points.data(), piece.size()));
            if (!polygon) {
                warn_ignored(where, "a convex piece thinner than k_hull_weld_distance (1e-5 px) "
                                    "or its coordinates' rounding");
                continue;
            }
            out_.polygons.push_back(*polygon);
            ++count;
        }
        for (const auto& [center, radius] : p.circles) {
            if (auto ok = check(center); !ok) {
                return ok;
            }
            auto circle = make_circle(world(center), static_cast<real>(radius));
            if (!circle) {
                warn_ignored(where, "a circle whose radius rounds to nothing");
                continue;
            }
            out_.circles.push_back(*circle);
            ++count;
        }
        for (const auto& [a, b] : p.segments) {
            if (auto ok = check(a); !ok) {
                return ok;
            }
            if (auto ok = check(b); !ok) {
                return ok;
            }
            auto segment = make_segment(world(a), world(b));
            if (!segment) {
                warn_ignored(where, "a segment whose ends round to one point");
                continue;
            }
            out_.segments.push_back(*segment);
            ++count;
        }
        return {};
    }

    /// The geometry of a tile for a cell or an object of `size` pixels
    /// (cached for cells, whose size repeats).
    const TileGeometry& tile_geometry(const TileRef& ref, PixelPoint size,
                                      const std::string& where) {
        const auto key = std::make_tuple(ref.tileset, ref.local_id, ref.flags, size.x, size.y);
        auto it = cache_.find(key);
        if (it != cache_.end()) {
            return it->second;
        }
        TileGeometry g;
        g.size = size;
        const TileInfo* info = ref.info();
        if (info && !info->shapes.empty()) {
            g.has_shapes = true;
            const Affine frame = tile_frame(ref.tileset->tile_size(ref.local_id), ref.flags, size);
            const std::string context = ref.tileset->file + ": " + ref.tileset->label + ": tile " +
                                        std::to_string(ref.local_id);
            for (const ObjectSource& shape : info->shapes) {
                object_primitives(shape, frame, g.primitives, out_.warnings,
                                  context + ": " + shape.label);
            }
        }
        (void)where;
        return cache_.emplace(key, std::move(g)).first->second;
    }

    MapSource& map_;
    StaticGeometry& out_;

  private:
    /// Warns that a shape the library refused was ignored: once for each
    /// place and kind, since a tile layer's every placement of a tile with
    /// such a shape would say it again.
    void warn_ignored(const std::string& where, const char* what) {
        std::string warning = where + ": " + what + "; ignored";
        if (warned_.insert(warning).second) {
            out_.warnings.push_back(std::move(warning));
        }
    }

    /// True (and painted) when a 4-gon is a grid-aligned rectangle of cells.
    bool is_axis_aligned_rect(const std::vector<PixelPoint>& piece, PixelPoint shift) {
        double x0 = piece[0].x, x1 = x0, y0 = piece[0].y, y1 = y0;
        for (const PixelPoint& q : piece) {
            x0 = std::min(x0, q.x);
            x1 = std::max(x1, q.x);
            y0 = std::min(y0, q.y);
            y1 = std::max(y1, q.y);
        }
        for (const PixelPoint& q : piece) {
            if ((q.x != x0 && q.x != x1) || (q.y != y0 && q.y != y1)) {
                return false;
            }
        }
        return paint_rect(x0 + shift.x, y0 + shift.y, x1 + shift.x, y1 + shift.y);
    }

    std::map<std::tuple<const Tileset*, std::uint32_t, std::uint32_t, double, double>, TileGeometry>
        cache_;
    std::set<std::string> warned_; // warn_ignored's warnings so far
};

/// The cells of one tile layer that collide, placed; returns how many.
Result<std::size_t> place_tile_layer(const TileLayerSource& layer, Solidity solidity,
                                     const Rules& rules, Builder& builder,
                                     std::size_t& tile_shapes) {
    MapSource& map = builder.map_;
    const auto whole = whole_tile_offset(layer, map);
    std::size_t count = 0;
    const std::string where = map.file + ": " + layer.label;
    // Chunks may overlap (found by the fuzz targets): a cell counts once.
    // The layer's extent is within the cell budget (build_geometry).
    const TileExtent extent = extent_of(layer);
    std::vector<std::uint8_t> seen;
    if (layer.chunks.size() > 1) {
        seen.assign(static_cast<std::size_t>(extent.cells()), 0);
    }
    for (const ChunkSource& chunk : layer.chunks) {
        auto gids = chunk.decode();
        if (!gids) {
            return gids.error();
        }
        const std::size_t w = static_cast<std::size_t>(chunk.width);
        if (gids->size() != w * static_cast<std::size_t>(chunk.height)) {
            return make_error(ErrorCode::parse_error, where + ": wrong cell count");
        }
        for (std::size_t k = 0; k < gids->size(); ++k) {
            const std::uint32_t gid = (*gids)[k];
            if (tile_id(gid) == 0) {
                continue;
            }
            const std::int64_t cx = chunk.x + static_cast<std::int64_t>(k % w);
            const std::int64_t cy = chunk.y + static_cast<std::int64_t>(k / w);
            if (!seen.empty()) {
                std::uint8_t& mark = seen[static_cast<std::size_t>(
                    (cy - extent.y0) * (extent.x1 - extent.x0) + (cx - extent.x0))];
                if (mark != 0) {
                    continue;
                }
                mark = 1;
            }
            bool out_of_range = false;
            const TileRef ref = resolve_gid(map.tilesets, gid, &out_of_range);
            if (out_of_range) {
                return make_error(ErrorCode::parse_error,
                                  where + ": cell (" + std::to_string(cx) + ", " +
                                      std::to_string(cy) + "): gid " +
                                      std::to_string(tile_id(gid)) + " is beyond every tileset");
            }
            if (!rules.tile(solidity, ref)) {
                continue;
            }
            ++count;
            const double cell_x = double(cx) * map.tile_width + layer.offset_x;
            const double cell_bottom = double(cy + 1) * map.tile_height + layer.offset_y;
            const TileInfo* info = ref.info();
            if (!info || info->shapes.empty()) {
                // A solid tile without shapes fills its cell.
                if (whole) {
                    const TileGrid& g = builder.out_.grid;
                    const std::int64_t gx = cx + whole->first - g.min_x;
                    const std::int64_t gy = cy + whole->second - g.min_y;
                    builder.out_.grid.solid[static_cast<std::size_t>(gy * g.width + gx)] = 1;
                } else {
                    Primitives box;
                    box.pieces.push_back({{0, 0},
                                          {double(map.tile_width), 0},
                                          {double(map.tile_width), double(map.tile_height)},
                                          {0, double(map.tile_height)}});
                    if (auto ok = builder.emit(box, {cell_x, cell_bottom - map.tile_height},
                                               tile_shapes, where);
                        !ok) {
                        return ok.error();
                    }
                }
                continue;
            }
            PixelPoint size = ref.tileset->tile_size(ref.local_id);
            if ((ref.flags & 0x20000000u) != 0) {
                size = {size.y, size.x};
            }
            if (ref.tileset->render_grid_size) {
                size = {double(map.tile_width), double(map.tile_height)};
            }
            const TileGeometry& g = builder.tile_geometry(ref, size, where);
            // Tiles are drawn with their bottom-left at the cell's bottom-left.
            const PixelPoint top_left{cell_x + ref.tileset->offset_x,
                                      cell_bottom - size.y + ref.tileset->offset_y};
            if (auto ok = builder.emit(g.primitives, top_left, tile_shapes, where); !ok) {
                return ok.error();
            }
        }
    }
    return count;
}

/// Places one colliding object; returns false when it gave nothing.
Result<void> place_object(const PlacedObject& placed, const ObjectLayerSource& layer,
                          Builder& builder, std::size_t& object_shapes) {
    MapSource& map = builder.map_;
    const ObjectSource& o = placed.object;
    const std::string where = map.file + ": " + layer.label + ": " + o.label;
    const Affine frame = Affine::translation(layer.offset_x, layer.offset_y);
    if (o.kind != ObjectKind::tile) {
        Primitives p;
        object_primitives(o, frame, p, builder.out_.warnings, where);
        return builder.emit(p, {0, 0}, object_shapes, where);
    }
    bool out_of_range = false;
    const TileRef ref =
        resolve_gid(placed.scope ? *placed.scope : map.tilesets, o.gid.value_or(0), &out_of_range);
    if (!ref.tileset) {
        builder.out_.warnings.push_back(where + ": gid " +
                                        std::to_string(tile_id(o.gid.value_or(0))) +
                                        " is in no tileset; ignored");
        return {};
    }
    PixelPoint image = ref.tileset->tile_size(ref.local_id);
    if ((ref.flags & 0x20000000u) != 0) {
        image = {image.y, image.x};
    }
    const PixelPoint size{o.width.value_or(image.x), o.height.value_or(image.y)};
    if (!(size.x > 0) || !(size.y > 0)) {
        builder.out_.warnings.push_back(where + ": tile object of zero size; ignored");
        return {};
    }
    // The object's (x, y) is its anchor (bottom-left by default); rotation
    // turns the object about it.
    const PixelPoint anchor = alignment_anchor(ref.tileset->object_alignment);
    const Affine object_frame =
        frame.after(Affine::translation(o.x.value_or(0), o.y.value_or(0)))
            .after(Affine::rotation_degrees(o.rotation.value_or(0)))
            .after(Affine::translation(-anchor.x * size.x, -anchor.y * size.y));
    Primitives p;
    const TileInfo* info = ref.info();
    if (info && !info->shapes.empty()) {
        const Affine shape_frame =
            object_frame.after(tile_frame(ref.tileset->tile_size(ref.local_id), ref.flags, size));
        for (const ObjectSource& shape : info->shapes) {
            object_primitives(shape, shape_frame, p, builder.out_.warnings,
                              where + ": tile " + std::to_string(ref.local_id) + ": " +
                                  shape.label);
        }
    } else {
        ObjectSource box;
        box.kind = ObjectKind::rectangle;
        box.width = size.x;
        box.height = size.y;
        object_primitives(box, object_frame, p, builder.out_.warnings, where);
    }
    return builder.emit(p, {0, 0}, object_shapes, where);
}

Aabb shape_box(const Polygon& p) {
    Aabb box{p.vertices[0], p.vertices[0]};
    for (int i = 1; i < p.count; ++i) {
        box.lower = min(box.lower, p.vertices[std::size_t(i)]);
        box.upper = max(box.upper, p.vertices[std::size_t(i)]);
    }
    return box;
}

} // namespace

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return to_lower(x) == to_lower(y);
           });
}

bool is_collision_name(std::string_view name) {
    static constexpr std::array<std::string_view, 8> k_names = {
        "collision", "collisions", "solid", "solids", "wall", "walls", "platform", "platforms"};
    return is_one_of(name, k_names);
}

bool is_ground_name(std::string_view name) {
    return equals_ignoring_case(name, "ground") || equals_ignoring_case(name, "grounds");
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

std::optional<bool> solid_truth(const Properties& properties) {
    std::optional<bool> truth;
    std::optional<bool> body;
    for (const auto& [name, value] : properties) {
        if (is_solid_property_name(name)) {
            const auto t = parse_truth(value);
            truth = !truth ? t : (t ? std::optional<bool>(*truth || *t) : truth);
        } else if (equals_ignoring_case(name, "bodyType")) {
            body = equals_ignoring_case(value, "static");
        }
    }
    return truth ? truth : body;
}

bool matches_solid_property(const Properties& properties,
                            const std::vector<SolidProperty>& wanted) {
    for (const SolidProperty& w : wanted) {
        const std::string* value = find_property(properties, w.key);
        if (!value) {
            continue;
        }
        if (w.value ? equals_ignoring_case(*value, *w.value)
                    : (parse_truth(*value) == true || equals_ignoring_case(*value, "static"))) {
            return true;
        }
    }
    return false;
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

Result<double> checked_pixels(double value, std::string_view where) {
    if (!std::isfinite(value)) {
        return make_error(ErrorCode::parse_error, std::string(where) + ": not a finite number");
    }
    if (std::fabs(value) > k_max_pixel_coordinate) {
        return make_error(ErrorCode::limit_exceeded, std::string(where) + ": " +
                                                         std::to_string(value) +
                                                         " is beyond the limit of 2^24 pixels");
    }
    return value;
}

Result<int> checked_tile_size(std::int64_t value, bool positive, std::string_view where) {
    if (positive && value <= 0) {
        return make_error(ErrorCode::parse_error,
                          std::string(where) + ": must be positive, not " + std::to_string(value));
    }
    if (value > k_max_tile_pixels) {
        return make_error(ErrorCode::limit_exceeded, std::string(where) + ": " +
                                                         std::to_string(value) +
                                                         " pixels is over 65536");
    }
    return static_cast<int>(value);
}

Result<void> check_orientation(std::string_view orientation, std::string_view where) {
    if (orientation != "orthogonal") {
        return make_error(ErrorCode::unsupported, std::string(where) + ": orientation " +
                                                      in_quotes(orientation) +
                                                      " is not supported (orthogonal only)");
    }
    return {};
}

Result<StaticGeometry> build_geometry(MapSource& map, const TiledLoadOptions& options) {
    const Rules rules{options, options.solid_layers.empty() && options.solid_properties.empty()};
    // Names asked for must exist.
    for (const std::string& name : options.solid_layers) {
        const auto has = [&](const std::vector<LayerStep>& path) {
            return std::any_of(path.begin(), path.end(),
                               [&](const LayerStep& s) { return s.name == name; });
        };
        const bool found = std::any_of(map.tile_layers.begin(), map.tile_layers.end(),
                                       [&](const auto& l) { return has(l.path); }) ||
                           std::any_of(map.object_layers.begin(), map.object_layers.end(),
                                       [&](const auto& l) { return has(l.path); });
        if (!found) {
            return make_error(ErrorCode::invalid_input,
                              map.file + ": solid_layers: no layer or group named " +
                                  in_quotes(name));
        }
    }

    // Which tile layers to read: solid ones, and the others when some tile
    // could collide on its own.
    const bool tiles_matter =
        std::any_of(map.tilesets.begin(), map.tilesets.end(),
                    [&](const TilesetRef& t) { return rules.any_tile(*t.tileset); });
    std::vector<std::pair<const TileLayerSource*, Solidity>> read;
    TileExtent all;
    TileExtent grid_extent;
    std::int64_t decoded = 0;
    std::optional<Aabb> bounds;
    for (const TileLayerSource& layer : map.tile_layers) {
        const TileExtent e = extent_of(layer);
        all = union_of(all, e);
        const Solidity s = rules.layer(layer.path, false);
        if (!e.empty()) {
            Aabb box = world_box(e, map.tile_width, map.tile_height);
            box.lower.x += static_cast<real>(layer.offset_x);
            box.upper.x += static_cast<real>(layer.offset_x);
            box.lower.y -= static_cast<real>(layer.offset_y);
            box.upper.y -= static_cast<real>(layer.offset_y);
            bounds = union_box(bounds, box);
        }
        if (s == Solidity::yes || (s == Solidity::unset && tiles_matter)) {
            read.push_back({&layer, s});
            decoded += e.cells();
            if (const auto whole = whole_tile_offset(layer, map); whole && !e.empty()) {
                grid_extent = union_of(grid_extent, {e.x0 + whole->first, e.y0 + whole->second,
                                                     e.x1 + whole->first, e.y1 + whole->second});
            }
        }
    }
    if (decoded > k_max_cells || grid_extent.cells() > k_max_cells) {
        return make_error(ErrorCode::limit_exceeded,
                          map.file + ": the tile layers to read span " +
                              std::to_string(std::max(decoded, grid_extent.cells())) +
                              " cells, over the budget of " + std::to_string(k_max_cells));
    }
    if (auto exact = check_exact_extent(map, union_of(all, grid_extent)); !exact) {
        return exact.error();
    }

    StaticGeometry geometry;
    geometry.source = map.file;
    geometry.tile_width = map.tile_width;
    geometry.tile_height = map.tile_height;
    geometry.length_units_per_meter = static_cast<real>(map.tile_height);
    geometry.warnings = std::move(map.warnings);
    if (!grid_extent.empty()) {
        TileGrid& grid = geometry.grid;
        grid.min_x = static_cast<int>(grid_extent.x0);
        grid.min_y = static_cast<int>(grid_extent.y0);
        grid.width = static_cast<int>(grid_extent.x1 - grid_extent.x0);
        grid.height = static_cast<int>(grid_extent.y1 - grid_extent.y0);
        grid.solid.assign(static_cast<std::size_t>(grid_extent.cells()), 0);
    }
    Builder builder(map, geometry);
    std::size_t tile_shapes = 0;
    for (const auto& [layer, solidity] : read) {
        auto count = place_tile_layer(*layer, solidity, rules, builder, tile_shapes);
        if (!count) {
            return count.error();
        }
        if (*count > 0 || solidity == Solidity::yes) {
            geometry.solid_layer_names.push_back(layer->name);
            geometry.solid_layer_counts.emplace_back(layer->name, *count);
        }
    }

    // Objects; when nothing at all collides, the shape objects of every
    // object layer not marked otherwise (maps whose collision is drawn).
    std::size_t object_shapes = 0;
    std::size_t objects = 0;
    const bool nothing_yet = tile_shapes == 0 && std::count(geometry.grid.solid.begin(),
                                                            geometry.grid.solid.end(), 1) == 0;
    bool any_object = false;
    for (int pass = 0; pass < 2; ++pass) {
        const bool fallback = pass == 1;
        if (fallback && (!rules.automatic || any_object || !nothing_yet)) {
            break;
        }
        for (const ObjectLayerSource& layer : map.object_layers) {
            // Objects that mark themselves (Sticker Knight's bodyType) mark
            // their layer object by object: its name then no longer makes the
            // unmarked ones (decorations) solid.
            const bool self_marked =
                std::any_of(layer.objects.begin(), layer.objects.end(),
                            [](const PlacedObject& p) { return solid_truth(p.object.properties); });
            const Solidity s = rules.layer(layer.path, true, !self_marked);
            std::size_t taken = 0;
            for (const PlacedObject& placed : layer.objects) {
                const bool is_shape = placed.object.kind != ObjectKind::tile;
                if (!rules.object(s, placed, map, fallback && is_shape)) {
                    continue;
                }
                ++taken;
                if (auto ok = place_object(placed, layer, builder, object_shapes); !ok) {
                    return ok.error();
                }
            }
            if (taken > 0) {
                any_object = true;
                objects += taken;
                geometry.object_layer_counts.emplace_back(layer.name, taken);
            }
        }
    }

    geometry.solid_tiles = static_cast<std::size_t>(
        std::count(geometry.grid.solid.begin(), geometry.grid.solid.end(), std::uint8_t{1}));
    if (geometry.solid_tiles == 0 && geometry.polygons.empty() && geometry.circles.empty() &&
        geometry.segments.empty()) {
        if (!rules.automatic) {
            return make_error(ErrorCode::invalid_input,
                              map.file + ": the solid layers and properties given select "
                                         "nothing that collides");
        }
        return make_error(
            ErrorCode::unsupported,
            map.file + ": no collision geometry found: name a layer \"Collision\" (or \"Solid\", "
                       "\"Walls\", \"Platforms\", \"Ground\"), give a layer, object or tile the "
                       "custom property solid=true, or pick layers and properties with "
                       "--solid-layer / --solid-property (TiledLoadOptions::solid_layers)");
    }
    for (const TileRect& r : merge_solid_cells(geometry.grid)) {
        const TileExtent e{r.x, r.y, std::int64_t(r.x) + r.w, std::int64_t(r.y) + r.h};
        geometry.boxes.push_back(world_box(e, map.tile_width, map.tile_height));
    }

    // Bounds: the tile layers, the header's size, every shape.
    if (!map.infinite && map.width > 0 && map.height > 0) {
        bounds = union_box(
            bounds, world_box({0, 0, map.width, map.height}, map.tile_width, map.tile_height));
    }
    for (const Aabb& b : geometry.boxes) {
        bounds = union_box(bounds, b);
    }
    for (const Polygon& p : geometry.polygons) {
        bounds = union_box(bounds, shape_box(p));
    }
    for (const Circle& c : geometry.circles) {
        bounds = union_box(
            bounds, {c.center - Vec2{c.radius, c.radius}, c.center + Vec2{c.radius, c.radius}});
    }
    for (const Segment& s : geometry.segments) {
        bounds = union_box(bounds, {min(s.p1, s.p2), max(s.p1, s.p2)});
    }
    geometry.bounds = bounds.value_or(Aabb{});

    ShapeCounts& c = geometry.counts;
    c.solid_cells = geometry.solid_tiles;
    c.tile_shapes = tile_shapes;
    c.object_shapes = object_shapes;
    c.objects = objects;
    c.before_merge = c.solid_cells + c.tile_shapes + c.object_shapes;
    c.after_merge = geometry.boxes.size() + geometry.polygons.size() + geometry.circles.size() +
                    geometry.segments.size();
    return geometry;
}

} // namespace sweep::io::detail
