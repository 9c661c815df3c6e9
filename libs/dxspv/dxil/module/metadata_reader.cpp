// Module reader: METADATA, METADATA_KIND and METADATA_ATTACHMENT blocks.
#include "dxil/module/reader.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace dxspv::dxil::detail {

namespace {

enum : uint32_t {
    md_string = 1, md_value = 2, md_node = 3, md_name = 4, md_distinct_node = 5, md_kind = 6,
    md_named_node = 10, md_attachment = 11, md_strings = 35
};

/// The last module-level block of METADATA_KIND records only that this
/// thread decoded without an error, and the kinds it named. dxc writes the
/// same block (LLVM's fixed kinds and DXIL's own) into every module, one
/// character per VBR6 operand: decoding it took about 2 % of a DXIL
/// translation. A block is taken from here only when its bytes and
/// abbreviation id width are those kept (compared in full) and the module
/// has no kinds yet: its unabbreviated records decode from nothing else, so
/// decoding it again would name exactly these kinds, without an error.
struct KindBlockCache {
    /// Larger blocks are not kept: a thread holds no large copy of an input.
    static constexpr size_t max_bytes = 4096;

    unsigned abbrev_width = 0;  ///< 0 (no block has that width): nothing kept
    std::vector<uint8_t> bytes; ///< the block's contents, after its length word
    std::string names;          ///< the kinds' names in id order, each followed by a NUL
    std::vector<uint32_t> ends; ///< per kind id: where its name ends in `names`

    bool matches(std::span<const uint8_t> block, unsigned width) const
    {
        return width == abbrev_width && std::equal(block.begin(), block.end(), bytes.begin(), bytes.end());
    }
    void save(std::span<const uint8_t> block, unsigned width, std::span<const std::string_view> kinds)
    {
        abbrev_width = width;
        bytes.assign(block.begin(), block.end());
        names.clear();
        ends.clear();
        for (std::string_view name : kinds) {
            names.append(name);
            ends.push_back(uint32_t(names.size()));
            names.push_back('\0');
        }
    }
    /// The kinds, their names copied into the module's arena.
    void restore(Module& m) const
    {
        char* copy = m.arena.alloc_array<char>(names.size());
        std::memcpy(copy, names.data(), names.size());
        m.metadata_kinds.resize(ends.size());
        uint32_t begin = 0;
        for (size_t id = 0; id < ends.size(); ++id) {
            m.metadata_kinds[id] = {copy + begin, ends[id] - begin};
            begin = ends[id] + 1;
        }
    }
};

KindBlockCache& kind_block_cache()
{
    thread_local KindBlockCache cache;
    return cache;
}

} // namespace

bool ModuleReader::read_module_metadata(uint32_t block_id)
{
    if (!cursor_.enter_block(block_id))
        return false;
    const std::span<const uint8_t> block = cursor_.block_contents();
    const unsigned width = cursor_.abbrev_width();
    // Kinds read before would be overwritten, and a module with all the
    // metadata it may hold fails on any record, kinds too.
    const bool cacheable = m_.metadata_kinds.empty() && m_.metadata.size() < max_count && !block.empty() &&
                           block.size() <= KindBlockCache::max_bytes;
    KindBlockCache& cache = kind_block_cache();
    if (cacheable && cache.matches(block, width)) {
        cache.restore(m_);
        return cursor_.leave_block();
    }
    // Function bodies before: their metadata lies among the module's, and
    // check_module() checks it all again, as a whole.
    if (next_body_ != 0)
        module_values_ok_ = false;
    // Room for the block's metadata at once (a record takes 5 bytes or so
    // in dxc's modules, rarely 4 or fewer), not a regrowth every few records.
    if (block_id == block_metadata)
        m_.metadata.reserve(m_.metadata.size() + std::min<size_t>(block.size() / 4, 1024));
    bool kinds_only = true;
    if (!read_metadata_block(false, &kinds_only))
        return false;
    if (cacheable && kinds_only && !m_.metadata_kinds.empty())
        cache.save(block, width, m_.metadata_kinds);
    return true;
}

bool ModuleReader::resolve_metadata(uint64_t id, MetadataId& out)
{
    if (id < module_metadata_count_) {
        out = MetadataId(id);
        return true;
    }
    uint64_t local = id - module_metadata_count_;
    if (fn_ && local < metadata_map_.size()) {
        out = metadata_map_[local];
        return true;
    }
    return fail(Code::dxil_bad_metadata_id, "metadata id %llu is out of range", (unsigned long long)id);
}

bool ModuleReader::read_metadata_kind(uint32_t code)
{
    (void)code;
    if (!need(1, "METADATA_KIND"))
        return false;
    if (ops_[0] > 0xFFFF)
        return fail(Code::dxil_bad_metadata, "metadata kind id %llu is too large", (unsigned long long)ops_[0]);
    size_t id = size_t(ops_[0]);
    if (m_.metadata_kinds.size() <= id) {
        // The kinds come in order, one more each time: room for LLVM's
        // fixed kinds and DXIL's at once, not a regrowth every few records.
        if (m_.metadata_kinds.capacity() <= id)
            m_.metadata_kinds.reserve(std::max(size_t(32), 2 * (id + 1)));
        m_.metadata_kinds.resize(id + 1);
    }
    m_.metadata_kinds[id] = ops_name(1);
    return true;
}

bool ModuleReader::read_metadata_strings()
{
    // [count, offset to the characters] + blob: `count` VBR6 lengths, then the characters.
    if (!need(2, "METADATA_STRINGS"))
        return false;
    uint64_t count = ops_[0], offset = ops_[1];
    if (offset > blob_.size() || count > blob_.size() * 8)
        return fail(Code::dxil_bad_metadata, "METADATA_STRINGS offsets lie outside its blob");
    BitReader lengths(blob_.subspan(0, size_t(offset)));
    size_t at = size_t(offset);
    for (uint64_t i = 0; i < count; ++i) {
        bool overflow = false;
        uint64_t n = lengths.read_vbr(6, overflow);
        if (overflow || lengths.failed() || n > blob_.size() - at)
            return fail(Code::dxil_bad_metadata, "METADATA_STRINGS lengths run past its blob");
        Metadata md;
        md.kind = MetadataKind::string;
        md.string = m_.arena.intern({reinterpret_cast<const char*>(blob_.data() + at), size_t(n)});
        at += size_t(n);
        m_.metadata.push_back(md);
    }
    return true;
}

bool ModuleReader::read_metadata_block(bool local, bool* kinds_only)
{
    std::string_view pending_name;
    bool have_name = false;
    bool only_kinds = true;
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            break;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            only_kinds = false;
            if (!cursor_.skip_block())
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record(e.id, code, ops_, &blob_))
            return false;
        only_kinds &= e.id == abbrev_unabbrev_record && code == md_kind;
        if (m_.metadata.size() >= max_count)
            return fail(Code::dxil_too_large, "too much metadata");
        size_t before = m_.metadata.size();
        Metadata md;
        md.function = local ? fn_index_ : no_id;
        switch (code) {
        case md_string:
            md.kind = MetadataKind::string;
            md.string = ops_name(0);
            m_.metadata.push_back(md);
            break;
        case md_strings:
            if (!read_metadata_strings())
                return false;
            break;
        case md_value:
            if (!need(2, "METADATA_VALUE") || !type_ok(ops_[0], "metadata value"))
                return false;
            md.kind = MetadataKind::value;
            md.type = TypeId(ops_[0]);
            if (ops_[1] >= max_count)
                return fail(Code::dxil_bad_value_id, "metadata value id %llu", (unsigned long long)ops_[1]);
            md.value = ValueId(ops_[1]);
            if (!local) // checked again by check_metadata() when not valid here
                module_values_ok_ &= md.value < m_.values.size() && m_.values[md.value].type == md.type;
            m_.metadata.push_back(md);
            break;
        case md_node:
        case md_distinct_node: {
            md.kind = code == md_node ? MetadataKind::node : MetadataKind::distinct_node;
            size_t bad = 0;
            if (!ops_ids(0, uint64_t(max_count) + 1, md.operands, bad, local ? nullptr : &module_node_high_))
                return fail(Code::dxil_bad_metadata_id, "metadata node operand %llu", (unsigned long long)ops_[bad]);
            m_.metadata.push_back(md);
            break;
        }
        case md_name:
            pending_name = ops_name(0);
            have_name = true;
            break;
        case md_named_node: {
            if (!have_name)
                return fail(Code::dxil_bad_metadata, "NAMED_NODE without a preceding NAME");
            have_name = false;
            size_t bad = 0;
            std::span<const uint32_t> operands;
            if (!ops_ids(0, max_count, operands, bad))
                return fail(Code::dxil_bad_metadata_id, "named metadata operand %llu", (unsigned long long)ops_[bad]);
            m_.named_metadata.push_back({pending_name, operands});
            break;
        }
        case md_kind:
            if (!read_metadata_kind(code))
                return false;
            break;
        default:
            // Debug info and other records: kept as opaque nodes so numbering stays right.
            md.kind = MetadataKind::other;
            md.value = code;
            m_.metadata.push_back(md);
            break;
        }
        if (local)
            for (size_t i = before; i < m_.metadata.size(); ++i)
                metadata_map_.push_back(uint32_t(i));
    }
    if (kinds_only)
        *kinds_only = only_kinds;
    return true;
}

bool ModuleReader::check_metadata(size_t first, size_t last)
{
    for (size_t i = first; i < last; ++i) {
        Metadata& md = m_.metadata[i];
        if (md.kind == MetadataKind::node || md.kind == MetadataKind::distinct_node) {
            uint32_t* ops = const_cast<uint32_t*>(md.operands.data());
            for (size_t k = 0; k < md.operands.size(); ++k) {
                if (ops[k] == 0)
                    continue;
                MetadataId id = 0;
                if (!resolve_metadata(ops[k] - 1, id))
                    return false;
                ops[k] = id + 1;
            }
        } else if (md.kind == MetadataKind::value) {
            size_t limit = m_.values.size() + (md.function != no_id && fn_ ? fn_->values.size() : 0);
            if (md.value >= limit)
                return fail(Code::dxil_bad_value_id, "metadata refers to value %u of %zu", md.value, limit);
            if (type_of(md.value) != md.type)
                return fail(Code::dxil_type_mismatch, "metadata value %u has another type than recorded", md.value);
        }
    }
    return first != 0 || check_named_metadata();
}

bool ModuleReader::check_named_metadata()
{
    for (const NamedMetadata& n : m_.named_metadata)
        for (MetadataId id : n.operands)
            if (id >= m_.metadata.size())
                return fail(Code::dxil_bad_metadata_id, "named metadata %.*s refers to !%u", int(n.name.size()),
                            n.name.data(), id);
    return true;
}

bool ModuleReader::read_attachment_block()
{
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            return true;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            if (!cursor_.skip_block())
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record(e.id, code, ops_))
            return false;
        if (code != md_attachment)
            continue;
        size_t i = 0;
        uint32_t inst = no_id;
        if (ops_.size() & 1) {
            if (ops_[0] >= fn_->instructions.size())
                return fail(Code::dxil_bad_metadata, "an attachment refers to instruction %llu",
                            (unsigned long long)ops_[0]);
            inst = uint32_t(ops_[0]);
            i = 1;
        }
        for (; i + 1 < ops_.size(); i += 2) {
            MetadataId node = 0;
            if (ops_[i] >= m_.metadata_kinds.size() || m_.metadata_kinds[ops_[i]].empty())
                return fail(Code::dxil_bad_metadata, "unknown metadata kind %llu", (unsigned long long)ops_[i]);
            if (!resolve_metadata(ops_[i + 1], node))
                return false;
            fn_->attachments.push_back({inst, uint32_t(ops_[i]), node});
        }
    }
}

} // namespace dxspv::dxil::detail
