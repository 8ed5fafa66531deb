#include "interchange/chrome_trace_exporter.h"

#include "io/atomic_file.h"

#include "explain/trace_summary.h"
#include "trace/recorded_options.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace memscope {

namespace {

constexpr int kPid = 1;
// The phases track: far above any recorder thread index (uint16_t) so it never collides.
constexpr int kPhaseTid = 100000;

// Length of the valid UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no surrogates,
// nothing past U+10FFFF), 0 when the byte there starts none.
size_t utf8Length(const std::string& s, size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        n = 1, cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 2, cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 3, cp = c & 0x07u;
    } else {
        return 0;
    }
    if (s.size() - i <= n) {
        return 0;
    }
    for (size_t k = 1; k <= n; ++k) {
        const auto d = static_cast<unsigned char>(s[i + k]);
        if ((d & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (d & 0x3fu);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0;
    }
    return n + 1;
}

// A JSON string's contents. Names come from anywhere (imported Python frames, file names, shape
// strings): bytes that are not valid UTF-8 become U+FFFD, since JSON must be UTF-8 and Perfetto
// and chrome://tracing refuse the whole file otherwise.
std::string escape(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 2);
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            const size_t n = utf8Length(s, i);
            if (n == 0) {
                out += "\xef\xbf\xbd";
                ++i;
            } else {
                out.append(s, i, n);
                i += n;
            }
            continue;
        }
        ++i;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out;
}

// Microseconds with the nanosecond digits kept: "1234.567".
std::string micros(int64_t ns) {
    char buf[40];
    const bool negative = ns < 0;
    const uint64_t a = negative ? uint64_t(-(ns + 1)) + 1 : uint64_t(ns);
    std::snprintf(buf, sizeof buf, "%s%" PRIu64 ".%03" PRIu64, negative ? "-" : "", a / 1000,
                  a % 1000);
    return buf;
}

const char* categoryOf(FrameKind kind) {
    switch (kind) {
        case FrameKind::Module:
            return "module";
        case FrameKind::Operator:
            return "op";
        case FrameKind::BackwardNode:
        case FrameKind::BackwardOf:
            return "backward";
        case FrameKind::Other:
            return "other";
    }
    return "other";
}

// Buffered writer of comma-separated trace events: written out at 1 MiB, but grown to that only
// by traces that big (a small export allocates what it writes).
class EventStream {
  public:
    explicit EventStream(std::ostream& out) : m_out(out) { m_buf.reserve(16 << 10); }

    void begin() { m_buf += "{\"traceEvents\":[\n"; }
    void event(const std::string& body) {
        if (!m_first) {
            m_buf += ",\n";
        }
        m_first = false;
        m_buf += '{';
        m_buf += body;
        m_buf += '}';
        if (m_buf.size() >= (1 << 20)) {
            flush();
        }
    }
    void end(const std::string& tail) {
        m_buf += "\n],";
        m_buf += tail;
        m_buf += "}\n";
        flush();
        m_out.flush();
    }

  private:
    void flush() {
        m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_buf.clear();
    }

    std::ostream& m_out;
    std::string m_buf;
    bool m_first = true;
};

class ChromeWriter {
  public:
    // pid: the process track; title_prefix goes before the process name ("rank 1: ").
    ChromeWriter(const Trace& trace, EventStream& out, const ChromeTraceExporter::Options& opt,
                 int pid = kPid, std::string title_prefix = {})
        : m_trace(trace),
          m_ev(trace.events),
          m_out(out),
          m_opt(opt),
          m_pid(pid),
          m_titlePrefix(std::move(title_prefix)) {}

    void write() {
        m_out.begin();
        writeBody();
        finish();
    }
    void writeBody() {
        writeMetadata();
        writePhases();
        writeSpans();
        writeCounters();
        writeOom();
    }
    void finish() {
        nlohmann::json other = {{"memscope_version", m_trace.meta.memscope_version},
                                {"torch_version", m_trace.meta.torch_version},
                                {"device", m_trace.meta.device},
                                {"started_at", m_trace.meta.started_at},
                                {"source", m_trace.meta.source}};
        m_out.end("\"displayTimeUnit\":\"ms\",\"otherData\":" + other.dump());
    }

  private:
    std::string common(const char* ph, int tid) const {
        return std::string("\"ph\":\"") + ph + "\",\"pid\":" + std::to_string(m_pid) +
               ",\"tid\":" + std::to_string(tid);
    }

    void writeMetadata() {
        std::string title = m_titlePrefix + "Memscope";
        if (const auto o = recordedOptions(m_trace.meta)) {
            title += ": " + o->preset + ", batch " + std::to_string(o->batch_size) + ", seq " +
                     std::to_string(o->seq_len) + ", " + toString(o->dtype) + ", " +
                     toString(o->profile);
        }
        m_out.event(common("M", 0) + ",\"name\":\"process_name\",\"args\":{\"name\":\"" +
                    escape(title) + "\"}");
        std::set<uint16_t> threads;
        for (const auto& s : m_trace.spans) {
            threads.insert(s.thread);
        }
        for (size_t i = 0; i < m_ev.count(); ++i) {
            threads.insert(m_ev.thread[i]);
        }
        for (const uint16_t t : threads) {
            m_out.event(
                common("M", t) + ",\"name\":\"thread_name\",\"args\":{\"name\":\"" +
                (t == 0 ? std::string("thread 0 (training loop)") : "thread " + std::to_string(t)) +
                "\"}");
            m_out.event(common("M", t) + ",\"name\":\"thread_sort_index\",\"args\":{" +
                        "\"sort_index\":" + std::to_string(int(t) + 1) + "}");
        }
        if (!m_trace.phases.empty()) {
            m_out.event(common("M", kPhaseTid) +
                        ",\"name\":\"thread_name\",\"args\":{\"name\":\"phases\"}");
            m_out.event(common("M", kPhaseTid) +
                        ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":0}");
        }
    }

    void complete(int tid, const std::string& name, const char* cat, int64_t begin_ns,
                  int64_t end_ns, const std::string& args) {
        std::string body = common("X", tid) + ",\"name\":\"" + escape(name) + "\",\"cat\":\"" +
                           cat + "\",\"ts\":" + micros(begin_ns) +
                           ",\"dur\":" + micros(std::max<int64_t>(0, end_ns - begin_ns));
        if (!args.empty()) {
            body += ",\"args\":{" + args + "}";
        }
        m_out.event(body);
    }

    void writePhases() {
        // Whole steps enclose their phases on the same track, so the viewer nests them.
        std::map<int32_t, std::pair<int64_t, int64_t>> steps;
        for (const auto& p : m_trace.phases) {
            const int64_t end = std::max(p.begin_ns, p.end_ns);
            if (p.step >= 1) {
                auto [it, inserted] = steps.try_emplace(p.step, p.begin_ns, end);
                if (!inserted) {
                    it->second.first = std::min(it->second.first, p.begin_ns);
                    it->second.second = std::max(it->second.second, end);
                }
            }
        }
        for (const auto& [step, range] : steps) {
            complete(kPhaseTid, "step " + std::to_string(step), "step", range.first, range.second,
                     "");
        }
        for (const auto& p : m_trace.phases) {
            complete(kPhaseTid, toString(p.phase) + " step " + std::to_string(p.step), "phase",
                     p.begin_ns, std::max(p.begin_ns, p.end_ns), "");
        }
    }

    void writeSpans() {
        if (m_trace.spans.empty()) {
            return;
        }
        // Per thread, the allocations in time order with a running byte sum: everything a
        // thread allocates while a call is open on it belongs to that call or its children.
        struct ThreadAllocs {
            std::vector<int64_t> time;
            std::vector<int64_t> cumulative;  // bytes allocated up to and including this event
        };
        std::unordered_map<uint16_t, ThreadAllocs> per_thread;
        for (size_t i = 0; i < m_ev.count(); ++i) {
            if (static_cast<EventKind>(m_ev.kind[i]) != EventKind::Alloc) {
                continue;
            }
            auto& t = per_thread[m_ev.thread[i]];
            const int64_t before = t.cumulative.empty() ? 0 : t.cumulative.back();
            t.time.push_back(m_ev.time_ns[i]);
            t.cumulative.push_back(before + m_ev.size[i]);
        }
        const auto& stacks = m_trace.stacks;
        std::unordered_map<uint32_t, std::string> module_args;  // stack node -> "module" arg
        for (const auto& s : m_trace.spans) {
            if (s.stack == StackTable::kEmpty || s.stack >= stacks.nodeCount()) {
                continue;
            }
            const Frame& f = stacks.frame(stacks.frameOf(s.stack));
            auto it = module_args.find(s.stack);
            if (it == module_args.end()) {
                std::string arg;
                if (f.kind != FrameKind::Module) {
                    const auto module = TraceSummary::moduleOf(stacks, s.stack);
                    if (!module.empty()) {
                        arg = "\"module\":\"" + escape(module) + "\"";
                    }
                }
                it = module_args.emplace(s.stack, std::move(arg)).first;
            }
            std::string args = it->second;
            if (s.shapes > 0 && s.shapes < m_trace.shape_strings.size()) {
                args += (args.empty() ? "" : ",") + std::string("\"input_shapes\":\"") +
                        escape(m_trace.shape_strings[s.shapes]) + "\"";
            }
            if (auto t = per_thread.find(s.thread); t != per_thread.end()) {
                const auto& times = t->second.time;
                const auto lo = std::lower_bound(times.begin(), times.end(), s.begin_ns);
                const auto hi = std::upper_bound(times.begin(), times.end(), s.end_ns);
                if (hi > lo) {
                    const auto& cum = t->second.cumulative;
                    const size_t l = static_cast<size_t>(lo - times.begin());
                    const size_t h = static_cast<size_t>(hi - times.begin());
                    const int64_t bytes = cum[h - 1] - (l > 0 ? cum[l - 1] : 0);
                    if (bytes > 0) {
                        args += (args.empty() ? "" : ",") + std::string("\"allocated_bytes\":") +
                                std::to_string(bytes);
                    }
                }
            }
            complete(s.thread, f.name, categoryOf(f.kind), s.begin_ns, s.end_ns, args);
        }
    }

    // Which alloc/free events become counter points: every change, or per bucket of equal event
    // count its highest point and its last one.
    std::vector<size_t> counterSamples(size_t budget) const {
        std::vector<size_t> changes;
        int64_t last = INT64_MIN;
        for (size_t i = 0; i < m_ev.count(); ++i) {
            const auto k = static_cast<EventKind>(m_ev.kind[i]);
            if ((k == EventKind::Alloc || k == EventKind::Free) && m_ev.allocated[i] != last) {
                changes.push_back(i);
                last = m_ev.allocated[i];
            }
        }
        budget = std::max<size_t>(2, budget);
        if (changes.size() <= budget) {
            return changes;
        }
        const size_t buckets = budget / 2;
        const size_t per_bucket = (changes.size() + buckets - 1) / buckets;
        std::vector<size_t> samples;
        samples.reserve(budget);
        for (size_t b = 0; b < changes.size(); b += per_bucket) {
            const size_t e = std::min(changes.size(), b + per_bucket);
            size_t best = b;
            for (size_t j = b; j < e; ++j) {
                if (m_ev.allocated[changes[j]] > m_ev.allocated[changes[best]]) {
                    best = j;
                }
            }
            samples.push_back(changes[best]);
            if (best != e - 1) {
                samples.push_back(changes[e - 1]);
            }
        }
        return samples;
    }

    void writeCounters() {
        const auto& allocations = m_trace.allocations();
        const auto& of_event = m_trace.allocationOfEvent();
        const bool paired = of_event.size() == m_ev.count();
        // A reserved track only where an allocator reports a pool (GPUs, imported snapshots);
        // an OOM event's reserved field is the capacity, not a pool.
        bool any_reserved = false;
        for (size_t i = 0; i < m_ev.count() && !any_reserved; ++i) {
            const auto k = static_cast<EventKind>(m_ev.kind[i]);
            any_reserved = (k == EventKind::Alloc || k == EventKind::Free) && m_ev.reserved[i] > 0;
        }
        const size_t tracks = 1 + (paired ? 1 : 0) + (any_reserved ? 1 : 0);
        const auto samples = counterSamples(m_opt.max_counter_points / tracks);
        if (samples.empty()) {
            return;
        }
        // Blocks alive before the first event (freed without a recorded alloc) count from the
        // start; an alloc over a block never seen freed ends that block.
        int64_t by_category[kCategoryCount] = {};
        std::unordered_map<size_t, size_t> ended_by_alloc;  // event -> allocation it ends
        for (size_t a = 0; paired && a < allocations.size(); ++a) {
            const auto& al = allocations[a];
            if (al.alloc_event < 0) {
                by_category[static_cast<int>(al.category)] += al.size;
            }
            if (al.free_event >= 0 &&
                static_cast<EventKind>(m_ev.kind[static_cast<size_t>(al.free_event)]) ==
                    EventKind::Alloc) {
                ended_by_alloc[static_cast<size_t>(al.free_event)] = a;
            }
        }
        size_t next = 0;
        for (size_t i = 0; i < m_ev.count() && next < samples.size(); ++i) {
            const auto k = static_cast<EventKind>(m_ev.kind[i]);
            if (paired && (k == EventKind::Alloc || k == EventKind::Free) && of_event[i] >= 0) {
                const auto& al = allocations[static_cast<size_t>(of_event[i])];
                const int c = static_cast<int>(al.category);
                by_category[c] += k == EventKind::Alloc ? al.size : -al.size;
                if (k == EventKind::Alloc) {
                    if (auto it = ended_by_alloc.find(i); it != ended_by_alloc.end()) {
                        const auto& old = allocations[it->second];
                        by_category[static_cast<int>(old.category)] -= old.size;
                    }
                }
            }
            if (samples[next] != i) {
                continue;
            }
            ++next;
            const std::string ts = micros(m_ev.time_ns[i]);
            m_out.event(common("C", 0) + ",\"name\":\"allocated\",\"ts\":" + ts +
                        ",\"args\":{\"bytes\":" + std::to_string(m_ev.allocated[i]) + "}");
            if (any_reserved) {
                m_out.event(common("C", 0) + ",\"name\":\"reserved\",\"ts\":" + ts +
                            ",\"args\":{\"bytes\":" + std::to_string(m_ev.reserved[i]) + "}");
            }
            if (paired) {
                std::string args;
                for (int c = 0; c < kCategoryCount; ++c) {
                    args += (c ? ",\"" : "\"") + toString(static_cast<Category>(c)) +
                            "\":" + std::to_string(std::max<int64_t>(0, by_category[c]));
                }
                m_out.event(common("C", 0) + ",\"name\":\"allocated by category\",\"ts\":" + ts +
                            ",\"args\":{" + args + "}");
            }
        }
    }

    void writeOom() {
        for (size_t i = 0; i < m_ev.count(); ++i) {
            if (static_cast<EventKind>(m_ev.kind[i]) != EventKind::Oom) {
                continue;
            }
            const auto module = TraceSummary::moduleOf(m_trace.stacks, m_ev.stack[i]);
            const auto op = TraceSummary::operatorOf(m_trace.stacks, m_ev.stack[i]);
            m_out.event(
                common("i", m_ev.thread[i]) +
                ",\"name\":\"out of memory\",\"s\":\"g\",\"ts\":" + micros(m_ev.time_ns[i]) +
                ",\"args\":{\"requested_bytes\":" + std::to_string(m_ev.size[i]) +
                ",\"allocated_bytes\":" + std::to_string(m_ev.allocated[i]) +
                ",\"capacity_bytes\":" + std::to_string(m_ev.reserved[i]) + ",\"module\":\"" +
                escape(module) + "\",\"op\":\"" + escape(op) + "\"}");
        }
    }

    const Trace& m_trace;
    const EventColumns& m_ev;
    EventStream& m_out;
    ChromeTraceExporter::Options m_opt;
    int m_pid;
    std::string m_titlePrefix;
};

}  // namespace

void ChromeTraceExporter::write(const Trace& trace, std::ostream& out, const Options& options) {
    if (trace.allocationOfEvent().size() != trace.events.count()) {
        Trace finalized = trace;  // categories need the pairing finalize() does
        finalized.finalize();
        write(finalized, out, options);
        return;
    }
    EventStream stream(out);
    ChromeWriter(trace, stream, options).write();
}

void ChromeTraceExporter::writeRanks(const std::vector<const Trace*>& ranks,
                                     const std::string& path, const Options& options) {
    writeFileAtomically(path, [&](std::ostream& out) {
        EventStream stream(out);
        stream.begin();
        for (size_t r = 0; r < ranks.size(); ++r) {
            if (ranks[r] == nullptr) {
                continue;
            }
            ChromeWriter(*ranks[r], stream, options, int(r) + 1, "rank " + std::to_string(r) + ": ")
                .writeBody();
        }
        for (const auto* t : ranks) {
            if (t != nullptr) {
                ChromeWriter(*t, stream, options).finish();
                return;
            }
        }
        stream.end("\"displayTimeUnit\":\"ms\"");
    });
}

void ChromeTraceExporter::write(const Trace& trace, const std::string& path,
                                const Options& options) {
    writeFileAtomically(path, [&](std::ostream& out) { write(trace, out, options); });
}

}  // namespace memscope
