/*
 * vectors.c - the shapes of the batched and segmented modes: their
 * timing, their checks and their columns (see vectors.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cub.h"
#include "bench_cuda.h"
#include "checks.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "timing.h"
#include "vectors.h"

#define SAMPLE (2 * SAMPLE_EDGE + SAMPLE_SPREAD)
#define CHECKED_MAX ((CHECK_ALL_MAX > SAMPLE ? CHECK_ALL_MAX : SAMPLE) + 1) /* and the longest */
#define WRONG_LINES 10 /* mismatches printed per shape and implementation */

void vectors_open(struct vectors_ctx *c, struct run *run, size_t column) {
  const struct options *o = run->opt;
  memset(c, 0, sizeof *c);
  c->run = run;
  c->tm = batch_timing(o->repeat);
  c->es = gpureduce_type_size(o->type);
  c->rs = gpureduce_result_size(o->type, o->op, o->flags);
  if (run->cuda) c->probe = bench_probe_create();
  if (!o->check) return;
  c->ref_out = backend_alloc(run->cuda, CHECKED_MAX * c->rs, "the checks' results");
  c->scratch = backend_alloc(run->cuda, column * c->es, "a column for the checks");
  c->rows = xmalloc(CHECKED_MAX * sizeof *c->rows);
  c->want = xmalloc(CHECKED_MAX * c->rs);
  c->got = xmalloc(CHECKED_MAX * c->rs);
  c->cub_got = xmalloc(CHECKED_MAX * c->rs);
}

void vectors_close(struct vectors_ctx *c) {
  bench_probe_destroy(c->probe);
  if (!c->rows) return;
  backend_free(c->run->cuda, c->ref_out);
  backend_free(c->run->cuda, c->scratch);
  free(c->rows);
  free(c->want);
  free(c->got);
  free(c->cub_got);
}

/* ---- the vectors ------------------------------------------------------------------ */

static size_t vec_len(const struct vectors *v, size_t b) {
  return v->host_off ? (size_t)(v->host_off[b + 1] - v->host_off[b]) : v->s.n;
}

static const unsigned char *vec_first(const struct vectors *v, size_t b, size_t es) {
  const size_t at = v->host_off ? (size_t)v->host_off[b] : v->s.columns ? b : b * v->s.ld;
  return (const unsigned char *)v->s.x + at * es;
}

/* Vector b as one contiguous array: where it is, or a column copied to
 * the scratch buffer (CUDA: enqueued). */
static const void *vec_alone(struct vectors_ctx *c, const struct vectors *v, size_t b) {
  const unsigned char *first = vec_first(v, b, c->es);
  if (!v->s.columns) return first;
  if (c->run->cuda) {
    bench_cuda_copy_strided_async(c->scratch, first, c->es, v->s.ld * c->es, v->s.n);
  } else {
    for (size_t i = 0; i < v->s.n; ++i)
      memcpy((unsigned char *)c->scratch + i * c->es, first + i * v->s.ld * c->es, c->es);
  }
  return c->scratch;
}

/* ---- the calls ------------------------------------------------------------------- */

struct gr_call {
  const struct vectors_ctx *c;
  const struct vectors *v;
};

static gpureduce_status_t call_gr(const struct gr_call *g) {
  const struct options *o = g->c->run->opt;
  const struct bench_segments *s = &g->v->s;
  const int64_t ld = (int64_t)s->ld;
  if (s->offsets)
    return gpureduce_reduce_segments(s->x, g->c->out, s->offsets, s->count, o->type, o->op,
                                     o->flags, g->c->run->h);
  return gpureduce_reduce_batched(s->x, g->c->out, s->count, s->n, s->columns ? 1 : ld,
                                  s->columns ? ld : 1, o->type, o->op, o->flags, g->c->run->h);
}

static const char *gr_name(const struct vectors *v) {
  return v->s.offsets ? "gpureduce_reduce_segments" : "gpureduce_reduce_batched";
}

/* A call_fn: the first call of a shape succeeded, so a failure now is fatal. */
static void run_gr(void *arg) {
  const struct gr_call *g = arg;
  const gpureduce_status_t s = call_gr(g);
  if (s != GPUREDUCE_SUCCESS) library_failed(g->c->run->h, s, gr_name(g->v));
}

struct cub_call_seg {
  struct bench_cub_seg *cub;
  const struct bench_segments *s;
};

static void run_cub_seg(void *arg) {
  const struct cub_call_seg *cc = arg;
  bench_cub_seg_run(cc->cub, cc->s);
}

/* The vectors checked, ascending, into c->rows: all of them, or the
 * sample (vectors.h), and of segments the longest. */
static size_t pick_checked(struct vectors_ctx *c, const struct vectors *v) {
  size_t *rows = c->rows, count = 0;
  if (v->s.count <= CHECK_ALL_MAX) {
    for (size_t b = 0; b < v->s.count; ++b) rows[count++] = b;
    return count;
  }
  for (size_t k = 0; k < SAMPLE_EDGE; ++k) rows[count++] = k;
  for (uint64_t k = 0; k < SAMPLE_SPREAD; ++k)
    rows[count++] = SAMPLE_EDGE + (size_t)(k * (uint64_t)(v->s.count - 2 * SAMPLE_EDGE) / SAMPLE_SPREAD);
  for (size_t k = 0; k < SAMPLE_EDGE; ++k) rows[count++] = v->s.count - SAMPLE_EDGE + k;
  if (!v->host_off) return count;
  size_t at = 0;
  while (at < count && rows[at] < v->longest) ++at;
  if (at < count && rows[at] == v->longest) return count;
  memmove(rows + at + 1, rows + at, (count - at) * sizeof *rows);
  rows[at] = v->longest;
  return count + 1;
}

/* The results numbered c->rows[0 .. count-1] from src (backend memory) to
 * dst (host, packed), one copy per run of consecutive numbers. */
static void copy_picked(struct vectors_ctx *c, void *dst, const void *src, size_t count) {
  const size_t rs = c->rs;
  for (size_t k = 0; k < count;) {
    size_t len = 1;
    while (k + len < count && c->rows[k + len] == c->rows[k] + len) ++len;
    const unsigned char *from = (const unsigned char *)src + c->rows[k] * rs;
    unsigned char *to = (unsigned char *)dst + k * rs;
    if (c->run->cuda)
      bench_cuda_copy_to_host(to, from, len * rs);
    else
      memcpy(to, from, len * rs);
    k += len;
  }
}

/* ---- the checks ---------------------------------------------------------------- */

/* gpureduce_reduce of each checked vector alone, into c->want; an empty
 * segment's ARGMIN, ARGMAX or MEAN_VAR must be GPUREDUCE_ERROR_EMPTY_INPUT
 * there, and GPUREDUCE_NO_INDEX or {NaN, NaN} from the segmented call.
 * With --with-value: the plain arg op's, then its index with the element
 * there (value_result_from_plain; an empty segment's, the empty value). */
static void reference_results(struct vectors_ctx *c, const struct vectors *v, size_t count) {
  const struct options *o = c->run->opt;
  const int cuda = c->run->cuda;
  const int no_empty = op_is_arg(o->op) || o->op == GPUREDUCE_MEAN_VAR; /* no empty value */
  const unsigned flags = o->flags & ~GPUREDUCE_WITH_VALUE;
  unsigned char *ref = c->ref_out;
  poison_buffer(cuda, ref, count * c->rs);
  for (size_t k = 0; k < count; ++k) {
    const size_t len = vec_len(v, c->rows[k]);
    const gpureduce_status_t st = gpureduce_reduce(vec_alone(c, v, c->rows[k]), ref + k * c->rs,
                                                   len, o->type, o->op, flags, c->run->h);
    if (st == GPUREDUCE_ERROR_EMPTY_INPUT && no_empty && len == 0) continue;
    if (st != GPUREDUCE_SUCCESS)
      library_failed(c->run->h, st, "gpureduce_reduce (one vector alone, for the checks)");
  }
  if (cuda)
    bench_cuda_copy_to_host(c->want, ref, count * c->rs);
  else
    memcpy(c->want, ref, count * c->rs);
  if (!no_empty) return;
  const size_t stride = v->s.columns ? v->s.ld * c->es : c->es;
  for (size_t k = 0; k < count; ++k) {
    const size_t len = vec_len(v, c->rows[k]);
    unsigned char *want = c->want + k * c->rs;
    if (is_with_value(o)) {
      value_result_from_plain(cuda, o->type, o->op, vec_first(v, c->rows[k], c->es), len, stride,
                              want);
    } else if (len != 0) {
      continue;
    } else if (op_is_arg(o->op)) {
      const uint64_t none = GPUREDUCE_NO_INDEX;
      memcpy(want, &none, sizeof none);
    } else { /* {NaN, NaN}: canonical quiet NaNs of rs / 2 bytes */
      const uint64_t nan = c->rs == 8 ? 0x7fffffff7fffffffull : 0x7fffffffffffffffull;
      memcpy(want, &nan, 8);
      if (c->rs == 16) memcpy(want + 8, &nan, 8);
    }
  }
}

/* got[k] against want[k] for every checked vector; the first WRONG_LINES
 * mismatches on stderr.  exact: bit for bit (gpureduce), else check_close
 * with empty segments left out (CUB: its empty answers are not
 * gpureduce's).  Returns the count of mismatches. */
static size_t compare_results(struct vectors_ctx *c, const struct vectors *v, size_t count,
                              const unsigned char *got, int exact, const char *who) {
  const struct options *o = c->run->opt;
  const char *kind = v->host_off ? "segment" : "vector";
  size_t wrong = 0;
  char alone[64];
  snprintf(alone, sizeof alone, "gpureduce_reduce of that %s alone%s", kind,
           exact ? "" : ", within CUB's tolerance");
  for (size_t k = 0; k < count; ++k) {
    const size_t b = c->rows[k], len = vec_len(v, b);
    if (!exact && len == 0) continue;
    const void *g = got + k * c->rs, *w = c->want + k * c->rs;
    const struct verdict vd = exact ? check_same(o->type, o->op, o->flags, g, w, alone)
                                    : check_close(o->type, o->op, o->flags, len, g, w, alone);
    if (!vd.wrong || ++wrong > WRONG_LINES) continue;
    char where[96] = "";
    if (v->host_off)
      snprintf(where, sizeof where, " (offset %llu, length %zu)", (unsigned long long)v->host_off[b],
               len);
    message("WRONG: %s, %s: %s %zu%s: %s", who, v->what, kind, b, where, vd.detail);
  }
  if (wrong > WRONG_LINES)
    message("WRONG: %s, %s: %zu of %zu checked %ss differ", who, v->what, wrong, count, kind);
  return wrong;
}

/* gpureduce's and CUB's results against gpureduce_reduce of each vector
 * alone; the verdict in p->check. */
static void check_point(struct vectors_ctx *c, const struct vectors *v, struct vector_point *p,
                        const struct gr_call *g) {
  const int ok = p->status == GPUREDUCE_SUCCESS;
  const char *name = gpureduce_status_name(p->status);
  char *check = p->check;
  const size_t size = sizeof p->check;
  check[0] = '\0';
  if (!c->run->opt->check) {
    snprintf(check, size, "%s", ok ? "-" : "FAILED");
    return;
  }
  const size_t count = pick_checked(c, v);
  size_t gr_wrong = 0, cub_wrong = 0;
  progress(" %s: checking %zu of them ...", v->what, count);
  reference_results(c, v, count);
  if (ok) {
    poison_buffer(c->run->cuda, c->out, v->s.count * c->rs);
    run_gr((void *)g);
    copy_picked(c, c->got, c->out, count);
    gr_wrong = compare_results(c, v, count, c->got, 1, gr_name(v));
  }
  if (p->cub_ms > 0) {
    bench_cub_seg_results(c->cub, &v->s, c->rows, count, c->cub_got);
    cub_wrong = compare_results(c, v, count, c->cub_got, 0, "cub");
  }
  c->run->wrong += (gr_wrong > 0) + (cub_wrong > 0);
  if (!ok)
    append_text(check, size, "FAILED:%s", name ? name : "unknown status");
  else if (gr_wrong)
    append_text(check, size, "WRONG:%zu/%zu", gr_wrong, count);
  if (cub_wrong) append_text(check, size, "%scub:%zu/%zu", check[0] ? "," : "WRONG:", cub_wrong, count);
  if (!check[0] && count < v->s.count) append_text(check, size, "ok (%zu)", count);
  if (!check[0]) append_text(check, size, "ok");
}

void measure_vectors(struct vectors_ctx *c, const struct vectors *v, struct vector_point *p) {
  struct run *run = c->run;
  const struct clock_src *ck = &run->ck;
  const struct gr_call g = {c, v};
  struct cub_call_seg cc = {c->cub, &v->s};
  char what[200];
  int calls = BATCH_CALLS;
  memset(p, 0, sizeof *p);
  progress(" %s ...", v->what);
  /* gpureduce: a failing status is reported, and the other columns still run */
  p->status = call_gr(&g);
  if (p->status == GPUREDUCE_SUCCESS) {
    /* a kernel that faults says so here, with the shape, not in a timer */
    snprintf(what, sizeof what, "%s (%s)", gr_name(v), v->what);
    if (run->cuda) bench_cuda_sync(what);
    p->gr_ms = median_ms_capped(ck, &c->tm, MAX_BATCH_MS, run_gr, (void *)&g, &calls);
    c->slow |= calls < BATCH_CALLS;
  } else {
    report_failed(run, gr_name(v), v->what, p->status);
  }
  if (c->cub && bench_cub_seg_supports(c->cub, &v->s, what, sizeof what)) {
    bench_cub_seg_prepare(c->cub, &v->s);
    run_cub_seg(&cc);
    snprintf(what, sizeof what, "%s (%s)", bench_cub_seg_name(c->cub), v->what);
    bench_cuda_sync(what);
    p->cub_ms = median_ms_capped(ck, &c->tm, MAX_BATCH_MS, run_cub_seg, &cc, &calls);
    c->slow |= calls < BATCH_CALLS;
    c->cub_ran = 1;
  } else if (c->cub) {
    p->cub_na = 1;
    add_note(run, "cub %s", what);
  }
  if (c->probe) {
    /* the matrix from its first element to its last; segments: the input
     * and the offsets after it, to the last offset */
    const struct bench_segments *s = &v->s;
    p->probe_bytes = s->offsets ? (double)((const unsigned char *)(s->offsets + s->count + 1) -
                                           (const unsigned char *)s->x)
                     : s->columns ? (double)((s->n - 1) * s->ld + s->count) * c->es
                                  : (double)((s->count - 1) * s->ld + s->n) * c->es;
    const struct probe_best best =
        time_probe(ck, &c->tm, c->probe, s->x, (size_t)p->probe_bytes, run->dev.sm_count);
    p->probe_ms = best.ms;
    p->probe_grid = best.grid;
  }
  check_point(c, v, p, &g);
}

/* ---- the columns ------------------------------------------------------------------ */

static const struct column vector_columns[VC_COUNT] = {
    [VC_MB] = {"mb", "MB", 1, SHOW_TEXT, 0},
    [VC_BYTES] = {"bytes", "bytes", 0, SHOW_DATA, 0},
    [VC_PROBE_BYTES] = {"probe_bytes", "probe bytes", 0, SHOW_DATA, 0},
    [VC_L2_TEXT] = {"in_l2", "in L2", 0, SHOW_TEXT, 0},
    [VC_L2] = {"l2_resident", "in L2", 0, SHOW_DATA, 0},
    [VC_GR_US] = {"gpureduce_us", "gr us", 2, SHOW_ALL, 0},
    [VC_GR_GBS] = {"gpureduce_gbs", "gr GB/s", 1, SHOW_ALL, 0},
    [VC_CUB_US] = {"cub_us", "cub us", 2, SHOW_ALL, 0},
    [VC_CUB_GBS] = {"cub_gbs", "cub GB/s", 1, SHOW_ALL, 0},
    [VC_PROBE_US] = {"probe_us", "probe us", 2, SHOW_ALL, 0},
    [VC_PROBE_GBS] = {"probe_gbs", "probe GB/s", 1, SHOW_ALL, 0},
    [VC_PROBE_GRID] = {"probe_blocks", "probe grid", 0, SHOW_ALL, 0},
    [VC_GR_VS_PROBE] = {"gpureduce_vs_probe", "gr/probe", 2, SHOW_ALL, 0},
    [VC_GR_VS_CUB] = {"gpureduce_vs_cub", "gr/cub", 2, SHOW_ALL, 0},
    [VC_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
    [VC_OP] = {"op", "op", 0, SHOW_DATA, 0},
    [VC_TYPE] = {"type", "type", 0, SHOW_DATA, 0},
    [VC_F64] = {"f64_accumulate", "f64 acc", 0, SHOW_DATA, 0},
    [VC_WITH_VALUE] = {"with_value", "with value", 0, SHOW_DATA, 0},
};

void vectors_table(const struct vectors_ctx *c, struct table *t, const struct column *own,
                   int nown) {
  static struct column cols[MAX_COLUMNS];
  const int cuda = c->run->cuda, cub = cuda && bench_cub_built();
  memcpy(cols, own, (size_t)nown * sizeof *cols);
  memcpy(cols + nown, vector_columns, sizeof vector_columns);
  table_init(t, cols, nown + VC_COUNT);
  t->enabled[nown + VC_L2_TEXT] = t->enabled[nown + VC_L2] = t->enabled[nown + VC_PROBE_BYTES] = cuda;
  t->enabled[nown + VC_PROBE_US] = t->enabled[nown + VC_PROBE_GBS] = cuda;
  t->enabled[nown + VC_PROBE_GRID] = t->enabled[nown + VC_GR_VS_PROBE] = cuda;
  t->enabled[nown + VC_CUB_US] = t->enabled[nown + VC_CUB_GBS] = cub;
  t->enabled[nown + VC_GR_VS_CUB] = cub;
}

void vector_cells(const struct vectors_ctx *c, struct row *r, int nown,
                  const struct vector_point *p, double bytes) {
  const struct run *run = c->run;
  const struct options *o = run->opt;
  const double gr_gbs = gbps((uint64_t)bytes, p->gr_ms);
  set_num(r, nown + VC_MB, bytes / 1e6);
  set_num(r, nown + VC_BYTES, bytes);
  set_num(r, nown + VC_PROBE_BYTES, p->probe_bytes);
  if (run->cuda) {
    const int l2 = bytes <= (double)run->dev.l2_bytes;
    set_text(r, nown + VC_L2_TEXT, "%s", l2 ? "yes" : "no");
    set_num(r, nown + VC_L2, l2);
  }
  if (p->gr_ms > 0) {
    set_num(r, nown + VC_GR_US, 1e3 * p->gr_ms);
    set_num(r, nown + VC_GR_GBS, gr_gbs);
  }
  if (p->cub_ms > 0) {
    set_num(r, nown + VC_CUB_US, 1e3 * p->cub_ms);
    set_num(r, nown + VC_CUB_GBS, gbps((uint64_t)bytes, p->cub_ms));
    if (p->gr_ms > 0) set_num(r, nown + VC_GR_VS_CUB, p->cub_ms / p->gr_ms);
  } else if (p->cub_na) {
    set_text(r, nown + VC_CUB_US, "n/a");
  }
  if (p->probe_ms > 0) {
    const double probe_gbs = gbps((uint64_t)p->probe_bytes, p->probe_ms);
    set_num(r, nown + VC_PROBE_US, 1e3 * p->probe_ms);
    set_num(r, nown + VC_PROBE_GBS, probe_gbs);
    set_num(r, nown + VC_PROBE_GRID, p->probe_grid);
    if (p->gr_ms > 0) set_num(r, nown + VC_GR_VS_PROBE, gr_gbs / probe_gbs);
  }
  set_text(r, nown + VC_CHECK, "%s", p->check);
  set_text(r, nown + VC_OP, "%s", gpureduce_op_name(o->op));
  set_text(r, nown + VC_TYPE, "%s", gpureduce_type_name(o->type));
  set_num(r, nown + VC_F64, o->flags & GPUREDUCE_ACCUMULATE_F64 ? 1 : 0);
  set_num(r, nown + VC_WITH_VALUE, is_with_value(o));
}

void vectors_lines(struct vectors_ctx *c, const char *kind, int failed, int count,
                   const char *gbs) {
  struct run *run = c->run;
  const int segment = kind[0] == 's';
  if (failed)
    add_summary(run, "%s FAILED for %d of %d shapes (statuses on stderr)",
                segment ? "gpureduce_reduce_segments" : "gpureduce_reduce_batched", failed, count);
  summarize_check(run);
  add_note(run,
           "time: median of %d batches of %d back-to-back calls (fewer, at least 1, where they "
           "take over %.0f ms%s) after %d warm-ups, %s",
           run->opt->repeat, BATCH_CALLS, MAX_BATCH_MS, c->slow ? ": some did" : ": none did",
           WARMUP_CALLS, run->cuda ? "CUDA events" : "CLOCK_MONOTONIC");
  add_note(run, "%s", gbs);
  note_probe(run);
  if (c->cub_ran)
    add_note(run, "cub: DeviceSegmentedReduce, %s", segment ? "begin = offsets, end = offsets + 1"
                  : "segment b from offset iterators (b x ld, b x ld + n), columns through a "
                    "permutation iterator");
  else
    note_no_cub(run);
  if (!run->opt->check) return;
  add_note(run,
           "check: each result bit for bit = gpureduce_reduce of its %s alone%s; cub within "
           "1e-3 for float sums and prod, exactly otherwise",
           kind, segment ? " (empty argmin/argmax: no index)" : "");
  add_note(run,
           "checked: every %s up to %d of them, else %d: the first %d, the last %d and %d spread "
           "evenly between%s",
           kind, CHECK_ALL_MAX, SAMPLE, SAMPLE_EDGE, SAMPLE_EDGE, SAMPLE_SPREAD,
           segment ? ", and the longest" : "");
  note_value_check(run, segment ? "its segment alone" : "its vector alone", c->cub_ran);
}
