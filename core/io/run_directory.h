#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// A multi-rank recording: a directory holding one ordinary run file per rank (rank0.memscope,
// rank1.memscope, ...) and manifest.json:
//   {"format": "memscope-ranks", "version": 1, "world_size": N, "parallel": "zero3",
//    "global_batch_size": B, "ranks": [{"rank": 0, "file": "rank0.memscope"}, ...]}
// Every rank writes its own file (no rank waits for another to save), rank 0 the manifest; the
// files stay readable one by one with every tool that reads a .memscope.
struct RunDirectory {
    int world_size = 1;
    std::string parallel;
    int64_t global_batch_size = 0;
    std::vector<std::string> rank_files;  // relative to the directory, index = rank

    static constexpr const char* kManifestName = "manifest.json";
    static std::string rankFileName(int rank);  // "rank3.memscope"
    // A directory with a manifest, or the manifest itself.
    static bool isRunDirectory(const std::string& path);
    // Reads DIR/manifest.json (or the manifest path itself). Throws RunFileError naming the file
    // and the field.
    static RunDirectory load(const std::string& path);
    // Writes DIR/manifest.json. Throws RunFileError.
    void save(const std::string& dir) const;
    // The directory of a run directory path or of its manifest.
    static std::string directoryOf(const std::string& path);
    std::string rankPath(const std::string& dir, int rank) const;
};

}  // namespace memscope
