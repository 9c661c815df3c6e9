// .ll reader: one function per instruction family. Each fills an
// Instruction as the bitcode reader would (operands, flags, alignment,
// result type); operands are still tagged local symbols here.
#include "dxil/dxil.h"
#include "dxil/ll/names.h"
#include "dxil/ll/parser.h"

namespace dxspv::dxil::ll {

namespace {

bool is_float_kind(TypeKind k) { return k == TypeKind::half || k == TypeKind::float_ || k == TypeKind::double_; }

/// `fast`: unsafe algebra and every other fast-math flag, as LLVM 3.7 sets it.
constexpr uint8_t fast_math = 0x1F;

} // namespace

bool Parser::parse_instruction(bool& terminator)
{
    uint32_t name_token = 0;
    if (at(Tok::local) && peek(1).kind == Tok::equal) {
        name_token = uint32_t(pos_);
        next();
        next();
    }
    if (!at(Tok::word))
        return unexpected("an instruction");
    uint32_t op_token = uint32_t(pos_);
    std::string_view op = tok().text;
    next();
    if (fn_->instructions.size() >= max_count)
        return fail(Code::ll_too_large, "too many instructions");
    Instruction inst;
    inst.type = no_id;
    if (!parse_instruction_body(op, op_token, inst, terminator))
        return false;
    uint32_t index = uint32_t(fn_->instructions.size());
    bool has_value = inst.type != no_id && m_.types[inst.type].kind != TypeKind::void_;
    if (name_token && !has_value)
        return fail_at(name_token, Code::ll_syntax, "an instruction without a result cannot be named");
    if (has_value) {
        // Unnamed results take the next number, as in LLVM.
        uint32_t s = 0;
        if (!define_local(name_token, inst.type, Sym::Kind::instruction, results_, &s))
            return false;
        inst.result = tag_sym | s;
        ++results_;
    }
    if (!inst.operands.empty()) {
        uint32_t* p = m_.arena.alloc_array<uint32_t>(inst.operands.size());
        std::copy(inst.operands.begin(), inst.operands.end(), p);
        inst.operands = {p, inst.operands.size()};
    }
    result_tokens_.push_back(name_token ? name_token : op_token);
    fn_->instructions.push_back(inst);
    // Attachments: `, !kind !N`.
    while (accept(Tok::comma))
        if (!parse_attachment(index))
            return false;
    return true;
}

bool Parser::parse_instruction_body(std::string_view op, uint32_t op_token, Instruction& inst, bool& terminator)
{
    if (op == "tail" || op == "musttail" || op == "notail") {
        if (op != "tail")
            return fail_at(op_token, Code::ll_unsupported, "%.*s calls are not supported in DXIL", int(op.size()),
                           op.data());
        inst.flags = 1;
        if (!expect_word("call", "after tail"))
            return false;
        return parse_call(inst);
    }
    if (op == "call")
        return parse_call(inst);
    if (find_name(binop_names, op) >= 0 || find_name(fbinop_names, op) >= 0)
        return parse_binop(op, inst);
    if (int cast = find_name(cast_names, op); cast >= 0)
        return parse_cast(cast, inst);
    if (op == "icmp" || op == "fcmp")
        return parse_cmp(op == "fcmp", inst);
    if (op == "phi")
        return parse_phi(inst);
    if (op == "br" || op == "switch" || op == "ret" || op == "unreachable") {
        terminator = true;
        return parse_branch(op, inst);
    }
    if (op == "alloca" || op == "load" || op == "store")
        return parse_memory(op, inst);
    if (op == "getelementptr")
        return parse_gep(inst);
    if (op == "select") {
        ValueId c = 0, a = 0, b = 0;
        TypeId ct = no_id, t = no_id, t2 = no_id;
        uint32_t at_token = uint32_t(pos_);
        if (!parse_typed_value(c, ct) || !expect(Tok::comma, "between operands") || !parse_typed_value(a, t) ||
            !expect(Tok::comma, "between operands") || !parse_typed_value(b, t2))
            return false;
        if (t2 != t)
            return fail_at(at_token, Code::ll_type_mismatch, "select operands have different types");
        if (ct != bool_type(no_id) && ct != bool_type(t))
            return fail_at(at_token, Code::ll_type_mismatch, "a select condition is not i1");
        inst.op = Opcode::select;
        inst.type = t;
        ids_ = {c, a, b};
        inst.operands = {ids_.data(), ids_.size()};
        return true;
    }
    if (op == "extractvalue" || op == "insertvalue" || op == "extractelement" || op == "insertelement" ||
        op == "shufflevector")
        return parse_aggregate_op(op, inst);
    if (op == "atomicrmw" || op == "cmpxchg" || op == "fence")
        return parse_atomic(op, inst);
    if (op == "invoke" || op == "landingpad" || op == "resume" || op == "indirectbr" || op == "va_arg")
        return fail_at(op_token, Code::ll_unsupported, "the %.*s instruction is not supported in DXIL", int(op.size()),
                       op.data());
    return fail_at(op_token, Code::ll_syntax, "unknown instruction '%.*s'", int(op.size()), op.data());
}

bool Parser::parse_binop(std::string_view op, Instruction& inst)
{
    int code = find_name(binop_names, op);
    bool fp = code < 0;
    if (fp) {
        int f = find_name(fbinop_names, op);
        code = f == 3 ? 4 : f == 5 ? 6 : f; // fdiv = sdiv, frem = srem
    }
    inst.op = Opcode::binop;
    inst.sub = uint8_t(code);
    for (;;) {
        if (!fp && accept_word("nuw"))
            inst.flags |= 1;
        else if (!fp && accept_word("nsw"))
            inst.flags |= 2;
        else if (!fp && accept_word("exact"))
            inst.flags |= 1;
        else if (fp && accept_word("fast"))
            inst.flags |= fast_math;
        else if (fp && accept_word("nnan"))
            inst.flags |= 2;
        else if (fp && accept_word("ninf"))
            inst.flags |= 4;
        else if (fp && accept_word("nsz"))
            inst.flags |= 8;
        else if (fp && accept_word("arcp"))
            inst.flags |= 16;
        else
            break;
    }
    ValueId a = 0, b = 0;
    TypeId t = no_id;
    uint32_t at_token = uint32_t(pos_);
    if (!parse_typed_value(a, t) || !expect(Tok::comma, "between operands") || !parse_value(t, b))
        return false;
    const Type& ty = m_.types[t];
    TypeKind k = ty.kind == TypeKind::vector ? m_.types[ty.element].kind : ty.kind;
    if (fp ? !is_float_kind(k) : k != TypeKind::integer)
        return fail_at(at_token, Code::ll_type_mismatch, "%.*s on %s", int(op.size()), op.data(),
                       print_type(m_, t).c_str());
    inst.type = t;
    ids_ = {a, b};
    inst.operands = {ids_.data(), 2};
    return true;
}

bool Parser::parse_cast(int code, Instruction& inst)
{
    ValueId v = 0;
    TypeId from = no_id, to = no_id;
    uint32_t at_token = uint32_t(pos_);
    if (!parse_typed_value(v, from) || !expect_word("to", "in a cast") || !parse_type(to, false))
        return false;
    if (!cast_is_valid(m_, code, from, to))
        return fail_at(at_token, Code::ll_type_mismatch, "invalid %s from %s to %s", cast_names[code],
                       print_type(m_, from).c_str(), print_type(m_, to).c_str());
    inst.op = Opcode::cast;
    inst.sub = uint8_t(code);
    inst.type = to;
    ids_ = {v};
    inst.operands = {ids_.data(), 1};
    return true;
}

bool Parser::parse_cmp(bool fp, Instruction& inst)
{
    if (fp) {
        for (;;) {
            if (accept_word("fast"))
                inst.flags |= fast_math;
            else if (accept_word("nnan"))
                inst.flags |= 2;
            else if (accept_word("ninf"))
                inst.flags |= 4;
            else if (accept_word("nsz"))
                inst.flags |= 8;
            else if (accept_word("arcp"))
                inst.flags |= 16;
            else
                break;
        }
    }
    int pred = at(Tok::word) ? (fp ? find_name(fcmp_names, tok().text) : find_name(icmp_names, tok().text)) : -1;
    if (pred < 0)
        return unexpected("a comparison predicate");
    next();
    ValueId a = 0, b = 0;
    TypeId t = no_id;
    uint32_t at_token = uint32_t(pos_);
    if (!parse_typed_value(a, t) || !expect(Tok::comma, "between operands") || !parse_value(t, b))
        return false;
    const Type& ty = m_.types[t];
    TypeKind k = ty.kind == TypeKind::vector ? m_.types[ty.element].kind : ty.kind;
    if (fp ? !is_float_kind(k) : k != TypeKind::integer && k != TypeKind::pointer)
        return fail_at(at_token, Code::ll_type_mismatch, "%s on %s", fp ? "fcmp" : "icmp", print_type(m_, t).c_str());
    inst.op = Opcode::cmp;
    inst.sub = uint8_t(fp ? pred : pred + 32);
    inst.aux_type = t;
    inst.type = bool_type(t);
    ids_ = {a, b};
    inst.operands = {ids_.data(), 2};
    return inst.type != no_id;
}

bool Parser::parse_phi(Instruction& inst)
{
    TypeId t = no_id;
    if (!parse_type(t, false))
        return false;
    if (!is_first_class(t) || m_.types[t].kind == TypeKind::label || m_.types[t].kind == TypeKind::metadata)
        return fail(Code::ll_bad_type, "a phi of type %s", print_type(m_, t).c_str());
    inst.op = Opcode::phi;
    inst.type = t;
    ids_.clear();
    do {
        ValueId v = 0;
        if (!expect(Tok::lbracket, "before a phi incoming value") || !parse_value(t, v) ||
            !expect(Tok::comma, "after a phi incoming value") || !at(Tok::local))
            return at(Tok::local) || unexpected("a basic block name");
        uint32_t s = local_symbol(tok());
        if (s == no_id)
            return false;
        TypeId label = block_marker;
        if (syms_[s].type == no_id)
            syms_[s].type = label;
        if (syms_[s].type != label)
            return fail(Code::ll_type_mismatch, "%%%.*s is a value, not a basic block", int(tok().text.size()),
                        tok().text.data());
        next();
        if (!expect(Tok::rbracket, "after a phi incoming block"))
            return false;
        ids_.push_back(v);
        ids_.push_back(tag_sym | s);
    } while (accept(Tok::comma) && at(Tok::lbracket));
    if (toks_[pos_ - 1].kind == Tok::comma)
        --pos_; // the comma starts an attachment
    inst.operands = {ids_.data(), ids_.size()};
    return true;
}

bool Parser::parse_branch(std::string_view op, Instruction& inst)
{
    ids_.clear();
    if (op == "unreachable") {
        inst.op = Opcode::unreachable;
        return true;
    }
    if (op == "ret") {
        inst.op = Opcode::ret;
        TypeId ret = m_.types[fn_->function_type].element;
        if (accept_word("void")) {
            if (m_.types[ret].kind != TypeKind::void_)
                return fail(Code::ll_type_mismatch, "ret void in a function returning %s", print_type(m_, ret).c_str());
            return true;
        }
        ValueId v = 0;
        TypeId t = no_id;
        uint32_t at_token = uint32_t(pos_);
        if (!parse_typed_value(v, t))
            return false;
        if (t != ret)
            return fail_at(at_token, Code::ll_type_mismatch, "ret of %s in a function returning %s",
                           print_type(m_, t).c_str(), print_type(m_, ret).c_str());
        ids_.push_back(v);
        inst.operands = {ids_.data(), 1};
        return true;
    }
    if (op == "br") {
        inst.op = Opcode::br;
        uint32_t t = 0, f = 0;
        if (at_word("label")) {
            if (!parse_label(t))
                return false;
            ids_ = {t};
        } else {
            ValueId c = 0;
            if (!expect_word("i1", "or 'label' after br") || !parse_value(bool_type(no_id), c) ||
                !expect(Tok::comma, "after the branch condition") || !parse_label(t) ||
                !expect(Tok::comma, "between branch targets") || !parse_label(f))
                return false;
            ids_ = {t, f, c};
        }
        inst.operands = {ids_.data(), ids_.size()};
        return true;
    }
    // switch T %v, label %default [ T c, label %bb ... ]
    inst.op = Opcode::switch_;
    ValueId c = 0;
    TypeId t = no_id;
    uint32_t def = 0;
    uint32_t at_token = uint32_t(pos_);
    if (!parse_typed_value(c, t) || !expect(Tok::comma, "after the switch condition") || !parse_label(def) ||
        !expect(Tok::lbracket, "before the switch cases"))
        return false;
    if (m_.types[t].kind != TypeKind::integer)
        return fail_at(at_token, Code::ll_type_mismatch, "a switch on %s", print_type(m_, t).c_str());
    ids_ = {c, def};
    while (!accept(Tok::rbracket)) {
        ValueId v = 0;
        TypeId vt = no_id;
        uint32_t bb = 0;
        uint32_t case_token = uint32_t(pos_);
        if (!parse_typed_value(v, vt) || !expect(Tok::comma, "after a case value") || !parse_label(bb))
            return false;
        const Constant* k = constant_at(v);
        if (vt != t || !k || (k->kind != ConstantKind::integer && k->kind != ConstantKind::null))
            return fail_at(case_token, Code::ll_type_mismatch, "a switch case is not an integer constant of type %s",
                           print_type(m_, t).c_str());
        ids_.push_back(v);
        ids_.push_back(bb);
    }
    inst.operands = {ids_.data(), ids_.size()};
    return true;
}

bool Parser::parse_alignment(uint32_t& out)
{
    uint64_t a = 0;
    if (!parse_uint(a, 1u << 29, "an alignment"))
        return false;
    if (a == 0 || (a & (a - 1)))
        return fail_at(uint32_t(pos_ - 1), Code::ll_bad_instruction, "alignment %llu is not a power of two",
                       (unsigned long long)a);
    out = uint32_t(a);
    return true;
}

bool Parser::parse_memory(std::string_view op, Instruction& inst)
{
    if (op == "alloca") {
        accept_word("inalloca");
        TypeId t = no_id;
        uint32_t at_token = uint32_t(pos_);
        if (!parse_type(t, false))
            return false;
        if (!is_first_class(t) || m_.types[t].kind == TypeKind::label || m_.types[t].kind == TypeKind::metadata)
            return fail_at(at_token, Code::ll_bad_type, "an alloca of type %s", print_type(m_, t).c_str());
        inst.op = Opcode::alloca;
        inst.aux_type = t;
        inst.type = pointer_to(t, 0);
        ValueId size = no_id;
        while (accept(Tok::comma)) {
            if (accept_word("align")) {
                if (!parse_alignment(inst.extra))
                    return false;
            } else if (size == no_id && !at(Tok::metadata)) {
                TypeId st = no_id;
                uint32_t size_token = uint32_t(pos_);
                if (!parse_typed_value(size, st))
                    return false;
                if (m_.types[st].kind != TypeKind::integer)
                    return fail_at(size_token, Code::ll_type_mismatch, "an alloca size is not an integer");
            } else {
                --pos_;
                break;
            }
        }
        if (size == no_id) {
            Constant one; // LLVM's default element count: i32 1
            one.kind = ConstantKind::integer;
            one.type = simple_type(TypeKind::integer, 32);
            one.value = 1;
            size = intern_constant(one);
        }
        ids_ = {size};
        inst.operands = {ids_.data(), 1};
        return size != no_id && inst.type != no_id;
    }
    if (accept_word("atomic"))
        return fail(Code::ll_unsupported, "atomic loads and stores are not supported in DXIL");
    if (accept_word("volatile"))
        inst.flags = 1;
    ValueId p = 0, v = 0;
    TypeId pt = no_id;
    uint32_t at_token = uint32_t(pos_);
    if (op == "load") {
        inst.op = Opcode::load;
        TypeId t = no_id;
        if (!parse_type(t, false))
            return false;
        if (accept(Tok::comma)) {
            at_token = uint32_t(pos_);
            if (!parse_typed_value(p, pt))
                return false;
        } else { // LLVM 3.6: load T* %p
            pt = t;
            if (!parse_value(pt, p))
                return false;
            t = m_.types[pt].kind == TypeKind::pointer ? m_.types[pt].element : no_id;
        }
        if (m_.types[pt].kind != TypeKind::pointer || m_.types[pt].element != t)
            return fail_at(at_token, Code::ll_type_mismatch, "a load of %s from %s",
                           t == no_id ? "?" : print_type(m_, t).c_str(), print_type(m_, pt).c_str());
        inst.type = t;
        ids_ = {p};
    } else {
        inst.op = Opcode::store;
        TypeId vt = no_id;
        if (!parse_typed_value(v, vt) || !expect(Tok::comma, "after the stored value"))
            return false;
        at_token = uint32_t(pos_);
        if (!parse_typed_value(p, pt))
            return false;
        if (m_.types[pt].kind != TypeKind::pointer || m_.types[pt].element != vt)
            return fail_at(at_token, Code::ll_type_mismatch, "a store of %s to %s", print_type(m_, vt).c_str(),
                           print_type(m_, pt).c_str());
        ids_ = {p, v};
    }
    if (at(Tok::comma) && peek(1).kind == Tok::word && peek(1).text == "align") {
        next();
        next();
        if (!parse_alignment(inst.extra))
            return false;
    }
    inst.operands = {ids_.data(), ids_.size()};
    return true;
}

bool Parser::parse_gep(Instruction& inst)
{
    // getelementptr [inbounds] T, T* %base, indices... (or LLVM 3.6: without T)
    inst.op = Opcode::gep;
    if (accept_word("inbounds"))
        inst.flags = 1;
    TypeId first = no_id, base_type = no_id;
    if (!parse_type(first, false))
        return false;
    ValueId base = 0;
    uint32_t at_token = uint32_t(pos_);
    if (accept(Tok::comma)) {
        inst.aux_type = first;
        at_token = uint32_t(pos_);
        if (!parse_typed_value(base, base_type))
            return false;
    } else {
        base_type = first;
        if (!parse_value(first, base))
            return false;
        inst.aux_type = m_.types[first].kind == TypeKind::pointer ? m_.types[first].element : first;
    }
    std::vector<uint32_t> ops{base};
    while (at(Tok::comma) && peek(1).kind != Tok::metadata) {
        next();
        ValueId v = 0;
        TypeId t = no_id;
        if (!parse_typed_value(v, t))
            return false;
        ops.push_back(v);
    }
    (void)at_token;
    if (!gep_result(inst.aux_type, std::span<const uint32_t>(ops).subspan(1), base_type, inst.type))
        return false;
    ids_ = ops;
    inst.operands = {ids_.data(), ids_.size()};
    return true;
}

bool Parser::parse_aggregate_op(std::string_view op, Instruction& inst)
{
    ValueId a = 0, b = 0, c = 0;
    TypeId ta = no_id, tb = no_id, tc = no_id;
    uint32_t at_token = uint32_t(pos_);
    if (!parse_typed_value(a, ta))
        return false;
    const Type& t = m_.types[ta];
    if (op == "extractvalue" || op == "insertvalue") {
        bool extract = op == "extractvalue";
        inst.op = extract ? Opcode::extractvalue : Opcode::insertvalue;
        ids_ = {a};
        if (!extract) {
            if (!expect(Tok::comma, "after the aggregate") || !parse_typed_value(b, tb))
                return false;
            ids_.push_back(b);
        }
        size_t first = ids_.size();
        while (at(Tok::comma) && peek(1).kind == Tok::integer) {
            next();
            uint64_t index = 0;
            if (!parse_uint(index, 0xFFFFFFFFu, "an aggregate index"))
                return false;
            ids_.push_back(uint32_t(index));
        }
        if (ids_.size() == first)
            return unexpected("an aggregate index");
        TypeId r = no_id;
        if (!indexed_type(ta, std::span<const uint32_t>(ids_).subspan(first), at_token, r))
            return false;
        if (!extract && r != tb)
            return fail_at(at_token, Code::ll_type_mismatch, "insertvalue of %s into a %s element",
                           print_type(m_, tb).c_str(), print_type(m_, r).c_str());
        inst.type = extract ? r : ta;
        inst.operands = {ids_.data(), ids_.size()};
        return true;
    }
    if (t.kind != TypeKind::vector)
        return fail_at(at_token, Code::ll_type_mismatch, "%.*s on the non-vector type %s", int(op.size()), op.data(),
                       print_type(m_, ta).c_str());
    if (op == "extractelement") {
        if (!expect(Tok::comma, "after the vector") || !parse_typed_value(b, tb))
            return false;
        if (m_.types[tb].kind != TypeKind::integer)
            return fail_at(at_token, Code::ll_type_mismatch, "a vector index is not an integer");
        inst.op = Opcode::extractelement;
        inst.type = t.element;
        ids_ = {a, b};
    } else if (op == "insertelement") {
        if (!expect(Tok::comma, "after the vector") || !parse_typed_value(b, tb) ||
            !expect(Tok::comma, "after the element") || !parse_typed_value(c, tc))
            return false;
        if (tb != t.element || m_.types[tc].kind != TypeKind::integer)
            return fail_at(at_token, Code::ll_type_mismatch, "insertelement operands do not match the vector");
        inst.op = Opcode::insertelement;
        inst.type = ta;
        ids_ = {a, b, c};
    } else {
        if (!expect(Tok::comma, "after the vector") || !parse_typed_value(b, tb) ||
            !expect(Tok::comma, "after the vector") || !parse_typed_value(c, tc))
            return false;
        const Type& mask = m_.types[tc];
        if (tb != ta || mask.kind != TypeKind::vector || m_.types[mask.element].kind != TypeKind::integer)
            return fail_at(at_token, Code::ll_type_mismatch, "shufflevector operands are not matching vectors");
        inst.op = Opcode::shufflevector;
        Type r;
        r.kind = TypeKind::vector;
        r.element = t.element;
        r.count = mask.count;
        inst.type = intern_type(r);
        ids_ = {a, b, c};
    }
    inst.operands = {ids_.data(), ids_.size()};
    return inst.type != no_id;
}

bool Parser::parse_ordering(uint32_t& out, bool& singlethread)
{
    singlethread = accept_word("singlethread");
    int o = at(Tok::word) ? find_name(ordering_names, tok().text) : -1;
    if (o <= 0)
        return unexpected("an atomic ordering");
    next();
    out = uint32_t(o);
    return true;
}

bool Parser::parse_atomic(std::string_view op, Instruction& inst)
{
    uint32_t ordering = 0, failure = 0;
    bool single = false;
    if (op == "fence") {
        if (!parse_ordering(ordering, single))
            return false;
        inst.op = Opcode::fence;
        inst.extra = ordering | uint32_t(single ? 0 : 1) << 8;
        return true;
    }
    bool rmw = op == "atomicrmw";
    if (!rmw && accept_word("weak"))
        inst.flags |= 2;
    if (accept_word("volatile"))
        inst.flags |= 1;
    int rmw_op = 0;
    if (rmw) {
        rmw_op = at(Tok::word) ? find_name(rmw_names, tok().text) : -1;
        if (rmw_op < 0)
            return unexpected("an atomicrmw operation");
        next();
    }
    ValueId p = 0, a = 0, b = 0;
    TypeId pt = no_id, at_ = no_id, bt = no_id;
    uint32_t at_token = uint32_t(pos_);
    if (!parse_typed_value(p, pt) || !expect(Tok::comma, "after the address") || !parse_typed_value(a, at_))
        return false;
    if (m_.types[pt].kind != TypeKind::pointer || m_.types[pt].element != at_)
        return fail_at(at_token, Code::ll_type_mismatch, "%.*s of %s at %s", int(op.size()), op.data(),
                       print_type(m_, at_).c_str(), print_type(m_, pt).c_str());
    if (!rmw) {
        if (!expect(Tok::comma, "after the compared value") || !parse_typed_value(b, bt))
            return false;
        if (bt != at_)
            return fail_at(at_token, Code::ll_type_mismatch, "cmpxchg values of different types");
    }
    if (!parse_ordering(ordering, single))
        return false;
    if (rmw) {
        inst.op = Opcode::atomicrmw;
        inst.sub = uint8_t(rmw_op);
        inst.extra = ordering | uint32_t(single ? 0 : 1) << 8;
        inst.type = at_;
        ids_ = {p, a};
    } else {
        int o = at(Tok::word) ? find_name(ordering_names, tok().text) : -1;
        if (o <= 0)
            return unexpected("the failure ordering");
        next();
        failure = uint32_t(o);
        inst.op = Opcode::cmpxchg;
        inst.extra = ordering | failure << 8 | uint32_t(single ? 0 : 1) << 16;
        Type pair;
        pair.kind = TypeKind::struct_;
        TypeId members[2] = {at_, bool_type(no_id)};
        pair.members = members;
        inst.type = intern_type(pair);
        ids_ = {p, a, b};
    }
    inst.operands = {ids_.data(), ids_.size()};
    return inst.type != no_id;
}

bool Parser::parse_call_argument(TypeId type, ValueId& out, std::vector<Attribute>& attrs)
{
    if (m_.types[type].kind == TypeKind::metadata)
        return parse_metadata_argument(out);
    return parse_param_attributes(attrs) && parse_value(type, out);
}

bool Parser::parse_call(Instruction& inst)
{
    // call [cc] [return attributes] T [fnty*] callee(args) [function attributes]
    if (accept_word("ccc") || accept_word("fastcc") || accept_word("coldcc")) {
        std::string_view cc = toks_[pos_ - 1].text;
        inst.sub = cc == "fastcc" ? 8 : cc == "coldcc" ? 9 : 0;
    } else if (accept_word("cc")) {
        uint64_t n = 0;
        if (!parse_uint(n, 255, "a calling convention number"))
            return false;
        inst.sub = uint8_t(n);
    } else if (at(Tok::word) && tok().text.size() > 2 && tok().text.size() < 6 && tok().text.starts_with("cc") &&
               tok().text.find_first_not_of("0123456789", 2) == std::string_view::npos) {
        unsigned n = 0;
        for (char ch : tok().text.substr(2))
            n = n * 10 + unsigned(ch - '0');
        if (n > 255)
            return fail(Code::ll_bad_number, "calling convention %u is out of range", n);
        inst.sub = uint8_t(n);
        next();
    }
    AttrSlots slots;
    std::vector<Attribute> attrs;
    if (!parse_param_attributes(attrs))
        return false;
    if (!attrs.empty())
        slots.push_back({0, attrs});
    TypeId t = no_id;
    uint32_t type_token = uint32_t(pos_);
    if (!parse_type(t))
        return false;
    TypeId fnty = no_id;
    const Type& ty = m_.types[t];
    if (ty.kind == TypeKind::function)
        fnty = t;
    else if (ty.kind == TypeKind::pointer && m_.types[ty.element].kind == TypeKind::function)
        fnty = ty.element; // LLVM 3.6: the callee's pointer type
    TypeId ret = fnty != no_id ? m_.types[fnty].element : t;
    // The callee's type comes from the written function type, else from the
    // callee (a global, or a local already typed), else from the arguments.
    uint32_t callee_pos = uint32_t(pos_);
    if (!at(Tok::global) && !at(Tok::local))
        return unexpected("a callee (@function or %value)");
    if (fnty == no_id) {
        TypeId ct = no_id;
        if (at(Tok::global)) {
            ValueId id = no_id;
            const Token& g = tok();
            if (g.numbered) {
                size_t n = 0;
                for (char ch : g.text)
                    n = n < max_count ? n * 10 + size_t(ch - '0') : n;
                id = n < numbered_globals_.size() ? numbered_globals_[n] : no_id;
            } else {
                std::string_view name;
                if (!name_of(g, name))
                    return false;
                auto it = globals_by_name_.find(name);
                id = it != globals_by_name_.end() ? it->second : no_id;
            }
            ct = id != no_id ? m_.values[id].type : no_id;
        }
        if (ct != no_id && m_.types[ct].kind == TypeKind::pointer &&
            m_.types[m_.types[ct].element].kind == TypeKind::function &&
            m_.types[m_.types[ct].element].element == ret && !m_.types[m_.types[ct].element].vararg)
            fnty = m_.types[ct].element;
    }
    next();
    if (!expect(Tok::lparen, "before the call arguments"))
        return false;
    std::vector<uint32_t> ops{0};
    std::vector<TypeId> arg_types;
    while (!accept(Tok::rparen)) {
        if (ops.size() > 1 && !expect(Tok::comma, "between call arguments"))
            return false;
        TypeId at_type = no_id;
        uint32_t arg_token = uint32_t(pos_);
        if (!parse_type(at_type, false))
            return false;
        const Type* f = fnty != no_id ? &m_.types[fnty] : nullptr;
        size_t i = ops.size() - 1;
        if (f && i < f->members.size() && f->members[i] != at_type)
            return fail_at(arg_token, Code::ll_type_mismatch, "call argument %zu has type %s, the callee takes %s",
                           i + 1, print_type(m_, at_type).c_str(), print_type(m_, f->members[i]).c_str());
        attrs.clear();
        ValueId v = 0;
        if (!parse_call_argument(at_type, v, attrs))
            return false;
        if (!attrs.empty())
            slots.push_back({uint32_t(ops.size()), attrs});
        if (ops.size() >= 0xFFFF)
            return fail(Code::ll_too_large, "too many call arguments");
        ops.push_back(v);
        arg_types.push_back(at_type);
    }
    if (fnty == no_id) {
        Type ft;
        ft.kind = TypeKind::function;
        ft.element = ret;
        ft.members = arg_types;
        fnty = intern_type(ft);
        if (fnty == no_id)
            return false;
    }
    const Type& f = m_.types[fnty];
    if (arg_types.size() < f.members.size() || (!f.vararg && arg_types.size() != f.members.size()))
        return fail_at(type_token, Code::ll_type_mismatch, "a call with %zu arguments to a function taking %zu",
                       arg_types.size(), f.members.size());
    attrs.clear();
    if (!parse_fn_attributes(attrs, nullptr))
        return false;
    if (!attrs.empty())
        slots.push_back({0xFFFFFFFFu, attrs});
    size_t end = pos_;
    pos_ = callee_pos;
    TypeId callee_type = pointer_to(fnty, 0);
    if (callee_type == no_id || !parse_value(callee_type, ops[0]))
        return false;
    pos_ = end;
    inst.op = Opcode::call;
    inst.aux_type = fnty;
    inst.type = f.element;
    inst.extra = attribute_list(slots);
    ids_ = ops;
    inst.operands = {ids_.data(), ids_.size()};
    return true;
}

} // namespace dxspv::dxil::ll
