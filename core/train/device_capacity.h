#pragma once

#include "train/allocation_hook.h"

#include <cstdint>
#include <memory>

namespace memscope {

// Makes the CPU behave like a device of a given size: while a limit is set, an allocation that
// would take the live bytes counted by the run's AllocationHook past it fails with LibTorch's own
// out-of-memory error (c10::OutOfMemoryError), after reporting it to the profiler slot like the
// CUDA caching allocator does. Implemented as a CPU allocator that wraps the default one,
// installed once per process; with no limit set it only forwards.
class DeviceCapacity {
  public:
    // Sets the limit for the current run; 0 removes it. The hook is read, not owned.
    static void setLimit(int64_t bytes, std::shared_ptr<AllocationHook> hook);
    static void clear() { setLimit(0, nullptr); }
    static int64_t limit();
};

}  // namespace memscope
