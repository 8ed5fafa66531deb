# Precompiled LibTorch headers shared by the test suites and the benchmarks (included at the top
# level: a build without test suites still builds the benchmarks, which use them too).

# The tests of one directory share one precompiled LibTorch header (REUSE_FROM a small host
# target): with a .gch of its own each executable cost about 570 MB of disk and 30 s of compile
# time. One host per directory, because Qt Test defines QT_TESTCASE_BUILDDIR per directory and
# GCC refuses a header precompiled with another value.
# A target whose sources include LibTorch compiles with such a host's header (memscope_reuse_pch).
# Loading that 570 MB header costs about 7 s per file on this machine (15-20 s in CI) even for a
# file that includes nothing, and a file that does not include LibTorch compiles about 14 s
# slower with it than without (tests/widgets/test_timeline_view.cpp: 30 s against 15 s).
# memscope_pch_host(NAME LIBS...): the precompiled LibTorch header's host.
function(memscope_pch_host name)
  memscope_pch_host_of(${name} "${MEMSCOPE_TORCH_PCH}" ${ARGN})
endfunction()

# memscope_pch_host_of(NAME HEADERS LIBS...): a host target NAME (made once) that precompiles the
# list HEADERS with LIBS' usage requirements and the suites' compile options.
function(memscope_pch_host_of name headers)
  if(NOT TARGET ${name})
    add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/pch_host.cpp)
    target_link_libraries(${name} PRIVATE ${ARGN})
    target_precompile_headers(${name} PRIVATE ${headers})
    target_compile_options(${name} PRIVATE ${MEMSCOPE_TEST_COMPILE_OPTIONS})
    set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
  endif()
endfunction()

# The suites that do not include LibTorch share a small precompiled header of Qt Test, Qt Core
# and the standard headers they use (about 200 MB, 11 s to make): here
# tests/core/test_timeline_layout.cpp compiles in 7.0 s instead of 10.2 with it, and
# tests/widgets/test_timeline_view.cpp in 12.6 instead of 17.7; about 90 such files are compiled
# in each of CI's three builds. One host per directory and library (the first of LIBS): Qt Test's
# QT_TESTCASE_BUILDDIR is per directory, and a library's usage requirements (its definitions)
# must match for GCC to use the header. A file the header does not fit still compiles, from the
# headers themselves (-Winvalid-pch says so).
set(MEMSCOPE_QT_TEST_PCH <QtTest/QtTest> <QtCore/QtCore> <algorithm> <cstdint> <functional>
    <map> <memory> <numeric> <set> <string> <vector>)
# memscope_qt_test_pch_host(NAME LIBS...)
function(memscope_qt_test_pch_host name)
  memscope_pch_host_of(${name} "${MEMSCOPE_QT_TEST_PCH}" ${ARGN})
endfunction()

# memscope_reuse_pch(TARGET HOST): TARGET compiles with HOST's precompiled header, except its
# AUTOMOC mocs_compilation.cpp (all but empty: the tests include their .moc).
function(memscope_reuse_pch target host)
  target_precompile_headers(${target} REUSE_FROM ${host})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Winvalid-pch)  # says when the header is not used
  endif()
  set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp
    TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
endfunction()
