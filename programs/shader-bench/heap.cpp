// Replacement of the global (unaligned) operator new/delete that counts
// live bytes with malloc_usable_size. Exported so the shared libraries the
// benchmark loads (SPIRV-Tools) allocate through it too. The benchmark is
// single-threaded; the counters are plain integers.
#include "heap.h"

#include <malloc.h>

#include <cstdlib>
#include <new>

namespace bench {

namespace {

uint64_t in_use = 0;
uint64_t peak = 0;

void* allocate(size_t size)
{
    void* p = std::malloc(size ? size : 1);
    if (p) {
        in_use += malloc_usable_size(p);
        if (in_use > peak)
            peak = in_use;
    }
    return p;
}

void release(void* p)
{
    if (!p)
        return;
    in_use -= malloc_usable_size(p);
    std::free(p);
}

} // namespace

uint64_t heap_in_use()
{
    return in_use;
}

uint64_t heap_peak()
{
    return peak;
}

void reset_heap_peak()
{
    peak = in_use;
}

} // namespace bench

#define BENCH_EXPORT __attribute__((visibility("default")))

BENCH_EXPORT void* operator new(size_t size)
{
    if (void* p = bench::allocate(size))
        return p;
    throw std::bad_alloc();
}

BENCH_EXPORT void* operator new[](size_t size)
{
    return operator new(size);
}

BENCH_EXPORT void* operator new(size_t size, const std::nothrow_t&) noexcept
{
    return bench::allocate(size);
}

BENCH_EXPORT void* operator new[](size_t size, const std::nothrow_t&) noexcept
{
    return bench::allocate(size);
}

BENCH_EXPORT void operator delete(void* p) noexcept
{
    bench::release(p);
}

BENCH_EXPORT void operator delete[](void* p) noexcept
{
    bench::release(p);
}

BENCH_EXPORT void operator delete(void* p, size_t) noexcept
{
    bench::release(p);
}

BENCH_EXPORT void operator delete[](void* p, size_t) noexcept
{
    bench::release(p);
}
