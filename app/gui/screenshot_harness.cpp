// memscope --screenshot: a view of a run rendered offscreen to a file (see the header).

#include "screenshot_harness.h"

#include "error_text.h"
#include "model/input_error.h"
#include "pages/flame_graph_page.h"
#include "pages/growth_page.h"
#include "pages/module_page.h"
#include "pages/operator_page.h"
#include "pages/summary_page.h"
#include "run_document.h"
#include "run_session.h"
#include "shell/main_window.h"
#include "source/run_source.h"
#include "studies/compare_page.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QImage>
#include <QRegularExpression>

#include <cstdio>
#include <exception>
#include <memory>

namespace memscope {

void ScreenshotHarness::printError(const QString& message) {
    std::fprintf(stderr, "memscope: %s\n", qPrintable(message));
}

std::optional<ScreenshotHarness::Detail> ScreenshotHarness::parseDetail(const QString& text) {
    QString t = text.trimmed();
    Detail d;
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

std::optional<QSize> ScreenshotHarness::parseSize(const QString& text) {
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

bool ScreenshotHarness::isRunDirectory(const QString& path) {
    try {
        return RunSource(QFile::encodeName(path).toStdString()).isMultiRank();
    } catch (const std::exception&) {
        return false;  // opening it says what is wrong
    }
}

bool ScreenshotHarness::finishLoading(MainWindow& window, bool started) {
    if (!started) {
        return false;
    }
    bool ok = true;
    if (window.session()->isLoading()) {
        QEventLoop loop;
        QObject::connect(window.session(), &RunSession::loadFinished, &loop, [&](bool opened) {
            ok = opened;
            loop.quit();
        });
        loop.exec();
    }
    return ok;
}

bool ScreenshotHarness::applyFilter(RunDocument& state, const Trace& trace,
                                    const ViewOptions& options) {
    if (!options.filter) {
        return true;
    }
    const auto filter = RangeFilter::fromRunRange(trace, *options.filter, options.mode);
    if (filter.empty()) {
        printError(QCoreApplication::translate("main", "--filter: %1 holds no events of this run")
                       .arg(QString::fromStdString(options.filter->describe())));
        return false;
    }
    state.setFilter(filter, RunDocument::FilterOrigin::CommandLine);
    return true;
}

int ScreenshotHarness::render(const Request& request) {
    if (request.view == QLatin1String("timeline") &&
        !request.file.endsWith(QLatin1String(".svg")) && !isRunDirectory(request.run_path)) {
        return renderTimeline(request);
    }
    return renderWindow(request);
}

int ScreenshotHarness::renderTimeline(const Request& request) {
    const QString& run_path = request.run_path;
    const RunRange& range = request.range;
    const QString& image_path = request.file;
    const std::optional<Detail>& detail = request.detail;
    const QSize& size = request.size;
    const double scale = request.scale;
    const ViewOptions& view_options = request.options;
    std::shared_ptr<const Trace> trace;
    try {
        RunSource::Options options;
        options.range = range;
        trace = std::make_shared<const Trace>(
            RunSource(QFile::encodeName(run_path).toStdString()).open(options));
    } catch (const std::exception& e) {
        printError(
            QCoreApplication::translate("main", "cannot open %1: %2").arg(run_path, errorText(e)));
        return 1;
    }
    TimelineView view;
    view.resize(size);
    RunDocument state;
    state.setTrace(trace);
    view.setTrace(trace);
    view.setViewState(&state);
    if (!applyFilter(state, *trace, view_options)) {
        return kUsageError;
    }
    view.setAnnotationsVisible(view_options.annotations);
    if (detail) {
        if (detail->percent) {
            view.setDetailPercent(detail->value);
        } else {
            view.setDetail(int64_t(detail->value));
        }
    }
    const QImage image = view.renderImage(size, scale);
    if (!image.save(image_path, "PNG")) {
        printError(QCoreApplication::translate("main", "cannot write %1").arg(image_path));
        return 1;
    }
    return 0;
}

int ScreenshotHarness::renderWindow(const Request& request) {
    const QString& run_path = request.run_path;
    const RunRange& range = request.range;
    const int rank = request.rank;
    const QString& view = request.view;
    const QString& image_path = request.file;
    const std::optional<Detail>& detail = request.detail;
    const QSize& size = request.size;
    const double scale = request.scale;
    const std::optional<EventAt>& at = request.at;
    const QString& at_text = request.at_text;
    const QString& compare_path = request.compare_path;
    const ViewOptions& options = request.options;
    MainWindow window;
    window.setErrorReporter([](const QString& message) { printError(message); });
    // "ranks": the timeline tab showing every rank of a run directory, one lane each.
    const bool all_ranks = view == QLatin1String("ranks");
    // "compare-overlay": the compare tab with both runs on one axis.
    const bool overlay = view == QLatin1String("compare-overlay");
    const QString tab = all_ranks ? QStringLiteral("timeline")
                        : overlay ? QStringLiteral("compare")
                                  : view;
    if (tab != QLatin1String("window") && !window.viewNames(true).contains(tab)) {
        printError(
            QCoreApplication::translate("main", "--screenshot: no view named %1; views: window, %2")
                .arg(view, QStringLiteral("ranks, compare-overlay, ") +
                               window.viewNames(true).join(QStringLiteral(", "))));
        return kUsageError;
    }
    window.resize(size);
    window.show();
    if (!run_path.isEmpty() && isRunDirectory(run_path)) {
        if (!finishLoading(window, window.openRunDirectory(run_path, rank, range))) {
            return 1;
        }
        if (rank >= 0 && window.currentRank() != rank) {
            printError(QCoreApplication::translate("main", "--rank: %1 has no readable rank %2")
                           .arg(run_path)
                           .arg(rank));
            return kUsageError;
        }
    } else if (!run_path.isEmpty() && !finishLoading(window, window.openRun(run_path, range))) {
        return 1;
    }
    if (!compare_path.isEmpty() && !finishLoading(window, window.compareWith(compare_path))) {
        return 1;
    }
    TimelinePage* page = window.timelinePage();
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
        !applyFilter(*window.viewState(), *window.currentTrace(), options)) {
        return kUsageError;
    }
    window.annotationsAction()->setChecked(options.annotations);
    window.comparePage()->overlayCheckBox()->setChecked(overlay);
    if (all_ranks) {
        if (window.rankCount() == 0) {
            printError(QCoreApplication::translate(
                           "main", "--screenshot ranks needs a run directory; %1 is one run")
                           .arg(run_path));
            return kUsageError;
        }
        page->showAllRanks(true);
        page->rankLanes()->ensureLanes();  // laid out now, shown or not
        waited.restart();
        while (page->rankLanes()->isComputing() && waited.elapsed() < 120000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
    }
    if (tab != QLatin1String("window") && !window.selectView(tab)) {
        printError(QCoreApplication::translate("main", "--screenshot: no view named %1; views: %2")
                       .arg(view, window.viewNames().join(QStringLiteral(", "))));
        return kUsageError;
    }
    if (at) {
        FlameGraphPage* flame = window.flameGraphPage();
        try {
            if (!flame->trace()) {
                throw InputError("there is no run");
            }
            flame->showAtEvent(at->resolve(*flame->trace()));
        } catch (const InputError& e) {
            printError(QStringLiteral("--at %1: %2").arg(at_text, errorText(e)));
            return kUsageError;
        }
    }
    // Let pages that compute off the GUI thread finish and repaint.
    waited.restart();
    while ((window.flameGraphPage()->isBuildPending() || window.summaryPage()->isComputing() ||
            window.growthPage()->isComputing() || window.operatorPage()->isBuilding() ||
            window.modulePage()->isComputing()) &&
           waited.elapsed() < 120000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    waited.restart();
    while (waited.elapsed() < 500) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    if (view == QLatin1String("window")) {
        QImage image(QSize(qRound(size.width() * scale), qRound(size.height() * scale)),
                     QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        window.render(&image);
        if (!image.save(image_path, "PNG")) {
            printError(QCoreApplication::translate("main", "cannot write %1").arg(image_path));
            return 1;
        }
        return 0;
    }
    const QSize export_size = view == QLatin1String("timeline") || all_ranks ? size : QSize();
    if (const Outcome exported = window.exportView(image_path, scale, export_size); !exported) {
        printError(exported.message());
        return 1;
    }
    return 0;
}

}  // namespace memscope
