/*
 * battery.c - the reduction tests both backends must pass (battery.h).
 *
 * References, all computed on the host:
 *   - random data: the independent reference of reference.h (plain loops
 *     for integers and MIN/MAX/ARG*, doc/ORDER.md bit for bit and an
 *     error bound for floating sums and products);
 *   - special values: answers written out by hand from gpureduce.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "battery.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* ---- the backends and the battery's buffers ------------------------------- */

/* The host backend (battery.h); the CUDA one is in device.c. */
static void *host_alloc(size_t bytes) {
  void *p = NULL;
  const size_t rounded = ((bytes ? bytes : 1) + 255) & ~(size_t)255;
  return posix_memalign(&p, 256, rounded) == 0 ? p : NULL;
}

static void host_release(void *p) { free(p); }

static void host_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }

const struct tu_backend bt_host_backend = {
    .name = "host",
    .device = GPUREDUCE_DEVICE_HOST,
    .alloc = host_alloc,
    .release = host_release,
    .put = host_copy,
    .get = host_copy,
};

static const struct tu_backend *B;
static gpureduce_handle_t H;
static gpureduce_handle_t HOST; /* the host handle to compare with, when B is CUDA */
static unsigned char *in_mem;   /* backend memory for inputs */
static size_t in_cap;
static unsigned char *out_mem;  /* backend memory for one result + canary */
static unsigned char *stage;    /* host image of the input buffer */
static size_t stage_cap;

#define PAD 256          /* poison bytes before the aligned start and after the data */
#define OUT_BYTES 64     /* result (at most 16 bytes) and canary */
#define OUT_FILL 0xC3    /* what the output buffer holds before a call */

void battery_use(const struct tu_backend *backend) { B = backend; }

gpureduce_handle_t battery_handle(void) { return H; }

gpureduce_handle_t battery_host_handle(void) { return HOST; }

int battery_setup(void **state) {
  (void)state;
  tu_announce_seed();
  gpureduce_status_t s = gpureduce_create(&H, B->device);
  if (s != GPUREDUCE_SUCCESS) {
    print_error("gpureduce_create(%d) for the %s backend: %s (%s)\n", B->device, B->name,
                tu_status_label(s), gpureduce_status_string(s));
    return -1;
  }
  out_mem = B->alloc(OUT_BYTES);
  if (!out_mem) {
    print_error("cannot allocate %d bytes of %s memory\n", OUT_BYTES, B->name);
    return -1;
  }
  if (B->device != GPUREDUCE_DEVICE_HOST &&
      gpureduce_create(&HOST, GPUREDUCE_DEVICE_HOST) != GPUREDUCE_SUCCESS) {
    print_error("cannot create a host handle to compare with\n");
    return -1;
  }
  return 0;
}

int battery_teardown(void **state) {
  (void)state;
  B->release(in_mem);
  B->release(out_mem);
  free(stage);
  in_mem = out_mem = stage = NULL;
  in_cap = stage_cap = 0;
  gpureduce_destroy(HOST);
  HOST = NULL;
  const gpureduce_status_t s = gpureduce_destroy(H);
  H = NULL;
  if (s != GPUREDUCE_SUCCESS) {
    print_error("gpureduce_destroy: %s\n", tu_status_label(s));
    return -1;
  }
  return 0;
}

static void ensure_buffers(size_t bytes) {
  if (stage_cap < bytes) {
    free(stage);
    stage_cap = bytes + bytes / 2;
    stage = tu_alloc(stage_cap);
  }
  if (in_cap < bytes) {
    B->release(in_mem);
    in_cap = bytes + bytes / 2;
    in_mem = B->alloc(in_cap);
    if (!in_mem) {
      in_cap = 0;
      fail_msg("cannot allocate %zu bytes of %s memory", bytes, B->name);
    }
  }
}

static size_t result_bytes(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  const size_t rs = tu_result_size(type, op, flags);
  return rs ? rs : 8;
}

static const char *op_name(gpureduce_op_t op) {
  return (unsigned)op < GPUREDUCE_OP_COUNT ? tu_op_names[op] : "(bad op)";
}

static const char *type_name(gpureduce_type_t type) {
  return (unsigned)type < GPUREDUCE_TYPE_COUNT ? TU_TYPE(type)->name : "(bad type)";
}

gpureduce_status_t battery_reduce(const void *x, size_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags, size_t offset,
                                  uint64_t poison, bt_result *out) {
  const unsigned es = TU_TYPE(type)->size;
  const size_t rs = result_bytes(type, op, flags);
  const size_t lead = PAD + offset * es, body = n * es, total = lead + body + PAD;
  ensure_buffers(total);
  for (size_t i = 0; i < lead / es; ++i) tu_store(stage, i, es, poison);
  if (body) memcpy(stage + lead, x, body);
  for (size_t i = (lead + body) / es; i < total / es; ++i) tu_store(stage, i, es, poison);
  B->put(in_mem, stage, total);

  unsigned char ob[OUT_BYTES];
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  const gpureduce_status_t s =
      gpureduce_reduce(x ? in_mem + lead : NULL, out_mem, n, type, op, flags, H);
  B->get(ob, out_mem, sizeof ob);
  check_bytes(ob + rs, OUT_FILL, sizeof ob - rs,
              "%s %s flags %u n=%zu offset %zu: the canary after the %zu-byte result survives",
              type_name(type), op_name(op), flags, n, offset, rs);
  if (s != GPUREDUCE_SUCCESS)
    check_bytes(ob, OUT_FILL, rs, "%s %s flags %u n=%zu: the output is untouched after %s",
                type_name(type), op_name(op), flags, n, tu_status_label(s));
  *out = bt_result_at(ob, 0, rs);
  return s;
}

bt_result bt_result_at(const void *buf, size_t index, size_t rs) {
  const unsigned char *p = (const unsigned char *)buf + index * rs;
  bt_result r = {{0, 0}};
  r.w[0] = tu_load(p, 0, (unsigned)(rs < 8 ? rs : 8));
  if (rs > 8) r.w[1] = tu_load(p + 8, 0, 8);
  return r;
}

bt_result bt_word(uint64_t w0) {
  bt_result r = {{w0, 0}};
  return r;
}

void bt_check_result_at(const char *file, int line, bt_result wanted, bt_result seen, size_t rs,
                        const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (rs <= 8) {
    tu_check_bits(file, line, wanted.w[0], seen.w[0], "%s", what);
    return;
  }
  tu_check_bits(file, line, wanted.w[0], seen.w[0], "%s (bytes 0 to 7)", what);
  tu_check_bits(file, line, wanted.w[1], seen.w[1], "%s (bytes 8 to 15)", what);
}

/* ---- references ------------------------------------------------------------ */

/* The reference's answer (reference.h); fails the test when there is none
 * or its scratch memory cannot be allocated. */
static struct ref_answer want_for(const void *x, size_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags) {
  struct ref_answer w;
  const int r = ref_answer(x, n, type, op, flags, &w);
  if (r == -2) fail_msg("the reference cannot allocate %zu accumulators", n);
  if (r != 0)
    fail_msg("the reference has no answer for %s %s flags %u n=%zu", type_name(type),
             op_name(op), flags, n);
  return w;
}

static void check_want_at(const char *file, int line, const struct ref_answer *w, bt_result got,
                          const char *what) {
  if (w->has_bound2) { /* MEAN_VAR */
    tu_check_near(file, line, w->exact, ref_mean_var_value(w->result_bytes, got.w, 0), w->bound,
                  "%s: the mean is within the stated error bound of the exact mean", what);
    tu_check_near(file, line, w->exact2, ref_mean_var_value(w->result_bytes, got.w, 1),
                  w->bound2, "%s: the variance is within the stated error bound of the exact one",
                  what);
  } else if (w->has_bound) {
    tu_check_near(file, line, w->exact, ref_result_value(w->result_bytes, got.w[0]), w->bound,
                  "%s: within the stated error bound of the exact value", what);
  }
  const struct bt_result want = {{w->bits, w->bits2}};
  bt_check_result_at(file, line, want, got, w->result_bytes, "%s: %s", what,
                     w->has_bound ? "bits equal the doc/ORDER.md reference"
                                  : "equals the reference");
}
#define check_want(w, got, what) check_want_at(__FILE__, __LINE__, (w), (got), (what))

void bt_check_reference(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                        unsigned flags, bt_result got, const char *what) {
  const struct ref_answer w = want_for(x, n, type, op, flags);
  check_want(&w, got, what);
}

/* Reduce and compare with the reference. */
static void check_one(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                      unsigned flags, const char *label) {
  char what[256];
  snprintf(what, sizeof what, "%s %s%s n=%zu (%s)", type_name(type), op_name(op),
           flags ? " accumulate-f64" : "", n, label);
  const struct ref_answer w = want_for(x, n, type, op, flags);
  bt_result got;
  const gpureduce_status_t s = battery_reduce(x, n, type, op, flags, 0, 0, &got);
  check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
  check_want(&w, got, what);
}

/* Reduce every case of a walk (cases.h) and compare with the reference. */
static void check_cases(const struct tc_plan *plan) {
  struct tc_walk w;
  struct tc_case c;
  tc_begin(&w, plan);
  while (tu_next_case(&w, &c)) check_one(c.x, c.n, c.type, c.op, c.flags, c.data->what);
}

/* (battery.h; rp for short here) */
uint64_t bt_result_pattern(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, double v) {
  const size_t rs = tu_result_size(type, op, flags);
  if (v != v) return tu_canonical_nan((unsigned)rs);
  if (op == GPUREDUCE_MIN || op == GPUREDUCE_MAX) return tu_pattern(type, v);
  return rs == 4 ? tu_pattern(GPUREDUCE_F32, v) : tu_f64_bits(v);
}
#define rp bt_result_pattern

bt_result bt_result_of(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, double v,
                       double v2) {
  const size_t rs = tu_result_size(type, op, flags);
  if (op != GPUREDUCE_MEAN_VAR) return bt_word(bt_result_pattern(type, op, flags, v));
  bt_result r = {{0, 0}};
  if (rs == 8) { /* two floats */
    r.w[0] = (v != v ? 0x7fffffffu : tu_pattern(GPUREDUCE_F32, v)) |
             (uint64_t)(v2 != v2 ? 0x7fffffffu : tu_pattern(GPUREDUCE_F32, v2)) << 32;
  } else {
    r.w[0] = v != v ? tu_canonical_nan(8) : tu_f64_bits(v);
    r.w[1] = v2 != v2 ? tu_canonical_nan(8) : tu_f64_bits(v2);
  }
  return r;
}

int bt_empty_is_error(gpureduce_op_t op) { return bt_is_arg(op) || op == GPUREDUCE_MEAN_VAR; }

/* Reduce and compare with a hand-written answer. */
static void TU_PRINTF(9, 10)
    expect_at(const char *file, int line, const void *x, size_t n, gpureduce_type_t type,
              gpureduce_op_t op, unsigned flags, bt_result wanted, const char *fmt, ...) {
  char why[256], what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  snprintf(what, sizeof what, "%s %s%s n=%zu, %s", type_name(type), op_name(op),
           flags ? " accumulate-f64" : "", n, why);
  bt_result got;
  const gpureduce_status_t s = battery_reduce(x, n, type, op, flags, 0, 0, &got);
  tu_check_status(file, line, GPUREDUCE_SUCCESS, s, "%s: status", what);
  bt_check_result_at(file, line, wanted, got, tu_result_size(type, op, flags), "%s", what);
}
/* expect(x, n, type, op, flags, wanted bits, "why", ...): a result of one
 * word; expect_result the same with a bt_result. */
#define expect(x, n, type, op, flags, wanted, ...) \
  expect_at(__FILE__, __LINE__, (x), (n), (type), (op), (flags), bt_word(wanted), __VA_ARGS__)
#define expect_result(...) expect_at(__FILE__, __LINE__, __VA_ARGS__)

static const gpureduce_op_t minmax_ops[] = {GPUREDUCE_MIN, GPUREDUCE_MAX, GPUREDUCE_ARGMIN,
                                            GPUREDUCE_ARGMAX};

/* ---- tests: random data against the references ----------------------------- */

void bt_empty_inputs(void **state) {
  (void)state;
  unsigned char dummy[16] = {0};
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
      const gpureduce_op_t op = (gpureduce_op_t)oi;
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, op, flags)) continue;
        for (int with_ptr = 0; with_ptr < 2; ++with_ptr) {
          const void *x = with_ptr ? dummy : NULL;
          bt_result got;
          const gpureduce_status_t s = battery_reduce(x, 0, type, op, flags, 0, 0, &got);
          const char *in = with_ptr ? "a valid input pointer" : "a NULL input";
          if (bt_empty_is_error(op)) {
            /* battery_reduce checked the output is untouched */
            check_status(GPUREDUCE_ERROR_EMPTY_INPUT, s, "%s %s of n=0 with %s", t->name,
                         tu_op_names[op], in);
            continue;
          }
          check_status(GPUREDUCE_SUCCESS, s, "%s %s flags %u of n=0 with %s", t->name,
                       tu_op_names[op], flags, in);
          uint64_t wanted;
          if (op == GPUREDUCE_MIN) wanted = tu_type_max(type); /* +inf or the largest */
          else if (op == GPUREDUCE_MAX) wanted = tu_type_lowest(type); /* -inf or the lowest */
          else if (op == GPUREDUCE_NRM2) wanted = rp(type, op, flags, 0.0); /* +0 */
          else if (!t->is_float) wanted = op == GPUREDUCE_PROD ? 1 : 0;
          else wanted = rp(type, op, flags, op == GPUREDUCE_PROD ? 1.0 : 0.0); /* +0, 1 */
          check_bits(wanted, got.w[0],
                     "%s %s flags %u of n=0 with %s is the documented empty result", t->name,
                     tu_op_names[op], flags, in);
        }
      }
    }
  }
}

void bt_integers_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_ALL_OPS & ~TC_OP(GPUREDUCE_PROD), "random bits"},
      {G_ODD, TC_OP(GPUREDUCE_PROD) | TC_OP(GPUREDUCE_SUM_SQUARES), "random odd values"},
      {G_POOL, TC_OP(GPUREDUCE_SUM) | TC_OP(GPUREDUCE_SUM_ABS) | TC_MIN_MAX_OPS,
       "extremes and small values, many ties"},
  };
  const struct tc_plan plan = {.stream = "integers",
                               .types = tc_int_types,
                               .ntypes = COUNT(tc_int_types),
                               .data = data,
                               .ndata = COUNT(data)};
  check_cases(&plan);
}

void bt_float_min_max_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_MIN_MAX_OPS, "random finite values"},
      {G_INF, TC_MIN_MAX_OPS, "random values and infinities"},
      {G_POOL, TC_MIN_MAX_OPS, "six values with ties and +-0"},
  };
  const struct tc_plan plan = {.stream = "min max",
                               .types = tc_float_types,
                               .ntypes = COUNT(tc_float_types),
                               .data = data,
                               .ndata = COUNT(data)};
  check_cases(&plan);
}

/* Every floating accumulation (tc_sum_kinds), every size of tc_sizes. */
void bt_float_sums_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_OP(GPUREDUCE_SUM) | TC_OP(GPUREDUCE_SUM_ABS) | TC_OP(GPUREDUCE_SUM_SQUARES),
       "random values, mixed signs, exponents over +-24 binades"},
      {G_WIDE, TC_OP(GPUREDUCE_NRM2) | TC_OP(GPUREDUCE_MEAN_VAR),
       "random values, mixed signs, exponents over +-24 binades"},
      {G_MODERATE, TC_OP(GPUREDUCE_MEAN_VAR), "moderate values"},
  };
  const struct tc_plan plan = {.stream = "sums",
                               .kinds = tc_sum_kinds,
                               .nkinds = COUNT(tc_sum_kinds),
                               .data = data,
                               .ndata = COUNT(data)};
  check_cases(&plan);
}

void bt_float_products_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_NEAR1, TC_OP(GPUREDUCE_PROD), "random values within 1/64 of 1"},
  };
  const struct tc_plan plan = {.stream = "products",
                               .kinds = tc_sum_kinds,
                               .nkinds = COUNT(tc_sum_kinds),
                               .data = data,
                               .ndata = COUNT(data)};
  check_cases(&plan);
}

/* ---- tests: special values ------------------------------------------------- */

/* Run every operation (and f32's double accumulation) on x and compare
 * with: NaN for MIN/MAX/sum-likes when nan_index < n (then ARG* give
 * nan_index).  Used by the NaN tests. */
static void expect_nan_everywhere(const void *x, size_t n, gpureduce_type_t type,
                                  size_t nan_index, const char *how) {
  for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
    const gpureduce_op_t op = (gpureduce_op_t)oi;
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
      const size_t rs = tu_result_size(type, op, flags);
      if (!rs) continue;
      const bt_result wanted = (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX)
                                   ? bt_word((uint64_t)nan_index)
                                   : bt_result_of(type, op, flags, NAN, NAN);
      expect_result(x, n, type, op, flags, wanted,
             "%s: %s", how,
             (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX)
                 ? "the index of the first NaN"
                 : "the canonical quiet NaN of the result type");
    }
  }
}

void bt_nan_positions(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type), n = 3 * te + 5;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "nan positions %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    void *base = tu_alloc(n * es), *y = tu_alloc(n * es);
    tc_fill(&r, type, G_WIDE, base, n);
    /* chunk, warp (32 lanes), lane-wrap (256 chunks) and tile boundaries */
    const size_t pos[] = {0, 1, v - 1, v, 31, 32, 33, 255, 256, 257, 32 * v - 1, 32 * v,
                          256 * v - 1, 256 * v, 256 * v + 1, te - 1, te, te + 1, 2 * te - 1,
                          2 * te, n - 2, n - 1};
    for (size_t pi = 0; pi < COUNT(pos); ++pi) {
      const size_t p = pos[pi];
      memcpy(y, base, n * es);
      /* payloads and signs vary: quiet/signalling, positive/negative */
      const int neg = (int)(pi & 1), quiet = (int)((pi >> 1) & 1);
      const uint64_t nan1 = tu_nan(type, neg, quiet, tu_next(&r));
      tu_store(y, p, es, nan1);
      size_t q = n;
      if (p + 1 < n) {
        q = p + 1 + tu_below(&r, n - p - 1);
        tu_store(y, q, es, tu_nan(type, !neg, !quiet, tu_next(&r)));
      }
      char how[160];
      snprintf(how, sizeof how, "NaN 0x%" PRIx64 " at index %zu and another NaN at %zu", nan1, p,
               q);
      expect_nan_everywhere(y, n, type, p, how);
    }
    free(base);
    free(y);
  }
}

void bt_all_nan(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t sizes[] = {1, 100, tu_tile_elems(type) + 3};
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "all nan %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    void *y = tu_alloc(sizes[2] * es);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      for (size_t i = 0; i < sizes[si]; ++i) {
        const uint64_t b = tu_next(&r);
        tu_store(y, i, es, tu_nan(type, (int)(b & 1), (int)((b >> 1) & 1), b >> 2));
      }
      expect_nan_everywhere(y, sizes[si], type, 0, "every element a NaN of random payload");
    }
    free(y);
  }
}

/* Fill n elements with the pattern of v. */
static void fill_value(gpureduce_type_t type, void *x, size_t n, double v) {
  const uint64_t b = tu_pattern(type, v);
  for (size_t i = 0; i < n; ++i) tu_store(x, i, TU_TYPE(type)->size, b);
}

void bt_signed_zeros(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type);
    const size_t big = 2 * te + 3;
    void *x = tu_alloc(big * es);
    const uint64_t pz = tu_pattern(type, 0.0), nz = tu_pattern(type, -0.0);

    /* all -0 */
    const size_t sizes[] = {1, 2, 7, te + 1, big};
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      fill_value(type, x, n, -0.0);
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
        expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, -0.0),
               "all elements -0: the sum is -0");
        expect(x, n, type, GPUREDUCE_SUM_ABS, flags, rp(type, GPUREDUCE_SUM_ABS, flags, 0.0),
               "all elements -0: the sum of |x| is +0");
        expect(x, n, type, GPUREDUCE_SUM_SQUARES, flags,
               rp(type, GPUREDUCE_SUM_SQUARES, flags, 0.0),
               "all elements -0: the sum of squares is +0");
        expect(x, n, type, GPUREDUCE_PROD, flags,
               rp(type, GPUREDUCE_PROD, flags, n % 2 ? -0.0 : 0.0),
               "all elements -0: the product is -0 for odd n, +0 for even n");
      }
      expect(x, n, type, GPUREDUCE_MIN, 0, nz, "all elements -0: min is -0");
      expect(x, n, type, GPUREDUCE_MAX, 0, nz, "all elements -0: max is -0");
      expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "all elements -0: argmin is 0");
      expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "all elements -0: argmax is 0");
    }

    /* two elements, both orders */
    for (int order = 0; order < 2; ++order) {
      tu_store(x, 0, es, order ? pz : nz);
      tu_store(x, 1, es, order ? nz : pz);
      const char *how = order ? "{+0, -0}" : "{-0, +0}";
      expect(x, 2, type, GPUREDUCE_MIN, 0, nz, "%s: min is -0", how);
      expect(x, 2, type, GPUREDUCE_MAX, 0, pz, "%s: max is +0", how);
      expect(x, 2, type, GPUREDUCE_ARGMIN, 0, 0, "%s: argmin is 0 (a tie)", how);
      expect(x, 2, type, GPUREDUCE_ARGMAX, 0, 0, "%s: argmax is 0 (a tie)", how);
      expect(x, 2, type, GPUREDUCE_SUM, 0, rp(type, GPUREDUCE_SUM, 0, 0.0), "%s: sum is +0",
             how);
    }

    /* one odd zero out in a long array, at either end and across tiles */
    const size_t n = big;
    const size_t spots[] = {0, te - 1, te, n - 1};
    for (size_t k = 0; k < COUNT(spots); ++k) {
      for (int lone_neg = 0; lone_neg < 2; ++lone_neg) {
        for (size_t i = 0; i < n; ++i) tu_store(x, i, es, lone_neg ? pz : nz);
        tu_store(x, spots[k], es, lone_neg ? nz : pz);
        const char *how = lone_neg ? "all +0 but one -0" : "all -0 but one +0";
        expect(x, n, type, GPUREDUCE_MIN, 0, nz, "%s at %zu: min is -0", how, spots[k]);
        expect(x, n, type, GPUREDUCE_MAX, 0, pz, "%s at %zu: max is +0", how, spots[k]);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "%s at %zu: argmin is 0 (ties)", how,
               spots[k]);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "%s at %zu: argmax is 0 (ties)", how,
               spots[k]);
        expect(x, n, type, GPUREDUCE_SUM, 0, rp(type, GPUREDUCE_SUM, 0, 0.0),
               "%s at %zu: sum is +0", how, spots[k]);
      }
    }
    free(x);
  }
}

void bt_infinities(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type);
    const size_t sizes[] = {1, 2, 33, te + 1};
    void *x = tu_alloc((2 * te + 8) * es);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      for (int sign = 0; sign < 2; ++sign) {
        const double inf = sign ? -INFINITY : INFINITY;
        fill_value(type, x, n, inf);
        const char *how = sign ? "all -inf" : "all +inf";
        expect(x, n, type, GPUREDUCE_MIN, 0, tu_pattern(type, inf), "%s: min", how);
        expect(x, n, type, GPUREDUCE_MAX, 0, tu_pattern(type, inf), "%s: max", how);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "%s: argmin is 0 (all tie)", how);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "%s: argmax is 0 (all tie)", how);
        for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
          if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
          expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, inf),
                 "%s: sum is %s", how, sign ? "-inf" : "+inf");
          expect(x, n, type, GPUREDUCE_SUM_ABS, flags,
                 rp(type, GPUREDUCE_SUM_ABS, flags, INFINITY), "%s: sum of |x| is +inf", how);
          expect(x, n, type, GPUREDUCE_SUM_SQUARES, flags,
                 rp(type, GPUREDUCE_SUM_SQUARES, flags, INFINITY), "%s: sum of squares is +inf",
                 how);
          expect(x, n, type, GPUREDUCE_PROD, flags,
                 rp(type, GPUREDUCE_PROD, flags, (sign && n % 2) ? -INFINITY : INFINITY),
                 "%s: product", how);
        }
      }
    }

    /* +inf and -inf in one sum: NaN; in different tiles too */
    const size_t n = 2 * te + 8;
    fill_value(type, x, n, 1.0);
    const size_t pairs[][2] = {{0, 1}, {3, 2}, {5, te + 1}, {n - 1, 0}, {te, 2 * te}};
    for (size_t k = 0; k < COUNT(pairs); ++k) {
      fill_value(type, x, n, 1.0);
      tu_store(x, pairs[k][0], es, tu_pos_inf(type));
      tu_store(x, pairs[k][1], es, tu_neg_inf(type));
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
        expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, NAN),
               "+inf at %zu and -inf at %zu among ones: the sum is NaN", pairs[k][0],
               pairs[k][1]);
        expect(x, n, type, GPUREDUCE_SUM_ABS, flags, rp(type, GPUREDUCE_SUM_ABS, flags, INFINITY),
               "+inf at %zu and -inf at %zu among ones: the sum of |x| is +inf", pairs[k][0],
               pairs[k][1]);
      }
      expect(x, n, type, GPUREDUCE_ARGMIN, 0, pairs[k][1],
             "+inf at %zu and -inf at %zu among ones: argmin is the -inf", pairs[k][0],
             pairs[k][1]);
      expect(x, n, type, GPUREDUCE_ARGMAX, 0, pairs[k][0],
             "+inf at %zu and -inf at %zu among ones: argmax is the +inf", pairs[k][0],
             pairs[k][1]);
    }
    /* 0 * inf in a product: NaN */
    fill_value(type, x, 40, 1.0);
    tu_store(x, 3, es, tu_pattern(type, 0.0));
    tu_store(x, 37, es, tu_pos_inf(type));
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags)
      if (tu_result_size(type, GPUREDUCE_PROD, flags))
        expect(x, 40, type, GPUREDUCE_PROD, flags, rp(type, GPUREDUCE_PROD, flags, NAN),
               "0 at 3 and +inf at 37 among ones: the product is NaN");
    free(x);
  }

  /* Accumulation width: f16/bf16 sum in float, f32 overflows float. */
  uint16_t h[2] = {0x7bff, 0x7bff}; /* 65504, the largest f16 */
  expect(h, 2, GPUREDUCE_F16, GPUREDUCE_SUM, 0, tu_f32_bits(131008.0f),
         "65504 + 65504 accumulates in float: 131008, not inf");
  expect(h, 2, GPUREDUCE_F16, GPUREDUCE_MAX, 0, 0x7bff, "max of {65504, 65504}");
  uint16_t b[2] = {0x7f7f, 0x7f7f}; /* the largest bf16 */
  expect(b, 2, GPUREDUCE_BF16, GPUREDUCE_SUM, 0, 0x7f800000u,
         "largest bf16 twice overflows the float accumulator to +inf");
  float f[2] = {3.4028234663852886e38f, 3.4028234663852886e38f};
  expect(f, 2, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0x7f800000u, "FLT_MAX + FLT_MAX is +inf");
  expect(f, 2, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64,
         tu_f64_bits(2.0 * 3.4028234663852886e38), "FLT_MAX + FLT_MAX in double is finite");
}

/* The extremes of bt_ties and bt_misaligned_ends: a small and a large
 * value of the type, and n random values strictly between them at x. */
struct extremes {
  uint64_t low, high;
};
static struct extremes fill_between(gpureduce_type_t type, tu_rng *r, void *x, size_t n) {
  const tu_type *t = TU_TYPE(type);
  for (size_t i = 0; i < n; ++i)
    tu_store(x, i, t->size,
             t->is_float ? tu_pattern(type, 1.0 + (double)tu_below(r, 128) / 128)
                         : 10 + tu_below(r, 90));
  const struct extremes e = {t->is_float ? tu_pattern(type, 0.5) : 3,
                             t->is_float ? tu_pattern(type, 4.0) : 120};
  return e;
}

void bt_ties(void **state) {
  (void)state;
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    const unsigned es = t->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type), n = 3 * te + 7;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "ties %s", t->name);
    tu_rng_init(&r, label);
    void *base = tu_alloc(n * es), *x = tu_alloc(n * es);
    const struct extremes ex = fill_between(type, &r, base, n);
    const uint64_t low = ex.low, high = ex.high;
    const size_t dist[] = {1, 31, 32, 33, v, 256, 256 * v, te - 1, te, te + 1, 2 * te};
    const size_t first[] = {0, 31, te - 1};
    for (size_t di = 0; di < COUNT(dist); ++di)
      for (size_t fi = 0; fi < COUNT(first); ++fi) {
        const size_t p = first[fi], q = p + dist[di];
        if (q >= n) continue;
        memcpy(x, base, n * es);
        tu_store(x, p, es, low);
        tu_store(x, q, es, low);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, p,
               "the smallest value at %zu and %zu (%zu apart): the lowest index", p, q, dist[di]);
        expect(x, n, type, GPUREDUCE_MIN, 0, low, "the smallest value at %zu and %zu", p, q);
        memcpy(x, base, n * es);
        tu_store(x, p, es, high);
        tu_store(x, q, es, high);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, p,
               "the largest value at %zu and %zu (%zu apart): the lowest index", p, q, dist[di]);
        expect(x, n, type, GPUREDUCE_MAX, 0, high, "the largest value at %zu and %zu", p, q);
      }
    if (t->is_float) {
      /* -0 and +0 tie for ARGMIN/ARGMAX, while MIN/MAX tell them apart */
      const uint64_t pz = tu_pattern(type, 0.0), nz = tu_pattern(type, -0.0);
      const size_t zd[] = {1, 32, 256 * v, te};
      for (size_t di = 0; di < COUNT(zd); ++di)
        for (int order = 0; order < 2; ++order) {
          const size_t p = 5, q = 5 + zd[di];
          memcpy(x, base, n * es); /* positive values */
          tu_store(x, p, es, order ? nz : pz);
          tu_store(x, q, es, order ? pz : nz);
          expect(x, n, type, GPUREDUCE_ARGMIN, 0, p,
                 "%s at %zu and %s at %zu among positives: argmin is the first (a tie)",
                 order ? "-0" : "+0", p, order ? "+0" : "-0", q);
          expect(x, n, type, GPUREDUCE_MIN, 0, nz, "+0 and -0 among positives: min is -0");
          for (size_t i = 0; i < n; ++i) /* negative values */
            tu_store(x, i, es, tu_pattern(type, -tu_value(type, tu_load(base, i, es))));
          tu_store(x, p, es, order ? nz : pz);
          tu_store(x, q, es, order ? pz : nz);
          expect(x, n, type, GPUREDUCE_ARGMAX, 0, p,
                 "%s at %zu and %s at %zu among negatives: argmax is the first (a tie)",
                 order ? "-0" : "+0", p, order ? "+0" : "-0", q);
          expect(x, n, type, GPUREDUCE_MAX, 0, pz, "+0 and -0 among negatives: max is +0");
        }
    }
    free(base);
    free(x);
  }
}

void bt_half_subnormals(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "half subnormals");
  enum { N = 1000, NSQ = 32 };
  uint16_t x[N];
  /* f16 subnormals are m * 2^-24, |m| <= 1023: sums of 1000 of them are
   * integers times 2^-24 below 2^24 * 2^-24, exact in float. */
  int64_t msum = 0, mabs = 0;
  for (int i = 0; i < N; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 1023));
    const int neg = (int)tu_below(&r, 2);
    x[i] = (uint16_t)((neg ? 0x8000u : 0u) | m);
    msum += neg ? -(int64_t)m : (int64_t)m;
    mabs += m;
  }
  expect(x, N, GPUREDUCE_F16, GPUREDUCE_SUM, 0, tu_f32_bits((float)ldexp((double)msum, -24)),
         "1000 random f16 subnormals: the exact sum %" PRId64 " * 2^-24", msum);
  expect(x, N, GPUREDUCE_F16, GPUREDUCE_SUM_ABS, 0, tu_f32_bits((float)ldexp((double)mabs, -24)),
         "1000 random f16 subnormals: the exact sum of |x|");
  for (size_t oi = 0; oi < COUNT(minmax_ops); ++oi)
    expect(x, N, GPUREDUCE_F16, minmax_ops[oi], 0, want_for(x, N, GPUREDUCE_F16, minmax_ops[oi], 0).bits,
           "1000 random f16 subnormals: the plain-loop answer");
  /* squares (m 2^-24)^2 = m^2 2^-48 with m < 512: 32 of them sum exactly */
  int64_t sq = 0;
  for (int i = 0; i < NSQ; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 511));
    x[i] = (uint16_t)((tu_below(&r, 2) ? 0x8000u : 0u) | m);
    sq += (int64_t)m * m;
  }
  expect(x, NSQ, GPUREDUCE_F16, GPUREDUCE_SUM_SQUARES, 0,
         tu_f32_bits((float)ldexp((double)sq, -48)),
         "32 f16 subnormals below 512 * 2^-24: the exact sum of squares");

  /* bf16 subnormals are m * 2^-133, |m| <= 127: float holds their sums
   * exactly; their squares (below 2^-252) round to +0 in float. */
  msum = mabs = 0;
  for (int i = 0; i < N; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 127));
    const int neg = (int)tu_below(&r, 2);
    x[i] = (uint16_t)((neg ? 0x8000u : 0u) | m);
    msum += neg ? -(int64_t)m : (int64_t)m;
    mabs += m;
  }
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM, 0, tu_f32_bits((float)ldexp((double)msum, -133)),
         "1000 random bf16 subnormals: the exact sum %" PRId64 " * 2^-133", msum);
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM_ABS, 0,
         tu_f32_bits((float)ldexp((double)mabs, -133)),
         "1000 random bf16 subnormals: the exact sum of |x|");
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM_SQUARES, 0, 0x00000000u,
         "bf16 subnormals squared underflow: the sum of squares is +0");
  for (size_t oi = 0; oi < COUNT(minmax_ops); ++oi)
    expect(x, N, GPUREDUCE_BF16, minmax_ops[oi], 0,
           want_for(x, N, GPUREDUCE_BF16, minmax_ops[oi], 0).bits,
           "1000 random bf16 subnormals: the plain-loop answer");

  /* a subnormal as the answer of MIN/MAX among normals (both formats) */
  for (int fmt = 0; fmt < 2; ++fmt) {
    const gpureduce_type_t type = fmt ? GPUREDUCE_BF16 : GPUREDUCE_F16;
    const uint16_t sub = fmt ? 0x0005 : 0x0203; /* smallish subnormal patterns */
    for (int i = 0; i < N; ++i) x[i] = (uint16_t)tu_pattern(type, 1.0 + (double)(i % 64) / 64);
    x[777] = sub;
    expect(x, N, type, GPUREDUCE_MIN, 0, sub, "subnormal 0x%04x among values in [1, 2): min", sub);
    expect(x, N, type, GPUREDUCE_ARGMIN, 0, 777, "subnormal among values in [1, 2): argmin");
    for (int i = 0; i < N; ++i) x[i] = (uint16_t)(x[i] | 0x8000u);
    expect(x, N, type, GPUREDUCE_MAX, 0, sub | 0x8000u,
           "negative subnormal 0x%04x among values in (-2, -1]: max", sub | 0x8000u);
    expect(x, N, type, GPUREDUCE_ARGMAX, 0, 777, "negative subnormal among negatives: argmax");
  }

  /* random f16 over the whole finite range, subnormals included, across tiles */
  const size_t n = 2 * tu_tile_elems(GPUREDUCE_F16) + 17;
  uint16_t *y = tu_alloc(n * sizeof *y);
  tc_fill(&r, GPUREDUCE_F16, G_WIDE, y, n);
  for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi)
    if (oi != GPUREDUCE_PROD)
      check_one(y, n, GPUREDUCE_F16, (gpureduce_op_t)oi, 0, "random f16 with subnormals");
  free(y);
}

/* ---- tests: pointer offsets ---------------------------------------------------- */

/* (battery.h) */
uint64_t bt_poison(gpureduce_type_t type, gpureduce_op_t op) {
  const tu_type *t = TU_TYPE(type);
  switch (op) {
    case GPUREDUCE_MIN:
    case GPUREDUCE_ARGMIN: return t->is_float ? tu_neg_inf(type) : tu_type_lowest(type);
    case GPUREDUCE_MAX:
    case GPUREDUCE_ARGMAX: return t->is_float ? tu_pos_inf(type) : tu_type_max(type);
    default:
      return t->is_float ? tu_nan(type, 0, 1, 0x5a5a5a5a5a5a5a5aull)
                         : (0x5a5a5a5a5a5a5a5aull & tu_size_mask(t->size));
  }
}

/* 1 to 4 tiles + 11: interior tiles exist at every misalignment.  te - 2,
 * 2 te and 3 te - 1 end a few elements short of a tile's end: where an
 * operation reads a misaligned vector in the tiles of its aligned blocks
 * (the CUDA kernels' realigned tiles), those elements lie past the last
 * such tile. */
static size_t offset_sizes(gpureduce_type_t type, tu_rng *r, size_t *s) {
  (void)r;
  const size_t te = tu_tile_elems(type);
  const size_t sizes[] = {1, 5, 100, te - 2, te + 7, 2 * te, 3 * te - 1, 4 * te + 11};
  memcpy(s, sizes, sizeof sizes);
  return COUNT(sizes);
}

void bt_offsets_and_poison(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      /* min/max data avoids the extremes the poison uses */
      {G_INNER, TC_ALL_OPS & ~TC_OP(GPUREDUCE_PROD), "values inside the type's range"},
      {G_FACTORS, TC_OP(GPUREDUCE_PROD), "factors of a finite product"},
  };
  const struct tc_plan plan = {
      .stream = "offsets", .sizes = offset_sizes, .data = data, .ndata = COUNT(data), .offsets = 16};
  struct tc_walk walk;
  struct tc_case c;
  struct ref_answer w;
  bt_result at0 = {{0, 0}};
  tc_begin(&walk, &plan);
  while (tu_next_case(&walk, &c)) {
    const uint64_t poison = bt_poison(c.type, c.op);
    char what[240];
    snprintf(what, sizeof what,
             "%s %s%s n=%zu (%s) at %zu elements past an aligned address, poison 0x%" PRIx64
             " around",
             type_name(c.type), op_name(c.op), c.flags ? " accumulate-f64" : "", c.n,
             c.data->what, c.offset, poison);
    bt_result got;
    const gpureduce_status_t s =
        battery_reduce(c.x, c.n, c.type, c.op, c.flags, c.offset, poison, &got);
    check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
    if (c.offset == 0) { /* the offsets of a case come one after another */
      w = want_for(c.x, c.n, c.type, c.op, c.flags);
      check_want(&w, got, what);
      at0 = got;
    } else {
      check_result(at0, got, w.result_bytes, "%s: the same bits as at offset 0", what);
    }
  }
}

/* The extremes at the ends of a misaligned vector: MIN, MAX, ARGMIN and
 * ARGMAX at every misalignment (offsets 0 .. V-1 elements), with the one
 * smallest or largest element, or two equal ones, at the first and last
 * elements of the vector, of its first and last chunks and tiles, and
 * among the up to V-1 last elements a realigned reading (the CUDA kernels
 * of these operations: the tiles of the vector's aligned blocks) takes
 * past its last tile.  The poison around the vector is the winning
 * extreme, so an element read from outside the vector wins. */
void bt_misaligned_ends(void **state) {
  (void)state;
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    const unsigned es = t->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type);
    /* the last tile full, or 2 elements short, both short by less than a
     * chunk (past the realigned tiles at most misalignments); none past
     * them (2 te + 5); and a vector ending around element 256 v, in or
     * just before thread 0's chunk 1, which stands in for its chunk 0 */
    const size_t sizes[] = {te - 2, te, 3 * te - 1, 3 * te, 2 * te + 5,
                            256 * (size_t)v - 1, 256 * (size_t)v + v / 2};
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "misaligned ends %s", t->name);
    tu_rng_init(&r, label);
    const size_t room = 3 * te;
    void *base = tu_alloc(room * es), *x = tu_alloc(room * es);
    const struct extremes ex = fill_between(type, &r, base, room);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      /* {p, q}: the extreme at p and, when q != p, a tie at q > p; the
       * last four around element 256 v, near the start of thread 0's
       * chunk 1 of a misaligned tile 0, whose copy stands in for its
       * chunk 0 (lane_edge_realigned) */
      const size_t c1 = 256 * (size_t)v;
      const size_t at[][2] = {{0, 0},           {1, 1},           {v - 1, v - 1},
                              {v, v},           {te - 1, te - 1}, {n - v - 1, n - v - 1},
                              {n - v, n - v},   {n - 2, n - 2},   {n - 1, n - 1},
                              {0, n - 1},       {n - 2, n - 1},   {v - 1, n - v + 1},
                              {c1 - 1, c1 - 1}, {c1 + 1, c1 + 1}, {c1 - 1, c1 + 1},
                              {v - 2, c1}};
      for (size_t offset = 0; offset < v; ++offset)
        for (size_t k = 0; k < COUNT(at); ++k) {
          const size_t p = at[k][0], q = at[k][1];
          if (q >= n || p > q) continue;
          for (size_t oi = 0; oi < COUNT(minmax_ops); ++oi) {
            const gpureduce_op_t op = minmax_ops[oi];
            const int is_min = op == GPUREDUCE_MIN || op == GPUREDUCE_ARGMIN;
            const uint64_t extreme = is_min ? ex.low : ex.high;
            memcpy(x, base, n * es);
            tu_store(x, p, es, extreme);
            tu_store(x, q, es, extreme);
            const uint64_t poison = bt_poison(type, op);
            char what[240];
            snprintf(what, sizeof what,
                     "%s %s n=%zu %zu elements past an aligned address, the extreme at %zu "
                     "and %zu, poison 0x%" PRIx64 " around",
                     type_name(type), op_name(op), n, offset, p, q, poison);
            bt_result got;
            const gpureduce_status_t s = battery_reduce(x, n, type, op, 0, offset, poison, &got);
            check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
            check_result(bt_word(bt_is_arg(op) ? p : extreme), got,
                         tu_result_size(type, op, 0), "%s", what);
          }
        }
    }
    free(base);
    free(x);
  }
}

/* ---- tests: the order ------------------------------------------------------------ */

void bt_order_example(void **state) {
  (void)state;
  float *x = tu_alloc(TC_EXAMPLE_ROOM * sizeof *x);
  for (int k = 0; k < TC_EXAMPLES; ++k) {
    const struct tc_example e = tc_order_example(k, x);
    expect(x, e.n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, tu_f32_bits(e.sum), "%s", e.what);
  }
  free(x);
}

/* Exactly 1, 2, 3, 4, 5, 7, 8, 9, 16 and 17 tiles, each a random n. */
static size_t tile_count_sizes(gpureduce_type_t type, tu_rng *r, size_t *s) {
  static const size_t tile_counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17};
  const size_t te = tu_tile_elems(type);
  for (size_t k = 0; k < COUNT(tile_counts); ++k)
    s[k] = (tile_counts[k] - 1) * te + 1 + tu_below(r, te);
  return COUNT(tile_counts);
}

void bt_order_tiles(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_OP(GPUREDUCE_SUM) | TC_OP(GPUREDUCE_SUM_ABS) | TC_OP(GPUREDUCE_SUM_SQUARES),
       "wide random values, the order of doc/ORDER.md"},
      {G_NEAR1, TC_OP(GPUREDUCE_PROD), "near 1, the order of doc/ORDER.md"},
      {G_WIDE, TC_OP(GPUREDUCE_NRM2) | TC_OP(GPUREDUCE_MEAN_VAR),
       "wide random values, the order of doc/ORDER.md"},
  };
  const struct tc_plan plan = {.stream = "order tiles",
                               .kinds = tc_sum_kinds,
                               .nkinds = COUNT(tc_sum_kinds),
                               .sizes = tile_count_sizes,
                               .data = data,
                               .ndata = COUNT(data)};
  check_cases(&plan);
}

/* ---- tests: NRM2 and MEAN_VAR ---------------------------------------------------- */

/* n elements of a floating type from the doubles v: rounded to nearest
 * for F32, exact in the type for the others. */
static void *fill_doubles(gpureduce_type_t type, const double *v, size_t n) {
  void *x = tu_alloc((n ? n : 1) * TU_TYPE(type)->size);
  for (size_t i = 0; i < n; ++i)
    tu_store(x, i, TU_TYPE(type)->size,
             type == GPUREDUCE_F32 ? tu_f32_bits((float)v[i]) : tu_pattern(type, v[i]));
  return x;
}

/* Norms whose sum of squares overflows or underflows the accumulator,
 * from subnormals to near the largest value: check_one compares with the
 * order's bits and with the long double norm within gpureduce.h's bound
 * (an overflow or an underflow to zero would be far outside it), and
 * each is also written out by hand. */
void bt_nrm2_scaling(void **state) {
  (void)state;
  static const struct {
    gpureduce_type_t type;
    unsigned flags;
    size_t n;
    double v[6];
    double norm; /* to 17 digits */
    const char *what;
  } cases[] = {
      {GPUREDUCE_F64, 0, 4, {1e200, 1e200, 3e200, -1e200}, 3.4641016151377545e200,
       "(1e200, 1e200, 3e200, -1e200): sqrt(12) 1e200, its squares overflow"},
      {GPUREDUCE_F64, 0, 2, {3e-200, 4e-200}, 5e-200, "(3e-200, 4e-200): 5e-200, its squares underflow"},
      {GPUREDUCE_F64, 0, 2, {1e308, 1e308}, 1.4142135623730951e308, "(1e308, 1e308)"},
      {GPUREDUCE_F64, 0, 3, {0x1p-1074, 0x3p-1074, 0x4p-1074}, 5.0990195135927845 * 0x1p-1074,
       "three subnormals 1, 3, 4 times 2^-1074: sqrt(26) 2^-1074"},
      {GPUREDUCE_F64, 0, 3, {1e300, 1.0, 1e-300}, 1e300, "big, medium and small: 1e300"},
      {GPUREDUCE_F64, 0, 4, {3e-300, 1e-310, 4e-300, 0}, 5.000000000000000999e-300,
       "small values and a subnormal: 5e-300"},
      {GPUREDUCE_F64, 0, 2, {1.0, 1e-300}, 1.0, "medium and small: 1"},
      {GPUREDUCE_F32, 0, 4, {1e30, 1e30, 3e30, -1e30}, 3.4641016151377545e30,
       "f32 (1e30, 1e30, 3e30, -1e30): squares overflow float"},
      {GPUREDUCE_F32, 0, 2, {3e-30, 4e-30}, 5e-30, "f32 (3e-30, 4e-30): squares underflow float"},
      {GPUREDUCE_F32, 0, 2, {2e38, 2e38}, 2.8284271247461902e38, "f32 (2e38, 2e38)"},
      {GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64, 2, {3e38, 3e38}, 4.2426406871192851e38,
       "f32 (3e38, 3e38) in double: above FLT_MAX, fine in double"},
      {GPUREDUCE_F32, 0, 3, {0x1p-149, 0x3p-149, 0x4p-149}, 5.0990195135927845 * 0x1p-149,
       "three f32 subnormals 1, 3, 4 times 2^-149: sqrt(26) 2^-149"},
      {GPUREDUCE_F32, 0, 3, {1e30, 1.0, 1e-30}, 1e30, "f32 big, medium and small"},
      {GPUREDUCE_F16, 0, 2, {0x1p-24, 0x1p-24}, 1.4142135623730951 * 0x1p-24,
       "two smallest f16 subnormals"},
      {GPUREDUCE_BF16, 0, 2, {0x1p127, 0x1p127}, 1.4142135623730951 * 0x1p127,
       "bf16 2^127 twice: the float accumulator's squares would overflow"},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    const gpureduce_type_t type = cases[k].type;
    void *x = fill_doubles(type, cases[k].v, cases[k].n);
    check_one(x, cases[k].n, type, GPUREDUCE_NRM2, cases[k].flags, cases[k].what);
    bt_result got;
    check_status(GPUREDUCE_SUCCESS,
                 battery_reduce(x, cases[k].n, type, GPUREDUCE_NRM2, cases[k].flags, 0, 0, &got),
                 "nrm2 %s: status", cases[k].what);
    const size_t rs = tu_result_size(type, GPUREDUCE_NRM2, cases[k].flags);
    const double r = ref_result_value((unsigned)rs, got.w[0]);
    /* a few ulps of the result, or of f32 elements rounded from decimals;
     * a subnormal norm rounds to the subnormals' grid */
    const double ulps = rs == 4 || type == GPUREDUCE_F32 ? 0x1p-21 : 0x1p-50;
    check_near(cases[k].norm, r, fabs(cases[k].norm) * ulps + (rs == 4 ? 0x1p-149 : 0x1p-1074),
               "nrm2 %s: within a few ulps of the norm written out", cases[k].what);
    free(x);
  }
  /* the same cases spread over tiles and lanes: one case's values at
   * random places among zeros */
  const size_t n = 3 * tu_tile_elems(GPUREDUCE_F64) + 11;
  tu_rng r;
  tu_rng_init(&r, "nrm2 scaling spread");
  double *v = tu_alloc(n * sizeof *v);
  for (size_t k = 0; k < COUNT(cases); ++k) {
    if (cases[k].type != GPUREDUCE_F64 && cases[k].type != GPUREDUCE_F32) continue;
    memset(v, 0, n * sizeof *v);
    for (size_t i = 0; i < cases[k].n; ++i) v[tu_below(&r, n)] += cases[k].v[i];
    void *x = fill_doubles(cases[k].type, v, n);
    check_one(x, n, cases[k].type, GPUREDUCE_NRM2, cases[k].flags, "spread over three tiles");
    free(x);
  }
  free(v);
}

/* On a CUDA backend: the partial of the whole array (gpureduce/partial.h),
 * whose node holds NRM2's three sums themselves, made from the staged
 * input of the last battery_reduce() call (offset elements past the
 * aligned start) must be the host handle's bytes for the same elements.
 * A value put into the wrong sum changes those bytes even where the norm
 * cannot show it (an infinity's sum, say). */
static void check_partial_matches_host(const void *x, size_t n, gpureduce_type_t type,
                                       gpureduce_op_t op, unsigned flags, size_t offset,
                                       const char *what) {
  if (!HOST) return;
  const size_t bytes = gpureduce_partial_bytes(n, 0, n, type, op, flags);
  check_true(bytes > 0 && bytes <= GPUREDUCE_PARTIAL_MAX_BYTES, "%s: partial size %zu", what,
             bytes);
  unsigned char *got = tu_alloc(bytes), *want = tu_alloc(bytes);
  memset(got, 0xA5, bytes);
  memset(want, 0x5A, bytes);
  const unsigned es = TU_TYPE(type)->size;
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_partial_reduce(in_mem + PAD + offset * es, got, n, 0, n, type, op, flags,
                                        H),
               "%s: partial on the %s backend", what, B->name);
  check_status(GPUREDUCE_SUCCESS, gpureduce_partial_reduce(x, want, n, 0, n, type, op, flags, HOST),
               "%s: partial on the host backend", what);
  check_true(memcmp(got, want, bytes) == 0,
             "%s: the %zu bytes of the whole array's partial (its three sums) are the host's",
             what, bytes);
  free(got);
  free(want);
}

/*
 * NRM2 where values of Blue's classes fall at random places among zeros
 * over 9 to 10 tiles.  The CUDA lane squares a chunk whose values are all
 * medium straight into the medium sum and gives any other chunk the
 * order's lift (cuda/thread/fold.cuh, Nrm2MediumLane), so interior tiles mix
 * both kinds of chunk.  The rounds:
 *   0  small normal values (nonzero, below tsml) among medium ones at
 *      tsml and a little above it;
 *   1  the same with subnormal small values;
 *   2  big values in (tbig, 2 tbig] among medium ones at tbig and far
 *      below it, whose squares a sum of big squares would round away;
 *   3  round 2 with values whose squares overflow the accumulator (the
 *      norm does not);
 *   4  round 2 and an infinity in an interior tile (+inf), 5  and also a
 *      NaN in one (the canonical NaN; gpureduce.h).
 * The norm must have the order's bits (tests/lib/reference.c), aligned
 * and 3 elements past alignment.  A value in the wrong sum can leave the
 * norm's bits as they are (a subnormal's scaled square is lost beside the
 * other small values', a big square is scaled by a power of two, an
 * infinity is an infinity in any sum), but not the three sums: on a CUDA
 * backend the partial of the whole array (gpureduce/partial.h), which
 * holds them, must be the host backend's bytes
 * (check_partial_matches_host).  f16 in a float accumulator and f32 in a
 * double one have no small or big finite values: their rounds hold the
 * type's extremes instead, and only an infinity is big.
 */
void bt_nrm2_classes(void **state) {
  (void)state;
  enum { NV = 6 };
  static const struct {
    gpureduce_type_t type;
    unsigned flags;
    double small[NV], subnormal[NV], near_tsml[NV], big[NV], below_tbig[NV], huge[NV];
  } kinds[] = {
      /* float accumulator: tsml 2^-63, tbig 2^52 */
      {GPUREDUCE_BF16,
       0,
       {0x1p-64, -0x1.fcp-64, 0x1.4p-68, -0x1p-75, 0x1p-100, -0x1.8p-120},
       {0x1p-133, -0x1.8p-130, 0x1p-127, -0x1.fcp-127, 0x1p-131, -0x1.4p-129},
       {0x1p-63, -0x1.02p-63, 0x1.8p-62, -0x1.4p-61, 0x1.fep-61, 0x1p-60},
       {0x1.02p52, -0x1.3p52, 0x1.8p52, -0x1.fep52, 0x1p53, 0x1.7ep52},
       {0x1p52, -0x1.fep42, 0x1.4p40, -0x1.1p41, 0x1.9ep43, 0x1p44},
       {0x1p70, -0x1.4p100, 0x1p110, 0x1.8p90, -0x1p100, 0x1.fep105}},
      {GPUREDUCE_F32,
       0,
       {0x1p-64, -0x1.fffffep-64, 0x1.4p-68, -0x1.123456p-75, 0x1p-100, -0x1.8p-120},
       {0x1p-149, -0x1p-140, 0x1.8p-130, -0x1.fffffcp-127, 0x1p-127, -0x1.4p-135},
       {0x1p-63, -0x1.000002p-63, 0x1.8p-62, -0x1.4p-61, 0x1.fep-61, 0x1.abcdep-60},
       {0x1.000002p52, -0x1.3p52, 0x1.8p52, -0x1.fffffep52, 0x1p53, 0x1.234566p52},
       {0x1p52, -0x1.fffffep42, 0x1.4p40, -0x1.123456p41, 0x1.9ep43, 0x1p44},
       {0x1p70, -3e30, 0x1p110, 0x1.8p90, -0x1p100, 0x1.fffffep105}},
      /* double accumulator: tsml 2^-511, tbig 2^486 */
      {GPUREDUCE_F64,
       0,
       {0x1p-512, -0x1.fffffffffffffp-512, 0x1.4p-530, -0x1.123456789p-600, 0x1p-900, -0x1.8p-1000},
       {0x1p-1074, -1e-310, 0x1.8p-1030, -0x1p-1023, 0x1.ffffffffffffep-1023, -0x1.4p-1050},
       {0x1p-511, -0x1.0000000000001p-511, 0x1.8p-510, -0x1.4p-509, 0x1.fep-509, 0x1.abcdefp-508},
       {0x1.0000000000001p486, -0x1.3p486, 0x1.8p486, -0x1.fffffffffffffp486, 0x1p487, 0x1.23456789p486},
       {0x1p486, -0x1.fffffffffffffp461, 0x1.4p459, -0x1.123456789p460, 0x1.9ep462, 0x1p458},
       {0x1p520, -1e300, 0x1p1000, 0x1.8p700, -0x1p600, 0x1.fffffffffffffp1005}},
      /* nothing finite scales: the types' extremes */
      {GPUREDUCE_F16,
       0,
       {0x1p-14, -0x1.004p-14, 0x1p-13, -0x1.8p-12, 0x1p-10, -0x1.ffcp-11},
       {0x1p-24, -0x1p-20, 0x1.8p-22, -0x1.ff8p-15, 0x1p-15, -0x1.4p-21},
       {0x1p-14, -0x1.004p-14, 0x1.8p-13, -0x1.4p-12, 0x1.ffcp-12, 0x1p-10},
       {65504, -65504, 0x1.8p15, -0x1.004p15, 0x1p15, 0x1.ffcp14},
       {0x1p14, -0x1.ffcp13, 0x1.4p12, -0x1.1p11, 0x1.9ep13, 0x1p11},
       {65504, -65504, 65504, -65504, 65504, -65504}},
      {GPUREDUCE_F32,
       GPUREDUCE_ACCUMULATE_F64,
       {0x1p-126, -0x1.000002p-126, 0x1.8p-125, -0x1.4p-120, 0x1.fep-100, 0x1p-90},
       {0x1p-149, -0x1p-140, 0x1.8p-130, -0x1.fffffcp-127, 0x1p-127, -0x1.4p-135},
       {0x1p-126, -0x1.000002p-126, 0x1.8p-125, -0x1.4p-120, 0x1.fep-100, 0x1p-90},
       {0x1.fffffep127, -0x1.fffffep127, 0x1.8p127, -0x1.000002p127, 0x1p127, 0x1.234566p126},
       {0x1p126, -0x1.fffffep125, 0x1.4p124, -0x1.123456p123, 0x1.9ep125, 0x1p123},
       {0x1.fffffep127, -0x1.fffffep127, 0x1.fffffep127, -0x1.fffffep127, 0x1.fffffep127, -3e38}},
  };
  static const char *const round_name[] = {
      "small values among medium ones near tsml", "subnormal small values among medium ones",
      "big values up to 2 tbig among medium ones", "big values and squares that overflow",
      "big values and an infinity", "big values, an infinity and a NaN"};
  tu_rng r;
  tu_rng_init(&r, "nrm2 classes");
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const gpureduce_type_t type = kinds[k].type;
    const unsigned flags = kinds[k].flags;
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type), n = 9 * te + 1 + tu_below(&r, te);
    unsigned char *x = tu_alloc(n * es);
    for (int round = 0; round < 6; ++round) {
      memset(x, 0, n * es); /* +0: medium for the lane, small for lift */
      /* 400 values at random places; a place taken twice keeps the last */
      for (int m = 0; m < 400; ++m) {
        const int j = (int)tu_below(&r, NV);
        const double v = round <= 1 ? (m % 2 == 0   ? kinds[k].near_tsml[j]
                                       : round == 0 ? kinds[k].small[j]
                                                    : kinds[k].subnormal[j])
                         : round == 3 && m % 8 == 0 ? kinds[k].huge[j]
                         : m % 2                    ? kinds[k].big[j]
                                                    : kinds[k].below_tbig[j];
        tu_store(x, tu_below(&r, n), es,
                 type == GPUREDUCE_F32 ? tu_f32_bits((float)v) : tu_pattern(type, v));
      }
      /* the infinity and the NaN in tiles 1 to 6: interior tiles at both
       * offsets, of the whole array and of the partial's first node (tiles
       * 0 to 7, reduced as an array of its own) */
      if (round >= 4) tu_store(x, te + tu_below(&r, 6 * te), es, tu_pattern(type, INFINITY));
      if (round == 5) tu_store(x, te + tu_below(&r, 6 * te), es, tu_pattern(type, NAN));
      const struct ref_answer w = want_for(x, n, type, GPUREDUCE_NRM2, flags);
      for (size_t offset = 0; offset <= 3; offset += 3) {
        char what[200];
        snprintf(what, sizeof what, "%s nrm2%s n=%zu offset %zu, round %d (%s)", type_name(type),
                 flags ? " accumulate-f64" : "", n, offset, round, round_name[round]);
        bt_result got;
        check_status(GPUREDUCE_SUCCESS,
                     battery_reduce(x, n, type, GPUREDUCE_NRM2, flags, offset, 0, &got),
                     "%s: status", what);
        if (round < 4) {
          check_want(&w, got, what);
        } else { /* +inf, then the canonical NaN: gpureduce.h */
          const size_t rs = tu_result_size(type, GPUREDUCE_NRM2, flags);
          check_result(bt_word(round == 4 ? rp(type, GPUREDUCE_NRM2, flags, INFINITY)
                                          : tu_canonical_nan((unsigned)rs)),
                       got, rs, "%s: the value gpureduce.h gives", what);
          check_result(bt_word(w.bits), got, rs, "%s: the reference's bits", what);
        }
        check_partial_matches_host(x, n, type, GPUREDUCE_NRM2, flags, offset, what);
      }
    }
    free(x);
  }
}

/* The relative error of a MEAN_VAR result's variance against the long
 * double variance of the elements. */
static double variance_error(const void *x, size_t n, gpureduce_type_t type, unsigned flags,
                             long double *var) {
  long double s = 0, d = 0;
  for (size_t i = 0; i < n; ++i) s += tu_value(type, tu_load(x, i, TU_TYPE(type)->size));
  const long double mean = s / n;
  for (size_t i = 0; i < n; ++i) {
    const long double e = tu_value(type, tu_load(x, i, TU_TYPE(type)->size)) - mean;
    d += e * e;
  }
  *var = d / n;
  bt_result got;
  check_status(GPUREDUCE_SUCCESS,
               battery_reduce(x, n, type, GPUREDUCE_MEAN_VAR, flags, 0, 0, &got),
               "mean_var of %zu values: status", n);
  const unsigned rs = (unsigned)tu_result_size(type, GPUREDUCE_MEAN_VAR, flags);
  return (double)(fabsl(ref_mean_var_value(rs, got.w, 1) - *var) / *var);
}

/* gpureduce.h's accuracy cases: 10^6 values of 1e4 + U(-.5, .5) (f32
 * relative error of the variance <= 1e-2, with ACCUMULATE_F64 <= 1e-9),
 * huge offsets in f64, constant input (variance exactly 0, the mean the
 * constant), each also against the order's bits and the stated bounds. */
void bt_mean_var_accuracy(void **state) {
  (void)state;
  enum { N = 1000000 };
  tu_rng r;
  tu_rng_init(&r, "mean var accuracy");
  float *x = tu_alloc(N * sizeof *x);
  for (size_t i = 0; i < N; ++i) x[i] = (float)(1e4 + (tu_unit(&r) - 0.5));
  long double var;
  const double e32 = variance_error(x, N, GPUREDUCE_F32, 0, &var);
  check_true(e32 <= 1e-2, "f32 mean_var of 10^6 values 1e4 + U(-.5, .5): relative error of the "
             "variance %.3g (variance %.6Lg) <= 1e-2", e32, var);
  check_true(var > 0.08 && var < 0.087, "the variance of U(-.5, .5) is about 1/12: %.6Lg", var);
  const double e64 = variance_error(x, N, GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64, &var);
  check_true(e64 <= 1e-9, "f32 mean_var accumulated in double, 10^6 values 1e4 + U(-.5, .5): "
             "relative error of the variance %.3g <= 1e-9", e64);
  check_one(x, N, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0, "1e4 + U(-.5, .5)");
  check_one(x, N, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, GPUREDUCE_ACCUMULATE_F64, "1e4 + U(-.5, .5)");
  free(x);

  /* huge offsets: f64 c + U(-.5, .5) for c up to 1e12 */
  enum { M = 100000 };
  double *y = tu_alloc(M * sizeof *y);
  static const double offsets[] = {0, 1e6, 1e9, 1e12};
  for (size_t k = 0; k < COUNT(offsets); ++k) {
    for (size_t i = 0; i < M; ++i) y[i] = offsets[k] + (tu_unit(&r) - 0.5);
    char what[96];
    snprintf(what, sizeof what, "%g + U(-.5, .5)", offsets[k]);
    check_one(y, M, GPUREDUCE_F64, GPUREDUCE_MEAN_VAR, 0, what);
    const double e = variance_error(y, M, GPUREDUCE_F64, 0, &var);
    check_true(e <= (offsets[k] >= 1e12 ? 1e-1 : 1e-3),
               "f64 mean_var of %s: relative error of the variance %.3g", what, e);
  }
  free(y);

  /* constant input: the mean is the constant and the variance exactly +0 */
  const size_t te = tu_tile_elems(GPUREDUCE_F32);
  const size_t sizes[] = {1, 2, 33, te + 1, 3 * te + 5};
  float *c = tu_alloc(sizes[4] * sizeof *c);
  static const float consts[] = {1e4f, -3.25f, 1e30f, 1e-40f};
  for (size_t ci = 0; ci < COUNT(consts); ++ci)
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      for (size_t i = 0; i < sizes[si]; ++i) c[i] = consts[ci];
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags)
        expect_result(c, sizes[si], GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, flags,
                      bt_result_of(GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, flags, consts[ci], 0.0),
                      "every element %g: mean %g, variance exactly 0", consts[ci], consts[ci]);
    }
  free(c);
}

/* NaN, signed zeros and infinities, written out from gpureduce.h, and
 * integer inputs against values by hand. */
void bt_moment_specials(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const size_t te = tu_tile_elems(type), n = te + 9;
    double *v = tu_alloc(n * sizeof *v);
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
      if (!tu_result_size(type, GPUREDUCE_NRM2, flags)) continue;
#define MOMENTS(NRM, MEAN, VAR, ...)                                                          \
  do {                                                                                        \
    void *x_ = fill_doubles(type, v, n);                                                      \
    expect_result(x_, n, type, GPUREDUCE_NRM2, flags,                                         \
                  bt_result_of(type, GPUREDUCE_NRM2, flags, (NRM), 0), __VA_ARGS__);          \
    expect_result(x_, n, type, GPUREDUCE_MEAN_VAR, flags,                                     \
                  bt_result_of(type, GPUREDUCE_MEAN_VAR, flags, (MEAN), (VAR)), __VA_ARGS__); \
    free(x_);                                                                                 \
  } while (0)
      for (size_t i = 0; i < n; ++i) v[i] = 2.0;
      v[te + 3] = NAN;
      MOMENTS(NAN, NAN, NAN, "a NaN among 2s: NaN (both values of mean_var)");
      v[te + 3] = INFINITY;
      MOMENTS(INFINITY, NAN, NAN, "+inf among 2s: norm +inf, mean and variance NaN");
      v[te + 3] = -INFINITY;
      MOMENTS(INFINITY, NAN, NAN, "-inf among 2s: norm +inf, mean and variance NaN");
      v[0] = NAN;
      MOMENTS(NAN, NAN, NAN, "a NaN and -inf: NaN");
      for (size_t i = 0; i < n; ++i) v[i] = i % 2 ? 0.0 : -0.0;
      MOMENTS(0.0, 0.0, 0.0, "-0 and +0: norm +0, mean +0, variance +0");
      for (size_t i = 0; i < n; ++i) v[i] = 0.0;
      v[5] = 3.0;
      v[te + 1] = -4.0;
      void *x34 = fill_doubles(type, v, n);
      expect(x34, n, type, GPUREDUCE_NRM2, flags, rp(type, GPUREDUCE_NRM2, flags, 5.0),
             "3 and -4 among zeros, in different tiles: norm 5");
      free(x34);
#undef MOMENTS
      /* one element: the norm |x|, the mean x, the variance +0 */
      const double ones[] = {-2.5, INFINITY, -INFINITY, -0.0};
      for (size_t k = 0; k < COUNT(ones); ++k) {
        void *x = fill_doubles(type, &ones[k], 1);
        expect_result(x, 1, type, GPUREDUCE_NRM2, flags,
                      bt_result_of(type, GPUREDUCE_NRM2, flags, fabs(ones[k]), 0),
                      "the one element %g: norm %g", ones[k], fabs(ones[k]));
        expect_result(x, 1, type, GPUREDUCE_MEAN_VAR, flags,
                      bt_result_of(type, GPUREDUCE_MEAN_VAR, flags, ones[k], 0.0),
                      "the one element %g: mean %g, variance +0", ones[k], ones[k]);
        free(x);
      }
    }
    free(v);
  }
  /* reduce.h's example: the f32 {1, 2, 3, 4} has the mean_var {2.5, 1.25} */
  static const float f4[] = {1, 2, 3, 4};
  expect_result(f4, 4, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0, 2.5, 1.25),
                "f32 {1, 2, 3, 4}: mean 2.5, variance 1.25 (the example of reduce.h)");
  /* integers: {3, -4} (norm 5, mean -0.5, variance 12.25), and the
   * extremes of i64 and u64, rounded to double */
  static const int32_t i32[] = {3, -4};
  expect(i32, 2, GPUREDUCE_I32, GPUREDUCE_NRM2, 0, tu_f64_bits(5.0), "i32 {3, -4}: norm 5");
  expect_result(i32, 2, GPUREDUCE_I32, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_I32, GPUREDUCE_MEAN_VAR, 0, -0.5, 12.25),
                "i32 {3, -4}: mean -0.5, variance 12.25");
  static const int64_t i64[] = {INT64_MIN, INT64_MIN};
  expect(i64, 2, GPUREDUCE_I64, GPUREDUCE_NRM2, 0, tu_f64_bits(0x1p63 * 1.4142135623730951),
         "i64 {INT64_MIN, INT64_MIN}: norm 2^63 sqrt(2), computed in double");
  static const uint64_t u64[] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  expect_result(u64, 3, GPUREDUCE_U64, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_U64, GPUREDUCE_MEAN_VAR, 0, 0x1p64, 0.0),
                "u64 UINT64_MAX three times: each rounds to 2^64 in double, variance 0");
  static const uint8_t u8[] = {255, 0, 255, 0};
  expect_result(u8, 4, GPUREDUCE_U8, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_U8, GPUREDUCE_MEAN_VAR, 0, 127.5, 127.5 * 127.5),
                "u8 {255, 0, 255, 0}: mean 127.5, variance 127.5^2");
}

/* ---- tests: errors on this backend ----------------------------------------------- */

void bt_errors_leave_output(void **state) {
  (void)state;
  ensure_buffers(4096);
  unsigned char ob[OUT_BYTES];
  /* a valid input in backend memory: 100 floats 1..100 */
  float v[100];
  for (int i = 0; i < 100; ++i) v[i] = (float)(i + 1);
  B->put(in_mem, v, sizeof v);
  struct {
    const char *what;
    const void *in;
    size_t n;
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
    gpureduce_status_t wanted;
  } cases[] = {
      {"NULL input with n = 100", NULL, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"unknown op 10", in_mem, 100, GPUREDUCE_F32, (gpureduce_op_t)10, 0,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown type 10", in_mem, 100, (gpureduce_type_t)10, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown flag 0x4", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 4,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"accumulate-f64 on f32 min", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_MIN,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"argmax of n = 0", in_mem, 0, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"mean_var of n = 0", in_mem, 0, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"mean_var of n = 0 with a NULL input", NULL, 0, GPUREDUCE_F64, GPUREDUCE_MEAN_VAR, 0,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"NULL input with n = 100 for nrm2", NULL, 100, GPUREDUCE_F32, GPUREDUCE_NRM2, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"accumulate-f64 on f64 nrm2", in_mem, 100, GPUREDUCE_F64, GPUREDUCE_NRM2,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"accumulate-f64 on f16 mean_var", in_mem, 100, GPUREDUCE_F16, GPUREDUCE_MEAN_VAR,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"accumulate-f64 on i32 nrm2", in_mem, 100, GPUREDUCE_I32, GPUREDUCE_NRM2,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown flag 0x4 on mean_var", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 4,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"GPUREDUCE_WITH_VALUE on mean_var", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR,
       GPUREDUCE_WITH_VALUE, GPUREDUCE_ERROR_UNSUPPORTED},
      {"f32 nrm2 input at an odd address", in_mem + 1, 10, GPUREDUCE_F32, GPUREDUCE_NRM2, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"f32 input at an odd address", in_mem + 1, 10, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"f64 input 4 bytes past an aligned address", in_mem + 4, 10, GPUREDUCE_F64,
       GPUREDUCE_SUM, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    memset(ob, OUT_FILL, sizeof ob);
    B->put(out_mem, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_reduce(cases[k].in, out_mem, cases[k].n, cases[k].type,
                                                  cases[k].op, cases[k].flags, H);
    B->get(ob, out_mem, sizeof ob);
    check_status(cases[k].wanted, s, "%s on the %s backend", cases[k].what, B->name);
    check_bytes(ob, OUT_FILL, sizeof ob, "%s on the %s backend: the output is untouched",
                cases[k].what, B->name);
    const char *m = gpureduce_last_message(H);
    check_true(m && *m, "%s on the %s backend: gpureduce_last_message says why", cases[k].what,
               B->name);
  }
  /* misaligned output */
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  gpureduce_status_t s =
      gpureduce_reduce(in_mem, out_mem + 4, 100, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s,
               "argmin's 8-byte result at a 4-byte aligned address");
  check_bytes(ob, OUT_FILL, sizeof ob, "misaligned output: the output buffer is untouched");
  /* a 16-byte mean_var result at an 8-byte aligned address */
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  s = gpureduce_reduce(in_mem, out_mem + 8, 100, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR,
                       GPUREDUCE_ACCUMULATE_F64, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s,
               "f32 mean_var accumulated in double: its 16-byte result at an 8-byte aligned "
               "address");
  check_bytes(ob, OUT_FILL, sizeof ob, "misaligned mean_var output: the buffer is untouched");
  /* the handle still works */
  B->put(in_mem, v, sizeof v);
  s = gpureduce_reduce(in_mem, out_mem, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 0, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_SUCCESS, s, "after the errors, the sum of 1..100 succeeds");
  check_bits(tu_f32_bits(5050.0f), tu_load(ob, 0, 4), "after the errors, the sum of 1..100 is 5050");
}

/* ---- what the batched and segmented batteries share ------------------------ */

void *bt_room_for(struct bt_room *r, size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (r->cap >= bytes) return r->p;
  if (r->host) free(r->p);
  else B->release(r->p);
  r->cap = bytes + bytes / 4;
  r->p = r->host ? tu_alloc(r->cap) : B->alloc(r->cap);
  if (!r->p) {
    r->cap = 0;
    fail_msg("cannot allocate %zu bytes of %s memory", bytes, B->name);
  }
  return r->p;
}

void bt_room_free(struct bt_room *r) {
  if (r->host) free(r->p);
  else B->release(r->p);
  r->p = NULL;
  r->cap = 0;
}

const char *bt_kind_name(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  static char buf[64];
  snprintf(buf, sizeof buf, "%s %s%s%s", TU_TYPE(type)->name, tu_op_names[op],
           flags & GPUREDUCE_ACCUMULATE_F64 ? " accumulate-f64" : "",
           flags & GPUREDUCE_WITH_VALUE ? " with-value" : "");
  return buf;
}

int bt_is_arg(gpureduce_op_t op) { return op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX; }

static size_t special_p(size_t k, size_t n) { return (3 * k + 1) % (n / 2 - 1); }
static size_t special_q(size_t k, size_t n) { return n / 2 + k % (n - n / 2 - 1); }

int bt_special_pattern(gpureduce_type_t type, size_t k, size_t n) {
  const int m = (int)(k % 8);
  if (n < 5) return 0;
  return TU_TYPE(type)->is_float || m == 7 ? m : 0;
}

uint64_t bt_special_element(gpureduce_type_t type, size_t k, size_t n, size_t i, tu_rng *rng) {
  const int fl = TU_TYPE(type)->is_float;
  const int pat = bt_special_pattern(type, k, n);
  const size_t p = pat ? special_p(k, n) : 0, q = pat ? special_q(k, n) : 0;
  const uint64_t nan = tu_nan(type, (int)(k & 1), 1, k + 1);
  switch (pat) {
    case 1:
      if (i == p) return nan;
      break;
    case 2:
      if (i == p || i == q) return nan;
      break;
    case 3: return tu_pattern(type, -0.0);
    case 4: return tu_pattern(type, i % 2 ? 0.0 : -0.0);
    case 5:
      if (i == p) return tu_pos_inf(type);
      break;
    case 6:
      if (i == p) return tu_neg_inf(type);
      if (i == q) return tu_pos_inf(type);
      break;
    case 7:
      if (i == p || i == q) return fl ? tu_pattern(type, 0.5) : 3;
      if (i == p + 1 || i == q + 1) return fl ? tu_pattern(type, 4.0) : 120;
      break;
    default: break;
  }
  return fl ? tu_pattern(type, 1.0 + (double)tu_below(rng, 64) / 64) : 10 + tu_below(rng, 90);
}

int bt_special_answer(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, size_t k,
                      size_t n, bt_result *result, const char **why) {
  const int fl = TU_TYPE(type)->is_float;
  const int pat = bt_special_pattern(type, k, n);
  if (!pat) return 0;
  const size_t p = special_p(k, n), q = special_q(k, n);
  const int is_arg = bt_is_arg(op);
  if (tu_is_moment(op)) { /* gpureduce.h: NaN in, NaN out; +-inf give +inf, or NaN with others */
    if (pat == 1 || pat == 2) *why = "a NaN: NaN (MEAN_VAR: both values)";
    else if (pat == 3 || pat == 4) *why = "signed zeros only: norm +0, mean and variance +0";
    else if (pat == 5 || pat == 6) *why = "an infinity: norm +inf, mean and variance NaN";
    else return 0;
    const double zero_or_inf = pat >= 5 ? INFINITY : 0.0;
    *result = op == GPUREDUCE_NRM2 ? bt_result_of(type, op, flags, pat <= 2 ? NAN : zero_or_inf, 0)
              : pat == 3 || pat == 4 ? bt_result_of(type, op, flags, 0.0, 0.0)
                                     : bt_result_of(type, op, flags, NAN, NAN);
    return 1;
  }
  uint64_t w = 0, *wanted = &w;
  if (pat == 1 || pat == 2) {
    *why = "a NaN: NaN, or the first NaN's index";
    *wanted = is_arg ? p : bt_result_pattern(type, op, flags, NAN);
  } else if (pat == 3 && op != GPUREDUCE_PROD) {
    *why = "all -0: sum -0, |x| and squares +0, min and max -0, a tie at index 0";
    *wanted = is_arg ? 0
              : bt_result_pattern(type, op, flags,
                                  op == GPUREDUCE_SUM_ABS || op == GPUREDUCE_SUM_SQUARES ? 0.0
                                                                                        : -0.0);
  } else if (pat == 4 && op != GPUREDUCE_PROD) {
    *why = "-0 and +0: sums +0, min -0, max +0, a tie at index 0";
    *wanted = is_arg ? 0 : bt_result_pattern(type, op, flags, op == GPUREDUCE_MIN ? -0.0 : 0.0);
  } else if (pat == 5 && op != GPUREDUCE_PROD && op != GPUREDUCE_MIN &&
             op != GPUREDUCE_ARGMIN) {
    *why = "+inf at p: the sums +inf, max +inf at p";
    *wanted = op == GPUREDUCE_ARGMAX ? p : bt_result_pattern(type, op, flags, INFINITY);
  } else if (pat == 6 && op != GPUREDUCE_SUM_ABS && op != GPUREDUCE_SUM_SQUARES &&
             op != GPUREDUCE_PROD) {
    *why = "-inf at p and +inf at q: sum NaN, min -inf at p, max +inf at q";
    *wanted = op == GPUREDUCE_ARGMIN   ? p
              : op == GPUREDUCE_ARGMAX ? q
              : op == GPUREDUCE_MIN    ? bt_result_pattern(type, op, flags, -INFINITY)
              : op == GPUREDUCE_MAX    ? bt_result_pattern(type, op, flags, INFINITY)
                                       : bt_result_pattern(type, op, flags, NAN);
  } else if (pat == 7 && (op == GPUREDUCE_MIN || op == GPUREDUCE_MAX || is_arg)) {
    *why = "ties: the lowest index of the smallest or the largest value";
    *wanted = op == GPUREDUCE_ARGMIN   ? p
              : op == GPUREDUCE_ARGMAX ? p + 1
              : fl ? bt_result_pattern(type, op, flags, op == GPUREDUCE_MIN ? 0.5 : 4.0)
                   : (op == GPUREDUCE_MIN ? 3 : 120);
  } else {
    return 0;
  }
  *result = bt_word(w);
  return 1;
}
