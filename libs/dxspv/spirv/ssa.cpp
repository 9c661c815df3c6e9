// SSA values (`sr#`): typed SPIR-V values, used directly where their
// definition dominates every use, otherwise kept in a Function variable.
//
// The structurizer may leave a use in a structured region its definition
// does not dominate (a value defined in a loop body and read after endloop,
// in a case body and read in the next one, in the then-branch and read in
// the else-branch). Before emitting, scan_ssa walks the program once and
// tracks the structured regions: the function (or hull shader phase, or
// subroutine) body, each if-then body, else body, loop body and case body.
// A region is open from its start to its end, and every region gets a new
// number, so "still open" is one table lookup. A value is used directly
// when at each of its uses the innermost region of its definition is still
// open: everything after the definition inside that region is dominated by
// it. Any other value (a use after the region closed, or a use before the
// definition in program order) gets a Function variable of its exact type,
// stored at the definition and loaded at each use.
#include "spirv/emitter.h"

#include <bit>
#include <cstdio>

namespace dxspv::spirv {

namespace {

constexpr uint32_t no_region = ~0u;
/// The validator's bound on SSA ids; larger programs are refused.
constexpr uint32_t max_ssa_values = 1u << 24;
/// Relative addresses nest at most this deep (as the validator checks).
constexpr uint32_t max_rel_depth = 4;

class SsaScan {
public:
    SsaScan(Emitter& e, ScopeVector<Emitter::SsaValue>& values)
        : e_(e), prog_(e.prog_), values_(values), value_count_(values.size()),
          follow_indices_(e.relative_indices_), def_region_(values.size(), no_region)
    {
        open_region(false);
    }

    void instruction(const vsir::Instruction& ins)
    {
        for (const vsir::SrcParam& src : prog_.srcs_of(ins))
            use(src.reg, 0);
        for (const vsir::DstParam& dst : prog_.dsts_of(ins)) {
            if (follow_indices_)
                uses_in_indices(dst.reg, 0);
            if (dst.reg.file == vsir::RegisterFile::ssa && dst.reg.index_count >= 1
                && dst.reg.idx[0].offset < value_count_) {
                uint32_t id = dst.reg.idx[0].offset;
                def_region_[id] = stack_.back().region;
                values_[id].mask = uint8_t(dst.write_mask & 0xf);
                values_[id].kind = e_.kind_or_u32(dst.reg.type);
            }
        }
        structure(ins.opcode);
    }

private:
    struct Open {
        uint32_t region;
        bool is_case;
    };

    void open_region(bool is_case)
    {
        stack_.push_back({uint32_t(open_.size()), is_case});
        open_.push_back(1);
    }
    void close_region()
    {
        if (stack_.size() <= 1)
            return; // unbalanced: the emitter reports it
        open_[stack_.back().region] = 0;
        stack_.pop_back();
    }
    void new_function()
    {
        for (const Open& o : stack_)
            open_[o.region] = 0;
        stack_.clear();
        open_region(false);
    }

    void use(const vsir::Register& reg, uint32_t depth)
    {
        if (reg.file == vsir::RegisterFile::ssa && reg.index_count >= 1 && reg.idx[0].offset < value_count_) {
            uint32_t id = reg.idx[0].offset;
            uint32_t region = def_region_[id];
            if (region == no_region || !open_[region])
                values_[id].needs_var = true;
        }
        if (follow_indices_)
            uses_in_indices(reg, depth);
    }
    void uses_in_indices(const vsir::Register& reg, uint32_t depth)
    {
        if (reg.file == vsir::RegisterFile::immediate || reg.file == vsir::RegisterFile::immediate64)
            return;
        for (uint32_t k = 0; k < reg.index_count && k < 3; ++k) {
            uint32_t rel = reg.idx[k].rel_addr;
            if (rel != vsir::invalid_index && rel < prog_.srcs.size() && depth < max_rel_depth)
                use(prog_.srcs[rel].reg, depth + 1);
        }
    }

    /// One table lookup for the usual instruction, which opens and closes nothing.
    void structure(vsir::Opcode op)
    {
        using vsir::Opcode;
        const vsir::OpcodeKind kind = vsir::opcode_info(op).kind;
        if (kind == vsir::OpcodeKind::phase)
            return new_function();
        if (kind != vsir::OpcodeKind::structured_cf)
            return;
        switch (op) {
        case Opcode::if_:
        case Opcode::loop:
        case Opcode::switch_: open_region(false); break;
        case Opcode::else_:
            close_region();
            open_region(false);
            break;
        case Opcode::endif:
        case Opcode::endloop: close_region(); break;
        case Opcode::case_:
        case Opcode::default_:
            if (stack_.back().is_case)
                close_region();
            open_region(true);
            break;
        case Opcode::endswitch:
            if (stack_.back().is_case)
                close_region();
            close_region();
            break;
        case Opcode::label: new_function(); break;
        default: break;
        }
    }

    Emitter& e_;
    const vsir::Program& prog_;
    ScopeVector<Emitter::SsaValue>& values_;
    const size_t value_count_; ///< values_.size(), kept (the stores into values_ could alias it)
    const bool follow_indices_; ///< some operand has a relative index (whose sources no instruction lists)
    ScratchVector<uint32_t> def_region_; ///< innermost region of each definition
    ScratchVector<uint8_t> open_;        ///< per region: still open
    ScratchVector<Open> stack_;
};

} // namespace

bool Emitter::scan_ssa()
{
    if (prog_.ssa_count > max_ssa_values) {
        diags_.error(Code::spirv_invalid_operand, Location::none(), "%u SSA values, more than the %u supported",
            prog_.ssa_count, max_ssa_values);
        return false;
    }
    ssa_.assign(prog_.ssa_count, SsaValue{});
    if (prog_.ssa_count == 0)
        return true;
    SsaScan scan(*this, ssa_);
    for (const vsir::Instruction& ins : prog_.instructions) {
        if (size_t(ins.dst_first) + ins.dst_count > dst_pool_size_
            || size_t(ins.src_first) + ins.src_count > src_pool_size_)
            continue; // check_operand_counts reports it
        scan.instruction(ins);
    }
    return true;
}

/// The Function variable of SSA value `id`, created in the current function
/// on first use.
spv::Id Emitter::ssa_variable(SsaValue& v, uint32_t id)
{
    Function* fn = &b_.getBuildPoint()->getParent();
    if (!v.var) {
        NumberedName name("sr", id);
        uint32_t count = uint32_t(vsir::mask_component_count(v.mask));
        v.var = b_.createVariable(spv::StorageClassFunction, type(v.kind, count), name.c_str());
        v.function = fn;
    } else if (v.function != fn) {
        error(Code::spirv_invalid_operand, "SSA value sr%u is used outside the function that defines it", id);
        return NoResult;
    }
    return v.var;
}

/// Components `lanes` of an SSA value (one slot per value), as `kind`.
Value Emitter::load_ssa(const vsir::SrcParam& src, const Lanes& lanes, Kind kind, bool any_sign)
{
    uint32_t id = src.reg.index_count ? src.reg.idx[0].offset : ~0u;
    if (id >= ssa_.size()) {
        error(Code::spirv_invalid_operand, "SSA value sr%u outside ssa_count %u", id, prog_.ssa_count);
        return {undef(kind, lanes.count), kind, lanes.count};
    }
    SsaValue& v = ssa_[id];
    uint32_t count = uint32_t(vsir::mask_component_count(v.mask));
    if (count == 0 || (!v.needs_var && !v.id)) {
        // A definition the emitter refused was reported already.
        if (count == 0 || !failed_)
            error(Code::spirv_invalid_operand, "SSA value sr%u is %s", id,
                count == 0 ? "never defined" : "read before its definition");
        return {undef(kind, lanes.count), kind, lanes.count};
    }
    spv::Id whole = v.id;
    if (v.needs_var) {
        spv::Id var = ssa_variable(v, id);
        if (!var)
            return {undef(kind, lanes.count), kind, lanes.count};
        whole = b_.createLoad(var);
    }
    uint32_t position[4];
    for (uint32_t i = 0; i < lanes.count; ++i) {
        uint32_t c = lanes.word[i] & 3;
        if (!(v.mask & (1u << c))) {
            error(Code::spirv_invalid_operand, "sr%u component %c is not defined", id, "xyzw"[c]);
            return {undef(kind, lanes.count), kind, lanes.count};
        }
        position[i] = uint32_t(vsir::mask_component_count(uint32_t(v.mask) & ((1u << c) - 1)));
    }
    spv::Id r;
    if (count == 1) {
        spv::Id parts[4] = {whole, whole, whole, whole};
        r = construct(v.kind, parts, lanes.count);
    } else if (lanes.count == 1) {
        r = b_.createCompositeExtract(whole, type(v.kind), position[0]);
    } else {
        OperandList<IdImmediate, 6> operands{{true, whole}, {true, whole}};
        for (uint32_t i = 0; i < lanes.count; ++i)
            operands.push_back({false, position[i]});
        r = b_.createOp(spv::OpVectorShuffle, type(v.kind, lanes.count), operands);
    }
    if (v.kind == kind || (any_sign && is_int(v.kind) && bit_width(v.kind) == bit_width(kind)))
        return {r, v.kind, lanes.count};
    return bitcast_kind({r, v.kind, lanes.count}, kind);
}

void Emitter::store_ssa(const vsir::DstParam& dst, Value value)
{
    uint32_t id = dst.reg.index_count ? dst.reg.idx[0].offset : ~0u;
    if (id >= ssa_.size()) {
        error(Code::spirv_invalid_operand, "SSA value sr%u outside ssa_count %u", id, prog_.ssa_count);
        return;
    }
    SsaValue& v = ssa_[id];
    uint32_t count = uint32_t(vsir::mask_component_count(v.mask));
    if (v.id || count == 0 || (dst.write_mask & 0xf) != v.mask) {
        error(Code::spirv_invalid_operand, "SSA value sr%u defined twice or with an empty write mask", id);
        return;
    }
    // The pre-scan recorded the definition's kind (a bitcast keeps the count).
    spv::Id result = value.kind == v.kind ? value.id : bitcast_kind(value, v.kind).id;
    if (value.count != count) {
        if (value.count != 1) {
            error(Code::spirv_invalid_operand, "%u result components for SSA value sr%u with %u components",
                unsigned(value.count), id, count);
            return;
        }
        result = splat({result, v.kind, 1}, count).id;
    }
    if (v.needs_var)
        if (spv::Id var = ssa_variable(v, id))
            b_.createStore(result, var);
    v.id = result; // marks the value defined
}

} // namespace dxspv::spirv
