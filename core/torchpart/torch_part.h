#pragma once

#include "capture/live_run.h"
#include "device/device_discovery.h"
#include "device/peak_bandwidth.h"
#include "device/peak_flops.h"
#include "model/cancellation.h"
#include "run/train_options.h"
#include "studies/sweep_result.h"
#include "studies/sweep_runner.h"
#include "studies/sweep_spec.h"

#include <memory>
#include <string>

namespace memscope {

// What a front end that links no LibTorch (the GUI, issue 31) asks of core's LibTorch part:
// live recorded runs, the devices LibTorch sees, the CPU's measured peaks and sweeps. The part
// is a library loaded at run time (memscope-gui-torch.so, app/gui/libtorch_part_main.cpp: this
// interface over memscope_core); widgets/torch_part_loader.h finds and loads it. Everything
// here is torch-free, so this header belongs to memscope_base; the types it passes are core's
// own, compiled the same way on both sides of the boundary.
class TorchPart {
  public:
    virtual ~TorchPart() = default;

    // The version of the LibTorch the part links ("1.13.0").
    virtual std::string libTorchVersion() const = 0;
    // A run that is not started yet (LiveRun::start validates the options).
    virtual std::unique_ptr<LiveRun> createLiveRun(const TrainOptions& options,
                                                   const LiveRun::Options& run_options) = 0;
    // DeviceDiscovery::shared(): discovered once, without measuring peaks. Thread-safe.
    virtual const DeviceDiscovery& devices() = 0;
    // PeakFlops::measureOnCpu and PeakBandwidth::measureOnCpu (cached; thread-safe).
    virtual PeakFlops peakFlopsOnCpu(Dtype dtype, int threads) = 0;
    virtual PeakBandwidth peakBandwidthOnCpu(int threads) = 0;
    // SweepRunner(spec, out_dir).run(cancel) with `progress` as its progress callback; throws
    // what it throws.
    virtual SweepResult runSweep(const SweepSpec& spec, const std::string& out_dir,
                                 SweepRunner::ProgressCallback progress,
                                 const CancellationToken* cancel) = 0;

    // The entry point the library exports (extern "C"): returns the part, which lives as long
    // as the process. The number changes with this interface, so that a part of another build
    // is refused instead of called.
    static constexpr const char* k_entry = "memscope_torch_part_v1";
};

}  // namespace memscope
