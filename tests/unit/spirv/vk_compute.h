// Runs an emitted compute shader on the Vulkan device of shader-runner
// (tests/runner/vulkan_device.h; lavapipe in CI) and reads back its one
// storage buffer, so the emitter tests can check what a program computes.
// Built only when the Vulkan loader is found (DXSPV_TEST_VULKAN).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spirv_test {

/// What the device can run; `available` is false (with `reason`) when no
/// Vulkan 1.1 device exists, and the tests skip execution.
struct ComputeDevice {
    bool available = false;
    bool int64 = false, int16 = false, float64 = false, wave_ops = false;
    std::string reason;
};

/// The shared device, created on first use.
const ComputeDevice& compute_device();

/// Dispatches one thread group of `words` (a compute module whose only
/// descriptor is the raw UAV u0 at set 0, binding 2000, the emitter's
/// default mapping) with `data` as u0's contents, and copies u0 back into
/// `data`. False with `error` on any Vulkan failure.
bool run_compute(const std::vector<uint32_t>& words, std::vector<uint32_t>& data, std::string& error);

} // namespace spirv_test
