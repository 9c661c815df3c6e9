// SPIR-V emitter tests for SSA values and the width-generic typing of the
// DXIL conventions (VSIR.md): typed SSA scalars and vectors, swizzles and
// bitcasts, the dominance rule (direct ids vs Function variables), 16- and
// 64-bit integers, f16 and f64, booleans, and such values in word registers.
#include "dxil_emit.h"

using namespace spirv_test;

namespace {

size_t occurrences(const std::string& text, const std::string& needle)
{
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

constexpr DataType u32 = DataType::u32, i32 = DataType::i32, f32 = DataType::f32, f16 = DataType::f16,
                   f64 = DataType::f64, i16 = DataType::i16, u16 = DataType::u16, i64 = DataType::i64,
                   u64 = DataType::u64, boolean = DataType::boolean;

DstParam null_of(DataType type) { return dst(mk(RegisterFile::null, type, Dimension::scalar), "x"); }

} // namespace

#define CHECK_HAS(text, needle) CHECK_MESSAGE(contains(text, needle), "missing '" << (needle) << "' in\n" << (text))
#define CHECK_HAS_NOT(text, needle) \
    CHECK_MESSAGE(!contains(text, needle), "unexpected '" << (needle) << "' in\n" << (text))

TEST_CASE("spirv ssa: scalars and vectors, swizzles and bitcasts")
{
    VsirBuilder b = dxil_compute();
    // sr1.xyzw = 4 words of u0; sr2 = sr1.y (read as i32) + sr1.z
    b.op(Opcode::ishl, {sd(9, u32)}, {ss(0, u32), lu(4)});
    b.op(Opcode::ld_raw, {sd4(1, u32)}, {ss(9, u32), src(uav(0), "xyzw")});
    b.op(Opcode::iadd, {sd(2, i32)}, {ss4(1, i32, "y"), ss4(1, i32, "z")});
    b.op(Opcode::mov, {sd(3, f32)}, {ss(2, i32)}); // bit copy
    b.op(Opcode::add, {sd(4, f32)}, {ss(3, f32), ss(3, f32, SrcModifier::neg)});
    b.op(Opcode::iadd, {sd4(5, u32, "xy")}, {ss4(1, u32, "wx"), ss4(1, u32, "zz")});
    b.op(Opcode::mov, {sd(6, u32)}, {ss(4, f32)});
    store_word(b, 0, ss(6, u32));
    b.op(Opcode::store_raw, {dst(uav(0), "xy")}, {lu(16), ss4(5, u32, "yx")});
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCompositeExtract %uint");
    CHECK_HAS(text, "OpVectorShuffle %v2uint");
    CHECK_HAS(text, "OpIAdd %int"); // of the uint words as they are: iadd leaves the signedness free
    CHECK_HAS_NOT(text, "OpBitcast %int");
    CHECK_HAS(text, "OpBitcast %float");
    CHECK_HAS(text, "OpFNegate %float");
    CHECK_HAS_NOT(text, "OpName %sr"); // every value is used directly
}

TEST_CASE("spirv ssa: integer operations take either signedness and fold constants")
{
    VsirBuilder b = dxil_compute();
    // sr1 (u32) used as i32 by ishl, ishr, ilt and iadd; sr5 folds to a
    // constant, sr6 = sr1 + 0 is sr1 itself.
    b.op(Opcode::ishl, {sd(2, i32)}, {ss(0, i32), li(3)});
    b.op(Opcode::ishr, {sd(3, i32)}, {ss(2, i32), li(1)});
    b.op(Opcode::ilt, {sd(4, boolean)}, {ss(3, i32), ss(0, i32)});
    b.op(Opcode::ishl, {sd(5, u32)}, {lu(3), lu(34)}); // the count is masked: 3 << 2
    b.op(Opcode::iadd, {sd(6, u32)}, {ss(0, u32), lu(0)});
    b.op(Opcode::movc, {sd(7, u32)}, {ss(4, boolean), ss(5, u32), ss(6, u32)});
    store_word(b, 0, ss(7, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpShiftLeftLogical %int %14 %uint_3"); // sr0: the thread id's x, a uint
    CHECK_HAS(text, "OpShiftRightArithmetic %int");
    CHECK_HAS(text, "OpSLessThan %bool");
    CHECK_HAS_NOT(text, "OpBitcast");
    CHECK_HAS(text, "%uint_12 = OpConstant %uint 12");
    CHECK_EQ(occurrences(text, "OpShiftLeftLogical"), 1u);
    CHECK_HAS_NOT(text, "OpIAdd");
    CHECK_HAS(text, "OpSelect %uint %");
}

TEST_CASE("spirv ssa: a value defined before an if and used after endif is used directly")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::iadd, {sd(1, u32)}, {ss(0, u32), lu(1)});
    b.op(Opcode::ult, {sd(2, boolean)}, {ss(0, u32), lu(10)});
    b.test(Opcode::if_, ss(2, boolean));
    b.op(Opcode::iadd, {sd(3, u32)}, {ss(1, u32), lu(2)});
    store_word(b, 0, ss(3, u32));
    b.op(Opcode::else_, {}, {});
    store_word(b, 4, ss(1, u32));
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::iadd, {sd(4, u32)}, {ss(1, u32), lu(3)});
    store_word(b, 8, ss(4, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS_NOT(text, "OpName %sr");
    CHECK_HAS_NOT(text, "OpINotEqual"); // the boolean condition is used as it is
    CHECK_HAS(text, "OpBranchConditional");
}

TEST_CASE("spirv ssa: values used outside the region of their definition go through variables")
{
    SUBCASE("defined in a loop body, used after endloop")
    {
        VsirBuilder b = dxil_compute();
        b.op(Opcode::loop, {}, {});
        b.op(Opcode::iadd, {sd(1, u32)}, {ss(0, u32), lu(5)});
        b.op(Opcode::uge, {sd(2, boolean)}, {ss(1, u32), lu(7)});
        b.test(Opcode::breakc, ss(2, boolean));
        store_word(b, 0, ss(1, u32)); // inside the region: still the variable's value
        b.op(Opcode::break_, {}, {});
        b.op(Opcode::endloop, {}, {});
        store_word(b, 4, ss(1, u32));
        b.op(Opcode::ret, {}, {});
        std::string text = emit_dxil(b.p);
        CHECK_HAS(text, "OpName %sr1 \"sr1\"");
        CHECK_HAS(text, "%sr1 = OpVariable %_ptr_Function_uint Function");
        CHECK_HAS(text, "OpStore %sr1");
        CHECK_HAS_NOT(text, "OpName %sr2"); // used where it is defined
    }
    SUBCASE("defined in the then-branch, used in the else-branch; defined in the else-branch, used after")
    {
        VsirBuilder b = dxil_compute();
        b.op(Opcode::ult, {sd(1, boolean)}, {ss(0, u32), lu(32)});
        b.test(Opcode::if_, ss(1, boolean), false);
        b.op(Opcode::itof, {sd(2, f32)}, {ss(0, u32)});
        b.op(Opcode::else_, {}, {});
        b.op(Opcode::mul, {sd(3, f32)}, {ss(2, f32), lf(2.0f)});
        b.op(Opcode::endif, {}, {});
        b.op(Opcode::mov, {sd(4, u32)}, {ss(3, f32)});
        store_word(b, 0, ss(4, u32));
        b.op(Opcode::ret, {}, {});
        std::string text = emit_dxil(b.p);
        CHECK_HAS(text, "%sr2 = OpVariable %_ptr_Function_float Function");
        CHECK_HAS(text, "%sr3 = OpVariable %_ptr_Function_float Function");
        CHECK_HAS(text, "OpLogicalNot %bool"); // if_z on a boolean
        CHECK_HAS_NOT(text, "OpName %sr4");
    }
    SUBCASE("defined in a case, used in the case it falls through to")
    {
        VsirBuilder b = dxil_compute();
        b.op(Opcode::switch_, {}, {ss(0, u32)});
        b.op(Opcode::case_, {}, {lu(0)});
        b.op(Opcode::iadd, {sd(1, u32)}, {ss(0, u32), lu(9)});
        b.op(Opcode::case_, {}, {lu(1)});
        store_word(b, 0, ss(1, u32));
        b.op(Opcode::break_, {}, {});
        b.op(Opcode::default_, {}, {});
        b.op(Opcode::break_, {}, {});
        b.op(Opcode::endswitch, {}, {});
        b.op(Opcode::ret, {}, {});
        std::string text = emit_dxil(b.p);
        CHECK_HAS(text, "%sr1 = OpVariable %_ptr_Function_uint Function");
    }
    SUBCASE("a relative address reading a value after its loop")
    {
        VsirBuilder b = dxil_compute();
        b.dcl_indexable_temp(0, 4);
        b.op(Opcode::loop, {}, {});
        b.op(Opcode::and_, {sd(1, u32)}, {ss(0, u32), lu(3)});
        b.op(Opcode::break_, {}, {});
        b.op(Opcode::endloop, {}, {});
        Register x = mk(RegisterFile::indexable_temp, u32, Dimension::vec4, {0, 0});
        x.idx[1].rel_addr = b.p.add_src(ss(1, u32));
        b.op(Opcode::mov, {dst(x, "x")}, {ss(0, u32)});
        b.op(Opcode::mov, {sd(2, u32)}, {src(x, "x")});
        store_word(b, 0, ss(2, u32));
        b.op(Opcode::ret, {}, {});
        std::string text = emit_dxil(b.p);
        CHECK_HAS(text, "%sr1 = OpVariable %_ptr_Function_uint Function");
    }
}

TEST_CASE("spirv ssa: 64-bit integers, doubles and 64-bit packing")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::utou, {sd(1, u64)}, {ss(0, u32)});
    b.op(Opcode::itoi, {sd(2, i64)}, {ss(0, i32)});
    b.op(Opcode::iadd, {sd(3, i64)}, {ss(1, i64), ss(2, i64)});
    b.op(Opcode::imul, {null_of(i64), sd(4, i64)}, {ss(3, i64), ss(3, i64)});
    b.op(Opcode::ishl, {sd(5, i64)}, {ss(4, i64), imm(i64, 40)});
    b.op(Opcode::udiv, {sd(6, u64), null_of(u64)}, {ss(5, u64), imm(u64, 3)});
    b.op(Opcode::ushr, {sd(7, u64)}, {ss(6, u64), imm(u64, 32)});
    b.op(Opcode::unpack64, {sd(8, u32), sd(9, u32)}, {ss(7, u64)});
    store_word(b, 0, ss(8, u32));
    store_word(b, 4, ss(9, u32));
    b.op(Opcode::pack64, {sd(10, f64)}, {ss(8, u32), ss(9, u32)});
    b.op(Opcode::add, {sd(11, f64)}, {ss(10, f64), imm(f64, 0x3ff0000000000000ull)});
    b.op(Opcode::ftoi, {sd(12, i64)}, {ss(11, f64)});
    b.op(Opcode::itof, {sd(13, f64)}, {ss(12, i64)});
    b.op(Opcode::ftou, {sd(14, u32)}, {ss(13, f64)});
    store_word(b, 8, ss(14, u32));
    b.op(Opcode::ilt, {sd(15, boolean)}, {ss(3, i64), ss(4, i64)});
    b.op(Opcode::ieq, {sd(16, u32)}, {ss(3, i64), imm(i64, ~0ull)});
    b.op(Opcode::movc, {sd(17, u32)}, {ss(15, boolean), ss(16, u32), lu(7)});
    store_word(b, 12, ss(17, u32));
    b.op(Opcode::imin, {sd(18, i64)}, {ss(3, i64), ss(4, i64)});
    b.op(Opcode::umax, {sd(19, u64)}, {ss(18, u64), ss(1, u64)});
    b.op(Opcode::ineg, {sd(20, i64)}, {ss(19, i64)});
    b.op(Opcode::itoi, {sd(21, i32)}, {ss(20, i64)}); // truncation
    store_word(b, 16, ss(21, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCapability Int64");
    CHECK_HAS(text, "OpCapability Float64");
    CHECK_HAS(text, "OpUConvert %ulong");
    CHECK_HAS(text, "OpSConvert %long");
    CHECK_HAS(text, "OpSConvert %int");
    CHECK_HAS(text, "OpIAdd %long");
    CHECK_HAS(text, "OpIMul %long");
    CHECK_HAS(text, "OpShiftLeftLogical %long");
    CHECK_HAS(text, "OpBitwiseAnd %ulong"); // the shift count masked to 63
    CHECK_HAS(text, "OpUDiv %ulong");
    CHECK_HAS(text, "OpBitcast %v2uint");
    CHECK_HAS(text, "OpBitcast %double");
    CHECK_HAS(text, "OpConvertFToS %long");
    CHECK_HAS(text, "OpConvertSToF %double");
    CHECK_HAS(text, "OpSLessThan %bool");
    CHECK_HAS(text, "OpIEqual %bool");
    CHECK_HAS(text, "OpSNegate %long");
}

TEST_CASE("spirv ssa: f16, i16 and u16 values")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::utof, {sd(1, f32)}, {ss(0, u32)});
    b.op(Opcode::ftof, {sd(2, f16)}, {ss(1, f32)});
    b.op(Opcode::mad, {sd(3, f16)}, {ss(2, f16), imm(f16, 0x4000), imm(f16, 0x3c00)}); // x * 2 + 1
    b.op(Opcode::sqrt, {sd(4, f16)}, {ss(3, f16)});
    b.op(Opcode::max, {sd(5, f16)}, {ss(4, f16), ss(2, f16)}, 0);
    b.op(Opcode::lt, {sd(6, boolean)}, {ss(5, f16), imm(f16, 0x4400)});
    b.op(Opcode::ftof, {sd(7, f32)}, {ss(5, f16)});
    b.op(Opcode::mov, {sd(8, u32)}, {ss(7, f32)});
    store_word(b, 0, ss(8, u32));
    b.op(Opcode::utou, {sd(9, u16)}, {ss(0, u32)});
    b.op(Opcode::iadd, {sd(10, i16)}, {ss(9, i16), imm(i16, 0xfffe)});
    b.op(Opcode::imax, {sd(11, i16)}, {ss(10, i16), imm(i16, 0xfff0)});
    b.op(Opcode::itoi, {sd(12, i32)}, {ss(11, i16)});
    b.op(Opcode::movc, {sd(13, u32)}, {ss(6, boolean), ss(12, u32), lu(0)});
    store_word(b, 4, ss(13, u32));
    b.op(Opcode::mov, {sd(14, u16)}, {ss(5, f16)}); // bit copy
    b.op(Opcode::utou, {sd(15, u32)}, {ss(14, u16)});
    store_word(b, 8, ss(15, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpCapability Float16");
    CHECK_HAS(text, "OpCapability Int16");
    CHECK_HAS(text, "OpFConvert %half");
    CHECK_HAS(text, "OpFConvert %float");
    CHECK_HAS(text, "Fma");
    CHECK_HAS(text, "OpFOrdLessThan %bool");
    CHECK_HAS(text, "OpUConvert %ushort");
    CHECK_HAS(text, "OpIAdd %short");
    CHECK_HAS(text, "SMax");
    CHECK_HAS(text, "OpSConvert %int");
    CHECK_HAS(text, "OpBitcast %ushort");
    CHECK_HAS(text, "OpUConvert %uint");
}

TEST_CASE("spirv ssa: 16- and 64-bit values in word registers")
{
    VsirBuilder b = dxil_compute();
    b.dcl_temps(2);
    b.op(Opcode::utof, {sd(1, f32)}, {ss(0, u32)});
    b.op(Opcode::ftof, {sd(2, f16)}, {ss(1, f32)});
    b.op(Opcode::mov, {r(0, "y", f16)}, {ss(2, f16)});  // low 16 bits of r0.y
    b.op(Opcode::mov, {sd(3, f16)}, {rs(0, "y", f16)});
    b.op(Opcode::ftof, {sd(4, f64)}, {ss(3, f16)});
    b.op(Opcode::mov, {r(1, "zw", f64)}, {ss(4, f64)}); // two words, low first
    b.op(Opcode::utou, {sd(6, u64)}, {ss(0, u32)});
    b.op(Opcode::mov, {r(0, "zw", u64)}, {ss(6, u64)});
    // Read back after a branch: from the registers' words, not from the
    // values written (which reads in the same block get).
    b.op(Opcode::ult, {sd(11, boolean)}, {ss(0, u32), lu(10)});
    b.test(Opcode::if_, ss(11, boolean));
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::iadd, {sd(7, u64)}, {rs(0, "zw", u64), ss(6, u64)});
    b.op(Opcode::add, {sd(5, f64)}, {rs(1, "zw", f64), ss(4, f64)});
    b.op(Opcode::unpack64, {sd(8, u32), null_of(u32)}, {ss(7, u64)});
    store_word(b, 0, ss(8, u32));
    b.op(Opcode::store_raw, {dst(uav(0), "xyzw")}, {lu(16), rs(1, "xyzw", u32)});
    b.op(Opcode::dtof, {sd(9, f32)}, {ss(5, f64)});
    b.op(Opcode::mov, {sd(10, u32)}, {ss(9, f32)});
    store_word(b, 4, ss(10, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpUConvert %uint");   // a 16-bit value into its word
    CHECK_HAS(text, "OpUConvert %ushort"); // and back
    CHECK_HAS(text, "OpBitcast %v2uint");  // a double / u64 into two words
    CHECK_HAS(text, "OpBitcast %ulong");
    CHECK_HAS(text, "OpBitcast %double");
}

TEST_CASE("spirv ssa: booleans: logic, selects, conditions and word registers")
{
    VsirBuilder b(dxspv::ShaderStage::pixel);
    b.p.model.major = 6;
    b.dcl_temps(1);
    b.dcl_constant_buffer(0, 1);
    b.dcl_uav_raw(0);
    b.op(Opcode::mov, {sd(0, u32)}, {cb(0, 0, "x", u32)});
    b.op(Opcode::ilt, {sd(1, boolean)}, {ss(0, i32), imm(i32, 5)});
    b.op(Opcode::uge, {sd(2, boolean)}, {ss(0, u32), lu(2)});
    b.op(Opcode::and_, {sd(3, boolean)}, {ss(1, boolean), ss(2, boolean)});
    b.op(Opcode::or_, {sd(4, boolean)}, {ss(3, boolean), ss(1, boolean)});
    b.op(Opcode::xor_, {sd(5, boolean)}, {ss(4, boolean), ss(2, boolean)});
    b.op(Opcode::not_, {sd(6, boolean)}, {ss(5, boolean)});
    b.op(Opcode::movc, {sd(7, boolean)}, {ss(6, boolean), ss(1, boolean), lb(true)});
    b.op(Opcode::itoi, {sd(8, i32)}, {ss(7, boolean)});
    b.op(Opcode::utou, {sd(9, u32)}, {ss(7, boolean)});
    b.op(Opcode::utou, {sd(10, boolean)}, {ss(0, u32)});
    b.op(Opcode::mov, {r(0, "x", boolean)}, {ss(10, boolean)}); // 0 / 0xffffffff
    b.op(Opcode::and_, {sd(11, boolean)}, {rs(0, "x", boolean), ss(3, boolean)});
    b.test(Opcode::discard, ss(11, boolean));
    b.op(Opcode::loop, {}, {});
    b.test(Opcode::breakc, ss(6, boolean));
    b.test(Opcode::retc, ss(2, boolean), false);
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::endloop, {}, {});
    b.op(Opcode::iadd, {sd(12, i32)}, {ss(8, i32), ss(9, i32)});
    b.op(Opcode::ieq, {sd(13, boolean)}, {ss(7, boolean), ss(3, boolean)});
    b.op(Opcode::ine, {sd(14, u32)}, {ss(13, boolean), lb(false)});
    store_word(b, 0, ss(12, u32));
    store_word(b, 4, ss(14, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpLogicalAnd %bool");
    CHECK_HAS(text, "OpLogicalOr %bool");
    CHECK_HAS(text, "OpLogicalNotEqual %bool");
    CHECK_HAS(text, "OpLogicalNot %bool");
    CHECK_HAS(text, "OpSelect %bool");
    CHECK_HAS(text, "OpSelect %int");  // itoi from boolean: 0 / -1
    CHECK_HAS(text, "OpSelect %uint"); // utou from boolean, and the word register's mask
    CHECK_HAS(text, "OpINotEqual %bool");
    CHECK_HAS(text, "OpLogicalEqual %bool");
    CHECK(occurrences(text, "OpSelectionMerge") >= 3); // discard, breakc and retc
}

TEST_CASE("spirv ssa: mutated SSA programs never crash the emitter")
{
    // SSA values of several types across an if, a loop and a switch, wave
    // operations; then random corruption of files, types, ids, masks,
    // swizzles and opcodes. The emitter may refuse but must not crash.
    VsirBuilder base = dxil_compute();
    base.dcl_temps(1);
    base.op(Opcode::utou, {sd(1, u64)}, {ss(0, u32)});
    base.op(Opcode::ld_raw, {sd4(2, u32)}, {ss(0, u32), src(uav(0), "xyzw")});
    base.op(Opcode::ult, {sd(3, boolean)}, {ss4(2, u32, "y"), lu(4)});
    base.test(Opcode::if_, ss(3, boolean));
    base.op(Opcode::ftof, {sd(4, f16)}, {lf(1.5f)});
    base.op(Opcode::loop, {}, {});
    base.op(Opcode::iadd, {sd(5, i64)}, {ss(1, i64), imm(i64, 5)});
    base.test(Opcode::breakc, ss(3, boolean));
    base.op(Opcode::break_, {}, {});
    base.op(Opcode::endloop, {}, {});
    base.op(Opcode::else_, {}, {});
    base.op(Opcode::switch_, {}, {ss(0, u32)});
    base.op(Opcode::case_, {}, {lu(1)});
    base.op(Opcode::wave_active_sum, {sd(6, u32)}, {ss(0, u32)});
    base.op(Opcode::mov, {r(0, "x", u32)}, {ss(6, u32)});
    base.op(Opcode::break_, {}, {});
    base.op(Opcode::endswitch, {}, {});
    base.op(Opcode::endif, {}, {});
    base.op(Opcode::unpack64, {sd(7, u32), sd(8, u32)}, {ss(5, i64)});
    base.op(Opcode::ftof, {sd(9, f32)}, {ss(4, f16)});
    base.op(Opcode::mov, {sd(10, u32)}, {ss(9, f32)});
    store_word(base, 0, ss(10, u32));
    store_word(base, 4, ss(7, u32));
    base.op(Opcode::ret, {}, {});
    emit_dxil(base.p);

    uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&state](uint32_t bound) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return uint32_t(state % bound);
    };
    auto mutate_register = [&](Register& reg) {
        switch (next(5)) {
        case 0: reg.file = next(2) ? RegisterFile::ssa : RegisterFile(next(uint32_t(RegisterFile::count))); break;
        case 1: reg.type = DataType(next(uint32_t(DataType::opaque) + 1)); break;
        case 2: reg.idx[0].offset = next(8) == 0 ? ~0u : next(14); break;
        case 3: reg.index_count = uint8_t(next(3)); break;
        default: reg.dimension = Dimension(next(3)); break;
        }
    };
    for (int round = 0; round < 1500; ++round) {
        Program p = copy_program(base.p);
        for (int m = 0, n = 1 + int(next(3)); m < n; ++m) {
            switch (next(5)) {
            case 0: p.instructions[next(uint32_t(p.instructions.size()))].opcode = Opcode(next(uint32_t(Opcode::count))); break;
            case 1: mutate_register(p.dsts[next(uint32_t(p.dsts.size()))].reg); break;
            case 2: mutate_register(p.srcs[next(uint32_t(p.srcs.size()))].reg); break;
            case 3: p.dsts[next(uint32_t(p.dsts.size()))].write_mask = uint8_t(next(16)); break;
            default: p.srcs[next(uint32_t(p.srcs.size()))].swizzle = uint8_t(next(256)); break;
            }
        }
        for (dxspv::spirv::TargetEnv env : {dxspv::spirv::TargetEnv::vulkan1_0, dxspv::spirv::TargetEnv::vulkan1_3}) {
            dxspv::spirv::EmitOptions options;
            options.target_env = env;
            std::vector<uint32_t> words;
            dxspv::Diagnostics diags("emit");
            if (dxspv::spirv::emit_spirv(p, options, words, diags)) {
                dxspv::Diagnostics val;
                dxspv::spirv::validate_spirv(words, env, val); // must not crash either
            }
        }
    }
}

TEST_CASE("spirv ssa: 64-bit values loaded from and stored to raw buffers take two words")
{
    VsirBuilder b = dxil_compute();
    b.op(Opcode::ishl, {sd(1, u32)}, {ss(0, u32), lu(3)});
    b.op(Opcode::ld_raw, {sd(2, u64)}, {ss(1, u32), src(uav(0), "xyzw")});
    b.op(Opcode::ld_raw, {sd4(3, f64, "xy")}, {ss(1, u32), src(uav(0), "zwxy")});
    b.op(Opcode::iadd, {sd(4, u64)}, {ss(2, u64), imm(u64, 1ull << 32)});
    b.op(Opcode::store_raw, {dst(uav(0), "xy")}, {ss(1, u32), ss(4, u64)});
    b.op(Opcode::add, {sd(5, f64)}, {ss4(3, f64, "x"), ss4(3, f64, "y")});
    b.op(Opcode::store_raw, {dst(uav(0), "zw")}, {ss(1, u32), ss(5, f64)});
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpBitcast %ulong");
    CHECK_HAS(text, "OpBitcast %v2double");
    CHECK(occurrences(text, "OpLoad %uint") == 6);
}

TEST_CASE("spirv ssa: resource operations read and write SSA values")
{
    VsirBuilder b = dxil_compute();
    Declaration& tex = b.dcl_descriptor(Opcode::dcl_resource, RegisterFile::resource, 1);
    tex.dimension = ResourceDimension::texture_2d;
    for (DataType& t : tex.return_type)
        t = f32;
    Declaration& img = b.dcl_descriptor(Opcode::dcl_uav_typed, RegisterFile::uav, 2);
    img.dimension = ResourceDimension::texture_2d;
    for (DataType& t : img.return_type)
        t = u32;
    b.dcl_descriptor(Opcode::dcl_sampler, RegisterFile::sampler, 0);
    b.dcl_tgsm_raw(0, 64);
    Register sampler = mk(RegisterFile::sampler, DataType::opaque, Dimension::none, {0, 0});
    b.op(Opcode::utof, {sd(1, f32)}, {ss(0, u32)});
    b.op(Opcode::mov, {sd4(2, f32, "xy")}, {src(make_immediate_vec4(f32, 0x3f000000, 0x3e800000, 0, 0))});
    b.op(Opcode::sample_l, {sd4(3, f32)}, {ss4(2, f32, "xy"), src(srv(1)), src(sampler, "x"), ss(1, f32)});
    b.op(Opcode::mov, {sd4(5, i32)}, {src(make_immediate_vec4(i32, 1, 2, 0, 0))});
    b.op(Opcode::ld, {sd4(4, f32, "xz")}, {ss4(5, i32, "xyzw"), src(srv(1), "xyzw")});
    b.op(Opcode::ftou, {sd4(6, u32)}, {ss4(3, f32, "xyzw")});
    b.op(Opcode::store_uav_typed, {dst(uav(2), "xyzw")}, {ss4(5, u32, "xyyy"), ss4(6, u32, "wzyx")});
    b.op(Opcode::imm_atomic_iadd, {sd(7, u32), dst(tgsm(0), "x")}, {ss(0, u32), lu(1)});
    b.op(Opcode::bufinfo, {sd(8, u32)}, {src(uav(0), "xxxx")});
    b.op(Opcode::iadd, {sd(9, u32)}, {ss(7, u32), ss(8, u32)});
    store_word(b, 0, ss(9, u32));
    b.op(Opcode::ret, {}, {});
    std::string text = emit_dxil(b.p);
    CHECK_HAS(text, "OpImageSampleExplicitLod %v4float");
    CHECK_HAS(text, "OpImageFetch %v4float");
    CHECK_HAS(text, "OpImageWrite");
    CHECK_HAS(text, "OpAtomicIAdd %uint");
    CHECK_HAS_NOT(text, "OpName %sr");
}

TEST_CASE("spirv ssa: malformed SSA programs are refused with numbered diagnostics")
{
    auto refused = [](const Program& p, const char* text) {
        dxspv::spirv::EmitOptions options;
        std::vector<uint32_t> words;
        dxspv::Diagnostics diags("emit");
        CHECK_FALSE(dxspv::spirv::emit_spirv(p, options, words, diags));
        CHECK(words.empty());
        CHECK(diags.has_code(dxspv::Code::spirv_invalid_operand));
        CHECK_MESSAGE(contains(diags.to_string(), text), diags.to_string());
    };
    {
        VsirBuilder b = dxil_compute();
        b.p.ssa_count = 4;
        b.op(Opcode::iadd, {sd(1, u32)}, {ss(3, u32), lu(1)}); // sr3 never defined
        b.op(Opcode::ret, {}, {});
        refused(b.p, "sr3 is never defined");
    }
    {
        VsirBuilder b = dxil_compute();
        b.op(Opcode::ld_raw, {sd4(1, u32, "xy")}, {ss(0, u32), src(uav(0), "xyzw")});
        b.op(Opcode::iadd, {sd(2, u32)}, {ss4(1, u32, "z"), lu(1)}); // z not written
        b.op(Opcode::ret, {}, {});
        refused(b.p, "sr1 component z is not defined");
    }
    {
        VsirBuilder b = dxil_compute();
        b.op(Opcode::utou, {sd(1, u64)}, {ss(0, u32)});
        b.op(Opcode::iadd, {sd(2, u32)}, {ss(1, u32), lu(1)}); // read at another width
        b.op(Opcode::ret, {}, {});
        refused(b.p, "64-bit where a 32-bit value is expected");
    }
    {
        VsirBuilder b = dxil_compute();
        b.p.ssa_count = 1u << 25;
        refused(b.p, "SSA values");
    }
}
