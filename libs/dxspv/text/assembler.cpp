#include "text/assembler.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "text/lexer.h"
#include "text/names.h"
#include "text/signature_text.h"
#include "tpf/opcode_table.h"
#include "tpf/tokens.h"

namespace dxspv::text {

namespace {

using vsir::DataType;
using vsir::Dimension;
using vsir::Opcode;
using vsir::RegisterFile;

constexpr unsigned max_depth = 3;

/// One `_name` segment of an opcode word with the paren groups glued to it.
struct Segment {
    std::string_view name;
    std::string_view groups[3];
    unsigned group_count = 0;
    Location location;
};

/// An operand as written, before it is placed in a slot.
struct Parsed {
    vsir::Register reg;
    std::string_view selection; ///< letters after '.', empty when none
    vsir::SrcModifier modifier = vsir::SrcModifier::none;
    vsir::OperandForm form = vsir::OperandForm::unspecified; ///< from a {c0}/{c1}/{mask}/{swz}/{sel} annotation
    uint8_t token_flags = 0;                                   ///< {ext}
    Location location;
};

/// The token form named by an operand annotation.
bool form_of_annotation(std::string_view w, vsir::OperandForm& out)
{
    static const char* const names[] = {"", "c0", "c1", "mask", "swz", "sel"};
    for (unsigned i = 1; i < 6; ++i)
        if (w == names[i]) {
            out = vsir::OperandForm(i);
            return true;
        }
    return false;
}

bool is_opaque(RegisterFile file)
{
    switch (file) {
    case RegisterFile::sampler:
    case RegisterFile::resource:
    case RegisterFile::uav:
    case RegisterFile::groupshared:
    case RegisterFile::label:
    case RegisterFile::stream:
    case RegisterFile::rasterizer: return true;
    default: return false;
    }
}

bool is_scalar_file(RegisterFile file)
{
    switch (file) {
    case RegisterFile::primitive_id:
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le:
    case RegisterFile::coverage_out:
    case RegisterFile::coverage_in:
    case RegisterFile::output_control_point_id:
    case RegisterFile::fork_instance_id:
    case RegisterFile::join_instance_id:
    case RegisterFile::local_thread_index:
    case RegisterFile::gs_instance_id:
    case RegisterFile::stencil_ref:
    case RegisterFile::inner_coverage: return true;
    default: return false;
    }
}

bool is_descriptor(RegisterFile file)
{
    return file == RegisterFile::resource || file == RegisterFile::uav || file == RegisterFile::sampler ||
           file == RegisterFile::constant_buffer;
}

bool tests_condition(Opcode op)
{
    return op == Opcode::if_ || op == Opcode::breakc || op == Opcode::continuec || op == Opcode::retc ||
           op == Opcode::discard || op == Opcode::callc;
}

/// Register file of a prefix; `upper` is set for the SM5.1 descriptor spellings.
bool file_of_prefix(std::string_view prefix, RegisterFile& file, bool& upper)
{
    upper = false;
    static const struct {
        const char* name;
        RegisterFile file;
    } extra[] = {{"T", RegisterFile::resource}, {"U", RegisterFile::uav}, {"S", RegisterFile::sampler},
                 {"CB", RegisterFile::constant_buffer}, {"l", RegisterFile::label},
                 {"vcp", RegisterFile::input_control_point}};
    for (unsigned i = 0; i < sizeof(extra) / sizeof(extra[0]); ++i)
        if (prefix == extra[i].name) {
            file = extra[i].file;
            upper = i < 4;
            return true;
        }
    for (uint32_t f = 0; f < uint32_t(RegisterFile::count); ++f)
        if (prefix == vsir::register_prefix(RegisterFile(f)) && RegisterFile(f) != RegisterFile::label &&
            RegisterFile(f) != RegisterFile::immediate && RegisterFile(f) != RegisterFile::immediate64) {
            file = RegisterFile(f);
            return true;
        }
    return false;
}

/// Nominal type of a declared input/output register (as the TPF reader).
DataType declared_type(RegisterFile file)
{
    switch (file) {
    case RegisterFile::input:
    case RegisterFile::output:
    case RegisterFile::input_control_point:
    case RegisterFile::output_control_point:
    case RegisterFile::patch_constant:
    case RegisterFile::tess_coord:
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le: return DataType::f32;
    default: return DataType::u32;
    }
}

int component_of(char c)
{
    switch (c) {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
    }
}

class Assembler {
public:
    Assembler(std::string_view text, vsir::Program& program, Diagnostics& diags)
        : lx_(text), p_(program), diags_(diags)
    {
    }

    bool run();

private:
    bool error(Code code, Location loc, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
    bool header();
    bool line();
    bool opcode_word(std::vector<Segment>& segments);
    bool instruction(Opcode op, const std::vector<Segment>& segments, size_t first_suffix, uint32_t line);
    bool suffixes(vsir::Instruction& ins, const std::vector<Segment>& segments, size_t first, bool& saturate);
    bool tail_tokens(vsir::Instruction& ins, const Segment& s);
    bool declaration(Opcode op, const std::vector<Segment>& segments, size_t first_suffix, uint32_t line);
    bool declaration_body(Opcode op, vsir::Declaration& d, vsir::DstParam& dst, bool& has_dst);
    bool parse_operand(Parsed& out, unsigned depth);
    bool parse_register(Parsed& out, unsigned depth);
    bool parse_index(vsir::RegisterIndex& out, unsigned depth);
    bool parse_immediate(Parsed& out, bool wide);
    bool to_src(const Parsed& in, DataType type, vsir::SrcParam& out);
    bool to_dst(const Parsed& in, DataType type, bool declaration, vsir::DstParam& out);
    bool normalise_indices(Parsed& in, bool upper);
    bool swizzle_of(const Parsed& in, uint8_t& out);
    bool mask_of(const Parsed& in, uint8_t& out);
    bool uint_value(uint32_t& out, const char* what);
    bool expect(char c);
    bool descriptor(RegisterFile file, vsir::Declaration& d, vsir::DstParam& dst);
    bool space(vsir::Declaration& d);
    bool named(const NameTable& table, uint32_t& out, const char* what);
    bool return_types(std::string_view group, DataType (&types)[4], Location loc);
    bool end_of_line();
    void type_resource_values(vsir::Instruction& ins, const tpf::OpcodeEntry& entry);

    Lexer lx_;
    vsir::Program& p_;
    Diagnostics& diags_;
    bool failed_ = false;
    std::vector<DataType> resource_types_, uav_types_;
};

bool Assembler::error(Code code, Location loc, const char* fmt, ...)
{
    if (failed_)
        return false;
    failed_ = true;
    char text[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    diags_.error(code, loc, "%s", text);
    return false;
}

bool Assembler::expect(char c)
{
    if (lx_.accept(c))
        return true;
    lx_.skip_blanks();
    char got = lx_.peek();
    return error(Code::text_syntax, lx_.location(), "expected '%c', found %s", c,
                 got == '\n' || got == '\0' ? "the end of the line" : strformat("'%c'", got).c_str());
}

bool Assembler::end_of_line()
{
    if (lx_.at_line_end())
        return true;
    return error(Code::text_syntax, lx_.location(), "unexpected '%c' at the end of the instruction", lx_.peek());
}

bool Assembler::uint_value(uint32_t& out, const char* what)
{
    Location at = (lx_.skip_blanks(), lx_.location());
    Number n;
    if (!lx_.number(n) || n.is_float || n.negative || n.magnitude > 0xffffffffull)
        return error(Code::text_bad_number, at, "expected %s (an unsigned integer)", what);
    out = uint32_t(n.magnitude);
    return true;
}

bool Assembler::header()
{
    lx_.skip_blank_lines();
    Location at = lx_.location();
    std::string_view w = lx_.word();
    static const ShaderStage stages[] = {ShaderStage::pixel, ShaderStage::vertex, ShaderStage::geometry,
                                         ShaderStage::hull, ShaderStage::domain, ShaderStage::compute};
    for (ShaderStage stage : stages) {
        std::string name = stage_short_name(stage);
        for (unsigned major = 4; major <= 5; ++major)
            for (unsigned minor = 0; minor <= 1; ++minor)
                if (w == strformat("%s_%u_%u", name.c_str(), major, minor)) {
                    p_.model = {stage, uint8_t(major), uint8_t(minor)};
                    p_.control_flow = vsir::ControlFlow::structured;
                    return end_of_line();
                }
    }
    return error(Code::text_bad_header, at, "expected a shader model line such as cs_5_0, found '%.*s'",
                 int(w.size()), w.data());
}

/// The opcode word: `name(_name)*` with paren groups glued to segments.
bool Assembler::opcode_word(std::vector<Segment>& segments)
{
    Segment seg;
    seg.location = lx_.location();
    std::string_view w = lx_.word();
    if (w.empty())
        return error(Code::text_syntax, seg.location, "expected an instruction name, found '%c'", lx_.peek());
    // Split the word at '_' into segments; groups attach to the last one.
    auto split = [&](std::string_view word, Location loc) {
        size_t start = 0;
        for (size_t i = 0; i <= word.size(); ++i)
            if (i == word.size() || word[i] == '_') {
                if (i > start) {
                    Segment s;
                    s.name = word.substr(start, i - start);
                    s.location = Location::text(loc.a, loc.b + uint32_t(start));
                    segments.push_back(s);
                }
                start = i + 1;
            }
    };
    split(w, seg.location);
    while (lx_.peek() == '(' || (lx_.peek() == '_' && is_word_start(lx_.peek_at(1)))) {
        if (lx_.peek() == '(') {
            Location at = lx_.location();
            lx_.advance();
            std::string_view group;
            if (!lx_.paren_group(group))
                return error(Code::text_syntax, at, "unterminated '('");
            if (segments.empty() || segments.back().group_count == 3)
                return error(Code::text_unknown_suffix, at, "unexpected '(' group");
            segments.back().groups[segments.back().group_count++] = group;
        } else {
            Location at = lx_.location();
            split(lx_.word(), at);
        }
    }
    return true;
}

/// The opcode with a TPF encoding named `name`, else Opcode::count: a
/// binary search in a table sorted by name, made on first use (a search
/// over every opcode's name per line was most of the assembler's time).
Opcode tpf_opcode_named(std::string_view name)
{
    static const std::vector<std::pair<std::string_view, Opcode>> by_name = [] {
        std::vector<std::pair<std::string_view, Opcode>> table;
        for (uint32_t o = 0; o < uint32_t(Opcode::count); ++o)
            if (tpf::tpf_opcode_number(Opcode(o)) != tpf::op_count)
                table.emplace_back(vsir::opcode_info(Opcode(o)).name, Opcode(o));
        std::sort(table.begin(), table.end());
        return table;
    }();
    auto it = std::lower_bound(by_name.begin(), by_name.end(), std::pair{name, Opcode(0)});
    return it != by_name.end() && it->first == name ? it->second : Opcode::count;
}

bool Assembler::line()
{
    lx_.skip_blanks();
    if (lx_.at_line_end()) {
        lx_.next_line();
        return true;
    }
    uint32_t line = lx_.line();
    Location at = lx_.location();
    std::vector<Segment> segments;
    if (!opcode_word(segments))
        return false;
    // Longest run of whole segments that names an opcode.
    Opcode op = Opcode::count;
    size_t used = 0;
    std::string name;
    for (size_t i = 0; i < segments.size(); ++i) {
        if (i)
            name += '_';
        name += segments[i].name;
        if (i && segments[i - 1].group_count)
            break;
        std::string_view candidate = name;
        if (candidate == "ldms")
            candidate = "ld2dms";
        if (candidate == "ldms_s")
            candidate = "ld2dms_s";
        if (candidate == "dcl_output_sv")
            candidate = "dcl_output_siv";
        if (candidate == "dcl_constantBuffer")
            candidate = "dcl_constantbuffer";
        if (Opcode found = tpf_opcode_named(candidate); found != Opcode::count) {
            op = found;
            used = i + 1;
        }
        if (candidate == "dcl_immediateConstantBuffer") {
            op = Opcode::dcl_immediate_constant_buffer;
            used = i + 1;
        }
    }
    if (op == Opcode::count)
        return error(Code::text_unknown_opcode, at, "unknown instruction '%s'", name.c_str());
    bool ok = vsir::opcode_info(op).kind == vsir::OpcodeKind::declaration ? declaration(op, segments, used, line)
                                                                           : instruction(op, segments, used, line);
    if (!ok)
        return false;
    if (!end_of_line())
        return false;
    lx_.next_line();
    return true;
}

bool Assembler::parse_immediate(Parsed& out, bool wide)
{
    vsir::Register& r = out.reg;
    r.file = wide ? RegisterFile::immediate64 : RegisterFile::immediate;
    Number values[4];
    unsigned count = 0;
    do {
        if (count == (wide ? 2u : 4u))
            return error(Code::text_bad_number, lx_.location(), "too many immediate values");
        Location at = (lx_.skip_blanks(), lx_.location());
        if (!lx_.number(values[count]) ||
            (!values[count].is_float && !wide && values[count].magnitude > (values[count].negative ? 0x80000000ull : 0xffffffffull)))
            return error(Code::text_bad_number, at, "expected an immediate value");
        ++count;
    } while (lx_.accept(','));
    if (!expect(')'))
        return false;
    if (count != 1 && count != (wide ? 2u : 4u))
        return error(Code::text_bad_number, out.location, "immediate with %u values (1 or %u expected)", count,
                     wide ? 2u : 4u);
    r.dimension = count == 1 ? Dimension::scalar : Dimension::vec4;
    if (wide) {
        r.u64[0] = values[0].bits64();
        r.u64[1] = count == 1 ? r.u64[0] : values[1].bits64();
    } else {
        for (unsigned i = 0; i < 4; ++i)
            r.u32[i] = values[count == 1 ? 0 : i].bits32();
    }
    return true;
}

bool Assembler::parse_index(vsir::RegisterIndex& out, unsigned depth)
{
    lx_.skip_blanks();
    char c = lx_.peek();
    if (c >= '0' && c <= '9')
        return uint_value(out.offset, "a register index");
    if (depth >= max_depth)
        return error(Code::text_too_deep, lx_.location(), "relative addresses nested more than %u deep", max_depth);
    Parsed rel;
    if (!parse_operand(rel, depth + 1))
        return false;
    vsir::SrcParam src;
    if (!to_src(rel, DataType::u32, src))
        return false;
    if (src.reg.dimension == Dimension::none || src.reg.file == RegisterFile::immediate64)
        return error(Code::text_bad_operand, rel.location, "this register cannot be a relative address");
    out.rel_addr = p_.add_src(src);
    if (lx_.accept('+'))
        return uint_value(out.offset, "an index offset");
    return true;
}

bool Assembler::parse_register(Parsed& out, unsigned depth)
{
    out.location = lx_.location();
    std::string_view w = lx_.word();
    if (w.empty())
        return error(Code::text_syntax, out.location, "expected an operand, found '%c'", lx_.peek());
    if ((w == "l" || w == "d") && lx_.peek() == '(') {
        lx_.advance();
        return parse_immediate(out, w == "d");
    }
    size_t digits = w.size();
    while (digits > 0 && w[digits - 1] >= '0' && w[digits - 1] <= '9')
        --digits;
    std::string_view prefix = w.substr(0, digits);
    bool upper = false;
    vsir::Register& r = out.reg;
    if (!file_of_prefix(prefix, r.file, upper) && !(digits < w.size() && file_of_prefix(w, r.file, upper)))
        return error(Code::text_unknown_register, out.location, "unknown register '%.*s'", int(w.size()), w.data());
    if (digits < w.size()) {
        std::string_view num = w.substr(digits);
        uint64_t v = 0;
        for (char ch : num) {
            v = v * 10 + unsigned(ch - '0');
            if (v > 0xffffffffull)
                return error(Code::text_bad_number, out.location, "register index out of range");
        }
        r.idx[r.index_count++].offset = uint32_t(v);
    }
    while (lx_.peek() == '[') {
        lx_.advance();
        if (r.index_count == 3)
            return error(Code::text_bad_index_count, out.location, "more than 3 register indices");
        if (!parse_index(r.idx[r.index_count++], depth) || !expect(']'))
            return false;
    }
    if (lx_.peek() == '.') {
        lx_.advance();
        std::string_view sel = lx_.word();
        if (sel.empty() || sel.size() > 4)
            return error(Code::text_bad_swizzle, out.location, "invalid swizzle '.%.*s'", int(sel.size()), sel.data());
        out.selection = sel;
    }
    return normalise_indices(out, upper);
}

/// Descriptors into the SM5.1 form (VSIR.md convention 3); index counts.
bool Assembler::normalise_indices(Parsed& in, bool upper)
{
    vsir::Register& r = in.reg;
    unsigned lo = 0, hi = 0;
    switch (r.file) {
    case RegisterFile::resource:
    case RegisterFile::uav:
    case RegisterFile::sampler:
    case RegisterFile::constant_buffer: {
        bool cb = r.file == RegisterFile::constant_buffer;
        unsigned want = (cb ? 2 : 1) + (upper ? 1 : 0);
        if (r.index_count != want)
            return error(Code::text_bad_index_count, in.location, "%s register with %u indices (%u expected)",
                         vsir::register_prefix(r.file), r.index_count, want);
        if (!upper) {
            if (cb)
                r.idx[2] = r.idx[1];
            r.idx[1] = r.idx[0];
            r.idx[0].rel_addr = vsir::invalid_index;
            r.index_count = uint8_t(want + 1);
        }
        return true;
    }
    case RegisterFile::temp:
    case RegisterFile::immediate_constant_buffer:
    case RegisterFile::groupshared:
    case RegisterFile::label:
    case RegisterFile::stream:
    case RegisterFile::patch_constant: lo = hi = 1; break;
    case RegisterFile::input:
    case RegisterFile::output: lo = 1, hi = 2; break;
    case RegisterFile::indexable_temp:
    case RegisterFile::input_control_point:
    case RegisterFile::output_control_point: lo = hi = 2; break;
    default: lo = hi = 0; break;
    }
    if (r.index_count < lo || r.index_count > hi)
        return error(Code::text_bad_index_count, in.location, "%s register with %u indices", vsir::register_prefix(r.file),
                     r.index_count);
    return true;
}

bool Assembler::parse_operand(Parsed& out, unsigned depth)
{
    lx_.skip_blanks();
    out = Parsed{};
    bool neg = false, abs = false;
    if (lx_.peek() == '-') {
        neg = true;
        lx_.advance();
    }
    if (lx_.peek() == '~') {
        lx_.advance();
        out.modifier = vsir::SrcModifier::bitwise_not;
    }
    if (lx_.peek() == '|') {
        abs = true;
        lx_.advance();
    }
    lx_.skip_blanks();
    if (!parse_register(out, depth))
        return false;
    if (abs && !expect('|'))
        return false;
    if (out.modifier != vsir::SrcModifier::bitwise_not)
        out.modifier = neg && abs ? vsir::SrcModifier::abs_neg : neg ? vsir::SrcModifier::neg
                       : abs ? vsir::SrcModifier::abs : vsir::SrcModifier::none;
    for (;;) {
        lx_.skip_blanks();
        if (lx_.peek() != '{')
            return true;
        lx_.advance();
        lx_.skip_blanks();
        Location at = lx_.location();
        std::string_view w = lx_.word();
        uint32_t precision = 0;
        if (w == "nonuniform")
            out.reg.flags |= vsir::register_non_uniform;
        else if (w == "ext")
            out.token_flags |= vsir::token_empty_modifier;
        else if (form_of_annotation(w, out.form))
            ;
        else if (min_precision_names.value_of(w, precision))
            out.reg.precision = MinPrecision(precision);
        else
            return error(Code::text_syntax, at, "unknown operand annotation '%.*s'", int(w.size()), w.data());
        if (!expect('}'))
            return false;
    }
}

bool Assembler::swizzle_of(const Parsed& in, uint8_t& out)
{
    unsigned comps[4];
    size_t n = in.selection.size();
    for (size_t i = 0; i < n; ++i) {
        int c = component_of(in.selection[i]);
        if (c < 0)
            return error(Code::text_bad_swizzle, in.location, "invalid swizzle '.%.*s'", int(n), in.selection.data());
        comps[i] = unsigned(c);
    }
    for (size_t i = n; i < 4; ++i)
        comps[i] = comps[n - 1];
    out = vsir::make_swizzle(comps[0], comps[1], comps[2], comps[3]);
    return true;
}

bool Assembler::mask_of(const Parsed& in, uint8_t& out)
{
    out = 0;
    int last = -1;
    for (char ch : in.selection) {
        int c = component_of(ch);
        if (c <= last)
            return error(Code::text_bad_swizzle, in.location, "invalid write mask '.%.*s'", int(in.selection.size()),
                         in.selection.data());
        last = c;
        out |= uint8_t(1u << c);
    }
    return true;
}

bool Assembler::to_src(const Parsed& in, DataType type, vsir::SrcParam& out)
{
    using vsir::OperandForm;
    out = vsir::SrcParam{};
    out.reg = in.reg;
    out.modifier = in.modifier;
    out.token_flags = in.token_flags;
    vsir::Register& r = out.reg;
    size_t letters = in.selection.size();
    out.form = in.form != OperandForm::unspecified ? in.form
               : letters == 1                      ? OperandForm::select
               : letters                           ? OperandForm::swizzle
                                                   : OperandForm::unspecified;
    if (out.form == OperandForm::mask && letters) {
        // A source encoded in mask form reads the mask's components in order.
        if (!mask_of(in, out.form_mask))
            return false;
        unsigned comps[4], n = 0;
        for (unsigned c = 0; c < 4; ++c)
            if (out.form_mask & (1u << c))
                comps[n++] = c;
        for (; n < 4; ++n)
            comps[n] = comps[n - 1];
        out.swizzle = vsir::make_swizzle(comps[0], comps[1], comps[2], comps[3]);
        letters = 0;
    }
    auto selection = [&](uint8_t fallback) {
        if (!letters) {
            if (out.form != OperandForm::mask)
                out.swizzle = fallback;
            return true;
        }
        return swizzle_of(in, out.swizzle);
    };
    if (r.file == RegisterFile::immediate || r.file == RegisterFile::immediate64) {
        if (letters)
            return error(Code::text_bad_swizzle, in.location, "immediates take no swizzle");
        r.type = type;
        out.swizzle = r.dimension == Dimension::scalar ? 0 : vsir::swizzle_identity;
        return true;
    }
    if (is_opaque(r.file)) {
        r.type = DataType::opaque;
        r.dimension = Dimension::none;
        return selection(0);
    }
    r.type = type;
    if (is_scalar_file(r.file)) {
        r.dimension = Dimension::scalar;
        out.swizzle = 0;
        return true;
    }
    if (r.file == RegisterFile::null && !letters && out.form != OperandForm::mask) {
        r.dimension = Dimension::none;
        out.swizzle = 0;
        return true;
    }
    r.dimension = Dimension::vec4;
    return selection(vsir::swizzle_identity);
}

bool Assembler::to_dst(const Parsed& in, DataType type, bool declaration, vsir::DstParam& out)
{
    out = vsir::DstParam{};
    out.reg = in.reg;
    vsir::Register& r = out.reg;
    switch (r.file) {
    case RegisterFile::immediate:
    case RegisterFile::immediate64:
    case RegisterFile::constant_buffer:
    case RegisterFile::immediate_constant_buffer:
    case RegisterFile::resource:
    case RegisterFile::sampler:
    case RegisterFile::label:
        return error(Code::text_bad_operand, in.location, "%s cannot be a destination", vsir::register_prefix(r.file));
    default: break;
    }
    if (in.modifier != vsir::SrcModifier::none)
        return error(Code::text_bad_operand, in.location, "destinations take no source modifier");
    out.token_flags = in.token_flags;
    out.form = in.form != vsir::OperandForm::unspecified ? in.form
               : in.selection.empty()                   ? vsir::OperandForm::unspecified
                                                        : vsir::OperandForm::mask;
    if (is_opaque(r.file)) {
        r.type = DataType::opaque;
        r.dimension = Dimension::none;
        return mask_of(in, out.write_mask);
    }
    r.type = type;
    if (is_scalar_file(r.file)) {
        r.dimension = Dimension::scalar;
        out.write_mask = 1;
        return true;
    }
    if (r.file == RegisterFile::null && in.selection.empty()) {
        r.dimension = Dimension::none;
        return true;
    }
    r.dimension = Dimension::vec4;
    if (in.selection.empty()) {
        out.write_mask = declaration ? 0 : 0xf;
        return true;
    }
    return mask_of(in, out.write_mask);
}

bool Assembler::return_types(std::string_view group, DataType (&types)[4], Location loc)
{
    unsigned n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= group.size(); ++i)
        if (i == group.size() || group[i] == ',') {
            std::string_view name = group.substr(start, i - start);
            while (!name.empty() && name.front() == ' ')
                name.remove_prefix(1);
            while (!name.empty() && name.back() == ' ')
                name.remove_suffix(1);
            uint32_t value = 0;
            if (n == 4 || !return_type_names.value_of(name, value))
                return error(Code::text_bad_declaration, loc, "invalid return types '(%.*s)'", int(group.size()),
                             group.data());
            types[n++] = DataType(value);
            start = i + 1;
        }
    if (n != 4)
        return error(Code::text_bad_declaration, loc, "expected 4 return types in '(%.*s)'", int(group.size()),
                     group.data());
    return true;
}

/// `_tail(0x0,...)`: tokens the instruction carries after its last operand.
bool Assembler::tail_tokens(vsir::Instruction& ins, const Segment& s)
{
    std::string g(s.groups[0]);
    ins.tail_first = uint32_t(p_.u32_pool.size());
    ins.tail_count = 0;
    const char* c = g.c_str();
    for (;;) {
        char* end = nullptr;
        while (*c == ' ')
            ++c;
        unsigned long long v = std::strtoull(c, &end, 0);
        if (end == c || v > 0xffffffffull || ins.tail_count == 0xff)
            return error(Code::text_unknown_suffix, s.location, "invalid tail tokens '(%s)'", g.c_str());
        p_.u32_pool.push_back(uint32_t(v));
        ++ins.tail_count;
        c = end;
        while (*c == ' ')
            ++c;
        if (!*c)
            return true;
        if (*c++ != ',')
            return error(Code::text_unknown_suffix, s.location, "invalid tail tokens '(%s)'", g.c_str());
    }
}

bool Assembler::suffixes(vsir::Instruction& ins, const std::vector<Segment>& in_segments, size_t first, bool& saturate)
{
    // fxc writes `_aoffimmi_indexable(offsets)(dimension)(types)`: give each
    // group-less `aoffimmi`/`indexable` segment the next groups in order.
    std::vector<Segment> segments = in_segments;
    for (size_t i = first; i + 1 < segments.size(); ++i) {
        Segment& s = segments[i];
        Segment& next = segments[i + 1];
        if (s.group_count || (s.name != "aoffimmi" && s.name != "indexable") || next.group_count < 2)
            continue;
        s.groups[0] = next.groups[0];
        s.group_count = 1;
        for (unsigned g = 1; g < next.group_count; ++g)
            next.groups[g - 1] = next.groups[g];
        --next.group_count;
    }
    for (size_t i = first; i < segments.size(); ++i) {
        const Segment& s = segments[i];
        unsigned groups_used = 0;
        Opcode op = ins.opcode;
        if (s.name == "sat") {
            saturate = true;
        } else if ((s.name == "nz" || s.name == "z") && tests_condition(op)) {
            ins.flags = s.name == "nz" ? ins.flags | vsir::flag_test_nonzero : ins.flags & ~uint32_t(vsir::flag_test_nonzero);
        } else if (op == Opcode::sync && (s.name == "uglobal" || s.name == "ugroup" || s.name == "g" || s.name == "t")) {
            ins.flags |= s.name == "uglobal" ? vsir::flag_sync_uav_global : s.name == "ugroup" ? vsir::flag_sync_uav_group
                         : s.name == "g" ? vsir::flag_sync_tgsm : vsir::flag_sync_thread_group;
        } else if (s.name == "uint" && (op == Opcode::resinfo || op == Opcode::sampleinfo)) {
            ins.flags |= vsir::flag_resinfo_uint;
        } else if (s.name == "rcpFloat" && op == Opcode::resinfo) {
            ins.flags |= vsir::flag_resinfo_rcp_float;
        } else if (s.name == "precise" && s.group_count) {
            groups_used = 1;
            for (char ch : s.groups[0]) {
                int c = component_of(ch);
                if (c < 0)
                    return error(Code::text_unknown_suffix, s.location, "invalid precise mask");
                ins.flags |= vsir::flag_precise_x << c;
            }
        } else if (s.name == "aoffimmi" && s.group_count) {
            groups_used = 1;
            int v[3] = {0, 0, 0};
            if (std::sscanf(std::string(s.groups[0]).c_str(), "%d ,%d ,%d", &v[0], &v[1], &v[2]) != 3 ||
                v[0] < -8 || v[0] > 7 || v[1] < -8 || v[1] > 7 || v[2] < -8 || v[2] > 7)
                return error(Code::text_unknown_suffix, s.location, "invalid texel offset '(%.*s)'",
                             int(s.groups[0].size()), s.groups[0].data());
            for (unsigned c = 0; c < 3; ++c)
                ins.texel_offset[c] = int8_t(v[c]);
        } else if (s.name == "indexable" && s.group_count) {
            groups_used = 1;
            std::string g(s.groups[0]);
            size_t comma = g.find(',');
            std::string dim = g.substr(0, comma);
            uint32_t value = 0;
            unsigned stride = 0;
            if (!resource_dimension_names.value_of(dim, value) ||
                (comma != std::string::npos && std::sscanf(g.c_str() + comma + 1, " stride=%u", &stride) != 1) ||
                stride >= 4096)
                return error(Code::text_unknown_suffix, s.location, "invalid resource '(%s)'", g.c_str());
            ins.resource_dimension = vsir::ResourceDimension(value);
            ins.resource_stride = stride;
        } else if (s.name == "tail" && s.group_count) {
            groups_used = 1;
            if (!tail_tokens(ins, s))
                return false;
        } else if (!s.name.empty()) {
            return error(Code::text_unknown_suffix, s.location, "unknown suffix '_%.*s' of %s", int(s.name.size()),
                         s.name.data(), vsir::opcode_info(op).name);
        }
        if (s.group_count > groups_used + 1)
            return error(Code::text_unknown_suffix, s.location, "unexpected '(' group");
        if (s.group_count == groups_used + 1 && !return_types(s.groups[groups_used], ins.resource_type, s.location))
            return false;
    }
    return true;
}

void Assembler::type_resource_values(vsir::Instruction& ins, const tpf::OpcodeEntry& entry)
{
    const vsir::Register* resource = nullptr;
    for (const vsir::SrcParam& src : p_.srcs_of(ins))
        if (!resource && (src.reg.file == RegisterFile::resource || src.reg.file == RegisterFile::uav))
            resource = &src.reg;
    for (const vsir::DstParam& dst : p_.dsts_of(ins))
        if (!resource && dst.reg.file == RegisterFile::uav)
            resource = &dst.reg;
    DataType type = DataType::f32;
    if (resource) {
        const auto& types = resource->file == RegisterFile::uav ? uav_types_ : resource_types_;
        if (resource->idx[0].offset < types.size())
            type = types[resource->idx[0].offset];
    }
    for (uint32_t i = 0; i < ins.dst_count; ++i)
        if (entry.dst[i] == tpf::Slot::value)
            p_.dst(ins, i).reg.type = type;
    for (uint32_t i = 0; i < ins.src_count; ++i)
        if (entry.src[i] == tpf::Slot::value)
            p_.src(ins, i).reg.type = type;
}

bool Assembler::instruction(Opcode op, const std::vector<Segment>& segments, size_t first_suffix, uint32_t line)
{
    const tpf::OpcodeEntry& entry = tpf::opcode_entry_of(op);
    vsir::Instruction proto;
    proto.opcode = op;
    if (tests_condition(op))
        proto.flags |= vsir::flag_test_nonzero;
    bool saturate = false;
    if (!suffixes(proto, segments, first_suffix, saturate))
        return false;
    std::vector<Parsed> operands;
    lx_.skip_blanks();
    Location at = lx_.location();
    if (!lx_.at_line_end()) {
        do {
            Parsed parsed;
            if (!parse_operand(parsed, 0))
                return false;
            operands.push_back(parsed);
        } while (lx_.accept(','));
        if (!end_of_line())
            return false;
    }
    if (operands.size() != size_t(entry.dst_count) + entry.src_count)
        return error(Code::text_operand_count, at, "%s takes %u operands, found %zu", vsir::opcode_info(op).name,
                     entry.dst_count + entry.src_count, operands.size());
    std::vector<vsir::DstParam> dsts(entry.dst_count);
    std::vector<vsir::SrcParam> srcs(entry.src_count);
    for (size_t i = 0; i < operands.size(); ++i) {
        bool is_dst = i < entry.dst_count;
        tpf::Slot slot = is_dst ? entry.dst[i] : entry.src[i - entry.dst_count];
        if ((slot == tpf::Slot::any) != is_opaque(operands[i].reg.file))
            return error(Code::text_bad_operand, operands[i].location, "register file %s not allowed in operand %zu of %s",
                         vsir::register_prefix(operands[i].reg.file), i + 1, vsir::opcode_info(op).name);
        DataType type = tpf::slot_type(slot);
        if (is_dst ? !to_dst(operands[i], type, false, dsts[i]) : !to_src(operands[i], type, srcs[i - entry.dst_count]))
            return false;
        if (is_dst && saturate)
            dsts[i].modifiers |= vsir::dst_saturate;
    }
    uint32_t index = p_.add_instruction(op, entry.dst_count, entry.src_count, line);
    vsir::Instruction& ins = p_.instructions[index];
    uint32_t dst_first = ins.dst_first, src_first = ins.src_first;
    ins = proto;
    ins.dst_count = entry.dst_count;
    ins.src_count = entry.src_count;
    ins.dst_first = dst_first;
    ins.src_first = src_first;
    ins.location = line;
    for (size_t i = 0; i < dsts.size(); ++i)
        p_.dsts[dst_first + i] = dsts[i];
    for (size_t i = 0; i < srcs.size(); ++i)
        p_.srcs[src_first + i] = srcs[i];
    if ((ins.flags & vsir::flag_resinfo_uint) && ins.dst_count)
        p_.dst(ins, 0).reg.type = DataType::u32;
    type_resource_values(ins, entry);
    if (op == Opcode::case_ && p_.src(ins, 0).reg.file != RegisterFile::immediate)
        return error(Code::text_bad_operand, operands[0].location, "case value is not an immediate");
    if (op == Opcode::label || op == Opcode::call || op == Opcode::callc) {
        const vsir::SrcParam& label = p_.src(ins, op == Opcode::callc ? 1 : 0);
        if (label.reg.file != RegisterFile::label)
            return error(Code::text_bad_operand, operands.back().location, "%s without a label operand",
                         vsir::opcode_info(op).name);
        if (label.reg.idx[0].offset >= p_.label_count)
            p_.label_count = label.reg.idx[0].offset + 1;
    }
    return true;
}

bool Assembler::named(const NameTable& table, uint32_t& out, const char* what)
{
    lx_.skip_blanks();
    Location at = lx_.location();
    char c = lx_.peek();
    if (c >= '0' && c <= '9')
        return uint_value(out, what);
    std::string_view w = lx_.word();
    if (!table.value_of(w, out))
        return error(Code::text_bad_declaration, at, "unknown %s '%.*s'", what, int(w.size()), w.data());
    return true;
}

bool Assembler::space(vsir::Declaration& d)
{
    if (!lx_.accept(','))
        return true;
    lx_.skip_blanks();
    Location at = lx_.location();
    if (lx_.word() != "space" || !expect('='))
        return error(Code::text_syntax, at, "expected space=N");
    return uint_value(d.space, "a register space");
}

/// `t0`, `cb0[16]` (SM <= 5.0) or `T1[3:10]`, `CB0[0:0][16]` (SM5.1; `*` unbounded).
bool Assembler::descriptor(RegisterFile file, vsir::Declaration& d, vsir::DstParam& dst)
{
    lx_.skip_blanks();
    Location at = lx_.location();
    std::string_view w = lx_.word();
    size_t digits = w.size();
    while (digits > 0 && w[digits - 1] >= '0' && w[digits - 1] <= '9')
        --digits;
    RegisterFile got = RegisterFile::null;
    bool upper = false;
    if (digits == w.size() || !file_of_prefix(w.substr(0, digits), got, upper) || got != file)
        return error(Code::text_bad_declaration, at, "expected a %s register, found '%.*s'", vsir::register_prefix(file),
                     int(w.size()), w.data());
    uint32_t id = uint32_t(std::strtoul(std::string(w.substr(digits)).c_str(), nullptr, 10));
    d.index = id;
    d.range_first = d.range_last = id;
    // Newer fxc releases spell SM4/5.0 constant buffer declarations `CB0[4]`.
    if (upper && !(p_.model.major == 5 && p_.model.minor == 1))
        upper = false;
    if (upper) {
        if (!expect('[') || !uint_value(d.range_first, "the range start") || !expect(':'))
            return false;
        if (lx_.accept('*'))
            d.range_last = ~0u;
        else if (!uint_value(d.range_last, "the range end"))
            return false;
        if (!expect(']'))
            return false;
    }
    if (file == RegisterFile::constant_buffer) {
        uint32_t size = 0;
        if (!expect('[') || !uint_value(size, "the constant buffer size") || !expect(']'))
            return false;
        d.count = size;
        d.byte_count = size * 16;
    }
    dst.reg = vsir::make_register(file, DataType::opaque, Dimension::none, {&id, 1});
    dst.write_mask = 0;
    lx_.skip_blanks();
    if (lx_.peek() == '{') {
        lx_.advance();
        lx_.skip_blanks();
        Location where = lx_.location();
        if (!form_of_annotation(lx_.word(), dst.form))
            return error(Code::text_syntax, where, "expected a token form annotation ({c0}, {c1}, {swz} ...)");
        return expect('}');
    }
    return true;
}

bool Assembler::declaration_body(Opcode op, vsir::Declaration& d, vsir::DstParam& dst, bool& has_dst)
{
    auto reg_dst = [&](DataType type) {
        Parsed parsed;
        if (!parse_operand(parsed, 0))
            return false;
        if (is_descriptor(parsed.reg.file) || parsed.reg.file == RegisterFile::immediate ||
            parsed.reg.file == RegisterFile::immediate64 || parsed.reg.file == RegisterFile::temp)
            return error(Code::text_bad_declaration, parsed.location, "register file %s not allowed in %s",
                         vsir::register_prefix(parsed.reg.file), vsir::opcode_info(op).name);
        has_dst = true;
        return to_dst(parsed, type == DataType::none ? declared_type(parsed.reg.file) : type, true, dst);
    };
    auto system_value = [&] {
        if (!expect(',') || !named(system_value_names, d.value, "system value"))
            return false;
        return system_value_of_name(d.value, d.system_value) ||
               error(Code::text_bad_declaration, lx_.location(), "unknown system value %u", d.value);
    };
    auto interpolation = [&] {
        std::string words;
        for (;;) {
            lx_.skip_blanks();
            size_t n = 0;
            static const char* const keys[] = {"constant", "linear", "noperspective", "centroid", "sample"};
            bool found = false;
            for (const char* k : keys) {
                n = std::strlen(k);
                bool match = true;
                for (size_t i = 0; i < n && match; ++i)
                    match = lx_.peek_at(i) == k[i];
                if (match && !is_word_char(lx_.peek_at(n))) {
                    if (!words.empty())
                        words += ' ';
                    words += lx_.word();
                    found = true;
                    break;
                }
            }
            if (!found)
                break;
        }
        uint32_t mode = 0;
        if (!words.empty() && !interpolation_names.value_of(words, mode))
            return error(Code::text_bad_declaration, lx_.location(), "unknown interpolation '%s'", words.c_str());
        d.interpolation = vsir::InterpolationMode(mode);
        return true;
    };
    switch (op) {
    case Opcode::dcl_global_flags: {
        do {
            lx_.skip_blanks();
            uint32_t bit = 0;
            if (!named(global_flag_names, bit, "global flag"))
                return false;
            d.value |= bit;
        } while (lx_.accept('|'));
        return true;
    }
    case Opcode::dcl_temps:
        if (!uint_value(d.count, "a temp count"))
            return false;
        p_.temp_count = d.count > p_.temp_count ? d.count : p_.temp_count;
        return true;
    case Opcode::dcl_max_output_vertex_count:
    case Opcode::dcl_gs_instances:
    case Opcode::dcl_input_control_point_count:
    case Opcode::dcl_output_control_point_count:
    case Opcode::dcl_hs_fork_phase_instance_count:
    case Opcode::dcl_hs_join_phase_instance_count: return uint_value(d.count, "a count");
    case Opcode::dcl_indexable_temp: {
        lx_.skip_blanks();
        Location at = lx_.location();
        std::string_view w = lx_.word();
        if (w.size() < 2 || w[0] != 'x')
            return error(Code::text_bad_declaration, at, "expected x#");
        d.index = uint32_t(std::strtoul(std::string(w.substr(1)).c_str(), nullptr, 10));
        return expect('[') && uint_value(d.count, "an element count") && expect(']') && expect(',') &&
               uint_value(d.component_count, "a component count");
    }
    case Opcode::dcl_constant_buffer: {
        if (!descriptor(RegisterFile::constant_buffer, d, dst) || !expect(','))
            return false;
        has_dst = true;
        lx_.skip_blanks();
        Location at = lx_.location();
        std::string_view w = lx_.word();
        if (w == "dynamicIndexed") {
            d.value = 1;
            d.count = 0;
        } else if (w != "immediateIndexed") {
            return error(Code::text_bad_declaration, at, "expected immediateIndexed or dynamicIndexed");
        }
        return space(d);
    }
    case Opcode::dcl_sampler:
        has_dst = true;
        return descriptor(RegisterFile::sampler, d, dst) && expect(',') && named(sampler_mode_names, d.value, "sampler mode") &&
               space(d);
    case Opcode::dcl_resource:
    case Opcode::dcl_uav_typed: {
        lx_.skip_blanks();
        Location at = lx_.location();
        if (!expect('('))
            return false;
        std::string_view group;
        if (!lx_.paren_group(group) || !return_types(group, d.return_type, at))
            return false;
        RegisterFile file = op == Opcode::dcl_resource ? RegisterFile::resource : RegisterFile::uav;
        has_dst = true;
        if (!descriptor(file, d, dst) || !space(d))
            return false;
        auto& types = file == RegisterFile::uav ? uav_types_ : resource_types_;
        if (d.index < (1u << 16)) {
            if (types.size() <= d.index)
                types.resize(d.index + 1, DataType::f32);
            types[d.index] = tpf::value_type_of_return_type(d.return_type[0]);
        }
        return true;
    }
    case Opcode::dcl_resource_raw:
    case Opcode::dcl_uav_raw:
        has_dst = true;
        d.dimension = vsir::ResourceDimension::raw_buffer;
        return descriptor(op == Opcode::dcl_uav_raw ? RegisterFile::uav : RegisterFile::resource, d, dst) && space(d);
    case Opcode::dcl_resource_structured:
    case Opcode::dcl_uav_structured:
        has_dst = true;
        d.dimension = vsir::ResourceDimension::structured_buffer;
        return descriptor(op == Opcode::dcl_uav_structured ? RegisterFile::uav : RegisterFile::resource, d, dst) &&
               expect(',') && uint_value(d.structure_stride, "a stride") && space(d);
    case Opcode::dcl_tgsm_raw:
    case Opcode::dcl_tgsm_structured:
    case Opcode::dcl_stream: {
        lx_.skip_blanks();
        Location at = lx_.location();
        if (!reg_dst(DataType::opaque))
            return false;
        RegisterFile want = op == Opcode::dcl_stream ? RegisterFile::stream : RegisterFile::groupshared;
        if (dst.reg.file != want)
            return error(Code::text_bad_declaration, at, "expected a %s register", vsir::register_prefix(want));
        d.index = dst.reg.idx[0].offset;
        if (op == Opcode::dcl_tgsm_raw)
            return expect(',') && uint_value(d.byte_count, "a byte count");
        if (op == Opcode::dcl_tgsm_structured)
            return expect(',') && uint_value(d.structure_stride, "a stride") && expect(',') &&
                   uint_value(d.count, "a structure count");
        return true;
    }
    case Opcode::dcl_input:
    case Opcode::dcl_output: return reg_dst(DataType::none);
    case Opcode::dcl_input_sgv:
    case Opcode::dcl_input_siv:
    case Opcode::dcl_output_sgv:
    case Opcode::dcl_output_siv: return reg_dst(DataType::none) && system_value();
    case Opcode::dcl_input_ps: return interpolation() && reg_dst(DataType::none);
    case Opcode::dcl_input_ps_sgv:
    case Opcode::dcl_input_ps_siv: return interpolation() && reg_dst(DataType::none) && system_value();
    case Opcode::dcl_index_range: return reg_dst(DataType::none) && expect(',') && uint_value(d.count, "a register count");
    case Opcode::dcl_thread_group:
        return uint_value(d.thread_group[0], "a thread group size") && expect(',') &&
               uint_value(d.thread_group[1], "a thread group size") && expect(',') &&
               uint_value(d.thread_group[2], "a thread group size");
    case Opcode::dcl_gs_input_primitive: {
        lx_.skip_blanks();
        if (lx_.peek() == 'p' && lx_.peek_at(1) == 'a') {
            Location at = lx_.location();
            std::string_view w = lx_.word();
            unsigned n = 0;
            if (std::sscanf(std::string(w).c_str(), "patch%u", &n) != 1 || n < 1 || n > 32)
                return error(Code::text_bad_declaration, at, "invalid primitive '%.*s'", int(w.size()), w.data());
            d.value = n + 7;
            return true;
        }
        return named(primitive_names, d.value, "input primitive");
    }
    case Opcode::dcl_gs_output_topology: return named(topology_names, d.value, "output topology");
    case Opcode::dcl_tessellator_domain: return named(domain_names, d.value, "tessellator domain");
    case Opcode::dcl_tessellator_partitioning: return named(partitioning_names, d.value, "partitioning");
    case Opcode::dcl_tessellator_output_primitive: return named(output_primitive_names, d.value, "output primitive");
    case Opcode::dcl_hs_max_tessfactor: {
        Parsed parsed;
        if (!parse_operand(parsed, 0))
            return false;
        if (parsed.reg.file != RegisterFile::immediate || parsed.reg.dimension != Dimension::scalar)
            return error(Code::text_bad_declaration, parsed.location, "expected l(value)");
        std::memcpy(&d.float_value, &parsed.reg.u32[0], 4);
        return true;
    }
    default:
        return error(Code::text_unknown_opcode, lx_.location(), "%s is not supported", vsir::opcode_info(op).name);
    }
}

bool Assembler::declaration(Opcode op, const std::vector<Segment>& segments, size_t first, uint32_t line)
{
    vsir::Declaration d;
    vsir::DstParam dst;
    bool has_dst = false;
    for (size_t i = first; i < segments.size(); ++i) {
        const Segment& s = segments[i];
        uint32_t value = 0;
        bool uav = op == Opcode::dcl_uav_typed || op == Opcode::dcl_uav_raw || op == Opcode::dcl_uav_structured;
        if ((op == Opcode::dcl_resource || op == Opcode::dcl_uav_typed) && i == first &&
            resource_dimension_names.value_of(s.name, value)) {
            d.dimension = vsir::ResourceDimension(value);
            if (s.group_count == 1 && op == Opcode::dcl_resource) {
                d.sample_count = uint32_t(std::strtoul(std::string(s.groups[0]).c_str(), nullptr, 10));
                continue;
            }
        } else if (uav && s.name == "glc") {
            d.value |= vsir::uav_globally_coherent;
        } else if (uav && s.name == "rov") {
            d.value |= vsir::uav_rasterizer_ordered;
        } else if (op == Opcode::dcl_uav_structured && s.name == "opc") {
            d.value |= vsir::uav_has_counter;
        } else {
            return error(Code::text_unknown_suffix, s.location, "unknown suffix '_%.*s' of %s", int(s.name.size()),
                         s.name.data(), vsir::opcode_info(op).name);
        }
        if (s.group_count)
            return error(Code::text_unknown_suffix, s.location, "unexpected '(' group");
    }
    if (op == Opcode::dcl_immediate_constant_buffer) {
        d.data_first = uint32_t(p_.u32_pool.size());
        if (!expect('{'))
            return false;
        lx_.skip_blank_lines();
        while (lx_.peek() == '{') {
            lx_.advance();
            for (unsigned c = 0; c < 4; ++c) {
                Number n;
                lx_.skip_blank_lines();
                Location at = lx_.location();
                if ((c && !expect(',')) || (lx_.skip_blank_lines(), !lx_.number(n)))
                    return failed_ ? false : error(Code::text_bad_number, at, "expected an immediate constant buffer value");
                p_.u32_pool.push_back(n.bits32());
            }
            if (!expect('}'))
                return false;
            lx_.skip_blank_lines();
            if (lx_.peek() == ',') {
                lx_.advance();
                lx_.skip_blank_lines();
            }
        }
        if (!expect('}'))
            return false;
        d.data_count = uint32_t(p_.u32_pool.size()) - d.data_first;
        d.count = d.data_count / 4;
    } else if (!declaration_body(op, d, dst, has_dst)) {
        return false;
    }
    uint32_t dst_count = uint32_t(vsir::opcode_info(op).dst_count);
    uint32_t index = p_.add_instruction(op, dst_count, 0, line);
    if (dst_count) {
        if (!has_dst)
            return error(Code::text_bad_declaration, lx_.location(), "%s without a register", vsir::opcode_info(op).name);
        p_.dsts[p_.instructions[index].dst_first] = dst;
    }
    p_.add_declaration(index) = d;
    return true;
}

bool Assembler::run()
{
    if (!header())
        return false;
    lx_.next_line();
    while (!lx_.at_end())
        if (!line())
            return false;
    return true;
}

} // namespace

bool assemble(std::string_view text, vsir::Program& out, Diagnostics& diags)
{
    if (!parse_signatures(text, out, diags))
        return false;
    return Assembler(text, out, diags).run();
}

} // namespace dxspv::text
