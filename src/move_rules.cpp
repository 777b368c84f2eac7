// The rules a move's iteration shares between the general mover and the
// box mover (move_rules.hpp).
#include "move_rules.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "move_narrowphase.hpp"
#include "seams.hpp"

namespace sweep::detail {

std::optional<MoveResponse> answered(std::span<const std::pair<int, MoveResponse>> asked,
                                     int shape) {
    const auto known = std::find_if(asked.begin(), asked.end(),
                                    [shape](const auto& a) { return a.first == shape; });
    return known != asked.end() ? std::optional(known->second) : std::nullopt;
}
namespace {

// Contacts most moves meet: reserved at the first, so a move that meets a
// floor and a wall grows its result once.
constexpr std::size_t k_reserved_contacts = 4;

} // namespace

Vec2 clip_to_planes(Vec2 v, std::span<const Vec2> normals) {
    if (normals.size() == 1) {
        return clip_to_plane(v, normals.front());
    }
    for (int pass = 0; pass < 3; ++pass) {
        bool clipped = false;
        for (Vec2 n : normals) {
            const real d = dot(v, n);
            if (d < 0) {
                v -= d * n;
                clipped = true;
            }
        }
        if (!clipped) {
            return v;
        }
    }
    for (Vec2 n : normals) {
        if (dot(v, n) < -real(1e-6) * length(v)) {
            return {}; // planes that cannot all be satisfied: stop
        }
    }
    return v;
}

Vec2 slide_along_planes(Vec2 left, std::span<const MoveHit> ties, std::span<const Vec2> held,
                        std::vector<Vec2>& planes) {
    planes.clear();
    for (std::size_t i = 0; i < ties.size(); ++i) {
        if (holds_slide(ties, i)) {
            planes.push_back(ties[i].normal);
        }
    }
    if (!held.empty()) {
        planes.insert(planes.end(), held.begin(), held.end());
    }
    return clip_to_planes(left, planes);
}

void add_faces(std::span<const MoveHit> ties, std::vector<Vec2>& held) {
    for (const MoveHit& h : ties) {
        if (h.face && std::find(held.begin(), held.end(), h.normal) == held.end()) {
            held.push_back(h.normal);
        }
    }
}

Manifold push_out_manifold(const World::Impl& w, int other, const Shape& own,
                           const Transform& own_xf) {
    const ShapeRecord& o = w.shapes[other];
    return collide(o.shape, w.bodies[o.body].xf, own, own_xf, {0, w.tol.linear_slop});
}

void reserve_contacts(MoveResult& result) { result.contacts.reserve(k_reserved_contacts); }

bool boxes_sink(const Aabb& other, const Aabb& own, Vec2 d, real touch) {
    const std::array<AxisGaps, 2> g = box_gaps(other, own);
    const real deep = real(-0.5) * touch;
    real enter = 0;
    real exit = 1;
    for (int axis = 0; axis < 2; ++axis) {
        const real da = axis == 0 ? d.x : d.y;
        const real below = g[axis].below - deep; // below(t) = below - da t, deeper than `deep`
        const real above = g[axis].above - deep; // above(t) = above + da t
        if (da == 0) {
            if (below >= 0 || above >= 0) {
                return false;
            }
            continue;
        }
        // Both below(t) < 0 and above(t) < 0.
        const real t1 = below / da;  // below(t) < 0: t > t1 when da > 0, t < t1 when da < 0
        const real t2 = -above / da; // above(t) < 0: t < t2 when da > 0, t > t2 when da < 0
        enter = std::max(enter, da > 0 ? t1 : t2);
        exit = std::min(exit, da > 0 ? t2 : t1);
    }
    return enter < exit;
}

std::optional<CastOutput> into_exposed_face(const World::Impl& w, int tile_shape, int own_shape,
                                            const PlacedShape& other, const PlacedShape& own,
                                            Vec2 motion, const TouchingManifold& touching) {
    const ShapeRecord& tile = w.shapes[tile_shape];
    if (tile.shape.type != ShapeType::polygon || w.covered_of(tile).empty()) {
        return std::nullopt;
    }
    const Manifold m = touching.made() ? touching.get()
                                       : collide(*other.shape, other.xf, *own.shape, own.xf,
                                                 {w.tol.touch_tolerance, w.tol.linear_slop});
    if (m.count == 0 || m.reference_is_b ||
        dot(motion, m.normal) >= -k_tangent_cosine * length(motion)) {
        return std::nullopt;
    }
    const ShapeRecord& mover = w.shapes[own_shape];
    const auto counts = [&](const CoveredStretch& s) {
        return World::Impl::may_collide(mover, w.shapes[s.neighbour]);
    };
    const Vec2 normal = inv_rotate(other.xf.q, m.normal);
    for (int i = 0; i < m.count; ++i) {
        if (seam_stretch(tile.shape.polygon, w.covered_of(tile), m.points[i].anchor_a, normal,
                         w.tol.touch_tolerance, counts)) {
            return std::nullopt;
        }
    }
    return CastOutput{m.normal, on_surface_of(other, m.points[0].point), 0, 0, CastState::hit};
}

} // namespace sweep::detail
