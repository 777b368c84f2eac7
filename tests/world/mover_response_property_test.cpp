// World::move's responses, property-tested with fixed seeds against the
// referee of mover_referee.hpp (independent of the library's geometry):
//
// - Filters: characters of every shape wander among tiles, slopes,
//   segments and one another, each with a random but fixed response
//   (slide, touch, bounce, cross, ignore) per other body. None ends deeper
//   than the touch tolerance in a body whose response blocks (slide, touch,
//   bounce); a move whose first blocking contact is a touch ends there,
//   touching it; cross and ignore never block (a move that meets nothing
//   else goes all the way and reports every body it crossed); every
//   contact carries the filter's response; the same calls on the same
//   world give bit-identical results.
// - One-way platforms (segments and polylines of chain segments, on bodies
//   turned up to 30 degrees: up is the body's local +y): a character wholly
//   above a platform's stretch stays above it; one moving with up, or
//   starting inside, passes through unreported and unpushed.
// - Kinematic carry: a rider standing on a kinematic platform moved by
//   World::step has the platform for its ground and never ends inside the
//   platform or the walls it is carried into.
// - Push-out: characters created overlapping tiles (one or several) are
//   pushed out by their first move no farther than their size, never go
//   back along their motion and end outside every tile; a rider wedged
//   between a platform and a wall is left in the platform only where no
//   pose within its size is clear of both.
//
// A failure prints what a focused reproduction needs (9 significant
// digits); the reproductions found are the MoveResponseRepro tests at the
// end.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iostream>
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

using namespace referee;
using referee::describe; // beside the overloads below

constexpr real k_tile = 16; // L, one tile per metre

World make_world() {
    WorldDef def;
    def.length_units_per_meter = k_tile;
    return std::move(World::make(def).value());
}

bool blocks(MoveResponse r) {
    return r == MoveResponse::slide || r == MoveResponse::touch || r == MoveResponse::bounce;
}

const char* name(MoveResponse r) {
    switch (r) {
    case MoveResponse::ignore:
        return "ignore";
    case MoveResponse::slide:
        return "slide";
    case MoveResponse::touch:
        return "touch";
    case MoveResponse::cross:
        return "cross";
    case MoveResponse::bounce:
        return "bounce";
    case MoveResponse::one_way:
        return "one_way";
    }
    return "?";
}

std::string describe_result(const MoveResult& r) {
    std::ostringstream out;
    out.precision(9);
    out << "ended at " << describe(r.position) << ", " << r.iterations << " iterations"
        << (r.iteration_cap_hit ? " (cap hit)" : "");
    if (r.started_overlapping) {
        out << ", pushed out by " << describe(r.pushout);
    }
    for (const MoveContact& c : r.contacts) {
        out << "\n    contact body " << c.other.index << " " << name(c.response) << " time "
            << c.time << " point " << describe(c.point) << " normal " << describe(c.normal)
            << " separation " << c.separation;
    }
    return out.str();
}

// Bodies made in a world, as the referee sees them.
struct Level {
    World world = make_world();
    std::vector<Piece> statics;
    std::vector<Piece> characters;

    Piece add(const Shape& shape, Vec2 p, real angle, BodyType type) {
        return add_piece(world, shape, p, angle, type);
    }
    void add_static(const Shape& shape, Vec2 p, real angle = 0) {
        statics.push_back(add(shape, p, angle, BodyType::static_body));
    }
    void add_character(const Shape& shape, Vec2 p, real angle) {
        characters.push_back(add(shape, p, angle, BodyType::kinematic));
    }
    // The piece of body `id` (a static or a character), or null.
    const Piece* find(BodyId id) const {
        for (const std::vector<Piece>* list : {&statics, &characters}) {
            for (const Piece& piece : *list) {
                if (piece.id == id) {
                    return &piece;
                }
            }
        }
        return nullptr;
    }
};

// A map `side` tiles across with a border of box tiles, `fill` of its inner
// cells holding a box tile, a slope or a thin wall (only box tiles with
// `only_boxes`), and `count` characters
// of every kind (size 3 to 7 L) at free cell centres (`free_cells`: every
// free cell centre, in a random order).
Level make_level(unsigned seed, int side, real fill, int count,
                 std::vector<Vec2>* free_cells = nullptr, bool only_boxes = false) {
    Level level;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> unit(0, 1);
    std::vector<Vec2> free;
    for (int y = 0; y < side; ++y) {
        for (int x = 0; x < side; ++x) {
            const Vec2 lo{real(x) * k_tile, real(y) * k_tile};
            const Vec2 center = lo + Vec2{k_tile / 2, k_tile / 2};
            const bool border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
            if (!border && unit(rng) >= fill) {
                free.push_back(center);
                continue;
            }
            const int kind = border || only_boxes ? 0 : static_cast<int>(3 * unit(rng)) % 3;
            if (kind == 0) {
                level.add_static(make_box(k_tile / 2, k_tile / 2).value(), center);
            } else if (kind == 1) { // half the cell, cut by a diagonal
                const int skip = static_cast<int>(4 * unit(rng)) % 4;
                level.add_static(cell_slope(k_tile, skip), lo);
            } else { // a thin wall across the cell
                const Vec2 a{k_tile * unit(rng), 0};
                const Vec2 b{k_tile * unit(rng), k_tile};
                const bool across = unit(rng) < real(0.5);
                level.add_static(
                    across ? Shape(Segment{a, b}) : Shape(Segment{{a.y, a.x}, {b.y, b.x}}), lo);
            }
        }
    }
    std::shuffle(free.begin(), free.end(), rng);
    for (int i = 0; i < count && i < static_cast<int>(free.size()); ++i) {
        const real size = real(3) + 4 * unit(rng);
        const auto [shape, angle] = make_character(i % 7, size, rng);
        level.add_character(shape, free[static_cast<std::size_t>(i)], angle);
    }
    if (free_cells) {
        *free_cells = free;
    }
    return level;
}

// ---------------------------------------------------------------------------
// Filters

// A random, fixed response of each character to every body, by body index
// (the same both ways between two characters).
struct Responses {
    std::vector<std::vector<MoveResponse>> of; // [character][body index]

    Responses() = default;
    Responses(const Level& level, unsigned seed) {
        std::mt19937 rng(seed * 7919 + 1);
        constexpr std::array<MoveResponse, 5> pick{MoveResponse::slide, MoveResponse::touch,
                                                   MoveResponse::bounce, MoveResponse::cross,
                                                   MoveResponse::ignore};
        std::int32_t bodies = 0;
        for (const std::vector<Piece>* list : {&level.statics, &level.characters}) {
            for (const Piece& piece : *list) {
                bodies = std::max(bodies, piece.id.index + 1);
            }
        }
        for (std::size_t i = 0; i < level.characters.size(); ++i) {
            std::vector<MoveResponse> row(static_cast<std::size_t>(bodies));
            for (MoveResponse& r : row) {
                // Mostly blocking, so that characters meet one another.
                r = pick[static_cast<std::size_t>(rng() % 8 < 5 ? rng() % 3 : 3 + rng() % 2)];
            }
            of.push_back(row);
        }
        // Characters answer each other alike: one that crosses another is
        // crossed by it, so none starts a move inside what blocks it (a
        // character a crossing one walked into may be wedged between it
        // and a wall with no way out; push-out has its own test).
        for (std::size_t i = 0; i < level.characters.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                of[i][static_cast<std::size_t>(level.characters[j].id.index)] =
                    of[j][static_cast<std::size_t>(level.characters[i].id.index)];
            }
        }
    }
    MoveResponse operator()(std::size_t character, BodyId other) const {
        return of[character][static_cast<std::size_t>(other.index)];
    }
};

// What is wrong with character `i`'s move from `from` by `d` (the level
// has it where it ended), empty when nothing.
std::string judge_filtered(const Level& level, const Responses& responses, std::size_t i, Vec2 from,
                           Vec2 d, const MoveResult& r) {
    const real touch = level.world.tolerances().touch_tolerance;
    const real slop = level.world.tolerances().linear_slop;
    const Piece& c = level.characters[i];
    const Convex now = c.at();
    std::ostringstream out;
    out.precision(9);
    // Nothing blocking is entered.
    for (const std::vector<Piece>* list : {&level.statics, &level.characters}) {
        for (const Piece& o : *list) {
            if (o.id == c.id || !blocks(responses(i, o.id))) {
                continue;
            }
            const real deep = depth(now, o.at());
            if (deep > touch) {
                out << "ends " << deep << " L inside body " << o.id.index << " ("
                    << name(responses(i, o.id)) << ") " << describe(o);
                return out.str();
            }
        }
    }
    // Every contact has the filter's response, and ignore is never reported.
    for (const MoveContact& contact : r.contacts) {
        const MoveResponse asked = responses(i, contact.other);
        if (contact.response != asked || asked == MoveResponse::ignore) {
            out << "a contact with body " << contact.other.index << " reports "
                << name(contact.response) << ", the filter gave " << name(asked);
            return out.str();
        }
    }
    const Vec2 start = from + r.pushout;
    const auto lead = std::find_if(r.contacts.begin(), r.contacts.end(),
                                   [](const MoveContact& k) { return blocks(k.response); });
    if (lead == r.contacts.end()) {
        // Nothing blocked: all the way, in one straight translation.
        if (r.position != start + d) {
            out << "met nothing blocking but ended " << length(r.position - (start + d))
                << " L from its goal";
            return out.str();
        }
        // Every body crossed deeper than a touch (not begun inside) is reported.
        if (!r.started_overlapping) {
            const Convex was = placed(c.shape, c.c, c.s, from);
            const Convex path = swept(was, d);
            for (const std::vector<Piece>* list : {&level.statics, &level.characters}) {
                for (const Piece& o : *list) {
                    if (o.id == c.id || responses(i, o.id) != MoveResponse::cross) {
                        continue;
                    }
                    const Convex other = o.at();
                    if (depth(path, other) > 4 * touch && depth(was, other) <= touch &&
                        std::none_of(r.contacts.begin(), r.contacts.end(),
                                     [&](const MoveContact& k) { return k.other == o.id; })) {
                        out << "crossed body " << o.id.index << " unreported: " << describe(o);
                        return out.str();
                    }
                }
            }
        }
        return {};
    }
    if (lead->response == MoveResponse::touch) {
        // The move ends at the touch: nothing later, there, touching it.
        for (auto k = lead; k != r.contacts.end(); ++k) {
            if (k->time != lead->time) {
                out << "a contact at time " << k->time << " after a touch at " << lead->time;
                return out.str();
            }
        }
        const Vec2 there = start + lead->time * d;
        if (length(r.position - there) > real(0.01) * slop + real(1e-5) * length(d)) {
            out << "touched at time " << lead->time << " (" << describe(there) << ") but ended "
                << length(r.position - there) << " L from there";
            return out.str();
        }
        const real gap = separation(now, level.find(lead->other)->at());
        if (gap > 2 * slop) {
            out << "stopped by a touch " << gap << " L short of body " << lead->other.index;
            return out.str();
        }
    }
    return {};
}

// One body of a reproduction: its piece, whether it is static, and the
// mover's response to it.
struct Other {
    Piece piece;
    bool is_static = true;
    MoveResponse response = MoveResponse::slide;
};

// The move of `mover` from `from` by `d` in a fresh world of `others`: what
// judge_filtered says of it; `result` gets the move's result.
std::string replay_filtered(const Piece& mover, Vec2 from, Vec2 d, const std::vector<Other>& others,
                            MoveResult* result = nullptr) {
    Level level;
    level.add_character(mover.shape, from, mover.angle);
    Responses responses;
    std::vector<MoveResponse> row;
    for (const Other& o : others) {
        if (o.is_static) {
            level.add_static(o.piece.shape, o.piece.p, o.piece.angle);
        } else {
            level.add_character(o.piece.shape, o.piece.p, o.piece.angle);
        }
        const BodyId id = o.is_static ? level.statics.back().id : level.characters.back().id;
        row.resize(static_cast<std::size_t>(id.index + 1), MoveResponse::slide);
        row[static_cast<std::size_t>(id.index)] = o.response;
    }
    row.resize(row.size() + 1, MoveResponse::slide);
    responses.of.push_back(row);
    const MoveFilter filter = [&](BodyId other) { return responses(0, other); };
    const MoveResult r = level.world.move(level.characters[0].id, d, filter).value();
    level.characters[0].p = r.position;
    if (result) {
        *result = r;
    }
    return judge_filtered(level, responses, 0, from, d, r);
}

// The fewest bodies near character `i`'s bad move that still make it bad in
// a fresh world (greedily dropped one at a time), printed for a focused test.
std::string reduce_filtered(const Level& level, const Responses& responses, std::size_t i,
                            Vec2 from, Vec2 d) {
    const Piece& mover = level.characters[i];
    const Aabb reach = bounds(swept(placed(mover.shape, mover.c, mover.s, from), d));
    std::vector<Other> others;
    for (const std::vector<Piece>* list : {&level.statics, &level.characters}) {
        for (const Piece& o : *list) {
            if (o.id != mover.id && boxes_meet(reach, bounds(o.at()), k_tile)) {
                others.push_back({o, list == &level.statics, responses(i, o.id)});
            }
        }
    }
    if (replay_filtered(mover, from, d, others).empty()) {
        return "(passes in a fresh world)";
    }
    for (std::size_t k = others.size(); k-- > 0;) {
        const Other dropped = others[k];
        others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
        if (replay_filtered(mover, from, d, others).empty()) {
            others.insert(others.begin() + static_cast<std::ptrdiff_t>(k), dropped);
        }
    }
    MoveResult r;
    const std::string what = replay_filtered(mover, from, d, others, &r);
    std::ostringstream out;
    out << "\n  mover " << describe(Piece{{}, mover.shape, mover.angle, 1, 0, from})
        << "\n  moved by " << describe(d) << "\n";
    for (const Other& o : others) {
        out << "  " << (o.is_static ? "static " : "character ") << name(o.response) << " "
            << describe(o.piece) << "\n";
    }
    out << "  " << what << "\n  " << describe_result(r);
    return out.str();
}

// Every result field, to compare two runs bit for bit.
bool same(const MoveResult& a, const MoveResult& b) {
    if (a.position != b.position || a.iterations != b.iterations ||
        a.iteration_cap_hit != b.iteration_cap_hit ||
        a.started_overlapping != b.started_overlapping || a.pushout != b.pushout ||
        !(a.ground == b.ground) || a.contacts.size() != b.contacts.size()) {
        return false;
    }
    for (std::size_t k = 0; k < a.contacts.size(); ++k) {
        const MoveContact& x = a.contacts[k];
        const MoveContact& y = b.contacts[k];
        if (!(x.other == y.other) || x.time != y.time || x.point != y.point ||
            x.normal != y.normal || x.separation != y.separation ||
            x.surface_area != y.surface_area || x.response != y.response) {
            return false;
        }
    }
    return true;
}

// `frames` frames of every character moving by a random step of up to
// `step` L along each axis with its filter; the results, in order.
std::vector<MoveResult> wander_filtered(Level& level, const Responses& responses, unsigned seed,
                                        int frames, real step) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> along(-step, step);
    std::vector<MoveResult> results;
    for (int frame = 0; frame < frames; ++frame) {
        for (std::size_t i = 0; i < level.characters.size(); ++i) {
            Piece& c = level.characters[i];
            const Vec2 from = c.p;
            const Vec2 d{along(rng), along(rng)};
            bool asked_self = false;
            const MoveFilter filter = [&](BodyId other) {
                asked_self = asked_self || other == c.id;
                return responses(i, other);
            };
            const MoveResult r = level.world.move(c.id, d, filter).value();
            c.p = r.position;
            EXPECT_FALSE(asked_self);
            const std::string broken = contract_broken(level, i, from, d, r, false);
            EXPECT_TRUE(broken.empty()) << "seed " << seed << " frame " << frame << " character "
                                        << i << " moved by " << describe(d) << ": " << broken << "\n  " << describe_result(r);
            if (!broken.empty()) {
                return results;
            }
            const std::string what = judge_filtered(level, responses, i, from, d, r);
            if (!what.empty()) {
                const Piece after = c;
                c.p = from;
                std::cout << "reduced:" << reduce_filtered(level, responses, i, from, d) << "\n";
                c = after;
            }
            EXPECT_TRUE(what.empty())
                << "seed " << seed << " frame " << frame << " character " << i << " (body "
                << c.id.index << ") " << describe(Piece{c.id, c.shape, c.angle, c.c, c.s, from})
                << " moved by " << describe(d) << ": " << what << "\n  " << describe_result(r);
            if (!what.empty()) {
                return results;
            }
            results.push_back(r);
        }
    }
    return results;
}

TEST(MoveResponseProperty, FilteredCharactersNeverEnterWhatBlocksThem) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        Level level = make_level(seed, 24, real(0.35), 70);
        const Responses responses(level, seed);
        wander_filtered(level, responses, seed, test::property_cases(100), 8);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveResponseProperty, FilteredLongStepsNeverEnterWhatBlocksThem) {
    for (unsigned seed = 11; seed <= 12; ++seed) {
        Level level = make_level(seed, 24, real(0.3), 50);
        const Responses responses(level, seed);
        wander_filtered(level, responses, seed, test::property_cases(80), 40);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveResponseProperty, SameWorldSameCallsGiveBitIdenticalResults) {
    for (unsigned seed = 21; seed <= 22; ++seed) {
        Level a = make_level(seed, 20, real(0.35), 40);
        Level b = make_level(seed, 20, real(0.35), 40);
        const Responses responses(a, seed);
        const std::vector<MoveResult> ra =
            wander_filtered(a, responses, seed, test::property_cases(60), 10);
        const std::vector<MoveResult> rb =
            wander_filtered(b, responses, seed, test::property_cases(60), 10);
        ASSERT_EQ(ra.size(), rb.size());
        for (std::size_t k = 0; k < ra.size(); ++k) {
            ASSERT_TRUE(same(ra[k], rb[k]))
                << "seed " << seed << " move " << k << "\n  " << describe_result(ra[k]) << "\n  "
                << describe_result(rb[k]);
        }
    }
}

// ---------------------------------------------------------------------------
// One-way platforms

// A static one-way platform: a segment, or a polyline of chain segments
// (either winding), on one body turned by `angle`; its up is the body's +y.
struct Platform {
    Level level;
    BodyId id;
    std::vector<Piece> pieces; // one per shape, as placed
    Vec2 up;
    bool polyline = false;
};

Platform make_platform(std::mt19937& rng) {
    std::uniform_real_distribution<real> unit(0, 1);
    Platform out;
    const real angle = (2 * unit(rng) - 1) * k_pi / 6;
    const Vec2 p{150 + 100 * unit(rng), 150 + 100 * unit(rng)};
    const real w = 16 + 48 * unit(rng);
    std::vector<Shape> shapes;
    out.polyline = unit(rng) < real(0.6);
    if (!out.polyline) {
        shapes.push_back(Segment{{-w, 0}, {w, 0}});
    } else {
        // Up to 35 degrees from the body's x axis, so every face is ground.
        const int n = 2 + static_cast<int>(4 * unit(rng)) % 4;
        std::vector<Vec2> points{{-w, 0}};
        for (int i = 1; i <= n; ++i) {
            const real dx = 2 * w / real(n);
            points.push_back(
                {points.back().x + dx, points.back().y + dx * real(0.7) * (2 * unit(rng) - 1)});
        }
        if (unit(rng) < real(0.5)) {
            std::reverse(points.begin(), points.end());
        }
        for (std::size_t i = 0; i + 1 < points.size(); ++i) {
            const Vec2 g1 = i > 0 ? points[i - 1] : points[i];
            const Vec2 g2 = i + 2 < points.size() ? points[i + 2] : points[i + 1];
            shapes.push_back(ChainSegment{g1, {points[i], points[i + 1]}, g2});
        }
    }
    std::vector<ShapeDef> defs;
    for (const Shape& shape : shapes) {
        defs.push_back({shape, {}});
    }
    BodyDef body;
    body.position = p;
    body.angle = angle;
    out.id = out.level.world.create_body(body, defs).value();
    const Rot q = out.level.world.body_state(out.id).value().xf.q;
    out.up = rotate(q, Vec2{0, 1});
    for (const Shape& shape : shapes) {
        out.pieces.push_back(Piece{out.id, shape, angle, q.c, q.s, p});
    }
    return out;
}

// Where convex `a` lies relative to the line of segment `line` (a placed
// segment): its extent along the segment and its lowest point's height
// above the line, on the side `up` points to.
struct Relation {
    bool within = false; // a's extent along the segment lies inside the segment's
    real height = 0;     // a's lowest point above the line (negative: below)
    bool centre_above = false;
};

Relation relate(const Convex& a, const Convex& line, Vec2 up, Vec2 centre) {
    const Vec2 p1 = line.points[0];
    const Vec2 p2 = line.points[1];
    const Vec2 t = (p2 - p1) * (1 / length(p2 - p1));
    Vec2 n = left_perp(t);
    if (dot(n, up) < 0) {
        n = -1 * n;
    }
    real lo = std::numeric_limits<real>::max();
    real hi = -lo;
    real low = lo;
    for (int i = 0; i < a.count; ++i) {
        const Vec2 v = a.points[static_cast<std::size_t>(i)];
        lo = std::min(lo, dot(v - p1, t));
        hi = std::max(hi, dot(v - p1, t));
        low = std::min(low, dot(v - p1, n));
    }
    Relation r;
    r.within = lo - a.radius > 0 && hi + a.radius < length(p2 - p1);
    r.height = low - a.radius;
    r.centre_above = dot(centre - p1, n) > 0;
    return r;
}

// What is wrong with a move of `c` (a piece placed where it started) by `d`
// over `platform`, ending at `r`; empty when nothing.
std::string judge_one_way(const Platform& platform, const Piece& c, Vec2 d, const MoveResult& r) {
    const real touch = platform.level.world.tolerances().touch_tolerance;
    std::ostringstream out;
    out.precision(9);
    for (const MoveContact& k : r.contacts) {
        if (k.response != MoveResponse::one_way || !(k.other == platform.id) ||
            dot(k.normal, platform.up) < k_ground_cosine - real(1e-4)) {
            out << "a contact " << name(k.response) << " normal " << describe(k.normal)
                << " is no landing on the platform";
            return out.str();
        }
    }
    if (r.started_overlapping) {
        return "a one-way platform pushed it out";
    }
    const Convex was = c.at();
    const Convex goal = placed(c.shape, c.c, c.s, c.p + d);
    const Convex now = placed(c.shape, c.c, c.s, r.position);
    bool inside = false;
    for (const Piece& s : platform.pieces) {
        inside = inside || depth(was, s.at()) > touch;
    }
    // With up, or out of an overlap of a lone segment: straight through.
    if (dot(d, platform.up) > 0 || (inside && !platform.polyline)) {
        if (r.position != c.p + d || !r.contacts.empty()) {
            out << (inside ? "started inside" : "moved with up") << " but did not pass through";
            return out.str();
        }
        return {};
    }
    // Wholly above a segment's stretch, at the start and the goal: it stays
    // above while it stays over the stretch.
    for (const Piece& s : platform.pieces) {
        const Convex line = s.at();
        const Relation before = relate(was, line, platform.up, c.p);
        const Relation after_goal = relate(goal, line, platform.up, c.p + d);
        const Relation after = relate(now, line, platform.up, r.position);
        if (before.within && before.height >= 0 && after_goal.within && after.within &&
            after.height < -touch) {
            out << "started " << before.height << " L above " << describe(s) << " but ended "
                << -after.height << " L below its line";
            return out.str();
        }
    }
    return {};
}

std::string describe(const Platform& platform) {
    std::ostringstream out;
    out.precision(9);
    out << "platform body at " << describe(platform.pieces.front().p) << " angle "
        << platform.pieces.front().angle << " up " << describe(platform.up) << ":";
    for (const Piece& s : platform.pieces) {
        out << "\n    " << describe(s.shape);
    }
    return out.str();
}

TEST(MoveResponseProperty, OneWayPlatformsHoldFromAboveAndLetThroughFromBelowOrInside) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<real> unit(0, 1);
    const auto filter = [](BodyId) { return MoveResponse::one_way; };
    for (int n = 0; n < test::property_cases(10000); ++n) {
        Platform platform = make_platform(rng);
        const Piece& first = platform.pieces.front();
        // A character somewhere over, under or in the platform.
        const real size = 3 + 4 * unit(rng);
        const auto [shape, angle] = make_character(n % 7, size, rng);
        const Rot q = Rot::from_angle(first.angle);
        const real w = length(first.at().points[1] - first.at().points[0]);
        const Vec2 local{(2 * unit(rng) - 1) * (w + size), (2 * unit(rng) - 1) * 4 * size};
        platform.level.add_character(shape, first.p + rotate(q, local), angle);
        Piece& c = platform.level.characters.front();
        // Two moves: the first often lands, so the second starts resting.
        for (int m = 0; m < 2; ++m) {
            const real a = 2 * k_pi * unit(rng);
            const real len = real(0.05) + 40 * unit(rng) * unit(rng);
            const Vec2 d = m == 0 && unit(rng) < real(0.5)
                               ? rotate(q, Vec2{(2 * unit(rng) - 1) * 4, -len})
                               : len * Vec2{std::cos(a), std::sin(a)};
            const MoveResult r = platform.level.world.move(c.id, d, filter).value();
            const std::string what = judge_one_way(platform, c, d, r);
            ASSERT_TRUE(what.empty()) << "case " << n << " move " << m << ": " << describe(c)
                                      << " moved by " << describe(d) << ": " << what << "\n  "
                                      << describe(platform) << "\n  " << describe_result(r);
            c.p = r.position;
        }
    }
}

// ---------------------------------------------------------------------------
// Kinematic carry

// The ground a move's contacts give: the other body of the last ground
// contact (blocking, normal within 60 degrees of +y), the leading one
// among the contacts at its time; a null id when there is none.
BodyId expected_ground(const MoveResult& r) {
    const auto ground = [](const MoveContact& k) {
        return blocks(k.response) && k.normal.y >= k_ground_cosine;
    };
    const auto last = std::find_if(r.contacts.rbegin(), r.contacts.rend(), ground);
    if (last == r.contacts.rend()) {
        return {};
    }
    const auto lead = std::find_if(r.contacts.begin(), r.contacts.end(), [&](const MoveContact& k) {
        return ground(k) && k.time == last->time;
    });
    return lead->other;
}

// A room walled left and right by columns of box tiles, `side` tiles
// across and high, a kinematic platform (a box, unturned or turning) in it
// and a rider of any shape standing on it; every frame the rider walks and
// presses down (a move), then the platform moves by its velocity (a step),
// bouncing between the walls, which it passes into (kinematic bodies meet
// nothing in a step) and the rider does not.
TEST(MoveResponseProperty, KinematicPlatformCarriesItsRiderNeverIntoItOrAWall) {
    std::mt19937 rng(9);
    std::uniform_real_distribution<real> unit(0, 1);
    constexpr int side = 12;
    const real width = side * k_tile;
    const real dt = real(1) / 60;
    int rides = 0;
    int wedged = 0;
    for (int n = 0; n < test::property_cases(150); ++n) {
        Level level;
        for (int y = 0; y < side; ++y) {
            for (int x : {0, side - 1}) {
                level.add_static(make_box(k_tile / 2, k_tile / 2).value(),
                                 {(real(x) + real(0.5)) * k_tile, (real(y) + real(0.5)) * k_tile});
            }
        }
        const real hx = 12 + 28 * unit(rng);
        const real hy = 2 + 4 * unit(rng);
        const bool turning = n % 4 == 3;
        level.add_character(make_box(hx, hy).value(), {width / 2, width / 2}, 0);
        const BodyId platform = level.characters.front().id;
        const real size = 3 + 3 * unit(rng);
        const auto [shape, angle] = make_character(n % 7, size, rng);
        level.add_character(
            shape, {width / 2 + (2 * unit(rng) - 1) * (hx - size), width / 2 + hy + size + 1},
            angle);
        Vec2 v{(2 * unit(rng) - 1) * 60, (2 * unit(rng) - 1) * 30};
        const real w = turning ? (2 * unit(rng) - 1) * real(0.6) : 0;
        const real touch = level.world.tolerances().touch_tolerance;
        // The platform moves into the rider up to the touch tolerance (a
        // step's carry leaves what it cannot resolve to the next move, which
        // pushes out only beyond it), and a slide keeps that depth but for
        // the rounding of coordinates as large as the room's.
        const real rounding = 4 * std::numeric_limits<real>::epsilon() * width;
        const auto worst_wall = [&](const Convex& at) {
            real deepest = 0;
            for (const Piece& s : level.statics) {
                deepest = std::max(deepest, depth(at, s.at()));
            }
            return deepest;
        };
        for (int frame = 0; frame < 90; ++frame) {
            Piece& p = level.characters[0];
            Piece& c = level.characters[1];
            const BodyState ps = level.world.body_state(platform).value();
            p.p = ps.xf.p;
            p.c = ps.xf.q.c;
            p.s = ps.xf.q.s;
            const std::string where = "case " + std::to_string(n) + " frame " +
                                      std::to_string(frame) + ": rider " + describe(c) +
                                      " platform " + describe(p);
            const Vec2 walk{(2 * unit(rng) - 1) * real(1.5), real(-0.5)};
            const Vec2 from_move = c.p;
            const MoveResult r = level.world.move(c.id, walk).value();
            c.p = r.position;
            ASSERT_TRUE(r.ground == expected_ground(r))
                << where << " moved by " << describe(walk) << ": ground " << r.ground.index
                << "\n  " << describe_result(r);
            const bool in_platform = depth(c.at(), p.at()) > touch + rounding;
            if ((in_platform && !r.started_overlapping) || worst_wall(c.at()) > touch) {
                // A fresh world with the rider, the platform and the walls near.
                Level fresh;
                for (const Piece& st : level.statics) {
                    if (boxes_meet(bounds(st.at()), bounds(c.at()), k_tile)) {
                        fresh.add_static(st.shape, st.p);
                        std::cout << "  static " << describe(st) << "\n";
                    }
                }
                const real pa = std::atan2(p.s, p.c);
                fresh.add_character(p.shape, p.p, pa);
                fresh.add_character(c.shape, from_move, c.angle);
                fresh.characters[1].p =
                    fresh.world.move(fresh.characters[1].id, walk).value().position;
                std::cout.precision(9);
                std::cout << "  platform " << describe(p.shape) << " at " << describe(p.p)
                          << " angle " << pa << "\n  rider " << describe(c.shape) << " at "
                          << describe(from_move) << " angle " << c.angle << " by " << describe(walk)
                          << "\n  fresh depth "
                          << depth(fresh.characters[1].at(), fresh.characters[0].at())
                          << ", in a wall " << worst_wall(fresh.characters[1].at()) << "\n";
            }
            // Inside the platform only when wedged between it and a wall:
            // the move started overlapping and the referee finds no pose
            // within the rider's size (on a grid a tenth of a unit fine) clear
            // of both.
            if (in_platform) {
                ASSERT_TRUE(r.started_overlapping) << where << " moved into the platform";
                const Convex began = placed(c.shape, c.c, c.s, from_move);
                const Aabb box = bounds(began);
                const real reach = std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
                const real grid = real(0.1);
                const int steps = static_cast<int>(reach / grid);
                for (int i = -steps; i <= steps; ++i) {
                    for (int j = -steps; j <= steps; ++j) {
                        const Vec2 t{real(i) * grid, real(j) * grid};
                        const Convex at = placed(c.shape, c.c, c.s, from_move + t);
                        ASSERT_FALSE(length(t) <= reach && depth(at, p.at()) <= touch &&
                                     worst_wall(at) <= touch)
                            << where << " (platform turned " << std::atan2(p.s, p.c)
                            << ") moved by " << describe(walk) << " left inside the platform, but "
                            << describe(t) << " would have freed it\n  " << describe_result(r);
                    }
                }
                ++wedged;
            }
            ASSERT_LE(worst_wall(c.at()), touch) << where << " moved by " << describe(walk)
                                                 << " into a wall\n  " << describe_result(r);
            if (c.p.y < p.p.y - hx - 2 * size) {
                break; // fell off
            }
            // The step.
            if ((p.p.x < 2 * k_tile && v.x < 0) || (p.p.x > width - 2 * k_tile && v.x > 0)) {
                v.x = -v.x;
            }
            if ((p.p.y < 3 * k_tile && v.y < 0) || (p.p.y > width - 3 * k_tile && v.y > 0)) {
                v.y = -v.y;
            }
            ASSERT_TRUE(level.world.set_velocity(platform, v, w));
            ASSERT_TRUE(level.world.step(dt));
            const BodyState after = level.world.body_state(platform).value();
            const Vec2 carried = level.world.body_state(c.id).value().xf.p;
            const Vec2 platform_moved = after.xf.p - p.p;
            p.p = after.xf.p;
            p.c = after.xf.q.c;
            p.s = after.xf.q.s;
            const Vec2 from = c.p;
            c.p = carried;
            const std::string stepped =
                where + " moved by " + describe(walk) + " to " + describe(from) + ", ground " +
                std::to_string(r.ground.index) + ", rode to " + describe(c.p) + ", platform to " +
                describe(p.p) + " angle " + std::to_string(std::atan2(p.s, p.c));
            ASSERT_LE(worst_wall(c.at()), touch) << stepped << ": carried into a wall";
            if (r.ground == platform && w == 0) {
                // A rider the carry takes all the way moves with the platform.
                if (length(c.p - (from + platform_moved)) <= real(1e-3)) {
                    ASSERT_LE(depth(c.at(), p.at()), touch) << stepped << ": inside the platform";
                }
                ++rides;
                // Carried by the platform's translation unless a wall stopped it.
                const Convex goal = placed(c.shape, c.c, c.s, from + platform_moved);
                real nearest = std::numeric_limits<real>::max();
                for (const Piece& s : level.statics) {
                    nearest = std::min(nearest, separation(goal, s.at()));
                }
                if (nearest > level.world.tolerances().linear_slop) {
                    ASSERT_LE(length(c.p - (from + platform_moved)), real(1e-3))
                        << stepped << ": carried to " << describe(c.p) << ", not by "
                        << describe(platform_moved);
                }
            } else if (!(r.ground == platform)) {
                ASSERT_EQ(c.p, from) << stepped << ": carried without standing on the platform";
            }
        }
    }
    EXPECT_GT(rides, test::property_cases(150) * 10); // (the test rides)
    std::cout << rides << " rides, " << wedged << " wedged\n";
}

// ---------------------------------------------------------------------------
// Push-out

// Characters of every shape created at random points of free cells of a
// tile map (so most overlap a tile or two), each moved once by a random
// step with a random response per tile (`mixed`), else sliding on all;
// characters ignore one another. What is asserted:
// - the move starts overlapping (started_overlapping) when the referee
//   finds the character more than 2 touch tolerances inside a tile it
//   slides on, touches or bounces off, and only when it finds it inside
//   something (more than half a touch tolerance);
// - the push (pushout) is no longer than the character's size (twice its
//   reach from its origin): a way out, not a throw back along the motion
//   (the sum of the overlaps' own depths does not bound it: clearing two
//   tiles at once along one direction may take more, 4.42 L for 4.16);
// - after the push, a move with no bounce never goes back along its motion;
// - the move ends no deeper than the touch tolerance in any blocking tile
//   (the character's centre is in a free cell, so there is room for it:
//   every character fits in a cell).
// What is wrong with the move of `c` (where it ended) from `from` by `d`,
// which blocks on the statics `blocking` says, given its depths at the
// start: empty when nothing.
std::string judge_push(const Level& level, const Piece& c, Vec2 from, Vec2 d, const MoveResult& r,
                       const std::function<bool(BodyId)>& blocking) {
    const real touch = level.world.tolerances().touch_tolerance;
    const Convex was = placed(c.shape, c.c, c.s, from);
    real deepest = 0;
    for (const Piece& s : level.statics) {
        if (blocking(s.id) && boxes_meet(bounds(was), bounds(s.at()), touch)) {
            deepest = std::max(deepest, depth(was, s.at()));
        }
    }
    std::ostringstream out;
    out.precision(9);
    if (deepest > 2 * touch && !r.started_overlapping) {
        out << deepest << " L inside but not pushed out";
        return out.str();
    }
    if (r.started_overlapping && deepest <= touch / 2) {
        out << "pushed out of nothing (" << deepest << " L deep)";
        return out.str();
    }
    // The character lies within `reach` of its origin.
    real reach = 0;
    for (int k = 0; k < was.count; ++k) {
        reach =
            std::max(reach, length(was.points[static_cast<std::size_t>(k)] - from) + was.radius);
    }
    if (length(r.pushout) > 2 * reach) {
        out << "pushed " << length(r.pushout) << " L, more than its size " << 2 * reach;
        return out.str();
    }
    const bool bounced =
        std::any_of(r.contacts.begin(), r.contacts.end(),
                    [](const MoveContact& k) { return k.response == MoveResponse::bounce; });
    if (!bounced && dot(r.position - (from + r.pushout), d) < -real(1e-4) * length(d)) {
        return "went back along its motion";
    }
    for (const Piece& s : level.statics) {
        if (blocking(s.id) && depth(c.at(), s.at()) > touch) {
            out << "ends " << depth(c.at(), s.at()) << " L inside " << describe(s);
            return out.str();
        }
    }
    return {};
}

// The move of `mover` from `from` by `d` among `others` (statics, each
// with the mover's response) in a fresh world: what judge_push says.
std::string replay_push(const Piece& mover, Vec2 from, Vec2 d, const std::vector<Other>& others,
                        MoveResult* result = nullptr) {
    Level level;
    std::vector<MoveResponse> by_body;
    for (const Other& o : others) {
        level.add_static(o.piece.shape, o.piece.p, o.piece.angle);
        by_body.resize(static_cast<std::size_t>(level.statics.back().id.index + 1));
        by_body.back() = o.response;
    }
    level.add_character(mover.shape, from, mover.angle);
    const auto response = [&](BodyId other) {
        return static_cast<std::size_t>(other.index) < by_body.size()
                   ? by_body[static_cast<std::size_t>(other.index)]
                   : MoveResponse::ignore;
    };
    Piece& c = level.characters[0];
    const MoveResult r = level.world.move(c.id, d, response).value();
    c.p = r.position;
    if (result) {
        *result = r;
    }
    return judge_push(level, c, from, d, r, [&](BodyId id) { return blocks(response(id)); });
}

// Characters of every shape created at random points of free cells of a
// tile map (so most overlap a tile or two), each moved once by a random
// step with a random response per tile (`mixed`), else sliding on all;
// characters ignore one another. What judge_push asserts:
// - the move starts overlapping (started_overlapping) when the referee
//   finds the character more than 2 touch tolerances inside a tile it
//   slides on, touches or bounces off, and only when it finds it inside
//   something (more than half a touch tolerance);
// - the push (pushout) is no longer than the character's size (it fits in
//   the free cell its centre is in): it is a way out, not a throw;
// - after the push, a move with no bounce never goes back along its
//   motion, and it ends no deeper than the touch tolerance in any blocking
//   tile, among one tile or several (the PushOut reproductions at the end).
// A failure prints its reduction: the fewest tiles that still fail.
void push_out_everything(unsigned seed, bool mixed) {
    std::vector<Vec2> free_cells;
    Level level = make_level(seed, 20, real(0.45), 0, &free_cells, true);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<real> unit(0, 1);
    const int count = test::property_cases(1000);
    for (int i = 0; i < count; ++i) {
        const Vec2 cell = free_cells[static_cast<std::size_t>(i) % free_cells.size()];
        const real size = 3 + 4 * unit(rng);
        const auto [shape, angle] = make_character(i % 7, size, rng);
        const Vec2 p =
            cell + Vec2{(2 * unit(rng) - 1) * k_tile / 2, (2 * unit(rng) - 1) * k_tile / 2};
        level.add_character(shape, p, angle);
    }
    Responses responses(level, seed);
    if (!mixed) {
        for (std::vector<MoveResponse>& row : responses.of) {
            std::fill(row.begin(), row.end(), MoveResponse::slide);
        }
    }
    const std::int32_t first_character = level.characters.front().id.index;
    int pushed = 0;
    for (std::size_t i = 0; i < level.characters.size(); ++i) {
        Piece& c = level.characters[i];
        const auto response = [&](BodyId other) {
            return other.index >= first_character ? MoveResponse::ignore : responses(i, other);
        };
        const Vec2 from = c.p;
        const real a = 2 * k_pi * unit(rng);
        const Vec2 d = (real(0.1) + 12 * unit(rng)) * Vec2{std::cos(a), std::sin(a)};
        const MoveResult r = level.world.move(c.id, d, response).value();
        c.p = r.position;
        const std::string what =
            judge_push(level, c, from, d, r, [&](BodyId id) { return blocks(response(id)); });
        if (!what.empty()) {
            // Reduce: the tiles near the move, dropped one at a time.
            const Aabb reach = bounds(swept(placed(c.shape, c.c, c.s, from), d));
            std::vector<Other> others;
            for (const Piece& s : level.statics) {
                if (boxes_meet(reach, bounds(s.at()), k_tile)) {
                    others.push_back({s, true, response(s.id)});
                }
            }
            for (std::size_t k = others.size(); k-- > 0;) {
                const Other dropped = others[k];
                others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
                if (replay_push(c, from, d, others).empty()) {
                    others.insert(others.begin() + static_cast<std::ptrdiff_t>(k), dropped);
                }
            }
            MoveResult reduced;
            std::cout.precision(9);
            std::cout << "reduced:\n  mover " << describe(c.shape) << " at " << describe(from)
                      << " angle " << c.angle << "\n  moved by " << describe(d) << "\n";
            for (const Other& o : others) {
                std::cout << "  static " << name(o.response) << " " << describe(o.piece) << "\n";
            }
            std::cout << "  " << replay_push(c, from, d, others, &reduced) << "\n  "
                      << describe_result(reduced) << "\n";
        }
        ASSERT_TRUE(what.empty()) << "seed " << seed << " character " << i << " "
                                  << describe(c.shape) << " at " << describe(from) << " angle "
                                  << c.angle << " moved by " << describe(d) << ": " << what
                                  << "\n  " << describe_result(r);
        pushed += r.started_overlapping ? 1 : 0;
    }
    std::cout << pushed << " pushed out\n";
}

TEST(MoveResponseProperty, CharactersCreatedInsideTilesArePushedOutOnceAndEndOutside) {
    for (unsigned seed = 31; seed <= 33; ++seed) {
        push_out_everything(seed, false);
        ASSERT_FALSE(HasFailure());
    }
}

TEST(MoveResponseProperty, PushOutHonoursEveryResponse) {
    for (unsigned seed = 41; seed <= 43; ++seed) {
        push_out_everything(seed, true);
        ASSERT_FALSE(HasFailure());
    }
}

// ---------------------------------------------------------------------------
// Reproductions of what the tests above found (L = 16: touch tolerance
// 0.02 L), each one move in a fresh world.

// The depth the referee finds `mover` (shape, at `p`, turned by `angle`) in
// `other`, after a move in a fresh world of `statics` and the kinematic
// `other` (at `other_p`, turned by `other_angle`).
real depth_after_move(const Shape& mover, Vec2 p, real angle, Vec2 d, const Shape& other,
                      Vec2 other_p, real other_angle, std::initializer_list<Shape> statics,
                      std::initializer_list<Vec2> static_at, MoveResult* result = nullptr) {
    Level level;
    auto at = static_at.begin();
    for (const Shape& s : statics) {
        level.add_static(s, *at++);
    }
    level.add_character(other, other_p, other_angle);
    level.add_character(mover, p, angle);
    Piece& c = level.characters[1];
    const MoveResult r = level.world.move(c.id, d).value();
    c.p = r.position;
    if (result) {
        *result = r;
    }
    return depth(c.at(), level.characters[0].at());
}

// Found by the carry test: a rider that fell off a turning platform stands
// against a wall (its right face on the wall's x = 176) when the
// platform's end, tilted 27 degrees, comes down on it: the platform's
// bottom-right corner region is 0.114 L inside the rider's top-left
// corner. A push of 0.25 L straight down frees it. The push-out before
// src/push_out.hpp left it 0.071 L inside the platform: it pushed along one
// manifold's normal per pass, up to 4 passes: the platform's end face normal (0.888, -0.459) by
// 0.114 takes the rider 0.10 L into the wall, the wall's pass pushes it back left, and so on:
// alternating projections between two faces 117 degrees apart shrink the overlap by only 1 -
// 0.459^2 = 0.79 per pair of passes (about 15 passes to get within the touch tolerance), so the 4th
// pass (the wall's) leaves 0.071 L. The least push out of both at once is (0, -0.25).
TEST(MoveResponseRepro, PushOutBetweenAWallAndATiltedPlatformFreesTheRiderOfBoth) {
    MoveResult r;
    const real deep = depth_after_move(
        make_box(2.26481462f, 2.10766602f).value(), {173.891266f, 71.3526611f}, 1.57032728f,
        {-0.799450099f, -0.5f}, make_box(35.2412262f, 4.39040613f).value(),
        {138.856995f, 86.4140167f}, -0.476989985f,
        {make_box(8, 8).value(), make_box(8, 8).value(), make_box(8, 8).value()},
        {{184, 56}, {184, 72}, {184, 88}}, &r);
    EXPECT_LE(deep, real(0.02)) << describe_result(r);
}

// Found by the push-out test: a capsule created with its lower half 4.85 L
// deep in a tile, just above the tile's top-right corner, where the tile's
// diagonal neighbour (up and right, sharing that corner) begins; it fits
// in the free cell above the first tile (5.03 L straight up frees it). The
// push-out before src/push_out.hpp left it 3.38 L inside: it pushed out of
// the deepest overlap alone each pass, along its manifold's normal: out of the first tile to the
// right along the capsule's side normal (0.987, 0.163) by 4.85 L (its least
// translation, shorter than the 5.03 L up), which puts the capsule's top
// 4.8 L into the neighbour, whose pass pushes it back left; the passes
// alternate along one line in opposite directions and the 4th leaves a net
// push of 1.47 L, 3.38 L short.
TEST(MoveResponseRepro, PushOutOfATileBesideItsDiagonalNeighbourFreesTheCapsuleOfBoth) {
    const std::string what =
        replay_push(Piece{{},
                          make_capsule({0, -3.90016031f}, {0, 3.90016031f}, 1.69188261f).value(),
                          3.30527115f,
                          1,
                          0,
                          {}},
                    {284.714508f, 288.505981f}, {6.77105856f, -0.00826104358f},
                    {Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {280, 280}}},
                     Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {296, 296}}}});
    EXPECT_EQ(what, "");
}

// Found by the push-out test: a box turned 90 degrees (7.5 L wide, 10.3 L
// tall) created in an inner corner (a floor of two flush tiles, a wall
// tile on the right one), 4.3 L into the floor's left tile and 3.2 L into
// the wall; the free cell it is in has room (3.2 L left and 4.4 L up frees
// it). The push-out before src/push_out.hpp left it 7.5 L inside the
// floor's right tile: it took each tile alone and knew nothing of seams:
// pass 1 pushes the box 4.3 L right, out of the left floor
// tile through its right face, which is covered by the right floor tile
// (an inner face, docs/conventions.md "Seams"), into the corner; pass 2
// pushes it 5.9 L down out of the wall, wholly into the right floor tile;
// passes 3 and 4 push it 7.5 L left and back.
TEST(MoveResponseRepro, PushOutOfABoxInAnInnerCornerLeavesByTheCorner) {
    const std::string what =
        replay_push(Piece{{}, make_box(5.14845181f, 3.76549172f).value(), 4.71276331f, 1, 0, {}},
                    {159.45787f, 240.704407f}, {-9.20899296f, -7.30639935f},
                    {Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {152, 232}}},
                     Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {168, 232}}},
                     Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {168, 248}}}});
    EXPECT_EQ(what, "");
}

// Found by the push-out test: a capsule tilted 10 degrees created 2.75 L
// deep in a floor of two flush tiles, its foot on the seam (x = 128), then
// moved down. The push-out before src/push_out.hpp left it 2.75 L inside,
// and the move 0.28 L higher than the push left it: back along its motion.
// It took the tiles alone: pass 1 pushes it
// 3.74 L left, out of the right tile through its covered left face (the
// seam), into the left tile; pass 2 pushes it back right along its own
// side normal (0.98, 0.18), and so on; the floor's top (the way out) is
// never taken and the net push is (-0.69, 1.14). The move then starts
// inside the floor, and its slide, measuring the floor from inside
// (separation -2.75, normal up), lifts it 0.28 L against its motion.
TEST(MoveResponseRepro, PushOutAtTheSeamOfTwoFloorTilesLiftsTheCapsuleOutOfTheFloor) {
    const std::string what =
        replay_push(Piece{{},
                          make_capsule({0, -2.63920403f}, {0, 2.63920403f}, 1.38675654f).value(),
                          0.181281582f,
                          1,
                          0,
                          {}},
                    {129.875732f, 272.094177f}, {-1.6110661f, -10.2684689f},
                    {Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {120, 264}}},
                     Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {136, 264}}}});
    EXPECT_EQ(what, "");
}

// Found by the push-out test once it judged several tiles: a triangle
// pushed out of a wall of two flush tiles (left, onto the wall's face
// x = 160, its tip 0.05 L above the seam at y = 192) then moved into the
// wall and down. The lower tile's corner, under the tip, met the
// triangle's lower edge over a sliver (two manifold points 0.024 L apart):
// with the larger surface area it led the wall's face, and the slide
// along its plane took the triangle back up and left, against its motion.
// A surface no longer than the linear slop is a corner's now (mover.cpp,
// leads): the wall leads and the triangle slides down it.
TEST(MoveResponseRepro, ASliverOfAFaceAtASeamDoesNotLeadTheWall) {
    const std::string what =
        replay_push(Piece{{},
                          polygon({{-5.01541615f, -1.3214978f},
                                   {2.60194898f, -4.48671579f},
                                   {0.789084375f, 5.12621737f}}),
                          2.75606012f,
                          1,
                          0,
                          {}},
                    {156.692993f, 192.711197f}, {10.712925f, -4.73897457f},
                    {Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {168, 184}}},
                     Other{Piece{{}, make_box(8, 8).value(), 0, 1, 0, {168, 200}}}});
    EXPECT_EQ(what, "");
}

// Found by the shapes test: an upright capsule moving right and down
// meets the upper end of a segment leaning 2.5 degrees from upright. The
// manifold of shapes that nearly parallel (within 3 degrees) puts two
// points on the segment's normal, though they touch where the capsule's
// side meets the segment's end; the slide along that normal took the
// capsule 0.076 L into the end. The normal a move takes is the cores'
// where they lie apart along another (move_narrowphase.cpp,
// contact_normal), here level, and the capsule slides straight down past
// the end.
TEST(MoveResponseRepro, ACapsuleSlidingPastTheEndOfANearlyParallelSegmentStaysOutOfIt) {
    MoveResult r;
    const std::string what = replay_filtered(
        Piece{{},
              make_capsule({0, -2.23090005f}, {0, 2.23090005f}, 2.21428227f).value(),
              0,
              1,
              0,
              {}},
        {120.524689f, 358.292236f}, {0.917050362f, -6.04620695f},
        {Other{Piece{{}, Segment{{12.1195459f, 0}, {11.4248495f, 16}}, 0, 1, 0, {112, 336}}}}, &r);
    EXPECT_EQ(what, "") << describe_result(r);
    ASSERT_EQ(r.contacts.size(), 1u);
    EXPECT_NEAR(r.contacts[0].normal.x, -1, 1e-5f);
}

// Found hunting the filtered wander at other seeds (2935): a touch that
// ended 4.8 L from what it touched. A triangle 0.0185 L from a segment's
// end (a touching start) moves nearly along the face it meets there, 0.00025
// of its length into it. The closing, which brings the lead to touching
// along the motion, ran the whole motion (4.9 L) to close so slow an
// approach, and carried the triangle off the segment's end; the touch then
// ended the move there. A lead that does not slide now closes no farther
// than its ties' gaps and half a touch tolerance, as beside a corner.
TEST(MoveResponseRepro, ATouchNearlyAlongTheFaceItMeetsEndsTouchingIt) {
    MoveResult r;
    const std::string what = replay_filtered(
        Piece{{},
              polygon({{-4.74775028f, 2.40913653f},
                       {0.182622641f, -5.32087612f},
                       {4.47631168f, 2.88230896f}}),
              3.22798371f,
              1,
              0,
              {}},
        {174.314697f, 202.774063f}, {2.9785223f, -3.88250875f},
        {Other{Piece{{}, Segment{{13.7424536f, 0}, {12.6776066f, 16}}, 0, 1, 0, {160, 208}}, true,
               MoveResponse::touch}},
        &r);
    EXPECT_EQ(what, "") << describe_result(r);
    ASSERT_EQ(r.contacts.size(), 1u);
    EXPECT_EQ(r.contacts[0].response, MoveResponse::touch);
    EXPECT_LT(length(r.position - Vec2{174.314697f, 202.774063f}), real(0.03));
}

// Found by the one-way test in double: a box landing on a one-way polyline
// (a valley of two segments) slides down one segment into the joint, where
// its corner meets the other segment's end. The cast took that for a
// landing, but the manifold at the contact pose runs between the corners,
// 68 degrees from up, and the move reported it, and stopped on it, as a
// one-way contact that is no landing. Such a contact is the landing on the
// platform's face nearest up (mover.cpp, landing_normal).
TEST(MoveResponseRepro, AOneWayContactAtAPolylinesJointIsALanding) {
    WorldDef def;
    def.length_units_per_meter = k_tile;
    World world = std::move(World::make(def).value());
    BodyDef platform;
    platform.position = {160.861236f, 216.074867f};
    platform.angle = 0.0972168679f;
    const Vec2 v0{34.519561f, -7.13586257f};
    const Vec2 v1{17.2597805f, -10.8982204f};
    const Vec2 v2{0, -1.89917152f};
    const Vec2 v3{-17.2597805f, -3.96887288f};
    const Vec2 v4{-34.519561f, 0};
    const std::vector<ShapeDef> segments{{ChainSegment{v0, {v0, v1}, v2}, {}},
                                         {ChainSegment{v0, {v1, v2}, v3}, {}},
                                         {ChainSegment{v1, {v2, v3}, v4}, {}},
                                         {ChainSegment{v2, {v3, v4}, v4}, {}}};
    const BodyId id = world.create_body(platform, segments).value();
    BodyDef mover;
    mover.type = BodyType::kinematic;
    mover.position = {171.27874f, 215.000407f};
    mover.angle = 2.6772162f;
    const ShapeDef box{make_box(5.09057185f, 2.53893058f).value(), {}};
    const BodyId c = world.create_body(mover, std::span(&box, 1)).value();
    const MoveResult r =
        world.move(c, {3.02668995f, -29.7169896f}, [](BodyId) { return MoveResponse::one_way; })
            .value();
    const Vec2 up = rotate(Rot::from_angle(platform.angle), Vec2{0, 1});
    ASSERT_FALSE(r.contacts.empty());
    for (const MoveContact& k : r.contacts) {
        EXPECT_TRUE(k.other == id);
        EXPECT_GE(dot(k.normal, up), k_ground_cosine) << describe_result(r);
    }
}

} // namespace
} // namespace sweep
