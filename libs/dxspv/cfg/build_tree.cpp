// Builds the structure tree from the dominator tree and the loop forest.
//
// Each block y other than the entry is placed once:
// - inline, at its only incoming forward edge, when that edge comes from its
//   immediate dominator x and leaves no loop (or y is a dominator-tree leaf
//   whose own jumps leave the same loops, e.g. an early `ret`): the code of
//   y follows the jump's position directly;
// - as a loop exit, after the outermost loop h that contains x but not y,
//   when the edge x -> y leaves loops: `scope_y { ... loop_h { ... } ... } y`;
// - otherwise (several forward predecessors) as a merge of x:
//   `scope_y { x ... } y`; but a case target y of a switch x that
//   dominates no other block, whose other forward predecessor is one case
//   of that switch jumping to y, stays in its own arm, right after that
//   case's arm, which falls into it.
// Scopes of one anchor nest by block order (the latest outermost), so every
// jump to y comes from inside scope_y and is a `break scope_y`; an edge to a
// loop header from inside its loop is a `continue`. Every list ends with
// explicit jumps; simplify.cpp removes the ones that fall through anyway.
// A block without code besides its label and terminator gets no leaf.
// Built with an explicit work list (the dominator tree can be as deep as the
// program is long).
#include "cfg/stages.h"

namespace dxspv::cfg {

namespace {

enum class Placement : uint8_t { entry, inline_, exit, merge };

class TreeBuilder {
public:
    TreeBuilder(const Analysis& cfg, Tree& tree) : cfg_(cfg), g_(cfg.graph), t_(tree) {}

    void run()
    {
        place_blocks();
        const uint32_t n = g_.size();
        t_.nodes.reserve(5 * size_t(n) + 16); // about 3-4.5 per block (a block, its jumps or selection, scopes)
        scope_of_.assign(n, none);
        loop_of_.assign(n, none);
        work_.push_back({0, 0});
        while (!work_.empty()) {
            auto [block, list] = work_.back();
            work_.pop_back();
            emit_block(block, list);
        }
    }

private:
    /// Placement of every block and, per anchor, its exits and merges in
    /// block order (CSR lists).
    void place_blocks()
    {
        const uint32_t n = g_.size();
        const LoopForest& loops = cfg_.loops;
        placement_.assign(n, Placement::entry);
        anchor_.assign(n, none);
        ScratchVector<uint32_t> exit_count(n + 1, 0), merge_count(n + 1, 0), leaf_exits;
        for (uint32_t y = 1; y < n; ++y) {
            uint32_t forward_preds = 0;
            for (uint32_t u : g_.predecessors(y))
                forward_preds += u < y;
            const uint32_t x = cfg_.dom.idom[y];
            // Outermost loop containing x but not y (loops containing y,
            // except one y heads, all contain x: the graph is reducible).
            const uint32_t stop = loops.enclosing(y);
            uint32_t exited = none;
            for (uint32_t h = loops.innermost[x]; h != none && h != stop; h = loops.parent[h])
                exited = h;
            if (forward_preds == 1 && exited == none) {
                placement_[y] = Placement::inline_;
            } else if (exited != none) {
                placement_[y] = Placement::exit;
                anchor_[y] = exited;
                if (forward_preds == 1 && cfg_.dom.child_count[y] == 0)
                    leaf_exits.push_back(y);
            } else {
                placement_[y] = Placement::merge;
                anchor_[y] = x;
            }
        }
        // A leaf exit (say `if (c) { ...; break; }` or an early `ret`) stays
        // inside the loop when its own jumps leave the same loop as its
        // entry: it returns, or goes to exits placed after that loop.
        for (uint32_t y : leaf_exits) {
            bool stays = true;
            for (uint32_t z : g_.successors(y))
                stays = stays && z > y && placement_[z] == Placement::exit && anchor_[z] == anchor_[y];
            if (stays)
                placement_[y] = Placement::inline_;
        }
        place_fallthroughs();
        for (uint32_t y = 1; y < n; ++y) {
            if (placement_[y] == Placement::exit)
                ++exit_count[anchor_[y] + 1];
            else if (placement_[y] == Placement::merge)
                ++merge_count[anchor_[y] + 1];
        }
        for (uint32_t b = 0; b < n; ++b) {
            exit_count[b + 1] += exit_count[b];
            merge_count[b + 1] += merge_count[b];
        }
        exit_first_ = exit_count;
        merge_first_ = merge_count;
        exits_.resize(exit_count[n]);
        merges_.resize(merge_count[n]);
        for (uint32_t y = 1; y < n; ++y) {
            if (placement_[y] == Placement::exit)
                exits_[exit_count[anchor_[y]]++] = y;
            else if (placement_[y] == Placement::merge)
                merges_[merge_count[anchor_[y]]++] = y;
        }
    }

    /// A case target y of a switch whose only other forward predecessor is
    /// another case target p of the same switch (placed in its own arm, or
    /// itself fallen into) that jumps straight to y: p's arm falls through
    /// into y's, which follows it, instead of a scope around the switch per
    /// such y (a chain of them would nest as deep as it is long, with a
    /// multilevel break out of every arm). Only a y that dominates no other
    /// block: the code after the switch (say every arm ends at y) keeps its
    /// level instead of nesting in the last arm. Loop headers keep their
    /// place.
    void place_fallthroughs()
    {
        const uint32_t n = g_.size();
        const vsir::Program& p = cfg_.program;
        falls_into_.assign(n, none);
        fallen_from_.assign(n, none);
        for (uint32_t y = 1; y < n; ++y) {
            const uint32_t x = cfg_.dom.idom[y];
            if (placement_[y] != Placement::merge || cfg_.loops.is_header[y] || cfg_.dom.child_count[y] != 0
                || p.instructions[g_.blocks[x].terminator].opcode != vsir::Opcode::switch_monolithic)
                continue;
            uint32_t from = none, others = 0;
            bool from_switch = false;
            for (uint32_t u : g_.predecessors(y)) {
                if (u == x)
                    from_switch = true;
                else if (u < y)
                    from = u, ++others;
            }
            // `from` ends in a branch to y alone (not in a switch of its
            // own whose targets are all y).
            if (!from_switch || others != 1 || cfg_.dom.idom[from] != x || cfg_.loops.is_header[from]
                || g_.successors(from).size() != 1
                || p.instructions[g_.blocks[from].terminator].opcode != vsir::Opcode::branch
                || !(placement_[from] == Placement::inline_ || fallen_from_[from] != none))
                continue;
            placement_[y] = Placement::inline_;
            falls_into_[from] = y;
            fallen_from_[y] = from;
        }
    }

    /// Opens one scope per block of `ys` (the last outermost) in `list`;
    /// queues each block's code after its scope. Returns the innermost list.
    uint32_t open_scopes(const ScratchVector<uint32_t>& ys, uint32_t first, uint32_t end, uint32_t list)
    {
        for (uint32_t k = end; k-- > first;) {
            uint32_t y = ys[k];
            uint32_t scope = t_.add(NodeKind::scope);
            t_.nodes[scope].block = y;
            t_.append(list, scope);
            scope_of_[y] = scope;
            work_.push_back({y, list});
            list = scope;
        }
        return list;
    }

    void emit_block(uint32_t y, uint32_t list)
    {
        if (cfg_.loops.is_header[y]) {
            list = open_scopes(exits_, exit_first_[y], exit_first_[y + 1], list);
            uint32_t loop = t_.add(NodeKind::loop);
            t_.nodes[loop].block = y;
            t_.append(list, loop);
            loop_of_[y] = loop;
            list = loop;
        }
        list = open_scopes(merges_, merge_first_[y], merge_first_[y + 1], list);
        if (g_.blocks[y].terminator != g_.blocks[y].first + 1) { // code besides the label and the jump
            uint32_t code = t_.add(NodeKind::block);
            t_.nodes[code].block = y;
            t_.append(list, code);
        }
        terminate(y, list);
    }

    uint32_t block_of(uint32_t label) const { return cfg_.block_of_label[label]; }

    void terminate(uint32_t y, uint32_t list)
    {
        const vsir::Program& p = cfg_.program;
        const vsir::Instruction& term = p.instructions[g_.blocks[y].terminator];
        // A branch's distinct targets are the block's successors, in operand
        // order (graph.cpp): its operands need not be read again.
        const std::span<const uint32_t> succ = g_.successors(y);
        if (term.opcode == vsir::Opcode::ret) {
            uint32_t j = t_.add(NodeKind::jump);
            t_.nodes[j].jump = JumpKind::ret;
            t_.append(list, j);
        } else if (term.opcode == vsir::Opcode::branch && succ.size() == 1) {
            branch(y, succ[0], list);
        } else if (term.opcode == vsir::Opcode::branch) {
            uint32_t sel = t_.add(NodeKind::if_);
            t_.nodes[sel].cond = term.src_first;
            t_.nodes[sel].test_nonzero = (term.flags & vsir::flag_test_nonzero) != 0;
            uint32_t then_arm = t_.add(NodeKind::arm), else_arm = t_.add(NodeKind::arm);
            t_.append(list, sel);
            t_.append(sel, then_arm);
            t_.append(sel, else_arm);
            branch(y, succ[0], then_arm);
            branch(y, succ[1], else_arm);
        } else {
            terminator_targets(p, term, labels_);
            switch_arms(y, term, list);
        }
    }

    /// switch_monolithic: one arm per distinct target (the default's first),
    /// carrying every case value that selects it.
    void switch_arms(uint32_t y, const vsir::Instruction& term, uint32_t list)
    {
        uint32_t sw = t_.add(NodeKind::switch_);
        t_.nodes[sw].cond = term.src_first;
        t_.append(list, sw);
        if (arm_of_.size() < g_.size())
            arm_of_.resize(g_.size(), none);
        ScratchVector<uint32_t> arms;
        for (uint32_t k = 0; k < labels_.size(); ++k) {
            uint32_t s = block_of(labels_[k]);
            if (arm_of_[s] == none) {
                arm_of_[s] = uint32_t(arms.size());
                uint32_t arm = t_.add(NodeKind::arm);
                t_.nodes[arm].block = s;
                arms.push_back(arm);
            }
            if (k == 0)
                t_.nodes[arms[arm_of_[s]]].is_default = true;
        }
        // In label order, but an arm that is fallen into right after the
        // one falling into it (place_fallthroughs).
        for (uint32_t arm : arms) {
            uint32_t s = t_.nodes[arm].block;
            if (fallen_from_[s] != none)
                continue;
            t_.append(sw, arm);
            for (s = falls_into_[s]; s != none; s = falls_into_[s])
                t_.append(sw, arms[arm_of_[s]]);
        }
        // Case values grouped by arm (labels_[k] for k >= 1 is case k-1),
        // by counting sort.
        ScratchVector<uint32_t> fill(arms.size() + 1, 0);
        for (uint32_t k = 1; k < labels_.size(); ++k)
            ++fill[arm_of_[block_of(labels_[k])] + 1];
        for (size_t a = 0; a < arms.size(); ++a)
            fill[a + 1] += fill[a];
        // Per arm: its count, then its values.
        const uint32_t base = uint32_t(t_.cases.size());
        t_.cases.resize(base + arms.size() + labels_.size() - 1);
        for (size_t a = 0; a < arms.size(); ++a) {
            t_.nodes[arms[a]].cases = base + uint32_t(a) + fill[a];
            t_.cases[base + a + fill[a]] = fill[a + 1] - fill[a];
        }
        for (uint32_t k = 1; k < labels_.size(); ++k) {
            const uint32_t a = arm_of_[block_of(labels_[k])];
            t_.cases[base + a + 1 + fill[a]++] = term.src_first + 2 * k;
        }
        for (uint32_t arm : arms) {
            arm_of_[t_.nodes[arm].block] = none;
            branch(y, t_.nodes[arm].block, arm);
        }
    }

    void branch(uint32_t from, uint32_t to, uint32_t list)
    {
        if (falls_into_[from] == to)
            return; // the next arm's code (place_fallthroughs)
        if (to <= from) {
            add_jump(JumpKind::continue_, loop_of_[to], list);
        } else if (placement_[to] == Placement::exit || placement_[to] == Placement::merge) {
            add_jump(JumpKind::break_, scope_of_[to], list);
        } else {
            work_.push_back({to, list});
        }
    }

    void add_jump(JumpKind kind, uint32_t target, uint32_t list)
    {
        uint32_t j = t_.add(NodeKind::jump);
        t_.nodes[j].jump = kind;
        t_.nodes[j].target = target;
        t_.append(list, j);
    }

    const Analysis& cfg_;
    const Graph& g_;
    Tree& t_;
    ScratchVector<Placement> placement_;
    ScratchVector<uint32_t> anchor_, exit_first_, merge_first_, exits_, merges_;
    ScratchVector<uint32_t> scope_of_, loop_of_, arm_of_, labels_;
    /// Switch fallthrough: the case target a case's block falls into, and
    /// the block falling into a case target.
    ScratchVector<uint32_t> falls_into_, fallen_from_;
    ScratchVector<std::pair<uint32_t, uint32_t>> work_; ///< (block, list to append its code to)
};

} // namespace

void build_tree(const Analysis& cfg, Tree& tree)
{
    TreeBuilder(cfg, tree).run();
}

} // namespace dxspv::cfg
