// The module writer on modules built in code: write bitcode, read it back
// with the module reader, and compare the printed .ll text, one test per
// group of record kinds; then modules that cannot be written, each giving
// its numbered diagnostic.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "dxil/dxil.h"
#include "module_builder.h"

using dxspv::Code;
using dxspv::Diagnostics;
using namespace dxspv::dxil;
using dxspv_test::BodyBuilder;
using dxspv_test::ModuleBuilder;

namespace {

/// Writes and reads back `m`; the text of both must be equal. Returns it.
std::string round_trip(const Module& m)
{
    Diagnostics diags;
    std::vector<uint8_t> bitcode;
    REQUIRE_MESSAGE(write_bitcode(m, bitcode, diags), diags.to_string());
    CHECK(bitcode.size() % 4 == 0);
    Module back;
    REQUIRE_MESSAGE(read_module(bitcode, 0, back, diags), diags.to_string());
    std::string want = print_module(m), got = print_module(back);
    CHECK(got == want);
    // Writing is deterministic: the module read back writes the same bytes.
    std::vector<uint8_t> again;
    REQUIRE(write_bitcode(back, again, diags));
    CHECK(again == bitcode);
    return want;
}

bool contains(const std::string& text, const char* s)
{
    bool found = text.find(s) != std::string::npos;
    if (!found)
        MESSAGE("missing: " << s << "\nin:\n" << text);
    return found;
}

/// Code of the first error writing `m`, or 0.
unsigned write_error(const Module& m)
{
    Diagnostics diags;
    std::vector<uint8_t> bitcode;
    bool ok = write_bitcode(m, bitcode, diags);
    CHECK(ok != diags.has_errors());
    if (!ok)
        CHECK(bitcode.empty());
    return ok ? 0 : unsigned(diags.messages()[0].code);
}

struct Common {
    ModuleBuilder b;
    TypeId void_t, i1, i8, i32, i64, f16, f32, f64, label, md;
    Common()
    {
        void_t = b.basic(TypeKind::void_);
        i1 = b.integer(1);
        i8 = b.integer(8);
        i32 = b.integer(32);
        i64 = b.integer(64);
        f16 = b.basic(TypeKind::half);
        f32 = b.basic(TypeKind::float_);
        f64 = b.basic(TypeKind::double_);
        label = b.basic(TypeKind::label);
        md = b.basic(TypeKind::metadata);
        b.m.triple = "dxil-ms-dx";
        b.m.datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64";
        b.m.version = 1;
    }
};

} // namespace

TEST_CASE("module writer: types, globals, functions, sections and attributes")
{
    Common c;
    ModuleBuilder& b = c.b;
    // A pointer listed before its pointee: the writer reorders the table.
    TypeId early_ptr = b.add(Type{TypeKind::pointer, false, false, false, 0, 0, 0, TypeId(b.m.types.size() + 1)});
    TypeId i16 = b.integer(16);
    (void)early_ptr;
    TypeId arr = b.sequence(TypeKind::array, 4, c.i32);
    TypeId vec = b.sequence(TypeKind::vector, 4, c.f32);
    TypeId s = b.structure({c.i32, c.f32, vec}, "struct.S");
    TypeId packed = b.structure({c.i8, c.i32}, {}, false, true);
    Type opaque;
    opaque.kind = TypeKind::opaque;
    opaque.identified = true;
    opaque.name = b.str("dx.types.Handle");
    TypeId handle = b.add(opaque);
    // A named struct that refers to itself through a pointer listed after it.
    TypeId list = b.structure({}, "list");
    TypeId list_ptr = b.pointer(list);
    b.m.types[list].members = b.copy({list_ptr, c.i32});
    TypeId shared_arr = b.sequence(TypeKind::array, 8, c.f32);
    TypeId fn_op = b.function_type(c.f32, {c.i32, c.f32, i16});
    TypeId fn_main = b.function_type(c.void_t, {});
    TypeId fn_var = b.function_type(c.i32, {b.pointer(c.i8)}, true);
    TypeId fn_use = b.function_type(c.void_t, {s, packed, handle, list_ptr, arr, c.f16, c.f64, c.i64});

    b.m.sections = {"sec0", "sec1"};
    Attribute nounwind{Attribute::Kind::enum_, 18, 0, {}, {}};
    Attribute readnone{Attribute::Kind::enum_, 20, 0, {}, {}};
    Attribute deref{Attribute::Kind::integer, 41, 12, {}, {}};
    Attribute kv{Attribute::Kind::string, 0, 0, b.str("fp32-denorm-mode"), b.str("any")};
    Attribute flag{Attribute::Kind::string, 0, 0, b.str("no-flag-value"), {}};
    b.m.attribute_groups.push_back({1, 0xFFFFFFFFu, b.copy({nounwind, readnone})});
    b.m.attribute_groups.push_back({2, 0xFFFFFFFFu, b.copy({nounwind, kv, flag})});
    b.m.attribute_groups.push_back({3, 1, b.copy({deref})});
    b.m.attribute_lists.push_back({b.copy<uint32_t>({1})});
    b.m.attribute_lists.push_back({b.copy<uint32_t>({2, 3})});

    GlobalVariable g;
    g.address_space = 3;
    g.linkage = Linkage::internal;
    g.alignment = 4;
    ValueId shared = b.global("shared", shared_arr, g);
    GlobalVariable str;
    str.is_constant = true;
    str.linkage = Linkage::private_;
    str.unnamed_addr = true;
    str.alignment = 1;
    str.section = 2;
    ValueId hello = b.global("hello", b.sequence(TypeKind::array, 3, c.i8), str);
    GlobalVariable ext;
    ext.externally_initialized = true;
    ext.thread_local_mode = 1;
    b.global("ext", c.i32, ext);
    GlobalVariable anon;
    anon.linkage = Linkage::appending;
    b.global("", arr, anon);
    b.function("dx.op.thing.f32", fn_op, true, 1);
    ValueId main_fn = b.function("main", fn_main, false, 2);
    b.function("printf", fn_var, true);
    b.function("use", fn_use, true);
    Constant undef;
    undef.kind = ConstantKind::undef;
    undef.type = shared_arr;
    b.m.globals[b.m.values[shared].index].initializer = b.constant(undef);
    Constant text;
    text.kind = ConstantKind::string;
    text.type = b.m.globals[b.m.values[hello].index].value_type;
    text.data = b.copy<uint64_t>({'h', 'i', 0});
    b.m.globals[b.m.values[hello].index].initializer = b.constant(text);
    BodyBuilder body(b, main_fn);
    body.block();
    body.inst(Opcode::ret, no_id, {});

    std::string t = round_trip(b.m);
    CHECK(contains(t, "%struct.S = type { i32, float, <4 x float> }"));
    CHECK(contains(t, "%dx.types.Handle = type opaque"));
    CHECK(contains(t, "%list = type { %list*, i32 }"));
    CHECK(contains(t, "@shared = internal addrspace(3) global [8 x float] undef, align 4"));
    CHECK(contains(t, "@hello = private unnamed_addr constant [3 x i8] c\"hi\\00\", section \"sec1\", align 1"));
    CHECK(contains(t, "declare float @dx.op.thing.f32(i32, float, i16) #0"));
    CHECK(contains(t, "declare i32 @printf(i8*, ...)"));
    CHECK(contains(t, "<{ i8, i32 }>"));
    CHECK(contains(t, "\"fp32-denorm-mode\"=\"any\""));
}

TEST_CASE("module writer: module and function constants, constant expressions")
{
    Common c;
    ModuleBuilder& b = c.b;
    TypeId i32p = b.pointer(c.i32);
    TypeId arr = b.sequence(TypeKind::array, 3, c.i32);
    TypeId vec = b.sequence(TypeKind::vector, 2, c.f32);
    TypeId pair = b.structure({c.i32, c.f32});
    TypeId fn = b.function_type(c.void_t, {c.i32});
    TypeId sink = b.function_type(c.void_t, {c.i32, c.i64, c.i1, c.f32, c.f16, c.f64, i32p, arr, pair, vec, c.i8});
    ValueId g = b.global("table", arr);
    ValueId use = b.function("use", sink, true);
    ValueId main_fn = b.function("main", fn, false);
    auto k = [&](ConstantKind kind, TypeId type, uint64_t value = 0) {
        Constant x;
        x.kind = kind;
        x.type = type;
        x.value = value;
        return x;
    };
    ValueId minus5 = b.int_constant(c.i32, -5);
    ValueId one = b.int_constant(c.i32, 1);
    ValueId big = b.int_constant(c.i64, int64_t(0x8000000000000000ull));
    ValueId yes = b.int_constant(c.i1, 1);
    ValueId f = b.constant(k(ConstantKind::float_, c.f32, 0x3FC00000));
    ValueId h = b.constant(k(ConstantKind::float_, c.f16, 0x3C00));
    ValueId d = b.constant(k(ConstantKind::float_, c.f64, 0x400921FB54442D18ull));
    ValueId null_ptr = b.constant(k(ConstantKind::null, i32p));
    Constant data = k(ConstantKind::data, arr);
    data.data = b.copy<uint64_t>({1, 2, 0xFFFFFFFF});
    ValueId data_v = b.constant(data);
    Constant agg = k(ConstantKind::aggregate, pair);
    agg.operands = b.copy<uint32_t>({minus5, f});
    ValueId agg_v = b.constant(agg);
    Constant gep = k(ConstantKind::gep, i32p);
    gep.flags = 1;
    gep.source_type = arr;
    ValueId zero = b.int_constant(c.i32, 0);
    gep.operands = b.copy<uint32_t>({g, zero, one});
    ValueId gep_v = b.constant(gep);
    Constant cast = k(ConstantKind::cast, c.i32);
    cast.opcode = 9; // ptrtoint
    cast.source_type = i32p;
    cast.operands = b.copy<uint32_t>({gep_v});
    ValueId cast_v = b.constant(cast);
    Constant add = k(ConstantKind::binop, c.i32);
    add.opcode = 0;
    add.flags = 2; // nsw
    add.operands = b.copy<uint32_t>({cast_v, one});
    ValueId add_v = b.constant(add);
    Constant cmp = k(ConstantKind::cmp, c.i1);
    cmp.opcode = 32; // icmp eq
    cmp.source_type = c.i32;
    cmp.operands = b.copy<uint32_t>({add_v, minus5});
    ValueId cmp_v = b.constant(cmp);
    Constant sel = k(ConstantKind::select, c.i32);
    sel.operands = b.copy<uint32_t>({cmp_v, one, minus5});
    ValueId sel_v = b.constant(sel);
    Constant vec_c = k(ConstantKind::aggregate, vec);
    vec_c.operands = b.copy<uint32_t>({f, f});
    ValueId vec_v = b.constant(vec_c);
    Constant ins = k(ConstantKind::insertelement, vec);
    ins.operands = b.copy<uint32_t>({vec_v, f, one});
    ValueId ins_v = b.constant(ins);
    Constant ext = k(ConstantKind::extractelement, c.f32);
    ext.operands = b.copy<uint32_t>({ins_v, zero});
    ValueId ext_v = b.constant(ext);
    (void)big;

    BodyBuilder body(b, main_fn);
    // Function constants: a non-C string and a forward-referencing expression.
    Constant s = k(ConstantKind::string, b.sequence(TypeKind::array, 2, c.i8));
    s.data = b.copy<uint64_t>({'a', 'b'});
    Constant local_add = k(ConstantKind::binop, c.i32);
    local_add.opcode = 2; // mul
    local_add.operands = b.copy<uint32_t>({sel_v, body.base + 2}); // refers to the next constant
    ValueId local_add_v = body.constant(local_add);
    ValueId local_seven = body.constant(k(ConstantKind::integer, c.i32, 7));
    ValueId undef_i8 = body.constant(k(ConstantKind::undef, c.i8));
    (void)local_seven;
    body.block();
    body.inst(Opcode::call, c.void_t,
              {use, local_add_v, big, yes, ext_v, h, d, null_ptr, data_v, agg_v, vec_v, undef_i8}, 0, 0, sink);
    body.inst(Opcode::ret, no_id, {});
    (void)s;

    std::string t = round_trip(b.m);
    CHECK(contains(t, "i64 -9223372036854775808"));
    CHECK(contains(t, "i1 true"));
    CHECK(contains(t, "[3 x i32] [i32 1, i32 2, i32 -1]"));
    CHECK(contains(t, "{ i32, float } { i32 -5, float 1.500000e+00 }"));
    CHECK(contains(t, "getelementptr inbounds"));
    CHECK(contains(t, "ptrtoint"));
    CHECK(contains(t, "icmp eq"));
    CHECK(contains(t, "insertelement"));
    CHECK(contains(t, "half 0xH3C00"));
}

TEST_CASE("module writer: every instruction, forward references, names, metadata and attachments")
{
    Common c;
    ModuleBuilder& b = c.b;
    TypeId i32p = b.pointer(c.i32);
    TypeId i32p_shared = b.pointer(c.i32, 3);
    TypeId arr = b.sequence(TypeKind::array, 4, c.i32);
    TypeId arrp = b.pointer(arr);
    TypeId vec = b.sequence(TypeKind::vector, 4, c.f32);
    TypeId vec2 = b.sequence(TypeKind::vector, 2, c.f32);
    TypeId mask_t = b.sequence(TypeKind::vector, 2, c.i32);
    TypeId pair = b.structure({c.i32, c.f32});
    TypeId xchg = b.structure({c.i32, c.i1});
    TypeId fn = b.function_type(c.i32, {c.i32, c.f32, vec, pair});
    TypeId op_t = b.function_type(c.void_t, {c.i32, c.md, c.md});
    ValueId shared = b.global("lds", c.i32, [] {
        GlobalVariable g;
        g.address_space = 3;
        return g;
    }());
    (void)i32p_shared;
    ValueId op = b.function("dx.op.annotate", op_t, true);
    ValueId main_fn = b.function("main", fn, false);
    ValueId zero = b.int_constant(c.i32, 0);
    ValueId one = b.int_constant(c.i32, 1);
    ValueId two = b.int_constant(c.i32, 2);
    Constant fz;
    fz.kind = ConstantKind::float_;
    fz.type = c.f32;
    fz.value = 0x3F800000;
    ValueId f1 = b.constant(fz);
    Constant mask;
    mask.kind = ConstantKind::data;
    mask.type = mask_t;
    mask.data = b.copy<uint64_t>({0, 3});
    ValueId mask_v = b.constant(mask);

    // Module metadata: a string, a value, nodes (one distinct, one with a
    // null operand), named metadata, kinds.
    MetadataId s = b.md_string("hello");
    MetadataId v = b.md_value(one);
    MetadataId node = b.md_node({s, v, no_id});
    MetadataId distinct = b.md_node({node}, true);
    MetadataId self = b.md_node({});
    b.named("dx.things", {node, distinct});
    b.named("llvm.ident", {self});
    b.m.metadata_kinds = {b.str("dbg"), b.str("tbaa"), {}, {}, b.str("range"), {}, {}, {}, {}, {}, {}, {}, {},
                          {}, {}, b.str("dx.precise")};

    BodyBuilder f(b, main_fn);
    f.name(f.arg(0), "x");
    f.name(f.arg(1), "y");
    // Function-local metadata: the argument wrapped as metadata (a call operand).
    Metadata local;
    local.kind = MetadataKind::value;
    local.type = c.i32;
    local.value = f.arg(0);
    local.function = b.m.values[main_fn].index;
    MetadataId local_md = b.md(local);

    f.block("entry");
    ValueId slot = f.inst(Opcode::alloca, b.find_pointer(arr), {one}, 0, 0, arr, 4);
    ValueId gep = f.inst(Opcode::gep, i32p, {slot, zero, f.arg(0)}, 0, 1, arr);
    (void)arrp;
    f.inst(Opcode::store, c.void_t, {gep, f.arg(0)}, 0, 0, no_id, 4);
    ValueId loaded = f.inst(Opcode::load, c.i32, {gep}, 0, 1, no_id, 4);
    ValueId sum = f.inst(Opcode::binop, c.i32, {loaded, one}, 0, 3); // add nuw nsw
    ValueId fsum = f.inst(Opcode::binop, c.f32, {f.arg(1), f1}, 0, 1);  // fadd fast
    ValueId conv = f.inst(Opcode::cast, c.i32, {fsum}, 4);              // fptosi
    ValueId cmp = f.inst(Opcode::cmp, c.i1, {conv, sum}, 40, 0, c.i32); // icmp slt
    ValueId fcmp = f.inst(Opcode::cmp, c.i1, {fsum, f1}, 4, 0, c.f32);  // fcmp olt
    ValueId sel = f.inst(Opcode::select, c.i32, {cmp, conv, sum});
    ValueId elt = f.inst(Opcode::extractelement, c.f32, {f.arg(2), two});
    ValueId ins = f.inst(Opcode::insertelement, vec, {f.arg(2), elt, zero});
    ValueId shuf = f.inst(Opcode::shufflevector, vec2, {ins, ins, mask_v});
    (void)shuf;
    ValueId ev = f.inst(Opcode::extractvalue, c.f32, {f.arg(3), 1});
    ValueId iv = f.inst(Opcode::insertvalue, pair, {f.arg(3), sel, 0});
    (void)iv;
    (void)ev;
    ValueId rmw = f.inst(Opcode::atomicrmw, c.i32, {shared, sel}, 1, 0, no_id, 6 | 1 << 8);
    ValueId cx = f.inst(Opcode::cmpxchg, xchg, {shared, rmw, one}, 0, 2, no_id, 6 | 2 << 8 | 1 << 16);
    (void)cx;
    f.inst(Opcode::fence, c.void_t, {}, 0, 0, no_id, 6 | 1 << 8);
    uint32_t call_inst = uint32_t(f.f.instructions.size());
    f.inst(Opcode::call, c.void_t, {op, sel, metadata_operand | node, metadata_operand | local_md}, 0, 1, op_t);
    f.inst(Opcode::br, no_id, {1, 2, fcmp});
    // loop: a phi whose second incoming value is defined later (forward).
    f.block("loop");
    ValueId phi_id = f.next_value();
    ValueId next_id = phi_id + 1;
    ValueId phi = f.inst(Opcode::phi, c.i32, {sel, 0, next_id, 1});
    ValueId next = f.inst(Opcode::binop, c.i32, {phi, one}, 0);
    REQUIRE(next == next_id);
    f.name(next, "next");
    ValueId done = f.inst(Opcode::cmp, c.i1, {next, two}, 32, 0, c.i32);
    f.inst(Opcode::br, no_id, {1, 2, done});
    f.block("exit");
    ValueId out = f.inst(Opcode::phi, c.i32, {sel, 0, next, 1});
    f.inst(Opcode::switch_, no_id, {out, 3, zero, 4, one, 3});
    f.block();
    f.inst(Opcode::ret, no_id, {out});
    f.block("dead");
    f.inst(Opcode::unreachable, no_id, {});
    f.f.attachments.push_back({no_id, 1, node});
    f.f.attachments.push_back({call_inst, 15, self});
    f.f.attachments.push_back({4, 4, distinct}); // !range on the add (instruction 4)
    f.f.attachments.push_back({call_inst, 1, node});

    std::string t = round_trip(b.m);
    CHECK(contains(t, "define i32 @main(i32 %x, float %y, <4 x float>, { i32, float }) {"));
    CHECK(contains(t, "alloca [4 x i32], align 4"));
    CHECK(contains(t, "getelementptr inbounds [4 x i32], [4 x i32]*"));
    CHECK(contains(t, "load volatile i32, i32*"));
    CHECK(contains(t, "add nuw nsw i32"));
    CHECK(contains(t, "fadd fast float %y, 1.000000e+00"));
    CHECK(contains(t, "fptosi float"));
    CHECK(contains(t, "icmp slt i32"));
    CHECK(contains(t, "fcmp olt float"));
    CHECK(contains(t, "shufflevector <4 x float>"));
    CHECK(contains(t, "extractvalue { i32, float } %1, 1"));
    CHECK(contains(t, "insertvalue { i32, float } %1, i32"));
    CHECK(contains(t, "atomicrmw add i32 addrspace(3)* @lds"));
    CHECK(contains(t, "cmpxchg weak i32 addrspace(3)* @lds"));
    CHECK(contains(t, "fence"));
    CHECK(contains(t, "metadata i32 %x"));
    CHECK(contains(t, "phi i32 [ %"));
    CHECK(contains(t, "%next, %loop"));
    CHECK(contains(t, "switch i32"));
    CHECK(contains(t, "unreachable"));
    CHECK(contains(t, "!dx.things = !{"));
    CHECK(contains(t, "distinct !{"));
    CHECK(contains(t, "!\"hello\""));
    CHECK(contains(t, "!dx.precise !2, !tbaa !0"));
    CHECK(contains(t, "add nuw nsw i32 %4, 1, !range !1"));
}

TEST_CASE("module writer: modules that cannot be written give numbered diagnostics")
{
    auto base = [] {
        Common c;
        TypeId fn = c.b.function_type(c.i32, {c.i32});
        ValueId main_fn = c.b.function("main", fn, false);
        BodyBuilder f(c.b, main_fn);
        f.block();
        f.inst(Opcode::ret, no_id, {f.arg(0)});
        return c;
    };
    SUBCASE("the base module writes")
    {
        Common c = base();
        CHECK(write_error(c.b.m) == 0);
    }
    SUBCASE("opaque metadata (debug info the reader kept as 'other')")
    {
        Common c = base();
        Metadata md;
        md.kind = MetadataKind::other;
        md.value = 12;
        c.b.md(md);
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_unsupported));
    }
    SUBCASE("a type of unknown kind")
    {
        Common c = base();
        c.b.basic(TypeKind::other);
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_unsupported));
    }
    SUBCASE("metadata attached to a global")
    {
        Common c = base();
        c.b.m.global_attachments.push_back({0, 0, 0});
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_unsupported));
    }
    SUBCASE("an operand out of range")
    {
        Common c = base();
        c.b.m.functions[0].instructions[0].operands = c.b.copy<uint32_t>({1000});
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
    SUBCASE("a block without a terminator")
    {
        Common c = base();
        c.b.m.functions[0].instructions[0].op = Opcode::fence;
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
    SUBCASE("a definition without blocks")
    {
        Common c = base();
        c.b.m.functions[0].blocks.clear();
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
    SUBCASE("a type that contains itself without a named struct")
    {
        Common c = base();
        TypeId p = c.b.pointer(0);
        c.b.m.types[p].element = p;
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
    SUBCASE("a value table that does not match the globals")
    {
        Common c = base();
        c.b.m.values.push_back({ModuleValue::Kind::global, 0, 5});
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
    SUBCASE("an attachment with an undefined kind")
    {
        Common c = base();
        c.b.m.functions[0].attachments.push_back({0, 7, c.b.md_node({})});
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
    SUBCASE("an alignment that is not a power of two")
    {
        Common c;
        TypeId fn = c.b.function_type(c.void_t, {c.b.pointer(c.i32)});
        ValueId main_fn = c.b.function("main", fn, false);
        BodyBuilder f(c.b, main_fn);
        f.block();
        f.inst(Opcode::load, c.i32, {f.arg(0)}, 0, 0, no_id, 3);
        f.inst(Opcode::ret, no_id, {});
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_unsupported));
    }
    SUBCASE("an operand whose recorded type is out of range")
    {
        Common c;
        TypeId fn = c.b.function_type(c.void_t, {c.i32});
        ValueId main_fn = c.b.function("main", fn, false);
        BodyBuilder f(c.b, main_fn);
        f.block();
        f.inst(Opcode::alloca, c.b.pointer(c.i32), {f.arg(0)}, 0, 0, c.i32, 4);
        f.inst(Opcode::ret, no_id, {});
        f.f.values[0].type = 999;
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
    SUBCASE("metadata of a function that does not exist")
    {
        Common c = base();
        Metadata md;
        md.kind = MetadataKind::value;
        md.function = 9;
        c.b.md(md);
        CHECK(write_error(c.b.m) == unsigned(Code::dxil_write_inconsistent));
    }
}

TEST_CASE("module writer: large modules (relative ids past 2^16, long metadata chains)")
{
    // A chain of n adds over n/10 constants, and n/10 metadata nodes. The
    // write times are printed, not checked: the machine is shared, and the
    // writer is linear by construction (one pass per block, table lookups).
    auto build_and_write = [](uint32_t n, std::vector<uint8_t>& bitcode) {
        Common c;
        ModuleBuilder& b = c.b;
        TypeId fn = b.function_type(c.i32, {c.i32});
        ValueId main_fn = b.function("main", fn, false);
        std::vector<ValueId> constants;
        for (uint32_t i = 0; i < n / 10; ++i)
            constants.push_back(b.int_constant(c.i32, int64_t(i) * 7919 - 1000));
        MetadataId prev = b.md_string("root");
        for (uint32_t i = 0; i < n / 10; ++i)
            prev = b.md_node({prev, b.md_value(constants[i])});
        b.named("chain", {prev});
        BodyBuilder f(b, main_fn);
        f.block();
        ValueId x = f.arg(0);
        for (uint32_t i = 0; i < n; ++i)
            x = f.inst(Opcode::binop, c.i32, {x, constants[i % constants.size()]}, uint8_t(i % 3));
        f.inst(Opcode::ret, no_id, {x});
        Diagnostics diags;
        double ms = 1e30; // the best of three runs: the machine is shared
        for (int run = 0; run < 3; ++run) {
            auto t0 = std::chrono::steady_clock::now();
            REQUIRE(write_bitcode(b.m, bitcode, diags));
            ms = std::min(ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        Module back;
        REQUIRE(read_module(bitcode, 0, back, diags));
        CHECK(back.functions[0].instructions.size() == n + 1);
        CHECK(print_module(back) == print_module(b.m));
        return ms;
    };
    std::vector<uint8_t> small, large;
    double t_small = build_and_write(10000, small);
    double t_large = build_and_write(100000, large);
    std::printf("module writer: 10k instructions in %.2f ms (%zu bytes), 100k in %.2f ms (%zu bytes)\n", t_small,
                small.size(), t_large, large.size());
    CHECK(large.size() < small.size() * 12);
}
