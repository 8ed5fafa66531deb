#pragma once

#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace memscope {

// The course's and the workshop's tables from the user's own runs (issue 53): runs that carry
// no recorded training configuration (PyTorch snapshots, Python programs) but whose sizes are
// known, from the user (`report --sizes ctx128.pickle:s=128,b=4`), from a `sweep --python`
// directory's points, or from a Python program's recorded command line (--context-length,
// --seq-len, --batch-size and their spellings). By convention s is the context (sequence)
// length and b the batch size; any other size (d, L, dtype given as a name) is part of the
// setting. Whether a run is a forward pass or a full step is read from the run itself: a run
// without a backward phase is forward-only.
class SizeTableChapter {
  public:
    using Sizes = std::map<std::string, std::string>;  // "s" -> "128", "dtype" -> "bf16"
    struct SizedRun {
        std::string name;
        const Trace* trace = nullptr;
        Sizes sizes;
    };

    // "s=128,b=4,dtype=bf16"; throws InputError naming `option` and the part that is not
    // NAME=VALUE.
    static Sizes parseSizes(const std::string& text, const std::string& option);
    // The sizes a Python program's recorded command line names (meta.config["program"]
    // ["argv"]): s from --context-length / --context_length / --seq-len / --seq_len /
    // --sequence-length / --block-size, b from --batch-size / --batch_size; {} when none.
    static Sizes sizesFromCommand(const nlohmann::json& config);
    // Whether the run has a backward phase (else it is forward-only).
    static bool hasBackward(const Trace& trace);

    // "#### Your runs by size": per setting (the sizes other than s and b), one row per (b, s)
    // with the forward pass's and the full step's peak, in MB and in bytes; then how the peaks
    // scale where one size varies with the other fixed (factor and exponent, the workshop's
    // sequence scaling), and runs that differ only by `dtype` against fp32 (the course's mixed
    // precision). "" when no run has an s or a b.
    static std::string markdown(const std::vector<SizedRun>& runs);
};

}  // namespace memscope
