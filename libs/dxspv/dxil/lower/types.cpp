// DXIL lowering: LLVM types → VSIR data types and memory layout counts.
//
// Without native low precision (shader flag bit 23), `half` and `i16` are
// minimum-precision types that may be computed at 32 bits: they become f32
// and i32. With it they stay 16-bit.
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

DataType Lowerer::data_type(TypeId t) const
{
    if (t >= m_.types.size())
        return DataType::none;
    const Type& ty = m_.types[t];
    if (ty.kind == TypeKind::vector) // native vectors: the element type (lowered per element)
        return ty.element < m_.types.size() && m_.types[ty.element].kind != TypeKind::vector ? data_type(ty.element)
                                                                                             : DataType::none;
    switch (ty.kind) {
    case TypeKind::half: return native_16bit_ ? DataType::f16 : DataType::f32;
    case TypeKind::float_: return DataType::f32;
    case TypeKind::double_: return DataType::f64;
    case TypeKind::integer:
        switch (ty.width) {
        case 1: return DataType::boolean;
        case 8: return DataType::u32; // only in op arguments (i8 immediates) and i8 pointers
        case 16: return native_16bit_ ? DataType::u16 : DataType::u32;
        case 32: return DataType::u32;
        case 64: return DataType::u64;
        default: return DataType::none;
        }
    default: return DataType::none;
    }
}

uint32_t Lowerer::leaf_count(TypeId t) const
{
    // Recursion depth is bounded by the reader's type depth check; the
    // cache keeps shared member types from being walked more than once.
    if (t >= m_.types.size())
        return 0;
    if (leaf_cache_.size() != m_.types.size())
        leaf_cache_.assign(m_.types.size(), ~0u);
    if (leaf_cache_[t] == ~0u)
        leaf_cache_[t] = leaf_count_uncached(t);
    return leaf_cache_[t];
}

uint32_t Lowerer::leaf_count_uncached(TypeId t) const
{
    const Type& ty = m_.types[t];
    switch (ty.kind) {
    case TypeKind::array:
    case TypeKind::vector: {
        uint64_t n = ty.count * uint64_t(leaf_count(ty.element));
        return n > (1u << 24) ? (1u << 24) : uint32_t(n);
    }
    case TypeKind::struct_: {
        uint64_t n = 0;
        for (TypeId m : ty.members)
            n += leaf_count(m);
        return n > (1u << 24) ? (1u << 24) : uint32_t(n);
    }
    case TypeKind::half:
    case TypeKind::float_:
    case TypeKind::double_:
    case TypeKind::integer: return 1;
    default: return 0;
    }
}

uint32_t Lowerer::word_count(TypeId t) const
{
    if (t >= m_.types.size())
        return 0;
    if (word_cache_.size() != m_.types.size())
        word_cache_.assign(m_.types.size(), ~0u);
    if (word_cache_[t] == ~0u)
        word_cache_[t] = word_count_uncached(t);
    return word_cache_[t];
}

uint32_t Lowerer::word_count_uncached(TypeId t) const
{
    const Type& ty = m_.types[t];
    switch (ty.kind) {
    case TypeKind::array:
    case TypeKind::vector: {
        uint64_t n = ty.count * uint64_t(word_count(ty.element));
        return n > (1u << 24) ? (1u << 24) : uint32_t(n);
    }
    case TypeKind::struct_: {
        uint64_t n = 0;
        for (TypeId m : ty.members)
            n += word_count(m);
        return n > (1u << 24) ? (1u << 24) : uint32_t(n);
    }
    case TypeKind::double_: return 2;
    case TypeKind::integer: return ty.width == 64 ? 2 : 1;
    case TypeKind::half:
    case TypeKind::float_: return 1;
    default: return 0;
    }
}

namespace {

uint32_t half_to_float_bits(uint32_t h)
{
    uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 31, man = h & 1023;
    if (exp == 0 && man == 0)
        return sign << 31;
    if (exp == 31)
        return (sign << 31) | 0x7f800000u | (man << 13);
    if (exp == 0) { // subnormal half: normalise
        int e = 0;
        while (!(man & 1024)) {
            man <<= 1;
            ++e;
        }
        return (sign << 31) | uint32_t(127 - 15 + 1 - e) << 23 | ((man & 1023) << 13);
    }
    return (sign << 31) | ((exp + 112) << 23) | (man << 13);
}

} // namespace

uint64_t Lowerer::constant_bits(TypeId t, uint64_t bits) const
{
    if (t >= m_.types.size())
        return bits;
    const Type& ty = m_.types[t];
    if (ty.kind == TypeKind::half && !native_16bit_)
        return half_to_float_bits(uint32_t(bits) & 0xffff);
    if (ty.kind == TypeKind::integer && ty.width == 16)
        return native_16bit_ ? (bits & 0xffff) : uint64_t(uint32_t(int32_t(int16_t(uint16_t(bits)))));
    if (ty.kind == TypeKind::integer && ty.width == 1)
        return bits & 1;
    if (ty.kind == TypeKind::integer && ty.width == 8)
        return bits & 0xff;
    if (ty.kind == TypeKind::integer && ty.width == 32)
        return bits & 0xffffffffu;
    return bits;
}

} // namespace dxspv::dxil::lower
