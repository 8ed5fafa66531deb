#include "explain/reserved_memory.h"

#include "explain/segment_state.h"
#include "run/run_summary.h"

#include <sstream>

namespace memscope {

namespace {

bool columnHasReserved(const Trace& trace) {
    const auto& ev = trace.events;
    PackedReader reserved(ev.reserved);
    PackedReader kinds(ev.kind);
    for (size_t i = 0; i < ev.count(); ++i) {
        if (reserved[i] != 0 && static_cast<EventKind>(kinds[i]) != EventKind::Oom) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool ReservedMemory::hasCachingAllocator(const Trace& trace) {
    return !trace.segments().empty() || columnHasReserved(trace);
}

bool ReservedMemory::ranOnCpu(const Trace& trace) {
    return trace.meta.device.empty() || trace.meta.device.rfind("cpu", 0) == 0;
}

void ReservedMemory::forEachReserved(const Trace& trace,
                                     const std::function<void(size_t, int64_t)>& visit) {
    const auto& ev = trace.events;
    if (columnHasReserved(trace)) {
        int64_t previous = 0;
        PackedReader reserved(ev.reserved);
        PackedReader kinds(ev.kind);
        for (size_t i = 0; i < ev.count(); ++i) {
            if (static_cast<EventKind>(kinds[i]) != EventKind::Oom) {
                previous = reserved[i];
            }
            visit(i, previous);
        }
        return;
    }
    // Segments only: those reserved before the trace, then each reserve and release.
    int64_t reserved = 0;
    for (const Segment& s : trace.segments()) {
        if (s.reserve_event < 0) {
            reserved += s.size;
        }
    }
    PackedReader kinds(ev.kind);
    for (size_t i = 0; i < ev.count(); ++i) {
        const auto kind = static_cast<EventKind>(kinds[i]);
        if (kind == EventKind::SegmentAlloc) {
            reserved += ev.size[i];
        } else if (kind == EventKind::SegmentFree) {
            reserved -= ev.size[i] < 0 ? -ev.size[i] : ev.size[i];
        }
        visit(i, reserved);
    }
}

ReservedMemory::Point ReservedMemory::at(const Trace& trace, int64_t event) {
    Point p;
    p.event = event;
    if (!trace.segments().empty()) {
        const SegmentState state = SegmentState::at(trace, event);
        p.reserved = state.reserved();
        p.allocated = state.allocated();
        p.free_bytes = state.freeBytes();
        p.largest_free_block = state.largestFreeBlock();
        p.free_blocks = state.freeBlocks();
        p.segments = static_cast<int64_t>(state.segments().size());
        return p;
    }
    const auto& ev = trace.events;
    if (event < 0 || size_t(event) >= ev.count()) {
        return p;
    }
    p.allocated = ev.allocated[size_t(event)];
    for (int64_t i = event; i >= 0; --i) {  // an OOM event's column holds a capacity
        if (static_cast<EventKind>(ev.kind[size_t(i)]) != EventKind::Oom) {
            p.reserved = ev.reserved[size_t(i)];
            break;
        }
    }
    p.free_bytes = p.reserved - p.allocated;
    return p;
}

ReservedMemory ReservedMemory::compute(const Trace& trace) {
    ReservedMemory r;
    r.m_caching = hasCachingAllocator(trace);
    r.m_cpu = ranOnCpu(trace);
    if (!r.m_caching) {
        return r;
    }
    forEachReserved(trace, [&r](size_t i, int64_t reserved) {
        if (reserved > r.m_peakReserved) {
            r.m_peakReserved = reserved;
            r.m_peakReservedEvent = static_cast<int64_t>(i);
        }
    });
    r.m_atPeak = at(trace, trace.peakEvent());
    const auto& ev = trace.events;
    for (size_t i = 0; i < ev.count(); ++i) {
        if (static_cast<EventKind>(ev.kind[i]) == EventKind::Oom) {
            r.m_atOom = at(trace, static_cast<int64_t>(i));
            break;
        }
    }
    return r;
}

nlohmann::json ReservedMemory::Point::toJson() const {
    nlohmann::json j = {{"event", event},
                        {"reserved_bytes", reserved},
                        {"allocated_bytes", allocated},
                        {"fragmentation_bytes", free_bytes}};
    if (segments >= 0) {
        j["largest_free_block_bytes"] = largest_free_block;
        j["free_blocks"] = free_blocks;
        j["segments"] = segments;
    }
    return j;
}

nlohmann::json ReservedMemory::toJson() const {
    if (!m_caching) {
        return m_cpu ? nlohmann::json{{"caching_allocator", false}}
                     : nlohmann::json{{"caching_allocator", false}, {"cpu", false}};
    }
    return {{"caching_allocator", true},
            {"peak_reserved_bytes", m_peakReserved},
            {"peak_reserved_event", m_peakReservedEvent},
            {"at_peak", m_atPeak.toJson()},
            {"at_oom", m_atOom ? m_atOom->toJson() : nlohmann::json(nullptr)}};
}

std::string ReservedMemory::toText(const nlohmann::json& r) {
    if (!r.is_object() || !r.value("caching_allocator", false)) {
        return r.is_object() && !r.value("cpu", true)
                   ? "Reserved: not recorded (this GPU run has neither segments nor reserved "
                     "totals)\n"
                   : "Reserved: no caching allocator (CPU)\n";
    }
    std::ostringstream out;
    out << "Reserved peak: " << formatBytes(r.value("peak_reserved_bytes", int64_t(0))) << "\n";
    auto point = [&out](const char* title, const nlohmann::json& p) {
        if (!p.is_object()) {
            return;
        }
        out << title << ": reserved " << formatBytes(p.value("reserved_bytes", int64_t(0)))
            << ", allocated " << formatBytes(p.value("allocated_bytes", int64_t(0)))
            << ", fragmentation " << formatBytes(p.value("fragmentation_bytes", int64_t(0)));
        if (p.contains("largest_free_block_bytes")) {
            out << ", largest free block "
                << formatBytes(p.value("largest_free_block_bytes", int64_t(0))) << " ("
                << p.value("free_blocks", int64_t(0)) << " free blocks in "
                << p.value("segments", int64_t(0)) << " segments)";
        }
        out << "\n";
    };
    point("Fragmentation at the peak", r.value("at_peak", nlohmann::json()));
    point("Fragmentation at the OOM", r.value("at_oom", nlohmann::json()));
    return out.str();
}

}  // namespace memscope
