/*
 * segments.h - reduce-bench --segments and --sweep-segments: the
 * segmented reduction (gpureduce_reduce_segments) of CSR offsets whose
 * lengths come from a distribution, against CUB's DeviceSegmentedReduce
 * with the same offsets, the batched call at the same shape (uniform
 * lengths) and the probe, every result checked against gpureduce_reduce
 * of its segment alone.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_SEGMENTS_H
#define REDUCE_BENCH_SEGMENTS_H

struct run;

/* --segments (one distribution) or --sweep-segments (the table) on run's
 * backend; the report on stdout.  EXIT_OK, or EXIT_WRONG after a wrong
 * result or a failed gpureduce_reduce_segments call. */
int run_segments(struct run *run);

#endif /* REDUCE_BENCH_SEGMENTS_H */
