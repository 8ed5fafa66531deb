#include "torch_part_runner.h"

#include "cli_support.h"
#include "torchpart/part_library.h"

#include <string>

namespace memscope::cli {

namespace {

constexpr const char* k_part_name = "memscope-cli-torch.so";
constexpr const char* k_entry = "memscope_cli_torch_main";

}  // namespace

int TorchPartRunner::run(int argc, char** argv) {
    const std::string path = PartLibrary::find(k_part_name, "MEMSCOPE_CLI_TORCH_PART");
    if (path.empty()) {
        return fail(std::string("this command needs LibTorch, and ") + k_part_name +
                    " is neither beside memscope-cli nor in ../lib/memscope (reinstall "
                    "Memscope)");
    }
    const auto loaded = PartLibrary::load(path, k_entry);
    if (loaded.entry == nullptr) {
        return fail(loaded.error);
    }
    using Entry = int (*)(int, char**);
    return reinterpret_cast<Entry>(loaded.entry)(argc, argv);
}

}  // namespace memscope::cli
