#pragma once

// The recording journal, RUN.memscope.journal: what a run recorded so far, on disk while it is
// recorded, so that a crash, kill -9 or power loss loses at most the last second.
//
// Layout (journal version 3; all integers little-endian):
//
//   offset 0   8 bytes   magic "MSJOURNL"
//   offset 8   uint32    journal version (3)
//   offset 12  chunks, back to back, appended and never rewritten:
//                4 bytes   chunk magic "MSJC"
//                uint32    P: payload length in bytes
//                uint32    CRC-32C (Castagnoli, io/crc32.h) of the payload; version 1, which
//                          readers still recover, has CRC-32 (IEEE, as zlib's crc32) here
//                P bytes   the payload, a CBOR map (written by io/cbor_pieces.h, read with
//                          nlohmann::json::from_cbor)
//
// A chunk carries what the trace gained since the chunk before it. Every list says where it
// continues ("..._first", the index of its first entry in the whole run), so a reader can check
// that nothing is missing in between:
//   "meta"          RunMetadata::toJson() (the first chunk, and again when it changes)
//   "frame_first", "frames"   new StackTable frames, [[name, file, line, kind], ...]
//   "node_first", "parents", "node_frames"   new stack nodes, uint32 byte arrays
//   "event_first", "events"   new events: {"count": N, column name: byte array}, one array per
//                 EventColumns member, encoded as eventEncoding() says (io/column_codec.h):
//                 delta varints, but varints for "size" and raw bytes for "kind" and "phase"
//   "span_first", "spans"     new spans: {"count": N, "end_ns", "duration_ns" (end - begin),
//                 "stack", "thread", "shapes"}, encoded as spanEncoding() says: delta varints,
//                 but varints for "duration_ns" and "shapes"
//   "phase_first", "phases"   [[phase, step, begin_ns, end_ns], ...]; the last phase of the chunk
//                 before is sent again, because it may have ended since
//   "shape_first", "shapes"   new input-shape strings
//   "step_first", "steps"     new StepMetrics::toJson()
//   "operators"   [OperatorStat::toJson(), ...]: the whole table so far (replaces the last one)
//
// Versions 1 and 2, which readers still recover, store the event columns as they lie in memory
// (no "count"), and the spans as {"begin_ns", "end_ns", "stack", "thread", "shapes"} arrays of
// int64, int64, uint32, uint16 and uint32. Version 3's encoding takes a workshop-default step
// from 625 to about 190 KiB (bench_journal).
//
// A reader (JournalRecovery) keeps every chunk whose checksum matches, in order, and stops at the
// first that is torn or does not continue the one before. Data reaches the disk with fdatasync
// at most once a second (RunJournal::kSyncInterval): the journal is written by the thread that
// drains the recorder, never by the threads that allocate.

#include "io/cbor_pieces.h"
#include "io/column_codec.h"
#include "trace/trace.h"

#include <sys/uio.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace memscope {

class RunJournal {
  public:
    static constexpr char kMagic[9] = "MSJOURNL";
    static constexpr char kChunkMagic[5] = "MSJC";
    static constexpr uint32_t kVersion = 3;
    static constexpr uint32_t kOldestVersion = 1;
    static constexpr size_t kFileHeaderSize = 12;
    static constexpr size_t kChunkHeaderSize = 12;
    static constexpr std::chrono::milliseconds kSyncInterval{1000};

    // RUN.journal: the journal that belongs to the run file RUN.
    static std::string pathFor(const std::string& run_path);
    static bool isJournalPath(const std::string& path);
    // The run file a journal belongs to (the path without ".journal").
    static std::string runPathFor(const std::string& journal_path);
    // The checksum of a chunk's payload in a journal of `version`: CRC-32C from version 2 on,
    // CRC-32 (IEEE 802.3, reflected, the one zlib and PNG use) in version 1.
    static uint32_t checksum(uint32_t version, const void* data, size_t bytes);
    // How version 3 encodes each event column (EventColumns' member names) and span column
    // ("end_ns", "duration_ns", "stack", "thread", "shapes").
    static ColumnEncoding eventEncoding(std::string_view column);
    static ColumnEncoding spanEncoding(std::string_view column);

    // The versions the writer can write, oldest first: kOldestVersion to kVersion. Older ones are
    // for the tests that check a newer reader still recovers them, and for bench_journal.
    static std::vector<uint32_t> writableVersions();

    // Creates (or truncates) PATH and writes the file header of a journal of `version`. Throws
    // RunFileError naming PATH; InputError for a version it cannot write.
    explicit RunJournal(std::string path, uint32_t version = kVersion);
    ~RunJournal();  // closes the file and keeps it
    RunJournal(const RunJournal&) = delete;
    RunJournal& operator=(const RunJournal&) = delete;

    // Appends a chunk with what `trace` gained since the last append (nothing when it gained
    // nothing) and syncs when the last sync is kSyncInterval old. `operators` also writes the
    // trace's operator table. Throws RunFileError when the disk refuses.
    void append(const Trace& trace, bool operators = false);
    // True when the next append will sync: the time to refresh what is cheap only once a second.
    bool syncDue() const;
    // Forces what was appended to the disk now.
    void sync();
    // Closes and deletes the journal: the run file is safely written.
    void remove();

    const std::string& path() const { return m_path; }
    int64_t eventsWritten() const { return m_events; }
    // Events known to be on the disk (written before the last sync).
    int64_t eventsSynced() const { return m_eventsSynced; }
    int64_t chunks() const { return m_chunks; }

  private:
    // A buffer of at least `bytes` bytes for version 3's encoded columns, kept between appends.
    uint8_t* arena(size_t bytes);
    // Writes the pieces in order (one writev, more only when the kernel takes part of them).
    void writeAll(std::vector<iovec> pieces);

    std::string m_path;
    uint32_t m_version = kVersion;
    int m_fd = -1;
    std::chrono::steady_clock::time_point m_lastSync;
    bool m_dirty = false;
    int64_t m_chunks = 0;
    size_t m_frames = 0;
    size_t m_nodes = 0;
    int64_t m_events = 0;
    int64_t m_eventsSynced = 0;
    size_t m_spans = 0;
    size_t m_phases = 0;
    int64_t m_phaseEnd = 0;
    size_t m_shapes = 0;
    size_t m_steps = 0;
    nlohmann::json m_meta;
    // Kept between appends, so that a chunk's encoding allocates nothing once the run is going.
    CborPieces m_pieces;
    std::vector<int64_t> m_spanBegin, m_spanEnd;
    std::vector<uint32_t> m_spanStack, m_spanShapes;
    std::vector<uint16_t> m_spanThread;
    std::unique_ptr<uint8_t[]> m_arena;
    size_t m_arenaBytes = 0;
};

}  // namespace memscope
