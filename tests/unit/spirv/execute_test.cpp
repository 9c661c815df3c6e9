// Emitted DXIL-style programs run on Vulkan (lavapipe in CI): the results
// of the 16- and 64-bit integer operations spirv-opt cannot fold, of values
// crossing structured regions through variables, of wave operations, and
// of a DXIL module given as text through the whole pipeline.
// Skipped, with a message, when there is no Vulkan 1.1 device.
#include "dxil_emit.h"
#include "vk_compute.h"

#include <cstring>

#include "dxspv/dxspv.h"

using namespace spirv_test;

namespace {

constexpr DataType u32 = DataType::u32, i32 = DataType::i32, f32 = DataType::f32, i16 = DataType::i16,
                   u16 = DataType::u16, i64 = DataType::i64, u64 = DataType::u64, boolean = DataType::boolean;

/// Emits `p` for Vulkan 1.1 (validated by emit_dxil) and runs it with a
/// zeroed u0 of `words` words; empty when there is no device.
std::vector<uint32_t> run(const Program& p, uint32_t words)
{
    emit_dxil(p);
    dxspv::spirv::EmitOptions options;
    options.target_env = dxspv::spirv::TargetEnv::vulkan1_1;
    std::vector<uint32_t> module;
    dxspv::Diagnostics diags("emit");
    REQUIRE(dxspv::spirv::emit_spirv(p, options, module, diags));
    std::vector<uint32_t> data(words, 0xdeadbeefu);
    std::string error;
    if (!compute_device().available) {
        MESSAGE("no Vulkan device, execution skipped: " << compute_device().reason);
        return {};
    }
    REQUIRE_MESSAGE(run_compute(module, data, error), error);
    return data;
}

/// store_raw u0.x, l(4 * index), sr`id` (u32) in thread 0 only.
void store_at(VsirBuilder& b, uint32_t index, uint32_t id) { store_word(b, 4 * index, ss(id, u32)); }

} // namespace

TEST_CASE("spirv execute: 16- and 64-bit integer operations")
{
    if (compute_device().available && (!compute_device().int64 || !compute_device().int16)) {
        MESSAGE("the device has no 64- or 16-bit integers, skipped");
        return;
    }
    VsirBuilder b = dxil_compute();
    b.op(Opcode::countbits, {sd(1, u32)}, {imm(u64, 0x0000ff00000000ffull)});
    b.op(Opcode::firstbit_lo, {sd(2, u32)}, {imm(u64, 1ull << 40)});
    b.op(Opcode::firstbit_hi, {sd(3, u32)}, {imm(u64, 1ull << 40)});
    b.op(Opcode::firstbit_shi, {sd(4, u32)}, {imm(i64, ~0ull << 40)}); // first 0 bit from the top: bit 39
    b.op(Opcode::firstbit_lo, {sd(5, u32)}, {imm(u64, 0)});
    b.op(Opcode::bfrev, {sd(6, u64)}, {imm(u64, 3)});
    b.op(Opcode::unpack64, {sd(7, u32), sd(8, u32)}, {ss(6, u64)});
    b.op(Opcode::firstbit_hi, {sd(9, u32)}, {imm(u16, 1)});
    b.op(Opcode::bfrev, {sd(10, u16)}, {imm(u16, 1)});
    b.op(Opcode::utou, {sd(11, u32)}, {ss(10, u16)});
    b.op(Opcode::itoi, {sd(12, i32)}, {imm(i16, 0xfffb)});
    b.op(Opcode::utou, {sd(13, u32)}, {imm(u16, 0xfffb)});
    b.op(Opcode::idiv, {sd(14, i64), sd(15, i64)}, {imm(i64, uint64_t(-14)), imm(i64, 4)});
    b.op(Opcode::itoi, {sd(16, i32)}, {ss(14, i64)});
    b.op(Opcode::itoi, {sd(17, i32)}, {ss(15, i64)});
    b.op(Opcode::ishl, {sd(18, u64)}, {imm(u64, 1), imm(u64, 64 + 35)}); // shift masked to 35
    b.op(Opcode::unpack64, {sd(19, u32), sd(20, u32)}, {ss(18, u64)});
    b.op(Opcode::countbits, {sd(21, u32)}, {imm(u16, 0xf0f0)});
    b.op(Opcode::frem, {sd(22, f32)}, {lf(-7.5f), lf(2.0f)});
    b.op(Opcode::mov, {sd(23, u32)}, {ss(22, f32)});
    b.op(Opcode::ieq, {sd(24, boolean)}, {ss(0, u32), lu(0)});
    b.test(Opcode::if_, ss(24, boolean));
    const uint32_t ids[] = {1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 16, 17, 19, 20, 21, 23};
    for (uint32_t i = 0; i < std::size(ids); ++i)
        store_at(b, i, ids[i]);
    b.op(Opcode::endif, {}, {});
    b.op(Opcode::ret, {}, {});
    std::vector<uint32_t> data = run(b.p, uint32_t(std::size(ids)));
    if (data.empty())
        return;
    const uint32_t expected[] = {16, 40, 63 - 40, 63 - 39, ~0u, 0, 0xc0000000u, 15, 0x8000, uint32_t(-5), 0xfffb,
        uint32_t(-3), uint32_t(-2), 0, 8, 8, 0xbfc00000u /* -1.5f */};
    for (uint32_t i = 0; i < std::size(expected); ++i) {
        INFO("result " << i);
        CHECK(data[i] == expected[i]);
    }
}

TEST_CASE("spirv execute: values defined in a loop and read after it")
{
    // r0.x counts iterations; sr2 = 10 * i is defined in the body and read
    // after endloop (through its variable): the value of the last iteration.
    VsirBuilder b = dxil_compute();
    b.dcl_temps(1);
    b.op(Opcode::mov, {r(0, "x")}, {lu(0)});
    b.op(Opcode::loop, {}, {});
    b.op(Opcode::iadd, {sd(1, u32)}, {rs(0, "x"), lu(1)});
    b.op(Opcode::mov, {r(0, "x")}, {ss(1, u32)});
    b.op(Opcode::imul, {null_dst(), sd(2, u32)}, {ss(1, u32), lu(10)});
    b.op(Opcode::uge, {sd(3, boolean)}, {ss(1, u32), lu(5)});
    b.test(Opcode::breakc, ss(3, boolean));
    b.op(Opcode::endloop, {}, {});
    b.op(Opcode::iadd, {sd(4, u32)}, {ss(2, u32), ss(0, u32)});
    b.op(Opcode::ishl, {sd(5, u32)}, {ss(0, u32), lu(2)});
    b.op(Opcode::store_raw, {dst(uav(0), "x")}, {ss(5, u32), ss(4, u32)});
    b.op(Opcode::ret, {}, {});
    std::vector<uint32_t> data = run(b.p, 64);
    for (uint32_t t = 0; t < data.size(); ++t) {
        INFO("thread " << t);
        CHECK(data[t] == 50 + t);
    }
}

TEST_CASE("spirv execute: wave operations agree with each other")
{
    if (compute_device().available && !compute_device().wave_ops) {
        MESSAGE("the device has no subgroup ballots in compute shaders, skipped");
        return;
    }
    // Per thread: 1 when every identity holds, else a bit per failed one.
    VsirBuilder b = dxil_compute();
    b.op(Opcode::wave_lane_index, {sd(1, u32)}, {});
    b.op(Opcode::wave_lane_count, {sd(2, u32)}, {});
    b.op(Opcode::wave_active_sum, {sd(3, u32)}, {lu(1)});                 // == count
    b.op(Opcode::wave_prefix_count_bits, {sd(4, u32)}, {lb(true)});       // == index
    b.op(Opcode::wave_ballot, {sd4(5, u32)}, {lb(true)});
    b.op(Opcode::countbits, {sd4(6, u32)}, {ss4(5, u32, "xyzw")});
    b.op(Opcode::iadd, {sd(7, u32)}, {ss4(6, u32, "x"), ss4(6, u32, "y")});
    b.op(Opcode::iadd, {sd(8, u32)}, {ss4(6, u32, "z"), ss4(6, u32, "w")});
    b.op(Opcode::iadd, {sd(9, u32)}, {ss(7, u32), ss(8, u32)});           // == count
    b.op(Opcode::wave_is_first_lane, {sd(10, boolean)}, {});
    b.op(Opcode::ieq, {sd(11, boolean)}, {ss(1, u32), lu(0)});           // == first lane
    b.op(Opcode::wave_read_lane_first, {sd(12, u32)}, {ss(0, u32)});
    b.op(Opcode::iadd, {sd(13, u32)}, {ss(12, u32), ss(1, u32)});         // == thread id
    b.op(Opcode::wave_prefix_sum, {sd(14, u32)}, {lu(2)});                // == 2 * index
    b.op(Opcode::wave_active_max, {sd(15, u32)}, {ss(1, u32)});           // == count - 1
    b.op(Opcode::iadd, {sd(16, u32)}, {ss(15, u32), lu(1)});
    b.op(Opcode::wave_read_lane_at, {sd(17, u32)}, {ss(1, u32), lu(0)});  // lane 0's index: 0
    b.op(Opcode::wave_all_true, {sd(18, boolean)}, {lb(true)});
    b.op(Opcode::ishl, {sd(19, u32)}, {ss(1, u32), lu(1)});
    const std::pair<uint32_t, uint32_t> pairs[] = {{3, 2}, {4, 1}, {9, 2}, {13, 0}, {14, 19}, {16, 2}};
    uint32_t id = 30, failed = 0;
    b.op(Opcode::mov, {sd(id, u32)}, {lu(0)});
    for (auto [x, y] : pairs) {
        b.op(Opcode::ine, {sd(id + 1, boolean)}, {ss(x, u32), ss(y, u32)});
        b.op(Opcode::movc, {sd(id + 2, u32)}, {ss(id + 1, boolean), lu(2u << failed++), lu(0)});
        b.op(Opcode::or_, {sd(id + 3, u32)}, {ss(id, u32), ss(id + 2, u32)});
        id += 3;
    }
    b.op(Opcode::xor_, {sd(id + 1, boolean)}, {ss(10, boolean), ss(11, boolean)});
    b.op(Opcode::movc, {sd(id + 2, u32)}, {ss(id + 1, boolean), lu(0x100), lu(0)});
    b.op(Opcode::or_, {sd(id + 3, u32)}, {ss(id, u32), ss(id + 2, u32)});
    b.op(Opcode::movc, {sd(id + 4, u32)}, {ss(18, boolean), ss(17, u32), lu(0x200)});
    b.op(Opcode::or_, {sd(id + 5, u32)}, {ss(id + 3, u32), ss(id + 4, u32)});
    b.op(Opcode::iadd, {sd(id + 6, u32)}, {ss(id + 5, u32), lu(1)});
    b.op(Opcode::ishl, {sd(id + 7, u32)}, {ss(0, u32), lu(2)});
    b.op(Opcode::store_raw, {dst(uav(0), "x")}, {ss(id + 7, u32), ss(id + 6, u32)});
    b.op(Opcode::ret, {}, {});
    std::vector<uint32_t> data = run(b.p, 64);
    for (uint32_t t = 0; t < data.size(); ++t) {
        INFO("thread " << t);
        CHECK(data[t] == 1);
    }
}

TEST_CASE("spirv execute: DXIL text through the whole pipeline (lowering, phis, structurizer, emitter)")
{
    // buf[tid] = 0 + 1 + ... + tid: a loop with two phis whose value
    // (defined in the loop body) is stored after the loop.
    const std::string ll = R"(target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%struct.RWByteAddressBuffer = type { i32 }

define void @main() {
entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %sum, %loop ]
  %sum = add i32 %acc, %i
  %next = add i32 %i, 1
  %done = icmp ugt i32 %next, %tid
  br i1 %done, label %exit, label %loop

exit:
  %addr = shl i32 %tid, 2
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 %addr, i32 undef, i32 %sum, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #0
declare i32 @dx.op.threadId.i32(i32, i32) #0
declare void @dx.op.bufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8) #1

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.resources = !{!2}
!dx.entryPoints = !{!5}

!0 = !{i32 1, i32 0}
!1 = !{!"cs", i32 6, i32 0}
!2 = !{null, !3, null, null}
!3 = !{!4}
!4 = !{i32 0, %struct.RWByteAddressBuffer* undef, !"buf", i32 0, i32 0, i32 1, i32 11, i1 false, i1 false, i1 false, null}
!5 = !{void ()* @main, !"main", null, !2, !6}
!6 = !{i32 4, !7}
!7 = !{i32 64, i32 1, i32 1}
)";
    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {ll.data(), ll.size()};
    info.source_type = DXSPV_SOURCE_TYPE_DXIL_LL;
    info.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    dxspv_code out = {};
    char* messages = nullptr;
    dxspv_result result = dxspv_compile(&info, &out, &messages);
    std::string text = messages ? messages : "";
    dxspv_free_messages(messages);
    REQUIRE_MESSAGE(result == DXSPV_OK, text);
    std::vector<uint32_t> words(out.size / 4);
    std::memcpy(words.data(), out.code, words.size() * 4);
    dxspv_free_code(&out);
    dxspv::Diagnostics val("spirv-val");
    CHECK_MESSAGE(dxspv::spirv::validate_spirv(words, dxspv::spirv::TargetEnv::vulkan1_1, val), val.to_string());
    if (!compute_device().available) {
        MESSAGE("no Vulkan device, execution skipped: " << compute_device().reason);
        return;
    }
    std::vector<uint32_t> data(64, 0xdeadbeefu);
    std::string error;
    REQUIRE_MESSAGE(run_compute(words, data, error), error);
    for (uint32_t t = 0; t < data.size(); ++t) {
        INFO("thread " << t);
        CHECK(data[t] == t * (t + 1) / 2);
    }
}
