// Reading PyTorch memory snapshots: the pickle reader on hand-built bytes (edge cases and hostile
// input), and SnapshotImporter on snapshots that Python's own pickle module writes at test time
// (tests/fixtures/make_snapshots.py, protocols 2 to 5; skipped when python3 is missing).

#include "analysis/stack_tree.h"
#include "explain/reserved_memory.h"
#include "explain/trace_summary.h"
#include "interchange/frame_cleaner.h"
#include "interchange/snapshot_exporter.h"
#include "interchange/snapshot_importer.h"
#include "io/run_file.h"
#include "io/run_file_cancelled.h"
#include "layout/timeline_layout.h"
#include "pickle/pickle_error.h"
#include "pickle/pickle_reader.h"
#include "pickle/pickle_writer.h"
#include "source/run_source.h"
#include "trace/trace_annotations.h"

#include "heap_meter.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace memscope;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes bytesOf(std::initializer_list<int> values) {
    Bytes out;
    for (int v : values) {
        out.push_back(static_cast<uint8_t>(v));
    }
    return out;
}

Bytes operator+(Bytes a, const Bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Bytes text(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

// A string literal's bytes, embedded NULs included.
template <size_t N>
Bytes text(const char (&s)[N]) {
    return Bytes(s, s + N - 1);
}

PickleValue parse(const Bytes& bytes) {
    return PickleReader("test.pickle").parse(bytes);
}

// The PickleError message parsing the bytes gives, or "" when they parse.
QString parseError(const Bytes& bytes) {
    try {
        parse(bytes);
    } catch (const PickleError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

const Bytes kProto2 = bytesOf({0x80, 2});
const Bytes kStop = text(".");

// The frames of a stack, outermost first, as "file:line:name".
QStringList framesOf(const Trace& trace, uint32_t stack) {
    QStringList out;
    for (const uint32_t id : trace.stacks.framesOf(stack)) {
        const Frame& f = trace.stacks.frame(id);
        out << QString::fromStdString(f.file + ":" + std::to_string(f.line) + ":" + f.name);
    }
    return out;
}

// Index of the first event of a kind at an address, or -1.
int64_t findEvent(const Trace& trace, EventKind kind, uint64_t addr) {
    for (size_t i = 0; i < trace.events.count(); ++i) {
        if (trace.events.kind[i] == uint8_t(kind) && trace.events.addr[i] == addr) {
            return int64_t(i);
        }
    }
    return -1;
}

std::optional<Allocation> allocationAt(const Trace& trace, uint64_t addr) {
    for (const auto& a : trace.allocations()) {
        if (a.addr == addr) {
            return a;
        }
    }
    return std::nullopt;
}

constexpr int64_t kMiB = 1 << 20;

// A snapshot of several MiB (n allocations and their frees, a few stacks and sizes), written
// by SnapshotExporter.
void writeBigSnapshot(const std::string& path, size_t n) {
    Trace t;
    uint32_t stacks[4];
    for (uint32_t s = 0; s < 4; ++s) {
        Frame f;
        f.kind = FrameKind::Other;
        f.name = "layer" + std::to_string(s);
        f.file = "model.py";
        f.line = int32_t(10 + s);
        stacks[s] = t.stacks.child(StackTable::kEmpty, t.stacks.internFrame(f));
    }
    int64_t live = 0;
    for (size_t i = 0; i < 2 * n; ++i) {
        Event e;
        e.time_ns = int64_t(i) * 1000;
        e.addr = 0x100000 + (i / 2 % 256) * 0x10000;
        e.kind = i % 2 == 0 ? EventKind::Alloc : EventKind::Free;
        e.size = (i % 2 == 0 ? 1 : -1) * int64_t(512 * (1 + i / 2 % 7));
        e.stack = stacks[i / 2 % 4];
        live += e.size;
        e.allocated = live;
        t.events.append(e);
    }
    t.finalize();
    SnapshotExporter::write(t, path);
}

}  // namespace

class TestPickleImport : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    QString m_skipReason;  // why the Python-made fixtures are missing, "" when they exist

    std::string fixture(const QString& shape, int protocol) const {
        return m_dir.filePath(QString("%1_p%2.pickle").arg(shape).arg(protocol)).toStdString();
    }

    void protocols() {
        QTest::addColumn<int>("protocol");
        for (int p = 2; p <= 5; ++p) {
            QTest::newRow(qPrintable(QString("protocol %1").arg(p))) << p;
        }
    }

    // Two imports of one snapshot alike: every event column, the segments, the summary, the
    // categories and the stacks' frames.
    static void compareImports(const Trace& a, const Trace& b) {
        QCOMPARE(a.events.kind, b.events.kind);
        QCOMPARE(a.events.addr, b.events.addr);
        QCOMPARE(a.events.size, b.events.size);
        QCOMPARE(a.events.allocated, b.events.allocated);
        QCOMPARE(a.events.reserved, b.events.reserved);
        QCOMPARE(a.events.time_ns, b.events.time_ns);
        QCOMPARE(a.segments().size(), b.segments().size());
        QCOMPARE(a.segment_tags.size(), b.segment_tags.size());
        QCOMPARE(a.summary, b.summary);
        QCOMPARE(a.events.step, b.events.step);
        QCOMPARE(a.events.phase, b.events.phase);
        QCOMPARE(a.allocations().size(), b.allocations().size());
        for (size_t i = 0; i < a.allocations().size(); ++i) {
            QVERIFY(a.allocations()[i].category == b.allocations()[i].category);
            QVERIFY(a.allocations()[i].rule == b.allocations()[i].rule);
        }
        for (size_t i = 0; i < a.events.count(); ++i) {
            QCOMPARE(framesOf(a, a.events.stack[i]), framesOf(b, b.events.stack[i]));
        }
        QCOMPARE(TraceSummary::compute(a), TraceSummary::compute(b));
    }

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        const QString python = QStandardPaths::findExecutable("python3");
        if (python.isEmpty()) {
            m_skipReason = "python3 is not on PATH: no fixture snapshots";
            return;
        }
        QProcess process;
        process.start(python, {QString(MEMSCOPE_SOURCE_DIR) + "/tests/fixtures/make_snapshots.py",
                               m_dir.path()});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
                 process.readAllStandardError().constData());
        // gen_p<N>.pickle: scripts/gen_snapshot.py's training steps (the benchmark's snapshots
        // of any size), small: a few steps of a four-layer model.
        for (int p = 2; p <= 5; ++p) {
            process.start(python,
                          {QString(MEMSCOPE_SOURCE_DIR) + "/scripts/gen_snapshot.py", "--entries",
                           "3000", "--layers", "4", "--protocol", QString::number(p), "--out",
                           QString::fromStdString(fixture("gen", p))});
            QVERIFY(process.waitForFinished(60000));
            QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
                     process.readAllStandardError().constData());
        }
    }

    // --- the reader on hand-built bytes ---------------------------------------------------

    void long1NineBytesIsUInt64Max() {
        const auto v =
            parse(kProto2 +
                  bytesOf({0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00}) + kStop);
        QVERIFY(v.isInt());
        QCOMPARE(v.toUInt64().value(), std::numeric_limits<uint64_t>::max());
        QVERIFY(!v.toInt64());
        QCOMPARE(v.toDecimal(), std::string("18446744073709551615"));
    }

    void longsOfEveryWidth() {
        // 8 bytes of ff: -1; 2^63: nine bytes; 2^64 and -2^64 do not fit: decimal text.
        QCOMPARE(parse(kProto2 +
                       bytesOf({0x8a, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}) + kStop)
                     .toInt64()
                     .value(),
                 int64_t(-1));
        QCOMPARE(parse(kProto2 + bytesOf({0x8a, 0}) + kStop).toInt64().value(), int64_t(0));
        QCOMPARE(parse(kProto2 + bytesOf({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0x80, 0}) + kStop)
                     .toUInt64()
                     .value(),
                 uint64_t(1) << 63);
        QCOMPARE(parse(kProto2 + bytesOf({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0x80}) + kStop)
                     .toInt64()
                     .has_value(),
                 false);
        const auto big = parse(kProto2 + bytesOf({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 1}) + kStop);
        QCOMPARE(big.type(), PickleValue::Type::BigInt);
        QCOMPARE(big.toDecimal(), std::string("18446744073709551616"));
        QVERIFY(!big.toUInt64());
        const auto negative =
            parse(kProto2 + bytesOf({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0xff}) + kStop);
        QCOMPARE(negative.toDecimal(), std::string("-18446744073709551616"));
        QVERIFY(negative == PickleValue::fromDecimal("-18446744073709551616").value());
        QVERIFY(big == PickleValue::fromDecimal("+18446744073709551616").value());
        QCOMPARE(PickleValue::fromDecimal("-123456789012345678901234567890")->toDecimal(),
                 std::string("-123456789012345678901234567890"));
        QCOMPARE(PickleValue::fromDecimal("0000")->toInt64().value(), int64_t(0));
        QVERIFY(!PickleValue::fromDecimal("12a"));
        QVERIFY(!PickleValue::fromDecimal(std::string(4301, '7')));
        QCOMPARE(PickleValue::fromDecimal("-9223372036854775808")->toInt64().value(),
                 std::numeric_limits<int64_t>::min());
        QCOMPARE(big.toDouble().value(), 18446744073709551616.0);
        QCOMPARE(negative.toDouble().value(), -18446744073709551616.0);
        // INT64_MIN in nine bytes (a redundant sign byte) still fits.
        QCOMPARE(parse(kProto2 + bytesOf({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xff}) + kStop)
                     .toInt64()
                     .value(),
                 std::numeric_limits<int64_t>::min());
        // LONG4 of 4097 bytes is refused, 4096 is read.
        Bytes wide = kProto2 + bytesOf({0x8b, 0x01, 0x10, 0, 0}) + Bytes(4097, 0x11) + kStop;
        QVERIFY(parseError(wide).contains("too wide"));
        Bytes ok = kProto2 + bytesOf({0x8b, 0x00, 0x10, 0, 0}) + Bytes(4096, 0x11) + kStop;
        QCOMPARE(parse(ok).type(), PickleValue::Type::BigInt);
    }

    void scalarsAndText() {
        // (1.5, 'héllo', b'\x00\x01', True, None, -2, 65535, 'x' as BINUNICODE8)
        const Bytes bytes = bytesOf({0x80, 4, '('}) + bytesOf({'G', 0x3f, 0xf8, 0, 0, 0, 0, 0, 0}) +
                            bytesOf({0x8c, 6}) + text("h\xc3\xa9llo") +
                            bytesOf({'C', 2, 0, 1, 0x88, 'N'}) +
                            bytesOf({'J', 0xfe, 0xff, 0xff, 0xff, 'M', 0xff, 0xff}) +
                            bytesOf({0x8d, 1, 0, 0, 0, 0, 0, 0, 0, 'x', 't', '.'});
        const auto v = parse(bytes);
        QVERIFY(v.isTuple());
        QCOMPARE(v.size(), size_t(8));
        QCOMPARE(v.at(0).toDouble().value(), 1.5);
        QCOMPARE(v.at(1).text(), std::string("h\xc3\xa9llo"));
        QVERIFY(v.at(2).isBytes());
        QCOMPARE(v.at(2).text(), std::string("\x00\x01", 2));
        QCOMPARE(v.at(3).toBool(), true);
        QVERIFY(v.at(4).isNone());
        QCOMPARE(v.at(5).toInt64().value(), int64_t(-2));
        QCOMPARE(v.at(6).toInt64().value(), int64_t(65535));
        QCOMPARE(v.at(7).text(), std::string("x"));
        QCOMPARE(v.repr(), std::string("(1.5, 'h\xc3\xa9llo', b'\\x00\\x01', True, None, -2, "
                                       "65535, 'x')"));
        // Invalid UTF-8 in a str is an error, as in Python.
        QVERIFY(parseError(kProto2 + bytesOf({0x8c, 1, 0xff}) + kStop).contains("UTF-8"));
    }

    void protocolZeroTextForms() {
        // [7, True, big, big, 2.5]: LIST, INT, I01 (True), LONG, PUT/GET, FLOAT.
        const auto v =
            parse(text("(lp0\nI7\naI01\naL123456789012345678901234567890L\np1\na"
                       "g1\naF2.5\na."));
        QVERIFY(v.isList());
        QCOMPARE(v.size(), size_t(5));
        QCOMPARE(v.at(0).toInt64().value(), int64_t(7));
        QVERIFY(v.at(1).isBool());
        QCOMPARE(v.at(2).toDecimal(), std::string("123456789012345678901234567890"));
        QCOMPARE(v.at(3).node(), v.at(2).node());
        QCOMPARE(v.at(4).toDouble().value(), 2.5);
    }

    void unsupportedOpcodeIsNamed() {
        const QString error =
            parseError(kProto2 + text("cbuiltins\nset\n)\x85R.") /* GLOBAL at offset 2 */);
        QVERIFY2(error == "test.pickle: unsupported pickle opcode GLOBAL (0x63) at offset 2",
                 qPrintable(error));
        QVERIFY(parseError(bytesOf({0x80, 4, 0x93})).contains("STACK_GLOBAL (0x93) at offset 2"));
        QVERIFY(parseError(kProto2 + bytesOf({']', 'N', 'R'})).contains("REDUCE (0x52)"));
        QVERIFY(parseError(kProto2 + bytesOf({0xff})).contains("at offset 2"));
        QVERIFY(parseError(bytesOf({0x80, 6, 'N', '.'})).contains("protocol 6"));
    }

    void declaredLengthBeyondTheFile() {
        const QString error =
            parseError(kProto2 + bytesOf({'X', 0xff, 0xff, 0xff, 0xff}) + text("abc."));
        QVERIFY2(error.contains("BINUNICODE (0x58) at offset 2") &&
                     error.contains("declared length 4294967295 runs past the end"),
                 qPrintable(error));
        QVERIFY(parseError(bytesOf({0x80, 4, 0x8d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
                                    'N', '.'}))
                    .contains("BINUNICODE8"));
        QVERIFY(parseError(bytesOf({0x80, 4, 0x95, 100, 0, 0, 0, 0, 0, 0, 0, 'N', '.'}))
                    .contains("FRAME"));
        QVERIFY(parseError(kProto2 + bytesOf({'B', 10, 0, 0, 0, 1, 2})).contains("BINBYTES"));
        QVERIFY(parseError(kProto2 + bytesOf({'J', 1, 2})).contains("BININT"));
        QVERIFY(parseError(kProto2 + bytesOf({'K', 1})).contains("without STOP"));
        QVERIFY(parseError({}).contains("empty"));
    }

    void nestingIsBounded() {
        // 2000 open MARKs.
        QVERIFY(parseError(kProto2 + Bytes(2000, '(')).contains("MARKs are open"));
        // 2000 nested lists without a single MARK: ]]]...]aaa...a
        Bytes deep = kProto2 + Bytes(2000, ']') + Bytes(1999, 'a') + kStop;
        const QString error = parseError(deep);
        QVERIFY2(error.contains("nested more than 1000"), qPrintable(error));
        // 999 levels are fine.
        Bytes fine = kProto2 + Bytes(999, ']') + Bytes(998, 'a') + kStop;
        QCOMPARE(parse(fine).depth(), 998);
    }

    void memoErrors() {
        QVERIFY(parseError(kProto2 + bytesOf({'h', 5, '.'})).contains("memo index 5 was never"));
        QVERIFY(parseError(kProto2 + bytesOf({'N', 'q', 0, 'j', 0xff, 0xff, 0xff, 0xff, '.'}))
                    .contains("LONG_BINGET (0x6a) at offset 5"));
        // A far index goes to the sparse memo, allocating nothing big.
        const auto v = parse(kProto2 + bytesOf({'K', 9, 'r', 0xff, 0xff, 0xff, 0xf0, '0', 'j', 0xff,
                                                0xff, 0xff, 0xf0, '.'}));
        QCOMPARE(v.toInt64().value(), int64_t(9));
        // The memo shares: [x, x] where x = [] is one list.
        const auto shared = parse(kProto2 + text("](]q\x00h\x00"
                                                 "e."));
        QCOMPARE(shared.size(), size_t(2));
        QCOMPARE(shared.at(0).node(), shared.at(1).node());
    }

    void stackErrors() {
        QVERIFY(parseError(kProto2 + bytesOf({'K', 1, 'K', 2, '.'})).contains("2 values"));
        QVERIFY(parseError(kProto2 + bytesOf({'.'})).contains("0 values"));
        QVERIFY(parseError(kProto2 + bytesOf({'(', 'N', '.'})).contains("MARK"));
        QVERIFY(parseError(kProto2 + bytesOf({'a'})).contains("APPEND"));
        QVERIFY(parseError(kProto2 + bytesOf({'e'})).contains("no MARK"));
        QVERIFY(parseError(kProto2 + bytesOf({'K', 1, '(', 'K', 2, 'e'})).contains("int"));
        QVERIFY(parseError(kProto2 + bytesOf({'}', ']', ']', 's'})).contains("unhashable"));
        QVERIFY(parseError(kProto2 + bytesOf({'}', 'N', 'u'})).contains("no MARK"));
        QVERIFY(parseError(kProto2 + bytesOf({'}', '(', 'N', 'u'})).contains("odd"));
    }

    void cyclesAreRefused() {
        // l = []; l.append(l)
        QVERIFY(parseError(kProto2 + text("]q\x00h\x00"
                                          "a."))
                    .contains("recursive"));
        // a = []; b = [a]; a.append(b)
        QVERIFY(parseError(kProto2 + text("]q\x00]q\x01h\x00"
                                          "ah\x01"
                                          "a."))
                    .contains("recursive"));
        // d = {}; d['k'] = d
        QVERIFY(
            parseError(kProto2 + text("}q\x00X\x01\x00\x00\x00kh\x00s.")).contains("recursive"));
    }

    void dictKeys() {
        // {'a': 1, 'a': 2, 1: 'i', (1, 2): 't'}: the last 'a' wins, order kept.
        const auto v = parse(kProto2 + text("}(X\x01\x00\x00\x00"
                                            "aK\x01X\x01\x00\x00\x00"
                                            "a"
                                            "K\x02K\x01X\x01\x00\x00\x00iK\x01K\x02\x86"
                                            "X\x01\x00\x00\x00tu."));
        QCOMPARE(v.size(), size_t(3));
        QCOMPARE(v.get("a").toInt64().value(), int64_t(2));
        QCOMPARE(v.find(PickleValue::fromInt(1))->text(), std::string("i"));
        QCOMPARE(v.find(PickleValue::fromDouble(1.0))->text(), std::string("i"));
        QCOMPARE(
            v.find(PickleValue::tuple({PickleValue::fromInt(1), PickleValue::fromInt(2)}))->text(),
            std::string("t"));
        QVERIFY(!v.find("missing"));
        QVERIFY(v.get("missing").isNone());
        // A large dict switches to its hash index and still finds every key.
        Bytes big = kProto2 + text("}(");
        for (int i = 0; i < 300; ++i) {
            const std::string key = "k" + std::to_string(i);
            big = big + bytesOf({0x8c, int(key.size())}) + text(key) +
                  bytesOf({'M', i & 0xff, i >> 8});
        }
        big = big + text("u.");
        const auto d = parse(big);
        QCOMPARE(d.size(), size_t(300));
        QCOMPARE(d.get("k299").toInt64().value(), int64_t(299));
        QCOMPARE(d.dictItems()[17].first.text(), std::string("k17"));
    }

    void valuesShareAndOutliveTheirContainers() {
        PickleValue v = PickleValue::list({PickleValue::list({PickleValue::fromInt(7)})});
        const PickleValue alias = v;  // the same list, not a copy of it
        QCOMPARE(alias.node(), v.node());
        v = v.at(0);  // the inner list outlives the outer one it was read from
        QCOMPARE(v.size(), size_t(1));
        QCOMPARE(v.at(0).toInt64().value(), int64_t(7));
        PickleValue d = PickleValue::dict();
        QVERIFY(d.setItem(PickleValue::string("k"), PickleValue::string("text")));
        QVERIFY(!d.setItem(PickleValue::list(), PickleValue()));  // unhashable key
        d = d.get("k");
        QCOMPARE(d.text(), std::string("text"));
        PickleValue moved = std::move(d);
        QVERIFY(d.isNone());
        QCOMPARE(moved.text(), std::string("text"));
    }

    // --- snapshots written by Python ---------------------------------------------------

    void readsEveryProtocol_data() { protocols(); }
    void readsEveryProtocol() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const auto bytes = PickleReader::readBytes(fixture("v2", protocol));
        PickleReader reader(fixture("v2", protocol));
        const PickleValue v = reader.parse(bytes);
        QCOMPARE(reader.protocol(), protocol);
        QVERIFY(v.isDict());
        const auto& trace = v.get("device_traces").at(0);
        QCOMPARE(trace.size(), size_t(11));
        // One frame list object referenced by several entries stays one shared list.
        QCOMPARE(trace.at(1).get("frames").node(), trace.at(2).get("frames").node());
        QCOMPARE(trace.at(1).get("frames").node(), trace.at(4).get("frames").node());
        QCOMPARE(trace.at(10).get("addr").toUInt64().value(), std::numeric_limits<uint64_t>::max());
        QCOMPARE(trace.at(10).get("stream").toDecimal(), std::string("18446744073709551615"));
        QCOMPARE(v.get("segments").at(0).get("segment_pool_id").repr(), std::string("(0, 0)"));
        QVERIFY(trace.at(9).find("time_us") == nullptr);
    }

    void importsV2_data() { protocols(); }
    void importsV2() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const Trace t = SnapshotImporter::import(fixture("v2", protocol));
        const auto& ev = t.events;
        QCOMPARE(ev.checkLengths(), std::string());
        QCOMPARE(t.meta.device, std::string("cuda:0"));
        QCOMPARE(t.meta.source, "imported from v2_p" + std::to_string(protocol) + ".pickle");
        QCOMPARE(t.meta.started_at, std::string("2023-11-14T22:13:20Z"));
        QVERIFY(t.meta.torch_version.empty());
        QCOMPARE(t.summary["imported"], nlohmann::json(true));
        QCOMPARE(t.summary["devices"], nlohmann::json::array({0}));
        QCOMPARE(t.summary["skipped_entries"], nlohmann::json(1));  // the "snapshot" marker

        // segment reserved before the trace, initial block, segment_alloc, alloc+role,
        // alloc+role, free, free, alloc, oom, free, alloc
        const std::vector<EventKind> kinds = {
            EventKind::SegmentAlloc, EventKind::Alloc, EventKind::SegmentAlloc, EventKind::Alloc,
            EventKind::Role,         EventKind::Alloc, EventKind::Role,         EventKind::Free,
            EventKind::Free,         EventKind::Alloc, EventKind::Oom,          EventKind::Free,
            EventKind::Alloc};
        QCOMPARE(ev.count(), kinds.size());
        QVERIFY(t.meta.categories_inferred);
        for (size_t i = 0; i < kinds.size(); ++i) {
            QCOMPARE(int(ev.kind[i]), int(kinds[i]));
            QCOMPARE(ev.step[i], i < 2 ? -1 : 0);  // -1: there before the trace began
            // Inside the "forward" annotation (T0+1 .. T0+70): forward; the segment_alloc at T0
            // and the alloc at T0+80 (no evidence in their frames): unknown.
            const bool in_forward = i >= 3 && i <= 11;
            QCOMPARE(int(ev.phase[i]), int(in_forward ? Phase::Forward : Phase::Other));
            QCOMPARE(ev.device[i], int16_t(0));
            QCOMPARE(ev.thread[i], uint16_t(0));
        }
        const uint64_t seg = 0x7F0000000000ULL;
        const uint64_t a1 = seg, a2 = seg + 512, a3 = seg + 2048, pre = 0x7E0000001000ULL;
        const uint64_t untouched = 0x7E0000000000ULL;
        const uint64_t top = std::numeric_limits<uint64_t>::max();
        const std::vector<uint64_t> addrs = {untouched, untouched, seg, a1, a1, a2, a2,
                                             a1,        pre,       a3,  0,  a3, top};
        const std::vector<int64_t> sizes = {
            20 * kMiB, 8000, 2 * kMiB,         512,   4,  1024, 0, -512,
            -4096,     2048, int64_t(1) << 40, -2048, 256};
        // Live bytes: the pre-existing 4096 (freed in the trace) + the untouched 8000 at start.
        const std::vector<int64_t> allocated = {4096,  12096, 12096, 12608, 12608, 13632, 13632,
                                                13120, 9024,  11072, 11072, 9024,  9280};
        const std::vector<int64_t> times = {0,     0,     0,     10000, 10000, 20000, 20000,
                                            31000, 40000, 50000, 60000, 60000, 80000};
        for (size_t i = 0; i < kinds.size(); ++i) {
            QCOMPARE(ev.addr[i], addrs[i]);
            QCOMPARE(ev.size[i], sizes[i]);
            QCOMPARE(ev.allocated[i], allocated[i]);
            QCOMPARE(ev.time_ns[i], times[i]);
        }
        // Reserved: the 20 MiB segment from before the trace, then the 2 MiB segment_alloc.
        QCOMPARE(ev.reserved[0], 20 * kMiB);
        QCOMPARE(ev.reserved[1], 20 * kMiB);
        QCOMPARE(ev.reserved[2], 22 * kMiB);
        QCOMPARE(ev.reserved.back(), 22 * kMiB);
        QCOMPARE(ev.reserved[10], 22 * kMiB + 12345);  // OOM: capacity = reserved + device_free
        // Both segments, with stream and pool (the segment list's segment_type).
        QCOMPARE(t.segments().size(), size_t(2));
        QCOMPARE(t.segments()[0].addr, untouched);
        QCOMPARE(t.segments()[0].reserve_event, int64_t(0));
        QCOMPARE(t.segments()[0].pool, std::string("large"));
        QCOMPARE(t.segments()[1].addr, seg);
        QCOMPARE(t.segments()[1].reserve_event, int64_t(2));
        QCOMPARE(t.segments()[1].release_event, int64_t(-1));
        QCOMPARE(t.summary["allocator_settings"],
                 nlohmann::json({{"PYTORCH_CUDA_ALLOC_CONF", ""}}));

        // Allocations: untouched (live throughout), a1 (folded free), a2 (live), pre (present
        // from the start), a3 (free_completed alone), top (live).
        QCOMPARE(t.allocations().size(), size_t(6));
        const std::optional<Allocation> u = allocationAt(t, untouched);
        QVERIFY(u && u->alloc_event == 1 && u->free_event == -1 && u->size == 8000);
        const std::optional<Allocation> first = allocationAt(t, a1);
        QVERIFY(first && first->alloc_event == 3 && first->free_event == 7 && first->size == 512);
        QCOMPARE(int(first->category), int(Category::Activation));
        const std::optional<Allocation> second = allocationAt(t, a2);
        QVERIFY(second && second->free_event == -1);
        QCOMPARE(int(second->category), int(Category::Parameter));
        const std::optional<Allocation> p = allocationAt(t, pre);
        QVERIFY(p && p->alloc_event == -1 && p->free_event == 8 && p->size == 4096);
        const std::optional<Allocation> third = allocationAt(t, a3);
        QVERIFY(third && third->alloc_event == 9 && third->free_event == 11);
        // Made in the forward annotation and alive at the OOM (event 10) that ended that
        // forward: an activation the step would have saved (its "weird" category is none).
        QCOMPARE(int(third->category), int(Category::Activation));
        QVERIFY(third->rule == CategoryRule::AliveAtOutOfMemory);
        const std::optional<Allocation> last = allocationAt(t, top);
        QVERIFY(last && last->alloc_event == 12 && last->free_event == -1);
        QCOMPARE(int(last->category), int(Category::Unknown));  // nothing tells its phase
        // There before the trace began: the untouched block, the block freed without an alloc.
        QCOMPARE(int(u->category), int(Category::BeforeRecording));
        QCOMPARE(int(p->category), int(Category::BeforeRecording));
        QCOMPARE(t.peakEvent(), int64_t(5));

        // Frames, outermost first; the free carries the free's frames; missing frames: empty.
        QCOMPARE(framesOf(t, ev.stack[3]), QStringList({"train.py:5:main", "model.py:10:forward"}));
        QCOMPARE(ev.stack[3], ev.stack[5]);  // shared frame list, one stack
        QCOMPARE(ev.stack[7], ev.stack[3]);
        QCOMPARE(framesOf(t, ev.stack[1]), QStringList({"train.py:7:main", "optim.py:20:step"}));
        QCOMPARE(ev.stack[9], StackTable::kEmpty);
        QCOMPARE(framesOf(t, ev.stack[10]), QStringList({"train.py:7:main", "optim.py:20:step"}));
        QCOMPARE(findEvent(t, EventKind::Oom, 0), int64_t(10));

        // The imported trace is a valid run: it saves and loads unchanged.
        const std::string path = m_dir.filePath("v2.memscope").toStdString();
        RunFile::save(t, path);
        const Trace loaded = RunFile::load(path);
        QCOMPARE(loaded.events.count(), ev.count());
        QCOMPARE(loaded.events.allocated, ev.allocated);
        QCOMPARE(loaded.allocations().size(), t.allocations().size());
        QCOMPARE(loaded.meta.source, t.meta.source);
    }

    // PyTorch 2.x stacks='all' frames (tests/fixtures/make_snapshots.py, pt2_all): cleaned
    // stacks by default with the raw ones kept, phases and steps from the frames and
    // annotations, the inferred categories, and the flame graph's top levels.
    void importsPt2AllStacks_data() { protocols(); }
    void importsPt2AllStacks() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const Trace t = SnapshotImporter::import(fixture("pt2_all", protocol));
        const auto& ev = t.events;
        QVERIFY(t.meta.categories_inferred);
        QVERIFY(t.hasRawStacks());
        // The segment and block alive before the trace, then the 13 entries.
        QCOMPARE(ev.count(), size_t(15));
        const uint64_t base = 0x7D0000000000ULL, mib8 = 8ULL << 20;
        const uint64_t a1 = base, t1 = base + mib8, g1 = base + 2 * mib8, b1 = base + 3 * mib8,
                       s1 = base + 4 * mib8, o1 = base + 5 * mib8, a2 = base + 6 * mib8,
                       u1 = base + 7 * mib8, before = 0x7C8000000000ULL;
        using P = Phase;
        const std::vector<P> phases = {P::Other,     P::Other,     P::Forward,   P::Forward,
                                       P::Forward,   P::Backward,  P::Backward,  P::Backward,
                                       P::Backward,  P::Optimizer, P::Optimizer, P::Optimizer,
                                       P::Optimizer, P::Forward,   P::Other};
        const std::vector<int32_t> steps = {-1, -1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2};
        for (size_t i = 0; i < ev.count(); ++i) {
            QCOMPARE(int(ev.phase[i]), int(phases[i]));
            QCOMPARE(ev.step[i], steps[i]);
        }
        auto category = [&](uint64_t addr) {
            const std::optional<Allocation> a = allocationAt(t, addr);
            return a ? int(a->category) : -1;
        };
        QCOMPARE(category(a1), int(Category::Activation));  // forward, freed in backward
        QCOMPARE(category(t1), int(Category::Temporary));   // made and freed in forward
        QCOMPARE(category(g1), int(Category::Gradient));    // AccumulateGrad, kept
        QCOMPARE(category(b1), int(Category::Temporary));   // made and freed in backward
        QCOMPARE(category(s1), int(Category::OptimizerState));
        QCOMPARE(category(o1), int(Category::Temporary));
        QCOMPARE(category(a2), int(Category::Unknown));  // forward, no backward followed
        QCOMPARE(category(u1), int(Category::Unknown));  // nothing tells its phase
        // Alive before the trace and to its end, the size of step 1's one gradient: its
        // parameter (trace/parameter_inference.h).
        QCOMPARE(category(before), int(Category::Parameter));
        // Phase intervals: forward, backward, optimizer of step 1, optimizer and forward of 2.
        QCOMPARE(t.phases.size(), size_t(5));
        QCOMPARE(int(t.phases[2].phase), int(Phase::Optimizer));
        QCOMPARE(t.phases[3].step, 2);

        // Cleaned stacks, outermost first.
        QCOMPARE(framesOf(t, ev.stack[2]),
                 QStringList({"train.py:60:<module>", "train.py:50:main", "train.py:30:train_step",
                              "model.py:20:forward", ":0:aten::zeros", ":0:aten::empty"}));
        QCOMPARE(framesOf(t, ev.stack[3]),
                 QStringList({"train.py:60:<module>", "train.py:50:main", "train.py:30:train_step",
                              "model.py:20:forward", ":0:aten::mm", ":0:aten::empty"}));
        QCOMPARE(framesOf(t, ev.stack[5]),
                 QStringList({":0:AccumulateGrad", ":0:aten::clone", ":0:aten::empty"}));
        QCOMPARE(framesOf(t, ev.stack[6]),
                 QStringList({":0:SelectBackward0", ":0:aten::zeros", ":0:aten::empty"}));
        QCOMPARE(framesOf(t, ev.stack[9]),
                 QStringList({"train.py:60:<module>", "train.py:50:main", "train.py:34:train_step",
                              ":0:aten::zeros_like", ":0:aten::empty"}));
        QCOMPARE(int(t.stacks.frame(t.stacks.frameOf(ev.stack[6])).kind), int(FrameKind::Operator));
        QCOMPARE(TraceSummary::operatorOf(t.stacks, ev.stack[2]), std::string("aten::empty"));
        // The raw frames are kept: the file's list, outermost (the leftover Python frames and
        // then _start) first, the unwinder at the leaf.
        const auto raw = t.raw_stacks.framesOf(t.raw_stack[2]);
        QCOMPARE(t.raw_stacks.frame(raw.front()).name, std::string("<module>"));
        QCOMPARE(t.raw_stacks.frame(raw[4]).name, std::string("_start"));
        QCOMPARE(t.raw_stacks.frame(raw.back()).name, std::string("torch::unwind::unwind()"));
        QCOMPARE(raw.size(), size_t(29));  // 13 C++ op frames, 11 interpreter, 5 Python

        // The flame graph's top levels (the stack tree at the peak and over the whole run).
        StackTreeOptions options;
        options.at_event = 6;  // the backward's peak: a1, g1 and b1 alive with `before`
        const StackTree tree = StackTree::build(t, options);
        QStringList top;
        for (const int32_t c : tree.root().children) {
            top << QString::fromStdString(tree.node(c).name);
        }
        // Largest first (AccumulateGrad's 2 MiB and the 2 MiB block from before the trace, which
        // has no frames, tie, then by the bytes made in the run); report's allocation is made
        // later, alive nowhere.
        QCOMPARE(top.join(" | "), QStringList({"<module> (train.py:60)", "AccumulateGrad",
                                               StackTree::kBeforeRecording, "SelectBackward0",
                                               "report (train.py:70)"})
                                      .join(" | "));
        const int32_t before_node = tree.root().children[2];
        QCOMPARE(tree.node(before_node).bytes, int64_t(2) << 20);
        QCOMPARE(tree.allocationsAt(t, before_node).size(), size_t(1));
        const StackTreeNode& module = tree.node(tree.root().children[0]);
        QCOMPARE(tree.node(module.children[0]).name, std::string("main (train.py:50)"));

        // Saved and loaded: the raw stacks and the inferred flag come back, categories too.
        const std::string path = m_dir.filePath("pt2_all.memscope").toStdString();
        RunFile::save(t, path);
        const Trace loaded = RunFile::load(path);
        QVERIFY(loaded.meta.categories_inferred);
        QCOMPARE(loaded.raw_stack, t.raw_stack);
        QCOMPARE(loaded.raw_stacks.nodeCount(), t.raw_stacks.nodeCount());
        QCOMPARE(loaded.events.stack, t.events.stack);
        for (size_t i = 0; i < t.allocations().size(); ++i) {
            QCOMPARE(int(loaded.allocations()[i].category), int(t.allocations()[i].category));
        }
        // A range keeps the raw stack of each event it keeps (and of the synthetic allocs).
        RunFile::LoadOptions part;
        part.range = RunRange::events(6, 12);
        const Trace cut = RunFile::load(path, part);
        QVERIFY(cut.hasRawStacks());
        QCOMPARE(cut.raw_stack.back(), t.raw_stack[11]);

        // The summary: the peak by the inferred phases, the largest allocations' innermost user
        // frame and operator, "inferred".
        const auto summary = TraceSummary::compute(t);
        QCOMPARE(summary["peak_by_phase"]["backward"].get<int64_t>(), int64_t(4 + 2 + 1 + 2) << 20);
        QCOMPARE(summary["categories_inferred"], nlohmann::json(true));
        const auto& largest = summary["largest_allocations"][0];
        QCOMPARE(largest["size"].get<int64_t>(), int64_t(4) << 20);
        QCOMPARE(largest["frame"].get<std::string>(), std::string("model.py:20 forward"));
        QCOMPARE(largest["op"].get<std::string>(), std::string("aten::zeros"));
        const std::string text = TraceSummary::toText(t, summary);
        QVERIFY2(text.find("model.py:20 forward / aten::zeros") != std::string::npos, text.c_str());
        QVERIFY2(text.find("AccumulateGrad / aten::clone") != std::string::npos, text.c_str());
        QVERIFY2(text.find("allocated before recording started") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("Peak allocated: 9.0 MiB") != std::string::npos, text.c_str());
        QVERIFY2(text.find("inferred") != std::string::npos, text.c_str());
        QVERIFY2(text.find("LibTorch ,") == std::string::npos, text.c_str());
        QVERIFY2(text.find("()") == std::string::npos, text.c_str());
    }

    // --- issue 39, on pt2_train (tests/fixtures/make_snapshots.py): a two-step training loop
    // whose weight gradients are BmmBackward0's output (no AccumulateGrad frame), whose engine
    // thread starts with a stripped libc's misnamed frames, and whose loss is computed outside
    // the model; pt2_train_truth.json is what it was built from.

    nlohmann::json trainTruth() const {
        std::ifstream in(m_dir.filePath("pt2_train_truth.json").toStdString());
        return nlohmann::json::parse(in);
    }

    // Every allocation gets its true category; the parameters, made before recording, are
    // inferred from the gradients. The stolen gradients are gradients by their lifetime, still
    // inferred.
    void trainLoopCategories_data() { protocols(); }
    void trainLoopCategories() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const Trace t = SnapshotImporter::import(fixture("pt2_train", protocol));
        QVERIFY(t.meta.categories_inferred);
        const nlohmann::json truth = trainTruth();
        int stolen = 0;
        for (const auto& a : truth["allocations"]) {
            const std::string name = a["name"].get<std::string>();
            const std::string want = a["category"].get<std::string>();
            const std::optional<Allocation> got = allocationAt(t, a["addr"].get<uint64_t>());
            QVERIFY2(got, name.c_str());
            QVERIFY2(toString(got->category) == want,
                     (name + ": " + toString(got->category) + ", not " + want).c_str());
            if (want == "PARAMETER") {
                QCOMPARE(int(got->rule), int(CategoryRule::ParameterOfGradient));
            }
            if (name.rfind("block.weight grad", 0) == 0) {
                ++stolen;
                QCOMPARE(int(got->rule), int(CategoryRule::AliveAfterBackward));
            }
        }
        QCOMPARE(stolen, 2);
    }

    // No native frame the raw list puts outward of a thread's entry survives cleaning: the
    // engine thread's stacks start at the autograd node.
    void trainLoopThreadFramesFold() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        const Trace t = SnapshotImporter::import(fixture("pt2_train", 4));
        QVERIFY(t.hasRawStacks());
        uint64_t grad = 0;
        const nlohmann::json truth = trainTruth();
        for (const auto& a : truth["allocations"]) {
            if (a["name"] == "block.weight grad 1") {
                grad = a["addr"].get<uint64_t>();
            }
        }
        QCOMPARE(framesOf(t, t.events.stack[size_t(findEvent(t, EventKind::Alloc, grad))]),
                 QStringList({":0:BmmBackward0", ":0:aten::bmm"}));
        int engine_stacks = 0;
        for (size_t i = 0; i < t.events.count(); ++i) {
            const auto raw = t.raw_stacks.framesOf(t.raw_stack[i]);
            size_t entry = raw.size();
            for (size_t k = 0; k < raw.size(); ++k) {
                if (FrameCleaner::isThreadEntry(t.raw_stacks.frame(raw[k]))) {
                    entry = k;  // the innermost entry: everything before it is outward
                }
            }
            if (entry == raw.size()) {
                continue;
            }
            QStringList outward;
            for (size_t k = 0; k < entry; ++k) {
                const Frame& f = t.raw_stacks.frame(raw[k]);
                if (f.file.size() < 3 || f.file.compare(f.file.size() - 3, 3, ".py") != 0) {
                    outward << QString::fromStdString(f.name);
                }
            }
            engine_stacks += outward.contains("__xmknodat");
            for (const QString& frame : framesOf(t, t.events.stack[i])) {
                for (const QString& name : outward) {
                    QVERIFY2(!frame.endsWith(":" + name), qPrintable(frame));
                }
            }
        }
        QVERIFY(engine_stacks > 10);
    }

    // The loss, computed in nn_utils.py between the model's forward and backward, is forward:
    // its saved output an activation, its temporary a temporary. No event is left unknown.
    void trainLoopLossIsForward() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        const Trace t = SnapshotImporter::import(fixture("pt2_train", 4));
        int losses = 0;
        const nlohmann::json truth = trainTruth();
        for (const auto& a : truth["allocations"]) {
            const std::string name = a["name"].get<std::string>();
            if (name.rfind("log_softmax", 0) != 0 && name.rfind("nll_loss", 0) != 0) {
                continue;
            }
            ++losses;
            const int64_t e = findEvent(t, EventKind::Alloc, a["addr"].get<uint64_t>());
            QCOMPARE(int(t.events.phase[size_t(e)]), int(Phase::Forward));
            QCOMPARE(framesOf(t, t.events.stack[size_t(e)]).join(" > ").contains("nn_utils.py"),
                     true);
        }
        QCOMPARE(losses, 4);
        for (size_t i = 0; i < t.events.count(); ++i) {
            if (t.events.step[i] >= 0) {
                QVERIFY2(t.events.phase[i] != uint8_t(Phase::Other),
                         qPrintable(QString::number(i)));
            }
        }
    }

    // At the peak, memory_viz's figure, and the bytes of each category within 1% of the truth
    // (the parameters inferred). info's text says which rule put them there, and what the bytes
    // from before recording are.
    void trainLoopPeakIsTheTruth_data() { protocols(); }
    void trainLoopPeakIsTheTruth() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const Trace t = SnapshotImporter::import(fixture("pt2_train", protocol));
        const nlohmann::json truth = trainTruth();
        const int64_t peak = t.peakEvent();
        QVERIFY(peak >= 0);
        QCOMPARE(t.events.allocated[size_t(peak)], truth["peak_bytes"].get<int64_t>());
        const auto bytes = t.bytesByCategoryAt(size_t(peak));
        const nlohmann::json& want = truth["bytes_by_category_at_peak"];
        const int64_t total = truth["peak_bytes"].get<int64_t>();
        for (int c = 0; c < kCategoryCount; ++c) {
            const std::string name = toString(static_cast<Category>(c));
            const int64_t expected = want.value(name, int64_t(0));
            const int64_t got = bytes[size_t(c)];
            const double tolerance = 0.01 * double(expected > 0 ? expected : total);
            QVERIFY2(std::abs(double(got - expected)) <= tolerance,
                     (name + ": " + std::to_string(got) + ", truth " + std::to_string(expected))
                         .c_str());
        }
        QVERIFY(want.value("GRADIENT", int64_t(0)) > 0);

        const auto summary = TraceSummary::compute(t);
        QCOMPARE(summary["category_rules_at_peak"]["GRADIENT"]["rule_id"].get<std::string>(),
                 std::string("ALIVE_AFTER_BACKWARD"));
        QCOMPARE(summary["before_recording_bytes"].get<int64_t>(), int64_t(24) << 20);
        const std::string text = TraceSummary::toText(t, summary);
        for (const char* line :
             {"GRADIENT             16.0 MiB  inferred: made in backward, alive after it\n",
              "ACTIVATION           20.0 MiB  inferred: made in forward, freed in backward\n",
              "OPTIMIZER_STATE      48.0 MiB  inferred: made in the optimizer, kept into a later",
              "PARAMETER            24.0 MiB  inferred: alive before the trace and to its end, one "
              "block per gradient of its size\n",
              "Before recording: 24.0 MiB allocated before recording started. These are usually "
              "the model's parameters, and after warm-up steps also gradients and optimizer "
              "state. To see them, start recording before building the model.",
              "Parameters (inferred): 24.0 MiB in 2 blocks alive from before the trace to its "
              "end, one for each gradient of step 1 by size.\n"}) {
            QVERIFY2(text.find(line) != std::string::npos,
                     (line + std::string("\n") + text).c_str());
        }
    }

    // A CPU run exported to a pickle and imported again keeps its device, says it has no
    // caching allocator (the export's one segment per block is dropped), and gets its phases and
    // steps back from the exported phase annotations.
    void memscopeExportRoundTrip() {
        Trace t;
        t.meta.device = "cpu";
        t.meta.torch_version = "1.13.1";
        t.meta.threads = 4;
        t.meta.started_at = "2025-01-01T00:00:00Z";
        Frame op;
        op.name = "aten::mm";
        op.kind = FrameKind::Operator;
        Frame module;
        module.name = "TinyLlama.blocks.0";
        module.kind = FrameKind::Module;
        const uint32_t stack = t.stacks.child(t.stacks.child(0, t.stacks.internFrame(module)),
                                              t.stacks.internFrame(op));
        int64_t live = 0;
        const Phase phases[] = {Phase::Forward, Phase::Backward, Phase::Optimizer};
        for (int i = 0; i < 12; ++i) {
            Event e;
            e.time_ns = int64_t(i + 1) * 1000000;
            e.kind = i % 2 == 0 ? EventKind::Alloc : EventKind::Free;
            e.addr = 0x1000 + uint64_t(i / 2) * 0x100;
            e.size = (i % 2 == 0 ? 1 : -1) * 256;
            e.step = 1 + i / 6;
            e.phase = phases[(i / 2) % 3];
            e.stack = stack;
            live += e.size;
            e.allocated = live;
            t.events.append(e);
        }
        for (int s = 1; s <= 2; ++s) {
            for (int p = 0; p < 3; ++p) {
                const int64_t begin = int64_t((s - 1) * 6 + p * 2 + 1) * 1000000;
                t.phases.push_back({phases[p], s, begin, begin + 2000000});
            }
        }
        t.finalize();
        const std::string path = m_dir.filePath("cpu_round_trip.pickle").toStdString();
        SnapshotExporter::write(t, path);
        const Trace back = SnapshotImporter::import(path);
        QCOMPARE(back.meta.device, std::string("cpu"));
        QCOMPARE(back.meta.torch_version, std::string("1.13.1"));
        QCOMPARE(back.meta.threads, 4);
        QVERIFY(!back.hasCachingAllocator());
        QCOMPARE(ReservedMemory::compute(back).toJson()["caching_allocator"],
                 nlohmann::json(false));
        size_t allocs = 0;
        for (size_t i = 0; i < back.events.count(); ++i) {
            QCOMPARE(back.events.device[i], int16_t(-1));
            QVERIFY(back.events.kind[i] != uint8_t(EventKind::SegmentAlloc));
            if (back.events.kind[i] == uint8_t(EventKind::Alloc)) {
                const size_t k = allocs++;
                QCOMPARE(int(back.events.phase[i]), int(phases[k % 3]));
                QCOMPARE(back.events.step[i], int32_t(1 + k / 3));
            }
        }
        QCOMPARE(allocs, size_t(6));
        // The exported phases are phases again, not user annotations.
        for (const TraceAnnotation& a : TraceAnnotations::fromTrace(back)) {
            QVERIFY(a.kind != TraceAnnotation::Kind::User);
        }
        QCOMPARE(back.phases.size(), size_t(6));
        // The operator frame reads as an operator again.
        QCOMPARE(TraceSummary::operatorOf(back.stacks, back.events.stack[0]),
                 std::string("aten::mm"));
        // Categories are the recording's (the export names each block's).
        for (size_t i = 0; i < back.allocations().size(); ++i) {
            QCOMPARE(int(back.allocations()[i].category), int(t.allocations()[i].category));
        }
    }

    void importsLegacyList_data() { protocols(); }
    void importsLegacyList() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const auto value = PickleReader::readFile(fixture("legacy", protocol));
        QVERIFY(value.isList());
        QCOMPARE(SnapshotImporter::devices(value), std::vector<int>({0}));
        const Trace t = SnapshotImporter::import(fixture("legacy", protocol));
        const uint64_t base = 0x7F1000000000ULL;
        // The segment (reserved before the trace), then its two live blocks.
        QCOMPARE(t.events.count(), size_t(3));
        QCOMPARE(int(t.events.kind[0]), int(EventKind::SegmentAlloc));
        QCOMPARE(t.events.addr, std::vector<uint64_t>({base, base, base + 3072}));
        QCOMPARE(t.events.size,
                 std::vector<int64_t>({2 * kMiB, 1000, 500}));  // history's real_size
        QCOMPARE(t.events.allocated, std::vector<int64_t>({0, 1000, 1500}));
        QCOMPARE(t.events.reserved, std::vector<int64_t>({2 * kMiB, 2 * kMiB, 2 * kMiB}));
        QCOMPARE(t.events.time_ns, std::vector<int64_t>({0, 0, 0}));
        QCOMPARE(framesOf(t, t.events.stack[1]), QStringList({"b.py:2:outer", "a.py:1:inner"}));
        QCOMPARE(framesOf(t, t.events.stack[2]), QStringList({"c.py:3:only"}));
        QCOMPARE(t.segments().size(), size_t(1));
        QCOMPARE(t.segments()[0].pool, std::string("large"));
        QCOMPARE(t.allocations().size(), size_t(2));
        QCOMPARE(t.allocations()[0].free_event, int64_t(-1));
        QVERIFY(t.meta.started_at.empty());
    }

    void importsEachDevice_data() { protocols(); }
    void importsEachDevice() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const std::string path = fixture("two_dev", protocol);
        QCOMPARE(SnapshotImporter::devices(PickleReader::readFile(path)), std::vector<int>({0, 1}));

        // Default: the first device with trace entries.
        const Trace one = SnapshotImporter::import(path);
        QCOMPARE(one.meta.device, std::string("cuda:1"));
        // Its segment (reserved before the trace), then the trace.
        QCOMPARE(one.events.count(), size_t(4));
        QCOMPARE(one.events.size, std::vector<int64_t>({2 * kMiB, 100, 200, -100}));
        QCOMPARE(one.events.allocated, std::vector<int64_t>({0, 100, 300, 200}));
        QCOMPARE(one.events.time_ns, std::vector<int64_t>({0, 0, 5000, 9000}));
        QCOMPARE(one.events.device, std::vector<int16_t>({1, 1, 1, 1}));
        QCOMPARE(one.events.reserved.front(), 2 * kMiB);
        QCOMPARE(one.summary["devices"], nlohmann::json::array({0, 1}));
        QCOMPARE(framesOf(one, one.events.stack[1]), QStringList({"dev.py:42:work"}));
        QCOMPARE(one.segments().size(), size_t(1));

        const Trace zero = SnapshotImporter::import(path, 0);
        QCOMPARE(zero.meta.device, std::string("cuda:0"));
        QCOMPARE(zero.events.count(), size_t(2));
        QCOMPARE(zero.events.size.back(), int64_t(4000));
        QCOMPARE(zero.events.device.back(), int16_t(0));
        QCOMPARE(zero.events.reserved.front(), 4 * kMiB);

        try {
            SnapshotImporter::import(path, 2);
            QFAIL("device 2 imported");
        } catch (const PickleError& e) {
            QVERIFY2(QString(e.what()).contains("device 2 is not in the snapshot (devices: 0, 1)"),
                     e.what());
        }
    }

    void importsSegments_data() { protocols(); }
    void importsSegments() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const Trace t = SnapshotImporter::import(fixture("segments", protocol));
        const auto& ev = t.events;
        QCOMPARE(ev.checkLengths(), std::string());
        const uint64_t s1 = 0x700000000000ULL, s2 = 0x710000000000ULL, ex = 0x720000000000ULL;
        const uint64_t s3 = 0x730000000000ULL, s4 = 0x740000000000ULL;
        using K = EventKind;
        // time 0: s1 (reserved before the trace) and its live block; then the trace: s2, two
        // allocs in it, the folded free, the free of a block allocated before the trace, two
        // mapped ranges, the unmap of the middle of the first (released whole, its two ends
        // reserved again), s3 reserved and released, s4 released, an alloc, its pending free,
        // the OOM.
        const std::vector<K> kinds = {
            K::SegmentAlloc, K::Alloc,        K::SegmentAlloc, K::Alloc,        K::Alloc,
            K::Free,         K::Free,         K::SegmentAlloc, K::SegmentAlloc, K::SegmentFree,
            K::SegmentAlloc, K::SegmentAlloc, K::SegmentAlloc, K::SegmentFree,  K::SegmentFree,
            K::Alloc,        K::Free,         K::Oom};
        QCOMPARE(ev.count(), kinds.size());
        for (size_t i = 0; i < kinds.size(); ++i) {
            QCOMPARE(int(ev.kind[i]), int(kinds[i]));
        }
        const std::vector<uint64_t> addrs = {s1,        s1,        s2,
                                             s2,        s2 + 512,  s2 + 512,
                                             s1 + kMiB, ex,        ex + 8 * kMiB,
                                             ex,        ex,        ex + 4 * kMiB,
                                             s3,        s3,        s4,
                                             s2 + 1024, s2 + 1024, 0};
        QCOMPARE(ev.addr, addrs);
        const std::vector<int64_t> sizes = {20 * kMiB, 1000000,  2 * kMiB, 512,       512,
                                            -512,      -4096,    8 * kMiB, 4 * kMiB,  -8 * kMiB,
                                            2 * kMiB,  4 * kMiB, 2 * kMiB, -2 * kMiB, -20 * kMiB,
                                            1024,      -1024,    64 * kMiB};
        QCOMPARE(ev.size, sizes);
        // Reserved: 20 MiB before the trace that it releases (s4) + s1 from the start.
        const std::vector<int64_t> reserved = {
            40 * kMiB, 40 * kMiB, 42 * kMiB, 42 * kMiB, 42 * kMiB, 42 * kMiB, 42 * kMiB,
            50 * kMiB, 54 * kMiB, 52 * kMiB, 52 * kMiB, 52 * kMiB, 54 * kMiB, 52 * kMiB,
            32 * kMiB, 32 * kMiB, 32 * kMiB, 33 * kMiB};  // OOM: + device_free
        QCOMPARE(ev.reserved, reserved);
        // Allocated: the live block of s1 and the 4096 freed in the trace are there from the start.
        QCOMPARE(ev.allocated[1], int64_t(1004096));
        QCOMPARE(ev.allocated[6], int64_t(1000512));
        QCOMPARE(ev.allocated[17], int64_t(1000512));  // the OOM: bytes in use

        // Segments: s4 (reserved before the trace) first, then in reserve order.
        const auto& segs = t.segments();
        QCOMPARE(segs.size(), size_t(8));
        auto check = [&](size_t i, uint64_t addr, int64_t size, int64_t reserve, int64_t release,
                         int64_t stream, const std::string& pool) {
            QCOMPARE(segs[i].addr, addr);
            QCOMPARE(segs[i].size, size);
            QCOMPARE(segs[i].reserve_event, reserve);
            QCOMPARE(segs[i].release_event, release);
            QCOMPARE(segs[i].stream, stream);
            QCOMPARE(segs[i].pool, pool);
            QCOMPARE(segs[i].device, int16_t(0));
        };
        check(0, s4, 20 * kMiB, -1, 14, 0, "");
        check(1, s1, 20 * kMiB, 0, -1, 0, "large");
        check(2, s2, 2 * kMiB, 2, -1, 7, "small");
        check(3, ex, 8 * kMiB, 7, 9, 0, "large");
        check(4, ex + 8 * kMiB, 4 * kMiB, 8, -1, 0, "large");
        check(5, ex, 2 * kMiB, 10, -1, 0, "large");
        check(6, ex + 4 * kMiB, 4 * kMiB, 11, -1, 0, "large");
        check(7, s3, 2 * kMiB, 12, 13, 3, "(1, 5)");
        // One tag per SegmentAlloc event.
        size_t segment_allocs = 0;
        for (size_t i = 0; i < ev.count(); ++i) {
            segment_allocs += ev.kind[i] == uint8_t(K::SegmentAlloc);
        }
        QCOMPARE(t.segment_tags.size(), segment_allocs);
        QVERIFY(t.hasCachingAllocator());

        // Blocks live before the trace: present from the start or allocated at time 0.
        const std::optional<Allocation> before = allocationAt(t, s1 + kMiB);
        QVERIFY(before && before->alloc_event == -1 && before->free_event == 6);
        const std::optional<Allocation> live = allocationAt(t, s1);
        QVERIFY(live && live->size == 1000000 && ev.time_ns[size_t(live->alloc_event)] == 0);
        // The free_requested with no free_completed is the free.
        const std::optional<Allocation> pending = allocationAt(t, s2 + 1024);
        QVERIFY(pending && pending->free_event == 16);

        QCOMPARE(findEvent(t, K::Oom, 0), int64_t(17));
        QCOMPARE(ev.size[17], 64 * kMiB);

        // On the timeline, both blocks that were live before the trace (the one freed in it and
        // the one it never touches) are there from x = 0, at the bottom, as in memory_viz; the
        // x axis has the trace's allocs and frees only.
        const TimelineLayout layout(t);
        QCOMPARE(layout.xCount(), int64_t(6));
        QCOMPARE(layout.eventAt(0), int64_t(3));
        const int64_t live_index = t.allocationOfEvent()[size_t(live->alloc_event)];
        const int64_t before_index = t.allocationOfEvent()[size_t(before->free_event)];
        QCOMPARE(layout.beginX(live_index), int64_t(0));
        QCOMPARE(layout.beginX(before_index), int64_t(0));
        QCOMPARE(layout.endX(before_index), int64_t(3));  // its free is the fourth alloc/free
        QCOMPARE(layout.totalAt(0), int64_t(1000000 + 4096 + 512));
        QVERIFY(layout.drawnCount() >= 2);
        const std::vector<int64_t> bottom = {layout.drawnAllocation(0), layout.drawnAllocation(1)};
        QVERIFY(std::count(bottom.begin(), bottom.end(), live_index) == 1);
        QVERIFY(std::count(bottom.begin(), bottom.end(), before_index) == 1);
        QCOMPARE(layout.bottomAt(layout.drawnAllocation(0), 0), int64_t(0));
        QCOMPARE(t.summary["skipped_entries"], nlohmann::json(0));
        const nlohmann::json settings = t.summary["allocator_settings"];
        QCOMPARE(settings["PYTORCH_CUDA_ALLOC_CONF"], nlohmann::json("expandable_segments:True"));
        QCOMPARE(settings["max_split_size"], nlohmann::json(-1));
        QCOMPARE(settings["expandable_segments"], nlohmann::json(true));
        QCOMPARE(settings["roundup_power2_divisions"], nlohmann::json::array({1, 2, 4}));
    }

    // The streaming import (file read in chunks, entries converted as they are parsed) and the
    // conversion of a whole tree give the same trace.
    void streamedMatchesTree_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("protocol");
        for (const char* shape : {"v2", "legacy", "two_dev", "segments", "user_defined", "empty",
                                  "pt2_all", "pt2_train", "gen", "host", "host_nested"}) {
            for (int p = 2; p <= 5; ++p) {
                QTest::newRow(qPrintable(QString("%1 p%2").arg(shape).arg(p))) << shape << p;
            }
        }
    }
    void streamedMatchesTree() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(QString, shape);
        QFETCH(int, protocol);
        const std::string path = fixture(shape, protocol);
        const std::vector<uint8_t> bytes = PickleReader::readBytes(path);
        const PickleValue tree = PickleReader(path).parse(bytes);
        std::vector<int> lanes = SnapshotImporter::devices(tree);
        if (SnapshotImporter::hasHostLane(tree)) {
            lanes.push_back(SnapshotImporter::kHostDevice);
        }
        for (const int device : lanes) {
            const Trace a = SnapshotImporter::import(path, device);
            QVERIFY(a.events.count() > 0);
            compareImports(a, SnapshotImporter::fromValue(tree, device, path));
            if (QTest::currentTestFailed()) {
                return;
            }
            // The entries packed a block of 128 at a time on the second thread, as a snapshot
            // of millions of entries is (EntryList), read back alike.
            SnapshotImporter::ImportOptions packed;
            packed.entry_chunk = 128;
            compareImports(a, SnapshotImporter::import(path, device, packed));
            if (QTest::currentTestFailed()) {
                return;
            }
        }
    }

    // The reader's fast path for trace entries (PickleListSink::dictItem: a flat dict read
    // straight from the bytes, no dict built) hands the sink the same items as the general
    // path, in the same order; on PyTorch-shaped files it takes almost every entry.
    void dictItemsMatchItems_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("protocol");
        for (const char* shape : {"v2", "segments", "user_defined", "pt2_all", "gen"}) {
            for (int p = 2; p <= 5; ++p) {
                QTest::newRow(qPrintable(QString("%1 p%2").arg(shape).arg(p))) << shape << p;
            }
        }
    }
    void dictItemsMatchItems() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(QString, shape);
        QFETCH(int, protocol);
        struct Sink : PickleListSink {
            bool dicts = false;
            size_t fast = 0;
            std::vector<PickleValue> items;
            int streamList(const std::vector<PickleValue>& stack, size_t size) override {
                return size >= 2 && stack[size - 1].isList() && stack[size - 2].isString() &&
                               stack[size - 2].text() == "device_traces"
                           ? 0
                           : -1;
            }
            void item(int, PickleValue&& value) override { items.push_back(std::move(value)); }
            bool takesDictItems() const override { return dicts; }
            void dictItem(int, const std::pair<PickleValue, PickleValue>* pairs,
                          size_t n) override {
                ++fast;
                PickleValue dict = PickleValue::dict();
                for (size_t i = 0; i < n; ++i) {
                    QVERIFY(dict.setItem(pairs[i].first, pairs[i].second));
                }
                QCOMPARE(dict.size(), n);  // no key twice
                items.push_back(std::move(dict));
            }
        };
        const std::string path = fixture(shape, protocol);
        Sink general;
        Sink fast;
        fast.dicts = true;
        const PickleValue a = PickleReader(path).parseFile(path, &general);
        const PickleValue b = PickleReader(path).parseFile(path, &fast);
        QCOMPARE(general.fast, size_t(0));
        QCOMPARE(general.items.size(), fast.items.size());
        for (size_t i = 0; i < general.items.size(); ++i) {
            QVERIFY2(general.items[i] == fast.items[i], general.items[i].repr().c_str());
        }
        QVERIFY(a == b);
        if (shape == "gen") {
            // Only an entry with a frame list or string seen for the first time, or one that a
            // 64 KiB FRAME cuts, takes the general path.
            QVERIFY2(fast.fast * 10 > fast.items.size() * 9,
                     qPrintable(QString("%1 of %2").arg(fast.fast).arg(fast.items.size())));
        }
    }

    // With a sink, the trace lists reach it entry by entry and stay empty in the tree.
    void streamsDeviceTraces() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        struct Sink : PickleListSink {
            std::vector<int> tags;
            std::vector<PickleValue> items;
            int streamList(const std::vector<PickleValue>& stack, size_t size) override {
                // The lists inside the list under "device_traces".
                return size >= 2 && stack[size - 1].isList() && stack[size - 2].isString() &&
                               stack[size - 2].text() == "device_traces"
                           ? 0
                           : -1;
            }
            void item(int tag, PickleValue&& value) override {
                tags.push_back(tag);
                items.push_back(std::move(value));
            }
        };
        for (int protocol = 2; protocol <= 5; ++protocol) {
            Sink sink;
            const std::string path = fixture("v2", protocol);
            const PickleValue v = PickleReader(path).parseFile(path, &sink);
            QCOMPARE(v.get("device_traces").size(), size_t(1));
            QCOMPARE(v.get("device_traces").at(0).size(), size_t(0));
            QCOMPARE(sink.items.size(), size_t(11));
            QCOMPARE(sink.items[0].get("action").text(), std::string("segment_alloc"));
            QCOMPARE(sink.items[10].get("addr").toUInt64().value(),
                     std::numeric_limits<uint64_t>::max());
            // Shared frame lists stay shared across streamed entries.
            QCOMPARE(sink.items[1].get("frames").node(), sink.items[2].get("frames").node());
            QCOMPARE(v.get("segments").size(), size_t(2));  // the rest is a tree as before
        }
    }

    // A memo reference to a streamed entry cannot be served: a PickleError, not a crash.
    void memoReferenceToStreamedEntry() {
        struct Sink : PickleListSink {
            int streamList(const std::vector<PickleValue>&, size_t size) override {
                return size == 0 ? 0 : -1;  // the outermost list
            }
            void item(int, PickleValue&&) override {}
        } sink;
        // [{}, {}] then BINGET of the first dict: ( ] q0 ( } q1 } q2 e h1 . -- the list is
        // memo 0, the dicts 1 and 2; APPENDS hands them over; h1 refers to the first.
        const Bytes bytes =
            kProto2 + bytesOf({']', 'q', 0, '(', '}', 'q', 1, '}', 'q', 2, 'e', 'h', 1, '0', '.'});
        try {
            PickleReader("m.pickle").parse(bytes, &sink);
            QFAIL("a streamed entry was served from the memo");
        } catch (const PickleError& e) {
            QVERIFY2(
                QString(e.what()).contains("m.pickle") && QString(e.what()).contains("streamed"),
                e.what());
        }
    }

    // Truncated and corrupted files: a PickleError naming the file, never a crash.
    void badFiles() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        const std::vector<uint8_t> bytes = PickleReader::readBytes(fixture("segments", 4));
        const std::string path = m_dir.filePath("bad.pickle").toStdString();
        auto write = [&](const std::vector<uint8_t>& data) {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(reinterpret_cast<const char*>(data.data()), qint64(data.size()));
        };
        for (size_t n = 0; n < bytes.size(); n += 7) {
            write(std::vector<uint8_t>(bytes.begin(), bytes.begin() + ptrdiff_t(n)));
            try {
                SnapshotImporter::import(path);
                QFAIL(qPrintable(QString("a file cut at %1 bytes imported").arg(n)));
            } catch (const PickleError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path)), e.what());
                QVERIFY2(n == 0 || QString(e.what()).contains("offset"), e.what());
            }
        }
        uint32_t rng = 12345;
        int refused = 0;
        for (int round = 0; round < 300; ++round) {
            std::vector<uint8_t> corrupt = bytes;
            for (int k = 0; k < 3; ++k) {
                rng = rng * 1664525u + 1013904223u;
                corrupt[(rng >> 8) % corrupt.size()] = uint8_t(rng >> 24);
            }
            write(corrupt);
            try {
                const Trace t = SnapshotImporter::import(path);
                QCOMPARE(t.events.checkLengths(), std::string());
            } catch (const PickleError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path)), e.what());
                ++refused;
            }
        }
        QVERIFY(refused > 0);
    }

    // A file larger than the reader's chunk, with a string across chunk boundaries, reads the
    // same from the file as from memory.
    void readsAcrossChunks() {
        std::string big(PickleReader::kChunkBytes + 12345, 'x');
        for (size_t i = 0; i < big.size(); i += 4096) {
            big[i] = char('a' + (i / 4096) % 26);
        }
        Bytes bytes = bytesOf({0x80, 4, ']', '('});
        auto add = [&bytes](std::initializer_list<int> values) {
            for (const int v : values) {
                bytes.push_back(static_cast<uint8_t>(v));
            }
        };
        for (int i = 0; i < 3000; ++i) {
            add({'J', i & 0xff, (i >> 8) & 0xff, 0, 0});
        }
        const uint32_t n = uint32_t(big.size());
        add({'X', int(n & 0xff), int((n >> 8) & 0xff), int((n >> 16) & 0xff), int(n >> 24)});
        bytes.insert(bytes.end(), big.begin(), big.end());
        for (int i = 0; i < 200000; ++i) {
            add({'K', i & 0xff});
        }
        add({'e', '.'});
        const std::string path = m_dir.filePath("big.pickle").toStdString();
        {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
        }
        const PickleValue from_file = PickleReader::readFile(path);
        QVERIFY(from_file == parse(bytes));
        QCOMPARE(from_file.size(), size_t(3000 + 1 + 200000));
        QCOMPARE(from_file.at(3000).text(), big);
        // Cut inside the long string: the message names the offset of its opcode.
        bytes.resize(4 + 3000 * 5 + 5 + 100);
        {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
        }
        try {
            PickleReader::readFile(path);
            QFAIL("a cut file parsed");
        } catch (const PickleError& e) {
            QCOMPARE(e.offset(), int64_t(4 + 3000 * 5));
            QVERIFY2(QString(e.what()).contains("runs past the end of the file"), e.what());
        }
    }

    void importsEmptySnapshot() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        const Trace t = SnapshotImporter::import(fixture("empty", 4));
        QCOMPARE(t.events.count(), size_t(0));
        QCOMPARE(t.meta.device, std::string("cuda:0"));
        QCOMPARE(t.summary["devices"], nlohmann::json::array());
    }

    void missingFieldsInEveryCombination() {
        // Entries with nothing but an action, traces that are not lists, segments without
        // blocks: imported as far as they go, never an exception.
        auto e = [](std::initializer_list<std::pair<const char*, PickleValue>> fields) {
            PickleValue d = PickleValue::dict();
            for (const auto& [k, v] : fields) {
                d.setItem(PickleValue::string(k), v);
            }
            return d;
        };
        auto s = [](const char* t) { return PickleValue::string(t); };
        auto i = [](int64_t v) { return PickleValue::fromInt(v); };
        const PickleValue trace = PickleValue::list(
            {e({{"action", s("alloc")}}), e({{"action", s("alloc")}, {"addr", i(16)}}),
             e({{"action", s("alloc")}, {"addr", i(16)}, {"size", i(8)}}),
             e({{"action", s("free_completed")}, {"addr", i(32)}}),
             e({{"action", s("free_requested")}, {"addr", i(16)}}),
             e({{"action", s("free_completed")}, {"addr", i(16)}}), e({{"action", s("oom")}}),
             e({{"action", i(3)}}), e({}), i(5), e({{"action", s("segment_free")}})});
        PickleValue snapshot = e({{"device_traces", PickleValue::list({trace})},
                                  {"segments", PickleValue::list({e({}), e({{"blocks", i(1)}})})}});
        const Trace t = SnapshotImporter::fromValue(snapshot);
        QCOMPARE(t.events.count(), size_t(3));  // alloc, the free after the fold, oom
        QCOMPARE(t.events.allocated, std::vector<int64_t>({8, 0, 0}));
        QCOMPARE(t.summary["skipped_entries"], nlohmann::json(7));
        QCOMPARE(t.events.time_ns, std::vector<int64_t>({2000, 5000, 6000}));  // entry index, µs

        PickleValue odd = e({{"device_traces", i(7)}, {"segments", s("x")}});
        QCOMPARE(SnapshotImporter::fromValue(odd).events.count(), size_t(0));
    }

    void hostileSizesStayWithinWhatRunFilesTake() {
        // A size beyond 256 TiB is no size (the entry is skipped); sizes up to it add up to
        // totals that saturate there, so the import saves as a run file.
        auto e = [](const char* action, int64_t addr, int64_t size) {
            PickleValue d = PickleValue::dict();
            d.setItem(PickleValue::string("action"), PickleValue::string(action));
            d.setItem(PickleValue::string("addr"), PickleValue::fromInt(addr));
            d.setItem(PickleValue::string("size"), PickleValue::fromInt(size));
            return d;
        };
        const PickleValue trace = PickleValue::list(
            {e("alloc", 16, kMaxEventBytes + 1), e("alloc", 32, kMaxEventBytes),
             e("alloc", 48, kMaxEventBytes), e("alloc", 64, std::numeric_limits<int64_t>::max()),
             e("free_completed", 32, kMaxEventBytes)});
        PickleValue snapshot = PickleValue::dict();
        snapshot.setItem(PickleValue::string("device_traces"), PickleValue::list({trace}));
        const Trace t = SnapshotImporter::fromValue(snapshot);
        QCOMPARE(t.events.size,
                 std::vector<int64_t>({kMaxEventBytes, kMaxEventBytes, -kMaxEventBytes}));
        QCOMPARE(t.events.allocated, std::vector<int64_t>({kMaxEventBytes, kMaxEventBytes, 0}));
        QCOMPARE(t.summary["skipped_entries"], nlohmann::json(2));
        const auto path = m_dir.filePath("hostile.memscope").toStdString();
        RunFile::save(t, path);
        QCOMPARE(RunFile::load(path).events.allocated, t.events.allocated);
    }

    // PyTorch 2.5+'s external_annotations (record_function scopes while memory history was
    // recorded), written with PickleWriter as PyTorch lays them out: START/END pairs by name,
    // nested, one never closed, one END without START, one on another device; time_us on the
    // same clock as the trace entries.
    void importsExternalAnnotations() {
        const std::string path = m_dir.filePath("annotated.pickle").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            PickleWriter w(out, 4);
            auto key = [&w](const char* k) { w.string(k); };
            w.beginDict();
            key("segments");
            w.beginList();
            w.endList();
            key("device_traces");
            w.beginList();
            w.beginList();
            const int64_t times[] = {1000, 1010, 1020, 1030};
            const uint64_t addrs[] = {0x100, 0x200, 0x100, 0x200};
            const char* actions[] = {"alloc", "alloc", "free_completed", "free_completed"};
            for (int i = 0; i < 4; ++i) {
                w.beginDict();
                key("action");
                w.string(actions[i]);
                key("addr");
                w.unsignedInteger(addrs[i]);
                key("size");
                w.integer(512);
                key("stream");
                w.integer(0);
                key("time_us");
                w.integer(times[i]);
                key("frames");
                w.beginList();
                w.endList();
                w.endDict();
            }
            w.endList();
            w.endList();
            key("external_annotations");
            w.beginList();
            auto annotation = [&](const char* stage, const char* name, int64_t device,
                                  int64_t time_us) {
                w.beginDict();
                key("stage");
                w.string(stage);
                key("name");
                w.string(name);
                key("device");
                w.integer(device);
                key("time_us");
                w.integer(time_us);
                w.endDict();
            };
            annotation("END", "begun before", 0, 1001);
            annotation("START", "## forward ##", 0, 1002);
            annotation("START", "block", 0, 1003);
            annotation("START", "block", 0, 1004);
            annotation("END", "block", 0, 1005);
            annotation("END", "block", 0, 1008);
            annotation("START", "other device", 1, 1009);
            annotation("END", "## forward ##", 0, 1015);
            annotation("START", "## backward ##", 0, 1025);
            w.endList();
            w.endDict();
            w.finish();
        }
        const Trace t = SnapshotImporter::import(path, 0);
        std::vector<TraceAnnotation> user;
        for (const TraceAnnotation& a : TraceAnnotations::fromTrace(t)) {
            if (a.kind == TraceAnnotation::Kind::User) {
                user.push_back(a);
            }
        }
        // Sorted by begin: forward [2, 15) us, the outer block [3, 8), the inner [4, 5), and
        // backward from 25 us to the last event (30 us); the END without START and the other
        // device's are left out.
        QCOMPARE(user.size(), size_t(4));
        QCOMPARE(user[0].name, std::string("## forward ##"));
        QCOMPARE(user[0].begin_ns, int64_t(2000));
        QCOMPARE(user[0].end_ns, int64_t(15000));
        QCOMPARE(user[1].name, std::string("block"));
        QCOMPARE(user[1].begin_ns, int64_t(3000));
        QCOMPARE(user[1].end_ns, int64_t(8000));
        QCOMPARE(user[2].begin_ns, int64_t(4000));
        QCOMPARE(user[2].end_ns, int64_t(5000));
        QCOMPARE(user[3].name, std::string("## backward ##"));
        QCOMPARE(user[3].begin_ns, int64_t(25000));
        QCOMPARE(user[3].end_ns, int64_t(30000));
        // The Python-made v2 fixture (pickled by Python's own pickle module) has one pair.
        if (m_skipReason.isEmpty()) {
            std::vector<TraceAnnotation> v2;
            for (TraceAnnotation& a :
                 TraceAnnotations::fromTrace(SnapshotImporter::import(fixture("v2", 2)))) {
                if (a.kind == TraceAnnotation::Kind::User) {
                    v2.push_back(std::move(a));
                }
            }
            QCOMPARE(v2.size(), size_t(1));
            QCOMPARE(v2[0].name, std::string("forward"));
            QCOMPARE(v2[0].begin_ns, int64_t(1000));
            QCOMPARE(v2[0].end_ns, int64_t(70000));
        }
    }

    // The "user_defined" entries of device_traces that PyTorch nightlies of mid-2024 wrote for
    // record_function scopes (before external_annotations): one made-up frame each, "name" the
    // stage and "filename" the scope. Nested scopes of one name, an END without START, a scope
    // left open, one without frames (recorded with context=None), one with a stage that is
    // neither START nor END, and one on device 1. Then the exporter writes them back as
    // external_annotations and importing that file gives the same regions.
    void importsUserDefinedEntries() {
        const std::string path = m_dir.filePath("user_defined.pickle").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            PickleWriter w(out, 2);
            auto key = [&w](const char* k) { w.string(k); };
            auto entry = [&](const char* action, uint64_t addr, int64_t size, int64_t time_us) {
                w.beginDict();
                key("action");
                w.string(action);
                key("addr");
                w.unsignedInteger(addr);
                key("size");
                w.integer(size);
                key("stream");
                w.integer(0);
                key("time_us");
                w.integer(time_us);
            };
            auto marker = [&](const char* stage, const char* scope, int64_t time_us) {
                entry("user_defined", 0, 0, time_us);
                key("frames");
                w.beginList();
                w.beginDict();
                key("filename");
                w.string(scope);
                key("line");
                w.integer(0);
                key("name");
                w.string(stage);
                w.endDict();
                w.endList();
                w.endDict();
            };
            auto block = [&](const char* action, uint64_t addr, int64_t time_us) {
                entry(action, addr, 256, time_us);
                w.endDict();
            };
            w.beginDict();
            key("segments");
            w.beginList();
            w.endList();
            key("device_traces");
            w.beginList();
            w.beginList();
            block("alloc", 0x100, 1000);
            marker("END", "begun before", 1001);
            marker("START", "## forward ##", 1002);
            marker("START", "block", 1003);
            block("alloc", 0x200, 1004);
            marker("START", "block", 1005);
            marker("END", "block", 1006);
            marker("END", "block", 1008);
            entry("user_defined", 0, 0, 1009);  // no frames: no name
            w.endDict();
            marker("MIDDLE", "odd stage", 1010);
            marker("END", "## forward ##", 1015);
            block("free_completed", 0x100, 1020);
            marker("START", "## backward ##", 1025);
            block("free_completed", 0x200, 1030);
            w.endList();
            w.beginList();  // device 1
            block("alloc", 0x900, 1000);
            marker("START", "other device", 1001);
            marker("END", "other device", 1002);
            w.endList();
            w.endList();
            w.endDict();
            w.finish();
        }
        auto user = [](const Trace& t) {
            std::vector<TraceAnnotation> out;
            for (const TraceAnnotation& a : TraceAnnotations::fromTrace(t)) {
                if (a.kind == TraceAnnotation::Kind::User) {
                    out.push_back(a);
                }
            }
            return out;
        };
        const Trace t = SnapshotImporter::import(path, 0);
        QCOMPARE(t.events.count(), size_t(4));                      // the markers are no events
        QCOMPARE(t.summary["skipped_entries"], nlohmann::json(2));  // no frames, odd stage
        const auto a = user(t);
        // forward [2, 15) us, the outer block [3, 8), the inner [5, 6), backward from 25 us
        // to the last event (30 us); the END without START and device 1's are left out.
        QCOMPARE(a.size(), size_t(4));
        QCOMPARE(a[0].name, std::string("## forward ##"));
        QCOMPARE(a[0].begin_ns, int64_t(2000));
        QCOMPARE(a[0].end_ns, int64_t(15000));
        QCOMPARE(a[1].name, std::string("block"));
        QCOMPARE(a[1].begin_ns, int64_t(3000));
        QCOMPARE(a[1].end_ns, int64_t(8000));
        QCOMPARE(a[2].name, std::string("block"));
        QCOMPARE(a[2].begin_ns, int64_t(5000));
        QCOMPARE(a[2].end_ns, int64_t(6000));
        QCOMPARE(a[3].name, std::string("## backward ##"));
        QCOMPARE(a[3].begin_ns, int64_t(25000));
        QCOMPARE(a[3].end_ns, int64_t(30000));
        const auto other = user(SnapshotImporter::import(path, 1));
        QCOMPARE(other.size(), size_t(1));
        QCOMPARE(other[0].name, std::string("other device"));

        // Exported as PyTorch 2.5+ writes them (external_annotations) and imported again.
        const std::string exported = m_dir.filePath("user_defined_out.pickle").toStdString();
        SnapshotExporter::write(t, exported);
        const PickleValue tree = PickleReader::readFile(exported);
        const PickleValue* list = tree.find("external_annotations");
        QVERIFY(list && list->isSequence());
        // START and END of each region, and of each inferred phase interval.
        QCOMPARE(list->items().size(), size_t(8 + 2 * t.phases.size()));
        const Trace again = SnapshotImporter::import(exported, 0);
        QCOMPARE(user(again), a);

        // The Python-made fixture (tests/fixtures/make_snapshots.py, "user_defined").
        if (m_skipReason.isEmpty()) {
            for (int protocol = 2; protocol <= 5; ++protocol) {
                const Trace f = SnapshotImporter::import(fixture("user_defined", protocol));
                QCOMPARE(f.events.count(), size_t(4));
                QCOMPARE(f.summary["skipped_entries"], nlohmann::json(1));
                const auto fa = user(f);
                QCOMPARE(fa.size(), size_t(2));
                QCOMPARE(fa[0].name, std::string("## forward ##"));
                QCOMPARE(fa[0].begin_ns, int64_t(2000));
                QCOMPARE(fa[0].end_ns, int64_t(9000));
                QCOMPARE(fa[1].name, std::string("## optimizer ##"));
                QCOMPARE(fa[1].begin_ns, int64_t(12000));
                QCOMPARE(fa[1].end_ns, int64_t(20000));
            }
        }
    }

    // Progress: bytes read, never decreasing, about once per chunk, ending at the file's size;
    // the default options give the same trace as import(path).
    void importReportsProgress() {
        const std::string path = m_dir.filePath("progress.pickle").toStdString();
        writeBigSnapshot(path, 30000);
        const uint64_t size = uint64_t(QFileInfo(QString::fromStdString(path)).size());
        QVERIFY2(size > 3 * PickleReader::kChunkBytes, qPrintable(QString::number(size)));
        std::vector<std::pair<uint64_t, uint64_t>> calls;
        SnapshotImporter::ImportOptions options;
        options.progress = [&](uint64_t bytes, uint64_t total) {
            calls.emplace_back(bytes, total);
        };
        const Trace a = SnapshotImporter::import(path, -1, options);
        QVERIFY(calls.size() >= size / PickleReader::kChunkBytes);
        QVERIFY(calls.size() <= size / (PickleReader::kChunkBytes / 2) + 3);  // bounded rate
        for (size_t i = 0; i < calls.size(); ++i) {
            QCOMPARE(calls[i].second, size);
            QVERIFY(calls[i].first <= size);
            if (i > 0) {
                QVERIFY(calls[i].first >= calls[i - 1].first);
            }
        }
        QCOMPARE(calls.front().first, uint64_t(0));
        QCOMPARE(calls.back().first, size);
        const Trace b = SnapshotImporter::import(path);
        // Each allocation: alloc, role, free. The exporter gives each a segment of its own, which
        // its marker says are no caching allocator's: the import drops them.
        QCOMPARE(a.events.count(), size_t(3 * 30000));
        QVERIFY(!a.hasCachingAllocator());
        QCOMPARE(a.meta.device, std::string("cpu"));
        QCOMPARE(a.events.kind, b.events.kind);
        QCOMPARE(a.events.addr, b.events.addr);
        QCOMPARE(a.events.size, b.events.size);
        QCOMPARE(a.events.allocated, b.events.allocated);
        QCOMPARE(a.events.time_ns, b.events.time_ns);
        QCOMPARE(a.events.stack, b.events.stack);
        QCOMPARE(a.summary, b.summary);
        QCOMPARE(a.meta.source, b.meta.source);
    }

    // Cancel while the file is read, before it, and in the conversion after it: RunFileCancelled
    // naming the file, and every byte allocated on the way is freed again.
    void importCancels_data() {
        QTest::addColumn<int>("when");  // cancel set at this progress call; -1: before import
        QTest::newRow("while reading") << 2;
        QTest::newRow("before") << -1;
        QTest::newRow("after reading") << 1000000;  // at the last call: (size, size)
    }
    void importCancels() {
        QFETCH(int, when);
        const std::string path = m_dir.filePath("cancel.pickle").toStdString();
        writeBigSnapshot(path, 30000);
        const uint64_t size = uint64_t(QFileInfo(QString::fromStdString(path)).size());
        SnapshotImporter::import(path);  // anything allocated once per process, allocated now
        std::atomic<bool> cancel{when < 0};
        int calls = 0;
        uint64_t last_bytes = 0;
        SnapshotImporter::ImportOptions options;
        options.cancel = &cancel;
        options.progress = [&](uint64_t bytes, uint64_t) {
            last_bytes = bytes;
            if (++calls == when || (when > 1000 && bytes == size)) {
                cancel = true;
            }
        };
        const int64_t before = fuzz::heapLive();
        bool cancelled = false;
        try {
            SnapshotImporter::import(path, -1, options);
        } catch (const RunFileCancelled& e) {
            cancelled = true;
            QCOMPARE(QString::fromStdString(e.path()), QString::fromStdString(path));
            QVERIFY2(QString(e.what()).contains("cancelled"), e.what());
        }
        QVERIFY(cancelled);
        QCOMPARE(fuzz::heapLive(), before);
        if (when < 0) {
            QCOMPARE(calls, 0);  // stopped before the first chunk was read
        } else if (when == 2) {
            QCOMPARE(calls, 2);  // stopped at the next chunk
            QVERIFY(last_bytes < size);
        } else {
            QCOMPARE(last_bytes, size);  // the whole file was read; the conversion stopped
        }
        // The same options without the flag import the whole trace.
        cancel = false;
        options.progress = nullptr;
        QCOMPARE(SnapshotImporter::import(path, -1, options).events.count(),
                 SnapshotImporter::import(path).events.count());
    }

    // A range on import cuts the trace exactly as a run file's range does: the same events as
    // the imported run saved and loaded with that range.
    void importsARange_data() {
        QTest::addColumn<QString>("range");
        QTest::newRow("events") << "10000:20000";
        QTest::newRow("open end") << "50000:";
        QTest::newRow("time") << "5ms:12.5ms";
        QTest::newRow("past the end") << "200000:";
    }
    void importsARange() {
        QFETCH(QString, range);
        const std::string path = m_dir.filePath("range.pickle").toStdString();
        writeBigSnapshot(path, 30000);
        const std::string run = m_dir.filePath("range.memscope").toStdString();
        RunFile::save(SnapshotImporter::import(path), run);
        SnapshotImporter::ImportOptions options;
        options.range = RunRange::parse(range.toStdString());
        const Trace a = SnapshotImporter::import(path, -1, options);
        RunFile::LoadOptions load;
        load.range = options.range;
        const Trace b = RunFile::load(run, load);
        QVERIFY(a.events.count() < 150000);
        QCOMPARE(a.events.kind, b.events.kind);
        QCOMPARE(a.events.addr, b.events.addr);
        QCOMPARE(a.events.size, b.events.size);
        QCOMPARE(a.events.allocated, b.events.allocated);
        QCOMPARE(a.events.reserved, b.events.reserved);
        QCOMPARE(a.events.time_ns, b.events.time_ns);
        QCOMPARE(a.allocations().size(), b.allocations().size());
        QCOMPARE(a.segments().size(), b.segments().size());
        QCOMPARE(a.peakEvent(), b.peakEvent());
        QVERIFY2(QString::fromStdString(a.meta.source).contains("loaded"), a.meta.source.c_str());
    }

    // A damaged snapshot (cut short, cut inside a FRAME, an opcode overwritten) imports with
    // keep_partial as what was read before the damage, marked partial with the error's one
    // line; without it, or when nothing was read, the PickleError as before.
    void damagedFileShowsWhatWasRead_data() {
        QTest::addColumn<int>("protocol");
        QTest::addColumn<QString>("damage");
        for (const int p : {2, 4}) {
            for (const char* damage : {"cut", "corrupt"}) {
                QTest::newRow(qPrintable(QString("p%1 %2").arg(p).arg(damage))) << p << damage;
            }
        }
    }
    void damagedFileShowsWhatWasRead() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        QFETCH(QString, damage);
        const std::string whole = fixture("gen", protocol);
        const Trace full = SnapshotImporter::import(whole);
        std::vector<uint8_t> bytes = PickleReader::readBytes(whole);
        const size_t at = bytes.size() * 6 / 10;  // inside the trace (and a 64 KiB frame)
        if (damage == "cut") {
            bytes.resize(at);
        } else {
            // The next entry's EMPTY_DICT becomes a byte that is no opcode.
            size_t i = at;
            while (i < bytes.size() && !(bytes[i] == 'u' && bytes[i + 1] == '}')) {
                ++i;
            }
            QVERIFY(i + 1 < bytes.size());
            bytes[i + 1] = 0xff;
        }
        const std::string path = m_dir.filePath("damaged.pickle").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        }
        QVERIFY_THROWS_EXCEPTION(PickleError, SnapshotImporter::import(path));
        SnapshotImporter::ImportOptions options;
        options.keep_partial = true;
        const Trace part = SnapshotImporter::import(path, -1, options);
        QVERIFY(part.summary.contains("partial"));
        const std::string error = part.summary["partial"]["error"].get<std::string>();
        QVERIFY2(error.rfind(path + ": ", 0) == 0 && error.find('\n') == std::string::npos,
                 error.c_str());
        QCOMPARE(error.find("cut short") != std::string::npos,
                 damage == "cut" && protocol >= 4);  // cut inside a frame
        QVERIFY2(part.meta.source.find("; partial: read up to byte") != std::string::npos,
                 part.meta.source.c_str());
        QCOMPARE(part.summary["partial"]["file_bytes"].get<uint64_t>(), uint64_t(bytes.size()));
        // What was read is the whole file's beginning: the blocks from before the trace, then
        // the trace's entries up to the damage (the last free may lack its free_completed).
        QVERIFY(part.events.count() > full.events.count() / 3);
        QVERIFY(part.events.count() < full.events.count());
        for (size_t i = 0; i + 2 < part.events.count(); ++i) {
            QCOMPARE(part.events.kind[i], full.events.kind[i]);
            QCOMPARE(part.events.addr[i], full.events.addr[i]);
            QCOMPARE(part.events.size[i], full.events.size[i]);
            QCOMPARE(part.events.allocated[i], full.events.allocated[i]);
        }
        const std::string text = TraceSummary::toText(part, part.summary);
        QVERIFY2(text.find("Partial: " + error) != std::string::npos, text.c_str());
        // The one door the CLI and the GUI open files through keeps what was read too.
        const Trace opened = RunSource(path).open({});
        QCOMPARE(opened.events.count(), part.events.count());
        QVERIFY(opened.summary.contains("partial"));

        // Cut before any trace entry or top-level field was complete: the error, not a trace.
        bytes.resize(40);
        {
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        }
        try {
            SnapshotImporter::import(path, -1, options);
            QFAIL("a file cut at 40 bytes imported");
        } catch (const PickleError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path + ": ")), e.what());
        }
    }

    // A preview (issue 52: a first picture of a big file): reading stops after N trace entries,
    // and the trace is the whole file's beginning, marked preview, not partial; a limit above
    // the file's entries imports it whole and unmarked. RunSource passes the limit on.
    void previewReadsTheFirstEntries_data() { protocols(); }
    void previewReadsTheFirstEntries() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const std::string path = fixture("gen", protocol);
        const Trace full = SnapshotImporter::import(path);
        SnapshotImporter::ImportOptions options;
        options.preview_entries = 300;
        const Trace part = SnapshotImporter::import(path, -1, options);
        QVERIFY(part.summary.contains("preview"));
        QVERIFY(!part.summary.contains("partial"));
        QCOMPARE(part.summary["preview"]["entries"].get<uint64_t>(), uint64_t(300));
        const auto offset = part.summary["preview"]["offset"].get<uint64_t>();
        const auto file_bytes = part.summary["preview"]["file_bytes"].get<uint64_t>();
        QVERIFY(offset <= file_bytes);
        QCOMPARE(file_bytes, uint64_t(PickleReader::readBytes(path).size()));
        QVERIFY2(
            part.meta.source.find("; preview: the first 300 trace entries") != std::string::npos,
            part.meta.source.c_str());
        QVERIFY(part.events.count() > 0);
        QVERIFY(part.events.count() < full.events.count());
        for (size_t i = 0; i + 2 < part.events.count(); ++i) {
            QCOMPARE(part.events.kind[i], full.events.kind[i]);
            QCOMPARE(part.events.addr[i], full.events.addr[i]);
            QCOMPARE(part.events.size[i], full.events.size[i]);
        }
        RunSource::Options source_options;
        source_options.preview_entries = 300;
        QCOMPARE(RunSource(path).open(source_options).events.count(), part.events.count());

        options.preview_entries = 1000000000;
        const Trace all = SnapshotImporter::import(path, -1, options);
        QVERIFY(!all.summary.contains("preview"));
        QCOMPARE(all.events.count(), full.events.count());
        QCOMPARE(all.peakEvent(), full.peakEvent());
    }

    // A history that started late (PyTorch's ring buffer overflowed): the summary says how many
    // entries it kept and that it dropped older ones, info says so and how many bytes the lost
    // part left live; the newest fields beside (pool_id, host_segments, host_traces) read.
    void importsOverflowedHistory_data() { protocols(); }
    void importsOverflowedHistory() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const Trace t = SnapshotImporter::import(fixture("overflowed", protocol));
        QCOMPARE(t.summary["trace_history"],
                 nlohmann::json({{"overflowed", true}, {"entries", 4}, {"max_entries", 4}}));
        QCOMPARE(TraceSummary::beforeRecordingBytes(t), int64_t(4096 + 8192));
        nlohmann::json s = t.summary;
        s.update(TraceSummary::compute(t));
        s["before_recording_bytes"] = TraceSummary::beforeRecordingBytes(t);
        const std::string text = TraceSummary::toText(t, s);
        QVERIFY2(text.find("History started late: PyTorch kept only its last 4 trace entries "
                           "(trace_alloc_max_entries) and dropped the older ones "
                           "(trace_alloc_overflowed). What they allocated and had not freed, "
                           "12.0 KiB, is shown") != std::string::npos,
                 text.c_str());

        // The same two fields among the allocator's settings, as some PyTorch versions put them.
        PickleValue settings = PickleValue::dict();
        settings.setItem(PickleValue::string("trace_alloc_max_entries"),
                         PickleValue::fromInt(1000));
        settings.setItem(PickleValue::string("trace_alloc_overflowed"),
                         PickleValue::fromBool(false));
        PickleValue snapshot = PickleValue::dict();
        snapshot.setItem(PickleValue::string("segments"), PickleValue::list());
        snapshot.setItem(PickleValue::string("allocator_settings"), settings);
        const Trace u = SnapshotImporter::fromValue(snapshot);
        QCOMPARE(u.summary["trace_history"],
                 nlohmann::json({{"overflowed", false}, {"entries", 0}, {"max_entries", 1000}}));
        QVERIFY(TraceSummary::toText(u, u.summary).find("History started late") ==
                std::string::npos);
        // Without either field: nothing said.
        QVERIFY(
            !SnapshotImporter::import(fixture("v2", protocol)).summary.contains("trace_history"));
    }

    // --- pinned host memory (PyTorch 2.15: host_segments, host_traces) -------------------

    // The host lane of the "host" fixture: the pinned segment and the block alive before the
    // trace at time 0, then the trace folded as a device's is. Flat and nested host_traces
    // give the same trace.
    void importsTheHostLane_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("protocol");
        for (const char* shape : {"host", "host_nested"}) {
            for (int p = 2; p <= 5; ++p) {
                QTest::newRow(qPrintable(QString("%1 p%2").arg(shape).arg(p))) << shape << p;
            }
        }
    }
    void importsTheHostLane() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(QString, shape);
        QFETCH(int, protocol);
        const std::string path = fixture(shape, protocol);
        const PickleValue tree = PickleReader::readFile(path);
        QCOMPARE(SnapshotImporter::devices(tree), std::vector<int>({0}));
        QVERIFY(SnapshotImporter::hasHostLane(tree));

        const Trace t = SnapshotImporter::import(path, SnapshotImporter::kHostDevice);
        constexpr uint64_t base = 0x7F0000000000;
        QCOMPARE(t.meta.device, std::string("host (pinned)"));
        QCOMPARE(t.summary["devices"], nlohmann::json::array({0, "host"}));
        QCOMPARE(t.summary["skipped_entries"], nlohmann::json(0));
        QCOMPARE(t.events.kind,
                 std::vector<uint8_t>({uint8_t(EventKind::SegmentAlloc), uint8_t(EventKind::Alloc),
                                       uint8_t(EventKind::Alloc), uint8_t(EventKind::Alloc),
                                       uint8_t(EventKind::Free), uint8_t(EventKind::Free)}));
        QCOMPARE(t.events.addr, std::vector<uint64_t>({base, base, base + 4096, base + 69632,
                                                       base + 4096, base + 69632}));
        QCOMPARE(t.events.size,
                 std::vector<int64_t>({2 * kMiB, 4096, 65536, 131072, -65536, -131072}));
        QCOMPARE(t.events.allocated, std::vector<int64_t>({0, 4096, 69632, 200704, 135168, 4096}));
        QCOMPARE(t.events.reserved, std::vector<int64_t>(6, 2 * kMiB));
        // The free_requested folded into its free_completed (35 us); the one alone at 40 us.
        QCOMPARE(t.events.time_ns, std::vector<int64_t>({0, 0, 0, 10000, 25000, 30000}));
        QCOMPARE(t.events.step, std::vector<int32_t>({-1, -1, 0, 0, 0, 0}));
        QCOMPARE(t.events.device, std::vector<int16_t>(6, -1));
        QCOMPARE(t.peakEvent(), int64_t(3));
        QCOMPARE(t.segments().size(), size_t(1));
        // The block from before the trace, with its frames.
        const std::optional<Allocation> before = allocationAt(t, base);
        QVERIFY(before);
        QCOMPARE(before->size, int64_t(4096));
        QCOMPARE(framesOf(t, t.events.stack[1]), QStringList({"setup.py:3:pin_buffers"}));
        QCOMPARE(framesOf(t, t.events.stack[2]),
                 QStringList({"train.py:12:main", "loader.py:31:pin_memory"}));
        QCOMPARE(t.meta.started_at, std::string("2023-11-14T22:13:20Z"));

        // The same from the tree, and through RunSource.
        const Trace b = SnapshotImporter::fromValue(tree, SnapshotImporter::kHostDevice, path);
        QCOMPARE(b.events.kind, t.events.kind);
        QCOMPARE(b.events.allocated, t.events.allocated);
        QCOMPARE(b.events.time_ns, t.events.time_ns);
        QCOMPARE(b.summary, t.summary);
        RunSource::Options options;
        options.device = SnapshotImporter::kHostDevice;
        QCOMPARE(RunSource(path).open(options).events.allocated, t.events.allocated);
    }

    // Device 0 of a file with host data is what it is without it: the host entries streamed
    // beside (before or after device_traces) change nothing but the lanes listed.
    void hostDataLeavesTheDeviceAlone_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("protocol");
        for (const char* shape : {"host", "host_nested"}) {
            for (int p = 2; p <= 5; ++p) {
                QTest::newRow(qPrintable(QString("%1 p%2").arg(shape).arg(p))) << shape << p;
            }
        }
    }
    void hostDataLeavesTheDeviceAlone() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(QString, shape);
        QFETCH(int, protocol);
        const std::string path = fixture(shape, protocol);
        const Trace t = SnapshotImporter::import(path);  // default: device 0, with entries
        QCOMPARE(t.meta.device, std::string("cuda:0"));
        QCOMPARE(t.events.size, std::vector<int64_t>({2 * kMiB, 512, -512}));
        QCOMPARE(t.events.time_ns, std::vector<int64_t>({0, 0, 50000}));
        QCOMPARE(t.events.device, std::vector<int16_t>({0, 0, 0}));
        QCOMPARE(t.summary["devices"], nlohmann::json::array({0, "host"}));

        // The tree without the host keys.
        const PickleValue tree = PickleReader::readFile(path);
        PickleValue without = PickleValue::dict();
        for (const auto& [key, value] : tree.dictItems()) {
            if (key.text() != "host_segments" && key.text() != "host_traces") {
                without.setItem(key, value);
            }
        }
        QVERIFY(!SnapshotImporter::hasHostLane(without));
        const Trace plain = SnapshotImporter::fromValue(without, 0, path);
        QCOMPARE(t.events.kind, plain.events.kind);
        QCOMPARE(t.events.addr, plain.events.addr);
        QCOMPARE(t.events.size, plain.events.size);
        QCOMPARE(t.events.allocated, plain.events.allocated);
        QCOMPARE(t.events.reserved, plain.events.reserved);
        QCOMPARE(t.events.time_ns, plain.events.time_ns);
        QCOMPARE(plain.summary["devices"], nlohmann::json::array({0}));
        nlohmann::json s = t.summary;
        s["devices"] = plain.summary["devices"];
        QCOMPARE(s, plain.summary);
        QCOMPARE(TraceSummary::compute(t), TraceSummary::compute(plain));
    }

    // A file of host data alone: the default is the host lane; device 0 is not there.
    void hostOnlySnapshot_data() { protocols(); }
    void hostOnlySnapshot() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QFETCH(int, protocol);
        const std::string path = fixture("host_only", protocol);
        const Trace t = SnapshotImporter::import(path);
        QCOMPARE(t.meta.device, std::string("host (pinned)"));
        QCOMPARE(t.summary["devices"], nlohmann::json::array({"host"}));
        QCOMPARE(t.events.count(), size_t(6));
        QCOMPARE(t.events.allocated.back(), int64_t(4096));
        const Trace b = SnapshotImporter::fromValue(PickleReader::readFile(path), -1, path);
        QCOMPARE(b.events.allocated, t.events.allocated);
        QCOMPARE(b.meta.device, t.meta.device);
        try {
            SnapshotImporter::import(path, 0);
            QFAIL("device 0 imported");
        } catch (const PickleError& e) {
            QCOMPARE(
                QString(e.what()),
                QString::fromStdString(path + ": device 0 is not in the snapshot (devices: host)"));
        }
    }

    // The host lane asked of a file without one: one line naming the file and the lanes there.
    void hostLaneMissing() {
        if (!m_skipReason.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        for (const char* shape : {"v2", "overflowed"}) {  // overflowed: empty host keys
            const std::string path = fixture(shape, 4);
            try {
                SnapshotImporter::import(path, SnapshotImporter::kHostDevice);
                QFAIL("a host lane imported");
            } catch (const PickleError& e) {
                QCOMPARE(
                    QString(e.what()),
                    QString::fromStdString(path + ": the host lane (pinned host memory) is not in "
                                                  "the snapshot (devices: 0)"));
            }
            QVERIFY_THROWS_EXCEPTION(PickleError,
                                     SnapshotImporter::fromValue(PickleReader::readFile(path),
                                                                 SnapshotImporter::kHostDevice));
        }
        try {
            SnapshotImporter::import(fixture("host", 4), 3);
            QFAIL("device 3 imported");
        } catch (const PickleError& e) {
            QVERIFY2(QString(e.what()).endsWith("device 3 is not in the snapshot (devices: 0, "
                                                "host)"),
                     e.what());
        }
    }

    // A pickle of something else: one line naming the file, partial or not.
    void otherObjectIsOneLine() {
        const std::string path = m_dir.filePath("other.pickle").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            const Bytes bytes = kProto2 + bytesOf({']', 'q', 0, '(', 'K', 1, 'K', 2, 'e', '.'});
            out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        }
        SnapshotImporter::ImportOptions options;
        options.keep_partial = true;
        try {
            SnapshotImporter::import(path, -1, options);
            QFAIL("a list of ints imported");
        } catch (const PickleError& e) {
            QCOMPARE(QString(e.what()),
                     QString::fromStdString(
                         path + ": not a memory snapshot: a list that holds no segment dicts"));
        }
    }

    void notASnapshot() {
        try {
            SnapshotImporter::fromValue(parse(kProto2 + bytesOf({'K', 1, '.'})), -1, "x.pickle");
            QFAIL("an int imported");
        } catch (const PickleError& e) {
            QCOMPARE(QString(e.what()), QString("x.pickle: not a memory snapshot: the pickle "
                                                "holds an int"));
        }
        PickleValue other = PickleValue::dict();
        other.setItem(PickleValue::string("weights"), PickleValue::fromInt(1));
        QVERIFY_THROWS_EXCEPTION(PickleError, SnapshotImporter::fromValue(other));
        try {
            SnapshotImporter::import(m_dir.filePath("missing.pickle").toStdString());
            QFAIL("a missing file imported");
        } catch (const PickleError& e) {
            QVERIFY2(QString(e.what()).contains("missing.pickle: cannot open"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestPickleImport)
#include "test_pickle_import.moc"
