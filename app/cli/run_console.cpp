#include "run_console.h"

#include "cli_support.h"
#include "model/model_cost.h"
#include "run/run_summary.h"
#include "run/text_format.h"
#include "train/distributed_context.h"

#include <torch/version.h>

#include <cstdio>
#include <iostream>

namespace memscope::cli {

bool RunConsole::announce(const DistributedContext* context, const TrainOptions& options,
                          const DeviceInfo& device) {
    const bool lead = !context || context->rank() == 0;
    if (lead) {
        printBanner(options, device);
    }
    return lead;
}

void RunConsole::printBanner(const TrainOptions& o, const DeviceInfo& device) {
    const auto& m = o.model;
    const std::string rule(58, '=');
    std::cout << rule << "\nMemscope " << MEMSCOPE_VERSION << " - Tiny LLaMA on LibTorch "
              << TORCH_VERSION << "\n"
              << rule << "\n";
    std::cout << "Configuration:\n"
              << "  Preset: " << o.preset << "\n"
              << "  Batch Size: " << o.batch_size << "\n"
              << "  Sequence Length: " << o.seq_len << "\n"
              << "  Number of Steps: " << o.num_steps << " (+" << o.warmup_steps << " warmup)\n"
              << "  Hidden Dim: " << m.hidden_dim << "\n"
              << "  Num Layers: " << m.n_layers << "\n"
              << "  Num Heads: " << m.n_heads << " (KV heads: " << m.n_kv_heads << ")\n"
              << "  Intermediate Dim: " << m.intermediate_dim << "\n"
              << "  Vocab Size: " << m.vocab_size
              << (m.tie_embeddings ? " (tied embeddings)" : " (untied LM head)") << "\n"
              << "  Dtype: " << toString(o.dtype) << ", Attention: " << toString(o.attention)
              << ", Checkpointing: " << toString(o.checkpointing) << "\n"
              << "  Profile: " << toString(o.profile) << ", Optimizer: " << toString(o.optimizer)
              << " (lr " << o.learning_rate << ")\n"
              << "  Device: " << o.device << " (" << device.name
              << "), Threads: " << o.resolvedThreads() << "\n";
    if (o.device_memory_limit > 0) {
        std::cout << "  Device memory limit: " << formatBytes(o.device_memory_limit) << " ("
                  << o.device_memory_limit << " bytes, emulated)\n";
    }
    const auto params = ModelCost::parameters(m).total();
    std::cout << "\nModel Configuration:\n"
              << "  Total Parameters: " << withThousands(params) << "\n"
              << "  Model Size: " << formatBytes(params * 4) << " (FP32)\n\n";
}

std::function<void(const StepMetrics&)> RunConsole::stepPrinter(int64_t total, int64_t interval) {
    return [total, interval](const StepMetrics& s) {
        if (s.step % interval != 0 && s.step != 1 && s.step != total) {
            return;
        }
        std::printf("Step %lld/%lld%s: Loss = %.4f, Time = %.3f seconds, Peak = %s\n",
                    static_cast<long long>(s.step), static_cast<long long>(total),
                    s.warmup ? " (warmup)" : "", s.loss, s.total_s,
                    formatBytes(s.peak_allocated_bytes).c_str());
        std::fflush(stdout);
    };
}

}  // namespace memscope::cli
