#include "samples/registry.hpp"

#include <algorithm>
#include <array>

namespace sweep::testbed {

std::span<const SampleInfo> all_samples() {
    static constexpr std::array<SampleInfo, 15> k_samples{{
        {"crack",
         "boxes slide diagonally over rows of tiles and must never catch on a seam: "
         "World::move over a floor and up a wall, World::step pushing a box; beside the "
         "wall, the surface-area rule off: that box catches",
         make_crack},
        {"bullet",
         "a bullet against a thin wall: discrete stepping (top) tunnels, the swept "
         "world (bottom) stops",
         make_bullet},
        {"corners", "a box thrown into an inner corner, and one corner meeting another",
         make_corners},
        {"mover", "collide-and-slide with the four responses: slide, touch, cross, bounce",
         make_mover},
        {"one-way", "one-way platforms: balls pass from below and land on top", make_one_way},
        {"restitution", "balls of restitution 0 to 1 dropped on a floor", make_restitution},
        {"friction", "boxes of friction 0 to 0.8 sliding on a floor", make_friction},
        {"stack", "a stack of ten boxes", make_stack},
        {"pyramid", "a pyramid with a base of ten boxes", make_pyramid},
        {"spinning-bars", "fast spinning bars in a room (rotational time of impact)",
         make_spinning_bars},
        {"particles", "fast particles in a closed box", make_particles},
        {"crossing", "two fast discs crossing head on", make_crossing},
        {"drive",
         "bodies driven between steps: ledges turn dynamic when a ball has touched them, a "
         "fan pushes balls up with a force, what falls off is teleported back",
         make_drive},
        {"platformer", "a character on a Tiled map: arrows or WASD, space to jump",
         make_platformer},
        {"lab", "narrowphase lab: manifold, GJK closest points, Minkowski difference, shape cast",
         make_lab},
    }};
    return k_samples;
}

const SampleInfo* find_sample(std::string_view name) {
    const auto samples = all_samples();
    const auto it = std::find_if(samples.begin(), samples.end(),
                                 [&](const SampleInfo& s) { return s.name == name; });
    return it == samples.end() ? nullptr : &*it;
}

} // namespace sweep::testbed
