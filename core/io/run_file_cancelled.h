#pragma once

#include "io/run_file_error.h"

namespace memscope {

// A load stopped because its cancel flag was set: RunFile::load, or SnapshotImporter reading a
// pickle. A RunFileError, so callers that only catch those still catch it; the GUI tells it apart
// to show no error box.
class RunFileCancelled : public RunFileError {
  public:
    explicit RunFileCancelled(const std::string& path) : RunFileError(path, "loading cancelled") {}
};

}  // namespace memscope
