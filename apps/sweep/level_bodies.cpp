#include "level_bodies.hpp"

#include <limits>

namespace sweep::app {
namespace {

Result<BodyId> add_static(World& world, Vec2 at, const Shape& shape, const std::string& source) {
    BodyDef def;
    def.position = at;
    const ShapeDef sd(shape);
    auto id = world.create_body(def, std::span(&sd, 1));
    if (!id) {
        return Error{id.error().code, source + ": " + id.error().message};
    }
    return id;
}

} // namespace

Result<LevelBodies> add_level_bodies(World& world, const io::StaticGeometry& level) {
    LevelBodies out;
    // Room for them all at once: a large map's records are not copied again
    // and again as they grow. (A count beyond an int is left to the arrays.)
    const std::size_t count = level.boxes.size() + level.polygons.size() + level.circles.size() +
                              level.segments.size() + world.body_count();
    if (count <= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        if (const Result<void> room =
                world.reserve(static_cast<int>(count), static_cast<int>(count));
            !room) {
            return Error{room.error().code, level.source + ": " + room.error().message};
        }
    }
    for (const Aabb& box : level.boxes) {
        const Vec2 e = extents(box);
        auto shape = make_box(e.x, e.y);
        if (!shape) {
            return Error{shape.error().code, level.source + ": " + shape.error().message};
        }
        auto id = add_static(world, center(box), *shape, level.source);
        if (!id) {
            return id.error();
        }
        out.boxes.push_back(*id);
    }
    for (const Polygon& p : level.polygons) {
        std::vector<Vec2> local;
        for (int i = 0; i < p.count; ++i) {
            local.push_back(p.vertices[std::size_t(i)] - p.centroid);
        }
        auto shape = make_polygon(local);
        auto id =
            shape ? add_static(world, p.centroid, *shape, level.source) : Result<BodyId>(BodyId{});
        out.polygons.push_back(id ? *id : BodyId{});
    }
    for (const Circle& c : level.circles) {
        auto id = add_static(world, c.center, Circle{{}, c.radius}, level.source);
        if (!id) {
            return id.error();
        }
        out.circles.push_back(*id);
    }
    for (const Segment& s : level.segments) {
        const Vec2 mid = real(0.5) * (s.p1 + s.p2);
        auto shape = make_segment(s.p1 - mid, s.p2 - mid);
        auto id = shape ? add_static(world, mid, *shape, level.source) : Result<BodyId>(BodyId{});
        out.segments.push_back(id ? *id : BodyId{});
    }
    return out;
}

} // namespace sweep::app
