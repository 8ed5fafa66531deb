// SizeTableChapter (report/size_table_chapter.h): the course's and the workshop's tables from
// the user's own runs with their sizes: peaks by (b, s) for the forward pass and the full step,
// how they scale, mixed precision against fp32; sizes from --sizes text and from a Python
// program's recorded command line; bad --sizes text.

#include "module_fixture.h"

#include "model/input_error.h"
#include "report/size_table_chapter.h"

#include <QtTest>

#include <deque>

using namespace memscope;

namespace {

// A run whose peak is `peak` bytes: one allocation in a forward phase, and with `full` a
// backward phase after it.
Trace run(int64_t peak, bool full) {
    Trace t;
    EventWriter event{t};
    event(EventKind::Alloc, 0x10, peak, 0, Phase::Forward, 1);
    if (full) {
        event(EventKind::Free, 0x10, -peak, 0, Phase::Backward, 1);
    }
    t.finalize();
    return t;
}

}  // namespace

class TestSizeTables : public QObject {
    Q_OBJECT

  private slots:
    void peaksScalingAndPrecision() {
        std::deque<Trace> traces;  // stable addresses
        std::vector<SizeTableChapter::SizedRun> runs;
        auto add = [&](const std::string& name, int64_t peak, bool full, const std::string& sizes) {
            traces.push_back(run(peak, full));
            runs.push_back({name, &traces.back(), SizeTableChapter::parseSizes(sizes, "--sizes")});
        };
        add("f128", 1000000, false, "s=128,b=4");
        add("t128", 3000000, true, "s=128,b=4");
        add("t256", 12000000, true, "s=256,b=4");  // x4 for x2: quadratic
        add("t256h", 9000000, true, "s=256,b=4,dtype=bf16");
        add("none", 5, true, "d=64");  // no s and no b: not in the tables
        const std::string md = SizeTableChapter::markdown(runs);
        QVERIFY2(md.find("| - | 4 | 128 | 0.95 MB (1,000,000 B) | 2.86 MB (3,000,000 B) | f128, "
                         "t128 |") != std::string::npos,
                 md.c_str());
        QVERIFY(md.find("| - | 4 | 256 | - | 11.4 MB (12,000,000 B) | t256 |") !=
                std::string::npos);
        QVERIFY(md.find("| dtype=bf16 | 4 | 256 | - | 8.58 MB (9,000,000 B) | t256h |") !=
                std::string::npos);
        QVERIFY(md.find("none") == std::string::npos);
        // Scaling: the full step from s 128 to 256 at b 4, x4 for x2, exponent 2.
        QVERIFY2(md.find("| - | full step | s 128 to 256 (b 4) | 2.86 to 11.4 MB | x4.00 for x2.00 "
                         "| 2.00 |") != std::string::npos,
                 md.c_str());
        // Mixed precision: bf16 against fp32 at the same sizes and pass, 25% saved.
        QVERIFY2(md.find("| - | 4 | 256 | full step | 11.4 MB (12,000,000 B) | bf16 8.58 MB "
                         "(9,000,000 B) | 25.0% |") != std::string::npos,
                 md.c_str());
        QVERIFY(SizeTableChapter::markdown({}).empty());
    }

    void sizesFromTheCommandLine() {
        const nlohmann::json config = {
            {"program",
             {{"script", "train.py"},
              {"argv", {"--context-length", "256", "--batch_size=8", "--lr", "3e-4"}}}}};
        const auto sizes = SizeTableChapter::sizesFromCommand(config);
        QCOMPARE(sizes.size(), size_t(2));
        QCOMPARE(sizes.at("s"), std::string("256"));
        QCOMPARE(sizes.at("b"), std::string("8"));
        QVERIFY(SizeTableChapter::sizesFromCommand(nlohmann::json::object()).empty());
        QVERIFY(SizeTableChapter::sizesFromCommand({{"program", {{"argv", {"--seq-len", "x"}}}}})
                    .empty());
    }

    void badSizes() {
        for (const char* text : {"", "s", "s=", "=4", "s=-1", "b=0", "s=12x"}) {
            try {
                SizeTableChapter::parseSizes(text, "--sizes a.pickle:x");
                QFAIL(text);
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("--sizes a.pickle:x") != std::string::npos,
                         e.what());
            }
        }
        QCOMPARE(SizeTableChapter::parseSizes("s=128, b=4 ,dtype=bf16", "x").at("dtype"),
                 std::string("bf16"));
    }
};

QTEST_APPLESS_MAIN(TestSizeTables)
#include "test_size_tables.moc"
