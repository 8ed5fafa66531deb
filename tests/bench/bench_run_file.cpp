// Saves and loads a synthetic trace as .memscope and prints the figures: events, file size,
// seconds and MB/s for each. The target is ten million events each way in under two seconds.
//
//   bench_run_file [--events N] [--path FILE]   (default 10,000,000 events, /tmp)

#include "io/run_file.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    auto resize = [n](auto& v) { v.resize(n); };
    resize(e.time_ns), resize(e.addr), resize(e.size), resize(e.allocated), resize(e.reserved);
    resize(e.stack), resize(e.step), resize(e.kind), resize(e.phase), resize(e.thread);
    resize(e.device);
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
            e.size[i] = size;
            e.kind[i] = static_cast<uint8_t>(EventKind::Alloc);
        } else {
            slot = next_free++ % live_size.size();
            e.size[i] = -live_size[slot];
            e.kind[i] = static_cast<uint8_t>(EventKind::Free);
        }
        allocated += e.size[i];
        e.time_ns[i] = int64_t(i) * 700 + int64_t((rng >> 50) % 300);
        e.addr[i] = 0x7f0000000000ULL + uint64_t(slot) * 0x200000;
        e.allocated[i] = allocated;
        e.reserved[i] = (allocated + (int64_t(2) << 20)) & ~((int64_t(2) << 20) - 1);
        e.stack[i] = nodes[(rng >> 33) % nodes.size()];
        e.step[i] = static_cast<int32_t>(std::min<size_t>(i / per_step + 1, steps));
        e.phase[i] = static_cast<uint8_t>(1 + (i * 3 / per_step) % 3);  // forward, backward, opt
        e.thread[i] = 0;
        e.device[i] = -1;
    }
    return t;
}

template <typename T>
bool sameColumn(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace

int main(int argc, char** argv) {
    size_t events = 10'000'000;
    std::string path = "/tmp/bench_run_file.memscope";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--events") {
            events = std::strtoull(argv[i + 1], nullptr, 10);
        } else if (key == "--path") {
            path = argv[i + 1];
        } else {
            std::fprintf(stderr, "bench_run_file: unknown option %s\n", key.c_str());
            return 2;
        }
    }

    Trace trace = makeTrace(events);
    try {
        auto start = std::chrono::steady_clock::now();
        RunFile::save(trace, path);
        const double save_s = secondsSince(start);

        std::FILE* f = std::fopen(path.c_str(), "rb");
        std::fseek(f, 0, SEEK_END);
        const double mb = double(std::ftell(f)) / 1e6;
        std::fclose(f);

        start = std::chrono::steady_clock::now();
        const Trace loaded = RunFile::load(path);
        const double load_s = secondsSince(start);

        // load() ends with finalize() (pairing allocs with frees); time it alone for context.
        start = std::chrono::steady_clock::now();
        trace.finalize();
        const double finalize_s = secondsSince(start);
        std::remove(path.c_str());

        std::printf("events      %zu\n", events);
        std::printf("file        %.1f MB (%s)\n", mb, path.c_str());
        std::printf("save        %.3f s  %.0f MB/s\n", save_s, mb / save_s);
        std::printf("load        %.3f s  %.0f MB/s  (of which finalize() ~%.3f s)\n", load_s,
                    mb / load_s, finalize_s);

        const auto& a = trace.events;
        const auto& b = loaded.events;
        const bool same = sameColumn(a.time_ns, b.time_ns) && sameColumn(a.addr, b.addr) &&
                          sameColumn(a.size, b.size) && sameColumn(a.allocated, b.allocated) &&
                          sameColumn(a.reserved, b.reserved) && sameColumn(a.stack, b.stack) &&
                          sameColumn(a.step, b.step) && sameColumn(a.kind, b.kind) &&
                          sameColumn(a.phase, b.phase) && sameColumn(a.thread, b.thread) &&
                          sameColumn(a.device, b.device) &&
                          loaded.stacks.parents() == trace.stacks.parents() &&
                          loaded.stacks.frames() == trace.stacks.frames() &&
                          loaded.operators.size() == trace.operators.size() &&
                          loaded.steps.size() == trace.steps.size() &&
                          loaded.allocations().size() == trace.allocations().size() &&
                          (events == 0 ||
                           (loaded.events.at(events / 2).addr == trace.events.at(events / 2).addr &&
                            loaded.events.at(events - 1).size == trace.events.at(events - 1).size));
        // The column checksum alone, over the largest kind of column (the format's own hash).
        start = std::chrono::steady_clock::now();
        uint64_t sum = 0;
        const int passes = 5;
        for (int p = 0; p < passes; ++p) {
            sum ^= RunFile::checksum(a.addr.data(), a.addr.size() * sizeof(a.addr[0]));
        }
        const double sum_s = secondsSince(start);
        std::printf("checksum    %.1f GB/s (%016llx)\n",
                    double(passes) * double(a.addr.size() * sizeof(a.addr[0])) / 1e9 / sum_s,
                    static_cast<unsigned long long>(sum));
        std::printf("verify      %s (%zu allocations)\n", same ? "ok" : "MISMATCH",
                    loaded.allocations().size());
        return same ? 0 : 1;
    } catch (const RunFileError& e) {
        std::remove(path.c_str());
        std::fprintf(stderr, "bench_run_file: %s\n", e.what());
        return 1;
    }
}
