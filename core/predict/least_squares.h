#pragma once

#include <cstddef>
#include <vector>

namespace memscope {

// Linear least squares y ~ X c for a small design (tens of rows and columns), through the
// singular value decomposition of X with its columns scaled to unit size: rank-deficient designs
// (two terms that never vary apart in the data) get the minimum-norm solution, and
// determines(t) says whether the prediction t.c is the same for every solution, that is whether
// the data say anything about t (t lies in the row space of X). Used by ProgramMemoryFit.
class LeastSquares {
  public:
    // `rows`: one vector of term values per sample, all of the same length. Throws
    // std::logic_error on ragged rows.
    explicit LeastSquares(const std::vector<std::vector<double>>& rows);

    size_t rows() const { return m_rows; }
    size_t columns() const { return m_columns; }
    // Number of independent directions the data determine.
    size_t rank() const { return m_rank; }
    // Coefficients (one per column) of the minimum-norm least-squares solution for y
    // (one value per row).
    std::vector<double> solve(const std::vector<double>& y) const;
    // Whether t . c is the same for every least-squares solution c.
    bool determines(const std::vector<double>& t) const;

  private:
    size_t m_rows = 0;
    size_t m_columns = 0;
    size_t m_rank = 0;
    std::vector<double> m_scale;                // per column
    std::vector<std::vector<long double>> m_u;  // per kept singular value: left vector (rows)
    std::vector<std::vector<long double>> m_v;  // per singular value: right vector (columns)
    std::vector<long double> m_sigma;           // descending
};

}  // namespace memscope
