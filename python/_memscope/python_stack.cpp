#include "python_stack.h"

#include <Python.h>

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define MEMSCOPE_PY311_FRAMES 1
// _PyInterpreterFrame is in the internal API in 3.11 (greenlet reads it the same way).
#define Py_BUILD_CORE
#include <internal/pycore_frame.h>
#undef Py_BUILD_CORE
#else
#define MEMSCOPE_PY311_FRAMES 0
#endif

#include <algorithm>
#include <array>
#include <atomic>

namespace memscope {

namespace {

#if MEMSCOPE_PY311_FRAMES
// The text of a str without creating anything: ASCII strings hold it inline; others only when
// their UTF-8 form was already made.
void assignText(std::string& out, PyObject* text) {
    if (text == nullptr || !PyUnicode_Check(text) || PyUnicode_READY(text) != 0) {
        out.assign("?");
        return;
    }
    if (PyUnicode_IS_COMPACT_ASCII(text)) {
        out.assign(static_cast<const char*>(PyUnicode_DATA(text)),
                   static_cast<size_t>(PyUnicode_GET_LENGTH(text)));
        return;
    }
    const auto* compact = reinterpret_cast<PyCompactUnicodeObject*>(text);
    if (compact->utf8 != nullptr) {
        out.assign(compact->utf8, static_cast<size_t>(compact->utf8_length));
        return;
    }
    out.assign("?");
}
#endif

std::array<std::atomic<const void*>, 16> g_skipped{};

#if MEMSCOPE_PY311_FRAMES
bool skipped(const void* code) {
    for (const auto& s : g_skipped) {
        const void* c = s.load(std::memory_order_relaxed);
        if (c == nullptr) {
            return false;
        }
        if (c == code) {
            return true;
        }
    }
    return false;
}
#endif

}  // namespace

void PythonStack::skipCode(const void* code) {
    for (auto& s : g_skipped) {
        const void* expected = nullptr;
        if (s.load() == code || s.compare_exchange_strong(expected, code)) {
            return;
        }
    }
}

bool PythonStack::supported() {
    return MEMSCOPE_PY311_FRAMES != 0;
}

size_t PythonStack::capture(size_t depth, std::vector<Frame>& out) {
#if MEMSCOPE_PY311_FRAMES
    if (depth == 0 || !Py_IsInitialized()) {
        return 0;
    }
    PyThreadState* state = PyGILState_GetThisThreadState();
    if (state == nullptr || state->cframe == nullptr) {
        return 0;
    }
    if (out.size() < depth) {
        out.resize(depth);
    }
    size_t n = 0;
    for (_PyInterpreterFrame* f = state->cframe->current_frame; f != nullptr && n < depth;
         f = f->previous) {
        if (_PyFrame_IsIncomplete(f) || skipped(f->f_code)) {
            continue;
        }
        PyCodeObject* code = f->f_code;
        Frame& frame = out[n++];
        assignText(frame.name, code->co_qualname);
        assignText(frame.file, code->co_filename);
        frame.line = PyCode_Addr2Line(
            code, _PyInterpreterFrame_LASTI(f) * static_cast<int>(sizeof(_Py_CODEUNIT)));
        frame.kind = FrameKind::Other;
    }
    std::reverse(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
#else
    (void)depth, (void)out;
    return 0;
#endif
}

}  // namespace memscope
