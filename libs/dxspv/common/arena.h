// Bump allocator: objects live until the arena is destroyed or reset.
// Only trivially destructible types may be allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

namespace dxspv {

class Arena {
public:
    explicit Arena(size_t block_size = 64 * 1024) : block_size_(block_size) {}
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    Arena(Arena&&) = default;
    Arena& operator=(Arena&&) = default;

    void* allocate(size_t size, size_t align)
    {
        size_t p = (used_ + align - 1) & ~(align - 1);
        if (blocks_.empty() || p + size > capacity_) {
            size_t cap = size + align > block_size_ ? size + align : block_size_;
            blocks_.emplace_back(new uint8_t[cap]);
            capacity_ = cap;
            used_ = 0;
            uintptr_t base = reinterpret_cast<uintptr_t>(blocks_.back().get());
            p = ((base + align - 1) & ~uintptr_t(align - 1)) - base;
        }
        used_ = p + size;
        total_ += size;
        return blocks_.back().get() + p;
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
        used_ = capacity_ = total_ = 0;
    }

private:
    std::vector<std::unique_ptr<uint8_t[]>> blocks_;
    size_t block_size_;
    size_t used_ = 0;
    size_t capacity_ = 0;
    size_t total_ = 0;
};

} // namespace dxspv
