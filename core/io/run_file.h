#pragma once

// The native run file, .memscope.
//
// Layout (format version 1; all integers little-endian):
//
//   offset 0   8 bytes   magic "MEMSCOPE"
//   offset 8   uint32    format version (1)
//   offset 12  uint64    H: length of the CBOR header in bytes
//   offset 20  H bytes   the header, a CBOR map (nlohmann::json::to_cbor)
//   offset 20+H          the event columns, raw, back to back
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
//   "events"     the event count N
//   "columns"    [{"name", "element_size", "offset", "length", "checksum"}, ...], one per
//                EventColumns member: time_ns, addr, size, allocated, reserved, stack, step, kind,
//                phase, thread, device. offset is relative to the end of the header; length is
//                N * element_size; checksum is RunFile::checksum() of those bytes.
//
// Columns are stored exactly as they lie in memory, so a little-endian host (x86-64, aarch64) is
// assumed: that is what lets ten million events load with one read per column instead of ten
// million decoded values. The header is small (it grows with stacks and operators, not events).
//
// Readers accept any version up to their own and refuse newer ones with a message saying so.
// Fields a reader does not know are ignored, and header fields that are missing take their
// defaults, so version 1 can gain optional fields without a new number; the columns are not
// optional.

#include "io/run_file_error.h"
#include "trace/trace.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace memscope {

class RunFile {
  public:
    static constexpr uint32_t kFormatVersion = 1;
    static constexpr size_t kPreambleSize = 20;  // magic, version, header length

    // Writes PATH.tmp and renames it over PATH, so a crash never leaves a half-written file under
    // the real name. Throws RunFileError (naming PATH) when the trace is inconsistent (columns of
    // different lengths, stack ids outside the table) or the file cannot be written.
    static void save(const Trace& trace, const std::string& path);

    // Reads, validates and finalizes a trace. Throws RunFileError naming PATH and what is wrong
    // for anything short of a complete, consistent file; never reads outside it or allocates more
    // than it could hold.
    static Trace load(const std::string& path);

    // The column checksum: 64 bits, word-wise (four independent multiply-rotate lanes over 8-byte
    // words, so it runs at memory speed), tail bytes included, length mixed in. Part of the file
    // format: changing it needs a new format version.
    static uint64_t checksum(const void* data, size_t bytes);
};

}  // namespace memscope
