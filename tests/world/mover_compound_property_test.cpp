// World::move with characters of several shapes (fixed seeds): bodies of
// two or three shapes set off their origins (offset and turned boxes,
// discs and capsules off centre, rounded boxes), turned at any angle, one
// in four also carrying a sensor disc wider than itself (a pickup's
// reach), wandering among box tiles, slopes, two-sided segments and one
// another, with steps from a slop to several tiles long. After every move:
// - MoveResult's contract holds (referee::contract_broken), and only a
//   pair with a sensor in it (of the mover's or the other's) is crossed;
// - no solid shape of the mover ends deeper than the touch tolerance in a
//   static shape or a solid shape of another character (a sensor never
//   blocks), or, where it began deeper in one, deeper than it began;
// - a move that met nothing went straight: the hull each shape sweeps
//   enters nothing beyond the touch tolerance.
// The referee (mover_referee.hpp) is independent of the library's geometry.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "mover_referee.hpp"
#include "property.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

using namespace referee;

// A character of several shapes, as the referee sees it.
struct Compound {
    BodyId id;
    std::vector<Shape> shapes; // its solid shapes, in the body's frame
    bool sensor = false;       // and a sensor disc about its origin
    real c = 1;                // the body's rotation, as the world holds it
    real s = 0;
    Vec2 p; // where the test last saw it
    // Its solid shapes with its origin at `where`.
    std::vector<Convex> at(Vec2 where) const {
        std::vector<Convex> out;
        for (const Shape& shape : shapes) {
            out.push_back(placed(shape, c, s, where));
        }
        return out;
    }
};

struct Scene {
    World world = World::make().value();
    std::vector<Piece> statics;
    std::vector<Compound> characters;
};

real uniform(std::mt19937& rng, real lo, real hi) {
    return std::uniform_real_distribution<real>(lo, hi)(rng);
}

// One shape of a character, within about 0.45 L of the body's origin.
Shape part(std::mt19937& rng) {
    const Vec2 off{uniform(rng, -0.2f, 0.2f), uniform(rng, -0.2f, 0.2f)};
    switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
    case 0:
        return make_offset_box(uniform(rng, 0.08f, 0.25f), uniform(rng, 0.08f, 0.25f), off,
                               uniform(rng, -3, 3))
            .value();
    case 1:
        return make_circle(off, uniform(rng, 0.08f, 0.25f)).value();
    case 2:
        return make_capsule(off, off + Vec2{uniform(rng, -0.2f, 0.2f), uniform(rng, 0.05f, 0.2f)},
                            uniform(rng, 0.05f, 0.15f))
            .value();
    default:
        return make_rounded_box(uniform(rng, 0.08f, 0.2f), uniform(rng, 0.08f, 0.2f),
                                uniform(rng, 0.02f, 0.05f))
            .value();
    }
}

// The deepest any of `shapes` (placed) reaches into a static shape or a
// solid shape of a character other than `skip` (L, >= 0).
real deepest(const Scene& scene, const std::vector<Convex>& shapes, std::size_t skip) {
    real deep = 0;
    for (const Convex& a : shapes) {
        const Aabb box = bounds(a);
        for (const Piece& s : scene.statics) {
            if (boxes_meet(box, bounds(s.at()), 0)) {
                deep = std::max(deep, depth(a, s.at()));
            }
        }
        for (std::size_t j = 0; j < scene.characters.size(); ++j) {
            if (j == skip) {
                continue;
            }
            for (const Convex& b : scene.characters[j].at(scene.characters[j].p)) {
                if (boxes_meet(box, bounds(b), 0)) {
                    deep = std::max(deep, depth(a, b));
                }
            }
        }
    }
    return deep;
}

// A room 24 tiles wide with walls, a quarter of its cells solid (a box, or
// now and then a slope), a few two-sided segments, and `count` characters
// placed clear of everything.
Scene make_scene(unsigned seed, int count) {
    std::mt19937 rng(seed);
    Scene scene;
    constexpr int k_side = 24;
    const Shape tile = make_box(0.5f, 0.5f).value();
    for (int y = 0; y < k_side; ++y) {
        for (int x = 0; x < k_side; ++x) {
            const bool wall = x == 0 || y == 0 || x == k_side - 1 || y == k_side - 1;
            const real roll = uniform(rng, 0, 1);
            if (wall || roll < 0.2f) {
                scene.statics.push_back(
                    add_piece(scene.world, tile, {x + 0.5f, y + 0.5f}, 0, BodyType::static_body));
            } else if (roll < 0.25f) {
                scene.statics.push_back(add_piece(
                    scene.world, cell_slope(1, std::uniform_int_distribution<int>(0, 3)(rng)),
                    {real(x), real(y)}, 0, BodyType::static_body));
            }
        }
    }
    for (int i = 0; i < 6; ++i) {
        const Vec2 a{uniform(rng, 2, 22), uniform(rng, 2, 22)};
        const Vec2 b = a + Vec2{uniform(rng, -2, 2), uniform(rng, -2, 2)};
        if (const auto segment = make_segment(a, b)) {
            scene.statics.push_back(add_piece(scene.world, *segment, {}, 0, BodyType::static_body));
        }
    }
    const real clear = 2 * scene.world.tolerances().linear_slop;
    for (int tries = 0; static_cast<int>(scene.characters.size()) < count && tries < 1000;
         ++tries) {
        Compound c;
        for (int k = std::uniform_int_distribution<int>(2, 3)(rng); k > 0; --k) {
            c.shapes.push_back(part(rng));
        }
        const real angle = uniform(rng, -3.14f, 3.14f);
        c.p = {uniform(rng, 1.5f, 22.5f), uniform(rng, 1.5f, 22.5f)};
        c.c = std::cos(angle);
        c.s = std::sin(angle);
        std::vector<Convex> shapes = c.at(c.p);
        // (Grown by a margin so that the world's rotation, a rounding off
        // the referee's, cannot place it touching.)
        for (Convex& x : shapes) {
            x.radius += clear;
        }
        if (deepest(scene, shapes, scene.characters.size()) > 0) {
            continue;
        }
        std::vector<ShapeDef> defs;
        for (const Shape& shape : c.shapes) {
            defs.emplace_back(shape);
        }
        c.sensor = std::uniform_int_distribution<int>(0, 3)(rng) == 0;
        if (c.sensor) {
            ShapeDef reach(make_circle({}, 0.7f).value());
            reach.sensor = true;
            defs.push_back(reach);
        }
        BodyDef def;
        def.type = BodyType::kinematic;
        def.position = c.p;
        def.angle = angle;
        c.id = scene.world.create_body(def, defs).value();
        const Rot q = scene.world.body_state(c.id).value().xf.q;
        c.c = q.c;
        c.s = q.s;
        scene.characters.push_back(c);
    }
    return scene;
}

// What of the checks above move `r` of character i from `from` by `d`
// breaks (empty: nothing).
std::string judge(const Scene& scene, std::size_t i, Vec2 from, Vec2 d, const MoveResult& r) {
    const std::string broken = contract_broken(scene, i, from, d, r, false);
    if (!broken.empty()) {
        return broken;
    }
    const Compound& c = scene.characters[i];
    for (const MoveContact& k : r.contacts) {
        const auto other = std::find_if(scene.characters.begin(), scene.characters.end(),
                                        [&](const Compound& o) { return o.id == k.other; });
        const bool sensor = c.sensor || (other != scene.characters.end() && other->sensor);
        if (k.response == MoveResponse::cross && !sensor) {
            return "crossed body " + std::to_string(k.other.index) + ", no sensor in the pair";
        }
    }
    const real touch = scene.world.tolerances().touch_tolerance;
    const real began = deepest(scene, c.at(from), i);
    const real ended = deepest(scene, c.at(r.position), i);
    if (ended > std::max(touch, began) * (1 + real(1e-3)) + real(1e-6)) {
        return "ended " + std::to_string(ended) + " L deep, began " + std::to_string(began);
    }
    if (r.contacts.empty() && !r.started_overlapping) {
        std::vector<Convex> hulls;
        for (const Convex& a : c.at(from)) {
            hulls.push_back(swept(a, r.position - from));
        }
        const real passed = deepest(scene, hulls, i);
        if (passed > touch * (1 + real(1e-3)) + real(1e-6)) {
            return "met nothing, but its path went " + std::to_string(passed) + " L deep";
        }
    }
    return {};
}

void wander(unsigned seed, int frames, real step) {
    Scene scene = make_scene(seed, 16);
    ASSERT_EQ(scene.characters.size(), 16u);
    std::mt19937 rng(seed + 1000);
    std::uniform_real_distribution<real> along(-step, step);
    for (int frame = 0; frame < frames; ++frame) {
        for (std::size_t i = 0; i < scene.characters.size(); ++i) {
            Compound& c = scene.characters[i];
            const Vec2 from = c.p;
            // Now and then a step of a slop or less: a character pressing on
            // what it touches.
            const real scale = frame % 7 == 0 ? scene.world.tolerances().linear_slop / step : 1;
            const Vec2 d = scale * Vec2{along(rng), along(rng)};
            const MoveResult r = scene.world.move(c.id, d).value();
            c.p = r.position;
            const std::string what = judge(scene, i, from, d, r);
            ASSERT_TRUE(what.empty())
                << "seed " << seed << " frame " << frame << " character " << i << " from "
                << describe(from) << " by " << describe(d) << " (" << r.contacts.size()
                << " contacts" << (r.started_overlapping ? ", pushed out" : "") << "): " << what;
        }
    }
}

TEST(MoveCompoundProperty, CharactersOfSeveralShapesNeverEndInsideAnything) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        wander(seed, test::property_cases(150), real(0.6));
    }
}

TEST(MoveCompoundProperty, LongStepsOfCharactersOfSeveralShapesNeverPassThrough) {
    for (unsigned seed = 11; seed <= 13; ++seed) {
        wander(seed, test::property_cases(60), 6);
    }
}

} // namespace
} // namespace sweep
