// The dynamic AABB tree: insertion by a bounded greedy descent on the surface-area
// heuristic, removal, AVL-style rebalancing, validation and a binned-SAH
// rebuild. See broadphase.hpp for the sources and the node layout.
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

} // namespace

DynamicTree::DynamicTree(real margin) : margin_(margin) { assert(margin >= real(0)); }

bool DynamicTree::is_live_proxy(ProxyId id) const {
    return id >= 0 && index(id) < proxies_.size() && proxies_[index(id)].live;
}

std::int32_t DynamicTree::allocate_node() {
    if (free_list_ == k_null_proxy) {
        // Growing may move the array: callers re-read node references after this.
        nodes_.emplace_back();
        free_list_ = static_cast<std::int32_t>(nodes_.size() - 1);
        nodes_.back().parent = k_null_proxy;
    }
    const std::int32_t id = free_list_;
    Node& node = nodes_[index(id)];
    free_list_ = node.parent;
    node = Node{};
    node.child[0] = node.child[1] = k_no_node;
    node.parent = k_null_proxy;
    return id;
}

void DynamicTree::free_node(std::int32_t id) {
    Node& node = nodes_[index(id)];
    node.parent = free_list_;
    node.height[0] = -1;
    node.child[0] = node.child[1] = k_no_node;
    free_list_ = id;
}

DynamicTree::Summary DynamicTree::summary(NodeRef ref) const {
    if (is_leaf(ref)) {
        const Proxy& p = proxies_[index(proxy_of(ref))];
        return {p.fat, p.category_bits, 0};
    }
    const Node& n = nodes_[index(ref)];
    return {union_of(n.box[0], n.box[1]), n.bits[0] | n.bits[1],
            1 + std::max<int>(n.height[0], n.height[1])};
}

DynamicTree::Summary DynamicTree::slot_summary(std::int32_t node, int slot) const {
    const Node& n = nodes_[index(node)];
    return {n.box[slot], n.bits[slot], n.height[slot]};
}

std::int32_t DynamicTree::parent_of(NodeRef ref) const {
    return is_leaf(ref) ? proxies_[index(proxy_of(ref))].parent : nodes_[index(ref)].parent;
}

void DynamicTree::set_parent(NodeRef ref, std::int32_t parent) {
    (is_leaf(ref) ? proxies_[index(proxy_of(ref))].parent : nodes_[index(ref)].parent) = parent;
}

int DynamicTree::slot_of(std::int32_t node, NodeRef child) const {
    assert(nodes_[index(node)].child[0] == child || nodes_[index(node)].child[1] == child);
    // Either side is as likely: a comparison, not a branch.
    return static_cast<int>(nodes_[index(node)].child[1] == child);
}

void DynamicTree::set_child(std::int32_t node, int slot, NodeRef child, const Summary& s) {
    Node& n = nodes_[index(node)];
    n.child[slot] = child;
    n.box[slot] = s.box;
    n.bits[slot] = s.bits;
    n.height[slot] = static_cast<std::int16_t>(s.height);
    set_parent(child, node);
}

ProxyId DynamicTree::create_proxy(const Aabb& aabb, std::uint64_t user_data,
                                  std::uint64_t category_bits) {
    const ProxyId id = allocate_proxy(aabb, user_data, category_bits, true);
    insert_leaf(id);
    return id;
}

ProxyId DynamicTree::create_unplaced_proxy(const Aabb& aabb, std::uint64_t user_data,
                                           std::uint64_t category_bits) {
    ++unplaced_count_;
    const ProxyId id = allocate_proxy(aabb, user_data, category_bits, false);
    unplaced_.push_back(id);
    return id;
}

void DynamicTree::place_unplaced() {
    if (8 * unplaced_count_ >= proxy_count_ - unplaced_count_) {
        rebuild();
        return;
    }
    for (const ProxyId id : unplaced_) {
        Proxy& p = proxies_[index(id)];
        if (p.live && !p.placed) { // (else destroyed, or its id reused, since)
            p.placed = true;
            insert_leaf(id);
        }
    }
    unplaced_.clear();
    unplaced_count_ = 0;
}

ProxyId DynamicTree::allocate_proxy(const Aabb& aabb, std::uint64_t user_data,
                                    std::uint64_t category_bits, bool placed) {
    assert(is_valid(aabb));
    ProxyId id = free_proxies_;
    if (id == k_null_proxy) {
        id = static_cast<ProxyId>(proxies_.size());
        proxies_.emplace_back();
    } else {
        free_proxies_ = proxies_[index(id)].parent;
    }
    proxies_[index(id)] =
        Proxy{inflate(aabb, margin_), user_data, category_bits, k_null_proxy, true, placed};
    ++proxy_count_;
    return id;
}

void DynamicTree::destroy_proxy(ProxyId id) {
    assert(is_live_proxy(id));
    if (proxies_[index(id)].placed) {
        remove_leaf(id);
    } else {
        --unplaced_count_;
    }
    Proxy& p = proxies_[index(id)];
    p.live = false;
    p.parent = free_proxies_;
    free_proxies_ = id;
    --proxy_count_;
}

bool DynamicTree::move_proxy(ProxyId id, const Aabb& aabb, Vec2 displacement) {
    assert(is_live_proxy(id));
    assert(is_valid(aabb) && is_finite(displacement));
    const Aabb fat = predicted_fat_aabb(aabb, displacement, margin_);

    if (fat_aabb_still_fits(proxies_[index(id)].fat, aabb, fat, margin_)) {
        return false;
    }
    if (!proxies_[index(id)].placed) {
        proxies_[index(id)].fat = fat;
        return true;
    }
    remove_leaf(id);
    proxies_[index(id)].fat = fat;
    insert_leaf(id);
    return true;
}

void DynamicTree::set_fat_aabb(ProxyId id, const Aabb& fat) {
    assert(is_live_proxy(id) && is_valid(fat));
    Proxy& p = proxies_[index(id)];
    if (!p.placed) {
        p.fat = fat;
        return;
    }
    const std::int32_t parent = p.parent;
    const std::int32_t grandparent =
        parent == k_null_proxy ? k_null_proxy : nodes_[index(parent)].parent;
    if (grandparent != k_null_proxy && contains(summary(grandparent).box, fat)) {
        // Still among its neighbours in the tree (a character's box moves
        // a little at a time): only the boxes above it are refitted, with
        // their rotations. Letting it stay wherever its box still met the
        // old one let a wandering crowd's tree grow 1.45 times the
        // perimeter of a rebuild's; within the grandparent it stays at 1.07.
        p.fat = fat;
        nodes_[index(parent)].box[slot_of(parent, leaf_ref(id))] = fat;
        refit_and_balance_from(parent);
        return;
    }
    remove_leaf(id);
    p.fat = fat;
    insert_leaf(id);
}

std::uint64_t DynamicTree::category_bits(ProxyId id) const {
    assert(is_live_proxy(id));
    return proxies_[index(id)].category_bits;
}

int DynamicTree::height() const { return root_ == k_no_node ? 0 : summary(root_).height; }

real DynamicTree::area_ratio() const {
    if (root_ == k_no_node || is_leaf(root_)) {
        return 0;
    }
    const real root_perimeter = perimeter(summary(root_).box);
    if (!(root_perimeter > real(0))) {
        return 0;
    }
    real total = 0;
    for (const Node& node : nodes_) {
        if (node.height[0] >= 0) {
            total += perimeter(union_of(node.box[0], node.box[1]));
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
// children are costed (from the node's own line, which holds their boxes),
// the walk goes on into the child with the lower bound (on a tie, typically
// when both contain the leaf, the nearer centre) and stops when that bound
// cannot beat the best sibling found. A full branch and bound (best first
// over every subtree whose bound may win) builds a tree with a few percent
// less total perimeter but costs two to three times as much per insertion;
// the rotations in refit_and_balance_from win most of that quality back.
DynamicTree::NodeRef DynamicTree::find_best_sibling(const Aabb& leaf_aabb) const {
    if (is_leaf(root_)) {
        return root_;
    }
    const real leaf_perimeter = perimeter(leaf_aabb);
    const Vec2 leaf_centre = center(leaf_aabb);
    const Node* nodes = nodes_.data();
    const Aabb root_box = union_of(nodes[index(root_)].box[0], nodes[index(root_)].box[1]);
    NodeRef best = root_;
    real best_cost = perimeter(union_of(root_box, leaf_aabb));
    real inherited_cost = best_cost - perimeter(root_box);
    NodeRef current = root_;
    while (inherited_cost + leaf_perimeter < best_cost) {
        const Node& node = nodes[index(current)];
        // On large trees the descent waits on memory: ask for both children
        // while this level is costed.
        // (A leaf child prefetches node 0, harmlessly, instead of a branch.)
        detail::prefetch(&nodes[index(std::max(node.child[0], 0))]);
        detail::prefetch(&nodes[index(std::max(node.child[1], 0))]);
        const real cost_a = inherited_cost + perimeter(union_of(node.box[0], leaf_aabb));
        const real cost_b = inherited_cost + perimeter(union_of(node.box[1], leaf_aabb));
        // Selects rather than branches: which child wins is a coin toss to
        // the branch predictor.
        const bool a_better = cost_a < best_cost;
        best = a_better ? node.child[0] : best;
        best_cost = a_better ? cost_a : best_cost;
        const bool b_better = cost_b < best_cost;
        best = b_better ? node.child[1] : best;
        best_cost = b_better ? cost_b : best_cost;
        // A leaf has no descendants to search: its bound is "cannot win".
        const bool a_leaf = is_leaf(node.child[0]);
        const bool b_leaf = is_leaf(node.child[1]);
        const real bound_a = a_leaf ? best_cost : cost_a - perimeter(node.box[0]);
        const real bound_b = b_leaf ? best_cost : cost_b - perimeter(node.box[1]);
        int take = static_cast<int>(bound_b < bound_a);
        if (bound_b == bound_a && !b_leaf) {
            take = static_cast<int>(length_squared(center(node.box[1]) - leaf_centre) <
                                    length_squared(center(node.box[0]) - leaf_centre));
        }
        // A branch on the side taken, not an index by it: the side is a coin
        // toss, but a predicted branch lets the next node's load start before
        // the costs are known, where an index waits for them (measured: moves
        // of 10k proxies about 5 % faster, despite more mispredictions).
        const NodeRef next = take != 0 ? node.child[1] : node.child[0];
        if (is_leaf(next)) {
            break;
        }
        inherited_cost = take != 0 ? bound_b : bound_a;
        current = next;
    }
    return best;
}

void DynamicTree::insert_leaf(ProxyId id) {
    const NodeRef leaf = leaf_ref(id);
    if (root_ == k_no_node) {
        root_ = leaf;
        proxies_[index(id)].parent = k_null_proxy;
        return;
    }
    const NodeRef sibling = find_best_sibling(proxies_[index(id)].fat);
    const std::int32_t grandparent = parent_of(sibling);
    const Summary sibling_summary = summary(sibling);
    const std::int32_t parent = allocate_node();
    set_child(parent, 0, sibling, sibling_summary);
    set_child(parent, 1, leaf, summary(leaf));
    nodes_[index(parent)].parent = grandparent;
    if (grandparent == k_null_proxy) {
        root_ = parent;
    } else {
        // The grandparent's slot gets its new summary on the way up.
        nodes_[index(grandparent)].child[slot_of(grandparent, sibling)] = parent;
    }
    refit_and_balance_from(parent);
}

void DynamicTree::remove_leaf(ProxyId id) {
    const NodeRef leaf = leaf_ref(id);
    if (root_ == leaf) {
        root_ = k_no_node;
        proxies_[index(id)].parent = k_null_proxy;
        return;
    }
    const std::int32_t parent = proxies_[index(id)].parent;
    const int sibling_slot = nodes_[index(parent)].child[0] == leaf ? 1 : 0;
    const NodeRef sibling = nodes_[index(parent)].child[sibling_slot];
    const Summary sibling_summary = slot_summary(parent, sibling_slot);
    const std::int32_t grandparent = nodes_[index(parent)].parent;

    // The sibling takes the parent's place; the parent node is freed.
    if (grandparent == k_null_proxy) {
        root_ = sibling;
        set_parent(sibling, k_null_proxy);
    } else {
        set_child(grandparent, slot_of(grandparent, parent), sibling, sibling_summary);
    }
    free_node(parent);
    proxies_[index(id)].parent = k_null_proxy;
    if (grandparent != k_null_proxy) {
        refit_and_balance_from(grandparent);
    }
}

// Walks towards the root. At each node, whose own slots are up to date, it
// rotates where one side has grown two levels taller (AVL) or where a
// rotation shrinks the total perimeter, then writes the node's box, mask and
// height into its parent's slot. Above the first node whose summary comes
// out as its parent already has it, nothing can change, so the walk stops
// there (Box2D 2.4 always walks to the root).
void DynamicTree::refit_and_balance_from(std::int32_t start) {
    std::int32_t id = start;
    for (;;) {
        const std::int32_t balanced = balance(id);
        const std::int32_t parent = nodes_[index(balanced)].parent;
        if (balanced == id) {
            if (parent != k_null_proxy && id != start) {
                const int slot = slot_of(parent, id);
                const Summary s = summary(id);
                const Node& p = nodes_[index(parent)];
                // Bitwise: all six compared, no chain of branches.
                const Aabb& box = p.box[slot];
                const bool same = (box.lower.x == s.box.lower.x) & (box.lower.y == s.box.lower.y) &
                                  (box.upper.x == s.box.upper.x) & (box.upper.y == s.box.upper.y) &
                                  (p.bits[slot] == s.bits) & (p.height[slot] == s.height);
                if (same) {
                    break;
                }
            }
            rotate_for_area(id);
        }
        if (parent == k_null_proxy) {
            break;
        }
        const int slot = slot_of(parent, balanced);
        set_child(parent, slot, balanced, summary(balanced));
        id = parent;
    }
}

// A tree rotation for quality, after Catto, GDC 2019 (Box2D v3's
// b2RotateNodes): node A keeps its box, but swapping one child with a
// grandchild on the other side can shrink the box of the other child. Of the
// (up to) four swaps, the one that lowers the total perimeter most is done,
// provided both changed nodes stay AVL-balanced, so the height bound holds.
void DynamicTree::rotate_for_area(std::int32_t a) {
    const Node& node = nodes_[index(a)];
    if (std::max(node.height[0], node.height[1]) < 1) {
        return; // both children are leaves
    }
    real best_gain = 0;
    int best_side = -1; // the slot of A whose child goes down
    int best_lift = -1; // the slot, in the other child, of the grandchild that comes up
    for (int side = 0; side < 2; ++side) {
        const int other_slot = 1 - side;
        const NodeRef other = node.child[other_slot];
        if (is_leaf(other)) {
            continue;
        }
        const Node& o = nodes_[index(other)];
        const real old_area = perimeter(node.box[other_slot]);
        const int moved_height = node.height[side];
        for (int lift = 0; lift < 2; ++lift) {
            const int stays = 1 - lift;
            const real gain = old_area - perimeter(union_of(node.box[side], o.box[stays]));
            if (gain <= best_gain) {
                continue;
            }
            const int new_height = 1 + std::max<int>(moved_height, o.height[stays]);
            if (std::abs(moved_height - o.height[stays]) > 1 ||
                std::abs(o.height[lift] - new_height) > 1) {
                continue;
            }
            best_gain = gain;
            best_side = side;
            best_lift = lift;
        }
    }
    if (best_side < 0) {
        return;
    }
    // A: (moved, other(lifted, stays)) becomes A: (lifted, other(moved, stays)).
    const int other_slot = 1 - best_side;
    const std::int32_t other = node.child[other_slot];
    const NodeRef moved = node.child[best_side];
    const Summary moved_summary = slot_summary(a, best_side);
    const NodeRef lifted = nodes_[index(other)].child[best_lift];
    const Summary lifted_summary = slot_summary(other, best_lift);
    set_child(a, best_side, lifted, lifted_summary);
    set_child(other, best_lift, moved, moved_summary);
    set_child(a, other_slot, other, summary(other));
}

std::int32_t DynamicTree::balance(std::int32_t id) {
    const Node& node = nodes_[index(id)];
    const int skew = node.height[1] - node.height[0];
    if (skew > 1) {
        return rotate_up(id, 1);
    }
    if (skew < -1) {
        return rotate_up(id, 0);
    }
    return id;
}

// An AVL rotation (as in b2DynamicTree::Balance): the taller child C, in
// `slot` of `id`, takes the place of `id`, which becomes C's child. Of C's
// two children the taller stays with C and the shorter moves down under
// `id`, in the slot C left, which evens the heights out.
std::int32_t DynamicTree::rotate_up(std::int32_t id, int slot) {
    const std::int32_t child = nodes_[index(id)].child[slot];
    assert(!is_leaf(child));
    const int other_slot = 1 - slot;
    const NodeRef other = nodes_[index(id)].child[other_slot];
    const Summary other_summary = slot_summary(id, other_slot);
    const Node& lifted = nodes_[index(child)];
    const int keep_slot = lifted.height[0] > lifted.height[1] ? 0 : 1;
    const NodeRef keep = lifted.child[keep_slot];
    const Summary keep_summary = slot_summary(child, keep_slot);
    const NodeRef give = lifted.child[1 - keep_slot];
    const Summary give_summary = slot_summary(child, 1 - keep_slot);

    const std::int32_t parent = nodes_[index(id)].parent;
    nodes_[index(child)].parent = parent;
    if (parent == k_null_proxy) {
        root_ = child;
    } else {
        // The parent's slot gets C's summary from the caller's walk.
        nodes_[index(parent)].child[slot_of(parent, id)] = child;
    }
    set_child(id, 0, other, other_summary);
    set_child(id, 1, give, give_summary);
    set_child(child, 0, id, summary(id));
    set_child(child, 1, keep, keep_summary);
    return child;
}

void DynamicTree::validate() const {
    int leaf_count = 0;
    if (root_ != k_no_node) {
        require(is_leaf(root_) || index(root_) < nodes_.size(), "root out of range", root_);
        validate_subtree(root_, k_null_proxy, leaf_count);
    }
    require(leaf_count == proxy_count_ - unplaced_count_,
            "leaf count differs from the placed proxies", root_);

    std::size_t free_count = 0;
    for (std::int32_t id = free_list_; id != k_null_proxy; id = nodes_[index(id)].parent) {
        require(id >= 0 && index(id) < nodes_.size(), "free list index out of range", id);
        require(nodes_[index(id)].height[0] == -1, "free node not marked free", id);
        ++free_count;
        require(free_count <= nodes_.size(), "free list has a cycle", id);
    }
    // A live tree of n leaves has n - 1 internal nodes; the rest are free.
    const std::size_t internal = leaf_count == 0 ? 0 : static_cast<std::size_t>(leaf_count) - 1;
    require(internal + free_count == nodes_.size(), "nodes lost (neither in the tree nor free)",
            free_list_);

    std::size_t live = 0;
    int unplaced = 0;
    for (const Proxy& p : proxies_) {
        live += p.live ? 1 : 0;
        unplaced += p.live && !p.placed ? 1 : 0;
    }
    require(unplaced == unplaced_count_, "unplaced proxies differ from unplaced_count()",
            k_null_proxy);
    require(live == static_cast<std::size_t>(proxy_count_),
            "live proxies differ from proxy_count()", k_null_proxy);
    std::size_t dead = 0;
    for (ProxyId id = free_proxies_; id != k_null_proxy; id = proxies_[index(id)].parent) {
        require(id >= 0 && index(id) < proxies_.size(), "free proxy index out of range", id);
        require(!proxies_[index(id)].live, "live proxy on the free list", id);
        ++dead;
        require(dead <= proxies_.size(), "free proxy list has a cycle", id);
    }
    require(live + dead == proxies_.size(), "proxies lost (neither live nor free)", k_null_proxy);
}

// Returns the subtree's summary, recomputed from its leaves; aborts on the
// first broken invariant. Recursive: validate is a test aid and trees are
// shallow.
DynamicTree::Summary DynamicTree::validate_subtree(NodeRef ref, std::int32_t expected_parent,
                                                   int& leaf_count) const {
    if (is_leaf(ref)) {
        const ProxyId id = proxy_of(ref);
        require(index(id) < proxies_.size(), "leaf index out of range", id);
        const Proxy& p = proxies_[index(id)];
        require(p.live, "dead proxy linked into the tree", id);
        require(p.placed, "unplaced proxy linked into the tree", id);
        require(p.parent == expected_parent, "leaf's parent link does not match", id);
        require(p.fat.lower.x <= p.fat.upper.x && p.fat.lower.y <= p.fat.upper.y,
                "leaf box inverted", id);
        ++leaf_count;
        return {p.fat, p.category_bits, 0};
    }
    require(index(ref) < nodes_.size(), "child index out of range", ref);
    const Node& node = nodes_[index(ref)];
    require(node.height[0] >= 0, "free node linked into the tree", ref);
    require(node.parent == expected_parent, "parent link does not match", ref);
    Summary children[2];
    for (int slot = 0; slot < 2; ++slot) {
        require(node.child[slot] != k_no_node, "internal node with a missing child", ref);
        children[slot] = validate_subtree(node.child[slot], ref, leaf_count);
        require(node.box[slot] == children[slot].box, "a child's box is not its union", ref);
        require(contains(node.box[slot], children[slot].box), "a child is outside its parent", ref);
        require(node.bits[slot] == children[slot].bits,
                "a child's category bits are not the OR of its leaves'", ref);
        require(node.height[slot] == children[slot].height,
                "a child's height is not 1 + its children's", ref);
    }
    return summary(ref);
}

// Orders leaves[begin, end) so that [begin, split) and [split, end) are the
// two sides of the cheapest of 15 planes between 16 equal bins of the leaf
// centres along their longer extent (binned SAH, Wald 2007). Cost of a side:
// leaf count times perimeter of its box, the expected number of leaves a
// random query visits there.
void DynamicTree::partition_leaves(std::vector<BuildLeaf>& leaves, std::size_t begin,
                                   std::size_t end, std::size_t& split) {
    constexpr int k_bins = 16;
    Aabb centres{leaves[begin].centre, leaves[begin].centre};
    for (std::size_t i = begin + 1; i < end; ++i) {
        const Vec2 c = leaves[i].centre;
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
    if (end - begin == 2) {
        // The binned answer for two leaves, without the bins: the lower
        // centre falls in the first bin and the higher in the last, every
        // plane between costs the same, and the first is kept, so the lower
        // leaf goes first (as the partition below would swap them).
        const auto along = [&](std::size_t i) {
            return along_x ? leaves[i].centre.x : leaves[i].centre.y;
        };
        if (along(begin) > along(begin + 1)) {
            std::swap(leaves[begin], leaves[begin + 1]);
        }
        split = begin + 1;
        return;
    }
    const real scale = real(k_bins) / width;
    const auto bin_of = [&](const BuildLeaf& leaf) {
        const Vec2 c = leaf.centre;
        const real at = ((along_x ? c.x : c.y) - low) * scale;
        // Clamped before the conversion to int: centres a subnormal width
        // apart make the scale infinite, and the lowest centre's 0 × inf
        // NaN (which goes to bin 0).
        return at >= real(k_bins - 1) ? k_bins - 1 : at > 0 ? static_cast<int>(at) : 0;
    };

    std::array<int, k_bins> counts{};
    std::array<Aabb, k_bins> boxes{};
    for (std::size_t i = begin; i < end; ++i) {
        const int bin = bin_of(leaves[i]);
        leaves[i].bin = bin;
        const Aabb& box = leaves[i].box;
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
    const auto middle =
        std::partition(leaves.begin() + static_cast<std::ptrdiff_t>(begin),
                       leaves.begin() + static_cast<std::ptrdiff_t>(end),
                       [&](const BuildLeaf& leaf) { return leaf.bin < best_plane; });
    split = static_cast<std::size_t>(middle - leaves.begin());
}

void DynamicTree::rebuild() {
    std::vector<BuildLeaf> leaves;
    leaves.reserve(static_cast<std::size_t>(proxy_count_));
    unplaced_count_ = 0;
    unplaced_.clear();
    for (std::size_t i = 0; i < proxies_.size(); ++i) {
        if (proxies_[i].live) {
            proxies_[i].placed = true;
            const Aabb& fat = proxies_[i].fat;
            leaves.push_back({fat, center(fat), static_cast<ProxyId>(i), 0});
        }
    }
    // Internal nodes are made anew, in depth-first order: a subtree's nodes
    // end up near each other in memory, which queries feel on large trees.
    nodes_.clear();
    free_list_ = k_null_proxy;
    root_ = k_no_node;
    if (leaves.empty()) {
        return;
    }
    nodes_.reserve(leaves.size() - 1);

    // Top-down with an explicit work list: SAH splits can be lopsided, so
    // recursion depth would not be bounded by log n.
    struct Range {
        std::size_t begin;
        std::size_t end;
        std::int32_t parent;
        int slot;
    };
    std::vector<Range> work{{0, leaves.size(), k_null_proxy, 0}};
    std::vector<std::int32_t> internal; // in creation order: parents before children
    internal.reserve(leaves.size());
    while (!work.empty()) {
        const Range range = work.back();
        work.pop_back();
        NodeRef ref = k_no_node;
        if (range.end - range.begin == 1) {
            ref = leaf_ref(leaves[range.begin].id);
        } else {
            ref = allocate_node();
            internal.push_back(ref);
            std::size_t split = 0;
            partition_leaves(leaves, range.begin, range.end, split);
            // The upper side becomes the first child (as before this layout,
            // so traversal orders, and the world's results, are unchanged).
            work.push_back({range.begin, split, ref, 1});
            work.push_back({split, range.end, ref, 0});
        }
        set_parent(ref, range.parent);
        if (range.parent == k_null_proxy) {
            root_ = ref;
        } else {
            nodes_[index(range.parent)].child[range.slot] = ref;
        }
    }
    // Children were created after their parents, so the reverse order fills
    // every node's slots after both children's.
    for (auto it = internal.rbegin(); it != internal.rend(); ++it) {
        for (int slot = 0; slot < 2; ++slot) {
            const NodeRef child = nodes_[index(*it)].child[slot];
            set_child(*it, slot, child, summary(child));
        }
    }
}

} // namespace sweep
