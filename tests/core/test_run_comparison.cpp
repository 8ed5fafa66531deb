// RunComparison on two recorded tiny runs (eager against memory-efficient attention) and on a
// run against itself.

#include "analysis/run_comparison.h"
#include "analysis/step_alignment.h"
#include "capture/recording_session.h"
#include "layout/timeline_layout.h"
#include "tiny_options.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace memscope;

namespace {

Trace record(TrainOptions o) {
    RecordingSession session(o);
    session.setMeasurePeakFlops(false);
    session.start();
    session.finish();
    return std::move(session.trace());
}

const RunComparison::Row* find(const RunComparison& c, RunComparison::Section section,
                               const std::string& name) {
    for (const auto& r : c.rows) {
        if (r.section == section && r.name == name) {
            return &r;
        }
    }
    return nullptr;
}

}  // namespace

class TestRunComparison : public QObject {
    Q_OBJECT

    Trace m_eager;
    Trace m_efficient;

  private slots:
    void initTestCase() {
        auto o = tinyTrainOptions();
        o.model.n_layers = 1;
        o.seq_len = 32;
        o.num_steps = 2;
        m_eager = record(o);
        o.attention = AttentionKind::MemoryEfficient;
        m_efficient = record(o);
    }

    void summaryRowsAreTheRunsFigures() {
        const auto c = RunComparison::compare(m_eager, m_efficient, "eager", "efficient");
        QCOMPARE(c.name_a, std::string("eager"));
        const auto* peak = find(c, RunComparison::Section::Summary, "Peak allocated");
        QVERIFY(peak);
        QCOMPARE(int64_t(peak->a), m_eager.summary["peak_allocated_bytes"].get<int64_t>());
        QCOMPARE(int64_t(peak->b), m_efficient.summary["peak_allocated_bytes"].get<int64_t>());
        QCOMPARE(peak->delta(), peak->b - peak->a);
        QVERIFY(std::fabs(peak->percent() - (peak->b - peak->a) / peak->a * 100) < 1e-9);
        for (const char* name : {"Average allocated", "Peak in step 1", "Forward peak",
                                 "Backward peak", "Time per step", "Samples per second"}) {
            QVERIFY2(find(c, RunComparison::Section::Summary, name), name);
        }
        // Same model: the parameters at the peak are the same bytes.
        const auto* params = find(c, RunComparison::Section::Category, "PARAMETER");
        QVERIFY(params);
        QCOMPARE(params->delta(), 0.0);
        QVERIFY(params->a > 0);
    }

    void modulesAndOperatorsShowWhereTheyDiffer() {
        const auto c = RunComparison::compare(m_eager, m_efficient, "eager", "efficient", 5);
        int modules = 0, op_bytes = 0, op_time = 0;
        bool attention_module = false;
        for (const auto& r : c.rows) {
            modules += r.section == RunComparison::Section::Module;
            op_bytes += r.section == RunComparison::Section::OperatorMemory;
            op_time += r.section == RunComparison::Section::OperatorTime;
            if (r.section != RunComparison::Section::Summary &&
                r.section != RunComparison::Section::Category) {
                QVERIFY(r.delta() != 0);
            }
            if (r.section == RunComparison::Section::Module &&
                r.name.find("attention") != std::string::npos) {
                attention_module = true;
            }
            // An operator only one side ran is marked so.
            QVERIFY(r.in_a || r.in_b);
            if (!r.in_a) {
                QCOMPARE(r.a, 0.0);
            }
        }
        QVERIFY(modules > 0 && modules <= 5);
        QVERIFY(op_bytes > 0 && op_bytes <= 5);
        QVERIFY(op_time > 0 && op_time <= 5);
        QVERIFY(attention_module);
        // Largest change first within a section.
        double last = INFINITY;
        for (const auto& r : c.rows) {
            if (r.section == RunComparison::Section::Module) {
                QVERIFY(std::fabs(r.delta()) <= last);
                last = std::fabs(r.delta());
            }
        }
    }

    void aRunAgainstItselfChangesNothing() {
        const auto c = RunComparison::compare(m_eager, m_eager);
        QVERIFY(!c.rows.empty());
        for (const auto& r : c.rows) {
            QCOMPARE(r.delta(), 0.0);
            QVERIFY(r.section == RunComparison::Section::Summary ||
                    r.section == RunComparison::Section::Category);
        }
    }

    void tablesForCsvAndMarkdown() {
        const auto c = RunComparison::compare(m_eager, m_efficient, "eager", "efficient");
        const auto raw = c.toTable(TableExporter::Units::Raw);
        QCOMPARE(raw.columns.size(), size_t(7));
        QCOMPARE(raw.rows.size(), c.rows.size());
        QCOMPARE(raw.rows[0][0], std::string("summary"));
        QCOMPARE(raw.rows[0][2], std::string("bytes"));
        QCOMPARE(std::stoll(raw.rows[0][3]), int64_t(c.rows[0].a));
        const auto readable = c.toTable(TableExporter::Units::Readable);
        QCOMPARE(readable.columns[2], std::string("eager"));
        QVERIFY(QString::fromStdString(readable.rows[0][2]).contains("iB"));
        const QString text = QString::fromStdString(c.toText());
        QVERIFY(text.contains("Peak allocated"));
        QVERIFY(text.contains("efficient"));
        QCOMPARE(RunComparison::formatValue(1536, RunComparison::Unit::Bytes, true),
                 std::string("+1.5 KiB"));
        QCOMPARE(RunComparison::formatValue(-0.5, RunComparison::Unit::Seconds, true),
                 std::string("-0.5000 s"));
    }

    void alignmentIsPiecewiseLinearBetweenAnchors_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("expected");
        QTest::newRow("start") << 0.0 << 0.0;
        QTest::newRow("inside the first segment") << 5.0 << 50.0;
        QTest::newRow("anchor") << 10.0 << 100.0;
        QTest::newRow("inside the second") << 20.0 << 110.0;
        QTest::newRow("end") << 30.0 << 120.0;
        QTest::newRow("past the end") << 40.0 << 130.0;
    }

    void alignmentIsPiecewiseLinearBetweenAnchors() {
        QFETCH(double, x);
        QFETCH(double, expected);
        // The dropped pair (15, 90) would make B go backwards.
        const auto s = StepAlignment::fromAnchors({0, 10, 15, 30}, {0, 100, 90, 120});
        QCOMPARE(s.a.size(), size_t(3));
        QCOMPARE(s.aToB(x), expected);
        QCOMPARE(s.bToA(expected), x);
    }

    void stepStartsOfTwoRunsLandOnEachOther() {
        const TimelineLayout la(m_eager), lb(m_efficient);
        const auto s = StepAlignment::between(m_eager, la, m_efficient, lb);
        // 0, the start of each phase interval kind of each step both have, the end: each phase
        // start of A lands on B's.
        QVERIFY(s.a.size() >= 8);
        QCOMPARE(s.b.back(), double(lb.xCount()));
        for (const Phase phase : {Phase::Forward, Phase::Backward, Phase::Optimizer}) {
            double xa = -1, xb = -1;
            for (const auto& p : m_eager.phases) {
                if (p.step == 2 && p.phase == phase && xa < 0) {
                    xa = double(la.xAtTime(p.begin_ns));
                }
            }
            for (const auto& q : m_efficient.phases) {
                if (q.step == 2 && q.phase == phase && xb < 0) {
                    xb = double(lb.xAtTime(q.begin_ns));
                }
            }
            QVERIFY(xa > 0 && xb > 0);
            QCOMPARE(s.aToB(xa), xb);
        }
        for (const auto& p : m_eager.phases) {
            if (p.step == 2) {
                const double xa = double(la.xAtTime(p.begin_ns));
                double xb = -1;
                for (const auto& q : m_efficient.phases) {
                    if (q.step == 2 && xb < 0) {
                        xb = double(lb.xAtTime(q.begin_ns));
                    }
                }
                QCOMPARE(s.aToB(xa), xb);
                break;
            }
        }
        // Without common steps: by share of the axis.
        const auto share = StepAlignment::fromAnchors({0, 50}, {0, 200});
        QCOMPARE(share.aToB(25), 100.0);
    }
};

QTEST_GUILESS_MAIN(TestRunComparison)
#include "test_run_comparison.moc"
