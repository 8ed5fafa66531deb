// Reads a synthetic PyTorch memory snapshot and prints the figures: file size, import time and
// the peak memory (resident set) of the process, for the two ways of importing:
//   tree    the whole file in memory, parsed into one PickleValue tree, then converted (what
//           SnapshotImporter::import did before it streamed; SnapshotImporter::fromValue still
//           does the conversion part)
//   stream  SnapshotImporter::import: the file read in chunks, trace entries converted as they
//           are parsed
// Each runs in a fresh child process (this program, run again with --child), so that its peak
// is its own; the trace's in-memory size and peak / size are printed for each. The snapshot is
// written here, in C++, the way Python's pickler writes torch.cuda.memory's dict (protocol 4,
// 64 KiB FRAMEs, MEMOIZE after every string and container, strings and frame lists shared
// through the memo, APPENDS/SETITEMS in batches of 1000). Targets: >= 100 MB/s, and a streaming
// peak under 2x the trace's size.
//
// The streaming import runs with a progress callback and a cancel flag (never set), as the GUI
// does; its line also gives the time the file's parse took (when progress reached the file's
// size) before the conversion and finalize(). Two more children set the cancel flag half way
// through the parse and right after it, and print how long import() took to throw.
//
//   bench_pickle_import [--entries N] [--path FILE] [--keep 1] [--write-only 1]
//   bench_pickle_import --child stream|tree|cancel-half|cancel-parsed --path FILE [--range A:B]
//   (default 1,000,000 entries, /tmp; --keep 1 leaves the snapshot there for other tools;
//   --write-only 1 writes it and stops; --child imports an existing file one way, the stream
//   child only --range of it)

#include "interchange/snapshot_importer.h"
#include "io/run_file_cancelled.h"
#include "pickle/pickle_error.h"
#include "pickle/pickle_reader.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

using namespace memscope;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Processor time as well as wall time: on a busy two-core machine the wall clock also
// measures the other processes.
double cpuSecondsSince(std::clock_t start) {
    return double(std::clock() - start) / CLOCKS_PER_SEC;
}

// Protocol 4 output as CPython's _Pickler produces it.
class SnapshotWriter {
  public:
    explicit SnapshotWriter(std::FILE* out) : m_out(out) {
        const uint8_t proto[] = {0x80, 4};
        std::fwrite(proto, 1, 2, m_out);
        m_written += 2;
    }

    uint64_t bytesWritten() const { return m_written; }

    void op(uint8_t code) { m_frame.push_back(char(code)); }
    void le(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) {
            m_frame.push_back(char(uint8_t(v >> (8 * i))));
        }
    }
    uint32_t memoize() {
        op(0x94);
        return m_memo++;
    }
    void get(uint32_t id) {
        if (id < 256) {
            op('h'), op(uint8_t(id));
        } else {
            op('j'), le(id, 4);
        }
    }
    void integer(int64_t v) {
        if (v >= 0 && v < 256) {
            op('K'), op(uint8_t(v));
        } else if (v >= 0 && v < 65536) {
            op('M'), le(uint64_t(v), 2);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            op('J'), le(uint64_t(v), 4);
        } else {
            // LONG1 with the fewest bytes that keep the sign, like Python's encode_long.
            int n = 1;
            while (n < 8 &&
                   !(v >= -(int64_t(1) << (8 * n - 1)) && v < (int64_t(1) << (8 * n - 1)))) {
                ++n;
            }
            op(0x8a), op(uint8_t(n)), le(uint64_t(v), n);
        }
    }
    void str(const std::string& s) {
        if (auto it = m_strings.find(s); it != m_strings.end()) {
            get(it->second);
            return;
        }
        op(0x8c), op(uint8_t(s.size()));
        m_frame.append(s);
        m_strings[s] = memoize();
    }
    // Python commits a frame once it reaches 64 KiB, at the next opcode boundary.
    void maybeCommit() {
        if (m_frame.size() >= 65536) {
            commit();
        }
    }
    void finish() {
        op('.');
        commit();
    }

  private:
    void commit() {
        uint8_t header[9] = {0x95};
        for (int i = 0; i < 8; ++i) {
            header[1 + i] = uint8_t(uint64_t(m_frame.size()) >> (8 * i));
        }
        std::fwrite(header, 1, sizeof header, m_out);
        std::fwrite(m_frame.data(), 1, m_frame.size(), m_out);
        m_written += sizeof header + m_frame.size();
        m_frame.clear();
    }

    std::FILE* m_out;
    std::string m_frame;
    uint32_t m_memo = 0;
    uint64_t m_written = 0;
    std::unordered_map<std::string, uint32_t> m_strings;
};

struct Expected {
    size_t allocs = 0;
    size_t frees = 0;
    size_t segments = 0;
};

// Training-like traffic: a window of live blocks, each alloc followed later by
// free_requested + free_completed, a segment_alloc now and then; 300 distinct stacks of 12 to
// 40 frames, each list written once and referenced by memo afterwards.
Expected writeSnapshot(const std::string& path, size_t entries) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "bench_pickle_import: cannot write %s\n", path.c_str());
        std::exit(1);
    }
    SnapshotWriter w(f);
    Expected expected;
    w.op('}'), w.memoize(), w.op('(');

    w.str("segments"), w.op(']'), w.memoize(), w.op('(');
    for (int s = 0; s < 4; ++s) {
        w.op('}'), w.memoize(), w.op('(');
        w.str("device"), w.integer(0);
        w.str("address"), w.integer(0x7e0000000000LL + s * (int64_t(1) << 26));
        w.str("total_size"), w.integer(int64_t(20) << 20);
        w.str("stream"), w.integer(0);
        w.str("segment_type"), w.str("large");
        w.str("blocks"), w.op(']'), w.memoize(), w.op('(');
        w.op('}'), w.memoize(), w.op('(');
        w.str("size"), w.integer(int64_t(20) << 20);
        w.str("requested_size"), w.integer(int64_t(20) << 20);
        w.str("state"), w.str("active_allocated");
        w.str("frames"), w.op(']'), w.memoize();
        w.op('u');
        w.op('e');
        w.op('u');
    }
    w.op('e');

    w.str("device_traces"), w.op(']'), w.memoize(), w.op('(');
    w.op(']'), w.memoize(), w.op('(');
    std::vector<uint32_t> stack_ids;
    constexpr int kStacks = 300;
    const char* files[] = {"torch/nn/modules/module.py",
                           "torch/nn/modules/linear.py",
                           "torch/nn/functional.py",
                           "model.py",
                           "train.py",
                           "torch/autograd/graph.py",
                           "torch/optim/adamw.py"};
    uint64_t rng = 0x243F6A8885A308D3ULL;
    auto next = [&rng]() {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        return rng >> 33;
    };
    constexpr size_t kWindow = 512;
    std::vector<uint64_t> live(kWindow, 0);
    std::vector<int64_t> live_size(kWindow, 0);
    size_t batch = 0;
    size_t slot = 0;
    int pending_completed = -1;  // slot whose free_completed comes next
    int64_t time_us = 1700000000000000LL;
    for (size_t i = 0; i < entries; ++i) {
        const char* action;
        uint64_t addr;
        int64_t size;
        if (pending_completed >= 0) {
            action = "free_completed";
            addr = live[size_t(pending_completed)];
            size = live_size[size_t(pending_completed)];
            live[size_t(pending_completed)] = 0;
            pending_completed = -1;
        } else if (i % 5000 == 0) {
            action = "segment_alloc";
            addr = 0x7f0000000000ULL + (i / 5000) * (uint64_t(1) << 25);
            size = int64_t(2) << 20;
            ++expected.segments;
        } else {
            slot = (slot + 1) % kWindow;
            if (live[slot] != 0) {
                action = "free_requested";
                addr = live[slot];
                size = live_size[slot];
                pending_completed = int(slot);
                ++expected.frees;  // one Free per free_requested (with or without completed)
            } else {
                action = "alloc";
                addr = 0x7f0000000000ULL + i * 512;
                size = int64_t(512) << (next() % 12);
                live[slot] = addr;
                live_size[slot] = size;
                ++expected.allocs;
            }
        }
        time_us += 1 + int64_t(next() % 50);

        w.op('}'), w.memoize(), w.op('(');
        w.str("action"), w.str(action);
        w.str("addr"), w.integer(int64_t(addr));
        w.str("size"), w.integer(size);
        w.str("stream"), w.integer(0);
        w.str("time_us"), w.integer(time_us);
        w.str("frames");
        const size_t stack = next() % kStacks;
        if (stack < stack_ids.size()) {
            w.get(stack_ids[stack]);
        } else {
            // A new frame list: frames innermost first, each a dict, the list memoized.
            w.op(']');
            stack_ids.push_back(w.memoize());
            w.op('(');
            const int depth = 12 + int(stack % 29);
            for (int d = 0; d < depth; ++d) {
                w.op('}'), w.memoize(), w.op('(');
                w.str("filename"), w.str(files[(stack + size_t(d)) % 7]);
                w.str("line"), w.integer(int64_t(10 + (stack * 7 + size_t(d) * 13) % 900));
                w.str("name"), w.str("fn_" + std::to_string((stack + size_t(d) * 3) % 97));
                w.op('u');
            }
            w.op('e');
        }
        w.op('u');
        if (++batch == 1000) {  // APPENDS per 1000 items, as Python batches them
            w.op('e'), w.op('(');
            batch = 0;
        }
        w.maybeCommit();
    }
    w.op('e');
    w.op('e');
    w.op('u');
    w.finish();
    std::fclose(f);
    return expected;
}

// Resident set size of this process now, in bytes (VmRSS), or 0.
int64_t residentBytes() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) {
        return 0;
    }
    char line[256];
    long long kb = 0;
    while (std::fgets(line, sizeof line, f)) {
        if (std::sscanf(line, "VmRSS: %lld kB", &kb) == 1) {
            break;
        }
    }
    std::fclose(f);
    return int64_t(kb) * 1024;
}

template <typename T>
int64_t bytesOf(const std::vector<T>& v) {
    return int64_t(v.capacity() * sizeof(T));
}
template <typename T>
int64_t bytesOf(const PackedColumn<T>& v) {
    return int64_t(v.memoryBytes());
}

// What the finished Trace holds in memory: its event columns, the paired allocations and
// segments, the per-event allocation index and the stack tables, the raw ones of an import
// included (frames counted by their fixed part, plus their strings).
int64_t traceBytes(const Trace& t) {
    const EventColumns& e = t.events;
    int64_t n = bytesOf(e.time_ns) + bytesOf(e.addr) + bytesOf(e.size) + bytesOf(e.allocated) +
                bytesOf(e.reserved) + bytesOf(e.stack) + bytesOf(e.step) + bytesOf(e.kind) +
                bytesOf(e.phase) + bytesOf(e.thread) + bytesOf(e.device);
    n += bytesOf(t.allocations().records()) + bytesOf(t.allocationOfEvent()) +
         bytesOf(t.segments()) + bytesOf(t.segment_tags);
    // The cleaned stacks and, for imports, the raw ones beside them (Trace::raw_stacks).
    for (const StackTable* table : {&t.stacks, &t.raw_stacks}) {
        n += bytesOf(table->frames()) + bytesOf(table->parents()) + bytesOf(table->nodeFrames());
        for (const Frame& f : table->frames()) {
            n += int64_t(f.name.capacity() + f.file.capacity());
        }
    }
    n += bytesOf(t.raw_stack);
    return n;
}

// The child "cancel-half" / "cancel-parsed": imports `path` and sets the cancel flag from
// the progress callback once half the file is read (the reader polls it at its next chunk), or
// once all of it is (the conversion polls it every 64K entries); prints the time from setting
// the flag to the RunFileCancelled.
int runCancelChild(const std::string& path, bool half) {
    std::atomic<bool> cancel{false};
    std::chrono::steady_clock::time_point set_at;
    SnapshotImporter::ImportOptions options;
    options.cancel = &cancel;
    options.progress = [&](uint64_t bytes, uint64_t size) {
        if (!cancel && (half ? bytes >= size / 2 : bytes == size)) {
            set_at = std::chrono::steady_clock::now();
            cancel = true;
        }
    };
    try {
        SnapshotImporter::import(path, -1, options);
    } catch (const RunFileCancelled&) {
        std::printf("CANCEL %.6f\n", secondsSince(set_at));
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_pickle_import: %s\n", e.what());
    }
    return 1;
}

// The child: imports `path` one way and prints one line of figures.
int runChild(const std::string& mode, const std::string& path, const std::string& range) {
    if (mode == "cancel-half" || mode == "cancel-parsed") {
        return runCancelChild(path, mode == "cancel-half");
    }
    const int64_t base = residentBytes();
    try {
        const auto start = std::chrono::steady_clock::now();
        const std::clock_t cpu = std::clock();
        Trace trace;
        if (mode == "tree") {
            PickleValue snapshot;
            {
                const std::vector<uint8_t> bytes = PickleReader::readBytes(path);
                snapshot = PickleReader(path).parse(bytes);
            }
            trace = SnapshotImporter::fromValue(snapshot, -1, path);
        } else {
            std::atomic<bool> cancel{false};
            SnapshotImporter::ImportOptions options;
            options.cancel = &cancel;
            options.range = RunRange::parse(range);
            options.progress = [&](uint64_t bytes, uint64_t size) {
                if (bytes == size) {
                    std::printf("PARSED %.6f\n", secondsSince(start));
                }
            };
            trace = SnapshotImporter::import(path, -1, options);
        }
        const double seconds = secondsSince(start);
        const double cpu_seconds = cpuSecondsSince(cpu);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        size_t allocs = 0, frees = 0, segments = 0;
        for (size_t i = 0; i < trace.events.count(); ++i) {
            const auto kind = static_cast<EventKind>(trace.events.kind[i]);
            allocs += kind == EventKind::Alloc;
            frees += kind == EventKind::Free;
            segments += kind == EventKind::SegmentAlloc;
        }
        std::printf("RESULT %.6f %.6f %lld %lld %lld %zu %zu %zu %zu %zu %zu\n", seconds,
                    cpu_seconds, static_cast<long long>(usage.ru_maxrss) * 1024,
                    static_cast<long long>(base), static_cast<long long>(traceBytes(trace)),
                    trace.events.count(), allocs, frees, segments, trace.stacks.nodeCount(),
                    trace.segments().size());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_pickle_import: %s\n", e.what());
        return 1;
    }
}

struct ChildResult {
    bool ok = false;
    double seconds = 0, cpu_seconds = 0;
    double parsed = -1;  // stream: seconds until the whole file was parsed
    double cancel = -1;  // cancel-*: seconds from setting the flag to the exception
    long long peak = 0, base = 0, trace = 0;
    size_t events = 0, allocs = 0, frees = 0, segments = 0, nodes = 0, segment_count = 0;
};

ChildResult runInChild(const std::string& mode, const std::string& path) {
    ChildResult r;
    char self[PATH_MAX] = {};
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        return r;
    }
    const std::string command =
        std::string("'") + self + "' --child " + mode + " --path '" + path + "'";
    std::FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        return r;
    }
    char line[512];
    while (std::fgets(line, sizeof line, pipe)) {
        if (std::sscanf(line, "RESULT %lf %lf %lld %lld %lld %zu %zu %zu %zu %zu %zu", &r.seconds,
                        &r.cpu_seconds, &r.peak, &r.base, &r.trace, &r.events, &r.allocs, &r.frees,
                        &r.segments, &r.nodes, &r.segment_count) == 11) {
            r.ok = true;
        }
        std::sscanf(line, "PARSED %lf", &r.parsed);
        if (std::sscanf(line, "CANCEL %lf", &r.cancel) == 1) {
            r.ok = true;
        }
    }
    r.ok = pclose(pipe) == 0 && r.ok;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    size_t entries = 1'000'000;
    std::string path = "/tmp/bench_pickle_import.pickle";
    std::string child;
    std::string range;
    bool keep = false;
    bool write_only = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--entries") {
            entries = std::strtoull(argv[i + 1], nullptr, 10);
        } else if (key == "--path") {
            path = argv[i + 1];
        } else if (key == "--keep") {
            keep = std::string(argv[i + 1]) != "0";
        } else if (key == "--write-only") {
            write_only = std::string(argv[i + 1]) != "0";
        } else if (key == "--range") {
            range = argv[i + 1];
        } else if (key == "--child") {
            child = argv[i + 1];
        } else {
            std::fprintf(stderr, "bench_pickle_import: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    if (!child.empty()) {
        return runChild(child, path, range);
    }

    auto start = std::chrono::steady_clock::now();
    const Expected expected = writeSnapshot(path, entries);
    const double write_s = secondsSince(start);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    std::fseek(f, 0, SEEK_END);
    const double mb = double(std::ftell(f)) / 1e6;
    std::fclose(f);

    std::printf("entries     %zu (%zu allocs, %zu frees, %zu segment allocs)\n", entries,
                expected.allocs, expected.frees, expected.segments);
    std::printf("file        %.1f MB (%s), written in %.2f s\n", mb, path.c_str(), write_s);
    if (write_only) {
        return 0;
    }
    bool ok = true;
    ChildResult results[2];
    const char* modes[2] = {"tree", "stream"};
    for (int m = 0; m < 2; ++m) {
        const ChildResult& r = results[m] = runInChild(modes[m], path);
        if (!r.ok) {
            std::printf("%-6s      FAILED\n", modes[m]);
            ok = false;
            continue;
        }
        const double grown = double(r.peak - r.base);
        std::printf(
            "%-6s      %.3f s  %4.0f MB/s   CPU %.3f s   peak RSS %.0f MB (%.0f MB at start)   "
            "trace %.0f MB   peak/trace %.2f (growth/trace %.2f)\n",
            modes[m], r.seconds, mb / r.seconds, r.cpu_seconds, double(r.peak) / 1e6,
            double(r.base) / 1e6, double(r.trace) / 1e6, double(r.peak) / double(r.trace),
            grown / double(r.trace));
        if (r.parsed >= 0) {
            std::printf("            parsed in %.3f s, converted and finalized in %.3f s\n",
                        r.parsed, r.seconds - r.parsed);
        }
        // The four 20 MiB segments in `segments` are untouched by the trace: segment allocs at
        // time 0, and their live blocks allocs at time 0.
        ok = ok && r.allocs == expected.allocs + 4 && r.frees == expected.frees &&
             r.segments == expected.segments + 4 && r.nodes > 300 &&
             r.segment_count == expected.segments + 4;
    }
    for (const char* mode : {"cancel-half", "cancel-parsed"}) {
        const ChildResult r = runInChild(mode, path);
        if (r.ok) {
            std::printf("%-13s cancelled %.1f ms after the flag was set\n", mode, r.cancel * 1e3);
        } else {
            std::printf("%-13s FAILED\n", mode);
            ok = false;
        }
    }
    if (!keep) {
        std::remove(path.c_str());
    }
    if (results[0].ok && results[1].ok) {
        ok = ok && results[0].events == results[1].events;
        std::printf("result      %zu events, %zu stack nodes, %zu segments\n", results[1].events,
                    results[1].nodes, results[1].segment_count);
    }
    std::printf("verify      %s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
