/*
 * api/args.h - the argument checks every reduction entry point makes, in
 * one order, so that gpureduce_reduce() and gpureduce_reduce_batched()
 * give the same statuses and messages for the same mistakes.  Not
 * installed.
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
 * unknown flag bits (INVALID_ARGUMENT), GPUREDUCE_ACCUMULATE_F64 where it
 * has no meaning (UNSUPPORTED).  On success *result_size receives
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

#ifdef __cplusplus
}
#endif

#endif /* GR_API_ARGS_H */
