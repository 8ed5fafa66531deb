#include "train_command.h"

#include "cli_support.h"
#include "device/device_info.h"
#include "model/config_error.h"
#include "model/model_cost.h"
#include "rank_launcher.h"
#include "run_console.h"
#include "train/trainer.h"

#include <torch/version.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace memscope::cli {

int TrainCommand::run() {
    TrainOptions options;
    DeviceInfo device;
    std::shared_ptr<DistributedContext> context;
    try {
        options = m_options.resolve();
        const auto role = m_parallel.resolve(options);
        device = DeviceInfo::describe(options.device);
        if (role == ParallelOptionSet::Role::Launcher) {
            return RankLauncher::run(m_parallel.nproc(), m_parallel.masterPort(),
                                     m_parallel.commTimeoutSeconds());
        }
        if (role == ParallelOptionSet::Role::Rank) {
            context = m_parallel.connect(device);
        }
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    }
    const bool lead = RunConsole::announce(context.get(), options, device);

    Trainer trainer(options);
    trainer.setDistributed(context, m_parallel.mode(), m_parallel.bucketBytes());
    InterruptForwarder interrupt([&trainer] { trainer.cancel(); });
    const auto total = options.num_steps + options.warmup_steps;
    if (lead) {
        trainer.setStepCallback(RunConsole::stepPrinter(total, m_logInterval));
        std::cout << "Starting " << (options.training() ? "training" : "forward-only runs")
                  << "...\n";
    }
    const RunSummary summary = trainer.run();
    nlohmann::json json = summary.toJson();
    if (context && summary.error.empty() && !summary.cancelled) {
        json = ParallelOptionSet::multiRankSummary(summary, *context);
    }
    if (lead) {
        std::cout << "\n" << summary.toText();
    } else if (!summary.error.empty()) {
        fail("rank " + std::to_string(summary.rank) + ": " + summary.error);
    }

    if (lead && !m_summaryJson.empty()) {
        std::ofstream out(m_summaryJson);
        if (!out) {
            return fail("--summary-json: cannot write '" + m_summaryJson + "'");
        }
        out << json.dump(2) << "\n";
    }
    if (summary.cancelled) {
        return 130;
    }
    return summary.error.empty() ? 0 : 1;
}

}  // namespace memscope::cli
