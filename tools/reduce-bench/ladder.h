/*
 * ladder.h - reduce-bench's default mode: the six classic reduction
 * kernels, gpureduce, CUB and the probe on n ones, every result exact.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_LADDER_H
#define REDUCE_BENCH_LADDER_H

struct run;

/* The ladder on run's backend (host: gpureduce and a serial loop); its
 * report on stdout.  EXIT_OK, or EXIT_WRONG after a wrong result. */
int run_ladder(struct run *run);

#endif /* REDUCE_BENCH_LADDER_H */
