#include "scene_run.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <random>

#include "level_bodies.hpp"
#include "static_shapes.hpp"
#include "sweep/check/tunneling.hpp"

namespace sweep::app {
namespace {

// The most cells of the referee's raster; coarser cells beyond it.
constexpr double k_max_referee_cells = 16.0 * 1024 * 1024;

struct OneWay {
    BodyId body;
    real top = 0; ///< highest y of its shapes, world
};

// A moving body's shape as pictures draw it; the body's first shape
// carries the path of its centre.
struct DrawnShape {
    BodyId body;
    Shape shape; ///< in the body's frame
    bool carries_path = false;
};

// What the world holds of the scene, and what the run tracks.
struct Built {
    std::vector<BodyId> moving; ///< dynamic bodies and characters, for the referee and trace
    std::vector<std::pair<BodyId, std::string>> named;
    std::vector<BodyId> characters; ///< in scene.characters order
    std::vector<OneWay> one_way;
    std::vector<ShapeId> one_way_shapes; ///< sorted
    io::StaticGeometry referee;          ///< static solid shapes in world coordinates
    io::StaticGeometry picture;          ///< every static shape, one-way too, for pictures
    std::vector<DrawnShape> drawn;       ///< every moving body's shapes, for pictures
};

Aabb body_aabb(const std::vector<ShapeDef>& shapes, const Transform& xf) {
    Aabb box = compute_aabb(shapes.front().shape, xf);
    for (const ShapeDef& s : shapes) {
        box = union_of(box, compute_aabb(s.shape, xf));
    }
    return box;
}

// The shape in world coordinates, as the referee reads it: axis-aligned
// boxes as boxes, other polygons by their core, capsules and chains by
// their segment.
void add_to_referee(io::StaticGeometry& g, const Shape& shape, const Transform& xf) {
    switch (shape.type) {
    case ShapeType::circle:
        g.circles.push_back({transform_point(xf, shape.circle.center), shape.circle.radius});
        return;
    case ShapeType::capsule:
        g.segments.push_back({transform_point(xf, shape.capsule.center1),
                              transform_point(xf, shape.capsule.center2)});
        return;
    case ShapeType::segment:
        g.segments.push_back(
            {transform_point(xf, shape.segment.p1), transform_point(xf, shape.segment.p2)});
        return;
    case ShapeType::chain_segment:
        g.segments.push_back({transform_point(xf, shape.chain_segment.segment.p1),
                              transform_point(xf, shape.chain_segment.segment.p2)});
        return;
    case ShapeType::polygon: {
        const Polygon& p = shape.polygon;
        std::vector<Vec2> points;
        for (int i = 0; i < p.count; ++i) {
            points.push_back(transform_point(xf, p.vertices[std::size_t(i)]));
        }
        const Aabb box = compute_aabb(Polygon{p.vertices, p.normals, p.centroid, 0, p.count}, xf);
        const bool axis_aligned =
            p.count == 4 && std::all_of(points.begin(), points.end(), [&](Vec2 v) {
                return (v.x == box.lower.x || v.x == box.upper.x) &&
                       (v.y == box.lower.y || v.y == box.upper.y);
            });
        if (axis_aligned) {
            g.boxes.push_back(box);
        } else if (auto world = make_polygon(points)) {
            g.polygons.push_back(*world);
        }
        return;
    }
    }
}

Result<BodyId> create(World& world, const BodyDef& def, const std::vector<ShapeDef>& shapes,
                      const std::string& where) {
    auto id = world.create_body(def, shapes);
    if (!id) {
        return Error{id.error().code, where + ": " + id.error().message};
    }
    return id;
}

// The map's shapes as static bodies; its horizontal segments become
// one-way platforms when the scene says so.
Result<void> add_map(World& world, const io::SceneMap& map, Built& built) {
    const io::StaticGeometry& g = map.geometry;
    auto bodies = add_level_bodies(world, g);
    if (!bodies) {
        return bodies.error();
    }
    for (std::size_t i = 0; i < g.segments.size(); ++i) {
        const Segment& s = g.segments[i];
        if (bodies->segments[i].index < 0) {
            continue; // zero length: nothing to stand on or cross
        }
        if (map.one_way_platforms && s.p1.y == s.p2.y) {
            built.one_way.push_back({bodies->segments[i], s.p1.y});
        } else {
            built.referee.segments.push_back(s);
        }
    }
    built.referee.boxes.insert(built.referee.boxes.end(), g.boxes.begin(), g.boxes.end());
    built.referee.polygons.insert(built.referee.polygons.end(), g.polygons.begin(),
                                  g.polygons.end());
    built.referee.circles.insert(built.referee.circles.end(), g.circles.begin(), g.circles.end());
    built.picture = g;
    return {};
}

void add_drawn(Built& built, BodyId id, const std::vector<ShapeDef>& shapes) {
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        built.drawn.push_back({id, shapes[k].shape, k == 0});
    }
}

Result<void> add_bodies(World& world, const io::Scene& scene, Built& built) {
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        const io::SceneBody& b = scene.bodies[i];
        std::mt19937 rng(b.random_seed);
        std::uniform_real_distribution<double> unit(0, 1);
        for (int y = 0; y < b.copies_y; ++y) {
            for (int x = 0; x < b.copies_x; ++x) {
                BodyDef def = b.def;
                def.position =
                    def.position + Vec2{real(x) * b.copy_step.x, real(y) * b.copy_step.y};
                if (b.random_speed) {
                    const double heading = 2 * double(k_pi) * unit(rng);
                    const double speed =
                        double(b.random_speed->first) +
                        double(b.random_speed->second - b.random_speed->first) * unit(rng);
                    def.linear_velocity = {real(speed * std::cos(heading)),
                                           real(speed * std::sin(heading))};
                }
                auto id =
                    create(world, def, b.shapes, scene.source + ": /bodies/" + std::to_string(i));
                if (!id) {
                    return id.error();
                }
                const int copy = y * b.copies_x + x;
                if (!b.name.empty()) {
                    const bool single = b.copies_x * b.copies_y == 1;
                    built.named.emplace_back(*id,
                                             single ? b.name : b.name + "#" + std::to_string(copy));
                }
                const Transform xf{def.position, Rot::from_angle(def.angle)};
                if (def.type == BodyType::static_body) {
                    for (const ShapeDef& s : b.shapes) {
                        if (!s.sensor) {
                            add_to_referee(built.picture, s.shape, xf);
                        }
                    }
                } else {
                    add_drawn(built, *id, b.shapes);
                }
                if (def.type == BodyType::dynamic) {
                    built.moving.push_back(*id);
                } else if (b.one_way) {
                    built.one_way.push_back({*id, body_aabb(b.shapes, xf).upper.y});
                } else if (def.type == BodyType::static_body) {
                    for (const ShapeDef& s : b.shapes) {
                        if (!s.sensor) {
                            add_to_referee(built.referee, s.shape, xf);
                        }
                    }
                }
            }
        }
    }
    for (std::size_t i = 0; i < scene.characters.size(); ++i) {
        const io::SceneCharacter& c = scene.characters[i];
        BodyDef def;
        def.type = BodyType::kinematic;
        def.position = c.position;
        auto id = create(world, def, c.shapes, scene.source + ": /characters/" + std::to_string(i));
        if (!id) {
            return id.error();
        }
        built.characters.push_back(*id);
        built.moving.push_back(*id);
        add_drawn(built, *id, c.shapes);
    }
    for (const OneWay& w : built.one_way) {
        const auto shapes = world.body_shapes(w.body);
        if (shapes) {
            built.one_way_shapes.insert(built.one_way_shapes.end(), shapes->begin(), shapes->end());
        }
    }
    std::sort(built.one_way_shapes.begin(), built.one_way_shapes.end());
    return {};
}

// A one-way platform holds a dynamic body only when the contact normal says
// the body is above it.
void install_one_way_rule(World& world, const Built& built) {
    if (built.one_way_shapes.empty()) {
        return;
    }
    // (Outside a step or a move: it cannot be refused.)
    (void)world.set_pre_solve(
        [&shapes = built.one_way_shapes](ShapeId a, ShapeId b, const Manifold& m) {
            const auto one_way = [&](ShapeId s) {
                return std::binary_search(shapes.begin(), shapes.end(), s);
            };
            // The normal points from a to b: down when a rests on the platform b.
            if (one_way(b)) {
                return m.normal.y < real(-0.5);
            }
            if (one_way(a)) {
                return m.normal.y > real(0.5);
            }
            return true;
        });
}

// One character's state between steps.
struct Walker {
    Vec2 walk;         ///< L per step
    real vertical = 0; ///< L/s, from gravity and jumps
    bool grounded = false;
    std::size_t next_input = 0;
};

Result<void> move_character(World& world, const io::Scene& scene, const io::SceneCharacter& c,
                            BodyId id, const Built& built, int step, Walker& w,
                            CharacterTrack& track) {
    bool jump = false;
    for (; w.next_input < c.inputs.size() && c.inputs[w.next_input].step <= step; ++w.next_input) {
        const io::CharacterInput& in = c.inputs[w.next_input];
        if (in.move) {
            w.walk = *in.move;
        }
        jump = jump || in.jump;
    }
    const Tolerances& tol = world.tolerances();
    if (jump && w.grounded) {
        w.vertical = c.jump_speed;
        ++track.jumps;
    } else if (jump) {
        ++track.jumps_refused;
    }
    if (c.gravity) {
        w.vertical += scene.world.gravity.y * scene.world.length_units_per_meter * scene.dt;
    }
    const auto state = world.body_state(id);
    if (!state) {
        track.removed = true; // it left WorldDef::bounds
        return {};
    }
    const real bottom = body_aabb(c.shapes, state->xf).lower.y;
    // One-way platforms block only a character that starts above them.
    const MoveFilter filter = [&](BodyId other) {
        for (const OneWay& p : built.one_way) {
            if (p.body == other) {
                return bottom >= p.top - tol.linear_slop ? MoveResponse::slide
                                                         : MoveResponse::cross;
            }
        }
        return MoveResponse::slide;
    };
    auto result = world.move(id, w.walk + Vec2{0, w.vertical * scene.dt}, filter);
    if (!result) {
        return result.error();
    }
    w.grounded = false;
    for (const MoveContact& contact : result->contacts) {
        if (contact.response == MoveResponse::cross) {
            continue;
        }
        if (contact.normal.y > real(0.5)) {
            w.grounded = true;
            w.vertical = std::max(w.vertical, real(0));
        } else if (contact.normal.y < real(-0.5)) {
            w.vertical = std::min(w.vertical, real(0)); // a ceiling
        }
    }
    track.grounded_steps += w.grounded ? 1 : 0;
    track.move_cap_hits += result->iteration_cap_hit ? 1 : 0;
    track.started_overlapping += result->started_overlapping ? 1 : 0;
    track.position = result->position;
    track.min_position = min(track.min_position, result->position);
    track.max_position = max(track.max_position, result->position);
    return {};
}

// The referee: the raster checker over the static boxes (cells at most half
// the thinnest box and half a tile), StaticShapes for the other shapes.
struct Referee {
    io::StaticGeometry geometry;
    std::optional<StaticShapes> shapes;
    std::optional<check::TunnelingChecker> checker;

    bool tunneled(Vec2 from, Vec2 to) const {
        return checker->check_step(from, to) != check::TunnelingChecker::Verdict::ok ||
               (!shapes->inside_shape(from) && shapes->inside_shape(to)) ||
               shapes->crosses_segment(from, to);
    }
};

Result<void> make_referee(Referee& referee, const io::Scene& scene, const World& world,
                          Built& built) {
    io::StaticGeometry& g = referee.geometry;
    g = std::move(built.referee);
    const real l = scene.world.length_units_per_meter;
    g.tile_width = scene.map ? scene.map->geometry.tile_width : std::max(1, int(l));
    g.tile_height = scene.map ? scene.map->geometry.tile_height : std::max(1, int(l));
    Aabb bounds{Vec2{0, 0}, Vec2{l, l}};
    bool first = true;
    const auto grow = [&](Aabb box) {
        bounds = first ? box : union_of(bounds, box);
        first = false;
    };
    real cell = real(0.5) * real(std::min(g.tile_width, g.tile_height));
    for (const Aabb& b : g.boxes) {
        grow(b);
        const Vec2 e = b.upper - b.lower;
        cell = std::min(cell, real(0.5) * std::min(e.x, e.y));
    }
    for (const Polygon& p : g.polygons) {
        grow(compute_aabb(p, Transform{}));
    }
    for (const Circle& c : g.circles) {
        grow(compute_aabb(c, Transform{}));
    }
    for (const Segment& s : g.segments) {
        grow(compute_aabb(s, Transform{}));
    }
    for (BodyId id : built.moving) {
        const Vec2 c = world.body_state(id)->center;
        grow({c, c});
    }
    if (scene.map) {
        grow(scene.map->geometry.bounds);
    }
    bounds = {bounds.lower - Vec2{l, l}, bounds.upper + Vec2{l, l}};
    g.bounds = bounds;
    const Vec2 size = bounds.upper - bounds.lower;
    // Whole cells per axis, as the checker counts them.
    while (std::ceil(double(size.x) / double(cell)) * std::ceil(double(size.y) / double(cell)) >
           k_max_referee_cells) {
        cell *= 2;
    }
    referee.shapes.emplace(g);
    auto checker = check::TunnelingChecker::make(g.boxes, bounds, cell);
    if (!checker) {
        return Error{checker.error().code,
                     scene.source + ": the tunneling referee: " + checker.error().message};
    }
    referee.checker.emplace(std::move(*checker));
    return {};
}

void write_trace_line(std::ostream& out, int step, const World& world,
                      const std::vector<BodyId>& bodies) {
    out << "{\"step\":" << step + 1 << ",\"bodies\":[";
    bool first = true;
    for (BodyId id : bodies) {
        const auto b = world.body_state(id);
        if (!b) {
            continue; // removed by the bounds
        }
        out << (first ? "[" : ",[") << id.index << ',' << b->center.x << ',' << b->center.y << ','
            << b->xf.q.angle() << ',' << b->linear_velocity.x << ',' << b->linear_velocity.y << ','
            << b->angular_velocity << ']';
        first = false;
    }
    out << "]}\n";
}

void fill_counts(RunReport& report, const io::Scene& scene, const World& world,
                 const Built& built) {
    report.level = scene.source;
    report.bodies = static_cast<int>(built.moving.size());
    report.linear_slop = world.tolerances().linear_slop;
    report.length_units_per_meter = scene.world.length_units_per_meter;
    if (scene.map) {
        set_static_counts(report, scene.map->geometry);
    }
    // The scene's own static and kinematic shapes, each its own before merging too.
    std::size_t own = 0;
    for (const io::SceneBody& b : scene.bodies) {
        if (b.def.type != BodyType::dynamic) {
            own += b.shapes.size() * std::size_t(b.copies_x) * std::size_t(b.copies_y);
        }
    }
    report.shapes_static += own;
    report.shapes_before_merge += own;
}

// Dynamic bodies in no touching pair: at rest that means hanging in mid-air.
int count_unsupported(const World& world, const std::vector<BodyId>& bodies) {
    std::vector<std::int32_t> touching;
    for (const ContactData& c : world.touching_contacts()) {
        touching.push_back(c.body_a.index);
        touching.push_back(c.body_b.index);
    }
    std::sort(touching.begin(), touching.end());
    int count = 0;
    for (BodyId id : bodies) {
        const auto state = world.body_state(id);
        if (state && state->type == BodyType::dynamic &&
            !std::binary_search(touching.begin(), touching.end(), id.index)) {
            ++count;
        }
    }
    return count;
}

// What pictures need of a scene run (SceneRunOptions::record_paths and
// frame_steps): every moving body's shapes, poses and path, the frames
// asked for, and where the referee saw tunneling.
class Recorder {
  public:
    Recorder(const Built& built, const SceneRunOptions& options, RunReport& report)
        : built_(built), options_(options), report_(report), poses_(built.drawn.size()),
          next_frame_(options.frame_steps.begin()) {
        render::Drawing& d = report.drawing;
        draw_static_geometry(d, built.picture);
        for (const DrawnShape& shape : built.drawn) {
            d.bodies.push_back({shape.shape, {}, {}, true});
        }
    }

    // Called with the steps done: 0 before the first.
    void after_step(const World& world, int step) {
        if (!options_.record_paths && options_.frame_steps.empty()) {
            return; // no picture: spare the run a pass over the bodies
        }
        for (std::size_t i = 0; i < built_.drawn.size(); ++i) {
            const auto state = world.body_state(built_.drawn[i].body);
            if (!state) {
                continue; // removed by the bounds: it keeps its last pose, its path ends
            }
            poses_[i] = state->xf;
            if (options_.record_paths && built_.drawn[i].carries_path) {
                report_.drawing.bodies[i].trajectory.push_back(state->center);
            }
        }
        for (; next_frame_ != options_.frame_steps.end() && *next_frame_ <= step; ++next_frame_) {
            if (*next_frame_ == step) {
                report_.frames.push_back({step, poses_, touching_points(world)});
            }
        }
    }

    void tunneled(Vec2 at) {
        if (options_.record_paths) {
            report_.drawing.markers.push_back(at);
        }
    }

    // The final poses and contacts, and a view of the static shapes, the
    // bodies and their paths (the referee's bounds start it).
    void finish(const World& world, Aabb view) {
        render::Drawing& d = report_.drawing;
        for (std::size_t i = 0; i < poses_.size(); ++i) {
            d.bodies[i].xf = poses_[i];
        }
        d.contacts = touching_points(world);
        const auto grow = [&](Vec2 p) {
            if (is_finite(p)) {
                view = union_of(view, Aabb{p, p});
            }
        };
        for (const Aabb& box : d.static_boxes) {
            view = union_of(view, box);
        }
        for (const auto* lines : {&d.static_polygons, &d.static_polylines}) {
            for (const std::vector<Vec2>& line : *lines) {
                std::for_each(line.begin(), line.end(), grow);
            }
        }
        for (const render::BodyDrawing& body : d.bodies) {
            view = union_of(view, compute_aabb(body.shape, body.xf));
            // The path is the centre's: room for the body around it.
            const real reach = max_extent(body.shape, Vec2{});
            for (const Vec2 p : body.trajectory) {
                grow(p - Vec2{reach, reach});
                grow(p + Vec2{reach, reach});
            }
        }
        // A margin, so that nothing touches the frame or hides under the title.
        const Vec2 size = view.upper - view.lower;
        d.view = inflate(view, real(0.05) * std::max(size.x, size.y));
    }

  private:
    const Built& built_;
    const SceneRunOptions& options_;
    RunReport& report_;
    std::vector<Transform> poses_; ///< one per built.drawn
    std::vector<int>::const_iterator next_frame_;
};

} // namespace

Result<SceneReport> run_scene(const io::Scene& scene, const SceneRunOptions& options) {
    WorldDef def = scene.world;
    def.measure_penetration = true;
    auto world = World::make(def);
    if (!world) {
        return Error{world.error().code, scene.source + ": /world: " + world.error().message};
    }
    Built built;
    if (scene.map) {
        if (auto ok = add_map(*world, *scene.map, built); !ok) {
            return ok.error();
        }
    }
    if (auto ok = add_bodies(*world, scene, built); !ok) {
        return ok.error();
    }
    install_one_way_rule(*world, built);
    SceneReport report;
    fill_counts(report.run, scene, *world, built);
    Referee referee;
    if (auto ok = make_referee(referee, scene, *world, built); !ok) {
        return ok.error();
    }

    std::vector<Vec2> centers;
    for (BodyId id : built.moving) {
        centers.push_back(world->body_state(id)->center);
    }
    for (const auto& [id, name] : built.named) {
        const BodyState s = world->body_state(id).value();
        report.named.push_back({name, s, s.center, s.center, false});
    }
    std::vector<Walker> walkers(scene.characters.size());
    for (std::size_t i = 0; i < scene.characters.size(); ++i) {
        const Vec2 p = scene.characters[i].position;
        report.characters.push_back({scene.characters[i].name, p, p, p});
    }
    std::ofstream trace;
    if (!options.trace.empty()) {
        trace.open(options.trace);
        if (!trace) {
            return Error{ErrorCode::io_error,
                         options.trace + ": cannot open the trace file for writing"};
        }
    }
    Recorder recorder(built, options, report.run);
    recorder.after_step(*world, 0);
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < scene.steps; ++s) {
        for (std::size_t i = 0; i < scene.characters.size(); ++i) {
            auto ok = move_character(*world, scene, scene.characters[i], built.characters[i], built,
                                     s, walkers[i], report.characters[i]);
            if (!ok) {
                return ok.error();
            }
        }
        if (auto ok = world->step(scene.dt, scene.substeps); !ok) {
            return ok.error();
        }
        const StepStats& stats = world->stats();
        RunReport& r = report.run;
        r.contacts_max = std::max(r.contacts_max, stats.contacts);
        r.max_penetration = std::max(r.max_penetration, stats.max_penetration);
        r.subdivision_cap_hits += stats.toi_failures + stats.sweep_round_cap_hits;
        r.toi_events += stats.toi_events;
        for (std::size_t i = 0; i < built.moving.size(); ++i) {
            const auto state = world->body_state(built.moving[i]);
            if (!state) {
                continue; // removed by the bounds
            }
            if (referee.tunneled(centers[i], state->center)) {
                ++r.tunneling_events;
                recorder.tunneled(state->center);
            }
            centers[i] = state->center;
        }
        for (std::size_t i = 0; i < built.named.size(); ++i) {
            BodyTrack& t = report.named[i];
            const auto state = world->body_state(built.named[i].first);
            if (!state) {
                t.removed = true;
                continue;
            }
            t.final_state = *state;
            t.min_center = min(t.min_center, state->center);
            t.max_center = max(t.max_center, state->center);
        }
        ++r.steps;
        if (trace) {
            write_trace_line(trace, s, *world, built.moving);
        }
        recorder.after_step(*world, s + 1);
        if (options.progress) {
            options.progress(s + 1, scene.steps);
        }
    }
    recorder.finish(*world, referee.geometry.bounds);
    RunReport& r = report.run;
    r.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.steps_per_second = r.wall_seconds > 0 ? r.steps / r.wall_seconds : 0;
    int dynamic = 0;
    for (BodyId id : built.moving) {
        const auto state = world->body_state(id);
        if (state && state->type == BodyType::dynamic) {
            const real speed = length(state->linear_velocity);
            report.mean_speed += speed;
            report.max_speed = std::max(report.max_speed, speed);
            ++dynamic;
        }
    }
    report.mean_speed = dynamic > 0 ? report.mean_speed / real(dynamic) : 0;
    report.final_penetration = world->stats().max_penetration;
    report.unsupported = count_unsupported(*world, built.moving);
    return report;
}

nlohmann::json scene_json(const SceneReport& report) {
    nlohmann::json named = nlohmann::json::object();
    for (const BodyTrack& t : report.named) {
        const BodyState& s = t.final_state;
        named[t.name] = {{"x", s.center.x},
                         {"y", s.center.y},
                         {"angle", s.xf.q.angle()},
                         {"vx", s.linear_velocity.x},
                         {"vy", s.linear_velocity.y},
                         {"w", s.angular_velocity},
                         {"mass", s.mass},
                         {"min_x", t.min_center.x},
                         {"min_y", t.min_center.y},
                         {"max_x", t.max_center.x},
                         {"max_y", t.max_center.y},
                         {"removed", t.removed}};
    }
    nlohmann::json characters = nlohmann::json::object();
    for (const CharacterTrack& c : report.characters) {
        characters[c.name] = {{"x", c.position.x},
                              {"y", c.position.y},
                              {"min_x", c.min_position.x},
                              {"min_y", c.min_position.y},
                              {"max_x", c.max_position.x},
                              {"max_y", c.max_position.y},
                              {"jumps", c.jumps},
                              {"jumps_refused", c.jumps_refused},
                              {"grounded_steps", c.grounded_steps},
                              {"move_cap_hits", c.move_cap_hits},
                              {"started_overlapping", c.started_overlapping},
                              {"removed", c.removed}};
    }
    return {{"named", named},
            {"characters", characters},
            {"mean_speed", report.mean_speed},
            {"max_speed", report.max_speed},
            {"final_penetration", report.final_penetration},
            {"unsupported_bodies", report.unsupported}};
}

void print_scene(const SceneReport& report) {
    for (const BodyTrack& t : report.named) {
        const BodyState& s = t.final_state;
        fmt::print("body {:<11} centre ({:.3f}, {:.3f}), velocity ({:.3f}, {:.3f}){}\n", t.name,
                   s.center.x, s.center.y, s.linear_velocity.x, s.linear_velocity.y,
                   t.removed ? ", removed" : "");
    }
    for (const CharacterTrack& c : report.characters) {
        fmt::print("character {:<6} at ({:.3f}, {:.3f}), {} jumps, {} steps on the ground\n",
                   c.name, c.position.x, c.position.y, c.jumps, c.grounded_steps);
    }
    fmt::print("dynamic speeds   mean {:.4f}, max {:.4f} L/s; {} touching nothing\n",
               report.mean_speed, report.max_speed, report.unsupported);
}

} // namespace sweep::app
