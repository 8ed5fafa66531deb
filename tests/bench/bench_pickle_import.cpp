// Reads a synthetic PyTorch memory snapshot and prints the figures: file size, seconds and MB/s
// for parsing the pickle, for converting it to a Trace, and for both from the file. The
// snapshot is written here, in C++, the way Python's pickler writes torch.cuda.memory's dict
// (protocol 4, 64 KiB FRAMEs, MEMOIZE after every string and container, strings and frame lists
// shared through the memo, APPENDS/SETITEMS in batches of 1000). The target is >= 100 MB/s.
//
//   bench_pickle_import [--entries N] [--path FILE]   (default 1,000,000 entries, /tmp)

#include "io/pickle_error.h"
#include "io/pickle_reader.h"
#include "io/snapshot_importer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
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

}  // namespace

int main(int argc, char** argv) {
    size_t entries = 1'000'000;
    std::string path = "/tmp/bench_pickle_import.pickle";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--entries") {
            entries = std::strtoull(argv[i + 1], nullptr, 10);
        } else if (key == "--path") {
            path = argv[i + 1];
        } else {
            std::fprintf(stderr, "bench_pickle_import: unknown option %s\n", key.c_str());
            return 2;
        }
    }

    auto start = std::chrono::steady_clock::now();
    const Expected expected = writeSnapshot(path, entries);
    const double write_s = secondsSince(start);
    try {
        start = std::chrono::steady_clock::now();
        const std::vector<uint8_t> bytes = PickleReader::readBytes(path);
        const double read_s = secondsSince(start);
        const double mb = double(bytes.size()) / 1e6;

        start = std::chrono::steady_clock::now();
        std::clock_t cpu = std::clock();
        PickleValue snapshot = PickleReader(path).parse(bytes);
        const double parse_s = secondsSince(start);
        const double parse_cpu = cpuSecondsSince(cpu);

        start = std::chrono::steady_clock::now();
        cpu = std::clock();
        Trace trace = SnapshotImporter::fromValue(snapshot, -1, path);
        const double convert_s = secondsSince(start);
        const double convert_cpu = cpuSecondsSince(cpu);

        start = std::chrono::steady_clock::now();
        snapshot = PickleValue();  // the tree's teardown is part of a real import
        const double free_s = secondsSince(start);

        // The whole path a user takes: file -> Trace.
        start = std::chrono::steady_clock::now();
        cpu = std::clock();
        const Trace again = SnapshotImporter::import(path);
        const double total_s = secondsSince(start);
        const double total_cpu = cpuSecondsSince(cpu);
        std::remove(path.c_str());

        size_t allocs = 0, frees = 0, segments = 0;
        for (size_t i = 0; i < trace.events.count(); ++i) {
            const auto kind = static_cast<EventKind>(trace.events.kind[i]);
            allocs += kind == EventKind::Alloc;
            frees += kind == EventKind::Free;
            segments += kind == EventKind::SegmentAlloc;
        }
        // The four 20 MiB blocks in `segments` are live and untouched: allocs at time 0.
        const bool ok = allocs == expected.allocs + 4 && frees == expected.frees &&
                        segments == expected.segments &&
                        again.events.count() == trace.events.count() &&
                        trace.stacks.nodeCount() > 300;

        std::printf("entries     %zu (%zu allocs, %zu frees, %zu segment allocs)\n", entries,
                    expected.allocs, expected.frees, expected.segments);
        std::printf("file        %.1f MB (%s), written in %.2f s\n", mb, path.c_str(), write_s);
        std::printf("read        %.3f s  %.0f MB/s\n", read_s, mb / read_s);
        std::printf("parse       %.3f s  %4.0f MB/s   CPU %.3f s  %4.0f MB/s\n", parse_s,
                    mb / parse_s, parse_cpu, mb / parse_cpu);
        std::printf(
            "convert     %.3f s  %4.0f MB/s   CPU %.3f s  %4.0f MB/s   (to a finalized "
            "Trace; the tree is then freed in %.3f s)\n",
            convert_s, mb / convert_s, convert_cpu, mb / convert_cpu, free_s);
        std::printf(
            "import      %.3f s  %4.0f MB/s   CPU %.3f s  %4.0f MB/s   (file to Trace, "
            "all included; target >= 100 MB/s)\n",
            total_s, mb / total_s, total_cpu, mb / total_cpu);
        std::printf("result      %zu events, %zu allocations, %zu stack nodes, peak %lld bytes\n",
                    trace.events.count(), trace.allocations().size(), trace.stacks.nodeCount(),
                    static_cast<long long>(trace.peakEvent() >= 0
                                               ? trace.events.allocated[size_t(trace.peakEvent())]
                                               : 0));
        std::printf("verify      %s\n", ok ? "ok" : "MISMATCH");
        return ok ? 0 : 1;
    } catch (const PickleError& e) {
        std::remove(path.c_str());
        std::fprintf(stderr, "bench_pickle_import: %s\n", e.what());
        return 1;
    }
}
