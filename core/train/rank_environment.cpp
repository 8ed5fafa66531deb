#include "train/rank_environment.h"

#include "model/config_error.h"
#include "model/printable_text.h"
#include "run/text_format.h"

#include <cstdlib>

namespace memscope {

namespace {

std::optional<std::string> variable(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

int environmentInteger(const char* name, const std::string& text) {
    const std::optional<int64_t> value = parseWholeNumber(text);
    if (!value || *value < -1'000'000'000 || *value > 1'000'000'000) {
        throw ConfigError(name, "'" + printableText(text) + "' is not an integer");
    }
    return int(*value);
}

// The first of the variables that is set, with its name.
std::optional<std::pair<const char*, int>> firstOf(std::initializer_list<const char*> names) {
    for (const char* name : names) {
        if (auto text = variable(name)) {
            return std::make_pair(name, environmentInteger(name, *text));
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<RankEnvironment> RankEnvironment::fromEnvironment() {
    const auto rank = firstOf({"RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK"});
    const auto world = firstOf({"WORLD_SIZE", "SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE"});
    if (!rank && !world) {
        return std::nullopt;
    }
    if (!world) {
        throw ConfigError("WORLD_SIZE", std::string(rank->first) +
                                            " is set but WORLD_SIZE (or SLURM_NTASKS, "
                                            "OMPI_COMM_WORLD_SIZE) is not");
    }
    if (!rank) {
        throw ConfigError("RANK", std::string(world->first) +
                                      " is set but RANK (or SLURM_PROCID, OMPI_COMM_WORLD_RANK) "
                                      "is not");
    }
    RankEnvironment env;
    env.world_size = world->second;
    env.rank = rank->second;
    if (env.world_size < 1) {
        throw ConfigError(world->first,
                          "must be at least 1, not " + std::to_string(env.world_size));
    }
    if (env.rank < 0 || env.rank >= env.world_size) {
        throw ConfigError(rank->first, std::to_string(env.rank) + " is outside 0.." +
                                           std::to_string(env.world_size - 1) + " (" +
                                           world->first + "=" + std::to_string(env.world_size) +
                                           ")");
    }
    const auto local = firstOf({"LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK"});
    env.local_rank = local ? local->second : env.rank;
    if (env.local_rank < 0) {
        throw ConfigError(local->first, "must not be negative");
    }
    if (auto addr = variable("MASTER_ADDR")) {
        env.master_addr = *addr;
    }
    if (auto port = variable("MASTER_PORT")) {
        env.master_port = environmentInteger("MASTER_PORT", *port);
        if (env.master_port < 1 || env.master_port > 65535) {
            throw ConfigError("MASTER_PORT", "'" + *port + "' is not a port (1..65535)");
        }
    }
    return env;
}

}  // namespace memscope
