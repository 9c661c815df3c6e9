// check_call: class/name consistency, overloads per shader model, stages.
#include <doctest/doctest.h>

#include "dxil/ops/ops.h"

using namespace dxspv;
using namespace dxspv::dxil::ops;

namespace {

constexpr Overload f16{ScalarType::f16, false};
constexpr Overload f32{ScalarType::f32, false};
constexpr Overload i32{ScalarType::i32, false};
constexpr Overload i64{ScalarType::i64, false};
constexpr Overload v_f32{ScalarType::f32, true};
constexpr std::span<const Overload> no_overload{};

ShaderModel sm(uint8_t minor, ShaderStage stage = ShaderStage::pixel) { return {stage, 6, minor}; }

} // namespace

TEST_CASE("a valid call passes")
{
    Diagnostics d;
    CHECK(check_call(info(OpId::Sin), "dx.op.unary.f32", f32, sm(0), ShaderStage::pixel, d, Location::none()));
    CHECK(check_call(info(OpId::Sin), "dx.op.unary.f16", f16, sm(0), ShaderStage::vertex, d, Location::none()));
    CHECK(check_call(info(OpId::ThreadId), "dx.op.threadId.i32", i32, sm(0, ShaderStage::compute),
                     ShaderStage::compute, d, Location::none()));
    CHECK(check_call(info(OpId::Barrier), "dx.op.barrier", no_overload, sm(0, ShaderStage::compute), ShaderStage::compute, d,
                     Location::none()));
    CHECK(check_call(info(OpId::Sin), "dx.op.unary.v4f32", v_f32, sm(9), ShaderStage::pixel, d, Location::none()));
    CHECK(d.error_count() == 0);
}

TEST_CASE("class mismatch")
{
    Diagnostics d;
    CHECK_FALSE(check_call(info(OpId::Sin), "dx.op.binary.f32", f32, sm(0), ShaderStage::pixel, d, Location::none()));
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].code == Code::dxil_op_class_mismatch);
    CHECK(d.messages()[0].text ==
          "'dx.op.binary.f32' calls DXIL op 13 (Sin), whose op class Unary is called through dx.op.unary");
    d.clear();
    CHECK_FALSE(check_call(info(OpId::Sin), "llvm.sin.f32", f32, sm(0), ShaderStage::pixel, d, Location::none()));
    CHECK(d.has_code(Code::dxil_op_bad_function_name));
}

TEST_CASE("overload not allowed at a shader model")
{
    Diagnostics d;
    // Native vectors need SM 6.9.
    CHECK_FALSE(check_call(info(OpId::Sin), "dx.op.unary.v4f32", v_f32, sm(8), ShaderStage::pixel, d,
                           Location::none()));
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].code == Code::dxil_op_overload_not_allowed);
    CHECK(d.messages()[0].text ==
          "overload <n x f32> of DXIL op 13 (Sin) needs shader model 6.9; the shader is 6.8 (allowed there: f16,f32)");
    // 16-bit IsSpecialFloat needs SM 6.9 (SM.ISSPECIALFLOAT).
    d.clear();
    CHECK_FALSE(check_call(info(OpId::IsNaN), "dx.op.isSpecialFloat.f16", f16, sm(8), ShaderStage::pixel, d,
                           Location::none()));
    CHECK(d.has_code(Code::dxil_op_overload_not_allowed));
    d.clear();
    CHECK(check_call(info(OpId::IsNaN), "dx.op.isSpecialFloat.f16", f16, sm(9), ShaderStage::pixel, d,
                     Location::none()));
    // 64-bit raw buffer loads need SM 6.3 (SM.64BITRAWBUFFERLOADSTORE).
    CHECK_FALSE(check_call(info(OpId::RawBufferLoad), "dx.op.rawBufferLoad.i64", i64, sm(2), ShaderStage::pixel, d,
                           Location::none()));
    CHECK(d.has_code(Code::dxil_op_overload_not_allowed));
    d.clear();
    CHECK(check_call(info(OpId::RawBufferLoad), "dx.op.rawBufferLoad.i64", i64, sm(3), ShaderStage::pixel, d,
                     Location::none()));
    // A type the op never allows.
    CHECK_FALSE(check_call(info(OpId::Sin), "dx.op.unary.i32", i32, sm(9), ShaderStage::pixel, d, Location::none()));
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].text ==
          "overload i32 is not allowed for DXIL op 13 (Sin) (allowed at shader model 6.9: f16,f32,<n x f16>,<n x f32>)");
}

TEST_CASE("op needs a newer shader model")
{
    Diagnostics d;
    CHECK_FALSE(check_call(info(OpId::RawBufferLoad), "dx.op.rawBufferLoad.f32", f32, sm(1), ShaderStage::pixel, d,
                           Location::none()));
    CHECK(d.has_code(Code::dxil_op_shader_model));
}

TEST_CASE("function name suffix must match the types")
{
    Diagnostics d;
    CHECK_FALSE(check_call(info(OpId::Sin), "dx.op.unary.f16", f32, sm(2), ShaderStage::pixel, d, Location::none()));
    CHECK(d.has_code(Code::dxil_op_overload_mismatch));
    d.clear();
    CHECK_FALSE(check_call(info(OpId::Barrier), "dx.op.barrier.i32", no_overload, sm(0), ShaderStage::compute, d,
                           Location::none()));
    CHECK(d.has_code(Code::dxil_op_overload_mismatch));
}

TEST_CASE("stage not allowed")
{
    Diagnostics d;
    CHECK_FALSE(check_call(info(OpId::ThreadId), "dx.op.threadId.i32", i32, sm(0), ShaderStage::pixel, d,
                           Location::none()));
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].code == Code::dxil_op_stage_not_allowed);
    CHECK(d.messages()[0].text ==
          "DXIL op 93 (ThreadId) is not allowed in pixel shaders (allowed: compute, mesh, amplification, node)");
    d.clear();
    CHECK_FALSE(check_call(info(OpId::Discard), "dx.op.discard", no_overload, sm(0), ShaderStage::vertex, d,
                           Location::none()));
    CHECK(d.has_code(Code::dxil_op_stage_not_allowed));
}

TEST_CASE("parse_overload_suffix")
{
    Overload o;
    CHECK(parse_overload_suffix("f32", o));
    CHECK(o == Overload{ScalarType::f32, false});
    CHECK(parse_overload_suffix("v3i16", o));
    CHECK(o == Overload{ScalarType::i16, true});
    CHECK(parse_overload_suffix("struct.Payload", o));
    CHECK(o.type == ScalarType::udt);
    CHECK_FALSE(parse_overload_suffix("f33", o));
    CHECK_FALSE(parse_overload_suffix("", o));
    CHECK_FALSE(parse_overload_suffix("v", o));
}
