/*
 * dot.c - reduce-bench --op dot (see modes.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * x and y are random (bench_fill_random, two seeds) and allocated once at
 * the largest n; each point reduces their first n elements, x at --offset
 * elements into its allocation and y at 0.  GB/s counts both inputs read:
 * 2 n sizeof(element) bytes.  Time: the median of --repeat batches of 20
 * back-to-back calls, after 3 warm-up calls, each side on its own.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cuda.h"
#include "checks.h"
#include "cublas.h"
#include "modes.h"
#include "options.h"
#include "reference.h"
#include "report.h"
#include "run.h"
#include "timing.h"

#define DOT_MAX_N ((size_t)1 << 30)         /* CUDA */
#define DOT_HOST_MAX_N ((size_t)1 << 24)    /* host backend */
#define DOT_REFERENCE_MAX ((size_t)1 << 26) /* the reference checks up to this n */
#define SEED_X RANDOM_SEED
#define SEED_Y 0x9e3779b97f4a7c15ull

enum {
  DC_N_LABEL,
  DC_N,
  DC_BYTES,
  DC_GR_US,
  DC_GR_GBS,
  DC_BLAS_US,
  DC_BLAS_GBS,
  DC_SPEEDUP,
  DC_CHECK,
  DC_RESULT,
  DC_COUNT
};

static const struct column dot_columns[DC_COUNT] = {
    [DC_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 1},
    [DC_N] = {"n", "n", 0, SHOW_DATA, 0},
    [DC_BYTES] = {"bytes", "bytes", 0, SHOW_ALL, 0},
    [DC_GR_US] = {"gpureduce_us", "gr us", 2, SHOW_ALL, 0},
    [DC_GR_GBS] = {"gpureduce_gbs", "gr GB/s", 1, SHOW_ALL, 0},
    [DC_BLAS_US] = {"cublas_us", "cublas us", 2, SHOW_ALL, 0},
    [DC_BLAS_GBS] = {"cublas_gbs", "cublas GB/s", 1, SHOW_ALL, 0},
    [DC_SPEEDUP] = {"gpureduce_vs_cublas", "gr/cublas", 2, SHOW_ALL, 0},
    [DC_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
    [DC_RESULT] = {"result_bits", "result", 0, SHOW_DATA, 1},
};

struct dot_call {
  const void *x, *y;
  void *out;
  size_t n;
  gpureduce_type_t type;
  unsigned flags;
  gpureduce_handle_t h;
};

static void run_gr_dot(void *arg) {
  const struct dot_call *c = arg;
  const gpureduce_status_t s = gpureduce_dot(c->x, c->y, c->out, c->n, c->type, c->flags, c->h);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_dot");
}

struct blas_call {
  struct bench_cublas *blas;
  const void *x, *y;
  void *out;
  size_t n;
  gpureduce_type_t type;
};

static void run_blas_dot(void *arg) {
  const struct blas_call *c = arg;
  bench_cublas_dot(c->blas, c->type, c->n, c->x, c->y, c->out);
}

int run_dot(struct run *run) {
  const struct options *o = run->opt;
  const gpureduce_type_t type = o->type;
  const size_t es = gpureduce_type_size(type), rs = gpureduce_result_size(type, GPUREDUCE_SUM, o->flags);
  size_t ns[40], count = 1;
  ns[0] = o->n;
  if (o->sweep)
    count = (size_t)sweep_sizes(o->n ? o->n : run->cuda ? DOT_MAX_N : DOT_HOST_MAX_N, 0, ns);
  const size_t max_n = ns[count - 1];
  struct input x = input_alloc(run->cuda, type, max_n, o->offset, "x");
  struct input y = input_alloc(run->cuda, type, max_n, 0, "y");
  fill_random(&x, type, SEED_X);
  fill_random(&y, type, SEED_Y);
  void *out = backend_alloc(run->cuda, RESULT_MAX, "output");
  void *blas_out = run->cuda ? backend_alloc(1, RESULT_MAX, "cuBLAS output") : NULL;
  /* host copies for the reference */
  const size_t ref_n = max_n < DOT_REFERENCE_MAX ? max_n : DOT_REFERENCE_MAX;
  const void *hx = x.x, *hy = y.x;
  void *hx_copy = NULL, *hy_copy = NULL;
  if (run->cuda && o->check) {
    hx_copy = xmalloc_aligned(ref_n * es);
    hy_copy = xmalloc_aligned(ref_n * es);
    bench_cuda_copy_to_host(hx_copy, x.x, ref_n * es);
    bench_cuda_copy_to_host(hy_copy, y.x, ref_n * es);
    hx = hx_copy;
    hy = hy_copy;
  }
  struct bench_cublas *blas =
      run->cuda && bench_cublas_has_dot(type, o->flags) ? bench_cublas_create() : NULL;
  add_head(run, "dot product: gpureduce_dot beside %s; GB/s = 2 n x %zu bytes (x and y) / time",
           blas ? bench_cublas_dot_name(type)
                : run->cuda ? "no cuBLAS (not built, or none for this type)" : "nothing (host)",
           es);
  if (blas && type != GPUREDUCE_F32 && type != GPUREDUCE_F64)
    add_note(run, "cublasDotEx returns its result in %s; gpureduce in float",
             gpureduce_type_name(type));

  struct table t;
  table_init(&t, dot_columns, DC_COUNT);
  t.enabled[DC_BLAS_US] = t.enabled[DC_BLAS_GBS] = t.enabled[DC_SPEEDUP] = blas != NULL;
  const struct timing tm = batch_timing(o->repeat);
  for (size_t k = 0; k < count; ++k) {
    const size_t n = ns[k];
    char nl[32];
    progress("dot %s n = %s", gpureduce_type_name(type), label_n(n, nl, sizeof nl));
    struct row *r = table_add(&t);
    set_text(r, DC_N_LABEL, "%s", label_n(n, nl, sizeof nl));
    set_num(r, DC_N, (double)n);
    const uint64_t bytes = 2 * (uint64_t)n * es;
    set_num(r, DC_BYTES, (double)bytes);
    struct dot_call gc = {x.x, y.x, out, n, type, o->flags, run->h};
    const double gr_ms = median_ms(&run->ck, &tm, run_gr_dot, &gc);
    set_num(r, DC_GR_US, gr_ms * 1e3);
    set_num(r, DC_GR_GBS, gbps(bytes, gr_ms));
    if (blas) {
      struct blas_call bc = {blas, x.x, y.x, blas_out, n, type};
      const double blas_ms = median_ms(&run->ck, &tm, run_blas_dot, &bc);
      set_num(r, DC_BLAS_US, blas_ms * 1e3);
      set_num(r, DC_BLAS_GBS, gbps(bytes, blas_ms));
      set_num(r, DC_SPEEDUP, blas_ms / gr_ms);
    }
    /* the result, once more into a poisoned output, against the reference */
    unsigned char bits[16] = {0};
    poison_buffer(run->cuda, out, 16);
    run_gr_dot(&gc);
    if (run->cuda)
      bench_cuda_copy_to_host(bits, out, rs);
    else
      memcpy(bits, out, rs);
    uint64_t got = 0;
    memcpy(&got, bits, rs);
    set_text(r, DC_RESULT, "0x%0*" PRIx64, (int)(2 * rs), got);
    if (!o->check || n > ref_n) {
      set_text(r, DC_CHECK, "%s", o->check ? "not checked (n > 2^26)" : "off");
      continue;
    }
    struct ref_answer w;
    if (ref_dot(hx, hy, n, type, o->flags, &w) != 0)
      fatal(EXIT_WRONG, "the reference has no dot product for %s at n = %zu",
            gpureduce_type_name(type), n);
    if (w.bits == got) {
      set_text(r, DC_CHECK, "ok (reference bits)");
    } else {
      ++run->wrong;
      message("WRONG: gpureduce_dot, n = %zu: got 0x%" PRIx64 ", the reference's bits are 0x%" PRIx64,
              n, got, w.bits);
      set_text(r, DC_CHECK, "WRONG");
    }
  }
  print_report(run, &t);
  bench_cublas_destroy(blas);
  free(hx_copy);
  free(hy_copy);
  backend_free(run->cuda, out);
  if (blas_out) backend_free(1, blas_out);
  input_free(&x);
  input_free(&y);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}
