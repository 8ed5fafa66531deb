#pragma once
// Stand-in for the CUDA runtime declarations core/torch_compat.h calls (CUDA 12 shapes).
#include <cstddef>

enum cudaError { cudaSuccess = 0, cudaErrorInvalidDevice = 101, cudaErrorNoDevice = 100 };
typedef enum cudaError cudaError_t;
typedef struct CUstream_st* cudaStream_t;
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
};
extern "C" {
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);
cudaError_t cudaGetLastError(void);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
}
