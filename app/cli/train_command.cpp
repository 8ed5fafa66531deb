#include "train_command.h"

#include "cli_support.h"
#include "device/device_info.h"
#include "model/config_error.h"
#include "model/model_cost.h"
#include "train/trainer.h"

#include <torch/version.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace memscope::cli {

namespace {

void printBanner(const TrainOptions& o, const DeviceInfo& device) {
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
              << "), Threads: " << o.resolvedThreads() << "\n\n";
    const auto params = ModelCost::parameters(m).total();
    std::cout << "Model Configuration:\n"
              << "  Total Parameters: " << withThousands(params) << "\n"
              << "  Model Size: " << formatBytes(params * 4) << " (FP32)\n\n";
}

}  // namespace

TrainCommand::TrainCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("train", "Train Tiny LLaMA and print a performance summary");
    m_options.addTo(*m_app);
    m_app->add_option("--summary-json", m_summaryJson, "Write the run summary as JSON to FILE");
    m_app->add_option("--log-interval", m_logInterval, "Print every N-th step (default 1)")
        ->check(CLI::PositiveNumber);
}

int TrainCommand::run() {
    TrainOptions options;
    DeviceInfo device;
    try {
        options = m_options.resolve();
        device = DeviceInfo::describe(options.device);
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    }
    printBanner(options, device);

    Trainer trainer(options);
    InterruptForwarder interrupt([&trainer] { trainer.cancel(); });
    const auto total = options.num_steps + options.warmup_steps;
    trainer.setStepCallback([&](const StepMetrics& s) {
        if (s.step % m_logInterval != 0 && s.step != 1 && s.step != total) {
            return;
        }
        std::printf("Step %lld/%lld%s: Loss = %.4f, Time = %.3f seconds, Peak = %s\n",
                    static_cast<long long>(s.step), static_cast<long long>(total),
                    s.warmup ? " (warmup)" : "", s.loss, s.total_s,
                    formatBytes(s.peak_allocated_bytes).c_str());
        std::fflush(stdout);
    });
    std::cout << "Starting " << (options.training() ? "training" : "forward-only runs") << "...\n";
    const RunSummary summary = trainer.run();
    std::cout << "\n" << summary.toText();

    if (!m_summaryJson.empty()) {
        std::ofstream out(m_summaryJson);
        if (!out) {
            std::cerr << "memscope-cli: error: --summary-json: cannot write '" << m_summaryJson
                      << "'\n";
            return 1;
        }
        out << summary.toJson().dump(2) << "\n";
    }
    if (summary.cancelled) {
        return 130;
    }
    return summary.error.empty() ? 0 : 1;
}

}  // namespace memscope::cli
