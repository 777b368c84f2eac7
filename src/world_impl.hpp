// Private to the world: the bodies, shapes, contacts and the step's
// phases, shared by world.cpp (bodies and step), mover.cpp (move) and the
// files that define the phases: world_seams.cpp, world_contacts.cpp,
// world_solve.cpp, world_toi.cpp (with the final sweep against static
// geometry), world_positions.cpp, world_sleep.cpp and world_events.cpp.
// What runs for every pair or body stays inline here.
#pragma once

#include "sweep/world.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <span>

#include "sweep/broadphase.hpp"
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/toi.hpp"

#include "contact_solver.hpp"
#include "move_narrowphase.hpp"
#include "occupancy_grid.hpp"
#include "push_out.hpp"
#include "repeated_sort.hpp"
#include "seams.hpp"

namespace sweep {
namespace detail {

constexpr std::array<int, k_max_polygon_vertices> no_buriers() {
    std::array<int, k_max_polygon_vertices> none{};
    none.fill(-1);
    return none;
}

// Whether `xf` only translates: its rotation the identity to the bit (a
// sine of -0 is not), so that xf is (xf.p, Rot{}).
inline bool is_unrotated(const Transform& xf) {
    return xf.q.c == 1 && xf.q.s == 0 && !std::signbit(xf.q.s);
}

// A static shape as World::move's gather sees it, by its static broadphase
// proxy (World::Impl::static_boxes holds its box apart): what the gather
// reads of a shape in reach, and what a box's closed-form narrowphase
// needs, so that gathering among a tile map's thousands of shapes reads
// none of their records (mover.cpp). A copy: create_static_proxy and
// set_filter keep it.
struct StaticProxy {
    Vec2 origin; // its body's
    Filter filter;
    BodyId body;
    int shape = -1;
    bool sensor = false;
    bool exact_box = false; // the shape is its box (move_narrowphase.hpp's axis_aligned_box)
    bool unrotated = false; // its body's transform is (origin, identity): is_unrotated
};

// A static shape in a moving shape's neighbourhood (MovingShape::near_static),
// one the moving shape's collision filter lets it meet: its own box and what
// a move reads of its StaticProxy, copied, so that a move reads its
// neighbourhood in one sweep through memory (44 bytes a shape) rather than
// a cache line or two for each of the shapes scattered about the world's
// arrays.
struct NearStatic {
    OtherBox other; // its own box and its body's origin, as the closed form takes them
    BodyId body;
    int shape = -1;
    bool sensor = false;
    bool exact_box = false; // the shape is its box (move_narrowphase.hpp's axis_aligned_box)
    bool unrotated = false; // StaticProxy's
};

// A pair the contact search found with the searching shape's fat box (grown
// by the speculative distance) rather than its contact box: the searching
// moving shape, the other shape, the other's body if it moves (else -1), and
// the box the broadphase tested (the other proxy's fat box).
struct WidePair {
    int shape = -1;
    int other = -1;
    int other_body = -1;
    Aabb box;
};

// The order of the step's pairs: by searching shape, then by the other
// shape's index scrambled (a bijection), since the order in which the
// solver meets a body's contacts biases it: in shape order, a pyramid of 40
// rows solved from the same side every sweep drifted 0.2 L in 3 s.
inline std::uint64_t pair_rank(int shape, int other) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(shape)) << 32 |
           static_cast<std::uint32_t>(other) * 0x9E3779B1u;
}

inline bool pair_order(const WidePair& a, const WidePair& b) {
    return pair_rank(a.shape, a.other) < pair_rank(b.shape, b.other);
}

// The last contact search made with fat boxes (World::Impl::find_candidate_pairs),
// in pair_order: while the same bodies search in the same order, it is
// brought up to date with the proxies moved since, and the pairs whose box
// meets a shape's contact box are, in order, the pairs a search would find.
struct PairSearch {
    bool valid = false;
    std::uint64_t moving_version = 0;
    std::vector<int> queue;      // the bodies that searched, in order (woken ones last)
    std::vector<WidePair> pairs; // in pair_order
};

// The moving shapes whose proxies' fat boxes changed since the last
// contact search, each once, so that the kept wide search can be brought
// up to date by seeking only their pairs (Box2D's move buffer). Incomplete
// once a moving proxy was made or destroyed: then only a whole search will
// do. Static proxies made or destroyed leave their fat boxes: the moving
// shapes near them seek their pairs again as if they had moved (up to
// k_max_static_boxes of them; more, as a level loaded, and only a whole
// search will do).
struct MovedProxies {
    static constexpr std::size_t k_max_static_boxes = 64;
    std::vector<int> shapes;
    std::vector<std::uint8_t> listed; // by shape
    std::vector<Aabb> static_boxes;
    bool complete = true;

    void add_static_box(const Aabb& fat) {
        if (static_boxes.size() == k_max_static_boxes) {
            complete = false;
        } else if (complete) {
            static_boxes.push_back(fat);
        }
    }

    void add(int shape) {
        const auto i = static_cast<std::size_t>(shape);
        if (i >= listed.size()) {
            listed.resize(i + 1, 0);
        }
        if (listed[i] == 0) {
            listed[i] = 1;
            shapes.push_back(shape);
        }
    }
    bool has(int shape) const {
        const auto i = static_cast<std::size_t>(shape);
        return i < listed.size() && listed[i] != 0;
    }
    void clear() {
        for (const int shape : shapes) {
            listed[static_cast<std::size_t>(shape)] = 0;
        }
        shapes.clear();
        static_boxes.clear();
        complete = true;
    }
};

// A shape's boxes (compute_aabb) at the last two poses a step asked for
// (World::Impl::shape_box): the passes of a step ask for a body's boxes at
// its start and end poses again and again.
struct ShapeBoxes {
    std::array<Transform, 2> xf;
    std::array<Aabb, 2> box;
    std::uint64_t stamp = 0; // World::Impl::box_stamp when they were made
    int count = 0;           // boxes held
    int next = 0;            // the one the next pose replaces
};

// What a step and World::move keep of a moving (kinematic or dynamic)
// shape and of no static one: apart from the ShapeRecord, so that a
// level's many static shapes take about a third less memory (a tile
// level's load is bound by the pages it touches). Held by the shape's
// moving-tree proxy id (World::Impl::moving_of), made anew with the proxy.
struct alignas(64) MovingShape {
    // The shape's static neighbourhood for World::move (mover.cpp): the
    // static shapes whose own boxes meet `near_box` and whose filters collide
    // with this shape's, in the static tree's query order, as of
    // World::Impl::static_version `near_version` (0: none, as after this
    // shape's filter changed or the proxy was made anew). First, with the
    // contact box, in one cache line: what every move, and every contact
    // search, reads.
    std::vector<NearStatic> near_static;
    Aabb near_box;
    std::uint32_t near_version = 0;
    Aabb contact_box; // where the step's contact search looked for this shape's pairs
    ShapeProxy core_proxy; // the proxy shrunk by k_core_shrink slops: the CCD fallback
    // Its moving proxy's fat box was last made by refit_strays, around where
    // a step left the shape rather than around a path: the next update of
    // its proxy in a step makes it anew from the path.
    bool refitted = false;
    // (Memoized by shape_box, which const passes call too.)
    mutable ShapeBoxes boxes;
};

// The fields World::move's gather reads of every moving shape the
// broadphase reports come first, together; the rest is read only for the
// few shapes a move meets.
struct ShapeRecord {
    int body = -1; // -1 once destroyed
    // Bumped when the shape is destroyed: its ShapeIds go stale. (Beside
    // the fields the contact search reads, which copies it to the Contact.)
    std::uint32_t generation = 0;
    bool sensor = false;
    bool moving = false; // its proxy is in the moving tree: World::Impl::moving_of holds the rest
    ProxyId tree_proxy = k_null_proxy; // (in the first line, which a move reads: see Body)
    Filter filter;
    std::optional<Aabb> local_box; // the shape when it is an axis-aligned box in its body's frame
    Shape shape;
    Material material;
    ShapeProxy proxy; // GJK proxy in the body frame
    // This static or kinematic polygon's covered stretches (World::Impl::keeps_seams):
    // World::Impl::covered_stretches[begin, end). Read through
    // World::Impl::covered_of, which finds a static shape's first when a
    // change left them unknown (seams_known): memoized, as MovingShape::boxes.
    mutable int seams_begin = 0;
    mutable int seams_end = 0;
    // A static or kinematic segment's ends (p1, p2) or polygon's vertices:
    // the neighbour each lies in or on, or -1 (World::Impl::mark_buried_vertices;
    // read through World::Impl::buried_by_of).
    mutable std::array<int, k_max_polygon_vertices> buried_by = no_buriers();
    mutable bool seams_known = true;
    std::uint64_t user_data = 0;
    // World::Impl::shape_clock when this record was last made, destroyed or
    // given new seams: no manifold stored before is carried for it.
    std::uint64_t changed_at = 0;
};

// Two shapes, ordered as the step found them (A is the moving body's).
struct ShapePair {
    ShapeId a;
    ShapeId b;
    friend constexpr auto operator<=>(const ShapePair&, const ShapePair&) = default;
};

// The pair of `x` and `y` in one order whichever the caller met them in:
// the lesser first. The touching pairs are kept so, since the contact
// search may meet a pair from either side from one step to the next.
constexpr ShapePair unordered_pair(ShapeId x, ShapeId y) {
    return y < x ? ShapePair{y, x} : ShapePair{x, y};
}

// A pair and where its data is (World::Impl::touching_data).
struct IndexedPair {
    ShapePair pair;
    std::size_t index = 0;
    friend constexpr auto operator<=>(const IndexedPair&, const IndexedPair&) = default;
    static bool by_pair(const IndexedPair& x, const IndexedPair& y) { return x.pair < y.pair; }
};

// What a World::move reads of its body comes first: its handle's check,
// flags and pose in the first 64 bytes, its shape and ground right after
// (two adjacent lines rather than two far apart and a heap block: 1.5 fewer
// cache misses a move among 1,000 characters, 0.98 of the time).
struct Body {
    BodyType type = BodyType::static_body;
    std::uint32_t generation = 0;
    bool fixed_rotation = false; // BodyDef's: kept for World::set_body_type
    bool alive = false;
    bool stopped = false; // stopped by the final sweep this step: pinned for position correction
    bool awake = true;    // dynamic: simulated; false while its island sleeps
    Transform xf;
    Sweep sweep; // c1/a1: start of the step; c2/a2: current
    std::vector<int> shapes; // changed only through the *_shape_index functions
    // shapes' only element when it has one, else -1: World::move's fast
    // path reads it beside the pose rather than through the vector's block
    // (a cache miss a move among 1,000 characters).
    int only_shape = -1;
    BodyId ground; // what its last World::move stood on: a kinematic ground carries it
    Vec2 v;
    real w = 0;
    // The velocity of its path this step, (c2 - c1) / dt: v and w after a
    // one-step solve, the sub-steps' mean after a sub-stepped one. The
    // time-of-impact phase moves bodies along their paths.
    Vec2 path_v;
    real path_w = 0;
    // The unit direction into the wall a wall event rested it against this
    // step (zero: none): an impact that pushes it that way meets the wall's
    // resistance (resolve_toi_event).
    Vec2 into_wall;
    // Applied by World::apply_force and apply_torque for the next step
    // (world frame; mass L / s^2 and mass L^2 / s^2), cleared when it ends.
    Vec2 force;
    real torque = 0;
    real inv_mass = 0;
    real inv_inertia = 0;
    real mass = 0;
    real gravity_scale = 1;
    real linear_damping = 0;
    real angular_damping = 0;
    real extent = 0;       // largest distance of a shape point from the centre of mass
    real inner_radius = 0; // smallest inner_radius of its shapes: "fast" beyond this per step
    // How much nearer anything its surface comes by turning alone, however
    // far it turns: extent less its shapes' least support about the centre
    // of mass (0 for a disc about its centre).
    real turn_reach = 0;
    // Continuous collision between moving bodies (world_toi.cpp), per step:
    real toi_clock = 0;          // the step fraction sweep.c1/a1 stand at
    std::uint32_t toi_stamp = 0; // bumped whenever the sweep changes: older events are stale
    int toi_count = 0;           // events resolved this step
    bool fast = false;           // moves farther than inner_radius this step
    bool toi_clamped = false;    // its motion ended at an impact: a cap was hit
    bool toi_carried = false;    // clamped against a kinematic body, and moved with it
    Vec2 searched_center;        // the end pose its contact search assumed: the
    real searched_angle = 0;     // start pose moved at its velocities then
    Vec2 step_center;            // its centre of mass and angle when the step
    real step_angle = 0;         // began (move_along, wake_island): where a jam goes back to
    // The pose at which the step's impact phase saw each of its shapes inside
    // its proxy's fat box (left_contact_box), until one of those boxes
    // changes: while the body stays there, they still are (refit_strays).
    std::optional<Transform> seen_inside;
    std::uint64_t user_data = 0;
    real sleep_time = 0;  // seconds it has stayed below the sleep tolerances
    int sleep_next = -1;  // asleep: the next body of its island, a ring (wake_island)

    // Its shapes' indices: from only_shape when it has one shape.
    std::span<const int> shape_indices() const {
        return only_shape >= 0 ? std::span<const int>(&only_shape, 1)
                               : std::span<const int>(shapes);
    }
    void add_shape_index(int si) {
        shapes.push_back(si);
        only_shape = shapes.size() == 1 ? si : -1;
    }
    void remove_shape_index(int si) {
        shapes.erase(std::find(shapes.begin(), shapes.end(), si));
        only_shape = shapes.size() == 1 ? shapes.front() : -1;
    }
    void clear_shape_indices() {
        shapes.clear();
        only_shape = -1;
    }
};

// A contact found by one of World::move's casts, before it is resolved
// (mover.cpp).
struct MoveHit {
    int own_shape = -1;
    int other_shape = -1;
    real t = 1; // fraction of the remaining motion
    Vec2 normal;
    Vec2 point;
    MoveResponse response = MoveResponse::slide;
    real surface_area = 0;
    real separation = 0; // at the contact pose, from the manifold
    bool face = false;   // two faces meeting over more than the linear slop
    bool measured = false; // the measure found a manifold (else separation is 0)
    ContactFeature feature = ContactFeature::corners;
    int candidate = -1; // in MoveScratch::candidates
};

// A shape a move may meet, gathered once per move from the broadphase in
// the box the whole move can reach (mover.cpp).
struct MoveCandidate {
    int own_shape = -1;
    int other_shape = -1;
    OtherBox other; // the other shape's own (not fat) box and its body's origin
    BodyId body;    // its body
    MoveResponse response = MoveResponse::slide;
    bool exact_box = false; // the other shape is `box` (move_narrowphase.hpp's axis_aligned_box)
    // Its body's transform is known to be (other.origin, identity)
    // (is_unrotated): the fast path places the shape without reading the
    // body's record (a cache miss for each tile a round character casts
    // against). The general mover leaves it false and reads the record.
    bool unrotated = false;
};

// One of the mover's shapes where the mover is now (mover.cpp).
struct MoverShape {
    int shape = -1;
    Aabb box;                  // its AABB
    std::optional<Aabb> exact; // the shape itself, when it is an axis-aligned box
};

// World::move's working memory, kept between moves so that a move allocates
// nothing but its result's contacts. Made with room for a busy move's hits,
// so even the first moves allocate nothing more.
struct MoveScratch {
    static constexpr std::size_t k_reserved = 32;
    MoveScratch() {
        own.reserve(k_reserved);
        candidates.reserve(k_reserved);
        reached.reserve(k_reserved);
        hits.reserve(k_reserved);
        ties.reserve(k_reserved);
        planes.reserve(k_reserved);
        held_planes.reserve(k_reserved);
        obstacles.reserve(k_reserved);
        push.reserve(k_reserved);
        carry.contacts.reserve(k_reserved);
        asked.reserve(k_reserved);
    }
    std::vector<MoverShape> own;           // the mover's shapes at its current pose
    std::vector<MoveCandidate> candidates; // what the move may meet, but not ignore
    std::vector<int> reached;              // candidates a cast's motion may reach
    std::vector<MoveHit> hits;           // every blocking or crossing hit of one iteration's casts
    std::vector<MoveHit> ties;           // those tied with the earliest, in lead order
    std::vector<Vec2> planes;            // the planes a slide is clipped against
    std::vector<Vec2> held_planes;       // faces met since the body last moved (slide_along)
    std::vector<PushObstacle> obstacles; // what a push-out must clear
    PushScratch push;                    // least_push's
    MoveResult carry;                    // a carry's result, whose contacts nobody reads
    // The move filter's answers for other shapes that the fast path
    // (box_mover.hpp) asked this move, so that the general mover, after it
    // gives up, does not ask the filter again for them.
    std::vector<std::pair<int, MoveResponse>> asked;
    bool busy = false;                   // a move is running: a filter calling move is refused
};

// A kinematic body standing on a kinematic ground at the start of a step,
// with the ground's centre and angle then (mover.cpp).
struct Rider {
    int body = -1;
    int ground = -1;
    Vec2 ground_center;
    real ground_angle = 0;
};

// A manifold point's impulses after the step's velocity solve (zero for a
// contact made later in the step): the next step's warm start, hit events
// and the touching pairs' impulses.
struct PointImpulse {
    real normal = 0;
    real tangent = 0;
    real max_normal = 0;     // did it push during the solve?
    real approach_speed = 0; // normal velocity before the solve (negative approaches)
    real mean_normal = 0;    // SolverPoint::mean_normal_impulse, per step
};

// Contact::previous when the pair had no contact in the last step, or when
// the contact search did not look for it.
inline constexpr int k_no_previous = -1;
inline constexpr int k_previous_unknown = -2;

struct Contact {
    int body_a = -1;
    int body_b = -1;
    int shape_a = -1;
    int shape_b = -1;
    // The shapes' generations (ShapeRecord::generation), for their ids: the
    // touching pairs and the events name every contact's shapes each step,
    // and the records' generations are a cache miss each in a large pile.
    std::uint32_t generation_a = 0;
    std::uint32_t generation_b = 0;
    real friction = 0;
    real restitution = 0;
    real rolling_resistance = 0; // L: SolverContact::rolling_resistance
    Manifold manifold;           // at the start of the step, for the velocity solver
    // Its PositionManifold (World::Impl::position_manifolds, by contact) was
    // made in this step's position correction.
    bool position_made = false;
    // Until position_made: `manifold` was made by the contact search at
    // made_xf_a/b, where refresh_position_manifolds may carry it.
    bool manifold_at_made_xf = false;
    // Whether A, B is a circle (SolverContact::round_a, round_b), set with
    // the shapes: prepare_contacts then reads no shape record (hundreds of
    // bytes each, far apart: a quarter of its time in the pyramid).
    bool round_a = false;
    bool round_b = false;
    // The poses and speculative distance collide() made `manifold`'s
    // anchors at (made_distance < 0: not made by the contact search, so
    // the next step's search does not carry it; see carried_manifold).
    Transform made_xf_a;
    Transform made_xf_b;
    real made_distance = -1;
    std::array<PointImpulse, 2> impulses{};
    // The pair's contact in the last step (World::Impl::previous_contacts),
    // as the contact search found it: its index; k_no_previous when it had
    // none; k_previous_unknown when the search did not look (shapes changed
    // since), so the warm start looks it up.
    int previous = k_previous_unknown;

    ShapeId id_a() const { return {shape_a, generation_a}; }
    ShapeId id_b() const { return {shape_b, generation_b}; }
};

// A contact's manifold at the current poses during position correction,
// and the poses it was made at: the step's touching pairs at the final
// poses take it when they are still those. Kept apart from the Contact, in
// a dense array by contact, as PositionCheck is: the contact search writes
// every Contact each step, and position correction's sweeps and the
// touching pairs read these alone.
struct PositionManifold {
    Manifold manifold;
    Transform xf_a;
    Transform xf_b;
};

// Position correction's record of what it last saw of a contact, to skip
// work whose result it knows; kept apart from the Contact (a few hundred
// bytes) in a dense array, as a sweep of a large jammed pile reads it for
// every contact: World::Impl::position_clock when the position manifold
// was made, and when a sweep last found the pair pushing nothing (quiet),
// with its least separation then.
struct PositionCheck {
    int body_a = -1;
    int body_b = -1;
    std::uint32_t refreshed = 0;
    std::uint32_t checked = 0;
    real separation = 0;
    bool quiet = false;
};

// What gravity and the applied force and torque add to an awake dynamic
// body's solver velocities over a sub-step (World::Impl::load_of).
struct SubstepLoad {
    int body = -1;
    Vec2 dv;           // L/s
    real dw = 0;       // rad/s
    bool spin = false; // a torque is applied: dw is added
};

// Impulses of last step's contact points, by shape pair and feature id, to
// warm start this step's solve.
struct CachedImpulse {
    std::uint64_t key = 0; // pair_key of the two shapes
    std::array<std::uint32_t, 2> ids{};
    std::array<real, 2> normal{};
    std::array<real, 2> tangent{};
    std::array<real, 2> mean_normal{};
    int count = 0;
    int contact = -1; // its index in World::Impl::previous_contacts; -1: a SleepingContact's
};

// Contact `c`'s impulses for the cache, with `contact` its index in
// World::Impl::previous_contacts (-1: none there).
CachedImpulse cached_impulse(const Contact& c, int contact);

// A contact whose dynamic bodies all fell asleep, with its impulses as the
// step before they slept stored them: the warm start of the pair when they
// wake (World::Impl::keep_sleeping_contacts). The contact search finds no
// pair of sleeping bodies, so a step after they slept the last step's
// contacts hold none of theirs, and a pile woken without them started its
// solve cold and jumped: 1,000 boxes of a settled pile moved at 10 cm/s on
// average, up to 30, in the steps after set_awake woke them, and the jolt
// kept the pile from ever sleeping long (Box2D 2.4 keeps a sleeping pair's
// contact, and its pile wakes still).
struct SleepingContact {
    CachedImpulse impulse; // impulse.contact: -1
    int body_a = -1;
    int body_b = -1;
    int shape_a = -1;
    int shape_b = -1;
    std::uint64_t kept_at = 0; // World::Impl::stored_at of the contact kept
    int awake_steps = 0;       // steps begun with one of its bodies awake
};

// How far, in linear slops, the CCD fallback's core lies inside a moving
// shape. A body touching a wall (within the slop the solver leaves) sweeps
// its core instead, which is then 2 slops clear and slides freely, yet
// stops before the shape sinks more than 2 slops: it cannot squeeze into a
// gap narrower than itself. (A polygon's core lies deeper inside its
// corners, the sharper the deeper: limit_sinking holds those to the 2
// slops.)
constexpr real k_core_shrink = 3;

// The proxy moved inward by `depth` (L): a rounded proxy at least that
// round loses radius; a polygon's faces move in along their normals.
// Proxies too small for that shrink to a point (their centroid) with half
// their radius. (A polygon rounded by between one and two depths once took
// the polygon path with a negative inset, moved its corners out, failed the
// fit and fell back to its centroid: a 0.42 L pentagon's core was a 0.015 L
// disc, so the final sweep let it sink through a one-sided chain floor.)
inline ShapeProxy shrink_proxy(const ShapeProxy& proxy, real depth) {
    ShapeProxy core = proxy;
    if (proxy.radius >= depth) {
        core.radius -= depth;
        return core;
    }
    const real inset = depth - proxy.radius;
    Vec2 centroid;
    for (int i = 0; i < proxy.count; ++i) {
        centroid += (real(1) / real(proxy.count)) * proxy.points[i];
    }
    bool fits = proxy.count >= 3;
    for (int i = 0; fits && i < proxy.count; ++i) {
        const Vec2 prev = proxy.points[(i + proxy.count - 1) % proxy.count];
        const Vec2 v = proxy.points[i];
        const Vec2 next = proxy.points[(i + 1) % proxy.count];
        const Vec2 n1 = normalize(right_perp(v - prev));
        const Vec2 n2 = normalize(right_perp(next - v));
        // The vertex where both faces, each moved in by `inset`, meet.
        core.points[i] = v - (inset / (1 + dot(n1, n2))) * (n1 + n2);
        // Shrinking must not flip the polygon: each vertex stays on its side
        // of the centroid.
        fits = dot(core.points[i] - centroid, v - centroid) > 0 &&
               length(core.points[i] - centroid) < length(v - centroid);
    }
    if (fits) {
        core.radius = 0;
        return core;
    }
    core.points[0] = centroid;
    core.count = 1;
    core.radius = real(0.5) * proxy.radius;
    return core;
}

// A time-of-impact event between two moving bodies (world_toi.cpp): the
// first time their shapes come within the linear slop, in step fractions.
struct ToiEvent {
    real t = 0;
    int shape_a = -1;
    int shape_b = -1; // -1: a wall event, shape_a's body meeting static shape `wall`
    int wall = -1;
    std::uint32_t stamp_a = 0; // the bodies' toi_stamp when it was found
    std::uint32_t stamp_b = 0;
    bool failed = false; // the TOI gave up: t is the last safe time
    // Where the pair is known to meet (on its sub-step paths, or deeper than
    // at a graze): resolved here, not searched for on its sub-step paths.
    bool known = false;
};

// Events resolved per body per step before the body is clamped at its next
// time of impact (the rest of its step is lost, counted in StepStats).
constexpr int k_max_toi_events_per_body = 8;
// Events per step: this many per dynamic body, plus a floor for small worlds.
constexpr int k_toi_events_per_body_per_step = 4;
constexpr int k_min_toi_events_per_step = 64;

// After a graze (an event whose pair touches but parts) between fast
// turning bodies, their next meeting is searched for within half the
// graze's distance, and not when that distance is below this many linear
// slops (search_after_graze): each graze shortens the distance by at least
// 3/8, so a pair grazes at most about ten times a step.
constexpr real k_min_graze_distance = real(0.01);

// A graze that leaves the pair touching or overlapping has no gap to
// search nearer than: the pair's overlap is sampled along its paths instead
// (search_deepening), each sample's motion (the bodies' relative travel
// and turns, a bound on any point's) at most this fraction of the thinner
// body's inner radius, and at most k_max_deepening_samples samples.
constexpr real k_deepening_sample_reach = real(0.5);
constexpr int k_max_deepening_samples = 64;
// Bisections that find where a sampled pair first overlaps a linear slop
// deeper than at its graze: the time to 1/256 of a sample's interval.
constexpr int k_deepening_bisections = 8;

// Bisections that find where a shape whose core may not hold it sinks no
// deeper than the core promises (limit_sinking): the time to 1/4096 of
// the sweep.
constexpr int k_sinking_bisections = 12;

// How many times position_iterations a jam may take (see
// solve_positions_until_within_slop). With 4, jams rising steadily ran out
// of sweeps a little above the bound (seeds 1007509, 1107990 and 1106975
// of the random scenes' one-step solve: 2.43, 2.09 and 2.01 slops); the
// rate rule stops a jam that rises too slowly long before the cap, so a
// resting stack (the pyramid) pays nothing for the room.
constexpr int k_jam_iteration_factor = 8;

// Fraction of a penetration removed per position sweep in a jam's extra
// sweeps (k_baumgarte otherwise).
constexpr real k_jam_baumgarte = real(0.5);

// A contact bears weight (passes the shock in a jam's sweeps) when its
// normal is within 45 degrees of gravity.
constexpr real k_bearing_cosine = real(0.7071);

// How many times lighter a body backed by fixed geometry must be than its
// partner to hold against it in a jam's sweeps (find_backing).
constexpr real k_backed_mass_ratio = 4;

// The most one dynamic body of a pair yields more than the other in a jam's
// sweeps (scale_mass_ratio).
constexpr real k_jam_mass_ratio = 4;

// Velocity sweeps go on past WorldDef::velocity_iterations, up to this many
// times as many, while the last changed a contact point's velocity by more
// than k_velocity_tolerance linear slops per step.
constexpr int k_velocity_iteration_factor = 8;
constexpr real k_velocity_tolerance = real(0.1);

// A sub-step pushes a penetration deeper than k_substep_push_slop linear
// slops out at this rate times the excess (1/s), at most k_substep_max_push
// linear slops per second: position correction, after the solve, does the
// rest exactly. Pushing from below the correction's target (1.5 slops)
// leaves it less to do: a falling pile of 10k bodies (8 sub-steps) took 60
// ms a step pushed from a slop at 60/s, 39 ms from 3/4 of one at 120/s.
// From half a slop the pyramid sways 4 times as far: its contacts flicker.
constexpr real k_substep_push_slop = real(0.75);
constexpr real k_substep_push_rate = 120;
constexpr real k_substep_max_push = 600;

// Relax sweeps per sub-step (solve_substepped). One left part of the push's
// separating velocity behind, which kept piles creeping: of 24 runs of a
// 500-body pile with rolling resistance, perturbed by rounding, 2 still
// moved after 40 s, none with two. Two also leave position correction
// less to do: a falling pile of 10k bodies took 30 ms a step rather
// than 41 (126 position sweeps rather than 165); Box2D's pyramid 1.4 ms
// more.
constexpr int k_relax_sweeps = 2;

// A sub-step's first sweep (before the bodies move) and its relax sweeps
// go on, up to these many more, while the last changed a contact point's
// speed by more than k_substep_sweep_tolerance linear slops per step
// (solve_substepped): after an impact. A pile at rest needs none. Of 150
// random columns of up to four boxes landing at up to 200 L/s, one left a
// box rising at 2 to 4 L/s with 8 more first sweeps, none with 16; with a
// tolerance of 8 slops one rose at 1.8 L/s. With 2 slops a box under one
// ten times its mass, landing at 305 L/s, leaves the ground at 0.8 L/s
// rather than 1.3, but World/fall_1k's steps take 78 % more sweeps and 18 %
// longer. A light body under heavy ones
// passes their momentum on a little a sweep: of 400 random columns of one
// to four discs, capsules and boxes (masses up to 80 times another's)
// landing at 20 to 400 L/s, 49 bounced or hung 4 steps after landing with
// 16 and 8 more, 8 with 128 and 32 (15 with 64 and 32, 9 with 256 and
// 64); after impacts of held pairs were met on their sub-step paths
// (resolve_on_substep_paths), 2 with 128 and 32, none with 128 and 64 (a
// disc under bodies 10 to 50 times its mass rose at 1.6 L/s with 32). The
// sweeps that go on solve only the contacts near what changed
// (k_substep_disturbance_fraction), so the benchmarks' steps take no
// longer (the falling piles of World/fall_1k and fall_10k never reach 32).
constexpr int k_max_extra_push_sweeps = 128;
constexpr int k_max_extra_relax_sweeps = 64;
constexpr real k_substep_sweep_tolerance = 4;
// After this many of a sub-step's extra first sweeps, the ones that go on
// over-relax the normal impulses of points in touch by
// k_push_over_relaxation (SubstepTargets::over_relaxation, touch_speed
// the sweeps' tolerance): a light body under heavy ones passes their
// momentum on a little a sweep, and Gauss-Seidel's error in such a chain
// shrinks by a factor near 1 a sweep, which over-relaxation takes far
// lower. A disc under two capsules and a disc, 51 times its mass in all,
// landing at 395 L/s in one sub-step, still fell at 188 L/s after the 128
// sweeps, sank 0.07 L into the ground, and the column flew back up at 8
// L/s; now it stops at the ground. Of 12,000 random columns of one to
// four mixed bodies landing at 20 to 400 L/s (the sub-stepped solve's
// property test's, at three seeds), 1 rather than 5 landed late, 66
// rather than 80 rose faster than 3 L/s after landing, and the fastest
// but one (a box an off-centre impact spun at 180 rad/s: 14 L/s either
// way) at 7.4 L/s rather than 24. From the first extra sweep, World/fall_1k's
// steps took 10 % longer (landings that converge anyway converge less
// directly); from the 16th no longer. Over-relaxing speculative points
// too hung columns in the air (SubstepTargets::over_relaxation). (1.3
// and 1.9 did about as well as 1.6.)
constexpr int k_push_sweeps_before_over_relaxation = 16;
constexpr real k_push_over_relaxation = real(1.6);
// A pair the sub-stepped solve held meets at a time of impact only where
// the paths the sub-steps moved its bodies along take it more than a
// linear slop into each other, closing faster than this many linear slops
// per step (substep_path_meeting; 2.4 L/s at 60 Hz with the default
// slop): the pairs of a column that landed in the sub-steps sink a slop or
// two into each other there, mostly closing slower.
constexpr real k_substep_path_approach = 8;
// Such a pair meets where its sub-step paths first take it this many
// linear slops deep (resolve_on_substep_paths), found by this many
// halvings of the half sub-step before the sample that found it.
constexpr real k_substep_contact_depth = 0.5;
constexpr int k_substep_contact_bisections = 12;
// The sweeps that go on solve only the batches of contacts with a body
// that the sweep before (or this one) changed by more than this fraction
// of that tolerance (SubstepTargets::focus). In the 1,000 falling bodies
// of World/fall_1k, where some body lands in most sub-steps, the sweeps
// that go on then solve 29 % of the batches (13 % with a fraction of 1, 80
// % with 16: a batch's lanes are far apart, and one body starts it), and a
// step takes 11 % less; columns landing fast stay down as before.
constexpr real k_substep_disturbance_fraction = 2;

// Position iterations between recomputing the manifolds at the current poses.
constexpr int k_position_refresh_interval = 4;

// A pair whose bodies moved, one relative to the other, less than this
// many linear slops since collide() made its manifold takes that
// manifold, its points carried by the bodies, rather than colliding
// again: a fresh one would differ by where the clip cuts the incident
// face, moved as far. The contact search does, from the last step's
// contacts (carried_from), and so does position correction's first
// manifold (refresh_position_manifolds). In Box2D's pyramid 96 % of the
// pairs (at 0.01 slops, 20 %) took the search's manifold for position
// correction, 10 % of the step; 88 % carry the last step's into the search.
constexpr real k_manifold_reuse_motion = real(0.1);

// A manifold the contact search carries from the last step may have been
// made with a speculative distance this many linear slops shorter than
// this step's (World::Impl::carried_from). Without it, a resting pair's
// distance, which follows its closing speed, grew by a rounding every few
// steps and made it collide again: in Box2D's pyramid 77 % of the pairs
// were carried rather than 88 %.
constexpr real k_carried_distance_slack = real(0.25);

// How many of a jam's extra sweeps run before its rate of rising out is
// judged.
constexpr int k_jam_trial_sweeps = 2 * k_position_refresh_interval;

// A shape moved by World::move gets a fat box this many times the move's
// length beyond the margin on every side: a character steered anew each
// move (random goals, a player's input) wanders, where Box2D's prediction
// along the displacement assumes a steady velocity; a random walk takes
// about the square of this many moves to leave it.
constexpr real k_move_aabb_multiplier = 2;

// The side of World::Impl::moving_occupancy's cells, in metres: about a
// character's fat box (a tile and a half), so that a move's box and its
// neighbours' fat boxes span a few cells each. (Of 0.75 to 3, 1.25 and 1.5
// cost the fewest instructions on the Move scene; 1 a little more.)
constexpr real k_occupancy_cell = 1.5;

inline std::uint64_t pair_key(int shape_a, int shape_b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(shape_a)) << 32) |
           static_cast<std::uint32_t>(shape_b);
}

// pair_key of the two shapes in either order: World::Impl::contact_keys'.
inline std::uint64_t ordered_key(int shape_a, int shape_b) {
    return shape_a < shape_b ? pair_key(shape_a, shape_b) : pair_key(shape_b, shape_a);
}

inline bool is_finite(const BodyDef& d) {
    return sweep::is_finite(d.position) && std::isfinite(d.angle) &&
           sweep::is_finite(d.linear_velocity) && std::isfinite(d.angular_velocity) &&
           std::isfinite(d.gravity_scale) && std::isfinite(d.linear_damping) &&
           std::isfinite(d.angular_damping);
}

// A dynamic body's mass, centre of mass (body frame) and rotational inertia
// about it; zero for the other types.
struct BodyMass {
    real mass = 0;
    Vec2 local_center;
    real inertia = 0;
};

// The mass properties `shape_defs` give a body of `type`, or why they cannot
// move one (the error's message starts with `call`): a dynamic body needs a
// positive mass of at most k_max_mass, and every property and the inverses
// the solver takes of them must be finite (densities so small or so large
// that they are not, in `real`, are rejected here rather than turning the
// body's state into NaN).
Result<BodyMass> body_mass(BodyType type, std::span<const ShapeDef> shape_defs, const char* call);

// Why `sd` cannot be one of the shapes of a body of `type` at `pose` (the
// message starting with `call`): a box beyond k_max_coordinate, a segment or
// chain on a moving body, a material out of range. None when it can.
std::optional<Error> shape_def_error(const ShapeDef& sd, BodyType type, const Transform& pose,
                                     const char* call);

inline Error stale() { return Error{ErrorCode::stale_handle, "body handle is stale or invalid"}; }

// Velocities the step's arithmetic can carry: each component, and the spin,
// within k_max_coordinate per second (a spin times a lever arm, or a speed
// times a step, then stays finite in `real`).
inline bool within_velocity_range(Vec2 linear, real angular) {
    return in_coordinate_range(linear) && in_coordinate_range(angular);
}

// Charges the wall-clock time since the previous lap to one of StepStats'
// phase times: one clock read per phase boundary, none per pair.
class PhaseClock {
  public:
    void lap(double& phase_seconds) {
        const auto now = std::chrono::steady_clock::now();
        phase_seconds += std::chrono::duration<double>(now - last_).count();
        last_ = now;
    }

  private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace detail

using namespace detail;

struct World::Impl {
    WorldDef def;
    Tolerances tol;
    Vec2 gravity;
    bool stepping = false; // World::step runs: see refusal_inside
    std::vector<Body> bodies;
    std::vector<int> free_bodies;
    // By body slot: the generation of the body living there (0 while none
    // does) and how many live bodies stand on it (set_ground). Apart from
    // the records: a move that changes its ground would otherwise bring in
    // the records of its old and new grounds, a cache miss each among a
    // map's tiles (the Move benchmark's boxes: 0.988 of the time, discs 0.981).
    struct RiderCount {
        std::uint32_t generation = 0;
        int riders = 0;
    };
    std::vector<RiderCount> rider_counts;
    std::vector<ShapeRecord> shapes;
    std::vector<int> free_shapes;
    // By static broadphase proxy id: each static shape's own box (static
    // bodies never move), apart from the rest of its StaticProxy because the
    // gather reads it for every proxy the broadphase reports, most of them
    // just out of reach.
    std::vector<Aabb> static_boxes;
    std::vector<StaticProxy> static_proxies;
    DynamicTree static_tree; // static shapes, unless def.static_broadphase is grid
    UniformGrid static_grid;
    // Kinematic and dynamic shapes, with swept AABBs. Their fat boxes change
    // only through create_moving_proxy, destroy_moving_proxy,
    // move_moving_proxy and set_moving_fat_aabb, which keep
    // moving_occupancy counting them.
    DynamicTree moving_tree;
    // By moving-tree proxy id: what only moving shapes keep (moving_of).
    std::vector<MovingShape> moving_shapes;
    OccupancyGrid moving_occupancy;
    std::vector<Contact> contacts;
    // The velocity solve's copies (prepare_contacts): solver_contacts[i] is
    // contacts[i] for the contacts the step's search made; bodies by index.
    std::vector<SolverContact> solver_contacts;
    // A solver contact bounces (restitution > 0): only then does the solve
    // sum its sub-steps' impulses for apply_restitution.
    bool any_restitution = false;
    std::vector<SolverBody> solver_bodies; // and the empty body last
    // solve_substepped's, by solver body: the motion so far, the angle
    // turned so far (rad).
    std::vector<BodyMotion> motions;
    std::vector<real> substep_angles;
    // solve_substepped's, by solver body: SubstepTargets::disturbed.
    std::vector<int> substep_disturbed;
    // The sub-step paths of the bodies the solve may make fast
    // (record_substep_path): per sub-step, where the body ended it (from
    // its start), the angle it had turned by then (rad) and the velocity it
    // moved at. substep_path_of[body] is the first of its solver_substeps
    // points in substep_paths, or -1 (none, or an impact has changed its
    // path since).
    struct SubstepPathPoint {
        Vec2 dp;
        real turn = 0;
        Vec2 v;
        real w = 0;
    };
    std::vector<int> substep_path_of;
    std::vector<int> path_bodies; // the bodies with one
    std::vector<SubstepPathPoint> substep_paths;
    std::vector<SubstepLoad> substep_loads;   // find_substep_loads'
    ContactBatches contact_batches;           // solver_contacts packed for the sweeps
    std::vector<CachedImpulse> impulse_cache; // reused, so no allocation per step
    // The cache holds the first stored_contacts of previous_contacts, by
    // key (find_cached makes it from them when first looked in).
    bool impulse_cache_made = true;
    std::size_t stored_contacts = 0;
    // The last step's contacts (those impulse_cache indexes), whose
    // manifolds the next contact search may carry (carried_from) while
    // neither shape of the pair changed since they were stored (stored_at):
    // a record destroyed or made anew, its seams found again
    // (ShapeRecord::changed_at), or any shape refiltered or retyped, which
    // may change what every seam rule reads (all_shapes_changed_at).
    std::vector<Contact> previous_contacts;
    // What the cache adds to previous_contacts' impulses: the contacts of
    // sleeping pairs (keep_sleeping_contacts).
    std::vector<SleepingContact> sleeping_contacts;
    std::uint64_t shape_clock = 0; // ticks at each change to a shape
    std::uint64_t all_shapes_changed_at = 0;
    std::uint64_t stored_at = 0;
    std::size_t previous_cursor = 0; // previous_contact's
    StepStats stats;
    StepEvents events;
    PreSolveFn pre_solve;
    // The pairs touching at the end of the last step, sorted by
    // unordered_pair, each with its index in touching_as_met.
    std::vector<IndexedPair> touching;
    // The same pairs, in touching_data's order, as their begin events
    // reported them, with their bodies: the end events report them so, a
    // destroyed shape's body too (its ids stale, not null). (Not in
    // touching's order: made in that order, it read touching_data at
    // random, a fifth of update_touching's time in a large pile.)
    std::vector<ContactEndEvent> touching_as_met;
    std::vector<ContactData> touching_data; // the same pairs with their manifolds
    struct {
        std::vector<ContactData> resting;
        std::vector<ContactData> handed; // by a chain to another of its segments
        std::vector<IndexedPair> now;
        std::vector<char> began;
        RepeatedSort<IndexedPair> sort_now;
    } touching_scratch;                     // update_touching's, kept so that it does not allocate
    std::vector<ShapePair> sensor_overlaps; // sorted (sensor, visitor); at the end of the last step
    int sensor_shapes = 0; // live shapes that are sensors: with none, a step looks for none
    std::vector<ShapePair> disabled_pairs;  // sorted; turned off by pre_solve this step
    std::vector<ToiEvent> toi_queue;        // a min-heap on (t, shapes); reused every step
    std::vector<std::pair<int, int>> toi_candidates;  // moving pairs beyond the bounded margin
    std::vector<std::pair<int, int>> candidate_pairs; // the broadphase's pairs for this step
    std::vector<int> toi_searches; // fast bodies whose path left their contact search's box
    std::vector<std::uint64_t> contact_keys; // sorted shape pairs of the step's contacts
    // The bodies the solve's contacts (the first solved_contacts of
    // `contacts`) link body bi to: contact_links[contact_link_start[bi] ..
    // contact_link_start[bi + 1]), once contacts_linked (link_contacts).
    std::size_t solved_contacts = 0;
    bool contacts_linked = false;
    std::vector<int> contact_link_start;
    std::vector<int> contact_links;
    std::vector<int> substep_rebased; // resolve_on_substep_paths' placed bodies
    RepeatedSort<std::uint64_t> contact_key_sort;
    // (shape, wall) pairs a sweep began touching that are no contacts
    // (first_static_impact): position correction never saw them.
    std::vector<std::pair<int, int>> touched_walls;
    // Awake dynamic bodies with a shape outside its fat box in the moving
    // tree (find_strays): the tree does not find them where they are.
    std::vector<int> strays;
    std::vector<int> near_partners;                // add_contacts_near's, reused
    // By shape (ShapeRecord::seams_begin); grown by the first reads of the
    // seams a change left unknown, as they are found (find_seams_now).
    mutable std::vector<CoveredStretch> covered_stretches;
    mutable std::vector<int> seam_neighbours; // for_each_seam_neighbour's, reused
    MoveScratch move_scratch;
    std::vector<Rider> riders;      // reused every step
    std::vector<int> island_parent; // union-find over awake dynamic bodies (update_sleep)
    std::vector<real> island_rest;  // by island root: its members' least sleep_time
    std::vector<int> island_last;   // by island root: the last member linked into its ring
    std::vector<int> search_queue;  // dynamic bodies whose pairs find_candidate_pairs seeks
    // Bumped whenever a moving-tree proxy is made, moved or destroyed.
    std::uint64_t moving_version = 1;
    PairSearch pair_search;              // the last wide contact search, kept while it holds
    MovedProxies moved_proxies;          // since the last contact search
    std::vector<WidePair> pair_scratch;  // update_pair_search's: the moved shapes' pairs
    std::vector<WidePair> merge_scratch; // and the merge with the kept ones
    std::vector<std::uint8_t>
        searched;            // by body: its pairs were sought this step (bytes: read per pair)
    int sleeping_bodies = 0; // with none, nothing needs waking
    real position_factor = k_baumgarte; // of a penetration removed per position sweep
    bool shock = false;     // a jam's sweeps: lower bodies do not yield (shock propagation)
    // The last correct_positions gave up on a jam it left deeper than 2
    // slops: its sweeps rose too slowly to get out (single_step then sends
    // such jams back to the step's start).
    bool jam_left_deep = false;
    Vec2 gravity_direction; // unit, or zero without gravity: no shock then
    // Position correction's skipping (PositionCheck): a count of pushes, from
    // 0 at each correction's start, and by body the count when a push last
    // moved it.
    std::uint32_t position_clock = 0;
    std::vector<std::uint32_t> position_moved;
    std::vector<PositionCheck> position_checks; // by contact
    // By contact; the contact's entry is this step's if it is position_made.
    std::vector<PositionManifold> position_manifolds;
    std::vector<Vec2> jam_centers;              // by body: poses when a jam's extra sweeps began
    std::vector<real> jam_angles;
    std::vector<Vec2> corrected_centers; // by body: poses before this round's correction
    std::vector<real> corrected_angles;
    std::vector<int> support_level;       // by body: contacts down to static or kinematic ground
    std::vector<int> support_start;       // by body: its neighbours in support_links (CSR)
    std::vector<int> support_links;       // bodies in contact, both ways
    std::vector<int> group_cursor;        // group_by_body's scratch: a cursor per body
    std::vector<int> backing_start;       // by body: its directions in backing_directions (CSR)
    std::vector<Vec2> backing_directions; // unit, from a dynamic body to fixed geometry it touches
    std::vector<int> contact_order;       // contacts, lowest support level first
    int live_bodies = 0;
    // Static proxies made or destroyed since the static broadphase was last
    // rebuilt, and how many it held then (rebuild_static_tree_if_dirty).
    int static_changes = 0;
    int static_built = 0;
    // The static tree holds proxies made unplaced (create_static_proxy),
    // which no query finds until a rebuild places them: the first query,
    // const or not, rebuilds it (place_static_proxies), under the mutex so
    // that concurrent const queries stay safe.
    mutable std::atomic<bool> static_tree_unplaced{false};
    mutable std::mutex static_tree_mutex;
    // Bumped whenever static shapes or their filters change (note_static_version).
    std::uint32_t static_version = 1;
    // The world boxes of the last k_static_log changes to the static shapes,
    // by static_version % k_static_log: a moving shape's static
    // neighbourhood found before them still holds if none meets its box
    // (move_neighbourhood.hpp), so destructible terrain does not send every
    // character back to the static broadphase.
    static constexpr std::uint32_t k_static_log = 32;
    std::array<Aabb, k_static_log> static_log;
    // Bumped at each step's start: the boxes shape_box remembers hold within
    // a step, which changes no shape (callbacks may not).
    std::uint64_t box_stamp = 1;
    // Seams to find again (find_seams_if_dirty), since the static shapes or
    // the kinematic bodies of several shapes changed: the shapes whose own
    // seams may have changed, and the boxes of the static shapes made or
    // destroyed, whose static neighbours' seams may have changed too.
    std::vector<int> seam_shapes;
    std::vector<Aabb> seam_boxes;
    // Entries of covered_stretches that no shape's range holds any more:
    // compacted away once they are half of it.
    mutable std::size_t seam_holes = 0;

    // A change to the static shapes within `box` (world, L): static_version
    // moves on, and static_log remembers where.
    void note_static_version(const Aabb& box) {
        ++static_version;
        static_log[static_version % k_static_log] = box;
    }

    // A shape's record changed (shape_clock): no manifold stored before is
    // carried for it, or for any shape.
    void note_shape_changed(int si) { shapes[si].changed_at = ++shape_clock; }
    void note_all_shapes_changed() { all_shapes_changed_at = ++shape_clock; }

    // Static geometry usually arrives all at once (a level); incremental
    // insertion builds a poorer tree than a full binned-SAH rebuild, and
    // every query of every step pays for it. So rebuild before the first
    // use once the changes since the last rebuild are many next to what it
    // placed (an eighth): a level loaded, not the tile or two a step that
    // destructible terrain changes (a rebuild of the whole level each time).
    void rebuild_static_tree_if_dirty() {
        if (static_rebuild_due(static_changes)) {
            if (uses_grid()) {
                static_grid.rebuild();
                static_built = static_grid.proxy_count();
            } else {
                static_tree.rebuild();
                static_built = static_tree.proxy_count();
                static_tree_unplaced.store(false, std::memory_order_release);
            }
            static_changes = 0;
            // (Every neighbourhood is found again in the new tree's order.)
            const real far = std::numeric_limits<real>::max();
            note_static_version({{-far, -far}, {far, far}});
        }
    }

    // Whether `changes` to the static shapes since the last rebuild call
    // for one: an eighth of what it held.
    bool static_rebuild_due(int changes) const {
        return changes > 0 && 8 * changes >= static_built;
    }

    bool uses_grid() const { return def.static_broadphase == StaticBroadphase::grid; }

    // `aabb`: the shape's own box. Its record must be filled in.
    ProxyId create_static_proxy(int shape, const Aabb& aabb);

    void destroy_static_proxy(ProxyId id) {
        note_static_proxy_change(id);
        if (uses_grid()) {
            static_grid.destroy_proxy(id);
        } else {
            static_tree.destroy_proxy(id);
        }
    }

    // Every static shape whose broadphase box meets `box`, through the
    // structure the world was made with: `visit(ProxyId, user data) -> bool`.
    template <class Visit> void query_static(const Aabb& box, Visit&& visit) const {
        if (uses_grid()) {
            static_grid.query(box, ~0ull, visit);
        } else {
            place_static_proxies();
            static_tree.query(box, ~0ull, visit);
        }
    }

    // Places the static tree's unplaced proxies before it is read: a
    // level's static shapes are made unplaced when the tree is to be
    // rebuilt before its next use anyway (rebuild_static_tree_if_dirty),
    // and a const query that comes first (a level checked, never stepped)
    // places them here: by a rebuild, or one by one when they are few (an
    // editor adding tiles to a level it queries, never stepped).
    void place_static_proxies() const {
        if (static_tree_unplaced.load(std::memory_order_acquire)) [[unlikely]] {
            place_static_proxies_now();
        }
    }
    [[gnu::noinline]] void place_static_proxies_now() const {
        const std::lock_guard<std::mutex> lock(static_tree_mutex);
        if (static_tree_unplaced.load(std::memory_order_relaxed)) {
            // (The world itself is never const: only this call's view of it.)
            const_cast<DynamicTree&>(static_tree).place_unplaced();
            static_tree_unplaced.store(false, std::memory_order_release);
        }
    }

    // Shapes whose seams are found: those of static bodies, whose
    // neighbours are the other static shapes, and of kinematic bodies, whose
    // neighbours are the other shapes of the same body (they move together,
    // so their seams are fixed in the body's frame: a moving platform built
    // of tiles). Dynamic bodies' shapes are not (either shape of a dynamic
    // pair may be A, and the rules read B's seams).
    bool keeps_seams(const ShapeRecord& s) const;

    // Polygons whose faces can cover one another (seams.hpp).
    bool can_cover(const ShapeRecord& s) const;

    // Segments whose ends can be buried.
    bool is_fixed_segment(const ShapeRecord& s) const;

    // A kinematic body with more than one shape has seams of its own:
    // creating or destroying it, or a shape of it, finds them again.
    void note_seams_of(const Body& b);

    // Static proxy `id` (live, its slot filled in) was just made or is
    // about to be destroyed: the characters' neighbourhoods that meet its
    // box are found again (note_static_version), the moving shapes near its
    // fat box seek their pairs again (moved_proxies), its seams and its
    // static neighbours' are found again, and the static broadphase has
    // changed once more since its rebuild.
    void note_static_proxy_change(ProxyId id);

    // Finds the covered stretches and buried vertices again after the
    // static shapes or the kinematic bodies with several shapes changed
    // (nothing else changes them: static bodies never move, and a kinematic
    // body's shapes move together): of every shape when many changed, else
    // of the changed shapes and their static neighbours alone, since a
    // shape's seams depend on nothing else. Either way each shape's are
    // what a search of every shape finds. A static shape's are only marked
    // unknown here and found when first read (covered_of, buried_by_of):
    // its neighbours never move, so they are the same whenever found, and a
    // level's tiles that nothing touches cost nothing (finding every seam of
    // a 27,850-tile level was half of its load). A kinematic body's are
    // found at once, at the pose its shapes have now. Needs the static
    // broadphase rebuilt first, if it is to be. (Inline: every move asks.)
    void find_seams_if_dirty() {
        if (!seam_shapes.empty()) {
            find_seams();
        }
    }
    void find_seams();

    // Moves every shape's covered stretches together, leaving out the
    // holes the searches of changed shapes left (seam_holes).
    void compact_seams();

    // The shapes a search of the changed ones finds seams of, sorted, once
    // each: seam_shapes, and the static shapes whose broadphase boxes meet
    // a box of seam_boxes grown by the touch tolerance.
    std::vector<int> changed_seam_shapes() const;

    // find_seams_if_dirty's view of the shapes it meets, placed once for a
    // search rather than once for every neighbour that meets them (a tile
    // has eight): by shape index, its slot (or -1 until placed), and by
    // slot, the shape placed, its box grown by the touch tolerance and, if
    // it can cover, its polygon placed in the world. Kept between searches
    // with every slot -1 (a search of a few shapes in a big level resets
    // only theirs).
    struct SeamPlacement {
        std::vector<int> slots;
        std::vector<int> placed;
        std::vector<Aabb> boxes;
        std::vector<PlacedPolygon> polygons;
    };
    mutable SeamPlacement seam_placement;
    // The slot of seam keeper si in `placed`, placing it first if need be.
    int place_seam_keeper(int si, SeamPlacement& placed) const;

    // Every slot of `placed` back to -1, its placements dropped.
    static void forget_placements(SeamPlacement& placed);

    // Shape si's seams may have changed: no manifold stored before is
    // carried for it; a static shape's become unknown, the rest are found
    // now (find_seams_of).
    void renew_seams_of(int si, SeamPlacement& placed);

    // Finds shape si's covered stretches (appended to covered_stretches)
    // and buried vertices anew; none if it keeps no seams (or is dead).
    void find_seams_of(int si, SeamPlacement& placed) const;

    // Finds the seams of static shape `s`, which a change left unknown, with
    // a placement of its own (reset after).
    [[gnu::noinline]] void find_seams_now(const ShapeRecord& s) const;

    // `visit(other)` for every shape that may share a seam with shape si
    // (whose box grown by the touch tolerance is `box`): the static shapes
    // near a static one, the other shapes of a kinematic one's body.
    template <class Visit>
    void for_each_seam_neighbour(int si, const Aabb& box, Visit&& visit) const;

    // The stretches of the faces of s (index si, placed in slot `own`) that
    // shape `other` covers, and the vertices of s it buries; `points`: s's
    // proxy's points in the world.
    void find_seams_with(int si, int own, std::span<const Vec2> points, int other,
                         SeamPlacement& placed) const;

    // Marks the vertices of segment or polygon `s` (its proxy's points,
    // `points` in the world) that lie in or on its seam neighbour `o`
    // (index `other`, its box grown by the touch tolerance `near_o`) within
    // the touch tolerance, away from o's vertices: buried, so no corner. Ends
    // meeting at a vertex (a polyline's corner, a ring of segments, two
    // tiles' corners) are a real corner or a seam, not a buried vertex.
    void mark_buried_vertices(const ShapeRecord& s, std::span<const Vec2> points,
                              const ShapeRecord& o, const Aabb& near_o, int other) const;

    // Whether `point` (world) lies in or on shape `o` (at its body's pose)
    // within the touch tolerance.
    bool touches_point(const ShapeRecord& o, Vec2 point) const;

    // Whether `point` (world) lies within the touch tolerance of a vertex of
    // shape `s` at its body's pose (a point of its proxy: for a circle or
    // capsule, a centre, which its surface is never near).
    bool near_a_vertex(const ShapeRecord& s, Vec2 point) const;

    // The mean of a proxy's points: inside the shape, to tell its side.
    static Vec2 mean_point(const ShapeProxy& p);

    // The covered stretches of a static or kinematic polygon (seams.hpp),
    // found first if unknown. (The span lasts until another shape's seams
    // are read: finding those may move the stretches.)
    std::span<const CoveredStretch> covered_of(const ShapeRecord& wall) const {
        know_seams(wall);
        return {covered_stretches.data() + wall.seams_begin,
                static_cast<std::size_t>(wall.seams_end - wall.seams_begin)};
    }

    // What buries each vertex of a static or kinematic polygon or segment
    // (ShapeRecord::buried_by), found first if unknown.
    const std::array<int, k_max_polygon_vertices>& buried_by_of(const ShapeRecord& wall) const {
        know_seams(wall);
        return wall.buried_by;
    }

    void know_seams(const ShapeRecord& s) const {
        if (!s.seams_known) [[unlikely]] {
            find_seams_now(s);
        }
    }

    // The face of a static or kinematic polygon (B, at xf_wall) that a
    // manifold of a moving shape (A, at xf_mover) against it should be made
    // on instead, or -1: when a point lies on a face that a flush neighbour
    // (keeps_seams) covers, with a normal that would push the mover off that
    // face (seam_stretch), at a flat seam (two tiles' tops side by side:
    // flat_seam_face), the face continuing the surface there. A neighbour
    // the mover passes through covers nothing for it.
    int flat_seam_face_of(const Manifold& m, const ShapeRecord& mover, const Transform& xf_mover,
                          const ShapeRecord& wall, const Transform& xf_wall) const;

    // collide() for a pair of the step (A moving). Against a static or
    // kinematic polygon (keeps_seams), a contact on a flat seam
    // (flat_seam_face_of) is made again on the face continuing the surface
    // there, alone (collide_face): the flush tiles act as one solid, and the
    // depth is the depth below that surface.
    Manifold collide_pair(int shape_a, int shape_b, const Transform& xfa, const Transform& xfb,
                          const CollideSettings& settings) const;

    // A static or kinematic polygon's vertex that lies in or on a seam
    // neighbour (the foot of a wall standing on a floor) is no corner
    // either: a contact
    // with a point on it (the mover's own face taking the vertex as its
    // incident point, or a corner-to-corner speculative point) is made again
    // on the polygon's face at that vertex that faces the mover, alone
    // (collide_face): its points are the mover's part over the face, so a
    // shape sunk a slop into the floor is pushed off the wall rather than
    // down, and a box sliding into the wall meets it with its whole face.
    Manifold face_contact_at_buried_vertex(const Manifold& m, const ShapeRecord& mover,
                                           const Transform& xfa, const ShapeRecord& wall,
                                           const Transform& xfb,
                                           const CollideSettings& settings) const;

    // Of the two faces of `p` (at xfb) meeting at vertex `v`, the one whose
    // outward normal points more toward the moving shape (at xfa).
    int face_toward(const Polygon& p, int v, const ShapeRecord& mover, const Transform& xfa,
                    const Transform& xfb) const;

    // A static or kinematic segment whose end lies in or on a seam neighbour
    // (a partition standing on a floor: a T-junction) has no corner there; a
    // contact of a moving shape (A) on that end's rounded vertex (contacted_end)
    // is made again on the segment's face on A's side alone (collide_face),
    // as the seam rule does for flush polygons. A shape in the corner, sunk
    // a slop into the floor, is otherwise pushed down into it by the end.
    // And a contact on the segment's face that would push A across the
    // segment's line, away from the side A's centre is on (a small shape
    // straddling a thin partition, nearer its far side's surface), is made
    // on A's side's face too: pushed through, it met the final sweep, which
    // never lets a shape cross a segment, and stayed 8 slops deep for good
    // (seed 60714 of the random scenes at 20x).
    Manifold segment_contact(const Manifold& m, const ShapeRecord& mover, const Transform& xfa,
                             const ShapeRecord& wall, const Transform& xfb,
                             const CollideSettings& settings) const;

    explicit Impl(const WorldDef& d)
        : def(d), tol(Tolerances::for_units(d.length_units_per_meter)),
          gravity(d.length_units_per_meter * d.gravity), static_tree(tol.aabb_margin),
          static_grid(d.grid_cell_size, tol.aabb_margin), moving_tree(tol.aabb_margin),
          moving_occupancy(k_occupancy_cell * d.length_units_per_meter) {
        // Within k_max_coordinate per second, as k_max_mass assumes.
        tol.max_translation_speed =
            std::min(d.max_translation_speed * d.length_units_per_meter, k_max_coordinate);
        gravity_direction = length(gravity) > 0 ? normalize(gravity) : Vec2{};
    }

    ShapeId shape_id(int si) const { return {si, shapes[si].generation}; }

    // The refusal of `call`, a call that changes the world, while a step or
    // a move runs (from a pre-solve hook or a move filter): it would change
    // what the running call is walking (a body destroyed under the contact
    // search, the hook replaced while it runs). None when nothing runs.
    std::optional<Error> refusal_inside(const char* call) const {
        if (!stepping && !move_scratch.busy) {
            return std::nullopt;
        }
        return refusal(call);
    }
    // refusal_inside's error (out of line: the test stays small enough to
    // inline into every call, World::move's among them).
    [[gnu::noinline]] static Error refusal(const char* call);
    BodyId body_id(int bi) const { return {bi, bodies[bi].generation}; }

    real combine_friction(const Material& a, const Material& b) const {
        return combine(def.friction_combine, a.friction, b.friction);
    }
    real combine_restitution(const Material& a, const Material& b) const {
        return combine(def.restitution_combine, a.restitution, b.restitution);
    }
    // The larger rolling resistance of the two at the larger rounding
    // radius (Box2D v3.1's rule).
    static real combine_rolling_resistance(const ShapeRecord& a, const ShapeRecord& b) {
        return std::max(a.material.rolling_resistance, b.material.rolling_resistance) *
               std::max(rounding_radius(a.shape), rounding_radius(b.shape));
    }

    // Filters and sensors: may these two shapes collide at all?
    static bool may_collide(const ShapeRecord& a, const ShapeRecord& b) {
        return !a.sensor && !b.sensor && should_collide(a.filter, b.filter);
    }

    bool is_disabled(int shape_a, int shape_b) const {
        return std::binary_search(disabled_pairs.begin(), disabled_pairs.end(),
                                  ShapePair{shape_id(shape_a), shape_id(shape_b)});
    }

    const ShapeRecord* find(ShapeId id) const {
        if (id.index < 0 || id.index >= static_cast<int>(shapes.size())) {
            return nullptr;
        }
        const ShapeRecord& s = shapes[id.index];
        return s.body >= 0 && s.generation == id.generation ? &s : nullptr;
    }

    // A shape slot, reused from destroyed bodies first.
    int allocate_shape() {
        if (!free_shapes.empty()) {
            const int si = free_shapes.back();
            free_shapes.pop_back();
            return si;
        }
        shapes.emplace_back();
        return static_cast<int>(shapes.size()) - 1;
    }

    const Body* find(BodyId id) const {
        if (id.index < 0 || id.index >= static_cast<int>(bodies.size())) {
            return nullptr;
        }
        const Body& b = bodies[id.index];
        return b.alive && b.generation == id.generation ? &b : nullptr;
    }

    // Sets body bi's ground, keeping the grounds' counts of riders, so that
    // a teleport looks for the bodies riding its body only when there are
    // some (a world of many bodies, many of them teleported a frame).
    void set_ground(int bi, BodyId ground) {
        Body& b = bodies[bi];
        if (b.ground == ground) {
            return; // (the usual move: on the same ground as the last, or none)
        }
        count_rider(b.ground, -1);
        count_rider(ground, 1);
        b.ground = ground;
    }
    // Adds `change` to the riders of `ground` if it names the body living in
    // its slot (a stale or empty id counts nothing).
    void count_rider(BodyId ground, int change) {
        if (ground.index >= 0 && ground.index < static_cast<int>(rider_counts.size()) &&
            rider_counts[ground.index].generation == ground.generation) {
            rider_counts[ground.index].riders += change;
        }
    }

    // What moving shape s keeps apart from its record (s.moving).
    MovingShape& moving_of(const ShapeRecord& s) {
        return moving_shapes[static_cast<std::size_t>(s.tree_proxy)];
    }
    const MovingShape& moving_of(const ShapeRecord& s) const {
        return moving_shapes[static_cast<std::size_t>(s.tree_proxy)];
    }

    // compute_aabb(s.shape, xf), remembered for a moving shape's last two
    // poses within a step (box_stamp): the same box, to the bit, for the
    // same transform, to the bit.
    Aabb shape_box(const ShapeRecord& s, const Transform& xf) const {
        if (!s.moving) {
            return compute_aabb(s.shape, xf);
        }
        ShapeBoxes& c = moving_of(s).boxes;
        if (c.stamp != box_stamp) {
            c.stamp = box_stamp;
            c.count = 0;
        }
        for (int i = 0; i < c.count; ++i) {
            if (std::memcmp(&c.xf[static_cast<std::size_t>(i)], &xf, sizeof(Transform)) == 0) {
                return c.box[static_cast<std::size_t>(i)];
            }
        }
        const Aabb box = compute_aabb(s.shape, xf);
        const auto at = static_cast<std::size_t>(c.next);
        c.xf[at] = xf;
        c.box[at] = box;
        c.next ^= 1;
        c.count = std::min(c.count + 1, 2);
        return box;
    }

    Aabb swept_aabb(const Body& b, const ShapeRecord& s, real dt) const {
        const Aabb now = shape_box(s, b.xf);
        const Vec2 d = dt * b.v;
        const real turn = std::abs(dt * b.w) * b.extent; // rotation can sweep this far
        return inflate(union_of(now, {now.lower + d, now.upper + d}), turn);
    }

    void update_moving_proxies(real dt);

    // The bodies a step moves or may move: alive and not static, in index
    // order (as the loops over every body met them), listed as each step
    // begins; no body is made, retyped or destroyed within a step but by the
    // kill plane at its end, which leaves it listed and not alive. The
    // step's passes over bodies walk this list, so that a level of tiles,
    // each its own static body, costs them nothing (a 200x200 map's 27,850
    // tiles cost a step 12.7 M instructions before).
    std::vector<int> step_bodies;
    void list_step_bodies();

    // Gravity, forces and damping over a step of dt into the velocities of
    // the awake bodies (integrate_velocity each), before the contact
    // search; the bodies the search wakes get theirs as it wakes them
    // (wake_sleeping_island), until the velocity solve has run
    // (velocities_dt: the step's dt until then, else 0).
    void integrate_velocities(real dt);
    void integrate_velocity(Body& b, real dt);
    real velocities_dt = 0;

    // The candidate pair of shape `shape`, whose body searched, and shape
    // `other` of body `other_body` (-1: static): a pair of two dynamic
    // bodies' shapes with the lower body's first, as a search in body
    // order finds it whichever body searched. (An island the search wakes
    // is searched after the awake bodies, in the order it woke in: its
    // pairs came the other way round, their normals, feature ids and
    // warm starts with them, and a pile woken so started its solve cold.)
    std::pair<int, int> search_pair(int shape, int other, int other_body) const {
        if (other_body >= 0 && other_body < shapes[shape].body &&
            bodies[other_body].type == BodyType::dynamic) {
            return {other, shape};
        }
        return {shape, other};
    }

    // Candidate pairs from the broadphase, in a reused buffer so that the
    // narrowphase (collide_candidates) is timed apart from the tree queries.
    // Every awake dynamic body seeks its pairs; a sleeping body met by one
    // (or by a moving kinematic body) wakes with its island and seeks its
    // own in turn, so a woken island is solved whole in the same step. Each
    // pair of dynamic bodies is taken once, by whichever sought first.
    //
    // A world at rest moves no proxy out of its fat box, step after step
    // (Box2D's large pyramid: none in 5,050 bodies), yet every body's walk of
    // the trees was 9 % of its step. After a step that moved none, the
    // search walks with the fat boxes (PairSearch) and keeps what it finds;
    // while no proxy moves and the same bodies search, the next steps take
    // their pairs from it, filtered by the contact boxes: the same pairs in
    // the same order as a walk.
    void find_candidate_pairs(real dt);

    // The search's state before any body seeks: no pairs, the awake dynamic
    // bodies queued in order.
    void start_contact_search(real dt);

    // The pairs from the kept wide search, when it holds: no proxy changed
    // since and the same bodies search in the same order. False (and no
    // pairs) when it does not, or when a pair would wake a sleeping body
    // (a search does that, and the woken bodies search too).
    bool reuse_pair_search(real dt);

    // Brings the kept wide search up to date with the proxies moved since
    // (moved_proxies), and the moving shapes near static proxies made or
    // destroyed: their pairs are dropped and sought again, from both sides.
    // False when it cannot be: no wide search kept, the searching bodies
    // changed, a moving proxy was made or destroyed, or so many moved that a
    // whole search costs less.
    bool update_pair_search();

    // Lists as moved (moved_proxies) every moving shape whose wide search
    // box may meet the fat box of a static proxy made or destroyed since the
    // last contact search: its static pairs are no longer those kept.
    void list_shapes_near_static_changes();

    // The wide pairs of moved shape `m` into `found`: those it seeks, and
    // those an unmoved shape seeks with it, by seek_pairs' rules.
    void seek_pairs_of_moved(int m, std::vector<WidePair>& found);

    // The kept wide pairs whose box meets their shape's contact box (noted
    // by note_search), in order, as the step's candidates. Reusing the
    // search of an earlier step (reuse_dt: the step's dt): false, leaving
    // them partial, when one would wake a sleeping body (search_wakes: a
    // search does that); after this step's search, which woke them, none.
    bool candidates_from_kept_pairs(std::optional<real> reuse_dt);

    // Whether shape `s` seeks its pairs in the contact search: a solid shape
    // of an awake dynamic body.
    bool seeks_pairs(const ShapeRecord& s) const {
        const Body& b = bodies[s.body];
        return !s.sensor && b.type == BodyType::dynamic && b.awake;
    }

    // Whether body `bi`'s shapes seek their pairs with body `other`'s (the
    // search's rule: an awake dynamic body seeks every other body's shapes
    // but those of awake dynamic bodies queued before it, which sought it).
    bool seeks(int bi, int other) const {
        const Body& o = bodies[other];
        return !(o.type == BodyType::dynamic && o.awake && other < bi);
    }

    // Body `bi` seeks its pairs: it and its shapes' contact boxes are noted.
    void note_search(int bi, real dt);

    // The pairs of body `bi`'s shapes: the shapes whose (fat) boxes meet a
    // shape's contact box. `wide`: the trees are walked with the shape's
    // fat box grown by the speculative distance (which holds the contact
    // box), and what that finds is kept in pair_search.
    void seek_pairs(int bi, real dt, bool wide);

    // A kinematic body moving by its velocity wakes the sleeping bodies in
    // its path (they seek no pairs, and it seeks none). Before the search
    // queues the awake bodies: the woken are queued with them, once.
    void wake_where_kinematic_bodies_go(real dt);

    // Wakes every body asleep in `body`'s island. During the contact search
    // (`queue`), the woken bodies are queued to seek their own pairs. (The
    // test inline: every move asks it of a body that is awake.)
    void wake_island(int body, bool queue) {
        if (!bodies[body].awake) {
            wake_sleeping_island(body, queue);
        }
    }
    void wake_sleeping_island(int body, bool queue);

    // Wakes the islands of the sleeping bodies whose broadphase boxes meet `box`.
    void wake_near(const Aabb& box, bool queue);
    // wake_near for a shape placed by `xf` (made, moved, changed or removed
    // there): what sleeps within the speculative distance of its box wakes.
    void wake_near_shape(const Shape& shape, const Transform& xf) {
        wake_near(inflate(compute_aabb(shape, xf), tol.speculative_distance), false);
    }

    // Islands (dynamic bodies joined by this step's contacts) whose every
    // body has stayed below the sleep tolerances for time_to_sleep fall
    // asleep together; a body touching a moving kinematic body never rests.
    void update_sleep(real dt);
    // At the start of a step, before the contact search: keeps the last
    // step's stored contacts whose dynamic bodies all sleep now (an island
    // fell asleep, or set_awake(false)) in sleeping_contacts, and drops
    // those of pairs awake for a whole step (searched since: their
    // contacts hold the impulses again), of dead bodies, and of shapes
    // changed since.
    void keep_sleeping_contacts();
    // Sorts sleeping_contacts by pair, keeping the one kept last of each.
    void keep_newest_of_each_pair();

    int island_root(int bi) {
        while (island_parent[bi] != bi) {
            island_parent[bi] = island_parent[island_parent[bi]]; // path halving
            bi = island_parent[bi];
        }
        return bi;
    }

    // Narrowphase of the candidate pairs, with a speculative distance that
    // covers how far each pair can close this step.
    void collide_candidates(real dt);

    void add_contact(int shape_a, int shape_b, real dt);

    // How far the contact of bodies a and b looks in a step of dt
    // (add_contact): the speculative distance and how far they may close;
    // `bounded`: a fast pair of moving bodies, held to their inner radii,
    // whose meeting beyond them is time of impact's.
    struct ContactReach {
        CollideSettings settings;
        bool bounded = false;
    };
    ContactReach contact_reach(const Body& a, const Body& b, real dt) const {
        const real turn_a = std::abs(a.w) * a.extent;
        const real turn_b = std::abs(b.w) * b.extent;
        const real closing = dt * (length(b.v - a.v) + turn_a + turn_b);
        // Two slow bodies close at most this far in a step; a fast one meets
        // moving bodies beyond it through time-of-impact events instead
        // (world_toi.cpp), so a fast crowd does not make every pair a contact.
        const bool bounded =
            b.type != BodyType::static_body && closing > a.inner_radius + b.inner_radius;
        real margin = bounded ? a.inner_radius + b.inner_radius : closing;
        if (dt * turn_a > a.inner_radius || dt * turn_b > b.inner_radius) {
            // A fast turn brings a surface no nearer than turn_reach: a
            // spinning blade's corners sweep a circle. Beyond it, the corner
            // speed, taken as straight for the step, pushed what the blade
            // never reached: a box 0.8 L beyond went off at 357 L/s, and a
            // blade beside a wall was thrown off it at the speed limit.
            margin = std::min(margin, dt * length(b.v - a.v) + std::min(dt * turn_a, a.turn_reach) +
                                          std::min(dt * turn_b, b.turn_reach));
        }
        return {{tol.speculative_distance + margin, tol.linear_slop}, bounded};
    }

    // Whether the search of shape `shape` (its body awake) wakes the
    // sleeping body `other_body` of shape `other`: the pair makes a contact
    // this step, as add_contact will make it (which then joins their
    // islands), not merely the boxes meet (Box2D wakes a sleeping body as a
    // contact with it begins to touch). Waking every sleeping body whose
    // fat box a search met, islands near one another but not in contact
    // woke each other for ever, each falling asleep a step after the other
    // (a settled pile of 1,000 boxes beside two columns of three never
    // slept).
    bool search_wakes(int shape, int other, int other_body, real dt) const;

    // The velocity solve's compact copies (contact_solver.hpp): every
    // body's velocities and inverse masses, and each contact's lever arms,
    // effective masses and warm-start impulses.
    void prepare_contacts(real dt);

    // The solve's velocities back to the bodies, its impulses to the contacts.
    void keep_solve_results();

    // The last step's contact of the pair whose manifold this step's search
    // takes, its points carried by the bodies (move_manifold, into
    // `moved`), instead of colliding again (PhysX's contact cache): none
    // unless the bodies hardly moved, one relative to the other, since
    // collide() made it (then it is collide()'s manifold but for where the
    // clip cuts the incident face, moved as far, and for the reference
    // face where two nearly parallel ones are within collide()'s
    // preference for A's: a capsule's side on a box's face, tilted 0.3
    // degrees, read 0.26 slop apart at the ends), it was made with a
    // speculative distance at most k_carried_distance_slack short of this
    // step's, and its points are all still within this step's. A point
    // collide() dropped then lies beyond this step's distance but for that
    // slack and the motion, over 3 slops beyond how far the pair can close
    // this step: it would push nothing. A resting stack's pairs skip the
    // narrowphase.
    // `previous`: the pair's last contact, as Contact::previous holds it.
    const Contact* carried_from(int shape_a, int shape_b, const Body& a, const Body& b,
                                const CollideSettings& settings, Manifold& moved, int& previous) {
        previous = k_previous_unknown;
        // (The records are read only when some shape changed: a step's
        // thousands of pairs would each miss the cache on two.)
        if (shape_clock != stored_at &&
            (all_shapes_changed_at > stored_at || shapes[shape_a].changed_at > stored_at ||
             shapes[shape_b].changed_at > stored_at)) {
            return nullptr;
        }
        const Contact* found = previous_contact(shape_a, shape_b);
        if (!found) {
            // (A pair of bodies that slept has its impulses in the cache
            // alone: the warm start looks there.)
            previous = sleeping_contacts.empty() ? k_no_previous : k_previous_unknown;
            return nullptr;
        }
        previous = static_cast<int>(found - previous_contacts.data());
        const Contact& c = *found;
        if (c.made_distance + k_carried_distance_slack * tol.linear_slop <
                settings.speculative_distance ||
            c.manifold.count == 0 || !hardly_moved(c.made_xf_a, c.made_xf_b, a, b)) {
            return nullptr;
        }
        move_manifold(c.manifold, a.xf, b.xf, settings, moved);
        return moved.count == c.manifold.count ? &c : nullptr;
    }

    // The pair's contact in the last step, if it had one: the one after the
    // last found, when the search reports pairs in the order it did then
    // (a world at rest), else looked up.
    const Contact* previous_contact(int shape_a, int shape_b) {
        if (previous_cursor < previous_contacts.size()) {
            const Contact& next = previous_contacts[previous_cursor];
            if (next.shape_a == shape_a && next.shape_b == shape_b) {
                ++previous_cursor;
                return &next;
            }
        }
        const CachedImpulse* cached = find_cached(pair_key(shape_a, shape_b));
        if (!cached || cached->contact < 0) {
            return nullptr;
        }
        previous_cursor = static_cast<std::size_t>(cached->contact) + 1;
        return &previous_contacts[static_cast<std::size_t>(cached->contact)];
    }

    // (Made when first looked in: in a world at rest the search finds
    // every previous contact in order, and the warm start takes its
    // impulses from there, so nothing looks.)
    const CachedImpulse* find_cached(std::uint64_t key) {
        if (!impulse_cache_made) {
            make_impulse_cache();
        }
        const auto it =
            std::lower_bound(impulse_cache.begin(), impulse_cache.end(), key,
                             [](const CachedImpulse& e, std::uint64_t k) { return e.key < k; });
        return it != impulse_cache.end() && it->key == key ? &*it : nullptr;
    }

    // Marks this step's contacts as those the next step's search and warm
    // start look up (find_cached): the first stored_contacts of
    // previous_contacts once the next search has swapped them there, as
    // they were here (nothing changes a contact's manifold or impulses after
    // the solve, and contacts added later in the step are not stored).
    void store_impulses();
    // The cache of the stored contacts, sorted by key.
    void make_impulse_cache();

    // The impulses of `c`'s pair at the end of the last step's velocity
    // solve, by feature id, as store_impulses kept them: from the contact
    // the search found (Contact::previous), else looked up.
    CachedImpulse warm_impulses(const Contact& c);

    // Stills a body as it falls asleep: no velocity, no path, its sweep
    // ended where it stands.
    static void put_at_rest(Body& b) {
        b.v = {};
        b.w = 0;
        b.path_v = {};
        b.path_w = 0;
        b.sweep.c1 = b.sweep.c2;
        b.sweep.a1 = b.sweep.a2;
    }

    static void sync_transform(Body& b) {
        b.xf.q = Rot::from_angle(b.sweep.a2);
        b.xf.p = b.sweep.c2 - rotate(b.xf.q, b.sweep.local_center);
    }

    // Ends the body's step displaced by (dp, da) from where it began, along
    // a path of velocity (path_v, path_w).
    static void move_along(Body& b, Vec2 dp, real da, Vec2 path_v, real path_w) {
        b.step_center = b.sweep.c2;
        b.step_angle = b.sweep.a2;
        b.sweep.c1 = b.sweep.c2;
        b.sweep.a1 = b.sweep.a2;
        b.stopped = false;
        b.sweep.c2 += dp;
        b.sweep.a2 += da;
        b.path_v = path_v;
        b.path_w = path_w;
        sync_transform(b);
    }

    // An angular speed (rad/s) cut so that it turns at most k_max_rotation
    // over `dt` seconds.
    static real capped_spin(real w, real dt) {
        const real most = k_max_rotation / dt;
        return std::clamp(w, -most, most);
    }

    static bool moves(const Body& b) {
        return b.alive && b.type != BodyType::static_body && b.awake;
    }

    void integrate_positions(real dt);

    // The poses the sub-steps reached (solve_substepped's motions).
    void move_to_substep_poses(real dt);

    // The solve in def.solver_substeps sub-steps (Catto, "Solver2D", 2024,
    // and Box2D v3's step): the contacts, made once, are solved n times
    // over a sub-step h = dt / n. Each sub-step adds h of gravity,
    // re-applies the impulses so far (a sub-step's share of the last step's
    // at first), sweeps once aiming at each point's separation moved by the
    // bodies' motion so far (SubstepTargets), moves the bodies by h, and
    // sweeps again without the push (relax, k_relax_sweeps times), so that
    // the push leaves no velocity behind; after an impact both go on while
    // they still change a speed by more than k_substep_sweep_tolerance. A
    // stack's weight reaches its bottom in n sweeps of small impulses rather
    // than in sweeps to convergence, and a gap a sub-step closes is seen by
    // the next.
    void solve_substepped(real dt);

    // What gravity and the applied force and torque add to body `bi`'s
    // solver velocities over `t` seconds of a step of `dt`: the share t / dt
    // of velocity_change and spin_change.
    SubstepLoad load_of(int bi, real t, real dt) const;

    // Every awake dynamic body's load over `t` seconds of a step of `dt`
    // into substep_loads (every sub-step but the first adds the same loads:
    // found once a step), and substep_loads added to the solver velocities.
    void find_substep_loads(real t, real dt);
    void add_substep_loads();

    // The velocity body `b` gains from gravity over a step of `dt` (L/s):
    // dt * gravity_scale * gravity, unless that is more than twice the speed
    // limit (or overflows `real`), when it is cut to that along itself. A
    // body it cuts leaves the step at the speed limit anyway; the cut keeps
    // the step's arithmetic (the sub-steps take the change back a share at a
    // time) finite whatever the gravity.
    Vec2 gravity_change(const Body& b, real dt) const;

    // gravity_change with the body's applied force (World::apply_force)
    // too: dt * (gravity_scale * gravity + force / mass), cut the same way.
    // Without a force, gravity_change itself, to the bit.
    Vec2 velocity_change(const Body& b, real dt) const;

    // The spin body `b` gains from its applied torque over a step of `dt`
    // (rad/s): dt * torque / inertia, cut to k_max_coordinate per second
    // (the velocity range; a torque on a body of tiny inertia overflows).
    static real spin_change(const Body& b, real dt);

    // The bodies' motion over one sub-step, the rotation exact: a body
    // spinning a radian a step must not grow (a first-order rotation does).
    void move_substep(real h);

    // Chooses the bodies whose sub-step paths are kept: the dynamic ones
    // the step's velocities would take farther than their inner radius
    // (rotation included), which may pass through moving bodies they have
    // no contact with. record_substep_path keeps where sub-step `sub` took
    // them.
    void choose_substep_paths(real dt);
    void record_substep_path(int sub);

    // The velocity (v, w) body `bi` moved at through the sub-steps where
    // its straight path from the step's start (Body::sweep) is at step
    // fraction t: that of the first sub-step whose stretch of the path
    // passes within a linear slop of that point. Returns that sub-step's
    // index; -1 when it has no recorded path, or its sub-steps never passed
    // there (a path bent by a contact). A pair the solve had no contact of
    // may meet on the straight path after a contact further on (a wall
    // behind a struck disc) has stopped the fast body: its impact is solved
    // with the velocity it had there, not with what that contact left.
    int substep_velocity_at(int bi, real t, Vec2& v, real& w) const;
    // Body `bi`'s pose (its frame and centre of mass) and velocity at step
    // fraction t on its recorded sub-step path (sub-step k moves it from
    // point k - 1 to point k in the k-th n-th of the step, turning it at a
    // steady rate), or on its straight path (Body::sweep from its TOI
    // clock) with its end velocity when it has none.
    struct PathState {
        Transform xf;
        Vec2 c;
        real angle = 0;
        Vec2 v;
        real w = 0;
    };
    PathState substep_state_at(int bi, real t) const;
    // The bodies of an event's shapes at step fraction t on their sub-step
    // paths, and the shapes' manifold there (touching: no speculative reach).
    struct SubstepPair {
        PathState a;
        PathState b;
        Manifold m;
    };
    SubstepPair substep_pair_at(const ToiEvent& e, real t) const;
    // The first time, from the event's time to the step's end, at which the
    // shapes of an event on the paths the sub-steps moved their bodies along
    // (substep_state_at, looked at twice a sub-step) overlap by more than a
    // linear slop at a point where they close faster than
    // k_substep_path_approach slops per step `dt`; none when they never do.
    std::optional<real> substep_path_meeting(const ToiEvent& e, real dt) const;
    // Whether body ia or ib has a recorded sub-step path.
    bool has_substep_path(int ia, int ib) const {
        return def.solver_substeps > 1 && (substep_path_of[static_cast<std::size_t>(ia)] >= 0 ||
                                           substep_path_of[static_cast<std::size_t>(ib)] >= 0);
    }

    // Puts the bodies of a pair meeting at step fraction t at the velocities
    // substep_velocity_at finds for them, each that has one; the pair of a
    // contact the solve shared (`shared_contact`: its impulse is in both
    // bodies' end velocities) only if every dynamic one of the two has one,
    // from the same sub-step (one from before the impulse and one from after
    // it would make momentum). Returns whether it did.
    bool take_substep_velocities(int ia, int ib, real t, bool shared_contact);

    // Fast bodies end a step far from where their speculative manifold was
    // made, so position correction works on manifolds recomputed at the
    // current poses (refreshed every few iterations as the poses move).
    // The position manifolds at the current poses. Unless `all`, only of
    // pairs a push moved since their manifold was made: the others' poses,
    // and so their manifolds, are what they were. A new manifold makes its
    // pair unchecked.
    void refresh_position_manifolds(bool all);

    // Whether B moved, relative to A, less than k_manifold_reuse_motion
    // slops at every point of B (its centre's move in A's frame, its turn
    // at its extent) from the poses the contact's manifold was made at:
    // the manifold depends on the relative pose alone.
    bool hardly_moved(const Transform& xf_a, const Transform& xf_b, const Body& a,
                      const Body& b) const {
        const Transform then = inv_mul(xf_a, xf_b);
        const Transform now = inv_mul(a.xf, b.xf);
        const Rot turn = inv_mul(then.q, now.q);
        const Vec2 moved = transform_point(now, b.sweep.local_center) -
                           transform_point(then, b.sweep.local_center);
        return turn.c > 0 && length(moved) + std::abs(turn.s) * b.extent <=
                                 k_manifold_reuse_motion * tol.linear_slop;
    }

    // Manifold `m`'s points carried by the bodies to the poses xf_a, xf_b,
    // into `out` (not `m`): their anchors fixed in the bodies, the normal
    // turned with its reference shape, each point's separation measured
    // there and the points beyond settings' distance dropped. (Made where
    // the caller keeps it: a Manifold returned, written a field at a time,
    // and copied is read back in wide loads that stall on those stores.)
    static void move_manifold(const Manifold& m, const Transform& xf_a, const Transform& xf_b,
                              const CollideSettings& settings, Manifold& out) {
        out = m;
        out.normal =
            m.reference_is_b ? -rotate(xf_b.q, m.local_normal) : rotate(xf_a.q, m.local_normal);
        out.count = 0;
        for (int i = 0; i < m.count; ++i) {
            ManifoldPoint p = m.points[static_cast<std::size_t>(i)];
            const Vec2 pa = transform_point(xf_a, p.anchor_a);
            const Vec2 pb = transform_point(xf_b, p.anchor_b);
            p.separation = dot(pb - pa, out.normal);
            p.point = real(0.5) * (pa + pb);
            if (p.separation <= settings.speculative_distance) {
                out.points[static_cast<std::size_t>(out.count++)] = p;
            }
        }
    }

    // Whether no push moved either body of the pair after the clock read `at`.
    bool unmoved_since(const PositionCheck& check, std::uint32_t at) const {
        return position_moved[static_cast<std::size_t>(check.body_a)] <= at &&
               position_moved[static_cast<std::size_t>(check.body_b)] <= at;
    }

    // A push may move the pair's bodies that yield (those `w` gives mass).
    void mark_moved(const Contact& c, const PairMass& w) {
        ++position_clock;
        if (w.ima > 0 || w.iia > 0) {
            position_moved[static_cast<std::size_t>(c.body_a)] = position_clock;
        }
        if (w.imb > 0 || w.iib > 0) {
            position_moved[static_cast<std::size_t>(c.body_b)] = position_clock;
        }
    }

    // Forgets every pair's check: what a push would do changed (the pair
    // masses, when a jam's sweeps begin).
    void forget_position_checks();

    // One position constraint of a manifold point at the current poses.
    struct PositionPoint {
        Vec2 ra, rb; // anchor midpoint relative to the centres of mass, world
        real separation = 0;
        real correction = 0; // <= 0: the separation to remove, clamped
    };

    PositionPoint position_point(const Body& a, const Body& b, const Manifold& m, int i,
                                 Vec2 n) const {
        const ManifoldPoint& mp = m.points[i];
        const Vec2 pa = transform_point(a.xf, mp.anchor_a);
        const Vec2 pb = transform_point(b.xf, mp.anchor_b);
        const real separation = dot(pb - pa, n);
        const Vec2 point = real(0.5) * (pa + pb);
        return {point - a.sweep.c2, point - b.sweep.c2, separation,
                std::clamp(position_factor * (separation + tol.linear_slop),
                           -tol.max_linear_correction, real(0))};
    }

    // The normal (A to B) of contact `c`'s position manifold `m` at the
    // current poses: it turns with the body whose face is the reference.
    Vec2 position_normal(const Contact& c, const Manifold& m) const {
        return m.reference_is_b ? -rotate(bodies[c.body_b].xf.q, m.local_normal)
                                : rotate(bodies[c.body_a].xf.q, m.local_normal);
    }

    // Inverse masses of a pair during position correction. A body stopped by
    // its sweep sits at a safe pose; moving it again could undo that, so
    // only its partner yields.
    PairMass pair_mass(const Contact& c, Vec2 normal, bool pin_stopped) const {
        const Body& a = bodies[c.body_a];
        const Body& b = bodies[c.body_b];
        // Only a contact that holds one dynamic body up on another passes
        // the shock, and only the body below (lower in level and in fact)
        // holds. Under fixed geometry (a ceiling, an overhang, whose level
        // is no level) a body yields: held, it took no push from it, and a
        // jam's sweeps drove it up into the overhang (random scenes: bodies
        // under the ceiling or an obstacle ended steps up to 3.7 slops deep).
        const bool both_dynamic = a.type == BodyType::dynamic && b.type == BodyType::dynamic;
        const real up =
            shock && both_dynamic ? -dot(normal, gravity_direction) : 0; // > 0: B above A
        const bool below_a =
            up >= k_bearing_cosine && support_level[c.body_a] < support_level[c.body_b];
        const bool below_b =
            up <= -k_bearing_cosine && support_level[c.body_b] < support_level[c.body_a];
        // And of two dynamic bodies, one that fixed geometry backs in the
        // direction the contact pushes it holds against one that is not, if
        // it is k_backed_mass_ratio times lighter (find_backing).
        const bool backed_a = shock && both_dynamic && backed(c.body_a, -normal);
        const bool backed_b = shock && both_dynamic && backed(c.body_b, normal);
        const bool pin_a = (pin_stopped && a.stopped) || below_a ||
                           (backed_a && !backed_b && a.inv_mass > k_backed_mass_ratio * b.inv_mass);
        const bool pin_b = (pin_stopped && b.stopped) || below_b ||
                           (backed_b && !backed_a && b.inv_mass > k_backed_mass_ratio * a.inv_mass);
        PairMass w{pin_a ? 0 : a.inv_mass, pin_a ? 0 : a.inv_inertia, pin_b ? 0 : b.inv_mass,
                   pin_b ? 0 : b.inv_inertia};
        if (shock && both_dynamic && !pin_a && !pin_b) {
            scale_mass_ratio(w);
        }
        return w;
    }

    // A light body squeezed between two heavy ones (a pebble between two
    // converging boulders, 270 times heavier, no fixed geometry near)
    // yields to each push and is pushed straight back by the other, so the
    // boulders separate by the mass ratio's fraction of the depth per sweep
    // and the jam never converges. In a jam's sweeps the lighter body of a
    // dynamic pair yields at most k_jam_mass_ratio times as much as the
    // heavier, its rotation scaled alike. Position correction is a
    // projection, not a momentum exchange: this changes only how a few
    // slops of overlap are shared out, as shock propagation's bodies that
    // do not yield do.
    static void scale_mass_ratio(PairMass& w) {
        if (w.ima > k_jam_mass_ratio * w.imb) {
            const real scale = k_jam_mass_ratio * w.imb / w.ima;
            w.ima *= scale;
            w.iia *= scale;
        } else if (w.imb > k_jam_mass_ratio * w.ima) {
            const real scale = k_jam_mass_ratio * w.ima / w.imb;
            w.imb *= scale;
            w.iib *= scale;
        }
    }

    static void push_apart(Body& a, Body& b, const PairMass& w, const PositionPoint& p,
                           Vec2 impulse) {
        a.sweep.c2 -= w.ima * impulse;
        a.sweep.a2 -= w.iia * cross(p.ra, impulse);
        b.sweep.c2 += w.imb * impulse;
        b.sweep.a2 += w.iib * cross(p.rb, impulse);
        sync_transform(a);
        sync_transform(b);
    }

    // Both points of a two-point manifold at once, so that correcting one
    // does not turn the bodies against the other: point by point, a column
    // of 20 boxes leans further every step and falls. Returns false when the
    // problem is ill-conditioned or has no solution (then the points go one
    // by one).
    static bool push_apart_both(Body& a, Body& b, const PairMass& w, const PositionPoint& p1,
                                const PositionPoint& p2, Vec2 n) {
        const BlockMatrix k = block_matrix(w, p1.ra, p1.rb, p2.ra, p2.rb, n);
        if (!k.well_conditioned) {
            return false;
        }
        // The 2x2 complementarity problem, as the velocity block solver.
        const std::optional<std::array<real, 2>> x =
            solve_block_lcp(k, p1.correction, p2.correction);
        if (!x) {
            return false;
        }
        const Vec2 i1 = (*x)[0] * n;
        const Vec2 i2 = (*x)[1] * n;
        a.sweep.c2 -= w.ima * (i1 + i2);
        a.sweep.a2 -= w.iia * (cross(p1.ra, i1) + cross(p2.ra, i2));
        b.sweep.c2 += w.imb * (i1 + i2);
        b.sweep.a2 += w.iib * (cross(p1.rb, i1) + cross(p2.rb, i2));
        sync_transform(a);
        sync_transform(b);
        return true;
    }

    static void push_apart_one(Body& a, Body& b, const PairMass& w, const PositionPoint& p,
                               Vec2 n) {
        const real k = inverse_effective_mass(w, p.ra, p.rb, n);
        if (k > 0 && p.correction < 0) {
            push_apart(a, b, w, p, (-p.correction / k) * n);
        }
    }

    // Nonlinear Gauss-Seidel on the separations of the position manifolds'
    // anchors (Box2D's SolvePositionConstraints, with a block step for
    // two-point manifolds). Returns the deepest penetration seen before
    // correcting.
    // A pair found quiet (pushing nothing) whose bodies no push has moved
    // since is skipped: its points, and so its verdict and separation, are
    // what they were (in a settling pile most pairs are quiet, and a jam's
    // sweeps move few bodies).
    real solve_positions(bool pin_stopped);

    void note_quiet(PositionCheck& check, real separation) {
        check.quiet = true;
        check.checked = position_clock;
        check.separation = separation;
    }

    // The last line of defence: sweep each dynamic body from its pose at
    // the start of the step to its final pose against static geometry, and
    // stop it at the first time of impact. With keep_landings (the last
    // sweep at the round cap), a body landing within the solver's target
    // keeps its pose (lands_within_target).
    int sweep_against_static(bool keep_landings);

    // After the last sweep at the round cap: a pair still deeper than 2
    // linear slops that was clear where the step began, of bodies that
    // were each clear of everything there (by the solve's contacts), is a
    // jam the rounds could not resolve (two bodies each stopped by its own
    // wall inside the other, with no room for both where the solve put
    // them). Its moving bodies go back to their poses at the step's start,
    // at rest, with every moving body those poses now overlap as deep that
    // was clear there too (which goes back too): the last poses known
    // clear. Each counts as clamped at time 0 (its whole step lost). "Stay
    // at the last safe time", as for a failed time of impact.
    void return_jams_to_step_start(real dt);

    // Deepest overlap of shapes si and oi placed at xf_s and xf_o (L, >= 0).
    real depth_between(int si, const Transform& xf_s, int oi, const Transform& xf_o) const;

    // Bodies that the sweep still stops after the last round go back to the
    // start of their sweep (where the last sweep that stopped them left
    // them), the last pose known clear of static geometry, and stay there
    // (pinned) while the others are corrected around them.
    void hold_stopped_at_sweep_start();

    // Groups a value of each contact by body, as rows of a table: row b of
    // `values` is [start[b], start[b + 1]), in contact order. `of(k)` gives
    // contact k's {body, value}, or a negative body for none.
    template <class T, class Of>
    void group_by_body(Of&& of, std::vector<int>& start, std::vector<T>& values);

    // Shock propagation (Guendelman, Bridson and Fedkiw, "Nonconvex rigid
    // bodies with stacking", 2003) for a jam's extra sweeps: each dynamic
    // body's support level counts the bearing contacts (normal within 45
    // degrees of gravity) from static or kinematic ground up to it, each
    // climbing from the body below to the one on it (breadth first); a body
    // reached by none has no level. Contacts are swept lowest first, and
    // where a bearing contact joins a lower-level body below to one on top,
    // the lower does not yield, so a pile is pushed out from the ground up
    // instead of trading corrections between a light body and a heavy one on
    // it. Without gravity there is no shock.
    void order_by_support();

    // A jam's sweeps also pass the shock sideways: a body squeezed between
    // a wall and a heavier body (a light wedge in a corner under a box)
    // yields to every push from the heavy one and gets pushed straight back
    // by the wall, so the pair separates by the mass ratio's fraction per
    // sweep. Each dynamic body's backing directions are those (from the
    // body) of the static or kinematic shapes it touches or overlaps; in a
    // pair of dynamic bodies, one backed in the direction the contact pushes
    // it (within 45 degrees of a direction, or between two) does not yield
    // to one that is not and is over 4 times heavier. Between bodies of
    // like mass the sweeps converge anyway, and holding them there left the
    // 500-body piles restless.
    void find_backing();

    // Whether contact `k`'s position manifold touches or overlaps at the
    // current poses.
    bool touches(std::size_t k) const;

    // Whether fixed geometry backs body `bi` against a push along `push`
    // (unit, world): within 45 degrees of one backing direction, or between
    // two (a corner of a floor and a wall backs every push into it).
    bool backed(int bi, Vec2 push) const {
        const auto first = backing_directions.begin() + backing_start[bi];
        const auto last = backing_directions.begin() + backing_start[bi + 1];
        for (auto e = first; e != last; ++e) {
            if (dot(push, *e) >= k_bearing_cosine) {
                return true;
            }
            for (auto f = e + 1; f != last; ++f) {
                const real turn = cross(*e, *f); // their cone is the side of the turn
                if (turn != 0 && cross(*e, push) * turn >= 0 && cross(push, *f) * turn >= 0) {
                    return true;
                }
            }
        }
        return false;
    }

    // The deepest penetration over the position manifolds at the current
    // poses (>= 0, L), without correcting anything.
    real deepest_position_penetration() const;

    // Iterates until the deepest penetration, measured on freshly collided
    // manifolds, is within 1.5 slop: the margin keeps the end-of-step
    // penetration under 2 slop after the anchors drift. A sweep measures each
    // pair just before pushing it, so a later push of the same sweep (or a
    // body it turned) may drive an earlier pair deeper: a sweep that finds
    // everything within the margin is measured once more after its pushes
    // (on the same manifolds, whose anchors moved with the bodies).
    // Without pinned bodies, a pile still deeper than 1.9 slops after
    // position_iterations (a jam that converges slowly) gets up to
    // k_jam_iteration_factor times as many, while it keeps rising fast
    // enough to get out, each removing less of the penetration
    // (k_jam_baumgarte): a jam often oscillates, a body on another on the
    // floor pushed down and up in turn, and under-relaxation damps it.
    // Returns whether it got within 1.5 slop; sets jam_left_deep where it
    // gives up on a jam deeper than 2 slops.
    bool solve_positions_until_within_slop(bool pin_stopped);

    // A jam's extra sweeps: under-relaxed, from the ground up (shock
    // propagation), from poses kept to be restored if they make it worse.
    void begin_jam_sweeps();
    // Every body's centre of mass and angle as it stands (the end of its
    // sweep), by body index: a jam's entry, a correction round's start.
    void keep_poses(std::vector<Vec2>& centers, std::vector<real>& angles) const;

    void restore_jam_entry();

    // The end of a jam's sweeps that left it `deepest` deep, from
    // `entry_deepest`: back to the entry's poses if that was shallower;
    // jam_left_deep if what remains is deeper than 2 slops.
    void leave_jam(real deepest, real entry_deepest);

    // Position correction for one round. Bodies stopped by the sweep are
    // pinned first so that their swept poses stand; if that cannot resolve
    // the overlaps (a body squeezed between a pinned one and a wall), they
    // yield too and are swept again.
    void correct_positions();

    // Where a body's sweep first meets static geometry: the fraction of the
    // sweep (1 if it meets none), the body's shape and the static shape met.
    struct StaticHit {
        real t = 1;
        int shape = -1;
        int wall = -1;
    };

    // The first time at which one of the body's shapes, moving along
    // `sweep`, meets static geometry (keep_landings: see lands_within_target);
    // of walls met at the same time, the lowest shape index.
    StaticHit first_static_impact(const Body& b, const Sweep& sweep, bool keep_landings = false);

    // Whether a static shape's broadphase box meets the reach of the body
    // along `sweep`: its centre of mass's path grown by its extent, its
    // turn's (as first_static_impact grows its shapes' boxes) and a linear
    // slop and more for the boxes' rounding. That reach holds every box
    // first_static_impact queries, so where it meets none the body meets no
    // static shape: most bodies of a pile above the ground (in the pyramid
    // of World/pyramid_5050, all but its bottom row) skip the sweep's two
    // transforms, with their sines and cosines, and the shapes' boxes.
    bool static_in_reach(const Body& b, const Sweep& sweep) const;

    // A sweep against static geometry (the final sweep, or
    // blocked_by_static's) stopped body `bi` where it meets `hit.wall`: it
    // hits the wall there. The approach of their contact points is solved
    // as an impact against an immovable side, with the pair's friction and
    // restitution (solve_impact, as at a time-of-impact event), so that the
    // velocity the solve gave the body does not drive it into the wall
    // again the next step (docs/conventions.md, "Penetration in the step":
    // a box the sweep stopped step after step). A hit faster than the hit
    // speed threshold is reported as a contact hit event, if the pair has
    // none yet this step.
    // Returns the contact's normal, from the body into the wall (zero
    // where they do not touch).
    Vec2 hit_wall(int bi, const StaticHit& hit);

    // Whether the core ends the step no closer to the wall than it started,
    // on the same side: a wedged body that position correction only turns in
    // place may keep its pose (stopping it at t = 0 would undo the
    // correction, round after round), one that goes deeper is stopped, and
    // so is one whose closest points turned round: it passed through a
    // segment or a thin wall, and the gap opened again on the far side.
    bool core_gap_kept(const ToiInput& input) const;

    // Whether a shape moving along `sweep` meets `wall` at `fraction` on a
    // flat seam (flat_seam_face_of): then the contact there is on the exposed surface the
    // seam lies in, which the shape slides along rather than stops at.
    bool meets_seam(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                    const ShapeRecord& wall) const;

    // Whether the shape, at `fraction` of `sweep`, sinks into `wall` deeper
    // than the position solver's target (1.5 slops): the core may not take
    // it there.
    bool sinks_into(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                    const ShapeRecord& wall) const;

    // Whether a shape whose sweep meets `wall` part way may still take its
    // end pose, in the last sweep at the round cap: its core never touches
    // the wall on the way (so it crossed nothing) and it ends no deeper than
    // the position solver's target. Two bodies that a chain of TOI events
    // left overlapping at their sweep starts, on a floor, ping-pong: each
    // correction pushes them apart and a slop into the floor, and each sweep
    // pulls them back up their paths into each other. Before the cap every
    // hit stops a slop off the wall: a body arriving from afar needs that
    // gap for the next step's contact, and piles come to rest (keeping
    // landings in every round after the first leaves the 500-body pile
    // restless).
    bool lands_within_target(ToiInput input, const Sweep& sweep, const ShapeRecord& shape,
                             const ShapeRecord& wall);

    // The deepest the shape sinks into `wall` at `fraction` of `sweep` (>= 0,
    // L; 0 when they are apart).
    real depth_into(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                    const ShapeRecord& wall) const;

    // `fraction`, or the latest time before it at which the shape is no
    // deeper in `wall` than k_core_shrink - 1 slops (or than at the sweep's
    // start, if deeper there): the limit the core promises (see
    // k_core_shrink), which only a core made by moving its faces in does not
    // keep (static_impact).
    real limit_sinking(const Sweep& sweep, real fraction, const ShapeRecord& shape,
                       const ShapeRecord& wall) const;

    real static_impact(const Sweep& sweep, const ShapeRecord& shape, const ShapeRecord& wall,
                       bool keep_landings, bool& touching);

    // The deepest overlap at the current poses (>= 0, L) of any dynamic
    // body's shape with any shape it meets and collides with (pairs the
    // pre-solve hook disabled excepted): every pair the broadphase reports,
    // contact or not (a pair the step made no contact for is where an
    // overlap would hide).
    real measure_penetration() const;

    // Whether shape `oi` is one shape si (not a sensor) collides with:
    // another body's, not a sensor, passing the filters, not disabled by
    // the pre-solve hook this step.
    bool is_partner(int si, int oi) const {
        const ShapeRecord& s = shapes[si];
        const ShapeRecord& o = shapes[oi];
        return o.body != s.body && !o.sensor && may_collide(s, o) && !is_disabled(si, oi);
    }

    // `visit(other)` for every shape, static or moving, whose broadphase box
    // meets `box` and that is_partner of shape si (not a sensor).
    template <class Visit>
    void for_each_partner_near(int si, const Aabb& box, Visit&& visit) const {
        const ShapeRecord& s = shapes[si];
        if (s.sensor) {
            return;
        }
        const auto consider = [&](std::uint64_t data) {
            const int oi = static_cast<int>(data);
            if (is_partner(si, oi)) {
                visit(oi);
            }
            return true;
        };
        query_static(box, [&](ProxyId, std::uint64_t data) { return consider(data); });
        moving_tree.query(box, ~0ull, [&](ProxyId, std::uint64_t data) { return consider(data); });
    }

    // One hit event per contact whose fastest approaching point pushed, for
    // pairs that were not touching at the end of the last step and were not
    // hit in an earlier sub-step of this one: a speculative contact stops a
    // fast body over two steps (or sub-steps), and a resting pair keeps
    // approaching by g dt, neither of which is a new hit.
    void report_hits();

    // Moving bodies whose AABB no longer meets the bounds are destroyed.
    void remove_out_of_bounds();

    // World::destroy_body's work on live body `index`: what rested on it
    // wakes, its shapes and their proxies go, its handles go stale.
    void destroy_body(int index);

    // A shape made from `sd` (checked) on live body `body`, its proxy in
    // the broadphase its body's type keeps: its index.
    int add_shape(int body, const ShapeDef& sd);

    // Shape `si`'s proxy and record go, its handles stale; its body's list
    // of shapes is the caller's to mend.
    void remove_shape(int si);

    // Body `b`'s mass properties (zero for a body that is not dynamic), its
    // centre of mass placed at its pose, and the reach of its shapes from
    // that centre (extent, inner_radius).
    void set_mass(Body& b, const BodyMass& mass);

    // Body `index`'s mass properties after its shapes changed (set_mass),
    // its velocity moved to its new centre of mass so that its motion is
    // unchanged.
    void reset_mass(int index, const BodyMass& mass);

    // World::set_body_type's work on live body `index`, checked: a dynamic
    // `type` comes with its `mass`.
    void change_type(int index, BodyType type, const BodyMass& mass);

    // Live body `id` for an apply_ call (`call`), if it is dynamic; null
    // for static and kinematic bodies, which ignore forces and impulses.
    // Errors: stale handle, a call from inside a step or a move.
    Result<Body*> dynamic_body_to_push(BodyId id, const char* call);

    // apply_force's and apply_torque's work, their input checked: `force`
    // (at `point`, world, if given) and `torque` added to body `id`'s for
    // the next step, if it is dynamic (`call` names the caller in errors).
    Result<void> add_load(BodyId id, Vec2 force, std::optional<Vec2> point, real torque,
                          const char* call);

    // apply_linear_impulse's and apply_angular_impulse's work, their input
    // checked: `impulse` (at `point`, world, if given) and the `angular`
    // impulse change body `id`'s velocities at once, if it is dynamic.
    Result<void> add_impulse(BodyId id, Vec2 impulse, std::optional<Vec2> point, real angular,
                             const char* call);

    // World::set_transform's work on live body `index`: pose `xf`, of
    // rotation `angle` (rad), checked.
    void teleport(int index, const Transform& xf, real angle);

    // Before a step moves anything: the touching pairs that rest (a
    // sleeping body against another or against something that does not
    // move into it), which the step's contact search will not see; those
    // still resting after it touch still (update_touching).
    void collect_resting();

    // The step's contacts at their final poses: pairs with a point within
    // the linear slop touch. Begin and end events are the difference from
    // the last step's touching pairs.
    void update_touching();
    // A pair resting when the step began whose sleeping body woke after the
    // contact search, measured where its bodies ended (impulses 0: none
    // were solved); false when it no longer touches or a shape is gone.
    bool measure_woken(ContactData& d, const CollideSettings& settings) const;
    // The pairs of contact c's non-chain shape with the other segments of
    // c's chain that touch at the final poses, into `out`, for a contact
    // that no longer touches: a chain hands a contact at a convex vertex to
    // the next segment as the normal turns past it (collide()'s ghost
    // rules), and that segment had no contact, having no points where the
    // step began.
    void touch_chain_handover(const Contact& c, const CollideSettings& settings,
                              std::vector<ContactData>& out) const;

    // Contact begin events for the pairs of `now` (sorted) not touching
    // before, in the order of touching_data; end events for the pairs
    // touching before and not now, in their order. One merge of the two
    // sorted lists instead of a binary search per pair (15,000 pairs in a
    // pyramid: the searches were 8 % of a step).
    void report_touching_changes(const std::vector<IndexedPair>& now);

    // The body of a shape, or a stale id once the shape is gone.
    BodyId owner_of(ShapeId id) const {
        const ShapeRecord& s = shapes[id.index];
        return s.generation == id.generation && s.body >= 0 ? body_id(s.body) : BodyId{};
    }

    // Sensors: every moving or static sensor against the moving shapes
    // (and a moving sensor against static ones) that its filter accepts and
    // that shares a point with it at the end of the step.
    void update_sensors();

    // A TimeOfImpactEvent for a body stopped at step fraction t, at its
    // current centre of mass.
    void report_stop(TimeOfImpactKind kind, int body, real t);

    // The moving tree's proxy of moving shape `shape` with own box `box`,
    // and the shape's MovingShape, made anew.
    ProxyId create_moving_proxy(const Aabb& box, int shape);

    void destroy_moving_proxy(ProxyId id) {
        shapes[moving_tree.user_data(id)].moving = false;
        moving_occupancy.remove(moving_tree.fat_aabb(id), id);
        moving_tree.destroy_proxy(id);
        ++moving_version;
        moved_proxies.complete = false;
    }

    // DynamicTree::move_proxy on the moving tree.
    bool move_moving_proxy(ProxyId id, const Aabb& box, Vec2 displacement) {
        const Aabb before = moving_tree.fat_aabb(id);
        if (!moving_tree.move_proxy(id, box, displacement)) {
            return false;
        }
        moving_occupancy.remove(before, id);
        moving_occupancy.add(moving_tree.fat_aabb(id), id);
        ++moving_version;
        const int shape = static_cast<int>(moving_tree.user_data(id));
        moved_proxies.add(shape);
        moving_of(shapes[shape]).refitted = false;
        bodies[shapes[shape].body].seen_inside.reset();
        return true;
    }

    void set_moving_fat_aabb(ProxyId id, const Aabb& fat) {
        moving_occupancy.remove(moving_tree.fat_aabb(id), id);
        moving_tree.set_fat_aabb(id, fat);
        moving_occupancy.add(fat, id);
        ++moving_version;
        const int shape = static_cast<int>(moving_tree.user_data(id));
        moved_proxies.add(shape);
        moving_of(shapes[shape]).refitted = false;
        bodies[shapes[shape].body].seen_inside.reset();
    }

    // The moving-tree boxes of a body that was moved by `displacement`
    // outside the step, by a move or a carry of length `asked` (the
    // translation asked for: a body blocked by a wall moves little, but its
    // next move is likely as long). The moved body wakes, and so does
    // whatever sleeps where it was or is now (a box on a platform that moved
    // away). In mover.cpp, its only user.
    void sync_moving_proxies(int body, Vec2 displacement, real asked);

    // Whether a pair touching at the end of the last step still does, unseen
    // by this step's contact search: a sleeping body against another or
    // against something that did not move into it.
    bool still_resting(const ContactData& d) const {
        const ShapeRecord* a = find(d.shape_a);
        const ShapeRecord* b = find(d.shape_b);
        if (!a || !b) {
            return false;
        }
        const Body& ba = bodies[a->body];
        const Body& bb = bodies[b->body];
        const auto asleep = [](const Body& x) { return x.type == BodyType::dynamic && !x.awake; };
        const auto awake = [](const Body& x) { return x.type == BodyType::dynamic && x.awake; };
        return (asleep(ba) || asleep(bb)) && !awake(ba) && !awake(bb);
    }

    // Kinematic platforms carrying what stands on them (mover.cpp): the
    // riders are found before a step moves anything and carried after.
    void find_riders();
    void carry_riders();

    // Continuous collision between moving bodies, in time order (world_toi.cpp).
    void solve_toi_events(real dt);
    void begin_toi_phase();
    void find_toi_events(int body);
    void push_wall_event(int body);
    void resolve_wall_event(const ToiEvent& e, real dt);
    void keep_poses_before_correction();
    int add_contacts_of_corrected_bodies();
    int add_contacts_of_stopped_bodies();
    int add_contacts_of_touched_walls();
    void add_contacts_of_deflected_bodies();
    template <class Flagged> int add_contacts_of_bodies(Flagged&& flagged);
    int add_contacts_near(int body);
    void find_strays();
    // The end of single_step: each awake dynamic body's shape that lies
    // outside its proxy's fat box gets a box around where it is (grown by
    // the margin, as a new proxy's), so that between steps every shape lies
    // in its box (Box2D v3 grows a shape's fat box at the end of its step
    // so). Only bodies moved since the impact phase saw them inside
    // (Body::seen_inside) are looked at. The next step's update makes such a
    // box anew from the path (MovingShape::refitted), as it does a stray's.
    void refit_strays();
    bool left_contact_box(int body);
    void push_toi_event(int shape_a, int shape_b);
    void push_toi_event(int shape_a, int shape_b, real t0, real target, real tolerance,
                        bool keep_failure);
    void search_after_graze(const ToiEvent& e, const Manifold& m);
    // After a graze at event e, whose manifold m finds the pair touching or
    // overlapping, where a body turns fast: the first time the pair's
    // overlap along its paths exceeds m's by a linear slop, sampled and
    // bisected, becomes a known event there (a turn sweeps a surface into
    // the other body away from where they touch now).
    void search_deepening(const ToiEvent& e, const Manifold& m);
    // Queues event e's pair again at step fraction t, as a known event.
    void push_known_event(const ToiEvent& e, real t);
    // The deepest overlap (L, >= 0) of event e's pair at step fraction t on
    // their paths from e.t.
    real pair_overlap_at(const ToiEvent& e, real t) const;
    bool blocked_by_static(int body, real t);
    void resolve_toi_event(const ToiEvent& e, real dt);
    // Clamps body at step fraction t (clamp_at); against kinematic body
    // `carrier` (>= 0), whose path no event changes, the rest of its step is
    // carried with it, as if fixed to it (carry_on).
    void clamp_at(int body, real t, real dt, int carrier = -1);
    // clamp_at for both bodies of event e: a dynamic body against a
    // kinematic one is carried with it.
    void clamp_pair_at(const ToiEvent& e, real dt);
    // The path from step fraction t (the body's clock) of a body clamped
    // there against kinematic body `carrier`: it ends where the carrier's
    // motion over the rest of the step takes the body's pose, rigidly; its
    // first wall on that path is an event (push_wall_event).
    void carry_on(int body, int carrier, real t, real dt);
    void advance_after_toi(int body, real t, real dt, Vec2 v, real w);
    // advance_after_toi from centre of mass c and angle `angle` (world, L,
    // rad) at step fraction t.
    void place_after_toi(int body, real t, real dt, Vec2 c, real angle, Vec2 v, real w);
    void restart_path(int body, real t, Vec2 c, real angle);
    void fit_moving_proxies(const Body& b);
    // The impact of event `e`, of a pair the solve held, whose sub-step
    // paths run into each other at step fraction t_met
    // (substep_path_meeting), at substep_path_contact_time on those paths
    // and with the velocities the sub-steps moved the bodies at there,
    // inelastic. The bodies go on from there at the velocities it leaves;
    // those the solve's contacts link them to are rebased there too
    // (rebase_on_substep_paths). Returns false, having changed nothing,
    // where it does not apply: a dynamic body of the pair has no recorded
    // sub-step path (its straight path is all there is to compare), the pair
    // bounces (the sub-steps' velocities have not had the restitution the
    // solve gave it after them: the end velocities have), the pair does not
    // touch there, or a body would pass static geometry to get there
    // (reaches_past_static).
    bool resolve_on_substep_paths(const ToiEvent& e, real t_met, real dt);
    // Whether body bi is static or kinematic, or dynamic with a recorded
    // sub-step path.
    bool on_substep_path(int bi) const;
    // The time, after the sample before t_met (and no earlier than e.t),
    // at which the shapes of `e` on their sub-step paths first overlap
    // by more than k_substep_contact_depth linear slops, found to
    // k_substep_contact_bisections halvings; the earlier end of the last
    // interval.
    real substep_path_contact_time(const ToiEvent& e, real t_met) const;
    // Whether dynamic body bi's straight sweep from its pose at its clock
    // to pose p meets static geometry no more than 2 linear slops before
    // its end (a body landed in the sub-steps touches the ground at p); a
    // static or kinematic body always does.
    bool reaches_past_static(int bi, const PathState& p);
    // Puts every dynamic body with a recorded sub-step path and a clock
    // before t that the solve's contacts link (through others) to those
    // in `placed` at its sub-step pose at t, its clock there, on a
    // straight path to the end it had (its path velocity that path's over
    // the rest of step `dt`); appends it to `placed`. A body whose
    // way there passes static geometry (reaches_past_static) stays, and
    // links no further. Without this, such a body stays on its straight
    // path, where the pose it has at t can lie far from its sub-step
    // pose: a column's bottom disc, still in the air there, met the box
    // above it, placed near the ground, and hung.
    void rebase_on_substep_paths(std::vector<int>& placed, real t, real dt);
    // contact_link_start and contact_links, built on first use in a TOI
    // phase from its first solved_contacts contacts.
    void link_contacts();
    void divert_at_toi(const ToiEvent& e, const Manifold& m, real dt);
    bool record_toi_contact(int shape_a, int shape_b, const Manifold& m);
    void report_impact_hit(int shape_a, int shape_b, const Manifold& m, real approach);
    Sweep sweep_from(const Body& b, real t) const;

    // def.velocity_iterations sweeps, then more, up to
    // k_velocity_iteration_factor times as many, while the last one still
    // changed a point's velocity by more than k_velocity_tolerance slops per
    // step: a tall stack's weight reaches its bottom rows one row a sweep,
    // and what the velocity solve leaves undone the position correction
    // has to, at several times the cost per sweep (Box2D's 5050-box pyramid
    // took 120 position sweeps a step after 8 velocity sweeps).
    void solve_velocities_until_converged(real dt);

    void single_step(real dt);
};

} // namespace sweep
