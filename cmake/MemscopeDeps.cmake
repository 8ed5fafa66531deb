# The libraries besides LibTorch and Qt. Debian's packages install CMake configs (or a pkg-config
# file for zstd) and are found that way. A machine without them (a lent GPU machine: PyTorch,
# nvcc, CMake and ninja, no package registry) gets a folder of headers and static libraries that
# `scripts/gpu-check.sh --prepare DIR` fills on a Debian machine, given in CMAKE_PREFIX_PATH:
# each library falls back to a plain header and library search there, and no pkg-config is needed.

find_package(nlohmann_json 3.9 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(MEMSCOPE_NLOHMANN_INCLUDE_DIR nlohmann/json.hpp)
  if(NOT MEMSCOPE_NLOHMANN_INCLUDE_DIR)
    message(FATAL_ERROR "Memscope: nlohmann/json not found (Debian: nlohmann-json3-dev)")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE
                             ${MEMSCOPE_NLOHMANN_INCLUDE_DIR})
endif()

# Run files compress their columns with zstd (Debian: libzstd-dev).
add_library(memscope_zstd INTERFACE)
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(ZSTD QUIET IMPORTED_TARGET libzstd)
endif()
if(TARGET PkgConfig::ZSTD)
  target_link_libraries(memscope_zstd INTERFACE PkgConfig::ZSTD)
else()
  find_path(MEMSCOPE_ZSTD_INCLUDE_DIR zstd.h)
  find_library(MEMSCOPE_ZSTD_LIBRARY NAMES libzstd.a zstd)
  if(NOT MEMSCOPE_ZSTD_INCLUDE_DIR OR NOT MEMSCOPE_ZSTD_LIBRARY)
    message(FATAL_ERROR "Memscope: zstd not found (Debian: libzstd-dev)")
  endif()
  target_include_directories(memscope_zstd SYSTEM INTERFACE ${MEMSCOPE_ZSTD_INCLUDE_DIR})
  target_link_libraries(memscope_zstd INTERFACE ${MEMSCOPE_ZSTD_LIBRARY})
endif()

if(MEMSCOPE_RECORDER_ONLY)
  # The recorder alone (pip install, pyproject.toml) reads no YAML, parses no command line and
  # trains on no process group: nlohmann/json and zstd are all it needs besides LibTorch.
  return()
endif()

find_package(yaml-cpp QUIET)
if(NOT TARGET yaml-cpp)
  find_path(MEMSCOPE_YAML_CPP_INCLUDE_DIR yaml-cpp/yaml.h)
  find_library(MEMSCOPE_YAML_CPP_LIBRARY NAMES libyaml-cpp.a yaml-cpp)
  if(NOT MEMSCOPE_YAML_CPP_INCLUDE_DIR OR NOT MEMSCOPE_YAML_CPP_LIBRARY)
    message(FATAL_ERROR "Memscope: yaml-cpp not found (Debian: libyaml-cpp-dev)")
  endif()
  add_library(yaml-cpp UNKNOWN IMPORTED)
  set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION ${MEMSCOPE_YAML_CPP_LIBRARY}
                                            INTERFACE_INCLUDE_DIRECTORIES
                                            ${MEMSCOPE_YAML_CPP_INCLUDE_DIR})
endif()

# memscope-cli's command line (Debian: libcli11-dev); header-only.
find_package(CLI11 QUIET)
if(NOT TARGET CLI11::CLI11)
  find_path(MEMSCOPE_CLI11_INCLUDE_DIR CLI/CLI.hpp)
  if(NOT MEMSCOPE_CLI11_INCLUDE_DIR)
    message(FATAL_ERROR "Memscope: CLI11 not found (Debian: libcli11-dev)")
  endif()
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 SYSTEM INTERFACE ${MEMSCOPE_CLI11_INCLUDE_DIR})
endif()

# LibTorch's c10d headers include Gloo's (Debian: libgloo-dev; a pip wheel has Gloo compiled in
# but ships no headers). Found here so that a prepared folder can hold them too.
find_path(MEMSCOPE_GLOO_INCLUDE_DIR gloo/algorithm.h)
