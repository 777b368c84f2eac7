// The dynamic AABB tree: insertion by a bounded greedy descent on the surface-area
// heuristic, removal, AVL-style rebalancing, validation and a binned-SAH
// rebuild. See broadphase.hpp for the sources.
#include "sweep/broadphase.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace sweep {

namespace detail {

std::vector<std::int32_t>& node_stack_spill() {
    thread_local std::vector<std::int32_t> spill;
    return spill;
}

} // namespace detail

namespace {

/// validate()'s check: a broken tree is a bug in this file, so report it
/// loudly in every build type instead of asserting only in debug.
void require(bool condition, const char* what, ProxyId node) {
    if (!condition) {
        std::fprintf(stderr, "sweep::DynamicTree::validate: %s (node %d)\n", what,
                     static_cast<int>(node));
        std::abort();
    }
}

std::size_t index(ProxyId id) { return static_cast<std::size_t>(id); }

/// Asks for a node's cache line ahead of use.
inline void prefetch(const void* address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#else
    (void)address;
#endif
}

} // namespace

DynamicTree::DynamicTree(real margin) : margin_(margin) { assert(margin >= real(0)); }

bool DynamicTree::is_live_proxy(ProxyId id) const {
    return id >= 0 && index(id) < nodes_.size() && nodes_[index(id)].height == 0;
}

ProxyId DynamicTree::allocate_node() {
    if (free_list_ == k_null_proxy) {
        // Growing may move the array: callers re-read node references after this.
        nodes_.push_back({});
        free_list_ = static_cast<ProxyId>(nodes_.size() - 1);
        nodes_.back().parent = k_null_proxy;
    }
    const ProxyId id = free_list_;
    Node& node = nodes_[index(id)];
    free_list_ = node.parent;
    node = Node{{}, 0, k_null_proxy, k_null_proxy, 0, k_null_proxy, 0};
    return id;
}

void DynamicTree::free_node(ProxyId id) {
    Node& node = nodes_[index(id)];
    node.parent = free_list_;
    node.height = -1;
    node.child1 = k_null_proxy;
    node.child2 = k_null_proxy;
    free_list_ = id;
}

ProxyId DynamicTree::create_proxy(const Aabb& aabb, std::uint64_t user_data,
                                  std::uint64_t category_bits) {
    assert(is_valid(aabb));
    const ProxyId id = allocate_node();
    Node& node = nodes_[index(id)];
    node.aabb = inflate(aabb, margin_);
    node.user_data = user_data;
    node.category_bits = category_bits;
    insert_leaf(id);
    ++proxy_count_;
    return id;
}

void DynamicTree::destroy_proxy(ProxyId id) {
    assert(is_live_proxy(id));
    remove_leaf(id);
    free_node(id);
    --proxy_count_;
}

bool DynamicTree::move_proxy(ProxyId id, const Aabb& aabb, Vec2 displacement) {
    assert(is_live_proxy(id));
    assert(is_valid(aabb) && is_finite(displacement));
    const Aabb fat = predicted_fat_aabb(aabb, displacement, margin_);

    if (fat_aabb_still_fits(nodes_[index(id)].aabb, aabb, fat, margin_)) {
        return false;
    }
    remove_leaf(id);
    nodes_[index(id)].aabb = fat;
    insert_leaf(id);
    return true;
}

const Aabb& DynamicTree::fat_aabb(ProxyId id) const {
    assert(is_live_proxy(id));
    return nodes_[index(id)].aabb;
}

std::uint64_t DynamicTree::user_data(ProxyId id) const {
    assert(is_live_proxy(id));
    return nodes_[index(id)].user_data;
}

std::uint64_t DynamicTree::category_bits(ProxyId id) const {
    assert(is_live_proxy(id));
    return nodes_[index(id)].category_bits;
}

int DynamicTree::height() const { return root_ == k_null_proxy ? 0 : nodes_[index(root_)].height; }

real DynamicTree::area_ratio() const {
    if (root_ == k_null_proxy) {
        return 0;
    }
    const real root_perimeter = perimeter(nodes_[index(root_)].aabb);
    if (!(root_perimeter > real(0))) {
        return 0;
    }
    real total = 0;
    for (const Node& node : nodes_) {
        if (node.height > 0) {
            total += perimeter(node.aabb);
        }
    }
    return total / root_perimeter;
}

// The surface-area heuristic after Bittner et al. 2013 and Catto, GDC 2019
// ("Dynamic Bounding Volume Hierarchies"). Making node S the leaf's sibling
// costs the perimeter of the new parent, perimeter(S u L), plus the growth of
// every ancestor of S, which is S's "inherited" cost; S's descendants cost at
// least their own inherited cost (S's plus S's growth) plus perimeter(L).
//
// One greedy descent, as Box2D v3's b2FindBestSibling: at each node both
// children are costed, the walk goes on into the child with the lower bound
// (on a tie, typically when both contain the leaf, the nearer centre) and
// stops when that bound cannot beat the best sibling found. A full branch
// and bound (best first over every subtree whose bound may win) builds a
// tree with a few percent less total perimeter but costs two to three times
// as much per insertion; the rotations in refit_and_balance_from win most of
// that quality back.
ProxyId DynamicTree::find_best_sibling(const Aabb& leaf_aabb) const {
    const real leaf_perimeter = perimeter(leaf_aabb);
    const Vec2 leaf_centre = center(leaf_aabb);
    const Node* nodes = nodes_.data();
    const Node& root = nodes[index(root_)];
    ProxyId best = root_;
    real best_cost = perimeter(union_of(root.aabb, leaf_aabb));
    Candidate current{best_cost - perimeter(root.aabb), root_};
    while (!nodes[index(current.node)].is_leaf() &&
           current.inherited_cost + leaf_perimeter < best_cost) {
        const Node& node = nodes[index(current.node)];
        const Node& a = nodes[index(node.child1)];
        const Node& b = nodes[index(node.child2)];
        const real cost_a = current.inherited_cost + perimeter(union_of(a.aabb, leaf_aabb));
        const real cost_b = current.inherited_cost + perimeter(union_of(b.aabb, leaf_aabb));
        // Selects rather than branches: which child wins is a coin toss to
        // the branch predictor.
        const bool a_better = cost_a < best_cost;
        best = a_better ? node.child1 : best;
        best_cost = a_better ? cost_a : best_cost;
        const bool b_better = cost_b < best_cost;
        best = b_better ? node.child2 : best;
        best_cost = b_better ? cost_b : best_cost;
        // A leaf has no descendants to search: its bound is "cannot win".
        const real bound_a = a.is_leaf() ? best_cost : cost_a - perimeter(a.aabb);
        const real bound_b = b.is_leaf() ? best_cost : cost_b - perimeter(b.aabb);
        bool take_b = bound_b < bound_a;
        if (bound_b == bound_a && !b.is_leaf()) {
            take_b = length_squared(center(b.aabb) - leaf_centre) <
                     length_squared(center(a.aabb) - leaf_centre);
        }
        current.inherited_cost = take_b ? bound_b : bound_a;
        current.node = take_b ? node.child2 : node.child1;
        // On large trees the descent waits on memory: ask for the next
        // level's two children while this one finishes.
        const Node& next = take_b ? b : a;
        if (!next.is_leaf()) {
            prefetch(&nodes[index(next.child1)]);
            prefetch(&nodes[index(next.child2)]);
        }
    }
    return best;
}

void DynamicTree::insert_leaf(ProxyId leaf) {
    if (root_ == k_null_proxy) {
        root_ = leaf;
        nodes_[index(leaf)].parent = k_null_proxy;
        return;
    }
    const ProxyId sibling = find_best_sibling(nodes_[index(leaf)].aabb);
    const ProxyId parent = allocate_node();
    const ProxyId grandparent = nodes_[index(sibling)].parent;

    Node& new_parent = nodes_[index(parent)];
    new_parent.parent = grandparent;
    new_parent.child1 = sibling;
    new_parent.child2 = leaf;
    nodes_[index(sibling)].parent = parent;
    nodes_[index(leaf)].parent = parent;
    if (grandparent == k_null_proxy) {
        root_ = parent;
    } else {
        replace_child(grandparent, sibling, parent);
    }
    refit_and_balance_from(parent);
}

void DynamicTree::remove_leaf(ProxyId leaf) {
    if (leaf == root_) {
        root_ = k_null_proxy;
        return;
    }
    const ProxyId parent = nodes_[index(leaf)].parent;
    const ProxyId grandparent = nodes_[index(parent)].parent;
    const Node& old_parent = nodes_[index(parent)];
    const ProxyId sibling = old_parent.child1 == leaf ? old_parent.child2 : old_parent.child1;

    // The sibling takes the parent's place; the parent node is freed.
    nodes_[index(sibling)].parent = grandparent;
    if (grandparent == k_null_proxy) {
        root_ = sibling;
    } else {
        replace_child(grandparent, parent, sibling);
    }
    free_node(parent);
    nodes_[index(leaf)].parent = k_null_proxy;
    if (grandparent != k_null_proxy) {
        refit_and_balance_from(grandparent);
    }
}

void DynamicTree::replace_child(ProxyId parent, ProxyId old_child, ProxyId new_child) {
    Node& node = nodes_[index(parent)];
    if (node.child1 == old_child) {
        node.child1 = new_child;
    } else {
        assert(node.child2 == old_child);
        node.child2 = new_child;
    }
}

// Walks to the root restoring each ancestor's box, mask and height from its
// children, rotating where one side has grown two levels taller.
// Walks towards the root restoring each ancestor's box, mask and height from
// its children, rotating where one side has grown two levels taller (AVL) or
// where a rotation shrinks the total perimeter. Above the first ancestor
// whose box, mask and height come out unchanged nothing can change, so the
// walk stops there (Box2D 2.4 always walks to the root).
void DynamicTree::refit_and_balance_from(ProxyId node) {
    for (ProxyId id = node; id != k_null_proxy; id = nodes_[index(id)].parent) {
        const ProxyId balanced = balance(id);
        if (balanced != id) {
            id = balanced;
            refresh(id);
            continue;
        }
        const Node& current = nodes_[index(id)];
        const Aabb old_box = current.aabb;
        const std::uint64_t old_bits = current.category_bits;
        const std::int32_t old_height = current.height;
        refresh(id);
        if (id != node && current.aabb == old_box && current.category_bits == old_bits &&
            current.height == old_height) {
            break;
        }
        rotate_for_area(id);
    }
}

// A tree rotation for quality, after Catto, GDC 2019 (Box2D v3's
// b2RotateNodes): node A keeps its box, but swapping one child with a
// grandchild on the other side can shrink the box of the other child. Of the
// (up to) four swaps, the one that lowers the total perimeter most is done,
// provided both changed nodes stay AVL-balanced, so the height bound holds.
void DynamicTree::rotate_for_area(ProxyId a) {
    Node* nodes = nodes_.data();
    const Node& node = nodes[index(a)];
    if (node.height < 2) {
        return;
    }
    real best_gain = 0;
    ProxyId best_moved = k_null_proxy;  // the child of A that goes down
    ProxyId best_lifted = k_null_proxy; // the grandchild that comes up
    for (const ProxyId side : {node.child1, node.child2}) {
        const ProxyId other = side == node.child1 ? node.child2 : node.child1;
        const Node& o = nodes[index(other)];
        if (o.is_leaf()) {
            continue;
        }
        const Node& moved = nodes[index(side)];
        const real old_area = perimeter(o.aabb);
        for (const ProxyId lifted : {o.child1, o.child2}) {
            const ProxyId stays = lifted == o.child1 ? o.child2 : o.child1;
            const Node& y = nodes[index(stays)];
            const real gain = old_area - perimeter(union_of(moved.aabb, y.aabb));
            if (gain <= best_gain) {
                continue;
            }
            const int new_height = 1 + std::max(moved.height, y.height);
            if (std::abs(moved.height - y.height) > 1 ||
                std::abs(nodes[index(lifted)].height - new_height) > 1) {
                continue;
            }
            best_gain = gain;
            best_moved = side;
            best_lifted = lifted;
        }
    }
    if (best_moved == k_null_proxy) {
        return;
    }
    Node& parent = nodes[index(a)];
    const ProxyId other = parent.child1 == best_moved ? parent.child2 : parent.child1;
    // A: (moved, other(lifted, stays)) becomes A: (lifted, other(moved, stays)).
    replace_child(a, best_moved, best_lifted);
    replace_child(other, best_lifted, best_moved);
    nodes[index(best_lifted)].parent = a;
    nodes[index(best_moved)].parent = other;
    refresh(other);
    refresh(a);
}

void DynamicTree::refresh(ProxyId id) {
    Node& node = nodes_[index(id)];
    const Node& a = nodes_[index(node.child1)];
    const Node& b = nodes_[index(node.child2)];
    node.aabb = union_of(a.aabb, b.aabb);
    node.category_bits = a.category_bits | b.category_bits;
    node.height = 1 + std::max(a.height, b.height);
}

ProxyId DynamicTree::balance(ProxyId id) {
    const Node& node = nodes_[index(id)];
    if (node.is_leaf()) {
        return id;
    }
    const int skew = nodes_[index(node.child2)].height - nodes_[index(node.child1)].height;
    if (skew > 1) {
        return rotate_up(id, node.child2);
    }
    if (skew < -1) {
        return rotate_up(id, node.child1);
    }
    return id;
}

// An AVL rotation (as in b2DynamicTree::Balance): `child` (the taller child of
// `id`) takes the place of `id`, which becomes child's child. Of child's two
// children the taller stays with it and the shorter moves down under `id`,
// in the slot `child` left, which evens the heights out.
ProxyId DynamicTree::rotate_up(ProxyId id, ProxyId child) {
    Node& node = nodes_[index(id)];
    Node& lifted = nodes_[index(child)];
    const ProxyId other = node.child1 == child ? node.child2 : node.child1;
    const ProxyId a = lifted.child1;
    const ProxyId b = lifted.child2;
    const bool a_taller = nodes_[index(a)].height > nodes_[index(b)].height;
    const ProxyId keep = a_taller ? a : b;
    const ProxyId give = a_taller ? b : a;

    lifted.parent = node.parent;
    if (lifted.parent == k_null_proxy) {
        root_ = child;
    } else {
        replace_child(lifted.parent, id, child);
    }
    lifted.child1 = id;
    lifted.child2 = keep;
    node.parent = child;
    node.child1 = other;
    node.child2 = give;
    nodes_[index(give)].parent = id;

    refresh(id);
    refresh(child);
    return child;
}

void DynamicTree::validate() const {
    int leaf_count = 0;
    if (root_ != k_null_proxy) {
        require(root_ >= 0 && index(root_) < nodes_.size(), "root out of range", root_);
        validate_subtree(root_, k_null_proxy, leaf_count);
    }
    require(leaf_count == proxy_count_, "leaf count differs from proxy_count()", root_);

    std::size_t free_count = 0;
    for (ProxyId id = free_list_; id != k_null_proxy; id = nodes_[index(id)].parent) {
        require(id >= 0 && index(id) < nodes_.size(), "free list index out of range", id);
        require(nodes_[index(id)].height == -1, "free node not marked free", id);
        ++free_count;
        require(free_count <= nodes_.size(), "free list has a cycle", id);
    }
    // A live tree of n leaves has n - 1 internal nodes; the rest are free.
    const std::size_t live = proxy_count_ == 0 ? 0 : 2 * static_cast<std::size_t>(proxy_count_) - 1;
    require(live + free_count == nodes_.size(), "nodes lost (neither in the tree nor free)",
            free_list_);
}

// Returns the height of the subtree; aborts on the first broken invariant.
// Recursive: validate is a test aid and trees are shallow.
int DynamicTree::validate_subtree(ProxyId id, ProxyId expected_parent, int& leaf_count) const {
    require(id >= 0 && index(id) < nodes_.size(), "child index out of range", id);
    const Node& node = nodes_[index(id)];
    require(node.parent == expected_parent, "parent link does not match", id);
    require(node.height >= 0, "free node linked into the tree", id);
    if (node.is_leaf()) {
        require(node.child2 == k_null_proxy, "leaf with one child", id);
        require(node.height == 0, "leaf height is not 0", id);
        require(node.aabb.lower.x <= node.aabb.upper.x && node.aabb.lower.y <= node.aabb.upper.y,
                "leaf box inverted", id);
        ++leaf_count;
        return 0;
    }
    require(node.child2 != k_null_proxy, "internal node with one child", id);
    const int h1 = validate_subtree(node.child1, id, leaf_count);
    const int h2 = validate_subtree(node.child2, id, leaf_count);
    const Node& a = nodes_[index(node.child1)];
    const Node& b = nodes_[index(node.child2)];
    require(node.height == 1 + std::max(h1, h2), "height is not 1 + the children's", id);
    require(node.aabb == union_of(a.aabb, b.aabb), "box is not the union of the children's", id);
    require(node.category_bits == (a.category_bits | b.category_bits),
            "category bits are not the OR of the children's", id);
    return node.height;
}

// Orders leaves[begin, end) so that [begin, split) and [split, end) are the
// two sides of the cheapest of 15 planes between 16 equal bins of the leaf
// centres along their longer extent (binned SAH, Wald 2007). Cost of a side:
// leaf count times perimeter of its box, the expected number of leaves a
// random query visits there.
void DynamicTree::partition_leaves(std::vector<ProxyId>& leaves, std::size_t begin, std::size_t end,
                                   std::size_t& split) const {
    constexpr int k_bins = 16;
    const auto centre_of = [&](ProxyId id) { return center(nodes_[index(id)].aabb); };

    Aabb centres{centre_of(leaves[begin]), centre_of(leaves[begin])};
    for (std::size_t i = begin + 1; i < end; ++i) {
        const Vec2 c = centre_of(leaves[i]);
        centres = union_of(centres, Aabb{c, c});
    }
    const Vec2 spread = centres.upper - centres.lower;
    const bool along_x = spread.x >= spread.y;
    const real low = along_x ? centres.lower.x : centres.lower.y;
    const real width = along_x ? spread.x : spread.y;
    if (!(width > real(0))) {
        split = begin + (end - begin) / 2; // every centre coincides: any halving is as good
        return;
    }
    const real scale = real(k_bins) / width;
    const auto bin_of = [&](ProxyId id) {
        const Vec2 c = centre_of(id);
        const int bin = static_cast<int>(((along_x ? c.x : c.y) - low) * scale);
        return std::clamp(bin, 0, k_bins - 1);
    };

    std::array<int, k_bins> counts{};
    std::array<Aabb, k_bins> boxes{};
    for (std::size_t i = begin; i < end; ++i) {
        const int bin = bin_of(leaves[i]);
        const Aabb& box = nodes_[index(leaves[i])].aabb;
        boxes[bin] = counts[bin] == 0 ? box : union_of(boxes[bin], box);
        ++counts[bin];
    }
    // Sweep from the right to know each plane's right-hand cost, then from the
    // left to add the left-hand cost and keep the cheapest plane.
    std::array<real, k_bins> right_cost{};
    Aabb right_box{};
    int right_count = 0;
    for (int bin = k_bins - 1; bin > 0; --bin) {
        if (counts[bin] > 0) {
            right_box = right_count == 0 ? boxes[bin] : union_of(right_box, boxes[bin]);
            right_count += counts[bin];
        }
        right_cost[bin] = right_count == 0 ? real(0) : real(right_count) * perimeter(right_box);
    }
    int best_plane = 1;
    real best_cost = 0;
    Aabb left_box{};
    int left_count = 0;
    for (int plane = 1; plane < k_bins; ++plane) {
        const int bin = plane - 1;
        if (counts[bin] > 0) {
            left_box = left_count == 0 ? boxes[bin] : union_of(left_box, boxes[bin]);
            left_count += counts[bin];
        }
        const real cost = real(left_count) * perimeter(left_box) + right_cost[plane];
        if (plane == 1 || cost < best_cost) {
            best_cost = cost;
            best_plane = plane;
        }
    }
    // The lowest centre falls in bin 0 and the highest in the last bin, so
    // every plane leaves both sides non-empty.
    const auto middle = std::partition(leaves.begin() + static_cast<std::ptrdiff_t>(begin),
                                       leaves.begin() + static_cast<std::ptrdiff_t>(end),
                                       [&](ProxyId id) { return bin_of(id) < best_plane; });
    split = static_cast<std::size_t>(middle - leaves.begin());
}

void DynamicTree::rebuild() {
    std::vector<ProxyId> leaves;
    leaves.reserve(static_cast<std::size_t>(proxy_count_));
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        Node& node = nodes_[i];
        if (node.height == 0) {
            leaves.push_back(static_cast<ProxyId>(i));
        } else if (node.height > 0) {
            free_node(static_cast<ProxyId>(i));
        }
    }
    root_ = k_null_proxy;
    if (leaves.empty()) {
        return;
    }

    // Top-down with an explicit work list: SAH splits can be lopsided, so
    // recursion depth would not be bounded by log n.
    struct Range {
        std::size_t begin;
        std::size_t end;
        ProxyId parent;
    };
    std::vector<Range> work{{0, leaves.size(), k_null_proxy}};
    std::vector<ProxyId> internal; // in creation order: parents before children
    internal.reserve(leaves.size());
    while (!work.empty()) {
        const Range range = work.back();
        work.pop_back();
        ProxyId id = k_null_proxy;
        if (range.end - range.begin == 1) {
            id = leaves[range.begin];
        } else {
            id = allocate_node();
            internal.push_back(id);
            std::size_t split = 0;
            partition_leaves(leaves, range.begin, range.end, split);
            work.push_back({range.begin, split, id});
            work.push_back({split, range.end, id});
        }
        nodes_[index(id)].parent = range.parent;
        if (range.parent == k_null_proxy) {
            root_ = id;
        } else {
            Node& parent = nodes_[index(range.parent)];
            (parent.child1 == k_null_proxy ? parent.child1 : parent.child2) = id;
        }
    }
    // Children were created after their parents, so the reverse order
    // refreshes every node after both of its children.
    for (auto it = internal.rbegin(); it != internal.rend(); ++it) {
        refresh(*it);
    }
}

} // namespace sweep
