#include "static_shapes.hpp"

#include <algorithm>
#include <cmath>

namespace sweep::app {
namespace {

struct D2 {
    double x = 0, y = 0;
};
D2 d(Vec2 v) { return {double(v.x), double(v.y)}; }
double cross(D2 o, D2 a, D2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

double point_segment_distance(D2 p, D2 a, D2 b) {
    const double ex = b.x - a.x, ey = b.y - a.y;
    const double len2 = ex * ex + ey * ey;
    double t = len2 > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(p.x - (a.x + t * ex), p.y - (a.y + t * ey));
}

constexpr std::int64_t k_max_buckets = std::int64_t(4) << 20;

} // namespace

StaticShapes::StaticShapes(const io::StaticGeometry& level) : level_(level) {
    const Aabb b = level.bounds;
    const double w = std::max(1.0, double(b.upper.x - b.lower.x));
    const double h = std::max(1.0, double(b.upper.y - b.lower.y));
    cell_ = std::max(1.0, double(std::max(level.tile_width, level.tile_height)));
    while ((w / cell_ + 1) * (h / cell_ + 1) > double(k_max_buckets)) {
        cell_ *= 2;
    }
    origin_ = b.lower;
    columns_ = static_cast<int>(w / cell_) + 1;
    rows_ = static_cast<int>(h / cell_) + 1;
    std::vector<Ref> all;
    for (std::size_t i = 0; i < level.boxes.size(); ++i) {
        all.push_back({Kind::box, std::uint32_t(i)});
    }
    for (std::size_t i = 0; i < level.polygons.size(); ++i) {
        all.push_back({Kind::polygon, std::uint32_t(i)});
    }
    for (std::size_t i = 0; i < level.circles.size(); ++i) {
        all.push_back({Kind::circle, std::uint32_t(i)});
    }
    for (std::size_t i = 0; i < level.segments.size(); ++i) {
        all.push_back({Kind::segment, std::uint32_t(i)});
    }
    // Two passes (count, fill) into compressed rows.
    const std::size_t buckets = std::size_t(columns_) * std::size_t(rows_);
    std::vector<std::uint32_t> counts(buckets + 1, 0);
    const auto range = [&](const Aabb& box, auto&& visit) {
        const int c0 =
            std::clamp(int(std::floor((box.lower.x - origin_.x) / cell_)), 0, columns_ - 1);
        const int c1 =
            std::clamp(int(std::floor((box.upper.x - origin_.x) / cell_)), 0, columns_ - 1);
        const int r0 = std::clamp(int(std::floor((box.lower.y - origin_.y) / cell_)), 0, rows_ - 1);
        const int r1 = std::clamp(int(std::floor((box.upper.y - origin_.y) / cell_)), 0, rows_ - 1);
        for (int r = r0; r <= r1; ++r) {
            for (int c = c0; c <= c1; ++c) {
                visit(std::size_t(r) * std::size_t(columns_) + std::size_t(c));
            }
        }
    };
    for (const Ref& ref : all) {
        range(box_of(ref), [&](std::size_t k) { ++counts[k + 1]; });
    }
    for (std::size_t k = 0; k < buckets; ++k) {
        counts[k + 1] += counts[k];
    }
    starts_ = counts;
    refs_.resize(starts_.back());
    for (const Ref& ref : all) {
        range(box_of(ref), [&](std::size_t k) { refs_[counts[k]++] = ref; });
    }
}

Aabb StaticShapes::box_of(const Ref& ref) const {
    switch (ref.kind) {
    case Kind::box:
        return level_.boxes[ref.index];
    case Kind::polygon: {
        const Polygon& p = level_.polygons[ref.index];
        Aabb box{p.vertices[0], p.vertices[0]};
        for (int i = 1; i < p.count; ++i) {
            box.lower = min(box.lower, p.vertices[std::size_t(i)]);
            box.upper = max(box.upper, p.vertices[std::size_t(i)]);
        }
        return box;
    }
    case Kind::circle: {
        const Circle& c = level_.circles[ref.index];
        return {c.center - Vec2{c.radius, c.radius}, c.center + Vec2{c.radius, c.radius}};
    }
    case Kind::segment: {
        const Segment& s = level_.segments[ref.index];
        return {min(s.p1, s.p2), max(s.p1, s.p2)};
    }
    }
    return {};
}

template <class Visit> void StaticShapes::for_each_near(Aabb region, Visit&& visit) const {
    const int c0 = std::max(0, int(std::floor((region.lower.x - origin_.x) / cell_)));
    const int c1 = std::min(columns_ - 1, int(std::floor((region.upper.x - origin_.x) / cell_)));
    const int r0 = std::max(0, int(std::floor((region.lower.y - origin_.y) / cell_)));
    const int r1 = std::min(rows_ - 1, int(std::floor((region.upper.y - origin_.y) / cell_)));
    for (int r = r0; r <= r1; ++r) {
        for (int c = c0; c <= c1; ++c) {
            const std::size_t k = std::size_t(r) * std::size_t(columns_) + std::size_t(c);
            for (std::uint32_t i = starts_[k]; i < starts_[k + 1]; ++i) {
                visit(refs_[i]);
            }
        }
    }
}

double StaticShapes::distance(const Ref& ref, Vec2 point) const {
    const D2 p = d(point);
    switch (ref.kind) {
    case Kind::box: {
        const Aabb& b = level_.boxes[ref.index];
        const double dx = std::max({double(b.lower.x) - p.x, 0.0, p.x - double(b.upper.x)});
        const double dy = std::max({double(b.lower.y) - p.y, 0.0, p.y - double(b.upper.y)});
        return std::hypot(dx, dy);
    }
    case Kind::polygon: {
        const Polygon& poly = level_.polygons[ref.index];
        bool inside = true;
        double best = 1e300;
        for (int i = 0; i < poly.count; ++i) {
            const D2 a = d(poly.vertices[std::size_t(i)]);
            const D2 b = d(poly.vertices[std::size_t((i + 1) % poly.count)]);
            inside = inside && cross(a, b, p) > 0;
            best = std::min(best, point_segment_distance(p, a, b));
        }
        return inside ? 0.0 : best;
    }
    case Kind::circle: {
        const Circle& c = level_.circles[ref.index];
        return std::max(0.0, std::hypot(p.x - c.center.x, p.y - c.center.y) - c.radius);
    }
    case Kind::segment: {
        const Segment& s = level_.segments[ref.index];
        return point_segment_distance(p, d(s.p1), d(s.p2));
    }
    }
    return 0;
}

double StaticShapes::clearance(Vec2 p, double cap) const {
    double best = cap;
    const real r = static_cast<real>(cap);
    for_each_near({p - Vec2{r, r}, p + Vec2{r, r}},
                  [&](const Ref& ref) { best = std::min(best, distance(ref, p)); });
    return best;
}

bool StaticShapes::inside_shape(Vec2 point) const {
    bool inside = false;
    for_each_near({point, point}, [&](const Ref& ref) {
        if (inside || (ref.kind != Kind::polygon && ref.kind != Kind::circle)) {
            return;
        }
        const D2 p = d(point);
        if (ref.kind == Kind::circle) {
            const Circle& c = level_.circles[ref.index];
            inside = std::hypot(p.x - c.center.x, p.y - c.center.y) < c.radius;
            return;
        }
        const Polygon& poly = level_.polygons[ref.index];
        bool all = true;
        for (int i = 0; i < poly.count && all; ++i) {
            all = cross(d(poly.vertices[std::size_t(i)]),
                        d(poly.vertices[std::size_t((i + 1) % poly.count)]), p) > 0;
        }
        inside = all;
    });
    return inside;
}

bool StaticShapes::crosses_segment(Vec2 a, Vec2 b) const {
    if (level_.segments.empty()) {
        return false;
    }
    bool crossed = false;
    for_each_near({min(a, b), max(a, b)}, [&](const Ref& ref) {
        if (crossed || ref.kind != Kind::segment) {
            return;
        }
        const Segment& s = level_.segments[ref.index];
        const D2 p = d(a), q = d(b), s1 = d(s.p1), s2 = d(s.p2);
        const double side_p = cross(s1, s2, p), side_q = cross(s1, s2, q);
        const double side_1 = cross(p, q, s1), side_2 = cross(p, q, s2);
        crossed = ((side_p > 0 && side_q < 0) || (side_p < 0 && side_q > 0)) &&
                  ((side_1 > 0 && side_2 < 0) || (side_1 < 0 && side_2 > 0));
    });
    return crossed;
}

} // namespace sweep::app
