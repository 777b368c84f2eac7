// The seams a world keeps as its static shapes change (World::shape_seams)
// against a search of every shape from scratch. A world finds them again
// for the shapes a change touches, and for every shape only when many
// changed (World::Impl::find_seams_if_dirty); either way each shape's must
// be what a search over all shapes finds. The search here pairs every
// shape with every other by brute force, in index order (a static shape's
// neighbours) or its kinematic body's shape order, and applies the seam
// rules of docs/conventions.md through the same pairwise test the world
// uses (src/seams.hpp's find_covered_stretches) and the rule for buried
// vertices. Random levels of tiles, slopes, segments, offset boxes,
// sensors, rounded boxes and two-shape bodies on a 20 x 20 grid, changed a
// few bodies at a time (created, destroyed, moved, made dynamic and static
// again, shapes added and removed), now and then by a batch big enough
// that the world searches every shape; both static broadphases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <span>
#include <vector>

#include "property.hpp"
#include "seams.hpp"
#include "sweep/distance.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

constexpr int k_cells = 20;
const Material k_solid{1, real(0.5), 0};

struct LiveShape {
    ShapeId id;
    ShapeInfo info;
    BodyType type = BodyType::static_body;
    Transform xf;
    Aabb box; // its own, grown by twice the touch tolerance
};

// Every live shape of `bodies`, sorted by index.
std::vector<LiveShape> live_shapes(const World& world, std::span<const BodyId> bodies) {
    const real margin = 2 * world.tolerances().touch_tolerance;
    std::vector<LiveShape> shapes;
    for (const BodyId b : bodies) {
        const BodyState state = world.body_state(b).value();
        const std::vector<ShapeId> ids = world.body_shapes(b).value();
        for (const ShapeId id : ids) {
            const ShapeInfo info = world.shape_info(id).value();
            const Aabb box = inflate(compute_aabb(info.shape, state.xf), margin);
            shapes.push_back({id, info, state.type, state.xf, box});
        }
    }
    std::sort(shapes.begin(), shapes.end(),
              [](const LiveShape& x, const LiveShape& y) { return x.id.index < y.id.index; });
    return shapes;
}

bool can_cover(const LiveShape& s) {
    return s.info.shape.type == ShapeType::polygon && s.info.shape.polygon.radius == 0;
}

// The rule for buried vertices (World::Impl::mark_buried_vertices): a vertex
// of s not yet buried lies in or on o within the touch tolerance, away from
// o's own vertices.
void bury(const LiveShape& s, const LiveShape& o, real tolerance, ShapeSeams& seams) {
    const ShapeProxy own = make_proxy(s.info.shape);
    const ShapeProxy its = make_proxy(o.info.shape);
    const Aabb near_o = inflate(compute_aabb(o.info.shape, o.xf), tolerance);
    for (int v = 0; v < own.count; ++v) {
        ShapeId& by = seams.buried_by[static_cast<std::size_t>(v)];
        const Vec2 point = transform_point(s.xf, own.points[v]);
        if (by.index >= 0 || !contains(near_o, Aabb{point, point})) {
            continue;
        }
        const bool at_a_vertex =
            std::any_of(its.points.begin(), its.points.begin() + its.count, [&](Vec2 q) {
                return distance(transform_point(o.xf, q), point) <= tolerance;
            });
        SimplexCache cache;
        const DistanceInput in{its, make_proxy(std::span(&point, 1), 0), o.xf, Transform{}, true};
        if (!at_a_vertex && distance(in, cache).distance <= tolerance) {
            by = o.id;
        }
    }
}

// The seams of `s` by a search of every shape in `all`.
ShapeSeams searched_seams(const LiveShape& s, const std::vector<LiveShape>& all, const World& world,
                          real tolerance) {
    ShapeSeams seams;
    const bool segment = s.info.shape.type == ShapeType::segment;
    if (s.info.sensor || s.type == BodyType::dynamic || !(can_cover(s) || segment)) {
        return seams;
    }
    seams.buried_by.assign(static_cast<std::size_t>(make_proxy(s.info.shape).count), ShapeId{});
    std::vector<const LiveShape*> neighbours;
    if (s.type == BodyType::static_body) {
        // (Shapes farther apart than the tolerance share no seam: skipped.)
        for (const LiveShape& o : all) {
            if (o.type == BodyType::static_body && o.id != s.id && !o.info.sensor &&
                overlaps(o.box, s.box)) {
                neighbours.push_back(&o);
            }
        }
    } else { // a kinematic body's own shapes, in its order
        const std::vector<ShapeId> ids = world.body_shapes(s.info.body).value();
        for (const ShapeId id : ids) {
            const auto o = std::find_if(all.begin(), all.end(),
                                        [&](const LiveShape& x) { return x.id == id; });
            if (id != s.id && !o->info.sensor) {
                neighbours.push_back(&*o);
            }
        }
    }
    std::vector<detail::CoveredStretch> covered;
    for (const LiveShape* o : neighbours) {
        if (can_cover(s) && can_cover(*o)) {
            detail::find_covered_stretches(detail::place(s.info.shape.polygon, s.xf),
                                           detail::place(o->info.shape.polygon, o->xf), o->id.index,
                                           tolerance, covered);
        }
        bury(s, *o, tolerance, seams);
    }
    for (const detail::CoveredStretch& c : covered) {
        const auto o = std::find_if(all.begin(), all.end(),
                                    [&](const LiveShape& x) { return x.id.index == c.neighbour; });
        seams.covered.push_back({c.face, o->id, c.lo, c.hi});
    }
    return seams;
}

// A static body of one of the level's kinds in cell (x, y), or a two-shape one.
BodyId add_tile(World& world, std::mt19937& rng, int x, int y) {
    const Vec2 centre{real(x) + real(0.5), real(y) + real(0.5)};
    std::vector<ShapeDef> defs;
    const auto add = [&](const Shape& shape, bool sensor = false) {
        ShapeDef def(shape, k_solid);
        def.sensor = sensor;
        defs.push_back(def);
    };
    const std::array<Vec2, 3> slope{Vec2{-0.5, -0.5}, Vec2{0.5, -0.5}, Vec2{0.5, 0.5}};
    const Segment top = make_segment({-0.5, 0.5}, {0.5, 0.5}).value();
    switch (std::uniform_int_distribution<int>(0, 11)(rng)) {
    case 0:
        add(make_offset_box(0.5, 0.25, {0, -0.25}, 0).value());
        break; // a half tile
    case 1:
        add(make_polygon(slope).value());
        break;
    case 2:
        add(top);
        break;
    case 3:
        add(make_offset_box(0.5, 0.5, {0.5, 0}, 0).value());
        break; // half a cell over
    case 4:
        add(make_box(0.5, 0.5).value(), true);
        break;
    case 5:
        add(make_rounded_box(0.4, 0.4, 0.1).value());
        break;
    case 6:
        add(make_box(0.5, 0.5).value());
        add(top);
        break;
    default:
        add(make_box(0.5, 0.5).value());
        break;
    }
    BodyDef def;
    def.position = centre;
    def.angle =
        std::uniform_int_distribution<int>(0, 5)(rng) == 0 ? std::numbers::pi_v<real> / 2 : 0;
    return world.create_body(def, defs).value();
}

// A kinematic platform of three flush boxes and a half box standing on
// them, at rest beside the level.
BodyId add_platform(World& world) {
    std::vector<ShapeDef> defs;
    for (int i = 0; i < 3; ++i) {
        defs.emplace_back(make_offset_box(0.5, 0.5, {real(i), 0}, 0).value(), k_solid);
    }
    defs.emplace_back(make_offset_box(0.5, 0.25, {1.2, 0.75}, 0).value(), k_solid);
    BodyDef def;
    def.type = BodyType::kinematic;
    def.position = {real(k_cells + 3), 2};
    return world.create_body(def, defs).value();
}

// One round of changes: a few bodies destroyed and made, and now and then
// one moved, made dynamic or static again, given or relieved of a shape, or
// a batch of new ones.
void change(World& world, std::mt19937& rng, std::vector<BodyId>& bodies) {
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    const auto cell = [&] { return pick(k_cells); };
    for (int n = pick(3); n >= 0 && bodies.size() > 1; --n) {
        const std::size_t i =
            static_cast<std::size_t>(1 + pick(static_cast<int>(bodies.size()) - 1));
        ASSERT_TRUE(world.destroy_body(bodies[i]));
        bodies.erase(bodies.begin() + static_cast<std::ptrdiff_t>(i));
    }
    for (int n = pick(3); n >= 0; --n) {
        bodies.push_back(add_tile(world, rng, cell(), cell()));
    }
    // (Not the platform, bodies[0]: its seams were found where it was made.)
    const BodyId some =
        bodies[static_cast<std::size_t>(1 + pick(static_cast<int>(bodies.size()) - 1))];
    switch (pick(10)) {
    case 0:
        ASSERT_TRUE(
            world.set_transform(some, {real(cell()) + real(0.5), real(cell()) + real(0.5)}, 0));
        break;
    case 1: {
        const BodyType type = world.body_state(some).value().type;
        const std::vector<ShapeId> shapes = world.body_shapes(some).value();
        const ShapeInfo first = world.shape_info(shapes[0]).value();
        const bool box =
            shapes.size() == 1 && first.shape.type == ShapeType::polygon && !first.sensor;
        if (type == BodyType::static_body && box) {
            ASSERT_TRUE(world.set_body_type(some, BodyType::dynamic));
        } else if (type == BodyType::dynamic) {
            ASSERT_TRUE(world.set_body_type(some, BodyType::static_body));
        }
        break;
    }
    case 2:
        ASSERT_TRUE(world.create_shape(
            some, ShapeDef(make_segment({-0.5, -0.5}, {0.5, -0.5}).value(), k_solid)));
        break;
    case 3: {
        const std::vector<ShapeId> shapes = world.body_shapes(some).value();
        if (shapes.size() > 1) {
            ASSERT_TRUE(world.destroy_shape(shapes.back()));
        }
        break;
    }
    case 4: // more than an eighth of the shapes: the world searches them all
        for (int n = 0; n < 80; ++n) {
            bodies.push_back(add_tile(world, rng, cell(), cell()));
        }
        break;
    case 5:
        for (int n = 0; n < 80 && bodies.size() > 1; ++n) {
            ASSERT_TRUE(world.destroy_body(bodies.back()));
            bodies.pop_back();
        }
        break;
    default:
        break;
    }
}

// The kinematic platform (bodies[0]) given or relieved of a box.
void change_platform(World& world, std::mt19937& rng, BodyId platform) {
    const std::vector<ShapeId> shapes = world.body_shapes(platform).value();
    if (shapes.size() > 2 && std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
        ASSERT_TRUE(world.destroy_shape(shapes[1]));
    } else {
        const real x = real(std::uniform_int_distribution<int>(-1, 3)(rng));
        ASSERT_TRUE(world.create_shape(
            platform, ShapeDef(make_offset_box(0.5, 0.5, {x, -1}, 0).value(), k_solid)));
    }
}

void expect_seams_as_searched(World& world, std::span<const BodyId> bodies, int round) {
    const real tolerance = world.tolerances().touch_tolerance;
    const std::vector<LiveShape> all = live_shapes(world, bodies);
    for (const LiveShape& s : all) {
        const ShapeSeams kept = world.shape_seams(s.id).value();
        const ShapeSeams searched = searched_seams(s, all, world, tolerance);
        ASSERT_EQ(kept.buried_by, searched.buried_by)
            << "round " << round << ", shape " << s.id.index;
        ASSERT_EQ(kept.covered.size(), searched.covered.size())
            << "round " << round << ", shape " << s.id.index;
        for (std::size_t i = 0; i < kept.covered.size(); ++i) {
            const CoveredStretchInfo& k = kept.covered[i];
            const CoveredStretchInfo& e = searched.covered[i];
            ASSERT_TRUE(k.face == e.face && k.neighbour == e.neighbour && k.lo == e.lo &&
                        k.hi == e.hi)
                << "round " << round << ", shape " << s.id.index << ", stretch " << i;
        }
    }
}

void check_changing_level(StaticBroadphase broadphase, std::uint32_t seed) {
    WorldDef def;
    def.static_broadphase = broadphase;
    def.gravity = {};
    World world = std::move(World::make(def).value());
    std::mt19937 rng(seed);
    std::vector<BodyId> bodies{add_platform(world)};
    for (int y = 0; y < k_cells; ++y) {
        for (int x = 0; x < k_cells; ++x) {
            if (std::uniform_int_distribution<int>(0, 9)(rng) < 6) {
                bodies.push_back(add_tile(world, rng, x, y));
            }
        }
    }
    const int rounds = test::property_cases(120);
    for (int round = 0; round < rounds; ++round) {
        change(world, rng, bodies);
        if (round % 7 == 0) {
            change_platform(world, rng, bodies[0]);
        }
        if (round % 5 == 0) {
            ASSERT_TRUE(world.step(real(1) / 60)); // the step finds them as shape_seams does
        }
        expect_seams_as_searched(world, bodies, round);
        if (::testing::Test::HasFatalFailure()) {
            return;
        }
    }
}

TEST(SeamSearch, SeamsKeptAsALevelChangesAreThoseOfASearchOfEveryShapeInATree) {
    for (const std::uint32_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE(seed);
        check_changing_level(StaticBroadphase::tree, seed);
    }
}

TEST(SeamSearch, SeamsKeptAsALevelChangesAreThoseOfASearchOfEveryShapeInAGrid) {
    for (const std::uint32_t seed : {4u, 5u}) {
        SCOPED_TRACE(seed);
        check_changing_level(StaticBroadphase::grid, seed);
    }
}

TEST(SeamSearch, ShapeSeamsRefusesAStaleHandle) {
    World world = std::move(World::make().value());
    std::mt19937 rng(9);
    const BodyId tile = add_tile(world, rng, 0, 0);
    const ShapeId shape = world.body_shapes(tile).value()[0];
    ASSERT_TRUE(world.destroy_body(tile));
    const Result<ShapeSeams> seams = world.shape_seams(shape);
    ASSERT_FALSE(seams);
    EXPECT_EQ(seams.error().code, ErrorCode::stale_handle);
    EXPECT_FALSE(world.shape_seams(ShapeId{}));
}

} // namespace
} // namespace sweep
