#include "analysis/roofline.h"

#include "analysis/shape_list.h"
#include "analysis/span_nesting.h"
#include "trace/recorded_options.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace memscope {

namespace {

// Allocations per recorder thread in time order, with running byte sums, to add up what a call
// allocated between its begin and end.
class AllocatedBetween {
  public:
    explicit AllocatedBetween(const EventColumns& events) {
        for (size_t i = 0; i < events.count(); ++i) {
            if (static_cast<EventKind>(events.kind[i]) != EventKind::Alloc) {
                continue;
            }
            auto& t = m_threads[events.thread[i]];
            if (t.sums.empty()) {
                t.sums.push_back(0);
            }
            t.times.push_back(events.time_ns[i]);
            t.sums.push_back(t.sums.back() + events.size[i]);
        }
        for (auto& [thread, t] : m_threads) {
            // events arrive in time order overall; keep the search valid if a thread's are not
            if (!std::is_sorted(t.times.begin(), t.times.end())) {
                t.sorted = false;
            }
        }
    }

    int64_t bytes(uint16_t thread, int64_t begin, int64_t end) const {
        auto it = m_threads.find(thread);
        if (it == m_threads.end() || !it->second.sorted) {
            return 0;
        }
        const auto& t = it->second;
        const auto lo = std::lower_bound(t.times.begin(), t.times.end(), begin) - t.times.begin();
        const auto hi = std::upper_bound(t.times.begin(), t.times.end(), end) - t.times.begin();
        return hi > lo ? t.sums[size_t(hi)] - t.sums[size_t(lo)] : 0;
    }

  private:
    struct Thread {
        std::vector<int64_t> times;
        std::vector<int64_t> sums;  // sums[i]: bytes of the first i allocations
        bool sorted = true;
    };
    std::unordered_map<uint16_t, Thread> m_threads;
};

}  // namespace

Roofline::Bound Roofline::classify(double flops_per_byte) {
    if (flops_per_byte < kMemoryBoundBelow) {
        return Bound::MemoryBound;
    }
    if (flops_per_byte > kComputeBoundAbove) {
        return Bound::ComputeBound;
    }
    return Bound::Mixed;
}

std::string Roofline::toString(Bound bound) {
    switch (bound) {
        case Bound::MemoryBound:
            return "memory-bound";
        case Bound::Mixed:
            return "mixed";
        case Bound::ComputeBound:
            return "compute-bound";
        case Bound::Unknown:
            break;
    }
    return "unknown";
}

int Roofline::elementSize(const std::string& op, const std::string& dtype) {
    if (dtype != "bf16" && dtype != "fp16") {
        return 4;
    }
    const bool low_precision =
        ShapeList::isMatmul(op) || op == "aten::matmul" || op == "aten::linear";
    return low_precision ? 2 : 4;
}

double Roofline::ridgePoint(double peak_flops_per_s, double peak_bytes_per_s) {
    return peak_bytes_per_s > 0 ? peak_flops_per_s / peak_bytes_per_s : 0.0;
}

Roofline Roofline::compute(const Trace& trace) {
    Roofline out;
    const auto options = recordedOptions(trace.meta);
    out.dtype = memscope::toString(options ? options->dtype : Dtype::Float32);
    const auto& spans = trace.spans;
    const auto& stacks = trace.stacks;
    auto frame_of = [&](const Span& s) -> const Frame& {
        return stacks.frame(stacks.frameOf(s.stack));
    };
    auto is_op = [&](size_t i) {
        return spans[i].stack < stacks.nodeCount() &&
               frame_of(spans[i]).kind == FrameKind::Operator;
    };

    // The steps' time window (phases of step 1 on); without phases, everything.
    int64_t begin = INT64_MIN;
    int64_t end = INT64_MAX;
    std::set<int32_t> step_numbers;
    for (const auto& p : trace.phases) {
        if (p.step < 1) {
            continue;
        }
        begin = step_numbers.empty() ? p.begin_ns : std::min(begin, p.begin_ns);
        end = step_numbers.empty() ? p.end_ns : std::max(end, p.end_ns);
        step_numbers.insert(p.step);
    }
    out.steps = step_numbers.empty() ? 1 : static_cast<int64_t>(step_numbers.size());

    const SpanNesting nesting(trace);
    // Wrappers such as "autograd::engine::evaluate_function: MmBackward0" are op calls without
    // tensor inputs around other op calls: they move no data themselves, so the calls inside
    // them are the units.
    std::vector<bool> has_child_op(spans.size(), false);
    for (size_t i = 0; i < spans.size(); ++i) {
        if (!is_op(i)) {
            continue;
        }
        // the nearest op around it (autograd nodes and modules may sit in between)
        for (int64_t p = nesting.parent(i); p >= 0; p = nesting.parent(size_t(p))) {
            if (is_op(size_t(p))) {
                has_child_op[size_t(p)] = true;
                break;
            }
        }
    }
    std::vector<bool> unit(spans.size(), false);
    for (size_t i = 0; i < spans.size(); ++i) {
        if (!is_op(i)) {
            continue;
        }
        const Span& s = spans[i];
        bool tensor_input = true;  // unknown without shapes: keep the call
        if (s.shapes != 0 && s.shapes < trace.shape_strings.size()) {
            const auto shapes = ShapeList::parse(trace.shape_strings[s.shapes]);
            tensor_input = false;
            for (size_t k = 0; k < shapes.size() && !tensor_input; ++k) {
                tensor_input = shapes.isTensor(k);
            }
        }
        unit[i] = tensor_input || !has_child_op[i];
    }
    // The outermost unit around each op span (itself when it is outermost).
    std::vector<int64_t> outermost(spans.size(), -1);
    for (size_t i = 0; i < spans.size(); ++i) {
        if (!unit[i]) {
            continue;
        }
        int64_t top = static_cast<int64_t>(i);
        for (int64_t p = nesting.parent(i); p >= 0; p = nesting.parent(size_t(p))) {
            if (unit[size_t(p)]) {
                top = p;
            }
        }
        outermost[i] = top;
    }
    std::vector<double> call_flops(spans.size(), 0.0);
    for (size_t i = 0; i < spans.size(); ++i) {
        const Span& s = spans[i];
        if (outermost[i] < 0 || s.shapes == 0 || s.shapes >= trace.shape_strings.size()) {
            continue;
        }
        out.shapes_recorded = true;
        const std::string& name = frame_of(s).name;
        if (ShapeList::isMatmul(name)) {
            call_flops[size_t(outermost[i])] +=
                ShapeList::parse(trace.shape_strings[s.shapes]).matmulFlops(name);
        }
    }

    const AllocatedBetween allocated(trace.events);
    std::map<std::string, Entry> by_name;
    for (size_t i = 0; i < spans.size(); ++i) {
        const Span& s = spans[i];
        if (outermost[i] != static_cast<int64_t>(i) || s.begin_ns < begin || s.begin_ns > end) {
            continue;
        }
        const std::string& name = frame_of(s).name;
        Entry& e = by_name[name];
        e.name = name;
        e.calls += 1;
        e.flops += call_flops[i];
        e.time_ns += s.end_ns - s.begin_ns;
        const int64_t written = allocated.bytes(s.thread, s.begin_ns, s.end_ns);
        e.bytes_written += double(written);
        if (s.shapes != 0 && s.shapes < trace.shape_strings.size()) {
            e.shapes = true;
            const bool in_place = !name.empty() && name.back() == '_';
            // A call that allocates nothing and writes nothing in place returned a view
            // (reshape, transpose, to() of the same dtype): it moved no data.
            if (written > 0 || in_place) {
                const auto shapes = ShapeList::parse(trace.shape_strings[s.shapes]);
                const int element = elementSize(name, out.dtype);
                double read = double(shapes.totalNumel()) * element;
                if (in_place) {
                    read += double(shapes.numel(0)) * element;  // written back
                }
                e.bytes_read += read;
            }
        }
    }
    Entry total;
    total.name = "step";
    total.shapes = out.shapes_recorded;
    for (auto& [name, e] : by_name) {
        total.calls += e.calls;
        total.flops += e.flops;
        total.bytes_read += e.bytes_read;
        total.bytes_written += e.bytes_written;
        out.ops.push_back(std::move(e));
    }
    std::sort(out.ops.begin(), out.ops.end(), [](const Entry& a, const Entry& b) {
        return a.time_ns != b.time_ns ? a.time_ns > b.time_ns : a.name < b.name;
    });
    const double n = double(out.steps);
    total.calls = static_cast<int64_t>(double(total.calls) / n + 0.5);
    total.flops /= n;
    total.bytes_read /= n;
    total.bytes_written /= n;
    if (!step_numbers.empty()) {
        total.time_ns = static_cast<int64_t>(double(end - begin) / n);
    } else if (!spans.empty()) {
        int64_t first = spans.front().begin_ns, last = spans.front().end_ns;
        for (const auto& s : spans) {
            first = std::min(first, s.begin_ns);
            last = std::max(last, s.end_ns);
        }
        total.time_ns = last - first;
    }
    out.step = total;
    return out;
}

}  // namespace memscope
