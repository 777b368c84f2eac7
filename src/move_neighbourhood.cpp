// A moving shape's static neighbourhood (move_neighbourhood.hpp).
#include "move_neighbourhood.hpp"

namespace sweep::detail {

std::optional<NearStatic> near_static(const World::Impl& w, const ShapeRecord& s,
                                      std::size_t slot) {
    const StaticProxy& p = w.static_proxies[slot];
    if (!should_collide(s.filter, p.filter)) {
        return std::nullopt;
    }
    return NearStatic{other_box(w.static_boxes[slot], p.origin),
                      p.body,
                      p.shape,
                      p.sensor,
                      p.exact_box,
                      p.unrotated};
}

bool renew_neighbourhood(const World::Impl& w, MovingShape& m) {
    const std::uint32_t behind = w.static_version - m.near_version;
    if (m.near_version == 0 || behind > World::Impl::k_static_log) {
        return false;
    }
    for (std::uint32_t v = m.near_version + 1; v != w.static_version + 1; ++v) {
        // (The test find_static_near keeps a static shape by.)
        if (overlaps(m.near_box, w.static_log[v % World::Impl::k_static_log])) {
            return false;
        }
    }
    m.near_version = w.static_version;
    return true;
}

void find_static_near(World::Impl& w, const ShapeRecord& s, const Aabb& near) {
    MovingShape& m = w.moving_of(s);
    m.near_static.clear();
    if (m.near_static.capacity() == 0) {
        m.near_static.reserve(k_near_capacity);
    }
    bool fits = true;
    w.query_static(near, [&](ProxyId id, std::uint64_t) {
        const auto slot = static_cast<std::size_t>(id);
        if (overlaps(near, w.static_boxes[slot])) {
            if (const std::optional<NearStatic> n = near_static(w, s, slot)) {
                fits = m.near_static.size() < k_near_capacity;
                if (fits) {
                    m.near_static.push_back(*n);
                }
            }
        }
        return fits;
    });
    m.near_box = near;
    m.near_version = fits ? w.static_version : 0;
}

} // namespace sweep::detail
