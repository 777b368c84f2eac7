#include "contact_solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

// The batches get a copy compiled for AVX where the compiler can make one
// and the CPU can be asked whether it runs it (solve_batches_avx).
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define SWEEP_AVX_LANES 1
#else
#define SWEEP_AVX_LANES 0
#endif

// The batches' bodies are gathered and scattered four lanes at a time, a
// body's first four reals a 16-byte row transposed into lanes, where SSE
// has the rows (four floats).
#if defined(__SSE2__) && !defined(SWEEP_DOUBLE)
#include <xmmintrin.h>
#define SWEEP_SSE_ROWS 1
#else
#define SWEEP_SSE_ROWS 0
#endif

namespace sweep {
namespace {

Vec2 relative_velocity(const SolverBody& a, const SolverBody& b, const SolverPoint& p) {
    return (b.v + cross(b.w, p.rb)) - (a.v + cross(a.w, p.ra));
}

void apply_impulse(SolverBody& a, SolverBody& b, const SolverPoint& p, Vec2 impulse) {
    a.v -= a.inv_mass * impulse;
    a.w -= a.inv_inertia * cross(p.ra, impulse);
    b.v += b.inv_mass * impulse;
    b.w += b.inv_inertia * cross(p.rb, impulse);
}

PairMass pair_mass(const SolverBody& a, const SolverBody& b) {
    return {a.inv_mass, a.inv_inertia, b.inv_mass, b.inv_inertia};
}

void prepare_block(SolverContact& c, const SolverBody& a, const SolverBody& b) {
    c.block = false;
    if (c.count != 2) {
        return;
    }
    const SolverPoint& p1 = c.points[0];
    const SolverPoint& p2 = c.points[1];
    const BlockMatrix k = block_matrix(pair_mass(a, b), p1.ra, p1.rb, p2.ra, p2.rb, c.normal);
    c.k11 = k.k11;
    c.k12 = k.k12;
    c.k22 = k.k22;
    c.block = k.well_conditioned;
}

// The block problem of a two-point contact whose points hold impulses
// `held` and aim at normal speeds `target`: the speeds to cancel with the
// held impulses taken out (vn - target - K held), solved (solve_block_lcp).
std::optional<std::array<real, 2>> solve_block_of(const SolverContact& c, const SolverBody& a,
                                                  const SolverBody& b,
                                                  const std::array<real, 2>& held,
                                                  const std::array<real, 2>& target) {
    const Vec2 n = c.normal;
    const real b1 = dot(relative_velocity(a, b, c.points[0]), n) - target[0] -
                    (c.k11 * held[0] + c.k12 * held[1]);
    const real b2 = dot(relative_velocity(a, b, c.points[1]), n) - target[1] -
                    (c.k12 * held[0] + c.k22 * held[1]);
    return solve_block_lcp({c.k11, c.k12, c.k22, true}, b1, b2);
}

// The over-relaxation factor of a point with target speed `target`
// (SubstepTargets::over_relaxation, touch_speed); 1 without targets.
real over_relaxation_of(real target, const SubstepTargets* t) {
    return t && target >= -t->touch_speed ? t->over_relaxation : real(1);
}

// Both normal impulses of a two-point manifold at once (solve_block_of),
// over-relaxed as `t` says (none without it). Solving the points one after
// the other makes a resting box rock, and a stack drift. Returns the
// change of the points' normal speeds; 0, the impulses kept, when no case
// of the problem holds.
real solve_block(SolverContact& c, SolverBody& a, SolverBody& b, const SubstepTargets* t) {
    const Vec2 n = c.normal;
    SolverPoint& p1 = c.points[0];
    SolverPoint& p2 = c.points[1];
    const real a1 = p1.normal_impulse;
    const real a2 = p2.normal_impulse;
    const std::optional<std::array<real, 2>> x =
        solve_block_of(c, a, b, {a1, a2}, {p1.target_speed, p2.target_speed});
    if (!x) {
        return 0;
    }
    real x1 = (*x)[0];
    real x2 = (*x)[1];
    if (t && t->over_relaxation != 1) {
        x1 = std::max(a1 + over_relaxation_of(p1.target_speed, t) * (x1 - a1), real(0));
        x2 = std::max(a2 + over_relaxation_of(p2.target_speed, t) * (x2 - a2), real(0));
    }
    p1.normal_impulse = x1;
    p2.normal_impulse = x2;
    p1.max_normal_impulse = std::max(p1.max_normal_impulse, x1);
    p2.max_normal_impulse = std::max(p2.max_normal_impulse, x2);
    apply_impulse(a, b, p1, (x1 - a1) * n);
    apply_impulse(a, b, p2, (x2 - a2) * n);
    // The change of the two points' normal speeds: K times the impulses'.
    const real d1 = x1 - a1;
    const real d2 = x2 - a2;
    return std::max(std::abs(c.k11 * d1 + c.k12 * d2), std::abs(c.k12 * d1 + c.k22 * d2));
}

} // namespace

std::optional<std::array<real, 2>> solve_block_lcp(const BlockMatrix& k, real b1, real b2) {
    const real det = k.k11 * k.k22 - k.k12 * k.k12;
    real x1 = -(k.k22 * b1 - k.k12 * b2) / det; // both points push
    real x2 = -(k.k11 * b2 - k.k12 * b1) / det;
    if (x1 < 0 || x2 < 0) {
        x1 = -b1 / k.k11; // only point 1 pushes; point 2 must be separating
        x2 = 0;
        if (x1 < 0 || k.k12 * x1 + b2 < 0) {
            x1 = 0; // only point 2 pushes
            x2 = -b2 / k.k22;
            if (x2 < 0 || k.k12 * x2 + b1 < 0) {
                x2 = 0; // neither pushes: both must be separating
                if (b1 < 0 || b2 < 0) {
                    return std::nullopt;
                }
            }
        }
    }
    return std::array<real, 2>{x1, x2};
}

namespace {

// The change of a point's speed along a direction that an impulse
// `lambda` along it makes, given the point's effective mass there.
real speed_change(real lambda, real mass) { return mass > 0 ? std::abs(lambda) / mass : 0; }

// Rolling resistance: an angular impulse against the bodies' relative
// spin, at most the contact's rolling resistance times its points' normal
// impulse (Box2D v3.1's b2SolveContact). A torque, not a force at a
// point, so it leaves the points' speeds alone: the sweep's change (a
// convergence measure of the points' speeds) does not count it.
void solve_rolling(SolverContact& c, SolverBody& a, SolverBody& b) {
    const real most = c.rolling_resistance * (c.points[0].normal_impulse +
                                              (c.count == 2 ? c.points[1].normal_impulse : 0));
    const real next = std::clamp(c.rolling_impulse - c.rolling_mass * (b.w - a.w), -most, most);
    const real lambda = next - c.rolling_impulse;
    c.rolling_impulse = next;
    a.w -= a.inv_inertia * lambda;
    b.w += b.inv_inertia * lambda;
}

// A contact's friction, point by point: the tangent impulse within
// friction times the point's normal impulse (Coulomb's law). Returns the
// largest change it made to a point's relative speed (L/s).
real solve_friction(SolverContact& c, SolverBody& a, SolverBody& b) {
    real change = 0;
    const Vec2 t = right_perp(c.normal);
    for (int i = 0; i < c.count; ++i) {
        SolverPoint& p = c.points[static_cast<std::size_t>(i)];
        if (p.normal_impulse == 0 && p.tangent_impulse == 0) {
            continue; // Coulomb's cone is a point there: no friction impulse
        }
        const real vt = dot(relative_velocity(a, b, p), t);
        const real max_friction = c.friction * p.normal_impulse; // Coulomb's law
        const real new_impulse =
            std::clamp(p.tangent_impulse - p.tangent_mass * vt, -max_friction, max_friction);
        const real lambda = new_impulse - p.tangent_impulse;
        p.tangent_impulse = new_impulse;
        apply_impulse(a, b, p, lambda * t);
        change = std::max(change, speed_change(lambda, p.tangent_mass));
    }
    return change;
}

// One contact of the sweep: the normal (over-relaxed as `t` says, if
// given), then rolling resistance and friction, bounded by the normal
// impulse just solved (Box2D v3's b2SolveContact order), so that every
// sweep leaves each point within Coulomb's cone (friction solved first,
// bounded by the normal impulse of the sweep before, left a fifth of a
// sliding pile's points beyond it). Returns the largest change it made to
// a point's relative speed (L/s).
real solve_contact(SolverContact& c, SolverBody& a, SolverBody& b,
                   const SubstepTargets* t = nullptr) {
    real change = 0;
    if (c.block) {
        change = solve_block(c, a, b, t);
    } else {
        const Vec2 n = c.normal;
        for (int i = 0; i < c.count; ++i) {
            SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            const real vn = dot(relative_velocity(a, b, p), n);
            const real mass = over_relaxation_of(p.target_speed, t) * p.normal_mass;
            const real new_impulse =
                std::max(p.normal_impulse - mass * (vn - p.target_speed), real(0));
            const real lambda = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse = std::max(p.max_normal_impulse, new_impulse);
            apply_impulse(a, b, p, lambda * n);
            change = std::max(change, speed_change(lambda, p.normal_mass));
        }
    }
    if (c.rolling_resistance > 0) {
        solve_rolling(c, a, b);
    }
    return std::max(change, solve_friction(c, a, b));
}

// The separation of a point after its bodies' motion so far (SubstepTargets).
// A lever arm turned by the body's rotation so far.
Vec2 turned(Vec2 r, const BodyMotion& m) { return {m.c * r.x - m.s * r.y, m.s * r.x + m.c * r.y}; }

real moved_separation(const SolverContact& c, const SolverPoint& p, const BodyMotion& a,
                      const BodyMotion& b) {
    const Vec2 qa = c.round_a ? p.ra : turned(p.ra, a);
    const Vec2 qb = c.round_b ? p.rb : turned(p.rb, b);
    return p.base_separation + dot((b.dp - a.dp) + (qb - qa), c.normal);
}

real substep_target(real separation, const SubstepTargets& t) {
    if (separation > 0) {
        return -separation * t.inv_h;
    }
    return t.push ? std::min(t.push_rate * std::max(-separation - t.slop, real(0)), t.max_push)
                  : real(0);
}

void set_targets(SolverContact& c, const SubstepTargets& t) {
    const BodyMotion& a = t.motions[static_cast<std::size_t>(c.body_a)];
    const BodyMotion& b = t.motions[static_cast<std::size_t>(c.body_b)];
    for (int i = 0; i < c.count; ++i) {
        SolverPoint& p = c.points[static_cast<std::size_t>(i)];
        p.target_speed = substep_target(moved_separation(c, p, a, b), t);
    }
}

// --- k_lanes contacts at once: solve_contact lane by lane, each lane's
// arithmetic the same as solve_contact's, and masks where it branches.
// Every function here is inlined into the copies of solve_batches (below),
// each compiled for its instruction set: no vector passes between code of
// two instruction sets, and no copy calls code the CPU may not have. So
// the compilers' note that passing 32-byte vectors changes with AVX does
// not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

// The vector conditional: in the AVX copy a blend, after a compare of the
// mask as reals (AVX has no 256-bit integer compare: a conditional on the
// integer mask went lane by lane), where the mask and-ed and or-ed took
// three instructions; the same bits either way. A conditional on a
// comparison of Lanes (max_of and the rest) blends on that comparison's
// result: two instructions where select took four.
[[gnu::always_inline]] inline
Lanes select(LaneMask m, Lanes yes, Lanes no) {
    return __builtin_bit_cast(Lanes, m) != Lanes{} ? yes : no;
}

// select(m, x, 0): one and.
[[gnu::always_inline]] inline Lanes masked(LaneMask m, Lanes x) {
    return __builtin_bit_cast(Lanes, m & __builtin_bit_cast(LaneMask, x));
}

// std::max(a, b) and std::clamp(v, lo, hi), lane by lane.
[[gnu::always_inline]] inline Lanes max_of(Lanes a, Lanes b) { return a < b ? b : a; }
[[gnu::always_inline]] inline
Lanes clamp_of(Lanes v, Lanes lo, Lanes hi) {
    return v < lo ? lo : (hi < v ? hi : v);
}

[[gnu::always_inline]] inline
Lanes speed_change(Lanes lambda, Lanes mass) {
    const Lanes magnitude = lambda < 0 ? -lambda : lambda;
    return mass > 0 ? magnitude / (mass > 0 ? mass : Lanes{} + 1) : Lanes{};
}

// Four Lanes: the first four reals of each lane's record (a SolverBody's
// velocities and inverse mass, a BodyMotion), one Lanes a real.
struct RowLanes {
    Lanes r0, r1, r2, r3;
};

// The records whose rows are gathered: their first four reals.
static_assert(offsetof(SolverBody, v) == 0 && offsetof(SolverBody, w) == 2 * sizeof(real) &&
              offsetof(SolverBody, inv_mass) == 3 * sizeof(real));
static_assert(offsetof(BodyMotion, dp) == 0 && offsetof(BodyMotion, c) == 2 * sizeof(real) &&
              offsetof(BodyMotion, s) == 3 * sizeof(real));

#if SWEEP_SSE_ROWS
static_assert(k_lanes == 8);

[[gnu::always_inline]] inline Lanes join(__m128 lower, __m128 upper) {
    return __builtin_shufflevector(lower, upper, 0, 1, 2, 3, 4, 5, 6, 7);
}

[[gnu::always_inline]] inline __m128 lower_half(Lanes v) {
    return __builtin_shufflevector(v, v, 0, 1, 2, 3);
}

[[gnu::always_inline]] inline __m128 upper_half(Lanes v) {
    return __builtin_shufflevector(v, v, 4, 5, 6, 7);
}
#endif

// The rows of records `index` (records of `stride` bytes from `base`,
// each beginning with four reals) as lanes: 8 loads and two 4 x 4
// transposes rather than 32 loads and inserts.
[[gnu::always_inline]] inline RowLanes gather_rows(const std::byte* base, std::size_t stride,
                                                   const std::array<int, k_lanes>& index) {
    const auto row = [&](int l) {
        return base + stride * static_cast<std::size_t>(index[static_cast<std::size_t>(l)]);
    };
    RowLanes out;
#if SWEEP_SSE_ROWS
    const auto load = [&](int l) { return _mm_loadu_ps(reinterpret_cast<const float*>(row(l))); };
    __m128 a0 = load(0), a1 = load(1), a2 = load(2), a3 = load(3);
    __m128 b0 = load(4), b1 = load(5), b2 = load(6), b3 = load(7);
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
    _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
    out = {join(a0, b0), join(a1, b1), join(a2, b2), join(a3, b3)};
#else
    for (int l = 0; l < k_lanes; ++l) {
        std::array<real, 4> r;
        std::memcpy(r.data(), row(l), sizeof r);
        out.r0[l] = r[0];
        out.r1[l] = r[1];
        out.r2[l] = r[2];
        out.r3[l] = r[3];
    }
#endif
    return out;
}

// The rows back into the records, lane by lane in order (a record two
// lanes name gets the later lane's row).
[[gnu::always_inline]] inline void scatter_rows(const RowLanes& in, std::byte* base,
                                                std::size_t stride,
                                                const std::array<int, k_lanes>& index) {
    const auto row = [&](int l) {
        return base + stride * static_cast<std::size_t>(index[static_cast<std::size_t>(l)]);
    };
#if SWEEP_SSE_ROWS
    const auto store = [&](int l, __m128 v) { _mm_storeu_ps(reinterpret_cast<float*>(row(l)), v); };
    __m128 a0 = lower_half(in.r0), a1 = lower_half(in.r1), a2 = lower_half(in.r2),
           a3 = lower_half(in.r3);
    __m128 b0 = upper_half(in.r0), b1 = upper_half(in.r1), b2 = upper_half(in.r2),
           b3 = upper_half(in.r3);
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
    _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
    store(0, a0);
    store(1, a1);
    store(2, a2);
    store(3, a3);
    store(4, b0);
    store(5, b1);
    store(6, b2);
    store(7, b3);
#else
    for (int l = 0; l < k_lanes; ++l) {
        const std::array<real, 4> r{in.r0[l], in.r1[l], in.r2[l], in.r3[l]};
        std::memcpy(row(l), r.data(), sizeof r);
    }
#endif
}

// What the batch reads and writes of its bodies. `kept`: each lane's
// body's SolverBody::inv_mass, read with its velocities and written back
// unchanged.
struct BodyLanes {
    Lanes vx, vy, w, kept, inv_mass, inv_inertia;
};

// The bodies' velocities; their inverse masses, fixed for the step, were
// packed with the batch (only what changes is gathered lane by lane).
[[gnu::always_inline]] inline
BodyLanes gather(std::span<const SolverBody> bodies, const std::array<int, k_lanes>& index,
                 Lanes inv_mass, Lanes inv_inertia) {
    const RowLanes rows =
        gather_rows(reinterpret_cast<const std::byte*>(bodies.data()), sizeof(SolverBody), index);
    return {rows.r0, rows.r1, rows.r2, rows.r3, inv_mass, inv_inertia};
}

[[gnu::always_inline]] inline
void scatter(const BodyLanes& in, std::span<SolverBody> bodies,
             const std::array<int, k_lanes>& index) {
    scatter_rows({in.vx, in.vy, in.w, in.kept}, reinterpret_cast<std::byte*>(bodies.data()),
                 sizeof(SolverBody), index);
}

// relative_velocity along (dx, dy): dot((b.v + cross(b.w, rb)) - (a.v + cross(a.w, ra)), d).
[[gnu::always_inline]] inline
Lanes relative_speed(const BodyLanes& a, const BodyLanes& b, const PointLanes& p, Lanes dx,
                     Lanes dy) {
    const Lanes rx = (b.vx + -b.w * p.rby) - (a.vx + -a.w * p.ray);
    const Lanes ry = (b.vy + b.w * p.rbx) - (a.vy + a.w * p.rax);
    return rx * dx + ry * dy;
}

// apply_impulse with the impulse lambda * (dx, dy).
[[gnu::always_inline]] inline
void apply_impulse(BodyLanes& a, BodyLanes& b, const PointLanes& p, Lanes lambda, Lanes dx,
                   Lanes dy) {
    const Lanes px = lambda * dx;
    const Lanes py = lambda * dy;
    a.vx -= a.inv_mass * px;
    a.vy -= a.inv_mass * py;
    a.w -= a.inv_inertia * (p.rax * py - p.ray * px);
    b.vx += b.inv_mass * px;
    b.vy += b.inv_mass * py;
    b.w += b.inv_inertia * (p.rbx * py - p.rby * px);
}

// over_relaxation_of, lane by lane.
[[gnu::always_inline]] inline Lanes over_relaxation_of(Lanes target, const SubstepTargets& t) {
    const Lanes zero{};
    return target < zero - t.touch_speed ? zero + 1 : zero + t.over_relaxation;
}

// solve_block's four cases, chosen lane by lane, over-relaxed as `t` says
// when `over_relax`; lanes where none holds (or that are no block) keep
// their impulses. Returns the change of the points' normal speeds, 0 in
// those lanes; `x1`, `x2`: the new impulses; `solved`: the lanes that take
// them.
template <bool over_relax>
[[gnu::always_inline]] inline Lanes block_impulses(const ContactBatch& c, const BodyLanes& a,
                                                   const BodyLanes& b, Lanes& x1, Lanes& x2,
                                                   LaneMask& solved, const SubstepTargets* t) {
    const PointLanes& p1 = c.points[0];
    const PointLanes& p2 = c.points[1];
    const Lanes a1 = p1.normal_impulse;
    const Lanes a2 = p2.normal_impulse;
    const Lanes b1 =
        relative_speed(a, b, p1, c.nx, c.ny) - p1.target_speed - (c.k11 * a1 + c.k12 * a2);
    const Lanes b2 =
        relative_speed(a, b, p2, c.nx, c.ny) - p2.target_speed - (c.k12 * a1 + c.k22 * a2);
    const Lanes det = c.k11 * c.k22 - c.k12 * c.k12;
    const Lanes both1 = -(c.k22 * b1 - c.k12 * b2) / det;
    const Lanes both2 = -(c.k11 * b2 - c.k12 * b1) / det;
    const LaneMask both = ~((both1 < 0) | (both2 < 0));
    const Lanes first = -b1 / c.k11;
    const LaneMask only1 = ~((first < 0) | (c.k12 * first + b2 < 0));
    const Lanes second = -b2 / c.k22;
    const LaneMask only2 = ~((second < 0) | (c.k12 * second + b1 < 0));
    const LaneMask neither = ~((b1 < 0) | (b2 < 0));
    solved = c.block & (both | only1 | only2 | neither);
    x1 = select(both, both1, masked(only1, first));
    x2 = select(both, both2, masked(~only1 & only2, second));
    x1 = select(solved, x1, a1);
    x2 = select(solved, x2, a2);
    if constexpr (over_relax) {
        x1 = select(solved,
                    max_of(a1 + over_relaxation_of(p1.target_speed, *t) * (x1 - a1), Lanes{}), a1);
        x2 = select(solved,
                    max_of(a2 + over_relaxation_of(p2.target_speed, *t) * (x2 - a2), Lanes{}), a2);
    }
    const Lanes d1 = x1 - a1;
    const Lanes d2 = x2 - a2;
    const Lanes s1 = c.k11 * d1 + c.k12 * d2;
    const Lanes s2 = c.k12 * d1 + c.k22 * d2;
    return masked(solved, max_of(s1 < 0 ? -s1 : s1, s2 < 0 ? -s2 : s2));
}

// The batch's first `count` points: those some lane's contact has, when
// `count` is its points_solved (the rest hold no impulse, and none is
// applied). A count fixed at compile time keeps the loops unrolled.
template <std::size_t count, class Batch>
[[gnu::always_inline]] inline
decltype(auto) points_of(Batch& c) {
    if constexpr (count == 2) {
        return (c.points);
    } else {
        return std::span(c.points).template first<count>();
    }
}

// solve_rolling, lane by lane (lanes without rolling resistance have a
// zero bound, and so no impulse).
[[gnu::always_inline]] inline
void solve_rolling(ContactBatch& c, BodyLanes& a, BodyLanes& b) {
    const Lanes total = masked(c.points[0].active, c.points[0].normal_impulse) +
                        masked(c.points[1].active, c.points[1].normal_impulse);
    const Lanes most = c.rolling_resistance * total;
    const Lanes next = clamp_of(c.rolling_impulse - c.rolling_mass * (b.w - a.w), -most, most);
    const Lanes lambda = next - c.rolling_impulse;
    c.rolling_impulse = next;
    a.w -= a.inv_inertia * lambda;
    b.w += b.inv_inertia * lambda;
}

// solve_contact on the batch's k_lanes contacts, over-relaxed as `t` says
// when `over_relax`; `change` grows lane by lane when `measure` (a
// sub-step's sweeps run a fixed count, so no one reads it: the divisions
// are left out).
template <bool measure, std::size_t points, bool over_relax>
[[gnu::always_inline]] inline Lanes solve_batch(ContactBatch& c, std::span<SolverBody> bodies,
                                                Lanes change, const SubstepTargets* t) {
    BodyLanes a = gather(bodies, c.body_a, c.inv_mass_a, c.inv_inertia_a);
    BodyLanes b = gather(bodies, c.body_b, c.inv_mass_b, c.inv_inertia_b);
    // The normal first: the block's impulses, applied after the
    // point-by-point lanes (zero in the others). A batch of blocks alone (a
    // resting pile of boxes) or of no block (of circles) skips the other
    // kind's lanes, whose impulses are all zero.
    Lanes x1{};
    Lanes x2{};
    LaneMask solved{};
    const bool blocks = points == 2 && c.blocks; // (a block has two points)
    if (blocks) {
        const Lanes block_change = block_impulses<over_relax>(c, a, b, x1, x2, solved, t);
        if constexpr (measure) {
            change = max_of(change, block_change);
        }
    }
    if (c.singles) {
        for (PointLanes& p : points_of<points>(c)) {
            const LaneMask active = p.active & ~c.block;
            const Lanes vn = relative_speed(a, b, p, c.nx, c.ny);
            Lanes mass = p.normal_mass;
            if constexpr (over_relax) {
                mass = over_relaxation_of(p.target_speed, *t) * p.normal_mass;
            }
            const Lanes next = max_of(p.normal_impulse - mass * (vn - p.target_speed), Lanes{});
            const Lanes lambda = masked(active, next - p.normal_impulse);
            p.normal_impulse = select(active, next, p.normal_impulse);
            p.max_normal_impulse =
                select(active, max_of(p.max_normal_impulse, next), p.max_normal_impulse);
            apply_impulse(a, b, p, lambda, c.nx, c.ny);
            if constexpr (measure) {
                change = max_of(change, masked(active, speed_change(lambda, p.normal_mass)));
            }
        }
    }
    if (blocks) {
        for (int i = 0; i < 2; ++i) {
            PointLanes& p = c.points[static_cast<std::size_t>(i)];
            const Lanes x = i == 0 ? x1 : x2;
            const Lanes lambda = masked(solved, x - p.normal_impulse);
            p.max_normal_impulse =
                select(solved, max_of(p.max_normal_impulse, x), p.max_normal_impulse);
            p.normal_impulse = select(solved, x, p.normal_impulse);
            apply_impulse(a, b, p, lambda, c.nx, c.ny);
        }
    }
    if (c.rolling) {
        solve_rolling(c, a, b);
    }
    // Friction last, within the normal impulses just solved.
    const Lanes tx = c.ny; // right_perp(n)
    const Lanes ty = -c.nx;
    for (PointLanes& p : points_of<points>(c)) {
        const LaneMask active = p.active & ~((p.normal_impulse == 0) & (p.tangent_impulse == 0));
        const Lanes vt = relative_speed(a, b, p, tx, ty);
        const Lanes max_friction = c.friction * p.normal_impulse;
        const Lanes next =
            clamp_of(p.tangent_impulse - p.tangent_mass * vt, -max_friction, max_friction);
        const Lanes lambda = masked(active, next - p.tangent_impulse);
        p.tangent_impulse = select(active, next, p.tangent_impulse);
        apply_impulse(a, b, p, lambda, tx, ty);
        if constexpr (measure) {
            change = max_of(change, masked(active, speed_change(lambda, p.tangent_mass)));
        }
    }
    scatter(a, bodies, c.body_a);
    scatter(b, bodies, c.body_b);
    return change;
}

// BodyMotion, lane by lane.
struct MotionLanes {
    Lanes dpx, dpy, c, s;
};

[[gnu::always_inline]] inline
MotionLanes gather_motion(std::span<const BodyMotion> motions,
                          const std::array<int, k_lanes>& index) {
    const RowLanes rows =
        gather_rows(reinterpret_cast<const std::byte*>(motions.data()), sizeof(BodyMotion), index);
    return {rows.r0, rows.r1, rows.r2, rows.r3};
}

// set_targets on the batch's lanes.
template <std::size_t points>
[[gnu::always_inline]] inline
void set_targets(ContactBatch& c, const SubstepTargets& t) {
    const MotionLanes a = gather_motion(t.motions, c.body_a);
    const MotionLanes b = gather_motion(t.motions, c.body_b);
    const Lanes zero{};
    const Lanes one = zero + 1;
    const Lanes ca = select(c.round_a, one, a.c);
    const Lanes sa = select(c.round_a, zero, a.s);
    const Lanes cb = select(c.round_b, one, b.c);
    const Lanes sb = select(c.round_b, zero, b.s);
    for (PointLanes& p : points_of<points>(c)) {
        const Lanes qax = ca * p.rax - sa * p.ray;
        const Lanes qay = sa * p.rax + ca * p.ray;
        const Lanes qbx = cb * p.rbx - sb * p.rby;
        const Lanes qby = sb * p.rbx + cb * p.rby;
        const Lanes dx = (b.dpx - a.dpx) + (qbx - qax);
        const Lanes dy = (b.dpy - a.dpy) + (qby - qay);
        const Lanes separation = p.base_separation + (dx * c.nx + dy * c.ny);
        const Lanes excess = max_of(-separation - t.slop, zero);
        const Lanes rate_push = excess * t.push_rate;
        const Lanes push = t.push ? (rate_push < t.max_push ? rate_push : zero + t.max_push) : zero;
        p.target_speed = separation > 0 ? -separation * t.inv_h : push;
    }
}

// The end of the run of batches from `begin` whose points_solved is the
// same: pack_contacts orders a colour's two-point contacts before its
// one-point ones, so a sweep has about two runs a colour.
std::size_t run_end(std::span<const ContactBatch> batches, std::size_t begin) {
    std::size_t end = begin + 1;
    while (end < batches.size() && batches[end].points_solved == batches[begin].points_solved) {
        ++end;
    }
    return end;
}

// Whether a body of the batch was disturbed in the sweep before `t`'s or
// in it (SubstepTargets::focus). (Bitwise: no branch a lane.)
[[gnu::always_inline]] inline
bool disturbed_lately(const ContactBatch& c, const SubstepTargets& t) {
    const int since = t.sweep - 1;
    int lately = 0;
    for (std::size_t l = 0; l < k_lanes; ++l) {
        lately |= static_cast<int>(t.disturbed[static_cast<std::size_t>(c.body_a[l])] >= since) |
                  static_cast<int>(t.disturbed[static_cast<std::size_t>(c.body_b[l])] >= since);
    }
    return lately != 0;
}

// Marks the bodies that impulses move of the batch's lanes whose `change`
// exceeds `t`'s mark as disturbed in `t`'s sweep.
[[gnu::always_inline]] inline
void mark_disturbed(const ContactBatch& c, Lanes change, const SubstepTargets& t) {
    const LaneMask over = change > t.mark;
    // (Most batches, a pile at rest's all, have no lane over: one test.)
    bool any = false;
    for (std::size_t l = 0; l < k_lanes; ++l) {
        any |= over[l] != 0;
    }
    if (!any) {
        return;
    }
    for (std::size_t l = 0; l < k_lanes; ++l) {
        if (over[l]) {
            if (c.inv_mass_a[l] > 0) {
                t.disturbed[static_cast<std::size_t>(c.body_a[l])] = t.sweep;
            }
            if (c.inv_mass_b[l] > 0) {
                t.disturbed[static_cast<std::size_t>(c.body_b[l])] = t.sweep;
            }
        }
    }
}

// What a sweep does with SubstepTargets::disturbed: nothing, marks it, or
// marks it and solves only the batches disturbed lately (focus). Each its
// own copy of the loops: a test a batch of what the sweep is cost the
// batches' solve 10 % more instructions in the pyramid.
enum class Tracking { none, mark, focus };

// Whether a sweep with `targets` focuses (Tracking::focus: it measures and
// tracks what it disturbs), and so over-relaxes if they ask.
bool focuses(const SubstepTargets* targets) {
    return targets && targets->measure && !targets->disturbed.empty() && targets->focus;
}

// The batches of a run in order (each aiming at `targets` first, if any,
// and if they aim), each with `points` points; with Tracking::focus only
// those disturbed lately, over-relaxed when `over_relax`.
template <bool measure, Tracking tracking, std::size_t points, bool over_relax = false>
[[gnu::always_inline]] inline Lanes solve_run(std::span<ContactBatch> run,
                                              std::span<SolverBody> bodies,
                                              const SubstepTargets* targets, Lanes change) {
    for (ContactBatch& batch : run) {
        if constexpr (tracking == Tracking::focus) {
            if (!disturbed_lately(batch, *targets)) {
                continue;
            }
        }
        if (targets && targets->aim) {
            set_targets<points>(batch, *targets);
        }
        if constexpr (tracking == Tracking::none) {
            change = solve_batch<measure, points, false>(batch, bodies, change, targets);
        } else {
            const Lanes batch_change =
                solve_batch<measure, points, over_relax>(batch, bodies, Lanes{}, targets);
            mark_disturbed(batch, batch_change, *targets);
            change = max_of(change, batch_change);
        }
    }
    return change;
}

// solve_run, over-relaxed in a sweep that focuses and asks for it (the
// others, and Gauss-Seidel's, keep their code).
template <bool measure, Tracking tracking, std::size_t points>
[[gnu::always_inline]] inline Lanes solve_run_of(std::span<ContactBatch> run,
                                                 std::span<SolverBody> bodies,
                                                 const SubstepTargets* targets, Lanes change) {
    if constexpr (tracking == Tracking::focus) {
        if (targets->over_relaxation != 1) {
            return solve_run<measure, tracking, points, true>(run, bodies, targets, change);
        }
    }
    return solve_run<measure, tracking, points>(run, bodies, targets, change);
}

// Every batch in order, run by run (a loop of its own for each count of
// points keeps each loop's code the one kind's); the largest change of a
// lane, when `measure`, else 0.
template <bool measure, Tracking tracking>
[[gnu::always_inline]] inline real solve_batches(std::span<ContactBatch> batches,
                                                 std::span<SolverBody> bodies,
                                                 const SubstepTargets* targets) {
    Lanes change{};
    for (std::size_t begin = 0; begin < batches.size();) {
        const std::size_t end = run_end(batches, begin);
        const std::span<ContactBatch> run = batches.subspan(begin, end - begin);
        change = batches[begin].points_solved == 2
                     ? solve_run_of<measure, tracking, 2>(run, bodies, targets, change)
                     : solve_run_of<measure, tracking, 1>(run, bodies, targets, change);
        begin = end;
    }
    real most = 0;
    for (int l = 0; l < k_lanes; ++l) {
        most = std::max(most, change[l]);
    }
    return most;
}

// solve_batches as `targets` asks: measuring the one-step solve's sweeps
// (no targets) and a sub-step's that measure, which track `disturbed` if
// they have it (and focus if they ask).
[[gnu::always_inline]] inline real solve_batches_for(std::span<ContactBatch> batches,
                                                     std::span<SolverBody> bodies,
                                                     const SubstepTargets* targets) {
    if (!targets) {
        return solve_batches<true, Tracking::none>(batches, bodies, targets);
    }
    if (!targets->measure) {
        return solve_batches<false, Tracking::none>(batches, bodies, targets);
    }
    if (targets->disturbed.empty()) {
        return solve_batches<true, Tracking::none>(batches, bodies, targets);
    }
    return targets->focus ? solve_batches<true, Tracking::focus>(batches, bodies, targets)
                          : solve_batches<true, Tracking::mark>(batches, bodies, targets);
}

// The copies of solve_batches_for. The baseline one runs the 32-byte lanes
// as pairs of 16-byte registers (SSE2 on x86-64). AVX has no fused
// multiply-add, so the compiler contracts nothing: both give the same bits.
real solve_batches_baseline(std::span<ContactBatch> batches, std::span<SolverBody> bodies,
                            const SubstepTargets* targets) {
    return solve_batches_for(batches, bodies, targets);
}

#if SWEEP_AVX_LANES
[[gnu::target("avx")]] real solve_batches_avx(std::span<ContactBatch> batches,
                                              std::span<SolverBody> bodies,
                                              const SubstepTargets* targets) {
    return solve_batches_for(batches, bodies, targets);
}
#endif

// Damps and applies the batch's accumulated impulses (the sub-steps'
// warm_start, lane by lane). A point a contact lacks holds no impulse, and
// no mean.
template <std::size_t points>
[[gnu::always_inline]] inline void warm_start_batch(ContactBatch& c, std::span<SolverBody> bodies) {
    BodyLanes a = gather(bodies, c.body_a, c.inv_mass_a, c.inv_inertia_a);
    BodyLanes b = gather(bodies, c.body_b, c.inv_mass_b, c.inv_inertia_b);
    for (PointLanes& p : points_of<points>(c)) {
        p.mean_normal_impulse += k_impulse_mean_rate * (p.normal_impulse - p.mean_normal_impulse);
        p.normal_impulse += k_warm_start_leak * (p.mean_normal_impulse - p.normal_impulse);
        const Lanes px = p.normal_impulse * c.nx + p.tangent_impulse * c.ny;
        const Lanes py = p.normal_impulse * c.ny + p.tangent_impulse * -c.nx;
        a.vx -= a.inv_mass * px;
        a.vy -= a.inv_mass * py;
        a.w -= a.inv_inertia * (p.rax * py - p.ray * px);
        b.vx += b.inv_mass * px;
        b.vy += b.inv_mass * py;
        b.w += b.inv_inertia * (p.rbx * py - p.rby * px);
    }
    a.w -= a.inv_inertia * c.rolling_impulse;
    b.w += b.inv_inertia * c.rolling_impulse;
    scatter(a, bodies, c.body_a);
    scatter(b, bodies, c.body_b);
}

// warm_start_batch over every batch, run by run (as solve_batches).
[[gnu::always_inline]] inline void warm_start_batches(std::span<ContactBatch> batches,
                                                      std::span<SolverBody> bodies) {
    for (std::size_t begin = 0; begin < batches.size();) {
        const std::size_t end = run_end(batches, begin);
        if (batches[begin].points_solved == 2) {
            for (ContactBatch& c : batches.subspan(begin, end - begin)) {
                warm_start_batch<2>(c, bodies);
            }
        } else {
            for (ContactBatch& c : batches.subspan(begin, end - begin)) {
                warm_start_batch<1>(c, bodies);
            }
        }
        begin = end;
    }
}

void warm_start_batches_baseline(std::span<ContactBatch> batches, std::span<SolverBody> bodies) {
    warm_start_batches(batches, bodies);
}

#if SWEEP_AVX_LANES
[[gnu::target("avx")]] void warm_start_batches_avx(std::span<ContactBatch> batches,
                                                   std::span<SolverBody> bodies) {
    warm_start_batches(batches, bodies);
}
#endif

// The sweep of solve_velocities and solve_substep.
real solve_sweep(ContactBatches& batches, std::span<SolverContact> contacts,
                 std::span<SolverBody> bodies, const SubstepTargets* targets,
                 [[maybe_unused]] LaneIsa isa) {
#if SWEEP_AVX_LANES
    real most = isa == LaneIsa::avx ? solve_batches_avx(batches.batches, bodies, targets)
                                    : solve_batches_baseline(batches.batches, bodies, targets);
#else
    real most = solve_batches_baseline(batches.batches, bodies, targets);
#endif
    for (const int ci : batches.rest) {
        SolverContact& c = contacts[static_cast<std::size_t>(ci)];
        if (targets && targets->aim) {
            set_targets(c, *targets);
        }
        SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
        SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
        const real change = solve_contact(c, a, b, focuses(targets) ? targets : nullptr);
        if (targets && targets->measure && !targets->disturbed.empty() && change > targets->mark) {
            const auto mark = [&](int index, const SolverBody& body) {
                if (body.inv_mass > 0) {
                    targets->disturbed[static_cast<std::size_t>(index)] = targets->sweep;
                }
            };
            mark(c.body_a, a);
            mark(c.body_b, b);
        }
        most = std::max(most, change);
    }
    return most;
}

} // namespace

namespace {

// Colours for pack_contacts. A body meets few contacts (a box in a pile
// about six), so a few more colours than that take nearly all.
constexpr int k_colors = 16;

// Whether impulses move the body: static and kinematic ones, with no
// inverse mass, may be in every colour.
bool moved_by_impulses(const SolverBody& b) { return b.inv_mass > 0 || b.inv_inertia > 0; }

// The kinds of contact a batch's lanes hold, in the order pack_contacts
// puts them in a colour's batches.
enum class LaneKind { block, two_points, one_point };
constexpr int k_lane_kinds = 3;

LaneKind lane_kind(const SolverContact& c) {
    return c.block ? LaneKind::block : c.count == 2 ? LaneKind::two_points : LaneKind::one_point;
}

// Lane l of the batch holds contact c.
void put_lane(ContactBatch& batch, int l, const SolverContact& c,
              std::span<const SolverBody> bodies) {
    const SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
    const SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
    batch.body_a[static_cast<std::size_t>(l)] = c.body_a;
    batch.body_b[static_cast<std::size_t>(l)] = c.body_b;
    batch.inv_mass_a[l] = a.inv_mass;
    batch.inv_inertia_a[l] = a.inv_inertia;
    batch.inv_mass_b[l] = b.inv_mass;
    batch.inv_inertia_b[l] = b.inv_inertia;
    batch.nx[l] = c.normal.x;
    batch.ny[l] = c.normal.y;
    batch.friction[l] = c.friction;
    // A lane that is no block keeps an invertible matrix: its block
    // impulses are computed (and dropped) with the others'.
    batch.k11[l] = c.block ? c.k11 : real(1);
    batch.k12[l] = c.block ? c.k12 : real(0);
    batch.k22[l] = c.block ? c.k22 : real(1);
    batch.block[l] = c.block ? -1 : 0;
    batch.round_a[l] = c.round_a ? -1 : 0;
    batch.round_b[l] = c.round_b ? -1 : 0;
    batch.rolling_resistance[l] = c.rolling_resistance;
    batch.rolling_mass[l] = c.rolling_mass;
    batch.rolling_impulse[l] = c.rolling_impulse;
    batch.rolling = batch.rolling || c.rolling_resistance > 0;
    batch.blocks = batch.blocks || c.block;
    batch.singles = batch.singles || (c.count > 0 && !c.block);
    batch.points_solved = std::max(batch.points_solved, c.count);
    for (int i = 0; i < 2; ++i) {
        const SolverPoint& p = c.points[static_cast<std::size_t>(i)];
        PointLanes& q = batch.points[static_cast<std::size_t>(i)];
        q.rax[l] = p.ra.x;
        q.ray[l] = p.ra.y;
        q.rbx[l] = p.rb.x;
        q.rby[l] = p.rb.y;
        q.normal_mass[l] = p.normal_mass;
        q.tangent_mass[l] = p.tangent_mass;
        q.normal_impulse[l] = p.normal_impulse;
        q.tangent_impulse[l] = p.tangent_impulse;
        q.target_speed[l] = p.target_speed;
        q.max_normal_impulse[l] = p.max_normal_impulse;
        q.step_normal_impulse[l] = p.step_normal_impulse;
        q.mean_normal_impulse[l] = p.mean_normal_impulse;
        q.base_separation[l] = p.base_separation;
        q.active[l] = i < c.count ? -1 : 0;
    }
}

// A colour's contacts lie anywhere in `contacts`: each lane's read of
// one missed the cache (a quarter of pack_contacts' time in the pyramid),
// so the one this many lanes ahead is asked for first.
constexpr std::size_t k_pack_prefetch = 16;

void prefetch_contact(const SolverContact& c) {
    const auto* bytes = reinterpret_cast<const char*>(&c);
    for (std::size_t offset = 0; offset < sizeof(SolverContact); offset += 64) {
        __builtin_prefetch(bytes + offset);
    }
}

// An empty lane: no points, the empty body on both sides.
void put_empty_lane(ContactBatch& batch, int l, int empty_body,
                    std::span<const SolverBody> bodies) {
    SolverContact empty;
    empty.body_a = empty_body;
    empty.body_b = empty_body;
    put_lane(batch, l, empty, bodies);
}

} // namespace

BlockMatrix block_matrix(const PairMass& w, Vec2 ra1, Vec2 rb1, Vec2 ra2, Vec2 rb2, Vec2 n) {
    const real rn1a = cross(ra1, n);
    const real rn1b = cross(rb1, n);
    const real rn2a = cross(ra2, n);
    const real rn2b = cross(rb2, n);
    const real m = w.ima + w.imb;
    BlockMatrix k;
    k.k11 = m + w.iia * rn1a * rn1a + w.iib * rn1b * rn1b;
    k.k22 = m + w.iia * rn2a * rn2a + w.iib * rn2b * rn2b;
    k.k12 = m + w.iia * rn1a * rn2a + w.iib * rn1b * rn2b;
    const real det = k.k11 * k.k22 - k.k12 * k.k12;
    k.well_conditioned = k.k11 * k.k11 < k_max_condition_number * det;
    return k;
}

void pack_contacts(std::span<const SolverContact> contacts, std::span<const SolverBody> bodies,
                   int empty_body, ContactBatches& out) {
    const std::size_t words = (bodies.size() + 63) / 64;
    out.used.assign(words * k_colors, 0);
    out.members.resize(k_colors * k_lane_kinds);
    for (std::vector<int>& m : out.members) {
        m.clear();
    }
    out.rest.clear();
    const auto bit = [&](int color, int body) -> std::uint64_t& {
        return out.used[static_cast<std::size_t>(color) * words + static_cast<std::size_t>(body) / 64];
    };
    const auto taken = [&](int color, int body) {
        return body >= 0 && (bit(color, body) >> (body % 64) & 1u);
    };
    for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
        const SolverContact& c = contacts[ci];
        const int a = moved_by_impulses(bodies[static_cast<std::size_t>(c.body_a)]) ? c.body_a : -1;
        const int b = moved_by_impulses(bodies[static_cast<std::size_t>(c.body_b)]) ? c.body_b : -1;
        int color = 0;
        while (color < k_colors && (taken(color, a) || taken(color, b))) {
            ++color;
        }
        if (color == k_colors) {
            out.rest.push_back(static_cast<int>(ci));
            continue;
        }
        for (const int body : {a, b}) {
            if (body >= 0) {
                bit(color, body) |= std::uint64_t{1} << (body % 64);
            }
        }
        out.members[static_cast<std::size_t>(color * k_lane_kinds) +
                    static_cast<std::size_t>(lane_kind(c))]
            .push_back(static_cast<int>(ci));
    }
    out.batches.clear();
    out.lanes.clear();
    std::vector<int>& m = out.ordered;
    for (int color = 0; color < k_colors; ++color) {
        // Blocks first, then the rest, two points before one: most batches
        // then hold one kind and skip the others' lanes (solve_batch). A
        // colour's contacts share no moved body, so their order in it
        // changes no result.
        m.clear();
        for (int kind = 0; kind < k_lane_kinds; ++kind) {
            const std::vector<int>& of_kind =
                out.members[static_cast<std::size_t>(color * k_lane_kinds + kind)];
            m.insert(m.end(), of_kind.begin(), of_kind.end());
        }
        for (std::size_t k = 0; k < m.size(); k += k_lanes) {
            ContactBatch& batch = out.batches.emplace_back();
            for (int l = 0; l < k_lanes; ++l) {
                const std::size_t at = k + static_cast<std::size_t>(l);
                if (at + k_pack_prefetch < m.size()) {
                    prefetch_contact(contacts[static_cast<std::size_t>(m[at + k_pack_prefetch])]);
                }
                if (at < m.size()) {
                    put_lane(batch, l, contacts[static_cast<std::size_t>(m[at])], bodies);
                    out.lanes.push_back(m[at]);
                } else {
                    put_empty_lane(batch, l, empty_body, bodies);
                    out.lanes.push_back(-1);
                }
            }
        }
    }
}

void unpack_contacts(const ContactBatches& batches, std::span<SolverContact> contacts) {
    for_each_lane(batches, [&](const ContactBatch& batch, int l, int ci) {
        SolverContact& c = contacts[static_cast<std::size_t>(ci)];
        c.rolling_impulse = batch.rolling_impulse[l];
        for (int i = 0; i < c.count; ++i) {
            const PointLanes& q = batch.points[static_cast<std::size_t>(i)];
            SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            p.normal_impulse = q.normal_impulse[l];
            p.tangent_impulse = q.tangent_impulse[l];
            p.max_normal_impulse = q.max_normal_impulse[l];
            p.step_normal_impulse = q.step_normal_impulse[l];
            p.mean_normal_impulse = q.mean_normal_impulse[l];
        }
    });
}

void prepare_contact(SolverContact& c, std::span<const SolverBody> bodies,
                     const std::array<real, 2>& separations, real dt) {
    const SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
    const SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
    const Vec2 n = c.normal;
    const Vec2 t = right_perp(n);
    for (int i = 0; i < c.count; ++i) {
        SolverPoint& p = c.points[static_cast<std::size_t>(i)];
        p.normal_mass = effective_mass(pair_mass(a, b), p.ra, p.rb, n);
        p.tangent_mass = effective_mass(pair_mass(a, b), p.ra, p.rb, t);
        p.approach_speed = dot(relative_velocity(a, b, p), n);
        // A speculative point may close its gap this step, no further.
        const real separation = separations[static_cast<std::size_t>(i)];
        p.target_speed = separation > 0 ? -separation / dt : 0;
        p.base_separation = separation - dot(p.rb - p.ra, n);
    }
    prepare_block(c, a, b);
    const real turn = a.inv_inertia + b.inv_inertia;
    c.rolling_mass = turn > 0 ? 1 / turn : 0;
}

void warm_start(std::span<const SolverContact> contacts, std::span<SolverBody> bodies) {
    for (const SolverContact& c : contacts) {
        SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
        SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
        const Vec2 n = c.normal;
        const Vec2 t = right_perp(n);
        for (int i = 0; i < c.count; ++i) {
            const SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            apply_impulse(a, b, p, p.normal_impulse * n + p.tangent_impulse * t);
        }
        a.w -= a.inv_inertia * c.rolling_impulse;
        b.w += b.inv_inertia * c.rolling_impulse;
    }
}

LaneIsa best_lane_isa() {
#if SWEEP_AVX_LANES
    static const bool avx = __builtin_cpu_supports("avx");
    return avx ? LaneIsa::avx : LaneIsa::baseline;
#else
    return LaneIsa::baseline;
#endif
}

real solve_velocities(ContactBatches& batches, std::span<SolverContact> contacts,
                      std::span<SolverBody> bodies, LaneIsa isa) {
    return solve_sweep(batches, contacts, bodies, nullptr, isa);
}

real solve_substep(ContactBatches& batches, std::span<SolverContact> contacts,
                   std::span<SolverBody> bodies, const SubstepTargets& targets, LaneIsa isa) {
    return solve_sweep(batches, contacts, bodies, &targets, isa);
}

namespace {

// A point's share of the sub-steps' damped warm start (warm_start of
// batches; warm_start_batch does the same lane by lane).
void damp_warm_start(SolverPoint& p) {
    p.mean_normal_impulse += k_impulse_mean_rate * (p.normal_impulse - p.mean_normal_impulse);
    p.normal_impulse += k_warm_start_leak * (p.mean_normal_impulse - p.normal_impulse);
}

} // namespace

void warm_start(ContactBatches& batches, std::span<SolverContact> contacts,
                std::span<SolverBody> bodies, [[maybe_unused]] LaneIsa isa) {
#if SWEEP_AVX_LANES
    if (isa == LaneIsa::avx) {
        warm_start_batches_avx(batches.batches, bodies);
    } else {
        warm_start_batches_baseline(batches.batches, bodies);
    }
#else
    warm_start_batches_baseline(batches.batches, bodies);
#endif
    for (const int ci : batches.rest) {
        SolverContact& c = contacts[static_cast<std::size_t>(ci)];
        for (int i = 0; i < c.count; ++i) {
            damp_warm_start(c.points[static_cast<std::size_t>(i)]);
        }
        warm_start(std::span(&c, 1), bodies);
    }
}

void scale_impulses(ContactBatches& batches, std::span<SolverContact> contacts, real factor) {
    for (ContactBatch& c : batches.batches) {
        c.rolling_impulse *= factor;
        for (PointLanes& p : c.points) {
            p.normal_impulse *= factor;
            p.tangent_impulse *= factor;
            p.max_normal_impulse *= factor;
            p.mean_normal_impulse *= factor;
        }
    }
    for (const int ci : batches.rest) {
        contacts[static_cast<std::size_t>(ci)].rolling_impulse *= factor;
        for (SolverPoint& p : contacts[static_cast<std::size_t>(ci)].points) {
            p.normal_impulse *= factor;
            p.tangent_impulse *= factor;
            p.max_normal_impulse *= factor;
            p.mean_normal_impulse *= factor;
        }
    }
}

void add_substep_impulses(ContactBatches& batches, std::span<SolverContact> contacts) {
    for (ContactBatch& c : batches.batches) {
        for (PointLanes& p : c.points) {
            p.step_normal_impulse += p.normal_impulse;
        }
    }
    for (const int ci : batches.rest) {
        for (SolverPoint& p : contacts[static_cast<std::size_t>(ci)].points) {
            p.step_normal_impulse += p.normal_impulse;
        }
    }
}

namespace {

// A bounce's change `change` of point p's step impulse: applied, and
// carried into the impulses the step keeps (the accumulated one, at or
// above zero, warm starts the next step).
void apply_bounce(SolverContact& c, SolverPoint& p, real change, SolverBody& a, SolverBody& b) {
    p.step_normal_impulse += change;
    p.normal_impulse = std::max(p.normal_impulse + change, real(0));
    p.max_normal_impulse = std::max(p.max_normal_impulse, p.normal_impulse);
    apply_impulse(a, b, p, change * c.normal);
}

// Both points' bounce at once: the step impulses x >= 0 that bring each
// point to its target speed, or leave it faster with none.
bool bounce_block(SolverContact& c, SolverBody& a, SolverBody& b) {
    SolverPoint& p1 = c.points[0];
    SolverPoint& p2 = c.points[1];
    const real s1 = p1.step_normal_impulse;
    const real s2 = p2.step_normal_impulse;
    const std::optional<std::array<real, 2>> x =
        solve_block_of(c, a, b, {s1, s2},
                       {-c.restitution * p1.approach_speed, -c.restitution * p2.approach_speed});
    if (!x) {
        return false;
    }
    apply_bounce(c, p1, (*x)[0] - s1, a, b);
    apply_bounce(c, p2, (*x)[1] - s2, a, b);
    return true;
}

} // namespace

void apply_restitution(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                       real restitution_threshold) {
    for (SolverContact& c : contacts) {
        if (c.restitution == 0) {
            continue;
        }
        SolverBody& a = bodies[static_cast<std::size_t>(c.body_a)];
        SolverBody& b = bodies[static_cast<std::size_t>(c.body_b)];
        const auto bounces = [&](const SolverPoint& p) {
            return p.approach_speed <= -restitution_threshold && p.max_normal_impulse > 0;
        };
        const bool both = c.count == 2 && bounces(c.points[0]) && bounces(c.points[1]);
        if (both && c.block && bounce_block(c, a, b)) {
            continue;
        }
        // Two points whose block matrix is ill-conditioned are nearly one
        // constraint: the faster-approaching bounces for both (one after
        // the other, the second moved the first off its target: 0.5 % more
        // energy). Otherwise one point, or no case of the block problem
        // held: point by point.
        const int skipped = both && !c.block
                                ? (c.points[0].approach_speed <= c.points[1].approach_speed ? 1 : 0)
                                : -1;
        for (int i = 0; i < c.count; ++i) {
            SolverPoint& p = c.points[static_cast<std::size_t>(i)];
            if (!bounces(p) || i == skipped) {
                continue;
            }
            const real vn = dot(relative_velocity(a, b, p), c.normal);
            const real step_impulse = std::max(
                p.step_normal_impulse - p.normal_mass * (vn + c.restitution * p.approach_speed),
                real(0));
            apply_bounce(c, p, step_impulse - p.step_normal_impulse, a, b);
        }
    }
}

} // namespace sweep
