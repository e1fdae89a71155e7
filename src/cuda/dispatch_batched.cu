/*
 * cuda/dispatch_batched.cu - the dispatch of gpureduce_reduce_batched() on
 * a CUDA handle.  (Placeholder while the kernels are written: every call
 * is refused.)
 */
#include <cuda_runtime.h>

#include "cuda/cuda.h"

extern "C" gpureduce_status_t gr_cuda_reduce_batched(gpureduce_handle *h, const void *,
                                                     void *, uint64_t, uint64_t, int64_t,
                                                     int64_t, gpureduce_type_t,
                                                     gpureduce_op_t, unsigned) {
  return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "batched reductions are not built yet");
}
