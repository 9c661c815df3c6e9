// Per-thread scratch memory (scratch.h): chunks from the heap, the newest
// first; a scope's end frees them but one, kept for the next scope.
#include "common/scratch.h"

#include <algorithm>
#include <cstdlib>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_THREAD__)
#define DXSPV_SCRATCH_HEAP 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define DXSPV_SCRATCH_HEAP 1
#endif
#endif

#ifdef DXSPV_SCRATCH_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

namespace dxspv {

namespace {

constexpr size_t first_chunk = size_t(64) << 10;
constexpr size_t huge_page = size_t(2) << 20;
/// AddressSanitizer builds: poisoned bytes after every allocation.
constexpr size_t red_zone = 32;

} // namespace

constinit thread_local ScratchArena* ScratchArena::current_ = nullptr;
constinit thread_local size_t ScratchArena::peak_scope_bytes_ = 0;

ScratchArena::~ScratchArena()
{
    while (chunk_) {
        Chunk* previous = chunk_->previous;
        ASAN_UNPOISON_MEMORY_REGION(chunk_ + 1, chunk_->size - sizeof(Chunk));
        std::free(chunk_);
        chunk_ = previous;
    }
}

void ScratchArena::new_chunk(size_t bytes, size_t align)
{
    // Twice the size of the last one, and room for `bytes` at `align`.
    size_t size = chunk_ ? 2 * chunk_->size : first_chunk;
    if (bytes > SIZE_MAX / 2 - align - sizeof(Chunk))
        throw std::bad_alloc();
    size = std::max(size, bytes + align + sizeof(Chunk));
    Chunk* chunk = nullptr;
    if (size >= huge_page) {
        // Large chunks in whole huge pages, advised as such: a page fault per
        // 2 MiB instead of per 4 KiB where transparent huge pages are on
        // request (their pages are touched once, by the first translation
        // that needs them).
        size = (size + huge_page - 1) & ~(huge_page - 1);
        chunk = static_cast<Chunk*>(std::aligned_alloc(huge_page, size));
#ifdef MADV_HUGEPAGE
        if (chunk)
            madvise(chunk, size, MADV_HUGEPAGE);
#endif
    } else {
        chunk = static_cast<Chunk*>(std::malloc(size));
    }
    if (!chunk)
        throw std::bad_alloc();
    if (chunk_)
        chunk_->used = size_t(top_ - reinterpret_cast<uintptr_t>(chunk_ + 1));
    chunk->previous = chunk_;
    chunk->size = size;
    chunk_ = chunk;
    top_ = reinterpret_cast<uintptr_t>(chunk + 1);
    end_ = reinterpret_cast<uintptr_t>(chunk) + size;
    ASAN_POISON_MEMORY_REGION(chunk + 1, size - sizeof(Chunk));
}

void* ScratchArena::allocate_slow(size_t bytes, size_t align)
{
    new_chunk(bytes, align);
    return allocate(bytes, align);
}

// Each allocation is followed by a red zone and starts 8-byte aligned (the
// shadow's granularity); what is not handed out stays poisoned, and freed
// memory is poisoned again.
void* ScratchArena::allocate_checked(size_t bytes, size_t align)
{
    align = std::max<size_t>(align, 8);
    uintptr_t at = (top_ + (align - 1)) & ~uintptr_t(align - 1);
    if (bytes > SIZE_MAX / 2 || at + bytes + red_zone >= end_ || at < top_) {
        if (bytes > SIZE_MAX / 2)
            throw std::bad_alloc();
        new_chunk(bytes + red_zone, align);
        at = (top_ + (align - 1)) & ~uintptr_t(align - 1);
    }
    top_ = at + bytes + red_zone;
    ASAN_UNPOISON_MEMORY_REGION(reinterpret_cast<void*>(at), bytes);
    return reinterpret_cast<void*>(at);
}

void ScratchArena::deallocate_checked(void* p, size_t bytes)
{
    ASAN_POISON_MEMORY_REGION(p, bytes);
    if (reinterpret_cast<uintptr_t>(p) + bytes + red_zone == top_)
        top_ = reinterpret_cast<uintptr_t>(p);
}

void ScratchArena::reset()
{
    size_t used = 0;
    if (chunk_) {
        chunk_->used = size_t(top_ - reinterpret_cast<uintptr_t>(chunk_ + 1));
        for (const Chunk* c = chunk_; c; c = c->previous)
            used += c->used;
    }
    peak_scope_bytes_ = std::max(peak_scope_bytes_, used);
    // The newest chunk, the largest, stays (see retained_lazily): at least
    // half of what the scope took, so a thread translating shaders of one
    // size soon works in that one chunk.
    Chunk* keep = chunk_ && chunk_->size <= retained_lazily ? chunk_ : nullptr;
    for (Chunk* c = keep ? keep->previous : chunk_; c;) {
        Chunk* previous = c->previous;
        ASAN_UNPOISON_MEMORY_REGION(c + 1, c->size - sizeof(Chunk));
        std::free(c);
        c = previous;
    }
    chunk_ = keep;
    if (!keep) {
        top_ = end_ = 0;
        return;
    }
    keep->previous = nullptr;
    top_ = reinterpret_cast<uintptr_t>(keep + 1);
    end_ = reinterpret_cast<uintptr_t>(keep) + keep->size;
    ASAN_POISON_MEMORY_REGION(keep + 1, keep->size - sizeof(Chunk));
#ifdef MADV_FREE
    // Whole pages past `retained` and inside the chunk go back lazily (the
    // kernel would round a partial last page up, into the heap's next
    // chunk); whole huge pages of a huge chunk, so none is split.
    static const uintptr_t small_page = uintptr_t(sysconf(_SC_PAGESIZE));
    const uintptr_t page = keep->size >= huge_page ? huge_page : small_page;
    const uintptr_t from = (reinterpret_cast<uintptr_t>(keep) + retained + page - 1) & ~(page - 1);
    const uintptr_t to = end_ & ~(page - 1);
    if (from < to)
        madvise(reinterpret_cast<void*>(from), to - from, MADV_FREE);
#endif
}

ScratchScope::ScratchScope()
{
#ifndef DXSPV_SCRATCH_HEAP
    if (ScratchArena::current_)
        return;
    static thread_local ScratchArena arena; // freed with the thread
    ScratchArena::current_ = &arena;
    opened_ = true;
#endif
}

ScratchScope::~ScratchScope()
{
    if (!opened_)
        return;
    ScratchArena::current_->reset();
    ScratchArena::current_ = nullptr;
}

} // namespace dxspv
