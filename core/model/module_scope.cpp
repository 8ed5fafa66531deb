#include "model/module_scope.h"

#include "model/cancellation.h"

namespace memscope {

ModuleScope::ModuleScope(const std::string& name) : m_guard(at::RecordScope::USER_SCOPE) {
    CancellationToken::throwIfRequested();
    if (m_guard.isActive()) {
        m_guard.before(name.c_str());
    }
}

}  // namespace memscope
