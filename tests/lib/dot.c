/*
 * dot.c - the tests of gpureduce_dot() and gpureduce_dot_batched() both
 * backends must pass (dot.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "dot.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* ---- the backend and its buffers ------------------------------------------ */

static const struct tu_backend *B;
static gpureduce_handle_t HH; /* battery_host_handle(): NULL on the host backend */

/* backend memory: x's and y's buffers, the results; host memory: their
 * images, the results read back, the host handle's results, one row of x
 * and of y */
static struct bt_room x_mem, y_mem, out_mem;
static struct bt_room x_img = {.host = 1}, y_img = {.host = 1}, got = {.host = 1},
                      host_got = {.host = 1}, x_row = {.host = 1}, y_row = {.host = 1};

#define PAD 256     /* poison bytes before the lowest element and after the highest */
#define CANARY 64   /* bytes after the results */
#define OUT_FILL 0xC3

void dot_use(const struct tu_backend *backend) {
  B = backend;
  battery_use(backend);
}

int dot_setup(void **state) {
  if (battery_setup(state)) return -1;
  HH = battery_host_handle();
  return 0;
}

int dot_teardown(void **state) {
  struct bt_room *rooms[] = {&x_mem, &y_mem, &out_mem, &x_img, &y_img,
                             &got,   &host_got, &x_row, &y_row};
  for (size_t k = 0; k < COUNT(rooms); ++k) bt_room_free(rooms[k]);
  HH = NULL; /* battery_teardown destroys it */
  return battery_teardown(state);
}

/* ---- one call ---------------------------------------------------------------- */

/* The layout of a call: `batch` rows of n elements, row b of x at
 * b*x_stride elements from x (likewise y), x's lowest element x_offset
 * elements past a 256-byte aligned address (likewise y).  one: call
 * gpureduce_dot() (batch 1). */
struct dt_layout {
  size_t batch, n;
  int64_t x_stride, y_stride;
  size_t x_offset, y_offset;
  int one;
  const char *what;
};

/* The elements: bits of element i of row b of input q (0: x, 1: y). */
typedef uint64_t (*dt_value_fn)(void *ctx, int q, size_t b, size_t i);

/* One input's buffer: its elements from the lowest to the highest, in
 * elements from row 0's element 0 (lo <= 0 <= hi). */
struct span {
  int64_t lo, hi;
  size_t base;  /* row 0's element 0, in elements from the buffer's start */
  size_t total; /* elements in the buffer */
};

static struct span span_of(size_t batch, size_t n, int64_t stride, size_t offset, unsigned es) {
  struct span s;
  const int64_t last = (int64_t)(batch - 1) * stride;
  s.lo = last < 0 ? last : 0;
  s.hi = (last > 0 ? last : 0) + (int64_t)(n ? n - 1 : 0);
  s.base = PAD / es + offset + (size_t)(-s.lo);
  s.total = s.base + (size_t)s.hi + 1 + PAD / es;
  return s;
}

/* Fill input q's image (poison everywhere else) and its backend copy. */
static void place(int q, const struct dt_layout *L, const struct span *sp, gpureduce_type_t type,
                  dt_value_fn value, void *ctx) {
  const unsigned es = TU_TYPE(type)->size;
  struct bt_room *img = q ? &y_img : &x_img, *mem = q ? &y_mem : &x_mem;
  const int64_t stride = q ? L->y_stride : L->x_stride;
  unsigned char *im = bt_room_for(img, sp->total * es);
  const uint64_t poison = bt_poison(type, GPUREDUCE_SUM);
  for (size_t k = 0; k < sp->total; ++k) tu_store(im, k, es, poison);
  for (size_t b = 0; b < L->batch; ++b)
    for (size_t i = 0; i < L->n; ++i)
      tu_store(im, (size_t)((int64_t)sp->base + (int64_t)b * stride + (int64_t)i), es,
               value(ctx, q, b, i));
  B->put(bt_room_for(mem, sp->total * es), im, sp->total * es);
}

/* Row b of input q, contiguous in host memory (from the image). */
static const void *row_of(int q, const struct dt_layout *L, const struct span *sp,
                          gpureduce_type_t type, size_t b) {
  const unsigned es = TU_TYPE(type)->size;
  const int64_t stride = q ? L->y_stride : L->x_stride;
  unsigned char *dst = bt_room_for(q ? &y_row : &x_row, L->n * es);
  const unsigned char *im = (q ? &y_img : &x_img)->p;
  if (L->n) memcpy(dst, im + ((int64_t)sp->base + (int64_t)b * stride) * (int64_t)es, L->n * es);
  return dst;
}

/* The call on handle h with x, y in its memory (buffers at xb, yb). */
static gpureduce_status_t call(gpureduce_handle_t h, const struct dt_layout *L,
                               const struct span *xs, const struct span *ys, unsigned es,
                               const unsigned char *xb, const unsigned char *yb, void *out,
                               gpureduce_type_t type, unsigned flags) {
  const void *x = xb + xs->base * es, *y = yb + ys->base * es;
  if (L->one) return gpureduce_dot(x, y, out, L->n, type, flags, h);
  return gpureduce_dot_batched(x, y, out, L->batch, L->n, L->x_stride, L->y_stride, type, flags,
                               h);
}

/* Rows checked against the reference and the 1-D call: all of the first
 * 64 and the last 16, and every 97th between. */
static int checked_row(size_t b, size_t batch) { return b < 64 || b + 16 >= batch || b % 97 == 0; }

static const char *kind(gpureduce_type_t type, unsigned flags) {
  return bt_kind_name(type, GPUREDUCE_SUM, flags);
}

/* Run the layout with the given elements and check every result: the
 * canary, the reference (exact bits, the error bound), the 1-D call on
 * each checked row (batched calls), the host backend (CUDA).  Returns row
 * 0's result. */
static uint64_t run_layout(const struct dt_layout *L, gpureduce_type_t type, unsigned flags,
                           dt_value_fn value, void *ctx) {
  const unsigned es = TU_TYPE(type)->size;
  const size_t rs = tu_result_size(type, GPUREDUCE_SUM, flags);
  const struct span xs = span_of(L->batch, L->n, L->x_stride, L->x_offset, es);
  const struct span ys = span_of(L->batch, L->n, L->y_stride, L->y_offset, es);
  place(0, L, &xs, type, value, ctx);
  place(1, L, &ys, type, value, ctx);
  const size_t out_bytes = L->batch * rs + CANARY;
  unsigned char *g = bt_room_for(&got, out_bytes);
  memset(g, OUT_FILL, out_bytes);
  void *out = bt_room_for(&out_mem, out_bytes);
  B->put(out, g, out_bytes);
  const gpureduce_handle_t h = battery_handle();
  const gpureduce_status_t s = call(h, L, &xs, &ys, es, x_mem.p, y_mem.p, out, type, flags);
  check_status(GPUREDUCE_SUCCESS, s, "%s dot, %s (batch %zu, n %zu): status (%s)",
               kind(type, flags), L->what, L->batch, L->n, gpureduce_last_message(h));
  B->get(g, out, out_bytes);
  check_bytes(g + L->batch * rs, OUT_FILL, CANARY, "%s dot, %s: the canary after the results",
              kind(type, flags), L->what);
  if (HH) { /* the host backend's bits */
    unsigned char *hg = bt_room_for(&host_got, L->batch * rs);
    check_status(GPUREDUCE_SUCCESS,
                 call(HH, L, &xs, &ys, es, x_img.p, y_img.p, hg, type, flags),
                 "%s dot, %s: the host backend's status", kind(type, flags), L->what);
    for (size_t b = 0; b < L->batch; ++b)
      check_bits(tu_load(hg, b, (unsigned)rs), tu_load(g, b, (unsigned)rs),
                 "%s dot, %s, row %zu: the host backend's bits", kind(type, flags), L->what, b);
  }
  for (size_t b = 0; b < L->batch; ++b) {
    if (!checked_row(b, L->batch)) continue;
    const uint64_t r = tu_load(g, b, (unsigned)rs);
    const void *x = row_of(0, L, &xs, type, b), *y = row_of(1, L, &ys, type, b);
    struct ref_answer w;
    const int rc = ref_dot(x, y, L->n, type, flags, &w);
    if (rc) fail_msg("the reference has no dot product for %s (%d)", kind(type, flags), rc);
    if (w.has_bound)
      check_near(w.exact, ref_result_value(w.result_bytes, r), w.bound,
                 "%s dot, %s, row %zu (n %zu): within the stated bound", kind(type, flags),
                 L->what, b, L->n);
    check_bits(w.bits, r, "%s dot, %s, row %zu (n %zu): the reference's bits", kind(type, flags),
               L->what, b, L->n);
    if (!L->one) { /* the row alone, through the 1-D call, in place */
      unsigned char one[16];
      memset(one, OUT_FILL, sizeof one);
      void *o1 = (unsigned char *)out + L->batch * rs; /* the canary's room, rewritten below */
      B->put(o1, one, rs);
      const unsigned char *xr =
          (const unsigned char *)x_mem.p + ((int64_t)xs.base + (int64_t)b * L->x_stride) * es;
      const unsigned char *yr =
          (const unsigned char *)y_mem.p + ((int64_t)ys.base + (int64_t)b * L->y_stride) * es;
      check_status(GPUREDUCE_SUCCESS, gpureduce_dot(xr, yr, o1, L->n, type, flags, h),
                   "%s dot, %s, row %zu alone: status", kind(type, flags), L->what, b);
      B->get(one, o1, rs);
      check_bits(tu_load(one, 0, (unsigned)rs), r,
                 "%s dot, %s, row %zu: the bits of gpureduce_dot on the row alone",
                 kind(type, flags), L->what, b);
    }
  }
  return tu_load(g, 0, (unsigned)rs);
}

/* ---- data -------------------------------------------------------------------- */

/* Random elements of generator gen, drawn once per layout into two tables
 * of `count` elements (x's and y's), element (b, i) at (b * n + i) %
 * count. */
struct dt_random {
  gpureduce_type_t type;
  size_t n, count;
  void *x, *y;
};

static uint64_t random_value(void *ctx, int q, size_t b, size_t i) {
  const struct dt_random *d = ctx;
  const size_t k = (b * d->n + i) % d->count;
  return tu_load(q ? d->y : d->x, k, TU_TYPE(d->type)->size);
}

static struct dt_random random_make(gpureduce_type_t type, size_t n, size_t count,
                                      enum tc_gen gen, const char *label) {
  struct dt_random d = {type, n ? n : 1, count ? count : 1, NULL, NULL};
  tu_rng r;
  tu_rng_init(&r, label);
  d.x = tu_alloc(d.count * TU_TYPE(type)->size);
  d.y = tu_alloc(d.count * TU_TYPE(type)->size);
  tc_fill(&r, type, gen, d.x, d.count);
  tc_fill(&r, type, gen, d.y, d.count);
  return d;
}

static void random_free(struct dt_random *d) {
  free(d->x);
  free(d->y);
}

/* Random data of gen for the layout: every element drawn (up to 2^20 of
 * them, repeating beyond). */
static void check_random(const struct dt_layout *L, gpureduce_type_t type, unsigned flags,
                         enum tc_gen gen) {
  const size_t all = L->batch * L->n;
  char label[96];
  snprintf(label, sizeof label, "dot %s %s", kind(type, flags), L->what);
  struct dt_random d = random_make(type, L->n, all < ((size_t)1 << 20) ? all : (size_t)1 << 20,
                                     gen, label);
  run_layout(L, type, flags, random_value, &d);
  random_free(&d);
}

/* The floating kinds: f16, bf16, f32 in float; f32 in double; f64. */
static const struct tc_kind float_kinds[] = {{GPUREDUCE_F16, 0},
                                             {GPUREDUCE_BF16, 0},
                                             {GPUREDUCE_F32, 0},
                                             {GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64},
                                             {GPUREDUCE_F64, 0}};

/* Data whose products stay normal in float (bf16 shares float's exponent
 * range: G_WIDE's products could underflow, which the bound does not
 * cover). */
static enum tc_gen float_gen(gpureduce_type_t type) {
  return type == GPUREDUCE_BF16 ? G_MODERATE : G_WIDE;
}

static struct dt_layout one_layout(size_t n, size_t ox, size_t oy, const char *what) {
  return (struct dt_layout){1, n, 0, 0, ox, oy, 1, what};
}

void dt_check_shape(size_t batch, size_t n, int64_t x_stride, int64_t y_stride, size_t x_offset,
                    size_t y_offset, int one, gpureduce_type_t type, unsigned flags,
                    const char *what) {
  const struct dt_layout L = {batch, n, x_stride, y_stride, x_offset, y_offset, one, what};
  check_random(&L, type, flags, TU_TYPE(type)->is_float ? float_gen(type) : G_WIDE);
}

/* ---- tests: gpureduce_dot ------------------------------------------------------ */

/* dot(x, y) == SUM over z[i] = x[i]*y[i] rounded to the element type (f32,
 * f64), with x and y at every offset 0..15 elements, independently: the
 * 1-D call against gpureduce_reduce() of the products on the same handle
 * (and the reference, in run_layout). */
void dt_bit_identity(void **state) {
  (void)state;
  const gpureduce_type_t types[] = {GPUREDUCE_F32, GPUREDUCE_F64};
  for (size_t ti = 0; ti < COUNT(types); ++ti) {
    const gpureduce_type_t type = types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t n = 3 * tu_tile_elems(type) + 37; /* interior tiles and both edges */
    struct dt_random d = random_make(type, n, n, G_WIDE, "dot bit identity");
    unsigned char *z = tu_alloc(n * es);
    for (size_t i = 0; i < n; ++i) {
      const double a = tu_value(type, tu_load(d.x, i, es)), b = tu_value(type, tu_load(d.y, i, es));
      if (type == GPUREDUCE_F32) {
        volatile float p = (float)a * (float)b; /* rounded to float, not fused */
        tu_store(z, i, 4, tu_f32_bits(p));
      } else {
        volatile double p = a * b;
        tu_store(z, i, 8, tu_f64_bits(p));
      }
    }
    bt_result sum_result;
    check_status(GPUREDUCE_SUCCESS,
                 battery_reduce(z, n, type, GPUREDUCE_SUM, 0, 0, 0, &sum_result),
                 "%s sum of the rounded products", TU_TYPE(type)->name);
    for (size_t ox = 0; ox < 16; ++ox)
      for (size_t oy = 0; oy < 16; ++oy) {
        char what[64];
        snprintf(what, sizeof what, "x at offset %zu, y at offset %zu", ox, oy);
        const struct dt_layout L = one_layout(n, ox, oy, what);
        check_bits(sum_result.w[0], run_layout(&L, type, 0, random_value, &d),
                   "%s dot, %s: the bits of SUM over the rounded products", TU_TYPE(type)->name,
                   what);
      }
    free(z);
    random_free(&d);
  }
}

/* Every type (and f32 in double) at sizes across the kernels' regimes
 * (tc_sizes: up to 5 tiles +- 1), against the reference; integers of
 * random bits wrap. */
void dt_types_random(void **state) {
  (void)state;
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const int is_float = TU_TYPE(type)->is_float;
    size_t sizes[TC_MAX_SIZES];
    const size_t ns = tc_sizes(type, sizes);
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
      if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
      for (size_t k = 0; k < ns; ++k) {
        char what[64];
        snprintf(what, sizeof what, "random n=%zu, offsets 3 and 5", sizes[k]);
        const struct dt_layout L = one_layout(sizes[k], 3, 5, what);
        check_random(&L, type, flags, is_float ? float_gen(type) : G_WIDE);
      }
    }
  }
}

/* The order's boundaries for f32: chunks, warps, a lane round, the tile
 * (2048 chunks), groups of tiles, at offsets (1, 0) and (0, 2). */
void dt_sizes(void **state) {
  (void)state;
  const size_t t = tu_tile_elems(GPUREDUCE_F32);
  const size_t sizes[] = {2,     3,     4,         5,         127,       128,     129,
                          1023,  1024,  1025,      t - 1,     t,         t + 1,   2 * t - 1,
                          2 * t, 2 * t + 1, 8 * t + 3, 33 * t - 1, 64 * t + 5};
  for (size_t k = 0; k < COUNT(sizes); ++k)
    for (int o = 0; o < 2; ++o) {
      char what[64];
      snprintf(what, sizeof what, "n=%zu, offsets %d and %d", sizes[k], o, 2 * !o);
      const struct dt_layout L = one_layout(sizes[k], (size_t)o, (size_t)(2 * !o), what);
      check_random(&L, GPUREDUCE_F32, 0, G_WIDE);
      if (sizes[k] < 2 * t + 2) check_random(&L, GPUREDUCE_F64, 0, G_WIDE);
    }
}

/* Hand-written vectors (x at 0, y at 1 in a table of pairs). */
struct pairs {
  gpureduce_type_t type;
  const double *x, *y;
};

static uint64_t pair_value(void *ctx, int q, size_t b, size_t i) {
  (void)b;
  const struct pairs *p = ctx;
  return tu_pattern(p->type, q ? p->y[i] : p->x[i]);
}

static void expect_pairs(gpureduce_type_t type, unsigned flags, const double *x, const double *y,
                         size_t n, double wanted, const char *what) {
  struct pairs p = {type, x, y};
  const struct dt_layout L = one_layout(n, 1, 2, what);
  const uint64_t got_bits = run_layout(&L, type, flags, pair_value, &p);
  check_bits(bt_result_pattern(type, GPUREDUCE_SUM, flags, wanted), got_bits, "%s dot of %s",
             kind(type, flags), what);
}

/* n = 0 gives +0 (NULL or valid pointers), n = 1 the product. */
void dt_empty_and_one(void **state) {
  (void)state;
  unsigned char dummy[16] = {0};
  const gpureduce_handle_t h = battery_handle();
  void *out = bt_room_for(&out_mem, 16);
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
      const size_t rs = tu_result_size(type, GPUREDUCE_SUM, flags);
      if (!rs) continue;
      for (int with_ptr = 0; with_ptr < 2; ++with_ptr) {
        unsigned char ob[16];
        memset(ob, OUT_FILL, sizeof ob);
        B->put(out, ob, sizeof ob);
        const void *p = with_ptr ? dummy : NULL;
        check_status(GPUREDUCE_SUCCESS, gpureduce_dot(p, p, out, 0, type, flags, h),
                     "%s dot of n=0 (%s pointers)", kind(type, flags), with_ptr ? "valid" : "NULL");
        B->get(ob, out, sizeof ob);
        check_bits(0, tu_load(ob, 0, (unsigned)rs), "%s dot of n=0 is +0", kind(type, flags));
        check_bytes(ob + rs, OUT_FILL, sizeof ob - rs, "%s dot of n=0: nothing after the result",
                    kind(type, flags));
      }
    }
  }
  const double x3[] = {3}, y3[] = {-0.5};
  for (size_t k = 0; k < COUNT(float_kinds); ++k)
    expect_pairs(float_kinds[k].type, float_kinds[k].flags, x3, y3, 1, -1.5, "{3} and {-0.5}");
  /* the header's example */
  const double x[] = {1, 2, 3}, y[] = {4, -5, 0.5};
  expect_pairs(GPUREDUCE_F32, 0, x, y, 3, -4.5, "{1, 2, 3} and {4, -5, 0.5}");
}

/* NaN, +-0 and +-inf in products, at n = 1000 (one tile) and across a
 * tile boundary. */
void dt_special_values(void **state) {
  (void)state;
  const size_t sizes[] = {1000, 9000};
  for (size_t si = 0; si < COUNT(sizes); ++si) {
    const size_t n = sizes[si];
    double *x = tu_alloc(n * sizeof *x), *y = tu_alloc(n * sizeof *y);
    for (size_t k = 0; k < COUNT(float_kinds); ++k) {
      const gpureduce_type_t type = float_kinds[k].type;
      const unsigned flags = float_kinds[k].flags;
      char what[96];
      for (size_t i = 0; i < n; ++i) {
        x[i] = (double)(i % 7) - 3; /* small integers: every sum exact */
        y[i] = (double)(i % 5) - 2;
      }
      double exact = 0;
      for (size_t i = 0; i < n; ++i) exact += x[i] * y[i];
      snprintf(what, sizeof what, "%zu small integers", n);
      expect_pairs(type, flags, x, y, n, exact, what);
      /* a NaN in x, a NaN in y, 0 * inf, inf - inf: the canonical NaN */
      const size_t p = n - 3, q = n / 2;
      x[p] = NAN;
      snprintf(what, sizeof what, "%zu values with a NaN at x[%zu]", n, p);
      expect_pairs(type, flags, x, y, n, NAN, what);
      x[p] = 1;
      y[q] = NAN;
      snprintf(what, sizeof what, "%zu values with a NaN at y[%zu]", n, q);
      expect_pairs(type, flags, x, y, n, NAN, what);
      y[q] = INFINITY;
      x[q] = 0;
      snprintf(what, sizeof what, "%zu values with 0 * inf at %zu", n, q);
      expect_pairs(type, flags, x, y, n, NAN, what);
      x[q] = -2;
      snprintf(what, sizeof what, "%zu values with -2 * inf at %zu", n, q);
      expect_pairs(type, flags, x, y, n, -INFINITY, what);
      x[p] = INFINITY;
      y[p] = 1;
      snprintf(what, sizeof what, "%zu values with -inf and +inf products", n);
      expect_pairs(type, flags, x, y, n, NAN, what);
      /* signed zeros: all products -0 give -0; one +0 among them gives +0 */
      for (size_t i = 0; i < n; ++i) {
        x[i] = i % 2 ? -0.0 : 0.0;
        y[i] = i % 2 ? 4.0 : -1.0;
      }
      snprintf(what, sizeof what, "%zu products all -0", n);
      expect_pairs(type, flags, x, y, n, -0.0, what);
      y[q | 1] = -4.0;
      snprintf(what, sizeof what, "%zu products -0 but one +0", n);
      expect_pairs(type, flags, x, y, n, 0.0, what);
    }
    free(x);
    free(y);
  }
}

/* dot(x, x) is SUM_SQUARES of x, bit for bit (the same pointer twice). */
void dt_same_vector(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  for (size_t k = 0; k < COUNT(float_kinds); ++k) {
    const gpureduce_type_t type = float_kinds[k].type;
    const unsigned flags = float_kinds[k].flags;
    const unsigned es = TU_TYPE(type)->size;
    const size_t rs = tu_result_size(type, GPUREDUCE_SUM, flags);
    const size_t n = 2 * tu_tile_elems(type) + 11;
    tu_rng r;
    tu_rng_init(&r, "dot same vector");
    unsigned char *x = tu_alloc(n * es);
    tc_fill(&r, type, float_gen(type), x, n);
    bt_result squares_result;
    check_status(GPUREDUCE_SUCCESS,
                 battery_reduce(x, n, type, GPUREDUCE_SUM_SQUARES, flags, 0, 0, &squares_result),
                 "%s sum_squares", kind(type, flags));
    void *xm = bt_room_for(&x_mem, n * es + 16);
    B->put((unsigned char *)xm + es, x, n * es);
    void *out = bt_room_for(&out_mem, 16);
    unsigned char ob[16];
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_dot((unsigned char *)xm + es, (unsigned char *)xm + es, out, n, type,
                               flags, h),
                 "%s dot(x, x)", kind(type, flags));
    B->get(ob, out, sizeof ob);
    check_bits(squares_result.w[0], tu_load(ob, 0, (unsigned)rs),
               "%s dot(x, x) has the bits of sum_squares",
               kind(type, flags));
    free(x);
  }
}

/* ---- tests: gpureduce_dot_batched ----------------------------------------------- */

/* Rows of lengths across the batched kernels' regimes (a warp a row up to
 * a tile, blocks over the tile groups of longer rows), dense and at
 * ld = n + 1 (rows at every alignment), for f32, f64, bf16 and i32. */
void dt_batched_rows(void **state) {
  (void)state;
  const gpureduce_type_t types[] = {GPUREDUCE_F32, GPUREDUCE_F64, GPUREDUCE_BF16, GPUREDUCE_I32};
  for (size_t ti = 0; ti < COUNT(types); ++ti) {
    const gpureduce_type_t type = types[ti];
    const size_t t = tu_tile_elems(type);
    const size_t lengths[] = {1, 2, 31, 100, 1000, t - 1, t, t + 1, 2 * t + 3, 5 * t};
    for (size_t li = 0; li < COUNT(lengths); ++li) {
      const size_t n = lengths[li];
      const size_t batch = n < 1000 ? 300 : n <= t + 1 ? 40 : 5;
      const struct dt_layout dense = {batch, n, (int64_t)n, (int64_t)n, 0, 0, 0, "dense rows"};
      const struct dt_layout mis = {batch, n, (int64_t)n + 1, (int64_t)n + 3, 1, 0, 0,
                                    "rows at ld n+1 and n+3"};
      check_random(&dense, type, 0, TU_TYPE(type)->is_float ? float_gen(type) : G_WIDE);
      check_random(&mis, type, 0, TU_TYPE(type)->is_float ? float_gen(type) : G_WIDE);
    }
  }
  /* f32 in double, f16 and u8 at a few lengths */
  const size_t n2[] = {5, 3000, 70000};
  for (size_t li = 0; li < COUNT(n2); ++li) {
    const struct dt_layout L = {7, n2[li], (int64_t)n2[li] + 1, (int64_t)n2[li], 3, 1, 0,
                                "7 rows at ld n+1 and n"};
    check_random(&L, GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64, G_WIDE);
    check_random(&L, GPUREDUCE_F16, 0, G_WIDE);
    check_random(&L, GPUREDUCE_U8, 0, G_WIDE);
  }
}

/* Strides: y's 0 (one vector against every row of x: a matrix-vector
 * product), negative (rows from the last up), overlapping rows (stride
 * below n), both 0, batch 1 through the batched call. */
void dt_batched_strides(void **state) {
  (void)state;
  const size_t ns[] = {17, 5000, 40000};
  for (size_t k = 0; k < COUNT(ns); ++k) {
    const size_t n = ns[k];
    const int64_t ni = (int64_t)n;
    const struct dt_layout layouts[] = {
        {9, n, ni, 0, 0, 1, 0, "x rows, y one vector (stride 0)"},
        {9, n, -(ni + 2), ni, 2, 0, 0, "x rows from the last up (stride -(n+2))"},
        {9, n, -ni, -(ni + 1), 1, 3, 0, "both negative"},
        {9, n, ni / 2 + 1, 3, 0, 0, 0, "overlapping rows (strides n/2+1 and 3)"},
        {9, n, 0, 0, 0, 0, 0, "both stride 0"},
        {1, n, 12345, -777, 1, 1, 0, "batch 1 through the batched call"},
    };
    for (size_t li = 0; li < COUNT(layouts); ++li) {
      check_random(&layouts[li], GPUREDUCE_F32, 0, G_WIDE);
      check_random(&layouts[li], GPUREDUCE_F64, 0, G_WIDE);
      check_random(&layouts[li], GPUREDUCE_I64, 0, G_WIDE);
    }
  }
}

/* Empty rows: n = 0 gives +0 for every row (the pointers may be NULL);
 * batch 0 writes nothing. */
void dt_batched_empty(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const size_t rs = tu_result_size(type, GPUREDUCE_SUM, 0);
    const size_t batch = 50, bytes = batch * rs + CANARY;
    unsigned char *g = bt_room_for(&got, bytes);
    void *out = bt_room_for(&out_mem, bytes);
    memset(g, OUT_FILL, bytes);
    B->put(out, g, bytes);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_dot_batched(NULL, NULL, out, batch, 0, 7, -7, type, 0, h),
                 "%s: 50 empty rows", TU_TYPE(type)->name);
    B->get(g, out, bytes);
    for (size_t b = 0; b < batch; ++b)
      check_bits(0, tu_load(g, b, (unsigned)rs), "%s: empty row %zu gives +0",
                 TU_TYPE(type)->name, b);
    check_bytes(g + batch * rs, OUT_FILL, CANARY, "%s: the canary after 50 empty rows",
                TU_TYPE(type)->name);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_dot_batched(NULL, NULL, out, 0, 5, 5, 5, type, 0, h),
                 "%s: batch 0", TU_TYPE(type)->name);
    B->get(g, out, bytes);
    check_bits(0, tu_load(g, 0, (unsigned)rs), "%s: batch 0 left the output as it was",
               TU_TYPE(type)->name);
  }
}

/* Errors on this backend leave the output untouched and say why (the
 * argument tests, tests/api/test-dot-args.c, cover every check on the host
 * handle). */
void dt_errors_leave_output(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  unsigned char *xm = bt_room_for(&x_mem, 4096), *ym = bt_room_for(&y_mem, 4096);
  unsigned char *out = bt_room_for(&out_mem, 64), ob[64];
  struct {
    const char *what, *word;
    gpureduce_status_t wanted;
    const void *x, *y;
    void *out;
    size_t n;
    gpureduce_type_t type;
    unsigned flags;
  } cases[] = {
      {"x misaligned", "aligned", GPUREDUCE_ERROR_INVALID_ARGUMENT, xm + 1, ym, out, 8, GPUREDUCE_F32, 0},
      {"y misaligned", "aligned", GPUREDUCE_ERROR_INVALID_ARGUMENT, xm, ym + 2, out, 8, GPUREDUCE_F64, 0},
      {"NULL y", "y is NULL", GPUREDUCE_ERROR_INVALID_ARGUMENT, xm, NULL, out, 8, GPUREDUCE_F32, 0},
      {"output inside y", "overlap", GPUREDUCE_ERROR_INVALID_ARGUMENT, xm, ym, ym + 64, 100,
       GPUREDUCE_F32, 0},
      {"f64 accumulate-f64", "f32", GPUREDUCE_ERROR_UNSUPPORTED, xm, ym, out, 8, GPUREDUCE_F64,
       GPUREDUCE_ACCUMULATE_F64},
      {"unknown flags", "flag", GPUREDUCE_ERROR_INVALID_ARGUMENT, xm, ym, out, 8, GPUREDUCE_F32,
       0x80},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    /* the output (inside y for the overlap) is filled, and read back */
    memset(ob, OUT_FILL, sizeof ob);
    B->put(cases[k].out, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_dot(cases[k].x, cases[k].y, cases[k].out, cases[k].n,
                                               cases[k].type, cases[k].flags, h);
    B->get(ob, cases[k].out, sizeof ob);
    check_failed(h, cases[k].wanted, s, ob, OUT_FILL, sizeof ob, cases[k].word, cases[k].what);
  }
}
