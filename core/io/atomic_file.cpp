#include "io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace memscope {

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
        }
        try {
            body(out);
        } catch (...) {
            out.close();
            std::remove(tmp.c_str());
            throw;
        }
        out.close();
        if (!out) {
            std::remove(tmp.c_str());
            throw std::runtime_error(path + ": write failed (disk full?)");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot write (" + reason + ")");
    }
}

}  // namespace memscope
