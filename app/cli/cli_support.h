#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "memscope_version.h"

namespace memscope::cli {

// Prints "memscope-cli: error: MESSAGE" on one line (to std::cerr) and returns exit status 2.
int reportUsageError(const std::string& message);
int reportUsageError(const std::string& message, std::ostream& err);

// 2617600 -> "2,617,600"
std::string withThousands(int64_t value);

// While alive, SIGINT/SIGTERM call `cancel` (which must be async-signal-safe: an atomic store)
// instead of killing the process, so an interrupted run still prints its partial summary.
class InterruptForwarder {
  public:
    explicit InterruptForwarder(std::function<void()> cancel);
    ~InterruptForwarder();
    InterruptForwarder(const InterruptForwarder&) = delete;
    InterruptForwarder& operator=(const InterruptForwarder&) = delete;
};

}  // namespace memscope::cli
