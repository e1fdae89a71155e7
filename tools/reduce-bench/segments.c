/*
 * segments.c - reduce-bench --segments and --sweep-segments (see
 * modes.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * A row is a distribution of segment lengths (lengths.h) over n elements.
 * Its offsets are made on the host and copied next to the input (one
 * allocation: the input, then the offsets at the next 16-byte boundary, so
 * that the probe reads both in one pass); the row is timed and checked as
 * vectors.h says.
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
#include "lengths.h"
#include "modes.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "vectors.h"

#define SWEEP_ELEMENTS_CUDA ((size_t)1 << 28)
#define SWEEP_ELEMENTS_HOST ((size_t)1 << 24)

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
};

/* One row: the offsets of d over n elements, the buffers, the
 * measurement, the table row. */
static int seg_row(struct vectors_ctx *c, const struct seg_dist *d, size_t n, struct table *t) {
  struct run *run = c->run;
  const struct options *o = run->opt;
  const int cuda = run->cuda;
  struct seg_layout l;
  struct vector_point p;
  char dt[96], pt[160];
  progress(" %s: making the offsets ...", dist_text(d, dt, sizeof dt));
  make_layout(d, n, &l);
  const size_t segments = l.segments;
  snprintf(pt, sizeof pt, "%s, n = %zu, %zu segments", dt, n, segments);
  const size_t off_at = ((n + o->offset) * c->es + 15) / 16 * 16;
  const size_t off_bytes = (segments + 1) * sizeof(uint64_t), out_bytes = segments * c->rs;
  /* Fail early and clearly rather than at the third cudaMalloc. */
  const double need = (double)off_at + (double)off_bytes + (double)out_bytes + 16.0 * segments;
  if (cuda && need > 0.9 * (double)run->dev.free_bytes)
    fatal(EXIT_WRONG, "%s needs about %.1f GB of device memory, %.1f GB are free: use a smaller --n",
          pt, need / 1e9, (double)run->dev.free_bytes / 1e9);
  unsigned char *base = backend_alloc(cuda, off_at + off_bytes, "segmented input and offsets");
  struct input in = {base, base + o->offset * c->es, n, cuda};
  uint64_t *off = (uint64_t *)(void *)(base + off_at);
  fill_random(&in, o->type, RANDOM_SEED);
  if (cuda)
    bench_cuda_copy_to_device(off, l.off, off_bytes);
  else
    memcpy(off, l.off, off_bytes);
  c->out = backend_alloc(cuda, out_bytes, "segmented outputs");
  c->cub = cuda ? bench_cub_seg_create(o->type, o->op, o->flags, segments) : NULL;
  const struct vectors v = {{in.x, segments, 0, 0, 0, off, l.off[segments]}, l.off, l.longest, pt};
  measure_vectors(c, &v, &p);
  /* The offsets are valid: the sticky error of the row's calls must be clear. */
  const gpureduce_status_t async = gpureduce_get_async_error(run->h);
  if (async != GPUREDUCE_SUCCESS) {
    const char *name = gpureduce_status_name(async);
    report_failed(run, "gpureduce_get_async_error (valid offsets)", pt, async);
    snprintf(p.check, sizeof p.check, "FAILED:async:%s", name ? name : "unknown status");
  }
  if (cuda) bench_cuda_sync("the row's last calls");
  backend_free(cuda, base);
  backend_free(cuda, c->out);
  bench_cub_seg_destroy(c->cub);
  c->cub = NULL;
  struct row *r = table_add(t);
  set_text(r, SG_DIST, "%s", dt);
  set_text(r, SG_KIND, "%s", dist_kind_name(d));
  if (d->kind == SEG_UNIFORM || d->kind == SEG_RANDOM) set_num(r, SG_LENGTH, (double)d->length);
  set_text(r, SG_SEGMENTS_LABEL, "%s", label_n(segments, dt, sizeof dt));
  set_num(r, SG_SEGMENTS, (double)segments);
  set_num(r, SG_N, (double)n);
  set_num(r, SG_MIN, (double)l.min);
  set_num(r, SG_MAX, (double)l.max);
  set_num(r, SG_MEAN, (double)n / (double)segments);
  set_num(r, SG_EMPTY, (double)l.empty);
  /* GB/s: the input, the offsets and the output */
  vector_cells(c, r, SG_COUNT, &p,
               (double)n * c->es + 8.0 * ((double)segments + 1) + (double)segments * c->rs);
  free(l.off);
  return p.status != GPUREDUCE_SUCCESS;
}

int run_segments(struct run *run) {
  const struct options *o = run->opt;
  const size_t n = o->n ? o->n : run->cuda ? SWEEP_ELEMENTS_CUDA : SWEEP_ELEMENTS_HOST;
  struct seg_dist dists[SWEEP_DISTS];
  struct vectors_ctx c;
  struct table t;
  int failed = 0;
  char nl[32], dt[96], gbs[200];
  const int count = o->sweep ? sweep_dists(n, dists) : 1;
  if (!o->sweep) dists[0] = o->dist;
  if (o->sweep)
    add_head(run, "sweep-segments: %s elements, %d distributions", label_n(n, nl, sizeof nl),
             count);
  else
    add_head(run, "segments: %s over %s elements", dist_text(&o->dist, dt, sizeof dt),
             label_n(n, nl, sizeof nl));
  vectors_open(&c, run, 1);
  vectors_table(&c, &t, seg_columns, SG_COUNT);
  for (int i = 0; i < count; ++i) failed += seg_row(&c, &dists[i], n, &t);
  progress(" ");
  snprintf(gbs, sizeof gbs,
           "GB/s: (n x %zu input + 8 x (segments + 1) offset + segments x %zu result bytes) / "
           "time; lengths from a fixed seed, the huge segment in the middle",
           c.es, c.rs);
  vectors_lines(&c, "segment", failed, count, gbs);
  print_report(run, &t);
  vectors_close(&c);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}
