#pragma once

// Visits every event column with its name, in the order files store them: one list for the
// run file (io/run_file.h), the journal (io/run_journal.h) and their readers, so they cannot
// disagree about which columns exist.

namespace memscope {

template <typename Columns, typename F>
void forEachEventColumn(Columns& c, F&& f) {
    f("time_ns", c.time_ns);
    f("addr", c.addr);
    f("size", c.size);
    f("allocated", c.allocated);
    f("reserved", c.reserved);
    f("stack", c.stack);
    f("step", c.step);
    f("kind", c.kind);
    f("phase", c.phase);
    f("thread", c.thread);
    f("device", c.device);
}

}  // namespace memscope
