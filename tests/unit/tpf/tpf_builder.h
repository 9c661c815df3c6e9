// Builds TPF token streams for the reader tests: operands with their
// extended tokens, indices and immediates; instructions with their length
// computed; a program with its version and length tokens.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "common/diagnostics.h"
#include "tpf/reader.h"
#include "tpf/tokens.h"
#include "vsir/ir.h"

namespace tpf_test {

using namespace dxspv::tpf;

struct Opnd {
    struct Index {
        uint32_t repr = index_imm32;
        std::vector<uint32_t> words;
    };
    uint32_t comps = components_4;
    uint32_t mode = select_mask;
    uint32_t selection = 0xf; ///< mask, swizzle or component, as `mode` says
    uint32_t type = operand_temp;
    uint32_t modifier_token = 0; ///< extended operand token (0: none)
    std::vector<Index> indices;
    std::vector<uint32_t> immediates;

    std::vector<uint32_t> encode() const
    {
        uint32_t t = comps | (type << 12) | (uint32_t(indices.size()) << 20);
        if (comps == components_4)
            t |= (mode << 2) | (selection << 4);
        for (size_t i = 0; i < indices.size(); ++i)
            t |= indices[i].repr << (22 + 3 * i);
        if (modifier_token)
            t |= 1u << 31;
        std::vector<uint32_t> out{t};
        if (modifier_token)
            out.push_back(modifier_token);
        for (const Index& index : indices)
            out.insert(out.end(), index.words.begin(), index.words.end());
        out.insert(out.end(), immediates.begin(), immediates.end());
        return out;
    }

    Opnd& modifier(uint32_t modifier, uint32_t precision = 0, bool non_uniform = false)
    {
        modifier_token = ext_operand_modifier | (modifier << 6) | (precision << 14) | (non_uniform ? 1u << 17 : 0);
        return *this;
    }
    /// Index `i` becomes relative to `rel` (plus its immediate when `keep_immediate`).
    Opnd& relative(size_t i, const Opnd& rel, bool keep_immediate = true)
    {
        Index& index = indices[i];
        std::vector<uint32_t> r = rel.encode();
        if (keep_immediate) {
            index.repr = index_imm32_relative;
        } else {
            index.repr = index_relative;
            index.words.clear();
        }
        index.words.insert(index.words.end(), r.begin(), r.end());
        return *this;
    }
    Opnd& imm64_index(size_t i, uint32_t hi)
    {
        indices[i].repr = index_imm64;
        indices[i].words.insert(indices[i].words.begin(), hi);
        return *this;
    }
};

inline Opnd make(uint32_t type, std::initializer_list<uint32_t> idx, uint32_t comps, uint32_t mode, uint32_t sel)
{
    Opnd o;
    o.type = type;
    o.comps = comps;
    o.mode = mode;
    o.selection = sel;
    for (uint32_t v : idx)
        o.indices.push_back({index_imm32, {v}});
    return o;
}
/// 4-component destination with a write mask.
inline Opnd dst(uint32_t type, std::initializer_list<uint32_t> idx, uint32_t mask = 0xf)
{
    return make(type, idx, components_4, select_mask, mask);
}
/// 4-component source with a swizzle (x in bits 0-1).
inline Opnd src(uint32_t type, std::initializer_list<uint32_t> idx, uint32_t swizzle = 0xe4)
{
    return make(type, idx, components_4, select_swizzle, swizzle);
}
inline Opnd sel(uint32_t type, std::initializer_list<uint32_t> idx, uint32_t component)
{
    return make(type, idx, components_4, select_one, component);
}
inline Opnd one(uint32_t type, std::initializer_list<uint32_t> idx = {})
{
    return make(type, idx, components_1, 0, 0);
}
inline Opnd zero(uint32_t type, std::initializer_list<uint32_t> idx = {})
{
    return make(type, idx, components_0, 0, 0);
}
inline Opnd imm(uint32_t value)
{
    Opnd o = make(operand_immediate32, {}, components_1, 0, 0);
    o.immediates = {value};
    return o;
}
inline Opnd imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    Opnd o = make(operand_immediate32, {}, components_4, 0, 0);
    o.immediates = {x, y, z, w};
    return o;
}
inline uint32_t f32(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

struct Prog {
    std::vector<uint32_t> words;

    Prog(uint32_t type, uint32_t major, uint32_t minor) { words = {(type << 16) | (major << 4) | minor, 0}; }

    /// Appends an instruction: opcode token with `controls` (bits 11-23),
    /// extended opcode tokens, operands, then raw `tail` words.
    Prog& op(uint32_t opcode, std::initializer_list<Opnd> operands = {}, uint32_t controls = 0,
             std::vector<uint32_t> extended = {}, std::vector<uint32_t> tail = {})
    {
        std::vector<uint32_t> body;
        for (size_t i = 0; i < extended.size(); ++i)
            body.push_back(extended[i] | (i + 1 < extended.size() ? 1u << 31 : 0));
        for (const Opnd& o : operands) {
            std::vector<uint32_t> w = o.encode();
            body.insert(body.end(), w.begin(), w.end());
        }
        body.insert(body.end(), tail.begin(), tail.end());
        uint32_t token = opcode | controls | (uint32_t(body.size() + 1) << 24) | (extended.empty() ? 0 : 1u << 31);
        words.push_back(token);
        words.insert(words.end(), body.begin(), body.end());
        return *this;
    }
    Prog& raw(std::initializer_list<uint32_t> w)
    {
        words.insert(words.end(), w.begin(), w.end());
        return *this;
    }
    std::vector<uint8_t> bytes(bool fix_length = true) const
    {
        std::vector<uint32_t> w = words;
        if (fix_length)
            w[1] = uint32_t(w.size());
        std::vector<uint8_t> b(w.size() * 4);
        std::memcpy(b.data(), w.data(), b.size());
        return b;
    }
};

struct Result {
    dxspv::vsir::Program program;
    dxspv::Diagnostics diags;
    bool ok = false;
};

inline void read(const std::vector<uint8_t>& bytes, Result& r, uint32_t base = 0)
{
    r.ok = dxspv::tpf::read_program(bytes, base, r.program, r.diags);
}

/// First code reported, or 0.
inline unsigned first_code(const Result& r)
{
    return r.diags.messages().empty() ? 0 : unsigned(r.diags.messages()[0].code);
}

} // namespace tpf_test
