// World::move: collide-and-slide by timeslice subdivision (see mover.hpp for
// the sources). Each iteration casts the body's shapes along what remains of
// the move, advances to the earliest contact, orders the contacts tied with
// it by the seeds' rules and responds to the leading one. The casts' hits,
// the ties and the planes live in the world's scratch (MoveScratch), so a
// move allocates nothing but its result's contacts (and a shape's static
// neighbourhood at its first move). The narrowphase of one pair is
// move_narrowphase.hpp's, in closed form for an axis-aligned box against
// another or a round mover (move_round_box.hpp); the
// rules of an iteration that do not depend on the pair are move_rules.hpp's.
// A character of one box, disc or axis-aligned capsule among box tiles
// (moved without a filter, or with one that answers slide or ignore there)
// takes box_mover.hpp's fast path, which repeats this method for that case
// to the bit. Also here: the carry of riders by kinematic
// platforms at the end of World::step, which is a move.
#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <utility>

#include "box_mover.hpp"
#include "box_reach.hpp"
#include "move_narrowphase.hpp"
#include "move_neighbourhood.hpp"
#include "move_rules.hpp"
#include "sweep/shape_cast.hpp"
#include "world_impl.hpp"

namespace sweep {
namespace {

// Whether a lead with this response slides on (respond()): the others stop
// or bounce.
bool slides(MoveResponse r) { return r != MoveResponse::touch && r != MoveResponse::bounce; }

// A one-way platform's up direction: its body's local +y axis.
Vec2 platform_up(const Transform& xf) { return rotate(xf.q, Vec2{0, 1}); }

// A one-way contact's normal at the contact pose. The cast took it for a
// landing (lands_on), but where the mover's corner meets the platform's (a
// polyline's joint at the bottom of a valley) the manifold's normal runs
// between the corners and may lean more than 60 degrees from up: then the
// contact is the landing on the platform's face nearest up, if that face
// is one. (Otherwise the platform held the body with a side contact.)
Vec2 landing_normal(const Shape& platform, const Transform& xf, Vec2 measured) {
    const Vec2 up = platform_up(xf);
    if (dot(measured, up) >= k_ground_cosine) {
        return measured;
    }
    Vec2 best = measured;
    for_each_face_normal(platform, [&](Vec2 local) {
        const Vec2 n = rotate(xf.q, local);
        if (dot(n, up) > dot(best, up)) {
            best = n;
        }
    });
    return dot(best, up) >= k_ground_cosine ? best : measured;
}

// Responses that hold a body out of the other: an overlapping start is
// pushed out only by these (a one-way platform lets it through).
bool pushes_out(MoveResponse r) {
    return r == MoveResponse::slide || r == MoveResponse::touch || r == MoveResponse::bounce;
}

class Mover {
  public:
    Mover(World::Impl& w, int body, const MoveFilter& filter)
        : w_(w), body_(body), filter_(filter) {}

    // Moves by `translation` into `result` (fresh, or cleared by
    // reset_result). A move first leaves any overlap (resolve_overlap); a
    // carry does not: an overlap is the next move's to resolve.
    void run(Vec2 translation, bool resolve_overlap, MoveResult& result) {
        // Slides and bounces never lengthen the path, so nothing the move
        // meets lies farther than its length from where it starts: one
        // broadphase query serves every iteration.
        const real reach = length(translation) + w_.tol.linear_slop;
        gather(reach);
        // The fast path's answers (MoveScratch::asked) were for this gather's
        // shapes: a push-out's second gather asks the filter again, as it
        // does after a gather of its own.
        w_.move_scratch.asked.clear();
        if (resolve_overlap) {
            push_out(reach, result);
        }
        w_.move_scratch.ties.clear(); // (hold_faces reads the last iteration's)
        w_.move_scratch.held_planes.clear();
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
    }

  private:
    Body& body() { return w_.bodies[body_]; }
    const Body& body() const { return w_.bodies[body_]; }

    // The body's shapes at its current pose, found once per pose: every
    // cast and measure of an iteration reads them.
    const std::vector<MoverShape>& own_shapes() {
        std::vector<MoverShape>& own = w_.move_scratch.own;
        if (!placed_) {
            own.clear();
            for (int si : body().shapes) {
                const ShapeRecord& s = w_.shapes[si];
                // (Filled in place: a copy of a whole one from the stack
                // waited for its parts' stores.)
                MoverShape& mine = own.emplace_back();
                mine.shape = si;
                mine.exact = axis_aligned_box(s.shape, s.local_box, body().xf);
                mine.box = mine.exact ? *mine.exact : compute_aabb(s.shape, body().xf);
            }
            placed_ = true;
        }
        return own;
    }

    // The closed form's view of one of the body's shapes at its pose, for
    // a motion by `motion`: none unless the shape is an axis-aligned box.
    std::optional<MoverBox> closed_form(const MoverShape& mine, Vec2 motion) const {
        if (!mine.exact) {
            return std::nullopt;
        }
        return mover_box(*mine.exact, body().xf.p, motion);
    }

    // The push-out's view of one of the body's shapes at its pose, for
    // may_overlap_boxes: its box, when the gaps between its box and an
    // axis-aligned box's bound their overlap (the shape is an axis-aligned
    // box, a disc or a capsule rounder than bounded_by_boxes asks); else
    // none.
    std::optional<MoverBox> push_form(const MoverShape& mine) const {
        if (mine.exact) {
            return closed_form(mine, {});
        }
        if (bounded_by_boxes(w_.shapes[mine.shape].shape, w_.tol)) {
            return mover_box(mine.box, body().xf.p, {});
        }
        return std::nullopt;
    }

    const MoverShape& mover_shape(int si) {
        const std::vector<MoverShape>& own = own_shapes();
        return *std::find_if(own.begin(), own.end(),
                             [si](const MoverShape& m) { return m.shape == si; });
    }

    // The filter's response to a shape (its sensor flag and body) that
    // their collision filters let meet one of the mover's (`own_sensor`):
    // a sensor (on either side) never blocks: what would stop at it
    // crosses it instead.
    // (`shape`: the other shape, whose answer the fast path may have had.)
    MoveResponse response_to(bool own_sensor, bool sensor, int shape, BodyId other) const {
        if (!filter_) {
            return response_of(MoveResponse::slide, own_sensor, sensor);
        }
        const std::optional<MoveResponse> known = answered(w_.move_scratch.asked, shape);
        return response_of(known ? *known : filter_(other), own_sensor, sensor);
    }

    // Every other shape within `reach` of the body's shapes, with the
    // filter's response unless it is ignore, into the scratch candidates;
    // and whether the push-out must look at them (overlapping).
    void gather(real reach) {
        std::vector<MoveCandidate>& candidates = w_.move_scratch.candidates;
        candidates.clear();
        overlapping_ = false;
        for (const MoverShape& mine : own_shapes()) {
            const int own = mine.shape;
            const bool own_sensor = w_.shapes[own].sensor;
            const Aabb box = inflate(mine.box, reach);
            const std::optional<MoverBox> own_box = push_form(mine);
            const BoxReach own_reach(mine.box);
            // Shape `other` (its box and body's origin, its body, whether it
            // is its box, whether it is a sensor) as a candidate, unless
            // ignored. (Filled in place: a copy of a whole one from the stack
            // waited for its parts' stores.)
            const auto consider = [&](int other, const OtherBox& placed, BodyId other_body,
                                      bool exact_box, bool sensor) {
                const MoveResponse response = response_to(own_sensor, sensor, other, other_body);
                if (response == MoveResponse::ignore) {
                    return;
                }
                MoveCandidate& c = candidates.emplace_back();
                c.own_shape = own;
                c.other_shape = other;
                c.other = placed;
                c.body = other_body;
                c.response = response;
                c.exact_box = exact_box;
                // (From the parts: a load of the candidate's box just after
                // its stores waited for them.)
                overlapping_ =
                    overlapping_ || may_push_out(response, exact_box, placed, own_box, own_reach);
            };
            // Static shapes as the gather keeps them (NearStatic copies of
            // those the filters let meet); the body is never static.
            query_static_near(w_, own, box, reach, [&](const NearStatic& n) {
                consider(n.shape, n.other, n.body, n.exact_box, n.sensor);
            });
            query_movers_near(w_, own, box, [&](int other, const ShapeRecord& o, const Body& b) {
                const std::optional<Aabb> exact = axis_aligned_box(o.shape, o.local_box, b.xf);
                const Aabb other_aabb = exact ? *exact : compute_aabb(o.shape, b.xf);
                if (overlaps(box, other_aabb)) { // else only its fat box is in reach
                    consider(other, other_box(other_aabb, b.xf.p), w_.body_id(o.body),
                             exact.has_value(), o.sensor);
                }
            });
        }
    }

    void translate(Vec2 d) {
        if (d == Vec2{}) {
            return; // (a contact at once: the shapes stay placed)
        }
        Body& b = body();
        b.xf.p += d;
        b.sweep.c1 += d;
        b.sweep.c2 += d;
        placed_ = false;
    }

    // Out of every overlap deeper than the touch tolerance, before moving:
    // the least push that clears them all at once (push_out.hpp), among the
    // shapes within the body's size of it. A body wedged between moving
    // bodies and the level (a platform carried it against a wall) is
    // pushed out of the level alone, and left inside what crushes it; a
    // body buried deeper still is pushed out of its deepest overlap alone.
    // The candidates are then gathered again around the new pose.
    void push_out(real reach, MoveResult& result) {
        if (!overlapping_) {
            return; // (most moves: the gather saw no candidate that may overlap)
        }
        const std::optional<Vec2> deepest = deepest_push();
        if (!deepest) {
            return;
        }
        const real max_push = size();
        gather(std::max(reach, max_push));
        std::vector<PushObstacle>& obstacles = w_.move_scratch.obstacles;
        obstacles.clear();
        std::size_t level = 0; // static obstacles first
        for (const bool of_level : {true, false}) {
            for (const MoveCandidate& c : w_.move_scratch.candidates) {
                const ShapeRecord& o = w_.shapes[c.other_shape];
                if (pushes_out(c.response) &&
                    (w_.bodies[o.body].type == BodyType::static_body) == of_level) {
                    obstacles.push_back({placed_proxy(o.proxy, w_.bodies[o.body].xf),
                                         placed_proxy(w_.shapes[c.own_shape].proxy, body().xf)});
                }
            }
            level = of_level ? obstacles.size() : level;
        }
        // Out to half the touch tolerance: the manifold that found the
        // overlap reads its depth on a face it prefers within a tenth of the
        // slop (0.4 touch tolerances), so a body it finds deeper than the
        // tolerance may be less deep than that by its least depth.
        const real clear = real(0.5) * w_.tol.touch_tolerance;
        PushScratch& scratch = w_.move_scratch.push;
        std::optional<Vec2> push = least_push(obstacles, max_push, clear, scratch);
        if (push && *push == Vec2{}) {
            // A manifold deeper still than the least depth: its own push,
            // unless that takes the body into something; then the body,
            // within half the touch tolerance of everything, did not start
            // overlapping. (A triangle a hair into another by the least
            // depth, 0.043 L by the manifold's clipped points, was pushed
            // 0.043 L into a tile.)
            if (!clear_of_all(obstacles, *deepest, clear, scratch)) {
                gather(reach);
                return;
            }
            push = *deepest;
        } else if (!push) {
            push = least_push(std::span(obstacles).first(level), max_push, clear, scratch);
        }
        const Vec2 p = push.value_or(*deepest);
        if (p != Vec2{}) {
            translate(p);
            result.pushout = p;
        }
        result.started_overlapping = true;
        gather(reach);
    }

    // Whether candidate `c` of one of the body's shapes (`own_box`, its
    // push_form at the pose, if any; `own_reach`, its box) may hold it
    // overlapping deeper than the touch tolerance, so that the push-out must
    // ask collide(): shapes overlap only where their own boxes do; boxes,
    // discs and round capsules (bounded_by_boxes) against boxes only as
    // deep as their boxes overlap.
    bool may_push_out(const MoveCandidate& c, const std::optional<MoverBox>& own_box,
                      const BoxReach& own_reach) const {
        return may_push_out(c.response, c.exact_box, c.other, own_box, own_reach);
    }

    // The same for a candidate given by its parts.
    bool may_push_out(MoveResponse response, bool exact_box, const OtherBox& other,
                      const std::optional<MoverBox>& own_box, const BoxReach& own_reach) const {
        if (!pushes_out(response)) {
            return false;
        }
        return own_box && exact_box ? may_overlap_boxes(other, *own_box, own_reach, w_.tol)
                                    : own_reach.meets(other.box);
    }

    // The push out of the deepest overlap beyond the touch tolerance alone,
    // along its manifold's normal; none when there is none.
    std::optional<Vec2> deepest_push() {
        Vec2 push;
        real deepest = w_.tol.touch_tolerance;
        for (const MoverShape& mine : own_shapes()) {
            const int own = mine.shape;
            const std::optional<MoverBox> own_box = push_form(mine);
            const BoxReach own_reach(mine.box);
            for (const MoveCandidate& c : w_.move_scratch.candidates) {
                if (c.own_shape != own || !may_push_out(c, own_box, own_reach)) {
                    continue;
                }
                const Manifold m =
                    push_out_manifold(w_, c.other_shape, w_.shapes[own].shape, body().xf);
                for (int i = 0; i < m.count; ++i) {
                    if (-m.points[i].separation > deepest) {
                        deepest = -m.points[i].separation;
                        push = deepest * m.normal;
                    }
                }
            }
        }
        return push == Vec2{} ? std::nullopt : std::optional<Vec2>(push);
    }

    // The body's size: the longer side of its shapes' box.
    real size() {
        const std::vector<MoverShape>& own = own_shapes();
        Aabb box = own.front().box;
        for (const MoverShape& m : own) {
            box = union_of(box, m.box);
        }
        return std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
    }

    // The other shape as the move's narrowphase takes it. A one-way
    // platform must hold a mover on its up side whichever way a chain's
    // points run, so its chain segments collide from both sides, as
    // segments: `segment` then holds the segment.
    PlacedShape placed_other(const ShapeRecord& o, MoveResponse response, Shape& segment) const {
        const Transform& xf = w_.bodies[o.body].xf;
        if (response == MoveResponse::one_way && o.shape.type == ShapeType::chain_segment) {
            segment = Shape(o.shape.chain_segment.segment);
            return {&segment, &o.proxy, xf};
        }
        return {&o.shape, &o.proxy, xf};
    }

    // The other shape as a tie's measure takes it: a chain segment as its
    // bare segment. A chain's manifold smooths its joints for the step (a
    // shape at a segment's end gets the segment's face normal, as if the
    // neighbour went on along it), but a slide along that plane at an inner
    // joint buries the mover's corner that hangs past the joint in the
    // neighbour; the bare segment gives the face the mover truly meets
    // there (its own, against the joint).
    PlacedShape placed_measured(const ShapeRecord& o, Shape& segment) const {
        const Transform& xf = w_.bodies[o.body].xf;
        if (o.shape.type == ShapeType::chain_segment) {
            segment = Shape(o.shape.chain_segment.segment);
            return {&segment, &o.proxy, xf};
        }
        return {&o.shape, &o.proxy, xf};
    }

    PlacedShape placed_own(int own) const {
        const ShapeRecord& s = w_.shapes[own];
        return {&s.shape, &s.proxy, body().xf};
    }

    // Whether the mover meets the one-way platform `other` at a ground
    // contact (from its up side) at the cast's hit. At t = 0 GJK's normal
    // is unreliable (the shapes touch), so the manifold's face normal
    // decides there; a slide's ties get it later in measure(), but a
    // platform's hit must be kept or dropped now.
    bool lands_on(const PlacedShape& other, const PlacedShape& own, const CastOutput& hit) const {
        Vec2 normal = hit.normal;
        if (hit.fraction == 0) {
            const Manifold m = collide(*other.shape, other.xf, *own.shape, own.xf,
                                       {w_.tol.linear_slop, w_.tol.linear_slop});
            normal = m.count > 0 ? m.normal : normal;
        }
        return dot(normal, platform_up(other.xf)) >= k_ground_cosine;
    }

    // Every contact the motion meets, into the scratch hits: those that
    // block it and those it crosses.
    void cast_all(Vec2 motion) {
        w_.move_scratch.hits.clear();
        const std::vector<MoveCandidate>& candidates = w_.move_scratch.candidates;
        for (const MoverShape& mine : own_shapes()) {
            const int own = mine.shape;
            const Aabb& now = mine.box;
            const std::optional<MoverBox> own_box = closed_form(mine, motion);
            const Aabb swept = inflate(union_of(now, {now.lower + motion, now.upper + motion}),
                                       w_.tol.linear_slop);
            const BoxReach touch_reach(
                inflate(now, w_.tol.touch_tolerance)); // what it can touch now
            // The candidates the motion may reach, found without a branch
            // on each (as the neighbourhood's scan), then cast in order.
            std::vector<int>& reached = w_.move_scratch.reached;
            if (reached.size() < candidates.size()) { // (only grows: no refill per cast)
                reached.resize(candidates.size());
            }
            std::size_t count = 0;
            const BoxReach sweep_reach(swept);
            const MoveCandidate* candidate = candidates.data();
            const std::size_t candidate_count = candidates.size();
            int* reached_at = reached.data(); // (bounds read once: the stores may alias them)
            for (std::size_t ci = 0; ci < candidate_count; ++ci) {
                reached_at[count] = static_cast<int>(ci);
                count +=
                    (candidate[ci].own_shape == own) & sweep_reach.meets(candidate[ci].other.box);
            }
            for (std::size_t k = 0; k < count; ++k) {
                const int ci = reached[k];
                cast(ci, own_box, motion, touch_reach.meets(candidates[ci].other.box));
            }
        }
    }

    // The cast of candidate `ci`; its hit, if any, into the scratch hits.
    // `own_box`: the mover's shape when it is an axis-aligned box, made for
    // `motion`; `may_touch`: the shapes may be touching now (their boxes
    // meet).
    void cast(int ci, const std::optional<MoverBox>& own_box, Vec2 motion, bool may_touch) {
        const MoveCandidate& c = w_.move_scratch.candidates[ci];
        if (own_box && c.exact_box && c.response != MoveResponse::one_way) {
            const BoxCast box = cast_boxes(c.other, *own_box, motion, w_.tol);
            if (box.verdict == BoxVerdict::contact) {
                add_hit(ci, {box.hit.normal, box.hit.point, box.hit.fraction, 0, CastState::hit});
            }
            if (box.verdict != BoxVerdict::undecided) {
                return;
            }
        }
        const ShapeRecord& o = w_.shapes[c.other_shape];
        if (c.response == MoveResponse::one_way &&
            dot(motion, platform_up(w_.bodies[o.body].xf)) >= 0) {
            return; // a one-way platform blocks only motion against its up
        }
        Shape segment;
        PlacedShape other = placed_other(o, c.response, segment);
        if (c.exact_box && c.response != MoveResponse::one_way) {
            other.box = &c.other.box;
        }
        const PlacedShape own = placed_own(c.own_shape);
        const bool presses = may_touch && may_press_into(other, own, motion, w_.tol);
        TouchingManifold touching;
        std::optional<CastOutput> hit = cast_to_contact(
            other, own, motion, presses, c.response != MoveResponse::one_way, w_.tol, &touching);
        if (!hit && presses && c.response != MoveResponse::one_way) {
            hit = into_exposed_face(w_, c.other_shape, c.own_shape, other, own, motion, touching);
        }
        if (hit && (c.response != MoveResponse::one_way || lands_on(other, own, *hit))) {
            add_hit(ci, *hit);
        }
    }

    void add_hit(int ci, const CastOutput& hit) {
        const MoveCandidate& c = w_.move_scratch.candidates[ci];
        MoveHit h{c.own_shape, c.other_shape, hit.fraction, hit.normal, hit.point, c.response};
        h.candidate = ci;
        w_.move_scratch.hits.push_back(h);
    }

    // A tie's pair as measure reads it: the mover's box for the closed
    // forms where both shapes are axis-aligned boxes (not for a one-way
    // platform, whose landing normal the general form finds), and the
    // shapes placed (a chain segment as its bare segment, held in
    // `segment`; the other's box known where it is one).
    struct TiePair {
        std::optional<MoverBox> own_box;
        PlacedShape other;
        PlacedShape own;
    };
    TiePair tie_pair(const MoveHit& hit, Shape& segment) {
        const MoveCandidate& c = w_.move_scratch.candidates[hit.candidate];
        const bool boxes = c.exact_box && c.response != MoveResponse::one_way;
        TiePair pair{boxes ? closed_form(mover_shape(hit.own_shape), {}) : std::nullopt,
                     placed_measured(w_.shapes[hit.other_shape], segment),
                     placed_own(hit.own_shape)};
        if (boxes) {
            pair.other.box = &c.other.box;
        }
        return pair;
    }

    // Surface area of a hit at the current pose: the length of the touching
    // features' overlap, from the manifold's two points (the seeds' crack rule).
    // The manifold's normal replaces the cast's: it comes from the faces, so
    // it is exact for a box landing flat, where GJK's is not.
    void measure(MoveHit& hit) {
        const MoveCandidate& c = w_.move_scratch.candidates[hit.candidate];
        Shape segment;
        const TiePair pair = tie_pair(hit, segment);
        std::optional<ContactMeasure> m;
        if (pair.own_box) {
            m = measure_boxes(c.other, *pair.own_box, w_.tol, hit.normal);
        }
        if (!m) {
            m = measure_contact(pair.other, pair.own, w_.tol);
        }
        if (c.response == MoveResponse::one_way && m->count > 0) {
            const ShapeRecord& o = w_.shapes[hit.other_shape];
            m->normal = landing_normal(o.shape, w_.bodies[o.body].xf, m->normal);
        }
        // (A sliver of a face, no longer than the slop, is a corner: see leads.)
        hit.face = m->count == 2 && m->surface_area > w_.tol.linear_slop;
        hit.feature = m->feature;
        hit.surface_area = m->surface_area;
        hit.measured = m->count > 0;
        if (m->count > 0) {
            hit.normal = m->normal;
            hit.separation = m->separation;
        }
    }

    // Tie `h`'s separation at this pose, after a closing of `closed` of the
    // motion left (MoveContact::separation): the measure's, moved by the
    // closing's reckoning along the normal, where that follows the pair;
    // else their signed distance here, in closed form for two axis-aligned
    // boxes (as measure).
    real reported_separation(const MoveHit& h, real closed) {
        if (!needs_distance(h, closed)) {
            return h.separation;
        }
        Shape segment;
        const TiePair pair = tie_pair(h, segment);
        const Aabb& other_box = w_.move_scratch.candidates[h.candidate].other.box;
        return pair.own_box ? box_distance(other_box, pair.own_box->box)
                            : signed_distance(pair.other, pair.own);
    }

    // Closes the gaps the casts left, so a box stops with its face exactly
    // on the face it hit: along the motion until the nearest tie touches,
    // then, when the lead slides and the tie reached is one of its planes,
    // along the motion clipped to the planes reached so far, and so on. A
    // tie the first closing did not reach (a wall a slop away, beside the
    // ceiling whose touch stopped the closing at once) is touched too,
    // rather than holding the body short of it. Nothing else is met on the
    // way: the first closing goes along the motion no farther than `cap`
    // (of `left`'s time: where the earliest other hit's band begins), and a
    // later one not at all when it would bring the body's box within a
    // touch tolerance of another's. (Closing a slanting approach can take
    // far along the motion: a box closing on a wall it neared at a shallow
    // angle was carried into the floor beneath, and the next cast, starting
    // inside it, let it through.) Updates the ties' separations; returns the
    // fraction of `left`'s time used.
    real close_gap(Vec2 left, real cap) {
        std::vector<MoveHit>& ties = w_.move_scratch.ties;
        std::vector<Vec2>& planes = w_.move_scratch.planes;
        planes.clear();
        const bool slide = slides(ties.front().response);
        real used = 0;
        Vec2 dir = left;
        for (std::size_t pass = 0; pass < ties.size() && used < 1; ++pass) {
            real f = pass == 0 ? cap : 1 - used;
            int reached = -1;
            bool closing = false;
            for (int i = 0; i < static_cast<int>(ties.size()); ++i) {
                const real approach = -dot(dir, ties[i].normal);
                if (approach > 0) {
                    closing = true;
                    const std::optional<real> boxes = boxes_meet(ties[i], dir);
                    const real fi =
                        boxes ? *boxes : std::max(ties[i].separation, real(0)) / approach;
                    // (Of ties reached together, one that holds the slide: a
                    // box's corner tie meets exactly when its face ties do.)
                    if (fi < f ||
                        (fi == f && (reached < 0 || !slide ||
                                     !holds_slide(ties, static_cast<std::size_t>(reached))))) {
                        f = fi;
                        reached = i;
                    }
                }
            }
            // A corner's gap is measured along one normal, but the true gap
            // may shrink as fast as the body travels (an edge turning in as
            // it slides past the corner: a hexagon passing a tile's corner
            // almost along it was carried 2.5 L and ended 0.027 L inside).
            // Beside a corner the closing goes no farther than its gap and
            // half a touch tolerance; and so beside any tie of a lead that
            // does not slide, which ends the motion where it meets (a
            // triangle touching a segment's end, its motion 0.00025 of its
            // length into the face there, was carried 4.9 L along it, off
            // the end, by a touch).
            const real dir_length = length(dir);
            for (const MoveHit& h : ties) {
                const real most =
                    std::max(h.separation, real(0)) + real(0.5) * w_.tol.touch_tolerance;
                if ((!slide || (!h.face && !boxes_meet(h, dir))) && f * dir_length > most) {
                    f = most / dir_length;
                    reached = -1;
                }
            }
            if (!closing || (pass > 0 && nears_another(f * dir))) {
                break;
            }
            translate(f * dir);
            for (MoveHit& h : ties) {
                h.separation += f * dot(dir, h.normal);
            }
            used += f;
            // (After the last pass nothing reads the slide's direction.)
            if (reached < 0 || !slide || !holds_slide(ties, static_cast<std::size_t>(reached)) ||
                pass + 1 == ties.size() || used >= 1) {
                break;
            }
            planes.push_back(ties[static_cast<std::size_t>(reached)].normal);
            dir = clip_to_planes(left, planes);
        }
        return used;
    }

    // boxes_meet for a tie whose shapes are both axis-aligned boxes; none
    // for other shapes.
    std::optional<real> boxes_meet(const MoveHit& h, Vec2 dir) {
        const MoveCandidate& c = w_.move_scratch.candidates[h.candidate];
        if (!c.exact_box || c.response == MoveResponse::one_way) {
            return std::nullopt;
        }
        const std::optional<Aabb>& own = mover_shape(h.own_shape).exact;
        if (!own) {
            return std::nullopt;
        }
        return sweep::boxes_meet(c.other.box, *own, dir);
    }

    // Whether moving by `d` would bring one of the body's boxes within a
    // touch tolerance of the box of a candidate that blocks and is not a
    // tie (boxes: exact for boxes, more than enough for other shapes); for
    // an axis-aligned box against one, whether it would sink into it
    // (boxes_sink).
    bool nears_another(Vec2 d) {
        const MoveScratch& scratch = w_.move_scratch;
        const auto tied = [&](int ci) {
            return std::any_of(scratch.ties.begin(), scratch.ties.end(),
                               [ci](const MoveHit& h) { return h.candidate == ci; });
        };
        for (const MoverShape& mine : own_shapes()) {
            const BoxReach reach(
                inflate(union_of(mine.box, {mine.box.lower + d, mine.box.upper + d}),
                        w_.tol.touch_tolerance));
            for (int ci = 0; ci < static_cast<int>(scratch.candidates.size()); ++ci) {
                const MoveCandidate& c = scratch.candidates[static_cast<std::size_t>(ci)];
                if (c.own_shape == mine.shape && c.response != MoveResponse::cross &&
                    reach.meets(c.other.box) && !tied(ci) &&
                    (!mine.exact || !c.exact_box ||
                     boxes_sink(c.other.box, *mine.exact, d, w_.tol.touch_tolerance))) {
                    return true;
                }
            }
        }
        return false;
    }

    // One timeslice subdivision; returns the motion left.
    Vec2 advance(Vec2 motion, real& slice, MoveResult& result) {
        cast_all(motion);
        MoveScratch& scratch = w_.move_scratch;
        real t_min = 1;
        for (const MoveHit& h : scratch.hits) {
            if (h.response != MoveResponse::cross) {
                t_min = std::min(t_min, h.t);
            }
        }
        report_crossings(t_min, slice, result);
        if (t_min >= 1) {
            translate(motion);
            return {};
        }
        translate(t_min * motion);
        const real tie = w_.tol.linear_slop / length(motion);
        hold_faces(t_min == 0, scratch.ties, scratch.held_planes);
        scratch.ties.clear();
        for (const MoveHit& h : scratch.hits) {
            if (h.response != MoveResponse::cross && h.t - t_min <= tie) {
                // (Copied, then measured: a copy just after the measure's
                // stores waited for them.)
                scratch.ties.push_back(h);
                measure(scratch.ties.back());
                keep_pressing_normal(scratch.ties.back(), h.normal, motion);
            }
        }
        order_ties(scratch.ties, w_.def.move_ties_by_surface_area, w_.tol.linear_slop);
        Vec2 left = (1 - t_min) * motion;
        const real closed = close_gap(left, closing_cap(scratch.hits, t_min, tie));
        if (closed > 0) {
            scratch.held_planes.clear();
        }
        const real t_contact = t_min + (1 - t_min) * closed;
        left *= 1 - closed;
        const real time = 1 - slice * (1 - t_contact);
        for (const MoveHit& h : scratch.ties) {
            record(result, {other_body(h), time, h.point, h.normal, reported_separation(h, closed),
                            h.surface_area, h.response});
        }
        const auto ground = std::find_if(scratch.ties.begin(), scratch.ties.end(),
                                         [](const MoveHit& h) { return is_ground(h.normal); });
        if (ground != scratch.ties.end()) {
            result.ground = other_body(*ground);
        }
        slice *= 1 - t_contact;
        return respond(left);
    }

    BodyId other_body(const MoveHit& h) const {
        return w_.move_scratch.candidates[h.candidate].body;
    }

    // The bodies this iteration's motion crosses up to `t_min`, into the
    // result in time order (then by shape), each body once a move (as
    // bump.lua reports what an item crossed once): the casts' hits come in
    // the candidates' order, and a body still crossed in the next
    // subdivision met its cast again.
    void report_crossings(real t_min, real slice, MoveResult& result) {
        const std::vector<MoveHit>& hits = w_.move_scratch.hits;
        const auto before = [](const MoveHit& a, const MoveHit& b) {
            return a.t != b.t ? a.t < b.t : a.other_shape < b.other_shape;
        };
        const MoveHit* last = nullptr;
        for (;;) {
            const MoveHit* next = nullptr;
            for (const MoveHit& h : hits) {
                if (h.response == MoveResponse::cross && h.t <= t_min &&
                    (!last || before(*last, h)) && (!next || before(h, *next))) {
                    next = &h;
                }
            }
            if (!next) {
                return;
            }
            last = next;
            const BodyId other = other_body(*next);
            const bool reported = std::any_of(
                result.contacts.begin(), result.contacts.end(), [&](const MoveContact& c) {
                    return c.response == MoveResponse::cross && c.other == other;
                });
            if (!reported) {
                record(result, {other, 1 - slice * (1 - next->t), next->point, next->normal, 0, 0,
                                MoveResponse::cross});
            }
        }
    }

    // The leading contact decides: a slide goes on along the ties
    // (slide_along).
    Vec2 respond(Vec2 left) {
        const std::vector<MoveHit>& ties = w_.move_scratch.ties;
        const MoveHit& lead = ties.front();
        switch (lead.response) {
        case MoveResponse::touch:
            return {};
        case MoveResponse::bounce:
            return left - 2 * dot(left, lead.normal) * lead.normal;
        case MoveResponse::slide:
        case MoveResponse::one_way:
        case MoveResponse::cross:
        case MoveResponse::ignore:
            break;
        }
        return slide_along(left, ties, w_.move_scratch.held_planes, w_.move_scratch.planes);
    }

    World::Impl& w_;
    int body_;
    const MoveFilter& filter_;
    bool placed_ = false;      // MoveScratch::own holds the body's shapes at its pose
    bool overlapping_ = false; // the last gather's candidates may_push_out (some of them)
};

// A result emptied for reuse: its contacts keep their capacity.
void reset_result(MoveResult& result) {
    std::vector<MoveContact> contacts = std::move(result.contacts);
    contacts.clear();
    result = {};
    result.contacts = std::move(contacts);
}

} // namespace

Result<MoveResult> World::move(BodyId id, Vec2 translation, const MoveFilter& filter) {
    MoveResult result;
    if (Result<void> moved = move(id, translation, filter, result); !moved) {
        return moved.error();
    }
    return result;
}

Result<void> World::move(BodyId id, Vec2 translation, const MoveFilter& filter,
                         MoveResult& result) {
    Impl& w = *impl_;
    if (!w.find(id)) {
        return stale();
    }
    if (!is_finite(translation)) {
        return Error{ErrorCode::invalid_input, "move: NaN or infinite translation"};
    }
    if (w.bodies[id.index].type == BodyType::static_body) {
        return Error{ErrorCode::invalid_input, "move: static bodies do not move"};
    }
    // Bodies stay within the coordinates they were made in: a move by
    // -1.7e38 L, finite, went there, and the next one overflowed to
    // infinity (fuzz_world).
    if (!in_coordinate_range(translation) ||
        !in_coordinate_range(w.bodies[id.index].xf.p + translation)) {
        return Error{ErrorCode::invalid_input,
                     "move: a translation or end beyond k_max_coordinate"};
    }
    if (std::optional<Error> refused = w.refusal_inside("move")) {
        return *refused;
    }
    w.rebuild_static_tree_if_dirty();
    w.find_seams_if_dirty(); // (for into_exposed_face)
    const Vec2 start = w.bodies[id.index].xf.p;
    reset_result(result);
    w.move_scratch.busy = true;
    w.move_scratch.asked.clear();
    if (!w.def.move_fast_path || !move_fast(w, id.index, translation, filter, result)) {
        reset_result(result);
        Mover(w, id.index, filter).run(translation, true, result);
    }
    w.move_scratch.busy = false;
    w.set_ground(id.index, result.ground);
    w.sync_moving_proxies(id.index, result.position - start, length(translation));
    return {};
}

// Here rather than in world_impl.hpp, beside its callers, so that it finds
// a character's box as a move does (move_narrowphase.hpp).
void World::Impl::sync_moving_proxies(int body, Vec2 displacement, real asked) {
    const Body& b = bodies[body];
    wake_island(body, false);
    const real margin = tol.aabb_margin + k_move_aabb_multiplier * asked;
    for (int si : b.shape_indices()) {
        const ShapeRecord& s = shapes[si];
        // compute_aabb's box, from the shape's own box when it is an
        // axis-aligned one (a character's), as a move finds it.
        const std::optional<Aabb> exact = axis_aligned_box(s.shape, s.local_box, b.xf);
        const Aabb now = exact ? *exact : compute_aabb(s.shape, b.xf);
        // The stored box is kept while it holds the shape and reaches at
        // most 8 of this move's margins beyond it (a new one reaches one),
        // plus Box2D's 4 margins for a body that slowed: moves of varying
        // lengths do not make it again (with 4 margins, a character steered
        // to random goals shrank and regrew its box every few moves), a
        // body that stops shrinks it.
        const Aabb& stored = moving_tree.fat_aabb(s.tree_proxy);
        if (!contains(stored, now) ||
            !contains(inflate(now, 8 * margin + 4 * tol.aabb_margin), stored)) {
            set_moving_fat_aabb(s.tree_proxy, inflate(now, margin));
        }
        if (sleeping_bodies > 0) { // (wake_near's own test, before its box is made)
            const Aabb before{now.lower - displacement, now.upper - displacement};
            wake_near(inflate(union_of(before, now), tol.speculative_distance), false);
        }
    }
}

void World::Impl::find_riders() {
    riders.clear();
    for (const int bi : step_bodies) {
        const Body& b = bodies[static_cast<std::size_t>(bi)];
        if (!b.alive || b.type != BodyType::kinematic || b.ground.index == bi) {
            continue;
        }
        const Body* ground = find(b.ground);
        if (ground && ground->type == BodyType::kinematic) {
            riders.push_back({bi, b.ground.index, ground->sweep.c2, ground->sweep.a2});
        }
    }
}

// Each rider's origin moves as a point fixed to its ground would (the
// ground's translation and its rotation about its centre), through
// collide-and-slide against everything but the ground, so a wall stops it.
// Its own rotation is kept. The rotation is taken from the angles, so a
// ground that only translates carries its riders by exactly its translation.
void World::Impl::carry_riders() {
    for (const Rider& r : riders) {
        const Body& ground = bodies[r.ground];
        const Vec2 start = bodies[r.body].xf.p;
        const Vec2 arm = start - r.ground_center;
        const Rot turn = Rot::from_angle(ground.sweep.a2 - r.ground_angle);
        const Vec2 carry = (ground.sweep.c2 - r.ground_center) + (rotate(turn, arm) - arm);
        if (carry == Vec2{}) {
            continue;
        }
        const BodyId ground_id = body_id(r.ground);
        const MoveFilter slide_off_all_but_ground = [ground_id](BodyId other) {
            return other == ground_id ? MoveResponse::ignore : MoveResponse::slide;
        };
        reset_result(move_scratch.carry);
        Mover(*this, r.body, slide_off_all_but_ground).run(carry, false, move_scratch.carry);
        sync_moving_proxies(r.body, move_scratch.carry.position - start, length(carry));
    }
}

} // namespace sweep
