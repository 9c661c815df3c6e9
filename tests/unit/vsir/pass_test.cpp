#include <doctest/doctest.h>

#include "build_helpers.h"
#include "vsir/pass.h"
#include "vsir/passes/passes.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

using namespace dxspv;
using namespace dxspv::vsir;
using namespace dxspv::vsir::test;

namespace {

bool break_temps(Program& p, Diagnostics&)
{
    p.temp_count = 0;
    return true;
}

bool fail_silently(Program&, Diagnostics&) { return false; }

bool fail_loudly(Program&, Diagnostics& diags)
{
    diags.error(Code::api_not_implemented, Location::none(), "cannot do that");
    return false;
}

Program program_with_nops()
{
    Program p = make_program(ShaderStage::pixel);
    p.temp_count = 1;
    add_decl(p, Opcode::dcl_temps).count = 1;
    add(p, Opcode::nop);
    add(p, Opcode::mov, {dst(temp(0), X)}, {imm_f(1.0f)});
    add(p, Opcode::nop);
    add(p, Opcode::nop);
    add(p, Opcode::if_, {}, {src(temp(0, DataType::u32), XXXX)}, flag_test_nonzero);
    add(p, Opcode::nop);
    add(p, Opcode::endif);
    add(p, Opcode::ret);
    add(p, Opcode::nop);
    for (uint32_t i = 0; i < p.instructions.size(); ++i)
        p.instructions[i].location = 100 + 4 * i;
    return p;
}

} // namespace

TEST_CASE("run_pass: validation names the pass that broke the program")
{
    Program p = program_with_nops();
    Diagnostics diags;
    CHECK_FALSE(run_pass(p, diags, "break_temps", break_temps, true));
    REQUIRE(diags.error_count() >= 1);
    CHECK(diags.has_code(Code::vsir_temp_index));
    bool found = false;
    for (const Message& m : diags.messages())
        if (m.code == Code::vsir_temp_index)
            found = m.text.rfind("after pass break_temps: temp r0 outside temp_count 0", 0) == 0;
    CHECK(found);
}

TEST_CASE("run_pass: failures")
{
    Program p = program_with_nops();
    Diagnostics diags;
    CHECK_FALSE(run_pass(p, diags, "silent", fail_silently, true));
    REQUIRE(diags.messages().size() == 1);
    CHECK(diags.messages()[0].code == Code::vsir_pass_failed);
    CHECK(diags.messages()[0].text == "pass silent failed");

    Diagnostics loud;
    CHECK_FALSE(run_pass(p, loud, "loud", fail_loudly, true));
    REQUIRE(loud.messages().size() == 1);
    CHECK(loud.messages()[0].code == Code::api_not_implemented);
}

TEST_CASE("run_pass: validation when asked, and always in debug builds")
{
    // Without NDEBUG (the default build) even validate=false validates;
    // a release build validates only when asked.
    Program p = program_with_nops();
    Diagnostics diags;
    CHECK(run_pass(p, diags, "break_temps", break_temps, false) == !validation_forced());
    CHECK(diags.has_code(Code::vsir_temp_index) == validation_forced());

    Program asked = program_with_nops();
    Diagnostics asked_diags;
    CHECK_FALSE(run_pass(asked, asked_diags, "break_temps", break_temps, true));
    CHECK(asked_diags.has_code(Code::vsir_temp_index));
}

TEST_CASE("remove_nops: before and after")
{
    Program p = program_with_nops();
    CHECK(print_program(p) ==
          "ps_5_0 structured\n"
          "; temps=1 ssa=0 labels=0\n"
          "dcl_temps 1\n"
          "nop\n"
          "mov r0.x, l(1.0)\n"
          "nop\n"
          "nop\n"
          "if_nz r0.x\n"
          "  nop\n"
          "endif\n"
          "ret\n"
          "nop\n");
    Diagnostics diags;
    REQUIRE(run_pass(p, diags, "remove_nops", remove_nops, true));
    CHECK(diags.error_count() == 0);
    CHECK(print_program(p) ==
          "ps_5_0 structured\n"
          "; temps=1 ssa=0 labels=0\n"
          "dcl_temps 1\n"
          "mov r0.x, l(1.0)\n"
          "if_nz r0.x\n"
          "endif\n"
          "ret\n");
    // Locations and declaration links survive the compaction.
    REQUIRE(p.instructions.size() == 5);
    CHECK(p.instructions[0].location == 100);
    CHECK(p.instructions[0].decl == 0);
    CHECK(p.instructions[1].location == 108);
    CHECK(p.instructions[2].location == 120);
    CHECK(p.instructions[3].location == 128);
    CHECK(p.instructions[4].location == 132);
}

TEST_CASE("remove_nops: nothing to remove and all nops")
{
    Program p = make_program(ShaderStage::vertex);
    add(p, Opcode::ret);
    Diagnostics diags;
    CHECK(remove_nops(p, diags));
    CHECK(p.instructions.size() == 1);
    Program q = make_program(ShaderStage::vertex);
    add(q, Opcode::nop);
    add(q, Opcode::nop);
    CHECK(remove_nops(q, diags));
    CHECK(q.instructions.empty());
    CHECK(print_program(q) == "vs_5_0 structured\n");
}

TEST_CASE("run_pipeline: validates the input, then runs the passes")
{
    Program p = program_with_nops();
    Diagnostics diags;
    PipelineOptions options;
    options.validate = true;
    CHECK(run_pipeline(p, diags, options));
    CHECK(p.instructions.size() == 5);

    Program bad = program_with_nops();
    bad.temp_count = 0;
    bad.decls[0].count = 0;
    Diagnostics bad_diags;
    CHECK_FALSE(run_pipeline(bad, bad_diags, options));
    CHECK(bad_diags.messages()[0].text.rfind("after pass front end: ", 0) == 0);
    CHECK(bad.instructions.size() == 10); // no pass ran
}

TEST_CASE("run_pipeline: input that breaks the nesting rules is reported the same way without validation")
{
    // A break outside any loop or switch, and an if never closed: D3D
    // bytecode can say both. Release builds skip the full validation, yet
    // must refuse this as the validator does, not leave it to the emitter.
    for (const bool validate : {false, true}) {
        Program q = make_program(ShaderStage::pixel);
        add(q, Opcode::break_);
        add(q, Opcode::if_, {}, {imm_u(1)}, flag_test_nonzero);
        add(q, Opcode::ret);
        Diagnostics diags;
        PipelineOptions options;
        options.validate = validate;
        CHECK_FALSE(run_pipeline(q, diags, options));
        REQUIRE(diags.messages().size() == 2);
        CHECK(diags.messages()[0].code == Code::vsir_nesting);
        CHECK(diags.messages()[0].text == "after pass front end: break outside a loop or switch: `break`");
        CHECK(diags.messages()[1].text.find("if not closed at the end of the program") != std::string::npos);
    }

    // A switch whose first instruction is not a case, then a case after
    // the switch closed: found without the full validation too.
    Program sw = make_program(ShaderStage::pixel);
    add(sw, Opcode::switch_, {}, {imm_u(0)});
    add(sw, Opcode::ret);
    add(sw, Opcode::endswitch);
    add(sw, Opcode::case_, {}, {imm_u(1)});
    Diagnostics sw_diags;
    CHECK_FALSE(validate_nesting(sw, sw_diags, "front end"));
    REQUIRE(sw_diags.messages().size() == 2);
    CHECK(sw_diags.messages()[0].text.find("switch must be followed by case or default") != std::string::npos);
    CHECK(sw_diags.messages()[1].text.find("case without a matching switch") != std::string::npos);

    Program good = program_with_nops();
    Diagnostics diags;
    CHECK(validate_nesting(good, diags, "front end"));
    CHECK(diags.messages().empty());
}
