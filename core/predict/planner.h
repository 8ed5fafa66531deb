#pragma once

#include "predict/device_database.h"
#include "predict/plan_result.h"
#include "run/train_options.h"

#include <functional>

namespace memscope {

// Answers a PlanRequest: per-GPU memory (the memory model on one GPU's micro-batch, then
// sharded by tensor / pipeline / ZeRO), the fit verdict with headroom, training time,
// bottlenecks, recommendations whose savings are recomputed by the model, a strategy comparison
// and, when asked, the largest batch that fits. Throws ConfigError naming the field.
class Planner {
  public:
    // A CPU's peak FLOP/s in a dtype with a number of threads. The planner asks for it only for
    // a CPU the database has no figure for. Measuring needs LibTorch (PeakFlops::measureCpu),
    // which memscope_base, where the planner lives, does not link: the caller passes it in.
    using CpuPeakMeasure = std::function<double(Dtype dtype, int threads)>;

    Planner(DeviceDatabase database, CpuPeakMeasure measure_cpu_peak);

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
    CpuPeakMeasure m_measureCpuPeak;
};

}  // namespace memscope
