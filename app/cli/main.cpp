// memscope-cli: the headless front end. No Qt: it builds wherever LibTorch does.

#include "cli_support.h"
#include "compare_command.h"
#include "export_command.h"
#include "import_command.h"
#include "info_command.h"
#include "predict_command.h"
#include "record_command.h"
#include "recover_command.h"
#include "report_command.h"
#include "sweep_command.h"
#include "train/thread_policy.h"
#include "train_command.h"

#include <CLI/App.hpp>
#include <CLI/Config.hpp>
#include <CLI/Formatter.hpp>

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    // Commands that train get the OpenMP wait policy (see ThreadPolicy); the others start once.
    if (argc > 1 && (std::strcmp(argv[1], "train") == 0 || std::strcmp(argv[1], "record") == 0 ||
                     std::strcmp(argv[1], "sweep") == 0)) {
        memscope::ThreadPolicy::applyWaitPolicy(argv);
    }
    CLI::App app{"Memscope: see where the memory of Tiny LLaMA training goes", "memscope-cli"};
    app.set_version_flag("--version", std::string("memscope-cli ") + MEMSCOPE_VERSION);
    app.require_subcommand(1);
    memscope::cli::TrainCommand train(app);
    memscope::cli::RecordCommand record(app);
    memscope::cli::InfoCommand info(app);
    memscope::cli::ImportCommand import(app);
    memscope::cli::ExportCommand export_command(app);
    memscope::cli::ReportCommand report(app);
    memscope::cli::PredictCommand predict(app);
    memscope::cli::SweepCommand sweep(app);
    memscope::cli::CompareCommand compare(app);
    memscope::cli::RecoverCommand recover(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return memscope::cli::reportUsageError(e.what());
    }
    if (train.selected()) {
        return train.run();
    }
    if (record.selected()) {
        return record.run();
    }
    if (info.selected()) {
        return info.run();
    }
    if (import.selected()) {
        return import.run();
    }
    if (export_command.selected()) {
        return export_command.run();
    }
    if (report.selected()) {
        return report.run();
    }
    if (predict.selected()) {
        return predict.run();
    }
    if (sweep.selected()) {
        return sweep.run();
    }
    if (compare.selected()) {
        return compare.run();
    }
    if (recover.selected()) {
        return recover.run();
    }
    return memscope::cli::reportUsageError("no command given (try --help)");
}
