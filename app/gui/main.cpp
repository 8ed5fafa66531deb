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
// The rendering is ScreenshotHarness's (screenshot_harness.h); this file parses the command line.

#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QLocale>
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
#include "error_text.h"
#include "memscope_version.h"
#include "model/input_error.h"
#include "run/run_range.h"
#include "run_document.h"
#include "run_session.h"
#include "screenshot_harness.h"
#include "shell/main_window.h"
#include "shell/translation_loader.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "train/thread_policy.h"

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
    memscope::ScreenshotHarness::printError(message);
}

constexpr int k_usage_error = memscope::ScreenshotHarness::kUsageError;

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
            "compare=FILE renders it, compare-overlay=FILE with both runs on one axis)."),
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
        if (!parser.isSet(open_option) ||
            !memscope::ScreenshotHarness::isRunDirectory(parser.value(open_option))) {
            print_error(QCoreApplication::translate(
                "main", "--rank needs a multi-rank run directory: add --open DIR"));
            return k_usage_error;
        }
    }
    memscope::ScreenshotHarness::ViewOptions view_options;
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
    std::optional<memscope::ScreenshotHarness::Detail> detail;
    if (parser.isSet(detail_option)) {
        detail = memscope::ScreenshotHarness::parseDetail(parser.value(detail_option));
        if (!detail) {
            print_error(QCoreApplication::translate(
                            "main", "--detail needs a count (15000) or a percentage (10%), not: %1")
                            .arg(parser.value(detail_option)));
            return k_usage_error;
        }
    }
    QSize size(1600, 900);
    if (parser.isSet(size_option)) {
        const auto parsed = memscope::ScreenshotHarness::parseSize(parser.value(size_option));
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
        memscope::ScreenshotHarness::Request request;
        request.run_path = parser.value(open_option);
        request.range = range;
        request.rank = rank;
        request.view = view;
        request.file = file;
        request.detail = detail;
        request.size = size;
        request.scale = scale;
        request.at = at;
        request.at_text = parser.value(at_option);
        request.compare_path = parser.value(compare_option);
        request.options = view_options;
        return memscope::ScreenshotHarness::render(request);
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
            memscope::ScreenshotHarness::applyFilter(*window.viewState(), *window.currentTrace(),
                                                     view_options);
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
