/*
 * modes.h - reduce-bench's modes, one file each; main.c runs the one the
 * options choose.  Each prints its report on stdout and returns EXIT_OK,
 * or EXIT_WRONG after a wrong result or a failed call.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_MODES_H
#define REDUCE_BENCH_MODES_H

#include <stddef.h>

struct run;

/* ladder.c: the six classic kernels, gpureduce, CUB and the probe on n
 * ones (the host backend: a serial loop and gpureduce). */
int run_ladder(struct run *run);

/* sweep.c: one operation over the sizes of sweep_sizes(), or at --n, on
 * random data: gpureduce, CUB (or cuBLAS's nrm2), the probe. */
int run_sweep(struct run *run);
/* 2^10, 2^11, ... below top, 2^24-611 (ladder_n) below top, and top,
 * ascending into sizes (room for 40); returns how many. */
int sweep_sizes(size_t top, int ladder_n, size_t *sizes);

/* batched.c: gpureduce_reduce_batched beside CUB's
 * DeviceSegmentedReduce and the probe, shape by shape. */
int run_batched(struct run *run);

/* segments.c: gpureduce_reduce_segments beside CUB's
 * DeviceSegmentedReduce and the probe, distribution by distribution. */
int run_segments(struct run *run);

/* dot.c: gpureduce_dot beside cuBLAS's dot products. */
int run_dot(struct run *run);

/* tune.c: gpureduce_autotune's rows, saved in the tuning cache. */
int run_tune(struct run *run);
/* A header line: the tuning cache's state and path (CUDA). */
void describe_cache(struct run *run);

#endif /* REDUCE_BENCH_MODES_H */
