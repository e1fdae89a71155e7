/*
 * gpureduce/reduce.h - the reduction of one array, and the constants of the
 * reduction order.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Part of <gpureduce.h>; include that, never this file.  <gpureduce.h>
 * has the table of operations and result types, the answers for empty
 * input, NaN, signed zeros and ties, and the reduction order.
 */
#ifndef GPUREDUCE_H_INSIDE
#error "include <gpureduce.h>, not <gpureduce/reduce.h>"
#endif
#ifndef GPUREDUCE_REDUCE_H
#define GPUREDUCE_REDUCE_H

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the reduction order described in <gpureduce.h> and in
 *  doc/ORDER.md. */
#define GPUREDUCE_ORDER_VERSION 1
/** Lanes of a tile in the reduction order. */
#define GPUREDUCE_ORDER_LANES 256
/** 16-byte chunks in a tile of the reduction order (32 KiB of input). */
#define GPUREDUCE_ORDER_TILE_CHUNKS 2048

/**
 * Reduce n elements to one value.
 *
 * @param input   the first element.  On a CUDA handle, device memory of the
 *                handle's device (or managed memory); on the host handle,
 *                host memory.  Any address aligned to the element size
 *                works and gives the same bits as a 16-byte-aligned copy.
 *                May be NULL when n == 0.
 * @param output  where the result goes, in the same memory space as input;
 *                gpureduce_result_size() bytes of the type in the table of
 *                <gpureduce.h>, aligned to that size.  Must not overlap
 *                input.
 * @param n       count of elements (not bytes); any value, 0 included.
 * @param type    element type.
 * @param op      operation.
 * @param flags   0, or GPUREDUCE_ACCUMULATE_F64 for an F32 SUM, PROD,
 *                SUM_ABS or SUM_SQUARES.
 * @param handle  from gpureduce_create().
 *
 * On a CUDA handle the work is one kernel enqueued on the handle's stream;
 * the call allocates nothing, returns without synchronizing, and may be
 * captured in a CUDA graph.  On the host handle the call is synchronous.
 * The result is the same bits on every run, with every launch shape and on
 * both backends (see "Reduction order" in <gpureduce.h>).
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_HANDLE; GPUREDUCE_ERROR_INVALID_ARGUMENT
 *         (NULL output, NULL input with n > 0, input not aligned to its
 *         element size, output not aligned to its result size, unknown
 *         flags);
 *         GPUREDUCE_ERROR_UNSUPPORTED (unknown op or type, or flags not
 *         valid for them); GPUREDUCE_ERROR_WRONG_MEMORY_SPACE;
 *         GPUREDUCE_ERROR_EMPTY_INPUT (ARGMIN/ARGMAX with n == 0);
 *         GPUREDUCE_ERROR_CUDA (the launch failed).
 *         On every error the output is untouched.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_reduce(const void *input, void *output, size_t n, gpureduce_type_t type,
                 gpureduce_op_t op, unsigned flags, gpureduce_handle_t handle);

/**
 * Reduce each of `batch` vectors of n elements to one value, in one call:
 * the rows or the columns of a strided matrix.
 *
 * Vector b (0 <= b < batch) has the elements
 * input + b*batch_stride + i*element_stride (0 <= i < n), counted in
 * elements, not bytes; strides may be negative or zero.  Result b is
 * written gpureduce_result_size(type, op, flags) bytes apart:
 *   rows of a row-major R x C matrix, leading dimension ld:
 *       batch = R, n = C, batch_stride = ld, element_stride = 1;
 *   its columns:
 *       batch = C, n = R, batch_stride = 1, element_stride = ld.
 *
 * Result b has the exact bits gpureduce_reduce() gives for vector b copied
 * into a contiguous buffer of its own, for every op, type and flag: it
 * depends on vector b's elements only, not on batch, the strides, the
 * launch shape, the tuner, the GPU or the backend.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_reduce_batched(const void *input, void *output, size_t batch, size_t n,
                         int64_t batch_stride, int64_t element_stride, gpureduce_type_t type,
                         gpureduce_op_t op, unsigned flags, gpureduce_handle_t handle);

/**
 * Sum of n floats: gpureduce_reduce(input, output, n, GPUREDUCE_F32,
 * GPUREDUCE_SUM, 0, handle), with the same memory spaces, order and
 * statuses.  Example: {1, 2, 3.5} gives 6.5.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_sum_f32(const float *input, float *output, size_t n, gpureduce_handle_t handle);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_REDUCE_H */
