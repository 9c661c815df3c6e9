// Wave (subgroup) and quad operations: the GroupNonUniform instructions of
// SPIR-V 1.3 at Subgroup scope. Targets before Vulkan 1.1 refuse them
// (E2013, naming the opcode).
//
// Each opcode takes the type T of its value source and destination (they
// are the same): reductions and scans pick the integer (signed or unsigned)
// or float instruction from T; the bitwise ones use the logical forms on
// booleans.
#include "spirv/alu.h"

namespace dxspv::spirv {

namespace {

using namespace alu;
using vsir::Opcode;

spv::Id subgroup_scope(Emitter& e) { return e.constant_u32(spv::ScopeSubgroup); }

/// A GroupNonUniform instruction with Subgroup scope: `op` result-type
/// [group operation] operands...
spv::Id group_op(Emitter& e, spv::Op op, spv::Id result_type, std::initializer_list<spv::Id> operands,
    int group_operation = -1)
{
    OperandList<IdImmediate, 6> args{{true, subgroup_scope(e)}}; // scope, group operation, at most 4 operands
    if (group_operation >= 0)
        args.push_back({false, unsigned(group_operation)});
    for (spv::Id id : operands)
        args.push_back({true, id});
    return e.b_.createOp(op, result_type, args);
}

/// The reduction / scan instruction for `op` on values of `kind`, or
/// OpNop when the kind does not fit.
spv::Op arithmetic_op(Opcode op, Kind kind)
{
    bool fp = is_float(kind), integer = is_int(kind), boolean = kind == Kind::boolean;
    switch (op) {
    case Opcode::wave_active_sum:
    case Opcode::wave_prefix_sum:
    case Opcode::wave_multi_prefix_sum:
        return fp ? spv::OpGroupNonUniformFAdd : integer ? spv::OpGroupNonUniformIAdd : spv::OpNop;
    case Opcode::wave_active_product:
    case Opcode::wave_prefix_product:
    case Opcode::wave_multi_prefix_product:
        return fp ? spv::OpGroupNonUniformFMul : integer ? spv::OpGroupNonUniformIMul : spv::OpNop;
    case Opcode::wave_active_min:
        return fp ? spv::OpGroupNonUniformFMin
               : integer ? (is_signed(kind) ? spv::OpGroupNonUniformSMin : spv::OpGroupNonUniformUMin)
                         : spv::OpNop;
    case Opcode::wave_active_max:
        return fp ? spv::OpGroupNonUniformFMax
               : integer ? (is_signed(kind) ? spv::OpGroupNonUniformSMax : spv::OpGroupNonUniformUMax)
                         : spv::OpNop;
    case Opcode::wave_active_and:
    case Opcode::wave_multi_prefix_and:
        return integer ? spv::OpGroupNonUniformBitwiseAnd : boolean ? spv::OpGroupNonUniformLogicalAnd : spv::OpNop;
    case Opcode::wave_active_or:
    case Opcode::wave_multi_prefix_or:
        return integer ? spv::OpGroupNonUniformBitwiseOr : boolean ? spv::OpGroupNonUniformLogicalOr : spv::OpNop;
    case Opcode::wave_active_xor:
    case Opcode::wave_multi_prefix_xor:
        return integer ? spv::OpGroupNonUniformBitwiseXor : boolean ? spv::OpGroupNonUniformLogicalXor : spv::OpNop;
    default: return spv::OpNop;
    }
}

/// Stores the uvec4 `ballot` through the destination's write mask.
void store_ballot(Emitter& e, const DstParam& dst, spv::Id ballot)
{
    uint32_t mask = dst.write_mask & 0xf;
    OperandList<IdImmediate, 6> operands{{true, ballot}, {true, ballot}};
    for (uint32_t c = 0; c < 4; ++c)
        if (mask & (1u << c))
            operands.push_back({false, c});
    uint8_t n = uint8_t(operands.size() - 2);
    spv::Id r = ballot;
    if (n == 1)
        r = e.b_.createCompositeExtract(ballot, e.type(Kind::u32), operands[2].word);
    else if (n < 4)
        r = e.b_.createOp(spv::OpVectorShuffle, e.type(Kind::u32, n), operands);
    e.store_dst(dst, e.as_kind({r, Kind::u32, n}, dst_kind(e, dst)));
}

spv::Id ballot_of(Emitter& e, const Instruction& ins)
{
    e.b_.addCapability(spv::CapabilityGroupNonUniformBallot);
    spv::Id x = e.truth(e.load_scalar(src(e, ins, 0), src_kind(e, src(e, ins, 0))), true);
    return group_op(e, spv::OpGroupNonUniformBallot, e.type(Kind::u32, 4), {x});
}

/// The lane operand of quad_read_lane_at (and of wave_read_lane_at when an
/// immediate): before SPIR-V 1.5 it must be a constant.
spv::Id quad_lane(Emitter& e, const SrcParam& lane)
{
    if (lane.reg.file == vsir::RegisterFile::immediate)
        return e.constant_u32(lane.reg.u32[vsir::swizzle_component(lane.swizzle, 0)]);
    if (spirv_version(e.options_.target_env) < 0x00010500) {
        e.error(Code::spirv_invalid_operand, "the quad lane must be an immediate before SPIR-V 1.5 (Vulkan 1.2)");
        return e.constant_u32(0);
    }
    return e.load_scalar(lane, Kind::u32).id;
}

/// Runs `body(in_group, group_mask)` once per group of active lanes holding
/// the same `key` (compared bitwise, so NaNs match themselves) and returns,
/// in each lane, what `body` gave in its group's iteration. The loop is uniform: all
/// the lanes run every iteration (no divergent exits, whose values some
/// drivers, lavapipe among them, do not keep per lane). An iteration takes
/// the lowest lane still left, the lanes holding its key form the group and
/// leave the set, so the loop runs once per distinct key.
template <typename F>
spv::Id for_each_lane_group(Emitter& e, Value key, Kind result_kind, uint32_t result_count, F body)
{
    auto& b = e.b_;
    b.addCapability(spv::CapabilityGroupNonUniformBallot);
    b.addCapability(spv::CapabilityGroupNonUniformShuffle);
    uint32_t words = 0;
    spv::Id key_words = e.to_words(key, words);
    spv::Id uvec4 = e.type(Kind::u32, 4), tb = e.type(Kind::boolean), result_type = e.type(result_kind, result_count);
    spv::Id left_var = b.createVariable(spv::StorageClassFunction, uvec4, "lanes_left");
    spv::Id result_var = b.createVariable(spv::StorageClassFunction, result_type, "group_result");
    b.createStore(group_op(e, spv::OpGroupNonUniformBallot, uvec4, {b.makeBoolConstant(true)}), left_var);
    b.createStore(e.undef(result_kind, result_count), result_var);
    Block* header = e.new_block();
    Block* group_block = e.new_block();
    Block* continue_target = e.new_block();
    Block* merge = e.new_block();
    b.createBranch(header);
    b.setBuildPoint(header);
    spv::Id left = b.createLoad(left_var);
    spv::Id nonzero = b.createBinOp(spv::OpINotEqual, e.type(Kind::boolean, 4), left, e.splat_constant(Kind::u32, 4, 0));
    spv::Id any_left = b.createUnaryOp(spv::OpAny, tb, nonzero);
    b.createLoopMerge(merge, continue_target, spv::LoopControlMaskNone);
    b.createConditionalBranch(any_left, group_block, merge);
    b.setBuildPoint(group_block);
    spv::Id leader = group_op(e, spv::OpGroupNonUniformBallotFindLSB, e.type(Kind::u32), {left});
    spv::Id leader_key = group_op(e, spv::OpGroupNonUniformShuffle, e.type(Kind::u32, words), {key_words, leader});
    spv::Id in_group = b.createBinOp(spv::OpIEqual, e.type(Kind::boolean, words), key_words, leader_key);
    if (words > 1)
        in_group = b.createUnaryOp(spv::OpAll, tb, in_group);
    spv::Id is_left = group_op(e, spv::OpGroupNonUniformInverseBallot, tb, {left});
    in_group = b.createBinOp(spv::OpLogicalAnd, tb, in_group, is_left);
    spv::Id group = group_op(e, spv::OpGroupNonUniformBallot, uvec4, {in_group});
    spv::Id value = body(in_group, group);
    spv::Id condition = result_count > 1 ? e.splat({in_group, Kind::boolean, 1}, result_count).id : in_group;
    spv::Id old = b.createLoad(result_var);
    b.createStore(b.createTriOp(spv::OpSelect, result_type, condition, value, old), result_var);
    b.createStore(b.createBinOp(spv::OpBitwiseAnd, uvec4, left, b.createUnaryOp(spv::OpNot, uvec4, group)), left_var);
    b.createBranch(continue_target);
    b.setBuildPoint(continue_target);
    b.createBranch(header);
    b.setBuildPoint(merge);
    return b.createLoad(result_var);
}

/// The identity of a multi-prefix operation on `kind` (float sums: -0.0,
/// which leaves every value, +0.0 included, unchanged).
spv::Id prefix_identity(Emitter& e, Opcode op, Kind kind, uint32_t count)
{
    switch (op) {
    case Opcode::wave_multi_prefix_sum:
        return is_float(kind) ? e.float_constant(kind, -0.0, count) : e.splat_constant(kind, count, 0);
    case Opcode::wave_multi_prefix_product:
        return is_float(kind) ? e.float_constant(kind, 1.0, count) : e.splat_constant(kind, count, 1);
    case Opcode::wave_multi_prefix_and: return e.splat_constant(kind, count, ~uint64_t(0));
    default: return e.splat_constant(kind, count, 0);
    }
}

/// wave_match, wave_multi_prefix_*: partitions of the wave by value (match)
/// or by the mask operand (multi-prefix). A multi-prefix scan runs over all
/// the active lanes, the ones outside the current group contributing the
/// identity.
void emit_partitioned(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = dst_kind(e, dst);
    auto& b = e.b_;
    if (ins.opcode == Opcode::wave_match) {
        const SrcParam& value = src(e, ins, 0);
        Value key = e.load_scalar(value, src_kind(e, value));
        spv::Id mask = for_each_lane_group(e, key, Kind::u32, 4, [](spv::Id, spv::Id group) { return group; });
        store_ballot(e, dst, mask);
        return;
    }
    Value key = e.load_src(src(e, ins, 1), 0xf, vsir::DataType::u32);
    if (ins.opcode == Opcode::wave_multi_prefix_count_bits) {
        spv::Id x = e.truth(e.load_scalar(src(e, ins, 0), src_kind(e, src(e, ins, 0))), true);
        spv::Id count = for_each_lane_group(e, key, Kind::u32, 1, [&](spv::Id in_group, spv::Id) {
            spv::Id both = b.createBinOp(spv::OpLogicalAnd, e.type(Kind::boolean), in_group, x);
            spv::Id ballot = group_op(e, spv::OpGroupNonUniformBallot, e.type(Kind::u32, 4), {both});
            return group_op(e, spv::OpGroupNonUniformBallotBitCount, e.type(Kind::u32), {ballot},
                spv::GroupOperationExclusiveScan);
        });
        e.store_dst(dst, e.as_kind({count, Kind::u32, 1}, kind));
        return;
    }
    spv::Op op = arithmetic_op(ins.opcode, kind);
    if (op == spv::OpNop) {
        e.error(Code::spirv_invalid_operand, "operand type '%s' does not fit the operation",
            vsir::data_type_name(dst.reg.type));
        return;
    }
    b.addCapability(spv::CapabilityGroupNonUniformArithmetic);
    Value x = load_for(e, src(e, ins, 0), dst, kind);
    spv::Id vtype = e.type(kind, x.count);
    spv::Id identity = prefix_identity(e, ins.opcode, kind, x.count);
    spv::Id r = for_each_lane_group(e, key, kind, x.count, [&](spv::Id in_group, spv::Id) {
        spv::Id condition = x.count > 1 ? e.splat({in_group, Kind::boolean, 1}, x.count).id : in_group;
        spv::Id contribution = b.createTriOp(spv::OpSelect, vtype, condition, x.id, identity);
        return group_op(e, op, vtype, {contribution}, spv::GroupOperationExclusiveScan);
    });
    e.store_dst(dst, {r, kind, x.count});
}

void emit_wave_op(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = dst_kind(e, dst);
    auto& b = e.b_;
    auto value = [&] { return load_for(e, src(e, ins, 0), dst, kind); };
    auto store = [&](spv::Id id, uint8_t count) { e.store_dst(dst, {id, kind, count}); };
    spv::Id tb = e.type(Kind::boolean);
    switch (ins.opcode) {
    case Opcode::wave_lane_index:
    case Opcode::wave_lane_count: {
        spv::Id var = e.subgroup_builtin(ins.opcode == Opcode::wave_lane_index ? spv::BuiltInSubgroupLocalInvocationId
                                                                               : spv::BuiltInSubgroupSize);
        e.store_dst(dst, e.as_kind({b.createLoad(var), Kind::u32, 1}, kind));
        return;
    }
    case Opcode::wave_is_first_lane:
        store_condition(e, dst, group_op(e, spv::OpGroupNonUniformElect, tb, {}), 1);
        return;
    case Opcode::wave_any_true:
    case Opcode::wave_all_true:
    case Opcode::wave_all_equal: {
        b.addCapability(spv::CapabilityGroupNonUniformVote);
        Value x = e.load_scalar(src(e, ins, 0), src_kind(e, src(e, ins, 0)));
        spv::Op op = spv::OpGroupNonUniformAllEqual;
        if (ins.opcode != Opcode::wave_all_equal) {
            x.id = e.truth(x, true);
            op = ins.opcode == Opcode::wave_any_true ? spv::OpGroupNonUniformAny : spv::OpGroupNonUniformAll;
        }
        store_condition(e, dst, group_op(e, op, tb, {x.id}), 1);
        return;
    }
    case Opcode::wave_ballot: store_ballot(e, dst, ballot_of(e, ins)); return;
    case Opcode::wave_active_count_bits:
    case Opcode::wave_prefix_count_bits: {
        spv::Id ballot = ballot_of(e, ins);
        int group = ins.opcode == Opcode::wave_active_count_bits ? spv::GroupOperationReduce
                                                                 : spv::GroupOperationExclusiveScan;
        spv::Id r = group_op(e, spv::OpGroupNonUniformBallotBitCount, e.type(Kind::u32), {ballot}, group);
        e.store_dst(dst, e.as_kind({r, Kind::u32, 1}, kind));
        return;
    }
    case Opcode::wave_read_lane_at: {
        // A constant lane: OpGroupNonUniformBroadcast; any other: Shuffle.
        Value x = value();
        const SrcParam& lane_src = src(e, ins, 1);
        bool constant = lane_src.reg.file == vsir::RegisterFile::immediate;
        spv::Id lane = constant ? quad_lane(e, lane_src) : e.load_scalar(lane_src, Kind::u32).id;
        b.addCapability(constant ? spv::CapabilityGroupNonUniformBallot : spv::CapabilityGroupNonUniformShuffle);
        spv::Op op = constant ? spv::OpGroupNonUniformBroadcast : spv::OpGroupNonUniformShuffle;
        store(group_op(e, op, e.type(kind, x.count), {x.id, lane}), x.count);
        return;
    }
    case Opcode::wave_read_lane_first: {
        b.addCapability(spv::CapabilityGroupNonUniformBallot);
        Value x = value();
        store(group_op(e, spv::OpGroupNonUniformBroadcastFirst, e.type(kind, x.count), {x.id}), x.count);
        return;
    }
    case Opcode::quad_read_lane_at: {
        b.addCapability(spv::CapabilityGroupNonUniformQuad);
        Value x = value();
        spv::Id lane = quad_lane(e, src(e, ins, 1));
        store(group_op(e, spv::OpGroupNonUniformQuadBroadcast, e.type(kind, x.count), {x.id, lane}), x.count);
        return;
    }
    case Opcode::quad_read_across_x:
    case Opcode::quad_read_across_y:
    case Opcode::quad_read_across_diagonal: {
        b.addCapability(spv::CapabilityGroupNonUniformQuad);
        Value x = value();
        spv::Id direction = e.constant_u32(uint32_t(ins.opcode) - uint32_t(Opcode::quad_read_across_x));
        store(group_op(e, spv::OpGroupNonUniformQuadSwap, e.type(kind, x.count), {x.id, direction}), x.count);
        return;
    }
    default: {
        spv::Op op = arithmetic_op(ins.opcode, kind);
        if (op == spv::OpNop) {
            e.error(Code::spirv_invalid_operand, "operand type '%s' does not fit the operation",
                vsir::data_type_name(dst.reg.type));
            return;
        }
        b.addCapability(spv::CapabilityGroupNonUniformArithmetic);
        bool scan = ins.opcode == Opcode::wave_prefix_sum || ins.opcode == Opcode::wave_prefix_product;
        Value x = value();
        int group = scan ? spv::GroupOperationExclusiveScan : spv::GroupOperationReduce;
        store(group_op(e, op, e.type(kind, x.count), {x.id}, group), x.count);
    }
    }
}

} // namespace

/// An Input variable of a subgroup built-in (u32), created on first use.
spv::Id Emitter::subgroup_builtin(spv::BuiltIn builtin)
{
    spv::Id& var = builtin == spv::BuiltInSubgroupSize ? subgroup_size_ : subgroup_local_id_;
    if (var)
        return var;
    var = b_.createVariable(spv::StorageClassInput, type(Kind::u32),
        builtin == spv::BuiltInSubgroupSize ? "SubgroupSize" : "SubgroupLocalInvocationId");
    b_.addDecoration(var, spv::DecorationBuiltIn, int(builtin));
    if (prog_.model.stage == ShaderStage::pixel)
        b_.addDecoration(var, spv::DecorationFlat);
    add_interface(var);
    return var;
}

bool Emitter::emit_wave(const vsir::Instruction& ins)
{
    static_assert(uint32_t(Opcode::quad_read_across_diagonal) + 1 == uint32_t(Opcode::wave_match) &&
                      uint32_t(Opcode::wave_multi_prefix_count_bits) + 1 == uint32_t(Opcode::attribute_at_vertex),
        "the wave and quad opcodes are contiguous in opcodes.def");
    if (ins.opcode < Opcode::wave_lane_index || ins.opcode > Opcode::wave_multi_prefix_count_bits)
        return false;
    if (spirv_version(options_.target_env) < 0x00010300) {
        error(Code::spirv_wave_ops_need_vulkan_1_1, "wave and quad operations need SPIR-V 1.3 (Vulkan 1.1); the target is %s",
            target_env_name(options_.target_env));
        return true;
    }
    b_.addCapability(spv::CapabilityGroupNonUniform);
    if (ins.opcode >= Opcode::wave_match)
        emit_partitioned(*this, ins);
    else
        emit_wave_op(*this, ins);
    return true;
}

} // namespace dxspv::spirv
