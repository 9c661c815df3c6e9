// SPIR-V emitter tests for the DXIL opcodes of VSIR (opcodes.def, "DXIL"
// section, except the wave and quad operations: wave_test.cpp): each is
// emitted on SSA values, validated for Vulkan 1.1 and 1.3, and where
// spirv-opt can fold it, run on constants to check what it computes.
#include "asm_emit.h"
#include "dxil_emit.h"

#include <bit>

using namespace spirv_test;
using spirv_asm_test::fold_constants;

namespace {

constexpr DataType u32 = DataType::u32, i32 = DataType::i32, f32 = DataType::f32, f16 = DataType::f16,
                   f64 = DataType::f64, i16 = DataType::i16, u16 = DataType::u16, i64 = DataType::i64,
                   u64 = DataType::u64, boolean = DataType::boolean;

DstParam null_of(DataType type) { return dst(mk(RegisterFile::null, type, Dimension::scalar), "x"); }

/// Stores the boolean sr`id` as 0 / 1 at `offset`.
void store_bool(VsirBuilder& b, uint32_t id, uint32_t offset, uint32_t scratch)
{
    b.op(Opcode::utou, {sd(scratch, u32)}, {ss(id, boolean)});
    store_word(b, offset, ss(scratch, u32));
}

std::string folded_text(const Program& p)
{
    INFO("VSIR:\n" << typed_text(p));
    return fold_constants(p);
}

std::string uint_constant(uint32_t v) { return "OpConstant %uint " + std::to_string(v); }

} // namespace

TEST_CASE("spirv dxil ops: frem and idiv")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::utof, {sd(1, f32)}, {ss(0, u32)});
    b.op(Opcode::frem, {sd(2, f32)}, {ss(1, f32), lf(-2.5f)});
    b.op(Opcode::mov, {sd(3, u32)}, {ss(2, f32)});
    store_word(b, 0, ss(3, u32));
    b.op(Opcode::idiv, {sd(4, i32), sd(5, i32)}, {ss(0, i32), li(-3)});
    store_word(b, 4, ss(4, u32));
    store_word(b, 8, ss(5, u32));
    b.op(Opcode::utou, {sd(6, i64)}, {ss(0, u32)});
    b.op(Opcode::idiv, {null_of(i64), sd(7, i64)}, {ss(6, i64), imm(i64, 7)});
    b.op(Opcode::itoi, {sd(8, i32)}, {ss(7, i64)});
    store_word(b, 12, ss(8, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpFRem %float");
    CHECK_HAS(text, "OpSDiv %int");
    CHECK_HAS(text, "OpSRem %int");
    CHECK_HAS(text, "OpSRem %long");

    // -14 / 4 = -3 and -14 srem 4 = -2 (the sign of the dividend).
    VsirBuilder c = dxil_compute();
    c.op(Opcode::idiv, {sd(1, i32), sd(2, i32)}, {li(-14), li(4)});
    store_word(c, 0, ss(1, u32));
    store_word(c, 4, ss(2, u32));
    c.op(Opcode::ret, {}, {});
    std::string folded = folded_text(c.p);
    CHECK_HAS(folded, uint_constant(uint32_t(-3)));
    CHECK_HAS(folded, uint_constant(uint32_t(-2)));
    CHECK_HAS_NOT(folded, "OpSDiv");
}

TEST_CASE("spirv dxil ops: itoi, utou and ftof change widths")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::itoi, {sd(1, i16)}, {ss(0, i32)});  // truncate
    b.op(Opcode::itoi, {sd(2, i64)}, {ss(1, i16)});  // sign-extend
    b.op(Opcode::utou, {sd(3, u64)}, {ss(1, u16)});  // zero-extend
    b.op(Opcode::iadd, {sd(4, u64)}, {ss(2, u64), ss(3, u64)});
    b.op(Opcode::utou, {sd(5, u32)}, {ss(4, u64)});  // truncate
    store_word(b, 0, ss(5, u32));
    b.op(Opcode::utou, {sd(6, boolean)}, {ss(4, u64)}); // low bit
    b.op(Opcode::itoi, {sd(7, i16)}, {ss(6, boolean)}); // 0 / -1
    b.op(Opcode::itoi, {sd(8, i32)}, {ss(7, i16)});
    store_word(b, 4, ss(8, u32));
    b.op(Opcode::utof, {sd(9, f32)}, {ss(0, u32)});
    b.op(Opcode::ftof, {sd(10, f64)}, {ss(9, f32)});
    b.op(Opcode::ftof, {sd(11, f16)}, {ss(10, f64)});
    b.op(Opcode::ftou, {sd(12, u16)}, {ss(11, f16)});
    b.op(Opcode::itof, {sd(13, f16)}, {ss(1, i16)});
    b.op(Opcode::ftoi, {sd(14, i32)}, {ss(13, f16)});
    b.op(Opcode::utou, {sd(15, u32)}, {ss(12, u16)});
    b.op(Opcode::iadd, {sd(16, u32)}, {ss(15, u32), ss(14, u32)});
    store_word(b, 8, ss(16, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpSConvert %short");
    CHECK_HAS(text, "OpSConvert %long");
    CHECK_HAS(text, "OpUConvert %ulong");
    CHECK_HAS(text, "OpUConvert %uint");
    CHECK_HAS(text, "OpFConvert %double");
    CHECK_HAS(text, "OpFConvert %half");
    CHECK_HAS(text, "OpConvertFToU %ushort");
    CHECK_HAS(text, "OpConvertSToF %half");
    CHECK_HAS(text, "OpConvertFToS %int");
    CHECK_HAS(text, "OpSelect %short");

    // itoi(true) = -1, utou(true) = 1 (spirv-opt does not fold OpSConvert /
    // OpUConvert of 16-bit values).
    VsirBuilder c = dxil_compute();
    c.op(Opcode::itoi, {sd(3, i32)}, {lb(true)});
    c.op(Opcode::utou, {sd(4, u32)}, {lb(true)});
    c.op(Opcode::iadd, {sd(5, u32)}, {ss(3, u32), lu(50)}); // 49
    c.op(Opcode::iadd, {sd(6, u32)}, {ss(4, u32), lu(41)});     // 42
    store_word(c, 8, ss(5, u32));
    store_word(c, 12, ss(6, u32));
    c.op(Opcode::ret, {}, {});
    std::string folded = folded_text(c.p);
    CHECK_HAS(folded, uint_constant(49));
    CHECK_HAS(folded, uint_constant(42));
    CHECK_HAS_NOT(folded, "OpSelect");
}

TEST_CASE("spirv dxil ops: trigonometric and hyperbolic functions")
{
    const Opcode ops[] = {Opcode::tan, Opcode::acos, Opcode::asin, Opcode::atan, Opcode::hcos, Opcode::hsin,
        Opcode::htan};
    const char* names[] = {"Tan", "Acos", "Asin", "Atan", "Cosh", "Sinh", "Tanh"};
    VsirBuilder b = dxil_compute();
    b.op(Opcode::utof, {sd(1, f32)}, {ss(0, u32)});
    uint32_t id = 2;
    for (Opcode op : ops) {
        b.op(op, {sd(id, f32)}, {ss(id - 1, f32)});
        ++id;
    }
    b.op(Opcode::ftof, {sd(id, f16)}, {ss(id - 1, f32)});
    b.op(Opcode::tan, {sd(id + 1, f16)}, {ss(id, f16)}); // 16-bit too
    b.op(Opcode::ftof, {sd(id + 2, f32)}, {ss(id + 1, f16)});
    b.op(Opcode::mov, {sd(id + 3, u32)}, {ss(id + 2, f32)});
    store_word(b, 0, ss(id + 3, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    for (const char* name : names)
        CHECK_HAS(text, std::string(name) + " %");
    CHECK_HAS(text, "OpExtInst %half");
}

TEST_CASE("spirv dxil ops: float classes and (un)ordered comparisons")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::utof, {sd(1, f32)}, {ss(0, u32)});
    b.op(Opcode::div, {sd(2, f32)}, {ss(1, f32), ss(1, f32)}); // NaN for thread 0
    b.op(Opcode::ftof, {sd(3, f64)}, {ss(2, f32)});
    b.op(Opcode::ftof, {sd(4, f16)}, {ss(2, f32)});
    uint32_t id = 10, offset = 0;
    auto store = [&](uint32_t value) {
        store_bool(b, value, offset, id++);
        offset += 4;
    };
    for (Opcode op : {Opcode::isnan, Opcode::isinf, Opcode::isfinite, Opcode::isnormal}) {
        b.op(op, {sd(id, boolean)}, {ss(2, f32)});
        store(id++);
        b.op(op, {sd(id, boolean)}, {ss(3, f64)});
        store(id++);
        b.op(op, {sd(id, boolean)}, {ss(4, f16)});
        store(id++);
    }
    for (Opcode op : {Opcode::eq_u, Opcode::ne_o, Opcode::lt_u, Opcode::ge_u, Opcode::ord, Opcode::unord}) {
        b.op(op, {sd(id, boolean)}, {ss(2, f32), ss(1, f32)});
        store(id++);
        b.op(op, {sd(id, u32)}, {ss(3, f64), imm(f64, 0)}); // mask form
        store_word(b, offset, ss(id++, u32));
        offset += 4;
    }
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpIsNan %bool");
    CHECK_HAS(text, "OpIsInf %bool");
    CHECK_HAS(text, "OpFUnordEqual %bool");
    CHECK_HAS(text, "OpFOrdNotEqual %bool");
    CHECK_HAS(text, "OpFUnordLessThan %bool");
    CHECK_HAS(text, "OpFUnordGreaterThanEqual %bool");
    CHECK_HAS(text, "OpShiftRightLogical %ulong"); // isnormal of a double: its exponent
    CHECK_HAS(text, "OpShiftRightLogical %ushort");
    CHECK_HAS_NOT(text, "OpOrdered"); // needs the Kernel capability
    CHECK_HAS_NOT(text, "OpUnordered");

    // isnormal: 1.0 yes, a denormal no, infinity no; isfinite(inf) no.
    VsirBuilder c = dxil_compute();
    c.op(Opcode::isnormal, {sd(1, u32)}, {lf(1.0f)});
    c.op(Opcode::isnormal, {sd(2, u32)}, {imm(f32, 1)});
    c.op(Opcode::isnormal, {sd(3, u32)}, {imm(f32, 0x7f800000)});
    c.op(Opcode::isfinite, {sd(4, u32)}, {imm(f32, 0x7f800000)});
    c.op(Opcode::iadd, {sd(5, u32)}, {ss(1, u32), lu(100)}); // ~0 + 100 = 99
    c.op(Opcode::or_, {sd(6, u32)}, {ss(2, u32), ss(3, u32)});
    c.op(Opcode::or_, {sd(7, u32)}, {ss(6, u32), ss(4, u32)});
    c.op(Opcode::iadd, {sd(8, u32)}, {ss(7, u32), lu(200)}); // 0 + 200
    store_word(c, 0, ss(5, u32));
    store_word(c, 4, ss(8, u32));
    c.op(Opcode::ret, {}, {});
    std::string folded = folded_text(c.p);
    CHECK_HAS(folded, uint_constant(99));
    CHECK_HAS(folded, uint_constant(200));
}

TEST_CASE("spirv dxil ops: pack64 and unpack64")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::pack64, {sd(1, f64)}, {ss(0, u32), lu(0x3ff00000)});
    b.op(Opcode::pack64, {sd(2, u64)}, {ss(0, u32), lu(1)});
    b.op(Opcode::unpack64, {sd(3, u32), sd(4, u32)}, {ss(1, f64)});
    b.op(Opcode::unpack64, {null_of(u32), sd(5, u32)}, {ss(2, u64)});
    store_word(b, 0, ss(3, u32));
    store_word(b, 4, ss(4, u32));
    store_word(b, 8, ss(5, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    // unpack64 of a pack64 result is the packed words: the emitter folds the
    // bitcast round trip and the extracts of the construct (and the 64-bit
    // values, unused, go). The high word of the first is the constant.
    CHECK_HAS(text, "%uint_1072693248\n");
    CHECK_FALSE(spirv_asm_test::has(text, "OpCompositeConstruct %v2uint"));
    CHECK_FALSE(spirv_asm_test::has(text, "OpBitcast %v2uint"));
    CHECK_FALSE(spirv_asm_test::has(text, "OpBitcast %double"));
    VsirBuilder u = dxil_compute();
    u.op(Opcode::pack64, {sd(1, f64)}, {ss(0, u32), lu(0x3ff00000)});
    u.op(Opcode::dadd, {sd(2, f64)}, {ss(1, f64), ss(1, f64)});
    u.op(Opcode::unpack64, {sd(3, u32), sd(4, u32)}, {ss(2, f64)});
    store_word(u, 0, ss(3, u32));
    store_word(u, 4, ss(4, u32));
    u.op(Opcode::ret, {}, {});
    std::string used = emit_dxil(u.p);
    CHECK_HAS(used, "OpBitcast %double");
    CHECK_HAS(used, "OpBitcast %v2uint");
}

TEST_CASE("spirv dxil ops: bit scans of 16- and 64-bit integers")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::utou, {sd(1, u64)}, {ss(0, u32)});
    b.op(Opcode::ishl, {sd(2, u64)}, {ss(1, u64), imm(u64, 33)});
    b.op(Opcode::countbits, {sd(3, u32)}, {ss(2, u64)});
    b.op(Opcode::firstbit_lo, {sd(4, u32)}, {ss(2, u64)});
    b.op(Opcode::firstbit_hi, {sd(5, u32)}, {ss(2, u64)});
    b.op(Opcode::firstbit_shi, {sd(6, u32)}, {ss(2, i64)});
    b.op(Opcode::bfrev, {sd(7, u64)}, {ss(2, u64)});
    b.op(Opcode::utou, {sd(8, u16)}, {ss(0, u32)});
    b.op(Opcode::countbits, {sd(9, u32)}, {ss(8, u16)});
    b.op(Opcode::firstbit_hi, {sd(10, u32)}, {ss(8, u16)});
    b.op(Opcode::bfrev, {sd(11, u16)}, {ss(8, u16)});
    b.op(Opcode::utou, {sd(12, u32)}, {ss(11, u16)});
    b.op(Opcode::unpack64, {sd(13, u32), sd(14, u32)}, {ss(7, u64)});
    uint32_t offset = 0;
    for (uint32_t id : {3u, 4u, 5u, 6u, 9u, 10u, 12u, 13u, 14u}) {
        store_word(b, offset, ss(id, u32));
        offset += 4;
    }
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpBitCount %uint");
    CHECK_HAS(text, "FindILsb");
    CHECK_HAS(text, "FindUMsb");
    CHECK_HAS(text, "OpBitReverse %uint");
    CHECK_HAS_NOT(text, "OpBitCount %ulong"); // 32-bit only in Vulkan
    // spirv-opt folds none of OpBitCount, FindILsb, FindUMsb, OpBitReverse,
    // OpUConvert: their results are not checked by constant folding.
}

TEST_CASE("spirv dxil ops: f16 derivatives go through f32")
{
    VsirBuilder b(dxspv::ShaderStage::pixel);
    b.p.model.major = 6;
    b.dcl_constant_buffer(0, 1);
    b.op(Opcode::mov, {sd(0, f32)}, {cb(0, 0, "x", f32)});
    b.op(Opcode::ftof, {sd(1, f16)}, {ss(0, f32)});
    b.op(Opcode::deriv_rtx_fine, {sd(2, f16)}, {ss(1, f16)});
    b.op(Opcode::deriv_rty, {sd(3, f32)}, {ss(0, f32)});
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpDPdxFine %float");
    CHECK_HAS(text, "OpDPdy %float");
    CHECK_HAS(text, "OpFConvert %half");
}

TEST_CASE("spirv dxil ops: is_helper_lane reads HelperInvocation in pixel shaders, false elsewhere")
{
    VsirBuilder ps(dxspv::ShaderStage::pixel);
    ps.p.model.major = 6;
    ps.p.model.minor = 6;
    ps.dcl_uav_raw(0);
    ps.op(Opcode::is_helper_lane, {sd(0, boolean)}, {});
    ps.op(Opcode::is_helper_lane, {sd(1, u32)}, {});
    store_bool(ps, 0, 0, 2);
    store_word(ps, 4, ss(1, u32));
    ps.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(ps.p);
    CHECK_HAS(text, "BuiltIn HelperInvocation");

    VsirBuilder cs = dxil_compute();
    cs.op(Opcode::is_helper_lane, {sd(1, boolean)}, {});
    store_bool(cs, 1, 0, 2);
    cs.op(Opcode::ret, {}, {});
    std::string cs_text = emit_dxil(cs.p);
    CHECK_HAS_NOT(cs_text, "HelperInvocation");
    CHECK_HAS(cs_text, "OpConstantFalse");
}

TEST_CASE("spirv dxil ops: sample_cl, sample_b_cl, sample_d_cl, sample_c_cl clamp the LOD (MinLod)")
{
    VsirBuilder b(dxspv::ShaderStage::pixel);
    b.p.model.major = 6;
    b.dcl_uav_raw(0);
    b.dcl_descriptor(Opcode::dcl_sampler, RegisterFile::sampler, 0);
    Declaration& t = b.dcl_descriptor(Opcode::dcl_resource, RegisterFile::resource, 0);
    t.dimension = dxspv::vsir::ResourceDimension::texture_2d;
    for (DataType& rt : t.return_type)
        rt = f32;
    SrcParam coords = src(make_immediate(f32, 0x3f000000), "xxxx");
    SrcParam tex = src(srv(0), "xyzw");
    SrcParam smp = src(mk(RegisterFile::sampler, DataType::opaque, Dimension::none, {0, 0}), "x");
    b.op(Opcode::sample_cl, {sd4(0, f32)}, {coords, tex, smp, lf(1.0f)});
    b.op(Opcode::sample_b_cl, {sd4(1, f32)}, {coords, tex, smp, lf(0.5f), lf(2.0f)});
    b.op(Opcode::sample_d_cl, {sd4(2, f32)}, {coords, tex, smp, lf(0.25f), lf(0.25f), lf(3.0f)});
    b.op(Opcode::sample_c_cl, {sd(3, f32)}, {coords, tex, smp, lf(0.5f), lf(4.0f)});
    b.op(Opcode::add, {sd(4, f32)}, {ss4(0, f32, "xxxx"), ss4(1, f32, "yyyy")});
    b.op(Opcode::add, {sd(5, f32)}, {ss(4, f32), ss4(2, f32, "zzzz")});
    b.op(Opcode::add, {sd(6, f32)}, {ss(5, f32), ss(3, f32)});
    store_word(b, 0, ss(6, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCapability MinLod");
    CHECK_HAS(text, "Bias|MinLod");
    CHECK_HAS(text, "Grad|MinLod");
    CHECK_HAS(text, "OpImageSampleDrefImplicitLod %float");
}

TEST_CASE("spirv dxil ops: 64-bit atomics on a UAV buffer use a ulong view of it (Int64Atomics)")
{
    VsirBuilder b = dxil_compute();
    b.dcl_uav_structured(1, 16);
    b.op(Opcode::utou, {sd(1, u64)}, {ss(0, u32)});
    b.op(Opcode::imm_atomic_iadd, {sd(2, u64), dst(uav(0), "x")}, {lu(8), ss(1, u64)});
    b.op(Opcode::imm_atomic_imax, {sd(3, i64), dst(uav(0), "x")}, {lu(16), ss(1, i64)});
    b.op(Opcode::imm_atomic_cmp_exch, {sd(4, u64), dst(uav(1), "x")}, {lu4(1, 8, 0, 0), ss(2, u64), imm(u64, 5)});
    b.op(Opcode::imm_atomic_or, {sd(5, u32), dst(uav(0), "x")}, {lu(0), ss(0, u32)});
    b.op(Opcode::unpack64, {sd(6, u32), sd(7, u32)}, {ss(4, u64)});
    store_word(b, 24, ss(6, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCapability Int64Atomics");
    CHECK_HAS(text, "OpAtomicIAdd %ulong");
    CHECK_HAS(text, "OpAtomicSMax %ulong");
    CHECK_HAS(text, "OpAtomicCompareExchange %ulong");
    CHECK_HAS(text, "OpAtomicOr %uint");
    CHECK_HAS(text, "%u0_64 = OpVariable");
    CHECK_HAS(text, "%u1_64 = OpVariable");
}

TEST_CASE("spirv dxil ops: view_id reads ViewIndex (MultiView)")
{
    VsirBuilder ps(dxspv::ShaderStage::pixel);
    ps.p.model.major = 6;
    ps.dcl_uav_raw(0);
    ps.op(Opcode::view_id, {sd(0, u32)}, {});
    store_word(ps, 0, ss(0, u32));
    ps.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(ps.p);
    CHECK_HAS(text, "OpCapability MultiView");
    CHECK_HAS(text, "BuiltIn ViewIndex");
    CHECK_HAS(text, "OpDecorate %ViewIndex Flat");
}

TEST_CASE("spirv dxil ops: 64-bit atomics and stores on a 64-bit typed UAV (R64ui, Int64ImageEXT)")
{
    VsirBuilder b = dxil_compute();
    Declaration& d = b.dcl_descriptor(Opcode::dcl_uav_typed, RegisterFile::uav, 1);
    d.dimension = dxspv::vsir::ResourceDimension::texture_2d;
    for (DataType& rt : d.return_type)
        rt = u64;
    b.op(Opcode::store_uav_typed, {dst(uav(1), "xyzw")}, {lu4(1, 2, 0, 0), lu4(0xffffffffu, 0xffffffffu, 0, 0)});
    b.op(Opcode::utou, {sd(1, u64)}, {ss(0, u32)});
    b.op(Opcode::imm_atomic_umin, {sd(2, u64), dst(uav(1), "x")}, {lu4(1, 2, 0, 0), ss(1, u64)});
    b.op(Opcode::imm_atomic_cmp_exch, {sd(3, u64), dst(uav(1), "x")}, {lu4(1, 2, 0, 0), ss(2, u64), imm(u64, 9)});
    b.op(Opcode::unpack64, {sd(4, u32), sd(5, u32)}, {ss(3, u64)});
    store_word(b, 0, ss(4, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCapability Int64ImageEXT");
    CHECK_HAS(text, "OpCapability Int64Atomics");
    CHECK_HAS(text, "R64ui");
    CHECK_HAS(text, "OpAtomicUMin %ulong");
    CHECK_HAS(text, "OpAtomicCompareExchange %ulong");
}

TEST_CASE("spirv dxil ops: SM 6.6 compute shaders take derivatives in quads or linear groups of 4")
{
    for (uint32_t x : {8u, 12u}) {
        VsirBuilder b;
        b.p.model.major = 6;
        b.p.model.minor = 6;
        b.dcl_uav_raw(0);
        b.dcl_thread_group(x, x == 8 ? 8 : 1, 1);
        b.dcl_input(RegisterFile::thread_id, "x");
        b.op(Opcode::utof, {sd(0, f32)}, {tid("x")});
        b.op(Opcode::deriv_rtx_fine, {sd(1, f32)}, {ss(0, f32)});
        store_word(b, 0, ss(1, u32));
        b.op(Opcode::ret, {}, {});
        std::string text = emit_dxil(b.p);
        CHECK_HAS(text, "SPV_NV_compute_shader_derivatives");
        CHECK_HAS(text, x == 8 ? "DerivativeGroupQuadsNV" : "DerivativeGroupLinearNV");
        CHECK_HAS(text, "OpDPdxFine %float");
    }
}
