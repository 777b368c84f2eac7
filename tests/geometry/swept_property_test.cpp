// The seed articles' closed-form sweeps on random inputs (fixed seeds):
// swept_aabb against dense time sampling and against shape_cast of the same
// boxes, swept_circles against shape_cast and a double-precision quadratic,
// intersect_segments against exact integer arithmetic and double Cramer.
#include "sweep/swept.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "../support/property.hpp"
#include "printers.hpp"
#include "reference_geometry.hpp"
#include "sweep/shape_cast.hpp"

namespace sweep {
namespace {

using test::k_length_eps;
using test::uniform;

const double k_tol = double(k_touch_tolerance);

struct BoxCase {
    Aabb a;
    Vec2 d;
    Aabb b;
};

Aabb random_box(std::mt19937& rng, double range) {
    const double cx = uniform(rng, -range, range);
    const double cy = uniform(rng, -range, range);
    const double hx = uniform(rng, 0.05, 2);
    const double hy = uniform(rng, 0.05, 2);
    return {{real(cx - hx), real(cy - hy)}, {real(cx + hx), real(cy + hy)}};
}

/// A moving box aimed near a target (about half the cases miss), sometimes
/// starting flush against one of its faces.
BoxCase random_case(std::mt19937& rng) {
    BoxCase c;
    c.b = random_box(rng, 1);
    c.a = random_box(rng, 6);
    if (test::uniform_int(rng, 0, 9) == 0) {
        // Flush against B's top face, x anywhere near it.
        const real h = c.a.upper.y - c.a.lower.y;
        c.a.lower.y = c.b.upper.y;
        c.a.upper.y = c.b.upper.y + h;
    }
    const Vec2 aim{real(uniform(rng, -2.5, 2.5)), real(uniform(rng, -2.5, 2.5))};
    c.d = real(uniform(rng, 0.2, 2.0)) * (aim - center(c.a));
    if (test::uniform_int(rng, 0, 9) == 0) {
        c.d.y = 0; // axis-aligned motion: sliding along faces
    }
    return c;
}

/// Penetration (double) of A moved by t d into B: the least overlap over the
/// axes; negative when apart (the larger gap).
double penetration(const BoxCase& c, double t) {
    const double ax0 = double(c.a.lower.x) + t * double(c.d.x);
    const double ax1 = double(c.a.upper.x) + t * double(c.d.x);
    const double ay0 = double(c.a.lower.y) + t * double(c.d.y);
    const double ay1 = double(c.a.upper.y) + t * double(c.d.y);
    const double gx = std::max(double(c.b.lower.x) - ax1, ax0 - double(c.b.upper.x));
    const double gy = std::max(double(c.b.lower.y) - ay1, ay0 - double(c.b.upper.y));
    return -std::max(gx, gy);
}

TEST(SweptAabbProperty, EntryIsTheFirstOverlapOfADenseSampling) {
    std::mt19937 rng(4001);
    const int cases = test::property_cases(100000);
    const int samples = 200;
    const double band = k_tol + k_length_eps;
    int hits = 0;
    for (int n = 0; n < cases; ++n) {
        const BoxCase c = random_case(rng);
        const SweptAabbResult r = swept_aabb(c.a, c.d, c.b);
        SCOPED_TRACE("case " + std::to_string(n));
        const double p0 = penetration(c, 0);
        if (r.state == CastState::overlapped) {
            EXPECT_GT(p0, k_tol - k_length_eps);
            continue;
        }
        ASSERT_LE(p0, band);
        double max_p = -1e30;
        double first_deep = 2;
        for (int k = 0; k <= samples; ++k) {
            const double t = double(k) / samples;
            const double p = penetration(c, t);
            max_p = std::max(max_p, p);
            if (p > band && first_deep > 1) {
                first_deep = t;
            }
            if (r.state == CastState::hit && t < double(r.entry) - 1e-5) {
                ASSERT_LE(p, band) << "overlap at " << t << " before entry " << r.entry;
            }
        }
        if (r.state == CastState::miss) {
            // No overlap deeper than the band anywhere along the motion.
            ASSERT_LE(max_p, band);
            continue;
        }
        ASSERT_EQ(r.state, CastState::hit);
        ++hits;
        ASSERT_GE(r.entry, 0);
        ASSERT_LE(r.entry, 1);
        ASSERT_GT(r.exit, r.entry);
        if (first_deep <= 1) {
            EXPECT_LE(double(r.entry), first_deep + 1e-6);
        }
        // At the entry the boxes touch: no deeper than the band, no further
        // apart than it (entry 0 from a touching start included).
        EXPECT_NEAR(penetration(c, double(r.entry)), 0, band);
        // Between the first sampled overlap and the exit they overlap: the
        // penetration along a straight motion is concave (the least of
        // each axis's tent), so it stays above its ends. (Not just after
        // the entry: from a touching start the entered axis may take a
        // while to close; case 273267 of the 5x run closes 0.0005 L at
        // 0.016 L per unit of t.)
        if (first_deep <= 1) {
            EXPECT_GT(penetration(c, 0.5 * (first_deep + double(r.exit))), 0);
        }
        // The normal is the entered face's, pointing along the motion on it.
        EXPECT_GT(dot(r.normal, c.d), 0);
    }
    EXPECT_GT(hits, cases / 5);
}

TEST(SweptAabbProperty, AgreesWithShapeCastOfTheSameBoxes) {
    std::mt19937 rng(4002);
    const int cases = test::property_cases(100000);
    int compared = 0;
    for (int n = 0; n < cases; ++n) {
        const BoxCase c = random_case(rng);
        const SweptAabbResult r = swept_aabb(c.a, c.d, c.b);
        // Starts within the touching band are left to the sampling test:
        // there shape_cast decides "moving inward" from GJK's normal at a
        // distance of a few ulps, which for two flush faces can come out as
        // the other axis (a box resting on a box and pushed down-right then
        // reads as moving away: miss where swept_aabb hits at t = 0).
        if (r.state == CastState::overlapped || penetration(c, 0) > -(k_tol + k_length_eps)) {
            continue;
        }
        // shape_cast moves B: the target is its A and the moving box its B.
        const Vec2 ea = extents(c.b);
        const Vec2 eb = extents(c.a);
        ShapeCastInput in;
        in.proxy_a = make_proxy(Shape{make_box(ea.x, ea.y).value()});
        in.proxy_b = make_proxy(Shape{make_box(eb.x, eb.y).value()});
        in.xf_a = {center(c.b), {}};
        in.xf_b = {center(c.a), {}};
        in.translation_b = c.d;
        // A slop short of contact, as the library's callers cast: with a
        // target of 0, GJK's normal at the (zero) hit distance may come out
        // as the other axis.
        const double slop = double(k_linear_slop);
        in.target_separation = real(slop);
        const CastOutput s = shape_cast(in);
        SCOPED_TRACE("case " + std::to_string(n));
        // Grazing motions (the deepest overlap along the path within a few
        // tolerances) may fall either side of the touching band.
        double max_p = -1e30;
        for (int k = 0; k <= 64; ++k) {
            max_p = std::max(max_p, penetration(c, k / 64.0));
        }
        const double exit_p =
            r.state == CastState::hit
                ? penetration(c, 0.5 * (double(r.entry) + std::min(1.0, double(r.exit))))
                : max_p;
        if (std::max(max_p, exit_p) < 4 * k_tol + 1e-3) {
            continue;
        }
        const bool sc_hit = s.state == CastState::hit;
        ASSERT_EQ(r.state == CastState::hit, sc_hit)
            << "swept " << int(r.state) << " shape_cast " << int(s.state) << " A " << c.a.lower.x
            << "," << c.a.lower.y << " " << c.a.upper.x << "," << c.a.upper.y << " d " << c.d.x
            << "," << c.d.y << " B " << c.b.lower.x << "," << c.b.lower.y << " " << c.b.upper.x
            << "," << c.b.upper.y << " entry " << r.entry << " sc " << s.fraction << " max_p "
            << max_p;
        if (!sc_hit) {
            continue;
        }
        // shape_cast stops a slop (within its touch tolerance) short: never
        // later than the contact.
        EXPECT_LE(double(s.fraction), double(r.entry) + 1e-6);
        // On a face hit whose faces already overlap sideways a slop earlier
        // (not a corner approach), exactly a slop over the closing speed
        // earlier, with the face's normal from the target to the moving box.
        const double closing = std::abs(double(dot(r.normal, c.d)));
        const double sideways = std::abs(double(r.axis == 0 ? c.d.y : c.d.x));
        if (double(r.contact_length) > 2 * sideways * slop / closing + 1e-3 &&
            double(r.entry) * closing > slop + 4 * k_tol) {
            ++compared;
            EXPECT_NEAR(double(s.fraction) * closing, double(r.entry) * closing - slop,
                        2 * k_tol + 10 * k_length_eps);
            EXPECT_NEAR(s.normal.x, -r.normal.x, 1e-3);
            EXPECT_NEAR(s.normal.y, -r.normal.y, 1e-3);
        }
    }
    EXPECT_GT(compared, cases / 10);
}

// --- swept circles ---------------------------------------------------------

struct CircleCase {
    Vec2 c0a, c1a, c0b, c1b;
    real ra = 0, rb = 0;
};

CircleCase random_circles(std::mt19937& rng) {
    CircleCase c;
    c.ra = real(uniform(rng, 0.05, 1.5));
    c.rb = real(uniform(rng, 0.05, 1.5));
    c.c0a = {real(uniform(rng, -6, 6)), real(uniform(rng, -6, 6))};
    c.c0b = {real(uniform(rng, -2, 2)), real(uniform(rng, -2, 2))};
    const Vec2 aim{real(uniform(rng, -3, 3)), real(uniform(rng, -3, 3))};
    c.c1a = c.c0a + real(uniform(rng, 0.2, 2)) * (aim - c.c0a);
    c.c1b = c.c0b + Vec2{real(uniform(rng, -2, 2)), real(uniform(rng, -2, 2))};
    if (test::uniform_int(rng, 0, 9) == 0) {
        // Start touching.
        const Vec2 dir = normalize(c.c0a - c.c0b);
        c.c0a = c.c0b + (c.ra + c.rb) * dir;
    }
    return c;
}

/// Distance between the surfaces at time t, in double.
double gap_at(const CircleCase& c, double t) {
    const test::D2 a = test::to_d2(c.c0a) + t * (test::to_d2(c.c1a) - test::to_d2(c.c0a));
    const test::D2 b = test::to_d2(c.c0b) + t * (test::to_d2(c.c1b) - test::to_d2(c.c0b));
    return test::norm(b - a) - double(c.ra) - double(c.rb);
}

TEST(SweptCirclesProperty, RootMatchesDoublePrecisionAndShapeCast) {
    std::mt19937 rng(4003);
    const int cases = test::property_cases(100000);
    int hits = 0;
    for (int n = 0; n < cases; ++n) {
        const CircleCase c = random_circles(rng);
        const SweptCircleResult r = swept_circles(c.c0a, c.c1a, c.ra, c.c0b, c.c1b, c.rb);
        SCOPED_TRACE("case " + std::to_string(n));
        const double g0 = gap_at(c, 0);
        if (r.state == CastState::overlapped) {
            EXPECT_LT(g0, -k_tol + k_length_eps);
            continue;
        }
        ASSERT_GE(g0, -k_tol - k_length_eps);
        // The closest approach over [0, 1] (the gap is convex in t).
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 60; ++i) {
            const double m1 = lo + (hi - lo) / 3;
            const double m2 = hi - (hi - lo) / 3;
            if (gap_at(c, m1) < gap_at(c, m2)) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        const double closest = gap_at(c, lo);
        if (r.state == CastState::miss) {
            EXPECT_GE(closest, -k_tol - k_length_eps);
            continue;
        }
        ASSERT_EQ(r.state, CastState::hit);
        ++hits;
        // At t the surfaces touch (within the band); before it they never do.
        EXPECT_NEAR(gap_at(c, double(r.t)), 0, k_tol + k_length_eps);
        for (int k = 0; k < 16; ++k) {
            const double t = double(r.t) * k / 16.0;
            ASSERT_GE(gap_at(c, t), -k_tol - k_length_eps); // the start may touch, sunk
        }
        EXPECT_NEAR(length(r.normal), 1, 1e-5);

        // The same motion as a shape cast: A still, B moving relative to it.
        if (r.t == 0 || closest > -1e-2) {
            continue; // touching starts and grazes: covered above
        }
        ShapeCastInput in;
        in.proxy_a = make_proxy(Shape{Circle{{0, 0}, c.ra}});
        in.proxy_b = make_proxy(Shape{Circle{{0, 0}, c.rb}});
        in.xf_a = {c.c0a, {}};
        in.xf_b = {c.c0b, {}};
        in.translation_b = (c.c1b - c.c0b) - (c.c1a - c.c0a);
        // Cast to a slop short of contact, as callers do, and compare with
        // the quadratic for radius sum + slop.
        const real slop = k_linear_slop;
        in.target_separation = slop;
        const CastOutput s = shape_cast(in);
        const SweptCircleResult early =
            swept_circles(c.c0a, c.c1a, c.ra + slop, c.c0b, c.c1b, c.rb);
        if (early.state == CastState::overlapped ||
            (early.state == CastState::hit && early.t == 0)) {
            continue; // starts within a slop: t = 0 or overlapped by either
        }
        ASSERT_EQ(s.state, early.state);
        if (early.state != CastState::hit) {
            continue;
        }
        const double closing = -double(dot(in.translation_b, early.normal));
        EXPECT_NEAR(double(s.fraction) * closing, double(early.t) * closing,
                    2 * k_tol + 10 * k_length_eps);
        // shape_cast may stop anywhere in its touch band: the normal turns by
        // up to the sideways motion in that time over the radius sum.
        const double speed = double(length(in.translation_b));
        const double normal_tol = 2 * k_tol * speed / closing / double(c.ra + c.rb + slop) + 1e-4;
        EXPECT_NEAR(s.normal.x, early.normal.x, normal_tol);
        EXPECT_NEAR(s.normal.y, early.normal.y, normal_tol);
    }
    EXPECT_GT(hits, cases / 5);
}

TEST(SweptSpheresProperty, PlanarMotionMatchesTheCircles) {
    // Spheres whose centres stay in the plane z = 0 are circles.
    std::mt19937 rng(4004);
    const int cases = test::property_cases(100000);
    for (int n = 0; n < cases; ++n) {
        const CircleCase c = random_circles(rng);
        const auto v3 = [](Vec2 v) { return Vec3{v.x, v.y, 0}; };
        const SweptCircleResult r2 = swept_circles(c.c0a, c.c1a, c.ra, c.c0b, c.c1b, c.rb);
        const SweptSphereResult r3 =
            swept_spheres(v3(c.c0a), v3(c.c1a), c.ra, v3(c.c0b), v3(c.c1b), c.rb);
        ASSERT_EQ(r2.state, r3.state) << "case " << n;
        EXPECT_NEAR(r2.t, r3.t, 1e-5);
        EXPECT_NEAR(r2.normal.x, r3.normal.x, 1e-5);
        EXPECT_EQ(r3.normal.z, 0);
    }
}

TEST(SweptSpheresProperty, RootIsTheFirstTouchOfADenseSamplingIn3D) {
    // Random 3D motions: at t the surfaces touch (within the band), never
    // before; a miss never comes within the band; swapping A and B gives
    // the same time and the opposite normal.
    std::mt19937 rng(4007);
    const int cases = test::property_cases(100000);
    const double band = k_tol + k_length_eps;
    int hits = 0;
    for (int n = 0; n < cases; ++n) {
        const auto rnd = [&rng](double r) {
            return Vec3{real(uniform(rng, -r, r)), real(uniform(rng, -r, r)),
                        real(uniform(rng, -r, r))};
        };
        const Vec3 c0a = rnd(5), c1a = rnd(2), c0b = rnd(2), c1b = rnd(2);
        const real ra = real(uniform(rng, 0.1, 1.5));
        const real rb = real(uniform(rng, 0.1, 1.5));
        const auto gap = [&](double t) {
            const double dx = (c0b.x + t * (c1b.x - c0b.x)) - (c0a.x + t * (c1a.x - c0a.x));
            const double dy = (c0b.y + t * (c1b.y - c0b.y)) - (c0a.y + t * (c1a.y - c0a.y));
            const double dz = (c0b.z + t * (c1b.z - c0b.z)) - (c0a.z + t * (c1a.z - c0a.z));
            return std::sqrt(dx * dx + dy * dy + dz * dz) - double(ra) - double(rb);
        };
        const SweptSphereResult r = swept_spheres(c0a, c1a, ra, c0b, c1b, rb);
        const SweptSphereResult swapped = swept_spheres(c0b, c1b, rb, c0a, c1a, ra);
        SCOPED_TRACE("case " + std::to_string(n));
        ASSERT_EQ(r.state, swapped.state);
        if (r.state == CastState::overlapped) {
            EXPECT_LT(gap(0), -k_tol + k_length_eps);
            continue;
        }
        double min_gap = 1e30;
        for (int k = 0; k <= 256; ++k) {
            const double t = k / 256.0;
            if (r.state == CastState::hit && t >= double(r.t)) {
                break;
            }
            min_gap = std::min(min_gap, gap(t));
        }
        if (r.state == CastState::miss) {
            EXPECT_GE(min_gap, -band);
            continue;
        }
        ++hits;
        EXPECT_GE(min_gap, -band);
        EXPECT_NEAR(gap(double(r.t)), 0, band);
        EXPECT_NEAR(r.t, swapped.t, 1e-5);
        EXPECT_NEAR(r.normal.x, -swapped.normal.x, 1e-4);
        EXPECT_NEAR(r.normal.y, -swapped.normal.y, 1e-4);
        EXPECT_NEAR(r.normal.z, -swapped.normal.z, 1e-4);
    }
    EXPECT_GT(hits, cases / 20);
}

// --- segment intersection --------------------------------------------------

/// Exact classification of two segments with small integer coordinates.
struct Exact {
    int kind = 0; ///< 0 none, 1 one point, 2 an interval
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

Exact exact_intersection(const std::int64_t p[4], const std::int64_t q[4]) {
    const std::int64_t dpx = p[2] - p[0], dpy = p[3] - p[1];
    const std::int64_t dqx = q[2] - q[0], dqy = q[3] - q[1];
    const std::int64_t wx = q[0] - p[0], wy = q[1] - p[1];
    const std::int64_t d = dpx * dqy - dpy * dqx;
    Exact e;
    if (d != 0) {
        std::int64_t nt = wx * dqy - wy * dqx;
        std::int64_t ns = wx * dpy - wy * dpx;
        std::int64_t dd = d;
        if (dd < 0) {
            nt = -nt;
            ns = -ns;
            dd = -dd;
        }
        if (nt < 0 || nt > dd || ns < 0 || ns > dd) {
            return e;
        }
        e.kind = 1;
        e.x0 = e.x1 = double(p[0]) + double(nt) / double(dd) * double(dpx);
        e.y0 = e.y1 = double(p[1]) + double(nt) / double(dd) * double(dpy);
        return e;
    }
    // Parallel or degenerate: the common set of collinear segments (or
    // points) is bounded by endpoints, so test each endpoint for lying on
    // both segments.
    const auto on = [](std::int64_t x, std::int64_t y, const std::int64_t s[4]) {
        const std::int64_t ex = s[2] - s[0], ey = s[3] - s[1];
        const std::int64_t rx = x - s[0], ry = y - s[1];
        if (ex == 0 && ey == 0) {
            return rx == 0 && ry == 0;
        }
        if (ex * ry - ey * rx != 0) {
            return false;
        }
        const std::int64_t dotv = ex * rx + ey * ry;
        return dotv >= 0 && dotv <= ex * ex + ey * ey;
    };
    double xs[4], ys[4];
    int count = 0;
    const std::int64_t pts[4][2] = {{p[0], p[1]}, {p[2], p[3]}, {q[0], q[1]}, {q[2], q[3]}};
    for (int i = 0; i < 4; ++i) {
        if (on(pts[i][0], pts[i][1], p) && on(pts[i][0], pts[i][1], q)) {
            xs[count] = double(pts[i][0]);
            ys[count] = double(pts[i][1]);
            ++count;
        }
    }
    if (count == 0) {
        return e;
    }
    // The common set is the segment between the two furthest common endpoints.
    int bi = 0, bj = 0;
    double best = -1;
    for (int i = 0; i < count; ++i) {
        for (int j = 0; j < count; ++j) {
            const double dd = std::hypot(xs[i] - xs[j], ys[i] - ys[j]);
            if (dd > best) {
                best = dd;
                bi = i;
                bj = j;
            }
        }
    }
    e.kind = best > 0 ? 2 : 1;
    e.x0 = xs[bi];
    e.y0 = ys[bi];
    e.x1 = xs[bj];
    e.y1 = ys[bj];
    return e;
}

TEST(IntersectSegmentsProperty, SmallIntegerSegmentsMatchExactArithmetic) {
    // Coordinates in [-3, 3]: many parallel, collinear, touching and
    // zero-length cases, all exact in float.
    using State = SegmentIntersectionState;
    std::mt19937 rng(4005);
    const int cases = test::property_cases(100000);
    int kinds[3] = {0, 0, 0};
    for (int n = 0; n < cases; ++n) {
        std::int64_t p[4], q[4];
        for (int i = 0; i < 4; ++i) {
            p[i] = test::uniform_int(rng, -3, 3);
            q[i] = test::uniform_int(rng, -3, 3);
        }
        const Vec2 p0{real(p[0]), real(p[1])}, p1{real(p[2]), real(p[3])};
        const Vec2 q0{real(q[0]), real(q[1])}, q1{real(q[2]), real(q[3])};
        const SegmentIntersection r = intersect_segments(p0, p1, q0, q1);
        const Exact e = exact_intersection(p, q);
        ++kinds[e.kind];
        SCOPED_TRACE("case " + std::to_string(n) + " P " + std::to_string(p[0]) + "," +
                     std::to_string(p[1]) + " " + std::to_string(p[2]) + "," +
                     std::to_string(p[3]) + " Q " + std::to_string(q[0]) + "," +
                     std::to_string(q[1]) + " " + std::to_string(q[2]) + "," +
                     std::to_string(q[3]));
        if (e.kind == 0) {
            ASSERT_TRUE(r.state == State::disjoint || r.state == State::parallel) << int(r.state);
            continue;
        }
        const Vec2 at_t = p0 + r.t * (p1 - p0);
        const Vec2 at_s = q0 + r.s * (q1 - q0);
        EXPECT_NEAR(at_t.x, at_s.x, 1e-5);
        EXPECT_NEAR(at_t.y, at_s.y, 1e-5);
        EXPECT_NEAR(r.point.x, at_t.x, 1e-5);
        if (e.kind == 1) {
            ASSERT_EQ(r.state, State::point);
            EXPECT_NEAR(r.point.x, e.x0, 1e-5);
            EXPECT_NEAR(r.point.y, e.y0, 1e-5);
            continue;
        }
        ASSERT_EQ(r.state, State::collinear);
        const Vec2 end_t = p0 + r.t_end * (p1 - p0);
        const Vec2 end_s = q0 + r.s_end * (q1 - q0);
        EXPECT_NEAR(end_t.x, end_s.x, 1e-5);
        EXPECT_NEAR(end_t.y, end_s.y, 1e-5);
        EXPECT_LE(r.t, r.t_end);
        // The interval's ends are the exact common endpoints (either order).
        const bool same = std::abs(at_t.x - e.x0) + std::abs(at_t.y - e.y0) < 1e-5 &&
                          std::abs(end_t.x - e.x1) + std::abs(end_t.y - e.y1) < 1e-5;
        const bool swapped = std::abs(at_t.x - e.x1) + std::abs(at_t.y - e.y1) < 1e-5 &&
                             std::abs(end_t.x - e.x0) + std::abs(end_t.y - e.y0) < 1e-5;
        EXPECT_TRUE(same || swapped);
    }
    EXPECT_GT(kinds[2], cases / 400); // about 1 in 200 is a collinear overlap
    EXPECT_GT(kinds[1], cases / 10);
}

TEST(IntersectSegmentsProperty, GenericSegmentsMatchDoubleCramer) {
    using State = SegmentIntersectionState;
    std::mt19937 rng(4006);
    const int cases = test::property_cases(100000);
    int points = 0;
    for (int n = 0; n < cases; ++n) {
        const auto rnd = [&rng] {
            return Vec2{real(uniform(rng, -10, 10)), real(uniform(rng, -10, 10))};
        };
        const Vec2 p0 = rnd(), p1 = rnd(), q0 = rnd(), q1 = rnd();
        const test::D2 dp = test::to_d2(p1) - test::to_d2(p0);
        const test::D2 dq = test::to_d2(q1) - test::to_d2(q0);
        const test::D2 w = test::to_d2(q0) - test::to_d2(p0);
        const double d = test::cross(dp, dq);
        // Skip near-parallel pairs and crossings near an end: there float
        // rounding may decide either way.
        if (std::abs(d) < 1e-3 * test::norm(dp) * test::norm(dq)) {
            continue;
        }
        const double t = test::cross(w, dq) / d;
        const double s = test::cross(w, dp) / d;
        const double margin = 1e-4;
        if (std::min({std::abs(t), std::abs(t - 1), std::abs(s), std::abs(s - 1)}) < margin) {
            continue;
        }
        const bool inside = t > 0 && t < 1 && s > 0 && s < 1;
        const SegmentIntersection r = intersect_segments(p0, p1, q0, q1);
        ASSERT_EQ(r.state, inside ? State::point : State::disjoint) << "case " << n;
        if (inside) {
            ++points;
            EXPECT_NEAR(r.t, t, 1e-3);
            EXPECT_NEAR(r.s, s, 1e-3);
        }
    }
    EXPECT_GT(points, cases / 10);
}

// Segments crossing at 1e-6 to 1e-3 rad (just above the parallel
// threshold, of a few ulps), at random places along both: the parameters
// are ratios of cross products that cancel almost to nothing, which in
// float gave s = 0 for 0.70 and a point 0.006 L off Q. Against Cramer in
// double on the same float coordinates, where those products are exact.
TEST(IntersectSegmentsProperty, NearlyParallelCrossingsMatchDoubleCramer) {
    using State = SegmentIntersectionState;
    std::mt19937 rng(4007);
    const int cases = test::property_cases(40000);
    int points = 0;
    for (int n = 0; n < cases; ++n) {
        const test::D2 c{uniform(rng, -5, 5), uniform(rng, -5, 5)};
        const double angle = uniform(rng, -3.1416, 3.1416);
        const double turn = std::pow(10.0, uniform(rng, -6, -3)) * (n % 2 ? 1 : -1);
        const test::D2 u{std::cos(angle), std::sin(angle)};
        const test::D2 v{std::cos(angle + turn), std::sin(angle + turn)};
        const double lp = uniform(rng, 0.05, 8);
        const double lq = uniform(rng, 0.05, 8);
        const double tp = uniform(rng, 0.05, 0.95); // where c lies along each
        const double tq = uniform(rng, 0.05, 0.95);
        const auto at = [](test::D2 p) { return Vec2{real(p.x), real(p.y)}; };
        const Vec2 p0 = at(c - tp * lp * u), p1 = at(c + (1 - tp) * lp * u);
        const Vec2 q0 = at(c - tq * lq * v), q1 = at(c + (1 - tq) * lq * v);
        const test::D2 dp = test::to_d2(p1) - test::to_d2(p0);
        const test::D2 dq = test::to_d2(q1) - test::to_d2(q0);
        const test::D2 w = test::to_d2(q0) - test::to_d2(p0);
        const double d = test::cross(dp, dq);
        const double t = test::cross(w, dq) / d;
        const double s = test::cross(w, dp) / d;
        if (std::abs(d) < 1e-5 * test::norm(dp) * test::norm(dq) ||
            std::min({t, 1 - t, s, 1 - s}) < 1e-3) {
            continue; // rounded parallel (to the threshold), or the crossing moved near an end
        }
        const SegmentIntersection r = intersect_segments(p0, p1, q0, q1);
        SCOPED_TRACE("case " + std::to_string(n));
        ASSERT_EQ(r.state, State::point);
        ++points;
        EXPECT_NEAR(r.t, t, 1e-5);
        EXPECT_NEAR(r.s, s, 1e-5);
    }
    EXPECT_GT(points, cases / 2);
}

} // namespace
} // namespace sweep
