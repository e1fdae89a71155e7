/*
 * tune.h - reduce-bench --tune, and what the library's tuning cache holds.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_TUNE_H
#define REDUCE_BENCH_TUNE_H

struct run;

/* gpureduce_autotune for the options' operation, a row per size bucket;
 * EXIT_OK, or EXIT_WRONG when the tuning cache could not be written. */
int run_tune(struct run *run);

/* A header line: what the handle found in the tuning cache (CUDA only). */
void describe_cache(struct run *run);

#endif /* REDUCE_BENCH_TUNE_H */
