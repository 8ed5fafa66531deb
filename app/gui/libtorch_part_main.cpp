// The GUI's LibTorch part (memscope-gui-torch.so): core's TorchPart interface over memscope_core
// (live runs, devices, the CPU's measured peaks, sweeps). The GUI links no LibTorch and loads
// this library the first time it needs one of those (widgets/torch_part_loader.h, issue 31).

#include "capture/live_session.h"
#include "device/device_discovery.h"
#include "device/peak_bandwidth.h"
#include "device/peak_flops.h"
#include "memscope_version.h"
#include "studies/sweep_runner.h"
#include "torchpart/torch_part.h"

#include <memory>
#include <string>
#include <utility>

namespace {

class GuiTorchPart final : public memscope::TorchPart {
  public:
    std::string libTorchVersion() const override { return MEMSCOPE_LIBTORCH_VERSION; }

    std::unique_ptr<memscope::LiveRun> createLiveRun(
        const memscope::TrainOptions& options,
        const memscope::LiveRun::Options& run_options) override {
        return std::make_unique<memscope::LiveSession>(options, run_options);
    }

    const memscope::DeviceDiscovery& devices() override {
        return memscope::DeviceDiscovery::shared();
    }

    memscope::PeakFlops peakFlopsOnCpu(memscope::Dtype dtype, int threads) override {
        return memscope::PeakFlops::measureOnCpu(dtype, threads);
    }

    memscope::PeakBandwidth peakBandwidthOnCpu(int threads) override {
        return memscope::PeakBandwidth::measureOnCpu(threads);
    }

    memscope::SweepResult runSweep(const memscope::SweepSpec& spec, const std::string& out_dir,
                                   memscope::SweepRunner::ProgressCallback progress,
                                   const memscope::CancellationToken* cancel) override {
        memscope::SweepRunner runner(spec, out_dir);
        runner.setProgressCallback(std::move(progress));
        return runner.run(cancel);
    }
};

}  // namespace

extern "C" __attribute__((visibility("default"))) memscope::TorchPart* memscope_torch_part_v1() {
    static GuiTorchPart part;  // lives as long as the process: the library is never unloaded
    return &part;
}
