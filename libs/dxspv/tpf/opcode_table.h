// The TPF opcode table: for every SM4.0-5.1 opcode number, the VSIR opcode it
// becomes, how it is read and the data type of each operand slot (VSIR.md
// convention 1). Private to tpf/.
#pragma once

#include <cstdint>

#include "vsir/ir.h"

namespace dxspv::tpf {

/// How the reader handles an opcode.
enum class Handling : uint8_t {
    unknown,      ///< reserved or undefined number
    instruction,  ///< operands described by the slot types below
    declaration,  ///< payload read by declarations.cpp
    custom_data,  ///< custom data block (own length token)
    interface,    ///< class linkage: refused
};

/// Data type of one operand slot.
enum class Slot : uint8_t {
    f32,
    i32,
    u32,
    f64,
    value,  ///< the declared return type of the instruction's resource (f32 if unknown)
    any,    ///< resource, sampler, UAV, TGSM, label or stream operand: typed opaque
};

struct OpcodeEntry {
    vsir::Opcode op = vsir::Opcode::nop;
    Handling handling = Handling::unknown;
    uint8_t dst_count = 0;
    uint8_t src_count = 0;
    Slot dst[2] = {};
    Slot src[6] = {};
    bool value_slots = false; ///< a dst or src slot is Slot::value
};

/// The entry for TPF opcode number `number`; its handling is
/// Handling::unknown for undefined numbers.
const OpcodeEntry& opcode_entry(uint32_t number);

/// VSIR data type of a non-resource slot.
constexpr vsir::DataType slot_type(Slot slot)
{
    switch (slot) {
    case Slot::f32: return vsir::DataType::f32;
    case Slot::i32: return vsir::DataType::i32;
    case Slot::u32: return vsir::DataType::u32;
    case Slot::f64: return vsir::DataType::f64;
    case Slot::value: return vsir::DataType::f32;
    case Slot::any: return vsir::DataType::opaque;
    }
    return vsir::DataType::none;
}

/// Reverse lookup: the TPF opcode number of a VSIR opcode the table maps
/// (instructions and declarations), or op_count when TPF has none
/// (dcl_immediateConstantBuffer is custom data; DXIL-only opcodes).
uint32_t tpf_opcode_number(vsir::Opcode op);

/// The entry of a VSIR opcode (Handling::unknown when tpf_opcode_number has none).
const OpcodeEntry& opcode_entry_of(vsir::Opcode op);

/// D3D10_SB_RESOURCE_RETURN_TYPE code of a VSIR return type (none: 0).
uint32_t return_type_code(vsir::DataType type);

/// Type a typed load from a resource of declared return type `type` gives
/// (VSIR.md, "What the TPF front end adds").
vsir::DataType value_type_of_return_type(vsir::DataType type);

} // namespace dxspv::tpf
