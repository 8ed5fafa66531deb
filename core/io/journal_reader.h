#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace memscope {

// Reads a recording journal (io/run_journal.h) while its run still appends to it: each poll()
// reads only the bytes appended since the one before and takes every chunk that is complete by
// then; a chunk the writer is still writing waits for the next poll. A chunk that fails its
// checksum or does not continue the one before ends the reading for good (failed()).
// JournalRecovery reads a dead run's journal with it in one poll. Not thread-safe: one thread
// at a time.
class JournalReader {
  public:
    explicit JournalReader(std::string path);
    ~JournalReader();
    JournalReader(const JournalReader&) = delete;
    JournalReader& operator=(const JournalReader&) = delete;

    // Reads what was appended since the last call. Returns the number of chunks taken (0: none
    // new). A file that does not exist (not yet, or no more: the run wrote its run file) reads
    // as nothing new. Throws RunFileError naming the path when the file is not a journal (wrong
    // magic, newer version).
    int64_t poll();

    const std::string& path() const { return m_path; }
    // A chunk was corrupt or did not continue the one before: nothing after it is taken.
    bool failed() const { return m_failed; }
    // Why the bytes after bytesKept() were not taken: the failure, or the chunk that is cut
    // short (still being written, or torn by a crash); empty when everything read was taken.
    std::string stopReason() const;
    int64_t chunks() const { return m_chunks; }
    int64_t bytesRead() const { return m_bytesRead; }  // of the file, header included
    int64_t bytesKept() const { return m_bytesKept; }  // in taken chunks, header included
    // True once a chunk with the run's metadata was taken (trace() has something to show).
    bool hasRun() const;
    int64_t eventCount() const;
    const std::vector<StepMetrics>& steps() const;
    // The largest `allocated` among the events taken (the run's peak so far).
    int64_t peakAllocated() const { return m_peak; }

    // What was taken so far as a finalized trace (a copy; the reader goes on). Its summary is
    // left empty. Throws RunFileError when the stack table is inconsistent.
    Trace trace() const;
    // The same, moving the data out: the reader is empty afterwards.
    Trace takeTrace();

  private:
    struct State;
    void readChunks();

    std::string m_path;
    std::unique_ptr<State> m_state;
    std::string m_pending;  // bytes read and not yet taken (the start of an incomplete chunk)
    int64_t m_bytesRead = 0;
    int64_t m_bytesKept = 0;
    int64_t m_chunks = 0;
    int64_t m_peak = 0;
    bool m_headerChecked = false;
    uint32_t m_version = 0;  // the journal's, from its header
    bool m_failed = false;
    std::string m_failure;
};

}  // namespace memscope
