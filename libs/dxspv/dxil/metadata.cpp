#include "dxil/metadata.h"

namespace dxspv::dxil {

namespace {

enum : uint64_t {
    tag_shader_flags = 0, tag_gs_state = 1, tag_ds_state = 2, tag_hs_state = 3, tag_num_threads = 4,
    tag_ms_state = 9, tag_as_state = 10, tag_wave_size = 11, tag_wave_size_range = 23
};

class MetadataReader {
public:
    MetadataReader(const Module& m, Diagnostics& diags)
        : m_(m), metadata_(m.metadata.data(), m.metadata.size()), values_(m.values.data(), m.values.size()),
          diags_(diags)
    {
    }

    bool run(DxilMetadata& out);

private:
    bool fail(const char* what)
    {
        diags_.error(Code::dxil_bad_metadata, Location::none(), "DXIL metadata: %s", what);
        return false;
    }
    /// Node operand i (0 = null) of node `id`, or nullptr.
    const Metadata* node(MetadataId id) const
    {
        if (id >= metadata_.size())
            return nullptr;
        const Metadata& md = metadata_[id];
        return md.kind == MetadataKind::node || md.kind == MetadataKind::distinct_node ? &md : nullptr;
    }
    const Metadata* op_node(const Metadata& n, size_t i) const
    {
        return i < n.operands.size() && n.operands[i] ? node(n.operands[i] - 1) : nullptr;
    }
    bool op_null(const Metadata& n, size_t i) const { return i >= n.operands.size() || n.operands[i] == 0; }
    /// An integer field: operand i's value if it is an integer (or null)
    /// constant, else ok = false and 0. Out of line (the readers read almost
    /// every field through it: inlined, it made them hundreds of code lines
    /// run once per translation) and returned in registers.
    struct IntField {
        uint64_t value;
        bool ok;
    };
    [[gnu::noinline]] IntField int_field(const Metadata& n, size_t i) const;
    bool op_int(const Metadata& n, size_t i, uint64_t& v) const
    {
        const IntField f = int_field(n, i);
        if (f.ok)
            v = f.value;
        return f.ok;
    }
    uint32_t op_u32(const Metadata& n, size_t i, bool& ok) const
    {
        const IntField f = int_field(n, i);
        ok &= f.ok;
        return uint32_t(f.value);
    }
    bool op_string(const Metadata& n, size_t i, std::string& s) const
    {
        if (i >= n.operands.size() || !n.operands[i] || n.operands[i] - 1 >= metadata_.size())
            return false;
        const Metadata& md = metadata_[n.operands[i] - 1];
        if (md.kind != MetadataKind::string)
            return false;
        s = md.string;
        return true;
    }
    bool op_value(const Metadata& n, size_t i, ValueId& v, TypeId& t) const
    {
        if (i >= n.operands.size() || !n.operands[i] || n.operands[i] - 1 >= metadata_.size())
            return false;
        const Metadata& md = metadata_[n.operands[i] - 1];
        if (md.kind != MetadataKind::value)
            return false;
        v = md.value;
        t = md.type;
        return true;
    }
    const Metadata* named_first(const char* name) const
    {
        const NamedMetadata* n = m_.find_named_metadata(name);
        return n && !n->operands.empty() ? node(n->operands[0]) : nullptr;
    }

    bool signature(const Metadata* list, SignatureList& out);
    bool resources(const Metadata& lists, ScratchVector<ResourceBinding>& out);
    bool resource(const Metadata& r, ResourceClass cls, ResourceBinding& out);
    bool properties(const Metadata& props, EntryPoint& e);
    bool entry_point(const Metadata& n, EntryPoint& e);

    const Module& m_;
    /// m_'s metadata and values, their sizes kept (a vector's size divides
    /// by the element's).
    std::span<const Metadata> metadata_;
    std::span<const ModuleValue> values_;
    Diagnostics& diags_;
};

MetadataReader::IntField MetadataReader::int_field(const Metadata& n, size_t i) const
{
    if (i >= n.operands.size() || !n.operands[i] || n.operands[i] - 1 >= metadata_.size())
        return {0, false};
    const Metadata& md = metadata_[n.operands[i] - 1];
    if (md.kind != MetadataKind::value || md.value >= values_.size())
        return {0, false};
    const ModuleValue& mv = values_[md.value];
    if (mv.kind != ModuleValue::Kind::constant)
        return {0, false};
    const Constant& c = m_.constants[mv.index];
    if (c.kind == ConstantKind::integer || c.kind == ConstantKind::float_) {
        uint64_t v = c.value;
        uint32_t w = m_.types[c.type].width;
        if (c.kind == ConstantKind::integer && w && w < 64)
            v &= (uint64_t(1) << w) - 1;
        return {v, true};
    }
    return {0, c.kind == ConstantKind::null};
}

bool MetadataReader::signature(const Metadata* list, SignatureList& out)
{
    if (!list)
        return true;
    out.reserve(out.size() + list->operands.size()); // not grown element by element
    for (size_t i = 0; i < list->operands.size(); ++i) {
        const Metadata* e = op_node(*list, i);
        if (!e || e->operands.size() < 10)
            return fail("a signature element is not a node of 10 or 11 operands");
        SignatureElement s;
        bool ok = op_string(*e, 1, s.name);
        s.id = op_u32(*e, 0, ok);
        s.component_type = uint8_t(op_u32(*e, 2, ok));
        s.semantic_kind = uint8_t(op_u32(*e, 3, ok));
        if (const Metadata* idx = op_node(*e, 4))
            for (size_t k = 0; k < idx->operands.size(); ++k)
                s.semantic_indices.push_back(op_u32(*idx, k, ok));
        s.interpolation = uint8_t(op_u32(*e, 5, ok));
        s.rows = op_u32(*e, 6, ok);
        s.cols = uint8_t(op_u32(*e, 7, ok));
        s.start_row = int32_t(op_u32(*e, 8, ok));
        s.start_col = int8_t(op_u32(*e, 9, ok));
        if (const Metadata* ext = op_node(*e, 10)) {
            for (size_t k = 0; k + 1 < ext->operands.size(); k += 2) {
                uint64_t tag = 0, v = 0;
                if (!op_int(*ext, k, tag) || !op_int(*ext, k + 1, v))
                    continue;
                if (tag == 0)
                    s.output_stream = uint32_t(v);
                else if (tag == 3)
                    s.usage_mask = uint32_t(v);
                else if (tag == 4)
                    s.dynamic_index_mask = uint32_t(v);
            }
        }
        if (!ok)
            return fail("a signature element has a field of the wrong kind");
        out.push_back(std::move(s));
    }
    return true;
}

bool MetadataReader::resource(const Metadata& r, ResourceClass cls, ResourceBinding& out)
{
    static const size_t min_ops[] = {9, 11, 8, 8};
    if (r.operands.size() < min_ops[size_t(cls)])
        return fail("a resource record has too few fields");
    bool ok = true;
    out.resource_class = cls;
    out.id = op_u32(r, 0, ok);
    ValueId sym = no_id;
    if (op_value(r, 1, sym, out.symbol_type) == false)
        out.symbol_type = no_id;
    op_string(r, 2, out.name);
    out.space = op_u32(r, 3, ok);
    out.lower_bound = op_u32(r, 4, ok);
    out.range_size = op_u32(r, 5, ok);
    size_t ext = 0;
    switch (cls) {
    case ResourceClass::srv:
        out.kind = op_u32(r, 6, ok);
        out.sample_count = op_u32(r, 7, ok);
        ext = 8;
        break;
    case ResourceClass::uav:
        out.kind = op_u32(r, 6, ok);
        out.globally_coherent = op_u32(r, 7, ok) != 0;
        out.has_counter = op_u32(r, 8, ok) != 0;
        out.rasterizer_ordered = op_u32(r, 9, ok) != 0;
        ext = 10;
        break;
    case ResourceClass::cbv:
        out.cbuffer_size = op_u32(r, 6, ok);
        ext = 7;
        break;
    case ResourceClass::sampler:
        out.kind = op_u32(r, 6, ok);
        ext = 7;
        break;
    }
    if (const Metadata* tags = op_node(r, ext)) {
        for (size_t k = 0; k + 1 < tags->operands.size(); k += 2) {
            uint64_t tag = 0, v = 0;
            if (!op_int(*tags, k, tag) || !op_int(*tags, k + 1, v))
                continue;
            if (tag == 0)
                out.element_type = uint32_t(v);
            else if (tag == 1)
                out.stride = uint32_t(v);
            else if (tag == 3)
                out.atomic64 = v != 0;
        }
    }
    return ok ? true : fail("a resource record has a field of the wrong kind");
}

bool MetadataReader::resources(const Metadata& lists, ScratchVector<ResourceBinding>& out)
{
    // Room for all at once: not grown (each binding moved) resource by resource.
    size_t count = out.size();
    for (size_t cls = 0; cls < 4 && cls < lists.operands.size(); ++cls)
        if (const Metadata* list = op_node(lists, cls))
            count += list->operands.size();
    out.reserve(count);
    for (size_t cls = 0; cls < 4 && cls < lists.operands.size(); ++cls) {
        const Metadata* list = op_node(lists, cls);
        if (!list)
            continue;
        for (size_t i = 0; i < list->operands.size(); ++i) {
            const Metadata* r = op_node(*list, i);
            if (!r)
                return fail("a resource list entry is not a node");
            ResourceBinding b;
            if (!resource(*r, ResourceClass(cls), b))
                return false;
            out.push_back(std::move(b));
        }
    }
    return true;
}

bool MetadataReader::properties(const Metadata& props, EntryPoint& e)
{
    for (size_t i = 0; i + 1 < props.operands.size(); i += 2) {
        uint64_t tag = 0;
        if (!op_int(props, i, tag))
            return fail("a shader property tag is not an integer");
        bool ok = true;
        const Metadata* list = op_node(props, i + 1);
        auto field = [&](size_t k) { return list && k < list->operands.size() ? op_u32(*list, k, ok) : (ok = false, 0u); };
        switch (tag) {
        case tag_shader_flags: ok = op_int(props, i + 1, e.shader_flags); break;
        case tag_num_threads:
            for (int k = 0; k < 3; ++k)
                e.num_threads[k] = field(size_t(k));
            break;
        case tag_gs_state:
            e.gs_input_primitive = field(0);
            e.gs_max_vertex_count = field(1);
            e.gs_stream_mask = field(2);
            e.gs_output_topology = field(3);
            e.gs_instance_count = field(4);
            break;
        case tag_ds_state:
            e.tess_domain = field(0);
            e.input_control_points = field(1);
            break;
        case tag_hs_state: {
            TypeId t = no_id;
            if (list && !op_null(*list, 0) && !op_value(*list, 0, e.patch_constant_function, t))
                ok = false;
            e.input_control_points = field(1);
            e.output_control_points = field(2);
            e.tess_domain = field(3);
            e.tess_partitioning = field(4);
            e.tess_output_primitive = field(5);
            uint64_t f = 0;
            if (list && op_int(*list, 6, f))
                e.max_tess_factor_bits = f;
            break;
        }
        case tag_ms_state:
        case tag_as_state: {
            // MS: {numthreads, max vertices, max primitives, topology, payload size}; AS: {numthreads, payload size}.
            const Metadata* threads = list ? op_node(*list, 0) : nullptr;
            if (!threads || threads->operands.size() != 3) {
                ok = false;
                break;
            }
            for (int k = 0; k < 3; ++k)
                e.num_threads[k] = op_u32(*threads, size_t(k), ok);
            if (tag == tag_as_state) {
                e.payload_size = field(1);
                break;
            }
            e.ms_max_vertices = field(1);
            e.ms_max_primitives = field(2);
            e.ms_topology = field(3);
            e.payload_size = field(4);
            break;
        }
        case tag_wave_size: e.wave_size_min = field(0); break;
        case tag_wave_size_range:
            e.wave_size_min = field(0);
            e.wave_size_max = field(1);
            e.wave_size_preferred = field(2);
            break;
        default: e.unknown_tags.push_back(uint32_t(tag)); break;
        }
        if (!ok)
            return fail("a shader property value has the wrong form");
    }
    return true;
}

bool MetadataReader::entry_point(const Metadata& n, EntryPoint& e)
{
    if (n.operands.size() < 5)
        return fail("an entry point is not a node of 5 operands");
    TypeId t = no_id;
    if (!op_null(n, 0) && !op_value(n, 0, e.function, t))
        return fail("an entry point's function is not a value");
    if (!op_string(n, 1, e.name))
        return fail("an entry point's name is not a string");
    if (const Metadata* sigs = op_node(n, 2)) {
        if (!signature(op_node(*sigs, 0), e.inputs) || !signature(op_node(*sigs, 1), e.outputs) ||
            !signature(op_node(*sigs, 2), e.patch_constants))
            return false;
    }
    if (const Metadata* res = op_node(n, 3))
        if (!resources(*res, e.resources))
            return false;
    if (const Metadata* props = op_node(n, 4))
        if (!properties(*props, e))
            return false;
    return true;
}

bool MetadataReader::run(DxilMetadata& out)
{
    bool ok = true;
    if (const Metadata* v = named_first("dx.version")) {
        out.dxil_major = op_u32(*v, 0, ok);
        out.dxil_minor = op_u32(*v, 1, ok);
    }
    if (const Metadata* v = named_first("dx.valver")) {
        out.validator_major = op_u32(*v, 0, ok);
        out.validator_minor = op_u32(*v, 1, ok);
    }
    if (!ok)
        return fail("dx.version or dx.valver is not two integers");
    const Metadata* sm = named_first("dx.shaderModel");
    if (!sm)
        return fail("no dx.shaderModel");
    out.sm_major = op_u32(*sm, 1, ok);
    out.sm_minor = op_u32(*sm, 2, ok);
    if (!op_string(*sm, 0, out.shader_kind) || !ok)
        return fail("dx.shaderModel is not a kind string and two integers");
    if (const Metadata* res = named_first("dx.resources"))
        if (!resources(*res, out.resources))
            return false;
    const NamedMetadata* entries = m_.find_named_metadata("dx.entryPoints");
    if (!entries)
        return fail("no dx.entryPoints");
    for (MetadataId id : entries->operands) {
        const Metadata* n = node(id);
        if (!n)
            return fail("an entry point is not a node");
        EntryPoint e;
        if (!entry_point(*n, e))
            return false;
        out.entry_points.push_back(std::move(e));
    }
    return true;
}

} // namespace

bool read_dxil_metadata(const Module& module, DxilMetadata& out, Diagnostics& diags)
{
    MetadataReader reader(module, diags);
    return reader.run(out);
}

} // namespace dxspv::dxil
