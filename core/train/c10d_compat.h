#pragma once

// The one place beside c10d where LibTorch versions differ (the rest is in core/torch_compat.h).
//
// - 1.13's ProcessGroupGloo is a c10d::ProcessGroup; from 2.0 on it is a c10d::Backend (the
//   ProcessGroup became a dispatcher over backends, and holding a Gloo group as ProcessGroup no
//   longer compiles: 2.6 does not declare it from these headers, 2.14 rejects the conversion).
// - NCCL (CUDA devices) needs a LibTorch built with it: MEMSCOPE_HAS_NCCL.
// - From 2.4 on TCPStore serves the rendezvous through libuv by default, and LibTorch builds
//   without libuv (Debian's) refuse: "use_libuv was requested but PyTorch was build without libuv
//   support". The classic server works in every version, so it is asked for where the option
//   exists (TCPStoreOptions::useLibUV, 2.2 and later).

#include "torch_compat.h"

#include <torch/csrc/distributed/c10d/TCPStore.hpp>
// NCCL for CUDA devices: compiled where LibTorch was built with it (its torch_cuda target defines
// USE_C10D_NCCL for its users: the CUDA wheels from pip, CUDA LibTorch archives).
#if defined(USE_C10D_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#define MEMSCOPE_HAS_NCCL 1
#else
#define MEMSCOPE_HAS_NCCL 0
#endif
#if MEMSCOPE_TORCH_AT_LEAST(2, 0)
#include <torch/csrc/distributed/c10d/Backend.hpp>
#else
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#endif

#include <type_traits>
#include <utility>

namespace memscope::compat {

#if MEMSCOPE_TORCH_AT_LEAST(2, 0)
using CollectiveGroup = c10d::Backend;
#else
using CollectiveGroup = c10d::ProcessGroup;
#endif

namespace detail {
template <typename T, typename = void>
struct HasUseLibUV : std::false_type {};
template <typename T>
struct HasUseLibUV<T, std::void_t<decltype(std::declval<T&>().useLibUV)>> : std::true_type {};
}  // namespace detail

// The store options with the classic (non-libuv) server where the version has the choice.
template <typename Options>
void preferClassicStore(Options& options) {
    if constexpr (detail::HasUseLibUV<Options>::value) {
        options.useLibUV = false;
    }
}

}  // namespace memscope::compat
