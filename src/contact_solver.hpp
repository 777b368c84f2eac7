// The velocity solve of World::step: sequential impulses with warm
// starting, Coulomb friction, a block solver for two-point manifolds and
// restitution after the solve (Catto, "Iterative Dynamics with Temporal
// Coherence", GDC 2005; Box2D 2.4's b2ContactSolver; the normal before
// friction in each sweep, and restitution, as Box2D v3's b2SolveContact and
// b2ApplyRestitution).
//
// It runs on compact copies of what the sweeps read: one SolverBody per
// body (velocities and inverse masses) and one SolverContact per contact
// (its normal, friction, effective masses and impulses), not the world's
// records (a Contact holds two manifolds; a Body its sweep, transform and
// bookkeeping). The sweeps take the contacts in colours, no two of a
// colour sharing a body that impulses move, several side by side in the
// lanes of a vector register (Box2D v3's graph colouring and wide solve):
// each lane's arithmetic is the one-by-one solve's, so a batch gives the
// same bits as its contacts solved one after the other. The one-by-one
// solve spent ~350 instructions a contact a sweep, bound by their count.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sweep/math.hpp"

namespace sweep {

/// Largest condition number for which the two normal points of a manifold
/// are solved together, in the velocity solve and the position correction
/// (Box2D's k_maxConditionNumber).
inline constexpr real k_max_condition_number = 1000;

/// A sub-step's warm start (warm_start of batches): the share of the gap
/// between a point's normal impulse and its mean that the mean closes
/// (k_impulse_mean_rate) and that the impulse applied closes
/// (k_warm_start_leak), each a sub-step. At the default 8 sub-steps, of 30
/// piles of 100 random boxes (test::add_random_box_pile) every one now has
/// a still half second, after 11 s on average, and none moves after 30 s
/// (before: 10 never had one, and still rocked at 1 to 30 cm/s after 60
/// s). The cost, while loads grow faster than their means follow: Box2D's
/// 5050-box pyramid sinks 10.8 slops in its first 4 s rather than 8, then
/// stands still (before, it still swayed at 2 mm/s after 20 s); the 40-row
/// one sinks 1.8 slops rather than 1.2. A leak of 0.01 sinks the large
/// pyramid 14.4 slops; one of 0.003 sinks it 9.4, and the piles come to
/// rest later (12.3 s on average).
inline constexpr real k_impulse_mean_rate = real(0.01);
inline constexpr real k_warm_start_leak = real(0.005);

/// The inverse masses of a contact's two bodies, A's then B's (1/kg and
/// 1/(kg L^2)); zero on a side that does not move.
struct PairMass {
    real ima = 0;
    real iia = 0;
    real imb = 0;
    real iib = 0;
};

/// J M^-1 J^T for an impulse along the unit `dir` at a point with lever
/// arms ra, rb (world, L) from the centres of mass: the inverse of the
/// point's effective mass there; 0 when neither side moves. (Inline: every
/// contact point's preparation and position push takes it.)
inline real inverse_effective_mass(const PairMass& w, Vec2 ra, Vec2 rb, Vec2 dir) {
    const real rna = cross(ra, dir);
    const real rnb = cross(rb, dir);
    return w.ima + w.imb + w.iia * rna * rna + w.iib * rnb * rnb;
}

/// 1 / inverse_effective_mass, or 0 when neither side moves.
inline real effective_mass(const PairMass& w, Vec2 ra, Vec2 rb, Vec2 dir) {
    const real k = inverse_effective_mass(w, ra, rb, dir);
    return k > 0 ? 1 / k : 0;
}

/// The normal effective mass matrix of a two-point manifold (points 1 and
/// 2 with lever arms ra, rb; unit normal n), for the block solves of the
/// velocity solve and the position correction (Box2D 2.4's block solver).
struct BlockMatrix {
    real k11 = 0;
    real k12 = 0;
    real k22 = 0;
    /// Its condition number is below k_max_condition_number: the two
    /// points can be solved together.
    bool well_conditioned = false;
};

BlockMatrix block_matrix(const PairMass& w, Vec2 ra1, Vec2 rb1, Vec2 ra2, Vec2 rb2, Vec2 n);

/// Both normal impulses of a two-point manifold at once: the 2x2 linear
/// complementarity problem K x + b >= 0, x >= 0, x . (K x + b) = 0, solved
/// by enumerating its four cases (Box2D 2.4's block solver). `b`: the
/// points' normal speeds less their targets, with the old impulses' share
/// (K times them) removed. Returns the new accumulated impulses; nullopt
/// when no case holds (numerical trouble), and the caller keeps the old.
std::optional<std::array<real, 2>> solve_block_lcp(const BlockMatrix& k, real b1, real b2);

/// What the velocity solve reads and writes of a body. Static and
/// kinematic bodies have zero inverse masses: impulses do not move them.
struct SolverBody {
    Vec2 v;                ///< L/s, of the centre of mass
    real w = 0;            ///< rad/s
    real inv_mass = 0;     ///< 1/kg
    real inv_inertia = 0;  ///< 1/(kg L^2), about the centre of mass
};

/// A body's motion so far in a sub-stepped solve: its centre of mass
/// moved by `dp` (L) and its frame turned by the rotation (c, s) = (cos,
/// sin) of its angle's change since the step began.
struct BodyMotion {
    Vec2 dp;
    real c = 1;
    real s = 0;
};

/// One manifold point of a contact, as the solve sees it.
struct SolverPoint {
    Vec2 ra; ///< the point relative to A's centre of mass, world, L
    Vec2 rb; ///< the point relative to B's centre of mass, world, L
    real normal_mass = 0;     ///< effective mass along the normal
    real tangent_mass = 0;    ///< effective mass along the tangent
    real normal_impulse = 0;  ///< accumulated, warm started from the last step
    real tangent_impulse = 0; ///< accumulated, warm started from the last step
    real target_speed = 0;    ///< normal speed aimed for: -gap/dt for a speculative point, else 0
    real approach_speed = 0;  ///< normal speed before the solve (negative approaches), for restitution
    real max_normal_impulse = 0; ///< the largest normal impulse of the solve: did it push?
    /// The normal impulse the step's solve applied in all, the sub-steps'
    /// summed (each applies its accumulated impulse: add_substep_impulses):
    /// the bounce's variable (apply_restitution). Summed only in a step
    /// where some contact bounces; 0 otherwise.
    real step_normal_impulse = 0;
    /// The point's separation (L) at the step's start minus dot(rb - ra,
    /// normal): plus dot of the anchors' current offset, it is the current
    /// separation (sub-stepped solve).
    real base_separation = 0;
    /// The normal impulse low-passed over the sub-steps (at
    /// k_impulse_mean_rate a sub-step), which a sub-step's warm start pulls
    /// the accumulated one towards (k_warm_start_leak): see warm_start.
    real mean_normal_impulse = 0;
};

/// One contact, as the solve sees it: bodies by index into the solver's
/// bodies, the manifold's normal (from A to B), its points.
struct SolverContact {
    int body_a = -1;
    int body_b = -1;
    Vec2 normal;
    real friction = 0;
    real restitution = 0;
    int count = 0; ///< points, 1 or 2
    /// Two points solved together (solve_block): false for one point or an
    /// ill-conditioned matrix.
    bool block = false;
    real k11 = 0; ///< the two-point effective mass matrix (block)
    real k12 = 0;
    real k22 = 0;
    /// A side is a circle: its points stay where its centre's motion takes
    /// them however it turns (SubstepTargets), as a rolling disc's do.
    bool round_a = false;
    bool round_b = false;
    /// Rolling resistance (L): the most angular impulse about the normal
    /// per unit of the points' normal impulse (Material::rolling_resistance
    /// times the larger rounding radius); 0: none.
    real rolling_resistance = 0;
    real rolling_mass = 0;    ///< 1 / (the bodies' inverse inertias summed), 0 if neither turns
    real rolling_impulse = 0; ///< accumulated this step (kg L^2/s)
    std::array<SolverPoint, 2> points{};
};

/// Contacts solved side by side, one per lane: as many as a 32-byte
/// vector register (AVX) holds reals, 8 floats or 4 doubles. On a CPU
/// without AVX the same batches run in pairs of 16-byte registers (SSE2,
/// NEON): the same batches and arithmetic, so the same bits on every CPU.
inline constexpr int k_lanes = static_cast<int>(32 / sizeof(real));

/// The batches' vectors are aligned to their size in every translation
/// unit: GCC without AVX gives a 32-byte vector 16-byte alignment, while
/// the AVX copy of the solve loads them as aligned to 32.
inline constexpr std::size_t k_lane_bytes = k_lanes * sizeof(real);

/// k_lanes reals, one per lane (GCC and Clang vector extensions: plain
/// arithmetic on them works lane by lane).
using Lanes [[gnu::vector_size(k_lane_bytes), gnu::aligned(k_lane_bytes)]] = real;
/// A lane mask: all bits set where a comparison of Lanes holds.
using LaneMask [[gnu::aligned(k_lane_bytes)]] = decltype(Lanes{} < Lanes{});

/// One point of k_lanes contacts (SolverPoint, a field per member).
struct PointLanes {
    Lanes rax, ray, rbx, rby;
    Lanes normal_mass, tangent_mass, normal_impulse, tangent_impulse, target_speed,
        max_normal_impulse, base_separation;
    LaneMask active; ///< the contact has this point
    Lanes step_normal_impulse; ///< (not read by the sweeps)
    Lanes mean_normal_impulse; ///< (read by the sub-steps' warm start alone)
};

/// k_lanes contacts of one colour, which share no body that impulses move.
struct ContactBatch {
    std::array<int, k_lanes> body_a{};
    std::array<int, k_lanes> body_b{};
    Lanes nx, ny, friction, k11, k12, k22;
    /// The bodies' inverse masses (SolverBody's, fixed for the step).
    Lanes inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b;
    LaneMask block; ///< solve_block's contacts
    LaneMask round_a, round_b; ///< SolverContact::round_a, round_b
    Lanes rolling_resistance, rolling_mass, rolling_impulse; ///< SolverContact's
    bool rolling = false; ///< a lane has rolling resistance
    bool blocks = false;  ///< a lane is a block (SolverContact::block)
    bool singles = false; ///< a lane has points solved one by one (no block)
    int points_solved = 0; ///< the most points of a lane's contact: the others hold none
    std::array<PointLanes, 2> points;
};

/// The contacts packed for the sweeps (pack_contacts). The velocity solve
/// takes them in colours, no two contacts of a colour sharing a body that
/// impulses move (static and kinematic bodies are shared freely), k_lanes
/// at a time, side by side in vector registers (the colouring and
/// wide solve of Box2D v3's solver, b2_graphColorCount and b2FloatW).
/// Contacts no colour takes are solved one by one after the batches.
struct ContactBatches {
    std::vector<ContactBatch> batches;
    std::vector<int> lanes; ///< per batch, k_lanes contact indices (-1: an empty lane)
    std::vector<int> rest;  ///< contacts no colour took, in their order
    // Scratch, kept between steps so that packing does not allocate.
    std::vector<std::uint64_t> used; // per colour, a bit per body
    std::vector<std::vector<int>> members; // per colour and lane kind, its contacts
    std::vector<int> ordered;              // a colour's contacts, blocks first
};

/// Packs the contacts (prepared) into batches, greedily in their order:
/// deterministic. Within a colour, blocks come first, then the other
/// two-point contacts, then the one-point ones, so that most batches hold
/// one kind and the sweeps skip the others' work (ContactBatch::blocks,
/// singles, points_solved); a colour's contacts share no moved body, so
/// that order changes no result. `empty_body` indexes a body with no mass
/// and no velocity, which empty lanes use.
void pack_contacts(std::span<const SolverContact> contacts, std::span<const SolverBody> bodies,
                   int empty_body, ContactBatches& out);

/// The batches' impulses back to their contacts.
void unpack_contacts(const ContactBatches& batches, std::span<SolverContact> contacts);

/// `visit(batch, lane, contact index)` for each lane of the batches that
/// holds a contact, in order.
template <class Visit> void for_each_lane(const ContactBatches& batches, Visit&& visit) {
    for (std::size_t k = 0; k < batches.batches.size(); ++k) {
        for (int l = 0; l < k_lanes; ++l) {
            const int ci = batches.lanes[k * k_lanes + static_cast<std::size_t>(l)];
            if (ci >= 0) {
                visit(batches.batches[k], l, ci);
            }
        }
    }
}

/// A contact point's impulses as the solve left them (kg L/s): SolverPoint's
/// normal_impulse, tangent_impulse, max_normal_impulse and
/// mean_normal_impulse.
struct SolvedImpulse {
    real normal = 0;
    real tangent = 0;
    real max_normal = 0;
    real mean_normal = 0;
};

/// Each contact point's impulses as the solve left them, read where they
/// are rather than unpacked first (a step without restitution, which reads
/// and changes them in `contacts`, needs no copy there: unpack_contacts):
/// `visit(contact index, point index, SolvedImpulse)`, from the batches'
/// lanes and, for the contacts no colour took, from `contacts`, where they
/// were solved.
template <class Visit>
void visit_solved_impulses(const ContactBatches& batches, std::span<const SolverContact> contacts,
                           Visit&& visit) {
    for_each_lane(batches, [&](const ContactBatch& batch, int l, int ci) {
        // (Its points from the lane's, not from `contacts`: the lanes are
        // read in order, the contacts in none.)
        for (int i = 0; i < 2 && batch.points[static_cast<std::size_t>(i)].active[l] != 0; ++i) {
            const PointLanes& q = batch.points[static_cast<std::size_t>(i)];
            visit(ci, i,
                  SolvedImpulse{q.normal_impulse[l], q.tangent_impulse[l], q.max_normal_impulse[l],
                                q.mean_normal_impulse[l]});
        }
    });
    for (const int ci : batches.rest) {
        const SolverContact& c = contacts[static_cast<std::size_t>(ci)];
        for (int i = 0; i < c.count; ++i) {
            const SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            visit(ci, i,
                  SolvedImpulse{p.normal_impulse, p.tangent_impulse, p.max_normal_impulse,
                                p.mean_normal_impulse});
        }
    }
}

/// Fills the contact's effective masses, block matrix and approach speeds
/// from its points' lever arms and the bodies' velocities; `dt` (s) sets
/// the speculative points' target speeds from `separations` (L).
void prepare_contact(SolverContact& c, std::span<const SolverBody> bodies,
                     const std::array<real, 2>& separations, real dt);

/// Applies every contact's accumulated impulses (last step's, carried over).
void warm_start(std::span<const SolverContact> contacts, std::span<SolverBody> bodies);

/// The instruction sets the batches can be solved with.
enum class LaneIsa {
    baseline, ///< the compiler's default for the target (SSE2 on x86-64)
    avx,      ///< x86 AVX: a batch's lanes in one register
};

/// The widest LaneIsa this CPU runs (asked once): avx on an x86 CPU with
/// AVX where the compiler could make the AVX copy, else baseline.
LaneIsa best_lane_isa();

/// One sweep over the contacts, the normal at each before rolling
/// resistance and friction (bounded by the normal impulse just solved): the
/// batches (with `isa`, which the CPU must run), then the rest. Returns
/// the largest change it made to a point's relative speed (L/s): how far
/// from converged the sweep before it left them. Every isa gives the same
/// bits.
real solve_velocities(ContactBatches& batches, std::span<SolverContact> contacts,
                      std::span<SolverBody> bodies, LaneIsa isa = best_lane_isa());

/// What a sub-step's sweep aims each point's normal speed at. The point's
/// separation is its separation at the step's start moved by its bodies'
/// motion so far (anchors fixed in the bodies, but for a circle's, which
/// move with its centre; the normal fixed): a gap
/// may close within the sub-step (speed -separation/h); a penetration
/// deeper than `slop` is pushed out at `push_rate` times the excess, at
/// most `max_push`, in the sweep that pushes and not in the relax sweeps
/// after the positions moved (Catto, "Solver2D", 2024: the soft step's
/// sub-stepping and relaxing, here with a rigid contact and a bounded
/// Baumgarte push).
struct SubstepTargets {
    std::span<const BodyMotion> motions; ///< by body, as the solve's bodies
    real inv_h = 0;     ///< 1/s: one over the sub-step
    real slop = 0;      ///< L: penetration left alone
    real push_rate = 0; ///< 1/s
    real max_push = 0;  ///< L/s
    bool push = true;   ///< false: a relax sweep
    /// false: the targets the last sweep set stand (neither the motions nor
    /// `push` changed since), so the sweep skips setting them.
    bool aim = true;
    /// true: the sweep measures the largest change it makes (as
    /// solve_velocities does) and returns it.
    bool measure = false;
    /// By body (as the solve's bodies), if not empty: the number of the
    /// last sweep in which a contact changed a point's speed by more than
    /// `mark` (L/s) and moved the body (impulses move it). A measured
    /// sweep writes it.
    std::span<int> disturbed;
    int sweep = 0; ///< this sweep's number, for `disturbed`
    real mark = 0; ///< L/s
    /// true: the sweep solves only the batches with a body disturbed in
    /// this sweep or the one before (a sweep that measures, with
    /// `disturbed`; the others solve every batch). The others' bodies
    /// have changed by no more than `mark` a sweep since the batch was last
    /// solved, which left it within that of converged: the sweeps that go
    /// on after an impact then cost as much as the impact's reach, not as
    /// the whole world (the contacts no colour took are solved anyway).
    bool focus = false;
    /// The factor ω by which a focused sweep over-relaxes the normal
    /// impulse of each point in touch (projected successive
    /// over-relaxation: the impulse moves ω times as far as Gauss-Seidel's
    /// step, and stays at or above zero): 1 is Gauss-Seidel. A point is in
    /// touch when its target speed is at least -touch_speed (L/s): it
    /// overlaps, or the sub-step would close its gap at no more than that.
    /// Speculative points farther apart are not over-relaxed: an impulse
    /// there sent past Gauss-Seidel's stops the bodies short of where they
    /// meet (a column landing at 21 L/s stopped 0.33 L above the ground).
    real over_relaxation = 1;
    real touch_speed = 0;
};

/// One sweep of a sub-step: each point's target speed from `targets`
/// (unless they do not aim), then the sweep of solve_velocities.
real solve_substep(ContactBatches& batches, std::span<SolverContact> contacts,
                   std::span<SolverBody> bodies, const SubstepTargets& targets,
                   LaneIsa isa = best_lane_isa());

/// A sub-step's warm start: applies the batches' (and the rest's)
/// accumulated impulses, as warm_start does with the contacts' before
/// packing, after damping each point's memory of them. A warm-started
/// Gauss-Seidel solve carries a slowly converging mode of a pile (a column
/// of boxes bending over its contacts) from sub-step to sub-step as a
/// lightly damped oscillator: with r the share of the mode's error a
/// sub-step's sweeps leave, the sub-step maps (speed error, impulse error)
/// by eigenvalues r +- i sqrt(r - r^2), of modulus sqrt(r), so a mode the
/// sweeps reduce slowly (r near 1) swings with a period of 2 pi / sqrt(1 -
/// r) sub-steps and barely decays; a pile of 100 random boxes rocked so
/// for ever (at 1 to 30 cm/s, never asleep), and more sweeps only shortened
/// the swing. So each point's normal impulse is low-passed over the
/// sub-steps (mean_normal_impulse, at k_impulse_mean_rate a sub-step) and
/// the impulse applied is pulled towards that mean by k_warm_start_leak of
/// their difference first: a steady impulse is untouched (the mean equals
/// it), a swinging one is damped (in the linear model, a mode with r =
/// 0.9997 decays 20 times faster).
void warm_start(ContactBatches& batches, std::span<SolverContact> contacts,
                std::span<SolverBody> bodies, LaneIsa isa = best_lane_isa());

/// Multiplies every accumulated impulse, in the batches and in the rest,
/// by `factor`: a step's impulses to a sub-step's and back.
void scale_impulses(ContactBatches& batches, std::span<SolverContact> contacts, real factor);

/// Adds every point's accumulated normal impulse, in the batches and in
/// the rest, to its step_normal_impulse: at the end of each sub-step (whose
/// warm start and sweeps applied that impulse in all), or once after a
/// one-step solve.
void add_substep_impulses(ContactBatches& batches, std::span<SolverContact> contacts);

/// Bounce after the solve, once the points that pushed are known: a point
/// that approached faster than `restitution_threshold` (L/s) and pushed
/// leaves at its contact's restitution times its approach speed, unless it
/// leaves faster with none of the step's normal impulse left on it. The
/// variable is the impulse the whole step applied at the point
/// (step_normal_impulse, kept at or above zero), not the last sub-step's:
/// so the bounce may take back a push the sub-steps gave a point that a
/// spin then carried away, and a frictionless bounce at e = 1 keeps the
/// pair's kinetic energy (with the impulses P the step applied in all,
/// ΔKE = Σ Pᵢ (vᵢ,before + vᵢ,after) / 2, zero when each point either
/// reverses its speed or holds no impulse). With the last sub-step's
/// impulse as the variable, two boxes spun at 3 and 6 rad/s, one struck on
/// a face, left with 12 % more energy. The two points of a block contact that both
/// bounce are solved together (solve_block_lcp): one after the other, the
/// second undid the first's bounce in part, and an elastic box struck off
/// the centre of its face left with up to 37 % more energy, or 40 % less,
/// than it came with. Two points too near one constraint for the block
/// solve (prepare_block) bounce as the faster-approaching one. (One pass,
/// as Box2D v3's b2ApplyRestitution, for the rest.)
void apply_restitution(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                       real restitution_threshold);

} // namespace sweep
