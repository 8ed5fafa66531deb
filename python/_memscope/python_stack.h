#pragma once

#include "run/recorder_option_table.h"
#include "trace/stack_table.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// The Python frames of the calling thread, read while an allocation is reported. Tensor ops
// release the GIL before they allocate, so the frames are read without it: a thread's own frame
// chain cannot change while the thread runs C++ (no other thread pushes or pops its frames, and
// each frame holds its code object), and nothing here allocates a Python object. That needs the
// interpreter's frame layout, which the extension is compiled against (its internal
// pycore_frame.h): CPython 3.11, 3.12 and 3.13 (supported() says; other versions record no
// Python frames and the runner says so).
//
// A frame is read in two steps, so that a stack shared by many allocations costs little: walk()
// gives each frame's identity (its code object and instruction), which ProgramObserver looks up
// in the stack nodes it already made; describe() reads a frame's text only for a node it has not
// made yet.
class PythonStack {
  public:
    // A frame's identity: its code object and the instruction it is at (the line follows from
    // the two). code == nullptr marks the frames left out of a stack deeper than kMaxFrames
    // (`skipped` of them).
    struct Key {
        const void* code = nullptr;
        int lasti = 0;
        bool operator==(const Key& o) const { return code == o.code && lasti == o.lasti; }
    };

    static bool supported();
    // The frames from the outermost (the thread's entry: `<module>` of the main script, runpy's
    // frames above it) to the innermost, into `out` (its first entries; returns how many). With
    // `program_frames` > 0 only the innermost frames until that many of the program's own were
    // read (PythonFrameRule: PyTorch's, runpy's and Memscope's frames do not count). A stack of
    // more than kMaxFrames keeps its outermost and innermost kMaxFrames / 2 with one Key{nullptr,
    // n} between them for the n left out; `deepest` gets the depth of such a stack. 0 when the
    // thread has no Python frames (an autograd or OpenMP worker).
    static size_t walk(size_t program_frames, std::vector<Key>& out, size_t& deepest);
    // The frame `key` names, as FrameKind::Other: name "Attention.forward", file and line; for
    // the marker of left-out frames, "[N frames]" in file "<memscope>". Only during the
    // allocation walk() read it in (the code object is alive while its frame runs).
    static void describe(const Key& key, Frame& out);
    // `program_frames` for --python-frames all: no cap but kMaxFrames.
    static constexpr int64_t kAllFrames = RecorderOptionTable::kAll;
    // The most frames one stack keeps (a deep recursion: 5,000 frames): the safety limit.
    static constexpr size_t kMaxFrames = 256;
    // Frames of this code object (a PyCodeObject*: the memscope package's own wrappers around
    // nn.Module.__call__ and the others) are left out. Up to 16; the code must stay alive.
    static void skipCode(const void* code);
};

}  // namespace memscope
