// The SPIR-V module builder: functions, blocks, and the instructions emitted
// at the build point.
#include "spirv/builder.h"

#include <algorithm>
#include <new>
#include <type_traits>

namespace dxspv::spirv {

// ---- functions and blocks ----

Function* Builder::makeFunctionEntry(spv::Id return_type, const char* name, Block** entry)
{
    Function& f = *new (function_alloc_.allocate(1)) Function();
    functions_.push_back(&f);
    f.id_ = getUniqueId();
    f.return_type_ = return_type;
    f.type_ = makeFunctionType(return_type, {});
    if (name && *name)
        addName(f.id_, name);
    setBuildPoint(nullptr);
    Block* first = &new_block(f);
    setBuildPoint(first);
    if (entry)
        *entry = first;
    return &f;
}

Function* Builder::makeEntryPoint(const char* name)
{
    return makeFunctionEntry(makeVoidType(), name, nullptr);
}

void Builder::leaveFunction()
{
    if (block_ && !block_->isTerminated())
        makeReturn();
}

Block& Builder::makeNewBlock()
{
    return new_block(*block_->function_);
}

/// A block of `function` at the end of its list. Blocks are trivially
/// destructible (their memory is freed with the builder).
Block& Builder::new_block(Function& function)
{
    static_assert(std::is_trivially_destructible_v<Block>);
    Block& b = *new (block_alloc_.allocate(1)) Block();
    b.id_ = getUniqueId();
    b.index_ = uint32_t(blocks_.size());
    blocks_.push_back(&b);
    ids_[b.id_].op = spv::OpLabel;
    ids_[b.id_].at = b.index_;
    b.function_ = &function;
    b.local_ = uint32_t(function.blocks_.size());
    function.blocks_.push_back(&b);
    return b;
}

// ---- instruction encoding ----

/// Appends `op` with a result of `type` (a type of 0: no result type) and
/// room for `operand_count` words; returns the result id.
spv::Id Builder::result(spv::Op op, spv::Id type, uint32_t operand_count, uint32_t*& operands)
{
    spv::Id id = getUniqueId();
    size_t at = block_->words_.size;
    uint32_t* w = emit_in_block(op, operand_count + (type ? 3 : 2));
    if (type)
        *w++ = type;
    *w++ = id;
    operands = w;
    previous_last_ = block_->last_; // reuse_value() takes the instruction back
    block_->last_ = uint32_t(at);
    block_->successor_count_ = 0;
    IdInfo& i = ids_[id];
    i.type = type;
    i.op = uint16_t(op);
    i.block = uint32_t(block_->index_ + 1);
    if (op == spv::OpCompositeInsert || op == spv::OpCompositeConstruct || op == spv::OpVectorShuffle)
        i.at = uint32_t(at); // composite_words() reads it back
    return id;
}

/// The words of the OpCompositeInsert, OpCompositeConstruct or
/// OpVectorShuffle that defines `id`, else null.
const uint32_t* Builder::composite_words(spv::Id id) const
{
    if (id >= ids_.size() || ids_[id].block == 0)
        return nullptr;
    const IdInfo& i = ids_[id];
    if (i.op != spv::OpCompositeInsert && i.op != spv::OpCompositeConstruct && i.op != spv::OpVectorShuffle)
        return nullptr;
    return blocks_[i.block - 1]->words_.data + i.at;
}

/// Components of a vector-typed id (0 for anything else).
uint32_t Builder::vector_size(spv::Id id) const
{
    spv::Id type = getTypeId(id);
    if (type >= ids_.size() || ids_[type].op != spv::OpTypeVector)
        return 0;
    return globals_[ids_[type].at + 3];
}

/// Appends `op` without a result.
void Builder::instruction(spv::Op op, uint32_t operand_count, uint32_t*& operands)
{
    size_t at = block_->words_.size;
    operands = emit_in_block(op, operand_count + 1);
    block_->last_ = uint32_t(at);
    block_->successor_count_ = 0;
}

/// Records what later queries need: the variable of an access chain, the
/// operand of a bitcast.
void Builder::note_operand(spv::Op op, spv::Id id, spv::Id first_operand)
{
    if (op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain)
        ids_[id].at = variable_of(first_operand);
    else if (op == spv::OpBitcast)
        ids_[id].at = first_operand;
}

spv::Id Builder::variable_of(spv::Id pointer) const
{
    if (pointer >= ids_.size())
        return 0;
    const IdInfo& i = ids_[pointer];
    return i.op == spv::OpAccessChain || i.op == spv::OpInBoundsAccessChain ? i.at : pointer;
}

/// Loads through `pointer` can be remembered within a block: memory the
/// invocation alone writes (Function, Private) or nothing writes (constant
/// buffers, push constants, inputs, descriptors).
bool Builder::cacheable(spv::Id pointer) const
{
    spv::StorageClass sc = getStorageClass(pointer);
    return sc == spv::StorageClassFunction || sc == spv::StorageClassPrivate || read_only(pointer);
}

bool Builder::read_only(spv::Id pointer) const
{
    spv::StorageClass sc = getStorageClass(pointer);
    return sc == spv::StorageClassUniform || sc == spv::StorageClassPushConstant || sc == spv::StorageClassInput
           || sc == spv::StorageClassUniformConstant;
}

/// The instruction result() has just emitted (result `id`), or, when it
/// has no side effects, an identical one emitted earlier in the block, in
/// which case the new one is taken back.
spv::Id Builder::reuse_value(spv::Id id)
{
    Words& words = block_->words_;
    size_t at = block_->last_;
    uint32_t count = words[at] >> 16, op = words[at] & 0xffffu;
    if (count < 3 || op == spv::OpExtInst || op == spv::OpLoad // memory may change between two loads
        || !(is_pure(op) || op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain))
        return id;
    uint64_t hash = (uint64_t(words[at]) << 32 | words[at + 1]) * 0x100000001b3ull;
    for (uint32_t i = 3; i < count; ++i)
        hash = (hash ^ words[at + i]) * 0x100000001b3ull;
    if (values_.size() >= max_reuse_window)
        values_.clear(); // a long block: reuse within windows, the map stays in the cache
    uint32_t& earlier = values_[hash];
    if (!earlier) {
        earlier = uint32_t(at) + 1;
        return id;
    }
    const uint32_t* e = words.data + earlier - 1;
    if (e[0] != words[at] || e[1] != words[at + 1] || !std::equal(e + 3, e + count, words.data + at + 3))
        return id; // another instruction with this hash: both stay
    words.size = uint32_t(at);
    block_->last_ = previous_last_;
    return e[2];
}

// ---- instructions ----

spv::Id Builder::createVariable(spv::StorageClass storage, spv::Id type, const char* name, spv::Id initializer)
{
    spv::Id pointer = makePointer(storage, type);
    spv::Id id = getUniqueId();
    ScratchVector<uint32_t>& words = storage == spv::StorageClassFunction ? block_->function_->variables_ : globals_;
    size_t at = words.size();
    uint32_t* w = emit(words, spv::OpVariable, initializer ? 5 : 4);
    w[0] = pointer;
    w[1] = id;
    w[2] = storage;
    if (initializer)
        w[3] = initializer;
    IdInfo& i = ids_[id];
    i.type = pointer;
    i.op = spv::OpVariable;
    if (storage == spv::StorageClassPrivate || storage == spv::StorageClassFunction)
        i.at = uint32_t(at); // in globals_ / the function's variables_
    if (storage == spv::StorageClassPrivate)
        private_variables_.push_back(id);
    if (storage != spv::StorageClassFunction) { // in globals_
        named_by_global(pointer);
        named_by_global(initializer);
    }
    if (name && *name)
        addName(id, name);
    return id;
}

/// One module-level OpUndef per type.
spv::Id Builder::createUndefined(spv::Id type)
{
    return typed_global(spv::OpUndef, type, undefs_);
}

spv::Id Builder::createLoad(spv::Id pointer)
{
    bool cache = cacheable(pointer);
    if (cache) {
        for (const auto& [p, value] : loads_)
            if (p == pointer)
                return value;
    }
    spv::Id pointer_type = getTypeId(pointer);
    spv::Id type = pointer_type < ids_.size() && ids_[pointer_type].op == spv::OpTypePointer
                       ? globals_[ids_[pointer_type].at + 3]
                       : 0;
    if (block_ == initial_ && pointer < ids_.size() && ids_[pointer].op == spv::OpVariable
        && !(pointer < written_.size() && written_[pointer])) {
        // A Private variable, or a Function variable of this function, that
        // nothing stored to yet: its initializer, else undefined.
        spv::StorageClass storage = getStorageClass(pointer);
        const ScratchVector<uint32_t>* words = storage == spv::StorageClassPrivate    ? &globals_
                                             : storage == spv::StorageClassFunction ? &block_->function_->variables_
                                                                                    : nullptr;
        uint32_t at = ids_[pointer].at;
        if (words && at + 3 < words->size() && (*words)[at + 2] == pointer)
            return ((*words)[at] >> 16) == 5 ? (*words)[at + 4] : createUndefined(type);
    }
    if (!stores_.empty()) { // the memory is read: pending stores to it stay
        spv::Id variable = variable_of(pointer);
        size_t kept = 0;
        for (const auto& entry : stores_)
            if (entry.first != variable)
                stores_[kept++] = entry;
        stores_.resize(kept);
    }
    uint32_t* w;
    spv::Id id = result(spv::OpLoad, type, 1, w);
    w[0] = pointer;
    if (cache)
        loads_.emplace_back(pointer, id);
    return id;
}

void Builder::createStore(spv::Id value, spv::Id pointer)
{
    size_t at = block_->words_.size;
    uint32_t* w;
    instruction(spv::OpStore, 2, w);
    w[0] = pointer;
    w[1] = value;
    if (initial_ == block_) {
        spv::Id variable = variable_of(pointer);
        if (variable >= written_.size())
            written_.resize(bound_ + 1);
        written_[variable] = 1;
    }
    if (!cacheable(pointer))
        return;
    if (pointer == variable_of(pointer)) {
        // A store of the whole variable: an earlier one in this block that
        // nothing read since is dead.
        bool replaced = false;
        for (auto& entry : stores_) {
            if (entry.first == pointer) {
                dead_stores_.emplace_back(entry.second, block_->dead_);
                block_->dead_ = uint32_t(dead_stores_.size() - 1);
                entry.second = uint32_t(at);
                replaced = true;
            }
        }
        if (!replaced)
            stores_.emplace_back(pointer, uint32_t(at));
    }
    // Forget what this store may overwrite: the variable and every access
    // chain into it.
    spv::Id variable = variable_of(pointer);
    size_t kept = 0;
    for (const auto& entry : loads_)
        if (variable_of(entry.first) != variable)
            loads_[kept++] = entry;
    loads_.resize(kept);
    if (pointer == variable)
        loads_.emplace_back(pointer, value);
}

spv::Id Builder::createUnaryOp(spv::Op op, spv::Id type, spv::Id a)
{
    uint32_t* w;
    spv::Id id = result(op, type, 1, w);
    w[0] = a;
    note_operand(op, id, a);
    return reuse_value(id);
}

spv::Id Builder::createBinOp(spv::Op op, spv::Id type, spv::Id a, spv::Id b)
{
    uint32_t* w;
    spv::Id id = result(op, type, 2, w);
    w[0] = a;
    w[1] = b;
    note_operand(op, id, a);
    return reuse_value(id);
}

spv::Id Builder::createTriOp(spv::Op op, spv::Id type, spv::Id a, spv::Id b, spv::Id c)
{
    uint32_t* w;
    spv::Id id = result(op, type, 3, w);
    w[0] = a;
    w[1] = b;
    w[2] = c;
    note_operand(op, id, a);
    return reuse_value(id);
}

spv::Id Builder::createOp(spv::Op op, spv::Id type, std::span<const spv::Id> operands)
{
    uint32_t* w;
    spv::Id id = result(op, type, uint32_t(operands.size()), w);
    std::copy(operands.begin(), operands.end(), w);
    if (!operands.empty())
        note_operand(op, id, operands[0]);
    return reuse_value(id);
}

spv::Id Builder::createOp(spv::Op op, spv::Id type, std::span<const IdImmediate> operands)
{
    if (op == spv::OpVectorShuffle && operands.size() > 2 && operands.size() <= 18)
        return vector_shuffle(type, operands);
    uint32_t* w;
    spv::Id id = result(op, type, uint32_t(operands.size()), w);
    for (const IdImmediate& o : operands)
        *w++ = o.word;
    if (!operands.empty() && operands[0].isId)
        note_operand(op, id, operands[0].word);
    return reuse_value(id);
}

/// OpVectorShuffle, its components traced through the shuffles that made
/// its operands: the identity of one vector of the result type is that
/// vector; components from at most two vectors take them from there.
spv::Id Builder::vector_shuffle(spv::Id type, std::span<const IdImmediate> operands)
{
    spv::Id sources[2] = {operands[0].word, operands[1].word};
    uint32_t first = vector_size(sources[0]);
    spv::Id from[16];
    uint32_t component[16];
    size_t n = operands.size() - 2;
    for (size_t i = 0; i < n; ++i) {
        uint32_t c = operands[i + 2].word;
        from[i] = c == 0xffffffffu || first == 0 ? 0 : c < first ? sources[0] : sources[1];
        component[i] = c == 0xffffffffu || first == 0 ? c : c < first ? c : c - first;
        for (int step = 0; step < 16 && from[i]; ++step) {
            const uint32_t* d = composite_words(from[i]);
            if (!d || (d[0] & 0xffffu) != spv::OpVectorShuffle || 5 + component[i] >= (d[0] >> 16))
                break;
            uint32_t size = vector_size(d[3]), c2 = d[5 + component[i]];
            if (size == 0 || c2 == 0xffffffffu)
                break;
            from[i] = c2 < size ? d[3] : d[4];
            component[i] = c2 < size ? c2 : c2 - size;
        }
    }
    // An insert whose inserted component the shuffle does not take: its
    // composite instead.
    for (size_t i = 0; i < n; ++i) {
        const uint32_t* d = from[i] ? composite_words(from[i]) : nullptr;
        if (!d || (d[0] & 0xffffu) != spv::OpCompositeInsert || (d[0] >> 16) != 6)
            continue;
        const spv::Id insert = from[i];
        bool taken = false;
        for (size_t k = 0; k < n; ++k)
            taken = taken || (from[k] == insert && component[k] == d[5]);
        for (size_t k = 0; k < n && !taken; ++k)
            if (from[k] == insert)
                from[k] = d[4];
    }
    // The (at most two) vectors the components now come from; with more,
    // the shuffle as asked.
    uint32_t words[18];
    for (size_t i = 0; i < operands.size(); ++i)
        words[i] = operands[i].word;
    spv::Id used[2] = {0, 0};
    for (size_t i = 0; i < n; ++i) {
        if (!from[i] || from[i] == used[0] || from[i] == used[1])
            continue;
        if (used[0] && used[1])
            return emit_shuffle(type, words, operands.size());
        (used[0] ? used[1] : used[0]) = from[i];
    }
    if (!used[0] || (used[1] && vector_size(used[0]) == 0))
        return emit_shuffle(type, words, operands.size());
    bool identity = !used[1] && getTypeId(used[0]) == type;
    words[0] = used[0];
    words[1] = used[1] ? used[1] : used[0];
    for (size_t i = 0; i < n; ++i) {
        identity = identity && from[i] == used[0] && component[i] == i;
        words[2 + i] = !from[i] ? 0xffffffffu : from[i] == used[0] ? component[i] : component[i] + vector_size(used[0]);
    }
    return identity ? used[0] : emit_shuffle(type, words, operands.size());
}

spv::Id Builder::emit_shuffle(spv::Id type, const uint32_t* operands, size_t count)
{
    uint32_t* w;
    spv::Id id = result(spv::OpVectorShuffle, type, uint32_t(count), w);
    std::copy(operands, operands + count, w);
    return reuse_value(id);
}

void Builder::createNoResultOp(spv::Op op)
{
    uint32_t* w;
    instruction(op, 0, w);
}

void Builder::createNoResultOp(spv::Op op, spv::Id operand)
{
    uint32_t* w;
    instruction(op, 1, w);
    w[0] = operand;
}

void Builder::createNoResultOp(spv::Op op, std::span<const spv::Id> operands)
{
    uint32_t* w;
    instruction(op, uint32_t(operands.size()), w);
    std::copy(operands.begin(), operands.end(), w);
}

void Builder::createNoResultOp(spv::Op op, std::span<const IdImmediate> operands)
{
    uint32_t* w;
    instruction(op, uint32_t(operands.size()), w);
    for (const IdImmediate& o : operands)
        *w++ = o.word;
}

spv::Id Builder::createCompositeExtract(spv::Id composite, spv::Id type, unsigned index)
{
    // A component of a vector made by inserts, shuffles or a construct of
    // scalars is the value that went in (or the component it came from); a
    // component of a constant vector is its constant.
    for (int step = 0; step < 16; ++step) {
        const uint32_t* d = composite_words(composite);
        if (!d) {
            if (composite < ids_.size() && ids_[composite].op == spv::OpConstantComposite) {
                const uint32_t* c = globals_.data() + ids_[composite].at;
                if (3 + index < (c[0] >> 16) && getTypeId(c[3 + index]) == type)
                    return c[3 + index];
            }
            break;
        }
        uint32_t count = d[0] >> 16, op = d[0] & 0xffffu;
        if (op == spv::OpCompositeInsert && count == 6) {
            if (d[5] != index) {
                composite = d[4];
                continue;
            }
            if (getTypeId(d[3]) == type)
                return d[3];
        } else if (op == spv::OpVectorShuffle && 5 + index < count) {
            uint32_t first = vector_size(d[3]), from = d[5 + index];
            if (first != 0 && from != 0xffffffffu) {
                composite = from < first ? d[3] : d[4];
                index = from < first ? from : from - first;
                continue;
            }
        } else if (op == spv::OpCompositeConstruct && count - 3 == vector_size(d[2]) && 3 + index < count
                   && getTypeId(d[3 + index]) == type) {
            return d[3 + index];
        }
        break;
    }
    uint32_t* w;
    spv::Id id = result(spv::OpCompositeExtract, type, 2, w);
    w[0] = composite;
    w[1] = index;
    return reuse_value(id);
}

spv::Id Builder::createCompositeInsert(spv::Id object, spv::Id composite, spv::Id type, unsigned index)
{
    // An insert over one at the same index replaces it.
    for (const uint32_t* d; (d = composite_words(composite)) && (d[0] & 0xffffu) == spv::OpCompositeInsert
                            && (d[0] >> 16) == 6 && d[5] == index;)
        composite = d[4];
    uint32_t* w;
    spv::Id id = result(spv::OpCompositeInsert, type, 3, w);
    w[0] = object;
    w[1] = composite;
    w[2] = index;
    return reuse_value(id);
}

spv::Id Builder::createCompositeConstruct(spv::Id type, std::span<const spv::Id> parts)
{
    return createOp(spv::OpCompositeConstruct, type, parts);
}

spv::Id Builder::builtin_call(spv::Id type, spv::Id set, int instruction, const spv::Id* args, size_t count)
{
    uint32_t* w;
    spv::Id id = result(spv::OpExtInst, type, uint32_t(count) + 2, w);
    w[0] = set;
    w[1] = uint32_t(instruction);
    std::copy(args, args + count, w + 2);
    return id;
}

spv::Id Builder::createBuiltinCall(spv::Id type, spv::Id set, int instruction, std::initializer_list<spv::Id> args)
{
    return builtin_call(type, set, instruction, args.begin(), args.size());
}

spv::Id Builder::createBuiltinCall(spv::Id type, spv::Id set, int instruction, std::span<const spv::Id> args)
{
    return builtin_call(type, set, instruction, args.data(), args.size());
}

spv::Id Builder::createFunctionCall(Function* function, std::span<const spv::Id> args)
{
    uint32_t* w;
    loads_.clear(); // the callee may store to Private variables, and read them
    stores_.clear();
    initial_ = nullptr;
    spv::Id id = result(spv::OpFunctionCall, function->return_type_, uint32_t(args.size()) + 1, w);
    w[0] = function->id_;
    std::copy(args.begin(), args.end(), w + 1);
    return id;
}

void Builder::createControlBarrier(spv::Scope execution, spv::Scope memory, spv::MemorySemanticsMask semantics)
{
    spv::Id operands[3] = {makeUintConstant(execution), makeUintConstant(memory), makeUintConstant(semantics)};
    uint32_t* w;
    instruction(spv::OpControlBarrier, 3, w);
    std::copy(operands, operands + 3, w);
}

// ---- control flow ----

void Builder::createBranch(Block* target)
{
    uint32_t* w;
    instruction(spv::OpBranch, 1, w);
    w[0] = target->id_;
    block_->successors_[0] = target->local_;
    block_->successor_count_ = 1;
}

void Builder::createConditionalBranch(spv::Id condition, Block* then_block, Block* else_block)
{
    uint32_t* w;
    instruction(spv::OpBranchConditional, 3, w);
    w[0] = condition;
    w[1] = then_block->id_;
    w[2] = else_block->id_;
    block_->successors_[0] = then_block->local_;
    block_->successors_[1] = else_block->local_;
    block_->successor_count_ = 2;
}

void Builder::createSelectionMerge(Block* merge, unsigned control)
{
    uint32_t* w;
    instruction(spv::OpSelectionMerge, 2, w);
    w[0] = merge->id_;
    w[1] = control;
    block_->merge_ = merge->local_;
}

void Builder::createLoopMerge(Block* merge, Block* continue_target, unsigned control)
{
    uint32_t* w;
    instruction(spv::OpLoopMerge, 3, w);
    w[0] = merge->id_;
    w[1] = continue_target->id_;
    w[2] = control;
    block_->merge_ = merge->local_;
    block_->continue_ = continue_target->local_;
}

void Builder::createSwitch(Block* header, spv::Id selector, Block* default_block,
    const std::pair<uint32_t, Block*>* cases, size_t case_count)
{
    Block* here = block_;
    block_ = header;
    uint32_t* w;
    instruction(spv::OpSwitch, uint32_t(2 + 2 * case_count), w);
    w[0] = selector;
    w[1] = default_block->id_;
    for (size_t i = 0; i < case_count; ++i) {
        w[2 + 2 * i] = cases[i].first;
        w[3 + 2 * i] = cases[i].second->id_;
    }
    header->successor_count_ = Block::switch_successors;
    block_ = here;
}

void Builder::makeReturn()
{
    uint32_t* w;
    instruction(spv::OpReturn, 0, w);
}

Builder::If::If(spv::Id condition, unsigned control, Builder& builder)
    : builder_(builder), condition_(condition), control_(control), header_(builder.getBuildPoint())
{
    then_ = &builder.makeNewBlock();
    merge_ = &builder.makeNewBlock();
    builder.setBuildPoint(then_);
}

void Builder::If::makeEndIf()
{
    if (!builder_.getBuildPoint()->isTerminated())
        builder_.createBranch(merge_);
    builder_.setBuildPoint(header_);
    builder_.createSelectionMerge(merge_, control_);
    builder_.createConditionalBranch(condition_, then_, merge_);
    builder_.setBuildPoint(merge_);
}

} // namespace dxspv::spirv
