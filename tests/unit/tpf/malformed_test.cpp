// Malformed token streams: each gives its numbered diagnostic at the right
// offset, nothing half-read stays in the program, and reading goes on only
// when the bad instruction's length is known.
#include <doctest/doctest.h>

#include <random>

#include "tpf_builder.h"

using namespace tpf_test;
using dxspv::Code;
using dxspv::vsir::Opcode;

namespace {

constexpr uint32_t ps = 0;

/// Reads `bytes` and requires failure whose first message has `code`.
void require_code(const std::vector<uint8_t>& bytes, Code code, Result& r)
{
    read(bytes, r);
    INFO(r.diags.to_string());
    CHECK_FALSE(r.ok);
    REQUIRE_FALSE(r.diags.messages().empty());
    CHECK(r.diags.messages()[0].code == code);
}

void require_code(const Prog& prog, Code code)
{
    Result r;
    require_code(prog.bytes(), code, r);
}

} // namespace

TEST_CASE("tpf malformed: truncated header and program length")
{
    Result r1;
    require_code(std::vector<uint8_t>{0x50, 0, 0, 0}, Code::tpf_truncated_program, r1);
    Prog p(ps, 5, 0);
    p.op(op_ret);
    auto bytes = p.bytes();
    bytes[4] = 9; // length token says 9 tokens, chunk holds 3
    Result r2;
    require_code(bytes, Code::tpf_truncated_program, r2);
    CHECK(r2.diags.messages()[0].location.a == 4);
}

TEST_CASE("tpf malformed: unsupported program type or model")
{
    require_code(Prog(7, 5, 0).op(op_ret), Code::tpf_bad_version);
    require_code(Prog(ps, 3, 0).op(op_ret), Code::tpf_bad_version);
    require_code(Prog(ps, 5, 2).op(op_ret), Code::tpf_bad_version);
}

TEST_CASE("tpf malformed: instruction length zero or past the end stops reading")
{
    Result r;
    require_code(Prog(ps, 5, 0).op(op_nop).raw({op_ret}).op(op_ret).bytes(), Code::tpf_bad_instruction_length, r);
    CHECK(r.program.instructions.size() == 1);
    CHECK(r.diags.messages()[0].location.a == 12);
    CHECK(r.diags.error_count() == 1);

    Result r2;
    require_code(Prog(ps, 5, 0).raw({op_mov | 9u << 24, 0, 0}).bytes(), Code::tpf_bad_instruction_length, r2);
}

TEST_CASE("tpf malformed: unknown opcode is skipped by its length")
{
    Result r;
    require_code(Prog(ps, 5, 0).raw({107u | 2u << 24, 0}).op(op_ret).bytes(), Code::tpf_unknown_opcode, r);
    CHECK(r.diags.messages()[0].text == "unknown opcode 0x6b");
    CHECK(r.diags.messages()[0].location.a == 8);
    REQUIRE(r.program.instructions.size() == 1);
    CHECK(r.program.instructions[0].opcode == Opcode::ret);
    require_code(Prog(ps, 5, 0).raw({0x7ffu | 1u << 24}), Code::tpf_unknown_opcode);
}

TEST_CASE("tpf malformed: operands past the end of the instruction")
{
    Result r;
    require_code(Prog(ps, 5, 0).op(op_add, {dst(operand_temp, {0}), src(operand_temp, {1})}).op(op_ret).bytes(),
                 Code::tpf_operand_past_end, r);
    // The bad instruction is dropped whole, with its parameters; reading goes on.
    REQUIRE(r.program.instructions.size() == 1);
    CHECK(r.program.instructions[0].opcode == Opcode::ret);
    CHECK(r.program.dsts.empty());
    CHECK(r.program.srcs.empty());
    // An index or an immediate cut off by the instruction length.
    require_code(Prog(ps, 5, 0).raw({op_mov | 3u << 24, dst(operand_temp, {0}).encode()[0], 0, 0x0010e046}),
                 Code::tpf_operand_past_end);
    require_code(Prog(ps, 5, 0).raw({op_mov | 4u << 24, dst(operand_temp, {0}).encode()[0], 0, 0x00004001}),
                 Code::tpf_operand_past_end);
}

TEST_CASE("tpf malformed: declaration payloads past the end")
{
    require_code(Prog(ps, 5, 0).op(op_dcl_temps), Code::tpf_operand_past_end);
    require_code(Prog(ps, 5, 0).op(op_dcl_indexable_temp, {}, 0, {}, {1, 2}), Code::tpf_operand_past_end);
    require_code(Prog(ps, 5, 0).op(op_dcl_resource, {zero(operand_resource, {0})}, 3u << 11),
                 Code::tpf_operand_past_end);
    require_code(Prog(ps, 5, 1).op(op_dcl_sampler, {zero(operand_sampler, {0, 0, 0})}), Code::tpf_operand_past_end);
    require_code(Prog(ps, 5, 0).op(op_dcl_input_siv, {dst(operand_input, {0})}), Code::tpf_operand_past_end);
    require_code(Prog(5, 5, 0).op(op_dcl_thread_group, {}, 0, {}, {1, 1}), Code::tpf_operand_past_end);
}

TEST_CASE("tpf malformed: unknown operand type, bad index count and representation")
{
    Opnd unknown = dst(operand_temp, {0});
    unknown.type = 60;
    require_code(Prog(ps, 5, 0).op(op_mov, {unknown, src(operand_temp, {1})}), Code::tpf_unknown_operand_type);
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0, 1}), src(operand_temp, {1})}),
                 Code::tpf_bad_index_count);
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), src(operand_input, {1, 2, 3})}),
                 Code::tpf_bad_index_count);
    // SM5.0 resources take one index, SM5.1 two.
    Opnd coords = src(operand_temp, {1});
    require_code(Prog(ps, 5, 0).op(op_ld, {dst(operand_temp, {0}), coords, src(operand_resource, {0, 0})}),
                 Code::tpf_bad_index_count);
    require_code(Prog(ps, 5, 1).op(op_ld, {dst(operand_temp, {0}), coords, src(operand_resource, {0})}),
                 Code::tpf_bad_index_count);
    require_code(Prog(ps, 5, 1).op(op_dcl_resource, {zero(operand_resource, {0})}, 3u << 11, {}, {0x5555, 0}),
                 Code::tpf_bad_index_count);
    Opnd bad_repr = src(operand_temp, {1});
    bad_repr.indices[0].repr = 5;
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), bad_repr}), Code::tpf_bad_index_representation);
}

TEST_CASE("tpf malformed: component count and selection mode")
{
    Opnd n = src(operand_temp, {1});
    n.comps = components_n;
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), n}), Code::tpf_bad_components);
    Opnd mode = src(operand_temp, {1});
    mode.mode = 3;
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), mode}), Code::tpf_bad_components);
    Opnd imm0 = imm(1);
    imm0.comps = components_0;
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), imm0}), Code::tpf_bad_components);
}

TEST_CASE("tpf malformed: custom data blocks with bad lengths")
{
    Result r;
    require_code(Prog(ps, 5, 0).raw({custom_comment << 11 | op_customdata, 1}).op(op_ret).bytes(),
                 Code::tpf_bad_custom_data, r);
    CHECK(r.program.instructions.empty()); // the length is unusable: reading stops
    require_code(Prog(ps, 5, 0).raw({custom_comment << 11 | op_customdata, 40, 0}), Code::tpf_bad_custom_data);
    require_code(Prog(ps, 5, 0).op(op_nop).raw({custom_icb << 11 | op_customdata}), Code::tpf_bad_custom_data);
    // An immediate constant buffer that is not whole vec4s is skipped by its length.
    Result r2;
    require_code(Prog(ps, 5, 0).raw({custom_icb << 11 | op_customdata, 5, 1, 2, 3}).op(op_ret).bytes(),
                 Code::tpf_bad_custom_data, r2);
    REQUIRE(r2.program.instructions.size() == 1);
    CHECK(r2.program.instructions[0].opcode == Opcode::ret);
}

TEST_CASE("tpf malformed: interfaces and class linkage are refused")
{
    Result r;
    require_code(Prog(ps, 5, 0).op(op_dcl_function_body, {}, 0, {}, {0}).op(op_ret).bytes(),
                 Code::tpf_interfaces_unsupported, r);
    CHECK(r.diags.messages()[0].text.find("dcl_function_body") != std::string::npos);
    CHECK(r.diags.error_count() == 1);
    require_code(Prog(ps, 5, 0).op(op_dcl_interface, {}, 0, {}, {0, 1, 0x10001, 0}), Code::tpf_interfaces_unsupported);
    require_code(Prog(ps, 5, 0).op(op_interface_call, {zero(operand_interface, {0, 0})}, 0, {}, {}),
                 Code::tpf_interfaces_unsupported);
    Result r2;
    require_code(Prog(ps, 5, 0)
                     .op(op_mov, {dst(operand_temp, {0}), src(operand_this_pointer, {0})})
                     .op(op_ret)
                     .bytes(),
                 Code::tpf_interfaces_unsupported, r2);
    CHECK(r2.diags.error_count() == 1);
}

TEST_CASE("tpf malformed: 64-bit index and relative address nesting")
{
    Opnd v = src(operand_input, {9});
    v.imm64_index(0, 1);
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), v}), Code::tpf_index_out_of_range);

    Opnd inner = sel(operand_temp, {0}, 0);
    for (int depth = 0; depth < 5; ++depth) {
        Opnd outer = sel(operand_indexable_temp, {0, 0}, 0);
        outer.relative(1, inner);
        inner = outer;
    }
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), inner}), Code::tpf_relative_address_too_deep);
}

TEST_CASE("tpf malformed: unknown extended opcode and operand tokens")
{
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), src(operand_temp, {1})}, 0, {9}),
                 Code::tpf_unknown_extended_token);
    Opnd e = src(operand_temp, {1});
    e.modifier_token = 7;
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), e}), Code::tpf_unknown_extended_token);
    // An extended opcode token announced but cut off by the length.
    require_code(Prog(ps, 5, 0).raw({op_nop | 1u << 24 | 1u << 31}), Code::tpf_operand_past_end);
}

TEST_CASE("tpf malformed: invalid declaration values")
{
    require_code(Prog(ps, 5, 0).op(op_dcl_resource, {zero(operand_resource, {0})}, 13u << 11, {}, {0x5555}),
                 Code::tpf_bad_declaration);
    require_code(Prog(ps, 5, 0).op(op_dcl_resource, {zero(operand_resource, {0})}, 3u << 11, {}, {0xf555}),
                 Code::tpf_bad_declaration);
    require_code(Prog(ps, 5, 0).op(op_dcl_resource, {src(operand_temp, {0})}, 3u << 11, {}, {0x5555}),
                 Code::tpf_bad_declaration);
    require_code(Prog(ps, 5, 0).op(op_dcl_indexable_temp, {}, 0, {}, {0, 4, 0}), Code::tpf_bad_declaration);
    require_code(Prog(ps, 5, 0).op(op_dcl_input_siv, {dst(operand_input, {0})}, 0, {}, {99}),
                 Code::tpf_bad_declaration);
    require_code(Prog(ps, 5, 0).op(op_dcl_input_ps, {dst(operand_input, {0})}, 9u << 11), Code::tpf_bad_declaration);
    require_code(Prog(ps, 5, 0).op(op_dcl_output, {src(operand_resource, {0})}), Code::tpf_bad_declaration);
}

TEST_CASE("tpf malformed: operand not allowed here and bad modifiers")
{
    require_code(Prog(ps, 5, 0).op(op_mov, {imm(1), src(operand_temp, {1})}), Code::tpf_bad_operand);
    require_code(Prog(ps, 5, 0).op(op_label, {src(operand_temp, {0})}), Code::tpf_bad_operand);
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_constant_buffer, {0, 1}), src(operand_temp, {1})}),
                 Code::tpf_bad_operand);
    require_code(Prog(ps, 5, 0).op(op_store_raw, {dst(operand_resource, {0}), imm(0), src(operand_temp, {1})}),
                 Code::tpf_bad_operand);
    require_code(Prog(ps, 5, 0).op(op_case, {sel(operand_temp, {0}, 0)}), Code::tpf_bad_operand);
    require_code(Prog(ps, 5, 0).op(op_call, {zero(operand_resource, {0})}), Code::tpf_bad_operand);
    Opnd t0 = src(operand_resource, {0});
    require_code(Prog(ps, 5, 0).op(op_add, {dst(operand_temp, {0}), t0, src(operand_temp, {1})}), Code::tpf_bad_operand);
    require_code(Prog(ps, 5, 0).op(op_sample, {dst(operand_temp, {0}), src(operand_input, {0}), src(operand_temp, {0}),
                                               zero(operand_sampler, {0})}),
                 Code::tpf_bad_operand);
    Opnd m = src(operand_temp, {1});
    m.modifier(5);
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), m}), Code::tpf_bad_modifier);
    Opnd prec = src(operand_temp, {1});
    prec.modifier(0, 3);
    require_code(Prog(ps, 5, 0).op(op_mov, {dst(operand_temp, {0}), prec}), Code::tpf_bad_modifier);
}

TEST_CASE("tpf malformed: truncations and bit flips of a valid program never crash")
{
    Prog p(ps, 5, 1);
    Opnd x = src(operand_indexable_temp, {1, 3});
    x.relative(1, sel(operand_temp, {2}, 0));
    p.op(op_dcl_global_flags, {}, 1u << 11)
        .op(op_dcl_constant_buffer, {src(operand_constant_buffer, {0, 0, 0})}, 0, {}, {4, 0})
        .op(op_dcl_resource, {zero(operand_resource, {0, 0, 0})}, 3u << 11, {}, {0x5555, 0})
        .op(op_dcl_sampler, {zero(operand_sampler, {0, 0, 0})}, 0, {}, {0})
        .raw({custom_icb << 11 | op_customdata, 6, 1, 2, 3, 4})
        .op(op_dcl_temps, {}, 0, {}, {3})
        .op(op_dcl_indexable_temp, {}, 0, {}, {1, 4, 4})
        .op(op_sample, {dst(operand_temp, {0}), src(operand_input, {0}), src(operand_resource, {0, 0}),
                        zero(operand_sampler, {0, 0})},
            0, {ext_sample_controls | 1u << 9})
        .op(op_mov, {dst(operand_temp, {1}), x})
        .op(op_if, {sel(operand_temp, {0}, 0)}, test_nonzero_bit)
        .op(op_mul, {dst(operand_output, {0}), src(operand_constant_buffer, {0, 0, 1}), imm4(1, 2, 3, 4)})
        .op(op_endif)
        .op(op_ret);
    std::vector<uint8_t> good = p.bytes();
    Result ok;
    read(good, ok);
    INFO(ok.diags.to_string());
    REQUIRE(ok.ok);

    for (size_t n = 0; n < good.size(); n += 4) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(n));
        Result r;
        read(cut, r);
        if (n < good.size())
            CHECK_FALSE(r.ok);
    }
    std::mt19937 rng(1234);
    size_t failures = 0;
    for (int round = 0; round < 4000; ++round) {
        std::vector<uint8_t> bytes = good;
        int flips = 1 + int(rng() % 3);
        for (int f = 0; f < flips; ++f) {
            size_t byte = 8 + rng() % (bytes.size() - 8);
            bytes[byte] ^= uint8_t(1u << (rng() % 8));
        }
        Result r;
        read(bytes, r);
        failures += !r.ok;
        for (const auto& ins : r.program.instructions) {
            REQUIRE(ins.dst_first + ins.dst_count <= r.program.dsts.size());
            REQUIRE(ins.src_first + ins.src_count <= r.program.srcs.size());
        }
    }
    CHECK(failures > 0);
}
