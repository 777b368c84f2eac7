// Randomized worlds: fast bodies in a closed box never leave it, whatever
// their speed, size or spin. The referee is plain arithmetic on centres.
#include <gtest/gtest.h>

#include <random>

#include "property.hpp"
#include "sweep/world.hpp"

namespace sweep {
namespace {

TEST(WorldProperty, FastBodiesNeverLeaveAClosedBox) {
    const int cases = test::property_cases(40);
    std::mt19937 rng(20261122);
    std::uniform_real_distribution<real> unit(0, 1);
    for (int c = 0; c < cases; ++c) {
        auto world = World::make({}).value();
        // Walls 0.2 thick around the room [-5, 5] x [-5, 5].
        const real t = 0.1f;
        const std::array<std::pair<Vec2, Vec2>, 4> walls{{{{0, -5 - t}, {5 + 2 * t, t}},
                                                          {{0, 5 + t}, {5 + 2 * t, t}},
                                                          {{-5 - t, 0}, {t, 5 + 2 * t}},
                                                          {{5 + t, 0}, {t, 5 + 2 * t}}}};
        for (const auto& [center, half] : walls) {
            BodyDef def;
            def.position = center;
            const ShapeDef sd{make_box(half.x, half.y).value(), {}};
            ASSERT_TRUE(world.create_body(def, std::span(&sd, 1)).has_value());
        }
        std::vector<BodyId> bodies;
        for (int i = 0; i < 12; ++i) {
            BodyDef def;
            def.type = BodyType::dynamic;
            def.position = {-4 + 8 * unit(rng), -4 + 8 * unit(rng)};
            const real speed = 20 + 300 * unit(rng);
            const real heading = 2 * k_pi * unit(rng);
            def.linear_velocity = speed * Vec2{std::cos(heading), std::sin(heading)};
            def.angular_velocity = 40 * (unit(rng) - 0.5f);
            const real size = 0.05f + 0.3f * unit(rng);
            const Shape shape =
                i % 2 ? Shape(Circle{{}, size}) : Shape(make_box(size, 0.5f * size).value());
            const ShapeDef sd{shape, {1, unit(rng), unit(rng)}};
            bodies.push_back(world.create_body(def, std::span(&sd, 1)).value());
        }
        for (int s = 0; s < 120; ++s) {
            ASSERT_TRUE(world.step(1.0f / 60).has_value());
            for (BodyId id : bodies) {
                const Vec2 p = world.body_state(id).value().center;
                ASSERT_TRUE(std::abs(p.x) < 5 && std::abs(p.y) < 5)
                    << "case " << c << " step " << s << " centre (" << p.x << ", " << p.y << ")";
            }
        }
    }
}

} // namespace
} // namespace sweep
