/*
 * checks.h - what a result of reduce-bench must be, and what a check found.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * The semantics live in the tests' independent reference
 * (tests/lib/reference.h), not here: the bench knows only what n ones
 * reduce to.  Results are in host memory, as the library wrote them
 * (gpureduce_result_size() bytes).
 */
#ifndef REDUCE_BENCH_CHECKS_H
#define REDUCE_BENCH_CHECKS_H

#include <stddef.h>

#include "gpureduce.h"

/* What a check found: the verdict and, when wrong, a line for stderr. */
struct verdict {
  int wrong;
  int exact; /* compared bit for bit */
  char detail[240];
};

/* ARGMIN or ARGMAX; MIN or MAX. */
int op_is_arg(gpureduce_op_t op);
int op_is_extremum(gpureduce_op_t op);

/* got, a result of (type, op, flags), has want's bits; what says where
 * want came from. */
struct verdict check_same(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                          const void *got, const void *want, const char *what);
/* got near want, results of (type, op, flags) over n elements from two
 * implementations whose orders differ (CUB against gpureduce): floating
 * sums, sum_abs and sum_squares within 1e-3 x max(|want|, sqrt(n)), a
 * floating prod within 1e-3 x |want| plus the accumulator's smallest
 * normal number; everything else (integers, min, max, argmin, argmax)
 * bit for bit. */
struct verdict check_close(gpureduce_type_t t, gpureduce_op_t op, unsigned flags, size_t n,
                           const void *got, const void *want, const char *what);
/* |got - want| <= bound for an f32 result. */
struct verdict check_near_f32(float got, double want, double bound, const char *what);

/* The result of (type, op, flags) over n ones: n for the sums, 1 for prod,
 * min and max, index 0 for argmin and argmax. */
struct verdict check_ones(gpureduce_type_t t, gpureduce_op_t op, unsigned flags, size_t n,
                          const void *got);
/* got, the library's result over x[0 .. n-1] (host memory), against the
 * tests' reference: its bits, and for floating sum-likes its error bound
 * too.  Exits with status 1 when the reference cannot allocate its n
 * accumulators. */
struct verdict check_reference(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                               const void *x, size_t n, const void *got);

#endif /* REDUCE_BENCH_CHECKS_H */
