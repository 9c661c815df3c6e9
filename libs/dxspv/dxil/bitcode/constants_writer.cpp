// Module writer: CONSTANTS blocks (module level and inside functions).
// Operands are absolute value ids, as LLVM 3.7 writes them.
#include "dxil/bitcode/module_writer.h"

namespace dxspv::dxil::bitcode {

namespace {

enum : uint32_t {
    cst_settype = 1, cst_null = 2, cst_undef = 3, cst_integer = 4, cst_float = 6, cst_aggregate = 7,
    cst_string = 8, cst_cstring = 9, cst_ce_binop = 10, cst_ce_cast = 11, cst_ce_gep = 12, cst_ce_select = 13,
    cst_ce_extractelt = 14, cst_ce_insertelt = 15, cst_ce_shufflevec = 16, cst_ce_cmp = 17,
    cst_ce_inbounds_gep = 20, cst_data = 22
};

int64_t sign_extend(uint64_t v, uint32_t width)
{
    if (width == 0 || width >= 64)
        return int64_t(v);
    return int64_t(v << (64 - width)) >> (64 - width);
}

uint64_t element_mask(const Type& t)
{
    uint32_t width = t.kind == TypeKind::integer ? t.width
        : t.kind == TypeKind::half               ? 16
        : t.kind == TypeKind::float_             ? 32
                                                 : 64;
    return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

} // namespace

bool ModuleWriter::constant_record(const Constant& c, uint32_t& code, uint32_t& abbrev)
{
    const Type& t = m_.types[c.type];
    abbrev = 0;
    ops_.clear();
    auto push_id = [&](ValueId id) {
        uint32_t v = 0;
        if (!value_id(id, v))
            return fail(Code::dxil_write_inconsistent, "a constant refers to value %u, which is out of range", id);
        ops_.push_back(v);
        return true;
    };
    auto push_type_of = [&](ValueId id, TypeId known) {
        TypeId ty = known != no_id ? known : type_of(id);
        if (ty == no_id || !type_ok(ty, "constant operand"))
            return fail(Code::dxil_write_inconsistent, "a constant operand %u has no type", id);
        ops_.push_back(type(ty));
        return true;
    };
    auto need = [&](size_t n) {
        if (c.operands.size() == n)
            return true;
        return fail(Code::dxil_write_inconsistent, "a constant expression has %zu operands, needs %zu",
                    c.operands.size(), n);
    };
    switch (c.kind) {
    case ConstantKind::null: code = cst_null; return true; // LLVM defines an abbreviation but never uses it
    case ConstantKind::undef: code = cst_undef; return true;
    case ConstantKind::integer:
        if (t.kind != TypeKind::integer)
            return fail(Code::dxil_write_inconsistent, "an integer constant of a non-integer type");
        code = cst_integer;
        abbrev = abbrev_cst_integer;
        ops_.push_back(encode_signed(sign_extend(c.value, t.width)));
        return true;
    case ConstantKind::float_:
        code = cst_float;
        ops_.push_back(c.value & element_mask(t));
        return true;
    case ConstantKind::aggregate:
        code = cst_aggregate;
        abbrev = abbrev_cst_aggregate;
        for (ValueId id : c.operands)
            if (!push_id(id))
                return false;
        return true;
    case ConstantKind::string:
    case ConstantKind::data: {
        if ((t.kind != TypeKind::array && t.kind != TypeKind::vector) || t.element >= m_.types.size())
            return fail(Code::dxil_write_inconsistent, "a data constant of a non-array type");
        const Type& elem = m_.types[t.element];
        uint64_t mask = element_mask(elem);
        bool i8 = elem.kind == TypeKind::integer && elem.width == 8;
        code = cst_data;
        size_t n = c.data.size();
        if (c.kind == ConstantKind::string && i8) {
            // A C string: one NUL, at the end.
            size_t zeros = 0;
            for (uint64_t v : c.data)
                zeros += (v & 0xFF) == 0;
            bool cstring = n > 0 && (c.data[n - 1] & 0xFF) == 0 && zeros == 1;
            code = cstring ? cst_cstring : cst_string;
            n -= cstring ? 1 : 0;
            bool is7 = cstring, is6 = cstring;
            for (size_t i = 0; i < n; ++i) {
                uint8_t ch = uint8_t(c.data[i]);
                is7 = is7 && ch < 128;
                is6 = is6 && encode_char6(ch) >= 0;
            }
            abbrev = is6 ? abbrev_cst_cstring6 : is7 ? abbrev_cst_cstring7 : cstring ? 0u : uint32_t(abbrev_cst_string);
        }
        for (size_t i = 0; i < n; ++i)
            ops_.push_back(c.data[i] & mask);
        return true;
    }
    case ConstantKind::cast:
        if (!need(1))
            return false;
        code = cst_ce_cast;
        abbrev = abbrev_cst_cast;
        ops_.push_back(c.opcode);
        return push_type_of(c.operands[0], c.source_type) && push_id(c.operands[0]);
    case ConstantKind::binop:
        if (!need(2))
            return false;
        code = cst_ce_binop;
        ops_.push_back(c.opcode);
        if (!push_id(c.operands[0]) || !push_id(c.operands[1]))
            return false;
        if (c.flags)
            ops_.push_back(c.flags);
        return true;
    case ConstantKind::gep:
        if (c.operands.empty() || c.source_type == no_id || !type_ok(c.source_type, "constant GEP"))
            return fail(Code::dxil_write_inconsistent, "a constant GEP without base or source element type");
        code = (c.flags & 1) ? cst_ce_inbounds_gep : cst_ce_gep;
        ops_.push_back(type(c.source_type));
        for (ValueId id : c.operands)
            if (!push_type_of(id, no_id) || !push_id(id))
                return false;
        return true;
    case ConstantKind::select:
        if (!need(3))
            return false;
        code = cst_ce_select;
        return push_id(c.operands[0]) && push_id(c.operands[1]) && push_id(c.operands[2]);
    case ConstantKind::extractelement:
        if (!need(2))
            return false;
        code = cst_ce_extractelt;
        return push_type_of(c.operands[0], no_id) && push_id(c.operands[0]) && push_type_of(c.operands[1], no_id) &&
               push_id(c.operands[1]);
    case ConstantKind::insertelement:
        if (!need(3))
            return false;
        code = cst_ce_insertelt;
        return push_id(c.operands[0]) && push_id(c.operands[1]) && push_type_of(c.operands[2], no_id) &&
               push_id(c.operands[2]);
    case ConstantKind::shufflevector: {
        if (!need(3))
            return false;
        TypeId in = type_of(c.operands[0]);
        if (in == no_id || m_.types[in].kind != TypeKind::vector || t.kind != TypeKind::vector ||
            m_.types[in].count != t.count)
            return fail(Code::dxil_write_unsupported,
                        "a constant shufflevector that changes the vector length (CE_SHUFVEC_EX) is not supported");
        code = cst_ce_shufflevec;
        return push_id(c.operands[0]) && push_id(c.operands[1]) && push_id(c.operands[2]);
    }
    case ConstantKind::cmp:
        if (!need(2))
            return false;
        code = cst_ce_cmp;
        if (!push_type_of(c.operands[0], c.source_type) || !push_id(c.operands[0]) || !push_id(c.operands[1]))
            return false;
        ops_.push_back(c.opcode);
        return true;
    default: return fail(Code::dxil_write_unsupported, "a constant of a kind the writer cannot encode");
    }
}

bool ModuleWriter::write_constants(std::span<const Constant> constants, bool module_level)
{
    w_.enter_block(block_constants, 4);
    if (module_level) {
        // LLVM sizes it ceil(log2(value count + 1)).
        unsigned bits = 1;
        while ((uint64_t(1) << bits) < uint64_t(m_.values.size()) + 1)
            ++bits;
        const AbbrevOp aggregate[] = {{AbbrevOp::Kind::literal, cst_aggregate}, {AbbrevOp::Kind::array, 0},
                                      {AbbrevOp::Kind::fixed, bits}};
        const AbbrevOp string[] = {{AbbrevOp::Kind::literal, cst_string}, {AbbrevOp::Kind::array, 0},
                                   {AbbrevOp::Kind::fixed, 8}};
        const AbbrevOp cstring7[] = {{AbbrevOp::Kind::literal, cst_cstring}, {AbbrevOp::Kind::array, 0},
                                     {AbbrevOp::Kind::fixed, 7}};
        const AbbrevOp cstring6[] = {{AbbrevOp::Kind::literal, cst_cstring}, {AbbrevOp::Kind::array, 0},
                                     {AbbrevOp::Kind::char6, 0}};
        w_.define_abbrev(aggregate);
        w_.define_abbrev(string);
        w_.define_abbrev(cstring7);
        w_.define_abbrev(cstring6);
    }
    TypeId last_type = no_id;
    for (const Constant& c : constants) {
        if (!type_ok(c.type, "constant"))
            return false;
        if (c.type != last_type) {
            ops_ = {type(c.type)};
            w_.record(cst_settype, ops_, abbrev_cst_settype);
            last_type = c.type;
        }
        uint32_t code = 0, abbrev = 0;
        if (!constant_record(c, code, abbrev) || !check_types_used())
            return false;
        if (!module_level && abbrev >= abbrev_cst_aggregate)
            abbrev = 0;
        w_.record(code, ops_, abbrev);
    }
    w_.exit_block();
    return true;
}

} // namespace dxspv::dxil::bitcode
