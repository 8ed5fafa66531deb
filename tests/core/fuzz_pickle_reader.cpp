// Mutation fuzzing of PickleReader and SnapshotImporter as a plain CTest (no libFuzzer): small
// valid snapshot pickles built here in C++ (no Python needed) are mutated many thousands of times
// with a fixed seed (bit flips, byte replacements, truncations, insertions, deletions, copied
// chunks, corrupted length fields), and each result is parsed and, when it parses, imported for
// every device it names. Nothing may crash, hang or throw anything but PickleError, the whole
// run must take well under a minute, and memory stays proportional to the input: the largest
// single allocation and the peak of live heap bytes during a parse are tracked through a
// replaced global operator new (heap_meter.h). The mutations are mutation_fuzzer.h's.
//
//   --iterations N  (default 20000)    --seed S  (default 20240501)    (mutation_fuzzer.h)

#include "interchange/snapshot_importer.h"
#include "pickle/pickle_error.h"
#include "pickle/pickle_reader.h"

#include <QDir>
#include <QtTest/QtTest>

#include "heap_meter.h"
#include "mutation_fuzzer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace memscope;
using fuzz::Bytes;

namespace {

// Writes pickle opcodes the way Python's pickler does (protocol 2: BINPUT after each string and
// container; protocol 4: MEMOIZE and one FRAME), remembering where length fields are so that
// the fuzzer can corrupt them on purpose.
class Emitter {
  public:
    explicit Emitter(int protocol) : m_protocol(protocol) {}

    std::vector<size_t> lengthFields;  // offsets (in the final bytes) of declared lengths

    void op(uint8_t code) { m_body.push_back(code); }
    void raw(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        m_body.insert(m_body.end(), b, b + n);
    }
    void le(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) {
            m_body.push_back(uint8_t(v >> (8 * i)));
        }
    }
    // Stores the value on top in the memo; returns its id.
    uint32_t memoize() {
        if (m_protocol >= 4) {
            op(0x94);
        } else if (m_memo < 256) {
            op('q'), op(uint8_t(m_memo));
        } else {
            op('r'), le(m_memo, 4);
        }
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
            op(0x8a), mark(), op(8), le(uint64_t(v), 8);
        }
    }
    void unsignedMax() {  // 2^64-1: nine bytes
        op(0x8a), mark(), op(9), le(~uint64_t(0), 8), op(0);
    }
    void real(double d) {
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        op('G');
        for (int i = 7; i >= 0; --i) {
            op(uint8_t(bits >> (8 * i)));
        }
    }
    // Strings are memoized once and referred to afterwards, as Python's pickler does.
    void str(const std::string& s) {
        if (auto it = m_strings.find(s); it != m_strings.end()) {
            get(it->second);
            return;
        }
        if (s.size() < 256) {
            op(0x8c), mark(), op(uint8_t(s.size()));
        } else {
            op('X'), mark(), le(s.size(), 4);
        }
        raw(s.data(), s.size());
        m_strings[s] = m_memo;
        memoize();
    }
    void key(const std::string& k) { str(k); }

    Bytes finish() {
        op('.');
        Bytes out = {0x80, uint8_t(m_protocol)};
        std::vector<size_t> fields;
        if (m_protocol >= 4) {
            fields.push_back(out.size() + 1);  // FRAME's length
            out.push_back(0x95);
            for (int i = 0; i < 8; ++i) {
                out.push_back(uint8_t(uint64_t(m_body.size()) >> (8 * i)));
            }
        }
        for (const size_t f : lengthFields) {
            fields.push_back(f + out.size());
        }
        lengthFields = fields;
        out.insert(out.end(), m_body.begin(), m_body.end());
        return out;
    }

  private:
    void mark() { lengthFields.push_back(m_body.size()); }

    int m_protocol;
    Bytes m_body;
    uint32_t m_memo = 0;
    std::unordered_map<std::string, uint32_t> m_strings;
};

// A 2.x snapshot with two devices: every action, shared frame lists, a 2^64-1 address, a float
// time, categories, segments with and without block addresses.
Bytes makeSnapshotSeed(int protocol, std::vector<size_t>& length_fields) {
    Emitter e(protocol);
    auto frameList = [&](const char* file, int line, const char* name) -> uint32_t {
        e.op(']');
        const uint32_t id = e.memoize();
        e.op('(');
        for (int depth = 0; depth < 2; ++depth) {
            e.op('}'), e.memoize(), e.op('(');
            e.key("filename"), e.str(depth ? "train.py" : file);
            e.key("line"), e.integer(depth ? 5 : line);
            e.key("name"), e.str(depth ? "main" : name);
            e.op('u');
        }
        e.op('e');
        return id;
    };
    e.op('}'), e.memoize(), e.op('(');

    // segments: [{device, address, total_size, stream, blocks: [...]}, ...]
    e.key("segments"), e.op(']'), e.memoize(), e.op('(');
    for (int device = 0; device < 2; ++device) {
        e.op('}'), e.memoize(), e.op('(');
        e.key("device"), e.integer(device);
        e.key("address"), e.integer(0x7f0000000000LL + device * 0x1000000LL);
        e.key("total_size"), e.integer(2 << 20);
        e.key("stream"), e.integer(0);
        e.key("segment_pool_id"), e.integer(0), e.integer(0), e.op(0x86), e.memoize();
        e.key("blocks"), e.op(']'), e.memoize(), e.op('(');
        for (int b = 0; b < 3; ++b) {
            e.op('}'), e.memoize(), e.op('(');
            if (b == 0) {
                e.key("address"), e.integer(0x7f0000000000LL + device * 0x1000000LL);
            }
            e.key("size"), e.integer(4096);
            e.key("requested_size"), e.integer(4000 + b);
            e.key("state"), e.str(b == 2 ? "inactive" : "active_allocated");
            e.key("frames"), frameList("seg.py", 10 + b, "block");
            e.op('u');
        }
        e.op('e');
        e.op('u');
    }
    e.op('e');

    // device_traces: shared frame lists referenced by memo id
    e.key("device_traces"), e.op(']'), e.memoize(), e.op('(');
    const char* actions[] = {"segment_alloc", "alloc",         "free_requested", "free_completed",
                             "alloc",         "oom",           "snapshot",       "free_requested",
                             "segment_free",  "segment_map",   "segment_unmap",  "annotate",
                             "alloc",         "free_completed"};
    for (int device = 0; device < 2; ++device) {
        e.op(']'), e.memoize(), e.op('(');
        uint32_t shared_frames = 0;
        bool have_shared = false;
        int index = 0;
        for (const char* action : actions) {
            e.op('}'), e.memoize(), e.op('(');
            e.key("action"), e.str(action);
            if (std::strcmp(action, "oom") == 0) {
                e.key("device_free"), e.integer(123456);
            } else if (index == 12) {
                e.key("addr"), e.unsignedMax();
            } else {
                e.key("addr"), e.integer(0x7f0000000000LL + device * 0x1000000LL + index % 4 * 512);
            }
            e.key("size"), e.integer(512 * (1 + index % 3));
            e.key("stream"), e.integer(0);
            if (index == 3) {
                e.key("time_us"), e.real(1.7e15 + index);
            } else if (index != 5) {
                e.key("time_us"), e.integer(1700000000000000LL + index * 10);
            }
            if (index % 5 == 1) {
                e.key("category"), e.str(index % 2 ? "activation" : "gradient");
            }
            e.key("frames");
            if (have_shared && index % 4 != 2) {
                e.get(shared_frames);  // one list object for many entries, as PyTorch writes
            } else {
                shared_frames = frameList("model.py", 42 + index, "forward");
                have_shared = true;
            }
            e.op('u');
            ++index;
        }
        e.op('e');
    }
    e.op('e');
    e.key("external_annotations"), e.op(']'), e.memoize();
    e.op('u');
    Bytes out = e.finish();
    length_fields = e.lengthFields;
    return out;
}

// A well-formed pickle of a random, mostly snapshot-shaped structure: fields missing or of the
// wrong type, actions in any order, addresses from a small pool (so allocs and frees meet,
// 2^64-1 and negative ones included), odd sizes, odd devices, shared and unshared frame lists.
// These reach the importer, where byte-level mutations mostly stop at the reader.
class RandomSnapshot {
  public:
    RandomSnapshot(std::mt19937_64& rng, int protocol) : m_rng(rng), m_e(protocol) {}

    Bytes make() {
        if (chance(10)) {
            segments();  // 1.13: a bare list of segments
        } else {
            m_e.op('}'), m_e.memoize(), m_e.op('(');
            if (chance(85)) {
                m_e.key("segments"), segments();
            }
            if (chance(90)) {
                m_e.key("device_traces"), m_e.op(']'), m_e.memoize(), m_e.op('(');
                for (int d = 0, n = int(pick(4)); d < n; ++d) {
                    if (chance(90)) {
                        trace();
                    } else {
                        value(1);
                    }
                }
                m_e.op('e');
            }
            if (chance(20)) {
                m_e.key("external_annotations"), value(2);
            }
            m_e.op('u');
        }
        return m_e.finish();
    }

  private:
    size_t pick(size_t n) { return n ? size_t(m_rng() % n) : 0; }
    bool chance(int percent) { return int(pick(100)) < percent; }

    void integerField() {
        static const int64_t sizes[] = {0, 1, 512, 4096, int64_t(1) << 40, -5, int64_t(1) << 62};
        if (chance(85)) {
            m_e.integer(sizes[pick(7)]);
        } else {
            value(1);
        }
    }
    void address() {
        switch (pick(10)) {
            case 0:
                m_e.unsignedMax();
                break;
            case 1:
                m_e.integer(-4096);
                break;
            case 2:
                value(1);
                break;
            default:
                m_e.integer(0x7f0000000000LL + int64_t(pick(6)) * 512);
        }
    }
    void value(int depth) {
        switch (pick(depth > 0 ? 9 : 6)) {
            case 0:
                m_e.op('N');
                break;
            case 1:
                m_e.op(chance(50) ? 0x88 : 0x89);
                break;
            case 2:
                m_e.integer(int64_t(m_rng()));
                break;
            case 3:
                m_e.real(double(int64_t(m_rng())) / 1000.0);
                break;
            case 4:
                m_e.str(chance(50) ? "alloc" : "x" + std::to_string(pick(5)));
                break;
            case 5:
                m_e.unsignedMax();
                break;
            case 6:
                m_e.op(']'), m_e.memoize(), m_e.op('(');
                for (int i = 0, n = int(pick(4)); i < n; ++i) {
                    value(depth - 1);
                }
                m_e.op('e');
                break;
            case 7:
                m_e.op('}'), m_e.memoize(), m_e.op('(');
                for (int i = 0, n = int(pick(4)); i < n; ++i) {
                    m_e.str("k" + std::to_string(pick(3)));
                    value(depth - 1);
                }
                m_e.op('u');
                break;
            default:
                value(0), value(0), m_e.op(0x86);  // a 2-tuple
        }
    }
    void frames() {
        if (!m_frameLists.empty() && chance(60)) {
            m_e.get(m_frameLists[pick(m_frameLists.size())]);
            return;
        }
        if (chance(10)) {
            value(2);
            return;
        }
        m_e.op(']');
        m_frameLists.push_back(m_e.memoize());
        m_e.op('(');
        for (int f = 0, n = int(pick(5)); f < n; ++f) {
            if (chance(10)) {
                value(1);
                continue;
            }
            m_e.op('}'), m_e.memoize(), m_e.op('(');
            if (chance(90)) {
                m_e.key("filename"), m_e.str("f" + std::to_string(pick(3)) + ".py");
            }
            if (chance(90)) {
                m_e.key("line"), chance(90) ? m_e.integer(int64_t(pick(100))) : value(0);
            }
            if (chance(90)) {
                m_e.key("name"), chance(90) ? m_e.str("fn" + std::to_string(pick(4))) : value(0);
            }
            m_e.op('u');
        }
        m_e.op('e');
    }
    void trace() {
        static const char* actions[] = {
            "alloc",        "free_requested", "free_completed", "segment_alloc",
            "segment_free", "segment_map",    "segment_unmap",  "oom",
            "snapshot",     "annotate",       "free",           "bogus"};
        static const char* categories[] = {"activation", "PARAMETER", "gradient", "nope"};
        m_e.op(']'), m_e.memoize(), m_e.op('(');
        for (int i = 0, n = int(pick(40)); i < n; ++i) {
            if (chance(3)) {
                value(1);
                continue;
            }
            m_e.op('}'), m_e.memoize(), m_e.op('(');
            if (chance(95)) {
                m_e.key("action");
                chance(95) ? m_e.str(actions[pick(12)]) : value(0);
            }
            if (chance(90)) {
                m_e.key("addr"), address();
            }
            if (chance(90)) {
                m_e.key("size"), integerField();
            }
            if (chance(80)) {
                m_e.key("time_us");
                chance(90) ? m_e.integer(1700000000000000LL + int64_t(pick(1000)))
                           : (chance(50) ? m_e.unsignedMax() : value(0));
            }
            if (chance(70)) {
                m_e.key("frames"), frames();
            }
            if (chance(20)) {
                m_e.key("category");
                chance(90) ? m_e.str(categories[pick(4)]) : value(0);
            }
            if (chance(10)) {
                m_e.key("device_free"), integerField();
            }
            m_e.op('u');
        }
        m_e.op('e');
    }
    void segments() {
        static const char* states[] = {"active_allocated", "active_pending_free", "inactive"};
        m_e.op(']'), m_e.memoize(), m_e.op('(');
        for (int i = 0, n = int(pick(4)); i < n; ++i) {
            if (chance(5)) {
                value(1);
                continue;
            }
            m_e.op('}'), m_e.memoize(), m_e.op('(');
            if (chance(90)) {
                m_e.key("device"), chance(90) ? m_e.integer(int64_t(pick(4))) : value(0);
            }
            if (chance(90)) {
                m_e.key("address"), address();
            }
            if (chance(90)) {
                m_e.key("total_size"), integerField();
            }
            if (chance(90)) {
                m_e.key("blocks"), m_e.op(']'), m_e.memoize(), m_e.op('(');
                for (int b = 0, nb = int(pick(5)); b < nb; ++b) {
                    m_e.op('}'), m_e.memoize(), m_e.op('(');
                    if (chance(40)) {
                        m_e.key("address"), address();
                    }
                    if (chance(90)) {
                        m_e.key("size"), integerField();
                    }
                    if (chance(60)) {
                        m_e.key("requested_size"), integerField();
                    }
                    if (chance(90)) {
                        m_e.key("state"), m_e.str(states[pick(3)]);
                    }
                    if (chance(50)) {
                        m_e.key("frames"), frames();
                    }
                    if (chance(30)) {
                        m_e.key("history"), m_e.op(']'), m_e.memoize(), m_e.op('(');
                        for (int h = 0, nh = int(pick(3)); h < nh; ++h) {
                            m_e.op('}'), m_e.memoize(), m_e.op('(');
                            m_e.key("addr"), address();
                            m_e.key("real_size"), integerField();
                            m_e.key("frames"), frames();
                            m_e.op('u');
                        }
                        m_e.op('e');
                    }
                    if (chance(10)) {
                        m_e.key("category"), m_e.str("activation");
                    }
                    m_e.op('u');
                }
                m_e.op('e');
            }
            m_e.op('u');
        }
        m_e.op('e');
    }

    std::mt19937_64& m_rng;
    Emitter m_e;
    std::vector<uint32_t> m_frameLists;
};

// PyTorch 1.13's bare list of segments with block histories.
Bytes makeLegacySeed(std::vector<size_t>& length_fields) {
    Emitter e(2);
    e.op(']'), e.memoize(), e.op('(');
    e.op('}'), e.memoize(), e.op('(');
    e.key("device"), e.integer(0);
    e.key("address"), e.integer(0x7f1000000000LL);
    e.key("total_size"), e.integer(2 << 20);
    e.key("blocks"), e.op(']'), e.memoize(), e.op('(');
    for (int b = 0; b < 3; ++b) {
        e.op('}'), e.memoize(), e.op('(');
        e.key("size"), e.integer(1024 << b);
        e.key("state"), e.str(b == 1 ? "inactive" : "active_allocated");
        e.key("history"), e.op(']'), e.memoize(), e.op('(');
        e.op('}'), e.memoize(), e.op('(');
        e.key("addr"), e.integer(0x7f1000000000LL + (1024 << b));
        e.key("real_size"), e.integer(1000 << b);
        e.key("frames"), e.op(']'), e.memoize(), e.op('(');
        e.op('}'), e.memoize(), e.op('(');
        e.key("filename"), e.str("legacy.py");
        e.key("line"), e.integer(b);
        e.key("name"), e.str("f");
        e.op('u');
        e.op('e');
        e.op('u');
        e.op('e');
        e.op('u');
    }
    e.op('e');
    e.op('u');
    e.op('e');
    Bytes out = e.finish();
    length_fields = e.lengthFields;
    return out;
}

struct Stats {
    int64_t parsed = 0;
    int64_t imported = 0;
    int64_t pickleErrors = 0;
    int64_t largestAllocation = 0;
    double worstRatio = 0;  // peak extra heap / input bytes
    int64_t worstPeak = 0;
    double slowestMs = 0;
    std::map<std::string, int64_t> reasons;
};

// Parses and imports; returns "" or what went wrong (an exception that is not a PickleError).
std::string exercise(const Bytes& input, Stats& stats) {
    const int64_t base = fuzz::heapLive();
    fuzz::resetHeapPeak();
    const fuzz::Stopwatch watch;
    std::string problem;
    try {
        PickleReader reader("fuzz.pickle");
        const PickleValue value = reader.parse(input);
        ++stats.parsed;
        (void)value.repr(100);
        const std::vector<int> devices = SnapshotImporter::devices(value);
        const Trace t = SnapshotImporter::fromValue(value, -1, "fuzz.pickle");
        if (!t.events.checkLengths().empty()) {
            problem = "inconsistent columns: " + t.events.checkLengths();
        }
        for (size_t i = 0; i < devices.size() && i < 3; ++i) {
            SnapshotImporter::fromValue(value, devices[i], "fuzz.pickle");
        }
        ++stats.imported;
    } catch (const PickleError& e) {
        ++stats.pickleErrors;
        // What refused it, without the numbers: for MEMSCOPE_FUZZ_VERBOSE's histogram.
        std::string what = e.reason().substr(0, 32);
        for (char& c : what) {
            c = (c >= '0' && c <= '9') ? '#' : c;
        }
        const char* op = PickleReader::opcodeName(e.opcode());
        ++stats.reasons[std::string(op ? op : "-") + ": " + what];
    } catch (const std::exception& e) {
        problem = std::string("unexpected exception: ") + e.what();
    }
    // The streaming import from a file as RunSource does it: the reader's fast path for trace
    // entries, and what it salvages of a damaged file (keep_partial). Every fourth input: a
    // file per input doubled the fuzzer's time on the 2-core machine.
    static uint64_t inputs = 0;
    if (problem.empty() && inputs++ % 4 == 0) {
        static const std::string path = QDir::tempPath().toStdString() + "/fuzz_pickle_reader_" +
                                        std::to_string(QCoreApplication::applicationPid()) +
                                        ".pickle";
        if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
            std::fwrite(input.data(), 1, input.size(), f);
            std::fclose(f);
        }
        try {
            SnapshotImporter::ImportOptions options;
            options.keep_partial = true;
            const Trace t = SnapshotImporter::import(path, -1, options);
            if (!t.events.checkLengths().empty()) {
                problem = "inconsistent columns (streamed): " + t.events.checkLengths();
            }
        } catch (const PickleError&) {
        } catch (const std::exception& e) {
            problem = std::string("unexpected exception (streamed): ") + e.what();
        }
        std::remove(path.c_str());
    }
    const double ms = watch.cpuMs();
    stats.slowestMs = std::max(stats.slowestMs, ms);
    const int64_t peak = fuzz::heapPeak() - base;
    stats.worstPeak = std::max(stats.worstPeak, peak);
    stats.worstRatio = std::max(stats.worstRatio, double(peak) / double(input.size() + 1));
    stats.largestAllocation = std::max(stats.largestAllocation, fuzz::largestAllocation());
    // Proportional to the input, with a fixed allowance for the Trace's own tables: a declared
    // length believed without checking would allocate megabytes to gigabytes here.
    if (problem.empty() && peak > int64_t(input.size()) * 512 + (4 << 20)) {
        problem = "used " + std::to_string(peak) + " heap bytes for " +
                  std::to_string(input.size()) + " input bytes";
    }
    return problem;
}

}  // namespace

class FuzzPickleReader : public QObject {
    Q_OBJECT

  private slots:
    void seedsAreValid() {
        std::vector<size_t> fields;
        for (int protocol : {2, 4}) {
            const Bytes seed = makeSnapshotSeed(protocol, fields);
            const PickleValue v = PickleReader("seed").parse(seed);
            QVERIFY(v.isDict());
            QCOMPARE(SnapshotImporter::devices(v), std::vector<int>({0, 1}));
            const Trace t = SnapshotImporter::fromValue(v);
            QVERIFY(t.events.count() > 10);
            QVERIFY(!t.allocations().empty());
            for (size_t f : fields) {
                QVERIFY(f < seed.size());
            }
        }
        const Bytes legacy = makeLegacySeed(fields);
        // Its segment (a SegmentAlloc at time 0) and the two live blocks in it.
        QCOMPARE(SnapshotImporter::fromValue(PickleReader("seed").parse(legacy)).events.count(),
                 size_t(3));
    }

    // Inputs built to be expensive rather than malformed.
    void adversarialInputs() {
        std::vector<Bytes> inputs;
        // A tuple DAG 900 deep through DUP (3^900 values if expanded), then used as a dict key.
        Bytes dag = {0x80, 2, '}', ')'};
        for (int i = 0; i < 900; ++i) {
            dag.insert(dag.end(), {'2', '2', 0x87});
        }
        dag.insert(dag.end(), {'N', 's', '.'});
        inputs.push_back(dag);
        // The same DAG compared against itself as a second key, and repr'd.
        Bytes dag_list = {0x80, 2, ')'};
        for (int i = 0; i < 900; ++i) {
            dag_list.insert(dag_list.end(), {'2', '2', 0x87});
        }
        dag_list.push_back('.');
        inputs.push_back(dag_list);
        // 200,000 MARKs closed one by one, and a 100,000-key dict built by SETITEM.
        Bytes marks = {0x80, 2};
        for (int i = 0; i < 200000; ++i) {
            marks.insert(marks.end(), {'(', '1'});
        }
        marks.insert(marks.end(), {'N', '.'});
        inputs.push_back(marks);
        Bytes keys = {0x80, 2, '}'};
        for (int i = 0; i < 100000; ++i) {
            keys.insert(keys.end(),
                        {'J', uint8_t(i), uint8_t(i >> 8), uint8_t(i >> 16), 0, 'N', 's'});
        }
        keys.push_back('.');
        inputs.push_back(keys);
        // 2000 LONG4 integers of 4096 bytes each (the widest accepted).
        Bytes longs = {0x80, 2, '('};
        for (int i = 0; i < 2000; ++i) {
            longs.insert(longs.end(), {0x8b, 0x00, 0x10, 0, 0});
            longs.insert(longs.end(), 4096, uint8_t(0x5a + i));
        }
        longs.insert(longs.end(), {'l', '.'});
        inputs.push_back(longs);
        // Memo indices far apart.
        Bytes memo = {0x80, 2, 'N'};
        for (uint32_t i = 0; i < 1000; ++i) {
            const uint32_t index = i * 4000037u;
            memo.insert(memo.end(), {'r', uint8_t(index), uint8_t(index >> 8), uint8_t(index >> 16),
                                     uint8_t(index >> 24)});
        }
        memo.push_back('.');
        inputs.push_back(memo);

        Stats stats;
        for (size_t i = 0; i < inputs.size(); ++i) {
            const fuzz::Stopwatch watch;
            const std::string problem = exercise(inputs[i], stats);
            const double s = watch.cpuMs() / 1000.0;
            QVERIFY2(problem.empty(), problem.c_str());
            QVERIFY2(s < 5.0, qPrintable(QString("input %1 took %2 s of CPU").arg(i).arg(s)));
        }
        qInfo("adversarial: %lld parsed, %lld refused, slowest %.1f ms, peak heap %.1f MiB",
              static_cast<long long>(stats.parsed), static_cast<long long>(stats.pickleErrors),
              stats.slowestMs, double(stats.worstPeak) / (1 << 20));
    }

    void mutations() {
        const auto settings = fuzz::Settings::get(20000, 20240501);
        const int64_t iterations = settings.iterations;
        const uint64_t seed = settings.seed;

        struct Seed {
            Bytes bytes;
            std::vector<size_t> lengthFields;
        };
        std::vector<Seed> seeds(3);
        seeds[0].bytes = makeSnapshotSeed(4, seeds[0].lengthFields);
        seeds[1].bytes = makeSnapshotSeed(2, seeds[1].lengthFields);
        seeds[2].bytes = makeLegacySeed(seeds[2].lengthFields);

        static const uint8_t interesting[] = {
            0x00, 0x01, 0x7f, 0x80, 0xff, '(',  '.',  '0',  '1',  '2',  'a',  'e',  's', 'u', 't',
            'l',  'd',  'h',  'j',  'q',  'r',  ']',  '}',  ')',  'N',  'K',  'J',  'X', 'B', 'C',
            'G',  0x85, 0x86, 0x87, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x94, 0x95, 0x96, 'c'};
        fuzz::Mutator mutator(seed,
                              std::vector<uint8_t>(std::begin(interesting), std::end(interesting)));
        auto pick = [&mutator](size_t n) { return mutator.pick(n); };

        Stats stats;
        const auto start = std::chrono::steady_clock::now();
        fuzz::Progress progress("pickle reader", settings);
        for (int64_t it = 0; it < iterations; ++it) {
            progress.tick(it);
            // Half the time a fixed seed, half a random well-formed snapshot; byte-level
            // mutations on top (none, sometimes, for the random ones: they test the importer).
            Seed random_seed;
            const bool random = it % 2 == 1;
            if (random) {
                random_seed.bytes = RandomSnapshot(mutator.rng(), it % 4 == 1 ? 4 : 2).make();
            }
            const Seed& s = random ? random_seed : seeds[size_t(it / 2) % seeds.size()];
            Bytes b = s.bytes;
            const int rounds = random ? (pick(3) == 0 ? 1 : 0) : 1 + int(pick(3));
            for (int r = 0; r < rounds && !b.empty(); ++r) {
                mutator.mutateOnce(b, s.bytes, s.lengthFields);
            }
            const std::string problem = exercise(b, stats);
            if (!problem.empty()) {
                QFAIL(qPrintable(QString("iteration %1 (seed %2): %3\ninput: %4")
                                     .arg(it)
                                     .arg(seed)
                                     .arg(QString::fromStdString(problem))
                                     .arg(QString::fromStdString(fuzz::hex(b)))));
            }
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qInfo(
            "%lld mutations in %.2f s: %lld parsed, %lld imported, %lld PickleErrors; slowest "
            "%.2f ms; largest allocation %lld bytes; peak heap %lld bytes (%.0f x the input "
            "at worst)",
            static_cast<long long>(iterations), seconds, static_cast<long long>(stats.parsed),
            static_cast<long long>(stats.imported), static_cast<long long>(stats.pickleErrors),
            stats.slowestMs, static_cast<long long>(stats.largestAllocation),
            static_cast<long long>(stats.worstPeak), stats.worstRatio);
        if (settings.verbose) {
            for (const auto& seed_bytes : seeds) {
                qInfo("seed of %zu bytes", seed_bytes.bytes.size());
            }
            for (const auto& [reason, count] : stats.reasons) {
                qInfo("%8lld  %s", static_cast<long long>(count), reason.c_str());
            }
        }
        // A hang bound per input, not a speed figure for the whole run (which is 2x slower under
        // ASan and depends on what else the machine runs).
        QVERIFY2(stats.slowestMs < fuzz::kSlowestInputMs,
                 qPrintable(QString("slowest input took %1 ms").arg(stats.slowestMs)));
        QVERIFY(stats.parsed > iterations / 4);  // the importer is exercised, not only the reader
    }
};

MEMSCOPE_FUZZ_MAIN(FuzzPickleReader)
#include "fuzz_pickle_reader.moc"
