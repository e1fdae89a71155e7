/*
 * dot.h - reduce-bench --op dot: gpureduce_dot timed beside cuBLAS's dot
 * product (cublasSdot, cublasDdot, cublasDotEx) in one process, at one
 * --n or over the --sweep sizes, every gpureduce result checked against
 * the tests' reference (ref_dot).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_DOT_H
#define REDUCE_BENCH_DOT_H

struct run;

/* The mode; returns the exit status. */
int run_dot(struct run *run);

#endif /* REDUCE_BENCH_DOT_H */
