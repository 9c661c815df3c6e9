// Replacement of the global (unaligned) operator new/delete that, while
// tracking, counts live bytes with malloc_usable_size. Exported so shared
// libraries allocate through it too. The benchmark is single-threaded; the
// counters are plain integers. A block allocated before tracking started
// and freed during it would lower the count: one translation frees only
// what it allocated.
#include "heap.h"

#include <malloc.h>

#include <cstdlib>
#include <new>

namespace bench {

namespace {

bool tracking = false;
int64_t in_use = 0;
int64_t peak = 0;

void* allocate(size_t size)
{
    void* p = std::malloc(size ? size : 1);
    if (p && tracking) {
        in_use += int64_t(malloc_usable_size(p));
        if (in_use > peak)
            peak = in_use;
    }
    return p;
}

void release(void* p)
{
    if (p && tracking)
        in_use -= int64_t(malloc_usable_size(p));
    std::free(p);
}

} // namespace

void start_heap_tracking()
{
    in_use = peak = 0;
    tracking = true;
}

uint64_t stop_heap_tracking()
{
    tracking = false;
    return uint64_t(peak);
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
