#include "trace/huge_page_policy.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace memscope {

std::optional<bool> HugePagePolicy::parseOverride(const char* value) {
    if (value == nullptr) {
        return std::nullopt;
    }
    if (std::strcmp(value, "1") == 0) {
        return true;
    }
    if (std::strcmp(value, "0") == 0) {
        return false;
    }
    return std::nullopt;
}

HugePagePolicy HugePagePolicy::fromEnvironment(const char* value, std::string* warning) {
    HugePagePolicy policy;
    policy.source = "default";
    if (const auto forced = parseOverride(value)) {
        policy.use_huge_pages = *forced;
        policy.source = std::string("MEMSCOPE_HUGE_PAGES=") + value;
    } else if (value != nullptr && warning != nullptr) {
        *warning = std::string("MEMSCOPE_HUGE_PAGES=") + value +
                   ": expected 0 or 1; using the default (4 KiB pages)";
    }
    return policy;
}

const HugePagePolicy& HugePagePolicy::current() {
    static const HugePagePolicy policy = [] {
        std::string warning;
        HugePagePolicy p = fromEnvironment(std::getenv("MEMSCOPE_HUGE_PAGES"), &warning);
        if (!warning.empty()) {
            std::fprintf(stderr, "memscope: %s\n", warning.c_str());
        }
        return p;
    }();
    return policy;
}

std::string HugePagePolicy::describe() const {
    return std::string("huge pages: ") + (use_huge_pages ? "yes" : "no") + " (" + source + ")";
}

}  // namespace memscope
