#pragma once

#include <string_view>

namespace memscope {

// Which Python frames are the program's own and which are library plumbing, by their file: the
// one rule the Python recorder (which counts only the program's frames toward --python-frames)
// and ProgramStackOrder (which folds the others out of the stacks a person reads) share.
// Folded: PyTorch's own Python code (a file under site-packages/torch/ or dist-packages/torch/:
// nn.Module's call wrappers, torch/optim, torch/autograd, torch/_tensor.py, torch/utils, ...),
// runpy and the interpreter's frozen modules (`<frozen runpy>`, `<frozen importlib._bootstrap>`),
// the standard library's multiprocessing and threading start-up (a worker's or thread's
// outermost frames), and Memscope's own runner and hooks (memscope/run.py, _hooks.py,
// __main__.py, _record.py).
class PythonFrameRule {
  public:
    static bool isLibrary(std::string_view file);
};

}  // namespace memscope
