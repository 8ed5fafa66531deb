#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace memscope {

// The JSON file a sweep directory holds (sweep.json of `sweep`, program_sweep.json of
// `sweep --python`): read from the directory or the file itself, written atomically.
class SweepFile {
  public:
    // DIR/name when `path` is a directory, else `path`; its JSON into `json`. Throws FileError
    // naming the file: `unreadable` says what to check when it cannot be read, or "not JSON".
    static std::string read(const std::string& path, const char* name,
                            const std::string& unreadable, nlohmann::json& json);
    // Writes DIR/name with the given indent, atomically. Throws FileError.
    static void write(const std::string& dir, const char* name, const nlohmann::json& json,
                      int indent);
};

}  // namespace memscope
