// The least push out of several overlaps at once (see push_out.hpp for the
// method and its sources).
#include "push_out.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace sweep::detail {
namespace {

// Directions added to a rounded region's faces: a circumscribed polygon of
// its arcs. 16 of them put the polygon's corners at most
// 1 / cos(pi / 16) - 1 < 2 % of the radius outside the arc.
constexpr int k_ring_directions = 16;

const std::array<Vec2, k_ring_directions>& ring() {
    static const std::array<Vec2, k_ring_directions> directions = [] {
        std::array<Vec2, k_ring_directions> d{};
        for (int k = 0; k < k_ring_directions; ++k) {
            const real a = 2 * k_pi * real(k) / real(k_ring_directions);
            d[static_cast<std::size_t>(k)] = {std::cos(a), std::sin(a)};
        }
        return d;
    }();
    return directions;
}

real support(const ShapeProxy& proxy, Vec2 n) {
    real best = dot(proxy.points[0], n);
    for (int i = 1; i < proxy.count; ++i) {
        best = std::max(best, dot(proxy.points[static_cast<std::size_t>(i)], n));
    }
    return best;
}

real radius_of(const PushObstacle& o) { return o.other.radius + o.own.radius; }

// The distance between an obstacle's cores with `own` moved by p (GJK).
DistanceOutput core_distance(const PushObstacle& o, Vec2 p) {
    SimplexCache cache;
    return distance({o.other, o.own, k_identity, Transform{p, Rot{}}, false}, cache);
}

// The face of obstacle o's region along unit n, appended to `planes`
// unless the region's faces (from `first` on) have it already (a box's
// faces are its tile's).
void add_plane(const PushObstacle& o, Vec2 n, std::vector<PushPlane>& planes, std::size_t first) {
    const auto same = [n](const PushPlane& f) { return dot(f.n, n) > 1 - real(1e-6); };
    if (n == Vec2{} ||
        std::any_of(planes.begin() + static_cast<std::ptrdiff_t>(first), planes.end(), same)) {
        return;
    }
    planes.push_back({n, support(o.other, n) + support(o.own, -n) + radius_of(o)});
}

// The outward face normals of a proxy's core, times `sign`: a polygon's
// edges (counter-clockwise), both sides of a segment, none of a point.
template <class Add> void for_each_face(const ShapeProxy& proxy, real sign, Add&& add) {
    if (proxy.count == 2) {
        const Vec2 n = normalize(right_perp(proxy.points[1] - proxy.points[0]));
        add(n);
        add(-n);
        return;
    }
    for (int i = 0; proxy.count >= 3 && i < proxy.count; ++i) {
        const Vec2 a = proxy.points[static_cast<std::size_t>(i)];
        const Vec2 b = proxy.points[static_cast<std::size_t>((i + 1) % proxy.count)];
        add(sign * normalize(right_perp(b - a)));
    }
}

// The faces of obstacle o's region, appended to `planes`: those of
// `other`'s core and, reversed, of `own`'s, and, when rounded, a ring of
// further directions and the direction between the cores' closest points
// (the exact way out of an arc).
void add_region(const PushObstacle& o, std::vector<PushPlane>& planes) {
    const std::size_t first = planes.size();
    const auto add = [&](Vec2 n) { add_plane(o, n, planes, first); };
    for_each_face(o.other, 1, add);
    for_each_face(o.own, -1, add);
    if (radius_of(o) > 0) {
        for (Vec2 n : ring()) {
            add(n);
        }
        const DistanceOutput d = core_distance(o, {});
        if (d.state == DistanceState::separated) {
            add(d.normal);
        }
    }
}

// Whether obstacle i's `own` moved by p lies no deeper than `touch` in its
// `other`: the faces tell when they separate it by that much (exactly, for
// polygons), GJK on the cores when an arc may.
bool clear(std::span<const PushObstacle> obstacles, const PushScratch& s, std::size_t i, Vec2 p,
           real touch) {
    real separation = -std::numeric_limits<real>::infinity();
    for (std::size_t k = s.first[i]; k < s.first[i + 1]; ++k) {
        separation = std::max(separation, dot(s.planes[k].n, p) - s.planes[k].h);
    }
    if (separation >= -touch) {
        return true;
    }
    const real radius = radius_of(obstacles[i]);
    if (radius == 0) {
        return false;
    }
    const DistanceOutput d = core_distance(obstacles[i], p);
    return d.state == DistanceState::separated && d.distance - radius >= -touch;
}

// The point where the lines of two faces cross, if they do.
std::optional<Vec2> crossing(const PushPlane& a, const PushPlane& b) {
    const real det = cross(a.n, b.n);
    if (det == 0) {
        return std::nullopt;
    }
    return Vec2{(a.h * b.n.y - b.h * a.n.y) / det, (a.n.x * b.h - b.n.x * a.h) / det};
}

// The candidates of the active regions within max_push, into
// s.candidates, nearest first (equally near: by x, then y): each
// face's point nearest the origin, and where faces of two regions cross.
void find_candidates(PushScratch& s, real max_push) {
    s.candidates.clear();
    const real max_squared = max_push * max_push;
    const auto keep = [&](Vec2 p) {
        if (length_squared(p) <= max_squared) {
            s.candidates.push_back(p);
        }
    };
    const std::size_t regions = s.active.size();
    for (std::size_t i = 0; i < regions; ++i) {
        if (!s.active[i]) {
            continue;
        }
        for (std::size_t f = s.first[i]; f < s.first[i + 1]; ++f) {
            keep(s.planes[f].h * s.planes[f].n);
        }
        for (std::size_t j = i + 1; j < regions; ++j) {
            for (std::size_t f = s.first[i]; s.active[j] && f < s.first[i + 1]; ++f) {
                for (std::size_t g = s.first[j]; g < s.first[j + 1]; ++g) {
                    if (const std::optional<Vec2> p = crossing(s.planes[f], s.planes[g])) {
                        keep(*p);
                    }
                }
            }
        }
    }
    // (std::sort, not stable_sort, which takes a buffer from the heap.)
    std::sort(s.candidates.begin(), s.candidates.end(), [](Vec2 a, Vec2 b) {
        const real la = length_squared(a);
        const real lb = length_squared(b);
        return la != lb ? la < lb : (a.x != b.x ? a.x < b.x : a.y < b.y);
    });
}

// Every obstacle's region into s.planes, obstacle i's from s.first[i].
void add_regions(std::span<const PushObstacle> obstacles, PushScratch& s) {
    s.planes.clear();
    s.first.clear();
    for (const PushObstacle& o : obstacles) {
        s.first.push_back(s.planes.size());
        add_region(o, s.planes);
    }
    s.first.push_back(s.planes.size());
}

} // namespace

bool clear_of_all(std::span<const PushObstacle> obstacles, Vec2 p, real touch_tolerance,
                  PushScratch& s) {
    add_regions(obstacles, s);
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
        if (!clear(obstacles, s, i, p, touch_tolerance)) {
            return false;
        }
    }
    return true;
}

std::optional<Vec2> least_push(std::span<const PushObstacle> obstacles, real max_push,
                               real touch_tolerance, PushScratch& s) {
    add_regions(obstacles, s);
    const std::size_t regions = obstacles.size();
    s.active.assign(regions, 0);
    bool any = false;
    for (std::size_t i = 0; i < regions; ++i) {
        s.active[i] = clear(obstacles, s, i, {}, touch_tolerance) ? 0 : 1;
        any = any || s.active[i];
    }
    if (!any) {
        return Vec2{};
    }
    // Each round either finds the push or adds the region that blocks the
    // active regions' nearest way out.
    for (std::size_t round = 0; round < regions; ++round) {
        find_candidates(s, max_push);
        std::optional<std::size_t> blocker;
        for (Vec2 p : s.candidates) {
            const auto blocks = [&](std::size_t i) {
                return !clear(obstacles, s, i, p, touch_tolerance);
            };
            bool blocked = false;
            for (std::size_t i = 0; i < regions && !blocked; ++i) {
                blocked = s.active[i] && blocks(i);
            }
            if (blocked) {
                continue;
            }
            for (std::size_t i = 0; i < regions && !blocker; ++i) {
                if (!s.active[i] && blocks(i)) {
                    blocker = i;
                }
            }
            if (!blocker) {
                return p;
            }
            break;
        }
        if (!blocker) {
            return std::nullopt; // every way out of the active regions is too far
        }
        s.active[*blocker] = 1;
    }
    return std::nullopt;
}

} // namespace sweep::detail
