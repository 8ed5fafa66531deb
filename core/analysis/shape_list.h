#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memscope {

// The input shapes of one op call as the recorder writes them ("[8, 128, 256], [256, 256], -":
// one entry per input, "-" for an input that is not a tensor), parsed back into sizes.
class ShapeList {
  public:
    // Text that does not follow the format gives an empty list (nothing is guessed from it).
    static ShapeList parse(const std::string& text);

    size_t size() const { return m_inputs.size(); }
    bool isTensor(size_t i) const { return i < m_inputs.size() && m_inputs[i].has_value(); }
    // Sizes of input i; empty for a non-tensor (and for a 0-d tensor).
    std::vector<int64_t> sizes(size_t i) const;
    // Elements of input i (1 for a 0-d tensor, 0 for a non-tensor).
    int64_t numel(size_t i) const;
    int64_t totalNumel() const;

    // FLOPs of a matmul-like op from its input shapes, 2*m*n*k per product (aten::mm, addmm,
    // bmm, baddbmm, the ops whose FLOPs the recorder counts), 0 for every other op.
    double matmulFlops(const std::string& op) const;
    // Whether op is one of those four.
    static bool isMatmul(const std::string& op);

  private:
    std::vector<std::optional<std::vector<int64_t>>> m_inputs;
};

}  // namespace memscope
