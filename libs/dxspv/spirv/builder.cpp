// The SPIR-V module builder: ids, types, constants, annotations and the
// instructions of blocks (the layout is builder_layout.cpp).
#include "spirv/builder.h"

#include <algorithm>
#include <cstring>

namespace dxspv::spirv {

namespace {

bool is_terminator(uint32_t op)
{
    switch (op) {
    case spv::OpBranch:
    case spv::OpBranchConditional:
    case spv::OpSwitch:
    case spv::OpReturn:
    case spv::OpReturnValue:
    case spv::OpKill:
    case spv::OpUnreachable:
    case spv::OpTerminateInvocation:
        return true;
    default:
        return false;
    }
}

} // namespace

bool Block::isTerminated() const
{
    return last_ != ~0u && is_terminator(words_[last_] & 0xffffu);
}

Builder::Builder(uint32_t version, size_t instructions) : version_(version)
{
    if (instructions)
        reserve(instructions);
    ids_.resize(1);
}

Builder::~Builder()
{
    if (block_alloc_.arena()) // its scope's end frees them (their members are ScopeVectors)
        return;
    for (Block* b : blocks_)
        block_alloc_.deallocate(b, 1);
    for (Function* f : functions_) {
        f->~Function();
        function_alloc_.deallocate(f, 1);
    }
}

void Builder::reserve(size_t instructions)
{
    ids_.reserve(4 * instructions + 64);
    globals_.reserve(4 * instructions + 128);
    // The small sections, each at once instead of by its first push.
    capabilities_.reserve(8);
    imports_.reserve(8);
    memory_model_.reserve(3);
    entry_points_.reserve(16);
    execution_modes_.reserve(8);
    types_.reserve(32);
    removable_.reserve(64);
    names_.reserve(instructions + 32);
    annotations_.reserve(instructions + 32);
    loads_.reserve(32);
    stores_.reserve(16);
    // The hash maps at their final size for most modules: growing one
    // rehashes it at every doubling. values_ holds one block's values: a
    // block rarely has more than one per VSIR instruction, and a large
    // program's blocks are rarely large. A larger table (one for
    // max_reuse_window entries is 32 KiB, all of L1d, zeroed per
    // translation) is not worth the rehashes of the few blocks that
    // outgrow a smaller one: twice the instructions cost about 0.7 % more
    // instructions per DXIL translation, in zeroing.
    values_.reserve(std::min<size_t>(instructions + 16, 256));
    type_index_.reserve(32);
    pointers_.reserve(16);
}

Builder::IdInfo& Builder::info(spv::Id id)
{
    static_assert(sizeof(IdInfo) == 20);
    return ids_[id < ids_.size() ? id : 0];
}

// ---- module level ----

void Builder::addCapability(spv::Capability capability)
{
    for (uint32_t c : capabilities_) {
        if (c == uint32_t(capability))
            return;
    }
    capabilities_.push_back(capability);
}

void Builder::addExtension(const char* name)
{
    for (const char* e : extensions_) {
        if (strcmp(e, name) == 0)
            return;
    }
    extensions_.push_back(name);
}

spv::Id Builder::import(const char* name)
{
    spv::Id id = getUniqueId();
    emit_with_string(imports_, spv::OpExtInstImport, 1, name)[0] = id;
    return id;
}

void Builder::setMemoryModel(spv::AddressingModel addressing, spv::MemoryModel memory)
{
    memory_model_.clear();
    uint32_t* w = emit(memory_model_, spv::OpMemoryModel, 3);
    w[0] = addressing;
    w[1] = memory;
}

void Builder::addEntryPoint(spv::ExecutionModel model, Function* function, const char* name,
    const ScratchVector<spv::Id>& interface)
{
    size_t at = entry_points_.size();
    uint32_t* w = emit_with_string(entry_points_, spv::OpEntryPoint, 2, name);
    w[0] = model;
    w[1] = function->id_;
    entry_points_.insert(entry_points_.end(), interface.begin(), interface.end());
    entry_points_[at] = uint32_t(entry_points_.size() - at) << 16 | spv::OpEntryPoint;
}

void Builder::addExecutionMode(Function* function, spv::ExecutionMode mode, int v1, int v2, int v3)
{
    uint32_t count = 3 + (v1 >= 0) + (v2 >= 0) + (v3 >= 0);
    uint32_t* w = emit(execution_modes_, spv::OpExecutionMode, count);
    w[0] = function->id_;
    w[1] = mode;
    int values[3] = {v1, v2, v3};
    for (uint32_t i = 0; i + 3 < count; ++i)
        w[2 + i] = uint32_t(values[i]);
}

void Builder::addName(spv::Id id, const char* name)
{
    emit_with_string(names_, spv::OpName, 1, name)[0] = id;
}

void Builder::addMemberName(spv::Id id, int member, const char* name)
{
    uint32_t* w = emit_with_string(names_, spv::OpMemberName, 2, name);
    w[0] = id;
    w[1] = uint32_t(member);
}

void Builder::addDecoration(spv::Id id, spv::Decoration decoration, int value)
{
    if (value < 0) { // once per id (a reused value may be decorated twice)
        uint32_t& made = decorated_[uint64_t(id) << 32 | uint32_t(decoration)];
        if (made)
            return;
        made = 1;
    }
    uint32_t* w = emit(annotations_, spv::OpDecorate, value >= 0 ? 4 : 3);
    w[0] = id;
    w[1] = decoration;
    if (value >= 0)
        w[2] = uint32_t(value);
}

void Builder::addDecorationId(spv::Id id, spv::Decoration decoration, spv::Id operand)
{
    uint32_t* w = emit(annotations_, spv::OpDecorateId, 4);
    w[0] = id;
    w[1] = decoration;
    w[2] = operand;
    named_by_global(operand); // keeps it (the one annotation that does)
}

void Builder::addMemberDecoration(spv::Id id, unsigned member, spv::Decoration decoration, int value)
{
    uint32_t* w = emit(annotations_, spv::OpMemberDecorate, value >= 0 ? 5 : 4);
    w[0] = id;
    w[1] = member;
    w[2] = decoration;
    if (value >= 0)
        w[3] = uint32_t(value);
}

// ---- types ----

/// A type instruction in globals_; with `dedup`, an existing identical one
/// is returned instead (found by a hash of its words; types are few: a
/// linear search when two share a hash).
spv::Id Builder::emit_type(spv::Op op, std::initializer_list<uint32_t> operands, bool dedup)
{
    const uint32_t count = uint32_t(operands.size());
    // Written first, hashed while copied (a copy call costs more than these
    // few words); taken back when an identical type exists.
    const size_t at = globals_.size();
    uint32_t* w = emit(globals_, op, count + 2); // w[0]: the result id, once made
    uint64_t hash = op;
    for (uint32_t i = 0; i < count; ++i) {
        w[1 + i] = operands.begin()[i];
        hash = (hash ^ w[1 + i]) * 0x100000001b3ull;
    }
    uint32_t* first = nullptr; // the first type with this hash
    if (dedup) {
        auto same = [&](spv::Id id) {
            const IdInfo& i = ids_[id];
            return i.op == op && (globals_[i.at] >> 16) == count + 2
                   && std::equal(operands.begin(), operands.end(), globals_.begin() + i.at + 2);
        };
        first = &type_index_[hash]; // valid until the next insertion: none below
        spv::Id existing = *first && same(*first) ? *first : 0;
        for (size_t k = 0; *first && !existing && k < types_.size(); ++k) // another type has this hash
            existing = same(types_[k]) ? types_[k] : 0;
        if (existing) {
            globals_.resize(at);
            return existing;
        }
    }
    spv::Id id = getUniqueId();
    w[0] = id;
    if (first && !*first)
        *first = id;
    IdInfo& i = info(id);
    i.op = uint16_t(op);
    i.at = uint32_t(at);
    types_.push_back(id);
    if (op != spv::OpTypeFunction)
        removable_.push_back(id);
    // The operands that name ids: all but the literals.
    for (uint32_t k = 0; k < count; ++k) {
        const bool literal = op == spv::OpTypeInt || op == spv::OpTypeFloat
                             || (k != 0 && (op == spv::OpTypeVector || op == spv::OpTypeImage))
                             || (k == 0 && op == spv::OpTypePointer);
        if (!literal)
            named_by_global(operands.begin()[k]);
    }
    return id;
}

spv::Id Builder::makeVoidType()
{
    if (!void_type_)
        void_type_ = emit_type(spv::OpTypeVoid, {});
    return void_type_;
}

spv::Id Builder::makeBoolType()
{
    if (!bool_type_)
        bool_type_ = emit_type(spv::OpTypeBool, {});
    return bool_type_;
}

spv::Id Builder::makeIntegerType(int width, bool is_signed)
{
    if (width == 64)
        addCapability(spv::CapabilityInt64);
    return emit_type(spv::OpTypeInt, {uint32_t(width), is_signed ? 1u : 0u});
}

spv::Id Builder::makeFloatType(int width)
{
    if (width == 64)
        addCapability(spv::CapabilityFloat64);
    return emit_type(spv::OpTypeFloat, {uint32_t(width)});
}

spv::Id Builder::makeVectorType(spv::Id component, int count)
{
    return emit_type(spv::OpTypeVector, {component, uint32_t(count)});
}

spv::Id Builder::makeArrayType(spv::Id element, spv::Id length, int stride)
{
    return emit_type(spv::OpTypeArray, {element, length}, stride == 0);
}

spv::Id Builder::makeRuntimeArray(spv::Id element)
{
    return emit_type(spv::OpTypeRuntimeArray, {element}, false);
}

spv::Id Builder::makeStructType(const ScratchVector<spv::Id>& members, const char* name)
{
    spv::Id id = getUniqueId();
    size_t at = globals_.size();
    uint32_t* w = emit(globals_, spv::OpTypeStruct, uint32_t(members.size()) + 2);
    w[0] = id;
    std::copy(members.begin(), members.end(), w + 1);
    for (spv::Id member : members)
        named_by_global(member);
    IdInfo& i = info(id);
    i.op = spv::OpTypeStruct;
    i.at = uint32_t(at);
    types_.push_back(id);
    removable_.push_back(id);
    if (name && *name)
        addName(id, name);
    return id;
}

spv::Id Builder::makeStructResultType(spv::Id type0, spv::Id type1)
{
    for (spv::Id id : types_) {
        const IdInfo& i = ids_[id];
        if (i.op == spv::OpTypeStruct && globals_[i.at] >> 16 == 4 && globals_[i.at + 2] == type0
            && globals_[i.at + 3] == type1)
            return id;
    }
    return makeStructType({type0, type1}, "ResType");
}

spv::Id Builder::makePointer(spv::StorageClass storage, spv::Id pointee)
{
    spv::Id& id = pointers_[uint64_t(storage) << 32 | pointee];
    if (!id) {
        id = emit_type(spv::OpTypePointer, {uint32_t(storage), pointee}, false); // pointers_ is its index
        info(id).storage = uint16_t(storage);
    }
    return id;
}

spv::Id Builder::makeFunctionType(spv::Id return_type, const ScratchVector<spv::Id>& params)
{
    if (params.empty())
        return emit_type(spv::OpTypeFunction, {return_type});
    named_by_global(return_type);
    for (spv::Id param : params)
        named_by_global(param);
    spv::Id id = getUniqueId();
    size_t at = globals_.size();
    uint32_t* w = emit(globals_, spv::OpTypeFunction, uint32_t(params.size()) + 3);
    w[0] = id;
    w[1] = return_type;
    std::copy(params.begin(), params.end(), w + 2);
    IdInfo& i = info(id);
    i.op = spv::OpTypeFunction;
    i.at = uint32_t(at);
    return id;
}

spv::Id Builder::makeImageType(spv::Id sampled_type, spv::Dim dim, bool depth, bool arrayed, bool ms,
    unsigned sampled, spv::ImageFormat format)
{
    return emit_type(spv::OpTypeImage, {sampled_type, uint32_t(dim), depth ? 1u : 0u, arrayed ? 1u : 0u,
        ms ? 1u : 0u, sampled, uint32_t(format)});
}

spv::Id Builder::makeSamplerType()
{
    return emit_type(spv::OpTypeSampler, {});
}

spv::Id Builder::makeSampledImageType(spv::Id image_type)
{
    return emit_type(spv::OpTypeSampledImage, {image_type});
}

// ---- constants ----

spv::Id Builder::makeBoolConstant(bool value)
{
    spv::Id& c = value ? true_ : false_;
    if (!c) {
        spv::Id type = makeBoolType();
        c = getUniqueId();
        uint32_t* w = emit(globals_, value ? spv::OpConstantTrue : spv::OpConstantFalse, 3);
        w[0] = type;
        w[1] = c;
        info(c).type = type;
        info(c).op = uint16_t(value ? spv::OpConstantTrue : spv::OpConstantFalse);
        info(c).at = uint32_t(w - 1 - globals_.data());
        named_by_global(type);
        removable_.push_back(c);
    }
    return c;
}

spv::Id Builder::makeUintConstant(uint32_t value, bool spec_constant)
{
    if (!spec_constant)
        return make_scalar_constant(makeUintType(32), value, false);
    spv::Id type = makeUintType(32);
    spv::Id id = getUniqueId();
    uint32_t* w = emit(globals_, spv::OpSpecConstant, 4);
    w[0] = type;
    w[1] = id;
    w[2] = value;
    info(id).type = type;
    info(id).op = spv::OpSpecConstant;
    named_by_global(type);
    return id;
}

/// A global `op` (OpConstantNull, OpUndef) of `type`, one per type (`made`
/// lists those made).
spv::Id Builder::typed_global(spv::Op op, spv::Id type, ScratchVector<spv::Id>& made)
{
    for (spv::Id id : made)
        if (ids_[id].type == type)
            return id;
    spv::Id id = getUniqueId();
    uint32_t* w = emit(globals_, op, 3);
    w[0] = type;
    w[1] = id;
    info(id).type = type;
    info(id).op = uint16_t(op);
    info(id).at = uint32_t(w - 1 - globals_.data());
    named_by_global(type);
    made.push_back(id);
    removable_.push_back(id);
    return id;
}

spv::Id Builder::makeNullConstant(spv::Id type)
{
    return typed_global(spv::OpConstantNull, type, nulls_);
}

spv::Id Builder::make_scalar_constant(spv::Id type, uint64_t bits, bool wide)
{
    spv::Id id = getUniqueId();
    uint32_t* w = emit(globals_, spv::OpConstant, wide ? 5 : 4);
    w[0] = type;
    w[1] = id;
    w[2] = uint32_t(bits);
    if (wide)
        w[3] = uint32_t(bits >> 32);
    info(id).type = type;
    info(id).op = spv::OpConstant;
    named_by_global(type);
    info(id).at = uint32_t(w - 1 - globals_.data());
    removable_.push_back(id);
    return id;
}

spv::Id Builder::make_composite_constant(spv::Id type, const spv::Id* parts, uint32_t count)
{
    spv::Id id = getUniqueId();
    uint32_t* w = emit(globals_, spv::OpConstantComposite, count + 3);
    w[0] = type;
    w[1] = id;
    std::copy(parts, parts + count, w + 2);
    named_by_global(type);
    for (uint32_t k = 0; k < count; ++k)
        named_by_global(parts[k]);
    info(id).type = type;
    info(id).op = spv::OpConstantComposite;
    info(id).at = uint32_t(w - 1 - globals_.data());
    removable_.push_back(id);
    return id;
}

// ---- queries ----

spv::Id Builder::bitcast_source(spv::Id id) const
{
    return id < ids_.size() && ids_[id].op == spv::OpBitcast ? ids_[id].at : 0;
}

bool Builder::constant_word(spv::Id id, uint32_t& bits) const
{
    if (id >= ids_.size() || ids_[id].op != spv::OpConstant || globals_[ids_[id].at] >> 16 != 4)
        return false;
    bits = globals_[ids_[id].at + 3];
    return true;
}

bool Builder::constant_words(spv::Id id, uint32_t (&bits)[4], uint32_t& count) const
{
    if (id >= ids_.size() || ids_[id].op != spv::OpConstantComposite)
        return false;
    const uint32_t* w = globals_.data() + ids_[id].at;
    count = (w[0] >> 16) - 3;
    if (count > 4)
        return false;
    for (uint32_t i = 0; i < count; ++i)
        if (!constant_word(w[3 + i], bits[i]))
            return false;
    return true;
}

} // namespace dxspv::spirv
