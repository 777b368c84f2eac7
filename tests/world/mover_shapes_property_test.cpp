// World::move with every shape a character can have (discs, capsules,
// boxes at any angle, rounded boxes, triangles, hexagons) among every kind
// of static geometry a level holds (box tiles, slopes, two-sided segments,
// a chain loop bounding the room with polyline terrain for its floor, chain
// islands), with steps from below a slop to a few tiles long (fixed seeds).
// No move may end with a character overlapping a static shape or another
// character beyond the touch tolerance (and four ulps of its coordinates:
// deepest_end), leave the room or enter an island,
// or, on a move that met nothing, pass through anything.
//
// The referee is independent of the library's geometry: every shape is a
// convex core (a point, a segment or a polygon, placed with the body's
// rotation) grown by a radius, and the signed distance of two of them is
// the largest gap between their projections over a set of directions that
// contains the answer's (the cores' edge normals and directions, and the
// directions between their vertices: the separating axis theorem, with
// the closest features' direction for cores apart), less their radii.
// Segments and chain segments are two-sided lines for overlap
// (docs/conventions.md: a shape overlaps one only where it crosses it).
//
// A bad move prints, besides the failure, its reduction: the move again in
// a fresh world with the fewest nearby shapes that still make it fail
// (chains cut open where a neighbour was dropped), ready for a focused test
// such as the MoveChainJoint ones at the end.
#include <gtest/gtest.h>

#include <iostream>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mover_referee.hpp"
#include "property.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

constexpr real k_tile = 16; // L, one tile per metre

using namespace referee;

struct Scene {
    std::vector<Piece> statics;
    std::vector<Piece> characters;
    std::vector<Aabb> static_boxes;         // the referee's, by static
    std::vector<Vec2> room;                 // the chain loop around the room, if any
    std::vector<std::vector<Vec2>> islands; // chain loops around solid
    World world = std::move(World::make([] {
                                WorldDef def;
                                def.length_units_per_meter = k_tile;
                                return def;
                            }())
                                .value());

    void add_static(const Shape& shape, Vec2 p) {
        const ShapeDef def{shape, {}};
        BodyDef body;
        body.position = p;
        Piece piece;
        piece.id = world.create_body(body, std::span(&def, 1)).value();
        piece.shape = shape;
        piece.p = p;
        statics.push_back(piece);
        static_boxes.push_back(bounds(piece.at()));
    }

    void add_character(const Shape& shape, Vec2 p, real angle) {
        characters.push_back(add_piece(world, shape, p, angle, BodyType::kinematic));
    }
};

struct Map {
    int side = 0;            // tiles along each side
    real fill = 0;           // share of the inner cells that hold something
    bool chain_room = false; // bounded by a chain loop, else box tiles
    bool hills = false;      // the chain room's floor a polyline of hills and dips, else flat
    bool mixed = false;      // slopes, segments and islands as well as box tiles
};

// A map, and `count` characters of every kind at free cell centres, each
// within a disc of radius 3 to `max_size` L.
Scene make_scene(unsigned seed, const Map& map, int count, real max_size) {
    Scene scene;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> unit(0, 1);
    const int n = map.side;
    const real width = real(n) * k_tile;
    const auto corner = [](int x, int y) { return Vec2{real(x) * k_tile, real(y) * k_tile}; };
    if (map.chain_room) {
        // Clockwise: up the left wall, along the ceiling, down the right
        // wall, then back along a floor of hills and dips no higher than the
        // bottom row.
        scene.room = {{0, 0}, {0, width}, {width, width}, {width, 0}};
        for (int k = 2 * n - 1; k >= 1; --k) {
            scene.room.push_back(
                {real(k) * k_tile / 2, map.hills ? real(0.9) * k_tile * unit(rng) : 0});
        }
        const std::vector<ChainSegment> loop = *make_chain_loop(scene.room);
        for (const ChainSegment& c : loop) {
            scene.add_static(c, {0, 0});
        }
    }
    std::vector<Vec2> free_cells;
    const ShapeDef tile{make_box(k_tile / 2, k_tile / 2).value(), {}};
    for (int y = 0; y < n; ++y) {
        for (int x = 0; x < n; ++x) {
            const bool border = x == 0 || y == 0 || x == n - 1 || y == n - 1;
            const Vec2 lo = corner(x, y);
            const Vec2 center = lo + Vec2{k_tile / 2, k_tile / 2};
            if (border && (!map.chain_room || y == 0)) {
                if (!map.chain_room) {
                    scene.add_static(make_box(k_tile / 2, k_tile / 2).value(), center);
                }
                continue;
            }
            if (unit(rng) >= map.fill) {
                free_cells.push_back(center);
                continue;
            }
            const int kind = map.mixed ? static_cast<int>(4 * unit(rng)) : 0;
            switch (kind) {
            case 0:
                scene.add_static(make_box(k_tile / 2, k_tile / 2).value(), center);
                break;
            case 1: { // a slope: half the cell, cut by a diagonal
                const int skip = static_cast<int>(4 * unit(rng)) % 4;
                scene.add_static(cell_slope(k_tile, skip), lo);
                break;
            }
            case 2: { // a thin wall from one side of the cell to another
                const Vec2 a{k_tile * unit(rng), 0};
                const Vec2 b{k_tile * unit(rng), k_tile};
                const bool across = unit(rng) < real(0.5);
                scene.add_static(
                    across ? Shape(Segment{a, b}) : Shape(Segment{{a.y, a.x}, {b.y, b.x}}), lo);
                break;
            }
            default: { // an island: a counter-clockwise chain loop around solid
                std::vector<Vec2> ring;
                const int points = 3 + static_cast<int>(5 * unit(rng)) % 5;
                const real turn = 2 * k_pi * unit(rng);
                for (int i = 0; i < points; ++i) {
                    const real a = turn + 2 * k_pi * real(i) / real(points);
                    ring.push_back(center + real(0.45) * k_tile * Vec2{std::cos(a), std::sin(a)});
                }
                const std::vector<ChainSegment> loop = *make_chain_loop(ring);
                for (const ChainSegment& c : loop) {
                    scene.add_static(c, {0, 0});
                }
                scene.islands.push_back(ring);
                break;
            }
            }
        }
    }
    std::shuffle(free_cells.begin(), free_cells.end(), rng);
    for (int i = 0; i < count && i < static_cast<int>(free_cells.size()); ++i) {
        const real size = real(3) + (max_size - 3) * unit(rng);
        const auto [shape, angle] = make_character(i % 7, size, rng);
        scene.add_character(shape, free_cells[static_cast<std::size_t>(i)], angle);
    }
    return scene;
}

// What went wrong with a move, if anything (empty: nothing).
struct Verdict {
    std::string what;
    const Piece* other = nullptr;
};

// The referee's verdict on character `i`'s move from `from` by `d` that
// ended where the scene now has it.
Verdict judge(const Scene& scene, std::size_t i, Vec2 from, Vec2 d, const MoveResult& r) {
    const real touch = scene.world.tolerances().touch_tolerance;
    const Piece& c = scene.characters[i];
    const real deepest = deepest_end(touch, c.p);
    const Convex now = c.at();
    const Aabb box = bounds(now);
    std::ostringstream out;
    out.precision(9);
    for (std::size_t k = 0; k < scene.statics.size(); ++k) {
        if (!boxes_meet(box, scene.static_boxes[k], touch)) {
            continue;
        }
        const real deep = depth(now, scene.statics[k].at());
        if (deep > deepest) {
            out << "ends " << deep << " L inside static " << describe(scene.statics[k]);
            return {out.str(), &scene.statics[k]};
        }
    }
    for (std::size_t j = 0; j < scene.characters.size(); ++j) {
        if (j == i) {
            continue;
        }
        const Convex other = scene.characters[j].at();
        if (!boxes_meet(box, bounds(other), touch)) {
            continue;
        }
        const real deep = depth(now, other);
        if (deep > deepest) {
            out << "ends " << deep << " L inside character " << j << ": "
                << describe(scene.characters[j]);
            return {out.str(), &scene.characters[j]};
        }
    }
    if (!scene.room.empty() && !inside(scene.room, c.p)) {
        return {"ends outside the room", nullptr};
    }
    for (const std::vector<Vec2>& ring : scene.islands) {
        if (inside(ring, c.p)) {
            return {"ends inside an island", nullptr};
        }
    }
    if (!r.contacts.empty() || r.started_overlapping) {
        return {};
    }
    // A move that met nothing: the set it swept meets nothing deeper than
    // it may graze (a touch tolerance of overlap it may start and slide
    // with), and its centre crosses no line.
    const Convex start = placed(c.shape, c.c, c.s, from);
    const Convex path = swept(start, d);
    const Aabb path_box = bounds(path);
    for (std::size_t k = 0; k < scene.statics.size(); ++k) {
        const Piece& s = scene.statics[k];
        if (!boxes_meet(path_box, scene.static_boxes[k], touch)) {
            continue;
        }
        const real deep = depth(path, s.at());
        if (deep > 2 * touch) {
            out << "met nothing but swept " << deep << " L into static " << describe(s);
            return {out.str(), &s};
        }
        if (s.shape.type == ShapeType::segment || s.shape.type == ShapeType::chain_segment) {
            const Convex line = s.at();
            if (crosses(from, from + d, line.points[0], line.points[1])) {
                out << "met nothing but its centre crossed " << describe(s);
                return {out.str(), &s};
            }
        }
    }
    for (std::size_t j = 0; j < scene.characters.size(); ++j) {
        if (j == i) {
            continue;
        }
        const Convex other = scene.characters[j].at();
        if (boxes_meet(path_box, bounds(other), touch)) {
            const real deep = depth(path, other);
            if (deep > 2 * touch) {
                out << "met nothing but swept " << deep << " L into character " << j << ": "
                    << describe(scene.characters[j]);
                return {out.str(), &scene.characters[j]};
            }
        }
    }
    return {};
}

// The move of a character `mover` from `from` by `d` in a fresh world of
// `statics` and `others`: what the referee says of it.
Verdict replay(const Piece& mover, Vec2 from, Vec2 d, const std::vector<Piece>& statics,
               const std::vector<Piece>& others, std::string* position = nullptr) {
    Scene scene;
    for (const Piece& s : statics) {
        scene.add_static(s.shape, s.p);
    }
    scene.add_character(mover.shape, from, mover.angle);
    for (const Piece& o : others) {
        scene.add_character(o.shape, o.p, o.angle);
    }
    Piece& c = scene.characters.front();
    const MoveResult r = scene.world.move(c.id, d).value();
    c.p = r.position;
    if (position) {
        *position = describe(r.position) + " (" + std::to_string(r.contacts.size()) + " contacts)";
    }
    Verdict v = judge(scene, 0, from, d, r);
    v.other = nullptr; // (points into the scene, gone)
    return v;
}

// The fewest pieces of `scene` near a bad move of character `i` that still
// make a bad move in a fresh world (greedily dropped one at a time), as
// the lines of a reproduction; empty when a fresh world does not fail.
std::string reduce(const Scene& scene, std::size_t i, Vec2 from, Vec2 d) {
    const Piece& mover = scene.characters[i];
    const Aabb reach = bounds(swept(placed(mover.shape, mover.c, mover.s, from), d));
    std::vector<Piece> statics;
    std::vector<Piece> others;
    for (std::size_t k = 0; k < scene.statics.size(); ++k) {
        if (boxes_meet(reach, scene.static_boxes[k], k_tile)) {
            statics.push_back(scene.statics[k]);
        }
    }
    for (std::size_t j = 0; j < scene.characters.size(); ++j) {
        if (j != i && boxes_meet(reach, bounds(scene.characters[j].at()), k_tile)) {
            others.push_back(scene.characters[j]);
        }
    }
    // A chain segment whose neighbour is dropped ends there: its ghost
    // becomes its vertex (an open end), else a contact at the end would
    // take its face's normal as if the neighbour were there.
    const auto whole = [](std::vector<Piece> kept) {
        const auto has = [&kept](Vec2 p1, Vec2 p2) {
            return std::any_of(kept.begin(), kept.end(), [&](const Piece& x) {
                return x.shape.type == ShapeType::chain_segment &&
                       x.shape.chain_segment.segment.p1 == p1 &&
                       x.shape.chain_segment.segment.p2 == p2;
            });
        };
        std::vector<Piece> out = kept;
        for (Piece& x : out) {
            if (x.shape.type == ShapeType::chain_segment) {
                ChainSegment& c = x.shape.chain_segment;
                if (!has(c.ghost1, c.segment.p1)) {
                    c.ghost1 = c.segment.p1;
                }
                if (!has(c.segment.p2, c.ghost2)) {
                    c.ghost2 = c.segment.p2;
                }
            }
        }
        return out;
    };
    if (replay(mover, from, d, statics, others).what.empty()) {
        return {};
    }
    for (std::vector<Piece>* list : {&others, &statics}) {
        for (std::size_t k = list->size(); k-- > 0;) {
            const Piece dropped = (*list)[k];
            list->erase(list->begin() + static_cast<std::ptrdiff_t>(k));
            if (replay(mover, from, d, whole(statics), others).what.empty()) {
                list->insert(list->begin() + static_cast<std::ptrdiff_t>(k), dropped);
            }
        }
    }
    statics = whole(statics);
    std::string end;
    const Verdict v = replay(mover, from, d, statics, others, &end);
    std::ostringstream out;
    out << "\n  mover " << describe(mover) << "\n";
    out << "  moved by " << describe(d) << " to " << end << "\n";
    for (const Piece& s : statics) {
        out << "  static " << describe(s) << "\n";
    }
    for (const Piece& o : others) {
        out << "  character " << describe(o) << "\n";
    }
    out << "  " << v.what;
    return out.str();
}

// `frames` frames, each character moving once a frame by a random step of
// up to `step` L along each axis; fails at the first bad move, describing
// it for a reproduction.
void wander(Scene& scene, unsigned seed, int frames, real step) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> along(-step, step);
    for (int frame = 0; frame < frames; ++frame) {
        for (std::size_t i = 0; i < scene.characters.size(); ++i) {
            Piece& c = scene.characters[i];
            const Vec2 from = c.p;
            const Vec2 d{along(rng), along(rng)};
            const MoveResult r = scene.world.move(c.id, d).value();
            c.p = r.position;
            const Verdict v = judge(scene, i, from, d, r);
            if (!v.what.empty()) {
                const Piece after = c;
                c.p = from;
                std::cout << "reduced:" << reduce(scene, i, from, d) << "\n";
                c = after;
            }
            const std::string broken = contract_broken(scene, i, from, d, r);
            ASSERT_TRUE(broken.empty()) << "seed " << seed << " frame " << frame << " character "
                                        << i << " moved by " << describe(d) << ": " << broken;
            ASSERT_TRUE(v.what.empty())
                << "seed " << seed << " frame " << frame << " character " << i << " "
                << describe(Piece{c.id, c.shape, c.angle, c.c, c.s, from}) << " moved by "
                << describe(d) << " to " << describe(c.p) << " (" << r.contacts.size()
                << " contacts"
                << (r.started_overlapping ? ", pushed out by " + describe(r.pushout) : "")
                << "): " << v.what;
        }
    }
}

TEST(MoveShapesProperty, EveryCharacterShapeAmongTilesAndEachOtherNeverEndsInside) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        Scene scene = make_scene(seed, {30, real(0.4), false, false, false}, 120, 7);
        wander(scene, seed, test::property_cases(200), 8);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveShapesProperty, EveryCharacterShapeAmongSlopesSegmentsAndChainIslands) {
    for (unsigned seed = 21; seed <= 23; ++seed) {
        Scene scene = make_scene(seed, {30, real(0.4), false, false, true}, 120, 7);
        wander(scene, seed, test::property_cases(200), 8);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveShapesProperty, EveryCharacterShapeInAFlatFlooredChainRoom) {
    for (unsigned seed = 51; seed <= 53; ++seed) {
        Scene scene = make_scene(seed, {30, real(0.4), true, false, true}, 120, 7);
        wander(scene, seed, test::property_cases(200), 8);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveShapesProperty, SmallStepsAlongEverySurfaceNeverEndInside) {
    for (unsigned seed = 31; seed <= 32; ++seed) {
        Scene scene = make_scene(seed, {20, real(0.45), seed % 2 == 0, false, true}, 60, 7);
        wander(scene, seed, test::property_cases(300), real(0.1));
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveShapesProperty, LongStepsNeverEndInsideOrPassThrough) {
    for (unsigned seed = 41; seed <= 42; ++seed) {
        Scene scene = make_scene(seed, {30, real(0.35), seed % 2 == 0, false, true}, 100, 7);
        wander(scene, seed, test::property_cases(150), 40);
        ASSERT_FALSE(HasFailure());
    }
}

// Polygon characters (boxes at any angle, rounded boxes, triangles,
// hexagons) on a chain floor of hills and dips used to end inside a chain
// segment next to an inner (concave) joint; see the MoveChainJoint
// reproductions below.
TEST(MoveShapesProperty, EveryCharacterShapeInAChainRoomOverPolylineTerrain) {
    for (unsigned seed = 61; seed <= 63; ++seed) {
        Scene scene = make_scene(seed, {30, real(0.4), true, true, true}, 120, 7);
        wander(scene, seed, test::property_cases(200), 8);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveShapesProperty, LongStepsInAChainRoomOverPolylineTerrain) {
    for (unsigned seed = 71; seed <= 72; ++seed) {
        Scene scene = make_scene(seed, {30, real(0.35), true, true, true}, 100, 7);
        wander(scene, seed, test::property_cases(150), 40);
        ASSERT_FALSE(HasFailure());
    }
}

// Minimal reproductions of what the property tests found (kinematic
// characters, L = 16, touch tolerance 0.02 L), each the move of one
// character from `from` by `d` among a few static shapes in a fresh world:
// what the referee says of it (empty: nothing wrong).
std::string bad_move(const Shape& mover, real angle, Vec2 from, Vec2 d,
                     std::initializer_list<Shape> statics) {
    std::vector<Piece> pieces;
    for (const Shape& s : statics) {
        Piece piece;
        piece.shape = s;
        pieces.push_back(piece);
    }
    Piece character;
    character.shape = mover;
    character.angle = angle;
    return replay(character, from, d, pieces, {}).what;
}

// Found failing: ended 1.75 L inside the floor. A box turned 250 degrees
// moves up and right into a V of two chain segments (an inner joint at
// (136, 2.01)) under a tile. Its third iteration's cast meets the right
// segment at the joint with its own lower-right face; the tie's measure
// took collide()'s normal for a chain segment, the segment's face normal
// (the joint smoothed), and the slide along that plane buried the box's
// corner hanging past the joint 0.0224 L deep; the cast then gave a start
// deeper than the touch tolerance no contact, and the rest of the move ran
// 6.2 L into the slope. Now the measure takes the bare segment (the box's
// own face against the joint) and a start inside a shape never goes deeper.
TEST(MoveChainJoint, BoxSlidingUpAnInnerJointUnderACeilingStaysOutOfTheFloor) {
    EXPECT_EQ(bad_move(make_box(5.31206226f, 3.81490564f).value(), 4.37491131f,
                       {123.692184f, 10.0006638f}, {35.4892731f, 32.7619629f},
                       {ChainSegment{{144, 5.75799799f},
                                     {{144, 5.75799799f}, {136, 2.00871158f}},
                                     {128, 0.671985626f}},
                        ChainSegment{{144, 5.75799799f},
                                     {{136, 2.00871158f}, {128, 0.671985626f}},
                                     {128, 0.671985626f}},
                        make_offset_box(8, 8, {136, 24}, 0).value()}),
              "");
}

// Found failing: ended 0.0241 L inside the slope. A box almost unturned,
// touching the upper of two chain segments of a slope that bends up by a
// degree at (304, 6.67) (an inner joint), moves down and right; its slide
// on the lower segment's smoothed face normal took the bottom-left corner,
// hanging past the joint, under the segment's line (as above).
TEST(MoveChainJoint, BoxLandingBesideAnInnerJointStaysOutOfTheSlope) {
    EXPECT_EQ(bad_move(make_box(3.64137673f, 3.46875024f).value(), 8.19336783e-05f,
                       {307.139282f, 10.5000906f}, {5.24474144f, -6.30784369f},
                       {ChainSegment{{312, 1.00182176f},
                                     {{312, 1.00182176f}, {304, 6.66567898f}},
                                     {296, 12.4906235f}},
                        ChainSegment{{312, 1.00182176f},
                                     {{304, 6.66567898f}, {296, 12.4906235f}},
                                     {296, 12.4906235f}}}),
              "");
}

// Found failing: ended 0.0326 L inside the chain. A triangle moves down
// and right past the convex corner (385.1, 410.1) of an island (a
// counter-clockwise chain loop: two of its segments suffice) with one
// contact (the same slide on a smoothed normal near a joint).
TEST(MoveChainJoint, TrianglePassingAnIslandsConvexCornerStaysOutOfIt) {
    EXPECT_EQ(bad_move(polygon({{-5.13865662f, -0.675270975f},
                                {3.98555851f, -3.3131721f},
                                {3.77309489f, 3.55324316f}}),
                       3.1345036f, {379.964691f, 409.45639f}, {1.91197491f, -3.18583345f},
                       {ChainSegment{{390.363495f, 415.011566f},
                                     {{390.363495f, 415.011566f}, {385.109558f, 410.088531f}},
                                     {386.746063f, 403.076965f}},
                        ChainSegment{{390.363495f, 415.011566f},
                                     {{385.109558f, 410.088531f}, {386.746063f, 403.076965f}},
                                     {386.746063f, 403.076965f}}}),
              "");
}

// Found hunting the property tests' scenes at other seeds (3036 of a
// flat-floored chain room with islands): ended 0.0246 L inside the chain.
// A box turned half a turn (less 1e-4 rad) starts 0.0186 L over the convex
// top-left corner of an island whose top slopes down to the right by 2.8
// degrees, its bottom face over the corner and its own corner hanging
// 0.12 L past it, and moves down and right. collide() keeps the segment's
// face as the reference (its separating axis reads 0.0246 L deep, the
// box's 0.0186: within its 0.1 slop preference for A), its clipped point
// at the corner 0.0186 L deep, and the measure took that over the box's
// own face, whose manifold read the same depth: the slide along the slope
// took the hanging corner 0.0246 L under the island's top. The measure now
// picks the face of least penetration by the whole shapes' separation
// along each normal: the box's own face, and the slide runs level.
TEST(MoveChainJoint, ABoxOverAnIslandsConvexCornerSlidesLevelNotIntoItsSlope) {
    EXPECT_EQ(bad_move(make_box(3.17355633f, 1.73390198f).value(), 3.14148045f,
                       {358.217957f, 447.050629f}, {4.55484581f, -6.41305161f},
                       {ChainSegment{{364.83429f, 434.664307f},
                                     {{365.335693f, 444.83429f}, {355.16571f, 445.335693f}},
                                     {354.664307f, 435.16571f}}}),
              "");
}

// Found hunting (seed 3598 of the tiles' scene): ended 0.0432 L inside a
// tile, the move's 32 iterations spent. A triangle touching a tile's side
// (0 L) and another character (3.8e-6 L into it) moves up and left. The
// manifold with the other triangle, clipped to the face it prefers, read
// 0.0432 L deep; the least push saw every shape within the tolerance and
// asked none, and the push-out fell back on the manifold's push, 0.0432 L
// into the tile. A manifold's push that takes the body into something is
// now not made: the body, within half the touch tolerance of everything,
// did not start overlapping, and moves on.
TEST(MovePushOut, AManifoldsPushIntoATileIsNotMadeForAStartWithinTheTolerance) {
    Piece mover;
    mover.shape = polygon(
        {{-5.32132101f, 2.61758423f}, {1.34330976f, -5.77613401f}, {4.68444872f, 3.63650179f}});
    mover.angle = 5.58299685f;
    Piece tile;
    tile.shape = make_offset_box(8, 8, {136, 56}, 0).value();
    Piece other;
    other.shape = polygon(
        {{-4.19627953f, -1.39446092f}, {2.60521674f, -3.57297182f}, {1.64985132f, 4.10259342f}});
    other.angle = 6.04382372f;
    other.p = {116.848312f, 40.4866638f};
    EXPECT_EQ(
        replay(mover, {122.074486f, 49.3389511f}, {-1.53377628f, 3.96166134f}, {tile}, {other})
            .what,
        "");
}

// Found at 10x the cases: a hexagon passing a tile's corner almost along
// the corner's normal (approach 0.008 of the motion) reached its band; the
// gap closing then carried it the rest of the move along the motion (2.5 L)
// on the corner's linear gap, while the hexagon's edge turned in on the
// corner: it ended 0.027 L inside. Beside a corner the closing now goes no
// farther than the gap and half a touch tolerance.
TEST(MoveChainJoint, HexagonPassingATilesCornerAlmostAlongItStaysOut) {
    EXPECT_EQ(bad_move(polygon({{-3.01904368f, -2.63933174e-07f},
                                {-1.5095216f, -2.61456871f},
                                {1.50952291f, -2.614568f},
                                {3.01904368f, 0},
                                {1.50952172f, 2.61456871f},
                                {-1.50952208f, 2.61456847f}}),
                       1.38723576f, {90.4570007f, 184.793457f}, {6.86477089f, -6.51925325f},
                       {make_offset_box(8, 8, {88, 168}, 0).value()}),
              "");
}

// Found failing at 10 times the cases (seed 3): a triangle standing with
// its tip on a floor of two tiles, 0.026 L left of their seam (x = 176),
// moves down and right almost exactly along its own lower-left side.
// Against the left tile the cast calls it a graze (that side keeps the
// tile within the touch tolerance along the whole motion); against the
// right tile its right side meets the tile's top-left corner at once, on
// the right tile's covered left face. That corner was the only tie: the
// slide along its normal (-0.9994, 0.034) turned the motion straight down,
// and the move ended 0.027 L inside the left tile (before this session, it
// hit the iteration cap). A start touching a tile's exposed face and
// moving into it is now a contact, graze or not (Mover::into_exposed_face):
// the floor leads and the triangle slides on along it.
TEST(MoveSeam, ATrianglesTipBesideASeamMovingAlongItsSideStaysOutOfTheFloor) {
    EXPECT_EQ(bad_move(polygon({{-5.39629078f, -0.972431421f},
                                {5.05661297f, -2.12043476f},
                                {2.29266524f, 4.9808898f}}),
                       1.64602041f, {174.598572f, 21.3079491f}, {2.70515728f, -2.98365164f},
                       {make_offset_box(8, 8, {168, 8}, 0).value(),
                        make_offset_box(8, 8, {184, 8}, 0).value()}),
              "");
}

// Found failing at 10 times the cases (seed 71): a triangle sliding along
// its own face (parallel to the motion, after a slide on the segment) over
// the peak of a chain (two segments meeting at a convex joint) ended
// 0.0205 L inside the near segment, a fortieth of a touch tolerance too
// deep. The second iteration's cast against that segment is a graze (the
// triangle's face keeps it 0.0196 L deep along the motion, within the
// touch tolerance), but the next iteration's tie measured the segment with
// collide(), which keeps the segment's face (within a tenth of the slop)
// and reads -0.0205 L along its normal; the slide along that plane kept
// 0.0205 L along it, which became the least depth as the triangle left the
// graze's axis. An overlapping measure now reads the face of least
// penetration (measure_contact) and slides at 0.0196.
TEST(MoveChainJoint, TriangleIntoAnInnerJointStaysWithinTheTouchTolerance) {
    EXPECT_EQ(bad_move(polygon({{-4.5496316f, 1.23034656f},
                                {-0.135173604f, -4.71111727f},
                                {3.8972652f, 2.65032482f}}),
                       3.24069858f, {211.173187f, 375.454956f}, {-37.7691307f, -27.3498936f},
                       {ChainSegment{{191.182388f, 359.496796f},
                                     {{191.182388f, 359.496796f}, {186.698074f, 366.675354f}},
                                     {178.485107f, 364.628815f}},
                        ChainSegment{{191.182388f, 359.496796f},
                                     {{186.698074f, 366.675354f}, {178.485107f, 364.628815f}},
                                     {178.485107f, 364.628815f}},
                        Segment{{208, 372.441209f}, {224, 372.772335f}}}),
              "");
}

// Found at 20 times the seeds (seed 1411): a rounded box turned 140
// degrees, moving 52 L down and right past a tile, ends against a chain
// segment 370 L out, 0.0200084 L into it by a double-precision distance: a
// quarter of an ulp of its coordinates past the touch tolerance, which the
// world cannot place a body more finely than. The referee, in float, read
// 0.0200549 L, and so allows four ulps there (deepest_end).
TEST(MoveFarOut, ARoundedBoxEndsAgainstAChainWithinAnUlpOfTheTouchTolerance) {
    std::vector<Piece> statics(3);
    statics[0].shape = make_box(8, 8).value();
    statics[0].p = {296, 360};
    const Vec2 ghost{305.549164f, 379.197937f};
    const Vec2 joint{306.965179f, 370.853119f};
    const Vec2 end{315.339142f, 369.621124f};
    statics[1].shape = ChainSegment{ghost, {joint, end}, end};
    statics[2].shape = ChainSegment{ghost, {ghost, joint}, end};
    Piece box;
    box.shape = polygon({{-1.86424291f, -1.29641914f},
                         {1.86424291f, -1.29641914f},
                         {1.86424291f, 1.29641914f},
                         {-1.86424291f, 1.29641914f}},
                        0.75690186f);
    box.angle = 2.45134735f;
    EXPECT_EQ(replay(box, {271.669189f, 389.436829f}, {38.710968f, -34.6651459f}, statics, {}).what,
              "");
}

// Found by MoveResult's contract (contract_broken): a rounded box turned
// 270.2 degrees stands with its flat bottom over the top-left corner of a
// tile (144, 336), its core's corner 0.35 L past the tile's, and moves
// down and left off the ledge. Its first slide runs along its own bottom
// face (the measure's normal, 0.2 degrees from up); the cast of that slide
// took the tile's top (+y) as the separating axis, tied with the box's
// bottom to rounding, and hit at once, while the measure again gave the
// box's bottom, along which the motion runs: every iteration met the same
// hit without moving, up to the cap, and the box stood still. The tie now
// keeps the cast's normal when the motion presses into it but not into
// the measure's (keep_pressing_normal): the box slides 1.93 L left, level.
// Its contacts' points were past the tile's corner, off it (shape_cast's
// touching point, and the manifold's point a touching hit took).
TEST(MoveLedge, ARoundedBoxOverATilesCornerSlidesOffItWithoutStalling) {
    WorldDef def;
    def.length_units_per_meter = k_tile;
    World world = World::make(def).value();
    const ShapeDef tile{make_box(8, 8).value(), {}};
    for (const Vec2 p : {Vec2{152, 328}, Vec2{152, 312}, Vec2{136, 312}}) {
        BodyDef body;
        body.position = p;
        ASSERT_TRUE(world.create_body(body, std::span(&tile, 1)));
    }
    const std::array<Vec2, 4> core{
        Vec2{real(-3.60639095), real(-3.56122971)}, Vec2{real(3.60639095), real(-3.56122971)},
        Vec2{real(3.60639095), real(3.56122971)}, Vec2{real(-3.60639095), real(3.56122971)}};
    const ShapeDef box{make_polygon(core, real(1.68945789)).value(), {}};
    BodyDef def_box;
    def_box.type = BodyType::kinematic;
    def_box.position = {real(147.212204), real(341.309387)};
    def_box.angle = real(4.71599197);
    const BodyId id = world.create_body(def_box, std::span(&box, 1)).value();
    const MoveResult r = world.move(id, {real(-1.90844679), real(-5.17653465)}).value();
    EXPECT_FALSE(r.iteration_cap_hit);
    EXPECT_LT(r.iterations, 5);
    // Left by the motion's component along the box's bottom, down by its
    // first closing: to touching from the 0.0019 L it started above the
    // tile (the measure's separation is the cores'; the manifold's points
    // read less, and the closing stopped 0.0012 L short).
    EXPECT_NEAR(r.position.x, 145.285, 0.01);
    EXPECT_NEAR(r.position.y, real(341.309387) - real(0.0019), real(0.0002));
    // Each contact's point is on the tile, at its corner: the touching
    // hit's was the manifold's, 0.17 L past it (on_surface_of).
    ASSERT_FALSE(r.contacts.empty());
    for (const MoveContact& c : r.contacts) {
        EXPECT_NEAR(c.point.x, 144, 1e-3);
        EXPECT_NEAR(c.point.y, 336, 1e-3);
    }
}

// Found hunting (seed 3365 of the push-out test): ended 0.0214 L inside a
// tile. A box turned half a turn less 0.00034 rad starts with its top face
// 0.0200 L into a tile's bottom (its deepest point the tile's corner; the
// box's higher top corner, 0.0214 L above the tile's bottom face, is past
// the tile's side) and moves up and right. collide() keeps the tile's face
// as the reference, the box's a hair off it, and the slide ran along the
// tile's face, taking the box's higher corner under the tile. The measure
// now takes the face of least penetration however nearly parallel the two
// are: the box's own, along which the tile's corner stays as deep as it
// started.
TEST(MovePushOut, ABoxAHairOffLevelSlidingAlongATilesBottomGoesNoDeeper) {
    const Shape box = make_box(5.87949991f, 3.52490425f).value();
    const real angle = 3.1412499f;
    const Vec2 from{113.758217f, 28.494463f};
    const Vec2 d{7.67831945f, 5.26897001f};
    const Shape tile = make_offset_box(8, 8, {120, 40}, 0).value();
    EXPECT_EQ(bad_move(box, angle, from, d, {tile}), "");

    Scene scene;
    scene.add_static(tile, {});
    scene.add_character(box, from, angle);
    Piece& mover = scene.characters.front();
    const real start = referee::separation(scene.statics.front().at(), mover.at());
    ASSERT_LT(start, real(-0.0199)); // (within the touch tolerance, 0.02)
    mover.p = scene.world.move(mover.id, d).value().position;
    EXPECT_GT(mover.p.x, from.x + 7); // (it slides)
    EXPECT_GT(referee::separation(scene.statics.front().at(), mover.at()), start - real(1e-4));
}

// The chain of seed 5545 of the slopes' scene (below): two segments
// meeting at a vertex (65.4, 213.2), to the right of where its mover starts.
std::array<Shape, 2> seed_5545_chain() {
    return {Shape(ChainSegment{{75.7409897f, 222.151825f},
                               {{67.3052902f, 221.458908f}, {65.3575211f, 213.22197f}},
                               {72.5894318f, 208.824173f}}),
            Shape(ChainSegment{{67.3052902f, 221.458908f},
                               {{65.3575211f, 213.22197f}, {72.5894318f, 208.824173f}},
                               {79.0067673f, 214.343124f}})};
}

// Its mover: a rounded box turned 90.16 degrees.
Shape seed_5545_box() {
    Shape box = make_box(3.68894482f, 3.49712086f).value();
    box.polygon.radius = 1.69437528f;
    return box;
}
constexpr real k_seed_5545_angle = 1.57353437f;
constexpr Vec2 k_seed_5545_from{60.1655006f, 213.41275f};
constexpr Vec2 k_seed_5545_capsule_at{52.1374817f, 217.381531f};

// Found hunting (seed 5545 of the slopes' scene): a contact read 0.0236 L
// deep, beyond the touch tolerance (0.02), where the shapes were 0.0194 L
// deep. A rounded box turned 90.16 degrees, a chain's vertex at its right
// and a capsule character's vertical side at its left, slides up along its
// own faces: its top corner, leaning toward the capsule, goes deeper into
// the capsule's side until the capsule's end is beside the box's face.
// There collide() keeps the capsule's side as the reference face (the
// box's face separates them 0.0042 L less deeply, within its 0.1 slop
// preference for A) and clips the box's face to that side widened by both
// radii: the box's corner past the capsule's end read along the side's
// normal. The measure took the cores' normal for the contact but the
// manifold's depth; it now takes the cores' separation with their normal.
TEST(MoveRoundShapes, ARoundedBoxBesideACapsulesEndReportsTheDepthOfTheirCores) {
    const Shape capsule = make_capsule({0, -3.358078f}, {0, 3.358078f}, 2.83587933f).value();
    const Vec2 d{4.84053993f, 5.34354591f};
    Scene scene;
    for (const Shape& chain : seed_5545_chain()) {
        scene.add_static(chain, {});
    }
    scene.add_static(make_box(8, 8).value(), {72, 232});
    scene.add_character(seed_5545_box(), k_seed_5545_from, k_seed_5545_angle);
    scene.add_character(capsule, k_seed_5545_capsule_at, 0);
    Piece& mover = scene.characters.front();
    const MoveResult r = scene.world.move(mover.id, d).value();
    mover.p = r.position;
    EXPECT_EQ(judge(scene, 0, k_seed_5545_from, d, r).what, "");
    const Piece& other = scene.characters.back();
    const real depth = referee::separation(other.at(), mover.at());
    ASSERT_LT(depth, 0); // (a real overlap, within the tolerance)
    EXPECT_GT(depth, -scene.world.tolerances().touch_tolerance);
    // The box slides no farther once it meets the capsule, so the contact's
    // depth is the depth where it ends.
    const auto met = std::find_if(r.contacts.begin(), r.contacts.end(),
                                  [&](const MoveContact& c) { return c.other == other.id; });
    ASSERT_NE(met, r.contacts.end());
    EXPECT_NEAR(met->separation, depth, 1e-4);
}

// The scene of seed 5545 (above) with a capsule three times as tall and
// nothing overhead: the rounded box, its faces 0.0027 rad off the capsule's
// side, cannot rise along the chain's vertex without going into the
// capsule, nor along the capsule without going into the chain. It hit the
// chain at its start, slid along it into the capsule at once, slid along
// that back into the chain, and so on without moving, up to the iteration
// cap. A slide now holds the faces met since the body last moved: it stops
// at once, where it stood.
TEST(MoveRoundShapes, ARoundedBoxWedgedBetweenAChainAndACapsuleStopsWithoutSpendingTheCap) {
    Scene scene;
    for (const Shape& chain : seed_5545_chain()) {
        scene.add_static(chain, {});
    }
    scene.add_character(seed_5545_box(), k_seed_5545_from, k_seed_5545_angle);
    scene.add_character(make_capsule({0, -12}, {0, 12}, 2.83587933f).value(),
                        k_seed_5545_capsule_at, 0);
    Piece& mover = scene.characters.front();
    const Piece& capsule = scene.characters.back();
    const real start = referee::separation(capsule.at(), mover.at());
    const MoveResult r = scene.world.move(mover.id, {4.84053993f, 15}).value();
    mover.p = r.position;
    EXPECT_FALSE(r.iteration_cap_hit);
    EXPECT_LE(r.iterations, 3);
    EXPECT_GE(referee::separation(capsule.at(), mover.at()), start - real(1e-4));
    EXPECT_NEAR(r.position.y, k_seed_5545_from.y, scene.world.tolerances().touch_tolerance);
}

} // namespace
} // namespace sweep
