#pragma once

// The native run file, .memscope.
//
// Layout (all integers little-endian):
//
//   offset 0   8 bytes   magic "MEMSCOPE"
//   offset 8   uint32    format version (2; version 1 files are still read)
//   offset 12  uint64    H: length of the stored header in bytes
//   offset 20  H bytes   the header: a CBOR map (nlohmann::json::to_cbor); in version 2 the CBOR
//                        is one zstd frame, in version 1 it is stored as is
//   offset 20+H          the event columns
//
// The header map:
//   "meta"       RunMetadata::toJson()
//   "stacks"     {"frames": [[name, file, line, kind], ...],
//                 "parents": bytes, "node_frames": bytes}  (uint32 arrays, one per node, node 0
//                 the empty stack; see StackTable)
//   "operators"  [OperatorStat::toJson(), ...]
//   "steps"      [StepMetrics::toJson(), ...]
//   "summary"    any JSON (RunSummary and the like)
//   "spans"      {"begin_ns", "end_ns", "stack", "thread", "shapes"}: parallel little-endian
//                byte arrays (int64, int64, uint32, uint16, uint32), one entry per
//                op/module/autograd-node call; "shapes" indexes "shape_strings"
//   "shape_strings" [string, ...]: input shapes recorded with --record-shapes; entry 0 is ""
//   "phases"     [[phase, step, begin_ns, end_ns], ...]
//   "segment_tags" (optional) {"event": bytes int64, "stream": bytes int64, "pool": [string]},
//                parallel, one entry per Trace::segment_tags element
//   "raw_stacks" (optional; imported snapshots) the frames as the snapshot listed them:
//                "frames", "parents", "node_frames" as in "stacks", and "events": bytes, one
//                uint32 raw stack node per event (Trace::raw_stacks, Trace::raw_stack). Files
//                without it load with no raw stacks. Version 2 writers since issue 52 keep
//                "events" empty and store the raw stack nodes as a column "raw_stack" (uint32,
//                "raw", after the event columns), chunked as they are, so that a preview reads
//                only its first chunks; readers before that skip the unknown column and load
//                the file without raw stacks.
//   "events"     the event count N
//   "columns"    one entry per EventColumns member: time_ns, addr, size, allocated, reserved,
//                stack, step, kind, phase, thread, device.
//
// Version 2 columns. Each column is cut into chunks of "chunk_events" events (header field, 2^20
// by default; the last chunk holds the rest). A chunk is encoded on its own (deltas restart at
// zero), so chunks decode independently and in any order, then compressed as one zstd frame.
// A column entry is {"name", "element_size", "encoding", "chunks": [[offset, length, raw_length,
// checksum], ...]}: offset is relative to the end of the header, length the stored (compressed)
// bytes, raw_length the encoded bytes before compression, checksum RunFile::checksum() of the
// stored bytes. Encodings (v = the chunk's values, d[i] = v[i] - v[i-1] with v[-1] = 0, computed
// modulo 2^(8 * element_size)):
//   "raw"           v as it lies in memory (element_size bytes each)
//   "delta"         d, element_size bytes each
//   "varint"        zig-zag LEB128 of v (sign-extended to 64 bits)
//   "delta_varint"  zig-zag LEB128 of d (sign-extended to 64 bits)
// The writer uses delta_varint for time_ns, addr, allocated, reserved and step (training runs
// reuse addresses and move the totals by one allocation at a time: most deltas fit 1-4 bytes),
// varint for size and raw for the small columns; zstd then finds the repeats of each step.
// Measured choice, see docs/DESIGN-LOG.md.
//
// Version 1 columns are stored raw, back to back: "columns" is [{"name", "element_size",
// "offset", "length", "checksum"}, ...] with length = N * element_size and checksum over the
// column's bytes. The header is not compressed.
//
// Values are little-endian in memory, so a little-endian host (x86-64, aarch64) is assumed.
//
// Readers accept any version up to their own and refuse newer ones with a message saying so.
// Fields a reader does not know are ignored, and header fields that are missing take their
// defaults, so a version can gain optional fields without a new number; the columns are not
// optional.

#include "io/run_file_cancelled.h"
#include "io/run_file_error.h"
#include "run/run_range.h"
#include "trace/trace.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace memscope {

class RunFile {
  public:
    static constexpr uint32_t kFormatVersion = 2;
    static constexpr size_t kPreambleSize = 20;  // magic, version, header length
    static constexpr uint64_t kDefaultChunkEvents = uint64_t(1) << 20;

    struct SaveOptions {
        // 1 writes the old uncompressed layout (for tests and the benchmark's comparison).
        uint32_t format_version = kFormatVersion;
        int compression_level = 3;  // zstd level
        // false: "delta" instead of "delta_varint" and "raw" instead of "varint" (measured in
        // bench_run_file; the varint encodings won, see docs/DESIGN-LOG.md)
        bool varints = true;
        uint64_t chunk_events = kDefaultChunkEvents;  // version 2 only
    };

    struct LoadOptions {
        // Called on the loading thread with a fraction that never decreases and ends at 1.
        std::function<void(double)> progress;
        // When set (by any thread), load() stops at the next chunk and throws RunFileCancelled.
        const std::atomic<bool>* cancel = nullptr;
        // Only this part of the run. Allocations live at the range start and freed inside it
        // become allocations present from the start (their free has no recorded alloc);
        // those live through the whole range get one synthetic Alloc each at the range start
        // (allocated column: the level before the range), so every byte the allocated column
        // counts belongs to an allocation. Segments alike. Spans and phase intervals outside
        // the range's time are dropped; operators, steps and summary stay whole-run.
        RunRange range;
        // A preview of a big run (issue 52, the GUI's first picture): only the column chunks
        // that hold the first this many events are read and decoded (0: all; version 1 files,
        // unchunked, load whole). The trace is those events, whole chunks of them, as a range
        // from the start keeps them; its summary is computed again (a Python program's
        // `program` kept), meta.source ends "; preview: the first N events of M", and
        // summary["preview"] = {"entries": N, "events_total": M, "offset": the byte the
        // chunks read reach, "file_bytes"}. A run of no more events than that loads whole,
        // unmarked.
        uint64_t preview_events = 0;
    };

    // Writes PATH.tmp and renames it over PATH, so a crash never leaves a half-written file under
    // the real name. Throws RunFileError (naming PATH) when the trace is inconsistent (columns of
    // different lengths, stack ids outside the table) or the file cannot be written.
    static void save(const Trace& trace, const std::string& path);
    static void save(const Trace& trace, const std::string& path, const SaveOptions& options);

    // Reads, validates and finalizes a trace. Throws RunFileError naming PATH and what is wrong
    // for anything short of a complete, consistent file; never reads outside it or allocates more
    // than it could hold. Version 2 columns decode on two threads.
    static Trace load(const std::string& path);
    static Trace load(const std::string& path, const LoadOptions& options);
    // The events a run file holds, from its header alone (checked as load() checks it; throws
    // RunFileError the same way): how big a run is before it is read.
    static uint64_t eventCount(const std::string& path);

    // The column checksum: 64 bits, word-wise (four independent multiply-rotate lanes over 8-byte
    // words, so it runs at memory speed), tail bytes included, length mixed in. Part of the file
    // format: changing it needs a new format version.
    static uint64_t checksum(const void* data, size_t bytes);
};

}  // namespace memscope
