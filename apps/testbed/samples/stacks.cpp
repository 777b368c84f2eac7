// A box stack and a pyramid: resting contact. Boxes start exactly touching;
// the solver must hold them where they are, without sinking, sliding or
// toppling.
#include <cmath>
#include <sstream>

#include "samples/registry.hpp"

namespace sweep::testbed {
namespace {

constexpr real k_half = real(0.5);

class Stacked final : public WorldSample {
  public:
    /// A pyramid of `base` boxes at the bottom, or (pyramid false) a column of `base`.
    Stacked(int base, bool pyramid) {
        add(BodyType::static_body, box(20, 0.5f), {0, -0.5f});
        const int rows = base;
        for (int row = 0; row < rows; ++row) {
            const int count = pyramid ? base - row : 1;
            for (int i = 0; i < count; ++i) {
                const Vec2 at{(real(i) - real(count - 1) / 2) * 2 * k_half,
                              k_half + real(row) * 2 * k_half};
                boxes_.push_back({add(BodyType::dynamic, box(k_half, k_half), at), at});
            }
        }
        slop_ = world.tolerances().linear_slop;
        height_ = real(rows) * 2 * k_half;
    }

    Aabb view() const override { return {{-8, -1}, {8, height_ + 1}}; }

  private:
    struct Start {
        BodyId id;
        Vec2 at;
    };

    void check() override {
        const real penetration = world.stats().max_penetration;
        std::ostringstream deep;
        deep << "boxes overlap by " << penetration << " L";
        expect(penetration <= 4 * slop_, deep.str());
        for (const Start& s : boxes_) {
            const Vec2 c = state(s.id).center;
            std::ostringstream why;
            why << "the box that started at (" << s.at.x << ", " << s.at.y << ") is at (" << c.x
                << ", " << c.y << ")";
            expect(std::abs(c.x - s.at.x) < real(0.25) && c.y > s.at.y - real(0.1), why.str());
        }
    }

    std::vector<Start> boxes_;
    real slop_ = 0;
    real height_ = 0;
};

} // namespace

std::unique_ptr<Sample> make_stack(const SampleContext&) {
    return std::make_unique<Stacked>(10, false);
}
std::unique_ptr<Sample> make_pyramid(const SampleContext&) {
    return std::make_unique<Stacked>(10, true);
}

} // namespace sweep::testbed
