// Opens a large PyTorch memory snapshot pickle (scripts/gen_snapshot.py writes one of any size)
// and summarizes it the way `memscope-cli info FILE` does: RunSource::open, then the summary
// info derives for an import (TraceSummary::completed) and its text. Prints, on one line: the
// file's size, the events, the seconds until the file was parsed (the progress callback reached the
// end), the seconds until the summary's text was made, the process's peak resident set (VmHWM) and
// its ratio to the file, and a digest of the summary's JSON and text, so that two builds can be
// compared to the byte. scripts/bench_big_snapshot.sh generates the files and runs this once per
// file (issue 52).
//
//   bench_big_snapshot FILE [--summary-out PATH]   (PATH: the summary's JSON and text)

#include "explain/trace_summary.h"
#include "source/run_source.h"

#include <malloc.h>
#include <sys/stat.h>

#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

using namespace memscope;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The kernel's high-water mark of this process's resident set, in bytes.
long long peakResidentBytes() {
    std::FILE* status = std::fopen("/proc/self/status", "r");
    if (!status) {
        return -1;
    }
    char line[256];
    long long kib = -1;
    while (std::fgets(line, sizeof line, status)) {
        if (std::strncmp(line, "VmHWM:", 6) == 0) {
            kib = std::atoll(line + 6);
        }
    }
    std::fclose(status);
    return kib * 1024;
}

// The resident set now, in bytes.
long long residentBytes() {
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    long long size = 0, resident = 0;
    if (statm) {
        if (std::fscanf(statm, "%lld %lld", &size, &resident) != 2) {
            resident = 0;
        }
        std::fclose(statm);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

uint64_t fnv1a(const std::string& text, uint64_t h = 1469598103934665603ULL) {
    for (const unsigned char c : text) {
        h = (h ^ c) * 1099511628211ULL;
    }
    return h;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_big_snapshot FILE [--summary-out PATH]\n");
        return 2;
    }
    const std::string path = argv[1];
    std::string summary_out;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--summary-out") == 0) {
            summary_out = argv[i + 1];
        }
    }
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) {
        std::fprintf(stderr, "bench_big_snapshot: cannot read %s\n", path.c_str());
        return 1;
    }
    const auto start = std::chrono::steady_clock::now();
    // Processor time as well as wall time: on a busy two-core machine the wall clock also
    // measures the other processes.
    const std::clock_t cpu_start = std::clock();
    // When the peak happens: the resident set sampled every 10 ms.
    std::atomic<bool> done{false};
    double peak_at_s = 0;
    std::thread sampler([&] {
        long long highest = 0;
        while (!done.load()) {
            if (const long long now = residentBytes(); now > highest) {
                highest = now;
                peak_at_s = secondsSince(start);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    double parsed_s = 0;
    RunSource::Options options;
    // RunSource gives the file's reading 0.7 of the progress (kReadShare), the conversion and
    // finalize() the rest.
    options.progress = [&](double fraction) {
        if (fraction >= 0.7 - 1e-9 && parsed_s == 0) {
            parsed_s = secondsSince(start);
        }
    };
    Trace trace;
    try {
        trace = RunSource(path).open(options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_big_snapshot: %s\n", e.what());
        return 1;
    }
    const double loaded_s = secondsSince(start);
    const long long loaded_rss = residentBytes();
    if (std::getenv("BENCH_MALLOC_STATS")) {
        malloc_stats();
    }
    // What `info` adds to an import's summary.
    const nlohmann::json summary = TraceSummary::completed(trace);
    const std::string json = summary.dump(2);
    const std::string text = TraceSummary::toText(trace, summary, 10);
    const double summarized_s = secondsSince(start);
    const double cpu_s = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const long long peak = peakResidentBytes();
    done = true;
    sampler.join();
    if (!summary_out.empty()) {
        std::ofstream(summary_out) << json << "\n" << text;
    }
    std::printf(
        "%s: %.3f GB, %zu events; parsed %.2f s, loaded %.2f s, summarized %.2f s (%.2f s of "
        "processor time); peak RSS %.3f GB (%.2fx the file) at %.2f s, %.3f GB after loading; "
        "summary digest %016llx\n",
        path.c_str(), double(st.st_size) / 1e9, trace.events.count(), parsed_s, loaded_s,
        summarized_s, cpu_s, double(peak) / 1e9, double(peak) / double(st.st_size), peak_at_s,
        double(loaded_rss) / 1e9, static_cast<unsigned long long>(fnv1a(text, fnv1a(json))));
    return 0;
}
