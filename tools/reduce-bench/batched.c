/*
 * batched.c - reduce-bench --batch and --sweep-batched (see batched.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * A shape is `batch` vectors of n elements: the rows of a batch x n
 * row-major matrix with leading dimension ld (batch_stride ld,
 * element_stride 1), or the columns of an n x batch one (batch_stride 1,
 * element_stride ld).  Each shape is timed three ways on the same input
 * in one process: gpureduce_reduce_batched, CUB's DeviceSegmentedReduce
 * and the read-only probe over the matrix's bytes; then the results of
 * the batched call are checked bit for bit against gpureduce_reduce of
 * each vector alone, and CUB's against the same within a tolerance.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "batched.h"
#include "bench.h"
#include "bench_cub.h"
#include "bench_cuda.h"
#include "checks.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "timing.h"

#define BATCHED_BATCH 20          /* calls per timed batch, as --sweep */
#define MAX_BATCH_MS 50.0         /* fewer calls per batch beyond this */
#define WRONG_LINES 10            /* mismatches printed per shape and implementation */
#define SWEEP_ELEMENTS_CUDA ((size_t)1 << 28)
#define SWEEP_ELEMENTS_HOST ((size_t)1 << 24)
#define MAX_SHAPES 40

/* The row lengths of --sweep-batched (below its element count; then one
 * row of all of them). */
static const size_t sweep_lengths[] = {
    1, 2, 4, 8, 32, 128, 512, 4096, 65536, (size_t)1 << 20, (size_t)1 << 24};

static const char *const layout_names[LAYOUT_COUNT] = {"rows", "columns", "misaligned"};

struct shape {
  enum layout layout; /* LAYOUT_MISALIGNED: rows, ld = n + 1 */
  size_t n, batch, ld;
};

static int shape_columns(const struct shape *s) { return s->layout == LAYOUT_COLUMNS; }

/* The matrix's elements from its first to its last. */
static size_t shape_span(const struct shape *s) {
  return shape_columns(s) ? (s->n - 1) * s->ld + s->batch : (s->batch - 1) * s->ld + s->n;
}

static const char *shape_text(const struct shape *s, char *buf, size_t size) {
  snprintf(buf, size, "%s, n = %zu, batch = %zu, ld = %zu", layout_names[s->layout], s->n,
           s->batch, s->ld);
  return buf;
}

/* ---- the batched call --------------------------------------------------------- */

struct batched_call {
  const void *in;
  void *out;
  struct shape s;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  gpureduce_handle_t h;
};

static gpureduce_status_t call_batched(const struct batched_call *c) {
  const int64_t ld = (int64_t)c->s.ld;
  return shape_columns(&c->s)
             ? gpureduce_reduce_batched(c->in, c->out, c->s.batch, c->s.n, 1, ld, c->type, c->op,
                                        c->flags, c->h)
             : gpureduce_reduce_batched(c->in, c->out, c->s.batch, c->s.n, ld, 1, c->type, c->op,
                                        c->flags, c->h);
}

/* A call_fn: the first call of a shape succeeded, so a failure now is fatal. */
static void run_batched_call(void *arg) {
  const struct batched_call *c = arg;
  const gpureduce_status_t s = call_batched(c);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_reduce_batched");
}

struct cub_seg_call {
  struct bench_cub_seg *cub;
  struct bench_matrix m;
};

static void run_cub_seg(void *arg) {
  struct cub_seg_call *c = arg;
  bench_cub_seg_run(c->cub, &c->m);
}

/* ---- everything one run keeps for all shapes ------------------------------------ */

struct batched_ctx {
  struct run *run;
  struct timing tm;
  size_t es, rs;   /* element and result bytes */
  struct input in; /* the largest matrix, random */
  void *out;       /* gpureduce's results, the largest batch */
  struct bench_cub_seg *cub;
  struct bench_probe *probe;
  /* the checks */
  void *ref_out;   /* backend memory: gpureduce_reduce of each checked vector */
  void *scratch;   /* backend memory: one column, contiguous */
  size_t *rows;    /* the checked vectors, ascending */
  unsigned char *want, *got, *cub_got; /* host: a result per checked vector */
  int cub_notes;   /* distinct reasons CUB did not run, noted */
  char cub_why[4][160];
};

struct batched_point {
  struct shape s;
  gpureduce_status_t gr_status;
  double gr_ms, cub_ms, probe_ms; /* 0: not run */
  unsigned probe_grid;
  int gr_calls, cub_calls;        /* calls per timed batch */
  char check[64];
};

/* ---- the checks ------------------------------------------------------------------ */

/* Vector b as one contiguous array of n elements: a row where it is,
 * a column copied to the scratch buffer (CUDA: enqueued). */
static const void *vector_alone(struct batched_ctx *bc, const struct shape *s, size_t b) {
  const unsigned char *x = bc->in.x;
  if (!shape_columns(s)) return x + b * s->ld * bc->es;
  const unsigned char *first = x + b * bc->es;
  if (bc->run->cuda) {
    bench_cuda_copy_strided_async(bc->scratch, first, bc->es, s->ld * bc->es, s->n);
  } else {
    for (size_t i = 0; i < s->n; ++i)
      memcpy((unsigned char *)bc->scratch + i * bc->es, first + i * s->ld * bc->es, bc->es);
  }
  return bc->scratch;
}

/* gpureduce_reduce of each checked vector alone, into bc->want; with
 * --with-value the plain arg op's, then its index with the element there
 * (value_result_from_plain). */
static void reference_results(struct batched_ctx *bc, const struct shape *s, size_t count) {
  const struct options *o = bc->run->opt;
  const int cuda = bc->run->cuda;
  const unsigned flags = o->flags & ~GPUREDUCE_WITH_VALUE;
  poison_buffer(cuda, bc->ref_out, count * bc->rs);
  for (size_t k = 0; k < count; ++k) {
    const void *v = vector_alone(bc, s, bc->rows[k]);
    const gpureduce_status_t st =
        gpureduce_reduce(v, (unsigned char *)bc->ref_out + k * bc->rs, s->n, o->type, o->op,
                         flags, bc->run->h);
    if (st != GPUREDUCE_SUCCESS)
      library_failed(bc->run->h, st, "gpureduce_reduce (one vector alone, for the checks)");
  }
  if (cuda)
    bench_cuda_copy_to_host(bc->want, bc->ref_out, count * bc->rs);
  else
    memcpy(bc->want, bc->ref_out, count * bc->rs);
  if (!is_with_value(o)) return;
  /* vector b's first element and the bytes between its elements */
  const unsigned char *x = bc->in.x;
  const size_t stride = shape_columns(s) ? s->ld * bc->es : bc->es;
  for (size_t k = 0; k < count; ++k) {
    const size_t b = bc->rows[k];
    const void *first = x + (shape_columns(s) ? b : b * s->ld) * bc->es;
    value_result_from_plain(cuda, o->type, o->op, first, s->n, stride, bc->want + k * bc->rs);
  }
}

/* Compare got[k] with want[k] for every checked vector; the first
 * WRONG_LINES mismatches on stderr.  exact: bit for bit (gpureduce),
 * else check_close (CUB).  Returns the count of mismatches. */
static size_t compare_results(struct batched_ctx *bc, const struct shape *s, size_t count,
                              const unsigned char *got, int exact, const char *who) {
  const struct options *o = bc->run->opt;
  size_t wrong = 0;
  char st[96];
  for (size_t k = 0; k < count; ++k) {
    const void *g = got + k * bc->rs, *w = bc->want + k * bc->rs;
    const struct verdict v =
        exact ? check_same(o->type, o->op, o->flags, g, w, "gpureduce_reduce of that vector alone")
              : check_close(o->type, o->op, o->flags, s->n, g, w,
                            "gpureduce_reduce of that vector alone, within CUB's tolerance");
    if (!v.wrong) continue;
    if (++wrong <= WRONG_LINES)
      fprintf(stderr, PROGRAM ": WRONG: %s, %s: vector %zu: %s\n", who,
              shape_text(s, st, sizeof st), bc->rows[k], v.detail);
  }
  if (wrong > WRONG_LINES)
    fprintf(stderr, PROGRAM ": WRONG: %s, %s: %zu of %zu checked vectors differ\n", who,
            shape_text(s, st, sizeof st), wrong, count);
  return wrong;
}

static void batched_check(struct batched_ctx *bc, struct batched_point *p,
                          const struct batched_call *call, const struct cub_seg_call *cc) {
  const struct shape *s = &p->s;
  const int cuda = bc->run->cuda;
  const size_t count = pick_checked(s->batch, bc->rows);
  size_t gr_wrong = 0, cub_wrong = 0;
  progress(" %s n=%zu: checking %zu vectors ...", layout_names[s->layout], s->n, count);
  reference_results(bc, s, count);
  if (p->gr_status == GPUREDUCE_SUCCESS) {
    poison_buffer(cuda, bc->out, s->batch * bc->rs);
    run_batched_call((void *)call);
    copy_picked(cuda, bc->got, bc->out, bc->rs, bc->rows, count);
    gr_wrong = compare_results(bc, s, count, bc->got, 1, "gpureduce_reduce_batched");
  }
  if (p->cub_ms > 0) {
    bench_cub_seg_results(cc->cub, &cc->m, bc->rows, count, bc->cub_got);
    cub_wrong = compare_results(bc, s, count, bc->cub_got, 0, "cub");
  }
  bc->run->wrong += (gr_wrong > 0) + (cub_wrong > 0);
  if (p->gr_status != GPUREDUCE_SUCCESS) {
    const char *name = gpureduce_status_name(p->gr_status);
    append_check(p->check, sizeof p->check, "FAILED:%s", name ? name : "unknown status");
  } else if (gr_wrong) {
    append_check(p->check, sizeof p->check, "WRONG:%zu/%zu", gr_wrong, count);
  }
  if (cub_wrong) append_check(p->check, sizeof p->check, "%scub:%zu/%zu", p->check[0] ? "," : "WRONG:", cub_wrong, count);
  if (!p->check[0] && count < s->batch) append_check(p->check, sizeof p->check, "ok (%zu)", count);
  if (!p->check[0]) append_check(p->check, sizeof p->check, "ok");
}

/* ---- one shape ------------------------------------------------------------------- */

/* CUB does not run this shape: the reason, noted once. */
static void note_cub_skip(struct batched_ctx *bc, const char *why) {
  for (int i = 0; i < bc->cub_notes; ++i)
    if (strcmp(bc->cub_why[i], why) == 0) return;
  if (bc->cub_notes == (int)(sizeof bc->cub_why / sizeof bc->cub_why[0])) return;
  snprintf(bc->cub_why[bc->cub_notes++], sizeof bc->cub_why[0], "%s", why);
}

static void batched_point(struct batched_ctx *bc, const struct shape *s, struct batched_point *p) {
  struct run *run = bc->run;
  const struct options *o = run->opt;
  const struct clock_src *ck = &run->ck;
  struct batched_call call = {bc->in.x, bc->out, *s, o->type, o->op, o->flags, run->h};
  struct cub_seg_call cc = {bc->cub, {bc->in.x, shape_columns(s), s->batch, s->n, s->ld}};
  char st[96];
  memset(p, 0, sizeof *p);
  p->s = *s;
  progress(" %s n=%zu batch=%zu ...", layout_names[s->layout], s->n, s->batch);
  /* gpureduce: a failing status is reported, and the other columns still run */
  p->gr_status = call_batched(&call);
  if (p->gr_status == GPUREDUCE_SUCCESS) {
    char what[160];
    /* a kernel that faults says so here, with the shape, not in a timer */
    snprintf(what, sizeof what, "gpureduce_reduce_batched (%s)", shape_text(s, st, sizeof st));
    if (run->cuda) bench_cuda_sync(what);
    p->gr_ms = median_ms_capped(ck, &bc->tm, MAX_BATCH_MS, run_batched_call, &call, &p->gr_calls);
  } else {
    const char *msg = gpureduce_last_message(run->h);
    const char *name = gpureduce_status_name(p->gr_status);
    ++run->wrong;
    fprintf(stderr, PROGRAM ": gpureduce_reduce_batched failed (%s): %s (%s)%s%s\n",
            shape_text(s, st, sizeof st), name ? name : "unknown status",
            gpureduce_status_string(p->gr_status), *msg ? ": " : "", msg);
  }
  if (bc->cub) {
    char why[160];
    if (bench_cub_seg_supports(bc->cub, &cc.m, why, sizeof why)) {
      char what[160];
      snprintf(what, sizeof what, "%s (%s)", bench_cub_seg_name(bc->cub),
               shape_text(s, st, sizeof st));
      bench_cub_seg_prepare(bc->cub, &cc.m);
      run_cub_seg(&cc);
      bench_cuda_sync(what);
      p->cub_ms = median_ms_capped(ck, &bc->tm, MAX_BATCH_MS, run_cub_seg, &cc, &p->cub_calls);
    } else {
      note_cub_skip(bc, why);
    }
  }
  if (bc->probe) {
    const struct probe_best best = time_probe(ck, &bc->tm, bc->probe, bc->in.x,
                                              shape_span(s) * bc->es, run->dev.sm_count);
    p->probe_ms = best.ms;
    p->probe_grid = best.grid;
  }
  if (o->check)
    batched_check(bc, p, &call, &cc);
  else
    snprintf(p->check, sizeof p->check, "%s",
             p->gr_status == GPUREDUCE_SUCCESS ? "-" : "FAILED");
}

/* ---- the table ------------------------------------------------------------------- */

enum {
  BC_LAYOUT,
  BC_N_LABEL,
  BC_N,
  BC_BATCH_LABEL,
  BC_BATCH,
  BC_LD,
  BC_MB,
  BC_BYTES,
  BC_PROBE_BYTES,
  BC_L2_TEXT,
  BC_L2,
  BC_GR_US,
  BC_GR_GBS,
  BC_CUB_US,
  BC_CUB_GBS,
  BC_PROBE_US,
  BC_PROBE_GBS,
  BC_PROBE_GRID,
  BC_GR_VS_PROBE,
  BC_GR_VS_CUB,
  BC_CHECK,
  BC_OP,
  BC_TYPE,
  BC_F64,
  BC_WITH_VALUE,
  BC_COUNT
};

static const struct column batched_columns[BC_COUNT] = {
    [BC_LAYOUT] = {"layout", "layout", 0, SHOW_ALL, 1},
    [BC_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 0},
    [BC_N] = {"n", "n", 0, SHOW_DATA, 0},
    [BC_BATCH_LABEL] = {"batch_label", "batch", 0, SHOW_TEXT, 0},
    [BC_BATCH] = {"batch", "batch", 0, SHOW_DATA, 0},
    [BC_LD] = {"ld", "ld", 0, SHOW_ALL, 0},
    [BC_MB] = {"mb", "MB", 1, SHOW_TEXT, 0},
    [BC_BYTES] = {"bytes", "bytes", 0, SHOW_DATA, 0},
    [BC_PROBE_BYTES] = {"probe_bytes", "probe bytes", 0, SHOW_DATA, 0},
    [BC_L2_TEXT] = {"in_l2", "in L2", 0, SHOW_TEXT, 0},
    [BC_L2] = {"l2_resident", "in L2", 0, SHOW_DATA, 0},
    [BC_GR_US] = {"gpureduce_us", "gr us", 2, SHOW_ALL, 0},
    [BC_GR_GBS] = {"gpureduce_gbs", "gr GB/s", 1, SHOW_ALL, 0},
    [BC_CUB_US] = {"cub_us", "cub us", 2, SHOW_ALL, 0},
    [BC_CUB_GBS] = {"cub_gbs", "cub GB/s", 1, SHOW_ALL, 0},
    [BC_PROBE_US] = {"probe_us", "probe us", 2, SHOW_ALL, 0},
    [BC_PROBE_GBS] = {"probe_gbs", "probe GB/s", 1, SHOW_ALL, 0},
    [BC_PROBE_GRID] = {"probe_blocks", "probe grid", 0, SHOW_ALL, 0},
    [BC_GR_VS_PROBE] = {"gpureduce_vs_probe", "gr/probe", 2, SHOW_ALL, 0},
    [BC_GR_VS_CUB] = {"gpureduce_vs_cub", "gr/cub", 2, SHOW_ALL, 0},
    [BC_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
    [BC_OP] = {"op", "op", 0, SHOW_DATA, 0},
    [BC_TYPE] = {"type", "type", 0, SHOW_DATA, 0},
    [BC_F64] = {"f64_accumulate", "f64 acc", 0, SHOW_DATA, 0},
    [BC_WITH_VALUE] = {"with_value", "with value", 0, SHOW_DATA, 0},
};

static void batched_row(const struct batched_ctx *bc, const struct batched_point *p,
                        struct table *t) {
  const struct run *run = bc->run;
  const struct options *o = run->opt;
  const struct shape *s = &p->s;
  /* GB/s: input plus output; the probe: the bytes it reads */
  const double bytes = (double)s->batch * s->n * bc->es + (double)s->batch * bc->rs;
  const double probe_bytes = (double)shape_span(s) * bc->es;
  const double gr_gbs = gbps((uint64_t)bytes, p->gr_ms);
  struct row *r = table_add(t);
  char label[32];
  set_text(r, BC_LAYOUT, "%s", layout_names[s->layout]);
  set_text(r, BC_N_LABEL, "%s", label_n(s->n, label, sizeof label));
  set_num(r, BC_N, (double)s->n);
  set_text(r, BC_BATCH_LABEL, "%s", label_n(s->batch, label, sizeof label));
  set_num(r, BC_BATCH, (double)s->batch);
  set_num(r, BC_LD, (double)s->ld);
  set_num(r, BC_MB, bytes / 1e6);
  set_num(r, BC_BYTES, bytes);
  set_num(r, BC_PROBE_BYTES, probe_bytes);
  if (run->cuda) {
    const int l2 = bytes <= (double)run->dev.l2_bytes;
    set_text(r, BC_L2_TEXT, "%s", l2 ? "yes" : "no");
    set_num(r, BC_L2, l2);
  }
  if (p->gr_ms > 0) {
    set_num(r, BC_GR_US, 1e3 * p->gr_ms);
    set_num(r, BC_GR_GBS, gr_gbs);
  }
  if (p->cub_ms > 0) {
    set_num(r, BC_CUB_US, 1e3 * p->cub_ms);
    set_num(r, BC_CUB_GBS, gbps((uint64_t)bytes, p->cub_ms));
    if (p->gr_ms > 0) set_num(r, BC_GR_VS_CUB, p->cub_ms / p->gr_ms);
  } else if (bc->cub) {
    set_text(r, BC_CUB_US, "n/a");
  }
  if (p->probe_ms > 0) {
    const double probe_gbs = gbps((uint64_t)probe_bytes, p->probe_ms);
    set_num(r, BC_PROBE_US, 1e3 * p->probe_ms);
    set_num(r, BC_PROBE_GBS, probe_gbs);
    set_num(r, BC_PROBE_GRID, p->probe_grid);
    if (p->gr_ms > 0) set_num(r, BC_GR_VS_PROBE, gr_gbs / probe_gbs);
  }
  set_text(r, BC_CHECK, "%s", p->check);
  set_text(r, BC_OP, "%s", gpureduce_op_name(o->op));
  set_text(r, BC_TYPE, "%s", gpureduce_type_name(o->type));
  set_num(r, BC_F64, o->flags & GPUREDUCE_ACCUMULATE_F64 ? 1 : 0);
  set_num(r, BC_WITH_VALUE, is_with_value(o));
}

static void batched_notes(struct batched_ctx *bc, int slow_batches) {
  struct run *run = bc->run;
  const struct options *o = run->opt;
  add_note(run,
           "time: median of %d batches of %d back-to-back calls (fewer, at least 1, where %d "
           "take over %.0f ms%s) after %d warm-ups, %s",
           o->repeat, BATCHED_BATCH, BATCHED_BATCH, MAX_BATCH_MS,
           slow_batches ? ": some did" : ": none did", WARMUP_CALLS,
           run->cuda ? "CUDA events" : "CLOCK_MONOTONIC");
  add_note(run,
           "GB/s: (batch x n x %zu + batch x %zu result bytes) / time; probe GB/s: the matrix's "
           "bytes from its first element to its last, padding included, / time",
           bc->es, bc->rs);
  if (run->cuda) {
    add_note(run,
             "gr/probe = gr GB/s / probe GB/s; gr/cub = cub time / gr time (> 1: gpureduce "
             "faster); probe: read-only, fastest grid of SMs x {1,2,4,8,16} blocks of %d",
             BENCH_BLOCK);
    if (bc->cub)
      add_note(run,
               "cub: %s, segment b from offset iterators (begin b x ld, end b x ld + n); "
               "columns, which CUB has no strides for, through a permutation iterator",
               bench_cub_seg_name(bc->cub));
    else
      add_note(run, "cub: not built (configure found no CUB)");
    for (int i = 0; i < bc->cub_notes; ++i) add_note(run, "cub %s", bc->cub_why[i]);
  } else {
    add_note(run, "host backend: no CUB and no probe");
  }
  add_note(run, "input: random values made %s by a hash of (seed, index), one buffer reused",
           run->cuda ? "on the device" : "on the host");
  if (!o->check) return;
  add_note(run,
           "check: each result bit for bit = gpureduce_reduce of that vector alone (a column "
           "copied to a contiguous buffer first); cub within 1e-3 for float sums and prod, "
           "exactly otherwise");
  note_value_check(run, "that vector alone", bc->cub != NULL);
  add_note(run,
           "checked: every vector when batch <= %d, else %d (\"ok (%d)\"): the first %d, the "
           "last %d and %d spread evenly between",
           CHECK_ALL_MAX, 2 * SAMPLE_EDGE + SAMPLE_SPREAD, 2 * SAMPLE_EDGE + SAMPLE_SPREAD,
           SAMPLE_EDGE, SAMPLE_EDGE, SAMPLE_SPREAD);
}

/* ---- the shapes ------------------------------------------------------------------ */

/* The shape of --batch, --n, --columns, --stride. */
static int option_shape(const struct options *o, struct shape *s) {
  s->layout = o->columns ? LAYOUT_COLUMNS : LAYOUT_ROWS;
  s->n = o->n;
  s->batch = o->batch;
  s->ld = o->stride ? o->stride : o->columns ? o->batch : o->n;
  return 1;
}

/* The shapes of --sweep-batched: total elements as rows of each length,
 * as columns, as misaligned rows (ld = n + 1, n >= 2), as --layouts says. */
static int sweep_shapes(size_t total, unsigned layouts, struct shape *shapes) {
  size_t lengths[sizeof sweep_lengths / sizeof sweep_lengths[0] + 1];
  int nl = 0, count = 0;
  for (size_t i = 0; i < sizeof sweep_lengths / sizeof sweep_lengths[0]; ++i)
    if (sweep_lengths[i] < total) lengths[nl++] = sweep_lengths[i];
  lengths[nl++] = total;
  for (int l = 0; l < LAYOUT_COUNT; ++l) {
    if (!(layouts & (1u << l))) continue;
    for (int i = 0; i < nl; ++i) {
      struct shape s = {(enum layout)l, lengths[i], total / lengths[i], 0};
      if (l == LAYOUT_MISALIGNED && s.n < 2) continue;
      s.ld = l == LAYOUT_ROWS ? s.n : l == LAYOUT_COLUMNS ? s.batch : s.n + 1;
      if (count < MAX_SHAPES) shapes[count++] = s;
    }
  }
  return count;
}

/* ---- the run --------------------------------------------------------------------- */

static void batched_open(struct batched_ctx *bc, const struct shape *shapes, int count) {
  struct run *run = bc->run;
  const struct options *o = run->opt;
  const int cuda = run->cuda;
  size_t span = 1, batch = 1, column = 1, checked = 1;
  for (int i = 0; i < count; ++i) {
    const size_t sp = shape_span(&shapes[i]);
    if (sp > span) span = sp;
    if (shapes[i].batch > batch) batch = shapes[i].batch;
    if (shape_columns(&shapes[i]) && shapes[i].n > column) column = shapes[i].n;
  }
  checked = batch < SAMPLE_MAX ? batch : SAMPLE_MAX;
  bc->tm = (struct timing){WARMUP_CALLS, o->repeat, BATCHED_BATCH};
  bc->es = gpureduce_type_size(o->type);
  bc->rs = gpureduce_result_size(o->type, o->op, o->flags);
  if (cuda) {
    /* Fail early and clearly rather than at the third cudaMalloc. */
    const double need = ((double)span + o->offset) * bc->es + (double)batch * (bc->rs + 16) +
                        (o->check ? (double)column * bc->es : 0.0);
    if (need > 0.9 * (double)run->dev.free_bytes)
      fatal(EXIT_WRONG,
            "the %s needs about %.1f GB of device memory, %.1f GB are free: use a smaller "
            "%s",
            o->batch ? "matrix" : "sweep", need / 1e9, (double)run->dev.free_bytes / 1e9,
            o->batch ? "--batch or --n" : "--sweep-elements");
  }
  bc->in = input_alloc(cuda, o->type, span, o->offset, "batched input");
  fill_random(&bc->in, o->type);
  bc->out = cuda ? bench_cuda_alloc(batch * bc->rs, "batched outputs")
                 : xmalloc_aligned(batch * bc->rs);
  if (cuda) {
    bc->cub = bench_cub_seg_create(o->type, o->op, o->flags, batch);
    bc->probe = bench_probe_create();
  }
  if (!o->check) return;
  bc->ref_out = cuda ? bench_cuda_alloc(checked * bc->rs, "the checks' results")
                     : xmalloc_aligned(checked * bc->rs);
  bc->scratch = cuda ? bench_cuda_alloc(column * bc->es, "a column for the checks")
                     : xmalloc_aligned(column * bc->es);
  bc->rows = xmalloc(SAMPLE_MAX * sizeof *bc->rows);
  bc->want = xmalloc(checked * bc->rs);
  bc->got = xmalloc(checked * bc->rs);
  bc->cub_got = xmalloc(checked * bc->rs);
}

static void batched_close(struct batched_ctx *bc) {
  const int cuda = bc->run->cuda;
  input_free(&bc->in);
  output_free(cuda, bc->out);
  bench_cub_seg_destroy(bc->cub);
  bench_probe_destroy(bc->probe);
  if (bc->ref_out) output_free(cuda, bc->ref_out);
  if (bc->scratch) output_free(cuda, bc->scratch);
  free(bc->rows);
  free(bc->want);
  free(bc->got);
  free(bc->cub_got);
}

static void batched_head(struct run *run, const struct shape *shapes, int count, size_t total) {
  const struct options *o = run->opt;
  char st[96];
  if (o->batch) {
    add_head(run, "batched: %s (batch_stride %s, element_stride %s)",
             shape_text(&shapes[0], st, sizeof st), o->columns ? "1" : "ld",
             o->columns ? "ld" : "1");
    return;
  }
  char layouts[64] = "";
  for (int l = 0; l < LAYOUT_COUNT; ++l)
    if (o->layouts & (1u << l))
      strcat(strcat(layouts, layouts[0] ? ", " : ""), layout_names[l]);
  char nl[32];
  add_head(run, "sweep-batched: %s elements (%zu shapes): %s", label_n(total, nl, sizeof nl),
           (size_t)count, layouts);
  add_head(run, "layouts: rows (ld = n), columns of an n x batch matrix (ld = batch), "
                "misaligned rows (ld = n + 1)");
}

int run_batched(struct run *run) {
  const struct options *o = run->opt;
  struct shape shapes[MAX_SHAPES];
  struct batched_ctx bc;
  struct table t;
  int count = 0, failed = 0, slow = 0;
  size_t total = 0;
  run->mode = o->batch ? "batched" : "sweep-batched";
  if (o->batch) {
    count = option_shape(o, &shapes[0]);
  } else {
    total = o->sweep_elements ? o->sweep_elements
                              : run->cuda ? SWEEP_ELEMENTS_CUDA : SWEEP_ELEMENTS_HOST;
    count = sweep_shapes(total, o->layouts, shapes);
  }
  memset(&bc, 0, sizeof bc);
  bc.run = run;
  batched_head(run, shapes, count, total);
  batched_open(&bc, shapes, count);
  table_init(&t, batched_columns, BC_COUNT);
  t.enabled[BC_L2_TEXT] = t.enabled[BC_L2] = run->cuda;
  t.enabled[BC_PROBE_US] = t.enabled[BC_PROBE_GBS] = t.enabled[BC_PROBE_GRID] = run->cuda;
  t.enabled[BC_GR_VS_PROBE] = run->cuda;
  t.enabled[BC_CUB_US] = t.enabled[BC_CUB_GBS] = t.enabled[BC_GR_VS_CUB] = bc.cub != NULL;
  for (int i = 0; i < count; ++i) {
    struct batched_point p;
    batched_point(&bc, &shapes[i], &p);
    failed += p.gr_status != GPUREDUCE_SUCCESS;
    slow |= (p.gr_calls && p.gr_calls < BATCHED_BATCH) || (p.cub_calls && p.cub_calls < BATCHED_BATCH);
    batched_row(&bc, &p, &t);
  }
  progress(" ");
  if (failed)
    add_summary(run, "gpureduce_reduce_batched FAILED for %d of %d shapes (statuses on stderr)",
                failed, count);
  if (o->check)
    add_summary(run, "check: %s",
                run->wrong ? "WRONG or failed results (details on stderr)" : "all right");
  else
    add_summary(run, "check: not done (--no-check)");
  batched_notes(&bc, slow);
  print_report(run, &t);
  table_free(&t);
  batched_close(&bc);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}
