/*
 * gpureduce.h - parallel reductions over arrays in CUDA device memory or in
 * host memory, with one reduction order and documented answers.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * This is the only header a program includes.  It uses no CUDA type, so a
 * consumer compiles it without CUDA's include path: streams are passed as
 * `void *` (a cudaStream_t cast to void *).  It is an umbrella over
 *   gpureduce/base.h    statuses, operations, types, handles, names;
 *   gpureduce/reduce.h  the reduction of one array, of a batch of vectors
 *                       or of segments given by offsets, the dot products,
 *                       and the order's constants;
 *   gpureduce/ladder.h  the classic kernels as teaching rungs;
 *   gpureduce/tune.h    block counts, the autotuner and its cache;
 * which stop with #error when included on their own.
 *
 * ---------------------------------------------------------------------------
 * Quick example (sum of three floats on the host backend):
 *
 *     float x[3] = {1.5f, -2.0f, 4.0f}, sum = 0;
 *     gpureduce_handle_t h;
 *     if (gpureduce_create(&h, GPUREDUCE_DEVICE_HOST) != GPUREDUCE_SUCCESS)
 *       return 1;
 *     gpureduce_status_t s =
 *         gpureduce_reduce(x, &sum, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h);
 *     // s == GPUREDUCE_SUCCESS, sum == 3.5f
 *     gpureduce_destroy(h);
 *
 * On a CUDA handle (gpureduce_create(&h, 0)) the same call takes device
 * pointers, enqueues one kernel on the handle's stream and returns at once.
 *
 * ---------------------------------------------------------------------------
 * Operations, accumulator and result types
 *
 *   input        SUM, PROD, SUM_ABS, SUM_SQUARES     MIN, MAX      ARGMIN, ARGMAX
 *   -----------  ----------------------------------  ------------  --------------
 *   F16, BF16    accumulate f32, result float        input type    uint64_t index
 *   F32          accumulate f32, result float        float         uint64_t index
 *     with GPUREDUCE_ACCUMULATE_F64: accumulate f64, result double
 *   F64          accumulate f64, result double       double        uint64_t index
 *   I8, I32, I64 accumulate int64, result int64_t    input type    uint64_t index
 *   U8, U32, U64 accumulate uint64, result uint64_t  input type    uint64_t index
 *   ARGMIN, ARGMAX with GPUREDUCE_WITH_VALUE, any type: 16 bytes, the
 *     uint64_t index at byte 0 and the element at byte 8 in the input type
 *     (written as MIN/MAX write it), zero bytes after it
 *
 *   gpureduce_dot() and gpureduce_dot_batched() take SUM's column: the
 *   products x[i]*y[i], each rounded to the accumulator, summed in the
 *   reduction order.
 *
 * F16 is IEEE binary16 and BF16 is bfloat16, both passed as 16-bit patterns
 * (uint16_t); MIN and MAX of them return the 16-bit pattern of the element.
 * Integer SUM, PROD, SUM_ABS and SUM_SQUARES wrap modulo 2^64 (computed in
 * unsigned 64-bit arithmetic, the signed result is its two's complement
 * reading); |INT64_MIN| is 2^63 before the wrap.  SUM_SQUARES squares each
 * element in the accumulator type and rounds the square before adding it
 * (no fused multiply-add), so both backends give the same bits.
 *
 * Semantics, the same on every backend:
 *   - Empty input (n == 0): SUM, SUM_ABS, SUM_SQUARES give +0 (integers 0),
 *     PROD gives 1, MIN gives +inf (integers: the type's largest value),
 *     MAX gives -inf (integers: the type's lowest value); the result is
 *     written.  ARGMIN and ARGMAX return GPUREDUCE_ERROR_EMPTY_INPUT and
 *     write nothing; an empty segment of gpureduce_reduce_segments() gets
 *     the same values, except that ARGMIN and ARGMAX write
 *     GPUREDUCE_NO_INDEX and succeed (with GPUREDUCE_WITH_VALUE, the index
 *     GPUREDUCE_NO_INDEX and MIN's or MAX's empty value).
 *   - NaN: any NaN among the elements makes SUM, PROD, SUM_ABS,
 *     SUM_SQUARES, MIN and MAX NaN (never the identity); ARGMIN and ARGMAX
 *     give the index of the first NaN, as NumPy does (and with
 *     GPUREDUCE_WITH_VALUE the canonical NaN as the value).  A NaN result is
 *     written as the canonical quiet NaN of the result type (sign clear,
 *     all fraction bits set: 0x7fffffff for float, 0x7fffffffffffffff for
 *     double, 0x7fff for F16 and BF16), whatever the payloads of the input
 *     NaNs.
 *   - Signed zeros: MIN treats -0 as below +0 and MAX treats +0 as above
 *     -0, so min(-0, +0) = -0 and max(-0, +0) = +0 in any order.  ARGMIN
 *     and ARGMAX compare -0 and +0 as equal (a tie), and their
 *     GPUREDUCE_WITH_VALUE value is the zero at the index found.  A SUM of
 *     elements that are all -0 is -0.
 *   - Ties: ARGMIN and ARGMAX return the lowest index among equal values.
 *   - Identities are exact: +-inf for float MIN and MAX (never +-FLT_MAX).
 *
 * Reduction order (the contract behind "same bits on every run"):
 *   Floating-point SUM, PROD, SUM_ABS and SUM_SQUARES are computed in one
 *   order that depends on the element index alone, never on the grid, the
 *   block size, the tuner, the pointer's alignment, the architecture or the
 *   backend.  Let V = 16 / sizeof(element) (the elements in one 16-byte
 *   chunk; 16 for I8, 8 for F16, 4 for F32, 2 for F64).  Chunk c holds the
 *   elements cV .. cV+V-1.  The chunks are cut into tiles of
 *   GPUREDUCE_ORDER_TILE_CHUNKS (2048) chunks.  In a tile, each of
 *   GPUREDUCE_ORDER_LANES (256) lanes l folds its chunks l, l+256, ...,
 *   l+1792 in that order, the elements of each chunk in index order, into an
 *   accumulator that starts at the identity (acc = acc op element).  The 256
 *   lane values then combine pairwise, lane l with lane l+s for
 *   s = 128, 64, ..., 1; the tile value is lane 0's.  Tile values combine in
 *   the complete binary tree over the tile index (tiles 2i and 2i+1 first,
 *   then pairs of those, ...), a missing right subtree leaving its left
 *   sibling unchanged.  Elements past n count as the identity, which is
 *   exact (the sum's identity is -0).  doc/ORDER.md has the full text;
 *   GPUREDUCE_ORDER_VERSION changes whenever the order does.
 *   gpureduce_reduce_batched() computes each vector in this order on its
 *   own, indexed from its own first element, so each result has the bits
 *   of gpureduce_reduce() on that vector alone; so does
 *   gpureduce_reduce_segments() with each segment.  gpureduce_dot() sums
 *   the products x[i]*y[i] (rounded to the accumulator) in this order, so
 *   with an accumulator of the element type (F32, F64) it has the bits of
 *   SUM over those products rounded to that type; gpureduce_dot_batched()
 *   does so for each pair of rows on its own.
 *   MIN, MAX, ARGMIN, ARGMAX and all integer operations do not depend on
 *   the order: their answers are fixed by the rules above.
 *
 * Memory and synchronization: a handle allocates its workspace once, at
 * creation, and gpureduce_create() waits once for the workspace to be
 * cleared.  The reductions allocate nothing and never synchronize: on a
 * CUDA handle they only enqueue work.  gpureduce_autotune() is the one
 * exception: it allocates a device buffer, synchronizes and launches many
 * kernels, so call it at start-up.  gpureduce_get_async_error(), which
 * reports invalid offsets of segmented reductions, synchronizes the
 * handle's stream (and allocates nothing).  No call prints or exits.
 *
 * Threads: a handle may be used by one thread at a time, and its calls on a
 * CUDA device must be ordered (one stream, or streams the caller orders):
 * the calls share the handle's workspace.  Different handles are
 * independent.
 */
#ifndef GPUREDUCE_H
#define GPUREDUCE_H

#include "gpureduce_version.h"

#define GPUREDUCE_H_INSIDE
#include "gpureduce/base.h"
#include "gpureduce/reduce.h"
#include "gpureduce/ladder.h"
#include "gpureduce/tune.h"
#undef GPUREDUCE_H_INSIDE

#endif /* GPUREDUCE_H */
