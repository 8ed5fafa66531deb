#include "interchange/snapshot_exporter.h"

#include "io/atomic_file.h"
#include "trace/trace_annotations.h"

#include "memscope_version.h"
#include "model/input_error.h"
#include "pickle/pickle_writer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <queue>
#include <stdexcept>
#include <unordered_map>

namespace memscope {

namespace {

// CUDA's caching allocator serves requests up to 1 MiB from its small pool; the same cut names
// our one-block segments, so the "segment_type" field reads as PyTorch users expect.
constexpr int64_t kSmallSegment = 1 << 20;

struct LiveBlock {
    uint64_t addr;
    int64_t size;
    uint32_t stack;
};

struct SegmentAtEnd {
    int device_index = 0;
    uint64_t addr = 0;
    int64_t size = 0;
    uint32_t stack = 0;
    std::vector<LiveBlock> blocks;  // by address
};

class SnapshotWriter {
  public:
    SnapshotWriter(const Trace& trace, std::ostream& out, int protocol)
        : m_trace(trace), m_ev(trace.events), m_w(out, protocol) {
        for (int c = 0; c < kCategoryCount; ++c) {
            m_categoryNames[c] = SnapshotExporter::categoryName(static_cast<Category>(c));
        }
    }

    void write() {
        planDevices();
        m_baseUs = SnapshotExporter::epochMicros(m_trace.meta.started_at);
        m_passthroughSegments = hasSegmentEvents();
        planUnknownTag();

        m_w.beginDict();
        key("segments");
        writeSegments();
        key("device_traces");
        writeDeviceTraces();
        key("allocator_settings");
        m_w.beginDict();
        m_w.endDict();
        key("external_annotations");
        writeAnnotations();
        key(SnapshotExporter::kMarkerKey);
        writeMarker();
        if (m_trace.meta.max_events > 0) {
            key("trace_alloc_max_entries");
            m_w.integer(m_trace.meta.max_events);
            key("trace_alloc_overflowed");
            m_w.boolean(m_trace.meta.dropped_events > 0);
        }
        m_w.endDict();
        m_w.finish();
    }

  private:
    void key(const char* name) { m_w.internedString(name); }

    // ---- planning --------------------------------------------------------------------------

    void planDevices() {
        int max_gpu = -1;
        bool has_cpu = false;
        for (size_t i = 0; i < m_ev.count(); ++i) {
            max_gpu = std::max<int>(max_gpu, m_ev.device[i]);
            has_cpu = has_cpu || m_ev.device[i] < 0;
        }
        const std::string& dev = m_trace.meta.device;
        if (dev.rfind("cuda:", 0) == 0 || dev.rfind("hip:", 0) == 0) {
            max_gpu = std::max(max_gpu, std::atoi(dev.c_str() + dev.find(':') + 1));
        }
        m_cpuIndex = max_gpu >= 0 ? max_gpu + 1 : 0;
        m_deviceCount = max_gpu >= 0 ? (has_cpu ? max_gpu + 2 : max_gpu + 1) : 1;
    }

    int deviceIndex(int16_t device) const { return device >= 0 ? device : m_cpuIndex; }

    bool hasSegmentEvents() const {
        for (size_t i = 0; i < m_ev.count(); ++i) {
            const auto k = static_cast<EventKind>(m_ev.kind[i]);
            if (k == EventKind::SegmentAlloc || k == EventKind::SegmentFree) {
                return true;
            }
        }
        return false;
    }

    bool writesSegmentEntry(EventKind k) const {
        if (m_passthroughSegments) {
            return k == EventKind::SegmentAlloc || k == EventKind::SegmentFree;
        }
        return k == EventKind::Alloc || k == EventKind::Free;
    }

    // memory_viz appends "unknown" to its category list when a file has categories but no
    // "unknown" one, through a misspelt field (`snapshot.categores.push`), which throws and
    // leaves the page blank. So when no block is unknown, one segment entry (segments are not
    // tensors: unknown is their honest category) carries it. The last one is chosen so the
    // legend keeps the order in which real categories appear.
    void planUnknownTag() {
        const auto& allocations = m_trace.allocations();
        if (allocations.empty()) {
            return;
        }
        for (const auto& a : allocations) {
            if (a.category == Category::Unknown) {
                return;
            }
        }
        int best_device = -1;
        for (size_t i = 0; i < m_ev.count(); ++i) {
            const auto k = static_cast<EventKind>(m_ev.kind[i]);
            const int d = deviceIndex(m_ev.device[i]);
            if (writesSegmentEntry(k) && d >= best_device) {
                best_device = d;
                m_unknownTagEvent = static_cast<int64_t>(i);
            }
        }
    }

    // ---- frames ----------------------------------------------------------------------------

    void writeFrame(uint32_t frame_id) {
        if (auto it = m_frameMemo.find(frame_id); it != m_frameMemo.end()) {
            m_w.get(it->second);
            return;
        }
        const Frame& f = m_trace.stacks.frame(frame_id);
        m_w.beginDict();
        key("filename");
        // PyTorch's own unresolved frames read "??"; memory_viz prints filename:line:name.
        m_w.internedString(f.file.empty() ? std::string("??") : f.file);
        key("line");
        m_w.integer(f.line);
        key("name");
        m_w.string(f.name);
        m_w.endDict();
        m_frameMemo.emplace(frame_id, m_w.memoize());
    }

    // Innermost first, as PyTorch records them. Each stack's list is written once.
    void writeFrames(uint32_t node) {
        if (auto it = m_stackMemo.find(node); it != m_stackMemo.end()) {
            m_w.get(it->second);
            return;
        }
        const auto frames = m_trace.stacks.framesOf(node);
        m_w.beginList();
        for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
            writeFrame(*it);
        }
        m_w.endList();
        m_stackMemo.emplace(node, m_w.memoize());
    }

    // ---- segments --------------------------------------------------------------------------

    std::vector<SegmentAtEnd> segmentsAtEnd() const {
        std::vector<LiveBlock> live_blocks;
        std::vector<int> live_devices;
        for (const auto& a : m_trace.allocations()) {
            if (a.alloc_event >= 0 && a.free_event < 0) {
                live_blocks.push_back(
                    {a.addr, a.size, m_ev.stack[static_cast<size_t>(a.alloc_event)]});
                live_devices.push_back(deviceIndex(a.device));
            }
        }
        std::vector<SegmentAtEnd> segments;
        if (!m_passthroughSegments) {
            for (size_t i = 0; i < live_blocks.size(); ++i) {
                SegmentAtEnd s;
                s.device_index = live_devices[i];
                s.addr = live_blocks[i].addr;
                s.size = live_blocks[i].size;
                s.stack = live_blocks[i].stack;
                s.blocks.push_back(live_blocks[i]);
                segments.push_back(std::move(s));
            }
        } else {
            // Segments still open at the end of the recorded segment events.
            std::map<std::pair<int, uint64_t>, SegmentAtEnd> open;
            for (size_t i = 0; i < m_ev.count(); ++i) {
                const auto k = static_cast<EventKind>(m_ev.kind[i]);
                const int d = deviceIndex(m_ev.device[i]);
                if (k == EventKind::SegmentAlloc) {
                    SegmentAtEnd s;
                    s.device_index = d;
                    s.addr = m_ev.addr[i];
                    s.size = std::abs(m_ev.size[i]);
                    s.stack = m_ev.stack[i];
                    open[{d, s.addr}] = s;
                } else if (k == EventKind::SegmentFree) {
                    open.erase({d, m_ev.addr[i]});
                }
            }
            for (size_t i = 0; i < live_blocks.size(); ++i) {
                const auto& b = live_blocks[i];
                const int d = live_devices[i];
                auto it = open.upper_bound({d, b.addr});
                bool placed = false;
                if (it != open.begin()) {
                    --it;
                    auto& s = it->second;
                    if (it->first.first == d && b.addr >= s.addr &&
                        b.addr + uint64_t(b.size) <= s.addr + uint64_t(s.size)) {
                        s.blocks.push_back(b);
                        placed = true;
                    }
                }
                if (!placed) {
                    // The trace never saw this block's segment (it predates the recording):
                    // give it one of its own rather than drop it.
                    SegmentAtEnd s;
                    s.device_index = d;
                    s.addr = b.addr;
                    s.size = b.size;
                    s.stack = b.stack;
                    s.blocks.push_back(b);
                    open[{d, s.addr}] = s;
                }
            }
            for (auto& [k, s] : open) {
                segments.push_back(std::move(s));
            }
        }
        for (auto& s : segments) {
            std::sort(s.blocks.begin(), s.blocks.end(),
                      [](const LiveBlock& a, const LiveBlock& b) { return a.addr < b.addr; });
        }
        std::stable_sort(segments.begin(), segments.end(),
                         [](const SegmentAtEnd& a, const SegmentAtEnd& b) {
                             return std::make_pair(a.device_index, a.addr) <
                                    std::make_pair(b.device_index, b.addr);
                         });
        return segments;
    }

    void writeInactiveBlock(uint64_t addr, int64_t size) {
        m_w.beginDict();
        key("address");
        m_w.unsignedInteger(addr);
        key("size");
        m_w.integer(size);
        key("requested_size");
        m_w.integer(0);
        key("state");
        m_w.internedString("inactive");
        key("frames");
        writeFrames(StackTable::kEmpty);
        m_w.endDict();
    }

    void writeSegments() {
        const auto segments = segmentsAtEnd();
        m_w.beginList();
        for (const auto& s : segments) {
            int64_t allocated = 0;
            for (const auto& b : s.blocks) {
                allocated += b.size;
            }
            m_w.beginDict();
            key("device");
            m_w.integer(s.device_index);
            key("address");
            m_w.unsignedInteger(s.addr);
            key("total_size");
            m_w.integer(s.size);
            key("allocated_size");
            m_w.integer(allocated);
            key("active_size");
            m_w.integer(allocated);
            key("requested_size");
            m_w.integer(allocated);
            key("stream");
            m_w.integer(0);
            key("segment_type");
            m_w.internedString(s.size <= kSmallSegment ? "small" : "large");
            key("segment_pool_id");
            m_w.beginTuple();
            m_w.integer(0);
            m_w.integer(0);
            m_w.endTuple();
            key("is_expandable");
            m_w.boolean(false);
            key("frames");
            writeFrames(s.stack);
            key("blocks");
            // memory_viz places blocks by the running sum of sizes from the segment address,
            // so gaps between live blocks are written as inactive blocks.
            m_w.beginList();
            uint64_t cursor = s.addr;
            for (const auto& b : s.blocks) {
                if (b.addr > cursor) {
                    writeInactiveBlock(cursor, static_cast<int64_t>(b.addr - cursor));
                }
                m_w.beginDict();
                key("address");
                m_w.unsignedInteger(b.addr);
                key("size");
                m_w.integer(b.size);
                key("requested_size");
                m_w.integer(b.size);
                key("state");
                m_w.internedString("active_allocated");
                key("frames");
                writeFrames(b.stack);
                m_w.endDict();
                cursor = b.addr + static_cast<uint64_t>(b.size);
            }
            const uint64_t end = s.addr + static_cast<uint64_t>(s.size);
            if (cursor < end) {
                writeInactiveBlock(cursor, static_cast<int64_t>(end - cursor));
            }
            m_w.endList();
            m_w.endDict();
        }
        m_w.endList();
    }

    // ---- device traces ---------------------------------------------------------------------

    int64_t timeUs(size_t i) const { return m_baseUs + m_ev.time_ns[i] / 1000; }

    void entryHead(const char* action, uint64_t addr, int64_t size, int64_t time_us) {
        m_w.beginDict();
        key("action");
        m_w.internedString(action);
        key("addr");
        m_w.unsignedInteger(addr);
        key("size");
        m_w.integer(size);
        key("stream");
        m_w.integer(0);
        key("time_us");
        m_w.integer(time_us);
    }

    void blockEntry(const char* action, uint64_t addr, int64_t size, int64_t time_us,
                    uint32_t stack, Category category) {
        entryHead(action, addr, size, time_us);
        key("frames");
        writeFrames(stack);
        key("category");
        m_w.internedString(m_categoryNames[static_cast<size_t>(category)]);
        m_w.endDict();
    }

    void segmentEntry(const char* action, uint64_t addr, int64_t size, int64_t time_us,
                      uint32_t stack, bool tag_unknown) {
        entryHead(action, addr, size, time_us);
        key("frames");
        writeFrames(stack);
        if (tag_unknown) {
            key("category");
            m_w.internedString("unknown");
        }
        m_w.endDict();
    }

    void freeEntries(const Allocation& a, int64_t time_us, uint32_t stack, bool tag_unknown) {
        // PyTorch writes a free as requested + completed; memory_viz folds the pair into one.
        blockEntry("free_requested", a.addr, a.size, time_us, stack, a.category);
        blockEntry("free_completed", a.addr, a.size, time_us, stack, a.category);
        if (!m_passthroughSegments) {
            segmentEntry("segment_free", a.addr, a.size, time_us, stack, tag_unknown);
        }
    }

    void writeEvent(size_t i, std::unordered_map<uint64_t, int64_t>& open) {
        const auto kind = static_cast<EventKind>(m_ev.kind[i]);
        const auto& allocations = m_trace.allocations();
        const auto& of_event = m_trace.allocationOfEvent();
        const bool tag = static_cast<int64_t>(i) == m_unknownTagEvent;
        const int64_t t = timeUs(i);
        const uint32_t stack = m_ev.stack[i];
        switch (kind) {
            case EventKind::Alloc: {
                const int64_t ai = i < of_event.size() ? of_event[i] : -1;
                if (ai < 0) {
                    return;
                }
                const Allocation& a = allocations[static_cast<size_t>(ai)];
                if (auto it = open.find(a.addr); it != open.end()) {
                    // The previous block here was never seen freed (events dropped): close it
                    // so memory_viz does not pair this alloc with a stale free.
                    freeEntries(allocations[static_cast<size_t>(it->second)], t, StackTable::kEmpty,
                                false);
                }
                open[a.addr] = ai;
                if (!m_passthroughSegments) {
                    segmentEntry("segment_alloc", a.addr, a.size, t, stack, tag);
                }
                blockEntry("alloc", a.addr, a.size, t, stack, a.category);
                return;
            }
            case EventKind::Free: {
                const int64_t ai = i < of_event.size() ? of_event[i] : -1;
                if (ai < 0) {
                    return;
                }
                open.erase(m_ev.addr[i]);
                freeEntries(allocations[static_cast<size_t>(ai)], t, stack, tag);
                return;
            }
            case EventKind::SegmentAlloc:
            case EventKind::SegmentFree:
                segmentEntry(kind == EventKind::SegmentAlloc ? "segment_alloc" : "segment_free",
                             m_ev.addr[i], std::abs(m_ev.size[i]), t, stack, tag);
                return;
            case EventKind::Oom: {
                // PyTorch's oom entry: size is the failed request, device_free what was left.
                m_w.beginDict();
                key("action");
                m_w.internedString("oom");
                key("device_free");
                m_w.integer(std::max<int64_t>(0, m_ev.reserved[i] - m_ev.allocated[i]));
                key("size");
                m_w.integer(m_ev.size[i]);
                key("stream");
                m_w.integer(0);
                key("time_us");
                m_w.integer(t);
                key("frames");
                writeFrames(stack);
                m_w.endDict();
                return;
            }
            case EventKind::Role:
                return;  // Memscope's own naming of storages; the categories carry it
        }
    }

    void writeDeviceTraces() {
        m_w.beginList();
        for (int d = 0; d < m_deviceCount; ++d) {
            std::unordered_map<uint64_t, int64_t> open;  // addr -> allocation index
            m_w.beginList();
            for (size_t i = 0; i < m_ev.count(); ++i) {
                if (deviceIndex(m_ev.device[i]) == d) {
                    writeEvent(i, open);
                }
            }
            m_w.endList();
        }
        m_w.endList();
    }

    // ---- annotations -----------------------------------------------------------------------

    void annotation(const std::string& name, const char* stage, int device, int64_t time_us) {
        m_w.beginDict();
        key("name");
        m_w.string(name);  // each phase name is used twice only
        key("stage");
        m_w.internedString(stage);
        key("device");
        m_w.integer(device);
        key("time_us");
        m_w.integer(time_us);
        m_w.endDict();
    }

    void writeMarker() {
        const RunMetadata& meta = m_trace.meta;
        m_w.beginDict();
        key("memscope_version");
        m_w.string(MEMSCOPE_VERSION);
        key("device");
        m_w.string(meta.device);
        key("cpu_device");
        m_w.integer(m_cpuIndex);
        key("caching_allocator");
        m_w.boolean(m_passthroughSegments);
        if (!meta.device_name.empty()) {
            key("device_name");
            m_w.string(meta.device_name);
        }
        if (!meta.torch_version.empty()) {
            key("torch_version");
            m_w.string(meta.torch_version);
        }
        if (meta.threads > 0) {
            key("threads");
            m_w.integer(meta.threads);
        }
        m_w.endDict();
    }

    void writeAnnotations() {
        const std::string& dev = m_trace.meta.device;
        int device = m_cpuIndex;
        if (dev.rfind("cuda", 0) == 0 || dev.rfind("hip", 0) == 0) {
            const auto colon = dev.find(':');
            device = colon == std::string::npos ? 0 : std::atoi(dev.c_str() + colon + 1);
        }
        m_w.beginList();
        for (const auto& p : m_trace.phases) {
            const std::string name = toString(p.phase) + " step " + std::to_string(p.step);
            annotation(name, "START", device, m_baseUs + p.begin_ns / 1000);
            annotation(name, "END", device, m_baseUs + std::max(p.begin_ns, p.end_ns) / 1000);
        }
        writeUserAnnotations(device);
        m_w.endList();
    }

    // The user annotations an import kept (record_function scopes), back as START/END markers
    // in time order, so that importing the file again pairs them as they were: each END comes
    // before the STARTs at or after its time, and regions of one name that nest close innermost
    // first (the importer pairs an END with the latest open START of its name).
    void writeUserAnnotations(int device) {
        std::vector<TraceAnnotation> user;
        for (TraceAnnotation& a : TraceAnnotations::fromTrace(m_trace)) {
            if (a.kind == TraceAnnotation::Kind::User) {
                user.push_back(std::move(a));
            }
        }
        std::stable_sort(
            user.begin(), user.end(), [](const TraceAnnotation& a, const TraceAnnotation& b) {
                return a.begin_ns != b.begin_ns ? a.begin_ns < b.begin_ns : a.end_ns > b.end_ns;
            });
        // Open regions by end time, earliest first (ties: the later opened first).
        using Open = std::pair<int64_t, size_t>;
        auto later = [](const Open& a, const Open& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        };
        std::priority_queue<Open, std::vector<Open>, decltype(later)> open(later);
        auto close_until = [&](int64_t ns, bool all) {
            while (!open.empty() && (all || open.top().first <= ns)) {
                const TraceAnnotation& a = user[open.top().second];
                annotation(a.name, "END", device, m_baseUs + a.end_ns / 1000);
                open.pop();
            }
        };
        for (size_t i = 0; i < user.size(); ++i) {
            close_until(user[i].begin_ns, false);
            annotation(user[i].name, "START", device, m_baseUs + user[i].begin_ns / 1000);
            open.emplace(user[i].end_ns, i);
        }
        close_until(0, true);
    }

    const Trace& m_trace;
    const EventColumns& m_ev;
    PickleWriter m_w;
    int64_t m_baseUs = 0;
    int m_cpuIndex = 0;
    int m_deviceCount = 1;
    bool m_passthroughSegments = false;
    int64_t m_unknownTagEvent = -1;
    std::string m_categoryNames[kCategoryCount];
    std::unordered_map<uint32_t, uint32_t> m_frameMemo;  // frame id -> memo id
    std::unordered_map<uint32_t, uint32_t> m_stackMemo;  // stack node -> memo id
};

}  // namespace

std::string SnapshotExporter::categoryName(Category category) {
    std::string name = toString(category);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return name;
}

int64_t SnapshotExporter::epochMicros(const std::string& iso8601) {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0;
    double second = 0;
    if (std::sscanf(iso8601.c_str(), "%d-%d-%dT%d:%d:%lf", &year, &month, &day, &hour, &minute,
                    &second) != 6 ||
        month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second < 0 ||
        second >= 61) {
        return 0;
    }
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = 0;
    const std::time_t t = timegm(&tm);
    if (t == static_cast<std::time_t>(-1)) {
        return 0;
    }
    int64_t us = int64_t(t) * 1'000'000 + int64_t(second * 1e6 + 0.5);
    // A "+HH:MM" / "-HH:MM" suffix: convert to UTC. "Z" or nothing: already UTC.
    const auto tpos = iso8601.find('T');
    const auto sign = iso8601.find_first_of("+-", tpos == std::string::npos ? 0 : tpos);
    if (sign != std::string::npos) {
        int oh = 0, om = 0;
        if (std::sscanf(iso8601.c_str() + sign + 1, "%d:%d", &oh, &om) >= 1) {
            const int64_t offset = (int64_t(oh) * 3600 + int64_t(om) * 60) * 1'000'000;
            us += iso8601[sign] == '+' ? -offset : offset;
        }
    }
    return us;
}

void SnapshotExporter::write(const Trace& trace, std::ostream& out, int protocol) {
    if (trace.allocationOfEvent().size() != trace.events.count()) {
        // Not finalized (a trace built by hand or still being recorded): pair on a copy.
        Trace finalized = trace;
        finalized.finalize();
        SnapshotWriter(finalized, out, protocol).write();
        return;
    }
    SnapshotWriter(trace, out, protocol).write();
}

void SnapshotExporter::write(const Trace& trace, const std::string& path, int protocol) {
    if (protocol != 2 && protocol != 4) {
        throw InputError("pickle protocol must be 2 or 4, not " + std::to_string(protocol));
    }
    writeFileAtomically(path, [&](std::ostream& out) { write(trace, out, protocol); });
}

}  // namespace memscope
