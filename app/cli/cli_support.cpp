#include "cli_support.h"

#include <csignal>
#include <iostream>

namespace memscope::cli {

namespace {
std::function<void()> g_cancel;

extern "C" void onInterrupt(int) {
    if (g_cancel) {
        g_cancel();
    }
}
}  // namespace

int reportUsageError(const std::string& message) {
    return reportUsageError(message, std::cerr);
}

int reportUsageError(const std::string& message, std::ostream& err) {
    std::string line = message;
    if (const auto nl = line.find('\n'); nl != std::string::npos) {
        line.resize(nl);
    }
    err << "memscope-cli: error: " << line << "\n";
    return 2;
}

std::string withThousands(int64_t value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

InterruptForwarder::InterruptForwarder(std::function<void()> cancel) {
    g_cancel = std::move(cancel);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
}

InterruptForwarder::~InterruptForwarder() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    g_cancel = nullptr;
}

}  // namespace memscope::cli
