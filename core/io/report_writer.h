#pragma once

#include "trace/trace.h"

#include <string>
#include <vector>

namespace memscope {

// A Markdown report from one or more recorded runs (see report_writer.cpp).
class ReportWriter {
  public:
    static std::string markdown(const std::vector<Trace>& runs,
                                const std::vector<std::string>& names = {});
};

}  // namespace memscope
