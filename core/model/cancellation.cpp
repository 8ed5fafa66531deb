#include "model/cancellation.h"

namespace memscope {

namespace {
thread_local const CancellationToken* t_token = nullptr;
}

void CancellationToken::install(const CancellationToken* token) {
    t_token = token;
}

const CancellationToken* CancellationToken::installed() {
    return t_token;
}

void CancellationToken::throwIfRequested() {
    if (t_token != nullptr && t_token->requested()) {
        throw RunCancelled();
    }
}

}  // namespace memscope
