// SnapshotImporter's entry points (a file streamed through a Builder, a tree) and the Trace a
// Builder makes of the entries it read (Builder::build: the summary, the annotation regions, the
// meta). Reading and emitting the entries, the hot path, is in snapshot_importer.cpp.

#include "interchange/snapshot_importer.h"

#include "interchange/snapshot_builder.h"

#include "interchange/phase_inference.h"
#include "trace/trace_annotations.h"
#include "trace/trace_range.h"

#include "interchange/snapshot_exporter.h"
#include "memscope_version.h"
#include "pickle/pickle_error.h"
#include "pickle/pickle_reader.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

namespace memscope {

namespace snapshot_detail {

namespace {

// Small blocks freed after reading (the reader's values, its memo pages, entries that took the
// general path) stay in glibc's heap, which keeps their pages: 39 MB after a 1 GB import, at
// the peak (Trace::finalize). Giving them back keeps the peak within the file's size. Only for
// large traces: trimming walks the heap, which small imports (a fuzzer's thousands) need not.
void returnFreeHeap(size_t events) {
#ifdef __GLIBC__
    if (events >= (size_t(1) << 20)) {
        malloc_trim(0);
    }
#else
    (void)events;
#endif
}

std::string isoTimeFromMicros(int64_t time_us) {
    // Only plausible Unix times (2000 to 2200); anything else is not a wall clock.
    if (time_us < 946684800LL * 1000000 || time_us > 7258118400LL * 1000000) {
        return {};
    }
    const std::time_t seconds = static_cast<std::time_t>(time_us / 1000000);
    std::tm tm{};
    if (!gmtime_r(&seconds, &tm)) {
        return {};
    }
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string baseName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// allocator_settings and other small values as JSON, for the summary. `budget` bounds the values
// written: shared lists can nest into a DAG that would expand exponentially; past it, "...".
nlohmann::json toJson(const PickleValue& v, int64_t& budget) {
    if (--budget < 0) {
        return "...";
    }
    switch (v.type()) {
        case PickleValue::Type::None:
            return nullptr;
        case PickleValue::Type::Bool:
            return v.toBool();
        case PickleValue::Type::Int:
            if (const auto i = v.toInt64()) {
                return *i;
            }
            return *v.toUInt64();
        case PickleValue::Type::BigInt:
            return v.toDecimal();
        case PickleValue::Type::Float:
            return *v.toDouble();
        case PickleValue::Type::String: {
            // JSON text must be strict UTF-8: encoded surrogates (which pickles may hold) are
            // kept as Python's repr.
            const std::string& t = v.text();
            for (size_t i = 0; i + 1 < t.size(); ++i) {
                if (uint8_t(t[i]) == 0xed && uint8_t(t[i + 1]) >= 0xa0) {
                    return v.repr(4096);
                }
            }
            return t;
        }
        case PickleValue::Type::Bytes:
            return v.repr(4096);
        case PickleValue::Type::List:
        case PickleValue::Type::Tuple: {
            nlohmann::json out = nlohmann::json::array();
            for (const PickleValue& item : v.items()) {
                out.push_back(toJson(item, budget));
            }
            return out;
        }
        case PickleValue::Type::Dict: {
            nlohmann::json out = nlohmann::json::object();
            for (const auto& [key, value] : v.dictItems()) {
                out[key.isString() ? key.text() : key.repr(80)] = toJson(value, budget);
            }
            return out;
        }
    }
    return nullptr;
}

// Pairs START and END markers into {"name", "begin_ns", "end_ns"} regions (appended to
// `out`): each START with the next END of the same name (nested scopes of one name close
// innermost first); an END without its START (recording began inside the scope) is dropped, a
// START never closed lasts to `end_ns`. Times are relative to the trace's first entry. At most
// kMaxAnnotations regions in `out`.
void pairMarkers(const std::vector<AnnotationMarker>& markers, int64_t first_time_us,
                 int64_t end_ns, nlohmann::json& out) {
    std::map<std::string, std::vector<int64_t>> open;  // name -> begin times, innermost last
    for (const AnnotationMarker& m : markers) {
        if (out.size() >= kMaxAnnotations) {
            break;
        }
        const int64_t ns = std::max<int64_t>(0, saturatingMicrosToNanos(first_time_us, m.time_us));
        if (m.start) {
            open[m.name].push_back(ns);
            continue;
        }
        auto it = open.find(m.name);
        if (it == open.end() || it->second.empty()) {
            continue;
        }
        out.push_back({{"name", m.name},
                       {"begin_ns", it->second.back()},
                       {"end_ns", std::max(ns, it->second.back())}});
        it->second.pop_back();
    }
    for (const auto& [name, begins] : open) {
        for (const int64_t begin : begins) {
            if (out.size() < kMaxAnnotations) {
                out.push_back(
                    {{"name", name}, {"begin_ns", begin}, {"end_ns", std::max(begin, end_ns)}});
            }
        }
    }
}

// PyTorch's user annotations (2.5+): the snapshot's top-level "external_annotations" list of
// {"stage": "START" | "END", "name", "device", "time_us"} dicts, recorded when a
// record_function scope opens and closes while memory history is on; this device's as markers.
// The host lane (kHostLane) has none of its own: it takes the lowest device's (the scopes are
// the program's, on the same clock).
std::vector<AnnotationMarker> externalAnnotations(const PickleValue& list, int device) {
    std::vector<AnnotationMarker> out;
    if (!list.isSequence()) {
        return out;
    }
    if (device == kHostLane) {
        std::optional<int64_t> lowest;
        for (const PickleValue& item : list.items()) {
            const PickleValue* dev = item.isDict() ? item.find("device") : nullptr;
            if (const auto d = dev ? dev->toInt64() : std::nullopt;
                d && (!lowest || *d < *lowest)) {
                lowest = d;
            }
        }
        device = lowest && *lowest >= 0 && *lowest <= kMaxDevice ? static_cast<int>(*lowest) : 0;
    }
    for (const PickleValue& item : list.items()) {
        if (!item.isDict() || out.size() >= 2 * kMaxAnnotations) {
            continue;
        }
        const PickleValue* stage = item.find("stage");
        const PickleValue* name = item.find("name");
        const PickleValue* time = item.find("time_us");
        const PickleValue* dev = item.find("device");
        if (!stage || !stage->isString() || !name || !name->isString() || !time) {
            continue;
        }
        const auto time_us = time->toInt64();
        if (!time_us || (dev && dev->toInt64() && *dev->toInt64() != device) ||
            (stage->text() != "START" && stage->text() != "END")) {
            continue;
        }
        out.push_back({stage->text() == "START", name->text(), *time_us});
    }
    return out;
}

}  // namespace

Trace Builder::build(const PickleValue& snapshot, int device, const RunRange& range) {
    m_device = device;
    m_eventDevice = device;
    m_trace.meta.memscope_version = MEMSCOPE_VERSION;
    m_trace.meta.source = "imported from " + baseName(m_source);
    m_trace.meta.device = m_device == kHostLane ? std::string(SnapshotImporter::kHostLaneName)
                                                : "cuda:" + std::to_string(m_device);
    if (m_device == kHostLane) {
        m_eventDevice = -1;  // pinned memory is the CPU's
    }
    m_trace.meta.torch_version.clear();
    m_trace.meta.config = nlohmann::json::object();
    m_trace.meta.categories_inferred = true;
    if (const PickleValue* marker =
            snapshot.isDict() ? snapshot.find(SnapshotExporter::kMarkerKey) : nullptr) {
        readMarker(*marker);
    }

    DeviceTrace& trace = m_traces[device];
    EntryList& entries = trace.entries;
    entries.finish();
    m_skipped = trace.skipped;
    m_blocks.assign(trace.slots.size(), Block());
    EventColumns& out = m_trace.events;
    out.reserve(entries.size() + entries.size() / 8 + 64);
    m_trace.raw_stack.reserve(entries.size() + entries.size() / 8 + 64);
    // Time 0: the segments reserved before the trace, then the live blocks it never touches
    // (found by what the trace does not touch), then the trace.
    // Those at time 0 have step -1: TimelineLayout puts such blocks at x = 0, at the bottom, as
    // memory_viz does, instead of one x each.
    const std::vector<SnapshotSegment> segments = snapshotSegments(snapshot);
    m_step = -1;
    const int64_t initial_reserved =
        emitInitialSegments(out, segments, std::move(trace.segment_ranges));
    const int64_t initial = emitInitialBlocks(out, snapshot, initial_reserved, trace.slots);
    m_step = 0;
    emitTrace(out, trace, initial, initial_reserved, segments);

    // Frees-from-start were live before the first event, and released segments that the trace
    // never reserved were reserved before it: every level includes them.
    if (m_freedFromStart != 0) {
        out.allocated.transform([&](int64_t a) { return addSat(a, m_freedFromStart); });
    }
    if (m_segmentsFromStart != 0) {
        out.reserved.transform([&](int64_t r) { return addSat(r, m_segmentsFromStart); });
    }

    nlohmann::json lanes = devices(snapshot);
    if (hasHostLane(snapshot)) {
        lanes.push_back(SnapshotImporter::kHostLaneKey);
    }
    m_trace.summary = {
        {"imported", true}, {"devices", std::move(lanes)}, {"skipped_entries", m_skipped}};
    if (const PickleValue* settings =
            snapshot.isDict() ? snapshot.find("allocator_settings") : nullptr) {
        int64_t budget = 10000;
        m_trace.summary["allocator_settings"] = toJson(*settings, budget);
    }
    // PyTorch keeps the trace in a ring buffer of trace_alloc_max_entries entries and sets
    // trace_alloc_overflowed once it dropped older ones (at the top level, or among the
    // allocator's settings): then the history started late, and what the dropped entries
    // allocated and had not freed is what this trace shows as present from the start.
    {
        const PickleValue* settings =
            snapshot.isDict() ? snapshot.find("allocator_settings") : nullptr;
        auto field = [&](const char* key) -> const PickleValue* {
            const PickleValue* v = snapshot.isDict() ? snapshot.find(key) : nullptr;
            return v ? v : settings ? settings->find(key) : nullptr;
        };
        const PickleValue* max_entries = field("trace_alloc_max_entries");
        const PickleValue* overflowed = field("trace_alloc_overflowed");
        if (max_entries || overflowed) {
            nlohmann::json history = {{"overflowed", overflowed && overflowed->toBool()},
                                      {"entries", trace.seen}};
            if (const auto n = max_entries ? max_entries->toInt64() : std::nullopt; n && *n > 0) {
                history["max_entries"] = *n;
            }
            m_trace.summary["trace_history"] = std::move(history);
        }
    }
    // Annotations: PyTorch 2.5+'s external_annotations, and the user_defined entries that
    // nightlies of mid-2024 wrote into device_traces instead. Both are placed by the trace
    // entries' times: without them there is nothing to place them by.
    std::vector<PhaseInference::Region> phase_regions;
    if (trace.has_time) {
        nlohmann::json regions = nlohmann::json::array();
        const int64_t end_ns = out.time_ns.empty() ? 0 : out.time_ns.back();
        if (const PickleValue* annotations =
                snapshot.isDict() ? snapshot.find("external_annotations") : nullptr) {
            pairMarkers(externalAnnotations(*annotations, device), trace.first_time_us, end_ns,
                        regions);
        }
        pairMarkers(trace.markers, trace.first_time_us, end_ns, regions);
        phase_regions.reserve(regions.size());
        nlohmann::json user = nlohmann::json::array();
        for (auto& r : regions) {
            PhaseInference::Region region{r["name"].get<std::string>(),
                                          r["begin_ns"].get<int64_t>(), r["end_ns"].get<int64_t>()};
            // A Memscope export's "forward step 2" regions are the trainer's phases: they come
            // back as Trace::phases, not as user annotations too.
            const auto meaning = PhaseInference::meaningOf(region.name);
            if (!(m_fromMemscope && meaning.phase && meaning.step)) {
                user.push_back(std::move(r));
            }
            phase_regions.push_back(std::move(region));
        }
        regions = std::move(user);
        if (!regions.empty()) {
            m_trace.summary[TraceAnnotations::kSummaryKey] = std::move(regions);
        }
    }
    // Phases and steps from the frames' evidence and the annotations (categories follow from
    // them in finalize(): Categorizer::inferredCategoryOf).
    {
        std::vector<uint8_t> evidence(out.count());
        for (size_t i = 0; i < evidence.size(); ++i) {
            evidence[i] = m_cleaner.evidence(m_trace.raw_stack[i]);
        }
        m_trace.phases = PhaseInference::apply(out, evidence, phase_regions);
    }
    if (trace.has_time) {
        m_trace.meta.started_at = isoTimeFromMicros(trace.first_time_us);
    }
    m_traces.clear();  // the entries are not needed any more: free them before finalize()
    m_lastTrace = nullptr;
    checkCancel();
    if (!range.isAll()) {
        const size_t count = out.count();
        const auto [first, last] = TraceRange::events(out, range);
        TraceRange::keep(m_trace, first, last);
        m_trace.meta.source += "; loaded " + range.describe() + ": events " +
                               std::to_string(first) + ".." + std::to_string(last) + " of " +
                               std::to_string(count);
        checkCancel();
    }
    returnFreeHeap(m_trace.events.count());
    m_trace.finalize();
    return std::move(m_trace);
}

}  // namespace snapshot_detail

namespace {

using namespace snapshot_detail;

// Throws unless the value looks like a memory snapshot.
void checkSnapshot(const PickleValue& snapshot, const std::string& source_name) {
    static const char* known_keys[] = {"segments",
                                       "device_traces",
                                       "allocator_settings",
                                       "external_annotations",
                                       "host_segments",
                                       "host_traces",
                                       "trace_alloc_max_entries",
                                       "trace_alloc_overflowed",
                                       SnapshotExporter::kMarkerKey};
    if (snapshot.isDict()) {
        const bool known = snapshot.size() == 0 ||
                           std::any_of(std::begin(known_keys), std::end(known_keys),
                                       [&](const char* k) { return snapshot.find(k) != nullptr; });
        if (!known) {
            throw PickleError(source_name,
                              "not a memory snapshot: a dict without 'segments' or "
                              "'device_traces' (" +
                                  snapshot.repr(80) + ")");
        }
    } else if (snapshot.isList()) {
        const auto& items = snapshot.items();
        if (!items.empty() && std::none_of(items.begin(), items.end(),
                                           [](const PickleValue& v) { return v.isDict(); })) {
            throw PickleError(source_name,
                              "not a memory snapshot: a list that holds no segment dicts");
        }
    } else {
        throw PickleError(source_name, std::string("not a memory snapshot: the pickle holds ") +
                                           (snapshot.isInt() ? "an " : "a ") + snapshot.typeName());
    }
}

// The device asked for (an index, or SnapshotImporter::kHostDevice), or the default, as the
// Builder numbers it (kHostLane for the host lane); throws when the snapshot lacks it.
int chooseDevice(const Builder& builder, const PickleValue& snapshot, int device,
                 const std::string& source_name) {
    if (device == SnapshotImporter::kHostDevice) {
        device = kHostLane;
    } else if (device < 0) {
        return builder.defaultDevice(snapshot);
    }
    const std::vector<int> available = builder.devices(snapshot);
    const bool host = builder.hasHostLane(snapshot);
    const bool found = device == kHostLane ? host
                                           : std::find(available.begin(), available.end(),
                                                       device) != available.end();
    if (!found) {
        std::string list;
        for (const int d : available) {
            list += (list.empty() ? "" : ", ") + std::to_string(d);
        }
        if (host) {
            list += (list.empty() ? "" : ", ") + std::string(SnapshotImporter::kHostLaneKey);
        }
        const std::string asked = device == kHostLane
                                      ? std::string("the host lane (pinned host memory)")
                                      : "device " + std::to_string(device);
        throw PickleError(
            source_name,
            asked + " is not in the snapshot (" +
                (list.empty() ? std::string("it holds no devices") : "devices: " + list) + ")");
    }
    return device;
}

}  // namespace

namespace {
Trace importSnapshotFile(const std::string& path, int device,
                         const SnapshotImporter::ImportOptions& options);
}  // namespace

std::vector<int> SnapshotImporter::devices(const PickleValue& snapshot) {
    std::vector<int> out;
    const PickleValue& traces = snapshot.get("device_traces");
    for (size_t i = 0; i < traces.size() && i <= size_t(kMaxDevice); ++i) {
        if (traces.at(i).isSequence() && traces.at(i).size() > 0) {
            out.push_back(static_cast<int>(i));
        }
    }
    for (const PickleValue& segment : segmentsOf(snapshot).items()) {
        if (segment.isDict()) {
            if (const int d = segmentDevice(segment); d >= 0) {
                out.push_back(d);
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool SnapshotImporter::hasHostLane(const PickleValue& snapshot) {
    if (!snapshot.isDict()) {
        return false;
    }
    const auto& segments = snapshot.get("host_segments").items();
    if (std::any_of(segments.begin(), segments.end(),
                    [](const PickleValue& s) { return s.isDict(); })) {
        return true;
    }
    bool any = false;
    forEachHostEntry(snapshot, [&any](const PickleValue&) { any = true; });
    return any;
}

Trace SnapshotImporter::import(const std::string& path, int device) {
    return import(path, device, ImportOptions());
}

Trace SnapshotImporter::import(const std::string& path, int device, const ImportOptions& options) {
    Trace trace = importSnapshotFile(path, device, options);
    returnFreeHeap(trace.events.count());  // the builder's too, before the caller summarizes
    return trace;
}

namespace {

Trace importSnapshotFile(const std::string& path, int device,
                         const SnapshotImporter::ImportOptions& options) {
    // The device traces stream from the reader into compact entries as they are parsed; the
    // rest of the snapshot (segments, settings) is a small tree.
    Builder builder(path, options.cancel, options.preview_entries, options.entry_chunk);
    PickleReader::FileOptions file_options;
    uint64_t bytes_read = 0;  // where a preview stopped, to the reader's chunk (1 MiB)
    file_options.progress = [&bytes_read, &options](uint64_t bytes, uint64_t size) {
        bytes_read = bytes;
        if (options.progress) {
            options.progress(bytes, size);
        }
    };
    file_options.cancel = options.cancel;
    PickleValue salvage;
    if (options.keep_partial || options.preview_entries > 0) {
        file_options.salvage = &salvage;
    }
    PickleValue snapshot;
    std::optional<PickleError> damage;
    try {
        snapshot = PickleReader(path).parseFile(path, &builder, file_options);
    } catch (const PickleError& e) {
        // Something to show: trace entries, or segments (the allocator's state).
        const bool something =
            builder.entriesSeen() > 0 ||
            ((salvage.isDict() || salvage.isList()) && segmentsOf(salvage).size() > 0);
        if (!builder.stoppedForPreview() && (!options.keep_partial || !something)) {
            throw;
        }
        damage = e;
        snapshot = std::move(salvage);
    }
    checkSnapshot(snapshot, path);
    builder.collect(snapshot);
    device = chooseDevice(builder, snapshot, device, path);
    Trace trace = builder.build(snapshot, device, options.range);
    if (damage) {
        uint64_t file_bytes = 0;
        if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
            if (std::fseek(f, 0, SEEK_END) == 0) {
                file_bytes = static_cast<uint64_t>(std::max(0L, std::ftell(f)));
            }
            std::fclose(f);
        }
        const int64_t offset = builder.stoppedForPreview() ? int64_t(bytes_read)
                                                           : std::max<int64_t>(0, damage->offset());
        if (builder.stoppedForPreview()) {
            trace.meta.source += "; preview: the first " + std::to_string(options.preview_entries) +
                                 " trace entries (byte " + std::to_string(offset) + " of " +
                                 std::to_string(file_bytes) + ")";
            trace.summary["preview"] = {{"entries", options.preview_entries},
                                        {"offset", offset},
                                        {"file_bytes", file_bytes}};
        } else {
            trace.meta.source += "; partial: read up to byte " + std::to_string(offset) + " of " +
                                 std::to_string(file_bytes) + ", the rest is damaged";
            trace.summary["partial"] = {
                {"error", damage->what()}, {"offset", offset}, {"file_bytes", file_bytes}};
        }
    }
    return trace;
}

}  // namespace

Trace SnapshotImporter::fromValue(const PickleValue& snapshot, int device,
                                  const std::string& source_name) {
    checkSnapshot(snapshot, source_name);
    // Only the device asked for is read (the default one is known from the tree).
    const std::vector<int> available = devices(snapshot);
    const int asked = device;
    if (device == kHostDevice) {
        device = kHostLane;
    } else if (device < 0) {
        device = available.empty() ? (hasHostLane(snapshot) ? kHostLane : 0) : available.front();
        const PickleValue& traces = snapshot.get("device_traces");
        for (size_t i = 0; i < traces.size() && i <= size_t(kMaxDevice); ++i) {
            if (traces.at(i).isSequence() && traces.at(i).size() > 0) {
                device = static_cast<int>(i);
                break;
            }
        }
    }
    Builder builder(source_name);
    builder.collect(snapshot, device);
    if (asked >= 0 || asked == kHostDevice) {
        chooseDevice(builder, snapshot, asked, source_name);
    }
    return builder.build(snapshot, device);
}

}  // namespace memscope
