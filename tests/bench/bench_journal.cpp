// The recording journal's own cost (io/run_journal.h), without the trainer: a recorded run file
// is replayed as a recording session hands it to the journal, one append per poll of --poll-ms of
// the run's time (50 ms, as bench_record_overhead and the CLI poll), and a sync for every second
// of it. Prints, per training step of the run, the CPU time of the appends (what the session's
// consumer thread spends on the journal), the time of the syncs, the journal's bytes, and the
// time to recover the whole journal (what `memscope-cli recover` and the GUI's rank follower
// read). The rounds alternate the journal versions the writer can write, so that their figures
// come from the same minutes of the machine.
//
//   bench_journal RUN.memscope [--poll-ms MS] [--rounds N] [--dir DIR] [--write-only]
//
// --write-only skips the recovery (for a profile of the writer alone).
//
// Needs a run file (memscope-cli record --preset workshop-default --num-steps 3 -o RUN), so it
// is not a CTest test.

#include "io/journal_recovery.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"
#include "replay_source.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace memscope;

namespace {

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double wallMs() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Figures {
    double append_ms = 0;   // CPU time of every append
    double sync_ms = 0;     // wall time of the syncs
    double bytes = 0;       // the journal's size
    double recover_ms = 0;  // wall time of JournalRecovery::recover
    int64_t events = 0;     // events recovered
    int64_t spans = 0;      // spans recovered
};

bool g_writeOnly = false;

Figures replay(const std::string& run, uint32_t version, int poll_ms, const std::string& path) {
    ReplaySource source(run, ReplaySource::Growth::Everything);
    const Trace& whole = source.run();
    Figures f;
    {
        RunJournal journal(path, version);
        const int64_t poll_ns = int64_t(poll_ms) * 1000000;
        const int64_t start = whole.events.count() > 0 ? whole.events.time_ns[0] : 0;
        int64_t next_sync = start + 1000000000;
        size_t at = 0;
        for (int64_t now = start; at < source.total(); now += poll_ns) {
            while (at < source.total() && whole.events.time_ns[at] <= now) {
                ++at;
            }
            source.growTo(at);
            const bool operators = now >= next_sync || at == source.total();
            const double before = threadCpuMs();
            journal.append(source.growing(), operators);
            f.append_ms += threadCpuMs() - before;
            if (operators) {
                const double sync_before = wallMs();
                journal.sync();
                f.sync_ms += wallMs() - sync_before;
                next_sync += 1000000000;
            }
        }
    }
    f.bytes = double(std::filesystem::file_size(path));
    if (g_writeOnly) {
        std::filesystem::remove(path);
        return f;
    }
    const double before = wallMs();
    const JournalRecovery::Result result = JournalRecovery::recover(path);
    f.recover_ms = wallMs() - before;
    f.events = result.events;
    f.spans = int64_t(result.trace.spans.size());
    std::filesystem::remove(path);
    if (f.events != int64_t(whole.events.count()) || f.spans != int64_t(whole.spans.size())) {
        std::fprintf(stderr,
                     "bench_journal: version %u recovered %lld of %zu events, %lld of %zu "
                     "spans\n",
                     version, static_cast<long long>(f.events), whole.events.count(),
                     static_cast<long long>(f.spans), whole.spans.size());
        std::exit(1);
    }
    return f;
}

}  // namespace

int main(int argc, char** argv) {
    std::string run;
    int poll_ms = 50;
    int rounds = 5;
    std::string dir = std::filesystem::temp_directory_path().string();
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--poll-ms" && has_value) {
            poll_ms = std::atoi(argv[++i]);
        } else if (arg == "--rounds" && has_value) {
            rounds = std::atoi(argv[++i]);
        } else if (arg == "--dir" && has_value) {
            dir = argv[++i];
        } else if (arg == "--write-only") {
            g_writeOnly = true;
        } else if (!arg.empty() && arg[0] != '-' && run.empty()) {
            run = arg;
        } else {
            std::fprintf(stderr, "bench_journal: unknown option %s\n", arg.c_str());
            return 2;
        }
    }
    if (run.empty() || poll_ms <= 0 || rounds <= 0) {
        std::fprintf(stderr,
                     "usage: bench_journal RUN.memscope [--poll-ms MS > 0] [--rounds N > 0] "
                     "[--dir DIR] [--write-only]\n");
        return 2;
    }
    try {
        const ReplaySource probe(run);
        const double steps = std::max<double>(1, double(probe.run().steps.size()));
        std::printf("run %s: %zu events, %zu spans, %.0f steps; a poll every %d ms\n", run.c_str(),
                    probe.run().events.count(), probe.run().spans.size(), steps, poll_ms);
        const std::vector<uint32_t> versions = RunJournal::writableVersions();
        std::vector<std::vector<Figures>> figures(versions.size());
        const std::string path = dir + "/bench_journal." + std::to_string(getpid()) + ".journal";
        for (int r = 0; r < rounds; ++r) {
            for (size_t k = 0; k < versions.size(); ++k) {
                // Alternate which version goes first.
                const size_t v = r % 2 ? versions.size() - 1 - k : k;
                figures[v].push_back(replay(run, versions[v], poll_ms, path));
            }
        }
        std::printf("%-8s %14s %14s %14s %16s\n", "version", "append ms/step", "sync ms/step",
                    "KiB/step", "recover ms/step");
        for (size_t v = 0; v < versions.size(); ++v) {
            std::vector<double> append, sync, bytes, recover;
            for (const Figures& f : figures[v]) {
                append.push_back(f.append_ms / steps);
                sync.push_back(f.sync_ms / steps);
                bytes.push_back(f.bytes / 1024 / steps);
                recover.push_back(f.recover_ms / steps);
            }
            std::printf("%-8u %14.3f %14.3f %14.1f %16.3f\n", versions[v], median(append),
                        median(sync), median(bytes), median(recover));
        }
        std::printf("(medians of %d rounds)\n", rounds);
    } catch (const RunFileError& e) {
        std::fprintf(stderr, "bench_journal: %s\n", e.what());
        return 1;
    }
    return 0;
}
