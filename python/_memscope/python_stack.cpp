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
#include <unordered_map>

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

// Whether a code object is library code (PythonFrameRule on its file), per thread: only a
// --python-frames cap asks, once per frame of every allocation.
thread_local std::unordered_map<const void*, bool> t_library;

bool isLibraryCode(PyCodeObject* code) {
    auto it = t_library.find(code);
    if (it == t_library.end()) {
        it = t_library.emplace(code, PythonFrameRule::isLibrary(textOf(code->co_filename))).first;
    }
    return it->second;
}

// The innermost frames of the thread, innermost first, before a stack is cut (thread_local:
// kept between calls).
thread_local std::vector<PythonStack::Key> t_walk;
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

size_t PythonStack::walk(size_t program_frames, std::vector<Key>& out, size_t& deepest) {
#if MEMSCOPE_PY_FRAMES
    if (program_frames == 0 || !Py_IsInitialized()) {
        return 0;
    }
    PyThreadState* state = PyGILState_GetThisThreadState();
    if (state == nullptr) {
        return 0;
    }
    const bool capped = program_frames < static_cast<size_t>(kAllFrames);
    std::vector<Key>& all = t_walk;
    all.clear();
    size_t program = 0;
    for (_PyInterpreterFrame* f = innermostFrame(state); f != nullptr && program < program_frames;
         f = f->previous) {
        PyCodeObject* code = codeOf(f);
        if (code == nullptr || _PyFrame_IsIncomplete(f) || skipped(code)) {
            continue;
        }
        if (capped && !isLibraryCode(code)) {
            ++program;
        }
        all.push_back({code, _PyInterpreterFrame_LASTI(f)});
    }
    const size_t n = all.size();
    const size_t kept = std::min(n, kMaxFrames + 1);
    if (out.size() < kept) {
        out.resize(std::max(kept, size_t(64)));
    }
    if (n <= kMaxFrames) {
        std::reverse_copy(all.begin(), all.end(), out.begin());
        return n;
    }
    // Outermost half, the marker, innermost half: the stack still starts at the thread's entry.
    deepest = std::max(deepest, n);
    const size_t half = kMaxFrames / 2;
    std::reverse_copy(all.end() - static_cast<std::ptrdiff_t>(half), all.end(), out.begin());
    out[half] = Key{nullptr, static_cast<int>(std::min<size_t>(n - 2 * half, INT32_MAX))};
    std::reverse_copy(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(half),
                      out.begin() + static_cast<std::ptrdiff_t>(half) + 1);
    return 2 * half + 1;
#else
    (void)program_frames, (void)out, (void)deepest;
    return 0;
#endif
}

void PythonStack::describe(const Key& key, Frame& out) {
    out.kind = FrameKind::Other;
    if (key.code == nullptr) {
        out.name = "[" + std::to_string(key.lasti) + " frames]";
        out.file = "<memscope>";
        out.line = 0;
        return;
    }
#if MEMSCOPE_PY_FRAMES
    auto* code = static_cast<PyCodeObject*>(const_cast<void*>(key.code));
    out.name.assign(textOf(code->co_qualname));
    out.file.assign(textOf(code->co_filename));
    out.line = lineOf(code, key.lasti);
#else
    out.name = "?";
    out.file.clear();
    out.line = 0;
#endif
}

}  // namespace memscope
