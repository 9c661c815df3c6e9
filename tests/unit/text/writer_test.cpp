// tpf::write_program on hand-built programs: written, read back, equal.
#include <doctest/doctest.h>

#include "helpers.h"
#include "vsir/ir.h"

using namespace dxspv;
using vsir::DataType;
using vsir::Dimension;
using vsir::Opcode;
using vsir::RegisterFile;

namespace {

vsir::Program compute_program(uint8_t minor)
{
    vsir::Program p;
    p.model = {ShaderStage::compute, 5, minor};
    uint32_t i = p.add_instruction(Opcode::dcl_temps, 0, 0);
    p.add_declaration(i).count = 2;
    p.temp_count = 2;
    i = p.add_instruction(Opcode::dcl_uav_raw, 1, 0);
    uint32_t zero = 0;
    p.dst(p.instructions[i], 0).reg = vsir::make_register(RegisterFile::uav, DataType::opaque, Dimension::none, {&zero, 1});
    vsir::Declaration& d = p.add_declaration(i);
    d.dimension = vsir::ResourceDimension::raw_buffer;
    i = p.add_instruction(Opcode::ishl, 1, 2);
    p.dst(p.instructions[i], 0).reg = vsir::make_register(RegisterFile::temp, DataType::i32, Dimension::vec4, {&zero, 1});
    p.dst(p.instructions[i], 0).write_mask = 1;
    p.src(p.instructions[i], 0).reg = vsir::make_register(RegisterFile::thread_id, DataType::i32, Dimension::vec4);
    p.src(p.instructions[i], 0).swizzle = 0;
    p.src(p.instructions[i], 1).reg = vsir::make_immediate(DataType::u32, 2);
    p.src(p.instructions[i], 1).swizzle = 0;
    p.add_instruction(Opcode::ret, 0, 0);
    return p;
}

} // namespace

TEST_CASE("writer: hand-built compute program round trips (SM5.0 and SM5.1)")
{
    for (uint8_t minor : {uint8_t(0), uint8_t(1)}) {
        vsir::Program p = compute_program(minor);
        Diagnostics diags;
        std::string back = text_test::write_and_read(p, diags);
        INFO(diags.to_string());
        CHECK(back == text_test::print(p));
    }
}

TEST_CASE("writer: refuses what TPF cannot express")
{
    vsir::Program p = compute_program(0);
    p.add_instruction(Opcode::phi, 1, 2);
    Diagnostics diags;
    std::vector<uint32_t> tokens;
    CHECK_FALSE(tpf::write_program(p, tokens, diags));
    CHECK(diags.has_code(Code::tpf_unencodable));
    CHECK(tokens.empty());
}
