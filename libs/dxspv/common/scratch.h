// Per-thread scratch memory for the containers of one translation step.
//
// A translation makes and frees hundreds of small containers (the SPIR-V
// builder's sections, ids, hash maps, the emitter's tables): with the heap,
// their malloc and free cost more than a small shader's translation itself.
// Inside a ScratchScope, containers whose allocator is ScratchAllocator take
// their memory from this thread's ScratchArena by bumping a pointer, give it
// back as a whole when the scope ends (freeing a container frees nothing but
// its last allocation), and the next translation on the thread reuses the
// same memory (the largest chunk, see ScratchArena::retained_lazily: its
// pages stay mapped). Outside a scope they use the heap. Under
// AddressSanitizer every allocation gets a poisoned red zone after it and
// freed or unused arena memory is poisoned, so overflows and uses after free
// are caught in the arena too; under ThreadSanitizer the heap is used.
//
// A ScratchAllocator remembers the arena of the moment it was made, so a
// container made outside a scope keeps using the heap inside one. Every
// container using it must be destroyed before its scope ends: the scope is
// opened by the function that makes the objects holding them (emit_spirv
// for the emitter and the builder, cfg::structurize for its analyses; the
// program they read and write is the caller's, on the heap).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define DXSPV_SCRATCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DXSPV_SCRATCH_ASAN 1
#endif
#endif

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace dxspv {

class ScratchArena {
public:
    /// The arena of the open scope on this thread, or null.
    static ScratchArena* current() { return current_; }

    void* allocate(size_t bytes, size_t align)
    {
#ifdef DXSPV_SCRATCH_ASAN
        return allocate_checked(bytes, align);
#endif
        uintptr_t at = (top_ + (align - 1)) & ~uintptr_t(align - 1);
        if (at + bytes >= end_ || at < top_) // (>=: no chunk yet gives end_ 0, never a null pointer)
            return allocate_slow(bytes, align);
        top_ = at + bytes;
        return reinterpret_cast<void*>(at);
    }
    /// Frees the last allocation; other memory goes back at the scope's end.
    void deallocate(void* p, size_t bytes)
    {
#ifdef DXSPV_SCRATCH_ASAN
        return deallocate_checked(p, bytes);
#endif
        if (reinterpret_cast<uintptr_t>(p) + bytes == top_)
            top_ = reinterpret_cast<uintptr_t>(p);
    }

    /// Memory kept resident for the thread's next scope.
    static constexpr size_t retained = size_t(1) << 20;
    /// The largest chunk kept for the next scope (a scope's newest chunk is
    /// its largest). Beyond `retained` its pages are given back lazily
    /// (MADV_FREE: the kernel takes them when it needs memory; until then
    /// the next scope reuses them without a page fault).
    static constexpr size_t retained_lazily = size_t(256) << 20;

    /// The most bytes the containers of one of this thread's scopes took
    /// (their peak: memory only comes back at a scope's end) since the last
    /// call, for memory figures.
    static size_t take_peak_scope_bytes()
    {
        const size_t peak = peak_scope_bytes_;
        peak_scope_bytes_ = 0;
        return peak;
    }

private:
    friend class ScratchScope;
    ScratchArena() = default;
    ~ScratchArena();
    void* allocate_slow(size_t bytes, size_t align);
    /// Makes a chunk with room for `bytes` at `align` the newest.
    void new_chunk(size_t bytes, size_t align);
    /// The AddressSanitizer forms of allocate and deallocate (red zones,
    /// poisoning).
    void* allocate_checked(size_t bytes, size_t align);
    void deallocate_checked(void* p, size_t bytes);
    /// Back to empty: every chunk freed but the one kept (see retained_lazily).
    void reset();

    struct Chunk {
        Chunk* previous;
        size_t size; ///< bytes, this header included
        size_t used; ///< bytes handed out from it, once it is not the newest
    };
    Chunk* chunk_ = nullptr; ///< the newest chunk; the others through previous
    uintptr_t top_ = 0, end_ = 0;
    // constinit: no dynamic initialization, so no TLS init-function check
    // at each access (every scratch container's construction reads it).
    static constinit thread_local ScratchArena* current_;
    static constinit thread_local size_t peak_scope_bytes_;
};

/// Makes this thread's arena current until its end, then resets it. A scope
/// inside another one changes nothing.
class ScratchScope {
public:
    ScratchScope();
    ~ScratchScope();
    ScratchScope(const ScratchScope&) = delete;
    ScratchScope& operator=(const ScratchScope&) = delete;

private:
    bool opened_ = false;
};

template <class T>
class ScratchAllocator {
public:
    using value_type = T;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::false_type;

    ScratchAllocator() noexcept : arena_(ScratchArena::current()) {}
    template <class U>
    ScratchAllocator(const ScratchAllocator<U>& other) noexcept : arena_(other.arena_)
    {
    }

    T* allocate(size_t n)
    {
        if (!arena_)
            return std::allocator<T>().allocate(n);
        if (n > SIZE_MAX / sizeof(T))
            throw std::bad_array_new_length();
        return static_cast<T*>(arena_->allocate(n * sizeof(T), alignof(T)));
    }
    void deallocate(T* p, size_t n) noexcept
    {
        if (arena_)
            arena_->deallocate(p, n * sizeof(T));
        else
            std::allocator<T>().deallocate(p, n);
    }
    /// The arena it allocates from, null for the heap.
    ScratchArena* arena() const { return arena_; }

    template <class U>
    bool operator==(const ScratchAllocator<U>& other) const noexcept
    {
        return arena_ == other.arena_;
    }

private:
    template <class U>
    friend class ScratchAllocator;
    ScratchArena* arena_;
};

} // namespace dxspv

#include "common/pod_vector.h"

namespace dxspv {

/// A vector in the scratch arena: PodVector for trivially copyable and
/// destructible elements (memset and memcpy instead of element loops),
/// std::vector otherwise.
template <class T>
using ScratchVector =
    std::conditional_t<std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>, PodVector<T>,
        std::vector<T, ScratchAllocator<T>>>;
template <class T>
using ScratchDeque = std::deque<T, ScratchAllocator<T>>;

/// A ScratchVector (of trivially copyable and destructible elements) for a
/// member of an object that lives until its scope ends (the SPIR-V emitter and builder, made and destroyed
/// inside emit_spirv's scope): destroyed in an arena, it leaves its memory
/// to the scope's end, which frees all of it at once, instead of giving it
/// back (which reclaims nothing but the arena's last allocation): two
/// instructions per member instead of a dozen. On the heap it frees as
/// usual.
template <class T>
class ScopeVector : public PodVector<T> {
public:
    using PodVector<T>::PodVector;
    using PodVector<T>::operator=;
    ScopeVector() = default;
    ScopeVector(const ScopeVector&) = default;
    ScopeVector(ScopeVector&&) noexcept = default;
    ScopeVector& operator=(const ScopeVector&) = default;
    ScopeVector& operator=(ScopeVector&&) noexcept = default;
    ~ScopeVector() { this->leave_to_arena(); }
};

} // namespace dxspv
