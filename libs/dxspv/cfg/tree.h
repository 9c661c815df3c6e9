// The structure tree the structurizer builds between the CFG and the
// structured VSIR it emits (structurize.cpp describes the algorithm).
//
// Nodes live in one array and are linked into lists (parent, prev, next;
// a container's first and last child). Containers: the root, `arm` (a list
// of an `if_` or `switch_`), `loop` (a real CFG loop: falling off the end of
// its body continues it) and `scope` (a breakable region that runs once:
// falling off its end or breaking it continues after it). Leaves: `block`
// (the instructions of one CFG block without label and terminator) and
// `jump` (break / continue / ret, conditional when `cond` is set). Every
// list of the tree walk is iterative; no function here recurses.
#pragma once

#include <cstdint>
#include <vector>

#include "cfg/graph.h"

namespace dxspv::cfg {

enum class NodeKind : uint8_t { root, block, if_, switch_, arm, loop, scope, jump };
enum class JumpKind : uint8_t { break_, continue_, ret };

/// 32 bytes: fields no kind uses together share storage.
struct Node {
    NodeKind kind = NodeKind::root;
    JumpKind jump = JumpKind::break_;
    bool test_nonzero : 1 = false; ///< if_ / conditional jump: taken when the condition is non-zero
    bool is_default : 1 = false;   ///< arm of a switch_: also the default
    bool is_copy : 1 = false;      ///< block: a duplicate of a block emitted elsewhere too
    uint32_t parent = none, prev = none, next = none, first = none, last = none;
    union {
        uint32_t block = none; ///< block: Graph block; loop: its header; scope: the block after it; arm of a switch_: its target
        uint32_t target;       ///< jump: the loop, scope or switch_ it leaves (break) or repeats (continue)
    };
    union {
        uint32_t cond = none;  ///< if_ / conditional jump: condition; switch_: selector (index into Program::srcs)
        uint32_t cases;        ///< arm of a switch_: in Tree::cases, how many case values select it, then those
    };

    bool is_breakable() const { return kind == NodeKind::loop || kind == NodeKind::scope || kind == NodeKind::switch_; }
    bool is_unconditional_jump() const { return kind == NodeKind::jump && cond == none; }
};
static_assert(sizeof(Node) == 32);

struct Tree {
    ScratchVector<Node> nodes{Node{}}; ///< nodes[0] is the root
    ScratchVector<uint32_t> cases;     ///< per switch arm: a count, then case values (indices into Program::srcs)

    uint32_t add(NodeKind kind)
    {
        nodes.emplace_back().kind = kind;
        return uint32_t(nodes.size() - 1);
    }
    /// Appends new node `n` to the list of container `list`.
    void append(uint32_t list, uint32_t n)
    {
        Node& c = nodes[list];
        nodes[n].parent = list;
        nodes[n].prev = c.last;
        nodes[n].next = none;
        if (c.last == none)
            c.first = n;
        else
            nodes[c.last].next = n;
        c.last = n;
    }
    /// Removes `n` from its list (its own children stay attached to it).
    void unlink(uint32_t n)
    {
        Node& x = nodes[n];
        Node& c = nodes[x.parent];
        (x.prev == none ? c.first : nodes[x.prev].next) = x.next;
        (x.next == none ? c.last : nodes[x.next].prev) = x.prev;
        x.parent = x.prev = x.next = none;
    }
    /// Inserts unattached node `n` into `at`'s list right after `at`.
    void insert_after(uint32_t at, uint32_t n)
    {
        Node& x = nodes[n];
        Node& list = nodes[nodes[at].parent];
        x.parent = nodes[at].parent;
        x.prev = at;
        x.next = nodes[at].next;
        (x.next == none ? list.last : nodes[x.next].prev) = n;
        nodes[at].next = n;
    }
    /// Moves every child of container `from` into `n`'s list right after `n`.
    void splice_after(uint32_t n, uint32_t from)
    {
        uint32_t at = n;
        while (nodes[from].first != none) {
            uint32_t c = nodes[from].first;
            unlink(c);
            insert_after(at, c);
            at = c;
        }
    }
    /// Renumbers the nodes attached to the root in preorder and drops the
    /// rest (tree.cpp): afterwards every container precedes its children.
    void compact();
    /// The two arms of an if_.
    uint32_t then_arm(uint32_t n) const { return nodes[n].first; }
    uint32_t else_arm(uint32_t n) const { return nodes[n].last; }
};

} // namespace dxspv::cfg
