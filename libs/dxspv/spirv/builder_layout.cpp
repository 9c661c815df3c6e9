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

namespace dxspv::spirv {

Block* Builder::block_of(spv::Id label) const
{
    if (label >= ids_.size() || ids_[label].op != spv::OpLabel)
        return nullptr;
    return const_cast<Block*>(&blocks_[ids_[label].at]);
}

/// The blocks `block`'s terminator branches to (at most 2 + 2 per case; the
/// caller's buffer holds the switch's count). Returns their number.
size_t Builder::successors(const Block& block, Block** out) const
{
    if (block.last_ == ~0u)
        return 0;
    const uint32_t* w = block.words_.data() + block.last_;
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

void Builder::dump_function(const Function& function, std::vector<uint32_t>& out, std::vector<uint8_t>& live) const
{
    // Reachability through control flow.
    std::vector<Block*> stack, succ;
    std::vector<uint8_t> reached(function.blocks_.size());
    auto local = [](const Block* b) { return b->local_; };
    auto successors_of = [&](const Block& b) {
        size_t room = b.last_ == ~0u ? 0 : b.words_[b.last_] >> 16;
        succ.resize(room + 2);
        succ.resize(successors(b, succ.data()));
    };
    stack.push_back(function.blocks_.front());
    reached[0] = 1;
    while (!stack.empty()) {
        Block* b = stack.back();
        stack.pop_back();
        successors_of(*b);
        for (Block* s : succ) {
            if (s->function_ == &function && !reached[local(s)]) {
                reached[local(s)] = 1;
                stack.push_back(s);
            }
        }
    }

    // Structured order.
    struct Frame {
        Block* block;
        uint32_t stage; ///< 0: successors, 1: continue target, 2: merge block, 3: done
        uint32_t next;
    };
    std::vector<Frame> frames;
    std::vector<uint8_t> visited(function.blocks_.size()), delayed(function.blocks_.size());
    std::vector<Block*> order;
    auto visit = [&](Block* b) {
        if (!b || b->function_ != &function || visited[local(b)] || delayed[local(b)])
            return;
        visited[local(b)] = 1;
        order.push_back(b);
        frames.push_back({b, 0, 0});
        if (reached[local(b)]) {
            if (Block* m = block_of(b->merge_); m && m->function_ == &function)
                delayed[local(m)] = 1;
            if (Block* c = block_of(b->continue_); c && c->function_ == &function)
                delayed[local(c)] = 1;
        }
    };
    visit(function.blocks_.front());
    while (!frames.empty()) {
        Frame& f = frames.back();
        Block* b = f.block;
        bool live_block = reached[local(b)] != 0;
        if (f.stage == 0) {
            successors_of(*b);
            if (live_block && f.next < succ.size()) {
                visit(succ[f.next++]);
                continue;
            }
            f.stage = 1;
            continue;
        }
        if (f.stage == 1 || f.stage == 2) {
            Block* target = live_block ? block_of(f.stage == 1 ? b->continue_ : b->merge_) : nullptr;
            ++f.stage;
            if (target && target->function_ == &function) {
                delayed[local(target)] = 0;
                visit(target);
            }
            continue;
        }
        frames.pop_back();
    }

    // Words.
    uint32_t* w = emit(out, spv::OpFunction, 5);
    w[0] = function.return_type_;
    w[1] = function.id_;
    w[2] = spv::FunctionControlMaskNone;
    w[3] = function.type_;
    std::vector<spv::Id> headers(function.blocks_.size()); // continue target -> its loop header
    for (Block* b : order) {
        if (Block* c = block_of(b->continue_); c && c->function_ == &function)
            headers[local(c)] = b->id_;
    }
    for (Block* b : order) {
        out.push_back(2u << 16 | spv::OpLabel);
        out.push_back(b->id_);
        if (b == function.blocks_.front())
            out.insert(out.end(), function.variables_.begin(), function.variables_.end());
        if (reached[local(b)]) {
            live[b->index_] = 1;
            size_t from = 0;
            std::vector<uint32_t> dead_stores = b->dead_;
            std::sort(dead_stores.begin(), dead_stores.end());
            for (uint32_t dead : dead_stores) { // dead stores left out
                out.insert(out.end(), b->words_.begin() + from, b->words_.begin() + dead);
                from = dead + (b->words_[dead] >> 16);
            }
            out.insert(out.end(), b->words_.begin() + from, b->words_.end());
        } else if (spv::Id header = headers[local(b)]) {
            out.push_back(2u << 16 | spv::OpBranch);
            out.push_back(header);
        } else {
            out.push_back(1u << 16 | spv::OpUnreachable);
        }
    }
    out.push_back(1u << 16 | spv::OpFunctionEnd);
}

namespace {

/// Instructions without side effects, whose result, when nothing uses it,
/// can go.
bool is_pure(uint32_t op)
{
    switch (op) {
    case spv::OpUndef:
    case spv::OpCopyObject:
    case spv::OpLoad:
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
    case spv::OpBitcast:
    case spv::OpCompositeExtract:
    case spv::OpCompositeInsert:
    case spv::OpCompositeConstruct:
    case spv::OpVectorShuffle:
    case spv::OpVectorExtractDynamic:
    case spv::OpSelect:
    case spv::OpSampledImage:
    case spv::OpExtInst: // GLSL.std.450 only
        return true;
    default:
        // Arithmetic, bit operations, conversions and comparisons.
        return (op >= spv::OpConvertFToU && op <= spv::OpBitcast) || (op >= spv::OpSNegate && op <= spv::OpFRem)
               || (op >= spv::OpIAdd && op <= spv::OpFMod) || (op >= spv::OpAny && op <= spv::OpFUnordGreaterThanEqual)
               || (op >= spv::OpShiftRightLogical && op <= spv::OpBitCount);
    }
}

/// Whether word `i` of an instruction with opcode `op` is a literal, not an
/// id, for the instructions whose literals are common (others count every
/// word as a possible id).
bool is_literal_word(uint32_t op, uint32_t i)
{
    switch (op) {
    case spv::OpCompositeExtract: return i >= 4;
    case spv::OpCompositeInsert:
    case spv::OpVectorShuffle: return i >= 5;
    case spv::OpExtInst: return i == 4;
    default: return false;
    }
}

/// Literal words of the global instructions that have them (word indices
/// from the instruction's start).
bool is_literal_global(uint32_t op, uint32_t i)
{
    switch (op) {
    case spv::OpTypeInt:
    case spv::OpTypeFloat: return i >= 2;
    case spv::OpTypePointer: return i == 2;
    case spv::OpTypeVector: return i == 3;
    case spv::OpTypeImage: return i >= 3;
    case spv::OpConstant:
    case spv::OpSpecConstant: return i >= 3;
    case spv::OpVariable: return i == 3;
    default: return false;
    }
}

bool is_removable_global(uint32_t op)
{
    switch (op) {
    case spv::OpTypeVoid:
    case spv::OpTypeBool:
    case spv::OpTypeInt:
    case spv::OpTypeFloat:
    case spv::OpTypeVector:
    case spv::OpTypeArray:
    case spv::OpTypeRuntimeArray:
    case spv::OpTypeStruct:
    case spv::OpTypePointer:
    case spv::OpTypeImage:
    case spv::OpTypeSampler:
    case spv::OpTypeSampledImage:
    case spv::OpConstant:
    case spv::OpConstantTrue:
    case spv::OpConstantFalse:
    case spv::OpConstantNull:
    case spv::OpConstantComposite:
    case spv::OpUndef:
        return true;
    default:
        return false;
    }
}

} // namespace

/// Removes the types and constants nothing uses any more (after the code's
/// own removals), last first so that what they alone used goes too. Names
/// and decorations do not keep them.
void Builder::remove_unused_globals(const std::vector<uint32_t>& code, std::vector<uint8_t>& removed) const
{
    // Every id word counts, the defining one included (a definition alone
    // is one use).
    std::vector<uint32_t> uses(bound_ + 1);
    auto count_words = [&](const std::vector<uint32_t>& words, bool globals) {
        for (size_t at = 0; at < words.size();) {
            uint32_t count = words[at] >> 16, op = words[at] & 0xffffu;
            if (count == 0)
                return;
            if (!(globals && op == spv::OpVariable && removed[words[at + 2]]))
                for (uint32_t i = 1; i < count; ++i)
                    if (words[at + i] <= bound_ && !(globals ? is_literal_global(op, i) : is_literal_word(op, i)))
                        ++uses[words[at + i]];
            at += count;
        }
    };
    count_words(code, false);
    count_words(globals_, true);
    count_words(entry_points_, false);
    count_words(execution_modes_, false);
    for (size_t at = 0; at < annotations_.size();) { // the id operands of OpDecorateId
        uint32_t count = annotations_[at] >> 16;
        if (count == 0)
            break;
        if ((annotations_[at] & 0xffffu) == spv::OpDecorateId)
            for (uint32_t i = 3; i < count; ++i)
                if (annotations_[at + i] <= bound_)
                    ++uses[annotations_[at + i]];
        at += count;
    }
    std::vector<uint32_t> starts;
    for (size_t at = 0; at < globals_.size();) {
        uint32_t count = globals_[at] >> 16;
        if (count == 0)
            break;
        starts.push_back(uint32_t(at));
        at += count;
    }
    for (size_t k = starts.size(); k-- > 0;) {
        const uint32_t* w = globals_.data() + starts[k];
        uint32_t count = w[0] >> 16, op = w[0] & 0xffffu;
        uint32_t result = op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer ? 1 : 2;
        if (!is_removable_global(op) || count <= result || w[result] > bound_ || removed[w[result]]
            || uses[w[result]] != 1)
            continue;
        removed[w[result]] = 1;
        for (uint32_t i = 1; i < count; ++i)
            if (w[i] <= bound_ && !is_literal_global(op, i))
                --uses[w[i]];
    }
}

/// Removes pure instructions whose results nothing uses (walking backwards,
/// so that a chain of them goes at once) from the functions' words; marks
/// the removed ids. Words not known to be literals count as uses of the id
/// they equal, which can only keep an instruction that could have gone.
void Builder::remove_dead_code(std::vector<uint32_t>& code, std::vector<uint8_t>& removed) const
{
    std::vector<uint32_t> uses(bound_ + 1), starts;
    for (size_t at = 0; at < code.size();) {
        uint32_t count = code[at] >> 16;
        if (count == 0)
            return;
        starts.push_back(uint32_t(at));
        uint32_t op = code[at] & 0xffffu;
        for (uint32_t i = 1; i < count; ++i)
            if (code[at + i] <= bound_ && !is_literal_word(op, i))
                ++uses[code[at + i]];
        at += count;
    }
    // Operands of the entry points, execution modes and annotations are uses.
    for (const std::vector<uint32_t>* section : {&entry_points_, &execution_modes_})
        for (uint32_t w : *section)
            if (w <= bound_)
                ++uses[w];
    std::vector<uint8_t> drop(starts.size());
    for (size_t k = starts.size(); k-- > 0;) {
        const uint32_t* w = code.data() + starts[k];
        uint32_t count = w[0] >> 16, op = w[0] & 0xffffu;
        if (count < 3 || !is_pure(op) || w[2] > bound_ || uses[w[2]] != 1) // the result's own word
            continue;
        drop[k] = 1;
        removed[w[2]] = 1;
        for (uint32_t i = 3; i < count; ++i)
            if (w[i] <= bound_ && !is_literal_word(op, i))
                --uses[w[i]];
    }
    size_t out = 0;
    for (size_t k = 0; k < starts.size(); ++k) {
        uint32_t count = code[starts[k]] >> 16;
        if (!drop[k]) {
            std::copy(code.begin() + starts[k], code.begin() + starts[k] + count, code.begin() + out);
            out += count;
        }
    }
    code.resize(out);
}

/// Removes the Private and Function variables nothing reads (only stores
/// and the entry point's interface name them) with their stores; marks them.
void Builder::remove_write_only_variables(std::vector<uint32_t>& code, std::vector<uint8_t>& removed) const
{
    std::vector<uint8_t> read(bound_ + 1);
    for (size_t at = 0; at < code.size();) {
        const uint32_t* w = code.data() + at;
        uint32_t count = w[0] >> 16, op = w[0] & 0xffffu;
        if (count == 0)
            return;
        at += count;
        if (op == spv::OpStore) { // the pointer is written, the value read
            if (count > 2 && w[2] <= bound_)
                read[w[2]] = 1;
            continue;
        }
        for (uint32_t i = op == spv::OpVariable ? 3 : 1; i < count; ++i)
            if (w[i] <= bound_ && !is_literal_word(op, i))
                read[w[i]] = 1;
    }
    bool any = false;
    for (spv::Id id = 1; id <= bound_ && id < ids_.size(); ++id) {
        if (ids_[id].op != spv::OpVariable || read[id])
            continue;
        spv::StorageClass sc = getStorageClass(id);
        if (sc == spv::StorageClassPrivate || sc == spv::StorageClassFunction)
            removed[id] = any = true;
    }
    if (!any)
        return;
    size_t out = 0;
    for (size_t at = 0; at < code.size();) {
        uint32_t count = code[at] >> 16, op = code[at] & 0xffffu;
        bool drop = (op == spv::OpStore && removed[code[at + 1]]) || (op == spv::OpVariable && removed[code[at + 2]]);
        if (!drop) {
            std::copy(code.begin() + at, code.begin() + at + count, code.begin() + out);
            out += count;
        }
        at += count;
    }
    code.resize(out);
}

void Builder::dump(std::vector<uint32_t>& out) const
{
    out.clear();
    out.reserve(5 + globals_.size() + names_.size() + annotations_.size() + blocks_.size() * 16);
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

    // The functions first (into their own buffer), to know which blocks are
    // live and which variables and values are gone before the interface,
    // names, decorations and globals are written.
    std::vector<uint32_t> code;
    code.reserve(blocks_.size() * 16);
    std::vector<uint8_t> live(blocks_.size());
    for (const Function& f : functions_)
        dump_function(f, code, live);
    std::vector<uint8_t> removed(bound_ + 1);
    remove_write_only_variables(code, removed);
    remove_dead_code(code, removed);
    remove_unused_globals(code, removed);
    for (size_t at = 0; at < entry_points_.size();) { // interfaces without removed variables
        const uint32_t* w = entry_points_.data() + at;
        uint32_t count = w[0] >> 16, first = 3;
        while (first < count && (w[first] >> 24) != 0) // the name's last word has a zero byte
            ++first;
        size_t start = out.size();
        out.insert(out.end(), w, w + first + 1);
        for (uint32_t i = first + 1; i < count; ++i)
            if (!(w[i] <= bound_ && removed[w[i]]))
                out.push_back(w[i]);
        out[start] = uint32_t(out.size() - start) << 16 | (w[0] & 0xffffu);
        at += count;
    }
    out.insert(out.end(), execution_modes_.begin(), execution_modes_.end());
    auto kept = [&](const std::vector<uint32_t>& section) {
        for (size_t at = 0; at < section.size();) {
            uint32_t count = section[at] >> 16;
            if (count == 0)
                break;
            spv::Id target = section[at + 1];
            uint32_t block = target < ids_.size() ? ids_[target].block : 0;
            if ((block == 0 || live[block - 1]) && !(target <= bound_ && removed[target]))
                out.insert(out.end(), section.begin() + at, section.begin() + at + count);
            at += count;
        }
    };
    kept(names_);
    kept(annotations_);
    for (size_t at = 0; at < globals_.size();) {
        uint32_t count = globals_[at] >> 16;
        if (count == 0)
            break;
        uint32_t op = globals_[at] & 0xffffu;
        uint32_t result = globals_[at + (op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer ? 1 : 2)];
        if (!((op == spv::OpVariable || is_removable_global(op)) && result <= bound_ && removed[result]))
            out.insert(out.end(), globals_.begin() + at, globals_.begin() + at + count);
        at += count;
    }
    out.insert(out.end(), code.begin(), code.end());
}

} // namespace dxspv::spirv
