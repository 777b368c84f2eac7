// The hashed uniform grid: proxies, cell lists, rebuild and validation. See
// broadphase.hpp for the queries and the sources.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "sweep/broadphase.hpp"

namespace sweep {

namespace {

std::size_t index(ProxyId id) { return static_cast<std::size_t>(id); }

void require(bool condition, const char* what, ProxyId id) {
    if (!condition) {
        std::fprintf(stderr, "sweep::UniformGrid::validate: %s (proxy %d)\n", what,
                     static_cast<int>(id));
        std::abort();
    }
}

/// Cell coordinates are clamped to +-2^30 so that far boxes stay in range;
/// clamping is monotone, so boxes and queries out there still meet.
constexpr real k_coordinate_limit = real(1 << 30);

/// The fraction of a cell by which a box's cell range is widened on each
/// side: a box that touches a cell boundary is also listed beyond it, so a
/// ray that passes exactly through a corner of cells, or whose walk rounds
/// the wrong way there, still visits a cell of every box it touches.
constexpr real k_cell_boundary_slack = real(1e-3);

/// Cells per world unit for cells `size` L wide (0 for 0). Kept finite: a
/// subnormal size made it infinite, and a coordinate of 0 then NaN, whose
/// conversion to a cell coordinate is undefined.
real cells_per_unit(real size) {
    return size > real(0) ? std::min(real(1) / size, std::numeric_limits<real>::max()) : real(0);
}

} // namespace

UniformGrid::UniformGrid(real cell_size, real margin)
    : cell_size_(cell_size), margin_(margin), auto_size_(cell_size == real(0)) {
    assert(cell_size >= real(0) && margin >= real(0));
    inv_cell_size_ = cells_per_unit(cell_size);
}

bool UniformGrid::is_live_proxy(ProxyId id) const {
    return id >= 0 && index(id) < proxies_.size() && proxies_[index(id)].live;
}

std::int32_t UniformGrid::cell_coordinate(real x) const {
    const real c = std::floor(x * inv_cell_size_);
    return static_cast<std::int32_t>(std::clamp(c, -k_coordinate_limit, k_coordinate_limit));
}

UniformGrid::CellRange UniformGrid::range_of(const Aabb& box) const {
    const real slack = k_cell_boundary_slack * cell_size_;
    return {cell_coordinate(box.lower.x - slack), cell_coordinate(box.lower.y - slack),
            cell_coordinate(box.upper.x + slack), cell_coordinate(box.upper.y + slack)};
}

bool UniformGrid::is_huge(const CellRange& range) {
    const std::int64_t w = std::int64_t(range.x1) - range.x0 + 1;
    const std::int64_t h = std::int64_t(range.y1) - range.y0 + 1;
    return w * h > k_max_cells_per_proxy;
}

void UniformGrid::add_to_cells(ProxyId id) {
    Proxy& p = proxies_[index(id)];
    p.cells = range_of(p.aabb);
    if (is_huge(p.cells)) {
        p.next = static_cast<std::int32_t>(huge_.size());
        huge_.push_back(id);
        return;
    }
    p.next = -1;
    for (std::int32_t x = p.cells.x0; x <= p.cells.x1; ++x) {
        for (std::int32_t y = p.cells.y0; y <= p.cells.y1; ++y) {
            cells_[key_of(x, y)].push_back(id);
        }
    }
}

void UniformGrid::remove_from_cells(ProxyId id) {
    Proxy& p = proxies_[index(id)];
    if (p.next >= 0) {
        // Huge: swap-remove from huge_, keeping the moved proxy's index right.
        const ProxyId last = huge_.back();
        huge_[static_cast<std::size_t>(p.next)] = last;
        proxies_[index(last)].next = p.next;
        huge_.pop_back();
        p.next = -1;
        return;
    }
    for (std::int32_t x = p.cells.x0; x <= p.cells.x1; ++x) {
        for (std::int32_t y = p.cells.y0; y <= p.cells.y1; ++y) {
            const auto it = cells_.find(key_of(x, y));
            assert(it != cells_.end());
            std::vector<ProxyId>& ids = it->second;
            const auto at = std::find(ids.begin(), ids.end(), id);
            assert(at != ids.end());
            *at = ids.back();
            ids.pop_back();
            if (ids.empty()) {
                cells_.erase(it);
            }
        }
    }
}

ProxyId UniformGrid::create_proxy(const Aabb& aabb, std::uint64_t user_data,
                                  std::uint64_t category_bits) {
    assert(is_valid(aabb));
    const Aabb fat = inflate(aabb, margin_);
    if (cell_size_ == real(0)) {
        const Vec2 size = fat.upper - fat.lower;
        cell_size_ = real(2) * std::max(size.x, size.y);
        if (!(cell_size_ > real(0)) || !std::isfinite(cell_size_)) {
            cell_size_ = 1;
        }
        inv_cell_size_ = cells_per_unit(cell_size_);
    }
    ProxyId id = free_list_;
    if (id == k_null_proxy) {
        id = static_cast<ProxyId>(proxies_.size());
        proxies_.push_back({});
    } else {
        free_list_ = proxies_[index(id)].next;
    }
    Proxy& p = proxies_[index(id)];
    p = Proxy{fat, user_data, category_bits, {}, -1, true};
    add_to_cells(id);
    ++proxy_count_;
    return id;
}

void UniformGrid::destroy_proxy(ProxyId id) {
    assert(is_live_proxy(id));
    remove_from_cells(id);
    Proxy& p = proxies_[index(id)];
    p.live = false;
    p.next = free_list_;
    free_list_ = id;
    --proxy_count_;
}

bool UniformGrid::move_proxy(ProxyId id, const Aabb& aabb, Vec2 displacement) {
    assert(is_live_proxy(id));
    assert(is_valid(aabb) && is_finite(displacement));
    // The fat box rule of DynamicTree::move_proxy, so both report the same.
    const Aabb fat = predicted_fat_aabb(aabb, displacement, margin_);
    Proxy& p = proxies_[index(id)];
    if (fat_aabb_still_fits(p.aabb, aabb, fat, margin_)) {
        return false;
    }
    const CellRange range = range_of(fat);
    if (range == p.cells && !is_huge(range)) {
        p.aabb = fat; // the same cells: only the box changes
        return true;
    }
    remove_from_cells(id);
    proxies_[index(id)].aabb = fat;
    add_to_cells(id);
    return true;
}

const Aabb& UniformGrid::fat_aabb(ProxyId id) const {
    assert(is_live_proxy(id));
    return proxies_[index(id)].aabb;
}

std::uint64_t UniformGrid::user_data(ProxyId id) const {
    assert(is_live_proxy(id));
    return proxies_[index(id)].user_data;
}

std::uint64_t UniformGrid::category_bits(ProxyId id) const {
    assert(is_live_proxy(id));
    return proxies_[index(id)].category_bits;
}

void UniformGrid::rebuild(real cell_size) {
    assert(cell_size >= real(0));
    real size = cell_size;
    if (size == real(0)) {
        if (!auto_size_) {
            size = cell_size_;
        } else {
            double sum = 0;
            for (const Proxy& p : proxies_) {
                if (p.live) {
                    const Vec2 d = p.aabb.upper - p.aabb.lower;
                    sum += static_cast<double>(std::max(d.x, d.y));
                }
            }
            size = proxy_count_ > 0 ? real(2 * sum / proxy_count_) : real(0);
            if (proxy_count_ > 0 && (!(size > real(0)) || !std::isfinite(size))) {
                size = 1;
            }
        }
    }
    cells_.clear();
    huge_.clear();
    cell_size_ = size;
    inv_cell_size_ = cells_per_unit(size);
    for (std::size_t i = 0; i < proxies_.size(); ++i) {
        if (proxies_[i].live) {
            add_to_cells(static_cast<ProxyId>(i));
        }
    }
}

void UniformGrid::validate() const {
    int live = 0;
    std::size_t listed = 0;
    for (std::size_t i = 0; i < proxies_.size(); ++i) {
        const Proxy& p = proxies_[i];
        const auto id = static_cast<ProxyId>(i);
        if (!p.live) {
            continue;
        }
        ++live;
        require(p.aabb.lower.x <= p.aabb.upper.x && p.aabb.lower.y <= p.aabb.upper.y,
                "fat box inverted", id);
        require(p.cells == range_of(p.aabb), "cell range is not the fat box's", id);
        if (is_huge(p.cells)) {
            require(p.next >= 0 && static_cast<std::size_t>(p.next) < huge_.size() &&
                        huge_[static_cast<std::size_t>(p.next)] == id,
                    "huge proxy missing from the huge list", id);
            continue;
        }
        require(p.next == -1, "listed proxy marked huge", id);
        for (std::int32_t x = p.cells.x0; x <= p.cells.x1; ++x) {
            for (std::int32_t y = p.cells.y0; y <= p.cells.y1; ++y) {
                const std::vector<ProxyId>* ids = cell(x, y);
                require(ids != nullptr && std::count(ids->begin(), ids->end(), id) == 1,
                        "proxy not listed exactly once in a cell of its range", id);
                ++listed;
            }
        }
    }
    require(live == proxy_count_, "live proxies differ from proxy_count()", k_null_proxy);
    std::size_t entries = 0;
    for (const auto& [key, ids] : cells_) {
        require(!ids.empty(), "empty cell kept in the hash", k_null_proxy);
        for (const ProxyId id : ids) {
            require(is_live_proxy(id), "dead proxy listed in a cell", id);
        }
        entries += ids.size();
    }
    require(entries == listed, "cells list proxies outside their ranges", k_null_proxy);
    std::size_t free_count = 0;
    for (ProxyId id = free_list_; id != k_null_proxy; id = proxies_[index(id)].next) {
        require(id >= 0 && index(id) < proxies_.size(), "free list index out of range", id);
        require(!proxies_[index(id)].live, "live proxy on the free list", id);
        ++free_count;
        require(free_count <= proxies_.size(), "free list has a cycle", id);
    }
    require(free_count + static_cast<std::size_t>(live) == proxies_.size(),
            "proxies lost (neither live nor free)", k_null_proxy);
}

} // namespace sweep
