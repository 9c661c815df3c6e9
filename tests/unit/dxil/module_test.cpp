// The module reader and .ll writer on hand-built LLVM 3.7 modules, and
// malformed modules each giving its numbered diagnostic.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "bit_writer.h"
#include "dxil/dxil.h"
#include "dxil/ll/writer.h"

using dxspv::Code;
using dxspv::Diagnostics;
using dxspv_test::BitWriter;
using dxspv_test::chars;

namespace {

enum : uint32_t { module_block = 8, constants_block = 11, function_block = 12, vst_block = 14, metadata_block = 15,
                  type_block = 17, paramattr_block = 9, paramattr_group_block = 10 };

/// The tests' usual types: 0 i32, 1 void, 2 void(), 3 i32(i32), 4 float,
/// 5 i1, 6 a pointer to type `pointee`, 7 metadata.
void write_base_types(BitWriter& w, uint64_t pointee = 0)
{
    w.record(7, {32});        // 0 i32
    w.record(2, {});          // 1 void
    w.record(21, {0, 1});     // 2 void ()
    w.record(21, {0, 0, 0});  // 3 i32 (i32)
    w.record(3, {});          // 4 float
    w.record(7, {1});         // 5 i1
    w.record(8, {pointee, 0}); // 6
    w.record(16, {});         // 7 metadata
}

struct Parts {
    /// Type table: write_base_types, type 6 an i32*.
    std::function<void(BitWriter&)> types = [](BitWriter& w) {
        w.record(1, {8});
        write_base_types(w);
    };
    /// Module records after the type table (functions, globals).
    std::function<void(BitWriter&)> module_records = [](BitWriter& w) {
        w.record(8, {3, 0, 0, 0, 0, 0, 0, 0}); // define i32 @f(i32): value 0
    };
    /// Module constants (value ids follow the functions and globals).
    std::function<void(BitWriter&)> constants = [](BitWriter& w) {
        w.record(1, {0});   // SETTYPE i32
        w.record(4, {10});  // i32 5: value 1
    };
    /// Function body records.
    std::function<void(BitWriter&)> body = [](BitWriter& w) {
        w.record(1, {1});        // DECLAREBLOCKS 1
        w.record(2, {1, 2, 0});  // %2 = add i32 %0, 5 (relative ids: 3-2, 3-1)
        w.record(10, {1});       // ret i32 %2
    };
    std::function<void(BitWriter&)> extra = [](BitWriter&) {};
    bool with_names = true;
};

/// Parts::types with type 6 a pointer to type 8, written by `define_8`
/// after the others (a reference forward).
std::function<void(BitWriter&)> pointer_to_type_8(std::function<void(BitWriter&)> define_8)
{
    return [define_8](BitWriter& w) {
        w.record(1, {9});
        write_base_types(w, 8); // 6: a pointer to type 8, before it
        define_8(w);
    };
}

std::vector<uint8_t> build(const Parts& p)
{
    BitWriter w;
    w.magic();
    w.enter(module_block, 3);
    w.record(1, {1}); // VERSION 1: relative ids
    w.enter(type_block, 4);
    p.types(w);
    w.end();
    p.module_records(w);
    w.enter(constants_block, 4);
    p.constants(w);
    w.end();
    p.extra(w);
    if (p.with_names) {
        w.enter(vst_block, 4);
        auto name = chars("f");
        name.insert(name.begin(), 0);
        w.record(1, name);
        w.end();
    }
    w.enter(function_block, 4);
    p.body(w);
    w.end();
    w.end();
    return w.bytes;
}

bool read(const std::vector<uint8_t>& bytes, dxspv::dxil::Module& m, Diagnostics& diags)
{
    return dxspv::dxil::read_module(bytes, 0, m, diags);
}

Code first_error(const Parts& p)
{
    Diagnostics diags;
    dxspv::dxil::Module m;
    CHECK_FALSE(read(build(p), m, diags));
    REQUIRE(diags.has_errors());
    return diags.messages()[0].code;
}

} // namespace

TEST_CASE("module: a small function reads and prints as LLVM 3.7 text")
{
    Diagnostics diags;
    dxspv::dxil::Module m;
    REQUIRE_MESSAGE(read(build(Parts{}), m, diags), diags.to_string());
    REQUIRE(m.functions.size() == 1);
    CHECK(m.functions[0].name == "f");
    CHECK(m.functions[0].instructions.size() == 2);
    std::string text = dxspv::dxil::print_module(m);
    CHECK(text.find("define i32 @f(i32) {\n  %2 = add i32 %0, 5\n  ret i32 %2\n}\n") != std::string::npos);
    CHECK(dxspv::dxil::print_type(m, 6) == "i32*");
    CHECK(dxspv::dxil::print_type(m, 3) == "i32 (i32)");
}

TEST_CASE("module: branches, phi with signed relative ids, forward references, block names")
{
    Parts p;
    p.body = [](BitWriter& w) {
        w.record(1, {3});                // 3 blocks
        w.record(9, {1, 2, 32});         // %2 = icmp eq i32 %0, 5 -> value 3
        w.record(11, {1, 2, 1});         // br i1 %2, label %b1, label %b2
        w.record(11, {2});               // b1: br label %b2
        // b2: phi i32 [ %0, %0 ], [ %later?? ] -- use values: arg (2) from block 0, const (1) from block 1
        // value ids: next = 4; arg 2 -> delta 2 -> encoded 4; const 1 -> delta 3 -> 6
        w.record(16, {0, 4, 0, 6, 1});   // %5 = phi i32 [ %0, %entry ], [ 5, %b1 ] -> value 4
        w.record(10, {1});               // ret i32 %5
    };
    p.extra = [](BitWriter&) {};
    Diagnostics diags;
    dxspv::dxil::Module m;
    REQUIRE_MESSAGE(read(build(p), m, diags), diags.to_string());
    std::string text = dxspv::dxil::print_module(m);
    CHECK(text.find("%2 = icmp eq i32 %0, 5") != std::string::npos);
    CHECK(text.find("br i1 %2, label %3, label %4") != std::string::npos);
    CHECK(text.find("; <label>:3                                       ; preds = %1") != std::string::npos);
    CHECK(text.find("%5 = phi i32 [ %0, %1 ], [ 5, %3 ]") != std::string::npos);
    CHECK(text.find("ret i32 %5") != std::string::npos);
}

TEST_CASE("module: globals, constant expressions, metadata and attributes print like DXC")
{
    Parts p;
    p.types = [](BitWriter& w) {
        w.record(7, {32});              // 0 i32
        w.record(2, {});                // 1 void
        w.record(21, {0, 1});           // 2 void ()
        w.record(11, {4, 3});           // 3 [4 x float]
        w.record(3, {});                // 4 float (forward reference from 3 is not a struct: rejected later?)
    };
    // Type 3 refers forward to a non-struct: the reader must reject that.
    CHECK(first_error(p) == Code::dxil_bad_type_id);

    p.types = [](BitWriter& w) {
        w.record(7, {32});              // 0 i32
        w.record(2, {});                // 1 void
        w.record(21, {0, 1});           // 2 void ()
        w.record(3, {});                // 3 float
        w.record(11, {4, 3});           // 4 [4 x float]
        w.record(8, {4, 3});            // 5 [4 x float] addrspace(3)*
        w.record(8, {3, 3});            // 6 float addrspace(3)*
        w.record(16, {});               // 7 metadata
        w.record(19, chars("dx.types.Handle")); // name for the next struct
        w.record(7, {8});               // 8 i8
        w.record(8, {8, 0});            // 9 i8*
        w.record(20, {0, 9});           // 10 %dx.types.Handle = type { i8* }
    };
    p.module_records = [](BitWriter& w) {
        w.record(8, {2, 0, 0, 0, 1, 0, 0, 0});         // define void @main() #0: value 0
        // @g = addrspace(3) global [4 x float] undef, align 4: explicit type, addrspace 3
        w.record(7, {4, 1 << 1 | 3 << 2, 3, 0, 3, 0}); // value 1, initializer value 2 (undef)
    };
    p.extra = [](BitWriter& w) {
        w.enter(metadata_block, 4);
        w.record(1, chars("cs"));                 // !0 string
        w.record(2, {0, 3});                      // !1 value i32 7 (value 3)
        w.record(3, {1, 2});                      // !2 = !{!"cs", i32 7}
        w.record(4, chars("dx.shaderModel"));
        w.record(10, {2});
        w.end();
    };
    p.constants = [](BitWriter& w) {
        w.record(1, {4});              // SETTYPE [4 x float]
        w.record(3, {});               // value 2: undef
        w.record(1, {0});
        w.record(4, {14});             // value 3: i32 7
        w.record(4, {0});              // value 4: i32 0
        w.record(1, {6});              // SETTYPE float addrspace(3)*
        w.record(20, {4, 5, 1, 0, 4, 0, 4}); // value 5: getelementptr inbounds ([4 x float], ... @g, i32 0, i32 0)
        w.record(1, {3});
        w.record(6, {0x3F800000});     // value 6: float 1.0
        w.record(6, {0x3DCCCCCD});     // value 7: float 0.1 (not exact in %e)
    };
    p.body = [](BitWriter& w) {
        w.record(1, {1});
        // store float 1.0, float addrspace(3)* gep, align 4: [ptr(rel), val(rel), align, vol]
        w.record(44, {8 - 5, 8 - 6, 3, 0});
        w.record(10, {});
    };
    p.with_names = false;
    // The attribute group and list come before the functions.
    auto module_records = p.module_records;
    p.module_records = [module_records](BitWriter& w) {
        w.enter(paramattr_group_block, 4);
        std::vector<uint64_t> grp{1, 0xFFFFFFFFu, 0, 18, 0, 20};
        w.record(3, grp);
        w.end();
        w.enter(paramattr_block, 4);
        w.record(2, {1});
        w.end();
        module_records(w);
    };
    Diagnostics diags;
    dxspv::dxil::Module m;
    REQUIRE_MESSAGE(read(build(p), m, diags), diags.to_string());
    std::string text = dxspv::dxil::print_module(m);
    INFO(text);
    CHECK(text.find("%dx.types.Handle = type { i8* }\n") != std::string::npos);
    CHECK(text.find("@1 = addrspace(3) global [4 x float] undef, align 4\n") != std::string::npos);
    CHECK(text.find("store float 1.000000e+00, float addrspace(3)* getelementptr inbounds ([4 x float], [4 x float] "
                    "addrspace(3)* @1, i32 0, i32 0), align 4") != std::string::npos);
    CHECK(text.find("; Function Attrs: nounwind readnone\ndefine void @0() #0 {") != std::string::npos);
    CHECK(text.find("attributes #0 = { nounwind readnone }") != std::string::npos);
    CHECK(text.find("!dx.shaderModel = !{!0}\n\n!0 = !{!\"cs\", i32 7}\n") != std::string::npos);

    // Read for lowering: the struct is named, its name not read.
    dxspv::dxil::Module lowering;
    REQUIRE_MESSAGE(dxspv::dxil::read_module(build(p), 0, lowering, diags, dxspv::dxil::ReadDepth::lowering),
                    diags.to_string());
    REQUIRE(lowering.types.size() == m.types.size());
    CHECK(m.types[10].name == "dx.types.Handle");
    CHECK(lowering.types[10].identified);
    CHECK(lowering.types[10].name.empty());
    CHECK(lowering.types[10].members.size() == 1);
}

TEST_CASE("module: float constants print as %e when exact, else as the double's hex bits")
{
    Parts p;
    p.constants = [](BitWriter& w) {
        w.record(1, {0});
        w.record(4, {10});         // value 1: i32 5
        w.record(1, {4});
        w.record(6, {0x3DCCCCCD}); // value 2: 0.1f
        w.record(6, {0x40490000}); // value 3: 3.140625f
        w.record(1, {0});
        w.record(4, {3});          // value 4: i32 -1
    };
    p.extra = [](BitWriter& w) {
        w.enter(metadata_block, 4);
        w.record(2, {4, 2});
        w.record(2, {4, 3});
        w.record(2, {0, 4});
        w.record(3, {1, 2, 3, 0});
        w.record(4, chars("floats"));
        w.record(10, {3});
        w.end();
    };
    Diagnostics diags;
    dxspv::dxil::Module m;
    REQUIRE_MESSAGE(read(build(p), m, diags), diags.to_string());
    std::string text = dxspv::dxil::print_module(m);
    INFO(text);
    CHECK(text.find("!0 = !{float 0x3FB99999A0000000, float 3.140625e+00, i32 -1, null}") != std::string::npos);
}

TEST_CASE("module: memory, vector, aggregate, atomic and switch instructions")
{
    Parts p;
    p.types = [](BitWriter& w) {
        write_base_types(w);     // 0-7, 6 i32*
        w.record(12, {4, 4});    // 8 <4 x float>
        w.record(11, {4, 0});    // 9 [4 x i32]
        w.record(8, {9, 0});     // 10 [4 x i32]*
    };
    p.module_records = [](BitWriter& w) {
        w.record(8, {3, 0, 0, 0, 0, 0, 0, 0});  // value 0: define i32 @f(i32)
        w.record(7, {9, 2 | 3 << 2, 0, 0, 3, 0}); // value 1: @g = external addrspace(3) global [4 x i32], align 4
    };
    p.constants = [](BitWriter& w) {
        w.record(1, {0});
        w.record(4, {10}); // value 2: i32 5
        w.record(4, {0});  // value 3: i32 0
        w.record(4, {2});  // value 4: i32 1
        w.record(1, {4});
        w.record(6, {0x40000000}); // value 5: float 2.0
        w.record(1, {8});
        w.record(3, {});   // value 6: <4 x float> undef
    };
    p.with_names = false;
    p.extra = [](BitWriter& w) {
        w.enter(vst_block, 4);
        w.record(1, {0, 'f'});
        w.record(1, {1, 'g'});
        w.end();
    };
    p.body = [](BitWriter& w) {
        w.record(1, {3});
        w.record(19, {9, 0, 4, 3 | 1 << 6});        // v8: alloca [4 x i32], align 4
        w.record(43, {1, 9, 1, 6, 2});              // v9: gep inbounds %2, i32 0, i32 %0
        w.record(44, {1, 8, 3, 0});                 // store i32 5, i32* %3, align 4
        w.record(20, {1, 0, 3, 0});                 // v10: load i32, i32* %3, align 4
        w.record(3, {1, 4, 6});                     // v11: sitofp i32 %4 to float
        w.record(7, {6, 1, 9});                     // v12: insertelement <4 x float> undef, float %5, i32 0
        w.record(6, {1, 9});                        // v13: extractelement <4 x float> %6, i32 1
        w.record(43, {1, 9, 13, 11, 11});           // v14: gep inbounds @g, i32 0, i32 0
        w.record(38, {1, 13, 1, 0, 6, 1});          // v15: atomicrmw add ... seq_cst
        w.record(46, {2, 1, 14, 0, 6, 1, 6, 0});    // v16: cmpxchg ... seq_cst seq_cst
        w.record(26, {1, 0});                       // v17: extractvalue { i32, i1 } %10, 0
        w.record(28, {1, 11, 40});                  // v18: icmp slt i32 %11, %0
        w.record(29, {2, 15, 1});                   // v19: select i1 %12, i32 %11, i32 1
        w.record(12, {0, 1, 1, 3, 2});              // switch i32 %13, label %14 [ i32 0, label %15 ]
        w.record(10, {1});                          // ret i32 %13
        w.record(15, {});                           // unreachable
    };
    Diagnostics diags;
    dxspv::dxil::Module m;
    REQUIRE_MESSAGE(read(build(p), m, diags), diags.to_string());
    std::string text = dxspv::dxil::print_module(m);
    INFO(text);
    const char* expected = R"(
@g = external addrspace(3) global [4 x i32], align 4

define i32 @f(i32) {
  %2 = alloca [4 x i32], align 4
  %3 = getelementptr inbounds [4 x i32], [4 x i32]* %2, i32 0, i32 %0
  store i32 5, i32* %3, align 4
  %4 = load i32, i32* %3, align 4
  %5 = sitofp i32 %4 to float
  %6 = insertelement <4 x float> undef, float %5, i32 0
  %7 = extractelement <4 x float> %6, i32 1
  %8 = getelementptr inbounds [4 x i32], [4 x i32] addrspace(3)* @g, i32 0, i32 0
  %9 = atomicrmw add i32 addrspace(3)* %8, i32 5 seq_cst
  %10 = cmpxchg i32 addrspace(3)* %8, i32 %9, i32 5 seq_cst seq_cst
  %11 = extractvalue { i32, i1 } %10, 0
  %12 = icmp slt i32 %11, %0
  %13 = select i1 %12, i32 %11, i32 1
  switch i32 %13, label %14 [
    i32 0, label %15
  ]

; <label>:14                                      ; preds = %1
  ret i32 %13

; <label>:15                                      ; preds = %1
  unreachable
}
)";
    CHECK(text.find(expected) != std::string::npos);
}

TEST_CASE("module: METADATA_STRINGS blob, metadata kinds and instruction attachments")
{
    Parts p;
    p.extra = [](BitWriter& w) {
        w.enter(metadata_block, 4);
        w.define_abbrev({{0, 35}, {2, 6}, {2, 6}, {5, 0}}); // METADATA_STRINGS [count, offset] blob
        w.emit(4, 4);
        w.vbr(2, 6);
        w.vbr(4, 6);
        w.vbr(9, 6);
        w.align32();
        BitWriter lengths; // two VBR6 lengths in one 32-bit word
        lengths.vbr(2, 6);
        lengths.vbr(3, 6);
        lengths.align32();
        for (uint8_t b : lengths.bytes)
            w.emit(b, 8);
        for (char c : std::string("hiabc"))
            w.emit(uint8_t(c), 8);
        w.align32();
        w.record(3, {1, 2});                // !2 = !{!"hi", !"abc"}
        auto kind = chars("dx.precise");
        kind.insert(kind.begin(), 5);
        w.record(6, kind);                  // kind 5 = dx.precise
        w.end();
    };
    p.body = [](BitWriter& w) {
        w.record(1, {1});
        w.record(2, {1, 2, 0});
        w.record(10, {1});
        w.enter(16, 4);                     // METADATA_ATTACHMENT
        w.record(11, {0, 5, 2});            // instruction 0: !dx.precise !2
        w.end();
    };
    Diagnostics diags;
    dxspv::dxil::Module m;
    REQUIRE_MESSAGE(read(build(p), m, diags), diags.to_string());
    REQUIRE(m.metadata.size() == 3);
    CHECK(m.metadata[0].string == "hi");
    CHECK(m.metadata[1].string == "abc");
    std::string text = dxspv::dxil::print_module(m);
    INFO(text);
    CHECK(text.find("%2 = add i32 %0, 5, !dx.precise !0\n") != std::string::npos);
    CHECK(text.find("!0 = !{!\"hi\", !\"abc\"}\n") != std::string::npos);

    // Read for lowering, the attachment block is skipped undecoded: none,
    // even of an unknown kind.
    for (uint64_t kind : {5, 9}) {
        p.body = [kind](BitWriter& w) {
            w.record(1, {1});
            w.record(2, {1, 2, 0});
            w.record(10, {1});
            w.enter(16, 4);
            w.record(11, {0, kind, 2});
            w.end();
        };
        dxspv::dxil::Module lowering;
        REQUIRE_MESSAGE(dxspv::dxil::read_module(build(p), 0, lowering, diags, dxspv::dxil::ReadDepth::lowering),
                        diags.to_string());
        CHECK(lowering.functions[0].attachments.empty());
        CHECK(dxspv::dxil::print_module(lowering).find("%2 = add i32 %0, 5\n") != std::string::npos);
    }
    dxspv::dxil::Module whole;
    CHECK_FALSE(read(build(p), whole, diags)); // kind 9 is unknown
}

namespace {

/// A module whose METADATA blocks hold only the kinds given (id, name),
/// one block per list.
std::vector<uint8_t> module_with_kinds(std::vector<std::vector<std::pair<uint64_t, std::string>>> blocks)
{
    Parts p;
    p.extra = [blocks](BitWriter& w) {
        for (const auto& kinds : blocks) {
            w.enter(metadata_block, 4);
            for (const auto& [id, name] : kinds) {
                auto record = chars(name.c_str());
                record.insert(record.begin(), id);
                w.record(6, record); // METADATA_KIND
            }
            w.end();
        }
    };
    return build(p);
}

std::vector<std::string> kinds_of(const std::vector<uint8_t>& bytes)
{
    Diagnostics diags;
    dxspv::dxil::Module m;
    REQUIRE_MESSAGE(read(bytes, m, diags), diags.to_string());
    CHECK(m.functions.size() == 1); // the blocks after the kinds were read
    return {m.metadata_kinds.begin(), m.metadata_kinds.end()};
}

} // namespace

TEST_CASE("module: a block of kinds like the last one read names the same kinds; another is decoded")
{
    // The thread keeps the last block of kinds only (KindBlockCache in
    // metadata_reader.cpp); every reading must name what decoding names.
    const std::vector<std::string> dx = {"dbg", "tbaa", "", "dx.precise"};
    const std::vector<std::string> other = {"dbg", "range"};
    const auto a = module_with_kinds({{{0, "dbg"}, {1, "tbaa"}, {3, "dx.precise"}}});
    const auto b = module_with_kinds({{{0, "dbg"}, {1, "range"}}});
    CHECK(kinds_of(a) == dx);
    CHECK(kinds_of(a) == dx);
    CHECK(kinds_of(b) == other);
    CHECK(kinds_of(a) == dx);
    // A second block of kinds renames kind 1 after the first (cached) one.
    const auto two = module_with_kinds({{{0, "dbg"}, {1, "tbaa"}, {3, "dx.precise"}}, {{1, "x"}}});
    CHECK(kinds_of(two) == std::vector<std::string>{"dbg", "x", "", "dx.precise"});
    CHECK(kinds_of(two) == std::vector<std::string>{"dbg", "x", "", "dx.precise"});
}

TEST_CASE("module: read for lowering, the parameter attribute blocks are skipped undecoded")
{
    // A call to a declared function, both with attribute list 1, after an
    // attribute group block that `group` writes.
    auto with_attributes = [](std::vector<uint64_t> group) {
        Parts p;
        p.module_records = [group](BitWriter& w) {
            w.enter(paramattr_group_block, 4);
            w.record(3, group);
            w.end();
            w.enter(paramattr_block, 4);
            w.record(2, {1});
            w.end();
            w.record(8, {3, 0, 0, 0, 1, 0, 0, 0}); // define i32 @f(i32) #0: value 0
            w.record(8, {3, 0, 1, 0, 1, 0, 0, 0}); // declare i32 @g(i32) #0: value 1
        };
        p.constants = [](BitWriter& w) {
            w.record(1, {0});  // SETTYPE i32
            w.record(4, {10}); // i32 5: value 2
        };
        p.body = [](BitWriter& w) {
            w.record(1, {1});
            w.record(34, {1, 0, 4 - 1, 4 - 2}); // %2 = call i32 @g(i32 5) #0: [attrs, cc, callee, arg]
            w.record(10, {1});                 // ret i32 %2
        };
        return build(p);
    };
    const std::vector<uint8_t> good = with_attributes({1, 0xFFFFFFFFu, 0, 18, 0, 20}); // nounwind readnone
    const std::vector<uint8_t> bad = with_attributes({1, 0xFFFFFFFFu, 7});              // an unknown encoding

    Diagnostics diags;
    dxspv::dxil::Module whole, lowering;
    REQUIRE_MESSAGE(read(good, whole, diags), diags.to_string());
    REQUIRE_MESSAGE(dxspv::dxil::read_module(good, 0, lowering, diags, dxspv::dxil::ReadDepth::lowering),
                    diags.to_string());
    CHECK(whole.attribute_lists.size() == 1);
    CHECK(whole.functions[1].attributes == 1);
    CHECK(whole.functions[0].instructions[0].extra == 1);
    CHECK(lowering.attribute_groups.empty());
    CHECK(lowering.attribute_lists.empty());
    CHECK(lowering.functions[1].attributes == 0);
    CHECK(lowering.functions[0].instructions[0].extra == 0);
    // Everything else is the same: the text but for the attributes.
    std::string text = dxspv::dxil::print_module(lowering);
    INFO(text);
    CHECK(text.find("%2 = call i32 @0(i32 5)\n") != std::string::npos);
    CHECK(text.find("attributes #") == std::string::npos);
    CHECK(dxspv::dxil::print_module(whole).find("%2 = call i32 @0(i32 5) #0\n") != std::string::npos);

    dxspv::dxil::Module m;
    Diagnostics bad_diags;
    CHECK_FALSE(read(bad, m, bad_diags));
    CHECK(bad_diags.messages()[0].code == Code::dxil_bad_attribute);
    dxspv::dxil::Module skipped;
    CHECK_MESSAGE(dxspv::dxil::read_module(bad, 0, skipped, diags, dxspv::dxil::ReadDepth::lowering),
                  diags.to_string());
}

TEST_CASE("module: metadata nodes and named structs may be referred to before they are read")
{
    Parts p;
    p.types = pointer_to_type_8([](BitWriter& w) {
        w.record(19, chars("s"));
        w.record(20, {0, 0}); // 8 %s = type { i32 }: 6 is %s*
    });
    p.extra = [](BitWriter& w) {
        w.enter(metadata_block, 4);
        w.record(3, {2, 0}); // !0 = !{!1, null}
        w.record(2, {0, 1}); // !1 = i32 5
        w.end();
    };
    for (auto depth : {dxspv::dxil::ReadDepth::whole, dxspv::dxil::ReadDepth::lowering}) {
        Diagnostics diags;
        dxspv::dxil::Module m;
        REQUIRE_MESSAGE(dxspv::dxil::read_module(build(p), 0, m, diags, depth), diags.to_string());
        REQUIRE(m.types.size() >= 9);
        CHECK(m.types[6].element == 8);
        REQUIRE(m.metadata.size() == 2);
        CHECK(m.metadata[0].operands[0] == 2);
    }
}

TEST_CASE("module: malformed modules give numbered diagnostics, never a crash")
{
    SUBCASE("record too short")
    {
        Parts p;
        p.module_records = [](BitWriter& w) { w.record(8, {3, 0, 0}); };
        CHECK(first_error(p) == Code::dxil_record_too_short);
    }
    SUBCASE("type id out of range")
    {
        Parts p;
        p.types = [](BitWriter& w) {
            w.record(7, {32});
            w.record(8, {99, 0});
        };
        CHECK(first_error(p) == Code::dxil_bad_type_id);
    }
    SUBCASE("type referring to itself")
    {
        Parts p;
        p.types = [](BitWriter& w) { w.record(8, {0, 0}); };
        CHECK(first_error(p) == Code::dxil_bad_type_id);
    }
    SUBCASE("a pointer to a later type that is not a named struct")
    {
        Parts p;
        p.types = pointer_to_type_8([](BitWriter& w) { w.record(7, {16}); }); // 8 i16: 6 is i16*
        CHECK(first_error(p) == Code::dxil_bad_type_id);
    }
    SUBCASE("types nested too deeply")
    {
        Parts p;
        p.types = [](BitWriter& w) {
            w.record(7, {32});
            for (uint64_t i = 0; i < 100; ++i)
                w.record(8, {i, 0});
        };
        CHECK(first_error(p) == Code::dxil_too_deep);
    }
    SUBCASE("forward reference never defined")
    {
        Parts p;
        p.body = [](BitWriter& w) {
            w.record(1, {1});
            w.record(2, {1, (uint64_t(1) << 32) - 10, 0}); // rhs: value 13, far ahead
            w.record(10, {1});
        };
        CHECK(first_error(p) == Code::dxil_bad_value_id);
    }
    SUBCASE("type mismatch")
    {
        Parts p;
        p.module_records = [](BitWriter& w) { w.record(8, {2, 0, 0, 0, 0, 0, 0, 0}); }; // void ()
        p.body = [](BitWriter& w) {
            w.record(1, {1});
            w.record(10, {1}); // ret i32 5 in a void function
        };
        CHECK(first_error(p) == Code::dxil_type_mismatch);
    }
    SUBCASE("block without terminator")
    {
        Parts p;
        p.body = [](BitWriter& w) {
            w.record(1, {2});
            w.record(10, {2});
        };
        CHECK(first_error(p) == Code::dxil_unterminated_block);
    }
    SUBCASE("branch to a block out of range")
    {
        Parts p;
        p.body = [](BitWriter& w) {
            w.record(1, {1});
            w.record(11, {7});
        };
        CHECK(first_error(p) == Code::dxil_bad_block_id);
    }
    SUBCASE("constant cycle")
    {
        Parts p;
        p.types = [](BitWriter& w) {
            w.record(7, {32});
            w.record(2, {});
            w.record(21, {0, 1});
            w.record(21, {0, 0, 0});
            w.record(18, {0, 0}); // 4: { i32 }... aggregate of aggregates needs nesting:
            w.record(18, {0, 4}); // 5: { {i32} }
        };
        p.constants = [](BitWriter& w) {
            w.record(1, {0});
            w.record(4, {10});   // value 1
            w.record(1, {5});
            w.record(7, {2});    // value 2 = { value 2 } : refers to itself
        };
        p.body = [](BitWriter& w) {
            w.record(1, {1});
            w.record(2, {1, 3, 0}); // add i32 %0, 5 (one more module value than usual)
            w.record(10, {1});
        };
        CHECK(first_error(p) == Code::dxil_bad_constant);
    }
    SUBCASE("function body without a declaration")
    {
        Parts p;
        p.module_records = [](BitWriter& w) { w.record(8, {3, 0, 1, 0, 0, 0, 0, 0}); }; // declaration only
        CHECK(first_error(p) == Code::dxil_bad_function_body);
    }
    SUBCASE("unknown instruction")
    {
        Parts p;
        p.body = [](BitWriter& w) {
            w.record(1, {1});
            w.record(13, {0}); // INVOKE
        };
        CHECK(first_error(p) == Code::dxil_unknown_record);
    }
    // A module-level METADATA block of `records` (code, operands).
    auto metadata_error = [](std::vector<std::pair<uint32_t, std::vector<uint64_t>>> records) {
        Parts p;
        p.extra = [records](BitWriter& w) {
            w.enter(metadata_block, 4);
            for (const auto& [code, ops] : records)
                w.record(code, ops);
            w.end();
        };
        return first_error(p);
    };
    SUBCASE("module metadata naming a value of another type")
    {
        CHECK(metadata_error({{2, {4, 1}}}) == Code::dxil_type_mismatch); // float, but value 1 is i32 5
    }
    SUBCASE("module metadata naming a value out of range")
    {
        CHECK(metadata_error({{2, {0, 40}}}) == Code::dxil_bad_value_id);
    }
    SUBCASE("metadata node one past the last")
    {
        // !0 = !{!1} is valid; !1 = !{!2}: there is no !2.
        CHECK(metadata_error({{3, {2}}, {3, {3}}}) == Code::dxil_bad_metadata_id);
    }
    SUBCASE("metadata node out of range")
    {
        CHECK(metadata_error({{3, {50}}}) == Code::dxil_bad_metadata_id);
    }
}
