/* CK(call): the bench probes' check of a CUDA runtime call; on an error it
 * prints where and what, and exits with status 1. */
#ifndef GLIDE_PROBE_CHECK_H
#define GLIDE_PROBE_CHECK_H
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                         \
    do {                                                                                              \
        cudaError_t e_ = (x);                                                                         \
        if (e_ != cudaSuccess) {                                                                      \
            printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                         \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

#endif
