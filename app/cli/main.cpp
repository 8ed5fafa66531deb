// memscope-cli: the headless front end. No Qt: it builds wherever LibTorch does.

#include "cli_app.h"
#include "rank_launcher.h"
#include "train/thread_policy.h"

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    // Commands that train get the OpenMP wait policy (see ThreadPolicy); the others start once.
    if (argc > 1 && (std::strcmp(argv[1], "train") == 0 || std::strcmp(argv[1], "record") == 0 ||
                     std::strcmp(argv[1], "sweep") == 0)) {
        memscope::ThreadPolicy::applyWaitPolicy(argv);
    }
    // --nproc starts the ranks as copies of this command line.
    memscope::cli::RankLauncher::setArguments(argc, argv);
    memscope::cli::CliApp cli;
    if (const auto status = cli.parse(argc, argv, std::cout, std::cerr)) {
        return *status;
    }
    return cli.run();
}
