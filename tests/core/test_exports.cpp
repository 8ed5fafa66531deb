// Exports as the tools that read them see them: the memory_viz pickle through Python's own pickle
// module, Chrome trace JSON through a JSON parser, CSV and Markdown as text, and the report.

#include "analysis/table_exporter.h"
#include "capture/recording_session.h"
#include "explain/trace_summary.h"
#include "interchange/chrome_trace_exporter.h"
#include "interchange/snapshot_exporter.h"
#include "io/run_file.h"
#include "model/input_error.h"
#include "model/preset.h"
#include "pickle/pickle_writer.h"
#include "report/report_writer.h"
#include "studies/scaling_fit.h"
#include "studies/seed_tables.h"
#include "studies/sweep_result.h"
#include "tiny_options.h"

#if __has_include("io/snapshot_importer.h")
#include "interchange/snapshot_importer.h"
#define MEMSCOPE_HAVE_SNAPSHOT_IMPORTER 1
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <climits>
#include <fstream>
#include <sstream>

using namespace memscope;

namespace {

// Loads a pickle with Python's pickle module and prints a JSON digest of it. Python checks the
// bytes themselves too: which opcodes occur (memory_viz's reader knows only protocols 2-4 and no
// GLOBAL/REDUCE), the highest protocol any opcode needs, and whether frame lists are shared.
const char* const kDigestScript = R"PY(
import json, pickle, pickletools, sys
data = open(sys.argv[1], 'rb').read()
ops = [op for op, arg, pos in pickletools.genops(data)]
names = sorted(set(op.name for op in ops))
snap = pickle.loads(data)
out = {'opcodes': names, 'max_opcode_proto': max(op.proto for op in ops), 'first_bytes': list(data[:2])}
if isinstance(snap, dict) and 'device_traces' in snap:
    out['keys'] = list(snap.keys())
    traces = snap['device_traces']
    out['devices'] = len(traces)
    out['actions'] = [{} for _ in traces]
    for d, t in enumerate(traces):
        for e in t:
            out['actions'][d][e['action']] = out['actions'][d].get(e['action'], 0) + 1
    t0 = traces[0] if traces else []
    out['entries'] = [{k: v for k, v in e.items() if k != 'frames'} for e in t0[:64]]
    out['entry_frames'] = [e.get('frames') for e in t0[:64]]
    out['categories'] = sorted(set(e['category'] for t in traces for e in t if 'category' in e))
    shared = {}
    for t in traces:
        for e in t:
            fr = e.get('frames')
            if fr:
                key = json.dumps(fr)
                if key in shared and shared[key] is not fr:
                    out['unshared'] = True
                shared[key] = fr
    out['segments'] = snap['segments']
    out['annotations'] = snap.get('external_annotations')
    out['allocator_settings'] = snap.get('allocator_settings')
    out['overflowed'] = snap.get('trace_alloc_overflowed')
    out['total_entries'] = sum(len(t) for t in traces)
else:
    out['value'] = snap
print(json.dumps(out, default=repr))
)PY";

QString python() {
    return QStandardPaths::findExecutable("python3");
}

QJsonObject digest(const QString& path) {
    QProcess p;
    p.start(python(), {"-c", kDigestScript, path});
    if (!p.waitForFinished(120'000) || p.exitCode() != 0) {
        qWarning("%s", p.readAllStandardError().constData());
        return {};
    }
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

Frame frame(const std::string& name, FrameKind kind, const std::string& file = "", int line = 0) {
    Frame f;
    f.name = name;
    f.kind = kind;
    f.file = file;
    f.line = line;
    return f;
}

struct Hand {
    Trace trace;
    uint32_t module_stack = 0;
    uint32_t mm_stack = 0;
    uint32_t add_stack = 0;
};

void addEvent(Trace& t, int64_t time_ns, EventKind kind, uint64_t addr, int64_t size,
              uint32_t stack, int32_t step, Phase phase, int64_t reserved = 0) {
    Event e;
    e.time_ns = time_ns;
    e.kind = kind;
    e.addr = addr;
    e.size = size;
    e.stack = stack;
    e.step = step;
    e.phase = phase;
    e.reserved = reserved;
    int64_t before = t.events.count() ? t.events.allocated.back() : 0;
    e.allocated = kind == EventKind::Alloc || kind == EventKind::Free ? before + size : before;
    t.events.append(e);
}

nlohmann::json configFor(const std::string& preset, int64_t batch, int64_t seq,
                         const std::string& profile = "training",
                         const std::string& dtype = "fp32") {
    const Preset* p = Preset::find(preset);
    TinyLlamaConfig m = p ? p->model : TinyLlamaConfig();
    return {{"preset", preset},
            {"hidden_dim", m.hidden_dim},
            {"num_layers", m.n_layers},
            {"num_heads", m.n_heads},
            {"num_kv_heads", m.n_kv_heads},
            {"intermediate_dim", m.intermediate_dim},
            {"vocab_size", m.vocab_size},
            {"batch_size", batch},
            {"seq_len", seq},
            {"num_steps", 3},
            {"dtype", dtype},
            {"attention", "eager"},
            {"checkpointing", "none"},
            {"profile_type", profile},
            {"optimizer", "adamw"}};
}

// A small run with every kind of entry: a parameter, an activation, a temporary, a block freed
// without a recorded alloc (present from the start), a block live at the end, an OOM.
Hand handTrace() {
    Hand h;
    Trace& t = h.trace;
    t.meta.started_at = "2025-01-02T03:04:05Z";
    t.meta.device = "cpu";
    t.meta.config = configFor("workshop-default", 4, 16);
    const uint32_t module = t.stacks.internFrame(
        frame("TinyLlama.blocks.0.attention", FrameKind::Module, "core/model/attention.cpp", 42));
    const uint32_t mm = t.stacks.internFrame(frame("aten::mm", FrameKind::Operator));
    const uint32_t add = t.stacks.internFrame(frame("aten::add", FrameKind::Operator));
    h.module_stack = t.stacks.child(StackTable::kEmpty, module);
    h.mm_stack = t.stacks.child(h.module_stack, mm);
    h.add_stack = t.stacks.child(h.module_stack, add);
    addEvent(t, 1'000, EventKind::Alloc, 0x10000, 1024, h.module_stack, 0, Phase::Init);
    addEvent(t, 1'500, EventKind::Role, 0x10000, int64_t(Category::Parameter), 0, 0, Phase::Init);
    addEvent(t, 2'000, EventKind::Alloc, 0x20000, 4096, h.mm_stack, 1, Phase::Forward);
    addEvent(t, 3'000, EventKind::Alloc, 0x30000, 512, h.add_stack, 1, Phase::Forward);
    addEvent(t, 4'000, EventKind::Free, 0x30000, -512, h.add_stack, 1, Phase::Forward);
    addEvent(t, 5'000, EventKind::Free, 0x40000, -256, h.mm_stack, 1, Phase::Backward);
    addEvent(t, 6'000, EventKind::Free, 0x20000, -4096, h.mm_stack, 1, Phase::Backward);
    addEvent(t, 7'000, EventKind::Alloc, 0x50000, 2048, h.mm_stack, 1, Phase::Backward);
    addEvent(t, 7'500, EventKind::Oom, 0, int64_t(1) << 30, h.mm_stack, 1, Phase::Backward, 8192);
    t.phases = {{Phase::Forward, 1, 1'800, 4'500}, {Phase::Backward, 1, 4'500, 8'000}};
    t.spans = {{2'000, 2'600, h.mm_stack, 0},
               {1'900, 4'200, h.module_stack, 0},
               {3'000, 3'100, h.add_stack, 0}};
    OperatorStat mm_stat;
    mm_stat.name = "aten::mm";
    mm_stat.calls = 3;
    mm_stat.total_ns = 2'000'000;
    mm_stat.self_ns = 1'500'000;
    mm_stat.bytes_allocated = 6144;
    mm_stat.self_bytes_allocated = 6144;
    mm_stat.self_net_bytes = 2048;
    mm_stat.largest_allocation = 4096;
    mm_stat.flops = 2.5e9;
    OperatorStat odd;
    odd.name = "my,\"odd\"|op";
    odd.calls = 1;
    odd.self_ns = 500'000;
    odd.total_ns = 500'000;
    t.operators = {mm_stat, odd};
    t.finalize();
    return h;
}

// The suites' tiny configuration, with one layer and two steps.
TrainOptions tinyOptions() {
    TrainOptions o = tinyTrainOptions();
    o.model.n_layers = 1;
    o.num_steps = 2;
    return o;
}

Trace recordTiny() {
    RecordingSession session(tinyOptions());
    session.setMeasurePeakFlops(false);
    session.start();
    session.finish();
    return session.trace();
}

QJsonArray chromeEvents(const Trace& t, ChromeTraceExporter::Options options = {}) {
    std::ostringstream out;
    ChromeTraceExporter::write(t, out, options);
    QJsonParseError error;
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(out.str()), &error);
    if (error.error != QJsonParseError::NoError) {
        qWarning("%s", qPrintable(error.errorString()));
        return {};
    }
    return doc.object()["traceEvents"].toArray();
}

// Splits RFC 4180 CSV (quoted fields, doubled quotes, CRLF).
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(field);
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.back().push_back(field);
            field.clear();
            rows.emplace_back();
            ++i;
        } else {
            field += c;
        }
    }
    if (!field.empty() || !rows.back().empty()) {
        rows.back().push_back(field);
    } else {
        rows.pop_back();
    }
    return rows;
}

Trace reportRun(const std::string& preset, int64_t batch, int64_t seq, int64_t peak_mib,
                double samples, const std::string& profile = "training",
                const std::string& dtype = "fp32") {
    Trace t;
    t.meta.config = configFor(preset, batch, seq, profile, dtype);
    t.summary = {{"peak_allocated_bytes", peak_mib << 20},
                 {"avg_allocated_bytes", (peak_mib << 20) / 2},
                 {"samples_per_s", samples},
                 {"steps", 3},
                 {"config", t.meta.config}};
    t.finalize();
    return t;
}

}  // namespace

class TestExports : public QObject {
    Q_OBJECT

  private slots:
    void pickleWriterValuesLoadInPython() {
        if (python().isEmpty()) {
            QSKIP("python3 not found");
        }
        QTemporaryDir dir;
        for (const int protocol : {2, 4}) {
            const auto path = dir.filePath(QString("values%1.pickle").arg(protocol));
            {
                std::ofstream out(path.toStdString(), std::ios::binary);
                PickleWriter w(out, protocol);
                w.beginList();
                for (const int64_t v :
                     {int64_t(0), int64_t(255), int64_t(256), int64_t(65535), int64_t(65536),
                      int64_t(-1), int64_t(INT32_MIN), int64_t(INT32_MAX), int64_t(1) << 31,
                      int64_t(1) << 40, -(int64_t(1) << 40), int64_t(INT64_MIN), int64_t(INT64_MAX),
                      int64_t(-129), int64_t(128 << 8)}) {
                    w.integer(v);
                }
                w.unsignedInteger(UINT64_MAX);
                w.real(1.5);
                w.real(-0.1);
                w.boolean(true);
                w.boolean(false);
                w.none();
                w.string("plain");
                w.string("µs ✓");
                w.string(std::string(300, 'x'));
                w.beginDict();
                w.internedString("k");
                w.beginTuple();
                w.integer(0);
                w.integer(0);
                w.endTuple();
                w.endDict();
                w.beginList();
                for (int i = 0; i < 2500; ++i) {  // several APPENDS batches
                    w.integer(i);
                }
                w.endList();
                w.beginDict();
                for (int i = 0; i < 1200; ++i) {  // two SETITEMS batches
                    w.string("key" + std::to_string(i));
                    w.integer(i);
                }
                w.endDict();
                w.beginList();
                w.endList();
                w.internedString("k");  // from the memo
                w.endList();
                w.finish();
            }
            const auto d = digest(path);
            QVERIFY2(!d.isEmpty(), "python could not load the pickle");
            QVERIFY(d["max_opcode_proto"].toInt() <= protocol);
            QCOMPARE(d["first_bytes"].toArray()[1].toInt(), protocol);
            const auto v = d["value"].toArray();
            QCOMPARE(v.size(), 29);
            QCOMPARE(v[0].toDouble(), 0.0);
            QCOMPARE(v[2].toDouble(), 256.0);
            QCOMPARE(v[5].toDouble(), -1.0);
            QCOMPARE(v[6].toDouble(), double(INT32_MIN));
            QCOMPARE(v[9].toDouble(), double(int64_t(1) << 40));
            QCOMPARE(v[10].toDouble(), -double(int64_t(1) << 40));
            QCOMPARE(v[13].toDouble(), -129.0);
            QCOMPARE(v[15].toDouble(), double(UINT64_MAX));
            QCOMPARE(v[16].toDouble(), 1.5);
            QCOMPARE(v[17].toDouble(), -0.1);
            QCOMPARE(v[18].toBool(), true);
            QVERIFY(v[20].isNull());
            QCOMPARE(v[22].toString(), QString::fromUtf8("µs ✓"));
            QCOMPARE(v[23].toString().size(), 300);
            QCOMPARE(v[25].toArray().size(), 2500);
            QCOMPARE(v[25].toArray()[2499].toInt(), 2499);
            QCOMPARE(v[26].toObject().size(), 1200);
            QCOMPARE(v[26].toObject()["key1199"].toInt(), 1199);
            QCOMPARE(v[28].toString(), QString("k"));
            const auto ops = d["opcodes"].toArray();
            QVERIFY(ops.contains("APPENDS"));
            QVERIFY(ops.contains(protocol == 4 ? "FRAME" : "BINUNICODE"));
            QVERIFY(protocol == 4 || !ops.contains("FRAME"));
        }
    }

    void pickleWriterRejectsMisuse() {
        std::ostringstream out;
        QVERIFY_THROWS_EXCEPTION(InputError, PickleWriter(out, 5));
        PickleWriter w(out, 4);
        w.beginList();
        QVERIFY_THROWS_EXCEPTION(std::logic_error, w.endDict());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, w.finish());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, w.get(7));
    }

    void snapshotHasEveryEntryMemoryVizNeeds() {
        if (python().isEmpty()) {
            QSKIP("python3 not found");
        }
        const Hand h = handTrace();
        QTemporaryDir dir;
        for (const int protocol : {2, 4}) {
            const auto path = dir.filePath(QString("hand%1.pickle").arg(protocol));
            SnapshotExporter::write(h.trace, path.toStdString(), protocol);
            const auto d = digest(path);
            QVERIFY2(!d.isEmpty(), "python could not load the snapshot");
            // memory_viz's own reader: protocol 2..4, no GLOBAL/REDUCE and friends
            QVERIFY(d["max_opcode_proto"].toInt() <= protocol);
            for (const auto& banned :
                 {"GLOBAL", "STACK_GLOBAL", "REDUCE", "BUILD", "INST", "OBJ", "NEWOBJ", "NEWOBJ_EX",
                  "BINUNICODE8", "BINBYTES", "SHORT_BINBYTES", "LONG4"}) {
                QVERIFY2(!d["opcodes"].toArray().contains(banned), banned);
            }
            QVERIFY(d["opcodes"].toArray().contains("BINGET"));  // shared frame lists
            QVERIFY(!d.contains("unshared"));
            const auto keys = d["keys"].toArray();
            for (const auto& k :
                 {"segments", "device_traces", "allocator_settings", "external_annotations"}) {
                QVERIFY2(keys.contains(k), k);
            }
            QCOMPARE(d["devices"].toInt(), 1);
            const auto actions = d["actions"].toArray()[0].toObject();
            QCOMPARE(actions["alloc"].toInt(), 4);
            QCOMPARE(actions["free_requested"].toInt(), 3);
            QCOMPARE(actions["free_completed"].toInt(), 3);
            QCOMPARE(actions["segment_alloc"].toInt(), 4);
            QCOMPARE(actions["segment_free"].toInt(), 3);
            QCOMPARE(actions["oom"].toInt(), 1);
            QCOMPARE(d["total_entries"].toInt(), 18);

            const auto entries = d["entries"].toArray();
            const auto frames = d["entry_frames"].toArray();
            // entry 2 is the segment_alloc of the mm block, entry 3 its alloc
            QCOMPARE(entries[2].toObject()["action"].toString(), QString("segment_alloc"));
            const auto alloc = entries[3].toObject();
            QCOMPARE(alloc["action"].toString(), QString("alloc"));
            QCOMPARE(alloc["addr"].toDouble(), double(0x20000));
            QCOMPARE(alloc["size"].toInt(), 4096);
            QCOMPARE(alloc["stream"].toInt(), 0);
            QCOMPARE(alloc["category"].toString(), QString("activation"));
            // 2025-01-02T03:04:05Z is 1735787045 s; the event is 2000 ns in
            QCOMPARE(alloc["time_us"].toDouble(), 1735787045.0 * 1e6 + 2);
            const auto f = frames[3].toArray();
            QCOMPARE(f.size(), 2);  // innermost first, as PyTorch writes them
            QCOMPARE(f[0].toObject()["name"].toString(), QString("aten::mm"));
            QCOMPARE(f[0].toObject()["filename"].toString(), QString("??"));
            QCOMPARE(f[1].toObject()["name"].toString(), QString("TinyLlama.blocks.0.attention"));
            QCOMPARE(f[1].toObject()["filename"].toString(), QString("core/model/attention.cpp"));
            QCOMPARE(f[1].toObject()["line"].toInt(), 42);
            QCOMPARE(entries[1].toObject()["category"].toString(), QString("parameter"));
            // the free of a block never seen allocated: free_requested then free_completed
            const auto fr = entries[9].toObject();
            QCOMPARE(fr["action"].toString(), QString("free_requested"));
            QCOMPARE(fr["addr"].toDouble(), double(0x40000));
            QCOMPARE(fr["size"].toInt(), 256);
            QCOMPARE(fr["category"].toString(), QString("unknown"));
            QCOMPARE(entries[10].toObject()["action"].toString(), QString("free_completed"));
            QCOMPARE(entries[11].toObject()["action"].toString(), QString("segment_free"));
            const auto oom = entries[17].toObject();
            QCOMPARE(oom["action"].toString(), QString("oom"));
            QCOMPARE(oom["size"].toDouble(), double(int64_t(1) << 30));
            QCOMPARE(oom["device_free"].toInt(), 8192 - 2816);
            QVERIFY(!oom.contains("addr"));

            const auto categories = d["categories"].toArray();
            for (const auto& c : categories) {
                QVERIFY2(QStringList({"parameter", "optimizer_state", "input", "temporary",
                                      "activation", "gradient", "autograd_detail", "unknown"})
                             .contains(c.toString()),
                         qPrintable(c.toString()));
            }
            QVERIFY(categories.contains("temporary"));

            // live at the end: the parameter and the last block, a segment each
            const auto segments = d["segments"].toArray();
            QCOMPARE(segments.size(), 2);
            int64_t live = 0;
            for (const auto& s : segments) {
                const auto seg = s.toObject();
                QCOMPARE(seg["device"].toInt(), 0);
                const auto blocks = seg["blocks"].toArray();
                QCOMPARE(blocks.size(), 1);
                const auto b = blocks[0].toObject();
                QCOMPARE(b["state"].toString(), QString("active_allocated"));
                QCOMPARE(b["size"].toInt(), seg["total_size"].toInt());
                QCOMPARE(b["address"].toDouble(), seg["address"].toDouble());
                live += b["size"].toInt();
            }
            QCOMPARE(live, int64_t(1024 + 2048));

            const auto annotations = d["annotations"].toArray();
            QCOMPARE(annotations.size(), 4);
            const auto a0 = annotations[0].toObject();
            QCOMPARE(a0["name"].toString(), QString("forward step 1"));
            QCOMPARE(a0["stage"].toString(), QString("START"));
            QCOMPARE(a0["device"].toInt(), 0);
            QCOMPARE(a0["time_us"].toDouble(), 1735787045.0 * 1e6 + 1);
            QCOMPARE(annotations[1].toObject()["stage"].toString(), QString("END"));
            QVERIFY(d["allocator_settings"].toObject().isEmpty());
        }
    }

    // memory_viz throws when a file has categories but none is "unknown" (it misspells the
    // field it appends to): one segment entry must then carry "unknown".
    void snapshotAlwaysHasTheUnknownCategory() {
        if (python().isEmpty()) {
            QSKIP("python3 not found");
        }
        Hand h = handTrace();
        Trace& t = h.trace;
        // drop the free of the never-allocated block: no unknown allocation is left
        Trace copy = t;
        copy.events.clear();
        for (size_t i = 0; i < t.events.count(); ++i) {
            if (t.events.addr[i] != 0x40000) {
                copy.events.append(t.events.at(i));
            }
        }
        copy.finalize();
        for (const auto& a : copy.allocations()) {
            QVERIFY(a.category != Category::Unknown);
        }
        QTemporaryDir dir;
        const auto path = dir.filePath("known.pickle");
        SnapshotExporter::write(copy, path.toStdString());
        const auto d = digest(path);
        QVERIFY(d["categories"].toArray().contains("unknown"));
    }

    void snapshotOfManyStacksUsesLongMemoAndStaysSmall() {
        if (python().isEmpty()) {
            QSKIP("python3 not found");
        }
        Trace t;
        t.meta.started_at = "not a time";  // time_us then counts from 0
        const uint32_t module = t.stacks.internFrame(frame("M", FrameKind::Module));
        std::vector<uint32_t> stacks;
        for (int i = 0; i < 300; ++i) {
            stacks.push_back(t.stacks.child(
                t.stacks.child(StackTable::kEmpty, module),
                t.stacks.internFrame(frame("op" + std::to_string(i), FrameKind::Operator))));
        }
        for (int i = 0; i < 3000; ++i) {
            addEvent(t, 1000 * i, EventKind::Alloc, 0x100000 + 64 * uint64_t(i), 64,
                     stacks[i % 300], 1, Phase::Forward);
        }
        for (int i = 0; i < 3000; ++i) {
            addEvent(t, 3'000'000 + 1000 * i, EventKind::Free, 0x100000 + 64 * uint64_t(i), -64,
                     stacks[i % 300], 1, Phase::Forward);
        }
        t.finalize();
        QTemporaryDir dir;
        const auto path = dir.filePath("many.pickle");
        SnapshotExporter::write(t, path.toStdString());
        const auto d = digest(path);
        QVERIFY(d["opcodes"].toArray().contains("LONG_BINGET"));
        QCOMPARE(d["total_entries"].toInt(), 3000 * 5);
        QCOMPARE(d["entries"].toArray()[1].toObject()["time_us"].toDouble(), 0.0);
        QVERIFY(!d.contains("unshared"));
        // 15000 entries: shared keys and frames keep it near 40 bytes an entry
        QVERIFY2(QFileInfo(path).size() < 15000 * 48,
                 qPrintable(QString::number(QFileInfo(path).size())));
    }

    void epochMicrosParsesIso8601() {
        QCOMPARE(SnapshotExporter::epochMicros("1970-01-01T00:00:00Z"), int64_t(0));
        QCOMPARE(SnapshotExporter::epochMicros("2025-01-02T03:04:05Z"),
                 int64_t(1735787045) * 1'000'000);
        QCOMPARE(SnapshotExporter::epochMicros("2025-01-02T03:04:05.25Z"),
                 int64_t(1735787045) * 1'000'000 + 250'000);
        QCOMPARE(SnapshotExporter::epochMicros("2025-01-02T05:04:05+02:00"),
                 int64_t(1735787045) * 1'000'000);
        QCOMPARE(SnapshotExporter::epochMicros(""), int64_t(0));
        QCOMPARE(SnapshotExporter::epochMicros("yesterday"), int64_t(0));
        QCOMPARE(SnapshotExporter::categoryName(Category::OptimizerState),
                 std::string("optimizer_state"));
        QCOMPARE(SnapshotExporter::categoryName(Category::AutogradDetail),
                 std::string("autograd_detail"));
    }

    void chromeTraceHasSpansPhasesAndCounters() {
        const Hand h = handTrace();
        const auto events = chromeEvents(h.trace);
        QVERIFY(!events.isEmpty());
        int spans = 0, phases = 0;
        QJsonObject last_allocated, last_category;
        bool oom = false;
        for (const auto& v : events) {
            const auto e = v.toObject();
            const auto ph = e["ph"].toString();
            if (ph == "X" && e["cat"].toString() == "phase") {
                ++phases;
            } else if (ph == "X" && e["tid"].toInt() == 0) {
                ++spans;
                if (e["name"].toString() == "aten::mm") {
                    QCOMPARE(e["ts"].toDouble(), 2.0);
                    QCOMPARE(e["dur"].toDouble(), 0.6);
                    QCOMPARE(e["args"].toObject()["module"].toString(),
                             QString("TinyLlama.blocks.0.attention"));
                    QCOMPARE(e["args"].toObject()["allocated_bytes"].toInt(), 4096);
                }
                if (e["name"].toString() == "TinyLlama.blocks.0.attention") {
                    QCOMPARE(e["cat"].toString(), QString("module"));
                    // children included: the mm block and the add block
                    QCOMPARE(e["args"].toObject()["allocated_bytes"].toInt(), 4096 + 512);
                }
            } else if (ph == "C" && e["name"].toString() == "allocated") {
                last_allocated = e;
            } else if (ph == "C" && e["name"].toString() == "allocated by category") {
                last_category = e;
            } else if (ph == "i") {
                oom = true;
            }
        }
        QCOMPARE(spans, 3);
        QCOMPARE(phases, 2);
        QVERIFY(oom);
        QCOMPARE(last_allocated["args"].toObject()["bytes"].toInt(), 2816);
        QCOMPARE(last_allocated["ts"].toDouble(), 7.0);
        const auto by_category = last_category["args"].toObject();
        QCOMPARE(by_category["PARAMETER"].toInt(), 1024);
        QCOMPARE(by_category["AUTOGRAD_DETAIL"].toInt(), 2048);
        QCOMPARE(by_category.size(), kCategoryCount);
        // the block freed without a recorded alloc counted from the start and is gone by now
        int64_t sum = 0;
        for (const auto& v : by_category) {
            sum += v.toInt();
        }
        QCOMPARE(sum, int64_t(1024 + 2048));
    }

    void chromeCountersAreThinnedButKeepThePeak() {
        Trace t;
        const uint32_t s = t.stacks.child(
            StackTable::kEmpty, t.stacks.internFrame(frame("aten::empty", FrameKind::Operator)));
        // a saw tooth with one tall spike in the middle
        for (int i = 0; i < 5000; ++i) {
            const int64_t size = i == 2500 ? 1 << 20 : 16;
            addEvent(t, 100 * i, EventKind::Alloc, 0x1000 + 32 * uint64_t(i), size, s, 1,
                     Phase::Forward);
            addEvent(t, 100 * i + 50, EventKind::Free, 0x1000 + 32 * uint64_t(i), -size, s, 1,
                     Phase::Forward);
        }
        t.finalize();
        ChromeTraceExporter::Options options;
        options.max_counter_points = 200;  // two tracks: allocated, and by category
        int points = 0;
        double peak = 0;
        for (const auto& v : chromeEvents(t, options)) {
            const auto e = v.toObject();
            if (e["ph"].toString() == "C" && e["name"].toString() == "allocated") {
                ++points;
                peak = std::max(peak, e["args"].toObject()["bytes"].toDouble());
            }
        }
        QVERIFY2(points <= 100, qPrintable(QString::number(points)));
        QVERIFY(points >= 50);
        QCOMPARE(peak, double(1 << 20));
    }

    void chromeTraceOfAnEmptyTraceIsValidJson() {
        Trace t;
        t.finalize();
        const auto events = chromeEvents(t);
        QCOMPARE(events.size(), 1);  // the process name
    }

    void csvQuotesAsRfc4180() {
        QCOMPARE(TableExporter::csvField("plain"), std::string("plain"));
        QCOMPARE(TableExporter::csvField("a,b"), std::string("\"a,b\""));
        QCOMPARE(TableExporter::csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
        QCOMPARE(TableExporter::csvField("two\nlines"), std::string("\"two\nlines\""));
        QCOMPARE(TableExporter::csvField(" padded"), std::string("\" padded\""));
        QCOMPARE(TableExporter::csvField(""), std::string(""));

        const Hand h = handTrace();
        const auto csv =
            TableExporter::toCsv(TableExporter::operators(h.trace, TableExporter::Units::Raw));
        QVERIFY(csv.find("\r\n") != std::string::npos);
        const auto rows = parseCsv(csv);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0][0], std::string("name"));
        QCOMPARE(rows[0].size(), size_t(12));
        QCOMPARE(rows[1][0], std::string("aten::mm"));  // most bytes first
        QCOMPARE(rows[1][2], std::string("3"));
        QCOMPARE(rows[1][3], std::string("1.500"));  // self ms
        QCOMPARE(rows[1][4], std::string("75.00"));  // % of the 2 ms profiled
        QCOMPARE(rows[1][7], std::string("6144"));
        QCOMPARE(rows[1][11], std::string("2500000000"));
        QCOMPARE(rows[2][0], std::string("my,\"odd\"|op"));
        for (const auto& row : rows) {
            QCOMPARE(row.size(), size_t(12));
        }

        const auto allocations = parseCsv(
            TableExporter::toCsv(TableExporter::allocations(h.trace, TableExporter::Units::Raw)));
        QCOMPARE(allocations.size(), size_t(1 + 5));
        QCOMPARE(allocations[1][0], std::string("4096"));  // largest first
        QCOMPARE(allocations[1][1], std::string("ACTIVATION"));
        QCOMPARE(allocations[1][2], std::string("forward"));
        QCOMPARE(allocations[1][4], std::string("TinyLlama.blocks.0.attention"));
        QCOMPARE(allocations[1][5], std::string("aten::mm"));
        QCOMPARE(allocations[1][6], std::string("0.002"));
        QCOMPARE(allocations[1][7], std::string("0.006"));
        QCOMPARE(allocations[1][8], std::string("0.004"));
        QCOMPARE(allocations[2][7], std::string(""));  // the 2048 block is live at the end
        QCOMPARE(allocations.back()[0], std::string("256"));
        QCOMPARE(allocations.back()[2], std::string("before recording"));

        const auto summary = parseCsv(
            TableExporter::toCsv(TableExporter::summary(h.trace, TableExporter::Units::Raw)));
        bool found_avg = false, found_config = false;
        for (const auto& row : summary) {
            QCOMPARE(row.size(), size_t(2));
            found_avg = found_avg || row[0] == "avg_allocated_bytes";
            found_config = found_config || (row[0] == "config.batch_size" && row[1] == "4");
        }
        QVERIFY(found_avg);
        QVERIFY(found_config);
    }

    void markdownEscapesCells() {
        QCOMPARE(TableExporter::markdownCell("a|b"), std::string("a\\|b"));
        QCOMPARE(TableExporter::markdownCell("two\nlines"), std::string("two<br>lines"));
        QCOMPARE(TableExporter::markdownCell("<lambda>"), std::string("&lt;lambda>"));
        QCOMPARE(TableExporter::markdownCell("a\\b *c*"), std::string("a\\\\b \\*c\\*"));
        const Hand h = handTrace();
        const auto md = TableExporter::toMarkdown(
            TableExporter::operators(h.trace, TableExporter::Units::Readable));
        QVERIFY(md.find("| Name | Kind | Calls |") == 0);
        QVERIFY(md.find("|---|---|---:|") != std::string::npos);
        QVERIFY(md.find("my,\"odd\"\\|op") != std::string::npos);
        QVERIFY(md.find("6.0 KiB") != std::string::npos);
        QVERIFY(md.find("2.50 GFLOP") != std::string::npos);
        // every line has the same number of unescaped pipes
        std::istringstream lines(md);
        std::string line;
        int expected = -1;
        while (std::getline(lines, line)) {
            int pipes = 0;
            for (size_t i = 0; i < line.size(); ++i) {
                pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
            }
            if (expected < 0) {
                expected = pipes;
            }
            QCOMPARE(pipes, expected);
        }
        const auto summary = TableExporter::toMarkdown(
            TableExporter::summary(h.trace, TableExporter::Units::Readable));
        QVERIFY(summary.find("| avg_allocated_bytes |") != std::string::npos);
        QVERIFY(summary.find("bytes) |") != std::string::npos);
    }

    void reportFillsTheExerciseTables() {
        std::vector<Trace> runs;
        runs.push_back(reportRun("workshop-default", 4, 128, 100, 50.0));
        runs.push_back(reportRun("workshop-default", 8, 128, 180, 80.0));
        runs.push_back(reportRun("workshop-default", 8, 256, 400, 40.0));
        runs.push_back(reportRun("2.7B", 4, 128, 30000, 1.0, "forward"));
        runs.push_back(reportRun("2.7B", 4, 128, 60000, 0.5, "training"));
        runs.push_back(reportRun("2.7B", 4, 128, 50000, 0.7, "training", "bf16"));
        const auto md =
            ReportWriter::markdown(runs, {"bs4.memscope", "bs8.memscope", "seq256.memscope"});
        // exercise 2 step 1
        QVERIFY(md.find("| Batch Size | Peak Memory (MB) | Avg Memory (MB) | Training Speed "
                        "(samples/sec) |") != std::string::npos);
        QVERIFY(md.find("| 4 | 100.0 | 50.0 | 50.0 |") != std::string::npos);
        QVERIFY(md.find("| 8 | 180.0 | 90.0 | 80.0 |") != std::string::npos);
        QVERIFY(md.find("--batch-size 16 --seq-len 128") != std::string::npos);  // still missing
        QVERIFY(md.find("--preset workshop-default --batch-size 4 --seq-len 128") ==
                std::string::npos);  // present
        // exercise 2 step 3: 128 and 256 at batch 8; 64 and 512 missing
        QVERIFY(md.find("| Seq Length | Batch Size | Peak Memory (MB) | Memory per Token") !=
                std::string::npos);
        QVERIFY(md.find("| 256 | 8 | 400.0 |") != std::string::npos);
        QVERIFY(md.find("--batch-size 4 --seq-len 512") != std::string::npos);
        QVERIFY(md.find("--batch-size 8 --seq-len 64") != std::string::npos);
        // CS336 (b): two numbers per context length; 256 and 512 missing
        QVERIFY(
            md.find("| Context Length | Forward Pass Peak (MB) | Full Training Step Peak (MB) |") !=
            std::string::npos);
        QVERIFY(md.find("| 128 | 30000.0 | 60000.0 |") != std::string::npos);
        QVERIFY(md.find("a forward-only run at context 256") != std::string::npos);
        QVERIFY(md.find("--model-size 2.7B --batch-size 4 --context-length 512 --profile-type "
                        "training") != std::string::npos);
        // (c) mixed precision: the exercise's table, then the pair side by side
        QVERIFY(md.find("| Context Length | Forward fp32 (MB) | Forward bf16 mixed (MB) | Training "
                        "Step fp32 (MB) | Training Step bf16 mixed (MB) |") != std::string::npos);
        QVERIFY(md.find("| 128 | 30000.0 | — | 60000.0 | 50000.0 |") != std::string::npos);
        QVERIFY(md.find("| FP32 peak (MB) | BF16 peak (MB) |") != std::string::npos);
        QVERIFY(md.find("| 60000.0 | 50000.0 | -16.7% |") != std::string::npos);
        QVERIFY(md.find("--use-mixed-precision --profile-type forward") != std::string::npos);
        // (d) the residual stream, worked out
        QVERIFY(md.find("4 × 512 × 2560 × 4 B = 20,971,520 B; 20,971,520 / 1024² = 20.00 MB") !=
                std::string::npos);
        QVERIFY(md.find("4 × 128 × 2560 × 4 B = 5,242,880 B") != std::string::npos);
        // names label the runs; unnamed ones are numbered
        QVERIFY(md.find("| bs4.memscope |") != std::string::npos);
        QVERIFY(md.find("| run 4 |") != std::string::npos);
        QVERIFY(md.find("## Runs to add") != std::string::npos);
    }

    void reportReadsScalingWithTheSweepTablesRule() {
        // Input-dependent memory per sample from 12.5 to 43.5 MiB when the sequence doubles:
        // S^1.80, which a sweep's table calls "in between" (ScalingFit::verdictFor); the report
        // says the same, not "about quadratic".
        std::vector<Trace> runs;
        runs.push_back(reportRun("workshop-default", 8, 128, 100, 50.0));
        runs.push_back(reportRun("workshop-default", 8, 256, 348, 25.0));
        const auto md = ReportWriter::markdown(runs, {"seq128", "seq256"});
        const std::string expected = ScalingFit::pattern(128, 100.0 / 8, 256, 348.0 / 8);
        QCOMPARE(QString::fromStdString(expected), QString("in between (S^1.80)"));
        QVERIFY2(md.find("| 256 | 8 | 348.0 | 174.0 | " + expected + " |") != std::string::npos,
                 md.c_str());
        QVERIFY(md.find("about quadratic") == std::string::npos);
    }

    // The report's exercise tables are the sweep's: the same runs as sweep points give the same
    // Markdown table, Setting column included (two attention variants at two batch sizes; two
    // lengths of one variant).
    void reportPrintsTheSweepsExerciseTables() {
        struct Figures {
            int64_t batch, seq, peak_mib;
            double samples;
            const char* attention;
        };
        const Figures figures[] = {{4, 128, 100, 50.0, "eager"},
                                   {8, 128, 180, 80.0, "eager"},
                                   {4, 128, 70, 45.0, "memory-efficient"},
                                   {8, 128, 120, 70.0, "memory-efficient"},
                                   {8, 256, 400, 40.0, "eager"}};
        std::vector<Trace> runs;
        SweepResult sweep;
        for (const Figures& f : figures) {
            Trace t = reportRun("workshop-default", f.batch, f.seq, f.peak_mib, f.samples);
            t.meta.config["attention"] = f.attention;
            t.summary["config"] = t.meta.config;
            runs.push_back(std::move(t));
            SweepPointResult p;
            p.options = TrainOptions::fromPreset("workshop-default");
            p.options.batch_size = f.batch;
            p.options.seq_len = f.seq;
            p.options.attention = *parseAttentionKind(f.attention);
            p.peak_bytes = f.peak_mib << 20;
            p.avg_bytes = p.peak_bytes / 2;
            p.samples_per_s = f.samples;
            sweep.points.push_back(p);
        }
        const auto md = ReportWriter::markdown(runs);
        for (const auto kind : {SeedTables::Kind::Seed000Step1, SeedTables::Kind::Seed000Step3}) {
            const std::string table = TableExporter::toMarkdown(
                SeedTables::make(kind, sweep, TableExporter::Units::Readable));
            QVERIFY(table.find("| 8 |") != std::string::npos);
            QVERIFY2(md.find(table) != std::string::npos, (table + "\n---\n" + md).c_str());
        }
        QVERIFY(md.find("| Setting | Batch Size | Peak Memory (MB) |") != std::string::npos);
        QVERIFY(md.find("memory-efficient, training | 8 | 120.0 | 60.0 | 70.0 |") !=
                std::string::npos);
        QVERIFY(md.find(SeedTables::note(SeedTables::Kind::Seed000Step3)) != std::string::npos);
    }

    void reportSaysWhatIsMissing() {
        const auto empty = ReportWriter::markdown({});
        QVERIFY(empty.find("No runs were given") != std::string::npos);

        std::vector<Trace> runs;
        runs.push_back(reportRun("workshop-default", 8, 128, 150, 70.0));
        const auto md = ReportWriter::markdown(runs);
        QVERIFY(md.find("No CS336 runs") != std::string::npos);
        QVERIFY(md.find("--model-size 2.7B --batch-size 4 --context-length 256 --profile-type "
                        "forward") != std::string::npos);
        QVERIFY(md.find("No pair of runs that differ only in precision") != std::string::npos);
        QVERIFY(md.find("--batch-size 4 --seq-len 128") != std::string::npos);
        QVERIFY(md.find("--batch-size 16 --seq-len 128") != std::string::npos);
        // (d) needs no run: it comes from the configuration
        QVERIFY(md.find("20.00 MB") != std::string::npos);
    }

    void reportKeepsRunsWithoutAConfigurationOutOfTheScalingTables() {
        // an imported snapshot: events and categories, but no model, batch or sequence length
        Hand h = handTrace();
        h.trace.meta.config = nlohmann::json::object();
        h.trace.meta.source = "imported from snap.pickle";
        const auto md = ReportWriter::markdown({h.trace}, {"snap.memscope"});
        QVERIFY(md.find("| snap.memscope | unknown (imported from snap.pickle) | — | — |") !=
                std::string::npos);
        QVERIFY(md.find("No training runs with a recorded configuration") != std::string::npos);
        QVERIFY(md.find("| Batch Size | Peak Memory (MB)") == std::string::npos);
        QVERIFY(md.find("(hidden 0") == std::string::npos);
        // its largest allocation still gets its row, with module and op
        QVERIFY(md.find("| 0.0039 | 1 | ACTIVATION | forward | aten::mm | "
                        "TinyLlama.blocks.\\*.attention |") != std::string::npos);
        QVERIFY(md.find("made by `aten::mm` in `TinyLlama.blocks.*.attention` during forward") !=
                std::string::npos);
    }

    void reportOnARecordedRunNamesTheLargestAllocations() {
        const Trace t = recordTiny();
        QVERIFY(!t.operators.empty());
        const auto md = ReportWriter::markdown({t}, {"tiny.memscope"});
        QVERIFY(md.find("### Step 4: top memory-consuming operations") != std::string::npos);
        QVERIFY(md.find("1. `aten::") != std::string::npos);
        QVERIFY(md.find("The largest allocations are ") != std::string::npos);
        QVERIFY(md.find("| Size (MB) | Count | Category | Phase | Op | Module | Size matches |") !=
                std::string::npos);
        // the logits of a 2 x 16 batch over a vocabulary of 64, in fp32
        QVERIFY(md.find("B×S×V (logits) × 4 B (fp32)") != std::string::npos);
        // 2 x 16 x 32 x 4 bytes
        QVERIFY(md.find("2 × 16 × 32 × 4 B = 4,096 B") != std::string::npos);
    }

    void recordedRunExportsEverywhere() {
        const Trace t = recordTiny();
        QTemporaryDir dir;
        const auto json = dir.filePath("tiny.json");
        ChromeTraceExporter::write(t, json.toStdString());
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto doc = QJsonDocument::fromJson(f.readAll());
        QVERIFY(doc.isObject());
        int spans = 0, counters = 0;
        for (const auto& v : doc.object()["traceEvents"].toArray()) {
            spans += v.toObject()["ph"].toString() == "X";
            counters += v.toObject()["ph"].toString() == "C";
        }
        QVERIFY(spans >= int(t.spans.size()));
        QVERIFY(counters > 0);
        if (python().isEmpty()) {
            return;
        }
        const auto pickle = dir.filePath("tiny.pickle");
        SnapshotExporter::write(t, pickle.toStdString());
        const auto d = digest(pickle);
        QVERIFY(!d.isEmpty());
        int64_t allocs = 0, frees = 0;
        for (const auto& a : t.allocations()) {
            allocs += a.alloc_event >= 0;
            frees += a.free_event >= 0 &&
                     static_cast<EventKind>(t.events.kind[size_t(a.free_event)]) == EventKind::Free;
        }
        const auto actions = d["actions"].toArray()[0].toObject();
        QCOMPARE(int64_t(actions["alloc"].toInt()), allocs);
        QCOMPARE(int64_t(actions["free_completed"].toInt()), frees);
        QCOMPARE(actions["segment_alloc"].toInt(), actions["alloc"].toInt());
        QVERIFY(d["categories"].toArray().contains("parameter"));
        QVERIFY(d["categories"].toArray().contains("optimizer_state"));
        QVERIFY(d["categories"].toArray().contains("gradient"));
        QVERIFY(!d["annotations"].toArray().isEmpty());
    }

    void roundTripThroughTheImporter() {
#ifndef MEMSCOPE_HAVE_SNAPSHOT_IMPORTER
        QSKIP("io/snapshot_importer.h is not there yet");
#else
        const Trace original = recordTiny();
        QTemporaryDir dir;
        for (const int protocol : {2, 4}) {
            const auto path = dir.filePath(QString("round%1.pickle").arg(protocol)).toStdString();
            SnapshotExporter::write(original, path, protocol);
            const Trace back = SnapshotImporter::import(path, 0);
            // the same allocations, in the same order, with the same sizes, times and stacks
            const auto& a = original.allocations();
            const auto& b = back.allocations();
            QCOMPARE(b.size(), a.size());
            auto frames = [](const Trace& t, uint32_t node) {
                std::vector<std::string> names;
                for (const uint32_t f : t.stacks.framesOf(node)) {
                    names.push_back(t.stacks.frame(f).name);
                }
                return names;
            };
            // time_us is absolute in the file; the importer counts from its first entry, which
            // is the first allocation event (Role events are not written).
            size_t first = 0;
            while (static_cast<EventKind>(original.events.kind[first]) == EventKind::Role) {
                ++first;
            }
            const int64_t t0_a = original.events.time_ns[first] / 1000;
            const int64_t t0_b = back.events.time_ns[0] / 1000;
            for (size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(b[i].size, a[i].size);
                QCOMPARE(b[i].addr, a[i].addr);
                QCOMPARE(b[i].alloc_event >= 0, a[i].alloc_event >= 0);
                QCOMPARE(b[i].free_event >= 0, a[i].free_event >= 0);
                QCOMPARE(toString(b[i].category), toString(a[i].category));
                if (a[i].alloc_event >= 0) {
                    const auto ea = size_t(a[i].alloc_event);
                    const auto eb = size_t(b[i].alloc_event);
                    QCOMPARE(back.events.time_ns[eb] / 1000 - t0_b,
                             original.events.time_ns[ea] / 1000 - t0_a);
                    QCOMPARE(frames(back, back.events.stack[eb]),
                             frames(original, original.events.stack[ea]));
                }
                if (a[i].free_event >= 0) {
                    QCOMPARE(back.events.time_ns[size_t(b[i].free_event)] / 1000 - t0_b,
                             original.events.time_ns[size_t(a[i].free_event)] / 1000 - t0_a);
                }
            }
        }
#endif
    }
};

QTEST_GUILESS_MAIN(TestExports)
#include "test_exports.moc"
