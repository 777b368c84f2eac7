// Corners ("Collision Handling": corner-to-corner contacts are the hard
// case). Left: a frictionless box thrown at 127 L/s into the inner corner
// of a floor and a wall; nothing can hold it off either, so it ends in the
// corner touching both. Right: a box whose corner flies at a block's corner;
// the hit turns it and it never sinks into the block.
#include <sstream>

#include "samples/registry.hpp"
#include "sweep/manifold.hpp"

namespace sweep::testbed {
namespace {

constexpr real k_half = real(0.5);
constexpr int k_rethrow_steps = 150;
const Vec2 k_block_center{12, 2}; ///< a 2 x 2 block: its corner at (13, 3)

class Corners final : public WorldSample {
  public:
    Corners() {
        const Material ice{1, 0, 0};
        add(BodyType::static_body, box(5, 0.5f), {4.5f, -0.5f}, {}, ice); // y <= 0
        add(BodyType::static_body, box(0.5f, 5), {-0.5f, 4.5f}, {}, ice); // x <= 0
        add(BodyType::static_body, box(1, 1), k_block_center);
        slop_ = world.tolerances().linear_slop;
        throw_boxes();
    }

    Aabb view() const override { return {{-1.5f, -1.5f}, {19, 9}}; }

    std::vector<Label> labels() const override {
        return {{{1, 8}, "inner corner"}, {{10, 8}, "corner to corner"}};
    }

  private:
    void throw_boxes() {
        for (const auto id : {inner_, corner_}) {
            if (id) {
                remove(*id);
            }
        }
        inner_ = add(BodyType::dynamic, box(k_half, k_half), {3, 3}, {-90, -90}, {1, 0, 0});
        BodyDef def;
        def.type = BodyType::dynamic;
        def.position = {16, 6}; // its corner (15.5, 5.5) heads for the block's (13, 3)
        def.linear_velocity = {-120, -120};
        def.gravity_scale = 0;
        const ShapeDef sd(box(k_half, k_half));
        corner_ = add(def, std::span(&sd, 1));
        thrown_at_ = steps_taken;
    }

    void before_step(real, const Input&) override {
        if (steps_taken - thrown_at_ >= k_rethrow_steps) {
            throw_boxes();
        }
    }

    void check() override {
        // The inner-corner box: by its centre, never inside the floor or the wall.
        const Vec2 c = state(*inner_).center;
        std::ostringstream why;
        why << "the inner-corner box went into a wall: centre (" << c.x << ", " << c.y << ")";
        expect(c.x >= k_half - real(0.01) && c.y >= k_half - real(0.01), why.str());
        // The corner box: its deepest point in the block within two slops.
        const Manifold m = collide(Shape(box(k_half, k_half)), state(*corner_).xf, Shape(box(1, 1)),
                                   {k_block_center, {}});
        for (int i = 0; i < m.count; ++i) {
            const real s = m.points[static_cast<std::size_t>(i)].separation;
            std::ostringstream deep;
            deep << "the corner box sank " << -s << " L into the block";
            expect(s >= -2 * slop_, deep.str());
        }
    }

    std::optional<BodyId> inner_;
    std::optional<BodyId> corner_;
    int thrown_at_ = 0;
    real slop_ = 0;
};

} // namespace

std::unique_ptr<Sample> make_corners(const SampleContext&) { return std::make_unique<Corners>(); }

} // namespace sweep::testbed
