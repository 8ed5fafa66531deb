// The planner's data-parallel and ZeRO predictions against multi-process runs on c10d: for 2 and
// 4 ranks (one thread each), ddp / zero1 / zero2 / zero3 and two model sizes (workshop-default
// and a wider one), trains with `memscope-cli train --nproc N --parallel MODE` and prints the
// planner's per-rank steady peak next to the recorded one (every rank's, the largest is
// compared), and the planner's communication volume per step next to the bytes the ranks' c10d
// collectives moved. Exits 1 when any peak error exceeds the limit (3% by default).
//
//   bench_parallel_accuracy [--limit PERCENT] [--steps N] [--only INDEX]

#include "predict/device_database.h"
#include "predict/planner.h"

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <unistd.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace memscope;

namespace {

struct Point {
    std::string model;  // "workshop-default" or "wide"
    int ranks;
    std::string parallel;
};

int zeroStage(const std::string& parallel) {
    if (parallel.rfind("zero", 0) == 0) {
        return parallel[4] - '0';
    }
    return 0;
}

// The workload of one rank as the trainer runs it; the planner takes the global batch.
TrainOptions workload(const std::string& model, int steps) {
    TrainOptions o = TrainOptions::fromPreset("workshop-default");
    if (model == "wide") {
        o.preset = "custom";
        o.model.hidden_dim = 512;
        o.model.n_heads = 8;
        o.model.n_kv_heads = 8;
        o.model.intermediate_dim = 1376;
        o.model.n_layers = 2;
        o.batch_size = 4;
        o.seq_len = 64;
    }
    o.num_steps = steps;
    o.warmup_steps = 0;
    o.threads = 1;
    return o;
}

std::vector<std::string> modelArguments(const TrainOptions& o) {
    return {"--preset",           "workshop-default",
            "--hidden-dim",       std::to_string(o.model.hidden_dim),
            "--num-heads",        std::to_string(o.model.n_heads),
            "--num-kv-heads",     std::to_string(o.model.n_kv_heads),
            "--intermediate-dim", std::to_string(o.model.intermediate_dim),
            "--num-layers",       std::to_string(o.model.n_layers),
            "--batch-size",       std::to_string(o.batch_size),
            "--seq-len",          std::to_string(o.seq_len),
            "--num-steps",        std::to_string(o.num_steps),
            "--warmup-steps",     "0",
            "--threads",          "1"};
}

int runCli(const std::vector<std::string>& args) {
    std::fflush(stdout);  // or the child's freopen writes the buffered table a second time
    const pid_t pid = fork();
    if (pid == 0) {
        std::vector<char*> argv;
        static const std::string cli = MEMSCOPE_CLI_PATH;
        argv.push_back(const_cast<char*>(cli.c_str()));
        for (const auto& a : args) {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        if (std::freopen("/dev/null", "w", stdout) == nullptr) {
            _exit(127);
        }
        execv(cli.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

double errorPercent(double predicted, double measured) {
    return measured == 0 ? 0.0 : 100.0 * (predicted - measured) / measured;
}

}  // namespace

int main(int argc, char** argv) {
    double limit = 3.0;
    int steps = 3;
    int only = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--limit" && i + 1 < argc) {
            limit = std::atof(argv[++i]);
        } else if (arg == "--steps" && i + 1 < argc) {
            steps = std::max(2, std::atoi(argv[++i]));
        } else if (arg == "--only" && i + 1 < argc) {
            only = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--limit PERCENT] [--steps N] [--only INDEX]\n",
                         argv[0]);
            return 2;
        }
    }
    // OpenMP threads that spin while another rank computes make 2-core runs crawl.
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);

    std::vector<Point> points;
    for (const char* model : {"workshop-default", "wide"}) {
        for (int ranks : {2, 4}) {
            for (const char* parallel : {"ddp", "zero1", "zero2", "zero3"}) {
                points.push_back({model, ranks, parallel});
            }
        }
    }

    // Time is not compared: a fixed CPU peak keeps the benchmark from measuring one.
    const Planner planner(DeviceDatabase::loadDefault(), [](Dtype, int) { return 1e11; });
    const std::string summary_path =
        "/tmp/bench_parallel_accuracy." + std::to_string(getpid()) + ".json";
    std::printf("%-3s %-17s %5s %-6s %13s %13s %13s %8s %12s %12s %8s\n", "#", "model", "ranks",
                "mode", "predicted", "recorded", "rank spread", "error", "comm plan", "comm rec",
                "error");
    double worst = 0;
    int failures = 0;
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < points.size(); ++i) {
        if (only >= 0 && int(i) != only) {
            continue;
        }
        const auto& p = points[i];
        const TrainOptions options = workload(p.model, steps);
        auto args = modelArguments(options);
        args.insert(args.begin(), "train");
        for (const auto& a :
             {std::string("--nproc"), std::to_string(p.ranks), std::string("--parallel"),
              p.parallel, std::string("--summary-json"), summary_path}) {
            args.push_back(a);
        }
        std::remove(summary_path.c_str());
        const int rc = runCli(args);
        nlohmann::json summary;
        try {
            std::ifstream in(summary_path);
            summary = nlohmann::json::parse(in);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "run %zu: exit %d, no summary (%s)\n", i, rc, e.what());
            return 1;
        }
        int64_t recorded = 0, lowest = INT64_MAX;
        double comm_recorded = 0;
        for (const auto& r : summary.at("ranks")) {
            const int64_t peak = r.at("steady_peak_allocated_bytes").get<int64_t>();
            recorded = std::max(recorded, peak);
            lowest = std::min(lowest, peak);
            // Per step: the loss's all-reduce (8 bytes a step) is noise beside the gradients.
            comm_recorded =
                std::max(comm_recorded, r.value("communication_sent_bytes", 0.0) / double(steps));
        }

        PlanRequest request;
        request.workload = options;
        request.workload.batch_size = options.batch_size * p.ranks;
        request.device = "CPU";
        request.parallel.strategy = ParallelStrategy::DataParallel;
        request.parallel.gpus = p.ranks;
        request.parallel.zero_stage = zeroStage(p.parallel);
        request.bottlenecks = false;
        const PlanResult plan = planner.evaluate(request);
        const int64_t predicted = plan.per_gpu_steady_total;
        const double error = errorPercent(double(predicted), double(recorded));
        const double comm_error = errorPercent(plan.time.communication_bytes, comm_recorded);
        std::printf("%-3zu %-17s %5d %-6s %13lld %13lld %13lld %+7.2f%% %12.0f %12.0f %+7.2f%%\n",
                    i, p.model.c_str(), p.ranks, p.parallel.c_str(), (long long)predicted,
                    (long long)recorded, (long long)(recorded - lowest), error,
                    plan.time.communication_bytes, comm_recorded, comm_error);
        std::fflush(stdout);
        worst = std::max(worst, std::fabs(error));
        if (std::fabs(error) > limit) {
            ++failures;
        }
    }
    std::remove(summary_path.c_str());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "\nworst per-rank steady peak error: %.2f%%; limit %.1f%%; %d over the limit; "
        "%.0f s\n",
        worst, limit, failures, seconds);
    return failures == 0 ? 0 : 1;
}
