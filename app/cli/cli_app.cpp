#include "cli_app.h"

#include "cli_support.h"
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

#include <CLI/Config.hpp>
#include <CLI/Formatter.hpp>

#include <iostream>

namespace memscope::cli {

struct CliApp::Commands {
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

CliApp::CliApp()
    : m_app("Memscope: see where the memory of Tiny LLaMA training goes", "memscope-cli") {
    m_app.set_version_flag("--version", std::string("memscope-cli ") + MEMSCOPE_VERSION);
    m_app.require_subcommand(1);
    m_commands = std::make_unique<Commands>(m_app);
}

CliApp::~CliApp() = default;

std::optional<int> CliApp::parse(int argc, const char* const* argv, std::ostream& out,
                                 std::ostream& err) {
    try {
        m_app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return m_app.exit(e, out, err);
    } catch (const CLI::CallForAllHelp& e) {
        return m_app.exit(e, out, err);
    } catch (const CLI::CallForVersion& e) {
        return m_app.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
        return reportUsageError(e.what(), err);
    }
    return std::nullopt;
}

int CliApp::run() {
    Commands& c = *m_commands;
    if (c.train.selected()) {
        return c.train.run();
    }
    if (c.record.selected()) {
        return c.record.run();
    }
    if (c.info.selected()) {
        return c.info.run();
    }
    if (c.import.selected()) {
        return c.import.run();
    }
    if (c.exportCommand.selected()) {
        return c.exportCommand.run();
    }
    if (c.report.selected()) {
        return c.report.run();
    }
    if (c.predict.selected()) {
        return c.predict.run();
    }
    if (c.sweep.selected()) {
        return c.sweep.run();
    }
    if (c.compare.selected()) {
        return c.compare.run();
    }
    if (c.devices.selected()) {
        return c.devices.run();
    }
    if (c.recover.selected()) {
        return c.recover.run();
    }
    return reportUsageError("no command given (try --help)");
}

}  // namespace memscope::cli
