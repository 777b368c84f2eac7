// A bullet against a thin wall (the seeds' tunneling problem). Top lane:
// discrete stepping as a naive engine does it, moving the box by v dt and
// testing for overlap only where it lands, which jumps over the wall once a
// step's motion exceeds the wall plus the box. Bottom lane: the same box as
// a dynamic body of the world, whose final time-of-impact sweep stops it at
// the wall at every speed.
#include <imgui.h>

#include <array>
#include <sstream>

#include "samples/registry.hpp"
#include "sweep/overlap.hpp"

namespace sweep::testbed {
namespace {

constexpr real k_wall_x = 30;                                ///< the wall's centre
constexpr real k_wall_half = real(0.05);                     ///< 0.1 L thick
constexpr real k_half = real(0.5);                           ///< the bullet's half size
constexpr real k_lane = 3;                                   ///< lanes at y = +-k_lane
constexpr int k_refire_steps = 60;                           ///< a new shot every this many steps
constexpr std::array<int, 4> k_speeds{10, 100, 1000, 10000}; ///< L/s

WorldDef bullet_def() {
    WorldDef def = WorldSample::default_def();
    def.gravity = {0, 0};
    def.max_translation_speed = 20000; // let the fastest bullet through the clamp
    return def;
}

class Bullet final : public WorldSample {
  public:
    Bullet() : WorldSample(bullet_def()) {
        add(BodyType::static_body, box(k_wall_half, 2 * k_lane), {k_wall_x, 0});
        fire();
    }

    Aabb view() const override { return {{-2, -5}, {37, 5}}; }

    void draw_ui() override {
        if (ImGui::Combo("speed, L/s", &speed_index_,
                         "10\0"
                         "100\0"
                         "1000\0"
                         "10000\0")) {
            fire();
        }
        ImGui::Text("discrete: %s", discrete_tunneled_ ? "passed the wall" : "stopped");
    }

    std::vector<Label> labels() const override {
        return {{{0, k_lane + 1}, "discrete: move by v dt, test overlap where it lands"},
                {{0, -k_lane + 1}, "swept: World::step (time of impact)"}};
    }

  private:
    real speed() const { return real(k_speeds[static_cast<std::size_t>(speed_index_)]); }

    void fire() {
        if (swept_) {
            remove(*swept_);
        }
        swept_ = add(BodyType::dynamic, box(k_half, k_half), {0, -k_lane}, {speed(), 0});
        discrete_ = {0, k_lane};
        discrete_path_.assign(1, discrete_);
        discrete_stopped_ = false;
        discrete_tunneled_ = false;
        fired_at_ = steps_taken;
    }

    void before_step(real dt, const Input&) override {
        if (steps_taken - fired_at_ >= k_refire_steps) {
            fire();
        }
        step_discrete(dt);
    }

    // The naive integrator: jump, then look.
    void step_discrete(real dt) {
        if (discrete_stopped_) {
            return;
        }
        discrete_.x += speed() * dt;
        discrete_path_.push_back(discrete_);
        const Transform at{discrete_, {}};
        if (overlaps(Shape(box(k_half, k_half)), at, Shape(box(k_wall_half, 2 * k_lane)),
                     {{k_wall_x, 0}, {}})) {
            discrete_.x = k_wall_x - k_wall_half - k_half; // push back out
            discrete_stopped_ = true;
        }
        discrete_tunneled_ = discrete_.x - k_half > k_wall_x + k_wall_half;
    }

    void check() override {
        const real front = state(*swept_).center.x + k_half;
        std::ostringstream why;
        why << "the swept bullet passed the wall: its front at x = " << front << ", the wall at "
            << k_wall_x - k_wall_half << " (speed " << speed() << " L/s)";
        expect(front <= k_wall_x - k_wall_half + real(0.01), why.str());
    }

    void draw_extra(const Draw& draw) const override {
        const Color color{200, 60, 60};
        for (const Vec2 p : discrete_path_) {
            if (p.x < view().upper.x) {
                draw.shape(Shape(box(k_half, k_half)), {p, {}}, with_alpha(color, 40),
                           with_alpha(color, 90));
            }
        }
        if (discrete_.x < view().upper.x) {
            draw.shape(Shape(box(k_half, k_half)), {discrete_, {}}, with_alpha(color, 120), color);
        }
    }

    int speed_index_ = 2;
    std::optional<BodyId> swept_;
    Vec2 discrete_;
    std::vector<Vec2> discrete_path_;
    bool discrete_stopped_ = false;
    bool discrete_tunneled_ = false;
    int fired_at_ = 0;
};

} // namespace

std::unique_ptr<Sample> make_bullet(const SampleContext&) { return std::make_unique<Bullet>(); }

} // namespace sweep::testbed
