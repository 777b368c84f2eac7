// Broadphase: a dynamic AABB tree over "fat" boxes, so that proxies which
// move a little do not change the tree, and queries visit O(log n) nodes.
//
// After Box2D 2.4's b2DynamicTree and Erin Catto, "Dynamic Bounding Volume
// Hierarchies", GDC 2019: nodes live in one array with a free list; a leaf is
// inserted beside a sibling chosen by the surface-area heuristic (perimeter
// in 2D; Bittner et al., "Fast Insertion-Based Optimization of Bounding
// Volume Hierarchies", 2013) in one greedy descent with a bound, as Box2D
// v3's b2FindBestSibling; on the way up, AVL-style rotations keep the height
// logarithmic and Catto's tree rotations shrink the total perimeter.
// Unlike Box2D, an internal node stores its children's boxes (as the BVH
// nodes of ray tracers do; Wald et al., "Embree: a kernel framework for
// efficient CPU ray tracing", 2014): a query or an insertion step reads one
// cache line per internal node it enters and never touches the children it
// rejects, which on a large tree is most of the cost.
//
// UniformGrid, for many proxies of about one size (tiles, crowds of small
// bodies): a hash of square cells, each listing the proxies whose fat AABB
// overlaps it (Ericson, "Real-Time Collision Detection", 2005, ch. 7), with
// the same proxy interface and queries as DynamicTree; rays walk the cells in
// order (Amanatides and Woo, "A fast voxel traversal algorithm", 1987).
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sweep/constants.hpp"
#include "sweep/math.hpp"

namespace sweep {

/// The handle of a proxy in a DynamicTree or UniformGrid: an index into its
/// proxy array. Stable while the proxy lives (moves and rebuilds keep it);
/// reused after destroy.
using ProxyId = std::int32_t;

/// "No proxy": what an empty slot or a missing link holds.
inline constexpr ProxyId k_null_proxy = -1;

/// How far ahead a moving proxy's fat AABB reaches, as a multiple of the
/// displacement given to DynamicTree::move_proxy (dimensionless). Box2D 2.4
/// uses 4 (b2_aabbMultiplier): a body at constant velocity then re-inserts
/// about every fourth step instead of every step.
inline constexpr real k_aabb_prediction_multiplier = real(4);

/// The fat AABB both broadphases store for a moved proxy: `aabb` (world, L)
/// grown by `margin` and stretched by k_aabb_prediction_multiplier times
/// `displacement` on the side it moves towards (Box2D 2.4's b2DynamicTree).
inline Aabb predicted_fat_aabb(const Aabb& aabb, Vec2 displacement, real margin) {
    Aabb fat = inflate(aabb, margin);
    const Vec2 reach = k_aabb_prediction_multiplier * displacement;
    // Multiplied by the sign test rather than branched on: motion makes the
    // sign a coin toss (and compilers keep std::min on floats a branch).
    fat.lower.x += real(reach.x < 0) * reach.x;
    fat.lower.y += real(reach.y < 0) * reach.y;
    fat.upper.x += real(reach.x > 0) * reach.x;
    fat.upper.y += real(reach.y > 0) * reach.y;
    return fat;
}

/// True when a proxy whose stored fat box is `stored` needs no update for
/// its new tight box `aabb`: it still fits, and the stored box is not far
/// larger than the new fat box `fat` (a fast body that stopped would otherwise
/// keep reporting pairs it can no longer reach).
inline bool fat_aabb_still_fits(const Aabb& stored, const Aabb& aabb, const Aabb& fat,
                                real margin) {
    return contains(stored, aabb) && contains(inflate(fat, real(4) * margin), stored);
}

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

    // Kept to the common case so that every query inlines it; a tree deep
    // enough to spill takes the call.
    void push(std::int32_t id) {
        // Spilled entries are always newer than local ones: the local array
        // only fills up before the first spill and empties after the last.
        if (size_ < Capacity) [[likely]] {
            local_[size_++] = id;
            return;
        }
        spill(id);
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
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((noinline))
#endif
    void spill(std::int32_t id) {
        if (spill_ == nullptr) {
            spill_ = &node_stack_spill();
        }
        spill_->push_back(id);
        ++spilled_;
    }

    std::int32_t local_[Capacity]; // left uninitialised: only pushed entries are read
    int size_ = 0;
    int spilled_ = 0;
    std::vector<std::int32_t>* spill_ = nullptr;
};

/// Asks for the cache line at `address` ahead of use (a hint).
inline void prefetch(const void* address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#else
    (void)address;
#endif
}

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

/// Calls a pair callback and returns whether the search goes on; a callback
/// returning void always goes on.
template <class Callback> bool report_pair(Callback& callback, ProxyId a, ProxyId b) {
    if constexpr (std::is_void_v<std::invoke_result_t<Callback&, ProxyId, ProxyId>>) {
        callback(a, b);
        return true;
    } else {
        return static_cast<bool>(callback(a, b));
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
/// Coordinates are world units L. Ids index an array of proxies: stable
/// while the proxy lives (moves and rebuilds keep them), reused after
/// destroy_proxy. Not thread-safe for writes; concurrent const queries are
/// fine. No call allocates except the create calls when the arrays grow
/// (amortised), find_pairs when its flags grow, and rebuild.
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

    /// Adds a proxy as create_proxy does (the same id, the same stored box)
    /// but leaves it out of the hierarchy: no query or cast finds it,
    /// find_pairs pairs it with nothing, and for_each_node does not list it,
    /// until rebuild() or place_unplaced() places it. For many
    /// proxies made at once and a rebuild after (a level's static shapes),
    /// where each insertion would be undone by the rebuild: in a level of
    /// 27,850 tiles those insertions cost about 2,600 instructions a tile.
    /// Moving (move_proxy then returns whether its stored box changed),
    /// re-boxing or destroying an unplaced proxy keeps it unplaced.
    ProxyId create_unplaced_proxy(const Aabb& aabb, std::uint64_t user_data,
                                  std::uint64_t category_bits = ~0ull);

    /// How many live proxies create_unplaced_proxy made that no rebuild()
    /// or place_unplaced() has placed yet.
    int unplaced_count() const { return unplaced_count_; }

    /// Places the unplaced proxies: by rebuild() when they number an eighth
    /// of the placed ones or more (a level made at once), else each inserted
    /// as create_proxy inserts (a tile or two added since: a level editor's
    /// queries between edits then cost no rebuild each).
    void place_unplaced();

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

    /// Stores `fat` (world units L, valid) as proxy `id`'s fat AABB, for
    /// callers with their own fat box rule: the proxy is re-inserted, or,
    /// when `fat` lies within the box of its parent's parent, kept in place
    /// with the boxes above it refitted (and rotated for area).
    void set_fat_aabb(ProxyId id, const Aabb& fat);

    /// The stored (fat) AABB of a live proxy, world units L. (Inline, as
    /// user_data: every World::move reads its own and its neighbours'.)
    const Aabb& fat_aabb(ProxyId id) const {
        assert(is_live_proxy(id));
        return proxies_[static_cast<std::size_t>(id)].fat;
    }
    /// The user data given to create_proxy.
    std::uint64_t user_data(ProxyId id) const {
        assert(is_live_proxy(id));
        return proxies_[static_cast<std::size_t>(id)].user_data;
    }
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

    /// Calls `callback(ProxyId a, ProxyId b)`, with a < b, once for every pair
    /// of distinct live proxies whose fat AABBs overlap (touching counts) and
    /// of which at least one is listed in `moved` (ids of live proxies, such
    /// as those whose move_proxy returned true; repeats are ignored). The
    /// order is deterministic: moved proxies in the order listed (first
    /// occurrence), each one's partners in traversal order; a pair of two
    /// moved proxies is reported with the first of them that is listed. The
    /// callback returns bool, false stops (a void callback sees all pairs),
    /// and must not modify this tree. As b2BroadPhase::UpdatePairs, without
    /// its pair buffer: nothing is allocated once the scratch flags have grown
    /// to the node count.
    template <class Callback>
    void find_pairs(const std::vector<ProxyId>& moved, Callback&& callback);

    /// Calls `callback(const Aabb& box, int depth, ProxyId leaf)` once for
    /// every node of the tree, parents before their children (depth first,
    /// the root at depth 0): an internal node's box is the union of its
    /// children's and `leaf` is k_null_proxy; a leaf's box is its proxy's fat
    /// AABB and `leaf` its id. A tree of n proxies has 2n - 1 nodes (none when
    /// empty). For drawing and tests; O(n), allocates a stack as deep as the
    /// tree. The callback must not modify this tree.
    template <class Callback> void for_each_node(Callback&& callback) const;

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

    /// Checks every invariant (parent and child links agree; the box, mask
    /// and height a node keeps for each child are exactly the child's: a
    /// leaf's fat box and bits, an internal child's union, OR and 1 + its
    /// children's height; the free lists of nodes and proxies; the proxy
    /// count) and aborts with a message on stderr when one is broken, in
    /// every build type. O(n); for tests.
    void validate() const;

    /// Rebuilds the internal nodes top-down from the current fat AABBs, by
    /// the surface-area heuristic over 16 bins of leaf centres per split
    /// (Wald, "On fast construction of SAH-based bounding volume hierarchies",
    /// 2007). Ids and fat AABBs are kept; internal nodes are laid out anew in
    /// depth-first order, which queries on large trees feel. Unplaced
    /// proxies (create_unplaced_proxy) are placed with the rest: the tree is
    /// the same as if they had been inserted. O(n log n); allocates scratch.
    void rebuild();

  private:
    /// A child link: an internal node's index (>= 0), or a leaf as the
    /// complement of its proxy id (~id, < 0).
    using NodeRef = std::int32_t;
    static constexpr NodeRef k_no_node = std::numeric_limits<std::int32_t>::min();
    static bool is_leaf(NodeRef ref) { return ref < 0; }
    static NodeRef leaf_ref(ProxyId id) { return ~id; }
    static ProxyId proxy_of(NodeRef ref) { return ~ref; }

    /// An internal node. It holds its two children's boxes, category bits
    /// and heights beside the links, so that a traversal decides which
    /// children to enter from the one cache line it has loaded, and a leaf
    /// is only read when it is reported (float: 64 bytes, one line).
    struct alignas(sizeof(real) == 4 ? 64 : 32) Node {
        Aabb box[2];            ///< a leaf child's fat AABB; an internal child's union
        std::uint64_t bits[2];  ///< a leaf child's category bits; an internal child's OR
        NodeRef child[2];       ///< k_no_node while free
        std::int32_t parent;    ///< k_null_proxy at the root; the next free node while free
        std::int16_t height[2]; ///< each child's height: 0 for a leaf; height[0] is -1 while free
    };

    /// A proxy: its leaf's data. The fat box and bits are also in the parent
    /// node's slot; these copies serve move_proxy, rebuild and the accessors.
    struct Proxy {
        Aabb fat;
        std::uint64_t user_data;
        std::uint64_t category_bits;
        std::int32_t
            parent; ///< the internal node above; k_null_proxy at the root; next free while dead
        bool live;
        bool placed; ///< in the hierarchy (live proxies: all but create_unplaced_proxy's)
    };

    /// What a parent stores about a child.
    struct Summary {
        Aabb box;
        std::uint64_t bits;
        int height;
    };

    bool is_live_proxy(ProxyId id) const;
    std::int32_t allocate_node();
    void free_node(std::int32_t node);
    Summary summary(NodeRef ref) const;
    Summary slot_summary(std::int32_t node, int slot) const;
    std::int32_t parent_of(NodeRef ref) const;
    void set_parent(NodeRef ref, std::int32_t parent);
    int slot_of(std::int32_t node, NodeRef child) const;
    void set_child(std::int32_t node, int slot, NodeRef child, const Summary& s);
    NodeRef find_best_sibling(const Aabb& leaf_aabb) const;
    void insert_leaf(ProxyId id);
    void remove_leaf(ProxyId id);
    void refit_and_balance_from(std::int32_t node);
    std::int32_t balance(std::int32_t node);
    std::int32_t rotate_up(std::int32_t node, int slot);
    void rotate_for_area(std::int32_t node);
    /// A leaf as rebuild() sorts it: its fat box, and the box's centre,
    /// read once rather than at each level of the build, and its bin at the
    /// split being made.
    struct BuildLeaf {
        Aabb box;
        Vec2 centre;
        ProxyId id;
        int bin;
    };
    static void partition_leaves(std::vector<BuildLeaf>& leaves, std::size_t begin, std::size_t end,
                                 std::size_t& split);
    // A live proxy's record, from the free list or appended: create_proxy's
    // and create_unplaced_proxy's, which then place it or not.
    ProxyId allocate_proxy(const Aabb& aabb, std::uint64_t user_data, std::uint64_t category_bits,
                           bool placed);
    Summary validate_subtree(NodeRef ref, std::int32_t expected_parent, int& leaf_count) const;

    /// The traversal shared by the casts; `callback(id, user_data, max_t)`
    /// returns the new maximum fraction (<= 0 stops).
    template <class Callback>
    void cast(const Aabb& box, Vec2 translation, std::uint64_t mask, Callback& callback) const;

    std::vector<Node> nodes_;
    std::vector<Proxy> proxies_;
    /// find_pairs' scratch, by proxy: 1 for a moved proxy not yet processed,
    /// 2 once processed; all 0 between calls.
    std::vector<std::uint8_t> pair_marks_;
    NodeRef root_ = k_no_node;
    std::int32_t free_list_ = k_null_proxy; ///< free internal nodes
    ProxyId free_proxies_ = k_null_proxy;   ///< dead proxies
    int proxy_count_ = 0;
    int unplaced_count_ = 0;
    // Ids create_unplaced_proxy returned since the last placing: those still
    // live and unplaced among them are the unplaced proxies.
    std::vector<ProxyId> unplaced_;
    real margin_;
};

template <class Callback> void DynamicTree::for_each_node(Callback&& callback) const {
    if (root_ == k_no_node) {
        return;
    }
    std::vector<std::pair<NodeRef, int>> stack{{root_, 0}};
    while (!stack.empty()) {
        const auto [ref, depth] = stack.back();
        stack.pop_back();
        if (is_leaf(ref)) {
            callback(proxies_[static_cast<std::size_t>(proxy_of(ref))].fat, depth, proxy_of(ref));
            continue;
        }
        const Node& node = nodes_[static_cast<std::size_t>(ref)];
        callback(union_of(node.box[0], node.box[1]), depth, k_null_proxy);
        stack.push_back({node.child[1], depth + 1});
        stack.push_back({node.child[0], depth + 1});
    }
}

template <class Callback>
void DynamicTree::query(const Aabb& aabb, std::uint64_t mask, Callback&& callback) const {
    if (root_ == k_no_node) {
        return;
    }
    if (is_leaf(root_)) {
        const ProxyId id = proxy_of(root_);
        const Proxy& p = proxies_[static_cast<std::size_t>(id)];
        if ((p.category_bits & mask) != 0 && overlaps(p.fat, aabb)) {
            detail::report_proxy(callback, id, p.user_data);
        }
        return;
    }
    // Depth first, first child first, as Box2D, so the order of the
    // reports, which the world's pair and contact order follows, is that of
    // a traversal testing each node when it is popped. The second child
    // that passes the test waits on the stack; the walk goes straight on
    // into the first, without a push and a pop.
    detail::NodeStack<> stack;
    NodeRef ref = root_;
    for (;;) {
        if (is_leaf(ref)) {
            const ProxyId id = proxy_of(ref);
            if (!detail::report_proxy(callback, id,
                                      proxies_[static_cast<std::size_t>(id)].user_data)) {
                return;
            }
        } else {
            const Node& node = nodes_[static_cast<std::size_t>(ref)];
            // Internal slots carry the OR of their leaves' categories, so a
            // mask prunes whole subtrees, not just leaves.
            const auto enters = [&](int slot) {
                return (node.bits[slot] & mask) != 0 && overlaps(node.box[slot], aabb);
            };
            const bool first = enters(0);
            if (enters(1)) {
                const NodeRef second = node.child[1];
                if (first && !is_leaf(second)) {
                    // Ask for its line now: when both children are entered,
                    // their misses overlap.
                    detail::prefetch(&nodes_[static_cast<std::size_t>(second)]);
                }
                stack.push(second);
            }
            if (first) {
                ref = node.child[0];
                continue;
            }
        }
        if (stack.empty()) {
            return;
        }
        ref = stack.pop();
    }
}

template <class Callback>
void DynamicTree::find_pairs(const std::vector<ProxyId>& moved, Callback&& callback) {
    if (pair_marks_.size() < proxies_.size()) {
        pair_marks_.resize(proxies_.size(), 0);
    }
    for (const ProxyId id : moved) {
        assert(is_live_proxy(id));
        pair_marks_[static_cast<std::size_t>(id)] = 1;
    }
    bool go_on = true;
    for (const ProxyId id : moved) {
        std::uint8_t& mark = pair_marks_[static_cast<std::size_t>(id)];
        if (!go_on || mark != 1 || !proxies_[static_cast<std::size_t>(id)].placed) {
            continue; // a repeat, unplaced, or stopped: only clearing the marks is left
        }
        mark = 2;
        query(proxies_[static_cast<std::size_t>(id)].fat, ~0ull, [&](ProxyId other, std::uint64_t) {
            // Skip itself and partners that report (or reported) this pair.
            if (other == id || pair_marks_[static_cast<std::size_t>(other)] == 2) {
                return true;
            }
            const bool more = other < id ? detail::report_pair(callback, other, id)
                                         : detail::report_pair(callback, id, other);
            go_on = more;
            return more;
        });
    }
    for (const ProxyId id : moved) {
        pair_marks_[static_cast<std::size_t>(id)] = 0;
    }
}

template <class Callback>
void DynamicTree::cast(const Aabb& box, Vec2 translation, std::uint64_t mask,
                       Callback& callback) const {
    if (root_ == k_no_node) {
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
    const auto hit = [&](const Aabb& b, std::uint64_t bits) {
        if ((bits & mask) == 0 || !overlaps(b, swept)) {
            return false;
        }
        const Aabb minkowski{b.lower - half, b.upper + half};
        return detail::ray_hits_box(ray, minkowski, max_t);
    };
    // Reports a leaf; false stops the cast.
    const auto report = [&](ProxyId id) {
        const real next_t = callback(id, proxies_[static_cast<std::size_t>(id)].user_data, max_t);
        if (next_t <= real(0)) {
            return false;
        }
        if (next_t < max_t) {
            max_t = next_t;
            swept = swept_box(max_t);
        }
        return true;
    };
    if (is_leaf(root_)) {
        const Proxy& p = proxies_[static_cast<std::size_t>(proxy_of(root_))];
        if (hit(p.fat, p.category_bits)) {
            report(proxy_of(root_));
        }
        return;
    }
    // The order of query(). A leaf is tested again when popped: an earlier
    // hit may have clipped the cast since it was pushed.
    detail::NodeStack<> stack;
    stack.push(root_);
    while (!stack.empty()) {
        const NodeRef ref = stack.pop();
        if (is_leaf(ref)) {
            const Proxy& p = proxies_[static_cast<std::size_t>(proxy_of(ref))];
            if (hit(p.fat, p.category_bits) && !report(proxy_of(ref))) {
                return;
            }
            continue;
        }
        const Node& node = nodes_[static_cast<std::size_t>(ref)];
        for (int slot = 1; slot >= 0; --slot) {
            if (!hit(node.box[slot], node.bits[slot])) {
                continue;
            }
            const NodeRef child = node.child[slot];
            if (!is_leaf(child)) {
                detail::prefetch(&nodes_[static_cast<std::size_t>(child)]);
            }
            stack.push(child);
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

/// A hashed uniform grid of square cells over "fat" AABBs: the broadphase for
/// many proxies of about one size, with DynamicTree's proxy interface and
/// queries (ids, fat boxes, margins, motion prediction and masks behave the
/// same, so the two are interchangeable).
///
/// Each proxy is listed in every cell its fat AABB overlaps, so a query costs
/// the cells it covers plus the proxies listed there. A proxy that would
/// cover more than k_max_cells_per_proxy cells (a huge one) is kept in a
/// separate list that every query tests directly. A proxy seen in several
/// cells is reported once: from the first cell (lowest x, then lowest y) that
/// it shares with the query. Cell size: given to the constructor or, when 0,
/// twice the larger side of the first proxy's fat box, and rebuild() can
/// re-derive it from all live proxies. Coordinates are world units L. Not
/// thread-safe for writes; concurrent const queries are fine. Queries
/// allocate nothing; create_proxy and move_proxy allocate when a cell's list
/// or the hash grows.
class UniformGrid {
  public:
    /// The most cells one proxy is listed in; larger proxies are tested by
    /// every query instead.
    static constexpr int k_max_cells_per_proxy = 64;

    /// An empty grid of cells `cell_size` world units L wide (0: derive it
    /// from the proxies, see above; otherwise > 0) whose proxies are stored
    /// grown by `margin` L (>= 0).
    explicit UniformGrid(real cell_size = 0, real margin = k_aabb_margin);

    /// As DynamicTree::create_proxy.
    ProxyId create_proxy(const Aabb& aabb, std::uint64_t user_data,
                         std::uint64_t category_bits = ~0ull);
    /// As DynamicTree::destroy_proxy.
    void destroy_proxy(ProxyId id);
    /// As DynamicTree::move_proxy, with the same fat box rules; returns whether
    /// the stored box changed (the proxy's cells may then have changed).
    bool move_proxy(ProxyId id, const Aabb& aabb, Vec2 displacement);

    /// The stored (fat) AABB of a live proxy, world units L.
    const Aabb& fat_aabb(ProxyId id) const;
    /// The user data given to create_proxy.
    std::uint64_t user_data(ProxyId id) const;
    /// The category bits given to create_proxy.
    std::uint64_t category_bits(ProxyId id) const;
    /// Calls `callback(const Aabb& box, int depth, ProxyId leaf)` once for
    /// every node of the tree, parents before their children (depth first,
    /// the root at depth 0): an internal node's box is the union of its
    /// children's and `leaf` is k_null_proxy; a leaf's box is its proxy's fat
    /// AABB and `leaf` its id. A tree of n proxies has 2n - 1 nodes (none when
    /// empty). For drawing and tests; O(n), allocates a stack as deep as the
    /// tree. The callback must not modify this tree.
    template <class Callback> void for_each_node(Callback&& callback) const;

    /// The number of live proxies.
    int proxy_count() const { return proxy_count_; }
    /// The side of a cell, world units L (0 while undecided: auto size and no proxy yet).
    real cell_size() const { return cell_size_; }
    /// The fat-box margin given to the constructor, world units L.
    real margin() const { return margin_; }

    /// As DynamicTree::query: every proxy whose fat AABB overlaps `aabb`
    /// (touching counts) and whose category_bits & mask is not zero, once,
    /// in no particular order; a callback returning false stops.
    template <class Callback>
    void query(const Aabb& aabb, std::uint64_t mask, Callback&& callback) const;

    /// As DynamicTree::box_cast (the same exact test per proxy). A zero-size
    /// box (a ray) walks the cells in order along the ray, so proxies come
    /// roughly nearest first (huge proxies first of all); otherwise the cells
    /// of the swept box are visited in no particular order.
    template <class Callback>
    void box_cast(const Aabb& box, Vec2 translation, std::uint64_t mask, Callback&& callback) const;

    /// As DynamicTree::box_cast_clipped: the callback returns the fraction
    /// still worth searching; a ray stops walking cells beyond it.
    template <class Callback>
    void box_cast_clipped(const Aabb& box, Vec2 translation, std::uint64_t mask,
                          Callback&& callback) const;

    /// As DynamicTree::find_pairs: `callback(ProxyId a, ProxyId b)`, a < b, once
    /// for every pair of distinct live proxies whose fat AABBs overlap
    /// (touching counts) with at least one listed in `moved` (repeats
    /// ignored); moved proxies in the order listed, each one's partners in
    /// query order, which depends only on the sequence of calls made on the
    /// grid (cells and their lists are filled in call order). A callback
    /// returning false stops. Allocates nothing once the scratch flags have
    /// grown to the proxy count.
    template <class Callback>
    void find_pairs(const std::vector<ProxyId>& moved, Callback&& callback);

    /// Re-lists every proxy in cells of `cell_size` L (> 0), or, when 0 and
    /// the grid sizes itself, twice the mean larger side of the live fat
    /// boxes. Ids and fat boxes are kept. Allocates.
    void rebuild(real cell_size = 0);

    /// Checks that every live proxy is listed in exactly the cells its fat
    /// box overlaps (or in the huge list) and nothing else is listed, and the
    /// free list and proxy count; aborts with a message on stderr when broken,
    /// in every build type. For tests.
    void validate() const;

  private:
    /// Cells [x0, x1] x [y0, y1], inclusive.
    struct CellRange {
        std::int32_t x0, y0, x1, y1;
        friend bool operator==(const CellRange&, const CellRange&) = default;
    };
    struct Proxy {
        Aabb aabb; ///< fat AABB
        std::uint64_t user_data;
        std::uint64_t category_bits;
        CellRange cells;   ///< where it is listed, unless huge
        std::int32_t next; ///< next free proxy while free; else its index in huge_ or -1
        bool live;
    };

    bool is_live_proxy(ProxyId id) const;
    std::int32_t cell_coordinate(real x) const;
    CellRange range_of(const Aabb& box) const;
    static bool is_huge(const CellRange& range);
    static std::uint64_t key_of(std::int32_t x, std::int32_t y) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) << 32) |
               static_cast<std::uint32_t>(y);
    }
    const std::vector<ProxyId>* cell(std::int32_t x, std::int32_t y) const {
        const auto it = cells_.find(key_of(x, y));
        return it == cells_.end() ? nullptr : &it->second;
    }
    void add_to_cells(ProxyId id);
    void remove_from_cells(ProxyId id);

    /// Calls visit(id, proxy) once for each live proxy listed in a cell of
    /// `range` or huge, whose mask matches; stops when visit returns false.
    template <class Visit>
    void visit_range(const CellRange& range, std::uint64_t mask, Visit&& visit) const;
    template <class Callback>
    void cast(const Aabb& box, Vec2 translation, std::uint64_t mask, Callback& callback) const;

    std::vector<Proxy> proxies_;
    std::unordered_map<std::uint64_t, std::vector<ProxyId>> cells_;
    std::vector<ProxyId> huge_; ///< proxies too large to list in cells
    /// find_pairs' scratch, by proxy: 1 for a moved proxy not yet processed,
    /// 2 once processed; all 0 between calls.
    std::vector<std::uint8_t> pair_marks_;
    ProxyId free_list_ = k_null_proxy;
    int proxy_count_ = 0;
    real cell_size_;
    real inv_cell_size_ = 0;
    real margin_;
    bool auto_size_;
};

template <class Visit>
void UniformGrid::visit_range(const CellRange& range, std::uint64_t mask, Visit&& visit) const {
    for (const ProxyId id : huge_) {
        const Proxy& p = proxies_[static_cast<std::size_t>(id)];
        if ((p.category_bits & mask) != 0 && !visit(id, p)) {
            return;
        }
    }
    const auto visit_cell = [&](std::int32_t x, std::int32_t y, const std::vector<ProxyId>& ids) {
        for (const ProxyId id : ids) {
            const Proxy& p = proxies_[static_cast<std::size_t>(id)];
            // Report a proxy only from the first cell it shares with the range.
            if (x != std::max(p.cells.x0, range.x0) || y != std::max(p.cells.y0, range.y0)) {
                continue;
            }
            if ((p.category_bits & mask) != 0 && !visit(id, p)) {
                return false;
            }
        }
        return true;
    };
    const std::uint64_t area = static_cast<std::uint64_t>(std::int64_t(range.x1) - range.x0 + 1) *
                               static_cast<std::uint64_t>(std::int64_t(range.y1) - range.y0 + 1);
    if (area > cells_.size()) {
        // Fewer occupied cells than cells in the range: walk the occupied ones.
        for (const auto& [key, ids] : cells_) {
            const auto x = static_cast<std::int32_t>(static_cast<std::uint32_t>(key >> 32));
            const auto y = static_cast<std::int32_t>(static_cast<std::uint32_t>(key));
            if (x < range.x0 || x > range.x1 || y < range.y0 || y > range.y1) {
                continue;
            }
            if (!visit_cell(x, y, ids)) {
                return;
            }
        }
        return;
    }
    for (std::int32_t x = range.x0; x <= range.x1; ++x) {
        for (std::int32_t y = range.y0; y <= range.y1; ++y) {
            const std::vector<ProxyId>* ids = cell(x, y);
            if (ids != nullptr && !visit_cell(x, y, *ids)) {
                return;
            }
        }
    }
}

template <class Callback>
void UniformGrid::query(const Aabb& aabb, std::uint64_t mask, Callback&& callback) const {
    if (proxy_count_ == 0) {
        return;
    }
    visit_range(range_of(aabb), mask, [&](ProxyId id, const Proxy& p) {
        return !overlaps(p.aabb, aabb) || detail::report_proxy(callback, id, p.user_data);
    });
}

template <class Callback>
void UniformGrid::find_pairs(const std::vector<ProxyId>& moved, Callback&& callback) {
    if (pair_marks_.size() < proxies_.size()) {
        pair_marks_.resize(proxies_.size(), 0);
    }
    for (const ProxyId id : moved) {
        assert(is_live_proxy(id));
        pair_marks_[static_cast<std::size_t>(id)] = 1;
    }
    bool go_on = true;
    for (const ProxyId id : moved) {
        std::uint8_t& mark = pair_marks_[static_cast<std::size_t>(id)];
        if (!go_on || mark != 1) {
            continue; // a repeat, or stopped: only clearing the marks is left
        }
        mark = 2;
        query(proxies_[static_cast<std::size_t>(id)].aabb, ~0ull,
              [&](ProxyId other, std::uint64_t) {
                  // Skip itself and partners that report (or reported) this pair.
                  if (other == id || pair_marks_[static_cast<std::size_t>(other)] == 2) {
                      return true;
                  }
                  const bool more = other < id ? detail::report_pair(callback, other, id)
                                               : detail::report_pair(callback, id, other);
                  go_on = more;
                  return more;
              });
    }
    for (const ProxyId id : moved) {
        pair_marks_[static_cast<std::size_t>(id)] = 0;
    }
}

template <class Callback>
void UniformGrid::cast(const Aabb& box, Vec2 translation, std::uint64_t mask,
                       Callback& callback) const {
    if (proxy_count_ == 0) {
        return;
    }
    assert(is_valid(box) && is_finite(translation));
    const Vec2 half = extents(box);
    detail::SlabRay ray{center(box), translation, {}};
    ray.inv_direction.x = translation.x != real(0) ? real(1) / translation.x : real(0);
    ray.inv_direction.y = translation.y != real(0) ? real(1) / translation.y : real(0);
    real max_t = 1;
    // The exact test of DynamicTree::cast: the centre of `box` as a ray
    // against the proxy grown by the box's half extents.
    const auto test = [&](ProxyId id, const Proxy& p) {
        const Aabb minkowski{p.aabb.lower - half, p.aabb.upper + half};
        if (!detail::ray_hits_box(ray, minkowski, max_t)) {
            return true;
        }
        const real next_t = callback(id, p.user_data, max_t);
        if (next_t <= real(0)) {
            return false;
        }
        max_t = next_t < max_t ? next_t : max_t;
        return true;
    };
    const Vec2 end = translation;
    const Aabb swept = union_of(box, Aabb{box.lower + end, box.upper + end});
    const CellRange whole = range_of(swept);
    const bool is_ray = box.lower == box.upper;
    // A box, or a ray whose cells were clamped (far from the origin), visits
    // the cells of the swept box in no particular order.
    constexpr std::int32_t k_far = std::int32_t(1) << 29;
    if (!is_ray || whole.x0 <= -k_far || whole.y0 <= -k_far || whole.x1 >= k_far ||
        whole.y1 >= k_far) {
        visit_range(whole, mask, test);
        return;
    }
    for (const ProxyId id : huge_) {
        const Proxy& p = proxies_[static_cast<std::size_t>(id)];
        if ((p.category_bits & mask) != 0 && !test(id, p)) {
            return;
        }
    }
    // Cells along the ray in order (Amanatides and Woo 1987). A proxy is
    // reported from the first cell of its range that the walk visits: the
    // walk is monotone in x and y, so it enters a rectangle of cells once,
    // and a proxy is new in a cell exactly when the previous cell was not in
    // its range.
    const Vec2 origin = ray.origin;
    std::int32_t x = cell_coordinate(origin.x);
    std::int32_t y = cell_coordinate(origin.y);
    const std::int32_t step_x = translation.x > 0 ? 1 : -1;
    const std::int32_t step_y = translation.y > 0 ? 1 : -1;
    const real inf = std::numeric_limits<real>::infinity();
    const auto first_crossing = [&](real o, std::int32_t c, std::int32_t step, real inv, real d) {
        if (d == real(0)) {
            return inf;
        }
        const real boundary = real(step > 0 ? c + 1 : c) * cell_size_;
        return (boundary - o) * inv;
    };
    real next_x = first_crossing(origin.x, x, step_x, ray.inv_direction.x, translation.x);
    real next_y = first_crossing(origin.y, y, step_y, ray.inv_direction.y, translation.y);
    const real delta_x =
        translation.x != real(0) ? cell_size_ * std::abs(ray.inv_direction.x) : inf;
    const real delta_y =
        translation.y != real(0) ? cell_size_ * std::abs(ray.inv_direction.y) : inf;
    std::int32_t prev_x = x;
    std::int32_t prev_y = y;
    bool first = true;
    for (;;) {
        if (const std::vector<ProxyId>* ids = cell(x, y)) {
            for (const ProxyId id : *ids) {
                const Proxy& p = proxies_[static_cast<std::size_t>(id)];
                const CellRange& r = p.cells;
                if (!first && prev_x >= r.x0 && prev_x <= r.x1 && prev_y >= r.y0 &&
                    prev_y <= r.y1) {
                    continue; // reported (or rejected) in the previous cell
                }
                if ((p.category_bits & mask) != 0 && !test(id, p)) {
                    return;
                }
            }
        }
        // Stop when the next cell lies beyond the end of the ray or the clip.
        if ((next_x < next_y ? next_x : next_y) > max_t) {
            return;
        }
        prev_x = x;
        prev_y = y;
        first = false;
        if (next_x < next_y) {
            x += step_x;
            next_x += delta_x;
        } else {
            y += step_y;
            next_y += delta_y;
        }
        if (x < whole.x0 || x > whole.x1 || y < whole.y0 || y > whole.y1) {
            return;
        }
    }
}

template <class Callback>
void UniformGrid::box_cast(const Aabb& box, Vec2 translation, std::uint64_t mask,
                           Callback&& callback) const {
    auto go_on = [&](ProxyId id, std::uint64_t user_data, real max_t) {
        return detail::report_proxy(callback, id, user_data) ? max_t : real(0);
    };
    cast(box, translation, mask, go_on);
}

template <class Callback>
void UniformGrid::box_cast_clipped(const Aabb& box, Vec2 translation, std::uint64_t mask,
                                   Callback&& callback) const {
    auto clip = [&](ProxyId id, std::uint64_t user_data, real max_t) {
        return static_cast<real>(callback(id, user_data, max_t));
    };
    cast(box, translation, mask, clip);
}

} // namespace sweep
