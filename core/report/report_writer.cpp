#include "report/report_writer.h"

#include "report/report.h"

namespace memscope {

std::string ReportWriter::markdown(const std::vector<Trace>& runs,
                                   const std::vector<std::string>& names,
                                   const std::vector<std::map<std::string, std::string>>& sizes) {
    return report_detail::Report(runs, names, sizes).write();
}

}  // namespace memscope
