// Word storage for the SPIR-V builder's blocks.
//
// The builder writes one block at a time: the block being written is the
// arena's last allocation and grows in place, without copies or spare room
// left behind. When another block needs room, the last one gives back what
// it did not use and the other moves to the end (a construct's header that
// gets its merge and branch after its body: a few words). Chunks grow
// geometrically and come from the thread's scratch arena (common/scratch.h)
// inside a scope, else from the heap; everything is freed with the arena.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "common/scratch.h"

namespace dxspv::spirv {

/// A block's words: `size` of them at `data`, room for `capacity`.
struct Words {
    uint32_t* data = nullptr;
    uint32_t size = 0;
    uint32_t capacity = 0;

    bool empty() const { return size == 0; }
    uint32_t* begin() const { return data; }
    uint32_t* end() const { return data + size; }
    uint32_t& operator[](size_t i) const { return data[i]; }
};

class WordArena {
public:
    WordArena() = default;
    WordArena(const WordArena&) = delete;
    WordArena& operator=(const WordArena&) = delete;
    ~WordArena()
    {
        if (alloc_.arena()) // its scope's end frees them
            return;
        for (auto [chunk, words] : chunks_)
            alloc_.deallocate(chunk, words);
    }

    /// Appends `count` words to `w` (owned by this arena, its address stable
    /// while it is); returns where they go.
    uint32_t* append(Words& w, uint32_t count)
    {
        if (size_t(w.size) + count > w.capacity)
            make_room(w, count);
        uint32_t* at = w.data + w.size;
        w.size += count;
        return at;
    }

    /// The words of all chunks: at least the words of every block.
    size_t allocated() const
    {
        size_t words = 0;
        for (const auto& chunk : chunks_)
            words += chunk.second;
        return words;
    }

private:
    /// `w` does not fit in its room. The last allocation (the room up to the
    /// chunk's end) keeps what it uses, and `w` moves to the end: of this
    /// chunk, or of a new one when it does not fit there either. Not
    /// inlined: append() is the path of every instruction, this the rare one.
    [[gnu::noinline]] void make_room(Words& w, uint32_t count)
    {
        const size_t need = size_t(w.size) + count;
        if (last_) {
            top_ = last_->data + last_->size;
            last_->capacity = last_->size;
        }
        if (size_t(end_ - top_) < need) {
            const size_t words = std::max(next_chunk_, 2 * need);
            next_chunk_ = std::min(2 * next_chunk_, max_chunk);
            top_ = alloc_.allocate(words);
            chunks_.emplace_back(top_, words);
            end_ = top_ + words;
        }
        std::copy(w.data, w.data + w.size, top_);
        w.data = top_;
        w.capacity = uint32_t(std::min<size_t>(end_ - top_, UINT32_MAX));
        top_ = end_;
        last_ = &w;
    }

    static constexpr size_t max_chunk = size_t(1) << 20;
    ScratchAllocator<uint32_t> alloc_;
    ScratchVector<std::pair<uint32_t*, size_t>> chunks_; ///< (words, count)
    uint32_t* top_ = nullptr; ///< where the next allocation goes
    uint32_t* end_ = nullptr; ///< end of the current chunk
    Words* last_ = nullptr;   ///< the allocation that ends at end_ (its room: up to end_)
    size_t next_chunk_ = 1024;
};

} // namespace dxspv::spirv
