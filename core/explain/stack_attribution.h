#pragma once

#include "trace/stack_table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// TraceSummary::moduleOf and operatorOf for every node of a stack table at once (one pass,
// parents before children), for views that label thousands of allocations: the innermost
// module ("backward of X" frames count) and the innermost operator, else autograd node.
class StackAttribution {
  public:
    explicit StackAttribution(const StackTable& stacks);

    // Frame ids, -1 for none; the names are the frames' names.
    int64_t moduleFrame(uint32_t node) const {
        return node < m_module.size() ? m_module[node] : -1;
    }
    int64_t operatorFrame(uint32_t node) const;
    const std::string& moduleOf(uint32_t node) const;
    const std::string& operatorOf(uint32_t node) const;

  private:
    const StackTable& m_stacks;
    std::vector<int64_t> m_module;
    std::vector<int64_t> m_operator;  // innermost Operator frame
    std::vector<int64_t> m_node;      // innermost BackwardNode frame
    std::string m_none;
};

}  // namespace memscope
