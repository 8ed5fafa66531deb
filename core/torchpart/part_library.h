#pragma once

#include <string>
#include <vector>

namespace memscope {

// The one way Memscope's front ends load their LibTorch part (issue 31): a library loaded at run
// time that holds the code which links LibTorch, so that reading and drawing runs starts without
// LibTorch's ~300 shared libraries. The CLI's part (memscope-cli-torch.so) runs a command line,
// the GUI's (memscope-gui-torch.so) hands out a TorchPart (torchpart/torch_part.h); both are found
// and loaded here, and only their entry points differ.
//
// find(): the environment variable when it is set, else beside the executable (a build tree),
// in ../lib/memscope (an install), then the extra candidates. load(): dlopen with RTLD_GLOBAL
// (LibTorch's own plugins, the c10d backends, find its symbols), never unloaded (LibTorch's
// threads and static objects outlive any call), and the entry point looked up.
class PartLibrary {
  public:
    // The library's path, or "" when none of the places holds it.
    static std::string find(const std::string& file_name, const char* env_var,
                            const std::vector<std::string>& extra_candidates = {});

    struct Loaded {
        enum class Failure { None, CannotLoad, NoEntry };
        void* entry = nullptr;  // the entry point; nullptr when loading failed
        Failure failure = Failure::None;
        std::string why;    // CannotLoad: the loader's reason (dlerror)
        std::string error;  // the failure as one line: "cannot load PATH: WHY" or "PATH has no
                            // SYMBOL (a library of another Memscope build?)"
    };
    static Loaded load(const std::string& path, const char* entry_symbol);
};

}  // namespace memscope
