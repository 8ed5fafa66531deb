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
// interpreter's frame layout, which the extension is compiled against (its internal
// pycore_frame.h): CPython 3.11, 3.12 and 3.13 (supported() says; other versions record no
// Python frames and the runner says so).
class PythonStack {
  public:
    static bool supported();
    // Frames from the innermost outward until `program_frames` of the program's own were read
    // (PythonFrameRule: PyTorch's, runpy's and Memscope's frames do not count, but are kept for
    // the raw stacks; at most kMaxRaw frames in all), outermost first, into the first entries of
    // `buffer` (kept between calls: its strings are reused); returns how many, 0 when the thread
    // has no Python frames (an autograd or OpenMP worker). Kind FrameKind::Other: name
    // "Attention.forward", file and line.
    static size_t capture(size_t program_frames, std::vector<Frame>& buffer);
    static constexpr size_t kMaxRaw = 64;
    // Frames of this code object (a PyCodeObject*: the memscope package's own wrappers around
    // nn.Module.__call__ and the others) are left out. Up to 16; the code must stay alive.
    static void skipCode(const void* code);
};

}  // namespace memscope
