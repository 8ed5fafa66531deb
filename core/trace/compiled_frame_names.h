#pragma once

#include <string>

namespace memscope {

class Trace;

// torch.compile's generated code, named by what it computes. A compiled region's allocations
// are made in inductor's output file (a .py under a "torchinductor" folder), in its `call`
// function, one line per buffer: `buf7 = empty_strided_cpu((2, 16, 128), ...)`. The Python
// frame of such a line ("Runner.call") is renamed after the kernel the buffer is made for: the
// first call after it that takes the buffer (`cpp_fused_gelu_view_1(buf6, buf7)`,
// `extern_kernels.addmm(..., out=buf6)`, `triton_poi_fused_0.run(...)`), with the source nodes
// inductor wrote above that call ("# Topologically Sorted Source Nodes: [linear, gelu]"):
// "cpp_fused_gelu_view_1 [linear, gelu]". The file and line stay. A line that names no buffer
// or no kernel is "compiled region (Runner.call)". Files that are gone (a cleared cache) leave
// their frames as they are. Run when a Python program's recording is saved, before its stacks
// are put in reading order (ProgramStackOrder).
class CompiledFrameNames {
  public:
    // Returns how many frames were renamed.
    static int apply(Trace& trace);
    // Whether `file` is inductor's generated code.
    static bool generated(const std::string& file);
};

}  // namespace memscope
