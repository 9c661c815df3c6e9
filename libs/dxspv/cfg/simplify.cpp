// Simplifies the structure tree (build_tree.cpp) before emission:
// 1. flatten: `if c { deep } else { jump }` becomes `jump if !c; deep`
//    when `deep` nests deeply, so chains of early exits stay flat;
// 2. jumps: a jump to where control would fall anyway is removed; a break
//    or continue whose destination is where an inner breakable construct
//    ends breaks that construct instead (fewer levels to cross);
//    a break that would cross constructs to reach a small block that
//    returns becomes a copy of that block and `ret`;
// 3. scopes no break targets any more dissolve into their parent list, and
//    a scope with a single break skipping the rest of its code becomes a
//    selection around that code;
// 4. selections: empty arms and switches go, `if c { jump }` becomes a
//    conditional jump, code after an arm that always jumps leaves the
//    selection;
// 5. the nesting depth is checked against max_nesting_depth.
// Every walk is iterative.
#include "cfg/stages.h"

#include <algorithm>

namespace dxspv::cfg {

namespace {

/// Arms deeper than this are flattened when the other arm is a lone jump.
constexpr uint32_t flatten_height = 12;
/// Largest return block copied to avoid a multilevel jump.
constexpr uint32_t max_copied_instructions = 16;

bool adds_level(NodeKind kind)
{
    return kind == NodeKind::if_ || kind == NodeKind::switch_ || kind == NodeKind::loop || kind == NodeKind::scope;
}

bool lone_jump(const Tree& t, uint32_t arm)
{
    uint32_t f = t.nodes[arm].first;
    return f != none && f == t.nodes[arm].last && t.nodes[f].is_unconditional_jump();
}

bool ends_in_jump(const Tree& t, uint32_t arm)
{
    uint32_t l = t.nodes[arm].last;
    return l != none && t.nodes[l].is_unconditional_jump();
}

/// Turns if_ `sel` whose arm `jump_arm` holds only an unconditional jump
/// into that jump made conditional, followed by the other arm's code.
/// Returns the conditional jump.
uint32_t to_conditional_jump(Tree& t, uint32_t sel, bool jump_in_then)
{
    uint32_t jump_arm = jump_in_then ? t.then_arm(sel) : t.else_arm(sel);
    uint32_t other = jump_in_then ? t.else_arm(sel) : t.then_arm(sel);
    uint32_t j = t.nodes[jump_arm].first;
    t.unlink(j);
    t.nodes[j].cond = t.nodes[sel].cond;
    t.nodes[j].test_nonzero = t.nodes[sel].test_nonzero == jump_in_then;
    t.insert_after(sel, j);
    t.splice_after(j, other);
    t.unlink(sel);
    return j;
}

void flatten(Tree& t)
{
    // Children are created after their container, so one backward sweep
    // computes every height.
    ScratchVector<uint32_t> height(t.nodes.size(), 0);
    for (uint32_t n = uint32_t(t.nodes.size()); n-- > 1;) {
        uint32_t p = t.nodes[n].parent;
        if (p != none)
            height[p] = std::max(height[p], height[n] + (adds_level(t.nodes[p].kind) ? 1 : 0));
    }
    ScratchVector<uint32_t> lists{0};
    while (!lists.empty()) {
        uint32_t list = lists.back();
        lists.pop_back();
        for (uint32_t n = t.nodes[list].first; n != none; n = t.nodes[n].next) {
            const Node& node = t.nodes[n];
            if (node.kind == NodeKind::if_) {
                uint32_t a = t.then_arm(n), b = t.else_arm(n);
                if (lone_jump(t, a) && height[b] >= flatten_height) {
                    n = to_conditional_jump(t, n, true);
                    continue;
                }
                if (lone_jump(t, b) && height[a] >= flatten_height) {
                    n = to_conditional_jump(t, n, false);
                    continue;
                }
            }
            if (node.kind == NodeKind::if_ || node.kind == NodeKind::switch_) {
                for (uint32_t arm = node.first; arm != none; arm = t.nodes[arm].next)
                    lists.push_back(arm);
            } else if (node.kind == NodeKind::loop || node.kind == NodeKind::scope) {
                lists.push_back(n);
            }
        }
    }
}

/// Program points, compared to decide whether two jumps go to the same
/// place: before a node, the continue of a loop, a return, or a point only
/// equal to itself (the end of the region, falling into the next case).
enum PointKind : uint64_t { before = 0, repeat = 1, opaque = 2, returns = 3 };
constexpr uint64_t point(PointKind kind, uint32_t node) { return uint64_t(node) << 2 | kind; }

class JumpSimplifier {
public:
    explicit JumpSimplifier(Tree& t) : t_(t) {}

    /// Where control goes when node `n` completes without jumping.
    uint64_t after(uint32_t n) const
    {
        for (;;) {
            const Node& node = t_.nodes[n];
            if (node.next != none) {
                const Node& next = t_.nodes[node.next];
                if (!next.is_unconditional_jump())
                    return point(before, node.next);
                if (next.jump != JumpKind::break_)
                    return target_point(node.next);
                n = next.target;
                continue;
            }
            const uint32_t p = node.parent;
            const Node& list = t_.nodes[p];
            switch (list.kind) {
            case NodeKind::loop: return point(repeat, p);
            case NodeKind::scope: n = p; continue;
            case NodeKind::arm:
                if (t_.nodes[list.parent].kind == NodeKind::switch_ && list.next != none)
                    return point(opaque, p); // falls into the next case
                n = list.parent;
                continue;
            default: return point(opaque, p);
            }
        }
    }

    uint64_t target_point(uint32_t j) const
    {
        const Node& node = t_.nodes[j];
        switch (node.jump) {
        case JumpKind::ret: return point(returns, 0);
        case JumpKind::continue_: return point(repeat, node.target);
        case JumpKind::break_: break;
        }
        return after(node.target);
    }

    void run()
    {
        for (uint32_t j = 1; j < t_.nodes.size(); ++j) {
            Node& node = t_.nodes[j];
            if (node.kind != NodeKind::jump || node.parent == none || node.jump == JumpKind::ret)
                continue;
            const uint64_t target = target_point(j);
            if (after(j) == target) {
                t_.unlink(j);
                continue;
            }
            // A break, or a continue that would cross a loop, whose
            // destination is where an inner construct ends breaks that
            // construct instead.
            if (node.jump == JumpKind::continue_ && !crosses_loop(j))
                continue;
            for (uint32_t d = node.parent; d != node.target && d != none; d = t_.nodes[d].parent) {
                if (t_.nodes[d].is_breakable() && after(d) == target) {
                    node.jump = JumpKind::break_;
                    node.target = d;
                    break;
                }
            }
        }
    }

private:
    bool crosses_loop(uint32_t j) const
    {
        for (uint32_t d = t_.nodes[j].parent; d != t_.nodes[j].target && d != none; d = t_.nodes[d].parent)
            if (t_.nodes[d].kind == NodeKind::loop)
                return true;
        return false;
    }

    Tree& t_;
};

/// The block after construct `c` when it is small, defines no SSA value
/// and returns; none otherwise.
uint32_t return_block_after(const vsir::Program& program, const Graph& graph, const Tree& t, uint32_t c)
{
    const uint32_t code = t.nodes[c].next;
    if (code == none || t.nodes[code].kind != NodeKind::block)
        return none;
    const uint32_t after = t.nodes[code].next;
    if (after == none || !t.nodes[after].is_unconditional_jump() || t.nodes[after].jump != JumpKind::ret)
        return none;
    const Block& b = graph.blocks[t.nodes[code].block];
    if (b.terminator - b.first - 1 > max_copied_instructions)
        return none;
    for (uint32_t i = b.first + 1; i < b.terminator; ++i)
        for (const vsir::DstParam& d : program.dsts_of(program.instructions[i]))
            if (d.reg.file == vsir::RegisterFile::ssa)
                return none;
    return t.nodes[code].block;
}

/// A break that crosses another breakable construct to reach one followed
/// by a small return block becomes a copy of that block and `ret` (no
/// multilevel jump: early returns from loops need no trampoline).
uint32_t copy_return_blocks(const vsir::Program& program, const Graph& graph, Tree& t)
{
    uint32_t copies = 0;
    const uint32_t count = uint32_t(t.nodes.size());
    for (uint32_t j = 1; j < count; ++j) {
        const Node& jump = t.nodes[j];
        if (jump.kind != NodeKind::jump || jump.parent == none || jump.jump != JumpKind::break_)
            continue;
        bool crosses = false;
        for (uint32_t d = jump.parent; d != jump.target && !crosses; d = t.nodes[d].parent)
            crosses = t.nodes[d].is_breakable();
        const uint32_t block = crosses ? return_block_after(program, graph, t, jump.target) : none;
        if (block == none)
            continue;
        uint32_t list = t.nodes[j].parent, at = j;
        if (t.nodes[j].cond != none) { // `if c { copy; ret }` in place of the conditional jump
            uint32_t sel = t.add(NodeKind::if_), then_arm = t.add(NodeKind::arm), else_arm = t.add(NodeKind::arm);
            t.nodes[sel].cond = t.nodes[j].cond;
            t.nodes[sel].test_nonzero = t.nodes[j].test_nonzero;
            t.insert_after(j, sel);
            t.append(sel, then_arm);
            t.append(sel, else_arm);
            t.unlink(j);
            list = then_arm;
            at = none;
        }
        uint32_t code = t.add(NodeKind::block);
        t.nodes[code].block = block;
        t.nodes[code].is_copy = true;
        if (at == none) {
            t.append(list, code);
            t.append(list, j);
        } else {
            t.insert_after(at, code);
            t.unlink(j);
            t.insert_after(code, j);
        }
        t.nodes[j].jump = JumpKind::ret;
        t.nodes[j].cond = none;
        t.nodes[j].target = none;
        ++copies;
    }
    return copies;
}

/// A scope with one break, which jumps over the rest of the scope's code,
/// becomes a selection around that code: `scope { X; breakc c; Y }` ->
/// `X; if !c { Y }` and `scope { X; if c { A; break } else { B }; Y }` ->
/// `X; if c { A } else { B; Y }`. The scope then dissolves.
void scopes_to_selections(Tree& t)
{
    const uint32_t count = uint32_t(t.nodes.size());
    ScratchVector<uint32_t> breaks(count, 0), last_break(count, none);
    for (uint32_t j = 1; j < count; ++j) {
        const Node& node = t.nodes[j];
        if (node.kind == NodeKind::jump && node.parent != none && node.jump == JumpKind::break_) {
            ++breaks[node.target];
            last_break[node.target] = j;
        }
    }
    for (uint32_t s = 1; s < count; ++s) {
        if (t.nodes[s].kind != NodeKind::scope || t.nodes[s].parent == none || breaks[s] != 1)
            continue;
        const uint32_t j = last_break[s];
        uint32_t rest_from = none, into = none;
        if (t.nodes[j].parent == s && t.nodes[j].cond != none) {
            uint32_t sel = t.add(NodeKind::if_), then_arm = t.add(NodeKind::arm), else_arm = t.add(NodeKind::arm);
            t.nodes[sel].cond = t.nodes[j].cond;
            t.nodes[sel].test_nonzero = !t.nodes[j].test_nonzero;
            t.insert_after(j, sel);
            t.append(sel, then_arm);
            t.append(sel, else_arm);
            rest_from = sel;
            into = then_arm;
        } else if (t.nodes[j].cond == none && t.nodes[j].next == none && t.nodes[t.nodes[j].parent].kind == NodeKind::arm) {
            const uint32_t sel = t.nodes[t.nodes[j].parent].parent;
            if (t.nodes[sel].kind != NodeKind::if_ || t.nodes[sel].parent != s)
                continue;
            into = t.then_arm(sel) == t.nodes[j].parent ? t.else_arm(sel) : t.then_arm(sel);
            if (ends_in_jump(t, into))
                continue;
            rest_from = sel;
        } else {
            continue;
        }
        while (t.nodes[rest_from].next != none) {
            uint32_t c = t.nodes[rest_from].next;
            t.unlink(c);
            t.append(into, c);
        }
        t.unlink(j);
        t.splice_after(s, s);
        t.unlink(s);
    }
}

void dissolve_unused_scopes(Tree& t)
{
    ScratchVector<uint8_t> targeted(t.nodes.size(), 0);
    for (const Node& node : t.nodes)
        if (node.kind == NodeKind::jump && node.parent != none && node.jump == JumpKind::break_)
            targeted[node.target] = 1;
    for (uint32_t n = 1; n < t.nodes.size(); ++n) {
        if (t.nodes[n].kind == NodeKind::scope && t.nodes[n].parent != none && !targeted[n]) {
            t.splice_after(n, n);
            t.unlink(n);
        }
    }
}

/// Swaps the arms of if_ `n` and inverts its test.
void invert(Tree& t, uint32_t n)
{
    uint32_t a = t.then_arm(n);
    t.unlink(a);
    t.append(n, a);
    t.nodes[n].test_nonzero = !t.nodes[n].test_nonzero;
}

/// Empty selections and switches go; `if c {} else {X}` becomes `if !c {X}`; a lone jump
/// in an arm becomes a conditional jump followed by the other arm; the arm
/// after an arm that always jumps is hoisted out (`if c {X; ret} Y`).
/// Inner selections first (they were created after their containers).
void tidy_selections(Tree& t)
{
    for (uint32_t n = uint32_t(t.nodes.size()); n-- > 1;) {
        if (t.nodes[n].kind == NodeKind::switch_ && t.nodes[n].parent != none) {
            bool empty = true;
            for (uint32_t arm = t.nodes[n].first; arm != none && empty; arm = t.nodes[arm].next)
                empty = t.nodes[arm].first == none;
            if (empty)
                t.unlink(n);
            continue;
        }
        if (t.nodes[n].kind != NodeKind::if_ || t.nodes[n].parent == none)
            continue;
        if (t.nodes[t.then_arm(n)].first == none) {
            if (t.nodes[t.else_arm(n)].first == none) {
                t.unlink(n);
                continue;
            }
            invert(t, n);
        }
        uint32_t a = t.then_arm(n), b = t.else_arm(n);
        if (t.nodes[b].first != none) {
            if (lone_jump(t, b) || lone_jump(t, a)) {
                to_conditional_jump(t, n, lone_jump(t, a));
                continue;
            }
            if (!ends_in_jump(t, a) && ends_in_jump(t, b))
                invert(t, n);
            if (ends_in_jump(t, t.then_arm(n)))
                t.splice_after(n, t.else_arm(n));
        }
        if (t.nodes[t.else_arm(n)].first == none && lone_jump(t, t.then_arm(n)))
            to_conditional_jump(t, n, true);
    }
}

/// Deepest if / loop / switch nesting of a compacted tree (containers
/// precede their children): one sweep, the level of each list from its
/// container's.
uint32_t max_depth(const Tree& t)
{
    ScratchVector<uint32_t> level(t.nodes.size(), 0); // of the list a container holds
    uint32_t deepest = 0;
    for (uint32_t n = 1; n < t.nodes.size(); ++n) {
        const NodeKind kind = t.nodes[n].kind;
        const uint32_t up = level[t.nodes[n].parent];
        level[n] = kind == NodeKind::arm || kind == NodeKind::loop || kind == NodeKind::scope ? up + 1 : up;
        deepest = std::max(deepest, level[n]);
    }
    return deepest;
}

bool too_deep(uint32_t depth, uint32_t limit, Diagnostics& diags, uint32_t location)
{
    if (depth <= limit)
        return false;
    diags.error(Code::cfg_too_deep, Location::instruction(location),
        "structured control flow would nest %u levels deep; the limit is %u", depth, max_nesting_depth);
    return true;
}

} // namespace

bool simplify_tree(const vsir::Program& program, const Graph& graph, Tree& tree, StructurizeStats& stats,
    Diagnostics& diags, uint32_t location)
{
    flatten(tree);
    tree.compact();
    // Dissolving scopes at most about halves the depth; refusing hopeless
    // trees first bounds the jump simplifier's walks up the tree.
    if (too_deep(max_depth(tree), 4 * max_nesting_depth, diags, location))
        return false;
    JumpSimplifier(tree).run();
    stats.duplicated_returns += copy_return_blocks(program, graph, tree);
    dissolve_unused_scopes(tree);
    tidy_selections(tree);
    // Dissolved scopes and hoisted arms put more return blocks right after
    // the constructs jumps leave.
    stats.duplicated_returns += copy_return_blocks(program, graph, tree);
    dissolve_unused_scopes(tree);
    scopes_to_selections(tree);
    tidy_selections(tree);
    tree.compact();
    const uint32_t depth = max_depth(tree);
    stats.max_depth = std::max(stats.max_depth, depth);
    return !too_deep(depth, max_nesting_depth, diags, location);
}

} // namespace dxspv::cfg
