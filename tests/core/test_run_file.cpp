// The .memscope run file: lossless round trips, and clear RunFileErrors (never a crash) for
// truncated, foreign, newer, damaged or inconsistent files.

#include "io/run_file.h"

#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <set>

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
    t.finalize();
    return t;
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
    QString m_path;  // a saved makeTrace()
    std::vector<uint8_t> m_bytes;

    QString path(const char* name) const { return m_dir.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_path = path("run.memscope");
        RunFile::save(makeTrace(), m_path.toStdString());
        m_bytes = readAll(m_path);
        QVERIFY(m_bytes.size() > 100);
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
        const auto p = path("empty.memscope");
        RunFile::save(Trace(), p.toStdString());
        const Trace t = RunFile::load(p.toStdString());
        QCOMPARE(t.events.count(), size_t(0));
        QCOMPARE(t.stacks.nodeCount(), size_t(1));
        QCOMPARE(t.meta.source, std::string("recorded"));
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

    void saveRefusesInconsistentTraces() {
        Trace t = makeTrace();
        t.events.stack[5] = 999;
        try {
            RunFile::save(t, path("bad.memscope").toStdString());
            QFAIL("saved an out-of-range stack id");
        } catch (const RunFileError& e) {
            QVERIFY2(QString(e.what()).contains("event 5 has stack id 999"), e.what());
        }
        Trace u = makeTrace();
        u.events.size.pop_back();
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
                 p + ": written by a newer Memscope (format 3; this build reads up to 1)");
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
