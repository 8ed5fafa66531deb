// _memscope: the CPython extension the memscope package (python/memscope) drives. Plain CPython
// API, no pybind11 and no libtorch_python: it links the LibTorch the rest of Memscope links,
// which must be the one the interpreter's `import torch` loaded (the package checks the version
// before it imports this module). Tensors never cross: Python passes storage addresses.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "io/journal_recovery.h"
#include "io/program_processes.h"
#include "io/run_journal.h"
#include "memscope_version.h"
#include "model/config_error.h"
#include "model/module_scope.h"
#include "program_recording.h"
#include "python_stack.h"
#include "run/byte_size.h"
#include "run/recorder_option_table.h"
#include "trace/category.h"
#include "train/allocator_trace_link.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

using memscope::ProgramRecording;

// Kept to the end of the process: a thread the program left running, or a forked child, may
// still reach its hook after finish().
ProgramRecording* g_recording = nullptr;

// In a child made by fork(): the blocks its parent had alive, for the child's own recording.
std::vector<ProgramRecording::InheritedBlock> g_inherited;

// Module names and files the open scopes point at (RecordFunction keeps the pointer): interned,
// never freed (a program has a few hundred).
std::mutex g_namesMutex;
std::unordered_set<std::string> g_names;

const std::string& internName(const char* text) {
    std::lock_guard<std::mutex> lock(g_namesMutex);
    return *g_names.emplace(text).first;
}

thread_local std::vector<std::unique_ptr<memscope::ModuleScope>> t_scopes;

PyObject* fail(const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
}

// Runs `work` with the GIL released (it may take long: saving, recovering, attaching); false,
// with a RuntimeError set, when it threw.
template <typename Work>
bool withoutGil(Work&& work) {
    std::string error;
    Py_BEGIN_ALLOW_THREADS;
    try {
        work();
    } catch (const std::exception& e) {
        error = e.what();
    }
    Py_END_ALLOW_THREADS;
    if (!error.empty()) {
        PyErr_SetString(PyExc_RuntimeError, error.c_str());
        return false;
    }
    return true;
}

PyObject* notRecording() {
    PyErr_SetString(PyExc_RuntimeError, "memscope: no recording was started in this process");
    return nullptr;
}

PyObject* start(PyObject*, PyObject* args) {
    const char* out = nullptr;
    int frames = 0;
    int poll_ms = 50;
    const char* program = nullptr;
    const char* torch_version = nullptr;
    const char* device = nullptr;
    long long limit = 0;
    if (!PyArg_ParseTuple(args, "siisss|L", &out, &frames, &poll_ms, &program, &torch_version,
                          &device, &limit)) {
        return nullptr;
    }
    if (g_recording != nullptr) {
        PyErr_SetString(PyExc_RuntimeError, "memscope: a recording already ran in this process");
        return nullptr;
    }
    try {
        ProgramRecording::Options options;
        options.out = out;
        options.python_frames = memscope::PythonStack::supported() ? frames : 0;
        options.poll_ms = poll_ms;
        options.program = nlohmann::json::parse(program);
        options.torch_version = torch_version;
        options.device = device;
        options.device_memory_limit = limit;
        options.inherited = std::move(g_inherited);
        g_inherited.clear();
        auto recording = std::make_unique<ProgramRecording>(std::move(options));
        recording->start();
        g_recording = recording.release();
    } catch (const std::exception& e) {
        return fail(e);
    }
    Py_RETURN_NONE;
}

PyObject* finish(PyObject*, PyObject* args) {
    const char* ending = nullptr;
    int status = 0;
    const char* device = nullptr;
    const char* allocator = "{}";
    if (!PyArg_ParseTuple(args, "sis|s", &ending, &status, &device, &allocator)) {
        return nullptr;
    }
    if (g_recording == nullptr) {
        return notRecording();
    }
    t_scopes.clear();
    std::string summary;
    if (!withoutGil(
            [&] { summary = g_recording->finish(ending, status, device, allocator).dump(); })) {
        return nullptr;
    }
    return PyUnicode_FromStringAndSize(summary.data(), static_cast<Py_ssize_t>(summary.size()));
}

// parse_size(text) -> bytes, or None: "512MiB", "2GiB", "800MB", "1048576" (run/byte_size.h,
// the rule memscope-cli's --device-memory-limit reads).
PyObject* parseSize(PyObject*, PyObject* args) {
    const char* text = nullptr;
    if (!PyArg_ParseTuple(args, "s", &text)) {
        return nullptr;
    }
    const auto bytes = memscope::parseByteSize(text);
    if (!bytes) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLongLong(*bytes);
}

// attach_cuda_segments() -> "attached" | "no device" | "unavailable": the CUDA caching
// allocator's trace tracker, whose segment events the recorder (its sink from start() on) turns
// into SegmentAlloc/SegmentFree and the reserved line. The hooks call it when the program
// initializes CUDA (torch.cuda._lazy_call), never before: attaching initializes CUDA, which a
// CPU program must not pay for.
PyObject* attachCudaSegments(PyObject*, PyObject*) {
    using memscope::AllocatorTraceLink;
    AllocatorTraceLink::State state = AllocatorTraceLink::State::Unavailable;
    if (!withoutGil([&] { state = AllocatorTraceLink::attach(); })) {
        return nullptr;
    }
    const char* text = state == AllocatorTraceLink::State::Attached   ? "attached"
                       : state == AllocatorTraceLink::State::NoDevice ? "no device"
                                                                      : "unavailable";
    return PyUnicode_FromString(text);
}

// assemble(out, first_pid) -> (run_directory: bool, description): the program's other
// processes' recordings (OUT.procs) and OUT put together (io/program_processes.h).
PyObject* assemble(PyObject*, PyObject* args) {
    const char* out = nullptr;
    long long first_pid = 0;
    if (!PyArg_ParseTuple(args, "sL", &out, &first_pid)) {
        return nullptr;
    }
    memscope::ProgramProcesses::Result result;
    if (!withoutGil([&] { result = memscope::ProgramProcesses::assemble(out, first_pid); })) {
        return nullptr;
    }
    const std::string text = result.describe(out);
    return Py_BuildValue("(Os#)", result.directory ? Py_True : Py_False, text.data(),
                         static_cast<Py_ssize_t>(text.size()));
}

// recover(journal, out, ending, exit_status) -> "recovered ... events ..." (python -m memscope
// record, when the program died before it saved).
PyObject* recover(PyObject*, PyObject* args) {
    const char* journal = nullptr;
    const char* out = nullptr;
    const char* ending = nullptr;
    int status = 0;
    if (!PyArg_ParseTuple(args, "sssi", &journal, &out, &ending, &status)) {
        return nullptr;
    }
    std::string described;
    if (!withoutGil([&] {
            described =
                memscope::JournalRecovery::saveProgramRun(journal, out, ending, status).describe();
        })) {
        return nullptr;
    }
    return PyUnicode_FromStringAndSize(described.data(), static_cast<Py_ssize_t>(described.size()));
}

// parse_option(flag, text) -> str (a path) or int (a count, "all" as ALL_FRAMES; bytes): the
// recorder's options as run/recorder_option_table.h describes them; ValueError naming the flag.
PyObject* parseOption(PyObject*, PyObject* args) {
    const char* flag = nullptr;
    const char* text = nullptr;
    if (!PyArg_ParseTuple(args, "ss", &flag, &text)) {
        return nullptr;
    }
    const auto* row = memscope::RecorderOptionTable::find(flag);
    if (row == nullptr) {
        PyErr_Format(PyExc_ValueError, "unknown option %s", flag);
        return nullptr;
    }
    try {
        const auto value = memscope::RecorderOptionTable::parse(*row, text);
        if (row->kind == memscope::RecorderOption::Kind::Path) {
            return PyUnicode_FromStringAndSize(value.text.data(),
                                               static_cast<Py_ssize_t>(value.text.size()));
        }
        return PyLong_FromLongLong(value.number);
    } catch (const memscope::ConfigError& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
        return nullptr;
    }
}

// f(out) as a str, for the paths a run file OUT implies.
template <typename PathOf>
PyObject* pathOfRun(PyObject* args, PathOf path_of) {
    const char* out = nullptr;
    if (!PyArg_ParseTuple(args, "s", &out)) {
        return nullptr;
    }
    const std::string path = path_of(out);
    return PyUnicode_FromStringAndSize(path.data(), static_cast<Py_ssize_t>(path.size()));
}

PyObject* journalPath(PyObject*, PyObject* args) {
    return pathOfRun(args,
                     [](const std::string& out) { return memscope::RunJournal::pathFor(out); });
}

PyObject* stagingDir(PyObject*, PyObject* args) {
    return pathOfRun(
        args, [](const std::string& out) { return memscope::ProgramProcesses::stagingDirOf(out); });
}

PyObject* skipCode(PyObject*, PyObject* code) {
    if (!PyCode_Check(code)) {
        PyErr_SetString(PyExc_TypeError, "skip_code: a code object is needed");
        return nullptr;
    }
    Py_INCREF(code);  // kept: the skip list holds its address
    memscope::PythonStack::skipCode(code);
    Py_RETURN_NONE;
}

PyObject* event(PyObject*, PyObject* args) {
    int code = 0;
    double loss = 0;
    if (!PyArg_ParseTuple(args, "id", &code, &loss)) {
        return nullptr;
    }
    if (g_recording != nullptr && code >= 0 &&
        code <= static_cast<int>(ProgramRecording::Event::OptimizerDone)) {
        g_recording->event(static_cast<ProgramRecording::Event>(code), loss);
    }
    Py_RETURN_NONE;
}

PyObject* noteOptimizer(PyObject*, PyObject* args) {
    const char* name = nullptr;
    if (!PyArg_ParseTuple(args, "s", &name)) {
        return nullptr;
    }
    if (g_recording != nullptr) {
        g_recording->noteOptimizer(name);
    }
    Py_RETURN_NONE;
}

PyObject* role(PyObject*, PyObject* args) {
    unsigned long long ptr = 0;
    int category = 0;
    const char* device = nullptr;
    const char* owner = nullptr;
    if (!PyArg_ParseTuple(args, "Kis|z", &ptr, &category, &device, &owner)) {
        return nullptr;
    }
    if (g_recording == nullptr || category < 0 || category >= memscope::kCategoryCount) {
        Py_RETURN_NONE;
    }
    try {
        g_recording->role(reinterpret_cast<const void*>(static_cast<uintptr_t>(ptr)),
                          static_cast<memscope::Category>(category), c10::Device(device), owner);
    } catch (const std::exception& e) {
        return fail(e);
    }
    Py_RETURN_NONE;
}

PyObject* moduleEnter(PyObject*, PyObject* args) {
    const char* name = nullptr;
    const char* file = nullptr;
    int line = 0;
    if (!PyArg_ParseTuple(args, "ssi", &name, &file, &line)) {
        return nullptr;
    }
    if (g_recording == nullptr) {
        Py_RETURN_NONE;
    }
    try {
        t_scopes.push_back(std::make_unique<memscope::ModuleScope>(internName(name),
                                                                   internName(file).c_str(), line));
    } catch (const std::exception& e) {
        return fail(e);
    }
    Py_RETURN_NONE;
}

// Closes the innermost open module scopes until `depth` remain (a forward that raised leaves
// its scopes open; the next exit at a lower depth closes them).
PyObject* moduleExit(PyObject*, PyObject* args) {
    Py_ssize_t depth = 0;
    if (!PyArg_ParseTuple(args, "n", &depth)) {
        return nullptr;
    }
    while (static_cast<Py_ssize_t>(t_scopes.size()) > std::max<Py_ssize_t>(depth, 0)) {
        t_scopes.pop_back();
    }
    Py_RETURN_NONE;
}

PyObject* moduleDepth(PyObject*, PyObject*) {
    return PyLong_FromSsize_t(static_cast<Py_ssize_t>(t_scopes.size()));
}

PyObject* threadEnter(PyObject*, PyObject*) {
    if (g_recording != nullptr) {
        g_recording->attachThread();
    }
    Py_RETURN_NONE;
}

PyObject* threadExit(PyObject*, PyObject*) {
    t_scopes.clear();
    if (g_recording != nullptr) {
        g_recording->detachThread();
    }
    Py_RETURN_NONE;
}

PyObject* beforeFork(PyObject*, PyObject*) {
    if (g_recording != nullptr) {
        g_recording->beforeFork();
    }
    Py_RETURN_NONE;
}

PyObject* afterForkParent(PyObject*, PyObject*) {
    if (g_recording != nullptr) {
        g_recording->afterForkParent();
    }
    Py_RETURN_NONE;
}

// The parent's recording records nothing here. With `restart` true, and the parent's recording
// running at the fork, the module is free for the child's own start(), which begins from what
// the parent had alive: returns (blocks, bytes) of it; else None.
PyObject* afterForkChild(PyObject*, PyObject* args) {
    int restart = 0;
    if (!PyArg_ParseTuple(args, "|p", &restart)) {
        return nullptr;
    }
    if (g_recording == nullptr) {
        Py_RETURN_NONE;
    }
    auto alive = g_recording->forked();
    if (!restart || alive.empty()) {
        Py_RETURN_NONE;
    }
    long long bytes = 0;
    for (const auto& block : alive) {
        bytes += block.size;
    }
    const auto blocks = static_cast<Py_ssize_t>(alive.size());
    g_inherited = std::move(alive);
    g_recording = nullptr;  // the parent's stays allocated: its hook is still on this thread
    return Py_BuildValue("(nL)", blocks, bytes);
}

PyObject* nowNs(PyObject*, PyObject*) {
    if (g_recording == nullptr) {
        return notRecording();
    }
    return PyLong_FromLongLong(g_recording->nowNs());
}

PyObject* addRegion(PyObject*, PyObject* args) {
    const char* name = nullptr;
    long long begin = 0;
    long long end = 0;
    if (!PyArg_ParseTuple(args, "sLL", &name, &begin, &end)) {
        return nullptr;
    }
    if (g_recording != nullptr) {
        g_recording->addRegion(name, begin, end);
    }
    Py_RETURN_NONE;
}

PyObject* currentBytes(PyObject*, PyObject*) {
    if (g_recording == nullptr) {
        return notRecording();
    }
    return PyLong_FromLongLong(g_recording->currentBytes());
}

PyObject* step(PyObject*, PyObject*) {
    return PyLong_FromLongLong(g_recording != nullptr ? g_recording->step() : 0);
}

PyMethodDef g_methods[] = {
    {"start", start, METH_VARARGS,
     "start(out, python_frames, poll_ms, program_json, torch_version, device[, "
     "device_memory_limit])"},
    {"finish", finish, METH_VARARGS,
     "finish(ending, exit_status, device[, allocator_json]) -> summary JSON"},
    {"parse_size", parseSize, METH_VARARGS, "parse_size(text) -> bytes or None"},
    {"attach_cuda_segments", attachCudaSegments, METH_NOARGS,
     "attach the CUDA caching allocator's trace tracker (segments, reserved line)"},
    {"assemble", assemble, METH_VARARGS,
     "assemble(out, first_pid) -> (run_directory, description): the program's processes"},
    {"recover", recover, METH_VARARGS,
     "recover(journal, out, ending, exit_status): a dead program's run file from its journal"},
    {"parse_option", parseOption, METH_VARARGS,
     "parse_option(flag, text) -> the value of a recorder option, or ValueError"},
    {"journal_path", journalPath, METH_VARARGS, "journal_path(out) -> OUT's journal"},
    {"staging_dir", stagingDir, METH_VARARGS,
     "staging_dir(out) -> the folder the program's other processes record into"},
    {"skip_code", skipCode, METH_O, "leave this code object's frames out of Python frames"},
    {"event", event, METH_VARARGS,
     "event(code, loss): forward 0, backward 1, backward done 2, "
     "optimizer 3, optimizer done 4"},
    {"note_optimizer", noteOptimizer, METH_VARARGS,
     "note_optimizer(name): an optimizer a step called (\"ZeroOne > AdamW\")"},
    {"role", role, METH_VARARGS, "role(storage_ptr, category, device, owner_module=None)"},
    {"module_enter", moduleEnter, METH_VARARGS, "module_enter(path, file, line)"},
    {"module_exit", moduleExit, METH_VARARGS, "module_exit(depth): close scopes down to depth"},
    {"module_depth", moduleDepth, METH_NOARGS, "open module scopes on this thread"},
    {"thread_enter", threadEnter, METH_NOARGS, "record the calling thread"},
    {"thread_exit", threadExit, METH_NOARGS, "stop recording the calling thread"},
    {"before_fork", beforeFork, METH_NOARGS, "before fork(): the trace drained and held"},
    {"after_fork_parent", afterForkParent, METH_NOARGS, "after fork() in the parent"},
    {"after_fork_child", afterForkChild, METH_VARARGS,
     "after_fork_child([restart]) -> (blocks, bytes) the child inherits, or None"},
    {"now_ns", nowNs, METH_NOARGS, "the recording's clock"},
    {"add_region", addRegion, METH_VARARGS, "add_region(name, begin_ns, end_ns)"},
    {"current_bytes", currentBytes, METH_NOARGS, "bytes the recording counts alive now"},
    {"step", step, METH_NOARGS, "the step being recorded (0: initialisation)"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef g_module = {
    PyModuleDef_HEAD_INIT,
    "_memscope",
    "Memscope's recorder inside a Python program",
    -1,
    g_methods,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace

PyMODINIT_FUNC PyInit__memscope() {
    PyObject* module = PyModule_Create(&g_module);
    if (module == nullptr) {
        return nullptr;
    }
    PyModule_AddStringConstant(module, "TORCH_VERSION", MEMSCOPE_LIBTORCH_VERSION);
    PyModule_AddStringConstant(module, "VERSION", MEMSCOPE_VERSION);
    PyModule_AddIntConstant(module, "PYTHON_FRAMES_SUPPORTED",
                            memscope::PythonStack::supported() ? 1 : 0);
    PyModule_AddIntConstant(module, "ALL_FRAMES", memscope::RecorderOptionTable::kAll);
    PyModule_AddIntConstant(module, "MAX_STACK_FRAMES",
                            static_cast<long>(memscope::PythonStack::kMaxFrames));
    // The numbers the hooks send (ProgramRecording::Event, trace/category.h).
    using Event = ProgramRecording::Event;
    const std::pair<const char*, Event> events[] = {{"EVENT_FORWARD", Event::Forward},
                                                    {"EVENT_BACKWARD", Event::Backward},
                                                    {"EVENT_BACKWARD_DONE", Event::BackwardDone},
                                                    {"EVENT_OPTIMIZER", Event::Optimizer},
                                                    {"EVENT_OPTIMIZER_DONE", Event::OptimizerDone}};
    for (const auto& [name, value] : events) {
        PyModule_AddIntConstant(module, name, static_cast<long>(value));
    }
    for (int c = 0; c < memscope::kCategoryCount; ++c) {
        const std::string name =
            "CATEGORY_" + memscope::toString(static_cast<memscope::Category>(c));
        PyModule_AddIntConstant(module, name.c_str(), c);
    }
    // The recorder's options (run/recorder_option_table.h), for the package's command line.
    PyObject* options =
        PyTuple_New(static_cast<Py_ssize_t>(memscope::RecorderOptionTable::rows().size()));
    Py_ssize_t i = 0;
    for (const auto& row : memscope::RecorderOptionTable::rows()) {
        PyTuple_SET_ITEM(
            options, i++,
            Py_BuildValue("{s:s,s:s,s:s,s:s,s:s}", "flag", row.flag, "key", row.key, "metavar",
                          row.metavar, "default", row.fallback, "help", row.help));
    }
    PyModule_AddObject(module, "OPTIONS", options);
    return module;
}
