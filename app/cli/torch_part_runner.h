#pragma once

namespace memscope::cli {

// Runs a command line in memscope-cli's LibTorch part, a library loaded only for the commands
// that train, record, predict with measured peaks or look at devices (issue 31): the commands
// that read and write runs (info, import, export, report, compare, recover) start without
// LibTorch's ~290 shared libraries. The part (memscope-cli-torch.so, app/cli/libtorch_main.cpp)
// holds the whole CLI and runs the command line again itself. Found and loaded as the GUI's part
// is (torchpart/part_library.h): MEMSCOPE_CLI_TORCH_PART, beside the executable, ../lib/memscope.
class TorchPartRunner {
  public:
    // Loads the part and runs the command line there; its exit status, or 1 with one line
    // naming the library when it cannot be loaded.
    static int run(int argc, char** argv);
};

}  // namespace memscope::cli
