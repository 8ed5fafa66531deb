#pragma once

namespace memscope {

class Trace;

// The stacks of a Python program's recording, in the order a person reads them: the program's
// own Python frames outermost, then the nn.Module path (and the user ranges, "backward of"
// frames and autograd nodes), then the operators innermost; PyTorch's, runpy's and Memscope's
// own Python frames folded (PythonFrameRule).
//
// The recorder makes each allocation's stack as the op and module scopes open (the scope chain)
// with the allocating thread's innermost Python frames appended below it (python/
// ProgramObserver), because the scope chain is interned once per op call and the Python frames
// are read per allocation. This turns that into the cleaned order once, when the recording ends
// (ProgramRecording::finish) or is recovered from its journal (JournalRecovery), as the
// importer does for snapshots: `stacks`, events.stack and the spans get the cleaned stacks, and
// the recorded ones are kept as the trace's raw stacks (the flame graph's "raw frames").
// A node's Python frames are the run of Other frames with a file at its inner end; the rest is
// the scope chain, which keeps its order. Each recorded node is visited once (parents first).
class ProgramStackOrder {
  public:
    // Whether the trace is a Python program's recording (its configuration names a program).
    static bool applies(const Trace& trace);
    // Rewrites the stacks as above; does nothing when the trace already has raw stacks (it was
    // cleaned before, or is an import) or is not a program's recording. Call finalize() after.
    static void apply(Trace& trace);
};

}  // namespace memscope
