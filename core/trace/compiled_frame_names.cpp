#include "trace/compiled_frame_names.h"

#include "trace/trace.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <vector>

namespace memscope {

namespace {

bool hasTail(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

size_t skipSpace(const std::string& text, size_t i = 0) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
        ++i;
    }
    return i;
}

// "buf7" of `    buf7 = empty_strided_cpu(...)`, else "".
std::string bufferMadeOn(const std::string& line) {
    size_t i = skipSpace(line);
    const size_t start = i;
    while (i < line.size() && isWordChar(line[i])) {
        ++i;
    }
    const std::string name = line.substr(start, i - start);
    i = skipSpace(line, i);
    if (name.empty() || i >= line.size() || line[i] != '=') {
        return "";
    }
    i = skipSpace(line, i + 1);
    return line.compare(i, 13, "empty_strided") == 0 ? name : "";
}

bool mentions(const std::string& line, const std::string& word) {
    for (size_t at = line.find(word); at != std::string::npos; at = line.find(word, at + 1)) {
        const bool before = at == 0 || !isWordChar(line[at - 1]);
        const size_t end = at + word.size();
        const bool after = end >= line.size() || !isWordChar(line[end]);
        if (before && after) {
            return true;
        }
    }
    return false;
}

// The callee of a line that is a call statement (`name(`, `a.b(`, `a.run(`), else "".
std::string calleeOf(const std::string& line) {
    size_t i = skipSpace(line);
    const size_t start = i;
    while (i < line.size() && (isWordChar(line[i]) || line[i] == '.')) {
        ++i;
    }
    if (i == start || i >= line.size() || line[i] != '(') {
        return "";
    }
    std::string callee = line.substr(start, i - start);
    if (hasTail(callee, ".run")) {
        callee.resize(callee.size() - 4);
    }
    return callee;
}

std::string kernelName(const std::vector<std::string>& lines, int line, const std::string& was) {
    if (line < 1 || static_cast<size_t>(line) > lines.size()) {
        return "";
    }
    const std::string buffer = bufferMadeOn(lines[size_t(line) - 1]);
    if (!buffer.empty()) {
        const size_t last = std::min(lines.size(), size_t(line) + 80);
        for (size_t i = size_t(line); i < last; ++i) {
            const std::string& text = lines[i];
            if (!mentions(text, buffer) || !bufferMadeOn(text).empty()) {
                continue;
            }
            const std::string callee = calleeOf(text);
            if (callee.empty() || callee == "del" || callee == "reinterpret_tensor") {
                continue;
            }
            std::string name = callee;
            const std::string marker = "# Topologically Sorted Source Nodes: [";
            if (i > 0) {
                const std::string& above = lines[i - 1];
                const size_t at = above.find(marker);
                const size_t close = above.find(']', at == std::string::npos ? 0 : at);
                if (at != std::string::npos && close != std::string::npos) {
                    name +=
                        " [" + above.substr(at + marker.size(), close - at - marker.size()) + "]";
                }
            }
            return name;
        }
    }
    return "compiled region (" + was + ")";
}

}  // namespace

bool CompiledFrameNames::generated(const std::string& file) {
    return hasTail(file, ".py") && file.find("torchinductor") != std::string::npos;
}

int CompiledFrameNames::apply(Trace& trace) {
    std::vector<Frame> frames = trace.stacks.frames();
    std::map<std::string, std::vector<std::string>> files;
    int renamed = 0;
    for (Frame& frame : frames) {
        if (frame.kind != FrameKind::Other || !generated(frame.file)) {
            continue;
        }
        auto it = files.find(frame.file);
        if (it == files.end()) {
            std::vector<std::string> lines;
            std::ifstream in(frame.file);
            for (std::string text; std::getline(in, text);) {
                lines.push_back(std::move(text));
            }
            it = files.emplace(frame.file, std::move(lines)).first;
        }
        if (it->second.empty()) {
            continue;
        }
        const std::string name = kernelName(it->second, frame.line, frame.name);
        if (!name.empty() && name != frame.name) {
            frame.name = name;
            ++renamed;
        }
    }
    if (renamed > 0) {
        trace.stacks.assign(std::move(frames), trace.stacks.parents(), trace.stacks.nodeFrames());
    }
    return renamed;
}

}  // namespace memscope
