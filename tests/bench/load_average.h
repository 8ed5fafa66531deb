#pragma once

// The benchmarks' note of how busy the machine was: stalls and step times on a loaded machine
// are the scheduler's as much as the code's.
class LoadAverage {
  public:
    // The 1-minute load average (/proc/loadavg), or a negative number where it cannot be read.
    static double oneMinute();
    // Prints "  load average (1 min)  L on N cores", with a warning when L exceeds the cores.
    static void print();
};
