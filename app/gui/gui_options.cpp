#include "gui_options.h"

#include "error_text.h"
#include "model/input_error.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

#include <iterator>

namespace memscope {

namespace {

constexpr int k_usage = ScreenshotHarness::kUsageError;

// The table: a name, the word for its value ("" for a flag) and its help, both translated in
// the context "main" (QT_TRANSLATE_NOOP marks them for lupdate).
struct GuiOptionRow {
    const char* name;
    const char* value;
    const char* help;
};

const GuiOptionRow k_rows[] = {
    {"lang", QT_TRANSLATE_NOOP("main", "code"),
     QT_TRANSLATE_NOOP("main", "Interface language, e.g. en or de (default: the system's).")},
    {"quit-after-ms", QT_TRANSLATE_NOOP("main", "ms"),
     QT_TRANSLATE_NOOP("main", "Quit after the given number of milliseconds.")},
    {"quit-when-drawn", "",
     QT_TRANSLATE_NOOP("main", "Quit once the window has drawn the opened run (timing).")},
    {"open", QT_TRANSLATE_NOOP("main", "run"),
     QT_TRANSLATE_NOOP("main",
                       "Open a run file (.memscope) or a PyTorch memory snapshot (.pickle).")},
    {"range", QT_TRANSLATE_NOOP("main", "A:B"),
     QT_TRANSLATE_NOOP("main",
                       "Open only part of the run: event indices A:B (1000000:2000000) or times "
                       "with a unit (2.5s:4s, 300ms:, :1.5min).")},
    {"screenshot", QT_TRANSLATE_NOOP("main", "view=file"),
     QT_TRANSLATE_NOOP("main",
                       "Render a view of the opened run to a PNG or SVG file and exit (views: "
                       "timeline, ranks (every rank of a run directory), window, or a tab such "
                       "as operators, summary).")},
    {"rank", QT_TRANSLATE_NOOP("main", "n"),
     QT_TRANSLATE_NOOP("main",
                       "With a multi-rank run directory: the rank to show (default: the first).")},
    {"detail", QT_TRANSLATE_NOOP("main", "n|percent"),
     QT_TRANSLATE_NOOP("main",
                       "Allocations drawn one by one in the timeline: a count, or a share such "
                       "as 10%.")},
    {"size", QT_TRANSLATE_NOOP("main", "WxH"),
     QT_TRANSLATE_NOOP("main", "Screenshot size in pixels (default 1600x900).")},
    {"scale", QT_TRANSLATE_NOOP("main", "factor"),
     QT_TRANSLATE_NOOP("main", "Pixels per point of a PNG screenshot, 1 to 4.")},
    {"at", QT_TRANSLATE_NOOP("main", "time|event"),
     QT_TRANSLATE_NOOP("main",
                       "The time a flame graph screenshot shows: a time with a unit (1.25s, "
                       "300ms) or an event index (default: the peak).")},
    {"compare", QT_TRANSLATE_NOOP("main", "run"),
     QT_TRANSLATE_NOOP("main",
                       "Compare the opened run with this one (the Compare tab; --screenshot "
                       "compare=FILE renders it, compare-overlay=FILE with both runs on one "
                       "axis).")},
    {"filter", QT_TRANSLATE_NOOP("main", "range"),
     QT_TRANSLATE_NOOP("main",
                       "Filter every view to the allocations alive in a range of the opened "
                       "run: event indices A:B, or times with a unit (0.5s:1.2s).")},
    {"filter-mode", QT_TRANSLATE_NOOP("main", "alive|made"),
     QT_TRANSLATE_NOOP("main",
                       "How --filter selects allocations: alive (alive in the range, the "
                       "default) or made (allocated in it).")},
    {"annotations", "",
     QT_TRANSLATE_NOOP("main",
                       "Show steps, phases, recomputations and imported annotations on the "
                       "timeline.")},
};

// A row's text in the interface language (the literals below are marked where they stand).
QString translated(const char* text) {
    return QCoreApplication::translate("main", text);
}

}  // namespace

void GuiOptions::declare(QCommandLineParser& parser) {
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Memory profiler for Tiny LLaMA training."));
    parser.addHelpOption();
    parser.addVersionOption();
    for (const auto& row : k_rows) {
        if (*row.value == '\0') {
            parser.addOption(
                QCommandLineOption(QString::fromLatin1(row.name), translated(row.help)));
        } else {
            parser.addOption(QCommandLineOption(QString::fromLatin1(row.name), translated(row.help),
                                                translated(row.value)));
        }
    }
}

GuiOptions::Refusal GuiOptions::read(const QCommandLineParser& parser, GuiOptions& out) {
    auto set = [&parser](const char* name) { return parser.isSet(QString::fromLatin1(name)); };
    auto value = [&parser](const char* name) { return parser.value(QString::fromLatin1(name)); };
    out.language = value("lang");
    out.quit_when_drawn = set("quit-when-drawn");
    out.open_path = value("open");
    out.compare_path = value("compare");
    out.at_text = value("at");
    if (set("quit-after-ms")) {
        bool ok = false;
        out.quit_after_ms = value("quit-after-ms").toInt(&ok);
        if (!ok || out.quit_after_ms < 0) {
            return {1, QCoreApplication::translate(
                           "main", "--quit-after-ms needs a whole number of at least 0, not: %1")
                           .arg(value("quit-after-ms"))};
        }
    }
    try {
        if (set("range")) {
            out.range = RunRange::parse(value("range").toStdString());
        }
    } catch (const InputError& e) {
        return {k_usage, QStringLiteral("--range: %1").arg(errorText(e))};
    }
    if (set("rank")) {
        bool ok = false;
        out.rank = value("rank").toInt(&ok);
        if (!ok || out.rank < 0) {
            return {k_usage, QCoreApplication::translate(
                                 "main", "--rank needs a rank number of at least 0, not: %1")
                                 .arg(value("rank"))};
        }
        if (!set("open") || !ScreenshotHarness::isRunDirectory(out.open_path)) {
            return {k_usage,
                    QCoreApplication::translate(
                        "main", "--rank needs a multi-rank run directory: add --open DIR")};
        }
    }
    out.view_options.annotations = set("annotations");
    try {
        if (set("filter")) {
            out.view_options.filter = RunRange::parse(value("filter").toStdString());
        }
    } catch (const InputError& e) {
        return {k_usage, QStringLiteral("--filter: %1").arg(errorText(e))};
    }
    if (set("filter-mode")) {
        const QString mode = value("filter-mode");
        if (mode == QLatin1String("alive")) {
            out.view_options.mode = RangeFilter::Mode::AliveIn;
        } else if (mode == QLatin1String("made")) {
            out.view_options.mode = RangeFilter::Mode::MadeIn;
        } else {
            return {k_usage, QCoreApplication::translate(
                                 "main", "--filter-mode needs alive or made, not: %1")
                                 .arg(mode)};
        }
    }
    if (set("detail")) {
        out.detail = ScreenshotHarness::parseDetail(value("detail"));
        if (!out.detail) {
            return {k_usage,
                    QCoreApplication::translate(
                        "main", "--detail needs a count (15000) or a percentage (10%), not: %1")
                        .arg(value("detail"))};
        }
    }
    if (set("size")) {
        const auto parsed = ScreenshotHarness::parseSize(value("size"));
        if (!parsed) {
            return {
                k_usage,
                QCoreApplication::translate(
                    "main", "--size needs WIDTHxHEIGHT between 200x150 and 16384x16384, not: %1")
                    .arg(value("size"))};
        }
        out.size = *parsed;
    }
    if (set("scale")) {
        bool ok = false;
        out.scale = value("scale").toDouble(&ok);
        if (!ok || out.scale < 1 || out.scale > 4) {
            return {k_usage, QCoreApplication::translate(
                                 "main", "--scale needs a number from 1 to 4, not: %1")
                                 .arg(value("scale"))};
        }
    }
    if (set("at")) {
        try {
            out.at = EventAt::parse(out.at_text.toStdString());
        } catch (const InputError& e) {
            return {k_usage, QStringLiteral("--at: %1").arg(errorText(e))};
        }
        if (!value("screenshot").startsWith(QLatin1String("flamegraph="))) {
            return {k_usage, QCoreApplication::translate(
                                 "main", "--at works with --screenshot flamegraph=FILE only")};
        }
    }
    if (set("compare") && !set("open")) {
        return {k_usage, QCoreApplication::translate(
                             "main", "--compare needs a run to compare with: add --open RUN")};
    }
    if (set("screenshot")) {
        const QString spec = value("screenshot");
        const qsizetype eq = spec.indexOf(QLatin1Char('='));
        out.screenshot_view = eq < 0 ? QString() : spec.left(eq);
        out.screenshot_file = eq < 0 ? QString() : spec.mid(eq + 1);
        if (out.screenshot_view.isEmpty() || out.screenshot_file.isEmpty()) {
            out.screenshot_view.clear();
            return {k_usage, QCoreApplication::translate(
                                 "main",
                                 "--screenshot needs VIEW=FILE with VIEW timeline, window or a "
                                 "tab name; not: %1")
                                 .arg(spec)};
        }
        if ((out.screenshot_view == QLatin1String("timeline") ||
             out.screenshot_view == QLatin1String("ranks")) &&
            !set("open")) {
            return {k_usage, QCoreApplication::translate(
                                 "main", "--screenshot needs a run to draw: add --open RUN")};
        }
    }
    return {};
}

ScreenshotHarness::Request GuiOptions::request() const {
    ScreenshotHarness::Request r;
    r.run_path = open_path;
    r.range = range;
    r.rank = rank;
    r.view = screenshot_view;
    r.file = screenshot_file;
    r.detail = detail;
    r.size = size;
    r.scale = scale;
    r.at = at;
    r.at_text = at_text;
    r.compare_path = compare_path;
    r.options = view_options;
    return r;
}

}  // namespace memscope
