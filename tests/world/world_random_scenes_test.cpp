// Random scenes (issue 5): after every World::step no body has tunneled and no
// pair overlaps deeper than two linear slops.
//
// Each case is one seed. Its scene is a closed room (four static boxes, or a
// clockwise chain loop), sometimes split by partitions that span it wall to
// wall (a 0.1 L box, a row of separate box tiles, a two-sided segment), with
// static obstacles inside (boxes, rotated convex polygons, thin rotated boxes,
// counter-clockwise chain loops, closed outlines of segments), and 4 to 30
// dynamic circles, boxes, convex polygons and capsules of 0.1 to 1 L, moving
// at up to 200 L/s and spinning at up to 40 rad/s, with random materials, at
// 60 or 30 Hz, with or without substeps. Some regimes add 1 to 3 kinematic
// bodies spinning at 2 to 30 rad/s (thin bars, boxes, polygons), in place or
// moving to and fro at up to 60 L/s: the tips of a bar sweep farther in a
// step than the bar is thick.
//
// The referee shares no code with the solver. check::TunnelingChecker judges
// the axis-aligned boxes (and the solid behind a chain room's walls): a centre
// must never end inside them nor in another region of free space. The other
// static shapes are judged here with point arithmetic in double: a centre
// never changes side of a segment partition and never ends inside a polygon,
// a chain loop or a segment outline. An obstacle that splits no room could be
// crossed whole between two steps without the referee seeing it (a body going
// round it between two steps takes the same path from above); only the
// penetration bound covers that case. A spinning bar is judged in its own
// frame: a centre whose step met nothing else moved straight, and that
// straight path, seen from the turning bar, must not cross the bar's axis
// within its length.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "property.hpp"
#include "sweep/check/tunneling.hpp"
#include "sweep/manifold.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

using check::TunnelingChecker;

constexpr real k_max_speed = 200;           ///< L/s: many times a body's size per step
constexpr real k_max_spin = 40;             ///< rad/s
constexpr real k_thin = real(0.1);          ///< L: thin walls
constexpr real k_spawn_margin = real(0.05); ///< L: free space around a new body's AABB
constexpr int k_spawn_attempts = 300;

class Rng {
  public:
    explicit Rng(std::uint32_t seed) : engine_(seed) {}
    real uniform(real lo, real hi) {
        return lo + (hi - lo) * std::uniform_real_distribution<real>(0, 1)(engine_);
    }
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }

  private:
    std::mt19937 engine_;
};

// ---- The referee's own arithmetic (double, comparisons and cross products).

double cross(Vec2 o, Vec2 a, Vec2 b) {
    return (double(a.x) - o.x) * (double(b.y) - o.y) - (double(a.y) - o.y) * (double(b.x) - o.x);
}

/// Crossing-number test: true when `p` lies strictly inside the closed
/// polygon `loop` (any winding, convex or not).
bool inside_loop(const std::vector<Vec2>& loop, Vec2 p) {
    bool inside = false;
    for (std::size_t i = 0, j = loop.size() - 1; i < loop.size(); j = i++) {
        const Vec2 a = loop[i], b = loop[j];
        if ((a.y > p.y) != (b.y > p.y)) {
            const double x = a.x + (double(p.y) - a.y) * (double(b.x) - a.x) / (double(b.y) - a.y);
            inside = inside != (double(p.x) < x);
        }
    }
    return inside;
}

/// A closed outline whose inside no centre may reach: a static polygon, a
/// counter-clockwise chain loop, a ring of segments.
struct Outline {
    std::vector<Vec2> loop;
    std::string what;
};

/// A segment spanning its room wall to wall: a centre never changes side.
struct Partition {
    Vec2 p1, p2;
    std::string what;
};

/// Which side of `line` `p` is on: +1 left, -1 right, 0 on it.
int side_of(const Partition& line, Vec2 p) {
    const double c = cross(line.p1, line.p2, p);
    return (c > 0) - (c < 0);
}

// ---- The scene.

/// Kinematic bodies in a scene (add_spinner): none, spinning in place, or
/// spinning while they move to and fro.
enum class Spinners { none, in_place, to_and_fro };

struct Regime {
    real hz = 60;
    int substeps = 1;
    int steps = 240;
    int solver_substeps = WorldDef{}.solver_substeps;
    int correction_rounds = WorldDef{}.correction_rounds;
    Spinners spinners = Spinners::none;
};

/// A body and its one shape (local frame), for messages and diagnostics.
struct Placed {
    BodyId id;
    Shape shape;
    std::string what;
};

struct Scene {
    Scene(std::uint32_t s, const Regime& r, World w) : seed(s), regime(r), world(std::move(w)) {}

    std::uint32_t seed = 0;
    Regime regime;
    World world;
    real half_w = 0, half_h = 0; ///< the room's interior is [-half_w, half_w] x [-half_h, half_h]
    std::vector<Aabb> checker_boxes; ///< the solid the raster checker sees
    std::vector<Aabb> keep_out;      ///< static pieces' AABBs, to spawn bodies clear of them
    std::vector<Outline> outlines;
    std::vector<Partition> partitions;
    std::vector<Placed> statics;
    std::vector<Placed> dynamics;
    std::vector<Placed> spinners; ///< kinematic
    std::vector<real> bar_half;   ///< each spinner's half length if a thin bar, else 0
    std::vector<Vec2> spinner_home; ///< where each spinner began
};

void add_static(Scene& scene, std::span<const Shape> shapes, const std::string& what) {
    std::vector<ShapeDef> defs;
    Rng rng(scene.seed ^ static_cast<std::uint32_t>(scene.statics.size() * 7919));
    for (const Shape& shape : shapes) {
        defs.emplace_back(shape, Material{1, rng.uniform(0, 1), rng.uniform(0, 1)});
    }
    const BodyId id = scene.world.create_body(BodyDef{}, defs).value();
    for (const Shape& shape : shapes) {
        scene.statics.push_back({id, shape, what});
        scene.keep_out.push_back(compute_aabb(shape, Transform{}));
    }
}

Aabb box_at(Vec2 lower, Vec2 upper) { return {lower, upper}; }

std::vector<Shape> chain_loop_shapes(const std::vector<Vec2>& points) {
    const auto chain = make_chain_loop(points);
    EXPECT_TRUE(chain.has_value());
    return chain ? std::vector<Shape>(chain->begin(), chain->end()) : std::vector<Shape>{};
}

void add_static_box(Scene& scene, Aabb box, const std::string& what) {
    const Vec2 c = center(box), h = real(0.5) * (box.upper - box.lower);
    const Shape shape = make_offset_box(h.x, h.y, c, 0).value();
    add_static(scene, std::span(&shape, 1), what);
    scene.checker_boxes.push_back(box);
}

// The room: four boxes (0.5 L, or thin), or a clockwise chain loop with
// extra vertices along its sides; behind a chain is solid for the referee.
void add_container(Scene& scene, Rng& rng) {
    const real w = scene.half_w, h = scene.half_h;
    if (rng.chance(0.6)) {
        const real t = rng.chance(0.3) ? k_thin : real(0.5);
        add_static_box(scene, box_at({-w - t, -h - t}, {w + t, -h}), "floor");
        add_static_box(scene, box_at({-w - t, h}, {w + t, h + t}), "ceiling");
        add_static_box(scene, box_at({-w - t, -h}, {-w, h}), "left wall");
        add_static_box(scene, box_at({w, -h}, {w + t, h}), "right wall");
        return;
    }
    // Clockwise (a room): up the left side, along the top, down the right.
    std::vector<Vec2> points;
    const auto side = [&](Vec2 from, Vec2 to) {
        const int pieces = rng.integer(1, 4);
        for (int i = 0; i < pieces; ++i) {
            points.push_back(from + (real(i) / real(pieces)) * (to - from));
        }
    };
    side({-w, -h}, {-w, h});
    side({-w, h}, {w, h});
    side({w, h}, {w, -h});
    side({w, -h}, {-w, -h});
    const std::vector<Shape> shapes = chain_loop_shapes(points);
    add_static(scene, shapes, "room chain");
    scene.keep_out.resize(scene.keep_out.size() - shapes.size()); // the room is not in the way
    const real t = 1;
    scene.checker_boxes.push_back(box_at({-w - t, -h - t}, {w + t, -h}));
    scene.checker_boxes.push_back(box_at({-w - t, h}, {w + t, h + t}));
    scene.checker_boxes.push_back(box_at({-w - t, -h}, {-w, h}));
    scene.checker_boxes.push_back(box_at({w, -h}, {w + t, h}));
}

// A partition across the room at `at` (y for a horizontal one, x for a
// vertical one), its ends on the walls.
void add_partition(Scene& scene, Rng& rng, bool horizontal, real at) {
    const real w = scene.half_w, h = scene.half_h;
    // Build it horizontal in (u, v) = (along, across), then place it.
    const real half_len = horizontal ? w : h;
    const auto place = [&](real u, real v) { return horizontal ? Vec2{u, v} : Vec2{v, u}; };
    const auto place_box = [&](real u0, real v0, real u1, real v1) {
        return Aabb{min(place(u0, v0), place(u1, v1)), max(place(u0, v0), place(u1, v1))};
    };
    const std::string name = horizontal ? "horizontal " : "vertical ";
    const int kind = rng.integer(0, 2);
    if (kind == 0) {
        add_static_box(scene, place_box(-half_len, at - k_thin / 2, half_len, at + k_thin / 2),
                       name + "thin wall");
    } else if (kind == 1) {
        const int tiles = static_cast<int>(std::ceil(2 * half_len / rng.uniform(real(0.25), 1)));
        const real tile = 2 * half_len / real(tiles), thick = rng.uniform(k_thin, real(0.5));
        for (int i = 0; i < tiles; ++i) {
            const real u0 = -half_len + real(i) * tile;
            add_static_box(scene, place_box(u0, at - thick / 2, u0 + tile, at + thick / 2),
                           name + "tile " + std::to_string(i));
        }
    } else {
        const Shape shape = make_segment(place(-half_len, at), place(half_len, at)).value();
        add_static(scene, std::span(&shape, 1), name + "segment");
        scene.partitions.push_back({shape.segment.p1, shape.segment.p2, name + "segment"});
    }
}

/// Counter-clockwise points around `c`: `count` angles jittered from a
/// regular polygon, radii in [0.5, 1] x `size`.
std::vector<Vec2> star_points(Rng& rng, Vec2 c, real size, int count) {
    std::vector<Vec2> points;
    const real phase = rng.uniform(0, 2 * k_pi);
    for (int i = 0; i < count; ++i) {
        const real a =
            phase + (real(i) + rng.uniform(real(-0.3), real(0.3))) * 2 * k_pi / real(count);
        const real r = size * rng.uniform(real(0.5), 1);
        points.push_back(c + r * Vec2{std::cos(a), std::sin(a)});
    }
    return points;
}

// Its inside is off limits to new bodies too, not only its edges.
void add_outline(Scene& scene, const std::vector<Vec2>& loop, const std::string& what) {
    Aabb box{loop[0], loop[0]};
    for (const Vec2 p : loop) {
        box = {min(box.lower, p), max(box.upper, p)};
    }
    scene.keep_out.push_back(box);
    scene.outlines.push_back({loop, what});
}

std::vector<Vec2> polygon_loop(const Polygon& p) {
    return {p.vertices.begin(), p.vertices.begin() + p.count};
}

void add_obstacle(Scene& scene, Rng& rng, int index) {
    const Vec2 c{rng.uniform(-scene.half_w, scene.half_w),
                 rng.uniform(-scene.half_h, scene.half_h)};
    const std::string name = "obstacle " + std::to_string(index);
    switch (rng.integer(0, 4)) {
    case 0: { // an axis-aligned box, sometimes thin
        const real hx = rng.chance(0.3) ? k_thin / 2 : rng.uniform(real(0.1), 1);
        const real hy = rng.chance(0.3) ? k_thin / 2 : rng.uniform(real(0.1), 1);
        add_static_box(scene, {c - Vec2{hx, hy}, c + Vec2{hx, hy}}, name + " (box)");
        return;
    }
    case 1:   // a rotated convex polygon
    case 2: { // a thin rotated box
        const Polygon p =
            index % 2 || rng.chance(0.5)
                ? make_polygon(
                      star_points(rng, c, rng.uniform(real(0.3), real(1.5)), rng.integer(3, 8)))
                      .value()
                : make_offset_box(k_thin / 2, rng.uniform(real(0.5), 2), c, rng.uniform(0, k_pi))
                      .value();
        const Shape shape = p;
        add_static(scene, std::span(&shape, 1), name + " (polygon)");
        add_outline(scene, polygon_loop(p), name + " (polygon)");
        return;
    }
    case 3: { // a counter-clockwise chain loop: solid ground, maybe not convex
        const std::vector<Vec2> points =
            star_points(rng, c, rng.uniform(real(0.5), real(1.5)), rng.integer(4, 8));
        add_static(scene, chain_loop_shapes(points), name + " (chain loop)");
        add_outline(scene, points, name + " (chain loop)");
        return;
    }
    default: { // a ring of two-sided segments round a convex hull
        const Polygon hull =
            make_polygon(star_points(rng, c, rng.uniform(real(0.3), real(1.2)), rng.integer(3, 6)))
                .value();
        const std::vector<Vec2> loop = polygon_loop(hull);
        std::vector<Shape> shapes;
        for (std::size_t i = 0; i < loop.size(); ++i) {
            shapes.emplace_back(make_segment(loop[i], loop[(i + 1) % loop.size()]).value());
        }
        add_static(scene, shapes, name + " (segment ring)");
        add_outline(scene, loop, name + " (segment ring)");
        return;
    }
    }
}

/// A moving shape of 0.1 to 1 L across, of a random kind.
Placed random_dynamic_shape(Rng& rng) {
    const real size = rng.uniform(real(0.05), real(0.5)); // half its extent
    switch (rng.integer(0, 3)) {
    case 0:
        return {{}, Circle{{}, size}, "circle"};
    case 1:
        return {{}, make_box(size, rng.uniform(real(0.05), size)).value(), "box"};
    case 2: {
        const real radius = rng.chance(0.2) ? rng.uniform(0, size / 4) : 0;
        return {{},
                make_polygon(star_points(rng, {}, size, rng.integer(3, 8)), radius).value(),
                "polygon"};
    }
    default: {
        const real radius = rng.uniform(real(0.05), std::max(real(0.05), size / 2));
        const real half = std::max(real(0.01), size - radius);
        return {{}, make_capsule({-half, 0}, {half, 0}, radius).value(), "capsule"};
    }
    }
}

bool touches_any(const std::vector<Aabb>& boxes, const Aabb& box) {
    return std::any_of(boxes.begin(), boxes.end(), [&](const Aabb& b) {
        return b.lower.x <= box.upper.x && box.lower.x <= b.upper.x && b.lower.y <= box.upper.y &&
               box.lower.y <= b.upper.y;
    });
}

// Tries places until the body's AABB, grown by the margin, is inside the
// room and clear of every static piece and body placed so far.
void add_dynamic(Scene& scene, Rng& rng, std::vector<Aabb>& taken) {
    Placed placed = random_dynamic_shape(rng);
    const real speed =
        rng.chance(0.35) ? rng.uniform(60, k_max_speed) : rng.uniform(0, rng.chance(0.5) ? 60 : 10);
    const real heading = rng.uniform(0, 2 * k_pi);
    BodyDef def;
    def.type = BodyType::dynamic;
    def.linear_velocity = speed * Vec2{std::cos(heading), std::sin(heading)};
    def.angular_velocity = rng.uniform(-k_max_spin, k_max_spin);
    const Material material{rng.uniform(real(0.5), 2), rng.uniform(0, 1), rng.uniform(0, 1)};
    const Vec2 margin{k_spawn_margin, k_spawn_margin};
    for (int attempt = 0; attempt < k_spawn_attempts; ++attempt) {
        def.position = {rng.uniform(-scene.half_w, scene.half_w),
                        rng.uniform(-scene.half_h, scene.half_h)};
        def.angle = rng.uniform(0, 2 * k_pi);
        const Aabb box =
            compute_aabb(placed.shape, Transform{def.position, Rot::from_angle(def.angle)});
        const Aabb grown{box.lower - margin, box.upper + margin};
        const bool in_room = grown.lower.x > -scene.half_w && grown.upper.x < scene.half_w &&
                             grown.lower.y > -scene.half_h && grown.upper.y < scene.half_h;
        if (!in_room || touches_any(scene.keep_out, grown) || touches_any(taken, grown)) {
            continue;
        }
        const ShapeDef sd{placed.shape, material};
        placed.id = scene.world.create_body(def, std::span(&sd, 1)).value();
        taken.push_back(grown);
        scene.dynamics.push_back(placed);
        return;
    }
}

/// How far a spinner moving to and fro goes from its home (turn_spinners_back).
constexpr real k_spinner_travel = 1;

// A kinematic body spinning about its centre at 2 to 30 rad/s, where its
// turn keeps 1.5 L clear of every static piece: a thin bar (0.04 to 0.3 L
// thick, 0.8 to 3 L long), a box or a polygon; moving to and fro at 5 to 60
// L/s within k_spinner_travel of its home (and clear of static pieces by
// that much more) in Spinners::to_and_fro. Bodies are placed outside its
// turning circle.
void add_spinner(Scene& scene, Rng& rng, int index) {
    const bool moves = scene.regime.spinners == Spinners::to_and_fro;
    const real travel = moves ? k_spinner_travel : 0;
    const int kind = rng.integer(0, 2);
    const real half = rng.uniform(real(0.4), real(1.5));
    const Shape shape =
        kind == 0   ? Shape(make_box(half, rng.uniform(real(0.02), real(0.15))).value())
        : kind == 1 ? Shape(make_box(half, rng.uniform(real(0.1), half)).value())
                    : Shape(make_polygon(star_points(rng, {}, half, rng.integer(3, 8))).value());
    const real clear = real(1.5) * half + real(1.5) + travel;
    if (scene.half_w <= clear || scene.half_h <= clear) {
        return;
    }
    for (int attempt = 0; attempt < k_spawn_attempts; ++attempt) {
        const Vec2 c{rng.uniform(-scene.half_w + clear, scene.half_w - clear),
                     rng.uniform(-scene.half_h + clear, scene.half_h - clear)};
        if (touches_any(scene.keep_out, {c - Vec2{clear, clear}, c + Vec2{clear, clear}})) {
            continue;
        }
        BodyDef def;
        def.type = BodyType::kinematic;
        def.position = c;
        def.angle = rng.uniform(0, 2 * k_pi);
        def.angular_velocity = (rng.chance(0.5) ? 1 : -1) * rng.uniform(2, 30);
        if (moves) {
            const real heading = rng.uniform(0, 2 * k_pi);
            def.linear_velocity = rng.uniform(5, 60) * Vec2{std::cos(heading), std::sin(heading)};
        }
        const ShapeDef sd{shape, Material{1, rng.uniform(0, 1), rng.uniform(0, 1)}};
        const BodyId id = scene.world.create_body(def, std::span(&sd, 1)).value();
        const char* kinds[] = {" (bar)", " (box)", " (polygon)"};
        scene.spinners.push_back({id, shape, "spinner " + std::to_string(index) + kinds[kind]});
        scene.bar_half.push_back(kind == 0 ? half : 0);
        scene.spinner_home.push_back(c);
        // (> the box's half diagonal)
        const real turning = real(1.45) * half + k_spawn_margin + travel;
        scene.keep_out.push_back({c - Vec2{turning, turning}, c + Vec2{turning, turning}});
        return;
    }
}

Scene make_scene(std::uint32_t seed, const Regime& regime) {
    Rng rng(seed);
    WorldDef def;
    def.solver_substeps = regime.solver_substeps;
    def.correction_rounds = regime.correction_rounds;
    if (rng.chance(0.25)) {
        def.gravity = {0, 0}; // nothing settles: fast bodies keep bouncing
    }
    Scene scene(seed, regime, World::make(def).value());
    scene.half_w = rng.uniform(4, 7);
    scene.half_h = rng.uniform(3, 5);
    add_container(scene, rng);
    if (rng.chance(0.4)) {
        add_partition(scene, rng, true, rng.uniform(-scene.half_h / 2, scene.half_h / 2));
    }
    if (rng.chance(0.3)) {
        add_partition(scene, rng, false, rng.uniform(-scene.half_w / 2, scene.half_w / 2));
    }
    const int obstacles = rng.integer(1, 6);
    for (int i = 0; i < obstacles; ++i) {
        add_obstacle(scene, rng, i);
    }
    const int spinners = regime.spinners != Spinners::none ? rng.integer(1, 3) : 0;
    for (int i = 0; i < spinners; ++i) {
        add_spinner(scene, rng, i);
    }
    std::vector<Aabb> taken;
    const int bodies = rng.integer(4, 30);
    for (int i = 0; i < bodies; ++i) {
        add_dynamic(scene, rng, taken);
    }
    return scene;
}

// ---- Running a case.

// The raster must resolve the solid and the free space between: cells at
// most half the thinnest box, and half the narrowest slot between two
// boxes a body could fall into (a slot 0.149 L wide between an obstacle
// and a wall, cells of 0.1 L: no cell centre in it, so a body falling down
// it took the region of whichever free cell was nearest, first the room's,
// then the outside's, and the checker cried tunneling).
TunnelingChecker make_checker(const Scene& scene) {
    constexpr real k_smallest_body = real(0.1); // L, the least extent a body is made with
    real cell = real(0.25);
    for (const Aabb& b : scene.checker_boxes) {
        cell = std::min(cell, real(0.5) * std::min(b.upper.x - b.lower.x, b.upper.y - b.lower.y));
        for (const Aabb& o : scene.checker_boxes) {
            const real gap = std::max(o.lower.x - b.upper.x, o.lower.y - b.upper.y);
            if (gap >= k_smallest_body / 2) {
                cell = std::min(cell, real(0.5) * gap);
            }
        }
    }
    const Vec2 reach{scene.half_w + 2, scene.half_h + 2};
    return TunnelingChecker::make(scene.checker_boxes, {-reach, reach}, cell).value();
}

std::string describe(const Scene& scene, int step) {
    std::ostringstream out;
    out << "seed " << scene.seed << " (" << scene.regime.hz << " Hz, " << scene.regime.substeps
        << " substeps, " << scene.dynamics.size() << " bodies, room " << 2 * scene.half_w << " x "
        << 2 * scene.half_h << ") step " << step;
    return out.str();
}

std::string describe_body(const Scene& scene, std::size_t i, Vec2 from, Vec2 to) {
    const BodyState s = scene.world.body_state(scene.dynamics[i].id).value();
    const Aabb box = compute_aabb(scene.dynamics[i].shape, Transform{});
    std::ostringstream out;
    out << "body " << i << " (" << scene.dynamics[i].what << ", " << box.upper.x - box.lower.x
        << " x " << box.upper.y - box.lower.y << ") from (" << from.x << ", " << from.y << ") to ("
        << to.x << ", " << to.y << "), velocity (" << s.linear_velocity.x << ", "
        << s.linear_velocity.y << "), spin " << s.angular_velocity;
    return out.str();
}

/// What the referee says of a step from `from` to `to`: empty when fine.
std::string judge(const Scene& scene, const TunnelingChecker& checker, Vec2 from, Vec2 to) {
    const TunnelingChecker::Verdict verdict = checker.check_step(from, to);
    if (verdict != TunnelingChecker::Verdict::ok) {
        return std::string("the raster checker: ") + check::to_string(verdict);
    }
    for (const Outline& o : scene.outlines) {
        if (inside_loop(o.loop, to)) {
            return "ended inside " + o.what;
        }
    }
    for (const Partition& p : scene.partitions) {
        if (side_of(p, from) != side_of(p, to)) {
            return "crossed the " + p.what;
        }
    }
    return {};
}

/// Whether body i met nothing this step but spinner k (no time-of-impact
/// event, no hit with anything else): then its centre moved straight.
bool met_only(const Scene& scene, std::size_t i, std::size_t k) {
    const BodyId id = scene.dynamics[i].id;
    const BodyId spinner = scene.spinners[k].id;
    const StepEvents& events = scene.world.events();
    const bool event =
        std::any_of(events.time_of_impact.begin(), events.time_of_impact.end(),
                    [&](const TimeOfImpactEvent& e) { return e.body == id || e.other == id; });
    const bool hit = std::any_of(
        events.contact_hit.begin(), events.contact_hit.end(), [&](const ContactHitEvent& e) {
            return (e.body_a == id || e.body_b == id) && e.body_a != spinner && e.body_b != spinner;
        });
    return !event && !hit;
}

/// Which spinning bar, if any, body i's centre crossed in a step from
/// `from` to `to` (world) of dt seconds: its straight path, seen from the
/// bar turning at its constant spin over the step (2,000 samples, double),
/// crossing the bar's axis within its length. Empty when none (or when the
/// body met something else, which may have bent its path).
std::string crossed_bar(const Scene& scene, std::size_t i, Vec2 from, Vec2 to, real dt) {
    for (std::size_t k = 0; k < scene.spinners.size(); ++k) {
        const double half = scene.bar_half[k];
        if (half == 0 || !met_only(scene, i, k)) {
            continue;
        }
        const BodyState bar = scene.world.body_state(scene.spinners[k].id).value();
        const double end_angle = std::atan2(double(bar.xf.q.s), double(bar.xf.q.c));
        const auto local = [&](double u) { // the centre at step fraction u, in the bar's frame
            const double back = dt * (1 - u);
            const double angle = end_angle - double(bar.angular_velocity) * back;
            const double x = from.x + u * (double(to.x) - from.x) -
                             (bar.xf.p.x - double(bar.linear_velocity.x) * back);
            const double y = from.y + u * (double(to.y) - from.y) -
                             (bar.xf.p.y - double(bar.linear_velocity.y) * back);
            return std::pair(std::cos(angle) * x + std::sin(angle) * y,
                             -std::sin(angle) * x + std::cos(angle) * y);
        };
        if ((local(0).second > 0) == (local(1).second > 0)) {
            continue;
        }
        constexpr int k_samples = 2000;
        double y_before = local(0).second;
        for (int n = 1; n <= k_samples; ++n) {
            const auto [x, y] = local(double(n) / k_samples);
            if ((y_before > 0) != (y > 0) && std::abs(x) < half) {
                return "crossed " + scene.spinners[k].what;
            }
            y_before = y;
        }
    }
    return {};
}

/// Turns each spinner that has gone k_spinner_travel from its home, and
/// goes on away from it, back (for the next step).
void turn_spinners_back(Scene& scene) {
    for (std::size_t k = 0; k < scene.spinners.size(); ++k) {
        const BodyState s = scene.world.body_state(scene.spinners[k].id).value();
        const Vec2 away = s.xf.p - scene.spinner_home[k];
        if (length(away) > k_spinner_travel && dot(away, s.linear_velocity) > 0) {
            ASSERT_TRUE(scene.world.set_velocity(scene.spinners[k].id, -s.linear_velocity,
                                                 s.angular_velocity));
        }
    }
}

/// The deepest overlap at the current poses over every pair of a dynamic
/// body with a static shape or another dynamic body, by collide() pair by
/// pair: independent of the world's contact list (StepStats::max_penetration
/// measures only the pairs the step made contacts for), and where it is.
struct Overlap {
    real depth = 0; ///< L, >= 0
    std::string where = "no pair found";
};

Overlap deepest_overlap(const Scene& scene) {
    const CollideSettings settings{0, scene.world.tolerances().linear_slop};
    Overlap deepest;
    const auto xf = [&](BodyId id) { return scene.world.body_state(id).value().xf; };
    for (std::size_t i = 0; i < scene.dynamics.size(); ++i) {
        const Placed& a = scene.dynamics[i];
        const auto visit = [&](const Placed& b, const std::string& name) {
            const Manifold m = collide(a.shape, xf(a.id), b.shape, xf(b.id), settings);
            for (int k = 0; k < m.count; ++k) {
                if (-m.points[k].separation > deepest.depth) {
                    deepest.depth = -m.points[k].separation;
                    std::ostringstream out;
                    out << "body " << i << " (" << a.what << ") and " << name << ": depth "
                        << deepest.depth << " at (" << m.points[k].point.x << ", "
                        << m.points[k].point.y << ")";
                    deepest.where = out.str();
                }
            }
        };
        for (const Placed& s : scene.statics) {
            visit(s, s.what);
        }
        for (const Placed& s : scene.spinners) {
            visit(s, s.what);
        }
        for (std::size_t j = i + 1; j < scene.dynamics.size(); ++j) {
            visit(scene.dynamics[j],
                  "body " + std::to_string(j) + " (" + scene.dynamics[j].what + ")");
        }
    }
    return deepest;
}

/// What one seed did: the first tunneling step, and the deepest penetration.
struct CaseResult {
    std::optional<std::string> tunneling; ///< the message of the first bad step
    real deepest = 0;                     ///< the deepest overlap after any step, L
    std::string deepest_at;               ///< where and between what, for messages
    real limit = 0;                       ///< 2 linear slops, L
};

void record_depth(CaseResult& r, const Scene& scene, int step) {
    const Overlap overlap = deepest_overlap(scene);
    if (overlap.depth > r.deepest) {
        r.deepest = overlap.depth;
        if (overlap.depth > r.limit) {
            std::ostringstream out;
            out << describe(scene, step) << ": penetration " << overlap.depth << " > 2 slops ("
                << r.limit << "), " << overlap.depth / (r.limit / 2)
                << " slops at the end of the step: " << overlap.where;
            r.deepest_at = out.str();
        }
    }
}

/// Runs one seed until it tunnels or its steps are done.
CaseResult run_case(std::uint32_t seed, const Regime& regime) {
    Scene scene = make_scene(seed, regime);
    const TunnelingChecker checker = make_checker(scene);
    CaseResult r;
    r.limit = 2 * scene.world.tolerances().linear_slop;
    std::vector<Vec2> centers;
    for (std::size_t i = 0; i < scene.dynamics.size(); ++i) {
        centers.push_back(scene.world.body_state(scene.dynamics[i].id).value().center);
        if (const std::string bad = judge(scene, checker, centers[i], centers[i]); !bad.empty()) {
            r.tunneling = describe(scene, 0) + ": spawned badly: " + bad; // the generator's bug
            return r;
        }
    }
    const real dt = 1 / regime.hz;
    for (int step = 1; step <= regime.steps; ++step) {
        turn_spinners_back(scene);
        if (auto ok = scene.world.step(dt, regime.substeps); !ok) {
            r.tunneling = describe(scene, step) + ": step failed: " + ok.error().message;
            return r;
        }
        for (std::size_t i = 0; i < scene.dynamics.size(); ++i) {
            const Vec2 c = scene.world.body_state(scene.dynamics[i].id).value().center;
            std::string bad = judge(scene, checker, centers[i], c);
            if (bad.empty()) {
                bad = crossed_bar(scene, i, centers[i], c, dt);
            }
            if (!bad.empty()) {
                r.tunneling = describe(scene, step) + ": " +
                              describe_body(scene, i, centers[i], c) + ": " + bad;
                return r;
            }
            centers[i] = c;
        }
        record_depth(r, scene, step);
    }
    return r;
}

/// Runs `cases` seeds from `first_seed`; reports every failing seed.
void run_cases(std::uint32_t first_seed, int cases, const Regime& regime) {
    for (int c = 0; c < cases; ++c) {
        const std::uint32_t seed = first_seed + std::uint32_t(c);
        const CaseResult r = run_case(seed, regime);
        if (r.tunneling) {
            ADD_FAILURE() << *r.tunneling;
        }
        if (r.deepest > r.limit) {
            ADD_FAILURE() << r.deepest_at;
        }
    }
}

const Regime k_at_60_hz{60, 1, 240};
const Regime k_at_30_hz{30, 1, 150};
const Regime k_substeps_at_60_hz{60, 4, 180};
const Regime k_substeps_at_30_hz{30, 2, 120};
const Regime k_one_step_solve_at_60_hz{60, 1, 240, 1};
const Regime k_one_step_solve_at_30_hz{30, 1, 150, 1};
Regime with(Regime regime, Spinners spinners) {
    regime.spinners = spinners;
    return regime;
}
const Regime k_spinners_at_60_hz = with(k_at_60_hz, Spinners::in_place);
const Regime k_spinners_at_30_hz = with(k_at_30_hz, Spinners::in_place);
const Regime k_spinners_with_substeps_at_30_hz = with(k_substeps_at_30_hz, Spinners::in_place);
const Regime k_spinners_with_a_one_step_solve_at_30_hz =
    with(k_one_step_solve_at_30_hz, Spinners::in_place);
const Regime k_moving_spinners_at_60_hz = with(k_at_60_hz, Spinners::to_and_fro);
const Regime k_moving_spinners_with_a_one_step_solve_at_30_hz =
    with(k_one_step_solve_at_30_hz, Spinners::to_and_fro);

// 900 seeds in all (about 11 s in release). When these counts were set,
// the first 2,000 seeds of each rate and 1,000 of each substep regime
// (SWEEP_PROPERTY_CASES_SCALE=20 of the earlier 100/100/50/50) passed in
// float and double. With the velocity solve in colours (contact_solver.hpp),
// the same 20x found three seeds a little over the bound, outside the CI's
// counts: 62874 (2.40 slops, a light polygon squeezed between two circles
// 270 times heavier) and 33302 (2.21) in float, 31743 (2.10) in double.
// Since a jam's sweeps cap the mass ratio of a pair (scale_mass_ratio in
// world_impl.hpp) and run 8 sweeps before judging their rate, all 18,000
// pass again in float and double.
// Seed 62715 (10x counts) ended 2.24 slops deep: a box spun off a polygon
// by an impact event onto a chain loop's vertex it had no contact with
// (World::Impl::add_contacts_of_touched_walls). Seed 70145 (of 6,000 new
// seeds) ended 12 slops deep: two polygons spinning at 184 and 102 rad/s
// grazed, their event dropped as parting, then met within the same step
// (World::Impl::search_after_graze).
TEST(WorldRandomScenes, NoTunnelingAndPenetrationWithinTwoSlopsAt60Hz) {
    run_cases(60'000, test::property_cases(300), k_at_60_hz);
    run_cases(62'715, 1, k_at_60_hz);
    run_cases(70'145, 1, k_at_60_hz);
}

// Seed 31976 (10x counts, double) ended its second step 30 slops deep: a
// box spinning at 132 rad/s just under the ceiling was stopped by the final
// sweep near its start, where its turn first reached the ceiling, in every
// correct-and-sweep round, each sweeping again from the step's start, until
// the rounds ran out beside the box it overlapped (a stopped body's next
// sweep now starts where it stopped).
// Seeds 417601 (30 Hz), 531312 (substeps at 30 Hz) and 445841 (one-step
// solve at 60 Hz), of 180,000 new seeds, ended 8 to 163 slops deep by the
// referee: a shape lying a hair beyond a chain's convex corner got the next
// segment's face contact, measured round the corner (collide_chain).
// Seed 310861 (and 344018 and 350557 below), found by hunting beyond the
// seeds tested here, ended 2.5 to 5.5 slops inside a static polygon or floor: a sharp
// corner turning into the wall the shape began touching, swept by its
// core, which lies deeper inside a corner than inside a face
// (World::Impl::limit_sinking).
// Seed 32895 (found at ten times the cases) had a capsule spinning at 628
// rad/s cross a floor when a body clamped at its cap first restarted its
// path there unswept: the final sweep starts a path where it starts, so
// clamp_at sweeps the path up to the clamp.
TEST(WorldRandomScenes, NoTunnelingAndPenetrationWithinTwoSlopsAt30Hz) {
    run_cases(30'000, test::property_cases(300), k_at_30_hz);
    run_cases(31'976, 1, k_at_30_hz);
    run_cases(417'601, 1, k_at_30_hz);
    run_cases(310'861, 1, k_at_30_hz);
    run_cases(32'895, 1, k_at_30_hz);
}

TEST(WorldRandomScenes, NoTunnelingAndPenetrationWithinTwoSlopsWithSubsteps) {
    run_cases(40'000, test::property_cases(150), k_substeps_at_60_hz);
    run_cases(20'000, test::property_cases(150), k_substeps_at_30_hz);
    run_cases(531'312, 1, k_substeps_at_30_hz);
}

// The regimes above solve in sub-steps (WorldDef's default), which move
// bodies along paths their final velocities do not give: the
// time-of-impact phase follows the paths (Body::path_v); at 30 Hz, before
// it did, 5 of 300 seeds ended 17 to 56 slops deep. The one-step solve
// (solver_substeps = 1) on seeds it passed at 20x before sub-steps came.
// Seed 160013 at 60 Hz ended 10 slops deep between a circle and a light
// star polygon whose spin grew step by step, with alternating sign, to
// 2e10 rad/s through impacts; k_max_rotation caps it.
// Seed 1008219 at 30 Hz (found by hunting beyond the tested seeds) ended
// its first step 30 slops deep: a box falling at 145 L/s bounced back up
// through impact events, far from the path its fat box in the moving tree
// was made for, and a disc the final sweep pulled back along its path
// ended inside it; the contacts added for the stopped disc were looked for
// in the tree, which did not find the box where it was
// (World::Impl::find_strays).
// Seed 1075589 at 30 Hz (hunted too) ended a step 76 slops deep by the
// referee: a disc whose centre lay on a chain segment's line 4.9 L beyond
// its end was behind both faces of the segment's two-vertex form by
// rounding, and taken as inside it (circle_against_face in manifold.cpp).
// Seeds 1031921, 1064672, 1078037 and 1081285 at 30 Hz (hunted) ended a
// step 2.57, 2.05, 2.60 and 3.73 slops deep: in a jam's sweeps a body
// under fixed geometry (the ceiling, an obstacle's underside, an overhang's
// corner) was held in its contact with it, as if it were a body it bore,
// and took no push from it, so the sweeps left the jam deeper than they
// found it and gave up (World::Impl::pair_mass).
// Seeds 1007509 and 1107990 at 60 Hz and 1106975 at 30 Hz (hunted) ended
// a step 2.43, 2.09 and 2.01 slops deep: jams rising steadily out of the
// overlap ran out of sweeps (k_jam_iteration_factor, then 4).
// Seed 1070007 at 60 Hz (hunted) ended two steps 4.4 slops deep: a disc
// against a wall and a box falling at 100 L/s into the slot beside it, too
// narrow for both at the box's angle, each stopped by its sweep against its
// own wall inside the other until the correct-and-sweep rounds ran out
// (World::Impl::return_jams_to_step_start).
// Seed 2001674 at 30 Hz (hunted) ended steps 2.3 to 2.6 slops deep: a box
// the solve swung into an obstacle's face its manifold did not hold, which
// the final sweep stopped step after step with the velocity that drove it
// there, and a disc sinking into it down a 10-degree wedge. Seed 1038568 at
// 30 Hz (hunted) ended a step 4.5 slops deep: a capsule between a box on a
// disc and a ceiling. A body a sweep stops at a wall now hits it
// (World::Impl::hit_wall).
// Seed 5401349 at 60 Hz (hunted) ended step 233 2.04 slops deep: a light
// capsule wedged between the floor and an obstacle's underside 2.5 degrees
// from level, which position correction moves out only slowly; it gave up
// at 2.04 slops. A jam correction leaves deeper than 2 slops now goes back
// to the step's start, as at the rounds' cap (World::Impl::leave_jam).
TEST(WorldRandomScenes, NoTunnelingAndPenetrationWithinTwoSlopsWithAOneStepSolve) {
    run_cases(61'000, test::property_cases(150), k_one_step_solve_at_60_hz);
    run_cases(31'000, test::property_cases(150), k_one_step_solve_at_30_hz);
    run_cases(160'013, 1, k_one_step_solve_at_60_hz);
    run_cases(445'841, 1, k_one_step_solve_at_60_hz);
    run_cases(344'018, 1, k_one_step_solve_at_60_hz);
    run_cases(350'557, 1, k_one_step_solve_at_30_hz);
    run_cases(1'075'589, 1, k_one_step_solve_at_30_hz);
    run_cases(1'008'219, 1, k_one_step_solve_at_30_hz);
    run_cases(1'031'921, 1, k_one_step_solve_at_30_hz);
    run_cases(1'064'672, 1, k_one_step_solve_at_30_hz);
    run_cases(1'078'037, 1, k_one_step_solve_at_30_hz);
    run_cases(1'081'285, 1, k_one_step_solve_at_30_hz);
    run_cases(1'007'509, 1, k_one_step_solve_at_60_hz);
    run_cases(1'107'990, 1, k_one_step_solve_at_60_hz);
    run_cases(1'106'975, 1, k_one_step_solve_at_30_hz);
    run_cases(1'070'007, 1, k_one_step_solve_at_60_hz);
    run_cases(2'001'674, 1, k_one_step_solve_at_30_hz);
    run_cases(1'038'568, 1, k_one_step_solve_at_30_hz);
    run_cases(5'401'349, 1, k_one_step_solve_at_60_hz);
}

// Kinematic bodies spinning in place, or spinning while they move to and
// fro (add_spinner), sweep their surfaces into the bodies that touch them,
// away from where they touch as the step begins, and a body's centre must
// never cross a spinning bar. Of 6,000 seeds with spinners in place
// (8,000,000 to 8,001,499 in each regime), 8300598, 8300993 and 8301190
// (one-step solve at 30 Hz) had a body pass through a bar that turned a
// radian a step: its event with the bar at the step's start found the pair
// parting, and a graze that leaves the pair touching was not searched
// again (World::Impl::search_deepening). Since, 12,000 more seeds in place
// and 4,000 moving to and fro (from 9,000,000) pass.
TEST(WorldRandomScenes, NoBodyPassesThroughASpinningKinematicBody) {
    run_cases(8'000'000, test::property_cases(100), k_spinners_at_60_hz);
    run_cases(8'100'000, test::property_cases(100), k_spinners_at_30_hz);
    run_cases(8'200'000, test::property_cases(50), k_spinners_with_substeps_at_30_hz);
    run_cases(8'300'000, test::property_cases(100), k_spinners_with_a_one_step_solve_at_30_hz);
    run_cases(8'300'598, 1, k_spinners_with_a_one_step_solve_at_30_hz);
    run_cases(8'300'993, 1, k_spinners_with_a_one_step_solve_at_30_hz);
    run_cases(8'301'190, 1, k_spinners_with_a_one_step_solve_at_30_hz);
    run_cases(8'400'000, test::property_cases(50), k_moving_spinners_at_60_hz);
    run_cases(8'500'000, test::property_cases(50),
              k_moving_spinners_with_a_one_step_solve_at_30_hz);
}

// A jam the correct-and-sweep rounds cannot resolve goes back to the
// step's start. With the default 12 rounds the random scenes no longer
// reach the cap (over 70,000 hunted seeds; seed 1070007 did, above, until a body
// a sweep stops hits the wall), so these take one round, where the cap
// comes often: a body the round's sweep stops leaves the final sweep the
// last word. In every step that hits it, a body that went back stands where
// it stood when the step began, at rest, and is reported as returned at
// time 0 at its centre; and the step leaves no overlap deeper than 2 slops
// that the scene did not have where it began.
/// Checks every body the last step sent back (a `returned` time-of-impact
/// event): it stands where it stood before the step (`before`, by dynamic
/// body), at rest, reported at its centre at time 0. Returns how many.
int check_returned(const Scene& scene, const std::vector<BodyState>& before,
                   const std::string& at) {
    int returned = 0;
    for (const TimeOfImpactEvent& e : scene.world.events().time_of_impact) {
        if (e.kind != TimeOfImpactKind::returned) {
            continue;
        }
        ++returned;
        const auto d = std::find_if(scene.dynamics.begin(), scene.dynamics.end(),
                                    [&](const Placed& p) { return p.id == e.body; });
        if (d == scene.dynamics.end()) {
            ADD_FAILURE() << at << ": a returned event for no dynamic body";
            continue;
        }
        const BodyState& start = before[static_cast<std::size_t>(d - scene.dynamics.begin())];
        const BodyState now = scene.world.body_state(e.body).value();
        EXPECT_EQ(now.center, start.center) << at;
        EXPECT_NEAR(now.xf.q.s, start.xf.q.s, 1e-6) << at;
        EXPECT_NEAR(now.xf.q.c, start.xf.q.c, 1e-6) << at;
        EXPECT_EQ(now.linear_velocity, Vec2{}) << at;
        EXPECT_EQ(now.angular_velocity, 0) << at;
        EXPECT_EQ(e.point, now.center) << at;
        EXPECT_EQ(e.fraction, 0) << at;
    }
    return returned;
}

TEST(WorldRandomScenes, AJamTheRoundsCannotResolveGoesBackToTheStepStart) {
    Regime one_round = k_at_30_hz;
    one_round.correction_rounds = 1;
    int capped = 0;
    int returned = 0;
    for (std::uint32_t seed = 1000; seed < 1080; ++seed) {
        Scene scene = make_scene(seed, one_round);
        const real limit = 2 * scene.world.tolerances().linear_slop;
        const auto pose = [&](BodyId id) { return scene.world.body_state(id).value(); };
        for (int step = 1; step <= one_round.steps; ++step) {
            const std::string at = describe(scene, step);
            std::vector<BodyState> before;
            for (const Placed& d : scene.dynamics) {
                before.push_back(pose(d.id));
            }
            const real deepest_before = deepest_overlap(scene).depth;
            ASSERT_TRUE(scene.world.step(1 / one_round.hz));
            if (scene.world.stats().sweep_round_cap_hits == 0) {
                continue;
            }
            ++capped;
            returned += check_returned(scene, before, at);
            const Overlap after = deepest_overlap(scene);
            EXPECT_LE(after.depth, std::max(limit, deepest_before)) << at << ": " << after.where;
        }
    }
    // (With one round most steps hit the cap: about 6,400 of these 12,000,
    // and 15 bodies went back in float, 9 in double; of the first 40
    // scenes' steps, only 2 in double.)
    EXPECT_GE(capped, 1000);
    EXPECT_GE(returned, 3);
}

// A jam that position correction gives up on (its sweeps rising too slowly
// to get out within their budget) and leaves deeper than 2 slops goes back
// to the step's start too, though the rounds end before their cap: in seed
// 5401349 (one-step solve at 60 Hz) a light capsule wedged between the
// floor and an obstacle's underside 2.5 degrees from level, pressed in by
// a box, went back at step 233 (it ended the step 2.04 slops deep before,
// which the bound below catches). That is GCC's rounding in float: clang's
// and double's take the scene elsewhere, where nothing goes back, and the
// test checks the bound and the rounds.
TEST(WorldRandomScenes, AJamCorrectionGivesUpOnGoesBackToTheStepStart) {
    const Regime& regime = k_one_step_solve_at_60_hz;
    Scene scene = make_scene(5'401'349, regime);
    const real limit = 2 * scene.world.tolerances().linear_slop;
    for (int step = 1; step <= regime.steps; ++step) {
        const std::string at = describe(scene, step);
        std::vector<BodyState> before;
        for (const Placed& d : scene.dynamics) {
            before.push_back(scene.world.body_state(d.id).value());
        }
        const real deepest_before = deepest_overlap(scene).depth;
        ASSERT_TRUE(scene.world.step(1 / regime.hz));
        EXPECT_EQ(scene.world.stats().sweep_round_cap_hits, 0) << at;
        check_returned(scene, before, at);
        const Overlap after = deepest_overlap(scene);
        EXPECT_LE(after.depth, std::max(limit, deepest_before)) << at << ": " << after.where;
    }
}

// ---- A turning room.

/// How many of `count` seeds from `first` let a body out of a kinematic
/// room of four boxes (0.05 to 0.5 L thick, 4 to 10 L by 4 to 8 L inside)
/// turning about its centre at up to `spin` rad/s, with 5 to 24 circles,
/// boxes and capsules thrown about inside it at up to 20 L/s, over 150
/// steps at `hz`: a centre seen from the room beyond its inside ends it.
/// Every third seed solves in one step (solver_substeps = 1). Reports each.
int seeds_letting_a_body_out(std::uint32_t first, int count, real spin, real hz) {
    int out = 0;
    for (std::uint32_t seed = first; seed < first + std::uint32_t(count); ++seed) {
        Rng rng(seed);
        WorldDef def;
        def.solver_substeps = seed % 3 == 0 ? 1 : WorldDef{}.solver_substeps;
        World world = World::make(def).value();
        const real hw = rng.uniform(2, 5), hh = rng.uniform(2, 4),
                   t = rng.uniform(real(0.05), real(0.5));
        BodyDef room_def;
        room_def.type = BodyType::kinematic;
        room_def.angular_velocity = rng.uniform(-spin, spin);
        room_def.angle = rng.uniform(0, 2 * k_pi);
        const Material wall{1, real(0.5), real(0.2)};
        const std::vector<ShapeDef> walls{
            {make_offset_box(hw + t, t / 2, {0, -hh - t / 2}, 0).value(), wall},
            {make_offset_box(hw + t, t / 2, {0, hh + t / 2}, 0).value(), wall},
            {make_offset_box(t / 2, hh, {-hw - t / 2, 0}, 0).value(), wall},
            {make_offset_box(t / 2, hh, {hw + t / 2, 0}, 0).value(), wall}};
        const BodyId room = world.create_body(room_def, walls).value();
        std::vector<BodyId> inside;
        const int bodies = 5 + static_cast<int>(seed % 20);
        for (int i = 0; i < bodies; ++i) {
            const real size = rng.uniform(real(0.05), real(0.4));
            const Shape shape =
                i % 3 == 0 ? Shape(Circle{{}, size})
                : i % 3 == 1
                    ? Shape(make_box(size, rng.uniform(real(0.05), size)).value())
                    : Shape(make_capsule({-size, 0}, {size, 0}, rng.uniform(real(0.03), size / 2))
                                .value());
            BodyDef body_def;
            body_def.type = BodyType::dynamic;
            body_def.position = transform_point(world.body_state(room)->xf,
                                                {rng.uniform(-hw + real(0.7), hw - real(0.7)),
                                                 rng.uniform(-hh + real(0.7), hh - real(0.7))});
            body_def.linear_velocity = {rng.uniform(-20, 20), rng.uniform(-20, 20)};
            body_def.angular_velocity = rng.uniform(-20, 20);
            const ShapeDef sd{
                shape, {rng.uniform(real(0.5), 2), rng.uniform(0, 1), rng.uniform(0, real(0.8))}};
            inside.push_back(world.create_body(body_def, std::span(&sd, 1)).value());
        }
        for (int step = 1; step <= 150; ++step) {
            EXPECT_TRUE(world.step(1 / hz));
            const Transform xf = world.body_state(room)->xf;
            const auto left = std::find_if(inside.begin(), inside.end(), [&](BodyId id) {
                const Vec2 p = inv_transform_point(xf, world.body_state(id)->center);
                return std::abs(p.x) > hw || std::abs(p.y) > hh;
            });
            if (left != inside.end()) {
                ADD_FAILURE() << "seed " << seed << " (" << hz << " Hz, spin "
                              << room_def.angular_velocity << " rad/s): body "
                              << left - inside.begin() << " left the room at step " << step;
                ++out;
                break;
            }
        }
    }
    return out;
}

// A dynamic body clamped against a kinematic body (its time of impact with
// it failed, its event cap was hit, or a clamped body it met stopped it)
// is carried with that body for the rest of its step: left where it
// stopped, it lay in the way of the turning walls, which no event stops,
// and position correction pushed it out through them. Of these 80 seeds,
// 4 let a body out at 60 Hz and 6 at 30 Hz before.
TEST(WorldRandomScenes, BodiesInATurningKinematicRoomStayInside) {
    EXPECT_EQ(seeds_letting_a_body_out(0, test::property_cases(40), 6, 60), 0);
    EXPECT_EQ(seeds_letting_a_body_out(1000, test::property_cases(40), 3, 30), 0);
}

} // namespace
} // namespace sweep
