#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// A multi-rank recording: a directory holding one ordinary run file per rank (rank0.memscope,
// rank1.memscope, ...) and manifest.json:
//   {"format": "memscope-ranks", "version": 1, "world_size": N, "parallel": "zero3",
//    "global_batch_size": B, "ranks": [{"rank": 0, "file": "rank0.memscope"}, ...]}
// A Python program's processes add to each entry "role", "pid" and, for a process-group member,
// "group_rank" and "group_size" (optional: older manifests have none).
// Every rank writes its own file (no rank waits for another to save), rank 0 the manifest; the
// files stay readable one by one with every tool that reads a .memscope.
struct RunDirectory {
    // Which process a rank file is, for a Python program's processes (io/program_processes.h):
    // its role ("worker", "spawn", "fork", "subprocess", "parent"), pid and, where it joined a
    // process group, its rank there (-1: none). Empty for the built-in trainer's ranks.
    struct Process {
        std::string role;
        int64_t pid = 0;
        int group_rank = -1;
        int group_size = 0;  // the process group's world size, 0: none
    };
    int world_size = 1;
    std::string parallel;
    int64_t global_batch_size = 0;
    std::vector<std::string> rank_files;  // relative to the directory, index = rank
    std::vector<Process> processes;       // parallel to rank_files, or empty

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
