// The crack problem (Sacred Software, "Collisions, Part 1"): a box sliding
// diagonally over a floor made of separate tiles must not catch on the
// seams between them. World::move breaks ties between contacts by surface
// area (faces before corners), so it never stops; the world's step slides a
// dynamic box over the same kind of floor.
//
// Four lanes: a mover over a floor, a mover up a wall, and a dynamic box
// pushed along a floor (World::step), each asserting it never stops (and the
// pushed box never hops nor slows at a seam); and beside the wall,
// the same mover up the same wall in a world with the rule off
// (WorldDef::move_ties_by_surface_area), which catches at the first seam: a
// corner tied with the wall's face leads, and its normal blocks the way up.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "samples/registry.hpp"
#include "sweep/world.hpp"

namespace sweep::testbed {
namespace {

constexpr int k_tiles = 16;
constexpr real k_half = real(0.4); ///< the sliding boxes' half size
constexpr real k_speed = 4;        ///< L/s along the surface and into it
// Both walls face +x, with the movers on their right going up and into
// them: the tie order by normal alone then puts the seam's corner first.
constexpr real k_wall_x = 20;       ///< face of the wall in the sample's world
constexpr real k_plain_wall_x = 25; ///< face of the wall in the world without the rule
constexpr int k_caught_steps = 45;  ///< steps the caught box stays before it starts again

// The world without the surface-area rule: a wall of tiles and a mover.
World plain_world() {
    WorldDef def;
    def.move_ties_by_surface_area = false;
    return std::move(World::make(def).value());
}

class Crack final : public WorldSample {
  public:
    Crack() : plain_(plain_world()) {
        for (int i = 0; i < k_tiles; ++i) {
            BodyDef tile;
            tile.position = {k_plain_wall_x - 0.5f, real(i) + 0.5f};
            const ShapeDef sd(box(0.5f, 0.5f));
            plain_tiles_.push_back(plain_.create_body(tile, std::span(&sd, 1)).value());
            add(BodyType::static_body, box(0.5f, 0.5f), {real(i) + 0.5f, -0.5f});           // floor
            add(BodyType::static_body, box(0.5f, 0.5f), {k_wall_x - 0.5f, real(i) + 0.5f}); // wall
            add(BodyType::static_body, box(0.5f, 0.5f), {real(i) + 0.5f, -6.5f}, {},
                ice()); // lower floor
        }
        reset_floor_mover();
        reset_wall_mover();
        reset_pushed();
        reset_plain_mover();
    }

    Aabb view() const override { return {{-1, -7.5f}, {27, 17.5f}}; }

    // The last move's contacts: ties at the seams are ordered faces first.
    void draw_ui() override {
        ImGui::Text("pushed box's highest hop: %.3f L", double(highest_hop_));
        show_move("rule on, last move", last_move_);
        show_move("rule off, last move", plain_move_);
        ImGui::Text("rule off: caught at a seam %d times", catches_);
    }

    static void show_move(const char* title, const MoveResult& move) {
        ImGui::Text("%s: %d iterations", title, move.iterations);
        for (const MoveContact& c : move.contacts) {
            ImGui::Text("  t %.3f  n (%.2f, %.2f)  area %.3f", double(c.time), double(c.normal.x),
                        double(c.normal.y), double(c.surface_area));
        }
    }

    std::vector<Label> labels() const override {
        return {{{0, 2.5f}, "World::move over floor tiles"},
                {{k_wall_x - 4, 17}, "up wall tiles: rule on"},
                {{k_plain_wall_x - 1, 17}, "rule off"},
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
        wall_mover_ = add(BodyType::kinematic, box(k_half, k_half), {k_wall_x + k_half, k_half});
    }
    void reset_plain_mover() {
        if (plain_mover_) {
            (void)plain_.destroy_body(*plain_mover_);
        }
        BodyDef def;
        def.type = BodyType::kinematic;
        def.position = {k_plain_wall_x + k_half, k_half};
        const ShapeDef sd(box(k_half, k_half));
        plain_mover_ = plain_.create_body(def, std::span(&sd, 1)).value();
        plain_trail_.clear();
        caught_for_ = 0;
    }

    // The mover without the rule: it catches at a seam (its top level with
    // one), stays caught a while for the viewer, and starts again.
    void slide_plain(real dt) {
        if (caught_for_ > k_caught_steps ||
            plain_.body_state(*plain_mover_)->xf.p.y > k_tiles - 1) {
            reset_plain_mover();
        }
        const real before = plain_.body_state(*plain_mover_)->xf.p.y;
        // (Up faster than into the wall: at the seam the corner met exactly
        // is met on the next tile's bottom face, the one closed on faster.)
        const Result<MoveResult> moved =
            plain_.move(*plain_mover_, {real(-0.5) * k_speed * dt, k_speed * dt});
        if (!moved) {
            fail("rule-off mover: World::move failed: " + moved.error().message);
            return;
        }
        plain_move_ = *moved;
        plain_trail_.push_back(moved->position);
        const real top = moved->position.y + k_half;
        if (moved->position.y - before < real(0.1) * k_speed * dt) {
            expect(std::abs(top - std::round(top)) < real(1e-3),
                   "rule-off mover stopped away from a seam");
            catches_ += caught_for_ == 0 ? 1 : 0;
            ++caught_for_;
        }
    }

    void draw_extra(const Draw& draw) const override {
        for (const BodyId tile : plain_tiles_) {
            draw.shape(box(0.5f, 0.5f), plain_.body_state(tile)->xf, k_static_color,
                       Color{60, 60, 65});
        }
        const std::vector<Vec2> trail(plain_trail_.begin(), plain_trail_.end());
        const Color color = palette(5);
        draw.polyline(trail, with_alpha(color, 140));
        draw.shape(box(k_half, k_half), plain_.body_state(*plain_mover_)->xf,
                   with_alpha(color, 110), color);
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
        slide(*wall_mover_, {-k_speed * dt, k_speed * dt}, {0, 1}, "wall mover");
        slide_plain(dt);
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
        // Two seconds are long enough to reach the first seam, a tile up.
        expect(steps_taken < 120 || catches_ > 0,
               "the box without the surface-area rule never caught on a seam");
        // The step treats flush tiles as one floor (docs/conventions.md,
        // "Seams between static shapes"): the box neither lifts off it nor
        // slows at a seam.
        const real hop = state(*pushed_).xf.p.y - (-6 + k_half);
        highest_hop_ = std::max(highest_hop_, hop);
        expect(hop < world.tolerances().linear_slop, "pushed box hopped off the tiles");
        const real x = state(*pushed_).xf.p.x;
        if (x > pushed_x_ - 1) { // not just reset
            std::ostringstream why;
            why << "pushed box slowed: moved " << x - pushed_x_ << " of " << k_speed * dt_;
            expect(x - pushed_x_ > real(0.99) * k_speed * dt_, why.str());
        }
    }

    std::optional<BodyId> floor_mover_;
    std::optional<BodyId> wall_mover_;
    std::optional<BodyId> pushed_;
    real pushed_x_ = 0;
    real dt_ = 0;
    real highest_hop_ = 0; ///< the pushed box's highest lift off its floor, L
    MoveResult last_move_;
    World plain_; ///< WorldDef::move_ties_by_surface_area off
    std::vector<BodyId> plain_tiles_;
    std::optional<BodyId> plain_mover_;
    std::deque<Vec2> plain_trail_;
    MoveResult plain_move_;
    int caught_for_ = 0; ///< steps the rule-off mover has been caught
    int catches_ = 0;    ///< times it caught
};

} // namespace

std::unique_ptr<Sample> make_crack(const SampleContext&) { return std::make_unique<Crack>(); }

} // namespace sweep::testbed
