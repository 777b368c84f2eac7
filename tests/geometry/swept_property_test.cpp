// The seed articles' closed-form sweeps on random inputs (fixed seeds):
// swept_aabb against dense time sampling and against shape_cast of the same
// boxes, swept_circles against shape_cast and a double-precision quadratic,
// intersect_segments against exact integer arithmetic and double Cramer,
// swept_circle_aabb against the first root of a brute-force separation in
// double and against shape_cast of a circle and a box.
#include "sweep/swept.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
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

// --- swept circle vs AABB --------------------------------------------------

struct CircleBoxCase {
    Aabb box;
    Vec2 c;
    real r = 0;
    Vec2 d;
};

/// Puts the circle's centre touching the box: at a point q of the box's
/// boundary (a face, or a corner with a normal anywhere in its quadrant),
/// r + (up to 0.9 of the band) out along the normal there; and a motion in,
/// along (exactly along a face) or away.
void start_touching(std::mt19937& rng, CircleBoxCase& c, double band) {
    const int side = test::uniform_int(rng, 0, 3);
    const double u = uniform(rng, -0.2, 1.2); // beyond [0, 1]: a corner
    const double x0 = c.box.lower.x, x1 = c.box.upper.x;
    const double y0 = c.box.lower.y, y1 = c.box.upper.y;
    test::D2 q;
    test::D2 n;
    const double along = side < 2 ? x0 + u * (x1 - x0) : y0 + u * (y1 - y0);
    if (side < 2) {
        q = {std::clamp(along, x0, x1), side == 0 ? y1 : y0};
        n = {along < x0 ? -1.0 : along > x1 ? 1.0 : 0.0, side == 0 ? 1.0 : -1.0};
    } else {
        q = {side == 2 ? x1 : x0, std::clamp(along, y0, y1)};
        n = {side == 2 ? 1.0 : -1.0, along < y0 ? -1.0 : along > y1 ? 1.0 : 0.0};
    }
    if (n.x != 0 && n.y != 0) {
        const double a = uniform(rng, 0.05, 1.52);
        n = {n.x * std::cos(a), n.y * std::sin(a)};
    }
    const double off = double(c.r) + uniform(rng, -0.9, 0.9) * band;
    c.c = {real(q.x + off * n.x), real(q.y + off * n.y)};
    const double len = uniform(rng, 0.1, 3);
    const double a = uniform(rng, 0, 2 * 3.14159265358979);
    if (test::uniform_int(rng, 0, 2) == 0 && (n.x == 0 || n.y == 0)) {
        c.d = {real(n.y * len), real(-n.x * len)}; // exactly along the face
    } else {
        c.d = {real(len * std::cos(a)), real(len * std::sin(a))};
    }
}

/// A circle aimed near a box (about half the cases hit). Some radii are 0
/// (a point) or tiny, some boxes have no width or height (a segment), some
/// starts touch the box (within the band, on a face or a corner, moving in,
/// along or away), some motions are axis-aligned or zero.
CircleBoxCase random_circle_box(std::mt19937& rng) {
    CircleBoxCase c;
    c.box = random_box(rng, 1);
    const int box_kind = test::uniform_int(rng, 0, 39);
    if (box_kind == 0) {
        c.box.upper.x = c.box.lower.x; // a vertical segment
    } else if (box_kind == 1) {
        c.box.upper.y = c.box.lower.y; // a horizontal segment
    }
    const int radius_kind = test::uniform_int(rng, 0, 9);
    c.r = radius_kind == 0   ? real(0)
          : radius_kind == 1 ? real(std::pow(10.0, uniform(rng, -4, -2)))
                             : real(uniform(rng, 0.05, 1.5));
    c.c = {real(uniform(rng, -6, 6)), real(uniform(rng, -6, 6))};
    const Vec2 aim{real(uniform(rng, -2.5, 2.5)), real(uniform(rng, -2.5, 2.5))};
    c.d = real(uniform(rng, 0.2, 2.0)) * (aim - c.c);
    if (test::uniform_int(rng, 0, 7) == 0) {
        start_touching(rng, c, k_tol);
    }
    const int motion_kind = test::uniform_int(rng, 0, 29);
    if (motion_kind == 0) {
        c.d.y = 0;
    } else if (motion_kind == 1) {
        c.d.x = 0;
    } else if (motion_kind == 2) {
        c.d = {};
    }
    return c;
}

/// The brute-force truth, in double: signed distance from p to the box (the
/// depth to the nearest face, negated, inside it).
double box_distance(const Aabb& b, test::D2 p) {
    const double dx = std::max(double(b.lower.x) - p.x, p.x - double(b.upper.x));
    const double dy = std::max(double(b.lower.y) - p.y, p.y - double(b.upper.y));
    if (dx <= 0 && dy <= 0) {
        return std::max(dx, dy);
    }
    return std::hypot(std::max(dx, 0.0), std::max(dy, 0.0));
}

test::D2 box_nearest(const Aabb& b, test::D2 p) {
    return {std::clamp(p.x, double(b.lower.x), double(b.upper.x)),
            std::clamp(p.y, double(b.lower.y), double(b.upper.y))};
}

test::D2 centre_at(const CircleBoxCase& c, double t) {
    return test::to_d2(c.c) + t * test::to_d2(c.d);
}

/// The separation at t: a convex function of t (a convex set's signed
/// distance along a line, less a constant).
double separation_at(const CircleBoxCase& c, double t) {
    return box_distance(c.box, centre_at(c, t)) - double(c.r);
}

/// The normal from the box to the centre outside it: from its nearest point;
/// a centre on the surface (a point's touch) takes it a little earlier.
test::D2 brute_normal(const CircleBoxCase& c, double t) {
    for (double back : {0.0, 1e-6, 1e-4}) {
        const test::D2 p = centre_at(c, t - back);
        const test::D2 v = p - box_nearest(c.box, p);
        const double len = test::norm(v);
        if (len > 1e-7) {
            return (1 / len) * v;
        }
    }
    return {0, 0};
}

/// The normal at the start as the contract defines it: from the box's
/// nearest point to the centre; for a centre on or inside the box, its
/// nearest face's axis (x before y).
test::D2 start_normal(const CircleBoxCase& c) {
    const test::D2 p0 = centre_at(c, 0);
    const test::D2 v = p0 - box_nearest(c.box, p0);
    if (test::norm(v) > 0) {
        return (1 / test::norm(v)) * v;
    }
    const double l = p0.x - c.box.lower.x, rr = c.box.upper.x - p0.x;
    const double b = p0.y - c.box.lower.y, a = c.box.upper.y - p0.y;
    return std::min(l, rr) <= std::min(b, a) ? test::D2{rr <= l ? 1.0 : -1.0, 0}
                                             : test::D2{0, a <= b ? 1.0 : -1.0};
}

struct Truth {
    double min_t = 0;   ///< where the separation is least over [0, 1]
    double min_sep = 0; ///< that least separation
    double root = -1;   ///< the first t with separation <= 0 (-1: none)
};

Truth brute_force(const CircleBoxCase& c) {
    Truth out;
    // Ternary search of the convex separation for its least value.
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 100; ++i) {
        const double m1 = lo + (hi - lo) / 3;
        const double m2 = hi - (hi - lo) / 3;
        if (separation_at(c, m1) < separation_at(c, m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    out.min_t = lo;
    out.min_sep = separation_at(c, lo);
    // Dense sampling can only find a lower value where the search erred.
    for (int k = 0; k <= 256; ++k) {
        const double s = separation_at(c, k / 256.0);
        if (s < out.min_sep) {
            out.min_sep = s;
            out.min_t = k / 256.0;
        }
    }
    if (out.min_sep > 0) {
        return out;
    }
    // Convex: non-increasing on [0, min_t], so the first root is bracketed.
    lo = 0;
    hi = out.min_t;
    if (separation_at(c, 0) <= 0) {
        out.root = 0;
        return out;
    }
    for (int i = 0; i < 100; ++i) {
        const double m = 0.5 * (lo + hi);
        (separation_at(c, m) > 0 ? lo : hi) = m;
    }
    out.root = hi;
    return out;
}

std::string describe(const CircleBoxCase& c) {
    char buf[256];
    std::snprintf(
        buf, sizeof buf, "box (%.9g, %.9g)-(%.9g, %.9g) c (%.9g, %.9g) r %.9g d (%.9g, %.9g)",
        double(c.box.lower.x), double(c.box.lower.y), double(c.box.upper.x), double(c.box.upper.y),
        double(c.c.x), double(c.c.y), double(c.r), double(c.d.x), double(c.d.y));
    return buf;
}

TEST(SweptCircleAabbProperty, MatchesTheFirstRootOfTheBruteForceSeparation) {
    std::mt19937 rng(4008);
    const int cases = test::property_cases(100000);
    const double eps = k_length_eps;
    int hits = 0;
    int misses = 0;
    int corner_hits = 0;
    int touching_hits = 0;
    for (int n = 0; n < cases; ++n) {
        const CircleBoxCase c = random_circle_box(rng);
        const SweptCircleAabbResult r = swept_circle_aabb(c.box, c.c, c.r, c.d);
        SCOPED_TRACE("case " + std::to_string(n) + " " + describe(c));
        const double s0 = separation_at(c, 0);
        // Starts at the band's edges may fall either side of it.
        if (std::abs(std::abs(s0) - k_tol) < eps) {
            continue;
        }
        if (s0 < -k_tol) {
            ASSERT_EQ(r.state, CastState::overlapped);
            EXPECT_EQ(r.t, 0);
            continue;
        }
        ASSERT_NE(r.state, CastState::overlapped);
        ASSERT_NE(r.state, CastState::invalid_input);
        if (s0 <= k_tol) {
            // Touching: t = 0 exactly when the motion closes along the
            // normal at the start (its rate of change of separation < 0).
            const test::D2 n0 = start_normal(c);
            const double rate = test::dot(n0, test::to_d2(c.d));
            if (std::abs(rate) < 1e-4 * (1 + test::norm(test::to_d2(c.d)))) {
                continue; // along the surface to within rounding
            }
            if (rate > 0) {
                EXPECT_EQ(r.state, CastState::miss);
                continue;
            }
            ASSERT_EQ(r.state, CastState::hit);
            ++touching_hits;
            EXPECT_EQ(r.t, 0);
        } else {
            const Truth truth = brute_force(c);
            // Grazes: the least separation within rounding of zero.
            if (std::abs(truth.min_sep) < 1e-4 * (1 + test::norm(test::to_d2(c.d)))) {
                continue;
            }
            if (truth.min_sep > 0) {
                ASSERT_EQ(r.state, CastState::miss) << "least separation " << truth.min_sep;
                ++misses;
                continue;
            }
            ASSERT_EQ(r.state, CastState::hit)
                << "least separation " << truth.min_sep << " at " << truth.min_t;
            // The brute-force root, compared as a length along the normal.
            const test::D2 nb = brute_normal(c, truth.root);
            const double closing = -test::dot(nb, test::to_d2(c.d));
            ASSERT_GT(closing, 0);
            EXPECT_NEAR(double(r.t) * closing, truth.root * closing, 2 * eps)
                << "root " << truth.root;
            // The normal turns with the centre around a corner: by the
            // sideways motion over the radius.
            if (c.r >= real(0.05)) {
                const double turn = std::abs(double(r.t) - truth.root) *
                                        test::norm(test::to_d2(c.d)) / double(c.r) +
                                    1e-4;
                EXPECT_NEAR(r.normal.x, nb.x, turn);
                EXPECT_NEAR(r.normal.y, nb.y, turn);
            }
        }
        ASSERT_EQ(r.state, CastState::hit);
        ++hits;
        corner_hits += r.corner ? 1 : 0;
        ASSERT_GE(r.t, 0);
        ASSERT_LE(r.t, 1);
        const double t = double(r.t);
        // At t the circle touches; before it, it never did.
        EXPECT_NEAR(separation_at(c, t), 0, k_tol + eps);
        for (int k = 0; k < 32; ++k) {
            ASSERT_GT(separation_at(c, t * k / 32.0), -k_tol - eps) << "at " << t * k / 32.0;
        }
        // The normal: unit, against the motion, and from the box to the
        // centre at t (a centre inside the box: its nearest face's axis).
        EXPECT_NEAR(length(r.normal), 1, 1e-5);
        EXPECT_LT(dot(r.normal, c.d), 0);
        const test::D2 nt = brute_normal(c, t);
        if (c.r >= real(0.05)) {
            EXPECT_NEAR(r.normal.x, nt.x, 1e-3);
            EXPECT_NEAR(r.normal.y, nt.y, 1e-3);
        }
        // The point: on the box's surface, the box's nearest to the centre at t.
        const test::D2 pt = test::to_d2(r.point);
        EXPECT_NEAR(box_distance(c.box, pt), 0, eps);
        const test::D2 near_t = box_nearest(c.box, centre_at(c, t));
        if (box_distance(c.box, centre_at(c, t)) > eps) {
            EXPECT_NEAR(pt.x, near_t.x, eps);
            EXPECT_NEAR(pt.y, near_t.y, eps);
        }
        // A corner hit is at a corner, with a normal off both axes; a face
        // hit's normal is an axis.
        if (r.corner) {
            EXPECT_TRUE(pt.x == double(c.box.lower.x) || pt.x == double(c.box.upper.x));
            EXPECT_TRUE(pt.y == double(c.box.lower.y) || pt.y == double(c.box.upper.y));
            EXPECT_NE(r.normal.x, 0);
            EXPECT_NE(r.normal.y, 0);
        } else {
            EXPECT_EQ(std::abs(r.normal.x) + std::abs(r.normal.y), 1);
            EXPECT_TRUE(r.normal.x == 0 || r.normal.y == 0);
        }
    }
    EXPECT_GT(hits, cases / 4);
    EXPECT_GT(misses, cases / 4);
    EXPECT_GT(corner_hits, cases / 50);
    EXPECT_GT(touching_hits, cases / 100);
}

TEST(SweptCircleAabbProperty, AgreesWithShapeCastOfACircleAndABox) {
    // The same motion as a shape cast with target separation 0: the box is
    // A (still), the circle B (moving).
    std::mt19937 rng(4009);
    const int cases = test::property_cases(40000);
    int compared = 0;
    for (int n = 0; n < cases; ++n) {
        const CircleBoxCase c = random_circle_box(rng);
        const Vec2 e = extents(c.box);
        if (e.x <= 0 || e.y <= 0) {
            continue; // make_box needs a positive extent
        }
        const SweptCircleAabbResult r = swept_circle_aabb(c.box, c.c, c.r, c.d);
        ShapeCastInput in;
        in.proxy_a = make_proxy(Shape{make_box(e.x, e.y).value()});
        in.proxy_b = make_proxy(Shape{Circle{{0, 0}, c.r}});
        in.xf_a = {center(c.box), {}};
        in.xf_b = {c.c, {}};
        in.translation_b = c.d;
        in.target_separation = 0;
        const CastOutput s = shape_cast(in);
        SCOPED_TRACE("case " + std::to_string(n) + " " + describe(c));
        // Touching or overlapped starts are the first test's; so are grazes
        // within shape_cast's tolerance band.
        if (separation_at(c, 0) < 4 * k_tol) {
            continue;
        }
        const Truth truth = brute_force(c);
        if (std::abs(truth.min_sep) < 4 * k_tol + k_length_eps) {
            continue;
        }
        ASSERT_EQ(r.state, s.state) << "least separation " << truth.min_sep;
        if (r.state != CastState::hit) {
            continue;
        }
        ++compared;
        // shape_cast stops within its touch tolerance of contact: compared
        // as lengths along the normal.
        const double closing = -double(dot(r.normal, c.d));
        ASSERT_GT(closing, 0);
        EXPECT_NEAR(double(s.fraction) * closing, double(r.t) * closing,
                    2 * k_tol + 10 * k_length_eps);
        // GJK's normal at a touching distance is only good to the tolerance
        // over the radius (a corner) or exact (a face).
        const double normal_tol = 2 * (k_tol + k_length_eps) / std::max(double(c.r), 1e-3) *
                                      (1 + double(length(c.d)) / closing) +
                                  1e-3;
        EXPECT_NEAR(s.normal.x, r.normal.x, normal_tol);
        EXPECT_NEAR(s.normal.y, r.normal.y, normal_tol);
    }
    EXPECT_GT(compared, cases / 5);
}

// With a touch tolerance of 0 a start at the surface is decided by rounding:
// the grown box's bounds (box -+ radius) round apart from the separation
// (|centre - box| - radius), so a centre separated by an ulp could lie
// inside the grown box beside a face. That was taken for the face met along
// the motion: a hit at t = 0 moving away, with the normal reversed (72,015
// of 2,000,000 probes at the left face). Centres a few ulps around the
// surface, moving anywhere: moving away (or along) is a miss; a hit closes
// along its normal, the outward one at the start; a miss while closing only
// grazes.
TEST(SweptCircleAabbProperty, WithNoToleranceAStartAtTheSurfaceHitsOnlyWhenClosing) {
    std::mt19937 rng(4010);
    const int cases = test::property_cases(100000);
    int hits = 0;
    int misses = 0;
    for (int n = 0; n < cases; ++n) {
        CircleBoxCase c;
        c.box = random_box(rng, 1);
        c.r = test::uniform_int(rng, 0, 4) == 0 ? real(0) : real(uniform(rng, 0.05, 1.5));
        start_touching(rng, c, 0);
        for (real* v : {&c.c.x, &c.c.y}) {
            for (int k = test::uniform_int(rng, -3, 3); k != 0; k += k > 0 ? -1 : 1) {
                *v = std::nextafter(*v, k > 0 ? real(1e9) : real(-1e9));
            }
        }
        const SweptCircleAabbResult r = swept_circle_aabb(c.box, c.c, c.r, c.d, 0);
        SCOPED_TRACE("case " + std::to_string(n) + " " + describe(c));
        const double s0 = separation_at(c, 0);
        if (r.state == CastState::overlapped) {
            EXPECT_LT(s0, k_length_eps);
            continue;
        }
        ASSERT_GT(s0, -k_length_eps);
        const test::D2 n0 = start_normal(c);
        const double rate = test::dot(n0, test::to_d2(c.d));
        if (std::abs(rate) < 1e-3 * test::norm(test::to_d2(c.d))) {
            continue; // along the surface: a graze either way
        }
        if (rate > 0) {
            EXPECT_EQ(r.state, CastState::miss) << "normal " << r.normal.x << ", " << r.normal.y;
            ++misses;
            continue;
        }
        if (r.state != CastState::hit) {
            // Closing at first, a miss only where the path passes the
            // surface within rounding (off a corner it starts beside).
            ASSERT_EQ(r.state, CastState::miss);
            EXPECT_GT(brute_force(c).min_sep, -1e-4 * (1 + test::norm(test::to_d2(c.d))));
            continue;
        }
        ++hits;
        const double t = double(r.t);
        EXPECT_NEAR(separation_at(c, t), 0, k_length_eps);
        for (int k = 0; k < 8; ++k) {
            ASSERT_GT(separation_at(c, t * k / 8.0), -k_length_eps);
        }
        EXPECT_LT(dot(r.normal, c.d), 0);
        // Outward: the reversed normal (into the box) was the bug. A point
        // (r = 0) an ulp off a corner may meet either face there first.
        EXPECT_GT(test::dot(test::to_d2(r.normal), n0), 0);
        if (c.r > 0) {
            const test::D2 nt = brute_normal(c, t);
            EXPECT_NEAR(r.normal.x, nt.x, 1e-3);
            EXPECT_NEAR(r.normal.y, nt.y, 1e-3);
        }
        EXPECT_NEAR(box_distance(c.box, test::to_d2(r.point)), 0, k_length_eps);
    }
    EXPECT_GT(hits, cases / 8);
    EXPECT_GT(misses, cases / 8);
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
