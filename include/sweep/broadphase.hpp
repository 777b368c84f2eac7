// Broadphase: a dynamic AABB tree over "fat" boxes, so that proxies which
// move a little do not change the tree, and queries visit O(log n) nodes.
//
// After Box2D 2.4's b2DynamicTree and Erin Catto, "Dynamic Bounding Volume
// Hierarchies", GDC 2019: nodes live in one array with a free list; a leaf is
// inserted beside the sibling that minimises the total perimeter of the tree
// (the surface-area heuristic in 2D), found by branch and bound (Bittner et
// al., "Fast Insertion-Based Optimization of Bounding Volume Hierarchies",
// 2013); AVL-style rotations on the way up keep the height logarithmic.
#pragma once

#include <cassert>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "sweep/constants.hpp"
#include "sweep/math.hpp"

namespace sweep {

/// The handle of a proxy in a DynamicTree: the index of its leaf node. Stable
/// while the proxy lives (moves and rebuilds keep it); reused after destroy.
using ProxyId = std::int32_t;

/// "No proxy": what an empty slot or a missing link holds.
inline constexpr ProxyId k_null_proxy = -1;

/// How far ahead a moving proxy's fat AABB reaches, as a multiple of the
/// displacement given to DynamicTree::move_proxy (dimensionless). Box2D 2.4
/// uses 4 (b2_aabbMultiplier): a body at constant velocity then re-inserts
/// about every fourth step instead of every step.
inline constexpr real k_aabb_prediction_multiplier = real(4);

namespace detail {

/// The spill area of NodeStack: one vector per thread, shared in LIFO order
/// by nested traversals (a callback may query another tree). Defined in
/// broadphase.cpp; touched only when a traversal outgrows its local array.
std::vector<std::int32_t>& node_stack_spill();

/// The traversal stack of the tree queries: a local array of `Capacity`
/// entries, so a query allocates nothing, and, should a degenerate tree need
/// more, the thread's spill vector, so that correctness never depends on the
/// height. The depth a traversal needs is about the tree height plus one,
/// and the AVL rotations keep the height below 1.44 log2(n).
template <int Capacity = 256> class NodeStack {
  public:
    NodeStack() = default;
    NodeStack(const NodeStack&) = delete;
    NodeStack& operator=(const NodeStack&) = delete;
    /// Gives back what an early-stopped traversal left in the spill vector.
    ~NodeStack() {
        if (spilled_ > 0) {
            spill_->resize(spill_->size() - static_cast<std::size_t>(spilled_));
        }
    }

    bool empty() const { return size_ == 0 && spilled_ == 0; }

    void push(std::int32_t id) {
        // Spilled entries are always newer than local ones: the local array
        // only fills up before the first spill and empties after the last.
        if (size_ < Capacity) {
            local_[size_++] = id;
            return;
        }
        if (spill_ == nullptr) {
            spill_ = &node_stack_spill();
        }
        spill_->push_back(id);
        ++spilled_;
    }

    std::int32_t pop() {
        if (spilled_ > 0) {
            const std::int32_t id = spill_->back();
            spill_->pop_back();
            --spilled_;
            return id;
        }
        return local_[--size_];
    }

  private:
    std::int32_t local_[Capacity]; // left uninitialised: only pushed entries are read
    int size_ = 0;
    int spilled_ = 0;
    std::vector<std::int32_t>* spill_ = nullptr;
};

/// Calls a query callback and returns whether the traversal goes on; a
/// callback returning void always goes on.
template <class Callback>
bool report_proxy(Callback& callback, ProxyId id, std::uint64_t user_data) {
    if constexpr (std::is_void_v<std::invoke_result_t<Callback&, ProxyId, std::uint64_t>>) {
        callback(id, user_data);
        return true;
    } else {
        return static_cast<bool>(callback(id, user_data));
    }
}

/// A ray from `origin` along `direction`, set up for repeated slab tests.
struct SlabRay {
    Vec2 origin;
    Vec2 direction;
    Vec2 inv_direction; ///< 1 / direction per axis; unused on an axis where direction is 0
};

/// True when origin + t * direction lies in `box` for some t in [0, max_t]
/// (boundaries included). The slab test: intersect the parameter intervals
/// in which the ray is between each pair of parallel sides (Kay and Kajiya,
/// "Ray tracing complex scenes", 1986). An axis the ray does not move along
/// is a containment test, so a zero translation is a point-in-box test.
inline bool ray_hits_box(const SlabRay& ray, const Aabb& box, real max_t) {
    real t_enter = 0;
    real t_exit = max_t;
    const real lower[2] = {box.lower.x, box.lower.y};
    const real upper[2] = {box.upper.x, box.upper.y};
    const real origin[2] = {ray.origin.x, ray.origin.y};
    const real direction[2] = {ray.direction.x, ray.direction.y};
    const real inv_direction[2] = {ray.inv_direction.x, ray.inv_direction.y};
    for (int axis = 0; axis < 2; ++axis) {
        if (direction[axis] == real(0)) {
            if (origin[axis] < lower[axis] || origin[axis] > upper[axis]) {
                return false;
            }
            continue;
        }
        real t1 = (lower[axis] - origin[axis]) * inv_direction[axis];
        real t2 = (upper[axis] - origin[axis]) * inv_direction[axis];
        if (t1 > t2) {
            std::swap(t1, t2);
        }
        t_enter = t1 > t_enter ? t1 : t_enter;
        t_exit = t2 < t_exit ? t2 : t_exit;
        if (t_enter > t_exit) {
            return false;
        }
    }
    return true;
}

} // namespace detail

/// A bounding volume hierarchy of "fat" AABBs for the broadphase.
///
/// Each proxy stores its AABB grown by `margin` (and, when moved, stretched
/// along its displacement), so that small motions leave the tree untouched
/// and the narrowphase is asked about pairs whose fat boxes overlap.
/// Coordinates are world units L. Ids are indices into one node array:
/// stable while the proxy lives, reused after destroy_proxy. Not thread-safe
/// for writes; concurrent const queries are fine. No call allocates except
/// create_proxy and move_proxy when the node array or the insertion scratch
/// grows (amortised), and rebuild.
class DynamicTree {
  public:
    /// An empty tree whose proxies are stored grown by `margin` world units L
    /// on every side (>= 0; Box2D's b2_aabbExtension).
    explicit DynamicTree(real margin = k_aabb_margin);

    /// Adds a proxy for `aabb` (world units L, lower <= upper and finite;
    /// asserted in debug builds) and returns its id. The tree stores
    /// inflate(aabb, margin). `user_data` is returned to query callbacks;
    /// `category_bits` is matched against query masks.
    ProxyId create_proxy(const Aabb& aabb, std::uint64_t user_data,
                         std::uint64_t category_bits = ~0ull);

    /// Removes a live proxy; its id may be returned by a later create_proxy.
    /// Destroying a dead id is a programming error (asserted in debug builds).
    void destroy_proxy(ProxyId id);

    /// Tells the tree that proxy `id` now has the tight box `aabb` after moving
    /// by `displacement` (world units L, usually this step's velocity * dt).
    /// The tree changes only when `aabb` left the stored fat AABB, or when the
    /// stored box has become much larger than needed (more than 4 margins
    /// beyond the new fat AABB, as after a fast body stops); the new fat AABB is
    /// inflate(aabb, margin) extended by k_aabb_prediction_multiplier *
    /// displacement on the side it moves towards. Returns whether the proxy
    /// was re-inserted (after Box2D 2.4's b2DynamicTree::MoveProxy).
    bool move_proxy(ProxyId id, const Aabb& aabb, Vec2 displacement);

    /// The stored (fat) AABB of a live proxy, world units L.
    const Aabb& fat_aabb(ProxyId id) const;
    /// The user data given to create_proxy.
    std::uint64_t user_data(ProxyId id) const;
    /// The category bits given to create_proxy.
    std::uint64_t category_bits(ProxyId id) const;

    /// Calls `callback(ProxyId, std::uint64_t user_data)` for every proxy whose
    /// fat AABB overlaps `aabb` (touching counts) and whose category_bits & mask
    /// is not zero, in no particular order. The callback returns bool: false
    /// stops the query (a void callback visits all). It must not modify this
    /// tree. Allocates nothing.
    template <class Callback>
    void query(const Aabb& aabb, std::uint64_t mask, Callback&& callback) const;

    /// Calls `callback(ProxyId, std::uint64_t user_data)` for every proxy whose
    /// fat AABB is touched by `box` swept along `translation` (world units L),
    /// that is by box + t * translation for some t in [0, 1], and whose
    /// category_bits & mask is not zero; in no particular order. Returning
    /// false stops the cast. A zero-size box is a ray cast; a zero translation
    /// is query(box). `box` must be valid and `translation` finite (asserted
    /// in debug builds). Each node is tested exactly: the centre of `box` as a ray
    /// against the node grown by the box's half extents (the Minkowski sum),
    /// with a slab test. Allocates nothing.
    template <class Callback>
    void box_cast(const Aabb& box, Vec2 translation, std::uint64_t mask, Callback&& callback) const;

    /// box_cast for closest-hit searches: `callback(ProxyId, std::uint64_t
    /// user_data, real max_fraction) -> real` returns the fraction of the
    /// translation still worth searching: 0 (or less) stops, a value below
    /// max_fraction clips the cast so that farther proxies are skipped, and
    /// max_fraction (or more) goes on unchanged. As b2DynamicTree::RayCast.
    template <class Callback>
    void box_cast_clipped(const Aabb& box, Vec2 translation, std::uint64_t mask,
                          Callback&& callback) const;

    /// The number of live proxies.
    int proxy_count() const { return proxy_count_; }
    /// The height of the tree: 0 when empty or a single leaf.
    int height() const;
    /// The sum of the perimeters of the internal nodes over the perimeter of
    /// the root, a measure of tree quality (lower is better); 0 when the tree
    /// has no internal node or a root of zero perimeter.
    real area_ratio() const;
    /// The fat-box margin given to the constructor, world units L.
    real margin() const { return margin_; }

    /// Checks every invariant (parent and child links agree, each internal
    /// box and category mask is exactly the union of its children's, heights,
    /// the free list, the proxy count) and aborts with a message on stderr
    /// when one is broken, in every build type. O(n); for tests.
    void validate() const;

    /// Rebuilds the internal nodes top-down from the current fat AABBs, by
    /// the surface-area heuristic over 16 bins of leaf centres per split
    /// (Wald, "On fast construction of SAH-based bounding volume hierarchies",
    /// 2007). Ids and fat AABBs are kept. O(n log n); allocates scratch.
    void rebuild();

  private:
    struct Node {
        Aabb aabb;                   ///< fat AABB of a leaf; union of the children otherwise
        std::uint64_t category_bits; ///< a leaf's bits; the OR of the children's otherwise
        ProxyId child1;              ///< k_null_proxy for a leaf
        ProxyId child2;
        std::uint64_t user_data; ///< leaves only
        ProxyId parent;          ///< k_null_proxy at the root; the next free node while free
        std::int32_t height;     ///< 0 for a leaf, -1 while free

        bool is_leaf() const { return child1 == k_null_proxy; }
    };

    /// An internal node whose children the insertion search may still visit.
    struct Candidate {
        real inherited_cost; ///< perimeter growth of the node and its ancestors
        ProxyId node;
    };

    bool is_live_proxy(ProxyId id) const;
    ProxyId allocate_node();
    void free_node(ProxyId id);
    ProxyId find_best_sibling(const Aabb& leaf_aabb);
    void insert_leaf(ProxyId leaf);
    void remove_leaf(ProxyId leaf);
    void refit_and_balance_from(ProxyId node);
    void refresh(ProxyId node);
    ProxyId balance(ProxyId node);
    void rotate_for_area(ProxyId node);
    ProxyId rotate_up(ProxyId node, ProxyId child);
    void replace_child(ProxyId parent, ProxyId old_child, ProxyId new_child);
    void partition_leaves(std::vector<ProxyId>& leaves, std::size_t begin, std::size_t end,
                          std::size_t& split) const;
    int validate_subtree(ProxyId node, ProxyId expected_parent, int& leaf_count) const;

    /// The traversal shared by the casts; `callback(id, user_data, max_t)`
    /// returns the new maximum fraction (<= 0 stops).
    template <class Callback>
    void cast(const Aabb& box, Vec2 translation, std::uint64_t mask, Callback& callback) const;

    std::vector<Node> nodes_;
    std::vector<Candidate> candidates_; ///< scratch heap of find_best_sibling, kept to reuse
    ProxyId root_ = k_null_proxy;
    ProxyId free_list_ = k_null_proxy;
    int proxy_count_ = 0;
    real margin_;
};

template <class Callback>
void DynamicTree::query(const Aabb& aabb, std::uint64_t mask, Callback&& callback) const {
    if (root_ == k_null_proxy) {
        return;
    }
    detail::NodeStack<> stack;
    stack.push(root_);
    while (!stack.empty()) {
        const ProxyId id = stack.pop();
        const Node& node = nodes_[static_cast<std::size_t>(id)];
        // Internal nodes carry the OR of their leaves' categories, so a mask
        // prunes whole subtrees, not just leaves.
        if ((node.category_bits & mask) == 0 || !overlaps(node.aabb, aabb)) {
            continue;
        }
        if (node.is_leaf()) {
            if (!detail::report_proxy(callback, id, node.user_data)) {
                return;
            }
        } else {
            stack.push(node.child2);
            stack.push(node.child1);
        }
    }
}

template <class Callback>
void DynamicTree::cast(const Aabb& box, Vec2 translation, std::uint64_t mask,
                       Callback& callback) const {
    if (root_ == k_null_proxy) {
        return;
    }
    assert(is_valid(box) && is_finite(translation));
    const Vec2 half = extents(box);
    detail::SlabRay ray{center(box), translation, {}};
    ray.inv_direction.x = translation.x != real(0) ? real(1) / translation.x : real(0);
    ray.inv_direction.y = translation.y != real(0) ? real(1) / translation.y : real(0);
    real max_t = 1;
    // The swept box is a cheap conservative reject before the slab test.
    const auto swept_box = [&](real t) {
        const Vec2 end = t * translation;
        return union_of(box, Aabb{box.lower + end, box.upper + end});
    };
    Aabb swept = swept_box(max_t);

    detail::NodeStack<> stack;
    stack.push(root_);
    while (!stack.empty()) {
        const ProxyId id = stack.pop();
        const Node& node = nodes_[static_cast<std::size_t>(id)];
        if ((node.category_bits & mask) == 0 || !overlaps(node.aabb, swept)) {
            continue;
        }
        const Aabb minkowski{node.aabb.lower - half, node.aabb.upper + half};
        if (!detail::ray_hits_box(ray, minkowski, max_t)) {
            continue;
        }
        if (!node.is_leaf()) {
            stack.push(node.child2);
            stack.push(node.child1);
            continue;
        }
        const real next_t = callback(id, node.user_data, max_t);
        if (next_t <= real(0)) {
            return;
        }
        if (next_t < max_t) {
            max_t = next_t;
            swept = swept_box(max_t);
        }
    }
}

template <class Callback>
void DynamicTree::box_cast(const Aabb& box, Vec2 translation, std::uint64_t mask,
                           Callback&& callback) const {
    auto go_on = [&](ProxyId id, std::uint64_t user_data, real max_t) {
        return detail::report_proxy(callback, id, user_data) ? max_t : real(0);
    };
    cast(box, translation, mask, go_on);
}

template <class Callback>
void DynamicTree::box_cast_clipped(const Aabb& box, Vec2 translation, std::uint64_t mask,
                                   Callback&& callback) const {
    auto clip = [&](ProxyId id, std::uint64_t user_data, real max_t) {
        return static_cast<real>(callback(id, user_data, max_t));
    };
    cast(box, translation, mask, clip);
}

} // namespace sweep
