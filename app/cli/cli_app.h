#pragma once

#include "compare_command.h"
#include "devices_command.h"
#include "export_command.h"
#include "import_command.h"
#include "info_command.h"
#include "predict_command.h"
#include "record_command.h"
#include "recover_command.h"
#include "report_command.h"
#include "sweep_command.h"
#include "train_command.h"

#include <CLI/App.hpp>

#include <iosfwd>
#include <memory>
#include <optional>

namespace memscope::cli {

// memscope-cli's command line: the CLI11 app with every command registered. main() parses and
// runs; tests/cli/fuzz_cli_options.cpp parses random argument vectors in-process.
// Parsing needs no LibTorch (cli_app.cpp, in memscope_cli_base with every command's options, so
// the fuzzer builds under ASan without the LibTorch part), nor do the commands that only read and
// write runs (runWithoutLibTorch); run() is in cli_app_run.cpp (memscope_cli), as are the run()
// of the commands that train or look at devices.
class CliApp {
  public:
    CliApp();
    ~CliApp();
    CliApp(const CliApp&) = delete;
    CliApp& operator=(const CliApp&) = delete;

    // Parses the arguments. nullopt: a command was chosen, run() it. Otherwise the exit status:
    // 0 after --help or --version (printed to `out`), 2 after a usage error (one line on `err`,
    // "memscope-cli: error: ...").
    std::optional<int> parse(int argc, const char* const* argv, std::ostream& out,
                             std::ostream& err);
    // Runs the chosen command; its exit status. (cli_app_run.cpp: links the LibTorch part.)
    int run();
    // Whether the chosen command trains, records, predicts with measured peaks or looks at
    // devices: it needs LibTorch, which memscope-cli loads only then (TorchPartRunner).
    bool needsLibTorch() const;
    // Runs a chosen command that needs no LibTorch (info, import, export, report, compare,
    // recover); 2 with a usage error for one that does.
    int runWithoutLibTorch();

    CLI::App& app() { return m_app; }

  private:
    // Every command: constructing one adds its subcommand and options to the app.
    struct Commands {
        explicit Commands(CLI::App& app)
            : train(app),
              record(app),
              info(app),
              import(app),
              exportCommand(app),
              report(app),
              predict(app),
              sweep(app),
              compare(app),
              devices(app),
              recover(app) {}

        TrainCommand train;
        RecordCommand record;
        InfoCommand info;
        ImportCommand import;
        ExportCommand exportCommand;
        ReportCommand report;
        PredictCommand predict;
        SweepCommand sweep;
        CompareCommand compare;
        DevicesCommand devices;
        RecoverCommand recover;
    };

    CLI::App m_app;
    std::unique_ptr<Commands> m_commands;
};

}  // namespace memscope::cli
