#pragma once
// Stand-in: a LibTorch 2.x version for tests/compat/torch_compat_2x_check.cpp.
#ifndef MEMSCOPE_STUB_TORCH_MINOR
#define MEMSCOPE_STUB_TORCH_MINOR 2
#endif
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR MEMSCOPE_STUB_TORCH_MINOR
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION "2.x-stub"
