#include "seams.hpp"

#include <algorithm>
#include <cmath>

namespace sweep::detail {

void find_covered_stretches(const PlacedPolygon& polygon, const PlacedPolygon& neighbour,
                            int neighbour_index, real tolerance, std::vector<CoveredStretch>& out) {
    const auto at = [](int i) { return static_cast<std::size_t>(i); };
    // Face i of the polygon against face j of the neighbour, anti-parallel.
    const auto cover = [&](int i, int j) {
        const Vec2 a1 = polygon.vertices[at(i)];
        const Vec2 a2 = polygon.vertices[at((i + 1) % polygon.count)];
        const Vec2 n = polygon.normals[at(i)];
        const Vec2 t = left_perp(n); // along the face, a1 -> a2 (counter-clockwise winding)
        const Vec2 b1 = neighbour.vertices[at(j)];
        const Vec2 b2 = neighbour.vertices[at((j + 1) % neighbour.count)];
        if (std::abs(dot(b1 - a1, n)) > tolerance || std::abs(dot(b2 - a1, n)) > tolerance) {
            return; // parallel, but a gap (or an overlap) apart
        }
        const real length = dot(a2 - a1, t);
        const real s1 = dot(b1 - a1, t);
        const real s2 = dot(b2 - a1, t);
        const real lo = std::max(real(0), std::min(s1, s2));
        const real hi = std::min(length, std::max(s1, s2));
        if (hi - lo > tolerance) { // corners that merely meet cover nothing
            out.push_back({i, neighbour_index, lo, hi});
        }
    };
    if (polygon.face_toward[0] >= 0 && neighbour.face_toward[0] >= 0) {
        for (int i = 0; i < 4; ++i) {
            const int direction = axis_direction(polygon.normals[at(i)]);
            cover(i, neighbour.face_toward[at((direction + 2) % 4)]);
        }
        return;
    }
    for (int i = 0; i < polygon.count; ++i) {
        const Vec2 n = polygon.normals[at(i)];
        for (int j = 0; j < neighbour.count; ++j) {
            const Vec2 m = neighbour.normals[at(j)];
            if (dot(n, m) >= 0 || std::abs(cross(n, m)) > k_seam_sine) {
                continue; // not back to back
            }
            cover(i, j);
        }
    }
}

int flat_seam_face(const Polygon& wall, const Transform& xf_wall, const CoveredStretch& c,
                   Vec2 point, const Polygon& neighbour, const Transform& xf_neighbour,
                   real tolerance, real reach) {
    const int n = wall.count;
    const Vec2 start = wall.vertices[c.face];
    const Vec2 end = wall.vertices[(c.face + 1) % n];
    const real length = distance(start, end);
    const real along = dot(point - start, left_perp(wall.normals[c.face]));
    const bool at_end = along > length / 2;
    if (at_end ? c.hi < length - tolerance : c.lo > tolerance) {
        return -1; // the stretch stops short of that vertex: no seam there
    }
    if ((at_end ? length - along : along) > reach) {
        return -1; // too far from the seam to have come from crossing it
    }
    const int face = at_end ? (c.face + 1) % n : (c.face + n - 1) % n;
    const Vec2 vertex = at_end ? end : start;
    const Vec2 normal = wall.normals[face];
    const Vec2 tangent = left_perp(normal);
    // Same direction within k_seam_sine: cos >= 1 - sin^2 / 2.
    const real min_cosine = 1 - k_seam_sine * k_seam_sine / 2;
    for (int j = 0; j < neighbour.count; ++j) {
        const Vec2 m = inv_rotate(xf_wall.q, rotate(xf_neighbour.q, neighbour.normals[j]));
        if (dot(m, normal) < min_cosine) {
            continue;
        }
        const auto in_wall = [&](int k) {
            return inv_transform_point(xf_wall,
                                       transform_point(xf_neighbour, neighbour.vertices[k]));
        };
        const Vec2 p1 = in_wall(j);
        const Vec2 p2 = in_wall((j + 1) % neighbour.count);
        if (std::abs(dot(p1 - vertex, normal)) > tolerance ||
            std::abs(dot(p2 - vertex, normal)) > tolerance) {
            continue; // parallel, but a step up or down
        }
        const real s1 = dot(p1 - vertex, tangent);
        const real s2 = dot(p2 - vertex, tangent);
        if (std::min(s1, s2) <= tolerance && std::max(s1, s2) >= -tolerance) {
            return face;
        }
    }
    return -1;
}

} // namespace sweep::detail
