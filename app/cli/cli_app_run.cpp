#include "cli_app.h"

namespace memscope::cli {

int CliApp::run() {
    // The commands that need LibTorch; the others run as memscope-cli runs them without it.
    Commands& c = *m_commands;
    if (c.train.selected()) {
        return c.train.run();
    }
    if (c.record.selected()) {
        return c.record.run();
    }
    if (c.predict.selected()) {
        return c.predict.run();
    }
    if (c.sweep.selected()) {
        return c.sweep.run();
    }
    if (c.devices.selected()) {
        return c.devices.run();
    }
    return runWithoutLibTorch();
}

}  // namespace memscope::cli
