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
    for (const char* own : {"/memscope/run.py", "/memscope/_hooks.py", "/memscope/__main__.py",
                            "/memscope/_record.py"}) {
        if (ends_with(own)) {
            return true;
        }
    }
    return false;
}

}  // namespace memscope
