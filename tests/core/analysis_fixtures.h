#pragma once

#include "trace/trace.h"

#include <string>

// A hand-made trace with exact times for the analysis suites. Thread 0 runs, in step 1:
//   [100, 400)  module M                      (stack M)
//   [150, 350)    aten::linear  shapes 0      (stack M > linear)
//   [160, 300)      aten::addmm shapes 1      (stack M > linear > addmm)
//   [360, 380)    aten::add_    shapes 2      (stack M > add_)
// then in backward:
//   [500, 600)  MmBackward0 under "backward of M"  (stack bw(M) > MmBackward0)
//   [520, 580)    aten::mm shapes 3                 (stack bw(M) > MmBackward0 > mm)
// Allocations: a0 1000 B in addmm (t=200), a1 50 B in linear (t=310), a2 7 B outside all
// (t=50, init), a3 400 B in aten::mm (t=530), a4 30 B in M itself (t=390).
// Frees: a1 at t=320 (in linear), a3 at t=590 (in MmBackward0).
struct AnalysisFixture {
    memscope::Trace trace;
    uint32_t node_m = 0, node_linear = 0, node_addmm = 0, node_add = 0, node_bw = 0, node_node = 0,
             node_mm = 0;

    AnalysisFixture() {
        using namespace memscope;
        auto& s = trace.stacks;
        auto frame = [&s](const char* name, FrameKind kind) {
            return s.internFrame({name, "", 0, kind});
        };
        node_m = s.child(StackTable::kEmpty, frame("M", FrameKind::Module));
        node_linear = s.child(node_m, frame("aten::linear", FrameKind::Operator));
        node_addmm = s.child(node_linear, frame("aten::addmm", FrameKind::Operator));
        node_add = s.child(node_m, frame("aten::add_", FrameKind::Operator));
        node_bw = s.child(StackTable::kEmpty, frame("backward of M", FrameKind::BackwardOf));
        node_node = s.child(node_bw, frame("MmBackward0", FrameKind::BackwardNode));
        node_mm = s.child(node_node, frame("aten::mm", FrameKind::Operator));
        trace.shape_strings = {"", "[4, 8], [16, 8], [16]", "[16], [4, 8], [8, 16]",
                               "[4, 16], [4, 16]", "[16, 4], [4, 8]"};
        trace.meta.config = {{"dtype", "fp32"}};
        int64_t live = 0;
        auto event = [&](EventKind kind, int64_t time, uint64_t addr, int64_t size, uint32_t node,
                         Phase phase, int32_t step) {
            Event e;
            e.time_ns = time;
            e.kind = kind;
            e.addr = addr;
            e.size = size;
            live += size;
            e.allocated = live;
            e.stack = node;
            e.phase = phase;
            e.step = step;
            trace.events.append(e);
        };
        event(EventKind::Alloc, 50, 0xa2, 7, StackTable::kEmpty, Phase::Init, 0);
        event(EventKind::Alloc, 200, 0xa0, 1000, node_addmm, Phase::Forward, 1);
        event(EventKind::Alloc, 310, 0xa1, 50, node_linear, Phase::Forward, 1);
        event(EventKind::Free, 320, 0xa1, -50, node_linear, Phase::Forward, 1);
        event(EventKind::Alloc, 390, 0xa4, 30, node_m, Phase::Forward, 1);
        event(EventKind::Alloc, 530, 0xa3, 400, node_mm, Phase::Backward, 1);
        event(EventKind::Free, 590, 0xa3, -400, node_node, Phase::Backward, 1);
        auto span = [&](int64_t begin, int64_t end, uint32_t node, uint32_t shapes) {
            Span sp;
            sp.begin_ns = begin;
            sp.end_ns = end;
            sp.stack = node;
            sp.shapes = shapes;
            trace.spans.push_back(sp);
        };
        // in end order, as the recorder stores them
        span(160, 300, node_addmm, 2);
        span(150, 350, node_linear, 1);
        span(360, 380, node_add, 3);
        span(100, 400, node_m, 0);
        span(520, 580, node_mm, 4);
        span(500, 600, node_node, 0);
        trace.phases = {
            {Phase::Init, 0, 0, 90}, {Phase::Forward, 1, 90, 450}, {Phase::Backward, 1, 450, 650}};
        trace.finalize();
    }

    // Allocation index by address (finalize numbers them in event order).
    int64_t allocation(uint64_t addr) const {
        const auto& all = trace.allocations();
        for (size_t i = 0; i < all.size(); ++i) {
            if (all[i].addr == addr)
                return int64_t(i);
        }
        return -1;
    }
};
