/*
 * cuda/dispatch_segments.cu - placeholder: the segmented reduction's CUDA
 * dispatch lands in the next commits.
 */
#include <cstdint>

#include "cuda/cuda.h"

extern "C" gpureduce_status_t gr_cuda_reduce_segments(gpureduce_handle *h, const void *,
                                                      void *, const uint64_t *, uint64_t,
                                                      gpureduce_type_t, gpureduce_op_t,
                                                      unsigned) {
  return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "segmented reductions: not yet on CUDA");
}

extern "C" gpureduce_status_t gr_cuda_take_async_error(gpureduce_handle *, uint64_t *bad) {
  *bad = UINT64_MAX;
  return GPUREDUCE_SUCCESS;
}
