// ScalingFit on synthetic data with known exponents, and ScalingSeries grouping sweep points
// into series along one axis.

#include "studies/scaling_fit.h"
#include "studies/scaling_series.h"

#include <QtTest/QtTest>

#include <cmath>
#include <random>
#include <set>

using namespace memscope;

namespace {

std::vector<double> powers(const std::vector<double>& x, double c, double e, double noise,
                           unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> jitter(-noise, noise);
    std::vector<double> y;
    for (const double v : x) {
        y.push_back(c * std::pow(v, e) * (1.0 + jitter(rng)));
    }
    return y;
}

SweepPointResult point(int64_t batch, int64_t seq, AttentionKind attention, int64_t activation,
                       int64_t parameters) {
    SweepPointResult p;
    p.options.batch_size = batch;
    p.options.seq_len = seq;
    p.options.attention = attention;
    p.label = std::to_string(batch) + "/" + std::to_string(seq);
    p.bytes_by_category_at_peak["PARAMETER"] = parameters;
    p.bytes_by_category_at_peak["ACTIVATION"] = activation;
    p.bytes_by_category_at_peak["TEMPORARY"] = 500000;
    p.static_bytes = parameters;
    p.peak_bytes = parameters + activation + 500000;
    p.avg_bytes = p.peak_bytes / 2;
    p.samples_per_s = 100.0 / double(seq);
    return p;
}

}  // namespace

class TestScalingFit : public QObject {
    Q_OBJECT

  private slots:
    void exactPowerLawsGiveTheirExponent_data() {
        QTest::addColumn<double>("exponent");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("linear") << 1.0 << "linear";
        QTest::newRow("quadratic") << 2.0 << "quadratic";
        QTest::newRow("square root") << 0.5 << "sub-linear";
        QTest::newRow("one and a half") << 1.5 << "in between";
        QTest::newRow("cubic") << 3.0 << "steeper than quadratic";
    }

    void exactPowerLawsGiveTheirExponent() {
        QFETCH(double, exponent);
        QFETCH(QString, verdict);
        const std::vector<double> x{64, 128, 256, 512};
        const auto f = ScalingFit::fit(x, powers(x, 3.5, exponent, 0, 1));
        QVERIFY(f.valid);
        QCOMPARE(f.points, size_t(4));
        QVERIFY(std::fabs(f.exponent - exponent) < 1e-9);
        QVERIFY(std::fabs(f.coefficient - 3.5) < 1e-6);
        QVERIFY(std::fabs(f.r_squared - 1.0) < 1e-9);
        QCOMPARE(QString::fromStdString(f.verdict()), verdict);
        QVERIFY(std::fabs(f.predict(1024) - 3.5 * std::pow(1024.0, exponent)) <
                1e-6 * std::pow(1024.0, exponent));
    }

    void noisyDataStaysCloseAndKeepsTheVerdict() {
        const std::vector<double> x{4, 8, 16, 32, 64, 128, 256, 512};
        for (unsigned seed = 1; seed <= 20; ++seed) {
            const auto lin = ScalingFit::fit(x, powers(x, 1e6, 1.0, 0.05, seed));
            const auto quad = ScalingFit::fit(x, powers(x, 10, 2.0, 0.05, seed + 100));
            QVERIFY2(std::fabs(lin.exponent - 1.0) < 0.05,
                     qPrintable(QString::number(lin.exponent)));
            QVERIFY2(std::fabs(quad.exponent - 2.0) < 0.05,
                     qPrintable(QString::number(quad.exponent)));
            QCOMPARE(QString::fromStdString(lin.verdict()), QString("linear"));
            QCOMPARE(QString::fromStdString(quad.verdict()), QString("quadratic"));
            QVERIFY(lin.r_squared > 0.99 && lin.r_squared <= 1.0);
        }
    }

    void linearPlusConstantIsSubLinear() {
        // A fixed part (parameters, optimizer state) flattens the log-log slope of the total.
        const std::vector<double> x{64, 128, 256, 512};
        std::vector<double> y;
        for (const double v : x) {
            y.push_back(1e8 + 1e4 * v);
        }
        const auto f = ScalingFit::fit(x, y);
        QVERIFY(f.valid);
        QVERIFY(f.exponent > 0 && f.exponent < 0.85);
        QCOMPARE(QString::fromStdString(f.verdict()), QString("sub-linear"));
    }

    void degenerateInputIsNotAFit() {
        QVERIFY(!ScalingFit::fit({}, {}).valid);
        QVERIFY(!ScalingFit::fit({8}, {100}).valid);
        QVERIFY(!ScalingFit::fit({8, 8, 8}, {1, 2, 3}).valid);
        QCOMPARE(QString::fromStdString(ScalingFit::fit({8}, {1}).verdict()),
                 QString("not enough points"));
        // Non-positive values have no logarithm: left out, the rest still fits.
        const auto f = ScalingFit::fit({0, 2, 4, -1, 8}, {5, 4, 16, 3, 64});
        QVERIFY(f.valid);
        QCOMPARE(f.points, size_t(3));
        QVERIFY(std::fabs(f.exponent - 2.0) < 1e-9);
        QVERIFY(!ScalingFit::fit({1, 2}, {0, 0}).valid);
    }

    void verdictBoundaries() {
        QCOMPARE(ScalingFit::verdictFor(0.84), std::string("sub-linear"));
        QCOMPARE(ScalingFit::verdictFor(0.85), std::string("linear"));
        QCOMPARE(ScalingFit::verdictFor(1.15), std::string("linear"));
        QCOMPARE(ScalingFit::verdictFor(1.16), std::string("in between"));
        QCOMPARE(ScalingFit::verdictFor(1.85), std::string("quadratic"));
        QCOMPARE(ScalingFit::verdictFor(2.15), std::string("quadratic"));
        QCOMPARE(ScalingFit::verdictFor(2.2), std::string("steeper than quadratic"));
    }

    // The verdict is a kind first and words second (issue 54: the sweep page matched the
    // words): each band has its kind, each kind its own words, and the words of the text
    // output are the kind's.
    void verdictKindsAndTheirWords() {
        using V = ScalingFit::Verdict;
        QCOMPARE(ScalingFit::verdictOf(0.5), V::SubLinear);
        QCOMPARE(ScalingFit::verdictOf(1.0), V::Linear);
        QCOMPARE(ScalingFit::verdictOf(1.5), V::InBetween);
        QCOMPARE(ScalingFit::verdictOf(2.0), V::Quadratic);
        QCOMPARE(ScalingFit::verdictOf(3.0), V::SteeperThanQuadratic);
        QCOMPARE(ScalingFit::fit({8}, {1}).verdictKind(), V::NotEnoughPoints);
        const ScalingFit quad = ScalingFit::fit({1, 2, 4}, {1, 4, 16});
        QCOMPARE(quad.verdictKind(), V::Quadratic);
        QCOMPARE(quad.verdict(), ScalingFit::verdictText(V::Quadratic));
        std::set<std::string> words;
        for (const V v : {V::NotEnoughPoints, V::SubLinear, V::Linear, V::InBetween, V::Quadratic,
                          V::SteeperThanQuadratic}) {
            QVERIFY(words.insert(ScalingFit::verdictText(v)).second);
        }
    }

    void patternBetweenTwoPoints() {
        QCOMPARE(ScalingFit::pattern(64, 1.0, 128, 4.0), std::string("quadratic (S^2.00)"));
        QCOMPARE(ScalingFit::pattern(64, 10.0, 128, 10.0 * std::pow(2.0, 1.8)),
                 std::string("in between (S^1.80)"));
        QCOMPARE(ScalingFit::pattern(64, 1.0, 64, 2.0), std::string("—"));
        QCOMPARE(ScalingFit::pattern(64, 0.0, 128, 2.0), std::string("—"));
        QCOMPARE(ScalingFit::pattern(64, 1.0, 128, -2.0), std::string("—"));
    }

    void seriesSplitByTheFixedSettingsAndFindTheSteepestCategory() {
        SweepResult r;
        const std::vector<int64_t> seqs{64, 128, 256, 512};
        for (const int64_t s : seqs) {
            // Eager: activations quadratic in S; memory-efficient: linear.
            r.points.push_back(point(8, s, AttentionKind::Eager, 50 * s * s, 4'000'000));
            r.points.push_back(point(8, s, AttentionKind::MemoryEfficient, 9000 * s, 4'000'000));
        }
        // One batch point at another batch size: a series of its own along the batch axis.
        r.points.push_back(point(16, 128, AttentionKind::Eager, 2 * 50 * 128 * 128, 4'000'000));
        r.points.back().status = SweepPointResult::Status::OutOfMemory;

        const auto seq_series = ScalingSeries::build(r, ScalingSeries::Axis::Seq);
        QCOMPARE(seq_series.size(), size_t(2));
        for (const auto& s : seq_series) {
            QCOMPARE(s.points.size(), size_t(4));
            QCOMPARE(s.x, std::vector<double>({64, 128, 256, 512}));
            const bool eager = QString::fromStdString(s.label).contains("eager");
            QCOMPARE(s.steepest_category, std::string("ACTIVATION"));
            QVERIFY(std::fabs(s.steepest.exponent - (eager ? 2.0 : 1.0)) < 1e-9);
            QCOMPARE(QString::fromStdString(s.steepest.verdict()),
                     QString(eager ? "quadratic" : "linear"));
            // PARAMETER is constant: exponent 0, never the steepest.
            bool saw_parameter = false;
            for (const auto& [name, fit] : s.categories) {
                if (name == "PARAMETER") {
                    saw_parameter = true;
                    QVERIFY(std::fabs(fit.exponent) < 1e-9);
                }
            }
            QVERIFY(saw_parameter);
            QVERIFY(s.peak.exponent < s.input_dependent.exponent);
            QVERIFY(s.samples_per_s.exponent < -0.99);
            QVERIFY(QString::fromStdString(s.summaryLine()).contains("steepest: ACTIVATION"));
        }
        // Along the batch axis the OOM point is in the series but out of the fit.
        const auto batch_series = ScalingSeries::build(r, ScalingSeries::Axis::Batch);
        QCOMPARE(batch_series.size(), size_t(1));
        QCOMPARE(batch_series[0].points.size(), size_t(2));
        QVERIFY(!batch_series[0].peak.valid);
    }
};

QTEST_GUILESS_MAIN(TestScalingFit)
#include "test_scaling_fit.moc"
