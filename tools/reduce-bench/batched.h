/*
 * batched.h - reduce-bench --batch and --sweep-batched: the batched
 * reduction (gpureduce_reduce_batched) of the rows or the columns of a
 * matrix, against CUB's DeviceSegmentedReduce and the probe, every
 * result checked against gpureduce_reduce of its vector alone.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_BATCHED_H
#define REDUCE_BENCH_BATCHED_H

struct run;

/* --batch (one shape) or --sweep-batched (the shape table) on run's
 * backend; the report on stdout.  EXIT_OK, or EXIT_WRONG after a wrong
 * result or a failed gpureduce_reduce_batched call. */
int run_batched(struct run *run);

#endif /* REDUCE_BENCH_BATCHED_H */
