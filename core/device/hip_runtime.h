#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// AMD GPUs through the HIP runtime (libamdhip64), loaded with dlopen at run time so that
// Memscope builds and runs where ROCm is absent. Only hipGetDeviceCount, hipGetDeviceProperties,
// hipSetDevice, hipMemGetInfo and their helpers are used.
class HipRuntime {
  public:
    enum class Status {
        NotFound,  // no libamdhip64 could be loaded: not an error
        NoDevice,  // the runtime loaded and sees no AMD GPU (hipErrorNoDevice): not an error
        Error,     // the runtime loaded but a call failed
        Ok
    };
    struct Device {
        int index = 0;
        std::string name;         // "AMD Instinct MI300X"
        std::string arch;         // gcnArchName: "gfx942:sramecc+:xnack-"
        int64_t total_bytes = 0;  // totalGlobalMem
        int64_t free_bytes = -1;  // hipMemGetInfo; -1 when it failed
    };
    struct Result {
        Status status = Status::NotFound;
        std::string library;          // the file that was loaded
        std::string runtime_version;  // "5.2.21153"
        std::string error;            // for Status::Error: the call and HIP's message
        std::vector<Device> devices;
        // One line for `memscope-cli devices`: "HIP runtime not found", "HIP runtime 5.2.21153
        // (/path/libamdhip64.so.5): no AMD GPU", "...: 2 AMD GPUs", "...: error: ...".
        std::string statusLine() const;
    };

    // Loads `library` (a file name or path), or else $MEMSCOPE_HIP_LIBRARY, or else
    // libamdhip64.so, .so.6, .so.5 and /opt/rocm/lib/libamdhip64.so, and lists its devices.
    // Never throws.
    static Result query(const std::string& library = {});

    // hipDeviceProp_t as HIP 5.x lays it out, up to gcnArchName. ROCm 6 changed the struct and
    // renamed the function that fills the new one (hipGetDevicePropertiesR0600); the plain
    // hipGetDeviceProperties symbol (versioned hip_4.2) still fills this old layout
    // (hipDeviceProp_tR0000) in both, so that is the symbol Memscope binds. The rest of the
    // struct (792 bytes in HIP 5.2, more in 6.x's R0000) is covered by a large buffer.
    struct PropertiesPrefix {
        char name[256];
        size_t totalGlobalMem;
        size_t sharedMemPerBlock;
        int regsPerBlock;
        int warpSize;
        int maxThreadsPerBlock;
        int maxThreadsDim[3];
        int maxGridSize[3];
        int clockRate;
        int memoryClockRate;
        int memoryBusWidth;
        size_t totalConstMem;
        int major;
        int minor;
        int multiProcessorCount;
        int l2CacheSize;
        int maxThreadsPerMultiProcessor;
        int computeMode;
        int clockInstructionRate;
        uint32_t arch;  // hipDeviceArch_t: 32 bits of feature flags
        int concurrentKernels;
        int pciDomainID;
        int pciBusID;
        int pciDeviceID;
        size_t maxSharedMemoryPerMultiProcessor;
        int isMultiGpuBoard;
        int canMapHostMemory;
        int gcnArch;
        char gcnArchName[256];
    };
    static constexpr size_t k_properties_buffer_bytes = 8192;
};

}  // namespace memscope
