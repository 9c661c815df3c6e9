// Per-thread scratch memory (scratch.h): chunks from the heap, the newest
// first; a scope's end frees them but the largest, kept while it is small.
#include "common/scratch.h"

#include <algorithm>
#include <cstdlib>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DXSPV_SCRATCH_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define DXSPV_SCRATCH_HEAP 1
#endif
#endif

namespace dxspv {

namespace {

constexpr size_t first_chunk = size_t(64) << 10;
constexpr size_t huge_page = size_t(2) << 20;

} // namespace

thread_local ScratchArena* ScratchArena::current_ = nullptr;
thread_local size_t ScratchArena::last_scope_bytes_ = 0;

ScratchArena::~ScratchArena()
{
    while (chunk_) {
        Chunk* previous = chunk_->previous;
        std::free(chunk_);
        chunk_ = previous;
    }
}

void* ScratchArena::allocate_slow(size_t bytes, size_t align)
{
    // A new chunk twice the size of the last one, and room for this.
    size_t size = chunk_ ? 2 * chunk_->size : first_chunk;
    if (bytes > SIZE_MAX / 2 - align - sizeof(Chunk))
        throw std::bad_alloc();
    size = std::max(size, bytes + align + sizeof(Chunk));
    Chunk* chunk = nullptr;
    if (size >= huge_page) {
        // Large chunks in whole huge pages, advised as such: a page fault per
        // 2 MiB instead of per 4 KiB where transparent huge pages are on
        // request (their pages are touched once, by the first translation
        // that needs them). Not retained, so the address space comes back.
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
    return allocate(bytes, align);
}

void ScratchArena::reset()
{
    last_scope_bytes_ = 0;
    if (chunk_) {
        chunk_->used = size_t(top_ - reinterpret_cast<uintptr_t>(chunk_ + 1));
        for (const Chunk* c = chunk_; c; c = c->previous)
            last_scope_bytes_ += c->used;
    }
    // The newest chunk is the largest: kept when small enough.
    Chunk* keep = chunk_ && chunk_->size <= retained ? chunk_ : nullptr;
    Chunk* c = keep ? chunk_->previous : chunk_;
    while (c) {
        Chunk* previous = c->previous;
        std::free(c);
        c = previous;
    }
    chunk_ = keep;
    if (keep) {
        keep->previous = nullptr;
        top_ = reinterpret_cast<uintptr_t>(keep + 1);
        end_ = reinterpret_cast<uintptr_t>(keep) + keep->size;
    } else {
        top_ = end_ = 0;
    }
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
