// The referee of the World::move property tests, independent of the
// library's geometry: every shape is a convex core (a point, a segment or a
// polygon, placed with the body's rotation) grown by a radius, and the
// signed distance of two of them is the largest gap between their
// projections over a set of directions that contains the answer's (the
// cores' edge normals and directions, and the directions between their
// vertices: the separating axis theorem), less their radii. Segments and
// chain segments are two-sided lines for overlap (docs/conventions.md).
// Also: the characters of every shape the tests move, and exact printing
// (9 significant digits) for reproductions.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sweep/world.hpp"

namespace sweep::referee {

// A convex core grown by `radius`, in the world: the referee's shape.
struct Convex {
    std::array<Vec2, 2 * k_max_polygon_vertices> points{}; // the core's vertices
    int count = 0;
    real radius = 0;
    // Unit directions the core's faces are normal to (its edge normals; a
    // segment's normal and its direction); the separation's candidates
    // with the directions between two shapes' vertices.
    std::array<Vec2, k_max_polygon_vertices + 2> axes{};
    int axis_count = 0;

    void add_axis(Vec2 d) {
        const real len = std::sqrt(d.x * d.x + d.y * d.y);
        if (len > 0) {
            axes[static_cast<std::size_t>(axis_count++)] = Vec2{d.x / len, d.y / len};
        }
    }
};

// The core's points placed by rotation (c, s) and translation p.
inline Vec2 place(Vec2 v, real c, real s, Vec2 p) {
    return {c * v.x - s * v.y + p.x, s * v.x + c * v.y + p.y};
}

// `shape` in its body's frame placed at `p` with rotation (c, s).
inline Convex placed(const Shape& shape, real c, real s, Vec2 p) {
    Convex out;
    const auto add = [&](Vec2 v) {
        out.points[static_cast<std::size_t>(out.count++)] = place(v, c, s, p);
    };
    switch (shape.type) {
    case ShapeType::circle:
        add(shape.circle.center);
        out.radius = shape.circle.radius;
        break;
    case ShapeType::capsule:
        add(shape.capsule.center1);
        add(shape.capsule.center2);
        out.radius = shape.capsule.radius;
        break;
    case ShapeType::polygon:
        for (int i = 0; i < shape.polygon.count; ++i) {
            add(shape.polygon.vertices[static_cast<std::size_t>(i)]);
        }
        out.radius = shape.polygon.radius;
        break;
    case ShapeType::segment:
        add(shape.segment.p1);
        add(shape.segment.p2);
        break;
    case ShapeType::chain_segment:
        add(shape.chain_segment.segment.p1);
        add(shape.chain_segment.segment.p2);
        break;
    }
    if (out.count == 2) {
        const Vec2 d = out.points[1] - out.points[0];
        out.add_axis(d);
        out.add_axis(Vec2{-d.y, d.x});
    } else if (out.count > 2) {
        for (int i = 0; i < out.count; ++i) {
            const Vec2 d = out.points[static_cast<std::size_t>((i + 1) % out.count)] -
                           out.points[static_cast<std::size_t>(i)];
            out.add_axis(Vec2{d.y, -d.x});
        }
    }
    return out;
}

// The set `a` sweeps moving by `d`: the hull of its start and end, whose
// faces are a's and the motion's.
inline Convex swept(const Convex& a, Vec2 d) {
    Convex out = a;
    for (int i = 0; i < a.count; ++i) {
        out.points[static_cast<std::size_t>(a.count + i)] =
            a.points[static_cast<std::size_t>(i)] + d;
    }
    out.count = 2 * a.count;
    out.axis_count = 0;
    for (int i = 0; i < a.axis_count; ++i) {
        out.add_axis(a.axes[static_cast<std::size_t>(i)]);
    }
    out.add_axis(d);
    out.add_axis(Vec2{-d.y, d.x});
    return out;
}

// The gap between the projections of a and b's cores on unit direction u.
inline real gap_on(const Convex& a, const Convex& b, Vec2 u) {
    real lo_a = std::numeric_limits<real>::max();
    real hi_a = -lo_a;
    real lo_b = lo_a;
    real hi_b = -lo_a;
    for (int i = 0; i < a.count; ++i) {
        const real x = dot(u, a.points[static_cast<std::size_t>(i)]);
        lo_a = std::min(lo_a, x);
        hi_a = std::max(hi_a, x);
    }
    for (int i = 0; i < b.count; ++i) {
        const real x = dot(u, b.points[static_cast<std::size_t>(i)]);
        lo_b = std::min(lo_b, x);
        hi_b = std::max(hi_b, x);
    }
    return std::max(lo_b - hi_a, lo_a - hi_b);
}

// Signed distance between a and b (negative: the depth of their overlap):
// the cores' largest projection gap less the radii. Convex sets are
// separated by their distance along some direction, and overlap by their
// least projection overlap; both are attained at a candidate direction.
inline real separation(const Convex& a, const Convex& b) {
    real best = -std::numeric_limits<real>::max();
    for (const Convex* s : {&a, &b}) {
        for (int i = 0; i < s->axis_count; ++i) {
            best = std::max(best, gap_on(a, b, s->axes[static_cast<std::size_t>(i)]));
        }
    }
    for (int i = 0; i < a.count; ++i) {
        for (int j = 0; j < b.count; ++j) {
            const Vec2 d =
                b.points[static_cast<std::size_t>(j)] - a.points[static_cast<std::size_t>(i)];
            const real len = std::sqrt(d.x * d.x + d.y * d.y);
            if (len > 0) {
                best = std::max(best, gap_on(a, b, Vec2{d.x / len, d.y / len}));
            }
        }
    }
    return best - a.radius - b.radius;
}

inline real depth(const Convex& a, const Convex& b) { return std::max(real(0), -separation(a, b)); }

// The deepest overlap a move may end with at `at` (world): the touch
// tolerance, plus four ulps of the coordinates there, within which neither
// the world can place a body nor this referee, in `real`, measure a depth
// (docs/conventions.md, "Far from the origin"). A rounded box 370 L out
// ended 0.0200084 L into a chain segment (to double precision), a quarter
// of an ulp past 0.02 L; the referee read 0.0200549.
inline real deepest_end(real touch, Vec2 at) {
    return touch +
           4 * std::numeric_limits<real>::epsilon() * std::max(std::abs(at.x), std::abs(at.y));
}

// The box around a convex shape.
inline Aabb bounds(const Convex& a) {
    Aabb box{a.points[0], a.points[0]};
    for (int i = 1; i < a.count; ++i) {
        box.lower = min(box.lower, a.points[static_cast<std::size_t>(i)]);
        box.upper = max(box.upper, a.points[static_cast<std::size_t>(i)]);
    }
    box.lower -= Vec2{a.radius, a.radius};
    box.upper += Vec2{a.radius, a.radius};
    return box;
}

inline bool boxes_meet(const Aabb& a, const Aabb& b, real margin) {
    return a.lower.x - margin <= b.upper.x && b.lower.x - margin <= a.upper.x &&
           a.lower.y - margin <= b.upper.y && b.lower.y - margin <= a.upper.y;
}

// Whether segment p -> q crosses segment a -> b (each end of either
// clearly on the other's opposite sides).
inline bool crosses(Vec2 p, Vec2 q, Vec2 a, Vec2 b) {
    const auto side = [](Vec2 o, Vec2 u, Vec2 v) { return cross(u - o, v - o); };
    return side(a, b, p) * side(a, b, q) < 0 && side(p, q, a) * side(p, q, b) < 0;
}

// Whether `point` lies inside the closed polygon `ring` (crossing count).
inline bool inside(const std::vector<Vec2>& ring, Vec2 point) {
    bool in = false;
    for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
        const Vec2 a = ring[i];
        const Vec2 b = ring[j];
        if ((a.y > point.y) != (b.y > point.y) &&
            point.x < a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)) {
            in = !in;
        }
    }
    return in;
}

inline std::string describe(Vec2 v) {
    std::ostringstream out;
    out.precision(9);
    out << "{" << v.x << ", " << v.y << "}";
    return out.str();
}

inline std::string describe(const Shape& shape) {
    std::ostringstream out;
    out.precision(9);
    switch (shape.type) {
    case ShapeType::circle:
        out << "Circle{" << describe(shape.circle.center) << ", " << shape.circle.radius << "}";
        break;
    case ShapeType::capsule:
        out << "Capsule{" << describe(shape.capsule.center1) << ", "
            << describe(shape.capsule.center2) << ", " << shape.capsule.radius << "}";
        break;
    case ShapeType::polygon:
        out << "polygon({";
        for (int i = 0; i < shape.polygon.count; ++i) {
            out << (i ? ", " : "") << describe(shape.polygon.vertices[static_cast<std::size_t>(i)]);
        }
        out << "}, " << shape.polygon.radius << ")";
        break;
    case ShapeType::segment:
        out << "Segment{" << describe(shape.segment.p1) << ", " << describe(shape.segment.p2)
            << "}";
        break;
    case ShapeType::chain_segment: {
        const ChainSegment& c = shape.chain_segment;
        out << "ChainSegment{" << describe(c.ghost1) << ", {" << describe(c.segment.p1) << ", "
            << describe(c.segment.p2) << "}, " << describe(c.ghost2) << "}";
        break;
    }
    }
    return out.str();
}

// One body as the scene made it: enough to make it again.
struct Piece {
    BodyId id;
    Shape shape;
    real angle = 0;
    real c = 1; // the body's rotation, as the world holds it
    real s = 0;
    Vec2 p; // where the referee last saw it
    Convex at() const { return placed(shape, c, s, p); }
};

// The slope of a `side`-wide cell with its corner `skip` (0..3, counter-
// clockwise from the lower left) cut away: half the cell, in the cell's
// frame (its lower-left corner at the origin).
inline Shape cell_slope(real side, int skip) {
    const std::array<Vec2, 4> c{Vec2{0, 0}, Vec2{side, 0}, Vec2{side, side}, Vec2{0, side}};
    std::array<Vec2, 3> t{};
    for (int i = 0, j = 0; i < 4; ++i) {
        if (i != skip) {
            t[static_cast<std::size_t>(j++)] = c[static_cast<std::size_t>(i)];
        }
    }
    return make_polygon(t).value();
}

// A body of `type` with the one shape `shape` at `p`, turned by `angle`,
// made in `world`, as the referee sees it (the rotation the world holds).
inline Piece add_piece(World& world, const Shape& shape, Vec2 p, real angle, BodyType type) {
    const ShapeDef def{shape, {}};
    BodyDef body;
    body.type = type;
    body.position = p;
    body.angle = angle;
    Piece piece;
    piece.id = world.create_body(body, std::span(&def, 1)).value();
    const Rot q = world.body_state(piece.id).value().xf.q;
    piece.shape = shape;
    piece.angle = angle;
    piece.c = q.c;
    piece.s = q.s;
    piece.p = p;
    return piece;
}

inline std::string describe(const Piece& piece) {
    std::ostringstream out;
    out.precision(9);
    out << describe(piece.shape) << " at " << describe(piece.p) << " angle " << piece.angle;
    return out.str();
}

inline Shape polygon(std::initializer_list<Vec2> points, real radius = 0) {
    return make_polygon(std::span(points.begin(), points.size()), radius).value();
}

// A character of kind `kind` (of 7) that fits in a disc of radius `size`
// about its origin, and its angle.
inline std::pair<Shape, real> make_character(int kind, real size, std::mt19937& rng) {
    std::uniform_real_distribution<real> unit(0, 1);
    const real angle = 2 * k_pi * unit(rng);
    const real aspect = real(0.4) + real(0.6) * unit(rng); // short side over long
    switch (kind) {
    case 0:
        return {Circle{{0, 0}, size}, 0};
    case 1: { // upright capsules at angle 0
        const real r = size * aspect / (1 + aspect);
        return {make_capsule({0, r - size}, {0, size - r}, r).value(),
                unit(rng) < real(0.5) ? 0 : angle};
    }
    case 2: { // a box of diagonal 2 size
        const real hx = size / std::sqrt(1 + aspect * aspect);
        return {make_box(hx, aspect * hx).value(), angle};
    }
    case 3: { // a triangle (not necessarily regular) inscribed in the disc
        const real a0 = 2 * k_pi * unit(rng) / 3;
        const real a1 = a0 + 2 * k_pi / 3 + (unit(rng) - real(0.5));
        const real a2 = a1 + 2 * k_pi / 3 + (unit(rng) - real(0.5));
        return {polygon({size * Vec2{std::cos(a0), std::sin(a0)},
                         size * Vec2{std::cos(a1), std::sin(a1)},
                         size * Vec2{std::cos(a2), std::sin(a2)}}),
                angle};
    }
    case 4: { // a regular hexagon
        std::array<Vec2, 6> points{};
        for (int i = 0; i < 6; ++i) {
            const real a = real(i) * k_pi / 3;
            points[static_cast<std::size_t>(i)] = size * Vec2{std::cos(a), std::sin(a)};
        }
        return {make_polygon(points).value(), angle};
    }
    case 5: { // a rounded box
        const real r = size * real(0.25);
        const real hx = (size - r) / std::sqrt(1 + aspect * aspect);
        return {make_rounded_box(hx, aspect * hx, r).value(), angle};
    }
    default: { // a box at an angle near a right angle's multiple
        const real hx = size / std::sqrt(1 + aspect * aspect);
        const real near =
            k_pi / 2 * std::floor(4 * unit(rng)) + real(1e-3) * (unit(rng) - real(0.5));
        return {make_box(hx, aspect * hx).value(), near};
    }
    }
}

// What of MoveResult's contract character `i`'s move from `from` by `d`
// breaks, if anything (empty: nothing): the result's position is the
// body's; a push out only from an overlapping start; the cap hit only at
// the cap; its contacts no deeper than the touch tolerance but from an
// overlapping start (and crossings), and those recorded where it ended
// (at time 1) of two bodies of one shape at the separation the referee
// finds there, with surface areas >= 0, in time order, at times in [0, 1], with unit
// normals, slide responses (with `slides_only`: the move had no filter)
// and points on the surface of a shape of the other body (within a slop; a body crossed
// may have its point inside, met from inside); its ground is a
// blocking contact's other body whose normal is within 60 degrees of up;
// it took at most k_max_move_iterations subdivisions; it moved no farther
// than `d` beyond its push out (a slide only shortens the motion, a
// bounce turns it); and no other character moved. `Scene` holds the
// world and its characters (each with its id and the position `p` the
// test last saw it at).
// How far a contact's separation where the move ended may be from the
// referee's, in linear slops (the manifold's and the referee's rounding).
inline constexpr real k_end_separation_tolerance = real(0.01);

template <class Scene>
std::string contract_broken(const Scene& scene, std::size_t i, Vec2 from, Vec2 d,
                            const MoveResult& r, bool slides_only = true) {
    std::ostringstream out;
    out.precision(9);
    const real slop = scene.world.tolerances().linear_slop;
    if (!(scene.world.body_state(scene.characters[i].id).value().xf.p == r.position)) {
        return "the result's position is not the body's";
    }
    if (r.iterations < 0 || r.iterations > k_max_move_iterations ||
        (r.iteration_cap_hit && r.iterations != k_max_move_iterations)) {
        out << r.iterations << " iterations" << (r.iteration_cap_hit ? ", the cap hit" : "");
        return out.str();
    }
    if (!r.started_overlapping && !(r.pushout == Vec2{})) {
        out << "pushed out by " << describe(r.pushout) << " from no overlapping start";
        return out.str();
    }
    const real touch = scene.world.tolerances().touch_tolerance;
    // Where `p` lies against body `id` as the world holds it: its signed
    // distance from the surface of the body's shape whose surface is
    // nearest (a contact is with one shape, whose surface may run inside
    // another of the body's), and the least signed distance from any of
    // them (below 0: inside the body); none for a body the world does not
    // know.
    struct Off {
        real surface = std::numeric_limits<real>::max();
        real least = std::numeric_limits<real>::max();
    };
    const auto off_body = [&](BodyId id, Vec2 p) -> std::optional<Off> {
        const auto state = scene.world.body_state(id);
        const auto shapes = scene.world.body_shapes(id);
        if (!state || !shapes || shapes->empty()) {
            return std::nullopt;
        }
        Convex point;
        point.points[0] = p;
        point.count = 1;
        Off out;
        for (const ShapeId shape : *shapes) {
            const Convex body = placed(scene.world.shape_info(shape).value().shape, state->xf.q.c,
                                       state->xf.q.s, state->xf.p);
            const real off = separation(point, body);
            out.surface = std::abs(off) < std::abs(out.surface) ? off : out.surface;
            out.least = std::min(out.least, off);
        }
        return out;
    };
    // The mover's separation from body `other` where it ended, when each
    // has one shape (a contact is of one pair of shapes).
    const auto one_shape_separation = [&](BodyId other) -> std::optional<real> {
        const BodyId mover = scene.characters[i].id;
        const auto own = scene.world.body_shapes(mover);
        const auto theirs = scene.world.body_shapes(other);
        if (!own || !theirs || own->size() != 1 || theirs->size() != 1) {
            return std::nullopt;
        }
        const auto convex = [&](BodyId body, ShapeId shape) {
            const Transform xf = scene.world.body_state(body).value().xf;
            return placed(scene.world.shape_info(shape).value().shape, xf.q.c, xf.q.s, xf.p);
        };
        return separation(convex(mover, own->front()), convex(other, theirs->front()));
    };
    bool ground_met = r.ground.index < 0;
    for (std::size_t k = 0; k < r.contacts.size(); ++k) {
        const MoveContact& c = r.contacts[k];
        const std::optional<Off> off = off_body(c.other, c.point);
        if (!(c.time >= 0 && c.time <= 1) || (k > 0 && c.time < r.contacts[k - 1].time) ||
            std::abs(length(c.normal) - 1) > real(1e-5) ||
            (slides_only && c.response != MoveResponse::slide) || !off) {
            out << "contact " << k << " at time " << c.time << ", normal " << describe(c.normal)
                << ", other body " << c.other.index;
            return out.str();
        }
        if (!(c.surface_area >= 0) ||
            (c.response != MoveResponse::cross && !r.started_overlapping &&
             c.separation < -touch * (1 + real(1e-3)))) {
            out << "contact " << k << " at separation " << c.separation << ", surface area "
                << c.surface_area << ", from no overlapping start";
            return out.str();
        }
        if (c.time == 1 && c.response != MoveResponse::cross) {
            if (const std::optional<real> end = one_shape_separation(c.other)) {
                if (std::abs(c.separation - *end) > k_end_separation_tolerance * slop) {
                    out << "contact " << k << " at separation " << c.separation
                        << " where the move ended " << *end << " apart";
                    return out.str();
                }
            }
        }
        // (A body crossed from inside, the mover in it as a subdivision
        // began, has no surface point to enter: its point may be inside.)
        if (std::abs(off->surface) > slop &&
            !(off->least < -slop && c.response == MoveResponse::cross)) {
            out << "contact " << k << "'s point " << describe(c.point) << " is " << off->surface
                << " L off the surface of body " << c.other.index;
            return out.str();
        }
        ground_met = ground_met || (c.other == r.ground && c.response != MoveResponse::cross &&
                                    c.normal.y >= real(0.5) - real(1e-6));
    }
    if (!ground_met) {
        out << "ground " << r.ground.index << " is no contact's, up";
        return out.str();
    }
    const real moved = length(r.position - from - r.pushout);
    if (moved > length(d) * (1 + real(1e-5)) + real(0.01) * slop) { // (and the positions' rounding)
        out << "moved " << moved << " L, asked " << length(d);
        return out.str();
    }
    for (std::size_t j = 0; j < scene.characters.size(); ++j) {
        const auto& o = scene.characters[j];
        if (j != i && !(scene.world.body_state(o.id).value().xf.p == o.p)) {
            out << "character " << j << " moved";
            return out.str();
        }
    }
    return {};
}

} // namespace sweep::referee
