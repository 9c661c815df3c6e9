// DXIL lowering: SM 6.6 descriptor heaps. createHandleFromHeap(index,
// samplerHeap, nonUniform) gives a handle whose type only annotateHandle's
// resource properties tell. Every distinct type read through a heap is
// declared as an unbounded range at register 0 of DXSPV_RESOURCE_HEAP_SPACE
// or DXSPV_SAMPLER_HEAP_SPACE (include/dxspv/dxspv.h), and the heap index
// becomes the register index in that range.
//
// Resource properties (two i32): word 0 bits 0-7 the resource kind, bit 12
// UAV, bit 13 rasterizer ordered, bit 14 globally coherent, bit 15 sampler
// comparison or UAV counter; word 1 the component type (bits 0-7) for typed
// resources, the stride for structured buffers, the size for constant
// buffers.
#include "dxil/lower/context.h"

#include "dxspv/dxspv.h"

namespace dxspv::dxil::lower {

using ops::OpId;

/// Whether `inst` is a call of the dx.op `op`.
bool Lowerer::is_dx_op(const Instruction& inst, OpId op) const
{
    uint32_t code = 0;
    return dx_op_code(inst, code) && code == uint32_t(op);
}

/// Finds the dx.op calls of the defined functions, in order.
void Lowerer::collect_dx_op_calls()
{
    dx_op_calls_.clear();
    for (const Function& fn : m_.functions) {
        if (fn.is_declaration)
            continue;
        fn_ = &fn; // function-local constants (the opcodes) resolve through fn_
        for (const Instruction& inst : fn.instructions) {
            uint32_t code = 0;
            if (dx_op_code(inst, code))
                dx_op_calls_.push_back({&fn, &inst, code});
        }
    }
    fn_ = nullptr;
}

/// Reads the two words of an annotateHandle properties constant.
bool Lowerer::heap_properties(ValueId props, uint32_t& p0, uint32_t& p1) const
{
    const Constant* c = constant_of(props);
    if (c && c->kind == ConstantKind::null) {
        p0 = p1 = 0;
        return true;
    }
    return c && c->kind == ConstantKind::aggregate && c->operands.size() >= 2 && constant_u32(c->operands[0], p0) &&
           constant_u32(c->operands[1], p1);
}

/// Declares a heap range for every distinct resource type that the
/// functions annotate on a createHandleFromHeap handle.
void Lowerer::declare_heap_ranges()
{
    for (const DxOpCall& call : dx_op_calls_) {
        const Instruction& inst = *call.inst;
        if (call.code != uint32_t(OpId::AnnotateHandle) || inst.operands.size() < 4)
            continue;
        const Function& fn = *call.fn;
        fn_ = &fn;
        ValueId h = inst.operands[2];
        size_t local = h - m_.values.size();
        if (h < m_.values.size() || local >= fn.values.size() ||
            fn.values[local].kind != LocalValue::Kind::instruction ||
            fn.values[local].index >= fn.instructions.size() ||
            !is_dx_op(fn.instructions[fn.values[local].index], OpId::CreateHandleFromHeap))
            continue;
        uint32_t p0 = 0, p1 = 0;
        if (heap_properties(inst.operands[3], p0, p1))
            heap_range(p0, p1);
    }
    fn_ = nullptr;
}

/// The heap range declared for these properties, or ~0u.
const Lowerer::HeapRange* Lowerer::find_heap_range(uint32_t p0, uint32_t p1) const
{
    for (const HeapRange& r : heap_ranges_)
        if (r.p0 == p0 && r.p1 == p1)
            return &r;
    return nullptr;
}

/// Declares the heap range for these properties (in the declaration part of
/// the program, before any code); ~0u for kinds that cannot be declared.
uint32_t Lowerer::heap_range(uint32_t p0, uint32_t p1)
{
    if (const HeapRange* r = find_heap_range(p0, p1))
        return r->range_id;
    uint32_t kind = p0 & 0xff;
    bool uav = (p0 >> 12) & 1;
    ResourceClass cls = kind == 14 ? ResourceClass::sampler
                        : kind == 13 ? ResourceClass::cbv
                        : uav        ? ResourceClass::uav
                                     : ResourceClass::srv;
    if ((kind == 0 || kind > 14) || heap_bindings_.size() >= 256)
        return ~0u;
    auto& list = resources_[uint32_t(cls)];
    ResourceBinding& b = heap_bindings_.emplace_back();
    b.resource_class = cls;
    b.id = uint32_t(list.size());
    list.push_back(&b);
    b.space = cls == ResourceClass::sampler ? DXSPV_SAMPLER_HEAP_SPACE : DXSPV_RESOURCE_HEAP_SPACE;
    b.lower_bound = 0;
    b.range_size = 0xFFFFFFFFu;
    b.kind = cls == ResourceClass::sampler ? ((p0 >> 15) & 1) : kind;
    b.globally_coherent = (p0 >> 14) & 1;
    b.rasterizer_ordered = (p0 >> 13) & 1;
    b.has_counter = uav && ((p0 >> 15) & 1);
    b.cbuffer_size = cls == ResourceClass::cbv ? p1 : 0;
    b.element_type = p1 & 0xff;
    b.stride = kind == 12 ? p1 : 0;
    declare_resource(b);
    heap_ranges_.push_back({p0, p1, b.id, file_of_class(cls)});
    return b.id;
}

} // namespace dxspv::dxil::lower
