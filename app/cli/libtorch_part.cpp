#include "libtorch_part.h"

#include "cli_support.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace memscope::cli {

namespace {

constexpr const char* k_part_name = "memscope-cli-torch.so";
constexpr const char* k_entry = "memscope_cli_torch_main";

std::filesystem::path executableDirectory() {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self.parent_path();
}

}  // namespace

std::string LibTorchPart::libraryPath() {
    if (const char* forced = std::getenv("MEMSCOPE_CLI_TORCH_PART"); forced && *forced) {
        return forced;
    }
    const auto dir = executableDirectory();
    std::error_code ec;
    for (const auto& candidate :
         {dir / k_part_name, dir / ".." / "lib" / "memscope" / k_part_name}) {
        if (std::filesystem::exists(candidate, ec)) {
            return candidate.lexically_normal().string();
        }
    }
    return {};
}

int LibTorchPart::run(int argc, char** argv) {
    const std::string path = libraryPath();
    if (path.empty()) {
        return fail(std::string("this command needs LibTorch, and ") + k_part_name +
                    " is neither beside memscope-cli nor in ../lib/memscope (reinstall "
                    "Memscope)");
    }
    // RTLD_GLOBAL: LibTorch's own plugins (c10d backends) find its symbols.
    void* part = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!part) {
        const char* why = ::dlerror();
        return fail("cannot load " + path + ": " + (why ? why : "unknown error"));
    }
    using Entry = int (*)(int, char**);
    auto entry = reinterpret_cast<Entry>(::dlsym(part, k_entry));
    if (!entry) {
        return fail(path + " has no " + k_entry + " (a part of another build?)");
    }
    // Never unloaded: LibTorch's threads and static objects outlive the call.
    return entry(argc, argv);
}

}  // namespace memscope::cli
