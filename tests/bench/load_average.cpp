#include "load_average.h"

#include <algorithm>
#include <cstdio>
#include <thread>

double LoadAverage::oneMinute() {
    double load = -1;
    if (FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &load) != 1) {
            load = -1;
        }
        std::fclose(f);
    }
    return load;
}

void LoadAverage::print() {
    const double load = oneMinute();
    if (load < 0) {
        return;
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf("  load average (1 min)     %8.2f on %u cores%s\n", load, cores,
                load > double(cores) ? "  (busy machine: stalls inflated)" : "");
}
