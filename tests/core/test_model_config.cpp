// Configuration validation, presets, and exact parameter / FLOP counts.

#include "model/config_error.h"
#include "model/model_cost.h"
#include "model/preset.h"
#include "model/tiny_llama.h"
#include "run/byte_size.h"
#include "run/parallel_rules.h"
#include "run/text_format.h"
#include "run/train_options.h"
#include "studies/sweep_spec.h"

#include <nlohmann/json.hpp>

#include <limits>

#include <QtTest/QtTest>

using namespace memscope;

namespace {

int64_t builtParameters(const TinyLlamaConfig& config, AttentionKind kind) {
    TinyLlama model(config, kind);
    int64_t n = 0;
    for (const auto& p : model->parameters()) {
        n += p.numel();
    }
    return n;
}

// The option a ConfigError names, or "" if none was thrown.
template <typename F>
QString rejectedOption(F&& f) {
    try {
        f();
    } catch (const ConfigError& e) {
        return QString::fromStdString(e.option());
    }
    return {};
}

}  // namespace

class TestModelConfig : public QObject {
    Q_OBJECT

  private slots:
    void workshopDefaultHasTheDocumentedParameterCount() {
        const auto* preset = Preset::find("workshop-default");
        QVERIFY(preset != nullptr);
        QCOMPARE(ModelCost::parameters(preset->model).total(), int64_t(2'617'600));
        QCOMPARE(builtParameters(preset->model, AttentionKind::Eager), int64_t(2'617'600));
        // fused projections hold the same weights in fewer tensors
        QCOMPARE(builtParameters(preset->model, AttentionKind::Fused), int64_t(2'617'600));
        QCOMPARE(preset->batch_size, int64_t(8));
        QCOMPARE(preset->seq_len, int64_t(128));
    }

    void presetParameterCounts_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("expected");
        // Derived by hand: V*D + L*(2D + 2D^2 + 2*D*kv + 3*D*F) + D (+ V*D untied).
        QTest::newRow("study-tiny") << "study-tiny" << qint64(4'190'464);
        QTest::newRow("study-small") << "study-small" << qint64(31'977'984);
        QTest::newRow("study-medium") << "study-medium" << qint64(189'793'280);
        QTest::newRow("study-large") << "study-large" << qint64(1'008'748'544);
        QTest::newRow("study-very_large") << "study-very_large" << qint64(6'044'094'464);
        QTest::newRow("cs336 small") << "small" << qint64(128'625'408);
        QTest::newRow("cs336 medium") << "medium" << qint64(423'183'360);
        QTest::newRow("cs336 large") << "large" << qint64(969'411'840);
        QTest::newRow("cs336 xl") << "xl" << qint64(1'998'235'200);
        QTest::newRow("cs336 2.7B") << "2.7B" << qint64(3'406'809'600);
    }

    void presetParameterCounts() {
        QFETCH(QString, name);
        QFETCH(qint64, expected);
        const auto* preset = Preset::find(name.toStdString());
        QVERIFY(preset != nullptr);
        preset->model.validate();
        QCOMPARE(ModelCost::parameters(preset->model).total(), int64_t(expected));
    }

    void parameterFormulaMatchesBuiltModels() {
        TinyLlamaConfig c;
        c.hidden_dim = 48, c.n_layers = 2, c.n_heads = 6, c.n_kv_heads = 2;
        c.intermediate_dim = 80, c.vocab_size = 97;
        for (bool tied : {true, false}) {
            c.tie_embeddings = tied;
            QCOMPARE(builtParameters(c, AttentionKind::Eager), ModelCost::parameters(c).total());
        }
    }

    void cs336PresetsAreUntiedWithoutGqa() {
        const auto* p = Preset::find("2.7B");
        QVERIFY(p != nullptr);
        QCOMPARE(p->model.hidden_dim, int64_t(2560));
        QCOMPARE(p->model.intermediate_dim, int64_t(10240));
        QCOMPARE(p->model.n_layers, int64_t(32));
        QCOMPARE(p->model.n_heads, int64_t(32));
        QCOMPARE(p->model.n_kv_heads, int64_t(32));
        QCOMPARE(p->model.vocab_size, int64_t(10000));
        QVERIFY(!p->model.tie_embeddings);
        QCOMPARE(p->batch_size, int64_t(4));
        QCOMPARE(p->seq_len, int64_t(512));
    }

    // One equality of shapes (issue 54: a sweep restated operator== without three fields):
    // sameShape is operator== without the sequence limit, RoPE's base and the norms' epsilon,
    // and a sweep names a point by its preset exactly when the shapes agree.
    void sameShapeIsEqualityWithoutTheLimitAndTwoNumbers() {
        const TinyLlamaConfig base = Preset::find("workshop-default")->model;
        TinyLlamaConfig other = base;
        other.max_seq_len *= 2;
        other.rope_theta /= 2;
        other.norm_eps *= 10;
        QVERIFY(other.sameShape(base));
        QVERIFY(!(other == base));
        for (int64_t TinyLlamaConfig::*field :
             {&TinyLlamaConfig::vocab_size, &TinyLlamaConfig::hidden_dim,
              &TinyLlamaConfig::n_layers, &TinyLlamaConfig::n_heads, &TinyLlamaConfig::n_kv_heads,
              &TinyLlamaConfig::intermediate_dim}) {
            TinyLlamaConfig wider = base;
            wider.*field += 1;
            QVERIFY(!wider.sameShape(base));
        }
        TinyLlamaConfig untied = base;
        untied.tie_embeddings = !base.tie_embeddings;
        QVERIFY(!untied.sameShape(base));

        // A sequence longer than the preset's limit raises it and keeps the preset's name.
        TrainOptions longer =
            TrainOptions::withChanges(nlohmann::json{{"seq_len", base.max_seq_len * 2}},
                                      TrainOptions::fromPreset("workshop-default"));
        QVERIFY(longer.model.max_seq_len > base.max_seq_len);
        QCOMPARE(SweepSpec::modelName(longer), std::string("workshop-default"));
        longer.model.hidden_dim = 128;
        QVERIFY(SweepSpec::modelName(longer).rfind("custom", 0) == 0);
    }

    void flopsFollowTheStatedConvention() {
        const auto c = Preset::find("workshop-default")->model;
        // Per layer at B=8, S=128 (1024 tokens):
        //   q,o: 2*1024*256*256 each; k,v: 2*1024*256*128 each        = 402,653,184
        //   gate, up, down: 3 * 2*1024*256*512                        = 805,306,368
        //   QK^T and PV: 2 * 2*8*8*128*128*32                          = 134,217,728
        // LM head: 2*1024*256*1000                                     = 524,288,000
        const double layer = 402'653'184.0 + 805'306'368.0 + 134'217'728.0;
        const double forward = 4 * layer + 524'288'000.0;
        QCOMPARE(ModelCost::layerForwardFlops(c, 8, 128), layer);
        const auto training = ModelCost::stepFlops(c, 8, 128, true, false, AttentionKind::Eager);
        QCOMPARE(training.forward, forward);
        QCOMPARE(training.model(), 3 * forward);
        QCOMPARE(training.executed(), 3 * forward);
        const auto inference = ModelCost::stepFlops(c, 8, 128, false, false, AttentionKind::Eager);
        QCOMPARE(inference.model(), forward);
        const auto checkpointed = ModelCost::stepFlops(c, 8, 128, true, true, AttentionKind::Eager);
        QCOMPARE(checkpointed.model(), 3 * forward);
        QCOMPARE(checkpointed.executed(), 3 * forward + 4 * layer);
    }

    void invalidConfigurationsNameTheOption_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("option");
        QTest::newRow("heads do not divide hidden") << "n_heads" << qint64(7) << "--num-heads";
        QTest::newRow("kv heads do not divide heads")
            << "n_kv_heads" << qint64(3) << "--num-kv-heads";
        QTest::newRow("odd head dim")
            << "hidden_dim" << qint64(264) << "--num-heads";  // 264/8 = 33
        QTest::newRow("zero hidden") << "hidden_dim" << qint64(0) << "--hidden-dim";
        QTest::newRow("negative layers") << "n_layers" << qint64(-1) << "--num-layers";
        QTest::newRow("zero vocab") << "vocab_size" << qint64(0) << "--vocab-size";
        QTest::newRow("zero intermediate")
            << "intermediate_dim" << qint64(0) << "--intermediate-dim";
        QTest::newRow("seq longer than max") << "seq_len" << qint64(4096) << "--seq-len";
        QTest::newRow("zero batch") << "batch_size" << qint64(0) << "--batch-size";
        QTest::newRow("zero steps") << "num_steps" << qint64(0) << "--num-steps";
    }

    void invalidConfigurationsNameTheOption() {
        QFETCH(QString, field);
        QFETCH(qint64, value);
        QFETCH(QString, option);
        TrainOptions o;
        if (field == "n_heads")
            o.model.n_heads = value;
        if (field == "n_kv_heads")
            o.model.n_kv_heads = value;
        if (field == "hidden_dim")
            o.model.hidden_dim = value;
        if (field == "n_layers")
            o.model.n_layers = value;
        if (field == "vocab_size")
            o.model.vocab_size = value;
        if (field == "intermediate_dim")
            o.model.intermediate_dim = value;
        if (field == "seq_len")
            o.seq_len = value;
        if (field == "batch_size")
            o.batch_size = value;
        if (field == "num_steps")
            o.num_steps = value;
        QCOMPARE(rejectedOption([&] { o.validate(); }), option);
    }

    void defaultsAreValid() {
        QCOMPARE(rejectedOption([] { TrainOptions().validate(); }), QString());
    }

    void fp16OnCpuIsRejected() {
        TrainOptions o;
        o.dtype = Dtype::Float16;
        QCOMPARE(rejectedOption([&] { o.validate(); }), QString("--dtype"));
    }

    void unknownPresetIsRejected() {
        QCOMPARE(rejectedOption([] { TrainOptions::fromPreset("gigantic"); }), QString("--preset"));
    }

    void byteSizesParse() {
        QCOMPARE(parseByteSize("512MiB").value_or(-1), int64_t(512) << 20);
        QCOMPARE(parseByteSize("1.5 GiB").value_or(-1), int64_t(3) << 29);
        QCOMPARE(parseByteSize("800MB").value_or(-1), int64_t(800'000'000));
        QCOMPARE(parseByteSize("4096").value_or(-1), int64_t(4096));
        QCOMPARE(parseByteSize("2k").value_or(-1), int64_t(2048));
        QVERIFY(!parseByteSize("lots"));
        QVERIFY(!parseByteSize("-1MiB"));
        QVERIFY(!parseByteSize("12 parsecs"));
        QVERIFY(!parseByteSize(""));
    }

    void wholeNumbersGroupTheirDigits() {
        QCOMPARE(withThousands(0), std::string("0"));
        QCOMPARE(withThousands(999), std::string("999"));
        QCOMPARE(withThousands(1000), std::string("1,000"));
        QCOMPARE(withThousands(2617600), std::string("2,617,600"));
        QCOMPARE(withThousands(-1234567), std::string("-1,234,567"));
    }

    // One reading of whole numbers, for the options and the rank variables: all of the text,
    // base 10, within int64_t.
    void wholeNumbersReadWhole() {
        QCOMPARE(parseWholeNumber("42").value_or(-7), int64_t(42));
        QCOMPARE(parseWholeNumber("-1").value_or(-7), int64_t(-1));
        QCOMPARE(parseWholeNumber("007").value_or(-7), int64_t(7));  // base 10, not octal
        QCOMPARE(parseWholeNumber("9223372036854775807").value_or(-7),
                 std::numeric_limits<int64_t>::max());
        for (const char* wrong : {"", "4x", "4.0", "0x10", "x", "9223372036854775808", "1 "}) {
            QVERIFY2(!parseWholeNumber(wrong), wrong);
        }
    }

    // The multi-process rules (ParallelRules), shared by the CLI and the run panel: each names
    // the option at fault; a single process is never refused by them.

    void parallelRulesNameTheOption() {
        TrainOptions o;
        ParallelRules::check(o, ParallelMode::None, 1);
        ParallelRules::check(o, ParallelMode::Zero3, 4);
        o.device = "tpu";
        ParallelRules::check(o, ParallelMode::None, 1);  // one process: not these rules' business
        const auto option_of = [](auto&& f) {
            try {
                f();
            } catch (const ConfigError& e) {
                return e.option();
            }
            return std::string("(accepted)");
        };
        QCOMPARE(option_of([&] { ParallelRules::check(o, ParallelMode::Ddp, 2); }),
                 std::string("--device"));
        o.device = "cuda:1";  // NCCL's: accepted here, refused later where LibTorch lacks it
        ParallelRules::check(o, ParallelMode::Ddp, 2);
        o.device = "cpu";
        o.profile = ProfileType::Forward;
        ParallelRules::check(o, ParallelMode::Ddp, 2);  // DDP runs forward passes
        QCOMPARE(option_of([&] { ParallelRules::check(o, ParallelMode::Zero1, 2); }),
                 std::string("--parallel"));
        QCOMPARE(option_of([&] { ParallelRules::check(o, ParallelMode::None, 0); }),
                 std::string("--nproc"));
        QCOMPARE(option_of([] { ParallelRules::checkBucket(0); }), std::string("--bucket-mib"));
        ParallelRules::checkBucket(0.5);
    }

    void optionsRoundTripThroughJson() {
        TrainOptions o = TrainOptions::fromPreset("study-small");
        o.dtype = Dtype::BFloat16;
        o.attention = AttentionKind::MemoryEfficient;
        o.checkpointing = Checkpointing::PerBlock;
        o.profile = ProfileType::Forward;
        o.threads = 3;
        const auto back = TrainOptions::fromJson(o.toJson());
        QVERIFY(back.model == o.model);
        QCOMPARE(back.batch_size, o.batch_size);
        QCOMPARE(back.seq_len, o.seq_len);
        QCOMPARE(int(back.dtype), int(o.dtype));
        QCOMPARE(int(back.attention), int(o.attention));
        QCOMPARE(int(back.checkpointing), int(o.checkpointing));
        QCOMPARE(int(back.profile), int(o.profile));
        QCOMPARE(back.threads, 3);
    }
};

QTEST_GUILESS_MAIN(TestModelConfig)
#include "test_model_config.moc"
