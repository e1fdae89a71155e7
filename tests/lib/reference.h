/*
 * reference.h - the independent reference: what gpureduce must give for an
 * array in host memory, written from gpureduce.h and doc/ORDER.md, never
 * from src/.
 *
 *   - Integer SUM, PROD, SUM_ABS, SUM_SQUARES: plain loops in uint64_t
 *     (they wrap modulo 2^64, so any order gives the same answer).
 *   - MIN, MAX, ARGMIN, ARGMAX of every type: plain loops applying the
 *     rules of gpureduce.h (NaN wins, the first NaN's index, -0 below +0
 *     for MIN/MAX, -0 == +0 and the lowest index for ARGMIN/ARGMAX, the
 *     documented results of n == 0).
 *   - Floating SUM, PROD, SUM_ABS, SUM_SQUARES: the bracketing of
 *     doc/ORDER.md bit for bit, and the sum or product in long double with
 *     an error bound the result must meet (stated in reference.c).
 *   - NRM2 and MEAN_VAR of every type: the lift, combine and finish of
 *     gpureduce.h in the bracketing of doc/ORDER.md bit for bit, and the
 *     norm, mean and variance in long double with the bounds gpureduce.h
 *     states.
 *
 * No cmocka and no CUDA: the tests and reduce-bench both link it.  Nothing
 * here prints or exits.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_REFERENCE_H
#define GPUREDUCE_TESTS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

/* What gpureduce must give for (type, op, flags) over x[0 .. n-1] (host
 * memory, element-aligned): the bits (exact answers; the doc/ORDER.md
 * bracketing for floating sum-like ops) and, for floating sum-likes
 * with a finite exact value, the stated error bound. */
struct ref_answer {
  unsigned result_bytes; /* gpureduce_result_size(type, op, flags) */
  uint64_t bits;         /* the result's bit pattern (its first 8 bytes),
                          * zero-extended */
  uint64_t bits2;        /* bytes 8 .. 15 of a 16-byte result (MEAN_VAR of a
                          * double accumulator), else 0 */
  int has_bound;         /* floating sum-like, NRM2 or MEAN_VAR with a finite
                          * exact value */
  long double exact;     /* the exact value (MEAN_VAR: the mean), in long double */
  double bound;          /* |result - exact| <= bound */
  int has_bound2;        /* MEAN_VAR: the variance has exact2 and bound2 */
  long double exact2;    /* MEAN_VAR: the exact population variance */
  double bound2;
};
/* 0 on success; -1 when (type, op, flags) has no result, or for ARGMIN/
 * ARGMAX of n == 0; -2 when scratch memory (n accumulators) cannot be
 * allocated.  Never prints or exits. */
int ref_answer(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
               unsigned flags, struct ref_answer *out);

/* The 16 bytes of ARGMIN or ARGMAX with GPUREDUCE_WITH_VALUE over
 * x[0 .. n-1]: the index (GPUREDUCE_NO_INDEX for n == 0, the empty
 * segment's), the element's pattern at byte 8 (for n == 0 the empty-input
 * value of MIN or MAX), zeros after it.  0 on success, -1 for another op
 * or an unknown type.  (ref_answer() has no answer for the flag.) */
int ref_with_value(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                   unsigned char out[16]);

/* What gpureduce_dot() must give for x[0 .. n-1] and y[0 .. n-1] (host
 * memory) of (type, flags): the bits (integers: the exact sum of the
 * products modulo 2^64; floats: the products rounded to SUM's accumulator,
 * summed in the doc/ORDER.md bracketing) and, for floats with a finite
 * exact value, the stated error bound (reference.c).  0 on success; -1
 * when (type, flags) has no result; -2 when scratch memory cannot be
 * allocated. */
int ref_dot(const void *x, const void *y, size_t n, gpureduce_type_t type, unsigned flags,
            struct ref_answer *out);

/* doc/ORDER.md's bound on |LOGSUMEXP - lse| for n elements of `type`
 * whose exact log-sum-exp is lse (finite): one ulp of a float result at
 * |lse| + (753 d + 2 ln(n + 1) + 4) 2^-53 + 2^-52 |lse|, d = 8V + 8 +
 * ceil(log2 T). */
double ref_logsumexp_bound(gpureduce_type_t type, size_t n, long double lse);

/* The value a result of `result_bytes` bytes holds (4: float, 8: double),
 * for comparing with ref_answer's exact value. */
double ref_result_value(unsigned result_bytes, uint64_t bits);
/* Value k (0: the mean, 1: the variance) of a MEAN_VAR result of
 * `result_bytes` bytes (8: two floats, 16: two doubles) whose bytes are
 * got[0] (bytes 0 .. 7) and got[1] (bytes 8 .. 15). */
double ref_mean_var_value(unsigned result_bytes, const uint64_t got[2], int k);

/* ---- doc/ORDER.md in pieces ---------------------------------------------- */

/*
 * The value of a floating SUM, PROD, SUM_ABS or SUM_SQUARES by the order of
 * doc/ORDER.md, from the lifted elements (already in the accumulator type;
 * see ref_lift_f).  `v` is the chunk width V of the *input* type
 * (tu_chunk_elems).  The result is what rule 6 writes: the canonical quiet
 * NaN for a NaN, +0 (sums) or 1 (product) for n == 0.
 */
float ref_order_f(const float *lifted, size_t n, unsigned v, int prod);
double ref_order_d(const double *lifted, size_t n, unsigned v, int prod);
/* One tile's value from its `count` (<= 2048 v) lifted elements (rules 3
 * and 4), and the tile tree over `t` >= 1 tile values (rule 5): for tests
 * that know most tile values without the data. */
float ref_order_tile_f(const float *lifted, size_t count, unsigned v, int prod);
float ref_order_tree_f(const float *tile_values, size_t t, int prod);
/* Lifting into the accumulator (float or double) of (type, op): the
 * element converted exactly, |x| for SUM_ABS, x*x rounded to the
 * accumulator for SUM_SQUARES.  `type` must be floating. */
void ref_lift_f(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n, float *out);
void ref_lift_d(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n, double *out);

#endif /* GPUREDUCE_TESTS_REFERENCE_H */
