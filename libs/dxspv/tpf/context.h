// State shared by the TPF reader's parts (reader, operand decoder,
// declarations). Private to tpf/.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/byte_reader.h"
#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::tpf {

/// The value types of typed resources or UAVs by range id (for
/// Slot::value): the first ids in place, so that a program's usual few
/// declarations cost no allocation; larger ones in a vector.
class ValueTypes {
public:
    /// The type `set` gave `id`, f32 when none was.
    vsir::DataType get(uint32_t id) const
    {
        vsir::DataType type = id < near_count ? near_[id] : id - near_count < far_.size() ? far_[id - near_count]
                                                                                            : vsir::DataType::none;
        return type == vsir::DataType::none ? vsir::DataType::f32 : type;
    }
    /// Records the type of `id` (not none).
    void set(uint32_t id, vsir::DataType type)
    {
        if (id < near_count) {
            near_[id] = type;
            return;
        }
        if (far_.size() <= id - near_count)
            far_.resize(id - near_count + 1, vsir::DataType::none);
        far_[id - near_count] = type;
    }

private:
    static constexpr uint32_t near_count = 32;
    vsir::DataType near_[near_count] = {}; ///< none: not declared
    std::vector<vsir::DataType> far_;
};

struct Context {
    const uint8_t* bytes = nullptr; ///< the token stream (may be unaligned)
    uint32_t word_count = 0;        ///< tokens in the program (from its length token)
    uint32_t base_offset = 0;       ///< byte offset of the chunk data in the container
    bool sm51 = false;              ///< SM5.1 register and declaration forms
    bool refused = false;           ///< a refused feature (class linkage) was met: stop reading
    vsir::Program* program = nullptr;
    Diagnostics* diags = nullptr;
    /// Value type of typed resources and UAVs by range id (for Slot::value).
    ValueTypes resource_value_types;
    ValueTypes uav_value_types;

    uint32_t word(uint32_t index) const { return load_le32(bytes + size_t(index) * 4); }
    /// Container byte offset of token `index`.
    uint32_t offset_of(uint32_t index) const { return base_offset + index * 4; }
    Location location(uint32_t index) const { return Location::offset(offset_of(index)); }
    /// Reports an error at token `index`; returns false.
    [[gnu::cold]] bool fail(Code code, uint32_t index, const char* fmt, ...) const
        __attribute__((format(printf, 4, 5)));
};

/// Reads the tokens of one instruction, never past its end.
struct Cursor {
    const uint8_t* bytes = nullptr; ///< the token stream (Context::bytes)
    uint32_t start = 0; ///< the opcode token
    uint32_t pos = 0;   ///< next token to read
    uint32_t end = 0;   ///< one past the instruction's last token

    bool at_end() const { return pos >= end; }
    uint32_t remaining() const { return pos < end ? end - pos : 0; }
    bool next(uint32_t& value)
    {
        if (pos >= end)
            return false;
        value = load_le32(bytes + size_t(pos++) * 4);
        return true;
    }
};

/// Reports that the instruction at `cur` ends before its operands do.
[[gnu::cold]] bool report_truncated(const Context& ctx, const Cursor& cur, const char* what);

} // namespace dxspv::tpf
