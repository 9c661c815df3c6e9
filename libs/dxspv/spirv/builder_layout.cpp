// The SPIR-V module builder's layout: the sections in the order SPIR-V 2.4
// requires, and the blocks of each function in a structured order.
//
// Block order: a depth-first walk from the entry block that visits a
// header's merge block (and a loop's continue target) only after the rest of
// the construct, so that every block comes after its dominators and a
// construct's blocks stay together. The walk keeps an explicit stack (no
// recursion per block). Blocks that no control flow reaches are left out,
// except the merge blocks and continue targets of reached headers, which
// SPIR-V needs: such a merge block becomes OpUnreachable and such a continue
// target a branch back to its header. Names and decorations of values
// defined in code that is left out are left out too.
#include "spirv/builder.h"

#include <algorithm>
#include <cassert>

namespace dxspv::spirv {

Block* Builder::block_of(spv::Id label) const
{
    if (label >= ids_.size() || ids_[label].op != spv::OpLabel)
        return nullptr;
    return blocks_[ids_[label].at];
}

/// The blocks `block`'s terminator branches to (at most 2 + 2 per case; the
/// caller's buffer holds the switch's count). Returns their number.
size_t Builder::successors(const Block& block, Block** out) const
{
    if (block.last_ == ~0u)
        return 0;
    const uint32_t* w = block.words_.data + block.last_;
    uint32_t count = w[0] >> 16, op = w[0] & 0xffffu;
    size_t n = 0;
    auto add = [&](spv::Id label) {
        if (Block* b = block_of(label))
            out[n++] = b;
    };
    switch (op) {
    case spv::OpBranch:
        add(w[1]);
        break;
    case spv::OpBranchConditional:
        add(w[2]);
        add(w[3]);
        break;
    case spv::OpSwitch:
        add(w[2]);
        for (uint32_t i = 4; i < count; i += 2)
            add(w[i]);
        break;
    default:
        break;
    }
    return n;
}

/// The blocks of a function of several blocks in structured order, unreached
/// blocks marked in `code.unreached`; `nodes` holds a node per block and one
/// more.
void Builder::order_blocks(const Function& function, std::span<LayoutNode> nodes, ScratchVector<uint32_t>& order,
    Code& code) const
{
    constexpr uint32_t none = Block::no_block;
    const size_t block_count = function.blocks_.size();
    ScratchVector<uint32_t> successor_list;
    successor_list.reserve(2 * block_count);
    ScratchVector<Block*> succ;
    for (size_t i = 0; i < block_count; ++i) {
        const Block& b = *function.blocks_[i];
        nodes[i].first = uint32_t(successor_list.size());
        nodes[i].merge = b.merge_;
        nodes[i].continue_target = b.continue_;
        if (b.successor_count_ != Block::switch_successors) {
            successor_list.insert(successor_list.end(), b.successors_, b.successors_ + b.successor_count_);
            continue;
        }
        succ.resize((b.words_[b.last_] >> 16) + 2);
        succ.resize(successors(b, succ.data()));
        for (Block* s : succ)
            if (s->function_ == &function)
                successor_list.push_back(s->local_);
    }
    nodes[block_count].first = uint32_t(successor_list.size());

    // Reachability through control flow.
    ScratchVector<uint32_t> stack;
    stack.push_back(0);
    nodes[0].reached = 1;
    size_t reached = 1;
    while (!stack.empty()) {
        uint32_t b = stack.back();
        stack.pop_back();
        for (uint32_t k = nodes[b].first; k < nodes[b + 1].first; ++k) {
            uint32_t s = successor_list[k];
            if (!nodes[s].reached) {
                nodes[s].reached = 1;
                ++reached;
                stack.push_back(s);
            }
        }
    }
    if (reached < block_count) {
        if (code.unreached.empty())
            code.unreached.resize(blocks_.size());
        for (size_t i = 0; i < block_count; ++i)
            code.unreached[function.blocks_[i]->index_] = !nodes[i].reached;
    }

    // Structured order.
    struct Frame {
        uint32_t block;
        uint32_t stage; ///< 0: successors, 1: continue target, 2: merge block, 3: done
        uint32_t next;
    };
    ScratchVector<Frame> frames;
    auto visit = [&](uint32_t b) {
        if (b == none || nodes[b].visited || nodes[b].delayed)
            return;
        nodes[b].visited = 1;
        order.push_back(b);
        frames.push_back({b, 0, 0});
        if (nodes[b].continue_target != none)
            nodes[nodes[b].continue_target].header = function.blocks_[b]->id_;
        if (nodes[b].reached) {
            if (nodes[b].merge != none)
                nodes[nodes[b].merge].delayed = 1;
            if (nodes[b].continue_target != none)
                nodes[nodes[b].continue_target].delayed = 1;
        }
    };
    visit(0);
    while (!frames.empty()) {
        Frame& f = frames.back();
        const uint32_t b = f.block;
        const LayoutNode& n = nodes[b];
        if (f.stage == 0) {
            if (n.reached && n.first + f.next < nodes[b + 1].first) {
                visit(successor_list[n.first + f.next++]);
                continue;
            }
            f.stage = 1;
            continue;
        }
        if (f.stage == 1 || f.stage == 2) {
            uint32_t target = !n.reached ? none : f.stage == 1 ? n.continue_target : n.merge;
            ++f.stage;
            if (target != none) {
                nodes[target].delayed = 0;
                visit(target);
            }
            continue;
        }
        frames.pop_back();
    }
}

void Builder::dump_function(const Function& function, Code& code) const
{
    // One block (a straight-line entry point): reached, and its own order,
    // without tables.
    LayoutNode one[2];
    one[0].reached = 1;
    static constexpr uint32_t first_block = 0;
    std::span<const LayoutNode> nodes = one;
    std::span<const uint32_t> order(&first_block, 1);
    ScratchVector<LayoutNode> all_nodes;
    ScratchVector<uint32_t> all_order;
    if (function.blocks_.size() != 1) {
        all_nodes.resize(function.blocks_.size() + 1);
        order_blocks(function, all_nodes, all_order, code);
        nodes = all_nodes;
        order = all_order;
    }

    // Instructions.
    auto make = [&](std::initializer_list<uint32_t> words) {
        assert(code.made.size() + words.size() <= code.made.capacity()); // dump() reserved it: no pointer moves
        uint32_t* w = code.made.append_uninitialized(words.size());
        std::copy(words.begin(), words.end(), w);
        code.add_made(w);
    };
    make({5u << 16 | spv::OpFunction, function.return_type_, function.id_, spv::FunctionControlMaskNone,
        function.type_});
    ScratchVector<uint32_t> dead_stores;
    for (uint32_t index : order) {
        const Block* b = function.blocks_[index];
        make({2u << 16 | spv::OpLabel, b->id_});
        if (index == 0 && !function.variables_.empty())
            code.add(function.variables_.data(), function.variables_.data() + function.variables_.size());
        if (nodes[index].reached) {
            uint32_t from = 0;
            dead_stores.clear();
            for (uint32_t d = b->dead_; d != ~0u; d = dead_stores_[d].second)
                dead_stores.push_back(dead_stores_[d].first);
            std::sort(dead_stores.begin(), dead_stores.end());
            for (uint32_t dead : dead_stores) { // dead stores left out
                code.add(b->words_.data + from, b->words_.data + dead);
                from = dead + (b->words_[dead] >> 16);
            }
            code.add(b->words_.data + from, b->words_.end());
        } else if (spv::Id header = nodes[index].header) {
            make({2u << 16 | spv::OpBranch, header});
        } else {
            make({1u << 16 | spv::OpUnreachable});
        }
    }
    make({1u << 16 | spv::OpFunctionEnd});
}

void Builder::dump(std::vector<uint32_t>& out) const
{
    // The functions first (as a list of their instructions), to know which
    // blocks are live and which variables and values are gone before the
    // interface, names, decorations and globals are written.
    Code code(bound_);
    // The instruction list's room: a guess (most instructions take 3 words
    // or more; the list may grow) from the words the blocks' arena holds,
    // which is at least the blocks' words, without reading every block.
    size_t variable_words = 0;
    for (const Function* f : functions_)
        variable_words += f->variables_.size();
    const size_t instructions = 2 * (functions_.size() + blocks_.size())
                                + (variable_words + block_words_.allocated()) / 4;
    code.instructions.reserve(instructions);
    code.pure.reserve(instructions); // at most one per instruction: no growth step by step
    code.variables.reserve(variable_words / 4); // an OpVariable has 4 words or more
    code.made.reserve(6 * functions_.size() + 4 * blocks_.size()); // at most: a label and a branch per block
    for (const Function* f : functions_)
        dump_function(*f, code);
    prune(code);
    size_t extension_words = 0;
    for (const char* e : extensions_)
        extension_words += 2 + strlen(e) / 4;
    out.clear();
    out.reserve(5 + 2 * capabilities_.size() + extension_words + imports_.size() + memory_model_.size()
                + entry_points_.size() + execution_modes_.size() + names_.size() + annotations_.size()
                + globals_.size() + code.words); // at most: the words of what stays
    out.insert(out.end(), {spv::MagicNumber, version_, 0u, bound_ + 1, 0u});
    for (uint32_t c : capabilities_) {
        out.push_back(2u << 16 | spv::OpCapability);
        out.push_back(c);
    }
    for (const char* e : extensions_) {
        size_t at = out.size();
        out.push_back(spv::OpExtension);
        add_string(out, e);
        out[at] |= uint32_t(out.size() - at) << 16;
    }
    out.insert(out.end(), imports_.begin(), imports_.end());
    out.insert(out.end(), memory_model_.begin(), memory_model_.end());
    for (size_t at = 0; at < entry_points_.size();) { // interfaces without removed variables
        const uint32_t* w = entry_points_.data() + at;
        uint32_t count = w[0] >> 16, first = 3;
        while (first < count && (w[first] >> 24) != 0) // the name's last word has a zero byte
            ++first;
        size_t start = out.size();
        out.insert(out.end(), w, w + first + 1);
        for (uint32_t i = first + 1; i < count; ++i)
            if (!code.removed(w[i]))
                out.push_back(w[i]);
        out[start] = uint32_t(out.size() - start) << 16 | (w[0] & 0xffffu);
        at += count;
    }
    out.insert(out.end(), execution_modes_.begin(), execution_modes_.end());
    // What stays, copied a run of adjacent instructions at a time.
    const uint32_t *run = nullptr, *run_end = nullptr;
    auto keep = [&](const uint32_t* w, uint32_t count) {
        if (w != run_end) {
            out.insert(out.end(), run, run_end);
            run = w;
        }
        run_end = w + count;
    };
    // Without removed ids and unreached blocks everything stays: whole
    // sections (the builder writes no empty instruction).
    const bool all_kept = !code.removed_any && code.unreached.empty();
    auto kept = [&](const ScratchVector<uint32_t>& section) {
        if (all_kept && !section.empty()) {
            keep(section.data(), uint32_t(section.size()));
            return;
        }
        for (size_t at = 0; at < section.size();) {
            uint32_t count = section[at] >> 16;
            if (count == 0)
                break;
            spv::Id target = section[at + 1];
            uint32_t block = target < ids_.size() ? ids_[target].block : 0;
            if (!(block != 0 && !code.unreached.empty() && code.unreached[block - 1]) && !code.removed(target))
                keep(section.data() + at, count);
            at += count;
        }
    };
    kept(names_);
    kept(annotations_);
    // The globals but the few that go, in runs between them (unreached
    // blocks hold none).
    std::sort(code.dropped_globals.begin(), code.dropped_globals.end());
    uint32_t from = 0;
    for (uint32_t at : code.dropped_globals) {
        if (at > from)
            keep(globals_.data() + from, at - from);
        from = at + (globals_[at] >> 16);
    }
    if (globals_.size() > from)
        keep(globals_.data() + from, uint32_t(globals_.size() - from));
    for (const uint32_t* w : code.instructions)
        if (w)
            keep(w, w[0] >> 16);
    out.insert(out.end(), run, run_end);
}

} // namespace dxspv::spirv
