// Scene files (docs/scenes.md): JSON read with nlohmann-json, validated key
// by key. Every value is checked where it is read, so an error names the
// JSON path of the offending value.
#include "sweep/io/scene.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>

#include "error.hpp"

namespace sweep::io {
namespace {

using detail::make_error;
using nlohmann::json;

constexpr std::uintmax_t k_max_file_bytes = std::uintmax_t(64) << 20;
constexpr std::int64_t k_max_bodies = std::int64_t(1) << 20;
constexpr int k_max_steps = 100'000'000;

// A JSON value and its path from the document's root (RFC 6901).
struct Node {
    const json& value;
    std::string path;

    Node at(std::string_view key) const {
        return {value.at(std::string(key)), path + "/" + std::string(key)};
    }
    Node at(std::size_t i) const { return {value.at(i), path + "/" + std::to_string(i)}; }
    bool has(std::string_view key) const { return value.contains(std::string(key)); }
};

// Reads values and keeps the first error, so parsing code reads straight
// through and stops at the first problem.
class Reader {
  public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

    bool ok() const { return !error_; }
    const Error& error() const { return *error_; }

    void fail(ErrorCode code, const std::string& path, const std::string& problem) {
        if (!error_) {
            error_ =
                make_error(code, source_ + ": " + (path.empty() ? "/" : path) + ": " + problem);
        }
    }

    // An object whose keys are all in `allowed`.
    bool object(const Node& n, std::initializer_list<std::string_view> allowed) {
        if (!n.value.is_object()) {
            fail(ErrorCode::parse_error, n.path, "expected an object, got " + type_name(n.value));
            return false;
        }
        for (const auto& item : n.value.items()) {
            if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
                fail(ErrorCode::parse_error, n.path,
                     "unknown key " + detail::in_quotes(item.key()));
                return false;
            }
        }
        return true;
    }

    bool array(const Node& n) {
        if (!n.value.is_array()) {
            fail(ErrorCode::parse_error, n.path, "expected an array, got " + type_name(n.value));
            return false;
        }
        return true;
    }

    // A finite number representable as `real`.
    real number(const Node& n) {
        if (!n.value.is_number()) {
            fail(ErrorCode::parse_error, n.path, "expected a number, got " + type_name(n.value));
            return 0;
        }
        const double d = n.value.get<double>();
        const auto r = static_cast<real>(d);
        if (!std::isfinite(d) || !std::isfinite(r)) {
            fail(ErrorCode::invalid_input, n.path,
                 "number is not finite (NaN, infinite or too large)");
            return 0;
        }
        return r;
    }

    real number_at_least(const Node& n, real least, bool strict) {
        const real r = number(n);
        if (ok() && (strict ? !(r > least) : !(r >= least))) {
            std::ostringstream text;
            text << "must be " << (strict ? "> " : ">= ") << least << ", got " << r;
            fail(ErrorCode::invalid_input, n.path, text.str());
        }
        return r;
    }

    std::int64_t integer(const Node& n, std::int64_t least, std::int64_t most) {
        if (!n.value.is_number_integer()) {
            fail(ErrorCode::parse_error, n.path, "expected an integer, got " + type_name(n.value));
            return least;
        }
        // Non-negative integers parse as unsigned: compare them before any cast.
        const bool too_big = n.value.is_number_unsigned() &&
                             n.value.get<std::uint64_t>() > static_cast<std::uint64_t>(most);
        if (too_big || n.value.get<std::int64_t>() > most || n.value.get<std::int64_t>() < least) {
            fail(ErrorCode::invalid_input, n.path,
                 "must be from " + std::to_string(least) + " to " + std::to_string(most));
            return least;
        }
        return n.value.get<std::int64_t>();
    }

    bool boolean(const Node& n) {
        if (!n.value.is_boolean()) {
            fail(ErrorCode::parse_error, n.path,
                 "expected true or false, got " + type_name(n.value));
            return false;
        }
        return n.value.get<bool>();
    }

    std::string string(const Node& n) {
        if (!n.value.is_string()) {
            fail(ErrorCode::parse_error, n.path, "expected a string, got " + type_name(n.value));
            return {};
        }
        return n.value.get<std::string>();
    }

    // [x, y]
    Vec2 vec2(const Node& n) {
        if (!n.value.is_array() || n.value.size() != 2) {
            fail(ErrorCode::parse_error, n.path, "expected [x, y], got " + type_name(n.value));
            return {};
        }
        return {number(n.at(std::size_t(0))), number(n.at(std::size_t(1)))};
    }

    std::vector<Vec2> points(const Node& n) {
        std::vector<Vec2> out;
        if (!array(n)) {
            return out;
        }
        for (std::size_t i = 0; i < n.value.size() && ok(); ++i) {
            out.push_back(vec2(n.at(i)));
        }
        return out;
    }

    // A required key of an object already checked by object().
    bool require(const Node& n, std::string_view key) {
        if (!n.has(key)) {
            fail(ErrorCode::parse_error, n.path, "missing key " + detail::in_quotes(key));
            return false;
        }
        return true;
    }

    // Checks a factory's result; its error names the path.
    template <class T> std::optional<T> made(Result<T> r, const std::string& path) {
        if (!r) {
            fail(r.error().code, path, r.error().message);
            return std::nullopt;
        }
        return std::move(r).value();
    }

  private:
    static std::string type_name(const json& j) {
        switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::object:
            return "an object";
        case json::value_t::array:
            return "an array";
        case json::value_t::string:
            return "the string " + detail::in_quotes(j.get<std::string>());
        case json::value_t::boolean:
            return j.get<bool>() ? "true" : "false";
        default:
            return "a number";
        }
    }

    std::string source_;
    std::optional<Error> error_;
};

Material read_material(Reader& r, const Node& n) {
    Material m;
    if (!r.object(n, {"density", "friction", "restitution", "rolling_resistance"})) {
        return m;
    }
    if (n.has("density")) {
        m.density = r.number_at_least(n.at("density"), 0, false);
    }
    if (n.has("friction")) {
        m.friction = r.number_at_least(n.at("friction"), 0, false);
    }
    if (n.has("restitution")) {
        m.restitution = r.number_at_least(n.at("restitution"), 0, false);
        if (r.ok() && m.restitution > 1) {
            r.fail(ErrorCode::invalid_input, n.path + "/restitution", "must be at most 1");
        }
    }
    if (n.has("rolling_resistance")) {
        m.rolling_resistance = r.number_at_least(n.at("rolling_resistance"), 0, false);
    }
    return m;
}

std::uint64_t read_bits(Reader& r, const Node& n) {
    if (!n.value.is_number_unsigned()) {
        r.fail(ErrorCode::parse_error, n.path, "expected a non-negative integer (bit mask)");
        return 0;
    }
    return n.value.get<std::uint64_t>();
}

Filter read_filter(Reader& r, const Node& n) {
    Filter f;
    if (!r.object(n, {"category", "mask", "group"})) {
        return f;
    }
    if (n.has("category")) {
        f.category_bits = read_bits(r, n.at("category"));
    }
    if (n.has("mask")) {
        f.mask_bits = read_bits(r, n.at("mask"));
    }
    if (n.has("group")) {
        f.group_index = static_cast<std::int32_t>(r.integer(n.at("group"), INT32_MIN, INT32_MAX));
    }
    return f;
}

real read_radius(Reader& r, const Node& n, std::string_view key, bool required) {
    if (!n.has(key)) {
        if (required) {
            r.require(n, key);
        }
        return 0;
    }
    const Node v = n.at(key);
    const real radius = r.number(v);
    if (r.ok() && radius < 0) {
        r.fail(ErrorCode::invalid_input, v.path, "negative radius");
    } else if (r.ok() && required && radius == 0) {
        r.fail(ErrorCode::degenerate_shape, v.path, "zero radius");
    }
    return radius;
}

// An open chain: consecutive segments whose ghosts are their neighbours; the
// two ends are open (ghost equal to the end point).
std::vector<ChainSegment> open_chain(const std::vector<Vec2>& p) {
    std::vector<ChainSegment> out;
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
        out.push_back(
            {i > 0 ? p[i - 1] : p[i], {p[i], p[i + 1]}, i + 2 < p.size() ? p[i + 2] : p[i + 1]});
    }
    return out;
}

// The geometry of one shape entry: one shape, or a chain's segments.
std::vector<Shape> read_geometry(Reader& r, const Node& n, const std::string& type) {
    std::vector<Shape> out;
    const Vec2 center = n.has("center") ? r.vec2(n.at("center")) : Vec2{};
    if (!r.ok()) {
        return out;
    }
    if (type == "circle") {
        const real radius = read_radius(r, n, "radius", true);
        if (r.ok()) {
            out.emplace_back(Circle{center, radius});
        }
    } else if (type == "capsule") {
        if (!r.require(n, "center1") || !r.require(n, "center2")) {
            return out;
        }
        const Vec2 c1 = r.vec2(n.at("center1")), c2 = r.vec2(n.at("center2"));
        const real radius = read_radius(r, n, "radius", true);
        if (r.ok()) {
            if (auto c = r.made(make_capsule(c1, c2, radius), n.path)) {
                out.emplace_back(*c);
            }
        }
    } else if (type == "box") {
        if (!r.require(n, "half_width") || !r.require(n, "half_height")) {
            return out;
        }
        const real hx = r.number_at_least(n.at("half_width"), 0, true);
        const real hy = r.number_at_least(n.at("half_height"), 0, true);
        const real angle = n.has("angle") ? r.number(n.at("angle")) : 0;
        if (r.ok()) {
            if (auto box = r.made(make_offset_box(hx, hy, center, angle), n.path)) {
                out.emplace_back(*box);
            }
        }
    } else if (type == "polygon") {
        if (!r.require(n, "points")) {
            return out;
        }
        const std::vector<Vec2> points = r.points(n.at("points"));
        const real radius = read_radius(r, n, "radius", false);
        if (r.ok()) {
            if (auto p = r.made(make_polygon(points, radius), n.path + "/points")) {
                out.emplace_back(*p);
            }
        }
    } else if (type == "segment") {
        if (!r.require(n, "p1") || !r.require(n, "p2")) {
            return out;
        }
        const Vec2 p1 = r.vec2(n.at("p1")), p2 = r.vec2(n.at("p2"));
        if (r.ok()) {
            if (auto s = r.made(make_segment(p1, p2), n.path)) {
                out.emplace_back(*s);
            }
        }
    } else if (type == "chain") {
        if (!r.require(n, "points")) {
            return out;
        }
        const std::vector<Vec2> points = r.points(n.at("points"));
        const bool loop = n.has("loop") && r.boolean(n.at("loop"));
        if (!r.ok()) {
            return out;
        }
        for (std::size_t i = 0; i + 1 < points.size(); ++i) {
            if (points[i] == points[i + 1]) {
                r.fail(ErrorCode::degenerate_shape, n.path + "/points/" + std::to_string(i + 1),
                       "repeats the point before it");
                return out;
            }
        }
        if (loop) {
            if (auto chain = r.made(make_chain_loop(points), n.path + "/points")) {
                out.assign(chain->begin(), chain->end());
            }
        } else if (points.size() < 2) {
            r.fail(ErrorCode::degenerate_shape, n.path + "/points",
                   "an open chain needs at least 2 points");
        } else {
            const std::vector<ChainSegment> chain = open_chain(points);
            out.assign(chain.begin(), chain.end());
        }
    } else {
        r.fail(ErrorCode::parse_error, n.path + "/type",
               "unknown shape type " + detail::in_quotes(type) +
                   " (circle, capsule, box, polygon, segment, chain)");
    }
    return out;
}

std::vector<ShapeDef> read_shape(Reader& r, const Node& n) {
    std::vector<ShapeDef> out;
    if (!r.object(n, {"type", "center", "radius", "center1", "center2", "half_width", "half_height",
                      "angle", "points", "p1", "p2", "loop", "material", "filter", "sensor"}) ||
        !r.require(n, "type")) {
        return out;
    }
    const std::string type = r.string(n.at("type"));
    if (!r.ok()) {
        return out;
    }
    // Keys that belong to another shape type are mistakes, not extras.
    const std::vector<std::pair<std::string_view, std::vector<std::string_view>>> keys{
        {"circle", {"center", "radius"}},
        {"capsule", {"center1", "center2", "radius"}},
        {"box", {"center", "half_width", "half_height", "angle"}},
        {"polygon", {"points", "radius"}},
        {"segment", {"p1", "p2"}},
        {"chain", {"points", "loop"}}};
    for (const auto& item : n.value.items()) {
        const std::string_view k = item.key();
        if (k == "type" || k == "material" || k == "filter" || k == "sensor") {
            continue;
        }
        const auto own =
            std::find_if(keys.begin(), keys.end(), [&](const auto& e) { return e.first == type; });
        if (own != keys.end() &&
            std::find(own->second.begin(), own->second.end(), k) == own->second.end()) {
            r.fail(ErrorCode::parse_error, n.path,
                   "key " + detail::in_quotes(k) + " does not belong to a " + type);
            return out;
        }
    }
    const std::vector<Shape> geometry = read_geometry(r, n, type);
    ShapeDef def;
    if (n.has("material")) {
        def.material = read_material(r, n.at("material"));
    }
    if (n.has("filter")) {
        def.filter = read_filter(r, n.at("filter"));
    }
    if (n.has("sensor")) {
        def.sensor = r.boolean(n.at("sensor"));
    }
    if (!r.ok()) {
        return out;
    }
    for (const Shape& s : geometry) {
        def.shape = s;
        out.push_back(def);
    }
    return out;
}

std::vector<ShapeDef> read_shapes(Reader& r, const Node& n) {
    std::vector<ShapeDef> out;
    if (!r.array(n)) {
        return out;
    }
    if (n.value.empty()) {
        r.fail(ErrorCode::invalid_input, n.path, "a body needs at least one shape");
    }
    for (std::size_t i = 0; i < n.value.size() && r.ok(); ++i) {
        for (ShapeDef& s : read_shape(r, n.at(i))) {
            out.push_back(s);
        }
    }
    return out;
}

BodyType read_body_type(Reader& r, const Node& n) {
    const std::string t = r.string(n);
    if (t == "static") {
        return BodyType::static_body;
    }
    if (t == "kinematic") {
        return BodyType::kinematic;
    }
    if (t != "dynamic" && r.ok()) {
        r.fail(ErrorCode::parse_error, n.path,
               "unknown body type " + detail::in_quotes(t) + " (static, kinematic, dynamic)");
    }
    return BodyType::dynamic;
}

void read_copies(Reader& r, const Node& n, SceneBody& body) {
    if (!r.object(n, {"count", "step", "random_speed", "seed"}) || !r.require(n, "count")) {
        return;
    }
    const Node count = n.at("count");
    if (!count.value.is_array() || count.value.size() != 2) {
        r.fail(ErrorCode::parse_error, count.path, "expected [columns, rows]");
        return;
    }
    body.copies_x = static_cast<int>(r.integer(count.at(std::size_t(0)), 1, k_max_bodies));
    body.copies_y = static_cast<int>(r.integer(count.at(std::size_t(1)), 1, k_max_bodies));
    if (n.has("step")) {
        body.copy_step = r.vec2(n.at("step"));
    }
    if (n.has("random_speed")) {
        const Node s = n.at("random_speed");
        const Vec2 range = r.vec2(s);
        if (r.ok() && !(range.x >= 0 && range.y >= range.x)) {
            r.fail(ErrorCode::invalid_input, s.path, "expected [min, max] with 0 <= min <= max");
        }
        body.random_speed = std::pair{range.x, range.y};
    }
    if (n.has("seed")) {
        body.random_seed = static_cast<std::uint32_t>(r.integer(n.at("seed"), 0, UINT32_MAX));
    }
}

SceneBody read_body(Reader& r, const Node& n) {
    SceneBody b;
    if (!r.object(n, {"name", "type", "position", "angle", "linear_velocity", "angular_velocity",
                      "gravity_scale", "linear_damping", "angular_damping", "fixed_rotation",
                      "one_way", "copies", "shapes"}) ||
        !r.require(n, "shapes")) {
        return b;
    }
    BodyDef& d = b.def;
    if (n.has("name")) {
        b.name = r.string(n.at("name"));
    }
    if (n.has("type")) {
        d.type = read_body_type(r, n.at("type"));
    }
    if (n.has("position")) {
        d.position = r.vec2(n.at("position"));
    }
    if (n.has("angle")) {
        d.angle = r.number(n.at("angle"));
    }
    if (n.has("linear_velocity")) {
        d.linear_velocity = r.vec2(n.at("linear_velocity"));
    }
    if (n.has("angular_velocity")) {
        d.angular_velocity = r.number(n.at("angular_velocity"));
    }
    if (n.has("gravity_scale")) {
        d.gravity_scale = r.number(n.at("gravity_scale"));
    }
    if (n.has("linear_damping")) {
        d.linear_damping = r.number_at_least(n.at("linear_damping"), 0, false);
    }
    if (n.has("angular_damping")) {
        d.angular_damping = r.number_at_least(n.at("angular_damping"), 0, false);
    }
    if (n.has("fixed_rotation")) {
        d.fixed_rotation = r.boolean(n.at("fixed_rotation"));
    }
    if (n.has("one_way")) {
        b.one_way = r.boolean(n.at("one_way"));
    }
    if (n.has("copies")) {
        read_copies(r, n.at("copies"), b);
    }
    b.shapes = read_shapes(r, n.at("shapes"));
    if (!r.ok()) {
        return b;
    }
    const bool has_line = std::any_of(b.shapes.begin(), b.shapes.end(), [](const ShapeDef& s) {
        return s.shape.type == ShapeType::segment || s.shape.type == ShapeType::chain_segment;
    });
    if (d.type != BodyType::static_body && has_line) {
        r.fail(ErrorCode::invalid_input, n.path + "/shapes",
               "segments and chains have no mass: only static bodies may have them");
    }
    if (d.type == BodyType::dynamic &&
        std::none_of(b.shapes.begin(), b.shapes.end(),
                     [](const ShapeDef& s) { return s.material.density > 0; })) {
        r.fail(ErrorCode::invalid_input, n.path + "/shapes",
               "a dynamic body needs a shape with density > 0");
    }
    return b;
}

std::vector<CharacterInput> read_inputs(Reader& r, const Node& n) {
    std::vector<CharacterInput> out;
    if (!r.array(n)) {
        return out;
    }
    for (std::size_t i = 0; i < n.value.size() && r.ok(); ++i) {
        const Node e = n.at(i);
        if (!r.object(e, {"step", "move", "jump"}) || !r.require(e, "step")) {
            break;
        }
        CharacterInput in;
        in.step = static_cast<int>(r.integer(e.at("step"), 0, k_max_steps));
        if (e.has("move")) {
            in.move = r.vec2(e.at("move"));
        }
        if (e.has("jump")) {
            in.jump = r.boolean(e.at("jump"));
        }
        if (r.ok() && !out.empty() && in.step < out.back().step) {
            r.fail(ErrorCode::invalid_input, e.path + "/step", "inputs must be in order of step");
        }
        out.push_back(in);
    }
    return out;
}

SceneCharacter read_character(Reader& r, const Node& n) {
    SceneCharacter c;
    if (!r.object(n, {"name", "position", "shapes", "gravity", "jump_speed", "inputs"}) ||
        !r.require(n, "shapes")) {
        return c;
    }
    if (n.has("name")) {
        c.name = r.string(n.at("name"));
    }
    if (n.has("position")) {
        c.position = r.vec2(n.at("position"));
    }
    c.shapes = read_shapes(r, n.at("shapes"));
    if (n.has("gravity")) {
        c.gravity = r.boolean(n.at("gravity"));
    }
    if (n.has("jump_speed")) {
        c.jump_speed = r.number_at_least(n.at("jump_speed"), 0, false);
    }
    if (n.has("inputs")) {
        c.inputs = read_inputs(r, n.at("inputs"));
    }
    if (r.ok() && std::any_of(c.shapes.begin(), c.shapes.end(), [](const ShapeDef& s) {
            return s.shape.type == ShapeType::segment || s.shape.type == ShapeType::chain_segment;
        })) {
        r.fail(ErrorCode::invalid_input, n.path + "/shapes",
               "a character cannot be a segment or chain");
    }
    return c;
}

void read_world(Reader& r, const Node& n, Scene& scene) {
    if (!r.object(n, {"gravity", "length_units_per_meter", "max_translation_speed",
                      "hit_speed_threshold", "velocity_iterations", "position_iterations",
                      "correction_rounds", "solver_substeps", "substeps", "bounds", "broadphase",
                      "grid_cell_size", "sleep", "time_to_sleep"})) {
        return;
    }
    WorldDef& w = scene.world;
    if (n.has("gravity")) {
        w.gravity = r.vec2(n.at("gravity"));
    }
    if (n.has("length_units_per_meter")) {
        w.length_units_per_meter = r.number_at_least(n.at("length_units_per_meter"), 0, true);
    }
    if (n.has("max_translation_speed")) {
        w.max_translation_speed = r.number_at_least(n.at("max_translation_speed"), 0, true);
    }
    if (n.has("hit_speed_threshold")) {
        w.hit_speed_threshold = r.number_at_least(n.at("hit_speed_threshold"), 0, false);
    }
    if (n.has("velocity_iterations")) {
        w.velocity_iterations = static_cast<int>(r.integer(n.at("velocity_iterations"), 1, 1000));
    }
    if (n.has("position_iterations")) {
        w.position_iterations = static_cast<int>(r.integer(n.at("position_iterations"), 1, 1000));
    }
    if (n.has("correction_rounds")) {
        w.correction_rounds = static_cast<int>(r.integer(n.at("correction_rounds"), 1, 1000));
    }
    if (n.has("solver_substeps")) {
        w.solver_substeps = static_cast<int>(r.integer(n.at("solver_substeps"), 1, 1000));
    }
    if (n.has("substeps")) {
        scene.substeps = static_cast<int>(r.integer(n.at("substeps"), 1, 1000));
    }
    if (n.has("sleep")) {
        w.enable_sleep = r.boolean(n.at("sleep"));
    }
    if (n.has("time_to_sleep")) {
        w.time_to_sleep = r.number_at_least(n.at("time_to_sleep"), 0, false);
    }
    if (n.has("bounds")) {
        const Node b = n.at("bounds");
        if (r.object(b, {"lower", "upper"}) && r.require(b, "lower") && r.require(b, "upper")) {
            const Aabb box{r.vec2(b.at("lower")), r.vec2(b.at("upper"))};
            if (r.ok() && !(box.lower.x < box.upper.x && box.lower.y < box.upper.y)) {
                r.fail(ErrorCode::invalid_input, b.path, "lower must be below and left of upper");
            }
            w.bounds = box;
        }
    }
    if (n.has("broadphase")) {
        const std::string bp = r.string(n.at("broadphase"));
        if (bp == "grid") {
            w.static_broadphase = StaticBroadphase::grid;
        } else if (bp != "tree" && r.ok()) {
            r.fail(ErrorCode::parse_error, n.path + "/broadphase", "expected \"tree\" or \"grid\"");
        }
    }
    if (n.has("grid_cell_size")) {
        w.grid_cell_size = r.number_at_least(n.at("grid_cell_size"), 0, false);
    }
}

void read_run(Reader& r, const Node& n, Scene& scene) {
    if (!r.object(n, {"steps", "dt"})) {
        return;
    }
    if (n.has("steps")) {
        scene.steps = static_cast<int>(r.integer(n.at("steps"), 0, k_max_steps));
    }
    if (n.has("dt")) {
        scene.dt = r.number_at_least(n.at("dt"), 0, true);
        if (r.ok() && scene.dt > 1) {
            r.fail(ErrorCode::invalid_input, n.path + "/dt", "must be at most 1 s");
        }
    }
}

void read_map(Reader& r, const Node& n, const std::filesystem::path& base, Scene& scene) {
    if (!r.object(n, {"path", "solid_layers", "solid_properties", "one_way_platforms"}) ||
        !r.require(n, "path")) {
        return;
    }
    SceneMap map;
    map.path = base / r.string(n.at("path"));
    TiledLoadOptions options;
    if (n.has("solid_layers")) {
        const Node layers = n.at("solid_layers");
        for (std::size_t i = 0; r.array(layers) && i < layers.value.size() && r.ok(); ++i) {
            options.solid_layers.push_back(r.string(layers.at(i)));
        }
    }
    if (n.has("solid_properties")) {
        const Node props = n.at("solid_properties");
        for (std::size_t i = 0; r.array(props) && i < props.value.size() && r.ok(); ++i) {
            const Node p = props.at(i);
            if (auto property = r.made(parse_solid_property(r.string(p)), p.path)) {
                options.solid_properties.push_back(*property);
            }
        }
    }
    if (n.has("one_way_platforms")) {
        map.one_way_platforms = r.boolean(n.at("one_way_platforms"));
    }
    if (!r.ok()) {
        return;
    }
    auto geometry = load_tiled_map(map.path, options);
    if (!geometry) {
        r.fail(geometry.error().code, n.path + "/path", geometry.error().message);
        return;
    }
    map.geometry = std::move(geometry).value();
    scene.map = std::move(map);
}

Result<Scene> read_scene(const json& root, std::string_view name) {
    Scene scene;
    scene.source = std::string(name);
    Reader r(scene.source);
    const Node n{root, ""};
    if (!r.object(n, {"format", "version", "description", "world", "run", "map", "bodies",
                      "characters"}) ||
        !r.require(n, "format") || !r.require(n, "version")) {
        return r.error();
    }
    if (r.string(n.at("format")) != k_scene_format && r.ok()) {
        r.fail(ErrorCode::parse_error, "/format", "expected \"sweep-scene\"");
    }
    if (r.integer(n.at("version"), 1, 1) != 1 || !r.ok()) {
        return r.error();
    }
    if (n.has("description")) {
        scene.description = r.string(n.at("description"));
    }
    if (n.has("world")) {
        read_world(r, n.at("world"), scene);
    }
    if (n.has("run")) {
        read_run(r, n.at("run"), scene);
    }
    std::int64_t bodies = 0;
    if (n.has("bodies") && r.ok()) {
        const Node list = n.at("bodies");
        for (std::size_t i = 0; r.array(list) && i < list.value.size() && r.ok(); ++i) {
            scene.bodies.push_back(read_body(r, list.at(i)));
            bodies += std::int64_t(scene.bodies.back().copies_x) * scene.bodies.back().copies_y;
            if (bodies > k_max_bodies) {
                r.fail(ErrorCode::limit_exceeded, list.at(i).path + "/copies",
                       "more than " + std::to_string(k_max_bodies) + " bodies");
            }
        }
    }
    if (n.has("characters") && r.ok()) {
        const Node list = n.at("characters");
        for (std::size_t i = 0; r.array(list) && i < list.value.size() && r.ok(); ++i) {
            scene.characters.push_back(read_character(r, list.at(i)));
        }
    }
    // The map last: the cheap checks above fail fast.
    if (n.has("map") && r.ok()) {
        const std::filesystem::path base = std::filesystem::path(name).parent_path();
        read_map(r, n.at("map"), base, scene);
        // One tile is one metre on a map (docs/tiled.md) unless the world says otherwise.
        const bool units_given = n.has("world") && n.at("world").has("length_units_per_meter");
        if (r.ok() && !units_given) {
            scene.world.length_units_per_meter = scene.map->geometry.length_units_per_meter;
        }
    }
    if (!r.ok()) {
        return r.error();
    }
    return scene;
}

// The JSON path of the value a SAX parse stopped at: nlohmann reports a
// number that overflows (1e999) without a place, so a second, path-keeping
// pass finds it.
class PathFinder : public nlohmann::json_sax<json> {
  public:
    std::string path() const {
        std::string out;
        for (const Level& l : stack_) {
            out += "/" + (l.array ? std::to_string(l.index) : l.key);
        }
        return out;
    }

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override {
        stack_.push_back({false, 0, {}});
        return true;
    }
    bool key(string_t& k) override {
        stack_.back().key = k;
        return true;
    }
    bool end_object() override { return end(); }
    bool start_array(std::size_t) override {
        stack_.push_back({true, 0, {}});
        return true;
    }
    bool end_array() override { return end(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }

  private:
    struct Level {
        bool array;
        std::size_t index;
        std::string key;
    };
    bool value() {
        if (!stack_.empty() && stack_.back().array) {
            ++stack_.back().index;
        }
        return true;
    }
    bool end() {
        stack_.pop_back();
        return value();
    }
    std::vector<Level> stack_;
};

// Reads a JSON document up to its top-level "format" and stops there, so
// that a scene with a bad value later on (1e999, a syntax error) is still
// told from a Tiled map, and gets the scene loader's message.
struct FormatFinder : nlohmann::json_sax<json> {
    bool found = false;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t& value) override {
        if (depth == 1 && arrays == 0 && key_is_format) {
            found = value == k_scene_format;
            return false;
        }
        return true;
    }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override {
        ++depth;
        return true;
    }
    bool key(string_t& k) override {
        key_is_format = depth == 1 && k == "format";
        return true;
    }
    bool end_object() override {
        --depth;
        return true;
    }
    bool start_array(std::size_t) override {
        depth += 1;
        ++arrays;
        return true;
    }
    bool end_array() override {
        depth -= 1;
        --arrays;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }

  private:
    int depth = 0;
    int arrays = 0;
    bool key_is_format = false;
};

// Line and column (1-based) of byte `offset` in `text`.
std::string line_and_column(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(
                                     text.begin(), text.begin() + std::ptrdiff_t(offset), '\n'));
    const std::size_t start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t column = start == std::string_view::npos ? offset + 1 : offset - start;
    return "line " + std::to_string(line) + " column " + std::to_string(column);
}

} // namespace

bool is_scene_text(std::string_view text) {
    FormatFinder finder;
    json::sax_parse(text.begin(), text.end(), &finder, json::input_format_t::json, false);
    return finder.found;
}

Result<Scene> load_scene_from_memory(std::string_view text, std::string_view name) {
    if (text.size() > k_max_file_bytes) {
        return make_error(ErrorCode::limit_exceeded, std::string(name) + ": file over 64 MiB");
    }
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // e.byte is 1-based: the byte after the one that broke the parse.
        return make_error(ErrorCode::parse_error,
                          std::string(name) + ": " +
                              line_and_column(text, e.byte == 0 ? 0 : e.byte - 1) +
                              ": malformed JSON");
    } catch (const json::exception&) {
        // A number beyond double's range; everything else is a parse_error.
        PathFinder finder;
        json::sax_parse(text.begin(), text.end(), &finder, json::input_format_t::json, false);
        const std::string path = finder.path();
        return make_error(ErrorCode::invalid_input,
                          std::string(name) + ": " + (path.empty() ? "/" : path) +
                              ": number is not finite (NaN, infinite or too large)");
    }
    return read_scene(root, name);
}

Result<Scene> load_scene(const std::filesystem::path& file) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec) {
        return make_error(ErrorCode::io_error, file.string() + ": cannot read: " + ec.message());
    }
    if (size > k_max_file_bytes) {
        return make_error(ErrorCode::limit_exceeded, file.string() + ": file over 64 MiB");
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
        return make_error(ErrorCode::io_error, file.string() + ": cannot read");
    }
    return load_scene_from_memory(text.str(), file.string());
}

} // namespace sweep::io
