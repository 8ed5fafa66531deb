#pragma once

#include <ATen/record_function.h>

#include <string>

namespace memscope {

// Opens a user-scope record function named after a module (for example
// "TinyLlama.blocks.2.attention.q_proj") for the lifetime of the object, so that allocation
// hooks and profilers can attribute memory to the module. Costs one thread-local check when no
// callback is installed. The name must outlive the scope (modules keep theirs as members).
// Also the point where a cancelled run stops: every module forward passes through here.
class ModuleScope {
  public:
    // file and line default to the call site: the module's forward.
    explicit ModuleScope(const std::string& name, const char* file = __builtin_FILE(),
                         int line = __builtin_LINE());
    ModuleScope(const ModuleScope&) = delete;
    ModuleScope& operator=(const ModuleScope&) = delete;

    // Source location of the scope being opened, for record-function callbacks that run inside
    // the constructor (they see the scope's name; this gives them where it is in the code).
    struct Location {
        const char* file = nullptr;
        int line = 0;
    };
    static Location pendingLocation();

  private:
    at::RecordFunction m_guard;
};

}  // namespace memscope
