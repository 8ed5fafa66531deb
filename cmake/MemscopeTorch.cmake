# Finds LibTorch: Debian's libtorch-dev (1.13, CPU) by default, or any official LibTorch 2.x
# (CUDA or ROCm) given with -DTorch_DIR=/path/to/libtorch/share/cmake/Torch (or its share/cmake
# folder in CMAKE_PREFIX_PATH, as `torch.utils.cmake_prefix_path` gives for a pip wheel).
#
# TorchConfig.cmake looks for libtorch, libc10 and libkineto with find_library(... PATHS
# <its prefix>/lib), which searches the system folders first: with Debian's libtorch-dev installed
# beside a pip wheel it picked Debian's /usr/lib/x86_64-linux-gnu/libc10.so for the wheel's
# headers, two c10s in one process. So when the config found is not the system's, its own lib
# folder is looked in first, and the result is checked below.
set(_memscope_torch_hints "")
if(Torch_DIR)
  list(APPEND _memscope_torch_hints "${Torch_DIR}")
endif()
foreach(_p IN LISTS CMAKE_PREFIX_PATH)
  list(APPEND _memscope_torch_hints "${_p}/Torch" "${_p}/share/cmake/Torch")
endforeach()
foreach(_d IN LISTS _memscope_torch_hints)
  if(EXISTS "${_d}/TorchConfig.cmake")
    get_filename_component(_memscope_torch_prefix "${_d}/../../.." ABSOLUTE)
    if(EXISTS "${_memscope_torch_prefix}/lib")
      find_library(TORCH_LIBRARY torch PATHS "${_memscope_torch_prefix}/lib" NO_DEFAULT_PATH)
      find_library(c10_LIBRARY c10 PATHS "${_memscope_torch_prefix}/lib" NO_DEFAULT_PATH)
      find_library(kineto_LIBRARY kineto PATHS "${_memscope_torch_prefix}/lib" NO_DEFAULT_PATH)
    endif()
    break()
  endif()
endforeach()
find_package(Torch REQUIRED)
get_filename_component(_memscope_torch_lib_dir "${TORCH_LIBRARY}" DIRECTORY)
if(c10_LIBRARY)
  get_filename_component(_memscope_c10_dir "${c10_LIBRARY}" DIRECTORY)
  if(NOT _memscope_c10_dir STREQUAL _memscope_torch_lib_dir)
    message(FATAL_ERROR "Memscope: LibTorch's libtorch (${TORCH_LIBRARY}) and libc10 "
                        "(${c10_LIBRARY}) come from two installations. Clear the CMake cache "
                        "and give one with -DTorch_DIR=<prefix>/share/cmake/Torch.")
  endif()
endif()

# TorchConfig.cmake sets TORCH_CXX_FLAGS (e.g. the libstdc++ ABI define) that consumers must
# use; official packages attach some of them to the imported target, Debian's does not.
# memscope_torch_abi carries only those flags: code without LibTorch (memscope_base) that shares
# std::string and containers with code that has it must be compiled with the same ABI.
add_library(memscope_torch_abi INTERFACE)
if(TORCH_CXX_FLAGS)
  separate_arguments(_memscope_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  target_compile_options(memscope_torch_abi INTERFACE ${_memscope_torch_flags})
endif()
add_library(memscope_torch INTERFACE)
target_link_libraries(memscope_torch INTERFACE ${TORCH_LIBRARIES} memscope_torch_abi)
# A PyTorch wheel's LibTorch finds its CUDA libraries (cudart, NCCL, cuDNN, ...) in the nvidia/
# wheels beside it through its own RUNPATH. Executables linking it also get the CUDA toolkit's
# folder in theirs (TorchConfig links the toolkit's cudart and nvrtc), and the linker resolved
# libtorch_cuda's libnccl.so.2 there: PyTorch 2.15's needs newer NCCL symbols than the toolkit's
# NCCL has (ncclCommGrow, ...), so the link failed. The wheels' folders come first, for the
# linker (-rpath-link) and at run time (-rpath, before CMake's own).
get_filename_component(_memscope_site_packages "${TORCH_INSTALL_PREFIX}/.." ABSOLUTE)
file(GLOB _memscope_wheel_lib_dirs LIST_DIRECTORIES true "${_memscope_site_packages}/nvidia/*/lib")
if(_memscope_wheel_lib_dirs)
  list(JOIN _memscope_wheel_lib_dirs ":" _memscope_wheel_path)
  target_link_options(memscope_torch INTERFACE "LINKER:-rpath-link,${_memscope_wheel_path}"
                                               "LINKER:-rpath,${_memscope_wheel_path}")
  message(STATUS "Memscope: the PyTorch wheel's CUDA libraries come first: ${_memscope_wheel_path}")
endif()
target_include_directories(memscope_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
message(STATUS "Memscope: LibTorch ${Torch_VERSION} from ${Torch_DIR}")

# LibTorch's headers lay some classes out differently without NDEBUG (1.13's and 2.x's
# RecordFunction has a member `inputs_valid_` only then), and released LibTorch (Debian's, the
# official archives, the one inside a PyTorch wheel) is built with NDEBUG. Code that includes them
# without NDEBUG (a Debug build, the sanitizer presets) reads objects with the wrong layout: UBSan
# reported a bool that is not one in RecordFunction::inputs(). So every target that includes
# LibTorch gets NDEBUG (which also turns off assert() there); OFF only against a debug LibTorch.
option(MEMSCOPE_TORCH_NDEBUG "Compile code that includes LibTorch with NDEBUG, as LibTorch was" ON)
# (Release and RelWithDebInfo already pass -DNDEBUG to everything; it is added only where the
# build type's flags lack it, so that those builds' command lines do not change.)
string(TOUPPER "${CMAKE_BUILD_TYPE}" _memscope_build_type)
if(MEMSCOPE_TORCH_NDEBUG
   AND NOT " ${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_memscope_build_type}} " MATCHES " -DNDEBUG ")
  target_compile_definitions(memscope_torch INTERFACE NDEBUG)
  message(STATUS "Memscope: code that includes LibTorch is compiled with NDEBUG, as LibTorch is")
endif()

# The C++ standard follows the LibTorch found: recent LibTorch 2.x headers need C++20, Debian's
# 1.13 is built and tested as C++17 (whether its headers build as C++20 is not measured yet).
# -DMEMSCOPE_CXX_STANDARD=17|20 overrides the choice.
if(Torch_VERSION VERSION_GREATER_EQUAL 2.0)
  set(_memscope_cxx_default 20)
else()
  set(_memscope_cxx_default 17)
endif()
set(MEMSCOPE_CXX_STANDARD ${_memscope_cxx_default} CACHE STRING
    "C++ standard (default: 20 with LibTorch 2.x, 17 with 1.x)")
set_property(CACHE MEMSCOPE_CXX_STANDARD PROPERTY STRINGS 17 20)
if(NOT MEMSCOPE_CXX_STANDARD MATCHES "^(17|20|23)$")
  message(FATAL_ERROR "MEMSCOPE_CXX_STANDARD must be 17, 20 or 23, not '${MEMSCOPE_CXX_STANDARD}'")
endif()
message(STATUS "Memscope: C++${MEMSCOPE_CXX_STANDARD} (LibTorch ${Torch_VERSION})")

# Whether this LibTorch has CUDA: Caffe2Config.cmake sets CAFFE2_USE_CUDA and TorchConfig.cmake
# TORCH_CUDA_LIBRARIES for a CUDA build, and the c10_cuda target exists. Code that needs the CUDA
# headers (the caching allocator's statistics, cudaMemGetInfo) is compiled only then, behind
# MEMSCOPE_WITH_CUDA. A ROCm build (c10_hip) is seen by LibTorch as "cuda" devices at run time;
# its allocator statistics are not wired up (its headers are the hipified c10/hip ones).
if(CAFFE2_USE_CUDA AND TARGET c10_cuda)
  set(MEMSCOPE_WITH_CUDA ON)
  target_compile_definitions(memscope_torch INTERFACE MEMSCOPE_WITH_CUDA=1)
  target_link_libraries(memscope_torch INTERFACE c10_cuda)
  if(TARGET torch::cudart)
    target_link_libraries(memscope_torch INTERFACE torch::cudart)
  elseif(TARGET CUDA::cudart)
    target_link_libraries(memscope_torch INTERFACE CUDA::cudart)
  endif()
  message(STATUS "Memscope: LibTorch has CUDA: allocator statistics and device memory enabled")
elseif(TARGET c10_hip)
  set(MEMSCOPE_WITH_CUDA OFF)
  target_compile_definitions(memscope_torch INTERFACE MEMSCOPE_WITH_ROCM=1)
  message(STATUS "Memscope: LibTorch has ROCm: GPUs are listed through LibTorch and the HIP "
                 "runtime; allocator statistics are not wired up")
else()
  set(MEMSCOPE_WITH_CUDA OFF)
  message(STATUS "Memscope: LibTorch has no CUDA (CPU build)")
endif()

# LibTorch headers are large (about 12 s per translation unit here); every target that includes
# them precompiles this list once.
set(MEMSCOPE_TORCH_PCH <torch/torch.h> <ATen/record_function.h>)
