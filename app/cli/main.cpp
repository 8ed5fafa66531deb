// memscope-cli: the headless front end. No Qt: it builds wherever LibTorch does. The executable
// itself links no LibTorch: the commands that read and write runs start in a few milliseconds,
// and those that need LibTorch run in its part, loaded then (TorchPartRunner).

#include "cli_app.h"
#include "program_sweep_command.h"
#include "python_record.h"
#include "rank_launcher.h"
#include "torch_part_runner.h"
#include "train/thread_policy.h"

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    // record --python: everything after --python is the program's (app/cli/python_record.h).
    // Before the wait policy: the program runs in the environment it was given, as it would
    // without Memscope.
    if (argc > 1 && std::strcmp(argv[1], "record") == 0) {
        const std::vector<std::string> args(argv + 2, argv + argc);
        if (memscope::cli::PythonRecord::requested(args)) {
            return memscope::cli::PythonRecord::run(args);
        }
    }
    // sweep --python: the program's arguments hold {NAME} placeholders (program_sweep_command.h).
    if (argc > 1 && std::strcmp(argv[1], "sweep") == 0) {
        const std::vector<std::string> args(argv + 2, argv + argc);
        if (memscope::cli::ProgramSweepCommand::requested(args)) {
            return memscope::cli::ProgramSweepCommand::run(args);
        }
    }
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
    if (cli.needsLibTorch()) {
        return memscope::cli::TorchPartRunner::run(argc, argv);
    }
    return cli.runWithoutLibTorch();
}
