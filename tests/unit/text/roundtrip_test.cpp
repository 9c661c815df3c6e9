// d3d-asm round trips per instruction family (families/*.asm): text ->
// assemble -> TPF tokens -> read -> disassemble gives the same text; every
// SM4/5 opcode the TPF reader knows appears in at least one family. Plus the signature
// comment blocks (fxc's table and the dxspv-signature line) and the token
// forms the text keeps (select-1 vs swizzle, 0/1-component operands).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "container/signature.h"
#include "families.h"
#include "helpers.h"
#include "text/assembler.h"
#include "text/disassembler.h"
#include "tpf/opcode_table.h"
#include "tpf/tokens.h"

using namespace dxspv;

namespace {

/// The instruction lines of a disassembly (signature comments dropped).
std::string without_comments(const std::string& text)
{
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        if (line.rfind("//", 0) != 0)
            out += line + "\n";
        start = end + 1;
    }
    return out;
}

/// text -> program -> tokens -> program -> text; "" (and a message) on failure.
std::string through_tokens(const std::string& text, vsir::Program& assembled, std::vector<uint32_t>& tokens,
                           Diagnostics& diags)
{
    if (!text::assemble(text, assembled, diags))
        return "";
    tokens.clear();
    if (!tpf::write_program(assembled, tokens, diags))
        return "";
    std::vector<uint8_t> bytes = text_test::to_bytes(tokens);
    vsir::Program back;
    if (!tpf::read_program(bytes, 0, back, diags))
        return "";
    return text::disassemble(back);
}

} // namespace

TEST_CASE("d3d-asm round trip: every instruction family, text -> tokens -> text")
{
    std::vector<text_test::Family> families = text_test::load_families();
    REQUIRE(families.size() >= 13);
    for (const text_test::Family& f : families) {
        INFO(f.path);
        vsir::Program p;
        std::vector<uint32_t> tokens;
        Diagnostics diags;
        std::string back = through_tokens(f.text, p, tokens, diags);
        INFO(diags.to_string());
        CHECK(without_comments(back) == without_comments(f.text));
        // And the tokens themselves survive text: write(assemble(disassemble(read(tokens)))) == tokens.
        vsir::Program again;
        std::vector<uint32_t> tokens_again;
        CHECK(through_tokens(back, again, tokens_again, diags) == back);
        CHECK(tokens_again == tokens);
    }
}

TEST_CASE("d3d-asm round trip: every SM4/5 opcode is in a family")
{
    std::set<vsir::Opcode> seen;
    for (const text_test::Family& f : text_test::load_families()) {
        vsir::Program p;
        Diagnostics diags;
        REQUIRE(text::assemble(f.text, p, diags));
        for (const vsir::Instruction& ins : p.instructions)
            seen.insert(ins.opcode);
    }
    for (uint32_t number = 0; number < tpf::op_count; ++number) {
        const tpf::OpcodeEntry& e = tpf::opcode_entry(number);
        if (e.handling != tpf::Handling::instruction && e.handling != tpf::Handling::declaration)
            continue;
        INFO("TPF opcode " << number << " (" << std::string(vsir::opcode_info(e.op).name) << ")");
        CHECK(seen.count(e.op) == 1);
    }
    CHECK(seen.count(vsir::Opcode::dcl_immediate_constant_buffer) == 1);
}

TEST_CASE("d3d-asm round trip: select-1, swizzle, mask and 0/1-component forms")
{
    const char* text = "ps_5_0\n"
                       "dcl_input vCoverage\n"
                       "dcl_output o0.xyzw\n"
                       "dcl_temps 1\n"
                       "mov r0.x, vCoverage.x\n"
                       "mov r0.y, r0.xxxx\n"
                       "mov r0.zw, l(1, 2, 3, 4) {swz}\n"
                       "mov o0.xyzw, r0.xyzw {ext}\n"
                       "ret\n";
    vsir::Program p;
    std::vector<uint32_t> tokens;
    Diagnostics diags;
    std::string back = through_tokens(text, p, tokens, diags);
    INFO(diags.to_string());
    CHECK(without_comments(back) == std::string(text));
    // mov r0.x, vCoverage.x: vCoverage select-1 x (operand type 35).
    CHECK(tokens[12] == ((tpf::operand_coverage_mask_in << 12) | (tpf::select_one << 2) | tpf::components_4));
    // mov r0.y, r0.xxxx: swizzle mode, swizzle 0.
    CHECK(tokens[16] == ((1u << 20) | (tpf::select_swizzle << 2) | tpf::components_4));
}

TEST_CASE("d3d-asm round trip: token forms the text cannot show are annotated")
{
    // A 1-component temp, a 0-component sampler declaration and a vec4
    // immediate in swizzle form: not fxc's choices, kept by annotations.
    const char* text = "ps_5_0\n"
                       "dcl_sampler s0 {swz}, mode_default\n"
                       "dcl_temps 1\n"
                       "mov r0 {c1}, l(1.000000)\n"
                       "ret\n";
    vsir::Program p;
    std::vector<uint32_t> tokens;
    Diagnostics diags;
    std::string back = through_tokens(text, p, tokens, diags);
    INFO(diags.to_string());
    CHECK(without_comments(back) == std::string(text));
}

TEST_CASE("d3d-asm: newer fxc's CB0[n] spelling of SM4/5.0 constant buffer declarations")
{
    vsir::Program p;
    Diagnostics diags;
    REQUIRE(text::assemble("ps_5_0\ndcl_constantbuffer CB0[4], immediateIndexed\nret\n", p, diags));
    CHECK(text::disassemble(p) == "ps_5_0\ndcl_constantbuffer cb0[4], immediateIndexed\nret\n");
}

TEST_CASE("d3d-asm signature blocks: fxc's table and the dxspv-signature line")
{
    const char* text = "//\n"
                       "// Input signature:\n"
                       "//\n"
                       "// Name                 Index   Mask Register SysValue  Format   Used\n"
                       "// -------------------- ----- ------ -------- -------- ------- ------\n"
                       "// SV_POSITION              0   xyzw        0      POS   float\n"
                       "// TEXCOORD                 0   xy          1     NONE   float   xy\n"
                       "// TEXCOORD                 1     zw        1     NONE    uint     z\n"
                       "// dxspv-signature: ISG1; 1 reserved=0x1000; 2 prec=5\n"
                       "//\n"
                       "//\n"
                       "// Output signature:\n"
                       "//\n"
                       "// Name                 Index   Mask Register SysValue  Format   Used\n"
                       "// -------------------- ----- ------ -------- -------- ------- ------\n"
                       "// SV_Target                0   xyzw        0   TARGET   float   xyzw\n"
                       "// SV_Depth                 0    N/A   oDepth    DEPTH   float    YES\n"
                       "// dxspv-signature: OSG5 unpadded; 0 stream=1\n"
                       "//\n"
                       "ps_5_0\n"
                       "ret\n";
    vsir::Program p;
    Diagnostics diags;
    REQUIRE(text::assemble(text, p, diags));
    INFO(diags.to_string());
    REQUIRE(p.inputs.size() == 3);
    REQUIRE(p.outputs.size() == 2);
    CHECK(p.inputs[0].semantic_name == "SV_POSITION");
    CHECK(p.inputs[0].system_value == SystemValue::position);
    CHECK(p.inputs[0].mask == 0xf);
    CHECK(p.inputs[0].used_mask == 0);
    CHECK(p.inputs[1].register_index == 1);
    CHECK(p.inputs[1].used_mask == 0x3);
    CHECK(p.inputs[2].semantic_index == 1);
    CHECK(p.inputs[2].mask == 0xc);
    CHECK(p.inputs[2].used_mask == 0x4);
    CHECK(p.inputs[2].component_type == ComponentType::uint32);
    CHECK(p.inputs[2].min_precision == MinPrecision::uint16);
    CHECK(p.inputs[1].reserved == 0x1000);
    CHECK(p.outputs[0].system_value == SystemValue::none); // fxc stores SV_Target as 0
    CHECK(p.outputs[0].used_mask == 0);
    CHECK(p.outputs[0].stream == 1);
    CHECK(p.outputs[1].register_index == ~0u);
    CHECK(p.outputs[1].mask == 0x1);
    CHECK(p.outputs[1].used_mask == 0xe);
    CHECK(p.signature_chunks[0] == container::fourcc("ISG1"));
    CHECK(p.signature_chunks[1] == container::fourcc("OSG5"));
    CHECK(p.signature_chunks[2] == 0);
    CHECK(p.signature_unpadded == 2);
    CHECK(text::disassemble(p) == std::string(text));

    // The chunk bytes survive: serialize, parse back, same elements.
    container::Chunk chunk;
    std::vector<uint8_t> bytes =
        container::serialize_signature(p.inputs, container::SignatureFormat::sg1, uint8_t(0xab));
    chunk.fourcc = container::fourcc("ISG1");
    chunk.data = bytes;
    std::vector<SignatureElement> back;
    REQUIRE(container::parse_signature(chunk, back, diags));
    REQUIRE(back.size() == 3);
    CHECK(back[2].min_precision == MinPrecision::uint16);
    CHECK(back[2].mask == 0xc);
    CHECK(back[1].reserved == 0x1000);
}

TEST_CASE("d3d-asm signature blocks: malformed blocks are numbered errors")
{
    const char* bad[] = {
        "// Input signature:\n//\n// Name Index\n// ----\n// SV_POSITION x\n//\nps_5_0\nret\n",
        "// Output signature:\n//\n// Name Index\n// ----\n// A 0 x 0 NONE float\n// dxspv-signature: ISGN\n//\nps_5_0\nret\n",
        "// Output signature:\n//\n// Name Index\n// ----\n// A 0   x           0     NONE   float   x\n// dxspv-signature: OSGN; 7 mask=1\n//\nps_5_0\nret\n",
        "// Input signature:\n//\n// Name Index\n// ----\n// A 0   x           0     NONE   float   x\n// dxspv-signature: ISGN; 0 bogus=1\n//\nps_5_0\nret\n",
    };
    for (const char* text : bad) {
        INFO(text);
        vsir::Program p;
        Diagnostics diags;
        CHECK_FALSE(text::assemble(text, p, diags));
        REQUIRE(diags.messages().size() == 1);
        CHECK(diags.messages()[0].code == Code::text_bad_signature);
    }
}
