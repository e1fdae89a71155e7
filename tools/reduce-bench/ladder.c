/*
 * ladder.c - the ladder, reduce-bench's default mode (see modes.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * CUDA: the rungs v1..v6 (gpureduce_ladder_sum_f32), gpureduce, CUB and
 * the probe on n floats that are all 1.0, after the bandwidth limit of the
 * probe over 1 GiB; every sum must be n.  Host: a serial loop and
 * gpureduce.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdint.h>
#include <stdio.h>
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

#define LIMIT_BYTES ((size_t)1 << 30) /* the probe's buffer for the limit */

/* ---- the ladder (default run) --------------------------------------------------- */

struct ladder_call {
  gpureduce_ladder_rung_t rung;
  const float *in;
  float *out;
  size_t n;
  void *ws;
  size_t ws_bytes;
  unsigned launches;
  gpureduce_handle_t h;
};

static void run_rung(void *arg) {
  struct ladder_call *c = arg;
  const gpureduce_status_t s = gpureduce_ladder_sum_f32(c->rung, c->in, c->out, c->n, c->ws,
                                                        c->ws_bytes, &c->launches, c->h);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_ladder_sum_f32");
}

/* The reference row of the host backend: a plain serial loop, in double. */
struct serial_call {
  const float *x;
  size_t n;
  double sum;
};

static void run_serial(void *arg) {
  struct serial_call *c = arg;
  double s = 0.0;
  for (size_t i = 0; i < c->n; ++i) s += c->x[i];
  c->sum = s;
}

/* One row of the ladder as measured, before it becomes a table row. */
struct ladder_row {
  const char *id;
  char kernel[80];
  char launches[8];
  uint64_t bytes;
  double ms;
  int rung; /* part of the step chain: v1..v6, gpureduce */
  int checked;
  int exact; /* checked bit for bit */
  int wrong;
};

enum {
  LC_ROW,
  LC_KERNEL,
  LC_LAUNCHES,
  LC_MB,
  LC_BYTES,
  LC_MS,
  LC_GBS,
  LC_LIMIT,
  LC_VS_FIRST,
  LC_STEP,
  LC_CHECK,
  LC_COUNT
};

static const struct column ladder_columns[LC_COUNT] = {
    [LC_ROW] = {"row", "row", 0, SHOW_ALL, 1},
    [LC_KERNEL] = {"kernel", "kernel", 0, SHOW_ALL, 1},
    [LC_LAUNCHES] = {"launches", "launches", 0, SHOW_ALL, 0},
    [LC_MB] = {"read_mb", "read MB", 1, SHOW_TEXT, 0},
    [LC_BYTES] = {"bytes_read", "bytes", 0, SHOW_DATA, 0},
    [LC_MS] = {"ms", "ms", 4, SHOW_ALL, 0},
    [LC_GBS] = {"gbs", "GB/s", 1, SHOW_ALL, 0},
    [LC_LIMIT] = {"pct_limit", "% limit", 1, SHOW_ALL, 0},
    [LC_VS_FIRST] = {"speedup_vs_v1", "x v1", 2, SHOW_ALL, 0},
    [LC_STEP] = {"step", "step", 2, SHOW_ALL, 0},
    [LC_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
};

/*
 * Bytes v1..v4 read: every pass reads its m elements (n, then one partial
 * per block of the previous pass) until a pass has one block; passes is
 * the launch count this model expects.
 */
static uint64_t multipass_bytes(size_t n, unsigned per_block, unsigned *passes) {
  uint64_t m = n, bytes = 0;
  *passes = 0;
  for (;;) {
    const uint64_t blocks = m ? (m + per_block - 1) / per_block : 1;
    bytes += 4 * m;
    ++*passes;
    if (blocks == 1) return bytes;
    m = blocks;
  }
}

/* v5 and v6: n floats plus one partial per block of the first phase, whose
 * grid is min(ceil(n/256), 8 blocks per SM, 2048) (the library's ladder). */
static uint64_t two_phase_bytes(size_t n, int sm_count) {
  uint64_t grid = (n + 255) / 256;
  if (grid > (uint64_t)sm_count * 8) grid = (uint64_t)sm_count * 8;
  if (grid > 2048) grid = 2048;
  return 4 * (uint64_t)n + 4 * (grid ? grid : 1);
}

static uint64_t rung_bytes(gpureduce_ladder_rung_t rung, size_t n, int sm_count, unsigned *passes) {
  if (rung == GPUREDUCE_LADDER_TWO_PHASE || rung == GPUREDUCE_LADDER_WARP_SHUFFLE) {
    *passes = rung == GPUREDUCE_LADDER_TWO_PHASE ? 2 : 1;
    return two_phase_bytes(n, sm_count);
  }
  return multipass_bytes(n, rung == GPUREDUCE_LADDER_FIRST_ADD ? 512 : 256, passes);
}

struct ladder_ctx {
  struct run *run;
  struct input in;
  void *out;
  const struct timing *tm;
};

/* sum: the row's f32 sum of the n ones. */
static void check_row(struct ladder_ctx *lc, struct ladder_row *row, float sum) {
  const struct options *o = lc->run->opt;
  const struct verdict v = check_ones(o->n, sum);
  row->checked = 1;
  row->exact = v.exact;
  row->wrong = v.wrong;
  if (v.wrong) report_wrong(lc->run, row->id, o->n, &v);
}

static void ladder_rung(struct ladder_ctx *lc, gpureduce_ladder_rung_t rung, void *ws,
                        size_t ws_bytes, struct ladder_row *row) {
  static const char *const ids[] = {"", "v1", "v2", "v3", "v4", "v5", "v6"};
  struct run *run = lc->run;
  struct ladder_call call = {rung, lc->in.x, lc->out, lc->in.n, ws, ws_bytes, 0, run->h};
  unsigned passes;
  row->id = ids[rung];
  row->rung = 1;
  snprintf(row->kernel, sizeof row->kernel, "%s", gpureduce_ladder_name(rung));
  row->bytes = rung_bytes(rung, lc->in.n, run->dev.sm_count, &passes);
  row->ms = median_ms(&run->ck, lc->tm, run_rung, &call);
  snprintf(row->launches, sizeof row->launches, "%u", call.launches);
  if (call.launches != passes)
    add_note(run, "%s launched %u kernels; its byte count assumed %u passes", row->id,
             call.launches, passes);
  if (!run->opt->check) return;
  float sum;
  bench_cuda_poison(lc->out, 16);
  run_rung(&call);
  bench_cuda_copy_to_host(&sum, lc->out, sizeof sum);
  check_row(lc, row, sum);
}

/* Workspace for every rung: the largest size, allocated once. */
static size_t ladder_workspace(const struct options *o, gpureduce_handle_t h) {
  size_t most = 0;
  for (int r = GPUREDUCE_LADDER_FIRST; r <= GPUREDUCE_LADDER_LAST; ++r) {
    size_t bytes = 0;
    const gpureduce_status_t s =
        gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)r, o->n, &bytes);
    if (s != GPUREDUCE_SUCCESS) library_failed(h, s, "gpureduce_ladder_workspace_size");
    if (bytes > most) most = bytes;
  }
  return most;
}

static void ladder_rungs(struct ladder_ctx *lc, struct ladder_row *rows, int *nrows) {
  const struct options *o = lc->run->opt;
  const size_t ws_bytes = ladder_workspace(o, lc->run->h);
  void *ws = ws_bytes ? bench_cuda_alloc(ws_bytes, "ladder workspace") : NULL;
  for (int r = GPUREDUCE_LADDER_FIRST; r <= GPUREDUCE_LADDER_LAST; ++r) {
    progress(" ladder v%d ...", r);
    ladder_rung(lc, (gpureduce_ladder_rung_t)r, ws, ws_bytes, &rows[(*nrows)++]);
  }
  bench_cuda_free(ws);
}

/* The library's row: gpureduce_sum_f32. */
static void ladder_library(struct ladder_ctx *lc, struct ladder_row *row) {
  struct reduce_call call = {lc->in.x, lc->out, lc->in.n, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                             lc->run->h};
  row->id = "gpureduce";
  row->rung = 1;
  snprintf(row->kernel, sizeof row->kernel, "gpureduce_sum_f32");
  snprintf(row->launches, sizeof row->launches, "%s", lc->run->cuda ? "1" : "-");
  row->bytes = (uint64_t)lc->in.n * sizeof(float);
  progress(" ladder %s ...", row->id);
  row->ms = median_ms(&lc->run->ck, lc->tm, run_reduce, &call);
  if (!lc->run->opt->check) return;
  float sum;
  library_result(&call, lc->run->cuda, &sum);
  check_row(lc, row, sum);
}

static void ladder_cub(struct ladder_ctx *lc, struct ladder_row *row) {
  const struct options *o = lc->run->opt;
  struct cub_call call = {bench_cub_create(GPUREDUCE_F32, GPUREDUCE_SUM, 0, &o->n, 1), lc->in.x,
                          lc->in.n};
  row->id = "cub";
  snprintf(row->kernel, sizeof row->kernel, "%s", bench_cub_name(call.cub));
  snprintf(row->launches, sizeof row->launches, "%s", o->n >= 65536 ? "2" : "1-2");
  row->bytes = (uint64_t)o->n * sizeof(float);
  progress(" ladder cub ...");
  row->ms = median_ms(&lc->run->ck, lc->tm, run_cub, &call);
  if (o->check) {
    float sum;
    bench_cub_run_once(call.cub, lc->in.x, o->n, &sum, sizeof sum);
    check_row(lc, row, sum);
  }
  bench_cub_destroy(call.cub);
}

static void ladder_probe(struct ladder_ctx *lc, struct bench_probe *probe, struct ladder_row *row) {
  const uint64_t bytes = (uint64_t)lc->in.n * sizeof(float);
  progress(" ladder probe ...");
  const struct probe_best best =
      time_probe(&lc->run->ck, lc->tm, probe, lc->in.x, bytes, lc->run->dev.sm_count);
  row->id = "probe";
  snprintf(row->kernel, sizeof row->kernel, "read-only probe, %u blocks", best.grid);
  snprintf(row->launches, sizeof row->launches, "1");
  row->bytes = bytes;
  row->ms = best.ms;
}

/* The probe's GB/s over a 1 GiB buffer of random words: the limit. */
static void measure_limit(struct run *run, const struct timing *tm, struct bench_probe *probe) {
  struct input big = input_alloc(1, GPUREDUCE_U32, LIMIT_BYTES / 4, 0, "1 GiB probe buffer");
  fill_random(&big, GPUREDUCE_U32, RANDOM_SEED);
  progress(" bandwidth limit ...");
  const struct probe_best best =
      time_probe(&run->ck, tm, probe, big.x, LIMIT_BYTES, run->dev.sm_count);
  run->limit_gbs = gbps(LIMIT_BYTES, best.ms);
  run->limit_grid = best.grid;
  input_free(&big);
}

/* Speedups, the largest step and the check verdict; then the table. */
static void ladder_table(struct run *run, const struct ladder_row *rows, int nrows,
                         struct table *t) {
  const struct ladder_row *first = &rows[0], *prev = NULL, *step_from = NULL, *step_to = NULL;
  double step_best = 0.0;
  table_init(t, ladder_columns, LC_COUNT);
  t->enabled[LC_LIMIT] = run->limit_gbs > 0;
  t->enabled[LC_LAUNCHES] = run->cuda;
  if (!run->cuda) t->title[LC_VS_FIRST] = "x serial", t->key[LC_VS_FIRST] = "speedup_vs_serial";
  for (int i = 0; i < nrows; ++i) {
    const struct ladder_row *lr = &rows[i];
    struct row *r = table_add(t);
    set_text(r, LC_ROW, "%s", lr->id);
    set_text(r, LC_KERNEL, "%s", lr->kernel);
    set_text(r, LC_LAUNCHES, "%s", lr->launches);
    set_num(r, LC_MB, (double)lr->bytes / 1e6);
    set_num(r, LC_BYTES, (double)lr->bytes);
    set_num(r, LC_MS, lr->ms);
    set_num(r, LC_GBS, gbps(lr->bytes, lr->ms));
    if (run->limit_gbs > 0) set_num(r, LC_LIMIT, 100.0 * gbps(lr->bytes, lr->ms) / run->limit_gbs);
    set_num(r, LC_VS_FIRST, first->ms / lr->ms);
    if (lr->rung && prev) {
      set_num(r, LC_STEP, prev->ms / lr->ms);
      if (prev->ms / lr->ms > step_best)
        step_best = prev->ms / lr->ms, step_from = prev, step_to = lr;
    }
    if (lr->rung) prev = lr;
    set_text(r, LC_CHECK, "%s", !lr->checked ? "-" : lr->wrong ? "WRONG" : "ok");
  }
  if (step_to)
    add_summary(run, "largest step: %s -> %s, %.2fx", step_from->id, step_to->id, step_best);
}

static void ladder_verdict(struct run *run, const struct ladder_row *rows, int nrows) {
  const struct options *o = run->opt;
  int checked = 0, inexact = 0;
  char wrong[128] = "";
  for (int i = 0; i < nrows; ++i) {
    checked += rows[i].checked;
    inexact |= rows[i].checked && !rows[i].exact;
    if (rows[i].wrong && strlen(wrong) + strlen(rows[i].id) + 2 < sizeof wrong)
      strcat(strcat(wrong, " "), rows[i].id);
  }
  if (!o->check)
    add_summary(run, "check: not done (--no-check)");
  else if (run->wrong)
    add_summary(run, "check: WRONG:%s (%d of %d results right; details on stderr)", wrong,
                checked - run->wrong, checked);
  else
    add_summary(run, "check: all %d results right (%zu ones sum to n = %zu, %s)", checked, o->n,
                o->n, inexact ? "within float rounding past 2^24" : "exact");
}

static void ladder_notes(struct run *run, const struct input *in) {
  const struct options *o = run->opt;
  const double bytes = (double)in->n * sizeof(float);
  char nd[64], bd[32], ld[32];
  describe_n(in->n, nd, sizeof nd);
  describe_bytes(bytes, bd, sizeof bd);
  if (!run->cuda) {
    add_head(run, "input: %s ones, %s", nd, bd);
    add_note(run, "time: median of %d runs after %d warm-ups, clock_gettime(CLOCK_MONOTONIC)",
             o->repeat, WARMUP_CALLS);
    add_note(run, "rows v1..v6, cub and probe need CUDA; the host backend runs gpureduce and a "
                  "serial loop for comparison");
    return;
  }
  const double l2 = (double)run->dev.l2_bytes;
  add_head(run, "input: %s ones, %s: %sL2-resident (L2 %s)%s", nd, bd, bytes <= l2 ? "" : "not ",
           describe_bytes(l2, ld, sizeof ld),
           bytes > l2 && bytes < 4 * l2 ? "; under 4x L2, part may stay in L2 between runs" : "");
  add_note(run, "time: median of %d runs of one whole reduction after %d warm-ups, CUDA events",
           o->repeat, WARMUP_CALLS);
  add_note(run,
           "bytes: v1-v4 every pass (n, then the partials), v5/v6 n plus the partials, "
           "gpureduce n x element size (its roots not counted), cub and probe n x element size");
  add_note(run, "probe: fastest grid of SMs x {1,2,4,8,16} blocks of %d", BENCH_BLOCK);
  if (!bench_cub_built()) add_note(run, "cub: not built (configure found no CUB)");
}

/* The table, the verdict and the notes, printed; the buffers freed. */
static int ladder_report(struct ladder_ctx *lc, const struct ladder_row *rows, int nrows) {
  struct run *run = lc->run;
  struct table t;
  ladder_notes(run, &lc->in);
  ladder_table(run, rows, nrows, &t);
  ladder_verdict(run, rows, nrows);
  print_report(run, &t);
  backend_free(run->cuda, lc->out);
  input_free(&lc->in);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}

static int run_ladder_cuda(struct run *run) {
  const struct options *o = run->opt;
  describe_blocks(run, o->n);
  const struct timing tm = {WARMUP_CALLS, o->repeat, 1};
  struct ladder_row rows[9]; /* v1..v6, gpureduce, cub, probe */
  int nrows = 0;
  struct bench_probe *probe = bench_probe_create();
  memset(rows, 0, sizeof rows);
  measure_limit(run, &tm, probe);
  struct ladder_ctx lc = {run, input_alloc(1, GPUREDUCE_F32, o->n, o->offset, "input"),
                          backend_alloc(1, RESULT_MAX, "output"), &tm};
  fill_ones(&lc.in, GPUREDUCE_F32);
  ladder_rungs(&lc, rows, &nrows);
  ladder_library(&lc, &rows[nrows++]);
  if (bench_cub_built()) ladder_cub(&lc, &rows[nrows++]);
  ladder_probe(&lc, probe, &rows[nrows++]);
  progress(" ");
  const int status = ladder_report(&lc, rows, nrows);
  bench_probe_destroy(probe);
  return status;
}

static void ladder_serial(struct ladder_ctx *lc, struct ladder_row *row) {
  struct serial_call call = {lc->in.x, lc->in.n, 0.0};
  row->id = "serial";
  snprintf(row->kernel, sizeof row->kernel, "for (i...) s += x[i], in double");
  snprintf(row->launches, sizeof row->launches, "-");
  row->bytes = (uint64_t)lc->in.n * sizeof(float);
  row->ms = median_ms(&lc->run->ck, lc->tm, run_serial, &call);
  if (!lc->run->opt->check) return;
  const double want = (double)lc->in.n;
  row->checked = row->exact = 1;
  if (call.sum != want) {
    struct verdict v = {1, 1, ""};
    snprintf(v.detail, sizeof v.detail, "result %.17g, expected %.17g", call.sum, want);
    row->wrong = 1;
    report_wrong(lc->run, row->id, lc->in.n, &v);
  }
}

static int run_ladder_host(struct run *run) {
  const struct options *o = run->opt;
  const struct timing tm = {WARMUP_CALLS, o->repeat, 1};
  struct ladder_row rows[2]; /* serial, gpureduce */
  memset(rows, 0, sizeof rows);
  struct ladder_ctx lc = {run, input_alloc(0, GPUREDUCE_F32, o->n, o->offset, "input"),
                          backend_alloc(0, RESULT_MAX, "output"), &tm};
  fill_ones(&lc.in, GPUREDUCE_F32);
  ladder_serial(&lc, &rows[0]);
  ladder_library(&lc, &rows[1]);
  progress(" ");
  return ladder_report(&lc, rows, 2);
}

int run_ladder(struct run *run) { return run->cuda ? run_ladder_cuda(run) : run_ladder_host(run); }
