// World::move's fast path (box_mover.hpp). Each member says which of the
// general mover's (mover.cpp) it repeats for one box or round shape among
// boxes; a change to one is a change to both, and
// box_mover_property_test.cpp holds them together.
#include "box_mover.hpp"

#include <algorithm>
#include <optional>

#include "box_reach.hpp"
#include "move_narrowphase.hpp"
#include "move_neighbourhood.hpp"
#include "move_rules.hpp"

namespace sweep::detail {
namespace {

// The mover's shape as the fast path takes it: an axis-aligned box (the
// closed forms of two boxes), or a round shape (a disc, or a capsule whose
// core lies along an axis: the general forms, which meet a box in closed
// form through move_round_box.hpp).
enum class OwnForm { box, round };

// The form of the body's shape, if the fast path takes it: one shape, not
// a sensor, an axis-aligned box in its frame; or a disc or a capsule whose
// placed core lies along an axis (as round_on_box asks; a move only
// translates it, which keeps its ends' equal coordinates equal) that is
// bounded_by_boxes (the push-out's question answered by its box, as the
// gather asks it).
std::optional<OwnForm> own_form(const World::Impl& w, int body) {
    const Body& b = w.bodies[body];
    if (b.only_shape < 0) {
        return std::nullopt;
    }
    const ShapeRecord& s = w.shapes[b.only_shape];
    if (s.sensor) {
        return std::nullopt;
    }
    if (s.local_box) {
        return OwnForm::box;
    }
    if (!bounded_by_boxes(s.shape, w.tol)) {
        return std::nullopt;
    }
    if (s.shape.type == ShapeType::circle) {
        return OwnForm::round;
    }
    const Vec2 e1 = transform_point(b.xf, s.shape.capsule.center1);
    const Vec2 e2 = transform_point(b.xf, s.shape.capsule.center2);
    return e1.x == e2.x || e1.y == e2.y ? std::optional(OwnForm::round) : std::nullopt;
}

// One move through the fast path: the body's pose in locals until the move
// succeeds; the candidates, hits, ties and planes in the world's scratch,
// as the general mover keeps them.
template <OwnForm Form> class FastMover {
  public:
    FastMover(World::Impl& w, int body, const MoveFilter& filter)
        : w_(w), body_(body), shape_(w.bodies[body].only_shape), record_(w.shapes[shape_]),
          scratch_(w.move_scratch), filter_(filter) {}

    // Moves by `translation` into `result` (cleared by reset_result) as
    // Mover::run(translation, true, result) would; false, with the body
    // and the world as they were, where it gives up.
    bool run(Vec2 translation, MoveResult& result) {
        const Body& b = w_.bodies[body_];
        xf_ = b.xf;
        c1_ = b.sweep.c1;
        c2_ = b.sweep.c2;
        if (!place()) {
            return false;
        }
        reach_ = length(translation) + w_.tol.linear_slop;
        full_box_ = inflate(box_, reach_);
        // (A filter is asked of what the general mover gathers, no less.)
        whole_ = static_cast<bool>(filter_);
        // A slop beyond cast_all's reach, for rounding.
        gathered_ = whole_ ? full_box_ : swept_box(translation, 2 * w_.tol.linear_slop);
        if (!gather(gathered_, std::nullopt)) {
            return false;
        }
        scratch_.ties.clear();        // (hold_faces reads the last iteration's)
        scratch_.held_planes.clear(); // (and stays empty for a box: see advance)
        Vec2 remaining = translation;
        real slice = 1;
        const real min_motion = real(1e-6) * w_.tol.linear_slop;
        while (length(remaining) > min_motion) {
            if (result.iterations == k_max_move_iterations) {
                result.iteration_cap_hit = true;
                break;
            }
            ++result.iterations;
            remaining = advance(remaining, slice, result);
            if (!placed_ || !fits_) {
                return false;
            }
        }
        Body& moved = w_.bodies[body_];
        moved.xf.p = xf_.p;
        moved.sweep.c1 = c1_;
        moved.sweep.c2 = c2_;
        result.position = xf_.p;
        return true;
    }

  private:
    static constexpr bool k_box = Form == OwnForm::box;

    // The body's box at its pose into box_ (Mover::own_shapes: a box's
    // own, a round shape's AABB); false where a box is no longer an
    // axis-aligned box (its coordinates rounded flat).
    bool place() {
        if constexpr (!k_box) {
            box_ = compute_aabb(record_.shape, xf_);
            return true;
        }
        const std::optional<Aabb> box = axis_aligned_box(record_.shape, record_.local_box, xf_);
        box_ = box.value_or(Aabb{});
        return box.has_value();
    }

    void translate(Vec2 d) {
        if (d == Vec2{}) {
            return;
        }
        xf_.p += d;
        c1_ += d;
        c2_ += d;
        placed_ = placed_ && place();
    }

    PlacedShape placed_own() const { return {&record_.shape, &record_.proxy, xf_}; }

    // (As Mover::cast and Mover::measure place a shape they slide on: a box
    // known to be its box.)
    PlacedShape placed_other(const MoveCandidate& c) const {
        const ShapeRecord& o = w_.shapes[c.other_shape];
        const Transform xf = c.unrotated ? Transform{c.other.origin, Rot{}} : w_.bodies[o.body].xf;
        return {&o.shape, &o.proxy, xf, c.exact_box ? &c.other.box : nullptr};
    }

    // Whether a round mover takes shape `other` (placed), which is not an
    // axis-aligned box, through the general forms, as Mover::cast and
    // Mover::measure would: not for a box mover (whose closing and sinking
    // rules here are those of two boxes), not for a chain segment (measured
    // as its bare segment), and, where their boxes meet (`own_reach`: the
    // push-out looks, Mover::may_push_out), only if it does not lie_deep_in
    // the shape.
    bool takes_general(int other, const OtherBox& placed, const BoxReach& own_reach) const {
        return !k_box && w_.shapes[other].shape.type != ShapeType::chain_segment &&
               (!own_reach.meets(placed.box) || !lies_deep_in(other));
    }

    // Whether a round mover lies deeper than the touch tolerance in shape
    // `other`, whose box its own box reaches into (for a box, deeper than
    // the touch tolerance): the push-out's question, which the general
    // mover asks collide() for such a pair (Mover::deepest_push), and
    // pushes only if so. Most such pairs are a disc beside a box's corner,
    // which only its box's corner reaches into, or beside another
    // character: of 20,000 moves of discs in the Move benchmark's scene,
    // 1,202 gave up for such a pair and moved again through the general
    // mover before this was asked here; none do now. (Out of line: most moves
    // never ask it.)
    [[gnu::noinline]] bool lies_deep_in(int other) const {
        const Manifold m = push_out_manifold(w_, other, record_.shape, xf_);
        for (int i = 0; i < m.count; ++i) {
            if (-m.points[i].separation > w_.tol.touch_tolerance) {
                return true;
            }
        }
        return false;
    }

    // The body's box swept by `motion` from here, `margin` wider. Swept by
    // the whole translation, it holds every pose of a move whose motion
    // keeps to the axes, which run() gathers first. (Slides on the tiles'
    // faces only take away components of the motion left; a corner's
    // normal, against two boxes' corners or a round shape's on any, may
    // turn it, and then within_gathered asks for more: in 30,000 moves of
    // the Move benchmark's scene, never for boxes, 581 times for discs, 293
    // for capsules.)
    Aabb swept_box(Vec2 motion, real margin) const {
        return inflate(union_of(box_, {box_.lower + motion, box_.upper + motion}), margin);
    }

    // Whether the candidates hold everything a cast or a move by `motion`
    // from here may meet (cast_all's reach), gathering the rest of the
    // general mover's box (Mover::gather: `reach_` about the body where the
    // move began, which a move's path never leaves) if not. False where a
    // shape gathered then is one the fast path does not take (fits_ is
    // then false too).
    bool within_gathered(Vec2 motion) {
        if (whole_ || contains(gathered_, swept_box(motion, w_.tol.linear_slop))) {
            return true;
        }
        whole_ = true;
        const Aabb before = gathered_;
        gathered_ = full_box_;
        fits_ = gather(full_box_, before);
        return fits_;
    }

    // Mover::gather over `box`: every shape whose box meets it but not
    // `gathered` (if any: those are candidates already), added to the
    // scratch candidates, cleared first when `gathered` is none; false if
    // one is a sensor, may overlap the body (the push-out's case:
    // Mover::may_push_out, with a round shape's push_form its box; for a
    // round shape, only if it lies_deep_in the other), or is not an
    // axis-aligned box and not one a round mover takes_general.
    bool gather(const Aabb& box, const std::optional<Aabb>& gathered) {
        std::vector<MoveCandidate>& candidates = scratch_.candidates;
        if (!gathered) {
            candidates.clear();
        }
        const BoxReach before(gathered.value_or(Aabb{}));
        const MoverBox own = mover_box(box_, xf_.p, {});
        const BoxReach own_reach(box_);
        bool fits = true;
        const bool filtered = static_cast<bool>(filter_);
        const auto consider = [&](int other, const OtherBox& placed, BodyId body, bool exact_box,
                                  bool unrotated, bool sensor) {
            // (Most moves have no filter and meet no sensor: they slide.)
            if (filtered || sensor) {
                const MoveResponse response = respond(other, body, sensor);
                if (response != MoveResponse::slide) {
                    fits = fits && response == MoveResponse::ignore;
                    return;
                }
            }
            if (exact_box ? may_overlap_boxes(placed, own, own_reach, w_.tol) &&
                                (k_box || lies_deep_in(other))
                          : !takes_general(other, placed, own_reach)) {
                fits = false;
                return;
            }
            MoveCandidate& c = candidates.emplace_back();
            c.own_shape = shape_;
            c.other_shape = other;
            c.other = placed;
            c.body = body;
            c.exact_box = exact_box; // (as the general mover records it; its response: slide)
            c.unrotated = unrotated;
        };
        query_static_near(w_, shape_, box, reach_, [&](const NearStatic& n) {
            if (!gathered || !before.meets(n.other.box)) {
                consider(n.shape, n.other, n.body, n.exact_box, n.unrotated, n.sensor);
            }
        });
        query_movers_near(w_, shape_, box, [&](int other, const ShapeRecord& o, const Body& b) {
            const std::optional<Aabb> exact = axis_aligned_box(o.shape, o.local_box, b.xf);
            const Aabb other_aabb = exact ? *exact : compute_aabb(o.shape, b.xf);
            if (overlaps(box, other_aabb) && (!gathered || !overlaps(*gathered, other_aabb))) {
                consider(other, other_box(other_aabb, b.xf.p), w_.body_id(o.body),
                         exact.has_value(), is_unrotated(b.xf), o.sensor);
            }
        });
        return fits;
    }

    // Mover::response_to for the other shape `other` of `body`: the filter's
    // answer, kept for the general mover should this move give up. (Out of
    // line: the gather's test of each shape stays small for the moves
    // without a filter.)
    [[gnu::noinline]] MoveResponse respond(int other, BodyId body, bool sensor) {
        MoveResponse answer = MoveResponse::slide;
        if (filter_) {
            answer = filter_(body);
            scratch_.asked.emplace_back(other, answer);
        }
        return response_of(answer, false, sensor);
    }

    // Mover::cast_all: for a box the closed form, the general form where
    // it cannot tell; for a round shape the general form.
    void cast_all(Vec2 motion) {
        scratch_.hits.clear();
        const MoverBox own = mover_box(box_, xf_.p, motion);
        const BoxReach sweep_reach(swept_box(motion, w_.tol.linear_slop));
        const BoxReach touch_reach(inflate(box_, w_.tol.touch_tolerance));
        // The candidates the motion may reach, found without a branch on
        // each (whether one is in reach follows no pattern a predictor
        // could learn), then cast in order.
        const std::vector<MoveCandidate>& candidates = scratch_.candidates;
        std::vector<int>& reached = scratch_.reached;
        if (reached.size() < candidates.size()) { // (only grows: no refill per cast)
            reached.resize(candidates.size());
        }
        int* reached_at = reached.data(); // (bounds read once: the stores may alias them)
        const MoveCandidate* candidate = candidates.data();
        const std::size_t candidate_count = candidates.size();
        std::size_t count = 0;
        for (std::size_t ci = 0; ci < candidate_count; ++ci) {
            reached_at[count] = static_cast<int>(ci);
            count += sweep_reach.meets(candidate[ci].other.box);
        }
        for (std::size_t k = 0; k < count; ++k) {
            const auto ci = static_cast<std::size_t>(reached_at[k]);
            const MoveCandidate& c = candidate[ci];
            if constexpr (k_box) {
                const BoxCast cast = cast_boxes(c.other, own, motion, w_.tol);
                if (cast.verdict == BoxVerdict::contact) {
                    add_hit(ci, cast.hit.fraction, cast.hit.normal, cast.hit.point);
                } else if (cast.verdict == BoxVerdict::undecided) {
                    cast_undecided(ci, motion);
                }
            } else {
                cast_general(ci, motion, touch_reach.meets(c.other.box));
            }
        }
    }

    // cast_general where the closed form of two boxes cannot tell (rare:
    // out of line, so that the closed form's loop stays small; it makes
    // its own touch reach, which the box loop would otherwise compute for
    // every cast: 0.9 % more instructions).
    [[gnu::noinline]] void cast_undecided(std::size_t ci, Vec2 motion) {
        const BoxReach touch_reach(inflate(box_, w_.tol.touch_tolerance));
        cast_general(ci, motion, touch_reach.meets(scratch_.candidates[ci].other.box));
    }

    // Mover::cast's general form, for candidate `ci` (`may_touch`: their
    // boxes are within a touch tolerance).
    void cast_general(std::size_t ci, Vec2 motion, bool may_touch) {
        const MoveCandidate& c = scratch_.candidates[ci];
        const PlacedShape other = placed_other(c);
        const PlacedShape own = placed_own();
        const bool presses = may_touch && may_press_into(other, own, motion, w_.tol);
        TouchingManifold touching;
        std::optional<CastOutput> hit =
            cast_to_contact(other, own, motion, presses, true, w_.tol, &touching);
        if (!hit && presses) {
            hit = into_exposed_face(w_, c.other_shape, shape_, other, own, motion, touching);
        }
        if (hit) {
            add_hit(ci, hit->fraction, hit->normal, hit->point);
        }
    }

    void add_hit(std::size_t ci, real fraction, Vec2 normal, Vec2 point) {
        MoveHit& h = scratch_.hits.emplace_back();
        h.own_shape = shape_;
        h.other_shape = scratch_.candidates[ci].other_shape;
        h.t = fraction;
        h.normal = normal;
        h.point = point;
        h.candidate = static_cast<int>(ci);
    }

    // Mover::measure: for a box the closed form, the general form where it
    // cannot tell; for a round shape the general form.
    void measure(MoveHit& hit) const {
        const MoveCandidate& c = scratch_.candidates[static_cast<std::size_t>(hit.candidate)];
        std::optional<ContactMeasure> m;
        if constexpr (k_box) {
            m = measure_boxes(c.other, mover_box(box_, xf_.p, {}), w_.tol, hit.normal);
        }
        if (!m) {
            m = measure_contact(placed_other(c), placed_own(), w_.tol);
        }
        hit.face = m->count == 2 && m->surface_area > w_.tol.linear_slop;
        hit.feature = m->feature;
        hit.surface_area = m->surface_area;
        hit.measured = m->count > 0;
        if (m->count > 0) {
            hit.normal = m->normal;
            hit.separation = m->separation;
        }
    }

    // Mover::reported_separation: tie `h`'s separation at this pose, after
    // a closing of `closed` of the motion left.
    real reported_separation(const MoveHit& h, real closed) const {
        if (!needs_distance(h, closed)) {
            return h.separation;
        }
        const MoveCandidate& c = scratch_.candidates[static_cast<std::size_t>(h.candidate)];
        if constexpr (k_box) {
            return box_distance(c.other.box, box_);
        }
        return signed_distance(placed_other(c), placed_own());
    }

    const Aabb& other_of(const MoveHit& h) const {
        return scratch_.candidates[static_cast<std::size_t>(h.candidate)].other.box;
    }

    // Mover::close_gap. For a box every tie's boxes_meet is exact, so no
    // corner's gap bounds the closing; a round shape's ties close by their
    // separations, and a corner's by no more than its gap and half a touch
    // tolerance.
    real close_gap(Vec2 left, real cap) {
        std::vector<MoveHit>& ties = scratch_.ties;
        std::vector<Vec2>& planes = scratch_.planes;
        planes.clear();
        real used = 0;
        Vec2 dir = left;
        for (std::size_t pass = 0; pass < ties.size() && used < 1; ++pass) {
            real f = pass == 0 ? cap : 1 - used;
            int reached = -1;
            bool closing = false;
            for (int i = 0; i < static_cast<int>(ties.size()); ++i) {
                const MoveHit& h = ties[static_cast<std::size_t>(i)];
                const real approach = -dot(dir, h.normal);
                if (approach > 0) {
                    closing = true;
                    const real fi = k_box ? boxes_meet(other_of(h), box_, dir)
                                          : std::max(h.separation, real(0)) / approach;
                    if (fi < f ||
                        (fi == f &&
                         (reached < 0 || !holds_slide(ties, static_cast<std::size_t>(reached))))) {
                        f = fi;
                        reached = i;
                    }
                }
            }
            if constexpr (!k_box) {
                bound_by_corners(ties, dir, f, reached);
            }
            if (!closing || (pass > 0 && (!within_gathered(f * dir) || nears_another(f * dir)))) {
                break;
            }
            translate(f * dir);
            for (MoveHit& h : ties) {
                h.separation += f * dot(dir, h.normal);
            }
            used += f;
            // (After the last pass nothing reads the slide's direction.)
            if (reached < 0 || !holds_slide(ties, static_cast<std::size_t>(reached)) ||
                pass + 1 == ties.size() || used >= 1) {
                break;
            }
            planes.push_back(ties[static_cast<std::size_t>(reached)].normal);
            dir = clip_to_planes(left, planes);
        }
        return used;
    }

    // Mover::close_gap's bound beside a corner (a tie that is not a face's):
    // the closing `f` of `dir` goes no farther than its gap and half a
    // touch tolerance, and then reaches no tie.
    void bound_by_corners(const std::vector<MoveHit>& ties, Vec2 dir, real& f, int& reached) const {
        const real dir_length = length(dir);
        for (const MoveHit& h : ties) {
            const real most = std::max(h.separation, real(0)) + real(0.5) * w_.tol.touch_tolerance;
            if (!h.face && f * dir_length > most) {
                f = most / dir_length;
                reached = -1;
            }
        }
    }

    // Mover::nears_another: for a box whether it would sink into another
    // box it comes within a touch tolerance of (boxes_sink); for a round
    // shape whether its box comes that near one.
    bool nears_another(Vec2 d) const {
        const BoxReach reach(swept_box(d, w_.tol.touch_tolerance));
        const std::vector<MoveCandidate>& candidates = scratch_.candidates;
        const std::vector<MoveHit>& ties = scratch_.ties;
        for (std::size_t ci = 0; ci < candidates.size(); ++ci) {
            const Aabb& other = candidates[ci].other.box;
            const auto tied = [ci](const MoveHit& h) {
                return h.candidate == static_cast<int>(ci);
            };
            if (reach.meets(other) && std::none_of(ties.begin(), ties.end(), tied) &&
                (!k_box || boxes_sink(other, box_, d, w_.tol.touch_tolerance))) {
                return true;
            }
        }
        return false;
    }

    // Mover::advance for slides: one timeslice subdivision; returns the
    // motion left.
    Vec2 advance(Vec2 motion, real& slice, MoveResult& result) {
        if (!within_gathered(motion)) {
            return {};
        }
        cast_all(motion);
        real t_min = 1;
        for (const MoveHit& h : scratch_.hits) {
            t_min = std::min(t_min, h.t);
        }
        if (t_min >= 1) {
            translate(motion);
            return {};
        }
        translate(t_min * motion);
        if (!placed_) {
            return {};
        }
        const real tie = w_.tol.linear_slop / length(motion);
        std::vector<MoveHit>& ties = scratch_.ties;
        // (A box among boxes meets only the axes' planes, and a slide
        // clipped against one of them never presses into one it was
        // clipped against before: no face needs holding.)
        if constexpr (!k_box) {
            hold_faces(t_min == 0, ties, scratch_.held_planes);
        }
        ties.clear();
        for (const MoveHit& h : scratch_.hits) {
            if (h.t - t_min <= tie) {
                ties.push_back(h);
                measure(ties.back());
                keep_pressing_normal(ties.back(), h.normal, motion);
            }
        }
        order_ties(ties, w_.def.move_ties_by_surface_area, w_.tol.linear_slop);
        Vec2 left = (1 - t_min) * motion;
        const real closed = close_gap(left, closing_cap(scratch_.hits, t_min, tie));
        if (!k_box && closed > 0) {
            scratch_.held_planes.clear();
        }
        const real t_contact = t_min + (1 - t_min) * closed;
        left *= 1 - closed;
        const real time = 1 - slice * (1 - t_contact);
        bool grounded = false;
        for (const MoveHit& h : ties) {
            const BodyId other = scratch_.candidates[static_cast<std::size_t>(h.candidate)].body;
            record(result, {other, time, h.point, h.normal, reported_separation(h, closed),
                            h.surface_area, MoveResponse::slide});
            if (!grounded && is_ground(h.normal)) {
                result.ground = other;
                grounded = true;
            }
        }
        slice *= 1 - t_contact;
        return slide_along(left, ties, scratch_.held_planes, scratch_.planes);
    }

    World::Impl& w_;
    int body_;
    int shape_;
    const ShapeRecord& record_;
    MoveScratch& scratch_;
    const MoveFilter& filter_;
    Transform xf_;
    Vec2 c1_;
    Vec2 c2_;
    Aabb box_;
    bool placed_ = true; // box_ is the body's box at xf_ (else it gives up)
    bool fits_ = true;   // every candidate is one the fast path takes (else it gives up)
    real reach_ = 0;     // the translation's length and a linear slop
    Aabb full_box_;      // the general mover's gather: reach_ about the body's first box
    Aabb gathered_;      // where the candidates were gathered: within full_box_
    bool whole_ = false; // gathered_ is full_box_
};

} // namespace

bool move_fast(World::Impl& w, int body, Vec2 translation, const MoveFilter& filter,
               MoveResult& result) {
    const std::optional<OwnForm> form = own_form(w, body);
    if (!form) {
        return false;
    }
    return *form == OwnForm::box
               ? FastMover<OwnForm::box>(w, body, filter).run(translation, result)
               : FastMover<OwnForm::round>(w, body, filter).run(translation, result);
}

} // namespace sweep::detail
