// The pipeline: bytes → container → front end → VSIR → passes → SPIR-V.
// Read translate() top to bottom; each step is one call.
#include "api/translate.h"

#include <cstring>

#include "api/dxil_program.h"
#include "api/dxil_source.h"
#include "api/tpf_program.h"
#include "cfg/structurize.h"
#include "container/checksum.h"
#include "container/container.h"
#include "container/signature.h"
#include "spirv/emit.h"
#include "text/assembler.h"
#include "text/disassembler.h"
#include "tpf/writer.h"
#include "spirv/tools.h"
#include "vsir/pass.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

namespace dxspv::api {

namespace {

/// The structurize pass; with `stats`, also reports cfg::StructurizeStats
/// as warning cfg_stats (shader-translate --stats).
bool structurize_program(vsir::Program& program, Diagnostics& diags, bool stats, bool validate)
{
    if (!stats)
        return vsir::run_pass(program, diags, "structurize", cfg::structurize, validate);
    cfg::StructurizeStats s;
    if (!cfg::structurize(program, diags, s))
        return false;
    diags.warning(Code::cfg_stats, Location::none(),
                  "trampolines: %u, loops: %u, selections: %u, switches: %u, multilevel jumps: %u, blocks: %u",
                  s.trampolines, s.loops, s.selections, s.switches, s.multilevel_jumps, s.blocks);
    return !(validate || vsir::validation_forced()) || vsir::validate_program(program, diags, "structurize");
}

constexpr dxspv_source_type source_types[] = {DXSPV_SOURCE_TYPE_DXBC_TPF, DXSPV_SOURCE_TYPE_D3D_ASM,
                                              DXSPV_SOURCE_TYPE_DXBC_DXIL, DXSPV_SOURCE_TYPE_DXIL_LL};
constexpr dxspv_target_type tpf_targets[] = {DXSPV_TARGET_TYPE_SPIRV_BINARY, DXSPV_TARGET_TYPE_SPIRV_TEXT,
                                             DXSPV_TARGET_TYPE_VSIR_TEXT, DXSPV_TARGET_TYPE_D3D_ASM,
                                             DXSPV_TARGET_TYPE_DXBC_TPF};

spirv::TargetEnv target_env(dxspv_spirv_environment env)
{
    switch (env) {
    case DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_0: return spirv::TargetEnv::vulkan1_0;
    case DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_2: return spirv::TargetEnv::vulkan1_2;
    case DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_3: return spirv::TargetEnv::vulkan1_3;
    default: return spirv::TargetEnv::vulkan1_1;
    }
}

bool read_source(const Source& source, const Request& req, vsir::Program& program, Diagnostics& diags)
{
    switch (source.type) {
    case DXSPV_SOURCE_TYPE_DXBC_TPF:
        return source.parsed && source.quiet ? read_dxbc_tpf(source.container, program, diags)
                                             : read_dxbc_tpf(req.source, program, diags);
    case DXSPV_SOURCE_TYPE_D3D_ASM: {
        std::string_view text(reinterpret_cast<const char*>(req.source.data()), req.source.size());
        if (!text.empty() && text.back() == '\0')
            text.remove_suffix(1);
        return text::assemble(text, program, diags);
    }
    case DXSPV_SOURCE_TYPE_DXBC_DXIL:
    case DXSPV_SOURCE_TYPE_DXIL_LL: return read_dxil(source.type, req, program, diags);
    default:
        diags.error(Code::api_unsupported_source, Location::none(), "source type %s is not implemented yet",
                    dxspv_source_type_name(source.type));
        return false;
    }
}

void append_text(std::vector<uint8_t>& out, std::string_view text)
{
    out.assign(text.begin(), text.end());
    if (!text.empty() && text.back() != '\n')
        out.push_back('\n');
    out.push_back(0);
}

/// Parses the input into `source` when it is a DXBC container that detection,
/// the checksum or the TPF reader will read.
void parse_source_container(const Request& req, Source& source)
{
    bool wanted = source.type == DXSPV_SOURCE_TYPE_NONE || source.type == DXSPV_SOURCE_TYPE_DXBC_TPF ||
                  (req.verify_checksum && source.type == DXSPV_SOURCE_TYPE_DXBC_DXIL);
    if (!wanted || !container::is_dxbc(req.source))
        return;
    Diagnostics parse_diags; // the reader reports them, in order with its own
    parse_diags.keep_texts(false);
    source.parsed = container::parse_container(req.source, source.container, parse_diags);
    source.quiet = parse_diags.messages().empty();
}

/// A DXBC container holding the program's signatures and its SHDR/SHEX tokens.
bool write_dxbc_tpf(const vsir::Program& program, std::vector<uint8_t>& out, Diagnostics& diags)
{
    std::vector<uint32_t> tokens;
    if (!tpf::write_program(program, tokens, diags))
        return false;
    auto needs_sg1 = [](const std::vector<SignatureElement>& elements) {
        for (const SignatureElement& e : elements)
            if (e.min_precision != MinPrecision::none || e.stream)
                return true;
        return false;
    };
    auto has_precision = [](const std::vector<SignatureElement>& elements) {
        for (const SignatureElement& e : elements)
            if (e.min_precision != MinPrecision::none)
                return true;
        return false;
    };
    bool sg1 = needs_sg1(program.inputs) || needs_sg1(program.outputs) || needs_sg1(program.patch_constants);
    // The chunk kinds the program was read from, else *N (or *1 when needed).
    static const char* const defaults[3][2] = {{"ISGN", "ISG1"}, {"OSGN", "OSG1"}, {"PCSG", "PSG1"}};
    const std::vector<SignatureElement>* elements[3] = {&program.inputs, &program.outputs, &program.patch_constants};
    std::vector<uint8_t> data[3];
    std::vector<container::ChunkInput> chunks;
    bool patch = program.model.stage == ShaderStage::hull || program.model.stage == ShaderStage::domain;
    for (unsigned k = 0; k < 3; ++k) {
        uint32_t code = program.signature_chunks[k];
        container::SignatureFormat format;
        bool fits = code && container::signature_format_of(code, format) &&
                    (format == container::SignatureFormat::sg1 || !needs_sg1(*elements[k]) ||
                     (format == container::SignatureFormat::sg5 && !has_precision(*elements[k])));
        if (!fits) {
            if (k == 2 && !patch)
                continue;
            code = container::fourcc(defaults[k][sg1 ? 1 : 0]);
            container::signature_format_of(code, format);
        }
        std::optional<uint8_t> padding;
        if (!(program.signature_unpadded & (1u << k)))
            padding = 0xab;
        data[k] = container::serialize_signature(*elements[k], format, padding);
        chunks.push_back({code, data[k]});
    }
    chunks.push_back({container::fourcc(tpf::chunk_name_for(program)),
                      {reinterpret_cast<const uint8_t*>(tokens.data()), tokens.size() * 4}});
    return container::serialize_container(chunks, out, diags);
}

} // namespace

std::span<const dxspv_source_type> supported_source_types()
{
    return source_types;
}

std::span<const dxspv_target_type> supported_target_types(dxspv_source_type source)
{
    switch (source) {
    case DXSPV_SOURCE_TYPE_DXBC_TPF:
    case DXSPV_SOURCE_TYPE_D3D_ASM: return tpf_targets;
    case DXSPV_SOURCE_TYPE_DXBC_DXIL:
    case DXSPV_SOURCE_TYPE_DXIL_LL: return dxil_target_types();
    default: return {};
    }
}

bool is_supported(dxspv_source_type source, dxspv_target_type target)
{
    for (dxspv_target_type t : supported_target_types(source))
        if (t == target)
            return true;
    return false;
}

dxspv_result result_from_code(Code code)
{
    switch (code) {
    case Code::api_invalid_argument:
    case Code::api_unknown_structure:
    case Code::api_unknown_option: return DXSPV_ERROR_INVALID_ARGUMENT;
    case Code::api_out_of_memory: return DXSPV_ERROR_OUT_OF_MEMORY;
    case Code::api_not_implemented:
    case Code::api_unsupported_target:
    case Code::api_unsupported_source:
    case Code::spirv_unsupported_opcode:
    case Code::spirv_unsupported_stage:
    case Code::spirv_unsupported_register:
    case Code::spirv_unsupported_type:
    case Code::spirv_unsupported_declaration: return DXSPV_ERROR_NOT_IMPLEMENTED;
    case Code::tpf_interfaces_unsupported: return DXSPV_ERROR_UNSUPPORTED;
    case Code::api_internal_error:
    case Code::spirv_builder_error:
    case Code::spirv_validation_failed:
    case Code::spirv_optimization_failed:
    case Code::spirv_invalid_binary: return DXSPV_ERROR; // our own output broke: a bug, not bad input
    default: break;
    }
    // The VSIR validator and the pass runner report broken invariants: a bug.
    unsigned n = unsigned(code);
    return n >= 9000 && n < 10000 ? DXSPV_ERROR : DXSPV_ERROR_INVALID_SHADER;
}

dxspv_result result_from_diagnostics(const Diagnostics& diags)
{
    for (const Message& m : diags.messages())
        if (m.severity == Severity::error)
            return result_from_code(m.code);
    return diags.has_errors() ? DXSPV_ERROR_INVALID_SHADER : DXSPV_OK;
}

dxspv_result resolve_source(const Request& req, Source& source, Diagnostics& diags)
{
    source.type = req.source_type;
    parse_source_container(req, source);
    if (source.type == DXSPV_SOURCE_TYPE_NONE) {
        source.type = source.parsed ? detect_source_type(source.container) : detect_source_type(req.source);
        if (source.type == DXSPV_SOURCE_TYPE_NONE && container::is_dxbc(req.source)) {
            // Say what is wrong with the container rather than "unknown input"
            // (parsed again to report what its parse found).
            if ((source.parsed && source.quiet) || container::parse_container(req.source, source.container, diags))
                diags.error(Code::api_no_shader_chunk, Location::none(),
                            "the container has no shader program chunk (SHDR, SHEX or DXIL)");
            return DXSPV_ERROR_INVALID_SHADER;
        }
        if (source.type == DXSPV_SOURCE_TYPE_NONE) {
            diags.error(Code::api_undetected_source, Location::none(),
                        "cannot tell what the input is (not a DXBC container with SHDR/SHEX/DXIL, "
                        "nor d3d-asm or dxil-ll text); give the source type");
            return DXSPV_ERROR_INVALID_SHADER;
        }
    }
    if (!is_supported(source.type, req.target_type)) {
        diags.error(Code::api_unsupported_target, Location::none(), "translating %s to %s is not implemented yet",
                    dxspv_source_type_name(source.type), dxspv_target_type_name(req.target_type));
        return DXSPV_ERROR_NOT_IMPLEMENTED;
    }
    bool dxbc_source = source.type == DXSPV_SOURCE_TYPE_DXBC_TPF || source.type == DXSPV_SOURCE_TYPE_DXBC_DXIL;
    if (req.verify_checksum && dxbc_source && source.parsed)
        warn_checksum_mismatch(source.container, diags);
    return DXSPV_OK;
}

void warn_checksum_mismatch(std::span<const uint8_t> bytes, Diagnostics& diags)
{
    container::Container c;
    Diagnostics parse_diags; // the source's reader reports a container that does not parse
    parse_diags.keep_texts(false);
    if (container::parse_container(bytes, c, parse_diags))
        warn_checksum_mismatch(c, diags);
}

void warn_checksum_mismatch(const container::Container& c, Diagnostics& diags)
{
    if (container::verify_checksum(c.bytes) == container::ChecksumStatus::mismatch)
        diags.warning(Code::api_checksum_mismatch, Location::offset(container::checksum_offset),
                      "the container checksum does not match its contents");
}

dxspv_result load_program(const Request& req, vsir::Program& program, Diagnostics& diags)
{
    Source source;
    if (dxspv_result r = resolve_source(req, source, diags); r != DXSPV_OK)
        return r;
    return read_source(source, req, program, diags) ? DXSPV_OK : result_from_diagnostics(diags);
}

dxspv_result translate(const Request& req, std::vector<uint8_t>& out, Diagnostics& diags,
                       std::vector<uint32_t>* spirv_words)
{
    if (is_dxil_module_target(req.target_type)) {
        Source source;
        if (dxspv_result r = resolve_source(req, source, diags); r != DXSPV_OK)
            return r;
        return translate_dxil(source.type, req, out, diags); // module → module (text or container)
    }
    vsir::Program program;
    if (dxspv_result r = load_program(req, program, diags); r != DXSPV_OK)
        return r;
    switch (req.target_type) {
    case DXSPV_TARGET_TYPE_CFG_DOT: {
        std::string dot;
        if (!cfg::write_dot(program, dot, diags))
            return result_from_diagnostics(diags);
        append_text(out, dot);
        return DXSPV_OK;
    }
    case DXSPV_TARGET_TYPE_VSIR_TEXT:
        if (program.control_flow == vsir::ControlFlow::unstructured)
            break; // printed once structured (below)
        append_text(out, vsir::print_program(program));
        return DXSPV_OK;
    case DXSPV_TARGET_TYPE_D3D_ASM: append_text(out, text::disassemble(program)); return DXSPV_OK;
    case DXSPV_TARGET_TYPE_DXBC_TPF:
        return write_dxbc_tpf(program, out, diags) ? DXSPV_OK : result_from_diagnostics(diags);
    default: break;
    }

    vsir::PipelineOptions passes;
    passes.validate = req.validate_ir;
    if (!vsir::run_pipeline(program, diags, passes))
        return result_from_diagnostics(diags);
    if (program.control_flow == vsir::ControlFlow::unstructured &&
        !structurize_program(program, diags, req.stats, passes.validate))
        return result_from_diagnostics(diags);
    if (req.target_type == DXSPV_TARGET_TYPE_VSIR_TEXT) {
        append_text(out, vsir::print_program(program));
        return DXSPV_OK;
    }

    spirv::EmitOptions options;
    options.target_env = target_env(req.environment);
    options.bindings.bindings = req.bindings;
    options.bindings.counters = req.counter_bindings;
    options.bindings.strict = req.strict_bindings;
    std::vector<uint32_t> words;
    if (spirv_words) // the caller's array, for its memory (dxspv_compile recycles it)
        words.swap(*spirv_words);
    if (!spirv::emit_spirv(program, options, words, diags))
        return result_from_diagnostics(diags);
    if (req.optimize && !spirv::optimize_spirv(words, options.target_env, diags))
        return result_from_diagnostics(diags);
    if (req.validate_spirv && !spirv::validate_spirv(words, options.target_env, diags))
        return DXSPV_ERROR;

    if (req.target_type == DXSPV_TARGET_TYPE_SPIRV_TEXT)
        append_text(out, spirv::disassemble_spirv(words));
    else if (spirv_words)
        spirv_words->swap(words);
    else
        out.assign(reinterpret_cast<const uint8_t*>(words.data()),
                   reinterpret_cast<const uint8_t*>(words.data() + words.size()));
    return DXSPV_OK;
}

} // namespace dxspv::api
