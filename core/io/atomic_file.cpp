#include "io/atomic_file.h"

#include "io/file_error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace memscope {

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw FileError(path, std::string("cannot write (") + std::strerror(errno) + ")");
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
            throw FileError(path, "write failed (disk full?)");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw FileError(path, "cannot write (" + reason + ")");
    }
}

}  // namespace memscope
