#pragma once

#include "predict/least_squares.h"
#include "predict/phase_peaks.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace memscope {

// A user's program's memory as a function of its sizes, fitted from a sweep of recordings at
// small sizes (memscope-cli sweep --python; issue 44), to predict sizes that cannot run here.
//
// The sizes are named d (model width), L (layers), s (context), b (batch), h (heads), d_ff
// (feed-forward width) and vocab; a sweep names those it varies or fixes, and a size it does not
// name counts as 1 (its effect, whatever it is, is folded into the coefficients, and a prediction
// that gives it is refused). Every measured peak (PhasePeaks: a phase's regions, in step 1 and in
// a later step, and the categories live there) is fitted by least squares as a sum of terms()
// with a known meaning: parameters, gradients and optimizer state (L*d^2, L*d*d_ff, vocab*d, ...),
// activations saved per layer (L*b*s*d, L*b*s*d_ff, L*b*h*s^2), the logits and loss
// (b*s*vocab), and what lives only at a phase's peak (one layer's b*s*d_ff or b*h*s^2, masks,
// rotary tables). A phase's predicted peak is the highest of its regions' predictions.
//
// The fit checks itself: a few sweep points (the largest ones whose absence leaves the terms as
// well determined) are left out of it and predicted, and every point's residual is kept.
// A prediction is refused, with the size to blame, where the sweep did not vary the sizes
// enough to tell the terms it needs apart (LeastSquares::determines): no silent extrapolation
// along a direction the data never saw.
class ProgramMemoryFit {
  public:
    struct Term {
        std::string name;     // "L*b*s*d"
        std::string meaning;  // "activations saved per layer, per width"
    };
    struct Sample {
        std::string label;
        std::map<std::string, int64_t> sizes;
        PhasePeaks peaks;
    };
    struct Residual {
        std::string label;
        std::string phase;  // "first/backward"
        int64_t measured = 0;
        int64_t predicted = 0;
        bool held_out = false;
        double relative() const {
            return measured != 0 ? double(predicted - measured) / double(measured) : 0.0;
        }
    };
    struct PhasePrediction {
        std::string phase;   // "first/backward"
        std::string region;  // where the peak is
        int64_t bytes = 0;
        std::array<int64_t, kCategoryCount> by_category{};
    };

    // The sizes a sweep may name, in display order.
    static const std::vector<std::string>& sizeNames();
    static const std::vector<Term>& terms();
    // Each term's value at `sizes`; a size missing there counts as 1.
    static std::vector<double> termValues(const std::map<std::string, int64_t>& sizes);

    // Fits every phase and region that all samples have. `held_out`: how many points to leave
    // out to check the fit (-1: about one in six, as many as the points allow). Throws
    // InputError when there are too few points for the terms the sizes can tell apart, or a
    // sample names a size that is not one of sizeNames().
    static ProgramMemoryFit fit(const std::vector<Sample>& samples, int held_out = -1);

    // The sizes the sweep named, and the values each took.
    const std::map<std::string, std::set<int64_t>>& sweptSizes() const { return m_swept; }
    size_t points() const { return m_points; }
    size_t heldOutPoints() const { return m_heldOut; }
    size_t rank() const { return m_ls ? m_ls->rank() : 0; }
    const std::vector<Residual>& residuals() const { return m_residuals; }
    // Phase keys the fit has ("first/forward", ... "steady/optimizer").
    std::vector<std::string> phases() const;
    // Coefficients (bytes per unit of each term) of a phase's region.
    std::vector<double> coefficients(const std::string& phase, const std::string& region) const;

    // Throws InputError naming the size when `at` lies outside what the fit can say: a size
    // the sweep did not name, a size the sweep named but `at` lacks, or a direction the sweep
    // did not vary. Sizes must be positive.
    void check(const std::map<std::string, int64_t>& at) const;
    // Each phase's predicted peak (check() first).
    std::vector<PhasePrediction> predict(const std::map<std::string, int64_t>& at) const;
    // The highest of the predictions.
    static int64_t highest(const std::vector<PhasePrediction>& predictions);
    // `at` with the sizes the sweep fixed (one value) that it lacks filled in; their names and
    // values ("h=4") go to `assumed` when given.
    std::map<std::string, int64_t> completed(std::map<std::string, int64_t> at,
                                             std::vector<std::string>* assumed = nullptr) const;
    // The largest batch b whose highest predicted peak `fits` accepts (0: not even 1), or -1
    // when the sweep did not vary b. Searched up to 2^24.
    int64_t largestBatch(const std::map<std::string, int64_t>& at,
                         const std::function<bool(int64_t peak_bytes)>& fits) const;
    // "d=2560,L=32,s=512,b=4" -> sizes; throws InputError naming the item.
    static std::map<std::string, int64_t> parseSizes(const std::string& text);

    nlohmann::json toJson() const;

  private:
    struct RegionFit {
        std::vector<double> total;
        std::array<std::vector<double>, kCategoryCount> by_category;
    };
    PhasePrediction predictPhase(const std::string& phase, const std::vector<double>& t) const;

    std::shared_ptr<LeastSquares> m_ls;
    std::map<std::string, std::map<std::string, RegionFit>> m_fits;  // phase -> region -> fit
    std::map<std::string, std::set<int64_t>> m_swept;
    std::vector<Residual> m_residuals;
    size_t m_points = 0;
    size_t m_heldOut = 0;
};

}  // namespace memscope
