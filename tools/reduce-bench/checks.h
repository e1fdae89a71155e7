/*
 * checks.h - what a result of reduce-bench must be, and what a check found.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * The semantics live in the tests' independent reference
 * (tests/lib/reference.h), not here: the bench knows only what n ones
 * sum to.  Results are in host memory, as the library wrote them
 * (gpureduce_result_size() bytes, at most RESULT_MAX).
 *
 * GPUREDUCE_WITH_VALUE's 16 bytes are compared whole: the index at byte 0
 * and the element at byte 8 with the zeros after it, and a mismatch says
 * which of the two differs.
 */
#ifndef REDUCE_BENCH_CHECKS_H
#define REDUCE_BENCH_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

/* The largest result (GPUREDUCE_WITH_VALUE), and the alignment a buffer
 * for any result needs: declare one as `RESULT_BUFFER(name);`. */
#define RESULT_MAX 16
#define RESULT_BUFFER(name) _Alignas(RESULT_MAX) unsigned char name[RESULT_MAX]

/* What a check found: the verdict and, when wrong, a line for stderr. */
struct verdict {
  int wrong;
  int exact; /* compared bit for bit */
  char detail[320]; /* room for two value results */
};

/* ARGMIN or ARGMAX. */
int op_is_arg(gpureduce_op_t op);

/* GPUREDUCE_WITH_VALUE's 16 bytes for the index `index` of ARGMIN or
 * ARGMAX (type t), with element the element there (its bytes in host
 * memory): the index, then the element as MIN or MAX writes it (the tests'
 * ref_with_value of that one element: the canonical NaN for a NaN, a zero
 * with its sign), zeros.  element NULL: an empty segment's result,
 * GPUREDUCE_NO_INDEX and the empty value of MIN or MAX. */
void value_result_of(gpureduce_type_t t, gpureduce_op_t op, uint64_t index, const void *element,
                     unsigned char out[RESULT_MAX]);

/* got, a result of (type, op, flags), has want's bits; what says where
 * want came from. */
struct verdict check_same(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                          const void *got, const void *want, const char *what);
/* got near want, results of (type, op, flags) over n elements from two
 * implementations whose orders differ (CUB against gpureduce): floating
 * sums, sum_abs and sum_squares within 1e-3 x max(|want|, sqrt(n)), a
 * floating prod within 1e-3 x |want| plus the accumulator's smallest
 * normal number; everything else (integers, min, max, argmin, argmax,
 * and with GPUREDUCE_WITH_VALUE all 16 bytes) bit for bit. */
struct verdict check_close(gpureduce_type_t t, gpureduce_op_t op, unsigned flags, size_t n,
                           const void *got, const void *want, const char *what);
/* |got - want| <= bound for an f32 result. */
struct verdict check_near_f32(float got, double want, double bound, const char *what);

/* got, the f32 sum of n ones: n, exactly up to 2^24; beyond, where some
 * partial sums of ones are not representable, within (log2 n + 8)
 * roundings of n. */
struct verdict check_ones(size_t n, float got);
/* got, the library's result over x[0 .. n-1] (host memory), against the
 * tests' reference: its bits, and for floating sum-likes its error bound
 * too (GPUREDUCE_WITH_VALUE: ref_with_value, the index of the
 * reference's ARGMIN/ARGMAX loop and the element there).  Exits with
 * status 1 when the reference cannot allocate its n accumulators. */
struct verdict check_reference(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                               const void *x, size_t n, const void *got);
/* check_reference's bits alone, without the error bound (which, for a
 * floating product, does not allow for underflow: the product of 2^10
 * random values on [-1, 1) is 0 in every type, its exact value about
 * 1e-470). */
struct verdict check_reference_bits(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                                    const void *x, size_t n, const void *got);

#endif /* REDUCE_BENCH_CHECKS_H */
