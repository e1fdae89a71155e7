/*
 * host/host.h - the host backend, as the API layer calls it.  Not
 * installed.
 */
#ifndef GR_HOST_HOST_H
#define GR_HOST_HOST_H

#include <stdint.h>

#include "api/handle.h"

/*
 * The accumulator of one (type, op, flags), for the partial results
 * (api/partial.c): the same functions the host reductions are made of.
 *   acc_bytes  bytes of the accumulator (at most GR_ROOT_BYTES); its
 *              layout is the CUDA kernel's Acc (cuda/ops.cuh), field for
 *              field;
 *   reduce     the root of the n elements at input (host memory, any n,
 *              tiles counted from input) into acc, before the finish;
 *              n == 0 gives the identity; workspace: the host handle's
 *              (groups in parallel) or NULL (one thread); ARGMIN's and
 *              ARGMAX's index counts from input;
 *   combine    a = a op b (a the left operand);
 *   finish     the result of a root of n elements, as gr_host_reduce()
 *              writes it.
 */
struct gr_host_acc_ops {
  size_t acc_bytes;
  void (*reduce)(const void *input, uint64_t n, void *acc, void *workspace);
  void (*combine)(void *a, const void *b);
  void (*finish)(const void *acc, uint64_t n, void *output);
};
/* The interface of (type, op, flags), or NULL for a combination without
 * a meaning (or the dot products). */
const struct gr_host_acc_ops *gr_host_acc_ops_for(gpureduce_type_t type, gpureduce_op_t op,
                                                  unsigned flags);

/* Allocate the handle's host workspace (GR_MAX_ROOTS roots). */
gpureduce_status_t gr_host_create(struct gpureduce_handle *h);
void gr_host_destroy(struct gpureduce_handle *h);
/* The reduction; the API layer has checked every argument. */
gpureduce_status_t gr_host_reduce(struct gpureduce_handle *h, const void *input,
                                  void *output, uint64_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags);

/* The batched reduction (layout as gr_cuda_reduce_batched, cuda/cuda.h);
 * the API layer has checked every argument.  Result b has the bits of
 * gr_host_reduce() on vector b copied to a contiguous buffer. */
gpureduce_status_t gr_host_reduce_batched(struct gpureduce_handle *h, const void *input,
                                          void *output, uint64_t batch, uint64_t n,
                                          int64_t batch_stride, int64_t element_stride,
                                          gpureduce_type_t type, gpureduce_op_t op,
                                          unsigned flags);

/* The segmented reduction (layout as gr_cuda_reduce_segments, cuda/cuda.h,
 * but with the offsets in host memory); the API layer has checked every
 * argument it can, segments > 0.  Result s of a valid segment has the bits
 * of gr_host_reduce() on input + offsets[s] elements, offsets[s+1] -
 * offsets[s] of them (an empty one: UINT64_MAX for ARGMIN and ARGMAX).  A
 * segment is invalid unless offsets[0] <= offsets[s] <= offsets[s+1] <=
 * offsets[segments]: it gets the empty result, nothing of it is read, and
 * the lowest such index joins h->async_bad_segment (the minimum with what
 * it held).  Always GPUREDUCE_SUCCESS for a supported (type, op, flags). */
gpureduce_status_t gr_host_reduce_segments(struct gpureduce_handle *h, const void *input,
                                           void *output, const uint64_t *offsets,
                                           uint64_t segments, gpureduce_type_t type,
                                           gpureduce_op_t op, unsigned flags);

/* The dot products of `batch` pairs of rows of n contiguous elements, row
 * b of x at x + b*x_batch_stride elements and of y at y +
 * b*y_batch_stride, result b (SUM's result type) at output +
 * b*result_size; the API layer (api/dot.c) has checked every argument,
 * batch > 0.  Each result has the bits of the row pair alone, in the
 * order of doc/ORDER.md with lift(i) = x[i]*y[i]. */
gpureduce_status_t gr_host_dot(struct gpureduce_handle *h, const void *x, const void *y,
                               void *output, uint64_t batch, uint64_t n, int64_t x_batch_stride,
                               int64_t y_batch_stride, gpureduce_type_t type, unsigned flags);

#endif /* GR_HOST_HOST_H */
