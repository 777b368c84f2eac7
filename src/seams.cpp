#include "seams.hpp"

#include <algorithm>

namespace sweep::detail {

void find_covered_stretches(const Polygon& polygon, const Transform& xf, const Polygon& neighbour,
                            const Transform& xf_neighbour, int neighbour_index, real tolerance,
                            std::vector<CoveredStretch>& out) {
    for (int i = 0; i < polygon.count; ++i) {
        const Vec2 a1 = transform_point(xf, polygon.vertices[i]);
        const Vec2 a2 = transform_point(xf, polygon.vertices[(i + 1) % polygon.count]);
        const Vec2 n = rotate(xf.q, polygon.normals[i]);
        const Vec2 t = left_perp(n); // along the face, a1 -> a2 (counter-clockwise winding)
        const real length = dot(a2 - a1, t);
        for (int j = 0; j < neighbour.count; ++j) {
            const Vec2 m = rotate(xf_neighbour.q, neighbour.normals[j]);
            if (dot(n, m) >= 0 || std::abs(cross(n, m)) > k_seam_sine) {
                continue; // not back to back
            }
            const Vec2 b1 = transform_point(xf_neighbour, neighbour.vertices[j]);
            const Vec2 b2 =
                transform_point(xf_neighbour, neighbour.vertices[(j + 1) % neighbour.count]);
            if (std::abs(dot(b1 - a1, n)) > tolerance || std::abs(dot(b2 - a1, n)) > tolerance) {
                continue; // parallel, but a gap (or an overlap) apart
            }
            const real s1 = dot(b1 - a1, t);
            const real s2 = dot(b2 - a1, t);
            const real lo = std::max(real(0), std::min(s1, s2));
            const real hi = std::min(length, std::max(s1, s2));
            if (hi - lo > tolerance) { // corners that merely meet cover nothing
                out.push_back({i, neighbour_index, lo, hi});
            }
        }
    }
}

namespace {

// Where a wall-frame point lies along a stretch's face, L from its start vertex.
real along_face(const Polygon& wall, const CoveredStretch& c, Vec2 point) {
    return dot(point - wall.vertices[c.face], left_perp(wall.normals[c.face]));
}

ManifoldPoint lerp_point(const ManifoldPoint& p, const ManifoldPoint& q, real t) {
    ManifoldPoint r;
    r.point = lerp(p.point, q.point, t);
    r.anchor_a = lerp(p.anchor_a, q.anchor_a, t);
    r.anchor_b = lerp(p.anchor_b, q.anchor_b, t);
    r.separation = p.separation + t * (q.separation - p.separation);
    r.id = p.id | 0x100000u; // a new feature: the end of a covered stretch
    return r;
}

} // namespace

Manifold without_seam_points(Manifold m, const std::array<const CoveredStretch*, 2>& seams,
                             const Polygon& wall, real tolerance) {
    if (m.count == 2 && (seams[0] == nullptr) != (seams[1] == nullptr)) {
        const int s = seams[0] ? 0 : 1; // on the stretch
        const int k = 1 - s;            // beyond it
        const CoveredStretch& c = *seams[s];
        const real from = along_face(wall, c, m.points[s].anchor_b);
        const real to = along_face(wall, c, m.points[k].anchor_b);
        // A point kept only for its depth may lie on the stretch too: then
        // there is no exposed end between them, and the shallow point goes.
        if (to > c.hi + tolerance || to < c.lo - tolerance) {
            const real end = to > c.hi ? c.hi : c.lo;
            const real t = std::clamp((end - from) / (to - from), real(0), real(1));
            m.points[s] = lerp_point(m.points[s], m.points[k], t);
            return m;
        }
    }
    int kept = 0;
    for (int i = 0; i < m.count; ++i) {
        if (!seams[i]) {
            m.points[kept++] = m.points[i];
        }
    }
    m.count = kept;
    return m;
}

} // namespace sweep::detail
