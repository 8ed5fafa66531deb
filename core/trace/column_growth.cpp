#include "trace/column_growth.h"

#include "trace/huge_page_policy.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

#include <cstdint>

namespace memscope {

void adviseHugePages(void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (!HugePagePolicy::current().use_huge_pages) {
        return;
    }
    constexpr uintptr_t kHuge = kHugePageBytes;
    const auto begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin) {
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)bytes;
#endif
}

size_t reserveAheadLimitBytes() {
    static const size_t limit = [] {
        const long pages = sysconf(_SC_PHYS_PAGES);
        const long page_bytes = sysconf(_SC_PAGESIZE);
        if (pages <= 0 || page_bytes <= 0) {
            return kOwnMappingBytes;
        }
        return std::max(kOwnMappingBytes, size_t(pages) / 8 * size_t(page_bytes));
    }();
    return limit;
}

void growSpans(std::vector<Span>& spans, size_t needed, size_t at_least) {
    growColumn(spans, needed, at_least);
}

}  // namespace memscope
