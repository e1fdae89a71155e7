/*
 * cuda/cuda.h - the CUDA backend's functions in plain C, one for each
 * entry of its gr_backend table (cuda/table.c fills gr_cuda_backend
 * with them, core/backend.h says what each does) and the ladder's
 * workspace size, which the API layer asks without a handle.  No CUDA
 * type appears here.  Not installed.
 *
 * Every function returns a status and sets the handle's message on
 * failure; none prints or exits.  Those that touch the device make the
 * handle's device current for the call and restore the caller's.
 */
#ifndef GR_CUDA_CUDA_H
#define GR_CUDA_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/handle.h"
#include "tune/tune.h"

#ifdef __cplusplus
extern "C" {
#endif

/* device/device.cu: the handle's device, workspace and tuning table (with the
 * cache loaded); on failure nothing is left allocated. */
gpureduce_status_t gr_cuda_create(struct gpureduce_handle *h, int device);
gpureduce_status_t gr_cuda_destroy(struct gpureduce_handle *h);
/* GPUREDUCE_SUCCESS when p is device (or managed) memory of h's device. */
gpureduce_status_t gr_cuda_check_pointer(struct gpureduce_handle *h, const void *p,
                                         const char *what);
/* 1 when p is device memory of any CUDA device (not managed); 0 otherwise,
 * also when there is no CUDA driver at all. */
int gr_cuda_owns_pointer(const void *p);

/* dispatch/reduce.cu: one reduction, one kernel enqueued on the handle's stream,
 * with `grid` blocks (0: the handle's choice, tune/model.c). */
gpureduce_status_t gr_cuda_reduce(struct gpureduce_handle *h, const void *input,
                                  void *output, uint64_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags, unsigned grid);

/* The partial results' nodes (api/partial.c): for each k < count, the
 * root accumulator of the nodes[k][1] elements from element nodes[k][0]
 * of input (device memory), one reduce_kernel launch each on the
 * handle's stream, copied to roots (host memory) at k * GR_ROOT_BYTES;
 * then the nspans copies of spans (the raw elements of the cut tiles),
 * and one wait for the stream at the end.  count <= 128; count == 0
 * makes only the copies. */
gpureduce_status_t gr_cuda_reduce_nodes(struct gpureduce_handle *h, const void *input,
                                        const uint64_t (*nodes)[2], unsigned count,
                                        gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                        void *roots, const struct gr_span *spans,
                                        unsigned nspans);

/* bytes from src (host memory) to dst (device memory) on the handle's
 * stream, then wait for the stream. */
gpureduce_status_t gr_cuda_write(struct gpureduce_handle *h, void *dst, const void *src,
                                 size_t bytes);

/* dispatch/batched.cu: `batch` vectors of n elements, vector b's element i
 * at input + b*batch_stride + i*element_stride elements, result b at
 * output + b*result_size; one kernel enqueued on the handle's stream (none
 * when batch == 0).  The API layer (api/batched.c) has checked every
 * argument: strides that cannot overflow, no overlap, n > 0 for the arg
 * ops.  Each result has the bits of gr_cuda_reduce() on vector b alone. */
gpureduce_status_t gr_cuda_reduce_batched(struct gpureduce_handle *h, const void *input,
                                          void *output, uint64_t batch, uint64_t n,
                                          int64_t batch_stride, int64_t element_stride,
                                          gpureduce_type_t type, gpureduce_op_t op,
                                          unsigned flags);

/* dispatch/dot.cu: the dot products (core/backend.h), batch > 0, on the
 * device: one kernel enqueued on the handle's stream, no
 * allocation, no synchronization, the same bits as the host backend.  The
 * API layer (api/dot.c) has checked every argument. */
gpureduce_status_t gr_cuda_dot(struct gpureduce_handle *h, const void *x, const void *y,
                               void *output, uint64_t batch, uint64_t n, int64_t x_batch_stride,
                               int64_t y_batch_stride, gpureduce_type_t type, unsigned flags);

/* dispatch/segments.cu: `segments` segments, segment s the elements
 * input[offsets[s] .. offsets[s+1]-1] (offsets: segments + 1 element
 * offsets in device memory, which the host never reads), result s at
 * output + s*result_size; one kernel enqueued on the handle's stream (none
 * when segments == 0), no allocation, no synchronization.  The API layer
 * (api/segments.c) has checked every argument it can see, which excludes
 * the offsets' values.  Each result has the bits of gr_cuda_reduce() on
 * its segment alone (an empty segment: the empty result, UINT64_MAX for
 * ARGMIN and ARGMAX).  A segment whose offsets decrease or leave
 * [offsets[0], offsets[segments]] is invalid: it gets the empty result and
 * its index joins the handle's sticky error (gr_cuda_take_async_error());
 * while any segment of a call is invalid, the results of that call's valid
 * segments longer than a warp's share are unspecified.  Nothing outside
 * [input + offsets[0], input + offsets[segments]) is read and nothing
 * outside the output written, whatever the offsets between those two
 * hold (the two are trusted). */
gpureduce_status_t gr_cuda_reduce_segments(struct gpureduce_handle *h, const void *input,
                                           void *output, const uint64_t *offsets,
                                           uint64_t segments, gpureduce_type_t type,
                                           gpureduce_op_t op, unsigned flags);

/* dispatch/segments.cu: synchronize the handle's stream, then read and
 * clear the sticky error of its segmented reductions: *bad_segment
 * receives the lowest invalid segment index recorded since the last call,
 * UINT64_MAX when there is none. */
gpureduce_status_t gr_cuda_take_async_error(struct gpureduce_handle *h, uint64_t *bad_segment);

/* ladder/ladder.cu: the teaching rungs. */
gpureduce_status_t gr_cuda_ladder(struct gpureduce_handle *h, gpureduce_ladder_rung_t rung,
                                  const float *input, float *output, uint64_t n,
                                  void *workspace, size_t workspace_bytes,
                                  unsigned *launches);
size_t gr_ladder_workspace_bytes(gpureduce_ladder_rung_t rung, uint64_t n);

/* tuning/measure.cu: time every size bucket of (type, op, flags) up to
 * max_n elements, as gpureduce_autotune() documents; chosen[b] (of
 * GR_BUCKETS) receives bucket b's block count, rows (up to max_rows) the
 * measurements, *count the buckets measured.  Allocates, synchronizes and
 * frees its buffer. */
gpureduce_status_t gr_cuda_tune_measure(struct gpureduce_handle *h, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags, size_t max_n,
                                        gpureduce_tune_row_t *rows, size_t max_rows,
                                        size_t *count, unsigned *chosen);

#ifdef __cplusplus
}
#endif

#endif /* GR_CUDA_CUDA_H */
