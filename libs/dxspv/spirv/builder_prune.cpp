// The SPIR-V module builder's pruning, at layout: what no execution needs
// leaves the module (after the unreachable blocks, builder_layout.cpp).
//
// - Private and Function variables nothing reads (only stores and the entry
//   point's interface name them), with their stores;
// - instructions without side effects whose results nothing uses, last
//   first, so that a chain of them goes at once;
// - then types and constants nothing uses any more, last first likewise.
// One count of the uses of every id serves the three: every id word that is
// not a known literal counts (a word that only looks like an id can only keep
// something that could have gone), the defining word included. Names and
// decorations do not keep anything.
#include "spirv/builder.h"

#include <algorithm>
#include <array>

namespace dxspv::spirv {

/// Instructions without side effects: a result nothing uses can go, and
/// (loads aside) an identical one in the same block can serve instead
/// (Builder::reuse_value).
bool Builder::is_pure(uint32_t op)
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

namespace {

/// The literal words [first, end) of the instructions whose literals are
/// common (word indices from the instruction's start; 0: up to its end);
/// others count every word as a possible id. Their opcodes are below 128.
struct LiteralWords {
    uint8_t first, end;
};
constexpr std::array<LiteralWords, 128> literal_table = [] {
    std::array<LiteralWords, 128> t{};
    // in functions
    t[spv::OpCompositeExtract] = {4, 0};
    t[spv::OpCompositeInsert] = t[spv::OpVectorShuffle] = {5, 0};
    t[spv::OpExtInst] = {4, 5};
    // in both
    t[spv::OpVariable] = {3, 4};
    // globals
    t[spv::OpTypeInt] = t[spv::OpTypeFloat] = {2, 0};
    t[spv::OpTypePointer] = {2, 3};
    t[spv::OpTypeVector] = {3, 4};
    t[spv::OpTypeImage] = t[spv::OpConstant] = t[spv::OpSpecConstant] = {3, 0};
    return t;
}();

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

void Builder::prune(const Code& code, ScratchVector<uint8_t>& drop, ScratchVector<uint8_t>& removed) const
{
    ScratchVector<uint32_t> uses(bound_ + 1), stored(bound_ + 1);
    const ScratchVector<const uint32_t*>& instructions = code.instructions;
    removed.assign(bound_ + 1, 0);
    drop.assign(instructions.size(), 0);
    // Adds `delta` to the use count of every id word of an instruction.
    auto count_words = [&](const uint32_t* w, uint32_t delta) {
        uint32_t count = w[0] >> 16, op = w[0] & 0xffffu, first = count, end = count;
        if (op < literal_table.size() && literal_table[op].first) {
            first = std::min<uint32_t>(literal_table[op].first, count);
            end = literal_table[op].end ? std::clamp<uint32_t>(literal_table[op].end, first, count) : count;
        }
        for (uint32_t i = 1; i < first; ++i)
            if (w[i] <= bound_)
                uses[w[i]] += delta;
        for (uint32_t i = end; i < count; ++i)
            if (w[i] <= bound_)
                uses[w[i]] += delta;
    };
    ScratchVector<uint32_t> variables; // the function variables' instructions
    for (size_t k = 0; k < instructions.size(); ++k) {
        const uint32_t* w = instructions[k];
        count_words(w, 1);
        if ((w[0] & 0xffffu) == spv::OpStore && (w[0] >> 16) > 2 && w[1] <= bound_)
            ++stored[w[1]];
        else if ((w[0] & 0xffffu) == spv::OpVariable)
            variables.push_back(uint32_t(k));
    }

    // Write-only variables: their uses are their stores (and, in a function,
    // their definition).
    for (uint32_t k : variables) {
        const uint32_t* w = instructions[k];
        if (w[2] <= bound_ && uses[w[2]] == 1u + stored[w[2]])
            removed[w[2]] = 1;
    }
    for (size_t at = 0; at < globals_.size() && (globals_[at] >> 16); at += globals_[at] >> 16) {
        if ((globals_[at] & 0xffffu) != spv::OpVariable || (globals_[at] >> 16) < 4)
            continue;
        spv::Id id = globals_[at + 2];
        if (id <= bound_ && uses[id] == stored[id] && getStorageClass(id) == spv::StorageClassPrivate)
            removed[id] = 1;
    }

    // Last first: the stores and definitions of those variables, and unused
    // results of instructions without side effects (a value's uses come
    // after its definition, so a chain of them goes at once).
    for (size_t k = instructions.size(); k-- > 0;) {
        const uint32_t* w = instructions[k];
        uint32_t count = w[0] >> 16, op = w[0] & 0xffffu;
        if ((op == spv::OpStore && count > 2 && w[1] <= bound_ && removed[w[1]])
            || (op == spv::OpVariable && count > 3 && w[2] <= bound_ && removed[w[2]])) {
            drop[k] = 1;
            count_words(w, ~0u);
            continue;
        }
        if (count < 3 || !is_pure(op) || w[2] > bound_ || uses[w[2]] != 1)
            continue;
        drop[k] = 1;
        removed[w[2]] = 1;
        count_words(w, ~0u);
    }

    // Types and constants.
    ScratchVector<uint32_t> global_starts;
    for (size_t at = 0; at < globals_.size();) {
        uint32_t count = globals_[at] >> 16;
        if (count == 0)
            break;
        global_starts.push_back(uint32_t(at));
        if (!((globals_[at] & 0xffffu) == spv::OpVariable && removed[globals_[at + 2]]))
            count_words(globals_.data() + at, 1);
        at += count;
    }
    for (const ScratchVector<uint32_t>* section : {&entry_points_, &execution_modes_})
        for (size_t at = 0; at < section->size() && ((*section)[at] >> 16); at += (*section)[at] >> 16)
            count_words(section->data() + at, 1);
    for (size_t at = 0; at < annotations_.size() && (annotations_[at] >> 16); at += annotations_[at] >> 16) {
        if ((annotations_[at] & 0xffffu) == spv::OpDecorateId) // its operands are ids
            for (uint32_t i = 3; i < (annotations_[at] >> 16); ++i)
                if (annotations_[at + i] <= bound_)
                    ++uses[annotations_[at + i]];
    }
    for (size_t k = global_starts.size(); k-- > 0;) {
        const uint32_t* w = globals_.data() + global_starts[k];
        uint32_t count = w[0] >> 16, op = w[0] & 0xffffu;
        uint32_t result = op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer ? 1 : 2;
        if (!is_removable_global(op) || count <= result || w[result] > bound_ || removed[w[result]]
            || uses[w[result]] != 1)
            continue;
        removed[w[result]] = 1;
        count_words(w, ~0u);
    }
}

} // namespace dxspv::spirv
