// The velocity solve's batches (src/contact_solver.hpp) against the same
// contacts solved one by one in the same order: contacts of a colour share
// no body that impulses move, so taking them side by side must give the
// same velocities and impulses to the last bit, with every instruction set
// the batches can be solved with.
#include "contact_solver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace sweep {
namespace {

bool same_bits(real x, real y) { return std::memcmp(&x, &y, sizeof(real)) == 0; }

struct Case {
    std::vector<SolverBody> bodies; // the last one empty, for empty lanes
    std::vector<SolverContact> contacts;
};

// Random bodies (a few static: no inverse mass) and random contacts between
// them: one or two points, some solved as blocks, some with warm-start
// impulses, some speculative (a target speed), as prepare_contact leaves them.
Case random_case(std::mt19937& rng, int body_count, int contact_count) {
    std::uniform_real_distribution<real> unit(-1, 1);
    std::uniform_int_distribution<int> pick(0, body_count - 1);
    Case c;
    for (int i = 0; i < body_count; ++i) {
        SolverBody b;
        b.v = {unit(rng), unit(rng)};
        b.w = unit(rng);
        const bool fixed = i % 5 == 0;
        b.inv_mass = fixed ? 0 : 1 + unit(rng) / 2;
        b.inv_inertia = fixed ? 0 : 2 + unit(rng);
        c.bodies.push_back(b);
    }
    c.bodies.push_back({});
    for (int k = 0; k < contact_count; ++k) {
        SolverContact s;
        s.body_a = pick(rng);
        do {
            s.body_b = pick(rng);
        } while (s.body_b == s.body_a);
        const real angle = 3 * unit(rng);
        s.normal = {std::cos(angle), std::sin(angle)};
        s.friction = k % 4 == 0 ? 0 : real(0.6);
        s.restitution = 0;
        s.count = k % 3 == 0 ? 1 : 2;
        std::array<real, 2> separations{};
        for (int i = 0; i < s.count; ++i) {
            SolverPoint& p = s.points[static_cast<std::size_t>(i)];
            p.ra = {unit(rng), unit(rng)};
            p.rb = {unit(rng), unit(rng)};
            p.normal_impulse = k % 2 == 0 ? std::abs(unit(rng)) : 0;
            p.tangent_impulse = k % 2 == 0 ? unit(rng) / 4 : 0;
            separations[static_cast<std::size_t>(i)] = k % 5 == 0 ? std::abs(unit(rng)) / 100 : 0;
        }
        prepare_contact(s, c.bodies, separations, real(1) / 60);
        c.contacts.push_back(s);
    }
    return c;
}

// The contacts `packed` solves, every one by one in the same order.
ContactBatches one_by_one_like(const ContactBatches& packed) {
    ContactBatches one_by_one;
    for (const int ci : packed.lanes) {
        if (ci >= 0) {
            one_by_one.rest.push_back(ci);
        }
    }
    one_by_one.rest.insert(one_by_one.rest.end(), packed.rest.begin(), packed.rest.end());
    return one_by_one;
}

// The bodies' velocities and the points' impulses of two solves of one case
// agree to the bit.
void expect_same_bits(const Case& wide, const Case& narrow, int trial) {
    for (std::size_t i = 0; i < wide.bodies.size(); ++i) {
        const SolverBody& x = wide.bodies[i];
        const SolverBody& y = narrow.bodies[i];
        ASSERT_TRUE(same_bits(x.v.x, y.v.x) && same_bits(x.v.y, y.v.y) && same_bits(x.w, y.w))
            << "trial " << trial << ", body " << i;
    }
    for (std::size_t k = 0; k < wide.contacts.size(); ++k) {
        for (int i = 0; i < wide.contacts[k].count; ++i) {
            const SolverPoint& x = wide.contacts[k].points[static_cast<std::size_t>(i)];
            const SolverPoint& y = narrow.contacts[k].points[static_cast<std::size_t>(i)];
            ASSERT_TRUE(same_bits(x.normal_impulse, y.normal_impulse) &&
                        same_bits(x.tangent_impulse, y.tangent_impulse) &&
                        same_bits(x.max_normal_impulse, y.max_normal_impulse))
                << "trial " << trial << ", contact " << k << ", point " << i;
        }
    }
}

// 200 random cases, 8 sweeps each, the batches solved with `isa`.
void expect_batches_match_one_by_one(LaneIsa isa) {
    std::mt19937 rng(17);
    int blocks = 0;
    int batched = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const Case c = random_case(rng, 4 + trial % 60, 1 + trial % 150);
        for (const SolverContact& s : c.contacts) {
            blocks += s.block;
        }
        const int empty = static_cast<int>(c.bodies.size()) - 1;
        Case wide = c;
        ContactBatches packed;
        pack_contacts(wide.contacts, wide.bodies, empty, packed);
        batched += static_cast<int>(packed.batches.size());
        Case narrow = c;
        ContactBatches one_by_one = one_by_one_like(packed);
        ASSERT_EQ(one_by_one.rest.size(), c.contacts.size()) << "trial " << trial;
        for (int sweep = 0; sweep < 8; ++sweep) {
            const real change_wide = solve_velocities(packed, wide.contacts, wide.bodies, isa);
            const real change_narrow = solve_velocities(one_by_one, narrow.contacts, narrow.bodies);
            ASSERT_EQ(change_wide, change_narrow) << "trial " << trial << ", sweep " << sweep;
        }
        unpack_contacts(packed, wide.contacts);
        expect_same_bits(wide, narrow, trial);
    }
    // The cases exercised what they should: blocks and full batches.
    EXPECT_GT(blocks, 1000);
    EXPECT_GT(batched, 1000);
}

TEST(ContactSolver, BatchesGiveTheSameResultsAsTheirContactsOneByOne) {
    expect_batches_match_one_by_one(LaneIsa::baseline);
}

// The AVX copy of the batch solve, where the CPU runs it: the same bits as
// one by one, so as the baseline copy (World::step's results do not depend
// on the CPU).
TEST(ContactSolver, AvxBatchesGiveTheSameResultsAsTheirContactsOneByOne) {
    if (best_lane_isa() != LaneIsa::avx) {
        GTEST_SKIP() << "this CPU or compiler has no AVX copy of the batch solve";
    }
    expect_batches_match_one_by_one(LaneIsa::avx);
}

// Every sweep ends with each point within Coulomb's cone: its tangent
// impulse at most the contact's friction times its normal impulse (and none
// at a frictionless contact), the warm start's impulses outside it or not.
// Friction solved before the normal left points beyond it: bounded by the
// normal impulse the sweep then lowered.
TEST(ContactSolver, EverySweepLeavesEachPointWithinCoulombsCone) {
    std::mt19937 rng(31);
    int lowered = 0; // points whose normal impulse the last sweep lowered
    for (int trial = 0; trial < 200; ++trial) {
        Case c = random_case(rng, 4 + trial % 60, 1 + trial % 150);
        ContactBatches batches;
        pack_contacts(c.contacts, c.bodies, static_cast<int>(c.bodies.size()) - 1, batches);
        for (int sweep = 0; sweep < 8; ++sweep) {
            ContactBatches before_batches = batches;
            std::vector<SolverContact> before = c.contacts;
            unpack_contacts(before_batches, before);
            (void)solve_velocities(batches, c.contacts, c.bodies);
            std::vector<SolverContact> after = c.contacts;
            unpack_contacts(batches, after);
            for (std::size_t k = 0; k < after.size(); ++k) {
                for (int i = 0; i < after[k].count; ++i) {
                    const SolverPoint& p = after[k].points[static_cast<std::size_t>(i)];
                    lowered += p.normal_impulse <
                               before[k].points[static_cast<std::size_t>(i)].normal_impulse;
                    ASSERT_LE(std::abs(p.tangent_impulse), after[k].friction * p.normal_impulse)
                        << "trial " << trial << ", sweep " << sweep << ", contact " << k
                        << ", point " << i;
                }
            }
        }
    }
    EXPECT_GT(lowered, 1000); // the case friction first got wrong was met
}

// A sub-step's sweeps as solve_substepped runs them, three sub-steps of a
// push sweep and two relax sweeps, the bodies' motions growing between
// sub-steps; the second relax sweep sets no targets when `skip_aim` (the
// motions are those of the first). `c`'s contacts solved with `batches`.
void run_substeps(ContactBatches& batches, Case& c, bool skip_aim, LaneIsa isa, std::mt19937& rng) {
    std::uniform_real_distribution<real> unit(-1, 1);
    std::vector<BodyMotion> motions(c.bodies.size());
    SubstepTargets t;
    t.motions = motions;
    t.inv_h = 480;
    t.slop = real(0.00375);
    t.push_rate = 120;
    t.max_push = 3;
    for (int sub = 0; sub < 3; ++sub) {
        t.push = true;
        t.aim = true;
        solve_substep(batches, c.contacts, c.bodies, t, isa);
        for (std::size_t i = 0; i + 1 < motions.size(); ++i) {
            const real turn = unit(rng) / 10;
            motions[i].dp += real(0.01) * Vec2{unit(rng), unit(rng)};
            motions[i].c = std::cos(turn);
            motions[i].s = std::sin(turn);
        }
        t.push = false;
        for (int relax = 0; relax < 2; ++relax) {
            t.aim = !skip_aim || relax == 0;
            solve_substep(batches, c.contacts, c.bodies, t, isa);
        }
    }
}

// Sub-stepped sweeps of batches, which measure nothing and aim only when the
// motions changed, against the contacts one by one, every sweep aiming: the
// same bits.
void expect_substeps_match_one_by_one(LaneIsa isa) {
    std::mt19937 rng(23);
    for (int trial = 0; trial < 100; ++trial) {
        const Case c = random_case(rng, 4 + trial % 40, 1 + trial % 120);
        Case wide = c;
        ContactBatches packed;
        pack_contacts(wide.contacts, wide.bodies, static_cast<int>(c.bodies.size()) - 1, packed);
        Case narrow = c;
        ContactBatches one_by_one = one_by_one_like(packed);
        std::mt19937 motions_wide(static_cast<unsigned>(trial));
        std::mt19937 motions_narrow(static_cast<unsigned>(trial));
        run_substeps(packed, wide, true, isa, motions_wide);
        run_substeps(one_by_one, narrow, false, LaneIsa::baseline, motions_narrow);
        unpack_contacts(packed, wide.contacts);
        expect_same_bits(wide, narrow, trial);
    }
}

TEST(ContactSolver, SubstepBatchesGiveTheSameResultsAsTheirContactsOneByOne) {
    expect_substeps_match_one_by_one(LaneIsa::baseline);
}

TEST(ContactSolver, AvxSubstepBatchesGiveTheSameResultsAsTheirContactsOneByOne) {
    if (best_lane_isa() != LaneIsa::avx) {
        GTEST_SKIP() << "this CPU or compiler has no AVX copy of the batch solve";
    }
    expect_substeps_match_one_by_one(LaneIsa::avx);
}

// The contacts of batch `k` of `packed`, as contacts solved one by one.
ContactBatches batch_one_by_one(const ContactBatches& packed, std::size_t k) {
    ContactBatches one;
    for (int l = 0; l < k_lanes; ++l) {
        const int ci = packed.lanes[k * k_lanes + static_cast<std::size_t>(l)];
        if (ci >= 0) {
            one.rest.push_back(ci);
        }
    }
    return one;
}

// Whether a body of `contacts` (indices into c.contacts) was disturbed at
// sweep `since` or later.
bool disturbed_since(const Case& c, const std::vector<int>& contacts,
                     const std::vector<int>& disturbed, int since) {
    return std::any_of(contacts.begin(), contacts.end(), [&](int ci) {
        const SolverContact& s = c.contacts[static_cast<std::size_t>(ci)];
        return disturbed[static_cast<std::size_t>(s.body_a)] >= since ||
               disturbed[static_cast<std::size_t>(s.body_b)] >= since;
    });
}

// A sub-step's sweeps that focus (SubstepTargets::focus) against the same
// rule worked out contact by contact: each batch, in order, is solved (its
// contacts one by one) only if a body of it was disturbed in the sweep
// before or earlier in this one, and every contact solved whose speed
// change exceeds the mark disturbs its bodies that impulses move. The
// same bits, the same marks, and both kinds of batch met. With an
// over-relaxation (SubstepTargets::over_relaxation), both kinds of point
// are met too: in touch (over-relaxed) and speculative beyond it.
void expect_focused_sweeps_match_the_rule(LaneIsa isa, real over_relaxation = 1) {
    std::mt19937 rng(29);
    std::vector<BodyMotion> motions;
    int solved = 0;
    int skipped = 0;
    int in_touch = 0;
    int beyond_touch = 0;
    for (int trial = 0; trial < 100; ++trial) {
        const Case c = random_case(rng, 20 + trial % 40, 10 + trial % 120);
        motions.assign(c.bodies.size(), BodyMotion{});
        Case wide = c;
        ContactBatches packed;
        pack_contacts(wide.contacts, wide.bodies, static_cast<int>(c.bodies.size()) - 1, packed);
        Case narrow = c;
        std::vector<int> disturbed_wide(c.bodies.size(), std::numeric_limits<int>::min());
        std::vector<int> disturbed_narrow = disturbed_wide;
        SubstepTargets t;
        t.motions = motions;
        t.inv_h = 480;
        t.measure = true;
        t.mark = real(0.1) * static_cast<real>(1 + trial % 16); // L/s: few to most skipped
        t.over_relaxation = over_relaxation;
        t.touch_speed = 2; // L/s: gaps up to 0.0042 L (random_case's reach 0.01)
        for (int sweep = 1; sweep <= 6; ++sweep) {
            t.sweep = sweep;
            t.focus = sweep > 1;
            t.disturbed = disturbed_wide;
            const real change_wide = solve_substep(packed, wide.contacts, wide.bodies, t, isa);
            // (One by one, every contact is of the rest, which a sweep that
            // focuses solves all of, over-relaxed as the batches are.)
            t.disturbed = disturbed_narrow;
            real change_narrow = 0;
            for (std::size_t k = 0; k < packed.batches.size(); ++k) {
                ContactBatches one = batch_one_by_one(packed, k);
                if (sweep > 1 && !disturbed_since(c, one.rest, disturbed_narrow, sweep - 1)) {
                    ++skipped;
                    continue;
                }
                ++solved;
                change_narrow =
                    std::max(change_narrow, solve_substep(one, narrow.contacts, narrow.bodies, t));
            }
            ContactBatches rest;
            rest.rest = packed.rest;
            change_narrow =
                std::max(change_narrow, solve_substep(rest, narrow.contacts, narrow.bodies, t));
            ASSERT_EQ(change_wide, change_narrow) << "trial " << trial << ", sweep " << sweep;
            ASSERT_EQ(disturbed_wide, disturbed_narrow) << "trial " << trial << ", sweep " << sweep;
        }
        unpack_contacts(packed, wide.contacts);
        expect_same_bits(wide, narrow, trial);
        for (const SolverContact& s : narrow.contacts) { // (the sweeps set their targets)
            for (int i = 0; i < s.count; ++i) {
                const bool touch =
                    s.points[static_cast<std::size_t>(i)].target_speed >= -t.touch_speed;
                in_touch += touch;
                beyond_touch += !touch;
            }
        }
    }
    EXPECT_GT(solved, 1000);
    EXPECT_GT(skipped, 500);
    EXPECT_GT(in_touch, 1000);
    EXPECT_GT(beyond_touch, 100);
}

TEST(ContactSolver, FocusedSweepsSolveTheBatchesOfBodiesDisturbedLately) {
    expect_focused_sweeps_match_the_rule(LaneIsa::baseline);
}

TEST(ContactSolver, AvxFocusedSweepsSolveTheBatchesOfBodiesDisturbedLately) {
    if (best_lane_isa() != LaneIsa::avx) {
        GTEST_SKIP() << "this CPU or compiler has no AVX copy of the batch solve";
    }
    expect_focused_sweeps_match_the_rule(LaneIsa::avx);
}

TEST(ContactSolver, OverRelaxedFocusedSweepsMatchTheRule) {
    expect_focused_sweeps_match_the_rule(LaneIsa::baseline, real(1.6));
}

TEST(ContactSolver, AvxOverRelaxedFocusedSweepsMatchTheRule) {
    if (best_lane_isa() != LaneIsa::avx) {
        GTEST_SKIP() << "this CPU or compiler has no AVX copy of the batch solve";
    }
    expect_focused_sweeps_match_the_rule(LaneIsa::avx, real(1.6));
}

// Each batch's flags say what its lanes hold, and a colour's contacts are
// packed blocks first, then two points, then one: only the batches where
// one kind gives way to the next mix kinds (so most skip the others' work).
TEST(ContactSolver, BatchesHoldOneKindOfContactButWhereTheKindChanges) {
    std::mt19937 rng(23);
    int block_only = 0;
    int one_point_only = 0;
    for (int trial = 0; trial < 100; ++trial) {
        const Case c = random_case(rng, 20 + trial, 4 * (20 + trial));
        ContactBatches packed;
        pack_contacts(c.contacts, c.bodies, static_cast<int>(c.bodies.size()) - 1, packed);
        int mixed = 0;
        for (std::size_t k = 0; k < packed.batches.size(); ++k) {
            const ContactBatch& batch = packed.batches[k];
            bool blocks = false;
            bool singles = false;
            int most_points = 0;
            int two_point_singles = 0;
            int lanes = 0;
            for (int l = 0; l < k_lanes; ++l) {
                const int ci = packed.lanes[k * k_lanes + static_cast<std::size_t>(l)];
                if (ci < 0) {
                    continue;
                }
                const SolverContact& s = c.contacts[static_cast<std::size_t>(ci)];
                ++lanes;
                blocks = blocks || s.block;
                singles = singles || !s.block;
                most_points = std::max(most_points, s.count);
                two_point_singles += !s.block && s.count == 2;
            }
            ASSERT_EQ(batch.blocks, blocks) << "trial " << trial << ", batch " << k;
            ASSERT_EQ(batch.singles, singles) << "trial " << trial << ", batch " << k;
            ASSERT_EQ(batch.points_solved, most_points) << "trial " << trial << ", batch " << k;
            const bool one_kind =
                !(blocks && singles) && (two_point_singles == 0 || two_point_singles == lanes);
            mixed += one_kind ? 0 : 1;
            block_only += blocks && !singles;
            one_point_only += most_points == 1;
        }
        // Two changes of kind a colour at most, in 16 colours (k_colors).
        ASSERT_LE(mixed, 2 * 16) << "trial " << trial;
    }
    EXPECT_GT(block_only, 100);
    EXPECT_GT(one_point_only, 100);
}

TEST(ContactSolver, NoTwoContactsOfABatchShareABodyThatImpulsesMove) {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 100; ++trial) {
        const Case c = random_case(rng, 10 + trial, 3 * (10 + trial));
        ContactBatches packed;
        pack_contacts(c.contacts, c.bodies, static_cast<int>(c.bodies.size()) - 1, packed);
        std::vector<int> seen(c.contacts.size(), 0);
        for (std::size_t k = 0; k < packed.batches.size(); ++k) {
            std::vector<int> moved;
            for (int l = 0; l < k_lanes; ++l) {
                const int ci = packed.lanes[k * k_lanes + static_cast<std::size_t>(l)];
                if (ci < 0) {
                    continue;
                }
                ++seen[static_cast<std::size_t>(ci)];
                for (const int b : {c.contacts[static_cast<std::size_t>(ci)].body_a,
                                    c.contacts[static_cast<std::size_t>(ci)].body_b}) {
                    if (c.bodies[static_cast<std::size_t>(b)].inv_mass > 0) {
                        ASSERT_EQ(std::count(moved.begin(), moved.end(), b), 0)
                            << "trial " << trial << ", batch " << k;
                        moved.push_back(b);
                    }
                }
            }
        }
        for (const int ci : packed.rest) {
            ++seen[static_cast<std::size_t>(ci)];
        }
        // Every contact once, in a batch or in the rest.
        for (std::size_t ci = 0; ci < seen.size(); ++ci) {
            ASSERT_EQ(seen[ci], 1) << "trial " << trial << ", contact " << ci;
        }
    }
}

} // namespace
} // namespace sweep
