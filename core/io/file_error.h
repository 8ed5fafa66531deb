#pragma once

#include "model/error.h"

#include <string>

namespace memscope {

// A file that could not be read or written. what() is "PATH: REASON", ready to show a user;
// path() and reason() give the parts for callers that lay them out themselves. RunFileError is
// the run files' own (RunSource's one error family); this one is every other file's (exports,
// sweep files, anything written through writeFileAtomically).
class FileError : public Error {
  public:
    FileError(const std::string& path, const std::string& reason)
        : Error(path + ": " + reason), m_path(path), m_reason(reason) {}

    const std::string& path() const { return m_path; }
    const std::string& reason() const { return m_reason; }

  private:
    std::string m_path;
    std::string m_reason;
};

}  // namespace memscope
