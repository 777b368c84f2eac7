// The narrowphase lab: two shapes to drag (left button) and turn (shift +
// wheel, or the sliders), with what the geometry kernel says about them:
// the contact manifold (collide), the GJK closest points (distance), the
// Minkowski difference B - A drawn beside them around its own origin (it
// holds the origin exactly when they overlap), and a shape cast of B along
// a translation with its time of impact.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <sstream>

#include "samples/registry.hpp"
#include "sweep/distance.hpp"
#include "sweep/manifold.hpp"
#include "sweep/overlap.hpp"
#include "sweep/shape_cast.hpp"

namespace sweep::testbed {
namespace {

constexpr std::array<const char*, 5> k_shape_names{"circle", "box", "capsule", "triangle",
                                                   "rounded hexagon"};
const Vec2 k_minkowski_origin{0, -5.5f}; ///< where the difference's origin is drawn
/// L: the manifold is shown from this far apart (the world uses 4 slops),
/// so that its points and separations can be watched as the shapes close.
constexpr real k_lab_speculative_distance = 1;

Shape make_lab_shape(int kind) {
    switch (kind) {
    case 0:
        return Circle{{}, 0.8f};
    case 1:
        return make_box(0.9f, 0.6f).value();
    case 2:
        return make_capsule({-0.7f, 0}, {0.7f, 0}, 0.4f).value();
    case 3: {
        const std::array<Vec2, 3> points{{{-0.9f, -0.6f}, {0.9f, -0.6f}, {0, 0.9f}}};
        return make_polygon(points).value();
    }
    default: {
        std::array<Vec2, 6> points;
        for (int i = 0; i < 6; ++i) {
            const real a = 2 * k_pi * real(i) / 6;
            points[static_cast<std::size_t>(i)] = 0.65f * Vec2{std::cos(a), std::sin(a)};
        }
        return make_polygon(points, 0.15f).value();
    }
    }
}

// Andrew's monotone chain: the convex hull of `points`, counter-clockwise.
std::vector<Vec2> convex_hull(std::vector<Vec2> points) {
    std::sort(points.begin(), points.end(),
              [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    std::vector<Vec2> hull(2 * points.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        while (k >= 2 && cross(hull[k - 1] - hull[k - 2], points[i] - hull[k - 2]) <= 0) {
            --k;
        }
        hull[k++] = points[i];
    }
    for (std::size_t i = points.size() - 1, lower = k + 1; i > 0; --i) {
        while (k >= lower && cross(hull[k - 1] - hull[k - 2], points[i - 1] - hull[k - 2]) <= 0) {
            --k;
        }
        hull[k++] = points[i - 1];
    }
    hull.resize(k > 1 ? k - 1 : k);
    return hull;
}

struct Body {
    int kind = 1;
    Vec2 position;
    real angle = 0;
    Shape shape() const { return make_lab_shape(kind); }
    Transform xf() const { return {position, Rot::from_angle(angle)}; }
};

class Lab final : public Sample {
  public:
    Lab() {
        a_ = {1, {-1.2f, 0}, 0.3f};
        b_ = {4, {2.5f, 1.2f}, 0};
        evaluate();
    }

    Aabb view() const override { return {{-6, -9}, {6, 3.5f}}; }

    void step(real dt, const Input&) override {
        ++steps_taken;
        if (animate_) {
            // Turn A and swing B past it, so an unattended run shows every case.
            a_.angle += real(0.7) * dt;
            const real t = real(steps_taken) * dt;
            b_.position = Vec2{real(-1.2) + real(2.4) * std::cos(real(0.8) * t),
                               real(1.2) * std::sin(real(1.1) * t) + 0.4f};
            b_.angle -= real(0.4) * dt;
        }
        evaluate();
        check();
    }

    Figures figures() const override { return figures_; }

    void mouse_down(Vec2 p) override {
        for (Body* body : {&b_, &a_}) {
            if (overlaps(body->shape(), body->xf(), Circle{p, 0.05f}, {})) {
                dragged_ = body;
                selected_ = body;
                grab_ = body->position - p;
                animate_ = false;
                return;
            }
        }
    }
    void mouse_move(Vec2 p) override {
        if (dragged_ != nullptr) {
            dragged_->position = p + grab_;
            evaluate();
        }
    }
    void mouse_up() override { dragged_ = nullptr; }
    bool wants_wheel() const override { return true; }
    void wheel(real clicks) override {
        selected_->angle += real(0.1) * clicks;
        animate_ = false;
        evaluate();
    }

    void draw_ui() override {
        ImGui::TextDisabled("drag a shape; shift + wheel turns it");
        ImGui::Checkbox("animate", &animate_);
        for (Body* body : {&a_, &b_}) {
            ImGui::PushID(body);
            ImGui::Combo(body == &a_ ? "A" : "B", &body->kind, k_shape_names.data(),
                         static_cast<int>(k_shape_names.size()));
            float angle = static_cast<float>(body->angle);
            if (ImGui::SliderAngle("angle", &angle, -180, 180)) {
                body->angle = angle;
            }
            ImGui::PopID();
        }
        float cast[2] = {static_cast<float>(translation_.x), static_cast<float>(translation_.y)};
        if (ImGui::SliderFloat2("cast B by", cast, -6, 6)) {
            translation_ = {cast[0], cast[1]};
        }
        evaluate();
        ImGui::Text("GJK distance %.4f (%d iterations)", double(gjk_.distance), gjk_.iterations);
        ImGui::Text("manifold (from %.0f L apart): %d points", double(k_lab_speculative_distance),
                    manifold_.count);
        for (int i = 0; i < manifold_.count; ++i) {
            ImGui::Text("  separation %.4f",
                        double(manifold_.points[static_cast<std::size_t>(i)].separation));
        }
        ImGui::Text("cast: %s at t = %.4f", cast_state(), double(cast_.fraction));
        ImGui::Text("overlap: %s", overlapping_ ? "yes" : "no");
    }

    std::vector<Label> labels() const override {
        return {
            {a_.position, "A"},
            {b_.position, "B"},
            {k_minkowski_origin + Vec2{-4.5f, 2.8f}, "Minkowski difference B - A (+ = origin)"}};
    }

    void draw(const Draw& draw, const DrawOptions& options) const override;

  private:
    void evaluate() {
        const auto start = std::chrono::steady_clock::now();
        const Shape sa = a_.shape();
        const Shape sb = b_.shape();
        CollideSettings settings;
        settings.speculative_distance = k_lab_speculative_distance;
        manifold_ = collide(sa, a_.xf(), sb, b_.xf(), settings);
        SimplexCache cache;
        gjk_ = distance({make_proxy(sa), make_proxy(sb), a_.xf(), b_.xf(), true}, cache);
        ShapeCastInput input;
        input.proxy_a = make_proxy(sa);
        input.proxy_b = make_proxy(sb);
        input.xf_a = a_.xf();
        input.xf_b = b_.xf();
        input.translation_b = translation_;
        cast_ = shape_cast(input);
        overlapping_ = overlaps(sa, a_.xf(), sb, b_.xf());
        figures_.step_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        figures_.contacts = manifold_.count > 0 ? 1 : 0;
        figures_.contact_points = manifold_.count;
        figures_.bodies = 2;
    }

    const char* cast_state() const {
        switch (cast_.state) {
        case CastState::hit:
            return "hit";
        case CastState::miss:
            return "miss";
        case CastState::overlapped:
            return "overlapped";
        case CastState::failed:
            return "failed";
        case CastState::invalid_input:
            return "invalid input";
        }
        return "?";
    }

    // The queries agree with each other: GJK apart means no overlap, and a
    // cast's time of impact puts B at the target separation from A.
    void check() {
        std::ostringstream why;
        if (gjk_.distance > 2 * k_touch_tolerance) {
            why << "GJK says " << gjk_.distance << " apart but overlaps() says they overlap";
            expect(!overlapping_, why.str());
        }
        expect(cast_.state != CastState::failed && cast_.state != CastState::invalid_input,
               std::string("the shape cast ended ") + cast_state());
        if (cast_.state == CastState::hit && cast_.fraction > 0) {
            SimplexCache cache;
            const Transform at{b_.position + cast_.fraction * translation_,
                               Rot::from_angle(b_.angle)};
            const DistanceOutput d = distance(
                {make_proxy(a_.shape()), make_proxy(b_.shape()), a_.xf(), at, true}, cache);
            std::ostringstream gap;
            gap << "at its time of impact B is " << d.distance << " from A, not the target "
                << k_linear_slop;
            expect(std::abs(d.distance - k_linear_slop) <= k_linear_slop, gap.str());
        }
    }

    Body a_;
    Body b_;
    Body* dragged_ = nullptr;
    Body* selected_ = &b_;
    Vec2 grab_;
    Vec2 translation_{-4, -1.5f};
    bool animate_ = true;
    Manifold manifold_;
    DistanceOutput gjk_;
    CastOutput cast_;
    bool overlapping_ = false;
    Figures figures_;
};

void Lab::draw(const Draw& draw, const DrawOptions& options) const {
    const Shape sa = a_.shape();
    const Shape sb = b_.shape();
    const Color color_a = palette(0);
    const Color color_b = palette(overlapping_ ? 1 : 3);
    // The cast: B's path and B at its time of impact.
    draw.arrow(b_.position, b_.position + translation_, Color{150, 150, 150});
    if (cast_.state == CastState::hit) {
        const Transform at{b_.position + cast_.fraction * translation_, Rot::from_angle(b_.angle)};
        draw.shape(sb, at, {0, 0, 0, 0}, with_alpha(color_b, 160));
        draw.point(cast_.point, 6, k_event_color);
        draw.arrow(cast_.point, cast_.point + real(0.7) * cast_.normal, k_event_color);
    }
    draw.shape(sa, a_.xf(), with_alpha(color_a, 90), color_a);
    draw.shape(sb, b_.xf(), with_alpha(color_b, 90), color_b);
    if (options.aabbs) {
        draw.aabb(compute_aabb(sa, a_.xf()), k_aabb_color);
        draw.aabb(compute_aabb(sb, b_.xf()), k_aabb_color);
    }
    // GJK closest points.
    if (gjk_.state == DistanceState::separated) {
        draw.segment(gjk_.point_a, gjk_.point_b, Color{40, 40, 40});
        draw.point(gjk_.point_a, 6, color_a);
        draw.point(gjk_.point_b, 6, color_b);
    }
    // The manifold.
    if (options.contacts) {
        for (int i = 0; i < manifold_.count; ++i) {
            const Vec2 p = manifold_.points[static_cast<std::size_t>(i)].point;
            draw.point(p, 7, k_contact_color);
            draw.arrow(p, p + real(0.6) * manifold_.normal, k_normal_color);
        }
    }
    // The Minkowski difference of the outlines, around its own origin.
    std::vector<Vec2> differences;
    for (const Vec2 pb : shape_outline(sb, b_.xf())) {
        for (const Vec2 pa : shape_outline(sa, a_.xf())) {
            differences.push_back(k_minkowski_origin + (pb - pa));
        }
    }
    draw.convex(convex_hull(differences), with_alpha(color_b, overlapping_ ? 110 : 50), color_b);
    const real r = real(0.25);
    draw.segment(k_minkowski_origin - Vec2{r, 0}, k_minkowski_origin + Vec2{r, 0},
                 Color{20, 20, 20});
    draw.segment(k_minkowski_origin - Vec2{0, r}, k_minkowski_origin + Vec2{0, r},
                 Color{20, 20, 20});
    if (gjk_.state == DistanceState::separated) {
        // The closest point of the difference to the origin is pb - pa.
        draw.arrow(k_minkowski_origin, k_minkowski_origin + (gjk_.point_b - gjk_.point_a),
                   Color{40, 40, 40});
    }
}

} // namespace

std::unique_ptr<Sample> make_lab(const SampleContext&) { return std::make_unique<Lab>(); }

} // namespace sweep::testbed
