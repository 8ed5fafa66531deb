#pragma once

#include "io/run_directory.h"
#include "run/run_range.h"
#include "trace/trace.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace memscope {

// Any run a user can open, behind one door for the CLI and the GUI: a .memscope run file, a
// PyTorch memory snapshot (memory_viz pickle, imported), a multi-rank run directory (or its
// manifest.json), or a recording journal a run left behind (recovered).
//
// Errors are one family: RunFileError, whose what() is "PATH: REASON" naming the file (and the
// option or field where one is at fault); RunFileCancelled, a RunFileError, when options.cancel
// was set. A snapshot's PickleError becomes a RunFileError naming the file; a snapshot damaged
// after something was read opens as what was read before the damage, marked partial
// (SnapshotImporter::ImportOptions::keep_partial).
class RunSource {
  public:
    enum class Kind { RunFile, Snapshot, RunDirectory, Journal };

    struct Options {
        RunRange range;  // only part of the run (run files and snapshots; a journal is whole)
        int rank = -1;   // run directories: the rank to open (-1: the first readable one)
        // Snapshots: the device to import (-1: the first with trace entries), or
        // SnapshotImporter::kHostDevice for the pinned host memory.
        int device = -1;
        // Called on the loading thread with a fraction in [0, 1] that never decreases.
        std::function<void(double)> progress;
        // When set (by any thread), loading stops soon and throws RunFileCancelled.
        const std::atomic<bool>* cancel = nullptr;
        // A preview of a big file (0: all): a snapshot's first this many trace entries
        // (SnapshotImporter::ImportOptions::preview_entries), a run file's first this many
        // events (RunFile::LoadOptions::preview_events). Other kinds open whole.
        uint64_t preview_entries = 0;
    };

    // Looks at PATH: throws RunFileError when it does not exist or a run directory's manifest
    // cannot be read.
    explicit RunSource(std::string path);

    const std::string& path() const { return m_path; }
    Kind kind() const { return m_kind; }
    static const char* kindName(Kind kind);  // "run file", "snapshot", ...

    // Run directories: the manifest, the folder and each rank's file (world size 1 otherwise).
    bool isMultiRank() const { return m_kind == Kind::RunDirectory; }
    int worldSize() const { return isMultiRank() ? m_manifest.world_size : 1; }
    const RunDirectory& manifest() const { return m_manifest; }
    const std::string& directory() const { return m_directory; }
    std::string rankPath(int rank) const;

    // Opens one trace: the file, or options.rank of a run directory (a rank that is not one
    // throws RunFileError naming --rank; -1 takes the first rank whose file exists).
    Trace open(const Options& options) const;
    // The rank open() takes for options.rank (-1: the first whose file exists).
    int rankToOpen(int rank) const;

    // Every rank of a run directory, one after the other; a rank that is missing or unreadable
    // gets its problem instead of a trace (cancelling still throws). One entry for a single run.
    struct Rank {
        int rank = 0;
        std::string path;
        std::shared_ptr<const Trace> trace;  // null when it could not be read
        std::string problem;                 // why not, "PATH: REASON"
    };
    std::vector<Rank> openRanks(const Options& options) const;

    // What a file holds, from its name and first bytes: a pickle starts with the PROTO opcode,
    // a journal and a run file with their magics.
    static Kind kindOfFile(const std::string& path);

  private:
    Trace openFile(const std::string& file, Kind kind, const Options& options) const;

    std::string m_path;
    Kind m_kind = Kind::RunFile;
    RunDirectory m_manifest;
    std::string m_directory;
};

}  // namespace memscope
