#include "run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <random>

#include "sweep/check/tunneling.hpp"
#include "sweep/world.hpp"

namespace sweep::app {
namespace {

struct Spawned {
    BodyId id;
    Shape shape;
};

// Free cells whose 3x3 neighbourhood is free too, so a spawned body (at most
// 0.4 tiles across its half-width) starts clear of every wall.
std::vector<Vec2> spawn_points(const io::StaticGeometry& level) {
    const io::TileGrid& g = level.grid;
    std::vector<Vec2> points;
    const real tw = static_cast<real>(level.tile_width);
    const real th = static_cast<real>(level.tile_height);
    for (int y = g.min_y + 1; y < g.min_y + g.height - 1; ++y) {
        for (int x = g.min_x + 1; x < g.min_x + g.width - 1; ++x) {
            bool clear = true;
            for (int dy = -1; dy <= 1 && clear; ++dy) {
                for (int dx = -1; dx <= 1 && clear; ++dx) {
                    clear = !g.is_solid(x + dx, y + dy);
                }
            }
            if (clear) {
                points.push_back({(x + real(0.5)) * tw, -(y + real(0.5)) * th});
            }
        }
    }
    return points;
}

Result<void> add_static_geometry(World& world, const io::StaticGeometry& level) {
    for (const Aabb& box : level.boxes) {
        const Vec2 e = extents(box);
        auto polygon = make_box(e.x, e.y);
        if (!polygon) {
            return polygon.error();
        }
        BodyDef def;
        def.position = center(box);
        const ShapeDef shape{*polygon, {}};
        auto id = world.create_body(def, std::span(&shape, 1));
        if (!id) {
            return id.error();
        }
    }
    return {};
}

// A circle, box, capsule or convex polygon (kind 0 to 3) at most 0.4 tiles
// from its origin, so it fits the free 3x3 cells around its spawn point.
Result<Shape> spawn_shape(int kind, std::mt19937& rng, real l) {
    std::uniform_real_distribution<real> size(real(0.15) * l, real(0.4) * l);
    switch (kind) {
    case 0:
        return Shape(Circle{{}, size(rng)});
    case 1: {
        auto box = make_box(size(rng), size(rng));
        return box ? Result<Shape>(Shape(*box)) : Result<Shape>(box.error());
    }
    case 2: {
        std::uniform_real_distribution<real> half_length(real(0.05) * l, real(0.25) * l);
        std::uniform_real_distribution<real> radius(real(0.08) * l, real(0.15) * l);
        const real h = half_length(rng);
        auto capsule = make_capsule({-h, 0}, {h, 0}, radius(rng));
        return capsule ? Result<Shape>(Shape(*capsule)) : Result<Shape>(capsule.error());
    }
    default: {
        // 3 to 8 points on a circle at jittered angles: a convex polygon.
        std::uniform_int_distribution<int> count(3, 8);
        std::uniform_real_distribution<real> jitter(real(-0.3), real(0.3));
        const int n = count(rng);
        const real r = size(rng);
        std::vector<Vec2> points;
        for (int k = 0; k < n; ++k) {
            const real a = real(2) * k_pi * (real(k) + jitter(rng)) / real(n);
            points.push_back(r * Vec2{std::cos(a), std::sin(a)});
        }
        auto polygon = make_polygon(points);
        return polygon ? Result<Shape>(Shape(*polygon)) : Result<Shape>(polygon.error());
    }
    }
}

Result<std::vector<Spawned>> spawn_bodies(World& world, const io::StaticGeometry& level,
                                          const RunOptions& options) {
    std::vector<Vec2> points = spawn_points(level);
    if (static_cast<int>(points.size()) < options.spawn) {
        return Error{ErrorCode::invalid_input,
                     "run: the level has room for only " + std::to_string(points.size()) +
                         " bodies, asked for " + std::to_string(options.spawn)};
    }
    std::mt19937 rng(options.seed);
    std::shuffle(points.begin(), points.end(), rng);
    const real l = level.length_units_per_meter;
    std::uniform_real_distribution<real> speed(options.min_speed_tiles * l * options.hz,
                                               options.max_speed_tiles * l * options.hz);
    std::uniform_real_distribution<real> angle(-k_pi, k_pi);
    std::uniform_real_distribution<real> unit(0, 1);
    std::vector<Spawned> spawned;
    for (int i = 0; i < options.spawn; ++i) {
        auto shape = spawn_shape(i % 4, rng, l);
        if (!shape) {
            return shape.error();
        }
        BodyDef def;
        def.type = BodyType::dynamic;
        def.position = points[static_cast<std::size_t>(i)];
        def.angle = angle(rng);
        const Rot heading = Rot::from_angle(angle(rng));
        def.linear_velocity = speed(rng) * Vec2{heading.c, heading.s};
        def.angular_velocity = real(4) * (unit(rng) - real(0.5));
        const ShapeDef sd{
            *shape, {real(1) / (l * l), real(0.2) + real(0.6) * unit(rng), real(0.5) * unit(rng)}};
        auto id = world.create_body(def, std::span(&sd, 1));
        if (!id) {
            return id.error();
        }
        spawned.push_back({*id, *shape});
    }
    return spawned;
}

// One JSON object per line: {"step":N,"bodies":[[id,x,y,angle,vx,vy,w],...]}
// (centre of mass, radians, L/s), written by hand to keep the trace cheap.
void write_trace_line(std::ostream& out, int step, const World& world,
                      const std::vector<Spawned>& bodies) {
    out << "{\"step\":" << step + 1 << ",\"bodies\":[";
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const BodyState b = world.body_state(bodies[i].id).value();
        out << (i ? ",[" : "[") << bodies[i].id.index << ',' << b.center.x << ',' << b.center.y
            << ',' << b.xf.q.angle() << ',' << b.linear_velocity.x << ',' << b.linear_velocity.y
            << ',' << b.angular_velocity << ']';
    }
    out << "]}\n";
}

} // namespace

Result<RunReport> run_level(const io::StaticGeometry& level, const RunOptions& options) {
    if (options.steps < 0 || options.spawn < 0 || !(options.hz > 0)) {
        return Error{ErrorCode::invalid_input, "run: steps and spawn must be >= 0 and hz > 0"};
    }
    WorldDef def;
    def.length_units_per_meter = level.length_units_per_meter;
    def.measure_penetration = true;
    auto world = World::make(def);
    if (!world) {
        return world.error();
    }
    if (auto ok = add_static_geometry(*world, level); !ok) {
        return ok.error();
    }
    auto spawned = spawn_bodies(*world, level, options);
    if (!spawned) {
        return spawned.error();
    }
    const real cell = real(0.5) * static_cast<real>(std::min(level.tile_width, level.tile_height));
    auto checker = check::TunnelingChecker::make(level.boxes, level.bounds, cell);
    if (!checker) {
        return checker.error();
    }

    RunReport report;
    report.level = level.source;
    report.bodies = options.spawn;
    report.shapes_static = level.boxes.size();
    report.solid_tiles = level.solid_tiles;
    report.linear_slop = world->tolerances().linear_slop;
    report.length_units_per_meter = level.length_units_per_meter;
    report.drawing.view = level.bounds;
    report.drawing.static_boxes = level.boxes;
    report.drawing.bodies.resize(spawned->size());

    std::vector<Vec2> centers(spawned->size());
    for (std::size_t i = 0; i < spawned->size(); ++i) {
        centers[i] = world->body_state((*spawned)[i].id)->center;
        if (options.record_paths) {
            report.drawing.bodies[i].trajectory.push_back(centers[i]);
        }
    }
    std::ofstream trace;
    if (!options.trace.empty()) {
        trace.open(options.trace);
        if (!trace) {
            return Error{ErrorCode::io_error,
                         options.trace + ": cannot open the trace file for writing"};
        }
    }
    const real dt = real(1) / options.hz;
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < options.steps; ++s) {
        if (auto ok = world->step(dt); !ok) {
            return ok.error();
        }
        const StepStats& stats = world->stats();
        report.contacts_max = std::max(report.contacts_max, stats.contacts);
        report.max_penetration = std::max(report.max_penetration, stats.max_penetration);
        report.subdivision_cap_hits += stats.toi_failures + stats.sweep_round_cap_hits;
        report.toi_events += stats.toi_events;
        for (std::size_t i = 0; i < spawned->size(); ++i) {
            const Vec2 c = world->body_state((*spawned)[i].id)->center;
            if (checker->check_step(centers[i], c) != check::TunnelingChecker::Verdict::ok) {
                ++report.tunneling_events;
                report.drawing.markers.push_back(c);
            }
            centers[i] = c;
            if (options.record_paths) {
                report.drawing.bodies[i].trajectory.push_back(c);
            }
        }
        ++report.steps;
        if (trace) {
            write_trace_line(trace, s, *world, *spawned);
        }
    }
    report.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.steps_per_second = report.wall_seconds > 0 ? report.steps / report.wall_seconds : 0;
    for (std::size_t i = 0; i < spawned->size(); ++i) {
        report.drawing.bodies[i].shape = (*spawned)[i].shape;
        report.drawing.bodies[i].xf = world->body_state((*spawned)[i].id)->xf;
    }
    return report;
}

} // namespace sweep::app
