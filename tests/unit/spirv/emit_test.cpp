// SPIR-V emitter tests: VSIR programs built in code (as the DXBC front end
// would produce them) are emitted for Vulkan 1.0-1.3, validated with
// spirv-val, run through spirv-opt, and their disassembly checked for the
// key instructions and decorations.
#include <doctest/doctest.h>

#include <pthread.h>

#include <string>
#include <vector>

#include "spirv/emit.h"
#include "spirv/tools.h"
#include "vsir/printer.h"
#include "vsir/validator.h"
#include "vsir_builder.h"

using namespace spirv_test;
using dxspv::Code;
using dxspv::Diagnostics;
using dxspv::spirv::TargetEnv;

namespace {

constexpr TargetEnv all_envs[] = {TargetEnv::vulkan1_0, TargetEnv::vulkan1_1, TargetEnv::vulkan1_2,
    TargetEnv::vulkan1_3};

struct Emitted {
    bool ok = false;
    std::vector<uint32_t> words;
    std::string text;
    Diagnostics diags{"test"};
};

Emitted emit(const Program& p, TargetEnv env = TargetEnv::vulkan1_1)
{
    Emitted e;
    dxspv::spirv::EmitOptions options;
    options.target_env = env;
    e.ok = dxspv::spirv::emit_spirv(p, options, e.words, e.diags);
    if (e.ok)
        e.text = dxspv::spirv::disassemble_spirv(e.words);
    return e;
}

std::string vsir_text(const Program& p)
{
    dxspv::vsir::PrintOptions options;
    options.show_types = true;
    return dxspv::vsir::print_program(p, options);
}

/// Emits `p` for every target: the VSIR must be valid, emission must
/// succeed, spirv-val must accept the module and spirv-opt must optimise it
/// into a module spirv-val still accepts. Returns the vulkan1.1 disassembly.
std::string emit_valid(const Program& p)
{
    INFO("VSIR:\n" << vsir_text(p));
    Diagnostics vsir_diags("vsir");
    CHECK_MESSAGE(dxspv::vsir::validate_program(p, vsir_diags, nullptr), vsir_diags.to_string());
    std::string text;
    for (TargetEnv env : all_envs) {
        INFO("target " << std::string(dxspv::spirv::target_env_name(env)));
        Emitted e = emit(p, env);
        REQUIRE_MESSAGE(e.ok, e.diags.to_string());
        Diagnostics val("spirv-val");
        CHECK_MESSAGE(dxspv::spirv::validate_spirv(e.words, env, val), val.to_string() << "\n" << e.text);
        std::vector<uint32_t> optimized = e.words;
        Diagnostics opt("spirv-opt");
        CHECK_MESSAGE(dxspv::spirv::optimize_spirv(optimized, env, opt), opt.to_string());
        Diagnostics val_opt("spirv-val");
        CHECK_MESSAGE(dxspv::spirv::validate_spirv(optimized, env, val_opt), val_opt.to_string());
        if (env == TargetEnv::vulkan1_1)
            text = e.text;
    }
    return text;
}

size_t count(const std::string& text, const std::string& needle)
{
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

#define CHECK_HAS(text, needle) CHECK_MESSAGE(count(text, needle) > 0, "missing '" << std::string(needle) << "' in\n" << (text))

/// Emission must fail with `code`, and a message naming `name`.
void check_refused(const Program& p, Code code, const char* name)
{
    INFO("VSIR:\n" << vsir_text(p));
    Emitted e = emit(p);
    CHECK_FALSE(e.ok);
    CHECK(e.words.empty());
    CHECK_MESSAGE(e.diags.has_code(code), e.diags.to_string());
    CHECK_MESSAGE(e.diags.to_string().find(name) != std::string::npos, e.diags.to_string());
}

/// Compute shader prologue: u0 raw, thread group (64,1,1), `temps` temps.
VsirBuilder compute(uint32_t temps)
{
    VsirBuilder b;
    b.dcl_uav_raw(0);
    b.dcl_thread_group(64, 1, 1);
    b.dcl_input(RegisterFile::thread_id, "xyz");
    b.dcl_temps(temps);
    return b;
}

Register sampler(uint32_t i) { return mk(RegisterFile::sampler, DataType::opaque, Dimension::none, {i, i}); }

void dcl_typed(VsirBuilder& b, Opcode op, uint32_t reg, ResourceDimension dim, DataType type)
{
    Declaration& d = b.dcl_descriptor(op, op == Opcode::dcl_resource ? RegisterFile::resource : RegisterFile::uav, reg);
    d.dimension = dim;
    for (DataType& t : d.return_type)
        t = type;
    if (dim == ResourceDimension::texture_2dms)
        d.sample_count = 4;
}

/// A copy of everything but the arena (unused by these programs).
/// store_raw u0.<m>, l(offset), r<reg>.<s>
void store_result(VsirBuilder& b, uint32_t offset, uint32_t reg, const char* m = "x", const char* s = "x")
{
    b.op(Opcode::store_raw, {dst(uav(0), m)}, {lu(offset), rs(reg, s)});
}

} // namespace

TEST_CASE("spirv: raw buffer read-modify-write (compute)")
{
    // dcl_uav_raw u0; dcl_thread_group 64,1,1; ishl r0.x, vThreadID.x, l(2);
    // ld_raw r1.x, r0.x, u0; iadd r1.x, r1.x, l(1); store_raw u0.x, r0.x, r1.x; ret
    VsirBuilder b = compute(2);
    b.op(Opcode::ishl, {r(0, "x", DataType::i32)}, {tid("x", DataType::i32), lu(2)});
    b.op(Opcode::ld_raw, {r(1, "x")}, {rs(0, "x"), src(uav(0), "x")});
    b.op(Opcode::iadd, {r(1, "x", DataType::i32)}, {rs(1, "x", DataType::i32), li(1)});
    b.op(Opcode::store_raw, {dst(uav(0), "x")}, {rs(0, "x"), rs(1, "x")});
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "OpEntryPoint GLCompute %main \"main\"");
    CHECK_HAS(text, "OpExecutionMode %main LocalSize 64 1 1");
    CHECK_HAS(text, "OpDecorate %vThreadID BuiltIn GlobalInvocationId");
    CHECK_HAS(text, "OpName %u0 \"u0\"");
    CHECK_HAS(text, "OpDecorate %u0 DescriptorSet 0");
    CHECK_HAS(text, "OpDecorate %u0 Binding 2000");
    CHECK_HAS(text, "ArrayStride 4");
    CHECK_HAS(text, "StorageBuffer");
    CHECK_HAS(text, "OpShiftLeftLogical");
    CHECK_HAS(text, "OpShiftRightLogical"); // byte offset -> uint index
    CHECK_HAS(text, "OpIAdd");
    CHECK(count(text, "OpReturn") == 1);

    Emitted e10 = emit(b.p, TargetEnv::vulkan1_0);
    CHECK_HAS(e10.text, "OpExtension \"SPV_KHR_storage_buffer_storage_class\"");
    CHECK(e10.words.at(1) == 0x00010000u);
    CHECK(emit(b.p, TargetEnv::vulkan1_3).words.at(1) == 0x00010600u);
}

TEST_CASE("spirv: structured buffers, SRV and UAV")
{
    VsirBuilder b;
    b.dcl_resource_structured(0, 16);
    b.dcl_uav_structured(1, 8);
    b.dcl_thread_group(8, 8, 1);
    b.dcl_temps(2);
    b.op(Opcode::ld_structured, {r(0, "xyzw")}, {tid("x"), lu(0), src(srv(0), "xyzw")});
    b.op(Opcode::ld_structured, {r(1, "xy", DataType::f32)}, {sysval(RegisterFile::thread_group_id, "y"), lu(8),
        src(srv(0), "yxxx")});
    b.op(Opcode::add, {r(1, "xy", DataType::f32)}, {rs(1, "xy", DataType::f32), rs(0, "zw", DataType::f32)});
    b.op(Opcode::store_structured, {dst(uav(1), "xy")}, {sysval(RegisterFile::local_thread_id, "x"), lu(0),
        rs(1, "xy")});
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "OpExecutionMode %main LocalSize 8 8 1");
    CHECK_HAS(text, "OpDecorate %t0 Binding 1000");
    CHECK_HAS(text, "OpDecorate %u1 Binding 2001");
    CHECK_HAS(text, "NonWritable");
    CHECK_HAS(text, "BuiltIn WorkgroupId");
    CHECK_HAS(text, "BuiltIn LocalInvocationId");
    CHECK_HAS(text, "OpIMul");
    CHECK_HAS(text, "OpFAdd");
}

TEST_CASE("spirv: constant buffer reads, direct and relative")
{
    VsirBuilder b = compute(3);
    b.dcl_constant_buffer(0, 4);
    b.dcl_constant_buffer(2, 8);
    b.op(Opcode::mul, {r(0, "xyzw", DataType::f32)}, {cb(0, 1, "xyzw"), cb(0, 2, "wzyx")});
    b.op(Opcode::mov, {r(1, "x")}, {lu(1)});
    // mad r0.xy, cb2[r1.x + 3].xyxx, r0.xyxx, cb0[0].zwzz
    SrcParam rel = cb(2, 3, "xy");
    rel.reg.idx[2].rel_addr = b.p.add_src(rs(1, "x"));
    b.op(Opcode::mad, {r(0, "xy", DataType::f32)}, {rel, rs(0, "xy", DataType::f32), cb(0, 0, "zw")});
    b.op(Opcode::dp4, {r(2, "x", DataType::f32)}, {rs(0, "xyzw", DataType::f32), cb(0, 3, "xyzw")});
    b.op(Opcode::ftou, {r(2, "y")}, {cb(0, 3, "w")});
    store_result(b, 0, 0, "xyzw", "xyzw");
    store_result(b, 16, 2, "xy", "xy");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "ArrayStride 16");
    CHECK_HAS(text, "OpDecorate %cb0_block Block");
    CHECK_HAS(text, "OpDecorate %cb0 Binding 0");
    CHECK_HAS(text, "OpDecorate %cb2 Binding 2");
    CHECK_HAS(text, "Uniform");
    CHECK_HAS(text, "OpDot");
    CHECK_HAS(text, "Fma");
    CHECK_HAS(text, "OpConvertFToU");
}

TEST_CASE("spirv: group-shared memory, barriers and atomics")
{
    VsirBuilder b = compute(3);
    b.dcl_uav_structured(1, 8);
    b.dcl_tgsm_raw(0, 256);
    b.dcl_tgsm_structured(1, 8, 64);
    b.dcl_input(RegisterFile::local_thread_index, "x");
    SrcParam flat = sysval(RegisterFile::local_thread_index, "x");
    b.op(Opcode::ishl, {r(0, "x", DataType::i32)}, {sysval(RegisterFile::local_thread_index, "x", DataType::i32), lu(2)});
    b.op(Opcode::store_raw, {dst(tgsm(0), "x")}, {rs(0, "x"), flat});
    b.op(Opcode::sync, {}, {}, flag_sync_thread_group | flag_sync_tgsm);
    b.op(Opcode::ld_raw, {r(1, "x")}, {rs(0, "x"), src(tgsm(0), "x")});
    b.op(Opcode::atomic_iadd, {dst(uav(0), "x")}, {lu(0), rs(1, "x")});
    b.op(Opcode::atomic_and, {dst(uav(0), "x")}, {lu(4), lu(0xff)});
    b.op(Opcode::atomic_or, {dst(uav(0), "x")}, {lu(4), lu(0x100)});
    b.op(Opcode::atomic_xor, {dst(uav(0), "x")}, {lu(4), rs(1, "x")});
    b.op(Opcode::atomic_imax, {dst(uav(0), "x")}, {lu(8), li(-3)});
    b.op(Opcode::atomic_imin, {dst(tgsm(0), "x")}, {lu(8), li(-3)});
    b.op(Opcode::atomic_umin, {dst(uav(0), "x")}, {lu(12), rs(1, "x")});
    b.op(Opcode::atomic_cmp_store, {dst(uav(0), "x")}, {lu(12), lu(0), lu(7)});
    b.op(Opcode::atomic_umax, {dst(uav(1), "x")}, {lu4(3, 4, 0, 0), rs(1, "x")}); // structured: index 3, offset 4
    b.op(Opcode::imm_atomic_iadd, {r(2, "x"), dst(tgsm(0), "x")}, {lu(0), lu(1)});
    b.op(Opcode::imm_atomic_cmp_exch, {r(2, "y"), dst(uav(0), "x")}, {lu(4), lu(0), rs(1, "x")});
    b.op(Opcode::imm_atomic_exch, {r(2, "z", DataType::i32), dst(tgsm(1), "x")}, {lu4(5, 4, 0, 0), li(-1)});
    b.op(Opcode::imm_atomic_umax, {r(2, "w"), dst(uav(1), "x")}, {lu4(1, 0, 0, 0), rs(1, "x")});
    b.op(Opcode::imm_atomic_imin, {r(1, "y", DataType::i32), dst(tgsm(1), "x")}, {lu4(2, 0, 0, 0), li(5)});
    b.op(Opcode::imm_atomic_and, {r(1, "z"), dst(uav(0), "x")}, {lu(16), lu(1)});
    b.op(Opcode::imm_atomic_or, {r(1, "w"), dst(uav(0), "x")}, {lu(16), lu(2)});
    b.op(Opcode::imm_atomic_xor, {null_dst(), dst(uav(0), "x")}, {lu(16), lu(3)});
    b.op(Opcode::imm_atomic_imax, {r(0, "y", DataType::i32), dst(uav(0), "x")}, {lu(16), li(3)});
    b.op(Opcode::imm_atomic_umin, {r(0, "z"), dst(uav(0), "x")}, {lu(16), lu(3)});
    b.op(Opcode::sync, {}, {}, flag_sync_thread_group | flag_sync_uav_global);
    b.op(Opcode::sync, {}, {}, flag_sync_uav_group);
    b.op(Opcode::sync, {}, {}, flag_sync_thread_group);
    b.op(Opcode::store_structured, {dst(tgsm(1), "xy")}, {flat, lu(0), rs(2, "xy")});
    b.op(Opcode::ld_structured, {r(0, "xy")}, {flat, lu(0), src(tgsm(1), "yx")});
    store_result(b, 32, 2, "xyzw", "xyzw");
    store_result(b, 48, 1, "xyzw", "xyzw");
    store_result(b, 64, 0, "xyz", "xyz");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "BuiltIn LocalInvocationIndex");
    CHECK_HAS(text, "OpVariable %_ptr_Workgroup");
    CHECK(count(text, "OpControlBarrier") == 3);
    CHECK(count(text, "OpMemoryBarrier") == 1);
    for (const char* op : {"OpAtomicIAdd", "OpAtomicAnd", "OpAtomicOr", "OpAtomicXor", "OpAtomicSMax",
             "OpAtomicSMin", "OpAtomicUMax", "OpAtomicUMin", "OpAtomicExchange", "OpAtomicCompareExchange"})
        CHECK_HAS(text, op);
}

TEST_CASE("spirv: group-shared memory used by 64-bit atomics is ulong[]; its words are halves")
{
    VsirBuilder b = compute(2);
    b.dcl_tgsm_raw(0, 16);
    b.dcl_tgsm_raw(1, 16);
    b.op(Opcode::store_raw, {dst(tgsm(0), "xy")}, {lu(0), lu4(1, 2, 0, 0)});
    b.op(Opcode::imm_atomic_iadd, {sd(0, DataType::u64), dst(tgsm(0), "x")}, {lu(8), imm(DataType::u64, 3)});
    b.op(Opcode::imm_atomic_cmp_exch, {sd(1, DataType::u64), dst(tgsm(0), "x")},
        {lu(8), ss(0, DataType::u64), imm(DataType::u64, 9)});
    b.op(Opcode::ld_raw, {r(0, "xy")}, {lu(4), src(tgsm(0), "xy")});
    b.op(Opcode::imm_atomic_iadd, {r(1, "x"), dst(tgsm(1), "x")}, {lu(0), lu(1)}); // g1 stays uint[]
    store_result(b, 0, 0, "xy", "xy");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "OpCapability Int64Atomics");
    CHECK_HAS(text, "%_arr_ulong_uint_2 = OpTypeArray %ulong %uint_2");
    CHECK_HAS(text, "%_arr_uint_uint_4 = OpTypeArray %uint %uint_4");
    CHECK(count(text, "OpAtomicIAdd %ulong") == 1);
    CHECK(count(text, "OpAtomicIAdd %uint") == 1);
    CHECK(count(text, "OpAtomicCompareExchange %ulong") == 1);
    CHECK(count(text, "OpAtomicAnd %ulong") == 2); // the two word stores
    CHECK(count(text, "OpAtomicOr %ulong") == 2);

    b.op(Opcode::imm_atomic_iadd, {r(1, "y"), dst(tgsm(0), "x")}, {lu(0), lu(1)});
    check_refused(b.p, Code::spirv_unsupported_opcode, "32-bit atomics on group-shared memory that 64-bit atomics");
}

TEST_CASE("spirv: if / else / endif, nested, with retc")
{
    VsirBuilder b = compute(2);
    b.op(Opcode::ult, {r(0, "x")}, {tid("x"), lu(32)});
    b.test(Opcode::if_, rs(0, "x"));
    b.op(Opcode::mov, {r(1, "x")}, {lu(1)});
    b.test(Opcode::if_, tid("y"), false); // if_z
    b.op(Opcode::mov, {r(1, "y")}, {lu(2)});
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::else_, {}, {});
    b.op(Opcode::mov, {r(1, "x")}, {lu(3)});
    b.test(Opcode::retc, tid("z"));
    b.op(Opcode::endif, {}, {});
    b.test(Opcode::if_, rs(1, "x")); // empty if
    b.op(Opcode::endif, {}, {});
    store_result(b, 0, 1, "xy", "xy");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK(count(text, "OpSelectionMerge") == 4);
    CHECK(count(text, "OpBranchConditional") == 4);
    CHECK(count(text, "OpReturn") == 2);
}

TEST_CASE("spirv: nested loops with breakc, continuec, break and continue")
{
    // loop { if (i >= 4) break; j = 0; loop { breakc_nz j >= 3; j++;
    //   continuec_z j & 1; sum += j; if (sum > 100) { break } continue } i++ }
    VsirBuilder b = compute(3);
    b.op(Opcode::mov, {r(0, "xyz")}, {lu(0)});
    b.op(Opcode::loop, {}, {});
    b.op(Opcode::uge, {r(2, "x")}, {rs(0, "x"), lu(4)});
    b.test(Opcode::if_, rs(2, "x"));
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::mov, {r(0, "y")}, {lu(0)});
    b.op(Opcode::loop, {}, {});
    b.op(Opcode::uge, {r(2, "x")}, {rs(0, "y"), lu(3)});
    b.test(Opcode::breakc, rs(2, "x"));
    b.op(Opcode::iadd, {r(0, "y", DataType::i32)}, {rs(0, "y", DataType::i32), li(1)});
    b.op(Opcode::and_, {r(2, "y")}, {rs(0, "y"), lu(1)});
    b.test(Opcode::continuec, rs(2, "y"), false);
    b.op(Opcode::iadd, {r(0, "z", DataType::i32)}, {rs(0, "z", DataType::i32), rs(0, "y", DataType::i32)});
    b.op(Opcode::ult, {r(2, "z")}, {lu(100), rs(0, "z")});
    b.test(Opcode::if_, rs(2, "z"));
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::continue_, {}, {});
    b.op(Opcode::endloop, {}, {});
    b.op(Opcode::iadd, {r(0, "x", DataType::i32)}, {rs(0, "x", DataType::i32), li(1)});
    b.op(Opcode::endloop, {}, {});
    store_result(b, 0, 0, "xyz", "xyz");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK(count(text, "OpLoopMerge") == 2);
    CHECK(count(text, "OpSelectionMerge") == 4);
}

TEST_CASE("spirv: switch with fallthrough, default, and a switch inside a loop")
{
    VsirBuilder b = compute(2);
    b.op(Opcode::mov, {r(1, "xy")}, {lu(0)});
    b.op(Opcode::switch_, {}, {tid("x")});
    b.op(Opcode::case_, {}, {lu(0)});
    b.op(Opcode::mov, {r(1, "x")}, {lu(10)});
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::case_, {}, {lu(1)});
    b.op(Opcode::case_, {}, {lu(2)});
    b.op(Opcode::mov, {r(1, "x")}, {lu(20)}); // falls through into case 3
    b.op(Opcode::case_, {}, {lu(3)});
    b.op(Opcode::iadd, {r(1, "y", DataType::i32)}, {rs(1, "y", DataType::i32), li(1)});
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::default_, {}, {});
    b.op(Opcode::mov, {r(1, "x")}, {lu(30)});
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::endswitch, {}, {});

    b.op(Opcode::mov, {r(0, "x")}, {lu(0)});
    b.op(Opcode::loop, {}, {});
    b.op(Opcode::uge, {r(0, "y")}, {rs(0, "x"), lu(8)});
    b.test(Opcode::breakc, rs(0, "y"));
    b.op(Opcode::iadd, {r(0, "x", DataType::i32)}, {rs(0, "x", DataType::i32), li(1)});
    b.op(Opcode::switch_, {}, {rs(0, "x", DataType::i32)});
    b.op(Opcode::case_, {}, {li(2)});
    b.op(Opcode::continue_, {}, {});
    b.op(Opcode::case_, {}, {li(3)});
    b.test(Opcode::breakc, rs(1, "y")); // leaves the switch
    b.op(Opcode::iadd, {r(1, "y", DataType::i32)}, {rs(1, "y", DataType::i32), li(2)});
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::default_, {}, {});
    b.test(Opcode::continuec, rs(1, "x"));
    b.op(Opcode::endswitch, {}, {});
    b.op(Opcode::iadd, {r(1, "x", DataType::i32)}, {rs(1, "x", DataType::i32), li(1)});
    b.op(Opcode::endloop, {}, {});
    b.op(Opcode::switch_, {}, {tid("y")}); // no default, no fallthrough
    b.op(Opcode::case_, {}, {lu(7)});
    b.op(Opcode::mov, {r(1, "x")}, {lu(7)});
    b.op(Opcode::break_, {}, {});
    b.op(Opcode::endswitch, {}, {});
    b.op(Opcode::switch_, {}, {tid("z")}); // default between cases, falling through both ways
    b.op(Opcode::case_, {}, {lu(1)});
    b.op(Opcode::iadd, {r(1, "x", DataType::i32)}, {rs(1, "x", DataType::i32), li(1)});
    b.op(Opcode::default_, {}, {});
    b.op(Opcode::iadd, {r(1, "x", DataType::i32)}, {rs(1, "x", DataType::i32), li(2)});
    b.op(Opcode::case_, {}, {lu(2)});
    b.op(Opcode::iadd, {r(1, "x", DataType::i32)}, {rs(1, "x", DataType::i32), li(3)});
    b.op(Opcode::endswitch, {}, {});
    store_result(b, 0, 1, "xy", "xy");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK(count(text, "OpSwitch") == 4);
    CHECK(count(text, "OpLoopMerge") == 1);
}

TEST_CASE("spirv: dead code after returns and endless loops")
{
    VsirBuilder b = compute(1);
    b.test(Opcode::if_, tid("x"));
    b.op(Opcode::ret, {}, {});
    b.op(Opcode::else_, {}, {});
    b.op(Opcode::loop, {}, {});
    b.test(Opcode::if_, tid("y"));
    b.op(Opcode::ret, {}, {});
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::endloop, {}, {});
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::mov, {r(0, "x")}, {lu(1)}); // unreachable
    store_result(b, 0, 0);
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "OpUnreachable");

    VsirBuilder c = compute(1);
    c.op(Opcode::loop, {}, {});
    c.op(Opcode::ret, {}, {});
    c.op(Opcode::endloop, {}, {});
    c.op(Opcode::ret, {}, {});
    emit_valid(c.p);
}

TEST_CASE("spirv: float arithmetic, modifiers and saturate")
{
    VsirBuilder b = compute(4);
    DataType f = DataType::f32;
    b.op(Opcode::utof, {r(0, "xyzw", f)}, {tid("xyzx")});
    b.op(Opcode::add, {r(1, "xyzw", f)}, {rs(0, "xyzw", f), lf(0.5f)});
    b.op(Opcode::mul, {r(1, "xy", f, dst_saturate)}, {rs(1, "xy", f, SrcModifier::neg), rs(0, "yx", f, SrcModifier::abs)});
    b.op(Opcode::div, {r(1, "z", f)}, {rs(1, "z", f, SrcModifier::abs_neg), lf(3.0f)});
    b.op(Opcode::mad, {r(2, "xyzw", f)}, {rs(1, "xyzw", f), rs(0, "wzyx", f), lf(1.0f)}, flag_precise_mask);
    b.op(Opcode::dp2, {r(3, "x", f)}, {rs(2, "xy", f), rs(1, "xy", f)});
    b.op(Opcode::dp3, {r(3, "yz", f)}, {rs(2, "xyz", f), rs(1, "xyz", f)});
    b.op(Opcode::min, {r(3, "w", f)}, {rs(2, "w", f), rs(1, "w", f)});
    b.op(Opcode::max, {r(2, "x", f)}, {rs(2, "x", f), rs(1, "x", f)});
    for (Opcode op : {Opcode::frc, Opcode::round_ne, Opcode::round_ni, Opcode::round_pi, Opcode::round_z, Opcode::exp,
             Opcode::log, Opcode::sqrt, Opcode::rsq, Opcode::rcp})
        b.op(op, {r(2, "yz", f)}, {rs(2, "zy", f)});
    b.op(Opcode::sincos, {r(1, "x", f), r(1, "y", f)}, {rs(2, "y", f)});
    b.op(Opcode::sincos, {null_dst(f), r(1, "z", f)}, {rs(1, "x", f)});
    b.op(Opcode::eq, {r(0, "x")}, {rs(1, "x", f), rs(1, "y", f)});
    b.op(Opcode::ne, {r(0, "y")}, {rs(1, "x", f), lf(0.0f)});
    b.op(Opcode::lt, {r(0, "z")}, {rs(1, "x", f), rs(2, "x", f)});
    b.op(Opcode::ge, {r(0, "w")}, {rs(1, "x", f), rs(2, "x", f)});
    b.op(Opcode::movc, {r(3, "xy", f)}, {rs(0, "xy"), rs(1, "xy", f), rs(2, "xy", f)});
    b.op(Opcode::swapc, {r(1, "xy", f), r(2, "xy", f)}, {rs(0, "zw"), rs(1, "xy", f), rs(2, "xy", f)});
    b.op(Opcode::mov, {r(3, "z", f, dst_saturate)}, {rs(3, "x", f, SrcModifier::neg)});
    store_result(b, 0, 1, "xyzw", "xyzw");
    store_result(b, 16, 2, "xyzw", "xyzw");
    store_result(b, 32, 3, "xyzw", "xyzw");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    for (const char* op : {"OpFAdd", "OpFMul", "OpFDiv", "Fma", "OpDot", "NMin", "NMax", "Fract", "RoundEven",
             "Floor", "Ceil", "Trunc", "Exp2", "Log2", "Sqrt", "InverseSqrt", "Sin", "Cos", "NClamp", "FAbs",
             "OpFNegate", "OpFOrdEqual", "OpFUnordNotEqual", "OpFOrdLessThan", "OpFOrdGreaterThanEqual", "OpSelect",
             "NoContraction", "OpConvertUToF"})
        CHECK_HAS(text, op);
}

TEST_CASE("spirv: integer and bit operations")
{
    VsirBuilder b = compute(4);
    DataType i = DataType::i32;
    b.op(Opcode::mov, {r(0, "xyzw")}, {tid("xyzx")});
    b.op(Opcode::iadd, {r(1, "xy", i)}, {rs(0, "xy", i), rs(0, "yx", i, SrcModifier::neg)});
    b.op(Opcode::imul, {r(1, "z", i), r(1, "w", i)}, {rs(0, "x", i), li(-7)});
    b.op(Opcode::umul, {null_dst(), r(2, "x")}, {rs(0, "x"), lu(3)});
    b.op(Opcode::umul, {r(2, "y"), null_dst()}, {rs(0, "y"), lu(0x80000000u)});
    b.op(Opcode::udiv, {r(2, "z"), r(2, "w")}, {rs(0, "z"), rs(0, "x")});
    b.op(Opcode::udiv, {r(3, "xy"), null_dst()}, {rs(0, "xy"), lu(5)});
    b.op(Opcode::imad, {r(3, "z", i)}, {rs(0, "x", i), rs(0, "y", i), li(-1)});
    b.op(Opcode::umad, {r(3, "w")}, {rs(0, "x"), rs(0, "y"), lu(1)});
    b.op(Opcode::imin, {r(0, "x", i)}, {rs(1, "x", i), rs(1, "y", i)});
    b.op(Opcode::imax, {r(0, "y", i)}, {rs(1, "x", i), rs(1, "y", i)});
    b.op(Opcode::umin, {r(0, "z")}, {rs(1, "x"), rs(1, "y")});
    b.op(Opcode::umax, {r(0, "w")}, {rs(1, "x"), rs(1, "y")});
    store_result(b, 80, 0, "xyzw", "xyzw"); // r0 before ubfe / ibfe overwrite it (else imin / imax are dead)
    b.op(Opcode::ineg, {r(1, "x", i)}, {rs(1, "x", i)});
    b.op(Opcode::ishl, {r(1, "y", i)}, {rs(1, "y", i), lu(33)});
    b.op(Opcode::ishr, {r(1, "zw", i)}, {rs(1, "zw", i), rs(0, "xy")});
    b.op(Opcode::ushr, {r(2, "x")}, {rs(2, "x"), lu(4)});
    b.op(Opcode::and_, {r(2, "y")}, {rs(2, "y"), lu(0xff)});
    b.op(Opcode::or_, {r(2, "z")}, {rs(2, "z"), lu(0x100)});
    b.op(Opcode::xor_, {r(2, "w")}, {rs(2, "w"), rs(2, "x")});
    b.op(Opcode::not_, {r(3, "x")}, {rs(3, "x")});
    b.op(Opcode::bfi, {r(3, "yz")}, {lu(8), lu(4), rs(0, "xy"), rs(0, "zw")});
    b.op(Opcode::ubfe, {r(0, "x")}, {lu(5), lu(3), rs(3, "y")});
    b.op(Opcode::ibfe, {r(0, "y", i)}, {lu(5), rs(3, "z"), rs(3, "y", i)});
    b.op(Opcode::bfrev, {r(0, "z")}, {rs(0, "z")});
    b.op(Opcode::countbits, {r(0, "w")}, {rs(0, "w")});
    b.op(Opcode::firstbit_hi, {r(1, "x")}, {rs(1, "x")});
    b.op(Opcode::firstbit_lo, {r(1, "y")}, {rs(1, "y")});
    b.op(Opcode::firstbit_shi, {r(1, "z")}, {rs(1, "z", i)});
    store_result(b, 64, 2, "xyzw", "xyzw"); // r2 before uaddc / usubb overwrite it (else its ops are dead)
    b.op(Opcode::uaddc, {r(2, "x"), r(2, "y")}, {rs(0, "x"), rs(0, "y")});
    b.op(Opcode::usubb, {r(2, "z"), r(2, "w")}, {rs(0, "z"), rs(0, "w")});
    b.op(Opcode::ieq, {r(3, "x")}, {rs(0, "x", i), li(3)});
    b.op(Opcode::ine, {r(3, "y")}, {rs(0, "x", i), li(3)});
    b.op(Opcode::ilt, {r(3, "z")}, {rs(0, "x", i), li(-3)});
    b.op(Opcode::ige, {r(3, "w")}, {rs(0, "x", i), li(-3)});
    b.op(Opcode::ult, {r(1, "w")}, {rs(0, "x"), lu(3)});
    b.op(Opcode::uge, {r(0, "w")}, {rs(0, "x"), lu(3)});
    for (uint32_t reg = 0; reg < 4; ++reg)
        store_result(b, 16 * reg, reg, "xyzw", "xyzw");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    for (const char* op : {"OpSNegate", "OpSMulExtended", "OpUMulExtended", "OpIMul", "OpUDiv", "OpUMod", "SMin",
             "SMax", "UMin", "UMax", "OpShiftRightArithmetic", "OpBitwiseAnd", "OpBitwiseOr", "OpBitwiseXor", "OpNot",
             "OpBitReverse", "OpBitCount", "FindUMsb", "FindSMsb", "FindILsb", "OpIAddCarry", "OpISubBorrow",
             "OpIEqual", "OpINotEqual", "OpSLessThan", "OpSGreaterThanEqual", "OpULessThan", "OpUGreaterThanEqual"})
        CHECK_HAS(text, op);
}

TEST_CASE("spirv: conversions and doubles")
{
    VsirBuilder b = compute(4);
    DataType f = DataType::f32, d = DataType::f64, i = DataType::i32;
    b.op(Opcode::utof, {r(0, "xy", f)}, {tid("xy")});
    b.op(Opcode::ftoi, {r(1, "x", i)}, {rs(0, "x", f)});
    b.op(Opcode::ftou, {r(1, "y")}, {rs(0, "y", f)});
    b.op(Opcode::itof, {r(1, "z", f)}, {rs(1, "x", i)});
    b.op(Opcode::f32tof16, {r(1, "w")}, {rs(0, "y", f)});
    b.op(Opcode::f16tof32, {r(0, "zw", f)}, {rs(1, "ww")});
    store_result(b, 64, 0, "xyzw", "xyzw"); // r0 before dne / dlt overwrite it (else the half conversions are dead)
    b.op(Opcode::ftod, {r(2, "xy", d)}, {rs(0, "x", f)});
    b.op(Opcode::ftod, {r(2, "zw", d)}, {rs(0, "y", f)});
    b.op(Opcode::dadd, {r(3, "xyzw", d)}, {rs(2, "xyzw", d), ld64(1.5, -2.0)});
    b.op(Opcode::dmul, {r(3, "xy", d)}, {rs(3, "xy", d), rs(2, "zw", d, SrcModifier::neg)});
    b.op(Opcode::ddiv, {r(3, "zw", d)}, {rs(3, "zw", d), rs(2, "xy", d)});
    b.op(Opcode::dfma, {r(2, "xy", d)}, {rs(3, "xy", d), rs(3, "zw", d), rs(2, "xy", d)});
    b.op(Opcode::drcp, {r(2, "zw", d, dst_saturate)}, {rs(2, "zw", d, SrcModifier::abs)});
    b.op(Opcode::dmin, {r(3, "xy", d)}, {rs(2, "xy", d), rs(2, "zw", d)});
    b.op(Opcode::dmax, {r(3, "zw", d)}, {rs(2, "xy", d), rs(2, "zw", d)});
    b.op(Opcode::deq, {r(0, "x")}, {rs(3, "xy", d), rs(3, "zw", d)});
    b.op(Opcode::dne, {r(0, "yz")}, {rs(3, "xyzw", d), rs(2, "xyzw", d)});
    b.op(Opcode::dlt, {r(0, "w")}, {rs(3, "xy", d), rs(3, "zw", d)});
    b.op(Opcode::dge, {r(1, "x")}, {rs(3, "xy", d), rs(3, "zw", d)});
    b.op(Opcode::dtof, {r(1, "y", f)}, {rs(3, "zw", d)});
    b.op(Opcode::dtoi, {r(1, "z", i)}, {rs(3, "xy", d)});
    b.op(Opcode::dtou, {r(1, "w")}, {rs(3, "zw", d)});
    b.op(Opcode::itod, {r(2, "xy", d)}, {rs(1, "z", i)});
    b.op(Opcode::utod, {r(2, "zw", d)}, {rs(1, "w")});
    b.op(Opcode::dmov, {r(3, "zw", d)}, {rs(2, "xy", d)});
    b.op(Opcode::dmovc, {r(3, "xyzw", d)}, {rs(0, "xxzz"), rs(2, "xyzw", d), rs(3, "zwxy", d)});
    for (uint32_t reg = 0; reg < 4; ++reg)
        store_result(b, 16 * reg, reg, "xyzw", "xyzw");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    for (const char* op : {"OpCapability Float64", "OpConvertFToS", "OpConvertFToU", "OpConvertSToF", "OpIsNan",
             "PackHalf2x16", "UnpackHalf2x16", "OpFConvert", "%double", "OpBitcast"})
        CHECK_HAS(text, op);
}

TEST_CASE("spirv: immediate constant buffer and indexable temps, relative addressing")
{
    VsirBuilder b = compute(2);
    b.dcl_immediate_constant_buffer({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    b.dcl_indexable_temp(0, 4);
    b.op(Opcode::and_, {r(0, "x")}, {tid("x"), lu(1)});
    // mov x0[r0.x + 1].xy, icb[r0.x + 1].zwzz
    Register x = mk(RegisterFile::indexable_temp, DataType::u32, Dimension::vec4, {0, 1});
    x.idx[1].rel_addr = b.p.add_src(rs(0, "x"));
    Register icb = mk(RegisterFile::immediate_constant_buffer, DataType::u32, Dimension::vec4, {1});
    icb.idx[0].rel_addr = b.p.add_src(rs(0, "x"));
    b.op(Opcode::mov, {dst(x, "xy")}, {src(icb, "zw")});
    Register x3 = mk(RegisterFile::indexable_temp, DataType::u32, Dimension::vec4, {0, 3});
    b.op(Opcode::mov, {dst(x3, "xyzw")}, {lu4(1, 2, 3, 4)});
    b.op(Opcode::mov, {r(1, "xyzw")}, {src(x, "xyzw")});
    store_result(b, 0, 1, "xyzw", "xyzw");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "OpName %icb \"icb\"");
    CHECK_HAS(text, "OpName %x0 \"x0\"");
    CHECK_HAS(text, "Private");
    CHECK_HAS(text, "OpConstantComposite");
}

TEST_CASE("spirv: typed resources: textures, texel buffers, samplers")
{
    VsirBuilder b = compute(4);
    DataType f = DataType::f32, i = DataType::i32;
    dcl_typed(b, Opcode::dcl_resource, 0, ResourceDimension::buffer, f);
    dcl_typed(b, Opcode::dcl_resource, 1, ResourceDimension::texture_2d, DataType::unorm);
    dcl_typed(b, Opcode::dcl_resource, 2, ResourceDimension::texture_2d_array, DataType::u32);
    dcl_typed(b, Opcode::dcl_resource, 3, ResourceDimension::texture_2dms, i);
    dcl_typed(b, Opcode::dcl_resource, 4, ResourceDimension::texture_3d, f);
    dcl_typed(b, Opcode::dcl_resource, 5, ResourceDimension::texture_cube, f);
    dcl_typed(b, Opcode::dcl_resource, 6, ResourceDimension::texture_1d, f);
    dcl_typed(b, Opcode::dcl_uav_typed, 1, ResourceDimension::texture_2d, f);
    dcl_typed(b, Opcode::dcl_uav_typed, 2, ResourceDimension::buffer, DataType::u32);
    b.dcl_uav_structured(3, 12);
    b.dcl_descriptor(Opcode::dcl_sampler, RegisterFile::sampler, 0);
    b.op(Opcode::ld, {r(0, "xyzw", f)}, {tid("x", i), src(srv(0))});
    b.op(Opcode::mov, {r(3, "xyzw")}, {lu4(1, 2, 0, 0)});
    uint32_t ld = b.op(Opcode::ld, {r(1, "xy", f)}, {rs(3, "xyzw", i), src(srv(1), "yxzw")});
    b.p.instructions[ld].texel_offset[0] = 1;
    b.p.instructions[ld].texel_offset[1] = -1;
    b.op(Opcode::ld, {r(2, "xyzw")}, {rs(3, "xyzw", i), src(srv(2))});
    b.op(Opcode::ld2dms, {r(3, "x", i)}, {rs(3, "xyzw", i), src(srv(3), "x"), li(1)});
    b.op(Opcode::ld_uav_typed, {r(0, "xyzw", f)}, {tid("xy", i), src(dst(uav(1)).reg)});
    b.op(Opcode::store_uav_typed, {dst(uav(1))}, {tid("xy", i), rs(0, "xyzw", f)});
    b.op(Opcode::store_uav_typed, {dst(uav(2))}, {tid("x"), rs(2, "xyzw")});
    b.op(Opcode::sample_l, {r(1, "xyzw", f)}, {rs(0, "xy", f), src(srv(1)), src(sampler(0), "x"), lf(0.0f)});
    b.op(Opcode::sample_d, {r(1, "xyz", f)}, {rs(0, "xyz", f), src(srv(4)), src(sampler(0), "x"), rs(0, "xyz", f),
        rs(0, "zyx", f)});
    b.op(Opcode::sample_c_lz, {r(1, "w", f)}, {rs(0, "xyz", f), src(srv(5), "x"), src(sampler(0), "x"), lf(0.5f)});
    b.op(Opcode::gather4, {r(0, "xyzw", f)}, {rs(1, "xy", f), src(srv(1)), src(sampler(0), "y")});
    uint32_t one_d = b.op(Opcode::sample_l, {r(0, "x", f)}, {rs(1, "x", f), src(srv(6)), src(sampler(0), "x"), lf(1.0f)});
    b.p.instructions[one_d].texel_offset[0] = 2;
    b.op(Opcode::bufinfo, {r(2, "x")}, {src(srv(0))});
    b.op(Opcode::bufinfo, {r(2, "y")}, {src(uav(0))});
    b.op(Opcode::bufinfo, {r(2, "z")}, {src(uav(3))});
    for (uint32_t reg = 0; reg < 4; ++reg)
        store_result(b, 16 * reg, reg, "xyzw", "xyzw");
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    for (const char* op : {"OpImageFetch", "OpImageRead", "OpImageWrite", "OpImageSampleExplicitLod",
             "OpImageSampleDrefExplicitLod", "OpImageGather", "OpImageQuerySize", "OpArrayLength", "OpSampledImage",
             "OpDecorate %t1 Binding 1001", "OpDecorate %u1 Binding 2001", "OpDecorate %s0 Binding 3000",
             "ConstOffset", "Grad", "Sample", "OpCapability SampledBuffer", "OpCapability ImageBuffer",
             "OpCapability Sampled1D", "OpCapability StorageImageWriteWithoutFormat"})
        CHECK_HAS(text, op);
}

TEST_CASE("spirv: SM5.1 register ranges and spaces")
{
    VsirBuilder b = compute(1);
    Declaration& d = b.dcl_descriptor(Opcode::dcl_uav_raw, RegisterFile::uav, 1);
    d.range_first = 4;
    d.range_last = 7;
    d.space = 2;
    Declaration& c = b.dcl_descriptor(Opcode::dcl_constant_buffer, RegisterFile::constant_buffer, 1);
    c.range_first = 3;
    c.range_last = 3;
    c.space = 1;
    c.count = 2;
    b.op(Opcode::mov, {r(0, "x")}, {src(mk(RegisterFile::constant_buffer, DataType::u32, Dimension::vec4, {1, 3, 1}), "y")});
    Register u = mk(RegisterFile::uav, DataType::opaque, Dimension::none, {1, 6});
    b.op(Opcode::store_raw, {dst(u, "x")}, {lu(0), rs(0, "x")});
    Register dynamic = mk(RegisterFile::uav, DataType::opaque, Dimension::none, {1, 4});
    dynamic.idx[1].rel_addr = b.p.add_src(tid("x"));
    b.op(Opcode::store_raw, {dst(dynamic, "x")}, {lu(4), rs(0, "x")});
    b.op(Opcode::ret, {}, {});
    std::string text = emit_valid(b.p);
    CHECK_HAS(text, "OpDecorate %u1 DescriptorSet 2");
    CHECK_HAS(text, "OpDecorate %u1 Binding 2004");
    CHECK_HAS(text, "OpDecorate %cb1 DescriptorSet 1");
    CHECK_HAS(text, "OpDecorate %cb1 Binding 3");
    CHECK_HAS(text, "_arr_uav_buffer_uint_4");
}

TEST_CASE("spirv: unsupported input is refused with numbered diagnostics")
{
    SUBCASE("unsupported opcodes name the VSIR opcode")
    {
        VsirBuilder b = compute(1);
        b.op(Opcode::deriv_rtx, {r(0, "x", DataType::f32)}, {rs(0, "x", DataType::f32)});
        b.decl(Opcode::dcl_interface);
        b.op(Opcode::ret, {}, {});
        check_refused(b.p, Code::spirv_unsupported_opcode, "'deriv_rtx'");
        check_refused(b.p, Code::spirv_unsupported_opcode, "'dcl_interface'");
        CHECK(emit(b.p).diags.to_string().find("E2001") != std::string::npos);
    }
    SUBCASE("implicit-LOD sampling needs derivatives")
    {
        VsirBuilder b = compute(1);
        dcl_typed(b, Opcode::dcl_resource, 0, ResourceDimension::texture_2d, DataType::f32);
        b.dcl_descriptor(Opcode::dcl_sampler, RegisterFile::sampler, 0);
        b.op(Opcode::sample, {r(0, "xyzw", DataType::f32)}, {rs(0, "xy", DataType::f32), src(srv(0)), src(sampler(0), "x")});
        b.op(Opcode::ret, {}, {});
        check_refused(b.p, Code::spirv_unsupported_opcode, "'sample'");
    }
    SUBCASE("other stages")
    {
        VsirBuilder b(dxspv::ShaderStage::library);
        b.op(Opcode::ret, {}, {});
        check_refused(b.p, Code::spirv_unsupported_stage, "shader stage");
    }
    SUBCASE("unstructured control flow")
    {
        VsirBuilder b = compute(1);
        b.p.control_flow = ControlFlow::unstructured;
        check_refused(b.p, Code::spirv_unstructured_control_flow, "structurizer");
    }
    SUBCASE("unbalanced control flow")
    {
        VsirBuilder b = compute(1);
        b.op(Opcode::endif, {}, {});
        check_refused(b.p, Code::spirv_invalid_control_flow, "endif");
        VsirBuilder c = compute(1);
        c.op(Opcode::loop, {}, {});
        c.op(Opcode::ret, {}, {});
        check_refused(c.p, Code::spirv_invalid_control_flow, "loop");
        VsirBuilder d = compute(1);
        d.op(Opcode::break_, {}, {});
        check_refused(d.p, Code::spirv_invalid_control_flow, "break");
        VsirBuilder e = compute(1);
        e.op(Opcode::loop, {}, {});
        e.op(Opcode::endif, {}, {});
        check_refused(e.p, Code::spirv_invalid_control_flow, "endif");
        VsirBuilder f = compute(1); // found at endswitch by sorting the values
        f.op(Opcode::switch_, {}, {rs(0, "x")});
        for (uint32_t value : {3u, 1u, 2u, 1u}) {
            f.op(Opcode::case_, {}, {lu(value)});
            f.op(Opcode::break_, {}, {});
        }
        f.op(Opcode::endswitch, {}, {});
        f.op(Opcode::ret, {}, {});
        check_refused(f.p, Code::spirv_invalid_control_flow, "duplicate case 1");
    }
    SUBCASE("undeclared registers and missing declarations")
    {
        VsirBuilder b = compute(1);
        b.op(Opcode::store_raw, {dst(uav(3), "x")}, {lu(0), lu(0)});
        b.op(Opcode::mov, {r(5, "x")}, {lu(0)});
        b.op(Opcode::ret, {}, {});
        check_refused(b.p, Code::spirv_undeclared_register, "u3");
        check_refused(b.p, Code::spirv_undeclared_register, "r5");
        VsirBuilder c;
        c.op(Opcode::ret, {}, {});
        check_refused(c.p, Code::spirv_missing_declaration, "dcl_thread_group");
    }
    SUBCASE("malformed operands do not crash")
    {
        VsirBuilder b = compute(1);
        b.op(Opcode::add, {r(0, "x", DataType::f32)}, {rs(0, "x", DataType::f32)}); // one source missing
        Register self = mk(RegisterFile::indexable_temp, DataType::u32, Dimension::vec4, {0, 0});
        SrcParam loop = src(self, "x");
        uint32_t at = uint32_t(b.p.srcs.size());
        loop.reg.idx[1].rel_addr = at; // refers to itself
        b.p.add_src(loop);
        b.dcl_indexable_temp(0, 2);
        b.op(Opcode::mov, {r(0, "x")}, {loop});
        b.op(Opcode::mov, {r(0, "x", DataType::u8)}, {lu(0)});
        b.op(Opcode::ret, {}, {});
        check_refused(b.p, Code::spirv_invalid_operand, "add");
        check_refused(b.p, Code::spirv_unsupported_type, "u8");
    }
}

TEST_CASE("spirv: mutated programs never crash the emitter")
{
    // A program using most of the emitter, then randomly corrupted fields:
    // the emitter may refuse, but must not crash, hang or assert.
    VsirBuilder base = compute(4);
    base.dcl_uav_structured(1, 8);
    base.dcl_tgsm_raw(0, 64);
    base.dcl_constant_buffer(0, 4);
    base.dcl_indexable_temp(0, 4);
    base.dcl_immediate_constant_buffer({1, 2, 3, 4});
    dcl_typed(base, Opcode::dcl_resource, 1, ResourceDimension::texture_2d, DataType::f32);
    base.dcl_descriptor(Opcode::dcl_sampler, RegisterFile::sampler, 0);
    base.op(Opcode::utof, {r(0, "xyzw", DataType::f32)}, {tid("xyzx")});
    base.op(Opcode::mad, {r(1, "xy", DataType::f32)}, {rs(0, "xy", DataType::f32), cb(0, 1, "xy"), lf(1.0f)});
    base.op(Opcode::ld_structured, {r(2, "xy")}, {tid("x"), lu(0), src(uav(1), "xy")});
    base.test(Opcode::if_, rs(2, "x"));
    base.op(Opcode::loop, {}, {});
    base.test(Opcode::breakc, rs(2, "y"));
    base.op(Opcode::imm_atomic_iadd, {r(3, "x"), dst(tgsm(0), "x")}, {lu(0), lu(1)});
    base.op(Opcode::endloop, {}, {});
    base.op(Opcode::else_, {}, {});
    base.op(Opcode::switch_, {}, {tid("y")});
    base.op(Opcode::case_, {}, {lu(1)});
    base.op(Opcode::dadd, {r(3, "xyzw", DataType::f64)}, {rs(0, "xyzw", DataType::f64), ld64(1.0, 2.0)});
    base.op(Opcode::break_, {}, {});
    base.op(Opcode::endswitch, {}, {});
    base.op(Opcode::endif, {}, {});
    base.op(Opcode::sample_l, {r(1, "xyzw", DataType::f32)}, {rs(0, "xy", DataType::f32), src(srv(1)),
        src(sampler(0), "x"), lf(0.0f)});
    base.op(Opcode::udiv, {r(1, "z"), r(1, "w")}, {rs(2, "x"), rs(2, "y")});
    store_result(base, 0, 1, "xyzw", "xyzw");
    base.op(Opcode::ret, {}, {});
    REQUIRE(emit(base.p).ok);

    uint64_t state = 0x2545f4914f6cdd1dull;
    auto next = [&state](uint32_t bound) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return uint32_t(state % bound);
    };
    auto mutate_register = [&](Register& reg) {
        switch (next(6)) {
        case 0: reg.file = RegisterFile(next(uint32_t(RegisterFile::count))); break;
        case 1: reg.type = DataType(next(uint32_t(DataType::opaque) + 1)); break;
        case 2: reg.idx[next(3)].offset = next(8) == 0 ? ~0u : next(8); break;
        case 3: reg.idx[next(3)].rel_addr = next(4) == 0 ? next(uint32_t(base.p.srcs.size()) + 2) : invalid_index; break;
        case 4: reg.index_count = uint8_t(next(4)); break;
        default: reg.dimension = Dimension(next(3)); break;
        }
    };
    for (int round = 0; round < 1500; ++round) {
        Program p = copy_program(base.p);
        for (int m = 0, n = 1 + int(next(4)); m < n; ++m) {
            switch (next(6)) {
            case 0: {
                Instruction& ins = p.instructions[next(uint32_t(p.instructions.size()))];
                ins.opcode = Opcode(next(uint32_t(Opcode::count)));
                break;
            }
            case 1: mutate_register(p.dsts[next(uint32_t(p.dsts.size()))].reg); break;
            case 2: mutate_register(p.srcs[next(uint32_t(p.srcs.size()))].reg); break;
            case 3: p.dsts[next(uint32_t(p.dsts.size()))].write_mask = uint8_t(next(256)); break;
            case 4: p.srcs[next(uint32_t(p.srcs.size()))].swizzle = uint8_t(next(256)); break;
            default: {
                Declaration& d = p.decls[next(uint32_t(p.decls.size()))];
                d.count = next(3) ? next(16) : ~0u;
                d.range_last = next(2) ? d.range_first : next(1u << 20);
                d.dimension = ResourceDimension(next(14));
                break;
            }
            }
        }
        Emitted e = emit(p);
        if (e.ok) {
            Diagnostics val;
            dxspv::spirv::validate_spirv(e.words, TargetEnv::vulkan1_1, val); // must not crash either
        }
    }
}

TEST_CASE("spirv: a very long chain of blocks is emitted whatever the caller's stack")
{
    // 60,000 consecutive if/endif: glslang's builder walks the chain of
    // blocks recursively; emit_spirv gives such programs a stack of their own.
    VsirBuilder b = compute(2);
    for (int i = 0; i < 60000; ++i) {
        uint32_t k = b.op(Opcode::if_, {}, {tid("x", DataType::u32)});
        b.p.instructions[k].flags |= dxspv::vsir::flag_test_nonzero;
        b.op(Opcode::iadd, {r(0, "x", DataType::i32)}, {rs(0, "x", DataType::i32), li(1)});
        b.op(Opcode::endif, {}, {});
    }
    b.op(Opcode::store_raw, {dst(uav(0), "x")}, {lu(0), rs(0, "x")});
    b.op(Opcode::ret, {}, {});
    // Run the emitter from a thread with a small stack (256 KiB), as a
    // translation layer's worker thread might have.
    struct Job {
        const dxspv::vsir::Program* p;
        std::vector<uint32_t> words;
        bool ok = false;
    } job{&b.p};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t t;
    REQUIRE(pthread_create(&t, &attr, [](void* arg) -> void* {
        Job& j = *static_cast<Job*>(arg);
        dxspv::Diagnostics diags;
        dxspv::spirv::EmitOptions options;
        j.ok = dxspv::spirv::emit_spirv(*j.p, options, j.words, diags);
        return nullptr;
    }, &job) == 0);
    pthread_join(t, nullptr);
    pthread_attr_destroy(&attr);
    CHECK(job.ok);
    CHECK(job.words.size() > 60000);
}
