// The Chrome trace writer escapes every name it takes from a trace: frame names (operators,
// modules, autograd nodes, imported Python frames), shape strings and the run's configuration.
// Here they are random strings full of quotes, backslashes, control characters, JSON escapes,
// valid multi-byte UTF-8 and invalid UTF-8 (stray continuation bytes, overlong forms,
// surrogates, truncated sequences), and the configuration's values have random JSON types. The
// output must always parse as JSON (nlohmann::json::parse, which insists on valid UTF-8),
// every call must be there under its own name when the name was valid UTF-8, and an invalid one
// must show U+FFFD where its bad bytes were.
//
//   --iterations N  (default 3000 traces)    --seed S    (mutation_fuzzer.h lists the rest)

#include "heap_meter.h"
#include "interchange/chrome_trace_exporter.h"
#include "mutation_fuzzer.h"

#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include <map>
#include <set>
#include <sstream>

using namespace memscope;
using nlohmann::json;

namespace {

// RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
bool validUtf8(const std::string& s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        size_t n = 0;
        uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            n = 1, cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2, cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3, cp = c & 0x07;
        } else {
            return false;
        }
        for (size_t k = 1; k <= n; ++k) {
            if (i + k >= s.size()) {
                return false;
            }
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xc0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (d & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff)) {
            return false;
        }
        i += n + 1;
    }
    return true;
}

class NameMaker {
  public:
    explicit NameMaker(fuzz::Mutator& m) : m_m(m) {}

    std::string make() {
        static const std::vector<std::string> pieces = {"\"",
                                                        "\\",
                                                        "\\\"",
                                                        "\\u0000",
                                                        "\\ud800",
                                                        "\n",
                                                        "\r",
                                                        "\t",
                                                        std::string(1, '\0'),
                                                        "\x01",
                                                        "\x1f",
                                                        "\x7f",
                                                        "/",
                                                        "</script>",
                                                        "aten::mm",
                                                        "TinyLlama.blocks.0",
                                                        "\xc3\xa9",
                                                        "\xe2\x82\xac",
                                                        "\xf0\x9f\x98\x80",
                                                        "\xef\xbf\xbd",
                                                        "\xef\xbb\xbf",
                                                        "\x80",
                                                        "\xbf",
                                                        "\xc0\xaf",
                                                        "\xc1\xbf",
                                                        "\xe0\x80\xaf",
                                                        "\xed\xa0\x80",
                                                        "\xf4\x90\x80\x80",
                                                        "\xf5",
                                                        "\xff",
                                                        "\xfe",
                                                        "\xc3",
                                                        "\xe2\x82",
                                                        "\xf0\x9f\x98",
                                                        "{\"a\":1}",
                                                        "%s%n",
                                                        " "};
        std::string s;
        for (int i = 0, n = int(m_m.pick(8)); i < n; ++i) {
            if (m_m.chance(60)) {
                s += m_m.pickFrom(pieces);
            } else {
                s += char(m_m.rng()());
            }
        }
        return s;
    }

    json value(int depth = 1) {
        switch (m_m.pick(depth > 0 ? 8 : 6)) {
            case 0:
                return nullptr;
            case 1:
                return m_m.chance(50);
            case 2:
                return int64_t(m_m.rng()());
            case 3:
                return double(int64_t(m_m.rng()())) / 7.0;
            case 4:
            case 5: {
                const std::string s = make();
                // nlohmann::json refuses to dump invalid UTF-8; a run file's config is JSON, so
                // it can only hold valid strings.
                return validUtf8(s) ? json(s) : json("x");
            }
            case 6:
                return json::array({value(depth - 1), value(depth - 1)});
            default:
                return json::object({{"k", value(depth - 1)}});
        }
    }

  private:
    fuzz::Mutator& m_m;
};

struct Case {
    Trace trace;
    std::vector<std::string> spanNames;  // in span order
};

Case makeCase(fuzz::Mutator& m) {
    NameMaker names(m);
    Case c;
    Trace& t = c.trace;
    t.meta.source = "recorded";
    t.meta.config = json::object();
    for (const char* key : {"preset", "batch_size", "seq_len", "dtype", "profile_type"}) {
        if (m.chance(70)) {
            t.meta.config[key] = m.chance(50) ? names.value() : json(m.chance(50) ? "tiny" : "x");
        }
    }
    std::vector<uint32_t> nodes = {StackTable::kEmpty};
    for (int i = 0, n = 1 + int(m.pick(8)); i < n; ++i) {
        const auto kind = static_cast<FrameKind>(m.pick(5));
        const auto frame =
            t.stacks.internFrame({names.make(), names.make(), int32_t(m.pick(100)), kind});
        nodes.push_back(t.stacks.child(m.pickFrom(nodes), frame));
    }
    for (int i = 0, n = int(m.pick(4)); i < n; ++i) {
        t.shape_strings.push_back(names.make());
    }
    int64_t live = 0;
    for (int i = 0, n = int(m.pick(12)); i < n; ++i) {
        Event e;
        e.time_ns = int64_t(i) * 100;
        e.addr = 0x1000 + uint64_t(i / 2) * 0x100;
        e.kind = m.chance(10) ? EventKind::Oom : (i % 2 == 0 ? EventKind::Alloc : EventKind::Free);
        e.size = e.kind == EventKind::Free ? -64 : 64;
        if (e.kind != EventKind::Oom) {
            live += e.size;
        }
        e.allocated = live;
        e.reserved = live;
        e.stack = m.pickFrom(nodes);
        e.thread = uint16_t(m.pick(2));
        t.events.append(e);
    }
    for (int i = 0, n = int(m.pick(10)); i < n; ++i) {
        Span s;
        s.begin_ns = int64_t(i) * 50;
        s.end_ns = s.begin_ns + 30;
        s.stack = nodes[1 + m.pick(nodes.size() - 1)];
        s.thread = uint16_t(m.pick(2));
        s.shapes = uint32_t(m.pick(t.shape_strings.size()));
        t.spans.push_back(s);
        c.spanNames.push_back(t.stacks.frame(t.stacks.frameOf(s.stack)).name);
    }
    t.finalize();
    return c;
}

int replacementCount(const std::string& s) {
    int n = 0;
    for (size_t p = s.find("\xef\xbf\xbd"); p != std::string::npos;
         p = s.find("\xef\xbf\xbd", p + 3)) {
        ++n;
    }
    return n;
}

// The calls of a Chrome trace (complete events, "ph":"X", outside the phases track), read with
// nlohmann's SAX parser: the same checks as json::parse (syntax, valid UTF-8, nothing after the
// document) without building the document, which under ASan was half of each execution.
class CallCollector : public nlohmann::json_sax<json> {
  public:
    std::vector<std::string> calls;
    std::string problem;  // the parse error, or what the trace lacks

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t v) override { return number(double(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(double(v)); }
    bool number_float(number_float_t v, const string_t&) override { return number(v); }
    bool binary(binary_t&) override { return scalar(); }
    bool string(string_t& s) override {
        if (inEvent() && m_key == "ph") {
            m_ph = s;
            m_hasPh = true;
        } else if (inEvent() && m_key == "name") {
            m_name = s;
            m_hasName = true;
        }
        return scalar();
    }
    bool start_object(std::size_t) override {
        open(false);
        if (inEvent()) {
            m_ph.clear(), m_name.clear();
            m_hasPh = m_hasName = false;
            m_tid = 0;
        }
        return true;
    }
    bool end_object() override {
        if (inEvent()) {
            if (!m_hasPh) {
                return fail("an event without \"ph\"");
            }
            if (m_ph == "X" && m_tid != 100000) {
                if (!m_hasName) {
                    return fail("a complete event without \"name\"");
                }
                calls.push_back(m_name);
            }
        }
        return close();
    }
    bool start_array(std::size_t) override {
        open(m_depth == 1 && m_key == "traceEvents");
        return true;
    }
    bool end_array() override { return close(); }
    bool key(string_t& k) override {
        m_key = k;
        return true;
    }
    bool parse_error(std::size_t, const std::string&,
                     const nlohmann::detail::exception& e) override {
        return fail(std::string("output is not JSON: ") + e.what());
    }
    // After a successful parse: false when the document had no traceEvents array.
    bool finish() { return m_sawEvents || fail("no \"traceEvents\" array at the top"); }

  private:
    // The current container is an event: an object right inside the top-level traceEvents.
    bool inEvent() const { return m_depth == 3 && m_eventsDepth == 2; }
    void open(bool events) {
        ++m_depth;
        if (events) {
            m_eventsDepth = m_depth;
            m_sawEvents = true;
        }
        m_key.clear();
    }
    bool close() {
        if (m_eventsDepth == m_depth) {
            m_eventsDepth = 0;
        }
        --m_depth;
        m_key.clear();
        return true;
    }
    bool scalar() {
        m_key.clear();
        return true;
    }
    bool number(double v) {
        if (inEvent() && m_key == "tid") {
            m_tid = v;
        }
        return scalar();
    }
    bool fail(const std::string& what) {
        if (problem.empty()) {
            problem = what;
        }
        return false;
    }

    int m_depth = 0;        // containers open
    int m_eventsDepth = 0;  // depth of the open traceEvents array, 0: not inside it
    bool m_sawEvents = false;
    std::string m_key;  // the key whose value comes next, in the current object
    std::string m_ph, m_name;
    bool m_hasPh = false, m_hasName = false;
    double m_tid = 0;
};

// "" or what went wrong.
std::string exercise(const Case& c, double& slowestMs, int64_t& worstPeak) {
    const int64_t base = fuzz::heapLive();
    fuzz::resetHeapPeak();
    const fuzz::Stopwatch watch;
    std::ostringstream out;
    try {
        ChromeTraceExporter::write(c.trace, out, ChromeTraceExporter::Options());
    } catch (const std::exception& e) {
        return std::string("write threw: ") + e.what();
    }
    slowestMs = std::max(slowestMs, watch.cpuMs());
    worstPeak = std::max(worstPeak, fuzz::heapPeak() - base);
    const std::string text = out.str();
    CallCollector collector;
    if (!json::sax_parse(text, &collector) || !collector.finish()) {
        return (collector.problem.empty() ? "output is not JSON" : collector.problem) + "\n" +
               fuzz::escaped(text);
    }
    const std::vector<std::string>& calls = collector.calls;
    if (calls.size() != c.spanNames.size()) {
        return "expected " + std::to_string(c.spanNames.size()) + " calls, found " +
               std::to_string(calls.size());
    }
    // Within a thread the calls keep their order; compare as multisets to ignore thread order.
    std::multiset<std::string> want(c.spanNames.begin(), c.spanNames.end());
    std::multiset<std::string> got(calls.begin(), calls.end());
    for (const std::string& name : c.spanNames) {
        if (validUtf8(name)) {
            if (got.count(name) < want.count(name)) {
                return "the call '" + fuzz::escaped(name) + "' did not come through unchanged";
            }
        }
    }
    for (const std::string& name : calls) {
        if (!want.count(name) && replacementCount(name) == 0) {
            return "a call named '" + fuzz::escaped(name) + "' that no span has";
        }
    }
    return {};
}

}  // namespace

class FuzzChromeTraceNames : public QObject {
    Q_OBJECT

  private slots:
    void utf8CheckerKnowsTheCases() {
        QVERIFY(validUtf8("aten::mm \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
        for (const char* bad : {"\x80", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                                "\xf4\x90\x80\x80", "\xc3", "\xe2\x82", "\xff"}) {
            QVERIFY2(!validUtf8(bad), fuzz::escaped(bad).c_str());
        }
    }

    // The checker itself: what it takes from a trace and what it refuses.
    void callCollectorReadsTraces() {
        auto calls = [](const std::string& text, std::string* problem = nullptr) {
            CallCollector c;
            const bool ok = json::sax_parse(text, &c) && c.finish();
            if (problem) {
                *problem = c.problem;
            }
            return ok ? c.calls : std::vector<std::string>{"(refused)"};
        };
        const std::string trace =
            "{\"traceEvents\":[{\"ph\":\"M\",\"tid\":0,\"name\":\"thread_name\","
            "\"args\":{\"name\":\"t\"}},{\"name\":\"a\",\"ph\":\"X\",\"tid\":1,"
            "\"args\":{\"name\":\"no\",\"ph\":\"M\"}},{\"ph\":\"X\",\"tid\":100000,"
            "\"name\":\"step 1\"},{\"ph\":\"X\",\"name\":\"b\\\"\"}],\"otherData\":{\"x\":[1]}}";
        QCOMPARE(calls(trace), std::vector<std::string>({"a", "b\""}));
        std::string problem;
        for (const std::string& bad :
             {std::string("{\"traceEvents\":[}"), std::string("{\"traceEvents\":[]} x"),
              std::string("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"\xff\"}]}"),
              std::string("{\"other\":[]}"), std::string("{\"traceEvents\":[{\"name\":\"a\"}]}"),
              std::string("{\"traceEvents\":[{\"ph\":\"X\"}]}")}) {
            QCOMPARE(calls(bad, &problem), std::vector<std::string>({"(refused)"}));
            QVERIFY2(!problem.empty(), fuzz::escaped(bad).c_str());
        }
    }

    void invalidUtf8BecomesReplacementCharacters() {
        Trace t;
        const auto frame =
            t.stacks.internFrame({"a\xff"
                                  "b\xc3",
                                  "", 0, FrameKind::Operator});
        const auto node = t.stacks.child(StackTable::kEmpty, frame);
        t.spans.push_back({0, 10, node, 0, 0});
        t.finalize();
        std::ostringstream out;
        ChromeTraceExporter::write(t, out, ChromeTraceExporter::Options());
        const json doc = json::parse(out.str());
        bool found = false;
        for (const json& event : doc.at("traceEvents")) {
            if (event.at("ph") == "X") {
                QCOMPARE(event.at("name").get<std::string>(), std::string("a\xef\xbf\xbd"
                                                                          "b\xef\xbf\xbd"));
                found = true;
            }
        }
        QVERIFY(found);
    }

    void randomNames() {
        const auto settings = fuzz::Settings::get(3000, 20260301);
        fuzz::Mutator mutator(settings.seed, {});
        double slowestMs = 0;
        int64_t worstPeak = 0;
        int64_t spans = 0;
        const fuzz::Stopwatch watch;
        fuzz::Progress progress("chrome trace names", settings);
        for (int64_t it = 0; it < settings.iterations; ++it) {
            progress.tick(it);
            const Case c = makeCase(mutator);
            spans += int64_t(c.spanNames.size());
            const std::string problem = exercise(c, slowestMs, worstPeak);
            if (!problem.empty()) {
                QFAIL(qPrintable(QString("iteration %1 (seed %2): %3")
                                     .arg(it)
                                     .arg(settings.seed)
                                     .arg(QString::fromStdString(problem))));
            }
        }
        QVERIFY(slowestMs < fuzz::kSlowestInputMs);
        qInfo("%lld traces (%lld calls) in %.2f s; slowest write %.2f ms; peak heap %lld bytes",
              static_cast<long long>(settings.iterations), static_cast<long long>(spans),
              watch.seconds(), slowestMs, static_cast<long long>(worstPeak));
    }
};

MEMSCOPE_FUZZ_MAIN(FuzzChromeTraceNames)
#include "fuzz_chrome_trace_names.moc"
