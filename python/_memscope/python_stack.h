#pragma once

#include "trace/stack_table.h"

#include <cstddef>
#include <string>
#include <vector>

namespace memscope {

// The Python frames of the calling thread, read while an allocation is reported. Tensor ops
// release the GIL before they allocate, so the frames are read without it: a thread's own frame
// chain cannot change while the thread runs C++ (no other thread pushes or pops its frames, and
// each frame holds its code object), and nothing here allocates a Python object. That needs the
// interpreter's frame layout: CPython 3.11 (supported() says; other versions record no Python
// frames and the runner says so).
class PythonStack {
  public:
    static bool supported();
    // The innermost `depth` frames of the calling thread, outermost first, into the first
    // entries of `buffer` (kept between calls: its strings are reused); returns how many, 0 when
    // the thread has no Python frames (an autograd or OpenMP worker). Kind FrameKind::Other:
    // name "Attention.forward", file and line.
    static size_t capture(size_t depth, std::vector<Frame>& buffer);
    // Frames of this code object (a PyCodeObject*: the memscope package's own wrappers around
    // nn.Module.__call__ and the others) are left out. Up to 16; the code must stay alive.
    static void skipCode(const void* code);
};

}  // namespace memscope
