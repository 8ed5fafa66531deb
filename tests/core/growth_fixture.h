#pragma once

#include "module_fixture.h"

#include "trace/trace.h"

#include <cstdint>

// The hand-made training loops of the growth suites (tests/core/test_step_growth.cpp,
// tests/widgets/test_growth_page.cpp), with their phases.

namespace memscope {

// A training loop of `steps` steps over a 100 B parameter (and a 100 B gradient, a 100 B
// optimizer state made in step 1): each step's forward makes a 40 B activation freed in its
// backward, and the loop's body makes what `keep` says.
enum class Keep { Nothing, Leak, LagOne, Cache, WarmUp };

struct GrowthLoop {
    Trace trace;
    uint32_t leak_stack = 0;
    uint32_t cache_stack = 0;

    GrowthLoop(int steps, Keep keep, bool tail = false) {
        auto& s = trace.stacks;
        auto node = [&s](uint32_t parent, const char* name, const char* file, int line,
                         FrameKind kind) {
            return s.child(parent, s.internFrame({name, file, line, kind}));
        };
        const uint32_t main =
            node(StackTable::kEmpty, "main", "/home/u/train.py", 40, FrameKind::Other);
        const uint32_t fwd = node(main, "Net.forward", "/home/u/train.py", 12, FrameKind::Other);
        const uint32_t net = node(fwd, "Net", "", 0, FrameKind::Module);
        const uint32_t mm = node(net, "aten::mm", "", 0, FrameKind::Operator);
        leak_stack =
            node(node(StackTable::kEmpty, "main", "/home/u/train.py", 44, FrameKind::Other),
                 "aten::clone", "", 0, FrameKind::Operator);
        cache_stack = node(node(main, "table", "/home/u/train.py", 20, FrameKind::Other),
                           "aten::arange", "", 0, FrameKind::Operator);
        const uint32_t own = node(StackTable::kEmpty, "Net", "", 0, FrameKind::Module);
        EventWriter event{trace};
        event(EventKind::Alloc, 0x10, 100, 0, Phase::Init, 0);
        event(EventKind::Role, 0x10, int64_t(Category::Parameter), own, Phase::Init, 0);
        uint64_t next = 0x1000;
        uint64_t lag = 0;
        for (int step = 1; step <= steps; ++step) {
            const uint64_t act = next++;
            const int64_t forward_begin = event.time + 1;
            event(EventKind::Alloc, act, 40, mm, Phase::Forward, step);
            if (keep == Keep::Leak) {
                event(EventKind::Alloc, next++, 24, leak_stack, Phase::Forward, step);
            }
            if (keep == Keep::LagOne) {  // kept until the next step replaces it
                if (lag != 0) {
                    event(EventKind::Free, lag, -16, leak_stack, Phase::Forward, step);
                }
                lag = next++;
                event(EventKind::Alloc, lag, 16, leak_stack, Phase::Forward, step);
            }
            if (keep == Keep::Cache && step <= 3) {
                event(EventKind::Alloc, next++, 8 * step, cache_stack, Phase::Forward, step);
            }
            if (keep == Keep::WarmUp && step == 1) {
                event(EventKind::Alloc, next++, 32, cache_stack, Phase::Forward, step);
            }
            const int64_t backward_begin = event.time + 1;
            trace.phases.push_back({Phase::Forward, step, forward_begin, backward_begin});
            event(EventKind::Free, act, -40, mm, Phase::Backward, step);
            if (step == 1) {
                event(EventKind::Alloc, 0x20, 100, mm, Phase::Backward, step);  // the gradient
                event(EventKind::Alloc, 0x30, 100, 0, Phase::Optimizer, step);  // AdamW's state
                event(EventKind::Role, 0x30, int64_t(Category::OptimizerState), own,
                      Phase::Optimizer, step);
            }
            const int64_t optimizer_begin = event.time + 1;
            trace.phases.push_back({Phase::Backward, step, backward_begin, optimizer_begin});
            event(EventKind::Alloc, next, 4, 0, Phase::Optimizer, step);  // a temporary
            event(EventKind::Free, next++, -4, 0, Phase::Optimizer, step);
            trace.phases.push_back({Phase::Optimizer, step, optimizer_begin, event.time + 1});
        }
        if (tail) {  // what a Python program runs after its last optimizer step
            event(EventKind::Alloc, next++, 24, leak_stack, Phase::Forward, steps + 1);
        }
        trace.finalize();
    }
};

}  // namespace memscope
