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
// The options are GuiOptions' table (gui_options.h), the rendering ScreenshotHarness's
// (screenshot_harness.h); this file sets up the application and the window.

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
#include "gui_options.h"
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
#include "trace/trace.h"
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

// The interface language: the locale's numbers and dates, Memscope's catalogue and Qt's own
// (both translators outlive the application). False when the language is not one Qt knows.
bool install_translations(const QString& language, QTranslator& memscope_translator,
                          QTranslator& qt_translator) {
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    const bool known_language = language.isEmpty() || locale.language() != QLocale::C;
    if (!known_language) {
        return false;
    }
    if (!language.isEmpty()) {
        QLocale::setDefault(locale);  // numbers and dates follow the chosen language too
    }
    if (memscope::loadMemscopeTranslation(memscope_translator, locale)) {
        QApplication::installTranslator(&memscope_translator);
    } else if (!language.isEmpty() && locale.language() != QLocale::English) {
        print_error(QCoreApplication::translate("main", "No %1 translation; showing English.")
                        .arg(QLocale::languageToString(locale.language())));
    }
    if (memscope::loadQtTranslation(qt_translator, locale)) {
        QApplication::installTranslator(&qt_translator);
    }
    return true;
}

// --quit-when-drawn: quits once the timeline has drawn the opened run on screen (with no run,
// once the window has painted), printing the milliseconds since main() began; the whole
// process's time to the first picture is measured around it (issue 31). A big file's preview
// drawn first prints its own line ("first picture after"), and the wait goes on for the whole
// (unless the preview is kept: the whole does not fit in memory). A run that cannot be opened
// quits with status 1.
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
        const auto trace = m_window->currentTrace();
        if (m_run && (!trace || m_window->timelinePage()->view()->chartImage().isNull())) {
            return;
        }
        const double ms = double(m_since.nsecsElapsed()) / 1e6;
        const bool preview = m_run && trace->summary.contains("preview");
        if (preview && m_window->session()->isLoading()) {
            // A big file's preview (issue 52): the first picture; the whole run follows.
            if (!m_previewed) {
                m_previewed = true;
                std::fprintf(stderr, "memscope: first picture after %.1f ms (a preview)\n", ms);
            }
            return;
        }
        m_done = true;
        // A preview kept (the whole file does not fit in memory) is the run drawn.
        std::fprintf(stderr, "memscope: drawn after %.1f ms%s\n", ms,
                     preview ? " (a preview kept: the whole file does not fit in memory)" : "");
        QCoreApplication::quit();
    }

    memscope::MainWindow* m_window;
    bool m_run;
    QElapsedTimer m_since;
    bool m_done = false;
    bool m_previewed = false;
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
    QTranslator memscope_translator;
    QTranslator qt_translator;
    const bool known_language = install_translations(language, memscope_translator, qt_translator);

    QCommandLineParser parser;
    memscope::GuiOptions::declare(parser);
    parser.process(app);
    if (!known_language) {
        print_error(QCoreApplication::translate("main", "Unknown language: %1").arg(language));
        return 1;
    }
    memscope::GuiOptions options;
    if (const auto refused = memscope::GuiOptions::read(parser, options); refused.status != 0) {
        print_error(refused.message);
        return refused.status;
    }
    if (options.quit_after_ms >= 0) {
        QTimer::singleShot(options.quit_after_ms, &app, &QCoreApplication::quit);
    }
    if (!options.screenshot_view.isEmpty()) {
        return memscope::ScreenshotHarness::render(options.request());
    }

    memscope::MainWindow window;
    window.show();
    // Runs that died while recording left journals: offer them, never on a headless platform.
    const QString platform = QGuiApplication::platformName();
    if (platform != QLatin1String("offscreen") && platform != QLatin1String("minimal")) {
        QTimer::singleShot(0, &window, &memscope::MainWindow::offerRecovery);
    }
    window.annotationsAction()->setChecked(options.view_options.annotations);
    if (options.quit_when_drawn) {
        new QuitWhenDrawn(&window, !options.open_path.isEmpty(), since_start);
    }
    const bool opened =
        !options.open_path.isEmpty() &&
        (options.rank >= 0 ? window.openRunDirectory(options.open_path, options.rank, options.range)
                           : window.openRun(options.open_path, options.range));
    // What --compare, --filter and --detail ask of the run, once it is open (a big one opens on
    // a worker while the window shows).
    auto when_open = [&window, compare_path = options.compare_path,
                      view_options = options.view_options, detail = options.detail] {
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
