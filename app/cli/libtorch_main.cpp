// memscope-cli's LibTorch part (memscope-cli-torch.so): the whole CLI with the commands that
// train, record, predict with measured peaks or look at devices. memscope-cli loads it for those
// commands only (TorchPartRunner) and hands it the command line, which it parses and runs again.

#include "cli_app.h"
#include "rank_launcher.h"

#include <iostream>

extern "C" __attribute__((visibility("default"))) int memscope_cli_torch_main(int argc,
                                                                              char** argv) {
    // --nproc starts the ranks as copies of this command line (this library's copy of the
    // launcher's state: memscope-cli's own is not shared with it).
    memscope::cli::RankLauncher::setArguments(argc, argv);
    memscope::cli::CliApp cli;
    if (const auto status = cli.parse(argc, argv, std::cout, std::cerr)) {
        return *status;
    }
    return cli.run();
}
