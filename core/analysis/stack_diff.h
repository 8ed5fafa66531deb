#pragma once

#include "analysis/stack_tree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

class Trace;

// Per-stack difference of the bytes alive at each run's peak (A the baseline, B the other run).
// Stacks are matched by their frame text (StackTree::frameText, outermost first), so two runs
// with their own stack tables line up. The tree is a top-down StackTree of the difference:
// a node's bytes_a / bytes_b are the bytes alive at each peak below it, and `bytes` is the sum of
// |B - A| over the stacks below it (so boxes nest and grown and shrunk stacks both show).
class StackDiff {
  public:
    struct Row {
        std::vector<std::string> frames;  // outermost first
        int64_t bytes_a = 0;
        int64_t bytes_b = 0;
        int64_t delta() const { return bytes_b - bytes_a; }
    };

    // at_a / at_b: the events to compare, -1 for each run's peak.
    static StackDiff compare(const Trace& a, const Trace& b, int64_t at_a = -1, int64_t at_b = -1);
    // Joins frames for tables ("M > aten::linear > aten::addmm").
    static std::string describe(const std::vector<std::string>& frames);

    // Stacks whose bytes differ, the largest |B - A| first (then by text); equal ones are left
    // out.
    const std::vector<Row>& rows() const { return m_rows; }
    const StackTree& tree() const { return m_tree; }
    int64_t atA() const { return m_atA; }
    int64_t atB() const { return m_atB; }
    int64_t totalA() const { return m_tree.root().bytes_a; }
    int64_t totalB() const { return m_tree.root().bytes_b; }

  private:
    std::vector<Row> m_rows;
    StackTree m_tree;
    int64_t m_atA = -1;
    int64_t m_atB = -1;
};

}  // namespace memscope
