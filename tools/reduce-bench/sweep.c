/*
 * sweep.c - reduce-bench --sweep, and one size of it (see modes.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * One input of the largest n, random, for every size; at each n
 * gpureduce, CUB (or cuBLAS's nrm2), the probe and, for the f32 sum, a
 * nondeterministic atomic sum, each the median of --repeat batches of 20
 * calls; then gpureduce's result checked.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cub.h"
#include "bench_cuda.h"
#include "checks.h"
#include "modes.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "timing.h"

#define SWEEP_MIN_LOG2 10
#define SWEEP_MAX_N ((size_t)1 << 30)      /* CUDA */
#define HOST_MAX_N ((size_t)1 << 26)       /* host backend */
#define REFERENCE_MAX_N ((size_t)1 << 26)  /* CUDA sweep: the tests' reference too */

struct atomic_call {
  const float *in;
  size_t n;
  float *out;
  unsigned grid;
};

static void run_atomic(void *arg) {
  const struct atomic_call *c = arg;
  bench_atomic_sum_f32(c->in, c->n, c->out, c->grid);
}

enum {
  SC_N_LABEL,
  SC_N,
  SC_MB,
  SC_BYTES,
  SC_L2_TEXT,
  SC_L2,
  SC_GR_US,
  SC_GR_GBS,
  SC_CUB_US,
  SC_CUB_GBS,
  SC_PROBE_US,
  SC_PROBE_GBS,
  SC_PROBE_GRID,
  SC_ATOMIC_US,
  SC_GR_VS_CUB,
  SC_GR_VS_PROBE,
  SC_CHECK,
  SC_RESULT,
  SC_COUNT
};

static const struct column sweep_columns[SC_COUNT] = {
    [SC_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 1},
    [SC_N] = {"n", "n", 0, SHOW_DATA, 0},
    [SC_MB] = {"mb", "MB", 1, SHOW_TEXT, 0},
    [SC_BYTES] = {"bytes", "bytes", 0, SHOW_DATA, 0},
    [SC_L2_TEXT] = {"in_l2", "in L2", 0, SHOW_TEXT, 1},
    [SC_L2] = {"l2_resident", "in L2", 0, SHOW_DATA, 0},
    [SC_GR_US] = {"gpureduce_us", "gr us", 2, SHOW_ALL, 0},
    [SC_GR_GBS] = {"gpureduce_gbs", "gr GB/s", 1, SHOW_ALL, 0},
    [SC_CUB_US] = {"cub_us", "cub us", 2, SHOW_ALL, 0},
    [SC_CUB_GBS] = {"cub_gbs", "cub GB/s", 1, SHOW_ALL, 0},
    [SC_PROBE_US] = {"probe_us", "probe us", 2, SHOW_ALL, 0},
    [SC_PROBE_GBS] = {"probe_gbs", "probe GB/s", 1, SHOW_ALL, 0},
    [SC_PROBE_GRID] = {"probe_blocks", "probe grid", 0, SHOW_ALL, 0},
    [SC_ATOMIC_US] = {"atomic_nondeterministic_us", "atomic* us", 2, SHOW_ALL, 0},
    [SC_GR_VS_CUB] = {"gpureduce_vs_cub", "gr/cub", 2, SHOW_ALL, 0},
    [SC_GR_VS_PROBE] = {"gpureduce_vs_probe", "gr/probe", 2, SHOW_ALL, 0},
    [SC_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
    [SC_RESULT] = {"result_bits", "result", 0, SHOW_DATA, 0},
};

static int compare_sizes(const void *a, const void *b) {
  const size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

int sweep_sizes(size_t top, int ladder_n, size_t *sizes) {
  int count = 0;
  for (size_t n = (size_t)1 << SWEEP_MIN_LOG2; n < top; n *= 2) sizes[count++] = n;
  if (ladder_n && LADDER_N < top) sizes[count++] = LADDER_N;
  sizes[count++] = top;
  qsort(sizes, (size_t)count, sizeof *sizes, compare_sizes);
  return count;
}

/* Everything one sweep keeps for all sizes. */
struct sweep_ctx {
  struct run *run;
  struct timing tm;
  struct input in; /* the largest n, random */
  void *out;
  struct bench_cub *cub; /* NULL: not built, or host */
  struct bench_probe *probe;
  int atomic;              /* the f32 sum's atomic variant runs */
  void *host_copy;         /* CUDA: the whole input copied back, for the checks */
  gpureduce_handle_t host; /* CUDA: the host backend for the checks */
};

/* What one size measured. */
struct sweep_point {
  size_t n;
  double gr_ms, cub_ms, probe_ms, atomic_ms; /* 0: not run */
  unsigned probe_grid;
  char check[64];
  char result[2 * RESULT_MAX + 3]; /* gpureduce's result bits, hex (bench/compare-bits) */
};

static void check_part(struct sweep_ctx *sc, struct sweep_point *p, const char *who,
                       const struct verdict *v) {
  if (!v->wrong) return;
  report_wrong(sc->run, who, p->n, v);
  const size_t len = strlen(p->check);
  snprintf(p->check + len, sizeof p->check - len, "%s%s", len ? "," : "WRONG:", who);
}

/* f32 sums of CUB and of the atomic kernel: within 1e-3 max(|sum|, sqrt n)
 * of gpureduce's, a sanity bound only (their orders differ). */
static void check_loose(struct sweep_ctx *sc, struct sweep_point *p, const char *who, float got,
                        float ref) {
  const double scale = fmax(fabs((double)ref), sqrt((double)p->n));
  const struct verdict v = check_near_f32(got, ref, 1e-3 * scale, "gpureduce's sum, loose bound");
  check_part(sc, p, who, &v);
}

/* The f32 sum of 2^24-611 ones: exact, for gpureduce and the atomic kernel. */
static void check_sweep_ones(struct sweep_ctx *sc, struct sweep_point *p) {
  const struct options *o = sc->run->opt;
  const int cuda = sc->run->cuda;
  struct input ones = input_alloc(cuda, GPUREDUCE_F32, p->n, o->offset, "all-ones input");
  struct reduce_call call = {ones.x, sc->out, p->n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, sc->run->h};
  float got;
  fill_ones(&ones, GPUREDUCE_F32);
  library_result(&call, cuda, &got);
  struct verdict v = check_ones(p->n, got);
  check_part(sc, p, "gpureduce(ones)", &v);
  if (sc->atomic) {
    struct atomic_call ac = {ones.x, p->n, sc->out, p->probe_grid};
    run_atomic(&ac);
    bench_cuda_copy_to_host(&got, sc->out, sizeof got);
    v = check_ones(p->n, got);
    check_part(sc, p, "atomic(ones)", &v);
  }
  input_free(&ones);
}

/* CUDA, every n: the same bits as the host backend on the data copied
 * back, and as a second run; n <= 2^26 (host backend: every n), the
 * tests' reference too. */
static void check_library(struct sweep_ctx *sc, struct sweep_point *p, const void *got) {
  const struct options *o = sc->run->opt;
  const void *x = sc->in.x;
  if (is_with_value(o)) {
    /* the plain arg op's index, and the element there as MIN/MAX writes it */
    const struct reduce_call plain = {sc->in.x, sc->out, p->n, o->type, o->op,
                                      o->flags & ~GPUREDUCE_WITH_VALUE, sc->run->h};
    RESULT_BUFFER(want);
    library_result(&plain, sc->run->cuda, want);
    value_result_from_plain(sc->run->cuda, o->type, o->op, sc->in.x, p->n,
                            gpureduce_type_size(o->type), want);
    const struct verdict v = check_same(o->type, o->op, o->flags, got, want,
                                        "the plain arg op's index and the element there");
    check_part(sc, p, "gpureduce!=plain", &v);
  }
  if (sc->run->cuda) {
    RESULT_BUFFER(want) = {0}; /* the host backend writes it: aligned for any result */
    struct reduce_call hc = {sc->host_copy, want, p->n, o->type, o->op, o->flags, sc->host};
    run_reduce(&hc);
    const struct verdict host =
        check_same(o->type, o->op, o->flags, got, want, "the host backend on the same data");
    check_part(sc, p, "gpureduce!=host", &host);
    struct reduce_call again = {sc->in.x, sc->out, p->n, o->type, o->op, o->flags, sc->run->h};
    library_result(&again, 1, want);
    const struct verdict rerun = check_same(o->type, o->op, o->flags, got, want, "a second run");
    check_part(sc, p, "gpureduce(rerun)", &rerun);
    if (p->n > REFERENCE_MAX_N) return;
    x = sc->host_copy;
  }
  const struct verdict v = check_reference(o->type, o->op, o->flags, x, p->n, got);
  check_part(sc, p, "gpureduce", &v);
}

static void sweep_check(struct sweep_ctx *sc, struct sweep_point *p) {
  const struct options *o = sc->run->opt;
  struct reduce_call call = {sc->in.x, sc->out, p->n, o->type, o->op, o->flags, sc->run->h};
  RESULT_BUFFER(got);
  library_result(&call, sc->run->cuda, got);
  check_library(sc, p, got);
  if (is_plain_f32_sum(o)) {
    float ref, other;
    memcpy(&ref, got, sizeof ref);
    if (sc->cub) {
      bench_cub_run_once(sc->cub, sc->in.x, p->n, &other, sizeof other);
      check_loose(sc, p, "cub", other, ref);
    }
    if (sc->atomic) {
      struct atomic_call ac = {sc->in.x, p->n, sc->out, p->probe_grid};
      run_atomic(&ac);
      bench_cuda_copy_to_host(&other, sc->out, sizeof other);
      check_loose(sc, p, "atomic", other, ref);
    }
    if (p->n == LADDER_N) check_sweep_ones(sc, p);
  }
  if (!p->check[0]) snprintf(p->check, sizeof p->check, "ok");
}

static void sweep_point(struct sweep_ctx *sc, size_t n, struct sweep_point *p) {
  const struct options *o = sc->run->opt;
  const struct clock_src *ck = &sc->run->ck;
  const size_t bytes = n * gpureduce_type_size(o->type);
  struct reduce_call call = {sc->in.x, sc->out, n, o->type, o->op, o->flags, sc->run->h};
  char nl[32];
  memset(p, 0, sizeof *p);
  p->n = n;
  progress(" n=%s ...", label_n(n, nl, sizeof nl));
  p->gr_ms = median_ms(ck, &sc->tm, run_reduce, &call);
  if (sc->cub) {
    struct cub_call cc = {sc->cub, sc->in.x, n};
    p->cub_ms = median_ms(ck, &sc->tm, run_cub, &cc);
  }
  if (sc->probe) {
    const struct probe_best best =
        time_probe(ck, &sc->tm, sc->probe, sc->in.x, bytes, sc->run->dev.sm_count);
    p->probe_ms = best.ms;
    p->probe_grid = best.grid;
  }
  if (sc->atomic) {
    struct atomic_call ac = {sc->in.x, n, sc->out, p->probe_grid};
    p->atomic_ms = median_ms(ck, &sc->tm, run_atomic, &ac);
  }
  if (o->check)
    sweep_check(sc, p);
  else
    snprintf(p->check, sizeof p->check, "-");
  /* The result's bits, so that two builds' sweeps can be compared bit for
   * bit (bench/compare-bits): the little-endian bytes as one hex number,
   * 2 digits a byte (with the value: the value's 8 bytes, then the index). */
  RESULT_BUFFER(got);
  const size_t rs = gpureduce_result_size(o->type, o->op, o->flags);
  library_result(&call, sc->run->cuda, got);
  snprintf(p->result, sizeof p->result, "0x");
  for (size_t i = rs; i-- > 0;) append_text(p->result, sizeof p->result, "%02x", got[i]);
}

static void sweep_row(const struct sweep_ctx *sc, const struct sweep_point *p, struct table *t) {
  const size_t bytes = p->n * gpureduce_type_size(sc->run->opt->type);
  struct row *r = table_add(t);
  char nl[32];
  set_text(r, SC_N_LABEL, "%s", label_n(p->n, nl, sizeof nl));
  set_num(r, SC_N, (double)p->n);
  set_num(r, SC_MB, (double)bytes / 1e6);
  set_num(r, SC_BYTES, (double)bytes);
  if (sc->run->cuda) {
    set_text(r, SC_L2_TEXT, "%s", bytes <= sc->run->dev.l2_bytes ? "yes" : "no");
    set_num(r, SC_L2, bytes <= sc->run->dev.l2_bytes);
  }
  set_num(r, SC_GR_US, 1e3 * p->gr_ms);
  set_num(r, SC_GR_GBS, gbps(bytes, p->gr_ms));
  if (p->cub_ms > 0) {
    set_num(r, SC_CUB_US, 1e3 * p->cub_ms);
    set_num(r, SC_CUB_GBS, gbps(bytes, p->cub_ms));
    set_num(r, SC_GR_VS_CUB, p->cub_ms / p->gr_ms);
  }
  if (p->probe_ms > 0) {
    set_num(r, SC_PROBE_US, 1e3 * p->probe_ms);
    set_num(r, SC_PROBE_GBS, gbps(bytes, p->probe_ms));
    set_num(r, SC_PROBE_GRID, p->probe_grid);
    set_num(r, SC_GR_VS_PROBE, p->probe_ms / p->gr_ms);
  }
  if (p->atomic_ms > 0) set_num(r, SC_ATOMIC_US, 1e3 * p->atomic_ms);
  set_text(r, SC_CHECK, "%s", p->check);
  set_text(r, SC_RESULT, "%s", p->result);
}

static void sweep_notes(struct run *run, const struct sweep_ctx *sc) {
  const struct options *o = run->opt;
  add_note(run,
           "time: median of %d batches of %d back-to-back calls after %d warm-ups (%s); "
           "GB/s = n x %zu bytes / time; input: random, one buffer for every n",
           o->repeat, BATCH_CALLS, WARMUP_CALLS, run->cuda ? "CUDA events" : "CLOCK_MONOTONIC",
           gpureduce_type_size(o->type));
  note_probe(run);
  if (sc->atomic)
    add_note(run,
             "atomic*: NONDETERMINISTIC f32 sum (blocks atomicAdd into one float, bits vary "
             "between runs), memset in the timed region, the probe's grid");
  if (run->cuda && !sc->cub) note_no_cub(run);
  if (!o->check) return;
  if (run->cuda)
    add_note(run,
             "check: every n bitwise = host backend on the data copied back and = a second "
             "run; n <= 2^26 also the tests' reference%s",
             sc->atomic ? "; 2^24-611 ones exact; cub, atomic within 1e-3" : "");
  else
    add_note(run, "check: the tests' independent reference (its bits; for float sums and "
                  "products also its error bound)");
  note_value_check(run, "the same data", sc->cub != NULL);
}

/* Drop the sizes whose buffer would not fit in device memory, with a note. */
static int sweep_fit(struct run *run, size_t *sizes, int count) {
  const int kept =
      sizes_that_fit(run, gpureduce_type_size(run->opt->type), run->opt->offset, sizes, count);
  if (kept < count) {
    char nl[32];
    add_note(run, "sizes above %s left out: they do not fit in device memory",
             label_n(sizes[kept - 1], nl, sizeof nl));
  }
  return kept;
}

static void sweep_open(struct sweep_ctx *sc, const size_t *sizes, int count) {
  const struct options *o = sc->run->opt;
  const int cuda = sc->run->cuda;
  const size_t n_max = sizes[count - 1];
  sc->tm = batch_timing(o->repeat);
  sc->in = input_alloc(cuda, o->type, n_max, o->offset, "sweep input");
  fill_random(&sc->in, o->type, RANDOM_SEED);
  sc->out = backend_alloc(cuda, RESULT_MAX, "output");
  if (!cuda) return;
  sc->cub = bench_cub_create(o->type, o->op, o->flags, sizes, (size_t)count);
  sc->probe = bench_probe_create();
  sc->atomic = is_plain_f32_sum(o);
  if (!o->check) return;
  /* The input never changes: one copy serves every n. */
  const size_t bytes = n_max * gpureduce_type_size(o->type);
  sc->host_copy = xmalloc_aligned(bytes);
  bench_cuda_copy_to_host(sc->host_copy, sc->in.x, bytes);
  const gpureduce_status_t s = gpureduce_create(&sc->host, GPUREDUCE_DEVICE_HOST);
  if (s != GPUREDUCE_SUCCESS) library_failed(NULL, s, "gpureduce_create (host backend, checks)");
}

int run_sweep(struct run *run) {
  const struct options *o = run->opt;
  size_t sizes[40];
  struct sweep_ctx sc;
  struct table t;
  int count = 1;
  sizes[0] = o->n;
  if (o->sweep) count = sweep_sizes(o->n ? o->n : run->cuda ? SWEEP_MAX_N : HOST_MAX_N, 1, sizes);
  if (!o->sweep) describe_blocks(run, o->n);
  memset(&sc, 0, sizeof sc);
  sc.run = run;
  count = sweep_fit(run, sizes, count);
  sweep_open(&sc, sizes, count);
  table_init(&t, sweep_columns, SC_COUNT);
  t.enabled[SC_L2_TEXT] = t.enabled[SC_L2] = t.enabled[SC_PROBE_US] = t.enabled[SC_PROBE_GBS] =
      run->cuda;
  t.enabled[SC_PROBE_GRID] = t.enabled[SC_GR_VS_PROBE] = run->cuda;
  t.enabled[SC_CUB_US] = t.enabled[SC_CUB_GBS] = t.enabled[SC_GR_VS_CUB] = sc.cub != NULL;
  t.enabled[SC_ATOMIC_US] = sc.atomic;
  for (int i = 0; i < count; ++i) {
    struct sweep_point p;
    sweep_point(&sc, sizes[i], &p);
    sweep_row(&sc, &p, &t);
  }
  progress(" ");
  summarize_check(run);
  sweep_notes(run, &sc);
  print_report(run, &t);
  input_free(&sc.in);
  backend_free(run->cuda, sc.out);
  bench_cub_destroy(sc.cub);
  bench_probe_destroy(sc.probe);
  free(sc.host_copy);
  if (sc.host) gpureduce_destroy(sc.host);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}
