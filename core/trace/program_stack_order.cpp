#include "trace/program_stack_order.h"

#include "trace/python_frame_rule.h"
#include "trace/trace.h"

#include <utility>
#include <vector>

namespace memscope {

namespace {

bool isPythonFrame(const Frame& f) {
    return f.kind == FrameKind::Other && !f.file.empty();
}

}  // namespace

bool ProgramStackOrder::applies(const Trace& trace) {
    return trace.meta.config.is_object() && trace.meta.config.contains("program");
}

void ProgramStackOrder::apply(Trace& trace) {
    if (!applies(trace) || trace.hasRawStacks()) {
        return;
    }
    const StackTable& raw = trace.stacks;
    const size_t nodes = raw.nodeCount();
    StackTable clean;
    // Per recorded node, two nodes of `clean`: its scope chain alone (scope frames in their
    // order, from the root) and its program's Python frames alone (outermost first, library
    // frames left out). A child adds one frame to one of them. Python frames are appended below
    // the innermost scope, so a scope frame under a Python frame does not occur; it would be
    // taken as a scope frame all the same.
    std::vector<uint32_t> scopeNode(nodes, StackTable::kEmpty);
    std::vector<uint32_t> pythonNode(nodes, StackTable::kEmpty);
    std::vector<uint32_t> cleanOf(nodes, StackTable::kEmpty);
    std::vector<uint32_t> cleanFrame(raw.frameCount(), 0);  // raw frame id -> clean id + 1
    auto frameIn = [&](uint32_t f) {
        if (cleanFrame[f] == 0) {
            cleanFrame[f] = clean.internFrame(raw.frame(f)) + 1;
        }
        return cleanFrame[f] - 1;
    };
    std::vector<uint32_t> scopeChain;
    for (uint32_t n = 1; n < nodes; ++n) {
        const uint32_t parent = raw.parent(n);
        const uint32_t f = raw.nodeFrames()[n];
        const Frame& frame = raw.frame(f);
        scopeNode[n] = scopeNode[parent];
        pythonNode[n] = pythonNode[parent];
        if (!isPythonFrame(frame)) {
            scopeNode[n] = clean.child(scopeNode[n], frameIn(f));
        } else if (!PythonFrameRule::isLibrary(frame.file)) {
            pythonNode[n] = clean.child(pythonNode[n], frameIn(f));
        }
        if (pythonNode[n] == StackTable::kEmpty) {
            cleanOf[n] = scopeNode[n];
            continue;
        }
        // The scope chain replayed under the Python frames.
        scopeChain.clear();
        for (uint32_t s = scopeNode[n]; s != StackTable::kEmpty; s = clean.parent(s)) {
            scopeChain.push_back(clean.frameOf(s));
        }
        uint32_t node = pythonNode[n];
        for (auto it = scopeChain.rbegin(); it != scopeChain.rend(); ++it) {
            node = clean.child(node, *it);
        }
        cleanOf[n] = node;
    }

    trace.raw_stack = trace.events.stack;
    trace.events.stack.transform(
        [&](uint32_t s) { return s < nodes ? cleanOf[s] : StackTable::kEmpty; });
    for (auto& span : trace.spans) {
        span.stack = span.stack < nodes ? cleanOf[span.stack] : StackTable::kEmpty;
    }
    trace.raw_stacks = std::move(trace.stacks);
    trace.stacks = std::move(clean);
}

}  // namespace memscope
