#include "predict/device_database.h"

#include "model/config_error.h"
#include "model/printable_text.h"
#include "run/byte_size.h"

#include <yaml-cpp/yaml.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#ifndef MEMSCOPE_SOURCE_RESOURCES
#define MEMSCOPE_SOURCE_RESOURCES ""
#endif

namespace memscope {

namespace {

int64_t physicalMemory() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? int64_t(pages) * int64_t(page) : 0;
}

double yamlNumber(const YAML::Node& node, const std::string& field) {
    try {
        return node.as<double>();
    } catch (const YAML::Exception&) {
        throw ConfigError(field, "must be a number");
    }
}

std::string yamlText(const YAML::Node& node, const std::string& field) {
    if (!node.IsScalar()) {
        throw ConfigError(field, "must be a string");
    }
    return node.as<std::string>();
}

int64_t bytes(const YAML::Node& node, const std::string& field) {
    const auto value = yamlText(node, field);
    if (value == "auto") {
        return physicalMemory();
    }
    const auto parsed = parseByteSize(value);
    if (!parsed || *parsed < 0) {
        throw ConfigError(field,
                          "is not a size (e.g. 80GiB, 512MiB): '" + printableText(value) + "'");
    }
    return *parsed;
}

DeviceSpec readDevice(const YAML::Node& node, const std::string& where) {
    if (!node.IsMap()) {
        throw ConfigError(where, "must be a mapping");
    }
    DeviceSpec d;
    for (const auto& entry : node) {
        if (!entry.first.IsScalar()) {  // `? [a, b]: 1`: as<std::string>() would throw
            throw ConfigError(where, "field names must be plain words");
        }
        const auto key = printableText(entry.first.as<std::string>());
        const auto field = where + "." + key;
        const auto& value = entry.second;
        if (key == "name") {
            d.name = yamlText(value, field);
        } else if (key == "aliases") {
            if (!value.IsSequence()) {
                throw ConfigError(field, "must be a list of names");
            }
            for (const auto& alias : value) {
                d.aliases.push_back(yamlText(alias, field));
            }
        } else if (key == "kind") {
            const auto kind = yamlText(value, field);
            if (kind != "gpu" && kind != "cpu") {
                throw ConfigError(field, "must be gpu or cpu");
            }
            d.gpu = kind == "gpu";
        } else if (key == "memory") {
            d.memory_bytes = bytes(value, field);
        } else if (key == "usable_fraction") {
            d.usable_fraction = yamlNumber(value, field);
            if (d.usable_fraction <= 0 || d.usable_fraction > 1) {
                throw ConfigError(field, "must be in (0, 1]");
            }
        } else if (key == "fp32_tflops") {
            d.fp32_tflops = yamlNumber(value, field);
        } else if (key == "bf16_tflops") {
            d.bf16_tflops = yamlNumber(value, field);
        } else if (key == "fp16_tflops") {
            d.fp16_tflops = yamlNumber(value, field);
        } else if (key == "memory_bandwidth_gbs") {
            d.memory_bandwidth_gbs = yamlNumber(value, field);
        } else if (key == "interconnect") {
            d.interconnect = yamlText(value, field);
        } else if (key == "context") {
            d.context_bytes = bytes(value, field);
        } else if (key == "reserved_factor") {
            d.reserved_factor = yamlNumber(value, field);
            if (d.reserved_factor < 1) {
                throw ConfigError(field, "must be at least 1");
            }
        } else {
            throw ConfigError(field, "unknown field");
        }
    }
    if (d.name.empty()) {
        throw ConfigError(where + ".name", "is missing");
    }
    if (d.memory_bytes <= 0) {
        throw ConfigError(where + ".memory", "is missing or zero");
    }
    return d;
}

}  // namespace

DeviceDatabase DeviceDatabase::parse(const std::string& yaml_text, const std::string& where) {
    YAML::Node root;
    try {
        root = YAML::Load(yaml_text);
    } catch (const YAML::Exception& e) {
        throw ConfigError(where, std::string("not valid YAML: ") + e.what());
    }
    if (!root.IsMap() || !root["devices"] || !root["devices"].IsSequence()) {
        throw ConfigError(where + ": devices", "a list of devices is required");
    }
    DeviceDatabase db;
    db.m_source = where;
    if (const auto links = root["interconnects"]) {
        if (!links.IsSequence()) {
            throw ConfigError(where + ": interconnects", "must be a list");
        }
        for (size_t i = 0; i < links.size(); ++i) {
            const auto field = where + ": interconnects[" + std::to_string(i) + "]";
            if (!links[i].IsMap() || !links[i]["name"] || !links[i]["bandwidth_gbs"]) {
                throw ConfigError(field, "needs name and bandwidth_gbs");
            }
            db.m_interconnects.emplace_back(
                yamlText(links[i]["name"], field + ".name"),
                yamlNumber(links[i]["bandwidth_gbs"], field + ".bandwidth_gbs"));
        }
    }
    const auto devices = root["devices"];
    for (size_t i = 0; i < devices.size(); ++i) {
        const auto field = where + ": devices[" + std::to_string(i) + "]";
        auto device = readDevice(devices[i], field);
        if (!device.interconnect.empty()) {
            const double gbs = db.interconnectBandwidth(device.interconnect);
            if (gbs < 0) {
                throw ConfigError(
                    field + ".interconnect",
                    "unknown interconnect '" + printableText(device.interconnect) + "'");
            }
            device.interconnect_gbs = gbs;
        }
        db.m_devices.push_back(std::move(device));
    }
    return db;
}

DeviceDatabase DeviceDatabase::load(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw ConfigError("--device-db", "cannot read " + path);
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parse(buffer.str(), path);
}

std::string DeviceDatabase::defaultPath() {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("MEMSCOPE_DEVICES"); env != nullptr && *env != '\0') {
        return env;
    }
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // bin/memscope-cli -> share/memscope/devices.yaml; build trees: <build>/app/...
        const auto installed = exe.parent_path().parent_path() / "share/memscope/devices.yaml";
        if (fs::exists(installed, ec)) {
            return installed.string();
        }
    }
    const fs::path source = fs::path(MEMSCOPE_SOURCE_RESOURCES) / "devices.yaml";
    if (!source.empty() && fs::exists(source, ec)) {
        return source.string();
    }
    return {};
}

DeviceDatabase DeviceDatabase::loadDefault(const std::string& path) {
    if (!path.empty()) {
        return load(path);
    }
    const auto found = defaultPath();
    if (found.empty()) {
        throw ConfigError("--device-db", "no device database found (set MEMSCOPE_DEVICES)");
    }
    return load(found);
}

const DeviceSpec* DeviceDatabase::find(const std::string& name) const {
    for (const auto& device : m_devices) {
        if (device.matches(name)) {
            return &device;
        }
    }
    return nullptr;
}

namespace {

// Lower-case alphanumeric words: "NVIDIA A100-SXM4-80GB" -> nvidia, a100, sxm4, 80gb.
std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += char(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            out.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty()) {
        out.push_back(std::move(word));
    }
    return out;
}

}  // namespace

const DeviceSpec* DeviceDatabase::match(const std::string& reported_name,
                                        int64_t memory_bytes) const {
    if (const auto* exact = find(reported_name)) {
        return exact;
    }
    const auto reported = words(reported_name);
    const DeviceSpec* best = nullptr;
    size_t best_words = 0;
    int64_t best_distance = 0;
    for (const auto& device : m_devices) {
        if (!device.gpu) {
            continue;
        }
        std::vector<std::string> names = device.aliases;
        names.push_back(device.name);
        for (const auto& name : names) {
            const auto needed = words(name);
            const bool all =
                !needed.empty() && std::all_of(needed.begin(), needed.end(), [&](const auto& w) {
                    return std::find(reported.begin(), reported.end(), w) != reported.end();
                });
            if (!all) {
                continue;
            }
            const int64_t distance =
                memory_bytes > 0 ? std::llabs(device.memory_bytes - memory_bytes) : 0;
            if (!best || needed.size() > best_words ||
                (needed.size() == best_words && distance < best_distance)) {
                best = &device;
                best_words = needed.size();
                best_distance = distance;
            }
        }
    }
    return best;
}

std::vector<std::string> DeviceDatabase::names() const {
    std::vector<std::string> names;
    for (const auto& device : m_devices) {
        names.push_back(device.name);
    }
    return names;
}

double DeviceDatabase::interconnectBandwidth(const std::string& name) const {
    for (const auto& [link, gbs] : m_interconnects) {
        if (link == name) {
            return gbs;
        }
    }
    return -1;
}

}  // namespace memscope
