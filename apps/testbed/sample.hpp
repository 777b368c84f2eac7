// A sample: a scene to watch, step and poke, with an invariant of its own
// that the headless test run checks (the bullet stopped at the wall, the
// particles stayed in their box...).
#pragma once

#include <SDL.h>

#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "draw.hpp"
#include "sweep/world.hpp"

namespace sweep::testbed {

/// What to draw on top of the shapes.
struct DrawOptions {
    bool aabbs = false;
    bool broadphase = false; ///< the world's broadphase trees, node by node
    bool contacts = true;
    bool events = true;     ///< hit events
    bool toi_events = true; ///< where continuous collision stopped or redirected bodies
    bool trajectories = true;
};

/// What the panel shows about the last step.
struct Figures {
    int bodies = 0;
    int awake_bodies = 0; ///< dynamic bodies simulated in the last step (the rest sleep)
    int contacts = 0;
    int contact_points = 0;
    int toi_events = 0;      ///< bodies the final sweep stopped against static geometry
    int toi_pair_events = 0; ///< impacts resolved between moving bodies
    int cap_hits = 0; ///< since the start: sweep round, TOI iteration, TOI clamp and move caps
    real max_penetration = 0; ///< L, at the end of the last step
    double step_ms = 0;       ///< wall time of the last step, the sample's own work included
    double broadphase_ms = 0; ///< the world's step by phase (StepStats), milliseconds
    double narrowphase_ms = 0;
    double toi_ms = 0;
    double solver_ms = 0;
};

/// Keys the character samples read, from the keyboard or a headless script.
struct Input {
    bool left = false;
    bool right = false;
    bool jump = false;
};

/// Text placed at a world point.
struct Label {
    Vec2 at;
    std::string text;
};

/// The base of every sample.
class Sample {
  public:
    virtual ~Sample() = default;

    /// Advances the scene by `dt` seconds. `input` is the keyboard state.
    virtual void step(real dt, const Input& input) = 0;
    virtual void draw(const Draw& draw, const DrawOptions& options) const = 0;
    /// Sample-specific controls in the panel.
    virtual void draw_ui() {}
    /// Text drawn over the scene.
    virtual std::vector<Label> labels() const { return {}; }
    /// The region the camera starts on (world, L).
    virtual Aabb view() const = 0;
    virtual Figures figures() const { return {}; }

    /// Mouse in world coordinates; left button drags, what drags is the sample's.
    virtual void mouse_down(Vec2 /*world*/) {}
    virtual void mouse_move(Vec2 /*world*/) {}
    virtual void mouse_up() {}
    /// Mouse wheel with the sample's modifier (the lab rotates its shape).
    virtual bool wants_wheel() const { return false; }
    virtual void wheel(real /*clicks*/) {}

    /// Input a headless run feeds at `frame`, standing in for a player.
    virtual Input scripted_input(int /*frame*/) const { return {}; }
    /// Where the camera looks now; empty: wherever the user put it.
    virtual std::optional<Vec2> follow() const { return std::nullopt; }

    /// The first invariant that failed, with the step and the figures; empty while all hold.
    const std::optional<std::string>& failure() const { return failure_; }
    /// The user moved a body: the scene is no longer the one the invariant
    /// describes, so it is no longer checked.
    bool disturbed() const { return disturbed_; }

  protected:
    /// Records `message` as the failure unless one is recorded already.
    void fail(const std::string& message);
    /// Records `message` when `ok` is false.
    void expect(bool ok, const std::string& message) {
        if (!ok) {
            fail(message);
        }
    }
    int steps_taken = 0; ///< steps since the sample started
    bool disturbed_ = false;

  private:
    std::optional<std::string> failure_;
};

/// A body the sample follows: its shapes for drawing, its colour, its path.
struct TrackedBody {
    BodyId id;
    std::vector<Shape> shapes;
    Color color;
    BodyType type = BodyType::static_body;
    std::deque<Vec2> trail; ///< centre of mass, oldest first
};

/// The newest events of one kind, each with its age in steps, so that their
/// markers stay on screen for a while and a swarm stays readable.
template <class Event> class RecentEvents {
  public:
    RecentEvents(int lifetime, std::size_t most) : lifetime_(lifetime), most_(most) {}

    /// One step later: everything ages, `fresh` joins, the oldest go.
    void advance(const std::vector<Event>& fresh) {
        for (auto& [event, age] : items_) {
            ++age;
        }
        for (const Event& e : fresh) {
            items_.push_back({e, 0});
        }
        while (!items_.empty() && (items_.front().second > lifetime_ || items_.size() > most_)) {
            items_.pop_front();
        }
    }
    /// Oldest first, with their ages.
    const std::deque<std::pair<Event, int>>& items() const { return items_; }

  private:
    int lifetime_;
    std::size_t most_;
    std::deque<std::pair<Event, int>> items_;
};

/// A sample around one World: body bookkeeping, drawing, mouse drag and
/// figures shared by the samples that step a world.
class WorldSample : public Sample {
  public:
    explicit WorldSample(const WorldDef& def = default_def());

    void step(real dt, const Input& input) override;
    void draw(const Draw& draw, const DrawOptions& options) const override;
    Figures figures() const override { return figures_; }
    void mouse_down(Vec2 world) override;
    void mouse_move(Vec2 world) override { mouse_ = world; }
    void mouse_up() override { dragged_.reset(); }

    /// Gravity (0, -10), the penetration measured for the panel.
    static WorldDef default_def();

  protected:
    BodyId add(BodyType type, const Shape& shape, Vec2 position, Vec2 velocity = {},
               const Material& material = {}, real angle = 0);
    BodyId add(const BodyDef& def, std::span<const ShapeDef> shapes);
    void add_room(Aabb inside, real thickness = real(0.5), const Material& material = {});
    void remove(BodyId id);

    /// Before the world steps: a sample's forces, moves, velocities.
    virtual void before_step(real /*dt*/, const Input& /*input*/) {}
    /// After the world stepped: the sample's invariant.
    virtual void check() {}
    /// Extra drawing on top of the bodies.
    virtual void draw_extra(const Draw& /*draw*/) const {}

    BodyState state(BodyId id) const { return world.body_state(id).value(); }
    TrackedBody* tracked(BodyId id);

    World world;
    std::vector<TrackedBody> bodies;
    int extra_cap_hits = 0;         ///< cap hits a sample counts itself (World::move's)
    std::size_t trail_points = 240; ///< how much of each path is drawn

  private:
    void track_after_step();
    void drag();
    void draw_trees(const Draw& draw, const Aabb& visible) const;
    void draw_toi_events(const Draw& draw) const;

    Figures figures_;
    RecentEvents<ContactHitEvent> hits_;
    RecentEvents<TimeOfImpactEvent> tois_;
    std::optional<BodyId> dragged_;
    Vec2 grab_offset_; ///< from the centre of mass to the grabbed point, world
    Vec2 mouse_;
};

/// Half extents of a box, as a Polygon.
Polygon box(real hx, real hy);

} // namespace sweep::testbed
