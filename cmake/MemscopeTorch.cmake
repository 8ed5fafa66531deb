# Finds LibTorch: Debian's libtorch-dev (1.13, CPU) by default, or any official LibTorch 2.x
# (CUDA or ROCm) given with -DTorch_DIR=/path/to/libtorch/share/cmake/Torch.
find_package(Torch REQUIRED)

# TorchConfig.cmake sets TORCH_CXX_FLAGS (e.g. the libstdc++ ABI define) that consumers must
# use; official packages attach some of them to the imported target, Debian's does not.
add_library(memscope_torch INTERFACE)
target_link_libraries(memscope_torch INTERFACE ${TORCH_LIBRARIES})
target_include_directories(memscope_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
if(TORCH_CXX_FLAGS)
  separate_arguments(_memscope_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  target_compile_options(memscope_torch INTERFACE ${_memscope_torch_flags})
endif()
message(STATUS "Memscope: LibTorch ${Torch_VERSION} from ${Torch_DIR}")

# LibTorch headers are large (about 12 s per translation unit here); every target that includes
# them precompiles this list once.
set(MEMSCOPE_TORCH_PCH <torch/torch.h> <ATen/record_function.h>)
