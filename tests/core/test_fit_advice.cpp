// FitAdvice (predict/fit_advice.h): the single changes that fit a limit, each the planner's
// prediction of its own options, in the order that changes least first (issue 41).

#include "predict/fit_advice.h"
#include "predict/memory_model.h"
#include "tiny_options.h"

#include <QtTest>

using namespace memscope;

class TestFitAdvice : public QObject {
    Q_OBJECT

  private slots:
    void everySuggestionFitsAndIsItsOwnPrediction() {
        TrainOptions o = tinyTrainOptions();
        o.batch_size = 8;
        o.seq_len = 32;
        const int64_t peak = FitAdvice::predictedPeak(o);
        QCOMPARE(peak, MemoryModel::predict(o).peak());
        const int64_t limit = peak * 3 / 4;
        const auto advice = FitAdvice::suggest(o, limit);
        QVERIFY(!advice.empty());
        for (const auto& s : advice) {
            QVERIFY2(s.predicted_peak <= limit, s.change.c_str());
            QCOMPARE(s.headroom, limit - s.predicted_peak);
            if (s.single_process()) {
                QCOMPARE(s.predicted_peak, MemoryModel::predict(s.options).peak());
            }
        }
        // The batch size suggested is the largest that fits: one more does not.
        for (const auto& s : advice) {
            if (s.kind == "batch_size") {
                QVERIFY(s.options.batch_size < o.batch_size);
                TrainOptions more = s.options;
                more.batch_size += 1;
                QVERIFY(MemoryModel::predict(more).peak() > limit);
                QCOMPARE(s.change, "--batch-size " + std::to_string(s.options.batch_size));
            }
        }
        // Order: checkpointing (the same math) before a smaller batch; the top single-process
        // suggestion is the first.
        QCOMPARE(FitAdvice::topSingleProcess(advice), &advice.front());
        std::vector<std::string> kinds;
        for (const auto& s : advice) {
            kinds.push_back(s.kind);
        }
        const auto at = [&](const char* k) {
            return std::find(kinds.begin(), kinds.end(), k) - kinds.begin();
        };
        if (at("checkpointing") < long(kinds.size()) && at("batch_size") < long(kinds.size())) {
            QVERIFY(at("checkpointing") < at("batch_size"));
        }
        const auto json = FitAdvice::toJson(advice, limit);
        QCOMPARE(json["suggestions"].size(), advice.size());
        QVERIFY(FitAdvice::toText(advice, limit).find("predicted peak") != std::string::npos);
    }

    void nothingFitsATinyLimit() {
        const TrainOptions o = tinyTrainOptions();
        const auto advice = FitAdvice::suggest(o, 1024);
        QVERIFY(advice.empty());
        QVERIFY(FitAdvice::topSingleProcess(advice) == nullptr);
        QVERIFY(FitAdvice::toText(advice, 1024).find("No single change") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestFitAdvice)
#include "test_fit_advice.moc"
