// Bodies driven between steps: ledges that crumble under balls
// (World::set_body_type), a fan that blows balls up (World::apply_force),
// and what falls off put back where it started (World::set_transform).
#include <cmath>
#include <sstream>

#include "samples/registry.hpp"

namespace sweep::testbed {
namespace {

constexpr int k_ledges = 5;
constexpr int k_balls = 6;
constexpr real k_ball_radius = real(0.35);
constexpr real k_gravity = 10;         ///< the default world's, L/s^2
constexpr real k_fan_lift = real(1.5); ///< the fan's force over a ball's weight
constexpr Aabb k_fan{{4, -8}, {10, 3}};
constexpr real k_floor = -9;               ///< what falls below it is put back
constexpr int k_crumble_steps = 30;        ///< a touched ledge holds this many steps
constexpr real k_ledge_angle = real(-0.2); ///< rad: the ledges lean right, so balls roll on

/// Ledges in a staircase, leaning right, hold for half a second after a ball first touches
/// them, then turn dynamic and fall; balls rolling off the last one fall
/// into a fan, which pushes each ball inside it up with 1.5 times its
/// weight (the first ball starts there). Whatever falls below the floor
/// is put back: a ledge, static
/// again, where it was made; a ball, still, above the first ledge. The
/// invariant: a ball in the fan with nothing within half a unit moves as
/// Newton says, its upward speed growing by (1.5 - 1) g dt a step.
class Drive final : public WorldSample {
  public:
    Drive() {
        for (int i = 0; i < k_ledges; ++i) {
            const Vec2 home{static_cast<real>(-8 + 3 * i), static_cast<real>(4 - 2 * i)};
            ledges_.push_back(
                {add(BodyType::static_body, box(1.2f, 0.2f), home, {}, {}, k_ledge_angle), home});
        }
        for (int i = 0; i < k_balls; ++i) {
            // The first starts in the fan, the rest above the first ledge.
            const Vec2 start = i == 0 ? Vec2{7, -4} : spawn(i);
            balls_.push_back({add(BodyType::dynamic, Circle{{}, k_ball_radius}, start), {}});
        }
    }

    Aabb view() const override { return {{-11, -10}, {11, 10}}; }

    std::vector<Label> labels() const override { return {{{6.2f, 3.6f}, "fan"}}; }

  private:
    struct Ledge {
        BodyId id;
        Vec2 home;
        int touched_at = -1; ///< the step a ball first touched it, or -1
    };
    struct Ball {
        BodyId id;
        Vec2 velocity_before; ///< at the start of the step
        bool free_in_fan = false;
    };

    static Vec2 spawn(int i) {
        return {real(-8.8f) + real(0.3f) * static_cast<real>(i),
                real(6) + real(1.2f) * static_cast<real>(i)};
    }

    void before_step(real dt, const Input&) override {
        dt_ = dt;
        crumble();
        put_back();
        for (Ball& ball : balls_) {
            const BodyState s = state(ball.id);
            ball.velocity_before = s.linear_velocity;
            ball.free_in_fan = false;
            if (!contains(k_fan, Aabb{s.center, s.center})) {
                continue;
            }
            (void)world.apply_force(ball.id, {0, k_fan_lift * s.mass * k_gravity}, s.center);
            const real reach = k_ball_radius + real(0.5);
            const auto near =
                world.overlap_aabb({s.center - Vec2{reach, reach}, s.center + Vec2{reach, reach}});
            ball.free_in_fan = near && near->size() == 1; // its own shape alone
        }
    }

    // Ledges a ball touched k_crumble_steps ago turn dynamic and fall.
    void crumble() {
        for (const ContactBeginEvent& e : world.events().contact_begin) {
            for (Ledge& ledge : ledges_) {
                if ((e.body_a == ledge.id || e.body_b == ledge.id) && ledge.touched_at < 0 &&
                    state(ledge.id).type == BodyType::static_body) {
                    ledge.touched_at = steps_taken;
                }
            }
        }
        for (Ledge& ledge : ledges_) {
            if (ledge.touched_at >= 0 && steps_taken - ledge.touched_at == k_crumble_steps) {
                set_type(ledge.id, BodyType::dynamic);
            }
        }
    }

    // What fell below the floor goes back where it started.
    void put_back() {
        for (Ledge& ledge : ledges_) {
            if (state(ledge.id).center.y < k_floor) {
                set_type(ledge.id, BodyType::static_body);
                teleport(ledge.id, ledge.home, k_ledge_angle);
                ledge.touched_at = -1;
            }
        }
        for (std::size_t i = 0; i < balls_.size(); ++i) {
            if (state(balls_[i].id).center.y < k_floor) {
                teleport(balls_[i].id, spawn(static_cast<int>(i)), 0);
                (void)world.set_velocity(balls_[i].id, {}, 0);
            }
        }
    }

    void teleport(BodyId id, Vec2 position, real angle) {
        (void)world.set_transform(id, position, angle);
        tracked(id)->trail.clear(); // (no line drawn across the jump)
    }

    void set_type(BodyId id, BodyType type) {
        (void)world.set_body_type(id, type);
        tracked(id)->type = type; // (drawn as its new type)
    }

    void draw_extra(const Draw& draw) const override { draw.aabb(k_fan, k_aabb_color); }

    void check() override {
        const real expected = (k_fan_lift - 1) * k_gravity * dt_;
        for (const Ball& ball : balls_) {
            if (!ball.free_in_fan) {
                continue;
            }
            const real gained = state(ball.id).linear_velocity.y - ball.velocity_before.y;
            std::ostringstream why;
            why << "a ball alone in the fan gained " << gained << " L/s upward in a step, not "
                << expected << " ((1.5 - 1) g dt)";
            expect(std::abs(gained - expected) <= real(1e-4), why.str());
        }
    }

    std::vector<Ledge> ledges_;
    std::vector<Ball> balls_;
    real dt_ = 0;
};

} // namespace

std::unique_ptr<Sample> make_drive(const SampleContext&) { return std::make_unique<Drive>(); }

} // namespace sweep::testbed
