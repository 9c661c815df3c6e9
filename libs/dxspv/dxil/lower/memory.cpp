// DXIL lowering: memory that is not a resource.
//
// - Private memory (allocas, static globals in address space 0) becomes an
//   indexable temp `x#` with one element per scalar leaf of the allocated
//   type (32-bit leaves in .x, 64-bit ones in .xy). Pointers count leaves.
// - Group-shared globals (address space 3) become raw TGSM `g#`, one 32-bit
//   word per 32-bit leaf and two per 64-bit leaf. Pointers count words;
//   accesses use byte offsets (ld_raw / store_raw / imm_atomic_*). Atomics
//   on i64 leaves (8-byte aligned) have u64 values; the emitter then makes
//   that memory an array of 64-bit words.
// A pointer Operand is (object, constant offset, optional dynamic offset);
// GEPs add to it, loads and stores read and write one scalar leaf.
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;

// Memory bounds: one private array at most the emitter's indexable-temp
// size; all private and group-shared memory together at most a budget, so
// that a few bytes of bitcode cannot become millions of initialising stores.
constexpr uint32_t max_object_units = 1u << 16, max_total_units = 1u << 17;

} // namespace

bool Lowerer::reserve_memory(uint32_t units, const char* what)
{
    if (units && units <= max_object_units && memory_units_ + units <= max_total_units) {
        memory_units_ += units;
        return true;
    }
    if (units)
        error(Code::dxil_lower_limit, "%s of %u elements exceeds the limits (%u per array, %u in all)", what, units,
              max_object_units, max_total_units);
    return false;
}

void Lowerer::declare_global_memory()
{
    globals_.assign(m_.globals.size(), MemoryObject{});
    for (uint32_t g = 0; g < m_.globals.size(); ++g) {
        const GlobalVariable& gv = m_.globals[g];
        if (gv.address_space != 0 && gv.address_space != 3)
            continue;
        // Resource symbols are external declarations; data globals of the
        // shader are internal (static) or group-shared.
        if (gv.address_space == 0 && gv.linkage != Linkage::internal && gv.linkage != Linkage::private_)
            continue;
        // Resource symbols (dx.resources' globals) are never loaded from in
        // DXIL proper; only data globals become memory.
        uint32_t leaves = leaf_count(gv.value_type), words = word_count(gv.value_type);
        if (!reserve_memory(gv.address_space == 3 ? words : leaves, "a global array"))
            continue;
        MemoryObject& obj = globals_[g];
        if (gv.address_space == 3) {
            obj.space = MemorySpace::groupshared;
            obj.reg = tgsm_count_++;
            obj.leaves = words;
            uint32_t i = p_.add_instruction(Opcode::dcl_tgsm_raw, 1, 0);
            vsir::Declaration& d = p_.add_declaration(i);
            d.byte_count = words * 4;
            d.index = obj.reg;
            vsir::DstParam& dst = p_.dsts[p_.instructions[i].dst_first];
            dst.reg = vsir::make_register(RegisterFile::groupshared, DataType::opaque, vsir::Dimension::none,
                                          std::span<const uint32_t>(&obj.reg, 1));
        } else {
            obj.space = MemorySpace::private_array;
            obj.reg = indexable_count_++;
            obj.leaves = leaves;
            uint32_t i = p_.add_instruction(Opcode::dcl_indexable_temp, 0, 0);
            vsir::Declaration& d = p_.add_declaration(i);
            d.index = obj.reg;
            d.count = leaves;
            d.component_count = words > leaves ? 2 : 1;
        }
    }
}

void Lowerer::lower_alloca(const Instruction& inst)
{
    TypeId t = inst.aux_type;
    uint32_t leaves = leaf_count(t), words = word_count(t);
    if (!leaves) {
        unsupported("alloca of", "this type");
        return;
    }
    if (!reserve_memory(leaves, "an alloca"))
        return;
    uint32_t reg = indexable_count_++;
    uint32_t i = p_.add_instruction(Opcode::dcl_indexable_temp, 0, 0, inst_index_);
    vsir::Declaration& d = p_.add_declaration(i);
    d.index = reg;
    d.count = leaves;
    d.component_count = words > leaves ? 2 : 1;
    Operand& op = define(inst.result);
    op = {};
    op.kind = Operand::Kind::pointer;
    op.space = MemorySpace::private_array;
    op.object = reg;
    op.pointee = t;
}

/// The pointer Operand of a global, a constant GEP / cast expression, or an
/// instruction result.
bool Lowerer::pointer_operand(ValueId id, Operand& out)
{
    if (id < m_.values.size() && m_.values[id].kind == ModuleValue::Kind::global) {
        const ModuleValue& mv = m_.values[id];
        if (mv.index >= globals_.size() || globals_[mv.index].space == MemorySpace::none)
            return false;
        const MemoryObject& obj = globals_[mv.index];
        out = {};
        out.kind = Operand::Kind::pointer;
        out.space = obj.space;
        out.object = obj.reg;
        out.pointee = m_.globals[mv.index].value_type;
        return true;
    }
    // Constant expressions (bitcast, getelementptr of a global), module-level
    // or local to the function (as the .ll reader and DXC's bitcode put them).
    if (const Constant* cp = constant_of(id)) {
        const Constant& c = *cp;
        if (c.operands.empty())
            return false;
        if (++pointer_depth_ > 16) {
            --pointer_depth_;
            return false;
        }
        bool ok = pointer_operand(c.operands[0], out);
        --pointer_depth_;
        if (!ok)
            return false;
        if (c.kind == ConstantKind::cast) {
            if (c.type < m_.types.size() && type(c.type).kind == TypeKind::pointer)
                out.pointee = type(c.type).element;
            return true;
        }
        if (c.kind == ConstantKind::gep)
            return apply_gep(out, c.operands.subspan(1));
        return false;
    }
    if (id < m_.values.size())
        return false;
    const Operand& op = operand(id);
    if (op.kind != Operand::Kind::pointer)
        return false;
    out = op;
    return true;
}

/// Adds GEP indices to a pointer: the first steps over whole pointees, the
/// rest select struct members (constant) or array elements (any value).
bool Lowerer::apply_gep(Operand& ptr, std::span<const uint32_t> indices)
{
    bool words = ptr.space == MemorySpace::groupshared;
    auto units = [&](TypeId t) { return words ? word_count(t) : leaf_count(t); };
    TypeId t = ptr.pointee;
    for (size_t i = 0; i < indices.size(); ++i) {
        uint32_t stride = 0;
        TypeId next = t;
        if (i == 0) {
            stride = units(t);
        } else if (t < m_.types.size() && type(t).kind == TypeKind::struct_) {
            uint32_t k = 0;
            if (!constant_u32(indices[i], k) || k >= type(t).members.size())
                return false;
            for (uint32_t j = 0; j < k; ++j)
                ptr.element_offset += units(type(t).members[j]);
            t = type(t).members[k];
            continue;
        } else if (t < m_.types.size() && (type(t).kind == TypeKind::array || type(t).kind == TypeKind::vector)) {
            next = type(t).element;
            stride = units(next);
        } else {
            return false;
        }
        uint32_t k = 0;
        if (constant_u32(indices[i], k)) {
            ptr.element_offset += k * stride;
        } else {
            vsir::SrcParam idx = src(indices[i], DataType::i32);
            vsir::SrcParam sum;
            if (ptr.dynamic_src == ~0u && stride == 1)
                sum = idx;
            else if (ptr.dynamic_src == ~0u)
                emit(Opcode::imul, {vsir::DstParam{}, temp_ssa(DataType::i32, sum)},
                     {idx, immediate(DataType::i32, stride)});
            else
                emit(Opcode::imad, {temp_ssa(DataType::i32, sum)},
                     {idx, immediate(DataType::i32, stride), p_.srcs[ptr.dynamic_src]});
            sum.reg.type = DataType::u32;
            ptr.dynamic_src = p_.add_src(sum);
        }
        t = next;
    }
    ptr.pointee = t;
    return true;
}

void Lowerer::lower_gep(const Instruction& inst)
{
    Operand ptr;
    if (inst.operands.empty() || !pointer_operand(inst.operands[0], ptr)) {
        unsupported("getelementptr on", "this pointer");
        return;
    }
    if (!apply_gep(ptr, inst.operands.subspan(1))) {
        unsupported("getelementptr with", "these indices");
        return;
    }
    define(inst.result) = ptr;
}

/// The register an access through `ptr` reads or writes: x#[offset + dyn].
vsir::Register Lowerer::private_register(const Operand& ptr, DataType type)
{
    vsir::Register r;
    r.file = RegisterFile::indexable_temp;
    r.type = type;
    r.dimension = vsir::Dimension::vec4;
    r.index_count = 2;
    r.idx[0].offset = ptr.object;
    r.idx[1].offset = ptr.element_offset;
    r.idx[1].rel_addr = ptr.dynamic_src;
    return r;
}

/// The byte address of `ptr` in its TGSM object, as a u32 source.
vsir::SrcParam Lowerer::byte_address(const Operand& ptr, uint32_t extra_words)
{
    uint32_t constant = (ptr.element_offset + extra_words) * 4;
    if (ptr.dynamic_src == ~0u)
        return immediate(DataType::u32, constant);
    vsir::SrcParam out;
    emit(Opcode::imad, {temp_ssa(DataType::i32, out)},
         {p_.srcs[ptr.dynamic_src], immediate(DataType::i32, 4), immediate(DataType::i32, constant)});
    out.reg.type = DataType::u32;
    return out;
}

vsir::SrcParam Lowerer::tgsm_operand(const Operand& ptr) const
{
    vsir::SrcParam g;
    g.reg = vsir::make_register(RegisterFile::groupshared, DataType::opaque, vsir::Dimension::none,
                                std::span<const uint32_t>(&ptr.object, 1));
    return g;
}

vsir::DstParam Lowerer::atomic_target(const vsir::Register& reg) const
{
    vsir::DstParam d;
    d.reg = reg;
    d.write_mask = 0x1;
    return d;
}

void Lowerer::lower_load(const Instruction& inst)
{
    Operand ptr;
    if (inst.operands.empty() || !pointer_operand(inst.operands[0], ptr)) {
        unsupported("load from", "this pointer");
        return;
    }
    if (is_vector(inst.type) && vector_lane_ < 0) {
        // A native vector: one load per element, consecutive slots.
        uint32_t n = vector_count(inst.type);
        TypeId et = type(inst.type).element;
        uint32_t stride = ptr.space == MemorySpace::groupshared ? word_count(et) : leaf_count(et);
        if (n > max_vector_elements)
            return;
        define(inst.result) = new_aggregate(n, data_type(et));
        Operand base = ptr;
        for (uint32_t k = 0; k < n; ++k) {
            vector_lane_ = int32_t(k);
            base.element_offset = ptr.element_offset + k * stride;
            load_scalar(inst, base, data_type(et));
        }
        vector_lane_ = -1;
        return;
    }
    load_scalar(inst, ptr, data_type(inst.type));
}

void Lowerer::load_scalar(const Instruction& inst, const Operand& ptr, DataType t)
{
    if (t == DataType::none) {
        unsupported("load of", "aggregates");
        return;
    }
    if (ptr.space == MemorySpace::private_array) {
        vsir::SrcParam s;
        s.reg = private_register(ptr, t);
        s.swizzle = is_64(t) ? vsir::make_swizzle(0, 1, 0, 1) : 0;
        emit(Opcode::mov, {new_ssa(inst.result, t)}, {s});
        return;
    }
    vsir::SrcParam g = tgsm_operand(ptr);
    if (!is_64(t)) {
        vsir::DstParam d = new_ssa(inst.result, DataType::u32);
        define(inst.result).type = t;
        emit(Opcode::ld_raw, {d}, {byte_address(ptr, 0), g});
        return;
    }
    vsir::SrcParam lo, hi;
    vsir::DstParam dl = temp_ssa(DataType::u32, lo), dh = temp_ssa(DataType::u32, hi);
    emit(Opcode::ld_raw, {dl}, {byte_address(ptr, 0), g});
    emit(Opcode::ld_raw, {dh}, {byte_address(ptr, 1), g});
    lo.reg.type = hi.reg.type = DataType::u32;
    emit(Opcode::pack64, {new_ssa(inst.result, t)}, {lo, hi});
}

void Lowerer::lower_store(const Instruction& inst)
{
    Operand ptr;
    if (inst.operands.size() < 2 || !pointer_operand(inst.operands[0], ptr)) {
        unsupported("store to", "this pointer");
        return;
    }
    ValueId value = inst.operands[1];
    if (is_vector(type_of(value))) {
        uint32_t n = vector_count(type_of(value));
        TypeId et = type(type_of(value)).element;
        uint32_t stride = ptr.space == MemorySpace::groupshared ? word_count(et) : leaf_count(et);
        Operand base = ptr;
        for (uint32_t k = 0; k < n && k < max_vector_elements; ++k) {
            vector_lane_ = int32_t(k);
            base.element_offset = ptr.element_offset + k * stride;
            store_scalar(base, value, data_type(et));
        }
        vector_lane_ = -1;
        return;
    }
    store_scalar(ptr, value, data_type(type_of(value)));
}

void Lowerer::store_scalar(const Operand& ptr, ValueId value, DataType t)
{
    if (t == DataType::none) {
        unsupported("store of", "aggregates");
        return;
    }
    if (ptr.space == MemorySpace::private_array) {
        vsir::DstParam d;
        d.reg = private_register(ptr, t);
        d.write_mask = is_64(t) ? 0x3 : 0x1;
        emit(Opcode::mov, {d}, {src(value, t)});
        return;
    }
    vsir::DstParam g;
    g.reg = tgsm_operand(ptr).reg;
    g.write_mask = 1;
    if (!is_64(t)) {
        emit(Opcode::store_raw, {g}, {byte_address(ptr, 0), src(value, DataType::u32)});
        return;
    }
    vsir::SrcParam lo, hi;
    emit(Opcode::unpack64, {temp_ssa(DataType::u32, lo), temp_ssa(DataType::u32, hi)}, {src(value, t)});
    emit(Opcode::store_raw, {g}, {byte_address(ptr, 0), lo});
    emit(Opcode::store_raw, {g}, {byte_address(ptr, 1), hi});
}

void Lowerer::lower_atomicrmw(const Instruction& inst)
{
    Operand ptr;
    if (inst.operands.size() < 2 || !pointer_operand(inst.operands[0], ptr) ||
        ptr.space != MemorySpace::groupshared) {
        unsupported("atomicrmw on", "memory other than groupshared");
        return;
    }
    DataType t = data_type(inst.type);
    if (t != DataType::u32 && t != DataType::u64) {
        unsupported("atomicrmw on", "values other than i32 and i64");
        return;
    }
    static const Opcode ops[] = {Opcode::imm_atomic_exch, Opcode::imm_atomic_iadd, Opcode::imm_atomic_iadd,
                                 Opcode::imm_atomic_and,  Opcode::nop,             Opcode::imm_atomic_or,
                                 Opcode::imm_atomic_xor,  Opcode::imm_atomic_imax, Opcode::imm_atomic_imin,
                                 Opcode::imm_atomic_umax, Opcode::imm_atomic_umin};
    if (inst.sub >= sizeof ops / sizeof ops[0] || ops[inst.sub] == Opcode::nop) {
        unsupported("atomicrmw", "nand");
        return;
    }
    Opcode op = ops[inst.sub];
    bool is_signed = op == Opcode::imm_atomic_imax || op == Opcode::imm_atomic_imin;
    DataType vt = is_signed ? signed_of(t) : t;
    vsir::SrcParam v = src(inst.operands[1], vt);
    if (inst.sub == 2)
        v.modifier = vsir::SrcModifier::neg;
    vsir::SrcParam addr = byte_address(ptr, 0);
    emit(op, {new_ssa(inst.result, vt), atomic_target(tgsm_operand(ptr).reg)}, {addr, v});
}

void Lowerer::lower_cmpxchg(const Instruction& inst)
{
    Operand ptr;
    if (inst.operands.size() < 3 || !pointer_operand(inst.operands[0], ptr) ||
        ptr.space != MemorySpace::groupshared) {
        unsupported("cmpxchg on", "memory other than groupshared");
        return;
    }
    DataType t = data_type(type_of(inst.operands[1]));
    if (t != DataType::u32 && t != DataType::u64) {
        unsupported("cmpxchg on", "values other than i32 and i64");
        return;
    }
    vsir::SrcParam old;
    vsir::SrcParam cmp = src(inst.operands[1], t);
    vsir::SrcParam address = byte_address(ptr, 0);
    emit(Opcode::imm_atomic_cmp_exch, {temp_ssa(t, old), atomic_target(tgsm_operand(ptr).reg)},
         {address, cmp, src(inst.operands[2], t)});
    old.reg.type = t;
    vsir::SrcParam ok;
    emit(Opcode::ieq, {temp_ssa(DataType::boolean, ok)}, {old, cmp});
    ok.reg.type = DataType::boolean;
    Operand a, b;
    a.kind = b.kind = Operand::Kind::src;
    a.type = t;
    a.src = old;
    b.type = DataType::boolean;
    b.src = ok;
    set_aggregate(inst.result, {a, b});
}

void Lowerer::initialize_globals()
{
    // Static globals with initializers: store each leaf at the start of the
    // entry function (constants only: data arrays, aggregates, scalars).
    for (uint32_t g = 0; g < m_.globals.size(); ++g) {
        const GlobalVariable& gv = m_.globals[g];
        if (globals_[g].space != MemorySpace::private_array || gv.initializer == no_id)
            continue;
        Operand ptr;
        ptr.kind = Operand::Kind::pointer;
        ptr.space = MemorySpace::private_array;
        ptr.object = globals_[g].reg;
        uint32_t leaf = 0;
        store_initializer(ptr, gv.value_type, gv.initializer, leaf, 0);
    }
}

void Lowerer::store_zeros(const Operand& base, uint32_t first, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i) {
        Operand p = base;
        p.element_offset = first + i;
        vsir::DstParam d;
        d.reg = private_register(p, DataType::u32);
        d.write_mask = 0x3; // both words: the leaf may be 64-bit
        vsir::SrcParam zero = immediate(DataType::u32, 0);
        zero.reg = vsir::make_immediate_vec4(DataType::u32, 0, 0, 0, 0);
        zero.swizzle = vsir::swizzle_identity;
        emit(Opcode::mov, {d}, {zero});
    }
}

void Lowerer::store_initializer(const Operand& base, TypeId t, ValueId value, uint32_t& leaf, unsigned depth)
{
    const Constant* c = constant_of(value);
    if (!c || depth > 32 || !leaf_count(t)) // no leaves: nothing to store, however many elements
        return;
    const Type& ty = type(t);
    if (ty.kind == TypeKind::array || ty.kind == TypeKind::vector || ty.kind == TypeKind::struct_) {
        uint32_t n = ty.kind == TypeKind::struct_ ? uint32_t(ty.members.size()) : uint32_t(ty.count);
        for (uint32_t i = 0; i < n; ++i) {
            TypeId et = ty.kind == TypeKind::struct_ ? ty.members[i] : ty.element;
            if (c->kind == ConstantKind::aggregate && i < c->operands.size()) {
                store_initializer(base, et, c->operands[i], leaf, depth + 1);
            } else if (c->kind == ConstantKind::data && i < c->data.size()) {
                DataType dt = data_type(et);
                vsir::DstParam d;
                Operand p = base;
                p.element_offset = leaf++;
                d.reg = private_register(p, dt);
                d.write_mask = is_64(dt) ? 0x3 : 0x1;
                uint64_t bits = constant_bits(et, c->data[i]);
                emit(Opcode::mov, {d}, {is_64(dt) ? immediate64(dt, bits) : immediate(dt, uint32_t(bits))});
            } else if (c->kind == ConstantKind::null) {
                store_zeros(base, leaf, leaf_count(et));
                leaf += leaf_count(et);
            } else {
                leaf += leaf_count(et); // undef: nothing to store
            }
        }
        return;
    }
    DataType dt = data_type(t);
    if (c->kind == ConstantKind::null) {
        store_zeros(base, leaf, 1);
    } else if (c->kind == ConstantKind::integer || c->kind == ConstantKind::float_) {
        Operand p = base;
        p.element_offset = leaf;
        vsir::DstParam d;
        d.reg = private_register(p, dt);
        d.write_mask = is_64(dt) ? 0x3 : 0x1;
        emit(Opcode::mov, {d}, {src(value, dt)});
    }
    ++leaf;
}

} // namespace dxspv::dxil::lower
