// World::move's fast path for characters of one box, disc or axis-aligned
// capsule among box tiles (box_mover.hpp) against the general mover it
// repeats: the same moves in two copies of one world, one with the fast
// path (WorldDef::move_fast_path, where it applies) and one without it,
// moved without a filter or through the same filter (which the fast path
// takes where it answers slide or ignore). Every position and every field
// of every result must agree to the bit, and the filter must be asked as
// often in both. The worlds hold what makes the fast path give up part-way
// or not start (a sensor, a chain, tilted or thin capsules, characters of
// two shapes, starts inside a tile, a filter's touch and cross) beside what it handles (boxes of
// many sizes on and off the tile grid, other box characters, discs, upright and lying capsules; for
// round characters also a ramp, a rotated box, a static disc, a segment and the other round
// characters), so both its finished moves and its give-ups are compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "property.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

struct Scene {
    World world;
    std::vector<BodyId> characters;
};

BodyId add_static(World& world, Vec2 at, real angle, const Shape& shape, bool sensor = false) {
    BodyDef def;
    def.position = at;
    def.angle = angle;
    ShapeDef s{shape, {}};
    s.sensor = sensor;
    return world.create_body(def, std::span(&s, 1)).value();
}

// A map `side` tiles of `tile` L across (a border and `fill` of the rest
// solid), loose boxes off the grid, a ramp, a rotated box, a static disc, a
// sensor tile, a segment, a chain loop, and `count` kinematic characters at free cells: most of
// them boxes of half-extents from 0.15 to 0.45 tiles, some discs, some capsules (upright and lying,
// which the fast path takes; tilted, or too thin for their boxes to bound their overlaps, which it
// does not), some of two boxes side by side. The same seed makes the same scene.
Scene make_scene(unsigned seed, const WorldDef& def, int side, real tile, real fill, int count) {
    Scene scene{World::make(def).value(), {}};
    World& world = scene.world;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> unit(0, 1);
    const Shape tile_box = make_box(tile / 2, tile / 2).value();
    std::vector<Vec2> free_cells;
    for (int y = 0; y < side; ++y) {
        for (int x = 0; x < side; ++x) {
            const Vec2 center{(real(x) + real(0.5)) * tile, (real(y) + real(0.5)) * tile};
            const bool border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
            if (border || unit(rng) < fill) {
                add_static(world, center, 0, tile_box);
            } else {
                free_cells.push_back(center);
            }
        }
    }
    std::shuffle(free_cells.begin(), free_cells.end(), rng);
    const auto cell = [&](std::size_t i) { return free_cells[i % free_cells.size()]; };
    std::size_t next = 0;
    for (int i = 0; i < 12; ++i) { // loose boxes, some flush with a tile's face
        const Vec2 offset{tile * (unit(rng) - real(0.5)), tile * real(0.5) * (unit(rng) < 0.5)};
        add_static(world, cell(next++) + offset, 0,
                   make_box(tile * (real(0.05) + real(0.2) * unit(rng)),
                            tile * (real(0.05) + real(0.2) * unit(rng)))
                       .value());
    }
    const std::array<Vec2, 3> ramp{Vec2{-tile / 2, -tile / 2}, Vec2{tile / 2, -tile / 2},
                                   Vec2{tile / 2, tile / 2}};
    add_static(world, cell(next++), 0, make_polygon(ramp).value());
    add_static(world, cell(next++), real(0.7), make_box(tile / 4, tile / 8).value());
    add_static(world, cell(next++), 0, Shape(Circle{{0, 0}, tile / 5}));
    add_static(world, cell(next++), 0, tile_box, true);
    add_static(world, cell(next++), 0, Shape(Segment{{-tile / 3, 0}, {tile / 3, tile / 5}}));
    const Vec2 island = cell(next++); // a counter-clockwise chain loop: a pentagon
    std::vector<Vec2> ring;
    for (int k = 0; k < 5; ++k) {
        const real a = real(0.3) + real(2 * 3.14159265) * real(k) / 5;
        ring.push_back(island + real(0.4) * tile * Vec2{std::cos(a), std::sin(a)});
    }
    const std::vector<ChainSegment> loop = *make_chain_loop(ring);
    for (const ChainSegment& c : loop) {
        add_static(world, {0, 0}, 0, Shape(c));
    }
    for (int i = 0; i < count; ++i) {
        const real half = tile * (real(0.15) + real(0.3) * unit(rng));
        BodyDef body;
        body.type = BodyType::kinematic;
        body.position = cell(next++);
        std::vector<ShapeDef> shapes;
        if (i % 7 == 3) {
            shapes.push_back({Shape(Circle{{0, 0}, half}), {}});
        } else if (i % 5 == 1) { // capsules: upright, lying, tilted, thin
            const real r = half * (real(0.3) + real(0.5) * unit(rng));
            const std::array<Vec2, 4> cores{Vec2{0, half}, Vec2{half, 0},
                                            real(0.7) * Vec2{half, half}, Vec2{0, half}};
            const int kind = (i / 5) % 4;
            const Vec2 core = cores[static_cast<std::size_t>(kind)];
            shapes.push_back(
                {make_capsule(-core, core, kind == 3 ? tile * real(0.0005) : r).value(), {}});
        } else if (i % 11 == 5) {
            shapes.push_back({make_offset_box(half / 2, half, {-half / 2, 0}, 0).value(), {}});
            shapes.push_back({make_offset_box(half / 2, half, {half / 2, 0}, 0).value(), {}});
        } else {
            shapes.push_back({make_box(half, half * (real(0.5) + unit(rng))).value(), {}});
        }
        scene.characters.push_back(world.create_body(body, shapes).value());
    }
    return scene;
}

bool same_bits(real a, real b) { return std::memcmp(&a, &b, sizeof(real)) == 0; }
bool same_bits(Vec2 a, Vec2 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }

// Every field of two results, to the bit.
void expect_same(const MoveResult& fast, const MoveResult& general, const std::string& where) {
    ASSERT_TRUE(same_bits(fast.position, general.position)) << where;
    ASSERT_EQ(fast.iterations, general.iterations) << where;
    ASSERT_EQ(fast.iteration_cap_hit, general.iteration_cap_hit) << where;
    ASSERT_EQ(fast.started_overlapping, general.started_overlapping) << where;
    ASSERT_TRUE(same_bits(fast.pushout, general.pushout)) << where;
    ASSERT_EQ(fast.ground, general.ground) << where;
    ASSERT_EQ(fast.contacts.size(), general.contacts.size()) << where;
    for (std::size_t k = 0; k < fast.contacts.size(); ++k) {
        const MoveContact& a = fast.contacts[k];
        const MoveContact& b = general.contacts[k];
        const std::string which = where + " contact " + std::to_string(k);
        EXPECT_EQ(a.other, b.other) << which;
        EXPECT_TRUE(same_bits(a.time, b.time)) << which;
        EXPECT_TRUE(same_bits(a.point, b.point)) << which;
        EXPECT_TRUE(same_bits(a.normal, b.normal)) << which;
        EXPECT_TRUE(same_bits(a.separation, b.separation)) << which;
        EXPECT_TRUE(same_bits(a.surface_area, b.surface_area)) << which;
        EXPECT_EQ(a.response, b.response) << which;
    }
}

// `frames` frames of every character moving by a random step of up to
// `step` L along each axis in both copies, through `filter` (if any); now
// and then a character is set down at a random point (inside a tile,
// often) first. Returns the contacts met.
int compare_moves(unsigned seed, const WorldDef& def, real tile, int frames, real step,
                  const MoveFilter& filter = {}) {
    WorldDef general_def = def;
    general_def.move_fast_path = false;
    Scene fast = make_scene(seed, def, 24, tile, real(0.4), 90);
    Scene general = make_scene(seed, general_def, 24, tile, real(0.4), 90);
    // (Each copy's filter counts its calls.)
    int fast_asked = 0;
    int general_asked = 0;
    const auto counting = [&filter](int& asked) -> MoveFilter {
        if (!filter) {
            return {};
        }
        return [&filter, &asked](BodyId other) {
            ++asked;
            return filter(other);
        };
    };
    const MoveFilter fast_filter = counting(fast_asked);
    const MoveFilter general_filter = counting(general_asked);
    std::mt19937 rng(seed + 1000);
    std::uniform_real_distribution<real> along(-step, step);
    std::uniform_real_distribution<real> anywhere(tile, 23 * tile);
    std::uniform_int_distribution<int> one_in(0, 40);
    int contacts = 0;
    MoveResult reused; // (the fast path fills a result it was given, as a game loop's)
    for (int frame = 0; frame < frames; ++frame) {
        for (std::size_t i = 0; i < fast.characters.size(); ++i) {
            if (one_in(rng) == 0) {
                const Vec2 at{anywhere(rng), anywhere(rng)};
                EXPECT_TRUE(fast.world.set_transform(fast.characters[i], at, 0));
                EXPECT_TRUE(general.world.set_transform(general.characters[i], at, 0));
            }
            const Vec2 d{along(rng), along(rng)};
            EXPECT_TRUE(fast.world.move(fast.characters[i], d, fast_filter, reused));
            const MoveResult g =
                general.world.move(general.characters[i], d, general_filter).value();
            const std::string where = "seed " + std::to_string(seed) + " frame " +
                                      std::to_string(frame) + " character " + std::to_string(i);
            expect_same(reused, g, where);
            EXPECT_EQ(fast_asked, general_asked) << where;
            if (::testing::Test::HasFailure()) {
                return contacts;
            }
            contacts += static_cast<int>(g.contacts.size());
        }
    }
    return contacts;
}

TEST(BoxMover, MovesAsTheGeneralMoverAmongTilesInATree) {
    WorldDef def;
    def.length_units_per_meter = 16;
    const int frames = test::property_cases(150);
    for (unsigned seed = 1; seed <= 3; ++seed) {
        // (About 100 contacts a frame: the characters met tiles and one
        // another often.)
        EXPECT_GT(compare_moves(seed, def, 16, frames, 8), 50 * frames);
        ASSERT_FALSE(HasFailure());
    }
}

// Long steps, tiles in a grid, ties without the surface-area rule, a metre
// a tile.
TEST(BoxMover, MovesAsTheGeneralMoverOnLongStepsAmongTilesInAGrid) {
    WorldDef def;
    def.static_broadphase = StaticBroadphase::grid;
    def.move_ties_by_surface_area = false;
    const int frames = test::property_cases(100);
    for (unsigned seed = 11; seed <= 12; ++seed) {
        EXPECT_GT(compare_moves(seed, def, 1, frames, real(2.5)), 50 * frames);
        ASSERT_FALSE(HasFailure());
    }
}

// Through a filter: most shapes slid on, some ignored (which the fast path
// takes), some touched or crossed (where it gives up, having asked the
// filter about what it met, which the general mover then does not ask
// again).
TEST(BoxMover, MovesAsTheGeneralMoverThroughAFilter) {
    WorldDef def;
    def.length_units_per_meter = 16;
    const MoveFilter filter = [](BodyId other) {
        switch (other.index % 13) {
        case 0:
        case 5:
        case 9:
            return MoveResponse::ignore;
        case 3:
            return MoveResponse::touch;
        case 7:
            return MoveResponse::cross;
        default:
            return MoveResponse::slide;
        }
    };
    const int frames = test::property_cases(150);
    for (unsigned seed = 21; seed <= 22; ++seed) {
        EXPECT_GT(compare_moves(seed, def, 16, frames, 8, filter), 30 * frames);
        ASSERT_FALSE(HasFailure());
    }
}

} // namespace
} // namespace sweep
