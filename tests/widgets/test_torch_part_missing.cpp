// The GUI without its LibTorch part (issue 31): CTest points MEMSCOPE_GUI_TORCH_PART at a file
// that does not exist. Starting a run, a sweep or the planner's measured CPU peak fails with one
// message naming the library (the About box says it too); the run panel lists the CPU alone;
// runs still open and draw; and LibTorch never enters the process.

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "../core/analysis_fixtures.h"
#include "../core/tiny_options.h"
#include "io/run_file.h"
#include "open_and_wait.h"
#include "runs/run_controller.h"
#include "runs/torch_part_loader.h"
#include "shell/about_box.h"
#include "shell/main_window.h"
#include "shell/run_panel.h"
#include "studies/planner_page.h"
#include "studies/sweep_page.h"
#include "studies/sweep_spec.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"

using memscope::TorchPartLoader;

namespace {

// Whether a library whose name starts with `name` is mapped into this process.
bool mapped(const QByteArray& name) {
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly)) {
        return false;
    }
    return maps.readAll().contains("/" + name);
}

const QString k_library = QStringLiteral("memscope-gui-torch.so");

}  // namespace

class TestTorchPartMissing : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(qEnvironmentVariable("MEMSCOPE_GUI_TORCH_PART").contains(k_library));
        QVERIFY(!mapped("libtorch"));
    }

    void run_fails_naming_the_library() {
        memscope::RunController controller;
        const memscope::Outcome started = controller.start(tinyTrainOptions(), false);
        QVERIFY(!started);
        QVERIFY2(started.message().contains(k_library), qPrintable(started.message()));
        QCOMPARE(memscope::TorchPartLoader::outcome().message(), started.message());
        QVERIFY(!controller.isActive());
        QVERIFY(TorchPartLoader::attempted());
        QVERIFY(!TorchPartLoader::loadedPart());
        QVERIFY(!TorchPartLoader::part());
    }

    void run_panel_lists_the_cpu_alone() {
        memscope::RunPanel panel;
        auto* device = panel.findChild<QComboBox*>(QStringLiteral("device"));
        QVERIFY(device);
        QCOMPARE(device->count(), 1);
        QCOMPARE(device->currentData().toString(), QStringLiteral("cpu"));
    }

    void sweep_fails_naming_the_library() {
        QTemporaryDir dir;
        memscope::SweepSpec spec;
        spec.base = tinyTrainOptions();
        spec.batch_sizes = {1};
        spec.mode = memscope::SweepSpec::Mode::Axes;
        spec.steps = 1;
        memscope::SweepPage page;
        QSignalSpy finished(&page, &memscope::SweepPage::sweepFinished);
        QVERIFY(page.startSweep(spec, dir.path()));
        QVERIFY(finished.wait(60000));
        const auto outcome = finished.first().at(0).value<memscope::Outcome>();
        QVERIFY(!outcome);
        QVERIFY2(outcome.message().contains(k_library), qPrintable(outcome.message()));
    }

    void planner_predicts_gpus_and_says_why_not_the_cpu() {
        memscope::PlannerPage page;  // the CPU by default: its peak is measured with LibTorch
        QVERIFY(!page.result());
        QVERIFY2(page.verdictLabel()->text().contains(k_library),
                 qPrintable(page.verdictLabel()->text()));
        page.deviceComboBox()->setCurrentText(QStringLiteral("NVIDIA H100 SXM"));
        QVERIFY(page.result());  // the database's figures need no LibTorch
    }

    void about_box_names_the_library() { QVERIFY(memscope::AboutBox::text().contains(k_library)); }

    void window_opens_and_draws_a_run() {
        QTemporaryDir dir;
        AnalysisFixture fixture;
        const QString path = dir.filePath(QStringLiteral("fixture.memscope"));
        memscope::RunFile::save(fixture.trace, QFile::encodeName(path).toStdString());
        memscope::MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(memscope_test::openAndWait(window, path));
        QVERIFY(window.currentTrace());
        const QImage image = window.timelinePage()->view()->renderImage(QSize(400, 300));
        QVERIFY(!image.isNull());
        // The window's run panel: the CPU alone; Run says what is missing.
        auto* panel = window.findChild<memscope::RunPanel*>();
        QVERIFY(panel);
        const memscope::Outcome started = window.runController()->start(tinyTrainOptions(), false);
        QVERIFY(!started);
        QVERIFY(started.message().contains(k_library));
        // Past the moment the window loads the part in the background: nothing changes.
        QTest::qWait(1300);
        QVERIFY(!TorchPartLoader::loadedPart());
    }

    void cleanupTestCase() { QVERIFY(!mapped("libtorch")); }
};

QTEST_MAIN(TestTorchPartMissing)
#include "test_torch_part_missing.moc"
