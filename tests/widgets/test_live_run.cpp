// The main window's run workflow: the run panel, a live recorded run (snapshots, step lines,
// status bar, stop, out of memory), opening (.memscope, .pickle, drag and drop, recent files),
// saving and exporting views. Tiny runs recorded in-process.

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>
#include <QtTest>

#include "../core/tiny_options.h"
#include "interchange/snapshot_exporter.h"
#include "io/run_file.h"
#include "layout/timeline_layout.h"
#include "open_and_wait.h"
#include "runs/run_controller.h"
#include "shell/main_window.h"
#include "shell/run_panel.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

using memscope::MainWindow;
using memscope::RunController;
using memscope::RunPanel;

namespace {

memscope::TrainOptions tiny(int64_t steps) {
    memscope::TrainOptions o = tinyTrainOptions();
    o.num_steps = steps;
    return o;
}

// Waits for the run to end (finished() emitted).
bool waitForEnd(MainWindow& window, int timeout_ms = 120000) {
    QElapsedTimer timer;
    timer.start();
    while (window.runController()->isActive() && timer.elapsed() < timeout_ms) {
        QTest::qWait(20);
    }
    return !window.runController()->isActive();
}

}  // namespace

class TestLiveRun : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void run_panel_round_trips_every_option() {
        RunPanel panel;
        memscope::TrainOptions o = tiny(7);
        o.warmup_steps = 2;
        o.dtype = memscope::Dtype::BFloat16;
        o.attention = memscope::AttentionKind::MemoryEfficient;
        o.checkpointing = memscope::Checkpointing::PerBlock;
        o.optimizer = memscope::OptimizerKind::Sgd;
        o.seed = 7;
        o.device_memory_limit = 64ll << 20;
        panel.setOptions(o);
        const memscope::TrainOptions back = panel.options();
        QCOMPARE(back.toJson().dump(), o.toJson().dump());
    }

    void preset_fills_the_model_shape() {
        RunPanel panel;
        panel.setOptions(tiny(3));
        panel.applyPreset(QStringLiteral("workshop-default"));
        const memscope::TrainOptions o = panel.options();
        QCOMPARE(o.preset, std::string("workshop-default"));
        QCOMPARE(o.model.hidden_dim, memscope::TrainOptions{}.model.hidden_dim);
        QCOMPARE(o.batch_size, memscope::TrainOptions{}.batch_size);
        QCOMPARE(o.num_steps, int64_t(3));  // not part of the preset: kept
    }

    void invalid_options_name_the_field() {
        RunPanel panel;
        memscope::TrainOptions o = tiny(3);
        panel.setOptions(o);
        panel.findChild<QSpinBox*>(QStringLiteral("num_heads"))->setValue(3);  // 32 % 3 != 0
        QVERIFY(!panel.validatedOptions());
        QVERIFY(!panel.errorLabel()->isHidden());
        QVERIFY2(panel.errorLabel()->text().contains(QLatin1String("--num-heads")),
                 qPrintable(panel.errorLabel()->text()));

        panel.setOptions(o);
        panel.findChild<QLineEdit*>(QStringLiteral("device_memory_limit"))
            ->setText(QStringLiteral("lots"));
        QVERIFY(!panel.validatedOptions());
        QVERIFY(panel.errorLabel()->text().contains(QLatin1String("--device-memory-limit")));
    }

    void live_run_grows_keeps_the_view_and_finishes() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        window.runPanel()->setOptions(tiny(100));
        RunController* controller = window.runController();
        controller->setPollInterval(10);
        // Counted, not spied: a QSignalSpy keeps every snapshot's trace, and the controller
        // waits (up to a second) while the snapshot it extends next is still held elsewhere.
        int snapshots = 0;
        connect(controller, &RunController::snapshotReady, this, [&snapshots] { ++snapshots; });
        QSignalSpy steps(controller, &RunController::stepFinished);
        QSignalSpy finished(controller, &RunController::finished);

        // F5 runs.
        auto* run = window.findChild<QAction*>(QStringLiteral("action_run"));
        QCOMPARE(run->shortcut(), QKeySequence(Qt::Key_F5));
        run->trigger();
        QVERIFY(controller->isActive());
        QVERIFY(!window.runPanel()->runButton()->isEnabled());
        QVERIFY(window.runPanel()->stopButton()->isEnabled());

        // Zoom into the first snapshot that has a few steps, away from its end, the moment it is
        // shown (in the slot, so the run is certainly still going).
        memscope::TimelineView* view = window.timelinePage()->view();
        int64_t x_count = -1;
        int64_t allocations_before = -1;
        connect(controller, &RunController::snapshotReady, this, [&] {
            if (x_count < 0 && view->timelineLayout() && view->timelineLayout()->xCount() > 200) {
                x_count = view->timelineLayout()->xCount();
                allocations_before = view->allocationCount();
                view->setVisibleRange(20, 120);
            }
        });
        QVERIFY(waitForEnd(window));
        QCOMPARE(finished.count(), 1);
        QVERIFY(snapshots >= 1);
        QVERIFY2(x_count > 0, "no live snapshot arrived while the run went");
        QCOMPARE(steps.count(), 100);
        // The view kept the window the user chose while the run grew.
        QVERIFY(view->timelineLayout()->xCount() > x_count);
        QVERIFY(view->allocationCount() > allocations_before);
        QCOMPARE(view->visibleX0(), 20.0);
        QCOMPARE(view->visibleX1(), 120.0);

        // Log, status bar and the run kept as a file.
        QVERIFY(window.logView()->toPlainText().contains(QLatin1String("Step 100/100: Loss = ")));
        QCOMPARE(window.findChild<QLabel*>(QStringLiteral("status_step"))->text(),
                 QStringLiteral("Finished 100 steps"));
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("status_peak"))
                    ->text()
                    .startsWith(QLatin1String("Peak ")));
        QVERIFY(!window.currentRunPath().isEmpty());
        QVERIFY(QFile::exists(window.currentRunPath()));
        QCOMPARE(window.recentFiles().value(0),
                 QFileInfo(window.currentRunPath()).absoluteFilePath());
        const memscope::Trace saved =
            memscope::RunFile::load(window.currentRunPath().toStdString());
        QCOMPARE(saved.events.count(), window.currentTrace()->events.count());
        QCOMPARE(int64_t(saved.steps.size()), int64_t(100));
        QVERIFY(run->isEnabled());
    }

    void stop_keeps_what_was_recorded() {
        MainWindow window;
        window.show();
        window.runPanel()->setOptions(tiny(100000));
        window.runController()->setPollInterval(10);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(window.logView()->toPlainText().contains(QLatin1String("Step 2/")),
                                 60000);
        auto* stop = window.findChild<QAction*>(QStringLiteral("action_stop"));
        QCOMPARE(stop->shortcut(), QKeySequence(Qt::Key_Escape));
        QVERIFY(stop->isEnabled());
        stop->trigger();
        QVERIFY(waitForEnd(window));
        QVERIFY(window.currentTrace());
        QVERIFY(window.currentTrace()->events.count() > 0);
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("status_step"))
                    ->text()
                    .startsWith(QLatin1String("Stopped after step")));
        QVERIFY(window.logView()->toPlainText().contains(QLatin1String("everything recorded")));
        QVERIFY(QFile::exists(window.currentRunPath()));
    }

    void out_of_memory_run_shows_its_oom_point() {
        MainWindow window;
        window.show();
        memscope::TrainOptions o = tiny(5);
        o.device_memory_limit = 300 * 1024;  // less than the first step needs
        window.runPanel()->setOptions(o);
        window.runController()->setPollInterval(10);
        window.startRun();
        QVERIFY(waitForEnd(window));
        QVERIFY(window.currentTrace());
        bool has_oom = false;
        for (const uint8_t kind : window.currentTrace()->events.kind) {
            has_oom = has_oom || kind == uint8_t(memscope::EventKind::Oom);
        }
        QVERIFY(has_oom);
        QCOMPARE(window.currentTrace()->meta.capacity_bytes, int64_t(300 * 1024));
        QVERIFY2(window.findChild<QLabel*>(QStringLiteral("status_step"))
                     ->text()
                     .startsWith(QLatin1String("Out of memory")),
                 qPrintable(window.findChild<QLabel*>(QStringLiteral("status_step"))->text()));
    }

    void export_view_as_png_at_scale_and_svg() {
        MainWindow window;
        window.resize(1000, 700);
        window.show();
        const QString run = recordTinyRun();
        QVERIFY(memscope_test::openAndWait(window, run));
        QTRY_VERIFY(window.timelinePage()->view()->timelineLayout());
        const QString png = m_dir.filePath(QStringLiteral("timeline.png"));
        memscope::Outcome exported = window.exportView(png, 2.0, QSize(800, 450));
        QVERIFY2(exported, qPrintable(exported.message()));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 900));
        const QString svg = m_dir.filePath(QStringLiteral("timeline.svg"));
        exported = window.exportView(svg, 1.0, QSize(800, 450));
        QVERIFY2(exported, qPrintable(exported.message()));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("Active memory timeline"));
        exported = window.exportView(QStringLiteral("/nonexistent-dir/x.png"), 1.0, QSize());
        QVERIFY(!exported);
        QVERIFY(exported.message().contains(QLatin1String("/nonexistent-dir/x.png")));
    }

    void opens_pickles_by_drop_and_remembers_recent_files() {
        MainWindow window;
        window.show();
        // A PyTorch snapshot written from a recorded run.
        const memscope::Trace trace = memscope::RunFile::load(recordTinyRun().toStdString());
        const QString pickle = m_dir.filePath(QStringLiteral("snapshot.pickle"));
        memscope::SnapshotExporter::write(trace, pickle.toStdString());

        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(pickle)});
        const QPoint centre = window.rect().center();
        QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(centre), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QTRY_VERIFY2(window.currentRunPath() == pickle,
                     qPrintable(window.logView()->toPlainText()));
        QVERIFY(window.currentTrace());
        QCOMPARE(window.currentTrace()->allocations().size(), trace.allocations().size());
        QCOMPARE(window.recentFiles().value(0), QFileInfo(pickle).absoluteFilePath());
        auto* recent = window.findChild<QMenu*>(QStringLiteral("menu_recent"));
        QVERIFY(recent);
        QVERIFY(recent->actions().value(0)->text().contains(QLatin1String("snapshot.pickle")));
    }

    void corrupt_file_keeps_the_open_run() {
        MainWindow window;
        window.show();
        const QString run = recordTinyRun();
        QVERIFY(memscope_test::openAndWait(window, run));
        const QString bad = m_dir.filePath(QStringLiteral("bad.memscope"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("not a run file at all");
        }
        QTimer::singleShot(0, [] {
            QTRY_VERIFY(QApplication::activeModalWidget());
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                QVERIFY(box->text().contains(QLatin1String("bad.memscope")));
                box->accept();
            }
        });
        QVERIFY(!memscope_test::openAndWait(window, bad));
        QCOMPARE(window.currentRunPath(), run);
        QVERIFY(window.currentTrace());
    }

  private:
    // A tiny recorded run written once and reused.
    QString recordTinyRun() {
        const QString path = m_dir.filePath(QStringLiteral("tiny.memscope"));
        if (QFile::exists(path)) {
            return path;
        }
        RunController controller;
        controller.setPollInterval(10);
        std::shared_ptr<const memscope::Trace> result;
        connect(&controller, &RunController::finished, this,
                [&](std::shared_ptr<const memscope::Trace> trace,
                    std::shared_ptr<memscope::TimelineLayout>,
                    const RunController::Ending&) { result = std::move(trace); });
        if (const memscope::Outcome started = controller.start(tiny(2), true); !started) {
            qWarning("%s", qPrintable(started.message()));
            return {};
        }
        QElapsedTimer timer;
        timer.start();
        while (!result && timer.elapsed() < 60000) {
            QTest::qWait(20);
        }
        if (!result) {
            return {};
        }
        memscope::RunFile::save(*result, path.toStdString());
        return path;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestLiveRun)
#include "test_live_run.moc"
