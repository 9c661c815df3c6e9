// Heap accounting for the benchmark: this program replaces the global
// operator new/delete (heap.cpp) to track the peak of the bytes in use
// during one (untimed) translation.
#pragma once

#include <cstdint>

namespace bench {

/// Counts the bytes allocated and freed from now on (malloc_usable_size
/// costs a few percent, so the timed runs go without it).
void start_heap_tracking();
/// Stops counting; returns the highest number of bytes in use since
/// start_heap_tracking(), counting only what was allocated since then.
uint64_t stop_heap_tracking();

} // namespace bench
