// PlannerPage offscreen: the prediction follows the form at once, and an open run's measured
// peak appears next to the prediction with its error.

#include "../core/tiny_options.h"
#include "capture/recording_session.h"
#include "predict/plan_result.h"
#include "studies/planner_page.h"
#include "trace/trace.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace memscope;

namespace {

TrainOptions tinyRun() {
    TrainOptions o = tinyTrainOptions();  // with one layer, two steps, batch 3, 32 tokens
    o.model.n_layers = 1;
    o.batch_size = 3;
    o.seq_len = 32;
    o.num_steps = 2;
    return o;
}

}  // namespace

class TestPlannerPage : public QObject {
    Q_OBJECT

  private slots:
    void changingTheBatchUpdatesThePrediction() {
        PlannerPage page;
        page.show();
        QVERIFY(page.result() != nullptr);
        const auto before = page.predictedPeak();
        const auto label = page.peakLabel()->text();
        QVERIFY(before > 0);
        QVERIFY(label.contains(QLocale().toString(before)));
        page.findChild<QSpinBox*>("batch_size")
            ->setValue(page.findChild<QSpinBox*>("batch_size")->value() * 2);
        QVERIFY(page.predictedPeak() > before);
        QVERIFY(page.peakLabel()->text() != label);
        const auto doubled = page.predictedPeak();
        page.findChild<QSpinBox*>("seq_len")->setValue(
            page.findChild<QSpinBox*>("seq_len")->value() * 2);
        QVERIFY(page.predictedPeak() > doubled);
        QVERIFY(!page.chartView()->chart()->series().isEmpty());
    }

    void strategiesAndRecommendationsForAGpuCluster() {
        PlannerPage page;
        page.deviceComboBox()->setCurrentText(QStringLiteral("NVIDIA H100 SXM"));
        page.gpusSpinBox()->setValue(4);
        page.findChild<QSpinBox*>("seq_len")->setValue(4096);
        QVERIFY(page.result() != nullptr);
        QVERIFY(page.strategyTable()->rowCount() >= 3);
        QVERIFY(page.recommendationTree()->topLevelItemCount() > 0);
        QVERIFY(page.verdictLabel()->text().contains(QStringLiteral("NVIDIA H100 SXM")));
    }

    void impossibleFormShowsTheFieldNotACrash() {
        PlannerPage page;
        page.findChild<QComboBox*>("attention")->setCurrentText(QStringLiteral("eager"));
        page.gpusSpinBox()->setValue(3);
        page.deviceComboBox()->setCurrentText(QStringLiteral("NVIDIA H100 SXM"));
        page.findChild<QSpinBox*>("batch_size")
            ->setValue(8);  // 8 is not a multiple of 3 data-parallel GPUs
        QVERIFY(page.result() == nullptr);
        QVERIFY(page.verdictLabel()->text().contains(QStringLiteral("--batch-size")));
        page.findChild<QSpinBox*>("batch_size")->setValue(9);
        QVERIFY(page.result() != nullptr);
    }

    void measuredOverlayAppearsForAnOpenRun() {
        RecordingSession session(tinyRun());
        session.setMeasurePeakFlops(false);
        session.start();
        const auto measured = session.finish().peak_allocated_bytes;
        auto trace = std::make_shared<Trace>(std::move(session.trace()));
        PlannerPage page;
        page.show();
        QVERIFY(page.overlayTable()->rowCount() == 0);
        page.setMeasuredTrace(trace);
        QCOMPARE(page.findChild<QSpinBox*>("batch_size")->value(),
                 3);  // the form follows the run's configuration
        QCOMPARE(page.findChild<QSpinBox*>("seq_len")->value(), 32);
        const auto* table = page.overlayTable();
        QVERIFY(table->isVisible());
        QVERIFY(table->rowCount() >= 7);
        const int last = table->rowCount() - 1;
        QCOMPARE(table->item(last, 2)->toolTip(), QLocale().toString(qint64(measured)));
        const auto error = table->item(last, 3)->text();
        QVERIFY(error.endsWith('%'));
        bool ok = false;
        const double percent = QLocale().toDouble(error.chopped(1), &ok);
        QVERIFY(ok);
        QVERIFY2(std::abs(percent) < 3.0, qPrintable(error));
        page.setMeasuredTrace(nullptr);
        QCOMPARE(page.overlayTable()->rowCount(), 0);
    }
};

QTEST_MAIN(TestPlannerPage)
#include "test_planner_page.moc"
