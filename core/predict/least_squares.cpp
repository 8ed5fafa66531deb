#include "predict/least_squares.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace memscope {

namespace {

// Relative size below which a singular value counts as zero (the columns are scaled to unit
// size, so this is a relative condition number; exact collinearity leaves ~1e-16).
constexpr long double kRankTolerance = 1e-9L;
// Relative size of t's part outside the row space below which t is determined.
constexpr long double kRowSpaceTolerance = 1e-7L;

}  // namespace

LeastSquares::LeastSquares(const std::vector<std::vector<double>>& rows) {
    m_rows = rows.size();
    m_columns = rows.empty() ? 0 : rows.front().size();
    for (const auto& r : rows) {
        if (r.size() != m_columns) {
            throw std::logic_error("LeastSquares: rows of different lengths");
        }
    }
    const size_t m = m_rows;
    const size_t n = m_columns;
    m_scale.assign(n, 1.0);
    // a: columns of the scaled design; v: the rotations applied (one-sided Jacobi).
    std::vector<std::vector<long double>> a(n, std::vector<long double>(m));
    for (size_t j = 0; j < n; ++j) {
        long double norm = 0;
        for (size_t i = 0; i < m; ++i) {
            norm += static_cast<long double>(rows[i][j]) * rows[i][j];
        }
        norm = std::sqrt(norm);
        m_scale[j] = norm > 0 ? static_cast<double>(norm) : 1.0;
        for (size_t i = 0; i < m; ++i) {
            a[j][i] = rows[i][j] / static_cast<long double>(m_scale[j]);
        }
    }
    std::vector<std::vector<long double>> v(n, std::vector<long double>(n, 0));
    for (size_t j = 0; j < n; ++j) {
        v[j][j] = 1;
    }
    for (int sweep = 0; sweep < 100; ++sweep) {
        bool rotated = false;
        for (size_t p = 0; p + 1 < n; ++p) {
            for (size_t q = p + 1; q < n; ++q) {
                long double alpha = 0, beta = 0, gamma = 0;
                for (size_t i = 0; i < m; ++i) {
                    alpha += a[p][i] * a[p][i];
                    beta += a[q][i] * a[q][i];
                    gamma += a[p][i] * a[q][i];
                }
                if (std::fabs(gamma) <= 1e-30L ||
                    std::fabs(gamma) <= 1e-18L * std::sqrt(alpha * beta)) {
                    continue;
                }
                rotated = true;
                const long double zeta = (beta - alpha) / (2 * gamma);
                const long double t =
                    (zeta >= 0 ? 1 : -1) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
                const long double c = 1 / std::sqrt(1 + t * t);
                const long double s = c * t;
                for (size_t i = 0; i < m; ++i) {
                    const long double x = a[p][i];
                    const long double y = a[q][i];
                    a[p][i] = c * x - s * y;
                    a[q][i] = s * x + c * y;
                }
                for (size_t i = 0; i < n; ++i) {
                    const long double x = v[p][i];
                    const long double y = v[q][i];
                    v[p][i] = c * x - s * y;
                    v[q][i] = s * x + c * y;
                }
            }
        }
        if (!rotated) {
            break;
        }
    }
    std::vector<long double> sigma(n);
    for (size_t j = 0; j < n; ++j) {
        long double norm = 0;
        for (size_t i = 0; i < m; ++i) {
            norm += a[j][i] * a[j][i];
        }
        sigma[j] = std::sqrt(norm);
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return sigma[x] > sigma[y]; });
    const long double largest = n > 0 ? sigma[order.front()] : 0;
    for (const size_t j : order) {
        const bool kept = largest > 0 && sigma[j] > kRankTolerance * largest;
        m_sigma.push_back(sigma[j]);
        m_v.push_back(v[j]);
        std::vector<long double> u(m, 0);
        if (kept) {
            ++m_rank;
            for (size_t i = 0; i < m; ++i) {
                u[i] = a[j][i] / sigma[j];
            }
        }
        m_u.push_back(std::move(u));
    }
}

std::vector<double> LeastSquares::solve(const std::vector<double>& y) const {
    if (y.size() != m_rows) {
        throw std::logic_error("LeastSquares::solve: one value per row expected");
    }
    std::vector<long double> c(m_columns, 0);
    for (size_t k = 0; k < m_rank; ++k) {
        long double dot = 0;
        for (size_t i = 0; i < m_rows; ++i) {
            dot += m_u[k][i] * y[i];
        }
        const long double w = dot / m_sigma[k];
        for (size_t j = 0; j < m_columns; ++j) {
            c[j] += w * m_v[k][j];
        }
    }
    std::vector<double> out(m_columns);
    for (size_t j = 0; j < m_columns; ++j) {
        out[j] = static_cast<double>(c[j] / m_scale[j]);
    }
    return out;
}

bool LeastSquares::determines(const std::vector<double>& t) const {
    if (t.size() != m_columns) {
        throw std::logic_error("LeastSquares::determines: one value per column expected");
    }
    // In scaled coordinates t becomes t_j / scale_j; its part along the null space (the right
    // singular vectors past the rank) must vanish.
    long double norm = 0;
    for (size_t j = 0; j < m_columns; ++j) {
        const long double x = static_cast<long double>(t[j]) / m_scale[j];
        norm += x * x;
    }
    norm = std::sqrt(norm);
    if (norm == 0) {
        return true;
    }
    for (size_t k = m_rank; k < m_columns; ++k) {
        long double dot = 0;
        for (size_t j = 0; j < m_columns; ++j) {
            dot += m_v[k][j] * static_cast<long double>(t[j]) / m_scale[j];
        }
        if (std::fabs(dot) > kRowSpaceTolerance * norm) {
            return false;
        }
    }
    return true;
}

}  // namespace memscope
