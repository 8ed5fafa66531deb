#include "io/run_directory.h"

#include "io/run_file_error.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace memscope {

namespace fs = std::filesystem;

std::string RunDirectory::rankFileName(int rank) {
    return "rank" + std::to_string(rank) + ".memscope";
}

bool RunDirectory::isRunDirectory(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        return fs::is_regular_file(fs::path(path) / kManifestName, ec);
    }
    return fs::path(path).filename() == kManifestName && fs::is_regular_file(path, ec);
}

std::string RunDirectory::directoryOf(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        return path;
    }
    const auto parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

RunDirectory RunDirectory::load(const std::string& path) {
    const std::string manifest = (fs::path(directoryOf(path)) / kManifestName).string();
    std::ifstream in(manifest);
    if (!in) {
        throw RunFileError(manifest, "cannot read the manifest of a multi-rank run");
    }
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
        throw RunFileError(manifest, std::string("not JSON: ") + e.what());
    }
    RunDirectory run;
    // Every field read names itself when it is missing or of the wrong type.
    auto field = [&manifest](const nlohmann::json& object, const char* name,
                             const std::string& where) -> const nlohmann::json& {
        if (!object.is_object() || !object.contains(name)) {
            throw RunFileError(manifest, "field '" + where + name + "' is missing");
        }
        return object.at(name);
    };
    auto integer = [&](const nlohmann::json& object, const char* name, const std::string& where) {
        const auto& value = field(object, name, where);
        if (!value.is_number_integer()) {
            throw RunFileError(manifest, "field '" + where + name + "' is not a whole number");
        }
        return value.get<int64_t>();
    };
    if (!json.is_object() || json.value("format", std::string()) != "memscope-ranks") {
        throw RunFileError(manifest, "field 'format' is not \"memscope-ranks\"");
    }
    const int64_t world = integer(json, "world_size", "");
    if (world < 1 || world > 65536) {
        throw RunFileError(manifest, "field 'world_size' (" + std::to_string(world) +
                                         ") is not between 1 and 65536");
    }
    run.world_size = int(world);
    if (json.contains("parallel") && json["parallel"].is_string()) {
        run.parallel = json["parallel"].get<std::string>();
    }
    if (json.contains("global_batch_size") && json["global_batch_size"].is_number_integer()) {
        run.global_batch_size = json["global_batch_size"].get<int64_t>();
    }
    const auto& ranks = field(json, "ranks", "");
    if (!ranks.is_array()) {
        throw RunFileError(manifest, "field 'ranks' is not a list");
    }
    for (const auto& r : ranks) {
        const std::string where = "ranks[" + std::to_string(run.rank_files.size()) + "].";
        const int64_t rank = integer(r, "rank", where);
        if (rank != int64_t(run.rank_files.size())) {
            throw RunFileError(manifest, "field 'ranks': ranks not listed as 0..N-1");
        }
        const auto& file_value = field(r, "file", where);
        const std::string file = file_value.is_string() ? file_value.get<std::string>() : "";
        if (file.empty() || fs::path(file).has_parent_path() || file == "." || file == "..") {
            throw RunFileError(manifest, "field '" + where +
                                             "file' is not a file name in the "
                                             "directory");
        }
        run.rank_files.push_back(file);
        if (r.contains("role") || r.contains("pid")) {
            Process process;
            process.role = r.value("role", std::string());
            process.pid =
                r.contains("pid") && r["pid"].is_number_integer() ? r["pid"].get<int64_t>() : 0;
            process.group_rank = r.contains("group_rank") && r["group_rank"].is_number_integer()
                                     ? r["group_rank"].get<int>()
                                     : -1;
            process.group_size = r.contains("group_size") && r["group_size"].is_number_integer()
                                     ? r["group_size"].get<int>()
                                     : 0;
            run.processes.resize(run.rank_files.size() - 1);
            run.processes.push_back(process);
        }
    }
    if (!run.processes.empty()) {
        run.processes.resize(run.rank_files.size());
    }
    if (run.world_size < 1 || int(run.rank_files.size()) != run.world_size) {
        throw RunFileError(manifest, "field 'world_size' (" + std::to_string(run.world_size) +
                                         ") does not match the " +
                                         std::to_string(run.rank_files.size()) + " ranks listed");
    }
    return run;
}

void RunDirectory::save(const std::string& dir) const {
    nlohmann::json ranks = nlohmann::json::array();
    for (size_t r = 0; r < rank_files.size(); ++r) {
        nlohmann::json entry = {{"rank", int(r)}, {"file", rank_files[r]}};
        if (r < processes.size()) {
            entry["role"] = processes[r].role;
            entry["pid"] = processes[r].pid;
            if (processes[r].group_rank >= 0) {
                entry["group_rank"] = processes[r].group_rank;
                entry["group_size"] = processes[r].group_size;
            }
        }
        ranks.push_back(std::move(entry));
    }
    const nlohmann::json json = {{"format", "memscope-ranks"},
                                 {"version", 1},
                                 {"world_size", world_size},
                                 {"parallel", parallel},
                                 {"global_batch_size", global_batch_size},
                                 {"ranks", ranks}};
    const std::string path = (fs::path(dir) / kManifestName).string();
    std::ofstream out(path);
    if (!out) {
        throw RunFileError(path, "cannot write the manifest");
    }
    out << json.dump(2) << "\n";
    if (!out) {
        throw RunFileError(path, "cannot write the manifest");
    }
}

std::string RunDirectory::rankPath(const std::string& dir, int rank) const {
    return (fs::path(dir) / rank_files.at(size_t(rank))).string();
}

}  // namespace memscope
