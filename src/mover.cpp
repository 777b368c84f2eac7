// World::move: collide-and-slide by timeslice subdivision (see mover.hpp for
// the sources). Each iteration casts the body's shapes along what remains of
// the move, advances to the earliest contact, orders the contacts tied with
// it by the seeds' rules and responds to the leading one.
#include <algorithm>
#include <array>
#include <limits>
#include <optional>

#include "sweep/shape_cast.hpp"
#include "world_impl.hpp"

namespace sweep {
namespace {

// A contact found by a cast, before it is resolved.
struct Hit {
    int own_shape = -1;
    int other_shape = -1;
    real t = 1; // fraction of the remaining motion
    Vec2 normal;
    Vec2 point;
    MoveResponse response = MoveResponse::slide;
    real surface_area = 0;
    real separation = 0; // at the contact pose, from the manifold
    bool face = false;
};

// A cast hit at t = 0 whose normal is (numerically) perpendicular to the
// motion is a shape sliding along a surface it touches: not a block.
constexpr real k_tangent_cosine = real(1e-4);

// Ties are ordered by larger surface area, faces before corners, the normal,
// then the other shape's id: deterministic whatever the broadphase order.
// Without `by_area` (WorldDef::move_ties_by_surface_area off) only the
// normal and the id decide.
bool leads(const Hit& a, const Hit& b, bool by_area) {
    if (by_area && a.surface_area != b.surface_area) {
        return a.surface_area > b.surface_area;
    }
    if (by_area && a.face != b.face) {
        return a.face;
    }
    if (a.normal.x != b.normal.x) {
        return a.normal.x < b.normal.x;
    }
    if (a.normal.y != b.normal.y) {
        return a.normal.y < b.normal.y;
    }
    return a.other_shape < b.other_shape;
}

// Removes from v its components into each plane (normals n), so the motion
// stays on or leaves every plane; at an inner corner of two planes only the
// motion along their crease (if any) remains.
Vec2 clip_to_planes(Vec2 v, const std::vector<Vec2>& normals) {
    for (int pass = 0; pass < 3; ++pass) {
        bool clipped = false;
        for (Vec2 n : normals) {
            const real d = dot(v, n);
            if (d < 0) {
                v -= d * n;
                clipped = true;
            }
        }
        if (!clipped) {
            return v;
        }
    }
    for (Vec2 n : normals) {
        if (dot(v, n) < -real(1e-6) * length(v)) {
            return {}; // planes that cannot all be satisfied: stop
        }
    }
    return v;
}

// The world-frame outward normals of a proxy's edges (none for a point).
int edge_normals(const ShapeProxy& p, const Transform& xf,
                 std::array<Vec2, k_max_polygon_vertices>& out) {
    if (p.count < 2) {
        return 0;
    }
    for (int i = 0; i < p.count; ++i) {
        out[i] = rotate(xf.q, normalize(right_perp(p.points[(i + 1) % p.count] - p.points[i])));
    }
    return p.count;
}

// Gap between two proxies along n (from A to B), radii included.
real gap_along(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b, const Transform& xfb,
               Vec2 n) {
    real max_a = -std::numeric_limits<real>::max();
    real min_b = std::numeric_limits<real>::max();
    for (int i = 0; i < a.count; ++i) {
        max_a = std::max(max_a, dot(n, transform_point(xfa, a.points[i])));
    }
    for (int i = 0; i < b.count; ++i) {
        min_b = std::min(min_b, dot(n, transform_point(xfb, b.points[i])));
    }
    return min_b - max_a - a.radius - b.radius;
}

// True when a face of either shape separates them (within the touch
// tolerance) and keeps separating them along the whole motion: B only grazes
// A, as a box sliding on a row of tiles grazes the corner at each seam (the
// seeds' crack problem). A contact found there is not a block.
bool grazes(const ShapeProxy& a, const Transform& xfa, const ShapeProxy& b, const Transform& xfb,
            Vec2 motion, real tolerance) {
    std::array<Vec2, k_max_polygon_vertices> normals{};
    const real along = real(1e-6) * length(motion);
    const int na = edge_normals(a, xfa, normals);
    for (int i = 0; i < na; ++i) {
        if (dot(motion, normals[i]) >= -along &&
            gap_along(a, xfa, b, xfb, normals[i]) >= -tolerance) {
            return true;
        }
    }
    const int nb = edge_normals(b, xfb, normals);
    for (int i = 0; i < nb; ++i) {
        const Vec2 n = -normals[i];
        if (dot(motion, n) >= -along && gap_along(a, xfa, b, xfb, n) >= -tolerance) {
            return true;
        }
    }
    return false;
}

class Mover {
  public:
    Mover(World::Impl& w, int body, const MoveFilter& filter)
        : w_(w), body_(body), filter_(filter) {}

    MoveResult run(Vec2 translation) {
        MoveResult result;
        push_out(result);
        Vec2 remaining = translation;
        real slice = 1; // the part of the timeslice still to go
        const real min_motion = real(1e-6) * w_.tol.linear_slop;
        while (length(remaining) > min_motion) {
            if (result.iterations == k_max_move_iterations) {
                result.iteration_cap_hit = true;
                break;
            }
            ++result.iterations;
            remaining = advance(remaining, slice, result);
        }
        result.position = body().xf.p;
        return result;
    }

  private:
    Body& body() { return w_.bodies[body_]; }
    const Body& body() const { return w_.bodies[body_]; }

    // The filter's response to a shape met by `own`: shapes whose collision
    // filters exclude each other are ignored, and a sensor (on either side)
    // never blocks: what would stop at it crosses it instead.
    MoveResponse response_to(int own, int other_shape) const {
        const ShapeRecord& mine = w_.shapes[own];
        const ShapeRecord& o = w_.shapes[other_shape];
        if (!should_collide(mine.filter, o.filter)) {
            return MoveResponse::ignore;
        }
        const int other = o.body;
        const MoveResponse r =
            filter_ ? filter_(BodyId{other, w_.bodies[other].generation}) : MoveResponse::slide;
        return (mine.sensor || o.sensor) && r != MoveResponse::ignore ? MoveResponse::cross : r;
    }

    // Every other shape whose AABB meets `box`, with a response.
    template <class Visit> void for_candidates(const Aabb& box, Visit&& visit) {
        const auto take = [&](ProxyId, std::uint64_t data) {
            const int other = static_cast<int>(data);
            if (w_.shapes[other].body != body_) {
                visit(other);
            }
            return true;
        };
        w_.query_static(box, take);
        w_.moving_tree.query(box, ~0ull, take);
    }

    void translate(Vec2 d) {
        Body& b = body();
        b.xf.p += d;
        b.sweep.c1 += d;
        b.sweep.c2 += d;
    }

    // Minimum translation out of every overlap deeper than the touch
    // tolerance, before moving (a few passes for overlaps with several).
    void push_out(MoveResult& result) {
        for (int pass = 0; pass < 4; ++pass) {
            Vec2 deepest_push;
            real deepest = w_.tol.touch_tolerance;
            for (int own : body().shapes) {
                const Shape& shape = w_.shapes[own].shape;
                for_candidates(compute_aabb(shape, body().xf), [&](int other) {
                    const MoveResponse response = response_to(own, other);
                    if (response == MoveResponse::ignore || response == MoveResponse::cross) {
                        return;
                    }
                    const ShapeRecord& o = w_.shapes[other];
                    const Manifold m = collide(o.shape, w_.bodies[o.body].xf, shape, body().xf,
                                               {0, w_.tol.linear_slop});
                    for (int i = 0; i < m.count; ++i) {
                        if (-m.points[i].separation > deepest) {
                            deepest = -m.points[i].separation;
                            deepest_push = deepest * m.normal;
                        }
                    }
                });
            }
            if (deepest_push == Vec2{}) {
                return;
            }
            translate(deepest_push);
            result.started_overlapping = true;
            result.pushout += deepest_push;
        }
    }

    // GJK's normal is unreliable at zero distance, so a cast that starts
    // exactly touching (a box standing on a floor) and moves into the
    // surface can come back a miss; then the box would sink by the whole
    // move. The manifold's face normal decides whether the motion enters.
    std::optional<CastOutput> touching_hit(const ShapeRecord& o, const ShapeRecord& s,
                                           Vec2 motion) const {
        const Manifold m = collide(o.shape, w_.bodies[o.body].xf, s.shape, body().xf,
                                   {w_.tol.touch_tolerance, w_.tol.linear_slop});
        if (m.count == 0 || dot(motion, m.normal) >= -k_tangent_cosine * length(motion)) {
            return std::nullopt;
        }
        CastOutput out;
        out.state = CastState::hit;
        out.fraction = 0;
        out.normal = m.normal;
        out.point = m.points[0].point;
        return out;
    }

    std::vector<Hit> cast_all(Vec2 motion) {
        std::vector<Hit> hits;
        const Vec2 direction = normalize(motion);
        for (int own : body().shapes) {
            const ShapeRecord& s = w_.shapes[own];
            const Aabb now = compute_aabb(s.shape, body().xf);
            const Aabb box = inflate(union_of(now, {now.lower + motion, now.upper + motion}),
                                     w_.tol.linear_slop);
            for_candidates(box, [&](int other) {
                const MoveResponse response = response_to(own, other);
                if (response == MoveResponse::ignore) {
                    return;
                }
                const ShapeRecord& o = w_.shapes[other];
                ShapeCastInput input;
                input.proxy_a = o.proxy;
                input.proxy_b = s.proxy;
                input.xf_a = w_.bodies[o.body].xf;
                input.xf_b = body().xf;
                input.translation_b = motion;
                // GJK's normal is unreliable at zero distance, so the cast
                // stops a touch tolerance short; advance() closes that gap.
                input.target_separation = w_.tol.touch_tolerance;
                input.touch_tolerance = real(0.5) * w_.tol.touch_tolerance;
                CastOutput out = shape_cast(input);
                if (out.state == CastState::miss) {
                    out = touching_hit(o, s, motion).value_or(out);
                }
                if (out.state != CastState::hit && out.state != CastState::failed) {
                    return;
                }
                if (out.fraction == 0 && dot(direction, out.normal) > -k_tangent_cosine) {
                    return; // sliding along what it touches
                }
                Transform at_hit = input.xf_b;
                at_hit.p += out.fraction * motion;
                if (grazes(o.proxy, input.xf_a, s.proxy, at_hit, motion, w_.tol.touch_tolerance)) {
                    return;
                }
                hits.push_back({own, other, out.fraction, out.normal, out.point, response});
            });
        }
        return hits;
    }

    // Surface area of a hit at the current pose: the length of the touching
    // features' overlap, from the manifold's two points (the seeds' crack rule).
    // The manifold's normal replaces the cast's: it comes from the faces, so
    // it is exact for a box landing flat, where GJK's is not.
    void measure_contact(Hit& hit) {
        const ShapeRecord& o = w_.shapes[hit.other_shape];
        const Manifold m = collide(o.shape, w_.bodies[o.body].xf, w_.shapes[hit.own_shape].shape,
                                   body().xf, {w_.tol.linear_slop, w_.tol.linear_slop});
        hit.face = m.count == 2;
        hit.surface_area = m.count == 2 ? distance(m.points[0].point, m.points[1].point) : 0;
        if (m.count > 0) {
            hit.normal = m.normal;
            hit.separation = std::min(m.points[0].separation, m.points[m.count - 1].separation);
        }
    }

    // Closes the gap the cast left, along the motion, so a box stops with
    // its face exactly on the face it hit. Returns the fraction of `left` used.
    real close_gap(const std::vector<Hit>& ties, Vec2 left) {
        real f = 1;
        bool closing = false;
        for (const Hit& h : ties) {
            const real approach = -dot(left, h.normal);
            if (approach > 0) {
                f = std::min(f, std::max(h.separation, real(0)) / approach);
                closing = true;
            }
        }
        if (!closing) {
            return 0;
        }
        translate(f * left);
        return f;
    }

    // One timeslice subdivision; returns the motion left.
    Vec2 advance(Vec2 motion, real& slice, MoveResult& result) {
        std::vector<Hit> hits = cast_all(motion);
        real t_min = 1;
        for (const Hit& h : hits) {
            if (h.response != MoveResponse::cross) {
                t_min = std::min(t_min, h.t);
            }
        }
        report_crossings(hits, t_min, slice, result);
        if (t_min >= 1) {
            translate(motion);
            return {};
        }
        translate(t_min * motion);
        const real tie = w_.tol.linear_slop / length(motion);
        std::vector<Hit> ties;
        for (Hit& h : hits) {
            if (h.response != MoveResponse::cross && h.t - t_min <= tie) {
                measure_contact(h);
                ties.push_back(h);
            }
        }
        std::sort(ties.begin(), ties.end(), [&](const Hit& a, const Hit& b) {
            return leads(a, b, w_.def.move_ties_by_surface_area);
        });
        Vec2 left = (1 - t_min) * motion;
        const real closed = close_gap(ties, left);
        const real t_contact = t_min + (1 - t_min) * closed;
        left *= 1 - closed;
        const real time = 1 - slice * (1 - t_contact);
        for (const Hit& h : ties) {
            const ShapeRecord& o = w_.shapes[h.other_shape];
            result.contacts.push_back({BodyId{o.body, w_.bodies[o.body].generation}, time, h.point,
                                       h.normal,
                                       h.separation - closed * -dot((1 - t_min) * motion, h.normal),
                                       h.surface_area, h.response});
        }
        slice *= 1 - t_contact;
        return respond(ties, left);
    }

    void report_crossings(const std::vector<Hit>& hits, real t_min, real slice,
                          MoveResult& result) {
        for (const Hit& h : hits) {
            if (h.response == MoveResponse::cross && h.t <= t_min) {
                const ShapeRecord& o = w_.shapes[h.other_shape];
                result.contacts.push_back({BodyId{o.body, w_.bodies[o.body].generation},
                                           1 - slice * (1 - h.t), h.point, h.normal, 0, 0,
                                           MoveResponse::cross});
            }
        }
    }

    // The leading contact decides; a slide is clipped against the leading
    // plane and every other face among the ties (corners with no surface
    // area do not clip: a box must not catch on the crack between tiles).
    static Vec2 respond(const std::vector<Hit>& ties, Vec2 left) {
        const Hit& lead = ties.front();
        switch (lead.response) {
        case MoveResponse::touch:
            return {};
        case MoveResponse::bounce:
            return left - 2 * dot(left, lead.normal) * lead.normal;
        case MoveResponse::slide:
        case MoveResponse::cross:
        case MoveResponse::ignore:
            break;
        }
        std::vector<Vec2> planes{lead.normal};
        for (std::size_t i = 1; i < ties.size(); ++i) {
            if (ties[i].face && ties[i].response != MoveResponse::bounce) {
                planes.push_back(ties[i].normal);
            }
        }
        return clip_to_planes(left, planes);
    }

    World::Impl& w_;
    int body_;
    const MoveFilter& filter_;
};

} // namespace

Result<MoveResult> World::move(BodyId id, Vec2 translation, const MoveFilter& filter) {
    if (!impl_->find(id)) {
        return stale();
    }
    if (!is_finite(translation)) {
        return Error{ErrorCode::invalid_input, "move: NaN or infinite translation"};
    }
    Body& b = impl_->bodies[id.index];
    if (b.type == BodyType::static_body) {
        return Error{ErrorCode::invalid_input, "move: static bodies do not move"};
    }
    impl_->rebuild_static_tree_if_dirty();
    const Vec2 start = b.xf.p;
    MoveResult result = Mover(*impl_, id.index, filter).run(translation);
    for (int si : b.shapes) {
        const ShapeRecord& s = impl_->shapes[si];
        impl_->moving_tree.move_proxy(s.tree_proxy, compute_aabb(s.shape, b.xf),
                                      result.position - start);
    }
    return result;
}

} // namespace sweep
