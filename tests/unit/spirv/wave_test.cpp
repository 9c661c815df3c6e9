// SPIR-V emitter tests for the wave and quad operations: every opcode on SSA
// values of the types it takes, emitted for Vulkan 1.1 and 1.3 and
// validated; refused with E2013 for Vulkan 1.0.
#include "asm_emit.h"
#include "dxil_emit.h"

using namespace spirv_test;

namespace {

constexpr DataType u32 = DataType::u32, i32 = DataType::i32, f32 = DataType::f32, f16 = DataType::f16,
                   i64 = DataType::i64, boolean = DataType::boolean;

/// The first line of `text` containing `needle` (empty if none).
std::string line_with(const std::string& text, const std::string& needle)
{
    size_t at = text.find(needle);
    if (at == std::string::npos)
        return {};
    size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at);
    return text.substr(begin, end - begin);
}

bool ends_with(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

TEST_CASE("spirv wave: lane queries, votes, ballots, broadcasts, reductions and scans")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::wave_lane_index, {sd(1, u32)}, {});
    b.op(Opcode::wave_lane_count, {sd(2, u32)}, {});
    b.op(Opcode::wave_is_first_lane, {sd(3, boolean)}, {});
    b.op(Opcode::ult, {sd(4, boolean)}, {ss(1, u32), lu(3)});
    b.op(Opcode::wave_any_true, {sd(5, boolean)}, {ss(4, boolean)});
    b.op(Opcode::wave_all_true, {sd(6, boolean)}, {ss(4, boolean)});
    b.op(Opcode::wave_all_equal, {sd(7, boolean)}, {ss(2, u32)});
    b.op(Opcode::wave_ballot, {sd4(8, u32)}, {ss(4, boolean)});
    b.op(Opcode::wave_read_lane_at, {sd(9, u32)}, {ss(0, u32), lu(1)});
    b.op(Opcode::utof, {sd(10, f32)}, {ss(0, u32)});
    b.op(Opcode::wave_read_lane_first, {sd(11, f32)}, {ss(10, f32)});
    b.op(Opcode::wave_active_sum, {sd(12, f32)}, {ss(10, f32)});
    b.op(Opcode::wave_active_sum, {sd(13, u32)}, {ss(0, u32)});
    b.op(Opcode::wave_active_product, {sd(14, i32)}, {ss(0, i32)});
    b.op(Opcode::wave_active_min, {sd(15, i32)}, {ss(0, i32)});
    b.op(Opcode::wave_active_min, {sd(16, u32)}, {ss(0, u32)});
    b.op(Opcode::wave_active_max, {sd(17, f32)}, {ss(10, f32)});
    b.op(Opcode::wave_active_and, {sd(18, u32)}, {ss(0, u32)});
    b.op(Opcode::wave_active_or, {sd(19, boolean)}, {ss(4, boolean)});
    b.op(Opcode::wave_active_xor, {sd(20, u32)}, {ss(0, u32)});
    b.op(Opcode::wave_active_count_bits, {sd(21, u32)}, {ss(4, boolean)});
    b.op(Opcode::wave_prefix_sum, {sd(22, u32)}, {ss(0, u32)});
    b.op(Opcode::wave_prefix_product, {sd(23, f32)}, {ss(10, f32)});
    b.op(Opcode::wave_prefix_count_bits, {sd(24, u32)}, {ss(4, boolean)});
    b.op(Opcode::utou, {sd(25, i64)}, {ss(0, u32)});
    b.op(Opcode::wave_active_max, {sd(26, i64)}, {ss(25, i64)});
    b.op(Opcode::wave_read_lane_at, {sd(27, boolean)}, {ss(4, boolean), ss(2, u32)});
    b.op(Opcode::wave_ballot, {sd4(28, u32, "xy")}, {ss(27, boolean)});
    b.op(Opcode::iadd, {sd(29, u32)}, {ss4(8, u32, "x"), ss4(28, u32, "y")});
    store_word(b, 0, ss(29, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCapability GroupNonUniform");
    CHECK_HAS(text, "OpCapability GroupNonUniformVote");
    CHECK_HAS(text, "OpCapability GroupNonUniformBallot");
    CHECK_HAS(text, "OpCapability GroupNonUniformShuffle");
    CHECK_HAS(text, "OpCapability GroupNonUniformArithmetic");
    CHECK_HAS(text, "BuiltIn SubgroupLocalInvocationId");
    CHECK_HAS(text, "BuiltIn SubgroupSize");
    CHECK_HAS(text, "OpGroupNonUniformElect %bool");
    CHECK_HAS(text, "OpGroupNonUniformAny %bool");
    CHECK_HAS(text, "OpGroupNonUniformAll %bool");
    CHECK_HAS(text, "OpGroupNonUniformAllEqual %bool");
    CHECK_HAS(text, "OpGroupNonUniformBallot %v4uint");
    CHECK_HAS(text, "OpGroupNonUniformBroadcast %uint"); // an immediate lane
    CHECK_HAS(text, "OpGroupNonUniformShuffle %bool");
    CHECK_HAS(text, "OpGroupNonUniformBroadcastFirst %float");
    CHECK_HAS(text, "OpGroupNonUniformFAdd %float %uint_3 Reduce");
    CHECK_HAS(text, "OpGroupNonUniformIAdd %uint %uint_3 Reduce");
    CHECK_HAS(text, "OpGroupNonUniformIMul %int");
    CHECK_HAS(text, "OpGroupNonUniformSMin %int");
    CHECK_HAS(text, "OpGroupNonUniformUMin %uint");
    CHECK_HAS(text, "OpGroupNonUniformFMax %float");
    CHECK_HAS(text, "OpGroupNonUniformSMax %long");
    CHECK_HAS(text, "OpGroupNonUniformBitwiseAnd %uint");
    CHECK_HAS(text, "OpGroupNonUniformLogicalOr %bool");
    CHECK_HAS(text, "OpGroupNonUniformBitwiseXor %uint");
    CHECK_HAS(text, "OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce");
    CHECK_HAS(text, "OpGroupNonUniformIAdd %uint %uint_3 ExclusiveScan");
    CHECK_HAS(text, "OpGroupNonUniformFMul %float %uint_3 ExclusiveScan");
    CHECK_HAS(text, "OpGroupNonUniformBallotBitCount %uint %uint_3 ExclusiveScan");
}

TEST_CASE("spirv wave: quad operations in a pixel shader")
{
    VsirBuilder b(dxspv::ShaderStage::pixel);
    b.p.model.major = 6;
    b.dcl_constant_buffer(0, 1);
    b.op(Opcode::mov, {sd(0, f32)}, {cb(0, 0, "x", f32)});
    b.op(Opcode::quad_read_lane_at, {sd(1, f32)}, {ss(0, f32), lu(2)});
    b.op(Opcode::quad_read_across_x, {sd(2, f32)}, {ss(1, f32)});
    b.op(Opcode::ftof, {sd(3, f16)}, {ss(2, f32)});
    b.op(Opcode::quad_read_across_y, {sd(4, f16)}, {ss(3, f16)});
    b.op(Opcode::mov, {sd(5, u32)}, {cb(0, 0, "y", u32)});
    b.op(Opcode::quad_read_across_diagonal, {sd(6, u32)}, {ss(5, u32)});
    b.op(Opcode::wave_lane_index, {sd(7, u32)}, {});
    b.op(Opcode::wave_active_sum, {sd(8, u32)}, {ss(7, u32)});
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCapability GroupNonUniformQuad");
    CHECK_HAS(text, "BuiltIn SubgroupLocalInvocationId");
    CHECK_HAS(text, "OpGroupNonUniformQuadBroadcast %float %uint_3");
    // QuadSwap's last operand is the direction: 0 across x, 1 across y, 2 diagonal.
    CHECK(ends_with(line_with(text, "OpGroupNonUniformQuadSwap %float %uint_3"), " %uint_0"));
    CHECK(ends_with(line_with(text, "OpGroupNonUniformQuadSwap %half %uint_3"), " %uint_1"));
    CHECK(ends_with(line_with(text, "OpGroupNonUniformQuadSwap %uint %uint_3"), " %uint_2"));
    CHECK(ends_with(line_with(text, "OpGroupNonUniformQuadBroadcast %float %uint_3"), " %uint_2"));
}

TEST_CASE("spirv wave: refused before Vulkan 1.1, and a dynamic quad lane before SPIR-V 1.5")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::wave_active_sum, {sd(1, u32)}, {ss(0, u32)});
    store_word(b, 0, ss(1, u32));
    b.op(Opcode::ret, {}, {});
    dxspv::spirv::EmitOptions options;
    options.target_env = dxspv::spirv::TargetEnv::vulkan1_0;
    std::vector<uint32_t> words;
    dxspv::Diagnostics diags("emit");
    CHECK_FALSE(dxspv::spirv::emit_spirv(b.p, options, words, diags));
    CHECK(words.empty());
    CHECK(diags.has_code(dxspv::Code::spirv_wave_ops_need_vulkan_1_1));
    CHECK_MESSAGE(diags.to_string().find("wave_active_sum") != std::string::npos, diags.to_string());

    VsirBuilder q(dxspv::ShaderStage::pixel);
    q.p.model.major = 6;
    q.dcl_constant_buffer(0, 1);
    q.op(Opcode::mov, {sd(0, u32)}, {cb(0, 0, "x", u32)});
    q.op(Opcode::quad_read_lane_at, {sd(1, u32)}, {ss(0, u32), ss(0, u32)});
    q.op(Opcode::ret, {}, {});
    options.target_env = dxspv::spirv::TargetEnv::vulkan1_1;
    dxspv::Diagnostics qdiags("emit");
    CHECK_FALSE(dxspv::spirv::emit_spirv(q.p, options, words, qdiags));
    CHECK(qdiags.has_code(dxspv::Code::spirv_invalid_operand));
    options.target_env = dxspv::spirv::TargetEnv::vulkan1_3; // SPIR-V 1.6: any lane id
    dxspv::Diagnostics qdiags13("emit");
    REQUIRE_MESSAGE(dxspv::spirv::emit_spirv(q.p, options, words, qdiags13), qdiags13.to_string());
    dxspv::Diagnostics val("spirv-val");
    CHECK_MESSAGE(dxspv::spirv::validate_spirv(words, options.target_env, val), val.to_string());
}

TEST_CASE("spirv wave: wave_match and the multi-prefix ops on 16-, 32- and 64-bit values are uniform loops")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::utou, {sd(1, i64)}, {ss(0, u32)});
    b.op(Opcode::utof, {sd(2, f32)}, {ss(0, u32)});
    b.op(Opcode::ftof, {sd(3, f16)}, {ss(2, f32)});
    b.op(Opcode::wave_match, {sd4(4, u32)}, {ss(1, i64)});
    b.op(Opcode::wave_match, {sd4(5, u32)}, {ss(3, f16)});
    b.op(Opcode::wave_multi_prefix_sum, {sd(6, f16)}, {ss(3, f16), ss4(5, u32, "xyzw")});
    b.op(Opcode::wave_multi_prefix_product, {sd(7, i64)}, {ss(1, i64), ss4(4, u32, "xyzw")});
    b.op(Opcode::wave_multi_prefix_and, {sd(8, i64)}, {ss(1, i64), ss4(4, u32, "xyzw")});
    b.op(Opcode::wave_multi_prefix_or, {sd(9, u32)}, {ss(0, u32), ss4(4, u32, "xyzw")});
    b.op(Opcode::wave_multi_prefix_xor, {sd(10, i32)}, {ss(0, i32), ss4(5, u32, "xyzw")});
    b.op(Opcode::ult, {sd(11, boolean)}, {ss(0, u32), lu(3)});
    b.op(Opcode::wave_multi_prefix_count_bits, {sd(12, u32)}, {ss(11, boolean), ss4(4, u32, "xyzw")});
    b.op(Opcode::iadd, {sd(13, u32)}, {ss(9, u32), ss(12, u32)});
    store_word(b, 0, ss(13, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpGroupNonUniformBallotFindLSB %uint %uint_3");
    CHECK_HAS(text, "OpGroupNonUniformShuffle %v2uint"); // the i64 key as two words
    CHECK_HAS(text, "OpGroupNonUniformInverseBallot %bool");
    CHECK_HAS(text, "OpGroupNonUniformFAdd %half %uint_3 ExclusiveScan");
    CHECK_HAS(text, "OpGroupNonUniformIMul %long %uint_3 ExclusiveScan");
    CHECK_HAS(text, "OpGroupNonUniformBitwiseAnd %long %uint_3 ExclusiveScan");
    CHECK_HAS(text, "OpGroupNonUniformBitwiseOr %uint %uint_3 ExclusiveScan");
    CHECK_HAS(text, "OpGroupNonUniformBitwiseXor %int %uint_3 ExclusiveScan");
    CHECK_HAS(text, "OpGroupNonUniformBallotBitCount %uint %uint_3 ExclusiveScan");
    size_t loops = 0;
    for (size_t at = text.find("OpLoopMerge"); at != std::string::npos; at = text.find("OpLoopMerge", at + 1))
        ++loops;
    CHECK(loops == 8);
}
