// A randomized harness for the broadphase structures: long sequences of
// create, move and destroy (fixed seeds) against a reference that is a plain
// list of proxies with the fat boxes the contract of broadphase.hpp predicts;
// queries loop over it, and box casts use a swept test written per axis
// (entry and exit times of the moving box), not the structures'
// centre-ray-against-Minkowski-sum test.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "sweep/broadphase.hpp"

namespace sweep::test {

/// What the reference knows about one live proxy.
struct ReferenceProxy {
    Aabb tight;
    Aabb fat; ///< what the tree must store
    std::uint64_t user_data = 0;
    std::uint64_t category_bits = 0;
};

inline bool boxes_touch(const Aabb& a, const Aabb& b) {
    return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
           b.lower.y <= a.upper.y;
}

inline bool box_inside(const Aabb& inner, const Aabb& outer) {
    return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y &&
           inner.upper.x <= outer.upper.x && inner.upper.y <= outer.upper.y;
}

inline Aabb grown(const Aabb& a, real d) {
    return {{a.lower.x - d, a.lower.y - d}, {a.upper.x + d, a.upper.y + d}};
}

/// One axis of the swept test: narrows [t_first, t_last] to the times at which
/// the moving interval [lo, hi] + t * velocity meets [target_lo, target_hi].
inline bool narrow_contact_times(real lo, real hi, real velocity, real target_lo, real target_hi,
                                 real& t_first, real& t_last) {
    if (velocity == real(0)) {
        return lo <= target_hi && target_lo <= hi;
    }
    // Contact begins when the leading edge reaches the target's near side and
    // ends when the trailing edge leaves its far side.
    real begin = (velocity > 0 ? target_lo - hi : target_hi - lo) / velocity;
    real end = (velocity > 0 ? target_hi - lo : target_lo - hi) / velocity;
    t_first = std::max(t_first, begin);
    t_last = std::min(t_last, end);
    return t_first <= t_last;
}

/// True when `moving` + t * velocity touches `target` for some t in [0, 1].
inline bool swept_touches(const Aabb& moving, Vec2 velocity, const Aabb& target) {
    real t_first = 0;
    real t_last = 1;
    return narrow_contact_times(moving.lower.x, moving.upper.x, velocity.x, target.lower.x,
                                target.upper.x, t_first, t_last) &&
           narrow_contact_times(moving.lower.y, moving.upper.y, velocity.y, target.lower.y,
                                target.upper.y, t_first, t_last);
}

/// Drives a broadphase (DynamicTree or UniformGrid: anything with their
/// proxy interface, queries, rebuild and validate) and the reference with the
/// same random operations.
template <class Broadphase> class Harness {
  public:
    Harness(Broadphase structure, real margin, unsigned seed)
        : tree_(std::move(structure)), margin_(margin), rng_(seed) {}

    void run(int target_proxies, int operations, int rebuild_every = 0) {
        for (int op = 1; op <= operations; ++op) {
            const real roll = uniform(0, 1);
            const bool growing = count() < target_proxies;
            const real create_share = growing ? real(0.6) : real(0.25);
            const real destroy_share = growing ? real(0.1) : real(0.25);
            if (count() == 0 || roll < create_share) {
                create();
            } else if (roll < create_share + destroy_share) {
                destroy();
            } else {
                move();
            }
            if (::testing::Test::HasFailure()) {
                return; // the first failure says it all; do not flood the log
            }
            if (op % 500 == 0) {
                check_queries(20);
                check_casts(20);
                check_early_stop();
            }
            if (op % 1000 == 0) {
                tree_.validate();
                check_stored_proxies();
            }
            if (rebuild_every > 0 && op % rebuild_every == 0) {
                tree_.rebuild();
                tree_.validate();
                check_stored_proxies();
            }
        }
        tree_.validate();
        check_stored_proxies();
        check_queries(50);
        check_casts(50);
    }

    void drain() {
        while (count() > 0) {
            destroy();
        }
        tree_.validate();
        EXPECT_EQ(tree_.proxy_count(), 0);
        check_queries(5);
        check_casts(5);
    }

    int count() const { return static_cast<int>(live_.size()); }
    const Broadphase& tree() const { return tree_; }
    int reinsertions() const { return reinsertions_; }
    int kept() const { return kept_; }
    int ambiguous_casts() const { return ambiguous_; }

  private:
    real uniform(real lo, real hi) { return std::uniform_real_distribution<real>(lo, hi)(rng_); }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

    /// Zero-size, small, medium and huge boxes over a 1000 x 1000 field.
    Aabb random_box() {
        const Vec2 c{uniform(-500, 500), uniform(-500, 500)};
        const real roll = uniform(0, 1);
        real w = 0;
        real h = 0;
        if (roll < real(0.1)) {
            // zero size: a point
        } else if (roll < real(0.15)) {
            w = uniform(0, 3); // a horizontal segment
        } else if (roll < real(0.65)) {
            w = uniform(0, 2);
            h = uniform(0, 2);
        } else if (roll < real(0.9)) {
            w = uniform(2, 30);
            h = uniform(2, 30);
        } else {
            w = uniform(100, 3000);
            h = uniform(100, 3000);
        }
        return {{c.x - w / 2, c.y - h / 2}, {c.x + w / 2, c.y + h / 2}};
    }

    std::uint64_t random_category() {
        constexpr std::uint64_t k_choices[] = {~0ull, 1, 2, 4, 8, 1 | 8, 1ull << 63};
        return k_choices[pick(7)];
    }

    std::uint64_t random_mask() {
        constexpr std::uint64_t k_choices[] = {~0ull, ~0ull, 1, 2, 4 | 8, 0, 1ull << 63, 16};
        return k_choices[pick(8)];
    }

    void create() {
        ReferenceProxy proxy;
        proxy.tight = random_box();
        proxy.fat = grown(proxy.tight, margin_);
        proxy.user_data = next_user_data_++;
        proxy.category_bits = random_category();
        const ProxyId id = tree_.create_proxy(proxy.tight, proxy.user_data, proxy.category_bits);
        ASSERT_GE(id, 0);
        if (static_cast<std::size_t>(id) >= proxies_.size()) {
            proxies_.resize(static_cast<std::size_t>(id) + 1);
        }
        ASSERT_FALSE(proxies_[static_cast<std::size_t>(id)].has_value()) << "live id reused";
        proxies_[static_cast<std::size_t>(id)] = proxy;
        live_.push_back(id);
        EXPECT_EQ(tree_.fat_aabb(id), proxy.fat);
    }

    void destroy() {
        const std::size_t slot = static_cast<std::size_t>(pick(count()));
        const ProxyId id = live_[slot];
        tree_.destroy_proxy(id);
        proxies_[static_cast<std::size_t>(id)].reset();
        live_[slot] = live_.back();
        live_.pop_back();
    }

    void move() {
        const ProxyId id = live_[static_cast<std::size_t>(pick(count()))];
        ReferenceProxy& proxy = *proxies_[static_cast<std::size_t>(id)];
        const real roll = uniform(0, 1);
        Vec2 d{};
        Aabb next = proxy.tight;
        if (roll < real(0.4)) {
            d = {uniform(-margin_ / 2, margin_ / 2), uniform(-margin_ / 2, margin_ / 2)};
            next = {proxy.tight.lower + d, proxy.tight.upper + d};
        } else if (roll < real(0.8)) {
            d = {uniform(-5, 5), uniform(-5, 5)};
            next = {proxy.tight.lower + d, proxy.tight.upper + d};
        } else if (roll < real(0.9)) {
            next = random_box(); // a teleport: displacement unrelated to the jump
            d = {uniform(-1, 1), 0};
        } // else: it stopped where it is

        // The contract: predicted fat box = tight box grown by the margin and
        // stretched 4 displacements ahead; the tree changes when the tight box
        // left the stored fat box, or the stored box is more than 4 margins
        // beyond the predicted one.
        const Vec2 ahead = real(4) * d;
        Aabb predicted = grown(next, margin_);
        predicted.lower.x += std::min(real(0), ahead.x);
        predicted.lower.y += std::min(real(0), ahead.y);
        predicted.upper.x += std::max(real(0), ahead.x);
        predicted.upper.y += std::max(real(0), ahead.y);
        const bool expect_change = !box_inside(next, proxy.fat) ||
                                   !box_inside(proxy.fat, grown(predicted, real(4) * margin_));

        const bool changed = tree_.move_proxy(id, next, d);
        ASSERT_EQ(changed, expect_change);
        proxy.tight = next;
        if (changed) {
            proxy.fat = predicted;
            ++reinsertions_;
        } else {
            ++kept_;
        }
        ASSERT_EQ(tree_.fat_aabb(id), proxy.fat);
    }

    void check_stored_proxies() {
        ASSERT_EQ(tree_.proxy_count(), count());
        for (const ProxyId id : live_) {
            const ReferenceProxy& proxy = *proxies_[static_cast<std::size_t>(id)];
            ASSERT_EQ(tree_.fat_aabb(id), proxy.fat);
            ASSERT_EQ(tree_.user_data(id), proxy.user_data);
            ASSERT_EQ(tree_.category_bits(id), proxy.category_bits);
        }
    }

    Aabb random_query_box() {
        Aabb box = random_box();
        // Mostly local queries; a few huge ones from random_box cover the field.
        return box;
    }

    void check_queries(int queries) {
        for (int q = 0; q < queries; ++q) {
            const Aabb box = random_query_box();
            const std::uint64_t mask = random_mask();
            std::vector<ProxyId> expected;
            for (const ProxyId id : live_) {
                const ReferenceProxy& proxy = *proxies_[static_cast<std::size_t>(id)];
                if ((proxy.category_bits & mask) != 0 && boxes_touch(proxy.fat, box)) {
                    expected.push_back(id);
                }
            }
            std::vector<ProxyId> found;
            tree_.query(box, mask, [&](ProxyId id, std::uint64_t data) {
                EXPECT_EQ(data, proxies_[static_cast<std::size_t>(id)]->user_data);
                found.push_back(id);
                return true;
            });
            std::sort(expected.begin(), expected.end());
            std::sort(found.begin(), found.end());
            ASSERT_EQ(found, expected) << "query " << q;
        }
    }

    void check_casts(int casts) {
        // Float rounding differs between the two swept tests, so proxies within
        // `slack` of grazing the path may go either way; every other proxy
        // must be classified identically. The slack is a few ulps of the
        // largest coordinate in play (about 4000 L).
        const real slack = real(64) * std::numeric_limits<real>::epsilon() * real(4096);
        for (int c = 0; c < casts; ++c) {
            Aabb box = random_query_box();
            const real roll = uniform(0, 1);
            if (roll < real(0.1)) {
                box.upper = box.lower; // a ray cast
            }
            Vec2 translation{uniform(-300, 300), uniform(-300, 300)};
            if (roll > real(0.9)) {
                translation = {};
            } else if (roll > real(0.8)) {
                translation.y = 0;
            } else if (roll > real(0.7)) {
                translation.x = 0;
            }
            const std::uint64_t mask = random_mask();
            std::vector<ProxyId> found;
            tree_.box_cast(box, translation, mask, [&](ProxyId id, std::uint64_t data) {
                EXPECT_EQ(data, proxies_[static_cast<std::size_t>(id)]->user_data);
                found.push_back(id);
                return true;
            });
            std::sort(found.begin(), found.end());
            ASSERT_TRUE(std::adjacent_find(found.begin(), found.end()) == found.end())
                << "a proxy was reported twice";
            for (const ProxyId id : live_) {
                const ReferenceProxy& proxy = *proxies_[static_cast<std::size_t>(id)];
                const bool reported = std::binary_search(found.begin(), found.end(), id);
                if ((proxy.category_bits & mask) == 0) {
                    ASSERT_FALSE(reported) << "mask ignored";
                    continue;
                }
                const bool surely = swept_touches(box, translation, grown(proxy.fat, -slack));
                const bool maybe = swept_touches(box, translation, grown(proxy.fat, slack));
                if (surely) {
                    ASSERT_TRUE(reported) << "cast " << c << " missed proxy " << id;
                } else if (!maybe) {
                    ASSERT_FALSE(reported) << "cast " << c << " reported far proxy " << id;
                } else {
                    ++ambiguous_;
                }
            }
        }
    }

    void check_early_stop() {
        const Aabb everything{{-1e5f, -1e5f}, {1e5f, 1e5f}};
        const int limit = 1 + pick(5);
        int calls = 0;
        tree_.query(everything, ~0ull, [&](ProxyId, std::uint64_t) { return ++calls < limit; });
        EXPECT_EQ(calls, std::min(limit, count()));
        calls = 0;
        tree_.box_cast(everything, {1, 1}, ~0ull,
                       [&](ProxyId, std::uint64_t) { return ++calls < limit; });
        EXPECT_EQ(calls, std::min(limit, count()));
    }

    Broadphase tree_;
    real margin_;
    std::mt19937 rng_;
    std::vector<std::optional<ReferenceProxy>> proxies_; ///< by id; empty when dead
    std::vector<ProxyId> live_;
    std::uint64_t next_user_data_ = 1000;
    int reinsertions_ = 0;
    int kept_ = 0;
    int ambiguous_ = 0;
};

} // namespace sweep::test
