#pragma once

#include "trace/trace.h"

#include <cstdint>

// Appends the events of a hand-made run, keeping its running total and its clock (`step_ns` an
// event); `reserved` goes to the event's reserved column (an OOM event's capacity). Shared by the
// module suites and test_oom_explanation.
struct EventWriter {
    memscope::Trace& trace;
    int64_t step_ns = 10;
    int64_t live = 0;
    int64_t time = 0;
    void operator()(memscope::EventKind kind, uint64_t addr, int64_t size, uint32_t stack,
                    memscope::Phase phase, int32_t step, int64_t reserved = 0) {
        memscope::Event e;
        e.time_ns = time += step_ns;
        e.kind = kind;
        e.addr = addr;
        e.size = size;
        if (kind == memscope::EventKind::Alloc || kind == memscope::EventKind::Free) {
            live += size;
        }
        e.allocated = live;
        e.reserved = reserved;
        e.stack = stack;
        e.phase = phase;
        e.step = step;
        trace.events.append(e);
    }
};

// The run the module suites share (tests/core/test_module_table.cpp, tests/widgets/
// test_module_page.cpp): Net (Net.l1, Net.l2), one step, events `step_ns` apart:
//   init     w1 100 B, w2 60 B (no module on the stack; Role events name their owners)
//   forward  Net.l1 makes h1 40 B (kept) and t1 8 B (freed at once), Net.l2 makes h2 24 B
//            (kept), the loss 4 B outside any module
//   backward under "backward of Net.l2": g2 60 B (gradient of w2, kept) and b2 16 B (freed);
//            h2 freed; under "backward of Net.l1": g1 100 B (kept); h1 freed
//   optimizer  s1 100 B and s2 60 B, no module, named OPTIMIZER_STATE of Net.l1 / Net.l2
// With `modules` false the same sizes with no module frame anywhere (and no Role events).
struct ModuleFixture {
    int64_t backward_begins = -1;  // the event index of g2, the backward's first
    int64_t peak_event = -1;       // the event index of s2, the peak

    void build(memscope::Trace& trace, bool modules = true, int64_t step_ns = 10) {
        using namespace memscope;
        auto& s = trace.stacks;
        auto node = [&s, modules](uint32_t parent, const char* name, FrameKind kind) {
            if (!modules && (kind == FrameKind::Module || kind == FrameKind::BackwardOf)) {
                kind = FrameKind::Operator;
            }
            return s.child(parent, s.internFrame({name, "", 0, kind}));
        };
        const uint32_t net = node(StackTable::kEmpty, "Net", FrameKind::Module);
        const uint32_t l1 = node(net, "Net.l1", FrameKind::Module);
        const uint32_t l1_mm = node(l1, "aten::mm", FrameKind::Operator);
        const uint32_t l2 = node(net, "Net.l2", FrameKind::Module);
        const uint32_t bw2 = node(StackTable::kEmpty, "backward of Net.l2", FrameKind::BackwardOf);
        const uint32_t bw1 = node(StackTable::kEmpty, "backward of Net.l1", FrameKind::BackwardOf);
        const uint32_t loss = node(StackTable::kEmpty, "aten::nll_loss", FrameKind::Operator);
        const uint32_t own1 = node(StackTable::kEmpty, "Net.l1", FrameKind::Module);
        const uint32_t own2 = node(StackTable::kEmpty, "Net.l2", FrameKind::Module);
        EventWriter event{trace, step_ns};
        auto role = [&](uint64_t addr, Category c, uint32_t owner, Phase phase, int32_t step) {
            if (modules) {
                event(EventKind::Role, addr, int64_t(c), owner, phase, step);
            }
        };
        event(EventKind::Alloc, 0x100, 100, 0, Phase::Init, 0);  // w1
        event(EventKind::Alloc, 0x200, 60, 0, Phase::Init, 0);   // w2
        role(0x100, Category::Parameter, own1, Phase::Init, 0);
        role(0x200, Category::Parameter, own2, Phase::Init, 0);
        event(EventKind::Alloc, 0x300, 40, l1_mm, Phase::Forward, 1);  // h1
        event(EventKind::Alloc, 0x310, 8, l1_mm, Phase::Forward, 1);   // t1
        event(EventKind::Free, 0x310, -8, l1_mm, Phase::Forward, 1);
        event(EventKind::Alloc, 0x400, 24, l2, Phase::Forward, 1);   // h2
        event(EventKind::Alloc, 0x500, 4, loss, Phase::Forward, 1);  // loss
        backward_begins = int64_t(trace.events.count());
        event(EventKind::Alloc, 0x600, 60, bw2, Phase::Backward, 1);  // g2
        event(EventKind::Alloc, 0x610, 16, bw2, Phase::Backward, 1);  // b2
        event(EventKind::Free, 0x610, -16, bw2, Phase::Backward, 1);
        event(EventKind::Free, 0x400, -24, bw2, Phase::Backward, 1);
        event(EventKind::Alloc, 0x700, 100, bw1, Phase::Backward, 1);  // g1
        event(EventKind::Free, 0x300, -40, bw1, Phase::Backward, 1);
        role(0x600, Category::Gradient, own2, Phase::Backward, 1);
        role(0x700, Category::Gradient, own1, Phase::Backward, 1);
        event(EventKind::Alloc, 0x800, 100, 0, Phase::Optimizer, 1);  // s1
        event(EventKind::Alloc, 0x900, 60, 0, Phase::Optimizer, 1);   // s2
        peak_event = int64_t(trace.events.count()) - 1;
        role(0x800, Category::OptimizerState, own1, Phase::Optimizer, 1);
        role(0x900, Category::OptimizerState, own2, Phase::Optimizer, 1);
        trace.finalize();
    }
};
