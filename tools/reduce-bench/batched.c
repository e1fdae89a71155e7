/*
 * batched.c - reduce-bench --batch and --sweep-batched (see modes.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * A shape is `batch` vectors of n elements: the rows of a batch x n
 * row-major matrix with leading dimension ld (batch_stride ld,
 * element_stride 1), or the columns of an n x batch one (batch_stride 1,
 * element_stride ld), timed and checked as vectors.h says on one random
 * input of the largest matrix.
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
#include "modes.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "vectors.h"

#define SWEEP_ELEMENTS_CUDA ((size_t)1 << 28)
#define SWEEP_ELEMENTS_HOST ((size_t)1 << 24)
#define MAX_SHAPES 40

/* The row lengths of --sweep-batched (below its element count; then one
 * row of all of them). */
static const size_t sweep_lengths[] = {
    1, 2, 4, 8, 32, 128, 512, 4096, 65536, (size_t)1 << 20, (size_t)1 << 24};

enum layout { LAYOUT_ROWS, LAYOUT_COLUMNS, LAYOUT_MISALIGNED, LAYOUT_COUNT };
static const char *const layout_names[LAYOUT_COUNT] = {"rows", "columns", "misaligned"};

struct shape {
  enum layout layout; /* LAYOUT_MISALIGNED: rows, ld = n + 1 */
  size_t n, batch, ld;
};

/* The matrix's elements from its first to its last. */
static size_t shape_span(const struct shape *s) {
  return s->layout == LAYOUT_COLUMNS ? (s->n - 1) * s->ld + s->batch : (s->batch - 1) * s->ld + s->n;
}

/* The shapes: --batch's one, or --sweep-batched's elements as rows of each
 * length, as columns, and as misaligned rows (ld = n + 1, n >= 2). */
static int batched_shapes(const struct options *o, size_t total, struct shape *shapes) {
  if (!o->sweep) {
    shapes[0] = (struct shape){o->columns ? LAYOUT_COLUMNS : LAYOUT_ROWS, o->n, o->batch,
                               o->stride ? o->stride : o->columns ? o->batch : o->n};
    return 1;
  }
  size_t lengths[sizeof sweep_lengths / sizeof sweep_lengths[0] + 1];
  int nl = 0, count = 0;
  for (size_t i = 0; i < sizeof sweep_lengths / sizeof sweep_lengths[0]; ++i)
    if (sweep_lengths[i] < total) lengths[nl++] = sweep_lengths[i];
  lengths[nl++] = total;
  for (int l = 0; l < LAYOUT_COUNT; ++l)
    for (int i = 0; i < nl; ++i) {
      struct shape s = {(enum layout)l, lengths[i], total / lengths[i], 0};
      if (l == LAYOUT_MISALIGNED && s.n < 2) continue;
      s.ld = l == LAYOUT_ROWS ? s.n : l == LAYOUT_COLUMNS ? s.batch : s.n + 1;
      if (count < MAX_SHAPES) shapes[count++] = s;
    }
  return count;
}

enum { BC_LAYOUT, BC_N_LABEL, BC_N, BC_BATCH_LABEL, BC_BATCH, BC_LD, BC_COUNT };

static const struct column batched_columns[BC_COUNT] = {
    [BC_LAYOUT] = {"layout", "layout", 0, SHOW_ALL, 1},
    [BC_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 0},
    [BC_N] = {"n", "n", 0, SHOW_DATA, 0},
    [BC_BATCH_LABEL] = {"batch_label", "batch", 0, SHOW_TEXT, 0},
    [BC_BATCH] = {"batch", "batch", 0, SHOW_DATA, 0},
    [BC_LD] = {"ld", "ld", 0, SHOW_ALL, 0},
};

int run_batched(struct run *run) {
  const struct options *o = run->opt;
  const int cuda = run->cuda;
  const size_t total = o->n ? o->n : cuda ? SWEEP_ELEMENTS_CUDA : SWEEP_ELEMENTS_HOST;
  const size_t es = gpureduce_type_size(o->type), rs = gpureduce_result_size(o->type, o->op, o->flags);
  struct shape shapes[MAX_SHAPES];
  struct vectors_ctx c;
  struct table t;
  int failed = 0;
  char nl[32], st[96];
  const int count = batched_shapes(o, total, shapes);
  if (o->sweep)
    add_head(run, "sweep-batched: %s elements as rows (ld = n), columns of an n x batch matrix "
                  "(ld = batch) and misaligned rows (ld = n + 1)",
             label_n(total, nl, sizeof nl));
  size_t span = 1, batch = 1, column = 1;
  for (int i = 0; i < count; ++i) {
    if (shape_span(&shapes[i]) > span) span = shape_span(&shapes[i]);
    if (shapes[i].batch > batch) batch = shapes[i].batch;
    if (shapes[i].layout == LAYOUT_COLUMNS && shapes[i].n > column) column = shapes[i].n;
  }
  /* Fail early and clearly rather than at the third cudaMalloc. */
  const double need = ((double)span + o->offset) * es + (double)batch * (rs + 16) +
                      (o->check ? (double)column * es : 0.0);
  if (cuda && need > 0.9 * (double)run->dev.free_bytes)
    fatal(EXIT_WRONG,
          "the %s needs about %.1f GB of device memory, %.1f GB are free: use a smaller %s",
          o->sweep ? "sweep" : "matrix", need / 1e9, (double)run->dev.free_bytes / 1e9,
          o->sweep ? "--n" : "--batch or --n");
  struct input in = input_alloc(cuda, o->type, span, o->offset, "batched input");
  fill_random(&in, o->type, RANDOM_SEED);
  void *out = backend_alloc(cuda, batch * rs, "batched outputs");
  struct bench_cub_seg *cub = cuda ? bench_cub_seg_create(o->type, o->op, o->flags, batch) : NULL;
  vectors_open(&c, run, column);
  c.out = out;
  c.cub = cub;
  vectors_table(&c, &t, batched_columns, BC_COUNT);
  for (int i = 0; i < count; ++i) {
    const struct shape *s = &shapes[i];
    struct vector_point p;
    snprintf(st, sizeof st, "%s, n = %zu, batch = %zu, ld = %zu", layout_names[s->layout], s->n,
             s->batch, s->ld);
    if (!o->sweep) add_head(run, "batched: %s", st);
    const struct vectors v = {{in.x, s->batch, s->n, s->ld, s->layout == LAYOUT_COLUMNS, NULL, 0},
                              NULL, 0, st};
    measure_vectors(&c, &v, &p);
    failed += p.status != GPUREDUCE_SUCCESS;
    struct row *r = table_add(&t);
    set_text(r, BC_LAYOUT, "%s", layout_names[s->layout]);
    set_text(r, BC_N_LABEL, "%s", label_n(s->n, nl, sizeof nl));
    set_num(r, BC_N, (double)s->n);
    set_text(r, BC_BATCH_LABEL, "%s", label_n(s->batch, nl, sizeof nl));
    set_num(r, BC_BATCH, (double)s->batch);
    set_num(r, BC_LD, (double)s->ld);
    /* GB/s: input plus output */
    vector_cells(&c, r, BC_COUNT, &p, (double)s->batch * s->n * es + (double)s->batch * rs);
  }
  progress(" ");
  char gbs[200];
  snprintf(gbs, sizeof gbs,
           "GB/s: (batch x n x %zu + batch x %zu result bytes) / time; probe GB/s: the matrix's "
           "bytes from its first element to its last, padding included, / time",
           es, rs);
  vectors_lines(&c, "vector", failed, count, gbs);
  print_report(run, &t);
  vectors_close(&c);
  bench_cub_seg_destroy(cub);
  backend_free(cuda, out);
  input_free(&in);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}
