// The README's example, built against the installed library: a ball dropped
// on a box. Exits non-zero unless it comes to rest on the box's top face.
#include <sweep/world.hpp>

#include <cstdio>

int main() {
    auto world = sweep::World::make().value(); // y up, gravity (0, -10), L = 1
    const sweep::ShapeDef ground{sweep::make_box(10, 0.5f).value(), {}};
    sweep::BodyDef ground_def; // static by default
    ground_def.position = {0, -0.5f};
    world.create_body(ground_def, std::span(&ground, 1)).value();
    const sweep::ShapeDef ball{sweep::Circle{{}, 0.25f},
                               {1, 0.6f, 0.5f}}; // density, friction, restitution
    sweep::BodyDef ball_def;
    ball_def.type = sweep::BodyType::dynamic;
    ball_def.position = {0, 4};
    auto id = world.create_body(ball_def, std::span(&ball, 1)).value();
    for (int i = 0; i < 240; ++i) {
        if (!world.step(1.0f / 60))
            return 1; // a Result: check it
    }
    sweep::Vec2 where = world.body_state(id)->center;

    std::printf("ball rests at y = %.4f (expected 0.25)\n", static_cast<double>(where.y));
    return where.y > 0.24f && where.y < 0.26f ? 0 : 1;
}
