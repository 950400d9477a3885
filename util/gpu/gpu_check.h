/* The one CUDA check, for C and CUDA C++ alike: a call that does not
   return cudaSuccess ends the run through umb_fatal (util/core/error.h),
   naming the call, the file and line, and CUDA's reason. The call may be
   one of the kernel wrappers that return a cudaError_t as int (kernels.h). */
#ifndef UMB_GPU_CHECK_H
#define UMB_GPU_CHECK_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "error.h"
#ifdef __cplusplus
}
#endif

#define UMB_CUDA_CHECK(call)                                                                       \
    do {                                                                                           \
        cudaError_t umb_rc_ = (cudaError_t)(call);                                                 \
        if (umb_rc_ != cudaSuccess) umb_fatal(#call, __FILE__, __LINE__, cudaGetErrorString(umb_rc_)); \
    } while (0)

#endif
