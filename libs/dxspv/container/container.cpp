#include "container/container.h"

#include <algorithm>

#include "common/byte_reader.h"
#include "common/byte_writer.h"
#include "container/checksum.h"

namespace dxspv::container {

std::string fourcc_name(uint32_t code)
{
    std::string s(4, '?');
    for (size_t i = 0; i < 4; ++i) {
        char c = char(code >> (8 * i));
        if (c >= 0x20 && c < 0x7f)
            s[i] = c;
    }
    return s;
}

const Chunk* Container::find(uint32_t code) const
{
    for (const Chunk& c : chunks)
        if (c.fourcc == code)
            return &c;
    return nullptr;
}

bool is_dxbc(std::span<const uint8_t> bytes)
{
    return bytes.size() >= 4 && load_le32(bytes.data()) == dxbc_magic;
}

namespace {

/// Checks the fixed header; sets `total` to the usable container size.
bool parse_header(std::span<const uint8_t> bytes, Container& out, size_t& total, Diagnostics& diags)
{
    if (bytes.size() < header_size) {
        diags.error(Code::container_truncated_header, Location::offset(0),
                    "the input is %zu bytes, a DXBC header needs %zu", bytes.size(), header_size);
        return false;
    }
    if (!is_dxbc(bytes)) {
        diags.error(Code::container_bad_magic, Location::offset(0), "expected 'DXBC', found '%s'",
                    fourcc_name(load_le32(bytes.data())).c_str());
        return false;
    }
    std::copy_n(bytes.data() + checksum_offset, checksum_size, out.checksum.begin());
    out.major = load_le16(bytes.data() + 20);
    out.minor = load_le16(bytes.data() + 22);
    if (out.major != 1) {
        diags.error(Code::container_bad_version, Location::offset(20), "container version %u.%u, expected 1.0",
                    unsigned(out.major), unsigned(out.minor));
        return false;
    }
    uint32_t declared = load_le32(bytes.data() + 24);
    if (declared > bytes.size()) {
        diags.error(Code::container_truncated, Location::offset(24),
                    "the container declares %u bytes but the input has only %zu", declared, bytes.size());
        return false;
    }
    if (declared < header_size) {
        diags.error(Code::container_truncated_header, Location::offset(24),
                    "the declared total size %u is smaller than the header", declared);
        return false;
    }
    if (declared < bytes.size())
        diags.warning(Code::container_trailing_bytes, Location::offset(declared),
                      "%zu bytes after the declared end of the container are ignored", bytes.size() - declared);
    total = declared;
    out.bytes = bytes.first(total);
    return true;
}

/// Reads one entry of the offset table into `chunk`.
bool parse_chunk_entry(std::span<const uint8_t> bytes, size_t table_end, uint32_t index, Chunk& chunk,
                       Diagnostics& diags)
{
    size_t entry = header_size + 4 * size_t(index);
    uint32_t offset = load_le32(bytes.data() + entry);
    if (offset < table_end || uint64_t(offset) + chunk_header_size > bytes.size()) {
        diags.error(Code::container_bad_chunk_offset, Location::offset(entry),
                    "chunk %u starts at 0x%x, outside [0x%zx, 0x%zx)", index, offset, table_end, bytes.size());
        return false;
    }
    // Older dxc releases write unaligned chunks; they read fine byte-wise.
    if (offset % 4)
        diags.warning(Code::container_unaligned_chunk, Location::offset(entry),
                      "chunk %u starts at 0x%x, which is not 4-byte aligned", index, offset);
    uint32_t size = load_le32(bytes.data() + offset + 4);
    uint64_t data_offset = uint64_t(offset) + chunk_header_size;
    if (data_offset + size > bytes.size()) {
        diags.error(Code::container_chunk_past_end, Location::offset(offset + 4),
                    "chunk %u ('%s') declares %u bytes, only %zu remain in the container", index,
                    fourcc_name(load_le32(bytes.data() + offset)).c_str(), size,
                    size_t(bytes.size() - data_offset));
        return false;
    }
    chunk.fourcc = load_le32(bytes.data() + offset);
    chunk.offset = uint32_t(data_offset);
    chunk.data = bytes.subspan(size_t(data_offset), size);
    return true;
}

/// True when the chunks lie in the order of the offset table, each ending
/// before the next one's header: what compilers write.
bool ordered_apart(std::span<const Chunk> chunks)
{
    for (size_t i = 1; i < chunks.size(); ++i)
        if (chunks[i - 1].offset >= chunks[i].offset ||
            chunks[i - 1].offset + chunks[i - 1].data.size() > chunks[i].header_offset())
            return false;
    return true;
}

bool check_overlaps(std::span<const Chunk> chunks, Diagnostics& diags)
{
    if (ordered_apart(chunks)) // (no copy to sort: sorting would not reorder them)
        return true;
    std::vector<const Chunk*> sorted;
    sorted.reserve(chunks.size());
    for (const Chunk& c : chunks)
        sorted.push_back(&c);
    std::sort(sorted.begin(), sorted.end(), [](const Chunk* a, const Chunk* b) { return a->offset < b->offset; });
    bool ok = true;
    for (size_t i = 1; i < sorted.size(); ++i) {
        const Chunk& prev = *sorted[i - 1];
        const Chunk& next = *sorted[i];
        if (prev.offset + prev.data.size() > next.header_offset()) {
            diags.error(Code::container_overlapping_chunks, Location::offset(next.header_offset()),
                        "chunk '%s' at 0x%x overlaps chunk '%s' at 0x%x", fourcc_name(next.fourcc).c_str(),
                        next.header_offset(), fourcc_name(prev.fourcc).c_str(), prev.header_offset());
            ok = false;
        }
    }
    return ok;
}

} // namespace

bool parse_container(std::span<const uint8_t> input, Container& out, Diagnostics& diags)
{
    // Field by field: `out = Container{}` would build and copy the chunks' place too.
    out.bytes = {};
    out.checksum = {};
    out.major = out.minor = 0;
    out.chunks.clear();
    size_t total = 0;
    if (!parse_header(input, out, total, diags))
        return false;
    std::span<const uint8_t> bytes = out.bytes;

    // Each chunk needs an offset-table entry and an 8-byte header.
    uint32_t count = load_le32(bytes.data() + 28);
    size_t max_count = (total - header_size) / (4 + chunk_header_size);
    if (count > max_count) {
        diags.error(Code::container_bad_chunk_count, Location::offset(28),
                    "%u chunks declared, a %zu-byte container holds at most %zu", count, total, max_count);
        return false;
    }
    size_t table_end = header_size + 4 * size_t(count);

    out.chunks.resize(count);
    bool ok = true;
    for (uint32_t i = 0; i < count; ++i)
        ok = parse_chunk_entry(bytes, table_end, i, out.chunks[i], diags) && ok;
    if (!ok)
        return false;
    return check_overlaps(out.chunks, diags);
}

bool serialize_container(std::span<const ChunkInput> chunks, std::vector<uint8_t>& out, Diagnostics& diags)
{
    out.clear();
    uint64_t total = header_size + 4 * uint64_t(chunks.size());
    for (const ChunkInput& c : chunks)
        total += chunk_header_size + ((uint64_t(c.data.size()) + 3) & ~uint64_t(3));
    if (total > UINT32_MAX) {
        diags.error(Code::container_too_large, Location::none(), "the container would be %llu bytes",
                    static_cast<unsigned long long>(total));
        return false;
    }

    ByteWriter w;
    w.bytes().reserve(size_t(total));
    w.u32(dxbc_magic);
    for (size_t i = 0; i < checksum_size; ++i)
        w.u8(0);
    w.u16(1);
    w.u16(0);
    w.u32(uint32_t(total));
    w.u32(uint32_t(chunks.size()));
    size_t table = w.size();
    for (size_t i = 0; i < chunks.size(); ++i)
        w.u32(0);
    for (size_t i = 0; i < chunks.size(); ++i) {
        w.patch_u32(table + 4 * i, uint32_t(w.size()));
        w.u32(chunks[i].fourcc);
        w.u32(uint32_t(chunks[i].data.size()));
        w.append(chunks[i].data);
        w.align(4);
    }
    Checksum sum = compute_checksum(w.bytes());
    std::copy(sum.begin(), sum.end(), w.bytes().begin() + checksum_offset);
    out = std::move(w.bytes());
    return true;
}

} // namespace dxspv::container
