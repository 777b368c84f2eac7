// Drops a circle onto a box through the installed library; exits non-zero
// unless it comes to rest on the box's top face.
#include <sweep/world.hpp>

#include <cstdio>

int main() {
    auto world = sweep::World::make();
    auto ground = sweep::make_box(5, 0.5f);
    auto ball = sweep::make_circle({}, 0.5f);
    if (!world || !ground || !ball) {
        return 1;
    }
    const sweep::ShapeDef ground_shape{*ground, {}};
    const sweep::ShapeDef ball_shape{*ball, {}};
    sweep::BodyDef ball_def;
    ball_def.type = sweep::BodyType::dynamic;
    ball_def.position = {0, 3};
    if (!world->create_body({}, std::span(&ground_shape, 1))) {
        return 1;
    }
    auto id = world->create_body(ball_def, std::span(&ball_shape, 1));
    for (int i = 0; i < 120 && id; ++i) {
        (void)world->step(1.0f / 60);
    }
    const float y = world->body_state(*id)->center.y;
    std::printf("ball rests at y = %.4f (expected 1.0)\n", static_cast<double>(y));
    return y > 0.98f && y < 1.01f ? 0 : 1;
}
