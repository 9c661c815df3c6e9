// Lookups in the DXIL op table: stable ops, the experimental partition and
// the errors for unknown, reserved and disabled opcodes.
#include <doctest/doctest.h>

#include "dxil/ops/ops.h"

using namespace dxspv;
using namespace dxspv::dxil::ops;

TEST_CASE("stable ops by id and by name")
{
    Diagnostics d("t.dxil");
    const OpInfo* sin = lookup(13, false, d, Location::offset(0x10));
    REQUIRE(sin);
    CHECK(d.error_count() == 0);
    CHECK(std::string_view(sin->name) == "Sin");
    CHECK(sin->op_class == OpClass::Unary);
    CHECK(std::string_view(class_info(sin->op_class).function) == "unary");
    CHECK(sin->has(Attribute::readnone));
    CHECK(sin->id() == OpId::Sin);
    CHECK(sin == find_by_name("Sin"));
    CHECK(&info(OpId::Sin) == sin);

    const OpInfo* tid = find_by_name("ThreadId");
    REQUIRE(tid);
    CHECK(tid->opcode == uint32_t(OpId::ThreadId));
    CHECK(tid->opcode == 93);
    CHECK(tid->allows_stage(ShaderStage::compute));
    CHECK_FALSE(tid->allows_stage(ShaderStage::pixel));

    const OpInfo* sample = find_by_name("Sample");
    REQUIRE(sample);
    CHECK(sample->has(Flag::gradient));
    CHECK(sample->has(Attribute::readonly));
    CHECK(std::string_view(class_info(OpClass::CBufferLoadLegacy).function) == "cbufferLoadLegacy");
    CHECK(find_by_name("DerivCoarseX")->has(Flag::derivative));
    CHECK(find_by_name("WaveActiveOp")->has(Flag::wave));
    CHECK(find_by_name("Barrier")->has(Flag::barrier));
    CHECK(find_by_name("WriteSamplerFeedback")->has(Flag::feedback));
    CHECK(find_by_name("NoSuchOp") == nullptr);
}

TEST_CASE("table layout: contiguous tables, ids and names agree")
{
    REQUIRE(tables().size() == 2);
    for (const TableInfo& t : tables()) {
        for (size_t i = 0; i < t.ops.size(); ++i) {
            const OpInfo& op = t.ops[i];
            CHECK(op.index() == i);
            CHECK(op.feature() == t.feature);
            CHECK(op.has(Flag::experimental) == t.experimental);
            CHECK(find_by_name(op.name) == &op);
            CHECK(op.overload_step_count >= 1);
        }
    }
    CHECK(find_table(0x0000)->ops.size() == CoreOps_count);
    CHECK(find_table(0x8000)->ops.size() == ExperimentalOps_count);
    CHECK(find_table(0x8000)->experimental);
    CHECK(find_table(0x1234) == nullptr);
}

TEST_CASE("experimental ops: enabled")
{
    Diagnostics d;
    const OpInfo* op = lookup(0x80000012u, true, d, Location::none());
    REQUIRE(op);
    CHECK(d.error_count() == 0);
    CHECK(std::string_view(op->name) == "LinAlgMatrixGetElement");
    CHECK(op->feature() == 0x8000);
    CHECK(op->index() == 18);
    CHECK(op->id() == OpId::LinAlgMatrixGetElement);
    CHECK(op->has(Flag::experimental));
    const OpInfo* nop = lookup(uint32_t(OpId::ExperimentalNop), true, d, Location::none());
    REQUIRE(nop);
    CHECK(nop->opcode == 0x80000000u);
    CHECK(d.error_count() == 0);
}

TEST_CASE("experimental ops: disabled gives the exact message")
{
    Diagnostics d("shader.dxil");
    CHECK(lookup(0x80000012u, false, d, Location::offset(0x1c4)) == nullptr);
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].code == Code::dxil_op_experimental_disabled);
    CHECK(d.messages()[0].text ==
          "DXIL op 0x80000012 (experimental feature 0x8000, op 18, LinAlgMatrixGetElement) is experimental; "
          "enable experimental ops to accept it");
}

TEST_CASE("unknown feature id")
{
    Diagnostics d;
    CHECK(lookup(0x12340005u, true, d, Location::none()) == nullptr);
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].code == Code::dxil_op_unknown_feature);
    CHECK(d.messages()[0].text ==
          "unknown DXIL op 0x12340005 (feature 0x1234, op 5): no op table has feature id 0x1234 "
          "(known: 0x0000 stable, 0x8000 experimental)");
    d.clear();
    // 0x0001 is right next to the stable table: still unknown.
    CHECK(lookup(0x00010000u, true, d, Location::none()) == nullptr);
    CHECK(d.has_code(Code::dxil_op_unknown_feature));
}

TEST_CASE("out-of-range index in each table")
{
    Diagnostics d;
    CHECK(lookup(CoreOps_count - 1, false, d, Location::none()) != nullptr);
    CHECK(lookup(CoreOps_count, false, d, Location::none()) == nullptr);
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].code == Code::dxil_op_unknown_index);
    CHECK(d.messages()[0].text == "unknown DXIL op 312: the stable op table (CoreOps) has ops 0-311");
    CHECK(lookup(0xffffu, false, d, Location::none()) == nullptr);

    d.clear();
    uint32_t last_exp = 0x80000000u | (ExperimentalOps_count - 1);
    CHECK(lookup(last_exp, true, d, Location::none()) != nullptr);
    CHECK(lookup(last_exp + 1, true, d, Location::none()) == nullptr);
    REQUIRE(d.messages().size() == 1);
    CHECK(d.messages()[0].code == Code::dxil_op_unknown_index);
    CHECK(d.messages()[0].text ==
          "unknown DXIL op 0x80000023 (experimental feature 0x8000, op 35): the experimental op table "
          "(ExperimentalOps) has ops 0-34");
    // Unknown stays unknown when experimental ops are disabled.
    d.clear();
    CHECK(lookup(0x8000ffffu, false, d, Location::none()) == nullptr);
    CHECK(d.has_code(Code::dxil_op_unknown_index));
}

TEST_CASE("reserved slots are not operations")
{
    Diagnostics d;
    const TableInfo* core = find_table(0);
    const OpInfo* reserved = nullptr;
    for (const OpInfo& op : core->ops)
        if (op.has(Flag::reserved)) {
            reserved = &op;
            break;
        }
    REQUIRE(reserved);
    CHECK(reserved->op_class == OpClass::Reserved);
    CHECK(lookup(reserved->opcode, true, d, Location::none()) == nullptr);
    CHECK(d.has_code(Code::dxil_op_reserved));
}
