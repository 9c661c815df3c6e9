// The dxil-ll reader: a module using every instruction kind reads and prints
// back identically; the module it builds numbers values, places constants
// and groups attributes as the bitcode reader does; each kind of bad input
// fails with its diagnostic code and a line:column location.
#include <doctest/doctest.h>

#include <string>

#include "dxil/dxil.h"
#include "dxil/ll/writer.h"

using dxspv::Code;
using namespace dxspv::dxil;

namespace {

// Printed by print_module: the reader must give the same text back.
const char* const canonical = R"LL(target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%struct.S = type { float, [2 x i32], <4 x half> }
%opaque.T = type opaque
%0 = type <{ i8, i16 }>

@cb = external addrspace(2) constant [4 x float], align 4
@tgsm = internal addrspace(3) global [16 x i32] undef, align 4
@data = internal constant [3 x i32] [i32 1, i32 -2, i32 3], align 4
@str = private unnamed_addr constant [4 x i8] c"ab\0A\00", section "s1"
@zero = internal global %struct.S zeroinitializer
@ptr = internal global i32* getelementptr inbounds ([3 x i32], [3 x i32]* @data, i32 0, i32 1)
@agg = internal global { i32, float } { i32 7, float undef }
@0 = internal global <2 x float> <float 1.500000e+00, float 0x36A0000000000000>

; Function Attrs: nounwind readnone
define float @helper(float %x, i32, <2 x float> %v) #0 {
entry:
  %add = fadd fast float %x, 1.000000e+00
  %mul = fmul nnan ninf float %add, %add
  %1 = sub nuw nsw i32 %0, 3
  %2 = udiv exact i32 %1, 4
  %3 = ashr i32 %2, 1
  %4 = icmp slt i32 %3, 0
  %5 = fcmp fast olt float %mul, 2.000000e+00
  %6 = select i1 %4, float %mul, float %x
  %7 = sitofp i32 %3 to float
  %8 = bitcast float %7 to i32
  %9 = zext i1 %5 to i32
  %10 = extractelement <2 x float> %v, i32 1
  %11 = insertelement <2 x float> %v, float %6, i32 0
  %12 = shufflevector <2 x float> %11, <2 x float> %v, <4 x i32> <i32 0, i32 1, i32 2, i32 undef>
  br i1 %4, label %then, label %14

then:                                             ; preds = %entry
  %13 = fadd float %10, %7
  br label %14

; <label>:14                                      ; preds = %then, %entry
  %15 = phi float [ %13, %then ], [ %6, %entry ]
  switch i32 %9, label %done [
    i32 0, label %then2
    i32 1, label %done
  ]

then2:                                            ; preds = %14
  br label %done

done:                                             ; preds = %then2, %14, %14
  %16 = phi float [ %15, %14 ], [ %15, %14 ], [ 0.000000e+00, %then2 ]
  ret float %16
}

define void @main() {
  %1 = alloca [4 x float], align 4
  %2 = alloca i32, i32 4
  %3 = getelementptr inbounds [4 x float], [4 x float]* %1, i32 0, i32 2
  store float 1.000000e+00, float* %3, align 4
  %4 = load float, float* %3, align 4
  %5 = load volatile i32, i32* getelementptr inbounds ([3 x i32], [3 x i32]* @data, i32 0, i32 2), align 4
  %6 = getelementptr [16 x i32], [16 x i32] addrspace(3)* @tgsm, i32 0, i32 %5
  %7 = atomicrmw add i32 addrspace(3)* %6, i32 1 seq_cst
  %8 = cmpxchg i32 addrspace(3)* %6, i32 0, i32 %7 monotonic monotonic
  %9 = extractvalue { i32, i1 } %8, 0
  %10 = insertvalue { i32, float } undef, i32 %9, 0
  fence singlethread acquire
  %11 = call float @helper(float %4, i32 %9, <2 x float> zeroinitializer)
  %12 = tail call i32 @dx.op.loadInput.i32(i32 4, i32 0, i32 0, i8 0, i32 undef), !dx.precise !6
  %13 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)
  call void @llvm.dbg.value(metadata float %4, i64 0, metadata !7, metadata !8)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %11)
  ret void
}

; Function Attrs: nounwind readnone
declare i32 @dx.op.loadInput.i32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind readonly
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #1

; Function Attrs: nounwind readnone
declare void @llvm.dbg.value(metadata, i64, metadata, metadata) #0

; Function Attrs: nounwind
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #2

; Function Attrs: "key"="value"
declare noalias i8* @external(i8* nocapture readonly, i32 zeroext) #3

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind readonly }
attributes #2 = { nounwind }
attributes #3 = { "key"="value" }

!llvm.ident = !{!0}
!dx.version = !{!1}
!dx.entryPoints = !{!2}

!0 = !{!"dxc 1.8"}
!1 = !{i32 1, i32 8}
!2 = !{void ()* @main, !"main", !3, null, !5}
!3 = distinct !{null, !4, i8 -1, float 5.000000e-01}
!4 = !{}
!5 = !{i32 0, i64 8}
!6 = !{i32 1}
!7 = !DILocalVariable()  ; fields not decoded
!8 = !DIExpression()  ; fields not decoded
)LL";

bool parse(const std::string& text, Module& m, dxspv::Diagnostics& diags)
{
    return parse_module_text(text, m, diags);
}

/// The module of `body` placed in a function `define void @f(i32 %a, float %b)`.
std::string in_function(const std::string& body)
{
    return "define void @f(i32 %a, float %b) {\n" + body + "\n}\n";
}

/// The first error's code and location of a text that must not read.
struct Failure {
    Code code;
    uint32_t line, column;
};
Failure failure(const std::string& text)
{
    Module m;
    dxspv::Diagnostics diags("t.ll");
    bool ok = parse(text, m, diags);
    CHECK_MESSAGE(!ok, text);
    if (ok || diags.messages().empty())
        return {Code(0), 0, 0};
    const auto& msg = diags.messages()[0];
    CHECK(msg.location.kind == dxspv::Location::Kind::text);
    return {msg.code, msg.location.a, msg.location.b};
}

std::string nested_array(int depth)
{
    std::string s;
    for (int i = 0; i < depth; ++i)
        s += "[1 x ";
    return s + "i32" + std::string(size_t(depth), ']');
}

const Constant* constant(const Module& m, const Function* f, ValueId id)
{
    if (id < m.values.size())
        return m.values[id].kind == ModuleValue::Kind::constant ? &m.constants[m.values[id].index] : nullptr;
    const LocalValue& v = f->values[id - m.values.size()];
    return v.kind == LocalValue::Kind::constant ? &f->constants[v.index] : nullptr;
}

} // namespace

TEST_CASE("ll reader: every instruction kind reads and prints back identically")
{
    Module m;
    dxspv::Diagnostics diags;
    REQUIRE_MESSAGE(parse(canonical, m, diags), diags.to_string());
    CHECK(print_module(m) == canonical);
}

TEST_CASE("ll reader: escaped characters in the datalayout and triple print back escaped")
{
    // The reader unescapes \\ and \XX; the printer wrote them raw, so a
    // fuzzed backslash did not survive a second read (fuzz-ll).
    const char* text = "target datalayout = \"e-i\\5C\\\\16:16\\22\"\ntarget triple = \"dxil\\09ms\"\n";
    Module m;
    dxspv::Diagnostics diags;
    REQUIRE_MESSAGE(parse(text, m, diags), diags.to_string());
    CHECK(m.datalayout == "e-i\\\\16:16\"");
    std::string printed = print_module(m);
    Module again;
    REQUIRE_MESSAGE(parse(printed, again, diags), diags.to_string());
    CHECK(again.datalayout == m.datalayout);
    CHECK(again.triple == m.triple);
    CHECK(print_module(again) == printed);
}

TEST_CASE("ll reader: module values are globals, functions, then module constants")
{
    Module m;
    dxspv::Diagnostics diags;
    REQUIRE(parse(canonical, m, diags));
    REQUIRE(m.globals.size() == 8);
    REQUIRE(m.functions.size() == 7);
    for (size_t i = 0; i < m.globals.size(); ++i)
        CHECK(m.values[i].kind == ModuleValue::Kind::global);
    for (size_t i = 0; i < m.functions.size(); ++i)
        CHECK(m.values[m.globals.size() + i].kind == ModuleValue::Kind::function);
    for (size_t i = m.globals.size() + m.functions.size(); i < m.values.size(); ++i)
        CHECK(m.values[i].kind == ModuleValue::Kind::constant);
    CHECK(m.value_names[0] == "cb");
    CHECK(m.globals[7].name.empty()); // @0
    CHECK(m.globals[0].initializer == no_id);
    CHECK(m.globals[0].address_space == 2);
    CHECK(m.globals[0].is_constant);
    CHECK(m.globals[3].section == 1);
    CHECK(m.sections[0] == "s1");
    // Initializers are module constants: [i32 1, i32 -2, i32 3] is a data array.
    const Constant* data = constant(m, nullptr, m.globals[2].initializer);
    REQUIRE(data);
    CHECK(data->kind == ConstantKind::data);
    REQUIRE(data->data.size() == 3);
    CHECK(data->data[1] == 0xFFFFFFFEu);
    const Constant* str = constant(m, nullptr, m.globals[3].initializer);
    REQUIRE(str);
    CHECK(str->kind == ConstantKind::string);
    CHECK(constant(m, nullptr, m.globals[4].initializer)->kind == ConstantKind::null);
    const Constant* gep = constant(m, nullptr, m.globals[5].initializer);
    REQUIRE(gep);
    CHECK(gep->kind == ConstantKind::gep);
    CHECK(gep->flags == 1);
    CHECK(gep->operands[0] == 2); // @data
    CHECK(constant(m, nullptr, m.globals[6].initializer)->kind == ConstantKind::aggregate);
    // Identified types first, in definition order.
    CHECK(m.types[0].name == "dx.types.Handle");
    CHECK(m.types[2].kind == TypeKind::opaque);
    CHECK(m.types[3].identified);
    CHECK(m.types[3].packed);
}

TEST_CASE("ll reader: function values are arguments, function constants, results")
{
    Module m;
    dxspv::Diagnostics diags;
    REQUIRE(parse(canonical, m, diags));
    const Function& helper = m.functions[0];
    CHECK(!helper.is_declaration);
    REQUIRE(helper.values.size() >= 3);
    CHECK(helper.values[0].kind == LocalValue::Kind::argument);
    CHECK(helper.values[0].name == "x");
    CHECK(helper.values[1].name.empty());
    CHECK(helper.values[2].name == "v");
    size_t k = 3;
    while (k < helper.values.size() && helper.values[k].kind == LocalValue::Kind::constant)
        ++k;
    CHECK(k == 3 + helper.constants.size());
    for (; k < helper.values.size(); ++k)
        CHECK(helper.values[k].kind == LocalValue::Kind::instruction);
    CHECK(helper.blocks.size() == 5);
    CHECK(helper.blocks[0].name == "entry");
    CHECK(helper.blocks[2].name.empty());
    // %add = fadd fast float %x, 1.0: the result is a local value id.
    const Instruction& add = helper.instructions[0];
    CHECK(add.op == Opcode::binop);
    CHECK(add.flags == 0x1F);
    uint32_t base = uint32_t(m.values.size());
    CHECK(add.operands[0] == base); // %x
    const Constant* one = constant(m, &helper, add.operands[1]);
    REQUIRE(one);
    CHECK(one->kind == ConstantKind::float_);
    CHECK(one->value == 0x3F800000u);
    CHECK(helper.values[add.result - base].name == "add");
    // The unnamed block is block 2; the conditional branch goes there.
    const Instruction& br = helper.instructions[helper.blocks[0].first + helper.blocks[0].count - 1];
    CHECK(br.op == Opcode::br);
    CHECK(br.operands[0] == 1);
    CHECK(br.operands[1] == 2);
    // i32 0 is a null constant, as LLVM writes it.
    const Instruction& cmp = helper.instructions[5];
    CHECK(cmp.op == Opcode::cmp);
    CHECK(cmp.sub == 32 + 8); // slt
    CHECK(constant(m, &helper, cmp.operands[1])->kind == ConstantKind::null);
}

TEST_CASE("ll reader: metadata, attachments and call metadata arguments")
{
    Module m;
    dxspv::Diagnostics diags;
    REQUIRE(parse(canonical, m, diags));
    REQUIRE(m.named_metadata.size() == 3);
    CHECK(m.named_metadata[2].name == "dx.entryPoints");
    const Metadata& entry = m.metadata[m.named_metadata[2].operands[0]];
    REQUIRE(entry.operands.size() == 5);
    const Metadata& fn = m.metadata[entry.operands[0] - 1];
    CHECK(fn.kind == MetadataKind::value);
    CHECK(fn.value == m.globals.size() + 1); // @main
    CHECK(m.metadata[entry.operands[1] - 1].string == "main");
    CHECK(entry.operands[3] == 0);
    CHECK(m.metadata[entry.operands[2] - 1].kind == MetadataKind::distinct_node);
    const Function& main_fn = m.functions[1];
    REQUIRE(main_fn.attachments.size() == 1);
    CHECK(m.metadata_kinds[main_fn.attachments[0].kind] == "dx.precise");
    // Constants used as metadata are module constants.
    const Metadata& version = m.metadata[m.named_metadata[1].operands[0]];
    const Metadata& one = m.metadata[version.operands[0] - 1];
    CHECK(one.value >= m.globals.size() + m.functions.size());
    CHECK(one.value < m.values.size());
    // metadata float %4: function-local metadata.
    bool local = false;
    for (const Instruction& inst : main_fn.instructions)
        for (uint32_t op : inst.operands)
            if (op & metadata_operand) {
                const Metadata& md = m.metadata[op & ~metadata_operand];
                if (md.kind == MetadataKind::value && md.function == 1) {
                    local = true;
                    CHECK(main_fn.values[md.value - m.values.size()].kind == LocalValue::Kind::instruction);
                }
            }
    CHECK(local);
}

TEST_CASE("ll reader: attribute groups and lists as LLVM's writer enumerates them")
{
    Module m;
    dxspv::Diagnostics diags;
    REQUIRE(parse(canonical, m, diags));
    // @helper #0, @dx.op.loadInput #0: one list; @external: return, parameters, function.
    CHECK(m.functions[0].attributes == m.functions[2].attributes);
    const Function& ext = m.functions[6];
    REQUIRE(ext.attributes != 0);
    const AttributeList& list = m.attribute_lists[ext.attributes - 1];
    REQUIRE(list.groups.size() == 4);
    CHECK(m.find_attribute_group(list.groups[0])->index == 0);
    CHECK(m.find_attribute_group(list.groups[1])->index == 1);
    CHECK(m.find_attribute_group(list.groups[1])->attributes.size() == 2);
    CHECK(m.find_attribute_group(list.groups[2])->index == 2);
    const AttributeGroup* fn_group = m.find_attribute_group(list.groups[3]);
    CHECK(fn_group->index == 0xFFFFFFFFu);
    CHECK(fn_group->attributes[0].kind == Attribute::Kind::string);
    CHECK(fn_group->attributes[0].string_value == "value");
}

TEST_CASE("ll reader: constants are uniqued and canonicalised")
{
    Module m;
    dxspv::Diagnostics diags;
    std::string text = "@g = global [2 x i32] [i32 0, i32 0]\n@h = global [2 x float] [float undef, float undef]\n"
                       "@i = global i1 true\n@j = global half 0xH3C00\n@k = global float 0x3FB99999A0000000\n"
                       "@l = global [2 x i1] [i1 true, i1 false]\n@m = global i8 -1\n@n = global i32 4294967295\n"
                       "@o = global half 5.000000e-01\n";
    REQUIRE_MESSAGE(parse(text, m, diags), diags.to_string());
    auto init = [&](size_t g) { return &m.constants[m.values[m.globals[g].initializer].index]; };
    CHECK(init(0)->kind == ConstantKind::null);
    CHECK(init(1)->kind == ConstantKind::undef);
    CHECK(init(2)->kind == ConstantKind::integer);
    CHECK(init(2)->value == ~uint64_t(0));
    CHECK(init(3)->value == 0x3C00);
    CHECK(init(4)->value == 0x3DCCCCCDu);
    CHECK(init(5)->kind == ConstantKind::aggregate);
    CHECK(init(6)->value == ~uint64_t(0));
    CHECK(m.globals[6].initializer == m.globals[5].initializer + 0 + (m.globals[6].initializer - m.globals[5].initializer));
    CHECK(init(7)->value == ~uint64_t(0)); // truncated to i32 -1, sign-extended
    CHECK(init(8)->value == 0x3800);
    // i1 true of @i is the element of @l: one constant.
    const Constant* l = init(5);
    CHECK(l->operands[0] == m.globals[2].initializer);
    std::string again = print_module(m);
    CHECK(again.find("@k = global float 0x3FB99999A0000000") != std::string::npos);
    CHECK(again.find("@n = global i32 -1") != std::string::npos);
}

TEST_CASE("ll reader: a constant used in metadata and in a function is a module constant")
{
    Module m;
    dxspv::Diagnostics diags;
    std::string text = in_function("  %1 = add i32 %a, 7\n  %2 = add i32 %a, 8\n  ret void") +
                       "!named = !{!0}\n!0 = !{i32 7}\n";
    REQUIRE_MESSAGE(parse(text, m, diags), diags.to_string());
    const Function& f = m.functions[0];
    REQUIRE(f.constants.size() == 1); // i32 8; i32 7 is the module's
    CHECK(f.constants[0].value == 8);
    CHECK(f.instructions[0].operands[1] < m.values.size());
    CHECK(f.instructions[1].operands[1] == m.values.size() + 2);
    CHECK(f.values[2].kind == LocalValue::Kind::constant);
    CHECK(f.values[3].kind == LocalValue::Kind::instruction);
}

TEST_CASE("ll reader: forward references, LLVM 3.6 forms and quoted names")
{
    Module m;
    dxspv::Diagnostics diags;
    std::string text = "%\"s t\" = type { i32 }\n"
                       "define i32 @f(i32* %p) {\n"
                       "entry:\n"
                       "  br label %loop\n"
                       "loop:\n"
                       "  %i = phi i32 [ 0, %entry ], [ %next, %loop ]\n"
                       "  %v = load i32* %p\n"
                       "  %q = getelementptr inbounds i32* %p, i32 1\n"
                       "  %\"a b\" = add i32 %i, %v\n"
                       "  %next = add i32 %\"a b\", 1\n"
                       "  %c = icmp ult i32 %next, 4\n"
                       "  br i1 %c, label %loop, label %exit\n"
                       "exit:\n"
                       "  %r = call i32 @g(%\"s t\"* null)\n"
                       "  ret i32 %r\n"
                       "}\n"
                       "declare i32 @g(%\"s t\"*)\n";
    REQUIRE_MESSAGE(parse(text, m, diags), diags.to_string());
    const Function& f = m.functions[0];
    CHECK(f.blocks.size() == 3);
    CHECK(f.instructions[1].op == Opcode::phi);
    CHECK(f.values[f.instructions[1].operands[2] - m.values.size()].name == "next");
    CHECK(f.instructions[3].op == Opcode::gep);
    CHECK(m.types[0].name == "s t");
    std::string printed = print_module(m);
    CHECK(printed.find("%\"a b\" = add i32 %i, %v") != std::string::npos);
    CHECK(printed.find("%q = getelementptr inbounds i32, i32* %p, i32 1") != std::string::npos);
    Module again;
    REQUIRE(parse(printed, again, diags));
    CHECK(print_module(again) == printed);
}

TEST_CASE("ll reader: bad input fails with a numbered diagnostic at its line and column")
{
    struct Case {
        const char* what;
        std::string text;
        Code code;
        uint32_t line, column;
    };
    const Case cases[] = {
        {"bad character", "define void @f() {\n  ` \n}\n", Code::ll_bad_token, 2, 3},
        {"syntax", "define void @f() {\n  ret void void\n}\n", Code::ll_syntax, 2, 12},
        {"top level", "hello\n", Code::ll_syntax, 1, 1},
        {"bad number", "@g = global i32 99999999999999999999\n", Code::ll_bad_number, 1, 17},
        {"bad escape", "@\"a\\zz\" = global i32 0\n", Code::ll_bad_string, 1, 1},
        {"undefined type", "@g = global %T zeroinitializer\n", Code::ll_undefined_type, 1, 13},
        {"undefined value", in_function("  %x = add i32 %y, 1\n  ret void"), Code::ll_undefined_value, 2, 16},
        {"undefined global", in_function("  call void @nope()\n  ret void"), Code::ll_undefined_value, 2, 13},
        {"undefined metadata", "!n = !{!3}\n", Code::ll_undefined_metadata, 1, 8},
        {"undefined attribute group", "declare void @f() #4\n", Code::ll_undefined_attribute_group, 1, 19},
        {"undefined label", in_function("  br label %nowhere"), Code::ll_undefined_label, 2, 12},
        {"redefinition", in_function("  %x = add i32 %a, 1\n  %x = add i32 %a, 2\n  ret void"),
         Code::ll_redefinition, 3, 3},
        {"type mismatch", in_function("  %x = add i32 %b, 1\n  ret void"), Code::ll_type_mismatch, 2, 16},
        {"forward type mismatch", in_function("  br label %l\nl:\n  %x = add i32 %y, 1\n  %y = fadd float %b, %b\n  ret void"),
         Code::ll_type_mismatch, 4, 16},
        {"bad type", "@g = global i128 0\n", Code::ll_bad_type, 1, 13},
        {"void value", in_function("  %x = add void 1, 1\n  ret void"), Code::ll_bad_type, 2, 12},
        {"no terminator", in_function("  %x = add i32 %a, 1"), Code::ll_unterminated_block, 3, 1},
        {"label before terminator", in_function("  %x = add i32 %a, 1\nnext:\n  ret void"),
         Code::ll_unterminated_block, 3, 1},
        {"no closing brace", "define void @f() {\n  ret void\n", Code::ll_unterminated_block, 3, 1},
        {"empty body", "define void @f() {\n}\n", Code::ll_unterminated_block, 2, 1},
        {"unsupported", in_function("  invoke void @f(i32 0, float 0.0)\n  ret void"), Code::ll_unsupported, 2, 3},
        {"too deep", "@g = global " + nested_array(100) + " zeroinitializer\n", Code::ll_too_deep, 1, 0},
        {"bad constant", in_function("  store [1 x i32] [i32 %a], [1 x i32]* null\n  ret void"),
         Code::ll_bad_constant, 2, 24},
        {"bad index", in_function("  %x = extractvalue { i32 } undef, 1\n  ret void"), Code::ll_bad_instruction, 2, 21},
        {"bad metadata", "!0 = !DIUnknown()\n", Code::ll_bad_metadata, 1, 6},
        {"bad numbering", in_function("  %5 = add i32 %a, 1\n  ret void"), Code::ll_bad_numbering, 2, 3},
        {"bad attribute", "declare void @f(i32 align 3)\n", Code::ll_bad_attribute, 1, 27},
        {"bad alignment", in_function("  %p = alloca i32, align 6\n  ret void"), Code::ll_bad_instruction, 2, 26},
        {"ret type", in_function("  ret i32 0"), Code::ll_type_mismatch, 2, 7},
        {"call arity", "declare void @g(i32)\n" + in_function("  call void @g()\n  ret void"),
         Code::ll_type_mismatch, 3, 8},
        {"bad cast", in_function("  %x = trunc i32 %a to i64\n  ret void"), Code::ll_type_mismatch, 2, 14},
    };
    for (const Case& c : cases) {
        std::string what = c.what;
        CAPTURE(what);
        Failure f = failure(c.text);
        CHECK(unsigned(f.code) == unsigned(c.code));
        CHECK(f.line == c.line);
        if (c.column)
            CHECK(f.column == c.column);
    }
}

TEST_CASE("ll reader: nesting is bounded, long flat input is not")
{
    // 10000 metadata nodes in a chain, 10000 instructions: no recursion on either.
    std::string md = "!n = !{!0}\n";
    for (int i = 0; i < 10000; ++i)
        md.append("!").append(std::to_string(i)).append(" = !{!").append(std::to_string(i + 1)).append("}\n");
    md += "!10000 = !{}\n";
    std::string body;
    for (int i = 1; i <= 10000; ++i)
        body += "  %" + std::to_string(i) + " = add i32 %a, " + std::to_string(i) + "\n";
    Module m;
    dxspv::Diagnostics diags;
    REQUIRE_MESSAGE(parse(in_function(body + "  ret void") + md, m, diags), diags.to_string());
    CHECK(m.functions[0].instructions.size() == 10001);
    CHECK(m.functions[0].constants.size() == 10000);
    Module deep;
    std::string nested = "!n = !{!0}\n!0 = " + std::string(200, '!') + "\n";
    std::string inline_nodes;
    for (int i = 0; i < 100; ++i)
        inline_nodes += "!{";
    inline_nodes += std::string(100, '}');
    dxspv::Diagnostics deep_diags;
    CHECK(!parse("!n = !{!0}\n!0 = " + inline_nodes + "\n", deep, deep_diags));
    CHECK(deep_diags.has_code(Code::ll_too_deep));
}

TEST_CASE("ll reader: each instruction kind fills the fields the bitcode reader fills")
{
    struct Case {
        const char* text;
        Opcode op;
        int sub, flags;
        uint32_t extra;
        const char* type; ///< printed result type, "" for none
        size_t operands;
    };
    const Case cases[] = {
        {"%x = add nuw i32 %a, 1", Opcode::binop, 0, 1, 0, "i32", 2},
        {"%x = lshr exact i32 %a, 1", Opcode::binop, 8, 1, 0, "i32", 2},
        {"%x = frem float %b, %b", Opcode::binop, 6, 0, 0, "float", 2},
        {"%x = fdiv arcp float %b, %b", Opcode::binop, 4, 16, 0, "float", 2},
        {"%x = fptosi float %b to i32", Opcode::cast, 4, 0, 0, "i32", 1},
        {"%x = addrspacecast i32 addrspace(3)* %g to i32*", Opcode::cast, 12, 0, 0, "i32*", 1},
        {"%x = icmp ugt i32 %a, 0", Opcode::cmp, 34, 0, 0, "i1", 2},
        {"%x = fcmp une <4 x float> %v, %v", Opcode::cmp, 14, 0, 0, "<4 x i1>", 2},
        {"%x = select i1 true, float %b, float 5.000000e-01", Opcode::select, 0, 0, 0, "float", 3},
        {"%x = extractelement <4 x float> %v, i32 3", Opcode::extractelement, 0, 0, 0, "float", 2},
        {"%x = insertelement <4 x float> %v, float %b, i32 0", Opcode::insertelement, 0, 0, 0, "<4 x float>", 3},
        {"%x = shufflevector <4 x float> %v, <4 x float> undef, <2 x i32> <i32 0, i32 1>", Opcode::shufflevector, 0,
         0, 0, "<2 x float>", 3},
        {"%x = extractvalue { i32, float } %s, 1", Opcode::extractvalue, 0, 0, 0, "float", 2},
        {"%x = insertvalue { i32, float } %s, i32 %a, 0", Opcode::insertvalue, 0, 0, 0, "{ i32, float }", 3},
        {"%x = alloca float, align 16", Opcode::alloca, 0, 0, 16, "float*", 1},
        {"%x = load i32, i32* %p, align 4", Opcode::load, 0, 0, 4, "i32", 1},
        {"store volatile i32 %a, i32* %p", Opcode::store, 0, 1, 0, "", 2},
        {"%x = getelementptr i32, i32* %p, i32 1", Opcode::gep, 0, 0, 0, "i32*", 2},
        {"%x = atomicrmw umax i32 addrspace(3)* %g, i32 %a acq_rel", Opcode::atomicrmw, 9, 0, 5 | 1 << 8, "i32", 2},
        {"%x = cmpxchg weak volatile i32 addrspace(3)* %g, i32 0, i32 %a singlethread seq_cst acquire", Opcode::cmpxchg,
         0, 3, 6 | 3 << 8, "{ i32, i1 }", 3},
        {"fence seq_cst", Opcode::fence, 0, 0, 6 | 1 << 8, "", 0},
        {"%x = tail call float @g(float %b)", Opcode::call, 0, 1, 0, "float", 2},
        {"%x = call cc8 float @g(float 1.000000e+00)", Opcode::call, 8, 0, 0, "float", 2},
        {"unreachable", Opcode::unreachable, 0, 0, 0, "", 0},
    };
    for (const Case& c : cases) {
        std::string text = c.text;
        CAPTURE(text);
        Module m;
        dxspv::Diagnostics diags;
        std::string module = "declare float @g(float)\n"
                             "define void @f(i32 %a, float %b, <4 x float> %v, i32* %p, i32 addrspace(3)* %g, "
                             "{ i32, float } %s) {\n  " +
                             text + (c.op == Opcode::unreachable ? "\n}\n" : "\n  ret void\n}\n");
        REQUIRE_MESSAGE(parse(module, m, diags), diags.to_string());
        const Instruction& inst = m.functions[1].instructions[0];
        CHECK(inst.op == c.op);
        CHECK(inst.sub == c.sub);
        CHECK(inst.flags == c.flags);
        CHECK(inst.extra == c.extra);
        CHECK(inst.operands.size() == c.operands);
        if (*c.type) {
            REQUIRE(inst.result != no_id);
            CHECK(print_type(m, inst.type) == c.type);
            CHECK(m.functions[1].values[inst.result - m.values.size()].name == "x");
        } else {
            CHECK(inst.result == no_id);
        }
        std::string printed = print_module(m);
        CHECK(printed.find(c.text) != std::string::npos);
    }
}
