#pragma once

#include "run/phase.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace memscope {

// Why a run ran out of memory (issue 41), from its first out-of-memory event (EventKind::Oom:
// the built-in trainer under --device-memory-limit, a Python program, a snapshot's `oom` entry):
//
//   the request     bytes, device, step and phase, the module (ModuleTable's convention: the
//                   innermost Module or "backward of M" frame, the latter as M with in_backward),
//                   the operator and the whole stack
//   the device      capacity, allocated (the event's bytes in use), reserved (the caching
//                   allocator's segments on the request's device; -1 on a run without segments)
//   free bytes      capacity - allocated without segments; with segments the gaps inside them
//                   plus the capacity not reserved yet
//   the verdict     capacity:       free bytes < the request
//                   fragmentation:  free bytes >= the request, but no free region that large
//                                   (a region: one gap inside a segment, or the capacity not
//                                   reserved yet); PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
//                                   addresses it
//                   undetermined:   free bytes >= the request and either a region that large
//                                   exists (the allocator could not use it: another stream's or
//                                   pool's segment, rounding) or the run has no segments to tell
//                                   the regions; also when the capacity is unknown
//   what filled it  bytes per category alive just after the event (Trace::bytesByCategoryAt),
//                   largest first, and the ModuleTable at the event: its rows down to depth 1
//                   ("(no module)" included), whose top rows sum to alive_bytes
//
// Capacity: the event's (its reserved column holds it), else the run's limit
// (RunMetadata::capacity_bytes), and never below the reserved bytes. A run whose OOM event has
// neither has capacity 0 and capacity_known false.
class OomExplanation {
  public:
    enum class Verdict { Capacity, Fragmentation, Undetermined };

    struct Request {
        int64_t event = -1;
        int64_t bytes = 0;
        int16_t device = -1;
        int32_t step = 0;
        Phase phase = Phase::Init;
        int64_t time_ns = 0;
        std::string module;          // "" when no module frame is on the stack
        bool in_backward = false;    // the module frame was "backward of <module>"
        std::string op;              // innermost operator or autograd node, or ""
        std::string stack;           // StackTable::describe; "" for an empty or unknown stack
        bool stack_unknown = false;  // the event's stack id is outside the stack table
    };

    struct ModuleRow {
        std::string path;  // "" for "(no module)"
        std::string name;
        int depth = 0;
        int64_t held = 0;  // ModuleTable::Row::held(): its total over every column
    };

    // The first out-of-memory event's explanation, or nullopt when the run has none.
    static std::optional<OomExplanation> explain(const Trace& trace);
    // Read back what toJson wrote (a stored summary's "oom_explanation"); nullopt when `j` is not
    // an object.
    static std::optional<OomExplanation> fromJson(const nlohmann::json& j);

    // "capacity", "fragmentation", "undetermined".
    static const char* verdictId(Verdict verdict);
    // The allocator setting that addresses fragmentation.
    static const char* fragmentationSetting();

    const Request& request() const { return m_request; }
    int64_t capacity() const { return m_capacity; }
    bool capacityKnown() const { return m_capacityKnown; }
    int64_t allocated() const { return m_allocated; }
    // Reserved on the request's device; -1 when the run has no segments (a CPU run).
    int64_t reserved() const { return m_reserved; }
    bool hasSegments() const { return m_reserved >= 0; }
    int64_t freeBytes() const { return m_free; }
    // With segments: the free gaps inside them, and the capacity not reserved.
    int64_t freeInSegments() const { return m_freeInSegments; }
    int64_t unreserved() const { return m_unreserved; }
    // The largest contiguous free region (a gap or the unreserved capacity) and how many regions
    // there are; -1 for both without segments.
    int64_t largestFreeRegion() const { return m_largestFree; }
    int64_t freeRegions() const { return m_freeRegions; }
    Verdict verdict() const { return m_verdict; }
    // Bytes per category alive just after the event, largest first, only those above zero:
    // ("ACTIVATION", bytes).
    const std::vector<std::pair<std::string, int64_t>>& categories() const { return m_categories; }
    // The ModuleTable at the event: rows down to depth 1 in its order, and the bytes its top rows
    // sum to.
    const std::vector<ModuleRow>& modules() const { return m_modules; }
    int64_t aliveBytes() const { return m_alive; }

    // {"event", "request": {"bytes", "device", "step", "phase", "time_ns", "module",
    // "in_backward", "op", "stack"}, "capacity_bytes", "capacity_known", "allocated_bytes",
    // "reserved_bytes" (null without segments), "free_bytes", "free_in_segments_bytes",
    // "unreserved_bytes", "largest_free_region_bytes", "free_regions", "verdict", "setting"
    // (fragmentation only, else null), "categories": [{"category", "bytes"}], "alive_bytes",
    // "modules": [{"path", "name", "depth", "held_bytes"}]}
    nlohmann::json toJson() const;
    // A short paragraph and a few lines for `info` and the report: the request, the device's
    // figures, the verdict with why, the categories and the modules that filled it.
    std::string toText() const;
    // One sentence: the verdict and why ("Capacity: 2.0 MiB free (2,097,152 B) is less than the
    // 3.9 MiB requested."), what the text's paragraph ends with.
    std::string verdictSentence() const;

  private:
    Request m_request;
    int64_t m_capacity = 0;
    bool m_capacityKnown = false;
    int64_t m_allocated = 0;
    int64_t m_reserved = -1;
    int64_t m_free = 0;
    int64_t m_freeInSegments = 0;
    int64_t m_unreserved = 0;
    int64_t m_largestFree = -1;
    int64_t m_freeRegions = -1;
    Verdict m_verdict = Verdict::Undetermined;
    std::vector<std::pair<std::string, int64_t>> m_categories;
    std::vector<ModuleRow> m_modules;
    int64_t m_alive = 0;
};

}  // namespace memscope
