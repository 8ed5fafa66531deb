#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QTranslator>
#include <QtTest>

#include "interchange/snapshot_exporter.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "memscope_version.h"
#include "open_and_wait.h"
#include "pages/summary_page.h"
#include "shell/main_window.h"
#include "shell/run_load_progress.h"
#include "shell/run_panel.h"
#include "shell/translation_loader.h"
#include "timeline/timeline_page.h"

namespace {

// N events of alloc/free pairs at reused addresses, saved as a version 1 file (uncompressed, so
// a few hundred thousand events pass the 4 MiB at which the window loads on a worker).
void saveBigRun(const QString& path, size_t n) {
    memscope::Trace t;
    int64_t live = 0;
    for (size_t i = 0; i < n; ++i) {
        memscope::Event e;
        e.time_ns = int64_t(i) * 1000;
        e.addr = 0x10000 + (i / 2 % 64) * 0x1000;
        e.kind = i % 2 == 0 ? memscope::EventKind::Alloc : memscope::EventKind::Free;
        e.size = i % 2 == 0 ? 4096 : -4096;
        live += e.size;
        e.allocated = live;
        t.events.append(e);
    }
    memscope::RunFile::SaveOptions o;
    o.format_version = 1;
    memscope::RunFile::save(t, path.toStdString(), o);
}

// The same run as a memory_viz pickle (each allocation with its own segment, as the exporter
// writes a CPU run): about 100 bytes per event.
void saveBigPickle(const QString& path, size_t n) {
    memscope::Trace t;
    int64_t live = 0;
    for (size_t i = 0; i < n; ++i) {
        memscope::Event e;
        e.time_ns = int64_t(i) * 1000;
        e.addr = 0x10000 + (i / 2 % 64) * 0x1000;
        e.kind = i % 2 == 0 ? memscope::EventKind::Alloc : memscope::EventKind::Free;
        e.size = i % 2 == 0 ? 4096 : -4096;
        live += e.size;
        e.allocated = live;
        t.events.append(e);
    }
    t.finalize();
    memscope::SnapshotExporter::write(t, path.toStdString());
}

// A rank's recording: `n` 4 KiB allocations, all live at the end, and two steps whose peaks are
// those of the run.
memscope::Trace rankTrace(int n) {
    memscope::Trace t;
    int64_t live = 0;
    for (int i = 0; i < n; ++i) {
        memscope::Event e;
        e.time_ns = int64_t(i) * 1000;
        e.addr = 0x10000 + uint64_t(i) * 0x1000;
        e.kind = memscope::EventKind::Alloc;
        e.size = 4096;
        live += e.size;
        e.allocated = live;
        t.events.append(e);
    }
    for (int s = 1; s <= 2; ++s) {
        memscope::StepMetrics m;
        m.step = s;
        m.total_s = 0.5;
        m.peak_allocated_bytes = live / (3 - s);
        t.steps.push_back(m);
    }
    t.finalize();
    return t;
}

QMenu* find_menu(const memscope::MainWindow& window, const QString& object_name) {
    return window.menuBar()->findChild<QMenu*>(object_name);
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        // Keeps the window geometry the test saves away from the user's real settings.
        QStandardPaths::setTestModeEnabled(true);
    }

    void a_big_run_opens_with_progress_and_a_range() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.memscope"));
        saveBigRun(path, 200000);
        QVERIFY(QFileInfo(path).size() >= 4 << 20);
        memscope::MainWindow window;
        auto* progress = window.findChild<memscope::RunLoadProgress*>();
        QVERIFY(progress);
        QVERIFY(window.findChild<QAction*>(QStringLiteral("action_open_range")));
        int seen_visible = 0;
        QTimer poll;
        connect(&poll, &QTimer::timeout, &window,
                [&] { seen_visible += progress->isVisibleTo(&window) ? 1 : 0; });
        poll.start(0);
        QVERIFY(memscope_test::openAndWait(window, path, memscope::RunRange::events(1000, 3000)));
        poll.stop();
        QVERIFY(!progress->isVisibleTo(&window));  // hidden again once loaded
        QVERIFY(seen_visible > 0);
        QCOMPARE(progress->value(), 1000);
        QCOMPARE(window.currentRunPath(), path);
        QVERIFY(window.logView()->toPlainText().contains(QLatin1String("2,000 events")) ||
                window.logView()->toPlainText().contains(QLatin1String("2000 events")));
    }

    void cancel_stops_opening_a_big_run() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.memscope"));
        saveBigRun(path, 1000000);
        memscope::MainWindow window;
        QString reported;
        window.setErrorReporter([&](const QString& message) { reported = message; });
        auto* cancel = window.findChild<QPushButton*>(QStringLiteral("load_cancel"));
        QVERIFY(cancel);
        // Clicked as soon as the bar shows: the worker stops at its next piece of a column.
        QTimer click;
        connect(&click, &QTimer::timeout, &window, [&] {
            if (cancel->isVisibleTo(&window) && cancel->isEnabled())
                cancel->click();
        });
        click.start(0);
        QVERIFY(!memscope_test::openAndWait(window, path));
        click.stop();
        QVERIFY2(reported.isEmpty(), qPrintable(reported));  // cancelling is not an error
        QVERIFY(window.currentRunPath().isEmpty());
        QVERIFY(window.logView()->toPlainText().contains(QLatin1String("cancelled")));
        // The next open of the same file is not cancelled.
        QVERIFY(memscope_test::openAndWait(window, path));
    }

    // A big memory_viz pickle loads like a big run: on a worker, with the bar and Cancel, and
    // with a range.
    void a_big_pickle_opens_with_progress_and_a_range() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.pickle"));
        saveBigPickle(path, 200000);
        QVERIFY(QFileInfo(path).size() >= 4 << 20);
        memscope::MainWindow window;
        auto* progress = window.findChild<memscope::RunLoadProgress*>();
        auto* cancel = window.findChild<QPushButton*>(QStringLiteral("load_cancel"));
        QVERIFY(progress && cancel);
        int seen_visible = 0;
        int seen_cancellable = 0;
        int seen_partly = 0;
        QTimer poll;
        connect(&poll, &QTimer::timeout, &window, [&] {
            if (progress->isVisibleTo(&window)) {
                ++seen_visible;
                seen_cancellable += cancel->isVisibleTo(&window) && cancel->isEnabled() ? 1 : 0;
                seen_partly += progress->value() > 0 && progress->value() < 1000 ? 1 : 0;
            }
        });
        poll.start(0);
        QVERIFY(memscope_test::openAndWait(window, path, memscope::RunRange::events(1000, 3000)));
        poll.stop();
        QVERIFY(!progress->isVisibleTo(&window));
        QVERIFY(seen_visible > 0);
        QVERIFY(seen_cancellable > 0);
        QVERIFY(seen_partly > 0);  // it moved while the file was read
        QCOMPARE(progress->value(), 1000);
        QCOMPARE(window.currentRunPath(), path);
        QVERIFY(window.logView()->toPlainText().contains(QLatin1String("2,000 events")) ||
                window.logView()->toPlainText().contains(QLatin1String("2000 events")));
    }

    void cancel_stops_opening_a_big_pickle() {
        QTemporaryDir dir;
        const QString small = dir.filePath(QStringLiteral("small.memscope"));
        saveBigRun(small, 1000);
        const QString path = dir.filePath(QStringLiteral("big.pickle"));
        saveBigPickle(path, 400000);
        memscope::MainWindow window;
        QString reported;
        window.setErrorReporter([&](const QString& message) { reported = message; });
        QVERIFY(memscope_test::openAndWait(window, small));
        auto* cancel = window.findChild<QPushButton*>(QStringLiteral("load_cancel"));
        QVERIFY(cancel);
        QTimer click;
        connect(&click, &QTimer::timeout, &window, [&] {
            if (cancel->isVisibleTo(&window) && cancel->isEnabled())
                cancel->click();
        });
        click.start(0);
        QVERIFY(!memscope_test::openAndWait(window, path));
        click.stop();
        QVERIFY2(reported.isEmpty(), qPrintable(reported));
        QCOMPARE(window.currentRunPath(), small);  // the run shown before stays
        QVERIFY(window.logView()->toPlainText().contains(
            QStringLiteral("Opening %1 cancelled.").arg(QDir::toNativeSeparators(path))));
        QVERIFY(memscope_test::openAndWait(window, path));
        QCOMPARE(window.currentRunPath(), path);
    }

    void title_names_the_application() {
        memscope::MainWindow window;
        QVERIFY(window.windowTitle().contains(QLatin1String("Memscope")));
        QVERIFY(!window.windowIcon().isNull());
    }

    void menus_hold_quit_and_about() {
        memscope::MainWindow window;
        QMenu* file_menu = find_menu(window, QStringLiteral("menu_file"));
        QVERIFY(file_menu);
        QCOMPARE(file_menu->title(), QStringLiteral("&File"));

        auto* quit = window.findChild<QAction*>(QStringLiteral("action_quit"));
        QVERIFY(quit);
        QCOMPARE(quit->shortcut(), QKeySequence(QStringLiteral("Ctrl+Q")));
        QVERIFY(file_menu->actions().contains(quit));

        auto* about = window.findChild<QAction*>(QStringLiteral("action_about"));
        QVERIFY(about);
        QCOMPARE(about->text(), QStringLiteral("&About Memscope"));
        QMenu* help_menu = find_menu(window, QStringLiteral("menu_help"));
        QVERIFY(help_menu);
        QVERIFY(help_menu->actions().contains(about));
    }

    void about_text_names_all_versions() {
        const QString text = memscope::MainWindow::aboutText();
        QVERIFY(text.contains(QLatin1String(MEMSCOPE_VERSION)));
        QVERIFY(text.contains(QLatin1String(qVersion())));
        QVERIFY(text.contains(QStringLiteral("LibTorch")));
    }

    // Only the document and the views that draw hold the run (issue 30): once another run is
    // shown, every page lets go of the one before, the pages shown with it and those hidden.
    void every_page_lets_go_of_the_run_before() {
        memscope::MainWindow window;
        window.findChild<memscope::SummaryPage*>()->setMeasurePeaks(false);
        auto first = std::make_shared<const memscope::Trace>(rankTrace(40));
        const std::weak_ptr<const memscope::Trace> first_held = first;
        window.showTrace(std::move(first), QString());
        QTabWidget* tabs = window.tabs();
        for (int i = 0; i < tabs->count(); ++i) {  // every page fills itself with the run
            if (tabs->isTabVisible(i)) {
                tabs->setCurrentIndex(i);
                QCoreApplication::processEvents();
            }
        }
        auto* summary = window.findChild<memscope::SummaryPage*>();
        QTRY_VERIFY_WITH_TIMEOUT(!summary->isComputing(), 20000);
        QVERIFY(!first_held.expired());  // the document's
        tabs->setCurrentIndex(0);
        window.showTrace(std::make_shared<const memscope::Trace>(rankTrace(20)), QString());
        QTRY_VERIFY_WITH_TIMEOUT(first_held.expired(), 20000);
    }

    // The Run dock sets up a new run; it does not take the open run's settings by itself, and
    // offers them where the run's configuration is known (issue 42).
    void run_dock_offers_the_open_runs_settings() {
        memscope::MainWindow window;
        auto* panel = window.findChild<memscope::RunPanel*>();
        QVERIFY(panel);
        auto* same = panel->sameAsOpenButton();
        auto* intro = panel->findChild<QLabel*>(QStringLiteral("run_intro"));
        QVERIFY(intro && intro->text().startsWith(QStringLiteral("Sets up a new run")));
        QVERIFY(!same->isEnabled());
        auto* batch = panel->findChild<QSpinBox*>(QStringLiteral("batch_size"));
        QVERIFY(batch);
        const int before = batch->value();

        memscope::TrainOptions recorded = memscope::TrainOptions::fromPreset("workshop-default");
        recorded.batch_size = before + 3;
        auto run = rankTrace(10);
        run.meta.config = recorded.toJson();
        window.showTrace(std::make_shared<const memscope::Trace>(std::move(run)), QString());
        QTRY_VERIFY(same->isEnabled());
        QCOMPARE(batch->value(), before);  // opening a run leaves the form alone
        same->click();
        QCOMPARE(batch->value(), before + 3);

        auto program = rankTrace(10);
        program.meta.config = {{"program",
                                {{"script", "/work/train.py"},
                                 {"argv", {"--batch-size", "4"}},
                                 {"cwd", "/work"},
                                 {"python", "/venv/bin/python"}}}};
        window.showTrace(std::make_shared<const memscope::Trace>(std::move(program)), QString());
        QTRY_VERIFY(same->isEnabled());
        same->click();
        QVERIFY(panel->pythonSource());
        auto* args = panel->findChild<QLineEdit*>(QStringLiteral("python_arguments"));
        QVERIFY(args);
        QCOMPARE(args->text(), QStringLiteral("--batch-size 4"));

        window.showTrace(std::make_shared<const memscope::Trace>(rankTrace(10)), QString());
        QTRY_VERIFY(!same->isEnabled());  // a run whose configuration is not known
    }

    void placeholder_says_no_run_is_open() {
        memscope::MainWindow window;
        auto* title = window.findChild<QLabel*>(QStringLiteral("placeholder_title"));
        QVERIFY(title);
        QCOMPARE(title->text(), QStringLiteral("No run is open."));
    }

    void catalogues_are_embedded() {
        QVERIFY(QFile::exists(memscope::translationResourceDir() + "/memscope_en.qm"));
        QVERIFY(QFile::exists(memscope::translationResourceDir() + "/memscope_de.qm"));
    }

    void german_translation_loads_and_applies() {
        QTranslator translator;
        QVERIFY(memscope::loadMemscopeTranslation(translator, QLocale(QLocale::German)));
        QCOMPARE(translator.translate("memscope::MainWindowActions", "&File"),
                 QStringLiteral("&Datei"));
        QCOMPARE(translator.translate("main", "Unknown language: %1"),
                 QStringLiteral("Unbekannte Sprache: %1"));

        // A regional variant falls back to the language's catalogue.
        QTranslator austrian;
        QVERIFY(memscope::loadMemscopeTranslation(austrian, QLocale(QStringLiteral("de_AT"))));

        // An open window follows a language change (delivered as a posted event).
        memscope::MainWindow window;
        QVERIFY(QCoreApplication::installTranslator(&translator));
        QMenu* file_menu = find_menu(window, QStringLiteral("menu_file"));
        QVERIFY(file_menu);
        QTRY_COMPARE(file_menu->title(), QStringLiteral("&Datei"));
        auto* about = window.findChild<QAction*>(QStringLiteral("action_about"));
        QCOMPARE(about->text(), QStringLiteral("&Über Memscope"));
        QVERIFY(QCoreApplication::removeTranslator(&translator));
        QTRY_COMPARE(file_menu->title(), QStringLiteral("&File"));
    }

    void a_run_directory_opens_every_rank_with_a_selector() {
        QTemporaryDir dir;
        memscope::RunDirectory manifest;
        manifest.world_size = 3;
        manifest.parallel = "zero3";
        manifest.global_batch_size = 6;
        for (int r = 0; r < 3; ++r) {
            manifest.rank_files.push_back(memscope::RunDirectory::rankFileName(r));
        }
        manifest.save(dir.path().toStdString());
        // Rank 2 was killed before it saved: no file.
        memscope::RunFile::save(rankTrace(10), manifest.rankPath(dir.path().toStdString(), 0));
        memscope::RunFile::save(rankTrace(30), manifest.rankPath(dir.path().toStdString(), 1));

        memscope::MainWindow window;
        window.setErrorReporter([](const QString& message) { QFAIL(qPrintable(message)); });
        QVERIFY(memscope_test::openAndWait(window, dir.path()));
        QCOMPARE(window.rankCount(), 3);
        QCOMPARE(window.currentRank(), 0);
        QCOMPARE(window.currentTrace()->events.count(), size_t(10));
        QComboBox* selector = window.timelinePage()->rankCombo();
        QVERIFY(selector->isVisibleTo(window.timelinePage()));
        QCOMPARE(selector->count(), 3);
        QVERIFY(selector->itemText(2).contains(QStringLiteral("no recording")));
        QVERIFY(window.logView()->toPlainText().contains(QStringLiteral("rank 2")));

        // The summary lists the ranks side by side, rank 1's peak 3x rank 0's.
        QTableWidget* ranks = window.summaryPage()->rankTable();
        QCOMPARE(ranks->rowCount(), 3);
        QCOMPARE(memscope::SummaryPage::rankRowOf(1, *window.currentTrace()).peak_bytes,
                 qint64(10 * 4096));

        // Choosing rank 1 in the selector shows it in every view.
        selector->activated(1);
        QCOMPARE(window.currentRank(), 1);
        QCOMPARE(window.currentTrace()->events.count(), size_t(30));
        QVERIFY(!window.showRank(2));  // no recording
        QCOMPARE(window.currentRank(), 1);

        // Ranks compare with each other.
        QVERIFY(window.compareWithRank(0));
        QVERIFY(window.tabs()->isTabVisible(window.tabs()->currentIndex()));
        QVERIFY(!window.compareWithRank(1));  // itself

        // Another strategy's run directory compares by the rank of the same number.
        QDir(dir.path()).mkdir(QStringLiteral("ddp-run"));
        const std::string other_dir = dir.filePath(QStringLiteral("ddp-run")).toStdString();
        memscope::RunDirectory other = manifest;
        other.world_size = 2;
        other.parallel = "ddp";
        other.rank_files.resize(2);
        other.save(other_dir);
        memscope::RunFile::save(rankTrace(7), other.rankPath(other_dir, 0));
        memscope::RunFile::save(rankTrace(9), other.rankPath(other_dir, 1));
        QVERIFY(memscope_test::compareAndWait(window, dir.filePath(QStringLiteral("ddp-run"))));
        QVERIFY2(window.logView()->toPlainText().contains(QStringLiteral("ddp-run rank 1")),
                 qPrintable(window.logView()->toPlainText()));
        QVERIFY(memscope_test::compareAndWait(
            window, dir.filePath(QStringLiteral("ddp-run/manifest.json"))));

        // Opening a single run afterwards hides the selector.
        const QString single = dir.filePath(QStringLiteral("single.memscope"));
        memscope::RunFile::save(rankTrace(5), single.toStdString());
        QVERIFY(memscope_test::openAndWait(window, single));
        QCOMPARE(window.rankCount(), 0);
        QVERIFY(!selector->isVisibleTo(window.timelinePage()));
    }

    void a_broken_run_directory_is_named() {
        QTemporaryDir dir;
        QFile manifest(dir.filePath(QStringLiteral("manifest.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\"format\": \"memscope-ranks\", \"version\": 1, \"world_size\": \"two\"}");
        manifest.close();
        memscope::MainWindow window;
        QString reported;
        window.setErrorReporter([&](const QString& message) { reported = message; });
        QVERIFY(!memscope_test::openAndWait(window, dir.path()));
        QVERIFY2(reported.contains(QStringLiteral("manifest.json")), qPrintable(reported));
        QVERIFY2(reported.contains(QStringLiteral("world_size")), qPrintable(reported));
        QCOMPARE(window.rankCount(), 0);
    }

    void window_geometry_survives_a_restart() {
        {
            memscope::MainWindow window;
            window.resize(777, 555);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.close());  // closing saves the geometry
        }
        memscope::MainWindow restored;
        QCOMPARE(restored.size(), QSize(777, 555));
    }

    void unknown_language_has_no_catalogue() {
        QTranslator translator;
        QVERIFY(!memscope::loadMemscopeTranslation(translator, QLocale(QLocale::Japanese)));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
