// The structure tree's own operations (cfg/tree.h): compaction.
#include <doctest/doctest.h>

#include "cfg/tree.h"

using namespace dxspv::cfg;

namespace {

/// A list's children as node indices.
std::vector<uint32_t> children(const Tree& t, uint32_t list)
{
    std::vector<uint32_t> out;
    for (uint32_t n = t.nodes[list].first; n != none; n = t.nodes[n].next)
        out.push_back(n);
    return out;
}

} // namespace

TEST_CASE("tree: compact renumbers the attached nodes in preorder")
{
    // Built out of order: the loop's code is added after a later sibling,
    // a selection moves into the loop, and a detached node stays behind.
    Tree t;
    const uint32_t ret = t.add(NodeKind::jump);          // 1
    const uint32_t loop = t.add(NodeKind::loop);         // 2
    const uint32_t gone = t.add(NodeKind::block);        // 3
    const uint32_t code = t.add(NodeKind::block);        // 4
    const uint32_t brk = t.add(NodeKind::jump);          // 5
    const uint32_t scope = t.add(NodeKind::scope);       // 6
    t.nodes[ret].jump = JumpKind::ret;
    t.append(0, scope);
    t.append(scope, loop);
    t.append(0, ret);
    t.append(loop, gone);
    t.append(loop, code);
    t.append(loop, brk);
    t.nodes[brk].target = scope;
    t.nodes[code].block = 7;
    t.unlink(gone);

    t.compact();

    // Preorder: root, scope, loop, code, break, ret; the detached block is gone.
    REQUIRE(t.nodes.size() == 6);
    const NodeKind kinds[] = {NodeKind::root, NodeKind::scope, NodeKind::loop, NodeKind::block, NodeKind::jump,
        NodeKind::jump};
    for (uint32_t n = 0; n < 6; ++n)
        CHECK(t.nodes[n].kind == kinds[n]);
    CHECK(children(t, 0) == std::vector<uint32_t>{1, 5});
    CHECK(children(t, 1) == std::vector<uint32_t>{2});
    CHECK(children(t, 2) == std::vector<uint32_t>{3, 4});
    CHECK(t.nodes[0].last == 5);
    CHECK(t.nodes[2].last == 4);
    CHECK(t.nodes[4].prev == 3);
    CHECK(t.nodes[3].block == 7);
    CHECK(t.nodes[4].target == 1); // the break still leaves the scope
    CHECK(t.nodes[5].jump == JumpKind::ret);
    CHECK(t.nodes[5].target == none);
    for (uint32_t n = 1; n < 6; ++n)
        CHECK(t.nodes[n].parent < n); // every container before its children
}

TEST_CASE("tree: compact keeps a tree of only the root")
{
    Tree t;
    t.add(NodeKind::block); // never attached
    t.compact();
    REQUIRE(t.nodes.size() == 1);
    CHECK(t.nodes[0].first == none);
    CHECK(t.nodes[0].last == none);
}
