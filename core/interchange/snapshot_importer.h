#pragma once

// Opens PyTorch memory snapshots (torch.cuda.memory._dump_snapshot() pickles, or the bare list
// of segments PyTorch 1.13 wrote) as a Trace for one device, or for the pinned host memory (the
// host lane, kHostDevice). See shared/reference/memory-viz-format.md for the format.
//
// Mapping, following what pytorch.org/memory_viz shows:
//   - Trace entries of the device, in order:
//       "alloc"                          -> Alloc (+size), followed by a Role event naming the
//                                           category when the entry's `category` is one of
//                                           Memscope's (case-insensitive, e.g. "activation")
//       "free_requested"/"free_completed" -> one Free: at the free_completed when one follows
//                                           for the same address (memory_viz folds the pair),
//                                           else at the free_requested; a second free of a block
//                                           already freed is dropped
//       "segment_alloc"/"segment_map"    -> SegmentAlloc (+size) with a SegmentTag: the entry's
//                                           stream and pool_id, else those of the snapshot
//                                           segment holding the address (segment_type)
//       "segment_free"/"segment_unmap"   -> SegmentFree (-size); an unmap of part of a mapped
//                                           range releases the range and reserves its ends again
//       "oom"                            -> Oom: size = the failed request, reserved = the
//                                           capacity, i.e. reserved bytes + `device_free`
//                                           (trace.h's meaning of reserved on Oom events)
//       "user_defined"                   -> no event: a record_function scope's START or END
//                                           (mid-2024 nightlies; frames [{"name": "START" |
//                                           "END", "filename": scope name}]), paired into a
//                                           user annotation like external_annotations below;
//                                           one without frames or time is skipped
//       "snapshot", "annotate", unknown actions and malformed entries are skipped and counted
//       (summary "skipped_entries").
//   - time_ns: time_us relative to the first entry that has one, in nanoseconds; an entry
//     without time_us takes the time of the one before it; when no entry has a time, entry i
//     is at i microseconds, so the order is kept.
//   - Stacks: `frames` ({filename, line, name}, innermost first) reversed to outermost first,
//     each a FrameKind::Other frame. Shared frame lists are converted once.
//   - Segments in `segments` that no segment event of the trace overlaps: SegmentAlloc at
//     time 0 (step -1), first of all events, so Trace::segments() holds them.
//   - Blocks present before the trace window (memory_viz's "initially allocated"):
//       * a free with no alloc in the trace: the Free event alone; Trace::finalize() pairs it
//         as present from the start, and its bytes are in the starting level;
//       * an "active_allocated" block in `segments` whose address no alloc or free in the
//         trace touches: an Alloc event at time 0 with step -1 (TimelineLayout puts it at
//         x = 0), before all trace events (size =
//         requested_size, else the 1.13 history's real_size, else size; stack from the block's
//         frames or its last history entry), so the timeline starts at the right level.
//     The `allocated` column is the running sum of live bytes from that starting level; the
//     `reserved` column the running total of segment bytes: the time-0 segments, plus the
//     segments the trace releases without having reserved them.
//   - `allocator_settings` -> summary["allocator_settings"] (JSON).
//   - `trace_alloc_max_entries` and `trace_alloc_overflowed` (at the top level or among the
//     allocator settings) -> summary["trace_history"] = {"overflowed", "entries" (the
//     device's trace entries), "max_entries"}: the ring buffer dropped older entries.
//   - `external_annotations` (2.5+) START/END pairs of the device, and the user_defined
//     entries' -> summary["annotations"] (TraceAnnotations reads them; see its header).
//   - import() streams: the file is read in chunks and each trace entry is converted as soon
//     as it is parsed (see PickleListSink), so the whole value tree never exists.
//   - ImportOptions::range keeps part of the imported trace, exactly as RunFile::LoadOptions::
//     range does for a run file (TraceRange::keep before finalize()): event indices
//     count the events above, the time-0 segments and blocks first; times are since the first
//     trace entry. meta.source says what was loaded. The whole file is still read and converted
//     (see docs/DESIGN-LOG.md for why the cut cannot happen while streaming).
//   - The host lane (PyTorch 2.15+, _record_memory_history(record_pinned_host_memory=True)):
//     `host_traces` are the trace entries and `host_segments` the segments of the CPU caching
//     host allocator, read by every rule above as a device's (`host_segments`' `device` fields
//     are not looked at). host_traces is taken as a flat list of entries or as a list of lists
//     concatenated in order (PyTorch's writer was not read; both are accepted), and streams as
//     device_traces does, before or after it in the file. The host lane's events have device
//     -1 (the CPU's memory), meta.device "host (pinned)" (kHostLaneName); its annotations are
//     the lowest device's external_annotations. -1 picks it only when the file has no device.
//     Absent or empty host keys: no host lane, and every other lane imports as without them.
//   - step 0, Phase::Other, thread 0, device = the chosen index; meta.source "imported from
//     NAME", meta.device "cuda:N"; summary {"imported": true, "devices": [...],
//     "skipped_entries": n}, devices listing the device indices with trace entries or segments
//     and then "host" (kHostLaneKey) when the file has a host lane.

#include "pickle/pickle_value.h"
#include "run/run_range.h"
#include "trace/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace memscope {

class SnapshotImporter {
  public:
    struct ImportOptions {
        // Called on the importing thread with the bytes of the file read so far (never
        // decreasing) and the file's size: about once per MiB read (PickleReader::kChunkBytes),
        // and (size, size) once the file is parsed, before the trace is built and finalized.
        std::function<void(uint64_t bytes, uint64_t size)> progress;
        // When set (by any thread), import() stops at the next chunk of the file, or in the
        // conversion after it every 64K entries, and throws RunFileCancelled naming the path;
        // everything built so far is freed as the exception leaves. Not looked at during
        // Trace::finalize().
        const std::atomic<bool>* cancel = nullptr;
        // Only this part of the trace (see above and RunRange).
        RunRange range;
        // A damaged file (cut short, cut inside a frame, corrupted): instead of the PickleError,
        // the trace of what was read before the damage (the trace entries streamed, the
        // top-level fields complete by then; PickleReader::FileOptions::salvage), marked
        // partial: meta.source ends "; partial: read up to byte N of M, the rest is damaged",
        // and summary["partial"] = {"error": the PickleError's one line, "offset": N,
        // "file_bytes": M}, which TraceSummary::toText prints. Still the PickleError when
        // nothing was read (no trace entry and no segment).
        bool keep_partial = false;
        // A preview (issue 52: a first picture of a big file): reading stops after this many
        // trace entries (0: all of them), and the trace is what was read by then, as for a file
        // cut there: the segments and settings before the entries, the first entries. Marked:
        // meta.source ends "; preview: the first N trace entries (byte B of M)", and
        // summary["preview"] = {"entries": N, "offset": B, "file_bytes": M}. A file with no
        // more entries than this imports whole, unmarked.
        uint64_t preview_entries = 0;
        // Trace entries of a device held as plain records before they are packed, a chunk
        // at a time, on a second thread (0: about a million; otherwise a multiple of 128).
        // Tests set a small one so that small snapshots take the packed path too.
        size_t entry_chunk = 0;
    };

    // The host lane as a device to import: pinned host memory (PyTorch 2.15+'s host_segments
    // and host_traces).
    static constexpr int kHostDevice = -2;
    // What summary["devices"] lists for the host lane, and what --device takes.
    static constexpr const char* kHostLaneKey = "host";
    // The host lane's meta.device.
    static constexpr const char* kHostLaneName = "host (pinned)";

    // Devices with trace entries or segments, ascending (CUDA devices: the host lane is not
    // among them; see hasHostLane).
    static std::vector<int> devices(const PickleValue& snapshot);
    // Whether the snapshot has a host lane: an entry in host_traces (either nesting) or a
    // segment in host_segments. (On a tree that was read whole, not streamed.)
    static bool hasHostLane(const PickleValue& snapshot);

    // Reads and converts one device, or the host lane (kHostDevice; -1: the first device with
    // trace entries, else the first with segments, else the host lane when the file holds
    // nothing else). Throws PickleError naming the file when it is not a readable pickle, not a
    // memory snapshot, or lacks the device asked for (naming the lanes it has).
    static Trace import(const std::string& path, int device = -1);
    static Trace import(const std::string& path, int device, const ImportOptions& options);

    // The same for a pickle already read; source_name stands for the file in messages and meta.
    static Trace fromValue(const PickleValue& snapshot, int device = -1,
                           const std::string& source_name = "snapshot");
};

}  // namespace memscope
