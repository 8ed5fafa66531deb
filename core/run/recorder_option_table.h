#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memscope {

// The options of the Python recorder, described once: `python -m memscope record`, the runner it
// starts (memscope/run.py) and `memscope-cli record --python`, which hands them on. The extension
// exports the rows to the package (_memscope.OPTIONS) and parses values with parse() (the
// package's command line is read with them); memscope-cli checks the same rows before it starts
// the package's supervisor. A new option is a row here and the code that uses its value.
struct RecorderOption {
    enum class Kind {
        Path,   // a file name, any text
        Count,  // a whole number in [min, max], or `all_word` for "no cap"
        Size,   // bytes: "512MiB", "2GiB", "1048576" (run/byte_size.h), more than 0
    };
    const char* flag = "";     // "--python-frames"
    const char* key = "";      // "python_frames": the runner's name for the value
    const char* metavar = "";  // "N"
    Kind kind = Kind::Path;
    int64_t min = 0;
    int64_t max = 0;
    const char* all_word = "";  // Count: the word for no cap ("all"), "" when there is none
    const char* fallback = "";  // the value when the option is not given, "" for none
    const char* help = "";      // one line for --help
};

class RecorderOptionTable {
  public:
    static const std::vector<RecorderOption>& rows();
    // The row of `flag` ("--poll-ms"), nullptr when no row has it.
    static const RecorderOption* find(std::string_view flag);
    // The value a Count takes for the all_word (no cap short of the recorder's own limits).
    static constexpr int64_t kAll = 0x7fffffff;
    // The value of `text` for `row`: the path itself, a count, or bytes. Throws ConfigError with
    // the line for the user, naming the flag: "--poll-ms: '0' is not a whole number from 1 to
    // 10000".
    struct Value {
        std::string text;    // Path
        int64_t number = 0;  // Count, Size
    };
    static Value parse(const RecorderOption& row, const std::string& text);
    // "[--out RUN.memscope] [--python-frames N|all] ..." for a usage line.
    static std::string usage();
    // One line per option: flag, metavar, help and default, for --help.
    static std::string help(const std::string& indent = "  ");
};

}  // namespace memscope
