#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace memscope {

// Writes a Trace as a PyTorch memory snapshot pickle that pytorch.org/memory_viz (and
// torch.cuda._memory_viz, and any Python `pickle.load`) opens. The format is PyTorch's
// (torch/csrc/cuda/memory_snapshot.cpp writes it, torch/utils/viz/MemoryViz.js reads it).
//
// What the file holds:
//   segments          the allocator state at the end (see "Segments" below)
//   device_traces     one list per device: "alloc", "free_requested" + "free_completed",
//                     "segment_alloc" / "segment_free" and "oom" entries with addr, size,
//                     stream 0, time_us (Unix epoch microseconds: the run's started_at plus the
//                     event time), frames (innermost first, as PyTorch writes them: ops, then
//                     modules) and, on block entries, the lowercase category memory_viz colours by
//   allocator_settings {}
//   external_annotations  the trainer's phases as record_function-style START/END markers
//                     ("forward step 2"), when the trace has phases
//   trace_alloc_max_entries / trace_alloc_overflowed  when the run was recorded with --max-events
//   memscope_export   what memory_viz does not read and a re-import needs (kMarkerKey): {
//                     "memscope_version", "device" ("cpu", "cuda:0"), "cpu_device" (the device
//                     index the CPU's entries are under), "caching_allocator" (false when the
//                     segment entries are the one-segment-per-block stand-ins below: the
//                     importer then drops them, so the run comes back without a reserved line),
//                     and "device_name", "torch_version", "threads" where the run has them}
//
// Devices: a CPU-only run is device 0. A GPU run keeps its GPU indices and puts the CPU (host
// tensors) after the last GPU, like PyTorch's profile-to-snapshot conversion.
//
// Segments: a CPU has no caching allocator, so every allocation is its own segment (reserved ==
// allocated, which is the truth there): each alloc is preceded by a segment_alloc of the same
// range and each free followed by a segment_free, and `segments` lists one segment per block
// still live at the end. memory_viz's three views (Active Memory Timeline, Active Cached Segment
// Timeline, Allocator State History) then all agree. A trace that has its own segment events
// (imported from a GPU snapshot) keeps them instead, and its live blocks are placed in the
// segments still open at the end.
class SnapshotExporter {
  public:
    // The top-level key of the export's own metadata (see above); memory_viz ignores it.
    static constexpr const char* kMarkerKey = "memscope_export";

    // Throws FileError ("PATH: reason") when the file cannot be written, and
    // InputError for a protocol other than 2 or 4. Writes PATH.tmp, then renames it.
    static void write(const Trace& trace, const std::string& path, int protocol = 4);
    static void write(const Trace& trace, std::ostream& out, int protocol = 4);

    // "parameter", "optimizer_state", ... "unknown": torch.profiler's category names, lowercased,
    // as its profile-to-snapshot conversion writes them.
    static std::string categoryName(Category category);
    // Unix epoch microseconds of an ISO 8601 UTC time ("2025-11-21T15:17:00Z"), or 0 when it does
    // not parse. An event's time_us is this of meta.started_at plus its time_ns / 1000.
    static int64_t epochMicros(const std::string& iso8601);
};

}  // namespace memscope
