#include "torchpart/part_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace memscope {

std::string PartLibrary::find(const std::string& file_name, const char* env_var,
                              const std::vector<std::string>& extra_candidates) {
    if (const char* forced = std::getenv(env_var); forced != nullptr && *forced != '\0') {
        return forced;
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    std::vector<fs::path> candidates;
    if (!ec) {
        candidates.push_back(self.parent_path() / file_name);
        candidates.push_back(self.parent_path() / ".." / "lib" / "memscope" / file_name);
    }
    for (const auto& extra : extra_candidates) {
        if (!extra.empty()) {
            candidates.emplace_back(extra);
        }
    }
    for (const auto& candidate : candidates) {
        if (fs::is_regular_file(candidate, ec)) {
            return candidate.lexically_normal().string();
        }
    }
    return {};
}

PartLibrary::Loaded PartLibrary::load(const std::string& path, const char* entry_symbol) {
    Loaded loaded;
    void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (library == nullptr) {
        const char* why = ::dlerror();
        loaded.failure = Loaded::Failure::CannotLoad;
        loaded.why = why != nullptr ? why : "unknown error";
        loaded.error = "cannot load " + path + ": " + loaded.why;
        return loaded;
    }
    loaded.entry = ::dlsym(library, entry_symbol);
    if (loaded.entry == nullptr) {
        loaded.failure = Loaded::Failure::NoEntry;
        loaded.error = path + " has no " + entry_symbol + " (a library of another Memscope build?)";
    }
    return loaded;
}

}  // namespace memscope
