#include "predict/plan_result.h"

#include <nlohmann/json.hpp>

namespace memscope {

nlohmann::json PlanResult::toJson() const {
    nlohmann::json components = nlohmann::json::object();
    for (int i = 0; i < kMemoryComponentCount; ++i) {
        components[toString(static_cast<MemoryComponent>(i))] = per_gpu[i];
    }
    nlohmann::json j = {
        {"request", request.toJson()},
        {"device", device.toJson()},
        {"parallel", parallel.toJson()},
        {"micro_batch", micro_batch},
        {"memory", memory.toJson()},
        {"per_gpu_bytes", components},
        {"per_gpu_total_bytes", per_gpu_total},
        {"per_gpu_steady_bytes", per_gpu_steady_total},
        {"capacity_bytes", capacity},
        {"usable_bytes", usable},
        {"fits", fits},
        {"headroom_bytes", headroom},
        {"time",
         {{"flops_per_step", time.flops_per_step},
          {"peak_flops_per_gpu", time.peak_flops},
          {"mfu", time.mfu},
          {"mfu_source", time.mfu_source},
          {"compute_s", time.compute_s},
          {"communication_s", time.communication_s},
          {"pipeline_bubble_s", time.bubble_s},
          {"step_s", time.step_s},
          {"tokens_per_s", time.tokens_per_s},
          {"scaling_efficiency", time.scaling_efficiency},
          {"communication_bytes_per_gpu", time.communication_bytes},
          {"train_tokens", time.train_tokens},
          {"steps", time.steps},
          {"total_s", time.total_s}}},
        {"assumptions", assumptions},
    };
    j["forward_only"] = {{"inference_no_grad_bytes", inference_peak},
                         {"forward_with_autograd_bytes", forward_with_autograd_peak}};
    if (max_batch >= 0) {
        j["max_batch_size"] = max_batch;
    }
    j["bottlenecks"] = nlohmann::json::array();
    for (const auto& b : bottlenecks) {
        j["bottlenecks"].push_back({{"kind", b.kind}, {"message", b.message}, {"share", b.share}});
    }
    j["recommendations"] = nlohmann::json::array();
    for (const auto& r : recommendations) {
        j["recommendations"].push_back({{"priority", r.priority},
                                        {"title", r.title},
                                        {"change", r.change},
                                        {"per_gpu_bytes_before", r.per_gpu_before},
                                        {"per_gpu_bytes_after", r.per_gpu_after},
                                        {"saving_bytes", r.saving()},
                                        {"step_s_before", r.step_s_before},
                                        {"step_s_after", r.step_s_after},
                                        {"makes_fit", r.makes_fit}});
    }
    j["strategies"] = nlohmann::json::array();
    for (const auto& s : strategies) {
        j["strategies"].push_back({{"parallel", s.parallel.toJson()},
                                   {"describe", s.parallel.describe()},
                                   {"per_gpu_bytes", s.per_gpu_bytes},
                                   {"fits", s.fits},
                                   {"step_s", s.step_s},
                                   {"tokens_per_s", s.tokens_per_s},
                                   {"scaling_efficiency", s.scaling_efficiency}});
    }
    return j;
}

}  // namespace memscope
