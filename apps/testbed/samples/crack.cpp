// The crack problem (Sacred Software, "Collisions, Part 1"): a box sliding
// diagonally over a floor made of separate tiles must not catch on the
// seams between them. World::move breaks ties between contacts by surface
// area (faces before corners), so it never stops; the world's step slides a
// dynamic box over the same kind of floor.
//
// The surface-area rule is inside World::move and cannot be switched off
// through the public API, so the sample shows three lanes with it on: a
// mover over a floor, a mover up a wall, and a dynamic box pushed along a
// floor; each asserts it never stops.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "samples/registry.hpp"

namespace sweep::testbed {
namespace {

constexpr int k_tiles = 16;
constexpr real k_half = real(0.4); ///< the sliding boxes' half size
constexpr real k_speed = 4;        ///< L/s along the surface and into it

class Crack final : public WorldSample {
  public:
    Crack() {
        for (int i = 0; i < k_tiles; ++i) {
            add(BodyType::static_body, box(0.5f, 0.5f), {real(i) + 0.5f, -0.5f}); // floor
            add(BodyType::static_body, box(0.5f, 0.5f), {20.5f, real(i) + 0.5f}); // wall
            add(BodyType::static_body, box(0.5f, 0.5f), {real(i) + 0.5f, -6.5f}, {},
                ice()); // lower floor
        }
        reset_floor_mover();
        reset_wall_mover();
        reset_pushed();
    }

    Aabb view() const override { return {{-1, -7.5f}, {22, 16.5f}}; }

    // The last move's contacts: ties at the seams are ordered faces first.
    void draw_ui() override {
        ImGui::Text("pushed box's highest hop: %.3f L", double(highest_hop_));
        ImGui::Text("wall mover's last move: %d iterations", last_move_.iterations);
        for (const MoveContact& c : last_move_.contacts) {
            ImGui::Text("t %.3f  n (%.2f, %.2f)  area %.3f", double(c.time), double(c.normal.x),
                        double(c.normal.y), double(c.surface_area));
        }
    }

    std::vector<Label> labels() const override {
        return {{{0, 2.5f}, "World::move over floor tiles"},
                {{14.5f, 15}, "World::move up wall tiles"},
                {{0, -3.5f}, "World::step, pushed along tiles"}};
    }

  private:
    static Material ice() { return {1, 0, 0}; }

    void reset_floor_mover() {
        if (floor_mover_) {
            remove(*floor_mover_);
        }
        floor_mover_ = add(BodyType::kinematic, box(k_half, k_half), {k_half, k_half});
    }
    void reset_wall_mover() {
        if (wall_mover_) {
            remove(*wall_mover_);
        }
        wall_mover_ = add(BodyType::kinematic, box(k_half, k_half), {20 - k_half, k_half});
    }
    void reset_pushed() {
        if (pushed_) {
            remove(*pushed_);
        }
        pushed_ = add(BodyType::dynamic, box(k_half, k_half), {k_half, -6 + k_half}, {}, ice());
    }

    void before_step(real dt, const Input&) override {
        if (state(*floor_mover_).xf.p.x > k_tiles - 1) {
            reset_floor_mover();
        }
        if (state(*wall_mover_).xf.p.y > k_tiles - 1) {
            reset_wall_mover();
        }
        if (state(*pushed_).xf.p.x > k_tiles - 1) {
            reset_pushed();
        }
        slide(*floor_mover_, {k_speed * dt, -k_speed * dt}, {1, 0}, "floor mover");
        slide(*wall_mover_, {k_speed * dt, k_speed * dt}, {0, 1}, "wall mover");
        const BodyState pushed = state(*pushed_);
        pushed_x_ = pushed.xf.p.x;
        dt_ = dt;
        (void)world.set_velocity(*pushed_, {k_speed, pushed.linear_velocity.y}, 0);
    }

    // Moves `id` by `translation` and checks that the motion along `along`
    // happened: a seam that caught the box would stop it.
    void slide(BodyId id, Vec2 translation, Vec2 along, const char* who) {
        const real before = dot(state(id).xf.p, along);
        const Result<MoveResult> moved = world.move(id, translation);
        if (!moved) {
            fail(std::string(who) + ": World::move failed: " + moved.error().message);
            return;
        }
        last_move_ = *moved;
        extra_cap_hits += moved->iteration_cap_hit ? 1 : 0;
        const real progress = dot(moved->position, along) - before;
        std::ostringstream why;
        why << who << " stopped: moved " << progress << " of " << dot(translation, along);
        expect(progress > real(0.9) * dot(translation, along), why.str());
    }

    void check() override {
        highest_hop_ = std::max(highest_hop_, state(*pushed_).xf.p.y - (-6 + k_half));
        const real x = state(*pushed_).xf.p.x;
        if (x > pushed_x_ - 1) { // not just reset
            std::ostringstream why;
            why << "pushed box stopped: moved " << x - pushed_x_;
            expect(x - pushed_x_ > real(0.25) * k_speed * dt_, why.str());
        }
    }

    std::optional<BodyId> floor_mover_;
    std::optional<BodyId> wall_mover_;
    std::optional<BodyId> pushed_;
    real pushed_x_ = 0;
    real dt_ = 0;
    real highest_hop_ = 0; ///< the pushed box's highest lift off its floor, L
    MoveResult last_move_;
};

} // namespace

std::unique_ptr<Sample> make_crack(const SampleContext&) { return std::make_unique<Crack>(); }

} // namespace sweep::testbed
