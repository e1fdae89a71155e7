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
 *   input        AMAX (max |x|, exact)
 *   -----------  -------------------------------------------------------
 *   F16, BF16    the 16-bit pattern of the magnitude (2 bytes)
 *   F32, F64     float (4 bytes), double (8 bytes)
 *   I8, I32, I64 uint8_t, uint32_t, uint64_t: the unsigned type of the
 *                same width, so |-128| = 128 fits
 *   U8, U32, U64 the input type
 *
 *   input        LOGSUMEXP          with GPUREDUCE_SOFTMAX_STATS ({max, sum})
 *   -----------  -----------------  -------------------------------------
 *   F16, BF16    float (4 bytes)    two floats (8 bytes)
 *   F32          float              two floats
 *   F64          double (8 bytes)   two doubles (16 bytes)
 *   integers     UNSUPPORTED        UNSUPPORTED
 *   (the accumulator: the running maximum in float, double for F64, and
 *   the sum of exp(x - max) in double for every type, which is why
 *   GPUREDUCE_ACCUMULATE_F64 is not offered: UNSUPPORTED)
 *
 *   gpureduce_dot() and gpureduce_dot_batched() take SUM's column: the
 *   products x[i]*y[i], each rounded to the accumulator, summed in the
 *   reduction order.
 *
 *   input        NRM2                  MEAN_VAR ({mean, variance})
 *   -----------  --------------------  -------------------------------------
 *   F16, BF16    float (4 bytes)       two floats (8 bytes)
 *   F32          float                 two floats
 *     with GPUREDUCE_ACCUMULATE_F64: double (8 bytes) / two doubles (16 bytes)
 *   F64          double (8 bytes)      two doubles (16 bytes)
 *   integers     double                two doubles
 *   (the accumulator type is the result type; integers are converted to
 *   double, rounded to nearest, element by element)
 *
 * F16 is IEEE binary16 and BF16 is bfloat16, both passed as 16-bit patterns
 * (uint16_t); MIN and MAX of them return the 16-bit pattern of the element.
 * Integer SUM, PROD, SUM_ABS and SUM_SQUARES wrap modulo 2^64 (computed in
 * unsigned 64-bit arithmetic, the signed result is its two's complement
 * reading); |INT64_MIN| is 2^63 before the wrap.  SUM_SQUARES squares each
 * element in the accumulator type and rounds the square before adding it
 * (no fused multiply-add), so both backends give the same bits.
 *
 * NRM2 is the Euclidean norm sqrt(x[0]^2 + ... + x[n-1]^2), which never
 * overflows or underflows for finite input: Blue's algorithm as in
 * reference LAPACK 3.10's dnrm2.f90 (Anderson, "Algorithm 978: Safe
 * scaling in the Level 1 BLAS", ACM TOMS 2017).  Its accumulator is three
 * sums {sml, med, big}.  With the accumulator format's powers of two
 * tsml, tbig, ssml, sbig (float 2^-63, 2^52, 2^75, 2^-76; double 2^-511,
 * 2^486, 2^537, 2^-538), lift(x) puts (|x| ssml)^2 into sml when
 * |x| < tsml, (|x| sbig)^2 into big when |x| > tbig, else |x|^2 into med
 * (the scaling is exact; the square rounds once), +0 into the other two;
 * NaN is medium and +-inf big.  combine adds the sums one by one (+0 is the
 * identity).  finish, each step one rounded operation: if big > 0, the
 * result is sqrt(big + (med sbig) sbig) / sbig (med only if med > 0 or
 * NaN); else if sml > 0 and med > 0 (or NaN): with a = sqrt(med) and
 * b = sqrt(sml) / ssml, ymin and ymax their smaller and larger,
 * sqrt(ymax^2 (1 + (ymin / ymax)^2)); else if sml > 0, sqrt(sml) / ssml;
 * else sqrt(med).  The square roots are correctly rounded.  A NaN gives
 * NaN, an infinity (and no NaN) +inf, n == 0 gives +0.  Error bound, with
 * d = 8V + 10 + ceil(log2 T) (V and T as in the order below, T tiles) and
 * u = 2^-24 (float) or 2^-53 (double): |result - norm| <= (d/2 + 8) u norm
 * + 4 times the smallest subnormal of the result type, where norm is the
 * exact norm of the elements as converted.
 *
 * MEAN_VAR gives {mean, population variance (divided by n)}, as two values
 * of the accumulator type at byte 0 and at byte sizeof(accumulator).  Its
 * accumulator is {mean, M2, count} (M2 the sum of squared deviations from
 * the mean; the count a uint64_t): lift(x) = {x, +0, 1}, and partial
 * results combine by Chan, Golub and LeVeque's pairwise update ("Algorithms
 * for computing the sample variance: analysis and recommendations", The
 * American Statistician, 1983), with N(k) the count k converted to the
 * accumulator type, rounded to nearest, and each operation rounded once, in
 * this order:
 *     delta = mean_b - mean_a;  r = N(n_b) / N(n_a + n_b);
 *     mean = mean_a + delta * r;
 *     M2 = (M2_a + M2_b) + (delta * delta) * (N(n_a) * r);
 *     count = n_a + n_b;
 * a side whose count is 0 (the identity) leaves the other unchanged, bit
 * for bit.  finish gives {mean, M2 / N(count)}.  A NaN among the elements,
 * or an infinity among two or more, makes both values NaN; one element x
 * gives {x, +0}; constant input gives its value and a variance of exactly
 * +0.  With d and u as for NRM2, max|x| the largest magnitude and var, sd
 * the exact variance and standard deviation of the elements as converted:
 * |mean error| <= 8 (d + 1) u max|x| and |variance error| <= 4 (d + 3) u var
 * + 16 (d + 2) u sd max|x|.  For 10^6 values 1e4 + U(-.5, .5) the f32
 * variance is within 1e-2 relative, within 1e-9 with
 * GPUREDUCE_ACCUMULATE_F64 (the tests require these; measured: 4e-5 and
 * 7e-15).
 *
 * Semantics, the same on every backend:
 *   - Empty input (n == 0): SUM, SUM_ABS, SUM_SQUARES give +0 (integers 0),
 *     PROD gives 1, MIN gives +inf (integers: the type's largest value),
 *     MAX gives -inf (integers: the type's lowest value); the result is
 *     written; NRM2 gives +0.  ARGMIN, ARGMAX and MEAN_VAR return
 *     GPUREDUCE_ERROR_EMPTY_INPUT and write nothing (in
 *     gpureduce_reduce_batched() too, for any batch of n == 0); an empty
 *     segment of gpureduce_reduce_segments() gets the same values, except
 *     that ARGMIN and ARGMAX write GPUREDUCE_NO_INDEX (with
 *     GPUREDUCE_WITH_VALUE, the index GPUREDUCE_NO_INDEX and MIN's or
 *     MAX's empty value), MEAN_VAR writes {NaN, NaN}, and the call
 *     succeeds.
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
 *   - AMAX is the largest magnitude |x| of the elements, exact: n == 0
 *     gives +0 (integers 0), -0 gives +0, +-inf gives +inf, any NaN the
 *     canonical quiet NaN of the type (whatever its sign and payload), and
 *     the most negative signed integer its magnitude (|INT8_MIN| = 128 as
 *     a uint8_t).  For floats it is the largest of the bit patterns with
 *     the sign cleared, compared as unsigned integers (which orders the
 *     magnitudes, every NaN above +inf).  GPUREDUCE_ACCUMULATE_F64 and
 *     GPUREDUCE_WITH_VALUE do not apply to it (UNSUPPORTED).
 *   - LOGSUMEXP is log(sum exp(x)), taken around the running maximum m
 *     (doc/ORDER.md gives the combine of (m, s) pairs, s = sum exp(x - m)
 *     in double, and the finish m + log(s), rounded once), with the
 *     library's own exp and log, so no exp overflows and both backends
 *     give the same bits: n == 0 gives -inf, all -inf gives -inf, any
 *     +inf (and no NaN) +inf, any NaN the canonical NaN, one element x
 *     exactly x (-0 included).  F16, BF16 and F32 fold each 16-byte chunk
 *     whole: the chunk's terms exp(x - its maximum) in float (the
 *     library's float exp, within 1.02 ulp), summed in float, then added
 *     to s, the side below the new maximum scaled by the library's float
 *     exp of the maxima's exact difference; F64 folds element by element
 *     in double.  Error: |result - lse| <= one ulp of a float result + f +
 *     (753 d + 2 ln(n + 1) + 4) u + 2 u |lse|, lse the exact log-sum-exp,
 *     f = 23 2^-24 for the float terms and scales (0 for F64), u = 2^-53
 *     and d as for NRM2 (doc/ORDER.md); the tests require one ulp of the
 *     f32 result for random vectors up to n = 2^24.  With
 *     GPUREDUCE_SOFTMAX_STATS: {max, sum} (see the flag).
 *
 * Reduction order (the contract behind "same bits on every run"):
 *   Floating-point SUM, PROD, SUM_ABS and SUM_SQUARES, NRM2 and MEAN_VAR
 *   of every type, and LOGSUMEXP, are computed in one order that depends
 *   on the element index alone, never on the grid, the
 *   block size, the tuner, the pointer's alignment, the architecture or the
 *   backend.  Let V = 16 / sizeof(element) (the elements in one 16-byte
 *   chunk; 16 for I8, 8 for F16, 4 for F32, 2 for F64).  Chunk c holds the
 *   elements cV .. cV+V-1.  The chunks are cut into tiles of
 *   GPUREDUCE_ORDER_TILE_CHUNKS (2048) chunks.  In a tile, each of
 *   GPUREDUCE_ORDER_LANES (256) lanes l folds its chunks l, l+256, ...,
 *   l+1792 in that order, the elements of each chunk in index order, into an
 *   accumulator that starts at the identity (acc = acc op lift(element);
 *   combine(acc, lift(element)) for NRM2, MEAN_VAR and LOGSUMEXP).  The 256
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
 *   MIN, MAX, ARGMIN, ARGMAX, AMAX and all integer operations do not
 *   depend on the order: their answers are fixed by the rules above.
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
#include "gpureduce/partial.h"
#include "gpureduce/ladder.h"
#include "gpureduce/tune.h"
#undef GPUREDUCE_H_INSIDE

#endif /* GPUREDUCE_H */
