#include "run/recorder_option_table.h"

#include "model/config_error.h"
#include "model/train_option_table.h"
#include "run/byte_size.h"

#include <cerrno>
#include <cstdlib>

namespace memscope {

const std::vector<RecorderOption>& RecorderOptionTable::rows() {
    using K = RecorderOption::Kind;
    static const std::vector<RecorderOption> table = {
        {"--out", "out", "RUN.memscope", K::Path, 0, 0, "", "run.memscope",
         "the run file (RUN.memscope.journal while it records; a run directory when the program "
         "starts processes of its own)"},
        {"--python-frames", "python_frames", "N|all", K::Count, 0, 100000, "all", "all",
         "Python frames per allocation: all (the whole stack from the program's entry; a stack "
         "deeper than 256 frames keeps its outermost and innermost 128), or the innermost ones "
         "until N of the program's own; 0: none"},
        {"--poll-ms", "poll_ms", "N", K::Count, 1, 10000, "", "50",
         "how often the recording is drained into its journal, in milliseconds"},
        {"--comm-timeout", "comm_timeout", "S", K::Count, 1, 100000, "", "",
         "how long init_process_group may wait for the other ranks, in seconds (default: "
         "PyTorch's own)"},
        // The trainer's option of the same name (its flag from its row).
        {TrainOptionTable::row("device_memory_limit").flag, "device_memory_limit", "SIZE", K::Size,
         0, INT64_MAX, "", "",
         "an allocation past this many bytes fails with LibTorch's out-of-memory error, as on a "
         "device of that size (each process its own); 0: no limit, as for the trainer"},
    };
    return table;
}

const RecorderOption* RecorderOptionTable::find(std::string_view flag) {
    for (const auto& row : rows()) {
        if (flag == row.flag) {
            return &row;
        }
    }
    return nullptr;
}

RecorderOptionTable::Value RecorderOptionTable::parse(const RecorderOption& row,
                                                      const std::string& text) {
    Value value;
    value.text = text;
    const std::string flag = row.flag;
    switch (row.kind) {
        case RecorderOption::Kind::Path:
            if (text.empty()) {
                throw ConfigError(flag, "needs a file name");
            }
            return value;
        case RecorderOption::Kind::Count: {
            if (*row.all_word != '\0' && text == row.all_word) {
                value.number = kAll;
                return value;
            }
            char* end = nullptr;
            errno = 0;
            const long long n = std::strtoll(text.c_str(), &end, 10);
            if (text.empty() || *end != '\0' || errno != 0 || n < row.min || n > row.max) {
                std::string range = "a whole number from " + std::to_string(row.min) + " to " +
                                    std::to_string(row.max);
                if (*row.all_word != '\0') {
                    range += " or " + std::string(row.all_word);
                }
                throw ConfigError(flag, "'" + text + "' is not " + range);
            }
            value.number = n;
            return value;
        }
        case RecorderOption::Kind::Size: {
            const auto bytes = parseByteSize(text);
            if (!bytes || *bytes < row.min) {
                throw ConfigError(flag, "'" + text + "' is not a size (try 512MiB or 2GiB)");
            }
            value.number = *bytes;
            return value;
        }
    }
    return value;
}

std::string RecorderOptionTable::usage() {
    std::string text;
    for (const auto& row : rows()) {
        if (!text.empty()) {
            text += ' ';
        }
        text += std::string("[") + row.flag + " " + row.metavar + "]";
    }
    return text;
}

std::string RecorderOptionTable::help(const std::string& indent) {
    std::string text;
    for (const auto& row : rows()) {
        text += indent + row.flag + " " + row.metavar + "\n" + indent + "    " + row.help;
        if (*row.fallback != '\0') {
            text += std::string(" (default ") + row.fallback + ")";
        }
        text += "\n";
    }
    return text;
}

}  // namespace memscope
