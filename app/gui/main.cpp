// memscope: the desktop GUI. Options: --lang CODE picks the interface language (default: the
// system's), --quit-after-ms N quits after N ms (smoke tests), --quit-when-drawn quits once the
// window has drawn the opened run's timeline (start-up timing), --open RUN opens a run file, and
// --screenshot VIEW=FILE renders a view of the opened run to a PNG without showing a window
// (offscreen unless QT_QPA_PLATFORM says otherwise), with --detail N|P%, --size WxH, a range
// filter (--filter A:B, --filter-mode alive|made), annotation bands (--annotations) and, for the
// flame graph, --at TIME|EVENT (the time shown; the peak by default); --compare RUN2 opens the
// Compare tab with a second run (screenshot view "compare"); --rank N picks the rank of a
// multi-rank run directory, and the view "ranks" is the timeline's lanes of all its ranks. Then
// exits: 0 when written, 1 when the run cannot be read or the image written, 2 for bad options.

#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLocale>
#include <QRegularExpression>
#include <QSize>
#include <QStringList>
#include <QTimer>
#include <QTranslator>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>

#include "analysis/event_at.h"
#include "analysis/range_filter.h"
#include "compare_page.h"
#include "error_text.h"
#include "flame_graph_page.h"
#include "io/run_source.h"
#include "main_window.h"
#include "memscope_version.h"
#include "model/input_error.h"
#include "module_page.h"
#include "operator_page.h"
#include "run/run_range.h"
#include "run_document.h"
#include "run_session.h"
#include "summary_page.h"
#include "timeline_page.h"
#include "timeline_view.h"
#include "trace/trace.h"
#include "train/thread_policy.h"
#include "translation_loader.h"

namespace {

// The language must be known before the parser is set up, so that --help speaks it too; the
// parser validates the option afterwards like any other.
QString requested_language(const QStringList& arguments) {
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString& argument = arguments.at(i);
        if (argument == QLatin1String("--")) {
            break;
        }
        if (argument == QLatin1String("--lang") && i + 1 < arguments.size()) {
            return arguments.at(i + 1);
        }
        if (argument.startsWith(QLatin1String("--lang="))) {
            return argument.mid(7);
        }
    }
    return {};
}

void print_error(const QString& message) {
    std::fprintf(stderr, "memscope: %s\n", qPrintable(message));
}

constexpr int k_usage_error = 2;

// A screenshot is rendered, and --help and --version print, without a display: those choose the
// offscreen platform before the QApplication exists, unless the caller picked one. Otherwise,
// with no display at all (ssh to a GPU machine), Qt would abort with a page about platform
// plugins: one line says what to do instead. Returns false in that case.
bool choose_platform(int argc, char** argv) {
    if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) {
        return true;
    }
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0) {
            break;
        }
        for (const char* name : {"--screenshot", "--help", "-h", "--help-all", "--version", "-v"}) {
            const size_t n = std::strlen(name);
            if (std::strcmp(argv[i], name) == 0 ||
                (name[1] == '-' && std::strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')) {
                qputenv("QT_QPA_PLATFORM", "offscreen");
                return true;
            }
        }
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        print_error(QCoreApplication::translate(
            "main",
            "no display (DISPLAY and WAYLAND_DISPLAY are not set): run it on a desktop (or ssh "
            "-X), read the run with memscope-cli info, or render views with --screenshot"));
        return false;
    }
    return true;
}

// "--detail 10%" or "--detail 15000": a share of all allocations or a count.
struct DetailOption {
    bool percent = false;
    double value = 0;
};

std::optional<DetailOption> parse_detail(const QString& text) {
    QString t = text.trimmed();
    DetailOption d;
    if (t.endsWith(QLatin1Char('%'))) {
        d.percent = true;
        t.chop(1);
        bool ok = false;
        d.value = t.trimmed().toDouble(&ok);
        if (!ok || d.value < 0 || d.value > 100) {
            return std::nullopt;
        }
        return d;
    }
    bool ok = false;
    const qlonglong n = t.toLongLong(&ok);
    if (!ok || n < 0) {
        return std::nullopt;
    }
    d.value = double(n);
    return d;
}

std::optional<QSize> parse_size(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
    const auto match = pattern.match(text.trimmed());
    if (!match.hasMatch()) {
        return std::nullopt;
    }
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    if (size.width() < 200 || size.height() < 150 || size.width() > 16384 ||
        size.height() > 16384) {
        return std::nullopt;
    }
    return size;
}

bool is_run_directory(const QString& path) {
    try {
        return memscope::RunSource(QFile::encodeName(path).toStdString()).isMultiRank();
    } catch (const std::exception&) {
        return false;  // opening it says what is wrong
    }
}

// Waits, the event loop going, for a load the window started (`started`) to end: whether it
// opened its run. A small run opened here and now has ended already.
bool finish_loading(memscope::MainWindow& window, bool started) {
    if (!started) {
        return false;
    }
    bool ok = true;
    if (window.session()->isLoading()) {
        QEventLoop loop;
        QObject::connect(window.session(), &memscope::RunSession::loadFinished, &loop,
                         [&](bool opened) {
                             ok = opened;
                             loop.quit();
                         });
        loop.exec();
    }
    return ok;
}

// What --filter, --filter-mode and --annotations ask the views to show.
struct ViewOptions {
    std::optional<memscope::RunRange> filter;
    memscope::RangeFilter::Mode mode = memscope::RangeFilter::Mode::AliveIn;
    bool annotations = false;
};

// Sets the range filter of --filter on `state` (whose run is `trace`); false with a message when
// it selects no events.
bool apply_filter(memscope::RunDocument& state, const memscope::Trace& trace,
                  const ViewOptions& options) {
    if (!options.filter) {
        return true;
    }
    const auto filter = memscope::RangeFilter::fromRunRange(trace, *options.filter, options.mode);
    if (filter.empty()) {
        print_error(QCoreApplication::translate("main", "--filter: %1 holds no events of this run")
                        .arg(QString::fromStdString(options.filter->describe())));
        return false;
    }
    state.setFilter(filter, memscope::RunDocument::FilterOrigin::CommandLine);
    return true;
}

// Loads RUN and writes the timeline as FILE; the exit status of the program.
int render_timeline_screenshot(const QString& run_path, const memscope::RunRange& range,
                               const QString& image_path, const std::optional<DetailOption>& detail,
                               const QSize& size, double scale, const ViewOptions& options) {
    std::shared_ptr<const memscope::Trace> trace;
    try {
        memscope::RunSource::Options options;
        options.range = range;
        trace = std::make_shared<const memscope::Trace>(
            memscope::RunSource(QFile::encodeName(run_path).toStdString()).open(options));
    } catch (const std::exception& e) {
        print_error(QCoreApplication::translate("main", "cannot open %1: %2")
                        .arg(run_path, memscope::errorText(e)));
        return 1;
    }
    memscope::TimelineView view;
    view.resize(size);
    memscope::RunDocument state;
    state.setTrace(trace);
    view.setTrace(trace);
    view.setViewState(&state);
    if (!apply_filter(state, *trace, options)) {
        return k_usage_error;
    }
    view.setAnnotationsVisible(options.annotations);
    if (detail) {
        if (detail->percent) {
            view.setDetailPercent(detail->value);
        } else {
            view.setDetail(int64_t(detail->value));
        }
    }
    const QImage image = view.renderImage(size, scale);
    if (!image.save(image_path, "PNG")) {
        print_error(QCoreApplication::translate("main", "cannot write %1").arg(image_path));
        return 1;
    }
    return 0;
}

// Opens RUN in the main window (offscreen, at `size`) and writes VIEW as FILE: "window" is the
// whole window, any other name a tab of it (see MainWindow::viewNames()).
int render_window_screenshot(const QString& run_path, const memscope::RunRange& range, int rank,
                             const QString& view, const QString& image_path,
                             const std::optional<DetailOption>& detail, const QSize& size,
                             double scale, const std::optional<memscope::EventAt>& at,
                             const QString& at_text, const QString& compare_path,
                             const ViewOptions& options) {
    memscope::MainWindow window;
    window.setErrorReporter([](const QString& message) { print_error(message); });
    // "ranks": the timeline tab showing every rank of a run directory, one lane each.
    const bool all_ranks = view == QLatin1String("ranks");
    const QString tab = all_ranks ? QStringLiteral("timeline") : view;
    if (tab != QLatin1String("window") && !window.viewNames(true).contains(tab)) {
        print_error(
            QCoreApplication::translate("main", "--screenshot: no view named %1; views: window, %2")
                .arg(view, QStringLiteral("ranks, ") +
                               window.viewNames(true).join(QStringLiteral(", "))));
        return k_usage_error;
    }
    window.resize(size);
    window.show();
    if (!run_path.isEmpty() && is_run_directory(run_path)) {
        if (!finish_loading(window, window.openRunDirectory(run_path, rank, range))) {
            return 1;
        }
        if (rank >= 0 && window.currentRank() != rank) {
            print_error(QCoreApplication::translate("main", "--rank: %1 has no readable rank %2")
                            .arg(run_path)
                            .arg(rank));
            return k_usage_error;
        }
    } else if (!run_path.isEmpty() && !finish_loading(window, window.openRun(run_path, range))) {
        return 1;
    }
    if (!compare_path.isEmpty() && !finish_loading(window, window.compareWith(compare_path))) {
        return 1;
    }
    memscope::TimelinePage* page = window.timelinePage();
    QElapsedTimer waited;
    waited.start();
    while ((page->isLayoutPending() || window.comparePage()->isLayoutPending()) &&
           waited.elapsed() < 120000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    if (detail) {
        if (detail->percent) {
            page->view()->setDetailPercent(detail->value);
        } else {
            page->view()->setDetail(int64_t(detail->value));
        }
    }
    if (window.currentTrace() &&
        !apply_filter(*window.viewState(), *window.currentTrace(), options)) {
        return k_usage_error;
    }
    window.annotationsAction()->setChecked(options.annotations);
    if (all_ranks) {
        if (window.rankCount() == 0) {
            print_error(QCoreApplication::translate(
                            "main", "--screenshot ranks needs a run directory; %1 is one run")
                            .arg(run_path));
            return k_usage_error;
        }
        page->showAllRanks(true);
        page->rankLanes()->ensureLanes();  // laid out now, shown or not
        waited.restart();
        while (page->rankLanes()->isComputing() && waited.elapsed() < 120000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
    }
    if (tab != QLatin1String("window") && !window.selectView(tab)) {
        print_error(QCoreApplication::translate("main", "--screenshot: no view named %1; views: %2")
                        .arg(view, window.viewNames().join(QStringLiteral(", "))));
        return k_usage_error;
    }
    if (at) {
        memscope::FlameGraphPage* flame = window.flameGraphPage();
        try {
            if (!flame->trace()) {
                throw memscope::InputError("there is no run");
            }
            flame->showAtEvent(at->resolve(*flame->trace()));
        } catch (const memscope::InputError& e) {
            print_error(QStringLiteral("--at %1: %2").arg(at_text, memscope::errorText(e)));
            return k_usage_error;
        }
    }
    // Let pages that compute off the GUI thread finish and repaint.
    waited.restart();
    while ((window.flameGraphPage()->isBuildPending() || window.summaryPage()->isComputing() ||
            window.operatorPage()->isBuilding() || window.modulePage()->isComputing()) &&
           waited.elapsed() < 120000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    waited.restart();
    while (waited.elapsed() < 500) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    QString error;
    if (view == QLatin1String("window")) {
        QImage image(QSize(qRound(size.width() * scale), qRound(size.height() * scale)),
                     QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        window.render(&image);
        if (!image.save(image_path, "PNG")) {
            print_error(QCoreApplication::translate("main", "cannot write %1").arg(image_path));
            return 1;
        }
        return 0;
    }
    const QSize export_size = view == QLatin1String("timeline") || all_ranks ? size : QSize();
    if (!window.exportView(image_path, scale, export_size, &error)) {
        print_error(error);
        return 1;
    }
    return 0;
}

// --quit-when-drawn: quits once the timeline has drawn the opened run on screen (with no run,
// once the window has painted), printing the milliseconds since main() began; the whole
// process's time to the first picture is measured around it (issue 31). A run that cannot be
// opened quits with status 1.
class QuitWhenDrawn : public QObject {
  public:
    QuitWhenDrawn(memscope::MainWindow* window, bool run, const QElapsedTimer& since)
        : QObject(window), m_window(window), m_run(run), m_since(since) {
        QWidget* watched = run ? static_cast<QWidget*>(window->timelinePage()->view()) : window;
        watched->installEventFilter(this);
        if (run) {
            connect(window->session(), &memscope::RunSession::loadFinished, this, [](bool ok) {
                if (!ok) {
                    QCoreApplication::exit(1);
                }
            });
        }
    }

  protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint && !m_done) {
            QTimer::singleShot(0, this, &QuitWhenDrawn::check);  // after the paint
        }
        return false;
    }

  private:
    void check() {
        if (m_done) {
            return;
        }
        if (m_run && (!m_window->currentTrace() ||
                      m_window->timelinePage()->view()->chartImage().isNull())) {
            return;
        }
        m_done = true;
        std::fprintf(stderr, "memscope: drawn after %.1f ms\n",
                     double(m_since.nsecsElapsed()) / 1e6);
        QCoreApplication::quit();
    }

    memscope::MainWindow* m_window;
    bool m_run;
    QElapsedTimer m_since;
    bool m_done = false;
};

}  // namespace

int main(int argc, char** argv) {
    QElapsedTimer since_start;
    since_start.start();
    // The OpenMP wait policy must be in the environment before libgomp starts: see ThreadPolicy.
    memscope::ThreadPolicy::applyWaitPolicy(argv);
    if (!choose_platform(argc, argv)) {
        return 1;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral(MEMSCOPE_NAME));
    QApplication::setApplicationVersion(QStringLiteral(MEMSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral(MEMSCOPE_NAME));
    QApplication::setDesktopFileName(QStringLiteral("memscope"));  // resources/memscope.desktop

    const QString language = requested_language(QApplication::arguments());
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    const bool known_language = language.isEmpty() || locale.language() != QLocale::C;
    if (!language.isEmpty() && known_language) {
        QLocale::setDefault(locale);  // numbers and dates follow the chosen language too
    }
    QTranslator memscope_translator;
    if (known_language && memscope::loadMemscopeTranslation(memscope_translator, locale)) {
        QApplication::installTranslator(&memscope_translator);
    } else if (known_language && !language.isEmpty() && locale.language() != QLocale::English) {
        print_error(QCoreApplication::translate("main", "No %1 translation; showing English.")
                        .arg(QLocale::languageToString(locale.language())));
    }
    QTranslator qt_translator;
    if (known_language && memscope::loadQtTranslation(qt_translator, locale)) {
        QApplication::installTranslator(&qt_translator);
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Memory profiler for Tiny LLaMA training."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption lang_option(
        QStringLiteral("lang"),
        QCoreApplication::translate("main",
                                    "Interface language, e.g. en or de (default: the system's)."),
        QCoreApplication::translate("main", "code"));
    parser.addOption(lang_option);
    const QCommandLineOption quit_after_option(
        QStringLiteral("quit-after-ms"),
        QCoreApplication::translate("main", "Quit after the given number of milliseconds."),
        QCoreApplication::translate("main", "ms"));
    parser.addOption(quit_after_option);
    const QCommandLineOption quit_when_drawn_option(
        QStringLiteral("quit-when-drawn"),
        QCoreApplication::translate("main",
                                    "Quit once the window has drawn the opened run (timing)."));
    parser.addOption(quit_when_drawn_option);
    const QCommandLineOption open_option(
        QStringLiteral("open"),
        QCoreApplication::translate(
            "main", "Open a run file (.memscope) or a PyTorch memory snapshot (.pickle)."),
        QCoreApplication::translate("main", "run"));
    parser.addOption(open_option);
    const QCommandLineOption range_option(
        QStringLiteral("range"),
        QCoreApplication::translate(
            "main",
            "Open only part of the run: event indices A:B (1000000:2000000) or times with a "
            "unit (2.5s:4s, 300ms:, :1.5min)."),
        QCoreApplication::translate("main", "A:B"));
    parser.addOption(range_option);
    const QCommandLineOption screenshot_option(
        QStringLiteral("screenshot"),
        QCoreApplication::translate(
            "main",
            "Render a view of the opened run to a PNG or SVG file and exit (views: timeline, "
            "ranks (every rank of a run directory), window, or a tab such as operators, "
            "summary)."),
        QCoreApplication::translate("main", "view=file"));
    parser.addOption(screenshot_option);
    const QCommandLineOption rank_option(
        QStringLiteral("rank"),
        QCoreApplication::translate(
            "main", "With a multi-rank run directory: the rank to show (default: the first)."),
        QCoreApplication::translate("main", "n"));
    parser.addOption(rank_option);
    const QCommandLineOption detail_option(
        QStringLiteral("detail"),
        QCoreApplication::translate("main",
                                    "Allocations drawn one by one in the timeline: a count, or "
                                    "a share such as 10%."),
        QCoreApplication::translate("main", "n|percent"));
    parser.addOption(detail_option);
    const QCommandLineOption size_option(
        QStringLiteral("size"),
        QCoreApplication::translate("main", "Screenshot size in pixels (default 1600x900)."),
        QCoreApplication::translate("main", "WxH"));
    parser.addOption(size_option);
    const QCommandLineOption scale_option(
        QStringLiteral("scale"),
        QCoreApplication::translate("main", "Pixels per point of a PNG screenshot, 1 to 4."),
        QCoreApplication::translate("main", "factor"));
    parser.addOption(scale_option);
    const QCommandLineOption at_option(
        QStringLiteral("at"),
        QCoreApplication::translate(
            "main",
            "The time a flame graph screenshot shows: a time with a unit (1.25s, 300ms) or an "
            "event index (default: the peak)."),
        QCoreApplication::translate("main", "time|event"));
    parser.addOption(at_option);
    const QCommandLineOption compare_option(
        QStringLiteral("compare"),
        QCoreApplication::translate(
            "main",
            "Compare the opened run with this one (the Compare tab; --screenshot "
            "compare=FILE renders it)."),
        QCoreApplication::translate("main", "run"));
    parser.addOption(compare_option);
    const QCommandLineOption filter_option(
        QStringLiteral("filter"),
        QCoreApplication::translate(
            "main",
            "Filter every view to the allocations alive in a range of the opened run: event "
            "indices A:B, or times with a unit (0.5s:1.2s)."),
        QCoreApplication::translate("main", "range"));
    parser.addOption(filter_option);
    const QCommandLineOption filter_mode_option(
        QStringLiteral("filter-mode"),
        QCoreApplication::translate(
            "main",
            "How --filter selects allocations: alive (alive in the range, the default) "
            "or made (allocated in it)."),
        QCoreApplication::translate("main", "alive|made"));
    parser.addOption(filter_mode_option);
    const QCommandLineOption annotations_option(
        QStringLiteral("annotations"),
        QCoreApplication::translate(
            "main",
            "Show steps, phases, recomputations and imported annotations on the "
            "timeline."));
    parser.addOption(annotations_option);
    parser.process(app);

    if (!known_language) {
        print_error(QCoreApplication::translate("main", "Unknown language: %1")
                        .arg(parser.value(lang_option)));
        return 1;
    }

    if (parser.isSet(quit_after_option)) {
        bool ok = false;
        const int quit_after_ms = parser.value(quit_after_option).toInt(&ok);
        if (!ok || quit_after_ms < 0) {
            print_error(QCoreApplication::translate(
                            "main", "--quit-after-ms needs a whole number of at least 0, not: %1")
                            .arg(parser.value(quit_after_option)));
            return 1;
        }
        QTimer::singleShot(quit_after_ms, &app, &QCoreApplication::quit);
    }

    memscope::RunRange range;
    if (parser.isSet(range_option)) {
        try {
            range = memscope::RunRange::parse(parser.value(range_option).toStdString());
        } catch (const memscope::InputError& e) {
            print_error(QStringLiteral("--range: %1").arg(memscope::errorText(e)));
            return k_usage_error;
        }
    }
    int rank = -1;
    if (parser.isSet(rank_option)) {
        bool ok = false;
        rank = parser.value(rank_option).toInt(&ok);
        if (!ok || rank < 0) {
            print_error(QCoreApplication::translate(
                            "main", "--rank needs a rank number of at least 0, not: %1")
                            .arg(parser.value(rank_option)));
            return k_usage_error;
        }
        if (!parser.isSet(open_option) || !is_run_directory(parser.value(open_option))) {
            print_error(QCoreApplication::translate(
                "main", "--rank needs a multi-rank run directory: add --open DIR"));
            return k_usage_error;
        }
    }
    ViewOptions view_options;
    view_options.annotations = parser.isSet(annotations_option);
    if (parser.isSet(filter_option)) {
        try {
            view_options.filter =
                memscope::RunRange::parse(parser.value(filter_option).toStdString());
        } catch (const memscope::InputError& e) {
            print_error(QStringLiteral("--filter: %1").arg(memscope::errorText(e)));
            return k_usage_error;
        }
    }
    if (parser.isSet(filter_mode_option)) {
        const QString mode = parser.value(filter_mode_option);
        if (mode == QLatin1String("alive")) {
            view_options.mode = memscope::RangeFilter::Mode::AliveIn;
        } else if (mode == QLatin1String("made")) {
            view_options.mode = memscope::RangeFilter::Mode::MadeIn;
        } else {
            print_error(
                QCoreApplication::translate("main", "--filter-mode needs alive or made, not: %1")
                    .arg(mode));
            return k_usage_error;
        }
    }
    std::optional<DetailOption> detail;
    if (parser.isSet(detail_option)) {
        detail = parse_detail(parser.value(detail_option));
        if (!detail) {
            print_error(QCoreApplication::translate(
                            "main", "--detail needs a count (15000) or a percentage (10%), not: %1")
                            .arg(parser.value(detail_option)));
            return k_usage_error;
        }
    }
    QSize size(1600, 900);
    if (parser.isSet(size_option)) {
        const auto parsed = parse_size(parser.value(size_option));
        if (!parsed) {
            print_error(QCoreApplication::translate(
                            "main",
                            "--size needs WIDTHxHEIGHT between 200x150 and 16384x16384, "
                            "not: %1")
                            .arg(parser.value(size_option)));
            return k_usage_error;
        }
        size = *parsed;
    }
    double scale = 1;
    if (parser.isSet(scale_option)) {
        bool ok = false;
        scale = parser.value(scale_option).toDouble(&ok);
        if (!ok || scale < 1 || scale > 4) {
            print_error(
                QCoreApplication::translate("main", "--scale needs a number from 1 to 4, not: %1")
                    .arg(parser.value(scale_option)));
            return k_usage_error;
        }
    }
    std::optional<memscope::EventAt> at;
    if (parser.isSet(at_option)) {
        try {
            at = memscope::EventAt::parse(parser.value(at_option).toStdString());
        } catch (const memscope::InputError& e) {
            print_error(QStringLiteral("--at: %1").arg(memscope::errorText(e)));
            return k_usage_error;
        }
        const QString spec = parser.value(screenshot_option);
        if (!spec.startsWith(QLatin1String("flamegraph="))) {
            print_error(QCoreApplication::translate(
                "main", "--at works with --screenshot flamegraph=FILE only"));
            return k_usage_error;
        }
    }
    if (parser.isSet(compare_option) && !parser.isSet(open_option)) {
        print_error(QCoreApplication::translate("main",
                                                "--compare needs a run to compare with: "
                                                "add --open RUN"));
        return k_usage_error;
    }
    if (parser.isSet(screenshot_option)) {
        const QString spec = parser.value(screenshot_option);
        const qsizetype eq = spec.indexOf(QLatin1Char('='));
        const QString view = eq < 0 ? QString() : spec.left(eq);
        const QString file = eq < 0 ? QString() : spec.mid(eq + 1);
        if (view.isEmpty() || file.isEmpty()) {
            print_error(QCoreApplication::translate(
                            "main",
                            "--screenshot needs VIEW=FILE with VIEW timeline, window or a tab "
                            "name; not: %1")
                            .arg(spec));
            return k_usage_error;
        }
        if ((view == QLatin1String("timeline") || view == QLatin1String("ranks")) &&
            !parser.isSet(open_option)) {
            print_error(QCoreApplication::translate(
                "main", "--screenshot needs a run to draw: add --open RUN"));
            return k_usage_error;
        }
        if (view == QLatin1String("timeline") && !file.endsWith(QLatin1String(".svg")) &&
            !is_run_directory(parser.value(open_option))) {
            return render_timeline_screenshot(parser.value(open_option), range, file, detail, size,
                                              scale, view_options);
        }
        return render_window_screenshot(parser.value(open_option), range, rank, view, file, detail,
                                        size, scale, at, parser.value(at_option),
                                        parser.value(compare_option), view_options);
    }

    memscope::MainWindow window;
    window.show();
    // Runs that died while recording left journals: offer them, never on a headless platform.
    const QString platform = QGuiApplication::platformName();
    if (platform != QLatin1String("offscreen") && platform != QLatin1String("minimal")) {
        QTimer::singleShot(0, &window, &memscope::MainWindow::offerRecovery);
    }
    window.annotationsAction()->setChecked(view_options.annotations);
    if (parser.isSet(quit_when_drawn_option)) {
        new QuitWhenDrawn(&window, parser.isSet(open_option), since_start);
    }
    const bool opened = parser.isSet(open_option) &&
                        (rank >= 0 ? window.openRunDirectory(parser.value(open_option), rank, range)
                                   : window.openRun(parser.value(open_option), range));
    // What --compare, --filter and --detail ask of the run, once it is open (a big one opens on
    // a worker while the window shows).
    const QString compare_path = parser.value(compare_option);
    auto when_open = [&window, compare_path, view_options, detail] {
        if (!compare_path.isEmpty()) {
            window.compareWith(compare_path);
        }
        if (window.currentTrace()) {
            apply_filter(*window.viewState(), *window.currentTrace(), view_options);
        }
        if (!detail) {
            return;
        }
        memscope::TimelinePage* page = window.timelinePage();
        auto apply_detail = [page, d = *detail] {
            if (d.percent) {
                page->view()->setDetailPercent(d.value);
            } else {
                page->view()->setDetail(int64_t(d.value));
            }
        };
        if (page->isLayoutPending()) {  // large runs are laid out on a worker thread
            QObject::connect(page, &memscope::TimelinePage::layoutReady, page, apply_detail,
                             Qt::SingleShotConnection);
        } else {
            apply_detail();
        }
    };
    if (opened && window.session()->isLoading()) {
        QObject::connect(
            window.session(), &memscope::RunSession::loadFinished, &window,
            [when_open](bool ok) {
                if (ok) {
                    when_open();
                }
            },
            Qt::SingleShotConnection);
    } else if (opened) {
        when_open();
    }
    return QApplication::exec();
}
