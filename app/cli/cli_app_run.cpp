#include "cli_app.h"

#include "cli_support.h"

namespace memscope::cli {

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
