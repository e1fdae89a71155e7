/*
 * gpureduce/reduce.h - the reduction of one array, of a batch of vectors
 * (the rows or columns of a strided matrix) or of the segments of an array
 * given by offsets (the rows of a CSR matrix), the dot product of two
 * arrays (or of the rows of two matrices), and the constants of the
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
 * Reduce n elements to one value (MEAN_VAR: to {mean, variance}).
 *
 * @param input   the first element.  On a CUDA handle, device memory of the
 *                handle's device (or managed memory); on the host handle,
 *                host memory.  Any address aligned to the element size
 *                works and gives the same bits as a 16-byte-aligned copy.
 *                May be NULL when n == 0.
 * @param output  where the result goes, in the same memory space as input;
 *                gpureduce_result_size() bytes of the type in the table of
 *                <gpureduce.h>, aligned to that size.  Must lie outside
 *                the input's n elements (INVALID_ARGUMENT otherwise, as in
 *                gpureduce_reduce_batched()).
 * @param n       count of elements (not bytes); any value, 0 included.
 * @param type    element type.
 * @param op      operation.
 * @param flags   0, or GPUREDUCE_ACCUMULATE_F64 for an F32 SUM, PROD,
 *                SUM_ABS, SUM_SQUARES, NRM2 or MEAN_VAR, or
 *                GPUREDUCE_WITH_VALUE for ARGMIN and ARGMAX (the index and
 *                the element's value), or GPUREDUCE_SOFTMAX_STATS for
 *                LOGSUMEXP (the pair {max, sum}).
 * @param handle  from gpureduce_create().
 *
 * On a CUDA handle the work is one kernel enqueued on the handle's stream;
 * the call allocates nothing, returns without synchronizing, and may be
 * captured in a CUDA graph.  On the host handle the call is synchronous.
 * The result is the same bits on every run, with every launch shape and on
 * both backends (see "Reduction order" in <gpureduce.h>), NRM2 and
 * MEAN_VAR included (their lift, combine and finish, each a fixed sequence
 * of rounded operations, are in <gpureduce.h>).
 * Example: the F64 input {1e200, 1e200, 3e200, -1e200} has the NRM2
 * 3.4641016151377545e200 (sqrt(12) 1e200; its squares would overflow) and
 * {3e-200, 4e-200} the NRM2 5e-200; the F32 input {1, 2, 3, 4} has the
 * MEAN_VAR {2.5f, 1.25f}, 8 bytes.
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_HANDLE; GPUREDUCE_ERROR_INVALID_ARGUMENT
 *         (NULL output, NULL input with n > 0, input not aligned to its
 *         element size, output not aligned to its result size, unknown
 *         flags, n elements whose byte offsets overflow int64_t or whose
 *         bytes wrap around the address space, an output that overlaps
 *         the input);
 *         GPUREDUCE_ERROR_UNSUPPORTED (unknown op or type, or flags not
 *         valid for them); GPUREDUCE_ERROR_WRONG_MEMORY_SPACE;
 *         GPUREDUCE_ERROR_EMPTY_INPUT (ARGMIN, ARGMAX or MEAN_VAR with
 *         n == 0);
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
 * elements, not bytes; strides may be negative or zero (vectors may share
 * elements, and a vector may repeat one).  Result b is written
 * b * gpureduce_result_size(type, op, flags) bytes after output: the
 * results are contiguous.
 *   rows of a row-major R x C matrix, leading dimension ld:
 *       batch = R, n = C, batch_stride = ld, element_stride = 1;
 *   its columns:
 *       batch = C, n = R, batch_stride = 1, element_stride = ld.
 * Example: the F32 matrix {{1, 2, 3}, {4, 5, 6}} (ld 3) has the row sums
 * {6, 15} (batch 2, n 3, strides 3 and 1) and the column sums {5, 7, 9}
 * (batch 3, n 2, strides 1 and 3).
 *
 * Result b has the exact bits gpureduce_reduce() gives for vector b copied
 * into a contiguous buffer of its own, for every op, type and flag: it
 * depends on vector b's elements only, not on batch, the strides, the
 * launch shape, the tuner, the GPU or the backend (each vector is reduced
 * in the order of doc/ORDER.md on its own).  ARGMIN and ARGMAX give the
 * index within the vector, 0 .. n-1.
 *
 * @param input   vector 0's element 0 (with negative strides not the
 *                lowest address: the lowest element may lie before it).
 *                On a CUDA handle, device memory of the handle's device
 *                (or managed memory); on the host handle, host memory.
 *                Aligned to the element size, and so is every element;
 *                any such address gives the same bits.  May be NULL when
 *                n == 0 (nothing is read).
 * @param output  batch results in the same memory space as input, aligned
 *                to the result size.  Must not overlap the input's span:
 *                the bytes from the lowest element to the end of the
 *                highest, gaps between vectors included (a conservative
 *                check: an output in the padding of a pitched matrix is
 *                refused too).
 * @param batch   count of vectors; 0 succeeds and writes nothing (the
 *                pointers may be NULL; only type, op and flags are
 *                checked).
 * @param n       count of elements in each vector; 0 writes each vector's
 *                empty-input result (+0 for the sums and NRM2, 1 for the
 *                product, and so on by <gpureduce.h>), except for ARGMIN,
 *                ARGMAX and MEAN_VAR, which return
 *                GPUREDUCE_ERROR_EMPTY_INPUT and write nothing.
 * @param batch_stride    elements from vector b's element 0 to vector
 *                b+1's: any int64_t.
 * @param element_stride  elements from element i of a vector to element
 *                i+1: any int64_t.
 * @param type, op, flags, handle  as for gpureduce_reduce().
 *
 * Every element offset b*batch_stride + i*element_stride of the batch, and
 * its offset in bytes, must fit in int64_t, and every element must lie
 * inside the address space; the call checks this before it reads anything.
 *
 * On a CUDA handle the work is one kernel enqueued on the handle's stream;
 * the call allocates nothing (the handle's workspace serves every shape),
 * returns without synchronizing, and may be captured in a CUDA graph.  On
 * the host handle the call is synchronous (with OpenMP, threads share the
 * vectors, or the tiles of each vector when there are few).
 *
 * @return GPUREDUCE_SUCCESS (batch == 0 included);
 *         GPUREDUCE_ERROR_INVALID_HANDLE;
 *         GPUREDUCE_ERROR_UNSUPPORTED (unknown op or type, or flags not
 *         valid for them);
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (unknown flags; and with
 *         batch > 0: NULL output, NULL input with n > 0, input not
 *         aligned to its element size, output not aligned to its result
 *         size, element offsets or their byte offsets that overflow
 *         int64_t, elements beyond either end of the address space, a
 *         batch * result size that overflows size_t or an output beyond
 *         the end of the address space, an output overlapping the input's
 *         span);
 *         GPUREDUCE_ERROR_EMPTY_INPUT (ARGMIN, ARGMAX or MEAN_VAR with
 *         n == 0);
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (the lowest input element or
 *         the output);
 *         GPUREDUCE_ERROR_CUDA (the launch failed).
 *         The checks run in gpureduce_reduce()'s order (type, op and
 *         flags; then batch == 0; the pointers, their alignment and
 *         EMPTY_INPUT), then the offsets, the output's size and the
 *         overlap, then the memory spaces.  On every error the output is
 *         untouched and gpureduce_last_message() says what was wrong.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_reduce_batched(const void *input, void *output, size_t batch, size_t n,
                         int64_t batch_stride, int64_t element_stride, gpureduce_type_t type,
                         gpureduce_op_t op, unsigned flags, gpureduce_handle_t handle);

/**
 * Reduce each of `segments` contiguous segments of one array to one value,
 * in one call: segment s is the elements input[offsets[s]] ..
 * input[offsets[s+1] - 1], as in the rows of a CSR sparse matrix (offsets
 * is its row-pointer array) or the groups of a sorted group-by.  The
 * segments may have any mix of lengths, 0 included; no length hint is
 * needed.
 *
 * Result s is written s * gpureduce_result_size(type, op, flags) bytes
 * after output: the results are contiguous.
 * Example: the F32 input {1, 2, 3, 4, 5, 6} with offsets {0, 2, 2, 6}
 * (segments = 3) has the segments {1, 2}, {} and {3, 4, 5, 6}: SUM gives
 * {3, +0, 18}; ARGMAX gives {1, GPUREDUCE_NO_INDEX, 3}.
 *
 * Result s has the exact bits gpureduce_reduce() gives for segment s
 * copied into a buffer of its own, for every op, type and flag: it depends
 * on segment s's elements only, not on the other segments, their number or
 * lengths, the alignment of the segment's first element, the launch
 * shape, the GPU or the backend (each segment is reduced in the order of
 * doc/ORDER.md on its own, indexed from its own first element).  ARGMIN
 * and ARGMAX give the index within the segment, 0 .. length - 1.
 *
 * An empty segment (offsets[s] == offsets[s+1]) gets the empty-input
 * result of <gpureduce.h>, the value gpureduce_reduce() writes for n == 0
 * (+0 for the sums, NRM2 and AMAX, 1 for the product, +inf or the type's
 * largest value for MIN, -inf or its lowest for MAX, -inf for LOGSUMEXP
 * and {-inf, 0} with GPUREDUCE_SOFTMAX_STATS); ARGMIN and ARGMAX write
 * GPUREDUCE_NO_INDEX (UINT64_MAX), with GPUREDUCE_WITH_VALUE followed by
 * the empty value of MIN or MAX, MEAN_VAR writes {NaN, NaN} (canonical
 * quiet NaNs), and the call succeeds: it never returns
 * GPUREDUCE_ERROR_EMPTY_INPUT.
 *
 * @param input   the element the offsets count from: segment s starts
 *                offsets[s] elements after it.  On a CUDA handle, device
 *                memory of the handle's device (or managed memory); on the
 *                host handle, host memory.  Aligned to the element size;
 *                any such address, and any offset, gives the same bits.
 *                Must not be NULL, even when every segment is empty.  Only
 *                the elements input[offsets[0]] .. input[offsets[segments]
 *                - 1] are read; they must lie in one allocation.
 * @param output  segments results in the same memory space, aligned to the
 *                result size.  Must not overlap the offsets array (the call
 *                checks this) nor the elements read.  The call cannot know
 *                where those are (the offsets may be device data it does
 *                not read), so an output overlapping them is not detected:
 *                it is the caller's error, and its results are undefined.
 * @param offsets segments + 1 element offsets from input, as uint64_t,
 *                counted in elements (not bytes), nondecreasing
 *                (offsets[s] <= offsets[s+1]); offsets[0] need not be 0.
 *                In the handle's memory space: device memory of the
 *                handle's device (or managed memory) on a CUDA handle,
 *                host memory on the host handle.  Aligned to 8 bytes.
 * @param segments  count of segments; 0 succeeds and reads and writes
 *                nothing, the offsets included (the pointers may then be
 *                NULL; only type, op and flags are checked).
 * @param type, op, flags, handle  as for gpureduce_reduce().
 *
 * Invalid offsets.  The offsets are data that a CUDA call cannot look at
 * without synchronizing, so the call checks them while it reduces.  The
 * two end offsets, offsets[0] and offsets[segments], are trusted: they
 * must mark elements of one allocation (input[offsets[0]] ..
 * input[offsets[segments] - 1], an empty range allowed), since nothing
 * tells the call where the input ends; past its end, or beyond the
 * address space, the call reads what they point at.  Segment s is invalid
 * unless offsets[0] <= offsets[s] <= offsets[s+1] <= offsets[segments]
 * (with offsets[0] > offsets[segments], every segment is).  Whatever the
 * offsets between the two ends hold:
 *   - nothing outside input[offsets[0]] .. input[offsets[segments] - 1]
 *     is read (nothing at all when offsets[0] >= offsets[segments]), and
 *     nothing outside the segments results is written;
 *   - an invalid segment's result is the empty-segment value
 *     (GPUREDUCE_NO_INDEX for ARGMIN and ARGMAX, {NaN, NaN} for MEAN_VAR);
 *   - the call still returns GPUREDUCE_SUCCESS, and the handle records a
 *     sticky error: gpureduce_get_async_error() returns
 *     GPUREDUCE_ERROR_INVALID_OFFSETS, names the lowest invalid segment in
 *     gpureduce_last_message(), and clears it;
 *   - while any segment of a call is invalid, the results of that call's
 *     valid segments are unspecified on a CUDA handle (the host handle
 *     happens to compute them, but that is not promised).
 * A program that cannot vouch for its offsets (the two ends apart) calls
 * gpureduce_get_async_error() before it uses the results.
 *
 * On a CUDA handle the work is one kernel enqueued on the handle's stream.
 * Its load balancing is a merge-path split (Merrill and Garland,
 * "Merge-based Parallel Sparse Matrix-Vector Multiplication", SC 2016):
 * the segments and the elements together are cut into equal shares, one
 * per warp, along the path that merges the segments' ends with the
 * element indices, so the cost follows the number of elements plus the
 * number of segments, not the longest segment.  The call allocates
 * nothing (the handle's workspace serves every shape), never reads the
 * offsets on the host, returns without synchronizing, and may be captured
 * in a CUDA graph.  On the host handle the call is synchronous (with
 * OpenMP, threads share the segments, and each long segment's tiles).
 *
 * @return GPUREDUCE_SUCCESS (segments == 0 and invalid offsets included);
 *         GPUREDUCE_ERROR_INVALID_HANDLE;
 *         GPUREDUCE_ERROR_UNSUPPORTED (unknown op or type, or flags not
 *         valid for them);
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (unknown flags; and with
 *         segments > 0: NULL output, input or offsets, input not aligned
 *         to its element size, output not aligned to its result size,
 *         offsets not aligned to 8 bytes, segments + 1 overflowing size_t,
 *         segments * result size overflowing size_t, the output or the
 *         segments + 1 offsets beyond the end of the address space, an
 *         output overlapping the offsets);
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (input, output or offsets);
 *         GPUREDUCE_ERROR_CUDA (the launch failed).
 *         The checks run in this order: type, op and flags; then
 *         segments == 0; the NULL pointers (output, input, offsets), then
 *         their alignment (input, output, offsets); the counts and address
 *         ranges; the overlap; then the memory spaces.  On every error the
 *         output is untouched and gpureduce_last_message() says what was
 *         wrong.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_reduce_segments(const void *input, void *output, const uint64_t *offsets,
                          size_t segments, gpureduce_type_t type, gpureduce_op_t op,
                          unsigned flags, gpureduce_handle_t handle);

/**
 * Dot product of two vectors of n elements: the sum of x[i]*y[i].
 *
 * The result has SUM's type and accumulator (the table in <gpureduce.h>):
 * F16 and BF16 multiply and accumulate in float (an F16 product is exact
 * in float, a BF16 one too unless it overflows or underflows float's
 * range), F32 in float, or in double with GPUREDUCE_ACCUMULATE_F64 (the
 * products are then exact), F64 in double; integers widen to 64 bits,
 * multiply and add modulo 2^64 (int64_t or uint64_t result).  Each
 * product is rounded to the accumulator type before it is added (no fused
 * multiply-add on either backend), and the products are summed in the
 * order of doc/ORDER.md with lift(i) = x[i]*y[i] and the chunk width V of
 * the element type.  So, when the accumulator is the element type (F32
 * without flags, F64), gpureduce_dot(x, y) has exactly the bits of
 * gpureduce_reduce() SUM over z[i] = x[i]*y[i] rounded to that type.
 * Example: the F32 vectors x = {1, 2, 3}, y = {4, -5, 0.5} give
 * 4 - 10 + 1.5 = -4.5; n == 0 gives +0.  A NaN product (a NaN element, or
 * 0 times inf) makes the result the canonical quiet NaN; the sum of
 * products that are all -0 is -0.
 *
 * @param x, y    the first elements of the two vectors, n elements each,
 *                contiguous.  On a CUDA handle, device memory of the
 *                handle's device (or managed memory); on the host handle,
 *                host memory.  Each aligned to the element size, at any
 *                offset (x and y need not share an alignment); every such
 *                address gives the same bits.  x and y may be the same
 *                vector (dot(x, x) is SUM_SQUARES).  May be NULL when
 *                n == 0.  Only x[0 .. n-1] and y[0 .. n-1] are read.
 * @param output  gpureduce_result_size(type, GPUREDUCE_SUM, flags) bytes
 *                in the same memory space, aligned to that size.  Must not
 *                overlap x[0 .. n-1] or y[0 .. n-1] (the call checks).
 * @param n       count of elements of each vector (not bytes); any value,
 *                0 included.
 * @param type    element type of both vectors.
 * @param flags   0, or GPUREDUCE_ACCUMULATE_F64 for F32.
 * @param handle  from gpureduce_create().
 *
 * On a CUDA handle the work is one kernel enqueued on the handle's stream
 * (the 1-D reduction's kernel with two inputs: its 16-byte loads of x and
 * y stay in flight together, whatever their alignments); the call
 * allocates nothing, returns without synchronizing, and may be captured
 * in a CUDA graph.  On the host handle the call is synchronous.  The
 * result is the same bits on every run, with every launch shape and on
 * both backends.
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_HANDLE;
 *         GPUREDUCE_ERROR_UNSUPPORTED (unknown type,
 *         GPUREDUCE_ACCUMULATE_F64 with a type other than F32, or
 *         GPUREDUCE_WITH_VALUE, which is for ARGMIN and ARGMAX);
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (unknown flags, NULL output,
 *         NULL x or y with n > 0, x or y not aligned to its element size,
 *         output not aligned to its result size, x or y extending beyond
 *         the end of the address space, an output overlapping x or y);
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (x, y or output);
 *         GPUREDUCE_ERROR_CUDA (the launch failed).
 *         The checks run in this order: type and flags; the NULL
 *         pointers (output, x, y); the alignment (x, y, output); the
 *         address ranges and the overlap; the memory spaces.  On every
 *         error the output is untouched and gpureduce_last_message() says
 *         what was wrong.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_dot(const void *x, const void *y, void *output, size_t n, gpureduce_type_t type,
              unsigned flags, gpureduce_handle_t handle);

/**
 * The dot products of `batch` pairs of rows, in one call: row b of x is
 * the n contiguous elements from x + b*x_batch_stride, row b of y those
 * from y + b*y_batch_stride (strides in elements, not bytes), and result
 * b, their dot product, is written b * gpureduce_result_size(type,
 * GPUREDUCE_SUM, flags) bytes after output (the results are contiguous).
 * Strides may be negative or zero, as for gpureduce_reduce_batched():
 * rows may overlap or repeat, and with y_batch_stride 0 every row of x is
 * multiplied by the one vector y (a matrix-vector product, row by row).
 * Example: the F32 row-major 2 x 3 matrix X = {{1, 2, 3}, {4, 5, 6}}
 * (stride 3) with the vector y = {1, 0, -1} (stride 0) gives {-2, -2}.
 *
 * Result b has the exact bits gpureduce_dot() gives for row b of x and
 * row b of y on their own, for every type and flag, whatever batch, the
 * strides, the rows' alignments, the launch shape, the GPU or the
 * backend.
 *
 * @param x, y    row 0 of each (with negative strides not the lowest
 *                address).  Memory space and alignment as for
 *                gpureduce_dot(), for every row; each row at any
 *                element-aligned address.  May be NULL when n == 0.
 * @param output  batch results in the same memory space, aligned to the
 *                result size.  Must not overlap the span of x or of y
 *                (from the lowest element of any row to the highest, gaps
 *                between rows included: a conservative check, as in
 *                gpureduce_reduce_batched()).
 * @param batch   count of rows; 0 succeeds and writes nothing (the
 *                pointers may then be NULL; only type and flags are
 *                checked).
 * @param n       elements of each row; 0 writes +0 (0 for integers) for
 *                every row.
 * @param x_batch_stride, y_batch_stride  elements from row b's element 0
 *                to row b+1's: any int64_t.
 * @param type, flags, handle  as for gpureduce_dot().
 *
 * Every element offset b*stride + i of either input, and its offset in
 * bytes, must fit in int64_t, and every element must lie inside the
 * address space; the call checks this before it reads anything.
 *
 * On a CUDA handle the work is one kernel enqueued on the handle's
 * stream, chosen by the row length (a warp a row for rows of up to a
 * tile, blocks over the tile groups of each longer row, as
 * gpureduce_reduce_batched() does), with no allocation (the handle's
 * workspace serves every shape) and no synchronization; it may be
 * captured in a CUDA graph.  On the host handle the call is synchronous.
 *
 * @return GPUREDUCE_SUCCESS (batch == 0 included);
 *         GPUREDUCE_ERROR_INVALID_HANDLE;
 *         GPUREDUCE_ERROR_UNSUPPORTED (as for gpureduce_dot());
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (unknown flags; and with
 *         batch > 0: NULL output, NULL x or y with n > 0, x or y not
 *         aligned to its element size, output not aligned to its result
 *         size, element offsets or their byte offsets that overflow
 *         int64_t, elements beyond either end of the address space, a
 *         batch * result size that overflows size_t or an output beyond
 *         the end of the address space, an output overlapping the span of
 *         x or of y);
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (the lowest element of x or
 *         of y, or the output);
 *         GPUREDUCE_ERROR_CUDA (the launch failed).
 *         The checks run in this order: type and flags; batch == 0; the
 *         NULL pointers (output, x, y); the alignment (x, y, output); the
 *         offsets of x, then of y; the output's size; the overlap with x,
 *         then with y; the memory spaces.  On every error the output is
 *         untouched and gpureduce_last_message() says what was wrong.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_dot_batched(const void *x, const void *y, void *output, size_t batch, size_t n,
                      int64_t x_batch_stride, int64_t y_batch_stride, gpureduce_type_t type,
                      unsigned flags, gpureduce_handle_t handle);

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
