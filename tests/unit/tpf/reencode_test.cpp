// Bit-exact re-encoding: token streams using encodings other than the TPF
// writer's defaults (select-1 vs swizzle, swizzled immediates, empty
// extended operand tokens, immediate+relative indices with offset 0, 64-bit
// indices, 1-component declarations, mask-mode sources, tokens after the
// last operand) read into VSIR and written back give the same tokens.
#include <doctest/doctest.h>

#include <vector>

#include "common/diagnostics.h"
#include "tpf/reader.h"
#include "tpf/tokens.h"
#include "tpf/writer.h"
#include "vsir/ir.h"

using namespace dxspv;

namespace {

constexpr uint32_t ps_5_0 = 0x00000050;
constexpr uint32_t cs_5_0 = 0x00050050;

/// A program of whole instructions (each with its length set here).
std::vector<uint32_t> program(uint32_t version, std::vector<std::vector<uint32_t>> instructions)
{
    std::vector<uint32_t> out{version, 0};
    for (std::vector<uint32_t>& ins : instructions) {
        ins[0] |= uint32_t(ins.size()) << tpf::length_shift;
        out.insert(out.end(), ins.begin(), ins.end());
    }
    out[1] = uint32_t(out.size());
    return out;
}

std::vector<uint8_t> bytes_of(const std::vector<uint32_t>& tokens)
{
    std::vector<uint8_t> bytes(tokens.size() * 4);
    for (size_t i = 0; i < tokens.size(); ++i)
        for (unsigned b = 0; b < 4; ++b)
            bytes[4 * i + b] = uint8_t(tokens[i] >> (8 * b));
    return bytes;
}

void check_reencodes(const std::vector<uint32_t>& tokens)
{
    vsir::Program p;
    Diagnostics diags;
    std::vector<uint8_t> bytes = bytes_of(tokens);
    bool read = tpf::read_program(bytes, 0, p, diags);
    INFO(diags.to_string());
    REQUIRE(read);
    std::vector<uint32_t> out;
    REQUIRE(tpf::write_program(p, out, diags));
    CHECK(out == tokens);
}

constexpr uint32_t mov = tpf::op_mov;
constexpr uint32_t r0_x = 0x00100012;   // r0.x, mask mode
constexpr uint32_t r0_xy = 0x00100032;  // r0.xy, mask mode
constexpr uint32_t r1_sel_x = 0x0010000a; // r1.x, select-1
constexpr uint32_t ret = tpf::op_ret;

} // namespace

TEST_CASE("tpf re-encoding: select-1 and swizzle sources keep their mode")
{
    check_reencodes(program(ps_5_0, {{mov, r0_x, 0, r1_sel_x, 1},        // mov r0.x, r1.x
                                     {mov, r0_x, 0, 0x00100006, 1},      // mov r0.x, r1.xxxx
                                     {ret}}));
}

TEST_CASE("tpf re-encoding: immediates in swizzle and mask form")
{
    check_reencodes(program(ps_5_0, {{mov, 0x001000f2, 0, 0x00004e46, 1, 2, 3, 4}, // l(1,2,3,4) swizzled
                                     {mov, 0x001000f2, 0, 0x00004002, 1, 2, 3, 4}, // fxc's mask form
                                     {ret}}));
}

TEST_CASE("tpf re-encoding: an empty extended operand token stays")
{
    check_reencodes(program(ps_5_0, {{mov, r0_x, 0, r1_sel_x | tpf::extended_bit, tpf::ext_operand_modifier, 1}, {ret}}));
}

TEST_CASE("tpf re-encoding: immediate + relative with offset 0, 64-bit indices")
{
    // mov r0.x, cb0[r1.x + 0].x with the index as imm32 + relative.
    uint32_t cb_rel = 0x0020800a | (tpf::index_imm32_relative << 25);
    // mov r0.x, r1.x with the register index as a 64-bit immediate.
    uint32_t r1_imm64 = r1_sel_x | (tpf::index_imm64 << 22);
    check_reencodes(program(ps_5_0, {{tpf::op_dcl_constant_buffer | (1u << 11), 0x00208e46, 0, 4},
                                     {mov, r0_x, 0, cb_rel, 0, 0, r1_sel_x, 1},
                                     {mov, r0_x, 0, r1_imm64, 0, 1},
                                     {ret}}));
}

TEST_CASE("tpf re-encoding: declarations with non-default component counts")
{
    // dcl_input vThreadIDInGroupFlattened as 1-component (fxc: 0), dcl_input vThreadID in swizzle form.
    check_reencodes(program(cs_5_0, {{tpf::op_dcl_input, (tpf::operand_thread_id_in_group_flattened << 12) | 1},
                                     {tpf::op_dcl_input, (tpf::operand_thread_id << 12) | 0x00000e46},
                                     {tpf::op_dcl_thread_group, 1, 1, 1},
                                     {ret}}));
}

TEST_CASE("tpf re-encoding: mask-mode sources and tokens after the last operand")
{
    check_reencodes(program(ps_5_0, {{mov, r0_xy, 0, 0x00100032, 1},   // mov r0.xy, r1 (source in mask mode .xy)
                                     {mov, r0_x, 0, r1_sel_x, 1, 0, 0x2000}, // two trailing tokens
                                     {ret}}));
}
