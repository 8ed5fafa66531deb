#pragma once

// The small trace the run-file and journal fuzzers write as their seeds, and the prefix of a
// trace that a journal saw at an earlier poll (the journal fuzzer and test_run_journal).

#include "trace/for_each_event_column.h"
#include "trace/trace.h"

namespace memscope::fuzz {

// Every kind of content a run file or journal holds: events of every kind over a stack table, spans
// with shapes, phases, operators, steps, segment tags, a summary.
inline Trace fuzzTrace() {
    Trace t;
    t.meta.memscope_version = "0.1.0";
    t.meta.torch_version = "1.13.1";
    t.meta.device = "cuda:0";
    t.meta.device_name = "Fuzz GPU";
    t.meta.threads = 2;
    t.meta.source = "recorded";
    t.meta.config = {{"preset", "tiny"}, {"batch_size", 2}};
    t.meta.capacity_bytes = int64_t(1) << 30;

    const auto model = t.stacks.internFrame({"TinyLlama", "tiny_llama.cpp", 42, FrameKind::Module});
    const auto mm = t.stacks.internFrame({"aten::mm", "", 0, FrameKind::Operator});
    const auto back = t.stacks.internFrame({"MmBackward0", "", 0, FrameKind::BackwardNode});
    const auto n1 = t.stacks.child(StackTable::kEmpty, model);
    const auto n2 = t.stacks.child(n1, mm);
    const auto n3 = t.stacks.child(StackTable::kEmpty, back);
    const uint32_t nodes[] = {StackTable::kEmpty, n1, n2, n3};
    t.shape_strings.push_back("[2, 16, 32], [32, 32]");

    int64_t live = 0;
    for (int i = 0; i < 24; ++i) {
        Event e;
        e.time_ns = int64_t(i) * 1000;
        e.addr = 0x7f0000000000ULL + uint64_t(i / 2) * 0x1000;
        e.kind = (i % 2 == 0) ? EventKind::Alloc : EventKind::Free;
        e.size = (i % 2 == 0) ? 512 * (i + 1) : -512 * i;
        if (i == 5)
            e.kind = EventKind::SegmentAlloc, e.size = 2 << 20, e.addr = 0x7e0000000000ULL;
        if (i == 7)
            e.kind = EventKind::Oom, e.size = int64_t(1) << 40;
        if (i == 21)
            e.kind = EventKind::SegmentFree, e.size = -(2 << 20), e.addr = 0x7e0000000000ULL;
        if (e.kind == EventKind::Alloc || e.kind == EventKind::Free)
            live += e.size;
        e.allocated = live;
        e.reserved = live + 4096;
        e.stack = nodes[i % 4];
        e.step = i / 8;
        e.phase = static_cast<Phase>(i % kPhaseCount);
        e.thread = static_cast<uint16_t>(i % 3 == 0 ? 1 : 0);
        e.device = 0;
        t.events.append(e);
    }
    t.segment_tags.push_back({5, 7, "large"});
    for (int i = 0; i < 6; ++i) {
        t.spans.push_back(
            {i * 1000, i * 1000 + 800, nodes[1 + i % 3], uint16_t(i % 2), uint32_t(i % 2)});
    }
    t.phases.push_back({Phase::Forward, 1, 0, 9000});
    t.phases.push_back({Phase::Backward, 1, 9000, 20000});
    OperatorStat op;
    op.name = "aten::mm";
    op.calls = 6, op.total_ns = 4800, op.self_ns = 4000, op.flops = 1.5e6;
    t.operators.push_back(op);
    StepMetrics m;
    m.step = 1;
    m.loss = 4.0;
    m.total_s = 0.02;
    t.steps.push_back(m);
    t.summary = {{"avg_step_s", 0.02}, {"notes", {"a"}}};
    t.finalize();
    return t;
}

// The first `events` events and `spans` spans of `trace`, with everything else.
inline Trace prefixOf(const Trace& trace, size_t events, size_t spans) {
    Trace t = trace;
    forEachEventColumn(t.events, [events](const char*, auto& column) { column.resize(events); });
    t.spans.resize(spans);
    return t;
}

}  // namespace memscope::fuzz
