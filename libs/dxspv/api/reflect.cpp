// dxspv_reflect(): the descriptors a shader declares (with the bindings the
// map gives them), its signatures and thread group size; and its JSON form.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "api/c_strings.h"
#include "api/compile_info.h"
#include "dxspv/dxspv.h"
#include "spirv/emit.h"

using namespace dxspv;

static_assert(DXSPV_SPEC_CONSTANT_RASTERIZER_SAMPLE_COUNT == spirv::spec_id_rasterizer_sample_count);

namespace {

dxspv_resource_data_type data_type_of(vsir::DataType t)
{
    switch (t) {
    case vsir::DataType::f32:
    case vsir::DataType::f16:
    case vsir::DataType::unorm:
    case vsir::DataType::snorm: return DXSPV_RESOURCE_DATA_FLOAT;
    case vsir::DataType::i32:
    case vsir::DataType::i16:
    case vsir::DataType::i64: return DXSPV_RESOURCE_DATA_INT;
    case vsir::DataType::u32:
    case vsir::DataType::u16:
    case vsir::DataType::u64: return DXSPV_RESOURCE_DATA_UINT;
    case vsir::DataType::f64: return DXSPV_RESOURCE_DATA_DOUBLE;
    case vsir::DataType::mixed: return DXSPV_RESOURCE_DATA_MIXED;
    default: return DXSPV_RESOURCE_DATA_NONE;
    }
}

bool is_store(vsir::Opcode op)
{
    return op == vsir::Opcode::store_raw || op == vsir::Opcode::store_structured || op == vsir::Opcode::store_uav_typed;
}

/// The descriptor a declaration instruction introduces; false for other declarations.
bool describe_declaration(const vsir::Instruction& ins, const vsir::Declaration& d, dxspv_descriptor_info& out)
{
    using vsir::Opcode;
    out = {};
    switch (ins.opcode) {
    case Opcode::dcl_constant_buffer: out.type = DXSPV_DESCRIPTOR_TYPE_CBV; break;
    case Opcode::dcl_sampler:
        out.type = DXSPV_DESCRIPTOR_TYPE_SAMPLER;
        if (d.value == 1)
            out.flags |= DXSPV_DESCRIPTOR_INFO_COMPARISON_SAMPLER;
        break;
    case Opcode::dcl_resource:
    case Opcode::dcl_resource_raw:
    case Opcode::dcl_resource_structured: out.type = DXSPV_DESCRIPTOR_TYPE_SRV; break;
    case Opcode::dcl_uav_typed:
    case Opcode::dcl_uav_raw:
    case Opcode::dcl_uav_structured:
        out.type = DXSPV_DESCRIPTOR_TYPE_UAV;
        if (d.value & vsir::uav_has_counter)
            out.flags |= DXSPV_DESCRIPTOR_INFO_UAV_COUNTER;
        if (d.value & vsir::uav_globally_coherent)
            out.flags |= DXSPV_DESCRIPTOR_INFO_GLOBALLY_COHERENT;
        if (d.value & vsir::uav_rasterizer_ordered)
            out.flags |= DXSPV_DESCRIPTOR_INFO_RASTERIZER_ORDERED;
        break;
    default: return false;
    }
    if (ins.opcode == Opcode::dcl_resource_raw || ins.opcode == Opcode::dcl_uav_raw) {
        out.flags |= DXSPV_DESCRIPTOR_INFO_RAW_BUFFER;
        out.resource_dimension = uint32_t(vsir::ResourceDimension::raw_buffer);
    } else if (ins.opcode == Opcode::dcl_resource_structured || ins.opcode == Opcode::dcl_uav_structured) {
        out.flags |= DXSPV_DESCRIPTOR_INFO_STRUCTURED_BUFFER;
        out.resource_dimension = uint32_t(vsir::ResourceDimension::structured_buffer);
        out.structure_stride = d.structure_stride;
    } else if (ins.opcode == Opcode::dcl_resource || ins.opcode == Opcode::dcl_uav_typed) {
        out.resource_dimension = uint32_t(d.dimension);
        out.data_type = data_type_of(d.return_type[0]);
    }
    out.register_space = d.space;
    out.register_index = d.range_first;
    out.register_count = d.range_last == ~0u ? ~0u : d.range_last - d.range_first + 1;
    return true;
}

enum UavUse : uint8_t { uav_read = 1, uav_counter = 2 };

/// Per UAV range id: read (loads and atomics, not plain stores) and counter
/// use (imm_atomic_alloc/consume, which need the counter even when the
/// declaration does not flag it, as for fxc's AppendStructuredBuffer).
std::vector<uint8_t> uav_uses(const vsir::Program& p)
{
    std::vector<uint8_t> uses;
    auto mark = [&](const vsir::Register& r, uint8_t use) {
        if (r.file != vsir::RegisterFile::uav || r.index_count == 0 || r.idx[0].offset > 1u << 20)
            return;
        if (uses.size() <= r.idx[0].offset)
            uses.resize(r.idx[0].offset + 1);
        uses[r.idx[0].offset] |= use;
    };
    for (const vsir::Instruction& ins : p.instructions) {
        if (vsir::opcode_info(ins.opcode).kind == vsir::OpcodeKind::declaration || is_store(ins.opcode))
            continue;
        uint8_t use = uav_read;
        if (ins.opcode == vsir::Opcode::imm_atomic_alloc || ins.opcode == vsir::Opcode::imm_atomic_consume)
            use |= uav_counter;
        for (const vsir::SrcParam& src : p.srcs_of(ins))
            mark(src.reg, use);
        for (const vsir::DstParam& dst : p.dsts_of(ins))
            mark(dst.reg, uav_read);
    }
    return uses;
}

bool copy_signature(const std::vector<SignatureElement>& in, dxspv_signature_info& out)
{
    out = {};
    if (in.empty())
        return true;
    auto* elements = static_cast<dxspv_signature_element_info*>(std::calloc(in.size(), sizeof(dxspv_signature_element_info)));
    if (!elements)
        return false;
    out.elements = elements;
    out.element_count = unsigned(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const SignatureElement& e = in[i];
        elements[i] = {nullptr, e.semantic_index, e.stream, e.register_index, uint32_t(e.system_value),
                       uint32_t(e.component_type), uint32_t(e.min_precision), e.mask, e.used_mask};
        if (!(elements[i].semantic_name = api::copy_c_string(e.semantic_name)))
            return false;
    }
    return true;
}

void free_signature(dxspv_signature_info& s)
{
    for (unsigned i = 0; i < s.element_count; ++i)
        std::free(const_cast<char*>(s.elements[i].semantic_name));
    std::free(const_cast<dxspv_signature_element_info*>(s.elements));
    s = {};
}

/// The emitter's implicit counter bindings (spirv::CounterBindingAllocator),
/// in the same declaration order.
void assign_implicit_counter_bindings(std::vector<dxspv_descriptor_info>& descriptors)
{
    spirv::CounterBindingAllocator alloc;
    for (const dxspv_descriptor_info& d : descriptors) {
        if (d.flags & DXSPV_DESCRIPTOR_INFO_PUSH_CONSTANT)
            continue;
        alloc.reserve(d.set, d.binding);
        if (d.flags & DXSPV_DESCRIPTOR_INFO_UAV_COUNTER)
            alloc.reserve(d.counter_set, d.counter_binding);
    }
    for (dxspv_descriptor_info& d : descriptors)
        if ((d.flags & DXSPV_DESCRIPTOR_INFO_UAV_COUNTER) && d.counter_binding == ~0u)
            d.counter_binding = alloc.allocate(d.counter_set);
}

bool reflect(const api::Request& req, const vsir::Program& p, dxspv_reflection& r)
{
    r.shader_stage = uint32_t(p.model.stage);
    r.model_major = p.model.major;
    r.model_minor = p.model.minor;
    r.specialization_constants = spirv::specialization_constants_used(p);
    spirv::BindingMap map{req.bindings, req.counter_bindings, false};
    std::vector<uint8_t> uses = uav_uses(p);
    std::vector<dxspv_descriptor_info> descriptors;
    for (const vsir::Instruction& ins : p.instructions) {
        if (ins.decl >= p.decls.size())
            continue;
        const vsir::Declaration& d = p.decls[ins.decl];
        if (ins.opcode == vsir::Opcode::dcl_thread_group)
            std::memcpy(r.thread_group_size, d.thread_group, sizeof(r.thread_group_size));
        dxspv_descriptor_info info;
        if (!describe_declaration(ins, d, info))
            continue;
        uint8_t use = info.type == DXSPV_DESCRIPTOR_TYPE_UAV && d.index < uses.size() ? uses[d.index] : 0;
        if (use & uav_read)
            info.flags |= DXSPV_DESCRIPTOR_INFO_UAV_READ;
        if (use & uav_counter)
            info.flags |= DXSPV_DESCRIPTOR_INFO_UAV_COUNTER;
        spirv::ResolvedBinding b = map.resolve(spirv::DescriptorType(info.type), info.register_space,
                                               info.register_index, p.model.stage);
        info.set = b.set;
        info.binding = b.binding;
        if (b.push_constant) {
            info.flags |= DXSPV_DESCRIPTOR_INFO_PUSH_CONSTANT;
            info.push_constant_offset = b.push_constant_offset;
        }
        if (info.flags & DXSPV_DESCRIPTOR_INFO_UAV_COUNTER) {
            spirv::ResolvedBinding c = map.resolve_counter(info.register_space, info.register_index, p.model.stage, b);
            info.counter_set = c.found ? c.set : b.set;
            info.counter_binding = c.found ? c.binding : ~0u; // implicit: below
        }
        descriptors.push_back(info);
    }
    assign_implicit_counter_bindings(descriptors);
    if (!descriptors.empty()) {
        auto* copy = static_cast<dxspv_descriptor_info*>(std::malloc(descriptors.size() * sizeof(dxspv_descriptor_info)));
        if (!copy)
            return false;
        std::memcpy(copy, descriptors.data(), descriptors.size() * sizeof(*copy));
        r.descriptors = copy;
        r.descriptor_count = unsigned(descriptors.size());
    }
    return copy_signature(p.inputs, r.input_signature) && copy_signature(p.outputs, r.output_signature)
        && copy_signature(p.patch_constants, r.patch_constant_signature);
}

void json_string(std::string& out, const char* s)
{
    out += '"';
    for (; s && *s; ++s) {
        unsigned char c = static_cast<unsigned char>(*s);
        if (c == '"' || c == '\\')
            out += '\\', out += char(c);
        else if (c < 0x20)
            out += strformat("\\u%04x", c);
        else
            out += char(c);
    }
    out += '"';
}

void json_signature(std::string& out, const char* name, const dxspv_signature_info& s)
{
    out += strformat(",\n  \"%s\": [", name);
    for (unsigned i = 0; i < s.element_count; ++i) {
        const dxspv_signature_element_info& e = s.elements[i];
        out += i ? ",\n    {" : "\n    {";
        out += "\"semantic\": ";
        json_string(out, e.semantic_name);
        out += strformat(", \"index\": %u, \"register\": %u, \"mask\": %u, \"used_mask\": %u, \"system_value\": %u, "
                         "\"component_type\": %u, \"stream\": %u, \"min_precision\": %u}",
                         e.semantic_index, e.register_index, e.mask, e.used_mask, e.system_value, e.component_type,
                         e.stream, e.min_precision);
    }
    out += s.element_count ? "\n  ]" : "]";
}

const char* descriptor_type_name(dxspv_descriptor_type t)
{
    static const char* names[] = {"srv", "uav", "cbv", "sampler"};
    return unsigned(t) < 4 ? names[t] : "unknown";
}

std::string to_json(const dxspv_reflection& r)
{
    std::string out = "{\n  \"stage\": ";
    json_string(out, stage_short_name(ShaderStage(r.shader_stage)));
    out += strformat(",\n  \"model\": \"%u.%u\",\n  \"thread_group_size\": [%u, %u, %u],\n  \"descriptors\": [",
                     r.model_major, r.model_minor, r.thread_group_size[0], r.thread_group_size[1],
                     r.thread_group_size[2]);
    for (unsigned i = 0; i < r.descriptor_count; ++i) {
        const dxspv_descriptor_info& d = r.descriptors[i];
        out += i ? ",\n    {" : "\n    {";
        out += strformat("\"type\": \"%s\", \"space\": %u, \"register\": %u, \"count\": %lld, \"dimension\": %u, "
                         "\"data_type\": %u, \"stride\": %u, \"flags\": %u, \"set\": %u, \"binding\": %u",
                         descriptor_type_name(d.type), d.register_space, d.register_index,
                         d.register_count == ~0u ? -1ll : (long long)d.register_count, d.resource_dimension,
                         unsigned(d.data_type), d.structure_stride, d.flags, d.set, d.binding);
        if (d.flags & DXSPV_DESCRIPTOR_INFO_PUSH_CONSTANT)
            out += strformat(", \"push_constant_offset\": %u", d.push_constant_offset);
        if (d.flags & DXSPV_DESCRIPTOR_INFO_UAV_COUNTER)
            out += strformat(", \"counter_set\": %u, \"counter_binding\": %u", d.counter_set, d.counter_binding);
        out += '}';
    }
    out += r.descriptor_count ? "\n  ]" : "]";
    json_signature(out, "inputs", r.input_signature);
    json_signature(out, "outputs", r.output_signature);
    json_signature(out, "patch_constants", r.patch_constant_signature);
    out += ",\n  \"specialization_constants\": [";
    for (uint32_t id = 0, n = 0; id < 32; ++id)
        if (r.specialization_constants & (1u << id))
            out += strformat("%s%u", n++ ? ", " : "", id);
    out += "]\n}\n";
    return out;
}

} // namespace

extern "C" DXSPV_API void dxspv_free_reflection(struct dxspv_reflection* r)
{
    if (!r)
        return;
    std::free(const_cast<dxspv_descriptor_info*>(r->descriptors));
    free_signature(r->input_signature);
    free_signature(r->output_signature);
    free_signature(r->patch_constant_signature);
    *r = {};
}

extern "C" DXSPV_API enum dxspv_result dxspv_reflect(const struct dxspv_compile_info* info,
                                                     struct dxspv_reflection* reflection, char** messages)
{
    if (messages)
        *messages = nullptr;
    if (!info || !reflection)
        return DXSPV_ERROR_INVALID_ARGUMENT;
    *reflection = {};
    try {
        Diagnostics diags(info->source_name ? info->source_name : "");
        api::Request req;
        dxspv_result result = DXSPV_ERROR_INVALID_ARGUMENT;
        // Reflection needs the front end only: any target the source supports will do.
        dxspv_compile_info front_end_only = *info;
        front_end_only.target_type = DXSPV_TARGET_TYPE_VSIR_TEXT;
        if (api::read_compile_info(&front_end_only, req, diags)) {
            vsir::Program program;
            result = api::load_program(req, program, diags);
            if (result == DXSPV_OK && !reflect(req, program, *reflection)) {
                dxspv_free_reflection(reflection);
                result = DXSPV_ERROR_OUT_OF_MEMORY;
            }
        }
        if (!api::store_messages(diags, messages))
            result = DXSPV_ERROR_OUT_OF_MEMORY;
        if (result != DXSPV_OK)
            dxspv_free_reflection(reflection);
        return result;
    } catch (const std::bad_alloc&) {
        dxspv_free_reflection(reflection);
        return DXSPV_ERROR_OUT_OF_MEMORY;
    }
}

extern "C" DXSPV_API enum dxspv_result dxspv_reflection_to_json(const struct dxspv_reflection* reflection,
                                                                char** json)
{
    if (!reflection || !json)
        return DXSPV_ERROR_INVALID_ARGUMENT;
    try {
        *json = api::copy_c_string(to_json(*reflection));
        return *json ? DXSPV_OK : DXSPV_ERROR_OUT_OF_MEMORY;
    } catch (const std::bad_alloc&) {
        *json = nullptr;
        return DXSPV_ERROR_OUT_OF_MEMORY;
    }
}
