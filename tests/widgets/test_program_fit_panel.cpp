// The Planner page's panel for a user's own program (issue 44): it opens a sweep directory
// (a synthetic program_sweep.json), fits it on a worker, predicts the sizes typed with the
// phases in the table and the categories at the peak, says whether the device fits, refuses
// sizes the fit cannot say and reports a directory that is no sweep.

#include "studies/program_fit_panel.h"

#include "predict/device_spec.h"
#include "studies/program_sweep.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace memscope;

namespace {

// Parameters 4*(12*L*d^2 + 2000*d) bytes, activations L*b*s*(40*d) + 12*b*s*1000.
PhasePeaks::Peak peakOf(double parameters, double activations) {
    PhasePeaks::Peak p;
    p.by_category[size_t(Category::Parameter)] = std::llround(parameters);
    p.by_category[size_t(Category::Activation)] = std::llround(activations);
    p.bytes = std::llround(parameters + activations);
    return p;
}

void writeSweep(const QString& dir) {
    ProgramSweep sweep;
    sweep.spec.program = {"train.py", "--d", "{d}", "--L", "{L}", "--s", "{s}", "--b", "{b}"};
    for (const char* axis : {"d=32,64,128", "L=1,2,3", "s=16,32,64", "b=1,2"}) {
        sweep.spec.axes.push_back(ProgramSweepSpec::parseAxis(axis));
    }
    for (const auto& sizes : sweep.spec.points()) {
        const double d = double(sizes.at("d")), L = double(sizes.at("L")),
                     s = double(sizes.at("s")), b = double(sizes.at("b"));
        const double parameters = 4 * (12 * L * d * d + 2000 * d);
        ProgramSweep::Point p;
        p.label = sweep.spec.labelOf(sizes);
        p.sizes = sizes;
        p.ok = true;
        p.peaks.regions["first/forward"]["after:-|aten::exp#0"] =
            peakOf(parameters, L * b * s * 40 * d + 12 * b * s * 1000);
        p.peaks.regions["first/optimizer"]["outside:-|aten::div#-1"] =
            peakOf(parameters, 3 * parameters);
        for (const auto& [phase, regions] : p.peaks.regions) {
            p.peaks.phases[phase] = regions.begin()->second;
        }
        sweep.points.push_back(p);
    }
    sweep.save(dir.toStdString());
}

}  // namespace

class TestProgramFitPanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

  private slots:
    void predictsTheSizesTyped() {
        QVERIFY(m_dir.isValid());
        writeSweep(m_dir.path());
        ProgramFitPanel panel;
        QSignalSpy loaded(&panel, &ProgramFitPanel::loaded);
        panel.loadSweep(m_dir.path());
        QVERIFY(loaded.wait(20000));
        QVERIFY(panel.hasFit());
        QVERIFY2(panel.statusLabel()->text().contains("54 points"),
                 qPrintable(panel.statusLabel()->text()));

        panel.sizesEdit()->setText("d=2560,L=32,s=512,b=4");
        // forward, step 1: 4*(12*32*2560^2 + 2000*2560) + 32*4*512*40*2560 + 12*4*512*1000
        const QString forward = panel.phaseTable()->item(0, 0)->text();
        QCOMPARE(forward, QString("15.7 GiB"));                          // 16,822,272,000 bytes
        QCOMPARE(panel.phaseTable()->item(1, 0)->text(), QString("-"));  // no backward fitted
        QVERIFY2(panel.resultLabel()->text().contains("first/optimizer"),
                 qPrintable(panel.resultLabel()->text()));
        QVERIFY2(panel.resultLabel()->text().contains("PARAMETER"),
                 qPrintable(panel.resultLabel()->text()));

        DeviceSpec small;
        small.name = "Small GPU";
        small.memory_bytes = int64_t(8) << 30;
        panel.setDevice(&small);
        QVERIFY2(panel.resultLabel()->text().contains("does not fit"),
                 qPrintable(panel.resultLabel()->text()));
        DeviceSpec big = small;
        big.name = "Big GPU";
        big.memory_bytes = int64_t(1) << 40;
        panel.setDevice(&big);
        QVERIFY2(panel.resultLabel()->text().contains("fits") &&
                     panel.resultLabel()->text().contains("Largest batch"),
                 qPrintable(panel.resultLabel()->text()));

        panel.sizesEdit()->setText("d=2560,L=32,s=512,b=4,h=32");
        QVERIFY2(panel.resultLabel()->text().contains("Outside what the fit can say"),
                 qPrintable(panel.resultLabel()->text()));
        QCOMPARE(panel.phaseTable()->item(0, 0)->text(), QString("-"));
    }

    void aDirectoryThatIsNoSweepFails() {
        QTemporaryDir empty;
        ProgramFitPanel panel;
        QSignalSpy failed(&panel, &ProgramFitPanel::failed);
        panel.loadSweep(empty.path());
        QVERIFY(failed.wait(20000));
        QVERIFY(!panel.hasFit());
        QVERIFY2(panel.statusLabel()->text().contains("program_sweep.json"),
                 qPrintable(panel.statusLabel()->text()));
        QVERIFY(!panel.sizesEdit()->isEnabled());
    }
};

QTEST_MAIN(TestProgramFitPanel)
#include "test_program_fit_panel.moc"
