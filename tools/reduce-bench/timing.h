/*
 * timing.h - how reduce-bench times: CUDA events or the monotonic clock,
 * warm-up calls, batches of back-to-back calls, the median of the batches.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_TIMING_H
#define REDUCE_BENCH_TIMING_H

#include <stddef.h>
#include <stdint.h>

#define WARMUP_CALLS 3
#define BATCH_CALLS 20    /* back-to-back calls timed as one batch (all but the ladder) */
#define MAX_BATCH_MS 50.0 /* batched and segmented: fewer calls per batch beyond this */

struct bench_timer;
struct bench_probe;

/* Events on the device (CUDA) or the monotonic clock (host). */
struct clock_src {
  struct bench_timer *events; /* NULL: host clock */
};

struct timing {
  int warmup; /* untimed calls first */
  int repeat; /* timed batches; the median is reported */
  int batch;  /* calls per timed batch */
};

typedef void (*call_fn)(void *arg);

/* WARMUP_CALLS, then `repeat` batches of BATCH_CALLS calls. */
struct timing batch_timing(int repeat);

/* Milliseconds on CLOCK_MONOTONIC. */
double host_now_ms(void);

/* The median of v[0 .. count-1] (count >= 1; v is sorted in place). */
double median_of(double *v, int count);

/* Median milliseconds per call, after tm->warmup untimed calls. */
double median_ms(const struct clock_src *ck, const struct timing *tm, call_fn fn, void *arg);

/* median_ms, but with fewer calls per batch (at least 1) when tm->batch
 * calls would take more than max_batch_ms: one untimed call (counted as a
 * warm-up) measures a call first.  The calls per batch used go to *calls
 * (may be NULL). */
double median_ms_capped(const struct clock_src *ck, const struct timing *tm, double max_batch_ms,
                        call_fn fn, void *arg, int *calls);

/* 10^9 bytes per second; 0 when ms is not positive. */
double gbps(uint64_t bytes, double ms);

/* The probe's fastest grid among SMs x {1, 2, 4, 8, 16} blocks. */
struct probe_best {
  double ms;
  unsigned grid;
};

/* Time the probe reading bytes at in with each grid; the fastest. */
struct probe_best time_probe(const struct clock_src *ck, const struct timing *tm,
                             struct bench_probe *probe, const void *in, size_t bytes,
                             int sm_count);

#endif /* REDUCE_BENCH_TIMING_H */
