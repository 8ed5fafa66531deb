#pragma once

#include "analysis/event_at.h"
#include "analysis/range_filter.h"
#include "run/run_range.h"

#include <QSize>
#include <QString>

#include <optional>

namespace memscope {

class MainWindow;
class RunDocument;
class Trace;

// The GUI's screenshot harness: `memscope --open RUN --screenshot VIEW=FILE` renders a view of a
// run to a PNG or SVG file without showing a window (offscreen), for write-ups, the README's
// picture and looking at the GUI from a terminal. The timeline of one run as a PNG is drawn by a
// TimelineView alone (the fast path); every other view ("window", "ranks": the lanes of every
// rank of a run directory, or a tab of MainWindow::viewNames()) opens the run in a MainWindow,
// waits for what its pages compute off the GUI thread, and writes the view. main.cpp parses the
// command line into a Request.
class ScreenshotHarness {
  public:
    // The exit status for bad options (and a filter, rank or view the run does not have).
    static constexpr int kUsageError = 2;

    // "--detail 10%" or "--detail 15000": a share of all allocations or a count.
    struct Detail {
        bool percent = false;
        double value = 0;
    };
    // What --filter, --filter-mode and --annotations ask the views to show.
    struct ViewOptions {
        std::optional<RunRange> filter;
        RangeFilter::Mode mode = RangeFilter::Mode::AliveIn;
        bool annotations = false;
    };
    struct Request {
        QString run_path;  // --open (empty: no run)
        RunRange range;    // --range
        int rank = -1;     // --rank of a run directory
        QString view;      // VIEW of --screenshot VIEW=FILE
        QString file;      // FILE
        std::optional<Detail> detail;
        QSize size{1600, 900};
        double scale = 1;
        std::optional<EventAt> at;  // --at, for the flame graph
        QString at_text;            // as given, for messages
        QString compare_path;       // --compare
        ViewOptions options;
    };

    // Writes the view; the program's exit status: 0 written, 1 when the run cannot be read or the
    // file written, kUsageError for what the run does not have. Says why in one line on stderr.
    static int render(const Request& request);

    // The option parsers main.cpp uses: nullopt for text that is not one.
    static std::optional<Detail> parseDetail(const QString& text);
    static std::optional<QSize> parseSize(const QString& text);  // 200x150 to 16384x16384
    static bool isRunDirectory(const QString& path);
    // Sets the range filter of --filter on `state` (whose run is `trace`); false with a message
    // when it selects no events.
    static bool applyFilter(RunDocument& state, const Trace& trace, const ViewOptions& options);
    // "memscope: MESSAGE" on stderr.
    static void printError(const QString& message);

  private:
    static int renderTimeline(const Request& request);
    static int renderWindow(const Request& request);
    // Waits, the event loop going, for a load the window started (`started`) to end: whether it
    // opened its run. A small run opened here and now has ended already.
    static bool finishLoading(MainWindow& window, bool started);
};

}  // namespace memscope
