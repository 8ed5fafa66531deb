#include "source/run_source.h"

#include "interchange/snapshot_importer.h"
#include "io/journal_recovery.h"
#include "io/run_file.h"
#include "io/run_file_cancelled.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"
#include "pickle/pickle_error.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace memscope {

namespace {

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

}  // namespace

RunSource::Kind RunSource::kindOfFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    if (ext == ".pickle" || ext == ".pkl") {
        return Kind::Snapshot;
    }
    if (ext == ".journal") {
        return Kind::Journal;
    }
    if (ext == ".memscope") {
        return Kind::RunFile;
    }
    // Any other name: the first bytes tell (a pickle starts with the PROTO opcode 0x80).
    char head[8] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(head, sizeof head);
    const auto got = in.gcount();
    if (got >= 1 && static_cast<unsigned char>(head[0]) == 0x80) {
        return Kind::Snapshot;
    }
    if (got == 8 && std::memcmp(head, RunJournal::kMagic, 8) == 0) {
        return Kind::Journal;
    }
    return Kind::RunFile;  // RunFile::load says what is wrong with it
}

const char* RunSource::kindName(Kind kind) {
    switch (kind) {
        case Kind::RunFile:
            return "run file";
        case Kind::Snapshot:
            return "PyTorch memory snapshot";
        case Kind::RunDirectory:
            return "multi-rank run directory";
        case Kind::Journal:
            return "recording journal";
    }
    return "run";
}

RunSource::RunSource(std::string path) : m_path(std::move(path)) {
    std::error_code ec;
    if (!std::filesystem::exists(m_path, ec)) {
        throw RunFileError(m_path, "no such file or directory");
    }
    if (RunDirectory::isRunDirectory(m_path)) {
        m_kind = Kind::RunDirectory;
        m_manifest = RunDirectory::load(m_path);  // RunFileError naming the manifest
        m_directory = RunDirectory::directoryOf(m_path);
        return;
    }
    if (std::filesystem::is_directory(m_path, ec)) {
        throw RunFileError(m_path, std::string("a folder without ") + RunDirectory::kManifestName +
                                       ": not a multi-rank run");
    }
    m_kind = kindOfFile(m_path);
}

std::string RunSource::rankPath(int rank) const {
    return isMultiRank() ? m_manifest.rankPath(m_directory, rank) : m_path;
}

int RunSource::rankToOpen(int rank) const {
    if (!isMultiRank()) {
        return 0;
    }
    if (rank >= 0) {
        return rank;
    }
    for (int r = 0; r < m_manifest.world_size; ++r) {
        std::error_code ec;
        if (std::filesystem::exists(rankPath(r), ec)) {
            return r;
        }
    }
    return 0;
}

Trace RunSource::open(const Options& options) const {
    if (!isMultiRank()) {
        if (options.rank > 0) {
            throw RunFileError(m_path, "--rank: " + std::to_string(options.rank) +
                                           " given, but this is a single run, not a multi-rank "
                                           "run directory");
        }
        return openFile(m_path, m_kind, options);
    }
    const int rank = rankToOpen(options.rank);
    if (rank >= m_manifest.world_size) {
        throw RunFileError(m_path, "--rank: " + std::to_string(rank) + " is not a rank of this " +
                                       std::to_string(m_manifest.world_size) + "-rank run");
    }
    const std::string file = rankPath(rank);
    return openFile(file, kindOfFile(file), options);
}

std::vector<RunSource::Rank> RunSource::openRanks(const Options& options) const {
    std::vector<Rank> ranks;
    const int world = worldSize();
    for (int r = 0; r < world; ++r) {
        Rank rank;
        rank.rank = r;
        rank.path = rankPath(r);
        Options one = options;
        if (options.progress) {
            // Rank r covers [r/world, (r+1)/world) of the whole.
            one.progress = [&options, r, world](double f) {
                options.progress((double(r) + std::clamp(f, 0.0, 1.0)) / double(world));
            };
        }
        std::error_code ec;
        if (!std::filesystem::exists(rank.path, ec)) {
            rank.problem = rank.path + ": missing";
        } else {
            try {
                rank.trace = std::make_shared<const Trace>(
                    openFile(rank.path, isMultiRank() ? kindOfFile(rank.path) : m_kind, one));
            } catch (const RunFileCancelled&) {
                throw;
            } catch (const std::exception& e) {
                rank.problem = e.what();
            }
        }
        ranks.push_back(std::move(rank));
    }
    if (options.progress) {
        options.progress(1.0);
    }
    return ranks;
}

Trace RunSource::openFile(const std::string& file, Kind kind, const Options& options) const {
    switch (kind) {
        case Kind::Snapshot: {
            SnapshotImporter::ImportOptions import;
            import.range = options.range;
            import.cancel = options.cancel;
            // A damaged snapshot shows what was read before the damage, marked partial.
            import.keep_partial = true;
            import.preview_entries = options.preview_entries;
            if (options.progress) {
                // Reading the pickle is most of an import, converting the entries and
                // finalizing the trace the rest: bench_pickle_import on a 310 MB, 6.5M-entry
                // snapshot read for 0.57 to 0.74 of the wall time over ten runs, median 0.68.
                constexpr double kReadShare = 0.7;
                import.progress = [&options](uint64_t bytes, uint64_t size) {
                    if (size > 0) {
                        options.progress(kReadShare * double(bytes) / double(size));
            }
        };
    }
    try {
        Trace trace = SnapshotImporter::import(file, options.device, import);
        if (options.progress) {
            options.progress(1.0);
        }
        return trace;
    } catch (const RunFileError&) {
        throw;
    } catch (const PickleError& e) {
        // Its text is "PATH: [opcode at offset: ]REASON": keep all after the path.
        const std::string what = e.what();
        const std::string prefix = e.path() + ": ";
        throw RunFileError(file, what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
    }
}
case Kind::Journal: {
    if (!options.range.isAll()) {
        throw RunFileError(file,
                           "--range: a journal is recovered whole; recover it "
                           "into a run file first (memscope-cli recover)");
    }
    Trace trace = JournalRecovery::recover(file).trace;
    if (options.progress) {
        options.progress(1.0);
    }
    return trace;
}
case Kind::RunFile:
case Kind::RunDirectory: {
    RunFile::LoadOptions load;
    load.range = options.range;
    load.cancel = options.cancel;
    load.progress = options.progress;
    load.preview_events = options.preview_entries;
    return RunFile::load(file, load);
}
}  // namespace memscope
throw RunFileError(file, "unknown kind of run");
}

}  // namespace memscope
