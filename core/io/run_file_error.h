#pragma once

#include <stdexcept>
#include <string>

namespace memscope {

// A .memscope file could not be read or written. what() is "PATH: REASON", ready to show a user;
// path() and reason() give the parts for callers that lay them out themselves.
class RunFileError : public std::runtime_error {
  public:
    RunFileError(const std::string& path, const std::string& reason)
        : std::runtime_error(path + ": " + reason), m_path(path), m_reason(reason) {}

    const std::string& path() const { return m_path; }
    const std::string& reason() const { return m_reason; }

  private:
    std::string m_path;
    std::string m_reason;
};

}  // namespace memscope
