#pragma once

#include "analysis/event_at.h"
#include "run/run_range.h"
#include "screenshot_harness.h"

#include <QSize>
#include <QString>

#include <optional>

class QCommandLineParser;

namespace memscope {

// The GUI's command line (issue 54): its options as one table (name, value name, help:
// gui_options.cpp) that main() declares on its parser, and what they ask, each checked where it
// is read. main() and the screenshot harness (request()) read this, not the parser.
struct GuiOptions {
    QString language;        // --lang, "" for the system's
    int quit_after_ms = -1;  // --quit-after-ms, -1 for none
    bool quit_when_drawn = false;
    QString open_path;                            // --open, "" for none
    RunRange range;                               // --range
    int rank = -1;                                // --rank, -1 for none
    ScreenshotHarness::ViewOptions view_options;  // --annotations, --filter, --filter-mode
    std::optional<ScreenshotHarness::Detail> detail;
    QSize size{1600, 900};
    double scale = 1;
    std::optional<EventAt> at;  // --at, with its text
    QString at_text;
    QString compare_path;     // --compare, "" for none
    QString screenshot_view;  // --screenshot VIEW=FILE, "" for none
    QString screenshot_file;

    // What a bad option says (one line) and the exit status it ends with.
    struct Refusal {
        int status = 0;
        QString message;
    };

    // Declares every option of the table on `parser` (and --help, --version).
    static void declare(QCommandLineParser& parser);
    // Reads the processed parser; a Refusal with status 0 when every option is good.
    static Refusal read(const QCommandLineParser& parser, GuiOptions& out);
    // The screenshot the options ask for.
    ScreenshotHarness::Request request() const;
};

}  // namespace memscope
