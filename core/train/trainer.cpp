#include "train/trainer.h"

#include "device/device_info.h"
#include "device/peak_flops.h"
#include "model/model_cost.h"
#include "model/tiny_llama.h"
#include "torch_compat.h"
#include "train/allocator_trace_link.h"
#include "train/device_capacity.h"
#include "train/parallel_engine.h"
#include "train/synthetic_data.h"
#include "train/thread_governor.h"
#include "train/training_thread_clocks.h"

#include <torch/cuda.h>
#include <torch/optim.h>
#include <torch/version.h>

#include <chrono>
#include <map>
#include <sstream>
#include <type_traits>
#include <unordered_map>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace memscope {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Ties the thread's cancellation token to a scope.
class CancellationInstall {
  public:
    explicit CancellationInstall(const CancellationToken* token) {
        CancellationToken::install(token);
    }
    ~CancellationInstall() { CancellationToken::install(nullptr); }
};

// Autocast on for the forward pass of a mixed-precision run, restored on scope exit (also when a
// cancel or an error unwinds through the forward).
class AutocastScope {
  public:
    AutocastScope(c10::DeviceType device, Dtype dtype) : m_device(device) {
        if (dtype == Dtype::Float32) {
            return;
        }
        m_active = true;
        m_oldDtype = compat::autocastDtype(device);
        compat::setAutocast(device, true, dtype == Dtype::BFloat16 ? at::kBFloat16 : at::kHalf);
    }
    ~AutocastScope() {
        if (m_active) {
            compat::setAutocast(m_device, false, m_oldDtype);
        }
    }

  private:
    c10::DeviceType m_device;
    bool m_active = false;
    c10::ScalarType m_oldDtype = at::kBFloat16;
};

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const TrainOptions& o,
                                                       std::vector<torch::Tensor> params) {
    if (o.optimizer == OptimizerKind::Sgd) {
        return std::make_unique<torch::optim::SGD>(
            std::move(params), torch::optim::SGDOptions(o.learning_rate).momentum(o.sgd_momentum));
    }
    return std::make_unique<torch::optim::AdamW>(
        std::move(params),
        torch::optim::AdamWOptions(o.learning_rate).weight_decay(o.weight_decay));
}

// Zeroes gradients in place and keeps them allocated, as PyTorch 1.13's zero_grad() did (2.x's
// default frees them). Memscope's memory figures assume "grads kept".
void zeroGradients(const std::vector<torch::Tensor>& params) {
    for (const auto& p : params) {
        if (p.grad().defined()) {
            p.mutable_grad().detach_();
            p.mutable_grad().zero_();
        }
    }
}

// The module that owns each parameter, by the parameter's TensorImpl: the model's root scope,
// then named_parameters()' key without its last part ("blocks.0.attention.q_proj.weight" ->
// "TinyLlama.blocks.0.attention.q_proj"), the names its ModuleScopes use.
using ParameterOwners = std::unordered_map<const void*, std::string>;

ParameterOwners ownersOf(const TinyLlama& model) {
    ParameterOwners owners;
    for (const auto& item : model->named_parameters()) {
        const std::string& key = item.key();
        const size_t dot = key.rfind('.');
        owners.emplace(item.value().unsafeGetTensorImpl(),
                       std::string(TinyLlamaImpl::kRootScope) +
                           (dot == std::string::npos ? "" : "." + key.substr(0, dot)));
    }
    return owners;
}

const char* ownerOf(const ParameterOwners& owners, const torch::Tensor& param) {
    const auto it = owners.find(param.unsafeGetTensorImpl());
    return it != owners.end() ? it->second.c_str() : nullptr;
}

// Names the storages of tensors for the recorder (exact categories), with the module of the
// parameter they belong to where there is one.
void announce(AllocationObserver* observer, const torch::Tensor& t, Category category,
              const char* owner = nullptr) {
    if (observer != nullptr && t.defined() && t.has_storage() && t.storage().data() != nullptr) {
        observer->onRole(t.storage().data(), category, t.device(), owner);
    }
}

// The key of a parameter's entry in Optimizer::state(): LibTorch 1.13 keys it by the TensorImpl
// address as text, later versions may key it by the address itself.
template <typename Key>
Key stateKeyOf(const torch::Tensor& param) {
    if constexpr (std::is_convertible_v<c10::TensorImpl*, Key>) {
        return param.unsafeGetTensorImpl();
    } else {
        std::ostringstream text;
        text << static_cast<const void*>(param.unsafeGetTensorImpl());
        return Key(text.str());
    }
}

void announceOptimizerState(AllocationObserver* observer, torch::optim::Optimizer& optimizer,
                            const ParameterOwners& owners) {
    if (observer == nullptr) {
        return;
    }
    using Key = typename std::decay_t<decltype(optimizer.state())>::key_type;
    std::map<Key, const char*> owner_of_state;
    for (const auto& group : optimizer.param_groups()) {
        for (const auto& param : group.params()) {
            owner_of_state.emplace(stateKeyOf<Key>(param), ownerOf(owners, param));
        }
    }
    // Every state is named; one whose parameter is not the model's (a ZeRO shard) has no owner.
    for (auto& entry : optimizer.state()) {
        const auto found = owner_of_state.find(entry.first);
        const char* owner = found != owner_of_state.end() ? found->second : nullptr;
        auto* state = entry.second.get();
        if (auto* adamw = dynamic_cast<torch::optim::AdamWParamState*>(state)) {
            announce(observer, adamw->exp_avg(), Category::OptimizerState, owner);
            announce(observer, adamw->exp_avg_sq(), Category::OptimizerState, owner);
            announce(observer, adamw->max_exp_avg_sq(), Category::OptimizerState, owner);
        } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(state)) {
            announce(observer, sgd->momentum_buffer(), Category::OptimizerState, owner);
        }
    }
}

// Runs the observer's per-thread start/end around the run, also when it unwinds.
class ObserverThreadScope {
  public:
    explicit ObserverThreadScope(AllocationObserver* observer) : m_observer(observer) {
        if (m_observer != nullptr)
            m_observer->onRunThreadStart();
    }
    ~ObserverThreadScope() {
        if (m_observer != nullptr)
            m_observer->onRunThreadEnd();
    }

  private:
    AllocationObserver* m_observer;
};

// Holds the device-capacity limit for the duration of a run.
class CapacityScope {
  public:
    CapacityScope(int64_t bytes, std::shared_ptr<AllocationHook> hook) {
        if (bytes > 0)
            DeviceCapacity::setLimit(bytes, std::move(hook));
    }
    ~CapacityScope() { DeviceCapacity::clear(); }
};

}  // namespace

Trainer::Trainer(TrainOptions options) : m_options(std::move(options)) {}

void Trainer::setStepCallback(std::function<void(const StepMetrics&)> callback) {
    m_onStep = std::move(callback);
}

void Trainer::setAllocationObserver(AllocationObserver* observer) {
    m_observer = observer;
}

void Trainer::setDistributed(std::shared_ptr<DistributedContext> context, ParallelMode mode,
                             int64_t bucket_bytes) {
    m_context = std::move(context);
    m_parallel = m_context ? mode : ParallelMode::None;
    m_bucketBytes = bucket_bytes;
}

RunSummary Trainer::run() {
    m_options.validate();
    const auto device_info = DeviceInfo::describe(m_options.device);
    const auto device = device_info.device;
    const bool gpu = device.is_cuda();
    const int gpu_index = device.has_index() ? device.index() : 0;
    const int threads = m_options.resolvedThreads();
    at::set_num_threads(threads);
#ifdef __GLIBC__
    // By default glibc hands multi-MiB activation buffers back to the kernel after every step and
    // faults them in again on the next (about 3,900 page faults per workshop step, 4-5% of the
    // step time). Keep them in the heap while training; malloc_trim returns them afterwards.
    // Memscope's memory figures come from the allocation hook and are unaffected.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    // The trim threshold does not cover the training threads' own arenas: glibc unmaps a whole
    // 64 MiB heap of a thread's arena as soon as it is empty, whatever the threshold, and maps a
    // fresh one when the next big tensor does not fit. Which step that happens in depends on the
    // heap's layout, so one small allocation more or less moved a workshop step between about 120
    // and 1,600 page faults. A top pad as large as such a heap keeps them mapped (glibc keeps a
    // heap while its neighbour has less than the pad free), and costs address space, not memory.
    mallopt(M_TOP_PAD, 64 << 20);
#endif

    RunSummary summary;
    summary.options = m_options;
    summary.threads = threads;
    summary.device = device.str();
    summary.device_name = device_info.name;
    summary.torch_version = TORCH_VERSION;
    if (m_context) {
        summary.rank = m_context->rank();
        summary.world_size = m_context->worldSize();
        summary.parallel = toString(m_parallel);
    }
    summary.parameters = ModelCost::parameters(m_options.model).total();
    summary.flops_per_step = ModelCost::stepFlops(
        m_options.model, m_options.batch_size, m_options.seq_len, m_options.training(),
        m_options.checkpointing == Checkpointing::PerBlock, m_options.attention);
    if (m_measurePeak) {
        const auto peak = PeakFlops::measure(device, m_options.dtype, threads);
        summary.peak_flops_per_s = peak.flops_per_s;
        summary.peak_flops_method = peak.method;
    }

    auto sync = [gpu] {
        if (gpu) {
            torch::cuda::synchronize();
        }
    };
    auto hook = std::make_shared<AllocationHook>(m_observer);
    auto phase = [this](Phase p, int64_t step) {
        if (m_observer != nullptr) {
            m_observer->onPhase(p, step);
        }
    };
    const auto run_start = Clock::now();
    m_cancel.reset();
    if (gpu) {
        // Before the hook: the allocator's segments of this run reach the recorder through its
        // trace tracker (attached once per process; a no-op where LibTorch has none).
        AllocatorTraceLink::attach();
        if (const auto stats = compat::cachingAllocatorStats(gpu_index); stats.valid) {
            summary.allocator_allocated_at_start_bytes = stats.allocated_current;
        }
    }
    {
        AllocationHookGuard hook_guard(hook);
        CancellationInstall cancel_guard(&m_cancel);
        ObserverThreadScope observer_scope(m_observer);
        CapacityScope capacity(m_options.device_memory_limit, hook);
        try {
            phase(Phase::Init, 0);
            torch::manual_seed(m_options.seed);
            TinyLlama model(m_options.model, m_options.attention,
                            m_options.checkpointing == Checkpointing::PerBlock);
            model->to(device);
            auto params = model->parameters();
            std::unique_ptr<ParallelEngine> engine;
            auto optimized = params;
            if (m_context) {
                engine = std::make_unique<ParallelEngine>(m_parallel, m_context, m_bucketBytes,
                                                          m_observer);
                m_context->setObserver(m_observer);
                optimized = engine->attach(model);
            }
            const ParameterOwners owners = ownersOf(model);
            for (const auto& p : params) {
                announce(m_observer, p, Category::Parameter, ownerOf(owners, p));
            }
            std::unique_ptr<torch::optim::Optimizer> optimizer;
            if (m_options.training()) {
                optimizer = makeOptimizer(m_options, optimized);
            } else {
                model->eval();
            }
            SyntheticData data(m_options.model.vocab_size, m_options.batch_size, m_options.seq_len,
                               m_options.seed, device, summary.rank, summary.world_size);
            summary.init_allocated_bytes = hook->current();
            summary.peak_allocated_bytes = hook->peak();

            const int64_t total_steps = m_options.warmup_steps + m_options.num_steps;
            // Threads left at "all cores" follow the cores other processes leave free
            // (ThreadGovernor); a count the user chose stays as it is.
            std::optional<ThreadGovernor> governor;
            // Yielding to an interface: only the training threads' CPU is the run's own.
            TrainingThreadClocks training_clocks;
            bool yield = false;
            if (m_options.threads == 0 && !gpu) {
                governor.emplace(threads, threads);
                yield = m_yieldToInterface && training_clocks.collect(threads);
            }
            for (int64_t step = 1; step <= total_steps; ++step) {
                CancellationToken::throwIfRequested();
                if (governor) {
                    const int previous = governor->threads();
                    auto sample = ThreadGovernor::readCpuSample();
                    if (yield) {
                        sample.self = training_clocks.cpuTicks();
                    }
                    const int next = governor->update(sample);
                    if (next != previous) {
                        at::set_num_threads(next);
                        if (yield) {
                            yield = training_clocks.collect(next);
                        }
                    }
                    summary.fewest_threads = governor->fewestThreads();
                }
                StepMetrics metrics;
                metrics.step = step;
                metrics.warmup = step <= m_options.warmup_steps;
                metrics.threads = gpu ? 0 : governor ? governor->threads() : threads;
                hook->resetPeak();
                if (gpu) {
                    compat::resetPeakMemoryStats(gpu_index);
                }
                const auto step_start = Clock::now();

                phase(Phase::Other, step);
                auto [inputs, labels] = data.next();
                announce(m_observer, inputs, Category::Input);
                announce(m_observer, labels, Category::Input);
                if (optimizer) {
                    if (engine) {
                        engine->zeroGrad();
                    } else {
                        zeroGradients(params);
                    }
                }
                if (engine) {
                    engine->beforeForward();
                }

                phase(Phase::Forward, step);
                auto t = Clock::now();
                torch::Tensor loss;
                {
                    std::unique_ptr<torch::NoGradGuard> no_grad;
                    if (!m_options.training()) {
                        no_grad = std::make_unique<torch::NoGradGuard>();
                    }
                    AutocastScope autocast(device.type(), m_options.dtype);
                    auto logits = model->forward(inputs);
                    loss = model->loss(logits, labels);
                }
                sync();
                metrics.forward_s = secondsSince(t);

                if (optimizer) {
                    phase(Phase::Backward, step);
                    t = Clock::now();
                    loss.backward();
                    sync();
                    // The gradients of this rank's batch, before any reduction frees them.
                    for (const auto& p : params) {
                        announce(m_observer, p.grad(), Category::Gradient, ownerOf(owners, p));
                    }
                    if (engine) {
                        engine->afterBackward();
                    }
                    metrics.backward_s = secondsSince(t);
                    CancellationToken::throwIfRequested();

                    phase(Phase::Optimizer, step);
                    t = Clock::now();
                    optimizer->step();
                    if (engine) {
                        engine->afterOptimizerStep();
                    }
                    sync();
                    metrics.optimizer_s = secondsSince(t);
                    announceOptimizerState(m_observer, *optimizer, owners);
                }
                phase(Phase::Other, step);
                if (engine) {
                    engine->endStep();
                }
                metrics.loss =
                    engine ? engine->globalLoss(loss.item<double>()) : loss.item<double>();
                loss = torch::Tensor();
                inputs = torch::Tensor();
                labels = torch::Tensor();
                // The C++ autocast weight cache lives until cleared; Python's context manager
                // clears it on exit, so do the same once per step.
                at::autocast::clear_cache();
                metrics.total_s = secondsSince(step_start);
                metrics.peak_allocated_bytes = hook->peak();
                metrics.allocated_bytes_at_end = hook->current();
                if (gpu) {
                    if (const auto stats = compat::cachingAllocatorStats(gpu_index); stats.valid) {
                        metrics.allocator_peak_allocated_bytes = stats.allocated_peak;
                        metrics.allocator_peak_reserved_bytes = stats.reserved_peak;
                    }
                }
                summary.peak_allocated_bytes =
                    std::max(summary.peak_allocated_bytes, metrics.peak_allocated_bytes);
                summary.steps.push_back(metrics);
                if (m_onStep) {
                    m_onStep(metrics);
                }
            }
        } catch (const RunCancelled&) {
            summary.cancelled = true;
        } catch (const c10::OutOfMemoryError& e) {
            summary.out_of_memory = true;
            summary.error = e.what_without_backtrace();
        } catch (const std::exception& e) {
            summary.error = e.what();
            // c10 errors carry a long backtrace after the first line; keep the message.
            if (const auto nl = summary.error.find('\n'); nl != std::string::npos) {
                summary.error.resize(nl);
            }
        }
        at::autocast::clear_cache();
        summary.peak_allocated_bytes = std::max(summary.peak_allocated_bytes, hook->peak());
        if (m_context) {
            summary.communication_bytes = m_context->bytesMoved();
            summary.communication_sent_bytes = m_context->sentBytes();
            m_context->setObserver(nullptr);  // the recorder may be gone before the context
        }
    }
    summary.wall_s = secondsSince(run_start);
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    return summary;
}

}  // namespace memscope
