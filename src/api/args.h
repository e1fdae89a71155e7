/*
 * api/args.h - the argument checks every reduction entry point makes, in
 * one order, so that gpureduce_reduce(), gpureduce_reduce_batched() and
 * the dot products give the same statuses and messages for the same
 * mistakes.  Not installed.
 */
#ifndef GR_API_ARGS_H
#define GR_API_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "api/handle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (type, op, flags), in this order: an unknown type or op (UNSUPPORTED),
 * unknown flag bits (INVALID_ARGUMENT), GPUREDUCE_WITH_VALUE on an op
 * other than ARGMIN and ARGMAX, GPUREDUCE_ACCUMULATE_F64 where it has no
 * meaning (UNSUPPORTED).  On success *result_size receives
 * gpureduce_result_size(type, op, flags), never 0. */
gpureduce_status_t gr_check_kind(struct gpureduce_handle *h, gpureduce_type_t type,
                                 gpureduce_op_t op, unsigned flags, size_t *result_size);

/* The pointers and the count of vectors of n elements, after
 * gr_check_kind(), in this order: NULL output, NULL input with n > 0,
 * input not aligned to its element size (n > 0), output not aligned to
 * result_size (INVALID_ARGUMENT), ARGMIN, ARGMAX or MEAN_VAR with n == 0
 * (EMPTY_INPUT). */
gpureduce_status_t gr_check_buffers(struct gpureduce_handle *h, const void *input,
                                    const void *output, uint64_t n, gpureduce_type_t type,
                                    gpureduce_op_t op, size_t result_size);

/* One input of n elements of type, named `name` in the messages: NULL
 * with n > 0, then not aligned to its element size (n > 0)
 * (INVALID_ARGUMENT).  gr_check_buffers() makes this check of its input. */
gpureduce_status_t gr_check_input(struct gpureduce_handle *h, const void *input, uint64_t n,
                                  gpureduce_type_t type, const char *name);

/* The span of a batch's input `name` for n > 0: the byte offsets from
 * input of the lowest element's first byte (*lo, <= 0) and of the highest
 * element's last byte (*hi, >= 0), over every vector b < batch and element
 * i < n at b*batch_stride + i*element_stride elements; INVALID_ARGUMENT
 * when an element offset or its byte offset overflows int64_t or an
 * element lies beyond either end of the address space. */
gpureduce_status_t gr_input_span(struct gpureduce_handle *h, const char *name,
                                 const void *input, uint64_t batch, uint64_t n,
                                 int64_t batch_stride, int64_t element_stride, unsigned size,
                                 int64_t *lo, int64_t *hi);

/* The `count` results of result_size bytes from output: INVALID_ARGUMENT
 * when count * result_size overflows size_t or the bytes wrap around the
 * address space; else *bytes receives count * result_size (count >= 1). */
gpureduce_status_t gr_output_span(struct gpureduce_handle *h, const void *output, size_t count,
                                  size_t result_size, uint64_t *bytes);

/* Do the bytes [a, a + a_bytes) and [b + b_lo, b + b_hi] meet?  (a_bytes
 * >= 1, b_lo <= 0 <= b_hi, both ranges inside the address space.) */
int gr_overlaps(const void *a, uint64_t a_bytes, const void *b, int64_t b_lo, int64_t b_hi);

#ifdef __cplusplus
}
#endif

#endif /* GR_API_ARGS_H */
