// The SPIR-V module builder on its own: section layout, type deduplication,
// the structured block order, unreachable code, and that every module it
// writes passes spirv-val.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "spirv/builder.h"
#include "spirv/tools.h"

using dxspv::spirv::Block;
using dxspv::spirv::Builder;

namespace {

/// A compute entry point "main" with LocalSize 1 1 1 in `b`; the build point
/// is its entry block.
dxspv::spirv::Function* compute_entry(Builder& b)
{
    b.addCapability(spv::CapabilityShader);
    b.setMemoryModel(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
    dxspv::spirv::Function* f = b.makeEntryPoint("main");
    b.addExecutionMode(f, spv::ExecutionModeLocalSize, 1, 1, 1);
    b.addEntryPoint(spv::ExecutionModelGLCompute, f, "main", {});
    return f;
}

/// "%id", as the disassembly names an id (appended: GCC 12 warns, wrongly,
/// on `"literal" + std::string`).
std::string id_name(uint32_t id)
{
    std::string s(1, '%');
    return s.append(std::to_string(id));
}

/// The module's disassembly; REQUIREs that spirv-val accepts it.
std::string finish(Builder& b, dxspv::spirv::TargetEnv env = dxspv::spirv::TargetEnv::vulkan1_1)
{
    b.leaveFunction();
    std::vector<uint32_t> words;
    b.dump(words);
    dxspv::Diagnostics diags("builder");
    std::string text = dxspv::spirv::disassemble_spirv(words);
    INFO(text);
    REQUIRE_MESSAGE(dxspv::spirv::validate_spirv(words, env, diags), diags.to_string());
    return text;
}

/// A compute entry point with a Private uvec4 `var`, loaded once (`loaded`).
struct LoadedVector {
    Builder b{0x00010300};
    spv::Id u32 = 0, v2 = 0, v4 = 0, var = 0, loaded = 0;
    LoadedVector()
    {
        compute_entry(b);
        u32 = b.makeUintType(32);
        v4 = b.makeVectorType(u32, 4);
        v2 = b.makeVectorType(u32, 2);
        var = b.createVariable(spv::StorageClassPrivate, v4, "v", b.makeNullConstant(v4));
        loaded = b.createLoad(var);
    }
};

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("builder: types are deduplicated, structs and strided arrays are not")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    CHECK(b.makeUintType(32) == u32);
    CHECK(b.makeIntType(32) != u32);
    spv::Id v4 = b.makeVectorType(u32, 4);
    CHECK(b.makeVectorType(u32, 4) == v4);
    spv::Id len = b.makeUintConstant(4);
    CHECK(b.makeArrayType(v4, len, 0) == b.makeArrayType(v4, len, 0));
    CHECK(b.makeArrayType(v4, len, 16) != b.makeArrayType(v4, len, 16));
    CHECK(b.makeStructType({u32}, "a") != b.makeStructType({u32}, "b"));
    CHECK(b.makePointer(spv::StorageClassPrivate, u32) == b.makePointer(spv::StorageClassPrivate, u32));
    CHECK(b.makeNullConstant(v4) == b.makeNullConstant(v4));
    CHECK(b.makeBoolConstant(true) == b.makeBoolConstant(true));
    spv::Id var = b.createVariable(spv::StorageClassPrivate, v4, "v", b.makeNullConstant(v4));
    CHECK(b.getStorageClass(var) == spv::StorageClassPrivate);
    finish(b);
}

TEST_CASE("builder: a selection's merge block comes after its branches, whatever the creation order")
{
    Builder b(0x00010300);
    compute_entry(b);
    Block* header = b.getBuildPoint();
    Block& merge = b.makeNewBlock(); // created first, filled last
    Block& then_block = b.makeNewBlock();
    Block& else_block = b.makeNewBlock();
    b.setBuildPoint(&then_block);
    b.createBranch(&merge);
    b.setBuildPoint(&else_block);
    b.createBranch(&merge);
    b.setBuildPoint(header);
    b.createSelectionMerge(&merge, spv::SelectionControlMaskNone);
    b.createConditionalBranch(b.makeBoolConstant(true), &then_block, &else_block);
    b.setBuildPoint(&merge);
    std::string text = finish(b);
    std::string label_merge = id_name(merge.getId()) + " = OpLabel";
    std::string label_else = id_name(else_block.getId()) + " = OpLabel";
    CHECK(text.find(label_merge) > text.find(label_else));
}

TEST_CASE("builder: unreachable blocks are dropped with the names and decorations of their values")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    Block& next = b.makeNewBlock();
    b.createBranch(&next);
    Block& dead = b.makeNewBlock(); // nothing branches here
    b.setBuildPoint(&dead);
    spv::Id sum = b.createBinOp(spv::OpIAdd, u32, b.makeUintConstant(1), b.makeUintConstant(2));
    b.addName(sum, "dead_sum");
    b.addDecoration(sum, spv::DecorationNoContraction);
    b.createBranch(&next);
    b.setBuildPoint(&next);
    spv::Id live = b.createBinOp(spv::OpIAdd, u32, b.makeUintConstant(3), b.makeUintConstant(4));
    b.addName(live, "live_sum");
    b.createStore(live, b.createVariable(spv::StorageClassWorkgroup, u32, "out"));
    std::string text = finish(b);
    CHECK(count(text, "OpLabel") == 2);
    CHECK(count(text, "dead_sum") == 0);
    CHECK(count(text, "NoContraction") == 0);
    CHECK(count(text, "live_sum") >= 1);
}

TEST_CASE("builder: an unreachable merge block becomes OpUnreachable, an unreachable continue target a back edge")
{
    Builder b(0x00010300);
    compute_entry(b);
    Block& header = b.makeNewBlock();
    Block& body = b.makeNewBlock();
    Block& continue_target = b.makeNewBlock();
    Block& merge = b.makeNewBlock();
    Block& after = b.makeNewBlock();
    b.createBranch(&header);
    b.setBuildPoint(&header);
    b.createLoopMerge(&merge, &continue_target, spv::LoopControlMaskNone);
    b.createBranch(&body);
    b.setBuildPoint(&body);
    b.makeReturn(); // neither the continue target nor the merge block is reached
    b.setBuildPoint(&continue_target);
    b.createBranch(&header);
    b.setBuildPoint(&merge);
    b.createBranch(&after);
    b.setBuildPoint(&after);
    b.makeReturn();
    std::string text = finish(b);
    std::string merge_label = id_name(merge.getId()) + " = OpLabel";
    REQUIRE(text.find(merge_label) != std::string::npos);
    CHECK(text.find("OpUnreachable", text.find(merge_label)) != std::string::npos);
    CHECK(count(text, std::string("OpBranch ") + id_name(header.getId())) == 2); // entry and the continue target
    CHECK(count(text, id_name(after.getId()) + " = OpLabel") == 0);
}

TEST_CASE("builder: a switch appended to its header after the cases were emitted")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    spv::Id selector = b.createLoad(b.createVariable(spv::StorageClassPrivate, u32, "s", b.makeUintConstant(1)));
    Block* header = b.getBuildPoint();
    Block& merge = b.makeNewBlock();
    Block& case0 = b.makeNewBlock();
    Block& case1 = b.makeNewBlock();
    b.setBuildPoint(&case0);
    b.createBranch(&case1); // falls through
    b.setBuildPoint(&case1);
    b.createBranch(&merge);
    b.setBuildPoint(header);
    b.createSelectionMerge(&merge, spv::SelectionControlMaskNone);
    std::pair<uint32_t, Block*> cases[] = {{0, &case0}, {1, &case1}};
    b.createSwitch(header, selector, &merge, cases, 2);
    b.setBuildPoint(&merge);
    std::string text = finish(b);
    CHECK(count(text, "OpSwitch") == 1);
}

TEST_CASE("builder: Function variables go to the start of the entry block")
{
    Builder b(0x00010000);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    Block& next = b.makeNewBlock();
    b.createBranch(&next);
    b.setBuildPoint(&next);
    spv::Id var = b.createVariable(spv::StorageClassFunction, u32, "local");
    b.createStore(b.makeUintConstant(7), var);
    Block& last = b.makeNewBlock();
    b.createBranch(&last);
    b.setBuildPoint(&last);
    spv::Id loaded = b.createLoad(var);
    CHECK(b.getTypeId(loaded) == u32);
    b.createStore(loaded, b.createVariable(spv::StorageClassWorkgroup, u32, "sink"));
    std::string text = finish(b);
    CHECK(text.find("OpVariable") < text.find("OpBranch"));
}

TEST_CASE("builder: loads of Function and Private variables are forwarded within a block")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    spv::Id v4 = b.makeVectorType(u32, 4);
    spv::Id var = b.createVariable(spv::StorageClassPrivate, v4, "r", b.makeNullConstant(v4));
    spv::Id first = b.createLoad(var);
    CHECK(b.createLoad(var) == first); // nothing stored in between
    spv::Id stored = b.createCompositeInsert(b.makeUintConstant(5), first, v4, 0);
    b.createStore(stored, var);
    CHECK(b.createLoad(var) == stored); // the value just stored
    // A store through an access chain into the variable forgets it.
    spv::Id word = b.createBinOp(spv::OpAccessChain, b.makePointer(spv::StorageClassPrivate, u32), var,
        b.makeUintConstant(1));
    b.createStore(b.makeUintConstant(7), word);
    spv::Id reloaded = b.createLoad(var);
    CHECK(reloaded != stored);
    // A new block loads again.
    Block& next = b.makeNewBlock();
    b.createBranch(&next);
    b.setBuildPoint(&next);
    spv::Id again = b.createLoad(var);
    CHECK(again != reloaded);
    spv::Id sink = b.createVariable(spv::StorageClassWorkgroup, v4, "sink");
    b.createStore(b.createBinOp(spv::OpIAdd, v4, reloaded, again), sink);
    std::string text = finish(b);
    CHECK(count(text, "OpLoad") == 3); // the first, and the two after the stores
}

TEST_CASE("builder: unused results of instructions without side effects are removed")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    spv::Id f32 = b.makeFloatType(32);
    spv::Id x = b.createLoad(b.createVariable(spv::StorageClassPrivate, u32, "x", b.makeUintConstant(1)));
    spv::Id dead = b.createBinOp(spv::OpIMul, u32, x, x); // only the dead bitcast uses it
    b.addDecoration(b.createUnaryOp(spv::OpBitcast, f32, dead), spv::DecorationNoContraction);
    spv::Id live = b.createBinOp(spv::OpIAdd, u32, x, x);
    b.createStore(live, b.createVariable(spv::StorageClassWorkgroup, u32, "y"));
    std::string text = finish(b);
    CHECK(count(text, "OpIMul") == 0);
    CHECK(count(text, "OpBitcast") == 0);
    CHECK(count(text, "NoContraction") == 0);
    CHECK(count(text, "OpIAdd") == 1);
}

TEST_CASE("builder: a store of a whole variable overwritten in the same block before any read is dropped")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    spv::Id x = b.createVariable(spv::StorageClassPrivate, u32, "x");
    spv::Id y = b.createVariable(spv::StorageClassPrivate, u32, "y");
    b.createStore(b.makeUintConstant(1), x); // dead: overwritten below, never read
    b.createStore(b.makeUintConstant(2), y); // read below: kept
    b.createStore(b.createLoad(y), x);       // the load is forwarded, y's memory is not read...
    spv::Id w = b.createOp(spv::OpAccessChain, b.makePointer(spv::StorageClassPrivate, u32), std::vector<spv::Id>{y});
    b.createStore(b.createLoad(w), x);       // ...but here it is, through an access chain
    b.createStore(b.makeUintConstant(3), y);
    Block& next = b.makeNewBlock(); // both read at the end
    b.createBranch(&next);
    b.setBuildPoint(&next);
    spv::Id sum = b.createBinOp(spv::OpIAdd, u32, b.createLoad(x), b.createLoad(y));
    b.createStore(sum, b.createVariable(spv::StorageClassWorkgroup, u32, "sink"));
    std::string text = finish(b);
    CHECK(count(text, "OpStore %x") == 1);
    CHECK(count(text, "OpStore %y") == 2);
}

TEST_CASE("builder: variables nothing reads go with their stores, and types and constants nothing uses")
{
    Builder b(0x00010500);
    b.addCapability(spv::CapabilityShader);
    b.setMemoryModel(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
    dxspv::spirv::Function* f = b.makeEntryPoint("main");
    b.addExecutionMode(f, spv::ExecutionModeLocalSize, 1, 1, 1);
    spv::Id u32 = b.makeUintType(32);
    spv::Id f32 = b.makeFloatType(32);
    spv::Id v3 = b.makeVectorType(f32, 3); // never used
    (void)v3;
    spv::Id unread = b.createVariable(spv::StorageClassPrivate, u32, "unread", b.makeUintConstant(5));
    spv::Id read = b.createVariable(spv::StorageClassPrivate, u32, "read");
    b.createStore(b.makeUintConstant(6), unread);
    b.createStore(b.makeUintConstant(7), read);
    Block& next = b.makeNewBlock();
    b.createBranch(&next);
    b.setBuildPoint(&next);
    b.createStore(b.createLoad(read), b.createVariable(spv::StorageClassFunction, u32, "local_unread"));
    // SPIR-V 1.4+ lists the Private variables in the interface: only `read` stays.
    b.addEntryPoint(spv::ExecutionModelGLCompute, f, "main", {unread, read});
    std::string text = finish(b, dxspv::spirv::TargetEnv::vulkan1_2);
    CHECK(count(text, "unread") == 0);
    CHECK(count(text, "%read") >= 2);
    CHECK(count(text, "OpTypeVector") == 0);
    CHECK(count(text, "OpTypeFloat") == 0);
    CHECK(count(text, "%uint_5") == 0);
    CHECK(count(text, "%uint_6") == 0);
    CHECK(count(text, "OpEntryPoint GLCompute %main \"main\" %read\n") == 1);
}

TEST_CASE("builder: types and constants that only globals which go name go with them")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32);
    spv::Id f32 = b.makeFloatType(32); // named only by globals that go
    spv::Id v4 = b.makeVectorType(f32, 4);
    CHECK(b.makeVectorType(f32, 4) == v4); // the same type, which names f32 once
    spv::Id array = b.makeArrayType(v4, b.makeUintConstant(3), 0);
    const spv::Id zero = b.make_scalar_constant(f32, 0, false), parts[4] = {zero, zero, zero, zero};
    b.make_composite_constant(v4, parts, 4);
    b.makeNullConstant(array);
    b.makeVectorType(u32, 2); // u32 stays: a variable that stays names it
    spv::Id v3 = b.makeVectorType(f32, 3);
    spv::Id unread = b.createVariable(spv::StorageClassPrivate, v3, "unread"); // goes, and its pointer type
    b.createStore(b.makeUintConstant(9), b.createVariable(spv::StorageClassWorkgroup, u32, "y"));
    std::string text = finish(b);
    CHECK(count(text, "unread") == 0);
    CHECK(count(text, "OpTypeFloat") == 0);
    CHECK(count(text, "OpTypeVector") == 0);
    CHECK(count(text, "OpTypeArray") == 0);
    CHECK(count(text, "OpTypePointer Private") == 0);
    CHECK(count(text, "OpConstantNull") == 0);
    CHECK(count(text, "OpConstantComposite") == 0);
    CHECK(count(text, "%uint_3") == 0);
    CHECK(count(text, "%uint = OpTypeInt 32 0") == 1);
    CHECK(count(text, "OpStore %y %uint_9") == 1);
    (void)unread;
}

TEST_CASE("builder: a constant only an OpDecorateId names stays when unused globals go")
{
    Builder b(0x00010400); // UniformId: SPIR-V 1.4
    b.addCapability(spv::CapabilityShader);
    b.setMemoryModel(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
    dxspv::spirv::Function* f = b.makeEntryPoint("main");
    b.addExecutionMode(f, spv::ExecutionModeLocalSize, 1, 1, 1);
    spv::Id u32 = b.makeUintType(32);
    spv::Id y = b.createVariable(spv::StorageClassWorkgroup, u32, "y");
    b.addEntryPoint(spv::ExecutionModelGLCompute, f, "main", {y});
    b.createStore(b.makeUintConstant(9), y);
    b.addDecorationId(y, spv::DecorationUniformId, b.makeUintConstant(spv::ScopeWorkgroup)); // keeps uint 2
    b.makeUintConstant(5); // nothing names it: the unused globals are looked for
    // Not validated: spirv-val 2023.1 crashes on UniformId (in
    // ValidateExecutionScope); the module is otherwise the ones above.
    b.leaveFunction();
    std::vector<uint32_t> words;
    b.dump(words);
    std::string text = dxspv::spirv::disassemble_spirv(words);
    INFO(text);
    CHECK(count(text, "%uint_5") == 0);
    CHECK(count(text, "%uint_2 = OpConstant %uint 2") == 1);
    CHECK(count(text, "OpDecorateId %y UniformId %uint_2") == 1);
}

TEST_CASE("builder: an execution mode's literals keep no id")
{
    Builder b(0x00010300);
    compute_entry(b); // OpExecutionMode %main LocalSize 1 1 1: words 17, 1, 1, 1
    b.makeUintType(32);
    spv::Id c = 0;
    for (uint32_t v = 100; c < spv::ExecutionModeLocalSize; ++v) // unused constants, up to id 17
        c = b.makeUintConstant(v);
    REQUIRE(c == spv::ExecutionModeLocalSize);
    std::string text = finish(b);
    CHECK(count(text, "OpConstant") == 0);
    CHECK(count(text, "OpTypeInt") == 0);
}

TEST_CASE("builder: extracts, inserts and shuffles of vectors it made fold to their parts")
{
    using dxspv::spirv::IdImmediate;
    LoadedVector f;
    Builder& b = f.b;
    const spv::Id u32 = f.u32, v2 = f.v2, v4 = f.v4, var = f.var, loaded = f.loaded;
    spv::Id a = b.createBinOp(spv::OpIAdd, u32, b.makeUintConstant(1), b.makeUintConstant(2));
    spv::Id c = b.createBinOp(spv::OpIAdd, u32, a, a);
    // Inserts: the component that went in comes back out; another one is
    // looked up further down the chain (an extract of the load).
    spv::Id one = b.createCompositeInsert(a, loaded, v4, 1);
    spv::Id two = b.createCompositeInsert(c, one, v4, 2);
    CHECK(b.createCompositeExtract(two, u32, 1) == a);
    CHECK(b.createCompositeExtract(two, u32, 2) == c);
    spv::Id x = b.createCompositeExtract(two, u32, 0);
    // An insert over one at the same index skips it.
    spv::Id again = b.createCompositeInsert(a, two, v4, 2);
    // A shuffle's component is the source's; a shuffle of a shuffle takes
    // the first shuffle's sources; its identity is the source.
    spv::Id swapped = b.createOp(spv::OpVectorShuffle, v4,
        std::vector<IdImmediate>{{true, two}, {true, two}, {false, 3}, {false, 2}, {false, 1}, {false, 0}});
    CHECK(b.createCompositeExtract(swapped, u32, 2) == a);
    spv::Id back = b.createOp(spv::OpVectorShuffle, v4,
        std::vector<IdImmediate>{{true, swapped}, {true, swapped}, {false, 3}, {false, 2}, {false, 1}, {false, 0}});
    CHECK(back == two);
    spv::Id pair = b.createOp(spv::OpVectorShuffle, v2,
        std::vector<IdImmediate>{{true, swapped}, {true, loaded}, {false, 1}, {false, 7}});
    // A construct of scalars gives its parts.
    spv::Id made = b.createCompositeConstruct(v2, {c, a});
    CHECK(b.createCompositeExtract(made, u32, 1) == a);
    // A constant vector's component is its constant.
    const spv::Id parts[2] = {b.makeUintConstant(7), b.makeUintConstant(9)};
    CHECK(b.createCompositeExtract(b.make_composite_constant(v2, parts, 2), u32, 1) == parts[1]);
    spv::Id sum = b.createBinOp(spv::OpIAdd, u32, x, b.createCompositeExtract(pair, u32, 0));
    b.createStore(b.createCompositeInsert(sum, again, v4, 3), var);
    b.makeReturn();
    std::string text = finish(b);
    CHECK(count(text, "OpCompositeExtract") == 1); // x, from the load
    CHECK(text.find("OpCompositeExtract %uint %" + std::to_string(loaded) + " 0") != std::string::npos);
    CHECK(count(text, "OpVectorShuffle") == 0);    // pair is unused once its extract folds
    // The inserts stored: a at 1, a at 2 (over c), sum at 3.
    CHECK(count(text, "OpCompositeInsert") == 3);
}

TEST_CASE("builder: a shuffle of components an insert leaves shuffles the insert's composite")
{
    using dxspv::spirv::IdImmediate;
    LoadedVector f;
    Builder& b = f.b;
    const spv::Id u32 = f.u32, v2 = f.v2, v4 = f.v4, var = f.var, loaded = f.loaded;
    spv::Id inserted = b.createCompositeInsert(b.makeUintConstant(5), loaded, v4, 1);
    spv::Id pair = b.createOp(spv::OpVectorShuffle, v2,
        std::vector<IdImmediate>{{true, inserted}, {true, inserted}, {false, 3}, {false, 0}});
    spv::Id sum = b.createBinOp(spv::OpIAdd, v2, pair, pair);
    spv::Id x = b.createCompositeExtract(sum, u32, 0), y = b.createCompositeExtract(sum, u32, 1);
    b.createStore(b.createCompositeConstruct(v4, {x, y, x, y}), var);
    b.makeReturn();
    std::string text = finish(b);
    const std::string l = id_name(loaded);
    CHECK(text.find(std::string("OpVectorShuffle %v2uint ") + l + " " + l + " 3 0") != std::string::npos);
    CHECK(count(text, "OpCompositeInsert") == 0); // nothing uses it any more
}

TEST_CASE("builder: at the start of the entry point, Private variables hold their initializers")
{
    Builder b(0x00010300);
    compute_entry(b);
    b.assume_initial_values();
    spv::Id u32 = b.makeUintType(32), v4 = b.makeVectorType(u32, 4);
    spv::Id zero = b.makeNullConstant(v4);
    spv::Id out = b.createVariable(spv::StorageClassPrivate, v4, "o", zero);
    spv::Id other = b.createVariable(spv::StorageClassPrivate, v4, "p", zero);
    spv::Id plain = b.createVariable(spv::StorageClassPrivate, v4, "q");
    CHECK(b.createLoad(out) == zero);
    spv::Id undefined = b.createLoad(plain); // no initializer: undefined
    CHECK(undefined == b.createUndefined(v4));
    spv::Id local = b.createVariable(spv::StorageClassFunction, v4, "f");
    CHECK(b.createLoad(local) == undefined);
    b.createStore(zero, local);
    CHECK(b.createLoad(local) == zero); // the value stored
    // A store through an access chain: the variable's value is no longer known.
    spv::Id chain = b.createBinOp(spv::OpAccessChain, b.makePointer(spv::StorageClassPrivate, u32), other,
        b.makeUintConstant(1));
    b.createStore(b.makeUintConstant(7), chain);
    spv::Id loaded = b.createLoad(other);
    CHECK(loaded != zero);
    b.createStore(b.createCompositeInsert(b.makeUintConstant(5), loaded, v4, 0), plain);
    // After the build point moved, loads are loads.
    Block& next = b.makeNewBlock();
    b.createBranch(&next);
    b.setBuildPoint(&next);
    CHECK(b.createLoad(out) != zero);
    b.makeReturn();
    finish(b);
}

TEST_CASE("builder: an instruction without side effects identical to one earlier in its block is reused")
{
    Builder b(0x00010300);
    compute_entry(b);
    spv::Id u32 = b.makeUintType(32), f32 = b.makeFloatType(32), v4 = b.makeVectorType(u32, 4);
    spv::Id var = b.createVariable(spv::StorageClassPrivate, v4, "v", b.makeNullConstant(v4));
    spv::Id loaded = b.createLoad(var);
    spv::Id x = b.createCompositeExtract(loaded, u32, 0);
    CHECK(b.createCompositeExtract(loaded, u32, 0) == x);
    CHECK(b.createCompositeExtract(loaded, u32, 1) != x);
    spv::Id sum = b.createBinOp(spv::OpIAdd, u32, x, x);
    CHECK(b.createBinOp(spv::OpIAdd, u32, x, x) == sum);
    CHECK(b.createBinOp(spv::OpISub, u32, x, x) != sum);
    spv::Id cast = b.createUnaryOp(spv::OpBitcast, f32, sum);
    CHECK(b.createUnaryOp(spv::OpBitcast, f32, sum) == cast);
    spv::Id product = b.createBinOp(spv::OpFMul, f32, cast, cast);
    b.addDecoration(product, spv::DecorationNoContraction);
    spv::Id again = b.createBinOp(spv::OpFMul, f32, cast, cast);
    CHECK(again == product);
    b.addDecoration(again, spv::DecorationNoContraction); // made once
    // In another block: a new instruction.
    Block& next = b.makeNewBlock();
    b.createBranch(&next);
    b.setBuildPoint(&next);
    spv::Id later = b.createBinOp(spv::OpIAdd, u32, x, x);
    CHECK(later != sum);
    spv::Id both = b.createCompositeInsert(b.createUnaryOp(spv::OpBitcast, u32, again), loaded, v4, 1);
    b.createStore(b.createCompositeInsert(later, both, v4, 2), var);
    b.makeReturn();
    std::string text = finish(b);
    CHECK(count(text, "OpDecorate") == 1);
    CHECK(count(text, "OpFMul") == 1);
    CHECK(count(text, "OpIAdd") == 2);
}
