// World::move in crowds on tile maps (fixed seeds): characters, boxes and
// discs of several sizes, wander among box tiles and one another, each move
// a random step, and none ever ends a move overlapping a tile or another
// character beyond the touch tolerance, nor passes through a tile on a move
// that met nothing. The referee is plain arithmetic on the tile grid, the
// boxes and the discs, independent of the library's geometry. Every move
// keeps MoveResult's contract too (mover_referee.hpp's contract_broken).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <random>
#include <string>
#include <vector>

#include "mover_referee.hpp"
#include "property.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

constexpr real k_tile = 16; // L, one tile per metre

struct Character {
    BodyId id;
    bool disc = false;
    real half = 0; // half-extent of a box, radius of a disc
    Vec2 p;        // where the referee last saw it
};

struct Crowd {
    int side = 0;            // tiles along each side of the map
    std::vector<char> solid; // by tile, row-major
    std::vector<Character> characters;
    World world;

    bool solid_at(int x, int y) const {
        return x < 0 || y < 0 || x >= side || y >= side ||
               solid[static_cast<std::size_t>(y * side + x)] != 0;
    }
};

// A map `side` tiles across with a solid border and `fill` of the rest solid,
// and `count` characters at free tile centres, a third of them discs, of
// half-extents up to `max_half` (L); the tiles in `static_broadphase`.
Crowd make_crowd(unsigned seed, int side, real fill, int count, real max_half,
                 StaticBroadphase static_broadphase = StaticBroadphase::tree) {
    WorldDef def;
    def.length_units_per_meter = k_tile;
    def.static_broadphase = static_broadphase;
    Crowd crowd{0, {}, {}, World::make(def).value()};
    crowd.side = side;
    crowd.solid.assign(static_cast<std::size_t>(side * side), 0);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> unit(0, 1);
    const ShapeDef tile{make_box(k_tile / 2, k_tile / 2).value(), {}};
    std::vector<Vec2> free_cells;
    for (int y = 0; y < side; ++y) {
        for (int x = 0; x < side; ++x) {
            const bool border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
            const Vec2 center{(real(x) + real(0.5)) * k_tile, (real(y) + real(0.5)) * k_tile};
            if (border || unit(rng) < fill) {
                crowd.solid[static_cast<std::size_t>(y * side + x)] = 1;
                BodyDef def;
                def.position = center;
                EXPECT_TRUE(crowd.world.create_body(def, std::span(&tile, 1)));
            } else {
                free_cells.push_back(center);
            }
        }
    }
    std::shuffle(free_cells.begin(), free_cells.end(), rng);
    for (int i = 0; i < count && i < static_cast<int>(free_cells.size()); ++i) {
        Character c;
        c.disc = i % 3 == 0;
        c.half = real(3) + (max_half - 3) * unit(rng);
        c.p = free_cells[static_cast<std::size_t>(i)];
        const Shape shape =
            c.disc ? Shape(Circle{{0, 0}, c.half}) : make_box(c.half, c.half).value();
        const ShapeDef def{shape, {}};
        BodyDef body;
        body.type = BodyType::kinematic;
        body.position = c.p;
        c.id = crowd.world.create_body(body, std::span(&def, 1)).value();
        crowd.characters.push_back(c);
    }
    return crowd;
}

// How deep character `c` (at c.p) is in the box [lo, hi]: the least push
// that would leave them apart (0 when apart).
real depth_in_box(const Character& c, Vec2 lo, Vec2 hi) {
    if (!c.disc) {
        const real dx = std::min(c.p.x + c.half, hi.x) - std::max(c.p.x - c.half, lo.x);
        const real dy = std::min(c.p.y + c.half, hi.y) - std::max(c.p.y - c.half, lo.y);
        return std::max(real(0), std::min(dx, dy));
    }
    const Vec2 nearest{std::clamp(c.p.x, lo.x, hi.x), std::clamp(c.p.y, lo.y, hi.y)};
    if (nearest != c.p) {
        return std::max(real(0), c.half - length(c.p - nearest));
    }
    // Centre inside: out through the nearest side.
    return c.half + std::min({c.p.x - lo.x, hi.x - c.p.x, c.p.y - lo.y, hi.y - c.p.y});
}

real depth_between(const Character& a, const Character& b) {
    if (a.disc && b.disc) {
        return std::max(real(0), a.half + b.half - length(a.p - b.p));
    }
    const Character& disc_or_box = a.disc ? a : b;
    const Character& box = a.disc ? b : a;
    const Vec2 h{box.half, box.half};
    return depth_in_box(disc_or_box, box.p - h, box.p + h);
}

// The deepest a character is in any tile near it.
real depth_in_tiles(const Crowd& crowd, const Character& c) {
    real deepest = 0;
    const int x0 = static_cast<int>(std::floor((c.p.x - c.half) / k_tile));
    const int x1 = static_cast<int>(std::floor((c.p.x + c.half) / k_tile));
    const int y0 = static_cast<int>(std::floor((c.p.y - c.half) / k_tile));
    const int y1 = static_cast<int>(std::floor((c.p.y + c.half) / k_tile));
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            if (crowd.solid_at(x, y)) {
                const Vec2 lo{real(x) * k_tile, real(y) * k_tile};
                deepest = std::max(deepest, depth_in_box(c, lo, lo + Vec2{k_tile, k_tile}));
            }
        }
    }
    return deepest;
}

// Whether a straight move of `c` from `from` by `d` passes through a solid
// tile: its box, shrunk by twice the touch tolerance (touching does not
// count), swept along `d` against every tile near the path (the slab test).
// A disc is taken as the square of half its radius, which lies inside it.
bool passes_through_a_tile(const Crowd& crowd, const Character& c, Vec2 from, Vec2 d, real touch) {
    const real h = (c.disc ? c.half / 2 : c.half) - 2 * touch;
    const Vec2 lo = min(from, from + d) - Vec2{h, h};
    const Vec2 hi = max(from, from + d) + Vec2{h, h};
    for (int y = static_cast<int>(std::floor(lo.y / k_tile));
         y <= static_cast<int>(std::floor(hi.y / k_tile)); ++y) {
        for (int x = static_cast<int>(std::floor(lo.x / k_tile));
             x <= static_cast<int>(std::floor(hi.x / k_tile)); ++x) {
            if (!crowd.solid_at(x, y)) {
                continue;
            }
            // The tile grown by h against the centre's segment.
            const Vec2 tlo = Vec2{real(x) * k_tile, real(y) * k_tile} - Vec2{h, h};
            const Vec2 thi = Vec2{real(x + 1) * k_tile, real(y + 1) * k_tile} + Vec2{h, h};
            real enter = 0;
            real exit = 1;
            bool apart = false;
            for (int axis = 0; axis < 2; ++axis) {
                const real o = axis == 0 ? from.x : from.y;
                const real v = axis == 0 ? d.x : d.y;
                const real l = axis == 0 ? tlo.x : tlo.y;
                const real u = axis == 0 ? thi.x : thi.y;
                if (v == 0) {
                    apart = apart || o <= l || o >= u;
                } else {
                    const real t0 = (l - o) / v;
                    const real t1 = (u - o) / v;
                    enter = std::max(enter, std::min(t0, t1));
                    exit = std::min(exit, std::max(t0, t1));
                }
            }
            if (!apart && enter < exit) {
                return true;
            }
        }
    }
    return false;
}

// `frames` frames, each character moving once a frame by a random step of
// up to `step` L along each axis; fails at the first bad move.
void wander(Crowd& crowd, unsigned seed, int frames, real step) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> along(-step, step);
    const real touch = crowd.world.tolerances().touch_tolerance;
    for (int frame = 0; frame < frames; ++frame) {
        for (std::size_t i = 0; i < crowd.characters.size(); ++i) {
            Character& c = crowd.characters[i];
            const Vec2 from = c.p;
            const Vec2 d{along(rng), along(rng)};
            const MoveResult r = crowd.world.move(c.id, d).value();
            c.p = r.position;
            const std::string where = "seed " + std::to_string(seed) + " frame " +
                                      std::to_string(frame) + " character " + std::to_string(i);
            const std::string broken = referee::contract_broken(crowd, i, from, d, r);
            ASSERT_TRUE(broken.empty())
                << where << " moved by (" << d.x << ", " << d.y << "): " << broken;
            ASSERT_LE(depth_in_tiles(crowd, c), touch) << where;
            for (std::size_t j = 0; j < crowd.characters.size(); ++j) {
                if (j != i) {
                    const Character& o = crowd.characters[j];
                    ASSERT_LE(depth_between(c, o), touch)
                        << where << " in character " << j << ": " << (c.disc ? "disc " : "box ")
                        << c.half << " from (" << from.x << ", " << from.y << ") by (" << d.x
                        << ", " << d.y << ") to (" << c.p.x << ", " << c.p.y << "), "
                        << (o.disc ? "disc " : "box ") << o.half << " at (" << o.p.x << ", "
                        << o.p.y << "), " << r.contacts.size() << " contacts";
                }
            }
            if (r.contacts.empty() && !r.started_overlapping) {
                ASSERT_FALSE(passes_through_a_tile(crowd, c, from, c.p - from, touch)) << where;
            }
        }
    }
}

TEST(MoveProperty, CharactersWanderingAmongTilesAndEachOtherNeverEndInside) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        Crowd crowd = make_crowd(seed, 40, real(0.45), 300, 7);
        wander(crowd, seed, test::property_cases(400), 8);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveProperty, LongStepsThroughACrowdNeverEndInsideOrPassThroughATile) {
    for (unsigned seed = 11; seed <= 12; ++seed) {
        Crowd crowd = make_crowd(seed, 40, real(0.35), 200, 7);
        wander(crowd, seed, test::property_cases(200), 40);
        ASSERT_FALSE(HasFailure());
    }
}

// A move's result does not depend on where the tiles are kept, nor on the
// order that broadphase reports them in (a grid reports by cell, from the
// query box's corner; a tree depth first): the same moves in a tree world
// and a grid world end in the same places with the same contacts, bit for
// bit.
TEST(MoveProperty, TheSameMovesAmongTilesInATreeOrAGridGiveTheSameResults) {
    const unsigned seed = 21;
    Crowd tree = make_crowd(seed, 40, real(0.45), 200, 7, StaticBroadphase::tree);
    Crowd grid = make_crowd(seed, 40, real(0.45), 200, 7, StaticBroadphase::grid);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> along(-20, 20);
    int contacts = 0;
    for (int frame = 0; frame < test::property_cases(100); ++frame) {
        for (std::size_t i = 0; i < tree.characters.size(); ++i) {
            const Vec2 d{along(rng), along(rng)};
            const MoveResult a = tree.world.move(tree.characters[i].id, d).value();
            const MoveResult b = grid.world.move(grid.characters[i].id, d).value();
            const std::string where =
                "frame " + std::to_string(frame) + " character " + std::to_string(i);
            ASSERT_EQ(a.position, b.position) << where;
            ASSERT_EQ(a.contacts.size(), b.contacts.size()) << where;
            for (std::size_t k = 0; k < a.contacts.size(); ++k) {
                EXPECT_EQ(a.contacts[k].other.index, b.contacts[k].other.index) << where;
                EXPECT_EQ(a.contacts[k].time, b.contacts[k].time) << where;
                EXPECT_EQ(a.contacts[k].normal, b.contacts[k].normal) << where;
                EXPECT_EQ(a.contacts[k].separation, b.contacts[k].separation) << where;
            }
            ASSERT_FALSE(HasFailure());
            contacts += static_cast<int>(a.contacts.size());
        }
    }
    EXPECT_GT(contacts, 1000); // the characters met tiles and one another often
}

} // namespace
} // namespace sweep
