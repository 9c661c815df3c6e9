// Hash map from 64-bit keys to 32-bit values (ids, indices): open
// addressing with linear probing in one array, so no allocation per entry
// and no pointer chasing; it doubles when half full, and clear() is O(1)
// (a slot belongs to the map when it holds the current generation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dxspv {

class U64Map {
public:
    /// The value of `key`, inserted as 0 if absent. The reference is valid
    /// until the next insertion.
    uint32_t& operator[](uint64_t key)
    {
        if ((count_ + 1) * 2 > slots_.size())
            grow();
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
    struct Slot {
        uint64_t key = 0;
        uint32_t value = 0;
        uint32_t used = 0; ///< the generation that wrote it
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

    void grow()
    {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.resize(old.empty() ? 16 : old.size() * 2);
        shift_ = 64;
        for (size_t n = slots_.size(); n > 1; n >>= 1)
            --shift_;
        for (const Slot& s : old)
            if (s.used == generation_)
                slots_[probe(s.key)] = s;
    }

    std::vector<Slot> slots_;
    size_t count_ = 0;
    unsigned shift_ = 64;
    uint32_t generation_ = 1;
};

} // namespace dxspv
