#pragma once

#include "predict/device_database.h"
#include "predict/plan_result.h"

namespace memscope {

// Answers a PlanRequest: per-GPU memory (the memory model on one GPU's micro-batch, then
// sharded by tensor / pipeline / ZeRO), the fit verdict with headroom, training time,
// bottlenecks, recommendations whose savings are recomputed by the model, a strategy comparison
// and, when asked, the largest batch that fits. Throws ConfigError naming the field.
class Planner {
  public:
    explicit Planner(DeviceDatabase database);

    PlanResult plan(const PlanRequest& request) const;
    // Memory, fit and time only (what plan() compares its variants with).
    PlanResult evaluate(const PlanRequest& request) const;
    // Largest global batch (a multiple of data-parallel degree x micro-batches) that fits; 0
    // when none does.
    int64_t maxBatch(const PlanRequest& request) const;

    const DeviceDatabase& database() const { return m_database; }
    const DeviceSpec& device(const std::string& name) const;  // throws ConfigError

  private:
    DeviceDatabase m_database;
};

}  // namespace memscope
