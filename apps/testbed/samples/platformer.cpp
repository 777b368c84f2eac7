// A platformer character on a Tiled map: a kinematic box moved by
// World::move (collide-and-slide over the map's merged tiles), with gravity,
// running and jumping. Arrows or WASD run, space or up jumps; a headless run
// plays a script. The invariant: the character never overlaps the map.
#include <imgui.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "samples/registry.hpp"
#include "sweep/io/tiled.hpp"
#include "sweep/manifold.hpp"

namespace sweep::testbed {
namespace {

// In tiles (one tile is L world units, docs/conventions.md).
constexpr real k_half_width = real(0.3);
constexpr real k_half_height = real(0.45);
constexpr real k_run_speed = 8;             ///< tiles/s
constexpr real k_jump_speed = 14;           ///< tiles/s
constexpr real k_gravity = 30;              ///< tiles/s^2
constexpr real k_ground_normal = real(0.7); ///< a contact this steep or flatter is ground
constexpr std::uint64_t k_map_category = 1;
constexpr std::uint64_t k_character_category = 2;

std::vector<ShapeDef> map_shapes(const io::StaticGeometry& map) {
    std::vector<ShapeDef> shapes;
    for (const Aabb& b : map.boxes) {
        const Vec2 e = extents(b);
        shapes.emplace_back(make_offset_box(e.x, e.y, center(b), 0).value());
    }
    for (const Polygon& p : map.polygons) {
        shapes.emplace_back(p);
    }
    for (const Circle& c : map.circles) {
        shapes.emplace_back(c);
    }
    for (const Segment& s : map.segments) {
        shapes.emplace_back(s);
    }
    for (ShapeDef& s : shapes) {
        s.filter.category_bits = k_map_category;
    }
    return shapes;
}

WorldDef map_def(real length_units) {
    WorldDef def = WorldSample::default_def();
    def.length_units_per_meter = length_units;
    return def;
}

class Platformer final : public WorldSample {
  public:
    Platformer(io::StaticGeometry map, real length_units)
        : WorldSample(map_def(length_units)), map_(std::move(map)), unit_(length_units) {
        const std::vector<ShapeDef> shapes = map_shapes(map_);
        if (!shapes.empty()) {
            add(BodyDef{}, shapes);
        }
        shape_ = box(k_half_width * unit_, k_half_height * unit_);
        spawn();
    }

    /// A sample with no map, failing with `why`.
    explicit Platformer(const std::string& why) : map_(), unit_(1) {
        shape_ = box(k_half_width, k_half_height);
        fail(why);
    }

    Aabb view() const override {
        const Vec2 c = character_ ? state(*character_).xf.p : Vec2{};
        const Vec2 e{14 * unit_, 9 * unit_};
        return {c - e, c + e};
    }

    std::optional<Vec2> follow() const override {
        if (!character_) {
            return std::nullopt;
        }
        return state(*character_).xf.p;
    }

    Input scripted_input(int frame) const override {
        Input in;
        const bool rightward = (frame / 150) % 2 == 0;
        in.right = rightward;
        in.left = !rightward;
        in.jump = frame % 40 < 10;
        return in;
    }

    void draw_ui() override {
        ImGui::Text("map %s", std::filesystem::path(map_.source).filename().c_str());
        ImGui::Text("%zu solid tiles, %zu static shapes", map_.solid_tiles,
                    map_.counts.after_merge);
        ImGui::Text("%s, v (%.1f, %.1f) tiles/s", grounded_ ? "on ground" : "in the air",
                    double(velocity_.x / unit_), double(velocity_.y / unit_));
        ImGui::Text("respawns %d, deepest in the map %.2f slops", respawns_,
                    double(deepest_ / world.tolerances().linear_slop));
    }

  private:
    // The first free place, scanning columns left to right and each from
    // the top, where the character stands within three tiles of ground.
    void spawn() {
        if (character_) {
            remove(*character_);
            character_.reset();
        }
        const Aabb b = map_.bounds;
        QueryFilter only_map;
        only_map.mask_bits = k_map_category;
        for (real x = b.lower.x + unit_; x < b.upper.x - unit_ && !character_; x += unit_) {
            for (real y = b.upper.y - unit_; y > b.lower.y + unit_; y -= unit_ / 2) {
                const Transform xf{{x, y}, {}};
                const auto hit = world.raycast_closest({x, y}, {0, -3 * unit_}, only_map);
                if (hit && *hit && world.overlap_shape(Shape(shape_), xf, only_map)->empty()) {
                    place({x, y});
                    return;
                }
            }
        }
        place(center(b)); // nothing found: fall from the middle
    }

    void place(Vec2 at) {
        BodyDef def;
        def.type = BodyType::kinematic;
        def.position = at;
        ShapeDef sd(shape_);
        sd.filter.category_bits = k_character_category;
        character_ = add(def, std::span(&sd, 1));
        velocity_ = {};
    }

    void before_step(real dt, const Input& input) override {
        if (!character_) {
            return;
        }
        velocity_.x = k_run_speed * unit_ * (real(input.right) - real(input.left));
        if (grounded_ && input.jump) {
            velocity_.y = k_jump_speed * unit_;
        }
        velocity_.y -= k_gravity * unit_ * dt;
        const Result<MoveResult> moved = world.move(*character_, dt * velocity_);
        if (!moved) {
            fail("World::move failed: " + moved.error().message);
            return;
        }
        extra_cap_hits += moved->iteration_cap_hit ? 1 : 0;
        grounded_ = false;
        for (const MoveContact& c : moved->contacts) {
            if (c.normal.y >= k_ground_normal) {
                grounded_ = true;
                velocity_.y = std::max(velocity_.y, real(0));
            } else if (c.normal.y <= -k_ground_normal) {
                velocity_.y = std::min(velocity_.y, real(0)); // head against a ceiling
            }
        }
        if (moved->position.y < map_.bounds.lower.y - 5 * unit_) {
            ++respawns_;
            spawn();
        }
    }

    // World::move stops a linear slop short of contact, so the character
    // may touch the map but never sink into it deeper than the scene tests
    // allow for resting contact (two slops).
    void check() override {
        if (!character_) {
            return;
        }
        const Transform xf = state(*character_).xf;
        QueryFilter only_map;
        only_map.mask_bits = k_map_category;
        const std::vector<ShapeId> near = world.overlap_shape(Shape(shape_), xf, only_map).value();
        for (const ShapeId id : near) {
            const ShapeInfo info = world.shape_info(id).value();
            const Manifold m = collide(Shape(shape_), xf, info.shape, state(info.body).xf);
            for (int i = 0; i < m.count; ++i) {
                deepest_ = std::max(deepest_, -m.points[static_cast<std::size_t>(i)].separation);
            }
        }
        const real slop = world.tolerances().linear_slop;
        std::ostringstream why;
        why << "the character at (" << xf.p.x << ", " << xf.p.y << ") sank " << deepest_ / slop
            << " linear slops into the map";
        expect(deepest_ <= 2 * slop, why.str());
    }

    io::StaticGeometry map_;
    real unit_;
    Polygon shape_;
    std::optional<BodyId> character_;
    Vec2 velocity_;
    bool grounded_ = false;
    int respawns_ = 0;
    real deepest_ = 0; ///< the character's deepest overlap with the map so far, L
};

} // namespace

std::unique_ptr<Sample> make_platformer(const SampleContext& context) {
    Result<io::StaticGeometry> map = io::load_tiled_map(context.map);
    if (!map) {
        return std::make_unique<Platformer>("the map did not load: " + map.error().message);
    }
    const real unit = map->length_units_per_meter;
    return std::make_unique<Platformer>(std::move(*map), unit);
}

} // namespace sweep::testbed
