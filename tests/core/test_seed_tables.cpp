// The seed documents' tables filled from synthetic sweep results: which rows and columns each
// one has, OOM cells, the Setting column for several groups, CSV and Markdown.

#include "studies/seed_tables.h"

#include <QtTest/QtTest>

using namespace memscope;

namespace {

constexpr int64_t kMiB = 1 << 20;

SweepPointResult point(int64_t batch, int64_t seq, ProfileType profile = ProfileType::Training,
                       Dtype dtype = Dtype::Float32,
                       AttentionKind attention = AttentionKind::Eager) {
    SweepPointResult p;
    p.options.preset = "workshop-default";
    p.options.batch_size = batch;
    p.options.seq_len = seq;
    p.options.profile = profile;
    p.options.dtype = dtype;
    p.options.attention = attention;
    p.label = "p" + std::to_string(batch) + "-" + std::to_string(seq);
    p.parameters = 2'617'600;
    p.static_bytes = 16 * p.parameters;
    // Input-dependent memory quadratic in the sequence length, linear in the batch.
    const int64_t input = batch * seq * seq * 64 / (dtype == Dtype::BFloat16 ? 2 : 1) /
                          (profile == ProfileType::Forward ? 3 : 1);
    p.peak_bytes = p.static_bytes + input;
    p.step1_peak_bytes = p.peak_bytes;
    p.steady_peak_bytes = p.peak_bytes;
    p.avg_bytes = p.static_bytes + input / 2;
    p.steps = 3;
    p.samples_per_s = 1000.0 / double(batch * seq);
    p.tokens_per_s = p.samples_per_s * double(seq);
    p.avg_step_s = double(batch) / p.samples_per_s;
    return p;
}

std::string mb(int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", double(bytes) / double(kMiB));
    return buf;
}

}  // namespace

class TestSeedTables : public QObject {
    Q_OBJECT

  private slots:
    void namesParse() {
        QCOMPARE(SeedTables::parse("seed000").size(), size_t(2));
        QCOMPARE(SeedTables::parse("seed003c").size(), size_t(1));
        QVERIFY(SeedTables::parse("seed999").empty());
        for (const auto& name : SeedTables::names()) {
            QVERIFY2(!SeedTables::parse(name).empty(), name.c_str());
        }
    }

    void workshopStepOneIsOneRowPerBatchSize() {
        SweepResult r;
        for (const int64_t b : {4, 8, 16}) {
            r.points.push_back(point(b, 128));
        }
        r.points.push_back(point(8, 256));  // alone at its length: not in the batch table
        const auto t =
            SeedTables::make(SeedTables::Kind::Seed000Step1, r, TableExporter::Units::Readable);
        QCOMPARE(t.columns,
                 std::vector<std::string>({"Batch Size", "Peak Memory (MB)", "Avg Memory (MB)",
                                           "Training Speed (samples/sec)"}));
        QCOMPARE(t.rows.size(), size_t(3));
        QCOMPARE(t.rows[0][0], std::string("4"));
        QCOMPARE(t.rows[2][0], std::string("16"));
        QCOMPARE(t.rows[1][1], mb(r.points[1].peak_bytes));
        QCOMPARE(t.rows[1][2], mb(r.points[1].avg_bytes));
    }

    void workshopStepThreeScalingPattern() {
        SweepResult r;
        for (const int64_t s : {64, 128, 256}) {
            r.points.push_back(point(8, s));
        }
        r.points.push_back(point(4, 512));  // the workshop's own 512 row runs at batch 4
        r.points.push_back(point(16, 128));
        const auto t =
            SeedTables::make(SeedTables::Kind::Seed000Step3, r, TableExporter::Units::Readable);
        QCOMPARE(t.columns.size(), size_t(5));
        QCOMPARE(t.rows.size(), size_t(4));
        QCOMPARE(t.rows[1][1], std::string("8"));  // batch 8 at 128, not 16
        QCOMPARE(t.rows[3][0], std::string("512"));
        QCOMPARE(t.rows[3][1], std::string("4"));
        QCOMPARE(t.rows[0][4], std::string("baseline"));
        for (size_t i = 1; i < 4; ++i) {
            QVERIFY2(QString::fromStdString(t.rows[i][4]).startsWith("quadratic (S^2.00)"),
                     t.rows[i][4].c_str());
        }
        const double per_token = double(r.points[0].peak_bytes) / (8 * 64) / 1024;
        QCOMPARE(t.rows[0][3], QString::number(per_token, 'f', 1).toStdString());
    }

    void oomPointsAndSeveralSettings() {
        SweepResult r;
        for (const int64_t s : {64, 128}) {
            r.points.push_back(point(8, s));
            r.points.push_back(
                point(8, s, ProfileType::Training, Dtype::Float32, AttentionKind::MemoryEfficient));
        }
        r.points[2].status = SweepPointResult::Status::OutOfMemory;
        const auto t =
            SeedTables::make(SeedTables::Kind::Seed000Step3, r, TableExporter::Units::Readable);
        QCOMPARE(t.columns[0], std::string("Setting"));
        QCOMPARE(t.rows.size(), size_t(4));
        QVERIFY(QString::fromStdString(t.rows[0][0]).contains("eager"));
        QVERIFY(QString::fromStdString(t.rows[2][0]).contains("memory-efficient"));
        QCOMPARE(t.rows[1][3], std::string("OOM"));
        QCOMPARE(t.rows[1][5], std::string("—"));
        // The Setting column is SeedTables::setting: the options that do not vary in the table.
        QCOMPARE(t.rows[2][0],
                 SeedTables::setting(SeedTables::Kind::Seed000Step3, r.points[1].options));
        TrainOptions sgd = r.points[0].options;
        sgd.optimizer = OptimizerKind::Sgd;
        const std::string step1 = SeedTables::setting(SeedTables::Kind::Seed000Step1, sgd);
        QVERIFY2(step1.find("seq 64") != std::string::npos, step1.c_str());
        QVERIFY2(step1.find("batch") == std::string::npos, step1.c_str());
        QVERIFY2(step1.find("sgd") != std::string::npos, step1.c_str());  // not AdamW's group
    }

    void cs336QuestionsBAndC() {
        SweepResult r;
        for (const int64_t s : {128, 256, 512}) {
            for (const auto profile : {ProfileType::Forward, ProfileType::Training}) {
                for (const auto dtype : {Dtype::Float32, Dtype::BFloat16}) {
                    r.points.push_back(point(4, s, profile, dtype));
                }
            }
        }
        const auto b =
            SeedTables::make(SeedTables::Kind::Seed003b, r, TableExporter::Units::Readable);
        // Two precisions: two groups of rows, each with forward and training peaks.
        QCOMPARE(b.columns.size(), size_t(4));
        QCOMPARE(b.columns[0], std::string("Setting"));
        QCOMPARE(b.rows.size(), size_t(6));
        QCOMPARE(b.rows[0][1], std::string("128"));
        QCOMPARE(b.rows[0][2], mb(r.points[0].peak_bytes));  // forward fp32 at 128
        QCOMPARE(b.rows[0][3], mb(r.points[2].peak_bytes));  // training fp32 at 128

        const auto c =
            SeedTables::make(SeedTables::Kind::Seed003c, r, TableExporter::Units::Readable);
        QCOMPARE(c.columns.size(), size_t(5));
        QCOMPARE(c.columns[0], std::string("Context Length"));
        QCOMPARE(c.rows.size(), size_t(3));
        QCOMPARE(c.rows[2][0], std::string("512"));
        QCOMPARE(c.rows[2][1], mb(r.points[8].peak_bytes));
        QCOMPARE(c.rows[2][2], mb(r.points[9].peak_bytes));
        QCOMPARE(c.rows[2][3], mb(r.points[10].peak_bytes));
        QCOMPARE(c.rows[2][4], mb(r.points[11].peak_bytes));
        // A missing combination reads "—".
        r.points.pop_back();
        const auto missing =
            SeedTables::make(SeedTables::Kind::Seed003c, r, TableExporter::Units::Readable);
        QCOMPARE(missing.rows[2][4], std::string("—"));
    }

    void problemSizesAndExports() {
        SweepResult r;
        r.points.push_back(point(8, 256));
        r.points.back().options.preset = "study-small";
        r.points.back().options.model = TrainOptions::fromPreset("study-small").model;
        r.points.back().parameters = 20'900'000;
        r.points.push_back(point(8, 128));
        r.points.back().options.preset = "study-tiny";
        r.points.back().options.model = TrainOptions::fromPreset("study-tiny").model;
        r.planned_points = 2;
        const auto t =
            SeedTables::make(SeedTables::Kind::Seed002Sizes, r, TableExporter::Units::Readable);
        QCOMPARE(t.columns.size(), size_t(5));
        QCOMPARE(t.rows.size(), size_t(2));
        QVERIFY(QString::fromStdString(t.rows[0][0]).startsWith("study-tiny"));  // smaller first
        QCOMPARE(t.rows[1][1], std::string("20.90M"));
        const auto raw =
            SeedTables::make(SeedTables::Kind::Seed002Sizes, r, TableExporter::Units::Raw);
        QCOMPARE(raw.rows[1][1], std::string("20900000"));
        const QString csv = QString::fromStdString(TableExporter::toCsv(raw));
        QCOMPARE(csv.split('\n', Qt::SkipEmptyParts).size(), 3);
        const QString md = QString::fromStdString(
            SeedTables::markdown(r, {SeedTables::Kind::Points, SeedTables::Kind::Seed002Sizes,
                                     SeedTables::Kind::Seed000Step3}));
        QVERIFY(md.contains("## Sweep points"));
        QVERIFY(md.contains("| Problem Size |"));
        QVERIFY(md.contains("The sweep has no points for this table"));  // one length per model
    }
};

QTEST_GUILESS_MAIN(TestSeedTables)
#include "test_seed_tables.moc"
