// Heap accounting for the benchmark: this program replaces the global
// operator new/delete (heap.cpp) to track the bytes in use and their peak.
#pragma once

#include <cstdint>

namespace bench {

/// Bytes allocated through operator new and not yet freed.
uint64_t heap_in_use();
/// Highest heap_in_use() since the last reset_heap_peak().
uint64_t heap_peak();
void reset_heap_peak();

} // namespace bench
