#include "device/hip_runtime.h"

#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace memscope {

namespace {

constexpr int k_hip_success = 0;
constexpr int k_hip_error_no_device = 100;  // hipErrorNoDevice
constexpr int k_hip_error_insufficient_driver = 35;

using GetDeviceCount = int (*)(int*);
using GetDeviceProperties = int (*)(void*, int);
using SetDevice = int (*)(int);
using GetDevice = int (*)(int*);
using MemGetInfo = int (*)(size_t*, size_t*);
using RuntimeGetVersion = int (*)(int*);
using GetErrorString = const char* (*)(int);

// Never dlclose'd: the HIP runtime starts threads and registers exit handlers, and unloading it
// under them crashes at exit. A second query finds the same library already loaded.
struct Library {
    void* handle = nullptr;
    template <typename F>
    F symbol(const char* name) const {
        return reinterpret_cast<F>(dlsym(handle, name));
    }
};

std::string versionText(int v) {
    // HIP_VERSION = major * 10000000 + minor * 100000 + patch
    return std::to_string(v / 10000000) + "." + std::to_string(v / 100000 % 100) + "." +
           std::to_string(v % 100000);
}

}  // namespace

std::string HipRuntime::Result::statusLine() const {
    if (status == Status::NotFound) {
        return "HIP runtime not found";
    }
    std::string line = "HIP runtime";
    if (!runtime_version.empty()) {
        line += " " + runtime_version;
    }
    line += " (" + library + "): ";
    switch (status) {
        case Status::NoDevice:
            return line + "no AMD GPU";
        case Status::Error:
            return line + "error: " + error;
        default:
            break;
    }
    const auto n = devices.size();
    return line + std::to_string(n) + (n == 1 ? " AMD GPU" : " AMD GPUs");
}

HipRuntime::Result HipRuntime::query(const std::string& library) {
    Result result;
    std::vector<std::string> candidates;
    if (!library.empty()) {
        candidates.push_back(library);
    } else if (const char* env = std::getenv("MEMSCOPE_HIP_LIBRARY"); env && *env) {
        candidates.emplace_back(env);
    } else {
        candidates = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5",
                      "/opt/rocm/lib/libamdhip64.so"};
    }
    Library lib;
    for (const auto& name : candidates) {
        lib.handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (lib.handle) {
            result.library = name;
            break;
        }
    }
    if (!lib.handle) {
        return result;  // NotFound
    }
    const auto count_fn = lib.symbol<GetDeviceCount>("hipGetDeviceCount");
    const auto props_fn = lib.symbol<GetDeviceProperties>("hipGetDeviceProperties");
    const auto set_fn = lib.symbol<SetDevice>("hipSetDevice");
    const auto get_fn = lib.symbol<GetDevice>("hipGetDevice");
    const auto mem_fn = lib.symbol<MemGetInfo>("hipMemGetInfo");
    const auto version_fn = lib.symbol<RuntimeGetVersion>("hipRuntimeGetVersion");
    const auto error_fn = lib.symbol<GetErrorString>("hipGetErrorString");
    // The path the loader actually chose, for the status line.
    if (Dl_info info{};
        count_fn && dladdr(reinterpret_cast<void*>(count_fn), &info) && info.dli_fname) {
        result.library = info.dli_fname;
    }
    if (!count_fn || !props_fn) {
        result.status = Status::Error;
        result.error = "the library lacks hipGetDeviceCount or hipGetDeviceProperties";
        return result;
    }
    auto message = [&](const char* call, int code) {
        std::string text = std::string(call) + " returned " + std::to_string(code);
        if (error_fn) {
            if (const char* s = error_fn(code)) {
                text += " (" + std::string(s) + ")";
            }
        }
        return text;
    };
    if (int v = 0; version_fn && version_fn(&v) == k_hip_success && v > 0) {
        result.runtime_version = versionText(v);
    }
    int count = 0;
    const int rc = count_fn(&count);
    // hipErrorNoDevice, and a driver too old for any device, both mean "no AMD GPU here".
    if (rc == k_hip_error_no_device || rc == k_hip_error_insufficient_driver ||
        (rc == k_hip_success && count <= 0)) {
        result.status = Status::NoDevice;
        return result;
    }
    if (rc != k_hip_success) {
        result.status = Status::Error;
        result.error = message("hipGetDeviceCount", rc);
        return result;
    }
    int previous = -1;
    if (get_fn && get_fn(&previous) != k_hip_success) {
        previous = -1;
    }
    // Aligned, zeroed and far larger than any layout of the struct.
    auto buffer =
        std::make_unique<std::max_align_t[]>(k_properties_buffer_bytes / sizeof(std::max_align_t));
    for (int i = 0; i < count; ++i) {
        std::memset(buffer.get(), 0, k_properties_buffer_bytes);
        if (const int prc = props_fn(buffer.get(), i); prc != k_hip_success) {
            result.status = Status::Error;
            result.error = message("hipGetDeviceProperties", prc);
            return result;
        }
        PropertiesPrefix props;
        std::memcpy(&props, buffer.get(), sizeof props);
        Device device;
        device.index = i;
        device.name.assign(props.name, strnlen(props.name, sizeof props.name));
        device.arch.assign(props.gcnArchName, strnlen(props.gcnArchName, sizeof props.gcnArchName));
        device.total_bytes = static_cast<int64_t>(props.totalGlobalMem);
        size_t free_bytes = 0;
        size_t total_bytes = 0;
        if (set_fn && mem_fn && set_fn(i) == k_hip_success &&
            mem_fn(&free_bytes, &total_bytes) == k_hip_success) {
            device.free_bytes = static_cast<int64_t>(free_bytes);
            if (device.total_bytes == 0) {
                device.total_bytes = static_cast<int64_t>(total_bytes);
            }
        }
        result.devices.push_back(std::move(device));
    }
    if (set_fn && previous >= 0) {
        set_fn(previous);
    }
    result.status = Status::Ok;
    return result;
}

}  // namespace memscope
