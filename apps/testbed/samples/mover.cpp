// Collide-and-slide (World::move, bump.lua's responses) and one-way
// platforms.
//
// "mover": four lanes, one response each, a box driven right into a tilted
// block: slide continues along its face, touch stops, cross passes through
// (and is reported), bounce reflects.
// "one-way": balls launched up through thin platforms land on them (the
// world's pre-solve hook), and a mover jumps up through one with a filter
// that crosses while rising and slides while falling.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <sstream>

#include "samples/registry.hpp"
#include "sweep/overlap.hpp"

namespace sweep::testbed {
namespace {

constexpr real k_mover_half = real(0.3);
constexpr int k_lane_steps = 150; ///< each lane restarts after this many steps

struct Lane {
    MoveResponse response;
    const char* name;
    BodyId obstacle;
    std::optional<BodyId> mover;
    Vec2 velocity;
    int started = 0;
    bool met = false; ///< the obstacle was reported
    MoveResult last;
};

class Mover final : public WorldSample {
  public:
    Mover() {
        const std::array<std::pair<MoveResponse, const char*>, 4> kinds{
            {{MoveResponse::slide, "slide"},
             {MoveResponse::touch, "touch"},
             {MoveResponse::cross, "cross"},
             {MoveResponse::bounce, "bounce"}}};
        for (int i = 0; i < 4; ++i) {
            const auto [response, name] = kinds[static_cast<std::size_t>(i)];
            Lane lane{response, name, {}, {}, {}, 0, false, {}};
            lane.obstacle =
                add(BodyType::static_body, box(0.4f, 1.2f), {6, lane_y(i)}, {}, {}, 0.5f);
            lanes_.push_back(lane);
            start(i);
        }
    }

    Aabb view() const override { return {{-1, -15}, {14, 3}}; }

    std::vector<Label> labels() const override {
        std::vector<Label> out;
        for (int i = 0; i < static_cast<int>(lanes_.size()); ++i) {
            out.push_back({{-0.5f, lane_y(i) + 1.6f}, lanes_[static_cast<std::size_t>(i)].name});
        }
        return out;
    }

  private:
    static real lane_y(int i) { return real(-4 * i); }

    void start(int i) {
        Lane& lane = lanes_[static_cast<std::size_t>(i)];
        if (lane.mover) {
            remove(*lane.mover);
        }
        lane.mover =
            add(BodyType::kinematic, box(k_mover_half, k_mover_half), {0, lane_y(i) - 0.4f});
        lane.velocity = {5, 0};
        lane.started = steps_taken;
        lane.met = false;
    }

    void before_step(real dt, const Input&) override {
        for (int i = 0; i < static_cast<int>(lanes_.size()); ++i) {
            Lane& lane = lanes_[static_cast<std::size_t>(i)];
            if (steps_taken - lane.started >= k_lane_steps) {
                start(i);
            }
            move(lane, dt);
        }
    }

    void move(Lane& lane, real dt) {
        const real before = state(*lane.mover).xf.p.x;
        const Result<MoveResult> moved =
            world.move(*lane.mover, dt * lane.velocity, [&](BodyId other) {
                return other == lane.obstacle ? lane.response : MoveResponse::ignore;
            });
        if (!moved) {
            fail(std::string(lane.name) + ": World::move failed: " + moved.error().message);
            return;
        }
        lane.last = *moved;
        if (lane.response == MoveResponse::cross) {
            expect(moved->position.x - before > real(0.99) * dt * lane.velocity.x,
                   "cross: the block held the mover back");
        }
        extra_cap_hits += moved->iteration_cap_hit ? 1 : 0;
        for (const MoveContact& c : moved->contacts) {
            lane.met = true;
            expect(c.response == lane.response,
                   std::string(lane.name) + ": a contact reported with another response");
            if (lane.response == MoveResponse::bounce && dot(lane.velocity, c.normal) < 0) {
                // Reflect the velocity too, so the next steps go on away from the block.
                lane.velocity = lane.velocity - 2 * dot(lane.velocity, c.normal) * c.normal;
            }
        }
    }

    void check() override {
        for (const Lane& lane : lanes_) {
            const Transform xf = state(*lane.mover).xf;
            const bool inside = overlaps(Shape(box(k_mover_half, k_mover_half)), xf,
                                         Shape(box(0.4f, 1.2f)), state(lane.obstacle).xf);
            if (lane.response != MoveResponse::cross) {
                expect(!inside, std::string(lane.name) + ": the mover is inside the block");
            }
            if (lane.response == MoveResponse::bounce && lane.met) {
                expect(lane.velocity.x < 0, "bounce: the mover did not turn back");
            }
        }
    }

    void draw_extra(const Draw& draw) const override {
        for (const Lane& lane : lanes_) {
            for (const MoveContact& c : lane.last.contacts) {
                draw.point(c.point, 6, k_contact_color);
                draw.arrow(c.point, c.point + real(0.6) * c.normal, k_normal_color);
            }
        }
    }

    std::vector<Lane> lanes_;
};

constexpr real k_platform_half = 2;
constexpr real k_platform_thickness = real(0.1);
constexpr real k_ball_radius = real(0.25);
constexpr int k_launch_every = 40; ///< steps between balls

class OneWay final : public WorldSample {
  public:
    OneWay() {
        add(BodyType::static_body, box(10, 0.5f), {0, -0.5f});
        for (const Vec2 at : {Vec2{-5, 3}, Vec2{0, 5}, Vec2{5, 3}}) {
            platforms_.push_back(
                add(BodyType::static_body, box(k_platform_half, k_platform_thickness), at));
            platform_shapes_.push_back(world.body_shapes(platforms_.back()).value().front());
        }
        slop_ = world.tolerances().linear_slop;
        // (Outside a step or a move: it cannot be refused.)
        (void)world.set_pre_solve([this](ShapeId a, ShapeId b, const Manifold&) {
            // A ball collides with a platform only when it started the step above it.
            const auto it = solid_.find(std::pair{std::min(a, b), std::max(a, b)});
            return it == solid_.end() || it->second;
        });
        jumper_ = add(BodyType::kinematic, box(0.3f, 0.3f), {8, 0.3f});
    }

    Aabb view() const override { return {{-10, -1}, {10, 10}}; }

    std::vector<Label> labels() const override {
        return {{{3, 9.8f}, "box: World::move, cross rising, slide falling"},
                {{-9.5f, 9.8f}, "balls: pre-solve hook"}};
    }

  private:
    real top(int i) const {
        return state(platforms_[static_cast<std::size_t>(i)]).xf.p.y + k_platform_thickness;
    }
    bool over(int i, real x) const {
        return std::abs(x - state(platforms_[static_cast<std::size_t>(i)]).xf.p.x) <
               k_platform_half;
    }

    void before_step(real dt, const Input&) override {
        if (steps_taken % k_launch_every == 0) {
            const real x = real(-7 + (steps_taken / k_launch_every * 3) % 14);
            balls_.push_back(add(BodyType::dynamic, Circle{{}, k_ball_radius}, {x, k_ball_radius},
                                 {0, 13}, {1, 0.3f, 0}));
            if (balls_.size() > 12) {
                remove(balls_.front());
                balls_.erase(balls_.begin());
            }
        }
        solid_.clear();
        above_.clear();
        for (const BodyId ball : balls_) {
            const Vec2 c = state(ball).center;
            const ShapeId shape = world.body_shapes(ball).value().front();
            for (int i = 0; i < static_cast<int>(platforms_.size()); ++i) {
                const bool above = c.y - k_ball_radius >= top(i) - 2 * slop_;
                const ShapeId p = platform_shapes_[static_cast<std::size_t>(i)];
                solid_[std::pair{std::min(shape, p), std::max(shape, p)}] = above;
                if (above) {
                    above_.push_back({ball, i});
                }
            }
        }
        jump(dt);
    }

    // The mover's one-way rule lives in its filter: through the platform
    // while rising, onto it while falling.
    void jump(real dt) {
        if (jumper_rest_ > 60) {
            remove(jumper_);
            jumper_ = add(BodyType::kinematic, box(0.3f, 0.3f), {8, 0.3f});
            jumper_velocity_ = {-1.5f, 11};
            jumper_rest_ = 0;
        }
        jumper_velocity_.y -= 10 * dt;
        const bool rising = jumper_velocity_.y > 0;
        const Result<MoveResult> moved =
            world.move(jumper_, dt * jumper_velocity_, [&](BodyId other) {
                const bool platform =
                    std::find(platforms_.begin(), platforms_.end(), other) != platforms_.end();
                return platform && rising ? MoveResponse::cross : MoveResponse::slide;
            });
        if (!moved) {
            fail("World::move failed: " + moved.error().message);
            return;
        }
        for (const MoveContact& c : moved->contacts) {
            if (c.response == MoveResponse::slide && c.normal.y > real(0.5)) {
                jumper_velocity_ = {0, 0};
            }
        }
        jumper_rest_ += jumper_velocity_.y == 0 ? 1 : 0;
    }

    void check() override {
        for (const auto& [ball, i] : above_) {
            const Vec2 c = state(ball).center;
            if (over(i, c.x)) {
                std::ostringstream why;
                why << "a ball fell through platform " << i << " from above: its bottom at "
                    << c.y - k_ball_radius << ", the top at " << top(i);
                expect(c.y - k_ball_radius >= top(i) - 3 * slop_, why.str());
            }
        }
    }

    std::vector<BodyId> platforms_;
    std::vector<ShapeId> platform_shapes_;
    std::vector<BodyId> balls_;
    std::map<std::pair<ShapeId, ShapeId>, bool> solid_;
    std::vector<std::pair<BodyId, int>> above_;
    BodyId jumper_;
    Vec2 jumper_velocity_{-1.5f, 11};
    int jumper_rest_ = 0;
    real slop_ = 0;
};

} // namespace

std::unique_ptr<Sample> make_mover(const SampleContext&) { return std::make_unique<Mover>(); }
std::unique_ptr<Sample> make_one_way(const SampleContext&) { return std::make_unique<OneWay>(); }

} // namespace sweep::testbed
