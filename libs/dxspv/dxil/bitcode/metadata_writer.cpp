// Module writer: METADATA blocks (module level, metadata kinds, the
// function-local entries of a function) and METADATA_ATTACHMENT blocks.
// As LLVM 3.7: node operands are metadata ids + 1 (0 = null), attachments
// and named nodes use plain ids, strings are one METADATA_STRING each.
#include "dxil/bitcode/module_writer.h"

namespace dxspv::dxil::bitcode {

namespace {

enum : uint32_t {
    md_string = 1, md_value = 2, md_node = 3, md_name = 4, md_distinct_node = 5, md_kind = 6, md_named_node = 10,
    md_attachment = 11
};

} // namespace

bool ModuleWriter::number_metadata()
{
    size_t n = m_.metadata.size();
    md_map_.assign(n, no_id);
    md_local_first_.assign(m_.functions.size() + 1, 0);
    module_md_count_ = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t f = m_.metadata[i].function;
        if (f == no_id) {
            md_map_[i] = module_md_count_++;
        } else if (f >= m_.functions.size()) {
            return fail(Code::dxil_write_inconsistent, "metadata %zu belongs to function %u, which does not exist", i, f);
        } else {
            md_local_first_[f + 1]++;
        }
    }
    for (size_t f = 0; f < m_.functions.size(); ++f)
        md_local_first_[f + 1] += md_local_first_[f];
    md_local_.assign(md_local_first_.back(), 0);
    std::vector<uint32_t> fill(md_local_first_.begin(), md_local_first_.end() - 1);
    for (size_t i = 0; i < n; ++i) {
        uint32_t f = m_.metadata[i].function;
        if (f == no_id)
            continue;
        uint32_t slot = fill[f]++;
        md_local_[slot] = uint32_t(i);
        md_map_[i] = module_md_count_ + (slot - md_local_first_[f]);
    }
    return true;
}

bool ModuleWriter::metadata_id(MetadataId id, uint32_t& out) const
{
    if (id >= m_.metadata.size())
        return false;
    uint32_t f = m_.metadata[id].function;
    if (f != no_id && (!fn_ || f != fn_index_))
        return false;
    out = md_map_[id];
    return true;
}

/// One METADATA record for entry `id` (string, value, node).
bool ModuleWriter::write_metadata_record(MetadataId id)
{
    const Metadata& md = m_.metadata[id];
    ops_.clear();
    switch (md.kind) {
    case MetadataKind::string:
        string_ops(md.string);
        w_.record(md_string, ops_, abbrev_md_string);
        return true;
    case MetadataKind::value: {
        uint32_t v = 0;
        if (!type_ok(md.type, "metadata value") || !value_id(md.value, v))
            return fail(Code::dxil_write_inconsistent, "metadata %u refers to value %u, which is out of range", id,
                        md.value);
        ops_ = {type(md.type), v};
        if (!check_types_used())
            return false;
        w_.record(md_value, ops_);
        return true;
    }
    case MetadataKind::node:
    case MetadataKind::distinct_node:
        for (uint32_t op : md.operands) {
            uint32_t ref = 0;
            if (op && !metadata_id(op - 1, ref))
                return fail(Code::dxil_write_inconsistent, "metadata node %u refers to !%u, which is out of range", id,
                            op - 1);
            ops_.push_back(op ? uint64_t(ref) + 1 : 0);
        }
        w_.record(md.kind == MetadataKind::node ? md_node : md_distinct_node, ops_);
        return true;
    default:
        return fail(Code::dxil_write_unsupported,
                    "metadata %u is a record the reader kept opaque (debug information); it cannot be written back", id);
    }
}

bool ModuleWriter::write_module_metadata()
{
    if (module_md_count_ == 0 && m_.named_metadata.empty())
        return true;
    w_.enter_block(block_metadata, 3);
    const AbbrevOp string[] = {{AbbrevOp::Kind::literal, md_string}, {AbbrevOp::Kind::array, 0},
                               {AbbrevOp::Kind::fixed, 8}};
    const AbbrevOp name[] = {{AbbrevOp::Kind::literal, md_name}, {AbbrevOp::Kind::array, 0},
                             {AbbrevOp::Kind::fixed, 8}};
    w_.define_abbrev(string);
    w_.define_abbrev(name);
    for (MetadataId id = 0; id < m_.metadata.size(); ++id)
        if (m_.metadata[id].function == no_id && !write_metadata_record(id))
            return false;
    for (const NamedMetadata& n : m_.named_metadata) {
        string_ops(n.name);
        w_.record(md_name, ops_, abbrev_md_name);
        ops_.clear();
        for (MetadataId id : n.operands) {
            uint32_t ref = 0;
            if (!metadata_id(id, ref))
                return fail(Code::dxil_write_inconsistent, "named metadata '%.*s' refers to !%u, which is out of range",
                            int(n.name.size()), n.name.data(), id);
            ops_.push_back(ref);
        }
        w_.record(md_named_node, ops_);
    }
    w_.exit_block();
    return true;
}

void ModuleWriter::write_metadata_kinds()
{
    bool any = false;
    for (size_t id = 0; id < m_.metadata_kinds.size(); ++id) {
        std::string_view name = m_.metadata_kinds[id];
        if (name.empty())
            continue;
        if (!any)
            w_.enter_block(block_metadata, 3);
        any = true;
        string_ops(name, 1);
        ops_[0] = id;
        w_.record(md_kind, ops_);
    }
    if (any)
        w_.exit_block();
}

bool ModuleWriter::write_local_metadata(uint32_t function)
{
    uint32_t first = md_local_first_[function], last = md_local_first_[function + 1];
    if (first == last)
        return true;
    w_.enter_block(block_metadata, 3);
    for (uint32_t i = first; i < last; ++i)
        if (!write_metadata_record(md_local_[i]))
            return false;
    w_.exit_block();
    return true;
}

bool ModuleWriter::write_attachments(const Function& f)
{
    if (f.attachments.empty())
        return true;
    // Group by instruction (counting sort, stable): one record per
    // instruction, the function's own attachments first.
    size_t n = f.instructions.size();
    std::vector<uint32_t> first(n + 2, 0);
    for (const MetadataAttachment& a : f.attachments) {
        if (a.instruction != no_id && a.instruction >= n)
            return fail(Code::dxil_write_inconsistent, "an attachment refers to instruction %u of %zu", a.instruction, n);
        if (a.kind >= m_.metadata_kinds.size() || m_.metadata_kinds[a.kind].empty())
            return fail(Code::dxil_write_inconsistent, "an attachment has metadata kind %u, which is not defined", a.kind);
        first[(a.instruction == no_id ? 0 : a.instruction + 1) + 1]++;
    }
    for (size_t i = 1; i < first.size(); ++i)
        first[i] += first[i - 1];
    std::vector<uint32_t> order(f.attachments.size());
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (uint32_t i = 0; i < f.attachments.size(); ++i) {
        uint32_t inst = f.attachments[i].instruction;
        order[fill[inst == no_id ? 0 : inst + 1]++] = i;
    }
    w_.enter_block(block_metadata_attachment, 3);
    for (size_t slot = 0; slot + 1 < first.size(); ++slot) {
        if (first[slot] == first[slot + 1])
            continue;
        ops_.clear();
        if (slot > 0)
            ops_.push_back(slot - 1);
        for (uint32_t k = first[slot]; k < first[slot + 1]; ++k) {
            const MetadataAttachment& a = f.attachments[order[k]];
            uint32_t node = 0;
            if (!metadata_id(a.node, node))
                return fail(Code::dxil_write_inconsistent, "an attachment refers to !%u, which is out of range", a.node);
            ops_.push_back(a.kind);
            ops_.push_back(node);
        }
        w_.record(md_attachment, ops_);
    }
    w_.exit_block();
    return true;
}

} // namespace dxspv::dxil::bitcode
