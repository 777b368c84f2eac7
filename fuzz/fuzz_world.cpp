// libFuzzer target: a World driven by the input (fuzz_input.hpp). The input
// picks the world's settings, creates bodies of one to three shapes with
// fuzzed materials, then runs a script of calls: steps, moves, velocities,
// teleports, forces, torques, impulses, gravity, body types, shapes added
// and removed, materials, gravity scales, damping, fixed rotation,
// destruction, queries, stale handles. Nothing may crash, hang or touch
// memory it should not (AddressSanitizer, UBSan, libFuzzer's timeout).
//
// What docs/conventions.md ("Errors") promises is checked:
// - a call that fails returns an error and changes nothing: every body's
//   state reads the same bits after it;
// - after every step that succeeds, every body's state is finite (a body
//   may have left through the kill plane, which removes it);
// - a move ends at a finite position, and a query's hits are finite with
//   fractions in [0, 1].
#include "fuzz_input.hpp"

#include <sweep/world.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace {

using namespace sweep;
using fuzz::is_finite;
using fuzz::require;

constexpr int k_max_bodies = 12;
constexpr int k_max_calls = 48;
constexpr int k_max_steps = 12;

WorldDef world_def(fuzz::FuzzInput& in) {
    WorldDef def;
    def.gravity = in.byte() % 4 == 0 ? in.point() : def.gravity;
    switch (in.byte() % 5) {
    case 0:
        def.length_units_per_meter = 16;
        break;
    case 1:
        def.length_units_per_meter = real(0.01);
        break;
    case 2:
        def.length_units_per_meter = in.number();
        break;
    default:
        break;
    }
    def.solver_substeps = 1 + in.byte() % 8;
    def.static_broadphase = in.byte() % 2 == 0 ? StaticBroadphase::tree : StaticBroadphase::grid;
    def.enable_sleep = in.byte() % 2 == 0;
    def.measure_penetration = in.byte() % 2 == 0;
    if (in.byte() % 4 == 0) {
        const Vec2 lower = in.point();
        def.bounds = Aabb{lower, lower + in.point()};
    }
    return def;
}

Material material(fuzz::FuzzInput& in) {
    Material m;
    if (in.byte() % 3 == 0) {
        m.density = in.number();
        m.friction = in.number();
        m.restitution = in.number();
    }
    return m;
}

// Every body's state as bits (stale and removed ones as absent), to see that
// a failed call changed nothing.
std::vector<unsigned char> snapshot(const World& world, const std::vector<BodyId>& bodies) {
    std::vector<unsigned char> bits;
    for (const BodyId id : bodies) {
        const auto state = world.body_state(id);
        bits.push_back(state.has_value() ? 1 : 0);
        if (state) {
            const BodyState& s = *state;
            for (const real x : {s.xf.p.x, s.xf.p.y, s.xf.q.c, s.xf.q.s, s.linear_velocity.x,
                                 s.linear_velocity.y, s.angular_velocity}) {
                unsigned char b[sizeof(real)];
                std::memcpy(b, &x, sizeof x);
                bits.insert(bits.end(), b, b + sizeof b);
            }
            bits.push_back(s.awake ? 1 : 0);
        }
    }
    return bits;
}

void require_finite_states(const World& world, const std::vector<BodyId>& bodies) {
    for (const BodyId id : bodies) {
        if (const auto state = world.body_state(id)) {
            require(is_finite(state->xf) && is_finite(state->center) &&
                        is_finite(state->linear_velocity) && is_finite(state->angular_velocity),
                    "a body's state is not finite after a step");
        }
    }
}

void require_hit(const QueryHit& hit) {
    require(is_finite(hit.point) && is_finite(hit.normal) && hit.fraction >= 0 && hit.fraction <= 1,
            "a query hit not finite or outside [0, 1]");
}

class Script {
  public:
    Script(fuzz::FuzzInput& in, World& world) : in_(in), world_(world) {}

    void create_body() {
        BodyDef def;
        def.type = static_cast<BodyType>(in_.byte() % 3);
        def.position = in_.point();
        def.angle = in_.byte() % 2 == 0 ? real(0) : in_.number();
        if (in_.byte() % 2 == 0) {
            def.linear_velocity = in_.point();
            def.angular_velocity = in_.number();
        }
        def.fixed_rotation = in_.byte() % 4 == 0;
        std::vector<ShapeDef> shapes;
        for (int n = 1 + in_.byte() % 3; n > 0; --n) {
            if (const std::optional<Shape> shape = in_.shape()) {
                ShapeDef sd(*shape, material(in_));
                sd.sensor = in_.byte() % 8 == 0;
                shapes.push_back(sd);
            }
        }
        const int count = world_.body_count();
        const auto before = snapshot(world_, bodies_);
        const Result<BodyId> id = world_.create_body(def, shapes);
        if (id) {
            bodies_.push_back(*id);
        } else {
            require(world_.body_count() == count && snapshot(world_, bodies_) == before,
                    "a failed create_body changed the world");
        }
    }

    void step() {
        if (steps_ == k_max_steps) {
            return;
        }
        ++steps_;
        const std::uint8_t how = in_.byte();
        const real dt = how % 4 == 0 ? in_.number() : real(1) / real(how % 2 == 0 ? 60 : 30);
        const int substeps = 1 + in_.byte() % 3;
        const auto before = snapshot(world_, bodies_);
        if (world_.step(dt, substeps)) {
            require_finite_states(world_, bodies_);
        } else {
            require(snapshot(world_, bodies_) == before, "a failed step changed the world");
        }
    }

    void move() {
        const BodyId id = some_body();
        const Vec2 translation = in_.point();
        const auto before = snapshot(world_, bodies_);
        if (const Result<MoveResult> r = world_.move(id, translation)) {
            require(is_finite(r->position), "a move ended at a non-finite position");
        } else {
            require(snapshot(world_, bodies_) == before, "a failed move changed the world");
        }
    }

    void set_velocity() {
        const BodyId id = some_body();
        const Vec2 v = in_.point();
        const real w = in_.number();
        const auto before = snapshot(world_, bodies_);
        if (!world_.set_velocity(id, v, w)) {
            require(snapshot(world_, bodies_) == before, "a failed set_velocity changed the world");
        }
    }

    void destroy_body() {
        const BodyId id = some_body();
        const auto before = snapshot(world_, bodies_);
        if (!world_.destroy_body(id)) {
            require(snapshot(world_, bodies_) == before, "a failed destroy_body changed the world");
        }
    }

    void set_transform() {
        const BodyId id = some_body();
        const Vec2 position = in_.point();
        const real angle = in_.number();
        const auto before = snapshot(world_, bodies_);
        if (!world_.set_transform(id, position, angle)) {
            require(snapshot(world_, bodies_) == before,
                    "a failed set_transform changed the world");
        }
    }

    // A force, torque or impulse on a body for the next step, a new
    // gravity, a new type for a body, a shape added to it or taken away, a
    // shape's new material, a new gravity scale, damping or fixed rotation,
    // or room reserved for more records.
    void change_body() {
        const BodyId id = some_body();
        const Vec2 v = in_.point();
        const Vec2 point = in_.point();
        const real amount = in_.number();
        const auto before = snapshot(world_, bodies_);
        Result<void> r;
        const std::uint8_t how = in_.byte();
        switch (how % 12) {
        case 0:
            r = world_.apply_force(id, v, point);
            break;
        case 1:
            r = world_.apply_torque(id, amount);
            break;
        case 2:
            r = world_.apply_linear_impulse(id, v, point);
            break;
        case 3:
            r = world_.apply_angular_impulse(id, amount);
            break;
        case 4:
            r = world_.set_gravity(v);
            break;
        case 5:
            r = world_.set_body_type(id, static_cast<BodyType>(how / 12 % 3));
            break;
        case 6:
            if (const std::optional<Shape> shape = in_.shape()) {
                const Result<ShapeId> made =
                    world_.create_shape(id, ShapeDef(*shape, material(in_)));
                r = made ? Result<void>() : Result<void>(made.error());
            }
            break;
        case 7:
            r = world_.destroy_shape(some_shape_of(id));
            break;
        case 8:
            r = world_.set_material(some_shape_of(id), material(in_));
            break;
        case 9:
            r = world_.set_gravity_scale(id, amount);
            break;
        case 10:
            r = world_.set_damping(id, v.x, v.y);
            break;
        default:
            if (how / 12 % 3 == 2) { // room for records: it changes nothing, fail or not
                const int bodies = in_.byte() - 32; // (some negative)
                const int shapes = 4 * in_.byte() - 64;
                r = world_.reserve(bodies, shapes);
                require(snapshot(world_, bodies_) == before, "reserve changed the world");
            } else {
                r = world_.set_fixed_rotation(id, how / 12 % 3 == 0);
            }
            break;
        }
        if (!r) {
            require(snapshot(world_, bodies_) == before,
                    "a failed change of a body changed the world");
        }
    }

    void query() {
        const Vec2 origin = in_.point();
        const Vec2 translation = in_.point();
        if (const auto hit = world_.raycast_closest(origin, translation); hit && *hit) {
            require_hit(**hit);
        }
        if (const auto hits = world_.raycast_all(origin, translation)) {
            for (const QueryHit& h : *hits) {
                require_hit(h);
            }
        }
        if (const std::optional<Shape> shape = in_.shape()) {
            const Transform xf = in_.pose();
            if (const auto hit = world_.shape_cast(*shape, xf, translation); hit && *hit) {
                require_hit(**hit);
            }
            (void)world_.overlap_shape(*shape, xf);
        }
        (void)world_.point_query(origin);
        (void)world_.overlap_aabb(
            Aabb{min(origin, origin + translation), max(origin, origin + translation)});
    }

    void run() {
        for (int n = 1 + in_.byte() % k_max_bodies; n > 0; --n) {
            create_body();
        }
        for (int call = 0; call < k_max_calls && !in_.exhausted(); ++call) {
            const std::uint8_t pick = in_.byte();
            switch (pick % 8) {
            case 0:
            case 1:
                step();
                break;
            case 2:
                move();
                break;
            case 3:
                set_velocity();
                break;
            case 4:
                destroy_body();
                break;
            case 5:
                query();
                break;
            case 6:
                if (static_cast<int>(bodies_.size()) < 2 * k_max_bodies) {
                    create_body();
                }
                break;
            default: // (the rest of the byte picks: older inputs mostly still step)
                if (pick / 8 % 3 == 1) {
                    set_transform();
                } else if (pick / 8 % 3 == 2) {
                    change_body();
                } else {
                    step();
                }
                break;
            }
        }
    }

  private:
    // One of body `id`'s shapes, or a null handle when it has none (stale).
    ShapeId some_shape_of(BodyId id) {
        const auto shapes = world_.body_shapes(id);
        if (!shapes || shapes->empty()) {
            return ShapeId{};
        }
        return (*shapes)[in_.byte() % shapes->size()];
    }

    // One of the bodies made so far (perhaps destroyed since), or a handle
    // that never was one.
    BodyId some_body() {
        const std::uint8_t pick = in_.byte();
        if (bodies_.empty() || pick % 8 == 0) {
            return BodyId{static_cast<std::int32_t>(in_.byte()) - 1, in_.byte()};
        }
        return bodies_[pick % bodies_.size()];
    }

    fuzz::FuzzInput& in_;
    World& world_;
    std::vector<BodyId> bodies_;
    int steps_ = 0;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzInput in(data, size);
    Result<World> world = World::make(world_def(in));
    if (!world) {
        return 0;
    }
    Script(in, *world).run();
    return 0;
}
