// Saves and loads a synthetic trace as .memscope and prints the figures: events, file size,
// seconds and MB/s for each, for format version 1 (raw columns) and version 2 (delta-encoded,
// zstd-compressed chunks), and the size of the same run exported as a memory_viz pickle. The
// target is ten million events each way in under two seconds; version 2 should be smaller than
// the pickle and load within 1.5x of version 1.
//
//   bench_run_file [--events N] [--path FILE] [--shape window|training] [--keep 1] [--pickle 0]
//   bench_run_file --load FILE        (loads one file and prints the time: for /usr/bin/time -v)
//
// Defaults: 10,000,000 events, /tmp/bench_run_file.memscope, the training shape. --keep leaves
// FILE.v1.memscope, FILE (version 2) and FILE.pickle behind.

#include "interchange/snapshot_exporter.h"
#include "io/run_file.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace memscope;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A training-like trace: a window of live allocations, each new alloc followed by the free of
// the oldest one, sizes from a few hundred bytes to megabytes, stacks from a small table of
// module > op paths, phases cycling through steps.
Trace makeTrace(size_t n) {
    Trace t;
    t.meta.memscope_version = "bench";
    t.meta.device = "cpu";
    t.meta.threads = 2;
    t.meta.config = {{"preset", "workshop-default"}};
    std::vector<uint32_t> nodes;
    const char* ops[] = {"aten::mm", "aten::add", "aten::softmax", "aten::empty", "aten::mul"};
    for (int block = 0; block < 8; ++block) {
        const auto module =
            t.stacks.internFrame({"TinyLlama.blocks." + std::to_string(block),
                                  "transformer_block.cpp", 10 + block, FrameKind::Module});
        const auto node = t.stacks.child(StackTable::kEmpty, module);
        for (const char* op : ops) {
            nodes.push_back(
                t.stacks.child(node, t.stacks.internFrame({op, "", 0, FrameKind::Operator})));
        }
    }
    for (int i = 0; i < 50; ++i) {
        OperatorStat s;
        s.name = "aten::op" + std::to_string(i);
        s.calls = 1000 + i;
        t.operators.push_back(s);
    }
    const int steps = 20;
    for (int s = 1; s <= steps; ++s) {
        StepMetrics m;
        m.step = s;
        m.loss = 10.0 / s;
        t.steps.push_back(m);
    }
    t.summary = {{"steps", steps}};

    EventColumns& e = t.events;
    // The columns are packed: appended below.
    constexpr size_t kWindow = 256;  // live allocations
    std::vector<int64_t> live_size(kWindow * 4, 0);
    uint64_t rng = 0x243F6A8885A308D3ULL;
    int64_t allocated = 0;
    size_t next_alloc = 0, next_free = 0;
    const size_t per_step = std::max<size_t>(1, n / steps);
    for (size_t i = 0; i < n; ++i) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        const bool alloc = (i % 2 == 0) || next_free + kWindow > next_alloc;
        size_t slot;
        if (alloc) {
            slot = next_alloc++ % live_size.size();
            const int64_t size = int64_t(512) << ((rng >> 40) % 12);  // 512 B .. 1 MiB
            live_size[slot] = size;
            e.size.push_back(size);
            e.kind.push_back(static_cast<uint8_t>(EventKind::Alloc));
        } else {
            slot = next_free++ % live_size.size();
            e.size.push_back(-live_size[slot]);
            e.kind.push_back(static_cast<uint8_t>(EventKind::Free));
        }
        allocated += e.size.back();
        e.time_ns.push_back(int64_t(i) * 700 + int64_t((rng >> 50) % 300));
        e.addr.push_back(0x7f0000000000ULL + uint64_t(slot) * 0x200000);
        e.allocated.push_back(allocated);
        e.reserved.push_back((allocated + (int64_t(2) << 20)) & ~((int64_t(2) << 20) - 1));
        e.stack.push_back(nodes[(rng >> 33) % nodes.size()]);
        e.step.push_back(static_cast<int32_t>(std::min<size_t>(i / per_step + 1, steps)));
        e.phase.push_back(static_cast<uint8_t>(1 + (i * 3 / per_step) % 3));  // fwd, bwd, opt
        e.thread.push_back(0);
        e.device.push_back(-1);
    }
    return t;
}

// A trace shaped like training: every step runs the same program (forward allocates one
// activation per layer and op plus temporaries, backward frees them in reverse while it
// allocates gradients, the optimizer makes short-lived temporaries), so addresses are reused
// step after step the way a caching allocator hands them out, sizes repeat per op, and only the
// times jitter. Weights and optimizer state are allocated once, before step 1.
Trace makeTrainingTrace(size_t n) {
    Trace t;
    t.meta.memscope_version = "bench";
    t.meta.device = "cpu";
    t.meta.threads = 2;
    t.meta.config = {{"preset", "workshop-default"}};
    const char* ops[] = {"aten::mm",  "aten::add",  "aten::softmax", "aten::empty",
                         "aten::mul", "aten::silu", "aten::rsqrt",   "aten::cat"};
    constexpr int kLayers = 12;
    std::vector<uint32_t> nodes;
    for (int block = 0; block < kLayers; ++block) {
        const auto module =
            t.stacks.internFrame({"TinyLlama.blocks." + std::to_string(block),
                                  "transformer_block.cpp", 10 + block, FrameKind::Module});
        const auto node = t.stacks.child(StackTable::kEmpty, module);
        for (const char* op : ops) {
            nodes.push_back(
                t.stacks.child(node, t.stacks.internFrame({op, "", 0, FrameKind::Operator})));
        }
    }
    for (int i = 0; i < 50; ++i) {
        OperatorStat s;
        s.name = "aten::op" + std::to_string(i);
        s.calls = 1000 + i;
        t.operators.push_back(s);
    }

    // A size-class allocator: freed blocks are reused by the next request of their size, so
    // each step gets the same addresses as the one before.
    std::map<int64_t, std::vector<uint64_t>> free_blocks;
    uint64_t top = 0x7f0000000000ULL;
    auto take = [&](int64_t size) {
        auto& list = free_blocks[size];
        if (!list.empty()) {
            const uint64_t a = list.back();
            list.pop_back();
            return a;
        }
        const uint64_t a = top;
        top += (uint64_t(size) + 511) & ~uint64_t(511);
        return a;
    };
    EventColumns& e = t.events;
    e.reserve(n);
    uint64_t rng = 0x243F6A8885A308D3ULL;
    int64_t time = 0, allocated = 0;
    int32_t step = 0;
    uint8_t phase = static_cast<uint8_t>(Phase::Init);
    auto push = [&](EventKind kind, uint64_t addr, int64_t size, uint32_t stack) {
        if (e.count() >= n)
            return;
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        time += 300 + int64_t((rng >> 40) % 2000);
        allocated += size;
        Event ev;
        ev.time_ns = time;
        ev.addr = addr;
        ev.size = size;
        ev.allocated = allocated;
        ev.reserved = (allocated + (int64_t(2) << 20)) & ~((int64_t(2) << 20) - 1);
        ev.stack = stack;
        ev.step = step;
        ev.kind = kind;
        ev.phase = static_cast<Phase>(phase);
        e.append(ev);
    };
    struct Block {
        uint64_t addr;
        int64_t size;
        uint32_t stack;
    };
    // weights and optimizer state
    for (int layer = 0; layer < kLayers * 4; ++layer) {
        const int64_t size = int64_t(64 * 64 * 4) << (layer % 3);
        push(EventKind::Alloc, take(size), size, nodes[size_t(layer) % nodes.size()]);
    }
    while (e.count() < n) {
        ++step;
        std::vector<Block> activations;
        phase = static_cast<uint8_t>(Phase::Forward);
        for (int layer = 0; layer < kLayers; ++layer) {
            for (size_t op = 0; op < 8; ++op) {
                const uint32_t stack = nodes[size_t(layer) * 8 + op];
                const int64_t size = int64_t(4096) << ((layer + op) % 6);
                const Block act{take(size), size, stack};
                push(EventKind::Alloc, act.addr, size, stack);
                activations.push_back(act);
                const int64_t tmp_size = 2048 + 512 * int64_t(op);
                const uint64_t tmp = take(tmp_size);
                push(EventKind::Alloc, tmp, tmp_size, stack);
                push(EventKind::Free, tmp, -tmp_size, stack);
                free_blocks[tmp_size].push_back(tmp);
            }
        }
        phase = static_cast<uint8_t>(Phase::Backward);
        std::vector<Block> grads;
        for (auto it = activations.rbegin(); it != activations.rend(); ++it) {
            const int64_t g_size = it->size;
            const uint64_t g = take(g_size);
            push(EventKind::Alloc, g, g_size, it->stack);
            push(EventKind::Free, it->addr, -it->size, it->stack);
            free_blocks[it->size].push_back(it->addr);
            grads.push_back({g, g_size, it->stack});
        }
        phase = static_cast<uint8_t>(Phase::Optimizer);
        for (const Block& g : grads) {
            push(EventKind::Free, g.addr, -g.size, g.stack);
            free_blocks[g.size].push_back(g.addr);
        }
        if (e.count() >= n)
            break;
        StepMetrics m;
        m.step = step;
        m.loss = 10.0 / step;
        t.steps.push_back(m);
    }
    t.summary = {{"steps", step}};
    return t;
}

double fileMb(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return 0;
    std::fseek(f, 0, SEEK_END);
    const double mb = double(std::ftell(f)) / 1e6;
    std::fclose(f);
    return mb;
}

template <typename T>
bool sameColumn(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
template <typename T>
bool sameColumn(const PackedColumn<T>& a, const PackedColumn<T>& b) {
    return a == b;
}

}  // namespace

bool sameTrace(const Trace& trace, const Trace& loaded) {
    const auto& a = trace.events;
    const auto& b = loaded.events;
    const size_t events = a.count();
    return sameColumn(a.time_ns, b.time_ns) && sameColumn(a.addr, b.addr) &&
           sameColumn(a.size, b.size) && sameColumn(a.allocated, b.allocated) &&
           sameColumn(a.reserved, b.reserved) && sameColumn(a.stack, b.stack) &&
           sameColumn(a.step, b.step) && sameColumn(a.kind, b.kind) &&
           sameColumn(a.phase, b.phase) && sameColumn(a.thread, b.thread) &&
           sameColumn(a.device, b.device) && loaded.stacks.parents() == trace.stacks.parents() &&
           loaded.stacks.frames() == trace.stacks.frames() &&
           loaded.operators.size() == trace.operators.size() &&
           loaded.steps.size() == trace.steps.size() &&
           loaded.allocations().size() == trace.allocations().size() &&
           (events == 0 || (loaded.events.at(events / 2).addr == trace.events.at(events / 2).addr &&
                            loaded.events.at(events - 1).size == trace.events.at(events - 1).size));
}

int main(int argc, char** argv) {
    size_t events = 10'000'000;
    std::string path = "/tmp/bench_run_file.memscope";
    std::string shape = "training";
    std::string load_only;
    bool keep = false, pickle = true;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--events") {
            events = std::strtoull(argv[i + 1], nullptr, 10);
        } else if (key == "--path") {
            path = argv[i + 1];
        } else if (key == "--shape") {
            shape = argv[i + 1];
        } else if (key == "--keep") {
            keep = std::string(argv[i + 1]) != "0";
        } else if (key == "--pickle") {
            pickle = std::string(argv[i + 1]) != "0";
        } else if (key == "--load") {
            load_only = argv[i + 1];
        } else {
            std::fprintf(stderr, "bench_run_file: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    if (shape != "training" && shape != "window") {
        std::fprintf(stderr, "bench_run_file: --shape is training or window, not %s\n",
                     shape.c_str());
        return 2;
    }
    try {
        if (!load_only.empty()) {
            const auto start = std::chrono::steady_clock::now();
            const Trace loaded = RunFile::load(load_only);
            std::printf("load        %.3f s  %zu events, %zu allocations (%s)\n",
                        secondsSince(start), loaded.events.count(), loaded.allocations().size(),
                        load_only.c_str());
            return 0;
        }
    } catch (const RunFileError& e) {
        std::fprintf(stderr, "bench_run_file: %s\n", e.what());
        return 1;
    }

    Trace trace = shape == "training" ? makeTrainingTrace(events) : makeTrace(events);
    events = trace.events.count();
    const std::string v1_path = path + ".v1.memscope";
    const std::string pickle_path = path + ".pickle";
    auto cleanup = [&]() {
        if (!keep) {
            std::remove(path.c_str());
            std::remove(v1_path.c_str());
            std::remove(pickle_path.c_str());
        }
    };
    try {
        RunFile::SaveOptions v1;
        v1.format_version = 1;
        auto start = std::chrono::steady_clock::now();
        RunFile::save(trace, v1_path, v1);
        const double save1_s = secondsSince(start);
        start = std::chrono::steady_clock::now();
        RunFile::save(trace, path);
        const double save2_s = secondsSince(start);
        // The fixed-width delta alternative to the varints (size only), for the record.
        RunFile::SaveOptions fixed;
        fixed.varints = false;
        const std::string fixed_path = path + ".fixed.memscope";
        start = std::chrono::steady_clock::now();
        RunFile::save(trace, fixed_path, fixed);
        const double save_fixed_s = secondsSince(start);
        const double mb1 = fileMb(v1_path), mb2 = fileMb(path), mb_fixed = fileMb(fixed_path);

        // Load each twice, alternating, and keep the faster: the first read of a file can
        // include the page cache filling.
        double load1_s = 1e9, load2_s = 1e9, load_fixed_s = 1e9;
        bool same = true;
        for (int round = 0; round < 2; ++round) {
            start = std::chrono::steady_clock::now();
            {
                const Trace loaded = RunFile::load(v1_path);
                load1_s = std::min(load1_s, secondsSince(start));
                if (round == 0) {
                    trace.finalize();
                    same = same && sameTrace(trace, loaded);
                }
            }
            start = std::chrono::steady_clock::now();
            {
                const Trace loaded = RunFile::load(path);
                load2_s = std::min(load2_s, secondsSince(start));
                if (round == 0)
                    same = same && sameTrace(trace, loaded);
            }
            start = std::chrono::steady_clock::now();
            {
                const Trace loaded = RunFile::load(fixed_path);
                load_fixed_s = std::min(load_fixed_s, secondsSince(start));
                if (round == 0)
                    same = same && sameTrace(trace, loaded);
            }
        }
        std::remove(fixed_path.c_str());
        // load() ends with finalize() (pairing allocs with frees); time it alone for context.
        start = std::chrono::steady_clock::now();
        trace.finalize();
        const double finalize_s = secondsSince(start);

        double pickle_mb = 0, pickle_s = 0;
        if (pickle) {
            start = std::chrono::steady_clock::now();
            SnapshotExporter::write(trace, pickle_path);
            pickle_s = secondsSince(start);
            pickle_mb = fileMb(pickle_path);
        }

        std::printf("events      %zu (%s shape, %zu allocations)\n", events, shape.c_str(),
                    trace.allocations().size());
        std::printf("v1 file     %8.1f MB  save %.3f s  load %.3f s  %.0f MB/s\n", mb1, save1_s,
                    load1_s, mb1 / load1_s);
        std::printf("v2 file     %8.1f MB  save %.3f s  load %.3f s  (%.2fx v1's load time)\n", mb2,
                    save2_s, load2_s, load2_s / load1_s);
        std::printf("v2 fixed-width deltas %.1f MB  save %.3f s  load %.3f s\n", mb_fixed,
                    save_fixed_s, load_fixed_s);
        if (pickle) {
            std::printf("pickle      %8.1f MB  export %.3f s  (v2 is %.1f%% of the pickle)\n",
                        pickle_mb, pickle_s, 100.0 * mb2 / pickle_mb);
        }
        std::printf("finalize    %.3f s (part of every load)\n", finalize_s);

        const auto& a = trace.events;
        // The column checksum alone, over the largest kind of column (the format's own hash).
        start = std::chrono::steady_clock::now();
        uint64_t sum = 0;
        const int passes = 5;
        const std::vector<uint64_t> addresses = a.addr.toVector();
        for (int p = 0; p < passes; ++p) {
            sum ^= RunFile::checksum(addresses.data(), addresses.size() * sizeof(addresses[0]));
        }
        const double sum_s = secondsSince(start);
        std::printf("checksum    %.1f GB/s (%016llx)\n",
                    double(passes) * double(a.addr.size() * sizeof(a.addr[0])) / 1e9 / sum_s,
                    static_cast<unsigned long long>(sum));
        std::printf("verify      %s (%zu allocations)\n", same ? "ok" : "MISMATCH",
                    trace.allocations().size());
        cleanup();
        return same ? 0 : 1;
    } catch (const std::exception& e) {
        cleanup();
        std::fprintf(stderr, "bench_run_file: %s\n", e.what());
        return 1;
    }
}
