#include "cli_app.h"

#include "cli_support.h"

#include <CLI/Config.hpp>
#include <CLI/Formatter.hpp>

#include <iostream>

namespace memscope::cli {

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

bool CliApp::needsLibTorch() const {
    const Commands& c = *m_commands;
    return c.train.selected() || c.record.selected() ||
           (c.predict.selected() && !c.predict.usesFit()) || c.sweep.selected() ||
           c.devices.selected();
}

int CliApp::runWithoutLibTorch() {
    Commands& c = *m_commands;
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
    if (c.compare.selected()) {
        return c.compare.run();
    }
    if (c.recover.selected()) {
        return c.recover.run();
    }
    if (c.predict.selected() && c.predict.usesFit()) {
        return c.predict.runFit();
    }
    return reportUsageError(needsLibTorch() ? "this command needs LibTorch (memscope-cli loads it)"
                                            : "no command given (try --help)");
}

}  // namespace memscope::cli
