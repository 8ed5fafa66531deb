# Precompiled LibTorch headers shared by the test suites and the benchmarks (included at the top
# level: a build without test suites still builds the benchmarks, which use them too).

# The tests of one directory share one precompiled LibTorch header (REUSE_FROM a small host
# target): with a .gch of its own each executable cost about 570 MB of disk and 30 s of compile
# time. One host per directory, because Qt Test defines QT_TESTCASE_BUILDDIR per directory and
# GCC refuses a header precompiled with another value.
# memscope_pch_host(NAME LIBS...)
function(memscope_pch_host name)
  if(NOT TARGET ${name})
    add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/pch_host.cpp)
    target_link_libraries(${name} PRIVATE ${ARGN})
    target_precompile_headers(${name} PRIVATE ${MEMSCOPE_TORCH_PCH})
    target_compile_options(${name} PRIVATE ${MEMSCOPE_TEST_COMPILE_OPTIONS})
    set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
  endif()
endfunction()

# memscope_reuse_torch_pch(TARGET HOST): TARGET's sources include LibTorch, so they compile with
# HOST's precompiled header. Loading that 570 MB header costs about 7 s per file on this machine
# (15-20 s in CI) even for a file that includes nothing, and a file that does not include
# LibTorch compiles about 14 s slower with it than without (tests/widgets/test_timeline_view.cpp:
# 30 s against 15 s). So AUTOMOC's mocs_compilation.cpp, which is all but empty here (the tests
# include their .moc), compiles without it.
function(memscope_reuse_torch_pch target host)
  memscope_reuse_pch(${target} ${host})
endfunction()

# The suites that do not include LibTorch share a small precompiled header of Qt Test, Qt Core
# and the standard headers they use (about 200 MB, 11 s to make): tests/core/test_timeline_layout.cpp
# compiles in 7.0 s instead of 10.2 here, tests/widgets/test_timeline_view.cpp in 12.6 instead of
# 17.7, and there are about 90 such files in each of CI's three builds. One host per directory and library (the
# first of LIBS): Qt Test's QT_TESTCASE_BUILDDIR is per directory, and a library's usage
# requirements (its definitions) must match for GCC to use the header. A file the header does
# not fit still compiles, from the headers themselves (-Winvalid-pch says so).
set(MEMSCOPE_QT_TEST_PCH <QtTest/QtTest> <QtCore/QtCore> <algorithm> <cstdint> <functional>
    <map> <memory> <numeric> <set> <string> <vector>)
# memscope_qt_test_pch_host(NAME LIBS...)
function(memscope_qt_test_pch_host name)
  if(NOT TARGET ${name})
    add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/pch_host.cpp)
    target_link_libraries(${name} PRIVATE ${ARGN})
    target_precompile_headers(${name} PRIVATE ${MEMSCOPE_QT_TEST_PCH})
    target_compile_options(${name} PRIVATE ${MEMSCOPE_TEST_COMPILE_OPTIONS})
    set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
  endif()
endfunction()

# memscope_reuse_pch(TARGET HOST): TARGET compiles with HOST's precompiled header, except its
# AUTOMOC mocs_compilation.cpp (all but empty: the tests include their .moc).
function(memscope_reuse_pch target host)
  target_precompile_headers(${target} REUSE_FROM ${host})
  set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp
    TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
endfunction()
