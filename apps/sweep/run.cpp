#include "run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <random>

#include "static_shapes.hpp"
#include "sweep/check/tunneling.hpp"
#include "sweep/world.hpp"

namespace sweep::app {
namespace {

struct Spawned {
    BodyId id;
    Shape shape;
};

Result<void> add_static_body(World& world, Vec2 position, const Shape& shape) {
    BodyDef def;
    def.position = position;
    const ShapeDef sd{shape, {}};
    auto id = world.create_body(def, std::span(&sd, 1));
    if (!id) {
        return id.error();
    }
    return {};
}

// One static body per shape, placed at the shape's centre so that its local
// coordinates stay small (float precision on large maps).
Result<void> add_static_geometry(World& world, const io::StaticGeometry& level) {
    for (const Aabb& box : level.boxes) {
        const Vec2 e = extents(box);
        auto polygon = make_box(e.x, e.y);
        if (!polygon) {
            return polygon.error();
        }
        if (auto ok = add_static_body(world, center(box), *polygon); !ok) {
            return ok;
        }
    }
    for (const Polygon& p : level.polygons) {
        std::array<Vec2, k_max_polygon_vertices> local{};
        for (int i = 0; i < p.count; ++i) {
            local[std::size_t(i)] = p.vertices[std::size_t(i)] - p.centroid;
        }
        auto polygon = make_polygon(std::span(local.data(), std::size_t(p.count)));
        if (!polygon) {
            continue; // a sliver the loader kept; nothing to collide with
        }
        if (auto ok = add_static_body(world, p.centroid, *polygon); !ok) {
            return ok;
        }
    }
    for (const Circle& c : level.circles) {
        if (auto ok = add_static_body(world, c.center, Circle{{}, c.radius}); !ok) {
            return ok;
        }
    }
    for (const Segment& s : level.segments) {
        const Vec2 mid = real(0.5) * (s.p1 + s.p2);
        auto segment = make_segment(s.p1 - mid, s.p2 - mid);
        if (!segment) {
            continue;
        }
        if (auto ok = add_static_body(world, mid, *segment); !ok) {
            return ok;
        }
    }
    return {};
}

// A circle, box, capsule or convex polygon (kind 0 to 3) whose farthest
// point is at most sqrt(2) * `largest` from its origin; `largest` is at most
// 0.4 tiles.
Result<Shape> spawn_shape(int kind, std::mt19937& rng, real l, real largest) {
    const real scale = largest / (real(0.4) * l);
    std::uniform_real_distribution<real> size(std::min(real(0.15) * l, real(0.5) * largest),
                                              largest);
    switch (kind) {
    case 0:
        return Shape(Circle{{}, size(rng)});
    case 1: {
        auto box = make_box(size(rng), size(rng));
        return box ? Result<Shape>(Shape(*box)) : Result<Shape>(box.error());
    }
    case 2: {
        std::uniform_real_distribution<real> half_length(real(0.05) * l * scale,
                                                         real(0.25) * l * scale);
        std::uniform_real_distribution<real> radius(real(0.08) * l * scale, real(0.15) * l * scale);
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

// A place to spawn: a point of free space and how far it is from solid.
struct SpawnPoint {
    Vec2 position;
    real clearance = 0;
};

// The centres of the tiles of the level's bounds (a coarser lattice on vast
// levels) that are at least `least` L from every static shape.
std::vector<SpawnPoint> spawn_points(const io::StaticGeometry& level, const StaticShapes& shapes,
                                     real least, real cap) {
    std::vector<SpawnPoint> points;
    const Aabb b = level.bounds;
    double tw = std::max(1, level.tile_width), th = std::max(1, level.tile_height);
    const double w = double(b.upper.x - b.lower.x), h = double(b.upper.y - b.lower.y);
    while ((w / tw) * (h / th) > 4e6) {
        tw *= 2;
        th *= 2;
    }
    for (double y = b.lower.y + th / 2; y < b.upper.y; y += th) {
        for (double x = b.lower.x + tw / 2; x < b.upper.x; x += tw) {
            const Vec2 p{static_cast<real>(x), static_cast<real>(y)};
            const auto c = static_cast<real>(shapes.clearance(p, cap));
            if (c >= least) {
                points.push_back({p, c});
            }
        }
    }
    return points;
}

Result<std::vector<Spawned>> spawn_bodies(World& world, const io::StaticGeometry& level,
                                          const StaticShapes& shapes, const RunOptions& options) {
    const real l = level.length_units_per_meter;
    // Each body keeps this far from walls and from the bodies spawned before.
    const real margin = real(0.05) * l;
    const real smallest = real(0.1) * l;
    std::vector<SpawnPoint> points =
        spawn_points(level, shapes, margin + std::sqrt(real(2)) * smallest, l);
    std::mt19937 rng(options.seed);
    std::shuffle(points.begin(), points.end(), rng);
    std::uniform_real_distribution<real> speed(options.min_speed_tiles * l * options.hz,
                                               options.max_speed_tiles * l * options.hz);
    std::uniform_real_distribution<real> angle(-k_pi, k_pi);
    std::uniform_real_distribution<real> unit(0, 1);
    std::vector<Spawned> spawned;
    std::vector<std::pair<Vec2, real>> taken; // centre and reach of each body
    for (const SpawnPoint& point : points) {
        if (static_cast<int>(spawned.size()) == options.spawn) {
            break;
        }
        const real largest =
            std::min(real(0.4) * l, (point.clearance - margin) / std::sqrt(real(2)));
        if (largest < smallest) {
            continue;
        }
        const int kind = static_cast<int>(spawned.size() % 4);
        auto shape = spawn_shape(kind, rng, l, largest);
        if (!shape) {
            return shape.error();
        }
        const real reach = max_extent(*shape, Vec2{});
        const bool clear = std::none_of(taken.begin(), taken.end(), [&](const auto& other) {
            return length(other.first - point.position) < other.second + reach + margin;
        });
        if (!clear) {
            continue;
        }
        BodyDef def;
        def.type = BodyType::dynamic;
        def.position = point.position;
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
        taken.push_back({point.position, reach});
    }
    if (static_cast<int>(spawned.size()) < options.spawn) {
        return Error{ErrorCode::invalid_input,
                     level.source + ": the level has free room for only " +
                         std::to_string(spawned.size()) + " bodies (tile centres at least " +
                         "0.2 tiles from every wall, bodies apart), asked for " +
                         std::to_string(options.spawn) + "; pass a smaller --spawn"};
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

// The solid shapes that are not boxes, as closed outlines for pictures:
// polygons, and circles as 24-gons.
std::vector<std::vector<Vec2>> solid_outlines(const io::StaticGeometry& level) {
    std::vector<std::vector<Vec2>> out;
    for (const Polygon& p : level.polygons) {
        out.emplace_back(p.vertices.begin(), p.vertices.begin() + p.count);
    }
    for (const Circle& c : level.circles) {
        std::vector<Vec2> loop;
        for (int k = 0; k < 24; ++k) {
            const real a = real(2) * k_pi * real(k) / real(24);
            loop.push_back(c.center + c.radius * Vec2{std::cos(a), std::sin(a)});
        }
        out.push_back(std::move(loop));
    }
    return out;
}

// The two-sided segments, as lines for pictures.
std::vector<std::vector<Vec2>> segment_lines(const io::StaticGeometry& level) {
    std::vector<std::vector<Vec2>> out;
    for (const Segment& s : level.segments) {
        out.push_back({s.p1, s.p2});
    }
    return out;
}

render::Frame record_frame(const World& world, const std::vector<Spawned>& bodies, int step) {
    render::Frame frame;
    frame.step = step;
    frame.poses.reserve(bodies.size());
    for (const Spawned& body : bodies) {
        frame.poses.push_back(world.body_state(body.id)->xf);
    }
    frame.contacts = touching_points(world);
    return frame;
}

} // namespace

void draw_static_geometry(render::Drawing& drawing, const io::StaticGeometry& level) {
    drawing.static_boxes = level.boxes;
    drawing.static_polygons = solid_outlines(level);
    drawing.static_polylines = segment_lines(level);
}

std::vector<render::ContactDrawing> touching_points(const World& world) {
    std::vector<render::ContactDrawing> out;
    for (const ContactData& contact : world.touching_contacts()) {
        const Manifold& m = contact.manifold;
        for (int k = 0; k < m.count; ++k) {
            out.push_back({m.points[std::size_t(k)].point, m.normal});
        }
    }
    return out;
}

void set_static_counts(RunReport& report, const io::StaticGeometry& level) {
    report.shapes_static = level.counts.after_merge;
    report.shapes_before_merge = level.counts.before_merge;
    report.static_boxes = level.boxes.size();
    report.static_polygons = level.polygons.size();
    report.static_circles = level.circles.size();
    report.static_segments = level.segments.size();
    report.solid_tiles = level.solid_tiles;
}

Result<RunReport> run_level(const io::StaticGeometry& level, const RunOptions& options) {
    if (options.steps < 0 || options.spawn < 0 || !(options.hz > 0)) {
        return Error{ErrorCode::invalid_input, "run: steps and spawn must be >= 0 and hz > 0"};
    }
    WorldDef def;
    def.length_units_per_meter = level.length_units_per_meter;
    def.measure_penetration = true;
    def.static_broadphase = options.grid ? StaticBroadphase::grid : StaticBroadphase::tree;
    auto world = World::make(def);
    if (!world) {
        return world.error();
    }
    if (auto ok = add_static_geometry(*world, level); !ok) {
        return ok.error();
    }
    const StaticShapes shapes(level);
    auto spawned = spawn_bodies(*world, level, shapes, options);
    if (!spawned) {
        return spawned.error();
    }
    // The referee: the raster checker for boxes (axis-aligned polygons
    // included, so that they separate regions too), StaticShapes for the
    // other shapes.
    std::vector<Aabb> solid_boxes = level.boxes;
    for (const Polygon& p : level.polygons) {
        if (p.count == 4 && p.radius == 0) {
            const Aabb box{
                min(min(p.vertices[0], p.vertices[1]), min(p.vertices[2], p.vertices[3])),
                max(max(p.vertices[0], p.vertices[1]), max(p.vertices[2], p.vertices[3]))};
            const bool axis_aligned =
                std::all_of(p.vertices.begin(), p.vertices.begin() + 4, [&](Vec2 v) {
                    return (v.x == box.lower.x || v.x == box.upper.x) &&
                           (v.y == box.lower.y || v.y == box.upper.y);
                });
            if (axis_aligned) {
                solid_boxes.push_back(box);
            }
        }
    }
    const real cell = real(0.5) * static_cast<real>(std::min(level.tile_width, level.tile_height));
    auto checker = check::TunnelingChecker::make(solid_boxes, level.bounds, cell);
    if (!checker) {
        return checker.error();
    }

    RunReport report;
    report.level = level.source;
    report.bodies = options.spawn;
    set_static_counts(report, level);
    report.linear_slop = world->tolerances().linear_slop;
    report.length_units_per_meter = level.length_units_per_meter;
    report.drawing.view = level.bounds;
    draw_static_geometry(report.drawing, level);
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
    auto next_frame = options.frame_steps.begin();
    const auto record_frames_at = [&](int step) {
        while (next_frame != options.frame_steps.end() && *next_frame <= step) {
            if (*next_frame == step) {
                report.frames.push_back(record_frame(*world, *spawned, step));
            }
            ++next_frame;
        }
    };
    record_frames_at(0);
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
            const bool tunneled =
                checker->check_step(centers[i], c) != check::TunnelingChecker::Verdict::ok ||
                (!shapes.inside_shape(centers[i]) && shapes.inside_shape(c)) ||
                shapes.crosses_segment(centers[i], c);
            if (tunneled) {
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
        record_frames_at(s + 1);
        if (options.progress) {
            options.progress(s + 1, options.steps);
        }
    }
    report.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.steps_per_second = report.wall_seconds > 0 ? report.steps / report.wall_seconds : 0;
    for (std::size_t i = 0; i < spawned->size(); ++i) {
        report.drawing.bodies[i].shape = (*spawned)[i].shape;
        report.drawing.bodies[i].xf = world->body_state((*spawned)[i].id)->xf;
    }
    report.drawing.contacts = touching_points(*world);
    return report;
}

} // namespace sweep::app
