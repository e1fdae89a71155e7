/*
 * checks.h - what a result of reduce-bench must be, and what a check found.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
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

/* The type of the result of (type, op, flags), as gpureduce.h's table. */
gpureduce_type_t result_type(gpureduce_type_t t, gpureduce_op_t op, unsigned flags);

/* got must have want's bits (of type rt); what says where want came from. */
void compare_bits(struct verdict *v, gpureduce_type_t rt, const void *got, const void *want,
                  const char *what);
/* |got - want| <= bound, got of type rt. */
void compare_bound(struct verdict *v, gpureduce_type_t rt, const void *got, double want,
                   double bound, const char *what);

/* The result of (type, op, flags) over n ones. */
struct verdict check_ones(gpureduce_type_t t, gpureduce_op_t op, unsigned flags, size_t n,
                          const void *got);
/* got, the library's result over x[0 .. n-1], against an independent
 * oracle. */
struct verdict check_oracle(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                            const void *x, size_t n, const void *got);

#endif /* REDUCE_BENCH_CHECKS_H */
