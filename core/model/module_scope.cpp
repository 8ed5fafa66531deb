#include "model/module_scope.h"

#include "model/cancellation.h"

namespace memscope {

namespace {
thread_local ModuleScope::Location t_pending;
}

ModuleScope::ModuleScope(const std::string& name, const char* file, int line)
    : m_guard(at::RecordScope::USER_SCOPE) {
    CancellationToken::throwIfRequested();
    if (m_guard.isActive()) {
        t_pending = {file, line};
        m_guard.before(name.c_str());
        t_pending = {};
    }
}

ModuleScope::Location ModuleScope::pendingLocation() {
    return t_pending;
}

}  // namespace memscope
