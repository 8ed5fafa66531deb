#include "studies/sweep_file.h"

#include "io/atomic_file.h"
#include "io/file_error.h"

#include <filesystem>
#include <fstream>

namespace memscope {

std::string SweepFile::read(const std::string& path, const char* name,
                            const std::string& unreadable, nlohmann::json& json) {
    std::filesystem::path file(path);
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        file /= name;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw FileError(file.string(), unreadable);
    }
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw FileError(file.string(), std::string("not JSON: ") + e.what());
    }
    return file.string();
}

void SweepFile::write(const std::string& dir, const char* name, const nlohmann::json& json,
                      int indent) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    const std::string text = json.dump(indent);
    writeFileAtomically(path, [&text](std::ostream& out) { out << text << "\n"; });
}

}  // namespace memscope
