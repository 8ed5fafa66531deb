#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// Arithmetic intensity of a run, per operator and for a step, and the workshop's
// classification (below 10 FLOP/byte memory-bound, 10 to 100 mixed, above 100 compute-bound).
//
// The unit is an outermost operator call (an op not called by another op: aten::linear with the
// aten::addmm inside it is one call), so nothing is counted twice. Op calls without tensor
// inputs that only wrap other ops (autograd's "evaluate_function: MmBackward0") are not units:
// the calls inside them are.
//   FLOPs          matmul-like ops (mm, addmm, bmm, baddbmm) inside the call, 2*m*n*k from the
//                  recorded input shapes; other ops count 0 FLOPs
//   bytes read     ESTIMATED: the call's input tensors (recorded shapes) at the element size the
//                  run's dtype gives them (see elementSize), plus the first input again for
//                  in-place ops ("aten::add_"), which write it back; a call that is not
//                  in place and allocates nothing returned a view and reads nothing
//   bytes written  exact: the bytes the call allocated (its outputs and temporaries)
//   time           the call's wall time
// Without --record-shapes there are no shapes: no FLOPs, no bytes read, classification Unknown.
class Roofline {
  public:
    static constexpr double kMemoryBoundBelow = 10.0;    // FLOP/byte
    static constexpr double kComputeBoundAbove = 100.0;  // FLOP/byte
    enum class Bound { Unknown, MemoryBound, Mixed, ComputeBound };

    struct Entry {
        std::string name;
        int64_t calls = 0;
        double flops = 0;
        double bytes_read = 0;     // estimated
        double bytes_written = 0;  // allocated inside the calls
        int64_t time_ns = 0;
        bool shapes = false;  // input shapes were recorded for these calls

        double bytes() const { return bytes_read + bytes_written; }
        double intensity() const { return bytes() > 0 ? flops / bytes() : 0.0; }
        double flopsPerSecond() const { return time_ns > 0 ? flops * 1e9 / double(time_ns) : 0; }
        double bytesPerSecond() const {
            return time_ns > 0 ? bytes() * 1e9 / double(time_ns) : 0.0;
        }
        Bound bound() const {
            return shapes && bytes() > 0 ? classify(intensity()) : Bound::Unknown;
        }
    };

    static Roofline compute(const Trace& trace);
    static Bound classify(double flops_per_byte);
    static std::string toString(
        Bound bound);  // "memory-bound", "mixed", "compute-bound", "unknown"
    // Bytes per element of an op's inputs in a run of `dtype` ("fp32", "bf16", "fp16"): mixed
    // precision runs under autocast, which computes the matmul-like ops (mm, addmm, bmm,
    // baddbmm, matmul, linear) in the low-precision type and keeps the rest in fp32.
    static int elementSize(const std::string& op, const std::string& dtype);
    // Where a roofline with these peaks bends: peak FLOP/s over peak bytes/s.
    static double ridgePoint(double peak_flops_per_s, double peak_bytes_per_s);

    // Per operator name, most time first. Only calls inside the steps (initialisation excluded).
    std::vector<Entry> ops;
    // One average step: FLOPs, bytes and calls per step; time_ns is the step's wall time, so
    // its rates are what the whole step achieved.
    Entry step;
    int64_t steps = 0;
    bool shapes_recorded = false;
    std::string dtype;
};

}  // namespace memscope
