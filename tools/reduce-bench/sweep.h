/*
 * sweep.h - reduce-bench's sweeps of gpureduce_reduce on random data,
 * gpureduce against CUB and the probe: --sweep, one operation over n =
 * 2^10 .. 2^30 (sweep.c), and --sweep-1d, every operation and type at a
 * few sizes and two alignments (sweep1d.c); and what the two share.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_SWEEP_H
#define REDUCE_BENCH_SWEEP_H

#include <stddef.h>

#include "timing.h"

struct options;
struct run;

#define SWEEP_BATCH 20  /* back-to-back calls timed as one batch */
#define SWEEP_ROOM 0.8  /* the share of free device memory an input may take */

/* The sweep on run's backend (host: up to 2^26); its report on stdout.
 * EXIT_OK, or EXIT_WRONG after a wrong result. */
int run_sweep(struct run *run);

/* The 1-D sweep (--sweep-1d) on run's backend; its report on stdout.
 * EXIT_OK, or EXIT_WRONG after a wrong result. */
int run_sweep_1d(struct run *run);

/* The sweeps' timing of one point: WARMUP_CALLS warm-up calls, then
 * --repeat batches of SWEEP_BATCH back-to-back calls (median_ms). */
struct timing sweep_timing(const struct options *o);

/* How many of sizes[0 .. count-1] (ascending, elements) fit, with offset
 * elements before them, in SWEEP_ROOM of the device's free memory at
 * element_bytes each: at least 1; on the host backend all of them. */
int sizes_that_fit(const struct run *run, size_t element_bytes, size_t offset,
                   const size_t *sizes, int count);

#endif /* REDUCE_BENCH_SWEEP_H */
