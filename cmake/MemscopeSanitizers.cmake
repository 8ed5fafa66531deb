# Sanitizer builds (the asan and tsan presets, scripts/sanitize.sh).
#   MEMSCOPE_SANITIZER=address  AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer;
#                               any report fails the test (-fno-sanitize-recover=all)
#   MEMSCOPE_SANITIZER=thread   ThreadSanitizer
# Only Memscope's own code is instrumented: LibTorch, OpenMP and Qt come from Debian as they are,
# so their reports are false positives or out of our hands. tests/sanitizers/*.supp name each
# one with the reason; MEMSCOPE_SANITIZER_ENV carries the runtime options and those files into
# every test (memscope_add_test, memscope_add_cli_test), so a plain `ctest` in the build tree
# runs exactly as CI does. Reports go to BUILD/sanitizer-reports/ (one file per process that
# had one, named after its executable), not to stderr: a memscope-cli started by a CLI suite may
# fail in a way the suite does not look at, and scripts/sanitize.sh fails when any file is there.
set(MEMSCOPE_SANITIZER "" CACHE STRING "Sanitizer build: address (ASan+UBSan) or thread (TSan)")
set_property(CACHE MEMSCOPE_SANITIZER PROPERTY STRINGS "" address thread)
set(MEMSCOPE_SANITIZER_ENV "")
set(MEMSCOPE_SANITIZER_PRELOAD "")

set(_supp ${PROJECT_SOURCE_DIR}/tests/sanitizers)
set(_log "log_path=${PROJECT_BINARY_DIR}/sanitizer-reports/report:log_exe_name=1")
if(MEMSCOPE_SANITIZER STREQUAL "address")
  set(_flags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${_flags})
  add_link_options(${_flags})
  # halt_on_error: the first report ends the process.
  set(MEMSCOPE_SANITIZER_ENV
    "ASAN_OPTIONS=${_log}:suppressions=${_supp}/asan.supp:halt_on_error=1:strict_string_checks=1:check_initialization_order=1"
    "LSAN_OPTIONS=suppressions=${_supp}/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=${_log}:suppressions=${_supp}/ubsan.supp:print_stacktrace=1:halt_on_error=1")
  # The runtimes an uninstrumented interpreter preloads to load the instrumented recorder
  # (python/): memscope-cli record --python passes them on (app/cli/python_record.cpp), and
  # tests/python's asan suites start python3 with them.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE _asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libubsan.so
                  OUTPUT_VARIABLE _ubsan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(MEMSCOPE_SANITIZER_PRELOAD "${_asan_runtime}:${_ubsan_runtime}")
elseif(MEMSCOPE_SANITIZER STREQUAL "thread")
  set(_flags -fsanitize=thread -fno-omit-frame-pointer)
  add_compile_options(${_flags})
  add_link_options(${_flags})
  set(MEMSCOPE_SANITIZER_ENV
    "TSAN_OPTIONS=${_log}:suppressions=${_supp}/tsan.supp:halt_on_error=1:second_deadlock_stack=1:print_suppressions=0")
elseif(NOT MEMSCOPE_SANITIZER STREQUAL "")
  message(FATAL_ERROR "MEMSCOPE_SANITIZER must be empty, address or thread")
endif()
if(MEMSCOPE_SANITIZER)
  file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/sanitizer-reports)
  message(STATUS "Memscope: sanitizer build (${MEMSCOPE_SANITIZER})")
endif()
