// Overlap tests (overlap.hpp). Every pair is reduced to two "forms" in A's
// frame: a point (a circle's centre) or a convex polygon of 2 to 8 vertices
// (polygons; capsules and edges as two-vertex polygons), each grown by a
// radius. The signed separation of the rounded forms is then exact:
//   - point/point: the centre distance;
//   - polygon/point: the face of greatest separation, exact when negative;
//     otherwise the distance to that face's edge, which holds the closest
//     point (a point in a vertex region is separated most by one of the
//     vertex's two faces: any other face normal lies further from the
//     direction to the point);
//   - polygon/polygon: separating axes on every face normal of both, exact
//     when negative (the faces of the Minkowski difference of two convex
//     polygons, segments included, have exactly these normals; two parallel
//     edges add their direction, the end caps of their flat difference);
//     otherwise GJK gives the core distance.
// Zero normals (zero-length edges of unvalidated shapes) are skipped, so a
// zero-length segment is its point.
#include "sweep/overlap.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>

#include "sweep/distance.hpp"

namespace sweep {
namespace {

/// A point (count 1) or a convex polygon (count >= 2; two vertices for an
/// edge, with normals[1] = -normals[0]) grown by `radius`.
struct Form {
    std::array<Vec2, k_max_polygon_vertices> vertices{};
    std::array<Vec2, k_max_polygon_vertices> normals{};
    int count = 0;
    real radius = 0;
};

Form segment_form(Vec2 p1, Vec2 p2, real radius) {
    Form f;
    f.count = 2;
    f.vertices[0] = p1;
    f.vertices[1] = p2;
    f.normals[0] = normalize(right_perp(p2 - p1));
    f.normals[1] = -f.normals[0];
    f.radius = radius;
    return f;
}

/// The form of a shape in the frame `xf` maps it to (A's frame for B).
Form form_of(const Shape& shape, const Transform& xf) {
    Form f;
    switch (shape.type) {
    case ShapeType::circle:
        f.count = 1;
        f.vertices[0] = transform_point(xf, shape.circle.center);
        f.radius = shape.circle.radius;
        return f;
    case ShapeType::capsule:
        return segment_form(transform_point(xf, shape.capsule.center1),
                            transform_point(xf, shape.capsule.center2), shape.capsule.radius);
    case ShapeType::polygon:
        f.count = shape.polygon.count;
        for (int i = 0; i < f.count; ++i) {
            f.vertices[i] = transform_point(xf, shape.polygon.vertices[i]);
            f.normals[i] = rotate(xf.q, shape.polygon.normals[i]);
        }
        f.radius = shape.polygon.radius;
        return f;
    case ShapeType::segment:
        return segment_form(transform_point(xf, shape.segment.p1),
                            transform_point(xf, shape.segment.p2), 0);
    case ShapeType::chain_segment:
        return segment_form(transform_point(xf, shape.chain_segment.segment.p1),
                            transform_point(xf, shape.chain_segment.segment.p2), 0);
    }
    return f;
}

Form polygon_form(const Polygon& polygon, const Transform& xf) {
    Form f;
    f.count = polygon.count;
    for (int i = 0; i < f.count; ++i) {
        f.vertices[i] = transform_point(xf, polygon.vertices[i]);
        f.normals[i] = rotate(xf.q, polygon.normals[i]);
    }
    f.radius = polygon.radius;
    return f;
}

/// Distance from p to the segment a-b (a == b allowed).
real point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 e = b - a;
    const real ee = dot(e, e);
    const real t = ee > 0 ? std::clamp(dot(p - a, e) / ee, real(0), real(1)) : real(0);
    return length(p - (a + t * e));
}

/// Signed separation of a polygon form (count >= 2) and a point (cores only).
real polygon_point_separation(const Form& polygon, Vec2 c) {
    real best = -std::numeric_limits<real>::max();
    int edge = -1;
    for (int i = 0; i < polygon.count; ++i) {
        if (polygon.normals[i] == Vec2{}) {
            continue; // a zero-length edge has no axis
        }
        const real s = dot(polygon.normals[i], c - polygon.vertices[i]);
        if (s > best) {
            best = s;
            edge = i;
        }
    }
    if (edge < 0) { // every edge has zero length: the polygon is a point
        return distance(c, polygon.vertices[0]);
    }
    // Inside: the face of least penetration is exact. A two-vertex form has
    // no inside; a point on its line beyond an end lies behind both faces
    // by rounding as often as in front (manifold.cpp's circle_against_face).
    if (best < 0 && polygon.count > 2) {
        return best;
    }
    const int next = edge + 1 < polygon.count ? edge + 1 : 0;
    return point_segment_distance(c, polygon.vertices[edge], polygon.vertices[next]);
}

/// The largest gap between `ref` and `other` (polygon forms) along the
/// nonzero face normals of ref, and for a two-vertex ref also along its
/// direction both ways: two parallel edges have a Minkowski difference of
/// zero area, whose end caps are the only axes that separate them when they
/// lie end to end on one line.
real max_face_gap(const Form& ref, const Form& other, bool& found) {
    const auto gap_along = [&](Vec2 n, real ref_max) {
        real other_min = std::numeric_limits<real>::max();
        for (int j = 0; j < other.count; ++j) {
            other_min = std::min(other_min, dot(n, other.vertices[j]));
        }
        found = true;
        return other_min - ref_max;
    };
    real best = -std::numeric_limits<real>::max();
    for (int i = 0; i < ref.count; ++i) {
        const Vec2 n = ref.normals[i];
        if (n != Vec2{}) {
            best = std::max(best, gap_along(n, dot(n, ref.vertices[i])));
        }
    }
    if (ref.count == 2) {
        const Vec2 t = normalize(ref.vertices[1] - ref.vertices[0]);
        if (t != Vec2{}) {
            best = std::max(best, gap_along(t, dot(t, ref.vertices[1])));
            best = std::max(best, gap_along(-t, -dot(t, ref.vertices[0])));
        }
    }
    return best;
}

/// Exact core distance of two forms by GJK (0 when the cores meet).
real core_distance(const Form& a, const Form& b) {
    SimplexCache cache;
    const DistanceOutput d =
        distance({make_proxy(std::span(a.vertices.data(), static_cast<std::size_t>(a.count)), 0),
                  make_proxy(std::span(b.vertices.data(), static_cast<std::size_t>(b.count)), 0),
                  k_identity, k_identity, false},
                 cache);
    return d.state == DistanceState::separated ? d.distance : real(0);
}

/// True when the rounded forms (same frame) penetrate deeper than `tolerance`.
bool forms_overlap(const Form& a, const Form& b, real tolerance) {
    const real radius = a.radius + b.radius;
    if (a.count == 1 && b.count == 1) {
        const real r = radius - tolerance;
        return r > 0 && length_squared(b.vertices[0] - a.vertices[0]) < r * r;
    }
    if (b.count == 1 || a.count == 1) {
        const Form& polygon = a.count == 1 ? b : a;
        const Vec2 point = a.count == 1 ? a.vertices[0] : b.vertices[0];
        return polygon_point_separation(polygon, point) - radius < -tolerance;
    }
    bool found = false;
    const real gap = std::max(max_face_gap(a, b, found), max_face_gap(b, a, found));
    if (found && gap < 0) {
        return gap - radius < -tolerance; // overlapping cores: the depth is exact
    }
    // Apart or touching cores (or forms without any axis): the gap, when
    // there is one, bounds the core distance from below.
    if (found && gap - radius >= -tolerance) {
        return false;
    }
    return core_distance(a, b) - radius < -tolerance;
}

/// True when A comes first in a fixed order of (type, transform), so that
/// overlaps(a, b) and overlaps(b, a) evaluate the same arithmetic and agree
/// to the last bit, not only up to rounding.
bool in_order(ShapeType type_a, const Transform& xfa, ShapeType type_b, const Transform& xfb) {
    const auto key = [](ShapeType type, const Transform& xf) {
        return std::tuple(static_cast<int>(type), xf.p.x, xf.p.y, xf.q.c, xf.q.s);
    };
    return key(type_a, xfa) <= key(type_b, xfb);
}

} // namespace

bool overlaps(const Shape& a, const Transform& xfa, const Shape& b, const Transform& xfb,
              real touch_tolerance) {
    if (!is_finite(xfa) || !is_finite(xfb)) {
        return false;
    }
    if (a.type == ShapeType::circle && b.type == ShapeType::circle) {
        return overlaps_circles(a.circle, xfa, b.circle, xfb, touch_tolerance);
    }
    if (a.type == ShapeType::polygon && b.type == ShapeType::polygon) {
        return overlaps_polygons(a.polygon, xfa, b.polygon, xfb, touch_tolerance);
    }
    if (a.type == ShapeType::polygon && b.type == ShapeType::circle) {
        return overlaps_polygon_circle(a.polygon, xfa, b.circle, xfb, touch_tolerance);
    }
    if (a.type == ShapeType::circle && b.type == ShapeType::polygon) {
        return overlaps_polygon_circle(b.polygon, xfb, a.circle, xfa, touch_tolerance);
    }
    // Everything else in the first shape's frame, so that results far from
    // the origin keep their precision.
    if (!in_order(a.type, xfa, b.type, xfb)) {
        return forms_overlap(form_of(b, k_identity), form_of(a, inv_mul(xfb, xfa)),
                             touch_tolerance);
    }
    return forms_overlap(form_of(a, k_identity), form_of(b, inv_mul(xfa, xfb)), touch_tolerance);
}

bool overlaps_circles(const Circle& a, const Transform& xfa, const Circle& b, const Transform& xfb,
                      real touch_tolerance) {
    if (!is_finite(xfa) || !is_finite(xfb)) {
        return false;
    }
    const real r = a.radius + b.radius - touch_tolerance;
    const Vec2 d = transform_point(xfb, b.center) - transform_point(xfa, a.center);
    return r > 0 && length_squared(d) < r * r;
}

bool overlaps_polygon_circle(const Polygon& a, const Transform& xfa, const Circle& b,
                             const Transform& xfb, real touch_tolerance) {
    if (!is_finite(xfa) || !is_finite(xfb)) {
        return false;
    }
    // The circle's centre in the polygon's frame: the polygon stays as stored.
    const Vec2 c = inv_transform_point(xfa, transform_point(xfb, b.center));
    return polygon_point_separation(polygon_form(a, k_identity), c) - a.radius - b.radius <
           -touch_tolerance;
}

bool overlaps_polygons(const Polygon& a, const Transform& xfa, const Polygon& b,
                       const Transform& xfb, real touch_tolerance) {
    if (!is_finite(xfa) || !is_finite(xfb)) {
        return false;
    }
    if (!in_order(ShapeType::polygon, xfa, ShapeType::polygon, xfb)) {
        return forms_overlap(polygon_form(b, k_identity), polygon_form(a, inv_mul(xfb, xfa)),
                             touch_tolerance);
    }
    return forms_overlap(polygon_form(a, k_identity), polygon_form(b, inv_mul(xfa, xfb)),
                         touch_tolerance);
}

} // namespace sweep
