// The tunneling referee: exact point-in-union tests over a bucket grid of the
// boxes, a raster of free space and a 4-connected flood fill. Deliberately
// independent of the geometry kernel (no distance, manifold or TOI queries),
// so that the solver is judged by arithmetic it does not share.
#include "sweep/check/tunneling.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <new>
#include <string>

namespace sweep::check {
namespace {

/// Label of a free cell that the flood fill has not reached yet.
constexpr std::int32_t k_unlabelled = -2;
/// Label of a solid cell.
constexpr std::int32_t k_solid = -1;
/// A box overlapping more buckets than this is tested for every query rather
/// than listed in each bucket, so one huge box cannot blow up the grid.
constexpr std::int64_t k_max_buckets_per_box = 16;

Error invalid(std::string message) { return Error{ErrorCode::invalid_input, std::move(message)}; }

bool has_interior(const Aabb& box) {
    return box.lower.x < box.upper.x && box.lower.y < box.upper.y;
}

/// The index of the bucket or cell holding coordinate `x` along one axis, as
/// a double so that callers can range-check before converting. Monotonic in
/// `x` (each operation rounds monotonically), which is what makes the bucket
/// grid exact: lower <= x <= upper implies index(lower) <= index(x) <= index(upper).
double axis_index(real x, double origin, double size) {
    return std::floor((static_cast<double>(x) - origin) / size);
}

/// Which of the four open quadrants around a point (+x+y, -x+y, -x-y, +x-y)
/// are covered by the boxes seen so far, arbitrarily close to the point.
struct QuadrantCover {
    bool covered[4] = {false, false, false, false};

    /// Adds `box`; returns true once all four quadrants are covered.
    bool add(const Aabb& box, Vec2 p) {
        // A box covers the quadrant just right of p when p.x is in
        // [lower, upper), just left when p.x is in (lower, upper]; same in y.
        const bool right = box.lower.x <= p.x && p.x < box.upper.x;
        const bool left = box.lower.x < p.x && p.x <= box.upper.x;
        const bool up = box.lower.y <= p.y && p.y < box.upper.y;
        const bool down = box.lower.y < p.y && p.y <= box.upper.y;
        covered[0] = covered[0] || (right && up);
        covered[1] = covered[1] || (left && up);
        covered[2] = covered[2] || (left && down);
        covered[3] = covered[3] || (right && down);
        return all();
    }
    bool all() const { return covered[0] && covered[1] && covered[2] && covered[3]; }
};

Result<void> validate(std::span<const Aabb> boxes, const Aabb& bounds, real cell_size) {
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (!is_valid(boxes[i])) {
            return invalid("tunneling checker: solid box " + std::to_string(i) +
                           " is not finite or has lower > upper");
        }
    }
    if (!is_valid(bounds) || !has_interior(bounds)) {
        return invalid("tunneling checker: bounds must be finite with positive width and height");
    }
    if (!std::isfinite(cell_size) || cell_size <= 0) {
        return invalid("tunneling checker: cell_size must be finite and > 0");
    }
    if (boxes.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        return Error{ErrorCode::limit_exceeded, "tunneling checker: too many solid boxes"};
    }
    return {};
}

} // namespace

Result<TunnelingChecker> TunnelingChecker::make(std::span<const Aabb> solid_boxes, Aabb bounds,
                                                real cell_size) {
    if (auto valid = validate(solid_boxes, bounds, cell_size); !valid) {
        return valid.error();
    }
    const double size = cell_size;
    const double columns =
        std::max(1.0, std::ceil((double(bounds.upper.x) - double(bounds.lower.x)) / size));
    const double rows =
        std::max(1.0, std::ceil((double(bounds.upper.y) - double(bounds.lower.y)) / size));
    if (columns * rows > double(k_max_raster_cells)) {
        return Error{ErrorCode::limit_exceeded,
                     "tunneling checker: raster of " + std::to_string(columns * rows) +
                         " cells exceeds the budget of " + std::to_string(k_max_raster_cells) +
                         "; use a larger cell_size"};
    }
    try {
        TunnelingChecker checker;
        checker.origin_x_ = bounds.lower.x;
        checker.origin_y_ = bounds.lower.y;
        checker.cell_size_ = size;
        checker.columns_ = static_cast<int>(columns);
        checker.rows_ = static_cast<int>(rows);
        std::vector<Aabb> boxes;
        std::copy_if(solid_boxes.begin(), solid_boxes.end(), std::back_inserter(boxes),
                     has_interior);
        checker.build_buckets(boxes);
        checker.rasterise();
        checker.label_regions();
        return checker;
    } catch (const std::bad_alloc&) {
        return Error{ErrorCode::limit_exceeded, "tunneling checker: out of memory"};
    }
}

void TunnelingChecker::build_buckets(const std::vector<Aabb>& boxes) {
    if (boxes.empty() || !choose_bucket_grid(boxes)) {
        // No grid (no boxes, or coordinates too large for one): every box is
        // tested by every query, which is slow but still exact.
        large_boxes_ = boxes;
        return;
    }
    // Two passes over the boxes: count per bucket, then fill (CSR layout).
    const auto bucket_count = std::size_t(bucket_columns_) * std::size_t(bucket_rows_);
    bucket_starts_.assign(bucket_count + 1, 0);
    for (const Aabb& box : boxes) {
        if (!is_large(box)) {
            for_each_bucket(box, [&](std::size_t b) { ++bucket_starts_[b + 1]; });
        }
    }
    for (std::size_t b = 0; b < bucket_count; ++b) {
        bucket_starts_[b + 1] += bucket_starts_[b];
    }
    bucket_boxes_.resize(std::size_t(bucket_starts_[bucket_count]));
    std::vector<std::int64_t> fill(bucket_starts_.begin(), bucket_starts_.end() - 1);
    for (const Aabb& box : boxes) {
        if (is_large(box)) {
            large_boxes_.push_back(box);
        } else {
            for_each_bucket(box,
                            [&](std::size_t b) { bucket_boxes_[std::size_t(fill[b]++)] = box; });
        }
    }
}

bool TunnelingChecker::choose_bucket_grid(const std::vector<Aabb>& boxes) {
    Aabb extent = boxes.front();
    std::vector<double> sides;
    sides.reserve(boxes.size());
    for (const Aabb& box : boxes) {
        extent = union_of(extent, box);
        sides.push_back(
            std::max(double(box.upper.x) - box.lower.x, double(box.upper.y) - box.lower.y));
    }
    // The median box side keeps a typical box within a few buckets; the
    // area term keeps the bucket count near the box count for small boxes.
    auto median = sides.begin() + std::ptrdiff_t(sides.size() / 2);
    std::nth_element(sides.begin(), median, sides.end());
    const double width = double(extent.upper.x) - extent.lower.x;
    const double height = double(extent.upper.y) - extent.lower.y;
    const double n = double(boxes.size());
    bucket_origin_ = extent.lower;
    bucket_size_ = std::max(*median, std::sqrt(width * height / n));
    for (int attempt = 0; attempt < 64 && std::isfinite(bucket_size_); ++attempt) {
        const double columns = axis_index(extent.upper.x, extent.lower.x, bucket_size_) + 1;
        const double rows = axis_index(extent.upper.y, extent.lower.y, bucket_size_) + 1;
        if (columns * rows <= 4 * n + 64) { // false for NaN too
            bucket_columns_ = static_cast<int>(columns);
            bucket_rows_ = static_cast<int>(rows);
            return true;
        }
        bucket_size_ *= 2;
    }
    return false;
}

TunnelingChecker::BucketRange TunnelingChecker::buckets_of(const Aabb& box) const {
    return {std::int64_t(axis_index(box.lower.x, bucket_origin_.x, bucket_size_)),
            std::int64_t(axis_index(box.lower.y, bucket_origin_.y, bucket_size_)),
            std::int64_t(axis_index(box.upper.x, bucket_origin_.x, bucket_size_)),
            std::int64_t(axis_index(box.upper.y, bucket_origin_.y, bucket_size_))};
}

bool TunnelingChecker::is_large(const Aabb& box) const {
    const BucketRange range = buckets_of(box);
    return (range.column1 - range.column0 + 1) * (range.row1 - range.row0 + 1) >
           k_max_buckets_per_box;
}

template <class Visit>
void TunnelingChecker::for_each_bucket(const Aabb& box, Visit&& visit) const {
    const BucketRange range = buckets_of(box);
    for (std::int64_t r = range.row0; r <= range.row1; ++r) {
        for (std::int64_t c = range.column0; c <= range.column1; ++c) {
            visit(std::size_t(r * bucket_columns_ + c));
        }
    }
}

bool TunnelingChecker::inside_solid(Vec2 p) const {
    if (!is_finite(p)) {
        return false;
    }
    QuadrantCover cover;
    for (const Aabb& box : large_boxes_) {
        if (cover.add(box, p)) {
            return true;
        }
    }
    const double c = axis_index(p.x, bucket_origin_.x, bucket_size_);
    const double r = axis_index(p.y, bucket_origin_.y, bucket_size_);
    if (c < 0 || r < 0 || c >= bucket_columns_ || r >= bucket_rows_) {
        return false; // beyond the extent of every box
    }
    const std::size_t bucket = std::size_t(r) * std::size_t(bucket_columns_) + std::size_t(c);
    for (auto k = bucket_starts_[bucket]; k < bucket_starts_[bucket + 1]; ++k) {
        if (cover.add(bucket_boxes_[std::size_t(k)], p)) {
            return true;
        }
    }
    return false;
}

Vec2 TunnelingChecker::cell_center(int column, int row) const {
    return {static_cast<real>(origin_x_ + (column + 0.5) * cell_size_),
            static_cast<real>(origin_y_ + (row + 0.5) * cell_size_)};
}

void TunnelingChecker::rasterise() {
    labels_.resize(std::size_t(columns_) * std::size_t(rows_));
    // Each cell asks the same exact test as a query point, so the raster and
    // inside_solid can never disagree about a cell centre.
    for (int row = 0; row < rows_; ++row) {
        for (int column = 0; column < columns_; ++column) {
            labels_[std::size_t(row) * std::size_t(columns_) + std::size_t(column)] =
                inside_solid(cell_center(column, row)) ? k_solid : k_unlabelled;
        }
    }
}

void TunnelingChecker::label_regions() {
    std::vector<std::int64_t> stack;
    auto fill_if_unlabelled = [&](int column, int row, int label) {
        const std::int64_t k = std::int64_t(row) * columns_ + column;
        if (labels_[std::size_t(k)] == k_unlabelled) {
            flood_fill(k, label, stack);
        }
    };
    // Region 0, the outside, enters through every free border cell.
    for (int column = 0; column < columns_; ++column) {
        fill_if_unlabelled(column, 0, 0);
        fill_if_unlabelled(column, rows_ - 1, 0);
    }
    for (int row = 0; row < rows_; ++row) {
        fill_if_unlabelled(0, row, 0);
        fill_if_unlabelled(columns_ - 1, row, 0);
    }
    int next = 1;
    for (std::size_t k = 0; k < labels_.size(); ++k) {
        if (labels_[k] == k_unlabelled) {
            flood_fill(std::int64_t(k), next++, stack);
        }
    }
    region_count_ = next;
}

void TunnelingChecker::flood_fill(std::int64_t seed, int label, std::vector<std::int64_t>& stack) {
    // Iterative depth-first fill; cells are labelled when pushed, so the stack
    // never holds more entries than there are free cells.
    labels_[std::size_t(seed)] = label;
    stack.push_back(seed);
    auto visit = [&](std::int64_t k) {
        if (labels_[std::size_t(k)] == k_unlabelled) {
            labels_[std::size_t(k)] = label;
            stack.push_back(k);
        }
    };
    while (!stack.empty()) {
        const std::int64_t k = stack.back();
        stack.pop_back();
        const std::int64_t column = k % columns_;
        const std::int64_t row = k / columns_;
        if (column > 0) {
            visit(k - 1);
        }
        if (column + 1 < columns_) {
            visit(k + 1);
        }
        if (row > 0) {
            visit(k - columns_);
        }
        if (row + 1 < rows_) {
            visit(k + columns_);
        }
    }
}

int TunnelingChecker::region_of(Vec2 p) const {
    if (!is_finite(p) || inside_solid(p)) {
        return -1;
    }
    return free_region_of(p);
}

int TunnelingChecker::free_region_of(Vec2 p) const {
    const double column = axis_index(p.x, origin_x_, cell_size_);
    const double row = axis_index(p.y, origin_y_, cell_size_);
    if (column < 0 || row < 0 || column >= columns_ || row >= rows_) {
        return 0;
    }
    const int c = int(column);
    const int r = int(row);
    const std::int32_t label = labels_[std::size_t(r) * std::size_t(columns_) + std::size_t(c)];
    return label >= 0 ? label : nearby_free_region(p, c, r);
}

int TunnelingChecker::nearby_free_region(Vec2 p, int column, int row) const {
    // p is free but its cell's centre is solid: p lies within a cell of the
    // boundary, so the free cell nearest to p (distance to the cell's square)
    // is on p's side of it. Cells beyond the raster are the outside, region 0.
    for (int radius = 1; radius <= 2; ++radius) {
        int best = -1;
        double best_distance = std::numeric_limits<double>::infinity();
        for (int r = row - radius; r <= row + radius; ++r) {
            for (int c = column - radius; c <= column + radius; ++c) {
                const bool beyond = c < 0 || r < 0 || c >= columns_ || r >= rows_;
                const int label =
                    beyond ? 0 : labels_[std::size_t(r) * std::size_t(columns_) + std::size_t(c)];
                if (label < 0) {
                    continue;
                }
                const double x0 = origin_x_ + c * cell_size_;
                const double y0 = origin_y_ + r * cell_size_;
                const double dx = std::max({x0 - p.x, 0.0, p.x - (x0 + cell_size_)});
                const double dy = std::max({y0 - p.y, 0.0, p.y - (y0 + cell_size_)});
                const double d = dx * dx + dy * dy;
                if (d < best_distance) {
                    best_distance = d;
                    best = label;
                }
            }
        }
        if (best >= 0) {
            return best;
        }
    }
    return -1;
}

TunnelingChecker::Verdict TunnelingChecker::check_step(Vec2 start_center, Vec2 end_center) const {
    if (!is_finite(end_center) || inside_solid(end_center)) {
        return Verdict::ended_in_solid;
    }
    const int from = region_of(start_center);
    const int to = free_region_of(end_center);
    if (from >= 0 && to >= 0 && from != to) {
        return Verdict::changed_region;
    }
    return Verdict::ok;
}

} // namespace sweep::check
