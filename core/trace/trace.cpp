#include "trace/trace.h"

#include "trace/live_trace_builder.h"
#include "trace/parameter_inference.h"

#include <algorithm>
#include <unordered_map>

namespace memscope {

void EventColumns::reserve(size_t n) {
    time_ns.reserve(n), addr.reserve(n), size.reserve(n), allocated.reserve(n);
    reserved.reserve(n), stack.reserve(n), step.reserve(n), kind.reserve(n);
    phase.reserve(n), thread.reserve(n), device.reserve(n);
}

void EventColumns::clear() {
    time_ns.clear(), addr.clear(), size.clear(), allocated.clear(), reserved.clear();
    stack.clear(), step.clear(), kind.clear(), phase.clear(), thread.clear(), device.clear();
}

void EventColumns::append(const Event& e) {
    time_ns.push_back(e.time_ns);
    addr.push_back(e.addr);
    size.push_back(e.size);
    allocated.push_back(e.allocated);
    reserved.push_back(e.reserved);
    stack.push_back(e.stack);
    step.push_back(e.step);
    kind.push_back(static_cast<uint8_t>(e.kind));
    phase.push_back(static_cast<uint8_t>(e.phase));
    thread.push_back(e.thread);
    device.push_back(e.device);
}

Event EventColumns::at(size_t i) const {
    Event e;
    e.time_ns = time_ns[i];
    e.addr = addr[i];
    e.size = size[i];
    e.allocated = allocated[i];
    e.reserved = reserved[i];
    e.stack = stack[i];
    e.step = step[i];
    e.kind = static_cast<EventKind>(kind[i]);
    e.phase = static_cast<Phase>(phase[i]);
    e.thread = thread[i];
    e.device = device[i];
    return e;
}

void EventColumns::dropFront(size_t n) {
    n = std::min(n, count());
    auto drop = [n](auto& v) { dropFrontOf(v, n); };
    drop(time_ns), drop(addr), drop(size), drop(allocated), drop(reserved), drop(stack);
    drop(step), drop(kind), drop(phase), drop(thread), drop(device);
}

std::string EventColumns::checkLengths() const {
    const size_t n = time_ns.size();
    const std::pair<const char*, size_t> lengths[] = {
        {"addr", addr.size()},         {"size", size.size()},   {"allocated", allocated.size()},
        {"reserved", reserved.size()}, {"stack", stack.size()}, {"step", step.size()},
        {"kind", kind.size()},         {"phase", phase.size()}, {"thread", thread.size()},
        {"device", device.size()}};
    for (const auto& [name, len] : lengths) {
        if (len != n) {
            return std::string("event column '") + name + "' has " + std::to_string(len) +
                   " entries, time_ns has " + std::to_string(n);
        }
    }
    return {};
}

nlohmann::json OperatorStat::toJson() const {
    return {{"name", name},
            {"is_module", is_module},
            {"calls", calls},
            {"total_ns", total_ns},
            {"self_ns", self_ns},
            {"device_ns", device_ns},
            {"bytes_allocated", bytes_allocated},
            {"self_bytes_allocated", self_bytes_allocated},
            {"self_net_bytes", self_net_bytes},
            {"largest_allocation", largest_allocation},
            {"flops", flops},
            {"bytes_sent", bytes_sent}};
}

OperatorStat OperatorStat::fromJson(const nlohmann::json& j) {
    OperatorStat s;
    s.name = j.at("name").get<std::string>();
    s.is_module = j.value("is_module", false);
    s.calls = j.value("calls", int64_t(0));
    s.total_ns = j.value("total_ns", int64_t(0));
    s.self_ns = j.value("self_ns", int64_t(0));
    s.device_ns = j.value("device_ns", int64_t(0));
    s.bytes_allocated = j.value("bytes_allocated", int64_t(0));
    s.self_bytes_allocated = j.value("self_bytes_allocated", int64_t(0));
    s.self_net_bytes = j.value("self_net_bytes", int64_t(0));
    s.largest_allocation = j.value("largest_allocation", int64_t(0));
    s.flops = j.value("flops", 0.0);
    s.bytes_sent = j.value("bytes_sent", int64_t(0));
    return s;
}

nlohmann::json RunMetadata::toJson() const {
    return {{"memscope_version", memscope_version},
            {"torch_version", torch_version},
            {"device", device},
            {"device_name", device_name},
            {"threads", threads},
            {"started_at", started_at},
            {"source", source},
            {"config", config},
            {"max_events", max_events},
            {"dropped_events", dropped_events},
            {"capacity_bytes", capacity_bytes},
            {"categories_inferred", categories_inferred}};
}

RunMetadata RunMetadata::fromJson(const nlohmann::json& j) {
    RunMetadata m;
    m.memscope_version = j.value("memscope_version", std::string());
    m.torch_version = j.value("torch_version", std::string());
    m.device = j.value("device", std::string());
    m.device_name = j.value("device_name", std::string());
    m.threads = j.value("threads", 0);
    m.started_at = j.value("started_at", std::string());
    m.source = j.value("source", std::string("recorded"));
    m.config = j.value("config", nlohmann::json::object());
    m.max_events = j.value("max_events", int64_t(0));
    m.dropped_events = j.value("dropped_events", int64_t(0));
    m.capacity_bytes = j.value("capacity_bytes", int64_t(0));
    m.categories_inferred = j.value("categories_inferred", false);
    return m;
}

void Trace::swapRawStacks() {
    if (!hasRawStacks()) {
        return;
    }
    std::swap(stacks, raw_stacks);
    std::swap(events.stack, raw_stack);
}

void Trace::finalize() {
    // One pairing mechanism: a live run's builder (trace/live_trace_builder.h) run once over all
    // events, so that a trace finalized whole and one paired as it grew cannot differ.
    m_allocations.clear();
    m_allocationOfEvent.clear();
    m_segments.clear();
    LiveTraceBuilder().pairAppended(*this);
    // An import's parameters, by its gradients (trace/parameter_inference.h).
    ParameterInference::apply(*this);
}

std::vector<int64_t> Trace::bytesByCategoryAt(size_t event_index) const {
    std::vector<int64_t> bytes(kCategoryCount, 0);
    const auto limit = static_cast<int64_t>(event_index);
    for (const Allocation& a : allocations()) {
        const bool allocated = a.alloc_event <= limit;  // -1: from the start
        const bool freed = a.free_event >= 0 && a.free_event <= limit;
        if (allocated && !freed) {
            bytes[static_cast<size_t>(a.category)] += a.size;
        }
    }
    return bytes;
}

int64_t Trace::peakEvent() const {
    int64_t best = -1;
    int64_t best_bytes = -1;
    size_t i = 0;
    events.allocated.forEach(0, events.count(), [&](int64_t allocated) {
        const auto kind = static_cast<EventKind>(events.kind[i]);
        if ((kind == EventKind::Alloc || kind == EventKind::Free) && allocated > best_bytes) {
            best_bytes = allocated;
            best = static_cast<int64_t>(i);
        }
        ++i;
    });
    return best;
}

}  // namespace memscope
