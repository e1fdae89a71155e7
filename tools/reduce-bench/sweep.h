/*
 * sweep.h - reduce-bench --sweep: one operation over n = 2^10 .. 2^30 on
 * random data, gpureduce against CUB and the probe.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_SWEEP_H
#define REDUCE_BENCH_SWEEP_H

struct run;

/* The sweep on run's backend (host: up to 2^26); its report on stdout.
 * EXIT_OK, or EXIT_WRONG after a wrong result. */
int run_sweep(struct run *run);

#endif /* REDUCE_BENCH_SWEEP_H */
