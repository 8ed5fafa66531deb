#include "trace/python_frame_rule.h"

namespace memscope {

bool PythonFrameRule::isLibrary(std::string_view file) {
    const auto ends_with = [file](std::string_view tail) {
        return file.size() >= tail.size() && file.substr(file.size() - tail.size()) == tail;
    };
    if (file.substr(0, 8) == "<frozen ") {
        return true;
    }
    if (file.substr(0, 6) == "torch/" || file.find("-packages/torch/") != std::string_view::npos) {
        return true;  // site-packages/torch/ (pip, venvs) and dist-packages/torch/ (Debian)
    }
    if (ends_with("/runpy.py")) {
        return true;
    }
    // The standard library's process and thread start-up (multiprocessing's spawn_main,
    // BaseProcess._bootstrap and run, Thread._bootstrap_inner and run): what calls a worker's
    // function, not the program.
    const bool stdlib = file.find("/python3.") != std::string_view::npos &&
                        file.find("-packages/") == std::string_view::npos;
    if (stdlib &&
        (file.find("/multiprocessing/") != std::string_view::npos || ends_with("/threading.py"))) {
        return true;
    }
    for (const char* own : {"/memscope/run.py", "/memscope/_hooks.py", "/memscope/__main__.py",
                            "/memscope/_record.py"}) {
        if (ends_with(own)) {
            return true;
        }
    }
    return false;
}

}  // namespace memscope
