// Restitution and friction (the seed "collision response": the normal part
// of the velocity scaled by restitution, the tangent part reduced by
// Coulomb friction).
#include <array>
#include <cmath>
#include <sstream>

#include "samples/registry.hpp"

namespace sweep::testbed {
namespace {

constexpr std::array<real, 5> k_restitutions{0, 0.25f, 0.5f, 0.75f, 1};
constexpr real k_drop_height = 6; ///< the balls' centres at the start
constexpr real k_ball_radius = real(0.4);
constexpr real k_gravity = 10; ///< the default world's, L/s^2

/// Balls of restitution 0 to 1 dropped on a floor. At each impact the
/// rebound speed is at most e times the speed just before it, plus the g dt
/// that gravity adds in the step of the impact (the solver reverses the
/// velocity after gravity acted: the world scene test's tolerance). So a ball
/// with e < 1 never rises above where it was dropped; the elastic one may
/// creep up by that g dt per bounce, and no more.
class Restitution final : public WorldSample {
  public:
    Restitution() {
        add(BodyType::static_body, box(8, 0.5f), {0, -0.5f}, {}, {1, 0.6f, 0});
        for (std::size_t i = 0; i < k_restitutions.size(); ++i) {
            balls_.push_back({add(BodyType::dynamic, Circle{{}, k_ball_radius},
                                  {real(-6 + 3 * static_cast<int>(i)), k_drop_height}, {},
                                  {1, 0.6f, k_restitutions[i]})});
        }
    }

    Aabb view() const override { return {{-8, -1}, {8, 8}}; }

    std::vector<Label> labels() const override {
        std::vector<Label> out;
        for (std::size_t i = 0; i < k_restitutions.size(); ++i) {
            std::ostringstream text;
            text << "e = " << k_restitutions[i];
            out.push_back({{real(-6.6f + 3 * static_cast<int>(i)), 7.5f}, text.str()});
        }
        return out;
    }

  private:
    struct Ball {
        BodyId id;
        real vy = 0; ///< at the end of the previous step
    };

    void before_step(real dt, const Input&) override { dt_ = dt; }

    void check() override {
        for (std::size_t i = 0; i < balls_.size(); ++i) {
            Ball& ball = balls_[i];
            const BodyState s = state(ball.id);
            const real e = k_restitutions[i];
            const real vy = s.linear_velocity.y;
            if (ball.vy < 0 && vy > 0) {
                const real most = e * -ball.vy + k_gravity * dt_ + real(1e-3) * -ball.vy;
                std::ostringstream why;
                why << "the ball of restitution " << e << " came off the floor at " << vy
                    << " L/s after " << -ball.vy << " L/s down: energy from nowhere";
                expect(vy <= most, why.str());
            }
            ball.vy = vy;
            if (e < 1) {
                std::ostringstream why;
                why << "the ball of restitution " << e << " rose to " << s.center.y
                    << ", above its drop height";
                expect(s.center.y <= k_drop_height + real(0.05), why.str());
            }
            expect(s.center.y >= k_ball_radius - real(0.02), "a ball sank into the floor");
        }
    }

    std::vector<Ball> balls_;
    real dt_ = 0;
};

constexpr std::array<real, 5> k_frictions{0, 0.2f, 0.4f, 0.6f, 0.8f};
constexpr real k_launch_speed = 8; ///< L/s

/// Boxes launched along floors of the same friction: each travels the
/// distance semi-implicit Euler with Coulomb friction gives (v -= mu g dt
/// until it would reverse, x += v dt), summed here step by step beside it.
class Friction final : public WorldSample {
  public:
    Friction() {
        for (std::size_t i = 0; i < k_frictions.size(); ++i) {
            const real y = lane_y(i);
            const Material m{1, k_frictions[i], 0};
            add(BodyType::static_body, box(20, 0.25f), {20, y - 0.25f}, {}, m);
            Lane lane;
            lane.box =
                add(BodyType::dynamic, box(0.5f, 0.5f), {0.5f, y + 0.5f}, {k_launch_speed, 0}, m);
            lanes_.push_back(lane);
        }
    }

    Aabb view() const override { return {{-1, -9.5f}, {41, 1.5f}}; }

    std::vector<Label> labels() const override {
        std::vector<Label> out;
        for (std::size_t i = 0; i < k_frictions.size(); ++i) {
            std::ostringstream text;
            text << "mu = " << k_frictions[i];
            out.push_back({{0, lane_y(i) + 1.4f}, text.str()});
        }
        return out;
    }

  private:
    struct Lane {
        BodyId box;
        double v = k_launch_speed; ///< the reference integrator
        double x = 0;
    };

    static real lane_y(std::size_t i) { return -2 * static_cast<real>(i); }

    void before_step(real dt, const Input&) override {
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            Lane& lane = lanes_[i];
            lane.v = std::max(0.0, lane.v - double(k_frictions[i]) * k_gravity * double(dt));
            lane.x += lane.v * double(dt);
        }
    }

    void check() override {
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            const Lane& lane = lanes_[i];
            const double travelled = double(state(lane.box).center.x) - 0.5;
            if (travelled > 39) {
                continue; // off the end of its floor
            }
            std::ostringstream why;
            why << "the box with friction " << k_frictions[i] << " travelled " << travelled
                << ", Coulomb's law says " << lane.x;
            expect(std::abs(travelled - lane.x) <= 0.03 * lane.x + 0.05, why.str());
        }
    }

    std::vector<Lane> lanes_;
};

} // namespace

std::unique_ptr<Sample> make_restitution(const SampleContext&) {
    return std::make_unique<Restitution>();
}
std::unique_ptr<Sample> make_friction(const SampleContext&) { return std::make_unique<Friction>(); }

} // namespace sweep::testbed
