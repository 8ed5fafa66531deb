// SweepSpec (lists, YAML, errors naming the field) and SweepRunner on a tiny grid: run files
// and sweep.json written, cancel keeps finished points, an emulated capacity marks OOM points.

#include "io/run_file.h"
#include "model/config_error.h"
#include "studies/sweep_runner.h"
#include "tiny_options.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <set>

using namespace memscope;

namespace {

SweepSpec tinySpec() {
    SweepSpec spec;
    spec.base = tinyTrainOptions();
    spec.base.model.n_layers = 1;
    spec.steps = 2;
    return spec;
}

// The option a ConfigError names, or "" when `f` does not throw one.
template <typename F>
std::string optionOfError(F f) {
    try {
        f();
    } catch (const ConfigError& e) {
        return e.option();
    }
    return "";
}

}  // namespace

class TestSweepRunner : public QObject {
    Q_OBJECT

  private slots:
    void listsParseAndBadItemsNameTheField() {
        QCOMPARE(SweepSpec::parseSizes("--batch-sizes", "4, 8,16,8", "batch_size"),
                 std::vector<int64_t>({4, 8, 16}));
        QCOMPARE(SweepSpec::parseCheckpointing("--checkpointing", "off,on"),
                 std::vector<Checkpointing>({Checkpointing::None, Checkpointing::PerBlock}));
        QCOMPARE(SweepSpec::parseAttentions("--attention", "eager,memory-efficient").size(),
                 size_t(2));
        QCOMPARE(
            optionOfError([] { SweepSpec::parseSizes("--batch-sizes", "4,eight", "batch_size"); }),
            std::string("--batch-sizes"));
        QCOMPARE(optionOfError([] { SweepSpec::parseSizes("--seq-lens", "0", "seq_len"); }),
                 std::string("--seq-lens"));
        QCOMPARE(optionOfError([] { SweepSpec::parseSizes("--seq-lens", ",", "seq_len"); }),
                 std::string("--seq-lens"));
        QCOMPARE(optionOfError([] { SweepSpec::parseDtypes("--dtypes", "fp32,int8"); }),
                 std::string("--dtypes"));
        QCOMPARE(optionOfError([] { SweepSpec::parsePresets("--presets", "huge"); }),
                 std::string("--presets"));
        QCOMPARE(optionOfError([] { SweepSpec::parseProfiles("--profile-types", "backward"); }),
                 std::string("--profile-types"));
    }

    void gridAndAxesModes() {
        SweepSpec spec = tinySpec();
        spec.batch_sizes = {1, 2, 4};
        spec.seq_lens = {16, 32};
        spec.attentions = {AttentionKind::Eager, AttentionKind::MemoryEfficient};
        QCOMPARE(spec.points().size(), size_t(3 * 2 * 2));
        spec.mode = SweepSpec::Mode::Axes;
        // batch 1,2,4 at seq 16 and seq 16,32 at batch 2 (the base): 4 sizes, x 2 attention.
        const auto points = spec.points();
        QCOMPARE(points.size(), size_t(4 * 2));
        for (const auto& p : points) {
            QVERIFY(p.options.seq_len == spec.base.seq_len ||
                    p.options.batch_size == spec.base.batch_size);
            QCOMPARE(p.options.num_steps, int64_t(2));
            QVERIFY(p.options.model.max_seq_len >= p.options.seq_len);
        }
        // Labels are unique: they name the run files.
        std::set<std::string> labels;
        for (const auto& p : points) {
            QVERIFY(labels.insert(p.label).second);
        }
        // Presets bring their own batch and sequence length.
        SweepSpec presets = tinySpec();
        presets.presets = {"study-tiny", "workshop-default"};
        const auto pp = presets.points();
        QCOMPARE(pp.size(), size_t(2));
        QCOMPARE(pp[0].options.preset, std::string("study-tiny"));
        QCOMPARE(pp[1].options.model.hidden_dim, int64_t(256));
    }

    void invalidPointsNameTheOption() {
        SweepSpec spec = tinySpec();
        spec.seq_lens = {16};
        spec.dtypes = {Dtype::Float16};  // needs a GPU
        QCOMPARE(optionOfError([&] { spec.points(); }), std::string("--dtype"));
    }

    void yamlMergesAndNamesFileAndKey() {
        SweepSpec spec = tinySpec();
        spec.mergeYaml(
            "batch_sizes: [1, 2]\nseq_lens: 16,32\nattention: [eager]\n"
            "checkpointing: [off, on]\nsteps: 1\ncapacity: 64MiB\nmode: axes\n",
            "s.yaml");
        QCOMPARE(spec.batch_sizes, std::vector<int64_t>({1, 2}));
        QCOMPARE(spec.seq_lens, std::vector<int64_t>({16, 32}));
        QCOMPARE(spec.checkpointing.size(), size_t(2));
        QCOMPARE(spec.steps, int64_t(1));
        QCOMPARE(spec.capacity_bytes, int64_t(64) << 20);
        QVERIFY(spec.mode == SweepSpec::Mode::Axes);
        QCOMPARE(optionOfError([&] { spec.mergeYaml("batchsizes: [1]\n", "s.yaml"); }),
                 std::string("s.yaml: batchsizes"));
        QCOMPARE(optionOfError([&] { spec.mergeYaml("seq_lens: [16, x]\n", "s.yaml"); }),
                 std::string("s.yaml: seq_lens"));
        QCOMPARE(optionOfError([&] { spec.mergeYaml("[1, 2]\n", "s.yaml"); }),
                 std::string("s.yaml"));
        QCOMPARE(optionOfError([&] { spec.mergeYaml("a: [1\n", "s.yaml"); }),
                 std::string("s.yaml"));
        QCOMPARE(optionOfError([&] { spec.mergeYamlFile("/nonexistent/s.yaml"); }),
                 std::string("--config"));
        // The spec survives its JSON form.
        const SweepSpec back = SweepSpec::fromJson(spec.toJson());
        QCOMPARE(back.points().size(), spec.points().size());
    }

    void tinyGridWritesRunFilesAndTheSweepFile() {
        QTemporaryDir dir;
        SweepSpec spec = tinySpec();
        spec.batch_sizes = {1, 2};
        spec.seq_lens = {16, 32};
        SweepRunner runner(spec, dir.path().toStdString());
        int started = 0, finished = 0, steps = 0, done = 0;
        runner.setProgressCallback([&](const SweepRunner::Progress& p) {
            using Stage = SweepRunner::Progress::Stage;
            QCOMPARE(p.total, size_t(4));
            started += p.stage == Stage::PointStarted;
            finished += p.stage == Stage::PointFinished;
            steps += p.stage == Stage::Step;
            done += p.stage == Stage::Done;
        });
        const SweepResult result = runner.run();
        QCOMPARE(started, 4);
        QCOMPARE(finished, 4);
        QCOMPARE(steps, 4 * 2);
        QCOMPARE(done, 1);
        QVERIFY(!result.cancelled);
        QCOMPARE(result.points.size(), size_t(4));
        for (const auto& p : result.points) {
            QVERIFY2(p.ok(), p.error.c_str());
            QCOMPARE(p.steps, int64_t(2));
            QVERIFY(p.peak_bytes > 0);
            QVERIFY(p.step1_peak_bytes > 0 && p.step1_peak_bytes <= p.peak_bytes);
            QVERIFY(p.steady_peak_bytes > 0);
            QVERIFY(p.avg_bytes > 0 && p.avg_bytes <= p.peak_bytes);
            QVERIFY(p.samples_per_s > 0);
            QCOMPARE(p.tokens_per_s, p.samples_per_s * double(p.options.seq_len));
            // fp32 parameters always, gradients and AdamW state (16 bytes in all) at most
            QVERIFY(p.static_bytes >= 4 * p.parameters && p.static_bytes <= 16 * p.parameters);
            const auto path = dir.filePath(QString::fromStdString(p.run_file)).toStdString();
            const Trace t = RunFile::load(path);
            QCOMPARE(t.meta.config.value("batch_size", int64_t(0)), p.options.batch_size);
            QCOMPARE(t.meta.config.value("seq_len", int64_t(0)), p.options.seq_len);
            QCOMPARE(t.summary.value("peak_allocated_bytes", int64_t(0)), p.peak_bytes);
        }
        // More tokens, more memory.
        QVERIFY(result.points[3].peak_bytes > result.points[0].peak_bytes);
        QVERIFY(result.points[1].peak_bytes > result.points[0].peak_bytes);

        const SweepResult back = SweepResult::load(dir.path().toStdString());
        QCOMPARE(back.points.size(), size_t(4));
        QCOMPARE(back.planned_points, int64_t(4));
        for (size_t i = 0; i < back.points.size(); ++i) {
            QCOMPARE(back.points[i].peak_bytes, result.points[i].peak_bytes);
            QCOMPARE(back.points[i].bytes_by_category_at_peak,
                     result.points[i].bytes_by_category_at_peak);
            QCOMPARE(back.points[i].label, result.points[i].label);
            QCOMPARE(back.points[i].options.seq_len, result.points[i].options.seq_len);
        }
        QCOMPARE(back.spec.batch_sizes, spec.batch_sizes);
    }

    void cancelKeepsFinishedPoints() {
        QTemporaryDir dir;
        SweepSpec spec = tinySpec();
        spec.batch_sizes = {1, 2, 4};
        spec.steps = 3;
        SweepRunner runner(spec, dir.path().toStdString());
        CancellationToken cancel;
        // Cancel while the second point trains.
        runner.setProgressCallback([&cancel](const SweepRunner::Progress& p) {
            if (p.stage == SweepRunner::Progress::Stage::Step && p.index == 1 && p.step == 1) {
                cancel.request();
            }
        });
        const SweepResult result = runner.run(&cancel);
        QVERIFY(result.cancelled);
        QCOMPARE(result.points.size(), size_t(1));
        QVERIFY(result.points[0].ok());
        QCOMPARE(result.points[0].options.batch_size, int64_t(1));
        const SweepResult back = SweepResult::load(dir.path().toStdString());
        QVERIFY(back.cancelled);
        QCOMPARE(back.points.size(), size_t(1));
        QCOMPARE(back.planned_points, int64_t(3));
        int files = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) {
            files += e.path().extension() == ".memscope";
        }
        QCOMPARE(files, 1);
    }

    void capacityMarksOutOfMemoryPointsAndGoesOn() {
        QTemporaryDir dir;
        SweepSpec probe = tinySpec();
        probe.batch_sizes = {2};
        probe.seq_lens = {32};
        const SweepResult small = SweepRunner(probe, dir.filePath("probe").toStdString()).run();
        QCOMPARE(small.points.size(), size_t(1));
        QVERIFY(small.points[0].ok());
        const int64_t capacity = small.points[0].peak_bytes + small.points[0].peak_bytes / 4;

        SweepSpec spec = tinySpec();
        spec.batch_sizes = {1, 32, 2};
        spec.seq_lens = {32};
        spec.capacity_bytes = capacity;
        const SweepResult r = SweepRunner(spec, dir.filePath("oom").toStdString()).run();
        QCOMPARE(r.points.size(), size_t(3));
        QCOMPARE(r.points[1].options.batch_size, int64_t(32));
        QVERIFY(r.points[1].status == SweepPointResult::Status::OutOfMemory);
        QVERIFY(r.points[1].error.find("out of memory") != std::string::npos);
        QVERIFY(r.points[1].oom_requested_bytes > 0);
        QCOMPARE(r.points[1].capacity_bytes, capacity);
        QVERIFY(r.points[1].peak_bytes <= capacity);
        // The OOM point keeps its run file; the sweep went on to the next point.
        QVERIFY(std::filesystem::exists(
            dir.filePath("oom/" + QString::fromStdString(r.points[1].run_file)).toStdString()));
        QCOMPARE(r.points[2].options.batch_size, int64_t(2));
        QCOMPARE(int(r.points[2].status), int(SweepPointResult::Status::Ok));
        QCOMPARE(int(SweepResult::load(dir.filePath("oom").toStdString()).points[1].status),
                 int(SweepPointResult::Status::OutOfMemory));
    }

    void badSweepFilesAreRefusedWithTheirName() {
        QTemporaryDir dir;
        const auto path = dir.filePath("sweep.json").toStdString();
        const auto expectError = [&](const std::string& text, const std::string& part) {
            std::ofstream(path) << text;
            try {
                SweepResult::load(dir.path().toStdString());
                QFAIL("no error");
            } catch (const std::runtime_error& e) {
                const std::string what = e.what();
                QVERIFY2(what.find(path) != std::string::npos, e.what());
                QVERIFY2(what.find(part) != std::string::npos, e.what());
            }
        };
        expectError("{", "not JSON");
        expectError("{\"format\": \"other\"}", "not a Memscope sweep");
        expectError("{\"format\": \"memscope-sweep\", \"version\": 9, \"points\": []}", "newer");
        expectError("{\"format\": \"memscope-sweep\", \"points\": [{\"peak_bytes\": \"x\"}]}",
                    "points[0]");
        expectError("{\"format\": \"memscope-sweep\"}", "points");
    }
};

QTEST_GUILESS_MAIN(TestSweepRunner)
#include "test_sweep_runner.moc"
