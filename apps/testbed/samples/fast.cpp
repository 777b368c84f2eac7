// Fast bodies in closed rooms: spinning bars (rotation within a step, the
// seed's conservative advancement for angular motion), particles moving up
// to 5 L per step, and two small discs closing head on at 2 L per step each.
// Nothing may leave its room or pass through another body.
#include <random>
#include <sstream>

#include "samples/registry.hpp"

namespace sweep::testbed {
namespace {

constexpr real k_room = 10; ///< rooms are [-k_room, k_room]^2

WorldDef weightless() {
    WorldDef def = WorldSample::default_def();
    def.gravity = {0, 0};
    return def;
}

/// Checks every vertex (or circle extreme) of `body` at `xf` lies in the room.
bool in_room(const TrackedBody& body, const Transform& xf, real tolerance) {
    for (const Shape& shape : body.shapes) {
        const Aabb box = compute_aabb(shape, xf);
        if (shape.type == ShapeType::circle) {
            const Vec2 c = center(box);
            if (std::abs(c.x) >= k_room || std::abs(c.y) >= k_room) {
                return false;
            }
            continue;
        }
        for (int i = 0; i < shape.polygon.count; ++i) {
            const Vec2 v = transform_point(xf, shape.polygon.vertices[static_cast<std::size_t>(i)]);
            if (std::abs(v.x) > k_room + tolerance || std::abs(v.y) > k_room + tolerance) {
                return false;
            }
        }
    }
    return true;
}

class RoomSample : public WorldSample {
  public:
    RoomSample() : WorldSample(weightless()) {
        add_room({{-k_room, -k_room}, {k_room, k_room}}, 0.5f, {1, 0, 1});
    }

    Aabb view() const override { return {{-k_room - 1, -k_room - 1}, {k_room + 1, k_room + 1}}; }

  protected:
    void check() override {
        const real tolerance = 2 * world.tolerances().linear_slop;
        for (const TrackedBody& body : bodies) {
            if (body.type == BodyType::static_body) {
                continue;
            }
            const BodyState s = state(body.id);
            std::ostringstream why;
            why << "body " << body.id.index << " left the room: centre (" << s.center.x << ", "
                << s.center.y << ")";
            expect(in_room(body, s.xf, tolerance), why.str());
        }
    }
};

class SpinningBars final : public RoomSample {
  public:
    SpinningBars() {
        std::mt19937 rng(7);
        std::uniform_real_distribution<real> unit(0, 1);
        for (int i = 0; i < 12; ++i) {
            BodyDef def;
            def.type = BodyType::dynamic;
            def.position = {-6 + real(i % 4) * 4, -6 + real(i / 4) * 6};
            def.angle = k_pi * unit(rng);
            def.angular_velocity = (i % 2 ? 1 : -1) * (30 + 30 * unit(rng)); // tips at 60-120 L/s
            def.linear_velocity = {20 * unit(rng) - 10, 20 * unit(rng) - 10};
            const ShapeDef bar(box(real(1.8), real(0.08)), {1, 0.2f, 0.9f});
            add(def, std::span(&bar, 1));
        }
    }
};

class Particles final : public RoomSample {
  public:
    Particles() {
        trail_points = 6; // a short tail each, or 300 paths fill the room
        std::mt19937 rng(1000);
        std::uniform_real_distribution<real> unit(0, 1);
        for (int i = 0; i < 300; ++i) {
            const real heading = 2 * k_pi * unit(rng);
            const real speed = 30 + 270 * unit(rng); // up to 5 L per step at 60 Hz
            add(BodyType::dynamic, Circle{{}, 0.05f},
                {-9.5f + 19 * unit(rng), -9.5f + 19 * unit(rng)},
                speed * Vec2{std::cos(heading), std::sin(heading)}, {1, 0, 1});
        }
    }
};

class Crossing final : public RoomSample {
  public:
    Crossing() {
        const Material elastic{1, 0, 1};
        small_ = add(BodyType::dynamic, Circle{{}, 0.1f}, {-7, 0.05f}, {120, 0}, elastic);
        large_ = add(BodyType::dynamic, Circle{{}, 0.2f}, {7, -0.05f}, {-120, 0}, elastic);
        momentum_ = momentum();
    }

  private:
    Vec2 momentum() const {
        const BodyState a = state(small_);
        const BodyState b = state(large_);
        return a.mass * a.linear_velocity + b.mass * b.linear_velocity;
    }

    void check() override {
        RoomSample::check();
        const Vec2 a = state(small_).center;
        const Vec2 b = state(large_).center;
        std::ostringstream why;
        why << "the discs overlap: their centres " << distance(a, b) << " apart";
        expect(distance(a, b) >= real(0.3) - 2 * world.tolerances().linear_slop, why.str());
        if (steps_taken == 5) { // they meet in step 4
            expect(state(small_).linear_velocity.x < 0,
                   "the discs did not meet: the small one still moves right");
        }
        // They meet in step 4 and the small one reaches a wall in step 6:
        // until then nothing outside acts on them.
        if (steps_taken <= 5) {
            const Vec2 p = momentum();
            std::ostringstream lost;
            lost << "momentum changed from " << momentum_.x << " to " << p.x;
            expect(std::abs(p.x - momentum_.x) <= real(1e-3) * std::abs(momentum_.x) + real(1e-4),
                   lost.str());
        }
    }

    BodyId small_;
    BodyId large_;
    Vec2 momentum_;
};

} // namespace

std::unique_ptr<Sample> make_spinning_bars(const SampleContext&) {
    return std::make_unique<SpinningBars>();
}
std::unique_ptr<Sample> make_particles(const SampleContext&) {
    return std::make_unique<Particles>();
}
std::unique_ptr<Sample> make_crossing(const SampleContext&) { return std::make_unique<Crossing>(); }

} // namespace sweep::testbed
