#include "sweep/shapes.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "hull_impl.hpp"

namespace sweep {
namespace {

bool finite_positive(real v) { return std::isfinite(v) && v > 0; }

Error size_error(const char* factory, const char* what) {
    return Error{ErrorCode::degenerate_shape, std::string(factory) + ": " + what};
}

// Normals and centroid from counter-clockwise vertices.
void finish_polygon(Polygon& polygon) {
    const int n = polygon.count;
    Vec2 area_sum{};
    real area = 0;
    const Vec2 origin = polygon.vertices[0];
    for (int i = 0; i < n; ++i) {
        const Vec2 a = polygon.vertices[i];
        const Vec2 b = polygon.vertices[i + 1 < n ? i + 1 : 0];
        polygon.normals[i] = normalize(right_perp(b - a));
        // Triangle fan about vertex 0 for the centroid, relative to it to
        // keep precision for shapes far from their local origin.
        const real tri = real(0.5) * cross(a - origin, b - origin);
        area += tri;
        area_sum += tri * (real(1) / 3) * ((a - origin) + (b - origin));
    }
    polygon.centroid = origin + (real(1) / area) * area_sum;
}

// Drops the vertex whose removal loses the least area until the hull's
// first `count` vertices fit; returns how many are left.
std::size_t reduce_to_max_vertices(std::span<Vec2> hull, std::size_t count) {
    while (count > std::size_t(k_max_polygon_vertices)) {
        std::size_t best = 0;
        real best_area = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const Vec2 prev = hull[(i + count - 1) % count];
            const Vec2 next = hull[(i + 1) % count];
            const real area = cross(hull[i] - prev, next - prev);
            if (i == 0 || area < best_area) {
                best_area = area;
                best = i;
            }
        }
        for (std::size_t i = best; i + 1 < count; ++i) {
            hull[i] = hull[i + 1];
        }
        --count;
    }
    return count;
}

// Area, first moment (integral of x) and polar second moment (integral of
// |x|^2) of a region, about the origin of the coordinates they were taken in.
struct Moments {
    real area = 0;
    Vec2 first;
    real second = 0;

    Moments& operator+=(const Moments& m) {
        area += m.area;
        first += m.first;
        second += m.second;
        return *this;
    }
    Moments operator+(const Moments& m) const { return Moments(*this) += m; }
};

// The signed triangle (0, a, b): closed forms of the three integrals.
Moments triangle_moments(Vec2 a, Vec2 b) {
    const real area = real(0.5) * cross(a, b);
    return {area, (area / 3) * (a + b), (area / 6) * (dot(a, a) + dot(a, b) + dot(b, b))};
}

// The counter-clockwise quadrilateral a, b, c, d.
Moments quad_moments(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    return triangle_moments(a, b) + triangle_moments(b, c) + triangle_moments(c, d) +
           triangle_moments(d, a);
}

// The circular sector of radius r at apex v from direction n1 turning
// counter-clockwise to n2 (an angle in [0, pi] for a convex polygon, pi for
// the end of a capsule). About the apex: area theta r^2 / 2, first moment
// r^3 / 3 (sin phi2 - sin phi1, cos phi1 - cos phi2), polar moment theta r^4 / 4;
// then moved to the origin by the parallel-axis rule.
Moments sector_moments(Vec2 v, real r, Vec2 n1, Vec2 n2) {
    const real theta = std::atan2(std::abs(cross(n1, n2)), dot(n1, n2));
    const Vec2 first_apex = (r * r * r / 3) * (left_perp(n1) - left_perp(n2));
    const real area = real(0.5) * theta * r * r;
    const real second_apex = real(0.25) * theta * r * r * r * r;
    return {area, first_apex + area * v, second_apex + 2 * dot(v, first_apex) + area * dot(v, v)};
}

// The rounding of a polygon about its centroid: a rectangle of depth radius
// on each edge and a sector at each vertex. Not inlined: in compute_mass its
// registers and stack frame slowed the sharp polygons' loop by about 5 %.
[[gnu::noinline]] Moments rounding_moments(const Polygon& polygon) {
    const Vec2 c = polygon.centroid;
    const real r = polygon.radius;
    const int n = polygon.count;
    Moments sum;
    for (int i = 0; i < n; ++i) {
        const int next = i + 1 < n ? i + 1 : 0;
        const Vec2 w1 = polygon.vertices[i] - c;
        const Vec2 w2 = polygon.vertices[next] - c;
        const Vec2 offset = r * polygon.normals[i];
        sum += quad_moments(w1, w1 + offset, w2 + offset, w2);
        sum += sector_moments(w2, r, polygon.normals[i], polygon.normals[next]);
    }
    return sum;
}

// Mass properties from moments taken about `origin`.
MassData finish_mass(const Moments& m, Vec2 origin, real density) {
    const Vec2 offset = (real(1) / m.area) * m.first;
    const real inertia = m.second - m.area * dot(offset, offset);
    return {density * m.area, origin + offset, density * inertia};
}

// A solid shape's mass properties at unit density, as compute_mass makes
// them, are usable: a positive, finite area, a finite centroid and inertia in
// `real`. Sizes whose squares underflow, boxes thinner than their
// coordinates resolve and coordinates whose products overflow fail.
bool has_usable_mass(const MassData& md) {
    return md.mass > 0 && std::isfinite(md.mass) && is_finite(md.center) &&
           std::isfinite(md.rotational_inertia);
}

// The hull's width: the least, over its edges, of the farthest vertex's
// distance from the edge's line (a convex polygon's width is attained
// against one of its edges).
real hull_width(std::span<const Vec2> hull) {
    const std::size_t n = hull.size();
    real width = std::numeric_limits<real>::max();
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = hull[i];
        const Vec2 edge = hull[(i + 1) % n] - a;
        real farthest = 0;
        for (const Vec2 v : hull) {
            farthest = std::max(farthest, cross(edge, v - a));
        }
        width = std::min(width, farthest / length(edge));
    }
    return width;
}

// Whether the counter-clockwise convex `hull` is surely wider than `least`
// (L): a convex shape lies in a strip as wide as it and no longer than its
// box's diagonal, so its area bounds its width from below. With 1 % to
// spare, far more than the area's and the diagonal's rounding (a few ulps),
// hull_width would find it wider too: most hulls are answered so in one
// pass, without hull_width's pass per edge.
bool surely_wider_than(std::span<const Vec2> hull, real least) {
    const Vec2 origin = hull[0];
    real twice_area = 0;
    Aabb box{origin, origin};
    for (std::size_t i = 1; i + 1 < hull.size(); ++i) {
        twice_area += cross(hull[i] - origin, hull[i + 1] - origin);
    }
    for (const Vec2 v : hull) {
        box = union_of(box, Aabb{v, v});
    }
    const real diagonal = length(box.upper - box.lower);
    return real(0.5) * twice_area >= real(1.01) * least * diagonal;
}

// A hull thinner than the weld distance, or than a few roundings of its
// coordinates, is a line to the narrowphase: every face normal is the
// line's, so the separating-axis search and the clipping see a sliver
// 1e-30 L thick as touching anything along its line.
bool is_too_thin(std::span<const Vec2> hull) {
    real extent = 0;
    for (const Vec2 v : hull) {
        extent = std::max({extent, std::abs(v.x), std::abs(v.y)});
    }
    const real rounding = 8 * std::numeric_limits<real>::epsilon() * extent;
    const real least = std::max(k_hull_weld_distance, rounding);
    return !surely_wider_than(hull, least) && !(hull_width(hull) >= least);
}

Error range_error(const char* factory) {
    return Error{ErrorCode::invalid_input,
                 std::string(factory) + ": a coordinate or size beyond k_max_coordinate"};
}

Error no_mass_error(const char* factory) {
    return size_error(factory, "too small, too thin or too large for a finite, positive area "
                               "and a finite centroid in `real`");
}

} // namespace

Result<Circle> make_circle(Vec2 center, real radius) {
    if (!is_finite(center) || !std::isfinite(radius)) {
        return Error{ErrorCode::invalid_input, "make_circle: NaN or infinite input"};
    }
    // result.hpp: a negative size is invalid input, a zero one a degenerate shape.
    if (radius < 0) {
        return Error{ErrorCode::invalid_input, "make_circle: radius must not be negative"};
    }
    if (!(radius > 0)) {
        return size_error("make_circle", "radius must be > 0");
    }
    if (!in_coordinate_range(center) || !in_coordinate_range(radius)) {
        return range_error("make_circle");
    }
    const Circle circle{center, radius};
    if (!has_usable_mass(compute_mass(circle, 1))) {
        return no_mass_error("make_circle");
    }
    return circle;
}

Result<Capsule> make_capsule(Vec2 center1, Vec2 center2, real radius) {
    if (!is_finite(center1) || !is_finite(center2) || !std::isfinite(radius)) {
        return Error{ErrorCode::invalid_input, "make_capsule: NaN or infinite input"};
    }
    if (radius < 0) {
        return Error{ErrorCode::invalid_input, "make_capsule: radius must not be negative"};
    }
    if (!(radius > 0)) {
        return size_error("make_capsule", "radius must be > 0");
    }
    if (!in_coordinate_range(center1) || !in_coordinate_range(center2) ||
        !in_coordinate_range(radius)) {
        return range_error("make_capsule");
    }
    if (center1 == center2) {
        return size_error("make_capsule", "the two centres coincide (use a circle)");
    }
    if (normalize(right_perp(center2 - center1)) == Vec2{}) {
        return size_error("make_capsule", "the centres are too close to give a direction");
    }
    const Capsule capsule{center1, center2, radius};
    if (!has_usable_mass(compute_mass(capsule, 1))) {
        return no_mass_error("make_capsule");
    }
    return capsule;
}

Polygon capsule_polygon(const Capsule& capsule) {
    Polygon p;
    p.count = 2;
    p.vertices[0] = capsule.center1;
    p.vertices[1] = capsule.center2;
    p.normals[0] = normalize(right_perp(capsule.center2 - capsule.center1));
    p.normals[1] = -p.normals[0];
    p.centroid = lerp(capsule.center1, capsule.center2, real(0.5));
    p.radius = capsule.radius;
    return p;
}

Result<Polygon> make_box(real hx, real hy) { return make_offset_box(hx, hy, {}, 0); }

Result<Polygon> make_offset_box(real hx, real hy, Vec2 center, real angle) {
    if (!std::isfinite(hx) || !std::isfinite(hy) || !is_finite(center) || !std::isfinite(angle)) {
        return Error{ErrorCode::invalid_input, "make_box: NaN or infinite input"};
    }
    // result.hpp: a negative size is invalid input, a zero one a degenerate shape.
    if (hx < 0 || hy < 0) {
        return Error{ErrorCode::invalid_input, "make_box: half-extents must not be negative"};
    }
    if (!finite_positive(hx) || !finite_positive(hy)) {
        return size_error("make_box", "half-extents must be > 0");
    }
    if (!in_coordinate_range(hx) || !in_coordinate_range(hy) || !in_coordinate_range(center)) {
        return range_error("make_box");
    }
    const Transform xf{center, Rot::from_angle(angle)};
    Polygon box;
    box.count = 4;
    box.vertices[0] = transform_point(xf, {-hx, -hy});
    box.vertices[1] = transform_point(xf, {hx, -hy});
    box.vertices[2] = transform_point(xf, {hx, hy});
    box.vertices[3] = transform_point(xf, {-hx, hy});
    box.normals[0] = rotate(xf.q, {0, -1});
    box.normals[1] = rotate(xf.q, {1, 0});
    box.normals[2] = rotate(xf.q, {0, 1});
    box.normals[3] = rotate(xf.q, {-1, 0});
    box.centroid = center;
    if (!has_usable_mass(compute_mass(box, 1))) {
        return no_mass_error("make_box");
    }
    return box;
}

Result<Polygon> make_rounded_box(real hx, real hy, real radius) {
    if (!std::isfinite(radius) || !(radius > 0)) {
        return Error{radius == 0 ? ErrorCode::degenerate_shape : ErrorCode::invalid_input,
                     "make_rounded_box: radius must be finite and > 0"};
    }
    if (!in_coordinate_range(radius)) {
        return range_error("make_rounded_box");
    }
    auto box = make_box(hx, hy);
    if (box) {
        box->radius = radius;
    }
    return box;
}

Result<Polygon> make_polygon(std::span<const Vec2> points, real radius) {
    if (!std::isfinite(radius) || radius < 0) {
        return Error{ErrorCode::invalid_input, "make_polygon: radius must be finite and >= 0"};
    }
    // (NaN and infinities are the hull's to name.)
    if (!in_coordinate_range(radius) || !std::all_of(points.begin(), points.end(), [](Vec2 p) {
            return !is_finite(p) || in_coordinate_range(p);
        })) {
        return range_error("make_polygon");
    }
    // Up to k_max_polygon_vertices points (a shape's own corners, the common
    // case) are hulled on the stack, more in one vector: hull_into's scratch,
    // then the hull (each twice as many). The allocations compute_hull makes
    // cost more than the hull itself.
    const std::size_t n = points.size();
    std::array<Vec2, 4 * k_max_polygon_vertices> small;
    std::vector<Vec2> large;
    std::span<Vec2> storage = small;
    if (n > std::size_t(k_max_polygon_vertices)) {
        large.resize(4 * n);
        storage = large;
    }
    const std::span<Vec2> hull = storage.subspan(2 * n, 2 * n);
    auto count = detail::hull_into(points, k_hull_weld_distance, storage.first(2 * n), hull);
    if (!count) {
        return Error{count.error().code, "make_polygon: " + count.error().message};
    }
    // Built in place in the result: a polygon is worth not copying.
    Result<Polygon> result{Polygon{}};
    Polygon& polygon = *result;
    polygon.count = static_cast<int>(reduce_to_max_vertices(hull, *count));
    if (is_too_thin(hull.first(std::size_t(polygon.count)))) {
        return size_error("make_polygon", "the hull is thinner than the weld distance "
                                          "(k_hull_weld_distance) or its coordinates' rounding");
    }
    std::copy_n(hull.begin(), polygon.count, polygon.vertices.begin());
    polygon.radius = radius;
    finish_polygon(polygon);
    if (!has_usable_mass(compute_mass(polygon, 1)) ||
        std::any_of(polygon.normals.begin(), polygon.normals.begin() + polygon.count,
                    [](Vec2 n) { return n == Vec2{}; })) {
        return no_mass_error("make_polygon");
    }
    return result;
}

Result<Segment> make_segment(Vec2 p1, Vec2 p2) {
    if (!is_finite(p1) || !is_finite(p2)) {
        return Error{ErrorCode::invalid_input, "make_segment: NaN or infinite point"};
    }
    if (!in_coordinate_range(p1) || !in_coordinate_range(p2)) {
        return range_error("make_segment");
    }
    if (p1 == p2) {
        return size_error("make_segment", "the two points coincide");
    }
    // Its normal is the direction's: one that cannot be normalized in `real`
    // (coordinates under normalize's 1e-30 L floor, or a length that
    // overflows) leaves it none.
    if (const Vec2 n = normalize(p2 - p1); n == Vec2{} || !is_finite(n)) {
        return size_error("make_segment", "the points are too close or too far apart to give a "
                                          "direction in `real`");
    }
    return Segment{p1, p2};
}

Result<std::vector<ChainSegment>> make_chain_loop(std::span<const Vec2> points) {
    const std::size_t n = points.size();
    if (n < 3) {
        return size_error("make_chain_loop", "a loop needs at least 3 points");
    }
    std::vector<ChainSegment> chain;
    chain.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        auto segment = make_segment(points[i], points[(i + 1) % n]);
        if (!segment) {
            return Error{segment.error().code, "make_chain_loop: point " + std::to_string(i) +
                                                   ": " + segment.error().message};
        }
        chain.push_back({points[(i + n - 1) % n], *segment, points[(i + 2) % n]});
    }
    return chain;
}

Vec2 outward_normal(const ChainSegment& chain) {
    return normalize(right_perp(chain.segment.p2 - chain.segment.p1));
}

MassData compute_mass(const Circle& circle, real density) {
    const real r2 = circle.radius * circle.radius;
    const real mass = density * k_pi * r2;
    return {mass, circle.center, mass * real(0.5) * r2};
}

MassData compute_mass(const Polygon& polygon, real density) {
    // Area, first moment and polar second moment of the rounded polygon about
    // its core centroid c (relative coordinates keep precision far from the
    // local origin), summed over pieces that tile it exactly: the core
    // polygon, a rectangle of depth r on each edge, a sector at each vertex.
    const Vec2 c = polygon.centroid;
    const real r = polygon.radius;
    const int n = polygon.count;
    // The core as the fan of triangles (0, v1, v2): triangle_moments' closed
    // forms with their constant factors applied once to the sums rather than
    // per triangle, and each vertex taken relative to c (and squared) once.
    real cross_sum = 0;
    Vec2 first_sum;
    real second_sum = 0;
    Vec2 v1 = polygon.vertices[n - 1] - c;
    real v1_v1 = dot(v1, v1);
    for (int i = 0; i < n; ++i) {
        const Vec2 v2 = polygon.vertices[i] - c;
        const real v2_v2 = dot(v2, v2);
        const real d = cross(v1, v2);
        cross_sum += d;
        first_sum += d * (v1 + v2);
        second_sum += d * (v1_v1 + dot(v1, v2) + v2_v2);
        v1 = v2;
        v1_v1 = v2_v2;
    }
    Moments sum{real(0.5) * cross_sum, (real(1) / 6) * first_sum, (real(1) / 12) * second_sum};
    if (r > 0) {
        sum += rounding_moments(polygon);
    }
    return finish_mass(sum, c, density);
}

MassData compute_mass(const Capsule& capsule, real density) {
    return compute_mass(capsule_polygon(capsule), density);
}

Aabb compute_aabb(const Circle& circle, const Transform& xf) {
    const Vec2 p = transform_point(xf, circle.center);
    return {{p.x - circle.radius, p.y - circle.radius}, {p.x + circle.radius, p.y + circle.radius}};
}

Aabb compute_aabb(const Capsule& capsule, const Transform& xf) {
    const Vec2 a = transform_point(xf, capsule.center1);
    const Vec2 b = transform_point(xf, capsule.center2);
    return inflate({min(a, b), max(a, b)}, capsule.radius);
}

Aabb compute_aabb(const Polygon& polygon, const Transform& xf) {
    Vec2 lower = transform_point(xf, polygon.vertices[0]);
    Vec2 upper = lower;
    for (int i = 1; i < polygon.count; ++i) {
        const Vec2 v = transform_point(xf, polygon.vertices[i]);
        lower = min(lower, v);
        upper = max(upper, v);
    }
    return inflate({lower, upper}, polygon.radius);
}

Aabb compute_aabb(const Segment& segment, const Transform& xf) {
    const Vec2 a = transform_point(xf, segment.p1);
    const Vec2 b = transform_point(xf, segment.p2);
    return {min(a, b), max(a, b)};
}

Aabb compute_aabb(const Shape& shape, const Transform& xf) {
    switch (shape.type) {
    case ShapeType::circle:
        return compute_aabb(shape.circle, xf);
    case ShapeType::capsule:
        return compute_aabb(shape.capsule, xf);
    case ShapeType::polygon:
        return compute_aabb(shape.polygon, xf);
    case ShapeType::segment:
        return compute_aabb(shape.segment, xf);
    case ShapeType::chain_segment:
        return compute_aabb(shape.chain_segment.segment, xf);
    }
    return {};
}

MassData compute_mass(const Shape& shape, real density) {
    switch (shape.type) {
    case ShapeType::circle:
        return compute_mass(shape.circle, density);
    case ShapeType::capsule:
        return compute_mass(shape.capsule, density);
    case ShapeType::polygon:
        return compute_mass(shape.polygon, density);
    case ShapeType::segment:
    case ShapeType::chain_segment:
        break;
    }
    return {};
}

real max_extent(const Shape& shape, Vec2 local_point) {
    switch (shape.type) {
    case ShapeType::circle:
        return distance(shape.circle.center, local_point) + shape.circle.radius;
    case ShapeType::capsule:
        return std::max(distance(shape.capsule.center1, local_point),
                        distance(shape.capsule.center2, local_point)) +
               shape.capsule.radius;
    case ShapeType::polygon: {
        real r = 0;
        for (int i = 0; i < shape.polygon.count; ++i) {
            r = std::max(r, distance(shape.polygon.vertices[i], local_point));
        }
        return r + shape.polygon.radius;
    }
    case ShapeType::segment:
        return std::max(distance(shape.segment.p1, local_point),
                        distance(shape.segment.p2, local_point));
    case ShapeType::chain_segment: {
        const Segment& s = shape.chain_segment.segment;
        return std::max(distance(s.p1, local_point), distance(s.p2, local_point));
    }
    }
    return 0;
}

real inner_radius(const Shape& shape) {
    switch (shape.type) {
    case ShapeType::circle:
        return shape.circle.radius;
    case ShapeType::capsule:
        return shape.capsule.radius;
    case ShapeType::polygon: {
        const Polygon& p = shape.polygon;
        real r = std::numeric_limits<real>::max();
        for (int i = 0; i < p.count; ++i) {
            r = std::min(r, dot(p.normals[i], p.vertices[i] - p.centroid));
        }
        return std::max(r, real(0)) + p.radius;
    }
    case ShapeType::segment:
    case ShapeType::chain_segment:
        return 0;
    }
    return 0;
}

real least_support(const Shape& shape, Vec2 local_point) {
    // The centre of inner_radius's disc.
    Vec2 center;
    switch (shape.type) {
    case ShapeType::circle:
        center = shape.circle.center;
        break;
    case ShapeType::capsule:
        center = real(0.5) * (shape.capsule.center1 + shape.capsule.center2);
        break;
    case ShapeType::polygon:
        center = shape.polygon.centroid;
        break;
    case ShapeType::segment:
        center = shape.segment.p1;
        break;
    case ShapeType::chain_segment:
        center = shape.chain_segment.segment.p1;
        break;
    }
    return inner_radius(shape) - distance(center, local_point);
}

real rounding_radius(const Shape& shape) {
    switch (shape.type) {
    case ShapeType::circle:
        return shape.circle.radius;
    case ShapeType::capsule:
        return shape.capsule.radius;
    case ShapeType::polygon:
        return shape.polygon.radius;
    case ShapeType::segment:
    case ShapeType::chain_segment:
        return 0;
    }
    return 0;
}

} // namespace sweep
