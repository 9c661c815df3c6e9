// Hash map from 64-bit keys to 32-bit values (ids, indices): open
// addressing with linear probing in one array, so no allocation per entry
// and no pointer chasing; it grows fourfold when half full, and clear() is O(1)
// (a slot belongs to the map when it holds the current generation). Its
// table is a ScopeVector: a map made inside a scratch scope leaves it to the
// scope's end, so maps are members of objects that live that long (the
// SPIR-V emitter and builder, the DXIL reader), not temporaries in a loop.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "common/scratch.h"

namespace dxspv {

class U64Map {
public:
    /// The value of `key`, inserted as 0 if absent. The reference is valid
    /// until the next insertion.
    uint32_t& operator[](uint64_t key)
    {
        if ((count_ + 1) * 2 > slots_.size())
            grow(slots_.empty() ? 16 : 4 * slots_.size()); // a map that outgrew its size often keeps growing
        Slot& s = slots_[probe(key)];
        if (s.used != generation_) {
            s.used = generation_;
            s.key = key;
            s.value = 0;
            ++count_;
        }
        return s.value;
    }

    /// The value of `key`, 0 if absent.
    uint32_t find(uint64_t key) const
    {
        if (slots_.empty())
            return 0;
        const Slot& s = slots_[probe(key)];
        return s.used == generation_ ? s.value : 0;
    }

    size_t size() const { return count_; }

    /// Room for `count` entries without growing.
    void reserve(size_t count)
    {
        if (slots_.size() < 2 * count)
            grow(std::bit_ceil(2 * count));
    }

    /// No entries (the array stays).
    void clear()
    {
        count_ = 0;
        if (++generation_ == 0) { // wrapped: no slot may look current
            for (Slot& s : slots_)
                s.used = 0;
            generation_ = 1;
        }
    }

private:
    struct Slot { // trivial: a ScratchVector of them is zeroed in one go
        uint64_t key;
        uint32_t value;
        uint32_t used; ///< the generation that wrote it
    };

    /// The slot holding `key`, or the empty slot where it would go.
    size_t probe(uint64_t key) const
    {
        size_t mask = slots_.size() - 1;
        size_t i = size_t((key * 0x9e3779b97f4a7c15ull) >> shift_) & mask;
        while (slots_[i].used == generation_ && slots_[i].key != key)
            i = (i + 1) & mask;
        return i;
    }

    /// To `size` slots, a power of two.
    [[gnu::noinline]] void grow(size_t size)
    {
        shift_ = 64 - unsigned(std::countr_zero(size));
        if (slots_.empty()) { // the first table (most maps): nothing to move
            slots_.resize(size); // zeroed: no slot is used
            return;
        }
        ScratchVector<Slot> old(std::move(slots_)); // slots_ keeps its allocator
        slots_.clear();
        slots_.resize(size); // zeroed: no slot is used
        for (const Slot& s : old)
            if (s.used == generation_)
                slots_[probe(s.key)] = s;
    }

    ScopeVector<Slot> slots_; ///< a member of objects that live until their scope's end (scratch.h)
    size_t count_ = 0;
    unsigned shift_ = 64;
    uint32_t generation_ = 1;
};

} // namespace dxspv
