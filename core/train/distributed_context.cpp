#include "train/distributed_context.h"

#include "model/config_error.h"
#include "model/error.h"
#include "model/train_option_table.h"
#include "train/c10d_compat.h"

#include <ATen/record_function.h>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

namespace memscope {

struct DistributedContext::Impl {
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<compat::CollectiveGroup> group;
};

namespace {

std::string firstLine(const std::string& text) {
    const auto nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

// c10d logs a failed bind or connect through glog on standard error before it throws; the
// exception carries the same text, which the caller turns into one line naming the option. This
// keeps standard error quiet while the rendezvous is made.
class QuietStderr {
  public:
    QuietStderr() {
        std::fflush(stderr);
        m_saved = ::dup(STDERR_FILENO);
        const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (m_saved >= 0 && null >= 0) {
            ::dup2(null, STDERR_FILENO);
        }
        if (null >= 0) {
            ::close(null);
        }
    }
    ~QuietStderr() {
        std::fflush(stderr);
        if (m_saved >= 0) {
            ::dup2(m_saved, STDERR_FILENO);
            ::close(m_saved);
        }
    }
    QuietStderr(const QuietStderr&) = delete;
    QuietStderr& operator=(const QuietStderr&) = delete;

  private:
    int m_saved = -1;
};

bool isLoopback(const std::string& addr) {
    return addr == "127.0.0.1" || addr == "localhost" || addr == "::1";
}

int64_t bytesOf(const torch::Tensor& t) {
    return int64_t(t.numel()) * int64_t(t.element_size());
}

}  // namespace

DistributedContext::DistributedContext(RankEnvironment env, std::chrono::milliseconds timeout,
                                       std::unique_ptr<Impl> impl, c10::Device device)
    : m_env(std::move(env)), m_timeout(timeout), m_impl(std::move(impl)), m_device(device) {}

bool DistributedContext::hasNccl() {
    return MEMSCOPE_HAS_NCCL != 0;
}

const char* DistributedContext::backendName() const {
    return m_device.is_cuda() ? "nccl" : "gloo";
}

DistributedContext::~DistributedContext() = default;

std::shared_ptr<DistributedContext> DistributedContext::connect(const RankEnvironment& env,
                                                                std::chrono::milliseconds timeout,
                                                                c10::Device device) {
    if (timeout.count() <= 0) {
        throw ConfigError("--comm-timeout", "must be positive");
    }
    if (device.is_cuda() && !hasNccl()) {
        throw ConfigError(TrainOptionTable::flag("device"),
                          "multi-process runs on " + device.str() +
                              " need NCCL, which this LibTorch was built without "
                              "(the CUDA wheels from pip have it)");
    }
    if (!device.is_cpu() && !device.is_cuda()) {
        throw ConfigError(TrainOptionTable::flag("device"),
                          "multi-process runs need the CPU (Gloo) or a CUDA device "
                          "(NCCL), not " +
                              device.str());
    }
    if (device.is_cuda() && !device.has_index()) {
        device = c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(env.local_rank));
    }
    auto impl = std::make_unique<Impl>();
    c10d::TCPStoreOptions opts;
    opts.port = static_cast<std::uint16_t>(env.master_port);
    opts.isServer = env.rank == 0;
    opts.numWorkers = env.world_size;
    opts.waitWorkers = true;
    opts.timeout = timeout;
    compat::preferClassicStore(opts);
    const std::string where = env.master_addr + ":" + std::to_string(env.master_port);
    try {
        const QuietStderr quiet;
        impl->store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, opts);
    } catch (const std::exception& e) {
        const std::string what = firstLine(e.what());
        if (env.rank == 0 &&
            (what.find("in use") != std::string::npos || what.find("bind") != std::string::npos)) {
            throw ConfigError("--master-port", "cannot serve the rendezvous on " + where +
                                                   " (port in use?): " + what);
        }
        if (env.rank == 0) {
            throw ConfigError("WORLD_SIZE",
                              "not all " + std::to_string(env.world_size) +
                                  " ranks joined the rendezvous on " + where + " within " +
                                  std::to_string(timeout.count() / 1000) + " s: " + what);
        }
        throw ConfigError("MASTER_ADDR", "no rendezvous with the master at " + where + " within " +
                                             std::to_string(timeout.count() / 1000) +
                                             " s: " + what);
    }
    try {
        auto prefixed = c10::make_intrusive<c10d::PrefixStore>("memscope", impl->store);
        if (device.is_cuda()) {
#if MEMSCOPE_HAS_NCCL
            auto options = c10d::ProcessGroupNCCL::Options::create();
            options->timeout = timeout;
            impl->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(prefixed, env.rank,
                                                                      env.world_size, options);
#endif
        } else {
            auto options = c10d::ProcessGroupGloo::Options::create(timeout);
            options->devices.push_back(
                isLoopback(env.master_addr)
                    ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                    : c10d::ProcessGroupGloo::createDefaultDevice());
            options->threads = 1;
            impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, env.rank,
                                                                      env.world_size, options);
        }
    } catch (const std::exception& e) {
        throw ConfigError("MASTER_ADDR", "the ranks did not connect through " + where + ": " +
                                             firstLine(e.what()));
    }
    return std::shared_ptr<DistributedContext>(
        new DistributedContext(env, timeout, std::move(impl), device));
}

namespace {

void waitFor(c10::intrusive_ptr<c10d::Work> work, const char* op) {
    try {
        work->wait();
    } catch (const std::exception& e) {
        throw Error(std::string(op) +
                    " failed (another rank stopped or is unreachable): " + firstLine(e.what()));
    }
    // The work holds the collective's tensors, and Gloo's worker thread drops its own reference
    // just after it marks the work done. Whichever reference goes last frees the tensors; on the
    // worker thread that free is invisible to the memory profiler (its hook is thread-local), so
    // a reduce bucket stayed "alive" in the recording for the rest of the run, about one step in
    // two on rank 0. Let the worker let go first (microseconds), so the free happens here.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (work.use_count() > 1 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::yield();
    }
}

}  // namespace

void DistributedContext::noteSent(int64_t bytes) {
    m_bytes += bytes;
    if (m_observer != nullptr) {
        m_observer->onCollective(bytes);
    }
}

void DistributedContext::allreduceSum(const torch::Tensor& tensor) {
    RECORD_FUNCTION("c10d::allreduce", std::vector<c10::IValue>{tensor});
    std::vector<torch::Tensor> tensors{tensor};
    waitFor(m_impl->group->allreduce(tensors), "c10d::allreduce");
    noteSent(bytesOf(tensor));
    m_sent += 2.0 * (worldSize() - 1) / worldSize() * double(bytesOf(tensor));
}

void DistributedContext::allgather(const std::vector<torch::Tensor>& outputs,
                                   const torch::Tensor& input) {
    RECORD_FUNCTION("c10d::allgather", std::vector<c10::IValue>{input});
    std::vector<std::vector<torch::Tensor>> out{outputs};
    std::vector<torch::Tensor> in{input};
    waitFor(m_impl->group->allgather(out, in), "c10d::allgather");
    noteSent(bytesOf(input));
    m_sent += double(worldSize() - 1) * double(bytesOf(input));
}

void DistributedContext::reduceSum(const torch::Tensor& tensor, int root) {
    RECORD_FUNCTION("c10d::reduce", std::vector<c10::IValue>{tensor});
    std::vector<torch::Tensor> tensors{tensor};
    c10d::ReduceOptions opts;
    opts.rootRank = root;
    waitFor(m_impl->group->reduce(tensors, opts), "c10d::reduce");
    noteSent(bytesOf(tensor));
    m_sent += double(worldSize() - 1) / worldSize() * double(bytesOf(tensor));
}

void DistributedContext::barrier() {
    RECORD_FUNCTION("c10d::barrier", std::vector<c10::IValue>{});
    waitFor(m_impl->group->barrier(), "c10d::barrier");
}

}  // namespace memscope
