// memscope-cli: the headless front end. No Qt: it builds wherever LibTorch does.

#include "cli_app.h"

#include <iostream>

int main(int argc, char** argv) {
    memscope::cli::CliApp cli;
    if (const auto status = cli.parse(argc, argv, std::cout, std::cerr)) {
        return *status;
    }
    return cli.run();
}
