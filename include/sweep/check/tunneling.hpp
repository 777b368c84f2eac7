// An independent referee for tunneling: did a body's centre end a step inside
// solid geometry, or in a different connected region of free space than it
// started in?
//
// The checker shares no code with the solver's collision path. It reads only
// plain axis-aligned boxes and points and does its own arithmetic: a raster of
// the static geometry, a flood fill of its free cells, and exact point-in-box
// comparisons. A bug in the geometry kernel therefore cannot hide itself here.
//
// Frame: world, y up; lengths in world units L (docs/conventions.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sweep/math.hpp"
#include "sweep/result.hpp"

namespace sweep::check {

/// The most raster cells TunnelingChecker::make accepts (64 Mi cells, about
/// 256 MiB of labels): beyond it make returns ErrorCode::limit_exceeded.
inline constexpr std::int64_t k_max_raster_cells = std::int64_t(64) << 20;

/// Decides whether body centres tunnel through static geometry made of boxes.
///
/// Solid space is the interior of the union of the boxes: a point on the
/// surface of the geometry is free (touching is not penetrating), while a
/// point on the seam between two boxes that share an edge, such as adjacent
/// tiles, is solid.
///
/// Free space is labelled on a raster of square cells: a cell is free when its
/// centre is free, and free cells sharing an edge (4-connectivity) form a
/// region. Region 0 is the "outside": every point beyond the raster, joined to
/// each free cell on the raster's border; it exists even when no border cell
/// is free. Walls thinner than a cell may vanish from the raster and then join
/// the regions on their two sides, so choose `cell_size` at most half the
/// thinnest wall; for a tile map, half the tile size rasterises exactly.
class TunnelingChecker {
  public:
    /// What one step of one body did.
    enum class Verdict {
        ok,             ///< the centre ended free, in the region it started in
        ended_in_solid, ///< the centre ended inside solid geometry (or is not finite)
        changed_region, ///< the centre ended free but in another region
    };

    /// Rasterises `solid_boxes` (world units L, y up) over `bounds`, grown up
    /// to a whole number of square cells of side `cell_size` L, and labels the
    /// 4-connected free regions with an iterative flood fill. Boxes may extend
    /// beyond `bounds`; boxes of zero width or height hold no solid and are
    /// ignored.
    ///
    /// Errors: a non-finite box or a box with lower > upper, `bounds` not
    /// finite or of zero width or height, or `cell_size` not finite or <= 0
    /// -> ErrorCode::invalid_input; more than k_max_raster_cells cells, or
    /// running out of memory -> ErrorCode::limit_exceeded.
    static Result<TunnelingChecker> make(std::span<const Aabb> solid_boxes, Aabb bounds,
                                         real cell_size);

    /// True when `p` (world, L) lies in the interior of the union of the solid
    /// boxes; exact (comparisons only, no rounding). A point on the surface is
    /// not inside; a point on a seam shared by two boxes is. Non-finite points
    /// are not inside. Uses a private uniform bucket grid of the boxes.
    bool inside_solid(Vec2 p) const;

    /// The label of the free region holding `p` (world, L): 0 for the outside
    /// (every point beyond the raster), 1 .. region_count() - 1 otherwise.
    /// Returns -1 when `p` is inside solid or not finite. A free point whose
    /// cell is solid (near boundaries that do not fall on cell edges) takes the
    /// region of the nearest free cell among its 8 neighbours, or else within
    /// two cells; -1 when there is none (a pocket smaller than the raster
    /// resolves).
    int region_of(Vec2 p) const;

    /// Judges one body's step from `start_center` to `end_center` (world, L):
    /// ended_in_solid when the end is inside solid or not finite; otherwise
    /// changed_region when both ends have a region and they differ; otherwise
    /// ok. A start inside solid has no region, so only its end is judged (the
    /// step that entered the solid was already reported).
    Verdict check_step(Vec2 start_center, Vec2 end_center) const;

    /// The number of regions, the outside included (so at least 1).
    int region_count() const { return region_count_; }

    /// Raster columns and rows (for diagnostics and pictures).
    int columns() const { return columns_; }
    int rows() const { return rows_; }
    /// The side of a raster cell, L.
    real cell_size() const { return static_cast<real>(cell_size_); }

  private:
    TunnelingChecker() = default;

    /// Buckets a box's closed extent overlaps, inclusive.
    struct BucketRange {
        std::int64_t column0, row0, column1, row1;
    };
    void build_buckets(const std::vector<Aabb>& boxes);
    bool choose_bucket_grid(const std::vector<Aabb>& boxes);
    BucketRange buckets_of(const Aabb& box) const;
    bool is_large(const Aabb& box) const;
    template <class Visit> void for_each_bucket(const Aabb& box, Visit&& visit) const;
    void rasterise();
    void label_regions();
    void flood_fill(std::int64_t seed, int label, std::vector<std::int64_t>& stack);
    Vec2 cell_center(int column, int row) const;
    int free_region_of(Vec2 p) const; ///< region_of for a finite point known to be free
    int nearby_free_region(Vec2 p, int column, int row) const;

    // Bucket grid of the boxes: a box is copied into every bucket its closed
    // extent overlaps; boxes overlapping too many buckets go to `large_boxes_`.
    Vec2 bucket_origin_;
    double bucket_size_ = 1;
    int bucket_columns_ = 0;
    int bucket_rows_ = 0;
    std::vector<std::int64_t> bucket_starts_; ///< CSR offsets, size buckets + 1
    std::vector<Aabb> bucket_boxes_; ///< copies, bucket by bucket, so a query reads one array
    std::vector<Aabb> large_boxes_;

    // Raster of free space: label per cell, -1 for solid.
    double origin_x_ = 0;
    double origin_y_ = 0;
    double cell_size_ = 1;
    int columns_ = 0;
    int rows_ = 0;
    std::vector<std::int32_t> labels_;
    int region_count_ = 1;
};

/// The name of a verdict, for messages.
constexpr const char* to_string(TunnelingChecker::Verdict verdict) {
    switch (verdict) {
    case TunnelingChecker::Verdict::ok:
        return "ok";
    case TunnelingChecker::Verdict::ended_in_solid:
        return "ended in solid";
    case TunnelingChecker::Verdict::changed_region:
        return "changed region";
    }
    return "unknown";
}

} // namespace sweep::check
