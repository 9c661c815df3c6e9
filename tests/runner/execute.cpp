// Walks a parsed .shader_test file in order: [require] decides whether the
// following tests can run, shader sections are translated through the
// library's public API (with the runner's binding map), resource sections
// create GPU resources, and [test] commands run with vkd3d's todo / bug / if
// semantics.
#include "execute.h"

#include "runner.h"

#include "dxspv/dxspv.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace runner {

namespace {

/// The vertex shader of `draw quad` when the test gives none: passes the
/// R32G32_FLOAT `position` through as SV_Position.
const char quad_vs_text[] =
        "vs_4_0\n"
        "dcl_input v0.xy\n"
        "dcl_output_siv o0.xyzw, position\n"
        "mov o0.xy, v0.xyxx\n"
        "mov o0.zw, l(0, 0, 0, 1.000000)\n"
        "ret\n";

uint32_t dxbc_chunk_model(const std::vector<uint8_t>& bytes, const char* const tags[2])
{
    auto u32 = [&](size_t off) -> uint32_t {
        uint32_t v = 0;
        if (off + 4 <= bytes.size())
            std::memcpy(&v, bytes.data() + off, 4);
        return v;
    };
    if (bytes.size() < 32 || std::memcmp(bytes.data(), "DXBC", 4))
        return 0;
    uint32_t count = u32(28);
    for (uint32_t i = 0; i < count && i < 64; ++i) {
        uint32_t off = u32(32 + 4 * i);
        if (off + 12 > bytes.size())
            return 0;
        for (int t = 0; t < 2; ++t)
            if (tags[t] && !std::memcmp(bytes.data() + off, tags[t], 4)) {
                uint32_t version = u32(off + 8);
                return ((version >> 4) & 0xf) * 10 + (version & 0xf);
            }
    }
    return 0;
}

struct Context {
    const TestFile& file;
    Runner& runner;
    ConditionContext cond;
    bool requirements_met = true;
    std::string unmet;            ///< why the current [require] block cannot run
    std::string shader_missing[stage_count]; ///< why a stage has no usable shader
    int ran = 0;                  ///< dispatches, draws and probes executed
    int todo_failures = 0;
    std::vector<std::string> failures;
    std::string skip_reason;
    bool last_failed = false;     ///< the last draw/dispatch failed or was skipped: probes are skipped

    bool holds(const std::optional<std::string>& condition) const
    {
        if (!condition)
            return false;
        bool result = false;
        std::string error;
        return evaluate_condition(*condition, cond, result, error) && result;
    }
    void note_skip(const std::string& reason)
    {
        if (skip_reason.empty())
            skip_reason = reason;
    }
    void fail(int line, const std::string& message)
    {
        failures.push_back(file.name + ":" + std::to_string(line) + ": " + message);
    }
};

void check_requirements(Context& ctx, const RequireSection& req)
{
    const DeviceCaps& caps = ctx.runner.device().caps();
    ctx.requirements_met = true;
    ctx.unmet.clear();
    auto unmet = [&](const std::string& why) {
        if (ctx.requirements_met)
            ctx.unmet = why;
        ctx.requirements_met = false;
    };
    if (ctx.cond.model < req.min_model || ctx.cond.model >= req.max_model)
        unmet("shader model " + std::to_string(ctx.cond.model / 10) + "." + std::to_string(ctx.cond.model % 10)
              + " is outside the required range");
    for (const std::string& f : req.features) {
        bool ok = f == "float64" ? caps.float64 : f == "int64" ? caps.int64
                : f == "native-16-bit" ? caps.int16 && caps.float16 : f == "wave-ops" ? caps.wave_ops
                : f == "geometry-shader" ? caps.geometry : f == "tessellation-shader" ? caps.tessellation
                : f == "depth-bounds" ? caps.depth_bounds : f == "clip-planes" ? caps.clip_distance
                : f == "barycentrics" ? caps.barycentrics : f == "shared-int64-atomics" ? caps.shared_int64_atomics
                : f == "point-size" || f == "rt-vp-array-index";
        if (!ok)
            unmet("requirement '" + f + "' is not met");
    }
    for (const Format* fmt : req.uav_load_formats)
        if (!ctx.runner.device().format_supports(static_cast<VkFormat>(fmt->vk_format), VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
                || !caps.storage_read_without_format)
            unmet(std::string("format ") + fmt->name + " uav-load is not supported");
}

void load_shader(Context& ctx, const ShaderSection& shader)
{
    std::string& missing = ctx.shader_missing[static_cast<int>(shader.stage)];
    ctx.runner.clear_shader(shader.stage);
    missing.clear();
    if (shader.form == SourceForm::hlsl) {
        missing = std::string(stage_name(shader.stage)) + " shader is HLSL (no HLSL compiler)";
        return;
    }
    if (!ctx.requirements_met) {
        missing = ctx.unmet;
        return;
    }
    bool expect_fail = false, todo = false, notimpl = false;
    for (const Qualifier& q : shader.qualifiers) {
        bool result = false;
        std::string error;
        if (!evaluate_condition(q.condition, ctx.cond, result, error) || !result)
            continue;
        expect_fail |= q.kind == Qualifier::Kind::fail;
        todo |= q.kind == Qualifier::Kind::todo;
        notimpl |= q.kind == Qualifier::Kind::notimpl;
    }
    std::vector<uint32_t> spirv;
    std::string messages;
    int result = compile_shader(shader, spirv, messages, implicit_counters(ctx.file));
    std::string first = messages.substr(0, messages.find('\n'));
    if (result == DXSPV_OK && !expect_fail) {
        if (shader.stage == Stage::vertex) {
            std::vector<VertexInput> inputs;
            std::string error;
            if (!reflect_vertex_inputs(shader, inputs, error)) {
                ctx.fail(shader.line, "reflection: " + error);
                return;
            }
            ctx.runner.set_vertex_inputs(std::move(inputs));
        }
        ctx.runner.set_shader(shader.stage, std::move(spirv));
        if (todo)
            ctx.fail(shader.line, std::string(stage_name(shader.stage)) + " shader is marked todo but translated (remove the todo)");
        return;
    }
    missing = std::string(stage_name(shader.stage)) + " shader did not translate: " + first;
    if (result != DXSPV_OK && (expect_fail || notimpl))
        return;
    if (todo) {
        ++ctx.todo_failures;
        return;
    }
    if (result == DXSPV_OK)
        ctx.fail(shader.line, std::string(stage_name(shader.stage)) + " shader translated but 'fail' was expected");
    else
        ctx.fail(shader.line, messages);
}

/// Runs a draw or a dispatch; false when it could not run (skipped or failed).
bool run_work(Context& ctx, const Command& cmd, bool todo, std::string& error)
{
    Stage needed = cmd.kind == Command::Kind::dispatch ? Stage::compute : Stage::pixel;
    if (!ctx.runner.has_shader(needed) && !(needed == Stage::pixel && ctx.runner.has_shader(Stage::vertex))) {
        const std::string& why = ctx.shader_missing[static_cast<int>(needed)];
        ctx.note_skip(why.empty() ? std::string("no ") + stage_name(needed) + " shader" : why);
        return false;
    }
    for (int s = 0; s < stage_count; ++s)
        if (!ctx.shader_missing[s].empty() && (needed == Stage::compute) == (s == static_cast<int>(Stage::compute))) {
            ctx.note_skip(ctx.shader_missing[s]);
            return false;
        }
    bool ok = cmd.kind == Command::Kind::dispatch ? ctx.runner.dispatch(cmd.groups, error) : ctx.runner.draw(cmd, error);
    ++ctx.ran;
    if (!ok) {
        if (todo)
            ++ctx.todo_failures;
        else
            ctx.fail(cmd.line, cmd.text + ": " + error);
    }
    return ok;
}

void run_probe(Context& ctx, const Command& cmd, bool todo)
{
    if (ctx.last_failed)
        return;
    std::string message, error;
    bool ok = ctx.runner.probe(cmd.probe, message, error);
    ++ctx.ran;
    if (!error.empty()) {
        ctx.fail(cmd.line, cmd.text + ": " + error);
    } else if (!ok && todo) {
        ++ctx.todo_failures;
    } else if (!ok) {
        ctx.fail(cmd.line, cmd.text + ": " + message);
    } else if (todo) {
        ctx.fail(cmd.line, cmd.text + ": todo probe passed (remove the todo)");
    }
}

void run_command(Context& ctx, const Command& cmd)
{
    using K = Command::Kind;
    if (cmd.if_ && !ctx.holds(cmd.if_))
        return;
    bool todo = ctx.holds(cmd.todo) || ctx.holds(cmd.bug);
    std::string error;
    bool ok = true;
    switch (cmd.kind) {
    case K::uniform: ctx.runner.set_uniforms(cmd.offset, cmd.words); break;
    case K::dispatch:
    case K::draw:
    case K::draw_quad: ctx.last_failed = !run_work(ctx, cmd, todo, error); return;
    case K::probe: run_probe(ctx, cmd, todo); return;
    case K::clear_rtv: ok = ctx.runner.clear_rtv(cmd.slot, cmd.values, error); break;
    case K::clear_dsv: ok = ctx.runner.clear_dsv(cmd.values[0], error); break;
    case K::copy: ok = ctx.runner.copy(cmd, error); break;
    case K::depth: ctx.runner.depth_func = cmd.compare; break;
    case K::sample_mask: ctx.runner.sample_mask = cmd.slot; break;
    case K::viewport: ctx.runner.viewport = std::vector<float>(cmd.values, cmd.values + 6); break;
    case K::clip_plane:
    case K::point_size:
    case K::unsupported:
        ctx.note_skip("'" + cmd.text + "' is not supported on Vulkan by the runner");
        ctx.last_failed = true; // what follows depends on it
        return;
    }
    if (!ok)
        ctx.fail(cmd.line, cmd.text + ": " + error);
}

void run_section(Context& ctx, const Section& section)
{
    if (const auto* req = std::get_if<RequireSection>(&section)) {
        check_requirements(ctx, *req);
    } else if (const auto* shader = std::get_if<ShaderSection>(&section)) {
        load_shader(ctx, *shader);
    } else if (const auto* res = std::get_if<ResourceSection>(&section)) {
        std::string error;
        if (!ctx.runner.set_resource(*res, error))
            ctx.fail(res->line, std::string("[") + resource_kind_name(res->kind) + " " + std::to_string(res->slot) + "]: " + error);
    } else if (const auto* layout = std::get_if<InputLayoutSection>(&section)) {
        ctx.runner.set_input_layout(layout->elements);
    } else if (const auto* test = std::get_if<TestSection>(&section)) {
        if (!ctx.requirements_met) {
            ctx.note_skip(ctx.unmet);
            return;
        }
        ctx.last_failed = false;
        for (const Command& cmd : test->commands)
            run_command(ctx, cmd);
    }
}

} // namespace

bool hex_words_to_bytes(const std::string& text, std::vector<uint8_t>& bytes, std::string& error)
{
    size_t i = 0;
    while (i < text.size()) {
        if (std::isspace(static_cast<unsigned char>(text[i]))) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < text.size() && std::isxdigit(static_cast<unsigned char>(text[j])))
            ++j;
        if (j - i != 8 || (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])))) {
            error = "expected 8-digit hex words, found '" + text.substr(i, 12) + "'";
            return false;
        }
        uint32_t word = static_cast<uint32_t>(std::stoul(text.substr(i, 8), nullptr, 16));
        for (int b = 0; b < 4; ++b)
            bytes.push_back(static_cast<uint8_t>(word >> (8 * b)));
        i = j;
    }
    return true;
}

/// The model of `!{!"cs", i32 6, i32 2}` (the !dx.shaderModel node) in
/// dxil-ll text; 60 when it cannot be found.
static uint32_t dxil_ll_model(const std::string& text)
{
    size_t named = text.find("!dx.shaderModel = !{!");
    if (named == std::string::npos)
        return 60;
    std::string node(1, '!');
    node.append(std::to_string(std::strtoul(text.c_str() + named + 21, nullptr, 10))).append(" = !{!\"");
    size_t at = text.find(node);
    unsigned major = 0, minor = 0;
    if (at == std::string::npos
            || std::sscanf(text.c_str() + at + node.size(), "%*[a-z]\", i32 %u, i32 %u", &major, &minor) != 2)
        return 60;
    return major * 10 + minor;
}

uint32_t shader_model_of(const ShaderSection& shader)
{
    static const char* const tpf[2] = {"SHEX", "SHDR"};
    static const char* const dxil[2] = {"DXIL", nullptr};
    std::vector<uint8_t> bytes;
    std::string error;
    switch (shader.form) {
    case SourceForm::hlsl: return 0;
    case SourceForm::dxil_ll: return dxil_ll_model(shader.text);
    case SourceForm::dxbc_tpf_hex:
        return hex_words_to_bytes(shader.text, bytes, error) ? dxbc_chunk_model(bytes, tpf) : 0;
    case SourceForm::dxbc_dxil_hex:
        return hex_words_to_bytes(shader.text, bytes, error) ? dxbc_chunk_model(bytes, dxil) : 60;
    case SourceForm::d3d_asm: break;
    }
    // The first token that is not a comment: "cs_5_0".
    size_t i = 0;
    const std::string& t = shader.text;
    for (;;) {
        while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i])))
            ++i;
        if (t.compare(i, 2, "//") != 0)
            break;
        i = t.find('\n', i);
        if (i == std::string::npos)
            return 0;
    }
    if (i + 6 <= t.size() && t[i + 1] == 's' && t[i + 2] == '_' && std::isdigit(static_cast<unsigned char>(t[i + 3]))
            && t[i + 4] == '_' && std::isdigit(static_cast<unsigned char>(t[i + 5])))
        return (t[i + 3] - '0') * 10 + (t[i + 5] - '0');
    return 0;
}

uint64_t implicit_counters(const TestFile& file)
{
    uint64_t mask = 0;
    for (const Section& s : file.sections)
        if (const auto* r = std::get_if<ResourceSection>(&s))
            if (r->kind == ResourceKind::uav && r->counter_implicit && r->slot < max_registers)
                mask |= uint64_t(1) << r->slot;
    return mask;
}

int compile_shader(const ShaderSection& shader, std::vector<uint32_t>& spirv, std::string& messages,
                   uint64_t implicit_counters)
{
    std::vector<uint8_t> bytes;
    dxspv_source_type type = DXSPV_SOURCE_TYPE_D3D_ASM;
    if (shader.form == SourceForm::dxbc_tpf_hex || shader.form == SourceForm::dxbc_dxil_hex) {
        if (!hex_words_to_bytes(shader.text, bytes, messages))
            return DXSPV_ERROR_INVALID_SHADER;
        type = shader.form == SourceForm::dxbc_tpf_hex ? DXSPV_SOURCE_TYPE_DXBC_TPF : DXSPV_SOURCE_TYPE_DXBC_DXIL;
    } else {
        bytes.assign(shader.text.begin(), shader.text.end());
        type = shader.form == SourceForm::dxil_ll ? DXSPV_SOURCE_TYPE_DXIL_LL : DXSPV_SOURCE_TYPE_D3D_ASM;
    }
    // The binding map a translation layer with one descriptor table per
    // register type builds: set 0, binding = base + register. SM 6.6 heaps
    // are the same tables (ResourceDescriptorHeap[i] is tN or uN). Counters
    // at counter base + register, but for the [uav]s marked `counter
    // implicit`, whose counters the library places.
    const dxspv_descriptor_binding bindings[] = {
        {DXSPV_DESCRIPTOR_TYPE_CBV, 0, 0, max_registers, DXSPV_SHADER_VISIBILITY_ALL, 0, cbv_binding_base, 0, 0},
        {DXSPV_DESCRIPTOR_TYPE_SRV, 0, 0, max_registers, DXSPV_SHADER_VISIBILITY_ALL, 0, srv_binding_base, 0, 0},
        {DXSPV_DESCRIPTOR_TYPE_UAV, 0, 0, max_registers, DXSPV_SHADER_VISIBILITY_ALL, 0, uav_binding_base, 0, 0},
        {DXSPV_DESCRIPTOR_TYPE_SAMPLER, 0, 0, max_registers, DXSPV_SHADER_VISIBILITY_ALL, 0, sampler_binding_base, 0, 0},
        {DXSPV_DESCRIPTOR_TYPE_SRV, DXSPV_RESOURCE_HEAP_SPACE, 0, ~0u, DXSPV_SHADER_VISIBILITY_ALL, 0, srv_binding_base, 0, 0},
        {DXSPV_DESCRIPTOR_TYPE_UAV, DXSPV_RESOURCE_HEAP_SPACE, 0, ~0u, DXSPV_SHADER_VISIBILITY_ALL, 0, uav_binding_base, 0, 0},
        {DXSPV_DESCRIPTOR_TYPE_SAMPLER, DXSPV_SAMPLER_HEAP_SPACE, 0, ~0u, DXSPV_SHADER_VISIBILITY_ALL, 0, sampler_binding_base, 0, 0},
    };
    dxspv_counter_binding counters[max_registers + 1];
    unsigned counter_count = 0;
    for (uint32_t r = 0; r < max_registers; ++r)
        if (!(implicit_counters >> r & 1))
            counters[counter_count++] = {0, r, DXSPV_SHADER_VISIBILITY_ALL, 0, counter_binding_base + r};
    if (!(implicit_counters & 1))
        counters[counter_count++] = {DXSPV_RESOURCE_HEAP_SPACE, 0, DXSPV_SHADER_VISIBILITY_ALL, 0, counter_binding_base};
    dxspv_interface_info iface = {DXSPV_STRUCTURE_TYPE_INTERFACE_INFO, nullptr, bindings, 7, counters, counter_count,
                                  DXSPV_INTERFACE_STRICT};
    dxspv_spirv_target_info target = {DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO, &iface, DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1};
    // Experimental DXIL ops (feature 0x8000) are accepted, as a layer that
    // enables them would; the library refuses them unless asked.
    const dxspv_compile_option options[] = {{DXSPV_COMPILE_OPTION_VALIDATE_SPIRV, 1},
                                            {DXSPV_COMPILE_OPTION_EXPERIMENTAL_OPS, 1}};
    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &target;
    info.source = {bytes.data(), bytes.size()};
    info.source_type = type;
    info.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    info.options = options;
    info.option_count = 2;
    std::string name = std::string(stage_name(shader.stage)) + " shader";
    info.source_name = name.c_str();
    dxspv_code out = {};
    char* msgs = nullptr;
    dxspv_result result = dxspv_compile(&info, &out, &msgs);
    if (msgs) {
        messages = msgs;
        while (!messages.empty() && messages.back() == '\n')
            messages.pop_back();
    }
    dxspv_free_messages(msgs);
    if (result == DXSPV_OK) {
        spirv.resize(out.size / 4);
        std::memcpy(spirv.data(), out.code, spirv.size() * 4);
    } else if (messages.empty()) {
        messages = "dxspv_compile failed with " + std::to_string(result);
    }
    dxspv_free_code(&out);
    return result;
}

bool reflect_vertex_inputs(const ShaderSection& shader, std::vector<VertexInput>& inputs, std::string& error)
{
    inputs.clear();
    std::vector<uint8_t> bytes;
    dxspv_source_type type = DXSPV_SOURCE_TYPE_DXIL_LL;
    if (shader.form == SourceForm::dxil_ll) {
        bytes.assign(shader.text.begin(), shader.text.end());
    } else if (shader.form == SourceForm::dxbc_tpf_hex || shader.form == SourceForm::dxbc_dxil_hex) {
        if (!hex_words_to_bytes(shader.text, bytes, error))
            return false;
        type = shader.form == SourceForm::dxbc_tpf_hex ? DXSPV_SOURCE_TYPE_DXBC_TPF : DXSPV_SOURCE_TYPE_DXBC_DXIL;
    } else {
        return true;
    }
    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {bytes.data(), bytes.size()};
    info.source_type = type;
    info.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    dxspv_reflection reflection = {};
    char* messages = nullptr;
    dxspv_result result = dxspv_reflect(&info, &reflection, &messages);
    if (result != DXSPV_OK)
        error = messages ? messages : "dxspv_reflect failed";
    dxspv_free_messages(messages);
    if (result != DXSPV_OK)
        return false;
    for (unsigned int i = 0; i < reflection.input_signature.element_count; ++i) {
        const dxspv_signature_element_info& e = reflection.input_signature.elements[i];
        if (e.system_value != 0)
            continue; // SV_VertexID and friends are not fed from vertex buffers
        inputs.push_back({e.semantic_name ? e.semantic_name : "", e.semantic_index, e.register_index});
    }
    dxspv_free_reflection(&reflection);
    return true;
}

FileOutcome run_file(const TestFile& file, Device& device)
{
    Runner runner(device);
    Context ctx{file, runner, {}};
    ctx.cond.tags = {"vulkan", "dxspv"};
    if (device.caps().name.find("llvmpipe") != std::string::npos)
        ctx.cond.tags.push_back("llvmpipe");
    ctx.cond.model = 0;
    for (const Section& s : file.sections)
        if (const auto* shader = std::get_if<ShaderSection>(&s); shader && !ctx.cond.model)
            ctx.cond.model = shader_model_of(*shader);
    if (!ctx.cond.model)
        ctx.cond.model = 50;

    ShaderSection quad;
    quad.stage = Stage::vertex;
    quad.form = SourceForm::d3d_asm;
    quad.text = quad_vs_text;
    std::vector<uint32_t> quad_spirv;
    std::string quad_messages;
    if (compile_shader(quad, quad_spirv, quad_messages) == DXSPV_OK)
        runner.set_quad_vs(std::move(quad_spirv));

    for (const Section& s : file.sections)
        run_section(ctx, s);

    FileOutcome out;
    std::string todo = ctx.todo_failures ? " (" + std::to_string(ctx.todo_failures) + " todo)" : "";
    if (!ctx.failures.empty()) {
        out.status = FileOutcome::Status::fail;
        out.message = ctx.failures.front();
        if (ctx.failures.size() > 1)
            out.message += " (+" + std::to_string(ctx.failures.size() - 1) + " more)";
    } else if (ctx.ran > 0) {
        out.status = FileOutcome::Status::pass;
        out.message = todo.empty() ? todo : todo.substr(2, todo.size() - 3);
    } else {
        out.status = FileOutcome::Status::skip;
        out.message = ctx.skip_reason.empty() ? "nothing to run" : ctx.skip_reason;
    }
    return out;
}

} // namespace runner
