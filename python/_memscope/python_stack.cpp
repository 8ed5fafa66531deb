#include "python_stack.h"

#include "trace/python_frame_rule.h"

#include <Python.h>

// _PyInterpreterFrame is in the internal API from 3.11 on (greenlet reads it the same way). Its
// layout changes with each minor version; the extension is built for one interpreter, so the
// headers it compiles against are that interpreter's own.
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000
#define MEMSCOPE_PY_FRAMES 1
#ifndef Py_BUILD_CORE
#define Py_BUILD_CORE
#define MEMSCOPE_UNDEF_BUILD_CORE
#endif
#include <internal/pycore_frame.h>
#ifdef MEMSCOPE_UNDEF_BUILD_CORE
#undef Py_BUILD_CORE
#endif
#else
#define MEMSCOPE_PY_FRAMES 0
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <string_view>

namespace memscope {

namespace {

std::array<std::atomic<const void*>, 16> g_skipped{};

#if MEMSCOPE_PY_FRAMES
// The text of a str without creating anything: ASCII strings hold it inline; others only when
// their UTF-8 form was already made.
std::string_view textOf(PyObject* text) {
    if (text == nullptr || !PyUnicode_Check(text)) {
        return "?";
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) != 0) {
        return "?";
    }
#endif
    if (PyUnicode_IS_COMPACT_ASCII(text)) {
        return {static_cast<const char*>(PyUnicode_DATA(text)),
                static_cast<size_t>(PyUnicode_GET_LENGTH(text))};
    }
    const auto* compact = reinterpret_cast<PyCompactUnicodeObject*>(text);
    if (compact->utf8 != nullptr) {
        return {compact->utf8, static_cast<size_t>(compact->utf8_length)};
    }
    return "?";
}

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

// The version differences: where a thread's innermost frame is, a frame's code object (nullptr
// for frames that are no Python function: the C stack's entry shims), and whether a frame has
// started running its code.
_PyInterpreterFrame* innermostFrame(PyThreadState* state) {
#if PY_VERSION_HEX >= 0x030D0000
    return state->current_frame;
#else
    return state->cframe != nullptr ? state->cframe->current_frame : nullptr;
#endif
}

PyCodeObject* codeOf(_PyInterpreterFrame* f) {
#if PY_VERSION_HEX >= 0x030D0000
    if (f->owner == FRAME_OWNED_BY_CSTACK || f->f_executable == nullptr ||
        !PyCode_Check(f->f_executable)) {
        return nullptr;
    }
    return reinterpret_cast<PyCodeObject*>(f->f_executable);
#elif PY_VERSION_HEX >= 0x030C0000
    return f->owner == FRAME_OWNED_BY_CSTACK ? nullptr : f->f_code;
#else
    return f->f_code;
#endif
}

// The line a frame is at, by (code object, instruction offset): PyCode_Addr2Line decodes the
// code's location table each time, and an allocation's frames are mostly the call sites of the
// allocation before it (bench_python_overhead: it was most of the frames' cost). Direct-mapped,
// per thread, no lock. A code object freed and another made at its address with the same
// offset could show a stale line number; module functions' code lives as long as the program.
struct LineCacheEntry {
    const void* code = nullptr;
    int lasti = -1;
    int line = 0;
};
constexpr size_t kLineCacheSize = 4096;
thread_local LineCacheEntry t_lines[kLineCacheSize];

int lineOf(PyCodeObject* code, int lasti) {
    const auto key = reinterpret_cast<uintptr_t>(code);
    LineCacheEntry& e =
        t_lines[((key >> 4) ^ (static_cast<uintptr_t>(lasti) * 2654435761u)) % kLineCacheSize];
    if (e.code != code || e.lasti != lasti) {
        e.code = code;
        e.lasti = lasti;
        e.line = PyCode_Addr2Line(code, lasti * static_cast<int>(sizeof(_Py_CODEUNIT)));
    }
    return e.line;
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
    return MEMSCOPE_PY_FRAMES != 0;
}

size_t PythonStack::capture(size_t program_frames, std::vector<Frame>& out) {
#if MEMSCOPE_PY_FRAMES
    if (program_frames == 0 || !Py_IsInitialized()) {
        return 0;
    }
    PyThreadState* state = PyGILState_GetThisThreadState();
    if (state == nullptr) {
        return 0;
    }
    if (out.size() < kMaxRaw) {
        out.resize(kMaxRaw);
    }
    size_t n = 0;
    size_t program = 0;
    for (_PyInterpreterFrame* f = innermostFrame(state);
         f != nullptr && program < program_frames && n < kMaxRaw; f = f->previous) {
        PyCodeObject* code = codeOf(f);
        if (code == nullptr || _PyFrame_IsIncomplete(f) || skipped(code)) {
            continue;
        }
        const std::string_view file = textOf(code->co_filename);
        if (!PythonFrameRule::isLibrary(file)) {
            ++program;
        }
        Frame& frame = out[n++];
        frame.name.assign(textOf(code->co_qualname));
        frame.file.assign(file);
        frame.line = lineOf(code, _PyInterpreterFrame_LASTI(f));
        frame.kind = FrameKind::Other;
    }
    std::reverse(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
#else
    (void)program_frames, (void)out;
    return 0;
#endif
}

}  // namespace memscope
