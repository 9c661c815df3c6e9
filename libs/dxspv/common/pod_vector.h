// The scratch containers' vector of plain elements (ids, words, counts,
// flags, pointers, and structs of them). std::vector with a custom allocator
// constructs and copies element by element (libstdc++ keeps memset/memmove
// for std::allocator): growing a section of SPIR-V words by an instruction,
// or zeroing a table of per-id counts, cost a loop per element and a call.
// PodVector does the same with memset and memcpy, grows inline, and can
// append room without writing it (append_uninitialized). Elements are
// trivially copyable and destructible; value-initialisation (resize, the
// size constructor) is a memset for trivial ones, their default constructor
// otherwise (default member values). Only included through common/scratch.h,
// whose ScratchVector<T> and ScopeVector<T> are PodVectors for such T.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>

namespace dxspv {

template <class T>
class PodVector {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    using value_type = T;
    using size_type = size_t;
    using difference_type = ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;
    using allocator_type = ScratchAllocator<T>;

    PodVector() = default;
    explicit PodVector(size_t n) { resize(n); }
    PodVector(size_t n, const T& value) { assign(n, value); }
    PodVector(std::initializer_list<T> list) { append(list.begin(), list.size()); }
    template <class It>
        requires(!std::is_integral_v<It>)
    PodVector(It first, It last)
    {
        insert(end(), first, last);
    }
    PodVector(const PodVector& other) : alloc_(other.alloc_) { append(other.data_, other.size_); }
    PodVector(PodVector&& other) noexcept
        : alloc_(other.alloc_), data_(other.data_), size_(other.size_), capacity_(other.capacity_)
    {
        other.data_ = nullptr;
        other.size_ = other.capacity_ = 0;
    }
    PodVector& operator=(const PodVector& other)
    {
        if (this != &other) {
            size_ = 0;
            append(other.data_, other.size_);
        }
        return *this;
    }
    PodVector& operator=(PodVector&& other) noexcept // takes the other's allocator, as std::vector does here
    {
        if (this != &other) {
            release();
            alloc_ = other.alloc_;
            data_ = other.data_;
            size_ = other.size_;
            capacity_ = other.capacity_;
            other.data_ = nullptr;
            other.size_ = other.capacity_ = 0;
        }
        return *this;
    }
    PodVector& operator=(std::initializer_list<T> list)
    {
        size_ = 0;
        append(list.begin(), list.size());
        return *this;
    }
    ~PodVector() { release(); }

    size_t size() const { return size_; }
    size_t capacity() const { return capacity_; }
    bool empty() const { return size_ == 0; }
    T* data() { return data_; }
    const T* data() const { return data_; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }
    const T* cbegin() const { return data_; }
    const T* cend() const { return data_ + size_; }
    std::reverse_iterator<T*> rbegin() { return std::reverse_iterator<T*>(end()); }
    std::reverse_iterator<T*> rend() { return std::reverse_iterator<T*>(begin()); }
    std::reverse_iterator<const T*> rbegin() const { return std::reverse_iterator<const T*>(end()); }
    std::reverse_iterator<const T*> rend() const { return std::reverse_iterator<const T*>(begin()); }
    T& operator[](size_t i)
    {
        assert(i < size_);
        return data_[i];
    }
    const T& operator[](size_t i) const
    {
        assert(i < size_);
        return data_[i];
    }
    T& front() { return (*this)[0]; }
    const T& front() const { return (*this)[0]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }
    allocator_type get_allocator() const { return alloc_; }

    void reserve(size_t n)
    {
        if (n > capacity_)
            reallocate(n);
    }
    void clear() { size_ = 0; }
    void pop_back()
    {
        assert(size_);
        --size_;
    }
    void push_back(const T& value)
    {
        if (size_ == capacity_)
            grow(size_ + 1);
        data_[size_++] = value;
    }
    template <class... Args>
    T& emplace_back(Args&&... args)
    {
        T value{std::forward<Args>(args)...}; // before growing: an argument may be an element
        push_back(value);
        return data_[size_ - 1];
    }
    /// `n` more elements, not written: the caller writes them.
    T* append_uninitialized(size_t n)
    {
        if (capacity_ - size_ < n)
            grow(size_ + n);
        T* at = data_ + size_;
        size_ += n;
        return at;
    }
    void resize(size_t n)
    {
        if (n > size_) {
            const size_t added = n - size_; // before append_uninitialized changes size_
            T* at = append_uninitialized(added);
            if constexpr (std::is_trivially_default_constructible_v<T>)
                std::memset(static_cast<void*>(at), 0, added * sizeof(T));
            else
                for (size_t i = 0; i < added; ++i)
                    new (at + i) T();
        }
        size_ = n;
    }
    void resize(size_t n, const T& value)
    {
        if (n > size_) {
            const T copy = value;
            const size_t old = size_;
            std::fill_n(append_uninitialized(n - old), n - old, copy);
        }
        size_ = n;
    }
    void assign(size_t n, const T& value)
    {
        const T copy = value;
        size_ = 0;
        std::fill_n(append_uninitialized(n), n, copy);
    }
    template <class It>
        requires(!std::is_integral_v<It>)
    void assign(It first, It last)
    {
        size_ = 0;
        insert(end(), first, last);
    }
    void assign(std::initializer_list<T> list)
    {
        size_ = 0;
        append(list.begin(), list.size());
    }

    T* insert(const T* pos, const T& value) { return insert(pos, size_t(1), value); }
    T* insert(const T* pos, size_t n, const T& value)
    {
        const T copy = value;
        T* at = open(pos, n);
        std::fill_n(at, n, copy);
        return at;
    }
    template <class It>
        requires(!std::is_integral_v<It>)
    T* insert(const T* pos, It first, It last)
    {
        if constexpr (std::is_same_v<It, T*> || std::is_same_v<It, const T*>) { // one copy (the source may be this vector)
            const size_t n = size_t(last - first), offset = size_t(pos - data_);
            if (n == 0)
                return data_ + offset;
            if (first >= data_ && first < data_ + size_) {
                PodVector copy(first, last);
                return insert(data_ + offset, copy.begin(), copy.end());
            }
            T* at = open(pos, n);
            std::memcpy(static_cast<void*>(at), first, n * sizeof(T));
            return at;
        } else {
            const size_t offset = size_t(pos - data_), old = size_;
            for (; first != last; ++first)
                push_back(T(*first));
            std::rotate(data_ + offset, data_ + old, data_ + size_);
            return data_ + offset;
        }
    }
    T* insert(const T* pos, std::initializer_list<T> list) { return insert(pos, list.begin(), list.end()); }
    T* erase(const T* pos) { return erase(pos, pos + 1); }
    T* erase(const T* first, const T* last)
    {
        T* at = data_ + (first - data_);
        std::memmove(static_cast<void*>(at), last, size_t(end() - last) * sizeof(T));
        size_ -= size_t(last - first);
        return at;
    }
    void swap(PodVector& other) noexcept
    {
        std::swap(alloc_, other.alloc_);
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
    }
    friend bool operator==(const PodVector& a, const PodVector& b)
    {
        return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
    }

protected:
    /// Leaves the storage to the arena's scope (ScopeVector): nothing to free.
    void leave_to_arena()
    {
        if (alloc_.arena())
            data_ = nullptr;
    }

private:
    void append(const T* from, size_t n)
    {
        if (n)
            std::memcpy(static_cast<void*>(append_uninitialized(n)), from, n * sizeof(T));
    }
    /// Room for `n` elements at `pos`, the ones after it moved up.
    T* open(const T* pos, size_t n)
    {
        const size_t offset = size_t(pos - data_), tail = size_ - offset;
        append_uninitialized(n);
        T* at = data_ + offset;
        if (tail)
            std::memmove(static_cast<void*>(at + n), at, tail * sizeof(T));
        return at;
    }
    [[gnu::noinline]] void grow(size_t need) { reallocate(std::max<size_t>({need, 2 * capacity_, 8})); }
    void reallocate(size_t capacity)
    {
        T* fresh = alloc_.allocate(capacity);
        if (size_)
            std::memcpy(static_cast<void*>(fresh), data_, size_ * sizeof(T));
        release();
        data_ = fresh;
        capacity_ = capacity;
    }
    void release()
    {
        if (data_)
            alloc_.deallocate(data_, capacity_);
        data_ = nullptr;
    }

    ScratchAllocator<T> alloc_;
    T* data_ = nullptr;
    size_t size_ = 0, capacity_ = 0;
};

} // namespace dxspv
