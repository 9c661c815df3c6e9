// The SPIR-V module builder's pruning, at layout: what no execution needs
// leaves the module (after the unreachable blocks, builder_layout.cpp).
//
// - Private and Function variables nothing reads (only stores and the entry
//   point's interface name them), with their stores;
// - instructions without side effects whose results nothing uses, and then
//   the ones only those used (a worklist: the code is not read again);
// - then types and constants nothing uses any more, and the ones only
//   those named (a worklist too: the uses by globals are counted as the
//   builder makes them, IdInfo::named; the globals that stay are not read).
// One count of the uses of every id serves the three, taken while layout
// lists the code (Code::add): every id word that is not a known literal
// counts (a word that only looks like an id can only keep something that
// could have gone), the defining word included in functions. Names and
// decorations do not keep anything, but for OpDecorateId's operand (counted
// in IdInfo::named).
#include "spirv/builder.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace dxspv::spirv {

namespace {

constexpr std::array<uint64_t, 4> pure_table = [] {
    std::array<uint64_t, 4> t{};
    auto set = [&](uint32_t op) { t[op >> 6] |= uint64_t(1) << (op & 63); };
    for (uint32_t op : {spv::OpUndef, spv::OpCopyObject, spv::OpLoad, spv::OpAccessChain, spv::OpInBoundsAccessChain,
             spv::OpBitcast, spv::OpCompositeExtract, spv::OpCompositeInsert, spv::OpCompositeConstruct,
             spv::OpVectorShuffle, spv::OpVectorExtractDynamic, spv::OpSelect, spv::OpSampledImage,
             spv::OpExtInst}) // GLSL.std.450 only
        set(op);
    // Arithmetic, bit operations, conversions and comparisons.
    for (auto [first, last] : {std::pair{spv::OpConvertFToU, spv::OpBitcast}, {spv::OpSNegate, spv::OpFRem},
             {spv::OpIAdd, spv::OpFMod}, {spv::OpAny, spv::OpFUnordGreaterThanEqual},
             {spv::OpShiftRightLogical, spv::OpBitCount}})
        for (uint32_t op = first; op <= last; ++op)
            set(op);
    return t;
}();

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
    t[spv::OpExecutionMode] = {2, 0}; // the mode and its literals (LocalSize 1 1 1 names no id 17, 1)
    t[spv::OpTypeInt] = t[spv::OpTypeFloat] = {2, 0};
    t[spv::OpTypePointer] = {2, 3};
    t[spv::OpTypeVector] = {3, 4};
    t[spv::OpTypeImage] = t[spv::OpConstant] = t[spv::OpSpecConstant] = {3, 0};
    return t;
}();

/// The globals that go when nothing uses them: types and constants (their
/// opcodes are below 64).
constexpr uint64_t removable_globals = [] {
    uint64_t mask = 0;
    for (uint32_t op : {spv::OpTypeVoid, spv::OpTypeBool, spv::OpTypeInt, spv::OpTypeFloat, spv::OpTypeVector,
             spv::OpTypeArray, spv::OpTypeRuntimeArray, spv::OpTypeStruct, spv::OpTypePointer, spv::OpTypeImage,
             spv::OpTypeSampler, spv::OpTypeSampledImage, spv::OpConstant, spv::OpConstantTrue,
             spv::OpConstantFalse, spv::OpConstantNull, spv::OpConstantComposite, spv::OpUndef})
        mask |= uint64_t(1) << op;
    return mask;
}();
static_assert(spv::OpVariable < 64);

/// A global that goes when nothing uses it (a type or a constant).
bool removable_op(uint32_t op)
{
    return op < 64 && (removable_globals >> op & 1);
}

/// Calls `f` with every id word of the instruction at `w`: every word but the
/// known literals.
template <class F>
[[gnu::always_inline]] inline void for_id_words(const uint32_t* w, F&& f)
{
    uint32_t count = w[0] >> 16, op = w[0] & 0xffffu, first = count, end = count;
    if (op < literal_table.size() && literal_table[op].first) {
        first = std::min<uint32_t>(literal_table[op].first, count);
        end = literal_table[op].end ? std::clamp<uint32_t>(literal_table[op].end, first, count) : count;
    }
    for (uint32_t i = 1; i < first; ++i)
        f(w[i]);
    for (uint32_t i = end; i < count; ++i)
        f(w[i]);
}

} // namespace

const uint64_t Builder::pure_ops[4] = {pure_table[0], pure_table[1], pure_table[2], pure_table[3]};

[[gnu::always_inline]] inline void Builder::Code::count_words(const uint32_t* w, uint32_t delta)
{
    IdState* const counts = ids.data(); // in registers: the counts could alias the members
    const spv::Id last = bound;
    for_id_words(w, [&](uint32_t id) {
        if (id <= last)
            counts[id].uses += delta;
    });
}

void Builder::Code::add(const uint32_t* from, const uint32_t* to)
{
    for (const uint32_t* w = from; w < to; w += w[0] >> 16) {
        assert(w[0] >> 16); // the builder writes no empty instruction
        const uint32_t k = uint32_t(instructions.size()), count = w[0] >> 16, op = w[0] & 0xffffu;
        instructions.push_back(w);
        words += count;
        count_words(w, 1);
        if (op == spv::OpStore) {
            if (count > 2 && w[1] <= bound) {
                ++ids[w[1]].stored;
                stores.push_back({k, w[1]});
            }
        } else if (op == spv::OpVariable) {
            variables.push_back(k);
        } else if (count > 2 && is_pure(op) && w[2] <= bound) {
            ids[w[2]].defined_by = k + 1;
            pure.push_back(w[2]);
        }
    }
}

void Builder::Code::drop(size_t k)
{
    words -= instructions[k][0] >> 16;
    instructions[k] = nullptr;
}

void Builder::prune(Code& code) const
{
    ScratchVector<Code::IdState>& ids = code.ids;
    auto remove = [&](spv::Id id) {
        ids[id].removed = 1;
        code.removed_any = true;
    };
    ScratchVector<const uint32_t*>& instructions = code.instructions;

    // A load nothing uses does not keep its variable (the emitter loads a
    // temp at its first use in a block, a write's too): it goes first.
    auto drop_instruction = [&](uint32_t k) {
        code.count_words(instructions[k], ~0u);
        code.drop(k);
    };
    for (spv::Id id : code.pure) {
        if (ids[id].uses != 1)
            continue;
        const uint32_t k = ids[id].defined_by - 1;
        if ((instructions[k][0] & 0xffffu) == spv::OpLoad) {
            drop_instruction(k);
            remove(id);
        }
    }

    // Write-only variables: their uses are their stores (and, in a function,
    // their definition).
    for (uint32_t k : code.variables) {
        const uint32_t* w = instructions[k];
        if ((w[0] >> 16) > 3 && w[2] <= bound_ && ids[w[2]].uses == 1u + ids[w[2]].stored)
            remove(w[2]);
    }
    bool global_goes = false; // a global variable: what it names may go too
    for (spv::Id id : private_variables_) {
        if (ids[id].uses == ids[id].stored) {
            remove(id);
            global_goes = true;
        }
    }
    // Their stores and definitions go (the stores found by their pointer,
    // without reading the ones that stay).
    for (auto [k, pointer] : code.stores)
        if (ids[pointer].removed)
            drop_instruction(k);
    for (uint32_t k : code.variables) {
        const uint32_t* w = instructions[k];
        if ((w[0] >> 16) > 3 && w[2] <= bound_ && ids[w[2]].removed)
            drop_instruction(k);
    }

    // Results of instructions without side effects that nothing uses, and
    // then the operands only those used. Every use of a value comes after
    // its definition in layout order (dominance), so this is what one pass
    // from the last instruction to the first would drop, without reading
    // the instructions that stay.
    ScratchVector<spv::Id> dead;
    for (spv::Id id : code.pure)
        if (ids[id].uses == 1)
            dead.push_back(id);
    while (!dead.empty()) {
        const spv::Id id = dead.back();
        dead.pop_back();
        const uint32_t k = ids[id].defined_by - 1;
        const uint32_t* w = instructions[k];
        if (!w)
            continue;
        code.drop(k);
        remove(id);
        for_id_words(w, [&](uint32_t operand) {
            if (operand <= bound_ && --ids[operand].uses == 1 && ids[operand].defined_by)
                dead.push_back(operand);
        });
    }

    // Types and constants: the ones nothing uses go, and then the ones only
    // those named (a worklist over the globals' uses by globals, counted as
    // the builder made them: IdInfo::named, which also counts the operands
    // of OpDecorateId). The globals that stay are not read. No global goes
    // unless one has no use yet, or a global variable went. The execution
    // modes only add uses (OpExecutionModeId's constants), so they are
    // counted only when some global may still go without them (most modules
    // lose none); the entry points name no type or constant (their
    // interfaces are variables, and their other words literals).
    auto unused_global = [&] {
        for (spv::Id id : removable_)
            if (ids[id].uses == 0 && ids_[id].named == 0)
                return true;
        return false;
    };
    if (!global_goes && !unused_global())
        return;
    for (size_t at = 0; at < execution_modes_.size() && (execution_modes_[at] >> 16); at += execution_modes_[at] >> 16)
        code.count_words(execution_modes_.data() + at, 1);
    for (spv::Id id : removable_) {
        ids[id].uses += ids_[id].named;
        if (ids[id].uses == 0)
            dead.push_back(id);
    }
    // What a global that goes names loses a use (its result is not a use).
    auto release = [&](spv::Id id) {
        const uint32_t* w = globals_.data() + ids_[id].at;
        assert(w[(w[0] & 0xffffu) >= spv::OpTypeVoid && (w[0] & 0xffffu) <= spv::OpTypeForwardPointer ? 1 : 2] == id);
        remove(id);
        code.dropped_globals.push_back(ids_[id].at);
        for_id_words(w, [&](uint32_t operand) {
            if (operand != id && operand <= bound_ && ids[operand].uses != 0 && --ids[operand].uses == 0
                && removable_op(ids_[operand].op))
                dead.push_back(operand);
        });
    };
    for (spv::Id id : private_variables_)
        if (ids[id].removed)
            release(id);
    while (!dead.empty()) {
        const spv::Id id = dead.back();
        dead.pop_back();
        release(id);
    }
}

} // namespace dxspv::spirv
