/*
 * segments.c - reduce-bench --segments and --sweep-segments (see
 * segments.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * A row is a distribution of segment lengths (options.h's struct
 * seg_dist) over n elements.  Its offsets are made on the host from the
 * seed, copied next to the input (one allocation: the input, then the
 * offsets at the next 16-byte boundary, so that the probe reads both in
 * one pass), and timed in one process on the same input four ways:
 * gpureduce_reduce_segments, gpureduce_reduce_batched at the same shape
 * (uniform:L with L dividing n: n / L dense rows of L), CUB's
 * DeviceSegmentedReduce with begin = offsets and end = offsets + 1, and
 * the read-only probe over the input and the offsets.  Then every result
 * (or a sample and the longest segment) is checked bit for bit against
 * gpureduce_reduce of its segment alone on the same handle.
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
#include "options.h"
#include "report.h"
#include "run.h"
#include "segments.h"
#include "timing.h"

#define SEG_BATCH 20      /* calls per timed batch, as --sweep-batched */
#define MAX_BATCH_MS 50.0 /* fewer calls per batch beyond this */
#define WRONG_LINES 10    /* mismatches printed per row and implementation */
#define SWEEP_ELEMENTS_CUDA ((size_t)1 << 28)
#define SWEEP_ELEMENTS_HOST ((size_t)1 << 24)
#define MAX_ROWS 40
#define CHECKED_MAX (SAMPLE_MAX + 1) /* the sample and the longest segment */

/* The L of --sweep-segments's uniform:L and random:L (those below its
 * element count; then uniform:elements): the row lengths of
 * --sweep-batched and of doc/PERFORMANCE.md's batched tables. */
static const uint64_t sweep_lengths[] = {
    1, 2, 4, 8, 32, 128, 512, 4096, 65536, (uint64_t)1 << 20, (uint64_t)1 << 24};

/* The rest of --sweep-segments: the skewed distributions. */
#define SWEEP_ZIPF_EXPONENT 1.5
#define SWEEP_ZIPF_MAX ((uint64_t)1 << 20)
#define SWEEP_HUGE_LO 1
#define SWEEP_HUGE_HI 64
#define SWEEP_HUGE_SMALL_PER 256 /* huge:1:64:K with K = elements / 256 (2^20 at 2^28) */

/* ---- the lengths ---------------------------------------------------------------- */

/* splitmix64: the state advances by the golden ratio, the output is its
 * finalizer (the bench's input fill uses the same mix). */
struct rng {
  uint64_t state;
};

static uint64_t rng_next(struct rng *r) {
  uint64_t x = (r->state += 0x9e3779b97f4a7c15ull);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* 0 .. m-1 (m >= 1), as the next output mod m: a bias below m / 2^64. */
static uint64_t rng_below(struct rng *r, uint64_t m) { return rng_next(r) % m; }

/* [0, 1) in steps of 2^-53. */
static double rng_unit(struct rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

/* The offsets of one row, in host memory, and what they hold. */
struct seg_layout {
  uint64_t *off; /* segments + 1 */
  size_t segments, cap;
  uint64_t min, max, empty;
  size_t longest; /* the first segment of length max */
};

static void layout_reserve(struct seg_layout *l, size_t segments) {
  if (segments + 1 <= l->cap) return;
  size_t cap = l->cap ? l->cap : 1024;
  while (cap < segments + 1) cap *= 2;
  uint64_t *grown = realloc(l->off, cap * sizeof *grown);
  if (!grown)
    fatal(EXIT_WRONG, "out of host memory (offsets of %zu segments: %zu bytes)", segments,
          cap * sizeof *grown);
  l->off = grown;
  l->cap = cap;
}

static void layout_push(struct seg_layout *l, uint64_t length) {
  layout_reserve(l, l->segments + 1);
  l->off[l->segments + 1] = l->off[l->segments] + length;
  ++l->segments;
}

/* Segments drawn by draw() until they hold `total` elements, the last one
 * cut to end there. */
typedef uint64_t (*draw_fn)(struct rng *r, const void *arg);

static void layout_fill(struct seg_layout *l, uint64_t total, struct rng *r, draw_fn draw,
                        const void *arg) {
  const uint64_t end = l->off[l->segments] + total;
  while (l->off[l->segments] < end) {
    uint64_t len = draw(r, arg);
    if (len > end - l->off[l->segments]) len = end - l->off[l->segments];
    layout_push(l, len);
  }
}

static uint64_t draw_random(struct rng *r, const void *arg) {
  const uint64_t L = *(const uint64_t *)arg;
  return rng_below(r, 2 * L + 1);
}

struct range {
  uint64_t lo, hi;
};

static uint64_t draw_range(struct rng *r, const void *arg) {
  const struct range *g = arg;
  return g->lo + rng_below(r, g->hi - g->lo + 1);
}

/* zipf:S:MAX: cdf[k-1] = sum of j^-S for j = 1..k; a length is the
 * smallest k whose cdf is above u x cdf[MAX-1], u uniform on [0, 1). */
struct zipf {
  double *cdf;
  uint64_t max;
};

static uint64_t draw_zipf(struct rng *r, const void *arg) {
  const struct zipf *z = arg;
  const double u = rng_unit(r) * z->cdf[z->max - 1];
  uint64_t lo = 0, hi = z->max - 1; /* the answer's index is in [lo, hi] */
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (z->cdf[mid] > u)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo + 1;
}

/* One more segment of `length` elements at index `at`, the later ones
 * moved up by one. */
static void layout_insert(struct seg_layout *l, size_t at, uint64_t length) {
  layout_reserve(l, l->segments + 1);
  for (size_t i = l->segments + 1; i > at + 1; --i) l->off[i] = l->off[i - 1] + length;
  l->off[at + 1] = l->off[at] + length;
  ++l->segments;
}

/*
 * The offsets of d over n elements from seed (options.c has refused what
 * cannot be made: uniform:L with L > n, huge with n < 2 or K x B >= n):
 *   uniform:L   n / L segments of L, then one of n mod L when that is not 0;
 *   random:L    lengths uniform on 0..2L;
 *   zipf:S:MAX  lengths k = 1..min(MAX, n) with probability k^-S / sum;
 *   huge:A:B    n - n/2 elements in lengths uniform on A..B, then one
 *               segment of n/2 inserted in the middle of them (index
 *               floor(count / 2));
 *   huge:A:B:K  K lengths uniform on A..B, then one segment of the rest
 *               inserted in their middle (index floor(K / 2)).
 * random, zipf and huge:A:B cut the last segment drawn to end at n.
 */
static void make_layout(const struct seg_dist *d, uint64_t n, uint64_t seed, struct seg_layout *l) {
  struct rng r = {seed};
  memset(l, 0, sizeof *l);
  layout_reserve(l, d->kind == SEG_UNIFORM ? (size_t)(n / d->length + 1) : 0);
  l->off[0] = 0;
  switch (d->kind) {
    case SEG_UNIFORM:
      for (uint64_t s = 0; s < n / d->length; ++s) layout_push(l, d->length);
      if (n % d->length) layout_push(l, n % d->length);
      break;
    case SEG_RANDOM: layout_fill(l, n, &r, draw_random, &d->length); break;
    case SEG_ZIPF: {
      struct zipf z = {NULL, d->max < n ? d->max : n};
      double sum = 0.0;
      z.cdf = xmalloc((size_t)z.max * sizeof *z.cdf);
      for (uint64_t k = 1; k <= z.max; ++k) z.cdf[k - 1] = sum += pow((double)k, -d->exponent);
      layout_fill(l, n, &r, draw_zipf, &z);
      free(z.cdf);
      break;
    }
    case SEG_HUGE: {
      const struct range g = {d->lo, d->hi};
      uint64_t huge;
      if (d->small) {
        for (uint64_t k = 0; k < d->small; ++k) layout_push(l, draw_range(&r, &g));
        huge = n - l->off[l->segments];
      } else {
        huge = n / 2;
        layout_fill(l, n - huge, &r, draw_range, &g);
      }
      layout_insert(l, l->segments / 2, huge);
      break;
    }
  }
  l->min = UINT64_MAX;
  for (size_t s = 0; s < l->segments; ++s) {
    const uint64_t len = l->off[s + 1] - l->off[s];
    if (len < l->min) l->min = len;
    if (len > l->max || s == 0) l->max = len, l->longest = s;
    l->empty += len == 0;
  }
}

/* ---- the calls ---------------------------------------------------------------- */

struct segments_call {
  const void *in;
  void *out;
  const uint64_t *offsets;
  size_t segments;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  gpureduce_handle_t h;
};

static gpureduce_status_t call_segments(const struct segments_call *c) {
  return gpureduce_reduce_segments(c->in, c->out, c->offsets, c->segments, c->type, c->op,
                                   c->flags, c->h);
}

/* A call_fn: the first call of a row succeeded, so a failure now is fatal. */
static void run_segments_call(void *arg) {
  const struct segments_call *c = arg;
  const gpureduce_status_t s = call_segments(c);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_reduce_segments");
}

/* The same input as `batch` dense rows of n (uniform:n). */
struct rows_call {
  const void *in;
  void *out;
  size_t batch, n;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  gpureduce_handle_t h;
};

static gpureduce_status_t call_rows(const struct rows_call *c) {
  return gpureduce_reduce_batched(c->in, c->out, c->batch, c->n, (int64_t)c->n, 1, c->type, c->op,
                                  c->flags, c->h);
}

static void run_rows_call(void *arg) {
  const struct rows_call *c = arg;
  const gpureduce_status_t s = call_rows(c);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_reduce_batched");
}

struct cub_offsets_call {
  struct bench_cub_seg *cub;
  struct bench_offsets s;
};

static void run_cub_call(void *arg) {
  struct cub_offsets_call *c = arg;
  bench_cub_seg_run_offsets(c->cub, &c->s);
}

/* ---- everything one run keeps for all rows ------------------------------------- */

struct seg_ctx {
  struct run *run;
  struct timing tm;
  size_t es, rs; /* element and result bytes */
  struct bench_probe *probe;
  /* the checks (CHECKED_MAX results each) */
  void *ref_out; /* backend memory: gpureduce_reduce of each checked segment */
  size_t *rows;  /* the checked segments, ascending */
  unsigned char *want, *got, *rows_got, *cub_got; /* host */
  int cub_notes; /* distinct reasons CUB did not run, noted */
  char cub_why[4][160];
  int rows_runs; /* rows where the batched call ran */
  char cub_name[64]; /* the CUB call, once one was made */
};

/* One row's buffers, made and freed around it. */
struct seg_bufs {
  void *base;    /* the input (--offset elements in), then the offsets */
  void *x;       /* the input */
  uint64_t *off; /* the offsets, 16-byte aligned after the input */
  void *out;     /* gpureduce_reduce_segments's results */
  void *rows_out; /* gpureduce_reduce_batched's (uniform:L, L dividing n) */
  struct bench_cub_seg *cub;
};

struct seg_point {
  struct seg_dist d;
  size_t n;
  size_t segments;
  uint64_t min, max, empty;
  int rows; /* the batched call runs: uniform:L with L dividing n */
  gpureduce_status_t gr_status, rows_status;
  double gr_ms, rows_ms, cub_ms, probe_ms; /* 0: not run */
  double probe_bytes;
  unsigned probe_grid;
  int gr_calls, rows_calls, cub_calls; /* calls per timed batch */
  int cub_na;                         /* CUB could not (a note says why) */
  char check[64];
};

static const char *point_text(const struct seg_point *p, char *buf, size_t size) {
  char dt[96];
  snprintf(buf, size, "%s, n = %zu, %zu segments", dist_text(&p->d, dt, sizeof dt), p->n,
           p->segments);
  return buf;
}

/* ---- the checks ------------------------------------------------------------------ */

/* The checked segments: pick_checked's, and the longest one (ascending). */
static size_t pick_segments(const struct seg_layout *l, size_t *rows) {
  size_t count = pick_checked(l->segments, rows), at = 0;
  while (at < count && rows[at] < l->longest) ++at;
  if (at < count && rows[at] == l->longest) return count;
  memmove(rows + at + 1, rows + at, (count - at) * sizeof *rows);
  rows[at] = l->longest;
  return count + 1;
}

/* gpureduce_reduce of each checked segment alone, into sc->want; an empty
 * segment's ARGMIN, ARGMAX or MEAN_VAR must be GPUREDUCE_ERROR_EMPTY_INPUT
 * there, and UINT64_MAX ("no index") or {NaN, NaN} from the segmented
 * call.  With --with-value: the plain arg op's, then its index with the
 * element there (value_result_from_plain; an empty segment's, the empty
 * value). */
static void reference_results(struct seg_ctx *sc, const struct seg_bufs *b,
                              const struct seg_layout *l, size_t count) {
  const struct options *o = sc->run->opt;
  const int cuda = sc->run->cuda;
  const int arg = op_is_arg(o->op) || o->op == GPUREDUCE_MEAN_VAR; /* no empty value */
  const unsigned flags = o->flags & ~GPUREDUCE_WITH_VALUE;
  poison_buffer(cuda, sc->ref_out, count * sc->rs);
  for (size_t k = 0; k < count; ++k) {
    const size_t s = sc->rows[k];
    const uint64_t len = l->off[s + 1] - l->off[s];
    const void *v = (const unsigned char *)b->x + l->off[s] * sc->es;
    const gpureduce_status_t st = gpureduce_reduce(
        v, (unsigned char *)sc->ref_out + k * sc->rs, len, o->type, o->op, flags, sc->run->h);
    if (st == GPUREDUCE_ERROR_EMPTY_INPUT && arg && len == 0) continue;
    if (st != GPUREDUCE_SUCCESS)
      library_failed(sc->run->h, st, "gpureduce_reduce (one segment alone, for the checks)");
  }
  if (cuda)
    bench_cuda_copy_to_host(sc->want, sc->ref_out, count * sc->rs);
  else
    memcpy(sc->want, sc->ref_out, count * sc->rs);
  if (!arg) return;
  for (size_t k = 0; k < count; ++k) {
    const size_t s = sc->rows[k];
    const uint64_t len = l->off[s + 1] - l->off[s];
    const uint64_t none = UINT64_MAX;
    const void *first = (const unsigned char *)b->x + l->off[s] * sc->es;
    if (is_with_value(o)) {
      value_result_from_plain(cuda, o->type, o->op, first, (size_t)len, sc->es,
                              sc->want + k * sc->rs);
    } else if (len != 0) {
      continue;
    } else if (op_is_arg(o->op)) {
      memcpy(sc->want + k * sc->rs, &none, sizeof none);
    } else { /* {NaN, NaN}: canonical quiet NaNs of rs / 2 bytes */
      const uint64_t nan = sc->rs == 8 ? 0x7fffffff7fffffffull : 0x7fffffffffffffffull;
      memcpy(sc->want + k * sc->rs, &nan, 8);
      if (sc->rs == 16) memcpy(sc->want + k * sc->rs + 8, &nan, 8);
    }
  }
}

/* Compare got[k] with want[k] for every checked segment; the first
 * WRONG_LINES mismatches on stderr.  exact: bit for bit (gpureduce), else
 * check_close, and empty segments left out (CUB: its empty answers are
 * not gpureduce's).  Returns the count of mismatches. */
static size_t compare_results(struct seg_ctx *sc, const struct seg_point *p,
                              const struct seg_layout *l, size_t count, const unsigned char *got,
                              int exact, const char *who) {
  const struct options *o = sc->run->opt;
  size_t wrong = 0;
  char pt[160];
  for (size_t k = 0; k < count; ++k) {
    const size_t s = sc->rows[k];
    const uint64_t len = l->off[s + 1] - l->off[s];
    if (!exact && len == 0) continue;
    const void *g = got + k * sc->rs, *w = sc->want + k * sc->rs;
    const struct verdict v =
        exact ? check_same(o->type, o->op, o->flags, g, w, "gpureduce_reduce of that segment alone")
              : check_close(o->type, o->op, o->flags, (size_t)len, g, w,
                            "gpureduce_reduce of that segment alone, within CUB's tolerance");
    if (!v.wrong) continue;
    if (++wrong <= WRONG_LINES)
      fprintf(stderr, PROGRAM ": WRONG: %s, %s: segment %zu (offset %llu, length %llu): %s\n",
              who, point_text(p, pt, sizeof pt), s, (unsigned long long)l->off[s],
              (unsigned long long)len, v.detail);
  }
  if (wrong > WRONG_LINES)
    fprintf(stderr, PROGRAM ": WRONG: %s, %s: %zu of %zu checked segments differ\n", who,
            point_text(p, pt, sizeof pt), wrong, count);
  return wrong;
}

static void seg_check(struct seg_ctx *sc, struct seg_point *p, const struct seg_bufs *b,
                      const struct seg_layout *l, const struct segments_call *call,
                      const struct rows_call *rc, const struct cub_offsets_call *cc) {
  const int cuda = sc->run->cuda;
  const size_t count = pick_segments(l, sc->rows);
  size_t gr_wrong = 0, rows_wrong = 0, cub_wrong = 0;
  progress(" %s: checking %zu segments ...", dist_kind_name(&p->d), count);
  reference_results(sc, b, l, count);
  if (p->gr_status == GPUREDUCE_SUCCESS) {
    poison_buffer(cuda, b->out, p->segments * sc->rs);
    run_segments_call((void *)call);
    copy_picked(cuda, sc->got, b->out, sc->rs, sc->rows, count);
    gr_wrong = compare_results(sc, p, l, count, sc->got, 1, "gpureduce_reduce_segments");
  }
  if (p->rows && p->rows_status == GPUREDUCE_SUCCESS) {
    poison_buffer(cuda, b->rows_out, p->segments * sc->rs);
    run_rows_call((void *)rc);
    copy_picked(cuda, sc->rows_got, b->rows_out, sc->rs, sc->rows, count);
    rows_wrong = compare_results(sc, p, l, count, sc->rows_got, 1, "gpureduce_reduce_batched");
  }
  if (p->cub_ms > 0) {
    bench_cub_seg_results_offsets(cc->cub, &cc->s, sc->rows, count, sc->cub_got);
    cub_wrong = compare_results(sc, p, l, count, sc->cub_got, 0, "cub");
  }
  sc->run->wrong += (gr_wrong > 0) + (rows_wrong > 0) + (cub_wrong > 0);
  if (p->gr_status != GPUREDUCE_SUCCESS) {
    const char *name = gpureduce_status_name(p->gr_status);
    append_check(p->check, sizeof p->check, "FAILED:%s", name ? name : "unknown status");
  } else if (gr_wrong) {
    append_check(p->check, sizeof p->check, "WRONG:%zu/%zu", gr_wrong, count);
  }
  if (p->rows && p->rows_status != GPUREDUCE_SUCCESS) {
    const char *name = gpureduce_status_name(p->rows_status);
    append_check(p->check, sizeof p->check, "%sbatched:%s", p->check[0] ? "," : "FAILED:", name ? name : "unknown status");
  } else if (rows_wrong) {
    append_check(p->check, sizeof p->check, "%sbatched:%zu/%zu", p->check[0] ? "," : "WRONG:", rows_wrong, count);
  }
  if (cub_wrong) append_check(p->check, sizeof p->check, "%scub:%zu/%zu", p->check[0] ? "," : "WRONG:", cub_wrong, count);
  if (!p->check[0] && count < p->segments) append_check(p->check, sizeof p->check, "ok (%zu)", count);
  if (!p->check[0]) append_check(p->check, sizeof p->check, "ok");
}

/* ---- one row ----------------------------------------------------------------- */

/* CUB does not run this row: the reason, noted once. */
static void note_cub_skip(struct seg_ctx *sc, const char *why) {
  for (int i = 0; i < sc->cub_notes; ++i)
    if (strcmp(sc->cub_why[i], why) == 0) return;
  if (sc->cub_notes == (int)(sizeof sc->cub_why / sizeof sc->cub_why[0])) return;
  snprintf(sc->cub_why[sc->cub_notes++], sizeof sc->cub_why[0], "%s", why);
}

/* A failed first call: its status, the library's message, counted wrong. */
static void report_status(struct seg_ctx *sc, const struct seg_point *p, const char *who,
                          gpureduce_status_t s) {
  const char *msg = gpureduce_last_message(sc->run->h);
  const char *name = gpureduce_status_name(s);
  char pt[160];
  ++sc->run->wrong;
  fprintf(stderr, PROGRAM ": %s failed (%s): %s (%s)%s%s\n", who, point_text(p, pt, sizeof pt),
          name ? name : "unknown status", gpureduce_status_string(s), *msg ? ": " : "", msg);
}

static void *backend_alloc(int cuda, size_t bytes, const char *what) {
  return cuda ? bench_cuda_alloc(bytes, what) : xmalloc_aligned(bytes);
}

/* The row's buffers: input and offsets in one allocation, the outputs,
 * CUB's outputs; the input filled, the offsets copied. */
static void bufs_open(struct seg_ctx *sc, struct seg_bufs *b, const struct seg_point *p,
                      const struct seg_layout *l) {
  struct run *run = sc->run;
  const struct options *o = run->opt;
  const int cuda = run->cuda;
  const size_t in_bytes = (p->n + o->offset) * sc->es;
  const size_t off_at = (in_bytes + 15) / 16 * 16;
  const size_t off_bytes = (p->segments + 1) * sizeof(uint64_t);
  const size_t out_bytes = p->segments * sc->rs;
  memset(b, 0, sizeof *b);
  if (cuda) {
    /* Fail early and clearly rather than at the third cudaMalloc. */
    const double need = (double)off_at + (double)off_bytes +
                        (double)out_bytes * (p->rows ? 2 : 1) + (double)p->segments * 16.0;
    if (need > 0.9 * (double)run->dev.free_bytes) {
      char pt[160];
      fatal(EXIT_WRONG,
            "%s needs about %.1f GB of device memory, %.1f GB are free: use a smaller %s",
            point_text(p, pt, sizeof pt), need / 1e9, (double)run->dev.free_bytes / 1e9,
            o->segments ? "--n" : "--sweep-elements");
    }
  }
  b->base = backend_alloc(cuda, off_at + off_bytes, "segmented input and offsets");
  b->x = (unsigned char *)b->base + o->offset * sc->es;
  b->off = (uint64_t *)(void *)((unsigned char *)b->base + off_at);
  struct input in = {b->base, b->x, p->n, cuda};
  fill_random(&in, o->type);
  if (cuda)
    bench_cuda_copy_to_device(b->off, l->off, off_bytes);
  else
    memcpy(b->off, l->off, off_bytes);
  b->out = backend_alloc(cuda, out_bytes, "segmented outputs");
  if (p->rows) b->rows_out = backend_alloc(cuda, out_bytes, "batched outputs");
  if (cuda) b->cub = bench_cub_seg_create(o->type, o->op, o->flags, p->segments);
  if (b->cub) snprintf(sc->cub_name, sizeof sc->cub_name, "%s", bench_cub_seg_name(b->cub));
}

static void bufs_close(int cuda, struct seg_bufs *b) {
  output_free(cuda, b->base);
  output_free(cuda, b->out);
  if (b->rows_out) output_free(cuda, b->rows_out);
  bench_cub_seg_destroy(b->cub);
}

static void seg_point(struct seg_ctx *sc, const struct seg_dist *d, size_t n,
                      struct seg_point *p) {
  struct run *run = sc->run;
  const struct options *o = run->opt;
  const struct clock_src *ck = &run->ck;
  struct seg_layout l;
  struct seg_bufs b;
  char pt[160], dt[96];
  memset(p, 0, sizeof *p);
  p->d = *d;
  p->n = n;
  progress(" %s: making the offsets ...", dist_text(d, dt, sizeof dt));
  make_layout(d, n, o->seed, &l);
  p->segments = l.segments;
  p->min = l.min;
  p->max = l.max;
  p->empty = l.empty;
  p->rows = d->kind == SEG_UNIFORM && n % d->length == 0;
  bufs_open(sc, &b, p, &l);
  struct segments_call call = {b.x, b.out, b.off, p->segments, o->type, o->op, o->flags, run->h};
  struct rows_call rc = {b.x, b.rows_out, p->segments, (size_t)d->length, o->type, o->op,
                         o->flags, run->h};
  struct cub_offsets_call cc = {b.cub, {b.x, b.off, p->segments, l.off[l.segments]}};
  progress(" %s: %zu segments ...", dist_text(d, dt, sizeof dt), p->segments);
  /* gpureduce: a failing status is reported, and the other columns still run */
  p->gr_status = call_segments(&call);
  if (p->gr_status == GPUREDUCE_SUCCESS) {
    char what[200];
    /* a kernel that faults says so here, with the row, not in a timer */
    snprintf(what, sizeof what, "gpureduce_reduce_segments (%s)", point_text(p, pt, sizeof pt));
    if (run->cuda) bench_cuda_sync(what);
    p->gr_ms = median_ms_capped(ck, &sc->tm, MAX_BATCH_MS, run_segments_call, &call, &p->gr_calls);
  } else {
    report_status(sc, p, "gpureduce_reduce_segments", p->gr_status);
  }
  if (p->rows) {
    ++sc->rows_runs;
    p->rows_status = call_rows(&rc);
    if (p->rows_status == GPUREDUCE_SUCCESS) {
      char what[200];
      snprintf(what, sizeof what, "gpureduce_reduce_batched (%s)", point_text(p, pt, sizeof pt));
      if (run->cuda) bench_cuda_sync(what);
      p->rows_ms =
          median_ms_capped(ck, &sc->tm, MAX_BATCH_MS, run_rows_call, &rc, &p->rows_calls);
    } else {
      report_status(sc, p, "gpureduce_reduce_batched", p->rows_status);
    }
  }
  if (b.cub) {
    char why[160];
    if (bench_cub_seg_supports_offsets(b.cub, &cc.s, why, sizeof why)) {
      char what[200];
      snprintf(what, sizeof what, "%s (%s)", bench_cub_seg_name(b.cub),
               point_text(p, pt, sizeof pt));
      bench_cub_seg_prepare_offsets(b.cub, &cc.s);
      run_cub_call(&cc);
      bench_cuda_sync(what);
      p->cub_ms = median_ms_capped(ck, &sc->tm, MAX_BATCH_MS, run_cub_call, &cc, &p->cub_calls);
    } else {
      p->cub_na = 1;
      note_cub_skip(sc, why);
    }
  }
  if (sc->probe) {
    /* the input and the offsets, from the first element to the last offset */
    const size_t bytes = (size_t)((const unsigned char *)(b.off + p->segments + 1) -
                                  (const unsigned char *)b.x);
    const struct probe_best best = time_probe(ck, &sc->tm, sc->probe, b.x, bytes,
                                              run->dev.sm_count);
    p->probe_ms = best.ms;
    p->probe_grid = best.grid;
    p->probe_bytes = (double)bytes;
  }
  if (o->check)
    seg_check(sc, p, &b, &l, &call, &rc, &cc);
  else
    snprintf(p->check, sizeof p->check, "%s",
             p->gr_status == GPUREDUCE_SUCCESS ? "-" : "FAILED");
  /* The offsets are valid: the sticky error of the row's calls must be clear. */
  const gpureduce_status_t async = gpureduce_get_async_error(run->h);
  if (async != GPUREDUCE_SUCCESS) {
    const char *name = gpureduce_status_name(async);
    report_status(sc, p, "gpureduce_get_async_error (valid offsets)", async);
    snprintf(p->check, sizeof p->check, "FAILED:async:%s", name ? name : "unknown status");
  }
  if (run->cuda) bench_cuda_sync("the row's last calls");
  bufs_close(run->cuda, &b);
  free(l.off);
}

/* ---- the table ------------------------------------------------------------------- */

enum {
  SG_DIST,
  SG_KIND,
  SG_LENGTH,
  SG_SEGMENTS_LABEL,
  SG_SEGMENTS,
  SG_N,
  SG_MIN,
  SG_MAX,
  SG_MEAN,
  SG_EMPTY,
  SG_MB,
  SG_BYTES,
  SG_PROBE_BYTES,
  SG_L2_TEXT,
  SG_L2,
  SG_GR_US,
  SG_GR_GBS,
  SG_ROWS_US,
  SG_CUB_US,
  SG_CUB_GBS,
  SG_PROBE_US,
  SG_PROBE_GBS,
  SG_PROBE_GRID,
  SG_GR_VS_PROBE,
  SG_GR_VS_CUB,
  SG_GR_VS_ROWS,
  SG_CHECK,
  SG_OP,
  SG_TYPE,
  SG_F64,
  SG_WITH_VALUE,
  SG_SEED,
  SG_COUNT
};

static const struct column seg_columns[SG_COUNT] = {
    [SG_DIST] = {"distribution", "distribution", 0, SHOW_ALL, 1},
    [SG_KIND] = {"kind", "kind", 0, SHOW_DATA, 0},
    [SG_LENGTH] = {"length", "L", 0, SHOW_DATA, 0},
    [SG_SEGMENTS_LABEL] = {"segments_label", "segments", 0, SHOW_TEXT, 0},
    [SG_SEGMENTS] = {"segments", "segments", 0, SHOW_DATA, 0},
    [SG_N] = {"n", "n", 0, SHOW_DATA, 0},
    [SG_MIN] = {"min_length", "min", 0, SHOW_ALL, 0},
    [SG_MAX] = {"max_length", "max", 0, SHOW_ALL, 0},
    [SG_MEAN] = {"mean_length", "mean", 1, SHOW_ALL, 0},
    [SG_EMPTY] = {"empty_segments", "empty", 0, SHOW_ALL, 0},
    [SG_MB] = {"mb", "MB", 1, SHOW_TEXT, 0},
    [SG_BYTES] = {"bytes", "bytes", 0, SHOW_DATA, 0},
    [SG_PROBE_BYTES] = {"probe_bytes", "probe bytes", 0, SHOW_DATA, 0},
    [SG_L2_TEXT] = {"in_l2", "in L2", 0, SHOW_TEXT, 0},
    [SG_L2] = {"l2_resident", "in L2", 0, SHOW_DATA, 0},
    [SG_GR_US] = {"gpureduce_us", "gr us", 2, SHOW_ALL, 0},
    [SG_GR_GBS] = {"gpureduce_gbs", "gr GB/s", 1, SHOW_ALL, 0},
    [SG_ROWS_US] = {"batched_us", "batched us", 2, SHOW_ALL, 0},
    [SG_CUB_US] = {"cub_us", "cub us", 2, SHOW_ALL, 0},
    [SG_CUB_GBS] = {"cub_gbs", "cub GB/s", 1, SHOW_ALL, 0},
    [SG_PROBE_US] = {"probe_us", "probe us", 2, SHOW_ALL, 0},
    [SG_PROBE_GBS] = {"probe_gbs", "probe GB/s", 1, SHOW_ALL, 0},
    [SG_PROBE_GRID] = {"probe_blocks", "probe grid", 0, SHOW_ALL, 0},
    [SG_GR_VS_PROBE] = {"gpureduce_vs_probe", "gr/probe", 2, SHOW_ALL, 0},
    [SG_GR_VS_CUB] = {"gpureduce_vs_cub", "gr/cub", 2, SHOW_ALL, 0},
    [SG_GR_VS_ROWS] = {"gpureduce_vs_batched", "gr/batched", 2, SHOW_ALL, 0},
    [SG_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
    [SG_OP] = {"op", "op", 0, SHOW_DATA, 0},
    [SG_TYPE] = {"type", "type", 0, SHOW_DATA, 0},
    [SG_F64] = {"f64_accumulate", "f64 acc", 0, SHOW_DATA, 0},
    [SG_WITH_VALUE] = {"with_value", "with value", 0, SHOW_DATA, 0},
    [SG_SEED] = {"seed", "seed", 0, SHOW_DATA, 0},
};

/* The bytes of GB/s: the input, the offsets and the output. */
static double point_bytes(const struct seg_ctx *sc, const struct seg_point *p) {
  return (double)p->n * sc->es + 8.0 * ((double)p->segments + 1) + (double)p->segments * sc->rs;
}

static void seg_row(const struct seg_ctx *sc, const struct seg_point *p, struct table *t) {
  const struct run *run = sc->run;
  const struct options *o = run->opt;
  const double bytes = point_bytes(sc, p);
  const double gr_gbs = gbps((uint64_t)bytes, p->gr_ms);
  struct row *r = table_add(t);
  char buf[96];
  set_text(r, SG_DIST, "%s", dist_text(&p->d, buf, sizeof buf));
  set_text(r, SG_KIND, "%s", dist_kind_name(&p->d));
  if (p->d.kind == SEG_UNIFORM || p->d.kind == SEG_RANDOM)
    set_num(r, SG_LENGTH, (double)p->d.length);
  set_text(r, SG_SEGMENTS_LABEL, "%s", label_n(p->segments, buf, sizeof buf));
  set_num(r, SG_SEGMENTS, (double)p->segments);
  set_num(r, SG_N, (double)p->n);
  set_num(r, SG_MIN, (double)p->min);
  set_num(r, SG_MAX, (double)p->max);
  set_num(r, SG_MEAN, (double)p->n / (double)p->segments);
  set_num(r, SG_EMPTY, (double)p->empty);
  set_num(r, SG_MB, bytes / 1e6);
  set_num(r, SG_BYTES, bytes);
  if (run->cuda) {
    const int l2 = bytes <= (double)run->dev.l2_bytes;
    set_num(r, SG_PROBE_BYTES, p->probe_bytes);
    set_text(r, SG_L2_TEXT, "%s", l2 ? "yes" : "no");
    set_num(r, SG_L2, l2);
  }
  if (p->gr_ms > 0) {
    set_num(r, SG_GR_US, 1e3 * p->gr_ms);
    set_num(r, SG_GR_GBS, gr_gbs);
  }
  if (p->rows_ms > 0) {
    set_num(r, SG_ROWS_US, 1e3 * p->rows_ms);
    if (p->gr_ms > 0) set_num(r, SG_GR_VS_ROWS, p->rows_ms / p->gr_ms);
  }
  if (p->cub_ms > 0) {
    set_num(r, SG_CUB_US, 1e3 * p->cub_ms);
    set_num(r, SG_CUB_GBS, gbps((uint64_t)bytes, p->cub_ms));
    if (p->gr_ms > 0) set_num(r, SG_GR_VS_CUB, p->cub_ms / p->gr_ms);
  } else if (p->cub_na) {
    set_text(r, SG_CUB_US, "n/a");
  }
  if (p->probe_ms > 0) {
    const double probe_gbs = gbps((uint64_t)p->probe_bytes, p->probe_ms);
    set_num(r, SG_PROBE_US, 1e3 * p->probe_ms);
    set_num(r, SG_PROBE_GBS, probe_gbs);
    set_num(r, SG_PROBE_GRID, p->probe_grid);
    if (p->gr_ms > 0) set_num(r, SG_GR_VS_PROBE, gr_gbs / probe_gbs);
  }
  set_text(r, SG_CHECK, "%s", p->check);
  set_text(r, SG_OP, "%s", gpureduce_op_name(o->op));
  set_text(r, SG_TYPE, "%s", gpureduce_type_name(o->type));
  set_num(r, SG_F64, o->flags & GPUREDUCE_ACCUMULATE_F64 ? 1 : 0);
  set_num(r, SG_WITH_VALUE, is_with_value(o));
  set_text(r, SG_SEED, "%llu", (unsigned long long)o->seed); /* above 2^53 too */
}

static void seg_notes(struct seg_ctx *sc, int slow_batches) {
  struct run *run = sc->run;
  const struct options *o = run->opt;
  add_note(run,
           "time: median of %d batches of %d back-to-back calls (fewer, at least 1, where %d "
           "take over %.0f ms%s) after %d warm-ups, %s",
           o->repeat, SEG_BATCH, SEG_BATCH, MAX_BATCH_MS,
           slow_batches ? ": some did" : ": none did", WARMUP_CALLS,
           run->cuda ? "CUDA events" : "CLOCK_MONOTONIC");
  add_note(run,
           "GB/s: (n x %zu input + 8 x (segments + 1) offset + segments x %zu result bytes) / "
           "time, gpureduce and cub alike",
           sc->es, sc->rs);
  add_note(run,
           "lengths: made on the host from --seed %llu (splitmix64); huge: the huge segment in "
           "the middle (index floor(small segments / 2)); the last one drawn cut to end at n",
           (unsigned long long)o->seed);
  add_note(run, "input: random values made %s by a hash of (seed, index)",
           run->cuda ? "on the device" : "on the host");
  if (sc->rows_runs)
    add_note(run,
             "batched: gpureduce_reduce_batched of the same input as n / L dense rows of L "
             "(uniform:L, L dividing n); gr/batched = batched time / gr time");
  if (run->cuda) {
    add_note(run,
             "probe: read-only, fastest grid of SMs x {1,2,4,8,16} blocks of %d, reading the "
             "input and the offsets after it (16-byte aligned) in one pass",
             BENCH_BLOCK);
    add_note(run,
             "gr/probe = gr GB/s / probe GB/s (the bytes it reads / time); gr/cub = cub time / "
             "gr time (> 1: gpureduce faster)");
    if (sc->cub_name[0])
      add_note(run, "cub: %s with the offsets: begin = offsets, end = offsets + 1", sc->cub_name);
    else
      add_note(run, "cub: not built (configure found no CUB)");
    for (int i = 0; i < sc->cub_notes; ++i) add_note(run, "cub %s", sc->cub_why[i]);
  } else {
    add_note(run, "host backend: no CUB and no probe");
  }
  if (!o->check) return;
  add_note(run,
           "check: each result bit for bit = gpureduce_reduce of its segment alone (empty "
           "argmin/argmax: UINT64_MAX); cub within 1e-3 for float sums and prod, exactly "
           "otherwise, empty segments left out");
  note_value_check(run, "its segment alone (an empty one: MIN's/MAX's empty value)",
                   sc->cub_name[0] != 0);
  add_note(run,
           "checked: every segment up to %d of them, else %d (the first %d, the last %d, %d "
           "spread evenly between) and the longest: \"ok (%d)\", or \"ok (%d)\" when it is one",
           CHECK_ALL_MAX, 2 * SAMPLE_EDGE + SAMPLE_SPREAD, SAMPLE_EDGE, SAMPLE_EDGE, SAMPLE_SPREAD,
           2 * SAMPLE_EDGE + SAMPLE_SPREAD + 1, 2 * SAMPLE_EDGE + SAMPLE_SPREAD);
}

/* ---- the rows -------------------------------------------------------------------- */

/* The distributions of --sweep-segments over `total` elements. */
static int sweep_rows(size_t total, struct seg_dist *rows) {
  int count = 0;
  const size_t nl = sizeof sweep_lengths / sizeof sweep_lengths[0];
  for (size_t i = 0; i < nl; ++i)
    if (sweep_lengths[i] < total)
      rows[count++] = (struct seg_dist){.kind = SEG_UNIFORM, .length = sweep_lengths[i]};
  rows[count++] = (struct seg_dist){.kind = SEG_UNIFORM, .length = total};
  for (size_t i = 0; i < nl; ++i)
    if (sweep_lengths[i] < total)
      rows[count++] = (struct seg_dist){.kind = SEG_RANDOM, .length = sweep_lengths[i]};
  rows[count++] = (struct seg_dist){.kind = SEG_ZIPF,
                                    .exponent = SWEEP_ZIPF_EXPONENT,
                                    .max = SWEEP_ZIPF_MAX < total ? SWEEP_ZIPF_MAX : total};
  if (total >= 2)
    rows[count++] = (struct seg_dist){.kind = SEG_HUGE, .lo = SWEEP_HUGE_LO, .hi = SWEEP_HUGE_HI};
  if (total / SWEEP_HUGE_SMALL_PER >= 1)
    rows[count++] = (struct seg_dist){.kind = SEG_HUGE,
                                      .lo = SWEEP_HUGE_LO,
                                      .hi = SWEEP_HUGE_HI,
                                      .small = total / SWEEP_HUGE_SMALL_PER};
  return count;
}

static void seg_open(struct seg_ctx *sc) {
  struct run *run = sc->run;
  const struct options *o = run->opt;
  const int cuda = run->cuda;
  sc->tm = (struct timing){WARMUP_CALLS, o->repeat, SEG_BATCH};
  sc->es = gpureduce_type_size(o->type);
  sc->rs = gpureduce_result_size(o->type, o->op, o->flags);
  if (cuda) sc->probe = bench_probe_create();
  if (!o->check) return;
  sc->ref_out = backend_alloc(cuda, CHECKED_MAX * sc->rs, "the checks' results");
  sc->rows = xmalloc(CHECKED_MAX * sizeof *sc->rows);
  sc->want = xmalloc(CHECKED_MAX * sc->rs);
  sc->got = xmalloc(CHECKED_MAX * sc->rs);
  sc->rows_got = xmalloc(CHECKED_MAX * sc->rs);
  sc->cub_got = xmalloc(CHECKED_MAX * sc->rs);
}

static void seg_close(struct seg_ctx *sc) {
  bench_probe_destroy(sc->probe);
  if (sc->ref_out) output_free(sc->run->cuda, sc->ref_out);
  free(sc->rows);
  free(sc->want);
  free(sc->got);
  free(sc->rows_got);
  free(sc->cub_got);
}

int run_segments(struct run *run) {
  const struct options *o = run->opt;
  struct seg_dist rows[MAX_ROWS];
  struct seg_ctx sc;
  struct table t;
  int count, failed = 0, slow = 0;
  size_t total;
  char buf[96], nl[32];
  run->mode = o->segments ? "segments" : "sweep-segments";
  if (o->segments) {
    rows[0] = o->dist;
    count = 1;
    total = o->n;
    add_head(run, "segments: %s over %s elements, --seed %llu",
             dist_text(&o->dist, buf, sizeof buf), label_n(total, nl, sizeof nl),
             (unsigned long long)o->seed);
  } else {
    total = o->sweep_elements ? o->sweep_elements
                              : run->cuda ? SWEEP_ELEMENTS_CUDA : SWEEP_ELEMENTS_HOST;
    count = sweep_rows(total, rows);
    add_head(run, "sweep-segments: %s elements, %d distributions, --seed %llu",
             label_n(total, nl, sizeof nl), count, (unsigned long long)o->seed);
  }
  memset(&sc, 0, sizeof sc);
  sc.run = run;
  seg_open(&sc);
  table_init(&t, seg_columns, SG_COUNT);
  t.enabled[SG_L2_TEXT] = t.enabled[SG_L2] = t.enabled[SG_PROBE_BYTES] = run->cuda;
  t.enabled[SG_PROBE_US] = t.enabled[SG_PROBE_GBS] = t.enabled[SG_PROBE_GRID] = run->cuda;
  t.enabled[SG_GR_VS_PROBE] = run->cuda;
  t.enabled[SG_CUB_US] = t.enabled[SG_CUB_GBS] = t.enabled[SG_GR_VS_CUB] =
      run->cuda && bench_cub_built();
  for (int i = 0; i < count; ++i) {
    struct seg_point p;
    seg_point(&sc, &rows[i], total, &p);
    failed += p.gr_status != GPUREDUCE_SUCCESS;
    slow |= (p.gr_calls && p.gr_calls < SEG_BATCH) || (p.rows_calls && p.rows_calls < SEG_BATCH) ||
            (p.cub_calls && p.cub_calls < SEG_BATCH);
    seg_row(&sc, &p, &t);
  }
  /* The batched columns: in the text table only when some row had the
   * batched call; in CSV and JSON always, so that runs concatenate. */
  t.enabled[SG_ROWS_US] = t.enabled[SG_GR_VS_ROWS] =
      sc.rows_runs > 0 || o->format != FORMAT_TABLE;
  progress(" ");
  if (failed)
    add_summary(run, "gpureduce_reduce_segments FAILED for %d of %d rows (statuses on stderr)",
                failed, count);
  if (o->check)
    add_summary(run, "check: %s",
                run->wrong ? "WRONG or failed results (details on stderr)" : "all right");
  else
    add_summary(run, "check: not done (--no-check)");
  seg_notes(&sc, slow);
  print_report(run, &t);
  table_free(&t);
  seg_close(&sc);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}
