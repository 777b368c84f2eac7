// libFuzzer target: bytes -> a scene file (docs/scenes.md) through
// sweep::io::load_scene_from_memory. It must never crash or throw, and a
// scene that loads must hold what the loader promises: finite values in
// their domains, at least one shape per body and character. Scenes that
// name a map are skipped: they would open files named by the input.
#include <nlohmann/json.hpp>
#include <sweep/io/scene.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void require(bool ok) {
    if (!ok) {
        std::abort(); // a broken promise: libFuzzer keeps the input
    }
}

bool finite(sweep::Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json root = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (root.is_object() && root.contains("map")) {
        return 0;
    }
    const auto scene = sweep::io::load_scene_from_memory(text, "fuzz.json");
    if (!scene) {
        require(scene.error().message.rfind("fuzz.json: ", 0) == 0);
        return 0;
    }
    require(scene->dt > 0 && scene->dt <= 1 && scene->steps >= 0 && scene->substeps >= 1);
    require(finite(scene->world.gravity) && scene->world.length_units_per_meter > 0);
    for (const sweep::io::SceneBody& b : scene->bodies) {
        require(!b.shapes.empty() && b.copies_x >= 1 && b.copies_y >= 1);
        require(finite(b.def.position) && finite(b.def.linear_velocity) && std::isfinite(b.def.angle));
        for (const sweep::ShapeDef& s : b.shapes) {
            require(s.material.density >= 0 && s.material.friction >= 0);
            require(s.material.restitution >= 0 && s.material.restitution <= 1);
        }
    }
    for (const sweep::io::SceneCharacter& c : scene->characters) {
        require(!c.shapes.empty() && finite(c.position) && c.jump_speed >= 0);
    }
    return 0;
}
