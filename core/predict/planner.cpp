#include "predict/planner.h"
#include "run/size_limits.h"

#include "model/config_error.h"
#include "model/model_cost.h"
#include "model/train_option_table.h"
#include "run/run_summary.h"
#include "run/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace memscope {

namespace {

constexpr double kDefaultMfu = 0.4;
constexpr double kTokensPerParameter = 20;  // Chinchilla

std::string percent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * share);
    return text;
}

int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

Planner::Planner(DeviceDatabase database, CpuPeakMeasure measure_cpu_peak)
    : m_database(std::move(database)), m_measureCpuPeak(std::move(measure_cpu_peak)) {}

const DeviceSpec& Planner::device(const std::string& name) const {
    const auto* spec = m_database.find(name);
    if (spec == nullptr) {
        throw ConfigError("--gpu-type", "unknown device '" + name +
                                            "' (known: " + joinedNames(m_database.names()) + ")");
    }
    return *spec;
}

PlanResult Planner::evaluate(const PlanRequest& request) const {
    PlanResult r;
    r.request = request;
    r.device = device(request.device);
    r.parallel = request.parallel.resolved();
    const auto& o = request.workload;
    const auto& p = r.parallel;
    const auto& c = o.model;
    SizeLimits::check(o);
    if (p.tensor > 1 && (c.n_heads % p.tensor != 0 || c.n_kv_heads % p.tensor != 0)) {
        throw ConfigError("--strategy", "tensor parallel degree " + std::to_string(p.tensor) +
                                            " must divide the query heads (" +
                                            std::to_string(c.n_heads) + ") and KV heads (" +
                                            std::to_string(c.n_kv_heads) + ")");
    }
    if (p.pipeline > c.n_layers) {
        throw ConfigError("--strategy", "pipeline degree " + std::to_string(p.pipeline) +
                                            " exceeds the layer count " +
                                            std::to_string(c.n_layers));
    }
    const int64_t group = int64_t(p.data) * p.micro_batches;
    if (o.batch_size % group != 0) {
        throw ConfigError(TrainOptionTable::flag("batch_size"),
                          "the global batch " + std::to_string(o.batch_size) +
                              " must be a multiple of data parallel x "
                              "micro-batches (" +
                              std::to_string(group) + ")");
    }
    r.micro_batch = o.batch_size / group;
    TrainOptions local = o;
    local.batch_size = r.micro_batch;
    // Pure data parallelism is replayed rank by rank as ParallelEngine runs it (flat buffers,
    // shards, gathered blocks, communication buffers); other layouts shard the single-GPU
    // replay's components below.
    const bool replay_parallel = p.data > 1 && p.tensor == 1 && p.pipeline == 1 && o.training();
    MemoryModel::DataParallel data_parallel;
    if (replay_parallel) {
        data_parallel.ranks = p.data;
        data_parallel.zero_stage = p.zero_stage;
    }
    r.memory = MemoryModel::predict(local, request.semantics, data_parallel);

    // Sharding. The memory model's breakdown is for one GPU holding the whole model; tensor
    // parallelism splits weights and most activations, pipeline stages hold a slice of the
    // layers, ZeRO shards optimizer state (1), gradients (2) and weights (3).
    const auto counts = ModelCost::parameters(c);
    const double total_params = double(counts.total());
    const int64_t stage_layers = ceilDiv(c.n_layers, p.pipeline);
    double stage_params = total_params;
    if (p.pipeline > 1) {
        const double first = double(counts.embedding + stage_layers * counts.per_layer);
        const double last = double(stage_layers * counts.per_layer + counts.final_norm +
                                   (c.tie_embeddings ? counts.embedding : counts.lm_head));
        stage_params = std::max(first, last);
    }
    const double weight_share = stage_params / double(p.tensor) / total_params;
    const double tensor_act = p.tensor > 1 ? (10.0 + 24.0 / p.tensor) / 34.0 : 1.0;
    const double pipeline_act =
        p.pipeline > 1
            ? double(stage_layers * std::min(p.pipeline, p.micro_batches)) / double(c.n_layers)
            : 1.0;
    const double act_share = tensor_act * pipeline_act;
    const int d = p.data;
    const int shard_d = replay_parallel ? 1 : d;  // the replay has sharded already
    auto shard = [&](const ComponentBytes& at) {
        ComponentBytes g{};
        auto set = [&](MemoryComponent m, double bytes) {
            g[static_cast<int>(m)] = int64_t(std::llround(bytes));
        };
        auto of = [&](MemoryComponent m) { return double(at[static_cast<int>(m)]); };
        set(MemoryComponent::Parameters,
            of(MemoryComponent::Parameters) * weight_share / (p.zero_stage >= 3 ? shard_d : 1));
        set(MemoryComponent::Gradients,
            of(MemoryComponent::Gradients) * weight_share / (p.zero_stage >= 2 ? shard_d : 1));
        set(MemoryComponent::OptimizerState,
            of(MemoryComponent::OptimizerState) * weight_share / (p.zero_stage >= 1 ? shard_d : 1));
        set(MemoryComponent::AutocastCache, of(MemoryComponent::AutocastCache) * weight_share);
        set(MemoryComponent::Inputs, of(MemoryComponent::Inputs));
        set(MemoryComponent::Activations, of(MemoryComponent::Activations) * act_share);
        set(MemoryComponent::LogitsLoss, of(MemoryComponent::LogitsLoss) / p.tensor);
        double temporaries = of(MemoryComponent::Temporaries) * tensor_act;
        if (p.zero_stage >= 3 && shard_d > 1) {
            temporaries += 4.0 * double(counts.per_layer) / p.tensor;  // one gathered layer
        }
        set(MemoryComponent::Temporaries, temporaries);
        const double allocated = double(allocatedTotal(g));
        if (r.device.gpu) {
            set(MemoryComponent::Workspace, double(r.device.context_bytes));
            set(MemoryComponent::AllocatorOverhead, allocated * (r.device.reserved_factor - 1));
        }
        return g;
    };
    const ComponentBytes candidates[] = {shard(r.memory.first_step.at_peak),
                                         shard(r.memory.steady_step.at_peak),
                                         shard(r.memory.steady_step.at_end_of_forward)};
    r.per_gpu_steady_total = std::max(total(candidates[1]), total(candidates[2]));
    for (const auto& candidate : candidates) {
        if (total(candidate) > r.per_gpu_total) {
            r.per_gpu = candidate;
            r.per_gpu_total = total(candidate);
        }
    }
    if (request.capacity_bytes > 0) {
        r.capacity = request.capacity_bytes;
        r.usable = r.capacity;
    } else if (!r.device.gpu && o.device_memory_limit > 0) {
        r.capacity = o.device_memory_limit;  // the emulated device of a CPU run
        r.usable = r.capacity;
    } else {
        r.capacity = r.device.memory_bytes;
        r.usable = r.device.usableBytes();
    }
    r.fits = r.per_gpu_total <= r.usable;
    r.headroom = r.usable - r.per_gpu_total;

    // Time
    auto& t = r.time;
    t.flops_per_step = ModelCost::stepFlops(c, o.batch_size, o.seq_len, o.training(),
                                            o.checkpointing == Checkpointing::PerBlock, o.attention)
                           .executed();
    t.peak_flops = r.device.peakFlops(o.dtype);
    if (t.peak_flops <= 0 && !r.device.gpu) {
        if (o.dtype == Dtype::Float16) {
            throw ConfigError(TrainOptionTable::flag("dtype"),
                              "fp16 autocast needs a GPU; on " + r.device.name + " use bf16");
        }
        if (!m_measureCpuPeak) {
            throw ConfigError("--gpu-type", "the device database has no " + toString(o.dtype) +
                                                " peak for " + r.device.name +
                                                " and this planner cannot measure one");
        }
        try {
            t.peak_flops = m_measureCpuPeak(o.dtype, o.resolvedThreads());
        } catch (const std::exception& e) {
            throw ConfigError(TrainOptionTable::flag("dtype"), "cannot measure the " +
                                                                   toString(o.dtype) + " peak of " +
                                                                   r.device.name + ": " + e.what());
        }
    }
    if (t.peak_flops <= 0) {
        throw ConfigError(
            TrainOptionTable::flag("dtype"),
            r.device.name + " has no " + toString(o.dtype) + " peak in the device database");
    }
    t.mfu = request.mfu > 0 ? request.mfu : kDefaultMfu;
    t.mfu_source = request.mfu > 0 ? request.mfu_source : "assumed";
    t.compute_s = t.flops_per_step / (double(p.gpus) * t.peak_flops * t.mfu);
    double link = r.device.interconnect_gbs;
    if (!p.interconnect.empty()) {
        link = m_database.interconnectBandwidth(p.interconnect);
        if (link < 0) {
            throw ConfigError("--interconnect", "unknown interconnect '" + p.interconnect + "'");
        }
    }
    if (link <= 0) {
        link = p.network_gbs;
    }
    const double dp_link = p.nodes() > 1 ? std::min(link, p.network_gbs) : link;
    const double e = o.dtype == Dtype::Float32 ? 4.0 : 2.0;
    const double boundary = double(r.micro_batch) * double(o.seq_len) * double(c.hidden_dim) * e;
    double dp_bytes = 0, tp_bytes = 0, pp_bytes = 0;
    if (o.training() && d > 1) {
        const double grads = 4.0 * total_params * weight_share;
        // Ring algorithms, bytes each GPU sends: DDP all-reduces the gradients (2(d-1)/d x G);
        // ZeRO-1 all-reduces them too and all-gathers the updated parameters ((d-1)/d x G
        // more); ZeRO-2 reduce-scatters them instead ((d-1)/d) before that all-gather; ZeRO-3
        // all-gathers each block's parameters twice (forward, backward) and reduce-scatters;
        // the parameters outside the blocks (embedding, final norm, head) are gathered once,
        // before the forward, and stay until the step ends (as FSDP's root unit).
        const double passes = p.zero_stage == 1   ? 3.0
                              : p.zero_stage == 2 ? 2.0
                              : p.zero_stage >= 3 ? 3.0
                                                  : 2.0;
        dp_bytes = passes * (d - 1) / d * grads;
        if (p.zero_stage >= 3) {
            const double outside = double(counts.total() - counts.layers) / total_params;
            dp_bytes -= double(d - 1) / d * grads * outside;
        }
    }
    if (p.tensor > 1) {
        const double passes =
            o.training() ? (o.checkpointing == Checkpointing::PerBlock ? 6 : 4) : 2;
        tp_bytes = passes * 2.0 * (p.tensor - 1) / p.tensor * boundary * double(stage_layers) *
                   p.micro_batches;
    }
    if (p.pipeline > 1) {
        pp_bytes = (o.training() ? 2.0 : 1.0) * boundary * p.micro_batches;
    }
    t.communication_bytes = dp_bytes + tp_bytes + pp_bytes;
    t.communication_s = dp_bytes / (dp_link * 1e9) + (tp_bytes + pp_bytes) / (link * 1e9);
    t.bubble_s = p.pipeline > 1 ? double(p.pipeline - 1) / p.micro_batches * t.compute_s : 0;
    t.step_s = t.compute_s + t.communication_s + t.bubble_s;
    t.tokens_per_s = double(o.batch_size) * double(o.seq_len) / t.step_s;
    t.scaling_efficiency = t.compute_s / t.step_s;
    t.train_tokens =
        request.train_tokens > 0 ? request.train_tokens : kTokensPerParameter * total_params;
    t.steps = std::ceil(t.train_tokens / (double(o.batch_size) * double(o.seq_len)));
    t.total_s = t.steps * t.step_s;
    return r;
}

int64_t Planner::maxBatch(const PlanRequest& request) const {
    const auto parallel = request.parallel.resolved();
    const int64_t unit = int64_t(parallel.data) * parallel.micro_batches;
    auto fits = [&](int64_t batch) {
        PlanRequest probe = request;
        probe.workload.batch_size = batch;
        return evaluate(probe).fits;
    };
    if (!fits(unit)) {
        return 0;
    }
    int64_t good = unit, bad = 0;
    for (int64_t b = 2 * unit; b <= (int64_t(1) << 24); b *= 2) {
        if (!fits(b)) {
            bad = b;
            break;
        }
        good = b;
    }
    if (bad == 0) {
        return good;
    }
    while (bad - good > unit) {
        const int64_t mid = (good + bad) / 2 / unit * unit;
        if (mid <= good) {
            break;
        }
        (fits(mid) ? good : bad) = mid;
    }
    return good;
}

PlanResult Planner::plan(const PlanRequest& request) const {
    PlanResult r = evaluate(request);
    const auto& o = request.workload;
    const auto& p = r.parallel;
    // Both kinds of forward only, whatever the request's profile: inference replays the
    // micro-batch without autograd, the forward with autograd on is step 1's forward of training.
    {
        TrainOptions local = o;
        local.batch_size = r.micro_batch;
        local.profile = ProfileType::Forward;
        r.inference_peak = o.training()
                               ? MemoryModel::predict(local, request.semantics).first_step.peak
                               : r.memory.first_step.peak;
        local.profile = ProfileType::Training;
        r.forward_with_autograd_peak =
            o.training() ? r.memory.first_step.forward_peak
                         : MemoryModel::predict(local, request.semantics).first_step.forward_peak;
    }
    auto gpuShare = [&](MemoryComponent m) {
        return double(r.per_gpu[static_cast<int>(m)]) /
               double(std::max<int64_t>(1, r.per_gpu_total));
    };

    // Assumptions, stated with the figures they produce.
    auto& a = r.assumptions;
    a.push_back("Memory: LibTorch's allocations replayed op by op (" +
                request.semantics.autogradName() + ") for one GPU's micro-batch of " +
                std::to_string(r.micro_batch) +
                (request.semantics.grads_set_to_none ? "; gradients freed by zero_grad()"
                                                     : "; gradients kept between steps"));
    if (o.dtype != Dtype::Float32) {
        a.push_back(
            "Mixed precision as LibTorch autocast does it: fp32 weights, gradients and "
            "AdamW state, plus a " +
            toString(o.dtype) + " copy of every weight cached until the step ends");
    }
    if (r.device.gpu) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "GPU: caching allocator reserves %.0f%% over allocated; %s of context and "
                      "workspaces outside it",
                      100.0 * (r.device.reserved_factor - 1),
                      formatPredictedBytes(r.device.context_bytes).c_str());
        a.push_back(text);
    }
    if (p.tensor > 1) {
        a.push_back("Tensor parallel: weights / " + std::to_string(p.tensor) +
                    "; activations x (10 + 24/t)/34 (norms and residuals replicated, no sequence "
                    "parallelism); logits vocab-parallel");
    }
    if (p.pipeline > 1) {
        a.push_back("Pipeline parallel (1F1B): the busiest stage holds " +
                    std::to_string(ceilDiv(o.model.n_layers, p.pipeline)) + " layers and " +
                    std::to_string(std::min(p.pipeline, p.micro_batches)) +
                    " micro-batches of activations; bubble (p-1)/m of compute");
    }
    if (p.zero_stage > 0) {
        a.push_back("ZeRO-" + std::to_string(p.zero_stage) + ": " +
                    (p.zero_stage == 1   ? "optimizer state"
                     : p.zero_stage == 2 ? "optimizer state and gradients"
                                         : "optimizer state, gradients and weights") +
                    " divided by the data-parallel degree " + std::to_string(p.data));
    }
    if (p.gpus > 1) {
        a.push_back(
            "Communication: ring all-reduce moves 2(d-1)/d of the fp32 gradients per "
            "step (ZeRO-3 1.5x); tensor parallel 2 all-reduces per layer each way; no "
            "overlap with compute");
    }
    {
        char text[200];
        std::snprintf(text, sizeof text,
                      "Time: executed FLOPs (recomputation included) / (%d x %.1f TFLOP/s x MFU "
                      "%.0f%%, %s); %.3g training tokens",
                      p.gpus, r.time.peak_flops / 1e12, 100 * r.time.mfu, r.time.mfu_source.c_str(),
                      r.time.train_tokens);
        a.push_back(text);
    }

    // Bottlenecks
    if (!r.fits) {
        r.bottlenecks.push_back({"memory_capacity",
                                 "needs " + formatPredictedBytes(r.per_gpu_total) + " per GPU, " +
                                     formatPredictedBytes(r.usable) +
                                     " usable: " + formatPredictedBytes(-r.headroom) + " over",
                                 double(r.per_gpu_total) / double(std::max<int64_t>(1, r.usable))});
    }
    auto variant = [&](auto change) {
        PlanRequest changed = request;
        change(changed);
        return evaluate(changed);
    };
    const bool quadratic = o.attention != AttentionKind::MemoryEfficient &&
                           !(o.attention == AttentionKind::Sdpa && request.semantics.sdpa_is_flash);
    int64_t attention_bytes = 0;
    if (quadratic) {
        const auto linear =
            variant([](PlanRequest& q) { q.workload.attention = AttentionKind::MemoryEfficient; });
        attention_bytes = r.per_gpu_total - linear.per_gpu_total;
        const double share = double(attention_bytes) / double(r.per_gpu_total);
        if (share > 0.1) {
            r.bottlenecks.push_back({"attention_memory",
                                     "the S x S attention matrices (sequence " +
                                         std::to_string(o.seq_len) + ") take " +
                                         formatPredictedBytes(attention_bytes) + " (" +
                                         percent(share) + " of the peak)",
                                     share});
        }
    }
    if (gpuShare(MemoryComponent::OptimizerState) > 0.3) {
        r.bottlenecks.push_back({"optimizer_state",
                                 "optimizer state is " +
                                     percent(gpuShare(MemoryComponent::OptimizerState)) +
                                     " of the per-GPU peak",
                                 gpuShare(MemoryComponent::OptimizerState)});
    }
    if (gpuShare(MemoryComponent::LogitsLoss) > 0.2) {
        r.bottlenecks.push_back(
            {"logits",
             "logits and the loss (vocabulary " + std::to_string(o.model.vocab_size) + ") are " +
                 percent(gpuShare(MemoryComponent::LogitsLoss)) + " of the per-GPU peak",
             gpuShare(MemoryComponent::LogitsLoss)});
    }
    const double comm_share = r.time.communication_s / r.time.step_s;
    if (comm_share > 0.2) {
        r.bottlenecks.push_back({"communication",
                                 "communication is " + percent(comm_share) +
                                     " of the step time; scaling efficiency " +
                                     percent(r.time.scaling_efficiency),
                                 comm_share});
    }
    const double bubble_share = r.time.bubble_s / r.time.step_s;
    if (bubble_share > 0.15) {
        r.bottlenecks.push_back({"pipeline_bubble",
                                 "the pipeline bubble is " + percent(bubble_share) +
                                     " of the step time; more micro-batches shrink it",
                                 bubble_share});
    }

    // Recommendations: each change evaluated by the model for this configuration.
    auto recommend = [&](const std::string& title, const std::string& change, auto apply) {
        try {
            const auto after = variant(apply);
            if (after.per_gpu_total >= r.per_gpu_total) {
                return;
            }
            PlanResult::Recommendation rec;
            rec.title = title;
            rec.change = change;
            rec.per_gpu_before = r.per_gpu_total;
            rec.per_gpu_after = after.per_gpu_total;
            rec.step_s_before = r.time.step_s;
            rec.step_s_after = after.time.step_s;
            rec.makes_fit = !r.fits && after.fits;
            r.recommendations.push_back(rec);
        } catch (const ConfigError&) {
            // not applicable to this configuration
        }
    };
    if (quadratic) {
        recommend("Use memory-efficient (flash) attention",
                  TrainOptionTable::argument("attention", "memory-efficient"),
                  [](PlanRequest& q) { q.workload.attention = AttentionKind::MemoryEfficient; });
    }
    if (o.training() && o.checkpointing == Checkpointing::None) {
        recommend("Checkpoint every transformer block",
                  TrainOptionTable::argument("checkpointing", "per-block"),
                  [](PlanRequest& q) { q.workload.checkpointing = Checkpointing::PerBlock; });
    }
    if (o.dtype == Dtype::Float32 && r.device.peakFlops(Dtype::BFloat16) > 0) {
        recommend("Train with bf16 autocast", TrainOptionTable::argument("dtype", "bf16"),
                  [](PlanRequest& q) { q.workload.dtype = Dtype::BFloat16; });
    }
    if (o.training() && !request.semantics.grads_set_to_none) {
        recommend("Free gradients between steps (zero_grad(set_to_none=True))",
                  "--grads-set-to-none",
                  [](PlanRequest& q) { q.semantics.grads_set_to_none = true; });
    }
    if (o.training() && o.optimizer == OptimizerKind::AdamW) {
        recommend("SGD with momentum instead of AdamW (half the optimizer state)",
                  TrainOptionTable::argument("optimizer", "sgd"),
                  [](PlanRequest& q) { q.workload.optimizer = OptimizerKind::Sgd; });
    }
    if (o.training() && p.data > 1 && p.zero_stage < 3) {
        for (int stage = p.zero_stage + 1; stage <= 3; ++stage) {
            recommend("Shard with ZeRO stage " + std::to_string(stage),
                      "--zero-stage " + std::to_string(stage),
                      [stage](PlanRequest& q) { q.parallel.zero_stage = stage; });
        }
    }
    if (!r.fits) {
        const int64_t unit = int64_t(p.data) * p.micro_batches;
        for (int64_t b = o.batch_size / 2; b >= unit; b /= 2) {
            if (b % unit != 0) {
                break;
            }
            PlanRequest smaller = request;
            smaller.workload.batch_size = b;
            if (evaluate(smaller).fits) {
                recommend("Smaller batch with gradient accumulation (" +
                              std::to_string(o.batch_size / b) + " steps of " + std::to_string(b) +
                              ")",
                          TrainOptionTable::argument("batch_size", std::to_string(b)),
                          [b](PlanRequest& q) { q.workload.batch_size = b; });
                break;
            }
        }
        for (int gpus = std::max(2, p.gpus * 2); gpus <= 64; gpus *= 2) {
            PlanRequest more = request;
            more.parallel.gpus = gpus;
            more.parallel.strategy = ParallelStrategy::TensorParallel;
            more.parallel.data = more.parallel.tensor = more.parallel.pipeline = 0;
            try {
                if (evaluate(more).fits) {
                    recommend("Tensor parallel over " + std::to_string(gpus) + " GPUs",
                              "--gpus " + std::to_string(gpus) + " --strategy tensor_parallel",
                              [gpus](PlanRequest& q) {
                                  q.parallel.gpus = gpus;
                                  q.parallel.strategy = ParallelStrategy::TensorParallel;
                                  q.parallel.data = q.parallel.tensor = q.parallel.pipeline = 0;
                              });
                    break;
                }
            } catch (const ConfigError&) {
                break;
            }
        }
    }
    for (auto& rec : r.recommendations) {
        const double share = double(rec.saving()) / double(r.per_gpu_total);
        rec.priority = rec.makes_fit  ? "critical"
                       : share > 0.2  ? "high"
                       : share > 0.05 ? "medium"
                                      : "low";
    }
    std::stable_sort(r.recommendations.begin(), r.recommendations.end(),
                     [](const auto& x, const auto& y) {
                         if (x.makes_fit != y.makes_fit) {
                             return x.makes_fit;
                         }
                         return x.saving() > y.saving();
                     });
    if (!request.bottlenecks) {
        r.bottlenecks.clear();
        r.recommendations.clear();
    }

    // Strategy comparison for the same GPU count
    if (p.gpus > 1) {
        std::vector<ParallelConfig> options;
        auto add = [&](ParallelStrategy s, int data, int tensor, int pipeline, int zero) {
            ParallelConfig c = request.parallel;
            c.strategy = s;
            c.data = data, c.tensor = tensor, c.pipeline = pipeline, c.zero_stage = zero;
            c.micro_batches = request.parallel.micro_batches;
            options.push_back(c);
        };
        add(ParallelStrategy::DataParallel, 0, 0, 0, 0);
        if (o.training()) {
            for (int zero = 1; zero <= 3; ++zero) {
                add(ParallelStrategy::DataParallel, 0, 0, 0, zero);
            }
        }
        add(ParallelStrategy::TensorParallel, 0, 0, 0, 0);
        add(ParallelStrategy::PipelineParallel, 0, 0, 0, 0);
        if (p.gpus >= 4 && p.gpus % 2 == 0) {
            add(ParallelStrategy::Hybrid, p.gpus / 2, 2, 1, 0);
        }
        if (p.gpus >= 8 && p.gpus % 4 == 0) {
            add(ParallelStrategy::Hybrid, p.gpus / 4, 2, 2, 0);
        }
        for (const auto& option : options) {
            PlanRequest q = request;
            q.parallel = option;
            try {
                const auto e = evaluate(q);
                r.strategies.push_back({e.parallel, e.per_gpu_total, e.fits, e.time.step_s,
                                        e.time.tokens_per_s, e.time.scaling_efficiency});
            } catch (const ConfigError&) {
                // a degree this model or batch cannot take
            }
        }
    }
    if (request.max_batch) {
        r.max_batch = maxBatch(request);
    }
    return r;
}

}  // namespace memscope
