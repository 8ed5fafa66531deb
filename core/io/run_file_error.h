#pragma once

#include "io/file_error.h"

#include <string>

namespace memscope {

// A .memscope file could not be read or written. what() is "PATH: REASON", ready to show a user;
// path() and reason() (FileError's) give the parts for callers that lay them out themselves.
class RunFileError : public FileError {
  public:
    RunFileError(const std::string& path, const std::string& reason) : FileError(path, reason) {}
};

}  // namespace memscope
