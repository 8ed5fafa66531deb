// The Planner's model: exact parameter counts, predicted peaks against measured runs, the
// CS336 2.7B published figures, multi-GPU sharding, the maximum batch search and errors that
// name the field.

#include "device/peak_flops.h"
#include "model/config_error.h"
#include "model/preset.h"
#include "model/tiny_llama.h"
#include "predict/memory_model.h"
#include "predict/plan_report.h"
#include "predict/planner.h"
#include "tiny_options.h"
#include "train/trainer.h"

#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include <cmath>
#include <limits>

using namespace memscope;

namespace {

constexpr double kGiB = double(1LL << 30);

DeviceDatabase devices() {
    return DeviceDatabase::load(MEMSCOPE_SOURCE_DIR "/resources/devices.yaml");
}

int64_t builtParameters(const TinyLlamaConfig& config) {
    TinyLlama model(config, AttentionKind::Eager);
    int64_t n = 0;
    for (const auto& p : model->parameters()) {
        n += p.numel();
    }
    return n;
}

template <typename F>
QString rejectedOption(F&& f) {
    try {
        f();
    } catch (const ConfigError& e) {
        return QString::fromStdString(e.option());
    }
    return {};
}

double relativeError(double predicted, double measured) {
    return std::fabs(predicted - measured) / measured;
}

PlanRequest gpuRequest(double billions, int64_t batch, int64_t seq) {
    PlanRequest r = PlanRequest::fromYaml("model: {size_billions: " + std::to_string(billions) +
                                          ", batch_size: " + std::to_string(batch) +
                                          ", sequence_length: " + std::to_string(seq) + "}\n");
    r.device = "NVIDIA H100";
    return r;
}

}  // namespace

class TestPredict : public QObject {
    Q_OBJECT

  private slots:
    void parameterCountsAreExact_data() {
        QTest::addColumn<bool>("tied");
        QTest::addColumn<int>("kvHeads");
        QTest::newRow("tied GQA") << true << 2;
        QTest::newRow("untied MHA") << false << 4;
    }
    void parameterCountsAreExact() {
        QFETCH(bool, tied);
        QFETCH(int, kvHeads);
        auto o = tinyTrainOptions();
        o.model.tie_embeddings = tied;
        o.model.n_kv_heads = kvHeads;
        QCOMPARE(MemoryModel::predict(o).parameters, builtParameters(o.model));
    }

    // The memory model against the trainer's allocation hook on tiny runs.
    void predictedPeakMatchesMeasured_data() {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("attention");
        QTest::addColumn<bool>("checkpoint");
        QTest::addColumn<bool>("training");
        QTest::newRow("fp32 eager training") << "fp32"
                                             << "eager" << false << true;
        QTest::newRow("bf16 memory-efficient training") << "bf16"
                                                        << "memory-efficient" << false << true;
        QTest::newRow("fp32 eager checkpointed") << "fp32"
                                                 << "eager" << true << true;
        QTest::newRow("fp32 eager forward-only") << "fp32"
                                                 << "eager" << false << false;
    }
    void predictedPeakMatchesMeasured() {
        QFETCH(QString, dtype);
        QFETCH(QString, attention);
        QFETCH(bool, checkpoint);
        QFETCH(bool, training);
        auto o = tinyTrainOptions();
        o.seq_len = 32;
        o.dtype = *parseDtype(dtype.toStdString());
        o.attention = *parseAttentionKind(attention.toStdString());
        o.checkpointing = checkpoint ? Checkpointing::PerBlock : Checkpointing::None;
        o.profile = training ? ProfileType::Training : ProfileType::Forward;
        const auto predicted = MemoryModel::predict(o);
        Trainer trainer(o);
        trainer.setMeasurePeakFlops(false);
        const auto measured = trainer.run();
        QVERIFY2(measured.error.empty(), measured.error.c_str());
        QVERIFY2(
            relativeError(double(predicted.peak()), double(measured.peak_allocated_bytes)) < 0.03,
            qPrintable(QString("predicted %1, measured %2")
                           .arg(predicted.peak())
                           .arg(measured.peak_allocated_bytes)));
        QVERIFY(relativeError(double(predicted.first_step.peak),
                              double(measured.step1PeakAllocated())) < 0.03);
        if (training) {
            QVERIFY(relativeError(double(predicted.steady_step.peak),
                                  double(measured.steadyPeakAllocated())) < 0.03);
            // AdamW creates its state during step 1: the steady step needs more
            QVERIFY(predicted.steady_step.peak > predicted.first_step.peak);
        }
    }

    void componentsAtEndOfStepAreModelStates() {
        auto o = tinyTrainOptions();
        const auto p = MemoryModel::predict(o);
        const auto& at = p.steady_step.at_end_of_forward;
        QCOMPARE(at[int(MemoryComponent::Parameters)], 4 * p.parameters);
        QCOMPARE(at[int(MemoryComponent::Gradients)], 4 * p.parameters);
        QCOMPARE(at[int(MemoryComponent::OptimizerState)], 8 * p.parameters);
        QVERIFY(at[int(MemoryComponent::Activations)] > 0);
        QCOMPARE(p.first_step.at_end_of_forward[int(MemoryComponent::OptimizerState)], 0);
    }

    // CS336 assignment 2, 2.7B model, batch 4, fp32 (shared/reference/memory-model.md): forward
    // peak about 12.90 GiB at context 128, full step about 51.39 GiB, measured with PyTorch 2.x
    // on a GPU (gradients set to None by zero_grad()).
    void cs336PublishedFiguresWithinFivePercent() {
        auto o = TrainOptions::fromPreset("2.7B");
        o.batch_size = 4;
        o.seq_len = 128;
        MemoryModel::Semantics pytorch2;
        pytorch2.grads_set_to_none = true;
        pytorch2.sdpa_is_flash = true;
        o.profile = ProfileType::Forward;
        const double forward = double(MemoryModel::predict(o, pytorch2).peak()) / kGiB;
        QVERIFY2(relativeError(forward, 12.90) < 0.05, qPrintable(QString::number(forward)));
        o.profile = ProfileType::Training;
        const double step = double(MemoryModel::predict(o, pytorch2).peak()) / kGiB;
        QVERIFY2(relativeError(step, 51.39) < 0.05, qPrintable(QString::number(step)));
        // Memscope's own semantics keep gradients, so the steady step needs more
        QVERIFY(double(MemoryModel::predict(o).peak()) / kGiB > step);
    }

    // Data parallel replayed rank by rank as ParallelEngine runs it: DDP adds the flat
    // gradient buffer (padded to a multiple of the ranks), ZeRO-1 shards the optimizer state,
    // ZeRO-2 the gradients too, ZeRO-3 the parameters per group (root and every block).
    void dataParallelReplayShardsModelStates() {
        auto o = tinyTrainOptions();
        const auto single = MemoryModel::predict(o);
        const int64_t P = single.parameters;
        const int64_t pad = (P + 1) / 2 * 2;
        const auto& c = o.model;
        const int64_t root =
            c.vocab_size * c.hidden_dim * (c.tie_embeddings ? 1 : 2) + c.hidden_dim;
        const int64_t block = (P - root) / c.n_layers;
        const int64_t zero3_shard = (root + 1) / 2 + c.n_layers * ((block + 1) / 2);
        const int64_t expected[4][3] = {{4 * P, 4 * pad, 8 * P},
                                        {4 * pad, 4 * pad, 8 * (pad / 2)},
                                        {4 * pad, 4 * (pad / 2), 8 * (pad / 2)},
                                        {4 * zero3_shard, 4 * zero3_shard, 8 * zero3_shard}};
        int64_t peaks[4] = {};
        for (int stage = 0; stage <= 3; ++stage) {
            MemoryModel::DataParallel dp;
            dp.ranks = 2;
            dp.zero_stage = stage;
            const auto p = MemoryModel::predict(o, {}, dp);
            const auto& at = p.steady_step.at_end_of_forward;
            QCOMPARE(at[int(MemoryComponent::Parameters)], expected[stage][0]);
            QCOMPARE(at[int(MemoryComponent::Gradients)], expected[stage][1]);
            QCOMPARE(at[int(MemoryComponent::OptimizerState)], expected[stage][2]);
            // Activations do not depend on the sharding.
            QCOMPARE(at[int(MemoryComponent::Activations)],
                     single.steady_step.at_end_of_forward[int(MemoryComponent::Activations)]);
            peaks[stage] = p.steady_step.peak;
        }
        // ZeRO-1 and ZeRO-3 need less than DDP. ZeRO-2's full gradients and reduce bucket
        // exist together at the end of the backward, and ZeRO-3's gathered copies come on top
        // of the activations, so on a model this small neither need be below the stage before.
        QVERIFY(peaks[1] < peaks[0]);
        QVERIFY(peaks[3] < peaks[0]);
        // One rank is the single-process replay.
        MemoryModel::DataParallel alone;
        QCOMPARE(MemoryModel::predict(o, {}, alone).steady_step.peak, single.steady_step.peak);
        MemoryModel::DataParallel bad;
        bad.ranks = 2;
        bad.zero_stage = 4;
        QCOMPARE(rejectedOption([&] { MemoryModel::predict(o, {}, bad); }),
                 QStringLiteral("--zero-stage"));
    }

    void shardingOrdersPerGpuMemory() {
        Planner planner(devices(), &PeakFlops::measureCpu);
        auto base = gpuRequest(7, 32, 2048);
        base.parallel.gpus = 8;
        base.parallel.strategy = ParallelStrategy::DataParallel;
        int64_t previous = planner.evaluate(base).per_gpu_total;
        for (int stage = 1; stage <= 3; ++stage) {
            auto zero = base;
            zero.parallel.zero_stage = stage;
            const auto bytes = planner.evaluate(zero).per_gpu_total;
            QVERIFY2(bytes < previous, qPrintable(QString("ZeRO-%1").arg(stage)));
            previous = bytes;
        }
        auto tp = base;
        tp.parallel.strategy = ParallelStrategy::TensorParallel;
        const auto tensor = planner.evaluate(tp);
        const auto data = planner.evaluate(base);
        // tensor parallel keeps the whole batch on every GPU but splits weights and most
        // activations: less than one GPU running the same batch, weights below data parallel
        auto one_gpu = base;
        one_gpu.parallel.gpus = 1;
        one_gpu.parallel.strategy = ParallelStrategy::Single;
        QVERIFY(tensor.per_gpu_total < planner.evaluate(one_gpu).per_gpu_total);
        QVERIFY(tensor.per_gpu[int(MemoryComponent::Parameters)] <
                data.per_gpu[int(MemoryComponent::Parameters)]);
        QCOMPARE(tensor.micro_batch, 32);  // tensor parallel does not split the batch
        QCOMPARE(data.micro_batch, 4);
        QVERIFY(tensor.time.communication_s > 0);
        QVERIFY(tensor.time.scaling_efficiency < 1.0);
        auto pp = base;
        pp.parallel.strategy = ParallelStrategy::PipelineParallel;
        const auto pipeline = planner.evaluate(pp);
        QVERIFY(pipeline.time.bubble_s > 0);
        QVERIFY(pipeline.per_gpu[int(MemoryComponent::Parameters)] <
                data.per_gpu[int(MemoryComponent::Parameters)]);
        // one GPU, no parallelism: the per-GPU allocated bytes are the model's peak
        auto single = gpuRequest(1.3, 4, 1024);
        const auto one = planner.evaluate(single);
        QCOMPARE(allocatedTotal(one.per_gpu), one.memory.peak());
        QVERIFY(one.per_gpu[int(MemoryComponent::Workspace)] > 0);
    }

    void maximumBatchIsTheLargestThatFits() {
        Planner planner(devices(), &PeakFlops::measureCpu);
        auto request = gpuRequest(1.3, 8, 2048);
        const auto best = planner.maxBatch(request);
        QVERIFY(best >= 1);
        request.workload.batch_size = best;
        QVERIFY(planner.evaluate(request).fits);
        request.workload.batch_size = best + 1;
        QVERIFY(!planner.evaluate(request).fits);
        // memory grows with the batch; a longer sequence allows a smaller batch
        int64_t previous = 0;
        for (int64_t b : {1, 2, 4, 8}) {
            request.workload.batch_size = b;
            const auto bytes = planner.evaluate(request).per_gpu_total;
            QVERIFY(bytes > previous);
            previous = bytes;
        }
        auto longer = gpuRequest(1.3, 8, 8192);
        QVERIFY(planner.maxBatch(longer) < best);
    }

    void recommendationsAreRecomputed() {
        Planner planner(devices(), &PeakFlops::measureCpu);
        auto request = gpuRequest(13, 32, 4096);
        request.bottlenecks = true;
        const auto result = planner.plan(request);
        QVERIFY(!result.fits);
        QVERIFY(!result.recommendations.empty());
        bool found_attention = false;
        for (const auto& rec : result.recommendations) {
            QVERIFY(rec.per_gpu_after < rec.per_gpu_before);
            if (rec.change == "--attention memory-efficient") {
                auto changed = request;
                changed.workload.attention = AttentionKind::MemoryEfficient;
                QCOMPARE(rec.per_gpu_after, planner.evaluate(changed).per_gpu_total);
                found_attention = true;
            }
        }
        QVERIFY(found_attention);
        bool attention_bottleneck = false;
        for (const auto& b : result.bottlenecks) {
            attention_bottleneck |= b.kind == "attention_memory";
        }
        QVERIFY(attention_bottleneck);
        const auto json = result.toJson();
        QVERIFY(json.contains("per_gpu_total_bytes"));
        QVERIFY(PlanReport::text(result).find("EXCEEDS CAPACITY") != std::string::npos);
        QVERIFY(PlanReport::csv(result).rfind("section,name,value,detail\n", 0) == 0);
    }

    void badYamlNamesTheField_data() {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("field");
        QTest::newRow("batch not a number") << "model: {size_billions: 7, batch_size: many}"
                                            << "model.batch_size";
        QTest::newRow("misspelt field") << "model: {size_billions: 7, sequence_lenght: 4096}"
                                        << "model.sequence_lenght";
        QTest::newRow("negative size") << "model: {size_billions: -1}"
                                       << "model.size_billions";
        QTest::newRow("unknown section") << "model: {preset: study-tiny}\nclusters: {}"
                                         << "clusters";
        QTest::newRow("no model") << "hardware: {gpu_type: H100}"
                                  << "model";
        QTest::newRow("bad strategy")
            << "model: {size_billions: 7}\ndistribution: {strategy: diagonal}"
            << "distribution.strategy";
        QTest::newRow("degrees do not multiply to the GPUs")
            << "model: {size_billions: 7}\ncluster: {num_gpus: 8}\n"
               "distribution: {strategy: hybrid, data_parallel: 3, tensor_parallel: 2}"
            << "distribution";
        QTest::newRow("impossible heads") << "model: {preset: study-tiny, num_heads: 7}"
                                          << "model";
        QTest::newRow("not yaml") << "model: [unclosed"
                                  << "config";
    }
    void badYamlNamesTheField() {
        QFETCH(QString, yaml);
        QFETCH(QString, field);
        QCOMPARE(rejectedOption([&] { PlanRequest::fromYaml(yaml.toStdString()); }), field);
    }

    void impossibleConfigurationsNameTheField() {
        Planner planner(devices(), &PeakFlops::measureCpu);
        auto request = gpuRequest(7, 30, 2048);
        request.parallel.gpus = 4;
        request.parallel.strategy = ParallelStrategy::DataParallel;
        QCOMPARE(rejectedOption([&] { planner.evaluate(request); }), QString("--batch-size"));
        request.workload.batch_size = 32;
        request.parallel.strategy = ParallelStrategy::TensorParallel;
        request.parallel.gpus = 3;
        QCOMPARE(rejectedOption([&] { planner.evaluate(request); }), QString("--strategy"));
        request.device = "Abacus 9000";
        QCOMPARE(rejectedOption([&] { planner.evaluate(request); }), QString("--gpu-type"));
    }

    // Sizes whose tensors could not exist are refused before any byte count overflows (the plan
    // request fuzzer found a batch of 2^63 - 1 overflowing the planner's shapes under UBSan).
    void sizesBeyondAnyDeviceAreRefused() {
        Planner planner(devices(), &PeakFlops::measureCpu);
        auto request = gpuRequest(7, 8, 2048);
        request.workload.batch_size = std::numeric_limits<int64_t>::max();
        QCOMPARE(rejectedOption([&] { planner.evaluate(request); }), QString("--batch-size"));
        QCOMPARE(rejectedOption([&] { request.workload.validate(); }), QString("--batch-size"));
        request.workload.batch_size = 8;
        request.workload.model.intermediate_dim = int64_t(1) << 55;
        QCOMPARE(rejectedOption([&] { planner.evaluate(request); }), QString("--intermediate-dim"));
        request.workload.model.intermediate_dim = 4096;
        request.workload.model.hidden_dim = int64_t(1) << 40;
        request.workload.model.n_heads = 1;
        request.workload.model.n_kv_heads = 1;
        QCOMPARE(rejectedOption([&] { MemoryModel::predict(request.workload, {}, {}); }),
                 QString("--hidden-dim"));
        // A real large model is not refused.
        QVERIFY(rejectedOption([&] { planner.evaluate(gpuRequest(70, 8, 4096)); }).isEmpty());
    }

    // The CPU has no peak in the database: the planner asks the measurement it was given
    // (memscope-cli and the GUI give PeakFlops::measureCpu), and without one says so.
    void cpuPeakComesFromTheGivenMeasurement() {
        auto request = gpuRequest(0.1, 1, 128);
        request.device = "CPU";
        int asked_threads = 0;
        Dtype asked_dtype = Dtype::Float32;
        Planner planner(devices(), [&](Dtype dtype, int threads) {
            asked_dtype = dtype;
            asked_threads = threads;
            return 123e9;
        });
        const auto result = planner.evaluate(request);
        QCOMPARE(result.time.peak_flops, 123e9);
        QVERIFY(asked_dtype == request.workload.dtype);
        QCOMPARE(asked_threads, request.workload.resolvedThreads());
        Planner without(devices(), {});
        QCOMPARE(rejectedOption([&] { without.evaluate(request); }), QString("--gpu-type"));
    }

    void deviceDatabaseErrorsNameTheField() {
        const auto bad = rejectedOption(
            [] { DeviceDatabase::parse("devices:\n  - {name: X, memory: lots}\n", "db.yaml"); });
        QCOMPARE(bad, QString("db.yaml: devices[0].memory"));
        const auto link = rejectedOption([] {
            DeviceDatabase::parse("devices:\n  - {name: X, memory: 1GiB, interconnect: yarn}\n",
                                  "db.yaml");
        });
        QCOMPARE(link, QString("db.yaml: devices[0].interconnect"));
        const auto db = devices();
        QVERIFY(db.find("nvidia h100") != nullptr);
        QVERIFY(db.find("MI300X") != nullptr);
        QVERIFY(db.find("H100")->interconnect_gbs > 0);
        QVERIFY(db.find("CPU")->memory_bytes > 0);
    }
};

QTEST_GUILESS_MAIN(TestPredict)
#include "test_predict.moc"
