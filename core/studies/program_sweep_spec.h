#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace memscope {

// A sweep of a user's Python program over a grid of sizes (memscope-cli sweep --python; issue
// 44): the program's command line with {name} placeholders, and the grid of values each name
// takes, e.g. `train.py --d-model {d} --num-layers {L}` with `d=64,128 L=1,2`. A grid entry is
// a list of values (`d=64,128`) or a multiple of another entry (`d_ff=4*d`, one value per point,
// not an axis). Every placeholder must have a grid entry and every grid entry a placeholder.
struct ProgramSweepSpec {
    struct Axis {
        std::string name;
        std::vector<int64_t> values;  // a list; empty for a multiple
        int64_t factor = 0;           // a multiple: factor * of
        std::string of;
    };

    std::vector<std::string> program;  // SCRIPT.py ARGS... (or -m MODULE ARGS...)
    std::vector<Axis> axes;            // in the order given
    std::string python = "python3";    // the interpreter (record --python-exe)

    // "d=64,128" or "d_ff=4*d"; throws ConfigError("--grid", ...) naming the item.
    static Axis parseAxis(const std::string& item);
    // The placeholders of the program's arguments, in order of first use.
    std::vector<std::string> placeholders() const;
    // Throws ConfigError("--grid", ...) with one line naming the first placeholder without a
    // grid entry, grid entry without a placeholder, duplicate entry or multiple of an unknown
    // entry.
    void check() const;
    // Every combination of the list entries (the first entry varying slowest), the multiples
    // filled in. check() first.
    std::vector<std::map<std::string, int64_t>> points() const;
    // The program's arguments at a point, placeholders replaced.
    std::vector<std::string> argumentsAt(const std::map<std::string, int64_t>& point) const;
    // The inverse of argumentsAt: the sizes a command line of the program was run with (a run
    // file's recorded program, SCRIPT ARGS... or -m MODULE ARGS...), read where the placeholders
    // stand. The script is compared by file name, the rest word by word. Throws InputError
    // naming the first word that differs, or a size given two different values.
    std::map<std::string, int64_t> sizesIn(const std::vector<std::string>& command) const;
    // "d64-L1-s32-b2": a point's name, also its run file's (label + ".memscope").
    std::string labelOf(const std::map<std::string, int64_t>& point) const;
    // Fills in the multiples a point lacks (predict --at without d_ff when d_ff=4*d).
    void completeMultiples(std::map<std::string, int64_t>& point) const;

    nlohmann::json toJson() const;
    // Throws InputError naming the field.
    static ProgramSweepSpec fromJson(const nlohmann::json& json);
};

}  // namespace memscope
