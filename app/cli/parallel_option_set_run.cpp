#include "parallel_option_set.h"

#include "device/device_info.h"
#include "train/distributed_context.h"

#include <torch/torch.h>
#include <nlohmann/json.hpp>

namespace memscope::cli {

std::shared_ptr<DistributedContext> ParallelOptionSet::connect(const DeviceInfo& device) const {
    // A lone rank with port 0 serves its store on a port the system picks.
    return DistributedContext::connect(
        *m_env, std::chrono::milliseconds(int64_t(m_commTimeout * 1000)), device.device);
}

nlohmann::json ParallelOptionSet::multiRankSummary(const RunSummary& summary,
                                                   DistributedContext& context) {
    nlohmann::json json = summary.toJson();
    const int world = context.worldSize();
    json["world_size"] = world;
    json["parallel"] = summary.parallel;
    json["global_batch_size"] = summary.options.batch_size * world;
    constexpr int kFields = 5;
    auto figures = torch::zeros(
        {world * kFields}, torch::TensorOptions().dtype(torch::kDouble).device(context.device()));
    auto mine = figures.narrow(0, context.rank() * kFields, kFields);
    mine[0] = double(summary.steadyPeakAllocated());
    mine[1] = double(summary.peak_allocated_bytes);
    mine[2] = summary.avgStep();
    mine[3] = double(summary.communication_bytes);
    mine[4] = double(summary.communication_sent_bytes);
    try {
        context.allreduceSum(figures);
        figures = figures.cpu();
    } catch (const std::exception&) {
        return json;  // a rank is gone: no table
    }
    auto ranks = nlohmann::json::array();
    auto a = figures.accessor<double, 1>();
    for (int r = 0; r < world; ++r) {
        ranks.push_back({{"rank", r},
                         {"steady_peak_allocated_bytes", int64_t(a[r * kFields])},
                         {"peak_allocated_bytes", int64_t(a[r * kFields + 1])},
                         {"avg_step_s", a[r * kFields + 2]},
                         {"communication_bytes", int64_t(a[r * kFields + 3])},
                         {"communication_sent_bytes", int64_t(a[r * kFields + 4])}});
    }
    json["ranks"] = ranks;
    return json;
}

}  // namespace memscope::cli
