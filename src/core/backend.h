/*
 * core/backend.h - the backend interface: one table of functions that the
 * host backend (host/host.c) and the CUDA backend (cuda/table.c) each
 * fill, and that the API layer (api/) calls through the handle
 * (h->backend) without knowing which backend it has.  Not installed.
 * Plain C, usable from C++.
 *
 * The API layer has checked every argument before it calls a function
 * here (api/call.h): known (type, op, flags), pointers in the backend's
 * memory space, strides whose offsets fit in int64_t, no overlap of the
 * output with an input.  Every function returns a status, sets the
 * handle's message on failure, and never prints or exits.  On CUDA, the
 * reductions enqueue work on the handle's stream and return: no
 * allocation, no synchronization; the functions that say they wait do.
 */
#ifndef GR_CORE_BACKEND_H
#define GR_CORE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "core/handle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One copy of `bytes` bytes from src (the backend's memory) to dst (host
 * memory). */
struct gr_span {
  void *dst;
  const void *src;
  size_t bytes;
};

struct gr_backend {
  /* The handle's workspace and state for `device`; on failure nothing is
   * left allocated.  destroy releases them (the handle itself is the
   * caller's). */
  gpureduce_status_t (*create)(struct gpureduce_handle *h, int device);
  gpureduce_status_t (*destroy)(struct gpureduce_handle *h);

  /* GPUREDUCE_SUCCESS when p is memory this handle's kernels may read or
   * write; else GPUREDUCE_ERROR_WRONG_MEMORY_SPACE with a message that
   * names `what` and says which memory p is. */
  gpureduce_status_t (*check_pointer)(struct gpureduce_handle *h, const void *p,
                                      const char *what);
  /* 1 when p is memory of this backend that the other backend cannot
   * read (CUDA device memory); 0 otherwise, also without a driver. */
  int (*owns_pointer)(const void *p);

  /* gpureduce_reduce(): n elements at input, the result at output. */
  gpureduce_status_t (*reduce)(struct gpureduce_handle *h, const void *input, void *output,
                               uint64_t n, gpureduce_type_t type, gpureduce_op_t op,
                               unsigned flags);
  /* gpureduce_reduce_batched(), batch >= 1: vector b's element i at input
   * + b*batch_stride + i*element_stride elements, result b at output +
   * b*result_size.  Each result has the bits of reduce() on its vector. */
  gpureduce_status_t (*reduce_batched)(struct gpureduce_handle *h, const void *input,
                                       void *output, uint64_t batch, uint64_t n,
                                       int64_t batch_stride, int64_t element_stride,
                                       gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
  /* gpureduce_reduce_segments(), segments >= 1: segment s the elements
   * input[offsets[s] .. offsets[s+1]-1] (offsets in the backend's memory,
   * unchecked data), result s at output + s*result_size.  A segment whose
   * offsets decrease or leave [offsets[0], offsets[segments]] gets the
   * empty result and its index joins the handle's sticky error
   * (take_async_error). */
  gpureduce_status_t (*reduce_segments)(struct gpureduce_handle *h, const void *input,
                                        void *output, const uint64_t *offsets,
                                        uint64_t segments, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags);
  /* gpureduce_dot_batched(), batch >= 1: rows of n contiguous elements, row
   * b of x at x + b*x_batch_stride elements and of y at y +
   * b*y_batch_stride, result b (SUM's result type) at output +
   * b*result_size. */
  gpureduce_status_t (*dot)(struct gpureduce_handle *h, const void *x, const void *y,
                            void *output, uint64_t batch, uint64_t n, int64_t x_batch_stride,
                            int64_t y_batch_stride, gpureduce_type_t type, unsigned flags);
  /* Wait for the handle's work, then read and clear the sticky error of
   * its segmented reductions: *bad_segment receives the lowest invalid
   * segment index recorded since the last call, UINT64_MAX for none. */
  gpureduce_status_t (*take_async_error)(struct gpureduce_handle *h, uint64_t *bad_segment);

  /* The partial results (api/partial.c): for each k < count, the root
   * accumulator (before the finish) of the nodes[k][1] elements from
   * element nodes[k][0] of input, reduced as an array of their own, into
   * roots (host memory) at k * GR_ROOT_BYTES; then the nspans copies of
   * spans.  Waits for the work; count <= 128 (GR_PARTIAL_MAX_NODES). */
  gpureduce_status_t (*reduce_nodes)(struct gpureduce_handle *h, const void *input,
                                     const uint64_t (*nodes)[2], unsigned count,
                                     gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                     void *roots, const struct gr_span *spans, unsigned nspans);
  /* Copy `bytes` bytes from host memory src to dst, the backend's memory,
   * and wait for the copy. */
  gpureduce_status_t (*write)(struct gpureduce_handle *h, void *dst, const void *src,
                              size_t bytes);

  /* gpureduce_ladder_sum_f32() after the API's checks of input and
   * output (the backend checks the workspace), and gpureduce_autotune()'s
   * measuring (chosen: GR_BUCKETS entries, tune/tune.h); or
   * GPUREDUCE_ERROR_UNSUPPORTED with a message where the backend has no
   * such thing. */
  gpureduce_status_t (*ladder)(struct gpureduce_handle *h, gpureduce_ladder_rung_t rung,
                               const float *input, float *output, uint64_t n, void *workspace,
                               size_t workspace_bytes, unsigned *launches);
  gpureduce_status_t (*tune_measure)(struct gpureduce_handle *h, gpureduce_type_t type,
                                     gpureduce_op_t op, unsigned flags, size_t max_n,
                                     gpureduce_tune_row_t *rows, size_t max_rows, size_t *count,
                                     unsigned *chosen);
};

/* The two backends: GPUREDUCE_DEVICE_HOST handles take the first, device
 * ordinals the second (api/handle.c). */
extern const struct gr_backend gr_host_backend;
extern const struct gr_backend gr_cuda_backend;

#ifdef __cplusplus
}
#endif

#endif /* GR_CORE_BACKEND_H */
