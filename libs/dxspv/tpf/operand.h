// The TPF operand decoder: operand tokens, extended operand tokens, register
// indices (immediate, relative, immediate + relative) and immediate values,
// into VSIR registers following VSIR.md conventions 1-4. Private to tpf/.
#pragma once

#include <cstdint>

#include "tpf/context.h"
#include "vsir/ir.h"

namespace dxspv::tpf {

/// One decoded operand before it becomes a source or a destination.
struct Operand {
    // From reg to token_flags in the order of vsir::SrcParam: set_src
    // copies them as one block.
    vsir::Register reg;
    uint8_t swizzle = vsir::swizzle_identity;
    vsir::SrcModifier modifier = vsir::SrcModifier::none;
    vsir::OperandForm form = vsir::OperandForm::unspecified; ///< as encoded
    uint8_t raw_mask = 0;    ///< the token's mask (mask form)
    uint8_t token_flags = 0; ///< vsir::OperandTokenFlags
    uint8_t mask = 0;        ///< write mask (destinations)
    uint8_t tpf_type = 0;    ///< OperandType
    uint8_t components = 0;  ///< ComponentCount
    bool opaque = false;     ///< resource-like register (is_opaque_file)
};

/// How descriptor registers (t, u, s, cb) are indexed.
enum class DescriptorForm : uint8_t {
    instruction, ///< rewrite to the SM5.1 form (VSIR.md convention 3)
    raw,         ///< leave the indices as encoded (declarations rewrite them)
};

/// Decodes the operand at the cursor. `type` is the slot's data type;
/// registers of resource-like files are typed opaque whatever the slot.
/// Reports a diagnostic and returns false on malformed input.
bool read_operand(Context& ctx, Cursor& cur, vsir::DataType type, DescriptorForm form, Operand& out);

/// Decodes a source or destination operand of an instruction (descriptors
/// in the instruction form; read_dst refuses the files a destination
/// cannot have). The caller makes the parameter with set_src or set_dst
/// once the operand is decoded: decoding appends the sources of relative
/// addresses to the program, which may move its pools.
bool read_src(Context& ctx, Cursor& cur, vsir::DataType type, Operand& out);
bool read_dst(Context& ctx, Cursor& cur, vsir::DataType type, Operand& out);

/// Makes `src` (`dst`) the parameter of a decoded operand, field by field
/// into the pool's element (building a parameter to copy in costs more).
inline void set_src(vsir::SrcParam& src, const Operand& op)
{
    src.reg = op.reg;
    src.swizzle = op.swizzle;
    src.modifier = op.modifier;
    src.form = op.form;
    src.form_mask = op.raw_mask;
    src.token_flags = op.token_flags;
}

inline void set_dst(vsir::DstParam& dst, const Operand& op)
{
    dst.reg = op.reg;
    dst.write_mask = op.mask;
    dst.modifiers = 0;
    dst.form = op.form;
    dst.token_flags = op.token_flags;
}

inline vsir::SrcParam src_param(const Operand& op)
{
    vsir::SrcParam src;
    set_src(src, op);
    return src;
}

/// True for register files whose operands carry no components (resources,
/// samplers, UAVs, TGSM, labels, streams): VSIR dimension none, type opaque.
bool is_opaque_file(vsir::RegisterFile file);

} // namespace dxspv::tpf
