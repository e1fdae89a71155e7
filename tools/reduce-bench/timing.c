/*
 * timing.c - clocks, batches and medians for reduce-bench (see timing.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
/* clock_gettime also under -std=c11. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "bench_cuda.h"
#include "timing.h"

double host_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Milliseconds per call of one batch of `calls` back-to-back calls. */
static double time_batch_ms(const struct clock_src *ck, call_fn fn, void *arg, int calls) {
  double t0 = 0.0;
  if (ck->events)
    bench_timer_start(ck->events);
  else
    t0 = host_now_ms();
  for (int i = 0; i < calls; ++i) fn(arg);
  const double ms = ck->events ? bench_timer_stop_ms(ck->events) : host_now_ms() - t0;
  return ms / calls;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median_of(double *v, int count) {
  qsort(v, (size_t)count, sizeof *v, compare_doubles);
  return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

struct timing batch_timing(int repeat) { return (struct timing){WARMUP_CALLS, repeat, BATCH_CALLS}; }

double median_ms(const struct clock_src *ck, const struct timing *tm, call_fn fn, void *arg) {
  for (int i = 0; i < tm->warmup; ++i) fn(arg);
  if (ck->events) bench_cuda_sync("warm-up calls");
  double *t = xmalloc((size_t)tm->repeat * sizeof *t);
  for (int r = 0; r < tm->repeat; ++r) t[r] = time_batch_ms(ck, fn, arg, tm->batch);
  const double m = median_of(t, tm->repeat);
  free(t);
  return m;
}

double median_ms_capped(const struct clock_src *ck, const struct timing *tm, double max_batch_ms,
                        call_fn fn, void *arg, int *calls) {
  struct timing t = *tm;
  if (t.warmup > 0) {
    if (ck->events) bench_cuda_sync("before a timed call");
    const double one = time_batch_ms(ck, fn, arg, 1);
    --t.warmup;
    if (one * t.batch > max_batch_ms) t.batch = one > max_batch_ms ? 1 : (int)(max_batch_ms / one);
    if (t.batch < 1) t.batch = 1;
  }
  if (calls) *calls = t.batch;
  return median_ms(ck, &t, fn, arg);
}

double gbps(uint64_t bytes, double ms) { return ms > 0 ? (double)bytes / (ms * 1e6) : 0.0; }

struct probe_call {
  struct bench_probe *probe;
  const void *in;
  size_t bytes;
  unsigned grid;
};

static void run_probe(void *arg) {
  const struct probe_call *c = arg;
  bench_probe_run(c->probe, c->in, c->bytes, c->grid);
}

struct probe_best time_probe(const struct clock_src *ck, const struct timing *tm,
                             struct bench_probe *probe, const void *in, size_t bytes,
                             int sm_count) {
  static const unsigned per_sm[] = {1, 2, 4, 8, 16};
  struct probe_best best = {0.0, 0};
  for (size_t k = 0; k < sizeof per_sm / sizeof per_sm[0]; ++k) {
    struct probe_call call = {probe, in, bytes, (unsigned)sm_count * per_sm[k]};
    const double ms = median_ms(ck, tm, run_probe, &call);
    if (!best.grid || ms < best.ms) best.ms = ms, best.grid = call.grid;
  }
  return best;
}
