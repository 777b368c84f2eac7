// The world: bodies, their shapes, and the step that moves them.
//
// step(dt) is the physical response of the slice: gravity, speculative
// contacts (Catto, "Continuous Collision", GDC 2013) solved by sequential
// impulses with restitution and Coulomb friction (the seed "collision
// response"; Catto, "Iterative Dynamics", GDC 2005), nonlinear position
// correction; then time-of-impact events between moving bodies, in time
// order with each body on its own clock (a fast body's speculative margin
// against moving bodies is bounded by the pair's inner radii; pairs beyond it
// meet through these events, capped per body and per step: src/world_toi.cpp,
// after Box2D 2.4's SolveTOI, with bullets swept against bullets too); and
// last a time-of-impact sweep of every dynamic body's final pose against
// static geometry so that nothing tunnels through a wall. A body a sweep
// stops at a wall hits it there: an impact with the pair's restitution and
// friction, the wall immovable (docs/conventions.md, "Penetration in the
// step").
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sweep/body.hpp"
#include "sweep/constants.hpp"
#include "sweep/events.hpp"
#include "sweep/mover.hpp"
#include "sweep/result.hpp"

namespace sweep {

/// Which broadphase holds the static shapes.
enum class StaticBroadphase {
    tree, ///< a DynamicTree rebuilt by binned SAH before first use: any level
    grid, ///< a UniformGrid: many same-sized tiles (its cell size from WorldDef)
};

/// World settings. Lengths in L, times in seconds.
struct WorldDef {
    Vec2 gravity{0, -10};            ///< metres per s^2; scaled by length_units_per_meter
    real length_units_per_meter = 1; ///< L: world units per metre (> 0); scales every tolerance
    int velocity_iterations =
        8; ///< least sequential impulse sweeps per step (up to 8x while they converge)
    /// The contact solve's sub-steps (>= 1). n > 1: the contacts, made once
    /// a step, are solved in n sub-steps of dt / n, each with one sweep
    /// aiming at the contacts' separations moved by the bodies' motion so
    /// far and two relax sweeps (Catto, "Solver2D", 2024; Box2D v3's step;
    /// after an impact both go on while they still change a contact speed
    /// by more than 4 slops per step, up to 128 and 64 more: inelastic
    /// landings stay down; each sub-step's warm start damps the impulses it
    /// carries, so that piles come to rest rather than rock): stacks settle
    /// in few sweeps, sway and sink less (Box2D's 5050-box pyramid sinks 11
    /// slops in its first 4 s and then stands still, rather than 67). 1:
    /// sequential-impulse sweeps over the whole step until they converge
    /// (velocity_iterations), which follows one-step semi-implicit Euler
    /// exactly. Position correction and the continuous phase follow either
    /// way. Not World::step's substeps, which run whole steps.
    int solver_substeps = 8;
    int position_iterations =
        60; ///< most position correction sweeps per step (stops early once within the slop)
    /// Most rounds of position correction and final sweep against static
    /// geometry per step (>= 1). A round that stops, adds or touches
    /// nothing ends them; a step that uses them all lets the final sweep
    /// have the last word and sends the bodies of a jam they could not
    /// resolve back to their poses at the step's start
    /// (StepStats::sweep_round_cap_hits; docs/conventions.md, "Penetration
    /// in the step"), as does a round whose correction gave up on a jam
    /// deeper than 2 linear slops.
    int correction_rounds = 12;
    bool measure_penetration =
        false; ///< compute StepStats::max_penetration (a broadphase query and narrowphase pass)
    real max_translation_speed =
        k_max_translation_speed;  ///< metres per s (> 0), scaled by L: the seed's maxVelocity
    real hit_speed_threshold = 1; ///< metres per s (>= 0), scaled by L: slower hits raise no event
    std::optional<Aabb> bounds;   ///< L: a moving body whose AABB leaves it is removed (kill plane)
    StaticBroadphase static_broadphase = StaticBroadphase::tree; ///< where static shapes live
    real grid_cell_size = 0; ///< L, >= 0: the grid's cell side (0: derived from the shapes)
    CombineRule friction_combine = CombineRule::geometric_mean; ///< a contact's friction
    CombineRule restitution_combine = CombineRule::maximum;     ///< a contact's restitution
    /// World::move orders contacts tied with the earliest by surface area
    /// first, faces before corners (the seeds' rule against the crack
    /// problem). false orders them by normal and shape id only, so that a
    /// corner met at a tile seam may lead the response; it exists to show
    /// what the rule prevents (the testbed's crack sample).
    bool move_ties_by_surface_area = true;
    /// World::move takes its fast path (src/box_mover.hpp) for a body of one
    /// shape (an axis-aligned box, a disc, or a capsule whose core lies along
    /// an axis) among axis-aligned boxes, with no filter or one that answers
    /// slide or ignore there: the general mover's method, the same results
    /// to the bit, in about 15 % fewer instructions for a box and 8 to 9 %
    /// for a round shape. false sends every move to the general mover; it
    /// exists to compare the two.
    bool move_fast_path = true;
    /// Sleeping: dynamic bodies that stay slower than the sleep tolerances
    /// (Tolerances::linear_sleep_tolerance, k_angular_sleep_tolerance) for
    /// time_to_sleep seconds, together with every dynamic body they are in
    /// contact with (an island), stop being simulated until something wakes
    /// them: a moving body coming into contact with one of them (within the
    /// speculative distance: a body merely near, its box meeting theirs,
    /// does not), a kinematic body moving into them, a body created, moved,
    /// destroyed or refiltered near them, set_velocity, set_awake. A
    /// sleeping body keeps its pose, its touching contacts and their
    /// impulses, so that a woken island starts where it slept, as still,
    /// and costs nothing per step (Catto, "Box2D 2.4", b2World::Solve's
    /// islands).
    /// Off, every dynamic body is simulated every step (benchmarks turn it off).
    bool enable_sleep = true;
    real time_to_sleep = real(0.5); ///< seconds (finite, >= 0) at rest before an island sleeps
};

/// Decides, once per step, whether a touching pair found by the step
/// collides: return false to let it pass this step (a one-way platform lets
/// a body through from below). Called with the dynamic body's shape first,
/// and the manifold from it to the other shape (normal from A to B).
using PreSolveFn = std::function<bool(ShapeId a, ShapeId b, const Manifold& manifold)>;

/// A shape met by a world query, where and how.
struct QueryHit {
    ShapeId shape;
    BodyId body;
    Vec2 point;        ///< world, on the shape's surface
    Vec2 normal;       ///< world unit surface normal there (toward the ray or cast shape)
    real fraction = 0; ///< of the ray's or cast's translation, [0, 1]
};

/// A shape as the world holds it.
struct ShapeInfo {
    BodyId body;
    Shape shape; ///< in the body's frame
    Material material;
    Filter filter;
    bool sensor = false;
    std::uint64_t user_data = 0;
};

/// What one step did; filled by step().
struct StepStats {
    int contacts = 0; ///< manifolds with at least one point
    int contact_points = 0;
    /// Sub-steps whose contact search took its pairs from the one before,
    /// which walked the static and moving trees with fat boxes (the same
    /// bodies searched, and no proxy had moved since): a world at rest walks
    /// no tree.
    int pair_searches_reused = 0;
    /// Sub-steps whose contact search took its pairs from the one before
    /// after seeking again only the pairs of the proxies that had moved
    /// since, and of the shapes near static shapes made or destroyed since
    /// (at most a quarter as many as the searching bodies; Box2D's move
    /// buffer). The pairs, and so the step, are those of a whole
    /// search: every search orders its pairs by shape, not by how the
    /// broadphase found them.
    int pair_searches_updated = 0;
    /// Of `contacts`, those whose manifold was the last step's, its points
    /// carried by the bodies, because the pair had moved, one body relative
    /// to the other, less than a tenth of the linear slop since collide()
    /// made it (with a speculative distance at most a quarter slop short of
    /// this step's; neither shape destroyed, made anew in a destroyed one's
    /// place or given new seams by a static shape made or destroyed beside
    /// it, and no shape refiltered or retyped since): the pairs of a resting
    /// stack skip the narrowphase (PhysX's contact cache).
    int manifolds_carried = 0;
    /// Bodies stopped early at a wall (TimeOfImpactKind::static_sweep: the
    /// final sweep, a path's sweep up to an event, or a wall event).
    int toi_events = 0;
    int toi_pair_events = 0;      ///< time-of-impact events resolved between moving bodies
    /// Bodies clamped at an impact by a cap, and bodies of a jam sent back
    /// to the step's start (TimeOfImpactKind::clamped and ::returned).
    int toi_cap_hits = 0;
    real toi_time_lost = 0;       ///< seconds of motion the clamped bodies lost (summed)
    int toi_failures = 0;         ///< TOI queries that hit their iteration cap (safe time used)
    int sweep_round_cap_hits = 0; ///< steps whose correct-and-sweep rounds hit their cap
    int awake_bodies = 0;         ///< dynamic bodies awake at the end of the step
    /// Sequential-impulse sweeps over the contacts: with
    /// WorldDef::solver_substeps = n > 1, 3 n to 195 n (a solve and two relax
    /// sweeps a sub-step, and up to 128 more solve and 64 more relax sweeps
    /// while they still change a contact point's speed by more than 4 slops
    /// per step: after an impact; those solve only the contacts, in batches
    /// of 8 or 4, of bodies the sweep before changed by more than 2 slops
    /// per step); with 1, WorldDef::velocity_iterations,
    /// up to 8 times
    /// that while they still change a contact point's speed by more than a
    /// tenth of a slop per step.
    int velocity_sweeps = 0;
    /// Position-correction sweeps over the contacts, summed over sub-steps
    /// and the step's correct-and-sweep rounds.
    int position_sweeps = 0;
    real max_penetration =
        0; ///< deepest overlap of a dynamic body with anything it collides with at the end of the
           ///< step, L (>= 0), contact or not; needs measure_penetration
    // Wall-clock time of the step's phases (std::chrono::steady_clock, a few
    // clock reads per sub-step, none per pair), summed over sub-steps: four
    // disjoint parts of the step() call, so their sum is at most its
    // duration (the rest is bookkeeping such as resetting the events).
    // Zero after step(0).
    /// Seconds: the static tree's rebuild, the moving proxies' updates, the
    /// search for candidate pairs, removing bodies that left the bounds.
    double broadphase_seconds = 0;
    /// Seconds: the candidate pairs' contact manifolds, the touching
    /// contacts and sensor overlaps at the end, measure_penetration.
    double narrowphase_seconds = 0;
    /// Seconds: time-of-impact events between moving bodies and the sweeps
    /// of dynamic bodies against static geometry.
    double toi_seconds = 0;
    /// Seconds: integration, the velocity and restitution solve, position
    /// correction.
    double solver_seconds = 0;
};

/// Which of the world's broadphase trees World::broadphase_tree reads.
enum class BroadphaseTree {
    moving,        ///< kinematic and dynamic shapes, by their swept fat AABBs
    static_shapes, ///< static shapes (StaticBroadphase::tree worlds only)
};

/// One node of a broadphase tree.
struct TreeNodeInfo {
    Aabb box;          ///< world, L: a leaf's fat AABB; an internal node's union of its children's
    int depth = 0;     ///< edges from the root (the root is 0)
    bool leaf = false; ///< a leaf holds one shape's proxy
    ShapeId shape;     ///< a leaf's shape; a null id (index -1) for an internal node
};

/// A stretch of one face of a static polygon (or of a kinematic body's)
/// that a flush neighbour covers, back to back (docs/conventions.md, "Seams
/// between static shapes").
struct CoveredStretchInfo {
    int face = 0;      ///< the face from Polygon::vertices[face] to the next vertex
    ShapeId neighbour; ///< the shape covering it
    real lo = 0;       ///< where the stretch starts: L along the face from its first vertex
    real hi = 0;       ///< where it ends, L; hi - lo exceeds the touch tolerance
};

/// The seams World::shape_seams reports for one shape.
struct ShapeSeams {
    /// Its faces' covered stretches, neighbour by neighbour.
    std::vector<CoveredStretchInfo> covered;
    /// For a static or kinematic body's polygon of radius 0 or segment that
    /// is no sensor, by vertex (Polygon::vertices order; a segment's p1, p2):
    /// the neighbour that vertex lies buried in or on (no corner there), else
    /// a null id. Empty for other shapes.
    std::vector<ShapeId> buried_by;
};

/// A body's state, read back from the world.
struct BodyState {
    BodyType type = BodyType::static_body;
    Transform xf; ///< body origin and rotation
    Vec2 center;  ///< centre of mass, world
    Vec2 linear_velocity;
    real angular_velocity = 0;
    real mass = 0; ///< a dynamic body's (density x area summed over its shapes); else 0
    /// Rotational inertia about the centre of mass (mass x L^2), from its
    /// inverse: 0 for a body that cannot turn by contacts and torques (not
    /// dynamic, or BodyDef::fixed_rotation).
    real inertia = 0;
    std::uint64_t user_data = 0; ///< BodyDef::user_data
    /// Simulated by step(): a dynamic body not asleep (WorldDef::enable_sleep),
    /// every kinematic body; never a static body.
    bool awake = false;
    real gravity_scale = 1;   ///< BodyDef's, or set_gravity_scale's
    real linear_damping = 0;  ///< 1/s: BodyDef's, or set_damping's
    real angular_damping = 0; ///< 1/s: BodyDef's, or set_damping's
    bool fixed_rotation = false; ///< BodyDef's, or set_fixed_rotation's
};

/// A 2D world of rigid bodies. Movable, not copyable. Every call that can
/// fail returns a Result and leaves the world unchanged when it does.
class World {
  public:
    /// A world with `def`. Errors: non-finite gravity (in L/s^2 too, and its
    /// length), length_units_per_meter not > 0 or so small or large that a
    /// tolerance in L (Tolerances::for_units) is zero, subnormal or infinite
    /// in `real` (in float, below about 1e-35 or above about 8e35),
    /// iteration counts < 1,
    /// max_translation_speed not > 0 or not finite in L/s,
    /// hit_speed_threshold < 0, bounds not finite or inverted, grid_cell_size
    /// or time_to_sleep not finite or < 0 (invalid_input).
    static Result<World> make(const WorldDef& def = {});

    World(World&&) noexcept;
    World& operator=(World&&) noexcept;
    ~World();

    /// Adds a body with at least one shape; what sleeps where its shapes
    /// are wakes (as for create_shape). Errors: non-finite values,
    /// negative damping, negative density, friction or rolling resistance,
    /// restitution outside [0, 1], a shape reaching beyond k_max_coordinate,
    /// a velocity component or spin beyond k_max_coordinate per second, a
    /// dynamic body whose shapes have no mass, a mass beyond k_max_mass, or
    /// a mass or inertia whose inverse is not finite in `real` (densities too
    /// small or too large), an empty shape list, segments or chain segments
    /// on a moving body (invalid_input); a call from inside a pre-solve hook
    /// or a move filter (unsupported).
    Result<BodyId> create_body(const BodyDef& def, std::span<const ShapeDef> shapes);
    /// Makes room for `bodies` bodies and `shapes` shapes in all (alive and
    /// to come; destroyed ones' records are reused first), so that creating
    /// up to that many moves none of the records already made. A level
    /// loader that knows its size saves the growing arrays' copies and the
    /// page faults of their old and new memory: a 200x200 tile level's first
    /// load takes about a quarter less time (World/load_200x200_tiles_reserved).
    /// Never shrinks; handles, results and the simulation are unchanged.
    /// Errors: a negative count (invalid_input); more than memory holds
    /// (limit_exceeded, the world as it was); a call from inside a pre-solve
    /// hook or a move filter (unsupported).
    Result<void> reserve(int bodies, int shapes);
    /// Removes a body. Errors: stale handle; a call from inside a pre-solve
    /// hook or a move filter (unsupported).
    Result<void> destroy_body(BodyId id);
    /// Adds a shape to a body (in the body's frame), as create_body would
    /// have made it among the body's shapes; a dynamic body's mass, centre
    /// of mass and inertia take it in, its motion unchanged (the new centre
    /// moves as that point of the body did; Box2D's ResetMassData). The body
    /// wakes, and so does whatever sleeps where the shape is. Errors: stale
    /// handle; create_body's shape errors (a shape beyond k_max_coordinate, a
    /// segment or chain on a moving body, a material out of range) and mass
    /// errors (invalid_input); a call from inside a pre-solve hook or a move
    /// filter (unsupported). On an error the body is as it was.
    Result<ShapeId> create_shape(BodyId id, const ShapeDef& shape);
    /// Removes a shape from its body, its handle going stale; a dynamic
    /// body's mass follows as in create_shape. What rested on it wakes.
    /// Errors: stale handle; the body's last shape (destroy the body), a
    /// dynamic body left without mass (invalid_input); a call from inside a
    /// pre-solve hook or a move filter (unsupported). On an error the body
    /// is as it was.
    Result<void> destroy_shape(ShapeId id);
    /// Changes a shape's material: friction, restitution and rolling
    /// resistance from the next step on (ice under a box that rested: it
    /// wakes, with what rests on the shape); a new density changes a
    /// dynamic body's mass, centre of mass and inertia at once, its motion
    /// kept (as create_shape). Errors: stale handle; a material out of
    /// range (create_body's rule), a dynamic body left without mass or
    /// beyond k_max_mass (invalid_input); a call from inside a pre-solve
    /// hook or a move filter (unsupported). On an error the shape is as it
    /// was.
    Result<void> set_material(ShapeId id, const Material& material);
    /// A body's current state. Errors: stale handle.
    Result<BodyState> body_state(BodyId id) const;
    /// Every live body, by index (a debug draw's or a save's walk): a
    /// destroyed body's slot is reused by the next body made, whose handle
    /// then stands there with a new generation.
    std::vector<BodyId> body_ids() const;
    /// The shapes of a body, in the order they were given. Errors: stale handle.
    Result<std::vector<ShapeId>> body_shapes(BodyId id) const;

    /// A shape's body, geometry, material, filter, sensor flag and user data.
    /// Errors: stale handle.
    Result<ShapeInfo> shape_info(ShapeId id) const;

    /// Changes a shape's filter; takes effect from the next step or move.
    /// Errors: stale handle; a call from inside a pre-solve hook or a move
    /// filter (unsupported).
    Result<void> set_filter(ShapeId id, const Filter& filter);

    /// Installs (or, with an empty function, removes) the pre-solve hook.
    /// Errors: a call from inside the hook or a move filter (unsupported).
    Result<void> set_pre_solve(PreSolveFn pre_solve);

    /// Wakes a sleeping dynamic body and every body asleep in its island
    /// (awake = true), or puts a dynamic body to sleep alone at once, its
    /// velocity zeroed (awake = false; it wakes as any sleeping body does).
    /// Static and kinematic bodies ignore it. Errors: stale handle; a call
    /// from inside a pre-solve hook or a move filter (unsupported).
    Result<void> set_awake(BodyId id, bool awake);

    /// Sets a dynamic or kinematic body's velocity; a non-zero velocity wakes
    /// a sleeping body (and its island). Errors: stale handle, NaN/inf, a
    /// component or spin beyond k_max_coordinate per second (invalid_input);
    /// a call from inside a pre-solve hook or a move filter (unsupported).
    /// A spin that turns a point of the body faster than k_max_coordinate
    /// L/s is kept, and cut when a step begins (see step).
    Result<void> set_velocity(BodyId id, Vec2 linear, real angular);

    /// Changes a body's type, keeping its pose, shapes and handles (Box2D's
    /// SetType). To dynamic: its mass, centre of mass and inertia come from
    /// its shapes' densities (and BodyDef::fixed_rotation as made), its
    /// velocities are kept. To kinematic: it keeps its velocities, and
    /// neither gravity nor contacts change them. To static: it stops (its
    /// velocities zeroed, and the forces and torques applied since the last
    /// step dropped) and its shapes join the static broadphase and its
    /// seams, which costs what set_transform on a static body costs. It
    /// wakes, and so does whatever sleeps against it; its contacts are found
    /// again by the next step. The same type does nothing. Errors: stale
    /// handle; to kinematic or dynamic, a segment or chain segment among its
    /// shapes; to dynamic, create_body's mass errors (no mass, beyond
    /// k_max_mass, an inverse not finite) (invalid_input); a call from
    /// inside a pre-solve hook or a move filter (unsupported). On an error
    /// the body is as it was.
    Result<void> set_body_type(BodyId id, BodyType type);

    /// Scales the gravity on a dynamic body from the next step on (any finite
    /// value: 0 floats, -1 falls up). A change wakes it and its island.
    /// Errors: stale handle, NaN/inf (invalid_input); a call from inside a
    /// pre-solve hook or a move filter (unsupported).
    Result<void> set_gravity_scale(BodyId id, real scale);

    /// Sets a body's damping from the next step on (1/s, >= 0: each step
    /// divides the velocity by 1 + dt x damping, as BodyDef's). Errors: stale
    /// handle, NaN/inf or negative (invalid_input); a call from inside a
    /// pre-solve hook or a move filter (unsupported).
    Result<void> set_damping(BodyId id, real linear, real angular);

    /// Stops a dynamic body turning (fixed = true: its spin becomes 0 and
    /// contacts and torques no longer turn it; a character's box), or lets
    /// it turn again with the inertia of its shapes (BodyDef::fixed_rotation).
    /// It wakes with its island. Errors: stale handle; a call from inside a
    /// pre-solve hook or a move filter (unsupported).
    Result<void> set_fixed_rotation(BodyId id, bool fixed);

    /// Teleports a body: its origin to `position` (world, L) and its
    /// rotation to `angle` (radians, counter-clockwise), at once and not
    /// swept (a teleport is not a motion: it may land the body inside
    /// another, which the next step pushes apart). Its velocities are kept.
    /// It wakes, with its island, and so does whatever sleeps where it was
    /// or is now (a box resting on a platform teleported away falls). Its
    /// contacts are found again by the next step (touching_contacts() and
    /// the events hold the last step's until then). It stands on no ground
    /// until its next move, and what rode it (step()'s carry) rides it no
    /// more until a move finds it again. Any body type: a static body's
    /// shapes leave the static broadphase and enter it again, which, as
    /// creating or destroying a static body does, leaves the seams of its
    /// shapes and their neighbours to be found again when next read (a few
    /// shapes' work); once the changes since the static tree's last rebuild
    /// number an eighth of the static shapes it then held, it is rebuilt too.
    /// Errors: stale handle, NaN/inf, a shape reaching beyond
    /// k_max_coordinate at the new pose (invalid_input); a call from inside a
    /// pre-solve hook or a move filter (unsupported). On an error the body is
    /// where it was.
    Result<void> set_transform(BodyId id, Vec2 position, real angle);

    /// Adds `force` (world; mass x L / s^2, mass as BodyState::mass) acting
    /// at `point` (world, L) to a dynamic body's forces for the next step:
    /// its centre of mass accelerates by force / mass, and it turns by the
    /// torque cross(point - centre, force) over its rotational inertia
    /// (none with fixed rotation). Forces add up until the next step with
    /// dt > 0 ends, which applies them over each of its parts (World::step's
    /// substeps and WorldDef::solver_substeps, as gravity) and clears them;
    /// to push over many steps, apply every step (Box2D's ApplyForce). A
    /// non-zero force wakes a sleeping body and its island. Static and
    /// kinematic bodies ignore it. The speed and spin it gives are cut as
    /// any (step()). Errors: stale handle, NaN/inf, `point` beyond
    /// k_max_coordinate, a total force or torque that is not finite
    /// (invalid_input); a call from inside a pre-solve hook or a move filter
    /// (unsupported). On an error the body's forces are as they were.
    Result<void> apply_force(BodyId id, Vec2 force, Vec2 point);

    /// Adds `torque` (mass x L^2 / s^2, counter-clockwise) to a dynamic
    /// body's torque for the next step: apply_force's rules, turning only.
    Result<void> apply_torque(BodyId id, real torque);

    /// Changes a dynamic body's velocities at once by `impulse` (world;
    /// mass x L / s) acting at `point` (world, L): its linear velocity by
    /// impulse / mass, its spin by cross(point - centre, impulse) over its
    /// rotational inertia (none with fixed rotation); Box2D's
    /// ApplyLinearImpulse. A non-zero impulse wakes a sleeping body and its
    /// island. Static and kinematic bodies ignore it. Errors: stale handle,
    /// NaN/inf, `point` beyond k_max_coordinate, velocities after it beyond
    /// k_max_coordinate per second (invalid_input); a call from inside a
    /// pre-solve hook or a move filter (unsupported). On an error the
    /// body's velocities are as they were.
    Result<void> apply_linear_impulse(BodyId id, Vec2 impulse, Vec2 point);

    /// Changes a dynamic body's spin at once by `impulse` (mass x L^2 / s,
    /// counter-clockwise) over its rotational inertia: apply_linear_impulse's
    /// rules, turning only.
    Result<void> apply_angular_impulse(BodyId id, real impulse);

    /// Sets the gravity from the next step on, in metres per s^2 as
    /// WorldDef::gravity (scaled by length_units_per_meter). A change wakes
    /// every sleeping body: a pile at rest feels the new gravity (Box2D's
    /// SetGravity leaves them asleep).
    /// Errors: non-finite, in L/s^2 too, with its length (invalid_input);
    /// a call from inside a pre-solve hook or a move filter (unsupported).
    Result<void> set_gravity(Vec2 gravity);

    /// The gravity, metres per s^2 (WorldDef::gravity, or set_gravity's).
    Vec2 gravity() const;

    /// Moves a kinematic or dynamic body by `translation` (world, L) with
    /// collide-and-slide (mover.hpp): sweeps its shapes along what remains,
    /// stops at the earliest contact, responds as `filter` says for that body
    /// (slide by default), and repeats with the rest of the timeslice, at
    /// most k_max_move_iterations times. Contacts tied with the earliest
    /// (time difference x distance <= linear slop) are ordered by surface
    /// area (a surface within the linear slop counts as none), faces before
    /// corners (two faces meeting, then a face of the other body, then one
    /// of the mover's: the crack problem; unless
    /// WorldDef::move_ties_by_surface_area is off), then normal, then
    /// id, and the motion is clipped against the face planes among them,
    /// and against the faces met before while the body has not moved since
    /// (a body wedged between two planes at an angle stops rather than
    /// going back and forth between them in place).
    /// The clip holds for the rest of the move: a body that slides off the
    /// end of what it slid on (a ledge, a round shape over a step's corner)
    /// goes on along the plane, touching nothing, and lands at the next move
    /// down (docs/conventions.md, "slide keeps its plane"). A
    /// body that starts overlapping what it slides on, touches or bounces off
    /// (not a one-way platform) deeper than the touch tolerance is first
    /// pushed out by the least translation that frees it of all of them at
    /// once, wherever it came from (not back along its motion, not through
    /// the covered side of a tile into the next; src/push_out.hpp), found
    /// among the shapes within its size (the longer side of its box). If
    /// none frees it that near, a body wedged by moving bodies against
    /// static ones is pushed out of the static ones alone, and one buried in
    /// the level out of its deepest overlap alone. What blocks it is
    /// never entered: a body touching a shape (overlapping it by up to the
    /// touch tolerance, docs/conventions.md) does not move into it, nor one
    /// left deeper inside (a push-out that could not free it) any deeper
    /// (but for a one-way platform, which it may leave downwards), and a
    /// move ends no deeper than the touch tolerance in anything it may not
    /// cross (tests/world/mover_*property_test.cpp check crowds). Teleports the
    /// body (its velocity is unchanged) and changes no other body; the world
    /// remembers MoveResult::ground for step()'s carry. Shapes whose filters
    /// exclude each other are ignored; a sensor (on either side) never
    /// blocks: a response that would stop at it crosses it instead.
    /// `filter` is called once per pair of shapes within the move's reach
    /// (again, within the body's size, for a push-out); it may read the world but not move a body:
    /// moves share the world's working memory, which is how a move allocates
    /// nothing but its result's contacts (and, at a shape's first move, room
    /// to remember the static shapes around it for the next moves).
    /// Errors: stale handle; a static body, non-finite translation, a
    /// translation or end position (the body's origin plus `translation`)
    /// beyond k_max_coordinate (invalid_input); a call from inside a move
    /// filter or a pre-solve hook (unsupported).
    Result<MoveResult> move(BodyId id, Vec2 translation, const MoveFilter& filter = {});

    /// The same move, written into `result`: whatever it held is replaced,
    /// but its contacts keep their room, so a game loop that moves its
    /// characters every frame through one MoveResult each allocates nothing
    /// once that room has grown to the most contacts a move met (bump.lua's
    /// move returns a fresh table of collisions; this is the way around
    /// that). Same errors as move() above; on an error `result` is left
    /// as it was.
    Result<void> move(BodyId id, Vec2 translation, const MoveFilter& filter, MoveResult& result);

    /// Advances the world by dt seconds in `substeps` equal parts, then
    /// removes moving bodies outside WorldDef::bounds and reports events().
    /// Shapes whose filters exclude each other, and sensors, never collide.
    /// Static polygons lying flush face to face act as one solid: no contact
    /// pushes a body off the stretch they share, so nothing snags on the
    /// seams of a tiled floor or wall (docs/conventions.md, "Seams between
    /// static shapes"; after Bullet's and Jolt's internal-edge removal).
    ///
    /// A pair whose bodies moved, one relative to the other, less than a
    /// tenth of the linear slop since collide() made its manifold, in this
    /// step or an earlier one, keeps that manifold, its points carried by
    /// the bodies and their separations measured anew
    /// (StepStats::manifolds_carried): a resting stack skips the
    /// narrowphase.
    ///
    /// Kinematic platforms carry what stands on them: a kinematic body whose
    /// last move() found a kinematic ground (MoveResult::ground) is moved,
    /// after the substeps, as a point fixed to the ground would be over the
    /// step: the ground's translation plus its rotation about its centre,
    /// applied to the rider's origin (the rider keeps its own rotation). The
    /// carry is a move that ignores the ground and slides on everything
    /// else (the default response, so one-way platforms block it too), so
    /// a wall stops the rider touching it, never inside, and nothing
    /// tunnels; it does not push the rider out of an overlap, does not
    /// change its ground and changes no other body. The ground is found by
    /// contacts, so a character must press into it (gravity's share of each
    /// move) to ride; a move that meets no ground ends the ride. Dynamic
    /// bodies ride by friction instead.
    ///
    /// Contacts bounce by Newton's law at each point: a point that approached
    /// faster than Tolerances::restitution_threshold leaves at the contact's
    /// restitution times that speed. The bounce is solved on the normal
    /// impulse the whole step applied, two points together, so a free
    /// elastic, frictionless impact keeps its kinetic energy and momentum,
    /// spinning or not. The bounce itself is frictionless (as Box2D v3's):
    /// with friction, about 3 % of elastic bounces leave with more energy
    /// than they came with, up to about 12 % (docs/conventions.md,
    /// "Restitution").
    ///
    /// A dynamic body's speed is cut to WorldDef::max_translation_speed
    /// (and to k_max_coordinate L/s, the range of `real` the solve needs)
    /// before the solve. The spin of a dynamic or kinematic body is cut to
    /// k_max_rotation per solve step (a WorldDef::solver_substeps share of
    /// dt) before the solve, so that its impulses follow the turn the pose
    /// makes, and again before its pose moves; and before the solve so
    /// that no point of it turns faster than k_max_coordinate L/s (spin
    /// times extent): beyond that the impulses overflow float.
    /// Errors: dt not finite, < 0 or > k_max_step_seconds (1 s), substeps < 1,
    /// dt > 0 divided by substeps and WorldDef::solver_substeps below
    /// k_min_step_seconds (1e-9 s) (invalid_input); a call from inside a
    /// pre-solve hook or a move filter (unsupported); dt = 0 does nothing.
    Result<void> step(real dt, int substeps = 1);

    /// What the last step reported: contact begin, end and hit events,
    /// sensor events, bodies removed by the bounds. Cleared by the next step.
    const StepEvents& events() const;

    /// The pairs touching at the end of the last step (a manifold point
    /// within the linear slop), with the impulses the velocity solver
    /// applied. Each manifold is the pair's at the final poses; a pair
    /// whose bodies moved less than a tenth of the linear slop, one
    /// relative to the other, since collide() made its manifold (in this
    /// step's contact search or an earlier step's) keeps that manifold,
    /// its points carried by the bodies (a fresh collide() would clip its
    /// points at most that much elsewhere, or, where two nearly parallel
    /// faces are within collide()'s tenth-slop preference for the first
    /// shape's face, might take the other face).
    const std::vector<ContactData>& touching_contacts() const;

    // The scene queries below test every shape where it is, whatever moved
    // it: between steps each shape lies in its broadphase box
    // (broadphase_tree), a body the last step pushed out of an overlap too.

    /// The first shape the ray `origin` -> `origin + translation` (world, L)
    /// enters, among those `filter` sees (raycast() rules: starting inside a
    /// shape does not hit it); of shapes hit at the same fraction, the lowest
    /// shape id. Empty when nothing is hit. The ray walks the broadphase
    /// along its path, clipped at the nearest hit so far (as
    /// b2DynamicTree::RayCast), and asks raycast() of each shape whose box
    /// it meets. Errors: NaN or infinite input, or an origin, translation or
    /// end beyond k_max_coordinate (invalid_input).
    Result<std::optional<QueryHit>> raycast_closest(Vec2 origin, Vec2 translation,
                                                    const QueryFilter& filter = {}) const;

    /// Every shape the ray enters, ordered by fraction (then shape id).
    /// Errors as raycast_closest.
    Result<std::vector<QueryHit>> raycast_all(Vec2 origin, Vec2 translation,
                                              const QueryFilter& filter = {}) const;
    /// raycast_all into `hits`, whose contents it replaces, reusing its room:
    /// a game's per-frame rays then allocate nothing once it has grown. On
    /// an error `hits` is left as it was.
    Result<void> raycast_all(Vec2 origin, Vec2 translation, const QueryFilter& filter,
                             std::vector<QueryHit>& hits) const;

    /// The first shape that `shape`, placed by `xf` and moved by
    /// `translation` (world, L), comes within the linear slop of (a
    /// shape_cast per shape whose broadphase box its box meets along the
    /// way, the way clipped at the nearest hit so far; point and normal are
    /// on the hit shape; ties go to the lowest shape id). Shapes it overlaps
    /// at the start are skipped. Errors: NaN or infinite
    /// input, or a start, translation or end beyond k_max_coordinate
    /// (invalid_input).
    Result<std::optional<QueryHit>> shape_cast(const Shape& shape, const Transform& xf,
                                               Vec2 translation,
                                               const QueryFilter& filter = {}) const;

    /// The shapes whose own AABB (not the broadphase's fat one) overlaps
    /// `aabb` (touching counts), in shape id order. Errors: an invalid AABB.
    Result<std::vector<ShapeId>> overlap_aabb(const Aabb& aabb,
                                              const QueryFilter& filter = {}) const;
    /// overlap_aabb into `ids`, as raycast_all into `hits`.
    Result<void> overlap_aabb(const Aabb& aabb, const QueryFilter& filter,
                              std::vector<ShapeId>& ids) const;

    /// The shapes that share at least a point with `shape` placed by `xf`
    /// (GJK distance 0), in shape id order. GJK runs in each other shape's
    /// frame and takes closest points within 4 ulps of `xf`'s position
    /// there as touching: give the shape about its own origin and place it
    /// by `xf`, as point_query does a point. A shape given in world
    /// coordinates far from the origin and placed by the identity is
    /// answered only to that rounding (0.125 L at 3e5 L), and then only
    /// where the broadphase's boxes reach. Errors: NaN or infinite
    /// transform.
    Result<std::vector<ShapeId>> overlap_shape(const Shape& shape, const Transform& xf,
                                               const QueryFilter& filter = {}) const;
    /// overlap_shape into `ids`, as raycast_all into `hits`.
    Result<void> overlap_shape(const Shape& shape, const Transform& xf, const QueryFilter& filter,
                               std::vector<ShapeId>& ids) const;

    /// The shapes containing `point` (world, L; the boundary counts), in
    /// shape id order. Errors: NaN or infinite point.
    Result<std::vector<ShapeId>> point_query(Vec2 point, const QueryFilter& filter = {}) const;
    /// point_query into `ids`, as raycast_all into `hits`.
    Result<void> point_query(Vec2 point, const QueryFilter& filter,
                             std::vector<ShapeId>& ids) const;

    /// Every node of one of the world's broadphase trees, parents before
    /// their children (depth first), for drawing and debugging: a tree of n
    /// shapes has 2n - 1 nodes, none when it has no shape. A leaf's box is
    /// its shape's fat AABB, grown by Tolerances::aabb_margin around the
    /// shape's AABB when the proxy was last updated: at creation; after a
    /// move that left it (or found it more than about twice too fat), by
    /// the margin plus twice the move's asked length, so that the next moves
    /// of a wandering character stay inside; for a moving shape at every
    /// step, around the path the step predicted from its velocity before the
    /// solve; and at the end of a step, around the shape where the step left
    /// it, if the solve, an impact, position correction or the final sweep
    /// moved it out of its leaf (as Box2D v3 grows its fat boxes at the end
    /// of a step). So between steps every leaf holds its shape. Each
    /// parent's box is the union of its children's.
    /// The static tree is shown as queries find it: static shapes added since
    /// the last step or move were inserted one by one, unless the changes
    /// since its last rebuild number an eighth of the static shapes it then
    /// held (a level loaded, not a tile destroyed): then it is rebuilt by SAH
    /// first, as the first query or the next step would.
    /// Errors: static_shapes in a world whose static shapes live in a grid
    /// (unsupported).
    Result<std::vector<TreeNodeInfo>> broadphase_tree(BroadphaseTree tree) const;

    /// The seams the world found for shape `id` (docs/conventions.md, "Seams
    /// between static shapes"): the stretches of its faces that flush
    /// neighbours cover and the vertices they bury, which the step's contacts
    /// and the final sweep read. Those of a static shape, or of a shape of a
    /// kinematic body of several shapes; none for the rest (dynamic shapes,
    /// sensors, and circles, capsules, rounded polygons and chain segments
    /// have no seams of their own, though polygons and segments among them
    /// may cover or bury). Finds them first if a change to the static
    /// shapes or to such a kinematic body left them to be found (as a
    /// contact against the shape would; no body changes). For tools that
    /// show a level's seams, and tests. Errors: stale or null handle
    /// (stale_handle).
    Result<ShapeSeams> shape_seams(ShapeId id);

    /// Statistics of the last step (summed over substeps; max_penetration is the max).
    const StepStats& stats() const;
    /// Tolerances in world units for this world's L.
    const Tolerances& tolerances() const;
    /// Number of live bodies.
    int body_count() const;

    /// The world's state; opaque (defined in a private header of src/).
    struct Impl;

  private:
    explicit World(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace sweep
