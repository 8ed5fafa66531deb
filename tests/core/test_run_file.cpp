// The .memscope run file: lossless round trips, and clear RunFileErrors (never a crash) for
// truncated, foreign, newer, damaged or inconsistent files.

#include "io/atomic_file.h"
#include "io/column_codec.h"
#include "io/run_file.h"
#include "model/cancellation.h"
#include "model/config_error.h"
#include "model/input_error.h"
#include "model/preset.h"
#include "pickle/pickle_error.h"
#include "trace/recorded_options.h"
#include "trace/trace_range.h"

#include <zstd.h>
#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include <atomic>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <type_traits>

using namespace memscope;
using nlohmann::json;

namespace {

// A few dozen events over a small stack table: every event kind, phase, two threads, CPU and a
// GPU, frees without allocs, a Role event, negative times and steps where the type allows.
Trace makeTrace() {
    Trace t;
    t.meta.memscope_version = "0.1.0";
    t.meta.torch_version = "2.3.0";
    t.meta.device = "cuda:0";
    t.meta.device_name = "Test GPU";
    t.meta.threads = 2;
    t.meta.started_at = "2024-05-01T12:00:00Z";
    t.meta.source = "recorded";
    t.meta.config = {{"preset", "workshop-default"}, {"batch_size", 8}, {"lr", 3e-4}};
    t.meta.max_events = 123456;
    t.meta.dropped_events = 789;
    t.meta.capacity_bytes = int64_t(1) << 33;

    const auto model = t.stacks.internFrame({"TinyLlama", "tiny_llama.cpp", 42, FrameKind::Module});
    const auto block = t.stacks.internFrame(
        {"TinyLlama.blocks.0", "transformer_block.cpp", 17, FrameKind::Module});
    const auto mm = t.stacks.internFrame({"aten::mm", "", 0, FrameKind::Operator});
    const auto back = t.stacks.internFrame({"MmBackward0", "", 0, FrameKind::BackwardNode});
    const auto of =
        t.stacks.internFrame({"backward of TinyLlama.blocks.0", "", 0, FrameKind::BackwardOf});
    const auto other = t.stacks.internFrame({"optimizer.step ünïcode", "", 0, FrameKind::Other});
    const auto n1 = t.stacks.child(StackTable::kEmpty, model);
    const auto n2 = t.stacks.child(n1, block);
    const auto n3 = t.stacks.child(n2, mm);
    const auto n4 = t.stacks.child(StackTable::kEmpty, back);
    const auto n5 = t.stacks.child(n4, of);
    const auto n6 = t.stacks.child(StackTable::kEmpty, other);
    const uint32_t nodes[] = {StackTable::kEmpty, n1, n2, n3, n4, n5, n6};

    int64_t live = 0;
    for (int i = 0; i < 40; ++i) {
        Event e;
        e.time_ns = int64_t(i) * 1000 - 5;
        e.addr = 0x7f0000000000ULL + uint64_t(i / 2) * 0x1000;
        e.kind = (i % 2 == 0) ? EventKind::Alloc : EventKind::Free;
        e.size = (i % 2 == 0) ? 512 * (i + 1) : -512 * i;
        if (i == 7)
            e.kind = EventKind::Oom, e.size = int64_t(1) << 40;
        if (i == 11)
            e.kind = EventKind::SegmentAlloc, e.size = 2 << 20;
        if (i == 13)
            e.kind = EventKind::SegmentFree, e.size = -(2 << 20);
        if (i == 17)
            e.kind = EventKind::Role, e.addr -= 0x1000, e.size = 4;
        if (e.kind == EventKind::Alloc || e.kind == EventKind::Free)
            live += e.size;
        e.allocated = live;
        e.reserved = live + 4096;
        e.stack = nodes[i % 7];
        e.step = i / 8 - 1;
        e.phase = static_cast<Phase>(i % kPhaseCount);
        e.thread = static_cast<uint16_t>(i % 3 == 0 ? 1 : 0);
        e.device = static_cast<int16_t>(i % 5 == 0 ? -1 : 0);
        t.events.append(e);
    }

    OperatorStat op;
    op.name = "aten::mm";
    op.calls = 12, op.total_ns = 3456789, op.self_ns = 3000000, op.device_ns = 2000;
    op.bytes_allocated = 1 << 20, op.self_bytes_allocated = 1 << 19, op.self_net_bytes = -4096;
    op.largest_allocation = 65536, op.flops = 1.5e9;
    t.operators.push_back(op);
    OperatorStat mod;
    mod.name = "TinyLlama.blocks.0";
    mod.is_module = true;
    mod.calls = 3;
    mod.total_ns = 99;
    t.operators.push_back(mod);

    for (int s = 1; s <= 3; ++s) {
        StepMetrics m;
        m.step = s;
        m.warmup = s == 1;
        m.loss = 10.0 / s;
        m.forward_s = 0.01 * s, m.backward_s = 0.02 * s, m.optimizer_s = 0.003, m.total_s = 0.05;
        m.peak_allocated_bytes = 1000000 + s;
        m.allocated_bytes_at_end = 500000 - s;
        t.steps.push_back(m);
    }
    t.summary = {{"avg_step_s", 0.05}, {"peak", 1000003}, {"notes", {"a", "b"}}};
    t.segment_tags = {SegmentTag{11, 7, "large"}, SegmentTag{3, -2, "graph pool ü"}};
    t.spans = {Span{10, 20, 3, 1, 1}, Span{-5, 40000, 1, 0, 0}};
    t.shape_strings = {"", "[8, 128]"};
    t.phases = {PhaseInterval{Phase::Forward, 1, 0, 100},
                PhaseInterval{Phase::Backward, 1, 100, 250}};
    t.finalize();
    return t;
}

RunFile::SaveOptions version1() {
    RunFile::SaveOptions o;
    o.format_version = 1;
    return o;
}

// Version 2 with chunks of 7 events: 40 events make six chunks per column, the last one short.
RunFile::SaveOptions smallChunks(bool varints = true) {
    RunFile::SaveOptions o;
    o.chunk_events = 7;
    o.varints = varints;
    return o;
}

std::vector<uint8_t> readAll(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const QString& path, const std::vector<uint8_t>& bytes) {
    // A fresh file, not a truncated one: ext4 flushes truncated files to disk on close, which
    // would make thousands of rewrites take seconds.
    std::remove(path.toStdString().c_str());
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

uint64_t headerSize(const std::vector<uint8_t>& bytes) {
    uint64_t h = 0;
    for (int i = 0; i < 8; ++i)
        h |= uint64_t(bytes[12 + i]) << (8 * i);
    return h;
}

json headerOf(const std::vector<uint8_t>& bytes) {
    const auto h = headerSize(bytes);
    return json::from_cbor(bytes.begin() + 20, bytes.begin() + 20 + std::ptrdiff_t(h));
}

// Version 2: the header is a zstd frame around the CBOR.
json headerOfV2(const std::vector<uint8_t>& bytes) {
    const auto h = headerSize(bytes);
    std::vector<uint8_t> cbor(1 << 20);
    const size_t n = ZSTD_decompress(cbor.data(), cbor.size(), bytes.data() + 20, h);
    if (ZSTD_isError(n))
        return json();
    cbor.resize(n);
    return json::from_cbor(cbor);
}

std::vector<uint8_t> withHeaderV2(const std::vector<uint8_t>& bytes, const json& header) {
    const auto old_size = headerSize(bytes);
    const auto cbor = json::to_cbor(header);
    std::vector<uint8_t> z(ZSTD_compressBound(cbor.size()));
    z.resize(ZSTD_compress(z.data(), z.size(), cbor.data(), cbor.size(), 3));
    std::vector<uint8_t> out(bytes.begin(), bytes.begin() + 12);
    for (int i = 0; i < 8; ++i)
        out.push_back(uint8_t(uint64_t(z.size()) >> (8 * i)));
    out.insert(out.end(), z.begin(), z.end());
    out.insert(out.end(), bytes.begin() + 20 + std::ptrdiff_t(old_size), bytes.end());
    return out;
}

// Absolute offset and stored length of chunk k of a version 2 column.
std::pair<size_t, size_t> chunkSpan(const std::vector<uint8_t>& bytes, const std::string& name,
                                    size_t k) {
    const auto header = headerOfV2(bytes);
    for (const auto& c : header["columns"]) {
        if (c["name"] == name) {
            return {20 + headerSize(bytes) + c["chunks"][k][0].get<size_t>(),
                    c["chunks"][k][1].get<size_t>()};
        }
    }
    return {0, 0};
}

// Every column and header field of b equals a's (version 2 also keeps segment tags).
void compareTraces(const Trace& a, const Trace& b, bool with_segment_tags) {
    QCOMPARE(b.events.count(), a.events.count());
    QCOMPARE(b.events.time_ns, a.events.time_ns);
    QCOMPARE(b.events.addr, a.events.addr);
    QCOMPARE(b.events.size, a.events.size);
    QCOMPARE(b.events.allocated, a.events.allocated);
    QCOMPARE(b.events.reserved, a.events.reserved);
    QCOMPARE(b.events.stack, a.events.stack);
    QCOMPARE(b.events.step, a.events.step);
    QCOMPARE(b.events.kind, a.events.kind);
    QCOMPARE(b.events.phase, a.events.phase);
    QCOMPARE(b.events.thread, a.events.thread);
    QCOMPARE(b.events.device, a.events.device);
    QVERIFY(b.stacks.frames() == a.stacks.frames());
    QCOMPARE(b.stacks.parents(), a.stacks.parents());
    QCOMPARE(b.stacks.nodeFrames(), a.stacks.nodeFrames());
    QCOMPARE(b.meta.toJson(), a.meta.toJson());
    QCOMPARE(b.summary, a.summary);
    QCOMPARE(b.operators.size(), a.operators.size());
    for (size_t i = 0; i < a.operators.size(); ++i)
        QCOMPARE(b.operators[i].toJson(), a.operators[i].toJson());
    QCOMPARE(b.steps.size(), a.steps.size());
    for (size_t i = 0; i < a.steps.size(); ++i)
        QCOMPARE(b.steps[i].toJson(), a.steps[i].toJson());
    QCOMPARE(b.spans.size(), a.spans.size());
    for (size_t i = 0; i < a.spans.size(); ++i) {
        QCOMPARE(b.spans[i].begin_ns, a.spans[i].begin_ns);
        QCOMPARE(b.spans[i].end_ns, a.spans[i].end_ns);
        QCOMPARE(b.spans[i].stack, a.spans[i].stack);
        QCOMPARE(b.spans[i].thread, a.spans[i].thread);
        QCOMPARE(b.spans[i].shapes, a.spans[i].shapes);
    }
    QCOMPARE(b.shape_strings, a.shape_strings);
    QCOMPARE(b.phases.size(), a.phases.size());
    for (size_t i = 0; i < a.phases.size(); ++i) {
        QCOMPARE(int(b.phases[i].phase), int(a.phases[i].phase));
        QCOMPARE(b.phases[i].step, a.phases[i].step);
        QCOMPARE(b.phases[i].begin_ns, a.phases[i].begin_ns);
        QCOMPARE(b.phases[i].end_ns, a.phases[i].end_ns);
    }
    if (with_segment_tags) {
        QCOMPARE(b.segment_tags.size(), a.segment_tags.size());
        for (size_t i = 0; i < a.segment_tags.size(); ++i) {
            QCOMPARE(b.segment_tags[i].event, a.segment_tags[i].event);
            QCOMPARE(b.segment_tags[i].stream, a.segment_tags[i].stream);
            QCOMPARE(b.segment_tags[i].pool, a.segment_tags[i].pool);
        }
        QCOMPARE(b.segments().size(), a.segments().size());
    }
    QCOMPARE(b.allocations().size(), a.allocations().size());
    QCOMPARE(b.allocationOfEvent(), a.allocationOfEvent());
}

// A random trace shaped like training: steps that allocate and free over a small pool of reused
// addresses (so some allocations live across many steps), Role events, segments reserved and
// released, every kind of column value. allocated is the running total of live bytes, as the
// recorder writes it.
Trace randomTrace(std::mt19937_64& rng, size_t n) {
    Trace t;
    t.meta.source = "random";
    const auto f = t.stacks.internFrame({"op", "", 0, FrameKind::Operator});
    const uint32_t node = t.stacks.child(StackTable::kEmpty, f);
    std::map<uint64_t, int64_t> live, segments;
    int64_t allocated = 0, reserved = 0;
    int64_t time = 0;
    for (size_t i = 0; i < n; ++i) {
        Event e;
        time += int64_t(rng() % 1000);
        e.time_ns = time - int64_t(rng() % 3) * 400;  // slightly out of order now and then
        e.addr = 0x1000 * (1 + rng() % 24);
        e.device = int16_t(rng() % 4 == 0 ? 1 : 0);
        e.stack = uint32_t(rng() % 2 ? node : 0);
        e.step = int32_t(i / 50);
        e.phase = static_cast<Phase>(rng() % kPhaseCount);
        e.thread = uint16_t(rng() % 2);
        const uint64_t key = e.addr ^ (uint64_t(uint16_t(e.device)) << 48);
        const int r = int(rng() % 20);
        if (r < 2) {
            const uint64_t seg_key = key + 0x100000;
            e.addr += 0x100000;
            if (segments.count(seg_key)) {
                e.kind = EventKind::SegmentFree;
                e.size = -segments[seg_key];
                reserved -= segments[seg_key];
                segments.erase(seg_key);
            } else {
                e.kind = EventKind::SegmentAlloc;
                e.size = int64_t(1 + rng() % 4) << 20;
                reserved += e.size;
                segments[seg_key] = e.size;
                if (rng() % 2)
                    t.segment_tags.push_back(SegmentTag{int64_t(i), int64_t(rng() % 3), "p"});
            }
        } else if (r < 4 && live.count(key)) {
            e.kind = EventKind::Role;
            e.size = int64_t(rng() % kCategoryCount);
        } else if (r == 4) {
            e.kind = EventKind::Oom;
            e.size = 1 << 30;
        } else if (live.count(key) && r < 12) {
            e.kind = EventKind::Free;
            e.size = -live[key];
            allocated -= live[key];
            live.erase(key);
        } else {
            e.kind = EventKind::Alloc;
            e.size = int64_t(1 + rng() % 64) * 512;
            if (live.count(key))
                allocated -= live[key];  // a second alloc ends the first (its free was lost)
            live[key] = e.size;
            allocated += e.size;
        }
        e.allocated = allocated;
        e.reserved = reserved;
        t.events.append(e);
    }
    return t;
}

// The file with its header replaced (the preamble's length updated); columns kept.
std::vector<uint8_t> withHeader(const std::vector<uint8_t>& bytes, const json& header) {
    const auto old_size = headerSize(bytes);
    const auto cbor = json::to_cbor(header);
    std::vector<uint8_t> out(bytes.begin(), bytes.begin() + 12);
    for (int i = 0; i < 8; ++i)
        out.push_back(uint8_t(uint64_t(cbor.size()) >> (8 * i)));
    out.insert(out.end(), cbor.begin(), cbor.end());
    out.insert(out.end(), bytes.begin() + 20 + std::ptrdiff_t(old_size), bytes.end());
    return out;
}

// Absolute offset and length of a column in the file.
std::pair<size_t, size_t> columnSpan(const std::vector<uint8_t>& bytes, const std::string& name) {
    const auto header = headerOf(bytes);
    for (const auto& c : header["columns"]) {
        if (c["name"] == name) {
            return {20 + headerSize(bytes) + c["offset"].get<size_t>(), c["length"].get<size_t>()};
        }
    }
    return {0, 0};
}

// Overwrites a column's bytes and fixes its checksum, so only the value checks can object.
std::vector<uint8_t> withColumnBytes(std::vector<uint8_t> bytes, const std::string& name,
                                     size_t byte_index, uint8_t value) {
    const auto [offset, length] = columnSpan(bytes, name);
    bytes[offset + byte_index] = value;
    auto header = headerOf(bytes);
    for (auto& c : header["columns"]) {
        if (c["name"] == name)
            c["checksum"] = RunFile::checksum(bytes.data() + offset, length);
    }
    return withHeader(bytes, header);
}

// The RunFileError message loading PATH gives, or "" when it loads.
QString loadError(const QString& path) {
    try {
        RunFile::load(path.toStdString());
    } catch (const RunFileError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestRunFile : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    // makeTrace() saved in format version 1 (the tests of the v1 layout below use it: readers
    // still read version 1) and in version 2 with chunks of 7 events.
    QString m_path;
    std::vector<uint8_t> m_bytes;
    QString m_v2Path;
    std::vector<uint8_t> m_v2Bytes;

    QString path(const char* name) const { return m_dir.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_path = path("run.memscope");
        RunFile::save(makeTrace(), m_path.toStdString(), version1());
        m_bytes = readAll(m_path);
        QVERIFY(m_bytes.size() > 100);
        QCOMPARE(int(m_bytes[8]), 1);
        m_v2Path = path("run2.memscope");
        RunFile::save(makeTrace(), m_v2Path.toStdString(), smallChunks());
        m_v2Bytes = readAll(m_v2Path);
        QCOMPARE(int(m_v2Bytes[8]), 2);
    }

    // A run's stored configuration is read typed through one function (issue 30): what a
    // recording stores comes back whole, a partial one is filled from its preset, and what is
    // not a training configuration reads as none rather than as defaults.
    void theStoredConfigurationReadsTyped() {
        RunMetadata meta;
        QVERIFY(!recordedOptions(meta));  // a bare import: {}
        TrainOptions recorded = TrainOptions::fromPreset("study-tiny");
        recorded.batch_size = 3;
        recorded.dtype = Dtype::BFloat16;
        recorded.attention = AttentionKind::MemoryEfficient;
        recorded.num_steps = 7;
        meta.config = recorded.toJson();
        const auto back = recordedOptions(meta);
        QVERIFY(back);
        QCOMPARE(back->toJson(), recorded.toJson());
        // Through a saved file too.
        Trace t = makeTrace();
        t.meta.config = recorded.toJson();
        const auto p = path("config.memscope").toStdString();
        RunFile::save(t, p);
        QCOMPARE(recordedOptions(RunFile::load(p).meta)->toJson(), recorded.toJson());
        // A partial configuration: the preset's shape, then its keys.
        const auto partial =
            recordedOptions(nlohmann::json{{"preset", "study-tiny"}, {"seq_len", 64}});
        QVERIFY(partial);
        QCOMPARE(partial->model.hidden_dim,
                 TrainOptions::fromPreset("study-tiny").model.hidden_dim);
        QCOMPARE(partial->seq_len, int64_t(64));
        QCOMPARE(recordedOptions(nlohmann::json{{"batch_size", 2}})->preset, std::string("custom"));
        // Not a training configuration.
        QVERIFY(!recordedOptions(nlohmann::json{{"program", "train.py"}}));
        QVERIFY(!recordedOptions(nlohmann::json{{"num_steps", "8"}}));  // wrong type
        QVERIFY(!recordedOptions(nlohmann::json{{"dtype", "int3"}}));   // unknown name
        QVERIFY(!recordedOptions(nlohmann::json::array({1, 2})));
    }

    void version2RoundTripsEveryColumnAndHeaderField() {
        const Trace a = makeTrace();
        for (const bool varints : {true, false}) {
            for (const uint64_t chunk : {uint64_t(1), uint64_t(7), uint64_t(40), uint64_t(1000)}) {
                RunFile::SaveOptions o = smallChunks(varints);
                o.chunk_events = chunk;
                const auto p = path("v2.memscope").toStdString();
                RunFile::save(a, p, o);
                compareTraces(a, RunFile::load(p), true);
            }
        }
        // Extreme values survive the delta and zig-zag encodings.
        Trace x = makeTrace();
        x.events.time_ns.set(0, std::numeric_limits<int64_t>::min());
        x.events.time_ns.set(1, std::numeric_limits<int64_t>::max());
        x.events.addr.set(2, ~uint64_t(0));
        x.events.addr.set(3, 0);
        // Byte counts as far as a file may take them (beyond 256 TiB is damage, refused below).
        x.events.allocated.set(4, -kMaxEventBytes);
        x.events.reserved.set(5, kMaxEventBytes);
        x.events.step.set(6, std::numeric_limits<int32_t>::min());
        x.events.step.set(7, 1 << 20);  // (the categorizer indexes by step: not 2^31)
        x.events.size.set(8, -kMaxEventBytes);
        x.finalize();
        for (const bool varints : {true, false}) {
            const auto p = path("extreme.memscope").toStdString();
            RunFile::save(x, p, smallChunks(varints));
            compareTraces(x, RunFile::load(p), true);
        }
        x.events.size.set(8, -kMaxEventBytes - 1);
        const auto refused = path("refused.memscope");
        try {
            RunFile::save(x, refused.toStdString());
            QFAIL("a size beyond 256 TiB was saved");
        } catch (const RunFileError& e) {
            QCOMPARE(QString(e.what()), refused + ": cannot save: event 8 has size " +
                                            QString::number(-kMaxEventBytes - 1) +
                                            ", beyond 256 TiB");
        }
        QVERIFY(!QFile::exists(refused));
        // The default chunking, and a file of version 2 is what save() writes by default.
        const auto p = path("default.memscope");
        RunFile::save(a, p.toStdString());
        QCOMPARE(int(readAll(p)[8]), 2);
        compareTraces(a, RunFile::load(p.toStdString()), true);
    }

    void everyEncodingRoundTripsEveryValueOfEveryType() {
        const auto roundTrip = [](const auto& values) {
            using T = typename std::decay_t<decltype(values)>::value_type;
            for (const auto e : {ColumnEncoding::Raw, ColumnEncoding::Delta, ColumnEncoding::Varint,
                                 ColumnEncoding::DeltaVarint}) {
                std::vector<uint8_t> bytes;
                encodeColumn(values.data(), values.size(), e, bytes);
                QVERIFY(bytes.size() <= maxEncodedBytes(values.size(), sizeof(T), e));
                std::vector<T> back(values.size());
                QVERIFY2(decodeColumn(bytes.data(), bytes.size(), e, back.data(), back.size()),
                         columnEncodingName(e));
                QVERIFY2(back == values, columnEncodingName(e));
                // One byte short, or one too many, does not decode.
                if (!bytes.empty()) {
                    QVERIFY(
                        !decodeColumn(bytes.data(), bytes.size() - 1, e, back.data(), back.size()));
                }
                bytes.push_back(0);
                QVERIFY(!decodeColumn(bytes.data(), bytes.size(), e, back.data(), back.size()));
            }
        };
        using L64 = std::numeric_limits<int64_t>;
        roundTrip(std::vector<int64_t>{L64::min(), L64::max(), 0, -1, L64::min(), 1, L64::max(),
                                       L64::max(), L64::min() + 1});
        roundTrip(std::vector<uint64_t>{~uint64_t(0), 0, uint64_t(1) << 63, 1, ~uint64_t(0)});
        roundTrip(std::vector<int32_t>{INT32_MIN, INT32_MAX, 0, -1, INT32_MIN});
        roundTrip(std::vector<uint32_t>{UINT32_MAX, 0, UINT32_MAX, 7});
        roundTrip(std::vector<int16_t>{INT16_MIN, INT16_MAX, -1});
        roundTrip(std::vector<uint16_t>{UINT16_MAX, 0, UINT16_MAX});
        roundTrip(std::vector<uint8_t>{255, 0, 255, 1});
    }

    void version1FilesStillLoad() {
        // The version 1 writer is the one Memscope used before version 2, kept byte for byte.
        const Trace a = makeTrace();
        const Trace b = RunFile::load(m_path.toStdString());
        compareTraces(a, b, false);
        QVERIFY(b.segment_tags.empty());  // version 1 never stored them
    }

    void version2IsSmallerOnTrainingLikeTraces() {
        std::mt19937_64 rng(7);
        Trace t = randomTrace(rng, 20000);
        t.finalize();
        const auto p1 = path("size1.memscope"), p2 = path("size2.memscope");
        RunFile::save(t, p1.toStdString(), version1());
        RunFile::save(t, p2.toStdString());
        const auto s1 = readAll(p1).size(), s2 = readAll(p2).size();
        qInfo("20,000 random events: version 1 %zu bytes, version 2 %zu bytes", s1, s2);
        QVERIFY2(s2 * 3 < s1, qPrintable(QString("v1 %1, v2 %2").arg(s1).arg(s2)));
    }

    void corruptChunksNameFileColumnAndChunk() {
        const auto p = path("corrupt2.memscope");
        {
            auto bytes = m_v2Bytes;
            const auto [offset, length] = chunkSpan(bytes, "addr", 2);
            QVERIFY(length > 0);
            bytes[offset + length / 2] ^= 0x01;
            writeAll(p, bytes);
            QCOMPARE(loadError(p), p + ": column 'addr' chunk 2 is corrupt (checksum mismatch)");
        }
        {
            // Damage the checksum cannot see (the sum fixed up): zstd or the decoder objects.
            auto bytes = m_v2Bytes;
            const auto [offset, length] = chunkSpan(bytes, "time_ns", 1);
            for (size_t i = 4; i < length; ++i)
                bytes[offset + i] = 0xA5;
            auto header = headerOfV2(bytes);
            for (auto& c : header["columns"]) {
                if (c["name"] == "time_ns")
                    c["chunks"][1][3] = RunFile::checksum(bytes.data() + offset, length);
            }
            writeAll(p, withHeaderV2(bytes, header));
            const auto message = loadError(p);
            QVERIFY2(message.startsWith(p + ": column 'time_ns' chunk 1 is corrupt ("),
                     qPrintable(message));
        }
        {
            // A valid frame holding the wrong number of varints.
            auto header = headerOfV2(m_v2Bytes);
            auto bytes = m_v2Bytes;
            const std::vector<uint8_t> raw(7 * 2, 0x01);  // 14 one-byte varints, 7 expected
            std::vector<uint8_t> z(ZSTD_compressBound(raw.size()));
            z.resize(ZSTD_compress(z.data(), z.size(), raw.data(), raw.size(), 1));
            // appended after the last chunk, the directory pointing at it
            const size_t data_start = 20 + headerSize(bytes);
            const size_t offset = bytes.size() - data_start;
            bytes.insert(bytes.end(), z.begin(), z.end());
            for (auto& c : header["columns"]) {
                if (c["name"] == "step") {
                    c["chunks"][0] = {offset, z.size(), raw.size(),
                                      RunFile::checksum(z.data(), z.size())};
                }
            }
            writeAll(p, withHeaderV2(bytes, header));
            QCOMPARE(loadError(p), p + ": column 'step' chunk 0 is corrupt (its delta_varint "
                                       "values do not decode to 7 events)");
        }
    }

    void truncatedVersion2FilesAreErrors() {
        const auto p = path("cut2.memscope");
        writeAll(p, std::vector<uint8_t>(m_v2Bytes.begin(), m_v2Bytes.end() - 1));
        const auto [offset, length] = chunkSpan(m_v2Bytes, "device", 5);
        QCOMPARE(loadError(p), p + QString(": truncated: column 'device' chunk 5 needs %1 bytes "
                                           "at offset %2, file has %3")
                                       .arg(length)
                                       .arg(offset)
                                       .arg(m_v2Bytes.size() - 1));
        for (int k = 0; k < 41; ++k) {
            const size_t cut = m_v2Bytes.size() * size_t(k) / 41;
            writeAll(p,
                     std::vector<uint8_t>(m_v2Bytes.begin(), m_v2Bytes.begin() + ptrdiff_t(cut)));
            const auto message = loadError(p);
            QVERIFY2(message.startsWith(p + ": "), qPrintable(message));
            if (cut >= 20)
                QVERIFY2(message.contains("truncated") || message.contains("header is not valid"),
                         qPrintable(message));
        }
    }

    void inconsistentVersion2DirectoriesAreRejected() {
        const auto p = path("dir2.memscope");
        auto expectError = [&](const std::function<void(json&)>& edit, const QString& expected) {
            auto header = headerOfV2(m_v2Bytes);
            edit(header);
            writeAll(p, withHeaderV2(m_v2Bytes, header));
            const auto message = loadError(p);
            QVERIFY2(message.contains(expected), qPrintable(message));
        };
        expectError([](json& h) { h["events"] = uint64_t(1) << 60; }, "truncated: header declares");
        expectError([](json& h) { h["events"] = 39; }, "chunk 5 declares");
        expectError([](json& h) { h["events"] = 50; }, "does not list 8 chunks for 50 events");
        expectError([](json& h) { h["chunk_events"] = 0; }, "'chunk_events' is 0");
        expectError([](json& h) { h["columns"][1]["encoding"] = "lz4"; },
                    "column 'addr' has no known encoding");
        expectError([](json& h) { h["columns"][7]["chunks"][0][2] = 1000000; },
                    "column 'kind' chunk 0 declares 1000000 encoded bytes for 7 events");
        expectError([](json& h) { h["columns"][3]["chunks"][2][0] = uint64_t(-8); },
                    "truncated: column 'allocated' chunk 2 needs");
        expectError([](json& h) { h["columns"][3]["chunks"][2] = "x"; },
                    "column 'allocated' chunk 2 is not [offset, length, raw, sum]");
        expectError([](json& h) { h["columns"].erase(4); }, "column 'reserved' is missing");
        expectError([](json& h) { h["segment_tags"]["pool"] = json::array(); },
                    "bad segment_tags: tag arrays have different lengths");
        // A header that is not a zstd frame.
        auto bytes = m_v2Bytes;
        bytes[20] ^= 0xff;
        writeAll(p, bytes);
        QVERIFY2(loadError(p).contains("header is not valid zstd"), qPrintable(loadError(p)));
    }

    void randomMutationsOfVersion2NeverCrash() {
        std::mt19937_64 rng(20261124);
        const auto p = path("mutated2.memscope");
        int refused = 0;
        for (int round = 0; round < 1500; ++round) {
            auto bytes = m_v2Bytes;
            const int edits = 1 + int(rng() % 4);
            for (int e = 0; e < edits; ++e)
                bytes[rng() % bytes.size()] = uint8_t(rng());
            if (round % 10 == 0)
                bytes.resize(rng() % bytes.size());
            writeAll(p, bytes);
            try {
                const Trace t = RunFile::load(p.toStdString());
                for (size_t i = 0; i < t.events.count(); ++i) {
                    QVERIFY(t.events.stack[i] < t.stacks.nodeCount());
                    QVERIFY(t.events.kind[i] <= 5);
                    QVERIFY(t.events.phase[i] < kPhaseCount);
                }
            } catch (const RunFileError& e) {
                QVERIFY(QString(e.what()).startsWith(p + ": "));
                ++refused;
            }
        }
        QVERIFY(refused > 0);
    }

    void progressIsMonotonicAndEndsAtOne() {
        std::mt19937_64 rng(3);
        Trace t = randomTrace(rng, 5000);
        t.finalize();
        for (const bool v2 : {false, true}) {
            const auto p = path("progress.memscope").toStdString();
            RunFile::SaveOptions o = v2 ? smallChunks() : version1();
            o.chunk_events = 100;
            RunFile::save(t, p, o);
            std::vector<double> seen;
            RunFile::LoadOptions lo;
            lo.progress = [&](double f) { seen.push_back(f); };
            const Trace loaded = RunFile::load(p, lo);
            QCOMPARE(loaded.events.count(), size_t(5000));
            QVERIFY(seen.size() >= 3);
            QCOMPARE(seen.front(), 0.0);
            QCOMPARE(seen.back(), 1.0);
            for (size_t i = 1; i < seen.size(); ++i)
                QVERIFY2(seen[i] >= seen[i - 1], qPrintable(QString::number(seen[i])));
            if (v2)  // one report per chunk the loading thread decodes: more than a few
                QVERIFY(seen.size() > 20);
        }
    }

    void cancellationThrowsRunFileCancelled() {
        std::mt19937_64 rng(4);
        Trace t = randomTrace(rng, 5000);
        t.finalize();
        for (const bool v2 : {false, true}) {
            const auto p = path("cancel.memscope").toStdString();
            RunFile::SaveOptions o = v2 ? smallChunks() : version1();
            o.chunk_events = 100;
            RunFile::save(t, p, o);
            // Set before loading starts...
            std::atomic<bool> cancel{true};
            RunFile::LoadOptions lo;
            lo.cancel = &cancel;
            QVERIFY_THROWS_EXCEPTION(RunFileCancelled, RunFile::load(p, lo));
            // ...and set halfway through (from the progress callback, as a Cancel button would).
            cancel = false;
            double last = 0;
            lo.progress = [&](double f) {
                last = f;
                if (f > 0.3)
                    cancel = true;
            };
            try {
                RunFile::load(p, lo);
                QFAIL("a cancelled load returned a trace");
            } catch (const RunFileCancelled& e) {
                QCOMPARE(QString::fromStdString(e.reason()), QString("loading cancelled"));
                QVERIFY(last < 1.0);
            }
            // Not cancelled: it loads.
            cancel = false;
            lo.progress = nullptr;
            QCOMPARE(RunFile::load(p, lo).events.count(), size_t(5000));
        }
    }

    // A preview (issue 52) reads the chunks holding its first events, whole chunks: the same
    // events and allocations as a range load of them, its summary computed again and marked;
    // a run of no more events than asked loads whole, unmarked.
    void previewReadsTheFirstChunks() {
        std::mt19937_64 rng(5);
        Trace full = randomTrace(rng, 400);
        const auto p = path("preview.memscope").toStdString();
        RunFile::SaveOptions o = smallChunks();
        o.chunk_events = 64;
        RunFile::save(full, p, o);
        RunFile::LoadOptions lo;
        lo.preview_events = 100;  // two chunks: 128 events
        const Trace preview = RunFile::load(p, lo);
        RunFile::LoadOptions ranged;
        ranged.range = RunRange::events(0, 128);
        const Trace part = RunFile::load(p, ranged);
        QCOMPARE(preview.events.count(), size_t(128));
        QCOMPARE(preview.events.count(), part.events.count());
        for (size_t i = 0; i < preview.events.count(); ++i) {
            QCOMPARE(preview.events.time_ns[i], part.events.time_ns[i]);
            QCOMPARE(preview.events.addr[i], part.events.addr[i]);
            QCOMPARE(preview.events.allocated[i], part.events.allocated[i]);
        }
        QCOMPARE(preview.allocations().size(), part.allocations().size());
        const auto& info = preview.summary.at("preview");
        QCOMPARE(info.value("entries", 0), 128);
        QCOMPARE(info.value("events_total", 0), 400);
        QVERIFY(info.value("offset", uint64_t(0)) < info.value("file_bytes", uint64_t(0)));
        QVERIFY(!preview.summary.contains("events"));  // not the whole run's figures
        QVERIFY2(
            preview.meta.source.find("; preview: the first 128 events of 400") != std::string::npos,
            preview.meta.source.c_str());
        lo.preview_events = 400;
        const Trace whole = RunFile::load(p, lo);
        QCOMPARE(whole.events.count(), size_t(400));
        QVERIFY(!whole.summary.contains("preview"));
    }

    // The raw stack of each event is a column of its own in version 2 (issue 52): it round
    // trips, a preview reads its first chunks only, and version 1 keeps it in the header.
    void rawStacksAreAColumn() {
        std::mt19937_64 rng(9);
        Trace full = randomTrace(rng, 300);
        Frame f{"g", "b.py", 2, FrameKind::Other};
        const uint32_t a = full.raw_stacks.child(0, full.raw_stacks.internFrame(f));
        f.line = 3;
        const uint32_t b = full.raw_stacks.child(a, full.raw_stacks.internFrame(f));
        full.raw_stack.clear();
        for (size_t i = 0; i < full.events.count(); ++i) {
            full.raw_stack.push_back(i % 3 == 0 ? 0 : i % 3 == 1 ? a : b);
        }
        QVERIFY(full.hasRawStacks());
        for (const uint32_t version : {1u, 2u}) {
            const auto p = path("raw.memscope").toStdString();
            RunFile::SaveOptions o = smallChunks();
            o.format_version = version;
            o.chunk_events = 64;
            RunFile::save(full, p, o);
            const Trace whole = RunFile::load(p);
            QVERIFY(whole.hasRawStacks());
            QVERIFY(whole.raw_stack == full.raw_stack);
            QCOMPARE(whole.raw_stacks.nodeCount(), full.raw_stacks.nodeCount());
            RunFile::LoadOptions lo;
            lo.preview_events = 100;
            const Trace preview = RunFile::load(p, lo);
            const size_t n = version == 2 ? 128 : 300;  // version 1 loads whole
            QCOMPARE(preview.events.count(), n);
            QVERIFY(preview.hasRawStacks());
            QVERIFY(std::equal(preview.raw_stack.begin(), preview.raw_stack.end(),
                               full.raw_stack.begin()));
        }
        // An event naming a raw stack the file does not hold is one clear error, in either
        // version, naming the event.
        Trace bad = full;
        const uint32_t nodes = uint32_t(bad.raw_stacks.nodeCount());
        bad.raw_stack.set(200, nodes + 4);
        for (const uint32_t version : {1u, 2u}) {
            const QString p = path("bad_raw.memscope");
            RunFile::SaveOptions o = smallChunks();
            o.format_version = version;
            o.chunk_events = 64;
            RunFile::save(bad, p.toStdString(), o);
            const QString error = loadError(p);
            QVERIFY2(error.contains("bad 'raw_stacks': event 200 names raw stack " +
                                    QString::number(nodes + 4) + " of " + QString::number(nodes)),
                     qPrintable(error));
        }
    }

    void rangeLoadingEqualsBruteForce() {
        std::mt19937_64 rng(11);
        for (int round = 0; round < 40; ++round) {
            const size_t n = 50 + rng() % 400;
            Trace full = randomTrace(rng, n);
            const auto p = path("range.memscope").toStdString();
            RunFile::SaveOptions o = smallChunks();
            o.chunk_events = 1 + rng() % 64;
            RunFile::save(full, p, o);
            full.finalize();
            size_t first = rng() % (n + 1), last = rng() % (n + 1);
            if (first > last)
                std::swap(first, last);
            RunFile::LoadOptions lo;
            lo.range =
                RunRange::events(int64_t(first), round % 5 == 0 ? RunRange::kOpen : int64_t(last));
            if (round % 5 == 0)
                last = n;
            const Trace part = RunFile::load(p, lo);
            const auto& ev = part.events;
            const size_t kept = last - first;
            QVERIFY(ev.count() >= kept);
            const size_t synthetic = ev.count() - kept;

            // The range's events, unchanged, after the synthetic ones.
            for (size_t i = 0; i < kept; ++i) {
                QCOMPARE(ev.time_ns[synthetic + i], full.events.time_ns[first + i]);
                QCOMPARE(ev.addr[synthetic + i], full.events.addr[first + i]);
                QCOMPARE(ev.allocated[synthetic + i], full.events.allocated[first + i]);
                QCOMPARE(ev.kind[synthetic + i], full.events.kind[first + i]);
            }
            // Brute force: the full trace's allocations that overlap the range.
            std::multiset<std::tuple<uint64_t, int64_t, int16_t, bool>> expected, got;
            for (const auto& a : full.allocations()) {
                const bool before = a.alloc_event < int64_t(first);
                const bool live_at_first =
                    before && (a.free_event < 0 || a.free_event >= int64_t(first));
                const bool made_in =
                    a.alloc_event >= int64_t(first) && a.alloc_event < int64_t(last);
                if (kept == 0 || (!live_at_first && !made_in))
                    continue;
                // present from the start: freed (by a Free event) inside the range
                const bool present =
                    live_at_first && a.free_event >= 0 && a.free_event < int64_t(last) &&
                    full.events.kind[size_t(a.free_event)] == uint8_t(EventKind::Free);
                expected.insert({a.addr, a.size, a.device, present || a.alloc_event < 0});
            }
            for (const auto& a : part.allocations()) {
                got.insert({a.addr, a.size, a.device, a.alloc_event < 0});
            }
            QVERIFY2(got == expected, qPrintable(QString("round %1: %2 allocations, expected %3")
                                                     .arg(round)
                                                     .arg(got.size())
                                                     .arg(expected.size())));
            // Every byte the allocated column counts belongs to a live allocation.
            for (size_t i = 0; i < ev.count(); i += 1 + i / 16) {
                const auto bytes = part.bytesByCategoryAt(i);
                const int64_t live = std::accumulate(bytes.begin(), bytes.end(), int64_t(0));
                if (i + 1 >= synthetic)  // the synthetic allocs ramp up to the level
                    QCOMPARE(live, ev.allocated[i]);
                else
                    QCOMPARE(ev.allocated[i], first > 0 ? full.events.allocated[first - 1] : 0);
            }
            // Segments reserved at the range start are there too (synthetic or from the start).
            int64_t reserved = 0;
            for (const auto& s : part.segments()) {
                if (s.reserve_event < int64_t(synthetic))
                    reserved += s.size;
            }
            if (kept > 0)
                QCOMPARE(reserved, first > 0 ? full.events.reserved[first - 1] : 0);
        }
    }

    void timeRangesSelectTheirEvents() {
        std::mt19937_64 rng(5);
        Trace t = randomTrace(rng, 300);
        for (int round = 0; round < 50; ++round) {
            const int64_t a = int64_t(rng() % 200000), b = a + int64_t(rng() % 100000);
            const auto [first, last] = TraceRange::events(t.events, RunRange::time(a, b));
            // Brute force over the running maximum of time.
            int64_t latest = std::numeric_limits<int64_t>::min();
            size_t bf_first = t.events.count(), bf_last = t.events.count();
            for (size_t i = 0; i < t.events.count(); ++i) {
                latest = std::max(latest, t.events.time_ns[i]);
                if (bf_first == t.events.count() && latest >= a)
                    bf_first = i;
                if (bf_last == t.events.count() && latest >= b)
                    bf_last = i;
            }
            QCOMPARE(last, bf_last);
            QCOMPARE(first, std::min(bf_first, bf_last));
        }
    }

    void rangeTextsParse() {
        auto r = RunRange::parse("100:2000");
        QVERIFY(r.kind == RunRange::Kind::Events);
        QCOMPARE(r.first, int64_t(100));
        QCOMPARE(r.last, int64_t(2000));
        r = RunRange::parse("2.5s:4s");
        QVERIFY(r.kind == RunRange::Kind::Time);
        QCOMPARE(r.first, int64_t(2500000000));
        QCOMPARE(r.last, int64_t(4000000000));
        r = RunRange::parse("300ms:");
        QCOMPARE(r.first, int64_t(300000000));
        QCOMPARE(r.last, RunRange::kOpen);
        r = RunRange::parse(":1.5min");
        QCOMPARE(r.first, int64_t(0));
        QCOMPARE(r.last, int64_t(90000000000));
        QCOMPARE(RunRange::parse(" 7us : 9000ns ").first, int64_t(7000));
        QVERIFY(RunRange::parse("").isAll());
        QVERIFY(RunRange::parse(":").isAll());
        auto error = [](const char* text) -> QString {
            try {
                RunRange::parse(text);
            } catch (const InputError& e) {
                return e.what();
            }
            return {};
        };
        QCOMPARE(error("5:x"),
                 QString("range '5:x': 'x' is not an event index or a time like 2.5s"));
        QCOMPARE(error("1s:2h"),
                 QString("range '1s:2h': unknown unit 'h' (use ns, us, ms, s or min)"));
        QVERIFY(error("5").contains("is not A:B"));
        QVERIFY(error("1:2:3").contains("is not A:B"));
        QVERIFY(error("10:5").contains("is empty"));
        QVERIFY(error("1s:500").contains("mixes an event index with a time"));
        QVERIFY(error("1.5:3").contains("not a whole event index"));
    }

    void roundTripIsLossless() {
        const Trace a = makeTrace();
        const Trace b = RunFile::load(m_path.toStdString());
        QCOMPARE(b.events.count(), a.events.count());
        QCOMPARE(b.events.time_ns, a.events.time_ns);
        QCOMPARE(b.events.addr, a.events.addr);
        QCOMPARE(b.events.size, a.events.size);
        QCOMPARE(b.events.allocated, a.events.allocated);
        QCOMPARE(b.events.reserved, a.events.reserved);
        QCOMPARE(b.events.stack, a.events.stack);
        QCOMPARE(b.events.step, a.events.step);
        QCOMPARE(b.events.kind, a.events.kind);
        QCOMPARE(b.events.phase, a.events.phase);
        QCOMPARE(b.events.thread, a.events.thread);
        QCOMPARE(b.events.device, a.events.device);

        QVERIFY(b.stacks.frames() == a.stacks.frames());
        QCOMPARE(b.stacks.parents(), a.stacks.parents());
        QCOMPARE(b.stacks.nodeFrames(), a.stacks.nodeFrames());
        QCOMPARE(b.stacks.describe(3), a.stacks.describe(3));
        // The rebuilt table interns like the original: an existing node is found, not duplicated.
        Trace c = RunFile::load(m_path.toStdString());
        const auto model = c.stacks.internFrame(a.stacks.frame(0));
        QCOMPARE(model, uint32_t(0));
        QCOMPARE(c.stacks.child(StackTable::kEmpty, model), uint32_t(1));

        QCOMPARE(b.meta.toJson(), a.meta.toJson());
        QCOMPARE(b.meta.dropped_events, int64_t(789));
        QCOMPARE(b.meta.max_events, int64_t(123456));
        QCOMPARE(b.summary, a.summary);
        QCOMPARE(b.operators.size(), a.operators.size());
        for (size_t i = 0; i < a.operators.size(); ++i) {
            QCOMPARE(b.operators[i].toJson(), a.operators[i].toJson());
        }
        QCOMPARE(b.steps.size(), a.steps.size());
        for (size_t i = 0; i < a.steps.size(); ++i) {
            QCOMPARE(b.steps[i].toJson(), a.steps[i].toJson());
        }
        // load() finalizes: allocations are there without another call.
        QCOMPARE(b.allocations().size(), a.allocations().size());
        QVERIFY(!b.allocations().empty());
        QCOMPARE(b.allocationOfEvent(), a.allocationOfEvent());
    }

    void emptyTraceRoundTrips() {
        for (const uint32_t version : {1u, 2u}) {
            const auto p = path("empty.memscope");
            RunFile::SaveOptions o;
            o.format_version = version;
            RunFile::save(Trace(), p.toStdString(), o);
            const Trace t = RunFile::load(p.toStdString());
            QCOMPARE(t.events.count(), size_t(0));
            QCOMPARE(t.stacks.nodeCount(), size_t(1));
            QCOMPARE(t.meta.source, std::string("recorded"));
        }
    }

    void saveReplacesAtomicallyAndLeavesNoTemporary() {
        const auto p = path("replace.memscope");
        writeAll(p, {'o', 'l', 'd'});
        RunFile::save(makeTrace(), p.toStdString());
        QVERIFY(!QFile::exists(p + ".tmp"));
        QCOMPARE(RunFile::load(p.toStdString()).events.count(), size_t(40));
    }

    void saveToAMissingDirectoryNamesThePath() {
        const auto p = path("no/such/dir/run.memscope");
        try {
            RunFile::save(makeTrace(), p.toStdString());
            QFAIL("save into a missing directory succeeded");
        } catch (const RunFileError& e) {
            QCOMPARE(QString::fromStdString(e.path()), p);
            QVERIFY2(QString(e.what()).startsWith(p + ": cannot create"), e.what());
        }
    }

    // Issue 30: core throws one family. Each own type is a memscope::Error (a std::runtime_error,
    // so catch sites of std::exception hold), and what bad input or a failed write throws is one
    // of them, with its message as it was.
    void errorsShareOneFamily() {
        static_assert(std::is_base_of_v<std::runtime_error, Error>);
        static_assert(std::is_base_of_v<Error, ConfigError>);
        static_assert(std::is_base_of_v<Error, InputError>);
        static_assert(std::is_base_of_v<Error, RunCancelled>);
        static_assert(std::is_base_of_v<Error, PickleError>);
        static_assert(std::is_base_of_v<FileError, RunFileError>);
        static_assert(std::is_base_of_v<Error, FileError>);
        QCOMPARE(std::string(ConfigError("--num-heads", "must be positive").what()),
                 std::string("--num-heads: must be positive"));
        try {
            RunRange::parse("5:x");
            QFAIL("a bad range parsed");
        } catch (const Error& e) {
            QVERIFY(dynamic_cast<const InputError*>(&e) != nullptr);
            QCOMPARE(std::string(e.what()),
                     std::string("range '5:x': 'x' is not an event index or a time like 2.5s"));
        }
        const auto p = path("no/such/dir/export.csv");
        try {
            writeFileAtomically(p.toStdString(), [](std::ostream& out) { out << "x"; });
            QFAIL("a write into a missing directory succeeded");
        } catch (const FileError& e) {
            QCOMPARE(QString::fromStdString(e.path()), p);
            QVERIFY2(QString(e.what()).startsWith(p + ": cannot write ("), e.what());
        }
        try {
            RunFile::load(path("absent.memscope").toStdString());
            QFAIL("an absent file loaded");
        } catch (const Error& e) {
            QVERIFY(dynamic_cast<const RunFileError*>(&e) != nullptr);
        }
    }

    void saveRefusesInconsistentTraces() {
        Trace t = makeTrace();
        t.events.stack.set(5, 999);
        try {
            RunFile::save(t, path("bad.memscope").toStdString());
            QFAIL("saved an out-of-range stack id");
        } catch (const RunFileError& e) {
            QVERIFY2(QString(e.what()).contains("event 5 has stack id 999"), e.what());
        }
        Trace u = makeTrace();
        u.events.size.truncate(u.events.size.size() - 1);
        QVERIFY_THROWS_EXCEPTION(RunFileError,
                                 RunFile::save(u, path("bad.memscope").toStdString()));
        QVERIFY(!QFile::exists(path("bad.memscope")));
    }

    void missingFileIsAnError() {
        const auto message = loadError(path("absent.memscope"));
        QVERIFY2(message.contains("absent.memscope: cannot open"), qPrintable(message));
    }

    void truncatedFilesAreErrors() {
        const auto header_end = 20 + headerSize(m_bytes);
        std::vector<size_t> cuts = {0,
                                    4,
                                    8,
                                    11,
                                    12,
                                    19,
                                    20,
                                    header_end - 1,
                                    header_end,
                                    header_end + 1,
                                    m_bytes.size() - 1};
        for (int k = 0; k < 37; ++k)
            cuts.push_back(m_bytes.size() * size_t(k) / 37);
        const auto p = path("cut.memscope");
        for (const size_t cut : cuts) {
            writeAll(p, std::vector<uint8_t>(m_bytes.begin(), m_bytes.begin() + ptrdiff_t(cut)));
            const auto message = loadError(p);
            QVERIFY2(!message.isEmpty(), qPrintable(QString("cut at %1 loaded").arg(cut)));
            QVERIFY2(message.startsWith(p + ": "), qPrintable(message));
            if (cut >= 8)
                QVERIFY2(message.contains("truncated"), qPrintable(message));
        }
    }

    void truncatedColumnMessageSaysWhatIsMissing() {
        const auto p = path("cut.memscope");
        writeAll(p, std::vector<uint8_t>(m_bytes.begin(), m_bytes.end() - 1));
        const auto message = loadError(p);
        const auto [offset, length] = columnSpan(m_bytes, "device");
        QCOMPARE(message, p + QString(": truncated: column 'device' needs %1 bytes at offset %2, "
                                      "file has %3")
                                  .arg(length)
                                  .arg(offset)
                                  .arg(m_bytes.size() - 1));
    }

    void newerVersionIsRefusedClearly() {
        auto bytes = m_bytes;
        bytes[8] = 3;
        // Whatever a newer format puts after the version, the message is about the version.
        bytes.resize(30);
        const auto p = path("newer.memscope");
        writeAll(p, bytes);
        QCOMPARE(loadError(p),
                 p + ": written by a newer Memscope (format 3; this build reads up to 2)");
    }

    void foreignFilesAreNotRunFiles() {
        const auto p = path("foreign.memscope");
        for (const std::string text : {"", "MEMSCOP", "{\"events\": []}", "memscope and more"}) {
            writeAll(p, std::vector<uint8_t>(text.begin(), text.end()));
            QCOMPARE(loadError(p), p + ": not a Memscope run file");
        }
        auto bytes = m_bytes;
        bytes[0] = 'X';
        writeAll(p, bytes);
        QCOMPARE(loadError(p), p + ": not a Memscope run file");
    }

    void checksumMismatchNamesTheColumn() {
        auto bytes = m_bytes;
        const auto [offset, length] = columnSpan(bytes, "stack");
        QVERIFY(length > 0);
        bytes[offset + length / 2] ^= 0x01;
        const auto p = path("corrupt.memscope");
        writeAll(p, bytes);
        QCOMPARE(loadError(p), p + ": column 'stack' is corrupt (checksum mismatch)");
    }

    void outOfRangeValuesAreRejected() {
        const auto p = path("values.memscope");
        writeAll(p, withColumnBytes(m_bytes, "stack", 4 * 3 + 2, 0x01));  // event 3: 65536 + 3
        auto message = loadError(p);
        QVERIFY2(message.contains("event 3 has stack id 65539, the stack table has 7 nodes"),
                 qPrintable(message));
        writeAll(p, withColumnBytes(m_bytes, "kind", 9, 6));
        message = loadError(p);
        QVERIFY2(message.contains("event 9 has kind 6"), qPrintable(message));
        writeAll(p, withColumnBytes(m_bytes, "phase", 2, 5));
        message = loadError(p);
        QVERIFY2(message.contains("event 2 has phase 5"), qPrintable(message));
        // Byte counts beyond 256 TiB (2^48) are damage, of either sign.
        writeAll(p, withColumnBytes(m_bytes, "allocated", 8 * 4 + 6, 0x02));
        message = loadError(p);
        QVERIFY2(message.contains("event 4 has allocated 5629499534"), qPrintable(message));
        QVERIFY2(message.contains(", beyond 256 TiB"), qPrintable(message));
        writeAll(p, withColumnBytes(m_bytes, "size", 8 * 1 + 7, 0x80));
        message = loadError(p);
        QVERIFY2(message.contains("event 1 has size -"), qPrintable(message));
        writeAll(p, withColumnBytes(m_bytes, "reserved", 8 * 2 + 7, 0x01));
        message = loadError(p);
        QVERIFY2(message.contains("event 2 has reserved 720575940"), qPrintable(message));
        // The same edit with a value in range loads: the fixture itself is sound.
        writeAll(p, withColumnBytes(m_bytes, "kind", 9, 0));
        QCOMPARE(loadError(p), QString());
    }

    void inconsistentDirectoriesAreRejected() {
        const auto p = path("dir.memscope");
        auto expectError = [&](const std::function<void(json&)>& edit, const QString& expected) {
            auto header = headerOf(m_bytes);
            edit(header);
            writeAll(p, withHeader(m_bytes, header));
            const auto message = loadError(p);
            QVERIFY2(message.contains(expected), qPrintable(message));
        };
        // A huge count must be refused before any vector is sized for it.
        expectError([](json& h) { h["events"] = uint64_t(1) << 60; },
                    "truncated: header declares 1152921504606846976 events");
        expectError([](json& h) { h["events"] = 39; }, "column 'time_ns' holds 320 bytes");
        expectError([](json& h) { h["events"] = -1; }, "'events' is not a non-negative integer");
        expectError([](json& h) { h["columns"][2]["offset"] = uint64_t(-8); },
                    "truncated: column 'size' needs 320 bytes");
        expectError([](json& h) { h["columns"][7]["element_size"] = 2; },
                    "column 'kind' has element size 2, expected 1");
        expectError([](json& h) { h["columns"].erase(4); }, "column 'reserved' is missing");
        expectError([](json& h) { h["columns"][1]["name"] = "time_ns"; }, "listed twice");
        expectError([](json& h) { h.erase("columns"); }, "lacks the column directory");
        expectError(
            [](json& h) {
                h["stacks"]["parents"] = json::binary({1, 2, 3});
            },
            "bad stack table: 'parents' holds 3 bytes");
        expectError([](json& h) { h["stacks"]["frames"][0][3] = 9; },
                    "bad stack table: frame 0 has kind 9");
        expectError([](json& h) { h["operators"] = 5; }, "'operators' is not a list");
        expectError([](json& h) { h["meta"] = {{"threads", "two"}}; }, "bad 'meta' in header");
    }

    void missingOptionalFieldsGetDefaults() {
        auto header = headerOf(m_bytes);
        for (const char* key : {"meta", "operators", "steps", "summary"})
            header.erase(key);
        header["columns"].push_back({{"name", "from_the_future"}, {"offset", 0}});
        const auto p = path("sparse.memscope");
        writeAll(p, withHeader(m_bytes, header));
        const Trace t = RunFile::load(p.toStdString());
        QCOMPARE(t.events.count(), size_t(40));
        QCOMPARE(t.meta.source, std::string("recorded"));
        QCOMPARE(t.meta.dropped_events, int64_t(0));
        QVERIFY(t.operators.empty());
        QVERIFY(t.steps.empty());
        QVERIFY(t.summary.is_object() && t.summary.empty());
    }

    void headerThatIsNotCborIsAnError() {
        auto bytes = m_bytes;
        bytes[20] = 0xff;  // a "break" where the map should start
        const auto p = path("cbor.memscope");
        writeAll(p, bytes);
        QVERIFY2(loadError(p).contains("header is not valid CBOR"), qPrintable(loadError(p)));
        // Deeply nested arrays: refused, not a stack overflow in the parser.
        std::vector<uint8_t> deep(m_bytes.begin(), m_bytes.begin() + 20);
        std::vector<uint8_t> cbor(200000, 0x81);
        cbor.push_back(0xf6);
        for (int i = 0; i < 8; ++i)
            deep[12 + i] = uint8_t(uint64_t(cbor.size()) >> (8 * i));
        deep.insert(deep.end(), cbor.begin(), cbor.end());
        writeAll(p, deep);
        QVERIFY2(loadError(p).contains("nests deeper"), qPrintable(loadError(p)));
    }

    void randomMutationsNeverCrash() {
        // Deterministic: the same mutations every run, so a failure reproduces.
        std::mt19937_64 rng(20240501);
        const auto p = path("mutated.memscope");
        const auto header_end = 20 + headerSize(m_bytes);
        int loaded = 0, refused = 0;
        for (int round = 0; round < 3000; ++round) {
            auto bytes = m_bytes;
            const int edits = 1 + int(rng() % 4);
            for (int e = 0; e < edits; ++e) {
                // Half the edits land in the preamble and header, where the parsing happens.
                const size_t limit = (rng() % 2) ? header_end : bytes.size();
                bytes[rng() % limit] = uint8_t(rng());
            }
            if (round % 10 == 0)
                bytes.resize(rng() % bytes.size());
            writeAll(p, bytes);
            try {
                const Trace t = RunFile::load(p.toStdString());
                // Whatever loads is safe to index with.
                for (size_t i = 0; i < t.events.count(); ++i) {
                    QVERIFY(t.events.stack[i] < t.stacks.nodeCount());
                    QVERIFY(t.events.kind[i] <= 5);
                    QVERIFY(t.events.phase[i] < kPhaseCount);
                }
                ++loaded;
            } catch (const RunFileError& e) {
                QVERIFY(QString(e.what()).startsWith(p + ": "));
                ++refused;
            }
        }
        qInfo("%d mutated files loaded, %d refused", loaded, refused);
        QVERIFY(refused > 0);
    }

    void checksumIsSensitive() {
        std::vector<uint8_t> data(203);
        for (size_t i = 0; i < data.size(); ++i)
            data[i] = uint8_t(i * 7);
        std::set<uint64_t> seen;
        // Every prefix length (tail bytes, whole words, whole 32-byte blocks) sums differently...
        for (size_t n = 0; n <= data.size(); ++n)
            seen.insert(RunFile::checksum(data.data(), n));
        QCOMPARE(seen.size(), data.size() + 1);
        // ...and so does every single-bit flip, wherever it lands.
        const auto base = RunFile::checksum(data.data(), data.size());
        for (size_t i = 0; i < data.size(); ++i) {
            for (int bit = 0; bit < 8; ++bit) {
                data[i] ^= uint8_t(1 << bit);
                QVERIFY(RunFile::checksum(data.data(), data.size()) != base);
                data[i] ^= uint8_t(1 << bit);
            }
        }
        // Zeros of different lengths differ too.
        const std::vector<uint8_t> zeros(64, 0);
        QVERIFY(RunFile::checksum(zeros.data(), 32) != RunFile::checksum(zeros.data(), 64));
    }
};

QTEST_GUILESS_MAIN(TestRunFile)
#include "test_run_file.moc"
