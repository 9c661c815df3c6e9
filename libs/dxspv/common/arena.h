// Bump allocator: objects live until the arena is destroyed or reset.
// Only trivially destructible types may be allocated. Its blocks come from
// the heap, or from a scratch scope (common/scratch.h) when made with one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/scratch.h"

namespace dxspv {

class Arena {
public:
    explicit Arena(size_t block_size = 64 * 1024) : block_size_(block_size) {}
    /// An arena whose blocks come from `scratch` when it is not null (the
    /// scratch scope open where its owner is made, common/scratch.h): no
    /// heap allocation and nothing to free, and the arena must be destroyed
    /// before that scope ends, as its owner's scratch containers.
    explicit Arena(ScratchArena* scratch, size_t block_size = 64 * 1024) : block_size_(block_size), scratch_(scratch)
    {
    }
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    Arena(Arena&& other) noexcept { *this = std::move(other); }
    Arena& operator=(Arena&& other) noexcept
    {
        if (this == &other)
            return *this;
        blocks_ = std::move(other.blocks_);
        block_ = other.block_;
        block_size_ = other.block_size_;
        used_ = other.used_;
        capacity_ = other.capacity_;
        first_capacity_ = other.first_capacity_;
        total_ = other.total_;
        scratch_ = other.scratch_;
        other.blocks_.clear();
        other.block_ = nullptr;
        other.used_ = other.capacity_ = other.total_ = 0;
        return *this;
    }

    void* allocate(size_t size, size_t align)
    {
        size_t p = (used_ + align - 1) & ~(align - 1);
        if (!block_ || p + size > capacity_) {
            size_t cap = size + align > block_size_ ? size + align : block_size_;
            if (scratch_) {
                block_ = static_cast<uint8_t*>(scratch_->allocate(cap, alignof(std::max_align_t)));
            } else {
                if (blocks_.empty())
                    first_capacity_ = cap;
                blocks_.emplace_back(new uint8_t[cap]);
                block_ = blocks_.back().get();
            }
            capacity_ = cap;
            uintptr_t base = reinterpret_cast<uintptr_t>(block_);
            p = ((base + align - 1) & ~uintptr_t(align - 1)) - base;
        }
        used_ = p + size;
        total_ += size;
        return block_ + p;
    }

    /// `count` default-initialised objects: a scalar's value is unset (the
    /// caller writes every element), a class's members get their
    /// initialisers.
    template <typename T> T* alloc_array(size_t count)
    {
        static_assert(std::is_trivially_destructible_v<T>);
        T* p = static_cast<T*>(allocate(sizeof(T) * (count ? count : 1), alignof(T)));
        if constexpr (!std::is_trivially_default_constructible_v<T>)
            for (size_t i = 0; i < count; ++i)
                new (p + i) T;
        return p;
    }

    /// Copies a string into the arena; the view stays valid with the arena.
    std::string_view intern(std::string_view s)
    {
        char* p = static_cast<char*>(allocate(s.size() + 1, 1));
        if (!s.empty()) // an empty view may have a null data(): no memcpy from null
            std::memcpy(p, s.data(), s.size());
        p[s.size()] = 0;
        return {p, s.size()};
    }

    size_t bytes_allocated() const { return total_; }

    void reset()
    {
        blocks_.clear();
        block_ = nullptr;
        used_ = capacity_ = total_ = 0;
    }

    /// No allocations, as reset(), but a first heap block of the usual size
    /// is kept for the next ones (a recycled arena, vsir/program_storage.cpp).
    void clear()
    {
        if (blocks_.empty() || first_capacity_ != block_size_)
            return reset();
        blocks_.resize(1);
        block_ = blocks_[0].get();
        capacity_ = first_capacity_;
        used_ = total_ = 0;
    }
    /// Whether the arena holds a heap block (clear() keeps one).
    bool holds_block() const { return !blocks_.empty(); }

private:
    std::vector<std::unique_ptr<uint8_t[]>> blocks_; ///< the heap's blocks (none from a scratch arena)
    uint8_t* block_ = nullptr;                        ///< the current block
    size_t block_size_ = 64 * 1024;
    size_t used_ = 0;
    size_t capacity_ = 0;
    size_t first_capacity_ = 0; ///< of blocks_[0]
    size_t total_ = 0;
    ScratchArena* scratch_ = nullptr;
};

} // namespace dxspv
